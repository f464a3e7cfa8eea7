"""The data checks every fairness-query function shares (skyprivacy/fairness_queries/
_validation.py), called directly: label vectors, prediction matrices, group sizes, data-set
sizes and read-only results.  The public functions' own messages, which go through these
checks, are asserted in test_metrics.py, test_mechanisms.py, test_attacks.py and
test_sensitivity.py."""
import re

import numpy as np
import pytest

from skyprivacy._core.validation import check
from skyprivacy.errors import DegenerateGroupError, InvalidParameterError
from skyprivacy.fairness_queries._validation import (QUERIES, SIZE, check_binary_vector,
                                                     check_group_sizes, check_predictions,
                                                     check_sizes, found_values, readonly)


def raises(error, message):
    return pytest.raises(error, match=f"^{re.escape(message)}$")


# --- found_values -----------------------------------------------------------------------------

def test_found_values_are_distinct_native_and_sorted():
    found = found_values(np.array([[3, 1], [3, 2]], dtype=np.int64))
    assert found == [1, 2, 3] and {type(v) for v in found} == {int}


def test_found_values_keep_first_seen_order_when_values_do_not_compare():
    assert found_values(np.array(["b", 1, "a", 1], dtype=object)) == ["b", 1, "a"]


def test_found_values_show_at_most_the_limit():
    assert found_values(np.arange(15)[::-1]) == list(range(10))
    assert found_values(np.array([5, 4, 3]), limit=2) == [3, 4]


# --- check_binary_vector ----------------------------------------------------------------------

@pytest.mark.parametrize("values", [
    [True, False, True],
    np.array([1, 0, 1], dtype=np.int64),
    [1.0, 0.0, 1.0],
    np.array([True, 0, 1.0], dtype=object),
])
def test_zero_one_labels_in_any_spelling_become_int8(values):
    array = check_binary_vector(values, name="a", owner="f")
    assert array.dtype == np.int8 and array.tolist() == [1, 0, 1]


def test_the_labels_are_a_fresh_copy():
    given = np.array([1, 0, 1], dtype=np.int8)
    array = check_binary_vector(given, name="a", owner="f")
    array[0] = 0
    assert given.tolist() == [1, 0, 1]


@pytest.mark.parametrize("values, kwargs, message", [
    ([[0, 1], [1, 0]], {}, "The 'a' parameter of f must be one-dimensional. Got 'an array of "
                           "shape (2, 2)' instead."),
    (1, {}, "The 'a' parameter of f must be one-dimensional. Got 'an array of shape ()' "
            "instead."),
    ([], {}, "The 'a' parameter of f must be non-empty. Got [] instead."),
    ([0, 1], {"length": 3}, "The 'a' parameter of f must have length len(a) = 3. Got 'length "
                            "2' instead."),
    ([0, 1], {"length": 3, "length_name": "n"}, "The 'a' parameter of f must have length n = "
                                                "3. Got 'length 2' instead."),
    ([0, 2, 1, 2], {}, "The 'a' parameter of f must contain only the labels 0 and 1 (booleans "
                       "accepted). Got 'values [0, 1, 2]' instead."),
    ([0.0, 0.5], {}, "The 'a' parameter of f must contain only the labels 0 and 1 (booleans "
                     "accepted). Got 'values [0.0, 0.5]' instead."),
    (["0", "1"], {}, "The 'a' parameter of f must contain only the labels 0 and 1 (booleans "
                     "accepted). Got \"values ['0', '1']\" instead."),
    (np.array([0, None, 1], dtype=object), {},
     "The 'a' parameter of f must contain only the labels 0 and 1 (booleans accepted). Got "
     "'values [0, None, 1]' instead."),
])
def test_check_binary_vector_errors(values, kwargs, message):
    with raises(InvalidParameterError, message):
        check_binary_vector(values, name="a", owner="f", **kwargs)


# --- check_predictions ------------------------------------------------------------------------

def test_one_prediction_vector_becomes_one_row():
    array, was_1d = check_predictions([0, 0.5, 1], 3, owner="f")
    assert was_1d is True
    assert array.dtype == float and array.shape == (1, 3) and array.tolist() == [[0, 0.5, 1]]


def test_a_prediction_matrix_keeps_its_shape_and_the_callers_array_is_untouched():
    given = np.array([[0, 1], [0.25, 0.75]])
    array, was_1d = check_predictions(given, 2, owner="f")
    assert was_1d is False and array.shape == (2, 2)
    array[0, 0] = 1.0
    assert given[0, 0] == 0.0


