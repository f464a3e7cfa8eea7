"""The LP reference solver (skyprivacy/transparency/lp.py): more than two outcomes, agreement
with the closed form, and the message when scipy is missing."""
import sys

import numpy as np
import pytest

from skyprivacy.transparency import (
    Alpha,
    DecisionTable,
    Delta,
    fidelity_bounds,
    lp_reference,
    optimal_privacy,
    tradeoff_region,
)

from .tables import three_outcomes


def test_more_than_two_outcomes_use_the_lp():
    table = three_outcomes()
    region = tradeoff_region(table)
    none = optimal_privacy(table, Delta(0))
    assert none.method == "lp"
    assert none.to_frame()["beta_star"].to_numpy() == pytest.approx(
        region.groups["beta_min"].to_numpy(), abs=1e-7)
    full = optimal_privacy(table, Delta(1))
    assert full.to_frame()["beta_star"].to_numpy() == pytest.approx(
        region.groups["c_star"].to_numpy(), abs=1e-9)
    assert full.d_tilde == pytest.approx(table.decisions)
    previous = none.to_frame()["beta_star"].to_numpy()
    for delta in (0.5, 0.8, 0.9, 0.95):
        result = optimal_privacy(table, Delta(delta))
        bounds = fidelity_bounds(table, Delta(delta))
        assert np.all(result.d_tilde >= bounds.lower - 1e-9)
        assert np.all(result.d_tilde <= bounds.upper + 1e-9)
        assert np.allclose(result.d_tilde.sum(axis=1), 1)
        current = result.to_frame()["beta_star"].to_numpy()
        assert np.all(result.to_frame()["achieved"].to_numpy() <= current + 1e-9)
        assert np.all(current >= previous - 1e-7)  # monotone in delta
        previous = current
    assert "d_tilde[maybe]" in optimal_privacy(table, Delta(0.9)).announced.columns


def test_lp_on_two_outcome_columns_equals_the_closed_form(section8):
    df = section8.frame.assign(no=1 - section8.frame["d"])
    as_columns = DecisionTable.from_frame(df, public="gender", sensitive="income",
                                          weight="section8",
                                          decision=["no", "d"])
    lp = optimal_privacy(as_columns, Alpha(0.9), method="lp")
    closed = optimal_privacy(as_columns, Alpha(0.9))
    assert closed.method == "closed_form" and lp.method == "lp"
    assert lp.to_frame()["beta_star"].to_numpy() == pytest.approx(
        closed.to_frame()["beta_star"].to_numpy(), abs=1e-7)
    assert lp_reference(section8, Delta(0.9)).beta_star == pytest.approx(0.675, abs=1e-8)


def test_missing_scipy_has_a_clear_message(section8, monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy.optimize", None)
    with pytest.raises(ImportError, match=r"^lp_reference needs scipy: pip install "
                       r"'skyprivacy\[lp\]'$"):
        lp_reference(section8, Delta(0.9))
    # no scipy needed
    assert optimal_privacy(section8, Delta(0.9)).beta_star == pytest.approx(0.675)
