"""Segment (per-QID-group) reductions: the solvers' working arithmetic, and its tolerances.

Every per-group computation of the subpackage runs over records sorted by QID group, so a
group is a contiguous segment and a reduction over groups is one ``np.ufunc.reduceat`` call:
O(n) work, no Python loop over groups.  The same code runs on ``float64`` arrays (the fast
path) and on ``object`` arrays of :class:`fractions.Fraction` (the exact path), because it
only uses arithmetic, comparisons, ``np.where``, ``np.maximum``/``np.minimum``, ``reduceat``
and ``cumsum``, all of which numpy evaluates with Python operators on ``object`` arrays.
How numbers are read (the printed-decimal rule) and handed back lives in
:mod:`skyprivacy._core.exact`.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .._core.exact import REL_TOL

#: Relative tolerance of the float path: a channel whose announced mass is below
#: ``EMPTY_TOL`` times its group's mass counts as empty (spec section 2.1), and solver output
#: within ``SNAP_TOL`` of a bound is snapped onto it (removes dust such as 1e-17).
EMPTY_TOL = 1e-12
SNAP_TOL = 1e-12
#: Slack allowed when the float path verifies its own output (spec section 5.7, step 7): the
#: kernel's one boundary tolerance, plus an absolute floor for values near 0.
VERIFY_REL = REL_TOL
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
        # numpy's stubs admit no Fraction, though an object array holds them
        den = np.where(zero, one, den)  # type: ignore[arg-type]
        return np.where(zero, num * 0, num / den)
    return num / den
