"""What the group-tagging modules share (skyprivacy/experimental/group_tagging/_common.py):
the table check, column lists, the missing-value message, label order and the declared
options every public function uses."""
import re

import numpy as np
import pandas as pd
import pytest

from skyprivacy._core.validation import check
from skyprivacy.errors import InvalidParameterError, SchemaError
from skyprivacy.experimental.group_tagging._common import (BATCH_SIZE, FRAME, GROUPS, POSITIVE,
                                                           RANDOM_STATE, check_table,
                                                           column_list, require_complete,
                                                           sorted_labels)


def raises(error, message):
    return pytest.raises(error, match=f"^{re.escape(message)}$")


# --- check_table ------------------------------------------------------------------------------

def test_check_table_returns_the_table_itself_unmodified():
    table = pd.DataFrame({"a": [1, 2], "b": ["x", "y"]})
    before = table.copy()
    assert check_table(table, owner="plan_fis") is table
    pd.testing.assert_frame_equal(table, before)


def test_an_empty_table_is_refused_naming_the_caller():
    with raises(SchemaError, "The table is empty: plan_fis needs at least one row."):
        check_table(pd.DataFrame({"a": []}), owner="plan_fis")


def test_duplicate_column_names_are_listed_once_each_and_sorted():
    table = pd.DataFrame([[1, 2, 3, 4, 5]], columns=["b", "a", "b", "a", "c"])
    with raises(SchemaError, "The table has duplicate column names ['a', 'b']; count_report "
                             "needs distinct column names."):
        check_table(table, owner="count_report")


# --- column_list ------------------------------------------------------------------------------

def test_a_single_name_or_an_iterable_becomes_a_list():
    assert column_list("age", name="columns", owner="f") == ["age"]
    assert column_list(("age", "sex"), name="columns", owner="f") == ["age", "sex"]
    assert column_list(iter(["a", "b"]), name="columns", owner="f") == ["a", "b"]
    assert column_list([], name="columns", owner="f", allow_empty=True) == []


@pytest.mark.parametrize("value, kwargs, message", [
    (["a", "b", "a"], {}, "The 'columns' parameter of f must name distinct columns. "
                          "Got ['a', 'b', 'a'] instead."),
    ([], {}, "The 'columns' parameter of f must name at least one column. Got [] instead."),
    (3, {}, "The 'columns' parameter of f must be a column name or a list of column names. "
            "Got 3 instead."),
    (["a", "a"], {"allow_empty": True}, "The 'columns' parameter of f must name distinct "
                                        "columns. Got ['a', 'a'] instead."),
])
def test_column_list_errors(value, kwargs, message):
    with raises(InvalidParameterError, message):
        column_list(value, name="columns", owner="f", **kwargs)


# --- require_complete -------------------------------------------------------------------------

def test_a_complete_column_passes():
    assert require_complete(pd.Series([1, 0, 1], name="y"), remedy="drop them.") is None


def test_the_missing_values_are_counted_and_the_role_named_when_given():
    cells = pd.Series([1.0, None, 0.0, np.nan], name="eligible")
    with raises(SchemaError, "Column 'eligible' (the target) has 2 missing value(s); drop "
                             "those rows."):
        require_complete(cells, remedy="drop those rows.", role="target")
    with raises(SchemaError, "Column 'eligible' has 2 missing value(s); drop those rows."):
        require_complete(cells, remedy="drop those rows.")


# --- sorted_labels ----------------------------------------------------------------------------

def test_labels_are_distinct_native_and_sorted():
    labels = sorted_labels(np.array([3, 1, 3, 2], dtype=np.int64))
    assert labels == [1, 2, 3]
    assert {type(label) for label in labels} == {int}


def test_labels_that_do_not_compare_keep_their_first_seen_order_and_missing_goes_last():
    assert sorted_labels(["M", 1, None, "F", 1]) == ["M", 1, "F", None]
    # comparable labels are sorted; of several missing markers only the first seen is kept
    labels = sorted_labels(["M", np.nan, "F", None])
    assert labels[:2] == ["F", "M"] and len(labels) == 3 and np.isnan(labels[2])


# --- the declared options ---------------------------------------------------------------------

@pytest.mark.parametrize("value, constraint, message", [
    ([], FRAME, "The 'table' parameter of f must be a pandas DataFrame. Got 'list' instead."),
    (0, POSITIVE, "The 'table' parameter of f must be a positive integer. Got 0 instead."),
    (1, GROUPS, "The 'table' parameter of f must be an integer >= 2 (the paper requires S > 1). "
                "Got 1 instead."),
    (1, BATCH_SIZE, "The 'table' parameter of f must be an integer >= 2 (a batch of 1 row is "
                    "not shuffled). Got 1 instead."),
    (-1, RANDOM_STATE, "The 'table' parameter of f must be None, a non-negative int seed or a "
                       "numpy.random.Generator. Got -1 instead."),
])
def test_each_declared_option_refuses_with_its_own_words(value, constraint, message):
    with raises(InvalidParameterError, message):
        check(value, constraint, name="table", owner="f")


@pytest.mark.parametrize("value, constraint", [
    (pd.DataFrame(), FRAME), (1, POSITIVE), (np.int64(2), GROUPS), (2, BATCH_SIZE),
    (None, RANDOM_STATE), (0, RANDOM_STATE), (np.random.default_rng(0), RANDOM_STATE),
])
def test_each_declared_option_accepts_its_smallest_or_typical_value(value, constraint):
    assert constraint.is_satisfied_by(value)
