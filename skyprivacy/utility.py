"""Utility measures of a release, and the formulas of the search objectives.

A privacy criterion says whether a release is safe; a utility measure says how much it still
tells.  Two families live here:

* the measures of Chen, LeFevre and Ramakrishnan (2009, Sect. 8.4): the average QI-group
  size, the KL-divergence between the original table and its bucketized release, and the
  classification accuracy of a decision tree trained on the release; with the discernibility
  metric (Bayardo and Agrawal 2005), which charges every individual the size of its group and
  every suppressed row the size of the table.  The group-size measures read a
  :class:`~skyprivacy.release.ReleaseCandidate`; the KL-divergence needs the original table
  and each row's group;
* the measures that anonymization toolkits optimise and papers report, computed from a
  released table against its original: generalization loss (NCP, ARX's Loss; Iyengar 2002),
  precision (Sweeney 2002), height (Samarati 2001), the average equivalence class size
  (LeFevre, DeWitt and Ramakrishnan 2006) and non-uniform entropy (Gionis and Tassa 2009).
  :func:`utility_measures` reports all of them for any release (full-domain, Mondrian, or a
  table).

This module is the one home of their formulas: the full-domain search
(:mod:`skyprivacy.anonymize.lattice`) minimises the same quantities through
:func:`loss_value`, :func:`precision_value`, :func:`discernibility_value`,
:func:`aecs_value`, :func:`log2_units` and :func:`entropy_value`, and a test checks that a
node's objective equals the measure of the table it releases.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, overload

import numpy as np
import pandas as pd

from ._core.display import Shown, dict_facts, head_rows, result_html, result_repr
from ._core.encoding import factorize, require_columns
from ._core.validation import (Boolean, InstanceOf, Interval, Nullable, Options,
                               validate_params)
from .errors import InvalidParameterError, SchemaError, param_error
from .formulas import RELEASE
from .hierarchy import Hierarchy
from .release import MISSING_OPTIONS, ReleaseCandidate, check_qi_and_sensitive

__all__ = [
    "average_group_size",
    "discernibility",
    "average_equivalence_class_size",
    "generalization_loss",
    "GeneralizationLoss",
    "precision",
    "generalization_height",
    "non_uniform_entropy",
    "utility_measures",
    "UtilityMeasures",
    "kl_divergence",
    "utility_report",
    "UtilityReport",
    "classification_accuracy",
    "ClassificationAccuracy",
]

# Largest groups x values table kl_divergence builds densely (160 MB of int64).
_DENSE_CELLS = 20_000_000

#: The declared type of a count of suppressed rows.
_COUNT = Interval("integer", 0)

#: The non-uniform entropy is summed in fixed point: every base-2 logarithm is rounded to a
#: multiple of 2^-ENTROPY_FRACTION_BITS, so sums are exact integers and comparisons exact.
ENTROPY_FRACTION_BITS = 32


# ----------------------------------------------------------------------------- the formulas
def exact_dot(a, b) -> int:
    """sum_i a_i b_i of two integer arrays as a Python int: in int64 when it cannot overflow,
    else in Python integers."""
    left = np.asarray(a, dtype=np.int64)
    right = np.asarray(b, dtype=np.int64)
    if not len(left):
        return 0
    bound = float(np.abs(left).max()) * float(np.abs(right).max()) * len(left)
    if bound < 2.0 ** 62:
        return int(np.dot(left, right))
    return sum(x * y for x, y in zip(left.tolist(), right.tolist()))


def log2_units(counts) -> np.ndarray:
    """round(log2(count) * 2^32) of every count >= 1, as int64.

    Non-decreasing in the count (two counts below 2^40 differ in log2 by far more than the
    round-off of the logarithm), which is what makes the entropy's lower bound exact.

    Examples
    --------
    >>> log2_units([1, 2, 8]).tolist()
    [0, 4294967296, 12884901888]
    """
    values = np.asarray(counts, dtype=np.float64)
    return np.rint(np.log2(values) * float(2 ** ENTROPY_FRACTION_BITS)).astype(np.int64)


def loss_value(cost_sums, leaves, n_rows: int, n_suppressed: int
               ) -> tuple[tuple[Fraction, ...], Fraction]:
    """Generalization loss per QI and in total.

    ``cost_sums[j]``: the sum over the released, unsuppressed records of (leaves under the
    record's QI-j cell - 1); ``leaves[j]``: the leaves of QI j's domain.  Per QI:
    (cost_sums[j] / (leaves[j] - 1) + n_suppressed) / n_rows (a one-leaf domain loses
    nothing on released records); the total is the mean over the QIs.

    Examples
    --------
    >>> loss_value([3, 0], [4, 2], 4, 0)
    ((Fraction(1, 4), Fraction(0, 1)), Fraction(1, 8))
    """
    per = tuple((Fraction(int(cost), int(d) - 1) if d > 1 else Fraction(0)) / n_rows
                + Fraction(n_suppressed, n_rows) for cost, d in zip(cost_sums, leaves))
    return per, sum(per, Fraction(0)) / max(len(per), 1)


def precision_value(level_sums, n_rows: int, n_suppressed: int) -> Fraction:
    """Sweeney's precision: 1 - mean over QIs of (level_sums[j] + n_suppressed) / n_rows.

    ``level_sums[j]``: the sum over the released, unsuppressed records of level / height of
    the record's QI-j cell (a Fraction); a suppressed record is at the top of every hierarchy.

    Examples
    --------
    >>> precision_value([Fraction(2), Fraction(0)], 4, 0)
    Fraction(3, 4)
    """
    loss = sum((Fraction(s) + n_suppressed for s in level_sums), Fraction(0))
    return 1 - loss / (n_rows * max(len(level_sums), 1))


def discernibility_value(sizes, n_rows: int, n_suppressed: int) -> int:
    """sum_g n_g^2 over the released groups + n_suppressed * n_rows, exactly.

    Examples
    --------
    >>> discernibility_value([2, 4], 7, 1)
    27
    """
    return sum(int(n) * int(n) for n in np.asarray(sizes).tolist()) + n_suppressed * n_rows


def aecs_value(n_rows: int, n_classes: int, n_suppressed: int) -> Fraction:
    """n_rows / (n_classes + 1 if any row is suppressed else n_classes).

    Examples
    --------
    >>> aecs_value(9, 2, 3)
    Fraction(3, 1)
    """
    return Fraction(n_rows, n_classes + (1 if n_suppressed else 0))


def entropy_value(units: int) -> Fraction:
    """The non-uniform entropy in bits from its fixed-point sum (:func:`log2_units`).

    ``units`` = sum over released records and QIs of L(rows under the cell) + n_suppressed *
    L(n_rows) per QI - sum over QIs and values of c_v L(c_v), L = :func:`log2_units`.

    Examples
    --------
    >>> entropy_value(2 ** 33)
    Fraction(2, 1)
    """
    return Fraction(int(units), 2 ** ENTROPY_FRACTION_BITS)



@validate_params({"release": RELEASE})
def average_group_size(release: ReleaseCandidate) -> float:
    """The average number of individuals per QI-group, N / B.

    Smaller is more useful: small groups say more about each individual (Sect. 8.4).

    Parameters
    ----------
    release : ReleaseCandidate

    Returns
    -------
    float

    Raises
    ------
    InvalidParameterError
        If ``release`` is not a ReleaseCandidate.

    References
    ----------
    Chen, LeFevre and Ramakrishnan, "Adversarial-knowledge dimensions in data privacy", VLDB
    Journal 18 (2009), Sect. 8.4 and Table 3 (79.45 vs 1585 on Adult).

    Examples
    --------
    >>> release = ReleaseCandidate.from_groups([(2, ["flu", "hiv"]), (4, ["flu"] * 4)])
    >>> average_group_size(release)
    3.0
    """
    return release.n_individuals / release.n_groups


@overload
def discernibility(release: ReleaseCandidate, *, normalized: Literal[False] = ...,
                   suppressed: int = ...) -> int: ...
@overload
def discernibility(release: ReleaseCandidate, *, normalized: bool,
                   suppressed: int = ...) -> int | float: ...


@validate_params({"release": RELEASE, "normalized": Boolean(), "suppressed": _COUNT})
def discernibility(release: ReleaseCandidate, *, normalized: bool = False,
                   suppressed: int = 0) -> int | float:
    """The discernibility metric: every individual is charged the size of its group, every
    suppressed row the size of the table.

    Parameters
    ----------
    release : ReleaseCandidate
        The released groups (the suppressed rows not among them).
    normalized : bool, default False
        Divide by N^2, giving a number in [1/N, 1]: 1/N for singleton groups, 1 for a single
        group holding everyone (or everyone suppressed).
    suppressed : int, default 0
        Rows suppressed from the release; N = ``release.n_individuals + suppressed``.

    Returns
    -------
    int or float
        sum_g n_g^2 + suppressed * N (an exact int), or that sum / N^2 (a float) when
        ``normalized``.

    Raises
    ------
    InvalidParameterError
        If ``release`` is not a ReleaseCandidate, ``normalized`` is not a bool or
        ``suppressed`` is not a non-negative integer.

    Notes
    -----
    Bayardo and Agrawal's C_DM = sum over groups of at least k rows of |E|^2 plus, for every
    suppressed row, |D|, the size of the original table.  Merging groups never decreases it:
    (a + b)^2 >= a^2 + b^2; suppressing a group of n rows raises its charge from n^2 to n N.
    A release with suppressed rows masked (``'*'`` in every QI) is measured by
    :func:`utility_measures`, which takes the masked rows out of their group.

    References
    ----------
    R. J. Bayardo and R. Agrawal, "Data privacy through optimal k-anonymization", ICDE 2005,
    Sect. 2 (the discernibility metric C_DM).

    Examples
    --------
    >>> release = ReleaseCandidate.from_groups([(2, ["flu", "hiv"]), (4, ["flu"] * 4)])
    >>> discernibility(release)
    20
    >>> round(discernibility(release, normalized=True), 4)
    0.5556
    >>> discernibility(release, suppressed=1)   # 4 + 16 + 1 * 7
    27
    """
    n_rows = release.n_individuals + suppressed
    total = discernibility_value(release.sizes_array, n_rows, suppressed)
    if normalized:
        return total / n_rows ** 2
    return total


@validate_params({"release": RELEASE, "suppressed": _COUNT})
def average_equivalence_class_size(release: ReleaseCandidate, *,
                                   suppressed: int = 0) -> Fraction:
    """AECS: the average size of an equivalence class (QI-group), the suppressed rows one class.

    Parameters
    ----------
    release : ReleaseCandidate
        The released groups (the suppressed rows not among them).
    suppressed : int, default 0
        Rows suppressed from the release.

    Returns
    -------
    Fraction
        N / (B + 1 if any row is suppressed else B), exactly; N counts the suppressed rows.

    Raises
    ------
    InvalidParameterError
        If ``release`` is not a ReleaseCandidate or ``suppressed`` is not a non-negative
        integer.

    Notes
    -----
    LeFevre, DeWitt and Ramakrishnan normalise by k (C_AVG = N / B / k); skyprivacy reports
    AECS without the division, as ARX does, so releases under different criteria compare.
    Without suppression it is :func:`average_group_size`, exactly.

    References
    ----------
    K. LeFevre, D. J. DeWitt and R. Ramakrishnan, "Mondrian multidimensional k-anonymity",
    ICDE 2006, Sect. 5 (the normalized average equivalence class size C_AVG).

    Examples
    --------
    >>> release = ReleaseCandidate.from_groups([(2, ["flu", "hiv"]), (4, ["flu"] * 4)])
    >>> average_equivalence_class_size(release)
    Fraction(3, 1)
    >>> average_equivalence_class_size(release, suppressed=3)   # 9 rows, 2 + 1 classes
    Fraction(3, 1)
    """
    return aecs_value(release.n_individuals + suppressed, release.n_groups, suppressed)


# ----------------------------------------------------------------------------- KL-divergence
def _codes(values: pd.Series) -> np.ndarray:
    """Dense int64 codes of a column, NaN kept as a category.

    Codes follow the sorted order of the values when they are comparable, so the result does
    not depend on the order of the rows.
    """
    try:
        codes, _ = pd.factorize(values, sort=True, use_na_sentinel=False)
    except TypeError:  # mixed, non-comparable values
        codes, _ = pd.factorize(values, sort=False, use_na_sentinel=False)
    return np.asarray(codes, dtype=np.int64)


def _unique_counts(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.unique(keys, return_counts=True)


def _kl_from_codes(x: np.ndarray, g: np.ndarray, s: np.ndarray) -> float:
    """KL(p || p*) in nats from dense codes of the QI vector, the group and the sensitive value."""
    n_rows = len(x)
    n_s = int(s.max()) + 1
    n_g = int(g.max()) + 1
    group_size = np.bincount(g, minlength=n_g)
    # the original's cells (x, s) and their counts
    xs_keys, xs_count = _unique_counts(x * n_s + s)
    xs_x, xs_s = xs_keys // n_s, xs_keys % n_s
    # how many rows of each x sit in each group, sorted by x
    xg_keys, xg_count = _unique_counts(x * n_g + g)
    xg_x, xg_g = xg_keys // n_g, xg_keys % n_g
    # p*(x, s) * N = sum over the groups g holding x of #(x in g) * #(s in g) / n_g:
    # pair every original cell (x, s) with every (x, g) cell of the same x.
    n_x = int(x.max()) + 1
    per_x = np.bincount(xg_x, minlength=n_x)
    first = np.concatenate([[0], np.cumsum(per_x)[:-1]])
    repeats = per_x[xs_x]
    cell = np.repeat(np.arange(len(xs_keys)), repeats)
    offset = np.arange(len(cell)) - np.repeat(np.cumsum(repeats) - repeats, repeats)
    pair = first[xs_x][cell] + offset
    group = xg_g[pair]
    # how often each value occurs in each group: a dense table when it is small, else a
    # sorted list of the (group, value) cells that occur
    wanted = group * n_s + xs_s[cell]
    if n_g * n_s <= _DENSE_CELLS:
        value_in_group = np.bincount(g * n_s + s, minlength=n_g * n_s)[wanted]
    else:
        gs_keys, gs_count = _unique_counts(g * n_s + s)
        at = np.minimum(np.searchsorted(gs_keys, wanted), len(gs_keys) - 1)
        value_in_group = np.where(gs_keys[at] == wanted, gs_count[at], 0)
    mass = xg_count[pair] * value_in_group / group_size[group]
    expected = np.bincount(cell, weights=mass, minlength=len(xs_keys))
    # every original cell has p* > 0: its own row puts s in the group of x
    terms = xs_count * np.log(xs_count / expected)
    return max(0.0, math.fsum(terms.tolist()) / n_rows)


def _column_list(qi: object, owner: str) -> list:
    if isinstance(qi, str) or (isinstance(qi, Hashable) and not isinstance(qi, (list, tuple))):
        return [qi]
    if isinstance(qi, (list, tuple)):
        columns = list(qi)
        if columns:
            return columns
    raise param_error("qi", owner, "be a column name or a non-empty list of column names", qi)


#: The declared type of a ``table`` parameter.
_TABLE = InstanceOf(pd.DataFrame, name="a pandas DataFrame")


def _check_kl_inputs(table: object, assignment: object, qi: object, sensitive: object,
                     missing: object, owner: str) -> tuple[pd.DataFrame, pd.Series, list]:
    if not isinstance(table, pd.DataFrame):
        raise param_error("table", owner, "be a pandas DataFrame", type(table).__name__)
    if missing not in MISSING_OPTIONS:
        raise param_error("missing", owner, f"be one of {list(MISSING_OPTIONS)}", missing)
    columns = _column_list(qi, owner)
    require_columns(table, [*columns, sensitive])
    check_qi_and_sensitive(columns, sensitive, owner)
    if len(table) == 0:
        raise SchemaError("The table is empty: the KL-divergence needs at least one row.")
    if not isinstance(assignment, pd.Series):
        raise param_error("assignment", owner,
                          "be a pandas Series of group ids aligned with the table's index",
                          type(assignment).__name__)
    aligned: pd.Series = assignment
    if not aligned.index.equals(table.index):
        if not (table.index.is_unique and aligned.index.is_unique):
            raise SchemaError(
                "The assignment's index does not match the table's index, and one of them "
                "repeats labels, so rows cannot be matched to groups.")
        lacking = table.index.difference(aligned.index, sort=False)
        extra = aligned.index.difference(table.index, sort=False)
        if len(lacking) or len(extra):
            raise SchemaError(
                f"The assignment's index does not match the table's index: {len(lacking)} "
                f"table row(s) have no group"
                + (f" (first: {lacking.tolist()[0]!r})" if len(lacking) else "")
                + f" and {len(extra)} assignment label(s) are not table rows"
                + (f" (first: {extra.tolist()[0]!r})" if len(extra) else "") + ".")
        aligned = aligned.reindex(table.index)
    n_missing = int(aligned.isna().sum())
    if n_missing:
        raise SchemaError(
            f"The assignment has {n_missing} missing group id(s); every row of the table must "
            f"belong to a QI-group.")
    if missing == "error":
        for column in [*columns, sensitive]:
            n_missing = int(table[column].isna().sum())
            if n_missing:
                raise SchemaError(
                    f"Column {column!r} has {n_missing} missing value(s); pass "
                    f"missing='as_value' to treat them as a category, or clean the table.")
    return table, aligned, columns


@validate_params({"table": _TABLE, "missing": Options(*MISSING_OPTIONS)})
def kl_divergence(table: pd.DataFrame, assignment: pd.Series, *, qi, sensitive: Hashable,
                  missing: str = "error") -> float:
    """KL-divergence between the original table and its bucketized release (Sect. 8.4).

    Parameters
    ----------
    table : pandas.DataFrame
        The ORIGINAL table (one row per individual). It is never modified.
    assignment : pandas.Series
        The QI-group of every row, aligned with ``table.index`` (same labels; if they are in
        another order they are matched by label).
    qi : column name or list of column names
        The non-sensitive attributes x that the bucketized release publishes as they are.
    sensitive : column name
        The sensitive attribute s (one value per row, svpi).
    missing : {'error', 'as_value'}, default 'error'
        Missing values in ``qi`` or ``sensitive`` raise by default; ``'as_value'`` treats them
        as a category. Missing group ids always raise.

    Returns
    -------
    float
        sum_{(x, s)} p(x, s) log(p(x, s) / p*(x, s)) in nats (natural logarithm); 0 means the
        release loses nothing.  Divide by log(2) for bits.

    Raises
    ------
    InvalidParameterError
        If ``table`` is not a DataFrame, ``assignment`` is not a Series, ``qi`` is empty,
        ``sensitive`` is among ``qi``, or ``missing`` is unknown.
    SchemaError
        If a column is missing, the table is empty, the assignment is not aligned with the
        table or misses group ids, or ``qi`` / ``sensitive`` hold missing values under
        ``missing='error'``.

    Notes
    -----
    p(x, s) is the fraction of rows of the original with QI vector x and sensitive value s.
    The bucketized release keeps x and shuffles s within each group, so p*(x, s) =
    p*(x) p*(s | x), with p*(x) = p(x) and p*(s | x) the fraction of x's group holding s.
    If the rows of one x are spread over several groups (the paper's SkylineAnonymize never
    does this), p*(x, s) = (1/N) sum_g #(x in g) #(s in g) / n_g, the same formula per group.
    0 log 0 = 0, and p* > 0 wherever p > 0, so the sum is finite; it is computed with
    vectorized counting (no Python loop over rows) and summed with :func:`math.fsum`;
    round-off below 0 is clamped to 0.

    On the log base: the paper does not state it.  Its Table 3 reports 1.280 and 1.869 on
    Adult with the 14-valued occupation as s.  Since KL <= H(s) and H(occupation) is 2.358
    nats = 3.401 bits = 1.024 in base 10 on Adult, base 10 is impossible; both nats and bits
    fit the bound.  skyprivacy uses the natural logarithm, the usual choice for this measure.

    References
    ----------
    Chen, LeFevre and Ramakrishnan (2009), Sect. 8.4 (after Kifer and Gehrke, "Injecting
    utility into anonymized datasets", SIGMOD 2006).

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"zip": ["a", "a", "b", "b"], "disease": ["flu", "hiv", "flu", "flu"]})
    >>> round(kl_divergence(table, pd.Series([0, 0, 1, 1]), qi="zip", sensitive="disease"), 6)
    0.0
    >>> round(kl_divergence(table, pd.Series([0, 0, 0, 0]), qi="zip", sensitive="disease"), 6)
    0.215762
    """
    owner = "kl_divergence"
    table, assignment, columns = _check_kl_inputs(table, assignment, qi, sensitive, missing,
                                                  owner)
    codes = []
    for what, data in [*((f"Column {c!r}", table[c]) for c in columns),
                       (f"Column {sensitive!r}", table[sensitive]), ("The assignment", assignment)]:
        try:
            codes.append(_codes(data))
        except TypeError:  # unhashable cells, e.g. lists of values (mvpi)
            raise SchemaError(
                f"{what} holds unhashable cells (such as lists); {owner} needs one value per "
                f"cell (one sensitive value per individual, svpi).") from None
    x = codes[0]
    for more in codes[1:len(columns)]:
        x = np.unique(x * (int(more.max()) + 1) + more, return_inverse=True)[1].reshape(-1)
    return _kl_from_codes(x.astype(np.int64), codes[-1], codes[-2])


# ----------------------------------------------------------------------------- report
@dataclass(frozen=True)
class UtilityReport:
    """Result of :func:`utility_report`: the utility measures of one release.

    Attributes
    ----------
    n_groups, n_individuals : int
    average_group_size : float
    min_group_size, max_group_size : int
    discernibility : int
        sum_g n_g^2.
    normalized_discernibility : float
        discernibility / N^2.
    kl_divergence : float or None
        In nats, when the original table was given.
    """

    n_groups: int
    n_individuals: int
    average_group_size: float
    min_group_size: int
    max_group_size: int
    discernibility: int
    normalized_discernibility: float
    kl_divergence: float | None = None

    def to_dict(self) -> dict:
        """The measures by name (native Python scalars)."""
        return {"n_groups": self.n_groups, "n_individuals": self.n_individuals,
                "average_group_size": self.average_group_size,
                "min_group_size": self.min_group_size, "max_group_size": self.max_group_size,
                "discernibility": self.discernibility,
                "normalized_discernibility": self.normalized_discernibility,
                "kl_divergence": self.kl_divergence}

    def to_frame(self) -> pd.DataFrame:
        """One row, one column per measure (concatenate several to compare releases)."""
        return pd.DataFrame([self.to_dict()])

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, dict_facts(self.to_dict(), (
            "n_groups", "n_individuals", "average_group_size", "min_group_size",
            "max_group_size", "discernibility", "normalized_discernibility", "kl_divergence")),
            None, head_rows(self.to_frame), 1)


@validate_params({"release": RELEASE})
def utility_report(release: ReleaseCandidate, *, table: pd.DataFrame | None = None,
                   assignment: pd.Series | None = None, qi=None, sensitive=None,
                   missing: str = "error") -> UtilityReport:
    """All utility measures of a release in one result.

    Parameters
    ----------
    release : ReleaseCandidate
    table, assignment, qi, sensitive, missing : optional
        The original table and each row's group, as for :func:`kl_divergence`; give all of
        ``table``, ``assignment``, ``qi`` and ``sensitive`` to include the KL-divergence, or
        none of them.

    Returns
    -------
    UtilityReport

    Raises
    ------
    InvalidParameterError
        If ``release`` is not a ReleaseCandidate or only some of the KL inputs are given.
    SchemaError
        As :func:`kl_divergence`, and if the assignment's group sizes differ from the
        release's (it does not describe this release).

    References
    ----------
    Chen, LeFevre and Ramakrishnan (2009), Sect. 8.4 and Table 3.

    Examples
    --------
    >>> release = ReleaseCandidate.from_groups([(2, ["flu", "hiv"]), (4, ["flu"] * 4)])
    >>> report = utility_report(release)
    >>> report.average_group_size, report.discernibility, report.kl_divergence is None
    (3.0, 20, True)
    >>> report.to_frame()[["n_groups", "min_group_size", "max_group_size"]]
       n_groups  min_group_size  max_group_size
    0         2               2               4
    """
    owner = "utility_report"
    kl_inputs = {"table": table, "assignment": assignment, "qi": qi, "sensitive": sensitive}
    given = [name for name, v in kl_inputs.items() if v is not None]
    kl = None
    if given:
        if len(given) != len(kl_inputs):
            lacking = [name for name in kl_inputs if name not in given]
            raise InvalidParameterError(
                f"{owner} computes the KL-divergence only from all of 'table', 'assignment', "
                f"'qi' and 'sensitive'. Got {given} without {lacking} instead.")
        table, aligned, columns = _check_kl_inputs(table, assignment, qi, sensitive, missing,
                                                   owner)
        from_assignment = np.sort(aligned.value_counts(dropna=False).to_numpy())
        from_release = np.sort(release.sizes_array)
        if not np.array_equal(from_assignment, from_release):
            raise SchemaError(
                f"The assignment does not describe this release: it has "
                f"{len(from_assignment)} group(s) of sizes {from_assignment.tolist()[:10]}"
                f"{'...' if len(from_assignment) > 10 else ''}, the release "
                f"{len(from_release)} of sizes {from_release.tolist()[:10]}"
                f"{'...' if len(from_release) > 10 else ''}.")
        kl = kl_divergence(table, aligned, qi=columns, sensitive=sensitive, missing=missing)
    sizes = release.sizes_array
    return UtilityReport(
        release.n_groups, release.n_individuals, average_group_size(release),
        int(sizes.min()), int(sizes.max()), discernibility(release),
        discernibility(release, normalized=True), kl)


# ----------------------------------------------------------------------------- generalization
#: What a released cell shows when its record is suppressed (or its QI generalized to the
#: whole domain): it stands for every value of the domain.
MASK = "*"

_HIERARCHIES = Nullable(InstanceOf(Mapping, name="a mapping of QI columns to Hierarchy objects"))
_LEVELS = Nullable(InstanceOf(Mapping, name="a mapping of QI columns to hierarchy levels"))
_SUPPRESSED = Nullable(_COUNT)


def _text(values) -> np.ndarray:
    """Every cell as text (an object array), converted once per distinct cell: a released
    label is compared with hierarchy labels and input cells as text (Mondrian publishes
    labels as text, and a kept cell ``39`` is the leaf ``'39'``)."""
    codes, uniques = pd.factorize(pd.Series(np.asarray(values, dtype=object), dtype=object),
                                  use_na_sentinel=False)
    texts = np.array([str(u) for u in uniques] + [""], dtype=object)
    return texts[codes]


@dataclass(frozen=True)
class _ColumnCost:
    """What one QI's released cells cost, summed over the released, unsuppressed records."""

    leaves: int  # the leaves of the domain
    loss_sum: int  # sum of (leaves under the cell - 1)
    level_sum: Fraction  # sum of level / height of the cell
    units_sum: int  # sum of L(original rows under the cell)
    value_units: int  # sum over the domain's values v of c_v L(c_v)
    level: int | None  # the one level of every cell (a full-domain column), else None


