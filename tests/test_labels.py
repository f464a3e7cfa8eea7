"""Labels without hierarchies (issue "Publish exactly what the data says", item 2), in Python:
categories split in an order the user gives (explicit, first appearance, sorted by default),
a group spanning a column's whole domain published as '*', and set labels listed in full up to
a length, else a digest whose members are on the result (and in the set-label file)."""
import hashlib
import json
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skyprivacy import InvalidParameterError, Policy
from skyprivacy.anonymize import k_anonymize, skyline_anonymize
from skyprivacy.labels import (
    label_differences,
    labels_document,
    member_digest,
    parse_labels,
    set_label,
)

SEVERITY = ["low", "mid", "high", "critical", "very_crit"]


def sha256_of(members) -> str:
    """The documented digest: SHA-256 of the members as a compact UTF-8 JSON array."""
    return hashlib.sha256(json.dumps(members, separators=(",", ":"), ensure_ascii=False)
                          .encode("utf-8")).hexdigest()
TRIAGE = pd.DataFrame({"severity": ["high", "low", "very_crit", "mid", "critical"] * 8,
                       "disease": ["a", "b", "c", "d"] * 10})


def _runs(result, column="severity"):
    """The groups of a release as the set of input values each holds."""
    groups = result.assignment.groupby(result.assignment).groups
    return sorted(sorted(set(TRIAGE.loc[rows, column])) for rows in groups.values())


def test_the_default_order_is_sorted_text():
    result = k_anonymize(TRIAGE, keep="disease", qi="severity", k=10)
    assert sorted(set(result.table["severity"])) == ["{critical, high, low}",
                                                     "{mid, very_crit}"]
    assert _runs(result) == _runs(k_anonymize(TRIAGE, keep="disease", qi="severity", k=10,
                                              order="sorted"))


def test_an_explicit_order_splits_along_it():
    result = k_anonymize(TRIAGE, keep="disease", qi="severity", k=10, order={"severity": SEVERITY})
    assert sorted(set(result.table["severity"])) == ["{critical, very_crit}",
                                                     "{low, mid, high}"]
    assert _runs(result) == [["critical", "very_crit"], ["high", "low", "mid"]]


def test_the_order_of_first_appearance():
    result = k_anonymize(TRIAGE, keep="disease", qi="severity", k=10, order="first")
    # first appearance: high, low, very_crit, mid, critical
    assert sorted(set(result.table["severity"])) == ["{high, low, very_crit}",
                                                     "{mid, critical}"]
    per_column = k_anonymize(TRIAGE, keep="disease", qi="severity", k=10,
                             order={"severity": "first"})
    assert per_column.table.equals(result.table)


def test_values_an_explicit_order_lists_but_the_column_lacks_are_ignored():
    result = k_anonymize(TRIAGE, keep="disease", qi="severity", k=10,
                         order={"severity": ["none", *SEVERITY, "fatal"]})
    assert sorted(set(result.table["severity"])) == ["{critical, very_crit}",
                                                     "{low, mid, high}"]


def test_a_group_spanning_the_whole_domain_is_published_as_a_star():
    result = k_anonymize(TRIAGE, keep="disease", qi="severity", k=40)
    assert set(result.table["severity"]) == {"*"}
    assert result.groups["severity"].tolist() == ["*"]
    # ... unless the column itself holds '*': then the set says what is inside
    starred = TRIAGE.replace({"low": "*"})
    assert set(k_anonymize(starred, keep="disease", qi="severity", k=40).table["severity"]) == {
        "{*, critical, high, mid, very_crit}"}


def test_numeric_ranges_keep_their_bounds_even_over_the_whole_column():
    table = pd.DataFrame({"age": [30, 31, 32, 33]})
    assert set(k_anonymize(table, qi="age", k=4).table["age"]) == {"[30, 33]"}


def test_a_long_set_is_a_digest_whose_members_are_on_the_result():
    assert len("{low, mid, high}") == 16 and len("{critical, very_crit}") == 21
    result = k_anonymize(TRIAGE, keep="disease", qi="severity", k=10, order={"severity": SEVERITY},
                         label_length=16)  # inclusive: a label of 16 characters is listed
    digest = sha256_of(["critical", "very_crit"])[:8]
    assert set(result.table["severity"]) == {"{low, mid, high}", f"{{#{digest}: 2 values}}"}
    assert result.set_labels == {"severity": {digest: ("critical", "very_crit")}}
    assert member_digest(["critical", "very_crit"]) == sha256_of(["critical", "very_crit"])
    assert result.groups["severity"].isin(set(result.table["severity"])).all()
    wide = k_anonymize(TRIAGE, keep="disease", qi="severity", k=10, order={"severity": SEVERITY},
                       label_length=21)
    assert set(wide.table["severity"]) == {"{low, mid, high}", "{critical, very_crit}"}
    assert wide.set_labels == {}