@pytest.mark.parametrize("preds, n, kwargs, message", [
    (["x", 0.5], 2, {}, "The 'preds' parameter of f must be numeric predictions in [0, 1]. "
                        "Got \"values ['x', 0.5]\" instead."),
    (0.5, 1, {}, "The 'preds' parameter of f must be one- or two-dimensional (n,) or (m, n). "
                 "Got 'an array of shape ()' instead."),
    ([[0, 1, 0]], 2, {"name": "h0", "length_name": "n"},
     "The 'h0' parameter of f must have last dimension n = 2. Got 'shape (1, 3)' instead."),
    ([0, -0.5, 2], 3, {}, "The 'preds' parameter of f must be in [0, 1] without NaN. Got "
                          "'-0.5 at position 1' instead."),
    ([[0, 1], [0.5, np.nan]], 2, {}, "The 'preds' parameter of f must be in [0, 1] without "
                                     "NaN. Got 'nan at position (1, 1)' instead."),
    ([[0, np.inf], [2, 0]], 2, {}, "The 'preds' parameter of f must be in [0, 1] without "
                                   "NaN. Got 'inf at position (0, 1)' instead."),
])
def test_check_predictions_errors(preds, n, kwargs, message):
    with raises(InvalidParameterError, message):
        check_predictions(preds, n, owner="f", **kwargs)


# --- check_group_sizes ------------------------------------------------------------------------

def test_group_sizes_count_the_zeros_and_the_ones():
    assert check_group_sizes(np.array([0, 1, 1, 0, 1], dtype=np.int8), metric="m") == (2, 3)


@pytest.mark.parametrize("a, slice_label, message", [
    ([1, 1, 1], None, "The Leakage is undefined: group a=0 is empty (N_0 = 0, N_1 = 3)."),
    ([0, 0], 0, "The Leakage is undefined: group a=1 is empty in the slice y=0 (N_0^- = 2, "
                "N_1^- = 0)."),
    ([1], 1, "The Leakage is undefined: group a=0 is empty in the slice y=1 (N_0^+ = 0, "
             "N_1^+ = 1)."),
    ([], 1, "The Leakage is undefined: group a=0 is empty in the slice y=1 (N_0^+ = 0, "
            "N_1^+ = 0)."),
])
def test_an_empty_group_makes_the_metric_undefined(a, slice_label, message):
    with raises(DegenerateGroupError, message):
        check_group_sizes(np.array(a, dtype=np.int8), metric="Leakage", slice_label=slice_label)


# --- check_sizes, SIZE and QUERIES ------------------------------------------------------------

def test_sizes_come_back_native():
    n, n0 = check_sizes(np.int64(3), np.int64(1), owner="f")
    assert (n, n0) == (3, 1) and type(n) is int and type(n0) is int
    assert check_sizes(10, 9, owner="f") == (10, 9)


@pytest.mark.parametrize("n, n0, error, message", [
    (2, 1, InvalidParameterError, "The 'total' parameter of f must be an integer >= 3 (the "
                                  "sensitivity bounds assume n >= 3). Got 2 instead."),
    (4, 4, DegenerateGroupError, "The 'group' parameter of f leaves a group empty (group = 4, "
                                 "total = 4): statistical parity is undefined."),
    (4, 0, DegenerateGroupError, "The 'group' parameter of f leaves a group empty (group = 0, "
                                 "total = 4): statistical parity is undefined."),
    (4, -1, InvalidParameterError, "The 'group' parameter of f must be an integer in [1, "
                                   "total - 1] = [1, 3]. Got -1 instead."),
    (4, 5, InvalidParameterError, "The 'group' parameter of f must be an integer in [1, "
                                  "total - 1] = [1, 3]. Got 5 instead."),
    (4, True, InvalidParameterError, "The 'group' parameter of f must be an integer in [1, "
                                     "total - 1]. Got True instead."),
])
def test_check_sizes_errors_use_the_callers_names(n, n0, error, message):
    with raises(error, message):
        check_sizes(n, n0, owner="f", n_name="total", n0_name="group")


def test_queries_are_counted_from_one():
    assert check(1, QUERIES, name="n_queries", owner="f") == 1 and SIZE.is_satisfied_by(3)
    with raises(InvalidParameterError, "The 'n_queries' parameter of f must be a positive "
                                       "integer (the number of queries). Got 0 instead."):
        check(0, QUERIES, name="n_queries", owner="f")


# --- readonly ---------------------------------------------------------------------------------

def test_readonly_freezes_the_array_in_place():
    array = np.zeros(3)
    assert readonly(array) is array and not array.flags.writeable
    with pytest.raises(ValueError):
        array[0] = 1.0
