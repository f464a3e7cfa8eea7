"""Utility measures of a release: average QI-group size, discernibility, KL-divergence and
the classification accuracy of a decision tree trained on the released table.

A privacy criterion says whether a release is safe; a utility measure says how much it still
tells.  Chen, LeFevre and Ramakrishnan (2009, Sect. 8.4) report the average QI-group size and
the KL-divergence between the empirical distributions of the original table and of the
bucketized release; the discernibility metric (Bayardo and Agrawal 2005) charges every
individual the size of the group it hides in.  The first two read a
:class:`~skyprivacy.release.ReleaseCandidate`; the KL-divergence needs the original table and
each row's group, because it compares quasi-identifier values that the release model does not
keep.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Literal, overload

import numpy as np
import pandas as pd

from ._core.display import Shown, dict_facts, head_rows, result_html, result_repr
from ._core.encoding import require_columns
from ._core.validation import Boolean, InstanceOf, Options, validate_params
from .errors import InvalidParameterError, SchemaError, param_error
from .formulas import RELEASE
from .release import MISSING_OPTIONS, ReleaseCandidate, check_qi_and_sensitive

__all__ = [
    "average_group_size",
    "discernibility",
    "kl_divergence",
    "utility_report",
    "UtilityReport",
    "classification_accuracy",
    "ClassificationAccuracy",
]

# Largest groups x values table kl_divergence builds densely (160 MB of int64).
_DENSE_CELLS = 20_000_000


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
def discernibility(release: ReleaseCandidate, *, normalized: Literal[False] = ...) -> int: ...
@overload
def discernibility(release: ReleaseCandidate, *, normalized: bool) -> int | float: ...


@validate_params({"release": RELEASE, "normalized": Boolean()})
def discernibility(release: ReleaseCandidate, *, normalized: bool = False) -> int | float:
    """The discernibility metric: every individual is charged the size of its group.

    Parameters
    ----------
    release : ReleaseCandidate
    normalized : bool, default False
        Divide by N^2, giving a number in [1/N, 1]: 1/N for singleton groups, 1 for a single
        group holding everyone.

    Returns
    -------
    int or float
        sum_g n_g^2 (an exact int), or that sum / N^2 (a float) when ``normalized``.

    Raises
    ------
    InvalidParameterError
        If ``release`` is not a ReleaseCandidate or ``normalized`` is not a bool.

    Notes
    -----
    Merging groups never decreases it: (a + b)^2 >= a^2 + b^2.  There is no suppression in a
    release candidate, so Bayardo and Agrawal's penalty for suppressed rows does not arise.

    References
    ----------
    R. J. Bayardo and R. Agrawal, "Data privacy through optimal k-anonymization", ICDE 2005
    (the discernibility metric C_DM).

    Examples
    --------
    >>> release = ReleaseCandidate.from_groups([(2, ["flu", "hiv"]), (4, ["flu"] * 4)])
    >>> discernibility(release)
    20
    >>> round(discernibility(release, normalized=True), 4)
    0.5556
    """
    total = sum(int(n) * int(n) for n in release.sizes_array)
    if normalized:
        return total / release.n_individuals ** 2
    return total


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
