"""ReleaseCandidate.from_table on a dask frame equals the pandas path: all three semantics,
missing values as a category, and every error with the same message."""
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skyprivacy import ReleaseCandidate


def both(table, to_dask, npartitions=3, **kwargs):
    expected = ReleaseCandidate.from_table(table, **kwargs)
    got = ReleaseCandidate.from_table(to_dask(table, npartitions), **kwargs)
    return expected, got


def raises_same(table, to_dask, npartitions=3, **kwargs):
    with pytest.raises(Exception) as pandas_error:
        ReleaseCandidate.from_table(table, **kwargs)
    with pytest.raises(type(pandas_error.value), match=re.escape(str(pandas_error.value))):
        ReleaseCandidate.from_table(to_dask(table, npartitions), **kwargs)
    return str(pandas_error.value)


def svpi_table(seed, n):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "age": rng.integers(20, 30, n),
        "zip": rng.choice(["479*", "473*", "48**"], n),
        "sex": rng.choice(["F", "M"], n),
        "disease": rng.choice(["flu", "aids", "cancer", "cold"], n),
    }, index=pd.Index(rng.permutation(n) * 3, name="rid"))


def test_svpi_one_and_several_keys(to_dask):
    table = svpi_table(0, 200)
    for qi in ("zip", ["age", "zip", "sex"]):
        expected, got = both(table, to_dask, 4, qi=qi, sensitive="disease")
        assert got == expected
        assert got.n_groups > 1
    expected, got = both(table, to_dask, 4, group="age", sensitive="disease")
    assert got == expected


@settings(max_examples=10)
@given(seed=st.integers(0, 10**6), npartitions=st.integers(1, 6),
       semantics=st.sampled_from(["svpi", "mvpi-set", "mvpi-multiset"]))
def test_random_tables_equal_the_pandas_path(to_dask, seed, npartitions, semantics):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 60))
    table = pd.DataFrame({"a": rng.integers(0, 4, n), "b": rng.choice(["x", "y", "z"], n)})
    if semantics == "svpi":
        table["s"] = rng.choice(list("pqrst"), n)
    else:
        table["s"] = pd.Series([sorted(set(rng.choice(list("pqrst"), int(rng.integers(0, 3)))))
                                for _ in range(n)], dtype=object)
    npartitions = min(npartitions, n)
    expected, got = both(table, to_dask, npartitions, qi=["a", "b"], sensitive="s",
                         semantics=semantics)
    assert got == expected


def test_mvpi_through_an_individual_column(to_dask):
    table = pd.DataFrame({"g": ["a", "a", "a", "b", "b", "c"],
                          "p": [1, 1, 2, 3, 3, 4],
                          "v": ["x", "y", "x", "x", "z", "y"]})
    for semantics in ("mvpi-set", "mvpi-multiset"):
        expected, got = both(table, to_dask, 3, group="g", sensitive="v", individual="p",
                             semantics=semantics)
        assert got == expected
        assert got.sizes_array.tolist() == [2, 1, 1]
    expected, got = both(table.assign(p=range(6)), to_dask, 2, group="g", sensitive="v",
                         individual="p")
    assert got == expected


def test_list_cells_and_empty_sets(to_dask):
    table = pd.DataFrame({"g": [1, 1, 2, 2, 3],
                          "v": [["a", "b"], [], ("b",), np.array(["c", "a"]), "a"]})
    for semantics in ("mvpi-set", "mvpi-multiset"):
        expected, got = both(table, to_dask, 3, group="g", sensitive="v", semantics=semantics)
        assert got == expected


def test_missing_values_as_a_category(to_dask):
    table = pd.DataFrame({"zip": ["1", None, "2", None, "1"],
                          "age": [1.0, 2.0, np.nan, 2.0, 1.0],
                          "disease": ["a", None, "b", "a", np.nan]})
    expected, got = both(table, to_dask, 2, qi=["zip", "age"], sensitive="disease",
                         missing="as_value")
    assert got == expected
    lists = pd.DataFrame({"g": [1, 1, 2], "v": [["a", None], ["b"], [None]]})
    expected, got = both(lists, to_dask, 2, group="g", sensitive="v",
                         semantics="mvpi-multiset", missing="as_value")
    assert got == expected