@dataclass(frozen=True)
class _Measured:
    qi: list
    n_rows: int
    suppressed: int
    sizes: np.ndarray  # the released groups of the unsuppressed records
    columns: list
    levels: dict | None


def _row_label(index: pd.Index, i: int) -> object:
    return native_label(index[i])


def native_label(value: object) -> object:
    """A row label as a plain Python value (numpy integers unwrapped) for messages."""
    return value.item() if isinstance(value, np.generic) else value


def _hierarchy_cost(name, hierarchy: Hierarchy, original: np.ndarray, pos: np.ndarray,
                    cells: np.ndarray, rows: pd.Index, level: int | None,
                    n_rows: int) -> _ColumnCost:
    """The cost of a QI with a hierarchy: every released cell is a node of it (the node at
    ``level``, or the lowest node of that label above every value released as it), or
    ``'*'``, the whole domain."""
    height = hierarchy.height
    generalized = [_text(hierarchy.generalize(original, up)) for up in range(height + 1)]
    leaves_under = [pd.Series(_text(hierarchy.generalize(list(hierarchy.leaves), up)))
                    .value_counts() for up in range(height + 1)]
    rows_under = [pd.Series(labels).value_counts() for labels in generalized]
    as_input = _text(original)[pos]
    match = np.vstack([labels[pos] == cells for labels in generalized]).astype(bool)
    match[0] |= cells == as_input
    star = cells == MASK
    if level is not None:
        bad = np.flatnonzero(~match[level] & ~star)
        if len(bad):
            i = int(bad[0])
            raise SchemaError(
                f"Column {name!r} at level {level}: the released value {cells[i]!r} of row "
                f"{_row_label(rows, i)!r} is not the level-{level} generalization of "
                f"{as_input[i]!r}, which is {generalized[level][pos[i]]!r}.")
        cell_level = np.where(match[level], level, -1)
        column_level: int | None = level
    else:
        cell_level = np.full(len(cells), -1, dtype=np.int64)
        named = np.flatnonzero(~star)
        if len(named):
            label, codes = np.unique(cells[named], return_inverse=True)
            codes = codes.reshape(-1)
            misses = np.vstack([np.bincount(codes, weights=~match[up][named],
                                            minlength=len(label)) for up in range(height + 1)])
            fits = misses == 0
            if not fits.any(axis=0).all():
                u = int(np.flatnonzero(~fits.any(axis=0))[0])
                i = int(named[np.flatnonzero(codes == u)[0]])
                raise SchemaError(
                    f"Column {name!r}: the released value {cells[i]!r} is no node of its "
                    f"hierarchy above every value released as it (row {_row_label(rows, i)!r} "
                    f"holds {as_input[i]!r}); pass the hierarchy the release was made with.")
            cell_level[named] = fits.argmax(axis=0)[codes]
        everywhere = np.flatnonzero(match.all(axis=1))
        column_level = (int(everywhere[0]) if len(everywhere) else
                        height if star.all() else None)
    leaves = len(hierarchy.leaves)
    extent = np.full(len(cells), leaves, dtype=np.int64)
    mass = np.full(len(cells), n_rows, dtype=np.int64)
    for up in np.unique(cell_level[cell_level >= 0]).tolist():
        at = np.flatnonzero(cell_level == up)
        labels = pd.Series(generalized[up][pos[at]])
        extent[at] = labels.map(leaves_under[up]).to_numpy(dtype=np.int64)
        mass[at] = labels.map(rows_under[up]).to_numpy(dtype=np.int64)
    whole = int((cell_level < 0).sum())
    level_sum = (Fraction(int(cell_level[cell_level >= 0].sum()), height) if height
                 else Fraction(0)) + whole
    counts = rows_under[0].to_numpy(dtype=np.int64)
    return _ColumnCost(leaves, int((extent - 1).sum()), level_sum, _units_sum(mass),
                       exact_dot(counts, log2_units(counts)), column_level)


