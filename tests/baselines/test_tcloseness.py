"""t-closeness with the earth mover's distance (skyprivacy/baselines/tcloseness.py): the
reference values of Li et al., the transportation-LP oracle, exact results, every error."""
import json
import re
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skyprivacy import InvalidParameterError, ReleaseCandidate
from skyprivacy.baselines import TClosenessResult, t_closeness, t_closeness_level

from .strategies import SALARY, SVPI, groups_strategy, oracle_emd


def raises(message):
    return pytest.raises(InvalidParameterError, match=re.escape(message))


def test_t_closeness_ordered_reference_values_of_li_et_al():
    # Li et al. (2007): P1 = {3k, 4k, 5k} is at 0.375 from the uniform Q, P2 = {6k, 8k, 11k}
    # at 0.167 (= 1/6).
    result = t_closeness(SALARY, t=0.375, ordered=True)
    assert isinstance(result, TClosenessResult)
    assert result.distances[:2] == (Fraction(3, 8), Fraction(1, 6))
    assert result.max_distance == Fraction(3, 8) and result.worst_group == 0
    assert result.safe and result.ground == "ordered"
    assert result.order == tuple(range(3, 12))
    assert not t_closeness(SALARY, t=0.374, ordered=True).safe
    assert t_closeness(SALARY, t=0.374, ordered=True).violating_groups == (0,)
    assert t_closeness_level(SALARY, ordered=True) == Fraction(3, 8)
    # an explicit order equal to the sorted values gives the same result
    explicit = t_closeness(SALARY, t=0.375, ordered=list(range(3, 12)))
    assert explicit.distances == result.distances


def test_t_closeness_equal_distance_is_variational_distance():
    # every group has 3 of 9 distinct values: (1/2) * (3 * (1/3 - 1/9) + 6 * 1/9) = 2/3
    result = t_closeness(SALARY, t=Fraction(2, 3))
    assert result.ground == "equal" and result.order is None
    assert result.distances == (Fraction(2, 3),) * 3 and result.safe
    assert not t_closeness(SALARY, t=0.66).safe
    frame = result.to_frame()
    assert list(frame.columns) == ["n_individuals", "distance", "safe"]
    assert frame["distance"].tolist() == pytest.approx([2 / 3] * 3)


def test_t_closeness_order_may_include_values_outside_the_release():
    # domain 1..5, release holds 1 and 5: V = 5 counts the whole domain
    release = ReleaseCandidate.from_groups([(2, [1, 1]), (2, [5, 5])])
    # P = (1, 0, 0, 0, 0), Q = (1/2, 0, 0, 0, 1/2): cumulative diffs 1/2 four times -> 2/4
    result = t_closeness(release, t=1, ordered=[1, 2, 3, 4, 5])
    assert result.distances == (Fraction(1, 2), Fraction(1, 2))
    assert t_closeness(release, t=1, ordered=True).distances == (Fraction(1, 2),) * 2
    # reversing the order does not change the ordered distance
    assert t_closeness(release, t=1, ordered=[5, 4, 3, 2, 1]).distances == result.distances


def test_t_closeness_single_value_and_identical_groups():
    single = ReleaseCandidate.from_groups([(2, ["a", "a"]), (1, ["a"])])
    assert t_closeness(single, t=0).safe
    assert t_closeness(single, t=0, ordered=["a"]).max_distance == 0
    same = ReleaseCandidate.from_groups([(2, ["a", "b"]), (4, ["a", "b", "a", "b"])])
    assert t_closeness(same, t=0).safe and t_closeness(same, t=0, ordered=True).safe


def test_t_closeness_result_exact_and_json():
    result = t_closeness(SALARY, t=Fraction(1, 3), ordered=True)
    assert all(isinstance(d, Fraction) for d in result.distances)
    assert json.loads(json.dumps(result.to_dict())) == {
        "criterion": "t-closeness", "t": "1/3", "ground": "ordered", "safe": False,
        "satisfied": False,
        "max_distance": 0.375, "max_distance_exact": "3/8", "worst_group": "0",
        "violating_groups": ["0"]}


