"""Bundled data sets: UCI Adult (with ARX's generalization hierarchies), UCI Nursery
(with hierarchies for its ordinal attributes) and the credit-card decision table of a
transparency report (Table 1 of Chen, Golubchik and Pal).

This module (with :mod:`skyprivacy.io`, :mod:`skyprivacy.cli` and :mod:`skyprivacy.report`)
is one of the few that touch the file system; it only reads files shipped inside the package.
Provenance, licences and checksums are in ``skyprivacy/data/README.md``.
"""

from __future__ import annotations

from importlib import resources

import pandas as pd

__all__ = ["load_adult", "ADULT_COLUMNS", "adult_hierarchy_path", "ADULT_HIERARCHIES",
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
    from .errors import param_error

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
    from .errors import param_error

    if attribute not in NURSERY_COLUMNS:
        raise param_error("attribute", "nursery_hierarchy_path",
                          f"be one of {list(NURSERY_COLUMNS)}", attribute)
    return resources.files("skyprivacy") / "data" / "hierarchies" / "nursery" / f"{attribute}.csv"


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
