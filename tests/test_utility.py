"""Utility measures: hand-computed values, an oracle for the KL-divergence, properties, errors."""
import math
import re
import sys
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import skyprivacy.utility as utility
from skyprivacy import (
    InvalidParameterError,
    Policy,
    ReleaseCandidate,
    SchemaError,
    skyline_anonymize,
)
from skyprivacy.utility import (
    UtilityReport,
    average_group_size,
    classification_accuracy,
    discernibility,
    kl_divergence,
    utility_report,
)

SIX = ReleaseCandidate.from_groups([(2, ["flu", "hiv"]), (4, ["flu"] * 4)])


# ----------------------------------------------------------------------------- hand values
def test_average_group_size_and_discernibility_by_hand():
    assert average_group_size(SIX) == 3.0
    assert discernibility(SIX) == 2 ** 2 + 4 ** 2 == 20
    assert discernibility(SIX, normalized=True) == pytest.approx(20 / 36)
    singletons = ReleaseCandidate.from_groups([(1, ["a"])] * 5)
    assert average_group_size(singletons) == 1.0
    assert discernibility(singletons) == 5
    assert discernibility(singletons, normalized=True) == pytest.approx(1 / 5)
    one = ReleaseCandidate.from_groups([(7, ["a"] * 7)])
    assert discernibility(one) == 49 and discernibility(one, normalized=True) == 1.0
    # mvpi: individuals, not value occurrences
    mvpi = ReleaseCandidate.from_groups([(2, ["a", "b", "c"]), (1, [])], semantics="mvpi-set")
    assert average_group_size(mvpi) == 1.5 and discernibility(mvpi) == 5
    assert type(discernibility(SIX)) is int and type(average_group_size(SIX)) is float


def test_discernibility_does_not_overflow_int64():
    big = ReleaseCandidate.from_counts([4_000_000_000, 4_000_000_000], [[1, 0], [0, 1]],
                                       ["a", "b"], semantics="mvpi-multiset")
    assert discernibility(big) == 2 * 4_000_000_000 ** 2


def test_kl_one_group_by_hand():
    table = pd.DataFrame({"zip": ["a", "a", "b", "b"], "disease": ["flu", "hiv", "flu", "flu"]})
    # p: (a,flu) 1/4, (a,hiv) 1/4, (b,flu) 1/2; p*: p(x) * (3/4 flu, 1/4 hiv)
    expected = 0.25 * math.log((1 / 4) / (3 / 8)) + 0.25 * math.log((1 / 4) / (1 / 8)) \
        + 0.5 * math.log((1 / 2) / (3 / 8))
    value = kl_divergence(table, pd.Series([0, 0, 0, 0]), qi="zip", sensitive="disease")
    assert value == pytest.approx(expected, rel=1e-12)
    assert value == pytest.approx(0.215762, abs=1e-6)


def test_kl_x_split_over_groups_by_hand():
    # rows of x = 'a' sit in two groups; p*(x, s) = (1/N) sum_g #(x in g) #(s in g) / n_g
    table = pd.DataFrame({"x": ["a", "a", "b", "a"], "s": ["flu", "flu", "hiv", "hiv"]},
                         index=[10, 20, 30, 40])
    groups = pd.Series(["g0", "g0", "g0", "g1"], index=table.index)
    # g0 = {flu, flu, hiv} (n=3), g1 = {hiv} (n=1)
    # N p*(a, flu) = 2 * 2/3 = 4/3; N p*(a, hiv) = 2 * 1/3 + 1 * 1 = 5/3; N p*(b, hiv) = 1/3
    expected = 0.5 * math.log(2 / (4 / 3)) + 0.25 * math.log(1 / (5 / 3)) \
        + 0.25 * math.log(1 / (1 / 3))
    assert kl_divergence(table, groups, qi="x", sensitive="s") == pytest.approx(expected,
                                                                               rel=1e-12)