def _flat_cost(name, original: np.ndarray, pos: np.ndarray, cells: np.ndarray,
               rows: pd.Index, level: int | None, n_rows: int) -> _ColumnCost:
    """The cost of a QI without a hierarchy: a released label stands for the values of the
    column, in sorted order, from the lowest to the highest value released as it (a
    Mondrian range or set, or the value itself); ``'*'`` for the whole domain.  Read as a
    hierarchy, it is the flat one (value -> ``'*'``) the full-domain search gives it."""
    codes, uniques = factorize(pd.Series(original, dtype=object))
    leaves = len(uniques)
    counts = np.bincount(codes, minlength=leaves).astype(np.int64)
    before = np.concatenate([[0], np.cumsum(counts)])
    as_input = _text(original)[pos]
    star = cells == MASK
    kept_input = cells == as_input
    if level is not None:
        bad = np.flatnonzero(~star & (~kept_input if level == 0 else np.ones(len(cells), bool)))
        if len(bad):
            i = int(bad[0])
            wanted = f"its value {as_input[i]!r}" if level == 0 else repr(MASK)
            raise SchemaError(
                f"Column {name!r} at level {level}: the released value {cells[i]!r} of row "
                f"{_row_label(rows, i)!r} is not {wanted}.")
        column_level: int | None = level
    else:
        column_level = 0 if kept_input.all() else 1 if star.all() else None
    extent = np.full(len(cells), leaves, dtype=np.int64)
    mass = np.full(len(cells), n_rows, dtype=np.int64)
    named = np.flatnonzero(~star)
    if len(named):
        label_codes = np.unique(cells[named], return_inverse=True)[1].reshape(-1)
        n_labels = int(label_codes.max()) + 1
        value = codes[pos[named]]
        low = np.full(n_labels, leaves, dtype=np.int64)
        high = np.full(n_labels, -1, dtype=np.int64)
        np.minimum.at(low, label_codes, value)
        np.maximum.at(high, label_codes, value)
        extent[named] = (high - low + 1)[label_codes]
        mass[named] = (before[high + 1] - before[low])[label_codes]
    spread = int((extent[named] - 1).sum())
    level_sum = (Fraction(spread, leaves - 1) if leaves > 1 else Fraction(0)) + int(star.sum())
    return _ColumnCost(leaves, int((extent - 1).sum()), level_sum, _units_sum(mass),
                       exact_dot(counts, log2_units(counts)), column_level)


