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


DASK_MISSING = ("Anonymizing a partitioned table needs Dask: pip install 'skyprivacy[dask]' "
                "(dask[dataframe] and distributed).")


def test_require_dask_is_silent_when_the_extra_is_installed():
    from skyprivacy._core.optional import require_dask

    assert require_dask("Anonymizing a partitioned table") is None


@pytest.mark.parametrize("module", ["dask.dataframe", "distributed"])
def test_without_the_dask_extra_one_import_error_names_what_to_install(monkeypatch, module):
    import re
    import sys

    from skyprivacy._core.optional import require_dask

    monkeypatch.setitem(sys.modules, module, None)  # the import of `module` now fails
    with pytest.raises(ImportError, match=f"^{re.escape(DASK_MISSING)}$") as caught:
        require_dask("Anonymizing a partitioned table")
    assert caught.value.__cause__ is None and caught.value.__suppress_context__  # from None