def test_kl_several_qi_columns_by_hand():
    table = pd.DataFrame({"age": [20, 20, 30, 30], "sex": ["F", "M", "F", "F"],
                          "s": ["a", "b", "a", "b"]})
    # one group: p*(s) = 1/2 each; x = (20,F), (20,M), (30,F) with p(x) 1/4, 1/4, 1/2
    # p(x, s) == p*(x, s) for (30,F); (20,F,a) and (20,M,b) have p = 1/4, p* = 1/8
    expected = 2 * 0.25 * math.log(2)
    assert kl_divergence(table, pd.Series([7] * 4), qi=["age", "sex"], sensitive="s") == \
        pytest.approx(expected, rel=1e-12)
    # splitting by age keeps the (20,*) rows mixed: KL = the same two terms
    by_age = pd.Series([0, 0, 1, 1])
    assert kl_divergence(table, by_age, qi=("age", "sex"), sensitive="s") == \
        pytest.approx(expected, rel=1e-12)
    # splitting by (age, sex) is lossless
    assert kl_divergence(table, pd.Series([0, 1, 2, 2]), qi=["age", "sex"], sensitive="s") == 0


def test_kl_zero_for_groups_pure_in_x_and_for_singletons():
    rng = np.random.default_rng(5)
    table = pd.DataFrame({"x": rng.integers(0, 30, 500), "y": rng.integers(0, 3, 500),
                          "s": rng.choice(["a", "b", "c", "d"], 500)})
    singletons = pd.Series(np.arange(500), index=table.index)
    assert kl_divergence(table, singletons, qi=["x", "y"], sensitive="s") == 0.0
    # every group holds a single x (an x may be split into several groups)
    pure = table["x"] * 1000 + table["y"] * 10 + rng.integers(0, 3, 500)
    assert kl_divergence(table, pure, qi=["x", "y"], sensitive="s") == 0.0
    # grouping by a coarser key than x loses information
    assert kl_divergence(table, table["x"] // 5, qi=["x", "y"], sensitive="s") > 0


def test_missing_as_value_is_a_category():
    table = pd.DataFrame({"x": ["a", None, "a", None], "s": ["flu", "hiv", "hiv", np.nan]})
    one = pd.Series([0, 0, 0, 0])
    with_nan = kl_divergence(table, one, qi="x", sensitive="s", missing="as_value")
    relabelled = table.fillna("?")
    assert with_nan == pytest.approx(kl_divergence(relabelled, one, qi="x", sensitive="s"),
                                     rel=1e-12)


def test_kl_never_mutates_and_aligns_by_label():
    rng = np.random.default_rng(9)
    table = pd.DataFrame({"x": rng.integers(0, 8, 200), "s": rng.choice(list("abc"), 200)},
                         index=rng.permutation(1000)[:200])
    groups = pd.Series(rng.integers(0, 6, 200), index=table.index, name="group")
    table_before, groups_before = table.copy(), groups.copy()
    value = kl_divergence(table, groups, qi="x", sensitive="s")
    pd.testing.assert_frame_equal(table, table_before)
    pd.testing.assert_series_equal(groups, groups_before)
    # the same assignment in another order is matched by label
    shuffled = groups.sample(frac=1, random_state=1)
    assert kl_divergence(table, shuffled, qi="x", sensitive="s") == pytest.approx(value,
                                                                                  rel=1e-12)
    pd.testing.assert_series_equal(groups, groups_before)


def test_dense_and_sparse_group_tables_agree(monkeypatch):
    rng = np.random.default_rng(11)
    table = pd.DataFrame({"x": rng.integers(0, 40, 3000), "s": rng.integers(0, 9, 3000)})
    groups = pd.Series(rng.integers(0, 50, 3000))
    dense = kl_divergence(table, groups, qi="x", sensitive="s")
    monkeypatch.setattr(utility, "_DENSE_CELLS", 0)
    sparse = kl_divergence(table, groups, qi="x", sensitive="s")
    assert sparse == pytest.approx(dense, rel=1e-12) and dense > 0


# ----------------------------------------------------------------------------- oracle + props
def oracle_kl(rows):
    """rows: list of (x, group, s). Straight from the definition, with dictionaries."""
    n = len(rows)
    p = Counter((x, s) for x, _, s in rows)
    x_in_g = Counter((x, g) for x, g, _ in rows)
    s_in_g = Counter((g, s) for _, g, s in rows)
    size = Counter(g for _, g, _ in rows)
    total = 0.0
    for (x, s), count in p.items():
        expected = sum(c * s_in_g[(g, s)] / size[g] for (xx, g), c in x_in_g.items() if xx == x)
        total += count / n * math.log(count / expected)
    return total


@st.composite
def tables(draw, max_rows=40):
    n = draw(st.integers(1, max_rows))
    xs = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    ys = draw(st.lists(st.sampled_from("pq"), min_size=n, max_size=n))
    ss = draw(st.lists(st.sampled_from(["flu", "hiv", "gout"]), min_size=n, max_size=n))
    gs = draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))
    return pd.DataFrame({"x": xs, "y": ys, "s": ss}), pd.Series(gs)


