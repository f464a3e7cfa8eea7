"""The architecture as a test: the package is parsed (ast, nothing imported) and fails on

* an import against the allowed direction: kernel -> model -> algorithms -> edge, each layer
  importing only its own layer and those before it (subpackages are in the layer of their
  area, so they use the kernel and the model and never the edge);
* a private name (leading underscore) imported from another module (the private kernel
  package ``_core`` is imported by name; its names are public to the package);
* ``open(``, ``tempfile``, ``print(`` or matplotlib outside the edge;
* an import cycle between modules;
* a module without its test module: ``skyprivacy/A/B/X.py`` is tested by
  ``tests/A/B/test_N.py``, N being X without its leading and trailing underscores
  (``_common.py`` -> ``test_common.py``, ``__init__.py`` -> ``test_init.py``), and a test
  directory that is no package's directory.

There is no allow-list: what the layers say is what the code does.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
PACKAGE = TESTS.parent / "skyprivacy"

# The first component of a module's dotted name (below skyprivacy) decides its layer.
LAYERS = {
    "kernel": {"_core", "errors"},
    # the QI-group model, the closed forms, knowledge and policies, hierarchies, QI encoders,
    # set labels and the bundled (read-only, package) data sets
    "model": {"release", "formulas", "knowledge", "hierarchy", "qi", "labels", "datasets"},
    # pure computation over the model: the paper's algorithms, baselines, the other areas,
    # the distributed engine, certificates (canonical hashing and checking, no files), the
    # worst-case prose
    "algorithms": {"check", "find", "anonymize", "utility", "baselines", "transparency",
                   "fairness_queries", "experimental", "dask_engine", "certificate", "prose",
                   "compare"},
    # files, argv, the terminal, HTML and drawing
    "edge": {"io", "cli", "report", "plotting", "__main__", "__init__", "dask_engine.io"},
}
ORDER = ["kernel", "model", "algorithms", "edge"]
EDGE_ONLY_CALLS = {"open", "print"}
EDGE_ONLY_MODULES = {"tempfile", "matplotlib"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()  # a package is its __init__; the top-level facade is ""
    return ".".join(parts)


def layer_of(module: str) -> str:
    """The layer of the longest dotted prefix LAYERS names (``dask_engine.io`` before
    ``dask_engine``)."""
    parts = module.split(".")
    for length in range(len(parts), 0, -1):
        prefix = ".".join(parts[:length])
        for layer, names in LAYERS.items():
            if prefix in names:
                return layer
    raise AssertionError(f"module skyprivacy.{module} has no layer: add it to LAYERS")


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
TREES = {name: ast.parse(path.read_text(encoding="utf-8"), str(path))
         for name, path in MODULES.items()}


def resolve(module: str, node: ast.ImportFrom) -> str | None:
    """The dotted name (below skyprivacy) an ImportFrom refers to, None if outside."""
    if node.level == 0:
        if node.module is None or not (node.module == "skyprivacy"
                                       or node.module.startswith("skyprivacy.")):
            return None
        return node.module[len("skyprivacy."):] if node.module != "skyprivacy" else ""
    is_package = MODULES[module].name == "__init__.py"
    base = module.split(".") if module else []
    if not is_package:
        base = base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports(module: str):
    """(line, imported module, imported names) for every import of the package's own
    modules, at any depth (lazy imports inside functions count too)."""
    for node in ast.walk(TREES[module]):
        if isinstance(node, ast.ImportFrom):
            target = resolve(module, node)
            if target is None:
                continue
            names = [alias.name for alias in node.names]
            # "from . import x" / "from .pkg import sub": the names may be modules
            submodules = [f"{target}.{n}".lstrip(".") for n in names
                          if f"{target}.{n}".lstrip(".") in MODULES]
            if submodules:
                for sub in submodules:
                    yield node.lineno, sub, []
                rest = [n for n in names if f"{target}.{n}".lstrip(".") not in MODULES]
                if rest:
                    yield node.lineno, target, rest
            else:
                yield node.lineno, target, names
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("skyprivacy."):
                    yield node.lineno, alias.name[len("skyprivacy."):], []


def test_every_module_has_a_layer():
    for module in MODULES:
        if module:
            layer_of(module)


def test_imports_follow_the_layers():
    wrong = []
    for module in MODULES:
        if not module:
            continue  # the top-level facade re-exports everything
        mine = ORDER.index(layer_of(module))
        for line, target, _ in imports(module):
            if not target:
                wrong.append(f"skyprivacy/{MODULES[module].relative_to(PACKAGE)}:{line} imports "
                             f"the top-level package")
                continue
            theirs = ORDER.index(layer_of(target))
            if theirs > mine:
                wrong.append(f"skyprivacy/{MODULES[module].relative_to(PACKAGE)}:{line} "
                             f"({layer_of(module)}) imports {target} ({layer_of(target)})")
    assert not wrong, "\n".join(wrong)


def test_no_private_name_crosses_a_module():
    wrong = []
    for module in MODULES:
        for line, target, names in imports(module):
            if target == module:
                continue
            private = [n for n in names if n.startswith("_")
                       and not (n.startswith("__") and n.endswith("__"))]
            if private:
                wrong.append(f"skyprivacy/{MODULES[module].relative_to(PACKAGE)}:{line} imports "
                             f"{private} from {target}")
    assert not wrong, "\n".join(wrong)


def test_files_the_terminal_and_drawing_stay_at_the_edge():
    wrong = []
    for module, tree in TREES.items():
        if not module or layer_of(module) == "edge":
            continue
        where = f"skyprivacy/{MODULES[module].relative_to(PACKAGE)}"
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in EDGE_ONLY_CALLS:
                wrong.append(f"{where}:{node.lineno} calls {node.func.id}(")
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] in EDGE_ONLY_MODULES:
                        wrong.append(f"{where}:{node.lineno} imports {alias.name}")
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                    and node.module.split(".")[0] in EDGE_ONLY_MODULES:
                wrong.append(f"{where}:{node.lineno} imports from {node.module}")
    assert not wrong, "\n".join(wrong)


def test_no_import_cycles():
    graph = {m: set() for m in MODULES if m}
    for module in graph:
        for _, target, _ in imports(module):
            if target and target != module and target in graph:
                graph[module].add(target)
    # a package's __init__ imports its own modules by design; a module importing its own
    # package's facade would be the cycle worth reporting, so keep those edges
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert not cycles, cycles


def mirrored_test_module(path: Path) -> Path:
    """Where the mirror rule puts the tests of the package module at ``path``."""
    relative = path.relative_to(PACKAGE)
    return TESTS / relative.parent / f"test_{relative.stem.strip('_')}.py"


def test_every_module_has_its_test_module():
    missing, shared = [], {}
    for path in MODULES.values():
        tests = mirrored_test_module(path)
        shared.setdefault(tests, []).append(f"skyprivacy/{path.relative_to(PACKAGE)}")
        if not tests.is_file():
            missing.append(f"skyprivacy/{path.relative_to(PACKAGE)} has no "
                           f"tests/{tests.relative_to(TESTS)}")
    assert not missing, "\n".join(missing)
    # the rule gives every module a test module of its own (x.py and _x.py would share one)
    assert all(len(modules) == 1 for modules in shared.values()), \
        [modules for modules in shared.values() if len(modules) > 1]


def test_every_test_directory_is_a_package_directory():
    """tests/ mirrors skyprivacy/: a test directory whose package was moved or removed is
    not left behind (helpers such as conftest.py and oracle.py live in mirrored directories
    too; caches, hidden or __pycache__, are no test directories)."""
    folders = [folder.relative_to(TESTS) for folder in sorted(TESTS.rglob("*"))
               if folder.is_dir()]
    stray = [f"tests/{folder} has no skyprivacy/{folder}/__init__.py" for folder in folders
             if not any(part.startswith((".", "__pycache__")) for part in folder.parts)
             and not (PACKAGE / folder / "__init__.py").is_file()]
    assert not stray, "\n".join(stray)


@pytest.mark.parametrize("source, expected", [
    ("from .release import ReleaseCandidate", ["release"]),
    ("from ..errors import param_error", ["errors"]),
    ("from . import kernels", ["transparency.kernels"]),
])
def test_the_import_reader_resolves_relative_imports(source, expected):
    tree = ast.parse(source)
    node = tree.body[0]
    module = "check" if node.level == 1 and "kernels" not in source else "transparency.lp"
    if "errors" in source:
        module = "transparency.lp"
    got = resolve(module, node)
    if node.module is None:
        got = f"{got}.{node.names[0].name}"
    assert got == expected[0]
