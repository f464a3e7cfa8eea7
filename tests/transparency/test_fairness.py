"""Fairness measures (Appendix A), Lemma 2 (section 5.3) and the report."""

import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skyprivacy.errors import InvalidParameterError, PrivacyRiskWarning, SchemaError
from skyprivacy.transparency import (
    Alpha,
    Bounds,
    DecisionTable,
    Delta,
    bias_interval,
    conditional_statistical_parity,
    d_inf,
    d_tv,
    fairness_report,
    fidelity_bounds,
    group_distribution,
    individual_fairness_bias,
    lemma2_shift,
    optimal_privacy,
    p_percent_rule,
    statistical_parity,
)


def test_distances():
    assert d_tv([0.2, 0.3, 0.5], [0.5, 0.3, 0.2]) == pytest.approx(0.2)  # 1/|A| = 1/3, not 1/2
    assert d_tv({"no": 0.9, "yes": 0.1}, {"no": 0.6, "yes": 0.4}) == pytest.approx(0.3)
    assert d_inf([0.5, 0.5], [0.25, 0.75]) == pytest.approx(math.log(2))
    assert d_inf([0.0, 1.0], [0.0, 1.0]) == 0.0  # 0/0 counts as equal
    assert d_inf([0.0, 1.0], [0.1, 0.9]) == math.inf
    with pytest.raises(InvalidParameterError, match=r"The 'z2' parameter of d_tv must have 2 "
                                                    r"outcomes like "
                       r"z1\. Got 3 instead\."):
        d_tv([0.5, 0.5], [0.2, 0.3, 0.5])
    with pytest.raises(InvalidParameterError, match=r"The 'z1' parameter of d_inf must be a 1-d "
                                                    r"array of "
                       r"probabilities\. Got \[-1, 2\] instead\."):
        d_inf([-1, 2], [0.5, 0.5])


def test_table2_numbers(population):
    """Remark 1: approval rates 2/150 and 14/140, SP bias 0.0866667, CSP 0 / 0.5 / 0."""
    sp = statistical_parity(population, protected="gender")
    assert sp.distributions["F"][1] == pytest.approx(2 / 150)
    assert sp.distributions["M"][1] == pytest.approx(0.1)
    assert sp.value == pytest.approx(13 / 150) and sp.family == "tv" and sp.groups == ("F", "M")
    assert sp.interval is None  # no fidelity given
    csp = conditional_statistical_parity(population, protected="gender", stratum="income")
    assert [(m.stratum, m.value) for m in csp] == [
        ("<100k", 0.0),
        ("100k-200k", 0.5),
        (">200k", 0.0),
    ]
    assert group_distribution(population, {"gender": "M"}).tolist() == pytest.approx([0.9, 0.1])
    assert group_distribution(population, population.frame["gender"].eq("F")).iloc[
        1
    ] == pytest.approx(2 / 150)


def test_p_percent_rule_both_forms(population):
    pr = p_percent_rule(population, protected="gender")
    assert pr.ratio == pytest.approx((2 / 150) / 0.1)
    per_outcome = max(abs(math.log((2 / 150) / 0.1)), abs(math.log((148 / 150) / 0.9)))
    assert pr.value == pytest.approx(per_outcome) and pr.family == "rm"
    assert pr.p == pytest.approx(math.exp(-per_outcome))
    assert pr.p < 0.8  # fails the EEOC 80% rule