@settings(max_examples=150)
@given(tables())
def test_kl_matches_oracle_and_is_non_negative(data):
    table, groups = data
    value = kl_divergence(table, groups, qi=["x", "y"], sensitive="s")
    rows = list(zip(zip(table["x"], table["y"]), groups, table["s"]))
    assert value >= 0
    assert value == pytest.approx(max(0.0, oracle_kl(rows)), abs=1e-12)


@settings(max_examples=100)
@given(tables(), st.randoms(use_true_random=False))
def test_kl_invariant_to_row_order(data, rnd):
    table, groups = data
    order = list(range(len(table)))
    rnd.shuffle(order)
    value = kl_divergence(table, groups, qi=["x", "y"], sensitive="s")
    shuffled = kl_divergence(table.iloc[order], groups.iloc[order], qi=["x", "y"],
                             sensitive="s")
    assert shuffled == pytest.approx(value, rel=1e-12, abs=1e-15)


@settings(max_examples=60)
@given(tables(), st.integers(1, 4))
def test_coarsening_a_generalization_never_lowers_kl(data, factor):
    # groups that are functions of x (a generalized table): merging groups can only lose
    table, _ = data
    fine = table["x"] * 2 + (table["y"] == "q")
    coarse = table["x"] // (factor + 1)
    kl_fine = kl_divergence(table, fine, qi=["x", "y"], sensitive="s")
    kl_coarse = kl_divergence(table, coarse, qi=["x", "y"], sensitive="s")
    assert kl_fine == 0.0
    assert kl_coarse >= kl_fine
    assert kl_divergence(table, pd.Series(0, index=table.index), qi=["x", "y"],
                         sensitive="s") >= kl_coarse - 1e-12


@st.composite
def size_lists(draw):
    return draw(st.lists(st.integers(1, 50), min_size=2, max_size=8))


@settings(max_examples=150)
@given(size_lists(), st.data())
def test_merging_groups_never_decreases_discernibility(sizes, data):
    i, j = data.draw(st.lists(st.integers(0, len(sizes) - 1), min_size=2, max_size=2,
                              unique=True))
    merged = [n for index, n in enumerate(sizes) if index not in (i, j)] + [sizes[i] + sizes[j]]

    def release(ns):
        return ReleaseCandidate.from_groups([(n, ["a"] * n) for n in ns])

    assert discernibility(release(merged)) > discernibility(release(sizes))
    assert average_group_size(release(merged)) > average_group_size(release(sizes))
    assert discernibility(release(sizes)) == sum(n * n for n in sizes)


