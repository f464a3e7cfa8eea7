"""The public functions (skyprivacy/anonymize/api.py): SkylineAnonymize is safe, minimal in svpi,
deterministic, leaves its input untouched and fails with clear errors; k_anonymize runs the same
search."""
import dataclasses
import re
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from skyprivacy import (
    HierarchyError,
    InfeasibleError,
    InvalidParameterError,
    Policy,
    ReleaseCandidate,
    SchemaError,
    breach_probability,
    skyline_check,
)
from skyprivacy.anonymize import k_anonymize, skyline_anonymize, splittable_groups
from skyprivacy.baselines import k_anonymity_policy, recursive_cl_diversity, cl_diversity_policy
from skyprivacy.hierarchy import from_mapping, masking

DISEASES = ["flu", "aids", "cancer", "cold", "gout"]
ZIP_HIERARCHY = masking(["47906", "47907", "47901", "47302", "47305", "48001"], name="zip")


def make_table(seed: int, n: int, semantics: str = "svpi") -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    table = pd.DataFrame({
        "age": rng.integers(20, 70, n),
        "zip": rng.choice(["47906", "47907", "47901", "47302", "47305", "48001"], n),
        "sex": rng.choice(["F", "M"], n),
    }, index=pd.Index(rng.permutation(n) * 10, name="rid"))
    weights = np.array([0.4, 0.1, 0.2, 0.2, 0.1])
    if semantics == "svpi":
        table["disease"] = rng.choice(DISEASES, n, p=weights)
    else:
        cells = []
        for _ in range(n):
            size = int(rng.integers(0, 3))
            picked = rng.choice(DISEASES, size, replace=semantics == "mvpi-multiset", p=weights)
            cells.append(sorted(picked.tolist()))
        table["disease"] = pd.Series(cells, index=table.index, dtype=object)
    return table


def random_policy(rng: np.random.Generator) -> Policy:
    points = [(int(rng.integers(0, 3)), int(rng.integers(0, 4)), int(rng.integers(0, 3)),
               float(rng.choice([0.5, 0.6, 0.75, 0.9, 1.0])))]
    if rng.random() < 0.5:
        return Policy({"flu": points}, default=[(0, 1, 0, 0.95)])
    return Policy.uniform(points)


@settings(max_examples=40)
@given(seed=st.integers(0, 10**6), semantics=st.sampled_from(["svpi", "mvpi-set",
                                                                 "mvpi-multiset"]),
       split=st.sampled_from(["infogain", "widest"]),
       output=st.sampled_from(["generalized", "bucketized"]))
def test_release_is_safe_under_an_independent_check(seed, semantics, split, output):
    rng = np.random.default_rng(seed)
    table = make_table(seed, int(rng.integers(20, 80)), semantics)
    policy = random_policy(rng)
    before = table.copy()
    try:
        result = skyline_anonymize(table, qi=["age", "zip", "sex"], sensitive="disease",
                                   policy=policy, hierarchies={"zip": ZIP_HIERARCHY},
                                   semantics=semantics, split=split, output=output,
                                   random_state=seed)
    except InfeasibleError:
        one_group = ReleaseCandidate.from_table(table.assign(all="*"), qi="all",
                                                sensitive="disease", semantics=semantics)
        assert not skyline_check(one_group, policy).safe
        return
    pd.testing.assert_frame_equal(table, before)
    assert result.certificate.safe
    # the certificate is recomputed from the released table alone
    if output == "generalized":
        again = ReleaseCandidate.from_table(result.table, qi=["age", "zip", "sex"],
                                            sensitive="disease", semantics=semantics)
    else:
        again = ReleaseCandidate.from_table(result.table, group="group", sensitive="disease",
                                            semantics=semantics)
    assert skyline_check(again, policy).safe
    assert again.n_groups == result.candidate.n_groups == len(result.groups)
    assert result.table.index.equals(table.index)
    assert result.assignment.index.equals(table.index)
    assert int(result.groups["n_individuals"].sum()) == len(table)


