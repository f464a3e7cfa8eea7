"""The plumbing the Dask engines share (skyprivacy/dask_engine/_compute.py): task keys, ordered
tree reductions, cluster failures as EngineError, code tables and the
all-to-all exchange.  Everything is checked on tables small enough to work out by hand (the
distinct rows of code columns are the sources', tests/anonymize/test_source.py)."""
import re
import types
from concurrent.futures import CancelledError

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest
from distributed.comm.core import CommClosedError
from distributed.scheduler import KilledWorker

from skyprivacy.dask_engine._compute import (SPLIT_EVERY, call, cluster_errors, compute,
                                             exchange, keep_objects, key, literal, local_codes,
                                             merge_uniques, persist, positions, split_by_key,
                                             split_by_row, tree_reduce)
from skyprivacy.errors import EngineError, SchemaError

KEY = re.compile(r"skyprivacy-(?P<prefix>[\w-]+)-[0-9a-f]{32}")


# --- task keys and tasks ----------------------------------------------------------------------

def test_keys_are_fresh_and_name_their_prefix():
    first, second = key("scan"), key("scan")
    assert KEY.fullmatch(first)["prefix"] == "scan" and first != second


def _twice(x):
    return 2 * x


def test_a_literal_is_one_task_under_its_named_key(client):
    value = literal([1, 2], "table")
    assert KEY.fullmatch(value.key)["prefix"] == "table"
    assert compute(value) == ([1, 2],)


def test_call_makes_a_fresh_task_for_every_call(client):
    value = literal([1, 2], "table")
    doubled, again = call(_twice, value), call(_twice, value, prefix="double")
    assert doubled.key != again.key  # pure=False: the same call twice is two tasks
    assert compute(doubled, again) == ([1, 2, 1, 2], [1, 2, 1, 2])


def test_a_call_is_named_by_its_prefix_or_its_function():
    """Task keys say what runs (the dashboard and the fault tests read them)."""
    assert KEY.fullmatch(call(_twice, 1, prefix="read-parquet").key)["prefix"] == "read-parquet"
    assert KEY.fullmatch(call(_twice, 1).key)["prefix"] == "twice"
    combined = tree_reduce([literal(1, "p"), literal(2, "p")], _as_tuple)
    assert KEY.fullmatch(combined.key)["prefix"] == "combine"


def test_persist_keeps_the_results_on_the_cluster(client):
    (persisted,) = persist(call(_twice, 21))
    assert persisted.compute() == 42


# --- tree_reduce ------------------------------------------------------------------------------

def _as_tuple(items):
    return tuple(items)


def test_tree_reduce_combines_split_every_parts_at_a_time_in_order(client):
    parts = [literal(i, "part") for i in range(7)]
    (tree,) = compute(tree_reduce(parts, _as_tuple, split_every=3))
    assert tree == ((0, 1, 2), (3, 4, 5), (6,))


def test_tree_reduce_by_default_combines_eight_at_a_time(client):
    assert SPLIT_EVERY == 8
    (tree,) = compute(tree_reduce([literal(i, "part") for i in range(9)], _as_tuple))
    assert tree == ((0, 1, 2, 3, 4, 5, 6, 7), (8,))


def test_one_part_is_its_own_reduction_and_none_is_an_error():
    part = literal(5, "part")
    assert tree_reduce([part], _as_tuple) is part  # combine is not called on a single part
    with pytest.raises(ValueError, match=re.escape("tree_reduce needs at least one part")):
        tree_reduce([], _as_tuple)


# --- cluster failures -------------------------------------------------------------------------

def _fail(error):
    raise error


