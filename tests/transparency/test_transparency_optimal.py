"""optimal_privacy and its companions: results, edge cases, targets, the LP path, errors."""

import json
import math
import sys
import warnings
from fractions import Fraction as F

import numpy as np
import pandas as pd
import pytest

from skyprivacy.errors import InfeasibleError, InvalidParameterError, PrivacyRiskWarning, SchemaError
from skyprivacy.transparency import (
    Alpha,
    Bounds,
    DecisionTable,
    Delta,
    confidence,
    feasible_at_beta,
    fidelity_bounds,
    lp_reference,
    max_fidelity_for_beta,
    optimal_privacy,
    tradeoff_curve,
    tradeoff_region,
)
from skyprivacy.transparency.demos import credit_card_table


def table_of(p, d, groups=None, **extra):
    groups = groups or ["g"] * len(p)
    df = pd.DataFrame({"g": groups, "s": range(len(p)), "w": p, "d": d, **extra})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PrivacyRiskWarning)
        return DecisionTable.from_frame(df, public="g", sensitive="s", weight="w", decision="d")


@pytest.fixture(scope="module")
def section8():
    return credit_card_table("section8")


# -- the result object --------------------------------------------------------------------------
def test_result_views(section8):
    result = optimal_privacy(section8, Delta(0.9))
    announced = result.announced
    assert list(announced.columns) == ["gender", "income", "d", "population", "census", "section8", "d_tilde"]
    assert announced.index.equals(section8.index)
    assert "d_tilde" not in section8.frame.columns  # the table is untouched
    frame = result.to_frame()
    assert list(frame.columns) == ["gender", "n_records", "weight", "beta_star", "case", "beta0", "beta1",
                                   "betap", "beta_min", "c_star", "achieved", "x0", "x1", "rhs"]
    assert frame["rhs"].tolist()[0] == pytest.approx(0.0025) and math.isnan(frame["rhs"].tolist()[1])
    assert result.gamma_star == pytest.approx(-math.log(0.675))
    assert result.details.columns.tolist() == ["lower", "upper", "max_prime_1", "max_prime_0",
                                               "min_prime_1", "d_tilde"]
    group = result.group("F")
    assert group.records == (0, 1, 2) and group.n_records == 3
    assert isinstance(group.beta_star, float) and isinstance(group.x0, int)
    with pytest.raises(ValueError):
        result.d_tilde[0, 0] = 0.5


def test_to_dict_is_json_for_both_paths(section8):
    for exact in (False, True):
        payload = optimal_privacy(section8, Delta(0.9), exact=exact).to_dict()
        text = json.dumps(payload)
        assert payload["beta_star"] == pytest.approx(0.675)
        assert payload["cases"] == {"betap": 1, "beta0": 1}
        assert ('"beta_star_exact": "27/40"' in text) == exact
        assert payload["groups"][0]["d_tilde"] == pytest.approx([0.1, 0.02, 0.9])


def test_announced_column_name_never_overwrites(section8):
    df = section8.frame.assign(d_tilde=1)
    table = DecisionTable.from_frame(df, public="gender", sensitive="income", weight="section8", decision="d")
    announced = optimal_privacy(table, Delta(0.9)).announced
    assert announced["d_tilde"].tolist() == [1] * 6
    assert announced["d_tilde_"].tolist() == pytest.approx([0.1, 0.02, 0.9, 0.1, 0.4, 0.9])


