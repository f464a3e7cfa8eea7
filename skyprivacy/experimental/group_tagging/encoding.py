"""One-hot encoding with an encoding map (spec group-tagging §3.1; paper §2.1, §4).

Sengupta and Mishra one-hot encode the collected data "to generate a fair & privatized report
with the least noise insertion" and give no further detail.  The concrete reading: every
categorical attribute becomes one indicator ("bit") column per category, from an explicit
category list so that the encoding is the same in every period; numeric attributes are binned
first at user-given edges ("maths > 90%" is an edge at 90).  The :class:`EncodingMap` keeps,
for each source attribute, its bit columns: FIS moves the bits of one attribute together, so
every output row keeps exactly one hot bit per attribute.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np
import pandas as pd

from ..._core.encoding import require_columns
from ..._core.exact import native
from ..._core.validation import InstanceOf, Interval, Nullable, Options, validate_params
from ..._core.warning import warn
from ...errors import SchemaError, UnknownCategoryWarning, param_error
from ._common import FRAME, check_table, column_list, require_complete, sorted_labels

__all__ = ["EncodingMap", "EncodedTable", "one_hot_encode", "MISSING_CATEGORY"]

#: The category that holds missing values under ``missing="as_category"``.
MISSING_CATEGORY = "<NA>"

_HANDLE_UNKNOWN = Options("error", "ignore")
_PER_COLUMN = Nullable(InstanceOf(Mapping, text="be None or a mapping from column to list"))
#: A bin edge.
_EDGE = Interval("real")


@dataclass(frozen=True)
class EncodingMap:
    """Which bit columns encode which source attribute, and how.

    Attributes
    ----------
    columns : mapping str -> tuple of str
        Source attribute -> its bit columns, in category order.
    categories : mapping str -> tuple
        Source attribute -> its categories (bin labels for binned attributes), in the order of
        ``columns``.
    bins : mapping str -> tuple of float
        Binned source attribute -> its bin edges.
    missing : {"error", "as_category"}
        The missing-value policy the map was built with.

    Notes
    -----
    A bit column is named ``"<attribute>=<category>"``; a bin label is ``"<e1"``,
    ``"[e1, e2)"``, ... or ``">=ek"``.  Reuse a map on a later period with
    :meth:`transform` so that both periods have the same bit columns.
    """

    columns: Mapping[str, tuple]
    categories: Mapping[str, tuple]
    bins: Mapping[str, tuple]
    missing: str

    @property
    def sources(self) -> tuple:
        """The encoded source attributes, in table order."""
        return tuple(self.columns)

    def source_of(self, column: str):
        """The source attribute a bit column belongs to (None if it is not a bit column)."""
        for source, bits in self.columns.items():
            if column in bits:
                return source
        return None

    @validate_params({"table": FRAME, "handle_unknown": _HANDLE_UNKNOWN})
    def transform(self, table, *, handle_unknown: str = "error") -> "EncodedTable":
        """Encode another table (a later period) with the same categories and bins.

        Parameters
        ----------
        table : pandas.DataFrame
            Holds every source attribute of this map; never modified.
        handle_unknown : {"error", "ignore"}, keyword-only
            As for :func:`one_hot_encode`.

        Returns
        -------
        EncodedTable
        """
        categories = {s: tuple(c for c in cats if not (self.missing == "as_category"
                                                       and c == MISSING_CATEGORY))
                      for s, cats in self.categories.items() if s not in self.bins}
        return one_hot_encode(table, columns=list(self.columns), categories=categories,
                              bins=dict(self.bins), handle_unknown=handle_unknown,
                              missing=self.missing)

    def to_frame(self) -> pd.DataFrame:
        """One row per bit column: its source attribute and its category."""
        rows = [(source, category, column)
                for source, bits in self.columns.items()
                for category, column in zip(self.categories[source], bits)]
        return pd.DataFrame(rows, columns=["attribute", "category", "column"])


#: The declared ``encoding`` parameter of the functions that read an encoded table.
ENCODING = Nullable(InstanceOf(EncodingMap, text="be None or an EncodingMap"))


@dataclass(frozen=True)
class EncodedTable:
    """The result of :func:`one_hot_encode`; unpacks as ``frame, encoding``.

    Attributes
    ----------
    frame : pandas.DataFrame
        The encoded table: the caller's index, each encoded attribute replaced in place by its
        ``uint8`` bit columns, every other column unchanged.
    encoding : EncodingMap
    """

    frame: pd.DataFrame
    encoding: EncodingMap

    def __iter__(self):
        return iter((self.frame, self.encoding))


def _number_text(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def _bin_labels(edges: tuple) -> list:
    text = [_number_text(e) for e in edges]
    return ([f"<{text[0]}"] + [f"[{a}, {b})" for a, b in zip(text, text[1:])]
            + [f">={text[-1]}"])


def _check_mapping(value, *, name: str, owner: str, allowed: list) -> dict:
    """A declared ``categories`` or ``bins`` mapping (or None), naming only encoded columns."""
    if value is None:
        return {}
    for key in value:
        if key not in allowed:
            raise param_error(name, owner, f"name only columns listed in 'columns' ({allowed})",
                              key)
    return dict(value)


def _check_edges(edges, *, column: str, owner: str) -> tuple:
    requirement = f"give column {column!r} a non-empty list of finite, strictly increasing edges"
    try:
        values = list(edges)
    except TypeError:
        raise param_error("bins", owner, requirement, edges) from None
    ok = bool(values) and all(_EDGE.is_satisfied_by(e) for e in values)
    if not ok or any(b <= a for a, b in zip(values, values[1:])):
        raise param_error("bins", owner, requirement, edges)
    return tuple(float(e) for e in values)


@validate_params({"table": FRAME, "categories": _PER_COLUMN, "bins": _PER_COLUMN,
                  "handle_unknown": _HANDLE_UNKNOWN, "missing": Options("error", "as_category")})
def one_hot_encode(table, *, columns, categories=None, bins=None, handle_unknown="error",
                   missing="error") -> EncodedTable:
    """One-hot encode attributes, binning numeric ones first (spec §3.1; paper §2.1).

    Parameters
    ----------
    table : pandas.DataFrame
        The table; never modified.
    columns : str or list of str, keyword-only
        The source attributes to encode.
    categories : mapping column -> list, optional, keyword-only
        Explicit categories (in bit order) per categorical attribute; the default is the
        sorted distinct values of the column (a numeric column without bins gets one bit per
        distinct value).  Give them when several periods must share one encoding.
    bins : mapping column -> list of float, optional, keyword-only
        Bin edges per numeric attribute: edges ``e1 < ... < ek`` give ``k + 1`` bins
        ``(-inf, e1), [e1, e2), ..., [ek, inf)``.
    handle_unknown : {"error", "ignore"}, default "error", keyword-only
        A value outside the explicit categories raises, or (``"ignore"``) is encoded as
        all-zero bits with an :class:`~skyprivacy.errors.UnknownCategoryWarning`.
    missing : {"error", "as_category"}, default "error", keyword-only
        Missing values raise, or become the category ``"<NA>"`` (every encoded attribute then
        gets a ``"<NA>"`` bit, so periods stay aligned).

    Returns
    -------
    EncodedTable
        ``frame, encoding = one_hot_encode(...)``.

    Raises
    ------
    SchemaError
        A column is missing, holds missing values (``missing="error"``), holds values outside
        its categories (``handle_unknown="error"``), a binned column is not numeric, or a bit
        column name clashes with another column.
    InvalidParameterError
        Bad ``columns``, ``categories``, ``bins``, ``handle_unknown`` or ``missing``.

    References
    ----------
    Sengupta and Mishra, "Fairly Private Through Group Tagging and Relation Impact", §2.1;
    spec group-tagging §3.1.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"religion": ["Hindu", "Muslim", "Hindu"], "maths": [95, 40, 91]})
    >>> frame, encoding = one_hot_encode(table, columns=["religion", "maths"],
    ...                                  bins={"maths": [90]})
    >>> frame.columns.tolist()
    ['religion=Hindu', 'religion=Muslim', 'maths=<90', 'maths=>=90']
    >>> frame["maths=>=90"].tolist()
    [1, 0, 1]
    >>> encoding.source_of("maths=<90")
    'maths'
    """
    owner = "one_hot_encode"
    check_table(table, owner=owner)
    sources = column_list(columns, name="columns", owner=owner)
    require_columns(table, sources)
    given = _check_mapping(categories, name="categories", owner=owner, allowed=sources)
    edges_of = _check_mapping(bins, name="bins", owner=owner, allowed=sources)
    both = [c for c in given if c in edges_of]
    if both:
        raise param_error("categories", owner, "not name a column that also has bins "
                          "(bins define its categories)", both[0])

    bit_columns: dict = {}
    category_map: dict = {}
    bin_map: dict = {}
    encoded: dict = {}
    for source in sources:
        cells = table[source]
        if missing == "error":
            require_complete(cells, remedy="pass missing='as_category' to encode them as a "
                             "category of their own, or clean the table.")
        absent = cells.isna().to_numpy()
        if source in edges_of:
            edges = _check_edges(edges_of[source], column=source, owner=owner)
            if not pd.api.types.is_numeric_dtype(cells) or pd.api.types.is_bool_dtype(cells):
                raise SchemaError(f"Column {source!r} has bins but is not numeric (dtype "
                                  f"{cells.dtype}); bins apply to numeric columns only.")
            labels = _bin_labels(edges)
            values = cells.to_numpy(dtype=float, na_value=np.nan)
            codes = np.searchsorted(np.asarray(edges), values, side="right").astype(np.int64)
            bin_map[source] = edges
            unknown = np.zeros(len(cells), dtype=bool)
        else:
            if source in given:
                try:
                    labels = [native(v) for v in given[source]]
                except TypeError:  # not iterable: refused below, like an empty list
                    labels = []
                if isinstance(given[source], str) or not labels \
                        or len(set(labels)) != len(labels):
                    raise param_error("categories", owner, f"give column {source!r} a non-empty "
                                      "list of distinct categories", given[source])
            else:
                labels = sorted_labels(cells[~absent])
            lookup = {value: code for code, value in enumerate(labels)}
            codes = np.fromiter((lookup.get(native(v), -1) for v in cells.tolist()),
                                dtype=np.int64, count=len(cells))
            unknown = (codes < 0) & ~absent
        if missing == "as_category":
            if MISSING_CATEGORY in labels:
                raise SchemaError(f"Column {source!r} has a category named "
                                  f"{MISSING_CATEGORY!r}, which missing='as_category' reserves "
                                  "for missing values.")
            labels = list(labels) + [MISSING_CATEGORY]
            codes = np.where(absent, len(labels) - 1, codes)
        if unknown.any():
            strangers = sorted_labels(cells[unknown])[:10]
            if handle_unknown == "error":
                raise SchemaError(
                    f"Column {source!r} has values outside its categories: {strangers} "
                    f"(categories are {list(labels)}); pass handle_unknown='ignore' to encode "
                    "them as all-zero bits.")
            warn(f"Column {source!r}: {int(unknown.sum())} row(s) with values outside its "
                 f"categories ({strangers}) are encoded as all-zero bits, so they have no hot "
                 f"bit for {source!r}.", UnknownCategoryWarning)
            codes = np.where(unknown, -1, codes)
        names = tuple(f"{source}={label}" for label in labels)
        bit_columns[source] = names
        category_map[source] = tuple(labels)
        for code, name in enumerate(names):
            encoded[name] = (codes == code).astype(np.uint8)

    out: dict = {}
    for column in table.columns:
        if column in bit_columns:
            for name in bit_columns[column]:
                if name in out or (name in table.columns and name not in bit_columns):
                    raise SchemaError(f"The bit column {name!r} of {column!r} clashes with "
                                      "another column of the table; rename one of them.")
                out[name] = encoded[name]
        else:
            if column in out:
                raise SchemaError(f"The column {column!r} clashes with a bit column; rename "
                                  "one of them.")
            out[column] = table[column].array.copy()  # an array: no index alignment
    frame = pd.DataFrame(out, index=table.index)
    encoding = EncodingMap(MappingProxyType(bit_columns), MappingProxyType(category_map),
                           MappingProxyType(bin_map), missing)
    return EncodedTable(frame, encoding)
