"""Group tagging and FIS on UCI Adult: what they do to the risks skyprivacy measures.

Runs the pipeline of Sengupta and Mishra ("Fairly Private Through Group Tagging and Relation
Impact", as read by spec group-tagging) on the bundled Adult data, tagged by sex, and measures

(a) the re-linkage rate of the shuffled rows (provenance), against the closed form;
(b) SkylineCheck and the knowledge skylines of the shuffled release against the original,
    for the same quasi-identifiers and sensitive attribute;
(c) per-sex error rates of the base classifier and of the Relation-Impact classifier, and
    that the classifier's output is the same on the shuffled table;
(d) the error of the differentially private ``count_report`` at several epsilon, beside the
    count FIS releases (exact).

Usage::

    python examples/group_tagging_adult.py            # full Adult (45,222 rows), ~15 s
    python examples/group_tagging_adult.py --quick    # an 8,000-row sample, a few seconds
    python examples/group_tagging_adult.py --json out.json

The figures of docs/group_tagging.md come from the full run.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings

import numpy as np
import pandas as pd

import skyprivacy as sp
from skyprivacy.datasets import load_adult
from skyprivacy.errors import NotDifferentiallyPrivateWarning
from skyprivacy.experimental.group_tagging import (QuerySpec, RelationImpactClassifier,
                                                   count_report, empirical_relinkage_rate,
                                                   fis_shuffle, group_error_rates,
                                                   one_hot_encode, paper_fis_epsilon,
                                                   row_return_probability,
                                                   select_related_attributes)

SEED = 2024
BATCH_SIZE = 100
S = 2
EPSILONS = (0.01, 0.1, 1.0, 10.0)
POLICY = sp.Policy({"Exec-managerial": [(4, 10, 4, 0.9)]}, default=[(1, 5, 1, 0.9)])
C = 0.9  # confidence of the knowledge skylines
# (b) two views of the same release: QIs and sensitive value both shuffled, and both anchored
CHECKS = {"shuffled": (["age", "race", "sex"], "occupation"),
          "anchored": (["marital-status", "relationship", "sex"], "education-num")}


def adult_table(quick: bool) -> pd.DataFrame:
    """Adult with an ID and a 0/1 decision column; 'education' (a copy of education-num) and
    'fnlwgt' (a sampling weight) are dropped."""
    adult = load_adult()
    if quick:
        adult = adult.sample(n=8000, random_state=SEED).reset_index(drop=True)
    table = adult.drop(columns=["education", "fnlwgt", "income"])
    table.insert(0, "id", np.arange(len(table)))
    table["high_income"] = (adult["income"] == ">50K").astype(np.int64).to_numpy()
    return table


def related_attributes(table: pd.DataFrame) -> dict:
    """Q = {education-num} (the decision query), B = related attributes of high_income."""
    query = QuerySpec("decision", ["education-num"], "sex", target="high_income")
    at_paper = select_related_attributes(table, target="high_income", exclude=["id", "sex"])
    lowered = select_related_attributes(table, target="high_income", exclude=["id", "sex"],
                                        threshold=0.3)
    background = [a for a in lowered.selected if a not in query.attributes]
    top = sorted(lowered.scores.items(), key=lambda kv: -abs(kv[1]))[:5]
    return {"query": list(query.returned), "selected_at_0.5": list(at_paper.selected),
            "selected_at_0.3": list(lowered.selected), "background": background,
            "top_scores": {a: round(s, 4) for a, s in top}}


def shuffle(table: pd.DataFrame, anchored: list, batch_size: int):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotDifferentiallyPrivateWarning)
        return fis_shuffle(table, tag="sex", anchored=anchored, S=S, batch_size=batch_size,
                           random_state=SEED)


def relinkage(table: pd.DataFrame, anchored: list) -> dict:
    """Provenance re-linkage, and how often a row's released occupation is its own value
    (what an attacker who finds the row by its anchored columns reads), against guessing the
    most common occupation of the row's sex."""
    shares = table.groupby("sex")["occupation"].value_counts(normalize=True)
    guess = float(table["sex"].map(shares.groupby(level=0).max()).mean())
    out = {"guess_most_common_occupation": round(guess, 4)}
    for b in (5, 20, BATCH_SIZE):
        shuffled, plan = shuffle(table, anchored, b)
        measured = empirical_relinkage_rate(plan)
        expected = row_return_probability(b, S=S)
        out[str(b)] = {"any_group": round(measured.any_group, 5),
                       "all_groups": round(measured.all_groups, 5),
                       "expected_any_group": round(expected.any_group, 5),
                       "expected_all_groups": round(expected.all_groups, 5),
                       "occupation_correct": round(float(
                           (shuffled["occupation"] == table["occupation"]).mean()), 4)}
    return out


