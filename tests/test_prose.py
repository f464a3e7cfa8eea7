"""The worst case in words (skyprivacy/prose.py): the attacker's best grounding of Theorem 2
(Chen, LeFevre and Ramakrishnan 2009, Sect. 7.1) told as which group holds the target, where the
known individuals and the family sit, which values are ruled out, and the confidence."""
from fractions import Fraction

from skyprivacy import Policy, ReleaseCandidate, skyline_check


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
