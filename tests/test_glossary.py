"""The glossary (docs/concepts.md, "One name per concept") and the public signatures agree.

The test reads the glossary's two tables (name -> meaning -> where, and the retired names) and
walks every public function and method (the walk of ``tests/test_public_functions.py``) plus
the fields of the exported result dataclasses:

* no public parameter has a retired name (``df``, ``frame``, ``release_table`` ...);
* a name the glossary restricts to some places (``c``, ``diversity_c``, ``n_queries``,
  ``target_prediction``) appears nowhere else;
* ``m`` appears only beside ``l`` and ``k`` (a knowledge amount, never a count of queries);
* every ``table`` parameter is a DataFrame or a DecisionTable, every ``release`` a
  ReleaseCandidate, and every ``c`` that declares a type declares the skyline confidence.
"""
import dataclasses
import inspect
import re
from pathlib import Path

import pandas as pd
import pytest

from skyprivacy import ReleaseCandidate
from skyprivacy._core.validation import InstanceOf, Nullable, declared_constraints
from skyprivacy.knowledge import CONFIDENCE
from skyprivacy.transparency import DecisionTable

from test_public_functions import MODULES, public_callables

CONCEPTS = Path(__file__).resolve().parents[1] / "docs" / "concepts.md"
NAME = re.compile(r"`([A-Za-z_][\w.]*)`")


def _rows(text: str, heading: str) -> list[list[str]]:
    """The cells of the first Markdown table after ``heading``."""
    section = text.split(heading, 1)[1]
    rows = []
    for line in section.splitlines():
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows:
            break
    assert rows and set(rows[1][0]) <= set("-:"), f"no table after {heading!r}"
    return rows[2:]


def glossary() -> dict[str, tuple[str, set[str]]]:
    """name -> (meaning, the backquoted names of its 'where' cell; empty for 'everywhere')."""
    text = CONCEPTS.read_text(encoding="utf-8")
    out = {}
    for names, meaning, where in _rows(text, "## One name per concept"):
        places = set() if "every" in where and "`" not in where else set(NAME.findall(where))
        for name in NAME.findall(names):
            out[name] = (meaning, places)
    return out


def retired() -> dict[str, str]:
    """old name -> the 'where it was' cell of the retired-names table."""
    text = CONCEPTS.read_text(encoding="utf-8")
    return {NAME.findall(old)[0]: where
            for old, _new, where in _rows(text, "### Retired names")}


def public_names():
    """(label, module, parameter or field name, constraint, annotation) of every public
    parameter, and of every field of an exported dataclass (``kind`` says which)."""
    for label, _owner, _attr, function in public_callables():
        declared = declared_constraints(function)
        constraints = declared[1] if declared else {}
        for name, spec in inspect.signature(function).parameters.items():
            if name in ("self", "cls"):
                continue
            yield ("parameter", label, function.__module__, name, constraints.get(name),
                   spec.annotation)
    for module in MODULES:
        for export in module.__all__:
            obj = getattr(module, export)
            if inspect.isclass(obj) and dataclasses.is_dataclass(obj):
                for item in dataclasses.fields(obj):
                    yield "field", export, obj.__module__, item.name, None, item.type


def _owner(label: str) -> str:
    return label.split(".")[0]


def test_the_glossary_has_the_names_the_tests_rely_on():
    names = glossary()
    for name in ("c", "l", "k", "m", "table", "release", "diversity_c", "n_queries",
                 "target_prediction", "safe"):
        assert name in names, name
    assert {"df", "frame", "release_table", "confidence", "m"} <= set(retired())


def test_no_public_parameter_has_a_retired_name():
    gone = retired()
    found = []
    for kind, label, module, name, _, _ in public_names():
        if kind != "parameter" or name not in gone:
            continue
        where = gone[name]
        scoped = NAME.findall(where)
        # a retired name that lives on elsewhere in another meaning (m) is retired only where
        # the table says it was
        if name in glossary() and not any(module.startswith(place) for place in scoped):
            continue
        found.append(f"{label}({name})")
    assert found == []


@pytest.mark.parametrize("name", ["c", "diversity_c", "n_queries", "target_prediction"])
def test_a_restricted_name_appears_only_where_the_glossary_says(name):
    _, places = glossary()[name]
    assert places, f"the glossary gives no place for {name!r}"
    outside = sorted({f"{label}({name})" for _, label, module, found, _, _ in public_names()
                      if found == name and _owner(label) not in places
                      and not any(module.startswith(place) for place in places)})
    assert outside == []


def test_m_is_a_knowledge_amount_beside_l_and_k():
    names_of: dict[str, set] = {}
    for _, label, _, name, _, _ in public_names():
        names_of.setdefault(label, set()).add(name)
    alone = sorted(label for label, names in names_of.items()
                   if "m" in names and not {"l", "k"} <= names)
    assert alone == []


def _declared_types(constraint) -> tuple:
    while isinstance(constraint, Nullable):
        constraint = constraint.inner
    return constraint.types if isinstance(constraint, InstanceOf) else ()


@pytest.mark.parametrize("name, types, words", [
    ("table", (pd.DataFrame, DecisionTable), ("DataFrame", "DecisionTable")),
    ("release", (ReleaseCandidate,), ("ReleaseCandidate",)),
])
def test_a_data_name_always_holds_the_same_kind_of_object(name, types, words):
    wrong = []
    for kind, label, _, found, constraint, annotation in public_names():
        if found != name or kind != "parameter":
            continue
        declared = _declared_types(constraint)
        text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__",
                                                                      str(annotation))
        if declared:
            ok = set(declared) <= set(types)
        else:
            ok = any(word in str(text) for word in words)
        if not ok:
            wrong.append(f"{label}({name}: {declared or text})")
    assert wrong == []


def test_every_declared_c_is_the_skyline_confidence():
    others = [label for kind, label, _, name, constraint, _ in public_names()
              if name == "c" and constraint is not None and constraint is not CONFIDENCE]
    assert others == []