# ----------------------------------------------------------------------------- report
def test_utility_report_with_and_without_kl():
    table = pd.DataFrame({"zip": ["a", "a", "b", "b", "b", "b"],
                          "disease": ["flu", "hiv", "flu", "flu", "flu", "flu"]})
    groups = pd.Series([0, 0, 1, 1, 1, 1])
    release = ReleaseCandidate.from_table(table.assign(g=groups), group="g", sensitive="disease")
    report = utility_report(release, table=table, assignment=groups, qi="zip",
                            sensitive="disease")
    assert isinstance(report, UtilityReport)
    assert report == UtilityReport(2, 6, 3.0, 2, 4, 20, 20 / 36, 0.0)
    assert utility_report(release).kl_divergence is None
    frame = report.to_frame()
    assert frame.shape == (1, 8)
    assert frame.iloc[0].to_dict() == pytest.approx(report.to_dict())
    merged = utility_report(ReleaseCandidate.from_groups([(6, list(table["disease"]))]),
                            table=table, assignment=pd.Series([0] * 6), qi=["zip"],
                            sensitive="disease")
    assert merged.kl_divergence > 0
    assert all(type(v) in (int, float) for v in merged.to_dict().values())


# ----------------------------------------------------------------------------- errors
TABLE = pd.DataFrame({"age": [20, 30, 30], "disease": ["flu", "hiv", "flu"]})
GROUPS = pd.Series([0, 1, 1])


def kl(**overrides):
    args = {"table": TABLE, "assignment": GROUPS, "qi": "age", "sensitive": "disease"}
    args.update(overrides)
    return kl_divergence(args.pop("table"), args.pop("assignment"), **args)


@pytest.mark.parametrize("call, owner", [(average_group_size, "average_group_size"),
                                         (discernibility, "discernibility"),
                                         (utility_report, "utility_report")])
def test_release_must_be_a_release_candidate(call, owner):
    with pytest.raises(InvalidParameterError, match=re.escape(
            f"The 'release' parameter of {owner} must be a ReleaseCandidate. "
            f"Got list instead.")):
        call([3, 4])


def test_normalized_must_be_bool():
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'normalized' parameter of discernibility must be True or False. "
            "Got 'yes' instead.")):
        discernibility(SIX, normalized="yes")


def test_kl_parameter_errors():
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'table' parameter of kl_divergence must be a pandas DataFrame. "
            "Got 'dict' instead.")):
        kl(table={"age": [1]})
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'missing' parameter of kl_divergence must be one of ['error', 'as_value']. "
            "Got 'drop' instead.")):
        kl(missing="drop")
    for bad in ([], {"age"}):
        with pytest.raises(InvalidParameterError, match=re.escape(
                f"The 'qi' parameter of kl_divergence must be a column name or a non-empty list "
                f"of column names. Got {bad!r} instead.")):
            kl(qi=bad)
    with pytest.raises(InvalidParameterError, match=re.escape(
            "kl_divergence needs distinct quasi-identifier columns and a sensitive column that "
            "is not one of them. Got qi=['age', 'disease'] and sensitive='disease' instead.")):
        kl(qi=["age", "disease"])
    with pytest.raises(InvalidParameterError, match=re.escape(
            "kl_divergence needs distinct quasi-identifier columns and a sensitive column that "
            "is not one of them. Got qi=['age', 'age'] and sensitive='disease' instead.")):
        kl(qi=["age", "age"])
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'assignment' parameter of kl_divergence must be a pandas Series of group ids "
            "aligned with the table's index. Got 'list' instead.")):
        kl(assignment=[0, 1, 1])


def test_kl_schema_errors():
    with pytest.raises(SchemaError, match=re.escape(
            "Column 'zip' is not in the table; columns are ['age', 'disease'].")):
        kl(qi=["age", "zip"])
    with pytest.raises(SchemaError, match=re.escape(
            "Column 'illness' is not in the table; columns are ['age', 'disease'].")):
        kl(sensitive="illness")
    with pytest.raises(SchemaError, match=re.escape(
            "The table is empty: the KL-divergence needs at least one row.")):
        kl(table=TABLE.iloc[:0], assignment=GROUPS.iloc[:0])


