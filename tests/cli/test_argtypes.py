"""skyprivacy/cli/argtypes.py: each option type turns an option's text into its value, or
raises ArgumentTypeError with a one-line reason (asserted whole here; the parser prefixes it
with the option's name)."""
import argparse
from fractions import Fraction

import pytest

from skyprivacy.cli.argtypes import (
    column_list,
    confidence,
    criterion_option,
    hierarchy_spec,
    int_at_least,
    interval_widths,
    mask_count,
    non_negative,
    order_spec,
    positive,
    separator,
    share_of_rows,
    text_list,
    unit_interval,
    value_list,
)

from .helpers import exactly

HIERARCHY_FORMS = ("expected COLUMN=SOURCE (e.g. age=age.csv, age=bundled:adult:age, "
                   "zip=mask:2 or age=intervals:10), got {!r}")
ORDER_FORMS = ("expected first, sorted, COL=first, COL=sorted or COL=V1,V2,... (values in "
               "order), got {!r}")
SEPARATOR = ("must be one character other than a quote or a line break (or 'tab'); "
             "got {!r}")


def rejects(parse, text, message, *more):
    with pytest.raises(argparse.ArgumentTypeError, match=exactly(message)):
        parse(text, *more)


# ------------------------------------------------------------------------------ lists
@pytest.mark.parametrize("text, names", [
    ("age", ["age"]),
    ("age,workclass,sex", ["age", "workclass", "sex"]),
    (" age , sex ", ["age", "sex"]),
])
def test_column_list_splits_and_strips(text, names):
    assert column_list(text) == names


@pytest.mark.parametrize("text", ["", "  ", "age,,sex", "age,", ",age", "age, ,sex"])
def test_column_list_rejects_an_empty_name(text):
    rejects(column_list, text, f"expected comma-separated column names, got {text!r}")


@pytest.mark.parametrize("text", ["age,sex,age", "age, age"])
def test_column_list_rejects_a_column_named_twice(text):
    rejects(column_list, text, f"a column is named twice in {text!r}")


def test_value_list_keeps_order_and_repeats():
    assert value_list(" Sales,Tech-support ,Sales") == ["Sales", "Tech-support", "Sales"]


@pytest.mark.parametrize("text", ["", "Sales,", "Sales,,Tech-support", " "])
def test_value_list_rejects_an_empty_value(text):
    rejects(value_list, text, f"expected comma-separated values, got {text!r}")


@pytest.mark.parametrize("text, texts", [
    ("", ()),                       # --na-values '': no marker at all
    ("NA", ("NA",)),
    ("NA, ,N/A,", ("NA", "N/A")),   # empty parts are dropped, not an error
])
def test_text_list_drops_empty_parts(text, texts):
    assert text_list(text) == texts


# ---------------------------------------------------------------------------- numbers
@pytest.mark.parametrize("text, value", [
    ("0.9", 0.9), ("1", 1), ("+1", 1), ("2/3", Fraction(2, 3)), (" 2/3 ", Fraction(2, 3)),
    ("1/1", Fraction(1)), ("1e-3", 0.001),
])
def test_confidence_accepts_decimals_integers_and_fractions(text, value):
    parsed = confidence(text)
    assert parsed == value and type(parsed) is type(value)


@pytest.mark.parametrize("text", ["0", "0/5", "-0.1", "1.5", "3/2", "nan", "inf"])
def test_confidence_outside_the_interval(text):
    rejects(confidence, text, f"must be in (0, 1], got {text!r}")


@pytest.mark.parametrize("parse", [confidence, unit_interval, non_negative, positive])
@pytest.mark.parametrize("text", ["x", "", "1/0", "0.9.1", "two"])
def test_a_number_that_does_not_parse(parse, text):
    rejects(parse, text, f"expected a number or a fraction like 2/3, got {text!r}")


def test_an_unparsable_number_is_quoted_without_its_spaces():
    rejects(confidence, " x ", "expected a number or a fraction like 2/3, got 'x'")


@pytest.mark.parametrize("text, value", [("0", 0), ("1", 1), ("1/2", Fraction(1, 2)),
                                         ("0.25", 0.25)])
def test_unit_interval_includes_both_ends(text, value):
    assert unit_interval(text) == value


