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
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from ..._core.display import Shown, head_rows, result_html, result_repr
from ..._core.exact import decimal_fraction, native
from ..._core.optional import optional_import
from ..._core.validation import (Boolean, Interval, Nullable, Options, Predicate, as_generator,
                                 check, validate_params)
from ..._core.warning import warn
from ...errors import (DegenerateGroupError, InvalidParameterError, NotFittedError,
                       SchemaError, UndefinedMetricWarning, param_error)
from ...fairness_queries._validation import check_binary_vector
from ._common import RANDOM_STATE, sorted_labels
from ._lp import lexicographic_minimum

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

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, (("groups", len(self.groups)),
                                  ("overall_error", self.overall_error),
                                  ("fpr_gap", self.fpr_gap), ("fnr_gap", self.fnr_gap)),
                     None, head_rows(self.to_frame), len(self.groups))


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


def group_error_rates(y, y_pred, groups) -> GroupErrorRates:
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
            warn(f"Group {group!r} has no positives (y = 1): its TPR and FNR are undefined "
                 "(NaN).", UndefinedMetricWarning)
        if n_count == 0:
            warn(f"Group {group!r} has no negatives (y = 0): its FPR is undefined (NaN).",
                 UndefinedMetricWarning)
        tpr.append(hits / p_count if p_count else math.nan)
        fnr.append(1.0 - hits / p_count if p_count else math.nan)
        fpr.append(false_alarms / n_count if n_count else math.nan)
        err.append((false_alarms + p_count - hits) / yg.size)
        pos.append(p_count)
        neg.append(n_count)
    overall = float((scores[labels == 0].sum() + (1.0 - scores[labels == 1]).sum()) / n)
    return GroupErrorRates(tuple(names), tuple(tpr), tuple(fpr), tuple(fnr), tuple(err),
                           tuple(pos), tuple(neg), overall)


def _is_estimator(value) -> bool:
    return hasattr(value, "fit") and hasattr(value, "predict")


def _scores_estimator(value) -> bool:
    return hasattr(value, "predict_proba") or hasattr(value, "decision_function")


_ESTIMATOR = Nullable(Predicate(_is_estimator, "be None or an estimator with fit and predict",
                                invalid="not an estimator"))