def test_label_length_zero_and_none():
    digests = k_anonymize(TRIAGE, keep="disease", qi="severity", k=10, label_length=0)
    assert all(re.fullmatch(r"\{#[0-9a-f]{8}: \d values\}", v)
               for v in digests.table["severity"])
    wide = TRIAGE.assign(severity=TRIAGE["severity"] + "-" + "x" * 40)
    full = k_anonymize(wide, keep="disease", qi="severity", k=10, label_length=None)
    assert all(v.startswith("{") and "#" not in v for v in full.table["severity"])
    assert full.set_labels == {}


def test_a_member_with_a_comma_is_never_listed_in_full():
    table = TRIAGE.replace({"low": "low, stable"})
    result = k_anonymize(table, qi="severity", k=10, keep="disease",
                         order={"severity": ["low, stable", *SEVERITY[1:]]})
    labels = set(result.table["severity"])
    assert "{critical, very_crit}" in labels
    (digest, members), = result.set_labels["severity"].items()
    assert members == ("low, stable", "mid", "high")
    assert f"{{#{digest}: 3 values}}" in labels


def test_skyline_anonymize_takes_the_same_options():
    table = pd.DataFrame({"severity": SEVERITY * 8, "disease": ["a", "b"] * 20})
    policy = Policy.uniform([(0, 0, 0, 0.9)])
    result = skyline_anonymize(table, qi="severity", sensitive="disease", policy=policy,
                               order={"severity": SEVERITY}, label_length=0)
    assert result.safe
    for label in set(result.table["severity"]):
        digest = re.fullmatch(r"\{#([0-9a-f]+): \d values\}", label)
        assert label in SEVERITY or label == "*" or digest.group(1) in \
            result.set_labels["severity"]


def test_digests_are_lengthened_only_on_a_collision():
    full = sha256_of(["a", "b"])
    known = {full[:8]: ("x", "y")}  # pretend another set took the first 8 digits
    assert set_label(["a", "b"], 0, known) == f"{{#{full[:9]}: 2 values}}"
    assert known[full[:9]] == ("a", "b")
    assert set_label(["a", "b"], 0, known) == f"{{#{full[:9]}: 2 values}}"  # same set


@pytest.mark.parametrize("order,message", [
    ("alphabetical", "The 'order' parameter of k_anonymize must be 'sorted', 'first', or a "
                     "mapping of quasi-identifier -> 'sorted', 'first' or the list of its "
                     "values in order. Got 'alphabetical' instead."),
    (3, "The 'order' parameter of k_anonymize must be 'sorted', 'first', or a mapping of "
        "quasi-identifier -> 'sorted', 'first' or the list of its values in order. Got 3 "
        "instead."),
    ({"zip": "first"}, "The 'order' parameter of k_anonymize names 'zip', which is not a "
                       "quasi-identifier; quasi-identifiers are ['severity', 'age']."),
    ({"age": "first"}, "The 'order' parameter of k_anonymize orders 'age', which is split as "
                       "numbers; pass categorical=['age'] (--categorical age) to split it as "
                       "categories in that order."),
    ({"severity": "up"}, "The 'order' parameter of k_anonymize must map 'severity' to "
                         "'sorted', 'first' or the list of its values in order. Got 'up' "
                         "instead."),
    ({"severity": 7}, "The 'order' parameter of k_anonymize must map 'severity' to 'sorted', "
                      "'first' or the list of its values in order. Got 7 instead."),
    ({"severity": ["low", "low"]}, "The 'order' parameter of k_anonymize lists 'low' twice "
                                   "for 'severity'."),
    ({"severity": [["low"]]}, "The 'order' parameter of k_anonymize must map 'severity' to "
                              "'sorted', 'first' or the list of its values in order. Got "
                              "[['low']] instead."),
    ({"severity": ["low", "mid"]}, "The 'order' parameter of k_anonymize does not list 3 "
                                   "value(s) of 'severity': ['high', 'very_crit', "
                                   "'critical']; an explicit order must list every value of "
                                   "the column."),
])
def test_bad_orders(order, message):
    table = TRIAGE.assign(age=range(40))
    with pytest.raises(InvalidParameterError, match=f"^{re.escape(message)}$"):
        k_anonymize(table, qi=["severity", "age"], k=10, order=order)


def test_an_order_for_a_column_with_a_hierarchy():
    from skyprivacy.hierarchy import from_mapping
    hierarchy = from_mapping({v: "*" for v in SEVERITY}, name="severity")
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'order' parameter of skyline_anonymize orders 'severity', which has a "
            "hierarchy; the hierarchy's leaves give its order.")):
        skyline_anonymize(TRIAGE, qi="severity", sensitive="disease",
                          policy=Policy.uniform([(0, 0, 0, 1)]),
                          hierarchies={"severity": hierarchy}, order={"severity": "first"})


