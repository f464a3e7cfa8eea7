"""Two-layer fair classification through Relation Impact (spec group-tagging §3.7; paper §2.6,
§3.2, Def. 3.3, Def. 3.4, eq. (10)-(16), Remark 1, A.2).

Layer 1 splits rows by their tag (its "misclassification" is exactly zero: the tag is stored).
Layer 2 decides within each class from the related attributes.  The paper's "Equalized
Minimal FPR-FNR" (Def. 3.4) asks for equal *argmins*, which constant classifiers satisfy
trivially; the concrete reading is its stated goal, minimum expected error subject to equal
FPR and FNR across classes (equalized odds), solved as the Hardt-Price-Srebro linear program
over the base classifier's hard labels.  The derived predictor reads only the columns it is
given (the tied block T and the tag), which FIS never moves, so its output on a FIS table
equals its output on the original (Remark 1 / A.2).
"""

from __future__ import annotations

import copy
import math
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...errors import (DegenerateGroupError, InfeasibleError, InvalidParameterError,
                       NotFittedError, SchemaError, UndefinedMetricWarning, param_error)
from ...fairness_queries._validation import (check_binary_vector, check_choice,
                                             check_random_state, check_real)
from ._common import native, sorted_labels

__all__ = ["GroupErrorRates", "group_error_rates", "RelationImpactClassifier"]


@dataclass(frozen=True)
class GroupErrorRates:
    """Per-group error rates of a classifier (expected rates for probabilistic predictions).

    Attributes
    ----------
    groups : tuple
        Group labels, sorted.
    tpr, fpr, fnr, error : tuple of float
        Per group: true-positive, false-positive, false-negative rate and error rate; NaN
        where undefined (no positives for TPR/FNR, no negatives for FPR).
    positives, negatives : tuple of int
        Per group: rows with y = 1 and y = 0.
    overall_error : float
        Error rate over all rows.
    """

    groups: tuple
    tpr: tuple
    fpr: tuple
    fnr: tuple
    error: tuple
    positives: tuple
    negatives: tuple
    overall_error: float

    @property
    def fpr_gap(self) -> float:
        """Largest FPR difference between groups (NaN if any FPR is undefined)."""
        return _gap(self.fpr)

    @property
    def fnr_gap(self) -> float:
        """Largest FNR difference between groups (NaN if any FNR is undefined)."""
        return _gap(self.fnr)

    def to_frame(self) -> pd.DataFrame:
        """One row per group."""
        return pd.DataFrame({"tpr": self.tpr, "fpr": self.fpr, "fnr": self.fnr,
                             "error": self.error, "positives": self.positives,
                             "negatives": self.negatives},
                            index=pd.Index(self.groups, name="group"))

    def to_dict(self) -> dict:
        """Plain-Python form (NaN stays NaN)."""
        out = self.to_frame().reset_index().to_dict("list")
        out["overall_error"] = self.overall_error
        return out


def _gap(values: tuple) -> float:
    if any(math.isnan(v) for v in values):
        return math.nan
    return max(values) - min(values)


def _check_groups(groups, n: int, *, owner: str, name: str = "groups") -> np.ndarray:
    array = np.asarray(groups, dtype=object) if not isinstance(groups, np.ndarray) \
        else groups.astype(object)
    if array.ndim != 1:
        raise param_error(name, owner, "be one-dimensional", f"an array of shape {array.shape}")
    if array.size != n:
        raise param_error(name, owner, f"have length {n} (one group per row)",
                          f"length {array.size}")
    if pd.isna(pd.Series(array)).any():
        raise SchemaError(f"The '{name}' of {owner} has missing values; every row needs a "
                          "group.")
    return np.asarray([native(v) for v in array.tolist()], dtype=object)