def test_groups_given_explicitly_and_as_sets():
    df = pd.DataFrame({"race": ["a", "b", "c", "a", "b", "c"], "s": [1, 1, 1, 2, 2, 2],
                       "w": [1, 2, 3, 4, 5, 6], "d": [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]})
    table = DecisionTable.from_frame(df, public="race", sensitive="s", weight="w", decision="d")
    with pytest.raises(InvalidParameterError, match=r"The 'groups' parameter of "
                                                    r"statistical_parity must name "
                       r"the two groups to compare, since column 'race' has 3 values \['a', 'b', "
                       r"'c'\]\. "
                       r"Got None instead\."):
        statistical_parity(table, protected="race")
    sp = statistical_parity(table, protected="race", groups=("a", ["b", "c"]))
    rate_a = (1 * 0 + 4 * 0.6) / 5
    rate_bc = (2 * 0.2 + 3 * 0.4 + 5 * 0.8 + 6 * 1.0) / 16
    assert sp.value == pytest.approx(abs(rate_a - rate_bc))
    with pytest.raises(InvalidParameterError, match=r"The 'groups' parameter of p_percent_rule "
                                                    r"must be a "
                       r"pair \(Y1, Y2\) of values or lists of values\. Got 'a' instead\."):
        p_percent_rule(table, protected="race", groups="a")


def test_individual_fairness(population):
    d = population.decisions[:, 1]
    expected = max(abs(d[i] - d[j]) - 0.3 for i in range(6) for j in range(6) if i != j)
    measure = individual_fairness_bias(population, record_distance=np.full((6, 6), 0.3))
    assert measure.value == pytest.approx(expected) and measure.family == "tv"
    by_callable = individual_fairness_bias(
        population, record_distance=lambda a, b: 0.0 if a["income"] == b["income"] else 1.0)
    assert by_callable.value == pytest.approx(0.5)  # same income, different gender: 0 vs 0.5
    relative = individual_fairness_bias(population, record_distance=np.zeros((6, 6)), metric="inf")
    assert relative.value == math.inf and relative.family == "rm"
    with pytest.raises(InvalidParameterError, match=r"The 'metric' parameter of "
                                                    r"individual_fairness_bias must "
                       r"be one of \['tv', 'inf'\]\. Got 'l2' instead\."):
        individual_fairness_bias(population, record_distance=np.zeros((6, 6)), metric="l2")
    with pytest.raises(InvalidParameterError, match=r"The 'record_distance' parameter of "
                       r"individual_fairness_bias must be a callable or an \(6, 6\) matrix\. Got "
                       r"\(2, 2\) instead\."):
        individual_fairness_bias(population, record_distance=np.zeros((2, 2)))


def test_lemma2_shifts_and_intervals():
    assert lemma2_shift(Delta(0.9)) == pytest.approx(0.2)
    assert lemma2_shift(Delta(0.2)) == 1.0  # capped: D_tv <= 1
    assert lemma2_shift(Delta(0.9), family="rm") == math.inf
    assert lemma2_shift(Delta(1), family="rm") == 0.0
    assert lemma2_shift(Alpha(0.5), family="rm") == pytest.approx(
        2 * math.log(2)
    )  # no cap at 1 (P2)
    assert lemma2_shift(Alpha(0.9)) == pytest.approx(0.2)  # extension: alpha implies delta = alpha
    assert lemma2_shift(Alpha(0), family="rm") == math.inf
    iv = bias_interval(0.165, delta=0.9)
    assert (iv.low, iv.high, iv.max_shift) == pytest.approx((0.0, 0.365, 0.2))
    iv = bias_interval(0.6, alpha=0.9, family="rm")
    assert (iv.low, iv.high) == pytest.approx((0.6 + 2 * math.log(0.9), 0.6 - 2 * math.log(0.9)))
    assert bias_interval(0.95, delta=0.9).high == 1.0
    with pytest.raises(InvalidParameterError, match=r"The 'delta' parameter of bias_interval must "
                                                    r"be given, "
                       r"or alpha, but not both\. Got \{'delta': 0\.9, 'alpha': 0\.9\} instead\."):
        bias_interval(0.1, delta=0.9, alpha=0.9)
    with pytest.raises(InvalidParameterError, match=r"The 'measured' parameter of bias_interval "
                                                    r"must be a "
                       r"number >= 0\. Got -0\.1 instead\."):
        bias_interval(-0.1, delta=0.9)
    with pytest.raises(InvalidParameterError, match=r"The 'family' parameter of bias_interval "
                                                    r"must be one of "
                       r"\['tv', 'rm'\]\. Got 'l1' instead\."):
        bias_interval(0.1, delta=0.9, family="l1")
    with pytest.raises(InvalidParameterError, match=r"The 'fidelity' parameter of lemma2_shift "
                                                    r"must be a Delta "
                       r"or Alpha \(Lemma 2 covers no other\)\."):
        lemma2_shift(Bounds([0], [1]))


