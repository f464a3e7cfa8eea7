"""The worst case in words (skyprivacy/prose.py): the attacker's best grounding of Theorem 2
(Chen, LeFevre and Ramakrishnan 2009, Sect. 7.1) told as which group holds the target, where the
known individuals and the family sit, which values are ruled out, and the confidence."""
from fractions import Fraction

import pandas as pd
import pytest

from skyprivacy import Policy, ReleaseCandidate, skyline_check
from skyprivacy.formulas import sufficient_statistics
from skyprivacy.prose import WorstCase, plural, worst_case


def told(release, value, l, k, m, threshold=None) -> WorstCase:
    """The worst case of ``value`` at (l, k, m), built as check and find build it."""
    stats = sufficient_statistics(release, value, l=l, k=k, m=m)
    return worst_case(release, value, stats, stats.breach_probability, threshold)


def test_worst_case_same_group_in_words():
    release = ReleaseCandidate.from_groups([(5, ["Flu"] * 4 + ["AIDS"])])
    row = skyline_check(release, Policy({"AIDS": [(0, 3, 0, 0.4)]})).rows[0]
    assert row.breach_probability == Fraction(1, 2) and not row.safe
    wc = row.worst_case
    assert wc.case == "same-group" and wc.target_group == 0 and wc.known_group == 0
    assert wc.description == (
        "The target is in group [group=0] (5 people, 1 occurrence of 'AIDS'). They know the "
        "values of 3 other people in the same group, none of them 'AIDS'. Worst-case confidence "
        "1/2 (50.0%) that the target has 'AIDS'.")


def test_worst_case_ruled_out_values_settle_it(table1b):
    row = skyline_check(table1b, Policy({"AIDS": [(1, 1, 1, 0.5)]})).rows[0]
    assert row.worst_case.ruled_out == ("Flu",)
    assert "rules out 1 value for the target ('Flu', the most frequent others there); then " \
           "only 'AIDS' is left for the target, no further knowledge needed." \
           in row.worst_case.description


def test_worst_case_family_in_another_group():
    release = ReleaseCandidate.from_groups([(4, list("cbad")), (9, list("abdddbdda"))])
    row = skyline_check(release, Policy({"a": [(1, 0, 2, 0.6)]})).rows[0]
    assert row.breach_probability == Fraction(2, 3)
    wc = row.worst_case
    assert wc.case == "known-with-family"
    # target among the 9 (ruling out 'd' leaves 2 'a' vs 2 others), family in the group of 4
    assert wc.target_group == 1 and wc.family_group == 0 and wc.known_group is None
    assert wc.ruled_out == ("d",)
    assert "They know 2 members of the target's same-value family in group [group=0] " \
           "(4 people, 1 occurrence of 'a')" in wc.description


def test_worst_case_known_with_target_family_elsewhere():
    release = ReleaseCandidate.from_groups(
        [(2, list("db")), (8, list("ccccabcd")), (9, list("bdbbaadcd"))])
    row = skyline_check(release, Policy({"a": [(1, 1, 1, 0.5)]})).rows[0]
    assert row.breach_probability == Fraction(9, 16)
    wc = row.worst_case
    assert wc.case == "known-with-target"
    assert wc.known_group == wc.target_group != wc.family_group
    assert "in the same group, none of them 'a' or a ruled-out value" in wc.description