def _units_sum(mass: np.ndarray) -> int:
    """sum of L(mass) over the cells, L = :func:`log2_units`, exactly."""
    values, times = np.unique(mass, return_counts=True)
    return exact_dot(times, log2_units(values)) if len(values) else 0


def _checked_hierarchies(hierarchies, qi: list, owner: str) -> dict:
    given = dict(hierarchies or {})
    for name, hierarchy in given.items():
        if name not in qi:
            raise param_error("hierarchies", owner, f"name QI columns only ({qi})", name)
        if not isinstance(hierarchy, Hierarchy):
            raise param_error("hierarchies", owner, "map QI columns to Hierarchy objects",
                              type(hierarchy).__name__)
    return given


def _checked_levels(levels, qi: list, hierarchies: dict, owner: str) -> dict | None:
    if levels is None:
        return None
    given = dict(levels)
    if set(given) != set(qi) or len(given) != len(qi):
        raise param_error("levels", owner, f"give one level for every QI ({qi})", given)
    out = {}
    for name in qi:
        top = hierarchies[name].height if name in hierarchies else 1
        level = given[name]
        if isinstance(level, (bool, np.bool_)) or not isinstance(level, (int, np.integer)) \
                or not 0 <= level <= top:
            raise param_error("levels", owner, f"give {name!r} a level in [0, {top}]",
                              native_label(level))
        out[name] = int(level)
    return out


