"""skyprivacy on Dask: the QI-group model and the Mondrian search over partitioned tables.

The in-memory engines need the whole table as one pandas frame.  This subpackage runs the same
algorithms over a ``dask.dataframe.DataFrame`` (a Parquet dataset, a glob of CSV files, a frame
on a cluster) so that only aggregates reach the client:

* :func:`skyprivacy.dask_engine.release.from_table` builds the :class:`ReleaseCandidate` of a
  released table with one distributed aggregation of (group, value, count) nonzeros;
* :func:`skyprivacy.dask_engine.anonymize.skyline_anonymize` and ``k_anonymize`` run
  SkylineAnonymize's Mondrian (Chen, LeFevre and Ramakrishnan 2009, Sect. 6.2, Fig. 4) level by
  level: candidate statistics are aggregated on the workers, the client decides the splits
  with exactly the rules and order of :class:`skyprivacy.anonymize.Mondrian`, and the workers
  relabel their rows from a small table of decisions.

The pandas path never imports dask: :func:`skyprivacy._core.engines.partitioned_engine`
answers without importing it, and the public functions (``ReleaseCandidate.from_table``,
``skyline_anonymize``, ``k_anonymize``, ``build_certificate``, ``verify_certificate``) hand a
dask frame to this subpackage.  Install
with ``pip install 'skyprivacy[dask]'``; see docs/dask.md.
"""

from __future__ import annotations

from .._core.engines import is_dask_frame, require_dask

require_dask("skyprivacy.dask_engine")  # one clear message, not the first missing module's

from .anonymize import k_anonymize, skyline_anonymize  # noqa: E402
from .certificate import partition_digests, text_frame, whole_sha256  # noqa: E402
from .release import from_table  # noqa: E402

__all__ = ["is_dask_frame", "require_dask", "from_table", "skyline_anonymize", "k_anonymize",
           "text_frame", "partition_digests", "whole_sha256"]
