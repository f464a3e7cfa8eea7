"""Mondrian under combined criteria and a suppression budget (skyprivacy.anonymize,
method='mondrian'; the rules of skyprivacy.anonymize.rules.CriteriaRule).

Every released table is re-checked from the released rows alone, by code written here from the
definitions (k, distinct l, the masked group's QIs), by the criteria's own evaluate on the
model rebuilt from the released table, and, for the skyline, by the brute-force oracle."""

from __future__ import annotations

import math
import random
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from skyprivacy.anonymize.api import anonymize
from skyprivacy.criteria import (
    AverageRisk,
    BetaLikeness,
    DeltaDisclosure,
    DistinctLDiversity,
    EntropyLDiversity,
    KAnonymity,
    PopulationUniqueness,
    ProsecutorRisk,
    RecursiveCLDiversity,
    TCloseness,
)
from skyprivacy.errors import InfeasibleError
from skyprivacy.hierarchy import Hierarchy
from skyprivacy.knowledge import Policy
from skyprivacy.release import ReleaseCandidate

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracle import breach_grid  # noqa: E402


def random_table(rng: random.Random, n_min: int = 8, n_max: int = 40) -> pd.DataFrame:
    n = rng.randint(n_min, n_max)
    values = ["x", "y", "z", "w"][:rng.randint(2, 4)]
    return pd.DataFrame({
        "age": [rng.randint(20, 60) for _ in range(n)],
        "zip": [rng.choice(["a1", "a2", "b1", "b2", "c1"]) for _ in range(n)],
        "sex": [rng.choice(["F", "M"]) for _ in range(n)],
        "s": [rng.choice(values) for _ in range(n)],
    })


ZIP = Hierarchy([["a1", "a", "*"], ["a2", "a", "*"], ["b1", "b", "*"], ["b2", "b", "*"],
                 ["c1", "c", "*"]], name="zip")

COMBINATIONS = [
    lambda: [KAnonymity(2)],
    lambda: [KAnonymity(3)],
    lambda: [KAnonymity(2), DistinctLDiversity(2)],
    lambda: [DistinctLDiversity(2)],
    lambda: [EntropyLDiversity(Fraction(3, 2))],
    lambda: [KAnonymity(2), RecursiveCLDiversity(3, 2)],
    lambda: [KAnonymity(2), TCloseness(Fraction(2, 5))],
    lambda: [TCloseness(Fraction(1, 3), distance="ordered")],
    lambda: [KAnonymity(2), BetaLikeness(2)],
    lambda: [KAnonymity(3), DeltaDisclosure(2)],
    lambda: [ProsecutorRisk(Fraction(1, 3))],
    lambda: [KAnonymity(2), AverageRisk(Fraction(1, 4))],
    lambda: [KAnonymity(2), PopulationUniqueness(Fraction(1, 5), population_size=500)],
]


def recheck(released: pd.DataFrame, criteria: list, qi: list) -> None:
    """Every criterion on the released table, rebuilt from its rows; k and distinct l also
    from a plain group-by."""
    candidate = ReleaseCandidate.from_table(released, qi=qi, sensitive="s")
    for criterion in criteria:
        assert criterion.evaluate(candidate).safe, criterion
    groups = released.groupby(qi, sort=False)["s"]
    for criterion in criteria:
        if isinstance(criterion, KAnonymity):
            assert groups.size().min() >= criterion.k
        if isinstance(criterion, DistinctLDiversity):
            assert groups.nunique().min() >= criterion.l


def skyline_safe_by_oracle(released: pd.DataFrame, qi, point) -> bool:
    l, k, m, c = point
    groups = [(len(rows), list(rows["s"])) for _, rows in released.groupby(qi, sort=False)]
    values = sorted(set(released["s"]))
    return all(breach_grid(groups, sigma, "svpi", l, k, m)[(l, k, m)] < c for sigma in values)


def test_random_tables_every_release_passes_and_the_budget_holds():
    """260 random tables over 13 combinations of criteria, each without suppression and with
    a budget of 0-20% (drop or mask): the budget is never exceeded, the released table
    passes every criterion, the caller's table is unchanged."""
    rng = random.Random("mondrian-criteria")
    qi = ["age", "zip", "sex"]
    checked = suppressing = infeasible = 0
    for case in range(260):
        table = random_table(rng)
        before = table.copy()
        criteria = COMBINATIONS[case % len(COMBINATIONS)]()
        limit = 0.0 if case % 2 == 0 else rng.choice([0.05, 0.1, 0.2])
        suppressed = rng.choice(["drop", "mask"])
        split = rng.choice(["infogain", "widest", "loss"])
        try:
            result = anonymize(table, qi=qi, sensitive="s", criteria=criteria,
                               suppression_limit=limit, suppressed=suppressed,
                               hierarchies={"zip": ZIP}, split=split)
        except InfeasibleError as error:
            assert str(error).startswith("Even the whole table as one group fails")
            infeasible += 1
            continue
        pd.testing.assert_frame_equal(table, before)
        budget = math.floor(Fraction(limit).limit_denominator(100) * len(table))
        assert 0 <= result.suppressed <= budget
        if suppressed == "drop":
            assert len(result.table) == len(table) - result.suppressed
            assert set(result.table.index) <= set(table.index)
        else:
            assert len(result.table) == len(table)
            masked = (result.table[qi] == "*").all(axis=1)
            assert int(masked.sum()) >= result.suppressed
        kept = result.table.index
        pd.testing.assert_series_equal(result.table["s"], table.loc[kept, "s"])
        recheck(result.table, criteria, qi)
        assert result.candidate == ReleaseCandidate.from_table(result.table, qi=qi,
                                                               sensitive="s")
        checked += 1
        suppressing += result.suppressed > 0
    assert checked >= 200 and suppressing >= 20 and checked + infeasible == 260


