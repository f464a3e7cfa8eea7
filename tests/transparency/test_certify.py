"""Certification: confidence of every channel, max confidence, the beta check, gamma."""

import math
from fractions import Fraction as F

import numpy as np
import pandas as pd
import pytest

from skyprivacy.errors import InvalidParameterError, SchemaError
from skyprivacy.transparency import (
    DecisionTable,
    Delta,
    beta_from_gamma,
    confidence,
    gamma_from_beta,
    max_confidence,
    min_uncertainty,
    optimal_privacy,
    satisfies_beta,
)

from .tables import credit_card_table, table_of


def brute_conf(p, d):
    """Definition 3 by Bayes, one group, written out."""
    out = []
    for a in (0, 1):
        masses = [w * (x if a == 1 else 1 - x) for w, x in zip(p, d)]
        total = sum(masses)
        out.append([m / total if total else 0 for m in masses])
    return out


def test_confidence_is_bayes_posterior():
    p, d = [F(3), F(5), F(2)], [F(1, 4), F(1, 2), F(1)]
    table = table_of(p, d)
    conf = confidence(table, exact=True)
    assert conf[0].tolist() == brute_conf(p, d)[0]
    assert conf[1].tolist() == brute_conf(p, d)[1]
    assert list(conf.columns) == [0, 1] and conf.columns.name == "outcome"


def test_confidence_is_per_group_and_scale_invariant():
    table = table_of([1, 1, 100, 300], [0.5, 1.0, 0.5, 1.0], groups=["a", "a", "b", "b"])
    conf = confidence(table)
    assert conf[1].tolist() == pytest.approx([1 / 3, 2 / 3, 1 / 7, 6 / 7])
    assert conf[0].tolist() == pytest.approx([1.0, 0.0, 1.0, 0.0])


def test_empty_channel_has_zero_confidence():
    table = table_of([1, 2], [0.0, 0.0])
    assert confidence(table)[1].tolist() == [0.0, 0.0]
    assert confidence(table, exact=True)[1].tolist() == [0, 0]


def test_float_dust_in_an_empty_channel_is_not_a_certain_inference():
    """A 1e-17 remnant of an emptied channel must not read as conf = 1 (spec 2.1)."""
    table = table_of([1, 2], [0.0, 0.0])
    assert confidence(table, [1e-17, 0.0])[1].tolist() == [0.0, 0.0]


def test_zero_weight_record_has_zero_confidence():
    table = table_of([1, 0, 1], [1.0, 1.0, 0.0])
    assert confidence(table)[1].tolist() == [1.0, 0.0, 0.0]


def test_max_confidence_names_the_channel():
    table = credit_card_table("census")
    m = max_confidence(table)
    assert (m.conf, m.group, m.outcome, m.sensitive, m.record) == (1.0, ("F",), 1, ">200k", 2)
    assert m.min_uncertainty == 0.0
    assert m.to_dict()["conf"] == 1.0 and m.to_frame().shape == (1, 7)


def test_max_confidence_ties_go_to_the_first_record():
    table = table_of([1, 1], [0.5, 0.5])
    m = max_confidence(table)
    assert (m.record, m.outcome, m.conf) == (0, 0, 0.5)


def test_max_confidence_exact_returns_fractions():
    m = max_confidence(credit_card_table("section8"), exact=True)
    assert m.conf == 1 and isinstance(m.conf, F)
    assert m.to_dict()["conf_exact"] == "1"


def test_min_uncertainty_is_minus_log_conf():
    table = table_of([1, 3], [0.5, 0.5])
    assert min_uncertainty(table) == pytest.approx(-math.log(0.75))


def test_beta_check_lists_every_violation():
    table = credit_card_table("section8")
    check = satisfies_beta(table, beta=0.5)
    assert not check and check.n_violations == 4
    rows = check.violations
    assert rows.index.tolist() == [0, 2, 3, 5]
    assert list(zip(rows["gender"], rows["income"], rows["outcome"])) == [
        ("F", "<100k", 0), ("F", ">200k", 1), ("M", "<100k", 0), ("M", ">200k", 1)]
    assert rows["conf"].tolist() == pytest.approx([12 / 17, 1.0, 0.72, 8 / 15])
    assert check.max_confidence.conf == 1.0
    assert check.to_dict()["n_violations"] == 4
    assert check.to_frame().equals(rows)