_SCORING = Predicate(_scores_estimator, "have predict_proba or decision_function when "
                     "scores=True")


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
        Anything with ``fit(X, y)`` and ``predict(X) -> 0/1`` (and ``predict_proba`` or
        ``decision_function`` for ``scores=True``), fitted on the related attributes T (a copy
        is fitted; the object passed is never touched).  Default: scikit-learn's
        ``LogisticRegression(max_iter=1000)`` (needs ``skyprivacy[ml]``).
    per_group : bool, default False, keyword-only
        Fit one base estimator per group (the paper's set of classifiers ``{h_c1..h_ci}``)
        instead of one pooled estimator.
    constraint : {"equalized_odds", "equal_opportunity"}, keyword-only
        Equal TPR and FPR across groups (the reading of Def. 3.4), or equal TPR only.
    tolerance : float, default 0.0, keyword-only
        Allowed difference of the constrained rates between any two groups, in [0, 1].
    scores : bool, default False, keyword-only
        Post-process the base estimator's scores by randomized thresholds on the convex hull
        of each group's ROC curve, instead of its 0/1 labels.
    random_state : None, int or numpy.random.Generator, keyword-only
        Randomness of :meth:`predict` (an int gives the same predictions on every call).

    Attributes
    ----------
    groups_ : tuple
        Groups seen in fit.
    mixing_ : pandas.DataFrame
        Labels (``scores=False``): ``p_{g, yhat} = P(final prediction = 1 | base prediction =
        yhat, group = g)``, one row per group, columns ``p0`` and ``p1``.
    thresholds_ : pandas.DataFrame
        Scores (``scores=True``): per group, the ROC-hull thresholds used and their weights;
        ``P(final prediction = 1 | score s) = sum of the weights of thresholds <= s``.
    base_rates_ : GroupErrorRates
        The base estimator's label rates on the training rows.
    group_rates_ : GroupErrorRates
        The derived predictor's expected rates on the training rows.

    Notes
    -----
    The Hardt-Price-Srebro linear program.  With labels: minimise the expected number of
    errors ``sum_g [(1 - p_g1) TP_g + (1 - p_g0) FN_g + p_g1 FP_g + p_g0 TN_g]`` over
    ``p in [0, 1]^(2 n_p)`` subject to ``TPR_g = TPR_h`` and ``FPR_g = FPR_h`` for all groups
    (``|.| <= tolerance``), where ``TPR_g = (p_g1 TP_g + p_g0 FN_g) / P_g`` and
    ``FPR_g = (p_g1 FP_g + p_g0 TN_g) / N_g``.  With scores: the variables are the weights of
    a mixture of the thresholds at the vertices of each group's ROC convex hull (the
    achievable (FPR, TPR) region), summing to 1 per group; the objective is
    ``sum_g N_g FPR_g + P_g (1 - TPR_g)``.  Both are always feasible (a constant predictor
    satisfies the constraints).

    Both programs are solved exactly, over the rationals (no scipy needed), because they
    often have many optimal solutions: with scores, every mixture of hull thresholds that
    reaches the optimal (FPR, TPR) point is optimal, and optimal points can tie.  Those
    solutions make the same expected training error but different predictions, and the one a
    floating-point solver returns depends on its version and tolerances.  The solution taken
    is fixed by an exact rule instead, each step choosing among the optima of the one before:

    1. the fewest expected errors (the program above);
    2. the fewest expected changes of the base estimator's own labels (``predict``);
    3. the most acceptance, groups in sorted order and within a group from the highest score
       down: ``p_g1`` as large as possible, then ``p_g0``; with scores, the least weight on
       each threshold in turn from the highest (+inf, which accepts no one) down.

    That solution is unique: the post-processing depends on the base estimator's outputs
    alone, never on a solver.

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

    @validate_params({"base_estimator": _ESTIMATOR, "per_group": Boolean(),
                      "constraint": Options("equalized_odds", "equal_opportunity"),
                      "tolerance": Interval("real", 0, 1), "scores": Boolean(),
                      "random_state": RANDOM_STATE})
    def __init__(self, *, base_estimator=None, per_group=False, constraint="equalized_odds",
                 tolerance=0.0, scores=False, random_state=None):
        if scores and base_estimator is not None:
            check(base_estimator, _SCORING, name="base_estimator",
                  owner="RelationImpactClassifier")
        self.base_estimator = base_estimator
        self.per_group = bool(per_group)
        self.constraint = constraint
        self.tolerance = float(tolerance)
        self.scores = bool(scores)
        self.random_state = random_state

    def __repr__(self) -> str:
        return (f"RelationImpactClassifier(base_estimator={self.base_estimator!r}, "
                f"per_group={self.per_group}, constraint={self.constraint!r}, "
                f"tolerance={self.tolerance}, scores={self.scores})")

    # -- fitting --------------------------------------------------------------------------

    def fit(self, X, y, groups) -> "RelationImpactClassifier":
        """Fit the base estimator(s) and solve the post-processing LP exactly.

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
            scikit-learn is missing and no base estimator was given.
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
        if self.base_estimator is not None:
            template = copy.deepcopy(self.base_estimator)
        else:
            template = optional_import(
                "sklearn.linear_model", owner="RelationImpactClassifier(base_estimator=None)"
            ).LogisticRegression(max_iter=1000)
        if self.per_group:
            self.estimators_ = {}
            for group in names:
                mask = tags == group
                self.estimators_[group] = copy.deepcopy(template).fit(_rows(X, mask),
                                                                      labels[mask])
        else:
            self.estimators_ = {None: template.fit(X, labels)}
        self.groups_ = tuple(names)
        base = self._base_output(X, tags, owner=owner, scores=False)
        if self.scores:
            score = self._base_output(X, tags, owner=owner, scores=True)
            self.thresholds_ = self._solve_scores(labels, score, base, tags)
            proba = self._threshold_probability(score, tags)
        else:
            self.mixing_ = self._solve_labels(labels, base, tags)
            proba = self._label_probability(base, tags)
        self.base_rates_ = group_error_rates(labels, base, tags)
        self.group_rates_ = group_error_rates(labels, proba, tags)
        return self

    def _constraints(self, tpr_rows: list, fpr_rows: list) -> dict:
        """Equal (or within-tolerance) TPR and, for equalized odds, FPR across groups, as
        exact rows for :func:`lexicographic_minimum`."""
        kinds = [tpr_rows] + ([fpr_rows] if self.constraint == "equalized_odds" else [])
        tolerance = decimal_fraction(self.tolerance)
        differences = []
        for block in kinds:
            k = len(block)
            pairs = ([(i, 0) for i in range(1, k)] if tolerance == 0 else
                     [(i, j) for i in range(k) for j in range(k) if i != j])
            differences += [[a - b for a, b in zip(block[i], block[j])] for i, j in pairs]
        if tolerance == 0:
            return {"a_eq": differences, "b_eq": [Fraction(0)] * len(differences)}
        return {"a_ub": differences, "b_ub": [tolerance] * len(differences)}

    def _solve_labels(self, labels, base, tags) -> pd.DataFrame:
        """The labels LP over ``p = (p_g0, p_g1)`` per group, solved exactly; among its
        optimal solutions the canonical one (see the class Notes)."""
        k = len(self.groups_)
        errors: list = []
        changes: list = []
        tpr_rows, fpr_rows = [], []
        for i, group in enumerate(self.groups_):
            mask = tags == group
            yg, hg = labels[mask], base[mask]
            tp, fn = int(np.sum((yg == 1) & (hg == 1))), int(np.sum((yg == 1) & (hg == 0)))
            fp, tn = int(np.sum((yg == 0) & (hg == 1))), int(np.sum((yg == 0) & (hg == 0)))
            errors += [tn - fn, fp - tp]       # p_g0: a TN becomes an error, an FN is fixed
            changes += [tn + fn, -(tp + fp)]   # p_g0 changes a base 0, 1 - p_g1 a base 1
            tpr, fpr = [Fraction(0)] * (2 * k), [Fraction(0)] * (2 * k)
            tpr[2 * i], tpr[2 * i + 1] = Fraction(fn, tp + fn), Fraction(tp, tp + fn)
            fpr[2 * i], fpr[2 * i + 1] = Fraction(tn, fp + tn), Fraction(fp, fp + tn)
            tpr_rows.append(tpr)
            fpr_rows.append(fpr)
        # accept as much as possible, groups in order, base positives (p_g1) before negatives
        order = [j for i in range(k) for j in (2 * i + 1, 2 * i)]
        solution = lexicographic_minimum(
            [errors, changes] + [_unit(2 * k, j, -1) for j in order], upper=[1] * (2 * k),
            **self._constraints(tpr_rows, fpr_rows))
        p = [float(v) for v in solution.x]
        return pd.DataFrame({"p0": p[0::2], "p1": p[1::2]},
                            index=pd.Index(self.groups_, name="group"))

    def _solve_scores(self, labels, score, base, tags) -> pd.DataFrame:
        """The ROC-hull LP over the threshold weights, solved exactly; among its optimal
        solutions the canonical one (see the class Notes)."""
        hulls = [_roc_hull(score[tags == g], labels[tags == g]) for g in self.groups_]
        sizes = [len(h[0]) for h in hulls]
        offsets = np.concatenate([[0], np.cumsum(sizes)]).tolist()
        total = offsets[-1]
        errors: list = [0] * total
        changes: list = [0] * total
        tpr_rows, fpr_rows, simplex = [], [], []
        for i, (thresholds, fp, tp, n_pos, n_neg) in enumerate(hulls):
            block = range(offsets[i], offsets[i + 1])
            sg, hg = score[tags == self.groups_[i]], base[tags == self.groups_[i]]
            row_t, row_f, row_s = ([Fraction(0)] * total for _ in range(3))
            for j, t, f_count, t_count in zip(block, thresholds, fp, tp):
                errors[j] = f_count - t_count  # + n_pos: errors of "score >= t"
                accepted = sg >= t
                changes[j] = int(np.sum(accepted & (hg == 0)) - np.sum(accepted & (hg == 1)))
                row_t[j], row_f[j], row_s[j] = (Fraction(t_count, n_pos),
                                                Fraction(f_count, n_neg), Fraction(1))
            tpr_rows.append(row_t)
            fpr_rows.append(row_f)
            simplex.append(row_s)
        constraints = self._constraints(tpr_rows, fpr_rows)
        constraints["a_eq"] = simplex + constraints.get("a_eq", [])
        constraints["b_eq"] = [Fraction(1)] * len(simplex) + constraints.get("b_eq", [])
        # thresholds from the highest down: the least weight high = the most acceptance
        solution = lexicographic_minimum(
            [errors, changes] + [_unit(total, j, 1) for j in range(total)], **constraints)
        rows = [(group, float(t), float(w)) for i, group in enumerate(self.groups_)
                for t, w in zip(hulls[i][0], solution.x[offsets[i]:offsets[i + 1]]) if w > 0]
        return pd.DataFrame(rows, columns=["group", "threshold", "weight"])

    # -- prediction -----------------------------------------------------------------------

    def _check_fitted(self, owner: str) -> None:
        if not hasattr(self, "group_rates_"):
            raise NotFittedError(f"This RelationImpactClassifier is not fitted yet; call "
                                 f"fit(X, y, groups) before {owner}.")

    def _base_output(self, X, tags, *, owner: str, scores: bool) -> np.ndarray:
        n = len(tags)
        out = np.zeros(n, dtype=float if scores else np.int8)
        for group, estimator in self.estimators_.items():
            mask = np.ones(n, dtype=bool) if group is None else tags == group
            if mask.any():
                rows = X if group is None else _rows(X, mask)
                out[mask] = (_scores(estimator, rows, int(mask.sum()), owner=owner) if scores
                             else _hard_labels(estimator.predict(rows), int(mask.sum()),
                                               owner=owner))
        return out

    def _label_probability(self, base, tags) -> np.ndarray:
        p0 = dict(zip(self.groups_, self.mixing_["p0"]))
        p1 = dict(zip(self.groups_, self.mixing_["p1"]))
        return np.array([p1[g] if h else p0[g] for g, h in zip(tags.tolist(), base.tolist())])

    def _threshold_probability(self, score, tags) -> np.ndarray:
        proba = np.zeros(len(score))
        for group, threshold, weight in self.thresholds_.itertuples(index=False):
            proba += weight * ((tags == group) & (score >= threshold))
        return np.clip(proba, 0.0, 1.0)

    def _checked_input(self, X, groups, owner: str):
        self._check_fitted(owner)
        tags = _check_groups(groups, len(X), owner=owner)
        unseen = [g for g in sorted_labels(tags) if g not in self.groups_]
        if unseen:
            raise SchemaError(f"Group {unseen[0]!r} was not seen in fit; fitted groups are "
                              f"{list(self.groups_)}.")
        return tags

    def _proba(self, X, groups, owner: str) -> np.ndarray:
        tags = self._checked_input(X, groups, owner)
        if self.scores:
            return self._threshold_probability(
                self._base_output(X, tags, owner=owner, scores=True), tags)
        return self._label_probability(self._base_output(X, tags, owner=owner, scores=False),
                                       tags)

    def predict_proba(self, X, groups) -> np.ndarray:
        """P(prediction = 1) per row: ``p_{g, yhat}`` of the row's group and base label, or
        the weight of the row's group thresholds at or below its score."""
        return self._proba(X, groups, "RelationImpactClassifier.predict_proba")

    def predict(self, X, groups) -> np.ndarray:
        """Randomized 0/1 predictions (``random_state`` as an int repeats them exactly)."""
        p = self._proba(X, groups, "RelationImpactClassifier.predict")
        rng = as_generator(self.random_state)
        return (rng.random(p.size) < p).astype(np.int8)