def test_skyline_with_k_and_suppression_against_the_brute_force_oracle():
    rng = random.Random("mondrian-skyline")
    qi = ["age", "zip", "sex"]
    checked = 0
    for case in range(40):
        table = random_table(rng, 4, 6)
        point = rng.choice([(0, 0, 0, Fraction(9, 10)), (1, 0, 0, Fraction(19, 20)),
                            (0, 1, 0, Fraction(9, 10))])
        criteria = [Policy.uniform([point]), KAnonymity(2)]
        if case % 3 == 0:
            criteria.append(DistinctLDiversity(2))
        limit = rng.choice([0.0, 0.25])
        try:
            result = anonymize(table, qi=qi, sensitive="s", criteria=criteria,
                               suppression_limit=limit, hierarchies={"zip": ZIP})
        except InfeasibleError:
            continue
        assert result.suppressed <= int(limit * len(table))
        assert skyline_safe_by_oracle(result.table, qi, point)
        recheck(result.table, criteria[1:], qi)
        checked += 1
    assert checked >= 20


def outlier_table() -> pd.DataFrame:
    """Ten rows aged 20-29 and ten aged 50-59, all 'F', and one 'M' aged 25: at k = 5 the
    sex split fails only because of the one 'M'."""
    ages = list(range(20, 30)) + list(range(50, 60)) + [25]
    return pd.DataFrame({"age": ages, "sex": ["F"] * 20 + ["M"],
                         "s": ["x", "y"] * 10 + ["x"]})


def test_suppression_buys_the_split_a_few_outliers_block():
    table = outlier_table()
    plain = anonymize(table, qi=["age", "sex"], sensitive="s", criteria=[KAnonymity(5)],
                      split="widest")
    bought = anonymize(table, qi=["age", "sex"], sensitive="s", criteria=[KAnonymity(5)],
                       split="widest", suppression_limit=0.05)
    assert plain.suppressed == 0 and bought.suppressed == 1
    assert 20 not in bought.table.index  # the outlier row is the one dropped
    assert bought.table["sex"].tolist() == ["F"] * 20
    assert sorted(np.unique(bought.candidate.sizes_array)) == [5]
    assert (bought.candidate.sizes_array ** 2).sum() < (plain.candidate.sizes_array ** 2).sum()


def test_a_masked_group_that_would_be_unsafe_is_never_released():
    """One outlier under mask: its masked group of one row breaks k = 5, so the search runs
    again with less budget (none), and the release keeps every row generalized."""
    table = outlier_table()
    result = anonymize(table, qi=["age", "sex"], sensitive="s", criteria=[KAnonymity(5)],
                       split="widest", suppression_limit=0.05, suppressed="mask")
    assert result.suppressed == 0
    assert ReleaseCandidate.from_table(result.table, qi=["age", "sex"],
                                       sensitive="s").sizes_array.min() >= 5


def test_masked_rows_form_one_group_with_every_qi_starred():
    rng = np.random.default_rng(7)
    table = pd.DataFrame({"age": rng.integers(20, 70, 300), "sex": rng.choice(["F", "M"], 300),
                          "s": rng.choice(["x", "y", "z"], 300)})
    result = anonymize(table, qi=["age", "sex"], sensitive="s",
                       criteria=[KAnonymity(4), DistinctLDiversity(2)], split="loss",
                       suppression_limit=0.05, suppressed="mask")
    assert 0 < result.suppressed <= 15
    masked = result.table[(result.table[["age", "sex"]] == "*").all(axis=1)]
    assert len(masked) == result.suppressed
    assert len(masked) >= 4 and masked["s"].nunique() >= 2


def test_l_diversity_under_suppression_is_handled_though_not_monotone():
    """DistinctLDiversity declares no monotonicity with suppression (dropping rows moves
    what stays); Mondrian never prunes on it: every release is re-checked as it is."""
    assert not DistinctLDiversity(2).is_monotone(suppression=True)
    table = pd.DataFrame({"age": [20, 21, 22, 23, 40, 41, 42, 43, 44],
                          "s": ["x", "y", "x", "y", "x", "x", "x", "x", "y"]})
    result = anonymize(table, qi="age", sensitive="s", criteria=[DistinctLDiversity(2)],
                       suppression_limit=Fraction(2, 9), split="widest")
    recheck(result.table, [DistinctLDiversity(2)], ["age"])
    assert result.suppressed <= 2


def test_population_uniqueness_is_kept_level_by_level():
    """A model estimate, not declared monotone: each level's splits are kept only while the
    release they make passes, so the last one does."""
    rng = np.random.default_rng(3)
    table = pd.DataFrame({"age": rng.integers(0, 5000, 400), "s": rng.choice(["x", "y"], 400)})
    criterion = PopulationUniqueness(Fraction(1, 20), population_size=1000)
    assert not criterion.is_monotone()
    result = anonymize(table, qi="age", sensitive="s", criteria=[criterion])
    assert criterion.evaluate(result.candidate).safe
    free = anonymize(table, qi="age", sensitive="s", criteria=[KAnonymity(1)])
    assert not criterion.evaluate(free.candidate).safe  # the criterion did stop splits
    assert result.candidate.n_groups < free.candidate.n_groups


def test_infeasible_criteria_name_what_the_whole_table_fails():
    table = pd.DataFrame({"age": [1, 2, 3], "s": ["x", "x", "y"]})
    with pytest.raises(InfeasibleError, match=r"^Even the whole table as one group fails "
                       r"DistinctLDiversity\(l=3\): no generalization can satisfy the "
                       r"criteria.$"):
        anonymize(table, qi="age", sensitive="s", criteria=[KAnonymity(2),
                                                            DistinctLDiversity(3)])
