"""l-diversity and Proposition 4 (skyprivacy/baselines/ldiversity.py): distinct, entropy and
recursive (c, l) reference values, exact boundaries, oracles, the skyline equivalence and every
error message."""
import math
import random
import re
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from oracle import breach_grid

from skyprivacy import InvalidParameterError, ReleaseCandidate, breach_probability, skyline_check
from skyprivacy.baselines import (
    DistinctLDiversityResult,
    EntropyLDiversityResult,
    RecursiveCLDiversityResult,
    cl_diversity_policy,
    distinct_l_diversity,
    distinct_l_diversity_level,
    entropy_l_diversity,
    entropy_l_diversity_level,
    recursive_cl_diversity,
    recursive_cl_diversity_threshold,
)
from skyprivacy.knowledge import SkylinePoint

from .strategies import (MVPI, SVPI, groups_strategy, oracle_entropy, oracle_recursive,
                         table_release)

LETTERS = "abcdef"
C_CHOICES = [Fraction(1, 3), Fraction(1, 2), 1, 2, 3, Fraction(7, 3), 0.75, 1.5, 0.1, 2.5]


def raises(message):
    return pytest.raises(InvalidParameterError, match=re.escape(message))


def _random_groups(rng, max_groups=5, max_size=9, min_alphabet=1):
    groups = []
    for _ in range(rng.randint(1, max_groups)):
        n = rng.randint(1, max_size)
        alphabet = LETTERS[:rng.randint(min_alphabet, len(LETTERS))]
        groups.append((n, [rng.choice(alphabet) for _ in range(n)]))
    return groups


# ----------------------------------------------------------------------------- distinct
def test_distinct_l_diversity_reference(table1b):
    release = table_release()  # (2*,F): flu hiv flu; (3*,M): flu flu; (4*,F): flu cold; ...
    result = distinct_l_diversity(release, l=2)
    assert isinstance(result, DistinctLDiversityResult)
    assert (result.safe, result.level, result.worst_group) == (False, 1, ("3*", "M"))
    frame = result.to_frame()
    assert list(frame.columns) == ["n_individuals", "distinct_values", "safe"]
    assert frame["distinct_values"].tolist() == [2, 1, 2, 2]
    assert frame["safe"].tolist() == [True, False, True, True]
    assert distinct_l_diversity(release, l=1).safe
    assert distinct_l_diversity_level(release) == 1
    assert distinct_l_diversity(table1b, l=2).safe
    assert not distinct_l_diversity(table1b, l=3).safe
    assert distinct_l_diversity(table1b, l=3).violating_groups == (0,)


@settings(max_examples=150)
@given(groups_strategy(), st.integers(1, 7))
def test_distinct_matches_the_definition(groups, level):
    release = ReleaseCandidate.from_groups(groups)
    assert distinct_l_diversity(release, l=level).safe == all(
        len(set(vals)) >= level for _, vals in groups)
    assert distinct_l_diversity_level(release) == min(len(set(v)) for _, v in groups)


# ----------------------------------------------------------------------------- entropy
def test_entropy_l_diversity_reference_values():
    release = ReleaseCandidate.from_groups([(3, ["flu", "hiv", "cold"]),
                                            (4, ["flu", "flu", "hiv", "cold"]),
                                            (2, ["flu", "flu"])])
    result = entropy_l_diversity(release, l=2)
    assert isinstance(result, EntropyLDiversityResult)
    # H = log 3; -(1/2 log 1/2 + 2 * 1/4 log 1/4) = 1.5 log 2; 0
    assert result.entropies[0] == pytest.approx(math.log(3), abs=1e-12)
    assert result.entropies[1] == pytest.approx(1.5 * math.log(2), abs=1e-12)
    assert result.entropies[2] == 0.0
    assert result.effective_values == (3.0, pytest.approx(2 ** 1.5), 1.0)
    assert result.group_safe == (True, True, False)
    assert (result.safe, result.worst_group, result.level) == (False, 2, 1.0)
    frame = result.to_frame()
    assert list(frame.columns) == ["n_individuals", "entropy", "entropy_l", "safe"]
    assert frame["entropy_l"].iloc[0] == 3.0


