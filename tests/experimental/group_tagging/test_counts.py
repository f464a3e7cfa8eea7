"""Differentially private count reports (spec group-tagging §3.8), test G8: noise scales,
composition, and empirical DP spot-checks on neighbouring tables."""
import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from skyprivacy.errors import BudgetError, InvalidParameterError, SchemaError
from skyprivacy.experimental.group_tagging import (QuerySpec, count_report, one_hot_encode,
                                                   tree_levels)
from skyprivacy.fairness_queries import BudgetAccountant

BIT = QuerySpec("count", ["x"], None)


def periods_table(counts, extra=0) -> pd.DataFrame:
    """One row per (individual, period); counts[i] rows with x = 1 in period i + 1, plus 3
    rows with x = 0 per period."""
    rows = []
    for period, count in enumerate(counts, start=1):
        rows += [(1, period)] * count + [(0, period)] * 3
    return pd.DataFrame(rows, columns=["x", "month"])


# ---------------------------------------------------------------------------------------------
# G8: scales

def test_g8_sequential_scale(reference_periods):
    release = count_report(reference_periods, spec=BIT, epsilon=1.0, periods="month",
                           random_state=0)
    assert len(release.periods) == 4 and release.sensitivity == 1
    assert release.scale == 4.0 and release.levels == 1 and release.statistic == "count"
    row = count_report(reference_periods, spec=BIT, epsilon=1.0, periods="month",
                       privacy_unit="row", random_state=0)
    assert row.scale == 1.0  # a row touches one period: parallel composition


def test_g8_tree_scale(reference_periods):
    tree = count_report(reference_periods, spec=BIT, epsilon=1.0, periods="month",
                        composition="tree", privacy_unit="row", random_state=0)
    assert tree.levels == 3 and tree.scale == 3.0 and tree.statistic == "running_total"
    individual = count_report(reference_periods, spec=BIT, epsilon=1.0, periods="month",
                              composition="tree", random_state=0)
    assert individual.scale == 12.0  # Delta L d / epsilon: every node over k periods moves k
    assert [tree_levels(d) for d in (1, 2, 3, 4, 5, 8, 9)] == [1, 2, 3, 3, 4, 4, 5]


@pytest.fixture
def reference_periods():
    return periods_table([5, 7, 2, 9])


def test_sensitivity_counts_one_hot_attributes_once():
    raw = pd.DataFrame({"religion": ["h", "m", "s", "h"], "area": ["u", "r", "u", "u"],
                        "top": [1, 0, 0, 1]})
    frame, encoding = one_hot_encode(raw, columns=["religion", "area"])
    spec = QuerySpec("count", ["religion=h", "religion=m", "area=u", "top"], None)
    with_map = count_report(frame, spec=spec, epsilon=1.0, encoding=encoding, random_state=0)
    without = count_report(frame, spec=spec, epsilon=1.0, random_state=0)
    assert with_map.sensitivity == 3 and without.sensitivity == 4
    assert with_map.scale == 3.0
    predicate = QuerySpec("count", ["religion", "area"], None,
                          predicate=lambda r: r["religion"] == "h" and r["area"] == "u")
    assert count_report(raw, spec=predicate, epsilon=2.0, random_state=0).sensitivity == 1


def test_exact_values_at_a_huge_epsilon_and_post_processing():
    table = periods_table([5, 7, 2, 9])
    seq = count_report(table, spec=BIT, epsilon=1e12, periods="month", mechanism="geometric",
                       random_state=1)
    assert seq.values == (5, 7, 2, 9) and seq.periods == (1, 2, 3, 4)
    tree = count_report(table, spec=BIT, epsilon=1e12, periods="month", composition="tree",
                        mechanism="geometric", random_state=1)
    assert tree.values == (5, 12, 14, 23) and tree.per_period_counts() == (5, 7, 2, 9)
    assert tree.to_frame()["running_total"].tolist() == [5, 12, 14, 23]
    assert tree.to_dict()["privacy_unit"] == "individual"
    laplace = count_report(table, spec=BIT, epsilon=1e12, periods="month", random_state=1)
    assert laplace.values == pytest.approx((5, 7, 2, 9), abs=1e-6)
    assert isinstance(laplace.values[0], float) and isinstance(seq.values[0], int)