def test_zero_weight_records_and_empty_groups():
    with pytest.warns(PrivacyRiskWarning, match="zero total weight"):
        table = DecisionTable.from_frame(pd.DataFrame({
            "g": ["a", "a", "a", "b", "b"], "s": [1, 2, 3, 1, 2], "w": [3, 0, 1, 0, 0],
            "d": [0.0, 0.7, 1.0, 0.2, 0.9]}), public="g", sensitive="s", weight="w", decision="d")
    result = optimal_privacy(table, Delta(0.9))
    frame = result.to_frame()
    assert frame["case"].tolist()[1] == "empty" and math.isnan(frame["beta_star"].tolist()[1])
    assert result.group("b").beta_star is None and result.group("b").case == "empty"
    assert result.d_tilde[1, 1] == pytest.approx(0.7)  # D clipped into its bounds
    assert result.d_tilde[3:, 1] == pytest.approx([0.2, 0.9])
    assert confidence(table, result).iloc[1].tolist() == [0.0, 0.0]
    assert result.group("a").n_records == 2
    exact = optimal_privacy(table, Delta(F(9, 10)), exact=True)
    assert exact.to_frame()["beta_star"].tolist()[1] is None


def test_single_record_group_is_always_exposed_and_keeps_d():
    table = table_of([5], [0.3])
    result = optimal_privacy(table, Delta(0.5))
    assert result.beta_star == 1.0 and result.group("g").beta_min == 1.0
    assert result.d_tilde[0, 1] == 0.3  # Lemma 4: beta* = C*, so D itself is optimal


def test_groups_that_cannot_gain_announce_d(section8):
    """Lemma 4: when beta*_T reaches C*_T, D itself is optimal and is announced unchanged."""
    result = optimal_privacy(section8, Alpha(0.9))
    assert result.group("F").beta_star == result.group("F").c_star == 1
    assert list(result.group("F").d_tilde) == [0.0, 0.0, 1.0]
    wide = table_of([1, 1, 1], [0.2, 0.5, 0.9])
    at_c_star = optimal_privacy(wide, Delta(1))
    assert at_c_star.d_tilde[:, 1].tolist() == [0.2, 0.5, 0.9]


def test_alpha_cannot_move_deterministic_decisions(section8):
    result = optimal_privacy(section8, Alpha(0.5))
    assert result.d_tilde[:3, 1].tolist() == [0.0, 0.0, 1.0]


def test_bounds_from_columns_and_per_outcome():
    table = table_of([0.5, 0.2, 0.3], [0.6, 0.5, 0.5], lo=[0.6, 0, 0], hi=[0.6, 1, 1])
    by_column = optimal_privacy(table, Bounds("lo", "hi"))
    per_outcome = optimal_privacy(table, Bounds(np.array([[0.4, 0.6], [0, 0], [0, 0]]),
                                                np.array([[0.4, 0.6], [1, 1], [1, 1]])))
    assert by_column.d_tilde == pytest.approx(per_outcome.d_tilde)
    assert by_column.beta_star == pytest.approx(0.5)
    series = optimal_privacy(table, Bounds(pd.Series([0, 0, 0.6], index=[2, 1, 0]),
                                           pd.Series([1, 1, 0.6], index=[2, 1, 0])))
    assert series.beta_star == pytest.approx(0.5)


def test_binary_normalisation_of_alpha_bounds():
    """spec 3.1: D_1 = 0.5, alpha = 0.9 -> [0.45, 0.5556] and [0.4444, 0.55] -> [0.45, 0.55]."""
    table = table_of([1, 1], [0.5, 0.5])
    bounds = fidelity_bounds(table, Alpha(0.9))
    assert bounds.lower[0].tolist() == pytest.approx([0.45, 0.45])
    assert bounds.upper[0].tolist() == pytest.approx([0.55, 0.55])
    assert bounds.to_frame().columns.tolist() == ["lower[0]", "upper[0]", "lower[1]", "upper[1]"]
    assert json.dumps(bounds.to_dict())


# -- trade-off tools -----------------------------------------------------------------------------
def test_max_fidelity_for_a_target_beta(section8):
    found = max_fidelity_for_beta(section8, beta=0.675)
    assert found.value == pytest.approx(0.9, abs=1e-8)
    assert found.beta_star <= 0.675 * (1 + 1e-9)
    assert found.result.fidelity == Delta(found.value)
    assert max_fidelity_for_beta(section8, beta=1.0).value == 1.0  # beta >= C*: release D
    assert max_fidelity_for_beta(section8, gamma=-math.log(0.675)).value == pytest.approx(0.9, abs=1e-8)
    by_alpha = max_fidelity_for_beta(section8, beta=0.95, kind="alpha")
    assert by_alpha.kind == "alpha" and by_alpha.beta_star <= 0.95 * (1 + 1e-9)
    assert json.dumps(found.to_dict())