def _check_scores(values, n: int, *, owner: str, name: str) -> np.ndarray:
    try:
        array = np.array(values, dtype=float)
    except (TypeError, ValueError):
        raise param_error(name, owner, "be predictions in [0, 1]", values) from None
    if array.ndim != 1 or array.size != n:
        raise param_error(name, owner, f"be one-dimensional of length {n}",
                          f"shape {array.shape}")
    bad = ~((array >= 0.0) & (array <= 1.0))
    if bad.any():
        position = int(np.flatnonzero(bad)[0])
        raise param_error(name, owner, "be in [0, 1] without NaN",
                          f"{array[position]} at position {position}")
    return array


def group_error_rates(y, y_pred, groups, /) -> GroupErrorRates:
    """False-positive and false-negative rates per group (spec §3.7; paper eq. (13)-(16)).

    Parameters
    ----------
    y : array-like of 0/1
        True labels.
    y_pred : array-like in [0, 1]
        Predictions: hard 0/1 labels, or probabilities P(prediction = 1), which give the
        expected rates of a randomized classifier.
    groups : array-like
        The group (tag) of each row.

    Returns
    -------
    GroupErrorRates

    Warns
    -----
    UndefinedMetricWarning
        For a group without negatives (its FPR is NaN) or without positives (its TPR and FNR
        are NaN).

    Notes
    -----
    ``FPR_g = sum_{y=0} p / N_g``, ``FNR_g = 1 - sum_{y=1} p / P_g``,
    ``error_g = (sum_{y=0} p + sum_{y=1} (1 - p)) / n_g``.

    References
    ----------
    Sengupta and Mishra, Def. 3.4 eq. (13)-(16); spec group-tagging §3.7.

    Examples
    --------
    >>> rates = group_error_rates([1, 0, 1, 0], [1, 1, 1, 0], ["F", "F", "M", "M"])
    >>> rates.fpr, rates.fnr
    ((1.0, 0.0), (0.0, 0.0))
    """
    owner = "group_error_rates"
    labels = check_binary_vector(y, name="y", owner=owner, length=None)
    n = labels.size
    scores = _check_scores(y_pred, n, owner=owner, name="y_pred")
    tags = _check_groups(groups, n, owner=owner)
    names = sorted_labels(tags)
    tpr, fpr, fnr, err, pos, neg = [], [], [], [], [], []
    for group in names:
        mask = tags == group
        yg, pg = labels[mask], scores[mask]
        p_count, n_count = int(yg.sum()), int(yg.size - yg.sum())
        hits = float(pg[yg == 1].sum())
        false_alarms = float(pg[yg == 0].sum())
        if p_count == 0:
            warnings.warn(f"Group {group!r} has no positives (y = 1): its TPR and FNR are "
                          "undefined (NaN).", UndefinedMetricWarning, stacklevel=2)
        if n_count == 0:
            warnings.warn(f"Group {group!r} has no negatives (y = 0): its FPR is undefined "
                          "(NaN).", UndefinedMetricWarning, stacklevel=2)
        tpr.append(hits / p_count if p_count else math.nan)
        fnr.append(1.0 - hits / p_count if p_count else math.nan)
        fpr.append(false_alarms / n_count if n_count else math.nan)
        err.append((false_alarms + p_count - hits) / yg.size)
        pos.append(p_count)
        neg.append(n_count)
    overall = float((scores[labels == 0].sum() + (1.0 - scores[labels == 1]).sum()) / n)
    return GroupErrorRates(tuple(names), tuple(tpr), tuple(fpr), tuple(fnr), tuple(err),
                           tuple(pos), tuple(neg), overall)


def _linprog(owner: str):
    try:
        from scipy.optimize import linprog
    except ImportError:
        raise ImportError(f"{owner} needs scipy for its linear program: pip install "
                          "'skyprivacy[lp]'") from None
    return linprog


def _default_estimator(owner: str):
    try:
        from sklearn.linear_model import LogisticRegression
    except ImportError:
        raise ImportError(f"{owner}'s default base estimator needs scikit-learn: pip install "
                          "'skyprivacy[ml]' (or pass base_estimator=)") from None
    return LogisticRegression(max_iter=1000)