@settings(max_examples=80)
@given(groups_strategy(max_groups=4, max_size=8), st.booleans())
def test_emd_matches_transportation_linear_program(groups, ordered):
    release = ReleaseCandidate.from_groups(groups)
    result = t_closeness(release, t=1, ordered=True if ordered else None)
    assert [float(d) for d in result.distances] == pytest.approx(
        oracle_emd(groups, ordered), abs=1e-9)
    assert t_closeness_level(release, ordered=True if ordered else None) == max(
        result.distances)
    assert t_closeness(release, t=result.max_distance, ordered=ordered or None).safe


# ----------------------------------------------------------------------------- errors
@pytest.mark.parametrize("call, owner", [
    (lambda r: t_closeness(r, t=0.5), "t_closeness"),
    (t_closeness_level, "t_closeness_level"),
])
def test_t_closeness_rejects_mvpi(call, owner):
    multiset = ReleaseCandidate.from_groups([(1, ["a", "a"])], semantics="mvpi-multiset")
    with raises(f"The 'release' parameter of {owner} must have semantics 'svpi' (t-closeness "
                f"compares distributions of one sensitive value per individual). "
                f"Got 'mvpi-multiset' instead."):
        call(multiset)


@pytest.mark.parametrize("t, shown", [(1.5, "1.5"), (-0.1, "-0.1"), (2, "2"),
                                      (float("nan"), "nan"), (Fraction(3, 2), "Fraction(3, 2)")])
def test_t_must_be_in_unit_interval(t, shown):
    with raises(f"The 't' parameter of t_closeness must be in [0, 1]. Got {shown} instead."):
        t_closeness(SVPI, t=t)


@pytest.mark.parametrize("t, shown", [("0.5", "'0.5'"), (True, "True"), (None, "None")])
def test_t_must_be_a_number(t, shown):
    with raises(f"The 't' parameter of t_closeness must be a number in [0, 1]. Got {shown} "
                f"instead."):
        t_closeness(SVPI, t=t)


@pytest.mark.parametrize("ordered, shown", [("abc", "'abc'"), (5, "5"), (False, "False")])
def test_ordered_must_be_none_true_or_a_sequence(ordered, shown):
    with raises(f"The 'ordered' parameter of t_closeness must be None, True or a sequence of "
                f"the sensitive values in order. Got {shown} instead."):
        t_closeness(SVPI, t=0.5, ordered=ordered)


def test_ordered_values_must_be_hashable_distinct_and_cover_the_release():
    with raises("The 'ordered' parameter of t_closeness must hold hashable sensitive values. "
                "Got ['b'] instead."):
        t_closeness(SVPI, t=0.5, ordered=["a", ["b"], "c"])
    with raises("The 'ordered' parameter of t_closeness must list each value once. "
                "Got 'a' more than once instead."):
        t_closeness(SVPI, t=0.5, ordered=["a", "b", "a", "c"])
    with raises("The 'ordered' parameter of t_closeness_level must list every sensitive value "
                "of the release. Got an order without ['b', 'c'] instead."):
        t_closeness_level(SVPI, ordered=["a", "z"])


def test_ordered_true_needs_sortable_values():
    mixed = ReleaseCandidate.from_groups([(2, [1, "a"])])
    with raises("The 'ordered' parameter of t_closeness can be True only when the release's "
                "sensitive values can be sorted. Got values [1, 'a'] instead."):
        t_closeness(mixed, t=0.5, ordered=True)
    table = pd.DataFrame({"g": [0, 0], "s": [1.0, np.nan]})
    with_nan = ReleaseCandidate.from_table(table, group="g", sensitive="s", missing="as_value")
    with raises("The 'ordered' parameter of t_closeness can be True only when the release's "
                "sensitive values can be sorted. Got values [1.0, nan] instead."):
        t_closeness(with_nan, t=0.5, ordered=True)
    # an explicit order may place the missing marker itself
    assert t_closeness(with_nan, t=1, ordered=[np.nan, 1.0]).safe