@pytest.mark.parametrize("bad", [-1, 2.5, True, "64"])
def test_bad_label_lengths(bad):
    with pytest.raises(InvalidParameterError, match=re.escape(
            f"The 'label_length' parameter of k_anonymize must be a non-negative integer or "
            f"None. Got {bad!r} instead.")):
        k_anonymize(TRIAGE, keep="disease", qi="severity", k=10, label_length=bad)


# --------------------------------------------------------------------- the set-label file
def test_the_set_label_file_round_trips_and_checks_a_release():
    result = k_anonymize(TRIAGE, keep="disease", qi="severity", k=10, label_length=0)
    document = labels_document(result.set_labels)
    assert document["schema_version"] == 1 and document["kind"] == "skyprivacy.set-labels"
    sets = parse_labels(json.dumps(document).encode())
    assert sets == result.set_labels
    assert label_differences(result.table, ["severity"], sets) == []
    assert label_differences(result.table, ["severity"], {}) != []


@pytest.mark.parametrize("text,message", [
    (b"\xff", "it is not UTF-8 text"),
    ("{", "it is not valid JSON"),
    ("[" * 100_000 + "]" * 100_000,
     "it nests arrays or objects 100000 levels deep; at most 100 are read"),
    ("[]", 'it is not a set-label file (no "kind": "skyprivacy.set-labels")'),
    ('{"kind": "skyprivacy.set-labels", "schema_version": 2}',
     "schema_version 2 is not supported (this skyprivacy reads 1)"),
    ('{"kind": "skyprivacy.set-labels", "schema_version": 1, "columns": []}',
     "'columns' must map column names to {digest: [members]}"),
    ('{"kind": "skyprivacy.set-labels", "schema_version": 1, "columns": {"a": []}}',
     "the sets of column 'a' must be an object"),
    ('{"kind": "skyprivacy.set-labels", "schema_version": 1, '
     '"columns": {"a": {"0473ef2d": ["a"]}}}',
     "the members of '0473ef2d' in column 'a' must be a list of at least two strings"),
    ('{"kind": "skyprivacy.set-labels", "schema_version": 1, '
     '"columns": {"a": {"0473ef2e": ["a", "b"]}}}',
     "'0473ef2e' in column 'a' is not the SHA-256 of its members"),
])
def test_a_bad_set_label_file(text, message):
    with pytest.raises(ValueError, match=f"^{re.escape(message)}"):
        parse_labels(text)


def test_label_differences_name_each_unresolved_label():
    table = pd.DataFrame({"a": ["{#0473ef2d: 3 values}", "{#12345678: 2 values}", "x"]})
    assert label_differences(table, ["a"], {"a": {"0473ef2d": ("a", "b")}}) == [
        "Column 'a' publishes '{#0473ef2d: 3 values}', but the set-label file lists 2 members "
        "for it.",
        "Column 'a' publishes '{#12345678: 2 values}', which the set-label file does not list."]


# ---------------------------------------------------------------------------- properties
@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6))
def test_orders_only_relabel_the_search_and_sorted_is_the_default(seed):
    """The default order gives the same groups as 'sorted' and as the explicit sorted list;
    an explicit order equal to the order of first appearance gives the groups of 'first';
    every label covers its input cell."""
    rng = np.random.default_rng(seed)
    rows = int(rng.integers(10, 80))
    table = pd.DataFrame({"a": rng.choice(list("vwxyz"), rows), "b": rng.choice(list("pqr"),
                                                                                rows)})
    k = int(rng.integers(2, 6))
    default = k_anonymize(table, qi=["a", "b"], k=k)
    explicit_sorted = k_anonymize(table, qi=["a", "b"], k=k,
                                  order={c: sorted(set(table[c])) for c in "ab"})
    assert default.assignment.equals(k_anonymize(table, qi=["a", "b"], k=k,
                                                 order="sorted").assignment)
    assert default.assignment.equals(explicit_sorted.assignment)
    first = k_anonymize(table, qi=["a", "b"], k=k, order="first", label_length=0)
    explicit_first = k_anonymize(table, qi=["a", "b"], k=k, label_length=0,
                                 order={c: list(dict.fromkeys(table[c])) for c in "ab"})
    assert first.assignment.equals(explicit_first.assignment)
    assert first.table.equals(explicit_first.table)
    for result in (default, first):
        for column in "ab":
            domain = set(table[column])
            sets = result.set_labels.get(column, {})
            for label, cell in zip(result.table[column], table[column]):
                digest = re.fullmatch(r"\{#([0-9a-f]+): (\d+) values\}", label)
                assert (label == cell or (label == "*" and cell in domain)
                        or (digest is not None and cell in sets[digest.group(1)])
                        or (label.startswith("{") and cell in label[1:-1].split(", ")))