def test_target_below_beta_min_is_infeasible(section8):
    with pytest.raises(InfeasibleError, match=r"^The target beta=0\.59 is below beta_min=0\.6 of QID group "
                       r"\('F',\): no announced rule reaches it at any fidelity \(Lemma 5\)\.$"):
        max_fidelity_for_beta(section8, beta=0.59)
    assert max_fidelity_for_beta(section8, beta=0.6).value == pytest.approx(8 / 11, abs=1e-8)


def test_feasible_at_a_fixed_beta(section8):
    ok = feasible_at_beta(section8, Delta(0.9), beta=0.7)
    assert ok.feasible and ok.groups["feasible"].tolist() == [True, True]
    assert confidence(section8, ok.d_tilde).to_numpy().max() <= 0.7 + 1e-12
    assert ok.announced["d_tilde"].tolist() == pytest.approx(ok.d_tilde[:, 1])
    male_kept = feasible_at_beta(section8, Delta(0.9), beta=0.75)
    assert male_kept.d_tilde[3:, 1].tolist() == [0.0, 0.5, 1.0]  # beta >= C*_M: D unchanged
    no = feasible_at_beta(section8, Delta(0.9), beta=0.65)
    assert not no.feasible and no.d_tilde is None and no.announced is None
    assert no.groups["feasible"].tolist() == [False, True]
    assert no.to_dict()["infeasible_groups"] == [["F"]]
    assert not feasible_at_beta(section8, Delta(0), beta=0.55).feasible  # below beta_min of F


def test_curve_plot_draws_one_line_per_group(section8):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    ax = tradeoff_curve(section8, [0, 0.5, 1]).plot()
    assert len(ax.get_lines()) == 2
    assert json.dumps(tradeoff_curve(section8, [0, 1]).to_dict())


def test_region_to_dict(section8):
    assert tradeoff_region(section8).to_dict()["beta_min"] == pytest.approx(0.6)


# -- the LP path and more than two outcomes -----------------------------------------------------
def three_outcomes():
    df = pd.DataFrame({
        "g": ["a"] * 4 + ["b"] * 3, "s": [1, 2, 3, 4, 1, 2, 3], "w": [5, 3, 1, 1, 2, 2, 6],
        "no": [0.9, 0.2, 0.0, 0.3, 1.0, 0.0, 0.5], "maybe": [0.1, 0.3, 0.0, 0.3, 0.0, 0.5, 0.5],
        "yes": [0.0, 0.5, 1.0, 0.4, 0.0, 0.5, 0.0],
    })
    return DecisionTable.from_frame(df, public="g", sensitive="s", weight="w", decision=["no", "maybe", "yes"])


def test_more_than_two_outcomes_use_the_lp():
    table = three_outcomes()
    region = tradeoff_region(table)
    none = optimal_privacy(table, Delta(0))
    assert none.method == "lp"
    assert none.to_frame()["beta_star"].to_numpy() == pytest.approx(region.groups["beta_min"].to_numpy(), abs=1e-7)
    full = optimal_privacy(table, Delta(1))
    assert full.to_frame()["beta_star"].to_numpy() == pytest.approx(region.groups["c_star"].to_numpy(), abs=1e-9)
    assert full.d_tilde == pytest.approx(table.decisions)
    previous = none.to_frame()["beta_star"].to_numpy()
    for delta in (0.5, 0.8, 0.9, 0.95):
        result = optimal_privacy(table, Delta(delta))
        bounds = fidelity_bounds(table, Delta(delta))
        assert np.all(result.d_tilde >= bounds.lower - 1e-9) and np.all(result.d_tilde <= bounds.upper + 1e-9)
        assert np.allclose(result.d_tilde.sum(axis=1), 1)
        current = result.to_frame()["beta_star"].to_numpy()
        assert np.all(result.to_frame()["achieved"].to_numpy() <= current + 1e-9)
        assert np.all(current >= previous - 1e-7)  # monotone in delta
        previous = current
    assert "d_tilde[maybe]" in optimal_privacy(table, Delta(0.9)).announced.columns


