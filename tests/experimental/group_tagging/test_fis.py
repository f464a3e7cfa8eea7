"""FIS, the paper's budget and the linkage diagnostics: spec group-tagging §3.4-§3.6, tests
G1 (eq. (1)/(3) table), G2 (positivity thresholds), G3 (invariants 1-5) and G4 (the not-DP
witness)."""
import itertools
import math
import warnings
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from skyprivacy.errors import InvalidParameterError, NotDifferentiallyPrivateWarning, SchemaError
from skyprivacy.experimental.group_tagging import (empirical_relinkage_rate, fis_shuffle,
                                                   one_hot_encode, paper_fis_epsilon, plan_fis,
                                                   row_return_probability, tag_groups)

ANCHORED = ["id", "maths", "income"]


def quiet_shuffle(df, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotDifferentiallyPrivateWarning)
        return fis_shuffle(df, **kwargs)


def paper(t, b, S):
    with pytest.warns(NotDifferentiallyPrivateWarning,
                      match=r"is not a differential-privacy budget .*is_dp_guarantee is False"):
        return paper_fis_epsilon(t, b, S=S)


# ---------------------------------------------------------------------------------------------
# G1: the eq. (1) / eq. (3) / eq. (9) table of spec §3.6 (rel. tol. 1e-6)

G1_TABLE = [  # (t, batch sizes, S, RR, epsilon) as the spec prints them
    (10, 100, 2, "0.0010203", "-6.88765"),
    (10, 100, 3, "1.03061e-5", "-11.4828"),
    (1, 2, 2, "1", "0"),
    (5, 2, 2, "5", "1.60944"),
    (100, 11, 2, "1", "0"),
    (101, 11, 2, "1.01", "0.00995033"),
    ([4, 6], [100, 100], 2, "5.10152e-4", "-7.58080"),
    ([8, 12], [50, 50], 2, "4.16493e-3", "-5.48106"),
    ([4, 6], [100, 100], 3, "5.15305e-6", "-12.1759"),
    ([200, 300], [2, 2], 2, "250", "5.52146"),
    ([10, 20], [2, 2], 2, "15", "2.70805"),
    ([3, 3, 4], [50, 50, 50], 2, "6.94155e-4", "-7.27281"),
]


def agrees_with_printed(value: float, printed: str) -> bool:
    """value rounds to the printed figure: within half a unit of its last printed digit
    (the spec asks for rel. tol. 1e-6, but prints six significant digits, so -11.4828 for
    -11.48277 is already 2.2e-6 away)."""
    mantissa, _, exponent = printed.partition("e")
    decimals = len(mantissa.partition(".")[2])
    unit = 10.0 ** (-decimals) * 10.0 ** int(exponent or 0)
    return abs(value - float(printed)) <= unit / 2 * (1 + 1e-9)


@pytest.mark.parametrize("t, b, S, rr, epsilon", G1_TABLE)
def test_g1_paper_epsilon_table(t, b, S, rr, epsilon):
    budget = paper(t, b, S)
    assert agrees_with_printed(budget.rr, rr)
    assert agrees_with_printed(budget.epsilon, epsilon)
    if float(rr) == 1:  # exact rows: t = (b - 1)^S
        assert budget.epsilon == pytest.approx(0.0, abs=1e-12)
    assert budget.is_dp_guarantee is False
    assert budget.equation == ("eq. (1)" if isinstance(t, int) else "eq. (3)")


def test_g1_printed_precision_check_is_not_vacuous():
    assert not agrees_with_printed(-11.4829, "-11.4828")
    assert not agrees_with_printed(5.1017e-4, "5.10152e-4")
    assert agrees_with_printed(-7.580804, "-7.58080")


@pytest.mark.parametrize("t, b, S", [(10, 100, 2), (10, 100, 3), (5, 2, 2), (101, 11, 2),
                                     (7, 4.5, 4)])
def test_g1_one_class_reduces_eq3_to_eq1(t, b, S):
    eq1 = math.log(t / (b - 1) ** S)
    assert paper(t, b, S).epsilon == pytest.approx(eq1, rel=1e-12)
    assert paper([t], [b], S).epsilon == pytest.approx(eq1, rel=1e-12)


