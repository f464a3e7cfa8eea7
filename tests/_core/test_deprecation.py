"""The shims of the calling-convention change (skyprivacy/_core/deprecation.py)."""
import inspect
import warnings

import pytest

from skyprivacy._core.deprecation import positional_options, renamed_attribute


@positional_options("release", "c", "l")
def criterion(release, *, c, l=2):
    """A criterion."""
    return release, c, l


class Mechanism:
    @positional_options("epsilon", "delta")
    def spend(self, epsilon, *, delta=0.0):
        return epsilon, delta


@positional_options("mechanism", "n", "n0")
def reordered(n, n0, *, mechanism):
    return mechanism, n, n0


def test_new_call_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert criterion("r", c=3) == ("r", 3, 2)
        assert Mechanism().spend(0.5, delta=0.1) == (0.5, 0.1)
        assert reordered(10, 3, mechanism="cauchy") == ("cauchy", 10, 3)


def test_old_call_works_and_names_the_new_one():
    with pytest.warns(FutureWarning) as caught:
        assert criterion("r", 3, 4) == ("r", 3, 4)
    assert str(caught[0].message) == (
        "Passing c, l to criterion by position is deprecated and stops working in the next "
        "release; call criterion(release, c=3, l=4).")
    assert caught[0].filename == __file__  # points at the caller
    with pytest.warns(FutureWarning, match=r"call criterion\(release, c=3\)"):
        assert criterion("r", 3) == ("r", 3, 2)
    with pytest.warns(FutureWarning, match=r"Passing delta to Mechanism.spend .* call "
                                           r"Mechanism.spend\(epsilon, delta=0.1\)"):
        assert Mechanism().spend(0.5, 0.1) == (0.5, 0.1)


def test_old_order_may_differ_from_the_new_one():
    with pytest.warns(FutureWarning, match=r"call reordered\(n, n0, mechanism='cauchy'\)"):
        assert reordered("cauchy", 10, 3) == ("cauchy", 10, 3)


def test_long_values_are_shortened_in_the_message():
    with pytest.warns(FutureWarning) as caught:
        criterion("r", "x" * 500)
    assert len(str(caught[0].message)) < 200


def test_errors_of_a_bad_old_call():
    with pytest.raises(TypeError, match=r"criterion\(\) got multiple values for argument 'c'"):
        criterion("r", 3, c=4)
    with pytest.raises(TypeError, match=r"criterion\(\) takes at most 3 positional arguments"):
        criterion("r", 1, 2, 3)


def test_signature_and_docstring_are_the_new_ones():
    assert str(inspect.signature(criterion)) == "(release, *, c, l=2)"
    assert criterion.__doc__ == "A criterion." and criterion.__name__ == "criterion"


def test_renamed_attribute_reads_the_new_one_and_warns():
    class Result:
        safe = False
        satisfied = renamed_attribute("satisfied", "safe")

    with pytest.warns(FutureWarning, match=r"^The attribute 'satisfied' is deprecated and stops "
                                           r"working in the next release; read 'safe' instead\.$"):
        assert Result().satisfied is False
    with pytest.raises(AttributeError):
        Result().satisfied = True