@settings(max_examples=25)
@given(seed=st.integers(0, 10**6), split=st.sampled_from(["infogain", "widest"]))
def test_svpi_result_is_minimal(seed, split):
    # Theorem 4: no released group can be divided by any candidate split while staying safe,
    # judged by an exact skyline_check independent of the search's statistics.
    rng = np.random.default_rng(seed)
    table = make_table(seed, int(rng.integers(20, 70)))
    policy = random_policy(rng)
    try:
        result = skyline_anonymize(table, qi=["age", "zip", "sex"], sensitive="disease",
                                   policy=policy, hierarchies={"zip": ZIP_HIERARCHY},
                                   split=split)
    except InfeasibleError:
        assume(False)  # nothing released, nothing to be minimal
    assert splittable_groups(result, policy) == []


def test_splittable_groups_needs_the_search_engine():
    policy = Policy.uniform([(0, 1, 0, 0.9)])
    result = skyline_anonymize(make_table(1, 40), qi=["age", "zip", "sex"], sensitive="disease",
                               policy=policy, hierarchies={"zip": ZIP_HIERARCHY})
    # a result of the dask engine keeps no in-memory engine to split groups with
    without_engine = dataclasses.replace(result, _engine=None)
    with pytest.raises(InvalidParameterError) as caught:
        splittable_groups(without_engine, policy)
    assert str(caught.value) == (
        "The 'result' parameter of splittable_groups must be a skyline_anonymize result of a "
        "pandas DataFrame (a dask result keeps no search engine). Got 'AnonymizationResult' "
        "instead.")


def test_generalized_labels_are_ranges_and_hierarchy_nodes():
    table = make_table(3, 200)
    policy = Policy.uniform([(0, 2, 0, 0.8)])
    result = skyline_anonymize(table, qi=["age", "zip"], sensitive="disease", policy=policy,
                               hierarchies={"zip": ZIP_HIERARCHY}, keep="sex")
    ages = set(result.table["age"])
    assert all(re.fullmatch(r"\[\d+, \d+\]|\d+", a) for a in ages)
    assert set(result.table["zip"]) <= set(ZIP_HIERARCHY.graph.nodes[n]["label"]
                                           for n in ZIP_HIERARCHY.graph.nodes)
    # every row's generalized age range contains its original age
    for original, label in zip(table["age"], result.table["age"]):
        lo, hi = (int(x) for x in re.findall(r"\d+", label)) if "," in label else (int(label),) * 2
        assert lo <= original <= hi
    assert result.candidate.n_groups > 1


def test_bucketized_keeps_qi_and_permutes_values_within_groups():
    table = make_table(5, 150)
    result = skyline_anonymize(table, qi=["age", "zip", "sex"], sensitive="disease",
                               policy=Policy.uniform([(1, 1, 1, 0.9)]),
                               hierarchies={"zip": ZIP_HIERARCHY}, output="bucketized",
                               random_state=7)
    out = result.table
    pd.testing.assert_frame_equal(out[["age", "zip", "sex"]], table[["age", "zip", "sex"]])
    assert (out["group"] == result.assignment).all()
    for _, rows in out.groupby("group"):
        assert sorted(rows["disease"]) == sorted(table.loc[rows.index, "disease"])
    again = skyline_anonymize(table, qi=["age", "zip", "sex"], sensitive="disease",
                              policy=Policy.uniform([(1, 1, 1, 0.9)]),
                              hierarchies={"zip": ZIP_HIERARCHY}, output="bucketized",
                              random_state=7)
    pd.testing.assert_frame_equal(out, again.table)
    other = skyline_anonymize(table, qi=["age", "zip", "sex"], sensitive="disease",
                              policy=Policy.uniform([(1, 1, 1, 0.9)]),
                              hierarchies={"zip": ZIP_HIERARCHY}, output="bucketized",
                              random_state=8)
    assert not out["disease"].equals(other.table["disease"])
    generator = skyline_anonymize(table, qi=["age", "zip", "sex"], sensitive="disease",
                                  policy=Policy.uniform([(1, 1, 1, 0.9)]),
                                  hierarchies={"zip": ZIP_HIERARCHY}, output="bucketized",
                                  random_state=np.random.default_rng(7))
    pd.testing.assert_frame_equal(out, generator.table)