def test_g1_from_a_plan_of_the_reference_run(reference):
    # spec §4: n_F = 400, n_M = 600, t = {F: 4, M: 6}: batches of exactly 100 -> eq. (9) row
    plan = plan_fis(reference, tag="sex", anchored=ANCHORED, S=2, batches={"F": 4, "M": 6},
                    random_state=0)
    assert plan.classes == ("F", "M") and plan.t == (4, 6)
    assert {s for sizes in plan.batch_sizes for s in sizes} == {100}
    assert paper(plan.t, plan.batch_sizes, plan.S).epsilon == pytest.approx(-7.58080, rel=1e-6)


def test_g1_unequal_batches_use_the_mean_and_warn():
    with pytest.warns(Warning) as caught:
        budget = paper_fis_epsilon([2], [[2, 6]], S=2)
    messages = [str(w.message) for w in caught]
    assert ("Class 0 has unequal batch sizes (2 to 6): eq. (1)/(3) assume n_i1 ≃ ... ≃ n_it_i; "
            "the mean is used.") in messages
    assert budget.epsilon == pytest.approx(math.log(2 / 3 ** 2))  # mean batch size 4


def test_g1_the_budget_is_computed_in_log_space_for_huge_S():
    budget = paper(10, 100, 10**9)  # (b-1)^S would have ~2e9 digits
    assert budget.rr == 0.0 and budget.epsilon == pytest.approx(math.log(10) - 1e9 * math.log(99))


# ---------------------------------------------------------------------------------------------
# G2: eps_Fair >= 0 needs t >= (b - 1)^S batches per class (two equal classes)

@pytest.mark.parametrize("S, b, needed", [(2, 3, 4), (2, 5, 16), (2, 11, 100), (2, 101, 10**4),
                                          (3, 11, 1000), (3, 101, 10**6)])
def test_g2_positivity_threshold(S, b, needed):
    assert paper([needed, needed], [b, b], S).epsilon == pytest.approx(0.0, abs=1e-12)
    assert paper([needed - 1, needed - 1], [b, b], S).epsilon < 0
    if needed <= 1000:  # brute force: the first t with a non-negative value
        smallest = next(t for t in itertools.count(1)
                        if paper_epsilon_quiet([t, t], [b, b], S) >= -1e-12)
        assert smallest == needed


def paper_epsilon_quiet(t, b, S):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotDifferentiallyPrivateWarning)
        return paper_fis_epsilon(t, b, S=S).epsilon


def test_g2_monotonicity_is_wrong_as_the_spec_says():
    # more batches at a fixed batch size (more people) gives a *larger* "epsilon"
    assert paper_epsilon_quiet([8, 12], [100, 100], 2) > paper_epsilon_quiet([4, 6], [100, 100], 2)
    # more protected classes (1/n_p!) gives a smaller one for the same per-class terms
    three = paper_epsilon_quiet([5, 5, 5], [11, 11, 11], 2)
    assert three < paper_epsilon_quiet([5, 5], [11, 11], 2)


# ---------------------------------------------------------------------------------------------
# G3: FIS invariants (spec §3.6, invariants 1-5) on the 1,000-row reference table

@pytest.fixture
def shuffled(reference):
    return quiet_shuffle(reference, tag="sex", anchored=ANCHORED, S=2,
                         batches={"F": 4, "M": 6}, random_state=11)


def test_g3_plan_shape(shuffled, reference):
    out, plan = shuffled
    assert plan.anchored == ("id", "sex", "maths", "income")
    assert sorted(c for g in plan.attribute_groups for c in g) == ["age", "religion", "urban"]
    assert sorted(len(g) for g in plan.attribute_groups) == [1, 2]  # sizes differ by <= 1
    assert plan.S == 2 and plan.g == 3 and plan.t == (4, 6) and plan.realized
    assert plan.seed == 11
    assert repr(plan) == ("FisPlan(tag='sex', S=2, g=3, batches={'F': 4, 'M': 6}, "
                          "n_rows=1000, realized=True)")
    assert len(plan.shuffler_assignment) == 10
    assert all(sorted(a) == [0, 1] for a in plan.shuffler_assignment)


def test_g3_invariant_1_anchored_columns_are_byte_identical(shuffled, reference):
    out, plan = shuffled
    for column in plan.anchored:
        assert out[column].to_numpy().tobytes() == reference[column].to_numpy().tobytes()
        assert out[column].dtype == reference[column].dtype
    assert out.index.equals(reference.index) and list(out.columns) == list(reference.columns)
    assert not out[["religion", "urban", "age"]].equals(reference[["religion", "urban", "age"]])


