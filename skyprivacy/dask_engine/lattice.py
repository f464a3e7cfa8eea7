"""Full-domain optimal search over a partitioned table: the base histogram from one scan.

The search of :mod:`skyprivacy.anonymize.lattice` reads nothing of a table but the histogram
of its distinct (QI values, sensitive value) rows: every node's classes are rolled up from it.
Here the histogram is counted on the workers (one distributed groupby-size over the
partitions, in one ``compute``), the lattice is built from it on the client with each distinct
row weighted by its count, and the very same search runs in memory, so the optimum, the
suppressed rows and the objective are those of the pandas path on the same rows.  The
released table is written lazily, partition by partition, from a small recoding table (the
label of every distinct value at the chosen levels and the codes of the suppressed classes),
and its :class:`~skyprivacy.release.ReleaseCandidate` is built by the engine's
:func:`~skyprivacy.dask_engine.release.from_table` (a second scan, of the released rows: the
independent re-derivation the pandas path makes with ``ReleaseCandidate.from_table``).

References
----------
Samarati (2001), IEEE TKDE 13(6); Kohlmayer, Prasser, Eckert, Kemper and Kuhn (2012), "Flash:
efficient, stable and optimal k-anonymity", PASSAT (the search);
:mod:`skyprivacy.anonymize.lattice` for the objectives and the suppression rule.
"""

from __future__ import annotations

import pandas as pd
from dask.dataframe.utils import make_meta

from ..anonymize.lattice import (
    AnonymizeResult,
    Recoding,
    checked_columns,
    plan_search,
    release_rows,
    result_of,
    search_optimum,
)
from ..errors import param_error
from ..release import ReleaseCandidate
from ._compute import compute, is_dask_frame, keep_objects

__all__ = ["full_domain_search"]

#: The histogram's count column (a name no table uses).
COUNT = "__skyprivacy_count__"


def histogram(table, columns: list) -> pd.DataFrame:
    """The distinct rows of ``columns`` with their counts (column :data:`COUNT`): one
    distributed groupby-size, missing values kept as values of their own."""
    with keep_objects():
        sizes = table[columns].groupby(columns, dropna=False, observed=True).size()
        (counted,) = compute(sizes)
    return counted.rename(COUNT).reset_index()


def _release_partition(part: pd.DataFrame, recoding: Recoding) -> pd.DataFrame:
    return release_rows(part, recoding.codes(part), recoding)


def full_domain_search(table, *, qi, sensitive, criteria, hierarchies=None,
                       objective: str = "loss", suppression_limit=0.0,
                       suppressed: str = "drop", semantics: str = "svpi",
                       missing: str = "error", frontier: bool = False,
                       exhaustive: bool = False, whitespace: str = "strip") -> AnonymizeResult:
    """:func:`skyprivacy.anonymize.lattice.full_domain_search` over a dask DataFrame.

    Same parameters and result; ``.table`` is a dask DataFrame (the released rows, written
    lazily per partition), ``.candidate`` the model of those rows.  Only single-valued
    sensitive cells (``semantics='svpi'``) are counted by the scan.

    Raises
    ------
    InvalidParameterError
        As the pandas path, and for ``semantics`` other than ``'svpi'``.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> from skyprivacy.criteria import KAnonymity
    >>> t = pd.DataFrame({"sex": ["F", "F", "M", "M"], "zip": ["1", "2", "1", "2"],
    ...                   "dx": ["a", "b", "a", "b"]})
    >>> r = full_domain_search(dd.from_pandas(t, npartitions=2), qi=["sex", "zip"],
    ...                        sensitive="dx", criteria=KAnonymity(2))
    >>> r.levels, r.table.compute()["zip"].tolist()
    ({'sex': 0, 'zip': 1}, ['*', '*', '*', '*'])
    """
    owner = "anonymize"
    if not is_dask_frame(table):
        raise param_error("table", owner, "be a dask DataFrame", type(table).__name__)
    names = checked_columns(table, qi, sensitive, owner)
    if semantics != "svpi":
        raise param_error("semantics", owner, "be 'svpi' for a dask frame (the histogram "
                          "counts one sensitive value per row)", semantics)
    counted = histogram(table, [*names, sensitive])
    weights = counted[COUNT].to_numpy()
    rows = counted.drop(columns=COUNT)
    plan = plan_search(rows, weights, qi=names, sensitive=sensitive, criteria=criteria,
                       hierarchies=hierarchies, objective=objective,
                       suppression_limit=suppression_limit, suppressed=suppressed,
                       semantics=semantics, missing=missing, owner=owner,
                       whitespace=whitespace)
    optimum = search_optimum(rows, weights, plan, frontier=frontier, exhaustive=exhaustive)
    with keep_objects():
        meta = _release_partition(make_meta(table), optimum.recoding)
        released = table.map_partitions(_release_partition, optimum.recoding, meta=meta)
    candidate = ReleaseCandidate.from_table(released, sensitive=sensitive, qi=plan.qi,
                                            semantics=plan.semantics, missing=missing,
                                            whitespace=whitespace)
    return result_of(released, candidate, optimum, plan)
