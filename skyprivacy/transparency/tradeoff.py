"""The privacy/fidelity trade-off of optimal privacy (Lemmas 4-6, Fig. 5, spec 5.8 and 9.2).

* :func:`tradeoff_region` - [beta_min, C*]: below beta_min no announced rule exists
  (Lemma 5), from C* on the true rule D itself can be released (Lemma 4);
* :func:`tradeoff_curve` - beta* as a function of the fidelity level (Fig. 5), O(n) per
  level through the kernels of :mod:`.kernels`;
* :func:`max_fidelity_for_beta` - the largest fidelity meeting a target beta (extension);
* :func:`feasible_at_beta` - an exact fixed-beta feasibility test with a witness (spec 5.8).

Drawing the curve is done at the edge, by :func:`skyprivacy.plotting.plot_tradeoff_curve`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pandas as pd

from .._core.display import Shown, head_rows, result_html, result_repr
from .._core.validation import Boolean, Interval, Options, validate_params
from ..errors import InfeasibleError, param_error
from ._segments import VERIFY_ABS, VERIFY_REL, Segments
from .certify import TARGET, confidence_matrix, group_max_confidence, resolve_beta
from .fidelity import FIDELITY, Alpha, Delta, fidelity_bounds
from .kernels import CASES, TIE_TOL, Theorem1, fixed_beta, theorem1
from .optimal import optimal_privacy
from .solution import OptimalPrivacy, fresh_column, verify, working
from .table import TABLE, DecisionTable

__all__ = [
    "TradeoffRegion",
    "TradeoffCurve",
    "MaxFidelity",
    "FixedBeta",
    "tradeoff_region",
    "tradeoff_curve",
    "max_fidelity_for_beta",
    "feasible_at_beta",
]


@dataclass(frozen=True, eq=False)
class TradeoffRegion:
    """The privacy/fidelity trade-off region [beta_min, C*] (Lemmas 4-6).

    Below ``beta_min`` no announced rule exists (Lemma 5 with Lemma 3); from ``c_star`` on
    the true rule D can be released (Lemma 4).  ``groups`` has both values per QID group.
    """

    beta_min: float | Fraction
    c_star: float | Fraction
    groups: pd.DataFrame = field(repr=False)

    def to_frame(self) -> pd.DataFrame:
        return self.groups.copy()

    def to_dict(self) -> dict:
        return {
            "beta_min": float(self.beta_min), "c_star": float(self.c_star),
            "groups": self.groups.to_dict(orient="records"),
        }

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, (("beta_min", self.beta_min), ("c_star", self.c_star),
                                  ("groups", len(self.groups))),
                     None, head_rows(self.to_frame), len(self.groups))


@validate_params({"table": TABLE, "exact": Boolean()})
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
    layout = table.layout
    weights = table.weight_array(exact=exact)
    p = weights[layout.rows]
    beta_min = layout.seg.max(p) / layout.seg.sum(p)
    decisions = table.decision_matrix(exact=exact)
    confidence = confidence_matrix(table, decisions, exact=exact)
    c_star = group_max_confidence(table, confidence)[layout.groups]
    frame = table.group_key_frame()
    for name, values in (("beta_min", beta_min), ("c_star", c_star)):
        col = np.full(table.n_groups, None if exact else np.nan, dtype=object if exact else float)
        col[layout.groups] = values
        frame[name] = col
    top = (lambda v: max(v)) if exact else (lambda v: float(np.max(v)))
    return TradeoffRegion(beta_min=top(beta_min), c_star=top(c_star), groups=frame)


_KIND = Options("delta", "alpha")


def _beta_star_groups(table: DecisionTable, fidelity) -> Theorem1:
    """Theorem 1's values of every group at one fidelity, without building D~."""
    bounds = fidelity_bounds(table, fidelity)
    p, L, U, _ = working(table, bounds, False)
    return theorem1(p, L, U, table.layout.seg, False)


@dataclass(frozen=True, eq=False)
class TradeoffCurve:
    """beta*(fidelity): the optimal-privacy curve of Fig. 5 (spec 6.7).

    ``points`` has one row per fidelity value (kind, beta_star, the binding group's public
    values and its case); ``by_group`` one row per (value, group).
    """

    kind: str
    points: pd.DataFrame
    by_group: pd.DataFrame = field(repr=False)

    @validate_params({"per_group": Boolean()})
    def to_frame(self, *, per_group: bool = False) -> pd.DataFrame:
        return (self.by_group if per_group else self.points).copy()

    def to_dict(self) -> dict:
        return {"kind": self.kind, "points": self.points.to_dict(orient="records")}

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, (("kind", self.kind), ("points", len(self.points))),
                     None, lambda n: self.points.head(n), len(self.points))


