"""Fairness queries and evaluation scores (spec fairness-queries §3, §8.2; T1, T10)."""

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skyprivacy.errors import DegenerateGroupError, InvalidParameterError
from skyprivacy.fairness_queries import (abs_statistical_parity_gap, avg_sp_error,
                                         equal_opportunity_gap, equalized_odds_gap,
                                         equalized_odds_gaps, false_positive_rate_gap,
                                         group_sizes, leakage_score, statistical_parity_gap)

A = [1, 1, 1, 1, 1, 0, 0, 0]
Y = [1, 0, 1, 1, 0, 1, 0, 1]
H_BIN = [1, 0, 1, 0, 1, 1, 0, 0]
H_SOFT = [0.9, 0.2, 0.7, 0.4, 0.6, 0.8, 0.1, 0.3]


def exact_gap(h, a):
    """SP from Def. 2.1 in exact arithmetic (the oracle for the float code)."""
    n1 = sum(a)
    n0 = len(a) - n1
    lam = sum(Fraction(x) for x, g in zip(h, a) if g == 1)
    mu = sum(Fraction(x) for x, g in zip(h, a) if g == 0)
    return lam / n1 - mu / n0


# --- T1: the reference table of spec §3.3 ---------------------------------------------------

def test_t1_reference_values():
    assert statistical_parity_gap(H_BIN, A) == pytest.approx(4 / 15, abs=1e-15)
    assert abs_statistical_parity_gap(H_BIN, A) == pytest.approx(4 / 15, abs=1e-15)
    assert equal_opportunity_gap(H_BIN, A, Y) == pytest.approx(1 / 6, abs=1e-15)
    assert false_positive_rate_gap(H_BIN, A, Y) == pytest.approx(1 / 2, abs=1e-15)
    assert statistical_parity_gap(H_SOFT, A) == pytest.approx(0.16, abs=1e-15)
    sizes = group_sizes(A, Y)
    assert (sizes.n1, sizes.n0, sizes.n1_pos, sizes.n0_pos, sizes.n1_neg, sizes.n0_neg) == \
        (5, 3, 3, 2, 2, 1)


def test_scalar_for_1d_and_array_for_2d():
    value = statistical_parity_gap(H_BIN, A)
    assert type(value) is float
    batch = statistical_parity_gap([H_BIN, H_SOFT], A)
    assert isinstance(batch, np.ndarray) and batch.shape == (2,)
    np.testing.assert_allclose(batch, [4 / 15, 0.16], atol=1e-15)
    pair = equalized_odds_gaps(H_BIN, A, Y)
    assert pair.shape == (2,)
    assert equalized_odds_gaps([H_BIN, H_BIN], A, Y).shape == (2, 2)
    assert equalized_odds_gap(H_BIN, A, Y) == pytest.approx(0.5)
    np.testing.assert_allclose(equalized_odds_gap([H_BIN, H_SOFT], A, Y),
                               np.abs(equalized_odds_gaps([H_BIN, H_SOFT], A, Y)).max(axis=1))


def test_equal_opportunity_is_sp_on_the_positive_slice():
    keep = np.array(Y) == 1
    expected = statistical_parity_gap(np.array(H_SOFT)[keep], np.array(A)[keep])
    assert equal_opportunity_gap(H_SOFT, A, Y) == pytest.approx(expected, abs=1e-15)
    fpr = statistical_parity_gap(np.array(H_SOFT)[~keep], np.array(A)[~keep])
    assert false_positive_rate_gap(H_SOFT, A, Y) == pytest.approx(fpr, abs=1e-15)


@settings(max_examples=60)
@given(st.data())
def test_sp_matches_exact_definition_and_linear_form(data):
    n = data.draw(st.integers(2, 12))
    a = data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)
                  .filter(lambda v: 0 < sum(v) < len(v)))
    h = data.draw(st.lists(st.sampled_from([0, 0.25, 0.5, 0.75, 1]), min_size=n, max_size=n))
    got = statistical_parity_gap(h, a)
    assert got == pytest.approx(float(exact_gap(h, a)), abs=1e-12)
    n1 = sum(a)
    v = np.where(np.array(a) == 1, 1 / n1, -1 / (n - n1))  # eq. (2): SP = H v
    assert got == pytest.approx(float(np.dot(h, v)), abs=1e-12)
    # relabelling the groups negates SP; |SP| is invariant
    flipped = [1 - x for x in a]
    assert statistical_parity_gap(h, flipped) == pytest.approx(-got, abs=1e-12)
    assert abs_statistical_parity_gap(h, flipped) == pytest.approx(abs(got), abs=1e-12)
    # invariant to the order of individuals
    order = data.draw(st.permutations(range(n)))
    assert statistical_parity_gap([h[i] for i in order], [a[i] for i in order]) == \
        pytest.approx(got, abs=1e-12)


