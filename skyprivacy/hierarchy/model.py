"""Generalization hierarchies for quasi-identifiers, and their builders.

A :class:`Hierarchy` is a rooted tree whose leaves are the values of one
quasi-identifier and whose inner nodes are coarser labels, arranged in levels of equal
depth: level 0 holds the leaves, level ``height`` the single root.  It is what a release
shows in place of a QI value once that value is generalized (Chen, LeFevre and
Ramakrishnan 2009, Sect. 1.3 and Table 1b: ages ``2*``, zip codes ``1234*``) and what
SkylineAnonymize labels its QI-groups with (Sect. 6.2, multidimensional generalization
over the "QI space").

What lives here:

* :class:`Hierarchy`, immutable, backed by a :class:`networkx.DiGraph` (parent -> child,
  node ids ``(level, label)`` because a label may repeat on several levels);
* readers and builders: :meth:`Hierarchy.from_arx` (ARX's ``;``-separated CSV, one row per
  leaf), :meth:`Hierarchy.from_levels`, :meth:`Hierarchy.from_mapping`,
  :meth:`Hierarchy.intervals` (nested numeric intervals), :meth:`Hierarchy.masking`
  (trailing characters of codes such as ZIPs), :meth:`Hierarchy.dates`, and the bundled
  ARX Adult hierarchies (:meth:`Hierarchy.bundled`, :func:`load_adult_hierarchies`);
* vectorized :meth:`Hierarchy.generalize`, lowest common ancestors (:meth:`Hierarchy.lca`,
  :meth:`Hierarchy.lca_by_group`) and :func:`generalize_frame`.

Apart from reading or writing an ARX file when asked to (:meth:`Hierarchy.from_arx`,
:meth:`Hierarchy.to_arx`), everything here is pure computation.

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
  :meth:`Hierarchy.dates`).  Then ``datetime.date``, ``datetime.datetime``,
  ``pandas.Timestamp`` and ``numpy.datetime64`` values find the leaf of their calendar day.

Otherwise lookups are exact: ``' Male'`` does not match ``'Male'``, and the error names
the value so the stray space is visible.  Missing values (``None``, ``NaN``, ``NaT``) are
never covered; replace them by a label of their own first if they should be generalized.
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
import math
import numbers
import os
import re
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache

import networkx as nx
import numpy as np
import pandas as pd

from ..errors import HierarchyError, InvalidParameterError, SchemaError, param_error

__all__ = ["Hierarchy", "load_adult_hierarchies", "generalize_frame"]

#: Label of the root made by the builders (:meth:`Hierarchy.intervals` and friends).
ROOT_LABEL = "*"

_SHOW = 5  # how many offending values a message names before "..."
_INT_RE = re.compile(r"[+-]?\d+")
_FLOAT_RE = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?")
_ISO_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
_DATE_LEVELS = ("month", "quarter", "year", "decade", "century")
_ADULT_COLUMNS_TO_FILES = {
    # load_adult() column -> ARX file stem; only 'income' is named differently by ARX.
    "age": "age",
    "workclass": "workclass",
    "education": "education",
    "marital-status": "marital-status",
    "occupation": "occupation",
    "race": "race",
    "sex": "sex",
    "native-country": "native-country",
    "income": "salary-class",
}


# --------------------------------------------------------------------------- helpers
def _native(value):
    """Turn numpy scalars into Python scalars (labels and messages never show numpy types)."""
    if isinstance(value, np.datetime64):
        return pd.Timestamp(value)
    if isinstance(value, np.generic):
        return value.item()
    return value


def _is_blank(value) -> bool:
    return _is_missing(value) or (isinstance(value, str) and value == "")


def _is_missing(value) -> bool:
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    if isinstance(value, (float, np.floating)):
        return bool(np.isnan(value))
    if isinstance(value, np.datetime64):
        return bool(np.isnat(value))
    return False


def _show(values, limit: int = _SHOW) -> str:
    """``[a, b, c, ...]`` with native reprs, at most ``limit`` items."""
    items = [repr(_native(v)) for v in values[:limit]]
    if len(values) > limit:
        items.append("...")
    return "[" + ", ".join(items) + "]"


def _numeric_key(value):
    """The number a value stands for, or None (see the module's lookup rule)."""
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


def _date_key(value):
    """ISO day string of a date-like value, or None."""
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


def _bad_param(name: str, owner: str, requirement: str, got: str) -> InvalidParameterError:
    """House-style parameter error when the offending value is better described than repr'd."""
    return InvalidParameterError(
        f"The '{name}' parameter of {owner} must {requirement}. Got {got} instead."
    )


def _check_name(name, owner: str):
    if name is not None and not isinstance(name, str):
        raise param_error("name", owner, "be a string or None", name)
    return name


def _check_sep(sep, owner: str) -> str:
    if not isinstance(sep, str) or len(sep) != 1 or sep in "\r\n\"":
        raise param_error("sep", owner, "be a single character other than a quote or newline", sep)
    return sep


def _one_dimensional(values, owner: str, param: str = "values"):
    """Values as (kind, 1-D array-like for factorize). kind records how to rebuild the output."""
    if isinstance(values, pd.DataFrame):
        raise _bad_param(param, owner,
                         "be one-dimensional (a Series, array, list or scalar)", "a DataFrame")
    if isinstance(values, pd.Series):
        return "series", values
    if isinstance(values, pd.Index):
        return "index", values
    if isinstance(values, np.ndarray):
        if values.ndim == 0:
            return "scalar", _object_array([values[()]])
        if values.ndim != 1:
            raise _bad_param(param, owner,
                             "be one-dimensional (a Series, array, list or scalar)",
                             f"an array of shape {values.shape}")
        return "array", values
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        return "scalar", _object_array([values])
    if isinstance(values, (Mapping, set, frozenset)):
        raise _bad_param(param, owner, "be ordered (a Series, array, list or scalar)",
                         f"a {type(values).__name__}")
    kind = "tuple" if isinstance(values, tuple) else "list"
    return kind, _object_array(list(values))


def _object_array(items: list) -> np.ndarray:
    # np.asarray would turn a list of tuples into a 2-D array; fill a 1-D object array instead.
    array = np.empty(len(items), dtype=object)
    array[:] = items
    return array


def _factorize(data):
    """codes, uniques (a list of native values) of 1-D data, missing values kept as values."""
    try:
        codes, uniques = pd.factorize(data, use_na_sentinel=False)
    except TypeError:  # unhashable items: fall back to a Python loop so the error can name them
        seen: dict = {}
        codes_list, uniques = [], []
        for item in data:
            key = id(item) if not _hashable(item) else ("h", item)
            if key not in seen:
                seen[key] = len(uniques)
                uniques.append(item)
            codes_list.append(seen[key])
        codes = np.asarray(codes_list, dtype=np.intp)
    return np.asarray(codes, dtype=np.intp), list(uniques)


def _hashable(value) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


# ------------------------------------------------------------------------- hierarchy
class Hierarchy:
    """A generalization hierarchy of one quasi-identifier: levels of equal depth, one root.

    Level 0 holds the leaves (the values that occur in the data), level ``height`` the root;
    every node has exactly one parent on the next level.  Build one from ARX's CSV format
    (:meth:`from_arx`), from rows or mappings (:meth:`from_levels`, :meth:`from_mapping`), or
    with a builder (:meth:`intervals`, :meth:`masking`, :meth:`dates`); calling the class
    is the same as :meth:`from_levels`.  A hierarchy is immutable, hashable and picklable.

    Parameters
    ----------
    levels : pandas.DataFrame, 2-D array or sequence of sequences
        One row per leaf: ``leaf, level 1, ..., root`` (the ARX layout).
    name : str, optional
        Name of the attribute (used in messages and as the name of generalized Series).

    Raises
    ------
    HierarchyError
        If the rows are empty, a label is missing, rows have unequal depth, a leaf repeats,
        a node has two parents, or the last level holds more than one label.

    Notes
    -----
    Nodes are ``(level, label)`` pairs: a label may repeat on several levels (a category
    kept unchanged at level 1, say ``'c'`` under ``'c'``), so a label alone does not always
    identify a node.  Methods taking a node accept the pair, or a bare label when it
    occurs on exactly one level.  How data values are matched to leaves (``39`` against the
    leaf ``'39'``) is described in the module docstring.

    References
    ----------
    Chen, LeFevre and Ramakrishnan (2009), "Privacy skyline", Sect. 1.3 (generalized regions
    ``[2*, *, 1234*]``) and Sect. 6.2 (multidimensional generalization of the QI space).
    Prasser and Kohlmayer, ARX Data Anonymization Tool, hierarchy CSV format.

    Examples
    --------
    >>> h = Hierarchy([["Male", "*"], ["Female", "*"]], name="sex")
    >>> h
    Hierarchy(name='sex', height=1, leaves=2)
    >>> h.generalize(["Male", "Female"], 1)
    ['*', '*']
    >>> h.root, h.leaves
    ('*', ('Male', 'Female'))
    """

    __slots__ = (
        "_name", "_rows", "_height", "_leaves", "_labels", "_label_arrays", "_codes",
        "_label_code", "_first_leaf", "_label_levels", "_key_kind", "_alias", "_graph",
        "_hash",
    )

    def __init__(self, levels, *, name=None):
        name = _check_name(name, "Hierarchy")
        rows, numbers_ = _rows_of(levels, "Hierarchy")
        self._build(rows, name, numbers_)

    # ---------------------------------------------------------------- construction core
    def _build(self, rows: list, name, row_numbers) -> None:
        """Validate rows (each a sequence leaf, ..., root) and set every attribute.

        ``row_numbers`` is a list of 1-based row numbers to cite in messages, or None to
        cite leaves only (mappings have no rows).  Works column by column with
        :func:`pandas.factorize`, so 100,000 leaves take a fraction of a second.
        """
        title = f"Hierarchy {name!r}" if name is not None else "Hierarchy"

        def where(i: int) -> str:
            leaf = _native(rows[i][0]) if len(rows[i]) else None
            if row_numbers is None:
                return f"leaf {leaf!r}"
            return f"row {row_numbers[i]} (leaf {leaf!r})"

        if not rows:
            raise HierarchyError(f"{title} is empty: give at least one leaf and its levels.")
        lasts = _object_array([row[-1] if len(row) else None for row in rows])
        suspects = np.flatnonzero(np.asarray(pd.isna(lasts), dtype=bool) | (lasts == ""))
        for i in suspects.tolist():
            row = rows[i]
            if not len(row) or _is_blank(row[-1]):
                # trailing empty cells are the padding of a ragged table, not labels
                row = list(row)
                while row and _is_blank(row[-1]):
                    row.pop()
                if not row:
                    cite = f"row {row_numbers[i]}" if row_numbers else "a row"
                    raise HierarchyError(f"{title}: {cite} is empty.")
                rows[i] = row
        depth = len(rows[0])
        lengths = np.fromiter(map(len, rows), dtype=np.intp, count=len(rows))
        unequal = np.flatnonzero(lengths != depth)
        if unequal.size:
            i = int(unequal[0])
            raise HierarchyError(
                f"{title}: levels of unequal depth: {where(i)} has {len(rows[i]) - 1} "
                f"level(s) above the leaf but {where(0)} has {depth - 1}."
            )
        height = depth - 1

        # Per level: distinct labels in order of first appearance, each row's code, and the
        # first row holding each label.
        labels, codes, label_code, first_row = [], [], [], []
        for level in range(depth):
            column = _object_array([row[level] for row in rows])
            blank = np.asarray(pd.isna(column), dtype=bool) | (column == "")
            if blank.any():
                raise HierarchyError(
                    f"{title}: {where(int(np.argmax(blank)))} has an empty label at level {level}."
                )
            try:
                level_codes, uniques = pd.factorize(column)
            except TypeError:
                i = next(i for i, label in enumerate(column) if not _hashable(label))
                raise HierarchyError(
                    f"{title}: {where(i)} has an unhashable label {column[i]!r} at level {level}."
                ) from None
            level_codes = np.asarray(level_codes, dtype=np.intp)
            first = np.unique(level_codes, return_index=True)[1]
            if level == 0 and len(first) < len(rows):
                repeated = np.flatnonzero(np.arange(len(rows)) != first[level_codes])
                i = int(repeated[0])
                raise HierarchyError(
                    f"{title}: leaf {_native(column[first[level_codes[i]]])!r} appears twice, in "
                    f"{where(int(first[level_codes[i]]))} and {where(i)}."
                )
            level_labels = tuple(uniques.tolist() if isinstance(uniques, np.ndarray) else uniques)
            if any(isinstance(label, np.generic) for label in level_labels):
                level_labels = tuple(_native(label) for label in level_labels)
            labels.append(level_labels)
            codes.append(level_codes)
            label_code.append({label: code for code, label in enumerate(level_labels)})
            first_row.append(first.astype(np.intp))

        # Each node has exactly one parent on the next level: compare every row's parent with
        # the parent seen on the first row of the same child.
        for level in range(height):
            child, parent = codes[level], codes[level + 1]
            expected = parent[first_row[level]][child]
            conflicts = np.flatnonzero(parent != expected)
            if conflicts.size:
                i = int(conflicts[0])
                first = int(first_row[level][child[i]])
                raise HierarchyError(
                    f"{title}: node {labels[level][child[i]]!r} at level {level} has two "
                    f"parents, {labels[level + 1][parent[first]]!r} ({where(first)}) and "
                    f"{labels[level + 1][parent[i]]!r} ({where(i)})."
                )
        if len(labels[height]) != 1:
            raise HierarchyError(
                f"{title} has {len(labels[height])} roots {_show(list(labels[height]))} at "
                f"level {height}; the last level must hold a single label such as '*'."
            )

        label_levels: dict = {}
        for level in range(depth):
            for label in labels[level]:
                label_levels.setdefault(label, []).append(level)

        leaves = labels[0]
        keys = [_numeric_key(leaf) for leaf in leaves]
        if all(k is not None for k in keys) and len(set(keys)) == len(keys):
            key_kind, alias = "numeric", dict(zip(keys, range(len(keys))))
        elif all(isinstance(leaf, str) and _ISO_DATE_RE.fullmatch(leaf) for leaf in leaves):
            key_kind, alias = "date", {}
        else:
            key_kind, alias = "exact", {}

        label_arrays = []
        for level in range(depth):
            # indexed by leaf position; leaves are in row order, so leaf position == row
            array = _object_array(list(labels[level]))[codes[level]]
            array.flags.writeable = False
            label_arrays.append(array)
        code_matrix = np.vstack(codes)
        code_matrix.flags.writeable = False
        stored_rows = tuple(zip(*label_arrays))

        set_ = object.__setattr__
        set_(self, "_name", name)
        set_(self, "_rows", stored_rows)
        set_(self, "_height", height)
        set_(self, "_leaves", leaves)
        set_(self, "_labels", tuple(labels))
        set_(self, "_label_arrays", tuple(label_arrays))
        set_(self, "_codes", code_matrix)
        set_(self, "_label_code", tuple(label_code))
        set_(self, "_first_leaf", tuple(first_row))
        set_(self, "_label_levels", {k: tuple(v) for k, v in label_levels.items()})
        set_(self, "_key_kind", key_kind)
        set_(self, "_alias", alias)
        set_(self, "_graph", None)
        set_(self, "_hash", None)

    @classmethod
    def _from_rows(cls, rows: list, name, row_numbers=None) -> "Hierarchy":
        self = cls.__new__(cls)
        self._build(rows, name, row_numbers if row_numbers is not None else
                    list(range(1, len(rows) + 1)))
        return self

    # --------------------------------------------------------------------- readers
    @classmethod
    def from_arx(cls, source, *, name=None, sep=";") -> "Hierarchy":
        """Read a hierarchy in ARX's CSV format: one row per leaf, ``leaf;level 1;...;*``.

        Parameters
        ----------
        source : path, file-like, str or pandas.DataFrame
            A path (``str``, ``os.PathLike``, or an ``importlib.resources`` traversable), an
            open text or binary file, the CSV text itself, or a frame already read (handed
            to :meth:`from_levels`).  A ``str`` is text if it contains a newline, or the
            separator and is not the name of an existing file; otherwise it is a path.
        name : str, optional
            Name of the attribute.
        sep : str, default ``";"``
            Field separator.  Fields may be quoted with ``"``; files are read as UTF-8.

        Returns
        -------
        Hierarchy

        Raises
        ------
        HierarchyError
            As for :meth:`from_levels`; rows are cited by their line number.  Blank lines are
            skipped; trailing empty fields are ignored.
        FileNotFoundError
            If ``source`` names a file that does not exist.

        Examples
        --------
        >>> h = Hierarchy.from_arx("1;0-4;*\\n5;5-9;*\\n", name="age")
        >>> h.height, h.nodes_at(1)
        (2, ((1, '0-4'), (1, '5-9')))
        >>> h.generalize([1, 5], 1)
        ['0-4', '5-9']
        """
        name = _check_name(name, "Hierarchy.from_arx")
        sep = _check_sep(sep, "Hierarchy.from_arx")
        if isinstance(source, pd.DataFrame):
            return cls.from_levels(source, name=name)
        text = _read_text(source, sep)
        rows, numbers_ = [], []
        reader = csv.reader(io.StringIO(text), delimiter=sep, quotechar='"')
        for row in reader:
            if not row or all(cell == "" for cell in row):
                continue
            rows.append(row)
            numbers_.append(reader.line_num)
        return cls._from_rows(rows, name, numbers_)

    @classmethod
    def from_levels(cls, levels, *, name=None) -> "Hierarchy":
        """Build a hierarchy from rows in memory: one row per leaf, ``leaf, level 1, ..., root``.

        Parameters
        ----------
        levels : pandas.DataFrame, 2-D array or sequence of sequences
            The ARX layout in memory.  Column names of a frame are ignored.  Labels keep
            their Python type (numpy scalars become Python scalars).  Trailing missing or
            empty cells (the padding of a ragged table) are ignored.
        name : str, optional
            Name of the attribute.

        Returns
        -------
        Hierarchy

        Raises
        ------
        HierarchyError
            Naming the offending row (1-based) and leaf: empty input, an empty label inside a
            row, rows of unequal depth, a repeated leaf, a node with two parents, more than
            one root.

        Examples
        --------
        >>> import pandas as pd
        >>> frame = pd.DataFrame([["a", "ab", "*"], ["b", "ab", "*"], ["c", "c", "*"]])
        >>> h = Hierarchy.from_levels(frame, name="letter")
        >>> h.lca(["a", "b"]), h.lca(["a", "c"])
        ('ab', '*')
        >>> Hierarchy.from_levels([["a", "x", "*"], ["b", "y", "+"]])
        Traceback (most recent call last):
        ...
        skyprivacy.errors.HierarchyError: Hierarchy has 2 roots ['*', '+'] at level 2; the last level must hold a single label such as '*'.
        """
        name = _check_name(name, "Hierarchy.from_levels")
        rows, numbers_ = _rows_of(levels, "Hierarchy.from_levels")
        return cls._from_rows(rows, name, numbers_)

    @classmethod
    def from_mapping(cls, mapping, *, name=None) -> "Hierarchy":
        """Build a hierarchy from explicit mappings, in one of two forms.

        Parameters
        ----------
        mapping : dict or sequence of dicts
            * ``{leaf: [level 1, level 2, ..., root]}`` -- each leaf with the labels of its
              ancestors, bottom up (a bare string stands for a one-element list); or
            * ``[{leaf: parent}, {parent: grandparent}, ...]`` -- one ``{child: parent}`` dict
              per level, bottom up; the leaves are the keys of the first dict, and every node
              must have a parent in the next dict (the last dict maps to the root).
        name : str, optional
            Name of the attribute.

        Returns
        -------
        Hierarchy
            Leaves in the order of the (first) dict.

        Raises
        ------
        HierarchyError
            As for :meth:`from_levels` (citing leaves), and for the per-level form: a node
            without a parent in the next dict, or a dict key that is not a node of the level
            below (it would be silently dropped).

        Examples
        --------
        >>> h = Hierarchy.from_mapping({"flu": ["respiratory", "*"],
        ...                             "asthma": ["respiratory", "*"],
        ...                             "gastritis": ["digestive", "*"]}, name="disease")
        >>> h.generalize("asthma", 1)
        'respiratory'
        >>> g = Hierarchy.from_mapping([{"flu": "respiratory", "asthma": "respiratory",
        ...                              "gastritis": "digestive"},
        ...                             {"respiratory": "*", "digestive": "*"}])
        >>> g.to_frame().equals(h.to_frame())
        True
        """
        owner = "Hierarchy.from_mapping"
        name = _check_name(name, owner)
        title = f"Hierarchy {name!r}" if name is not None else "Hierarchy"
        if isinstance(mapping, Mapping):
            rows = []
            for leaf, ancestors in mapping.items():
                if isinstance(ancestors, str) or not isinstance(ancestors, Iterable):
                    ancestors = [ancestors]
                rows.append([leaf, *ancestors])
            self = cls.__new__(cls)
            self._build(rows, name, None)
            return self
        if (isinstance(mapping, (str, bytes)) or not isinstance(mapping, Sequence)
                or not all(isinstance(m, Mapping) for m in mapping)):
            raise param_error("mapping", owner,
                              "be a dict {leaf: [ancestors]} or a list of {child: parent} dicts",
                              mapping)
        if not mapping or not mapping[0]:
            raise HierarchyError(f"{title} is empty: give at least one leaf and its levels.")
        rows = [[leaf] for leaf in mapping[0]]
        for step, parents in enumerate(mapping):
            nodes = {row[-1] for row in rows}
            stray = [key for key in parents if key not in nodes]
            if stray:
                raise HierarchyError(
                    f"{title}: mapping {step + 1} (level {step} -> level {step + 1}) has keys "
                    f"{_show(stray)} that are not nodes at level {step}."
                )
            for row in rows:
                if row[-1] not in parents:
                    raise HierarchyError(
                        f"{title}: node {row[-1]!r} at level {step} has no parent: it is not a "
                        f"key of mapping {step + 1} (level {step} -> level {step + 1})."
                    )
                row.append(parents[row[-1]])
        self = cls.__new__(cls)
        self._build(rows, name, None)
        return self

    # -------------------------------------------------------------------- builders
    @classmethod
    def intervals(cls, values, widths, *, name=None, closed="left", origin=0) -> "Hierarchy":
        """Nested numeric intervals: level ``i`` groups the numeric leaves by ``widths[i-1]``.

        Parameters
        ----------
        values : iterable of numbers
            The leaves, e.g. a data column or ``range(17, 91)`` for the integers 17..90.
            Duplicates are merged; leaves are sorted.
        widths : sequence of numbers
            Interval width per level, increasing, each a multiple of the previous one so
            that intervals nest (``(5, 10, 20)``, not ``(5, 12)``).
        name : str, optional
            Name of the attribute.
        closed : {"left", "right"}, default "left"
            ``"left"`` makes ``[30, 40)``, ``"right"`` makes ``(30, 40]``.
        origin : number, default 0
            Intervals are aligned on ``origin + j * width`` for integers ``j``.

        Returns
        -------
        Hierarchy
            Height ``len(widths) + 1``; the root is ``'*'``.  Labels are ``"[lo, hi)"`` with
            integral bounds written without a decimal point; bounds are computed exactly
            (``0.1`` steps give ``[0.3, 0.4)``, not ``0.30000000000000004``).

        Raises
        ------
        HierarchyError
            If a value is missing, not a number, or infinite.
        InvalidParameterError
            For bad ``widths``, ``closed`` or ``origin``.

        Examples
        --------
        >>> h = Hierarchy.intervals(range(17, 91), (5, 10, 20), name="age")
        >>> h.generalize([17, 39, 90], 2)
        ['[10, 20)', '[30, 40)', '[90, 100)']
        >>> h.generalize([39], 3), h.height
        (['[20, 40)'], 4)
        >>> Hierarchy.intervals([0.25, 1.0], [0.5], closed="right").generalize([0.25, 1.0], 1)
        ['(0, 0.5]', '(0.5, 1]']
        """
        owner = "Hierarchy.intervals"
        name = _check_name(name, owner)
        title = f"Hierarchy {name!r}" if name is not None else "Hierarchy"
        if closed not in ("left", "right"):
            raise param_error("closed", owner, "be 'left' or 'right'", closed)
        if (isinstance(origin, (bool, np.bool_)) or not isinstance(origin, numbers.Real)
                or not math.isfinite(origin)):
            raise param_error("origin", owner, "be a finite number", origin)
        width_list = _check_widths(widths, owner)
        leaves = _numbers_of(values, title)
        # Exact arithmetic on integers: scale every number (leaves as written, widths, origin)
        # by the common denominator, then floor-divide; labels are made once per interval.
        exact_leaves = leaves if all(isinstance(v, int) for v in leaves) else [
            _exact(v) for v in leaves]
        exact_widths = [_exact(w) for w in width_list]
        start = _exact(origin)
        scale = math.lcm(*(f.denominator for f in (*exact_widths, start)),
                         *({Fraction(v).denominator for v in exact_leaves}
                           if exact_leaves is not leaves else ()))
        scaled = [int(v * scale) for v in exact_leaves]
        shift = int(start * scale)
        steps = [int(w * scale) for w in exact_widths]
        # int64 unless a number could overflow it; Python ints (object arrays) stay exact
        big = max(max(map(abs, scaled)), abs(shift), steps[-1]) > 2**60 or scale > 2**20
        values = np.asarray(scaled, dtype=object if big else np.int64) - shift
        template = "[{}, {})" if closed == "left" else "({}, {}]"
        columns = [leaves]
        for step in steps:
            if closed == "left":
                low = values // step * step
            else:
                low = -((-values) // step) * step - step
            uniques, inverse = np.unique(low, return_inverse=True)
            if scale == 1 and start.denominator == 1:  # integers: no Fractions needed
                offset = int(start)
                bounds = [(u + offset, u + offset + step) for u in uniques.tolist()]
            else:
                bounds = [(Fraction(int(u), scale) + start, Fraction(int(u) + step, scale) + start)
                          for u in uniques]
            names = _object_array([template.format(_format_number(lo), _format_number(hi))
                                   for lo, hi in bounds])
            columns.append(names[inverse.reshape(-1)].tolist())
        columns.append([ROOT_LABEL] * len(leaves))
        rows = list(zip(*columns))
        return cls._from_rows(rows, name)

    @classmethod
    def masking(cls, codes, *, levels=None, mask_char="*", name=None) -> "Hierarchy":
        """Mask trailing characters of fixed-length codes: ``47906 -> 4790* -> 479** -> ... -> *``.

        Parameters
        ----------
        codes : iterable of str or int
            The leaves, e.g. ZIP codes.  Integers are written in decimal (so a ZIP read as
            the integer 2139 is the four-character code ``'2139'``; keep ZIPs as strings).
            All codes must have the same length; duplicates are merged; leaves are sorted.
        levels : sequence of int, optional
            Number of masked trailing characters at each level, strictly increasing, each in
            ``1 .. len(code)``.  Default: ``1, 2, ..., len(code) - 1``.
        mask_char : str, default ``"*"``
            The single character that replaces masked ones.
        name : str, optional
            Name of the attribute.

        Returns
        -------
        Hierarchy
            Height ``len(levels) + 1``; the root is ``'*'``.  Leaves are strings, matched
            by the numeric lookup rule when they all read as numbers (see the module
            docstring).

        Raises
        ------
        HierarchyError
            If a code is missing, empty, of another type, or of another length.
        InvalidParameterError
            For bad ``levels`` or ``mask_char``.

        Examples
        --------
        >>> h = Hierarchy.masking(["47906", "47907", "47920"], name="zip")
        >>> [label for _, label in h.ancestors("47906")]
        ['4790*', '479**', '47***', '4****', '*']
        >>> h.lca(["47906", "47920"])
        '479**'
        >>> Hierarchy.masking(["47906", "47920"], levels=[2, 5]).generalize(47906, 1)
        '479**'
        """
        owner = "Hierarchy.masking"
        name = _check_name(name, owner)
        title = f"Hierarchy {name!r}" if name is not None else "Hierarchy"
        if not isinstance(mask_char, str) or len(mask_char) != 1:
            raise param_error("mask_char", owner, "be a single character", mask_char)
        if isinstance(codes, (str, bytes)) or not isinstance(codes, Iterable):
            raise param_error("codes", owner, "be an iterable of codes (str or int)", codes)
        texts: dict = {}
        for code in codes:
            code = _native(code)
            if _is_missing(code):
                raise HierarchyError(f"{title}: codes to mask contain a missing value ({code!r}).")
            if isinstance(code, bool) or not isinstance(code, (str, int)):
                raise HierarchyError(
                    f"{title}: codes to mask must be strings or integers; got {code!r}."
                )
            text = code if isinstance(code, str) else str(code)
            if text == "":
                raise HierarchyError(f"{title}: codes to mask contain an empty string.")
            texts.setdefault(text, None)
        if not texts:
            raise HierarchyError(f"{title} is empty: give at least one code to mask.")
        leaves = sorted(texts)
        length = len(leaves[0])
        for text in leaves:
            if len(text) != length:
                raise HierarchyError(
                    f"{title}: codes to mask must all have the same length; {text!r} has "
                    f"{len(text)} characters but {leaves[0]!r} has {length}."
                )
        if levels is None:
            counts = list(range(1, length))
        else:
            requirement = f"be strictly increasing integers in [1, {length}]"
            if isinstance(levels, (str, bytes)) or not isinstance(levels, Iterable):
                raise param_error("levels", owner, requirement, levels)
            counts = [_native(c) for c in levels]
            if (not all(isinstance(c, int) and not isinstance(c, bool) for c in counts)
                    or any(not 1 <= c <= length for c in counts)
                    or any(a >= b for a, b in zip(counts, counts[1:]))):
                raise param_error("levels", owner, requirement, levels)
        rows = [
            [text, *(text[: length - c] + mask_char * c for c in counts), ROOT_LABEL]
            for text in leaves
        ]
        return cls._from_rows(rows, name)

    @classmethod
    def dates(cls, values, *, levels=("month", "year", "decade"), name=None) -> "Hierarchy":
        """Calendar hierarchy: day -> month -> year -> decade ... -> ``'*'``.

        Parameters
        ----------
        values : iterable of date-likes
            ``datetime.date``, ``datetime.datetime``, ``pandas.Timestamp``,
            ``numpy.datetime64`` or strings pandas can parse.  The leaves are the distinct
            calendar days as ISO strings ``YYYY-MM-DD``, sorted; a time of day is dropped.
        levels : sequence of str, default ``("month", "year", "decade")``
            Levels above the day, in increasing order, chosen from ``"month"`` (``2024-03``),
            ``"quarter"`` (``2024-Q1``), ``"year"`` (``2024``), ``"decade"`` (``2020-2029``)
            and ``"century"`` (``2000-2099``).
        name : str, optional
            Name of the attribute.

        Returns
        -------
        Hierarchy
            Height ``len(levels) + 1``.  Date-like data find their day's leaf (see the
            module docstring).

        Raises
        ------
        HierarchyError
            If a value is missing or cannot be read as a date.
        InvalidParameterError
            For bad ``levels``.

        Examples
        --------
        >>> import datetime
        >>> h = Hierarchy.dates(["2024-03-15", "2019-12-31"], levels=("quarter", "year"))
        >>> h.generalize([datetime.date(2024, 3, 15)], 1)
        ['2024-Q1']
        >>> h.lca(["2024-03-15", "2019-12-31"]), h.leaves
        ('*', ('2019-12-31', '2024-03-15'))
        """
        owner = "Hierarchy.dates"
        name = _check_name(name, owner)
        title = f"Hierarchy {name!r}" if name is not None else "Hierarchy"
        requirement = f"be a sequence of distinct names from {list(_DATE_LEVELS)} in that order"
        if isinstance(levels, (str, bytes)) or not isinstance(levels, Iterable):
            raise param_error("levels", owner, requirement, levels)
        level_names = list(levels)
        ranks = [_DATE_LEVELS.index(lv) if lv in _DATE_LEVELS else -1 for lv in level_names]
        if any(r < 0 for r in ranks) or any(a >= b for a, b in zip(ranks, ranks[1:])):
            raise param_error("levels", owner, requirement, levels)
        if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
            raise param_error("values", owner, "be an iterable of dates", values)
        items = list(values.tolist() if isinstance(values, (pd.Series, pd.Index, np.ndarray))
                     else values)
        missing = [v for v in items if _is_missing(v)]
        if missing:
            raise HierarchyError(
                f"{title}: dates contain {len(missing)} missing value(s) {_show(missing)}."
            )
        days: dict = {}
        unreadable = []
        for value in items:
            key = _date_key(value)
            if key is None and isinstance(value, str):
                try:
                    key = pd.Timestamp(value).date().isoformat()
                except (TypeError, ValueError, OverflowError):
                    pass
            if key is None:  # numbers are refused: pandas would read 2024 as nanoseconds
                unreadable.append(value)
                continue
            days.setdefault(key, None)
        if unreadable:
            raise HierarchyError(
                f"{title}: {len(unreadable)} value(s) cannot be read as dates: "
                f"{_show(unreadable)}."
            )
        if not days:
            raise HierarchyError(f"{title} is empty: give at least one date.")
        rows = []
        for day in sorted(days):
            year, month = int(day[:4]), int(day[5:7])
            labels = {
                "month": f"{year:04d}-{month:02d}",
                "quarter": f"{year:04d}-Q{(month - 1) // 3 + 1}",
                "year": f"{year:04d}",
                "decade": f"{year // 10 * 10:04d}-{year // 10 * 10 + 9:04d}",
                "century": f"{year // 100 * 100:04d}-{year // 100 * 100 + 99:04d}",
            }
            rows.append([day, *(labels[lv] for lv in level_names), ROOT_LABEL])
        return cls._from_rows(rows, name)

    @classmethod
    def bundled(cls, dataset: str, attribute: str) -> "Hierarchy":
        """A hierarchy shipped with skyprivacy (ARX's Adult hierarchies; Nursery's ordinal
        groupings).

        The files are ARX's, unchanged.  Note that ARX's age labels are off by one at
        multiples of five (40 sits under ``35-39``, 50 under ``45-49``): the tree is valid
        but the labels misname those ages; ``Hierarchy.intervals(range(1, 101), (5, 10, 20))``
        gives labels that are true.

        Parameters
        ----------
        dataset : {"adult", "nursery"}
            The data set.
        attribute : str
            Adult: a column of :func:`skyprivacy.datasets.load_adult` with an ARX hierarchy
            (``age``, ``workclass``, ``education``, ``marital-status``, ``occupation``,
            ``race``, ``sex``, ``native-country``, ``income``), or ARX's name
            ``salary-class`` for ``income``.  Nursery: any column of
            :func:`skyprivacy.datasets.load_nursery` (each leaf, then a group of adjacent
            ordinal levels, then ``*``).

        Returns
        -------
        Hierarchy
            Named ``attribute``.  Parsed once per process (hierarchies are immutable).

        Examples
        --------
        >>> age = Hierarchy.bundled("adult", "age")
        >>> age.height, age.generalize([39], 1)
        (4, ['35-39'])
        >>> Hierarchy.bundled("nursery", "children").generalize(["3", "more"], 1)
        ['3-more', '3-more']
        """
        owner = "Hierarchy.bundled"
        if dataset not in ("adult", "nursery"):
            raise param_error("dataset", owner, "be 'adult' or 'nursery'", dataset)
        if dataset == "nursery":
            from ..datasets import NURSERY_COLUMNS
            if attribute not in NURSERY_COLUMNS:
                raise param_error("attribute", owner, f"be one of {list(NURSERY_COLUMNS)}",
                                  attribute)
            return _bundled_nursery(attribute)
        choices = [*_ADULT_COLUMNS_TO_FILES, "salary-class"]
        if attribute not in choices:
            raise param_error("attribute", owner, f"be one of {choices}", attribute)
        return _bundled_adult(attribute)

    # ------------------------------------------------------------------- properties
    @property
    def name(self):
        """Name of the attribute, or None."""
        return self._name

    @property
    def height(self) -> int:
        """Number of generalization levels above the leaves; the root is at level ``height``."""
        return self._height

    @property
    def root(self):
        """Label of the root."""
        return self._labels[self._height][0]

    @property
    def root_node(self) -> tuple:
        """The root as a node ``(height, label)``."""
        return (self._height, self.root)

    @property
    def leaves(self) -> tuple:
        """Leaf labels, in the order of the rows the hierarchy was built from."""
        return self._leaves

    @property
    def graph(self) -> nx.DiGraph:
        """Frozen :class:`networkx.DiGraph`, edges parent -> child.

        Nodes are ``(level, label)`` with attributes ``level`` and ``label``; the graph
        attribute ``name`` is the hierarchy's name.
        """
        if self._graph is None:
            object.__setattr__(self, "_graph", self._make_graph())
        return self._graph

    def _make_graph(self) -> nx.DiGraph:
        graph = nx.DiGraph(name=self._name)
        for level in range(self._height, -1, -1):
            graph.add_nodes_from(((level, label), {"level": level, "label": label})
                                 for label in self._labels[level])
        for level in range(self._height):
            # one edge per distinct (parent, child) pair, in order of first appearance
            child_codes = np.arange(len(self._labels[level]))
            parent_codes = self._codes[level + 1][self._first_leaf[level]]
            upper, lower = self._labels[level + 1], self._labels[level]
            graph.add_edges_from(((level + 1, upper[p]), (level, lower[c]))
                                 for p, c in zip(parent_codes.tolist(), child_codes.tolist()))
        return nx.freeze(graph)

    def _has_node(self, node) -> bool:
        if not (isinstance(node, tuple) and len(node) == 2 and _hashable(node)):
            return False
        level, label = node
        return (isinstance(level, numbers.Integral) and not isinstance(level, bool)
                and 0 <= level <= self._height and label in self._label_code[level])

    # ------------------------------------------------------------------ structure
    def _check_level(self, level, owner: str) -> int:
        if (isinstance(level, (bool, np.bool_)) or not isinstance(level, numbers.Integral)
                or not 0 <= level <= self._height):
            raise param_error("level", owner, f"be an integer in [0, {self._height}]", level)
        return int(level)

    def nodes_at(self, level) -> tuple:
        """Nodes ``(level, label)`` at a level, in order of first appearance.

        Examples
        --------
        >>> Hierarchy.bundled("adult", "education").nodes_at(2)
        ((2, 'Higher education'), (2, 'Secondary education'), (2, 'Primary education'))
        """
        level = self._check_level(level, "Hierarchy.nodes_at")
        return tuple((level, label) for label in self._labels[level])

    def labels_at(self, level) -> tuple:
        """Labels at a level, in order of first appearance (``labels_at(0) == leaves``)."""
        return self._labels[self._check_level(level, "Hierarchy.labels_at")]

    def _title(self) -> str:
        return f"Hierarchy {self._name!r}" if self._name is not None else "Hierarchy"

    def _resolve(self, node) -> tuple:
        """A node given as (level, label), a label on a single level, or a data value of a leaf."""
        if self._has_node(node):
            return (int(node[0]), self._labels[node[0]][self._label_code[node[0]][node[1]]])
        if _hashable(node):
            levels = self._label_levels.get(node)
            if levels is not None and len(levels) > 1:
                raise HierarchyError(
                    f"{self._title()}: label {node!r} is at levels "
                    f"{', '.join(map(str, levels))}; pass a (level, label) node to say which."
                )
            if levels is not None:
                return (levels[0], node)
        position = self._leaf_position(node)
        if position >= 0:
            return (0, self._leaves[position])
        example = (min(1, self._height), self._labels[min(1, self._height)][0])
        raise HierarchyError(
            f"{self._title()} has no node {_native(node)!r}; nodes are (level, label) pairs "
            f"such as {example!r}."
        )

    def level_of(self, node) -> int:
        """Level of a node (``(level, label)``, or a label found on exactly one level).

        Examples
        --------
        >>> h = Hierarchy.bundled("adult", "education")
        >>> h.level_of("Undergraduate"), h.level_of("Masters"), h.level_of((3, "*"))
        (1, 0, 3)
        """
        return self._resolve(node)[0]

    def parent(self, node):
        """The parent node ``(level + 1, label)``, or None for the root.

        Examples
        --------
        >>> Hierarchy.bundled("adult", "age").parent(39)
        (1, '35-39')
        """
        level, label = self._resolve(node)
        if level == self._height:
            return None
        row = self._first_leaf[level][self._label_code[level][label]]
        return (level + 1, self._labels[level + 1][self._codes[level + 1][row]])

    def ancestors(self, node) -> tuple:
        """Nodes from the parent of ``node`` up to the root (empty for the root)."""
        level, label = self._resolve(node)
        row = self._first_leaf[level][self._label_code[level][label]]
        return tuple((up, self._labels[up][self._codes[up][row]])
                     for up in range(level + 1, self._height + 1))

    def children(self, node) -> tuple:
        """Child nodes, in order of first appearance (empty for a leaf).

        Examples
        --------
        >>> Hierarchy.bundled("adult", "marital-status").children("*")
        ((1, 'spouse present'), (1, 'spouse not present'))
        """
        return tuple(self.graph.successors(self._resolve(node)))

    def leaves_under(self, node) -> frozenset:
        """Leaf labels in the subtree of a node (a leaf gives itself).

        Examples
        --------
        >>> sorted(Hierarchy.bundled("adult", "education").leaves_under("Graduate"))
        ['Doctorate', 'Masters']
        """
        level, label = self._resolve(node)
        mask = self._codes[level] == self._label_code[level][label]
        return frozenset(self._labels[0][i] for i in np.flatnonzero(mask))

    # --------------------------------------------------------------------- lookups
    def _leaf_position(self, value) -> int:
        """Position of the leaf a data value stands for, or -1 (module docstring's rule)."""
        if not _hashable(value):
            return -1
        position = self._label_code[0].get(value)
        if position is not None:
            if isinstance(value, (bool, np.bool_)) == isinstance(self._leaves[position], bool):
                return position
        if self._key_kind == "numeric":
            key = _numeric_key(value)
            if key is not None:
                return self._alias.get(key, -1)
        elif self._key_kind == "date":
            key = _date_key(value)
            if key is not None:
                return self._label_code[0].get(key, -1)
        return -1

    def _positions(self, data, *, nodes: bool = False):
        """Leaf positions of 1-D data (-1 where uncovered), and nodes found when ``nodes``.

        Works on the distinct values only, so the cost is one factorize of the data plus a
        dictionary lookup per distinct value.
        """
        codes, uniques = _factorize(data)
        found_nodes = []
        unique_positions = np.empty(len(uniques), dtype=np.intp)
        for j, value in enumerate(uniques):
            if nodes and self._has_node(value):
                found_nodes.append((int(value[0]), value[1]))
                unique_positions[j] = -2
            else:
                unique_positions[j] = self._leaf_position(value)
        return codes, uniques, unique_positions, found_nodes

    def _uncovered_error(self, codes, uniques, unique_positions) -> HierarchyError:
        bad = np.flatnonzero(unique_positions == -1)
        rows = int(np.isin(codes, bad).sum())
        values = [uniques[j] for j in bad]
        return HierarchyError(
            f"{self._title()} does not cover {len(values)} distinct value(s) of the data "
            f"({rows} row(s)): {_show(values)}; its leaves include {_show(list(self._leaves))}."
        )

    def uncovered(self, values) -> tuple:
        """Distinct values that no leaf covers, in order of first appearance.

        Examples
        --------
        >>> Hierarchy.bundled("adult", "sex").uncovered(["Male", "male", None, "Male"])
        ('male', nan)
        """
        return self._uncovered(values, "Hierarchy.uncovered")

    def _uncovered(self, values, owner: str) -> tuple:
        _, data = _one_dimensional(values, owner)
        _, uniques, unique_positions, _ = self._positions(data)
        return tuple(_native(uniques[j]) for j in np.flatnonzero(unique_positions < 0))

    def covers(self, values) -> bool:
        """Whether every value (or the single value given) is covered by a leaf.

        Examples
        --------
        >>> age = Hierarchy.bundled("adult", "age")
        >>> age.covers([17, "90"]), age.covers(101)
        (True, False)
        """
        return not self._uncovered(values, "Hierarchy.covers")

    def validate(self, values) -> None:
        """Raise :class:`HierarchyError` naming the values no leaf covers.

        Examples
        --------
        >>> Hierarchy.bundled("adult", "sex").validate(["Male", " Female", "x", "x"])
        Traceback (most recent call last):
        ...
        skyprivacy.errors.HierarchyError: Hierarchy 'sex' does not cover 2 distinct value(s) of the data (3 row(s)): [' Female', 'x']; its leaves include ['Male', 'Female'].
        """
        kind, data = _one_dimensional(values, "Hierarchy.validate")
        codes, uniques, unique_positions, _ = self._positions(data)
        if (unique_positions < 0).any():
            raise self._uncovered_error(codes, uniques, unique_positions)

    def __contains__(self, value) -> bool:
        return self._leaf_position(value) >= 0

    # ------------------------------------------------------------------ generalize
    def generalize(self, values, level):
        """Replace each value by the label of its ancestor at ``level``.

        Parameters
        ----------
        values : Series, Index, ndarray, list, tuple, iterable or scalar
            Data values, matched to leaves by the module's lookup rule (``39`` finds the
            leaf ``'39'``).  A ``str`` is one value.
        level : int
            In ``[0, height]``; 0 gives the leaf labels themselves, ``height`` the root.

        Returns
        -------
        Same kind as ``values``
            A Series keeps its index and name (dtype inferred by pandas from the labels), an
            Index its name; an ndarray gives an object ndarray; a tuple a tuple; other
            iterables a list; a scalar a scalar.  The input is not modified.

        Raises
        ------
        HierarchyError
            If a value is not covered (names up to five distinct values and how many rows).
        InvalidParameterError
            If ``level`` is not an integer in ``[0, height]`` or ``values`` is not 1-D.

        Notes
        -----
        Vectorized: the values are factorized once and only the distinct ones are looked
        up, so a million values take a small fraction of a second.

        Examples
        --------
        >>> import pandas as pd
        >>> age = Hierarchy.bundled("adult", "age")
        >>> ages = pd.Series([39, 52, 38], index=[10, 11, 12], name="age")
        >>> age.generalize(ages, 2).tolist()
        ['30-39', '50-59', '30-39']
        >>> age.generalize(ages, 2).index.tolist()
        [10, 11, 12]
        >>> age.generalize(ages, 5)
        Traceback (most recent call last):
        ...
        skyprivacy.errors.InvalidParameterError: The 'level' parameter of Hierarchy.generalize must be an integer in [0, 4]. Got 5 instead.
        """
        owner = "Hierarchy.generalize"
        level = self._check_level(level, owner)
        kind, data = _one_dimensional(values, owner)
        codes, uniques, unique_positions, _ = self._positions(data)
        if (unique_positions < 0).any():
            raise self._uncovered_error(codes, uniques, unique_positions)
        labels = self._label_arrays[level][unique_positions][codes]
        if kind == "series":
            return pd.Series(labels, index=values.index, name=values.name)
        if kind == "index":
            return pd.Index(labels, name=values.name)
        if kind == "array":
            return labels
        if kind == "scalar":
            return labels[0]
        if kind == "tuple":
            return tuple(labels.tolist())
        return labels.tolist()

    # ------------------------------------------------------------------------ lca
    def lca_node(self, values) -> tuple:
        """Lowest node ``(level, label)`` whose subtree covers all values.

        Parameters
        ----------
        values : iterable or scalar
            Data values (matched to leaves as in :meth:`generalize`) and/or nodes
            ``(level, label)``; a 2-tuple that is a node is taken as that node.

        Returns
        -------
        tuple
            ``(level, label)``.

        Raises
        ------
        HierarchyError
            If a value is not covered.
        InvalidParameterError
            If ``values`` is empty.

        Examples
        --------
        >>> h = Hierarchy.bundled("adult", "education")
        >>> h.lca_node(["Masters", "Doctorate"])
        (1, 'Graduate')
        >>> h.lca_node(["Masters", (1, "Undergraduate")])
        (2, 'Higher education')
        """
        return self._lca(values, "Hierarchy.lca_node")

    def lca(self, values):
        """Label of the lowest common ancestor of the values: the label of a QI-group.

        Same arguments as :meth:`lca_node`; returns only the label.

        Examples
        --------
        >>> age = Hierarchy.bundled("adult", "age")
        >>> age.lca([31, 38]), age.lca([22, 38]), age.lca([31, 45]), age.lca([39])
        ('30-39', '20-39', '*', '39')
        >>> age.lca([])
        Traceback (most recent call last):
        ...
        skyprivacy.errors.InvalidParameterError: The 'values' parameter of Hierarchy.lca must be non-empty. Got [] instead.
        """
        return self._lca(values, "Hierarchy.lca")[1]

    def _lca(self, values, owner: str) -> tuple:
        kind, data = _one_dimensional(values, owner)
        if len(data) == 0:
            raise param_error("values", owner, "be non-empty", [])
        codes, uniques, unique_positions, found = self._positions(data, nodes=True)
        if (unique_positions == -1).any():
            raise self._uncovered_error(codes, uniques, unique_positions)
        representatives = [int(p) for p in unique_positions if p >= 0]
        start = 0
        for level, label in found:
            representatives.append(int(self._first_leaf[level][self._label_code[level][label]]))
            start = max(start, level)
        block = self._codes[start:, representatives]
        level = start + int(np.argmax((block == block[:, :1]).all(axis=1)))
        return (level, self._labels[level][self._codes[level][representatives[0]]])

    def lca_by_group(self, values, groups) -> pd.DataFrame:
        """Lowest common ancestor of the values in each group, vectorized over groups.

        Parameters
        ----------
        values : 1-D array-like
            Data values, matched to leaves as in :meth:`generalize`.
        groups : 1-D array-like of the same length
            Group key of each value (e.g. a QI-group id).  Missing keys are not allowed.

        Returns
        -------
        pandas.DataFrame
            Indexed by group key in order of first appearance, columns ``level`` (int) and
            ``label``.

        Raises
        ------
        HierarchyError
            If a value is not covered.
        InvalidParameterError
            If the lengths differ or a group key is missing.

        Examples
        --------
        >>> age = Hierarchy.bundled("adult", "age")
        >>> age.lca_by_group([31, 38, 45, 45], ["g1", "g1", "g2", "g2"])
            level  label
        g1      2  30-39
        g2      0     45
        """
        owner = "Hierarchy.lca_by_group"
        _, data = _one_dimensional(values, owner)
        _, keys = _one_dimensional(groups, owner, "groups")
        if len(keys) != len(data):
            raise _bad_param("groups", owner, f"have one key per value ({len(data)})",
                             f"{len(keys)} keys")
        group_codes, group_keys = pd.factorize(keys, use_na_sentinel=True)
        if (group_codes < 0).any():
            raise _bad_param("groups", owner, "have no missing keys",
                             f"{int((group_codes < 0).sum())} missing")
        codes, uniques, unique_positions, _ = self._positions(data)
        if (unique_positions < 0).any():
            raise self._uncovered_error(codes, uniques, unique_positions)
        positions = unique_positions[codes]
        n_groups = len(group_keys)
        result_level = np.full(n_groups, -1, dtype=np.intp)
        result_code = np.zeros(n_groups, dtype=np.intp)
        for level in range(self._height + 1):
            node_codes = self._codes[level][positions]
            low = np.full(n_groups, np.iinfo(np.intp).max, dtype=np.intp)
            high = np.full(n_groups, -1, dtype=np.intp)
            np.minimum.at(low, group_codes, node_codes)
            np.maximum.at(high, group_codes, node_codes)
            settle = (low == high) & (result_level < 0)
            result_level[settle] = level
            result_code[settle] = low[settle]
            if (result_level >= 0).all():
                break
        labels = [self._labels[lv][c]
                  for lv, c in zip(result_level.tolist(), result_code.tolist())]
        frame = pd.DataFrame({"level": result_level.astype(np.int64), "label": labels},
                             index=pd.Index(group_keys))
        return frame

    # ------------------------------------------------------------------- export
    def to_frame(self) -> pd.DataFrame:
        """One row per leaf, one column per level (columns ``0 .. height``): the ARX layout.

        Examples
        --------
        >>> Hierarchy.bundled("adult", "sex").to_frame()
                0  1
        0    Male  *
        1  Female  *
        """
        return pd.DataFrame([list(row) for row in self._rows], columns=range(self._height + 1))

    def to_arx(self, path_or_buffer=None, *, sep=";"):
        """Write the hierarchy in ARX's CSV format (readable by :meth:`from_arx` and by ARX).

        Parameters
        ----------
        path_or_buffer : str, os.PathLike, text file-like or None
            Where to write.  A path is written atomically (a temporary file renamed into
            place, so a failed write leaves no half file).  None returns the text.
        sep : str, default ``";"``
            Field separator; labels containing it are quoted.

        Returns
        -------
        str or None
            The CSV text when ``path_or_buffer`` is None.

        Examples
        --------
        >>> print(Hierarchy.intervals([3, 7], [5]).to_arx(), end="")
        3;[0, 5);*
        7;[5, 10);*
        """
        sep = _check_sep(sep, "Hierarchy.to_arx")
        buffer = io.StringIO()
        writer = csv.writer(buffer, delimiter=sep, quotechar='"', lineterminator="\n")
        for row in self._rows:
            writer.writerow([str(label) for label in row])
        text = buffer.getvalue()
        if path_or_buffer is None:
            return text
        if hasattr(path_or_buffer, "write"):
            path_or_buffer.write(text)
            return None
        if not isinstance(path_or_buffer, (str, os.PathLike)):
            raise param_error("path_or_buffer", "Hierarchy.to_arx",
                              "be a path, a text file-like object or None", path_or_buffer)
        path = os.fspath(path_or_buffer)
        directory = os.path.dirname(os.path.abspath(path))
        handle, temporary = tempfile.mkstemp(prefix=".hierarchy-", suffix=".tmp", dir=directory)
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
                stream.write(text)
            os.replace(temporary, path)
        except BaseException:
            if os.path.exists(temporary):
                os.unlink(temporary)
            raise
        return None

    # ----------------------------------------------------------------- protocol
    def __setattr__(self, key, value):
        raise AttributeError(f"Hierarchy is immutable; cannot set {key!r}.")

    def __delattr__(self, key):
        raise AttributeError(f"Hierarchy is immutable; cannot delete {key!r}.")

    def __reduce__(self):
        return (_rebuild, (list(map(list, self._rows)), self._name))

    def __eq__(self, other):
        if not isinstance(other, Hierarchy):
            return NotImplemented
        return self._name == other._name and self._rows == other._rows

    def __hash__(self):
        if self._hash is None:
            object.__setattr__(self, "_hash", hash((self._name, self._rows)))
        return self._hash

    def __repr__(self):
        return (f"Hierarchy(name={self._name!r}, height={self._height}, "
                f"leaves={len(self._leaves)})")


def _rebuild(rows, name):
    return Hierarchy._from_rows(rows, name)


# ------------------------------------------------------------------- reader helpers
def _rows_of(levels, owner: str):
    """Rows (lists of labels) and their 1-based numbers from a frame, array or sequences."""
    if isinstance(levels, pd.DataFrame):
        rows = [list(row) for row in levels.itertuples(index=False, name=None)]
    elif isinstance(levels, np.ndarray):
        if levels.ndim != 2:
            raise _bad_param("levels", owner, "be two-dimensional (one row per leaf)",
                             f"an array of shape {levels.shape}")
        rows = [list(row) for row in levels.tolist()]
    elif (isinstance(levels, (str, bytes, Mapping)) or not isinstance(levels, Iterable)):
        raise param_error("levels", owner,
                          "be a DataFrame, a 2-D array or a sequence of rows", levels)
    else:
        rows = []
        for row in levels:
            if isinstance(row, (str, bytes)) or not isinstance(row, Iterable):
                raise param_error("levels", owner,
                                  "be a sequence of rows (each a sequence of labels)", row)
            rows.append(list(row))
    return rows, list(range(1, len(rows) + 1))


def _read_text(source, sep: str) -> str:
    if isinstance(source, bytes):
        return source.decode("utf-8-sig")
    if isinstance(source, str):
        is_text = "\n" in source or "\r" in source or (
            sep in source and not os.path.isfile(source))
        if is_text:
            return source.lstrip("\ufeff")
        with open(source, encoding="utf-8-sig", newline="") as stream:
            return stream.read()
    if isinstance(source, os.PathLike):
        with open(source, encoding="utf-8-sig", newline="") as stream:
            return stream.read()
    if hasattr(source, "read"):
        content = source.read()
        if isinstance(content, bytes):
            content = content.decode("utf-8-sig")
        return content.lstrip("\ufeff")
    if hasattr(source, "read_text"):  # importlib.resources Traversable
        return source.read_text(encoding="utf-8-sig")
    raise param_error("source", "Hierarchy.from_arx",
                      "be a path, a file-like object, CSV text or a DataFrame", source)


@lru_cache(maxsize=None)
def _bundled_adult(attribute: str) -> Hierarchy:
    from ..datasets import adult_hierarchy_path

    stem = _ADULT_COLUMNS_TO_FILES.get(attribute, attribute)
    text = adult_hierarchy_path(stem).read_text(encoding="utf-8")
    return Hierarchy.from_arx(text, name=attribute)


@lru_cache(maxsize=None)
def _bundled_nursery(attribute: str) -> Hierarchy:
    from ..datasets import nursery_hierarchy_path

    text = nursery_hierarchy_path(attribute).read_text(encoding="utf-8")
    return Hierarchy.from_arx(text, name=attribute)


def load_adult_hierarchies() -> dict:
    """The ARX hierarchies for UCI Adult, keyed by the columns of ``load_adult()``.

    Returns
    -------
    dict
        ``{column: Hierarchy}`` for ``age``, ``workclass``, ``education``,
        ``marital-status``, ``occupation``, ``race``, ``sex``, ``native-country`` and
        ``income`` (ARX's ``salary-class`` file).  A new dict of shared immutable hierarchies.

    References
    ----------
    ARX Data Anonymization Tool, ``data/adult_hierarchy_*.csv`` (Apache 2.0), the hierarchies
    used with Adult in the anonymization literature; Chen et al. (2009), Sect. 8 use Adult.

    Examples
    --------
    >>> from skyprivacy.datasets import load_adult
    >>> hierarchies = load_adult_hierarchies()
    >>> sorted(hierarchies)[:3]
    ['age', 'education', 'income']
    >>> adult = load_adult()
    >>> all(hierarchies[c].covers(adult[c]) for c in hierarchies)
    True
    """
    return {column: _bundled_adult(column) for column in _ADULT_COLUMNS_TO_FILES}


# ------------------------------------------------------------------ builder helpers
def _exact(number) -> Fraction:
    """Exact value of a number as written: floats go through their shortest repr (0.1 -> 1/10)."""
    number = _native(number)
    if isinstance(number, float):
        return Fraction(repr(number))
    return Fraction(number)


def _format_number(value) -> str:
    if isinstance(value, int):
        return str(value)
    if value.denominator == 1:
        return str(value.numerator)
    return repr(float(value))


def _check_widths(widths, owner: str) -> list:
    requirement = "be increasing positive numbers, each a multiple of the previous"
    if isinstance(widths, (str, bytes)) or not isinstance(widths, Iterable):
        raise param_error("widths", owner, requirement, widths)
    items = [_native(w) for w in widths]
    if not items or any(
        isinstance(w, bool) or not isinstance(w, numbers.Real) or not math.isfinite(w) or w <= 0
        for w in items
    ):
        raise param_error("widths", owner, requirement, widths)
    for smaller, larger in zip(items, items[1:]):
        ratio = _exact(larger) / _exact(smaller)
        if ratio.denominator != 1 or ratio <= 1:
            raise param_error(
                "widths", owner,
                f"{requirement} ({larger!r} is not a larger multiple of {smaller!r})", widths,
            )
    return items


def _numbers_of(values, title: str) -> list:
    """Distinct finite numbers (native, sorted) from an iterable, or a HierarchyError."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise param_error("values", "Hierarchy.intervals", "be an iterable of numbers", values)
    if isinstance(values, range):
        if not len(values):
            raise HierarchyError(f"{title} is empty: give at least one value.")
        return sorted(values)
    if isinstance(values, (pd.Series, pd.Index)):
        values = values.to_numpy()
    if (isinstance(values, np.ndarray) and values.ndim == 1 and values.dtype.kind in "iuf"
            and np.isfinite(values).all()):
        if not values.size:
            raise HierarchyError(f"{title} is empty: give at least one value.")
        return np.unique(values).tolist()  # fast path: sorted, distinct, native scalars
    distinct: dict = {}
    bad = []
    for value in values:
        value = _native(value)
        if (isinstance(value, bool) or not isinstance(value, numbers.Real)
                or _is_missing(value) or not math.isfinite(value)):
            bad.append(value)
            continue
        distinct.setdefault(value, None)
    if bad:
        raise HierarchyError(
            f"{title}: intervals need finite numbers; {len(bad)} value(s) are not: {_show(bad)}."
        )
    if not distinct:
        raise HierarchyError(f"{title} is empty: give at least one value.")
    return sorted(distinct)


# ---------------------------------------------------------------------- table level
def generalize_frame(frame: pd.DataFrame, *, hierarchies: Mapping,
                     levels: Mapping) -> pd.DataFrame:
    """Generalize several columns of a table, each to a level of its hierarchy.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table; it is not modified.
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
    >>> table = pd.DataFrame({"age": [39, 52], "sex": ["Male", "Female"], "income": [1, 2]})
    >>> h = load_adult_hierarchies()
    >>> generalize_frame(table, hierarchies=h, levels={"age": 2, "sex": 1})
         age sex  income
    0  30-39   *       1
    1  50-59   *       2
    """
    if not isinstance(frame, pd.DataFrame):
        raise _bad_param("frame", "generalize_frame", "be a pandas DataFrame",
                         f"a {type(frame).__name__}")
    columns = list(frame.columns)
    for column in levels:
        if column not in frame.columns:
            raise SchemaError(f"Column {column!r} is not in the table; columns are {columns}.")
        if column not in hierarchies:
            raise SchemaError(
                f"Column {column!r} has no hierarchy; hierarchies are given for "
                f"{list(hierarchies)}."
            )
    result = frame.copy()
    for column, level in levels.items():
        result[column] = hierarchies[column].generalize(frame[column], level)
    return result