def test_a_public_horizon_includes_empty_periods_and_rejects_strangers():
    table = periods_table([5, 7])
    release = count_report(table, spec=BIT, epsilon=1e12, periods="month", horizon=[1, 2, 3],
                           mechanism="geometric", random_state=0)
    assert release.values == (5, 7, 0) and release.scale == pytest.approx(3e-12)
    with pytest.raises(SchemaError, match=r"^Column 'month' has periods \[2\] outside the "
                       r"horizon \[1\]\.$"):
        count_report(table, spec=BIT, epsilon=1.0, periods="month", horizon=[1],
                     random_state=0)


def test_tree_running_totals_use_the_dyadic_nodes():
    """Var(released running total at T) = (#nodes of T's dyadic decomposition) * 2 scale^2:
    1, 1, 2, 1 nodes for T = 1..4."""
    table = periods_table([5, 7, 2, 9])
    truth = np.array([5, 12, 14, 23])
    rng = np.random.default_rng(3)
    errors = np.array([np.array(count_report(table, spec=BIT, epsilon=3.0, periods="month",
                                             composition="tree", privacy_unit="row",
                                             random_state=rng).values) - truth
                       for _ in range(3000)])
    variance = errors.var(axis=0) / (2 * 1.0 ** 2)  # scale = 3 / 3
    assert variance == pytest.approx([1, 1, 2, 1], rel=0.12)


# ---------------------------------------------------------------------------------------------
# G8: empirical DP spot-checks.  For every event E, P[M(D) in E] <= e^eps P[M(D') in E]; the
# checks below use events where the true ratio is exactly e^eps (or below), so an
# implementation with too little noise (e.g. per-period epsilon) fails them.

N = 4000


def draws(table, n=N, **kwargs):
    rng = np.random.default_rng(kwargs.pop("seed"))
    return np.array([count_report(table, spec=BIT, random_state=rng, **kwargs).values
                     for _ in range(n)])


def ratio_bound(p, q, epsilon, n=N):
    """The empirical ratio and its allowed maximum e^eps (1 + 4 standard errors of the log)."""
    slack = 4 * math.sqrt((1 - p) / (p * n) + (1 - q) / (q * n))
    return p / q, math.exp(epsilon) * (1 + slack)


def test_dp_spot_check_single_count_geometric():
    d, d_prime = periods_table([10]).drop(columns="month"), periods_table([11]).drop(
        columns="month")  # D' = D plus one individual with x = 1
    a = draws(d, epsilon=1.0, mechanism="geometric", seed=1)[:, 0]
    b = draws(d_prime, epsilon=1.0, mechanism="geometric", seed=2)[:, 0]
    worst = 0.0
    for k in range(6, 16):
        p, q = np.mean(a == k), np.mean(b == k)
        if min(p, q) * N < 150:
            continue
        for num, den in ((p, q), (q, p)):
            ratio, bound = ratio_bound(num, den, 1.0)
            assert ratio <= bound
            worst = max(worst, ratio)
    assert worst > math.exp(0.75)  # the noise is calibrated, not wildly over-generous


def test_dp_spot_check_single_count_laplace():
    d, d_prime = periods_table([10]).drop(columns="month"), periods_table([11]).drop(
        columns="month")
    a = draws(d, epsilon=0.5, seed=3)[:, 0]
    b = draws(d_prime, epsilon=0.5, seed=4)[:, 0]
    for low in np.arange(5.0, 17.0, 1.0):
        p, q = np.mean((a >= low) & (a < low + 1)), np.mean((b >= low) & (b < low + 1))
        if min(p, q) * N < 150:
            continue
        for num, den in ((p, q), (q, p)):
            ratio, bound = ratio_bound(num, den, 0.5)
            assert ratio <= bound


