"""Re-identification risk: can anyone find a person's record at all (identity disclosure)?

The skyline (the rest of skyprivacy) bounds *attribute* disclosure: how sure an attacker with
(l, k, m) knowledge becomes of a person's sensitive value.  This module measures *identity*
disclosure from the equivalence classes of the quasi-identifiers (records that agree on every
QI), with the measures data-protection guidance is written in:

* **prosecutor risk** (the attacker knows the target is in the table): a record in a class of
  f records is matched with probability 1/f; :func:`prosecutor_risk` gives the maximum
  (1 / smallest class, the k of k-anonymity), the average over records (classes / records),
  the records above a threshold and the records at the highest risk;
* **journalist risk** (the target is in a population the table was sampled from): 1/F for the
  population class size F (k-map), against a population table or a population size;
* **marketer risk** (the attacker matches everyone and counts correct matches): the expected
  share of correct matches, (1/n) sum_j f_j / F_j; J / n when the table is the population;
* **sample uniqueness**, and **population uniqueness** estimated from a sample by Pitman's
  model (Hoshino 2001), Zayatz's method (Zayatz 1991) and the slide negative binomial model
  (Chen and Keller-McNulty 1998), chosen by Dankar et al.'s decision rule (2012);
* the **individual risk** of weighted survey samples (Benedetti and Franconi 1998, as
  sdcMicro's ``measure_risk``);
* which QI combinations drive the risk: the **distinction** and **separation** of every QI
  subset (Motwani and Xu 2007; ARX's attribute risk), bounded in the number of subsets.

Counts and ratios of counts are exact :class:`fractions.Fraction` s; the estimators are floats,
and an estimator that does not apply raises :class:`~skyprivacy.errors.EstimatorError` (asked
for by name) or is skipped with its reason (inside the decision rule), never a silent NaN.

References
----------
El Emam, K. and Dankar, F. K. (2008). Protecting privacy using k-anonymity. JAMIA 15(5).
Hoshino, N. (2001). Applying Pitman's sampling formula to microdata disclosure risk
assessment. Journal of Official Statistics 17(4).
Zayatz, L. (1991). Estimation of the percent of unique population elements on a microdata
file using the sample. Statistical Research Division Report, US Bureau of the Census.
Chen, G. and Keller-McNulty, S. (1998). Estimation of identification disclosure risk in
microdata. Journal of Official Statistics 14(1).
Dankar, F. K., El Emam, K., Neisa, A. and Roffey, T. (2012). Estimating the re-identification
risk of clinical data sets. BMC Medical Informatics and Decision Making 12:66.
Benedetti, R. and Franconi, L. (1998). Statistical and technological solutions for controlled
data dissemination. Pre-proceedings of New Techniques and Technologies for Statistics.
Shlosser, A. (1981). On estimation of the size of the dictionary of a long text on the basis
of a sample. Engineering Cybernetics 19.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pandas as pd

from ._core.display import Shown, head_rows, result_html, result_repr
from ._core.encoding import column_names, require_columns
from ._core.engines import dispatchable
from ._core.exact import decimal_fraction, fraction_text, native
from ._core.validation import (Boolean, InstanceOf, Interval, Nullable, Options, check,
                               validate_params)
from .release import missing_values_error
from .errors import EstimatorError, InvalidParameterError, SchemaError, param_error

__all__ = [
    "ClassSizes",
    "class_sizes",
    "ProsecutorRisk",
    "prosecutor_risk",
    "JournalistRisk",
    "journalist_risk",
    "marketer_risk",
    "sample_uniqueness",
    "PopulationUniqueness",
    "population_uniqueness",
    "POPULATION_MODELS",
    "individual_risk",
    "AttributeRisk",
    "attribute_risk",
    "IdentityRisk",
    "identity_risk",
]

#: The population-uniqueness models; "dankar" is the decision rule choosing among the others.
POPULATION_MODELS = ("pitman", "zayatz", "snb", "dankar")
MISSING_OPTIONS = ("error", "as_value")
#: Dankar et al.'s threshold on the sampling fraction: Pitman at or below, Zayatz/SNB above.
DANKAR_FRACTION = Fraction(1, 10)

# The declared constraints of the options every risk function shares (the Dask engine's
# functions check the same ones through :func:`check_options`).
MISSING = Options(*MISSING_OPTIONS)
THRESHOLD = Nullable(Interval("real", 0, 1, text="be a number in [0, 1]"))
TOP = Interval("integer", 0)
MODEL = Options(*POPULATION_MODELS)
#: Positive here; at least the number of records is checked in the body (it needs the table).
POPULATION_SIZE = Interval("integer", 1)
POPULATION = Nullable(InstanceOf(pd.DataFrame, name="a pandas DataFrame"))


# --------------------------------------------------------------------------------------------
# The equivalence classes, once
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClassSizes:
    """The equivalence classes of a table's quasi-identifiers, as a histogram of their sizes.

    Attributes
    ----------
    sizes : tuple of int
        The distinct class sizes, ascending.
    counts : tuple of int
        How many classes have each size (``counts[i]`` classes of ``sizes[i]`` records).
    """

    sizes: tuple
    counts: tuple

    def __post_init__(self) -> None:  # native ints, whatever the caller passed
        object.__setattr__(self, "sizes", tuple(int(s) for s in self.sizes))
        object.__setattr__(self, "counts", tuple(int(c) for c in self.counts))

    @property
    def n_records(self) -> int:
        return sum(s * c for s, c in zip(self.sizes, self.counts))

    @property
    def n_classes(self) -> int:
        return sum(self.counts)

    def of_size(self, size: int) -> int:
        """The number of classes of exactly ``size`` records."""
        for s, c in zip(self.sizes, self.counts):
            if s == size:
                return c
        return 0

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame({"class_size": list(self.sizes), "n_classes": list(self.counts)})

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, (("records", self.n_records), ("classes", self.n_classes),
                                  ("smallest_class", min(self.sizes, default=0)),
                                  ("largest_class", max(self.sizes, default=0))),
                     None, head_rows(self.to_frame), len(self.sizes))


def _check_table(table, qi, owner: str, missing: str = "error") -> list:
    if not isinstance(table, pd.DataFrame):
        raise param_error("table", owner, "be a pandas DataFrame", type(table).__name__)
    names = column_names(qi, name="qi", owner=owner)
    if len(set(names)) != len(names):
        raise param_error("qi", owner, "name each column once", qi)
    require_columns(table, names)
    check(missing, MISSING, name="missing", owner=owner)
    if len(table) == 0:
        raise SchemaError("The table is empty: risk needs at least one record.")
    if missing == "error":
        for column in names:
            n_missing = int(table[column].isna().sum())
            if n_missing:
                raise missing_values_error(column, n_missing)
    return names


def _grouped(table: pd.DataFrame, names: list):
    return table.groupby(names, sort=False, dropna=False, observed=True)


def _sizes(table: pd.DataFrame, names: list) -> np.ndarray:
    """The size of every class (one groupby-size of the QIs)."""
    return _grouped(table, names).size().to_numpy(dtype=np.int64)


def _histogram(sizes: np.ndarray) -> ClassSizes:
    distinct, counts = np.unique(sizes, return_counts=True)
    return ClassSizes(tuple(int(s) for s in distinct), tuple(int(c) for c in counts))


@validate_params({"missing": MISSING})
@dispatchable
def class_sizes(table: pd.DataFrame, *, qi, missing: str = "error") -> ClassSizes:
    """The histogram of equivalence-class sizes of ``table`` over ``qi``.

    Every count-based measure of this module is a function of it.

    Examples
    --------
    >>> table = pd.DataFrame({"zip": ["1", "1", "2", "3", "3", "3"]})
    >>> sizes = class_sizes(table, qi="zip")
    >>> sizes.sizes, sizes.counts
    ((1, 2, 3), (1, 1, 1))
    >>> sizes
    <ClassSizes records=6, classes=3, smallest_class=1, largest_class=3>
    """
    names = _check_table(table, qi, "class_sizes", missing)
    return _histogram(_sizes(table, names))


def check_options(owner: str, *, threshold=None, top: int = 10, model: str = "dankar",
                  missing: str = "error") -> Fraction | None:
    """Validate the options every engine's risk functions share; return the threshold as an
    exact fraction (None when none was given)."""
    check(missing, MISSING, name="missing", owner=owner)
    check(top, TOP, name="top", owner=owner)
    check(model, MODEL, name="model", owner=owner)
    return None if threshold is None else _threshold(threshold, owner)


def check_population_size(value, n: int, owner: str) -> int:
    """``population_size`` validated against the number of records ``n``."""
    return _population_size(value, n, owner)


def _threshold(value, owner: str) -> Fraction:
    check(value, THRESHOLD, name="threshold", owner=owner)
    return decimal_fraction(value)


# --------------------------------------------------------------------------------------------
# Prosecutor, journalist and marketer risk (El Emam and Dankar 2008)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ProsecutorRisk:
    """Prosecutor risk of a table: the attacker knows the target's record is in it.

    Attributes
    ----------
    max : Fraction
        1 / the smallest class size (the highest risk of any record; k-anonymity with k =
        smallest class is ``max <= 1/k``).
    average : Fraction
        The mean over records of 1 / their class size, = classes / records.
    n_records, n_classes, smallest_class : int
    records_at_max : int
        Records in the smallest classes (at the highest risk).
    above_threshold : Fraction or None
        Share of records whose risk 1/f is strictly above ``threshold`` (when one was given).
    threshold : Fraction or None
    highest : pandas.DataFrame
        The classes at the highest risk (up to ``top`` of them): their QI values, size and risk.
    """

    max: Fraction
    average: Fraction
    n_records: int
    n_classes: int
    smallest_class: int
    records_at_max: int
    above_threshold: Fraction | None
    threshold: Fraction | None
    highest: pd.DataFrame = field(repr=False, compare=False)

    def to_dict(self) -> dict:
        return {"max": self.max, "average": self.average, "n_records": self.n_records,
                "n_classes": self.n_classes, "smallest_class": self.smallest_class,
                "records_at_max": self.records_at_max, "threshold": self.threshold,
                "above_threshold": self.above_threshold}

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame([self.to_dict()])

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, tuple((k, v) for k, v in (
            ("max", self.max), ("average", self.average), ("records", self.n_records),
            ("classes", self.n_classes), ("smallest_class", self.smallest_class),
            ("records_at_max", self.records_at_max), ("threshold", self.threshold),
            ("above_threshold", self.above_threshold)) if v is not None),
            None, lambda n: self.highest.head(n), len(self.highest))


@validate_params({"threshold": THRESHOLD, "top": TOP, "missing": MISSING})
@dispatchable
def prosecutor_risk(table: pd.DataFrame, *, qi, threshold=None, top: int = 10,
                    missing: str = "error") -> ProsecutorRisk:
    """Prosecutor re-identification risk: each record's risk is 1 / its class size.

    Parameters
    ----------
    table : pandas.DataFrame
        The released (or candidate) table; never modified.
    qi : str or list of str
        The quasi-identifiers: records agreeing on all of them form one class.
    threshold : number in [0, 1], optional
        Also report the share of records whose risk is strictly above it (ARX's "records at
        risk"; e.g. 0.2 for the records in classes smaller than 5).
    top : int, default 10
        How many of the highest-risk classes ``.highest`` lists.
    missing : {'error', 'as_value'}, default 'error'
        A missing QI value raises, or is a category of its own.

    Returns
    -------
    ProsecutorRisk

    References
    ----------
    El Emam and Dankar (2008), Sect. "Re-identification risk", prosecutor scenario.

    Examples
    --------
    >>> table = pd.DataFrame({"zip": ["1", "1", "2", "3", "3", "3"]})
    >>> risk = prosecutor_risk(table, qi="zip", threshold=0.4)
    >>> risk.max, risk.average, risk.above_threshold
    (Fraction(1, 1), Fraction(1, 2), Fraction(1, 2))
    """
    owner = "prosecutor_risk"
    names = _check_table(table, qi, owner, missing)
    limit = None if threshold is None else _threshold(threshold, owner)
    check(top, TOP, name="top", owner=owner)
    return _prosecutor(_grouped(table, names).size(), limit, top)


def _prosecutor(sizes_series: pd.Series, limit: Fraction | None, top: int) -> ProsecutorRisk:
    """Prosecutor risk from the class sizes (one entry per class, labelled by its QI values)."""
    sizes = sizes_series.to_numpy(dtype=np.int64)
    order = np.argsort(sizes, kind="stable")[: int(top)]
    return prosecutor_from_sizes(_histogram(sizes), sizes_series.iloc[order], threshold=limit)


def prosecutor_from_sizes(hist: ClassSizes, smallest_classes: pd.Series, *,
                          threshold: Fraction | None = None) -> ProsecutorRisk:
    """:class:`ProsecutorRisk` from the histogram of class sizes and the classes to list as
    the highest-risk ones (their sizes, labelled by their QI values, smallest first): what a
    scan of a partitioned table reduces to."""
    n, n_classes, smallest = hist.n_records, hist.n_classes, hist.sizes[0]
    limit, above = threshold, None
    if limit is not None:  # 1/f > t  <=>  f * t < 1 (exactly, in integers)
        above = Fraction(sum(s * c for s, c in zip(hist.sizes, hist.counts)
                             if s * limit.numerator < limit.denominator), n)
    highest = smallest_classes.rename("class_size").reset_index()
    highest["risk"] = [Fraction(1, int(s)) for s in highest["class_size"]]
    return ProsecutorRisk(max=Fraction(1, smallest), average=Fraction(n_classes, n),
                          n_records=n, n_classes=n_classes, smallest_class=smallest,
                          records_at_max=smallest * hist.counts[0],
                          above_threshold=above, threshold=limit, highest=highest)


def _population_sizes(table, population, names: list, owner: str) -> tuple:
    """(sample class sizes f_j, population class sizes F_j) of the sample's classes."""
    if not isinstance(population, pd.DataFrame):
        raise param_error("population", owner, "be a pandas DataFrame",
                          type(population).__name__)
    require_columns(population, names)
    return matched_population_sizes(_grouped(table, names).size(),
                                    _grouped(population, names).size())


def matched_population_sizes(sample: pd.Series, population: pd.Series) -> tuple:
    """(f_j, F_j): each sample class's size and the size of the population class with the
    same QI values, as int64 arrays in the sample's order.

    Both Series are class sizes indexed by the QI values (index names the QI columns).  The
    one home of the population match that journalist risk, marketer risk and the k-map
    criterion (:class:`skyprivacy.criteria.KMap`) read.

    Raises
    ------
    SchemaError
        When a sample class is missing from the population or larger than its population
        class: the population must contain the sample.
    """
    joined = sample.rename("f").to_frame().join(population.rename("F"), how="left")
    if joined["F"].isna().any():
        first = joined.index[joined["F"].isna().to_numpy()][0]
        raise SchemaError(f"The sample's class {first!r} is not in the population table: the "
                          f"population must contain the sample.")
    f = joined["f"].to_numpy(dtype=np.int64)
    F = joined["F"].to_numpy(dtype=np.int64)
    if (F < f).any():
        j = int(np.flatnonzero(F < f)[0])
        raise SchemaError(f"The sample's class {joined.index[j]!r} has {f[j]} records but the "
                          f"population only {F[j]}: the population must contain the sample.")
    return f, F


def _population_size(value, n: int, owner: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < n:
        raise param_error("population_size", owner,
                          f"be an integer >= the number of records ({n})", value)
    return int(value)


def _mean_ratio(f: np.ndarray, F: np.ndarray, n: int) -> Fraction:
    """(1/n) sum_j f_j / F_j exactly, one Fraction per distinct F (not per class)."""
    frame = pd.DataFrame({"f": f, "F": F}).groupby("F")["f"].sum()
    return sum((Fraction(int(s), int(F_)) for F_, s in frame.items()), Fraction(0)) / n


@dataclass(frozen=True)
class JournalistRisk:
    """Journalist risk: the target is in the population the table was drawn from.

    Attributes
    ----------
    max : Fraction
        1 / the smallest population class of any record in the table (k-map: the table is
        k-map anonymous for k = 1 / max).
    average : Fraction
        The mean over the table's records of 1 / their population class size.
    smallest_population_class : int
    estimated : bool
        True when the population class sizes were estimated from a population size (each
        class scaled by N / n), False when counted in a population table.
    """

    max: Fraction
    average: Fraction
    smallest_population_class: int
    estimated: bool

    def to_dict(self) -> dict:
        return {"max": self.max, "average": self.average,
                "smallest_population_class": self.smallest_population_class,
                "estimated": self.estimated}

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame([self.to_dict()])

    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, (("max", self.max), ("average", self.average),
                                  ("smallest_population_class", self.smallest_population_class),
                                  ("estimated", self.estimated)))


@validate_params({"population": POPULATION, "population_size": Nullable(POPULATION_SIZE),
                  "missing": MISSING})
def journalist_risk(table: pd.DataFrame, *, qi, population: pd.DataFrame | None = None,
                    population_size: int | None = None,
                    missing: str = "error") -> JournalistRisk:
    """Journalist re-identification risk (k-map): 1 / the population class size of a record.

    Give exactly one of ``population`` (a table of the whole population with the same QIs:
    class sizes are counted, exactly) and ``population_size`` (N: each population class size
    is estimated as f * N / n, the expectation under uniform sampling, which is a coarse
    estimate; prefer a population table, or :func:`population_uniqueness` for uniques).

    Examples
    --------
    >>> sample = pd.DataFrame({"zip": ["1", "2", "2"]})
    >>> population = pd.DataFrame({"zip": ["1", "1", "2", "2", "2", "3"]})
    >>> risk = journalist_risk(sample, qi="zip", population=population)
    >>> risk.max, risk.average
    (Fraction(1, 2), Fraction(7, 18))
    """
    owner = "journalist_risk"
    names = _check_table(table, qi, owner, missing)
    if (population is None) == (population_size is None):
        raise InvalidParameterError(
            f"{owner} needs exactly one of 'population' and 'population_size'. Got "
            f"population={'a table' if population is not None else None} and "
            f"population_size={population_size!r} instead.")
    if population is not None:
        f, F = _population_sizes(table, population, names, owner)
        n = int(f.sum())
        smallest = int(F.min())
        return JournalistRisk(Fraction(1, smallest), _mean_ratio(f, F, n), smallest, False)
    hist = _histogram(_sizes(table, names))
    return journalist_from_sizes(hist, _population_size(population_size, hist.n_records, owner))


def journalist_from_sizes(hist: ClassSizes, population_size: int) -> JournalistRisk:
    """:func:`journalist_risk` against a population size, from the histogram of class sizes:
    each population class size is estimated as f N / n, so a record's risk is n / (f N),
    capped at 1."""
    n, N = hist.n_records, population_size
    average = sum((Fraction(s * c) * min(Fraction(n, s * N), Fraction(1))
                   for s, c in zip(hist.sizes, hist.counts)), Fraction(0)) / n
    smallest = hist.sizes[0]
    return JournalistRisk(min(Fraction(n, smallest * N), Fraction(1)), average,
                          max(1, math.floor(smallest * N / n)), True)


@validate_params({"population": POPULATION, "missing": MISSING})
@dispatchable
def marketer_risk(table: pd.DataFrame, *, qi, population: pd.DataFrame | None = None,
                  missing: str = "error") -> Fraction:
    """Marketer re-identification risk: the expected share of records an attacker who matches
    every record correctly re-identifies.

    With the table as the population it is classes / records (J / n); against a population
    table it is (1/n) sum_j f_j / F_j (El Emam and Dankar 2008).

    Examples
    --------
    >>> table = pd.DataFrame({"zip": ["1", "1", "2", "3", "3", "3"]})
    >>> marketer_risk(table, qi="zip")
    Fraction(1, 2)
    """
    owner = "marketer_risk"
    names = _check_table(table, qi, owner, missing)
    if population is None:
        sizes = _sizes(table, names)
        return Fraction(len(sizes), int(sizes.sum()))
    f, F = _population_sizes(table, population, names, owner)
    return _mean_ratio(f, F, int(f.sum()))


@validate_params({"missing": MISSING})
@dispatchable
def sample_uniqueness(table: pd.DataFrame, *, qi, missing: str = "error") -> Fraction:
    """The share of records unique in the table on ``qi`` (classes of one record / records).

    Examples
    --------
    >>> table = pd.DataFrame({"zip": ["1", "1", "2", "3"]})
    >>> sample_uniqueness(table, qi="zip")
    Fraction(1, 2)
    """
    hist = class_sizes(table, qi=qi, missing=missing)
    return Fraction(hist.of_size(1), hist.n_records)


# --------------------------------------------------------------------------------------------
# Population uniqueness: Pitman, Zayatz, SNB and Dankar et al.'s rule
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PopulationUniqueness:
    """An estimate of the share of the population's records that are unique in the
    population on the QIs.

    Attributes
    ----------
    share : float
        Estimated population uniques / population size (``float(result)`` is this).
    uniques : float
        Estimated number of population uniques.
    model : str
        The model the estimate comes from (for ``"dankar"``, the one the rule chose).
    population_size, sample_size : int
    sampling_fraction : Fraction
    estimates : dict
        Every model tried: model -> estimated uniques (float), or the reason it does not apply.
    """

    share: float
    uniques: float
    model: str
    population_size: int
    sample_size: int
    sampling_fraction: Fraction
    estimates: dict

    def __float__(self) -> float:
        return self.share

    def to_dict(self) -> dict:
        return {"share": self.share, "uniques": self.uniques, "model": self.model,
                "population_size": self.population_size, "sample_size": self.sample_size,
                "sampling_fraction": self.sampling_fraction, "estimates": dict(self.estimates)}

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame([{"model": m, "uniques": v if isinstance(v, float) else None,
                              "note": None if isinstance(v, float) else v}
                             for m, v in self.estimates.items()])

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, (("share", self.share), ("uniques", self.uniques),
                                  ("model", self.model), ("population_size", self.population_size),
                                  ("sample_size", self.sample_size),
                                  ("sampling_fraction", self.sampling_fraction)),
                     None, head_rows(self.to_frame), len(self.to_frame()))


