"""Internal numeric helpers: segment (per-QID-group) reductions and the exact-number reading.

Every per-group computation of the subpackage runs over records sorted by QID group, so a
group is a contiguous segment and a reduction over groups is one ``np.ufunc.reduceat`` call:
O(n) work, no Python loop over groups.  The same code runs on ``float64`` arrays (the fast
path) and on ``object`` arrays of :class:`fractions.Fraction` (the exact path), because it
only uses arithmetic, comparisons, ``np.where``, ``np.maximum``/``np.minimum``, ``reduceat``
and ``cumsum``, all of which numpy evaluates with Python operators on ``object`` arrays.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from numbers import Integral, Rational

import numpy as np

#: Relative tolerance of the float path: a channel whose announced mass is below
#: ``EMPTY_TOL`` times its group's mass counts as empty (spec section 2.1), and solver output
#: within ``SNAP_TOL`` of a bound is snapped onto it (removes dust such as 1e-17).
EMPTY_TOL = 1e-12
SNAP_TOL = 1e-12
#: Slack allowed when the float path verifies its own output (spec section 5.7, step 7).
VERIFY_REL = 1e-9
VERIFY_ABS = 1e-12


class Segments:
    """Contiguous segments of a sorted array, one per group.

    Parameters
    ----------
    labels : ndarray of int
        Group label of every element; equal labels must be contiguous.
    """

    def __init__(self, labels: np.ndarray):
        labels = np.asarray(labels)
        self.labels = labels
        self.size = len(labels)
        if self.size:
            change = np.empty(self.size, dtype=bool)
            change[0] = True
            np.not_equal(labels[1:], labels[:-1], out=change[1:])
            self.starts = np.flatnonzero(change)
        else:
            self.starts = np.zeros(0, dtype=np.intp)
        self.count = len(self.starts)
        lengths = np.diff(np.append(self.starts, self.size))
        self.lengths = lengths
        #: local segment number (0..count-1) of every element
        self.index = np.repeat(np.arange(self.count), lengths)
        #: label of every segment
        self.segment_labels = labels[self.starts] if self.size else labels[:0]

    def sum(self, x: np.ndarray) -> np.ndarray:
        return np.add.reduceat(x, self.starts) if self.size else x[:0]

    def max(self, x: np.ndarray) -> np.ndarray:
        return np.maximum.reduceat(x, self.starts) if self.size else x[:0]

    def min(self, x: np.ndarray) -> np.ndarray:
        return np.minimum.reduceat(x, self.starts) if self.size else x[:0]

    def spread(self, per_segment: np.ndarray) -> np.ndarray:
        """Repeat one value per segment onto the segment's elements."""
        return per_segment[self.index]

    def first_argmax(self, x: np.ndarray) -> np.ndarray:
        """Position (in the whole array) of the first maximum of every segment."""
        hit = x == self.spread(self.max(x))
        positions = np.where(hit, np.arange(self.size), self.size)
        return np.minimum.reduceat(positions, self.starts) if self.size else positions[:0]

    def first_argmin(self, x: np.ndarray) -> np.ndarray:
        """Position (in the whole array) of the first minimum of every segment."""
        hit = x == self.spread(self.min(x))
        positions = np.where(hit, np.arange(self.size), self.size)
        return np.minimum.reduceat(positions, self.starts) if self.size else positions[:0]

    def exclusive_cumsum(self, x: np.ndarray) -> np.ndarray:
        """Sum of the earlier elements of the same segment (0 for a segment's first element)."""
        if not self.size:
            return x[:0]
        running = np.cumsum(x)
        before = running - x
        return before - self.spread(before[self.starts])


def safe_div(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den`` with 0 where ``den`` is 0 (the empty-channel convention of spec 2.1)."""
    zero = den == 0
    if np.any(zero):
        one = Fraction(1) if den.dtype == object else 1.0
        den = np.where(zero, one, den)
        return np.where(zero, num * 0, num / den)
    return num / den


def to_exact(value) -> Fraction:
    """Read one number exactly.

    Integers, Fractions and Decimals are taken as they are.  A float is read as the shortest
    decimal that round-trips (``Fraction(repr(x))``), so ``0.9`` means 9/10, which is what a
    person typing 0.9 means; pass a :class:`~fractions.Fraction` to avoid any reading.
    """
    if isinstance(value, (bool, np.bool_)):
        return Fraction(int(value))
    if isinstance(value, (Integral, np.integer)):
        return Fraction(int(value))
    if isinstance(value, Rational):
        return Fraction(value.numerator, value.denominator)
    if isinstance(value, Decimal):
        return Fraction(value)
    as_float = float(value)
    if not math.isfinite(as_float):
        raise ValueError(f"{value!r} is not a finite number")
    return Fraction(repr(as_float))


def exact_array(values) -> np.ndarray:
    """An ``object`` array of Fractions read with :func:`to_exact`."""
    flat = [to_exact(v) for v in np.asarray(values, dtype=object).ravel()]
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return out.reshape(np.shape(values))


def native(value):
    """A native Python scalar for a numpy scalar (results never leak numpy types)."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, tuple):
        return tuple(native(v) for v in value)
    return value


def as_number(value, exact: bool):
    """A float, or a Fraction on the exact path."""
    if exact:
        return value if isinstance(value, Fraction) else to_exact(value)
    return float(value)
