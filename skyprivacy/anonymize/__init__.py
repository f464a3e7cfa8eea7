"""Anonymization by search: SkylineAnonymize and k-anonymity (Chen, LeFevre and Ramakrishnan
2009, Sect. 6.2, Fig. 4; Proposition 3).

:func:`anonymize` is the one entry point (``method="mondrian" | "full-domain"``); the package
itself is callable, so ``skyprivacy.anonymize(table, ...)`` is that function while ``from
skyprivacy.anonymize import skyline_anonymize`` keeps working.

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
lattice
    The second strategy: optimal full-domain search over the lattice of hierarchy levels,
    with suppression, over the combined criteria of :mod:`skyprivacy.criteria`.
source
    What a level needs from the data, and the in-memory source.
released
    The released table, its labels and the results.
"""

import sys as _sys
import types as _types

from .api import anonymize, k_anonymize, skyline_anonymize, splittable_groups
from .lattice import AnonymizeResult, full_domain_search
from .released import AnonymizationResult, KAnonymizationResult

__all__ = ["anonymize", "AnonymizeResult", "full_domain_search", "skyline_anonymize",
           "AnonymizationResult", "k_anonymize", "KAnonymizationResult", "splittable_groups"]


class _CallableModule(_types.ModuleType):
    """This package, callable as :func:`anonymize`: Python cannot hold a function and a
    subpackage under one name, so ``skyprivacy.anonymize`` is the package and calling it
    calls the function (its submodules, ``from``-imports and pickles stay as they were)."""

    def __call__(self, table, **options):
        return anonymize(table, **options)


_sys.modules[__name__].__class__ = _CallableModule