def test_kl_misaligned_assignment():
    with pytest.raises(SchemaError, match=re.escape(
            "The assignment's index does not match the table's index: 1 table row(s) have no "
            "group (first: 2) and 0 assignment label(s) are not table rows.")):
        kl(assignment=GROUPS.iloc[:2])
    with pytest.raises(SchemaError, match=re.escape(
            "The assignment's index does not match the table's index: 1 table row(s) have no "
            "group (first: 2) and 1 assignment label(s) are not table rows (first: 7).")):
        kl(assignment=pd.Series([0, 1, 1], index=[0, 1, 7]))
    with pytest.raises(SchemaError, match=re.escape(
            "The assignment's index does not match the table's index: 0 table row(s) have no "
            "group and 1 assignment label(s) are not table rows (first: 3).")):
        kl(assignment=pd.Series([0, 1, 1, 1]))
    with pytest.raises(SchemaError, match=re.escape(
            "The assignment's index does not match the table's index, and one of them repeats "
            "labels, so rows cannot be matched to groups.")):
        kl(assignment=pd.Series([0, 1, 1], index=[0, 0, 1]))


def test_kl_missing_values():
    with pytest.raises(SchemaError, match=re.escape(
            "The assignment has 1 missing group id(s); every row of the table must belong to a "
            "QI-group.")):
        kl(assignment=pd.Series([0, np.nan, 1]))
    with pytest.raises(SchemaError, match=re.escape(
            "The assignment has 1 missing group id(s); every row of the table must belong to a "
            "QI-group.")):
        kl(assignment=pd.Series([0, None, 1]), missing="as_value")
    with pytest.raises(SchemaError, match=re.escape(
            "Column 'age' has 1 missing value(s); pass missing='as_value' to treat them as a "
            "category, or clean the table.")):
        kl(table=TABLE.assign(age=[20, np.nan, 30]))
    with pytest.raises(SchemaError, match=re.escape(
            "Column 'disease' has 2 missing value(s); pass missing='as_value' to treat them as "
            "a category, or clean the table.")):
        kl(table=TABLE.assign(disease=["flu", None, np.nan]))


def test_kl_unhashable_cells():
    with pytest.raises(SchemaError, match=re.escape(
            "Column 'disease' holds unhashable cells (such as lists); kl_divergence needs one "
            "value per cell (one sensitive value per individual, svpi).")):
        kl(table=TABLE.assign(disease=[["flu"], ["hiv", "flu"], ["flu"]]))
    with pytest.raises(SchemaError, match=re.escape(
            "The assignment holds unhashable cells (such as lists); kl_divergence needs one "
            "value per cell (one sensitive value per individual, svpi).")):
        kl(assignment=pd.Series([[0], [1], [1]]))


def test_utility_report_errors():
    release = ReleaseCandidate.from_groups([(1, ["flu"]), (2, ["hiv", "flu"])])
    with pytest.raises(InvalidParameterError, match=re.escape(
            "utility_report computes the KL-divergence only from all of 'table', 'assignment', "
            "'qi' and 'sensitive'. Got ['table'] without ['assignment', 'qi', 'sensitive'] "
            "instead.")):
        utility_report(release, table=TABLE)
    with pytest.raises(SchemaError, match=re.escape(
            "The assignment does not describe this release: it has 1 group(s) of sizes [3], "
            "the release 2 of sizes [1, 2].")):
        utility_report(release, table=TABLE, assignment=pd.Series([0, 0, 0]), qi="age",
                       sensitive="disease")
    with pytest.raises(SchemaError, match=re.escape(
            "Column 'zip' is not in the table; columns are ['age', 'disease'].")):
        utility_report(release, table=TABLE, assignment=GROUPS, qi="zip", sensitive="disease")
    assert utility_report(release, table=TABLE, assignment=GROUPS, qi="age",
                          sensitive="disease").kl_divergence == 0.0


