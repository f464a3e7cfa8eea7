"""Declared constraints and their one message template (skyprivacy/_core/validation.py)."""
import math
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from skyprivacy._core.exact import decimal_fraction
from skyprivacy._core.validation import (Boolean, InstanceOf, Interval, Nullable, Options,
                                         Predicate, RandomState, as_generator, check,
                                         declared_constraints, owner_of, validate_params)
from skyprivacy.errors import InvalidParameterError


def message(value, constraint, name="x", owner="f"):
    with pytest.raises(InvalidParameterError) as err:
        check(value, constraint, name=name, owner=owner)
    return str(err.value)


@pytest.mark.parametrize("constraint, requirement", [
    (Interval("integer", 1), "be a positive integer"),
    (Interval("integer", 0), "be a non-negative integer"),
    (Interval("integer", 0, closed="neither"), "be a positive integer"),
    (Interval("integer", 3), "be an integer >= 3"),
    (Interval("integer", 1, 9), "be an integer in [1, 9]"),
    (Interval("integer", None, 5), "be an integer <= 5"),
    (Interval("integer"), "be an integer"),
    (Interval("real", 0, 1, closed="right"), "be in (0, 1]"),
    (Interval("real", 0, 1), "be in [0, 1]"),
    (Interval("real", 0, 1, closed="neither"), "be in (0, 1)"),
    (Interval("real", 0, 1, closed="left"), "be in [0, 1)"),
    (Interval("real", 0, closed="neither"), "be a finite number > 0"),
    (Interval("real", 0, closed="left"), "be a finite number >= 0"),
    (Interval("real", 0, closed="left", inf=True), "be a number >= 0"),
    (Interval("real", None, 2.5), "be a finite number <= 2.5"),
    (Interval("real"), "be a finite number"),
    (Interval("real", 0, closed="neither", inf=True, note="math.inf for no limit"),
     "be a number > 0 (math.inf for no limit)"),
    (Interval("integer", 3, note="the sensitivity bounds assume n >= 3"),
     "be an integer >= 3 (the sensitivity bounds assume n >= 3)"),
])
def test_requirement_words(constraint, requirement):
    bad = constraint.invalid_value()
    assert not constraint.is_satisfied_by(bad)
    assert message(bad, constraint) == (f"The 'x' parameter of f must {requirement}. "
                                        f"Got {bad!r} instead.")


def test_two_sided_intervals_say_number_when_the_value_is_not_one():
    constraint = Interval("real", 0, 1, closed="right")
    assert message("a", constraint) == ("The 'x' parameter of f must be a number in (0, 1]. "
                                        "Got 'a' instead.")
    assert message(True, constraint) == ("The 'x' parameter of f must be a number in (0, 1]. "
                                         "Got True instead.")
    assert message(1.5, constraint) == "The 'x' parameter of f must be in (0, 1]. Got 1.5 instead."


@pytest.mark.parametrize("value", [1, 1.0, np.int8(1), np.float32(0.5), Fraction(1, 3),
                                   Decimal("0.25"), 5e-324])
def test_real_interval_accepts_every_numeric_type(value):
    assert Interval("real", 0, 1, closed="right").is_satisfied_by(value)


@pytest.mark.parametrize("value", [0, 0.0, -1e-300, 1.0000000000000002, math.nan, math.inf,
                                   Decimal("NaN"), Decimal("Infinity"), True, "0.5", None,
                                   np.array([0.5])])
def test_real_interval_refuses(value):
    assert not Interval("real", 0, 1, closed="right").is_satisfied_by(value)


def test_bounds_are_compared_exactly_on_the_printed_decimal():
    # 0.1 + 0.2 prints as 0.30000000000000004, which is above 3/10
    assert not Interval("real", 0, Fraction(3, 10)).is_satisfied_by(0.1 + 0.2)
    assert Interval("real", 0, 0.3).is_satisfied_by(0.3)
    assert Interval("real", Fraction(1, 3), 1).is_satisfied_by(Fraction(1, 3))
    assert not Interval("real", Fraction(1, 3), 1).is_satisfied_by(0.3333333333333333)


def test_infinity_only_on_an_open_unbounded_side():
    constraint = Interval("real", 0, closed="neither", inf=True)
    assert constraint.is_satisfied_by(math.inf) and not constraint.is_satisfied_by(-math.inf)
    assert not constraint.is_satisfied_by(math.nan)
    assert not Interval("real", 0, 1, inf=True).is_satisfied_by(math.inf)
    assert Interval("real", None, 0, inf=True).is_satisfied_by(-math.inf)


@pytest.mark.parametrize("value, ok", [(3, True), (np.int64(3), True), (10 ** 30, True),
                                       (3.0, False), (True, False), (np.bool_(True), False),
                                       ("3", False), (0, False)])
def test_integer_interval(value, ok):
    assert Interval("integer", 1).is_satisfied_by(value) is ok


def test_check_returns_native_values():
    assert type(check(np.int64(4), Interval("integer", 1), name="k", owner="f")) is int
    assert type(check(np.float64(0.5), Interval("real", 0, 1), name="t", owner="f")) is float
    assert check(Fraction(1, 2), Interval("real", 0, 1), name="t", owner="f") == Fraction(1, 2)


