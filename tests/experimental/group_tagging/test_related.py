"""Related background attributes (spec group-tagging §3.3), test G5."""
import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from skyprivacy.errors import DegenerateColumnWarning, InvalidParameterError, SchemaError
from skyprivacy.experimental.group_tagging import select_related_attributes


def pearson_oracle(x, y) -> float:
    """Pearson r from its definition, in exact fractions."""
    n = len(x)
    mx, my = Fraction(sum(x), n), Fraction(sum(y), n)
    cov = sum((Fraction(a) - mx) * (Fraction(b) - my) for a, b in zip(x, y))
    vx = sum((Fraction(a) - mx) ** 2 for a in x)
    vy = sum((Fraction(b) - my) ** 2 for b in y)
    return float(cov) / math.sqrt(vx * vy)


def test_g5_the_spec_fixture(students):
    related = select_related_attributes(students, target="eligible", exclude=["sex"])
    expected = {"maths": 0.5605, "income_k": 0.7303, "electricity": 0.7071, "rural": -0.6667,
                "religion": 0.3536}
    assert set(related.scores) == set(expected)  # sex excluded by rule, target never scored
    for name, value in expected.items():
        assert related.scores[name] == pytest.approx(value, abs=1e-4)
        assert related.scores[name] == pytest.approx(
            pearson_oracle(students[name].tolist(), students["eligible"].tolist()), abs=1e-12)
    assert set(related.selected) == {"maths", "income_k", "electricity", "rural"}
    assert related.selected == ("maths", "income_k", "electricity", "rural")  # table order
    frame = related.to_frame()
    assert frame.loc["religion", "selected"] == False  # noqa: E712 (a numpy bool)
    assert related.threshold == 0.5 and related.method == "pearson" and related.skipped == ()


def test_g5_a_categorical_attribute_scores_its_best_bit(students):
    table = students.assign(area=students["rural"].map({0: "urban", 1: "rural"}))
    related = select_related_attributes(table, target="eligible", candidates=["area", "sex"])
    # both bits have |r| = 2/3; ties go to the first category in sorted order
    assert related.scores["area"] == pytest.approx(-0.6667, abs=1e-4)
    assert related.categories["area"] == "rural"
    assert related.scores["sex"] == 0.0 and related.selected == ("area",)


def test_g5_cramers_v_of_a_binary_attribute_is_abs_r(students):
    related = select_related_attributes(students, target="eligible", method="cramers_v",
                                        candidates=["electricity", "rural", "religion"])
    assert related.scores["electricity"] == pytest.approx(math.sqrt(0.5), abs=1e-12)
    assert related.scores["rural"] == pytest.approx(2 / 3, abs=1e-12)
    assert related.selected == ("electricity", "rural")


def test_the_threshold_is_strict_and_decided_exactly():
    # r = 1/2 exactly; floating point says 0.5000000000000001 for this table
    table = pd.DataFrame({"x": [0, 11, 11] * 3, "y": [0, 0, 1] * 3})
    assert np.corrcoef(table["x"], table["y"])[0, 1] > 0.5
    assert select_related_attributes(table, target="y").selected == ()
    assert select_related_attributes(table, target="y", threshold=0.4999).selected == ("x",)


def test_constant_columns_are_skipped_with_a_warning(students):
    table = students.assign(flat=1)
    with pytest.warns(DegenerateColumnWarning, match=r"^Column\(s\) \['flat'\] are constant, so "
                      r"their correlation with 'eligible' is undefined; they are skipped\.$"):
        related = select_related_attributes(table, target="eligible", exclude=["sex"])
    assert related.skipped == ("flat",) and "flat" not in related.scores


@pytest.mark.parametrize("change, kwargs, error, message", [
    (lambda t: t.iloc[:2], {}, SchemaError,
     "select_related_attributes needs at least 3 rows; the table has 2."),
    (lambda t: t.assign(eligible=1), {}, SchemaError,
     "Column 'eligible' (the target) is constant (every row is 1); no attribute can correlate "
     "with it."),
    (lambda t: t.assign(eligible=t["eligible"] * 2), {}, SchemaError,
     "Column 'eligible' (the target) must hold the event as 0/1 or booleans; it holds [0, 2]."),
    (lambda t: t.assign(maths=t["maths"].where(t["maths"] > 40)), {}, SchemaError,
     "Column 'maths' has 2 missing value(s); encode them (one_hot_encode(missing='as_category')) "
     "or clean the table."),
    (lambda t: t, {"threshold": 1.0}, InvalidParameterError,
     "The 'threshold' parameter of select_related_attributes must be in [0, 1). Got 1.0 "
     "instead."),
    (lambda t: t, {"threshold": "high"}, InvalidParameterError,
     "The 'threshold' parameter of select_related_attributes must be a number in [0, 1). Got "
     "'high' instead."),
    (lambda t: t, {"method": "spearman"}, InvalidParameterError,
     "The 'method' parameter of select_related_attributes must be one of ['pearson', "
     "'cramers_v']. Got 'spearman' instead."),
    (lambda t: t, {"candidates": ["maths", "eligible"]}, InvalidParameterError,
     "The 'candidates' parameter of select_related_attributes must not include the target or "
     "an excluded column. Got 'eligible' instead."),
    (lambda t: t, {"exclude": ["ID"]}, SchemaError,
     "Column 'ID' is not in the table; columns are ['sex', 'maths', 'income_k', 'electricity', "
     "'rural', 'religion', 'eligible']."),
])
def test_bad_inputs(students, change, kwargs, error, message):
    with pytest.raises(error) as caught:
        select_related_attributes(change(students), **{"target": "eligible", **kwargs})
    assert str(caught.value) == message


def test_an_exact_threshold_is_compared_exactly():
    """r = 1/3 exactly: not strictly above the threshold 1/3 (a float 1/3 is read as the decimal
    it prints, 0.3333333333333333, which r exceeds)."""
    table = pd.DataFrame({"x": [0, 1, 1, 1], "y": [0, 0, 0, 1]})
    assert pearson_oracle(table["x"].tolist(), table["y"].tolist()) == pytest.approx(1 / 3)
    assert select_related_attributes(table, target="y", threshold=Fraction(1, 3)).selected == ()
    assert select_related_attributes(table, target="y", threshold=1 / 3).selected == ("x",)


@given(st.lists(st.tuples(st.integers(-5, 5), st.integers(0, 1)), min_size=3, max_size=25))
def test_scores_match_the_oracle_and_ignore_row_order(rows):
    table = pd.DataFrame(rows, columns=["x", "y"])
    assume(table["x"].nunique() >= 2 and table["y"].nunique() >= 2)
    related = select_related_attributes(table, target="y")
    assert related.scores["x"] == pytest.approx(pearson_oracle(table["x"].tolist(),
                                                               table["y"].tolist()), abs=1e-12)
    shuffled = table.iloc[::-1]
    assert select_related_attributes(shuffled, target="y").scores["x"] == pytest.approx(
        related.scores["x"], abs=1e-12)
