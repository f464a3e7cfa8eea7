"""The dynamic program of Appendix A.3: breach probability without the congregation property.

SkylineCheck rests on Theorem 2 (the congregation property): the attacker's worst case puts
all k known individuals in one group and all m family members in one group, so five running
minima suffice.  Appendix A.3 of the privacy-skyline paper computes the same minimum negated
ratio without that property, by a dynamic program over every way of distributing the k and m
individuals across the QI-groups (after Martin et al. 2007).  It is the competitor of the
paper's Sect. 8.1 (Fig. 6) and here a *reference checker*: an independent route to the same
number, used by the tests and ``benchmarks/bench_check.py``, never on the default path.

The recurrence (Appendix A.3).  For a placement with k_j known individuals and m_j family
members in group j and the target in group g, Proposition 1 gives the negated ratio

    V(1, m_1, k_1) ... [T(g, l, k_g) V(g, m_g, k_g + 1)] ... V(B, m_B, k_B).

Scanning the groups f = 1..B, two tables over (i, j) (i <= k known individuals and j <= m
family members placed so far) hold the least product without the target placed yet and with
it placed:

    without_f(i, j) = min_{a, b} without_{f-1}(i - a, j - b) * V(f, b, a)
    with_f(i, j)    = min( min_{a, b} with_{f-1}(i - a, j - b) * V(f, b, a),
                           min_{a, b} without_{f-1}(i - a, j - b) * T(f, l, a) V(f, b, a + 1) )

The knowledge semantics is the spec's "at most (l, k, m)": the answer is the least
with_B(i, j) over i <= k and j <= m (T only falls as l grows, so l itself is the worst l).
The per-group terms T and V, and their boundary rules (a placement that does not fit is
+inf, a negative numerator is 0, +inf absorbs), come from :mod:`skyprivacy.formulas`; nothing
here assumes the congregation property or the "pinned" shortcut.

Cost: O(B (k + 1)^2 (m + 1)^2) per value and O((k + 1)(m + 1)) memory, against O(B) for
Theorem 2.  The float path runs in log space, vectorized over the table; ``exact=True`` runs
the same recurrence on Fractions (small inputs: tests).

References
----------
Chen, LeFevre and Ramakrishnan (2009), Appendix A.3 and Sect. 8.1; Martin, Kifer,
Machanavajjhala, Gehrke and Halpern (2007), "Worst-case background knowledge".
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .._core.validation import Boolean, Interval, validate_params
from ..errors import InvalidParameterError
from ..formulas import (
    SortedRows,
    cap_amounts,
    exact_breach_probability,
    exact_T,
    float_breach_probability,
    exact_V,
    log_T,
    log_V,
)
from ..release import ReleaseCandidate
from ._common import RELEASE

__all__ = ["dp_breach_probability", "DP_MAX_STATES"]

INF = math.inf

#: Largest table (k + 1) * (m + 1) the dynamic program accepts; above it the answer is
#: :func:`skyprivacy.breach_probability` (the program would need that many states per group).
DP_MAX_STATES = 1 << 16


_AMOUNT = Interval("integer", 0)


@validate_params({"release": RELEASE, "l": _AMOUNT, "k": _AMOUNT, "m": _AMOUNT,
                  "exact": Boolean()})
def dp_breach_probability(release: ReleaseCandidate, sigma: object, *, l: int, k: int, m: int,
                          exact: bool = False):
    """Breach probability by the Appendix A.3 dynamic program (no congregation property).

    A reference checker and benchmark competitor: it must equal
    :func:`skyprivacy.breach_probability` everywhere, at a cost of
    O(B (k + 1)^2 (m + 1)^2) instead of O(B).

    Parameters
    ----------
    release : ReleaseCandidate
        Any of the three semantics.
    sigma : hashable
        The target sensitive value.
    l, k, m : int
        Amounts of knowledge (at most, as in the spec); l, k and m are capped like
        :func:`skyprivacy.breach_probability` caps them.
    exact : bool, default False
        Return a :class:`fractions.Fraction` computed on exact terms; else a float from the
        log-space program.

    Returns
    -------
    float or Fraction
        0 when sigma occurs in no group; 1 when some placement pins the target.

    Raises
    ------
    InvalidParameterError
        A negative or non-integer amount, or a table (k + 1)(m + 1) above ``DP_MAX_STATES``.

    References
    ----------
    Chen, LeFevre and Ramakrishnan (2009), Appendix A.3 (the program), Proposition 1 (the
    product form it minimizes), Sect. 8.1 (its use as the competitor of SkylineCheck).

    Examples
    --------
    >>> from skyprivacy import ReleaseCandidate
    >>> r = ReleaseCandidate.from_groups([(4, ["c", "c", "c", "c"]), (2, ["c", "a"])])
    >>> dp_breach_probability(r, "a", l=0, k=2, m=0, exact=True)  # learn the other member
    Fraction(1, 1)
    >>> dp_breach_probability(r, "a", l=0, k=0, m=0)
    0.5
    """
    owner = "dp_breach_probability"
    l, k, m = cap_amounts(len(release.values), release.n_individuals, int(l), int(k), int(m))
    if (k + 1) * (m + 1) > DP_MAX_STATES:
        raise InvalidParameterError(
            f"The dynamic program of {owner} needs (k + 1)(m + 1) = {(k + 1) * (m + 1)} states "
            f"per group, more than {DP_MAX_STATES}; use breach_probability for these amounts.")
    j = release.value_index(sigma)
    if j is None or not release.value_totals[j] > 0:
        return Fraction(0) if exact else 0.0
    groups = _DPGroups(release, j, l)
    if exact:
        return exact_breach_probability(_exact_program(groups, k, m, release.semantics))
    return float_breach_probability(_log_program(groups, k, m, release.semantics))


class _DPGroups:
    """Per group of the release: n, #sigma, and (for groups holding sigma) the entry in the
    sorted rows from which T's ruled-out side is read: the top-l other counts."""

    def __init__(self, release: ReleaseCandidate, j: int, l: int):
        self.rows = SortedRows.of(release)
        self.l = l
        self.n = release.sizes_array
        self.s = np.zeros(len(self.n), dtype=np.int64)
        ptr, order = release.by_value
        self.holders = np.asarray(order[ptr[j]:ptr[j + 1]], dtype=np.int64)
        self.group_of = self.rows.row_of(self.holders)
        self.s[self.group_of] = self.rows.count[self.holders]
        self.entry = dict(zip(self.group_of.tolist(), self.holders.tolist()))

    def top(self, group: int) -> tuple:
        """The l largest counts of the other values in a group holding sigma."""
        return self.rows.top_tuple(self.entry[group], self.l)

    def log_extra(self, semantics: str) -> dict:
        """Per holding group, the keyword arguments of :func:`log_T` for its ruled-out side."""
        if semantics == "mvpi-set":
            set_log, set_full = self.rows.set_top(self.holders, self.l)
            return {g: {"set_log": a, "set_full": b} for g, a, b in
                    zip(self.group_of.tolist(), set_log.tolist(), set_full.tolist())}
        h = self.rows.top_sum(self.holders, self.l)
        return {g: {"h": x} for g, x in zip(self.group_of.tolist(), h.tolist())}


