"""l-diversity over a release candidate: distinct, entropy and recursive (c, l), and Prop. 4.

Machanavajjhala, Kifer, Gehrke and Venkitasubramaniam (2007) ask every QI-group to hold
"well-represented" sensitive values, in three strengths:

- *distinct* l-diversity: at least l distinct values in every group;
- *entropy* l-diversity: the entropy of every group's value distribution is at least log(l);
- *recursive (c, l)-diversity*: with a group's value counts sorted in descending order
  r_1 >= r_2 >= ... >= r_m, r_1 < c * (r_l + r_{l+1} + ... + r_m).

Chen, LeFevre and Ramakrishnan (2009, Sect. 5.1, Proposition 4) show that recursive
(c, l)-diversity is the skyline criterion (l-2, 0, 0) at confidence c/(c+1) for every value,
in svpi: an attacker who rules out the l-2 most frequent other values of the target's group is
left with r_1 / (r_1 + r_l + ... + r_m), which stays below c/(c+1) iff r_1 < c (r_l + ... + r_m).
:func:`cl_diversity_policy` builds that policy.  In code the c of (c, l)-diversity is
``diversity_c``: ``c`` is the skyline confidence everywhere in skyprivacy.

All three read a :class:`~skyprivacy.release.ReleaseCandidate` with svpi semantics (the
definitions give every individual one sensitive value); every verdict is decided exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import reduce

import numpy as np
import pandas as pd

from .._core.exact import (
    REL_TOL,
    decimal_fraction,
    fraction_text,
    json_number,
    native_number,
)
from .._core.validation import Interval, validate_params
from ..knowledge import Policy
from ..release import ReleaseCandidate
from ._common import RELEASE, GroupVerdicts, check_svpi, label_info

__all__ = [
    "DistinctLDiversityResult",
    "EntropyLDiversityResult",
    "RecursiveCLDiversityResult",
    "distinct_l_diversity",
    "distinct_l_diversity_level",
    "entropy_l_diversity",
    "entropy_l_diversity_level",
    "recursive_cl_diversity",
    "recursive_cl_diversity_threshold",
    "cl_diversity_policy",
]

_WHY = "l-diversity gives every individual exactly one sensitive value"
#: The declared constraints of the criteria's parameters.
_L = Interval("integer", 1)
_ENTROPY_L = Interval("real", 1, closed="left")
_C = Interval("real", 0, closed="neither")
_POLICY_L = Interval("integer", 2)


# ----------------------------------------------------------------------------- distinct
@dataclass(frozen=True)
class DistinctLDiversityResult(GroupVerdicts):
    """Result of :func:`distinct_l_diversity`.

    Attributes
    ----------
    l : int
        The required number of distinct values per group.
    safe : bool
        True iff every group holds at least ``l`` distinct sensitive values.
    level : int
        The smallest number of distinct values in a group: the largest l satisfied.
    worst_group : object
        Label of the least diverse group (the first one, on ties).
    group_labels, group_sizes, distinct_values : tuple
        Per group: label, number of individuals, number of distinct values.

    ``to_frame()`` has the columns ``n_individuals``, ``distinct_values`` and ``safe``.
    """

    l: int
    safe: bool
    level: int
    worst_group: object
    group_labels: tuple = field(repr=False)
    group_sizes: tuple = field(repr=False)
    distinct_values: tuple = field(repr=False)
    label_names: tuple = field(repr=False, default=(None,))

    @property
    def group_safe(self) -> tuple:
        """Per group: does it hold at least ``l`` distinct values."""
        return tuple(d >= self.l for d in self.distinct_values)

    _criterion = "distinct l-diversity"

    def _measure_columns(self) -> dict:
        return {"distinct_values": pd.array(self.distinct_values, dtype="int64")}

    def _summary(self) -> dict:
        return {"l": self.l, "level": self.level}


@validate_params({"release": RELEASE, "l": _L})
def distinct_l_diversity(release: ReleaseCandidate, *, l: int) -> DistinctLDiversityResult:
    """Check distinct l-diversity: every QI-group holds at least ``l`` distinct values.

    Parameters
    ----------
    release : ReleaseCandidate
        An svpi release.
    l : int
        At least 1.

    Returns
    -------
    DistinctLDiversityResult

    Raises
    ------
    InvalidParameterError
        If ``release`` is not an svpi ReleaseCandidate or ``l`` is not a positive integer.

    Notes
    -----
    Distinct l-diversity alone does not bound the attacker's confidence: a group of 100 with
    98 'flu' is distinct 3-diverse.  Entropy and recursive (c, l)-diversity do.

    References
    ----------
    A. Machanavajjhala, D. Kifer, J. Gehrke and M. Venkitasubramaniam, "l-diversity: privacy
    beyond k-anonymity", ACM TKDD 1(1), 2007, Sect. 4 (distinct l-diversity is the simplest
    reading of "well-represented").

    Examples
    --------
    >>> release = ReleaseCandidate.from_groups([(3, ["flu", "hiv", "cold"]), (2, ["flu", "flu"])])
    >>> distinct_l_diversity(release, l=2)
    DistinctLDiversityResult(l=2, safe=False, level=1, worst_group=1)
    """
    check_svpi(release, "distinct_l_diversity", _WHY)
    l = int(l)
    distinct = _distinct(release)
    worst = int(np.argmin(distinct))
    labels, names = label_info(release)
    level = int(distinct[worst])
    return DistinctLDiversityResult(l, level >= l, level, labels[worst], labels,
                                    tuple(int(n) for n in release.sizes_array),
                                    tuple(int(d) for d in distinct), names)


@validate_params({"release": RELEASE})
def distinct_l_diversity_level(release: ReleaseCandidate) -> int:
    """The largest l for which the release is distinct l-diverse.

    Examples
    --------
    >>> distinct_l_diversity_level(
    ...     ReleaseCandidate.from_groups([(3, list("abc")), (3, list("aab"))]))
    2
    """
    check_svpi(release, "distinct_l_diversity_level", _WHY)
    return int(_distinct(release).min())


# ----------------------------------------------------------------------------- entropy
def _distinct(release: ReleaseCandidate) -> np.ndarray:
    """Distinct values per group: the nonzeros of each sparse row."""
    return np.diff(release.csr[0])


def _row(release: ReleaseCandidate, g: int) -> np.ndarray:
    """Group g's nonzero counts, descending."""
    indptr, _, count = release.csr
    return count[indptr[g]:indptr[g + 1]]


