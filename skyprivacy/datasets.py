"""Bundled data sets: UCI Adult (with ARX's generalization hierarchies), UCI Nursery
(with hierarchies for its ordinal attributes) and the credit-card decision table of a
transparency report (Table 1 of Chen, Golubchik and Pal).

The bundled hierarchies are loaded here, beside the data they generalize: this module reads
their files and hands the text to the pure parser :func:`skyprivacy.hierarchy.parse_arx`, so
the hierarchy package itself never touches a file (:func:`bundled`,
:func:`load_adult_hierarchies`).

This module (with :mod:`skyprivacy.io`, :mod:`skyprivacy.cli` and :mod:`skyprivacy.report`)
is one of the few that touch the file system; it only reads files shipped inside the package.
Provenance, licences and checksums are in ``skyprivacy/data/README.md``.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import pandas as pd

from ._core.validation import Options, check, validate_params
from .errors import param_error
from .hierarchy.arx import parse_arx
from .hierarchy.model import Hierarchy

__all__ = ["load_adult", "ADULT_COLUMNS", "adult_hierarchy_path", "ADULT_HIERARCHIES",
           "ADULT_COLUMNS_TO_FILES", "load_adult_hierarchies", "bundled",
           "load_nursery", "NURSERY_COLUMNS", "nursery_hierarchy_path", "load_credit_card"]

ADULT_COLUMNS = (
    "age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
    "occupation", "relationship", "race", "sex", "capital-gain", "capital-loss",
    "hours-per-week", "native-country", "income",
)
_NUMERIC = ("age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week")

#: Quasi-identifiers for which ARX ships a hierarchy (``salary-class`` is ARX's name for income).
ADULT_HIERARCHIES = (
    "age", "education", "marital-status", "native-country", "occupation", "race",
    "salary-class", "sex", "workclass",
)


def load_adult() -> pd.DataFrame:
    """Load UCI Adult: the 45,222 records of adult.data + adult.test without missing values.

    Returns
    -------
    pandas.DataFrame
        A fresh frame (callers may modify it) with the UCI column names; the six numeric
        columns are ``int64``, the others strings without the raw files' leading spaces and
        trailing dots.

    References
    ----------
    Becker, B. and Kohavi, R. (1996). Adult. UCI Machine Learning Repository (CC BY 4.0).
    Used in Chen, LeFevre and Ramakrishnan (2009), Sect. 8.

    Examples
    --------
    >>> adult = load_adult()
    >>> adult.shape
    (45222, 15)
    >>> sorted(adult["income"].unique())
    ['<=50K', '>50K']
    """
    ref = resources.files("skyprivacy") / "data" / "adult.csv.gz"
    with resources.as_file(ref) as path:
        dtypes = {c: ("int64" if c in _NUMERIC else object) for c in ADULT_COLUMNS}
        frame = pd.read_csv(path, compression="gzip", dtype=dtypes, keep_default_na=False)
    return frame


def adult_hierarchy_path(attribute: str):
    """Path of the bundled ARX hierarchy CSV for an Adult attribute.

    Parameters
    ----------
    attribute : str
        One of :data:`ADULT_HIERARCHIES` (``income`` is accepted for ``salary-class``).

    Returns
    -------
    importlib.resources.abc.Traversable
        Readable with ``.read_text()`` or ``importlib.resources.as_file``.

    Examples
    --------
    >>> adult_hierarchy_path("sex").read_text().splitlines()[0]
    'Male;*'
    """
    name = "salary-class" if attribute == "income" else attribute
    if name not in ADULT_HIERARCHIES:
        raise param_error("attribute", "adult_hierarchy_path",
                          f"be one of {list(ADULT_HIERARCHIES)}", attribute)
    return resources.files("skyprivacy") / "data" / "hierarchies" / "adult" / f"{name}.csv"


#: The UCI names of Nursery's nine columns (eight attributes and the class label), in order.
NURSERY_COLUMNS = ("parents", "has_nurs", "form", "children", "housing", "finance", "social",
                   "health", "class")


def load_nursery() -> pd.DataFrame:
    """Load UCI Nursery: 12,960 nursery-school applications, the paper's second data set.

    Every combination of the eight attributes occurs exactly once (the data were generated
    from a hierarchical decision model); ``class`` ranks the application (not_recom,
    recommend, very_recom, priority, spec_prior).  Sect. 8.4 of the privacy-skyline paper
    takes ``has_nurs`` (five values) as the sensitive attribute and ``class`` as the label.

    Returns
    -------
    pandas.DataFrame
        A fresh frame with the UCI column names :data:`NURSERY_COLUMNS`, every column text
        (``children`` is ordinal: '1', '2', '3', 'more').

    References
    ----------
    Rajkovic, V. (1989). Nursery. UCI Machine Learning Repository (CC BY 4.0).
    Used in Chen, LeFevre and Ramakrishnan (2009), Sect. 8.4 and Fig. 9.

    Examples
    --------
    >>> nursery = load_nursery()
    >>> nursery.shape
    (12960, 9)
    >>> sorted(nursery["has_nurs"].unique())
    ['critical', 'improper', 'less_proper', 'proper', 'very_crit']
    """
    ref = resources.files("skyprivacy") / "data" / "nursery.csv.gz"
    with resources.as_file(ref) as path:
        return pd.read_csv(path, compression="gzip", dtype=object, keep_default_na=False)


def nursery_hierarchy_path(attribute: str):
    """Path of the bundled ARX-format hierarchy CSV for a Nursery column.

    Parameters
    ----------
    attribute : str
        One of :data:`NURSERY_COLUMNS`.

    Examples
    --------
    >>> nursery_hierarchy_path("children").read_text().splitlines()[0]
    '1;1-2;*'
    """
    if attribute not in NURSERY_COLUMNS:
        raise param_error("attribute", "nursery_hierarchy_path",
                          f"be one of {list(NURSERY_COLUMNS)}", attribute)
    return resources.files("skyprivacy") / "data" / "hierarchies" / "nursery" / f"{attribute}.csv"


# ------------------------------------------------------------------- bundled hierarchies
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
        Adult: a column of :func:`load_adult` with an ARX hierarchy
        (``age``, ``workclass``, ``education``, ``marital-status``, ``occupation``,
        ``race``, ``sex``, ``native-country``, ``income``), or ARX's name
        ``salary-class`` for ``income``.  Nursery: any column of
        :func:`load_nursery` (each leaf, then a group of adjacent
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
    >>> hierarchies = load_adult_hierarchies()
    >>> sorted(hierarchies)[:3]
    ['age', 'education', 'income']
    >>> adult = load_adult()
    >>> all(hierarchies[c].covers(adult[c]) for c in hierarchies)
    True
    """
    return {column: _bundled_adult(column) for column in ADULT_COLUMNS_TO_FILES}


def load_credit_card() -> pd.DataFrame:
    """Load Table 1 of Chen, Golubchik and Pal: a credit-card rule published in a report.

    Six decision regions: ``gender`` (public), ``income`` (sensitive), the rule ``d`` =
    P(approve | gender, income), and three weightings: ``population`` (the applicants),
    ``census`` (the adversary's P(income | gender)) and ``section8`` (the smaller
    populations of the paper's Section 8 example).

    Returns
    -------
    pandas.DataFrame
        A fresh frame (callers may modify it).

    References
    ----------
    C.-L. Chen, L. Golubchik and R. Pal, "Achieving Transparency Report Privacy in Linear
    Time", ACM JDIQ 14(2), 2022, Table 1 (Section 3.2) and Section 8.

    Examples
    --------
    >>> table = load_credit_card()
    >>> table["population"].sum(), table.shape
    (np.int64(290), (6, 6))
    """
    ref = resources.files("skyprivacy") / "data" / "credit_card.csv"
    with resources.as_file(ref) as path:
        return pd.read_csv(path, keep_default_na=False)
