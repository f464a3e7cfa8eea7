"""One small example of every public result of skyprivacy, made by the public function that
returns it: the display tests (tests/_core/test_display.py) check each one's repr and HTML,
and tests/display_results.ipynb shows them all in a notebook.

A table whose cells hold markup (``<script>``) runs through every result that shows cells, so
the HTML is tested for escaping on real results.  :func:`huge_examples` makes the results
whose table grows with the data at a size where a repr that listed it would run to megabytes.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd

MARKUP = "<script>alert(1)</script>"


def adult_like(n: int = 60, *, n_values: int = 4, seed: int = 0) -> pd.DataFrame:
    """A released table: two QI columns and a sensitive column, one value holding markup."""
    rng = np.random.default_rng(seed)
    values = [MARKUP] + [f"v{i}" for i in range(1, n_values)]
    return pd.DataFrame({"zip": rng.choice(["130**", "148**"], n),
                         "age": rng.choice(["<30", ">=30"], n),
                         "disease": rng.choice(values, n)})


def _decision_table():
    from skyprivacy.transparency import DecisionTable
    df = pd.DataFrame({"gender": ["F", "F", "M", "M", "M", "F"],
                       "income": ["lo", "hi", "lo", "hi", "mid", "mid"],
                       "pop": [12, 5, 3, 9, 7, 4], "d": [0, 0, 1, 0, 0.5, 1]})
    return DecisionTable.from_frame(df, public="gender", sensitive="income", weight="pop",
                                    decision="d")


def _release(table=None):
    from skyprivacy import ReleaseCandidate
    table = adult_like() if table is None else table
    return ReleaseCandidate.from_table(table, sensitive="disease", qi=["zip", "age"])


def _policy(c=0.5):
    from skyprivacy import Policy
    return Policy.uniform([(1, 1, 0, c)])


def _hierarchies():
    from skyprivacy.hierarchy import masking
    return {"zip": masking(["13053", "13068", "14850", "14853"]),
            "age": masking(["23", "27", "35", "41"])}


def _raw(n: int = 80) -> pd.DataFrame:
    rng = np.random.default_rng(1)
    return pd.DataFrame({"zip": rng.choice(["13053", "13068", "14850", "14853"], n),
                         "age": rng.choice(["23", "27", "35", "41"], n),
                         "disease": rng.choice([MARKUP, "flu", "cold", "aids"], n)})


def _oracle(a):
    from skyprivacy.fairness_queries import AttributeConceal, ComplianceOracle
    return ComplianceOracle(a, mechanism=AttributeConceal(epsilon=math.inf, noise=None))


def examples() -> dict:
    """{result class: a function making one instance}, every public result."""
    import skyprivacy as sp
    from skyprivacy import anonymize, baselines, criteria, risk, transparency, utility
    from skyprivacy import fairness_queries as fq
    from skyprivacy.certificate import build_certificate, verify_certificate

    def anonymization():
        return sp.skyline_anonymize(_raw(), qi=["zip", "age"], sensitive="disease",
                                    policy=_policy(0.9), hierarchies=_hierarchies())

    def k_anonymization():
        return sp.k_anonymize(_raw(), qi=["zip", "age"], k=3, hierarchies=_hierarchies(),
                              keep="disease")

    def lattice():
        return anonymize.anonymize(_raw(), qi=["zip", "age"], sensitive="disease",
                                   criteria=[criteria.KAnonymity(k=2)], method="full-domain",
                                   hierarchies=_hierarchies())

    def verification():
        table = adult_like()
        certificate = build_certificate(table, _policy(), sensitive="disease",
                                        qi=["zip", "age"], created="2026-01-01T00:00:00Z")
        edited = table.copy()
        edited.loc[0, "disease"] = "v1" if edited.loc[0, "disease"] != "v1" else "v2"
        return verify_certificate(edited, certificate)

    def criterion():
        return criteria.KAnonymity(k=50).evaluate(_release())

    def accuracy():
        table = adult_like(120)
        return utility.classification_accuracy(table, target="disease", cv=2,
                                               random_state=0)

    def comparison():
        return sp.compare_l_diversity(_raw(), qi=["zip", "age"], sensitive="disease",
                                      diversity_c=2, l=2, c=0.9, hierarchies=_hierarchies())

    def attack():
        return fq.flip_reveal(_oracle([1, 0, 1, 1, 0, 1]), [0.2, 0.9, 0.4, 0.1, 0.6, 0.3])

    def bias_release():
        mech = fq.AttributeConceal(epsilon=5.0, random_state=0)
        return mech.answer([[0.5] * 100, [1.0] * 50 + [0.0] * 50], [1] * 90 + [0] * 10)

    table = _decision_table
    from skyprivacy.experimental import group_tagging as gt

    def quietly(make):
        def made():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return make()
        return made

    people = pd.DataFrame({"id": range(8), "sex": list("FFFFMMMM"),
                           "maths": [90, 80, 70, 60, 50, 40, 30, 20],
                           "city": [MARKUP] + list("bcdabcd"), "age": [20, 30, 40, 50] * 2,
                           "eligible": [1, 1, 1, 0, 1, 0, 0, 0], "month": [1, 2] * 4})

    def fairness():
        rule = table()
        return transparency.fairness_report(
            rule, transparency.optimal_privacy(rule, transparency.Delta(0.9)),
            protected="gender")

    return {
        sp.SkylineCheckResult: lambda: sp.skyline_check(_release(), _policy()),
        sp.KnowledgeSkyline: lambda: sp.skyline_find(_release(), MARKUP, c=0.5),
        sp.KnowledgeSkylines: lambda: sp.skyline_find_all(_release(), c=0.5),
        sp.AnonymizationResult: anonymization,
        sp.KAnonymizationResult: k_anonymization,
        sp.AnonymizeResult: lattice,
        sp.LDiversityComparison: comparison,
        sp.UtilityReport: lambda: utility.utility_report(_release()),
        utility.ClassificationAccuracy: accuracy,
        utility.UtilityMeasures: lambda: utility.utility_measures(
            lattice(), table=_raw(), qi=["zip", "age"], hierarchies=_hierarchies()),
        utility.GeneralizationLoss: lambda: utility.generalization_loss(
            _raw(), lattice().table, qi=["zip", "age"], hierarchies=_hierarchies()),
        baselines.CKSafetyResult: lambda: baselines.ck_safety(_release(), c=0.9, k=2),
        sp.certificate.Verification: verification,
        criteria.CriterionResult: criterion,
        baselines.KAnonymityResult: lambda: baselines.k_anonymity(_release(), k=50),
        baselines.DistinctLDiversityResult:
            lambda: baselines.distinct_l_diversity(_release(), l=2),
        baselines.EntropyLDiversityResult:
            lambda: baselines.entropy_l_diversity(_release(), l=2),
        baselines.RecursiveCLDiversityResult:
            lambda: baselines.recursive_cl_diversity(_release(), diversity_c=2, l=2),
        baselines.TClosenessResult: lambda: baselines.t_closeness(_release(), t=0.1),
        risk.ClassSizes: lambda: risk.class_sizes(adult_like(), qi=["zip", "age"]),
        risk.ProsecutorRisk: lambda: risk.prosecutor_risk(adult_like(), qi=["zip", "disease"]),
        risk.JournalistRisk: lambda: risk.journalist_risk(adult_like(), qi=["zip", "age"],
                                                          population_size=1000),
        risk.PopulationUniqueness:
            lambda: risk.population_uniqueness(adult_like(), qi=["zip", "disease"],
                                               population_size=1000),
        risk.AttributeRisk: lambda: risk.attribute_risk(adult_like(), qi=["zip", "disease"]),
        risk.IdentityRisk: lambda: risk.identity_risk(adult_like(), qi=["zip", "disease"]),
        transparency.MaxConfidence: lambda: transparency.max_confidence(table()),
        transparency.BetaCheck: lambda: transparency.satisfies_beta(table(), beta=0.5),
        transparency.OptimalPrivacy:
            lambda: transparency.optimal_privacy(table(), transparency.Delta(0.9)),
        transparency.FairnessReport: fairness,
        transparency.FidelityBounds:
            lambda: transparency.fidelity_bounds(table(), transparency.Delta(0.6)),
        transparency.TradeoffRegion: lambda: transparency.tradeoff_region(table()),
        transparency.TradeoffCurve: lambda: transparency.tradeoff_curve(table(), [0, 0.5, 1]),
        transparency.MaxFidelity: lambda: transparency.max_fidelity_for_beta(table(), beta=0.9),
        transparency.FixedBeta:
            lambda: transparency.feasible_at_beta(table(), transparency.Delta(0.6), beta=0.5),
        fq.AttackResult: attack,
        fq.TargetResult: lambda: fq.single_query_reveal(_oracle([1] * 15 + [0] * 5), 17),
        fq.GroupSizeEstimate: lambda: fq.estimate_group_sizes(_oracle([1] * 7 + [0] * 3)),
        fq.BiasQueryRelease: bias_release,
        fq.ReleaseAudit: lambda: bias_release().audit,
        fq.GroupSizes: lambda: fq.group_sizes([1, 1, 1, 1, 1, 0, 0, 0],
                                              [1, 0, 1, 1, 0, 1, 0, 1]),
        gt.GroupErrorRates: lambda: gt.group_error_rates([1, 0, 1, 0], [1, 1, 1, 0],
                                                         [MARKUP, MARKUP, "M", "M"]),
        gt.CountRelease: lambda: gt.count_report(
            people, spec=gt.QuerySpec("count", ["eligible"], None), epsilon=1.0,
            periods="month", random_state=0),
        gt.FisPlan: lambda: gt.plan_fis(people, tag="sex", anchored=["id", "maths"], S=2,
                                        batches=2, random_state=0),
        gt.LinkageRates: quietly(lambda: gt.empirical_relinkage_rate(gt.fis_shuffle(
            pd.DataFrame({"sex": ["F"] * 50, "a": range(50), "b": range(50)}), tag="sex",
            anchored=[], S=2, batch_size=5, random_state=0).plan)),
        gt.RelatedAttributes: lambda: gt.select_related_attributes(
            people[["sex", "maths", "age", "eligible"]], target="eligible", exclude=["sex"]),
        gt.FisConfigSelection: quietly(lambda: gt.select_fis_config(
            people[["sex", "maths", "age"]],
            [gt.QuerySpec("count", ["maths"], None, predicate=lambda r: r["maths"] > 50)],
            [{"S": 2, "batches": 1}, {"S": 2, "batches": 2}], tag="sex", anchored=[],
            n_draws=1, random_state=0)),
    }


def many_skylines(n: int):
    """The knowledge skylines of ``n`` values (one small release's skylines, repeated under
    new names: finding 20,000 real ones takes minutes)."""
    import dataclasses

    import skyprivacy as sp

    small = sp.skyline_find_all(_release(), c=0.5)
    skylines, worst, baseline = [], {}, {}
    for i in range(n):
        skyline = small.skylines[i % len(small.skylines)]
        value = f"{skyline.value}#{i}"
        skylines.append(dataclasses.replace(skyline, value=value))
        worst[value] = small.worst_cases[skyline.value]
        baseline[value] = small.baseline_risk[skyline.value]
    return sp.KnowledgeSkylines(small.c, tuple(skylines), worst, baseline)


def huge_examples() -> dict:
    """Results whose table grows with the data, at a size a listing repr could not hide:
    20,000 sensitive values, 50,000 rows."""
    import skyprivacy as sp
    from skyprivacy import baselines, risk

    rng = np.random.default_rng(7)
    n = 50_000
    values = np.concatenate([np.arange(20_000), rng.integers(0, 20_000, n - 20_000)])
    big = pd.DataFrame({"zip": rng.integers(0, 400, n).astype(str),
                        "age": rng.integers(0, 90, n).astype(str),
                        "disease": [f"{MARKUP}{v}" for v in values]})
    release = sp.ReleaseCandidate.from_table(big, sensitive="disease", qi=["zip"])
    return {
        sp.SkylineCheckResult: lambda: sp.skyline_check(release, sp.Policy.uniform(
            [(0, 1, 0, 0.01)])),
        sp.KnowledgeSkylines: lambda: many_skylines(20_000),
        baselines.KAnonymityResult: lambda: baselines.k_anonymity(release, k=2),
        risk.ClassSizes: lambda: risk.class_sizes(big, qi=["zip", "age", "disease"]),
        risk.AttributeRisk: lambda: risk.attribute_risk(big, qi=["zip", "age", "disease"]),
    }
