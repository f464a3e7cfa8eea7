"""Shared test configuration: make tests/ importable (oracle.py) and tame Hypothesis; the
fixtures of the facade tests (the ``test_init.py`` of every package), which read what a
package's ``__init__.py`` binds, promises in its docstring and documents elsewhere."""
import __future__
import ast
import importlib
import importlib.util
import inspect
import os
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from skyprivacy import ReleaseCandidate

sys.path.insert(0, os.path.dirname(__file__))

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

ROOT = Path(__file__).resolve().parents[1]
#: Where users read how to call the package: the README, the guides, the examples and the
#: benchmarks.
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
             *sorted((ROOT / "examples").glob("*.py")), *sorted((ROOT / "benchmarks").glob("*.py"))]
_ROLE = re.compile(r":(?:func|class|meth|mod|attr|data|exc|obj):`~?([^`]+)`")


@pytest.fixture
def table1b():
    """Table 1b of Chen, LeFevre and Ramakrishnan (2009): two QI-groups of four, the paper's
    running example (group 0: AIDS, AIDS, Flu, Flu; group 1: AIDS, Cancer, Flu, Flu)."""
    return ReleaseCandidate.from_groups([(4, ["AIDS", "AIDS", "Flu", "Flu"]),
                                         (4, ["AIDS", "Cancer", "Flu", "Flu"])])


# ------------------------------------------------------------------ facades (test_init.py)
@pytest.fixture(scope="session")
def fresh_python():
    """Run Python source in a new interpreter, warnings as errors: the finished process (what
    an import loads is only visible before this process has imported everything)."""
    def run(code: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True,
                              text=True, timeout=120)
    return run


@pytest.fixture(scope="session")
def reexports():
    """Where a package's ``__init__.py`` takes each name it binds, read from its source:
    ``{name: dotted module}``; ``from .m import *`` binds ``m.__all__``, and ``from . import m``
    binds the submodule ``m`` itself (its dotted module is its own name)."""
    def read(package) -> dict[str, str]:
        tree = ast.parse(Path(package.__file__).read_text(encoding="utf-8"))
        names: dict[str, str] = {}
        for node in tree.body:
            if not isinstance(node, ast.ImportFrom) or node.module == "__future__":
                continue
            source = importlib.util.resolve_name("." * node.level + (node.module or ""),
                                                 package.__name__) if node.level else node.module
            for alias in node.names:
                if alias.name == "*":
                    names.update(dict.fromkeys(importlib.import_module(source).__all__, source))
                elif node.module is None:
                    names[alias.asname or alias.name] = f"{source}.{alias.name}"
                else:
                    names[alias.asname or alias.name] = source
        return names
    return read


def _assigned(module) -> set[str]:
    """The names a module's source binds by assignment at its top level."""
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    return {target.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            if isinstance(target, ast.Name)}


@pytest.fixture(scope="session")
def misattributed_exports(reexports):
    """What is wrong with the provenance of a package's ``__all__``, one line per name: a name
    its ``__init__.py`` does not import by name, one that is not the object of the module it is
    imported from, or one that module neither defines nor exports (a name the source imported
    for its own use, passed on by the facade)."""
    def check(package) -> list[str]:
        sources = reexports(package)
        wrong = []
        for name in package.__all__:
            if name not in sources:
                wrong.append(f"{name}: not imported by {package.__name__}/__init__.py")
                continue
            obj, dotted = getattr(package, name), sources[name]
            if isinstance(obj, types.ModuleType):
                if obj.__name__ != dotted:
                    wrong.append(f"{name}: the module {obj.__name__}, not {dotted}")
                continue
            source = importlib.import_module(dotted)
            if getattr(source, name, None) is not obj:
                wrong.append(f"{name}: not the object {dotted}.{name}")
            elif name in getattr(source, "__all__", ()):
                continue  # the source exports it
            elif inspect.isclass(obj) or inspect.isroutine(obj):
                if not (obj.__module__ == dotted or obj.__module__.startswith(f"{dotted}.")):
                    wrong.append(f"{name}: defined in {obj.__module__}, which {dotted} "
                                 f"imports without exporting")
            elif name not in _assigned(source):
                wrong.append(f"{name}: {dotted} neither assigns nor exports it")
        return wrong
    return check


