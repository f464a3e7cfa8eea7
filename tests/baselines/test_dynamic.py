"""The Appendix A.3 dynamic program (skyprivacy/baselines/dynamic.py) against Theorem 2 and the
brute-force oracle: two independent routes to the same breach probability."""
import math
from fractions import Fraction

import numpy as np
import pytest
from oracle import breach_grid
from test_oracle_agreement import SPEC_TABLE

from skyprivacy import ReleaseCandidate, breach_probability
from skyprivacy.baselines import DP_MAX_STATES, dp_breach_probability
from skyprivacy.errors import InvalidParameterError

SEMANTICS = ("svpi", "mvpi-set", "mvpi-multiset")


def larger_release(rng, semantics):
    """4-9 groups of up to 24 individuals: far beyond what the brute-force oracle enumerates
    (it is exponential in the group sizes), small enough for exact Fractions."""
    n_groups = int(rng.integers(4, 10))
    n_values = int(rng.integers(2, 7))
    sizes = rng.integers(1, 25, size=n_groups)
    counts = np.zeros((n_groups, n_values), dtype=np.int64)
    for g in range(n_groups):
        if semantics == "svpi":
            held = rng.choice(n_values, size=int(rng.integers(1, n_values + 1)), replace=False)
            counts[g, held] = rng.multinomial(int(sizes[g]), [1 / len(held)] * len(held))
        else:
            mask = rng.random(n_values) < 0.6
            high = int(sizes[g]) + 1 if semantics == "mvpi-set" else 2 * int(sizes[g]) + 1
            counts[g] = np.where(mask, rng.integers(1, high, size=n_values), 0)
    names = [f"v{i}" for i in range(n_values)]
    return ReleaseCandidate.from_counts(sizes, counts, names, semantics=semantics), names


@pytest.mark.parametrize("semantics", SEMANTICS)
def test_equals_theorem_2_exactly_on_200_larger_releases(semantics):
    rng = np.random.default_rng({"svpi": 21, "mvpi-set": 22, "mvpi-multiset": 23}[semantics])
    compared = pinned = 0
    for _ in range(200):
        release, names = larger_release(rng, semantics)
        for _ in range(2):
            sigma = names[int(rng.integers(0, len(names)))]
            l, k, m = int(rng.integers(0, 5)), int(rng.integers(0, 4)), int(rng.integers(0, 4))
            expected = breach_probability(release, sigma, l=l, k=k, m=m, exact=True)
            assert dp_breach_probability(release, sigma, l=l, k=k, m=m, exact=True) == expected
            assert dp_breach_probability(release, sigma, l=l, k=k, m=m) == pytest.approx(
                float(expected), rel=1e-9, abs=1e-12)
            compared += 1
            pinned += expected == 1
    assert compared == 400
    assert 0 < pinned < compared  # both regimes were exercised


@pytest.mark.parametrize("semantics", SEMANTICS)
def test_equals_the_brute_force_oracle_on_tiny_releases(semantics):
    rng = np.random.default_rng({"svpi": 31, "mvpi-set": 32, "mvpi-multiset": 33}[semantics])
    compared = 0
    for _ in range(25):
        groups = []
        for _ in range(int(rng.integers(1, 4))):
            n = int(rng.integers(1, 4))
            if semantics == "svpi":
                values = [str(v) for v in rng.choice(list("abc"), n)]
            else:  # each letter 0..n times (mvpi-set) or 0..n+1 times (multiset)
                top = n if semantics == "mvpi-set" else n + 1
                values = [v for v in "abc" for _ in range(int(rng.integers(0, top + 1)))]
                values = values or ["b"]
            groups.append((n, values))
        release = ReleaseCandidate.from_groups(groups, semantics=semantics)
        grid = breach_grid(groups, "a", semantics, 2, 2, 2)
        for (l, k, m), value in grid.items():
            assert dp_breach_probability(release, "a", l=l, k=k, m=m, exact=True) == value
            compared += 1
    assert compared == 25 * 27


@pytest.mark.parametrize("semantics,groups,sigma,expected", SPEC_TABLE)
def test_the_spec_worked_values(semantics, groups, sigma, expected):
    release = ReleaseCandidate.from_groups([(n, v.split()) for n, v in groups],
                                           semantics=semantics)
    for (l, k, m), value in expected.items():
        assert dp_breach_probability(release, sigma, l=l, k=k, m=m, exact=True) == \
            Fraction(value)


def test_it_distributes_the_known_individuals_where_theorem_2_congregates():
    # the spec's "exactly" counter-example: the dynamic program finds the split placement
    # (one known individual in each group) that pins the target
    release = ReleaseCandidate.from_groups([(4, list("cccc")), (2, list("ca"))])
    assert dp_breach_probability(release, "a", l=0, k=2, m=0, exact=True) == 1


def test_absent_values_amounts_and_errors():
    release = ReleaseCandidate.from_groups([(3, ["a", "b", "b"]), (2, ["b", "c"])])
    assert dp_breach_probability(release, "zzz", l=0, k=0, m=0, exact=True) == 0
    assert dp_breach_probability(release, "zzz", l=0, k=0, m=0) == 0.0
    # amounts above what the release holds are capped like breach_probability caps them
    assert dp_breach_probability(release, "a", l=10**9, k=10**9, m=0, exact=True) == \
        breach_probability(release, "a", l=10**9, k=10**9, m=0, exact=True)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'k' parameter of dp_breach_probability must be a "
                             r"non-negative integer. Got -1 instead."):
        dp_breach_probability(release, "a", l=0, k=-1, m=0)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'release' parameter of dp_breach_probability must be a "
                             r"ReleaseCandidate. Got 'list' instead."):
        dp_breach_probability([], "a", l=0, k=0, m=0)
    big = ReleaseCandidate.from_groups([(600, ["a"] * 300 + ["b"] * 300)])
    with pytest.raises(InvalidParameterError,
                       match=rf"needs \(k \+ 1\)\(m \+ 1\) = 90601 states per group, more "
                             rf"than {DP_MAX_STATES}; use breach_probability"):
        dp_breach_probability(big, "a", l=0, k=300, m=300)


def test_float_program_on_a_section_8_1_release():
    # 20 uniform values, groups of 100 (Sect. 8.1), at the paper's (10, 10, 10)
    rng = np.random.default_rng(0)
    counts = np.stack([rng.multinomial(100, [1 / 20] * 20) for _ in range(30)])
    release = ReleaseCandidate.from_counts(np.full(30, 100), counts,
                                           [f"v{i}" for i in range(20)])
    for sigma in ("v0", "v7"):
        expected = breach_probability(release, sigma, l=10, k=10, m=10)
        assert dp_breach_probability(release, sigma, l=10, k=10, m=10) == pytest.approx(
            expected, rel=1e-9)
        assert not math.isnan(expected)
