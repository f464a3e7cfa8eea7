"""Which engine takes a call: the in-memory pandas path, or a partitioned (Dask) table's.

The public functions of the model and the algorithms (``ReleaseCandidate.from_table``,
``skyline_anonymize``, ``k_anonymize``, the certificates) read pandas frames themselves and hand
a partitioned table to :mod:`skyprivacy.dask_engine`, which implements the same call over its
partitions.  They find that engine here, by the type of the data, and import it only then: the
pandas path never imports dask, and nothing below the edge imports the engine by name.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

__all__ = ["is_dask_frame", "partitioned_engine", "require_dask"]


def is_dask_frame(obj: object) -> bool:
    """True for a ``dask.dataframe.DataFrame``, without importing dask.

    Nothing can be a dask frame unless dask is already imported, so the pandas path never
    pays for the check.

    Examples
    --------
    >>> import pandas as pd
    >>> is_dask_frame(pd.DataFrame({"a": [1]}))
    False
    """
    if "dask" not in sys.modules:
        return False
    if not (type(obj).__module__ or "").startswith("dask"):
        return False
    import dask.dataframe as dd

    return isinstance(obj, dd.DataFrame)


def partitioned_engine(obj: object) -> ModuleType | None:
    """The engine of a partitioned table (:mod:`skyprivacy.dask_engine` for a dask frame),
    or None for anything the in-memory path reads."""
    if is_dask_frame(obj):
        return importlib.import_module("skyprivacy.dask_engine")
    return None


def require_dask(action: str) -> None:
    """Raise one clear ImportError when the ``dask`` extra is missing."""
    try:
        import dask.dataframe  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        raise ImportError(f"{action} needs Dask: pip install 'skyprivacy[dask]' "
                          f"(dask[dataframe] and distributed).") from None