def test_beta_check_passes_for_the_optimal_rule_and_accepts_gamma():
    table = credit_card_table("section8")
    result = optimal_privacy(table, Delta(0.9))
    assert satisfies_beta(table, result, beta=0.675)
    assert satisfies_beta(table, result, gamma=-math.log(0.675))
    assert not satisfies_beta(table, result, beta=0.67)
    assert satisfies_beta(table, result, beta=0.675).gamma == pytest.approx(-math.log(0.675))


def test_exact_verdict_differs_from_the_float_one_at_the_boundary():
    """conf = 1/3 exactly; the float 0.3333333333333333 is below it, and only the exact
    verdict sees that (STYLE: verdicts without float round-off at the boundary)."""
    table = table_of([1, 1, 1], [1.0, 1.0, 1.0])
    assert satisfies_beta(table, beta=0.3333333333333333)  # float: within tolerance
    assert not satisfies_beta(table, beta=0.3333333333333333, exact=True)
    assert satisfies_beta(table, beta=F(1, 3), exact=True)


def test_announced_rule_in_every_accepted_form():
    table = table_of([1, 2, 3], [0.0, 0.5, 1.0], index=["a", "b", "c"])
    expected = confidence(table, [0.2, 0.4, 0.6])
    frame = table.frame.assign(announced=[0.2, 0.4, 0.6])
    with_column = DecisionTable.from_frame(frame, public="g", sensitive="s", weight="w",
                                           decision="d")
    pd.testing.assert_frame_equal(confidence(with_column, "announced"), expected)
    shuffled = pd.Series([0.6, 0.2, 0.4], index=["c", "a", "b"])
    pd.testing.assert_frame_equal(confidence(table, shuffled), expected)
    matrix = np.array([[0.8, 0.2], [0.6, 0.4], [0.4, 0.6]])
    pd.testing.assert_frame_equal(confidence(table, matrix), expected)
    pd.testing.assert_frame_equal(confidence(table, pd.DataFrame(matrix, index=["a", "b", "c"])),
                                  expected)


def test_confidence_for_more_outcomes():
    df = pd.DataFrame({"g": ["a", "a"], "s": [1, 2], "w": [1, 1],
                       "x": [1.0, 0.0], "y": [0.0, 0.5], "z": [0.0, 0.5]})
    table = DecisionTable.from_frame(df, public="g", sensitive="s", weight="w",
                                     decision=["x", "y", "z"])
    conf = confidence(table)
    assert conf.to_numpy().tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 1.0]]


# -- errors ----------------------------------------------------------------------------------
def test_gamma_and_beta_conversions():
    assert beta_from_gamma(0) == 1.0
    assert gamma_from_beta(1) == 0.0 and math.copysign(1, gamma_from_beta(1)) == 1
    assert beta_from_gamma(gamma_from_beta(0.3)) == pytest.approx(0.3)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'gamma' parameter of beta_from_gamma must be "
                       r"a number >= 0\. Got -1 instead\."):
        beta_from_gamma(-1)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'gamma' parameter of beta_from_gamma must be a "
                       r"number >= 0\. Got 'x' instead\."):
        beta_from_gamma("x")
    with pytest.raises(InvalidParameterError,
                       match=r"The 'beta' parameter of gamma_from_beta must be in "
                       r"\(0, 1\]\. Got 0 instead\."):
        gamma_from_beta(0)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'beta' parameter of gamma_from_beta must be a "
                       r"number in \(0, 1\]\. Got True instead\."):
        gamma_from_beta(True)


def test_beta_check_needs_exactly_one_target():
    table = table_of([1, 1], [0.5, 0.5])
    with pytest.raises(InvalidParameterError,
                       match=r"^satisfies_beta needs exactly one of 'beta' and "
                       r"'gamma'\. Got beta=None, gamma=None\.$"):
        satisfies_beta(table)
    with pytest.raises(InvalidParameterError, match=r"Got beta=0\.5, gamma=1\."):
        satisfies_beta(table, beta=0.5, gamma=1)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'beta' parameter of satisfies_beta must be in "
                       r"\(0, 1\]\. Got 1\.5 instead\."):
        satisfies_beta(table, beta=1.5)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'gamma' parameter of satisfies_beta must be a "
                       r"number >= 0\. Got -0\.5 instead\."):
        satisfies_beta(table, gamma=-0.5)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'tol' parameter of satisfies_beta must be a "
                       r"finite number >= 0\. Got -1 instead\."):
        satisfies_beta(table, beta=0.5, tol=-1)


