"""Every declared core dependency is imported by the package (pyproject.toml read as TOML), and
every third-party module the package imports at its top level is declared or optional."""
import ast
import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "skyprivacy"
#: distribution name -> the module it is imported as, where the two differ
MODULE_OF = {"scikit-learn": "sklearn", "dask[dataframe]": "dask"}


def declared() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = []
    for requirement in project["dependencies"]:
        name = re.split(r"[<>=!~;\s\[]", requirement, maxsplit=1)[0]
        names.append(MODULE_OF.get(name, name))
    return names


def imported() -> set[str]:
    found = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    return found


def test_every_declared_dependency_is_imported():
    unused = [name for name in declared() if name not in imported()]
    assert unused == [], f"declared in pyproject.toml but imported nowhere: {unused}"


def test_the_core_dependencies_are_the_ones_the_house_names():
    assert set(declared()) == {"pandas", "numpy", "networkx", "sortedcontainers", "scipy",
                               "tomli"}