def _measure(table: pd.DataFrame, released: pd.DataFrame, qi, hierarchies, levels,
             suppressed, owner: str) -> _Measured:
    """Check a release against its original table and cost every QI (the one reading of a
    release that every generalization measure shares)."""
    columns = _column_list(qi, owner)
    hierarchies = _checked_hierarchies(hierarchies, columns, owner)
    given_levels = _checked_levels(levels, columns, hierarchies, owner)
    require_columns(table, columns)
    for column in columns:
        if column not in released.columns:
            raise SchemaError(f"Column {column!r} is not in the released table; its columns "
                              f"are {list(released.columns)}.")
    n_rows = len(table)
    if n_rows == 0:
        raise SchemaError("The table is empty: the utility measures need at least one row.")
    if not table.index.is_unique:
        raise SchemaError("The original table repeats row labels; released rows are matched "
                          "to it by label, so its labels must be unique.")
    if not released.index.is_unique:
        repeated = released.index[released.index.duplicated()][0]
        raise SchemaError(f"The released table repeats row label {native_label(repeated)!r}; "
                          f"every released row stands for one row of the original table.")
    position = table.index.get_indexer(released.index)
    unknown = np.flatnonzero(position < 0)
    if len(unknown):
        raise SchemaError(
            f"The released table has {len(unknown)} row label(s) that are not rows of the "
            f"original table (first: {native_label(released.index[unknown[0]])!r}).")
    for column in columns:
        n_missing = int(table[column].isna().sum())
        if n_missing:
            raise SchemaError(f"Column {column!r} has {n_missing} missing value(s); the "
                              f"utility measures need every QI value of the original table.")
    cells = [_text(released[column].to_numpy(dtype=object)) for column in columns]
    dropped = n_rows - len(released)
    all_star = np.logical_and.reduce([c == MASK for c in cells]) if len(released) else \
        np.zeros(0, dtype=bool)
    n_star = int(all_star.sum())
    if suppressed is None:
        suppressed = dropped
    if suppressed < dropped:
        raise param_error("suppressed", owner,
                          f"be at least the {dropped} row(s) missing from the release",
                          suppressed)
    if suppressed > dropped + n_star:
        raise param_error(
            "suppressed", owner,
            f"be at most {dropped + n_star} (the {dropped} row(s) missing from the release "
            f"and the {n_star} released with every QI {MASK!r})", suppressed)
    # the masked rows are released with every QI '*': any of those rows, as they all cost
    # the same in every measure
    kept = np.ones(len(released), dtype=bool)
    kept[np.flatnonzero(all_star)[len(np.flatnonzero(all_star)) - (suppressed - dropped):]] \
        = False
    pos = position[kept]
    rows = released.index[kept]
    costs = []
    for column, column_cells in zip(columns, cells):
        original = table[column].to_numpy(dtype=object)
        level = None if given_levels is None else given_levels[column]
        if column in hierarchies:
            costs.append(_hierarchy_cost(column, hierarchies[column], original, pos,
                                         column_cells[kept], rows, level, n_rows))
        else:
            costs.append(_flat_cost(column, original, pos, column_cells[kept], rows, level,
                                    n_rows))
    if kept.any():
        stacked = np.column_stack([np.unique(c[kept], return_inverse=True)[1].reshape(-1)
                                   for c in cells])
        sizes = np.unique(stacked, axis=0, return_counts=True)[1]
    else:
        sizes = np.zeros(0, dtype=np.int64)
    return _Measured(columns, n_rows, int(suppressed), sizes, costs, given_levels)


def _loss(measured: _Measured) -> GeneralizationLoss:
    per, total = loss_value([c.loss_sum for c in measured.columns],
                            [c.leaves for c in measured.columns], measured.n_rows,
                            measured.suppressed)
    return GeneralizationLoss(total, dict(zip(measured.qi, per)))


def _precision(measured: _Measured) -> Fraction:
    return precision_value([c.level_sum for c in measured.columns], measured.n_rows,
                           measured.suppressed)


def _entropy(measured: _Measured) -> float:
    units_n = int(log2_units([measured.n_rows])[0])
    units = sum(c.units_sum + measured.suppressed * units_n - c.value_units
                for c in measured.columns)
    return float(entropy_value(units))


def _levels(measured: _Measured) -> dict | None:
    if measured.levels is not None:
        return dict(measured.levels)
    found = {name: c.level for name, c in zip(measured.qi, measured.columns)}
    return None if any(level is None for level in found.values()) else found


@dataclass(frozen=True)
class GeneralizationLoss:
    """Result of :func:`generalization_loss`.

    Attributes
    ----------
    total : Fraction
        The mean of the per-attribute losses, in [0, 1].
    per_attribute : dict
        QI -> its loss (a Fraction in [0, 1]).
    """

    total: Fraction
    per_attribute: dict

    def to_dict(self) -> dict:
        """JSON-friendly form (floats)."""
        return {"total": float(self.total),
                "per_attribute": {name: float(v) for name, v in self.per_attribute.items()}}

    def to_frame(self) -> pd.DataFrame:
        """One row per QI: its loss (exact Fractions in an object column)."""
        return pd.DataFrame({"attribute": list(self.per_attribute),
                             "loss": list(self.per_attribute.values())})

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, (("loss", float(self.total)),
                                  *((f"loss of {name}", float(v))
                                    for name, v in list(self.per_attribute.items())[:6])),
                     None, head_rows(self.to_frame), len(self.per_attribute))