def test_table_must_be_a_decision_table():
    with pytest.raises(InvalidParameterError,
                       match=r"The 'table' parameter of max_confidence must be a "
                       r"DecisionTable\. Got 'DataFrame' instead\."):
        max_confidence(pd.DataFrame())


def test_bad_announced_rules():
    table = table_of([1, 2, 3], [0.0, 0.5, 1.0])
    with pytest.raises(InvalidParameterError,
                       match=r"The 'announced' parameter of confidence must have "
                       r"shape \(3,\) for a binary table or \(3, 2\)\. Got \(2,\) instead\."):
        confidence(table, [0.1, 0.2])
    with pytest.raises(InvalidParameterError,
                       match=r"The 'announced' parameter of confidence must hold "
                       r"probabilities in \[0, 1\]\. Got '\[-0\.5, 1\.5\] at index 0' instead\."):
        confidence(table, [1.5, 0.2, 0.3])
    with pytest.raises(InvalidParameterError,
                       match=r"The 'announced' parameter of confidence must give "
                       r"distributions that sum to 1\. Got 'sum 0\.5 at index 1' instead\."):
        confidence(table, [[0.5, 0.5], [0.25, 0.25], [0.5, 0.5]])
    with pytest.raises(InvalidParameterError,
                       match=r"must hold finite probabilities\. Got 'NaN or inf'"):
        confidence(table, [np.nan, 0.2, 0.3])
    with pytest.raises(SchemaError,
                       match=r"^Column 'zz' is not in the table; columns are \['g', 's', 'w', "
                             r"'d'\]\.$"):
        confidence(table, "zz")
    with pytest.raises(SchemaError,
                       match=r"^The announced rule does not cover every record of the table "
                       r"\(aligned by index\)\.$"):
        confidence(table, pd.Series([0.1, 0.2], index=[0, 1]))
    other = table_of([1, 2, 3], [0.0, 0.5, 1.0])
    with pytest.raises(InvalidParameterError,
                       match=r"The 'announced' parameter of max_confidence must be "
                       r"a result computed for this table\. Got 'a result of another table' "
                       r"instead\."):
        max_confidence(table, optimal_privacy(other, Delta(0.9)))


def test_confidence_tables_under_announced_rule(section8, section8_exact):
    conf = confidence(section8, section8_exact, exact=True)
    assert conf[0].tolist() == [F(27, 40), F(49, 160), F(3, 160), F(81, 127), F(42, 127), F(4, 127)]
    assert conf[1].tolist() == [F(3, 10), F(1, 40), F(27, 40), F(9, 73), F(28, 73), F(36, 73)]
    assert section8_exact.achieved.conf == F(27, 40)
    assert (section8_exact.achieved.group, section8_exact.achieved.outcome,
            section8_exact.achieved.sensitive) == (("F",), 0, "<100k")


def test_beta_check_is_exact_at_the_boundary(section8, section8_exact):
    assert satisfies_beta(section8, section8_exact, beta=F(27, 40), exact=True)
    below = satisfies_beta(section8, section8_exact, beta=F(27, 40) - F(1, 10**12), exact=True)
    assert not below
    # conf(F,0->x1) and conf(F,1->x3)
    assert below.violations["income"].tolist() == ["<100k", ">200k"]
    assert below.violations["outcome"].tolist() == [0, 1]


def test_confidence_of_the_true_rule(section8):
    conf = confidence(section8, exact=True)
    assert conf[1].tolist() == [0, 0, 1, 0, F(7, 15), F(8, 15)]
    assert conf[0].tolist() == [F(12, 17), F(5, 17), 0, F(18, 25), F(7, 25), 0]


def test_the_verdict_is_named_safe():
    table = table_of([1, 3], [0.5, 0.5])
    check = satisfies_beta(table, beta=0.5)
    assert check.safe is False and not check
    assert not hasattr(check, "satisfied")  # the removed alias
    data = check.to_dict()
    assert data["safe"] is False and data["satisfied"] is False  # the JSON of transparency check
