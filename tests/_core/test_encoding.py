"""Missing markers, list-like cells, factorization (skyprivacy/_core/encoding.py)."""
import re
import numpy as np
import pandas as pd
import pytest

from skyprivacy._core.encoding import (MISSING_KEY, factorize, is_missing, list_like_cells,
                                       require_columns, sorted_uniques, value_key)
from skyprivacy.errors import SchemaError


@pytest.mark.parametrize("value", [None, float("nan"), np.nan, pd.NA, pd.NaT,
                                   np.datetime64("NaT"), np.float32("nan")])
def test_missing_markers(value):
    assert is_missing(value) and value_key(value) == MISSING_KEY


@pytest.mark.parametrize("value", ["", 0, "nan", [None], (float("nan"),), {"a": None},
                                   np.array([np.nan]), frozenset()])
def test_not_missing(value):
    assert not is_missing(value)


def test_value_key_is_native():
    assert type(value_key(np.int64(4))) is int and value_key("a") == "a"


def test_list_like_cells():
    cells = pd.Series([["a"], "b", ("c",), {"d"}, np.array([1]), None], dtype=object)
    assert list_like_cells(cells).tolist() == [True, False, True, True, True, False]
    assert not list_like_cells(pd.Series(["a", "b"])).any()
    assert not list_like_cells(pd.Series([1.0, np.nan])).any()
    index = pd.Index([10, 20])
    assert list_like_cells(pd.Series(["a", "b"], index=index)).index.equals(index)


def test_sorted_uniques():
    assert sorted_uniques([3, 1, None, 2, 1, float("nan")]) == [1, 2, 3, None]
    assert sorted_uniques(["b", 1, "a"]) == ["b", 1, "a"]  # not comparable: first seen
    assert sorted_uniques(v for v in "cab") == ["a", "b", "c"]  # a generator is read once


@pytest.mark.parametrize("series, codes, uniques", [
    (pd.Series(["b", "a", None, "b"]), [1, 0, 2, 1], ["a", "b", None]),
    (pd.Series([5, 2, 5, 9]), [1, 0, 1, 2], [2, 5, 9]),  # the presence-table path
    (pd.Series([-5, 2, -5]), [0, 1, 0], [-5, 2]),
    (pd.Series([10 ** 9, 1]), [1, 0], [1, 10 ** 9]),  # too wide for the presence table
    (pd.Series(["x", 1, "x"], dtype=object), [1, 0, 1], [1, "x"]),  # pandas' mixed order
    (pd.Series(["b", "a"], dtype="string"), [1, 0], ["a", "b"]),
    (pd.Series([1.5, np.nan, 0.5]), [1, 2, 0], [0.5, 1.5, np.nan]),
])
def test_factorize(series, codes, uniques):
    got_codes, got_uniques = factorize(series)
    assert got_codes.dtype == np.int64 and got_codes.tolist() == codes
    assert len(got_uniques) == len(uniques)
    for got, expected in zip(got_uniques, uniques):
        assert not isinstance(got, np.generic)
        assert (is_missing(got) and is_missing(expected)) or got == expected


def test_factorize_codes_reproduce_the_column():
    series = pd.Series(["q", "p", "r", "p", None, "q"])
    codes, uniques = factorize(series)
    rebuilt = [uniques[c] for c in codes]
    assert rebuilt[:4] + rebuilt[5:] == ["q", "p", "r", "p", "q"] and is_missing(rebuilt[4])


def test_require_columns_names_what_exists():
    frame = pd.DataFrame({"age": [1], "sex": ["F"], 3: [0]})
    require_columns(frame, ["age", 3])
    with pytest.raises(SchemaError) as err:
        require_columns(frame, ["age", "zip"])
    assert str(err.value) == "Column 'zip' is not in the table; columns are ['age', 'sex', 3]."


@pytest.mark.parametrize("name,choices,suggestion", [
    ("Age", ["age", "sex"], " Did you mean 'age'?"),  # case
    (" sex", ["age", "sex"], " Did you mean 'sex'?"),  # surrounding space
    ("occupaton", ["age", "occupation"], " Did you mean 'occupation'?"),  # a typo
    ("zip", ["age", "sex"], ""),  # nothing close: no guess
    (3, [1, 2, 3.5], ""),
])
def test_did_you_mean(name, choices, suggestion):
    from skyprivacy._core.encoding import did_you_mean
    assert did_you_mean(name, choices) == suggestion


def test_a_missing_column_names_the_close_one():
    from skyprivacy.errors import SchemaError
    with pytest.raises(SchemaError, match=re.escape(
            "Column 'Zip' is not in the table; columns are ['zip', 'dx']. Did you mean 'zip'?")):
        require_columns(pd.DataFrame({"zip": [1], "dx": ["a"]}), ["Zip"])
