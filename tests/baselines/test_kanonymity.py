"""k-anonymity and Proposition 3 (skyprivacy/baselines/kanonymity.py): reference values,
the skyline equivalence on seeded, Hypothesis and brute-force releases, every error message."""
import dataclasses
import json
import random
import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import breach_grid

from skyprivacy import InvalidParameterError, ReleaseCandidate, breach_probability, skyline_check
from skyprivacy.baselines import (
    IDENTITY_RELEASE_MAX_CELLS,
    KAnonymityResult,
    identity_release,
    k_anonymity,
    k_anonymity_level,
    k_anonymity_policy,
)
from skyprivacy.knowledge import SkylinePoint

from .strategies import MVPI, SVPI, groups_strategy, table_release


def raises(message):
    return pytest.raises(InvalidParameterError, match=re.escape(message))


# ----------------------------------------------------------------------------- reference
def test_k_anonymity_reference_and_frame():
    release = table_release()  # groups (2*,F)=3, (3*,M)=2, (4*,F)=2, (4*,M)=2
    result = k_anonymity(release, k=3)
    assert isinstance(result, KAnonymityResult)
    assert (result.k, result.safe, result.level) == (3, False, 2)
    assert result.worst_group == ("3*", "M")
    assert result.violating_groups == (("3*", "M"), ("4*", "F"), ("4*", "M"))
    frame = result.to_frame()
    assert frame.index.equals(release.group_labels)
    assert list(frame.columns) == ["n_individuals", "safe"]
    assert frame["n_individuals"].tolist() == [3, 2, 2, 2]
    assert frame["safe"].tolist() == [True, False, False, False]
    assert k_anonymity(release, k=2).safe and k_anonymity(release, k=1).safe
    assert k_anonymity_level(release) == 2


def test_k_anonymity_counts_individuals_not_value_occurrences_in_mvpi():
    release = ReleaseCandidate.from_groups([(2, ["a", "b", "c", "d"]), (3, ["a"])],
                                           semantics="mvpi-multiset")
    result = k_anonymity(release, k=3)
    assert result.level == 2 and not result.safe and result.worst_group == 0


def test_k_anonymity_result_is_frozen_native_and_json_friendly(table1b):
    result = k_anonymity(table1b, k=np.int64(4))
    assert result.k == 4 and type(result.k) is int
    assert type(result.level) is int and type(result.safe) is bool
    assert all(type(n) is int for n in result.group_sizes)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.k = 2
    assert json.loads(json.dumps(result.to_dict())) == {
        "criterion": "k-anonymity", "k": 4, "safe": True, "satisfied": True, "level": 4,
        "worst_group": "0", "violating_groups": []}
    assert repr(result) == "KAnonymityResult(k=4, safe=True, level=4, worst_group=0)"


def test_k_anonymity_policy_and_identity_release():
    assert k_anonymity_policy(5).default.points == (SkylinePoint(0, 3, 0, 1),)
    assert k_anonymity_policy(2).default.points[0].c_exact == 1
    ident = identity_release(table_release())
    assert ident.semantics == "svpi"
    assert ident.group_labels.equals(table_release().group_labels)
    assert ident.values == tuple(range(9))
    assert ident.count_matrix.sum(axis=0).tolist() == [1] * 9  # everyone is their own value
    assert ident.sizes_array.tolist() == [3, 2, 2, 2]
    assert (ident.count_matrix.sum(axis=1) == ident.sizes_array).all()
    from_sizes = identity_release(np.array([1, 3]))
    assert from_sizes.count_matrix.tolist() == [[1, 0, 0, 0], [0, 1, 1, 1]]
    assert identity_release((2,)).group_labels.tolist() == [0]


def test_identity_release_of_mvpi_release_uses_individuals():
    release = ReleaseCandidate.from_groups([(2, ["a", "a", "b"]), (1, [])],
                                           semantics="mvpi-multiset")
    assert identity_release(release).sizes_array.tolist() == [2, 1]


def test_identity_release_keeps_multiindex_label_names():
    release = table_release()
    assert identity_release(release).group_labels.names == release.group_labels.names


@settings(max_examples=150)
@given(groups_strategy(), st.integers(1, 7))
def test_k_matches_the_definition(groups, level):
    release = ReleaseCandidate.from_groups(groups)
    assert k_anonymity(release, k=level).safe == all(n >= level for n, _ in groups)
    assert k_anonymity_level(release) == min(n for n, _ in groups)


# ----------------------------------------------------------------------------- Prop. 3
def _prop3_agrees(sizes, k):
    release = ReleaseCandidate.from_groups([(n, ["x"] * n) for n in sizes])
    direct = k_anonymity(release, k=k).safe
    skyline = skyline_check(identity_release(release), k_anonymity_policy(k))
    assert skyline.safe == direct, (sizes, k, skyline.explain())
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
        assert (worst < 1) == k_anonymity(release, k=k).safe == (min(sizes) >= k)


# ----------------------------------------------------------------------------- errors
def test_k_anonymity_accepts_mvpi():
    assert k_anonymity(MVPI, k=2).safe


@pytest.mark.parametrize("k, shown", [(0, "0"), (-3, "-3"), (np.int64(0), "0"), (2.0, "2.0"),
                                      (True, "True"), ("3", "'3'"), (None, "None")])
def test_k_must_be_a_positive_integer(k, shown):
    with raises(f"The 'k' parameter of k_anonymity must be a positive integer. "
                f"Got {shown} instead."):
        k_anonymity(SVPI, k=k)


@pytest.mark.parametrize("k, shown", [(1, "1"), (0, "0"), (2.5, "2.5"), (False, "False")])
def test_k_anonymity_policy_needs_k_at_least_2(k, shown):
    with raises(f"The 'k' parameter of k_anonymity_policy must be an integer >= 2. "
                f"Got {shown} instead."):
        k_anonymity_policy(k)


@pytest.mark.parametrize("bad, shown", [("abc", "'abc'"), (5, "5"), (None, "None"),
                                        ([], "[]"), ([2, 0], "[2, 0]"), ([2.5], "[2.5]"),
                                        ([True], "[True]"), (np.array([3, -1]), "[3, -1]")])
def test_identity_release_needs_a_release_or_sizes(bad, shown):
    with raises(f"The 'release_or_sizes' parameter of identity_release must be a "
                f"ReleaseCandidate or a non-empty sequence of positive integer group sizes. "
                f"Got {shown} instead."):
        identity_release(bad)


def test_identity_release_refuses_a_huge_matrix():
    sizes = [1] * 4000  # 4000 groups x 4000 individuals = 16,000,000 cells
    assert 4000 * 4000 > IDENTITY_RELEASE_MAX_CELLS
    with raises("The identity release of 4000 groups and 4000 individuals needs a 4000 x 4000 "
                "count matrix, more than 10,000,000 cells; use k_anonymity(release, k=k), which "
                "gives the same verdict in O(groups)."):
        identity_release(sizes)
