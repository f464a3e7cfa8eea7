"""Optional dependencies: one function imports them, one wording names the extra to install.

The extras are those of ``pyproject.toml``: ``lp`` (scipy), ``plot`` (matplotlib),
``parquet`` (pyarrow), ``ml`` (scikit-learn), ``excel`` (openpyxl), ``progress`` (tqdm) and
``sign`` (cryptography).
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["EXTRAS", "optional_import", "missing_message", "require_dask"]

#: Top-level module -> (distribution to install, skyprivacy extra that installs it).
EXTRAS = {
    "scipy": ("scipy", "lp"),
    "matplotlib": ("matplotlib", "plot"),
    "pyarrow": ("pyarrow", "parquet"),
    "sklearn": ("scikit-learn", "ml"),
    "openpyxl": ("openpyxl", "excel"),
    "tqdm": ("tqdm", "progress"),
    "cryptography": ("cryptography", "sign"),
}


def missing_message(module: str, owner: str) -> str:
    """The one wording of a missing optional dependency.

    Examples
    --------
    >>> missing_message("scipy.optimize", "lp_reference")
    "lp_reference needs scipy: pip install 'skyprivacy[lp]'"
    """
    top = module.split(".")[0]
    distribution, extra = EXTRAS[top]
    return f"{owner} needs {distribution}: pip install 'skyprivacy[{extra}]'"


def optional_import(module: str, *, owner: str) -> ModuleType:
    """Import an optional dependency (``"scipy.optimize"``) or say which extra installs it.

    Raises
    ------
    ImportError
        With :func:`missing_message`, chained to nothing (the original error says less).
    """
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(missing_message(module, owner)) from None


def require_dask(action: str) -> None:
    """Raise one clear ImportError when the ``dask`` extra is missing."""
    try:
        import dask.dataframe  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        raise ImportError(f"{action} needs Dask: pip install 'skyprivacy[dask]' "
                          f"(dask[dataframe] and distributed).") from None
