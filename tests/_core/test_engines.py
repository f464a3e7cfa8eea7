"""Which engine takes a call (skyprivacy/_core/engines.py): a dask frame goes to
skyprivacy.dask_engine, everything else stays on the in-memory path, which never imports dask."""
import importlib
import re
import subprocess
import sys

import pandas as pd
import pytest

from skyprivacy._core.engines import is_dask_frame, partitioned_engine, require_dask

FRAME = pd.DataFrame({"zip": ["02139", "02140"], "disease": ["flu", "cold"]})
MISSING = ("Anonymizing a partitioned table needs Dask: pip install 'skyprivacy[dask]' "
           "(dask[dataframe] and distributed).")


def test_the_in_memory_path_never_imports_dask():
    code = ("import sys\n"
            "import pandas as pd\n"
            "from skyprivacy._core.engines import is_dask_frame, partitioned_engine\n"
            "frame = pd.DataFrame({'a': [1]})\n"
            "print(is_dask_frame(frame), partitioned_engine(frame), 'dask' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "False None False\n"


@pytest.mark.parametrize("obj", [FRAME, FRAME["zip"], FRAME.to_numpy(), [[1, 2]], None, "t.csv"])
def test_anything_but_a_dask_frame_stays_in_memory(obj):
    assert is_dask_frame(obj) is False
    assert partitioned_engine(obj) is None


def test_a_dask_frame_goes_to_the_partitioned_engine():
    import dask.dataframe as dd  # the test extra installs dask

    frame = dd.from_pandas(FRAME, npartitions=2)
    assert is_dask_frame(frame) is True
    assert partitioned_engine(frame) is importlib.import_module("skyprivacy.dask_engine")
    # a partitioned column is not a table: only whole frames are handed to the engine
    assert is_dask_frame(frame["zip"]) is False
    assert partitioned_engine(frame["zip"]) is None
    # dask being imported does not make a pandas frame partitioned
    assert is_dask_frame(FRAME) is False


def test_require_dask_is_silent_when_the_extra_is_installed():
    assert require_dask("Anonymizing a partitioned table") is None


@pytest.mark.parametrize("module", ["dask.dataframe", "distributed"])
def test_without_the_dask_extra_one_import_error_names_what_to_install(monkeypatch, module):
    monkeypatch.setitem(sys.modules, module, None)  # the import of `module` now fails
    with pytest.raises(ImportError, match=f"^{re.escape(MISSING)}$") as caught:
        require_dask("Anonymizing a partitioned table")
    assert caught.value.__cause__ is None and caught.value.__suppress_context__  # from None
