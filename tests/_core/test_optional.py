"""Optional imports name the extra to install (skyprivacy/_core/optional.py)."""
import sys

import pytest

from skyprivacy._core.optional import EXTRAS, missing_message, optional_import


def test_present_module_is_returned():
    import scipy.optimize

    assert optional_import("scipy.optimize", owner="x") is scipy.optimize


@pytest.mark.parametrize("module, owner, message", [
    ("scipy.optimize", "lp_reference", "lp_reference needs scipy: pip install 'skyprivacy[lp]'"),
    ("matplotlib.pyplot", "plot_tradeoff_curve",
     "plot_tradeoff_curve needs matplotlib: pip install 'skyprivacy[plot]'"),
    ("sklearn", "classification_accuracy",
     "classification_accuracy needs scikit-learn: pip install 'skyprivacy[ml]'"),
])
def test_missing_module_names_the_extra(monkeypatch, module, owner, message):
    assert missing_message(module, owner) == message
    monkeypatch.setitem(sys.modules, module, None)  # importing it now raises ImportError
    with pytest.raises(ImportError) as err:
        optional_import(module, owner=owner)
    assert str(err.value) == message and err.value.__cause__ is None


def test_extras_match_pyproject():
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib
    from pathlib import Path

    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    extras = pyproject["project"]["optional-dependencies"]
    for distribution, extra in EXTRAS.values():
        assert any(spec.startswith(distribution) for spec in extras[extra]), (distribution, extra)
