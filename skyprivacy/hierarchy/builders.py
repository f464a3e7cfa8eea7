"""Constructors of common hierarchy shapes, as functions beside the class.

* :func:`from_levels` -- the ARX layout in memory (rows ``leaf, level 1, ..., root``);
* :func:`from_mapping` -- ``{leaf: [ancestors]}`` or one ``{child: parent}`` dict per level;
* :func:`intervals` -- nested numeric intervals (``[30, 40)`` inside ``[20, 40)``), computed
  exactly;
* :func:`masking` -- trailing characters of fixed-length codes masked (``4790*``, ``479**``:
  the zip codes of Chen, LeFevre and Ramakrishnan 2009, Sect. 1.3 and Table 1b);
* :func:`dates` -- calendar levels above the day (month, quarter, year, decade, century).

Each returns an immutable :class:`~skyprivacy.hierarchy.Hierarchy`; the builders of
ordinary shapes end in the root ``'*'``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

import numpy as np
import pandas as pd

from .._core.encoding import is_missing
from .._core.exact import decimal_fraction
from .._core.validation import Interval, Options, Predicate, validate_params
from ..errors import HierarchyError, param_error
from ._common import ROOT_LABEL, native_value, object_array, shown, title
from .lookup import date_key
from .model import NAME, Hierarchy, make_hierarchy, rows_of

__all__ = ["from_levels", "from_mapping", "intervals", "masking", "dates", "DATE_LEVELS"]

#: The calendar levels :func:`dates` can build, finest first.
DATE_LEVELS = ("month", "quarter", "year", "decade", "century")


@validate_params({"name": NAME})
def from_levels(levels, *, name=None) -> Hierarchy:
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
    >>> h = from_levels(frame, name="letter")
    >>> h.lca(["a", "b"]), h.lca(["a", "c"])
    ('ab', '*')
    >>> from_levels([["a", "x", "*"], ["b", "y", "+"]])
    Traceback (most recent call last):
    ...
    skyprivacy.errors.HierarchyError: Hierarchy has 2 roots ['*', '+'] at level 2; the last level
        must hold a single label such as '*'.
    """
    rows, row_numbers = rows_of(levels, "from_levels")
    return make_hierarchy(rows, name=name, row_numbers=row_numbers)


