"""The Relation-Impact classifier and per-group error rates (spec group-tagging §3.7), tests
G6 (the equalized-odds LP on the §3.7 fixture) and G7 (invariance under FIS)."""
import itertools
import sys
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from skyprivacy.errors import (DegenerateGroupError, InvalidParameterError, NotFittedError,
                               NotDifferentiallyPrivateWarning, SchemaError,
                               UndefinedMetricWarning)
from skyprivacy.experimental.group_tagging import (RelationImpactClassifier, fis_shuffle,
                                                   group_error_rates)

from .lp_oracle import affine, vertices
from .lp_oracle import lexicographic_minimum as brute_force


class Rule:
    """spec §3.7 base rule: eligible iff maths >= 55 and electricity = 1."""

    def fit(self, X, y):
        self.fitted = True
        return self

    def predict(self, X):
        X = pd.DataFrame(X, columns=["maths", "electricity"])
        return ((X["maths"] >= 55) & (X["electricity"] == 1)).astype(int).to_numpy()


def fit_rule(students, **kwargs):
    clf = RelationImpactClassifier(base_estimator=Rule(), random_state=0, **kwargs)
    return clf.fit(students[["maths", "electricity"]], students["eligible"], students["sex"])


def test_g6_base_rule_rates(students):
    clf = fit_rule(students)
    base = clf.base_rates_
    assert base.groups == ("F", "M")
    assert base.fpr == (0.0, pytest.approx(1 / 3)) and base.fnr == (0.0, 0.0)
    assert base.overall_error == pytest.approx(1 / 12)


def test_g6_equalized_odds_lp_optimum(students):
    clf = fit_rule(students)
    p = clf.mixing_
    assert p.loc["F", "p0"] == pytest.approx(1 / 3, abs=1e-9)
    assert p.loc["F", "p1"] == pytest.approx(1.0, abs=1e-9)
    assert p.loc["M", "p0"] == pytest.approx(0.0, abs=1e-9)
    assert p.loc["M", "p1"] == pytest.approx(1.0, abs=1e-9)
    rates = clf.group_rates_
    assert rates.tpr == (pytest.approx(1.0), pytest.approx(1.0))
    assert rates.fnr == (pytest.approx(0.0, abs=1e-9), pytest.approx(0.0, abs=1e-9))
    assert rates.fpr == (pytest.approx(1 / 3), pytest.approx(1 / 3))
    assert rates.fpr_gap == pytest.approx(0.0, abs=1e-9)
    assert rates.overall_error == pytest.approx(1 / 6)
    expected = group_error_rates(students["eligible"], clf.predict_proba(
        students[["maths", "electricity"]], students["sex"]), students["sex"])
    assert expected.overall_error == pytest.approx(1 / 6)


def test_g6_the_optimum_is_unique_by_exhaustive_search(students):
    """Brute force over p in {0, 1/6, ..., 1}^4 with exact fractions: among predictors with
    equal TPR and FPR, the least expected error is 2 (of 12), reached only at (1/3, 1, 0, 1)."""
    y, sex = students["eligible"].tolist(), students["sex"].tolist()
    base = Rule().predict(students[["maths", "electricity"]]).tolist()
    grid = [Fraction(k, 6) for k in range(7)]
    best, where = None, []
    for pf0, pf1, pm0, pm1 in itertools.product(grid, repeat=4):
        p = {("F", 0): pf0, ("F", 1): pf1, ("M", 0): pm0, ("M", 1): pm1}
        rate = {}
        for g in ("F", "M"):
            pos = [p[g, h] for yy, h, s in zip(y, base, sex) if s == g and yy == 1]
            neg = [p[g, h] for yy, h, s in zip(y, base, sex) if s == g and yy == 0]
            rate[g] = (sum(pos) / len(pos), sum(neg) / len(neg))
        if rate["F"] != rate["M"]:
            continue
        errors = sum((1 - p[s, h]) if yy else p[s, h] for yy, h, s in zip(y, base, sex))
        if best is None or errors < best:
            best, where = errors, [(pf0, pf1, pm0, pm1)]
        elif errors == best:
            where.append((pf0, pf1, pm0, pm1))
    assert best == 2 and where == [(Fraction(1, 3), 1, 0, 1)]