def test_report_from_the_announced_rule(population):
    result = optimal_privacy(population, Delta(0.95))
    report = fairness_report(population, result, protected="gender", stratum="income",
                             record_distance=np.full((6, 6), 0.5))
    frame = report.to_frame()
    assert frame["measure"].tolist() == ["statistical_parity", "p_percent_rule"] + [
        "conditional_statistical_parity"] * 3 + ["individual_fairness"]
    assert report.fidelity == Delta(0.95)
    sp = report.measure("statistical_parity")
    assert sp.interval.max_shift == pytest.approx(0.1)
    truth = statistical_parity(population, protected="gender").value
    assert sp.interval.low <= truth <= sp.interval.high
    assert (
        report.measure("conditional_statistical_parity", stratum="100k-200k").stratum == "100k-200k"
    )
    with pytest.raises(TypeError):
        report.measure("conditional_statistical_parity", "<100k")  # stratum is keyword-only
    assert json.dumps(report.to_dict())
    with pytest.raises(InvalidParameterError, match=r"The 'name' parameter of "
                                                    r"FairnessReport.measure must "
                       r"name a measure of the report\. Got \('equal_odds', None\) instead\."):
        report.measure("equal_odds")


def test_report_from_the_true_rule_warns(population):
    with pytest.warns(PrivacyRiskWarning, match=r"^Fairness numbers computed from the true rule D "
                                                r"can reveal "
                      r"it \(section 3\.3\); release numbers computed from the announced rule D~ "
                      r"instead\.$"):
        fairness_report(population, protected="gender")


def test_bounds_fidelity_has_no_lemma2_interval(population):
    result = optimal_privacy(population, Bounds(np.zeros(6), np.ones(6)))
    assert statistical_parity(population, result, protected="gender").interval is None


def test_selection_errors(population):
    with pytest.raises(SchemaError, match=r"^Column 'sex' is not in the table; columns are "
                                          r"\['gender', "
                       r"'income', 'd', 'population', 'census', 'section8'\]\.$"):
        statistical_parity(population, protected="sex")
    with pytest.raises(SchemaError, match=r"^Column 'band' is not in the table"):
        conditional_statistical_parity(population, protected="gender", stratum="band")
    with pytest.raises(SchemaError, match=r"^The group \{'gender': 'X'\} has no record of "
                                          r"positive weight\.$"):
        group_distribution(population, {"gender": "X"})
    with pytest.raises(InvalidParameterError, match=r"The 'where' parameter of group_distribution "
                                                    r"must be a "
                       r"dict of column values or a boolean mask of 6 records\. Got \(2,\) "
                       r"instead\."):
        group_distribution(population, np.array([True, False]))


def test_stratum_missing_a_group_gives_nan():
    df = pd.DataFrame({"gender": ["F", "F", "M", "M"], "band": ["lo", "hi", "lo", "lo2"],
                       "w": [1, 1, 1, 1], "d": [0.0, 1.0, 0.5, 0.5]})
    table = DecisionTable.from_frame(
        df, public="gender", sensitive="band", weight="w", decision="d"
    )
    values = {
        m.stratum: m.value
        for m in conditional_statistical_parity(table, protected="gender", stratum="band")
    }
    assert (
        values["lo"] == pytest.approx(0.5)
        and math.isnan(values["hi"])
        and math.isnan(values["lo2"])
    )


