"""The architecture as a test: the package is parsed (ast, nothing imported) and fails on

* an import against the layers, kernel < model < areas < experimental < engines < edge: a
  module imports its own layer and the layers before it; the areas (the skyline core,
  anonymize, baselines, utility, transparency, fairness queries, criteria, risk) do not import
  each other unless :data:`AREA_IMPORTS` names the edge and says why;
* an import in any form: ``from . import x``, ``import skyprivacy``, ``from skyprivacy import
  x``, a lazy import inside a function or under ``TYPE_CHECKING``, ``importlib.import_module``
  or ``__import__`` (and ``optional_import``) of a string naming a skyprivacy module; a
  non-literal ``import_module`` or ``__import__`` is an error outside the kernel's engine
  registry and its optional-dependency loader;
* an import cycle between modules, counting every import above and the package ``__init__``
  an import of ``a.b.c`` runs first;
* a private name (leading underscore) imported from another module, and (through ruff's
  SLF001, the lint gate's rule) a private attribute read on another object;
* file or terminal I/O outside the edge, detected by call: ``open``, ``print``, ``input``,
  ``.read_text`` / ``.write_text`` / ``.read_bytes`` / ``.write_bytes`` / ``.open`` (paths),
  ``pd.read_*``, ``.to_csv`` / ``.to_parquet`` / ``.to_json`` ... with a path, ``os.replace``
  / ``os.rename`` / ``os.remove`` ..., ``sys.stdout`` / ``sys.stderr`` / ``sys.stdin``, and any
  use of ``shutil``, ``tempfile``, ``importlib.resources`` or ``matplotlib``;
* a value written into another object's ``__dict__`` (``x.__dict__[k] = v``,
  ``x.__dict__.update``, ``vars(x)[k] = v``, ``setattr(x, ...)``, ``object.__setattr__(x,
  ...)`` for an ``x`` that is not ``self`` or ``cls``): a model holds its derived values itself;
* a module without its test module: ``skyprivacy/A/B/X.py`` is tested by
  ``tests/A/B/test_N.py``, N being X without its leading and trailing underscores
  (``_common.py`` -> ``test_common.py``, ``__init__.py`` -> ``test_init.py``), and a test
  directory that is no package's directory.

Every check is a function of a package root, so the probes at the end build a broken copy of
the package in a temporary folder and assert that the checks fail on it.  Exceptions are
tables with a reason per entry; an entry that matches nothing fails, so none outlives its
reason.
"""
from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
PACKAGE = ROOT / "skyprivacy"

# ------------------------------------------------------------------------------ the layers
#: Area -> the dotted module prefixes (below ``skyprivacy``) it holds; a module belongs to the
#: area of its longest prefix (``dask_engine.io`` before ``dask_engine``).  Prefixes of modules
#: that do not exist yet are welcome (the ``anonymize`` and ``report`` packages, ``criteria``,
#: ``risk``): a module moved into them is placed without editing this table.
AREAS: dict[str, tuple[str, ...]] = {
    # the private kernel: validation, exact numbers, encodings, warnings, the engine registry
    "kernel": ("_core", "errors"),
    # the QI-group model, the closed forms, knowledge and policies, hierarchies, set labels
    "model": ("release", "formulas", "knowledge", "hierarchy", "labels"),
    # the areas, pure computation over the model
    "skyline": ("check", "find", "certificate", "prose", "compare"),
    "anonymize": ("anonymize",),
    "baselines": ("baselines",),
    "utility": ("utility",),
    "transparency": ("transparency",),
    "fairness_queries": ("fairness_queries",),
    "criteria": ("criteria",),
    "risk": ("risk",),
    "experimental": ("experimental",),
    # scale-out engines: sources and scans over partitions
    "engines": ("dask_engine",),
    # files, argv, the terminal, HTML and drawing; the bundled data sets are files too; ""
    # is the top-level facade (skyprivacy/__init__.py)
    "edge": ("io", "cli", "report", "plotting", "datasets", "", "__main__",
             "dask_engine.io"),
}
#: The layers, lowest first; a module imports its own layer and those before it, and the areas
#: of one layer import each other only through AREA_IMPORTS (inside an area, anything goes).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("kernel",),
    ("model",),
    ("skyline", "anonymize", "baselines", "utility", "transparency", "fairness_queries",
     "criteria", "risk"),
    ("experimental",),
    ("engines",),
    ("edge",),
)
#: The imports between areas of one layer, (importer prefix, imported prefix) -> why; read from
#: the package's real imports and kept minimal.
AREA_IMPORTS: dict[tuple[str, str], str] = {
    ("anonymize", "check"): "SkylineAnonymize certifies what it releases with the one check",
    ("anonymize", "find"): "an infeasible policy's error names the knowledge the whole table "
                           "withstands (the skyline the table already has)",
    ("anonymize", "baselines"): "k_anonymize states its result with the k-anonymity "
                                "baseline's checker, so both agree on what k-anonymous means",
    ("anonymize", "criteria"): "anonymize() and the full-domain search take combined criteria "
                               "and prune on what each declares monotone",
    ("anonymize", "utility"): "the full-domain search minimises the utility measures by their "
                              "formulas, which live in skyprivacy.utility alone",
    ("compare", "anonymize"): "compare_l_diversity anonymizes under the skyline policy it "
                              "sets against (c, l)-diversity (Sect. 8.3)",
    ("compare", "baselines"): "compare_l_diversity builds and checks the recursive (c, l)-"
                              "diversity baseline it compares with",
    ("criteria", "baselines"): "the classical criteria are the baselines' checkers, so both "
                               "agree on what each criterion means",
    ("criteria", "check"): "a skyline policy is a criterion through the one SkylineCheck",
    ("criteria", "risk"): "the risk thresholds are criteria, estimated by the risk module",
    ("certificate", "risk"): "a certificate asked to also certify identity risk records the "
                             "figures identity_risk computes, and verify recomputes them",
    ("certificate", "criteria"): "a release made under combined criteria is certified with "
                                 "each criterion's verdict, which verify recomputes, and the "
                                 "[criteria] form is read and written beside the policy's",
    ("certificate", "utility"): "an anonymization certificate records the discernibility of "
                                "the released groups, and verify recomputes it",
    ("transparency", "certificate"): "the decision-rule certificate hashes and lays out its "
                                     "table with the canonical CSV, hash and header the "
                                     "skyline certificate defines (one canonical form)",
}