def test_tolerance_and_equal_opportunity_relax_the_constraint(students):
    loose = fit_rule(students, tolerance=0.34)  # the base gap (1/3) fits: keep the base rule
    assert loose.mixing_.to_numpy().round(9).tolist() == [[0.0, 1.0], [0.0, 1.0]]
    assert loose.group_rates_.overall_error == pytest.approx(1 / 12)
    opportunity = fit_rule(students, constraint="equal_opportunity")  # TPR already equal
    assert opportunity.group_rates_.overall_error == pytest.approx(1 / 12)
    per_group = fit_rule(students, per_group=True)
    assert set(per_group.estimators_) == {"F", "M"}
    assert per_group.group_rates_.overall_error == pytest.approx(1 / 6)


def test_predictions_are_reproducible_and_match_the_mixing(students):
    clf = fit_rule(students)
    X, groups = students[["maths", "electricity"]], students["sex"]
    one, two = clf.predict(X, groups), clf.predict(X, groups)
    assert one.tolist() == two.tolist()
    big_x = pd.concat([X] * 500, ignore_index=True)
    big_g = pd.concat([groups] * 500, ignore_index=True)
    draws = clf.predict(big_x, big_g)
    proba = clf.predict_proba(big_x, big_g)
    assert set(np.unique(proba).round(9)) == {0.0, round(1 / 3, 9), 1.0}
    third = proba.round(9) == round(1 / 3, 9)
    assert draws[third].mean() == pytest.approx(1 / 3, abs=0.04)
    assert (draws[proba == 1.0] == 1).all() and (draws[proba == 0.0] == 0).all()


def test_the_base_estimator_passed_in_is_never_fitted(students):
    rule = Rule()
    RelationImpactClassifier(base_estimator=rule).fit(
        students[["maths", "electricity"]], students["eligible"], students["sex"])
    assert not hasattr(rule, "fitted")


def test_default_base_estimator_is_logistic_regression(reference_with_target):
    table = reference_with_target
    clf = RelationImpactClassifier(random_state=0).fit(table[["maths", "income"]],
                                                       table["eligible"], table["sex"])
    assert type(clf.estimators_[None]).__name__ == "LogisticRegression"
    assert clf.group_rates_.fpr_gap == pytest.approx(0.0, abs=1e-9)
    assert clf.group_rates_.fnr_gap == pytest.approx(0.0, abs=1e-9)


@pytest.fixture
def reference_with_target(reference):
    rng = np.random.default_rng(0)
    score = reference["maths"] / 100 + reference["income"] / 120 \
        + 0.3 * (reference["sex"] == "M") + rng.normal(0, 0.3, len(reference))
    return reference.assign(eligible=(score > 1.1).astype(int))


