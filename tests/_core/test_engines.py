"""Engines by registration (skyprivacy/_core/engines.py): a dask frame goes to the engine
registered for dask under the ``skyprivacy.engines`` entry points, everything else stays on the
in-memory path, which never imports dask; the kernel names no engine."""
import importlib
import subprocess
import sys
import types
from importlib.metadata import entry_points

import pandas as pd
import pytest

from skyprivacy._core import engines
from skyprivacy._core.engines import ENGINE_GROUP, dispatchable, partitioned_engine

FRAME = pd.DataFrame({"zip": ["02139", "02140"], "disease": ["flu", "cold"]})


def test_the_in_memory_path_never_imports_dask():
    code = ("import sys\n"
            "import pandas as pd\n"
            "import skyprivacy as sp\n"
            "from skyprivacy._core.engines import partitioned_engine\n"
            "frame = pd.DataFrame({'a': [1], 's': ['x']})\n"
            "sp.ReleaseCandidate.from_table(frame, qi='a', sensitive='s')\n"
            "print(partitioned_engine(frame), 'dask' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "None False\n"


def test_the_dask_engine_is_registered_by_entry_point_not_named_by_the_kernel():
    points = {p.name: p.value for p in entry_points(group=ENGINE_GROUP)}
    assert points == {"dask": "skyprivacy.dask_engine"}
    source = importlib.util.find_spec("skyprivacy._core.engines").origin
    with open(source, encoding="utf-8") as file:
        assert "dask_engine" not in file.read()


@pytest.mark.parametrize("obj", [FRAME, FRAME["zip"], FRAME.to_numpy(), [[1, 2]], None, "t.csv"])
def test_anything_but_a_dask_frame_stays_in_memory(obj):
    assert partitioned_engine(obj) is None


def test_a_dask_frame_goes_to_the_partitioned_engine():
    import dask.dataframe as dd  # the test extra installs dask

    frame = dd.from_pandas(FRAME, npartitions=2)
    assert partitioned_engine(frame) is importlib.import_module("skyprivacy.dask_engine")
    # a partitioned column is not a table: only whole frames are handed to the engine
    assert partitioned_engine(frame["zip"]) is None


def test_a_registered_engine_takes_a_dispatchable_call_with_its_arguments(monkeypatch):
    class Rows(list):
        pass

    Rows.__module__ = "toyengine.frames"
    seen = []
    engine = types.SimpleNamespace(
        accepts=lambda obj: isinstance(obj, Rows),
        count=lambda table, *, limit=None: seen.append((table, limit)) or "engine")
    monkeypatch.setitem(sys.modules, "toyengine", types.ModuleType("toyengine"))
    # the registry's own table, restored by monkeypatch (engines are never unregistered)
    monkeypatch.setitem(engines._registered, "toyengine", engine)  # noqa: SLF001

    @dispatchable
    def count(table, *, limit=None):
        return len(table)

    assert count([1, 2, 3], limit=2) == 3
    assert count(Rows([1]), limit=2) == "engine"
    assert count(table=Rows([2])) == "engine"
    assert seen == [([1], 2), ([2], None)]


def test_a_classmethod_constructor_dispatches_without_its_class(monkeypatch):
    class Rows(list):
        pass

    Rows.__module__ = "toyengine.frames"
    engine = types.SimpleNamespace(accepts=lambda obj: True,
                                   build=lambda table, *, k: ("engine", list(table), k))
    monkeypatch.setitem(sys.modules, "toyengine", types.ModuleType("toyengine"))
    # the registry's own table, restored by monkeypatch (engines are never unregistered)
    monkeypatch.setitem(engines._registered, "toyengine", engine)  # noqa: SLF001

    class Model:
        @classmethod
        @dispatchable(method=True)
        def build(cls, table, *, k):
            return ("memory", cls.__name__, k)

    assert Model.build([1], k=2) == ("memory", "Model", 2)
    assert Model.build(Rows([1]), k=3) == ("engine", [1], 3)
