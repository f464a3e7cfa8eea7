"""DecisionTable: construction, the model it exposes, and every validation rule of spec 9.3."""

import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from skyprivacy.errors import InvalidParameterError, PrivacyRiskWarning, SchemaError
from skyprivacy.transparency import DecisionTable


def frame(**overrides):
    data = {
        "gender": ["F", "F", "F", "M", "M", "M"],
        "income": ["<100k", "100k-200k", ">200k"] * 2,
        "population": [12, 5, 3, 9, 7, 4],
        "d": [0.0, 0.0, 1.0, 0.0, 0.5, 1.0],
    }
    data.update(overrides)
    return pd.DataFrame(data, index=[10, 11, 12, 20, 21, 22])


def build(df=None, **kwargs):
    options = dict(public="gender", sensitive="income", weight="population", decision="d")
    options.update(kwargs)
    return DecisionTable.from_frame(frame() if df is None else df, **options)


def test_model_fields_and_group_order():
    table = build()
    assert table.n_records == 6 and table.n_groups == 2
    assert table.group_keys == (("F",), ("M",))
    assert table.group_codes.tolist() == [0, 0, 0, 1, 1, 1]
    assert table.outcomes == (0, 1) and table.is_binary
    assert table.decisions[:, 1].tolist() == [0.0, 0.0, 1.0, 0.0, 0.5, 1.0]
    assert np.allclose(table.decisions.sum(axis=1), 1)
    assert table.index.tolist() == [10, 11, 12, 20, 21, 22]
    assert table.sensitive_values()[0] == "<100k"
    shown = table.to_frame()
    assert shown["probability"].tolist() == pytest.approx([0.3, 0.125, 0.075, 0.225, 0.175, 0.1])
    assert "DecisionTable(n_records=6" in repr(table)


def test_calling_the_class_is_from_frame():
    a = build()
    b = DecisionTable(
        frame(), public="gender", sensitive="income", weight="population", decision="d"
    )
    assert a.group_keys == b.group_keys and np.array_equal(a.decisions, b.decisions)


def test_caller_frame_is_never_modified_and_table_is_insulated():
    df = frame()
    before = df.copy()
    table = build(df)
    pd.testing.assert_frame_equal(df, before)
    df.loc[10, "d"] = 0.7  # later edits of the caller's frame do not reach the table
    assert table.decisions[0, 1] == 0.0
    exposed = table.frame
    exposed.loc[10, "population"] = 999
    assert table.frame.loc[10, "population"] == 12
    with pytest.raises(ValueError):
        table.weights[0] = 5.0  # read-only arrays


def test_groups_follow_first_appearance_and_several_public_columns():
    df = pd.DataFrame({"a": ["y", "x", "y", "x"], "b": [1, 1, 1, 1], "s": [1, 2, 3, 4],
                       "w": [1, 1, 1, 1], "d": [0.1, 0.2, 0.3, 0.4]})
    table = DecisionTable.from_frame(df, public=["a", "b"], sensitive="s", weight="w", decision="d")
    assert table.group_keys == (("y", 1), ("x", 1))
    assert table.group_codes.tolist() == [0, 1, 0, 1]
    assert isinstance(table.group_keys[0][1], int)  # native, not numpy


def test_several_sensitive_columns_form_one_joint_value():
    df = pd.DataFrame({"g": ["a"] * 3, "s1": [1, 1, 2], "s2": ["u", "v", "u"],
                       "w": [1, 1, 1], "d": [0.0, 1.0, 0.5]})
    table = DecisionTable.from_frame(
        df, public="g", sensitive=["s1", "s2"], weight="w", decision="d"
    )
    assert table.sensitive == ("s1", "s2")
    assert table.sensitive_values() == [(1, "u"), (1, "v"), (2, "u")]


def test_several_outcomes_with_labels_and_renormalize():
    df = pd.DataFrame({"g": ["a", "a"], "s": [1, 2], "w": [1, 3],
                       "lo": [0.2, 0.5], "mid": [0.3, 0.25], "hi": [0.5, 0.25]})
    table = DecisionTable.from_frame(df, public="g", sensitive="s", weight="w",
                                     decision=["lo", "mid", "hi"], outcomes=["L", "M", "H"])
    assert table.outcomes == ("L", "M", "H") and not table.is_binary
    assert table.decisions.tolist() == [[0.2, 0.3, 0.5], [0.5, 0.25, 0.25]]
    default = DecisionTable.from_frame(df, public="g", sensitive="s", weight="w",
                                       decision=["lo", "mid", "hi"])
    assert default.outcomes == ("lo", "mid", "hi")
    skewed = df.assign(hi=[1.0, 0.25])
    fixed = DecisionTable.from_frame(skewed, public="g", sensitive="s", weight="w",
                                     decision=["lo", "mid", "hi"], renormalize=True)
    assert fixed.decisions[0].tolist() == pytest.approx([0.2 / 1.5, 0.3 / 1.5, 1 / 1.5])
    assert fixed.decision_matrix(exact=True)[0].tolist() == [
        Fraction(2, 15),
        Fraction(1, 5),
        Fraction(2, 3),
    ]