def test_entropy_boundary_is_exact():
    # l equally frequent values: entropy == log l exactly, and must pass at l, fail just above.
    for d in (2, 3, 5, 7, 10):
        for size in (1, 3, 100):
            release = ReleaseCandidate.from_groups([(d * size, list(range(d)) * size)])
            assert entropy_l_diversity(release, l=d).safe
            assert not entropy_l_diversity(release, l=Fraction(d) + Fraction(1, 10 ** 15)).safe
            assert entropy_l_diversity(release, l=Fraction(d) - Fraction(1, 10 ** 15)).safe
            assert entropy_l_diversity_level(release) == d
    # counts (1, 1, 2): exp(H) = 2^(3/2), irrational; a float just below passes, above fails
    release = ReleaseCandidate.from_groups([(4, ["a", "b", "c", "c"])])
    level = entropy_l_diversity_level(release)
    assert level == pytest.approx(2 ** 1.5, rel=1e-15)
    assert entropy_l_diversity(release, l=level).safe
    assert not entropy_l_diversity(release, l=math.nextafter(level, 3.0) + 1e-15).safe
    # float l is read as the decimal it prints
    assert entropy_l_diversity(ReleaseCandidate.from_groups([(4, list("abcd"))]), l=4.0).safe


@settings(max_examples=150)
@given(groups_strategy(), st.floats(1, 7))
def test_entropy_matches_definition_away_from_the_boundary(groups, l):
    entropies = [oracle_entropy(vals) for _, vals in groups]
    assume(all(abs(h - math.log(l)) > 1e-9 for h in entropies))
    release = ReleaseCandidate.from_groups(groups)
    result = entropy_l_diversity(release, l=l)
    assert result.group_safe == tuple(h >= math.log(l) for h in entropies)
    assert result.entropies == pytest.approx(entropies, abs=1e-12)
    level = entropy_l_diversity_level(release)
    assert level == pytest.approx(math.exp(min(entropies)), rel=1e-12)
    assert entropy_l_diversity(release, l=level).safe


# ----------------------------------------------------------------------------- recursive
def test_recursive_cl_diversity_reference():
    # counts sorted: (3*F-like) group 0: flu 5, hiv 2, cold 2, gout 1 -> r1=5
    release = ReleaseCandidate.from_groups([
        (10, ["flu"] * 5 + ["hiv"] * 2 + ["cold"] * 2 + ["gout"]),
        (6, ["flu", "flu", "hiv", "hiv", "cold", "gout"])])
    result = recursive_cl_diversity(release, diversity_c=2, l=3)
    assert isinstance(result, RecursiveCLDiversityResult)
    # group 0: 5 < 2 * (2 + 1) = 6 holds; group 1: 2 < 2 * (1 + 1) holds
    assert result.top_counts == (5, 2) and result.tail_counts == (3, 2)
    assert result.ratios == (Fraction(5, 3), Fraction(1))
    assert result.group_safe == (True, True) and result.safe
    assert result.threshold == Fraction(5, 3) and result.worst_group == 0
    frame = result.to_frame()
    assert list(frame.columns) == ["n_individuals", "top_count", "tail_count", "ratio", "safe"]
    assert frame["ratio"].tolist() == pytest.approx([5 / 3, 1.0])
    # boundary: c = 5/3 exactly fails (strict <); just above passes
    assert not recursive_cl_diversity(release, diversity_c=Fraction(5, 3), l=3).safe
    assert recursive_cl_diversity(
        release, diversity_c=Fraction(5, 3) + Fraction(1, 10**12), l=3
    ).safe
    assert recursive_cl_diversity_threshold(release, l=3) == Fraction(5, 3)
    # l = 1: r1 < c * n
    assert recursive_cl_diversity(release, diversity_c=Fraction(1, 2), l=1).threshold == Fraction(
        1, 2
    )


def test_recursive_cl_diversity_fewer_than_l_values_fails_for_every_c():
    release = ReleaseCandidate.from_groups([(3, ["a", "b", "c"]), (4, ["a", "a", "b", "b"])])
    result = recursive_cl_diversity(release, diversity_c=10 ** 9, l=3)
    assert not result.safe and result.threshold == math.inf
    assert result.worst_group == 1 and result.group_safe == (True, False)
    assert result.ratios[1] == math.inf
    assert result.to_frame()["ratio"].tolist() == [1.0, math.inf]
    assert result.to_dict()["threshold"] == "inf"


