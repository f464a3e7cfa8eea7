"""Closed-form negated ratios and the worst-case breach probability (Sects. 6.1, 7.1, App. A.2).

This module is the only implementation of the closed forms T and V, of Theorem 2's minimum
and of the boundary rules; every algorithm (SkylineCheck, SkylineFind, SkylineAnonymize, the
baselines) calls it.

For a target value sigma and an amount of knowledge (l, k, m), every QI-group g contributes five
terms: T(g, l, 0), T(g, l, k), V(g, m, 0), V(g, m, k) and minNR(g, l, k, m) = T(g, l, k) *
V(g, m, k + 1).  Their minima over the groups are the five *sufficient statistics* SS1..SS5 of
Theorem 2, and

    NR = min(SS1, SS2 * SS5, SS3 * SS4),        BP = 1 / (NR + 1).

The boundary rules of ``specs/privacy-skyline.md`` are applied: a group without sigma cannot
hold the target (T = +inf); infeasible placements are +inf, never 0; a negative numerator means
certainty (0); in mvpi-multiset s = 0 gives V = 1; +inf times anything is +inf.  Breach
probabilities are taken over knowledge of *at most* (l, k, m), which collapses to one pass: if a
group holding sigma has n_g <= k + m the attacker pins the target (BP = 1), otherwise Theorem 2
at (l, k, m) itself.

Sparsity.  Only the groups holding sigma matter: a group without sigma has T = +inf and V = 1
wherever k + m individuals fit, and when nothing is pinned every holder's V is at most 1 and
feasible.  So the work for one value touches only its nonzeros.  The top-l other counts of a
holder come from prefix sums of its group's sorted counts (the release's CSR rows are sorted by
count), so any l costs O(1) per holder.

Two paths share one vectorized pass.  The float path works in log space (products of many small
factors never underflow; falling-factorial ratios use a cancellation-free Stirling form), and
finds the minimizing groups and the verdicts.  The exact path recomputes, with
:class:`fractions.Fraction`, only the terms whose float value is within ``LOG_TOL`` of a
minimum or of a threshold, so every verdict ``BP < c`` is decided exactly.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ._core.validation import InstanceOf, Interval, check, validate_params
from ._core.warning import warn
from .errors import UnknownValueWarning
from .release import ReleaseCandidate

__all__ = [
    "breach_probability",
    "sufficient_statistics",
    "SufficientStatistics",
    "Statistic",
    "SortedRows",
    "top_other_counts",
    "group_terms",
    "log_T",
    "log_V",
    "holder_terms",
    "log_negated_ratio",
    "holder_shapes",
    "point_verdicts",
    "exact_T",
    "exact_V",
    "exact_terms",
    "exact_negated_ratio",
    "exact_breach_probability",
    "float_breach_probability",
    "exact_v_without_family",
    "NR_TERMS",
    "LOG_TOL",
]

INF = math.inf
#: Relative slack, in log space, within which a float value may hide an exact minimum or sit
#: on the wrong side of a threshold; such cases are decided with Fractions.  Float terms are
#: accurate to ~1e-13 relative (near a threshold every log term is bounded by ~60 in magnitude),
#: so 1e-9 is far above the error and still keeps the exact candidate sets tiny.
LOG_TOL = 1e-9
_TABLE_N = 1024  # largest group whose falling ratios are read from a table
_TABLE_CELLS = 1 << 20
_DIRECT = 16  # falling ratios with at most this many factors (or small x) are summed directly
_CHUNK = 1 << 16  # float work arrays are processed in chunks of about this many entries

Exact = Fraction | float  # a Fraction, or math.inf for "no such placement"


# --------------------------------------------------------------------------- validation
#: The declared type of a knowledge amount l, k or m: a non-negative integer of any size
#: (bools rejected).
AMOUNT = Interval("integer", 0)
#: The declared type of the skyline core's ``release`` parameter (the type named bare).
RELEASE = InstanceOf(ReleaseCandidate, got="{}")


def check_amount(name: str, value: object, owner: str) -> int:
    """Validate one of l, k, m in a body (:data:`AMOUNT`), as a Python int."""
    return int(check(value, AMOUNT, name=name, owner=owner))


def cap_amounts(n_values: int, n_individuals: int, l: int, k: int, m: int) -> tuple:
    """(l, k, m) capped where more knowledge cannot change anything: l at the number of values
    (no group has more other values to rule out), k and m at the number of individuals (every
    holder is then pinned either way).  Any Python int is accepted."""
    return min(l, n_values), min(k, n_individuals), min(m, n_individuals)


def close_one(a: float, b: float) -> bool:
    """:func:`within_tolerance` of two plain floats, both finite (an infinity is exact, never
    too close to call): the scalar rule of the sequential decisions."""
    return math.isfinite(a) and math.isfinite(b) and abs(a - b) <= LOG_TOL * (1.0 + abs(b))


def within_tolerance(a, b) -> np.ndarray:
    """|a - b| <= LOG_TOL * (1 + |b|) elementwise: the float values may be on either side."""
    with np.errstate(invalid="ignore"):
        return np.abs(np.asarray(a) - b) <= LOG_TOL * (1.0 + np.abs(b))


# --------------------------------------------------------------------------- sorted rows
class SortedRows:
    """Groups as CSR rows of counts sorted in descending order, with top-l sums in O(1).

    The release's own rows (:attr:`ReleaseCandidate.csr`) and the candidate children of
    SkylineAnonymize are both held this way.  The sum of the top-l other counts of an entry is
    read from prefix sums: of the first few entries of every row (a groups x width table, when
    that is no larger than the nonzeros), else of every row.  Nothing of the size of the
    nonzeros is copied: the counts are read in their own integer type, and an entry's row is
    found by binary search over ``indptr`` unless a row array is given.

    Parameters
    ----------
    sizes : ndarray of int, shape (B,)
    indptr : ndarray of int, shape (B + 1,)
    count : ndarray of int, shape (N,)
        Counts of each row, sorted descending within the row.
    row : ndarray of int, shape (N,), optional
        The row of every entry, when the caller holds it already.
    """

    def __init__(self, sizes: np.ndarray, indptr: np.ndarray, count: np.ndarray, row=None):
        self.sizes = np.asarray(sizes, dtype=np.int64)
        self.indptr = np.asarray(indptr, dtype=np.int64)
        count = np.asarray(count)
        self.count = count if count.dtype.kind in "iu" else count.astype(np.int64)
        self._row = row
        self._sums: dict = {}  # kind -> (width or None for every entry, table)
        self._falling: np.ndarray | None = None
        self._falling_built = False

    @classmethod
    def of(cls, release: ReleaseCandidate) -> SortedRows:
        """The release's rows (built once per release and kept with it)."""
        return release.derived(_sorted_rows)

    @property
    def row(self) -> np.ndarray:
        """The row of every entry (built on first use; :meth:`row_of` does without it)."""
        if self._row is None:
            n_rows = len(self.sizes)
            self._row = np.repeat(np.arange(n_rows, dtype=np.int64), np.diff(self.indptr))
        return self._row

    def row_of(self, idx) -> np.ndarray:
        """The rows of entries ``idx``."""
        if self._row is not None:
            return self._row[idx]
        return np.searchsorted(self.indptr, idx, side="right") - 1

    def row_range(self, lo: int, hi: int) -> np.ndarray:
        """The rows of the consecutive entries ``lo..hi-1``, in O(hi - lo)."""
        if self._row is not None:
            return self._row[lo:hi]
        first, last = np.searchsorted(self.indptr, [lo, hi - 1], side="right") - 1
        starts = np.clip(self.indptr[first:last + 2], lo, hi)
        return np.repeat(np.arange(first, last + 1, dtype=np.int64), np.diff(starts))

    # -- prefix sums
    def _entry_terms(self, kind: str, at, row) -> np.ndarray:
        """The per-entry quantity summed for ``kind``: the count, or (mvpi-set) log(1 - c/n)
        and whether c = n, at entries ``at`` of rows ``row``."""
        c = self.count[at]
        if kind == "count":
            return c.astype(np.int64)
        n = self.sizes[row]
        full = c >= n
        if kind == "full":
            return full.astype(np.int64)
        with np.errstate(divide="ignore"):
            return np.where(full, 0.0, np.log1p(-c / n.astype(float)))

    def _table(self, kind: str, width: int):
        """Prefix sums of ``kind`` over at least the first ``width`` entries of every row:
        ``(None, prefix)`` over every entry (row g's sums at ``indptr[g] + g`` onwards, from
        0), or ``(w, heads)`` with heads[g, j] the sum of row g's first min(j, len) entries."""
        have = self._sums.get(kind)
        if have is not None and (have[0] is None or have[0] >= width):
            return have
        n_rows, n_entries = len(self.sizes), len(self.count)

        def small(w):  # heads no larger than the prefix over every entry
            return (w + 1) * n_rows <= n_entries + n_rows

        grown = max(width, 2 * have[0]) if have is not None else width  # amortized growth
        if small(grown) or small(width):
            width = grown if small(grown) else width
            self._sums[kind] = (width, self._heads(kind, width))
        else:
            self._sums[kind] = (None, self._full(kind))
        return self._sums[kind]

    def _heads(self, kind: str, width: int) -> np.ndarray:
        start = self.indptr[:-1]
        length = np.diff(self.indptr)
        rows = np.arange(len(start))
        out = np.zeros((len(start), width + 1), dtype=float if kind == "log" else np.int64)
        for j in range(width):
            has = np.flatnonzero(length > j)
            out[:, j + 1] = out[:, j]
            out[has, j + 1] += self._entry_terms(kind, start[has] + j, rows[has])
        return out

    def _full(self, kind: str) -> np.ndarray:
        row = self.row
        x = self._entry_terms(kind, slice(None), row)
        out = np.zeros(len(x) + len(self.sizes), dtype=x.dtype)
        pos = np.arange(len(x), dtype=np.int64)
        pos += row
        pos += 1
        if x.dtype.kind in "iu":  # integers: one global cumsum, exact
            out[pos] = x
            del pos
            np.cumsum(out, out=out)
            base = self.indptr[:-1] + np.arange(len(self.sizes), dtype=np.int64)
            out -= np.repeat(out[base], np.diff(self.indptr) + 1)
            return out
        # floats: per-row sums, so no row inherits the rounding of the rows before it
        if len(x):
            csum = np.cumsum(x)
            start = self.indptr[row]
            before = np.where(start > 0, csum[np.maximum(start - 1, 0)], 0)
            out[pos] = csum - before
        return out

    def _sum_top(self, kind: str, idx: np.ndarray, l, row) -> tuple:
        """Sum of ``kind`` over the l largest counts of the entry's row, and whether the
        entry itself is among them (then its own term is to be taken out)."""
        row = self.row_of(idx) if row is None else row
        start = self.indptr[row]
        length = self.indptr[row + 1] - start
        inside = l > idx - start
        end = np.where(inside, np.minimum(l + 1, length), np.minimum(l, length))
        width, table = self._table(kind, int(end.max()) if len(end) else 0)
        if width is None:
            return table[start + row + end], inside, row
        return table[row, end], inside, row

    def top_sum(self, idx: np.ndarray, l, row=None) -> np.ndarray:
        """h: the sum of the l largest counts of values other than the entry's own, per entry
        (``row``: the entries' rows, if the caller has them).

        Removing one copy of the entry's count from its sorted row leaves the other values'
        counts; ties do not matter since equal counts are interchangeable."""
        total, inside, _ = self._sum_top("count", idx, l, row)
        return total - np.where(inside, self.count[idx], 0)

    def set_top(self, idx: np.ndarray, l, row=None) -> tuple[np.ndarray, np.ndarray]:
        """mvpi-set: (sum of log(1 - c/n), number of c = n) over the top-l other counts."""
        logs, inside, row = self._sum_top("log", idx, l, row)
        full, _, _ = self._sum_top("full", idx, l, row)
        c, n = self.count[idx], self.sizes[row]
        own_full = inside & (c >= n)
        with np.errstate(divide="ignore"):
            own_log = np.where(inside & ~own_full, np.log1p(-c / n.astype(float)), 0.0)
        return logs - own_log, full - own_full

    def falling(self, semantics: str) -> np.ndarray | None:
        """The :func:`falling_table` of these rows (built once; None if too large)."""
        if semantics == "mvpi-multiset" or not len(self.count):
            return None
        if not self._falling_built:
            self._falling = falling_table(int(self.sizes.max()), int(self.count.max()))
            self._falling_built = True
        return self._falling

    def top_tuple(self, e: int, l: int) -> tuple:
        """The l largest other counts of entry ``e`` (fewer if the group has fewer values)."""
        g = int(self.row_of(e))
        lo, hi = self.indptr[g], self.indptr[g + 1]
        others = np.delete(self.count[lo:hi], e - lo)
        return tuple(int(x) for x in others[:l])