def _entropy_terms(release: ReleaseCandidate) -> np.ndarray:
    """n_g * H_g in nats for every group: n log n - sum_i c_i log c_i, over the nonzeros."""
    c = release.csr[2].astype(np.float64)
    c_log_c = np.bincount(release.nz_group, weights=c * np.log(c), minlength=release.n_groups)
    n = np.bincount(release.nz_group, weights=c, minlength=release.n_groups)
    return n * np.log(n) - c_log_c


def _entropy_at_least_exact(row: np.ndarray, l: Fraction) -> bool:
    """Exact test of H(row) >= log(l) with integers.

    H >= log l  <=>  n^n / prod c_i^c_i >= l^n.  Dividing every count by their gcd d (which
    also divides n) takes the d-th root of both sides, so the test runs on the reduced counts
    a_i = c_i / d and A = n / d:  A^A * q^A >= p^A * prod a_i^a_i  for l = p / q.
    """
    counts = [int(c) for c in row if c > 0]
    d = reduce(math.gcd, counts)
    reduced = [c // d for c in counts]
    big_a = sum(reduced)
    lhs = big_a ** big_a * l.denominator ** big_a
    rhs = l.numerator ** big_a
    for a in reduced:
        rhs *= a ** a
    return lhs >= rhs


def _entropy_verdicts(release: ReleaseCandidate, l: Fraction, n_h: np.ndarray) -> np.ndarray:
    """Per group, exactly: is the entropy at least log(l)?"""
    n = release.sizes_array.astype(np.float64)
    bound = n * math.log(l)
    slack = REL_TOL * np.maximum(1.0, np.abs(bound))
    ok = n_h >= bound
    for g in np.flatnonzero(np.abs(n_h - bound) <= slack).tolist():
        ok[g] = _entropy_at_least_exact(_row(release, g), l)
    return ok


def _effective_values(release: ReleaseCandidate, n_h: np.ndarray) -> np.ndarray:
    """exp(H) per group, the "entropy l"; exact (an integer) for groups with equal counts."""
    n = release.sizes_array.astype(np.float64)
    effective = np.exp(n_h / n)
    indptr, _, count = release.csr
    top = count[indptr[:-1]]  # rows are sorted descending: first is the largest
    low = count[indptr[1:] - 1]
    uniform = top == low
    effective[uniform] = _distinct(release)[uniform]
    return effective


@dataclass(frozen=True)
class EntropyLDiversityResult(GroupVerdicts):
    """Result of :func:`entropy_l_diversity`.

    Attributes
    ----------
    l : int, float or Fraction
        The requested l, as given.
    safe : bool
        True iff every group's entropy is at least log(l) (decided exactly).
    level : float
        min_g exp(H_g): the largest l satisfied (rounded down to a float that is).
    worst_group : object
        Label of the group with the smallest entropy.
    group_labels, group_sizes : tuple
        Per group: label and number of individuals.
    entropies : tuple of float
        Per group: the entropy H_g of the value distribution, in nats (natural log).
    effective_values : tuple of float
        Per group: exp(H_g), the "effective number of values" compared with l.
    group_safe : tuple of bool
        Per group: H_g >= log(l), decided exactly.

    ``to_frame()`` has the columns ``n_individuals``, ``entropy`` (nats), ``entropy_l``
    (exp of the entropy) and ``safe``.
    """

    l: int | float | Fraction
    safe: bool
    level: float
    worst_group: object
    group_labels: tuple = field(repr=False)
    group_sizes: tuple = field(repr=False)
    entropies: tuple = field(repr=False)
    effective_values: tuple = field(repr=False)
    group_safe: tuple = field(repr=False)
    label_names: tuple = field(repr=False, default=(None,))

    _criterion = "entropy l-diversity"

    def _measure_columns(self) -> dict:
        return {"entropy": pd.array(self.entropies, dtype="float64"),
                "entropy_l": pd.array(self.effective_values, dtype="float64")}

    def _summary(self) -> dict:
        return {"l": json_number(self.l), "level": self.level}


@validate_params({"release": RELEASE, "l": _ENTROPY_L})
def entropy_l_diversity(release: ReleaseCandidate, *, l: int | float | Fraction
                        ) -> EntropyLDiversityResult:
    """Check entropy l-diversity: every group's value entropy is at least log(l).

    Parameters
    ----------
    release : ReleaseCandidate
        An svpi release.
    l : int, float or Fraction
        At least 1 (``l = 1`` holds for every release). Floats are read as the decimal they
        print as.

    Returns
    -------
    EntropyLDiversityResult

    Raises
    ------
    InvalidParameterError
        If ``release`` is not an svpi ReleaseCandidate or ``l`` is not a finite number >= 1.

    Notes
    -----
    H_g = -sum_s p(g, s) log p(g, s) with p(g, s) = #s_g / n_g.  The verdict H_g >= log(l) is
    decided in floating point when far from the boundary and otherwise exactly, through the
    equivalent integer inequality n^n >= l^n prod_s #s_g^#s_g; a group of l equally frequent
    values is therefore exactly at the boundary and passes.

    References
    ----------
    Machanavajjhala et al., "l-diversity: privacy beyond k-anonymity", ACM TKDD 1(1), 2007,
    Definition 4.1 (entropy l-diversity).

    Examples
    --------
    >>> release = ReleaseCandidate.from_groups([(3, ["flu", "hiv", "cold"]),
    ...                                         (4, ["flu", "flu", "hiv", "cold"])])
    >>> result = entropy_l_diversity(release, l=3)
    >>> result.safe, result.worst_group, round(result.level, 4)
    (False, 1, 2.8284)
    >>> result.to_frame().round(4)  # doctest: +NORMALIZE_WHITESPACE
           n_individuals  entropy  entropy_l   safe
    group
    0                  3   1.0986     3.0000   True
    1                  4   1.0397     2.8284  False
    """
    check_svpi(release, "entropy_l_diversity", _WHY)
    l_exact = decimal_fraction(l)
    n_h = _entropy_terms(release)
    ok = _entropy_verdicts(release, l_exact, n_h)
    effective = _effective_values(release, n_h)
    sizes = release.sizes_array
    entropies = n_h / sizes
    worst = int(np.argmin(effective))
    labels, names = label_info(release)
    level = _entropy_level(release, n_h, effective)
    return EntropyLDiversityResult(
        native_number(l), bool(ok.all()), level, labels[worst], labels,
        tuple(int(n) for n in sizes), tuple(float(h) for h in entropies),
        tuple(float(e) for e in effective), tuple(bool(o) for o in ok), names)


def _entropy_level(release: ReleaseCandidate, n_h: np.ndarray, effective: np.ndarray) -> float:
    """min_g exp(H_g) as a float that itself passes the exact test (stepped down if needed)."""
    level = float(effective.min())
    while level > 1 and not _entropy_verdicts(release, decimal_fraction(level), n_h).all():
        level = math.nextafter(level, 0.0)
    return max(level, 1.0)


@validate_params({"release": RELEASE})
def entropy_l_diversity_level(release: ReleaseCandidate) -> float:
    """The largest l (as a float) for which the release is entropy l-diverse: min_g exp(H_g).

    The returned float always passes ``entropy_l_diversity(release, l=level)``; groups of equally
    frequent values give an exact integer.

    Examples
    --------
    >>> entropy_l_diversity_level(
    ...     ReleaseCandidate.from_groups([(3, list("abc")), (4, list("aabb"))]))
    2.0
    """
    check_svpi(release, "entropy_l_diversity_level", _WHY)
    n_h = _entropy_terms(release)
    return _entropy_level(release, n_h, _effective_values(release, n_h))


# ----------------------------------------------------------------------------- recursive
@dataclass(frozen=True)
class RecursiveCLDiversityResult(GroupVerdicts):
    """Result of :func:`recursive_cl_diversity`.

    Attributes
    ----------
    diversity_c : int, float or Fraction
        The constant c of (c, l)-diversity, as given (``c`` is the skyline confidence only).
    l : int
        The rank l.
    safe : bool
        True iff r_1 < c * (r_l + ... + r_m) in every group (decided exactly).
    threshold : Fraction or float
        max_g r_1 / (r_l + ... + r_m) (``math.inf`` if a group has fewer than l distinct
        values): the release is recursive (c', l)-diverse exactly for c' > threshold.
    worst_group : object
        Label of the group attaining the threshold.
    group_labels, group_sizes : tuple
        Per group: label and number of individuals.
    top_counts : tuple of int
        Per group: r_1, the count of its most frequent value.
    tail_counts : tuple of int
        Per group: r_l + ... + r_m, the counts from the l-th most frequent value on.

    ``to_frame()`` has the columns ``n_individuals``, ``top_count`` (r_1), ``tail_count``,
    ``ratio`` (their quotient as a float, inf without a tail) and ``safe``.
    """

    diversity_c: int | float | Fraction
    l: int
    safe: bool
    threshold: Fraction | float
    worst_group: object
    group_labels: tuple = field(repr=False)
    group_sizes: tuple = field(repr=False)
    top_counts: tuple = field(repr=False)
    tail_counts: tuple = field(repr=False)
    label_names: tuple = field(repr=False, default=(None,))
    diversity_c_exact: Fraction = field(repr=False, default=Fraction(0))

    @property
    def ratios(self) -> tuple:
        """Per group: r_1 / (r_l + ... + r_m) as a Fraction, or ``math.inf``."""
        return tuple(Fraction(top, tail) if tail else math.inf
                     for top, tail in zip(self.top_counts, self.tail_counts))

    @property
    def group_safe(self) -> tuple:
        """Per group: r_1 < c * (r_l + ... + r_m), exactly."""
        p, q = self.diversity_c_exact.numerator, self.diversity_c_exact.denominator
        return tuple(top * q < p * tail for top, tail in zip(self.top_counts, self.tail_counts))

    _criterion = "recursive (c, l)-diversity"

    def _measure_columns(self) -> dict:
        return {"top_count": pd.array(self.top_counts, dtype="int64"),
                "tail_count": pd.array(self.tail_counts, dtype="int64"),
                "ratio": pd.array([float(r) for r in self.ratios], dtype="float64")}

    def _summary(self) -> dict:
        return {"diversity_c": json_number(self.diversity_c), "l": self.l,
                "threshold": fraction_text(self.threshold)}


def _top_and_tail(release: ReleaseCandidate, l: int) -> tuple[np.ndarray, np.ndarray]:
    """r_1 and r_l + ... + r_m of every group, from its descending sparse row."""
    indptr, _, count = release.csr
    totals = np.add.reduceat(count, indptr[:-1]) if len(count) else np.zeros(0, np.int64)
    cum = np.concatenate([[0], np.cumsum(count)])
    head_end = np.minimum(indptr[:-1] + l - 1, indptr[1:])  # first l-1 counts of each row
    head = cum[head_end] - cum[indptr[:-1]]
    return count[indptr[:-1]], totals - head


def _threshold(top: np.ndarray, tail: np.ndarray) -> tuple[Fraction | float, int]:
    """The largest ratio r_1 / tail and the first group attaining it."""
    if (tail == 0).any():
        return math.inf, int(np.flatnonzero(tail == 0)[0])
    best, where = Fraction(-1), 0
    for g, (a, b) in enumerate(zip(top.tolist(), tail.tolist())):
        if a * best.denominator > best.numerator * b:  # a / b > best, in integers
            best, where = Fraction(a, b), g
    return best, where


@validate_params({"release": RELEASE, "diversity_c": _C, "l": _L})
def recursive_cl_diversity(release: ReleaseCandidate, *, diversity_c: int | float | Fraction,
                           l: int) -> RecursiveCLDiversityResult:
    """Check recursive (c, l)-diversity: r_1 < c * (r_l + ... + r_m) in every QI-group.

    Parameters
    ----------
    release : ReleaseCandidate
        An svpi release.
    diversity_c : int, float or Fraction
        The constant c of (c, l)-diversity, positive.  Floats are read as the decimal they
        print as (``0.75`` is 3/4).
    l : int
        At least 1. A group with fewer than l distinct values has an empty tail and fails.

    Returns
    -------
    RecursiveCLDiversityResult

    Raises
    ------
    InvalidParameterError
        If ``release`` is not an svpi ReleaseCandidate, ``diversity_c`` is not a positive
        number or ``l`` is not a positive integer.

    See Also
    --------
    cl_diversity_policy : the same criterion as a privacy skyline (Proposition 4).

    Notes
    -----
    r_1 >= r_2 >= ... >= r_m are the counts of the m distinct values of a group, sorted in
    descending order.  The comparison is done in integers (c = p/q: q r_1 < p (r_l + ...)).

    References
    ----------
    Machanavajjhala et al., "l-diversity: privacy beyond k-anonymity", ACM TKDD 1(1), 2007,
    Definition 4.2 (recursive (c, l)-diversity).
    Chen, LeFevre and Ramakrishnan (2009), Sect. 5.1, Proposition 4.

    Examples
    --------
    >>> release = ReleaseCandidate.from_groups([(6, ["flu"] * 3 + ["hiv", "cold", "gout"])])
    >>> recursive_cl_diversity(release, diversity_c=2, l=2)   # 3 < 2 * (1 + 1 + 1)
    RecursiveCLDiversityResult(diversity_c=2, l=2, safe=True, threshold=Fraction(1, 1),
        worst_group=0)
    >>> recursive_cl_diversity(release, diversity_c=1, l=2).safe   # 3 < 1 * 3 fails
    False
    """
    check_svpi(release, "recursive_cl_diversity", _WHY)
    c_exact = decimal_fraction(diversity_c)
    l = int(l)
    top, tail = _top_and_tail(release, l)
    threshold, worst = _threshold(top, tail)
    labels, names = label_info(release)
    safe = threshold != math.inf and c_exact > threshold
    return RecursiveCLDiversityResult(
        native_number(diversity_c), l, bool(safe), threshold, labels[worst], labels,
        tuple(int(n) for n in release.sizes_array), tuple(int(t) for t in top),
        tuple(int(t) for t in tail), names, c_exact)


@validate_params({"release": RELEASE, "l": _L})
def recursive_cl_diversity_threshold(release: ReleaseCandidate, *, l: int) -> Fraction | float:
    """max_g r_1 / (r_l + ... + r_m): the release is recursive (c, l)-diverse iff c exceeds it.

    Returns ``math.inf`` when some group holds fewer than ``l`` distinct values (no c works).

    Examples
    --------
    >>> release = ReleaseCandidate.from_groups([(4, list("aabc"))])
    >>> (recursive_cl_diversity_threshold(release, l=2),
    ...  recursive_cl_diversity_threshold(release, l=4))
    (Fraction(1, 1), inf)
    """
    check_svpi(release, "recursive_cl_diversity_threshold", _WHY)
    return _threshold(*_top_and_tail(release, int(l)))[0]


@validate_params({"diversity_c": _C, "l": _POLICY_L})
def cl_diversity_policy(*, diversity_c: int | float | Fraction, l: int) -> Policy:
    """Recursive (c, l)-diversity as a skyline policy: (l-2, 0, 0) at confidence c/(c+1).

    Parameters
    ----------
    diversity_c : int, float or Fraction
        The constant c of (c, l)-diversity, positive; the confidence c/(c+1) is an exact
        Fraction (a float c is read as the decimal it prints as, so ``0.75`` gives exactly
        3/7).
    l : int
        At least 2 (the knowledge amount l-2 cannot be negative).

    Returns
    -------
    Policy
        ``Policy.uniform([(l - 2, 0, 0, c / (c + 1))])``.

    Raises
    ------
    InvalidParameterError
        If ``diversity_c`` is not a positive number or ``l`` is not an integer >= 2.

    Notes
    -----
    The equivalence holds for svpi releases: ruling out the l-2 most frequent other values of
    the target's group leaves the attacker with breach probability
    r_1 / (r_1 + r_l + ... + r_m) for the most frequent value, and that is < c/(c+1) iff
    r_1 < c (r_l + ... + r_m).  For mvpi releases the policy is still a valid skyline policy
    but no longer means (c, l)-diversity.

    References
    ----------
    Chen, LeFevre and Ramakrishnan (2009), Sect. 5.1, Proposition 4 (proof in Appendix A,
    after Martin et al. 2007, Appendix E).

    Examples
    --------
    >>> from skyprivacy.check import skyline_check
    >>> cl_diversity_policy(diversity_c=3, l=4)
    Policy({}, default=[(2, 0, 0, Fraction(3, 4))])
    >>> release = ReleaseCandidate.from_groups([(6, ["flu"] * 3 + ["hiv", "cold", "gout"])])
    >>> skyline_check(release, cl_diversity_policy(diversity_c=2, l=2)).safe
    True
    >>> skyline_check(release, cl_diversity_policy(diversity_c=1, l=2)).safe
    False
    """
    c_exact = decimal_fraction(diversity_c)
    return Policy.uniform([(int(l) - 2, 0, 0, c_exact / (c_exact + 1))])
