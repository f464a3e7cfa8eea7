"""How data values find their leaves, and generalization of several columns at once.

Lookup rule for leaves
----------------------
Data rarely arrive with the exact Python type of a hierarchy's leaves (ARX's age file has
the leaves ``'1'`` ... ``'100'`` as text while ``load_adult()['age']`` is ``int64``).  A
value is looked up first exactly, then by one of two normalisations chosen from the
leaves when the hierarchy is built:

* *numeric leaves*: every leaf is a number or a string that reads as a decimal number
  (``'39'``, ``'-2'``, ``'2.5'``), and no two leaves read as the same number.  Then numbers
  are compared by value: ``39``, ``39.0``, ``numpy.int64(39)`` and ``'39'`` all find the
  leaf ``'39'``.  Booleans are never treated as numbers.
* *date leaves*: every leaf is an ISO date string ``YYYY-MM-DD`` (as made by
  :func:`~skyprivacy.hierarchy.dates`).  Then ``datetime.date``, ``datetime.datetime``,
  ``pandas.Timestamp`` and ``numpy.datetime64`` values find the leaf of their calendar day.

Otherwise a text value that has no leaf of its exact text finds the leaf of its canonical
text (:mod:`skyprivacy._core.canonical`, docs/canonical-text.md: Unicode NFC, zero-width
characters removed, surrounding whitespace stripped, or kept with ``whitespace='keep'``), when
no two leaves share one: ``' Male'`` and ``'Male\u200b'`` find ``'Male'`` (with ``'keep'``
only the second does), ``'café'`` in NFD finds the NFC leaf; ``'male'`` finds nothing, and the
error names the value.  Missing values (``None``, ``NaN``, ``NaT``) are
never covered; replace them by a label of their own first if they should be generalized.

What lives here: :class:`LeafLookup` (the rule above, built once per hierarchy), the reading
of the 1-D inputs the lookups accept (:func:`one_dimensional`, :func:`first_seen_codes`) and
:func:`generalize_frame`.  :class:`~skyprivacy.hierarchy.Hierarchy` holds the lookups
themselves (``generalize``, ``covers``, ``uncovered``, ``validate``, ``lca*``).
"""

from __future__ import annotations

import datetime as _dt
import math
import numbers
import re
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd
from pandas.api.types import is_hashable

from .._core.canonical import canonical_text
from .._core.encoding import require_columns
from .._core.validation import InstanceOf, validate_params
from ..errors import SchemaError
from ._common import described_error, object_array

__all__ = ["LeafLookup", "numeric_key", "date_key", "one_dimensional", "first_seen_codes",
           "generalize_frame"]

_INT_RE = re.compile(r"[+-]?\d+")
_FLOAT_RE = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?")
_ISO_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
_ONE_DIMENSIONAL = "be one-dimensional (a Series, array, list or scalar)"


def numeric_key(value):
    """The number a value stands for, or None (booleans, non-numeric text, NaN, infinities).

    Examples
    --------
    >>> numeric_key("39"), numeric_key(39.0), numeric_key("2.5"), numeric_key(True)
    (39, 39, 2.5, None)
    """
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        number = float(value)
    elif isinstance(value, str):
        if _INT_RE.fullmatch(value):
            return int(value)
        if not _FLOAT_RE.fullmatch(value):
            return None
        number = float(value)
    else:
        return None
    if not math.isfinite(number):
        return None
    return int(number) if number.is_integer() else number


def date_key(value):
    """The ISO day string of a date-like value, or None (NaT and anything not a date).

    Examples
    --------
    >>> date_key(pd.Timestamp("2024-03-15 13:45")), date_key("2024-03-15")
    ('2024-03-15', None)
    """
    if isinstance(value, np.datetime64):
        if np.isnat(value):
            return None
        value = pd.Timestamp(value)
    if isinstance(value, _dt.datetime):  # includes pandas.Timestamp
        if value is pd.NaT:
            return None
        return value.date().isoformat()
    if isinstance(value, _dt.date):
        return value.isoformat()
    return None


class LeafLookup:
    """The position of the leaf a data value stands for, by the rule of this module.

    Parameters
    ----------
    leaves : tuple
        The leaf labels, in order.
    positions : dict
        Leaf label -> its position in ``leaves``.

    Examples
    --------
    >>> find = LeafLookup(("1", "2"), {"1": 0, "2": 1})
    >>> find.kind, find(2), find("2"), find(2.0), find(3)
    ('numeric', 1, 1, 1, -1)
    >>> find = LeafLookup(("Male", "Female"), {"Male": 0, "Female": 1})
    >>> find(" Female\u200b"), find(" Female", "keep"), find("Female\u200b", "keep")
    (1, -1, 1)
    """

    __slots__ = ("_leaves", "_positions", "kind", "_alias", "_canonical")

    def __init__(self, leaves: tuple, positions: dict):
        keys = [numeric_key(leaf) for leaf in leaves]
        if all(k is not None for k in keys) and len(set(keys)) == len(keys):
            kind, alias = "numeric", dict(zip(keys, range(len(keys))))
        elif all(isinstance(leaf, str) and _ISO_DATE_RE.fullmatch(leaf) for leaf in leaves):
            kind, alias = "date", {}
        else:
            kind, alias = "exact", {}
        self._leaves, self._positions, self.kind, self._alias = leaves, positions, kind, alias
        self._canonical: dict = {}  # whitespace choice -> canonical text -> leaf position

    def _canonical_leaves(self, whitespace: str) -> dict:
        """Canonical text -> leaf position under ``whitespace``, built on first use; only
        where one leaf has the canonical text: two would make the lookup a guess."""
        found = self._canonical.get(whitespace)
        if found is None:
            canonical: dict = {}
            for position, leaf in enumerate(self._leaves):
                if isinstance(leaf, str):
                    canonical.setdefault(canonical_text(leaf, whitespace), []).append(position)
            found = self._canonical[whitespace] = {
                text: at[0] for text, at in canonical.items() if len(at) == 1}
        return found

    def __call__(self, value, whitespace: str = "strip") -> int:
        """The position of the leaf ``value`` stands for, or -1; text without a leaf of its
        exact text is looked up in canonical form under ``whitespace`` ('strip' or
        'keep')."""
        if not is_hashable(value):
            return -1
        position = self._positions.get(value)
        if position is not None:
            if isinstance(value, (bool, np.bool_)) == isinstance(self._leaves[position], bool):
                return position
        if self.kind == "numeric":
            key = numeric_key(value)
            if key is not None:
                return self._alias.get(key, -1)
        elif self.kind == "date":
            key = date_key(value)
            if key is not None:
                return self._positions.get(key, -1)
        if isinstance(value, str):
            return self._canonical_leaves(whitespace).get(canonical_text(value, whitespace), -1)
        return -1