def _special():
    from scipy import special  # a core dependency, imported when an estimate is asked for

    return special


def zayatz_uniques(hist: ClassSizes, population_size: int) -> float:
    """Zayatz's (1991) estimate of the number of population uniques.

    The population's class-size distribution is taken to be the sample's; the probability
    that a sample unique is a population unique is then
    ``P(1) h(1; 1) / sum_i P(i) h(1; i)`` with ``P(i)`` the share of classes of size i and
    ``h(1; i)`` the hypergeometric probability of drawing exactly one record of a class of i
    in a sample of n from N.  The estimate is sample uniques x that probability / (n / N).
    """
    special = _special()
    N, n = population_size, hist.n_records
    sizes = np.asarray(hist.sizes, dtype=float)
    counts = np.asarray(hist.counts, dtype=float)
    c1 = hist.of_size(1)
    if c1 == 0:
        return 0.0
    if n == N:
        return float(c1)
    # log h(1; i) = log i + log C(N - i, n - 1) - log C(N, n)
    def log_choose(a, b):
        return special.gammaln(a + 1) - special.gammaln(b + 1) - special.gammaln(a - b + 1)

    valid = sizes <= N - n + 1
    log_h = np.full(len(sizes), -np.inf)
    log_h[valid] = (np.log(sizes[valid]) + log_choose(N - sizes[valid], n - 1)
                    - log_choose(float(N), float(n)))
    weights = counts * np.exp(log_h - log_h.max())
    h1 = weights[list(hist.sizes).index(1)]
    conditional = h1 / weights.sum()
    return float(c1 * conditional * N / n)


