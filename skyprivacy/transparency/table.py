"""The decision-table model of a transparency report (Chen, Golubchik and Pal, sections 4.1-4.3).

A :class:`DecisionTable` holds one row per *decision region* x = (x_U, x_S): the public
(quasi-identifier) values x_U, one sensitive value x_S, the probability mass P(x) (counts
are fine, every formula is scale-invariant within a QID group) and the decision
distribution D(x) = P(A | X = x).  Rows sharing x_U form the QID group T_{x_U}
(spec section 0).  Every function of the subpackage reads this one model; none re-groups the
raw frame.  Validation follows the spec, section 9.3.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import cached_property

import numpy as np
import pandas as pd

from .._core.encoding import column_names, require_columns
from .._core.exact import REL_TOL, exact_array, native
from .._core.validation import Boolean, InstanceOf, Options, validate_params
from .._core.warning import warn
from ..errors import PrivacyRiskWarning, SchemaError, param_error
from ._segments import Segments

__all__ = ["DecisionTable", "GroupLayout"]

_SHOWN = 5  # how many offending groups or rows a message names


def _as_names(value, name: str, owner: str, *, allow_empty: bool = False) -> tuple:
    return tuple(column_names(value, name=name, owner=owner, allow_empty=allow_empty,
                              hashable_is_name=True))


def _first_label(frame: pd.DataFrame, mask: np.ndarray):
    return native(frame.index[int(np.flatnonzero(mask)[0])])


class DecisionTable:
    """Decision regions with their probabilities and decision distributions.

    Build one with :meth:`from_frame` (calling the class does the same).

    Parameters
    ----------
    table : pandas.DataFrame
        One row per decision region.  It is not modified; the DecisionTable keeps a shallow
        copy (copy-on-write) and its index.
    public : str or list of str
        Public (QID) columns; their joint value x_U defines the QID group.
    sensitive : str or list of str
        Sensitive column(s).  Several columns are treated as one joint value x_S
        (Definition 3 assumes a singleton S): the guarantee covers the joint value, not each
        attribute's marginal (spec 10.5, A6).
    weight : str
        Column of P(x) >= 0: probabilities or raw counts.
    decision : str or list of str
        Binary decisions: one column with d(x) = P(A = 1 | x) in [0, 1].  More outcomes: one
        column per outcome with P(A = a | x); each row must sum to 1.
    outcomes : sequence, optional
        Outcome labels.  Default ``(0, 1)`` for one decision column, the column names
        otherwise.  With two outcomes the second is the positive one (d = D_1).
    missing : {"error", "as_value"}, default "error"
        What a missing public or sensitive value means: an error, or a category of its own.
        Missing weights or decisions are always an error.
    renormalize : bool, default False
        With several decision columns, rescale rows that do not sum to 1 instead of raising.

    Raises
    ------
    SchemaError
        Unknown column, empty table, missing/negative/infinite weights, decisions outside
        [0, 1] or not summing to 1, duplicate (public, sensitive) keys, all weights zero.
    InvalidParameterError
        A bad option value.

    Warns
    -----
    PrivacyRiskWarning
        For QID groups whose total weight is zero (skipped; they contribute nothing to
        beta*) and for groups with a single record of positive weight: their QID identifies
        the sensitive value, so beta_min = 1 (Lemma 5).

    Notes
    -----
    Only ratios within a QID group matter (eq. 8 is invariant to rescaling P inside T), so
    weights need not sum to 1.

    References
    ----------
    C.-L. Chen, L. Golubchik, R. Pal, "Achieving Transparency Report Privacy in Linear
    Time", ACM JDIQ 14(2), 2022, sections 4.1-4.3 and Table 3.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"gender": ["F", "F", "M", "M"],
    ...                    "income": ["low", "high", "low", "high"],
    ...                    "count": [12, 3, 9, 4], "d": [0.0, 1.0, 0.0, 1.0]})
    >>> table = DecisionTable.from_frame(df, public="gender", sensitive="income",
    ...                                  weight="count", decision="d")
    >>> table.n_records, table.n_groups, table.outcomes
    (4, 2, (0, 1))
    """

    @validate_params({"table": InstanceOf(pd.DataFrame, name="a pandas DataFrame"),
                      "missing": Options("error", "as_value")}, owner="DecisionTable.from_frame")
    def __init__(
        self,
        table: pd.DataFrame,
        *,
        public,
        sensitive,
        weight: str,
        decision,
        outcomes: Sequence | None = None,
        missing: str = "error",
        renormalize: bool = False,
    ):
        owner = "DecisionTable.from_frame"
        public_cols = _as_names(public, "public", owner)
        sensitive_cols = _as_names(sensitive, "sensitive", owner)
        decision_cols = _as_names(decision, "decision", owner)
        if not isinstance(weight, Hashable) or isinstance(weight, tuple):
            raise param_error("weight", owner, "be one column name", weight)
        require_columns(table, public_cols + sensitive_cols + (weight,) + decision_cols)
        overlap = set(public_cols) & set(sensitive_cols)
        if overlap:
            raise param_error(
                "sensitive", owner, "not repeat a public column", sorted(overlap)
            )
        if len(table) == 0:
            raise SchemaError("The table is empty; a DecisionTable needs at least one record.")

        if outcomes is None:
            outcomes = (0, 1) if len(decision_cols) == 1 else decision_cols
        outcomes = tuple(native(o) for o in outcomes)
        expected = 2 if len(decision_cols) == 1 else len(decision_cols)
        if len(outcomes) != expected or len(set(outcomes)) != len(outcomes):
            raise param_error(
                "outcomes", owner,
                f"list {expected} distinct labels, one per outcome", outcomes,
            )

        self._frame = table.copy(deep=False)
        self._public = public_cols
        self._sensitive = sensitive_cols
        self._weight = weight
        self._decision = decision_cols
        self._outcomes = outcomes

        key_cols = list(public_cols + sensitive_cols)
        if missing == "error":
            for col in key_cols:
                na = table[col].isna().to_numpy()
                if na.any():
                    raise SchemaError(
                        f"Column {col!r} has {int(na.sum())} missing value(s) (first at index "
                        f"{_first_label(table, na)!r}); pass missing='as_value' to treat a "
                        "missing value as its own category."
                    )
        dup = table.duplicated(subset=key_cols, keep=False).to_numpy()
        if dup.any():
            first = int(np.flatnonzero(dup)[0])
            key = native(tuple(table[key_cols].iloc[first]))
            raise SchemaError(
                f"{int(dup.sum())} rows share their public and sensitive values (first: {key!r} "
                f"at index {native(table.index[first])!r}); a decision region must appear once, "
                "so aggregate the duplicates first."
            )

        self._weights = self._read_weights(table, weight)
        self._decisions = self._read_decisions(table, decision_cols, renormalize)

        grouped = table.groupby(list(public_cols), sort=False, dropna=False, observed=True)
        codes = grouped.ngroup().to_numpy(dtype=np.intp)
        first_rows = np.unique(codes, return_index=True)[1]
        keys_frame = table[list(public_cols)].iloc[first_rows].reset_index(drop=True)
        self._codes = codes
        self._codes.flags.writeable = False
        self._group_keys = tuple(native(tuple(row)) for row in keys_frame.itertuples(index=False))
        self._keys_frame = keys_frame
        self._check_groups()

    # -- construction helpers -------------------------------------------------------------
    @classmethod
    def from_frame(cls, table: pd.DataFrame, **options) -> DecisionTable:
        """Build a :class:`DecisionTable` from a DataFrame: ``public``, ``sensitive``,
        ``weight``, ``decision`` and the optional ``outcomes``, ``missing`` and
        ``renormalize``, all keyword-only, as in the class docstring."""
        return cls(table, **options)

    @staticmethod
    def _numeric_column(frame: pd.DataFrame, col) -> np.ndarray:
        series = frame[col]
        if not (pd.api.types.is_numeric_dtype(series.dtype) or series.dtype == object):
            raise SchemaError(f"Column {col!r} must be numeric; its dtype is {series.dtype}.")
        try:
            values = series.to_numpy(dtype=float, na_value=np.nan)
        except (TypeError, ValueError):
            raise SchemaError(
                f"Column {col!r} must be numeric; its dtype is {series.dtype}."
            ) from None
        return values

    def _read_weights(self, frame: pd.DataFrame, col) -> np.ndarray:
        w = self._numeric_column(frame, col)
        bad = ~np.isfinite(w)
        if bad.any():
            raise SchemaError(
                f"Column {col!r} has {int(bad.sum())} missing or infinite weight(s) (first at "
                f"index {_first_label(frame, bad)!r}); weights must be finite and >= 0."
            )
        neg = w < 0
        if neg.any():
            first = int(np.flatnonzero(neg)[0])
            raise SchemaError(
                f"Column {col!r} has {int(neg.sum())} negative weight(s) (first at index "
                f"{native(frame.index[first])!r}: {float(w[first])!r}); weights must be finite "
                "and >= 0."
            )
        if not (w > 0).any():
            raise SchemaError(
                f"Every weight in column {col!r} is zero; the table carries no probability mass."
            )
        w.flags.writeable = False
        return w

    def _read_decisions(self, frame: pd.DataFrame, cols: tuple, renormalize: bool) -> np.ndarray:
        columns = [self._numeric_column(frame, c) for c in cols]
        for col, values in zip(cols, columns):
            bad = ~np.isfinite(values)
            if bad.any():
                raise SchemaError(
                    f"Column {col!r} has {int(bad.sum())} missing or infinite decision "
                    f"probabilities (first at index {_first_label(frame, bad)!r})."
                )
            out = (values < 0) | (values > 1)
            if out.any():
                first = int(np.flatnonzero(out)[0])
                raise SchemaError(
                    f"Column {col!r} has {int(out.sum())} value(s) outside [0, 1] (first at "
                    f"index {native(frame.index[first])!r}: {float(values[first])!r}); a decision "
                    "probability must lie in [0, 1]."
                )
        if len(columns) == 1:
            d = columns[0]
            matrix = np.column_stack([1.0 - d, d])
        else:
            matrix = np.column_stack(columns)
            sums = matrix.sum(axis=1)
            off = np.abs(sums - 1.0) > REL_TOL
            if off.any():
                first = int(np.flatnonzero(off)[0])
                if not renormalize or (sums[off] <= 0).any():
                    raise SchemaError(
                        f"Decision columns {list(cols)} do not sum to 1 in {int(off.sum())} "
                        f"row(s) (first at index {native(frame.index[first])!r}: sum "
                        f"{float(sums[first])!r}); pass renormalize=True to rescale them."
                    )
                matrix = matrix / sums[:, None]
        matrix.flags.writeable = False
        return matrix

    def _check_groups(self) -> None:
        positive = np.bincount(self._codes, weights=(self._weights > 0), minlength=self.n_groups)
        empty = np.flatnonzero(positive == 0)
        if len(empty):
            shown = [self._group_keys[g] for g in empty[:_SHOWN]]
            warn(
                f"{len(empty)} QID group(s) have zero total weight and are skipped: {shown}"
                f"{' ...' if len(empty) > _SHOWN else ''}; they contribute nothing to beta*.",
                PrivacyRiskWarning)
        single = np.flatnonzero(positive == 1)
        if len(single):
            shown = [self._group_keys[g] for g in single[:_SHOWN]]
            warn(
                f"{len(single)} QID group(s) hold a single record of positive weight, so their "
                f"QID identifies the sensitive value (beta_min = 1): {shown}"
                f"{' ...' if len(single) > _SHOWN else ''}.",
                PrivacyRiskWarning)

    # -- public read-only view ------------------------------------------------------------
    @property
    def frame(self) -> pd.DataFrame:
        """The input frame (a shallow copy; modifying it does not change the table)."""
        return self._frame.copy(deep=False)

    @property
    def index(self) -> pd.Index:
        return self._frame.index

    @property
    def public(self) -> tuple:
        return self._public

    @property
    def sensitive(self) -> tuple:
        return self._sensitive

    @property
    def weight(self):
        return self._weight

    @property
    def decision(self) -> tuple:
        return self._decision

    @property
    def outcomes(self) -> tuple:
        return self._outcomes

    @property
    def is_binary(self) -> bool:
        """True when there are exactly two outcomes (Theorem 1 applies)."""
        return len(self._outcomes) == 2

    @property
    def n_records(self) -> int:
        return len(self._weights)

    @property
    def n_groups(self) -> int:
        return len(self._group_keys)

    @property
    def weights(self) -> np.ndarray:
        """P(x) as given (read-only float array, table order)."""
        return self._weights

    @property
    def decisions(self) -> np.ndarray:
        """D(x) as an (n_records, n_outcomes) read-only float array; rows sum to 1."""
        return self._decisions

    @property
    def group_codes(self) -> np.ndarray:
        """QID group number (0..n_groups-1, in order of first appearance) of every record."""
        return self._codes

    @property
    def group_keys(self) -> tuple:
        """x_U of every QID group, as tuples of native values."""
        return self._group_keys

    def group_key_frame(self) -> pd.DataFrame:
        """One row per QID group with the public columns (group number as the index)."""
        return self._keys_frame.copy()

    def sensitive_values(self) -> list:
        """x_S of every record (a scalar, or a tuple with several sensitive columns)."""
        if len(self._sensitive) == 1:
            return [native(v) for v in self._frame[self._sensitive[0]].tolist()]
        return [native(tuple(r))
                for r in self._frame[list(self._sensitive)].itertuples(index=False)]

    def sensitive_at(self, row: int):
        """x_S of the record at position ``row`` (a scalar, or a tuple of several columns)."""
        values = tuple(native(self._frame[col].iat[row]) for col in self._sensitive)
        return values[0] if len(values) == 1 else values

    def to_frame(self) -> pd.DataFrame:
        """The table as a frame: the model's columns plus the group number and P(x) normalised.

        Examples
        --------
        >>> import pandas as pd
        >>> df = pd.DataFrame({"g": ["a", "a"], "s": [1, 2], "w": [1, 3], "d": [0.0, 1.0]})
        >>> DecisionTable.from_frame(df, public="g", sensitive="s", weight="w",
        ...                          decision="d").to_frame()["probability"].tolist()
        [0.25, 0.75]
        """
        cols = list(dict.fromkeys(self._public + self._sensitive + (self._weight,)
                                  + self._decision))
        out = self._frame[cols].copy()
        out["group"] = self._codes
        out["probability"] = self._weights / self._weights.sum()
        return out

    def __repr__(self) -> str:
        return (
            f"DecisionTable(n_records={self.n_records}, n_groups={self.n_groups}, "
            f"public={list(self._public)}, sensitive={list(self._sensitive)}, "
            f"outcomes={list(self._outcomes)})"
        )

    # -- the arrays every computation of the subpackage reads --------------------------------
    @cached_property
    def layout(self) -> GroupLayout:
        """Records of positive weight in the solvers' working order (see :class:`GroupLayout`)."""
        return GroupLayout(self._codes, self._weights)

    @validate_params({"exact": Boolean()})
    def weight_array(self, *, exact: bool = False) -> np.ndarray:
        """P(x) in table order: :attr:`weights`, or with ``exact`` an object array of Fractions
        (each weight read as the decimal it prints as)."""
        return self._exact_weights if exact else self._weights

    @validate_params({"exact": Boolean()})
    def decision_matrix(self, *, exact: bool = False) -> np.ndarray:
        """D(x) in table order: :attr:`decisions`, or with ``exact`` Fractions, each row
        summing to exactly 1."""
        return self._exact_decisions if exact else self._decisions

    @cached_property
    def _exact_weights(self) -> np.ndarray:
        return exact_array(self._frame[self._weight].to_numpy(dtype=object))

    @cached_property
    def _exact_decisions(self) -> np.ndarray:
        if len(self._decision) == 1:
            d = exact_array(self._frame[self._decision[0]].to_numpy(dtype=object))
            return np.column_stack([1 - d, d])
        cols = [exact_array(self._frame[c].to_numpy(dtype=object)) for c in self._decision]
        matrix = np.column_stack(cols)
        sums = matrix.sum(axis=1)
        return matrix / sums[:, None]


class GroupLayout:
    """Records of positive weight sorted (stably) by QID group: the solvers' working order.

    Attributes
    ----------
    rows : ndarray of int
        Table row of every working position.
    seg : Segments
        One contiguous segment per QID group with positive mass.
    groups : ndarray of int
        The group number of every segment.
    zero_rows : ndarray of int
        Table rows of weight 0 (they belong to no segment).
    """

    def __init__(self, codes: np.ndarray, weights: np.ndarray):
        positive = np.flatnonzero(weights > 0)
        order = positive[np.argsort(codes[positive], kind="stable")]
        self.rows = order
        self.seg = Segments(codes[order])
        self.groups = self.seg.segment_labels
        self.zero_rows = np.flatnonzero(weights == 0)

    def normalized(self, weights: np.ndarray) -> np.ndarray:
        """P(x | T) of every working record (each group sums to 1)."""
        p = weights[self.rows]
        return p / self.seg.spread(self.seg.sum(p))


#: The declared type of every ``table`` parameter of the subpackage.
TABLE = InstanceOf(DecisionTable)