def test_recursive_float_c_is_read_as_its_decimal():
    # r1 = 3, tail = 4: 3 < 0.75 * 4 = 3 is false exactly (0.75 is 3/4, not a binary double)
    release = ReleaseCandidate.from_groups([(7, ["a"] * 3 + ["b"] * 2 + ["c"] * 2)])
    result = recursive_cl_diversity(release, diversity_c=0.75, l=2)
    assert result.top_counts == (3,) and result.tail_counts == (4,)
    assert not result.safe
    assert recursive_cl_diversity(release, diversity_c=0.7500000001, l=2).safe
    assert result.diversity_c == 0.75 and result.to_dict()["diversity_c"] == 0.75
    assert (
        recursive_cl_diversity(release, diversity_c=Fraction(3, 4), l=2).to_dict()["diversity_c"]
        == "3/4"
    )


def test_numpy_long_double_c_comes_back_a_python_float():
    release = ReleaseCandidate.from_groups([(7, ["a"] * 3 + ["b"] * 2 + ["c"] * 2)])
    result = recursive_cl_diversity(release, diversity_c=np.longdouble(0.75), l=2)
    assert type(result.diversity_c) is float and result.to_dict()["diversity_c"] == 0.75
    assert not result.safe


@settings(max_examples=150)
@given(groups_strategy(), st.integers(1, 6),
       st.fractions(min_value=Fraction(1, 10), max_value=8, max_denominator=10))
def test_recursive_matches_definition(groups, l, c):
    release = ReleaseCandidate.from_groups(groups)
    result = recursive_cl_diversity(release, diversity_c=c, l=l)
    assert result.safe == oracle_recursive(groups, c, l)
    threshold = recursive_cl_diversity_threshold(release, l=l)
    assert threshold == result.threshold
    if threshold != math.inf:
        assert not oracle_recursive(groups, threshold, l)
        assert oracle_recursive(groups, threshold + Fraction(1, 10 ** 6), l)


def test_cl_diversity_policy_confidence_is_exact():
    assert cl_diversity_policy(diversity_c=3, l=4).default.points == (
        SkylinePoint(2, 0, 0, Fraction(3, 4)),
    )
    assert cl_diversity_policy(diversity_c=0.75, l=2).default.points[0].c_exact == Fraction(3, 7)
    assert cl_diversity_policy(diversity_c=Fraction(1, 3), l=3).default.points[
        0
    ].c_exact == Fraction(1, 4)
    assert cl_diversity_policy(diversity_c=0.1, l=2).default.points[0].c_exact == Fraction(1, 11)