def _pitman_loglik(theta: float, alpha: float, hist: ClassSizes, special) -> tuple:
    """Log-likelihood of Pitman's sampling formula and its gradient in (theta, alpha)."""
    u, n = hist.n_classes, hist.n_records
    sizes = np.asarray(hist.sizes, dtype=float)
    counts = np.asarray(hist.counts, dtype=float)
    gl, dg = special.gammaln, special.digamma
    r = theta / alpha
    # sum_{i<u} log(theta + i alpha) = (u-1) log alpha + lgamma(r + u) - lgamma(r + 1)
    first = (u - 1) * math.log(alpha) + gl(r + u) - gl(r + 1)
    second = gl(theta + n) - gl(theta + 1)
    third = float(np.sum(counts * (gl(sizes - alpha) - gl(1 - alpha))))
    value = first - second + third
    d_first_r = dg(r + u) - dg(r + 1)
    d_theta = d_first_r / alpha - (dg(theta + n) - dg(theta + 1))
    d_alpha = (u - 1) / alpha - d_first_r * theta / alpha ** 2 \
        - float(np.sum(counts * (dg(sizes - alpha) - dg(1 - alpha))))
    return float(value), float(d_theta), float(d_alpha)


def pitman_uniques(hist: ClassSizes, population_size: int) -> float:
    """Pitman's model (Hoshino 2001): the maximum-likelihood (theta, alpha) of Pitman's
    sampling formula for the sample's partition into classes, and the expected number of
    population uniques Gamma(theta + 1) / Gamma(theta + alpha) N^alpha.

    Raises
    ------
    EstimatorError
        When the likelihood has no maximum with 0 < alpha < 1 and theta > 0 (e.g. no class
        larger than one record), or the estimate lies outside [0, N].
    """
    special = _special()
    from scipy import optimize

    c1, u, n, N = hist.of_size(1), hist.n_classes, hist.n_records, population_size
    if c1 == 0:
        return 0.0
    if u == n:
        raise EstimatorError("Pitman's model does not apply: every record of the sample is "
                             "unique, so the likelihood has no maximum.")
    if u == 1:
        raise EstimatorError("Pitman's model does not apply: the sample has a single class.")

    def negative(x):  # theta = exp(x0), alpha = 1 / (1 + exp(-x1))
        theta, alpha = math.exp(x[0]), float(special.expit(x[1]))
        value, d_theta, d_alpha = _pitman_loglik(theta, alpha, hist, special)
        return -value, -np.array([d_theta * theta, d_alpha * alpha * (1 - alpha)])

    best = None
    for theta0, alpha0 in ((max(u * u / n, 1e-3), 0.5), (1.0, 0.2), (float(u), 0.8)):
        start = np.array([math.log(theta0), math.log(alpha0 / (1 - alpha0))])
        with np.errstate(all="ignore"):
            found = optimize.minimize(negative, start, jac=True, method="L-BFGS-B",
                                      bounds=[(-30, 30), (-30, 30)],
                                      options={"maxiter": 500, "gtol": 1e-9})
        if np.isfinite(found.fun) and (best is None or found.fun < best.fun):
            best = found
    if best is None or not best.success or np.any(np.abs(best.x) >= 29.9):
        raise EstimatorError("Pitman's model does not apply: its likelihood equations have "
                             "no solution with 0 < alpha < 1 and theta > 0 for this sample.")
    theta, alpha = math.exp(best.x[0]), float(special.expit(best.x[1]))
    log_uniques = special.gammaln(theta + 1) - special.gammaln(theta + alpha) \
        + alpha * math.log(N)
    uniques = math.exp(log_uniques) if log_uniques < 700 else math.inf
    if not 0 <= uniques <= N:
        raise EstimatorError(f"Pitman's model does not apply: its estimate ({uniques:.4g} "
                             f"uniques) lies outside [0, {N}].")
    return float(uniques)


