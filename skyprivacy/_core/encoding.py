"""How raw cells become categories: missing markers, list-like cells, codes and uniques.

One copy of the rules every reader of a table applies (the release model, the hierarchies,
the decision tables): which scalars count as missing, which cells are lists of values, how a
column is factorized into dense integer codes, and how a missing column is reported.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

import numpy as np
import pandas as pd

from ..errors import SchemaError, param_error
from .exact import native

__all__ = [
    "LIST_LIKE",
    "MISSING_KEY",
    "is_missing",
    "value_key",
    "list_like_cells",
    "sorted_uniques",
    "factorize",
    "require_columns",
    "did_you_mean",
    "column_names",
    "as_numbers",
    "NA_MARKERS",
    "missing_mask",
]

#: Cell types that hold several values (mvpi cells); never missing markers themselves.
LIST_LIKE = (list, tuple, set, frozenset, np.ndarray)
#: The one dictionary key every missing marker (None, NaN, NaT, pd.NA) collapses to.
MISSING_KEY = ("__missing__",)


def is_missing(value: object) -> bool:
    """True for scalar missing markers (None, NaN, NaT, pd.NA); list-likes are never missing.

    Examples
    --------
    >>> is_missing(None), is_missing(float("nan")), is_missing(pd.NaT), is_missing([None])
    (True, True, True, False)
    >>> is_missing(""), is_missing(0)
    (False, False)
    """
    if isinstance(value, (*LIST_LIKE, dict)):
        return False
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def value_key(value: object) -> object:
    """A value as a dictionary key: native, with every missing marker as :data:`MISSING_KEY`."""
    value = native(value)
    return MISSING_KEY if is_missing(value) else value


def list_like_cells(cells: pd.Series) -> pd.Series:
    """Boolean mask of list-like cells (only object columns can hold them; columns pandas
    infers as all strings or all numbers are answered without a Python-level scan).

    Examples
    --------
    >>> list_like_cells(pd.Series([["a", "b"], "c", ("d",)])).tolist()
    [True, False, True]
    """
    if cells.dtype != object or pd.api.types.infer_dtype(cells, skipna=True) in (
            "string", "integer", "floating", "mixed-integer-float", "boolean", "decimal",
            "empty"):
        return pd.Series(False, index=cells.index)
    return cells.map(lambda v: isinstance(v, LIST_LIKE))


def sorted_uniques(values: Iterable[Hashable]) -> list:
    """Distinct values, sorted when mutually comparable, else in first-seen order; one missing
    marker (the first seen) last.

    Examples
    --------
    >>> sorted_uniques(["b", None, "a", "b"])
    ['a', 'b', None]
    """
    values = list(values)
    # Any: the values are sorted if they happen to be mutually comparable (TypeError if not)
    seen: list[Any] = list(dict.fromkeys(v for v in values if not is_missing(v)))
    try:
        seen.sort()
    except TypeError:
        pass
    missing = [v for v in values if is_missing(v)][:1]
    return seen + missing


def factorize(series: pd.Series) -> tuple[np.ndarray, list]:
    """Integer codes and native uniques of a column; a missing value is its own category (NaN).

    The uniques are sorted when they are mutually comparable (else in first-seen order), so
    code order is value order.  Non-negative integer ids with a small range take a fast path:
    dense codes from a presence table, in O(rows + range) memory, without hashing or sorting.

    Examples
    --------
    >>> codes, uniques = factorize(pd.Series(["b", "a", None, "b"]))
    >>> codes.tolist(), uniques
    ([1, 0, 2, 1], ['a', 'b', nan])
    >>> factorize(pd.Series([7, 3, 7]))[0].tolist()
    [1, 0, 1]
    """
    if series.dtype.kind in "iu" and len(series):
        data = series.to_numpy()
        low, high = int(data.min()), int(data.max())
        if low >= 0 and high < 4 * len(data) + 1024:
            present = np.bincount(data, minlength=high + 1) > 0
            code_of = np.cumsum(present) - 1
            return code_of[data].astype(np.int64, copy=False), np.flatnonzero(present).tolist()
    # Hash first and sort only the (few) uniques: pandas' sort=True with NaN kept as a
    # category scans every cell for missing markers and remaps the codes through object
    # arrays, several times the cost of the hashing itself on a text column.
    codes, uniques = pd.factorize(series, sort=False)
    try:
        order = (None if len(codes) and codes.min() < 0  # a missing value
                 else np.asarray(uniques.argsort(), dtype=np.int64))
    except TypeError:  # mixed types
        order = None
    if order is None:  # pandas' own rules: its missing category, its order of mixed types
        try:
            codes, uniques = pd.factorize(series, sort=True, use_na_sentinel=False)
        except TypeError:  # mixed, non-comparable types
            codes, uniques = pd.factorize(series, sort=False, use_na_sentinel=False)
    elif (np.diff(order) < 0).any():
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        codes, uniques = rank[codes], uniques.take(order)
    if isinstance(getattr(uniques, "dtype", None), pd.StringDtype):
        # string uniques: one conversion instead of iterating the extension array
        uniques = np.asarray(uniques, dtype=object).tolist()
    else:
        uniques = [native(u) for u in list(uniques)]
    return np.asarray(codes, dtype=np.int64), uniques


def require_columns(table: pd.DataFrame, columns: Iterable) -> None:
    """Raise the house SchemaError for the first column the table lacks.

    Examples
    --------
    >>> require_columns(pd.DataFrame({"age": [1], "sex": ["F"]}), ["age", "zip"])
    Traceback (most recent call last):
    ...
    skyprivacy.errors.SchemaError: Column 'zip' is not in the table; columns are ['age', 'sex'].
    """
    for column in columns:
        if column not in table.columns:
            raise SchemaError(f"Column {column!r} is not in the table; "
                              f"columns are {[native(c) for c in table.columns]}."
                              f"{did_you_mean(column, table.columns)}")


def did_you_mean(name: object, choices: Iterable) -> str:
    """`` Did you mean 'age'?`` when one of ``choices`` is close to ``name`` (same text up to
    case and surrounding spaces, else a close spelling), else ``''``.

    Examples
    --------
    >>> did_you_mean("Age ", ["age", "sex"]), did_you_mean("zip", ["age"])
    (" Did you mean 'age'?", '')
    """
    import difflib

    text = str(name).strip().casefold()
    names = [native(c) for c in choices]
    exact = [c for c in names if str(c).strip().casefold() == text]
    close = exact or [names[[str(c).casefold() for c in names].index(m)] for m in
                      difflib.get_close_matches(text, [str(c).casefold() for c in names], n=1,
                                                cutoff=0.75)]
    return f" Did you mean {close[0]!r}?" if close else ""


def column_names(value: Any, *, name: str, owner: str, allow_empty: bool = False,
                 hashable_is_name: bool = False) -> list:
    """The column names a parameter lists: a column name (a ``str``; with
    ``hashable_is_name`` also any hashable but a tuple) or an iterable of names, as a list.

    Examples
    --------
    >>> column_names("age", name="qi", owner="f")
    ['age']
    >>> column_names(("age", "sex"), name="qi", owner="f")
    ['age', 'sex']
    >>> column_names(3, name="qi", owner="f", hashable_is_name=True)
    [3]
    """
    if isinstance(value, str) or (hashable_is_name and isinstance(value, Hashable)
                                  and not isinstance(value, tuple)):
        return [value]
    try:
        names = list(value)
    except TypeError:
        raise param_error(name, owner, "be a column name or a list of column names",
                          value) from None
    if not names and not allow_empty:
        raise param_error(name, owner, "name at least one column", value)
    return names


def as_numbers(column: pd.Series) -> pd.Series | None:
    """The text column as numbers (int64 if every cell is an integer, else float64), or None
    when some cell does not read as a decimal number.

    Examples
    --------
    >>> as_numbers(pd.Series(["39", "50"])).tolist(), as_numbers(pd.Series(["39", "x"]))
    ([39, 50], None)
    """
    try:
        numbers = pd.to_numeric(column, errors="raise")
    except (ValueError, TypeError):
        return None
    if not pd.api.types.is_numeric_dtype(numbers) or pd.api.types.is_bool_dtype(numbers):
        return None
    if numbers.isna().any() or not np.isfinite(numbers.to_numpy(dtype=float)).all():
        return None
    return numbers


#: Cell texts read as missing besides empty cells (pandas' markers; --na-values changes them).
NA_MARKERS = ("#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND",
              "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null")


def missing_mask(column: pd.Series, na_values: Iterable[str] = NA_MARKERS) -> pd.Series:
    """True where a text cell is missing: empty (after stripping spaces), NaN, or a marker."""
    markers = set(na_values)
    return column.map(lambda v: not isinstance(v, str) or v.strip() == "" or v in markers)
