"""skyprivacy on Dask: the QI-group model and the Mondrian search over partitioned tables.

The in-memory engines need the whole table as one pandas frame.  This subpackage runs the same
algorithms over a ``dask.dataframe.DataFrame`` (a Parquet dataset, a glob of CSV files, a frame
on a cluster) so that only aggregates reach the client:

* :func:`skyprivacy.dask_engine.release.from_table` builds the :class:`ReleaseCandidate` of a
  released table with one distributed aggregation of (group, value, count) nonzeros;
* :func:`skyprivacy.dask_engine.anonymize.skyline_anonymize` and ``k_anonymize`` run
  SkylineAnonymize's Mondrian (Chen, LeFevre and Ramakrishnan 2009, Sect. 6.2, Fig. 4) level by
  level: candidate statistics are aggregated on the workers, the client decides the splits
  with exactly the rules and order of the in-memory search, and the workers relabel their rows
  from a small table of decisions.

The engine registers itself under the ``skyprivacy.engines`` entry-point group (name ``dask``,
see ``pyproject.toml``); :func:`skyprivacy._core.engines.partitioned_engine` loads it only for a
dask frame, so the pandas path never imports dask, and the public functions
(``ReleaseCandidate.from_table``, ``skyline_anonymize``, ``k_anonymize``, the certificates) hand
a dask frame to it through :func:`skyprivacy._core.engines.dispatchable`.  Install with
``pip install 'skyprivacy[dask]'``; see docs/dask.md.
"""

from __future__ import annotations

from .._core.optional import require_dask as _require_dask

_require_dask("skyprivacy.dask_engine")  # one clear message, not the first missing module's

from ._compute import accepts, is_dask_frame  # noqa: E402
from .anonymize import anonymize, k_anonymize, skyline_anonymize  # noqa: E402
from .certificate import partition_digests, text_frame, whole_sha256  # noqa: E402
from .lattice import full_domain_search  # noqa: E402
from .release import from_table  # noqa: E402
from .risk import (  # noqa: E402
    class_sizes,
    identity_risk,
    marketer_risk,
    population_uniqueness,
    prosecutor_risk,
    sample_uniqueness,
)

__all__ = ["accepts", "is_dask_frame", "from_table", "skyline_anonymize", "k_anonymize",
           "anonymize",
           "text_frame", "partition_digests", "whole_sha256", "class_sizes", "identity_risk",
           "marketer_risk", "population_uniqueness", "prosecutor_risk", "sample_uniqueness",
           "full_domain_search"]

