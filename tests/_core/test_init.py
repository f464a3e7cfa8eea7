"""The private kernel's package (skyprivacy/_core/__init__.py): a docstring and nothing else, so
every shared helper has one home, a module of its own; what the docstring lists and refers to
exists."""
import ast
from pathlib import Path

import skyprivacy._core as core


def test_the_package_defines_nothing_but_its_docstring():
    tree = ast.parse(Path(core.__file__).read_text(encoding="utf-8"))
    assert len(tree.body) == 1 and ast.get_docstring(tree, clean=False) == core.__doc__
    assert not hasattr(core, "__all__")


def test_the_docstring_lists_every_module_of_the_kernel(docstring_section,
                                                                     public_modules):
    listed = docstring_section(core, "Modules")
    assert "validation" in listed and len(listed) == len(set(listed))
    assert set(listed) == public_modules(core), set(listed) ^ public_modules(core)


def test_every_cross_reference_of_the_docstring_resolves(docstring_references):
    references = docstring_references(core)
    assert {".validation.Interval", ".validation.validate_params", ".validation.check",
            "skyprivacy.errors.param_error", "skyprivacy.baselines"} <= set(references)
    assert [target for target, obj in references.items() if obj is None] == []