def test_infeasible_policy_names_value_and_point_and_a_way_forward():
    table = make_table(1, 30)
    with pytest.raises(InfeasibleError, match=re.escape(
            "Even the whole table as one group is unsafe: 1 (value, point) check(s) fail, "
            "first 'flu' at (l=4, k=0, m=0, c=0.5) with breach probability 1 (100.0%); the "
            "whole table withstands at most (l, k, m) in [(0, 1, 0)] for 'flu' at c = 0.5; no "
            "generalization can satisfy the policy: relax the failing points to what the "
            "table withstands.")) as caught:
        skyline_anonymize(table, qi="age", sensitive="disease",
                          policy=Policy({"flu": [(4, 0, 0, 0.5)]}), drop=["zip", "sex"])
    # the same, structured: the failing checks and what the whole table withstands
    assert [row["value"] for row in caught.value.failing] == ["flu"]
    assert caught.value.withstands == [{"value": "flu", "c": "1/2", "points": [[0, 1, 0]]}]
    # and it is the truth: the one-group table is safe at (0, 1, 0), not one step further
    whole = ReleaseCandidate.from_table(table.assign(g=0), group="g", sensitive="disease")
    assert breach_probability(whole, "flu", l=0, k=1, m=0, exact=True) < Fraction(1, 2)
    for point in ((1, 1, 0), (0, 2, 0), (0, 1, 1)):
        assert breach_probability(whole, "flu", l=point[0], k=point[1], m=point[2],
                                  exact=True) >= Fraction(1, 2)


def test_k_anonymize_matches_the_identity_skyline_through_the_same_engine():
    # Prop. 3: k-anonymity = (0, k-2, 0) at c = 1 with identities as values. The size-rule
    # shortcut must produce exactly the partition of the full skyline evaluation.
    for seed in range(6):
        table = make_table(seed, 60)
        table["person"] = np.arange(len(table))
        for k in (2, 3, 5):
            fast = k_anonymize(table, qi=["age", "zip", "sex"], k=k,
                               hierarchies={"zip": ZIP_HIERARCHY}, keep=["disease", "person"])
            full = skyline_anonymize(table, qi=["age", "zip", "sex"], sensitive="person",
                                     policy=k_anonymity_policy(k),
                                     hierarchies={"zip": ZIP_HIERARCHY}, split="widest",
                                     keep="disease")
            assert fast.safe and full.certificate.safe
            assert (fast.groups["n_individuals"] >= k).all()
            pd.testing.assert_series_equal(fast.assignment, full.assignment)
            pd.testing.assert_frame_equal(fast.table[["age", "zip", "sex"]],
                                          full.table[["age", "zip", "sex"]])


def test_cl_diversity_policy_yields_a_cl_diverse_release():
    table = make_table(11, 300)
    result = skyline_anonymize(table, qi=["age", "zip", "sex"], sensitive="disease",
                               policy=cl_diversity_policy(diversity_c=3, l=3),
                               hierarchies={"zip": ZIP_HIERARCHY})
    assert recursive_cl_diversity(result.candidate, diversity_c=3, l=3).safe


