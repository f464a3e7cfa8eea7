"""Certificates: canonical hashing, the recorded numbers, and verification catching every edit."""
import copy
import dataclasses
import hashlib
import re
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import skyprivacy
from skyprivacy import (Policy, ReleaseCandidate, breach_probability, skyline_anonymize,
                        skyline_check)
from skyprivacy._core.exact import fraction_text, parse_fraction
from skyprivacy.certificate import (
    CANONICAL_FORM,
    CERTIFICATE_SCHEMA_VERSION,
    build_certificate,
    canonical_csv,
    policy_from_json,
    policy_to_json,
    table_sha256,
    text_table,
    verify_certificate,
)
from skyprivacy.errors import InvalidParameterError, SchemaError


@pytest.fixture
def release_table():
    return pd.DataFrame({
        "age": ["2*", "2*", "2*", "2*", "3*", "3*", "3*", "3*"],
        "zip": ["130**"] * 8,
        "disease": ["Flu", "AIDS", "Flu", "Cold", "Flu", "Cold", "AIDS", "Cold"],
    })


@pytest.fixture
def policy():
    return Policy({"AIDS": [(0, 1, 0, 0.7), (1, 0, 0, Fraction(2, 3))]},
                  default=[(0, 0, 0, 0.9)])


# ------------------------------------------------------------------ canonical serialization
def test_canonical_csv_is_the_documented_text():
    table = pd.DataFrame({"b": [1, 2], "a": ["x, y", 'say "hi"'], "c": [0.1, np.nan]})
    assert canonical_csv(table) == 'b,a,c\n1,"x, y",0.1\n2,"say ""hi""",\n'
    assert table_sha256(table) == hashlib.sha256(canonical_csv(table).encode()).hexdigest()


def test_hash_depends_on_order_names_and_content(release_table):
    base = table_sha256(release_table)
    assert table_sha256(release_table.copy()) == base
    assert table_sha256(release_table.iloc[::-1]) != base
    assert table_sha256(release_table[["zip", "age", "disease"]]) != base
    assert table_sha256(release_table.rename(columns={"zip": "ZIP"})) != base
    edited = release_table.copy()
    edited.loc[0, "disease"] = "Flu "
    assert table_sha256(edited) != base


def test_hash_ignores_the_index(release_table):
    assert table_sha256(release_table.set_axis(range(10, 18))) == table_sha256(release_table)


def test_duplicate_column_names_are_refused():
    table = pd.DataFrame([[1, 2]], columns=["a", "a"])
    with pytest.raises(SchemaError, match=r"Column name\(s\) \['a'\] occur more than once"):
        canonical_csv(table)


cells = st.one_of(st.integers(-10**6, 10**6),
                  st.floats(allow_nan=False, allow_infinity=False, width=64),
                  st.text(alphabet=st.characters(blacklist_categories=("Cs",),
                                                 blacklist_characters="\r\x00"), max_size=6))


@settings(max_examples=60)
@given(st.lists(st.tuples(st.integers(0, 99), st.floats(-1e6, 1e6, allow_nan=False),
                          st.text(alphabet="ab ,\"'\nxé", max_size=5)),
                min_size=1, max_size=12))
def test_a_typed_table_and_its_csv_text_hash_the_same(rows):
    table = pd.DataFrame(rows, columns=["age", "score", "note"])
    text = text_table(table)
    assert canonical_csv(text) == canonical_csv(table)
    assert table_sha256(text) == table_sha256(table)
    assert all(isinstance(v, str) for v in text.to_numpy().ravel())


# ------------------------------------------------------------------------------ building
def test_certificate_records_everything(release_table, policy):
    cert = build_certificate(release_table, policy, qi=["age", "zip"], sensitive="disease")
    assert cert["schema_version"] == CERTIFICATE_SCHEMA_VERSION == 1
    assert cert["kind"] == "skyprivacy.certificate"
    assert cert["library"] == {"name": "skyprivacy", "version": skyprivacy.__version__}
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", cert["created"])
    assert cert["table"] == {"sha256": table_sha256(release_table),
                             "canonical_form": CANONICAL_FORM, "n_rows": 8,
                             "columns": ["age", "zip", "disease"]}
    assert cert["parameters"] == {"qi": ["age", "zip"], "group": None, "sensitive": "disease",
                                  "individual": None, "semantics": "svpi"}
    assert cert["policy"] == {"values": {"AIDS": [[0, 1, 0, 0.7], [1, 0, 0, "2/3"]]},
                              "default": [[0, 0, 0, 0.9]]}
    assert cert["release"] == {"n_groups": 2, "n_individuals": 8, "min_group_size": 4,
                               "max_group_size": 4}
    release = ReleaseCandidate.from_table(release_table, qi=["age", "zip"], sensitive="disease")
    expected = skyline_check(release, policy)
    assert cert["safe"] is expected.safe and cert["verdict"] == ("safe" if expected.safe
                                                                 else "unsafe")
    assert len(cert["checks"]) == len(expected.rows)
    for entry, row in zip(cert["checks"], expected.rows):
        assert entry["value"] == row.value
        assert (entry["l"], entry["k"], entry["m"]) == row.point.knowledge
        assert Fraction(entry["breach_probability_exact"]) == row.breach_probability
        assert entry["breach_probability"] == float(row.breach_probability)
        assert entry["c_exact"] == str(row.point.c_exact)
        assert entry["safe"] is row.safe
        assert entry["worst_case"] == row.worst_case.description


def test_created_can_be_fixed(release_table, policy):
    cert = build_certificate(release_table, policy, qi="age", sensitive="disease",
                             created="2024-05-01T00:00:00Z")
    assert cert["created"] == "2024-05-01T00:00:00Z"


def test_numeric_values_and_keys_are_certified_as_text():
    table = pd.DataFrame({"age": [30, 30, 40, 40, 40], "code": [1, 2, 1, 2, 2]})
    policy = Policy({1: [(0, 0, 0, 0.6)]}, default=[(0, 0, 0, 0.99)])
    cert = build_certificate(table, policy, qi="age", sensitive="code")
    assert [c["value"] for c in cert["checks"]] == ["1", "2"]
    assert cert["checks"][0]["c_exact"] == "3/5"  # the policy's value 1 matched the text '1'
    assert cert["unused_policy_values"] == []
    assert verify_certificate(text_table(table), cert).ok