def shlosser_classes(hist: ClassSizes, fraction: float) -> float:
    """Shlosser's (1981) estimate of the number of non-empty classes in the population:
    ``u + c1 * sum_i (1 - q)^i c_i / sum_i i q (1 - q)^(i - 1) c_i`` for sampling fraction q."""
    sizes = np.asarray(hist.sizes, dtype=float)
    counts = np.asarray(hist.counts, dtype=float)
    q = fraction
    if q >= 1:
        return float(hist.n_classes)
    numerator = float(np.sum(np.power(1 - q, sizes) * counts))
    denominator = float(np.sum(sizes * q * np.power(1 - q, sizes - 1) * counts))
    return hist.n_classes + hist.of_size(1) * numerator / denominator


def _snb_probabilities(a: float, b: float, fraction: float) -> tuple[float, float]:
    """P(f = 1), P(f = 2) for a population class of 1 + NegBin(a, b) records, each sampled
    with probability ``fraction``: the sample size f has the generating function
    G(s) = x w(x) at x = 1 - fraction + fraction s, w(x) = (b / (1 - (1 - b) x))^a."""
    q = 1 - fraction
    d = (1 - b) * q
    base = (b / (1 - d)) ** a
    p1 = fraction * base * (1 + a * d / (1 - d))
    p2 = fraction ** 2 / 2 * a * (1 - b) * base / (1 - d) ** 2 * (2 - (1 - a) * d)
    return p1, p2


