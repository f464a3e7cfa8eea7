"""Criteria that combine (skyprivacy/criteria.py): each verdict against a re-check written from
the criterion's definition on small releases, monotone criteria kept under merging groups, and
every message."""
import math
import re
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skyprivacy import Policy, ReleaseCandidate
from skyprivacy.criteria import (
    AverageRisk,
    BetaLikeness,
    DeltaDisclosure,
    DistinctLDiversity,
    EntropyLDiversity,
    KAnonymity,
    PopulationUniqueness,
    ProsecutorRisk,
    RecursiveCLDiversity,
    SkylinePolicy,
    TCloseness,
    as_criteria,
    evaluate,
)
from skyprivacy.errors import InvalidParameterError

groups_strategy = st.lists(st.lists(st.sampled_from("abcd"), min_size=1, max_size=6),
                           min_size=1, max_size=5)


def release_of(groups):
    return ReleaseCandidate.from_groups([(len(g), list(g)) for g in groups])


def overall(groups):
    counts = Counter(v for g in groups for v in g)
    total = sum(counts.values())
    return {v: Fraction(c, total) for v, c in counts.items()}


def oracle(criterion, groups):
    """Each group's verdict from the criterion's definition, in exact fractions."""
    p = overall(groups)
    out = []
    for g in groups:
        counts = Counter(g)
        n = len(g)
        q = {v: Fraction(counts.get(v, 0), n) for v in p}
        if isinstance(criterion, KAnonymity):
            out.append(n >= criterion.k)
        elif isinstance(criterion, ProsecutorRisk):
            out.append(Fraction(1, n) <= criterion.r)
        elif isinstance(criterion, DistinctLDiversity):
            out.append(len(counts) >= criterion.l)
        elif isinstance(criterion, EntropyLDiversity):
            entropy = -sum(float(x) * math.log(float(x)) for x in q.values() if x)
            out.append(entropy >= math.log(float(criterion.l)) - 1e-12)
        elif isinstance(criterion, RecursiveCLDiversity):
            r = sorted(counts.values(), reverse=True)
            l = criterion.l
            tail = sum(r[l - 1:]) if len(r) >= l else 0
            out.append(r[0] < criterion.diversity_c * tail)
        elif isinstance(criterion, TCloseness):
            out.append(sum(abs(q[v] - p[v]) for v in p) / 2 <= criterion.t)
        elif isinstance(criterion, BetaLikeness):
            ok = True
            for v in p:
                if q[v] > p[v]:
                    bound = criterion.beta
                    if criterion.enhanced:
                        bound = min(float(bound), -math.log(float(p[v])))
                    ok &= float((q[v] - p[v]) / p[v]) <= float(bound) * (1 + 1e-12)
            out.append(ok)
        elif isinstance(criterion, DeltaDisclosure):
            out.append(all(q[v] > 0 and abs(math.log(q[v] / p[v])) < criterion.delta
                           for v in p))
    return tuple(out)


CRITERIA = [KAnonymity(2), KAnonymity(4), ProsecutorRisk(Fraction(1, 3)), DistinctLDiversity(2),
            DistinctLDiversity(3), EntropyLDiversity(2), EntropyLDiversity(1.5),
            RecursiveCLDiversity(2, 2), RecursiveCLDiversity(Fraction(1, 2), 3), TCloseness(0.2),
            TCloseness(Fraction(1, 3)), BetaLikeness(1), BetaLikeness(0.5, enhanced=True),
            DeltaDisclosure(1), DeltaDisclosure(0.3)]


@pytest.mark.parametrize("criterion", CRITERIA, ids=repr)
@settings(max_examples=60, deadline=None)
@given(groups=groups_strategy)
def test_every_per_group_verdict_matches_its_definition(criterion, groups):
    result = criterion.evaluate(release_of(groups))
    assert result.group_safe == oracle(criterion, groups)
    assert result.safe == all(result.group_safe)


@pytest.mark.parametrize("criterion", CRITERIA, ids=repr)
@settings(max_examples=60, deadline=None)
@given(groups=groups_strategy, data=st.data())
def test_a_monotone_criterion_survives_merging_two_groups(criterion, groups, data):
    if len(groups) < 2:
        return
    i, j = data.draw(st.sampled_from([(i, j) for i in range(len(groups))
                                      for j in range(i + 1, len(groups))]))
    verdicts = criterion.evaluate(release_of(groups)).group_safe
    merged = [g for k, g in enumerate(groups) if k not in (i, j)] + [groups[i] + groups[j]]
    after = criterion.evaluate(release_of(merged)).group_safe
    assert criterion.is_monotone()
    if verdicts[i] and verdicts[j]:
        assert after[-1], (groups, i, j)


