"""The common test of every public function of the subpackages (issue 13, item 2).

Like scikit-learn's ``test_public_functions``: every public function or method of
:mod:`skyprivacy.baselines`, :mod:`skyprivacy.transparency`, :mod:`skyprivacy.fairness_queries`,
:mod:`skyprivacy.experimental.group_tagging` (and the drawing edge :mod:`skyprivacy.plotting`)
that declares parameter constraints is called
once per declared parameter with a value that violates it, every other argument valid, and
must raise InvalidParameterError with the house template naming that parameter and the
function as users call it.  A second walk holds the calling convention: nothing positional-only,
and every parameter with a default keyword-only unless it is data.
"""
import dataclasses
import inspect
import re
from fractions import Fraction

import pandas as pd
import pytest

import skyprivacy.baselines
import skyprivacy.experimental.group_tagging
import skyprivacy.fairness_queries
import skyprivacy.plotting
import skyprivacy.transparency
from skyprivacy import ReleaseCandidate
from skyprivacy._core.validation import (Boolean, InstanceOf, Interval, Nullable, Options,
                                         Predicate, RandomState, declared_constraints)
from skyprivacy.errors import InvalidParameterError
from skyprivacy.experimental.group_tagging import EncodingMap, one_hot_encode
from skyprivacy.fairness_queries import AttributeConceal, BudgetAccountant
from skyprivacy.transparency import DecisionTable, Delta, tradeoff_curve

MODULES = (skyprivacy.baselines, skyprivacy.transparency, skyprivacy.fairness_queries,
           skyprivacy.experimental.group_tagging, skyprivacy.plotting)
TEMPLATE = re.compile(r"^The '(?P<name>\w+)' parameter of (?P<owner>[\w.]+) must (?P<req>.+)\. "
                      r"Got (?P<got>.+) instead\.$", re.S)


def _decision_table():
    frame = pd.DataFrame({"g": ["a", "a"], "s": [1, 2], "w": [1, 3], "d": [0.2, 0.9]})
    return DecisionTable.from_frame(frame, public="g", sensitive="s", weight="w", decision="d")


#: One valid instance of every type a declared constraint asks for.
EXAMPLES = {
    ReleaseCandidate: lambda: ReleaseCandidate.from_groups([(2, ["a", "b"])]),
    DecisionTable: _decision_table,
    pd.DataFrame: lambda: pd.DataFrame({"g": ["a"]}),
    BudgetAccountant: BudgetAccountant,
    skyprivacy.transparency.TradeoffCurve: lambda: tradeoff_curve(_decision_table(), [0, 1]),
    Delta: lambda: Delta(0.5),
}


#: How to make the instance whose method is called, for classes that take arguments.
INSTANCES = {
    EncodingMap: lambda: one_hot_encode(pd.DataFrame({"g": ["a"]}), columns="g").encoding,
}


def valid(constraint):
    """A value meeting ``constraint`` (the counterpart of ``Constraint.invalid_value``)."""
    if isinstance(constraint, Nullable):
        return None
    if isinstance(constraint, Options):
        return constraint.values[0]
    if isinstance(constraint, Boolean):
        return True
    if isinstance(constraint, RandomState):
        return 0
    if isinstance(constraint, Predicate):
        return lambda *args: None
    if isinstance(constraint, InstanceOf):
        for kind in constraint.types:
            for example_type, make in EXAMPLES.items():
                if issubclass(example_type, kind) or issubclass(kind, example_type):
                    if isinstance(make(), kind):
                        return make()
        if any(issubclass(AttributeConceal, kind) for kind in constraint.types):
            return AttributeConceal(epsilon=1.0)
        raise AssertionError(f"no example for {constraint.types}")
    assert isinstance(constraint, Interval)
    low, high = constraint.low, constraint.high
    if low is not None and high is not None:
        middle = (Fraction(low) + Fraction(high)) / 2
        return int(middle) + (constraint.closed in ("right", "neither")) \
            if constraint.kind == "integer" else float(middle)
    if low is not None:
        return low + 1
    if high is not None:
        return high - 1
    return 0


def declared_callables():
    """(label, callable to call, owner, constraints, parameters) of every declared function."""
    seen = set()
    for module in MODULES:
        for name in module.__all__:
            obj = getattr(module, name)
            targets = []
            if inspect.isclass(obj):
                for attr, member in vars(obj).items():
                    if attr == "__init__" or (not attr.startswith("_") and callable(member)):
                        targets.append((f"{name}.{attr}", obj, attr, member))
            elif callable(obj):
                targets.append((name, obj, None, obj))
            for label, owner_obj, attr, function in targets:
                declared = declared_constraints(function)
                if declared is None or label in seen:
                    continue
                seen.add(label)
                yield label, owner_obj, attr, function, declared


