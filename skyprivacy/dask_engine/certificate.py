"""The canonical hashes of a partitioned table, computed where its partitions live.

:mod:`skyprivacy.certificate` defines the forms; this module computes them over a dask frame:
every partition's canonical CSV is hashed on the worker holding it, so only 64 hex digits per
partition reach the client (``skyprivacy-csv-partitioned-1``).  The single-file form
(``skyprivacy-csv-1``) is one sequential hash of the whole text; computing it streams the
partitions' text through the client one partition at a time.
"""

from __future__ import annotations

import hashlib

import pandas as pd

from ..certificate import canonical_csv, text_table
from ._compute import call, compute, keep_objects

__all__ = ["text_frame", "partition_digests", "whole_sha256"]


def text_frame(ddf):
    """The table as the text of its canonical CSV, partition by partition."""
    meta = pd.DataFrame({c: pd.Series([], dtype=object) for c in ddf.columns})
    with keep_objects():
        return ddf.map_partitions(text_table, meta=meta)


def _digest(partition: pd.DataFrame) -> tuple:
    return hashlib.sha256(canonical_csv(partition).encode("utf-8")).hexdigest(), len(partition)


def partition_digests(ddf) -> list:
    """(SHA-256 of the canonical CSV, rows) of every partition, in order."""
    return list(compute(*[call(_digest, part, prefix="digest") for part in ddf.to_delayed()]))


def _text_bytes(partition: pd.DataFrame, header: bool) -> bytes:
    text = canonical_csv(partition)
    if not header:
        text = text.split("\n", 1)[1]
    return text.encode("utf-8")


def whole_sha256(ddf) -> tuple:
    """(SHA-256 of the canonical CSV of the whole table, rows): the partitions' text in order,
    one header; one partition at a time passes through the client."""
    digest = hashlib.sha256()
    n_rows = 0
    for i, part in enumerate(ddf.to_delayed()):
        (data,) = compute(call(_text_bytes, part, i == 0, prefix="text"))
        digest.update(data)
    for _, rows in partition_digests(ddf):
        n_rows += rows
    return digest.hexdigest(), n_rows