def test_pandas_inputs_are_not_mutated_and_booleans_accepted():
    frame = pd.DataFrame({"pred": H_SOFT, "black": [False] * 5 + [True] * 3, "y": Y},
                         index=list("abcdefgh"))
    before = frame.copy()
    value = statistical_parity_gap(frame["pred"], ~frame["black"])
    assert value == pytest.approx(0.16)
    assert equal_opportunity_gap(frame["pred"], ~frame["black"], frame["y"]) == \
        pytest.approx(equal_opportunity_gap(H_SOFT, A, Y))
    pd.testing.assert_frame_equal(frame, before)
    h = np.array(H_SOFT)
    statistical_parity_gap(h, A)
    np.testing.assert_array_equal(h, H_SOFT)


# --- Leakage (Def. 5.1) and average error ----------------------------------------------------

def test_t10_leakage_reference_value():
    a = [1] * 90 + [0] * 10
    guess = [1] * 81 + [0] * 9 + [0] * 5 + [1] * 5  # N_A = 81, N_B = 5
    assert leakage_score(a, guess) == pytest.approx(70.0)


def test_leakage_extremes_unknowns_and_random_guessing():
    a = np.array([1] * 90 + [0] * 10)
    assert leakage_score(a, a) == 100.0
    assert leakage_score(a, 1 - a) == 0.0
    assert leakage_score(a, np.ones(100, dtype=int)) == 50.0  # "everyone is group 1"
    assert leakage_score(a, np.full(100, -1)) == 0.0  # unknown is never a hit
    rng = np.random.default_rng(0)
    scores = [leakage_score(a, rng.integers(0, 2, 100)) for _ in range(400)]
    assert abs(np.mean(scores) - 50.0) < 2.0


def test_avg_sp_error_mean_and_median():
    assert avg_sp_error([0, 0, 0, 0], [0.1, -0.1, 0.2, 10.0]) == pytest.approx(10.4 / 4)
    assert avg_sp_error([0, 0, 0, 0], [0.1, -0.1, 0.2, 10.0], stat="median") == \
        pytest.approx(0.15)


# --- Bad inputs: every message asserted -------------------------------------------------------

def test_labels_other_than_zero_one_are_listed():
    with pytest.raises(InvalidParameterError,
                       match=r"The 'a' parameter of statistical_parity_gap must contain only "
                             r"the labels 0 and 1 \(booleans accepted\)\. Got \"values "
                             r"\['Black', 'White'\]\" instead\."):
        statistical_parity_gap([0, 1, 1], ["White", "Black", "White"])
    with pytest.raises(InvalidParameterError, match=r"'a' parameter .* Got 'values \[0, 1, 2\]'"):
        statistical_parity_gap([0, 1, 1], [0, 1, 2])
    with pytest.raises(InvalidParameterError,
                       match=r"'a' parameter .* Got 'values \[0.0, 1.0, nan\]'"):
        statistical_parity_gap([0, 1, 1], [0, 1, float("nan")])
    with pytest.raises(InvalidParameterError, match=r"'y' parameter of equal_opportunity_gap "
                                                    r"must contain only the labels 0 and 1"):
        equal_opportunity_gap(H_BIN, A, [2] * 8)