def test_policy_json_round_trip_keeps_exact_thresholds():
    policy = Policy({"a": [(0, 1, 0, Fraction(1, 3)), (2, 0, 0, 0.5)]},
                    default=[(1, 5, 1, 0.9)])
    assert policy_from_json(policy_to_json(policy)) == policy
    toml_shape = {"default": {"skyline": [[1, 5, 1, 0.9]]},
                  "values": {"a": {"skyline": [[0, 1, 0, "1/3"], [2, 0, 0, 0.5]]}}}
    assert policy_from_json(toml_shape) == policy


def test_policy_json_rejects_a_bad_threshold_string():
    with pytest.raises(InvalidParameterError,
                       match=r"Policy for value 'a': the threshold c of \[0, 1, 0, 'high'\] "
                             r"must be a number or a fraction such as '2/3'"):
        policy_from_json({"values": {"a": [[0, 1, 0, "high"]]}})


def test_certificate_of_an_anonymization_verifies():
    rng = np.random.default_rng(3)
    table = pd.DataFrame({"age": rng.integers(20, 70, 300),
                          "disease": rng.choice(["flu", "cold", "aids", "none"], 300)})
    policy = Policy.uniform([(1, 2, 1, 0.8)])
    result = skyline_anonymize(table, qi="age", sensitive="disease", policy=policy)
    cert = build_certificate(result.table, policy, qi="age", sensitive="disease",
                             result=result.certificate)
    assert cert == {**build_certificate(result.table, policy, qi="age", sensitive="disease"),
                    "created": cert["created"]}
    assert verify_certificate(result.table, cert).ok
    assert verify_certificate(text_table(result.table), cert).ok


def test_bucketized_release_certifies_by_its_group_column():
    table = pd.DataFrame({"bucket": [1, 1, 2, 2], "disease": ["a", "b", "a", "c"]})
    cert = build_certificate(table, Policy.uniform([(0, 0, 0, 0.6)]), group="bucket",
                             sensitive="disease")
    assert cert["parameters"]["group"] == "bucket" and cert["parameters"]["qi"] is None
    assert cert["verdict"] == "safe"
    assert verify_certificate(table, cert).ok


