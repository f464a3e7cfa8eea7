"""Propositions 3 and 4: skyline_check with the special-case policies agrees with the baselines.

Prop. 3: k-anonymity == the policy (0, k-2, 0) at confidence 1 on the identity release.
Prop. 4: recursive (c, l)-diversity == the policy (l-2, 0, 0) at confidence c/(c+1), in svpi.
Both are checked on hundreds of seeded random releases and with Hypothesis, with the boundary
cases (groups of exactly k; r_1 == c * tail) forced rather than left to chance.
"""
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import breach_grid

from skyprivacy import ReleaseCandidate, breach_probability, skyline_check
from skyprivacy.baselines import (
    cl_diversity_policy,
    identity_release,
    k_anonymity,
    k_anonymity_policy,
    recursive_cl_diversity,
)

POOL = "abcdef"
C_CHOICES = [Fraction(1, 3), Fraction(1, 2), 1, 2, 3, Fraction(7, 3), 0.75, 1.5, 0.1, 2.5]


def _random_groups(rng, max_groups=5, max_size=9, min_alphabet=1):
    groups = []
    for _ in range(rng.randint(1, max_groups)):
        n = rng.randint(1, max_size)
        alphabet = POOL[:rng.randint(min_alphabet, len(POOL))]
        groups.append((n, [rng.choice(alphabet) for _ in range(n)]))
    return groups


def _prop3_agrees(sizes, k):
    release = ReleaseCandidate.from_groups([(n, ["x"] * n) for n in sizes])
    direct = k_anonymity(release, k).satisfied
    skyline = skyline_check(identity_release(release), k_anonymity_policy(k))
    assert skyline.safe == direct, (sizes, k, skyline.explain())
    return direct


def _prop4_agrees(groups, c, l):
    release = ReleaseCandidate.from_groups(groups)
    direct = recursive_cl_diversity(release, c, l)
    skyline = skyline_check(release, cl_diversity_policy(c, l))
    assert skyline.safe == direct.satisfied, (groups, c, l, skyline.explain())
    return direct


def test_prop3_seeded_random_releases():
    rng = random.Random(20090301)
    verdicts = []
    for _ in range(150):
        sizes = [rng.randint(1, 8) for _ in range(rng.randint(1, 5))]
        # half of the draws sit exactly on the boundary k = min size (safe) or min size + 1
        k = rng.choice([min(sizes), min(sizes) + 1, rng.randint(2, 10)])
        verdicts.append(_prop3_agrees(sizes, max(k, 2)))
    assert 30 < sum(verdicts) < 120  # both verdicts well represented


@settings(max_examples=80)
@given(st.lists(st.integers(1, 8), min_size=1, max_size=5), st.integers(2, 10))
def test_prop3_hypothesis(sizes, k):
    _prop3_agrees(sizes, k)


def test_prop3_breach_probability_is_one_exactly_below_k():
    # the worst target sits in the smallest group; its breach probability under (0, k-2, 0)
    # is 1 iff that group has fewer than k members, else 1/(n - k + 2)
    for n in range(1, 8):
        release = identity_release([n, 9])
        for k in range(2, 10):
            bp = breach_probability(release, 0, l=0, k=k - 2, m=0, exact=True)
            assert bp == (1 if n < k else Fraction(1, n - k + 2)), (n, k, bp)


def test_prop3_matches_brute_force_oracle_on_tiny_identity_releases():
    # the oracle enumerates reconstructions and groundings from the definitions
    for sizes, k in [([2, 3], 3), ([3, 3], 3), ([1, 3], 2), ([2, 2], 2), ([3], 4), ([3], 3),
                     ([2, 2], 3)]:
        release = identity_release(sizes)
        groups = [(n, [f"id{i}" for i in range(sum(sizes[:g]), sum(sizes[:g + 1]))])
                  for g, n in enumerate(sizes)]
        worst = max(breach_grid(groups, v, "svpi", 0, k - 2, 0)[(0, k - 2, 0)]
                    for _, values in groups for v in values)
        assert (worst < 1) == k_anonymity(release, k).satisfied == (min(sizes) >= k)