def test_missing_values_as_their_own_category():
    df = frame(gender=["F", None, "F", "M", "M", None])
    table = build(df, missing="as_value")
    assert table.n_groups == 3
    assert (
        sum(k[0] is None or (isinstance(k[0], float) and np.isnan(k[0])) for k in table.group_keys)
        == 1
    )


def test_exact_reading_of_weights_and_decisions():
    df = frame(population=[0.3, 0.125, 0.075, 0.225, 0.175, 0.1])
    table = build(df)
    assert table.weight_array(exact=True).tolist()[:3] == [
        Fraction(3, 10),
        Fraction(1, 8),
        Fraction(3, 40),
    ]
    assert table.decision_matrix(exact=True)[4].tolist() == [Fraction(1, 2), Fraction(1, 2)]


# -- warnings ---------------------------------------------------------------------------------
def test_single_record_group_warns_that_the_qid_identifies():
    df = frame(gender=["F", "F", "F", "M", "M", "X"])
    with pytest.warns(PrivacyRiskWarning, match=r"1 QID group\(s\) hold a single record of "
                      r"positive weight, so their QID identifies the sensitive value "
                      r"\(beta_min = 1\): \[\('X',\)\]\."):
        build(df)


def test_group_without_mass_is_skipped_with_a_warning():
    df = frame(population=[12, 5, 3, 0, 0, 0])
    with pytest.warns(PrivacyRiskWarning, match=r"1 QID group\(s\) have zero total weight and are "
                      r"skipped: \[\('M',\)\]; they contribute nothing to beta\*\."):
        table = build(df)
    assert table.layout.groups.tolist() == [0]


def test_zero_weight_records_do_not_count_as_group_members():
    df = frame(population=[12, 0, 0, 9, 7, 4])
    with pytest.warns(PrivacyRiskWarning, match=r"single record"):
        build(df)


def test_no_warning_for_ordinary_tables():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        build()


# -- errors -------------------------------------------------------------------------------------
@pytest.mark.parametrize("option, value", [
    ("public", "zip"), ("sensitive", "zip"), ("weight", "zip"), ("decision", "zip"),
])
def test_unknown_column_names_what_exists(option, value):
    with pytest.raises(SchemaError, match=r"^Column 'zip' is not in the table; columns are "
                       r"\['gender', 'income', 'population', 'd'\]\.$"):
        build(**{option: value})


def test_empty_table():
    with pytest.raises(SchemaError, match=r"^The table is empty; a DecisionTable needs at least "
                                          r"one record\.$"):
        build(frame().iloc[:0])


def test_frame_must_be_a_dataframe():
    with pytest.raises(InvalidParameterError, match=r"The 'table' parameter of "
                                                    r"DecisionTable.from_frame "
                       r"must be a pandas DataFrame\. Got 'dict' instead\."):
        DecisionTable.from_frame({"a": [1]}, public="a", sensitive="b", weight="c", decision="d")


def test_bad_missing_option():
    with pytest.raises(InvalidParameterError, match=r"The 'missing' parameter of "
                                                    r"DecisionTable.from_frame "
                       r"must be one of \['error', 'as_value'\]\. Got 'drop' instead\."):
        build(missing="drop")


def test_empty_public_list():
    with pytest.raises(InvalidParameterError, match=r"The 'public' parameter of "
                                                    r"DecisionTable.from_frame "
                       r"must name at least one column\. Got \[\] instead\."):
        build(public=[])


def test_sensitive_must_not_repeat_a_public_column():
    with pytest.raises(InvalidParameterError, match=r"The 'sensitive' parameter of "
                       r"DecisionTable.from_frame must not repeat a public column\. Got "
                       r"\['gender'\] instead\."):
        build(sensitive=["gender", "income"])


def test_outcome_labels_must_match_the_decision_columns():
    with pytest.raises(InvalidParameterError, match=r"The 'outcomes' parameter of "
                                                    r"DecisionTable.from_frame "
                       r"must list 2 distinct labels, one per outcome\. Got \('no', 'no'\) "
                       r"instead\."):
        build(outcomes=["no", "no"])


def test_missing_public_value_is_an_error_by_default():
    with pytest.raises(SchemaError, match=r"^Column 'gender' has 1 missing value\(s\) \(first at "
                                          r"index 21\); "
                       r"pass missing='as_value' to treat a missing value as its own category\.$"):
        build(frame(gender=["F", "F", "F", "M", None, "M"]))


