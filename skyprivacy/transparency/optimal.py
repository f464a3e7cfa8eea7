"""Optimal privacy for a given fidelity: the corrected Theorem 1 / Algorithm 1 in linear time.

Section 6 poses (OPT): find the announced rule D~ with the smallest maximum confidence beta
subject to fidelity bounds.  Lemma 3 splits it into one sub-problem per QID group,
beta* = max_T beta*_T.  Section 7.3 (Theorem 1, Algorithm 1) solves a binary group in
O(|T|).  This module implements the *corrected* algorithm of the spec (section 5.7):

* beta*_T = max{beta_0, beta_1, beta_p, beta_min} - the printed Theorem 1 omits the Lemma 5
  floor beta_min and then claims infeasible values (spec 10.1, E1);
* beta_a := 0 when every lower bound of outcome a is 0 (0/0 in the paper, E3);
* ALLOCATION with a general right-hand side, valid when x^0 = x^1 (E2);
* bounds normalised across outcomes before anything else (E4), see :mod:`.fidelity`;
* when the floor binds, a solution at beta_min from the fixed-beta solver of spec 5.8.

Every step is a segment operation over records sorted by group (``np.ufunc.reduceat``), so
the whole table costs O(n) arithmetic plus one sort, with no Python loop over groups.  The
same code runs on Fractions for ``exact=True``.  Every announced rule is verified after
the fact by recomputing its confidences (spec 5.7, step 7).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from numbers import Real

import numpy as np
import pandas as pd

from ..errors import InfeasibleError, InvalidParameterError, param_error
from ._numeric import (
    SNAP_TOL,
    VERIFY_ABS,
    VERIFY_REL,
    Segments,
    native,
    safe_div,
)
from .certify import (
    MaxConfidence,
    _max_confidence,
    confidence_matrix,
    group_max_confidence,
    resolve_beta,
)
from .fidelity import Alpha, Delta, _check_fidelity, fidelity_bounds
from .table import DecisionTable, require_table

__all__ = [
    "GroupResult",
    "OptimalPrivacy",
    "TradeoffRegion",
    "TradeoffCurve",
    "MaxFidelity",
    "FixedBeta",
    "optimal_privacy",
    "tradeoff_region",
    "tradeoff_curve",
    "max_fidelity_for_beta",
    "feasible_at_beta",
]

CASES = ("beta0", "beta1", "betap", "beta_min")
_TIE_TOL = 1e-12
_FEASIBLE_TOL = 1e-12


# =========================================================================================
# Segment kernels (records of positive weight, sorted by group, P normalised per group)
# =========================================================================================
@dataclass
class _Theorem1:
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


def _theorem1(p, L, U, seg: Segments, exact: bool) -> _Theorem1:
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
    tol = 0 if exact else _TIE_TOL
    floor = _bool(raw < beta_min)
    is0 = ~floor & _bool(beta0 >= raw - tol)
    is1 = ~floor & ~is0 & _bool(beta1 >= raw - tol)
    case = np.where(floor, 3, np.where(is0, 0, np.where(is1, 1, 2)))
    return _Theorem1(thr1, thr0, max_mass1, max_mass0, beta0, beta1, betap, beta_min, raw,
                     beta_star, case)


def _bool(values) -> np.ndarray:
    return np.asarray(values, dtype=bool)


def _allocation(p, L, U, seg: Segments, th: _Theorem1, x0, x1):
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


def _fixed_beta(p, L, U, seg: Segments, beta, exact: bool):
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
    tol = 0 if exact else _FEASIBLE_TOL
    stop = np.where(_bool(stop < start) & _bool(stop >= start - tol), start, stop)

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
    kept = _bool(t >= start[label]) & _bool(t <= stop[label])
    h = np.where(kept, np.maximum(f1, f2), inf)

    # a crossing of f1 and f2 between an event and the next one of the same group
    following = np.append(np.arange(1, len(t)), len(t) - 1)
    gap, gap_next = f1 - f2, (f1 - f2)[following]
    cross = (kept & kept[following] & (label == label[following])
             & _bool(gap * gap_next < 0))
    one = Fraction(1) if exact else 1.0
    frac = gap / np.where(cross, gap - gap_next, one)
    t_cross = t + (t[following] - t) * frac
    h_cross = np.where(cross, f1 + (f1[following] - f1) * frac, inf)
    better = _bool(h_cross < h)
    h = np.where(better, h_cross, h)
    t = np.where(better, t_cross, t)

    best = events.first_argmin(h)
    feasible = _bool(h[best] <= tol) & _bool(start <= stop)
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
class _Solution:
    theorem: _Theorem1
    case: np.ndarray
    x0: np.ndarray
    x1: np.ndarray
    rhs: np.ndarray
    d1: np.ndarray
    min_mass1: np.ndarray


def _solve(p, L, U, d_true, c_star, seg: Segments, exact: bool) -> _Solution:
    """The corrected algorithm of spec 5.7 for every group at once (working order).

    ``c_star`` (per group) lets groups with beta*_T = C*_T announce D itself when D is
    within the bounds: by Lemma 4 it is then optimal, and perturbing it would cost
    fidelity for no privacy (a single-record group, fully pinned alpha bounds, delta = 1).
    """
    th = _theorem1(p, L, U, seg, exact)
    x1 = seg.first_argmax(p * L)
    x0 = seg.first_argmax(p * (1 - U))
    case = th.case.copy()
    case_row = seg.spread(case)
    d_beta0 = 1 - th.max_mass0 / p  # Algorithm 1, lines 6-8
    d_beta1 = th.max_mass1 / p  # lines 9-11
    d_betap, min_mass1, rhs = _allocation(p, L, U, seg, th, x0, x1)  # lines 12-14
    # floor (case beta_min): a constant mu in every record's bounds gives conf = P(x|T) <=
    # beta_min (spec 5.7, step 5); take the group's true positive rate clipped into them so
    # the announced group-level rate moves as little as possible
    lo_all, hi_all = seg.max(L), seg.min(U)
    mu = np.minimum(np.maximum(seg.sum(p * d_true), lo_all), hi_all)
    d1 = np.where(case_row == 0, d_beta0, np.where(case_row == 1, d_beta1,
                  np.where(case_row == 2, d_betap, seg.spread(mu))))
    general = (case == 3) & _bool(lo_all > hi_all)
    if general.any():
        rows = general[seg.index]
        sub = Segments(seg.index[rows])
        feasible, d_sub = _fixed_beta(p[rows], L[rows], U[rows], sub, th.beta_min[general], exact)
        if not feasible.all():  # Lemma 5 and the spec's LP evidence say this cannot happen
            raise RuntimeError("internal error: no solution at beta_min; please report this input")
        d1 = d1.copy()
        d1[rows] = d_sub
    inside = seg.min(_bool(d_true >= L) & _bool(d_true <= U))
    release_d = inside & _bool(th.beta_star >= (c_star if exact else c_star * (1 - _TIE_TOL)))
    d1 = np.where(seg.spread(release_d), d_true, d1)
    d1 = np.minimum(np.maximum(d1, L), U)
    if not exact:
        d1 = np.where(np.abs(d1 - L) <= SNAP_TOL, L, d1)
        d1 = np.where(np.abs(d1 - U) <= SNAP_TOL, U, d1)
    return _Solution(th, case, x0, x1, rhs, d1, min_mass1)


# =========================================================================================
# Results
# =========================================================================================
@dataclass(frozen=True)
class GroupResult:
    """The optimum of one QID group (Theorem 1 corrected; spec 5.7, step 8).

    Attributes
    ----------
    key : tuple
        x_U of the group.
    n_records : int
        Records of positive weight (the group size m).
    beta_star : float, Fraction or None
        beta*_T (None for a group without mass).
    case : str
        Which bound is tight: "beta0", "beta1", "betap" or "beta_min" (closed form),
        "lp" (LP reference) or "empty".
    beta0, beta1, betap : float, Fraction or None
        The three values of Theorem 1 (None from the LP path).
    beta_min : float or Fraction
        max_x P(x | T), Lemma 5's floor (prior vulnerability).
    c_star : float or Fraction
        C*_T, the maximum confidence of releasing D itself (Definition 7).
    achieved : float or Fraction
        Maximum confidence of the announced D~ in this group, recomputed after the fact.
    x0, x1 :
        Index labels of x^0 = argmax P(x) D~_0(x)_min and x^1 (first in table order).
    rhs : float, Fraction or None
        Right-hand side of (22) in its general form (case beta_p only), a mass in units of
        P normalised over the whole table, as in the paper's Section 8.
    records : tuple
        Index labels of the group's records, table order.
    d_tilde : tuple
        Announced d~ = D~_1 (binary) or the announced distributions, per record.
    """

    key: tuple
    n_records: int
    beta_star: object
    case: str
    beta0: object
    beta1: object
    betap: object
    beta_min: object
    c_star: object
    achieved: object
    x0: object
    x1: object
    rhs: object
    records: tuple
    d_tilde: tuple

    def to_dict(self) -> dict:
        def num(v):
            return None if v is None else float(v)

        return {
            "key": list(self.key), "n_records": self.n_records,
            "beta_star": num(self.beta_star), "case": self.case,
            "beta0": num(self.beta0), "beta1": num(self.beta1), "betap": num(self.betap),
            "beta_min": num(self.beta_min), "c_star": num(self.c_star),
            "achieved": num(self.achieved), "x0": self.x0, "x1": self.x1,
            "rhs": num(self.rhs), "records": list(self.records),
            "d_tilde": [num(v) if not isinstance(v, tuple) else [num(w) for w in v]
                        for v in self.d_tilde],
        }


_GROUP_NUMBERS = ("beta_star", "beta0", "beta1", "betap", "beta_min", "c_star", "achieved", "rhs")


@dataclass(frozen=True, eq=False)
class OptimalPrivacy:
    """The optimal announced rule for a table and a fidelity constraint.

    Attributes
    ----------
    table : DecisionTable
    fidelity : Delta, Alpha or Bounds
    beta_star : float or Fraction
        beta* = max over QID groups of beta*_T (Lemma 3); a Fraction when ``exact``.
    achieved : MaxConfidence
        The announced rule's maximum confidence, recomputed from D~ after solving
        (never above ``beta_star``).
    method : str
        "closed_form" or "lp".
    exact : bool
    """

    table: DecisionTable = field(repr=False)
    fidelity: object
    beta_star: object
    achieved: MaxConfidence
    method: str
    exact: bool
    _groups: pd.DataFrame = field(repr=False)
    _d_tilde: np.ndarray = field(repr=False)
    _details: pd.DataFrame = field(repr=False)

    @property
    def gamma_star(self) -> float:
        """The equivalent minimum uncertainty -log beta* (Appendix C)."""
        return -math.log(float(self.beta_star)) + 0.0

    @property
    def d_tilde(self) -> np.ndarray:
        """The announced D~ as an (n_records, n_outcomes) array in table order (read-only)."""
        return self._d_tilde

    @property
    def binding_group(self) -> tuple:
        """x_U of the (first) group whose beta*_T equals beta*."""
        values = self._groups["beta_star"].to_numpy()
        hit = [i for i, v in enumerate(values) if v is not None and v == self.beta_star
               and not (isinstance(v, float) and math.isnan(v))]
        return self.table.group_keys[hit[0]]

    @property
    def announced(self) -> pd.DataFrame:
        """The table's frame with the announced rule added: column ``d_tilde`` holding
        d~(x) = D~_1(x) for binary tables, ``d_tilde[a]`` per outcome otherwise."""
        out = self.table.frame.copy()
        taken = set(out.columns)
        if self.table.is_binary:
            out[_fresh("d_tilde", taken)] = self._d_tilde[:, 1]
        else:
            for j, a in enumerate(self.table.outcomes):
                out[_fresh(f"d_tilde[{a}]", taken)] = self._d_tilde[:, j]
        return out

    @property
    def details(self) -> pd.DataFrame:
        """Record-level diagnostics (Table 4 of the paper): normalised bounds on D~_1,
        max'_1, max'_0, min'_1 (at beta_p) and the announced d~, indexed like the table."""
        return self._details.copy()

    @cached_property
    def groups(self) -> tuple:
        """One :class:`GroupResult` per QID group, in group order."""
        codes = self.table.group_codes
        order = np.argsort(codes, kind="stable")
        bounds = np.searchsorted(codes[order], np.arange(self.table.n_groups + 1))
        labels = [native(v) for v in self.table.index]
        announced = self._d_tilde[:, 1] if self.table.is_binary else self._d_tilde
        frame = self._groups
        out = []
        for g in range(self.table.n_groups):
            rows = order[bounds[g]:bounds[g + 1]]
            row = frame.iloc[g]
            values = {k: _cell(row[k]) for k in _GROUP_NUMBERS}
            out.append(GroupResult(
                key=self.table.group_keys[g], n_records=int(row["n_records"]),
                case=row["case"], x0=_cell(row["x0"]), x1=_cell(row["x1"]),
                records=tuple(labels[r] for r in rows),
                d_tilde=tuple(_as_native(announced[r]) for r in rows), **values,
            ))
        return tuple(out)

    def group(self, key) -> GroupResult:
        """The :class:`GroupResult` of the group with public value ``key``."""
        key = key if isinstance(key, tuple) else (key,)
        try:
            return self.groups[self.table.group_keys.index(key)]
        except ValueError:
            raise InvalidParameterError(
                f"The 'key' parameter of OptimalPrivacy.group must be a QID value of the table. "
                f"Got {key!r} instead."
            ) from None

    def to_frame(self) -> pd.DataFrame:
        """One row per QID group: public columns, n_records, beta_star, case, beta0, beta1,
        betap, beta_min, c_star, achieved, x0, x1, rhs."""
        return self._groups.copy()

    def to_dict(self) -> dict:
        frame = self._groups
        cases = frame["case"].value_counts().to_dict()
        return {
            "beta_star": float(self.beta_star),
            "beta_star_exact": str(self.beta_star) if isinstance(self.beta_star, Fraction) else None,
            "gamma_star": self.gamma_star,
            "method": self.method,
            "exact": self.exact,
            "fidelity": self.fidelity.to_dict(),
            "binding_group": list(self.binding_group),
            "achieved": self.achieved.to_dict(),
            "n_groups": self.table.n_groups,
            "cases": {str(k): int(v) for k, v in cases.items()},
            "groups": [g.to_dict() for g in self.groups],
        }