def test_prop4_matches_brute_force_oracle_on_tiny_releases():
    rng = random.Random(4)
    checked = 0
    for _ in range(25):
        groups = _random_groups(rng, max_groups=2, max_size=4)
        values = sorted({v for _, vals in groups for v in vals})
        for l in (2, 3):
            worst = max(breach_grid(groups, v, "svpi", l - 2, 0, 0)[(l - 2, 0, 0)]
                        for v in values)
            for c in (Fraction(1, 2), 1, 2, 3):
                direct = recursive_cl_diversity(ReleaseCandidate.from_groups(groups), c, l)
                assert (worst < Fraction(c) / (Fraction(c) + 1)) == direct.satisfied, (
                    groups, l, c, worst)
                checked += 1
    assert checked == 200


def test_prop4_seeded_random_releases():
    rng = random.Random(20070401)
    verdicts, boundary, just_above = [], 0, 0
    for _ in range(400):
        l = rng.randint(2, 5)
        groups = _random_groups(rng, max_groups=4, max_size=12, min_alphabet=l)
        release = ReleaseCandidate.from_groups(groups)
        ratios = recursive_cl_diversity(release, 1, l).ratios
        finite = [r for r in ratios if r != float("inf")]
        mode = rng.random()
        if finite and mode < 0.35:
            # on the boundary of some group: r_1 == c * tail there, so that group fails
            c = rng.choice(finite)
            boundary += 1
        elif finite and len(finite) == len(ratios) and mode < 0.7:
            # just above the largest ratio: every group passes by the smallest margin
            c = max(finite) + Fraction(1, 10 ** 9)
            just_above += 1
        else:
            c = rng.choice(C_CHOICES + [4, 6, 10])
        verdicts.append(_prop4_agrees(groups, c, l).satisfied)
    assert boundary > 100 and just_above > 60
    assert 60 < sum(verdicts) < 340, sum(verdicts)


@st.composite
def svpi_groups(draw):
    groups = []
    for _ in range(draw(st.integers(1, 5))):
        n = draw(st.integers(1, 10))
        groups.append((n, draw(st.lists(st.sampled_from(POOL), min_size=n, max_size=n))))
    return groups


@settings(max_examples=150)
@given(svpi_groups(), st.integers(2, 6),
       st.one_of(st.fractions(min_value=Fraction(1, 12), max_value=6, max_denominator=12),
                 st.sampled_from(C_CHOICES)))
def test_prop4_hypothesis(groups, l, c):
    _prop4_agrees(groups, c, l)


@settings(max_examples=100)
@given(svpi_groups(), st.integers(2, 6), st.data())
def test_prop4_hypothesis_at_the_boundary(groups, l, data):
    release = ReleaseCandidate.from_groups(groups)
    ratios = [r for r in recursive_cl_diversity(release, 1, l).ratios if r != float("inf")]
    if not ratios:
        assert not _prop4_agrees(groups, 1, l).satisfied
        return
    c = data.draw(st.sampled_from(ratios))
    result = _prop4_agrees(groups, c, l)
    assert not result.satisfied  # equality fails the strict inequality on both sides


def test_prop4_breach_probability_formula():
    # In the most frequent value's group, ruling out the l-2 next values leaves
    # r_1 / (r_1 + r_l + ... + r_m).
    release = ReleaseCandidate.from_groups([(10, ["a"] * 4 + ["b"] * 3 + ["c"] * 2 + ["d"])])
    for l, expected in [(2, Fraction(4, 10)), (3, Fraction(4, 7)), (4, Fraction(4, 5)),
                        (5, Fraction(1))]:
        assert breach_probability(release, "a", l=l - 2, k=0, m=0, exact=True) == expected
        tail = 10 - 4 - [0, 3, 5, 6][l - 2]
        assert recursive_cl_diversity(release, 1, l).tail_counts == (tail,)