def snb_uniques(hist: ClassSizes, population_size: int) -> float:
    """The slide negative binomial model (Chen and Keller-McNulty 1998).

    A population class holds 1 + G records with G ~ NegBin(a, b), so P(F = 1) = b^a; the
    sample keeps each record with probability n / N.  The number K of non-empty population
    classes is estimated by :func:`shlosser_classes`; (a, b) solve
    K P(f = 1) = c1 and K P(f = 2) = c2; the estimate is K b^a.

    Raises
    ------
    EstimatorError
        When the two equations have no solution with a > 0 and 0 < b < 1 (e.g. no class of
        two records), or the estimate lies outside [0, N].
    """
    from scipy import optimize

    special = _special()
    c1, c2, n, N = hist.of_size(1), hist.of_size(2), hist.n_records, population_size
    if c1 == 0:
        return 0.0
    if c2 == 0:
        raise EstimatorError("The SNB model does not apply: the sample has no class of two "
                             "records, so its second equation has no solution.")
    fraction = n / N
    K = shlosser_classes(hist, fraction)

    def residuals(x):
        a, b = math.exp(x[0]), float(special.expit(x[1]))
        p1, p2 = _snb_probabilities(a, b, fraction)
        return [K * p1 / c1 - 1, K * p2 / c2 - 1]

    best = None
    for a0, b0 in ((1.0, 0.5), (0.1, 0.1), (5.0, 0.9), (0.5, 0.01)):
        start = [math.log(a0), math.log(b0 / (1 - b0))]
        with np.errstate(all="ignore"):
            try:
                found = optimize.least_squares(residuals, start, bounds=([-30, -30], [30, 30]),
                                               xtol=1e-14, ftol=1e-14, gtol=1e-14)
            except (ValueError, OverflowError, ZeroDivisionError):
                continue
        if best is None or found.cost < best.cost:
            best = found
    if best is None or max(abs(r) for r in best.fun) > 1e-6:
        raise EstimatorError("The SNB model does not apply: its equations have no solution "
                             "with a > 0 and 0 < b < 1 for this sample.")
    a, b = math.exp(best.x[0]), float(special.expit(best.x[1]))
    uniques = K * b ** a
    if not 0 <= uniques <= N:
        raise EstimatorError(f"The SNB model does not apply: its estimate ({uniques:.4g} "
                             f"uniques) lies outside [0, {N}].")
    return float(uniques)