def test_unused_policy_values_are_recorded_without_warning(release_table):
    policy = Policy({"Plague": [(0, 0, 0, 0.5)]}, default=[(0, 0, 0, 0.9)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cert = build_certificate(release_table, policy, qi="age", sensitive="disease")
    assert cert["unused_policy_values"] == ["Plague"]


def test_build_errors(release_table, policy):
    with pytest.raises(InvalidParameterError, match="The 'policy' parameter of "
                                                    "build_certificate must be a Policy"):
        build_certificate(release_table, {"AIDS": []}, qi="age", sensitive="disease")
    with pytest.raises(SchemaError, match="Column 'zip9' is not in the table"):
        build_certificate(release_table, policy, qi="zip9", sensitive="disease")
    with pytest.raises(InvalidParameterError, match="The 'result' parameter"):
        build_certificate(release_table, policy, qi="age", sensitive="disease", result=42)
    with pytest.raises(InvalidParameterError, match="The 'qi' parameter of build_certificate"):
        build_certificate(release_table, policy, qi=[], sensitive="disease")


# ----------------------------------------------------------------------------- verifying
@pytest.fixture
def certified(release_table, policy):
    return release_table, build_certificate(release_table, policy, qi=["age", "zip"],
                                            sensitive="disease")


def test_an_untouched_release_verifies(certified):
    table, cert = certified
    result = verify_certificate(table, cert)
    assert result.ok and result.differences == ()
    assert result.to_dict() == {"verified": True, "differences": []}


def test_a_changed_cell_fails_on_the_hash(certified):
    table, cert = certified
    edited = table.copy()
    edited.loc[3, "disease"] = "Flu"
    result = verify_certificate(edited, cert)
    assert not result.ok
    assert result.differences == (
        f"The table does not match the certificate: its SHA-256 is {table_sha256(edited)}, "
        f"the certificate records {cert['table']['sha256']}.",)


def test_an_edited_breach_probability_fails(certified):
    table, cert = certified
    edited = copy.deepcopy(cert)
    edited["checks"][0]["breach_probability_exact"] = "1/100"
    edited["checks"][0]["breach_probability"] = 0.01
    result = verify_certificate(table, edited)
    assert result.differences == (
        f"Breach probability of 'AIDS' at (l=0, k=1, m=0, c=7/10) differs: the certificate "
        f"records 1/100, the table gives {cert['checks'][0]['breach_probability_exact']}.",)


def test_a_float_that_disagrees_with_its_fraction_fails(certified):
    table, cert = certified
    edited = copy.deepcopy(cert)
    edited["checks"][1]["breach_probability"] = 0.123
    (difference,) = verify_certificate(table, edited).differences
    assert difference.startswith("The certificate's float breach probability 0.123 for 'AIDS' "
                                 "at (l=1, k=0, m=0, c=2/3) disagrees with its exact value")


def test_an_edited_verdict_fails(certified):
    table, cert = certified
    edited = copy.deepcopy(cert)
    assert cert["verdict"] == "safe"
    edited["verdict"], edited["safe"] = "unsafe", False
    edited["checks"][0]["safe"] = False
    assert verify_certificate(table, edited).differences == (
        "The verdict of 'AIDS' at (l=0, k=1, m=0, c=7/10) differs: the certificate says unsafe, "
        "the table gives safe.",
        "The verdict differs: the certificate says 'unsafe', the table gives 'safe'.")


def test_a_dropped_or_invented_check_fails(certified):
    table, cert = certified
    dropped = copy.deepcopy(cert)
    del dropped["checks"][0]
    assert verify_certificate(table, dropped).differences[0] == (
        "The certificate has no check for 'AIDS' at (l=0, k=1, m=0, c=7/10), which its policy "
        "requires.")
    invented = copy.deepcopy(cert)
    invented["checks"].append({**cert["checks"][0], "value": "Plague"})
    assert verify_certificate(table, invented).differences[-1] == (
        "The certificate lists a check for 'Plague' at (l=0, k=1, m=0, c=7/10) that its policy "
        "and the table do not produce.")


def test_a_laxer_policy_in_the_certificate_fails(certified):
    table, cert = certified
    edited = copy.deepcopy(cert)
    edited["policy"]["values"]["AIDS"][0][3] = 0.99
    assert not verify_certificate(table, edited).ok


def test_other_grouping_columns_fail(certified):
    table, cert = certified
    edited = copy.deepcopy(cert)
    edited["parameters"]["qi"] = ["zip"]
    assert not verify_certificate(table, edited).ok


@pytest.mark.parametrize("edit, message", [
    (lambda c: c.pop("checks"), r"missing field\(s\) \['checks'\]"),
    (lambda c: c.update(kind="receipt"), "'kind' is 'receipt', expected "
                                         "'skyprivacy.certificate'"),
    (lambda c: c.update(schema_version=2), "schema_version 2 is not supported"),
    (lambda c: c["table"].pop("sha256"), r"'table.sha256' is missing"),
    (lambda c: c["table"].update(canonical_form="xml"), "canonical form 'xml'"),
    (lambda c: c["parameters"].update(semantics="both"), "The 'semantics' parameter"),
    (lambda c: c["parameters"].update(group="g"), "exactly one of 'parameters.qi' and "
                                                  "'parameters.group'"),
    (lambda c: c.update(policy={"default": [[0, 0, 0, 2]]}), "its policy is invalid"),
    (lambda c: c["checks"][0].pop("l"), "a check has no 'l'"),
    (lambda c: c.update(verdict="fine"), "'verdict' must be 'safe' or 'unsafe'"),
    (lambda c: c["checks"][0].update(breach_probability_exact="x"), "unreadable number"),
])
def test_malformed_certificates_are_refused(certified, edit, message):
    table, cert = certified
    edited = copy.deepcopy(cert)
    edit(edited)
    with pytest.raises(InvalidParameterError, match="The certificate is malformed: .*" + message):
        verify_certificate(table, edited)


def test_verify_names_a_missing_column(certified):
    table, cert = certified
    with pytest.raises(SchemaError, match="Column 'zip' is not in the table"):
        verify_certificate(table.drop(columns="zip"), {**cert, "table": {
            **cert["table"], "sha256": table_sha256(table.drop(columns="zip"))}})


# ------------------------------------------------------------------ the set-label file
def _digest_release():
    from skyprivacy.labels import labels_bytes, labels_record
    table = pd.DataFrame({"severity": ["low", "mid", "high", "critical", "very_crit"] * 4,
                          "disease": list("abcde") * 4})
    policy = Policy.uniform([(0, 0, 0, 0.6)])
    result = skyline_anonymize(table, qi="severity", sensitive="disease", policy=policy,
                               label_length=0)
    data = labels_bytes(result.set_labels)
    cert = build_certificate(result.table, policy, qi="severity", sensitive="disease",
                             labels=labels_record(data, "out.labels.json"))
    return result, policy, data, cert


def test_a_certificate_records_the_set_label_file_and_verification_checks_it():
    result, policy, data, cert = _digest_release()
    assert result.set_labels and cert["labels"] == {
        "file": "out.labels.json", "sha256": hashlib.sha256(data).hexdigest()}
    assert verify_certificate(result.table, cert, labels=data).ok
    assert verify_certificate(result.table, cert, labels=data.decode()).ok
    assert verify_certificate(result.table, cert).differences == (
        f"The certificate records the set-label file 'out.labels.json' (SHA-256 "
        f"{cert['labels']['sha256']}), which was not given.",)
    edited = data.replace(b'"schema_version": 1', b'"schema_version":  1')
    assert verify_certificate(result.table, cert, labels=edited).differences == (
        f"The set-label file 'out.labels.json' does not match the certificate: its SHA-256 is "
        f"{hashlib.sha256(edited).hexdigest()}, the certificate records "
        f"{cert['labels']['sha256']}.",)
    plain = build_certificate(result.table, policy, qi="severity", sensitive="disease")
    assert plain["labels"] is None
    assert verify_certificate(result.table, plain, labels=data).differences == (
        "A set-label file was given, but the certificate records none.",)


def test_a_recorded_set_label_file_that_does_not_resolve_the_table():
    from skyprivacy.labels import labels_bytes, labels_record
    result, policy, data, cert = _digest_release()
    column, sets = next(iter(result.set_labels.items()))
    digest = sorted(sets)[0]
    fewer = labels_bytes({column: {d: m for d, m in sets.items() if d != digest}})
    cert = build_certificate(result.table, policy, qi="severity", sensitive="disease",
                             labels=labels_record(fewer, "x.json"))
    label = f"{{#{digest}: {len(sets[digest])} values}}"
    assert verify_certificate(result.table, cert, labels=fewer).differences == (
        f"Column 'severity' publishes {label!r}, which the set-label file does not list.",)
    broken = b'{"kind": "skyprivacy.set-labels"}'
    cert = build_certificate(result.table, policy, qi="severity", sensitive="disease",
                             labels=labels_record(broken, "x.json"))
    assert verify_certificate(result.table, cert, labels=broken).differences == (
        "The set-label file 'x.json' cannot be used: schema_version None is not supported "
        "(this skyprivacy reads 1).",)


@pytest.mark.parametrize("record", [{"file": "x"}, {"file": "", "sha256": "0" * 64},
                                    {"file": "x", "sha256": "XYZ"}, "x.json"])
def test_a_malformed_set_label_record(record, release_table, policy):
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'labels' parameter of build_certificate must be None or {'file': name, "
            "'sha256': 64 hex digits} (skyprivacy.labels.labels_record). Got ")):
        build_certificate(release_table, policy, qi=["age", "zip"], sensitive="disease",
                          labels=record)
    cert = build_certificate(release_table, policy, qi=["age", "zip"], sensitive="disease")
    cert["labels"] = record
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The certificate is malformed: 'labels' must be null or an object with 'file' and "
            "a 'sha256' of 64 hex digits.")):
        verify_certificate(release_table, cert)


