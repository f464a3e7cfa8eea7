"""The Dask engine's facade (skyprivacy/dask_engine/__init__.py): the names it exports, each from
the module that defines it, and the interface it is to the in-memory path: every function the
public functions call on the engine ``partitioned_engine`` returns, with the keywords they
pass, and every ``@dispatchable`` public function, with all its parameters."""
import ast
import inspect
from pathlib import Path

from skyprivacy import dask_engine

PACKAGE = Path(dask_engine.__file__).resolve().parents[1]
EXPORTS = {"accepts", "is_dask_frame", "from_table", "skyline_anonymize", "k_anonymize",
           "anonymize", "text_frame", "partition_digests", "whole_sha256", "class_sizes",
           "identity_risk", "marketer_risk", "population_uniqueness", "prosecutor_risk",
           "sample_uniqueness", "full_domain_search"}


def test_exports():
    assert set(dask_engine.__all__) == EXPORTS
    assert len(dask_engine.__all__) == len(EXPORTS)


def test_every_export_comes_from_the_module_that_defines_it(misattributed_exports):
    assert misattributed_exports(dask_engine) == []


def test_nothing_but_the_exports_and_the_modules_is_public(unexported_names):
    assert unexported_names(dask_engine) == []


def test_every_cross_reference_of_the_docstring_resolves(docstring_references):
    references = docstring_references(dask_engine)
    assert {"skyprivacy.dask_engine.release.from_table",
            "skyprivacy._core.engines.partitioned_engine",
            "skyprivacy._core.engines.dispatchable"} <= set(references)
    assert [target for target, obj in references.items() if obj is None] == []


def engine_calls():
    """(caller, function, number of positional arguments, keywords) of every call the package
    outside dask_engine makes on a name bound to ``partitioned_engine(...)``."""
    calls = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "dask_engine" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            engines = {target.id for node in ast.walk(function) if isinstance(node, ast.Assign)
                       and isinstance(node.value, ast.Call)
                       and getattr(node.value.func, "id", None) == "partitioned_engine"
                       for target in node.targets if isinstance(target, ast.Name)}
            for node in ast.walk(function):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and isinstance(node.func.value, ast.Name) \
                        and node.func.value.id in engines:
                    calls.append((f"{path.relative_to(PACKAGE)}:{function.name}",
                                  node.func.attr, len(node.args), [k.arg for k in node.keywords]))
    return calls


def dispatched():
    """(module path, function) of every function of the package decorated ``@dispatchable``."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "dask_engine" in path.parts or path.parts[-2:] == ("_core", "engines.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and any(
                    "dispatchable" in ast.unparse(d) for d in node.decorator_list):
                found.append((path.relative_to(PACKAGE), node))
    return found


def test_every_dispatchable_function_has_the_engine_function_with_all_its_parameters():
    found = dispatched()
    names = {node.name for _, node in found}
    assert {"from_table", "skyline_anonymize", "k_anonymize"} <= names
    for path, node in found:
        mine = [a.arg for a in node.args.args + node.args.kwonlyargs if a.arg != "cls"]
        engine = inspect.signature(getattr(dask_engine, node.name)).parameters
        assert mine == list(engine), f"{path}:{node.name} {mine} != dask_engine {list(engine)}"


def test_every_function_the_in_memory_path_hands_a_dask_frame_to_is_exported():
    calls = engine_calls()
    called = {function for _, function, _, _ in calls}
    assert {"text_frame", "whole_sha256", "partition_digests"} <= called
    assert called <= set(dask_engine.__all__), called - set(dask_engine.__all__)
    for caller, function, n_positional, keywords in calls:
        signature = inspect.signature(getattr(dask_engine, function))
        try:  # the engine's function takes the call as the in-memory path makes it
            signature.bind(*range(n_positional), **dict.fromkeys(keywords))
        except TypeError as error:
            raise AssertionError(
                f"{caller} calls dask_engine.{function}{signature}: {error}") from None


def test_without_dask_the_subpackage_says_which_extra_to_install():
    import subprocess
    import sys

    code = ("import sys\nsys.modules['dask'] = None\n"
            "try:\n    import skyprivacy.dask_engine\n"
            "except ImportError as error:\n    print(error)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == ("skyprivacy.dask_engine needs Dask: pip install "
                                   "'skyprivacy[dask]' (dask[dataframe] and distributed).")