_ESTIMATORS = {"pitman": pitman_uniques, "zayatz": zayatz_uniques, "snb": snb_uniques}


def population_uniques_from_sizes(hist: ClassSizes, population_size: int,
                                  model: str = "dankar") -> PopulationUniqueness:
    """:func:`population_uniqueness` from a histogram of class sizes (what a scan of a
    partitioned table, or a search over a lattice, already holds)."""
    n = hist.n_records
    fraction = Fraction(n, population_size)
    estimates: dict = {}
    uniques: float | None

    def run(name: str) -> float | None:
        try:
            value = _ESTIMATORS[name](hist, population_size)
        except EstimatorError as error:
            estimates[name] = str(error)
            return None
        estimates[name] = value
        return value

    if hist.of_size(1) == 0:  # no sample unique: no population unique is estimated
        estimates = {name: 0.0 for name in _ESTIMATORS}
        chosen, uniques = model, 0.0
    elif model != "dankar":
        uniques = run(model)
        if uniques is None:
            raise EstimatorError(estimates[model])
        chosen = model
    elif fraction <= DANKAR_FRACTION:  # Dankar et al. (2012): Pitman for small fractions
        pitman = run("pitman")
        if pitman is not None and pitman > 0:
            chosen, uniques = "pitman", pitman
        else:
            chosen, uniques = "zayatz", run("zayatz")
    else:  # larger fractions: the smaller of Zayatz and SNB (SNB when it applies)
        zayatz, snb = run("zayatz"), run("snb")
        if snb is not None and snb > 0 and (zayatz is None or snb <= zayatz):
            chosen, uniques = "snb", snb
        else:
            chosen, uniques = "zayatz", zayatz
    if uniques is None:
        raise EstimatorError(f"No population model applies to this sample: {estimates}")
    return PopulationUniqueness(share=float(uniques) / population_size, uniques=float(uniques),
                                model=chosen, population_size=population_size, sample_size=n,
                                sampling_fraction=fraction, estimates=estimates)


@validate_params({"population_size": POPULATION_SIZE, "model": MODEL, "missing": MISSING})
@dispatchable
def population_uniqueness(table: pd.DataFrame, *, qi, population_size: int,
                          model: str = "dankar",
                          missing: str = "error") -> PopulationUniqueness:
    """Estimate the share of the population's records that are unique in the population.

    Parameters
    ----------
    table : pandas.DataFrame
        A sample of the population (a simple random sample is what every model assumes).
    qi : str or list of str
    population_size : int
        N, at least the sample's size.
    model : {'dankar', 'pitman', 'zayatz', 'snb'}, default 'dankar'
        ``'dankar'`` applies Dankar et al.'s decision rule: for a sampling fraction of at most
        10%, Pitman's model (Zayatz's when Pitman's does not converge); above, the smaller of
        Zayatz's and the SNB estimate (Zayatz's when SNB does not apply).
    missing : {'error', 'as_value'}, default 'error'

    Returns
    -------
    PopulationUniqueness
        ``.share`` is the estimated share; ``.estimates`` every model tried.

    Raises
    ------
    EstimatorError
        When the model asked for does not apply to the sample (its message says why).

    Notes
    -----
    Assumptions: the sample is a simple random sample of the population (Zayatz, SNB:
    Bernoulli sampling with fraction n / N); Pitman's model assumes the population's
    partition into classes follows Pitman's two-parameter Poisson-Dirichlet law; Zayatz's
    method assumes the population's class-size distribution equals the sample's; the SNB
    model assumes population class sizes are 1 + a negative binomial variable.

    Examples
    --------
    >>> table = pd.DataFrame({"zip": list("aabbbcdeef")})
    >>> round(population_uniqueness(table, qi="zip", population_size=20,
    ...                             model="zayatz").share, 4)
    0.1527
    """
    owner = "population_uniqueness"
    names = _check_table(table, qi, owner, missing)
    check(model, MODEL, name="model", owner=owner)
    hist = _histogram(_sizes(table, names))
    N = _population_size(population_size, hist.n_records, owner)
    return population_uniques_from_sizes(hist, N, model)


# --------------------------------------------------------------------------------------------
# Individual risk of weighted samples (Benedetti and Franconi 1998)
# --------------------------------------------------------------------------------------------


@validate_params({"weights": InstanceOf(str, name="a column name"), "missing": MISSING})
def individual_risk(table: pd.DataFrame, *, qi, weights: str,
                    missing: str = "error") -> pd.Series:
    """Per-record re-identification risk of a weighted sample (Benedetti and Franconi 1998).

    A record in a sample class of f records whose weights sum to W (the estimated population
    class size) has ``p = f / W``; given f, the population class size is f + a negative
    binomial number of failures with success probability p, and the risk is its expected
    inverse, ``E[1 / F | f] = p^f / f * 2F1(f, f; f + 1; 1 - p)`` (for f = 1,
    ``p log(1/p) / (1 - p)``), which is what sdcMicro's ``measure_risk`` reports.

    Parameters
    ----------
    table : pandas.DataFrame
    qi : str or list of str
    weights : str
        The column of sampling weights (each >= 1: a record stands for at least itself).

    Returns
    -------
    pandas.Series
        The risk of each record, on the table's index (floats in (0, 1]).

    Examples
    --------
    >>> table = pd.DataFrame({"zip": ["1", "2", "2"], "w": [1.0, 4.0, 6.0]})
    >>> individual_risk(table, qi="zip", weights="w").round(4).tolist()
    [1.0, 0.1494, 0.1494]
    """
    owner = "individual_risk"
    names = _check_table(table, qi, owner, missing)
    if not isinstance(weights, str) or weights not in table.columns:
        raise SchemaError(f"Column {weights!r} is not in the table; columns are "
                          f"{list(table.columns)}.")
    w = pd.to_numeric(table[weights], errors="coerce")
    if w.isna().any() or (w < 1).any():
        bad = native(table[weights][w.isna() | (w < 1)].iloc[0])
        raise SchemaError(f"Column {weights!r} must hold sampling weights >= 1; it has "
                          f"{bad!r}.")
    special = _special()
    grouped = _grouped(table, names)
    group = grouped.ngroup().to_numpy()
    f = np.bincount(group).astype(float)
    W = np.bincount(group, weights=w.to_numpy(dtype=float))
    p = np.clip(f / W, 0.0, 1.0)
    with np.errstate(all="ignore"):
        risk = np.where(p >= 1, 1 / f,
                        np.exp(f * np.log(p) - np.log(f))
                        * special.hyp2f1(f, f, f + 1, 1 - p))
    one = (f == 1) & (p < 1)
    risk[one] = p[one] * np.log(1 / p[one]) / (1 - p[one])
    if not np.all(np.isfinite(risk)):
        raise EstimatorError("The individual risk could not be evaluated for a class "
                             "(hypergeometric series out of range).")
    return pd.Series(np.minimum(risk, 1.0)[group], index=table.index, name="individual_risk")


