"""Fidelity (utility) constraints on the announced decision rule (section 5.2, eqs. 9-13).

A fidelity constraint says how far the announced D~ may move from the true D:

* :class:`Delta` - delta-fidelity, |D~_a(x) - D_a(x)| <= 1 - delta (Definition 5, eq. 12);
* :class:`Alpha` - alpha-fidelity, alpha <= D~_a(x) / D_a(x) <= 1/alpha (Definition 6, eq. 13);
* :class:`Bounds` - the general box D~_a(x)_min <= D~_a(x) <= D~_a(x)_max (eq. 11).

:func:`fidelity_bounds` turns any of them into per-record, per-outcome bounds and makes the
bounds of the outcomes mutually consistent (spec 3.1, "binary normalisation"), which
Theorem 1 silently assumes (spec 10.1, E4).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from .._core.display import Shown, head_rows, result_html, result_repr
from .._core.encoding import require_columns
from .._core.exact import as_number, exact_array, native
from .._core.validation import Boolean, InstanceOf, Interval, check, validate_params
from ..errors import InfeasibleError, SchemaError, param_error
from .table import TABLE, DecisionTable

__all__ = ["Delta", "Alpha", "Bounds", "FidelityBounds", "fidelity_bounds"]

_BOUND_TOL = 1e-12
_ROUNDING = 1e-15
_LEVEL = Interval("real", 0, 1)


@dataclass(frozen=True)
class Delta:
    """delta-fidelity: every announced probability within 1 - delta of the true one.

    Definition 5, eq. (9) and its bound form (12), clipped to [0, 1] as in Table 4.
    ``Delta(1)`` announces D itself; ``Delta(0)`` imposes nothing.

    Examples
    --------
    >>> Delta(0.9)
    Delta(delta=0.9)
    >>> Delta(1.5)
    Traceback (most recent call last):
    ...
    skyprivacy.errors.InvalidParameterError: The 'delta' parameter of Delta must be in [0, 1]. Got
        1.5 instead.
    """

    delta: float

    def __post_init__(self):
        object.__setattr__(self, "delta", check(self.delta, _LEVEL, name="delta", owner="Delta"))

    def to_dict(self) -> dict:
        return {"kind": "delta", "delta": float(self.delta)}


@dataclass(frozen=True)
class Alpha:
    """alpha-fidelity: every announced probability within a factor alpha of the true one.

    Definition 6, eq. (10) in its multiplied-out form (13): alpha*D <= D~ <= min(1, D/alpha).
    A decision that is exactly 0 or 1 cannot move at all under alpha > 0 (spec 3.1).
    """

    alpha: float

    def __post_init__(self):
        object.__setattr__(self, "alpha", check(self.alpha, _LEVEL, name="alpha", owner="Alpha"))

    def to_dict(self) -> dict:
        return {"kind": "alpha", "alpha": float(self.alpha)}


@dataclass(frozen=True, eq=False)
class Bounds:
    """General fidelity bounds (eq. 11), one interval per record and outcome.

    Parameters
    ----------
    lower, upper
        Either column names of the table's frame, array-likes or Series aligned with the
        table's index.  A 1-d value (or one column name) bounds the positive outcome of a
        binary table, D~_1(x) = d~(x); a 2-d value, a DataFrame or a list of column names
        gives one column per outcome in the table's outcome order.
    """

    lower: object
    upper: object

    def to_dict(self) -> dict:
        return {"kind": "bounds"}


@dataclass(frozen=True, eq=False)
class FidelityBounds:
    """Normalised per-record bounds on the announced distribution.

    Attributes
    ----------
    lower, upper : ndarray, shape (n_records, n_outcomes)
        D~_a(x)_min and D~_a(x)_max after normalisation (floats, or Fractions when exact).
    outcomes : tuple
    index : pandas.Index
        The table's index.
    """

    lower: np.ndarray
    upper: np.ndarray
    outcomes: tuple
    index: pd.Index

    def to_frame(self) -> pd.DataFrame:
        data = {}
        for j, a in enumerate(self.outcomes):
            data[f"lower[{a}]"] = self.lower[:, j]
            data[f"upper[{a}]"] = self.upper[:, j]
        return pd.DataFrame(data, index=self.index)

    def to_dict(self) -> dict:
        return {
            "outcomes": list(self.outcomes),
            "lower": [[float(v) for v in row] for row in self.lower],
            "upper": [[float(v) for v in row] for row in self.upper],
        }

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, (("groups", len(self.index)), ("outcomes", self.outcomes)),
                     None, head_rows(self.to_frame), len(self.index))


#: The declared type of every ``fidelity`` parameter of the subpackage.
FIDELITY = InstanceOf(Delta, Alpha, Bounds, name="a Delta, Alpha or Bounds")


def _read_bound(table: DecisionTable, spec, name: str, exact: bool) -> np.ndarray:
    """One side of a :class:`Bounds` as a (n,) or (n, n_outcomes) array in table order."""
    frame = table.frame
    names = None
    if isinstance(spec, str):
        names = [spec]
    elif isinstance(spec, (list, tuple)) and spec and all(isinstance(s, str) for s in spec):
        names = list(spec)
    if names is not None:
        require_columns(frame, names)
        spec = frame[names[0]] if len(names) == 1 else frame[names]
    if isinstance(spec, (pd.Series, pd.DataFrame)):
        if not spec.index.equals(table.index):
            if not spec.index.is_unique or table.index.difference(spec.index).size:
                raise SchemaError(
                    f"The {name} bounds do not cover every record of the table (aligned by index)."
                )
            spec = spec.reindex(table.index)
        spec = spec.to_numpy(dtype=object if exact else float)
    arr = np.asarray(spec, dtype=object if exact else float)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    k = len(table.outcomes)
    expected = (table.n_records,) if arr.ndim == 1 else (table.n_records, k)
    if arr.ndim not in (1, 2) or arr.shape != expected or (arr.ndim == 1 and k != 2):
        raise param_error(
            "fidelity", "fidelity_bounds",
            f"give {name} bounds of shape ({table.n_records},) for a binary table or "
            f"({table.n_records}, {k})", arr.shape,
        )
    if exact:
        return exact_array(arr)
    if not np.isfinite(arr).all():
        raise param_error("fidelity", "fidelity_bounds", f"give finite {name} bounds", "NaN")
    return arr


def _raw_bounds(table: DecisionTable, fidelity, exact: bool):
    d = table.decision_matrix(exact=exact)
    # ``one`` is a Fraction on the exact path, where ``d`` is an object array of Fractions;
    # numpy's stubs admit no Python object but numbers as an operand (the ignores below)
    one = Fraction(1) if exact else 1.0
    zero = one * 0
    if isinstance(fidelity, Delta):
        slack = one - as_number(fidelity.delta, exact)
        return (np.maximum(d - slack, zero),  # type: ignore[arg-type]
                np.minimum(d + slack, one))  # type: ignore[arg-type]
    if isinstance(fidelity, Alpha):
        alpha = as_number(fidelity.alpha, exact)
        lower = d * alpha
        upper = (np.minimum(d / alpha, one) if alpha > 0  # type: ignore[arg-type]
                 else np.full(d.shape, one, dtype=d.dtype))
        return lower, upper
    lower = _read_bound(table, fidelity.lower, "lower", exact)
    upper = _read_bound(table, fidelity.upper, "upper", exact)
    if lower.ndim != upper.ndim:
        raise param_error(
            "fidelity", "fidelity_bounds", "give lower and upper bounds of the same shape",
            (lower.shape, upper.shape),
        )
    if lower.ndim == 1:
        # a 1-d bound constrains d~ = D~_1; D~_0 = 1 - D~_1 inherits the mirrored bound
        lower, upper = (
            np.column_stack([one - upper, lower]), np.column_stack([one - lower, upper])
        )
    outside = (lower < 0) | (upper > 1)
    if np.any(outside):
        row = int(np.flatnonzero(outside.any(axis=1))[0])
        raise param_error(
            "fidelity", "fidelity_bounds", "give bounds inside [0, 1]",
            f"{[round(float(v), 12) for v in lower[row]]} to "
            f"{[round(float(v), 12) for v in upper[row]]} at index "
            f"{native(table.index[row])!r}",
        )
    return lower, upper


@validate_params({"table": TABLE, "fidelity": FIDELITY, "exact": Boolean()})
def fidelity_bounds(table: DecisionTable, fidelity, *, exact: bool = False) -> FidelityBounds:
    """Per-record bounds D~_a(x)_min, D~_a(x)_max implied by a fidelity constraint.

    Parameters
    ----------
    table : DecisionTable
    fidelity : Delta, Alpha or Bounds
    exact : bool, default False
        Compute with Fractions (floats read as the decimal they print as).

    Returns
    -------
    FidelityBounds

    Raises
    ------
    InvalidParameterError
        ``fidelity`` is not a Delta, Alpha or Bounds, or bounds are malformed.
    InfeasibleError
        After normalisation some record has lower > upper: no distribution meets the bounds.

    Notes
    -----
    delta: min = max(0, D - (1-delta)), max = min(1, D + (1-delta)) (eq. 12, clipped).
    alpha: min = alpha*D, max = min(1, D/alpha), max = 1 when alpha = 0 (eq. 13).
    Then every outcome's bounds are made consistent with the others':
    lower_a <- max(lower_a, 1 - sum_{b != a} upper_b),
    upper_a <- min(upper_a, 1 - sum_{b != a} lower_b).
    For two outcomes this is the spec's L = max(D~_1min, 1 - D~_0max), U = min(D~_1max, 1 - D~_0min)
    (spec 3.1); it is a no-op for clipped delta bounds and essential for alpha bounds (E4).

    References
    ----------
    Chen, Golubchik, Pal, section 5.2, Definitions 5-6, eqs. (9)-(13); Appendix H (bounds
    taken as complementary).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"g": ["M", "M"], "s": ["a", "b"], "w": [1, 1], "d": [0.5, 1.0]})
    >>> t = DecisionTable.from_frame(df, public="g", sensitive="s", weight="w", decision="d")
    >>> b = fidelity_bounds(t, Alpha(0.9))
    >>> [round(v, 4) for v in b.lower[:, 1].tolist()], [round(v, 4) for v in b.upper[:, 1].tolist()]
    ([0.45, 1.0], [0.55, 1.0])
    """
    raw_lower, raw_upper = _raw_bounds(table, fidelity, exact)
    one = Fraction(1) if exact else 1.0
    others_upper = raw_upper.sum(axis=1)[:, None] - raw_upper
    others_lower = raw_lower.sum(axis=1)[:, None] - raw_lower
    lower = np.maximum(raw_lower, one - others_upper)
    upper = np.minimum(raw_upper, one - others_lower)
    if not exact:
        # 1 - (1 - d) need not equal d in floats: a tightening by a rounding error is none
        lower = np.where(lower - raw_lower <= _ROUNDING, raw_lower, lower)
        upper = np.where(raw_upper - upper <= _ROUNDING, raw_upper, upper)
    tol = 0 if exact else _BOUND_TOL
    crossed = lower > upper + tol
    if np.any(crossed):
        row = int(np.flatnonzero(crossed.any(axis=1))[0])
        raise InfeasibleError(
            f"The fidelity bounds admit no distribution at index {native(table.index[row])!r}: "
            f"lower {[round(float(v), 12) for v in lower[row]]} exceeds upper "
            f"{[round(float(v), 12) for v in upper[row]]} after making the outcomes consistent."
        )
    if not exact:
        upper = np.maximum(upper, lower)
    lower.flags.writeable = False
    upper.flags.writeable = False
    return FidelityBounds(lower=lower, upper=upper, outcomes=table.outcomes, index=table.index)