_RELEASE_MEASURE = {"table": _TABLE, "released": _TABLE, "hierarchies": _HIERARCHIES,
                    "levels": _LEVELS, "suppressed": _SUPPRESSED}


@validate_params(_RELEASE_MEASURE)
def generalization_loss(table: pd.DataFrame, released: pd.DataFrame, *, qi,
                        hierarchies: Mapping | None = None, levels: Mapping | None = None,
                        suppressed: int | None = None) -> GeneralizationLoss:
    """Generalization information loss (NCP; ARX's "Loss"), per QI and in total.

    Parameters
    ----------
    table : pandas.DataFrame
        The ORIGINAL table. Never modified.
    released : pandas.DataFrame
        The released table: rows matched to ``table``'s by index label (a row missing from
        it is suppressed), every QI cell a generalization of the original cell.
    qi : column name or list of column names
    hierarchies : mapping of QI -> Hierarchy, optional
        The hierarchies the release was made with; a QI without one is read as a column of
        values (its labels stand for value ranges in sorted order, ``'*'`` for all).
    levels : mapping of QI -> int, optional
        A full-domain release's level per QI (``AnonymizeResult.levels``); read off the
        cells when not given.
    suppressed : int, optional
        Rows suppressed: those missing from ``released`` and, beyond them, rows released
        with every QI ``'*'`` (``suppressed='mask'``).  Default: the missing rows.

    Returns
    -------
    GeneralizationLoss
        ``.total`` and ``.per_attribute``, exact Fractions in [0, 1]: 0 when nothing is
        generalized, 1 when every cell is the whole domain or every row suppressed.

    Raises
    ------
    InvalidParameterError
        If a parameter is of the wrong type or names a column that is not a QI, a level is
        out of range, or ``suppressed`` disagrees with the release.
    SchemaError
        If a column is missing, the table is empty, has missing QI values or repeats row
        labels, a released row is not a row of the table, or a released cell is not a
        generalization of its original cell.
    HierarchyError
        If a hierarchy does not cover a value of the table.

    Notes
    -----
    For QI j with a domain of D_j leaves, a released cell that stands for e leaves (the
    leaves under its hierarchy node, the values its range spans, or D_j for ``'*'``) costs
    (e - 1) / (D_j - 1); a suppressed record costs 1.  Loss_j = (sum over records) / N, N
    the rows of the original table; the total is the mean over the QIs.  A label is read as
    the node at the given level, or else as the lowest node of that label above every
    value released as it.  For a full-domain release this is the objective ``"loss"`` of
    :func:`skyprivacy.anonymize` (the same number); a Mondrian release is charged each
    group's extent.

    References
    ----------
    V. S. Iyengar, "Transforming data to satisfy privacy constraints", KDD 2002, Sect. 3
    (the loss metric LM); J. Xu, W. Wang, J. Pei, X. Wang, B. Shi and A. W.-C. Fu,
    "Utility-based anonymization using local recoding", KDD 2006, Sect. 2 (NCP);
    F. Prasser and F. Kohlmayer, ARX (the "Loss" model).

    Examples
    --------
    >>> from skyprivacy.hierarchy import Hierarchy
    >>> zips = Hierarchy([["13053", "1305*", "*"], ["13058", "1305*", "*"],
    ...                   ["14850", "1485*", "*"], ["14853", "1485*", "*"]], name="zip")
    >>> table = pd.DataFrame({"zip": ["13053", "13058", "14850", "14853"]})
    >>> released = pd.DataFrame({"zip": ["1305*", "1305*", "14850", "14853"]})
    >>> generalization_loss(table, released, qi="zip", hierarchies={"zip": zips}).total
    Fraction(1, 6)
    """
    return _loss(_measure(table, released, qi, hierarchies, levels, suppressed,
                          "generalization_loss"))


@validate_params(_RELEASE_MEASURE)
def precision(table: pd.DataFrame, released: pd.DataFrame, *, qi,
              hierarchies: Mapping | None = None, levels: Mapping | None = None,
              suppressed: int | None = None) -> Fraction:
    """Sweeney's precision of a release: 1 - the mean over QIs and records of level / height.

    Parameters
    ----------
    table, released, qi, hierarchies, levels, suppressed
        As for :func:`generalization_loss`.

    Returns
    -------
    Fraction
        In [0, 1]: 1 when nothing is generalized, 0 when everything is at the top of its
        hierarchy (or suppressed).  Larger is better; the full-domain objective
        ``"precision"`` minimises 1 - precision.

    Raises
    ------
    InvalidParameterError, SchemaError, HierarchyError
        As :func:`generalization_loss`.

    Notes
    -----
    Prec = 1 - (sum_j sum_r h_rj / |DGH_j|) / (N |QI|), h_rj the level of record r's QI-j
    cell in QI j's hierarchy of height |DGH_j| (a height-0 hierarchy costs nothing); a
    suppressed record is at the top (h = |DGH_j|).  A QI without a hierarchy is read as the
    flat one (value -> ``'*'``), a range between the two levels by its extent,
    (e - 1) / (D_j - 1).

    References
    ----------
    L. Sweeney, "Achieving k-anonymity privacy protection using generalization and
    suppression", IJUFKS 10(5), 2002, Sect. 4 (Definition "precision metric", Prec).

    Examples
    --------
    >>> from skyprivacy.hierarchy import Hierarchy
    >>> zips = Hierarchy([["13053", "1305*", "*"], ["13058", "1305*", "*"],
    ...                   ["14850", "1485*", "*"], ["14853", "1485*", "*"]], name="zip")
    >>> table = pd.DataFrame({"zip": ["13053", "13058", "14850", "14853"]})
    >>> released = pd.DataFrame({"zip": ["1305*", "1305*", "14850", "14853"]})
    >>> precision(table, released, qi="zip", hierarchies={"zip": zips})
    Fraction(3, 4)
    """
    return _precision(_measure(table, released, qi, hierarchies, levels, suppressed,
                               "precision"))


@validate_params({"table": _TABLE, "released": _TABLE, "hierarchies": _HIERARCHIES,
                  "levels": _LEVELS})
def generalization_height(table: pd.DataFrame, released: pd.DataFrame, *, qi,
                          hierarchies: Mapping | None = None,
                          levels: Mapping | None = None) -> int:
    """The height of a full-domain release: the sum over QIs of the level it is released at.

    Parameters
    ----------
    table, released, qi, hierarchies, levels
        As for :func:`generalization_loss`; with ``levels`` the answer is their sum (after
        checking the release against them).

    Returns
    -------
    int
        Sum of the levels (suppression does not count).

    Raises
    ------
    SchemaError
        If a QI's cells do not sit on one level of its hierarchy (a Mondrian release, or
        masked rows not counted as suppressed), and as :func:`generalization_loss`.
    InvalidParameterError, HierarchyError
        As :func:`generalization_loss`.

    Notes
    -----
    A column's level is the lowest level at which every released, unsuppressed cell is the
    generalization of its original cell (a QI without a hierarchy: 0 if every cell is its
    value, 1 if every cell is ``'*'``).

    References
    ----------
    P. Samarati, "Protecting respondents' identities in microdata release", IEEE TKDE
    13(6), 2001, Sect. 4 (the height of a generalization in the lattice).

    Examples
    --------
    >>> from skyprivacy.hierarchy import Hierarchy
    >>> zips = Hierarchy([["13053", "1305*", "*"], ["14850", "1485*", "*"]], name="zip")
    >>> table = pd.DataFrame({"zip": ["13053", "14850"], "sex": ["F", "M"]})
    >>> released = pd.DataFrame({"zip": ["1305*", "1485*"], "sex": ["*", "*"]})
    >>> generalization_height(table, released, qi=["zip", "sex"], hierarchies={"zip": zips})
    2
    """
    owner = "generalization_height"
    measured = _measure(table, released, qi, hierarchies, levels, None, owner)
    found = _levels(measured)
    if found is None:
        name = next(n for n, c in zip(measured.qi, measured.columns) if c.level is None)
        raise SchemaError(
            f"Column {name!r} is not released at one level of its hierarchy (a multi-"
            f"dimensional release, or rows masked with {MASK!r} not counted as suppressed), "
            f"so the release has no height.")
    return sum(found.values())