# --------------------------------------------------------------------------------------------
# Which QI combinations drive the risk: distinction and separation (ARX's attribute risk)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttributeRisk:
    """Distinction and separation of QI subsets.

    ``table`` has one row per subset: ``qi`` (a tuple), ``distinction`` (distinct combinations
    / records: 1 when the subset alone makes every record unique) and ``separation`` (the
    share of record pairs the subset tells apart), both exact, most distinguishing first.
    """

    table: pd.DataFrame

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, (("rows", len(self.table)),
                                  ("columns", ", ".join(map(str, self.table.columns)))),
                     None, lambda n: self.table.head(n), len(self.table))


@validate_params({"max_size": Nullable(Interval("integer", 1)),
                  "max_subsets": Interval("integer", 1), "missing": MISSING})
def attribute_risk(table: pd.DataFrame, *, qi, max_size: int | None = None,
                   max_subsets: int = 1024, missing: str = "error") -> AttributeRisk:
    """Distinction and separation (Motwani and Xu 2007) of every subset of ``qi`` with at most
    ``max_size`` columns, bounded: more than ``max_subsets`` subsets is an error naming how
    many there would be (so many QIs cannot explode).

    Examples
    --------
    >>> table = pd.DataFrame({"a": [1, 1, 2, 2], "b": [1, 2, 1, 1]})
    >>> attribute_risk(table, qi=["a", "b"]).table[["qi", "distinction"]].values.tolist()
    [[('a', 'b'), Fraction(3, 4)], [('a',), Fraction(1, 2)], [('b',), Fraction(1, 2)]]
    """
    owner = "attribute_risk"
    names = _check_table(table, qi, owner, missing)
    q = len(names)
    size = q if max_size is None else max_size
    size = min(int(size), q)
    total = sum(math.comb(q, s) for s in range(1, size + 1))
    if total > max_subsets:
        raise InvalidParameterError(
            f"attribute_risk would evaluate {total} subsets of {q} quasi-identifiers (more "
            f"than max_subsets={max_subsets}); pass a smaller max_size or a larger "
            f"max_subsets.")
    n = len(table)
    pairs = n * (n - 1)
    rows = []
    for s in range(1, size + 1):
        for subset in itertools.combinations(names, s):
            sizes = _sizes(table, list(subset))
            same = int((sizes * (sizes - 1)).sum())
            rows.append({"qi": subset, "distinction": Fraction(len(sizes), n),
                         "separation": Fraction(1) if pairs == 0
                         else 1 - Fraction(same, pairs)})
    frame = pd.DataFrame(rows)
    frame = frame.iloc[sorted(range(len(frame)), key=lambda i: (
        -frame["distinction"].iloc[i], -frame["separation"].iloc[i], len(frame["qi"].iloc[i]),
        frame["qi"].iloc[i]))].reset_index(drop=True)
    return AttributeRisk(frame)



# --------------------------------------------------------------------------------------------
# Every count-based measure from one grouping
# --------------------------------------------------------------------------------------------


def _both(name: str, value: Fraction | None) -> dict:
    """``{name: float, name_exact: 'p/q'}`` (both None for a figure not computed)."""
    if value is None:
        return {name: None, f"{name}_exact": None}
    return {name: float(value), f"{name}_exact": fraction_text(value)}


#: What each population model assumes about the sample and the population (one sentence).
MODEL_ASSUMPTIONS = {
    "pitman": "Pitman's model (Hoshino 2001): the population's partition into classes follows "
              "Pitman's two-parameter Poisson-Dirichlet law; the sample is a simple random "
              "sample.",
    "zayatz": "Zayatz's method (Zayatz 1991): the population's class-size distribution equals "
              "the sample's; the sample is a simple random sample.",
    "snb": "The slide negative binomial model (Chen and Keller-McNulty 1998): population class "
           "sizes are 1 + a negative binomial variable; Bernoulli sampling with fraction n/N.",
}


def population_assumptions(asked: str, used: str) -> list:
    """The assumptions behind a population-uniqueness estimate, as sentences: the decision
    rule when ``asked`` is ``'dankar'``, then the model ``used``."""
    rule = ([f"Dankar et al.'s (2012) decision rule chose {used}: Pitman's model for a "
             f"sampling fraction of at most 10%, else the smaller of Zayatz's and the SNB "
             f"estimate."] if asked == "dankar" else [f"The {used} model, as asked."])
    return rule + [MODEL_ASSUMPTIONS.get(used, f"No sample unique: {used} estimates none.")]