@pytest.mark.parametrize("text", ["-0.5", "1.1", "5/4", "nan"])
def test_unit_interval_outside(text):
    rejects(unit_interval, text, f"must be in [0, 1], got {text!r}")


@pytest.mark.parametrize("text, value", [("0", 0), ("3", 3), ("2/3", Fraction(2, 3)),
                                         ("1e6", 1e6)])
def test_non_negative_accepts_zero(text, value):
    assert non_negative(text) == value


@pytest.mark.parametrize("text", ["-1", "-1/2", "inf", "nan"])
def test_non_negative_rejects(text):
    rejects(non_negative, text, f"must be a finite number >= 0, got {text!r}")


@pytest.mark.parametrize("text, value", [("3", 3), ("0.5", 0.5), ("1/3", Fraction(1, 3))])
def test_positive_accepts(text, value):
    assert positive(text) == value


@pytest.mark.parametrize("text", ["0", "-1", "inf", "nan", "0/7"])
def test_positive_rejects(text):
    rejects(positive, text, f"must be a finite number > 0, got {text!r}")


def test_int_at_least():
    parse = int_at_least(2)
    assert parse.__name__ == "integer >= 2"  # how argparse names the type
    assert parse("2") == 2 and parse(" 17 ") == 17
    rejects(parse, "1", "must be at least 2, got 1")
    rejects(parse, "-3", "must be at least 2, got -3")
    rejects(parse, "2.0", "expected an integer, got '2.0'")
    rejects(parse, "two", "expected an integer, got 'two'")
    assert int_at_least(0)("0") == 0


# ------------------------------------------------------------------------ hierarchies
@pytest.mark.parametrize("text, spec", [
    ("age=age.csv", ("age", "age.csv")),
    (" age = bundled:adult:age ", ("age", "bundled:adult:age")),
    ("workclass=bundled:adult", ("workclass", "bundled:adult")),
    ("zip=mask:2", ("zip", "mask:2")),
    ("age=intervals:5,10,20", ("age", "intervals:5,10,20")),
    ("path=a=b.csv", ("path", "a=b.csv")),  # only the first '=' separates
])
def test_hierarchy_spec(text, spec):
    assert hierarchy_spec(text) == spec


@pytest.mark.parametrize("text", ["age", "=age.csv", "age=", " =x", "age= "])
def test_hierarchy_spec_needs_column_and_source(text):
    rejects(hierarchy_spec, text, HIERARCHY_FORMS.format(text))


@pytest.mark.parametrize("text, argument", [("zip=mask:0", "0"), ("zip=mask:x", "x"),
                                            ("zip=mask:", ""), ("zip=mask:-1", "-1")])
def test_hierarchy_spec_checks_the_mask_count(text, argument):
    rejects(hierarchy_spec, text, f"{text!r}: mask:N needs a whole number N >= 1 of trailing "
                                  f"characters to mask, got {argument!r}")


def test_hierarchy_spec_checks_the_interval_widths():
    rejects(hierarchy_spec, "age=intervals:10,5",
            "'age=intervals:10,5': each interval width must be a larger multiple of the one "
            "before; 5 is not a larger multiple of 10")
    rejects(hierarchy_spec, "age=intervals:0",
            "'age=intervals:0': intervals:WIDTH needs positive decimal widths (e.g. "
            "intervals:10 or intervals:5,10,20), got '0'")


def test_mask_count():
    assert mask_count("1", "s") == 1 and mask_count("12", "s") == 12
    rejects(mask_count, "0", "'--hierarchy zip=mask:0': mask:N needs a whole number N >= 1 "
                             "of trailing characters to mask, got '0'",
            "--hierarchy zip=mask:0")


@pytest.mark.parametrize("argument, widths", [
    ("10", [10]),
    ("5,10,20", [5, 10, 20]),
    ("0.1, 0.2,1", [Fraction(1, 10), Fraction(1, 5), 1]),   # exact: 0.1 is 1/10
    ("2.5,5", [Fraction(5, 2), 5]),
])
def test_interval_widths_are_exact(argument, widths):
    parsed = interval_widths(argument, "s")
    assert parsed == widths
    assert [type(w) for w in parsed] == [type(w) for w in widths]  # whole widths are ints


@pytest.mark.parametrize("part, argument", [("0", "0"), ("-5", "-5"), ("x", "x"),
                                            ("1/2", "1/2"), ("", "5,"), ("", ""),
                                            ("nan", "nan")])