@pytest.mark.parametrize("composition, unit, d_counts, threshold, true_log_ratio", [
    # one individual with a row in both periods: sequential, eps/2 per period -> e^1 exactly
    ("sequential", "individual", ((10, 10), (11, 11)), (10, 10), 1.0),
    # one row in period 1: leaf 1 and the root move by 1, per-node scale L / eps = 2 -> e^1
    ("tree", "row", ((10, 10), (11, 10)), (10, 20), 1.0),
    # one individual in both periods: leaf 1 moves 1, the root 2, scale L d / eps = 4 -> e^0.75
    ("tree", "individual", ((10, 10), (11, 11)), (10, 20), 0.75),
])
def test_dp_spot_check_longitudinal(composition, unit, d_counts, threshold, true_log_ratio):
    table, neighbour = (periods_table(c) for c in d_counts)
    kwargs = dict(epsilon=1.0, periods="month", composition=composition, privacy_unit=unit,
                  mechanism="geometric")
    a = draws(table, n=2500, seed=5, **kwargs)
    b = draws(neighbour, n=2500, seed=6, **kwargs)
    in_event = lambda v: (v[:, 0] <= threshold[0]) & (v[:, 1] <= threshold[1])  # noqa: E731
    p, q = np.mean(in_event(a)), np.mean(in_event(b))
    ratio, bound = ratio_bound(p, q, 1.0, n=2500)
    assert ratio <= bound
    assert math.log(ratio) == pytest.approx(true_log_ratio, abs=0.2)


# ---------------------------------------------------------------------------------------------
# Budget accounting and validation

def test_the_budget_accountant_is_charged_and_refuses():
    table = periods_table([5])
    accountant = BudgetAccountant(epsilon=1.0)
    count_report(table, spec=BIT, epsilon=0.5, accountant=accountant, random_state=0)
    count_report(table, spec=BIT, epsilon=0.5, accountant=accountant, random_state=0)
    assert accountant.spent_epsilon == 1.0
    with pytest.raises(BudgetError, match=r"^The privacy budget is exhausted: spending "
                       r"epsilon=0\.1, delta=0\.0 would bring the total to epsilon=1\.1"):
        count_report(table, spec=BIT, epsilon=0.1, accountant=accountant, random_state=0)
    assert accountant.ledger == ((0.5, 0.0), (0.5, 0.0))


@pytest.mark.parametrize("kwargs, message", [
    ({"epsilon": 0}, "The 'epsilon' parameter of count_report must be a finite number > 0. Got "
                     "0 instead."),
    ({"epsilon": -1.0}, "The 'epsilon' parameter of count_report must be a finite number > 0. "
                        "Got -1.0 instead."),
    ({"epsilon": math.inf}, "The 'epsilon' parameter of count_report must be a finite number > "
                            "0. Got inf instead."),
    ({"epsilon": math.nan}, "The 'epsilon' parameter of count_report must be a finite number > "
                            "0. Got nan instead."),
    ({"composition": "advanced"}, "The 'composition' parameter of count_report must be one of "
                                  "['sequential', 'tree']. Got 'advanced' instead."),
    ({"mechanism": "gaussian"}, "The 'mechanism' parameter of count_report must be one of "
                                "['laplace', 'geometric']. Got 'gaussian' instead."),
    ({"privacy_unit": "user"}, "The 'privacy_unit' parameter of count_report must be one of "
                               "['individual', 'row']. Got 'user' instead."),
    ({"accountant": 1.0}, "The 'accountant' parameter of count_report must be None or a "
                          "BudgetAccountant. Got 'float' instead."),
    ({"encoding": {"x": ["x"]}}, "The 'encoding' parameter of count_report must be None or an "
                                 "EncodingMap. Got 'dict' instead."),
    ({"epsilon": "1"}, "The 'epsilon' parameter of count_report must be a finite number > 0. "
                       "Got '1' instead."),
    ({"spec": QuerySpec("decision", ["x"], "s", target="y")},
     "The 'spec' parameter of count_report must be a count query (QuerySpec(kind='count', "
     "...)). Got \"kind='decision'\" instead."),
    ({"horizon": [1]}, "count_report takes a horizon only with a periods column. Got "
                       "horizon=[1] and periods=None instead."),
    ({"random_state": -1}, "The 'random_state' parameter of count_report must be None, a "
                           "non-negative int seed or a numpy.random.Generator. Got -1 instead."),
])
def test_parameter_errors(kwargs, message):
    arguments = {"spec": BIT, "epsilon": 1.0, "random_state": 0, **kwargs}
    with pytest.raises(InvalidParameterError) as caught:
        count_report(periods_table([3]), **arguments)
    assert str(caught.value) == message