@pytest.fixture(scope="session")
def unexported_names():
    """The public names a package binds that are neither in its ``__all__`` nor its own
    submodules (an import's leftovers a user would take for API).  A ``from __future__``
    import binds a feature object, which is not a name of the package."""
    def leftovers(package) -> list[str]:
        return sorted(
            name for name, obj in vars(package).items()
            if not name.startswith("_") and name not in getattr(package, "__all__", ())
            and not (isinstance(obj, types.ModuleType)
                     and obj.__name__ == f"{package.__name__}.{name}")
            and not isinstance(obj, type(__future__.annotations)))
    return leftovers


@pytest.fixture(scope="session")
def public_modules():
    """The public modules and subpackages of a package, as its directory holds them."""
    def listed(package) -> set[str]:
        folder = Path(package.__file__).parent
        return ({p.stem for p in folder.glob("*.py") if not p.stem.startswith("_")}
                | {p.name for p in folder.iterdir()
                   if (p / "__init__.py").is_file() and not p.name.startswith("_")})
    return listed


@pytest.fixture(scope="session")
def docstring_section():
    """The entries of a numpydoc section (``Submodules``, ``Modules``) of a module's
    docstring: each entry is a bare name on a line of its own."""
    def entries(module, title: str) -> list[str]:
        lines = module.__doc__.splitlines()
        starts = [i for i in range(len(lines) - 1)
                  if lines[i].strip() == title and set(lines[i + 1].strip()) == {"-"}]
        assert len(starts) == 1, f"{module.__name__}'s docstring has no section {title!r}"
        found = []
        for i in range(starts[0] + 2, len(lines)):
            if i + 1 < len(lines) and set(lines[i + 1].strip()) == {"-"}:
                break  # the next section
            if re.fullmatch(r"[a-z_][a-z0-9_]*", lines[i]):
                found.append(lines[i])
        return found
    return entries


def _resolve(target: str, where: str):
    """The object a cross-reference names, as Sphinx looks it up from module ``where``: a
    leading dot is relative to ``where``, a bare name is looked up in ``where`` and then in
    ``skyprivacy``; None if nothing has that name."""
    if target.startswith("."):
        candidates = [where + target]
    elif target.startswith("skyprivacy."):
        candidates = [target]
    else:
        candidates = [f"{where}.{target}", f"skyprivacy.{target}"]
    for dotted in candidates:
        parts = dotted.split(".")
        for cut in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            try:
                for part in parts[cut:]:
                    obj = getattr(obj, part)
            except AttributeError:
                break
            return obj
    return None


@pytest.fixture(scope="session")
def docstring_references():
    """``{target: object or None}`` of every Sphinx cross-reference (``:func:`x```,
    ``:mod:`.m```, ...) in a module's docstring."""
    def references(module) -> dict:
        return {target: _resolve(target, module.__name__)
                for target in _ROLE.findall(module.__doc__)}
    return references


@pytest.fixture(scope="session")
def documented_imports():
    """``{name: [documents]}`` of every name the README, the guides, the examples and the
    benchmarks import with ``from <dotted> import ...`` (in code or in a doctest)."""
    def imports(dotted: str) -> dict[str, list[str]]:
        statement = re.compile(rf"from {re.escape(dotted)} import (\([^)]*\)|[^\n]*)")
        found: dict[str, list[str]] = {}
        for document in DOCUMENTS:
            for match in statement.finditer(document.read_text(encoding="utf-8")):
                listed = re.sub(r"#[^\n]*|\.\.\.|[()]", " ", match.group(1))
                for item in listed.split(","):
                    if item.split():  # "name" or "name as alias"
                        found.setdefault(item.split()[0], []).append(document.name)
        return found
    return imports