def _hard_labels(predicted, n: int, *, owner: str) -> np.ndarray:
    array = np.asarray(predicted)
    if array.shape != (n,) or not np.isin(array, (0, 1)).all():
        raise InvalidParameterError(
            f"The base estimator of {owner} must predict 0/1 labels, one per row. Got "
            f"{sorted_labels(np.ravel(array))[:10]} (shape {array.shape}) instead.")
    return array.astype(np.int8)


class RelationImpactClassifier:
    """Group-aware classifier with equalized error rates (spec §3.7; paper Def. 3.3, 3.4).

    Parameters
    ----------
    base_estimator : estimator, optional, keyword-only
        Anything with ``fit(X, y)`` and ``predict(X) -> 0/1``, fitted on the related
        attributes T (a copy is fitted; the object passed is never touched).  Default:
        scikit-learn's ``LogisticRegression(max_iter=1000)`` (needs ``skyprivacy[ml]``).
    per_group : bool, default False, keyword-only
        Fit one base estimator per group (the paper's set of classifiers ``{h_c1..h_ci}``)
        instead of one pooled estimator.
    constraint : {"equalized_odds", "equal_opportunity"}, keyword-only
        Equal TPR and FPR across groups (the reading of Def. 3.4), or equal TPR only.
    tolerance : float, default 0.0, keyword-only
        Allowed difference of the constrained rates between any two groups, in [0, 1].
    random_state : None, int or numpy.random.Generator, keyword-only
        Randomness of :meth:`predict` (an int gives the same predictions on every call).

    Attributes
    ----------
    groups_ : tuple
        Groups seen in fit.
    mixing_ : pandas.DataFrame
        ``p_{g, yhat} = P(final prediction = 1 | base prediction = yhat, group = g)``, one row
        per group, columns ``p0`` and ``p1``.
    base_rates_ : GroupErrorRates
        The base estimator's rates on the training rows.
    group_rates_ : GroupErrorRates
        The derived predictor's expected rates on the training rows.

    Notes
    -----
    The Hardt-Price-Srebro linear program: minimise the expected number of errors
    ``sum_g [(1 - p_g1) TP_g + (1 - p_g0) FN_g + p_g1 FP_g + p_g0 TN_g]`` over
    ``p in [0, 1]^(2 n_p)`` subject to ``TPR_g = TPR_h`` and ``FPR_g = FPR_h`` for all groups
    (``|.| <= tolerance``), where ``TPR_g = (p_g1 TP_g + p_g0 FN_g) / P_g`` and
    ``FPR_g = (p_g1 FP_g + p_g0 TN_g) / N_g``.  It is always feasible (a constant predictor
    satisfies it).  Needs scipy (``skyprivacy[lp]``).

    References
    ----------
    Sengupta and Mishra, §2.6, Def. 3.3 eq. (10), Def. 3.4 eq. (11)-(16); Hardt, Price and
    Srebro, "Equality of Opportunity in Supervised Learning", NeurIPS 2016, §4; spec
    group-tagging §3.7.

    Examples
    --------
    >>> import numpy as np
    >>> class Rule:                                   # predicts 1 when x >= 1
    ...     def fit(self, X, y):
    ...         return self
    ...     def predict(self, X):
    ...         return (np.asarray(X)[:, 0] >= 1).astype(int)
    >>> X = np.array([[1], [1], [0], [0], [1], [1], [0], [1]])
    >>> y = [1, 1, 0, 0, 1, 1, 0, 0]
    >>> groups = ["F"] * 4 + ["M"] * 4
    >>> clf = RelationImpactClassifier(base_estimator=Rule(), random_state=0).fit(X, y, groups)
    >>> clf.group_rates_.fpr_gap
    0.0
    """

    def __init__(self, *, base_estimator=None, per_group=False, constraint="equalized_odds",
                 tolerance=0.0, random_state=None):
        owner = "RelationImpactClassifier"
        if base_estimator is not None and not (hasattr(base_estimator, "fit")
                                               and hasattr(base_estimator, "predict")):
            raise param_error("base_estimator", owner, "be None or an estimator with fit and "
                              "predict", base_estimator)
        if not isinstance(per_group, (bool, np.bool_)):
            raise param_error("per_group", owner, "be True or False", per_group)
        check_choice(constraint, ("equalized_odds", "equal_opportunity"), name="constraint",
                     owner=owner)
        check_real(tolerance, name="tolerance", owner=owner, requirement="be in [0, 1]",
                   low=0.0, low_open=False, high=1.0, high_open=False)
        check_random_state(random_state, owner=owner)
        self.base_estimator = base_estimator
        self.per_group = bool(per_group)
        self.constraint = constraint
        self.tolerance = float(tolerance)
        self.random_state = random_state

    def __repr__(self) -> str:
        return (f"RelationImpactClassifier(base_estimator={self.base_estimator!r}, "
                f"per_group={self.per_group}, constraint={self.constraint!r}, "
                f"tolerance={self.tolerance})")

    # -- fitting --------------------------------------------------------------------------

    def fit(self, X, y, groups, /) -> "RelationImpactClassifier":
        """Fit the base estimator(s) and solve the post-processing LP.

        Parameters
        ----------
        X : pandas.DataFrame or array-like, shape (n, d)
            The related attributes T (anchored columns only, so FIS cannot change them).
        y : array-like of 0/1
        groups : array-like
            The tag of each row.

        Returns
        -------
        self

        Raises
        ------
        DegenerateGroupError
            y has a single class, or a group lacks positives or negatives (its FPR or FNR
            would be undefined).
        ImportError
            scipy (or, for the default estimator, scikit-learn) is missing.
        """
        owner = "RelationImpactClassifier.fit"
        labels = check_binary_vector(y, name="y", owner=owner)
        n = labels.size
        if len(X) != n:
            raise param_error("X", owner, f"have one row per label ({n})", f"{len(X)} rows")
        tags = _check_groups(groups, n, owner=owner)
        if labels.min() == labels.max():
            raise DegenerateGroupError(
                f"{owner} needs both classes in y (there is no FPR or FNR otherwise); y holds "
                f"only {int(labels[0])}.")
        names = sorted_labels(tags)
        for group in names:
            yg = labels[tags == group]
            if yg.min() == yg.max():
                missing = "negatives (y = 0)" if yg.min() == 1 else "positives (y = 1)"
                raise DegenerateGroupError(
                    f"Group {group!r} has no {missing}, so its "
                    f"{'FPR' if yg.min() == 1 else 'FNR'} is undefined and error rates cannot "
                    "be equalized.")
        linprog = _linprog("RelationImpactClassifier")
        template = (copy.deepcopy(self.base_estimator) if self.base_estimator is not None
                    else _default_estimator("RelationImpactClassifier"))
        if self.per_group:
            self.estimators_ = {}
            for group in names:
                mask = tags == group
                self.estimators_[group] = copy.deepcopy(template).fit(_rows(X, mask),
                                                                      labels[mask])
        else:
            self.estimators_ = {None: template.fit(X, labels)}
        self.groups_ = tuple(names)
        base = self._base_predict(X, tags, owner=owner)
        self.mixing_ = self._solve(linprog, labels, base, tags)
        self.base_rates_ = group_error_rates(labels, base, tags)
        self.group_rates_ = group_error_rates(labels, self._probability(base, tags), tags)
        return self

    def _solve(self, linprog, labels, base, tags) -> pd.DataFrame:
        k = len(self.groups_)
        cost = np.zeros(2 * k)
        tpr_rows, fpr_rows = [], []
        for i, group in enumerate(self.groups_):
            mask = tags == group
            yg, hg = labels[mask], base[mask]
            tp, fn = np.sum((yg == 1) & (hg == 1)), np.sum((yg == 1) & (hg == 0))
            fp, tn = np.sum((yg == 0) & (hg == 1)), np.sum((yg == 0) & (hg == 0))
            cost[2 * i] = tn - fn          # p_g0: a TN becomes an error, an FN is fixed
            cost[2 * i + 1] = fp - tp      # p_g1: an FP stays an error, a TP stays right
            tpr, fpr = np.zeros(2 * k), np.zeros(2 * k)
            tpr[2 * i], tpr[2 * i + 1] = fn / (tp + fn), tp / (tp + fn)
            fpr[2 * i], fpr[2 * i + 1] = tn / (fp + tn), fp / (fp + tn)
            tpr_rows.append(tpr)
            fpr_rows.append(fpr)
        rates = tpr_rows + (fpr_rows if self.constraint == "equalized_odds" else [])
        per_kind = len(self.groups_)
        differences = []
        for start in range(0, len(rates), per_kind):
            block = rates[start:start + per_kind]
            if self.tolerance == 0.0:
                differences += [block[i] - block[0] for i in range(1, per_kind)]
            else:
                differences += [block[i] - block[j] for i in range(per_kind)
                                for j in range(per_kind) if i != j]
        kwargs = {}
        if differences:
            matrix = np.array(differences)
            if self.tolerance == 0.0:
                kwargs = {"A_eq": matrix, "b_eq": np.zeros(len(matrix))}
            else:
                kwargs = {"A_ub": matrix, "b_ub": np.full(len(matrix), self.tolerance)}
        result = linprog(cost / labels.size, bounds=[(0.0, 1.0)] * (2 * k), method="highs",
                         **kwargs)
        if result.status != 0:  # pragma: no cover - a constant predictor is always feasible
            raise InfeasibleError(f"The equalized-odds linear program failed: {result.message}")
        p = np.clip(result.x, 0.0, 1.0)
        return pd.DataFrame({"p0": p[0::2], "p1": p[1::2]},
                            index=pd.Index(self.groups_, name="group"))

    # -- prediction -----------------------------------------------------------------------

    def _check_fitted(self, owner: str) -> None:
        if not hasattr(self, "mixing_"):
            raise NotFittedError(f"This RelationImpactClassifier is not fitted yet; call "
                                 f"fit(X, y, groups) before {owner}.")

    def _base_predict(self, X, tags, *, owner: str) -> np.ndarray:
        n = len(tags)
        if None in self.estimators_:
            return _hard_labels(self.estimators_[None].predict(X), n, owner=owner)
        out = np.zeros(n, dtype=np.int8)
        for group, estimator in self.estimators_.items():
            mask = tags == group
            if mask.any():
                out[mask] = _hard_labels(estimator.predict(_rows(X, mask)), int(mask.sum()),
                                         owner=owner)
        return out

    def _probability(self, base, tags) -> np.ndarray:
        p0 = dict(zip(self.groups_, self.mixing_["p0"]))
        p1 = dict(zip(self.groups_, self.mixing_["p1"]))
        return np.array([p1[g] if h else p0[g] for g, h in zip(tags.tolist(), base.tolist())])

    def _checked_input(self, X, groups, owner: str):
        self._check_fitted(owner)
        tags = _check_groups(groups, len(X), owner=owner)
        unseen = [g for g in sorted_labels(tags) if g not in self.groups_]
        if unseen:
            raise SchemaError(f"Group {unseen[0]!r} was not seen in fit; fitted groups are "
                              f"{list(self.groups_)}.")
        return tags

    def predict_proba(self, X, groups, /) -> np.ndarray:
        """P(prediction = 1) per row: ``p_{g, yhat}`` of the row's group and base label."""
        owner = "RelationImpactClassifier.predict_proba"
        tags = self._checked_input(X, groups, owner)
        return self._probability(self._base_predict(X, tags, owner=owner), tags)

    def predict(self, X, groups, /) -> np.ndarray:
        """Randomized 0/1 predictions (``random_state`` as an int repeats them exactly)."""
        owner = "RelationImpactClassifier.predict"
        tags = self._checked_input(X, groups, owner)
        p = self._probability(self._base_predict(X, tags, owner=owner), tags)
        rng = check_random_state(self.random_state, owner="RelationImpactClassifier")
        return (rng.random(p.size) < p).astype(np.int8)


def _rows(X, mask: np.ndarray):
    """The rows of X selected by a boolean mask (DataFrame or array alike)."""
    return X.iloc[np.flatnonzero(mask)] if isinstance(X, pd.DataFrame) else np.asarray(X)[mask]