def test_g3_invariant_2_multisets_per_batch(shuffled, reference):
    out, plan = shuffled
    for batch in plan.batches:
        rows = list(batch.rows)
        assert set(reference["sex"].iloc[rows]) == {batch.tag}
        for group in plan.attribute_groups:
            before = sorted(map(tuple, reference[list(group)].iloc[rows].to_numpy().tolist()))
            after = sorted(map(tuple, out[list(group)].iloc[rows].to_numpy().tolist()))
            assert before == after


def test_g3_invariant_3_counts_per_tag_are_exact(shuffled, reference):
    out, _ = shuffled
    for sex in ("F", "M"):
        a, b = reference[reference["sex"] == sex], out[out["sex"] == sex]
        for column in ("religion", "urban"):
            assert a[column].sum() == b[column].sum()
        assert ((a["maths"] > 90).sum()) == ((b["maths"] > 90).sum())
    # the whole-table figures the spec quotes for its own run: unchanged, whatever they are
    assert out["religion"].sum() == reference["religion"].sum()
    female_top = ((reference["sex"] == "F") & (reference["maths"] > 90)).sum()
    assert ((out["sex"] == "F") & (out["maths"] > 90)).sum() == female_top


def test_g3_invariant_3_one_hot_validity_is_preserved(reference):
    frame = reference.assign(religion=reference["religion"].map({0: "none", 1: "hindu"}),
                             urban=reference["urban"].map({0: "rural", 1: "urban"}))
    encoded, encoding = one_hot_encode(frame, columns=["religion", "urban"])
    out, plan = quiet_shuffle(encoded, tag="sex", anchored=ANCHORED, S=2, batches=5,
                              encoding=encoding, random_state=3)
    for group in plan.attribute_groups:  # all bits of one attribute in one group
        sources = {encoding.source_of(c) or c for c in group}
        for source in ("religion", "urban"):
            if source in sources:
                assert set(encoding.columns[source]) <= set(group)
    for bits in encoding.columns.values():
        assert (out[list(bits)].sum(axis=1) == 1).all()


def expected_conjunction(reference, plan, a, b):
    total = 0.0
    for batch in plan.batches:
        rows = list(batch.rows)
        total += a.iloc[rows].sum() * b.iloc[rows].sum() / len(rows)
    return total


@pytest.mark.parametrize("pair", ["free x free", "free x anchored"])
def test_g3_invariant_4_cross_unit_conjunctions_follow_the_formula(reference, pair):
    plan = plan_fis(reference, tag="sex", anchored=ANCHORED, S=2, batches={"F": 4, "M": 6},
                    random_state=5)
    # a user-supplied plan that puts religion and urban in different attribute groups
    plan = replace(plan, attribute_groups=(("religion", "age"), ("urban",)))
    a = reference["religion"]
    b = reference["urban"] if pair == "free x free" else (reference["maths"] > 90).astype(int)
    true = int((a & b).sum())
    expected = expected_conjunction(reference, plan, a, b)
    draws = []
    for seed in range(300):
        out, again = quiet_shuffle(reference, plan=plan, random_state=seed)
        assert again.batches == plan.batches  # fixed batches, fresh permutations
        b_out = out["urban"] if pair == "free x free" else (out["maths"] > 90).astype(int)
        draws.append(int((out["religion"] & b_out).sum()))
    mean, se = np.mean(draws), np.std(draws, ddof=1) / np.sqrt(len(draws))
    assert abs(mean - expected) <= 3 * se
    if pair == "free x free":
        assert abs(true - expected) > 10 * se  # the conjunction really changes


def test_g3_invariant_5_orders_of_a_batch_of_three_are_uniform():
    table = pd.DataFrame({"sex": ["F"] * 3 + ["M"] * 2, "x": [0, 1, 2, 3, 4],
                          "y": [5, 6, 7, 8, 9]})
    plan = plan_fis(table, tag="sex", anchored=[], S=2, batches=1, random_state=0)
    orders = {p: 0 for p in itertools.permutations(range(3))}
    for seed in range(1200):
        out, _ = quiet_shuffle(table, plan=plan, random_state=seed)
        orders[tuple(out["x"].iloc[:3])] += 1
    assert min(orders.values()) > 0
    assert chisquare(list(orders.values())).pvalue > 0.01


