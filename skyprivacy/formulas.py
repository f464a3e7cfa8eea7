"""Closed-form negated ratios and the worst-case breach probability (Sects. 6.1, 7.1, App. A.2).

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

Two paths share one vectorized pass over the groups.  The float path works in log space, so
products of many small factors never underflow; it is used to find the minimizing groups.  The
exact path recomputes the terms of the few groups whose float value is within a tolerance of the
minimum with :class:`fractions.Fraction`, so every verdict ``BP < c`` is decided exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .errors import InvalidParameterError, param_error
from .release import ReleaseCandidate

__all__ = [
    "breach_probability",
    "sufficient_statistics",
    "SufficientStatistics",
    "Statistic",
    "GroupTerms",
    "group_terms",
    "top_other_counts",
    "exact_T",
    "exact_V",
    "exact_terms",
]

INF = math.inf
# Relative slack, in log space, within which a float term may hide the exact minimum.  Float
# terms are accurate to ~1e-12; 1e-7 is far above that and still keeps candidate sets tiny.
_LOG_TOL = 1e-7

Exact = Fraction | float  # a Fraction, or math.inf for "no such placement"


# --------------------------------------------------------------------------- validation
def check_amount(name: str, value: object, owner: str) -> int:
    """Validate one of l, k, m: a non-negative integer (bools rejected)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
            or value < 0:
        raise param_error(name, owner, "be a non-negative integer", value)
    return int(value)


# --------------------------------------------------------------------------- per-group terms
def top_other_counts(sorted_counts: np.ndarray, s: np.ndarray, l: int) -> np.ndarray:
    """The l largest counts of values other than sigma in every group (B x l, descending).

    Parameters
    ----------
    sorted_counts : ndarray, shape (B, V)
        Each group's value counts sorted in descending order.
    s : ndarray, shape (B,)
        The count #sigma_g of the target value in every group.
    l : int
        How many values the attacker rules out.

    Notes
    -----
    Removing one entry equal to #sigma_g from a group's sorted counts leaves the counts of the
    other values; ties do not matter because equal counts are interchangeable.

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
    drop = np.minimum(position, l)
    keep = np.arange(width)[None, :] != drop[:, None]
    return top[keep].reshape(n_groups, l)


def _log_ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """log(num/den) with num <= 0 mapped to -inf (rule 3: certainty)."""
    out = np.full(num.shape, -INF)
    ok = (num > 0) & (den > 0)
    out[ok] = np.log(num[ok]) - np.log(den[ok])
    return out


def _lmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Product in log space with rule 6: +inf times anything (even 0) is +inf."""
    with np.errstate(invalid="ignore"):
        out = a + b
    out[np.isposinf(a) | np.isposinf(b)] = INF
    return out


def _lgamma(x: np.ndarray) -> np.ndarray:
    return np.array([math.lgamma(v) for v in x.tolist()], dtype=float)