def test_missing_weight():
    with pytest.raises(SchemaError, match=r"^Column 'population' has 1 missing or infinite "
                                          r"weight\(s\) "
                       r"\(first at index 11\); weights must be finite and >= 0\.$"):
        build(frame(population=[12, np.nan, 3, 9, 7, 4]))


def test_infinite_weight():
    with pytest.raises(SchemaError, match=r"missing or infinite weight\(s\) \(first at index 12\)"):
        build(frame(population=[12, 5, np.inf, 9, 7, 4]))


def test_negative_weight():
    with pytest.raises(SchemaError, match=r"^Column 'population' has 1 negative weight\(s\) "
                                          r"\(first at "
                       r"index 20: -9\.0\); weights must be finite and >= 0\.$"):
        build(frame(population=[12, 5, 3, -9, 7, 4]))


def test_all_weights_zero():
    with pytest.raises(SchemaError, match=r"^Every weight in column 'population' is zero; the "
                                          r"table "
                       r"carries no probability mass\.$"):
        build(frame(population=[0] * 6))


def test_non_numeric_weight():
    with pytest.raises(SchemaError, match=r"^Column 'population' must be numeric; its dtype is "
                                          r"str\.$"):
        build(frame(population=list("abcdef")))


def test_decision_outside_unit_interval():
    with pytest.raises(SchemaError, match=r"^Column 'd' has 1 value\(s\) outside \[0, 1\] \(first "
                                          r"at index "
                       r"21: 1\.5\); a decision probability must lie in \[0, 1\]\.$"):
        build(frame(d=[0, 0, 1, 0, 1.5, 1]))


def test_missing_decision():
    with pytest.raises(SchemaError, match=r"^Column 'd' has 1 missing or infinite decision "
                                          r"probabilities "
                       r"\(first at index 10\)\.$"):
        build(frame(d=[np.nan, 0, 1, 0, 0.5, 1]))


def test_decision_rows_must_sum_to_one():
    df = pd.DataFrame(
        {"g": ["a", "a"], "s": [1, 2], "w": [1, 1], "p0": [0.5, 0.5], "p1": [0.5, 0.4]}
    )
    with pytest.raises(SchemaError, match=r"^Decision columns \['p0', 'p1'\] do not sum to 1 in 1 "
                                          r"row\(s\) "
                       r"\(first at index 1: sum 0\.9\); pass renormalize=True to rescale them\.$"):
        DecisionTable.from_frame(df, public="g", sensitive="s", weight="w", decision=["p0", "p1"])


def test_rows_within_tolerance_are_accepted():
    df = pd.DataFrame({"g": ["a", "a"], "s": [1, 2], "w": [1, 1], "p0": [0.5, 0.5],
                       "p1": [0.5, 0.5 + 1e-12]})
    DecisionTable.from_frame(df, public="g", sensitive="s", weight="w", decision=["p0", "p1"])


def test_duplicate_keys_are_rejected():
    df = frame(income=["<100k", "<100k", ">200k", "<100k", "100k-200k", ">200k"])
    with pytest.raises(SchemaError, match=r"^2 rows share their public and sensitive values "
                                          r"\(first: "
                       r"\('F', '<100k'\) at index 10\); a decision region must appear once, so "
                       r"aggregate the duplicates first\.$"):
        build(df)


def test_the_arrays_every_computation_reads():
    with pytest.warns(PrivacyRiskWarning, match=r"1 QID group\(s\) hold a single record"):
        table = DecisionTable.from_frame(  # group a: one record of positive weight
            pd.DataFrame({"g": ["b", "a", "b", "a"], "s": [1, 2, 3, 4], "w": [0.25, 0, 0.5, 1],
                          "d": [0.1, 0.5, 1, 0]}),
            public="g", sensitive="s", weight="w", decision="d")
    layout = table.layout
    assert layout is table.layout  # computed once
    assert layout.rows.tolist() == [0, 2, 3] and layout.zero_rows.tolist() == [1]
    assert layout.groups.tolist() == [0, 1] and layout.seg.lengths.tolist() == [2, 1]
    assert layout.normalized(table.weights).tolist() == pytest.approx([1 / 3, 2 / 3, 1.0])
    assert table.weight_array() is table.weights
    assert table.weight_array(exact=True).tolist() == [Fraction(1, 4), 0, Fraction(1, 2), 1]
    assert table.decision_matrix() is table.decisions
    assert table.decision_matrix(exact=True)[0].tolist() == [Fraction(9, 10), Fraction(1, 10)]
    assert [table.sensitive_at(r) for r in range(4)] == [1, 2, 3, 4]