#: Imports against the layers, (importer prefix, imported prefix) -> why.
LAYER_EXCEPTIONS: dict[tuple[str, str], str] = {}

#: Modules that may call ``importlib.import_module`` / ``__import__`` with a computed name.
DYNAMIC_IMPORTERS: dict[str, str] = {
    "_core.optional": "optional dependencies (scipy, matplotlib, ...) by name; never a "
                      "skyprivacy module",
    "_core.engines": "the engine registry: engines register under an entry-point group",
}

#: I/O outside the edge, (module prefix, what the check reports) -> why.
IO_EXCEPTIONS: dict[tuple[str, str], str] = {}

#: Writes into another object's attributes, (module prefix, what) -> why.
FOREIGN_WRITE_EXCEPTIONS: dict[tuple[str, str], str] = {
}

# ------------------------------------------------------------------------------- I/O calls
IO_BUILTINS = {"open", "print", "input", "breakpoint"}
#: Attribute calls that touch files whatever their receiver (pathlib, zipfile, resources).
IO_METHODS = {"read_text", "write_text", "read_bytes", "write_bytes", "open", "unlink",
              "mkdir", "rmdir", "touch", "iterdir", "savefig"}
#: Writers that touch a file when given one (``df.to_csv()`` alone returns text).
IO_WRITERS = {"to_csv", "to_parquet", "to_json", "to_excel", "to_pickle", "to_hdf",
              "to_feather", "to_stata", "to_orc", "to_html", "to_latex", "to_markdown",
              "to_string", "to_xml", "to_sql", "tofile"}
WRITER_PATH_KEYWORDS = {"path", "path_or_buf", "excel_writer", "buf", "fname", "file",
                        "filename", "con"}
#: Functions of modules, by qualified name.
IO_FUNCTIONS = {f"os.{name}" for name in (
    "replace", "rename", "renames", "remove", "removedirs", "unlink", "makedirs", "mkdir",
    "rmdir", "open", "fdopen", "write", "read", "fsync", "truncate", "listdir", "scandir",
    "walk", "link", "symlink", "chmod", "startfile", "system", "popen")} | {
    "os.path.exists", "os.path.isfile", "os.path.isdir", "os.path.getsize",
    "os.path.getmtime", "io.open", "json.dump", "json.load", "pickle.dump", "pickle.load",
    "numpy.save", "numpy.savez", "numpy.savez_compressed", "numpy.load", "numpy.loadtxt",
    "numpy.savetxt", "numpy.genfromtxt", "numpy.fromfile", "builtins.open", "builtins.print",
    "builtins.input"}
#: Readers of tables: any ``read_*`` of these modules (``pd.read_csv``, ``dd.read_parquet``).
READER_MODULES = ("pandas", "dask.dataframe", "dask.bag", "dask.array", "pyarrow", "polars")
#: Objects whose every use is terminal I/O.
IO_OBJECTS = {f"sys.{name}" for name in ("stdout", "stderr", "stdin", "__stdout__",
                                         "__stderr__", "__stdin__")}