@pytest.mark.parametrize("d", [0, -3, 2.0, True])
def test_tree_levels_needs_a_number_of_periods(d):
    with pytest.raises(InvalidParameterError) as caught:
        tree_levels(d)
    assert str(caught.value) == (f"The 'd' parameter of tree_levels must be a positive integer "
                                 f"(the number of periods). Got {d!r} instead.")


def test_exact_and_numpy_budgets_are_read_as_numbers():
    table = periods_table([3, 1])
    fraction = count_report(table, spec=BIT, epsilon=Fraction(1, 2), periods="month",
                            random_state=0)
    numpy = count_report(table, spec=BIT, epsilon=np.float64(0.5), periods="month",
                         random_state=np.int64(0))
    assert fraction.epsilon == numpy.epsilon == 0.5 and type(numpy.epsilon) is float
    assert fraction.values == numpy.values and fraction.scale == 4.0


def test_schema_errors():
    with pytest.raises(SchemaError, match=r"^Column 'x' of the count query must hold 0/1 bits "
                       r"\(one-hot encode it\) so that each attribute adds at most 1 per row; "
                       r"it holds \[0, 1, 2\]\.$"):
        count_report(pd.DataFrame({"x": [0, 1, 2]}), spec=BIT, epsilon=1.0, random_state=0)
    frame = pd.DataFrame({"r=a": [1, 1], "r=b": [0, 1]})
    _, encoding = one_hot_encode(pd.DataFrame({"r": ["a", "b"]}), columns="r")
    with pytest.raises(SchemaError, match=r"^Row 1 has 2 hot bits of one-hot attribute 'r' "
                       r"\(\['r=a', 'r=b'\]\); an encoded row has at most one\.$"):
        count_report(frame, spec=QuerySpec("count", ["r=a", "r=b"], None), epsilon=1.0,
                     encoding=encoding, random_state=0)
    table = periods_table([2]).assign(month=[1.0, np.nan, 1.0, 1.0, 1.0])
    with pytest.raises(SchemaError, match=r"^Column 'month' \(the periods\) has 1 missing "
                       r"value\(s\); every row needs a period\.$"):
        count_report(table, spec=BIT, epsilon=1.0, periods="month", random_state=0)


def test_the_input_is_never_modified():
    table = periods_table([4, 2])
    before = table.copy()
    count_report(table, spec=BIT, epsilon=1.0, periods="month", composition="tree",
                 random_state=0)
    pd.testing.assert_frame_equal(table, before)


def test_row_level_noise_does_not_cover_an_individual_in_every_period():
    """The spot-check is sensitive: with privacy_unit="row" an individual present in both
    periods moves the release by e^2 > e^1 (the reason "individual" is the default)."""
    table, neighbour = periods_table((10, 10)), periods_table((11, 11))
    kwargs = dict(epsilon=1.0, periods="month", privacy_unit="row", mechanism="geometric")
    a = draws(table, n=2500, seed=7, **kwargs)
    b = draws(neighbour, n=2500, seed=8, **kwargs)
    p = np.mean((a[:, 0] <= 10) & (a[:, 1] <= 10))
    q = np.mean((b[:, 0] <= 10) & (b[:, 1] <= 10))
    ratio, bound = ratio_bound(p, q, 1.0, n=2500)
    assert ratio > bound and math.log(ratio) == pytest.approx(2.0, abs=0.3)