@validate_params({"table": TABLE, "kind": _KIND})
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
    make = Delta if kind == "delta" else Alpha
    levels = np.linspace(0, 1, 21).tolist() if values is None else values
    fidelities = [make(v) for v in (levels.tolist() if isinstance(levels, np.ndarray)
                                     else levels)]
    if not table.is_binary:
        raise param_error("table", owner, "have two outcomes (Theorem 1 is binary only)",
                          f"{len(table.outcomes)} outcomes")
    layout = table.layout
    keys = table.group_key_frame()
    rows, points = [], []
    for fid in fidelities:
        level = float(getattr(fid, kind))
        th = _beta_star_groups(table, fid)
        best = int(np.argmax(th.beta_star))
        points.append({kind: level, "beta_star": float(th.beta_star[best]),
                       **keys.iloc[layout.groups[best]].to_dict(),
                       "case": CASES[th.case[best]]})
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

    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, (("kind", self.kind), ("value", self.value),
                                  ("beta_target", self.beta_target),
                                  ("beta_star", self.beta_star)))


@validate_params({"table": TABLE, **TARGET, "kind": _KIND,
                  "tol": Interval("real", 0, 1, closed="neither")})
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
    skyprivacy.errors.InfeasibleError: The target beta=0.5 is below beta_min=0.6 of QID group
        ('F',): no announced rule reaches it at any fidelity (Lemma 5).
    """
    target = float(resolve_beta(beta, gamma, "max_fidelity_for_beta"))
    make = Delta if kind == "delta" else Alpha
    region = tradeoff_region(table)
    floor = region.groups["beta_min"].to_numpy(dtype=float)
    if target < region.beta_min * (1 - TIE_TOL):
        g = int(np.nanargmax(floor))
        raise InfeasibleError(
            f"The target beta={target!r} is below beta_min={round(float(floor[g]), 12)!r} of QID "
            f"group {table.group_keys[g]!r}: no announced rule reaches it at any fidelity "
            "(Lemma 5)."
        )
    if target >= region.c_star:
        level = 1.0
    else:
        low, high = 0.0, 1.0
        while high - low > tol:
            mid = (low + high) / 2
            reached = float(np.max(_beta_star_groups(table, make(mid)).beta_star))
            if reached <= target * (1 + TIE_TOL):
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
        out[fresh_column("d_tilde", set(out.columns))] = self.d_tilde[:, 1]
        return out

    def to_frame(self) -> pd.DataFrame:
        return self.groups.copy()

    def to_dict(self) -> dict:
        return {"beta": self.beta, "feasible": self.feasible,
                "infeasible_groups": [list(k) for k, ok in zip(self.table.group_keys,
                                                              self.groups["feasible"]) if not ok]}

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown("FEASIBLE" if self.feasible else "INFEASIBLE", bool(self.feasible),
                     (("beta", self.beta), ("groups", len(self.groups))),
                     None, head_rows(self.to_frame), len(self.groups))


@validate_params({"table": TABLE, "fidelity": FIDELITY, **TARGET})
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
    target = float(resolve_beta(beta, gamma, owner))
    if not table.is_binary:
        raise param_error("table", owner, "have two outcomes", f"{len(table.outcomes)} outcomes")
    bounds = fidelity_bounds(table, fidelity)
    layout = table.layout
    seg = layout.seg
    p, L, U, _ = working(table, bounds, False)
    clipped = np.minimum(np.maximum(table.decisions[:, 1], bounds.lower[:, 1]), bounds.upper[:, 1])
    d_clipped = np.column_stack([1 - clipped, clipped])
    clipped_conf = confidence_matrix(table, d_clipped, exact=False)
    keep = group_max_confidence(table, clipped_conf)[layout.groups]
    keep = keep <= target * (1 + VERIFY_REL)
    beta_arr = np.full(seg.count, target)
    possible = seg.max(p) <= target * (1 + VERIFY_REL)
    solve = possible & ~keep
    feasible = keep.copy()
    d1 = clipped.copy()
    if solve.any():
        rows = solve[seg.index]
        sub = Segments(seg.index[rows])
        floor = np.maximum(beta_arr[solve], seg.max(p)[solve])
        ok, d_sub = fixed_beta(p[rows], L[rows], U[rows], sub, floor, False)
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
        verify(table, achieved[layout.groups], np.full(seg.count, target), False)
        d_tilde.flags.writeable = False
    return FixedBeta(table=table, beta=target, feasible=all_ok, groups=frame, d_tilde=d_tilde)