def _fresh(name: str, taken: set) -> str:
    while name in taken:
        name += "_"
    taken.add(name)
    return name


def _cell(value):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return native(value)


def _as_native(value):
    if isinstance(value, np.ndarray):
        return tuple(_cell(v) for v in value)
    return _cell(value)


# =========================================================================================
# Public functions
# =========================================================================================

def _check_bool(value, name: str, owner: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise param_error(name, owner, "be True or False", value)
    return bool(value)


def _working(table: DecisionTable, bounds, exact: bool):
    """Normalised P, bounds on D~_1 and the true d in working order."""
    layout = table._layout
    weights = table._exact_weights if exact else table.weights
    decisions = table._exact_decisions if exact else table.decisions
    p = weights[layout.rows]
    p = p / layout.seg.spread(layout.seg.sum(p))
    rows = layout.rows
    return p, bounds.lower[rows, 1], bounds.upper[rows, 1], decisions[rows, 1]


def _group_frame(table: DecisionTable, exact: bool, columns: dict) -> pd.DataFrame:
    """The per-group frame; ``columns`` maps names to arrays over groups with mass.

    Numbers are floats (NaN for groups without mass) or, when exact, Fractions (None).
    """
    layout = table._layout
    n_groups = table.n_groups
    keys = table.group_key_frame()
    data = {name: keys[name] for name in keys.columns}
    n_records = np.zeros(n_groups, dtype=int)
    n_records[layout.groups] = layout.seg.lengths
    data["n_records"] = n_records
    data["weight"] = np.bincount(table.group_codes, weights=table.weights, minlength=n_groups)
    for name, values in columns.items():
        if name in _LABEL_COLUMNS or exact:
            col = np.full(n_groups, "empty" if name == "case" else None, dtype=object)
        else:
            col = np.full(n_groups, np.nan)
        col[layout.groups] = values
        data[name] = col
    return pd.DataFrame(data)


_LABEL_COLUMNS = ("case", "x0", "x1")


def optimal_privacy(
    table: DecisionTable,
    fidelity,
    *,
    exact: bool = False,
    method: str = "auto",
) -> OptimalPrivacy:
    """The announced rule D~ with the strongest privacy (smallest beta) under a fidelity.

    Parameters
    ----------
    table : DecisionTable
    fidelity : Delta, Alpha or Bounds
        How far D~ may move from D (section 5.2).
    exact : bool, default False
        Solve with Fractions (floats read as the decimal they print as, e.g. 0.9 = 9/10):
        ``beta_star`` and every per-group value are then Fractions and the final check
        achieved <= beta* is exact.  Pure-Python arithmetic: for audits of small tables.
    method : {"auto", "closed_form", "lp"}, default "auto"
        "closed_form" is the corrected Algorithm 1 (two outcomes only); "lp" the LP
        reference (needs scipy); "auto" picks the closed form for two outcomes and the LP
        otherwise (the paper has no closed form beyond two outcomes, spec 1.5).

    Returns
    -------
    OptimalPrivacy
        ``.beta_star`` (Lemma 3: the max over groups), ``.groups`` (per-group
        :class:`GroupResult`), ``.announced`` (the frame with d~ added), ``.achieved``
        (the verified maximum confidence of D~), ``.to_frame()``, ``.to_dict()``.

    Raises
    ------
    InvalidParameterError
        Bad fidelity or method; ``method="closed_form"`` with more than two outcomes.
    InfeasibleError
        The fidelity bounds admit no distribution for some record.
    ImportError
        ``method="lp"`` without scipy.

    Notes
    -----
    Per group T (P normalised to sum 1, bounds L <= D~_1 <= U after normalisation):
    thr_a = max_x P(x) D~_a(x)_min, max'_a(x) = min(P(x) D~_a(x)_max, thr_a) / P(x),
    beta_a = thr_a / sum_x P(x) max'_a(x) (0 when thr_a = 0), beta_p = thr_1 + thr_0,
    beta_min = max_x P(x), and beta*_T = max{beta_0, beta_1, beta_p, beta_min}.
    D~ is max'_0 (case beta_0), max'_1 (case beta_1), ALLOCATION with the general RHS
    thr_1/beta_p - sum_{x in {x^0, x^1}} P(x) D~_1(x) (case beta_p), or a constant/fixed-beta
    solution at beta_min (floor case).  A group whose beta*_T reaches C*_T announces D itself
    when D is within the bounds (Lemma 4: it is optimal, and any change only costs fidelity).  Cost: O(n) plus one sort in the rare floor groups
    whose bounds share no common value.

    References
    ----------
    Chen, Golubchik, Pal, section 6.1 (OPT, eqs. 16a-16f), section 7.1 (Lemma 3),
    section 7.3 (Theorem 1, Algorithm 1, eq. 22), Lemma 5; corrections in the spec, 5.7
    and 10.1 (E1-E4).

    Examples
    --------
    The Section 8 example (populations 12, 5, 3 and 9, 7, 4; delta = 0.9):

    >>> import pandas as pd
    >>> from fractions import Fraction
    >>> df = pd.DataFrame({
    ...     "gender": ["F", "F", "F", "M", "M", "M"],
    ...     "income": ["<100k", "100-200k", ">200k"] * 2,
    ...     "population": [12, 5, 3, 9, 7, 4],
    ...     "d": [0, 0, 1, 0, 0.5, 1]})
    >>> table = DecisionTable.from_frame(df, public="gender", sensitive="income",
    ...                                  weight="population", decision="d")
    >>> result = optimal_privacy(table, Delta(0.9), exact=True)
    >>> result.beta_star, [g.case for g in result.groups]
    (Fraction(27, 40), ['betap', 'beta0'])
    >>> [float(v) for v in result.announced["d_tilde"]]
    [0.1, 0.02, 0.9, 0.1, 0.4, 0.9]
    >>> round(optimal_privacy(table, Delta(0.9)).beta_star, 6)
    0.675
    """
    owner = "optimal_privacy"
    require_table(table, owner)
    _check_fidelity(fidelity, owner)
    exact = _check_bool(exact, "exact", owner)
    if method not in ("auto", "closed_form", "lp"):
        raise param_error("method", owner, "be 'auto', 'closed_form' or 'lp'", method)
    if method == "closed_form" and not table.is_binary:
        raise param_error(
            "method", owner,
            f"be 'lp' or 'auto' for a table with {len(table.outcomes)} outcomes (Theorem 1 is "
            "binary only)", method,
        )
    if method == "lp" or not table.is_binary:
        if exact:
            raise param_error("exact", owner, "be False with the LP reference", exact)
        from .lp import lp_reference

        return lp_reference(table, fidelity)

    bounds = fidelity_bounds(table, fidelity, exact=exact)
    layout = table._layout
    p, L, U, d_true = _working(table, bounds, exact)
    decisions = table._exact_decisions if exact else table.decisions
    c_star = group_max_confidence(table, confidence_matrix(table, decisions, exact=exact))
    sol = _solve(p, L, U, d_true, c_star[layout.groups], layout.seg, exact)
    th = sol.theorem

    d1 = np.minimum(np.maximum(decisions[:, 1], bounds.lower[:, 1]), bounds.upper[:, 1])
    d1 = d1.copy()
    d1[layout.rows] = sol.d1
    d_tilde = np.column_stack([1 - d1, d1])
    d_tilde.flags.writeable = False

    beta_star_seg = th.beta_star
    conf = confidence_matrix(table, d_tilde, exact=exact)
    achieved_group = group_max_confidence(table, conf)
    _verify(table, achieved_group[layout.groups], beta_star_seg, exact)

    index = table.index
    groups = _group_frame(table, exact, {
        "beta_star": beta_star_seg,
        "case": [CASES[c] for c in sol.case],
        "beta0": th.beta0, "beta1": th.beta1, "betap": th.betap, "beta_min": th.beta_min,
        "c_star": c_star[layout.groups],
        "achieved": achieved_group[layout.groups],
        "x0": [native(index[r]) for r in layout.rows[sol.x0]],
        "x1": [native(index[r]) for r in layout.rows[sol.x1]],
        # RHS is a probability mass: report it in the units of P normalised over the table
        "rhs": np.where(sol.case == 2, sol.rhs * _group_share(table, exact), None if exact else np.nan),
    })

    columns = {"lower": bounds.lower[:, 1], "upper": bounds.upper[:, 1]}
    for name, values in (("max_prime_1", th.max_mass1 / p), ("max_prime_0", th.max_mass0 / p),
                         ("min_prime_1", sol.min_mass1 / p)):
        col = np.full(table.n_records, None if exact else np.nan, dtype=object if exact else float)
        col[layout.rows] = values
        columns[name] = col
    columns["d_tilde"] = d1
    details = pd.DataFrame(columns, index=table.index)

    beta_star = max(beta_star_seg) if exact else float(np.max(beta_star_seg))
    return OptimalPrivacy(
        table=table, fidelity=fidelity, beta_star=beta_star,
        achieved=_max_confidence(table, conf), method="closed_form", exact=exact,
        _groups=groups, _d_tilde=d_tilde, _details=details,
    )


def _group_share(table: DecisionTable, exact: bool) -> np.ndarray:
    """P(T) = sum_{x in T} P(x) / sum_x P(x) of every group with mass."""
    layout = table._layout
    weights = table._exact_weights if exact else table.weights
    return layout.seg.sum(weights[layout.rows]) / weights.sum()


def _verify(table: DecisionTable, achieved, beta_star, exact: bool) -> None:
    """Spec 5.7, step 7: the announced rule must attain no more than the claimed beta*."""
    if exact:
        bad = _bool(achieved > beta_star)
    else:
        bad = achieved > beta_star * (1 + VERIFY_REL) + VERIFY_ABS
    if np.any(bad):
        g = int(np.flatnonzero(bad)[0])
        raise RuntimeError(
            f"internal error: the announced rule of QID group "
            f"{table.group_keys[table._layout.groups[g]]!r} reaches confidence "
            f"{float(achieved[g])!r} above its beta* {float(beta_star[g])!r}; please report this input"
        )


# -- properties of the solution: [beta_min, C*], curves, targets -----------------------------
@dataclass(frozen=True, eq=False)
class TradeoffRegion:
    """The privacy/fidelity trade-off region [beta_min, C*] (Lemmas 4-6).

    Below ``beta_min`` no announced rule exists (Lemma 5 with Lemma 3); from ``c_star`` on
    the true rule D can be released (Lemma 4).  ``groups`` has both values per QID group.
    """

    beta_min: object
    c_star: object
    groups: pd.DataFrame = field(repr=False)

    def to_frame(self) -> pd.DataFrame:
        return self.groups.copy()

    def to_dict(self) -> dict:
        return {
            "beta_min": float(self.beta_min), "c_star": float(self.c_star),
            "groups": self.groups.to_dict(orient="records"),
        }


def tradeoff_region(table: DecisionTable, *, exact: bool = False) -> TradeoffRegion:
    """beta_min = max_x P(x|T) (Lemma 5) and C* (Definition 7) per group and overall.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"g": ["F"] * 3 + ["M"] * 3, "s": [1, 2, 3] * 2,
    ...                    "w": [12, 5, 3, 9, 7, 4], "d": [0, 0, 1, 0, 0.5, 1]})
    >>> t = DecisionTable.from_frame(df, public="g", sensitive="s", weight="w", decision="d")
    >>> r = tradeoff_region(t, exact=True)
    >>> r.beta_min, r.c_star, [str(v) for v in r.groups["c_star"]]
    (Fraction(3, 5), Fraction(1, 1), ['1', '18/25'])
    """
    owner = "tradeoff_region"
    require_table(table, owner)
    exact = _check_bool(exact, "exact", owner)
    layout = table._layout
    weights = table._exact_weights if exact else table.weights
    p = weights[layout.rows]
    beta_min = layout.seg.max(p) / layout.seg.sum(p)
    decisions = table._exact_decisions if exact else table.decisions
    c_star = group_max_confidence(table, confidence_matrix(table, decisions, exact=exact))[layout.groups]
    frame = table.group_key_frame()
    for name, values in (("beta_min", beta_min), ("c_star", c_star)):
        col = np.full(table.n_groups, None if exact else np.nan, dtype=object if exact else float)
        col[layout.groups] = values
        frame[name] = col
    top = (lambda v: max(v)) if exact else (lambda v: float(np.max(v)))
    return TradeoffRegion(beta_min=top(beta_min), c_star=top(c_star), groups=frame)


def _fidelity_kind(kind: str, owner: str):
    if kind not in ("delta", "alpha"):
        raise param_error("kind", owner, "be 'delta' or 'alpha'", kind)
    return Delta if kind == "delta" else Alpha


def _beta_star_groups(table: DecisionTable, fidelity) -> _Theorem1:
    bounds = fidelity_bounds(table, fidelity)
    p, L, U, _ = _working(table, bounds, False)
    return _theorem1(p, L, U, table._layout.seg, False)


@dataclass(frozen=True, eq=False)
class TradeoffCurve:
    """beta*(fidelity): the optimal-privacy curve of Fig. 5 (spec 6.7).

    ``points`` has one row per fidelity value (kind, beta_star, the binding group's public
    values and its case); ``by_group`` one row per (value, group).
    """

    kind: str
    points: pd.DataFrame
    by_group: pd.DataFrame = field(repr=False)

    def to_frame(self, *, per_group: bool = False) -> pd.DataFrame:
        return (self.by_group if per_group else self.points).copy()

    def to_dict(self) -> dict:
        return {"kind": self.kind, "points": self.points.to_dict(orient="records")}

    def plot(self, ax=None):
        """Plot beta* against the fidelity per group (needs matplotlib, the ``plot`` extra)."""
        try:
            import matplotlib.pyplot as plt
        except ImportError as err:  # pragma: no cover - exercised without the extra
            raise ImportError(
                "TradeoffCurve.plot needs matplotlib; install skyprivacy[plot]."
            ) from err
        if ax is None:
            _, ax = plt.subplots()
        keys = [c for c in self.by_group.columns if c not in (self.kind, "beta_star", "case")]
        for key, part in self.by_group.groupby(keys, sort=False):
            ax.plot(part[self.kind], part["beta_star"], label=str(key))
        ax.set_xlabel(self.kind)
        ax.set_ylabel("optimal beta*")
        ax.legend()
        return ax


def tradeoff_curve(table: DecisionTable, values: Sequence[float] | None = None, *,
                   kind: str = "delta") -> TradeoffCurve:
    """The optimal privacy beta* as a function of the fidelity level (Fig. 5).

    Parameters
    ----------
    table : DecisionTable
    values : sequence of float, optional
        Fidelity levels in [0, 1]; default 0, 0.05, ..., 1.
    kind : {"delta", "alpha"}, default "delta"

    Returns
    -------
    TradeoffCurve
        Costs O(n) per value (the closed form, without building D~).

    Notes
    -----
    beta*(delta) is non-decreasing: the fidelity constraints nest.  It equals beta_min at
    delta = 0 and C* at delta = 1 (spec 5.7).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"g": ["F"] * 3, "s": [1, 2, 3], "w": [12, 5, 3], "d": [0, 0, 1]})
    >>> t = DecisionTable.from_frame(df, public="g", sensitive="s", weight="w", decision="d")
    >>> curve = tradeoff_curve(t, [0, 0.75, 0.9, 1])
    >>> [round(v, 6) for v in curve.points["beta_star"]], list(curve.points["case"])
    ([0.6, 0.610169, 0.675, 1.0], ['beta_min', 'beta0', 'betap', 'beta1'])
    """
    owner = "tradeoff_curve"
    require_table(table, owner)
    make = _fidelity_kind(kind, owner)
    if values is None:
        values = np.linspace(0, 1, 21)
    values = [make(v) for v in (values.tolist() if isinstance(values, np.ndarray) else values)]
    if not table.is_binary:
        raise param_error("table", owner, "have two outcomes (Theorem 1 is binary only)",
                          f"{len(table.outcomes)} outcomes")
    layout = table._layout
    keys = table.group_key_frame()
    rows, points = [], []
    for fid in values:
        level = float(getattr(fid, kind))
        th = _beta_star_groups(table, fid)
        best = int(np.argmax(th.beta_star))
        points.append({kind: level, "beta_star": float(th.beta_star[best]),
                       **keys.iloc[layout.groups[best]].to_dict(), "case": CASES[th.case[best]]})
        part = keys.iloc[layout.groups].copy()
        part.insert(0, kind, level)
        part["beta_star"] = th.beta_star
        part["case"] = [CASES[c] for c in th.case]
        rows.append(part)
    return TradeoffCurve(kind=kind, points=pd.DataFrame(points),
                         by_group=pd.concat(rows, ignore_index=True))


@dataclass(frozen=True, eq=False)
class MaxFidelity:
    """The largest fidelity level whose optimal privacy meets a target beta (extension).

    ``value`` is delta (or alpha); ``result`` the :class:`OptimalPrivacy` at that level.
    """

    kind: str
    value: float
    beta_target: float
    result: OptimalPrivacy = field(repr=False)

    @property
    def beta_star(self):
        return self.result.beta_star

    def to_dict(self) -> dict:
        return {"kind": self.kind, "value": self.value, "beta_target": self.beta_target,
                "beta_star": float(self.beta_star)}


def max_fidelity_for_beta(table: DecisionTable, *, beta=None, gamma=None, kind: str = "delta",
                          tol: float = 1e-9) -> MaxFidelity:
    """The largest delta (or alpha) at which the optimal announced rule meets beta.

    Not in the paper (spec 9.2, extension): bisection on the fidelity level, valid because
    beta*(delta) is non-decreasing.

    Parameters
    ----------
    table : DecisionTable
    beta, gamma : float
        Exactly one: the target maximum confidence, or minimum uncertainty (beta = e^-gamma).
    kind : {"delta", "alpha"}, default "delta"
    tol : float, default 1e-9
        Width of the final bisection bracket.

    Returns
    -------
    MaxFidelity
        ``value`` = 1 when the target is at least C* (D itself qualifies, Lemma 4).

    Raises
    ------
    InfeasibleError
        The target is below beta_min of some QID group: no fidelity reaches it (Lemma 5).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"g": ["F"] * 3, "s": [1, 2, 3], "w": [12, 5, 3], "d": [0, 0, 1]})
    >>> t = DecisionTable.from_frame(df, public="g", sensitive="s", weight="w", decision="d")
    >>> round(max_fidelity_for_beta(t, beta=0.675).value, 6)
    0.9
    >>> max_fidelity_for_beta(t, beta=0.5)
    Traceback (most recent call last):
    ...
    skyprivacy.errors.InfeasibleError: The target beta=0.5 is below beta_min=0.6 of QID group ('F',): no announced rule reaches it at any fidelity (Lemma 5).
    """
    owner = "max_fidelity_for_beta"
    require_table(table, owner)
    target = float(resolve_beta(beta, gamma, owner))
    make = _fidelity_kind(kind, owner)
    if isinstance(tol, bool) or not isinstance(tol, (Real, np.floating)) or not 0 < tol < 1:
        raise param_error("tol", owner, "be in (0, 1)", tol)
    region = tradeoff_region(table)
    floor = region.groups["beta_min"].to_numpy(dtype=float)
    if target < region.beta_min * (1 - _TIE_TOL):
        g = int(np.nanargmax(floor))
        raise InfeasibleError(
            f"The target beta={target!r} is below beta_min={round(float(floor[g]), 12)!r} of QID "
            f"group {table.group_keys[g]!r}: no announced rule reaches it at any fidelity (Lemma 5)."
        )
    if target >= region.c_star:
        level = 1.0
    else:
        low, high = 0.0, 1.0
        while high - low > tol:
            mid = (low + high) / 2
            if float(np.max(_beta_star_groups(table, make(mid)).beta_star)) <= target * (1 + _TIE_TOL):
                low = mid
            else:
                high = mid
        level = low
    return MaxFidelity(kind=kind, value=level, beta_target=target,
                       result=optimal_privacy(table, make(level)))


@dataclass(frozen=True, eq=False)
class FixedBeta:
    """Result of :func:`feasible_at_beta`: per-group feasibility and, if all are feasible,
    an announced rule meeting beta (``d_tilde``, ``announced``); otherwise those are None."""

    table: DecisionTable = field(repr=False)
    beta: float
    feasible: bool
    groups: pd.DataFrame = field(repr=False)
    d_tilde: np.ndarray | None = field(repr=False)

    @property
    def announced(self) -> pd.DataFrame | None:
        if self.d_tilde is None:
            return None
        out = self.table.frame.copy()
        out[_fresh("d_tilde", set(out.columns))] = self.d_tilde[:, 1]
        return out

    def to_frame(self) -> pd.DataFrame:
        return self.groups.copy()

    def to_dict(self) -> dict:
        return {"beta": self.beta, "feasible": self.feasible,
                "infeasible_groups": [list(k) for k, ok in zip(self.table.group_keys,
                                                              self.groups["feasible"]) if not ok]}


def feasible_at_beta(table: DecisionTable, fidelity, *, beta=None, gamma=None) -> FixedBeta:
    """Is beta-maximum confidence reachable under the fidelity, and with which D~?

    An extension (spec 5.8, not in the paper): an exact fixed-beta feasibility test per
    group.  Groups whose clipped true rule already meets beta keep it (Lemma 4: for
    beta >= C* release D unchanged); the others get a witness from the fixed-beta solver.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"g": ["a", "a"], "s": [1, 2], "w": [0.9, 0.1], "d": [0.5, 0.5]})
    >>> t = DecisionTable.from_frame(df, public="g", sensitive="s", weight="w", decision="d")
    >>> feasible_at_beta(t, Delta(0.6), beta=0.5).feasible
    False
    >>> feasible_at_beta(t, Delta(0.6), beta=0.9).feasible
    True
    """
    owner = "feasible_at_beta"
    require_table(table, owner)
    _check_fidelity(fidelity, owner)
    target = float(resolve_beta(beta, gamma, owner))
    if not table.is_binary:
        raise param_error("table", owner, "have two outcomes", f"{len(table.outcomes)} outcomes")
    bounds = fidelity_bounds(table, fidelity)
    layout = table._layout
    seg = layout.seg
    p, L, U, _ = _working(table, bounds, False)
    clipped = np.minimum(np.maximum(table.decisions[:, 1], bounds.lower[:, 1]), bounds.upper[:, 1])
    d_clipped = np.column_stack([1 - clipped, clipped])
    keep = group_max_confidence(table, confidence_matrix(table, d_clipped, exact=False))[layout.groups]
    keep = keep <= target * (1 + VERIFY_REL)
    beta_arr = np.full(seg.count, target)
    possible = seg.max(p) <= target * (1 + VERIFY_REL)
    solve = possible & ~keep
    feasible = keep.copy()
    d1 = clipped.copy()
    if solve.any():
        rows = solve[seg.index]
        sub = Segments(seg.index[rows])
        ok, d_sub = _fixed_beta(p[rows], L[rows], U[rows], sub, np.maximum(beta_arr[solve], seg.max(p)[solve]), False)
        feasible[solve] = ok
        d1[layout.rows[rows]] = np.minimum(np.maximum(d_sub, L[rows]), U[rows])
    if feasible.any():
        # a float "feasible" is only believed once the rule it built is verified: near
        # beta = 1 the solver can accept a rule that still reaches confidence 1
        trial = np.column_stack([1 - d1, d1])
        achieved = group_max_confidence(table, confidence_matrix(table, trial, exact=False))
        over = achieved[layout.groups] > target * (1 + VERIFY_REL) + VERIFY_ABS
        feasible &= ~over
    frame = table.group_key_frame()
    col = np.ones(table.n_groups, dtype=bool)
    col[layout.groups] = feasible
    frame["feasible"] = col
    bm = np.full(table.n_groups, np.nan)
    bm[layout.groups] = seg.max(p)
    frame["beta_min"] = bm
    all_ok = bool(col.all())
    d_tilde = np.column_stack([1 - d1, d1]) if all_ok else None
    if d_tilde is not None:
        achieved = group_max_confidence(table, confidence_matrix(table, d_tilde, exact=False))
        _verify(table, achieved[layout.groups], np.full(seg.count, target), False)
        d_tilde.flags.writeable = False
    return FixedBeta(table=table, beta=target, feasible=all_ok, groups=frame, d_tilde=d_tilde)