def release_risks(frame: pd.DataFrame, qi: list, sensitive: str) -> dict:
    levels = {"age": 2} if "age" in qi else {}
    if levels:
        hierarchies = {"age": sp.load_adult_hierarchies()["age"]}
        frame = sp.generalize_frame(frame, hierarchies=hierarchies, levels=levels)
    release = sp.ReleaseCandidate.from_table(frame, qi=qi, sensitive=sensitive)
    check = sp.skyline_check(release, POLICY if sensitive == "occupation"
                             else sp.Policy({}, default=[(1, 5, 1, 0.9)]))
    rows = check.to_frame()
    skylines = sp.skyline_find_all(release, c=C).summary()
    exposure = [e for e in skylines["exposure"].tolist() if e is not None and not pd.isna(e)]
    return {"safe": bool(check.safe), "violations": int((~rows["safe"]).sum()),
            "checks": int(len(rows)), "groups": int(release.n_groups),
            "max_breach_probability": round(float(rows["breach_probability"].max()), 6),
            "values_breached_without_knowledge": sum(1 for e in exposure if e == 0),
            "values_never_breached": int(len(skylines) - len(exposure)),
            "mean_exposure": round(float(np.mean(exposure)), 4) if exposure else None,
            "least_breaching_knowledge": {str(v): list(k) for v, k in zip(
                skylines["value"], skylines["least_breaching_knowledge"])}}


def base_estimator():
    """Logistic regression fitted to its optimum.  With the default lbfgs and tol=1e-4 the fit
    on these one-hot columns (collinear with the intercept) stops early at a point that moves
    with the numpy and scipy versions (between two installs, a coefficient 0.66 apart and four
    feature cells changing label); Newton-Cholesky reaches the penalised optimum, the same to
    about 1e-14 across versions, so the figures depend on the data alone."""
    from sklearn.linear_model import LogisticRegression
    return LogisticRegression(solver="newton-cholesky", tol=1e-10, max_iter=1000)


def fairness(table: pd.DataFrame, shuffled: pd.DataFrame, anchored_features: list) -> dict:
    rng = np.random.default_rng(SEED)
    train = np.zeros(len(table), dtype=bool)
    train[rng.permutation(len(table))[: int(0.7 * len(table))]] = True
    encoded, _ = one_hot_encode(table[anchored_features],
                                columns=["marital-status", "relationship"])
    encoded_fis, _ = one_hot_encode(shuffled[anchored_features],
                                    columns=["marital-status", "relationship"])
    y, groups = table["high_income"].to_numpy(), table["sex"].to_numpy()
    clf = RelationImpactClassifier(base_estimator=base_estimator(), random_state=SEED).fit(
        encoded[train], y[train], groups[train])
    test = ~train
    by_score = RelationImpactClassifier(base_estimator=base_estimator(), scores=True,
                                        random_state=SEED).fit(encoded[train], y[train],
                                                               groups[train])
    base = clf.estimators_[None].predict(encoded[test])
    fair = clf.predict_proba(encoded[test], groups[test])  # expected rates of the randomized rule
    same = bool(np.array_equal(clf.predict(encoded, groups),
                               clf.predict(encoded_fis, shuffled["sex"].to_numpy())))

    def rates(pred):
        r = group_error_rates(y[test], pred, groups[test])
        return {"fpr": dict(zip(r.groups, (round(v, 4) for v in r.fpr))),
                "fnr": dict(zip(r.groups, (round(v, 4) for v in r.fnr))),
                "fpr_gap": round(r.fpr_gap, 4), "fnr_gap": round(r.fnr_gap, 4),
                "error": round(r.overall_error, 4)}

    train_rates = clf.group_rates_
    return {"base": rates(base), "relation_impact": rates(fair),
            "relation_impact_scores": rates(by_score.predict_proba(encoded[test],
                                                                   groups[test])),
            "relation_impact_train": {"fpr_gap": round(train_rates.fpr_gap, 6),
                                      "fnr_gap": round(train_rates.fnr_gap, 6),
                                      "error": round(train_rates.overall_error, 4)},
            "mixing": {g: [round(p, 4) for p in row] for g, row in
                       zip(clf.mixing_.index, clf.mixing_.to_numpy().tolist())},
            "same_predictions_on_fis_table": same}


def counts(table: pd.DataFrame, shuffled: pd.DataFrame, draws: int) -> dict:
    spec = QuerySpec("count", ["high_income"], None)
    truth = int(table["high_income"].sum())
    rng = np.random.default_rng(SEED)
    errors = {}
    for eps in EPSILONS:
        released = np.array([count_report(table, spec=spec, epsilon=eps,
                                          random_state=rng).values[0] for _ in range(draws)])
        errors[str(eps)] = {"mean_abs_error": round(float(np.mean(np.abs(released - truth))), 3),
                            "expected": round(1.0 / eps, 3),
                            "relative_error": round(float(np.mean(np.abs(released - truth)))
                                                    / truth, 6)}
    cross = ((table["occupation"] == "Exec-managerial") & (table["high_income"] == 1)).sum()
    cross_fis = ((shuffled["occupation"] == "Exec-managerial")
                 & (shuffled["high_income"] == 1)).sum()
    return {"true_count": truth, "fis_count": int(shuffled["high_income"].sum()),
            "laplace": errors, "draws": draws,
            "exec_and_high_income": {"original": int(cross), "fis": int(cross_fis)}}