def _log_falling_ratio(a: np.ndarray, b: np.ndarray, m: np.ndarray) -> np.ndarray:
    """log prod_{i<m} (a - i) / (b - i) elementwise, for a >= m and b >= a."""
    m_max = int(m.max()) if m.size else 0
    if m_max <= 64:
        out = np.zeros(a.shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            for i in range(m_max):
                out += np.where(i < m, np.log(a - i) - np.log(b - i), 0.0)
        return out
    return (_lgamma(a + 1.0) - _lgamma(a - m + 1.0)) - (_lgamma(b + 1.0) - _lgamma(b - m + 1.0))


def _log_T(n, s, top, k, semantics):
    """log T(g, l, k) for every group (Sect. 7.1), +inf where sigma is absent or t+k don't fit.

    ``k`` may be an int or an array aligned with ``n``; ``top`` holds the ruled-out counts
    (columns beyond a group's own l set to 0)."""
    n = n.astype(float)
    s_f = s.astype(float)
    h = top.sum(axis=1).astype(float)
    if semantics == "svpi":
        out = _log_ratio(n - s_f - h - k, s_f)
    elif semantics == "mvpi-set":
        out = _log_ratio(n - s_f - k, s_f)
        if top.shape[1]:
            with np.errstate(divide="ignore"):
                out = out + np.log1p(-top / n[:, None]).sum(axis=1)
    else:  # mvpi-multiset
        rest = n - k
        with np.errstate(divide="ignore", invalid="ignore"):
            log_q = s_f * np.log1p(-1.0 / rest)
            log_q[rest == 1] = -INF  # the target is the only candidate holder: q = 0
            log_not_q = np.log(-np.expm1(log_q))
            ruled_out = np.where(h > 0, h * np.log1p(-1.0 / n), 0.0)
            out = log_q - log_not_q + ruled_out
        out[np.isnan(out)] = -INF
    out[s == 0] = INF  # rule 1
    out[n < k + 1] = INF  # rule 2
    return out


def _log_V(n, s, m, k, semantics):
    """log V(f, m, k) for every group (Sect. 7.1), +inf where k + m individuals don't fit.

    ``m`` and ``k`` may be ints or arrays aligned with ``n``."""
    m = np.broadcast_to(np.asarray(m, dtype=np.int64), n.shape)
    out = np.zeros(n.shape)
    holds = (s > 0) & (m > 0)
    if holds.any():
        if semantics == "mvpi-multiset":
            rest = (n - k).astype(float)
            with np.errstate(divide="ignore", invalid="ignore"):
                vals = s * np.log1p(-m / rest)
            vals[~(rest > m)] = -INF
            out = np.where(holds, vals, 0.0)
        else:
            a = np.broadcast_to(n - s - k, n.shape)
            b = np.broadcast_to(n - k, n.shape)
            ok = holds & (a >= m)
            out[holds & ~ok] = -INF
            if ok.any():
                out[ok] = _log_falling_ratio(a[ok].astype(float), b[ok].astype(float), m[ok])
    out[n < k + m] = INF  # rule 2
    return out


@dataclass(frozen=True)
class GroupTerms:
    """The five per-group terms of Theorem 2 in log space, plus the pinned flag.

    ``log_T0`` = log T(g, l, 0), ``log_Tk`` = log T(g, l, k), ``log_V0`` = log V(g, m, 0),
    ``log_Vk`` = log V(g, m, k), ``log_minNR`` = log minNR(g, l, k, m); -inf encodes 0 and
    +inf encodes "no such placement".  ``pinned`` marks groups that hold sigma but have at most
    k + m individuals (the attacker can pin the target: BP = 1).
    """

    log_minNR: np.ndarray
    log_T0: np.ndarray
    log_Tk: np.ndarray
    log_V0: np.ndarray
    log_Vk: np.ndarray
    pinned: np.ndarray

    def as_tuple(self):
        return (self.log_minNR, self.log_T0, self.log_Tk, self.log_V0, self.log_Vk)


def group_terms(n: np.ndarray, s: np.ndarray, top: np.ndarray, *, l, k, m,
                semantics: str) -> GroupTerms:
    """Vectorized per-group terms for one target value and one amount of knowledge.

    Parameters
    ----------
    n, s : ndarray of int, shape (B,)
        Group sizes n_g and target counts #sigma_g.
    top : ndarray of int, shape (B, l)
        :func:`top_other_counts` of the groups (for per-entry l, the columns beyond an
        entry's l set to 0).
    l, k, m : int or ndarray of int, shape (B,)
        Amounts of knowledge; arrays give every entry its own amount (SkylineAnonymize
        evaluates all (value, point) cells of a policy in one pass).
    semantics : {'svpi', 'mvpi-set', 'mvpi-multiset'}

    References
    ----------
    Chen, LeFevre and Ramakrishnan (2009), Sect. 7.1 and Appendix A.2 (closed forms); the
    boundary rules of specs/privacy-skyline.md.
    """
    del l  # implied by top
    no_k = not np.any(k)
    log_T0 = _log_T(n, s, top, 0, semantics)
    log_Tk = log_T0 if no_k else _log_T(n, s, top, k, semantics)
    log_V0 = _log_V(n, s, m, 0, semantics)
    log_Vk = log_V0 if no_k else _log_V(n, s, m, k, semantics)
    log_minNR = _lmul(log_Tk, _log_V(n, s, m, k + 1, semantics))
    log_minNR[n < 1 + k + m] = INF
    pinned = (s > 0) & (n <= k + m)
    return GroupTerms(log_minNR, log_T0, log_Tk, log_V0, log_Vk, pinned)


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
    value = Fraction(1)
    for i in range(m):
        numerator = n - s - k - i
        if numerator <= 0:
            return Fraction(0)
        value *= Fraction(numerator, n - k - i)
    return value


def _exact_mul(a: Exact, b: Exact) -> Exact:
    if a == INF or b == INF:
        return INF
    return a * b


# --------------------------------------------------------------------------- statistics
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
        nr = self.negated_ratio
        return Fraction(0) if nr == INF else 1 / (nr + 1)

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


def _exact_min(log_values: np.ndarray, keys: np.ndarray, exact_of) -> Statistic:
    """Exact minimum of a term over groups, recomputing only float near-minimal candidates.

    Candidates are deduplicated by ``keys`` (the inputs the term depends on), so releases with
    thousands of identical groups cost one exact evaluation per distinct group shape.
    """
    lowest = log_values.min() if len(log_values) else INF
    if lowest == INF:
        return Statistic(INF, None)
    if lowest == -INF:
        # -inf only ever encodes an exact 0 (a non-positive numerator), never an underflow
        return Statistic(Fraction(0), int(np.flatnonzero(log_values == -INF)[0]))
    else:
        candidates = np.flatnonzero(log_values <= lowest + _LOG_TOL * (1.0 + abs(lowest)))
    _, first = np.unique(keys[candidates], axis=0, return_index=True)
    best_value, best_group = INF, None
    for g in sorted(candidates[first].tolist()):  # first occurrence = smallest group index
        value = exact_of(g)
        if value < best_value:
            best_value, best_group = value, g
    return Statistic(best_value, best_group)


def _first_finite(log_values: np.ndarray) -> Statistic:
    """min of V(f, 0, k): 1 at the first group where k individuals fit, else +inf."""
    feasible = np.flatnonzero(np.isfinite(log_values))
    return Statistic(Fraction(1), int(feasible[0])) if len(feasible) else Statistic(INF, None)


def sufficient_statistics(release: ReleaseCandidate, sigma: object, *, l: int, k: int, m: int,
                          owner: str = "sufficient_statistics") -> SufficientStatistics:
    """The five sufficient statistics of Theorem 2, exact, with the groups attaining them.

    One vectorized pass over the groups finds near-minimal groups in floating point; only those
    are recomputed exactly, once per distinct (n, #sigma, top-l) shape.

    Parameters
    ----------
    release : ReleaseCandidate
    sigma : hashable
        The target sensitive value.
    l, k, m : int
        Amount of knowledge in each dimension (non-negative).

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
    l = check_amount("l", l, owner)
    k = check_amount("k", k, owner)
    m = check_amount("m", m, owner)
    semantics = release.semantics
    j = release.value_index(sigma)
    absent = Statistic(INF, None)
    if j is None:
        return SufficientStatistics(l, k, m, semantics, absent, absent, absent,
                                    Statistic(Fraction(1), None), Statistic(Fraction(1), None),
                                    None)
    n = release.sizes_array
    s = release.count_matrix[:, j]
    top = top_other_counts(release.sorted_counts, s, l)
    terms = group_terms(n, s, top, l=l, k=k, m=m, semantics=semantics)
    pinned = np.flatnonzero(terms.pinned)
    pinned_group = int(pinned[0]) if len(pinned) else None
    t_keys = np.column_stack([n, s, top])
    v_keys = np.column_stack([n, s])

    def shape(g):
        return int(n[g]), int(s[g]), tuple(top[g].tolist())

    def min_nr(g):
        n_, s_, t_ = shape(g)
        return INF if n_ < 1 + k + m else _exact_mul(exact_T(n_, s_, t_, k, semantics),
                                                     exact_V(n_, s_, m, k + 1, semantics))

    ss3 = _exact_min(terms.log_Tk, t_keys, lambda g: exact_T(*shape(g), k, semantics))
    ss2 = ss3 if k == 0 else _exact_min(terms.log_T0, t_keys,
                                        lambda g: exact_T(*shape(g), 0, semantics))
    if m == 0:
        # V(f, 0, k) = 1 wherever k fits, so minNR(g) = T(g, l, k) and SS1 = SS3
        ss1 = ss3
        ss4 = _first_finite(terms.log_V0)
        ss5 = ss4 if k == 0 else _first_finite(terms.log_Vk)
    else:
        ss1 = _exact_min(terms.log_minNR, t_keys, min_nr)
        ss4 = _exact_min(terms.log_V0, v_keys,
                         lambda g: exact_V(int(n[g]), int(s[g]), m, 0, semantics))
        ss5 = ss4 if k == 0 else _exact_min(terms.log_Vk, v_keys,
                                            lambda g: exact_V(int(n[g]), int(s[g]), m, k,
                                                              semantics))
    return SufficientStatistics(l, k, m, semantics, ss1, ss2, ss3, ss4, ss5, pinned_group)


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
        The target sensitive value. A value the release does not contain gives 0.
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
        If l, k or m is not a non-negative integer.

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
    >>> breach_probability(r, "Measles", l=1, k=1, m=1)
    0.0
    """
    if not isinstance(release, ReleaseCandidate):
        raise InvalidParameterError(
            f"The 'release' parameter of breach_probability must be a ReleaseCandidate. "
            f"Got {type(release).__name__} instead.")
    stats = sufficient_statistics(release, sigma, l=l, k=k, m=m, owner="breach_probability")
    bp = stats.breach_probability
    return bp if exact else float(bp)
