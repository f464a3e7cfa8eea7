"""Plumbing shared by the Dask engines: ordered tree reductions, named literals, and the one
translation of cluster failures into :class:`~skyprivacy.errors.EngineError`.

Everything here runs on whichever scheduler is active: a ``distributed.Client`` when one is
the default (the command line always makes one), else dask's threads.
"""

from __future__ import annotations

import contextlib
import uuid

import dask
import numpy as np
import pandas as pd

from ..errors import EngineError, SkyPrivacyError

__all__ = ["accepts", "is_dask_frame"]


def is_dask_frame(obj: object) -> bool:
    """True for a ``dask.dataframe.DataFrame`` (a series or anything else is not a table).

    Examples
    --------
    >>> import pandas as pd
    >>> is_dask_frame(pd.DataFrame({"a": [1]}))
    False
    """
    import dask.dataframe as dd

    return isinstance(obj, dd.DataFrame)


#: What the engine registry asks before handing a call to this engine.
accepts = is_dask_frame

#: Partial results combined per task of a tree reduction.
SPLIT_EVERY = 8


def key(prefix: str) -> str:
    """A fresh task key (no hashing of large arguments)."""
    return f"skyprivacy-{prefix}-{uuid.uuid4().hex}"


def literal(value, prefix: str):
    """``value`` as one task of the graph (shared by every task that reads it, rebuilt from
    the graph if the worker holding it is lost, unlike scattered data)."""
    return dask.delayed(value, name=key(prefix), traverse=False)


def call(function, *args, prefix: str | None = None):
    """``function(*args)`` as a delayed task with a fresh key."""
    # the key names the task itself (``name=`` of dask.delayed would name only the function)
    return dask.delayed(function, pure=False)(
        *args, dask_key_name=key(prefix or function.__name__.strip("_")))


def tree_reduce(parts: list, combine, *, prefix: str = "combine",
                split_every: int = SPLIT_EVERY):
    """Combine delayed partial results in partition order, ``split_every`` at a time.

    ``combine`` receives a list of partial results (in order) and returns one; the order is
    kept so that "first occurrence" stays the first occurrence of the whole table."""
    level = list(parts)
    if not level:
        raise ValueError("tree_reduce needs at least one part")
    while len(level) > 1:
        level = [call(_on_list, combine, *level[i:i + split_every], prefix=prefix)
                 for i in range(0, len(level), split_every)]
    return level[0]


def _on_list(function, *items):
    # Delayed objects go into a task as separate arguments, never inside one list: dask
    # (2026.8) drops persisted futures from the graph of a task that receives them in a list.
    return function(list(items))


def compute(*objects):
    """``dask.compute`` with cluster failures reported as :class:`EngineError`."""
    with cluster_errors():
        return dask.compute(*objects)


def persist(*objects):
    """``dask.persist`` with cluster failures reported as :class:`EngineError`."""
    with cluster_errors():
        return dask.persist(*objects)


def _cluster_exceptions() -> tuple:
    found: list[type[BaseException]] = [TimeoutError, ConnectionError]
    try:
        from concurrent.futures import CancelledError

        found.append(CancelledError)
    except ImportError:  # pragma: no cover
        pass
    try:
        from distributed.comm.core import CommClosedError
        from distributed.scheduler import KilledWorker

        found += [KilledWorker, CommClosedError]
    except ImportError:  # pragma: no cover - distributed is part of the extra
        pass
    return tuple(found)


@contextlib.contextmanager
def cluster_errors():
    """Report a failure of the cluster itself (a worker lost beyond dask's retries, a closed
    connection, a cancelled computation) as one :class:`EngineError`; errors of the data
    (:class:`~skyprivacy.errors.SkyPrivacyError`) and bugs pass through unchanged."""
    try:
        yield
    except SkyPrivacyError:
        raise
    except _cluster_exceptions() as exc:
        detail = " ".join(str(exc).split()) or type(exc).__name__
        raise EngineError(f"The Dask cluster failed during the run ({type(exc).__name__}: "
                          f"{detail}); nothing was written.") from exc


