"""The solution of (OPT): the announced rule with its per-group optimum, and its checks.

:class:`OptimalPrivacy` is what :func:`~.optimal.optimal_privacy` (closed form) and
:func:`~.lp.lp_reference` (LP bisection) both return; :class:`GroupResult` is one QID group
of it (Lemma 3: groups are independent).  The helpers below build the per-group frame both
solvers share and verify a solver's output by recomputing its confidences (spec 5.7, step 7),
so the claimed beta* is always attained by the announced D~.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

import numpy as np
import pandas as pd

from .._core.display import Shown, head_rows, result_html, result_repr
from .._core.exact import native
from ..errors import InvalidParameterError
from ._segments import VERIFY_ABS, VERIFY_REL
from .certify import MaxConfidence
from .fidelity import Alpha, Bounds, Delta
from .kernels import as_bool
from .table import DecisionTable

__all__ = ["GroupResult", "OptimalPrivacy"]


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
_LABEL_COLUMNS = ("case", "x0", "x1")


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
    fidelity: Delta | Alpha | Bounds
    beta_star: float | Fraction
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
            out[fresh_column("d_tilde", taken)] = self._d_tilde[:, 1]
        else:
            for j, a in enumerate(self.table.outcomes):
                out[fresh_column(f"d_tilde[{a}]", taken)] = self._d_tilde[:, j]
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
            "beta_star_exact": (str(self.beta_star) if isinstance(self.beta_star, Fraction)
                                else None),
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

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, (("beta_star", self.beta_star), ("method", self.method),
                                  ("exact", self.exact),
                                  ("fidelity", type(self.fidelity).__name__),
                                  ("achieved_max_confidence", self.achieved.conf)),
                     f"binding group {self.binding_group}",
                     head_rows(self.to_frame), len(self._groups))


def fresh_column(name: str, taken: set) -> str:
    """``name``, with ``_`` appended until no column of ``taken`` has it (then taken)."""
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


def working(table: DecisionTable, bounds, exact: bool):
    """Normalised P, bounds on D~_1 and the true d in working order (the kernels' inputs)."""
    layout = table.layout
    weights = table.weight_array(exact=exact)
    decisions = table.decision_matrix(exact=exact)
    p = weights[layout.rows]
    p = p / layout.seg.spread(layout.seg.sum(p))
    rows = layout.rows
    return p, bounds.lower[rows, 1], bounds.upper[rows, 1], decisions[rows, 1]


def group_frame(table: DecisionTable, exact: bool, columns: dict) -> pd.DataFrame:
    """The per-group frame; ``columns`` maps names to arrays over groups with mass.

    Numbers are floats (NaN for groups without mass) or, when exact, Fractions (None).
    """
    layout = table.layout
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



def group_share(table: DecisionTable, exact: bool) -> np.ndarray:
    """P(T) = sum_{x in T} P(x) / sum_x P(x) of every group with mass."""
    layout = table.layout
    weights = table.weight_array(exact=exact)
    return layout.seg.sum(weights[layout.rows]) / weights.sum()


def verify(table: DecisionTable, achieved, beta_star, exact: bool) -> None:
    """Spec 5.7, step 7: the announced rule must attain no more than the claimed beta*."""
    if exact:
        bad = as_bool(achieved > beta_star)
    else:
        bad = achieved > beta_star * (1 + VERIFY_REL) + VERIFY_ABS
    if np.any(bad):
        g = int(np.flatnonzero(bad)[0])
        raise RuntimeError(
            f"internal error: the announced rule of QID group "
            f"{table.group_keys[table.layout.groups[g]]!r} reaches confidence "
            f"{float(achieved[g])!r} above its beta* {float(beta_star[g])!r}; please report "
            "this input"
        )