def test_worst_case_pinned_small_group():
    release = ReleaseCandidate.from_groups([(1, ["c"]), (1, ["a"])])
    row = skyline_check(release, Policy({"a": [(0, 1, 1, 0.99)]})).rows[0]
    assert row.breach_probability == 1 and row.worst_case.case == "pinned"
    assert row.worst_case.description == (
        "The target is alone in group [group=1] (1 person, 1 occurrence of 'a'): the release "
        "shows its value as it is, confidence 1 (100.0%).")
    release = ReleaseCandidate.from_groups([(9, list("abbbbbbbb")), (3, list("abc"))])
    row = skyline_check(release, Policy({"a": [(0, 1, 2, 0.99)]})).rows[0]
    assert row.worst_case.case == "pinned" and row.worst_case.target_group == 1
    assert row.worst_case.description == (
        "The target is in group [group=1] (3 people, 1 occurrence of 'a'). The group is so small "
        "that an attacker who knows the values of 1 other member of it and knows 1 member of the "
        "target's same-value family there accounts for everyone but the target, so the target's "
        "'a' is pinned down: confidence 1 (100.0%).")


def test_mvpi_wording():
    release = ReleaseCandidate.from_groups([(3, list("abc")), (3, list("aab"))],
                                           semantics="mvpi-set")
    result = skyline_check(release, Policy({"a": [(1, 1, 0, 0.99)]}))
    text = result.rows[0].worst_case.description
    assert "The attacker knows that 1 value co-occurs with 'a' for the target" in text
    assert "They know that 1 other person in the same group does not have 'a'." in text
    assert result.to_dict()["semantics"] == "mvpi-set"


# ------------------------------------------------------------------------------- plural
@pytest.mark.parametrize("n, words, expected", [
    (1, ("person", "people"), "1 person"),
    (2, ("person", "people"), "2 people"),
    (0, ("value",), "0 values"),
    (1, ("value",), "1 value"),
    (3, ("member",), "3 members"),
])
def test_plural_puts_the_noun_in_the_number_of_its_count(n, words, expected):
    assert plural(n, *words) == expected


# -------------------------------------------------------------------------- worst_case
def test_a_value_the_release_lacks_cannot_be_inferred(table1b):
    wc = told(table1b, "Aids", 1, 1, 1)
    assert wc == WorstCase("Aids", "absent", None, None, None, (), Fraction(0),
                           "'Aids' occurs in no group of the release: no attacker can infer it.")


def test_knowledge_short_of_certainty_leaves_a_probability():
    # 5 people, 2 with 'a': after one other person is known not to have it, 2 of the 4 left do
    release = ReleaseCandidate.from_groups([(5, list("aabbc"))])
    wc = told(release, "a", 0, 1, 0)
    assert (wc.breach_probability, wc.known_group, wc.family_group) == (Fraction(1, 2), 0, None)
    assert wc.description == (
        "The target is in group [group=0] (5 people, 2 occurrences of 'a'). They know the values "
        "of 1 other person in the same group, none of them 'a'. Worst-case confidence 1/2 "
        "(50.0%) that the target has 'a'.")


def test_known_people_who_account_for_every_other_value_leave_only_the_target_value():
    # the 3 known people hold b, b and c: the two people left, the target among them, hold a, a
    release = ReleaseCandidate.from_groups([(5, list("aabbc"))])
    wc = told(release, "a", 0, 3, 0)
    assert wc.breach_probability == 1
    assert wc.description == (
        "The target is in group [group=0] (5 people, 2 occurrences of 'a'). They know the values "
        "of 3 other people in the same group, none of them 'a', which leaves only 'a' for the "
        "target. This leaves no other possibility: confidence 1 (100.0%).")


def test_ruled_out_values_and_known_people_together():
    # the target is not 'b'; the 2 known people are 'c' and 'd'; of a, a, b left, 'a' is the
    # target's
    release = ReleaseCandidate.from_groups([(5, list("aabcd"))])
    wc = told(release, "a", 1, 2, 0)
    assert wc.ruled_out == ("b",)  # b, c and d tie: the first in value order is named
    assert wc.description == (
        "The target is in group [group=0] (5 people, 2 occurrences of 'a'). The attacker rules "
        "out 1 value for the target ('b', the most frequent others there). They know the values "
        "of 2 other people in the same group, none of them 'a' or a ruled-out value, which leaves "
        "only 'a' for the target. This leaves no other possibility: confidence 1 (100.0%).")