# --------------------------------------------------------------------------- float closed forms
def _sorted_rows(release: ReleaseCandidate) -> SortedRows:
    """The release's CSR rows as :class:`SortedRows` (see :meth:`SortedRows.of`)."""
    indptr, _, count = release.csr
    return SortedRows(release.sizes_array, indptr, count)


def _log_falling(a, s, m) -> np.ndarray:
    """log prod_{i<m} (a - i) / (a + s - i) for a >= m >= 0, s >= 0, accurate for any size.

    With x = a - m + 1 the product is prod_{j<m} (x + j) / (x + j + s).  Up to ``_DIRECT``
    factors (and the factors with x + j < 16) are summed as -log1p(s / (x + j)); the rest use
    the difference of Stirling series written without cancellation:
    (x - 1/2) log1p(ms / (x (x+m+s))) - m log1p(s / (x+m)) - s log1p(m / (x+s)) + corrections.
    """
    m = np.asarray(m, dtype=float)
    if m.ndim == 0 and m <= _DIRECT:
        # one small m for all (the common case): multiply the factors, then one log; each
        # factor is at least 1/(1+s), so 16 of them never underflow
        a, s = np.broadcast_arrays(np.asarray(a, dtype=float), np.asarray(s, dtype=float))
        x = np.maximum(a - (float(m) - 1.0), 1.0)
        ratio = np.ones(a.shape)
        for _ in range(int(m)):
            ratio *= x / (x + s)
            x += 1.0
        with np.errstate(divide="ignore"):
            return np.log(ratio)
    a, s, m = np.broadcast_arrays(np.asarray(a, dtype=float), np.asarray(s, dtype=float), m)
    x = np.maximum(a - m + 1.0, 1.0)
    top = m.max(initial=0.0)
    if top <= _DIRECT:  # small m of several sizes: the factors each entry has
        ratio = np.ones(a.shape)
        for j in range(int(top)):
            ratio *= np.where(m > j, x / (x + s), 1.0)
            x = x + 1.0
        with np.errstate(divide="ignore"):
            return np.log(ratio)
    direct = np.where(m > _DIRECT, np.clip(_DIRECT - x, 0.0, None), m)
    direct = np.minimum(direct, m)
    ratio = np.ones(a.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        for j in range(int(direct.max(initial=0))):
            factor = (x + j) / (x + j + s)  # at least 1/(1+s): 16 never underflow
            ratio = np.where(direct > j, ratio * factor, ratio)
        out = np.array(np.log(ratio), dtype=float)
        rest = m - direct
        big = rest > 0
        if big.any():
            xx, mm, ss = (x + direct)[big], rest[big], s[big]

            def corr(y):
                y2 = y * y
                return (1.0 / 12.0 - (1.0 / 360.0 - (1.0 / 1260.0 - 1.0 / (1680.0 * y2)) / y2)
                        / y2) / y
            out[big] += ((xx - 0.5) * np.log1p(mm * ss / (xx * (xx + mm + ss)))
                         - mm * np.log1p(ss / (xx + mm)) - ss * np.log1p(mm / (xx + ss))
                         + corr(xx + mm) - corr(xx + mm + ss) - corr(xx) + corr(xx + ss))
    return out


def log_T(n, s, k, semantics: str, *, h=0, set_log=0.0, set_full=0) -> np.ndarray:
    """log T(g, l, k) elementwise (Sect. 7.1); arrays broadcast.

    ``h`` is the sum of the l ruled-out counts (svpi, mvpi-multiset); ``set_log`` and
    ``set_full`` the mvpi-set product over them (:meth:`SortedRows.set_top`).  +inf where
    sigma is absent (rule 1) or the target and k known individuals do not fit (rule 2); -inf
    encodes an exact 0 (rule 3), never an underflow."""
    n = np.asarray(n, dtype=float)
    s = np.asarray(s, dtype=float)
    k = np.asarray(k, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        if semantics == "svpi":
            num = n - s - np.asarray(h, dtype=float) - k
            out = np.where(num > 0, np.log(np.maximum(num, 1.0)) - np.log(s), -INF)
        elif semantics == "mvpi-set":
            num = n - s - k
            out = np.where(num > 0, np.log(np.maximum(num, 1.0)) - np.log(s), -INF) + set_log
            out = np.where(np.asarray(set_full) > 0, -INF, out)
        else:  # mvpi-multiset
            rest = n - k
            h = np.asarray(h, dtype=float)
            log_q = np.where(rest > 1, s * np.log1p(-1.0 / np.maximum(rest, 2.0)), -INF)
            log_not_q = np.log(-np.expm1(log_q))
            ruled = np.where(h > 0, h * np.log1p(-1.0 / n), 0.0)
            out = log_q - log_not_q + ruled
            out = np.where(np.isnan(out), -INF, out)
    out = np.where(s == 0, INF, out)
    return np.where(n < k + 1, INF, out)


def falling_table(max_n: int, max_s: int) -> np.ndarray | None:
    """G[s, a] = log prod_{t=1..a} t / (t + s) for s <= max_s, a <= max_n, so that the falling
    ratio of V is G[s, a] - G[s, a - m]; None when the groups are too large for it.

    Built only for groups of at most ``_TABLE_N`` individuals, where the running sum of the
    ``log1p`` terms stays far inside ``LOG_TOL`` (error below 1e-10), and ``_TABLE_CELLS``
    entries."""
    if max_n > _TABLE_N or (max_n + 1) * (max_s + 1) > _TABLE_CELLS:
        return None
    t = np.arange(1, max_n + 1, dtype=float)[None, :]
    s = np.arange(max_s + 1, dtype=float)[:, None]
    terms = np.log1p(-s / (t + s))
    table = np.zeros((max_s + 1, max_n + 1))
    np.cumsum(terms, axis=1, out=table[:, 1:])
    return table


def log_V(n, s, m, k, semantics: str, *, table: np.ndarray | None = None) -> np.ndarray:
    """log V(f, m, k) elementwise (Sect. 7.1); arrays broadcast.

    +inf where k + m individuals do not fit (rule 2); 0 (V = 1) when m = 0 or s = 0.
    With a :func:`falling_table` covering the inputs (integers), svpi and mvpi-set read the
    falling ratio from it."""
    scalar_amounts = np.ndim(m) == 0 and np.ndim(k) == 0
    if table is not None and semantics != "mvpi-multiset" and scalar_amounts:
        # one (m, k) for every entry, the common case: no broadcasting of the amounts
        m, k = int(m), int(k)
        n = np.asarray(n, dtype=np.int64)
        s = np.asarray(s, dtype=np.int64)
        if m == 0:
            return np.where(n < k, INF, 0.0)
        a = n - s - k
        fits = a >= m
        top = np.where(fits, a, m)  # a valid column of the table when m fits at all
        out = np.array(table[s, np.minimum(top, table.shape[1] - 1)] - table[s, top - m],
                       dtype=float)
        out[~fits] = -INF
        out[s == 0] = 0.0
        out[n < k + m] = INF
        return out
    if table is not None and semantics != "mvpi-multiset":
        n, s, m, k = np.broadcast_arrays(*(np.asarray(x, dtype=np.int64) for x in (n, s, m, k)))
        a = n - s - k
        fits = (a >= m) & (m > 0)
        top = np.where(fits, a, 0)
        out = np.where(fits, table[s, top] - table[s, top - np.where(fits, m, 0)], -INF)
        out = np.where((m == 0) | (s == 0), 0.0, out)
        return np.where(n < k + m, INF, out)
    n = np.asarray(n, dtype=float)
    s = np.asarray(s, dtype=float)
    m = np.asarray(m, dtype=float)
    k = np.asarray(k, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        if semantics == "mvpi-multiset":
            rest = n - k
            out = np.where(rest > m, s * np.log1p(-m / np.maximum(rest, 1.0)), -INF)
        else:
            a = n - s - k
            ok = a >= m
            out = np.where(ok, _log_falling(np.where(ok, a, m), s, m), -INF)
    out = np.where((m == 0) | (s == 0), 0.0, out)
    return np.where(n < k + m, INF, out)


@dataclass(frozen=True)
class HolderTerms:
    """The five Theorem 2 terms of groups holding sigma, in log space (-inf encodes 0, +inf
    "no such placement"), aligned with the entries they were computed for."""

    log_minNR: np.ndarray
    log_T0: np.ndarray
    log_Tk: np.ndarray
    log_V0: np.ndarray
    log_Vk: np.ndarray

    def as_tuple(self):
        return (self.log_minNR, self.log_T0, self.log_Tk, self.log_V0, self.log_Vk)


def holder_terms(rows: SortedRows, idx: np.ndarray, *, l, k, m, semantics: str,
                 row: np.ndarray | None = None) -> HolderTerms:
    """The five terms for the nonzero entries ``idx`` of ``rows`` (each a group holding its
    value with count s > 0); l, k, m are ints or arrays aligned with ``idx``; ``row`` holds
    the entries' rows when the caller has them.

    References
    ----------
    Chen, LeFevre and Ramakrishnan (2009), Sect. 7.1 and Appendix A.2 (closed forms); the
    boundary rules of specs/privacy-skyline.md.
    """
    if row is None:
        row = rows.row_of(idx)
    n = rows.sizes[row]
    s = rows.count[idx].astype(np.int64)
    extra = {}
    if semantics == "mvpi-set":
        extra["set_log"], extra["set_full"] = rows.set_top(idx, l, row)
    else:
        extra["h"] = rows.top_sum(idx, l, row)
    k = np.asarray(k)
    m = np.asarray(m)
    no_k = not np.any(k)
    log_T0 = log_T(n, s, 0, semantics, **extra)
    log_Tk = log_T0 if no_k else log_T(n, s, k, semantics, **extra)
    table = rows.falling(semantics)
    log_V0 = log_V(n, s, m, 0, semantics, table=table)
    log_Vk = log_V0 if no_k else log_V(n, s, m, k, semantics, table=table)
    with np.errstate(invalid="ignore"):
        log_minNR = np.where(n < 1 + k + m, INF,
                             log_Tk + log_V(n, s, m, k + 1, semantics, table=table))
    return HolderTerms(log_minNR, log_T0, log_Tk, log_V0, log_Vk)


def combine(ss1, ss2, ss3, ss4, ss5) -> np.ndarray:
    """log NR = min(SS1, SS2 + SS5, SS3 + SS4) in log space, +inf absorbing (rule 6)."""
    with np.errstate(invalid="ignore"):
        first = np.asarray(ss2) + ss5
        second = np.asarray(ss3) + ss4
    first = np.where(np.isnan(first), INF, first)
    second = np.where(np.isnan(second), INF, second)
    return np.minimum(ss1, np.minimum(first, second))


def log_threshold(c: Fraction) -> float:
    """Safe iff log NR > log(1/c - 1) (BP = 1/(NR+1) < c); -inf when c = 1.

    Taken from c's integers, log((d - n) / n) for c = n/d, so a tiny c (1e-320, 1/10^300)
    whose 1/c - 1 overflows a float still has its logarithm.

    Examples
    --------
    >>> round(log_threshold(Fraction(1, 10**400)), 2)
    921.03
    """
    if c == 1:
        return -INF
    c = Fraction(c)
    return math.log(c.denominator - c.numerator) - math.log(c.numerator)


def float_verdicts(log_nr, theta, pinned=False) -> tuple[np.ndarray, np.ndarray]:
    """The floating-point verdicts of ``BP < c``: (unsafe, unsure), elementwise.

    ``log_nr`` is log NR (:func:`combine`), ``theta`` the :func:`log_threshold` of c and
    ``pinned`` whether a holder has n <= k + m (BP = 1).  *Unsure* means within ``LOG_TOL``
    of a finite threshold: the caller decides those with exact fractions.  With c = 1
    (theta = -inf) the verdict, NR > 0, is exact: -inf encodes an exact 0, never an underflow.

    Examples
    --------
    >>> unsafe, unsure = float_verdicts(np.array([-1.0, 0.0, 1.0, -INF]), 0.0)
    >>> unsafe.tolist(), unsure.tolist()
    ([True, False, False, True], [False, True, False, False])
    """
    log_nr = np.asarray(log_nr, dtype=float)
    theta = np.asarray(theta, dtype=float)
    finite = np.isfinite(theta)
    with np.errstate(invalid="ignore"):
        margin = log_nr - theta
    close = finite & np.isfinite(log_nr) & within_tolerance(log_nr, theta)
    unsafe = pinned | np.where(finite, (margin <= 0) & ~close, np.isneginf(log_nr))
    return unsafe, close & ~unsafe


def float_verdict_one(ss1: float, ss2: float, ss3: float, ss4: float, ss5: float,
                      theta: float, pinned: bool) -> tuple[bool, bool]:
    """:func:`combine` and :func:`float_verdicts` for one set of five statistics, in plain
    floats: the sequential decisions of SkylineAnonymize judge a few cells at a time, where
    numpy's per-call overhead would dominate.  The same rules, tested against the arrays.

    Examples
    --------
    >>> float_verdict_one(0.5, 0.0, 0.0, INF, 1.0, 0.0, False)  # log NR = min(0.5, 1, inf)
    (False, False)
    >>> float_verdict_one(0.5, 0.0, 0.0, INF, -INF, 0.0, False)  # SS2 * SS5 = 1 * 0
    (True, False)
    """
    if pinned:
        return True, False
    first = float(ss2) + float(ss5)  # Python floats: inf + -inf is nan without a warning
    second = float(ss3) + float(ss4)
    log_nr = min(ss1, INF if first != first else first, INF if second != second else second)
    if theta == -INF:
        return log_nr == -INF, False
    if close_one(log_nr, theta):
        return False, True
    return log_nr - theta <= 0, False


# --------------------------------------------------------------------------- exact terms
def exact_T(n: int, s: int, top: tuple[int, ...], k: int, semantics: str) -> Exact:
    """T(g, l, k) as an exact Fraction (``math.inf`` if the placement does not exist).

    Examples
    --------
    >>> exact_T(4, 1, (2,), 1, "svpi")  # (4 - 1 - 2 - 1) / 1
    Fraction(0, 1)
    >>> exact_T(3, 1, (1,), 0, "mvpi-set")
    Fraction(4, 3)
    """
    if s == 0 or n < k + 1:
        return INF
    h = sum(top)
    if semantics == "svpi":
        return Fraction(max(n - s - h - k, 0), s)
    if semantics == "mvpi-set":
        value = Fraction(max(n - s - k, 0), s)
        for c in top:
            value *= Fraction(n - c, n)
        return value
    q = Fraction(n - k - 1, n - k) ** s
    return q / (1 - q) * Fraction(n - 1, n) ** h


def exact_V(n: int, s: int, m: int, k: int, semantics: str) -> Exact:
    """V(f, m, k) as an exact Fraction (``math.inf`` if k + m individuals do not fit).

    In svpi and mvpi-set V = prod_{i<m} (a - i) / (a + s - i) with a = n - s - k, evaluated as
    the same ratio of falling factorials over min(m, s) factors.

    Examples
    --------
    >>> exact_V(5, 1, 2, 0, "svpi")  # (4/5) * (3/4)
    Fraction(3, 5)
    """
    if n < k + m:
        return INF
    if m == 0 or s == 0:
        return Fraction(1)
    if semantics == "mvpi-multiset":
        return Fraction(n - k - m, n - k) ** s
    a = n - s - k
    if a < m:
        return Fraction(0)
    if m <= s:
        return Fraction(math.prod(range(a - m + 1, a + 1)), math.prod(range(a + s - m + 1,
                                                                              a + s + 1)))
    return Fraction(math.prod(range(a - m + 1, a - m + s + 1)), math.prod(range(a + 1,
                                                                              a + s + 1)))


def _exact_mul(a: Exact, b: Exact) -> Exact:
    if a == INF or b == INF:
        return INF
    return a * b


#: Theorem 2's three placements as positions in (SS1, ..., SS5): the target, the k known
#: individuals and the family in one group (SS1); the known ones with the family (SS2 * SS5);
#: the known ones with the target (SS3 * SS4).
NR_TERMS = ((0,), (1, 4), (2, 3))


def exact_negated_ratio(ss, terms=NR_TERMS) -> Exact:
    """NR = min(SS1, SS2 * SS5, SS3 * SS4) from the five exact statistics (+inf absorbing,
    rule 6), over ``terms`` (a subset of :data:`NR_TERMS` when the others are known larger).

    Examples
    --------
    >>> exact_negated_ratio([Fraction(3), Fraction(1, 2), math.inf, Fraction(4), Fraction(2)])
    Fraction(1, 1)
    """
    return min(ss[t[0]] if len(t) == 1 else _exact_mul(ss[t[0]], ss[t[1]]) for t in terms)


def exact_breach_probability(nr: Exact) -> Fraction:
    """BP = 1 / (NR + 1), exactly; 0 when NR is +inf (sigma can be nowhere)."""
    return Fraction(0) if nr == INF else 1 / (Fraction(nr) + 1)


def float_breach_probability(log_nr):
    """BP = 1 / (NR + 1) from the float log NR (array or scalar): 0 at +inf, 1 at -inf,
    without overflow."""
    with np.errstate(over="ignore"):
        out = 1.0 / (1.0 + np.exp(np.asarray(log_nr, dtype=float)))
    return float(out) if np.ndim(out) == 0 else out


def exact_v_without_family(logs: np.ndarray) -> Exact:
    """The exact minimum of V(f, 0, k) over groups whose float log terms are ``logs``: with
    no family (m = 0) V is 1 wherever the k individuals fit and +inf elsewhere, so no
    Fraction is computed."""
    return Fraction(1) if np.isfinite(logs).any() else INF


def exact_terms(n: int, s: int, top: tuple[int, ...], k: int, m: int,
                semantics: str) -> tuple[Exact, Exact, Exact, Exact, Exact]:
    """The five exact terms of one group: (minNR, T(l,0), T(l,k), V(m,0), V(m,k)).

    Examples
    --------
    >>> exact_terms(5, 1, (), 3, 0, "svpi")
    (Fraction(1, 1), Fraction(4, 1), Fraction(1, 1), Fraction(1, 1), Fraction(1, 1))
    """
    t_k = exact_T(n, s, top, k, semantics)
    min_nr = INF if n < 1 + k + m else _exact_mul(t_k, exact_V(n, s, m, k + 1, semantics))
    return (min_nr, exact_T(n, s, top, 0, semantics), t_k, exact_V(n, s, m, 0, semantics),
            exact_V(n, s, m, k, semantics))


def exact_min(logs: np.ndarray, groups: np.ndarray, exact_of, key_of) -> tuple:
    """Exact minimum of a term and the first group attaining it, recomputing only entries
    whose float log is within ``LOG_TOL`` of the float minimum.

    ``groups`` must be increasing; candidates are deduplicated by ``key_of(e)`` (the inputs
    the term depends on), so thousands of identical groups cost one exact evaluation.
    Returns ``(value, group)``; ``(inf, None)`` when no entry is feasible."""
    if not len(logs):
        return INF, None
    lowest = float(np.min(logs))
    if lowest == INF:
        return INF, None
    if lowest == -INF:
        # -inf only ever encodes an exact 0 (a non-positive numerator), never an underflow
        return Fraction(0), int(groups[int(np.flatnonzero(logs == -INF)[0])])
    best_value, best_group, seen = INF, None, {}
    for e in np.flatnonzero(within_tolerance(logs, lowest)).tolist():
        key = key_of(e)
        if key in seen:
            continue
        seen[key] = value = exact_of(e)
        if value < best_value:
            best_value, best_group = value, int(groups[e])
    return best_value, best_group


@dataclass(frozen=True)
class Statistic:
    """One sufficient statistic: its exact value and the first group attaining it."""

    value: Exact
    group: int | None


@dataclass(frozen=True)
class SufficientStatistics:
    """SS1..SS5 of Theorem 2 for one target value and one (l, k, m), with their argmins.

    Attributes
    ----------
    ss1, ss2, ss3, ss4, ss5 : Statistic
        min minNR(g,l,k,m), min T(g,l,0), min T(g,l,k), min V(f,m,0), min V(f,m,k).
    pinned_group : int or None
        A group holding sigma with n_g <= k + m (BP = 1), if any.
    """

    l: int
    k: int
    m: int
    semantics: str
    ss1: Statistic
    ss2: Statistic
    ss3: Statistic
    ss4: Statistic
    ss5: Statistic
    pinned_group: int | None

    @property
    def case(self) -> str:
        """Which placement attains the minimum negated ratio.

        'absent' (sigma occurs nowhere), 'pinned' (rule 5), 'same-group' (SS1: target, known
        individuals and family in one group), 'known-with-family' (SS2*SS5: the k known
        individuals sit in the family's group) or 'known-with-target' (SS3*SS4).
        """
        return self._resolve()[1]

    @property
    def negated_ratio(self) -> Exact:
        """The minimum negated ratio NR (``math.inf`` when sigma occurs nowhere)."""
        return self._resolve()[0]

    @property
    def breach_probability(self) -> Fraction:
        """BP = 1 / (NR + 1), exactly."""
        return exact_breach_probability(self.negated_ratio)

    def _resolve(self) -> tuple[Exact, str]:
        if self.pinned_group is not None:
            return Fraction(0), "pinned"
        options = [
            (self.ss1.value, "same-group"),
            (_exact_mul(self.ss2.value, self.ss5.value), "known-with-family"),
            (_exact_mul(self.ss3.value, self.ss4.value), "known-with-target"),
        ]
        best = min(options, key=lambda option: option[0])  # first wins ties
        if best[0] == INF:
            return INF, "absent"
        return best


def _running_max(release: ReleaseCandidate) -> np.ndarray:
    """The running maximum of the group sizes: the first group that fits ``need`` people is
    found by binary search (built once per release by :meth:`~ReleaseCandidate.derived`)."""
    return np.maximum.accumulate(release.sizes_array)


def _holders(release: ReleaseCandidate, j: int) -> np.ndarray:
    """CSR positions of the nonzeros of value ``j`` (the groups holding it), in group order."""
    ptr, order = release.by_value
    return order[ptr[j]:ptr[j + 1]]


def _first_fitting(release: ReleaseCandidate, need: int, holders: np.ndarray | None = None):
    """The first group with at least ``need`` individuals (skipping ``holders``), or None."""
    sizes = release.sizes_array
    if holders is None:
        g = int(np.searchsorted(release.derived(_running_max), need))
        return g if g < len(sizes) else None
    fits = sizes >= need
    fits[np.asarray(holders, dtype=np.int64)] = False
    hits = np.flatnonzero(fits)
    return int(hits[0]) if len(hits) else None


@validate_params({"release": RELEASE, "l": AMOUNT, "k": AMOUNT, "m": AMOUNT})
def sufficient_statistics(release: ReleaseCandidate, sigma: object, *, l: int, k: int,
                          m: int) -> SufficientStatistics:
    """The five sufficient statistics of Theorem 2, exact, with the groups attaining them.

    One vectorized pass over the groups holding sigma finds near-minimal groups in floating
    point; only those are recomputed exactly, once per distinct (n, #sigma, top-l) shape.
    Groups without sigma only enter SS4/SS5 (V = 1 where the individuals fit).

    Parameters
    ----------
    release : ReleaseCandidate
    sigma : hashable
        The target sensitive value.
    l, k, m : int
        Amount of knowledge in each dimension (non-negative, any size).

    Returns
    -------
    SufficientStatistics

    Examples
    --------
    >>> r = ReleaseCandidate.from_groups([(5, ["Flu"] * 4 + ["AIDS"])])
    >>> stats = sufficient_statistics(r, "AIDS", l=0, k=3, m=0)
    >>> stats.breach_probability, stats.case
    (Fraction(1, 2), 'same-group')
    """
    l, k, m = int(l), int(k), int(m)
    semantics = release.semantics
    j = release.value_index(sigma)
    if j is None or not release.contains(sigma):
        absent = Statistic(INF, None)
        one = Statistic(Fraction(1), None)
        return SufficientStatistics(l, k, m, semantics, absent, absent, absent, one, one, None)
    lc, kc, mc = cap_amounts(len(release.values), release.n_individuals, l, k, m)
    rows = SortedRows.of(release)
    idx = _holders(release, j)
    groups = rows.row_of(idx)
    n, s = rows.sizes[groups], rows.count[idx].astype(np.int64)
    terms = holder_terms(rows, idx, l=lc, k=kc, m=mc, semantics=semantics)
    pinned = np.flatnonzero(n <= kc + mc)
    pinned_group = int(groups[pinned[0]]) if len(pinned) else None
    topl = {}

    def shape(e):
        if e not in topl:
            top = rows.top_tuple(int(idx[e]), lc)
            topl[e] = (int(n[e]), int(s[e]), top if semantics == "mvpi-set" else (sum(top),))
        return topl[e]

    def t_exact(kk):
        def f(e):
            n_, s_, top = shape(e)
            return exact_T(n_, s_, top, kk, semantics)
        return f

    def v_exact(kk):
        return lambda e: exact_V(int(n[e]), int(s[e]), mc, kk, semantics)

    def nr_exact(e):
        n_, s_, top = shape(e)
        if n_ < 1 + kc + mc:
            return INF
        return _exact_mul(exact_T(n_, s_, top, kc, semantics),
                          exact_V(n_, s_, mc, kc + 1, semantics))

    def v_key(e):
        return int(n[e]), int(s[e])

    ss3 = Statistic(*exact_min(terms.log_Tk, groups, t_exact(kc), shape))
    ss2 = ss3 if kc == 0 else Statistic(*exact_min(terms.log_T0, groups, t_exact(0), shape))

    def v_stat(logs, kk):
        if mc == 0:  # V(f, 0, k) = 1 at every group where k individuals fit
            g = _first_fitting(release, kk)
            return Statistic(Fraction(1), g) if g is not None else Statistic(INF, None)
        value, g = exact_min(logs, groups, v_exact(kk), v_key)
        if value == INF:  # no holder fits; groups without sigma give V = 1 where k + m fit
            g = _first_fitting(release, kk + mc, groups)
            return Statistic(Fraction(1), g) if g is not None else Statistic(INF, None)
        return Statistic(value, g)

    if mc == 0:  # V(f, 0, k) = 1 wherever k fits, so minNR(g) = T(g, l, k) and SS1 = SS3
        ss1 = ss3
    else:
        ss1 = Statistic(*exact_min(terms.log_minNR, groups, nr_exact, shape))
    ss4 = v_stat(terms.log_V0, 0)
    ss5 = ss4 if kc == 0 else v_stat(terms.log_Vk, kc)
    return SufficientStatistics(l, k, m, semantics, ss1, ss2, ss3, ss4, ss5, pinned_group)


def _warn_unknown(release: ReleaseCandidate, sigma: object, owner: str) -> None:
    present = [v for v in release.values if release.contains(v)]
    close = difflib.get_close_matches(str(sigma), [str(v) for v in present], n=3, cutoff=0.5)
    by_text = {str(v): v for v in present}
    hint = (f"; closest existing values: {[by_text[c] for c in close]!r}" if close
            else "; it has none close to it")
    warn(f"{owner}: {sigma!r} occurs in no group of the release, so its breach probability is "
         f"0{hint}. Check the spelling: a typo must not read as 'perfectly safe'.",
         UnknownValueWarning)


@validate_params({"release": RELEASE, "l": AMOUNT, "k": AMOUNT, "m": AMOUNT})
def breach_probability(release: ReleaseCandidate, sigma: object, *, l: int, k: int, m: int,
                       exact: bool = False) -> float | Fraction:
    """Worst-case probability that an attacker with at most (l, k, m) knowledge infers sigma.

    BP_sigma(l, k, m) = max Pr(sigma in t[S] | K, D*) over every target t and every knowledge K
    of amount at most (l, k, m) that is consistent with the release.

    Parameters
    ----------
    release : ReleaseCandidate
        The release candidate; its ``semantics`` fixes the meaning of the dimensions.
    sigma : hashable
        The target sensitive value. A value that occurs in no group gives 0; a value the
        release does not know at all (often a typo) also warns
        (:class:`~skyprivacy.errors.UnknownValueWarning`, naming the closest existing values).
    l : int
        svpi: values the target is known not to have; mvpi: values known to co-occur with sigma
        for the target.
    k : int
        svpi: other individuals whose values are known; mvpi: other individuals known not to
        have sigma.
    m : int
        Members of the target's same-value family known to the attacker.
    exact : bool, default False
        Return a :class:`fractions.Fraction` instead of a float.

    Returns
    -------
    float or Fraction
        The float is the correctly rounded value of the exact fraction.

    Raises
    ------
    InvalidParameterError
        If l, k or m is not a non-negative integer. Any size is accepted: amounts beyond the
        number of other values (l) or of individuals (k, m) answer as those numbers.

    Notes
    -----
    NR = min(SS1, SS2 * SS5, SS3 * SS4) and BP = 1 / (NR + 1) (Lemma 1, Theorem 2), with the
    closed forms of Sect. 7.1 and the boundary rules of the specification; if a group holding
    sigma has n_g <= k + m, BP = 1.

    References
    ----------
    Chen, LeFevre and Ramakrishnan, VLDB Journal 18 (2009): Definition 3 (breach probability),
    Lemma 1 (negated ratio), Theorem 2 (congregation), Sect. 7.1 (closed forms).

    Examples
    --------
    >>> r = ReleaseCandidate.from_groups([(4, ["AIDS", "AIDS", "Flu", "Flu"]),
    ...                                   (4, ["AIDS", "Cancer", "Flu", "Flu"])])
    >>> breach_probability(r, "AIDS", l=0, k=0, m=0)
    0.5
    >>> breach_probability(r, "AIDS", l=0, k=1, m=0, exact=True)
    Fraction(2, 3)
    >>> breach_probability(r, "AIDS", l=10**9, k=2**70, m=2**70)
    1.0
    """
    stats = sufficient_statistics(release, sigma, l=l, k=k, m=m)
    if release.value_index(sigma) is None:
        _warn_unknown(release, sigma, "breach_probability")
    bp = stats.breach_probability
    return bp if exact else float(bp)


# --------------------------------------------------------------------------- batched kernel
def _segments(ptr: np.ndarray, order: np.ndarray, which: np.ndarray):
    """Concatenated CSC segments of the values ``which``: (entry positions, segment starts)."""
    lo, hi = ptr[which], ptr[which + 1]
    lengths = hi - lo
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    flat = np.repeat(lo - starts, lengths) + np.arange(int(lengths.sum()), dtype=np.int64)
    return order[flat], starts, lengths


def _amount_args(amounts: np.ndarray, which: np.ndarray) -> dict:
    """l, k, m for entries of the given amount ids (scalars when they all share one)."""
    if len(which) and (which == which[0]).all():
        return dict(zip("lkm", (int(x) for x in amounts[which[0]])))
    return {name: amounts[:, col][which] for col, name in enumerate("lkm")}


#: Up to this many distinct amounts of knowledge, a check evaluates one amount per layer.
_FEW_AMOUNTS = 8


def _row_sweep(rows: SortedRows, nz_value: np.ndarray, which: np.ndarray, amount: np.ndarray,
               amounts: np.ndarray, n_values: int, semantics: str) -> np.ndarray:
    """Float log NR of the values ``which`` (each at its own amount id) from one pass over
    the nonzeros in row order: every read is sequential; minima per value by scatter-min."""
    amount_of = np.full(n_values, -1, dtype=np.int64)
    amount_of[which] = amount
    acc = np.full((5, n_values), INF)
    for lo in range(0, len(nz_value), _CHUNK):
        hi = min(lo + _CHUNK, len(nz_value))
        own = amount_of[nz_value[lo:hi]]
        sel = np.flatnonzero(own >= 0)
        terms = holder_terms(rows, sel + lo, semantics=semantics,
                             row=rows.row_range(lo, hi)[sel],
                             **_amount_args(amounts, own[sel]))
        at = nz_value[sel + lo]
        for row, term in zip(acc, terms.as_tuple()):
            np.minimum.at(row, at, term)
    return combine(*acc[:, which])


def _value_chunks(rows: SortedRows, by_value: tuple, held: np.ndarray, which: np.ndarray,
                  amount: np.ndarray, amounts: np.ndarray, semantics: str) -> np.ndarray:
    """The same for a few values: their holders gathered in chunks of whole values."""
    ptr, order = by_value
    out = np.empty(len(which))
    weight = np.cumsum(held[which])
    cut = np.searchsorted(weight, np.arange(_CHUNK, int(weight[-1]) + _CHUNK, _CHUNK),
                          side="right")
    bounds = np.unique(np.concatenate([[0], cut, [len(which)]]))
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        idx, starts, lengths = _segments(ptr, order, which[lo:hi])
        terms = holder_terms(rows, idx, semantics=semantics,
                             **_amount_args(amounts, np.repeat(amount[lo:hi], lengths)))
        out[lo:hi] = combine(*(np.minimum.reduceat(t, starts) for t in terms.as_tuple()))
    return out


def _smallest_holder(release: ReleaseCandidate) -> np.ndarray:
    """Size of the smallest group holding each value (built once per release by
    :meth:`~ReleaseCandidate.derived`)."""
    rows = SortedRows.of(release)
    _, nz_value, _ = release.csr
    smallest = np.full(len(release.values), np.iinfo(np.int64).max)
    for lo in range(0, len(nz_value), _CHUNK):  # in small pieces
        hi = min(lo + _CHUNK, len(nz_value))
        np.minimum.at(smallest, nz_value[lo:hi], rows.sizes[rows.row_range(lo, hi)])
    smallest.setflags(write=False)
    return smallest


def point_verdicts(release: ReleaseCandidate, value: np.ndarray, point: np.ndarray,
                   points: list) -> tuple[np.ndarray, np.ndarray]:
    """Verdicts ``BP < c`` of many (value, point) queries in one pass over the nonzeros.

    The distinct (value, amount of knowledge) pairs are laid out in layers, each value at
    most once per layer (the first amount of every value, then the second, ...); a layer is
    evaluated in one vectorized pass, in chunks, with each holder's terms at its value's
    amount, and reduced per value. A layer that involves most nonzeros sweeps them in row
    order, one that involves a few values gathers their holders; so P points cost
    O(nnz * P) and nothing is done per query in Python.  Queries whose float log NR is
    within ``LOG_TOL`` of the threshold are decided with exact fractions.

    Parameters
    ----------
    release : ReleaseCandidate
    value : ndarray of int, shape (Q,)
        Value positions; values that occur nowhere are safe (BP = 0).
    point : ndarray of int, shape (Q,)
        Index of each query's point in ``points``.
    points : list of (l, k, m, c)
        The distinct points: amounts of any size, c a Fraction in (0, 1].

    Returns
    -------
    safe : ndarray of bool, shape (Q,)
    log_nr : ndarray of float, shape (Q,)
        Float log of the minimum negated ratio (-inf when pinned, +inf when absent).
    """
    value = np.asarray(value, dtype=np.int64)
    point = np.asarray(point, dtype=np.int64)
    n_q = len(value)
    semantics = release.semantics
    n_values, n_people = len(release.values), release.n_individuals
    capped = [cap_amounts(n_values, n_people, l, k, m) for l, k, m, _ in points]
    safe = np.ones(n_q, dtype=bool)
    log_nr = np.full(n_q, INF)
    if not n_q:
        return safe, log_nr
    rows = SortedRows.of(release)
    _, nz_value, _ = release.csr
    # groups holding each value; the by-value order itself is built only if a layer of few
    # values needs it (a sweep in row order does not)
    held = release.holders_per_value
    min_size = release.derived(_smallest_holder)
    distinct = sorted(set(capped))
    amounts = np.array(distinct, dtype=np.int64).reshape(-1, 3)
    amount_of_point = np.array([distinct.index(a) for a in capped], dtype=np.int64)
    amount = amount_of_point[point]
    live = held[value] > 0
    pinned = live & (min_size[value] <= amounts[amount, 1] + amounts[amount, 2])
    log_nr[pinned] = -INF
    todo = np.flatnonzero(live & ~pinned)
    if len(todo):
        # distinct (value, amount) pairs, in layers where each value is at most once: one
        # layer per amount when there are few (every layer then runs at scalar amounts, the
        # fast path of the closed forms), else a value's i-th amount in layer i
        pair = value[todo] * len(distinct) + amount[todo]
        pairs, back = np.unique(pair, return_inverse=True)
        p_value, p_amount = np.divmod(pairs, len(distinct))
        if len(distinct) <= _FEW_AMOUNTS:
            layer = p_amount
        else:
            first = np.concatenate([[True], p_value[1:] != p_value[:-1]])
            starts = np.flatnonzero(first)
            layer = np.arange(len(pairs)) - np.repeat(starts, np.diff(np.append(starts,
                                                                                 len(pairs))))
        pair_nr = np.empty(len(pairs))
        for level in np.unique(layer).tolist():
            mine = np.flatnonzero(layer == level)
            which, amt = p_value[mine], p_amount[mine]
            if 4 * int(held[which].sum()) >= len(nz_value):
                pair_nr[mine] = _row_sweep(rows, nz_value, which, amt, amounts, n_values,
                                           semantics)
            else:
                pair_nr[mine] = _value_chunks(rows, release.by_value, held, which, amt, amounts,
                                              semantics)
        log_nr[todo] = pair_nr[back.reshape(-1)]
    thresholds = np.array([log_threshold(p[3]) for p in points], dtype=float)[point]
    unsafe, close = float_verdicts(log_nr, thresholds)
    safe = ~unsafe & ~close
    for q in np.flatnonzero(close).tolist():
        lc, kc, mc = capped[point[q]]
        stats = sufficient_statistics(release, release.values[int(value[q])], l=lc, k=kc, m=mc)
        safe[q] = stats.breach_probability < points[point[q]][3]
    return safe, log_nr


class _ShapeTable:
    """Holder shapes of one value, for any l: the distinct (n, #sigma) pairs of its holders
    (l does not change them), the most each pair rules out at a given l, and per l the pairs
    that can attain a minimum (the T front), padded to one rectangular table."""

    def __init__(self, release: ReleaseCandidate, idx: np.ndarray):
        self.rows = SortedRows.of(release)
        self.semantics = release.semantics
        self.idx = idx
        row = self.rows.row_of(idx)
        n = self.rows.sizes[row]
        s = self.rows.count[idx].astype(np.int64)
        order = np.lexsort((s, n))
        self.order = order
        n, s = n[order], s[order]
        first = np.concatenate([[True], (n[1:] != n[:-1]) | (s[1:] != s[:-1])])
        self.starts = np.flatnonzero(first)
        self.n, self.s = n[first], s[first]
        self.s_rank = np.unique(self.s, return_inverse=True)[1].reshape(-1)
        self.min_n = int(self.n.min())
        # top-l sums stop changing once l reaches the longest holder row less one
        self.saturation = int((self.rows.indptr[row + 1] - self.rows.indptr[row]).max()) - 1
        # V(f, m, k) does not depend on l: its front is fixed
        self.v_front = _v_front(self.n, self.s)
        self.levels: dict = {}
        self._falling = None
        if self.semantics != "mvpi-multiset":
            self._falling = falling_table(int(self.n.max()), int(self.s.max()))

    def log_V(self, n, s, m, k) -> np.ndarray:
        """:func:`log_V` of holder shapes, from the falling-ratio table when there is one."""
        return log_V(n, s, m, k, self.semantics, table=self._falling)

    def _ruled(self, ls: np.ndarray):
        """(U, L) most ruled out per pair: h (int) or, mvpi-set, (full, log) as one float r."""
        cols_h, cols_r = [], []
        for l in ls.tolist():
            if self.semantics == "mvpi-set":
                set_log, set_full = self.rows.set_top(self.idx, l)
                r = np.where(set_full > 0, INF, -set_log)[self.order]
                cols_r.append(np.maximum.reduceat(r, self.starts))
            else:
                h = self.rows.top_sum(self.idx, l)[self.order]
                best = np.maximum.reduceat(h, self.starts)
                cols_h.append(best)
                cols_r.append(best.astype(float))
        return (np.column_stack(cols_h) if cols_h else None), np.column_stack(cols_r)

    def _build(self, ls: np.ndarray):
        hs, rs = self._ruled(ls)
        keep = _t_front_many(self.n, self.s_rank, rs)
        for col, l in enumerate(ls.tolist()):
            pos = np.flatnonzero(keep[:, col])
            x: tuple[np.ndarray, ...]
            if self.semantics == "mvpi-set":
                r = rs[pos, col]
                x = (np.where(r == INF, 1, 0), np.where(r == INF, 0.0, -r))
            else:
                x = (hs[pos, col],)
            self.levels[l] = (self.n[pos], self.s[pos]) + x

    def table(self, ls: np.ndarray) -> tuple:
        """Rectangular (L, S) arrays n, s and the ruled-out terms for the distinct ``ls``
        (rows padded with their own first shape, which leaves every minimum unchanged)."""
        missing = np.array([l for l in ls.tolist() if l not in self.levels], dtype=np.int64)
        if len(missing):
            self._build(missing)
        rows = [self.levels[l] for l in ls.tolist()]
        width = max(len(r[0]) for r in rows)
        out = []
        for part in range(len(rows[0])):
            out.append(np.stack([np.concatenate([r[part], np.repeat(r[part][:1],
                                                                    width - len(r[part]))])
                                 for r in rows]))
        return tuple(out)


def _t_front_many(n: np.ndarray, s_rank: np.ndarray, r: np.ndarray) -> np.ndarray:
    """(U, L) mask of the pairs no other pair dominates for T and minNR, for every column of
    ``r`` at once.

    In every semantics T(g, l, k) rises with n and falls with #sigma and with what is ruled
    out (``r``), and V with them as in :func:`_v_front`; so a pair with n' <= n, s' >= s and
    r' >= r is at least as low for every (k, m).  The pairs (distinct, sorted by n then s) are
    swept by n, keeping for every s the best r seen at s or above."""
    n_cols = r.shape[1]
    best = np.full((int(s_rank.max(initial=0)) + 2, n_cols), -INF)
    keep = np.zeros(r.shape, dtype=bool)
    bounds = np.flatnonzero(np.concatenate([[True], n[1:] != n[:-1], [True]]))
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        ss, rr = s_rank[lo:hi][::-1], r[lo:hi][::-1]  # one n, s descending
        inside = np.maximum.accumulate(
            np.concatenate([np.full((1, n_cols), -INF), rr[:-1]]), axis=0)
        keep[lo:hi] = ((rr > best[ss]) & (rr > inside))[::-1]
        add = np.full(best.shape, -INF)
        add[ss] = rr
        best = np.maximum(best, np.maximum.accumulate(add[::-1], axis=0)[::-1])
    return keep


def _v_front(n: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Positions of the (n, s) pairs no other pair dominates for V: V(f, m, k) only falls
    with a smaller n and a larger s (when everyone fits, i.e. nothing is pinned)."""
    order = np.lexsort((-s, n))
    s_sorted = s[order]
    running = np.maximum.accumulate(np.concatenate([[-1], s_sorted[:-1]]))
    return order[s_sorted > running]


def holder_shapes(release: ReleaseCandidate, j: int) -> _ShapeTable | None:
    """The shape table of value position ``j`` (None when no group holds it); pass it to
    :func:`log_negated_ratio` as ``cache`` to reuse it across calls for one value."""
    idx = _holders(release, j)
    return _ShapeTable(release, idx) if len(idx) else None


def log_negated_ratio(release: ReleaseCandidate, j: int, l, k, m, *,
                      cache: _ShapeTable | None = None) -> np.ndarray:
    """Float log NR of value position ``j`` for arrays of (l, k, m) (l may be one int), over
    its holders only (-inf where pinned: BP = 1; +inf when the value occurs nowhere).

    Holders of the same shape (n, #sigma and the top-l others they rule out) have equal terms,
    so each shape is evaluated once, and only the shapes no other dominates (Pareto front);
    queries with different l are evaluated together on one padded table of shapes.  Pass the
    :func:`holder_shapes` of the value as ``cache`` to build the shapes of each l once."""
    k = np.atleast_1d(np.asarray(k, dtype=np.int64))
    m = np.atleast_1d(np.asarray(m, dtype=np.int64))
    out = np.full(len(k), INF)
    table = cache if cache is not None else holder_shapes(release, j)
    if table is None:
        return out
    semantics = release.semantics
    l = np.broadcast_to(np.minimum(np.asarray(l, dtype=np.int64), len(release.values)),
                        k.shape)
    distinct, where = np.unique(l, return_inverse=True)
    where = where.reshape(-1)
    tab = table.table(distinct)
    n_all, s_all = tab[0], tab[1]
    if semantics == "mvpi-set":
        x_all = {"set_full": tab[2], "set_log": tab[3]}
    else:
        x_all = {"h": tab[2]}
    log_t0_all = log_T(n_all, s_all, 0, semantics, **x_all).min(axis=1)
    min_n = table.min_n
    n_v, s_v = table.n[None, table.v_front], table.s[None, table.v_front]
    step = max(1, (_CHUNK << 5) // n_all.shape[1])
    for i in range(0, len(k), step):
        kk, mm, w = k[i:i + step, None], m[i:i + step, None], where[i:i + step]
        n, s = n_all[w], s_all[w]
        extra = {key: value[w] for key, value in x_all.items()}
        log_tk = log_T(n, s, kk, semantics, **extra)
        with np.errstate(invalid="ignore"):
            same = (log_tk + table.log_V(n, s, mm, kk + 1)).min(axis=1)
        same = np.where(min_n < 1 + kk[:, 0] + mm[:, 0], INF, same)
        nr = combine(same, log_t0_all[w], log_tk.min(axis=1),
                     table.log_V(n_v, s_v, mm, 0).min(axis=1),
                     table.log_V(n_v, s_v, mm, kk).min(axis=1))
        out[i:i + step] = np.where(min_n <= kk[:, 0] + mm[:, 0], -INF, nr)
    return out


# --------------------------------------------------------------------------- dense conveniences
def top_other_counts(sorted_counts: np.ndarray, s: np.ndarray, l: int) -> np.ndarray:
    """The l largest counts of values other than sigma in every row of a *dense* matrix.

    A convenience for small dense inputs (tests, teaching); the algorithms read
    :class:`SortedRows` instead and never build a groups x values array.

    Examples
    --------
    >>> top_other_counts(np.array([[3, 2, 1]]), np.array([2]), 2).tolist()
    [[3, 1]]
    """
    n_groups, n_values = sorted_counts.shape
    width = l + 1
    if n_values < width:
        sorted_counts = np.hstack(
            [sorted_counts, np.zeros((n_groups, width - n_values), dtype=sorted_counts.dtype)])
    top = sorted_counts[:, :width]
    position = (top > s[:, None]).sum(axis=1)  # where one copy of #sigma sits among the top
    keep = np.arange(width)[None, :] != np.minimum(position, l)[:, None]
    return top[keep].reshape(n_groups, l)


@dataclass(frozen=True)
class GroupTerms(HolderTerms):
    """:class:`HolderTerms` of every group of a dense input, plus the pinned flag."""

    pinned: np.ndarray | None = None


def group_terms(n: np.ndarray, s: np.ndarray, top: np.ndarray, *, l, k, m,
                semantics: str) -> GroupTerms:
    """The five terms for dense per-group inputs (``top`` from :func:`top_other_counts`):
    a thin wrapper over :func:`log_T` / :func:`log_V` for small examples and tests."""
    del l  # implied by top
    n = np.asarray(n)
    top = np.asarray(top)
    extra = {"h": top.sum(axis=1)}
    if semantics == "mvpi-set":
        with np.errstate(divide="ignore"):
            extra = {"set_log": np.where(top >= n[:, None], 0.0,
                                         np.log1p(-top / n[:, None])).sum(axis=1),
                     "set_full": (top >= n[:, None]).sum(axis=1)}
    log_T0 = log_T(n, s, 0, semantics, **extra)
    log_Tk = log_T(n, s, k, semantics, **extra)
    with np.errstate(invalid="ignore"):
        log_minNR = np.where(n < 1 + np.asarray(k) + m, INF,
                             log_Tk + log_V(n, s, m, np.asarray(k) + 1, semantics))
    return GroupTerms(log_minNR, log_T0, log_Tk, log_V(n, s, m, 0, semantics),
                      log_V(n, s, m, k, semantics), pinned=(s > 0) & (n <= np.asarray(k) + m))
