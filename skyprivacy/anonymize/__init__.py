"""Anonymization by search: SkylineAnonymize and k-anonymity (Chen, LeFevre and Ramakrishnan
2009, Sect. 6.2, Fig. 4; Proposition 3).

One search serves every engine: a strategy (:func:`~skyprivacy.anonymize.search.mondrian`,
Mondrian's level-by-level greedy partitioning) runs over a source of the data (rows in memory,
:class:`~skyprivacy.anonymize.source.MemorySource`, or partitions of a Dask frame) with one set
of decision rules (:class:`~skyprivacy.anonymize.rules.Rules`).

Modules
-------
api
    :func:`skyline_anonymize`, :func:`k_anonymize` and :func:`splittable_groups`.
encoders
    The quasi-identifier encoders: how each QI is coded, split (one median rule over
    (code, count) entries) and labelled.
inputs
    The input checks both engines make, in one order.
rules
    The decision rules: the policy as cells, the global statistics, Q, the level sweep.
search
    The strategy: the one level-by-level loop of Fig. 4.
source
    What a level needs from the data, and the in-memory source.
released
    The released table, its labels and the results.
"""

from .api import k_anonymize, skyline_anonymize, splittable_groups
from .released import AnonymizationResult, KAnonymizationResult

__all__ = ["skyline_anonymize", "AnonymizationResult", "k_anonymize", "KAnonymizationResult",
           "splittable_groups"]