def test_whole_release_criteria():
    release = release_of([list("aab"), list("abb"), list("ab")])
    assert AverageRisk(Fraction(3, 8)).evaluate(release).safe  # 3 groups / 8 people
    assert not AverageRisk(Fraction(1, 3)).evaluate(release).safe
    policy = Policy.uniform([(0, 0, 0, 0.7)])
    assert SkylinePolicy(policy).evaluate(release).safe  # worst 2/3 < 0.7
    assert not SkylinePolicy(Policy.uniform([(0, 0, 0, 0.6)])).evaluate(release).safe
    assert SkylinePolicy(policy).is_monotone("svpi")
    assert not SkylinePolicy(policy).is_monotone("mvpi-set")
    assert not SkylinePolicy(policy).is_monotone("svpi", suppression=True)
    assert PopulationUniqueness(0.5, population_size=100).evaluate(release).safe
    assert not PopulationUniqueness(0.1, population_size=100).monotone


def test_only_k_anonymity_is_monotone_with_suppression():
    kept = [c for c in CRITERIA if c.is_monotone(suppression=True)]
    assert {type(c) for c in kept} == {KAnonymity, ProsecutorRisk}


def test_a_policy_is_a_criterion_as_it_is():
    policy = Policy.uniform([(0, 0, 0, 0.9)])
    criteria = as_criteria([KAnonymity(2), policy])
    assert isinstance(criteria[1], SkylinePolicy) and criteria[1].policy is policy
    release = release_of([list("ab"), list("ab")])
    frame = evaluate(release, [KAnonymity(2), policy, DistinctLDiversity(3)])
    assert frame["safe"].tolist() == [True, True, False]
    assert frame["failing_groups"].tolist()[2] == 2


@pytest.mark.parametrize("make, message", [
    (lambda: KAnonymity(0), "The 'k' parameter of KAnonymity must be a positive integer. "
                            "Got 0 instead."),
    (lambda: TCloseness(2), "The 't' parameter of TCloseness must be a number in [0, 1]. "
                            "Got 2 instead."),
    (lambda: TCloseness(0.1, distance="emd"),
     "The 'distance' parameter of TCloseness must be one of ['equal', 'ordered', "
     "'hierarchical']. Got 'emd' instead."),
    (lambda: BetaLikeness(0), "The 'beta' parameter of BetaLikeness must be a number in "
                              "(0, inf). Got 0 instead."),
    (lambda: DeltaDisclosure("x"), "The 'delta' parameter of DeltaDisclosure must be a number "
                                   "in (0, inf). Got 'x' instead."),
    (lambda: as_criteria([]), "The 'criteria' parameter of as_criteria must name at least one "
                              "criterion. Got [] instead."),
    (lambda: as_criteria([3]), "The 'criteria' parameter of as_criterion must hold criteria "
                               "(skyprivacy.criteria) or skyline Policies. Got 'int' instead."),
    (lambda: KAnonymity(2).evaluate("r"), "The 'release' parameter of KAnonymity must be a "
                                          "ReleaseCandidate. Got 'str' instead."),
])
def test_messages(make, message):
    with pytest.raises(InvalidParameterError, match=f"^{re.escape(message)}$"):
        make()


def test_ordered_t_closeness_reads_the_order():
    release = ReleaseCandidate.from_groups([(2, [1, 2]), (2, [3, 4])])
    assert not TCloseness(0.3, distance="ordered").evaluate(release).safe
    assert TCloseness(0.5, distance="ordered", order=[1, 2, 3, 4]).evaluate(release).safe
    assert np.array_equal(KAnonymity(2).group_safe(release), [True, True])


@settings(max_examples=80, deadline=None)
@given(groups=groups_strategy, point=st.tuples(st.integers(0, 3), st.integers(0, 4),
                                               st.integers(0, 3), st.sampled_from(
                                                   [Fraction(1, 2), Fraction(9, 10), 1])))
def test_a_group_within_the_pinning_size_makes_the_release_unsafe(groups, point):
    """The skyline's cheap necessary condition: a group of at most k + m individuals pins
    its values (breach probability 1), whatever they are."""
    criterion = SkylinePolicy(Policy.uniform([point]))
    pin = criterion.pinning_size()
    assert pin == point[1] + point[2]
    if min(len(g) for g in groups) <= pin:
        assert not criterion.evaluate(release_of(groups)).safe, (groups, point)


def test_the_pinning_size_is_the_smallest_of_the_skylines_largest_k_plus_m():
    both = Policy({"a": [(0, 1, 0, 0.9), (0, 0, 0, 0.5)]}, default=[(1, 5, 1, 0.9)])
    assert SkylinePolicy(both).pinning_size() == 1
    assert SkylinePolicy(Policy.uniform([(1, 5, 1, 0.9), (0, 2, 9, 0.5)])).pinning_size() == 11
    # a value without a skyline is never pinned: no condition
    assert SkylinePolicy(Policy({"a": [(0, 3, 0, 0.9)]})).pinning_size() == 0
