"""The input checks both engines make (skyprivacy/anonymize/inputs.py), in one order, and the
``missing`` choice of skyline_anonymize and k_anonymize."""
import re

import numpy as np
import pandas as pd
import pytest

from skyprivacy import InvalidParameterError, Policy, SchemaError, k_anonymize, skyline_anonymize
from skyprivacy.anonymize.inputs import check_k, check_local_rows

POLICY = Policy.uniform([(0, 0, 0, 0.95)])


def holes() -> pd.DataFrame:
    return pd.DataFrame({"age": [20, 30, np.nan, 40, 50, 60, 30, 20],
                         "dx": ["a", "b", "a", None, "b", "a", "b", "a"]})


def test_missing_must_be_a_known_choice():
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'missing' parameter of skyline_anonymize must be one of ['error', "
            "'as_value']. Got 'drop' instead.")):
        skyline_anonymize(holes(), qi="age", sensitive="dx", policy=POLICY, missing="drop")


def test_missing_values_are_errors_by_default_as_in_from_table():
    with pytest.raises(SchemaError, match=re.escape(
            "Column 'age' has 1 missing value(s); pass missing='as_value' to treat them as a "
            "category, or clean the table.")):
        skyline_anonymize(holes(), qi="age", sensitive="dx", policy=POLICY)
    with pytest.raises(SchemaError, match=re.escape("Column 'age' has 1 missing value(s)")):
        k_anonymize(holes(), qi="age", k=2)


def test_as_value_keeps_a_missing_value_as_a_value_of_its_own():
    table = holes()
    before = table.copy()
    result = skyline_anonymize(table, qi="age", sensitive="dx", policy=POLICY,
                               missing="as_value")
    pd.testing.assert_frame_equal(table, before)
    assert result.safe and len(result.candidate.values) == 3  # a, b and the missing value
    assert result.candidate.n_individuals == len(table)
    kept = k_anonymize(table, qi="age", k=2, missing="as_value", keep="dx")
    assert kept.safe and kept.groups["n_individuals"].sum() == len(table)


def test_a_missing_value_inside_a_list_cell_is_a_value_under_as_value():
    table = pd.DataFrame({"age": [20, 30, 40, 50], "dx": [["a", None], ["b"], ["a"], ["b"]]})
    with pytest.raises(SchemaError, match=re.escape(
            "Column 'dx' has 1 missing value(s) inside list cells; pass missing='as_value'")):
        skyline_anonymize(table, qi="age", sensitive="dx", policy=POLICY,
                          semantics="mvpi-multiset")
    result = skyline_anonymize(table, qi="age", sensitive="dx", policy=POLICY,
                               semantics="mvpi-multiset", missing="as_value")
    assert result.candidate.value_totals.sum() == 5


def test_local_rows_and_k_are_checked_first():
    assert check_local_rows(None, "f", 7) == 7 and check_local_rows(3, "f") == 3
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'local_rows' parameter of f must be a positive integer. Got 0 instead.")):
        check_local_rows(0, "f")
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'k' parameter of f must be an integer >= 2. Got True instead.")):
        check_k(True, "widest", "f")
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'split' parameter of f must be one of ['infogain', 'widest', 'loss']. Got 'x' "
            "instead.")):
        check_k(2, "x", "f")