#: Where messages name a function other than by its label: the class is documented through its
#: constructor ``DecisionTable.from_frame`` (calling the class does the same).
OWNERS = {"DecisionTable.__init__": "DecisionTable.from_frame"}
CASES = [(label, parameter) for label, _, _, _, (_, constraints) in declared_callables()
         for parameter in constraints]
FUNCTIONS = {label: rest for label, *rest in declared_callables()}


def test_the_walk_covers_every_area():
    owners = {label.split(".")[0] for label in FUNCTIONS}
    for expected in ("k_anonymity", "t_closeness", "dp_breach_probability", "optimal_privacy",
                     "satisfies_beta", "fidelity_bounds", "AttributeConceal",
                     "BudgetAccountant", "cs_reveal", "smooth_sensitivity_sp",
                     "plot_tradeoff_curve", "DecisionTable", "one_hot_encode", "EncodingMap",
                     "select_related_attributes", "tag_groups", "plan_fis", "fis_shuffle",
                     "paper_fis_epsilon", "row_return_probability", "empirical_relinkage_rate",
                     "RelationImpactClassifier", "count_report", "tree_levels",
                     "paper_loss_bound", "select_fis_config"):
        assert expected in owners, expected
    assert len(CASES) > 120


@pytest.mark.parametrize("label, parameter", CASES)
def test_every_declared_parameter_rejects_an_invalid_value(label, parameter):
    owner_obj, attr, function, (owner, constraints) = FUNCTIONS[label]
    signature = inspect.signature(function)
    arguments = {}
    for name, spec in signature.parameters.items():
        if name in ("self", "cls") or spec.kind in (spec.VAR_POSITIONAL, spec.VAR_KEYWORD):
            continue
        if name == parameter:
            arguments[name] = bad = constraints[name].invalid_value()
        elif name in constraints:
            arguments[name] = valid(constraints[name])
        elif spec.default is spec.empty:
            arguments[name] = None  # data: validated in the body, which is never reached
    if attr is None:
        call = function
    elif attr == "__init__":
        call = owner_obj
    else:
        call = getattr(INSTANCES.get(owner_obj, owner_obj)(), attr)
    with pytest.raises(InvalidParameterError) as err:
        call(**arguments)
    message = str(err.value)
    match = TEMPLATE.match(message)
    assert match, message
    assert match["name"] == parameter and match["owner"] == owner
    assert owner == OWNERS.get(label, label.removesuffix(".__init__"))
    constraint = constraints[parameter]
    assert match["req"] == constraint.message_requirement(bad)
    assert match["got"] == repr(constraint.shown(bad))


#: Parameters with a default that are data, not options: the labels y, the announced rule, the
#: fidelity levels of a curve, the axes to draw on.
DATA_WITH_DEFAULT = {"y", "announced", "values", "ax"}
#: An accountant's budget and each charge are the (epsilon, delta) pair it accounts, as in
#: diffprivlib's BudgetAccountant: data of the accountant, not options.
DATA_WITH_DEFAULT_OF = {"BudgetAccountant.__init__": {"epsilon", "delta"},
                        "BudgetAccountant.can_spend": {"delta"},
                        "BudgetAccountant.spend": {"delta"}}


def public_functions():
    for module in MODULES:
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj):
                for attr, member in vars(obj).items():
                    if attr == "__init__" and dataclasses.is_dataclass(obj):
                        continue  # results: built by the library, one field per attribute
                    if (attr == "__init__" or not attr.startswith("_")) and inspect.isfunction(
                            inspect.unwrap(member) if callable(member) else None):
                        yield f"{name}.{attr}", member
            elif inspect.isfunction(inspect.unwrap(obj)):
                yield name, obj


@pytest.mark.parametrize("label, function", list(public_functions()),
                         ids=[label for label, _ in public_functions()])
def test_data_positional_options_keyword_only(label, function):
    for name, spec in inspect.signature(function).parameters.items():
        assert spec.kind is not spec.POSITIONAL_ONLY, f"{label}: {name} is positional-only"
        if spec.kind is spec.POSITIONAL_OR_KEYWORD and spec.default is not spec.empty:
            assert name in DATA_WITH_DEFAULT | DATA_WITH_DEFAULT_OF.get(label, set()), \
                f"{label}: option {name} is positional"
