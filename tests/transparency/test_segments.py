"""The per-QID-group reductions the transparency solvers run on (skyprivacy/transparency/
_segments.py): segments of a sorted array, on float arrays and on object arrays of Fractions,
and the empty-channel division."""
import warnings
from fractions import Fraction as F

import numpy as np
import pytest

from skyprivacy.transparency._segments import Segments, safe_div

# three groups 5, 2, 7 of sizes 2, 3, 1; group 2 has a tie for its maximum
LABELS = np.array([5, 5, 2, 2, 2, 7])
X = np.array([1.0, 3.0, 2.0, 2.0, 0.5, 4.0])


@pytest.fixture
def seg():
    return Segments(LABELS)


def test_the_segments_are_the_runs_of_equal_labels(seg):
    assert seg.size == 6 and seg.count == 3
    assert seg.starts.tolist() == [0, 2, 5]
    assert seg.lengths.tolist() == [2, 3, 1]
    assert seg.index.tolist() == [0, 0, 1, 1, 1, 2]
    assert seg.segment_labels.tolist() == [5, 2, 7]


def test_labels_that_come_back_later_start_a_new_segment():
    seg = Segments(np.array([1, 2, 1]))
    assert seg.count == 3 and seg.segment_labels.tolist() == [1, 2, 1]


def test_one_group_is_one_segment():
    seg = Segments(np.array([4, 4, 4]))
    assert seg.count == 1 and seg.lengths.tolist() == [3]
    assert seg.sum(np.array([1.0, 2.0, 3.0])).tolist() == [6.0]


def test_reductions_per_segment(seg):
    assert seg.sum(X).tolist() == [4.0, 4.5, 4.0]
    assert seg.max(X).tolist() == [3.0, 2.0, 4.0]
    assert seg.min(X).tolist() == [1.0, 0.5, 4.0]


def test_spread_puts_each_segment_value_on_its_elements(seg):
    assert seg.spread(np.array([10, 20, 30])).tolist() == [10, 10, 20, 20, 20, 30]


def test_first_argmax_and_argmin_are_positions_in_the_whole_array_first_on_ties(seg):
    assert seg.first_argmax(X).tolist() == [1, 2, 5]  # group 2: 2.0 at 2 and 3, first wins
    assert seg.first_argmin(X).tolist() == [0, 4, 5]
    assert seg.first_argmin(np.array([1.0, 1.0, 0.0, 0.0, 0.0, 9.0])).tolist() == [0, 2, 5]


def test_exclusive_cumsum_restarts_at_every_segment(seg):
    assert seg.exclusive_cumsum(X).tolist() == [0.0, 1.0, 0.0, 2.0, 4.0, 0.0]


def test_fractions_stay_exact():
    seg = Segments(np.array([0, 0, 0, 1, 1]))
    x = np.array([F(1, 3), F(1, 6), F(1, 10), F(2, 7), F(1, 7)], dtype=object)
    total = seg.sum(x)
    assert total.tolist() == [F(3, 5), F(3, 7)]
    assert all(type(v) is F for v in total)
    assert seg.exclusive_cumsum(x).tolist() == [0, F(1, 3), F(1, 2), 0, F(2, 7)]
    assert seg.max(x).tolist() == [F(1, 3), F(2, 7)]
    assert seg.first_argmin(x).tolist() == [2, 4]


def test_no_labels_no_segments():
    seg = Segments(np.array([], dtype=np.int64))
    assert seg.size == 0 and seg.count == 0
    assert seg.starts.tolist() == seg.lengths.tolist() == seg.index.tolist() == []
    assert seg.segment_labels.tolist() == []
    empty = np.array([], dtype=float)
    for reduce in (seg.sum, seg.max, seg.min, seg.first_argmax, seg.first_argmin,
                   seg.exclusive_cumsum):
        assert reduce(empty).tolist() == []


def test_safe_div_gives_zero_for_an_empty_channel_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        quotient = safe_div(np.array([1.0, 2.0, 3.0]), np.array([2.0, 0.0, 4.0]))
    assert quotient.tolist() == [0.5, 0.0, 0.75]
    assert safe_div(np.array([1.0, 3.0]), np.array([4.0, 2.0])).tolist() == [0.25, 1.5]


def test_safe_div_on_fractions_is_exact():
    quotient = safe_div(np.array([F(1), F(2), F(0)], dtype=object),
                        np.array([F(0), F(3), F(5)], dtype=object))
    assert quotient.tolist() == [0, F(2, 3), 0]
    assert all(type(v) is F for v in quotient)