def test_a_probability_of_thousands_of_digits_is_certified_and_verified_exactly():
    """One large mvpi-multiset group: the exact breach probability runs past the 4,300 digits
    str() converts at once; the certificate holds it whole, verify reads it back exactly, and
    the sentences round it instead of crashing."""
    people = range(3000)  # everyone holds 'a', every other person 'b' too (long format)
    rows = [(p, "1", "a") for p in people] + [(p, "1", "b") for p in people if p % 2]
    table = pd.DataFrame(rows, columns=["pid", "zip", "dx"])
    policy = Policy.uniform([(0, 2, 2, 0.7)])
    certificate = build_certificate(table, policy, sensitive="dx", qi="zip", individual="pid",
                                    semantics="mvpi-multiset")
    exact = {c["value"]: c["breach_probability_exact"] for c in certificate["checks"]}
    assert len(exact["a"]) > 4300 and "/" in exact["a"]
    release = ReleaseCandidate.from_table(table, qi="zip", sensitive="dx", individual="pid",
                                          semantics="mvpi-multiset")
    bp = breach_probability(release, "a", l=0, k=2, m=2, exact=True)
    assert parse_fraction(exact["a"]) == bp
    assert verify_certificate(table, certificate).ok
    certificate["checks"][0]["breach_probability_exact"] = fraction_text(bp + Fraction(1, 10 ** 9))
    assert not verify_certificate(table, certificate).ok
    explained = skyline_check(release, policy).explain()
    assert f"~{float(bp):.6g}" in explained
    from skyprivacy.report import render_report
    page = render_report(certificate, release)
    assert f"~{float(bp):.6g}" in page and exact["a"] not in page


# ------------------------------------------------------------------ the identity-risk section
@pytest.fixture
def risky_table():
    return pd.DataFrame({"age": ["2*", "2*", "3*", "3*", "3*", "4*", "5*", "5*"],
                         "zip": ["130**", "130**", "130**", "130**", "131**", "131**",
                                 "131**", "131**"],
                         "disease": ["Flu", "AIDS", "Flu", "Cold", "Flu", "Cold", "AIDS",
                                     "Cold"]})


def _leaves(data, path=()):
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _leaves(value, (*path, key))
    elif isinstance(data, list) and data and not all(isinstance(v, str) for v in data):
        for i, value in enumerate(data):
            yield from _leaves(value, (*path, i))
    else:
        yield path, data


