"""The printed-decimal rule, native scalars and the text of exact numbers
(skyprivacy/_core/exact.py)."""
import math
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from skyprivacy._core.exact import (as_number, decimal_fraction, exact_array, fraction_text,
                                    is_real, json_number, native, native_number,
                                    parse_fraction, readable_fraction)


@pytest.mark.parametrize("value, expected", [
    (0.1, Fraction(1, 10)), (0.9, Fraction(9, 10)), (1e-300, Fraction(1, 10 ** 300)),
    (np.float64(0.75), Fraction(3, 4)), (np.float32(0.5), Fraction(1, 2)),
    (7, Fraction(7)), (np.int64(-2), Fraction(-2)), (10 ** 40, Fraction(10 ** 40)),
    (Fraction(2, 3), Fraction(2, 3)), (Decimal("0.125"), Fraction(1, 8)), (True, Fraction(1)),
])
def test_decimal_fraction_reads_what_was_written(value, expected):
    got = decimal_fraction(value)
    assert got == expected and type(got) is Fraction


def test_ten_charges_of_a_tenth_make_exactly_one():
    assert sum(decimal_fraction(0.1) for _ in range(10)) == 1
    assert sum(0.1 for _ in range(10)) != 1  # the float sum misses it


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, np.float64("nan"),
                                   Decimal("NaN"), Decimal("Infinity")])
def test_decimal_fraction_refuses_non_finite(value):
    with pytest.raises(ValueError, match="is not a finite number"):
        decimal_fraction(value)


@pytest.mark.parametrize("value", ["0.5", None, [1], 1j])
def test_decimal_fraction_refuses_non_numbers(value):
    with pytest.raises(TypeError, match="is not a real number"):
        decimal_fraction(value)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_decimal_fraction_round_trips_to_the_same_float(x):
    assert float(decimal_fraction(x)) == x


def test_native_unwraps_numpy_scalars_and_tuples():
    assert type(native(np.int64(3))) is int and type(native(np.float32(1.5))) is float
    assert type(native(np.bool_(True))) is bool
    assert native((np.int8(1), ("a", np.float64(2.0)))) == (1, ("a", 2.0))
    assert type(native((np.int8(1),))[0]) is int
    arr = np.arange(3)
    assert native(arr) is arr  # arrays are not scalars


def test_native_number_turns_decimals_into_fractions():
    assert native_number(Decimal("0.5")) == Fraction(1, 2)
    assert type(native_number(Decimal("0.5"))) is Fraction
    assert type(native_number(np.float64(0.25))) is float
    assert native_number(Fraction(1, 3)) == Fraction(1, 3)


def test_native_number_hands_back_no_numpy_scalar():
    # numpy's long double is a real number the validators accept, but its .item() is itself,
    # not a Python float: it must not leak into a result as a numpy scalar.
    for value in (np.longdouble(0.75), np.float64(0.75), np.float16(0.75)):
        got = native_number(value)
        assert type(got) is float and got == 0.75
    assert type(native_number(np.int8(3))) is int and native_number(np.uint64(2 ** 63)) == 2 ** 63
    for value in (3, 0.5, Fraction(2, 3)):
        assert native_number(value) is value


def test_exact_array_and_as_number():
    array = exact_array(np.array([[0.1, 1], [Fraction(1, 3), 2.5]], dtype=object))
    assert array.shape == (2, 2) and array.dtype == object
    assert array.tolist() == [[Fraction(1, 10), 1], [Fraction(1, 3), Fraction(5, 2)]]
    assert as_number(0.2, True) == Fraction(1, 5) and as_number(Fraction(1, 5), False) == 0.2


def test_is_real_and_texts():
    assert is_real(1) and is_real(0.5) and is_real(Decimal(1)) and is_real(np.int32(1))
    assert not is_real(True) and not is_real(np.bool_(False)) and not is_real("1")
    assert fraction_text(Fraction(3, 4)) == "3/4" and fraction_text(math.inf) == "inf"
    assert fraction_text(0.5) == "0.5"
    assert json_number(2) == 2 and json_number(0.5) == 0.5 and json_number(Fraction(1, 2)) == "1/2"


@pytest.mark.parametrize("value", [
    Fraction(2, 3), Fraction(-7, 4), Fraction(5), Fraction(0),
    Fraction(10 ** 5000 + 1, 3), Fraction(-(10 ** 4500) - 7, 10 ** 6001 + 9),
    Fraction(1, 2 ** 40000),
])
def test_fraction_text_round_trips_fractions_of_any_length(value):
    """Exact probabilities of large mvpi-multiset groups run to thousands of digits, beyond
    what str() and int() convert in one step (Python 3.11's 4,300-digit limit)."""
    text = fraction_text(value)
    assert parse_fraction(text) == value
    if value.denominator == 1:
        assert "/" not in text
    assert text.lstrip("-").replace("/", "").isdigit()


def test_parse_fraction_reads_decimals_and_refuses_junk():
    assert parse_fraction("0.9") == Fraction(9, 10) and parse_fraction(" 3 ") == 3
    with pytest.raises(ValueError):
        parse_fraction("1/x")
    with pytest.raises(ZeroDivisionError):
        parse_fraction("1/0")


def test_readable_fraction_keeps_short_fractions_and_rounds_huge_ones():
    assert readable_fraction(Fraction(980, 1091)) == "980/1091"
    assert readable_fraction(0.5) == "0.5"
    huge = Fraction(7 * 10 ** 4000 + 1, 10 ** 4001)
    assert readable_fraction(huge) == "~0.7"