def test_categorical_without_hierarchy_splits_its_sorted_values():
    table = make_table(2, 400)
    result = skyline_anonymize(table, qi=["zip"], sensitive="disease",
                               policy=Policy.uniform([(0, 1, 0, 0.9)]), drop=["age", "sex"])
    values = ["47302", "47305", "47901", "47906", "47907", "48001"]
    for original, label in zip(table["zip"], result.table["zip"]):
        members = label.strip("{}").split(", ") if label.startswith("{") else [label]
        assert original in members and all(m in values for m in members)
        # contiguous run of the sorted values
        positions = [values.index(m) for m in members]
        assert positions == list(range(positions[0], positions[-1] + 1))
    assert result.candidate.n_groups > 1
    flat = from_mapping({v: ["*"] for v in values}, name="zip")
    suppressed = skyline_anonymize(table, qi=["zip"], sensitive="disease",
                                   policy=Policy.uniform([(0, 1, 0, 0.9)]),
                                   hierarchies={"zip": flat}, drop=["age", "sex"])
    assert set(suppressed.table["zip"]) <= set(values) | {"*"}


def test_result_summaries():
    # two groups of four by hand: ages 21-24 and 31-38, each holding three diseases
    table = pd.DataFrame({"age": [21, 22, 23, 24, 31, 33, 35, 38],
                          "disease": ["flu", "aids", "flu", "cold", "flu", "cold", "aids",
                                      "cold"]})
    result = skyline_anonymize(table, qi="age", sensitive="disease",
                               policy=Policy.uniform([(0, 1, 0, 0.8)]))
    assert result.safe and result.average_group_size == 4.0
    summary = result.to_dict()
    assert summary["n_groups"] == 2 and summary["safe"] is True
    frame = result.to_frame()
    assert list(frame.columns) == ["age", "n_individuals"]
    assert frame["age"].tolist() == ["[21, 24]", "[31, 38]"]
    assert frame["n_individuals"].tolist() == [4, 4]


@pytest.mark.parametrize("kwargs,exc,message", [
    (dict(qi="height"), SchemaError,
     "Column 'height' is not in the table; columns are ['age', 'zip', 'sex', 'disease']."),
    (dict(qi=[]), InvalidParameterError,
     "The 'qi' parameter of skyline_anonymize must name at least one column. Got [] instead."),
    (dict(qi=["age", "disease"]), InvalidParameterError,
     "skyline_anonymize needs distinct quasi-identifier columns and a sensitive column that is "
     "not one of them. Got qi=['age', 'disease'] and sensitive='disease' instead."),
    (dict(split="median"), InvalidParameterError,
     "The 'split' parameter of skyline_anonymize must be one of ['infogain', 'widest', 'loss']. "
     "Got 'median' instead."),
    (dict(output="anatomy"), InvalidParameterError,
     "The 'output' parameter of skyline_anonymize must be one of ['generalized', "
     "'bucketized']. Got 'anatomy' instead."),
    (dict(semantics="mvpi"), InvalidParameterError,
     "The 'semantics' parameter of skyline_anonymize must be one of ['svpi', 'mvpi-set', "
     "'mvpi-multiset']. Got 'mvpi' instead."),
    (dict(policy=[(0, 0, 0, 0.5)]), InvalidParameterError,
     "The 'policy' parameter of skyline_anonymize must be a Policy. Got 'list' instead."),
    (dict(hierarchies={"sex": ZIP_HIERARCHY}), InvalidParameterError,
     "A hierarchy is given for 'sex', which is not a quasi-identifier; quasi-identifiers are "
     "['age', 'zip']."),
    (dict(hierarchies={"zip": {"47906": "4790*"}}), InvalidParameterError,
     "The 'hierarchies' parameter of skyline_anonymize must map 'zip' to a Hierarchy. "
     "Got 'dict' instead."),
    (dict(hierarchies=[ZIP_HIERARCHY]), InvalidParameterError,
     "The 'hierarchies' parameter of skyline_anonymize must be a mapping of column -> "
     "Hierarchy. Got 'list' instead."),
    (dict(output="bucketized", group_column="sex"), InvalidParameterError,
     "The bucket column 'sex' already exists in the table; pass another group_column."),
])
def test_parameter_errors(kwargs, exc, message):
    table = make_table(0, 20)
    arguments = dict(qi=["age", "zip"], sensitive="disease",
                     policy=Policy.uniform([(0, 0, 0, 0.9)]))
    arguments.update(kwargs)
    with pytest.raises(exc, match=re.escape(message)):
        skyline_anonymize(table, **arguments)


