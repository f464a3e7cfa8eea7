"""The hierarchies shipped with skyprivacy: ARX's Adult hierarchies and Nursery's ordinal
groupings, parsed once per process.

The files are package data (``skyprivacy/data/hierarchies``; provenance and licences in
``skyprivacy/data/README.md``), located by :mod:`skyprivacy.datasets` and parsed with
:func:`~skyprivacy.hierarchy.parse_arx`.
"""

from __future__ import annotations

from functools import lru_cache

from .._core.validation import Options, check, validate_params
from ..datasets import NURSERY_COLUMNS, adult_hierarchy_path, nursery_hierarchy_path
from .arx import parse_arx
from .model import Hierarchy

__all__ = ["bundled", "load_adult_hierarchies", "ADULT_COLUMNS_TO_FILES"]

#: ``load_adult()`` column -> ARX file stem; only ``income`` is named differently by ARX.
ADULT_COLUMNS_TO_FILES = {
    "age": "age",
    "workclass": "workclass",
    "education": "education",
    "marital-status": "marital-status",
    "occupation": "occupation",
    "race": "race",
    "sex": "sex",
    "native-country": "native-country",
    "income": "salary-class",
}
_ADULT_ATTRIBUTES = Options(*ADULT_COLUMNS_TO_FILES, "salary-class")
_NURSERY_ATTRIBUTES = Options(*NURSERY_COLUMNS)


@validate_params({"dataset": Options("adult", "nursery", text="be 'adult' or 'nursery'")})
def bundled(dataset, attribute) -> Hierarchy:
    """A hierarchy shipped with skyprivacy (ARX's Adult hierarchies; Nursery's ordinal
    groupings).

    The files are ARX's, unchanged.  Note that ARX's age labels are off by one at
    multiples of five (40 sits under ``35-39``, 50 under ``45-49``): the tree is valid
    but the labels misname those ages; ``intervals(range(1, 101), (5, 10, 20))``
    gives labels that are true.

    Parameters
    ----------
    dataset : {"adult", "nursery"}
        The data set.
    attribute : str
        Adult: a column of :func:`skyprivacy.datasets.load_adult` with an ARX hierarchy
        (``age``, ``workclass``, ``education``, ``marital-status``, ``occupation``,
        ``race``, ``sex``, ``native-country``, ``income``), or ARX's name
        ``salary-class`` for ``income``.  Nursery: any column of
        :func:`skyprivacy.datasets.load_nursery` (each leaf, then a group of adjacent
        ordinal levels, then ``*``).

    Returns
    -------
    Hierarchy
        Named ``attribute``.  Parsed once per process (hierarchies are immutable), so two
        calls return the same object.

    References
    ----------
    ARX Data Anonymization Tool, ``data/adult_hierarchy_*.csv`` (Apache 2.0).

    Examples
    --------
    >>> age = bundled("adult", "age")
    >>> age.height, age.generalize([39], 1)
    (4, ['35-39'])
    >>> bundled("nursery", "children").generalize(["3", "more"], 1)
    ['3-more', '3-more']
    """
    if dataset == "nursery":
        return _bundled_nursery(check(attribute, _NURSERY_ATTRIBUTES, name="attribute",
                                      owner="bundled"))
    return _bundled_adult(check(attribute, _ADULT_ATTRIBUTES, name="attribute", owner="bundled"))


@lru_cache(maxsize=None)
def _bundled_adult(attribute: str) -> Hierarchy:
    stem = ADULT_COLUMNS_TO_FILES.get(attribute, attribute)
    text = adult_hierarchy_path(stem).read_text(encoding="utf-8")
    return parse_arx(text, name=attribute)


@lru_cache(maxsize=None)
def _bundled_nursery(attribute: str) -> Hierarchy:
    text = nursery_hierarchy_path(attribute).read_text(encoding="utf-8")
    return parse_arx(text, name=attribute)


def load_adult_hierarchies() -> dict:
    """The ARX hierarchies for UCI Adult, keyed by the columns of ``load_adult()``.

    Returns
    -------
    dict
        ``{column: Hierarchy}`` for ``age``, ``workclass``, ``education``,
        ``marital-status``, ``occupation``, ``race``, ``sex``, ``native-country`` and
        ``income`` (ARX's ``salary-class`` file).  A new dict of shared immutable hierarchies.

    References
    ----------
    ARX Data Anonymization Tool, ``data/adult_hierarchy_*.csv`` (Apache 2.0), the hierarchies
    used with Adult in the anonymization literature; Chen et al. (2009), Sect. 8 use Adult.

    Examples
    --------
    >>> from skyprivacy.datasets import load_adult
    >>> hierarchies = load_adult_hierarchies()
    >>> sorted(hierarchies)[:3]
    ['age', 'education', 'income']
    >>> adult = load_adult()
    >>> all(hierarchies[c].covers(adult[c]) for c in hierarchies)
    True
    """
    return {column: _bundled_adult(column) for column in ADULT_COLUMNS_TO_FILES}
