"""The segment kernels of optimal privacy: the corrected Theorem 1 / Algorithm 1 in linear time.

Section 6 poses (OPT): find the announced rule D~ with the smallest maximum confidence beta
subject to fidelity bounds.  Lemma 3 splits it into one sub-problem per QID group,
beta* = max_T beta*_T.  Section 7.3 (Theorem 1, Algorithm 1) solves a binary group in
O(|T|).  This module holds the *corrected* algorithm of the spec (section 5.7) as arithmetic
over records sorted by group, with P normalised per group:

* beta*_T = max{beta_0, beta_1, beta_p, beta_min} - the printed Theorem 1 omits the Lemma 5
  floor beta_min and then claims infeasible values (spec 10.1, E1);
* beta_a := 0 when every lower bound of outcome a is 0 (0/0 in the paper, E3);
* ALLOCATION with a general right-hand side, valid when x^0 = x^1 (E2);
* when the floor binds, a solution at beta_min from the fixed-beta solver of spec 5.8.

Every step is a segment operation (``np.ufunc.reduceat``), so the whole table costs O(n)
arithmetic plus one sort, with no Python loop over groups; the same code runs on Fractions
for the exact path.  The public entry points are :func:`~.optimal.optimal_privacy` and the
trade-off functions of :mod:`.tradeoff`; nothing here is exported.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ._segments import SNAP_TOL, Segments, safe_div

__all__: list[str] = []

#: The four cases of the corrected Theorem 1, in the order of ``Theorem1.case``.
CASES = ("beta0", "beta1", "betap", "beta_min")
#: Float ties between the three values of Theorem 1 (which case is reported).
TIE_TOL = 1e-12
#: Float slack of the fixed-beta feasibility test.
FEASIBLE_TOL = 1e-12


@dataclass
class Theorem1:
    """Per-group quantities of Theorem 1 (arrays over segments) and the per-record max'."""

    thr1: np.ndarray
    thr0: np.ndarray
    max_mass1: np.ndarray  # p * D~_1(x)_max'
    max_mass0: np.ndarray  # p * D~_0(x)_max'
    beta0: np.ndarray
    beta1: np.ndarray
    betap: np.ndarray
    beta_min: np.ndarray
    raw: np.ndarray
    beta_star: np.ndarray
    case: np.ndarray  # index into CASES


def theorem1(p, L, U, seg: Segments, exact: bool) -> Theorem1:
    """beta_0, beta_1, beta_p (Theorem 1, eqs. 17-18 / Appendix H eqs. 48-52) and the floor.

    With P normalised so every group sums to 1: thr_a = max_k p_k l^a_k,
    max'^a_k p_k = min(p_k u^a_k, thr_a), beta_a = thr_a / sum_k p_k max'^a_k (the x^a term
    of the sum equals thr_a), beta_p = thr_1 + thr_0 and beta_min = max_k p_k (Lemma 5).
    """
    mass_l1 = p * L
    mass_l0 = p * (1 - U)
    thr1 = seg.max(mass_l1)
    thr0 = seg.max(mass_l0)
    max_mass1 = np.minimum(p * U, seg.spread(thr1))
    max_mass0 = np.minimum(p * (1 - L), seg.spread(thr0))
    beta1 = safe_div(thr1, seg.sum(max_mass1))  # 0/0 -> 0: the channel can be emptied (E3)
    beta0 = safe_div(thr0, seg.sum(max_mass0))
    betap = thr1 + thr0
    beta_min = seg.max(p)
    raw = np.maximum(np.maximum(beta0, beta1), betap)
    beta_star = np.maximum(raw, beta_min)  # the floor the printed theorem omits (E1)
    tol = 0 if exact else TIE_TOL
    floor = as_bool(raw < beta_min)
    is0 = ~floor & as_bool(beta0 >= raw - tol)
    is1 = ~floor & ~is0 & as_bool(beta1 >= raw - tol)
    case = np.where(floor, 3, np.where(is0, 0, np.where(is1, 1, 2)))
    return Theorem1(thr1, thr0, max_mass1, max_mass0, beta0, beta1, betap, beta_min, raw,
                     beta_star, case)


def as_bool(values) -> np.ndarray:
    """A comparison result (object arrays on the exact path) as a boolean array."""
    return np.asarray(values, dtype=bool)


