"""skyline_check: verdicts, exact boundaries and the result table (the worst case in words
is tested with its prose, tests/test_prose.py)."""
import re
import warnings
from fractions import Fraction

import pandas as pd
import pytest

from skyprivacy import (
    InvalidParameterError,
    Policy,
    ReleaseCandidate,
    UnusedPolicyValueWarning,
    breach_probability,
    skyline_check,
    skyline_find,
)



def test_rows_match_breach_probability_and_verdicts(table1b):
    policy = Policy({"AIDS": [(0, 1, 0, 0.7), (0, 0, 1, 0.7)]}, default=[(0, 0, 0, 0.9)])
    result = skyline_check(table1b, policy)
    frame = result.to_frame()
    assert list(frame.columns[:7]) == ["value", "l", "k", "m", "c", "breach_probability", "safe"]
    assert frame[["value", "l", "k", "m"]].values.tolist() == [
        ["AIDS", 0, 0, 1], ["AIDS", 0, 1, 0], ["Cancer", 0, 0, 0], ["Flu", 0, 0, 0]]
    assert frame["breach_probability_exact"].tolist() == ["3/4", "2/3", "1/4", "1/2"]
    assert frame["safe"].tolist() == [False, True, True, True]
    assert frame["source"].tolist() == ["value", "value", "default", "default"]
    for row in result.rows:
        assert row.breach_probability == breach_probability(
            table1b, row.value, l=row.point.l, k=row.point.k, m=row.point.m, exact=True)
    assert not result.safe
    assert [(r.value, r.point.knowledge) for r in result.violations] == [("AIDS", (0, 0, 1))]


def test_breach_probability_equal_to_c_is_unsafe_exactly(table1b):
    # BP = 3/4 exactly; c = 0.75 must fail (strict <) and c = 0.7500001 must pass.
    assert not skyline_check(table1b, Policy({"AIDS": [(0, 0, 1, 0.75)]})).safe
    assert skyline_check(table1b, Policy({"AIDS": [(0, 0, 1, 0.7500001)]})).safe
    # 2/3 vs c = 2/3 given as a Fraction: unsafe; as the float 0.6666666666666666 (< 2/3): unsafe
    assert not skyline_check(table1b, Policy({"AIDS": [(0, 1, 0, Fraction(2, 3))]})).safe
    assert not skyline_check(table1b, Policy({"AIDS": [(0, 1, 0, 2 / 3)]})).safe
    assert skyline_check(table1b, Policy({"AIDS": [(0, 1, 0, 0.6666667)]})).safe


def test_values_without_a_skyline_are_not_checked(table1b):
    result = skyline_check(table1b, Policy({"Cancer": [(0, 0, 0, 0.5)]}))
    assert [r.value for r in result.rows] == ["Cancer"]
    assert result.safe
    assert result.explain().startswith("SAFE: all 1 (value, point) checks hold")
    assert "Closest call: 'Cancer'" in result.explain()


def test_unused_policy_value_warns_and_reports_zero(table1b):
    with pytest.warns(UnusedPolicyValueWarning, match=re.escape(
            "The policy names 1 value(s) the release never contains: ['Aids']; check for typos "
            "(they are reported as safe with breach probability 0).")):
        result = skyline_check(table1b, Policy({"Aids": [(0, 0, 0, 0.5)]}))
    row = result.rows[0]
    assert row.value == "Aids" and row.breach_probability == 0 and row.safe
    assert row.worst_case.case == "absent"
    assert "occurs in no group" in row.worst_case.description
    assert result.unused_policy_values == ("Aids",)


def test_plain_mapping_is_accepted_as_policy(table1b):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = skyline_check(table1b, {"AIDS": [(0, 0, 0, 0.6)]})
    assert result.safe


def test_to_dict_is_json_ready(table1b):
    import json
    data = skyline_check(table1b, Policy.uniform([(0, 1, 0, 0.9)])).to_dict()
    text = json.dumps(data)
    assert '"breach_probability_exact": "2/3"' in text
    assert data["safe"] is True
    exact = {r["value"]: r["breach_probability_exact"] for r in data["rows"]}
    assert exact == {"AIDS": "2/3", "Cancer": "1/3", "Flu": "2/3"}
    assert data["rows"][0]["worst_case"]["target_group"] == "0"


def test_explain_lists_every_violation(table1b):
    text = skyline_check(table1b, Policy.uniform([(0, 1, 0, 0.6)])).explain()
    assert text.splitlines()[0] == "UNSAFE: 2 of 3 (value, point) checks fail."
    assert text.count("\n- ") == 2


def test_errors(table1b):
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'release' parameter of skyline_check must be a ReleaseCandidate. "
            "Got list instead.")):
        skyline_check([], Policy.uniform([(0, 0, 0, 0.5)]))
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'policy' parameter of skyline_check must be a Policy. Got list instead.")):
        skyline_check(table1b, [(0, 0, 0, 0.5)])


def test_explain_prints_a_breach_equal_to_a_fraction_threshold_as_equal(table1b):
    # 2/3 has no finite decimal: the percentage of a breach equal to it is rounded, not '>'
    result = skyline_check(table1b, Policy({"AIDS": [(0, 1, 0, Fraction(2, 3))]}))
    assert result.explain() == (
        "UNSAFE: 1 of 1 (value, point) checks fail.\n"
        "- 'AIDS' at (l=0, k=1, m=0, c=2/3): breach probability 2/3 (66.7%) >= 2/3. The target "
        "is in group [group=0] (4 people, 2 occurrences of 'AIDS'). They know the values of 1 "
        "other person in the same group, none of them 'AIDS'. Worst-case confidence 2/3 (66.7%) "
        "that the target has 'AIDS'.")


@pytest.mark.parametrize("c", [1e-320, Fraction(1, 10**300), Fraction(1, 10**400)])
def test_a_tiny_confidence_is_decided_not_overflowed(c):
    # 1/c - 1 overflows a float; the threshold's logarithm is taken from c's integers
    table = pd.DataFrame({"a": [1, 1, 2, 2], "s": ["x", "y", "x", "y"]})
    release = ReleaseCandidate.from_table(table, qi="a", sensitive="s")
    result = skyline_check(release, Policy(default=[(1, 1, 0, c)]))
    assert result.safe is False
    assert skyline_find(release, "x", c=c).points == ()
