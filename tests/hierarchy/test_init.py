"""The public surface of skyprivacy.hierarchy (skyprivacy/hierarchy/__init__.py): what it
exports, and every declared option checked at the boundary with the house message."""

from __future__ import annotations

import inspect

import pytest

from skyprivacy import hierarchy
from skyprivacy._core.validation import declared_constraints
from skyprivacy.errors import InvalidParameterError
from skyprivacy.hierarchy import Hierarchy

from .helpers import exactly

SEX = Hierarchy([["Male", "*"], ["Female", "*"]], name="sex")

#: Valid positional arguments of every function that declares its options.
CALLS = {
    Hierarchy: ([["a", "*"]],),
    hierarchy.parse_arx: ("a;*",),
    hierarchy.generate_arx: (SEX,),
    hierarchy.from_levels: ([["a", "*"]],),
    hierarchy.from_mapping: ({"a": ["*"]},),
    hierarchy.intervals: ([1], [5]),
    hierarchy.masking: (["12"],),
    hierarchy.dates: (["2024-01-01"],),
}


def test_exports():
    assert set(hierarchy.__all__) == {
        "Hierarchy", "generalize_frame", "parse_arx", "generate_arx", "from_levels",
        "from_mapping", "intervals", "masking", "dates", "ROOT_LABEL"}
    assert all(hasattr(hierarchy, name) for name in hierarchy.__all__)


def test_every_export_comes_from_the_module_that_defines_it(misattributed_exports):
    assert misattributed_exports(hierarchy) == []


def test_nothing_but_the_exports_and_the_modules_is_public(unexported_names):
    assert unexported_names(hierarchy) == []


def test_every_builder_and_reader_declares_its_options():
    undeclared = [name for name in hierarchy.__all__
                  if inspect.isroutine(getattr(hierarchy, name))
                  and declared_constraints(getattr(hierarchy, name)) is None]
    assert undeclared == []
    assert declared_constraints(Hierarchy.__init__)[0] == "Hierarchy"


CASES = [(function, parameter)
         for function in CALLS
         for parameter in declared_constraints(
             function.__init__ if function is Hierarchy else function)[1]]


@pytest.mark.parametrize("function, parameter", CASES,
                         ids=[f"{getattr(f, '__name__', f)}-{p}" for f, p in CASES])
def test_an_invalid_value_of_each_declared_option_gets_the_house_message(
        function, parameter, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no builder touches a file
    owner, constraints = declared_constraints(
        function.__init__ if function is Hierarchy else function)
    constraint = constraints[parameter]
    bad = constraint.invalid_value()
    bound = inspect.signature(function).bind_partial(*CALLS[function])
    bound.arguments[parameter] = bad
    expected = (f"The '{parameter}' parameter of {owner} must "
                f"{constraint.message_requirement(bad)}. Got {constraint.shown(bad)!r} instead.")
    with pytest.raises(InvalidParameterError, match=exactly(expected)):
        function(*bound.args, **bound.kwargs)
    assert list(tmp_path.iterdir()) == []