def run(quick: bool) -> dict:
    table = adult_table(quick)
    related = related_attributes(table)
    anchored = ["id", "high_income"] + related["query"] + related["background"]
    anchored = list(dict.fromkeys(a for a in anchored if a != "sex"))
    shuffled, plan = shuffle(table, anchored, BATCH_SIZE)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotDifferentiallyPrivateWarning)
        budget = paper_fis_epsilon(plan.t, plan.batch_sizes, S=plan.S)
    result = {
        "quick": quick, "rows": len(table), "seed": SEED, "batch_size": BATCH_SIZE, "S": S,
        "related": related, "anchored": plan.anchored,
        "attribute_groups": [list(g) for g in plan.attribute_groups],
        "batches": dict(zip(plan.classes, plan.t)),
        "paper_epsilon": round(budget.epsilon, 4), "paper_is_dp_guarantee": False,
        "relinkage": relinkage(table, anchored),
        "risks": {name: {"qi": qi, "sensitive": sensitive,
                         "original": release_risks(table, qi, sensitive),
                         "fis": release_risks(shuffled, qi, sensitive)}
                  for name, (qi, sensitive) in CHECKS.items()},
        "fairness": fairness(table, shuffled, ["education-num", "marital-status",
                                                "relationship"]),
        "counts": counts(table, shuffled, draws=50 if quick else 400),
    }
    return result


def report(result: dict) -> str:
    lines = [f"Adult, {result['rows']} rows, tagged by sex; FIS with S = {result['S']}, "
             f"batch size {result['batch_size']} (batches {result['batches']}).",
             f"Related to high_income: none above |r| > 0.5; above 0.3: "
             f"{result['related']['selected_at_0.3']} (top {result['related']['top_scores']}).",
             f"Anchored: {list(result['anchored'])}; attribute groups: "
             f"{result['attribute_groups']}.",
             f"The paper's epsilon (eq. (3)): {result['paper_epsilon']} - not a DP budget.",
             "(a) re-linkage by provenance (measured vs closed form):"]
    for b, r in result["relinkage"].items():
        if b == "guess_most_common_occupation":
            continue
        lines.append(f"    b = {b:>3}: some group home {r['any_group']:.4f} "
                     f"(expected {r['expected_any_group']:.4f}); whole row home "
                     f"{r['all_groups']:.5f} (expected {r['expected_all_groups']:.5f}); "
                     f"released occupation correct {r['occupation_correct']:.4f}")
    lines.append(f"    (guessing the most common occupation of the row's sex: "
                 f"{result['relinkage']['guess_most_common_occupation']:.4f}; without FIS: 1)")
    lines.append("(b) SkylineCheck and knowledge skylines, original -> FIS:")
    for name, r in result["risks"].items():
        o, f = r["original"], r["fis"]
        lines.append(f"    {name} (QI {r['qi']}, sensitive {r['sensitive']!r}): violations "
                     f"{o['violations']}/{o['checks']} -> {f['violations']}/{f['checks']}; "
                     f"max breach {o['max_breach_probability']} -> "
                     f"{f['max_breach_probability']}; values breached with no knowledge "
                     f"{o['values_breached_without_knowledge']} -> "
                     f"{f['values_breached_without_knowledge']}; mean exposure "
                     f"{o['mean_exposure']} -> {f['mean_exposure']}; QI-groups "
                     f"{o['groups']} -> {f['groups']}")
    fair = result["fairness"]
    for key in ("base", "relation_impact", "relation_impact_scores"):
        r = fair[key]
        lines.append(f"(c) {key} (test set): FPR {r['fpr']} FNR {r['fnr']} (gaps "
                     f"{r['fpr_gap']}, {r['fnr_gap']}), error {r['error']}")
    train = fair["relation_impact_train"]
    lines.append(f"    relation_impact on the training rows: gaps {train['fpr_gap']}, "
                 f"{train['fnr_gap']}, error {train['error']}")
    lines.append(f"    same predictions on the FIS table: {fair['same_predictions_on_fis_table']}")
    c = result["counts"]
    lines.append(f"(d) high_income count {c['true_count']}; FIS releases {c['fis_count']} "
                 "(exact: no noise, no protection); count_report mean |error| over "
                 f"{c['draws']} draws:")
    for eps, r in c["laplace"].items():
        lines.append(f"    epsilon {eps:>5}: {r['mean_abs_error']} (expected {r['expected']})")
    lines.append(f"    Exec-managerial & high_income (a cross-unit conjunction): "
                 f"{c['exec_and_high_income']['original']} -> {c['exec_and_high_income']['fis']}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="an 8,000-row sample")
    parser.add_argument("--json", help="write the figures to this JSON file")
    args = parser.parse_args(argv)
    result = run(args.quick)
    print(report(result))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(result, handle, indent=2, sort_keys=True, default=str)
            handle.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