def test_mixed_types_keep_first_seen_order(to_dask):
    table = pd.DataFrame({"g": pd.Series(["b", 2, "a", 1, 2, "b"], dtype=object),
                          "v": pd.Series([3, "x", 3, "x", "y", 3], dtype=object)})
    expected, got = both(table, to_dask, 3, group="g", sensitive="v")
    assert got == expected


@pytest.mark.parametrize("table, kwargs", [
    (pd.DataFrame({"zip": ["1", None, None], "disease": ["a", "b", "a"]}),
     dict(qi="zip", sensitive="disease")),
    (pd.DataFrame({"g": [1, 1, 2], "v": [["a", None], ["b"], [None]]}),
     dict(group="g", sensitive="v", semantics="mvpi-multiset")),
    (pd.DataFrame({"g": [1, 2, 2], "v": ["a", ["a", "b"], ["c"]]}, index=[5, 6, 7]),
     dict(group="g", sensitive="v")),
    (pd.DataFrame({"g": [1, 1, 2, 2], "v": ["a", "b", "c", "d"], "p": [7, 8, 9, 7]}),
     dict(group="g", sensitive="v", individual="p")),
    (pd.DataFrame({"g": [1, 2, 1, 3], "v": ["a", "b", "c", "d"],
                   "p": ["bob", "ann", "ann", "bob"]}),
     dict(group="g", sensitive="v", individual="p", semantics="mvpi-set")),
    (pd.DataFrame({"g": [1, 1, 1, 1], "v": ["a", "b", "b", "a"],
                   "p": ["zed", "ann", "ann", "zed"]}),
     dict(group="g", sensitive="v", individual="p", semantics="mvpi-set")),
    (pd.DataFrame({"g": [1, 1, 1], "v": [["b"], ["c", "a", "c", "a"], ["b", "b"]]},
                  index=["r1", "r2", "r3"]),
     dict(group="g", sensitive="v", semantics="mvpi-set")),
    (pd.DataFrame({"a": [1], "b": ["x"]}), dict(qi="zip", sensitive="b")),
    (pd.DataFrame({"a": [1], "b": ["x"]}), dict(qi="a", sensitive="a")),
    (pd.DataFrame({"a": [1], "b": ["x"]}), dict(qi="a", group="a", sensitive="b")),
    (pd.DataFrame({"a": [1], "b": ["x"]}), dict(qi="a", sensitive="b", semantics="x")),
    (pd.DataFrame({"a": [1], "b": ["x"]}), dict(qi="a", sensitive="b", missing="drop")),
    (pd.DataFrame({"a": [1], "b": ["x"]}).iloc[:0], dict(qi="a", sensitive="b")),
])
def test_errors_are_the_pandas_errors(to_dask, table, kwargs):
    message = raises_same(table, to_dask, min(2, max(len(table), 1)), **kwargs)
    assert message


def test_error_messages_in_full(to_dask):
    table = pd.DataFrame({"g": [1, 2, 1, 3], "v": ["a", "b", "c", "d"],
                          "p": ["bob", "ann", "ann", "bob"]})
    assert raises_same(table, to_dask, 2, group="g", sensitive="v", individual="p",
                       semantics="mvpi-set") == (
        "Individual 'bob' appears in more than one QI-group; each individual must belong to "
        "exactly one group.")
    cells = pd.DataFrame({"g": [1, 1, 1], "v": [["b"], ["c", "a", "c", "a"], ["b", "b"]]},
                         index=["r1", "r2", "r3"])
    assert raises_same(cells, to_dask, 3, group="g", sensitive="v", semantics="mvpi-set") == (
        "The individual in row 'r2' holds value 'a' more than once; mvpi-set allows each "
        "value at most once per person (use semantics='mvpi-multiset').")
