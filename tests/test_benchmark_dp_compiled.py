"""The compiled dynamic program of the Fig. 6 benchmark (benchmarks/competitors/dp_compiled.py)
against the readable reference (skyprivacy.baselines.dp_breach_probability), Theorem 2
(skyprivacy.breach_probability) and the brute-force oracle: a competitor is only fair if it
computes the same number.  numba comes with the test extra, so this runs wherever the suite
does; no time is asserted."""
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from baselines.test_dynamic import SEMANTICS, larger_release
from oracle import breach_grid
from test_oracle_agreement import SPEC_TABLE

from skyprivacy import Policy, ReleaseCandidate, breach_probability, skyline_check
from skyprivacy.baselines import dp_breach_probability

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "competitors"))
from dp_compiled import compiled_dp_breach_probability  # noqa: E402

REL = 1e-12


def same_verdicts(got: float, exact: Fraction, cs=(Fraction(1, 2), Fraction(9, 10))) -> bool:
    """got < c and exact < c agree for every c not within float reach of the exact value."""
    return all((got < c) == (exact < c) for c in cs if abs(exact - c) > Fraction(1, 10**9))


@pytest.mark.parametrize("semantics", SEMANTICS)
def test_equals_the_reference_and_theorem_2_on_200_random_releases(semantics):
    rng = np.random.default_rng({"svpi": 41, "mvpi-set": 42, "mvpi-multiset": 43}[semantics])
    compared = pinned = 0
    for _ in range(200):
        release, names = larger_release(rng, semantics)
        for _ in range(2):
            sigma = names[int(rng.integers(0, len(names)))]
            l, k, m = int(rng.integers(0, 5)), int(rng.integers(0, 4)), int(rng.integers(0, 4))
            got = compiled_dp_breach_probability(release, sigma, l=l, k=k, m=m)
            reference = dp_breach_probability(release, sigma, l=l, k=k, m=m)
            exact = breach_probability(release, sigma, l=l, k=k, m=m, exact=True)
            assert got == pytest.approx(reference, rel=REL, abs=0)
            assert got == pytest.approx(float(exact), rel=REL, abs=0)
            assert same_verdicts(got, exact)
            compared += 1
            pinned += exact == 1
    assert compared == 400
    assert 0 < pinned < compared  # both regimes were exercised


@pytest.mark.parametrize("semantics", SEMANTICS)
def test_equals_the_brute_force_oracle_on_tiny_releases(semantics):
    rng = np.random.default_rng({"svpi": 51, "mvpi-set": 52, "mvpi-multiset": 53}[semantics])
    for _ in range(10):  # the oracle enumerates reconstructions: a minute for 25 multisets
        groups = []
        for _ in range(int(rng.integers(1, 4))):
            n = int(rng.integers(1, 4))
            if semantics == "svpi":
                values = [str(v) for v in rng.choice(list("abc"), n)]
            else:
                top = n if semantics == "mvpi-set" else n + 1
                values = [v for v in "abc" for _ in range(int(rng.integers(0, top + 1)))]
                values = values or ["b"]
            groups.append((n, values))
        release = ReleaseCandidate.from_groups(groups, semantics=semantics)
        for (l, k, m), value in breach_grid(groups, "a", semantics, 2, 2, 2).items():
            got = compiled_dp_breach_probability(release, "a", l=l, k=k, m=m)
            assert got == pytest.approx(float(value), rel=REL, abs=0)
            assert same_verdicts(got, value)


@pytest.mark.parametrize("semantics,groups,sigma,expected", SPEC_TABLE)
def test_the_spec_worked_values(semantics, groups, sigma, expected):
    release = ReleaseCandidate.from_groups([(n, v.split()) for n, v in groups],
                                           semantics=semantics)
    for (l, k, m), value in expected.items():
        assert compiled_dp_breach_probability(release, sigma, l=l, k=k, m=m) == pytest.approx(
            float(Fraction(value)), rel=REL, abs=0)


def test_it_distributes_the_known_individuals_and_handles_absent_values():
    release = ReleaseCandidate.from_groups([(4, list("cccc")), (2, list("ca"))])
    assert compiled_dp_breach_probability(release, "a", l=0, k=2, m=0) == 1.0
    assert compiled_dp_breach_probability(release, "zzz", l=0, k=0, m=0) == 0.0


@pytest.mark.parametrize("point", [(10, 10, 10), (0, 10, 10), (16, 10, 10), (10, 0, 10),
                                   (10, 32, 10), (10, 10, 0), (10, 10, 16)])
def test_equals_the_reference_on_a_section_8_1_release(point):
    # Sect. 8.1: 20 uniform values, groups of 100; the panels' extreme points and (10, 10, 10)
    l, k, m = point
    rng = np.random.default_rng(0)
    counts = np.stack([rng.multinomial(100, [1 / 20] * 20) for _ in range(40)])
    names = [f"v{i:02d}" for i in range(20)]
    release = ReleaseCandidate.from_counts(np.full(40, 100), counts, names)
    got = {}
    for sigma in names:
        got[sigma] = compiled_dp_breach_probability(release, sigma, l=l, k=k, m=m)
        assert got[sigma] == pytest.approx(breach_probability(release, sigma, l=l, k=k, m=m),
                                           rel=REL, abs=0)
    for sigma in names[:3]:  # the interpreted reference is slow at k = 32: three values
        assert got[sigma] == pytest.approx(dp_breach_probability(release, sigma, l=l, k=k, m=m),
                                           rel=REL, abs=0)
    for c in (0.5, 0.9):
        safe = skyline_check(release, Policy.uniform([(l, k, m, c)])).safe
        assert all(bp < c for bp in got.values()) == bool(safe)
