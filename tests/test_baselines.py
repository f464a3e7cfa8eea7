"""Baselines: reference values, per-group tables, worst groups and exact boundaries."""
import dataclasses
import json
import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from skyprivacy import ReleaseCandidate
from skyprivacy.baselines import (
    DistinctLDiversityResult,
    EntropyLDiversityResult,
    KAnonymityResult,
    RecursiveCLDiversityResult,
    TClosenessResult,
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
from skyprivacy.knowledge import SkylinePoint

# Table 1b of Chen et al. (2009): two groups of four.
TABLE1B = ReleaseCandidate.from_groups([(4, ["AIDS", "AIDS", "Flu", "Flu"]),
                                        (4, ["AIDS", "Cancer", "Flu", "Flu"])])
# Li, Li and Venkatasubramanian (2007): salaries 3k..11k, three groups of three.
SALARY = ReleaseCandidate.from_groups([(3, [3, 4, 5]), (3, [6, 8, 11]), (3, [7, 9, 10])])


def _table_release():
    table = pd.DataFrame({"age": ["2*", "2*", "2*", "3*", "3*", "4*", "4*", "4*", "4*"],
                          "sex": ["F", "F", "F", "M", "M", "M", "M", "F", "F"],
                          "disease": ["flu", "hiv", "flu", "flu", "flu", "gout", "hiv", "flu",
                                      "cold"]})
    return ReleaseCandidate.from_table(table, qi=["age", "sex"], sensitive="disease")


# ----------------------------------------------------------------------------- k-anonymity
def test_k_anonymity_reference_and_frame():
    release = _table_release()  # groups (2*,F)=3, (3*,M)=2, (4*,F)=2, (4*,M)=2
    result = k_anonymity(release, 3)
    assert isinstance(result, KAnonymityResult)
    assert (result.k, result.satisfied, result.level) == (3, False, 2)
    assert result.worst_group == ("3*", "M")
    assert result.violating_groups == (("3*", "M"), ("4*", "F"), ("4*", "M"))
    frame = result.to_frame()
    assert frame.index.equals(release.group_labels)
    assert list(frame.columns) == ["n_individuals", "ok"]
    assert frame["n_individuals"].tolist() == [3, 2, 2, 2]
    assert frame["ok"].tolist() == [True, False, False, False]
    assert k_anonymity(release, 2).satisfied and k_anonymity(release, 1).satisfied
    assert k_anonymity_level(release) == 2


def test_k_anonymity_counts_individuals_not_value_occurrences_in_mvpi():
    release = ReleaseCandidate.from_groups([(2, ["a", "b", "c", "d"]), (3, ["a"])],
                                           semantics="mvpi-multiset")
    result = k_anonymity(release, 3)
    assert result.level == 2 and not result.satisfied and result.worst_group == 0


def test_k_anonymity_result_is_frozen_native_and_json_friendly():
    result = k_anonymity(TABLE1B, np.int64(4))
    assert result.k == 4 and type(result.k) is int
    assert type(result.level) is int and type(result.satisfied) is bool
    assert all(type(n) is int for n in result.group_sizes)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.k = 2
    assert json.loads(json.dumps(result.to_dict())) == {
        "criterion": "k-anonymity", "k": 4, "satisfied": True, "level": 4, "worst_group": "0",
        "violating_groups": []}
    assert repr(result) == "KAnonymityResult(k=4, satisfied=True, level=4, worst_group=0)"


def test_k_anonymity_policy_and_identity_release():
    assert k_anonymity_policy(5).default.points == (SkylinePoint(0, 3, 0, 1),)
    assert k_anonymity_policy(2).default.points[0].c_exact == 1
    ident = identity_release(_table_release())
    assert ident.semantics == "svpi"
    assert ident.group_labels.equals(_table_release().group_labels)
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


# ----------------------------------------------------------------------------- l-diversity
def test_distinct_l_diversity_reference():
    release = _table_release()  # (2*,F): flu hiv flu; (3*,M): flu flu; (4*,F): flu cold; ...
    result = distinct_l_diversity(release, 2)
    assert isinstance(result, DistinctLDiversityResult)
    assert (result.satisfied, result.level, result.worst_group) == (False, 1, ("3*", "M"))
    frame = result.to_frame()
    assert list(frame.columns) == ["n_individuals", "distinct_values", "ok"]
    assert frame["distinct_values"].tolist() == [2, 1, 2, 2]
    assert frame["ok"].tolist() == [True, False, True, True]
    assert distinct_l_diversity(release, 1).satisfied
    assert distinct_l_diversity_level(release) == 1
    assert distinct_l_diversity(TABLE1B, 2).satisfied
    assert not distinct_l_diversity(TABLE1B, 3).satisfied
    assert distinct_l_diversity(TABLE1B, 3).violating_groups == (0,)


def test_entropy_l_diversity_reference_values():
    release = ReleaseCandidate.from_groups([(3, ["flu", "hiv", "cold"]),
                                            (4, ["flu", "flu", "hiv", "cold"]),
                                            (2, ["flu", "flu"])])
    result = entropy_l_diversity(release, 2)
    assert isinstance(result, EntropyLDiversityResult)
    # H = log 3; -(1/2 log 1/2 + 2 * 1/4 log 1/4) = 1.5 log 2; 0
    assert result.entropies[0] == pytest.approx(math.log(3), abs=1e-12)
    assert result.entropies[1] == pytest.approx(1.5 * math.log(2), abs=1e-12)
    assert result.entropies[2] == 0.0
    assert result.effective_values == (3.0, pytest.approx(2 ** 1.5), 1.0)
    assert result.ok == (True, True, False)
    assert (result.satisfied, result.worst_group, result.level) == (False, 2, 1.0)
    frame = result.to_frame()
    assert list(frame.columns) == ["n_individuals", "entropy", "entropy_l", "ok"]
    assert frame["entropy_l"].iloc[0] == 3.0


def test_entropy_boundary_is_exact():
    # l equally frequent values: entropy == log l exactly, and must pass at l, fail just above.
    for d in (2, 3, 5, 7, 10):
        for size in (1, 3, 100):
            release = ReleaseCandidate.from_groups([(d * size, list(range(d)) * size)])
            assert entropy_l_diversity(release, d).satisfied
            assert not entropy_l_diversity(release, Fraction(d) + Fraction(1, 10 ** 15)).satisfied
            assert entropy_l_diversity(release, Fraction(d) - Fraction(1, 10 ** 15)).satisfied
            assert entropy_l_diversity_level(release) == d
    # counts (1, 1, 2): exp(H) = 2^(3/2), irrational; a float just below passes, above fails
    release = ReleaseCandidate.from_groups([(4, ["a", "b", "c", "c"])])
    level = entropy_l_diversity_level(release)
    assert level == pytest.approx(2 ** 1.5, rel=1e-15)
    assert entropy_l_diversity(release, level).satisfied
    assert not entropy_l_diversity(release, math.nextafter(level, 3.0) + 1e-15).satisfied
    # float l is read as the decimal it prints
    assert entropy_l_diversity(ReleaseCandidate.from_groups([(4, list("abcd"))]), 4.0).satisfied


def test_recursive_cl_diversity_reference():
    # counts sorted: (3*F-like) group 0: flu 5, hiv 2, cold 2, gout 1 -> r1=5
    release = ReleaseCandidate.from_groups([
        (10, ["flu"] * 5 + ["hiv"] * 2 + ["cold"] * 2 + ["gout"]),
        (6, ["flu", "flu", "hiv", "hiv", "cold", "gout"])])
    result = recursive_cl_diversity(release, 2, 3)
    assert isinstance(result, RecursiveCLDiversityResult)
    # group 0: 5 < 2 * (2 + 1) = 6 holds; group 1: 2 < 2 * (1 + 1) holds
    assert result.top_counts == (5, 2) and result.tail_counts == (3, 2)
    assert result.ratios == (Fraction(5, 3), Fraction(1))
    assert result.ok == (True, True) and result.satisfied
    assert result.threshold == Fraction(5, 3) and result.worst_group == 0
    frame = result.to_frame()
    assert list(frame.columns) == ["n_individuals", "top_count", "tail_count", "ratio", "ok"]
    assert frame["ratio"].tolist() == pytest.approx([5 / 3, 1.0])
    # boundary: c = 5/3 exactly fails (strict <); just above passes
    assert not recursive_cl_diversity(release, Fraction(5, 3), 3).satisfied
    assert recursive_cl_diversity(release, Fraction(5, 3) + Fraction(1, 10 ** 12), 3).satisfied
    assert recursive_cl_diversity_threshold(release, 3) == Fraction(5, 3)
    # l = 1: r1 < c * n
    assert recursive_cl_diversity(release, Fraction(1, 2), 1).threshold == Fraction(1, 2)


def test_recursive_cl_diversity_fewer_than_l_values_fails_for_every_c():
    release = ReleaseCandidate.from_groups([(3, ["a", "b", "c"]), (4, ["a", "a", "b", "b"])])
    result = recursive_cl_diversity(release, 10 ** 9, 3)
    assert not result.satisfied and result.threshold == math.inf
    assert result.worst_group == 1 and result.ok == (True, False)
    assert result.ratios[1] == math.inf
    assert result.to_frame()["ratio"].tolist() == [1.0, math.inf]
    assert result.to_dict()["threshold"] == "inf"


def test_recursive_float_c_is_read_as_its_decimal():
    # r1 = 3, tail = 4: 3 < 0.75 * 4 = 3 is false exactly (0.75 is 3/4, not a binary double)
    release = ReleaseCandidate.from_groups([(7, ["a"] * 3 + ["b"] * 2 + ["c"] * 2)])
    result = recursive_cl_diversity(release, 0.75, 2)
    assert result.top_counts == (3,) and result.tail_counts == (4,)
    assert not result.satisfied
    assert recursive_cl_diversity(release, 0.7500000001, 2).satisfied
    assert result.c == 0.75 and result.to_dict()["c"] == 0.75
    assert recursive_cl_diversity(release, Fraction(3, 4), 2).to_dict()["c"] == "3/4"


def test_cl_diversity_policy_confidence_is_exact():
    assert cl_diversity_policy(3, 4).default.points == (SkylinePoint(2, 0, 0, Fraction(3, 4)),)
    assert cl_diversity_policy(0.75, 2).default.points[0].c_exact == Fraction(3, 7)
    assert cl_diversity_policy(Fraction(1, 3), 3).default.points[0].c_exact == Fraction(1, 4)
    assert cl_diversity_policy(0.1, 2).default.points[0].c_exact == Fraction(1, 11)


# ----------------------------------------------------------------------------- t-closeness
def test_t_closeness_ordered_reference_values_of_li_et_al():
    # Li et al. (2007): P1 = {3k, 4k, 5k} is at 0.375 from the uniform Q, P2 = {6k, 8k, 11k}
    # at 0.167 (= 1/6).
    result = t_closeness(SALARY, 0.375, ordered=True)
    assert isinstance(result, TClosenessResult)
    assert result.distances[:2] == (Fraction(3, 8), Fraction(1, 6))
    assert result.max_distance == Fraction(3, 8) and result.worst_group == 0
    assert result.satisfied and result.ground == "ordered"
    assert result.order == tuple(range(3, 12))
    assert not t_closeness(SALARY, 0.374, ordered=True).satisfied
    assert t_closeness(SALARY, 0.374, ordered=True).violating_groups == (0,)
    assert t_closeness_level(SALARY, ordered=True) == Fraction(3, 8)
    # an explicit order equal to the sorted values gives the same result
    explicit = t_closeness(SALARY, 0.375, ordered=list(range(3, 12)))
    assert explicit.distances == result.distances


def test_t_closeness_equal_distance_is_variational_distance():
    # every group has 3 of 9 distinct values: (1/2) * (3 * (1/3 - 1/9) + 6 * 1/9) = 2/3
    result = t_closeness(SALARY, Fraction(2, 3))
    assert result.ground == "equal" and result.order is None
    assert result.distances == (Fraction(2, 3),) * 3 and result.satisfied
    assert not t_closeness(SALARY, 0.66).satisfied
    frame = result.to_frame()
    assert list(frame.columns) == ["n_individuals", "distance", "ok"]
    assert frame["distance"].tolist() == pytest.approx([2 / 3] * 3)


def test_t_closeness_order_may_include_values_outside_the_release():
    # domain 1..5, release holds 1 and 5: V = 5 counts the whole domain
    release = ReleaseCandidate.from_groups([(2, [1, 1]), (2, [5, 5])])
    # P = (1, 0, 0, 0, 0), Q = (1/2, 0, 0, 0, 1/2): cumulative diffs 1/2 four times -> 2/4
    result = t_closeness(release, 1, ordered=[1, 2, 3, 4, 5])
    assert result.distances == (Fraction(1, 2), Fraction(1, 2))
    assert t_closeness(release, 1, ordered=True).distances == (Fraction(1, 2),) * 2
    # reversing the order does not change the ordered distance
    assert t_closeness(release, 1, ordered=[5, 4, 3, 2, 1]).distances == result.distances


def test_t_closeness_single_value_and_identical_groups():
    single = ReleaseCandidate.from_groups([(2, ["a", "a"]), (1, ["a"])])
    assert t_closeness(single, 0).satisfied
    assert t_closeness(single, 0, ordered=["a"]).max_distance == 0
    same = ReleaseCandidate.from_groups([(2, ["a", "b"]), (4, ["a", "b", "a", "b"])])
    assert t_closeness(same, 0).satisfied and t_closeness(same, 0, ordered=True).satisfied


def test_t_closeness_result_exact_and_json():
    result = t_closeness(SALARY, Fraction(1, 3), ordered=True)
    assert all(isinstance(d, Fraction) for d in result.distances)
    assert json.loads(json.dumps(result.to_dict())) == {
        "criterion": "t-closeness", "t": "1/3", "ground": "ordered", "satisfied": False,
        "max_distance": 0.375, "max_distance_exact": "3/8", "worst_group": "0",
        "violating_groups": ["0"]}


# ----------------------------------------------------------------------------- shared shape
@pytest.mark.parametrize("check", [
    lambda r: k_anonymity(r, 2),
    lambda r: distinct_l_diversity(r, 2),
    lambda r: entropy_l_diversity(r, 2),
    lambda r: recursive_cl_diversity(r, 2, 2),
    lambda r: t_closeness(r, 0.5),
    lambda r: t_closeness(r, 0.5, ordered=True),
])
def test_every_result_has_the_same_shape(check):
    release = _table_release()
    before = release.counts.copy()
    result = check(release)
    assert dataclasses.is_dataclass(result)
    assert type(result.satisfied) is bool
    frame = result.to_frame()
    assert frame.index.equals(release.group_labels)
    assert frame.columns[0] == "n_individuals" and frame.columns[-1] == "ok"
    assert frame["ok"].dtype == bool
    assert frame["ok"].tolist() == list(result.ok)
    assert result.satisfied == all(result.ok)
    assert result.worst_group in release.group_labels
    assert set(result.violating_groups) == set(frame.index[~frame["ok"]])
    json.dumps(result.to_dict())
    assert hash(result) == hash(check(release)) and result == check(release)
    pd.testing.assert_frame_equal(release.counts, before)


def test_identity_release_keeps_multiindex_label_names():
    release = _table_release()
    assert identity_release(release).group_labels.names == release.group_labels.names
