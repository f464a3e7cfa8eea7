"""SkylineFind: equal to exhaustive search, maximal, minimal-unsafe frontier, all values."""
import random
import re
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from skyprivacy import (
    InvalidParameterError,
    ReleaseCandidate,
    breach_probability,
    compare_l_diversity,
    skyline_find,
    skyline_find_all,
)
from skyprivacy.find import exhaustive_skyline, skyline_find_paper

# absent values are part of every property's domain; their UnknownValueWarning is tested in
# test_sparse_kernel.py
pytestmark = pytest.mark.filterwarnings("ignore::skyprivacy.UnknownValueWarning")


def random_release(rng: random.Random, semantics: str) -> ReleaseCandidate:
    while True:
        groups = []
        for _ in range(rng.randint(1, 3)):
            n = rng.randint(1, 5)
            if semantics == "svpi":
                values = [rng.choice("abcd") for _ in range(n)]
            elif semantics == "mvpi-set":
                values = [v for v in "abcd" for _ in range(rng.randint(0, min(n, 2)))]
            else:
                values = [rng.choice("abcd") for _ in range(rng.randint(0, 2 * n))]
            groups.append((n, values))
        if any(v for _, v in groups):
            return ReleaseCandidate.from_groups(groups, semantics=semantics)


def grid_verdicts(release, sigma, c, bounds):
    l_max, k_max, m_max = bounds
    return {(l, k, m): breach_probability(release, sigma, l=l, k=k, m=m, exact=True) < c
            for l in range(l_max + 1) for k in range(k_max + 1) for m in range(m_max + 1)}


@pytest.mark.parametrize("semantics", ["svpi", "mvpi-set", "mvpi-multiset"])
def test_equals_exhaustive_search_and_frontiers(semantics):
    rng = random.Random(semantics)
    for _ in range(40):
        release = random_release(rng, semantics)
        sigma = rng.choice("abce")
        c = Fraction(rng.choice([1, 2, 3, 5, 7, 9, 10]), 10)
        skyline = skyline_find(release, sigma, c=c)
        verdict = grid_verdicts(release, sigma, c, skyline.bounds)
        safe = {p for p, ok in verdict.items() if ok}
        unsafe = set(verdict) - safe
        maximal = {p for p in safe if not any(q != p and all(a >= b for a, b in zip(q, p))
                                              for q in safe)}
        minimal = {p for p in unsafe if not any(q != p and all(a <= b for a, b in zip(q, p))
                                                for q in unsafe)}
        assert set(skyline.points) == maximal
        assert set(skyline.minimal_unsafe) == minimal
        # every point safe; one step up in any dimension unsafe or outside the box
        for l, k, m in skyline.points:
            assert verdict[(l, k, m)]
            for up in ((l + 1, k, m), (l, k + 1, m), (l, k, m + 1)):
                assert not verdict.get(up, False)
        # no point dominates another
        for p in skyline.points:
            assert not any(q != p and all(a >= b for a, b in zip(q, p)) for q in skyline.points)
        for p, ok in verdict.items():
            assert skyline.is_safe(*p) == ok


def test_bounds_follow_the_release():
    release = ReleaseCandidate.from_groups([(4, list("aabc")), (3, list("abd"))])
    skyline = skyline_find(release, "a", c=0.99)
    assert skyline.bounds == (3, 6, 6)  # 3 other values, 6 other individuals
    absent = skyline_find(release, "zzz", c=0.5)
    assert absent.points == ((4, 6, 6),) and absent.minimal_unsafe == ()
    assert absent.exposure is None


def test_unsafe_without_knowledge_gives_an_empty_skyline():
    release = ReleaseCandidate.from_groups([(1, ["a"]), (3, list("bcd"))])
    skyline = skyline_find(release, "a", c=0.9)
    assert skyline.points == () and skyline.minimal_unsafe == ((0, 0, 0),)
    assert skyline.exposure == 0
    assert skyline.to_frame().empty


