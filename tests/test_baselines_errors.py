"""Every user-facing error of skyprivacy.baselines, asserted word for word."""
import re
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from skyprivacy import InvalidParameterError, ReleaseCandidate
from skyprivacy.baselines import (
    IDENTITY_RELEASE_MAX_CELLS,
    cl_diversity_policy,
    distinct_l_diversity,
    distinct_l_diversity_level,
    entropy_l_diversity,
    entropy_l_diversity_level,
    identity_release,
    k_anonymity,
    k_anonymity_level,
    k_anonymity_policy,
    recursive_cl_diversity,
    recursive_cl_diversity_threshold,
    t_closeness,
    t_closeness_level,
)

SVPI = ReleaseCandidate.from_groups([(2, ["a", "b"]), (3, ["a", "b", "c"])])
MVPI = ReleaseCandidate.from_groups([(2, ["a", "b", "b"])], semantics="mvpi-set")


def raises(message):
    return pytest.raises(InvalidParameterError, match=re.escape(message))


@pytest.mark.parametrize("call, owner", [
    (lambda r: k_anonymity(r, 2), "k_anonymity"),
    (k_anonymity_level, "k_anonymity_level"),
    (lambda r: distinct_l_diversity(r, 2), "distinct_l_diversity"),
    (distinct_l_diversity_level, "distinct_l_diversity_level"),
    (lambda r: entropy_l_diversity(r, 2), "entropy_l_diversity"),
    (entropy_l_diversity_level, "entropy_l_diversity_level"),
    (lambda r: recursive_cl_diversity(r, 2, 2), "recursive_cl_diversity"),
    (lambda r: recursive_cl_diversity_threshold(r, 2), "recursive_cl_diversity_threshold"),
    (lambda r: t_closeness(r, 0.5), "t_closeness"),
    (t_closeness_level, "t_closeness_level"),
])
def test_release_must_be_a_release_candidate(call, owner):
    with raises(f"The 'release' parameter of {owner} must be a ReleaseCandidate. "
                f"Got DataFrame instead."):
        call(pd.DataFrame({"s": ["a"]}))


@pytest.mark.parametrize("call, owner", [
    (lambda r: distinct_l_diversity(r, 2), "distinct_l_diversity"),
    (distinct_l_diversity_level, "distinct_l_diversity_level"),
    (lambda r: entropy_l_diversity(r, 2), "entropy_l_diversity"),
    (entropy_l_diversity_level, "entropy_l_diversity_level"),
    (lambda r: recursive_cl_diversity(r, 2, 2), "recursive_cl_diversity"),
    (lambda r: recursive_cl_diversity_threshold(r, 2), "recursive_cl_diversity_threshold"),
])
def test_l_diversity_rejects_mvpi(call, owner):
    with raises(f"The 'release' parameter of {owner} must have semantics 'svpi' (l-diversity "
                f"gives every individual exactly one sensitive value). Got 'mvpi-set' instead."):
        call(MVPI)


@pytest.mark.parametrize("call, owner", [
    (lambda r: t_closeness(r, 0.5), "t_closeness"),
    (t_closeness_level, "t_closeness_level"),
])
def test_t_closeness_rejects_mvpi(call, owner):
    multiset = ReleaseCandidate.from_groups([(1, ["a", "a"])], semantics="mvpi-multiset")
    with raises(f"The 'release' parameter of {owner} must have semantics 'svpi' (t-closeness "
                f"compares distributions of one sensitive value per individual). "
                f"Got 'mvpi-multiset' instead."):
        call(multiset)


def test_k_anonymity_accepts_mvpi():
    assert k_anonymity(MVPI, 2).satisfied


@pytest.mark.parametrize("k, shown", [(0, "0"), (-3, "-3"), (np.int64(0), "0"), (2.0, "2.0"),
                                      (True, "True"), ("3", "'3'"), (None, "None")])
def test_k_must_be_a_positive_integer(k, shown):
    with raises(f"The 'k' parameter of k_anonymity must be a positive integer. "
                f"Got {shown} instead."):
        k_anonymity(SVPI, k)


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
                "count matrix, more than 10,000,000 cells; use k_anonymity(release, k), which "
                "gives the same verdict in O(groups)."):
        identity_release(sizes)