def test_options_boolean_instance_predicate_random_state():
    assert message("max", Options("mean", "median"), "stat", "avg_sp_error") == \
        "The 'stat' parameter of avg_sp_error must be one of ['mean', 'median']. Got 'max' instead."
    assert Options("cauchy", None).is_satisfied_by(None)
    assert not Options("a", "b").is_satisfied_by(np.array(["a", "b"]))
    assert message("yes", Boolean()) == ("The 'x' parameter of f must be True or False. "
                                         "Got 'yes' instead.")
    assert Boolean().is_satisfied_by(np.bool_(False)) and not Boolean().is_satisfied_by(1)
    frame_only = InstanceOf(pd.DataFrame, name="a pandas DataFrame")
    assert message({}, frame_only) == \
        "The 'x' parameter of f must be a pandas DataFrame. Got 'dict' instead."
    assert message([], InstanceOf(int, float)) == \
        "The 'x' parameter of f must be a int or a float. Got 'list' instead."
    assert message(3, Predicate(callable, "be a callable", invalid=3)) == \
        "The 'x' parameter of f must be a callable. Got 3 instead."
    state = RandomState()
    for good in (None, 0, np.int64(7), np.random.default_rng(1)):
        assert state.is_satisfied_by(good)
    for bad in (-1, 1.5, True, np.random.RandomState(0), "1"):
        assert not state.is_satisfied_by(bad)
    assert message(-1, state, "random_state") == (
        "The 'random_state' parameter of f must be None, a non-negative int seed or a "
        "numpy.random.Generator. Got -1 instead.")


def test_nullable_and_text_override():
    batch = Nullable(Interval("integer", 1))
    assert batch.is_satisfied_by(None) and batch.is_satisfied_by(2)
    assert message(0, batch) == "The 'x' parameter of f must be a positive integer. Got 0 instead."
    custom = Interval("integer", 1, 4, text="be an integer in [1, n - 1] = [1, 4]")
    assert message(7, custom, "n0", "local_sensitivity_sp") == (
        "The 'n0' parameter of local_sensitivity_sp must be an integer in [1, n - 1] = [1, 4]. "
        "Got 7 instead.")


def test_as_generator():
    rng = np.random.default_rng(3)
    assert as_generator(rng) is rng
    assert as_generator(5).integers(10 ** 9) == np.random.default_rng(5).integers(10 ** 9)
    assert isinstance(as_generator(None), np.random.Generator)


@validate_params({"k": Interval("integer", 1), "exact": Boolean()})
def k_check(release, *, k, exact=False):
    return release, k, exact


class Accountant:
    @validate_params({"epsilon": Interval("real", 0, closed="neither", inf=True)})
    def __init__(self, epsilon=math.inf):
        self.epsilon = epsilon

    @validate_params({"delta": Interval("real", 0, 1, closed="left")})
    def spend(self, epsilon, delta=0.0):
        return epsilon, delta


def test_validate_params_checks_what_the_caller_passed():
    got = k_check("r", k=np.int64(2), exact=np.bool_(True))
    assert got == ("r", 2, True) and type(got[1]) is int and type(got[2]) is bool
    assert type(Accountant().spend(1.0, np.float64(0.5))[1]) is float
    with pytest.raises(InvalidParameterError) as err:
        k_check("r", k=0)
    assert str(err.value) == ("The 'k' parameter of k_check must be a positive integer. "
                              "Got 0 instead.")
    with pytest.raises(InvalidParameterError, match=r"^The 'exact' parameter of k_check must be "
                                                    r"True or False\. Got 1 instead\.$"):
        k_check("r", k=1, exact=1)
    assert Accountant().epsilon == math.inf  # defaults are not checked
    with pytest.raises(InvalidParameterError, match=r"^The 'epsilon' parameter of Accountant "
                                                    r"must be a number > 0\. Got 0 instead\.$"):
        Accountant(0)
    with pytest.raises(InvalidParameterError, match=r"^The 'delta' parameter of "
                                                    r"Accountant\.spend must be in \[0, 1\)\."):
        Accountant().spend(1.0, 1)


def test_declared_constraints_and_owner():
    owner, constraints = declared_constraints(k_check)
    assert owner == "k_check" and set(constraints) == {"k", "exact"}
    assert declared_constraints(Accountant.spend)[0] == "Accountant.spend"
    assert declared_constraints(Accountant.__init__)[0] == "Accountant"
    assert declared_constraints(len) is None
    assert owner_of(Accountant.spend) == "Accountant.spend"


def test_validate_params_refuses_an_unknown_parameter():
    with pytest.raises(TypeError, match=r"has no parameter \['kk'\]"):
        validate_params({"kk": Boolean()})(k_check.__wrapped__)


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-5, max_value=5),
       st.integers(-3, 3), st.integers(0, 3),
       st.sampled_from(["both", "left", "right", "neither"]))
def test_the_float_fast_path_agrees_with_the_printed_decimal(x, low, width, closed):
    constraint = Interval("real", low, low + width, closed=closed)
    # the exact comparison the float fast path stands in for
    exact = constraint._within(decimal_fraction(x))  # noqa: SLF001
    assert constraint.is_satisfied_by(x) == exact
    assert constraint.is_satisfied_by(x) == constraint.is_satisfied_by(np.float64(x))