@dataclass(frozen=True)
class IdentityRisk:
    """The identity-disclosure figures of a table, from one grouping of its QIs.

    Attributes
    ----------
    qi : tuple of str
    prosecutor : ProsecutorRisk
    marketer : Fraction
        Classes / records (the table taken as the population).
    sample_uniqueness : Fraction
    class_sizes : ClassSizes
    population : PopulationUniqueness or None
        With ``population_size``: the estimated population uniqueness (Dankar et al.'s rule
        unless another model was asked for).
    journalist : JournalistRisk or None
        With ``population_size``: the journalist risk, each population class estimated as
        f N / n (:func:`journalist_risk`).
    model : str
        The population model asked for (``population.model`` is the one that was used).
    """

    qi: tuple
    prosecutor: ProsecutorRisk
    marketer: Fraction
    sample_uniqueness: Fraction
    class_sizes: ClassSizes
    population: PopulationUniqueness | None
    journalist: JournalistRisk | None = None
    model: str = "dankar"

    def to_dict(self) -> dict:
        out = {"qi": list(self.qi), "prosecutor": self.prosecutor.to_dict(),
               "marketer": self.marketer, "sample_uniqueness": self.sample_uniqueness}
        if self.population is not None:
            out["population"] = self.population.to_dict()
        if self.journalist is not None:
            out["journalist"] = self.journalist.to_dict()
        return out

    @validate_params({"highest": Boolean()}, owner="IdentityRisk.to_json")
    def to_json(self, *, highest: bool = True) -> dict:
        """Every figure JSON-ready: each exact quantity as ``'p/q'`` text (``*_exact``) beside
        its float, the assumptions stated, and (``highest``) the highest-risk classes."""
        pros = self.prosecutor
        out: dict = {"qi": list(self.qi), "n_records": pros.n_records,
                     "n_classes": pros.n_classes, "smallest_class": pros.smallest_class,
                     "records_at_max": pros.records_at_max,
                     **_both("prosecutor_max", pros.max),
                     **_both("prosecutor_average", pros.average),
                     "threshold_exact": None if pros.threshold is None
                     else fraction_text(pros.threshold),
                     **_both("records_above_threshold", pros.above_threshold),
                     **_both("marketer", self.marketer),
                     **_both("sample_uniqueness", self.sample_uniqueness),
                     "class_sizes": {"sizes": list(self.class_sizes.sizes),
                                     "counts": list(self.class_sizes.counts)},
                     "population": None, "journalist": None}
        if self.population is not None:
            pop = self.population
            out["population"] = {
                "rule": self.model, "model": pop.model, "population_size": pop.population_size,
                **_both("sampling_fraction", pop.sampling_fraction),
                "share": pop.share, "uniques": pop.uniques,
                "estimates": {name: value for name, value in pop.estimates.items()},
                "assumptions": population_assumptions(self.model, pop.model)}
        if self.journalist is not None:
            out["journalist"] = {**_both("max", self.journalist.max),
                                 **_both("average", self.journalist.average),
                                 "smallest_population_class":
                                     self.journalist.smallest_population_class,
                                 "estimated": self.journalist.estimated}
        if highest:
            out["highest"] = [
                {"values": {str(c): native(row[c]) for c in self.qi},
                 "class_size": int(row["class_size"]), **_both("risk", row["risk"])}
                for _, row in self.prosecutor.highest.iterrows()]
        return out


    def to_frame(self) -> pd.DataFrame:
        rows: list[tuple[str, object]] = [("prosecutor_max", self.prosecutor.max),
                ("prosecutor_average", self.prosecutor.average),
                ("marketer", self.marketer), ("sample_uniqueness", self.sample_uniqueness)]
        if self.prosecutor.threshold is not None:
            rows.append(("records_above_threshold", self.prosecutor.above_threshold))
        if self.population is not None:
            rows.append((f"population_uniqueness ({self.population.model})",
                         self.population.share))
        return pd.DataFrame(rows, columns=["measure", "value"])

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        facts = (("qi", self.qi), ("prosecutor_max", self.prosecutor.max),
                 ("prosecutor_average", self.prosecutor.average), ("marketer", self.marketer),
                 ("sample_uniqueness", self.sample_uniqueness),
                 ("records", self.prosecutor.n_records), ("classes", self.prosecutor.n_classes),
                 ("population_uniqueness",
                  None if self.population is None else self.population.share))
        return Shown(None, None, tuple((k, v) for k, v in facts if v is not None), None,
                     lambda n: self.prosecutor.highest.head(n), len(self.prosecutor.highest))


@validate_params({"threshold": THRESHOLD, "top": TOP,
                  "population_size": Nullable(POPULATION_SIZE), "model": MODEL,
                  "missing": MISSING})
@dispatchable
def identity_risk(table: pd.DataFrame, *, qi, threshold=None, top: int = 10,
                  population_size: int | None = None, model: str = "dankar",
                  missing: str = "error") -> IdentityRisk:
    """Every count-based identity-disclosure measure of a table, from ONE grouping of its QIs:
    prosecutor risk (with the records above ``threshold`` and the ``top`` riskiest classes),
    marketer risk, sample uniqueness, the class-size histogram and, given
    ``population_size``, the estimated population uniqueness (``model`` as in
    :func:`population_uniqueness`).

    Examples
    --------
    >>> table = pd.DataFrame({"zip": ["1", "1", "2", "3", "3", "3"]})
    >>> risk = identity_risk(table, qi="zip")
    >>> risk.prosecutor.max, risk.marketer, risk.sample_uniqueness
    (Fraction(1, 1), Fraction(1, 2), Fraction(1, 6))
    """
    owner = "identity_risk"
    names = _check_table(table, qi, owner, missing)
    limit = None if threshold is None else _threshold(threshold, owner)
    check(top, TOP, name="top", owner=owner)
    check(model, MODEL, name="model", owner=owner)
    sizes_series = _grouped(table, names).size()
    sizes = sizes_series.to_numpy(dtype=np.int64)
    order = np.argsort(sizes, kind="stable")[: int(top)]
    return identity_from_sizes(names, _histogram(sizes), sizes_series.iloc[order],
                               threshold=limit, population_size=population_size, model=model,
                               owner=owner)


def identity_from_sizes(qi, hist: ClassSizes, smallest_classes: pd.Series, *,
                        threshold: Fraction | None = None, population_size: int | None = None,
                        model: str = "dankar", owner: str = "identity_risk") -> IdentityRisk:
    """:class:`IdentityRisk` from the histogram of class sizes and the highest-risk classes
    (smallest first, labelled by their QI values): what one scan of a table, in memory or in
    partitions, reduces to."""
    prosecutor = prosecutor_from_sizes(hist, smallest_classes, threshold=threshold)
    population = journalist = None
    if population_size is not None:
        N = _population_size(population_size, hist.n_records, owner)
        population = population_uniques_from_sizes(hist, N, model)
        journalist = journalist_from_sizes(hist, N)
    return IdentityRisk(qi=tuple(qi), prosecutor=prosecutor,
                        marketer=Fraction(hist.n_classes, hist.n_records),
                        sample_uniqueness=Fraction(hist.of_size(1), hist.n_records),
                        class_sizes=hist, population=population, journalist=journalist,
                        model=model)
