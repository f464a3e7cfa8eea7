"""How data values find leaves, and generalize_frame (skyprivacy/hierarchy/lookup.py)."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pytest

from skyprivacy.datasets import bundled, load_adult_hierarchies
from skyprivacy.errors import InvalidParameterError, SchemaError
from skyprivacy.hierarchy import Hierarchy, dates, generalize_frame
from skyprivacy.hierarchy.lookup import (LeafLookup, date_key, first_seen_codes, numeric_key,
                                         one_dimensional)

from .helpers import exactly


# ------------------------------------------------------------------- the lookup rule
@pytest.mark.parametrize("value, key", [
    (39, 39), ("39", 39), (39.0, 39), (np.int64(39), 39), (np.float32(39), 39), ("-2", -2),
    ("2.5", 2.5), ("+7", 7), ("1e3", 1000), (".5", 0.5), (True, None), (np.bool_(False), None),
    ("39 ", None), ("x", None), (float("nan"), None), (float("inf"), None), ("inf", None),
    (None, None), (b"39", None),
])
def test_numeric_key(value, key):
    assert numeric_key(value) == key and type(numeric_key(value)) is type(key)


@pytest.mark.parametrize("value, key", [
    (dt.date(2024, 3, 15), "2024-03-15"), (dt.datetime(2024, 3, 15, 23, 59), "2024-03-15"),
    (pd.Timestamp("2024-03-15 13:45"), "2024-03-15"), (np.datetime64("2024-03-15"), "2024-03-15"),
    (np.datetime64("2024-03-15T10:00:00.000000000"), "2024-03-15"), (pd.NaT, None),
    (np.datetime64("NaT"), None), ("2024-03-15", None), (20240315, None),
])
def test_date_key(value, key):
    assert date_key(value) == key


def test_leaf_lookup_kinds():
    assert LeafLookup(("1", "2"), {"1": 0, "2": 1}).kind == "numeric"
    assert LeafLookup(("2024-01-01",), {"2024-01-01": 0}).kind == "date"
    assert LeafLookup(("07", "7"), {"07": 0, "7": 1}).kind == "exact"  # both read as 7
    assert LeafLookup(("a", 1), {"a": 0, 1: 1}).kind == "exact"


def test_numeric_leaves_accept_numbers_and_text(hierarchies):
    age = hierarchies["age"]
    for value in (39, "39", 39.0, np.int64(39), np.float32(39)):
        assert age.generalize(value, 2) == "30-39"
        assert value in age
    assert 39.5 not in age and "039" in age and True not in age
    ints = pd.Series([39, 17, 90], dtype="int64")
    assert age.generalize(ints, 3).tolist() == ["20-39", "0-19", "80-99"]
    assert age.generalize(ints, 0).tolist() == ["39", "17", "90"]  # level 0: leaf labels


def test_exact_leaves_do_not_normalise():
    h = Hierarchy([["1", "*"], ["x", "*"]])
    assert "1" in h and 1 not in h
    with pytest.raises(Exception, match=r"does not cover 1 distinct value\(s\) of the data "
                                        r"\(1 row\(s\)\): \[1\]"):
        h.generalize([1], 1)


def test_booleans_find_only_boolean_leaves():
    h = Hierarchy([[True, "*"], [2, "*"]])
    assert True in h and 1 not in h and np.bool_(True) in h
    assert Hierarchy([[1, "*"], [2, "*"]]).covers([True]) is False


def test_leading_zero_collision_makes_lookup_exact():
    # '07' and '7' would both read as 7, so numbers are not normalised at all.
    h = Hierarchy([["07", "0*", "*"], ["7", "7", "*"]])
    assert "07" in h and "7" in h and 7 not in h


def test_date_leaves_accept_date_objects():
    h = dates(["2024-03-15", "2024-07-01", "2019-12-31"])
    stamps = pd.Series(pd.to_datetime(["2024-03-15 13:45", "2019-12-31 00:00"]))
    assert h.generalize(stamps, 1).tolist() == ["2024-03", "2019-12"]
    assert h.generalize(np.datetime64("2024-07-01"), 2) == "2024"
    assert h.generalize(dt.datetime(2024, 7, 1, 8), 3) == "2020-2029"
    assert dt.date(2024, 3, 16) not in h
    assert not h.covers([pd.NaT])


def test_missing_values_are_never_covered():
    h = bundled("adult", "sex")
    missing = h.uncovered(pd.Series(["Male", None, np.nan]))
    assert len(missing) == 1 and pd.isna(missing[0])
    missing = h.uncovered(pd.Series([pd.NA, "Female"], dtype="object"))
    assert len(missing) == 1 and pd.isna(missing[0])
    assert not h.covers([None])
    assert h.covers([])


# ------------------------------------------------------------------- 1-D inputs
def test_one_dimensional_kinds():
    series = pd.Series([1])
    assert one_dimensional(series, "f")[0] == "series"
    assert one_dimensional(pd.Index([1]), "f")[0] == "index"
    assert one_dimensional(np.array([1]), "f")[0] == "array"
    assert one_dimensional((1,), "f")[0] == "tuple"
    assert one_dimensional(iter([1]), "f")[0] == "list"
    kind, data = one_dimensional([("a", 1), ("b", 2)], "f")
    assert kind == "list" and data.shape == (2,) and data[0] == ("a", 1)  # tuples stay items
    for scalar in ("ab", b"ab", 3, None, np.array(5)):
        kind, data = one_dimensional(scalar, "f")
        assert kind == "scalar" and len(data) == 1


def test_one_dimensional_refusals():
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'groups' parameter of f must be ordered (a Series, array, list or scalar). "
            "Got a frozenset instead.")):
        one_dimensional(frozenset({1}), "f", "groups")


def test_first_seen_codes_keeps_order_missing_and_unhashables():
    codes, uniques = first_seen_codes(np.array([3, 1, 3, 2]))
    assert codes.tolist() == [0, 1, 0, 2] and list(uniques) == [3, 1, 2]
    data = np.empty(4, dtype=object)
    data[:] = ["b", None, ["x"], "b"]
    codes, uniques = first_seen_codes(data)
    assert codes.tolist() == [0, 1, 2, 0] and uniques == ["b", None, ["x"]]
    codes, uniques = first_seen_codes(pd.Series([np.nan, "a", np.nan]))
    assert codes.tolist() == [0, 1, 0] and pd.isna(uniques[0])


# ------------------------------------------------------------------ generalize_frame
def test_generalize_frame_keeps_index_and_other_columns():
    table = pd.DataFrame({"age": [39, 52], "sex": ["Male", "Female"], "x": [1, 2]},
                         index=["p", "q"])
    before = table.copy()
    out = generalize_frame(table, hierarchies=load_adult_hierarchies(),
                           levels={"age": 1, "sex": 0})
    assert out.index.tolist() == ["p", "q"] and out.columns.tolist() == ["age", "sex", "x"]
    assert out["age"].tolist() == ["35-39", "50-54"] and out["x"].tolist() == [1, 2]
    pd.testing.assert_frame_equal(table, before)


def test_generalize_frame_errors(sex):
    table = pd.DataFrame({"age": [39], "sex": ["Male"]})
    hierarchies = {"sex": sex}
    with pytest.raises(SchemaError, match=exactly(
            "Column 'zip' is not in the table; columns are ['age', 'sex'].")):
        generalize_frame(table, hierarchies=hierarchies, levels={"zip": 1})
    with pytest.raises(SchemaError, match=exactly(
            "Column 'age' has no hierarchy; hierarchies are given for ['sex'].")):
        generalize_frame(table, hierarchies=hierarchies, levels={"age": 1})
    # the first listed column decides which error is raised
    with pytest.raises(SchemaError, match=exactly(
            "Column 'age' has no hierarchy; hierarchies are given for ['sex'].")):
        generalize_frame(table, hierarchies=hierarchies, levels={"age": 1, "zip": 1})
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'table' parameter of generalize_frame must be a pandas DataFrame. "
            "Got a Series instead.")):
        generalize_frame(table["sex"], hierarchies=hierarchies, levels={"sex": 1})
