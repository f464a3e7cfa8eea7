"""Privacy criteria as objects that combine: a release is safe when every criterion holds.

A publisher's rule is usually several criteria at once ("k = 5 AND no diagnosis inferable
against (1, 5, 1) knowledge AND t <= 0.2").  Each class here is one criterion over the one
QI-group model, :class:`~skyprivacy.release.ReleaseCandidate`; :func:`evaluate` checks a list
of them, and a search (``skyprivacy.anonymize``) prunes on the ones that declare themselves
monotone.  A skyline :class:`~skyprivacy.knowledge.Policy` is a criterion as it is
(:func:`as_criterion` wraps it).

Each criterion says

* ``per_group``: whether it is a conjunction of per-group conditions (k-anonymity,
  l-diversity, t-closeness, beta-likeness, delta-disclosure) that a suppression step can
  satisfy by removing the failing groups, or a condition on the whole release (the skyline,
  average risk, population uniqueness);
* ``monotone``: whether it is proven to hold for every generalization of a release it holds
  for (merging two groups that satisfy it gives a group that satisfies it, or the release
  measure only falls), without suppression;
* ``monotone_with_suppression``: the same when the failing rows are suppressed.  Only
  k-anonymity (and the prosecutor-risk bound it is) and k-map keep it: the other criteria can
  fail after a generalization because the rows suppressed before no longer are (ARX's rule).
  Those three fail every class that subdivides a class they fail (it is smaller, or its
  label matches fewer people), so the rows they suppress only shrink along generalization:
  a search prunes on their budget test even beside criteria that are not monotone.

Proofs of monotonicity without suppression: k-anonymity, prosecutor and average risk (a
merged group is larger; classes / records falls); distinct, entropy and recursive (c, l)-
diversity (Machanavajjhala et al. 2007, Sect. 4-5: each is preserved by a union of
groups); t-closeness with the EMD (Li, Li and Venkatasubramanian 2007, Sect. 4: the merged
distribution's distance is at most the larger of the two, for the equal, ordered and
hierarchical ground distances alike); beta-likeness and delta-disclosure
(the merged frequency of a value is a weighted mean of the two, so it lies between them, and
both criteria bound each frequency from one or two sides); k-map against a population table
(the people a coarser label matches include those of the labels it replaces); the skyline in
svpi (Chen, LeFevre and Ramakrishnan 2009, corollary of Theorem 3), not in mvpi.  Population
uniqueness is a model estimate and is not declared monotone.

References
----------
Sweeney (2002); Machanavajjhala, Kifer, Gehrke and Venkitasubramaniam (2007); Li, Li and
Venkatasubramanian (2007); Cao and Karras (2012), beta-likeness; Brickell and Shmatikov
(2008), delta-disclosure; El Emam and Dankar (2008), re-identification risk.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from ._core.display import Shown, result_html, result_repr
from ._core.exact import decimal_fraction, is_real, native, native_number
from .baselines import (
    distinct_l_diversity,
    entropy_l_diversity,
    k_anonymity,
    recursive_cl_diversity,
    t_closeness,
)
from .check import skyline_check
from .errors import InvalidParameterError, SchemaError, param_error
from .hierarchy import Hierarchy
from .knowledge import Policy
from .release import ReleaseCandidate
from .risk import ClassSizes, matched_population_sizes, population_uniques_from_sizes

__all__ = [
    "Criterion",
    "CriterionResult",
    "KAnonymity",
    "DistinctLDiversity",
    "EntropyLDiversity",
    "RecursiveCLDiversity",
    "TCloseness",
    "BetaLikeness",
    "DeltaDisclosure",
    "SkylinePolicy",
    "ProsecutorRisk",
    "AverageRisk",
    "PopulationUniqueness",
    "KMap",
    "as_criterion",
    "as_criteria",
    "evaluate",
]


@dataclass(frozen=True)
class CriterionResult:
    """The verdict of one criterion on one release.

    Attributes
    ----------
    criterion : str
        The criterion, with its parameters (``"KAnonymity(k=5)"``).
    safe : bool
    group_safe : tuple of bool or None
        Per group, for per-group criteria; None for criteria on the whole release.
    """

    criterion: str
    safe: bool
    group_safe: tuple | None

    def to_dict(self) -> dict:
        out = {"criterion": self.criterion, "safe": self.safe}
        if self.group_safe is not None:
            out["failing_groups"] = int(len(self.group_safe) - sum(self.group_safe))
        return out

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        facts: tuple = (("criterion", self.criterion),)
        if self.group_safe is not None:
            facts += (("groups", len(self.group_safe)),
                      ("failing_groups", len(self.group_safe) - sum(self.group_safe)))
        return Shown("SAFE" if self.safe else "UNSAFE", self.safe, facts)


class Criterion:
    """A privacy criterion over a :class:`ReleaseCandidate` (see the module docstring)."""

    per_group: bool = True
    monotone: bool = True
    monotone_with_suppression: bool = False

    def group_safe(self, release: ReleaseCandidate) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def evaluate(self, release: ReleaseCandidate) -> CriterionResult:
        """Check the release: the verdict and, for a per-group criterion, each group's."""
        _check_release(release, type(self).__name__)
        verdicts = self.group_safe(release)
        return CriterionResult(repr(self), bool(verdicts.all()),
                               tuple(bool(v) for v in verdicts))

    def holds(self, release: ReleaseCandidate) -> bool:
        return self.evaluate(release).safe

    def is_monotone(self, semantics: str = "svpi", *, suppression: bool = False) -> bool:
        """Whether a search may prune on this criterion: proven to hold for every
        generalization of a release it holds for (with the failing rows suppressed when
        ``suppression``)."""
        return self.monotone_with_suppression if suppression else self.monotone