#: Modules whose every use is file, terminal or picture I/O.
IO_MODULES = ("shutil", "tempfile", "matplotlib", "importlib.resources", "subprocess",
              "webbrowser", "glob", "fileinput", "socket", "urllib.request", "http.client")
#: Calls that import a module named by their first argument.
IMPORTERS = {"importlib.import_module", "builtins.__import__", "importlib.__import__",
             "importlib.reload", "importlib.util.find_spec"}
#: The kernel's loader of optional dependencies: a skyprivacy module named there is imported.
OPTIONAL_IMPORTERS = ("optional_import",)


def in_prefix(module: str, prefix: str) -> bool:
    """Whether dotted ``module`` is ``prefix`` or lies below it ("" names the facade only)."""
    if not prefix:
        return module == ""
    return module == prefix or module.startswith(prefix + ".")


def area_of(module: str) -> str:
    """The area of the longest prefix :data:`AREAS` names."""
    best, length = None, -1
    for area, prefixes in AREAS.items():
        for prefix in prefixes:
            if in_prefix(module, prefix) and len(prefix) > length:
                best, length = area, len(prefix)
    if best is None:
        raise AssertionError(f"module skyprivacy.{module} has no area: add it to AREAS")
    return best


def layer_of(module: str) -> int:
    area = area_of(module)
    return next(i for i, layer in enumerate(LAYERS) if area in layer)


def layer_name(module: str) -> str:
    return "/".join(LAYERS[layer_of(module)])


@dataclass(frozen=True)
class Import:
    """One import of a package module: where, what, which names, and how."""
    module: str
    line: int
    target: str
    names: tuple[str, ...]
    kind: str  # "static", "lazy", "typing" or "importlib"