def _scores(estimator, X, n: int, *, owner: str) -> np.ndarray:
    """The base estimator's scores: P(y = 1) from predict_proba, else decision_function."""
    if hasattr(estimator, "predict_proba"):
        values = np.asarray(estimator.predict_proba(X), dtype=float)
        values = values[:, -1] if values.ndim == 2 else values
    else:
        values = np.asarray(estimator.decision_function(X), dtype=float)
    if values.shape != (n,) or not np.all(np.isfinite(values)):
        raise InvalidParameterError(f"The base estimator of {owner} must give one finite "
                                    f"score per row. Got shape {values.shape} instead.")
    return values


def _roc_hull(score: np.ndarray, y: np.ndarray):
    """Thresholds at the vertices of the convex hull of a group's ROC points, with their
    false- and true-positive counts (ints), and the group's positives and negatives.

    The predictor ``score >= t`` for t from +inf down to the smallest score traces the ROC
    points from (0, 0) to (1, 1), both coordinates non-decreasing, so the points are already
    sorted and Andrew's monotone chain finds the hull (both chains) in one pass each.  The
    turns are decided on the integer counts (scaling an axis by ``1/N`` or ``1/P`` keeps the
    sign of a cross product), so collinear points are recognised exactly.
    """
    order = np.argsort(-score, kind="stable")
    s, yy = score[order], y[order]
    n_pos, n_neg = int(yy.sum()), int(yy.size - yy.sum())
    last = np.r_[np.flatnonzero(np.diff(s) != 0), s.size - 1]  # last row of each score level
    tp, fp = np.cumsum(yy)[last], np.cumsum(1 - yy)[last]
    thresholds = np.r_[np.inf, s[last]]
    points = list(zip([0] + fp.tolist(), [0] + tp.tolist(), range(len(thresholds))))

    def chain(sequence) -> list:
        kept: list = []
        for point in sequence:
            while len(kept) >= 2 and _cross(kept[-2], kept[-1], point) <= 0:
                kept.pop()
            kept.append(point)
        return kept

    lower, upper = chain(points), chain(points[::-1])
    vertices = sorted({p[2] for p in lower + upper})
    return (thresholds[vertices], [points[i][0] for i in vertices],
            [points[i][1] for i in vertices], n_pos, n_neg)


def _cross(o, a, b) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _unit(n: int, j: int, sign: int) -> list:
    """The objective ``sign * x[j]`` over n variables."""
    row = [0] * n
    row[j] = sign
    return row


def _rows(X, mask: np.ndarray):
    """The rows of X selected by a boolean mask (DataFrame or array alike)."""
    return X.iloc[np.flatnonzero(mask)] if isinstance(X, pd.DataFrame) else np.asarray(X)[mask]