@validate_params({"name": NAME})
def from_mapping(mapping, *, name=None) -> Hierarchy:
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
        As for :func:`from_levels` (citing leaves), and for the per-level form: a node
        without a parent in the next dict, or a dict key that is not a node of the level
        below (it would be silently dropped).

    Examples
    --------
    >>> h = from_mapping({"flu": ["respiratory", "*"],
    ...                   "asthma": ["respiratory", "*"],
    ...                   "gastritis": ["digestive", "*"]}, name="disease")
    >>> h.generalize("asthma", 1)
    'respiratory'
    >>> g = from_mapping([{"flu": "respiratory", "asthma": "respiratory",
    ...                    "gastritis": "digestive"},
    ...                   {"respiratory": "*", "digestive": "*"}])
    >>> g.rows == h.rows
    True
    """
    if isinstance(mapping, Mapping):
        rows = []
        for leaf, ancestors in mapping.items():
            if isinstance(ancestors, str) or not isinstance(ancestors, Iterable):
                ancestors = [ancestors]
            rows.append([leaf, *ancestors])
        return make_hierarchy(rows, name=name, cite_rows=False)
    if (isinstance(mapping, (str, bytes)) or not isinstance(mapping, Sequence)
            or not all(isinstance(m, Mapping) for m in mapping)):
        raise param_error("mapping", "from_mapping",
                          "be a dict {leaf: [ancestors]} or a list of {child: parent} dicts",
                          mapping)
    if not mapping or not mapping[0]:
        raise HierarchyError(f"{title(name)} is empty: give at least one leaf and its levels.")
    rows = [[leaf] for leaf in mapping[0]]
    for step, parents in enumerate(mapping):
        nodes = {row[-1] for row in rows}
        stray = [key for key in parents if key not in nodes]
        if stray:
            raise HierarchyError(
                f"{title(name)}: mapping {step + 1} (level {step} -> level {step + 1}) has keys "
                f"{shown(stray)} that are not nodes at level {step}."
            )
        for row in rows:
            if row[-1] not in parents:
                raise HierarchyError(
                    f"{title(name)}: node {row[-1]!r} at level {step} has no parent: it is not "
                    f"a key of mapping {step + 1} (level {step} -> level {step + 1})."
                )
            row.append(parents[row[-1]])
    return make_hierarchy(rows, name=name, cite_rows=False)


@validate_params({
    "name": NAME,
    "closed": Options("left", "right", text="be 'left' or 'right'"),
    "origin": Interval("real"),
})
def intervals(values, widths, *, name=None, closed="left", origin=0) -> Hierarchy:
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
        integral bounds written without a decimal point; bounds are computed exactly, with
        floats read as the decimals they print as (``0.1`` steps give ``[0.3, 0.4)``, not
        ``0.30000000000000004``).

    Raises
    ------
    HierarchyError
        If a value is missing, not a number, or infinite.
    InvalidParameterError
        For bad ``widths``, ``closed`` or ``origin``.

    Examples
    --------
    >>> h = intervals(range(17, 91), (5, 10, 20), name="age")
    >>> h.generalize([17, 39, 90], 2)
    ['[10, 20)', '[30, 40)', '[90, 100)']
    >>> h.generalize([39], 3), h.height
    (['[20, 40)'], 4)
    >>> intervals([0.25, 1.0], [0.5], closed="right").generalize([0.25, 1.0], 1)
    ['(0, 0.5]', '(0.5, 1]']
    >>> intervals(range(10), (5, 12))
    Traceback (most recent call last):
    ...
    skyprivacy.errors.InvalidParameterError: The 'widths' parameter of intervals must be increasing
        positive numbers, each a multiple of the previous (12 is not a larger multiple of 5). Got
        (5, 12) instead.
    """
    width_list = _check_widths(widths, "intervals")
    leaves = _numbers_of(values, title(name))
    # Exact arithmetic on integers: scale every number (leaves as written, widths, origin)
    # by the common denominator, then floor-divide; labels are made once per interval.
    exact_leaves = leaves if all(isinstance(v, int) for v in leaves) else [
        decimal_fraction(v) for v in leaves]
    exact_widths = [decimal_fraction(w) for w in width_list]
    start = decimal_fraction(origin)
    scale = math.lcm(*(f.denominator for f in (*exact_widths, start)),
                     *({Fraction(v).denominator for v in exact_leaves}
                       if exact_leaves is not leaves else ()))
    scaled = [int(v * scale) for v in exact_leaves]
    shift = int(start * scale)
    steps = [int(w * scale) for w in exact_widths]
    # int64 unless a number could overflow it; Python ints (object arrays) stay exact
    big = max(max(map(abs, scaled)), abs(shift), steps[-1]) > 2**60 or scale > 2**20
    positions = np.asarray(scaled, dtype=object if big else np.int64) - shift
    template = "[{}, {})" if closed == "left" else "({}, {}]"
    columns = [leaves]
    for step in steps:
        if closed == "left":
            low = positions // step * step
        else:
            low = -((-positions) // step) * step - step
        uniques, inverse = np.unique(low, return_inverse=True)
        if scale == 1 and start.denominator == 1:  # integers: no Fractions needed
            offset = int(start)
            bounds = [(u + offset, u + offset + step) for u in uniques.tolist()]
        else:
            bounds = [(Fraction(int(u), scale) + start, Fraction(int(u) + step, scale) + start)
                      for u in uniques]
        names = object_array([template.format(_bound_text(lo), _bound_text(hi))
                              for lo, hi in bounds])
        columns.append(names[inverse.reshape(-1)].tolist())
    columns.append([ROOT_LABEL] * len(leaves))
    return make_hierarchy(list(zip(*columns)), name=name)


@validate_params({
    "name": NAME,
    "mask_char": Predicate(lambda c: isinstance(c, str) and len(c) == 1,
                           "be a single character", invalid="**"),
})
def masking(codes, *, levels=None, mask_char="*", name=None) -> Hierarchy:
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
        by the numeric lookup rule when they all read as numbers (see
        :mod:`skyprivacy.hierarchy.lookup`).

    Raises
    ------
    HierarchyError
        If a code is missing, empty, of another type, or of another length.
    InvalidParameterError
        For bad ``levels`` or ``mask_char``.

    References
    ----------
    Chen, LeFevre and Ramakrishnan (2009), Sect. 1.3 and Table 1b (zip codes ``1234*``).

    Examples
    --------
    >>> h = masking(["47906", "47907", "47920"], name="zip")
    >>> [label for _, label in h.ancestors("47906")]
    ['4790*', '479**', '47***', '4****', '*']
    >>> h.lca(["47906", "47920"])
    '479**'
    >>> masking(["47906", "47920"], levels=[2, 5]).generalize(47906, 1)
    '479**'
    """
    owner = "masking"
    name_ = title(name)
    if isinstance(codes, (str, bytes)) or not isinstance(codes, Iterable):
        raise param_error("codes", owner, "be an iterable of codes (str or int)", codes)
    texts: dict = {}
    for code in codes:
        code = native_value(code)
        if is_missing(code):
            raise HierarchyError(f"{name_}: codes to mask contain a missing value ({code!r}).")
        if isinstance(code, bool) or not isinstance(code, (str, int)):
            raise HierarchyError(
                f"{name_}: codes to mask must be strings or integers; got {code!r}."
            )
        text = code if isinstance(code, str) else str(code)
        if text == "":
            raise HierarchyError(f"{name_}: codes to mask contain an empty string.")
        texts.setdefault(text, None)
    if not texts:
        raise HierarchyError(f"{name_} is empty: give at least one code to mask.")
    leaves = sorted(texts)
    length = len(leaves[0])
    for text in leaves:
        if len(text) != length:
            raise HierarchyError(
                f"{name_}: codes to mask must all have the same length; {text!r} has "
                f"{len(text)} characters but {leaves[0]!r} has {length}."
            )
    if levels is None:
        counts = list(range(1, length))
    else:
        requirement = f"be strictly increasing integers in [1, {length}]"
        if isinstance(levels, (str, bytes)) or not isinstance(levels, Iterable):
            raise param_error("levels", owner, requirement, levels)
        counts = [native_value(c) for c in levels]
        if (not all(isinstance(c, int) and not isinstance(c, bool) for c in counts)
                or any(not 1 <= c <= length for c in counts)
                or any(a >= b for a, b in zip(counts, counts[1:]))):
            raise param_error("levels", owner, requirement, levels)
    rows = [
        [text, *(text[: length - c] + mask_char * c for c in counts), ROOT_LABEL]
        for text in leaves
    ]
    return make_hierarchy(rows, name=name)


@validate_params({"name": NAME})
def dates(values, *, levels=("month", "year", "decade"), name=None) -> Hierarchy:
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
        Height ``len(levels) + 1``.  Date-like data find their day's leaf (see
        :mod:`skyprivacy.hierarchy.lookup`).

    Raises
    ------
    HierarchyError
        If a value is missing or cannot be read as a date.
    InvalidParameterError
        For bad ``levels``.

    Examples
    --------
    >>> import datetime
    >>> h = dates(["2024-03-15", "2019-12-31"], levels=("quarter", "year"))
    >>> h.generalize([datetime.date(2024, 3, 15)], 1)
    ['2024-Q1']
    >>> h.lca(["2024-03-15", "2019-12-31"]), h.leaves
    ('*', ('2019-12-31', '2024-03-15'))
    """
    owner = "dates"
    name_ = title(name)
    requirement = f"be a sequence of distinct names from {list(DATE_LEVELS)} in that order"
    if isinstance(levels, (str, bytes)) or not isinstance(levels, Iterable):
        raise param_error("levels", owner, requirement, levels)
    level_names = list(levels)
    ranks = [DATE_LEVELS.index(lv) if lv in DATE_LEVELS else -1 for lv in level_names]
    if any(r < 0 for r in ranks) or any(a >= b for a, b in zip(ranks, ranks[1:])):
        raise param_error("levels", owner, requirement, levels)
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise param_error("values", owner, "be an iterable of dates", values)
    items = list(values.tolist() if isinstance(values, (pd.Series, pd.Index, np.ndarray))
                 else values)
    missing = [v for v in items if is_missing(v)]
    if missing:
        raise HierarchyError(
            f"{name_}: dates contain {len(missing)} missing value(s) {shown(missing)}."
        )
    days = _distinct(items, _day_of, name_, "{n} value(s) cannot be read as dates: {values}",
                     "date")
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
    return make_hierarchy(rows, name=name)


# ------------------------------------------------------------------------- helpers
def _bound_text(value) -> str:
    """An interval bound: integers without a decimal point, others as the float they equal."""
    if isinstance(value, int):
        return str(value)
    if value.denominator == 1:
        return str(value.numerator)
    return repr(float(value))


def _check_widths(widths, owner: str) -> list:
    requirement = "be increasing positive numbers, each a multiple of the previous"
    if isinstance(widths, (str, bytes)) or not isinstance(widths, Iterable):
        raise param_error("widths", owner, requirement, widths)
    items = [native_value(w) for w in widths]
    positive = Interval("real", 0, closed="neither")
    if not items or not all(positive.is_satisfied_by(w) for w in items):  # Decimals too
        raise param_error("widths", owner, requirement, widths)
    for smaller, larger in zip(items, items[1:]):
        ratio = decimal_fraction(larger) / decimal_fraction(smaller)
        if ratio.denominator != 1 or ratio <= 1:
            raise param_error(
                "widths", owner,
                f"{requirement} ({larger!r} is not a larger multiple of {smaller!r})", widths,
            )
    return items


def _numbers_of(values, name_: str) -> list:
    """Distinct finite numbers (native, sorted) from an iterable, or a HierarchyError."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise param_error("values", "intervals", "be an iterable of numbers", values)
    if isinstance(values, range):
        if not len(values):
            raise HierarchyError(f"{name_} is empty: give at least one value.")
        return sorted(values)
    if isinstance(values, (pd.Series, pd.Index)):
        values = values.to_numpy()
    if (isinstance(values, np.ndarray) and values.ndim == 1 and values.dtype.kind in "iuf"
            and np.isfinite(values).all()):
        if not values.size:
            raise HierarchyError(f"{name_} is empty: give at least one value.")
        return np.unique(values).tolist()  # fast path: sorted, distinct, native scalars
    return sorted(_distinct(map(native_value, values), _finite_number, name_,
                            "intervals need finite numbers; {n} value(s) are not: {values}",
                            "value"))


_FINITE = Interval("real")


def _finite_number(value):
    """The value itself if it is a finite number of a built-in kind (it becomes a label)."""
    return value if isinstance(value, numbers.Real) and _FINITE.is_satisfied_by(value) else None


def _day_of(value):
    """The ISO day of a date-like or of a string pandas reads as a date, or None.  Numbers are
    refused: pandas would read 2024 as nanoseconds."""
    key = date_key(value)
    if key is None and isinstance(value, str):
        try:
            key = pd.Timestamp(value).date().isoformat()
        except (TypeError, ValueError, OverflowError):
            pass
    return key


def _distinct(items, key_of, name_: str, unreadable: str, noun: str) -> list:
    """The distinct keys of the items, in order of first appearance, or a HierarchyError naming
    the items without a key (``unreadable`` has the slots ``{n}`` and ``{values}``) or saying
    that there are none."""
    keys: dict = {}
    bad = []
    for item in items:
        key = key_of(item)
        if key is None:
            bad.append(item)
        else:
            keys.setdefault(key, None)
    if bad:
        raise HierarchyError(f"{name_}: " + unreadable.format(n=len(bad), values=shown(bad)) + ".")
    if not keys:
        raise HierarchyError(f"{name_} is empty: give at least one {noun}.")
    return list(keys)