def one_dimensional(values, owner: str, param: str = "values"):
    """Values as ``(kind, 1-D data)``; ``kind`` says how to rebuild an output of the same kind
    (``"series"``, ``"index"``, ``"array"``, ``"tuple"``, ``"list"`` or ``"scalar"``).

    A ``str`` is one value; sets and mappings are refused (they have no order).
    """
    if isinstance(values, pd.DataFrame):
        raise described_error(param, owner, _ONE_DIMENSIONAL, "a DataFrame")
    if isinstance(values, pd.Series):
        return "series", values
    if isinstance(values, pd.Index):
        return "index", values
    if isinstance(values, np.ndarray):
        if values.ndim == 0:
            return "scalar", object_array([values[()]])
        if values.ndim != 1:
            raise described_error(param, owner, _ONE_DIMENSIONAL,
                                  f"an array of shape {values.shape}")
        return "array", values
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        return "scalar", object_array([values])
    if isinstance(values, (Mapping, set, frozenset)):
        raise described_error(param, owner, "be ordered (a Series, array, list or scalar)",
                              f"a {type(values).__name__}")
    return ("tuple" if isinstance(values, tuple) else "list"), object_array(list(values))


def first_seen_codes(data) -> tuple[np.ndarray, list]:
    """Codes and uniques of 1-D data in order of first appearance; missing values are values.

    Unlike :func:`skyprivacy._core.encoding.factorize` (sorted uniques, a column of hashable
    cells), the order is the data's, so messages and :meth:`Hierarchy.uncovered` list values
    as they come, and unhashable items (a list in a cell) are kept so an error can name them.

    Examples
    --------
    >>> codes, uniques = first_seen_codes(object_array(["b", ["x"], "a", "b"]))
    >>> codes.tolist(), uniques
    ([0, 1, 2, 0], ['b', ['x'], 'a'])
    """
    try:
        codes, uniques = pd.factorize(data, use_na_sentinel=False)
    except TypeError:  # unhashable items: a Python loop, keyed by identity for those
        seen: dict = {}
        codes_list, uniques = [], []
        for item in data:
            key = ("h", item) if is_hashable(item) else id(item)
            if key not in seen:
                seen[key] = len(uniques)
                uniques.append(item)
            codes_list.append(seen[key])
        codes = np.asarray(codes_list, dtype=np.intp)
    return np.asarray(codes, dtype=np.intp), list(uniques)


@validate_params({"table": InstanceOf(pd.DataFrame, name="a pandas DataFrame", got="a {}")})
def generalize_frame(table: pd.DataFrame, *, hierarchies: Mapping,
                     levels: Mapping) -> pd.DataFrame:
    """Generalize several columns of a table, each to a level of its hierarchy.

    Parameters
    ----------
    table : pandas.DataFrame
        It is not modified.
    hierarchies : mapping column -> Hierarchy
        A hierarchy for (at least) every column in ``levels``.
    levels : mapping column -> int
        The level each column is generalized to (full-domain generalization).

    Returns
    -------
    pandas.DataFrame
        A copy with the same index and columns, the listed columns replaced by labels.

    Raises
    ------
    SchemaError
        If a column in ``levels`` is not in the table or has no hierarchy.
    HierarchyError, InvalidParameterError
        As for :meth:`Hierarchy.generalize`.

    Examples
    --------
    >>> import pandas as pd
    >>> from skyprivacy.datasets import load_adult_hierarchies
    >>> table = pd.DataFrame({"age": [39, 52], "sex": ["Male", "Female"], "income": [1, 2]})
    >>> h = load_adult_hierarchies()
    >>> generalize_frame(table, hierarchies=h, levels={"age": 2, "sex": 1})
         age sex  income
    0  30-39   *       1
    1  50-59   *       2
    """
    for column in levels:
        require_columns(table, [column])
        if column not in hierarchies:
            raise SchemaError(
                f"Column {column!r} has no hierarchy; hierarchies are given for "
                f"{list(hierarchies)}."
            )
    result = table.copy()
    for column, level in levels.items():
        result[column] = hierarchies[column].generalize(table[column], level)
    return result