def test_interval_widths_must_be_positive_decimals(part, argument):
    rejects(interval_widths, argument, f"'s': intervals:WIDTH needs positive decimal widths "
                                       f"(e.g. intervals:10 or intervals:5,10,20), got {part!r}",
            "s")


@pytest.mark.parametrize("argument, later, earlier", [("10,5", "5", "10"), ("5,12", "12", "5"),
                                                      ("5,5", "5", "5"),
                                                      ("0.1,0.15", "0.15", "1/10")])
def test_interval_widths_must_grow_by_whole_multiples(argument, later, earlier):
    rejects(interval_widths, argument, f"'s': each interval width must be a larger multiple "
                                       f"of the one before; {later} is not a larger multiple "
                                       f"of {earlier}", "s")


# ----------------------------------------------------------------------------- orders
@pytest.mark.parametrize("text, order", [
    ("first", (None, "first")),
    ("sorted", (None, "sorted")),
    ("workclass=first", ("workclass", "first")),
    (" workclass =sorted", ("workclass", "sorted")),
    ("sex=Male,Female", ("sex", ("Male", "Female"))),
    ("sex=Male", ("sex", ("Male",))),
])
def test_order_spec(text, order):
    assert order_spec(text) == order


@pytest.mark.parametrize("text", ["random", "=first", "sex=", " =Male"])
def test_order_spec_forms(text):
    rejects(order_spec, text, ORDER_FORMS.format(text))


@pytest.mark.parametrize("text", ["sex=Male,,Female", "sex=Male,", "sex=,Male"])
def test_order_spec_rejects_an_empty_value(text):
    rejects(order_spec, text, f"{text!r}: an empty value in the order")


def test_order_spec_rejects_a_value_listed_twice():
    rejects(order_spec, "sex=Male,Female,Male", "'sex=Male,Female,Male': 'Male' is listed twice")


# -------------------------------------------------------------------------- separator
@pytest.mark.parametrize("text, sep", [(",", ","), (";", ";"), ("|", "|"), ("tab", "\t"),
                                       ("\\t", "\t"), ("\t", "\t")])
def test_separator(text, sep):
    assert separator(text) == sep


@pytest.mark.parametrize("text", ["", ",,", "tabs", '"', "'", "\n", "\r"])
def test_separator_rejects(text):
    rejects(separator, text, SEPARATOR.format(text))


@pytest.mark.parametrize("text, value", [("1%", Fraction(1, 100)), ("0.01", Fraction(1, 100)),
                                         ("1/100", Fraction(1, 100)), (" 2.5 % ", Fraction(1, 40)),
                                         ("0", Fraction(0)), ("100%", Fraction(1)),
                                         ("1", Fraction(1))])
def test_share_of_rows(text, value):
    assert share_of_rows(text) == value


@pytest.mark.parametrize("text", ["", "%", "101%", "1.01", "-0.1", "1e-2", "nan", "1/0",
                                  "0.1.2", "one", "9" * 41])
def test_a_bad_share_of_rows(text):
    with pytest.raises(argparse.ArgumentTypeError, match=exactly(
            f"expected a share of the rows such as 1% or 0.01 (in [0, 1], at most 100%), got "
            f"{text!r}")):
        share_of_rows(text)


def test_criterion_options_read_as_the_policy_file_does():
    assert repr(criterion_option("k")("5")) == "KAnonymity(k=5)"
    assert repr(criterion_option("l-diversity")("entropy:2.5")) == "EntropyLDiversity(l=5/2)"
    assert repr(criterion_option("t-closeness")("ordered:0.2")) == \
        "TCloseness(t=1/5, distance='ordered')"
    with pytest.raises(argparse.ArgumentTypeError, match=exactly(
            "'k' must be a whole number >= 1; got '5.5'")):
        criterion_option("k")("5.5")
    assert criterion_option("t-closeness").__name__ == "t-closeness"


def test_bundled_alone_is_every_column():
    assert hierarchy_spec("bundled:adult") == (None, "bundled:adult")
    assert hierarchy_spec("age=bundled:adult") == ("age", "bundled:adult")
    with pytest.raises(argparse.ArgumentTypeError, match=exactly(HIERARCHY_FORMS.format(
            "bundled:adult:age"))):
        hierarchy_spec("bundled:adult:age")
