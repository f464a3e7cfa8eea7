"""Partitioned tables in and out on the workers (skyprivacy/dask_engine/io.py): CSV and Parquet
files read as text, one Parquet file written per partition, and the missing cells counted where
the partitions live.  File names and errors are skyprivacy.io's (their messages are asserted
through the command line in test_cli.py)."""
import os

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from skyprivacy.io import read_parquet_part
from skyprivacy.dask_engine.io import (first_missing, read_csv_files, read_parquet_files,
                                       write_parquet_files)


def cells(frame) -> dict:
    return frame.compute().to_dict("list")


# --- reading ----------------------------------------------------------------------------------

@pytest.fixture
def csv_files(tmp_path):
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    # a byte-order mark, an "NA" that is text, an empty cell and a short row
    first.write_text("\ufeffage;sex;note\n39;F;NA\n50;M;\n7;F\n", encoding="utf-8")
    second.write_text("age;sex;note\n07;M;x\n", encoding="utf-8")
    return [str(first), str(second)]


def test_csv_files_are_read_as_their_text(client, csv_files):
    frame = read_csv_files(csv_files, ";", True)
    assert frame.npartitions == 2  # one partition per file, in the given order
    assert frame.columns.tolist() == ["age", "sex", "note"]
    assert set(frame.dtypes) == {np.dtype(object)}
    assert cells(frame) == {"age": ["39", "50", "7", "07"], "sex": ["F", "M", "F", "M"],
                            "note": ["NA", "", "", "x"]}


def test_csv_files_read_in_blocks_hold_the_same_cells(client, csv_files):
    assert cells(read_csv_files(csv_files, ";", False)) == \
        cells(read_csv_files(csv_files, ";", True))


def test_parquet_files_are_one_partition_each_with_cells_as_their_csv_text(client, tmp_path):
    first, second = tmp_path / "p0.parquet", tmp_path / "p1.parquet"
    # a non-default index is stored as the column __index_level_0__: not a column of the table
    pd.DataFrame({"age": [39, 50], "score": [0.5, 1.0], "job": ["x", None]},
                 index=[10, 11]).to_parquet(first)
    pd.DataFrame({"age": [7], "score": [2.25], "job": ["y"]}).to_parquet(second, index=False)
    assert "__index_level_0__" in pq.read_schema(first).names
    frame = read_parquet_files([str(first), str(second)], read_parquet_part)
    assert frame.npartitions == 2 and frame.columns.tolist() == ["age", "score", "job"]
    computed = frame.compute()
    assert computed.to_dict("list") == {"age": ["39", "50", "7"],
                                        "score": ["0.5", "1.0", "2.25"], "job": ["x", "", "y"]}
    assert computed.index.tolist() == [0, 1, 0]  # each file's rows numbered from 0


# --- writing ----------------------------------------------------------------------------------

def test_every_partition_is_one_parquet_file_with_object_columns_as_text(to_dask, tmp_path):
    table = pd.DataFrame({"age": [39, 50, 7, 8, 9, 10],
                          "cell": pd.Series([39, "x", "[1-5]", 4.5, "y", None], dtype=object)})
    frame = to_dask(table, 3)
    assert write_parquet_files(frame, str(tmp_path)) is None
    names = sorted(os.listdir(tmp_path))
    assert names == [f"part.{i:05d}.parquet" for i in range(frame.npartitions)]
    parts = [pd.read_parquet(tmp_path / name) for name in names]
    assert [len(p) for p in parts] == frame.map_partitions(len).compute().tolist()
    back = pd.concat(parts, ignore_index=True)
    assert back["age"].dtype == "int64" and back["age"].tolist() == [39, 50, 7, 8, 9, 10]
    # the later partitions (index 2, 3, ...) are aligned by position, not by label
    assert back["cell"].tolist() == ["39", "x", "[1-5]", "4.5", "y", ""]
    assert all(pq.read_schema(tmp_path / name).names == ["age", "cell"] for name in names)


# --- missing cells ----------------------------------------------------------------------------

TEXT = pd.DataFrame({"age": ["39", "", "50", "NA", "x", " "],
                     "sex": ["F", "M", "F", "M", "F", "M"],
                     "b": ["1", "2", "3", "?", "5", ""],
                     "obj": pd.Series(["a", None, "b", 5, "c", "d"], dtype=object)})


@pytest.mark.parametrize("npartitions", [1, 4])
def test_missing_cells_are_counted_with_the_first_global_row(to_dask, npartitions):
    frame = to_dask(TEXT, npartitions)
    assert first_missing(frame, ["age", "sex", "age", "b"], ("NA", "?")) == [
        ("age", 3, 1, ""),       # "", "NA" and " " (blank after stripping)
        ("sex", 0, -1, None),
        ("b", 2, 3, "?"),        # in the second partition when there are four
    ]


def test_only_the_given_markers_count_and_a_cell_that_is_not_text_is_missing(to_dask):
    frame = to_dask(TEXT, 3)
    assert first_missing(frame, ["age", "b", "obj"], ()) == [
        ("age", 2, 1, ""), ("b", 1, 5, ""), ("obj", 2, 1, None)]