def test_paper_algorithm_agrees_and_costs_more():
    rng = np.random.default_rng(3)
    groups = []
    for _ in range(30):
        n = int(rng.integers(8, 30))
        groups.append((n, list(rng.choice(list("abcdef"), n, p=[.3, .2, .2, .1, .1, .1]))))
    release = ReleaseCandidate.from_groups(groups)
    for sigma in "abf":
        fast = skyline_find(release, sigma, c=0.8)
        assert fast.points == skyline_find_paper(release, sigma, c=0.8)
    assert fast.evaluations < 200


def test_exhaustive_helper_matches():
    release = ReleaseCandidate.from_groups([(5, list("aabbc")), (4, list("abcc"))])
    skyline = skyline_find(release, "a", c=0.75)
    assert exhaustive_skyline(release, "a", c=0.75, bounds=skyline.bounds) == skyline.points


def test_exact_boundary_is_respected():
    # BP(0, 1, 0) = 2/3 exactly: c = 2/3 makes (0, 1, 0) unsafe, c just above makes it safe
    release = ReleaseCandidate.from_groups([(4, ["AIDS", "AIDS", "Flu", "Flu"]),
                                            (4, ["AIDS", "Cancer", "Flu", "Flu"])])
    assert not skyline_find(release, "AIDS", c=Fraction(2, 3)).is_safe(0, 1, 0)
    assert skyline_find(release, "AIDS", c=Fraction(2, 3) + Fraction(1, 10**12)).is_safe(0, 1, 0)


def test_find_all_orders_values_by_exposure_and_explains():
    release = ReleaseCandidate.from_groups([(4, ["AIDS", "AIDS", "Flu", "Flu"]),
                                            (4, ["AIDS", "Cancer", "Flu", "Flu"])])
    result = skyline_find_all(release, c=0.7)
    assert [s.value for s in result] == ["AIDS", "Flu", "Cancer"]
    assert result["AIDS"].points == ((0, 1, 0),)
    frame = result.to_frame()
    assert list(frame.columns) == ["value", "rank", "exposure", "breach_probability_000", "l",
                                   "k", "m", "c"]
    summary = result.summary()
    assert summary.loc[0, "least_breaching_knowledge"] == (0, 0, 1)
    assert "same-value family" in summary.loc[0, "worst_case"]
    assert set(result.worst_cases) == {"AIDS", "Flu", "Cancer"}
    seen = []
    skyline_find_all(release, c=0.7, progress=seen.append)
    assert seen == [1 / 3, 2 / 3, 1.0]
    with pytest.raises(KeyError):
        result["Measles"]
    assert result.to_dict()["c"] == "7/10"


def test_compare_l_diversity_on_a_synthetic_table():
    rng = np.random.default_rng(0)
    n = 600
    table = pd.DataFrame({"age": rng.integers(20, 70, n), "zip": rng.integers(100, 140, n),
                          "job": rng.choice(list("ABCDEFG"), n,
                                            p=[.25, .2, .15, .15, .1, .1, .05])})
    comparison = compare_l_diversity(table, qi=["age", "zip"], sensitive="job", diversity_c=3, l=3,
                                     c=0.9)
    assert comparison.diversity.safe
    assert len(comparison.skylines) == 7
    text = comparison.report()
    assert text.startswith("The release is recursive (3, 3)-diverse")
    assert "breached with" in text
    assert list(comparison.to_frame()["value"]) == [s.value for s in comparison.skylines]


def test_errors():
    release = ReleaseCandidate.from_groups([(2, ["a", "b"])])
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'c' parameter of skyline_find must be in (0, 1]. Got 1.2 instead.")):
        skyline_find(release, "a", c=1.2)
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'release' parameter of skyline_find must be a ReleaseCandidate. "
            "Got list instead.")):
        skyline_find([], "a", c=0.5)
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'release' parameter of skyline_find_all must be a ReleaseCandidate.")):
        skyline_find_all(None, c=0.5)
    skyline = skyline_find(release, "a", c=0.9)
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'k' parameter of KnowledgeSkyline.is_safe must be at most the searched "
            "bound 1. Got 5 instead.")):
        skyline.is_safe(0, 5, 0)
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'l' parameter of KnowledgeSkyline.is_safe must be a non-negative integer. "
            "Got -1 instead.")):
        skyline.is_safe(-1, 0, 0)