# ------------------------------------------------------------------------ the package read
class Package:
    """The modules of a package directory, parsed; every check takes one."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.paths = {self.module_name(p): p for p in sorted(self.root.rglob("*.py"))
                      if "__pycache__" not in p.parts}
        read = {name: parsed(path.read_text(encoding="utf-8"), name)
                for name, path in self.paths.items()}
        self.trees = {name: facts.tree for name, facts in read.items()}
        self.nodes = {name: facts.nodes for name, facts in read.items()}
        self.aliases = {name: facts.aliases for name, facts in read.items()}
        self.kinds = {name: facts.kinds for name, facts in read.items()}

    def module_name(self, path: Path) -> str:
        parts = list(path.relative_to(self.root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()  # a package is its __init__; the top-level facade is ""
        return ".".join(parts)

    def where(self, module: str, line: int) -> str:
        return f"skyprivacy/{self.paths[module].relative_to(self.root)}:{line}"

    def is_package(self, module: str) -> bool:
        return self.paths[module].name == "__init__.py"

    def resolve(self, module: str, level: int, name: str | None) -> str | None:
        """The dotted name (below skyprivacy) of an import, None if outside the package."""
        if level == 0:
            if name is None or not (name == "skyprivacy" or name.startswith("skyprivacy.")):
                return None
            return name[len("skyprivacy."):] if name != "skyprivacy" else ""
        base = module.split(".") if module else []
        if not self.is_package(module):
            base = base[:-1]
        if level > 1:
            base = base[: len(base) - (level - 1)]
        return ".".join(base + ([name] if name else []))

    @cached_property
    def imports(self) -> dict[str, list[Import]]:
        return {module: list(self._imports(module)) for module in self.trees}

    @cached_property
    def dynamic_errors(self) -> list[str]:
        """Computed module names handed to an importer outside :data:`DYNAMIC_IMPORTERS`."""
        errors = []
        for module, nodes in self.nodes.items():
            aliases = self.aliases[module]
            for node in nodes:
                if not (isinstance(node, ast.Call) and self._importer(aliases, node)):
                    continue
                literal = node.args and isinstance(node.args[0], ast.Constant)
                if not literal and not any(in_prefix(module, m) for m in DYNAMIC_IMPORTERS):
                    errors.append(f"{self.where(module, node.lineno)} imports a module "
                                  f"named at run time")
        return errors

    def _importer(self, aliases: Aliases, node: ast.Call) -> bool:
        name = aliases.qualified(node.func)
        if name is None:
            return False
        return name in IMPORTERS or name == "__import__" \
            or name.rpartition(".")[2] in OPTIONAL_IMPORTERS

    def _literal_target(self, module: str, node: ast.Call) -> str | None:
        """The package module a call to an importer names with string literals, if any."""
        if not node.args or not isinstance(node.args[0], ast.Constant) \
                or not isinstance(node.args[0].value, str):
            return None
        name = node.args[0].value
        if name.startswith("."):
            package = node.args[1] if len(node.args) > 1 else next(
                (k.value for k in node.keywords if k.arg == "package"), None)
            if isinstance(package, ast.Constant) and isinstance(package.value, str):
                anchor = package.value
            elif isinstance(package, ast.Name) and package.id in ("__package__", "__name__"):
                anchor = "skyprivacy" + (f".{module}" if module else "")
                if package.id == "__package__" and not self.is_package(module):
                    anchor = anchor.rpartition(".")[0]  # a module's package is its parent
            else:
                return None
            level = len(name) - len(name.lstrip("."))
            parts = anchor.split(".")
            parts = parts[: len(parts) - (level - 1)] if level > 1 else parts
            name = ".".join(parts + ([name.lstrip(".")] if name.lstrip(".") else []))
        return self.resolve(module, 0, name)

    def _imports(self, module: str) -> Iterator[Import]:
        aliases = self.aliases[module]
        kinds = self.kinds[module]
        for node in self.nodes[module]:
            if isinstance(node, ast.ImportFrom):
                target = self.resolve(module, node.level, node.module)
                if target is None:
                    continue
                names = [alias.name for alias in node.names]
                # "from . import x" / "from .pkg import sub": the names may be modules
                subs = [self.join(target, n) for n in names if self.join(target, n) in self.paths]
                for sub in subs:
                    yield Import(module, node.lineno, sub, (), kinds[node])
                rest = tuple(n for n in names if self.join(target, n) not in self.paths)
                if rest or not subs:
                    yield Import(module, node.lineno, target, rest, kinds[node])
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    target = self.resolve(module, 0, alias.name)
                    if target is not None:
                        yield Import(module, node.lineno, target, (), kinds[node])
            elif isinstance(node, ast.Call) and self._importer(aliases, node):
                target = self._literal_target(module, node)
                if target is not None:
                    yield Import(module, node.lineno, target, (), "importlib")
            elif isinstance(node, ast.Subscript) and aliases.qualified(node.value) \
                    == "sys.modules" and isinstance(node.slice, ast.Constant) \
                    and isinstance(node.slice.value, str):
                target = self.resolve(module, 0, node.slice.value)
                if target is not None:  # sys.modules["skyprivacy.x"] reaches x all the same
                    yield Import(module, node.lineno, target, (), "importlib")

    @staticmethod
    def join(package: str, name: str) -> str:
        return f"{package}.{name}" if package else name


@dataclass(frozen=True)
class Parsed:
    """A module's source read once: its tree, every node, its aliases, its imports' kinds."""
    tree: ast.Module
    nodes: list[ast.AST]
    aliases: Aliases
    kinds: dict[ast.AST, str]


@lru_cache(maxsize=None)
def parsed(source: str, module: str) -> Parsed:
    """The facts of one module's source (the probes' copies share those of the unchanged
    modules)."""
    tree = ast.parse(source, f"skyprivacy.{module}")
    nodes = list(ast.walk(tree))
    return Parsed(tree, nodes, Aliases(nodes), import_kinds(tree))


def import_kinds(tree: ast.Module) -> dict[ast.AST, str]:
    """Each import statement's kind: module level, inside a function, or under TYPE_CHECKING."""
    kinds: dict[ast.AST, str] = {}

    def visit(node: ast.AST, kind: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = kind
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                inner = "lazy"
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for sub in child.body:
                    kinds.update({n: "typing" for n in ast.walk(sub)
                                  if isinstance(n, (ast.Import, ast.ImportFrom))})
                for sub in child.orelse:
                    visit(sub, kind)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                kinds[child] = inner
            visit(child, inner)

    visit(tree, "static")
    return kinds


class Aliases:
    """What the names of a module stand for, from its imports: ``pd`` -> ``pandas``,
    ``replace`` (from os) -> ``os.replace``; a name bound by no import is a builtin."""

    def __init__(self, nodes: list[ast.AST]):
        self.names: dict[str, str] = {}
        for node in nodes:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.names[alias.asname] = alias.name
                    else:
                        top = alias.name.partition(".")[0]
                        self.names[top] = top
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                for alias in node.names:
                    self.names[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def qualified(self, node: ast.AST) -> str | None:
        """``pd.read_csv`` -> ``pandas.read_csv``; ``open`` -> ``builtins.open``."""
        if isinstance(node, ast.Name):
            return self.names.get(node.id, f"builtins.{node.id}")
        if isinstance(node, ast.Attribute):
            base = self.qualified(node.value)
            return None if base is None else f"{base}.{node.attr}"
        return None


# ------------------------------------------------------------------------------ the checks
def layer_violations(package: Package) -> list[str]:
    """Imports against the layers and between areas without an :data:`AREA_IMPORTS` entry."""
    wrong = []
    for module, found in package.imports.items():
        mine = layer_of(module)
        for imp in found:
            target = imp.target
            if target == module or not target and not module:
                continue
            if not target and module:
                if area_of(module) != "edge":
                    wrong.append(f"{package.where(module, imp.line)} ({layer_name(module)}) "
                                 f"imports the top-level package skyprivacy (edge)")
                continue
            theirs = layer_of(target)
            exempt = any(in_prefix(module, a) and in_prefix(target, b)
                         for a, b in LAYER_EXCEPTIONS)
            if theirs > mine and not exempt:
                wrong.append(f"{package.where(module, imp.line)} ({layer_name(module)}) "
                             f"imports {target} ({layer_name(target)})")
            elif theirs == mine and area_of(module) != area_of(target) \
                    and not any(in_prefix(module, a) and in_prefix(target, b)
                                for a, b in AREA_IMPORTS):
                wrong.append(f"{package.where(module, imp.line)} (area {area_of(module)}) "
                             f"imports {target} (area {area_of(target)}) without an "
                             f"AREA_IMPORTS entry")
    return wrong + package.dynamic_errors


def private_name_imports(package: Package) -> list[str]:
    """Private names imported from another module (``_core``'s modules are public to the
    package; the underscore is on the package, not on their names)."""
    wrong = []
    for module, found in package.imports.items():
        for imp in found:
            private = [n for n in imp.names if n.startswith("_")
                       and not (n.startswith("__") and n.endswith("__"))]
            if private and imp.target != module:
                wrong.append(f"{package.where(module, imp.line)} imports {private} from "
                             f"{imp.target or 'skyprivacy'}")
    return wrong


def io_calls(package: Package, module: str) -> Iterator[tuple[int, str]]:
    """(line, what) for every file or terminal access of a module."""
    aliases = package.aliases[module]
    for node in package.nodes[module]:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if any(in_prefix(alias.name, m) for m in IO_MODULES):
                    yield node.lineno, f"import {alias.name}"
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                if any(in_prefix(node.module, m) or in_prefix(name, m) for m in IO_MODULES):
                    yield node.lineno, f"from {node.module} import {alias.name}"
        elif isinstance(node, (ast.Attribute, ast.Name)) and isinstance(node.ctx, ast.Load):
            if aliases.qualified(node) in IO_OBJECTS:
                yield node.lineno, aliases.qualified(node) or ""
        if not isinstance(node, ast.Call):
            continue
        name = aliases.qualified(node.func)
        attr = node.func.attr if isinstance(node.func, ast.Attribute) else None
        if name is not None and (name in IO_FUNCTIONS or name.removeprefix("builtins.")
                                 in IO_BUILTINS and name.startswith("builtins.")):
            yield node.lineno, f"{name.removeprefix('builtins.')}()"
        elif name is not None and any(in_prefix(name, m) for m in IO_MODULES):
            yield node.lineno, f"{name}()"
        elif name is not None and re.fullmatch(
                rf"({'|'.join(map(re.escape, READER_MODULES))})\.read_\w+", name):
            if not in_memory(aliases, node):
                yield node.lineno, f"{name}()"
        elif attr in IO_METHODS:
            yield node.lineno, f".{attr}()"
        elif attr in IO_WRITERS and (node.args or any(
                k.arg in WRITER_PATH_KEYWORDS and not (isinstance(k.value, ast.Constant)
                                                       and k.value.value is None)
                for k in node.keywords)):
            yield node.lineno, f".{attr}(<path>)"


def in_memory(aliases: Aliases, node: ast.Call) -> bool:
    """A reader called on ``io.StringIO(...)`` / ``io.BytesIO(...)``: parsing, not I/O."""
    first = node.args[0] if node.args else None
    return isinstance(first, ast.Call) and aliases.qualified(first.func) in (
        "io.StringIO", "io.BytesIO")


def io_outside_the_edge(package: Package) -> list[str]:
    wrong = []
    for module in package.trees:
        if area_of(module) == "edge":
            continue
        for line, what in sorted(set(io_calls(package, module))):
            if not any(in_prefix(module, m) and what == w for m, w in IO_EXCEPTIONS):
                wrong.append(f"{package.where(module, line)} ({layer_name(module)}) "
                             f"does I/O: {what}")
    return wrong


def foreign_writes(package: Package) -> Iterator[tuple[str, int, str]]:
    """(module, line, what) for every write into another object's attributes."""
    own = {"self", "cls", "mcs"}
    for module, nodes in package.nodes.items():
        aliases = package.aliases[module]
        for node in nodes:
            targets: list[ast.AST] = []
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for sub in ast.walk(target):
                    if isinstance(sub, ast.Subscript):
                        owner = dict_owner(aliases, sub.value)
                        if owner is not None and owner not in own:
                            yield module, node.lineno, f"{owner}.__dict__[...] = ..."
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in ("update", "setdefault",
                                                                 "__setitem__"):
                owner = dict_owner(aliases, func.value)
                if owner is not None and owner not in own:
                    yield module, node.lineno, f"{owner}.__dict__.{func.attr}(...)"
            name = aliases.qualified(func)
            if name in ("builtins.setattr", "builtins.delattr", "object.__setattr__",
                        "builtins.object.__setattr__", "builtins.object.__delattr__") \
                    and node.args:
                owner = ast.unparse(node.args[0])
                if owner not in own:
                    yield module, node.lineno, f"{name.rpartition('.')[2]}({owner}, ...)"


def dict_owner(aliases: Aliases, node: ast.AST) -> str | None:
    """``x`` when ``node`` is ``x.__dict__`` or ``vars(x)``, else None."""
    if isinstance(node, ast.Attribute) and node.attr == "__dict__":
        return ast.unparse(node.value)
    if isinstance(node, ast.Call) and aliases.qualified(node.func) == "builtins.vars" \
            and node.args:
        return ast.unparse(node.args[0])
    return None


def foreign_dict_writes(package: Package) -> list[str]:
    return [f"{package.where(module, line)} writes into another object: {what}"
            for module, line, what in foreign_writes(package)
            if not any(in_prefix(module, m) and what == w for m, w in FOREIGN_WRITE_EXCEPTIONS)]


def import_cycles(package: Package) -> list[list[str]]:
    """Strongly connected components (more than one module) of the import graph: every
    import, lazy, typing-only or through importlib, plus the packages an import runs first
    (``import a.b.c`` runs ``a`` and ``a.b``; the importer's own ancestors are running
    already and are left out, unless imported by name)."""
    graph: dict[str, set[str]] = {m: set() for m in package.trees}
    for module, found in package.imports.items():
        ancestors = {".".join(module.split(".")[:i]) for i in range(len(module.split(".")))}
        for imp in found:
            parts = imp.target.split(".") if imp.target else []
            implied = {".".join(parts[:i]) for i in range(1, len(parts))} - ancestors
            for target in {imp.target} | implied:
                if target != module and target in graph:
                    graph[module].add(target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
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
                cycles.append(sorted(m or "skyprivacy" for m in component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def private_member_reads(root: Path) -> list[str]:
    """Ruff's SLF001 (private member read on another object) over ``root/skyprivacy``, with
    the per-file ignores of ``root/pyproject.toml``: the lint gate's own rule."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--select", "SLF001", "--no-cache",
         "--output-format", "concise", "--quiet", str(root / "skyprivacy")],
        cwd=root, capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 1), done.stderr
    return [line for line in done.stdout.splitlines() if "SLF001" in line]


def stale_exceptions(package: Package) -> list[str]:
    """Entries of the exception tables that excuse nothing: delete them."""
    imports = [(m, i.target) for m, found in package.imports.items() for i in found]
    io = [(m, what) for m in package.trees if area_of(m) != "edge"
          for _, what in io_calls(package, m)]
    writes = [(m, what) for m, _, what in foreign_writes(package)]
    stale = [f"AREA_IMPORTS{key}" for key in AREA_IMPORTS
             if not any(in_prefix(m, key[0]) and in_prefix(t, key[1]) for m, t in imports)]
    stale += [f"LAYER_EXCEPTIONS{key}" for key in LAYER_EXCEPTIONS
              if not any(in_prefix(m, key[0]) and in_prefix(t, key[1]) for m, t in imports)]
    stale += [f"IO_EXCEPTIONS{key}" for key in IO_EXCEPTIONS
              if not any(in_prefix(m, key[0]) and w == key[1] for m, w in io)]
    stale += [f"FOREIGN_WRITE_EXCEPTIONS{key}" for key in FOREIGN_WRITE_EXCEPTIONS
              if not any(in_prefix(m, key[0]) and w == key[1] for m, w in writes)]
    return stale


def every_violation(root: Path) -> list[str]:
    """Every check's findings on the package at ``root/skyprivacy``."""
    package = Package(root / "skyprivacy")
    return (layer_violations(package) + private_name_imports(package)
            + io_outside_the_edge(package) + foreign_dict_writes(package)
            + [f"import cycle: {c}" for c in import_cycles(package)]
            + private_member_reads(root))


# ------------------------------------------------------------------ the checks on skyprivacy
@pytest.fixture(scope="module")
def package() -> Package:
    return Package(PACKAGE)


def test_every_module_has_an_area(package):
    for module in package.trees:
        area_of(module)


def test_imports_follow_the_layers_and_the_area_table(package):
    wrong = layer_violations(package)
    assert not wrong, "\n".join(wrong)


def test_no_private_name_crosses_a_module(package):
    wrong = private_name_imports(package)
    assert not wrong, "\n".join(wrong)


def test_no_private_member_is_read_on_another_object():
    wrong = private_member_reads(ROOT)
    assert not wrong, "\n".join(wrong)


def test_files_the_terminal_and_drawing_stay_at_the_edge(package):
    wrong = io_outside_the_edge(package)
    assert not wrong, "\n".join(wrong)


def test_no_value_is_written_into_another_objects_dict(package):
    wrong = foreign_dict_writes(package)
    assert not wrong, "\n".join(wrong)


def test_no_import_cycles(package):
    assert import_cycles(package) == []


def test_every_exception_still_excuses_something(package):
    assert stale_exceptions(package) == []


def test_every_area_and_table_entry_names_a_known_area():
    areas = [area for layer in LAYERS for area in layer]
    assert sorted(areas) == sorted(AREAS) and len(set(areas)) == len(areas)
    prefixes = [p for names in AREAS.values() for p in names]
    assert len(prefixes) == len(set(prefixes))
    for table in (AREA_IMPORTS, LAYER_EXCEPTIONS):
        for importer, imported in table:
            assert area_of(importer) and area_of(imported)


def mirrored_test_module(path: Path) -> Path:
    """Where the mirror rule puts the tests of the package module at ``path``."""
    relative = path.relative_to(PACKAGE)
    return TESTS / relative.parent / f"test_{relative.stem.strip('_')}.py"


def test_every_module_has_its_test_module(package):
    missing, shared = [], {}
    for path in package.paths.values():
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


# ------------------------------------------------------------------------ the import reader
@pytest.mark.parametrize("module, source, expected", [
    ("check", "from .release import ReleaseCandidate", [("release", "static")]),
    ("transparency.lp", "from ..errors import param_error", [("errors", "static")]),
    ("transparency.lp", "from . import kernels", [("transparency.kernels", "static")]),
    ("formulas", "import skyprivacy", [("", "static")]),
    ("formulas", "from skyprivacy import skyline_check", [("", "static")]),
    ("formulas", "def f():\n    import skyprivacy.cli", [("cli", "lazy")]),
    ("formulas", "import importlib\nimportlib.import_module('skyprivacy.cli')",
     [("cli", "importlib")]),
    ("formulas", "from importlib import import_module\nimport_module('.cli', 'skyprivacy')",
     [("cli", "importlib")]),
    ("formulas", "__import__('skyprivacy.io')", [("io", "importlib")]),
    ("formulas", "import importlib\nimportlib.import_module('.io', package=__package__)",
     [("io", "importlib")]),
    ("formulas", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .io import x",
     [("io", "typing")]),
    ("formulas", "import sys\nsys.modules['skyprivacy.cli']", [("cli", "importlib")]),
    ("formulas", "import importlib\nimportlib.import_module('numpy')", []),
])
def test_the_import_reader_sees_every_form(tmp_path, module, source, expected):
    folder = tmp_path / "skyprivacy"
    (folder / "transparency").mkdir(parents=True)
    for name in ("__init__", "check", "release", "errors", "formulas", "io", "cli/__init__",
                 "transparency/__init__", "transparency/lp", "transparency/kernels"):
        (folder / f"{name}.py").parent.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.py").write_text("", encoding="utf-8")
    path = folder / (module.replace(".", "/") + ".py")
    path.write_text(source, encoding="utf-8")
    found = Package(folder).imports[module]
    assert [(i.target, i.kind) for i in found] == expected


@pytest.mark.parametrize("source, expected", [
    ("print('x')", ["print()"]),
    ("open('f')", ["open()"]),
    ("from pathlib import Path\nPath('f').read_text()", [".read_text()"]),
    ("import pandas as pd\npd.read_csv('f')", ["pandas.read_csv()"]),
    ("import io\nimport pandas as pd\npd.read_csv(io.StringIO('a'))", []),
    ("import dask.dataframe as dd\ndd.read_parquet('p/')", ["dask.dataframe.read_parquet()"]),
    ("frame.to_csv('f.csv')", [".to_csv(<path>)"]),
    ("frame.to_csv(index=False)", []),
    ("frame.to_json(path_or_buf='f.json')", [".to_json(<path>)"]),
    ("import os\nos.replace('a', 'b')", ["os.replace()"]),
    ("from os import remove\nremove('a')", ["os.remove()"]),
    ("import sys\nsys.stdout.write('x')", ["sys.stdout"]),
    ("import shutil", ["import shutil"]),
    ("from importlib import resources", ["from importlib import resources"]),
    ("import matplotlib.pyplot as plt", ["import matplotlib.pyplot"]),
    ("frame.to_frame()\nwarnings.warn('x')\nnp.asarray(x)", []),
])
def test_the_io_reader_sees_every_form(tmp_path, source, expected):
    folder = tmp_path / "skyprivacy"
    folder.mkdir()
    (folder / "formulas.py").write_text(source, encoding="utf-8")
    assert [what for _, what in sorted(io_calls(Package(folder), "formulas"))] == expected


# -------------------------------------------------------------------------------- the probes
def copy_of_the_package(tmp_path: Path) -> Path:
    """The package's modules and the lint configuration, copied to ``tmp_path``."""
    shutil.copytree(PACKAGE, tmp_path / "skyprivacy",
                    ignore=shutil.ignore_patterns("__pycache__", "data", "*.pyc"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def append(root: Path, module_file: str, code: str) -> str:
    """Append ``code`` to a module of the copy; the location its first line will have."""
    path = root / "skyprivacy" / module_file
    text = path.read_text(encoding="utf-8").rstrip("\n") + "\n\n\n"
    path.write_text(text + code, encoding="utf-8")
    return f"skyprivacy/{module_file}:{text.count(chr(10)) + 1}"


#: probe name -> (module file, code appended, what the failing check must say)
PROBES = {
    "formulas imports the top-level package": (
        "formulas.py", "import skyprivacy  # noqa: E402,F401\n",
        "imports the top-level package skyprivacy"),
    "formulas imports a facade name": (
        "formulas.py", "from skyprivacy import skyline_check  # noqa: E402,F401\n",
        "imports the top-level package skyprivacy"),
    "formulas loads the CLI through importlib": (
        "formulas.py", "def _cli():\n    import importlib\n\n"
                       "    return importlib.import_module('skyprivacy.cli')\n",
        "imports cli (edge)"),
    "the kernel reaches an engine through importlib": (
        "_core/engines.py", "def _dask_engine():\n    import importlib\n\n"
                            "    return importlib.import_module('skyprivacy.dask_engine')\n",
        "imports dask_engine (engines)"),
    "a model module imports a computed module name": (
        "release.py", "def _load(name):\n    import importlib\n\n"
                      "    return importlib.import_module(name)\n",
        "imports a module named at run time"),
    "a model module calls open()": (
        "knowledge.py", "def _peek(path):\n    with open(path, encoding='utf-8') as f:\n"
                        "        return f.read()\n",
        "does I/O: open()"),
    "a model module prints": (
        "formulas.py", "def _show(x):\n    print(x)\n",
        "does I/O: print()"),
    "a model module writes to stdout": (
        "formulas.py", "def _show(x):\n    import sys\n\n    sys.stdout.write(str(x))\n",
        "does I/O: sys.stdout"),
    "a model module reads a file": (
        "release.py", "def _read(path):\n    return path.read_text(encoding='utf-8')\n",
        "does I/O: .read_text()"),
    "an area writes a CSV": (
        "utility.py", "def _save(frame, path):\n    frame.to_csv(path)\n",
        "does I/O: .to_csv(<path>)"),
    "transparency imports experimental": (
        "transparency/fidelity.py", "from ..experimental import group_tagging  # noqa\n",
        "imports experimental.group_tagging (experimental)"),
    "transparency imports the Dask engine": (
        "transparency/fidelity.py", "def _engine():\n    from .. import dask_engine\n\n"
                                    "    return dask_engine\n",
        "imports dask_engine (engines)"),
    "transparency imports find": (
        "transparency/fidelity.py", "from ..find import skyline_find  # noqa\n",
        "(area transparency) imports find (area skyline) without an AREA_IMPORTS entry"),
    "one module reads another's private attribute": (
        "knowledge.py", "def _peek(release):\n    return release._sizes\n",
        "SLF001"),
    "a cached value is written into another object's __dict__": (
        "formulas.py", "def _cache(release, value):\n"
                       "    release.__dict__['_cached'] = value\n",
        "writes into another object: release.__dict__[...] = ..."),
    "a cached value is set on another object": (
        "formulas.py", "def _cache(release, value):\n"
                       "    setattr(release, '_cached', value)\n",
        "writes into another object: setattr(release, ...)"),
    "another object's __dict__ is updated": (
        "check.py", "def _cache(release, value):\n"
                    "    vars(release).update(cached=value)\n",
        "writes into another object: release.__dict__.update(...)"),
    "an import cycle through a lazy import": (
        "errors.py", "def _model():\n    from . import release\n\n    return release\n",
        "import cycle"),
}


@pytest.mark.parametrize("probe", sorted(PROBES))
def test_the_checks_fail_on_a_probe(tmp_path, probe):
    module_file, code, message = PROBES[probe]
    root = copy_of_the_package(tmp_path)
    where = append(root, module_file, code)
    found = every_violation(root)
    hits = [v for v in found if message in v]
    assert hits, f"{probe}: no check fails; found\n" + "\n".join(found)
    if message not in ("import cycle", "SLF001"):
        assert any(v.startswith(where.rsplit(":", 1)[0]) for v in hits), hits


def test_the_checks_pass_on_an_unchanged_copy(tmp_path):
    assert every_violation(copy_of_the_package(tmp_path)) == []
