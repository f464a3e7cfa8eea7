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
  k-anonymity (and the prosecutor-risk bound it is) keeps it: the other criteria can fail
  after a generalization because the rows suppressed before no longer are (ARX's rule).

Proofs of monotonicity without suppression: k-anonymity, prosecutor and average risk (a
merged group is larger; classes / records falls); distinct, entropy and recursive (c, l)-
diversity (Machanavajjhala et al. 2007, Sect. 4-5: each is preserved by a union of
groups); t-closeness with the EMD (Li, Li and Venkatasubramanian 2007, Sect. 4: the merged
distribution's distance is at most the larger of the two); beta-likeness and delta-disclosure
(the merged frequency of a value is a weighted mean of the two, so it lies between them, and
both criteria bound each frequency from one or two sides); the skyline in svpi (Chen,
LeFevre and Ramakrishnan 2009, corollary of Theorem 3), not in mvpi.  Population uniqueness
is a model estimate and is not declared monotone.

References
----------
Sweeney (2002); Machanavajjhala, Kifer, Gehrke and Venkitasubramaniam (2007); Li, Li and
Venkatasubramanian (2007); Cao and Karras (2012), beta-likeness; Brickell and Shmatikov
(2008), delta-disclosure; El Emam and Dankar (2008), re-identification risk.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from ._core.display import Shown, result_html, result_repr
from ._core.exact import decimal_fraction, is_real, native_number
from .baselines import (
    distinct_l_diversity,
    entropy_l_diversity,
    k_anonymity,
    recursive_cl_diversity,
    t_closeness,
)
from .check import skyline_check
from .errors import InvalidParameterError, param_error
from .knowledge import Policy
from .release import ReleaseCandidate
from .risk import ClassSizes, population_uniques_from_sizes

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

    ``distance="equal"`` (every two values at distance 1) or ``"ordered"`` (the values in
    ``order``, or sorted when no order is given, at distance |i - j| / (V - 1)).
    """

    DISTANCES = ("equal", "ordered")

    def __init__(self, t, *, distance: str = "equal", order: Sequence | None = None):
        self.t = _fraction(t, "t", "TCloseness", 0, 1)
        if distance not in self.DISTANCES:
            raise param_error("distance", "TCloseness", f"be one of {list(self.DISTANCES)}",
                              distance)
        if order is not None and distance != "ordered":
            raise InvalidParameterError("TCloseness takes an 'order' only with "
                                        "distance='ordered'.")
        self.distance = distance
        self.order = None if order is None else list(order)

    def __repr__(self) -> str:
        return f"TCloseness(t={native_number(self.t)}, distance={self.distance!r})"

    def group_safe(self, release):
        ordered = None if self.distance == "equal" else (self.order or True)
        result = t_closeness(release, t=self.t, ordered=ordered)
        return np.asarray(result.group_safe, dtype=bool)


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
