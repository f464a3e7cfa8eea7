"""Partitioned tables on the way in and out: the work :mod:`skyprivacy.io` hands to the
workers (reading files as text, counting missing cells, writing one Parquet file per
partition).  File names and errors are decided in :mod:`skyprivacy.io`."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

from .._core.encoding import missing_mask
from ..certificate import text_table
from ._compute import call, compute, keep_objects

__all__ = ["read_parquet_files", "read_csv_files", "write_parquet_files", "first_missing"]


def _text_columns(columns) -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series([], dtype=object) for c in columns})


def read_parquet_files(files: list, read_part):
    """One partition per file, in the given order, cells as their CSV text (``read_part``:
    path -> frame of text, run on the workers; :func:`skyprivacy.io.read_parquet_part`, which
    words a bad part's error)."""
    import dask.dataframe as dd
    import pyarrow.parquet as pq

    columns = [name for name in pq.read_schema(files[0]).names
               if not name.startswith("__index_level_")]
    with keep_objects():
        return dd.from_delayed([call(read_part, f, prefix="read-parquet") for f in files],
                               meta=_text_columns(columns), verify_meta=False)


def _blank_missing(frame: pd.DataFrame) -> pd.DataFrame:
    # short rows leave NaN even without NA filtering; they are missing (empty) cells
    return frame.where(frame.notna(), "")


def read_csv_files(files: list, sep: str, one_partition_per_file: bool,
                   encoding: str = "utf-8-sig"):
    """CSV files as text (in blocks, or one partition per file), in ``encoding``."""
    import dask.dataframe as dd

    with keep_objects():
        frame = dd.read_csv(files, sep=sep, dtype=object, keep_default_na=False,
                            na_filter=False, encoding=encoding,
                            blocksize=None if one_partition_per_file else "64MB")
        return frame.map_partitions(_blank_missing, meta=_text_columns(frame.columns))


def _write_one(partition: pd.DataFrame, path: str) -> int:
    # object columns (a generalized QI mixes input cells and range labels) are written as the
    # text of their canonical CSV: what a certificate hashes, and what pyarrow can store
    objects = [c for c in partition.columns if partition[c].dtype == object]
    if objects:
        text = text_table(partition[objects])
        text.index = partition.index  # text_table numbers rows from 0: align by position
        partition = partition.copy()
        partition[objects] = text
    partition.to_parquet(path, index=False)
    return len(partition)


def write_parquet_files(table, folder: str) -> None:
    """Write every partition to ``folder/part.NNNNN.parquet`` (on the workers: ``folder`` must
    be visible to them, as it is on a local cluster or a shared file system)."""
    compute(*[call(_write_one, part, os.path.join(folder, f"part.{i:05d}.parquet"),
                   prefix="write-parquet") for i, part in enumerate(table.to_delayed())])


def _missing_of(partition: pd.DataFrame, columns: list, na_values: tuple) -> list:

    out = []
    for column in columns:
        mask = missing_mask(partition[column], na_values).to_numpy(dtype=bool)
        if mask.any():
            first = int(np.flatnonzero(mask)[0])
            out.append((int(mask.sum()), first, partition[column].iloc[first]))
        else:
            out.append((0, -1, None))
    return [len(partition), out]


def first_missing(table, columns, na_values: tuple) -> list:
    """Per column: (column, missing cells, first data row (0-based) holding one, its text)."""
    columns = list(dict.fromkeys(columns))
    parts = compute(*[call(_missing_of, part, columns, tuple(na_values), prefix="missing")
                      for part in table[columns].to_delayed()])
    out = []
    for i, column in enumerate(columns):
        total, first, cell, offset = 0, -1, None, 0
        for n_rows, found in parts:
            count, at, text = found[i]
            if count and first < 0:
                first, cell = offset + at, text
            total += count
            offset += n_rows
        out.append((column, total, first, cell))
    return out