def test_lp_on_two_outcome_columns_equals_the_closed_form(section8):
    df = section8.frame.assign(no=1 - section8.frame["d"])
    as_columns = DecisionTable.from_frame(df, public="gender", sensitive="income", weight="section8",
                                          decision=["no", "d"])
    lp = optimal_privacy(as_columns, Alpha(0.9), method="lp")
    closed = optimal_privacy(as_columns, Alpha(0.9))
    assert closed.method == "closed_form" and lp.method == "lp"
    assert lp.to_frame()["beta_star"].to_numpy() == pytest.approx(closed.to_frame()["beta_star"].to_numpy(), abs=1e-7)
    assert lp_reference(section8, Delta(0.9)).beta_star == pytest.approx(0.675, abs=1e-8)


def test_missing_scipy_has_a_clear_message(section8, monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy.optimize", None)
    with pytest.raises(ImportError, match=r"^The LP reference solver needs scipy; install it with "
                       r"pip install 'skyprivacy\[lp\]'\.$"):
        lp_reference(section8, Delta(0.9))
    assert optimal_privacy(section8, Delta(0.9)).beta_star == pytest.approx(0.675)  # no scipy needed


# -- errors --------------------------------------------------------------------------------------
def test_fidelity_parameter_errors(section8):
    with pytest.raises(InvalidParameterError, match=r"The 'fidelity' parameter of optimal_privacy must be "
                       r"a Delta, Alpha or Bounds\. Got 0\.9 instead\."):
        optimal_privacy(section8, 0.9)
    with pytest.raises(InvalidParameterError, match=r"The 'delta' parameter of Delta must be in \[0, 1\]\. "
                       r"Got 1\.5 instead\."):
        Delta(1.5)
    with pytest.raises(InvalidParameterError, match=r"The 'alpha' parameter of Alpha must be in \[0, 1\]\. "
                       r"Got nan instead\."):
        Alpha(float("nan"))
    with pytest.raises(InvalidParameterError, match=r"The 'alpha' parameter of Alpha must be a number in "
                       r"\[0, 1\]\. Got '0\.9' instead\."):
        Alpha("0.9")
    with pytest.raises(InvalidParameterError, match=r"The 'delta' parameter of Delta must be a number in "
                       r"\[0, 1\]\. Got True instead\."):
        Delta(True)


def test_method_and_option_errors(section8):
    with pytest.raises(InvalidParameterError, match=r"The 'method' parameter of optimal_privacy must be "
                       r"'auto', 'closed_form' or 'lp'\. Got 'simplex' instead\."):
        optimal_privacy(section8, Delta(0.9), method="simplex")
    with pytest.raises(InvalidParameterError, match=r"The 'method' parameter of optimal_privacy must be "
                       r"'lp' or 'auto' for a table with 3 outcomes \(Theorem 1 is binary only\)\. Got "
                       r"'closed_form' instead\."):
        optimal_privacy(three_outcomes(), Delta(0.9), method="closed_form")
    with pytest.raises(InvalidParameterError, match=r"The 'exact' parameter of optimal_privacy must be "
                       r"False with the LP reference\. Got True instead\."):
        optimal_privacy(section8, Delta(0.9), method="lp", exact=True)
    with pytest.raises(InvalidParameterError, match=r"The 'exact' parameter of optimal_privacy must be "
                       r"True or False\. Got 'yes' instead\."):
        optimal_privacy(section8, Delta(0.9), exact="yes")
    with pytest.raises(InvalidParameterError, match=r"The 'table' parameter of optimal_privacy must be a "
                       r"DecisionTable\. Got 'DataFrame' instead\."):
        optimal_privacy(section8.frame, Delta(0.9))
    with pytest.raises(InvalidParameterError, match=r"The 'kind' parameter of tradeoff_curve must be "
                       r"'delta' or 'alpha'\. Got 'epsilon' instead\."):
        tradeoff_curve(section8, kind="epsilon")
    with pytest.raises(InvalidParameterError, match=r"The 'table' parameter of tradeoff_curve must have two "
                       r"outcomes \(Theorem 1 is binary only\)\. Got '3 outcomes' instead\."):
        tradeoff_curve(three_outcomes())
    with pytest.raises(InvalidParameterError, match=r"The 'tol' parameter of max_fidelity_for_beta must be "
                       r"in \(0, 1\)\. Got 0 instead\."):
        max_fidelity_for_beta(section8, beta=0.7, tol=0)
    with pytest.raises(InvalidParameterError, match=r"The 'tol' parameter of lp_reference must be in "
                       r"\(0, 1\)\. Got 2 instead\."):
        lp_reference(section8, Delta(0.9), tol=2)
    with pytest.raises(InvalidParameterError, match=r"The 'key' parameter of OptimalPrivacy.group must be a "
                       r"QID value of the table\. Got \('X',\) instead\."):
        optimal_privacy(section8, Delta(0.9)).group("X")
    with pytest.raises(InvalidParameterError, match=r"The 'table' parameter of feasible_at_beta must have "
                       r"two outcomes\. Got '3 outcomes' instead\."):
        feasible_at_beta(three_outcomes(), Delta(0.9), beta=0.9)


def test_bounds_errors():
    table = table_of([0.5, 0.2, 0.3], [0.6, 0.5, 0.5])
    with pytest.raises(InfeasibleError, match=r"^The fidelity bounds admit no distribution at index 1: "
                       r"lower \[0\.3, 0\.8\] exceeds upper \[0\.2, 0\.7\] after making the outcomes consistent\.$"):
        optimal_privacy(table, Bounds([0, 0.8, 0], [1, 0.7, 1]))
    with pytest.raises(InvalidParameterError, match=r"The 'fidelity' parameter of fidelity_bounds must give "
                       r"bounds inside \[0, 1\]\. Got '\[-0\.5, 0\.0\] to \[1\.0, 1\.5\] at index 0' instead\."):
        optimal_privacy(table, Bounds([0, 0, 0], [1.5, 1, 1]))
    with pytest.raises(InvalidParameterError, match=r"The 'fidelity' parameter of fidelity_bounds must give "
                       r"lower bounds of shape \(3,\) for a binary table or \(3, 2\)\. Got \(2,\) instead\."):
        optimal_privacy(table, Bounds([0, 0], [1, 1]))
    with pytest.raises(InvalidParameterError, match=r"The 'fidelity' parameter of fidelity_bounds must give "
                       r"lower and upper bounds of the same shape\. Got \(\(3,\), \(3, 2\)\) instead\."):
        optimal_privacy(table, Bounds([0, 0, 0], np.ones((3, 2))))
    with pytest.raises(InvalidParameterError, match=r"must give finite upper bounds\. Got 'NaN' instead\."):
        optimal_privacy(table, Bounds([0, 0, 0], [1, np.nan, 1]))
    with pytest.raises(SchemaError, match=r"^Column 'lo' is not in the table; columns are \['g', 's', 'w', 'd'\]\.$"):
        optimal_privacy(table, Bounds("lo", "hi"))
    with pytest.raises(SchemaError, match=r"^The lower bounds do not cover every record of the table "
                       r"\(aligned by index\)\.$"):
        optimal_privacy(table, Bounds(pd.Series([0, 0], index=[0, 1]), [1, 1, 1]))
    with pytest.raises(InfeasibleError, match=r"admit no distribution at index 0"):
        optimal_privacy(three_outcomes(), Bounds(np.full((7, 3), 0.5), np.ones((7, 3))))