# -- Lemma 2 holds for *any* perturbation within the fidelity, not just the optimal one ----------
@st.composite
def perturbed(draw):
    n = draw(st.integers(2, 8))
    genders = draw(
        st.lists(st.sampled_from("FM"), min_size=n, max_size=n).filter(lambda g: len(set(g)) == 2)
    )
    bands = draw(st.lists(st.sampled_from(["lo", "hi"]), min_size=n, max_size=n))
    weights = draw(st.lists(st.integers(1, 20), min_size=n, max_size=n))
    d = draw(st.lists(st.floats(0, 1).map(lambda x: round(x, 3)), min_size=n, max_size=n))
    df = pd.DataFrame({"gender": genders, "band": bands, "key": range(n), "w": weights, "d": d})
    table = DecisionTable.from_frame(df, public="key", sensitive="band", weight="w", decision="d")
    fidelity = draw(st.sampled_from([Delta, Alpha]))(
        draw(st.floats(0.5, 1).map(lambda x: round(x, 3)))
    )
    bounds = fidelity_bounds(table, fidelity)
    mix = np.array(draw(st.lists(st.floats(0, 1), min_size=n, max_size=n)))
    announced = bounds.lower[:, 1] + mix * (bounds.upper[:, 1] - bounds.lower[:, 1])
    return table, fidelity, announced


@pytest.mark.filterwarnings("ignore::skyprivacy.errors.PrivacyRiskWarning")
@settings(max_examples=80, deadline=None)
@given(perturbed())
def test_lemma2_bounds_the_change_of_every_measure(case):
    table, fidelity, announced = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PrivacyRiskWarning)
        before = fairness_report(table, protected="gender", stratum="band")
    after = fairness_report(table, announced, protected="gender", stratum="band")
    for old, new in zip(before.measures, after.measures):
        if math.isnan(old.value) or math.isinf(old.value) or math.isinf(new.value):
            continue
        shift = lemma2_shift(fidelity, family=old.family)
        assert abs(new.value - old.value) <= shift + 1e-9, (old.name, old.stratum)


def test_lemma2_on_the_example(section8, section8_exact):
    """spec 4.4: eps_SP 0.225 -> 0.165, eps_CSP(W2) 0.5 -> 0.38, both within 2(1 - delta) = 0.2."""
    sp_true = statistical_parity(section8, protected="gender")
    sp_announced = statistical_parity(section8, section8_exact, protected="gender")
    assert sp_true.value == pytest.approx(0.225) and sp_announced.value == pytest.approx(0.165)
    assert sp_announced.distributions["F"][1] == pytest.approx(0.2)
    assert sp_announced.distributions["M"][1] == pytest.approx(0.365)
    bound = lemma2_shift(Delta(0.9))
    assert bound == pytest.approx(0.2)
    assert abs(sp_true.value - sp_announced.value) <= bound
    assert sp_announced.interval.low <= sp_true.value <= sp_announced.interval.high
    csp_true = {m.stratum: m.value for m in conditional_statistical_parity(
        section8, protected="gender", stratum="income")}
    csp_announced = {m.stratum: m.value for m in conditional_statistical_parity(
        section8, section8_exact, protected="gender", stratum="income")}
    assert csp_true == pytest.approx({"<100k": 0, "100k-200k": 0.5, ">200k": 0})
    assert csp_announced == pytest.approx({"<100k": 0, "100k-200k": 0.38, ">200k": 0})
    for band in csp_true:
        assert abs(csp_true[band] - csp_announced[band]) <= bound + 1e-12
    pr_true = p_percent_rule(section8, protected="gender")
    pr_announced = p_percent_rule(section8, section8_exact, protected="gender")
    assert (pr_true.ratio, pr_true.value) == pytest.approx((0.4, 0.9162907), abs=1e-7)
    assert pr_announced.ratio == pytest.approx(0.2 / 0.365, abs=1e-12)  # 0.5479 (spec 4.4)
    assert pr_announced.value == pytest.approx(math.log(0.365 / 0.2), abs=1e-12)  # 0.6016
    assert pr_announced.interval.max_shift == float("inf")  # delta-fidelity does not bound F_rm