def test_ruling_out_every_other_value_settles_it():
    wc = told(ReleaseCandidate.from_groups([(3, list("abc"))]), "a", 2, 0, 0)
    assert wc.ruled_out == ("b", "c")
    assert wc.description == (
        "The target is in group [group=0] (3 people, 1 occurrence of 'a'). The attacker rules "
        "out 2 values for the target ('b', 'c', the most frequent others there); then only 'a' "
        "is left for the target, no further knowledge needed. This leaves no other "
        "possibility: confidence 1 (100.0%).")


def test_a_group_without_other_values_says_so():
    wc = told(ReleaseCandidate.from_groups([(2, ["a", "a"])]), "a", 1, 0, 0)
    assert wc.ruled_out == ()
    assert wc.description == (
        "The target is in group [group=0] (2 people, 2 occurrences of 'a'). The group holds no "
        "other value for the attacker to rule out; only 'a' is left for the target, no further "
        "knowledge needed. This leaves no other possibility: confidence 1 (100.0%).")


def test_a_group_without_other_values_says_so_in_mvpi():
    release = ReleaseCandidate.from_groups([(2, ["a", "a"])], semantics="mvpi-set")
    wc = told(release, "a", 1, 1, 0)
    assert wc.ruled_out == ()
    assert wc.description == (
        "The target is in group [group=0] (2 people, 2 occurrences of 'a'). The group holds no "
        "other value for the attacker to know co-occurs with 'a'. They know that 1 other person "
        "in the same group does not have 'a'. This leaves no other possibility: confidence 1 "
        "(100.0%).")


@pytest.mark.parametrize("values, l, told_as", [
    ("aab", 2, "1 value for the target ('b', the only other value there)"),
    ("aabbc", 3, "2 values for the target ('b', 'c', the only other values there)"),
])
def test_fewer_other_values_than_l_are_counted_as_they_are_listed(values, l, told_as):
    # l asks for more values than the group holds: the attacker rules out the ones there are
    release = ReleaseCandidate.from_groups([(len(values), list(values))])
    wc = told(release, "a", l, 0, 0)
    assert wc.ruled_out == tuple(sorted(set(values) - {"a"}))
    assert wc.description == (
        f"The target is in group [group=0] ({len(values)} people, 2 occurrences of 'a'). The "
        f"attacker rules out {told_as}; then only 'a' is left for the target, no further "
        f"knowledge needed. This leaves no other possibility: confidence 1 (100.0%).")


def test_fewer_co_occurring_values_than_l_are_counted_as_they_are_listed_in_mvpi():
    release = ReleaseCandidate.from_groups([(4, list("aabc"))], semantics="mvpi-set")
    wc = told(release, "a", 3, 0, 0)
    assert wc.ruled_out == ("b", "c")
    assert wc.description == (
        "The target is in group [group=0] (4 people, 2 occurrences of 'a'). The attacker knows "
        "that 2 values co-occur with 'a' for the target ('b', 'c': if the target has one, it "
        "has 'a'). Worst-case confidence 16/25 (64.0%) that the target has 'a'.")


def test_a_pinned_group_counts_only_the_other_members_there_are():
    # k = 3 reaches the group of 3 (n <= k + m), but only its 2 other members can be known
    release = ReleaseCandidate.from_groups([(9, list("abbbbbbbb")), (3, list("abc"))])
    wc = told(release, "a", 0, 3, 0)
    assert (wc.case, wc.target_group, wc.known_group, wc.family_group) == ("pinned", 1, 1, None)
    assert wc.description == (
        "The target is in group [group=1] (3 people, 1 occurrence of 'a'). The group is so small "
        "that an attacker who knows the values of 2 other members of it accounts for everyone "
        "but the target, so the target's 'a' is pinned down: confidence 1 (100.0%).")


