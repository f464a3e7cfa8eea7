"""k-anonymity over a release candidate, and its form as a privacy skyline (Proposition 3).

k-anonymity (Samarati and Sweeney 1998; Sweeney 2002) asks every QI-group to hold at least k
individuals.  Chen, LeFevre and Ramakrishnan (2009, Sect. 5.1, Proposition 3) show it is the
skyline criterion (0, k-2, 0) with confidence 1 when the sensitive value is the identity of each
individual: an attacker who knows who k-2 other members of the target's group are still cannot
single the target out of a group of k.  :func:`identity_release` builds that "sensitive value =
identity" release and :func:`k_anonymity_policy` the policy, so ``skyline_check`` reproduces
the verdict of :func:`k_anonymity`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._core.exact import native
from .._core.validation import Interval, Predicate, validate_params
from ..errors import InvalidParameterError
from ..knowledge import Policy
from ..release import ReleaseCandidate
from ._common import RELEASE, GroupVerdicts, label_info

__all__ = [
    "KAnonymityResult",
    "k_anonymity",
    "k_anonymity_level",
    "k_anonymity_policy",
    "identity_release",
    "IDENTITY_RELEASE_MAX_CELLS",
]

#: Largest groups x individuals count matrix :func:`identity_release` builds (80 MB of int64).
IDENTITY_RELEASE_MAX_CELLS = 10_000_000


@dataclass(frozen=True)
class KAnonymityResult(GroupVerdicts):
    """Result of :func:`k_anonymity`.

    Attributes
    ----------
    k : int
        The requested minimum group size.
    safe : bool
        True iff every QI-group holds at least ``k`` individuals.
    level : int
        The smallest group size: the largest k the release satisfies.
    worst_group : object
        Label of the smallest group (the first one, on ties).
    group_labels : tuple
        One label per QI-group, in the release's order.
    group_sizes : tuple of int
        The number of individuals n_g of every group.

    ``to_frame()`` has the columns ``n_individuals`` and ``safe``; ``violating_groups`` lists
    the groups smaller than ``k``.
    """

    k: int
    safe: bool
    level: int
    worst_group: object
    group_labels: tuple = field(repr=False)
    group_sizes: tuple = field(repr=False)
    label_names: tuple = field(repr=False, default=(None,))

    @property
    def group_safe(self) -> tuple:
        """Per group: does it hold at least ``k`` individuals."""
        return tuple(n >= self.k for n in self.group_sizes)

    _criterion = "k-anonymity"

    def _summary(self) -> dict:
        return {"k": self.k, "level": self.level}


@validate_params({"release": RELEASE, "k": Interval("integer", 1)})
def k_anonymity(release: ReleaseCandidate, *, k: int) -> KAnonymityResult:
    """Check k-anonymity: every QI-group holds at least ``k`` individuals.

    Parameters
    ----------
    release : ReleaseCandidate
        Any semantics; only the group sizes n_g (individuals, not value occurrences) matter.
    k : int
        The minimum group size, at least 1 (every release is 1-anonymous).

    Returns
    -------
    KAnonymityResult
        ``.safe``, the smallest group (``.level``, ``.worst_group``) and ``.to_frame()``.

    Raises
    ------
    InvalidParameterError
        If ``release`` is not a ReleaseCandidate or ``k`` is not a positive integer.

    See Also
    --------
    k_anonymity_policy, identity_release : the same criterion as a privacy skyline.

    Notes
    -----
    The release is k-anonymous iff min_g n_g >= k.  Because the release candidate counts
    individuals per group, rows with missing quasi-identifiers are never silently dropped
    (they were either rejected or kept as a category when the release was built).

    References
    ----------
    L. Sweeney, "k-anonymity: a model for protecting privacy", International Journal of
    Uncertainty, Fuzziness and Knowledge-Based Systems 10(5), 2002.

    Examples
    --------
    >>> release = ReleaseCandidate.from_groups([(3, ["flu", "flu", "cold"]), (2, ["hiv", "flu"])])
    >>> result = k_anonymity(release, k=3)
    >>> result
    KAnonymityResult(k=3, safe=False, level=2, worst_group=1)
    >>> result.to_frame()  # doctest: +NORMALIZE_WHITESPACE
           n_individuals   safe
    group
    0                  3   True
    1                  2  False
    """
    k = int(k)
    sizes = release.sizes_array
    worst = int(np.argmin(sizes))
    labels, names = label_info(release)
    level = int(sizes[worst])
    return KAnonymityResult(k, level >= k, level, labels[worst], labels,
                            tuple(int(n) for n in sizes), names)


@validate_params({"release": RELEASE})
def k_anonymity_level(release: ReleaseCandidate) -> int:
    """The largest k for which the release is k-anonymous: its smallest group size.

    Examples
    --------
    >>> k_anonymity_level(ReleaseCandidate.from_groups([(3, list("abc")), (5, list("aabbc"))]))
    3
    """
    return int(release.sizes_array.min())


@validate_params({"k": Interval("integer", 2)})
def k_anonymity_policy(k: int) -> Policy:
    """k-anonymity as a skyline policy: (l, k, m) = (0, k-2, 0) with confidence 1 (Prop. 3).

    Use it on :func:`identity_release` of a release: there every individual's sensitive value is
    their own identity, and "the attacker is certain who the target is" is a breach probability
    of 1.  The release is then safe iff every group holds at least ``k`` individuals.

    Parameters
    ----------
    k : int
        At least 2 (the knowledge amount k-2 cannot be negative).

    Returns
    -------
    Policy
        ``Policy.uniform([(0, k - 2, 0, 1)])``.

    Raises
    ------
    InvalidParameterError
        If ``k`` is not an integer >= 2.

    Notes
    -----
    In a group of n individuals with distinct identities, an attacker who knows the identities
    of k' other members has n - 1 - k' candidates left besides the target, so the breach
    probability is 1 exactly when n <= k' + 1.  With at most k - 2 known individuals the
    release is safe iff every n_g >= k.

    References
    ----------
    Chen, LeFevre and Ramakrishnan, "Adversarial-knowledge dimensions in data privacy", VLDB
    Journal 18 (2009), Sect. 5.1, Proposition 3 (proof in Appendix A).

    Examples
    --------
    >>> from skyprivacy.check import skyline_check
    >>> k_anonymity_policy(3)
    Policy({}, default=[(0, 1, 0, 1)])
    >>> release = ReleaseCandidate.from_groups([(3, list("xyz")), (2, list("xx"))])
    >>> skyline_check(identity_release(release), k_anonymity_policy(3)).safe
    False
    >>> skyline_check(identity_release(release), k_anonymity_policy(2)).safe
    True
    """
    return Policy.uniform([(0, int(k) - 2, 0, 1)])


def _is_sequence(value: Any) -> bool:
    return not isinstance(value, (str, bytes)) and isinstance(
        value, (Sequence, np.ndarray, pd.Series))


def _release_or_sizes(value) -> bool:
    """A release, or a non-empty sequence of positive integers (bools are not integers)."""
    if isinstance(value, ReleaseCandidate):
        return True
    if not _is_sequence(value):
        return False
    items = list(value)
    return bool(items) and not any(isinstance(n, (bool, np.bool_))
                                   or not isinstance(n, (int, np.integer)) or n < 1
                                   for n in items)


def _shown_sizes(value: Any) -> object:
    """A sequence as the list of its native items, anything else as it is."""
    return [native(n) for n in value] if _is_sequence(value) else value


_RELEASE_OR_SIZES = Predicate(
    _release_or_sizes,
    "be a ReleaseCandidate or a non-empty sequence of positive integer group sizes",
    invalid=[], show=lambda v: _shown_sizes(v))


@validate_params({"release_or_sizes": _RELEASE_OR_SIZES})
def identity_release(release_or_sizes: ReleaseCandidate | Sequence[int]) -> ReleaseCandidate:
    """The "sensitive value = identity" release of Proposition 3: every individual is a value.

    Parameters
    ----------
    release_or_sizes : ReleaseCandidate or sequence of int
        A release (of any semantics; only its group sizes and labels are used) or the group
        sizes themselves.

    Returns
    -------
    ReleaseCandidate
        An svpi release with the same groups (and labels), in which the individuals are
        numbered 0..N-1 group after group and each one's value is their own number.

    Raises
    ------
    InvalidParameterError
        If the input is neither a release nor a non-empty sequence of positive integers, or if
        the groups x individuals count matrix would exceed
        :data:`IDENTITY_RELEASE_MAX_CELLS` cells.

    Notes
    -----
    The count matrix has one column per individual, so this is meant for checking the
    equivalence of Proposition 3 on small releases; :func:`k_anonymity` answers the same
    question in O(B) for any size.

    Examples
    --------
    >>> identity_release([2, 1]).to_frame()  # doctest: +NORMALIZE_WHITESPACE
           n_individuals  0  1  2
    group
    0                  2  1  1  0
    1                  1  0  0  1
    """
    if isinstance(release_or_sizes, ReleaseCandidate):
        sizes = release_or_sizes.sizes_array
        labels = release_or_sizes.group_labels
    else:
        sizes = np.array(list(release_or_sizes), dtype=np.int64)
        labels = None
    n_groups, n_people = len(sizes), int(sizes.sum())
    if n_groups * n_people > IDENTITY_RELEASE_MAX_CELLS:
        raise InvalidParameterError(
            f"The identity release of {n_groups} groups and {n_people} individuals needs a "
            f"{n_groups} x {n_people} count matrix, more than {IDENTITY_RELEASE_MAX_CELLS:,} "
            f"cells; use k_anonymity(release, k=k), which gives the same verdict in O(groups).")
    counts = np.zeros((n_groups, n_people), dtype=np.int64)
    counts[np.repeat(np.arange(n_groups), sizes), np.arange(n_people)] = 1
    return ReleaseCandidate.from_counts(sizes, counts, range(n_people), labels=labels,
                                        semantics="svpi")
