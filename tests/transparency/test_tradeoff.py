"""The privacy/fidelity trade-off (skyprivacy/transparency/tradeoff.py): the region
[beta_min, C*], the curve of Fig. 5 against spec 6.7, the largest fidelity for a target and the
fixed-beta feasibility test."""
import json
import math
from fractions import Fraction as F

import numpy as np
import pytest

from skyprivacy.errors import (
    InfeasibleError,
)
from skyprivacy.transparency import (
    Delta,
    confidence,
    feasible_at_beta,
    max_fidelity_for_beta,
    optimal_privacy,
    tradeoff_curve,
    tradeoff_region,
)


def test_tradeoff_region(section8):
    region = tradeoff_region(section8, exact=True)
    assert region.groups["beta_min"].tolist() == [F(3, 5), F(9, 20)]
    assert region.groups["c_star"].tolist() == [1, F(18, 25)]
    assert (region.beta_min, region.c_star) == (F(3, 5), 1)
    result = optimal_privacy(section8, Delta(F(9, 10)), exact=True)
    assert result.group("F").c_star == 1 and result.group("M").c_star == F(18, 25)


CURVE = [  # spec 6.7: delta, beta*_F, F case, beta*_M, M case
    (0.00, 0.600000, "beta_min", 0.450000, "beta_min"),
    (0.10, 0.600000, "beta_min", 0.450000, "beta_min"),
    (0.30, 0.600000, "beta_min", 0.450000, "beta_min"),
    (0.50, 0.600000, "beta_min", 0.450000, "beta_min"),
    (0.60, 0.600000, "beta_min", 0.450000, "beta_min"),
    (0.70, 0.600000, "beta_min", 0.480916, "beta0"),
    (0.75, 0.610169, "beta0", 0.519231, "beta0"),
    (0.80, 0.631579, "beta0", 0.558140, "beta0"),
    (0.85, 0.651757, "beta0", 0.597656, "beta0"),
    (0.90, 0.675000, "betap", 0.637795, "beta0"),
    (0.95, 0.770270, "beta1", 0.678571, "beta0"),
    (0.99, 0.945860, "beta1", 0.711661, "beta0"),
    (1.00, 1.000000, "beta1", 0.720000, "beta0"),
]


def test_tradeoff_curve_matches_spec_6_7(section8):
    curve = tradeoff_curve(section8, [row[0] for row in CURVE])
    by_group = curve.to_frame(per_group=True)
    for delta, beta_f, case_f, beta_m, case_m in CURVE:
        rows = by_group[by_group["delta"] == delta].set_index("gender")
        assert rows.loc["F", "beta_star"] == pytest.approx(beta_f, abs=5e-7)
        assert rows.loc["M", "beta_star"] == pytest.approx(beta_m, abs=5e-7)
        assert (rows.loc["F", "case"], rows.loc["M", "case"]) == (case_f, case_m)
    points = curve.to_frame()
    assert points["beta_star"].tolist() == pytest.approx([max(r[1], r[3]) for r in CURVE], abs=5e-7)


def test_curve_knees_are_exact(section8):
    """The curve leaves beta_min at delta = 8/11 (F) and 29/44 (M)."""
    for gender, knee, floor in (("F", F(8, 11), F(3, 5)), ("M", F(29, 44), F(9, 20))):
        at = optimal_privacy(section8, Delta(knee), exact=True).group(gender)
        assert at.beta_star == floor and at.beta0 == floor
        after = optimal_privacy(section8, Delta(knee + F(1, 1000)), exact=True).group(gender)
        assert after.beta_star > floor and after.case == "beta0"
        before = optimal_privacy(section8, Delta(knee - F(1, 1000)), exact=True).group(gender)
        assert before.beta_star == floor and before.case == "beta_min"


def test_curve_is_monotone_in_delta(section8):
    values = tradeoff_curve(section8, np.linspace(0, 1, 101)).to_frame(per_group=True)
    for _, part in values.groupby("gender"):
        assert np.all(np.diff(part["beta_star"].to_numpy()) >= -1e-12)


def test_region_to_dict(section8):
    assert tradeoff_region(section8).to_dict()["beta_min"] == pytest.approx(0.6)


def test_max_fidelity_for_a_target_beta(section8):
    found = max_fidelity_for_beta(section8, beta=0.675)
    assert found.value == pytest.approx(0.9, abs=1e-8)
    assert found.beta_star <= 0.675 * (1 + 1e-9)
    assert found.result.fidelity == Delta(found.value)
    assert max_fidelity_for_beta(section8, beta=1.0).value == 1.0  # beta >= C*: release D
    by_gamma = max_fidelity_for_beta(section8, gamma=-math.log(0.675))
    assert by_gamma.value == pytest.approx(0.9, abs=1e-8)
    by_alpha = max_fidelity_for_beta(section8, beta=0.95, kind="alpha")
    assert by_alpha.kind == "alpha" and by_alpha.beta_star <= 0.95 * (1 + 1e-9)
    assert json.dumps(found.to_dict())


def test_target_below_beta_min_is_infeasible(section8):
    with pytest.raises(InfeasibleError,
                       match=r"^The target beta=0\.59 is below beta_min=0\.6 of QID group "
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
