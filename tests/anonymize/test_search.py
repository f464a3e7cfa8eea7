"""The strategy (skyprivacy/anonymize/search.py): the one level loop over any source, the
feasibility premise, and the error that says what the whole table withstands."""
import re

import numpy as np
import pandas as pd
import pytest

from skyprivacy import InfeasibleError, Policy, k_anonymize, skyline_anonymize
from skyprivacy.anonymize.encoders import NumericQI
from skyprivacy.anonymize.rules import PolicyPlan, Rules
from skyprivacy.anonymize.search import check_feasible, mondrian
from skyprivacy.anonymize.source import MemorySource


def ages_source(ages, values):
    attr = NumericQI("age", pd.Series(ages))
    codes, uniques = np.unique(values, return_inverse=True)[1], sorted(set(values))
    return MemorySource([attr], attr.codes[:, None], np.arange(len(ages)), codes, uniques,
                        "svpi")


def test_the_loop_splits_level_by_level_and_numbers_groups_as_they_finish():
    ages = [21, 22, 23, 24, 31, 33, 35, 38]
    values = ["flu", "aids", "flu", "cold", "flu", "cold", "aids", "cold"]
    source = ages_source(ages, values)
    policy = Policy.uniform([(0, 1, 0, 0.8)])
    rules = Rules(PolicyPlan.build(policy, source.values, source.n_rows), 3, "svpi",
                  "infogain")
    assert mondrian(source, rules) == 1
    assert source.final.tolist() == [0, 0, 0, 0, 1, 1, 1, 1]
    result = skyline_anonymize(pd.DataFrame({"age": ages, "dx": values}), qi="age",
                               sensitive="dx", policy=policy)
    assert result.n_splits == 1 and result.n_candidates_evaluated == rules.n_candidates


def test_the_size_rule_runs_through_the_same_loop():
    source = ages_source(list(range(12)), ["x"] * 12)
    seen = []
    rules = Rules(PolicyPlan.build(None, source.values, 12), 1, "svpi", "widest",
                  min_size=3, progress=seen.append)
    n_splits = mondrian(source, rules)
    assert np.bincount(source.final).tolist() == [3, 3, 3, 3]
    assert n_splits == 3 == k_anonymize(pd.DataFrame({"a": range(12)}), qi="a", k=3).n_splits
    assert seen == sorted(seen) and seen[-1] == 1.0


def test_an_infeasible_policy_names_what_the_whole_table_withstands():
    source = ages_source([1, 2, 3, 4], ["a", "a", "a", "b"])
    with pytest.raises(InfeasibleError, match=re.escape(
            "Even the whole table as one group is unsafe: 1 (value, point) check(s) fail, "
            "first 'a' at (l=0, k=0, m=0, c=0.5)")) as caught:
        check_feasible(source.root(), source.values, "svpi", Policy.uniform([(0, 0, 0, 0.5)]))
    assert caught.value.failing[0]["value"] == "a"
    check_feasible(source.root(), source.values, "svpi", Policy.uniform([(0, 0, 0, 0.8)]))