def allocation(p, L, U, seg: Segments, th: Theorem1, x0, x1):
    """ALLOCATION (Algorithm 1, lines 17-28) with the general right-hand side (spec 5.7, 6).

    x^1 gets its lower bound, x^0 the upper bound 1 - l^0; every other record starts at
    min'_1 and receives, in table order, a greedy share of the residual mass capped by its
    capacity max'_1 - min'_1.  Returns (d~_1, p * min'_1, RHS) for every group as if it were
    in case beta_p; the caller keeps the groups that are.
    """
    zero = p * 0
    position = np.arange(seg.size)
    is_x1 = position == seg.spread(x1)
    is_x0 = position == seg.spread(x0)
    special = is_x0 | is_x1
    special_d = np.where(is_x1, L, U)
    # b(x) = P(x) - beta_p * sum_T P  (A1: b is evaluated at beta_p), so that
    # p * min'_1 = max(p l^1, thr_1 + b(x))
    min_mass = np.maximum(p * L, seg.spread(th.thr1) + p - seg.spread(th.betap))
    rhs = safe_div(th.thr1, th.betap) - seg.sum(np.where(special, p * special_d, zero))
    resid = rhs - seg.sum(np.where(special, zero, min_mass))
    capacity = np.where(special, zero, np.maximum(th.max_mass1 - min_mass, zero))
    before = seg.exclusive_cumsum(capacity)
    share = np.minimum(np.maximum(seg.spread(resid) - before, zero), capacity)
    d1 = np.where(special, special_d, (min_mass + share) / p)
    return d1, min_mass, rhs


def fixed_beta(p, L, U, seg: Segments, beta, exact: bool):
    """Fixed-beta feasibility and a witness for every group (spec 5.8; not in the paper).

    Parametrise by the announced positive mass t = sum_k z_k with z_k = p_k d~_k.  The
    privacy constraints of both outcomes become lo_k(t) <= z_k <= hi_k(t) with
    lo_k(t) = max(p_k L_k, p_k - beta (1 - t)) and hi_k(t) = min(p_k U_k, beta t), and a
    solution exists iff some t has lo_k(t) <= hi_k(t) for all k and
    sum lo_k(t) <= t <= sum hi_k(t).  The violations f1(t) = sum lo - t and
    f2(t) = t - sum hi are convex piecewise linear with kinks at 1 - p_k(1 - L_k)/beta and
    p_k U_k / beta; the per-record conditions give t in [A, B].  The minimum of
    max(f1, f2) over [A, B] is attained at a kink, an end point or a crossing of f1 and f2,
    so evaluating those candidates (one sort of the kinks per group, prefix sums) finds it
    exactly.  Returns (feasible per group, d~_1 per record); d~ of infeasible groups is
    meaningless.
    """
    inf = math.inf
    n, groups = seg.size, seg.count
    beta_row = seg.spread(beta)
    mass_l = p * L
    mass_u = p * U
    kink_lo = 1 - (p - mass_l) / beta_row
    kink_hi = mass_u / beta_row
    lower_total = seg.sum(mass_l)
    start = np.maximum(lower_total, seg.max(mass_l) / beta)
    stop = np.minimum(seg.sum(mass_u), 1 - seg.max(p * (1 - U)) / beta)
    tol = 0 if exact else FEASIBLE_TOL
    stop = np.where(as_bool(stop < start) & as_bool(stop >= start - tol), start, stop)

    # events: the two kinks of every record, and A, B of every group
    t = np.concatenate([kink_lo, kink_hi, start, stop])
    label = np.concatenate([seg.index, seg.index, np.arange(groups), np.arange(groups)])
    none = np.zeros(n + 2 * groups, dtype=p.dtype)
    count_lo = np.concatenate([np.ones(n, int), np.zeros(n + 2 * groups, int)])
    count_hi = np.concatenate([np.zeros(n, int), np.ones(n, int), np.zeros(2 * groups, int)])
    step_lo = np.concatenate([p - beta_row - mass_l, none])
    step_hi = np.concatenate([none[:n], mass_u, none[:2 * groups]])
    # sort by (group, t): an exact integer key from the global rank of t (np.lexsort on
    # float keys is about four times slower at 10^6 records)
    rank = np.empty(len(t), dtype=np.int64)
    rank[np.argsort(t)] = np.arange(len(t))
    order = np.argsort(label.astype(np.int64) * len(t) + rank)
    t, label, count_lo, count_hi, step_lo, step_hi = (
        a[order] for a in (t, label, count_lo, count_hi, step_lo, step_hi)
    )
    events = Segments(label)
    # inclusive prefix sums; ties need no order because f1 and f2 are continuous
    count_lo = events.exclusive_cumsum(count_lo) + count_lo
    count_hi = events.exclusive_cumsum(count_hi) + count_hi
    step_lo = events.exclusive_cumsum(step_lo) + step_lo
    step_hi = events.exclusive_cumsum(step_hi) + step_hi
    b = beta[label]
    f1 = lower_total[label] + step_lo + b * t * count_lo - t
    f2 = t - b * t * (seg.lengths[label] - count_hi) - step_hi
    kept = as_bool(t >= start[label]) & as_bool(t <= stop[label])
    h = np.where(kept, np.maximum(f1, f2), inf)

    # a crossing of f1 and f2 between an event and the next one of the same group
    following = np.append(np.arange(1, len(t)), len(t) - 1)
    gap, gap_next = f1 - f2, (f1 - f2)[following]
    cross = (kept & kept[following] & (label == label[following])
             & as_bool(gap * gap_next < 0))
    one = Fraction(1) if exact else 1.0
    # numpy's stubs admit no Fraction, though an object array holds them
    frac = gap / np.where(cross, gap - gap_next, one)  # type: ignore[arg-type]
    t_cross = t + (t[following] - t) * frac
    h_cross = np.where(cross, f1 + (f1[following] - f1) * frac, inf)
    better = as_bool(h_cross < h)
    h = np.where(better, h_cross, h)
    t = np.where(better, t_cross, t)

    best = events.first_argmin(h)
    feasible = as_bool(h[best] <= tol) & as_bool(start <= stop)
    best_t = np.where(feasible, t[best], start)

    # witness: z_k = lo_k(t*) plus a greedy share of t* - sum lo, capped at hi_k(t*)
    t_row = seg.spread(best_t)
    lo = np.maximum(mass_l, p - beta_row * (1 - t_row))
    hi = np.minimum(mass_u, beta_row * t_row)
    room = np.maximum(hi - lo, 0)
    gap = seg.spread(np.maximum(best_t - seg.sum(lo), 0))
    share = np.minimum(np.maximum(gap - seg.exclusive_cumsum(room), 0), room)
    return feasible, (lo + share) / p