# ----------------------------------------------------------------------------- Prop. 4
def _prop4_agrees(groups, c, l):
    release = ReleaseCandidate.from_groups(groups)
    direct = recursive_cl_diversity(release, diversity_c=c, l=l)
    skyline = skyline_check(release, cl_diversity_policy(diversity_c=c, l=l))
    assert skyline.safe == direct.safe, (groups, c, l, skyline.explain())
    return direct


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
                direct = recursive_cl_diversity(
                    ReleaseCandidate.from_groups(groups), diversity_c=c, l=l
                )
                assert (worst < Fraction(c) / (Fraction(c) + 1)) == direct.safe, (
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
        ratios = recursive_cl_diversity(release, diversity_c=1, l=l).ratios
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
        verdicts.append(_prop4_agrees(groups, c, l).safe)
    assert boundary > 100 and just_above > 60
    assert 60 < sum(verdicts) < 340, sum(verdicts)


@st.composite
def svpi_groups(draw):
    groups = []
    for _ in range(draw(st.integers(1, 5))):
        n = draw(st.integers(1, 10))
        groups.append((n, draw(st.lists(st.sampled_from(LETTERS), min_size=n, max_size=n))))
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
    ratios = [
        r for r in recursive_cl_diversity(release, diversity_c=1, l=l).ratios if r != float("inf")
    ]
    if not ratios:
        assert not _prop4_agrees(groups, 1, l).safe
        return
    c = data.draw(st.sampled_from(ratios))
    result = _prop4_agrees(groups, c, l)
    assert not result.safe  # equality fails the strict inequality on both sides


def test_prop4_breach_probability_formula():
    # In the most frequent value's group, ruling out the l-2 next values leaves
    # r_1 / (r_1 + r_l + ... + r_m).
    release = ReleaseCandidate.from_groups([(10, ["a"] * 4 + ["b"] * 3 + ["c"] * 2 + ["d"])])
    for l, expected in [(2, Fraction(4, 10)), (3, Fraction(4, 7)), (4, Fraction(4, 5)),
                        (5, Fraction(1))]:
        assert breach_probability(release, "a", l=l - 2, k=0, m=0, exact=True) == expected
        tail = 10 - 4 - [0, 3, 5, 6][l - 2]
        assert recursive_cl_diversity(release, diversity_c=1, l=l).tail_counts == (tail,)


# ----------------------------------------------------------------------------- errors
@pytest.mark.parametrize("call, owner", [
    (lambda r: distinct_l_diversity(r, l=2), "distinct_l_diversity"),
    (distinct_l_diversity_level, "distinct_l_diversity_level"),
    (lambda r: entropy_l_diversity(r, l=2), "entropy_l_diversity"),
    (entropy_l_diversity_level, "entropy_l_diversity_level"),
    (lambda r: recursive_cl_diversity(r, diversity_c=2, l=2), "recursive_cl_diversity"),
    (lambda r: recursive_cl_diversity_threshold(r, l=2), "recursive_cl_diversity_threshold"),
])
def test_l_diversity_rejects_mvpi(call, owner):
    with raises(f"The 'release' parameter of {owner} must have semantics 'svpi' (l-diversity "
                f"gives every individual exactly one sensitive value). Got 'mvpi-set' instead."):
        call(MVPI)


@pytest.mark.parametrize(
    "call, owner",
    [
        (lambda r, l: distinct_l_diversity(r, l=l), "distinct_l_diversity"),
        (lambda r, l: recursive_cl_diversity(r, diversity_c=2, l=l), "recursive_cl_diversity"),
        (lambda r, l: recursive_cl_diversity_threshold(r, l=l), "recursive_cl_diversity_threshold"),
    ],
)
@pytest.mark.parametrize("l, shown", [(0, "0"), (1.5, "1.5"), (True, "True"), ("2", "'2'")])
def test_integer_l_must_be_positive(call, owner, l, shown):
    with raises(f"The 'l' parameter of {owner} must be a positive integer. Got {shown} instead."):
        call(SVPI, l)


@pytest.mark.parametrize("l, shown", [(0.5, "0.5"), (0, "0"), (Fraction(1, 2), "Fraction(1, 2)"),
                                      (float("nan"), "nan"), (float("inf"), "inf"),
                                      ("3", "'3'"), (True, "True"), (None, "None"),
                                      (Decimal("NaN"), "Decimal('NaN')")])
def test_entropy_l_must_be_a_finite_number_at_least_1(l, shown):
    with raises(f"The 'l' parameter of entropy_l_diversity must be a finite number >= 1. "
                f"Got {shown} instead."):
        entropy_l_diversity(SVPI, l=l)


@pytest.mark.parametrize("owner, call", [
    ("recursive_cl_diversity", lambda c: recursive_cl_diversity(SVPI, diversity_c=c, l=2)),
    ("cl_diversity_policy", lambda c: cl_diversity_policy(diversity_c=c, l=2)),
])
@pytest.mark.parametrize("c, shown", [(0, "0"), (-1.5, "-1.5"), (float("nan"), "nan"),
                                      (float("-inf"), "-inf"), ("2", "'2'"), (None, "None"),
                                      (False, "False"), (np.float64(0.0), "0.0")])
def test_diversity_c_must_be_positive(owner, call, c, shown):
    with raises(f"The 'diversity_c' parameter of {owner} must be a finite number > 0. "
                f"Got {shown} instead."):
        call(c)


@pytest.mark.parametrize("l, shown", [(1, "1"), (0, "0"), (2.0, "2.0")])
def test_cl_diversity_policy_needs_l_at_least_2(l, shown):
    with raises(f"The 'l' parameter of cl_diversity_policy must be an integer >= 2. "
                f"Got {shown} instead."):
        cl_diversity_policy(diversity_c=2, l=l)
