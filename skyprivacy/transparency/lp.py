"""LP reference solver for (OPT): bisection on beta with an LP feasibility problem per step.

Section 6.2 names this generic method (quasi-convex generalised linear-fractional program,
solved by bisection on beta with an LP at each step).  It is the independent reference the
tests hold the closed form to, and the only solver for more than two outcomes, for which the
paper has no closed form (spec 1.5, 5.10).  It needs scipy (HiGHS), an optional dependency
(``pip install skyprivacy[lp]``), imported only when called.

All QID groups are solved in one LP per bisection step: each group g gets its own beta_g and
its own slack s_g >= 0 in the privacy constraints (39),

    P(x) D~_a(x) - beta_g M_{g,a} - s_g <= 0,   M_{g,a} = sum_{x in g} P(x) D~_a(x),

with fidelity bounds (16c)-(16e) and sum_a D~_a(x) = 1 (16f), minimising sum_g s_g.  Groups
share no constraint (Lemma 3), so the minimum splits per group and beta_g is feasible iff
s_g = 0 at the optimum.  The upper end of each bracket is the achieved maximum confidence
of a concrete feasible solution, so the reported beta* is always attained by the returned
D~.
"""

from __future__ import annotations

import numpy as np

from .._core.exact import native
from .._core.optional import optional_import
from .._core.validation import Interval, validate_params
from ._segments import Segments
from .certify import (
    channel_confidence,
    confidence_matrix,
    group_max_confidence,
    max_confidence_of,
)
from .fidelity import FIDELITY, fidelity_bounds
from .solution import OptimalPrivacy, group_frame, verify
from .table import TABLE, DecisionTable

__all__ = ["lp_reference"]

_SLACK_TOL = 1e-9
_MAX_STEPS = 200


def _linprog():
    """scipy's ``linprog`` and ``coo_matrix`` (the ``lp`` extra)."""
    optimize = optional_import("scipy.optimize", owner="lp_reference")
    sparse = optional_import("scipy.sparse", owner="lp_reference")
    return optimize.linprog, sparse.coo_matrix


def _min_slack(p, lower, upper, seg: Segments, beta):
    """Solve the batched feasibility LP; return (slack per group, D~ per record)."""
    linprog, coo_matrix = _linprog()
    n, k = lower.shape
    groups = seg.count
    n_y, n_m = n * k, groups * k
    rec = np.repeat(np.arange(n), k)
    out = np.tile(np.arange(k), n)
    grp = seg.index[rec]
    y = np.arange(n_y)
    m_var = n_y + grp * k + out
    s_var = n_y + n_m + grp
    # equalities: sum_a y = 1 per record; sum_x p y - M = 0 per (group, outcome)
    eq_rows = np.concatenate([rec, n + grp * k + out, n + np.arange(n_m)])
    eq_cols = np.concatenate([y, y, n_y + np.arange(n_m)])
    eq_vals = np.concatenate([np.ones(n_y), p[rec], -np.ones(n_m)])
    a_eq = coo_matrix((eq_vals, (eq_rows, eq_cols)), shape=(n + n_m, n_y + n_m + groups)).tocsr()
    b_eq = np.concatenate([np.ones(n), np.zeros(n_m)])
    # privacy (39) with a per-group slack
    ub_rows = np.concatenate([y, y, y])
    ub_cols = np.concatenate([y, m_var, s_var])
    ub_vals = np.concatenate([p[rec], -beta[grp], -np.ones(n_y)])
    a_ub = coo_matrix((ub_vals, (ub_rows, ub_cols)), shape=(n_y, n_y + n_m + groups)).tocsr()
    cost = np.concatenate([np.zeros(n_y + n_m), np.ones(groups)])
    bounds = np.concatenate([
        np.column_stack([lower.ravel(), upper.ravel()]),
        np.column_stack([np.zeros(n_m + groups), np.full(n_m + groups, np.inf)]),
    ])
    res = linprog(
        cost, A_ub=a_ub, b_ub=np.zeros(n_y), A_eq=a_eq, b_eq=b_eq, bounds=bounds,
        method="highs",
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    )
    if res.status != 0:  # the slack makes every instance feasible and bounded
        raise RuntimeError(f"internal error: the LP reference failed ({res.message})")
    dist = np.clip(res.x[:n_y].reshape(n, k), lower, upper)
    dist = dist / dist.sum(axis=1, keepdims=True)
    return res.x[n_y + n_m:], dist


def _achieved(p, dist, seg: Segments) -> np.ndarray:
    """Maximum confidence of every group under ``dist``."""
    return seg.max(channel_confidence(p, dist, seg, exact=False).max(axis=1))