def test_lengths_that_differ():
    with pytest.raises(InvalidParameterError,
                       match=r"The 'preds' parameter of statistical_parity_gap must have last "
                             r"dimension len\(a\) = 8\. Got 'shape \(7,\)' instead\."):
        statistical_parity_gap(H_BIN[:7], A)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'y' parameter of equalized_odds_gaps must have length "
                             r"len\(a\) = 8\. Got 'length 7' instead\."):
        equalized_odds_gaps(H_BIN, A, Y[:7])
    with pytest.raises(InvalidParameterError,
                       match=r"The 'a_hat' parameter of leakage_score must be one-dimensional "
                             r"of length len\(a\) = 8\. Got 'shape \(3,\)' instead\."):
        leakage_score(A, [1, 0, 1])
    with pytest.raises(InvalidParameterError,
                       match=r"The 'released' parameter of avg_sp_error must have the shape "
                             r"of 'true' \(2,\)\. Got 'shape \(3,\)' instead\."):
        avg_sp_error([0, 0], [0, 0, 0])


def test_predictions_out_of_range_nan_and_shape():
    with pytest.raises(InvalidParameterError,
                       match=r"The 'preds' parameter of statistical_parity_gap must be in "
                             r"\[0, 1\] without NaN\. Got '1\.5 at position 3' instead\."):
        statistical_parity_gap([0, 0, 0, 1.5, 0, 0, 0, 0], A)
    with pytest.raises(InvalidParameterError, match=r"Got 'nan at position \(1, 0\)' instead"):
        statistical_parity_gap([H_SOFT, [np.nan] + H_SOFT[1:]], A)
    with pytest.raises(InvalidParameterError,
                       match=r"must be one- or two-dimensional \(n,\) or \(m, n\)\. Got 'an "
                             r"array of shape \(1, 1, 8\)' instead"):
        statistical_parity_gap([[H_BIN]], A)
    with pytest.raises(InvalidParameterError,
                       match=r"'preds' parameter of statistical_parity_gap must be numeric "
                             r"predictions in \[0, 1\]"):
        statistical_parity_gap(["x"] * 8, A)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'a' parameter of statistical_parity_gap must be "
                             r"one-dimensional\. Got 'an array of shape \(2, 4\)' instead\."):
        statistical_parity_gap(H_BIN, [A[:4], A[4:]])
    with pytest.raises(InvalidParameterError,
                       match=r"The 'a' parameter of statistical_parity_gap must be non-empty"):
        statistical_parity_gap([], [])


def test_empty_groups_and_single_class_labels():
    with pytest.raises(DegenerateGroupError,
                       match=r"The statistical parity gap is undefined: group a=0 is empty "
                             r"\(N_0 = 0, N_1 = 8\)\."):
        statistical_parity_gap(H_BIN, [1] * 8)
    with pytest.raises(DegenerateGroupError,
                       match=r"The absolute statistical parity gap is undefined: group a=1 is "
                             r"empty \(N_0 = 8, N_1 = 0\)\."):
        abs_statistical_parity_gap(H_BIN, [0] * 8)
    # everyone with y = 1 is in group 1: EO is undefined
    with pytest.raises(DegenerateGroupError,
                       match=r"The equal-opportunity gap is undefined: group a=0 is empty in "
                             r"the slice y=1 \(N_0\^\+ = 0, N_1\^\+ = 4\)\."):
        equal_opportunity_gap(H_BIN, A, [1, 0, 1, 1, 1, 0, 0, 0])
    # all one class: the FPR slice is empty
    with pytest.raises(DegenerateGroupError,
                       match=r"The equalized-odds FPR gap is undefined: group a=0 is empty in "
                             r"the slice y=0 \(N_0\^- = 0, N_1\^- = 0\)\."):
        equalized_odds_gaps(H_BIN, A, [1] * 8)
    with pytest.raises(DegenerateGroupError, match=r"The Leakage is undefined: group a=0"):
        leakage_score([1, 1, 1], [1, 0, 1])


def test_score_parameters():
    with pytest.raises(InvalidParameterError,
                       match=r"The 'stat' parameter of avg_sp_error must be one of "
                             r"\['mean', 'median'\]\. Got 'max' instead\."):
        avg_sp_error([0], [0], stat="max")
    with pytest.raises(InvalidParameterError,
                       match=r"The 'true' parameter of avg_sp_error must be non-empty"):
        avg_sp_error([], [])
    with pytest.raises(InvalidParameterError,
                       match=r"The 'a_hat' parameter of leakage_score must contain only 0, 1 "
                             r"or -1 \(unknown\)\. Got 'values \[0, 1, 2\]' instead\."):
        leakage_score([1, 0, 1], [1, 0, 2])
