"""skyprivacy on Dask: the QI-group model and the Mondrian search over partitioned tables.

The in-memory engines need the whole table as one pandas frame.  This subpackage runs the same
algorithms over a ``dask.dataframe.DataFrame`` (a Parquet dataset, a glob of CSV files, a frame
on a cluster) so that only aggregates reach the client:

* :func:`skyprivacy.dask_engine.release.from_table` builds the :class:`ReleaseCandidate` of a
  released table with one distributed aggregation of (group, value, count) nonzeros;
* :func:`skyprivacy.dask_engine.anonymize.skyline_anonymize` and ``k_anonymize`` run
  SkylineAnonymize's Mondrian (Chen, LeFevre and Ramakrishnan 2009, Sect. 6.2, Fig. 4) level by
  level: candidate statistics are aggregated on the workers, the client decides the splits
  with exactly the rules and order of :class:`skyprivacy.anonymize._Mondrian`, and the workers
  relabel their rows from a small table of decisions.

The pandas path never imports dask: :func:`is_dask_frame` answers without importing it, and the
public functions (``ReleaseCandidate.from_table``, ``skyline_anonymize``, ``k_anonymize``,
``build_certificate``, ``verify_certificate``) hand a dask frame to this subpackage.  Install
with ``pip install 'skyprivacy[dask]'``; see docs/dask.md.
"""

from __future__ import annotations

import sys

__all__ = ["is_dask_frame", "require_dask"]


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


def require_dask(action: str) -> None:
    """Raise one clear ImportError when the ``dask`` extra is missing."""
    try:
        import dask.dataframe  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        raise ImportError(f"{action} needs Dask: pip install 'skyprivacy[dask]' "
                          f"(dask[dataframe] and distributed).") from None