@dataclass
class Solution:
    """The corrected algorithm's output for every group (working order): Theorem 1's values,
    the case, x^0 and x^1, the right-hand side of (22), the announced d~_1 and p * min'_1."""

    theorem: Theorem1
    case: np.ndarray
    x0: np.ndarray
    x1: np.ndarray
    rhs: np.ndarray
    d1: np.ndarray
    min_mass1: np.ndarray


def solve(p, L, U, d_true, c_star, seg: Segments, exact: bool) -> Solution:
    """The corrected algorithm of spec 5.7 for every group at once (working order).

    ``c_star`` (per group) lets groups with beta*_T = C*_T announce D itself when D is
    within the bounds: by Lemma 4 it is then optimal, and perturbing it would cost
    fidelity for no privacy (a single-record group, fully pinned alpha bounds, delta = 1).
    """
    th = theorem1(p, L, U, seg, exact)
    x1 = seg.first_argmax(p * L)
    x0 = seg.first_argmax(p * (1 - U))
    case = th.case.copy()
    case_row = seg.spread(case)
    d_beta0 = 1 - th.max_mass0 / p  # Algorithm 1, lines 6-8
    d_beta1 = th.max_mass1 / p  # lines 9-11
    d_betap, min_mass1, rhs = allocation(p, L, U, seg, th, x0, x1)  # lines 12-14
    # floor (case beta_min): a constant mu in every record's bounds gives conf = P(x|T) <=
    # beta_min (spec 5.7, step 5); take the group's true positive rate clipped into them so
    # the announced group-level rate moves as little as possible
    lo_all, hi_all = seg.max(L), seg.min(U)
    mu = np.minimum(np.maximum(seg.sum(p * d_true), lo_all), hi_all)
    d1 = np.where(case_row == 0, d_beta0, np.where(case_row == 1, d_beta1,
                  np.where(case_row == 2, d_betap, seg.spread(mu))))
    general = (case == 3) & as_bool(lo_all > hi_all)
    if general.any():
        rows = general[seg.index]
        sub = Segments(seg.index[rows])
        feasible, d_sub = fixed_beta(p[rows], L[rows], U[rows], sub, th.beta_min[general], exact)
        if not feasible.all():  # Lemma 5 and the spec's LP evidence say this cannot happen
            raise RuntimeError("internal error: no solution at beta_min; please report this input")
        d1 = d1.copy()
        d1[rows] = d_sub
    inside = seg.min(as_bool(d_true >= L) & as_bool(d_true <= U))
    release_d = inside & as_bool(th.beta_star >= (c_star if exact else c_star * (1 - TIE_TOL)))
    d1 = np.where(seg.spread(release_d), d_true, d1)
    d1 = np.minimum(np.maximum(d1, L), U)
    if not exact:
        d1 = np.where(np.abs(d1 - L) <= SNAP_TOL, L, d1)
        d1 = np.where(np.abs(d1 - U) <= SNAP_TOL, U, d1)
    return Solution(th, case, x0, x1, rhs, d1, min_mass1)