def test_data_errors():
    policy = Policy.uniform([(0, 0, 0, 0.9)])
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'table' parameter of skyline_anonymize must be a pandas DataFrame. "
            "Got 'dict' instead.")):
        skyline_anonymize({"a": [1]}, qi="a", sensitive="b", policy=policy)
    table = make_table(0, 20)
    with pytest.raises(SchemaError, match=re.escape(
            "The table is empty: there is nothing to anonymize.")):
        skyline_anonymize(table.iloc[:0], qi="age", sensitive="disease", policy=policy)
    holes = table.copy()
    holes.loc[holes.index[:3], "age"] = np.nan
    with pytest.raises(SchemaError, match=re.escape(
            "Column 'age' has 3 missing value(s); pass missing='as_value' to treat them as a "
            "category, or clean the table.")):
        skyline_anonymize(holes, qi="age", sensitive="disease", policy=policy)
    with pytest.raises(HierarchyError, match=re.escape("Hierarchy for column 'zip': ")):
        skyline_anonymize(table, qi="zip", sensitive="disease", policy=policy,
                          hierarchies={"zip": masking(["47906"], name="zip")})
    lists = make_table(0, 20, "mvpi-set")
    with pytest.raises(SchemaError, match=re.escape(
            f"Column 'disease' holds a list-like cell at row {lists.index[0]}; svpi allows "
            f"exactly one sensitive value per individual (use semantics='mvpi-set' or "
            f"'mvpi-multiset').")):
        skyline_anonymize(lists, qi="age", sensitive="disease", policy=policy)
    lists.loc[lists.index[0], "disease"] = ["flu", "flu"]
    with pytest.raises(SchemaError, match=re.escape(
            f"The individual in row {lists.index[0]} holds value 'flu' more than once; mvpi-set "
            f"allows each value at most once per person (use semantics='mvpi-multiset').")):
        skyline_anonymize(lists, qi="age", sensitive="disease", policy=policy,
                          semantics="mvpi-set")
    lists.loc[lists.index[0], "disease"] = ["flu", None]
    with pytest.raises(SchemaError, match=re.escape(
            "Column 'disease' has 1 missing value(s) inside list cells; pass missing='as_value' "
            "to treat them as a category, or clean the table.")):
        skyline_anonymize(lists, qi="age", sensitive="disease", policy=policy,
                          semantics="mvpi-multiset")


def test_k_anonymize_calls_no_deprecated_api():
    # its certificate comes from k_anonymity(..., k=...) and its verdict from .safe
    table = make_table(2, 60)
    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)
        result = k_anonymize(table, qi=["age", "zip"], k=4, hierarchies={"zip": ZIP_HIERARCHY},
                             keep=["sex", "disease"])
        assert result.safe and result.certificate.k == 4


def test_k_anonymize_errors():
    table = make_table(0, 20)
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'k' parameter of k_anonymize must be an integer >= 2. Got 1 instead.")):
        k_anonymize(table, qi="age", k=1)
    with pytest.raises(InfeasibleError, match=re.escape(
            "The table has 20 rows, fewer than k = 25: no release can be 25-anonymous.")):
        k_anonymize(table, qi="age", k=25)
    with pytest.raises(SchemaError, match=re.escape("Column 'height' is not in the table")):
        k_anonymize(table, qi="height", k=2)