def _tampered(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value * 1.5 + 0.125
    if isinstance(value, str):
        return {"dankar": "pitman", "pitman": "zayatz", "zayatz": "snb"}.get(value, "9/7")
    if isinstance(value, list):
        return value[:-1] if value else ["x"]
    return 3  # None


def test_a_certificate_without_risk_is_unchanged(risky_table, policy):
    plain = build_certificate(risky_table, policy, qi=["age", "zip"], sensitive="disease",
                              created="2024-01-01T00:00:00Z")
    assert "risk" not in plain
    with_risk = build_certificate(risky_table, policy, qi=["age", "zip"], sensitive="disease",
                                  created="2024-01-01T00:00:00Z", risk=True)
    assert {k: v for k, v in with_risk.items() if k != "risk"} == plain


def test_the_risk_section_round_trips(risky_table, policy):
    before = risky_table.copy()
    cert = build_certificate(risky_table, policy, qi=["age", "zip"], sensitive="disease",
                             risk=True, population_size=80)
    section = cert["risk"]
    assert section["assumptions"] == {"qi": ["age", "zip"], "population_size": 80,
                                      "model": "dankar"}
    figures = section["figures"]
    assert figures["prosecutor_max_exact"] == "1" and figures["prosecutor_average_exact"] == "5/8"
    assert figures["sample_uniqueness_exact"] == "1/4"
    assert figures["class_sizes"] == {"sizes": [1, 2], "counts": [2, 3]}
    assert figures["population"]["model"] == "pitman"  # 8/80 = 10%: Dankar's rule
    assert figures["journalist"]["max_exact"] == "1/10"
    assert "highest" not in figures
    result = verify_certificate(risky_table, copy.deepcopy(cert))
    assert result.ok, result.differences
    assert result.recomputed["risk"] == section
    pd.testing.assert_frame_equal(risky_table, before)


@pytest.mark.parametrize("population_size", [None, 80, 20])
def test_every_risk_field_tampered_is_caught(risky_table, policy, population_size):
    cert = build_certificate(risky_table, policy, qi=["age", "zip"], sensitive="disease",
                             risk=True, population_size=population_size)
    leaves = list(_leaves(cert["risk"]))
    assert len(leaves) > 20
    for path, value in leaves:
        bad = copy.deepcopy(cert)
        target = bad["risk"]
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = _tampered(value)
        try:
            result = verify_certificate(risky_table, bad)
        except InvalidParameterError as exc:
            assert str(exc).startswith("The certificate is malformed: 'risk"), (path, exc)
            continue
        assert not result.ok, path
        assert any("risk figure" in d for d in result.differences), (path, result.differences)


def test_a_tampered_figure_and_a_changed_table_are_named(risky_table, policy):
    cert = build_certificate(risky_table, policy, qi=["age", "zip"], sensitive="disease",
                             risk=True)
    bad = copy.deepcopy(cert)
    bad["risk"]["figures"]["prosecutor_average_exact"] = "1/2"
    assert verify_certificate(risky_table, bad).differences == (
        "The risk figure 'prosecutor_average_exact' differs: the certificate records '1/2', "
        "the table gives '5/8'.",)
    changed = risky_table.assign(age=["2*"] * 8)
    rebuilt = build_certificate(changed, policy, qi=["age", "zip"], sensitive="disease",
                                risk=True)
    moved = {**rebuilt, "risk": cert["risk"]}  # the new table's hash, the old figures
    differences = verify_certificate(changed, moved).differences
    assert ("The risk figure 'sample_uniqueness_exact' differs: the certificate records "
            "'1/4', the table gives '0'.") in differences
    assert verify_certificate(changed, cert).differences[0].startswith(
        "The table does not match the certificate")


def test_risk_errors(risky_table, policy):
    build = build_certificate
    with pytest.raises(InvalidParameterError, match=r"^The 'risk' parameter of "
                                                    r"build_certificate must be True or False"):
        build(risky_table, policy, qi="age", sensitive="disease", risk="yes")
    with pytest.raises(InvalidParameterError, match=r"^build_certificate takes "
                                                    r"'population_size' and 'risk_model' only "
                                                    r"with risk=True\.$"):
        build(risky_table, policy, qi="age", sensitive="disease", population_size=10)
    with pytest.raises(InvalidParameterError, match=r"^build_certificate takes 'risk_model' "
                                                    r"only with a 'population_size'\.$"):
        build(risky_table, policy, qi="age", sensitive="disease", risk=True, risk_model="snb")
    with pytest.raises(InvalidParameterError, match=r"^The 'risk' parameter of "
                                                    r"build_certificate must be False for a "
                                                    r"bucketized release"):
        build(risky_table, policy, group="zip", sensitive="disease", risk=True)
    with pytest.raises(InvalidParameterError, match=r"'population_size' parameter of "
                                                    r"identity_risk .*Got 3 instead"):
        build(risky_table, policy, qi="age", sensitive="disease", risk=True,
              population_size=3)
    cert = build(risky_table, policy, qi="age", sensitive="disease", risk=True)
    for section, message in [
            ("x", "'risk' must be an object with 'assumptions' and 'figures'"),
            ({"assumptions": {"qi": ["zip"], "population_size": None, "model": "dankar"},
              "figures": {}},
             "'risk.assumptions.qi' is ['zip'], but the certificate's QI columns are ['age']"),
            ({"assumptions": {"qi": ["age"], "population_size": -1, "model": "dankar"},
              "figures": {}},
             "'risk.assumptions.population_size' must be null or a positive integer, not -1"),
            ({"assumptions": {"qi": ["age"], "population_size": None, "model": "best"},
              "figures": {}},
             "'risk.assumptions.model' must be one of ['pitman', 'zayatz', 'snb', 'dankar'], "
             "not 'best'"),
            ({"assumptions": {"qi": ["age"], "population_size": None, "model": "snb"},
              "figures": {}},
             "'risk.assumptions.model' is 'snb' without a population size (a model is only "
             "used with one; the default is 'dankar')"),
            ({"assumptions": {"qi": ["age"], "population_size": 5, "model": "snb"},
              "figures": {}},
             "'risk.assumptions.population_size' (5) is smaller than the table's 8 rows")]:
        with pytest.raises(InvalidParameterError,
                           match="^" + re.escape(f"The certificate is malformed: {message}.")):
            verify_certificate(risky_table, {**cert, "risk": section})


# ------------------------------------------------ criteria and anonymization certificates
from skyprivacy.anonymize import anonymize  # noqa: E402
from skyprivacy.certificate import (  # noqa: E402
    CRITERIA_KEYS,
    anonymization_certificate,
    criteria_from_spec,
    criteria_to_spec,
    criterion_spec,
    parse_criterion,
)
from skyprivacy.criteria import (  # noqa: E402
    AverageRisk,
    BetaLikeness,
    DeltaDisclosure,
    DistinctLDiversity,
    EntropyLDiversity,
    KAnonymity,
    KMap,
    PopulationUniqueness,
    ProsecutorRisk,
    RecursiveCLDiversity,
    TCloseness,
)
from skyprivacy.hierarchy import Hierarchy  # noqa: E402

EVERY_CRITERION = [KAnonymity(2), DistinctLDiversity(2), EntropyLDiversity(Fraction(3, 2)),
                   RecursiveCLDiversity(3, 2), TCloseness(0.6), TCloseness(0.6,
                                                                        distance="ordered"),
                   BetaLikeness(4), BetaLikeness(4, enhanced=True), DeltaDisclosure(3),
                   ProsecutorRisk(0.5), AverageRisk(0.5),
                   PopulationUniqueness(Fraction(1, 2), population_size=100, model="pitman")]


def test_every_criterion_round_trips_through_its_spec():
    spec = criteria_to_spec(EVERY_CRITERION)
    assert set(spec) == set(CRITERIA_KEYS)
    assert spec["l-diversity"] == ["distinct:2", "entropy:1.5", "recursive:3,2"]
    assert spec["t-closeness"] == ["equal:0.6", "ordered:0.6"]
    assert spec["beta-likeness"] == ["basic:4", "enhanced:4"]
    back = criteria_from_spec(spec)
    assert [repr(c) for c in back] == [repr(c) for c in EVERY_CRITERION]
    assert criterion_spec(EntropyLDiversity(Fraction(4, 3))) == ("l-diversity",
                                                                 "entropy:4/3")
    assert parse_criterion("l-diversity", "entropy:4/3").l == Fraction(4, 3)
    assert parse_criterion("t-closeness", "equal:0.2").t == Fraction(1, 5)  # exact
    assert parse_criterion("k", 5.0).k == 5 and parse_criterion("k", "7").k == 7
    assert spec["population-uniqueness"] == ["pitman:0.5,100"]


@pytest.mark.parametrize("key, value, message", [
    ("k", 0, "'k' must be a whole number >= 1; got 0."),
    ("k", 2.5, "'k' must be a whole number >= 1; got 2.5."),
    ("k", True, "'k' must be a whole number >= 1; got True."),
    ("k", "1e999999999", "'k' must be a whole number >= 1; got '1e999999999'."),
    ("k", "9" * 41, f"'k' must be a whole number >= 1; got '{'9' * 41}'."),
    ("k", float("inf"), "'k' must be a whole number >= 1; got inf."),
    ("l-diversity", "distinct", "'l-diversity' must be distinct:L, entropy:L or "
                                "recursive:C,L (e.g. 'distinct:3'); got 'distinct'."),
    ("l-diversity", "distinc:3", "'l-diversity' must be distinct:L, entropy:L or "
                                 "recursive:C,L (e.g. 'distinct:3'); got 'distinc:3'."),
    ("l-diversity", "distinct:2.5", "'l-diversity' must be distinct:L, entropy:L or "
                                    "recursive:C,L (e.g. 'distinct:3'); got 'distinct:2.5'."),
    ("l-diversity", "recursive:3", "'l-diversity' must be distinct:L, entropy:L or "
                                   "recursive:C,L (e.g. 'distinct:3'); got 'recursive:3'."),
    ("l-diversity", "entropy:0.5", "'l-diversity' must be distinct:L, entropy:L or "
                                   "recursive:C,L (e.g. 'distinct:3'); got 'entropy:0.5'."),
    ("l-diversity", 3, "'l-diversity' must be distinct:L, entropy:L or recursive:C,L (e.g. "
                       "'distinct:3'); got 3."),
    ("t-closeness", "equal:1.5", "'t-closeness' must be equal:T or ordered:T with T in "
                                 "[0, 1] (e.g. 'equal:0.2'); got 'equal:1.5'."),
    ("t-closeness", "hierarchical:0.2", "'t-closeness' must be equal:T or ordered:T with T "
                                        "in [0, 1] (e.g. 'equal:0.2'); got "
                                        "'hierarchical:0.2'."),
    ("beta-likeness", "basic:0", "'beta-likeness' must be basic:B or enhanced:B with B > 0 "
                                 "(e.g. 'basic:1.5'); got 'basic:0'."),
    ("delta-disclosure", "-1", "'delta-disclosure' must be a number > 0; got '-1'."),
    ("prosecutor-risk", 2, "'prosecutor-risk' must be a number in (0, 1]; got 2."),
    ("average-risk", "nan", "'average-risk' must be a number in (0, 1]; got 'nan'."),
    ("population-uniqueness", "dankar:1.5,100",
     "'population-uniqueness' must be MODEL:U,N with MODEL one of pitman, zayatz, snb, dankar, "
     "U in [0, 1] and N the population size >= 1 (e.g. 'dankar:0.05,1000000'); got "
     "'dankar:1.5,100'."),
    ("population-uniqueness", "poisson:0.1,100",
     "'population-uniqueness' must be MODEL:U,N with MODEL one of pitman, zayatz, snb, dankar, "
     "U in [0, 1] and N the population size >= 1 (e.g. 'dankar:0.05,1000000'); got "
     "'poisson:0.1,100'."),
    ("population-uniqueness", "snb:0.1,10.5",
     "'population-uniqueness' must be MODEL:U,N with MODEL one of pitman, zayatz, snb, dankar, "
     "U in [0, 1] and N the population size >= 1 (e.g. 'dankar:0.05,1000000'); got "
     "'snb:0.1,10.5'."),
    ("m", 3, "Unknown criterion 'm'; the criteria are ['k', 'l-diversity', 't-closeness', "
             "'beta-likeness', 'delta-disclosure', 'prosecutor-risk', 'average-risk', "
             "'population-uniqueness']."),
])
def test_a_bad_criterion_names_its_key_and_value(key, value, message):
    with pytest.raises(InvalidParameterError, match="^" + re.escape(message) + "$"):
        parse_criterion(key, value)


def test_a_bad_criteria_spec():
    with pytest.raises(InvalidParameterError, match=r"^'k' is an empty list; give a whole "
                                                    r"number >= 1\.$"):
        criteria_from_spec({"k": []})
    with pytest.raises(InvalidParameterError, match=r"^The criteria must be a table of "
                                                    r"criterion = value; got 5\.$"):
        criteria_from_spec(5)
    assert [repr(c) for c in criteria_from_spec({"l-diversity": ["distinct:2", "entropy:2"]})
            ] == ["DistinctLDiversity(l=2)", "EntropyLDiversity(l=2)"]
    with pytest.raises(InvalidParameterError, match=r"^The 'criterion' parameter of "
                                                    r"criterion_spec must be a criterion a "
                                                    r"\[criteria\] section can hold"):
        criterion_spec(KMap(2, population=pd.DataFrame({"zip": ["11", "12"]})))


ZIPS = Hierarchy([["11", "1*", "*"], ["12", "1*", "*"], ["21", "2*", "*"], ["22", "2*", "*"],
                  ["31", "3*", "*"], ["32", "3*", "*"]])
REASONS = [{"group": {"zip": z}, "n_rows": 1,
            "fails": ["KAnonymity(k=2)", "DistinctLDiversity(l=2)"]} for z in ("31", "32")]


def _table():
    """Four groups of three rows that are safe as collected, and two outliers (31, 32)."""
    return pd.DataFrame({"zip": ["11", "12", "21", "22"] * 3 + ["31", "32"],
                         "dx": ["a"] * 4 + ["b"] * 4 + ["c"] * 4 + ["a", "b"]})


@pytest.fixture(params=["drop", "mask"])
def suppressed_release(request):
    mode = request.param
    criteria = [KAnonymity(2), DistinctLDiversity(2)]
    result = anonymize(_table(), qi="zip", sensitive="dx", criteria=criteria,
                       method="full-domain", suppression_limit=0.2, suppressed=mode,
                       hierarchies={"zip": ZIPS})
    assert result.suppressed == 2 and result.levels == {"zip": 0}
    cert = anonymization_certificate(result, qi="zip", sensitive="dx", criteria=criteria,
                                     suppressed=mode, suppression_limit=0.2, reasons=REASONS,
                                     created="2024-01-01T00:00:00Z")
    return mode, result, cert


def test_a_suppressed_release_round_trips(suppressed_release):
    mode, result, cert = suppressed_release
    assert cert["verdict"] == "safe" and cert["policy"] is None and cert["checks"] == []
    assert cert["criteria"] == {
        "spec": {"k": [2], "l-diversity": ["distinct:2"]},
        "results": [{"criterion": "KAnonymity(k=2)", "safe": True, "failing_groups": 0},
                    {"criterion": "DistinctLDiversity(l=2)", "safe": True,
                     "failing_groups": 0}]}
    made = cert["anonymization"]
    assert made["method"] == "full-domain" and made["levels"] == {"zip": 0}
    assert made["objective"]["name"] == "loss"
    assert Fraction(made["objective"]["value"]) == result.value
    assert made["search"] == {"nodes_checked": result.nodes_checked, "lattice_size": 3}
    assert made["suppression"] == {"suppressed": mode, "limit": "1/5", "budget": 2,
                                   "n_original_rows": 14, "n_suppressed": 2,
                                   "groups": REASONS}
    if mode == "drop":
        assert len(result.table) == 12 and made["masked_group"] is None
        assert made["partition"]["n_groups"] == 4
        assert made["utility"] == {"discernibility": 36,
                                   "discernibility_suppressed_charged_n": 36 + 2 * 14}
    else:
        assert len(result.table) == 14 and made["partition"]["n_groups"] == 5
        assert made["masked_group"] == {
            "n_rows": 2, "criteria": [{"criterion": "KAnonymity(k=2)", "safe": True},
                                      {"criterion": "DistinctLDiversity(l=2)",
                                       "safe": True}]}
        assert made["utility"] == {"discernibility": 40,
                                   "discernibility_suppressed_charged_n": 36 + 2 * 14}
    check = verify_certificate(result.table, cert, original=_table())
    assert check.ok, check.differences
    assert verify_certificate(text_table(result.table), cert).ok


def test_a_changed_masked_row_is_caught():
    criteria = [KAnonymity(2), DistinctLDiversity(2)]
    result = anonymize(_table(), qi="zip", sensitive="dx", criteria=criteria,
                       method="full-domain", suppression_limit=0.2, suppressed="mask",
                       hierarchies={"zip": ZIPS})
    cert = anonymization_certificate(result, qi="zip", sensitive="dx", criteria=criteria,
                                     suppressed="mask", suppression_limit=0.2)
    assert verify_certificate(result.table, cert, original=_table()).ok
    # a masked row changed: the hash says so; re-hashed, the recomputed verdicts do
    changed = result.table.copy()
    masked = changed.index[changed["zip"] == "*"]
    changed.loc[masked[0], "dx"] = "b"
    check = verify_certificate(changed, cert)
    assert not check.ok and check.differences[0].startswith("The table does not match")
    forged = copy.deepcopy(cert)
    forged["table"]["sha256"] = table_sha256(changed)
    differences = verify_certificate(changed, forged).differences
    assert differences == (
        "The verdict differs: the certificate says 'safe', the table gives 'unsafe'.",
        "The verdict of DistinctLDiversity(l=2) differs: the certificate says safe, the "
        "table gives unsafe.",
        "The masked group differs: the certificate records {'n_rows': 2, 'criteria': "
        "[{'criterion': 'KAnonymity(k=2)', 'safe': True}, {'criterion': "
        "'DistinctLDiversity(l=2)', 'safe': True}]}, the table gives {'n_rows': 2, "
        "'criteria': [{'criterion': 'KAnonymity(k=2)', 'safe': True}, {'criterion': "
        "'DistinctLDiversity(l=2)', 'safe': False}]}.",
        "The masked group fails DistinctLDiversity(l=2).")
    # a masked row unmasked (its own group now): the masked group is smaller than recorded
    changed = result.table.copy()
    changed.loc[masked[0], "zip"] = "31"
    forged["table"]["sha256"] = table_sha256(changed)
    differences = verify_certificate(changed, forged).differences
    assert "The masked group (every QI '*') holds 1 rows, fewer than the 2 suppressed rows " \
           "the certificate records." in differences
    assert "The masked group fails KAnonymity(k=2)." in differences


def test_an_edited_suppressed_count_is_caught(suppressed_release):
    mode, result, cert = suppressed_release
    forged = copy.deepcopy(cert)
    forged["anonymization"]["suppression"]["n_suppressed"] = 1
    differences = verify_certificate(result.table, forged).differences
    if mode == "drop":
        assert differences[0] == (
            "The suppressed rows do not add up: the certificate records 14 original rows and "
            "1 suppressed (drop), so the released table should have 13 rows; it has 12.")
    assert "The suppressed groups the certificate lists hold 2 rows, not the 1 it records." \
        in differences
    assert any(d.startswith("The utility differs") for d in differences)
    # every count edited to agree: only the original table tells
    forged = copy.deepcopy(cert)
    forged["anonymization"]["suppression"].update(n_suppressed=0, groups=[], budget=2,
                                                  n_original_rows=len(result.table))
    utility = forged["anonymization"]["utility"]
    masked = forged["anonymization"]["masked_group"]
    utility["discernibility_suppressed_charged_n"] = utility["discernibility"]
    forged["anonymization"]["masked_group"] = None
    if mode == "drop":
        assert verify_certificate(result.table, forged).ok
        assert verify_certificate(result.table, forged, original=_table()).differences == (
            "The original table has 14 rows; the certificate records 12.",)
    else:  # the masked group is in the table: it says rows were suppressed
        assert verify_certificate(result.table, forged).differences == (
            f"The masked group differs: the certificate records None, the table gives "
            f"{masked!r}.",)
    forged = copy.deepcopy(cert)
    forged["anonymization"]["suppression"]["budget"] = 1
    assert ("The suppression budget differs: the certificate records 1 rows, a limit of 1/5 "
            "of 14 rows allows 2.") in verify_certificate(result.table, forged).differences
    forged["anonymization"]["suppression"]["limit"] = "1/10"
    assert ("The certificate records 2 suppressed rows, more than the budget of 1."
            in verify_certificate(result.table, forged).differences)


@pytest.mark.parametrize("criterion", EVERY_CRITERION, ids=repr)
def test_every_criterion_is_recomputed(criterion):
    table = pd.DataFrame({"zip": ["11", "12", "21", "22", "11", "21"],
                          "dx": ["a", "b", "a", "b", "b", "a"]})
    result = anonymize(table, qi="zip", sensitive="dx", criteria=[criterion],
                       method="full-domain", hierarchies={"zip": Hierarchy(
                           [["11", "1*", "*"], ["12", "1*", "*"], ["21", "2*", "*"],
                            ["22", "2*", "*"]])})
    cert = anonymization_certificate(result, qi="zip", sensitive="dx", criteria=[criterion])
    assert verify_certificate(result.table, cert).ok
    entry = cert["criteria"]["results"][0]
    assert entry["criterion"] == repr(criterion)
    forged = copy.deepcopy(cert)
    forged["criteria"]["results"][0]["safe"] = not entry["safe"]
    assert verify_certificate(result.table, forged).differences[0] == (
        f"The verdict of {criterion!r} differs: the certificate says "
        f"{'unsafe' if entry['safe'] else 'safe'}, the table gives "
        f"{'safe' if entry['safe'] else 'unsafe'}.")
    forged = copy.deepcopy(cert)
    forged["criteria"]["results"] = []
    assert verify_certificate(result.table, forged).differences == (
        f"The certificate has no verdict for {criterion!r}, which its criteria require.",)


def test_a_skyline_policy_and_criteria_in_one_certificate():
    table = _table()
    policy = Policy.uniform([(0, 0, 0, 0.9)])
    result = anonymize(table, qi="zip", sensitive="dx", criteria=[policy, KAnonymity(2)],
                       method="full-domain", hierarchies={"zip": ZIPS})
    cert = anonymization_certificate(result, qi="zip", sensitive="dx",
                                     criteria=[policy, KAnonymity(2)])
    assert cert["policy"] == policy_to_json(policy) and cert["checks"]
    assert cert["criteria"]["spec"] == {"k": [2]}
    assert verify_certificate(result.table, cert).ok
    with pytest.raises(InvalidParameterError, match=r"^The 'criteria' parameter of "
                                                    r"anonymization_certificate must hold at "
                                                    r"most one skyline policy"):
        anonymization_certificate(result, qi="zip", sensitive="dx",
                                  criteria=[policy, policy])


def test_anonymization_certificate_bad_arguments(suppressed_release):
    mode, result, _ = suppressed_release
    with pytest.raises(InvalidParameterError, match=r"^The 'suppressed' parameter of "
                                                    r"anonymization_certificate must be one "
                                                    r"of \['drop', 'mask'\]\. Got 'hide'"):
        anonymization_certificate(result, qi="zip", sensitive="dx", criteria=KAnonymity(2),
                                  suppressed="hide")
    with pytest.raises(InvalidParameterError, match=r"^The 'suppression_limit' parameter of "
                                                    r"anonymization_certificate must be a "
                                                    r"fraction of rows in \[0, 1\]\. Got 2"):
        anonymization_certificate(result, qi="zip", sensitive="dx", criteria=KAnonymity(2),
                                  suppression_limit=2)
    with pytest.raises(InvalidParameterError, match=r"^The 'reasons' parameter of "
                                                    r"anonymization_certificate must account "
                                                    r"for the 2 suppressed rows"):
        anonymization_certificate(result, qi="zip", sensitive="dx", criteria=KAnonymity(2),
                                  suppressed=mode, reasons=[])


@pytest.mark.parametrize("edit, message", [
    (lambda c: c.update(criteria=5), "'criteria' must be an object with 'spec' and a list of "
                                     "'results'"),
    (lambda c: c["criteria"].update(spec={"k": 0}), "its criteria are invalid ('k' must be a "
                                                    "whole number >= 1; got 0)"),
    (lambda c: c["anonymization"].pop("levels"), "'anonymization' must be an object with"),
    (lambda c: c["anonymization"]["suppression"].update(suppressed="hide"),
     "'anonymization.suppression.suppressed' must be 'drop' or 'mask', not 'hide'"),
    (lambda c: c["anonymization"]["suppression"].update(budget=-1),
     "'anonymization.suppression.budget' must be a whole number >= 0, not -1"),
    (lambda c: c["anonymization"]["suppression"].update(limit="2"),
     "'anonymization.suppression.limit' must be a fraction in [0, 1], not '2'"),
    (lambda c: c["anonymization"]["suppression"].update(groups=[{}]),
     "'anonymization.suppression.groups' must be null or a list of objects with 'n_rows'"),
    (lambda c: c.pop("criteria"), "its policy is invalid"),
])
def test_a_malformed_anonymization_certificate(suppressed_release, edit, message):
    _, result, cert = suppressed_release
    broken = copy.deepcopy(cert)
    edit(broken)
    with pytest.raises(InvalidParameterError, match="^The certificate is malformed: "
                                                    + re.escape(message)):
        verify_certificate(result.table, broken)


# ------------------------------------- a full-domain release's cells against the original
ZIP_SEX = pd.DataFrame({"zip": ["11", "12", "11", "21", "22", "21", "31", "12", "32"],
                        "sex": ["F", "F", "F", "M", "M", "M", "F", "F", "M"],
                        "dx": ["a", "b", "c", "a", "b", "c", "a", "b", "c"]})
ZIP_LEVELS = {"zip": ZIPS}


def _zip_release(mode):
    """Zip at level 1 ('1*', '2*'), sex kept, the two rows of '3*' suppressed."""
    result = anonymize(ZIP_SEX, qi=["zip", "sex"], sensitive="dx", criteria=[KAnonymity(2)],
                       method="full-domain", suppression_limit=0.25, suppressed=mode,
                       hierarchies=ZIP_LEVELS)
    assert result.levels == {"zip": 1, "sex": 0} and result.suppressed == 2
    return result


def _certified(result, table):
    """``table`` certified as the release of ``result`` (its own hash and verdicts), as a
    publisher who edited the release after the search would certify it."""
    edited = dataclasses.replace(result, table=table)
    return anonymization_certificate(edited, qi=["zip", "sex"], sensitive="dx",
                                     criteria=[KAnonymity(1)], suppressed=(
                                         "mask" if len(table) == len(ZIP_SEX) else "drop"),
                                     suppression_limit=0.25, created="2024-01-01T00:00:00Z")


@pytest.mark.parametrize("mode", ["drop", "mask"])
def test_a_full_domain_release_is_checked_cell_by_cell_against_the_original(mode):
    result = _zip_release(mode)
    cert = _certified(result, result.table)
    assert verify_certificate(result.table, cert, original=ZIP_SEX,
                              hierarchies=ZIP_LEVELS).ok
    first = result.table.index[0]  # original row 0: zip 11 -> '1*', sex F kept
    assert result.table.loc[first, "zip"] == "1*"
    for edit, message in [
            ("2*", "Row 0 of the released table is not row 0 of the original generalized to "
                   "the recorded levels: its 'zip' is '2*', but the original '11' at level 1 "
                   "is '1*'."),
            ("*", "Row 0 of the released table is not row 0 of the original generalized to "
                  "the recorded levels: its 'zip' is '*', but the original '11' at level 1 "
                  "is '1*'.")]:
        edited = result.table.copy()
        edited.loc[first, "zip"] = edit  # the same level, then a coarser one
        cert = _certified(result, edited)
        assert verify_certificate(edited, cert).ok  # nothing else notices
        check = verify_certificate(edited, cert, original=ZIP_SEX, hierarchies=ZIP_LEVELS)
        assert check.differences == (message,)


def test_a_full_domain_check_names_a_dropped_rows_neighbour_and_a_masked_row():
    result = _zip_release("drop")
    edited = result.table.copy()
    last = edited.index[-1]  # original row 7 (zip 12 -> '1*'), after the dropped row 6
    edited.loc[last, "dx"] = "z"
    check = verify_certificate(edited, _certified(result, edited), original=ZIP_SEX,
                               hierarchies=ZIP_LEVELS)
    assert check.differences == ("Row 6 of the released table is not row 7 of the original "
                                 "generalized to the recorded levels: its 'dx' is 'z', the "
                                 "original's 'b'.",)
    result = _zip_release("mask")
    edited = result.table.copy()
    edited.loc[edited.index[0], ["zip", "sex"]] = "*"  # a third masked row: two recorded
    check = verify_certificate(edited, _certified(result, edited), original=ZIP_SEX,
                               hierarchies=ZIP_LEVELS)
    assert ("3 released rows have every QI '*' where their generalization to the recorded "
            "levels does not: more than the 2 suppressed rows the certificate records."
            in check.differences)
    # without the hierarchy, zip (level 1) is not compared; sex (level 0) still is
    assert verify_certificate(result.table, _certified(result, result.table),
                              original=ZIP_SEX).ok
    edited = result.table.copy()
    edited.loc[edited.index[0], "sex"] = "M"
    check = verify_certificate(edited, _certified(result, edited), original=ZIP_SEX)
    assert check.differences == ("Row 0 of the released table is not row 0 of the original "
                                 "generalized to the recorded levels: its 'sex' is 'M', but "
                                 "the original 'F' at level 0 is 'F'.",)