@settings(max_examples=40)
@given(st.integers(2, 40), st.integers(0, 10**6), st.integers(2, 3))
def test_every_row_is_in_one_batch_and_sizes_differ_by_at_most_one(n_f, seed, groups):
    table = pd.DataFrame({"sex": ["F"] * n_f + ["M"] * 6, "a": range(n_f + 6),
                          "b": range(n_f + 6), "c": range(n_f + 6)})
    rng = np.random.default_rng(seed)
    t_f = int(rng.integers(1, n_f // 2 + 1))
    plan = plan_fis(table, tag="sex", anchored=[], S=groups, batches={"F": t_f, "M": 3},
                    random_state=seed)
    rows = sorted(r for b in plan.batches for r in b.rows)
    assert rows == list(range(n_f + 6))
    for sizes in plan.batch_sizes:
        assert max(sizes) - min(sizes) <= 1 and min(sizes) >= 2
    group_sizes = [len(g) for g in plan.attribute_groups]
    assert sum(group_sizes) == 3 and max(group_sizes) - min(group_sizes) <= 1


def test_the_input_is_never_modified(reference):
    before = reference.copy(deep=True)
    quiet_shuffle(reference, tag="sex", anchored=ANCHORED, S=2, batch_size=50, random_state=0)
    pd.testing.assert_frame_equal(reference, before)


def test_same_seed_same_shuffle_and_batch_size_rounds(reference):
    one, plan = quiet_shuffle(reference, tag="sex", anchored=ANCHORED, S=2, batch_size=30,
                              random_state=4)
    two, _ = quiet_shuffle(reference, tag="sex", anchored=ANCHORED, S=2, batch_size=30,
                           random_state=4)
    pd.testing.assert_frame_equal(one, two)
    assert plan.t == (13, 20)  # round(400 / 30) = 13, round(600 / 30) = 20


def test_fis_shuffle_always_warns_that_it_is_not_dp(reference):
    with pytest.warns(NotDifferentiallyPrivateWarning) as caught:
        fis_shuffle(reference, tag="sex", anchored=ANCHORED, S=2, batches=2, random_state=0)
    assert str(caught[0].message) == (
        "fis_shuffle permutes attribute groups within each protected class: the output is not "
        "anonymized and not differentially private (per class every column total is exact and "
        "the anchored columns are released verbatim); see empirical_relinkage_rate for the "
        "share of rows that keep their own values.")


def test_custom_shufflers_are_called_per_group_and_recorded(reference):
    calls = []

    def make(k):
        def shuffler(size, rng):
            calls.append(k)
            return np.roll(np.arange(size), 1)  # a derangement: nothing comes home
        return shuffler

    out, plan = quiet_shuffle(reference, tag="sex", anchored=ANCHORED, S=2, batches=2,
                              shufflers=[make(0), make(1)], random_state=0)
    assert sorted(set(calls)) == [0, 1] and len(calls) == 8
    assert empirical_relinkage_rate(plan).any_group == 0.0


def test_tag_groups_keeps_the_index():
    table = pd.DataFrame({"sex": ["F", "M", "M", "F"]}, index=[10, 11, 12, 13])
    tags = tag_groups(table, protected="sex")
    assert tags.name == "tag" and tags.index.tolist() == [10, 11, 12, 13]
    assert tag_groups(pd.DataFrame({"sex": ["F", "F"]}), protected="sex").tolist() == ["F", "F"]


# ---------------------------------------------------------------------------------------------
# G4: FIS is not differentially private (spec §3.6, "why eps_Fair is not a DP guarantee", 3)

def test_g4_a_neighbouring_table_changes_a_released_total_on_every_seed(reference):
    neighbour = reference.copy()
    row = int(np.flatnonzero(reference["religion"].to_numpy() == 0)[0])
    neighbour.iloc[row, neighbour.columns.get_loc("religion")] = 1  # one free attribute
    total = int(reference["religion"].sum())
    released_d, released_n = [], []
    for seed in range(200):
        for table, sink in ((reference, released_d), (neighbour, released_n)):
            out, _ = quiet_shuffle(table, tag="sex", anchored=ANCHORED, S=2, batch_size=100,
                                   random_state=seed)
            sink.append(int(out["religion"].sum()))
    assert set(released_d) == {total} and set(released_n) == {total + 1}
    differ = np.mean(np.array(released_d) != np.array(released_n))
    assert differ == 1.0
    # P[total = t | D] = 1 while P[total = t | D'] = 0: no finite epsilon bounds the ratio.


# ---------------------------------------------------------------------------------------------
# Linkage diagnostics (spec §3.6, "what the library exposes")

def test_row_return_probability_closed_forms():
    rates = row_return_probability(5, S=2)
    assert rates.each_group == pytest.approx(0.2)
    assert rates.any_group == pytest.approx(0.36)
    assert rates.all_groups == pytest.approx(0.04)
    assert row_return_probability(100, S=2).all_groups == pytest.approx(1e-4)
    assert row_return_probability(10**6, S=10**9).all_groups == 0.0  # no huge allocation


def test_empirical_relinkage_matches_the_spec_simulation():
    # spec: simulated at b = 5, S = 2 -> 0.3599 and 0.0405 (expected 0.36, 0.04)
    n = 20_000
    table = pd.DataFrame({"sex": ["F"] * n, "a": np.zeros(n, dtype=int),
                          "b": np.zeros(n, dtype=int)})  # all values equal: ties everywhere
    out, plan = quiet_shuffle(table, tag="sex", anchored=[], S=2, batch_size=5, random_state=1)
    rates = empirical_relinkage_rate(plan)
    assert rates.any_group == pytest.approx(0.36, abs=0.01)
    assert rates.all_groups == pytest.approx(0.04, abs=0.005)
    assert rates.each_group == pytest.approx(0.2, abs=0.01)
    assert len(rates.per_group) == 2
    # value equality would say every row came home: provenance is what is measured
    assert (out["a"] == table["a"]).all()


def test_relinkage_with_nothing_to_shuffle_is_total():
    table = pd.DataFrame({"sex": ["F"] * 4, "id": range(4)})
    with pytest.warns(Warning):
        out, plan = fis_shuffle(table, tag="sex", anchored=["id"], S=2, batches=1,
                                random_state=0)
    pd.testing.assert_frame_equal(out, table)
    assert empirical_relinkage_rate(plan).to_dict() == {
        "each_group": 1.0, "any_group": 1.0, "all_groups": 1.0, "per_group": []}


@settings(max_examples=40)
@given(st.data())
def test_fis_invariants_hold_on_random_tables(data):
    """Anchored columns identical; per batch each attribute group's multiset of row tuples is
    unchanged (so per class every column's multiset is); the plan records where values came
    from."""
    n_f, n_m = data.draw(st.integers(2, 12)), data.draw(st.integers(2, 12))
    n = n_f + n_m
    values = st.lists(st.integers(0, 3), min_size=n, max_size=n)
    table = pd.DataFrame({"sex": ["F"] * n_f + ["M"] * n_m, "keep": data.draw(values),
                          "a": data.draw(values), "b": data.draw(values),
                          "c": data.draw(values)})
    groups = data.draw(st.integers(2, 3))
    batches = {"F": data.draw(st.integers(1, n_f // 2)), "M": data.draw(st.integers(1, n_m // 2))}
    out, plan = quiet_shuffle(table, tag="sex", anchored=["keep"], S=groups, batches=batches,
                              random_state=data.draw(st.integers(0, 2**32)))
    assert out[["sex", "keep"]].equals(table[["sex", "keep"]])
    for batch, perms in zip(plan.batches, plan.permutations):
        rows = np.asarray(batch.rows)
        for group, perm in zip(plan.attribute_groups, perms):
            cols = list(group)
            assert sorted(map(tuple, out[cols].iloc[rows].to_numpy().tolist())) == \
                sorted(map(tuple, table[cols].iloc[rows].to_numpy().tolist()))
            source = table[cols].iloc[rows[list(perm)]].to_numpy()
            assert np.array_equal(out[cols].iloc[rows].to_numpy(), source)


def test_an_anchored_one_hot_attribute_that_is_absent_is_reported():
    frame, encoding = one_hot_encode(pd.DataFrame({"sex": ["F", "F"], "r": ["a", "b"]}),
                                     columns="r")
    with pytest.raises(SchemaError) as caught:
        plan_fis(frame.drop(columns=["r=a", "r=b"]).assign(x=[1, 2]), tag="sex",
                 anchored=["r"], S=2, batches=1, encoding=encoding, random_state=0)
    assert str(caught.value) == "Column 'r' is not in the table; columns are ['sex', 'x']."


# ---------------------------------------------------------------------------------------------
# Declared options: the kernel's messages, named after the function the user called

SMALL = pd.DataFrame({"id": range(8), "sex": list("FFFFMMMM"), "a": range(8), "b": range(8)})


@pytest.mark.parametrize("call, message", [
    (lambda: plan_fis(SMALL, tag=5, anchored=[], S=2, batches=2, random_state=0),
     "The 'tag' parameter of plan_fis must be the name of the protected column. Got 5 "
     "instead."),
    (lambda: plan_fis(SMALL, tag="sex", anchored=[], S=2, batches=2, encoding={"a": ("a",)},
                      random_state=0),
     "The 'encoding' parameter of plan_fis must be None or an EncodingMap. Got 'dict' "
     "instead."),
    (lambda: plan_fis(SMALL, tag="sex", anchored=[], S=2, batches={"F": 2, "M": 0},
                      random_state=0),
     "The 'batches' parameter of plan_fis must be a positive integer (or a mapping class -> "
     "positive integer). Got 0 instead."),
    (lambda: fis_shuffle(SMALL, tag="sex", anchored=[], S=1, batches=2, random_state=0),
     "The 'S' parameter of fis_shuffle must be an integer >= 2 (the paper requires S > 1). Got "
     "1 instead."),
    (lambda: fis_shuffle(SMALL, plan="plan", random_state=0),
     "The 'plan' parameter of fis_shuffle must be a FisPlan (from plan_fis or fis_shuffle). Got "
     "'str' instead."),
    (lambda: fis_shuffle(SMALL, tag="sex", anchored=[], S=2, batches=2, random_state=0.5),
     "The 'random_state' parameter of fis_shuffle must be None, a non-negative int seed or a "
     "numpy.random.Generator. Got 0.5 instead."),
    (lambda: empirical_relinkage_rate("plan"),
     "The 'plan' parameter of empirical_relinkage_rate must be a FisPlan returned by "
     "fis_shuffle. Got 'str' instead."),
    (lambda: row_return_probability(5, S=0),
     "The 'S' parameter of row_return_probability must be a positive integer. Got 0 instead."),
    (lambda: row_return_probability(1.5, S=2),
     "The 'batch_size' parameter of row_return_probability must be an integer >= 2 (a batch "
     "of 1 row is not shuffled). Got 1.5 instead."),
    (lambda: tag_groups([["F"]], protected="sex"),
     "The 'table' parameter of tag_groups must be a pandas DataFrame. Got 'list' instead."),
])
def test_declared_options(call, message):
    with pytest.raises(InvalidParameterError) as caught:
        call()
    assert str(caught.value) == message


def test_numpy_options_are_read_as_python_numbers():
    plan = plan_fis(SMALL, tag="sex", anchored=["id"], S=np.int64(2), batches=np.int64(2),
                    random_state=np.int64(3))
    assert type(plan.S) is int and plan.S == 2
    _, realized = quiet_shuffle(SMALL, plan=plan, random_state=np.int64(3))
    assert realized.seed == 3 and type(realized.seed) is int
    rates = row_return_probability(np.int64(4), S=np.int64(2))
    assert rates.all_groups == pytest.approx(1 / 16)


def test_warnings_name_the_callers_line():
    """The kernel's warn attributes every warning to the first frame outside skyprivacy, also
    when a helper or a decorator stands between (here: paper_fis_epsilon's batch-size helper
    and fis_shuffle)."""
    with pytest.warns(NotDifferentiallyPrivateWarning) as shuffled:
        fis_shuffle(SMALL, tag="sex", anchored=["id"], S=2, batches=1, random_state=0)
    with warnings.catch_warnings(record=True) as budget:
        warnings.simplefilter("always")
        paper_fis_epsilon([2], [[2, 6]], S=2)
    assert {w.filename for w in [*shuffled, *budget]} == {__file__}
    assert len(budget) == 2  # unequal batch sizes, and not a DP budget