@validate_params(_RELEASE_MEASURE)
def non_uniform_entropy(table: pd.DataFrame, released: pd.DataFrame, *, qi,
                        hierarchies: Mapping | None = None, levels: Mapping | None = None,
                        suppressed: int | None = None) -> float:
    """Non-uniform entropy: the bits a release withholds about its records' QI values.

    Parameters
    ----------
    table, released, qi, hierarchies, levels, suppressed
        As for :func:`generalization_loss`.

    Returns
    -------
    float
        In bits; 0 when nothing is generalized. Smaller is better.

    Raises
    ------
    InvalidParameterError, SchemaError, HierarchyError
        As :func:`generalization_loss`.

    Notes
    -----
    sum over records r and QIs j of -log2 P(X_j = x_rj | X_j in E_rj), with P the
    distribution of QI j in the original table and E_rj the values record r's released cell
    stands for (all of them for a suppressed record): -log2(c(x_rj) / c(E_rj)), c counting
    the original table's rows.  Every log2 is rounded to a multiple of 2^-32 and the sum is
    an exact integer (:func:`log2_units`, :func:`entropy_value`), so the full-domain search
    compares entropies exactly; the float returned is that sum, within N |QI| 2^-33 of the
    real-valued one.

    References
    ----------
    A. Gionis and T. Tassa, "k-Anonymization with minimal loss of information", IEEE TKDE
    21(2), 2009, Sect. 3 (the non-uniform entropy measure); F. Prasser and F. Kohlmayer, ARX
    ("Non-uniform entropy").

    Examples
    --------
    >>> from skyprivacy.hierarchy import Hierarchy
    >>> zips = Hierarchy([["13053", "1305*", "*"], ["13058", "1305*", "*"],
    ...                   ["14850", "1485*", "*"], ["14853", "1485*", "*"]], name="zip")
    >>> table = pd.DataFrame({"zip": ["13053", "13058", "14850", "14853"]})
    >>> released = pd.DataFrame({"zip": ["1305*", "1305*", "14850", "14853"]})
    >>> non_uniform_entropy(table, released, qi="zip", hierarchies={"zip": zips})
    2.0
    """
    return _entropy(_measure(table, released, qi, hierarchies, levels, suppressed,
                             "non_uniform_entropy"))


@dataclass(frozen=True)
class UtilityMeasures:
    """Result of :func:`utility_measures`: every generalization measure of one release.

    Attributes
    ----------
    loss : Fraction
        Generalization loss (NCP), :func:`generalization_loss`.
    loss_per_attribute : dict
        QI -> its loss.
    precision : Fraction
        Sweeney's precision, :func:`precision` (larger is better).
    height : int or None
        :func:`generalization_height`; None when the release is not at one level per QI
        (Mondrian).
    discernibility : int
        :func:`discernibility`, suppressed rows charged N each.
    aecs : Fraction
        :func:`average_equivalence_class_size`.
    entropy : float
        :func:`non_uniform_entropy`, in bits.
    suppressed : int
    n_rows : int
        Rows of the original table.
    n_groups : int
        QI-groups of the released, unsuppressed rows.
    levels : dict or None
        The level of each QI (given, or read off a full-domain release).
    """

    loss: Fraction
    loss_per_attribute: dict
    precision: Fraction
    height: int | None
    discernibility: int
    aecs: Fraction
    entropy: float
    suppressed: int
    n_rows: int
    n_groups: int
    levels: dict | None = None

    def to_dict(self) -> dict:
        """JSON-friendly form (floats for the fractions)."""
        return {"loss": float(self.loss),
                "loss_per_attribute": {k: float(v) for k, v in self.loss_per_attribute.items()},
                "precision": float(self.precision), "height": self.height,
                "discernibility": self.discernibility, "aecs": float(self.aecs),
                "entropy": self.entropy, "suppressed": self.suppressed,
                "n_rows": self.n_rows, "n_groups": self.n_groups,
                "levels": None if self.levels is None else dict(self.levels)}

    def to_frame(self) -> pd.DataFrame:
        """One row: every measure, ``loss[QI]`` per attribute (concatenate several to
        compare releases)."""
        row = self.to_dict()
        per = row.pop("loss_per_attribute")
        row.pop("levels")
        row.update({f"loss[{name}]": value for name, value in per.items()})
        return pd.DataFrame([row])

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, dict_facts(self.to_dict(), (
            "loss", "precision", "height", "discernibility", "aecs", "entropy", "suppressed",
            "n_rows", "n_groups")), None, head_rows(self.to_frame), len(self.to_frame()))


@validate_params({"table": _TABLE, "hierarchies": _HIERARCHIES, "levels": _LEVELS,
                  "suppressed": _SUPPRESSED})
def utility_measures(released, *, table: pd.DataFrame, qi,
                     hierarchies: Mapping | None = None,
                     levels: Mapping | None = None,
                     suppressed: int | None = None) -> UtilityMeasures:
    """Every generalization measure of a release against its original table, in one result.

    Parameters
    ----------
    released : AnonymizeResult, AnonymizationResult, KAnonymizationResult or DataFrame
        What :func:`skyprivacy.anonymize` (full-domain or Mondrian),
        :func:`skyprivacy.skyline_anonymize` or :func:`skyprivacy.k_anonymize` returned, or
        a released table.  A result's ``levels`` and ``suppressed`` are used unless given.
    table : pandas.DataFrame
        The original table. Never modified.
    qi : column name or list of column names
    hierarchies, levels, suppressed : optional
        As for :func:`generalization_loss` (pass the hierarchies the release was made with).

    Returns
    -------
    UtilityMeasures

    Raises
    ------
    InvalidParameterError
        If ``released`` is neither a DataFrame nor a result with a ``.table``, and as
        :func:`generalization_loss`.
    SchemaError, HierarchyError
        As :func:`generalization_loss`.

    Notes
    -----
    The measures read the released table, never the search that made it, so a Mondrian
    release and a full-domain one are measured alike; for a full-domain result each equals
    the objective of that name at the chosen node (``"precision"``: 1 - precision).

    References
    ----------
    As each measure's function.

    Examples
    --------
    >>> from skyprivacy.hierarchy import Hierarchy
    >>> zips = Hierarchy([["13053", "1305*", "*"], ["13058", "1305*", "*"],
    ...                   ["14850", "1485*", "*"], ["14853", "1485*", "*"]], name="zip")
    >>> table = pd.DataFrame({"zip": ["13053", "13058", "14850", "14853"]})
    >>> released = pd.DataFrame({"zip": ["1305*", "1305*", "14850", "14853"]})
    >>> m = utility_measures(released, table=table, qi="zip", hierarchies={"zip": zips})
    >>> m.loss, m.precision, m.height, m.discernibility, m.aecs, m.entropy
    (Fraction(1, 6), Fraction(3, 4), None, 6, Fraction(4, 3), 2.0)
    """
    owner = "utility_measures"
    frame = released if isinstance(released, pd.DataFrame) else getattr(released, "table", None)
    if not isinstance(frame, pd.DataFrame):
        raise param_error("released", owner,
                          "be a released DataFrame or an anonymization result with a .table",
                          type(released).__name__)
    if levels is None:
        levels = getattr(released, "levels", None)
    if suppressed is None:
        suppressed = getattr(released, "suppressed", None)
    measured = _measure(table, frame, qi, hierarchies, levels, suppressed, owner)
    loss = _loss(measured)
    found = _levels(measured)
    n_groups = len(measured.sizes)
    return UtilityMeasures(
        loss.total, loss.per_attribute, _precision(measured),
        None if found is None else sum(found.values()),
        discernibility_value(measured.sizes, measured.n_rows, measured.suppressed),
        aecs_value(measured.n_rows, n_groups, measured.suppressed), _entropy(measured),
        measured.suppressed, measured.n_rows, n_groups, found)