@pytest.mark.parametrize("call, owner", [(distinct_l_diversity, "distinct_l_diversity"),
                                         (lambda r, l: recursive_cl_diversity(r, 2, l),
                                          "recursive_cl_diversity"),
                                         (recursive_cl_diversity_threshold,
                                          "recursive_cl_diversity_threshold")])
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
        entropy_l_diversity(SVPI, l)


@pytest.mark.parametrize("owner, call", [
    ("recursive_cl_diversity", lambda c: recursive_cl_diversity(SVPI, c, 2)),
    ("cl_diversity_policy", lambda c: cl_diversity_policy(c, 2)),
])
@pytest.mark.parametrize("c, shown", [(0, "0"), (-1.5, "-1.5"), (float("nan"), "nan"),
                                      (float("-inf"), "-inf"), ("2", "'2'"), (None, "None"),
                                      (False, "False"), (np.float64(0.0), "0.0")])
def test_c_must_be_positive(owner, call, c, shown):
    with raises(f"The 'c' parameter of {owner} must be a positive number. Got {shown} instead."):
        call(c)


@pytest.mark.parametrize("l, shown", [(1, "1"), (0, "0"), (2.0, "2.0")])
def test_cl_diversity_policy_needs_l_at_least_2(l, shown):
    with raises(f"The 'l' parameter of cl_diversity_policy must be an integer >= 2. "
                f"Got {shown} instead."):
        cl_diversity_policy(2, l)


@pytest.mark.parametrize("t, shown", [(1.5, "1.5"), (-0.1, "-0.1"), (2, "2"),
                                      (float("nan"), "nan"), ("0.5", "'0.5'"), (True, "True"),
                                      (Fraction(3, 2), "Fraction(3, 2)")])
def test_t_must_be_in_unit_interval(t, shown):
    with raises(f"The 't' parameter of t_closeness must be in [0, 1]. Got {shown} instead."):
        t_closeness(SVPI, t)


@pytest.mark.parametrize("ordered, shown", [("abc", "'abc'"), (5, "5"), (False, "False")])
def test_ordered_must_be_none_true_or_a_sequence(ordered, shown):
    with raises(f"The 'ordered' parameter of t_closeness must be None, True or a sequence of "
                f"the sensitive values in order. Got {shown} instead."):
        t_closeness(SVPI, 0.5, ordered=ordered)


def test_ordered_values_must_be_hashable_distinct_and_cover_the_release():
    with raises("The 'ordered' parameter of t_closeness must hold hashable sensitive values. "
                "Got ['b'] instead."):
        t_closeness(SVPI, 0.5, ordered=["a", ["b"], "c"])
    with raises("The 'ordered' parameter of t_closeness must list each value once. "
                "Got 'a' more than once instead."):
        t_closeness(SVPI, 0.5, ordered=["a", "b", "a", "c"])
    with raises("The 'ordered' parameter of t_closeness_level must list every sensitive value "
                "of the release. Got an order without ['b', 'c'] instead."):
        t_closeness_level(SVPI, ordered=["a", "z"])


def test_ordered_true_needs_sortable_values():
    mixed = ReleaseCandidate.from_groups([(2, [1, "a"])])
    with raises("The 'ordered' parameter of t_closeness can be True only when the release's "
                "sensitive values can be sorted. Got values [1, 'a'] instead."):
        t_closeness(mixed, 0.5, ordered=True)
    table = pd.DataFrame({"g": [0, 0], "s": [1.0, np.nan]})
    with_nan = ReleaseCandidate.from_table(table, group="g", sensitive="s", missing="as_value")
    with raises("The 'ordered' parameter of t_closeness can be True only when the release's "
                "sensitive values can be sorted. Got values [1.0, nan] instead."):
        t_closeness(with_nan, 0.5, ordered=True)
    # an explicit order may place the missing marker itself
    assert t_closeness(with_nan, 1, ordered=[np.nan, 1.0]).satisfied


def test_errors_are_value_errors():
    with pytest.raises(ValueError):
        k_anonymity(SVPI, 0)