@pytest.mark.parametrize("error, message", [
    (TimeoutError("no answer\n  from the scheduler"),
     "The Dask cluster failed during the run (TimeoutError: no answer from the scheduler); "
     "nothing was written."),
    (ConnectionError(), "The Dask cluster failed during the run (ConnectionError: "
                        "ConnectionError); nothing was written."),
    (CancelledError("run cancelled"), "The Dask cluster failed during the run "
                                      "(CancelledError: run cancelled); nothing was written."),
    (CommClosedError("in <TCP (closed)>: Stream is closed"),
     "The Dask cluster failed during the run (CommClosedError: in <TCP (closed)>: Stream is "
     "closed); nothing was written."),
])
def test_cluster_failures_become_one_engine_error(error, message):
    with pytest.raises(EngineError, match=f"^{re.escape(message)}$") as caught:
        with cluster_errors():
            raise error
    assert caught.value.__cause__ is error


def test_a_killed_worker_is_a_cluster_failure_on_one_line():
    error = KilledWorker("task-1", types.SimpleNamespace(address="tcp://10.0.0.1:4000"), 3)
    with pytest.raises(EngineError) as caught:
        with cluster_errors():
            raise error
    text = str(caught.value)
    assert text.startswith("The Dask cluster failed during the run (KilledWorker: Attempted to "
                           "run task 'task-1' on ")
    assert "tcp://10.0.0.1:4000" in text and "\n" not in text
    assert text.endswith("); nothing was written.")


@pytest.mark.parametrize("error", [SchemaError("Column 'age' is not in the table."),
                                   ValueError("a bug"), KeyError("age")])
def test_data_errors_and_bugs_pass_through_unchanged(error):
    with pytest.raises(type(error)) as caught:
        with cluster_errors():
            raise error
    assert caught.value is error


def test_compute_reports_a_failure_on_the_cluster_as_an_engine_error(client):
    with pytest.raises(EngineError, match=re.escape(
            "The Dask cluster failed during the run (TimeoutError: worker gone); nothing was "
            "written.")):
        compute(call(_fail, TimeoutError("worker gone")))
    with pytest.raises(SchemaError, match=re.escape("Column 'x' is missing.")):
        compute(call(_fail, SchemaError("Column 'x' is missing.")))


def test_keep_objects_keeps_cells_as_the_input_holds_them():
    frame = pd.DataFrame({"age": pd.Series([39, "x"], dtype=object)})
    with keep_objects():
        assert dask.config.get("dataframe.convert-string") is False
        kept = dd.from_pandas(frame, npartitions=1)
    assert kept.compute(scheduler="sync")["age"].tolist() == [39, "x"]  # 39 is not "39"


# --- code tables ------------------------------------------------------------------------------

def test_merge_uniques_appends_the_new_values_in_order_of_appearance():
    merged, where = merge_uniques(pd.Series(["b", "a"]), pd.Series(["a", "c", "d"]))
    assert merged.tolist() == ["b", "a", "c", "d"]
    assert where.tolist() == [1, 2, 3] and where.dtype == np.int64


def test_merge_uniques_with_an_empty_side():
    first, second = pd.Series([3, 1]), pd.Series([7, 5])
    merged, where = merge_uniques(first, second.iloc[:0])
    assert merged is first and where.tolist() == [] and where.dtype == np.int64
    merged, where = merge_uniques(first.iloc[:0], second)
    assert merged is second and where.tolist() == [0, 1]


def test_merge_uniques_keeps_the_first_tables_type_when_it_can():
    merged, where = merge_uniques(pd.Series([1, 2]), pd.Series([2.0, 3.0]))
    assert merged.dtype == np.int64 and merged.tolist() == [1, 2, 3] and where.tolist() == [1, 2]
    merged, where = merge_uniques(pd.Series([1]), pd.Series(["a"], dtype=object))
    assert merged.dtype == object and merged.tolist() == [1, "a"] and where.tolist() == [1]