# ----------------------------------------------------------------------------- accuracy
@dataclass(frozen=True)
class ClassificationAccuracy:
    """Result of :func:`classification_accuracy`.

    Attributes
    ----------
    accuracy : float
        Mean accuracy over the folds (or on the ``test`` table).
    fold_accuracies : tuple of float
        One per fold (one entry with a ``test`` table).
    target : hashable
        The class label.
    features : tuple
        The columns the tree was trained on.
    original : float or None
        The same measurement on the original table (Sect. 8.4's upper reference).
    without_sensitive : float or None
        The same on the original table with the sensitive column removed (the lower one).
    """

    accuracy: float
    fold_accuracies: tuple
    target: Hashable
    features: tuple
    original: float | None = None
    without_sensitive: float | None = None

    def to_dict(self) -> dict:
        """JSON-friendly form."""
        return {"accuracy": self.accuracy, "fold_accuracies": list(self.fold_accuracies),
                "target": self.target, "features": list(self.features),
                "original": self.original, "without_sensitive": self.without_sensitive}

    def to_frame(self) -> pd.DataFrame:
        """One row per table measured: release, original, original without the sensitive
        column (the references only when they were computed)."""
        rows = [("release", self.accuracy), ("original", self.original),
                ("without_sensitive", self.without_sensitive)]
        return pd.DataFrame([(name, value) for name, value in rows if value is not None],
                            columns=["table", "accuracy"])

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, tuple((k, v) for k, v in (
            ("accuracy", self.accuracy), ("original", self.original),
            ("without_sensitive", self.without_sensitive), ("target", str(self.target)),
            ("features", len(self.features)), ("folds", len(self.fold_accuracies)))
            if v is not None), None, head_rows(self.to_frame), len(self.to_frame()))


def _sklearn():
    try:
        from sklearn.model_selection import StratifiedKFold
        from sklearn.tree import DecisionTreeClassifier
    except ImportError:
        raise ImportError("classification_accuracy needs scikit-learn: "
                          "pip install 'skyprivacy[ml]'") from None
    return StratifiedKFold, DecisionTreeClassifier


def _design(frames: list, features: list) -> list:
    """One design matrix per frame, encoded together: numeric columns as numbers, every other
    column (generalized labels, categories, text) one-hot, so a label like "[30, 39]" is a
    category of its own and the frames share their columns."""
    joined = pd.concat([f[features] for f in frames], keys=range(len(frames)))
    numeric = [c for c in features if pd.api.types.is_numeric_dtype(joined[c])
               and not pd.api.types.is_bool_dtype(joined[c])]
    other = [c for c in features if c not in numeric]
    parts = [joined[numeric].astype(float)] if numeric else []
    if other:
        parts.append(pd.get_dummies(joined[other].astype(str), prefix_sep="=", dtype=np.uint8))
    matrix = pd.concat(parts, axis=1) if parts else pd.DataFrame(index=joined.index)
    return [matrix.xs(i).to_numpy() for i in range(len(frames))]


def _tree_accuracy(table: pd.DataFrame, target, features: list, cv: int, random_state,
                   test: pd.DataFrame | None) -> tuple:
    StratifiedKFold, DecisionTreeClassifier = _sklearn()
    if test is not None:
        x_train, x_test = _design([table, test], features)
        tree = DecisionTreeClassifier(random_state=random_state)
        tree.fit(x_train, table[target].astype(str).to_numpy())
        return (float((tree.predict(x_test) == test[target].astype(str).to_numpy()).mean()),)
    (x,) = _design([table], features)
    y = table[target].astype(str).to_numpy()
    folds = StratifiedKFold(n_splits=cv, shuffle=True, random_state=random_state)
    with warnings.catch_warnings():  # a class rarer than the folds (Nursery's 'recommend')
        warnings.filterwarnings("ignore", message="The least populated class")
        splits = list(folds.split(x, y))
    scores = []
    for train, held in splits:
        tree = DecisionTreeClassifier(random_state=random_state)
        tree.fit(x[train], y[train])
        scores.append(float((tree.predict(x[held]) == y[held]).mean()))
    return tuple(scores)


@validate_params({"table": _TABLE})
def classification_accuracy(table: pd.DataFrame, *, target: Hashable, features=None,
                            cv: int = 10, random_state=None, test: pd.DataFrame | None = None,
                            original: pd.DataFrame | None = None,
                            sensitive: Hashable | None = None,
                            group_column: Hashable = "group") -> ClassificationAccuracy:
    """Accuracy of a decision tree trained on a released table (Sect. 8.4's third measure).

    The tree (scikit-learn's CART, standing in for the paper's J48) learns ``target`` from
    ``features`` of the release: numeric columns as numbers, every other column one-hot, so
    generalized labels ("[30, 39]", "{a, b}", "*") are categories of their own; a bucketized
    release is used as published (QI values kept, the sensitive values reassigned within each
    group).  Accuracy is cross-validated over ``cv`` stratified folds of the release, or, with
    ``test``, measured on that table (the paper's protocol: anonymize the 90% training part
    of each fold, test on the held-out original rows).

    Parameters
    ----------
    table : pandas.DataFrame
        The released table (e.g. ``skyline_anonymize(...).table``). Never modified.
    target : hashable
        The class label column (must not be the sensitive attribute, Sect. 8.4).
    features : list, optional
        Columns to learn from; default every column but ``target`` and ``group_column``.
    cv : int, default 10
        Number of folds (at least 2), ignored with ``test``.
    random_state : int, optional
        Seeds the folds and the tree.
    test : pandas.DataFrame, optional
        Original rows to test on instead of cross-validating.
    original : pandas.DataFrame, optional
        The original table: the same measurement on it gives the upper reference, and with
        ``sensitive`` also the lower one, on the original without that column.
    sensitive : hashable, optional
        The sensitive column (needed for the lower reference).
    group_column : hashable, default "group"
        The group-label column a bucketized release carries; left out of the default features.

    Returns
    -------
    ClassificationAccuracy

    Raises
    ------
    ImportError
        scikit-learn is not installed (``pip install 'skyprivacy[ml]'``).
    SchemaError
        A named column is missing.
    InvalidParameterError
        ``cv`` below 2 or above the number of rows, ``target`` among the features or equal to
        ``sensitive``, or an empty table.

    References
    ----------
    Chen, LeFevre and Ramakrishnan (2009), Sect. 8.4 (classification accuracy, Fig. 9);
    LeFevre, DeWitt and Ramakrishnan (2006), "Workload-aware anonymization".

    Examples
    --------
    >>> from skyprivacy.datasets import load_nursery
    >>> nursery = load_nursery()
    >>> result = classification_accuracy(nursery, target="class", cv=3, random_state=0)
    >>> round(result.accuracy, 2)
    0.99
    """
    owner = "classification_accuracy"
    if not len(table):
        raise InvalidParameterError(f"The 'table' parameter of {owner} must have rows. "
                                    f"Got an empty table instead.")
    if isinstance(cv, bool) or not isinstance(cv, (int, np.integer)) or not \
            2 <= cv <= len(table):
        raise param_error("cv", owner, f"be an integer in [2, {len(table)}]", cv)
    require_columns(table, [target])
    if features is None:
        features = [c for c in table.columns if c not in (target, group_column)]
    features = _column_list(features, owner)
    require_columns(table, features)
    if target in features:
        raise InvalidParameterError(
            f"The 'features' parameter of {owner} must not contain the target {target!r}.")
    if sensitive is not None and sensitive == target:
        raise InvalidParameterError(
            f"The 'target' parameter of {owner} must differ from the sensitive column "
            f"{sensitive!r} (Sect. 8.4: the label is not what the release protects).")
    for name, frame in (("test", test), ("original", original)):
        if frame is not None:
            if not isinstance(frame, pd.DataFrame):
                raise param_error(name, owner, "be a pandas DataFrame", type(frame).__name__)
            require_columns(frame, [target, *features])
    scores = _tree_accuracy(table, target, features, cv, random_state, test)
    upper = lower = None
    if original is not None:
        upper = float(np.mean(_tree_accuracy(original, target, features, cv, random_state,
                                             test)))
        if sensitive is not None:
            kept = [c for c in features if c != sensitive]
            lower = float(np.mean(_tree_accuracy(original, target, kept, cv, random_state,
                                                 test)))
    return ClassificationAccuracy(float(np.mean(scores)), scores, target, tuple(features),
                                  upper, lower)
