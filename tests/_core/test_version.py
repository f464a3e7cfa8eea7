"""The version of skyprivacy (skyprivacy/_core/version.py): one number, the same in the package,
the installed distribution's metadata and pyproject.toml (the top level re-exporting it is
tests/test_init.py's)."""
import importlib.metadata
from pathlib import Path

from skyprivacy._core.version import __version__

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the tomli backport the package depends on
    import tomli as tomllib

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_pyproject_states_the_same_number():
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    assert project["version"] == __version__


def test_the_installed_distribution_reports_the_same_number():
    assert importlib.metadata.version("skyprivacy") == __version__