def test_a_missing_value_is_one_entry_of_the_merged_table():
    # the code tables come from local_codes, where a missing cell is NaN
    merged, where = merge_uniques(pd.Series(["a", np.nan], dtype=object),
                                  pd.Series([np.nan, "b"], dtype=object))
    assert merged.iloc[0] == "a" and pd.isna(merged.iloc[1]) and merged.iloc[2] == "b"
    assert where.tolist() == [1, 2]
    merged, where = merge_uniques(pd.Series([1.0, np.nan]), pd.Series([np.nan, 2.0]))
    assert len(merged) == 3 and where.tolist() == [1, 2]


def test_positions_of_values_absent_from_the_table_are_minus_one():
    found = positions(pd.Series(["a", "b", np.nan], dtype=object), ["b", np.nan, "z", "a"])
    assert found.tolist() == [1, 2, -1, 0] and found.dtype == np.int64


def test_local_codes_number_values_in_order_of_first_appearance():
    codes, uniques = local_codes(pd.Series(["b", "a", "b", None], dtype=object))
    assert codes.tolist() == [0, 1, 0, 2] and codes.dtype == np.int64
    assert uniques.dtype == object and uniques.iloc[:2].tolist() == ["b", "a"]
    assert pd.isna(uniques.iloc[2])  # a missing value is a category of its own
    codes, uniques = local_codes(pd.Series([30, 10, 30]))
    assert codes.tolist() == [0, 1, 0] and uniques.tolist() == [30, 10]
    assert uniques.dtype == np.int64


def test_local_codes_of_a_categorical_follow_the_data_not_the_categories():
    column = pd.Series(pd.Categorical(["y", "x", "y"], categories=["x", "y"]))
    codes, uniques = local_codes(column)
    assert codes.tolist() == [0, 1, 0] and uniques.tolist() == ["y", "x"]


# --- exchanges --------------------------------------------------------------------------------

def test_split_by_key_sends_each_row_to_its_key_modulo_the_outputs_keeping_order():
    frame = pd.DataFrame({"g": [3, 0, 4, 1, 5, 2], "v": list("abcdef")},
                         index=[10, 11, 12, 13, 14, 15])
    pieces = split_by_key(frame, "g", 3)
    assert [p["g"].tolist() for p in pieces] == [[3, 0], [4, 1], [5, 2]]
    assert [p.index.tolist() for p in pieces] == [[10, 11], [12, 13], [14, 15]]
    pieces = split_by_key(frame, "g", 7)  # key 6 has no row: an empty piece
    assert [p["v"].tolist() for p in pieces] == [["b"], ["d"], ["f"], ["a"], ["c"], ["e"], []]


def test_split_by_key_of_no_rows_gives_empty_pieces_with_the_columns():
    pieces = split_by_key(pd.DataFrame({"g": [], "v": []}), "g", 2)
    assert len(pieces) == 2 and all(p.empty and p.columns.tolist() == ["g", "v"]
                                    for p in pieces)


def test_split_by_row_sends_each_row_to_the_partition_holding_it():
    # input partitions of 3, 2 and 4 rows hold global rows 0-2, 3-4 and 5-8
    frame = pd.DataFrame({"row": [8, 0, 4, 3, 2, 5]})
    pieces = split_by_row(frame, "row", np.array([0, 3, 5, 9]))
    assert [p["row"].tolist() for p in pieces] == [[0, 2], [4, 3], [8, 5]]


def test_exchange_gathers_every_parts_piece_in_part_order(client):
    parts = [literal(pd.DataFrame({"g": [0, 1, 2, 3]}), "part"),
             literal(pd.DataFrame({"g": [6, 5, 4]}), "part")]
    gathered = exchange(parts, split_by_key, ("g", 2), 2)
    in_order = exchange(parts, split_by_key, ("g", 2), 2, sort_by="g")
    unsorted, ordered = compute(gathered, in_order)
    assert [o["g"].tolist() for o in unsorted] == [[0, 2, 6, 4], [1, 3, 5]]
    assert [o["g"].tolist() for o in ordered] == [[0, 2, 4, 6], [1, 3, 5]]
    assert [o.index.tolist() for o in ordered] == [[0, 1, 2, 3], [0, 1, 2]]