def _log_program(groups: _DPGroups, k: int, m: int, semantics: str) -> float:
    a = np.arange(k + 1)[:, None]  # known individuals placed in this group
    b = np.arange(m + 1)[None, :]  # family members placed in this group
    extra_of = groups.log_extra(semantics)
    n, s = groups.n, groups.s
    without = np.full((k + 1, m + 1), INF)
    without[0, 0] = 0.0
    with_t = np.full((k + 1, m + 1), INF)
    for f in range(len(n)):
        nf, sf = int(n[f]), int(s[f])
        v = log_V(nf, sf, b, a, semantics)  # V(f, b, a): +inf where a + b do not fit
        new_without = _min_plus(without, v)
        new_with = _min_plus(with_t, v)
        if sf > 0:
            with np.errstate(invalid="ignore"):
                tv = log_T(nf, sf, a, semantics, **extra_of[f]) + log_V(nf, sf, b, a + 1,
                                                                       semantics)
            tv = np.where(np.isnan(tv), INF, tv)
            tv = np.where(nf < 1 + a + b, INF, tv)
            new_with = np.minimum(new_with, _min_plus(without, tv))
        without, with_t = new_without, new_with
    return float(with_t.min())


def _min_plus(table: np.ndarray, term: np.ndarray) -> np.ndarray:
    """out(i, j) = min over a <= i, b <= j of table(i - a, j - b) + term(a, b), with +inf
    absorbing (-inf + inf is +inf: an impossible placement stays impossible)."""
    rows, cols = table.shape
    out = np.full(table.shape, INF)
    for a in range(rows):
        for b in range(cols):
            t = term[a, b]
            if t == INF:
                continue
            if t == -INF:  # a certain placement: -inf unless the rest is impossible
                part = np.where(table[:rows - a, :cols - b] == INF, INF, -INF)
            else:
                part = table[:rows - a, :cols - b] + t
            np.minimum(out[a:, b:], part, out=out[a:, b:])
    return out


def _exact_program(groups: _DPGroups, k: int, m: int, semantics: str):
    """The same recurrence on exact Fractions (INF for an impossible placement)."""
    n, s = groups.n, groups.s
    without = {(0, 0): Fraction(1)}
    with_t: dict = {}
    for f in range(len(n)):
        nf, sf = int(n[f]), int(s[f])
        v = {(a, b): exact_V(nf, sf, b, a, semantics)
             for a in range(k + 1) for b in range(m + 1)}
        tv = {}
        if sf > 0:
            ruled = groups.top(f)
            for a in range(k + 1):
                t = exact_T(nf, sf, ruled, a, semantics)
                for b in range(m + 1):
                    tv[a, b] = INF if nf < 1 + a + b else _mul(t, exact_V(nf, sf, b, a + 1,
                                                                           semantics))
        new_without = _exact_min_plus(without, v, k, m)
        new_with = _exact_min_plus(with_t, v, k, m)
        if tv:
            for key, value in _exact_min_plus(without, tv, k, m).items():
                if value < new_with.get(key, INF):
                    new_with[key] = value
        without, with_t = new_without, new_with
    return min(with_t.values(), default=INF)


def _exact_min_plus(table: dict, term: dict, k: int, m: int) -> dict:
    out: dict = {}
    for (i, j), x in table.items():
        for (a, b), y in term.items():
            if i + a > k or j + b > m or y == INF:
                continue
            value = _mul(x, y)
            if value < out.get((i + a, j + b), INF):
                out[i + a, j + b] = value
    return out


def _mul(x, y):
    """Product with +inf absorbing (0 * inf is inf: the placement does not exist)."""
    if x == INF or y == INF:
        return INF
    return x * y