def test_a_pinned_group_in_mvpi_is_told_as_people_known_not_to_have_the_value():
    release = ReleaseCandidate.from_groups([(2, ["a", "c"])], semantics="mvpi-set")
    wc = told(release, "a", 0, 2, 0)
    assert wc.case == "pinned"
    assert wc.description == (
        "The target is in group [group=0] (2 people, 1 occurrence of 'a'). The group is so small "
        "that an attacker who knows 1 other member of it not to have 'a' accounts for everyone "
        "but the target, so the target's 'a' is pinned down: confidence 1 (100.0%).")


def test_several_implications_in_mvpi_co_occur():
    release = ReleaseCandidate.from_groups([(4, list("aabc"))], semantics="mvpi-set")
    wc = told(release, "a", 2, 0, 0)
    assert wc.ruled_out == ("b", "c")
    assert ("The attacker knows that 2 values co-occur with 'a' for the target ('b', 'c': if "
            "the target has one, it has 'a').") in wc.description


def test_the_percentage_never_rounds_onto_the_threshold_it_is_compared_with():
    # Sect. 8.1's closest call: 17,991 of 20,000 is 89.955%, below c = 0.9
    release = ReleaseCandidate.from_groups([(20000, ["flu"] * 17991 + ["cold"] * 2009)])
    text = ("The target is in group [group=0] (20000 people, 17991 occurrences of 'flu'). "
            "Worst-case confidence 17991/20000 ({}) that the target has 'flu'.")
    assert told(release, "flu", 0, 0, 0, Fraction(9, 10)).description == text.format("89.95%")
    assert told(release, "flu", 0, 0, 0).description == text.format("90.0%")


def test_to_dict_is_json_ready_with_labels_as_text():
    table = pd.DataFrame({"zip": ["021**"] * 3 + ["100**"] * 2,
                          "disease": ["flu", "hiv", "flu", "hiv", "cold"]})
    release = ReleaseCandidate.from_table(table, qi="zip", sensitive="disease")
    wc = told(release, "hiv", 0, 1, 0)  # in 100**, one known 'cold' leaves 'hiv' to the target
    assert wc.to_dict() == {
        "case": "same-group", "target_group": "100**", "known_group": "100**",
        "family_group": None, "ruled_out": [], "breach_probability": "1",
        "description": "The target is in group [zip=100**] (2 people, 1 occurrence of 'hiv'). "
                       "They know the values of 1 other person in the same group, none of them "
                       "'hiv', which leaves only 'hiv' for the target. This leaves no other "
                       "possibility: confidence 1 (100.0%)."}


def test_to_dict_writes_the_probability_as_an_exact_fraction(table1b):
    # group 0 holds AIDS twice among 4: one other person known not to have it leaves 2 of 3
    assert told(table1b, "AIDS", 0, 1, 0).to_dict() == {
        "case": "same-group", "target_group": "0", "known_group": "0", "family_group": None,
        "ruled_out": [], "breach_probability": "2/3",
        "description": "The target is in group [group=0] (4 people, 2 occurrences of 'AIDS'). "
                       "They know the values of 1 other person in the same group, none of them "
                       "'AIDS'. Worst-case confidence 2/3 (66.7%) that the target has 'AIDS'."}


def test_to_dict_says_what_it_writes_the_probability_as(table1b):
    # check's JSON rows (docs/cli.md) embed it next to their own float and 'p/q': the worst
    # case writes the probability once, as the exact fraction, and its docstring says so
    wc = told(table1b, "AIDS", 0, 1, 0)
    assert list(wc.to_dict()) == ["case", "target_group", "known_group", "family_group",
                                  "ruled_out", "breach_probability", "description"]
    assert wc.to_dict()["breach_probability"] == "2/3"
    assert " ".join(WorstCase.to_dict.__doc__.split()) == (
        "JSON-friendly form (labels as strings, the probability as an exact 'p/q' string; the "
        "check row holding it also gives it as a float).")