def test_g7_predictions_are_invariant_under_fis(reference_with_target):
    table = reference_with_target
    anchored = ["id", "maths", "income", "eligible"]
    clf = RelationImpactClassifier(random_state=3).fit(table[["maths", "income"]],
                                                       table["eligible"], table["sex"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotDifferentiallyPrivateWarning)
        shuffled, plan = fis_shuffle(table, tag="sex", anchored=anchored, S=2, batch_size=20,
                                     random_state=8)
    before = clf.predict(table[["maths", "income"]], table["sex"])
    after = clf.predict(shuffled[["maths", "income"]], shuffled["sex"])
    assert before.tolist() == after.tolist()
    assert clf.predict_proba(table[["maths", "income"]], table["sex"]).tolist() == \
        clf.predict_proba(shuffled[["maths", "income"]], shuffled["sex"]).tolist()
    # the invariance rests on reading anchored columns only: a free column breaks it
    reads_free = RelationImpactClassifier(random_state=3).fit(
        table[["maths", "age"]], table["eligible"], table["sex"])
    assert reads_free.predict_proba(table[["maths", "age"]], table["sex"]).tolist() != \
        reads_free.predict_proba(shuffled[["maths", "age"]], shuffled["sex"]).tolist()


# --- group_error_rates -------------------------------------------------------------------------

def test_group_error_rates_hard_and_soft():
    rates = group_error_rates([1, 1, 0, 0, 1, 0], [1, 0, 1, 0, 0.5, 0.25],
                              ["a", "a", "a", "a", "b", "b"])
    assert rates.tpr == (0.5, 0.5) and rates.fnr == (0.5, 0.5)
    assert rates.fpr == (0.5, 0.25)
    assert rates.error == (0.5, pytest.approx(0.375))
    assert rates.overall_error == pytest.approx((2 + 0.75) / 6)
    assert rates.to_frame().loc["b", "negatives"] == 1
    assert rates.to_dict()["group"] == ["a", "b"]


def test_undefined_rates_are_nan_with_a_warning():
    with pytest.warns(UndefinedMetricWarning) as caught:
        rates = group_error_rates([1, 1, 0, 0], [1, 0, 0, 1], ["a", "a", "b", "b"])
    assert [str(w.message) for w in caught] == [
        "Group 'a' has no negatives (y = 0): its FPR is undefined (NaN).",
        "Group 'b' has no positives (y = 1): its TPR and FNR are undefined (NaN).",
    ]
    assert np.isnan(rates.fpr[0]) and np.isnan(rates.fnr[1]) and np.isnan(rates.fpr_gap)
    assert rates.fnr[0] == 0.5 and rates.fpr[1] == 0.5


@pytest.mark.parametrize("args, message", [
    (([1, 0], [1, 2], ["a", "a"]), "The 'y_pred' parameter of group_error_rates must be in "
                                   "[0, 1] without NaN. Got '2.0 at position 1' instead."),
    (([1, 0], [1, 0], ["a"]), "The 'groups' parameter of group_error_rates must have length 2 "
                              "(one group per row). Got 'length 1' instead."),
    (([1, 2], [1, 0], ["a", "b"]), "The 'y' parameter of group_error_rates must contain only "
                                   "the labels 0 and 1 (booleans accepted). Got 'values [1, 2]' "
                                   "instead."),
])
def test_group_error_rates_validation(args, message):
    with pytest.raises(InvalidParameterError) as caught:
        group_error_rates(*args)
    assert str(caught.value) == message


# --- errors ------------------------------------------------------------------------------------

def test_not_fitted(students):
    clf = RelationImpactClassifier(base_estimator=Rule())
    with pytest.raises(NotFittedError, match=r"^This RelationImpactClassifier is not fitted "
                       r"yet; call fit\(X, y, groups\) before "
                       r"RelationImpactClassifier\.predict\.$"):
        clf.predict(students[["maths", "electricity"]], students["sex"])
    with pytest.raises(AttributeError):  # NotFittedError is also an AttributeError
        clf.predict_proba(students[["maths", "electricity"]], students["sex"])


def test_single_class_target_and_degenerate_groups(students):
    clf = RelationImpactClassifier(base_estimator=Rule())
    X = students[["maths", "electricity"]]
    with pytest.raises(DegenerateGroupError, match=r"^RelationImpactClassifier\.fit needs both "
                       r"classes in y \(there is no FPR or FNR otherwise\); y holds only 1\.$"):
        clf.fit(X, [1] * 12, students["sex"])
    y = [1] * 6 + students["eligible"].tolist()[6:]
    with pytest.raises(DegenerateGroupError, match=r"^Group 'F' has no negatives \(y = 0\), so "
                       r"its FPR is undefined and error rates cannot be equalized\.$"):
        clf.fit(X, y, students["sex"])


def test_unseen_group_at_prediction(students):
    clf = fit_rule(students)
    with pytest.raises(SchemaError, match=r"^Group 'X' was not seen in fit; fitted groups are "
                       r"\['F', 'M'\]\.$"):
        clf.predict(students[["maths", "electricity"]], ["X"] * 12)


@pytest.mark.parametrize("kwargs, message", [
    ({"constraint": "parity"}, "The 'constraint' parameter of RelationImpactClassifier must be "
                               "one of ['equalized_odds', 'equal_opportunity']. Got 'parity' "
                               "instead."),
    ({"tolerance": -0.1}, "The 'tolerance' parameter of RelationImpactClassifier must be in "
                          "[0, 1]. Got -0.1 instead."),
    ({"base_estimator": 3}, "The 'base_estimator' parameter of RelationImpactClassifier must "
                            "be None or an estimator with fit and predict. Got 3 instead."),
    ({"per_group": "yes"}, "The 'per_group' parameter of RelationImpactClassifier must be True "
                           "or False. Got 'yes' instead."),
    ({"tolerance": "0.1"}, "The 'tolerance' parameter of RelationImpactClassifier must be a "
                           "number in [0, 1]. Got '0.1' instead."),
    ({"random_state": -1}, "The 'random_state' parameter of RelationImpactClassifier must be "
                           "None, a non-negative int seed or a numpy.random.Generator. Got -1 "
                           "instead."),
])
def test_constructor_validation(kwargs, message):
    with pytest.raises(InvalidParameterError) as caught:
        RelationImpactClassifier(**kwargs)
    assert str(caught.value) == message


def test_a_base_estimator_must_predict_labels(students):
    class Scores(Rule):
        def predict(self, X):
            return np.full(len(X), 0.7)

    with pytest.raises(InvalidParameterError, match=r"^The base estimator of "
                       r"RelationImpactClassifier\.fit must predict 0/1 labels, one per row\. "
                       r"Got \[0\.7\] \(shape \(12,\)\) instead\.$"):
        RelationImpactClassifier(base_estimator=Scores()).fit(
            students[["maths", "electricity"]], students["eligible"], students["sex"])


def test_the_lp_needs_no_scipy_and_a_missing_sklearn_names_its_extra(students, monkeypatch):
    """The post-processing LP is solved exactly in pure Python: without scipy the fit is the
    same; only the default base estimator needs an extra."""
    X, y, g = students[["maths", "electricity"]], students["eligible"], students["sex"]
    with_scipy = RelationImpactClassifier(base_estimator=Rule()).fit(X, y, g).mixing_
    monkeypatch.setitem(sys.modules, "scipy", None)
    monkeypatch.setitem(sys.modules, "scipy.optimize", None)
    without = RelationImpactClassifier(base_estimator=Rule()).fit(X, y, g).mixing_
    pd.testing.assert_frame_equal(with_scipy, without)
    monkeypatch.undo()
    monkeypatch.setitem(sys.modules, "sklearn.linear_model", None)
    with pytest.raises(ImportError) as caught:
        RelationImpactClassifier().fit(X, y, g)
    assert str(caught.value) == ("RelationImpactClassifier(base_estimator=None) needs "
                                 "scikit-learn: pip install 'skyprivacy[ml]'")


# --- scores: ROC-convex-hull thresholds (spec §3.7, "for scores rather than hard labels") --------

class ScoreRule(Rule):
    def predict_proba(self, X):
        p = self.predict(X).astype(float)
        return np.column_stack([1 - p, p])


def test_scores_on_the_fixture_give_the_label_optimum(students):
    clf = RelationImpactClassifier(base_estimator=ScoreRule(), scores=True, random_state=0)
    clf.fit(students[["maths", "electricity"]], students["eligible"], students["sex"])
    rates = clf.group_rates_
    assert rates.tpr == (pytest.approx(1.0), pytest.approx(1.0))
    assert rates.fpr == (pytest.approx(1 / 3), pytest.approx(1 / 3))
    assert rates.overall_error == pytest.approx(1 / 6)
    assert set(clf.thresholds_["group"]) == {"F", "M"}
    assert clf.thresholds_.groupby("group")["weight"].sum().round(9).tolist() == [1.0, 1.0]


def test_roc_hull_vertices():
    from skyprivacy.experimental.group_tagging.classifier import _roc_hull
    thresholds, fp, tp, n_pos, n_neg = _roc_hull(np.array([0.9, 0.8, 0.7, 0.6]),
                                                 np.array([1, 0, 1, 0]))
    assert thresholds.tolist() == [np.inf, 0.9, 0.7, 0.6]
    assert fp == [0, 0, 1, 2] and tp == [0, 1, 2, 2]  # counts: FPR = fp / 2, TPR = tp / 2
    assert (n_pos, n_neg) == (2, 2)


def test_roc_hull_drops_collinear_points_exactly():
    """Turns are decided on integer counts: points on one line are never hull vertices."""
    from skyprivacy.experimental.group_tagging.classifier import _roc_hull
    score = np.repeat([0.9, 0.7, 0.5, 0.3, 0.1], [3, 3, 3, 3, 3])
    y = np.tile([1, 0, 0], 5)  # each level adds 1 positive and 2 negatives: one line
    thresholds, fp, tp, n_pos, n_neg = _roc_hull(score, y)
    assert thresholds.tolist() == [np.inf, 0.1] and fp == [0, 10] and tp == [0, 5]
    assert (n_pos, n_neg) == (5, 10)


class Score:
    """A fixed score per row (the first column of X)."""

    def fit(self, X, y):
        return self

    def predict(self, X):
        return (np.asarray(X)[:, 0] >= 0.5).astype(int)

    def decision_function(self, X):
        return np.asarray(X, dtype=float)[:, 0]


def all_thresholds_optimum(score, y, groups):
    """Oracle: the same LP over *every* threshold of every group (no hull), from the
    definitions; its optimum must equal the hull LP's (the feasible regions coincide)."""
    from scipy.optimize import linprog
    blocks = []
    for g in sorted(set(groups)):
        s, yy = score[groups == g], y[groups == g]
        ts = [np.inf] + sorted(set(s.tolist()), reverse=True)
        tpr = np.array([np.mean(s[yy == 1] >= t) for t in ts])
        fpr = np.array([np.mean(s[yy == 0] >= t) for t in ts])
        blocks.append((tpr, fpr, int(yy.sum()), int((1 - yy).sum())))
    sizes = [len(b[0]) for b in blocks]
    total, offsets = sum(sizes), np.concatenate([[0], np.cumsum(sizes)])
    cost, rows, rhs = np.zeros(total), [], []
    for i, (tpr, fpr, n_pos, n_neg) in enumerate(blocks):
        cost[offsets[i]:offsets[i + 1]] = n_neg * fpr - n_pos * tpr
        simplex = np.zeros(total)
        simplex[offsets[i]:offsets[i + 1]] = 1
        rows.append(simplex)
        rhs.append(1.0)
    for kind in (0, 1):
        first = np.zeros(total)
        first[:sizes[0]] = blocks[0][kind]
        for i in range(1, len(blocks)):
            other = np.zeros(total)
            other[offsets[i]:offsets[i + 1]] = blocks[i][kind]
            rows.append(other - first)
            rhs.append(0.0)
    result = linprog(cost, A_eq=np.array(rows), b_eq=rhs, bounds=[(0, 1)] * total,
                     method="highs")
    return (result.fun + sum(b[2] for b in blocks)) / len(y)


@pytest.mark.parametrize("seed", range(6))
def test_score_post_processing_matches_the_unreduced_lp(seed):
    rng = np.random.default_rng(seed)
    n = 80
    groups = np.where(rng.random(n) < 0.4, "a", "b")
    y = (rng.random(n) < 0.45).astype(int)
    y[:2], y[2:4] = [0, 1], [0, 1]
    groups[:4] = ["a", "a", "b", "b"]
    score = np.round(0.6 * y + 0.25 * (groups == "b") + rng.normal(0, 0.35, n), 1)
    X = score[:, None]
    clf = RelationImpactClassifier(base_estimator=Score(), scores=True, random_state=0)
    clf.fit(X, y, groups)
    assert clf.group_rates_.fpr_gap == pytest.approx(0.0, abs=1e-9)
    assert clf.group_rates_.fnr_gap == pytest.approx(0.0, abs=1e-9)
    assert clf.group_rates_.overall_error == pytest.approx(all_thresholds_optimum(score, y,
                                                                                  groups),
                                                           abs=1e-9)
    proba = clf.predict_proba(X, groups)
    for g in ("a", "b"):  # monotone in the score within a group
        order = np.argsort(score[groups == g])
        assert np.all(np.diff(proba[groups == g][order]) >= -1e-12)


def test_scores_need_a_scoring_estimator():
    with pytest.raises(InvalidParameterError) as caught:
        RelationImpactClassifier(base_estimator=Rule(), scores=True)
    assert str(caught.value).startswith("The 'base_estimator' parameter of "
                                        "RelationImpactClassifier must have predict_proba or "
                                        "decision_function when scores=True. Got <")


# --- the exact LP and its canonical optimum (spec §3.7; the class Notes) -----------------------

class Table:
    """Fixed outputs: X[:, 0] are the 0/1 labels, X[:, 1] the scores."""

    def fit(self, X, y):
        return self

    def predict(self, X):
        return np.asarray(X)[:, 0].astype(int)

    def decision_function(self, X):
        return np.asarray(X, dtype=float)[:, 1]


def post_processing_lp(y, base, groups, proba, n, *, blocks=(), constraint="equalized_odds",
                       tolerance=Fraction(0)):
    """The post-processing LP written from its definitions, row by row, independently of the
    classifier: ``proba(x)`` is each row's probability of a positive prediction for the
    variables x.  Returns the expected errors and the expected changes of the base labels as
    functions of x, and the constraints as (row, bound) pairs."""
    names = sorted(set(groups))
    rows = list(zip(y, base, groups))

    def rate(x, group, label):
        q = [p for p, (yy, _, g) in zip(proba(x), rows) if g == group and yy == label]
        return sum(q, Fraction(0)) / len(q)

    eq, ub = [], []
    for block in blocks:  # scores: the weights of a group sum to 1
        eq.append(([Fraction(int(j in block)) for j in range(n)], 1))
    for label in ([1, 0] if constraint == "equalized_odds" else [1]):  # TPR, FPR
        pairs = ([(a, names[0]) for a in names[1:]] if tolerance == 0 else
                 [(a, b) for a in names for b in names if a != b])
        for a, b in pairs:
            row, constant = affine(lambda x, a=a, b=b, label=label:
                                   rate(x, a, label) - rate(x, b, label), n)
            if tolerance == 0:
                eq.append((row, -constant))
            else:
                ub.append((row, tolerance - constant))

    def errors(x):
        return sum((p if yy == 0 else 1 - p for p, (yy, _, _) in zip(proba(x), rows)),
                   Fraction(0))

    def changes(x):
        return sum((p if h == 0 else 1 - p for p, (_, h, _) in zip(proba(x), rows)),
                   Fraction(0))

    return errors, changes, eq, ub


def scipy_optimum(errors, n, eq, ub, upper):
    """scipy's (HiGHS) least expected error count for the same program."""
    from scipy.optimize import linprog
    cost, constant = affine(errors, n)
    result = linprog([float(c) for c in cost],
                     A_eq=[[float(v) for v in r] for r, _ in eq] or None,
                     b_eq=[float(b) for _, b in eq] or None,
                     A_ub=[[float(v) for v in r] for r, _ in ub] or None,
                     b_ub=[float(b) for _, b in ub] or None,
                     bounds=[(0, u) for u in upper], method="highs")
    assert result.status == 0
    return result.fun + float(constant)


def random_rows(rng, n_groups, levels):
    n_rows = int(rng.integers(8, 25))
    groups = np.array([f"g{i}" for i in rng.integers(0, n_groups, n_rows)], dtype=object)
    groups[: 2 * n_groups] = [f"g{i // 2}" for i in range(2 * n_groups)]
    y = (rng.random(n_rows) < 0.5).astype(int)
    y[: 2 * n_groups] = [0, 1] * n_groups  # both classes in every group
    base = (rng.random(n_rows) < 0.5).astype(int)
    score = rng.integers(0, levels, n_rows) / 10
    return y, base, groups, score


def test_the_labels_fit_is_the_canonical_exact_optimum_on_random_inputs():
    """On random small inputs the mixing is the brute-force lexicographic minimum over every
    vertex: the fewest errors (scipy's optimum), then the fewest changes of the base labels,
    then p_g1 and p_g0 as large as possible, groups in order."""
    decided_by = {"errors": 0, "changes": 0, "acceptance": 0}
    for seed in range(30):
        rng = np.random.default_rng(seed)
        n_groups = 2 + seed % 2
        constraint = "equal_opportunity" if seed % 5 == 4 else "equalized_odds"
        tolerance = Fraction(1, 10) if seed % 6 == 2 else Fraction(0)
        y, base, groups, _ = random_rows(rng, n_groups, 3)
        names = sorted(set(groups))
        index = [names.index(g) for g in groups]
        n = 2 * len(names)

        def proba(x, index=index, base=base):
            return [x[2 * g + h] for g, h in zip(index, base)]

        errors, changes, eq, ub = post_processing_lp(y, base, groups, proba, n,
                                                     constraint=constraint,
                                                     tolerance=tolerance)
        acceptance = [lambda x, j=j: -x[j] for i in range(len(names)) for j in (2 * i + 1,
                                                                                2 * i)]
        best, optimal = brute_force(vertices(n, eq, ub, [1] * n),
                                    [errors, changes] + acceptance)
        clf = RelationImpactClassifier(base_estimator=Table(), constraint=constraint,
                                       tolerance=float(tolerance), random_state=0)
        clf.fit(np.column_stack([base, base]), y, groups)
        assert clf.mixing_.to_numpy().ravel().tolist() == [float(v) for v in best], seed
        assert float(errors(best)) == pytest.approx(scipy_optimum(errors, n, eq, ub, [1] * n),
                                                    abs=1e-9)
        assert clf.group_rates_.overall_error == pytest.approx(float(errors(best)) / len(y),
                                                               abs=1e-12)
        least_changes = [x for x in optimal if changes(x) == changes(best)]
        decided_by["errors" if len(optimal) == 1 else
                   "changes" if len(least_changes) == 1 else "acceptance"] += 1
    assert decided_by["changes"] >= 2 and decided_by["acceptance"] >= 2, decided_by


def test_the_scores_fit_is_the_canonical_exact_optimum_on_random_inputs():
    """The same with scores: the weights of the hull thresholds are the lexicographic minimum
    over every vertex (fewest errors, fewest changes of the base labels, then the least
    weight on each threshold from the highest down)."""
    from skyprivacy.experimental.group_tagging.classifier import _roc_hull
    decided_by = {"errors": 0, "changes": 0, "acceptance": 0}
    for seed in range(30):
        rng = np.random.default_rng(100 + seed)
        constraint = "equal_opportunity" if seed % 5 == 4 else "equalized_odds"
        tolerance = Fraction(1, 20) if seed % 7 == 3 else Fraction(0)
        y, base, groups, score = random_rows(rng, 2, 5)
        if seed % 2:  # changes = N FPR - P TPR + const: equal for every mixture reaching one
            base = y.copy()  # (FPR, TPR) point, so the third step decides among them
        names = sorted(set(groups))
        hulls = [_roc_hull(score[groups == g], y[groups == g])[0].tolist() for g in names]
        columns = [(g, t) for g, hull in zip(names, hulls) for t in hull]
        n = len(columns)

        def proba(x, columns=columns, groups=groups, score=score):
            return [sum((w for (g, t), w in zip(columns, x) if g == row_g and t <= s),
                        Fraction(0)) for row_g, s in zip(groups, score)]

        blocks = [[j for j, (g, _) in enumerate(columns) if g == name] for name in names]
        errors, changes, eq, ub = post_processing_lp(y, base, groups, proba, n, blocks=blocks,
                                                     constraint=constraint,
                                                     tolerance=tolerance)
        acceptance = [lambda x, j=j: x[j] for j in range(n)]
        best, optimal = brute_force(vertices(n, eq, ub), [errors, changes] + acceptance)
        clf = RelationImpactClassifier(base_estimator=Table(), scores=True,
                                       constraint=constraint, tolerance=float(tolerance),
                                       random_state=0)
        clf.fit(np.column_stack([base, score]), y, groups)
        expected = [(g, t, float(w)) for (g, t), w in zip(columns, best) if w > 0]
        assert list(clf.thresholds_.itertuples(index=False, name=None)) == expected, seed
        assert float(errors(best)) == pytest.approx(scipy_optimum(errors, n, eq, ub, [None] * n),
                                                    abs=1e-9)
        least_changes = [x for x in optimal if changes(x) == changes(best)]
        decided_by["errors" if len(optimal) == 1 else
                   "changes" if len(least_changes) == 1 else "acceptance"] += 1
    assert decided_by["changes"] >= 1 and decided_by["acceptance"] >= 1, decided_by


def test_among_equal_optima_the_rule_accepts_the_highest_scores_first():
    """Group b's best point (FPR 1/4, TPR 3/4) is a vertex of its ROC hull and lies inside
    group a's, where two mixtures of a's thresholds reach it with the same errors and, the
    base labels being y, the same changes.  They predict differently: the rule takes the one
    that accepts a's highest scores with probability 1, not 3/4."""
    from skyprivacy.experimental.group_tagging.classifier import _roc_hull
    score = np.array([0.9, 0.9, 0.7, 0.7, 0.7, 0.3, 0.3, 0.3,       # group a
                      0.8, 0.8, 0.8, 0.8, 0.2, 0.2, 0.2, 0.2])      # group b
    y = np.array([1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0])
    groups = np.array(["a"] * 8 + ["b"] * 8, dtype=object)
    clf = RelationImpactClassifier(base_estimator=Table(), scores=True, random_state=0)
    clf.fit(np.column_stack([y, score]), y, groups)
    assert list(clf.thresholds_.itertuples(index=False, name=None)) == [
        ("a", 0.9, 0.5), ("a", 0.7, 1 / 3), ("a", 0.3, 1 / 6), ("b", 0.8, 1.0)]
    # the brute-force view: exactly two optimal vertices, equal on errors and changes
    names, hulls = ["a", "b"], [_roc_hull(score[groups == g], y[groups == g])[0].tolist()
                                for g in ["a", "b"]]
    columns = [(g, t) for g, hull in zip(names, hulls) for t in hull]
    assert columns == [("a", np.inf), ("a", 0.9), ("a", 0.7), ("a", 0.3),
                       ("b", np.inf), ("b", 0.8), ("b", 0.2)]

    def proba(x):
        return [sum((w for (g, t), w in zip(columns, x) if g == row_g and t <= s),
                    Fraction(0)) for row_g, s in zip(groups, score)]

    errors, changes, eq, ub = post_processing_lp(y, y, groups, proba, 7,
                                                 blocks=[[0, 1, 2, 3], [4, 5, 6]])
    _, optimal = brute_force(vertices(7, eq, ub), [errors])
    F = Fraction
    assert sorted(optimal) == [(0, F(1, 2), F(1, 3), F(1, 6), 0, 1, 0),
                               (F(1, 4), 0, F(2, 3), F(1, 12), 0, 1, 0)]
    assert len({errors(x) for x in optimal}) == 1 and len({changes(x) for x in optimal}) == 1
    assert float(errors(optimal[0])) == pytest.approx(scipy_optimum(errors, 7, eq, ub,
                                                                    [None] * 7), abs=1e-9)
    new = np.array([[1, 0.9], [1, 0.7], [0, 0.3]])
    assert clf.predict_proba(new, ["a"] * 3).tolist() == pytest.approx([1, 1 / 2, 1 / 6])
    # the other optimum would accept them with 3/4, 3/4 and 1/12


def test_the_fit_does_not_depend_on_the_order_of_the_rows():
    rng = np.random.default_rng(5)
    y, base, groups, score = random_rows(rng, 3, 6)
    X = np.column_stack([base, score])
    order = rng.permutation(len(y))
    for scores in (False, True):
        one, two = (RelationImpactClassifier(base_estimator=Table(), scores=scores)
                    .fit(X[rows], y[rows], groups[rows])
                    for rows in (np.arange(len(y)), order))
        fitted = "thresholds_" if scores else "mixing_"
        pd.testing.assert_frame_equal(getattr(one, fitted), getattr(two, fitted))