def _check_release(release: object, owner: str) -> None:
    if not isinstance(release, ReleaseCandidate):
        raise param_error("release", owner, "be a ReleaseCandidate", type(release).__name__)


def _integer(value, name: str, owner: str, low: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
            or value < low:
        word = "a positive integer" if low == 1 else f"an integer >= {low}"
        raise param_error(name, owner, f"be {word}", value)
    return int(value)


def _fraction(value, name: str, owner: str, low=0, high=None, *, open_low=False) -> Fraction:
    ok = is_real(value) and math.isfinite(float(value))
    exact = decimal_fraction(value) if ok else None
    if ok and exact is not None:
        ok = (exact > low if open_low else exact >= low) and (high is None or exact <= high)
    if not ok:
        bounds = f"{'(' if open_low else '['}{low}, {'inf)' if high is None else f'{high}]'}"
        raise param_error(name, owner, f"be a number in {bounds}", value)
    assert exact is not None
    return exact


def _group_of_nonzero(release: ReleaseCandidate) -> tuple:
    indptr, value, count = release.csr
    return release.nz_group, value, count


class KAnonymity(Criterion):
    """Every QI-group holds at least ``k`` individuals (Sweeney 2002)."""

    monotone_with_suppression = True

    def __init__(self, k: int):
        self.k = _integer(k, "k", "KAnonymity", 1)

    def __repr__(self) -> str:
        return f"KAnonymity(k={self.k})"

    def group_safe(self, release):
        return release.sizes_array >= self.k

    def evaluate(self, release):
        _check_release(release, "KAnonymity")
        result = k_anonymity(release, k=self.k)
        return CriterionResult(repr(self), bool(result.safe), tuple(result.group_safe))


class DistinctLDiversity(Criterion):
    """Every group holds at least ``l`` distinct sensitive values."""

    def __init__(self, l: int):
        self.l = _integer(l, "l", "DistinctLDiversity", 1)

    def __repr__(self) -> str:
        return f"DistinctLDiversity(l={self.l})"

    def group_safe(self, release):
        return np.asarray(distinct_l_diversity(release, l=self.l).group_safe, dtype=bool)


class EntropyLDiversity(Criterion):
    """Every group's sensitive-value entropy is at least log(l)."""

    def __init__(self, l):
        self.l = _fraction(l, "l", "EntropyLDiversity", 1)

    def __repr__(self) -> str:
        return f"EntropyLDiversity(l={native_number(self.l)})"

    def group_safe(self, release):
        return np.asarray(entropy_l_diversity(release, l=self.l).group_safe, dtype=bool)


class RecursiveCLDiversity(Criterion):
    """Recursive (c, l)-diversity: in every group r_1 < c (r_l + ... + r_m)."""

    def __init__(self, diversity_c, l: int):
        self.diversity_c = _fraction(diversity_c, "diversity_c", "RecursiveCLDiversity", 0,
                                     open_low=True)
        self.l = _integer(l, "l", "RecursiveCLDiversity", 1)

    def __repr__(self) -> str:
        return (f"RecursiveCLDiversity(diversity_c={native_number(self.diversity_c)}, "
                f"l={self.l})")

    def group_safe(self, release):
        result = recursive_cl_diversity(release, diversity_c=self.diversity_c, l=self.l)
        return np.asarray(result.group_safe, dtype=bool)


class TCloseness(Criterion):
    """Every group's sensitive distribution is within Earth mover's distance ``t`` of the whole
    release's (Li, Li and Venkatasubramanian 2007).

    Parameters
    ----------
    t : number in [0, 1]
    distance : {'equal', 'ordered', 'hierarchical'}, default 'equal'
        The ground distance between two sensitive values: ``'equal'``, every two values at
        distance 1; ``'ordered'``, the values in ``order`` (sorted when no order is given) at
        distance |i - j| / (V - 1); ``'hierarchical'``, the level of their lowest common
        ancestor in ``hierarchy`` divided by its height H (Sect. 4.2 of the paper).
    order : sequence, optional
        With ``distance='ordered'`` only.
    hierarchy : Hierarchy
        With ``distance='hierarchical'`` only (and required by it): a generalization
        hierarchy of the sensitive attribute whose leaves cover every sensitive value.

    Raises
    ------
    InvalidParameterError
        For a bad ``t`` or ``distance``, an ``order`` or ``hierarchy`` given with another
        distance, no hierarchy with ``distance='hierarchical'``, or (when a release is
        checked) a sensitive value that no leaf of the hierarchy covers.

    Notes
    -----
    The hierarchical distance (Li, Li and Venkatasubramanian 2007, Sect. 4.2): with
    extra(v) = p_v - q_v at a leaf and extra(N) the sum of its children's extras at an inner
    node N, pos_extra(N) and neg_extra(N) the sums of the children's positive extras and of
    the absolute values of their negative ones, the EMD is
    sum_N height(N) / H * min(pos_extra(N), neg_extra(N)): the mass that must cross N costs
    its height.  Levels here are of equal depth, so height(N) is the level of N.  All three
    distances are computed exactly (:class:`fractions.Fraction`).

    Monotone without suppression for every ground distance: the EMD is convex in the group's
    distribution (a flow for the union is the weighted sum of the two groups' flows), so a
    merged group is never farther than the farther of the two.

    Examples
    --------
    >>> from skyprivacy.hierarchy import Hierarchy
    >>> h = Hierarchy([["flu", "lung", "*"], ["cold", "lung", "*"], ["ulcer", "gut", "*"]])
    >>> release = ReleaseCandidate.from_groups([(2, ["flu", "cold"]), (2, ["ulcer", "ulcer"])])
    >>> TCloseness(0.5, distance="hierarchical", hierarchy=h).distances(release)
    (Fraction(1, 2), Fraction(1, 2))
    """

    DISTANCES = ("equal", "ordered", "hierarchical")

    def __init__(self, t, *, distance: str = "equal", order: Sequence | None = None,
                 hierarchy: Hierarchy | None = None):
        self.t = _fraction(t, "t", "TCloseness", 0, 1)
        if distance not in self.DISTANCES:
            raise param_error("distance", "TCloseness", f"be one of {list(self.DISTANCES)}",
                              distance)
        if order is not None and distance != "ordered":
            raise InvalidParameterError("TCloseness takes an 'order' only with "
                                        "distance='ordered'.")
        if hierarchy is not None and distance != "hierarchical":
            raise InvalidParameterError("TCloseness takes a 'hierarchy' only with "
                                        "distance='hierarchical'.")
        if distance == "hierarchical" and not isinstance(hierarchy, Hierarchy):
            raise param_error("hierarchy", "TCloseness", "be a Hierarchy of the sensitive "
                              "attribute with distance='hierarchical'",
                              type(hierarchy).__name__)
        self.distance = distance
        self.order = None if order is None else list(order)
        self.hierarchy = hierarchy

    def __repr__(self) -> str:
        return f"TCloseness(t={native_number(self.t)}, distance={self.distance!r})"

    def distances(self, release: ReleaseCandidate) -> tuple:
        """The exact EMD of every group's sensitive distribution from the release's."""
        _check_release(release, "TCloseness")
        if self.distance == "hierarchical":
            assert self.hierarchy is not None
            return tuple(hierarchical_distances(release, self.hierarchy))
        ordered = None if self.distance == "equal" else (self.order or True)
        return t_closeness(release, t=self.t, ordered=ordered).distances

    def group_safe(self, release):
        if self.distance == "hierarchical":  # cost / denominator <= t, in integers
            _check_release(release, "TCloseness")
            assert self.hierarchy is not None
            cost, denominator = hierarchical_costs(release, self.hierarchy)
            return np.asarray(cost * self.t.denominator <= denominator * self.t.numerator,
                              dtype=bool)
        return np.array([d <= self.t for d in self.distances(release)], dtype=bool)


def _node_codes(hierarchy: Hierarchy, values: Sequence) -> list:
    """Per level 0..H, the code of each release value's ancestor at that level (codes number
    the nodes over the release's values only)."""
    uncovered = hierarchy.uncovered(list(values))
    if uncovered:
        leaves = list(hierarchy.leaves[:5])
        raise InvalidParameterError(
            f"The hierarchy of TCloseness must cover every sensitive value of the release. "
            f"Got a hierarchy without {list(uncovered)!r} instead (its leaves include "
            f"{leaves!r}).")
    codes = []
    for level in range(hierarchy.height + 1):
        labels = np.empty(len(values), dtype=object)
        labels[:] = hierarchy.generalize(list(values), level)
        codes.append(pd.factorize(labels)[0].astype(np.int64))
    return codes


def hierarchical_distances(release: ReleaseCandidate, hierarchy: Hierarchy) -> list:
    """The hierarchical EMD of every group from the release, exactly (see
    :class:`TCloseness`, Notes)."""
    cost, denominator = hierarchical_costs(release, hierarchy)
    return [Fraction(int(c), int(d)) for c, d in zip(cost, denominator)]


def hierarchical_costs(release: ReleaseCandidate, hierarchy: Hierarchy) -> tuple:
    """Per group, the hierarchical EMD as an integer ratio (cost, denominator).

    With N individuals, group size n and value totals T, the integer extras
    d_v = c_v N - n T_v are summed up the tree level by level; the cost is
    sum over levels l of l * sum_(N at l) min(pos(N), neg(N)), the denominator H n N."""
    height = hierarchy.height
    n_groups = release.n_groups
    sizes = release.sizes_array
    n_all = int(sizes.sum())
    values = list(release.values)
    # |extras| <= n N and a level's costs sum below V N^2: int64 while H V N^2 fits
    dtype = np.int64 if (height + 1) * max(len(values), 1) * n_all * n_all < 2 ** 62 \
        else object
    denominator = max(height, 1) * sizes.astype(dtype) * n_all
    if height == 0:
        return np.zeros(n_groups, dtype=dtype), denominator
    codes = _node_codes(hierarchy, values)
    parents = []  # per level l < H: the parent code of every node of level l
    for level in range(height):
        parent = np.zeros(int(codes[level].max()) + 1, dtype=np.int64)
        parent[codes[level]] = codes[level + 1]
        parents.append(parent)
    indptr, value, count = release.csr
    totals = release.value_totals.astype(dtype)
    width = len(values)
    step = max(1, (1 << 22) // max(width, 1))  # groups per chunk: dense extras stay small
    cost = np.zeros(n_groups, dtype=dtype)
    for lo in range(0, n_groups, step):
        hi = min(n_groups, lo + step)
        extra = -np.outer(sizes[lo:hi].astype(dtype), totals)
        start, stop = int(indptr[lo]), int(indptr[hi])
        rows = np.repeat(np.arange(hi - lo), np.diff(indptr[lo:hi + 1]))
        extra[rows, value[start:stop]] += count[start:stop].astype(dtype) * n_all
        node = np.zeros((hi - lo, int(codes[0].max()) + 1), dtype=dtype)
        np.add.at(node.T, codes[0], extra.T)  # values sharing a leaf add up
        for level in range(height):
            width_up = int(parents[level].max()) + 1
            pos = np.zeros((hi - lo, width_up), dtype=dtype)
            neg = np.zeros((hi - lo, width_up), dtype=dtype)
            np.add.at(pos.T, parents[level], np.maximum(node, 0).T)
            np.add.at(neg.T, parents[level], np.maximum(-node, 0).T)
            cost[lo:hi] += (level + 1) * np.minimum(pos, neg).sum(axis=1)
            node = pos - neg
    return cost, denominator


def _frequencies(release: ReleaseCandidate) -> tuple:
    """Per nonzero: (group, value, count, group size, value's share of the release)."""
    group, value, count = _group_of_nonzero(release)
    sizes = release.sizes_array
    totals = release.value_totals
    return group, value, count, sizes[group], totals, int(totals.sum())


class BetaLikeness(Criterion):
    """Beta-likeness (Cao and Karras 2012): no group raises a value's frequency by more than a
    relative ``beta`` over its frequency p in the whole release, (q - p) / p <= beta; the
    enhanced form bounds the rise by min(beta, -ln p)."""

    def __init__(self, beta, *, enhanced: bool = False):
        self.beta = _fraction(beta, "beta", "BetaLikeness", 0, open_low=True)
        if not isinstance(enhanced, (bool, np.bool_)):
            raise param_error("enhanced", "BetaLikeness", "be True or False", enhanced)
        self.enhanced = bool(enhanced)

    def __repr__(self) -> str:
        return f"BetaLikeness(beta={native_number(self.beta)}, enhanced={self.enhanced})"

    def group_safe(self, release):
        group, value, count, size, totals, total = _frequencies(release)
        # q = count / size, p = totals / total: (q - p) / p <= beta exactly in integers,
        # count * total <= (1 + beta) * totals * size
        b = self.beta
        bound = (b.denominator + b.numerator) * totals[value].astype(object) * size
        ok = count.astype(object) * total * b.denominator <= bound
        if self.enhanced:
            p = totals[value] / total
            limit = np.minimum(float(b), -np.log(p))
            q = count / size
            ok = ok & ((q - p) / p <= limit * (1 + 1e-12))
        safe = np.ones(release.n_groups, dtype=bool)
        np.logical_and.at(safe, group, np.asarray(ok, dtype=bool))
        return safe


class DeltaDisclosure(Criterion):
    """Delta-disclosure privacy (Brickell and Shmatikov 2008): in every group, every value of
    the release has |ln(q / p)| < delta, q its frequency in the group and p in the release (a
    value missing from a group fails: ln 0 is unbounded)."""

    def __init__(self, delta):
        self.delta = _fraction(delta, "delta", "DeltaDisclosure", 0, open_low=True)

    def __repr__(self) -> str:
        return f"DeltaDisclosure(delta={native_number(self.delta)})"

    def group_safe(self, release):
        group, value, count, size, totals, total = _frequencies(release)
        present = np.bincount(group, minlength=release.n_groups)
        n_values = int((totals > 0).sum())
        safe = present == n_values  # every value of the release in every group
        ratio = np.log(count / size) - np.log(totals[value] / total)
        ok = np.abs(ratio) < float(self.delta)
        np.logical_and.at(safe, group, ok)
        return safe


class SkylinePolicy(Criterion):
    """A skyline :class:`Policy` as a criterion: :func:`skyline_check` is safe.  Monotone in
    svpi only (Chen, LeFevre and Ramakrishnan 2009, corollary of Theorem 3)."""

    per_group = False

    def __init__(self, policy: Policy):
        if not isinstance(policy, Policy):
            raise param_error("policy", "SkylinePolicy", "be a Policy", type(policy).__name__)
        self.policy = policy

    def __repr__(self) -> str:
        return f"SkylinePolicy({self.policy!r})"

    def evaluate(self, release):
        _check_release(release, "SkylinePolicy")
        return CriterionResult(repr(self), bool(skyline_check(release, self.policy).safe),
                               None)

    def is_monotone(self, semantics: str = "svpi", *, suppression: bool = False) -> bool:
        return semantics == "svpi" and not suppression

    def pinning_size(self) -> int:
        """A group size at or below which a single-valued (svpi) release is unsafe, whatever
        its values: a cheap necessary condition that a search checks on class sizes alone
        before the closed form.

        A value held in a group of n <= k + m individuals is pinned at a point (l, k, m, c)
        of its skyline: the attacker who knows k others and m of the target's family rules
        out everyone else, so the breach probability is 1, never below c <= 1 (Chen, LeFevre
        and Ramakrishnan 2009, Fig. 3; the pinned rows of
        :func:`skyprivacy.formulas.point_verdicts`, where capping k and m at the release's
        individuals changes nothing, a group being no larger).  Every individual of an svpi
        group holds a value, and whichever skyline applies to it (its own or the default)
        has a point with k + m at least the smallest of the skylines' largest k + m, which
        is returned; 0 (no condition) when some value may have no skyline."""
        skylines = [self.policy.default, *(sky for _, sky in self.policy.items())]
        if skylines[0] is None:
            return 0
        return min(max((p.k + p.m for p in sky), default=0) for sky in skylines)

    def breach_floors(self, values: Sequence) -> list:
        """Per sensitive value, the (l, k, c) of every point of the skyline that applies to
        it (an empty tuple where none does), for a cheap necessary condition that a search
        checks on value counts alone before the closed form.

        In a group of n individuals of a single-valued (svpi) release where the value is
        held a times and b is the sum of the l largest counts of the other values, a point
        (l, k, m, c) is breached when a >= c (n - k - b): the attacker who knows l values the
        target does not have (the l most frequent others) and k other individuals (holding
        neither the value nor those l) is left with n - k - b candidates of which a hold the
        value, so the breach probability is at least a / (n - k - b) (1 when no candidate
        without the value is left).  Breach probabilities are taken over knowledge of at
        most (l, k, m) (:mod:`skyprivacy.formulas`), so such a group makes the release
        unsafe whatever else is released (Chen, LeFevre and Ramakrishnan 2009, Sect. 7.1:
        the group's T(g, l, k) is (n - a - b - k) / a, :func:`~skyprivacy.formulas.exact_T`,
        and BP = 1 / (NR + 1)); tests/anonymize/test_lattice.py checks the condition against
        :func:`~skyprivacy.check.skyline_check` on random releases.  Summed over the groups
        of a union, a and n add and b is subadditive, which is what a search under
        suppression builds on (:mod:`skyprivacy.anonymize.lattice`)."""
        out = []
        for value in values:
            skyline = self.policy.skyline_for(value)
            out.append(() if skyline is None else
                       tuple((point.l, point.k, point.c_exact) for point in skyline))
        return out


class ProsecutorRisk(Criterion):
    """The highest prosecutor risk, 1 / the smallest group, is at most ``r`` (this is
    k-anonymity with k = ceil(1 / r))."""

    monotone_with_suppression = True

    def __init__(self, r):
        self.r = _fraction(r, "r", "ProsecutorRisk", 0, 1, open_low=True)

    def __repr__(self) -> str:
        return f"ProsecutorRisk(r={native_number(self.r)})"

    def group_safe(self, release):
        # 1 / n <= r  <=>  n * r >= 1, in integers
        return release.sizes_array * self.r.numerator >= self.r.denominator


class AverageRisk(Criterion):
    """The average prosecutor risk, groups / individuals, is at most ``r``."""

    per_group = False

    def __init__(self, r):
        self.r = _fraction(r, "r", "AverageRisk", 0, 1, open_low=True)

    def __repr__(self) -> str:
        return f"AverageRisk(r={native_number(self.r)})"

    def evaluate(self, release):
        _check_release(release, "AverageRisk")
        return CriterionResult(repr(self),
                               Fraction(release.n_groups, release.n_individuals) <= self.r,
                               None)


class PopulationUniqueness(Criterion):
    """The estimated share of the population unique on the QIs is at most ``u``
    (:func:`skyprivacy.risk.population_uniqueness`, the release's groups as the classes).
    A model estimate: not declared monotone."""

    per_group = False
    monotone = False

    def __init__(self, u, *, population_size: int, model: str = "dankar"):
        from .risk import POPULATION_MODELS

        self.u = _fraction(u, "u", "PopulationUniqueness", 0, 1)
        self.population_size = _integer(population_size, "population_size",
                                        "PopulationUniqueness", 1)
        if model not in POPULATION_MODELS:
            raise param_error("model", "PopulationUniqueness",
                              f"be one of {list(POPULATION_MODELS)}", model)
        self.model = model

    def __repr__(self) -> str:
        return (f"PopulationUniqueness(u={native_number(self.u)}, "
                f"population_size={self.population_size}, model={self.model!r})")

    def evaluate(self, release):
        _check_release(release, "PopulationUniqueness")
        sizes, counts = np.unique(release.sizes_array, return_counts=True)
        estimate = population_uniques_from_sizes(ClassSizes(tuple(sizes), tuple(counts)),
                                                 self.population_size, self.model)
        return CriterionResult(repr(self), estimate.share <= float(self.u), None)


class KMap(Criterion):
    """k-map against a population table: every released class matches at least ``k`` people
    of the population on its released (generalized) QI values (Sweeney 2002; El Emam and
    Dankar 2008, the journalist scenario).

    Parameters
    ----------
    k : int
        At least 1.
    population : pandas.DataFrame or pandas.Series
        The population the release was drawn from: a table of one row per person with (at
        least) the QI columns, or its class sizes, a Series of positive integer counts indexed
        by the QI values (index names the QI columns, as ``population.groupby(qi).size()``).
        Read, never modified.
    hierarchies : mapping of QI column to Hierarchy, optional
        How the release generalized each QI: the population's values of that column are
        generalized the same way before they are matched.  A released value is read as the
        node of that label (a leaf for an ungeneralized value); a label found on several
        levels is read at the lowest one, which matches the fewest people (the cautious
        reading).  A QI without a hierarchy is matched exactly: give the population in the
        release's own coding for it.

    Notes
    -----
    A class of the release with n records whose label matches F people of the population
    passes iff F >= k, i.e. its journalist risk 1 / F is at most 1 / k
    (:func:`skyprivacy.risk.journalist_risk`; the population counts come from the same
    match, :func:`skyprivacy.risk.matched_population_sizes`, which raises when a class has
    more records than people in the population).

    Supported: releases whose groups are labelled by their QI values
    (``ReleaseCandidate.from_table(table, sensitive=..., qi=...)``), each value a node of
    its column's hierarchy or, without one, a value of the population.  Refused with an
    error: a release whose groups are numbered rather than labelled (a bucketized release,
    or the unlabelled candidates a search builds), a value no hierarchy node or population
    value matches, a population missing a QI column.

    Monotone, with and without suppression: generalizing a release merges classes and
    coarsens their labels, and the people matching a label are a subset of those matching
    its ancestor, so F only grows and a class that passes keeps passing (the rows that fail
    only shrink, as for k-anonymity).

    Examples
    --------
    >>> population = pd.DataFrame({"zip": ["1", "1", "1", "2", "2", "3"]})
    >>> table = pd.DataFrame({"zip": ["1", "2"], "dx": ["a", "b"]})
    >>> release = ReleaseCandidate.from_table(table, sensitive="dx", qi=["zip"])
    >>> KMap(2, population=population).population_sizes(release)
    (3, 2)
    >>> KMap(3, population=population).evaluate(release).group_safe
    (True, False)
    """

    monotone_with_suppression = True

    def __init__(self, k: int, *, population, hierarchies=None):
        self.k = _integer(k, "k", "KMap", 1)
        self._counts = _population_counts(population)
        if hierarchies is None:
            hierarchies = {}
        if not isinstance(hierarchies, Mapping):
            raise param_error("hierarchies", "KMap", "map QI columns to Hierarchy objects",
                              type(hierarchies).__name__)
        bad = [h for h in hierarchies.values() if not isinstance(h, Hierarchy)]
        if bad:
            raise param_error("hierarchies", "KMap", "map QI columns to Hierarchy objects",
                              type(bad[0]).__name__)
        self.hierarchies = dict(hierarchies)
        self.levels: dict | None = None

    def __repr__(self) -> str:
        return f"KMap(k={self.k}, population={int(self._counts[1].sum())} people)"

    def at_levels(self, levels: Mapping) -> KMap:
        """The same criterion reading each QI's released values at the given hierarchy level
        (full-domain generalization: one level per QI), never guessing it from the labels."""
        bound = copy.copy(self)
        bound.levels = {name: int(level) for name, level in levels.items()}
        return bound

    def population_sizes(self, release: ReleaseCandidate) -> tuple:
        """The number of people of the population each group's label matches."""
        _check_release(release, "KMap")
        names = _qi_names(release)
        unknown = [name for name in self.hierarchies if name not in names]
        if unknown:
            raise param_error("hierarchies", "KMap", f"name QI columns of the release "
                              f"({names})", unknown[0])
        keys, weights = self._counts
        missing = [name for name in names if name not in keys.columns]
        if missing:
            raise SchemaError(f"Column {missing[0]!r} is not in the population; its columns "
                              f"are {list(keys.columns)}.")
        labels = release.group_labels.to_frame(index=False)
        labels.columns = names
        per_column = [self._read(name, labels[name]) for name in names]
        # groups by the combination of levels their labels are read at (one for full-domain)
        by_levels: dict = {}
        for g, combo in enumerate(zip(*(levels for levels, _ in per_column))):
            by_levels.setdefault(combo, []).append(g)
        read = pd.DataFrame({name: nodes for name, (_, nodes) in zip(names, per_column)})
        sizes = pd.Series(release.sizes_array, name="f")
        F = np.zeros(release.n_groups, dtype=np.int64)
        for combo, rows in by_levels.items():
            people = pd.DataFrame({name: self._generalized(name, keys[name], level)
                                   for name, level in zip(names, combo)})
            population = people.assign(_w=weights).groupby(
                names, sort=False, dropna=False)["_w"].sum()
            sample = sizes.iloc[rows]
            sample.index = pd.MultiIndex.from_frame(read.iloc[rows]) if len(names) > 1 \
                else pd.Index(read[names[0]].iloc[rows], name=names[0])
            _, matched = matched_population_sizes(sample, population)
            F[np.asarray(rows)] = matched
        return tuple(int(x) for x in F)

    def _read(self, name, labels: pd.Series) -> tuple:
        """(level, node label) of every released value of column ``name``; level -1 when the
        column has no hierarchy (the value is matched as it is)."""
        hierarchy = self.hierarchies.get(name)
        if hierarchy is None:
            return [-1] * len(labels), list(labels)
        if self.levels is not None and name in self.levels:
            level = self.levels[name]
            return [level] * len(labels), list(labels) if level else \
                list(hierarchy.generalize(list(labels), 0))
        on_level = [set(hierarchy.labels_at(level)) for level in range(hierarchy.height + 1)]
        levels, nodes = [], []
        for label in labels:
            if label in hierarchy:  # a leaf (39 finds the leaf '39')
                levels.append(0)
                nodes.append(hierarchy.generalize(label, 0))
                continue
            found = [lv for lv in range(1, hierarchy.height + 1) if label in on_level[lv]]
            if not found:
                raise InvalidParameterError(
                    f"KMap cannot match the released value {label!r} of column {name!r} to a "
                    f"node of its hierarchy; release the hierarchy's labels, or give the "
                    f"population in the release's coding without a hierarchy.")
            levels.append(found[0])
            nodes.append(label)
        return levels, nodes

    def _generalized(self, name, values: pd.Series, level: int) -> list:
        if level < 0:
            return list(values)
        return list(self.hierarchies[name].generalize(list(values), level))

    def group_safe(self, release):
        return np.asarray(self.population_sizes(release), dtype=np.int64) >= self.k


def _qi_names(release: ReleaseCandidate) -> list:
    labels = release.group_labels
    names = list(labels.names)
    if isinstance(labels, pd.RangeIndex) or any(name is None for name in names) \
            or names == ["group"]:
        raise InvalidParameterError(
            f"KMap needs a release whose groups are labelled by their QI values "
            f"(ReleaseCandidate.from_table(table, sensitive=..., qi=...)). Got groups "
            f"labelled {names!r} instead.")
    return names


def _population_counts(population) -> tuple:
    """(distinct QI tuples as a frame, how many people hold each) of a population table or
    of its class sizes."""
    if isinstance(population, pd.DataFrame):
        if len(population) == 0:
            raise SchemaError("The population table is empty: k-map needs the population.")
        return population.reset_index(drop=True), np.ones(len(population), dtype=np.int64)
    if isinstance(population, pd.Series):
        names = list(population.index.names)
        if len(population) == 0 or any(name is None for name in names):
            raise param_error("population", "KMap", "be class sizes indexed by the QI values "
                              "(index names the QI columns)", f"a Series indexed by {names}")
        counts = pd.to_numeric(population, errors="coerce")
        bad = counts.isna() | (counts != counts.round()) | (counts < 1)
        if bad.any():
            raise param_error("population", "KMap", "be class sizes: positive integer counts",
                              native(population[bad.to_numpy()].iloc[0]))
        return population.index.to_frame(index=False), counts.to_numpy(dtype=np.int64)
    raise param_error("population", "KMap", "be a pandas DataFrame or Series of class sizes",
                      type(population).__name__)


def as_criterion(item: object) -> Criterion:
    """A criterion as it is; a :class:`Policy` as a :class:`SkylinePolicy`."""
    if isinstance(item, Criterion):
        return item
    if isinstance(item, Policy):
        return SkylinePolicy(item)
    raise param_error("criteria", "as_criterion", "hold criteria (skyprivacy.criteria) or "
                      "skyline Policies", type(item).__name__)


def as_criteria(items: Criterion | Policy | Iterable) -> list[Criterion]:
    """The criteria of ``criteria=``: one criterion or policy, or an iterable of them."""
    if isinstance(items, (Criterion, Policy)):
        return [as_criterion(items)]
    try:
        listed = list(items)  # type: ignore[arg-type]
    except TypeError:
        raise param_error("criteria", "as_criteria", "be a criterion, a Policy or a list of "
                          "them", items) from None
    if not listed:
        raise param_error("criteria", "as_criteria", "name at least one criterion", items)
    return [as_criterion(item) for item in listed]


def evaluate(release: ReleaseCandidate, criteria) -> pd.DataFrame:
    """Every criterion's verdict on ``release``: one row per criterion (``criterion``,
    ``safe``, ``failing_groups``); the release is safe when every row is.

    Examples
    --------
    >>> release = ReleaseCandidate.from_groups([(3, ["a", "b", "b"]), (2, ["a", "b"])])
    >>> evaluate(release, [KAnonymity(2), DistinctLDiversity(2)])["safe"].tolist()
    [True, True]
    >>> KAnonymity(3).evaluate(release).group_safe
    (True, False)
    """
    rows = [c.evaluate(release).to_dict() for c in as_criteria(criteria)]
    return pd.DataFrame(rows, columns=["criterion", "safe", "failing_groups"])