def test_an_infeasible_policy_over_a_large_mvpi_multiset_group_is_explained_not_crashed():
    """The root's exact breach probability has thousands of digits; the InfeasibleError rounds
    it in its sentence (it crashed converting the fraction to text)."""
    table = pd.DataFrame({"age": np.arange(3000) % 90,
                          "dx": [["a", "b"] if i % 2 else ["a"] for i in range(3000)]})
    with pytest.raises(InfeasibleError, match=re.escape(
            "Even the whole table as one group is unsafe: 1 (value, point) check(s) fail, "
            "first 'a' at (l=0, k=2, m=2, c=0.7) with breach probability ~0.927258 (92.7%)")):
        skyline_anonymize(table, qi="age", sensitive="dx", policy=Policy.uniform([(0, 2, 2, 0.7)]),
                          semantics="mvpi-multiset")


# ------------------------------------------------------------------ anonymize(): one entry point
def _small_table():
    return pd.DataFrame({"sex": ["F", "F", "M", "M"], "zip": ["1", "2", "1", "2"],
                         "dx": ["a", "b", "a", "b"]})


def test_anonymize_runs_mondrian_on_one_policy_or_one_k():
    from skyprivacy.anonymize.api import anonymize
    from skyprivacy.criteria import KAnonymity

    table = _small_table()
    before = table.copy()
    by_k = anonymize(table, qi=["sex", "zip"], sensitive="dx", criteria=[KAnonymity(2)])
    assert by_k.method == "mondrian" and by_k.suppressed == 0 and by_k.levels is None
    assert by_k.candidate.sizes_array.min() >= 2
    policy = Policy.uniform([(0, 0, 0, 0.9)])
    by_policy = anonymize(table, qi=["sex", "zip"], sensitive="dx", criteria=policy)
    assert skyline_check(by_policy.candidate, policy).safe
    assert by_policy.to_frame().loc[0, "method"] == "mondrian"
    pd.testing.assert_frame_equal(table, before)
    full = anonymize(table, qi=["sex", "zip"], sensitive="dx", criteria=[KAnonymity(2)],
                     method="full-domain", objective="height")
    assert full.levels == {"sex": 0, "zip": 1} and full.nodes_checked <= full.lattice_size


@pytest.mark.parametrize("options, message", [
    ({"method": "flash"}, r"^The 'method' parameter of anonymize must be one of \['mondrian', "
                          r"'full-domain'\]. Got 'flash' instead.$"),
    ({"criteria": "two policies"},
     r"^method='mondrian' takes at most one skyline Policy; got 2: merge them into one "
     r"Policy.$"),
    ({"criteria": "unknown"},
     r"^method='mondrian' cannot judge Whole\(\): it is neither a per-group criterion nor one "
     r"of class sizes; use method='full-domain'.$"),
    ({"suppression_limit": 1.5},
     r"^The 'suppression_limit' parameter of anonymize must be a fraction of rows in \[0, 1\]. "
     r"Got 1.5 instead.$"),
    ({"suppressed": "hide"},
     r"^The 'suppressed' parameter of anonymize must be one of \['drop', 'mask'\]. Got 'hide' "
     r"instead.$"),
    ({"local_rows": 0},
     r"^The 'local_rows' parameter of anonymize must be a positive integer. Got 0 instead.$"),
])
def test_anonymize_errors_name_the_bad_value(options, message):
    from skyprivacy.anonymize.api import anonymize
    from skyprivacy.criteria import Criterion, KAnonymity

    class Whole(Criterion):
        per_group = False

        def __repr__(self):
            return "Whole()"

    if options.get("criteria") == "two policies":
        policy = Policy.uniform([(0, 0, 0, 0.9)])
        options = {"criteria": [KAnonymity(2), policy, policy]}
    elif options.get("criteria") == "unknown":
        options = {"criteria": [KAnonymity(2), Whole()]}
    arguments = {"qi": ["sex", "zip"], "sensitive": "dx", "criteria": [KAnonymity(2)],
                 **options}
    with pytest.raises(InvalidParameterError, match=message):
        anonymize(_small_table(), **arguments)


