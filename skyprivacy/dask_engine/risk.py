"""Re-identification risk of a partitioned table: every count-based measure from one scan.

Every count-based measure of :mod:`skyprivacy.risk` is a function of the histogram of
equivalence-class sizes (El Emam and Dankar 2008) and, for the list of the records at the
highest risk, of the few smallest classes.  Here the classes are counted on the workers (a
distributed groupby-size of the quasi-identifiers); the sizes are reduced there to their
histogram and to the ``top`` smallest classes, and only those reach the client, where
:func:`skyprivacy.risk.identity_from_sizes` turns them into the same figures as the pandas
path (exact fractions equal, not close; of several classes tied for the last places of the
highest-risk list, the ones listed may differ).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from .._core.encoding import column_names, require_columns
from ..errors import SchemaError, param_error
from ..release import missing_values_error
from ..risk import (
    ClassSizes,
    IdentityRisk,
    PopulationUniqueness,
    ProsecutorRisk,
    check_options,
    check_population_size,
    identity_from_sizes,
    population_uniques_from_sizes,
)
from ._compute import compute, is_dask_frame, keep_objects

__all__ = ["class_sizes", "identity_risk", "prosecutor_risk", "marketer_risk",
           "sample_uniqueness", "population_uniqueness"]


def _columns(table, qi, owner: str) -> list:
    if not is_dask_frame(table):
        raise param_error("table", owner, "be a dask DataFrame", type(table).__name__)
    names = column_names(qi, name="qi", owner=owner)
    if len(set(names)) != len(names):
        raise param_error("qi", owner, "name each column once", qi)
    require_columns(table, names)
    return names


def _scan(table, names: list, top: int, missing: str) -> tuple:
    """One pass over the partitions: (histogram, the ``top`` smallest classes)."""
    with keep_objects():
        sizes = table.groupby(names, dropna=False, observed=True).size()
        counts = sizes.value_counts()
        smallest = sizes.nsmallest(top) if top else None
        wanted = [counts, table[names].isna().sum()]
        if smallest is not None:
            wanted.append(smallest)
        found = compute(*wanted)
    counts, n_missing = found[0], found[1]
    if missing == "error":
        for column, count in n_missing.items():
            if count:
                raise missing_values_error(column, int(count))
    if counts.empty:
        raise SchemaError("The table is empty: risk needs at least one record.")
    counts = counts.sort_index()
    hist = ClassSizes(tuple(int(s) for s in counts.index), tuple(int(c) for c in counts))
    if smallest is None:
        top_classes = pd.Series([], dtype=np.int64, name="class_size",
                                index=pd.MultiIndex.from_arrays([[]] * len(names), names=names)
                                if len(names) > 1 else pd.Index([], name=names[0]))
    else:  # smallest first; among tied classes, which are listed may differ from pandas'
        top_classes = found[2].astype(np.int64).sort_values(kind="stable")
    return hist, top_classes


def identity_risk(table, *, qi, threshold=None, top: int = 10,
                  population_size: int | None = None, model: str = "dankar",
                  missing: str = "error") -> IdentityRisk:
    """:func:`skyprivacy.risk.identity_risk` of a dask frame, from one scan of its
    partitions."""
    owner = "identity_risk"
    names = _columns(table, qi, owner)
    limit = check_options(owner, threshold=threshold, top=top, model=model, missing=missing)
    hist, top_classes = _scan(table, names, int(top), missing)
    return identity_from_sizes(names, hist, top_classes, threshold=limit,
                               population_size=population_size, model=model, owner=owner)


def class_sizes(table, *, qi, missing: str = "error") -> ClassSizes:
    """:func:`skyprivacy.risk.class_sizes` of a dask frame."""
    return identity_risk(table, qi=qi, top=0, missing=missing).class_sizes


def prosecutor_risk(table, *, qi, threshold=None, top: int = 10,
                    missing: str = "error") -> ProsecutorRisk:
    """:func:`skyprivacy.risk.prosecutor_risk` of a dask frame."""
    owner = "prosecutor_risk"
    names = _columns(table, qi, owner)
    check_options(owner, threshold=threshold, top=top, missing=missing)
    return identity_risk(table, qi=names, threshold=threshold, top=top,
                         missing=missing).prosecutor


def marketer_risk(table, *, qi, population=None, missing: str = "error") -> Fraction:
    """:func:`skyprivacy.risk.marketer_risk` of a dask frame (the table as the population)."""
    if population is not None:
        raise param_error("population", "marketer_risk", "be None for a dask frame (a "
                          "population table needs the pandas engine)", "a table")
    return identity_risk(table, qi=qi, top=0, missing=missing).marketer


def sample_uniqueness(table, *, qi, missing: str = "error") -> Fraction:
    """:func:`skyprivacy.risk.sample_uniqueness` of a dask frame."""
    return identity_risk(table, qi=qi, top=0, missing=missing).sample_uniqueness


def population_uniqueness(table, *, qi, population_size: int, model: str = "dankar",
                          missing: str = "error") -> PopulationUniqueness:
    """:func:`skyprivacy.risk.population_uniqueness` of a dask frame."""
    owner = "population_uniqueness"
    names = _columns(table, qi, owner)
    check_options(owner, model=model, missing=missing)
    hist = _scan(table, names, 0, missing)[0]
    N = check_population_size(population_size, hist.n_records, owner)
    return population_uniques_from_sizes(hist, N, model)
