"""Skyline points, skylines (dominance) and value-centric policies."""
import numbers
import re
from fractions import Fraction

import numpy as np
import pytest

from skyprivacy import InvalidParameterError, Policy, Skyline, SkylinePoint


def test_point_fields_and_exact_confidence():
    p = SkylinePoint(1, 5, 2, 0.9)
    assert p.as_tuple() == (1, 5, 2, 0.9)
    assert p.c_exact == Fraction(9, 10)
    assert p.knowledge == (1, 5, 2)
    assert str(p) == "(l=1, k=5, m=2, c=0.9)"
    assert SkylinePoint(np.int64(1), 0, 0, Fraction(1, 3)).c_exact == Fraction(1, 3)
    assert SkylinePoint(0, 0, 0, 1).c_exact == 1
    assert type(SkylinePoint(np.int64(2), 0, 0, 0.5).l) is int


class _OtherReal:
    """A real number of a type that is neither float nor rational (as gmpy2's mpfr is)."""

    def __init__(self, x: float):
        self.x = x

    def __float__(self) -> float:
        return self.x

    def __repr__(self) -> str:
        return f"_OtherReal({self.x!r})"


numbers.Real.register(_OtherReal)


def test_confidence_of_another_real_type_is_read_like_a_float():
    assert SkylinePoint(1, 0, 0, _OtherReal(0.9)).c_exact == Fraction(9, 10)
    with pytest.raises(InvalidParameterError,
                       match=re.escape("The 'c' parameter of SkylinePoint must be in (0, 1]. "
                                       "Got inf instead.")):
        SkylinePoint(1, 0, 0, _OtherReal(float("inf")))


def test_dominance_is_the_papers_order():
    strong = SkylinePoint(2, 5, 2, 0.5)
    assert strong.dominates(SkylinePoint(1, 5, 2, 0.5))
    assert strong.dominates(SkylinePoint(2, 5, 2, 0.6))
    assert not strong.dominates(SkylinePoint(2, 5, 2, 0.4))
    assert not SkylinePoint(1, 3, 4, 0.5).dominates(SkylinePoint(1, 5, 2, 0.5))


def test_skyline_drops_dominated_and_duplicate_points():
    sky = Skyline([(1, 1, 5, 0.5), (1, 3, 4, 0.5), (1, 5, 2, 0.5), (1, 2, 2, 0.5),
                   (1, 5, 2, 0.6), SkylinePoint(1, 5, 2, Fraction(1, 2))])
    assert [p.knowledge for p in sky] == [(1, 1, 5), (1, 3, 4), (1, 5, 2)]
    assert len(sky) == 3
    assert sky.covers((0, 2, 3, 0.9)) and not sky.covers((1, 4, 4, 0.5))
    assert Skyline(sky) == sky and hash(Skyline(sky)) == hash(sky)


def test_policy_value_centric_with_default():
    policy = Policy({"AIDS": [(1, 5, 2, 0.5), SkylinePoint(1, 1, 5, 0.5)]},
                    default=[(1, 5, 1, 0.9)])
    assert policy.values == ("AIDS",)
    assert policy.skyline_for("AIDS") == Skyline([(1, 1, 5, 0.5), (1, 5, 2, 0.5)])
    assert policy.skyline_for("Flu") == Skyline([(1, 5, 1, 0.9)])
    assert policy.skyline_for(["unhashable"]) == policy.default
    assert Policy({"AIDS": [(0, 0, 0, 0.5)]}).skyline_for("Flu") is None
    assert len(policy.points()) == 2


def test_policy_dict_round_trip_and_toml_shape():
    policy = Policy({"Exec-managerial": [(4, 10, 4, 0.9), (1, 20, 1, 0.9)]},
                    default=[(1, 5, 1, 0.9)])
    assert Policy.from_dict(policy.to_dict()) == policy
    toml_shape = {"default": {"skyline": [[1, 5, 1, 0.9]]},
                  "values": {"Exec-managerial": {"skyline": [[4, 10, 4, 0.9], [1, 20, 1, 0.9]]}}}
    assert Policy.from_dict(toml_shape) == policy
    assert "Exec-managerial" in repr(policy)


@pytest.mark.parametrize("call,message", [
    (lambda: SkylinePoint(-1, 0, 0, 0.5),
     "The 'l' parameter of SkylinePoint must be a non-negative integer. Got -1 instead."),
    (lambda: SkylinePoint(0, 1.5, 0, 0.5),
     "The 'k' parameter of SkylinePoint must be a non-negative integer. Got 1.5 instead."),
    (lambda: SkylinePoint(0, 0, True, 0.5),
     "The 'm' parameter of SkylinePoint must be a non-negative integer. Got True instead."),
    (lambda: SkylinePoint(0, 0, 0, 1.5),
     "The 'c' parameter of SkylinePoint must be in (0, 1]. Got 1.5 instead."),
    (lambda: SkylinePoint(0, 0, 0, 0),
     "The 'c' parameter of SkylinePoint must be in (0, 1]. Got 0 instead."),
    (lambda: SkylinePoint(0, 0, 0, float("nan")),
     "The 'c' parameter of SkylinePoint must be in (0, 1]. Got nan instead."),
    (lambda: SkylinePoint(0, 0, 0, "0.5"),
     "The 'c' parameter of SkylinePoint must be a number in (0, 1]. Got '0.5' instead."),
    (lambda: SkylinePoint.coerce((1, 2, 3)),
     "A skyline point must be a SkylinePoint or an (l, k, m, c) tuple. Got (1, 2, 3) instead."),
    (lambda: SkylinePoint.coerce(7),
     "A skyline point must be a SkylinePoint or an (l, k, m, c) tuple. Got 7 instead."),
    (lambda: Skyline([]),
     "A skyline needs at least one (l, k, m, c) point. Got an empty list instead."),
    (lambda: Skyline((1, 2, 3, 0.5)),
     "A skyline point must be a SkylinePoint or an (l, k, m, c) tuple. Got 1 instead."),
    (lambda: Skyline(SkylinePoint(1, 2, 3, 0.5)),
     "A skyline must be a list of (l, k, m, c) points. Got SkylinePoint(l=1, k=2, m=3, c=0.5) "
     "instead."),
    (lambda: Policy(),
     "A policy needs at least one skyline: give per-value skylines or a default."),
    (lambda: Policy([("AIDS", [(0, 0, 0, 0.5)])]),
     "The 'skylines' parameter of Policy must be a mapping of value -> list of points. "
     "Got [('AIDS', [(0, 0, 0, 0.5)])] instead."),
    (lambda: Policy({"AIDS": [(0, 0, 0, 2)]}),
     "Policy for value 'AIDS': The 'c' parameter of SkylinePoint must be in (0, 1]. "
     "Got 2 instead."),
    (lambda: Policy.from_dict([1]),
     "The 'data' parameter of Policy.from_dict must be a mapping. Got [1] instead."),
    (lambda: Policy.from_dict({"defaults": {}}),
     "Unknown policy section(s) ['defaults']; expected 'default' and 'values'."),
    (lambda: Policy.from_dict({"default": {"points": []}}),
     "Policy section 'default' has no 'skyline' list."),
    (lambda: Policy.from_dict({"values": [1, 2]}),
     "Policy section 'values' must map values to skylines."),
])
def test_error_messages(call, message):
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        call()