def _inside(decisions: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """A distribution within the bounds, as close to D as a greedy repair makes it."""
    dist = np.clip(decisions, lower, upper)
    excess = dist.sum(axis=1) - 1.0
    for j in range(dist.shape[1]):
        cut = np.clip(excess, 0, dist[:, j] - lower[:, j])
        add = np.clip(-excess, 0, upper[:, j] - dist[:, j])
        dist[:, j] += add - cut
        excess += add - cut
    return dist


@validate_params({"table": TABLE, "fidelity": FIDELITY,
                  "tol": Interval("real", 0, 1, closed="neither")})
def lp_reference(table: DecisionTable, fidelity, *, tol: float = 1e-9) -> OptimalPrivacy:
    """Optimal privacy by bisection on beta with an LP feasibility check (section 6.2).

    Parameters
    ----------
    table : DecisionTable
        Any number of outcomes.
    fidelity : Delta, Alpha or Bounds
    tol : float, default 1e-9
        Width of every group's final bracket on beta*_T.

    Returns
    -------
    OptimalPrivacy
        With ``method == "lp"`` and case "lp" for every group; beta0, beta1, betap, x0, x1
        and rhs are not defined for this method.  Each beta*_T is the achieved maximum
        confidence of the returned D~ and lies within ``tol`` (plus the LP tolerance,
        about 1e-9) of the optimum.

    Raises
    ------
    ImportError
        scipy is not installed.

    Notes
    -----
    Cost: O(log(1/tol)) LPs over all unconverged groups; interior-point LPs cost
    O(n^3.5)-ish in the worst case (section 6.2), which is why the closed form exists.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"g": ["F"] * 3, "s": [1, 2, 3], "w": [12, 5, 3], "d": [0, 0, 1]})
    >>> t = DecisionTable.from_frame(df, public="g", sensitive="s", weight="w", decision="d")
    >>> from skyprivacy.transparency import Delta
    >>> round(lp_reference(t, Delta(0.9)).beta_star, 6)
    0.675
    """
    _linprog()  # fail before any work when scipy is missing
    bounds = fidelity_bounds(table, fidelity)
    layout = table.layout
    seg = layout.seg
    rows = layout.rows
    p = table.weights[rows]
    p = p / seg.spread(seg.sum(p))
    lower, upper = bounds.lower[rows], bounds.upper[rows]

    # bracket per group: beta* >= low (Lemma 5 at first, then probes shown infeasible) and
    # beta* <= high, the achieved confidence of the stored feasible solution ``dist``
    dist = _inside(table.decisions[rows], lower, upper)
    have = seg.min(np.isclose(dist.sum(axis=1), 1.0).astype(float)) > 0
    high = np.where(have, _achieved(p, dist, seg), 1.0)
    low = seg.max(p)
    probe = low.copy()  # the first step tests beta_min itself
    for step in range(_MAX_STEPS):
        open_ = ~have | (high - low > tol)
        if not open_.any():
            break
        if step:
            probe = np.where(~have & (high - low <= tol), high, (low + high) / 2)
        ids = np.flatnonzero(open_)
        take = open_[seg.index]
        sub = Segments(seg.index[take])
        slack, sub_dist = _min_slack(p[take], lower[take], upper[take], sub, probe[ids])
        ok = slack <= _SLACK_TOL
        achieved = _achieved(p[take], sub_dist, sub)
        better = ok & (~have[ids] | (achieved < high[ids]))
        moved = better[sub.index]
        dist[np.flatnonzero(take)[moved]] = sub_dist[moved]
        high[ids[better]] = achieved[better]
        have[ids[better]] = True
        # a probe that brings no better solution raises the lower end: either it is
        # infeasible, or feasible only within the LP tolerance of the stored solution
        low[ids[~better]] = probe[ids[~better]]
    else:  # pragma: no cover - every step halves an open bracket
        raise RuntimeError("internal error: the LP bisection did not converge")

    d_tilde = _inside(table.decisions, bounds.lower, bounds.upper)
    d_tilde[rows] = dist
    d_tilde.flags.writeable = False
    conf = confidence_matrix(table, d_tilde, exact=False)
    achieved_group = group_max_confidence(table, conf)
    verify(table, achieved_group[layout.groups], high, False)
    c_star = group_max_confidence(table, confidence_matrix(table, table.decisions, exact=False))
    none = np.full(seg.count, np.nan)
    groups = group_frame(table, False, {
        "beta_star": high, "case": ["lp"] * seg.count,
        "beta0": none, "beta1": none, "betap": none, "beta_min": seg.max(p),
        "c_star": c_star[layout.groups], "achieved": achieved_group[layout.groups],
        "x0": [None] * seg.count, "x1": [None] * seg.count, "rhs": none,
    })
    details = bounds.to_frame()
    for j, a in enumerate(table.outcomes):
        details[f"d_tilde[{native(a)}]"] = d_tilde[:, j]
    return OptimalPrivacy(
        table=table, fidelity=fidelity, beta_star=float(np.max(high)),
        achieved=max_confidence_of(table, conf), method="lp", exact=False,
        _groups=groups, _d_tilde=d_tilde, _details=details,
    )
