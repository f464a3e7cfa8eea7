"""The segment kernels of the corrected Theorem 1 (skyprivacy/transparency/kernels.py),
through the regressions of the spec's errata: E1 (the beta_min floor), E2 (x^0 = x^1) and the
fixed-beta solution when the bounds share no common value."""
from fractions import Fraction as F

import numpy as np
import pytest

from skyprivacy.transparency import (
    Bounds,
    Delta,
    confidence,
    feasible_at_beta,
    fidelity_bounds,
    optimal_privacy,
)

from .tables import table_of


def test_regression_e1_floor():
    """Theorem 1 as printed gives 0.5; the truth is beta_min = 0.9 (spec 10.1, E1)."""
    table = table_of([0.9, 0.1], [0.5, 0.5])
    result = optimal_privacy(table, Delta(F(3, 5)), exact=True)
    group = result.groups[0]
    assert (group.beta0, group.beta1, group.betap) == (F(1, 2), F(1, 2), F(9, 50))
    assert group.beta_star == F(9, 10) and group.case == "beta_min"
    assert group.d_tilde[0] == group.d_tilde[1]  # feasibility at 0.9 forces equal entries
    assert F(1, 10) <= group.d_tilde[0] <= F(9, 10)
    assert result.achieved.conf == F(9, 10)
    assert not feasible_at_beta(table, Delta(0.6), beta=0.5).feasible  # 1 <= 1/9 would be needed


def test_regression_e2_shared_special_record():
    """x^0 = x^1: the printed ALLOCATION outputs -0.5; the corrected one [0.6, 1, 1/3] (E2)."""
    table = table_of([0.5, 0.2, 0.3], [0.6, 0.5, 0.5])
    bounds = Bounds(np.array([F(3, 5), 0, 0], dtype=object),
                    np.array([F(3, 5), 1, 1], dtype=object))
    result = optimal_privacy(table, bounds, exact=True)
    group = result.groups[0]
    assert group.x0 == group.x1 == 0
    assert (group.beta0, group.beta1, group.betap, group.beta_min) == (F(1, 3), F(3, 8), F(1, 2),
                                                                       F(1, 2))
    assert group.beta_star == F(1, 2) and group.case == "betap"
    assert group.d_tilde == (F(3, 5), 1, F(1, 3))
    conf = confidence(table, result, exact=True)
    assert conf[1].tolist() == [F(1, 2), F(1, 3), F(1, 6)]  # masses 0.3, 0.2, 0.1 of 0.6
    assert conf[0].tolist() == [F(1, 2), 0, F(1, 2)]  # masses 0.2, 0, 0.2 of 0.4
    floats = optimal_privacy(table, Bounds([0.6, 0, 0], [0.6, 1, 1]))
    assert floats.d_tilde[:, 1] == pytest.approx([0.6, 1, 1 / 3], abs=1e-12)


@pytest.mark.parametrize("exact", [False, True])
def test_floor_without_a_common_value(exact):
    """raw < beta_min and the records' bounds share no value: the constant shortcut of spec
    5.7 step 5 does not exist, so the fixed-beta construction of 5.8 must supply D~."""
    table = table_of([8, 1, 1], [0.2, 0.05, 0.95])
    result = optimal_privacy(table, Bounds([0, 0, 0.9], [1, 0.1, 1]), exact=exact)
    group = result.groups[0]
    assert group.case == "beta_min" and group.beta_star == pytest.approx(F(4, 5), abs=1e-12)
    assert group.beta0 == pytest.approx(F(9, 19)) and group.betap == pytest.approx(F(9, 50))
    assert group.c_star == pytest.approx(F(32, 37))  # D is not optimal here
    assert group.achieved <= group.beta_star if exact else group.achieved <= 0.8 + 1e-12
    bounds = fidelity_bounds(table, Bounds([0, 0, 0.9], [1, 0.1, 1]), exact=exact)
    assert np.all(result.d_tilde >= bounds.lower) and np.all(result.d_tilde <= bounds.upper)