def keep_objects():
    """Build dask collections without turning object columns into strings (dask's
    ``dataframe.convert-string``, read when a collection is made): released cells are the
    input's own cells (``39`` stays an int), as on the pandas path."""
    return dask.config.set({"dataframe.convert-string": False})


# ------------------------------------------------------------------ code tables
def merge_uniques(first: pd.Series, second: pd.Series) -> tuple[pd.Series, np.ndarray]:
    """Distinct values of ``first`` then ``second`` in order of first appearance, and the
    position of each of ``second``'s values in the result."""
    if not len(second):
        return first, np.zeros(0, dtype=np.int64)
    if not len(first):
        return second, np.arange(len(second), dtype=np.int64)
    merged = pd.Series(pd.unique(pd.concat([first, second], ignore_index=True)))
    if merged.dtype != first.dtype:
        try:
            merged = merged.astype(first.dtype)
        except (TypeError, ValueError):
            pass
    return merged, positions(merged, second)


def positions(uniques: pd.Series, values) -> np.ndarray:
    """Position of every value in ``uniques`` (missing markers match the missing entry)."""
    found = pd.Index(uniques).get_indexer(pd.Index(values))
    return np.asarray(found, dtype=np.int64)


def local_codes(column: pd.Series) -> tuple[np.ndarray, pd.Series]:
    """Codes of a column in order of first appearance, missing values kept as a category."""
    codes, uniques = pd.factorize(column, use_na_sentinel=False)
    return np.asarray(codes, dtype=np.int64), pd.Series(uniques, dtype=column.dtype
                                                         if _keeps(column) else None)


def _keeps(column: pd.Series) -> bool:
    return not isinstance(column.dtype, pd.CategoricalDtype)


# ------------------------------------------------------------------ exchanges
def _split_frame(frame: pd.DataFrame, destination: np.ndarray, n_out: int) -> list:
    """The rows of ``frame`` for each of ``n_out`` destinations, in their order."""
    if frame is None or not len(frame):
        empty = frame.iloc[:0] if frame is not None else None
        return [empty] * n_out
    order = np.argsort(destination, kind="stable")
    bounds = np.searchsorted(destination[order], np.arange(n_out + 1))
    frame = frame.iloc[order]
    return [frame.iloc[bounds[j]:bounds[j + 1]] for j in range(n_out)]


def split_by_key(frame: pd.DataFrame, column: str, n_out: int) -> list:
    """Split rows by ``column % n_out`` (keys are consecutive ids: balanced)."""
    return _split_frame(frame, frame[column].to_numpy(dtype=np.int64) % n_out, n_out)


def split_by_row(frame: pd.DataFrame, column: str, offsets: np.ndarray) -> list:
    """Split rows by the input partition holding global row ``column``."""
    n_out = len(offsets) - 1
    destination = np.searchsorted(offsets, frame[column].to_numpy(dtype=np.int64),
                                  side="right") - 1
    return _split_frame(frame, destination, n_out)


def _concat(sort_by: str | None, *pieces) -> pd.DataFrame:
    frame = pd.concat(pieces, ignore_index=True) if len(pieces) > 1 else pieces[0]
    if sort_by is not None:
        frame = frame.sort_values(sort_by, kind="stable", ignore_index=True)
    return frame


def exchange(parts: list, split, args: tuple, n_out: int, *, sort_by: str | None = None,
             prefix: str = "exchange") -> list:
    """All-to-all exchange of delayed frames: ``split(part, *args)`` cuts every part into
    ``n_out`` pieces; output j is the concatenation of every part's piece j (in part order,
    sorted by ``sort_by`` if given).  Only pieces move between workers."""
    import operator

    splits = [call(split, part, *args, prefix=f"{prefix}-split") for part in parts]
    return [call(_concat, sort_by, *[call(operator.itemgetter(j), s, prefix=f"{prefix}-piece")
                                     for s in splits], prefix=f"{prefix}-gather")
            for j in range(n_out)]
