"""How thresholds and probabilities are printed (skyprivacy/_core/text.py): a threshold as the
decimal it was written as, and a percentage that never rounds onto or across its threshold."""
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import json

from skyprivacy._core.text import confidence_text, nesting_depth, percent_text


@given(st.fractions(min_value=0, max_value=1), st.fractions(min_value=Fraction(1, 10**6),
                                                            max_value=1))
@example(Fraction(2, 3), Fraction(2, 3))  # equal to a threshold no decimal is
@example(Fraction(9, 10), Fraction(9, 10))
def test_a_printed_percentage_is_on_the_same_side_of_its_threshold(p, c):
    text = percent_text(p, c)
    if text[0] in "<>":  # closer than 1e-14: an explicit side
        assert p != c and (text[0] == "<") == (p < c)
        return
    if p == c:  # equal is never marked: printed as c when a short decimal is c, else rounded
        assert Fraction(text.rstrip("%")) / 100 == c or text == percent_text(p)
        return
    shown = Fraction(text.rstrip("%")) / 100
    assert (shown > c) - (shown < c) == (p > c) - (p < c)


# ------------------------------------------------------------------------- confidence_text
@pytest.mark.parametrize("c, expected", [
    (Fraction(9, 10), "0.9"),
    (Fraction(19, 20), "0.95"),
    (Fraction(1, 2), "0.5"),
    (Fraction(1), "1.0"),  # the float's repr: c = 1 reads as the decimal 1.0
    (Fraction(1, 10 ** 20), "1e-20"),  # a decimal the float repr writes in exponent form
    ("0.95", "0.95"),  # a decimal string, read exactly
    (Decimal("0.9"), "0.9"),
])
def test_a_threshold_written_as_a_decimal_prints_as_that_decimal(c, expected):
    assert confidence_text(c) == expected


@pytest.mark.parametrize("c, expected", [
    (Fraction(2, 3), "2/3"),
    (Fraction(1, 7), "1/7"),
    # 20 significant digits: the nearest float prints 0.12345678901234568, which is another
    # number, so the exact fraction is printed rather than a decimal that is not c
    (Fraction("0.12345678901234567890"), "1234567890123456789/10000000000000000000"),
])
def test_a_threshold_no_float_prints_exactly_is_printed_as_its_fraction(c, expected):
    assert confidence_text(c) == expected


# ---------------------------------------------------------------------------- percent_text
@pytest.mark.parametrize("p, digits, expected", [
    (Fraction(1, 2), 1, "50.0%"),
    (Fraction(1, 3), 1, "33.3%"),
    (Fraction(2, 3), 1, "66.7%"),  # rounded, as nothing is compared
    (0.125, 1, "12.5%"),
    (0, 1, "0.0%"),
    (1, 1, "100.0%"),
    (Fraction(1, 2), 3, "50.000%"),
    (Fraction(1, 2), 0, "50%"),
])
def test_without_a_threshold_a_probability_prints_with_the_digits_asked_for(p, digits, expected):
    assert percent_text(p, digits=digits) == expected


@pytest.mark.parametrize("p, c, expected", [
    (Fraction(1, 2), Fraction(9, 10), "50.0%"),  # far from c: one decimal is enough
    (Fraction(899, 1000), Fraction(9, 10), "89.9%"),
    (Fraction(8999, 10000), Fraction(9, 10), "89.99%"),  # 90.0% would round onto c
    (0.89955, Fraction(9, 10), "89.95%"),  # Sect. 8.1's closest call, 17,991 / 20,000
    (Fraction(90001, 100000), Fraction(9, 10), "90.001%"),  # above c is never shown as c
    (Fraction(999999, 1000000), 1, "99.9999%"),  # a breach short of certainty is not 100%
    (Fraction(9, 10), Fraction(9, 10), "90.0%"),  # equal to c, and printed equal
    (Fraction(1, 2), Fraction(1, 2), "50.0%"),
    (1, Fraction(1), "100.0%"),
])
def test_decimals_are_added_until_the_percentage_is_on_the_side_of_c_it_is_on(p, c, expected):
    assert percent_text(p, c) == expected


def test_a_float_probability_is_read_as_the_decimal_it_prints_as():
    # the float 0.9 is a little above 9/10 in binary; read as written it equals c = 0.9
    assert Fraction(0.9) > Fraction(9, 10)
    assert percent_text(0.9, Fraction(9, 10)) == "90.0%"
    assert percent_text(0.90004, Fraction(9, 10)) == "90.004%"


def test_the_threshold_digits_are_a_minimum_when_comparing():
    assert percent_text(Fraction(1, 2), Fraction(9, 10), digits=0) == "50%"
    assert percent_text(0.89955, Fraction(9, 10), digits=0) == "89.95%"  # not 90%
    assert percent_text(Fraction(1, 2), Fraction(9, 10), digits=3) == "50.000%"


def test_closer_than_twelve_decimals_the_side_is_marked_explicitly():
    c = Fraction(9, 10)
    assert percent_text(c + Fraction(1, 10 ** 15), c) == ">90.000000000000%"
    assert percent_text(c - Fraction(1, 10 ** 15), c) == "<90.000000000000%"


@pytest.mark.parametrize("p, digits, expected", [
    (Fraction(2, 3), 1, "66.7%"),  # no decimal is 2/3: printed rounded, as without c
    (Fraction(2, 3), 3, "66.667%"),
    (Fraction(1, 7), 1, "14.3%"),
    (Fraction(1, 10 ** 20), 1, "0.0%"),  # c's decimal is longer than twelve places
    (Fraction(12345, 100000), 1, "12.345%"),  # a decimal within twelve places: printed as c
])
def test_a_probability_equal_to_its_threshold_is_never_marked_as_above_or_below_it(
        p, digits, expected):
    # equal is not above: the '>' mark is for a value just above c, never for c itself
    assert percent_text(p, p, digits=digits) == expected


def _depth_of(data) -> int:
    """Nesting of a parsed JSON value, from its structure (the oracle)."""
    if isinstance(data, dict):
        return 1 + max(map(_depth_of, data.values()), default=0)
    if isinstance(data, list):
        return 1 + max(map(_depth_of, data), default=0)
    return 0


JSON = st.recursive(st.none() | st.integers() | st.text(alphabet='[]{}"\\\'ab,: '),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(alphabet='[]{}"\'ab'), inner, max_size=3),
                    max_leaves=20)


@given(JSON)
def test_nesting_depth_is_the_depth_of_the_parsed_document(data):
    assert nesting_depth(json.dumps(data)) == _depth_of(data)


def test_nesting_depth_of_a_deep_document_without_recursion():
    assert nesting_depth("[" * 1_000_000 + "]" * 1_000_000) == 1_000_000
    assert nesting_depth("a = ['[[[', \"]]\"]\n") == 1  # TOML strings of both quotes