# ------------------------------------------- every column classified (issue 26 item 1)
def test_every_column_is_classified_before_a_release():
    from skyprivacy.anonymize import anonymize
    from skyprivacy.certificate import build_certificate, verify_certificate
    from skyprivacy.criteria import KAnonymity
    from skyprivacy.errors import UnanalysedColumnWarning

    table = make_table(4, 120).assign(name=lambda t: [f"p{i}" for i in range(len(t))])
    before = table.copy()
    policy = Policy.uniform([(0, 1, 0, 0.9)])
    calls = {
        "skyline_anonymize": lambda **o: skyline_anonymize(
            table, qi=["age", "zip"], sensitive="disease", policy=policy, **o),
        "k_anonymize": lambda **o: k_anonymize(table, qi=["age", "zip"], k=3,
                                               **{"keep": ["disease", *o.pop("keep", [])],
                                                  **o}),
        "anonymize": lambda **o: anonymize(table, qi=["age", "zip"], sensitive="disease",
                                           criteria=[KAnonymity(3)], **o),
    }
    for owner, call in calls.items():
        with pytest.raises(InvalidParameterError, match=re.escape(
                "2 column(s) of the table are not classified: 'sex', 'name'; name each one a "
                "quasi-identifier or the sensitive column, keep it (keep=[...]: published as "
                "is) or drop it (drop=[...]: left out of the release), or pass keep_rest=True "
                "to copy them unanalysed.")):
            call()
        with pytest.raises(InvalidParameterError, match=re.escape(
                "Column 'sex' is both kept and dropped; give every column one role.")):
            call(keep=["sex"], drop=["sex", "name"])
        result = call(keep=["sex"], drop="name")
        assert list(result.table.columns) == ["age", "zip", "sex", "disease"], owner
        assert result.table["sex"].equals(table["sex"])
        assert result.classification.dropped == ("name",)
        assert "sex" in result.classification.kept
        with pytest.warns(UnanalysedColumnWarning, match=re.escape(
                "WARNING: keep_rest=True copied 1 column(s) into the release unanalysed: "
                "'name'; no privacy check covers them.")) as caught:
            copied = call(keep=["sex"], keep_rest=True)
        assert caught[0].filename == __file__
        assert copied.table["name"].equals(table["name"])
        pd.testing.assert_frame_equal(table, before)
    result = calls["skyline_anonymize"](keep="sex", drop="name")
    assert result.certificate.explain().splitlines()[-1] == (
        "Columns: quasi-identifiers 'age', 'zip'; sensitive 'disease'; kept as is: 'sex'; "
        "dropped: 'name'.")
    certificate = build_certificate(result.table, policy, qi=["age", "zip"],
                                    sensitive="disease", classification=result.classification)
    assert certificate["classification"] == {"qi": ["age", "zip"], "sensitive": "disease",
                                             "kept": ["sex"], "dropped": ["name"]}
    assert verify_certificate(result.table, certificate).ok
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The table has column(s) 'name' that the certificate's classification does not "
            "list (neither analysed nor kept).")):
        build_certificate(table, policy, qi=["age", "zip"], sensitive="disease",
                          classification=result.classification)
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The certificate's classification names quasi-identifiers ['age', 'zip'] and "
            "sensitive column 'disease', but it certifies ['age'] and 'disease'.")):
        build_certificate(result.table.drop(columns="zip"), policy, qi=["age"],
                          sensitive="disease", classification=result.classification)
    edited = {**certificate, "classification": {**certificate["classification"], "kept": []}}
    assert verify_certificate(result.table, edited).differences == (
        "The table has column(s) 'sex' that the certificate's classification does not list "
        "(neither analysed nor kept).",)
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The certificate is malformed: 'classification.kept' must be a list of column "
            "names.")):
        verify_certificate(result.table, {**certificate, "classification": {
            **certificate["classification"], "kept": "sex"}})