# ----------------------------------------------------------------- classification accuracy
def test_accuracy_of_nursery_releases_sits_between_the_papers_references():
    # Sect. 8.4: has_nurs predicts the class, so removing it costs accuracy; a bucketized
    # release (has_nurs shuffled within groups) lands between the two references
    from skyprivacy.datasets import load_nursery
    nursery = load_nursery()
    before = nursery.copy()
    qi = [c for c in nursery.columns if c not in ("has_nurs", "class")]
    release = skyline_anonymize(nursery, qi=qi, sensitive="has_nurs",
                                policy=Policy.uniform([(1, 0, 0, 0.9)]), output="bucketized",
                                random_state=0, keep="class")
    result = classification_accuracy(release.table, target="class", cv=5, random_state=0,
                                     original=nursery, sensitive="has_nurs")
    assert "group" not in result.features and "class" not in result.features
    assert result.original > 0.99 and result.without_sensitive < 0.7
    assert result.without_sensitive < result.accuracy < result.original
    assert len(result.fold_accuracies) == 5
    assert list(result.to_frame()["table"]) == ["release", "original", "without_sensitive"]
    assert result.to_dict()["accuracy"] == result.accuracy
    pd.testing.assert_frame_equal(nursery, before)  # never modifies its inputs


def test_accuracy_reads_generalized_labels_as_categories_and_tests_on_original_rows():
    rng = np.random.default_rng(0)
    age = rng.integers(20, 70, 400)
    table = pd.DataFrame({"age": age, "zip": rng.choice(["02139", "02140"], 400),
                          "label": np.where(age < 45, "young", "old")})
    generalized = table.assign(age=np.where(age < 45, "[20, 44]", "[45, 69]"))
    exact = classification_accuracy(generalized, target="label", cv=4, random_state=1)
    assert exact.accuracy == 1.0  # the label is a function of the generalized category
    assert exact.features == ("age", "zip")
    # trained on the release, tested on original rows whose categories it has seen
    held = generalized.iloc[:50]
    assert classification_accuracy(generalized.iloc[50:], target="label", test=held,
                                   random_state=1).fold_accuracies == (1.0,)
    noise = table.assign(label=rng.choice(["a", "b"], 400))
    assert classification_accuracy(noise, target="label", features=["zip"], cv=4,
                                   random_state=1).accuracy < 0.65


def test_accuracy_errors_name_the_bad_value(monkeypatch):
    table = pd.DataFrame({"x": [1, 2, 3, 4], "y": ["a", "b", "a", "b"], "s": list("pqpq")})
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'cv' parameter of classification_accuracy must be an integer in [2, 4]. "
            "Got 5 instead.")):
        classification_accuracy(table, target="y", cv=5)
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'table' parameter of classification_accuracy must be a pandas "
            "DataFrame. Got 'list' instead.")):
        classification_accuracy([], target="y")
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'table' parameter of classification_accuracy must have rows. "
            "Got an empty table instead.")):
        classification_accuracy(table.iloc[:0], target="y")
    with pytest.raises(SchemaError, match=re.escape(
            "Column 'label' is not in the table; columns are ['x', 'y', 's'].")):
        classification_accuracy(table, target="label", cv=2)
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'features' parameter of classification_accuracy must not contain the "
            "target 'y'.")):
        classification_accuracy(table, target="y", features=["x", "y"], cv=2)
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'target' parameter of classification_accuracy must differ from the "
            "sensitive column 'y'")):
        classification_accuracy(table, target="y", sensitive="y", original=table, cv=2)
    monkeypatch.setitem(sys.modules, "sklearn.tree", None)
    with pytest.raises(ImportError, match=re.escape(
            "classification_accuracy needs scikit-learn: pip install 'skyprivacy[ml]'")):
        classification_accuracy(table, target="y", cv=2)
