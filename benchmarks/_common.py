"""Helpers shared by the benchmark scripts.

Importing it also silences :class:`~skyprivacy.errors.UnanalysedColumnWarning`: the
benchmarks publish every column of their tables (``keep_rest=True``), as their competitors
do, and the warning naming those columns would only repeat itself on every call."""
import json
import os
import tempfile
import warnings
from pathlib import Path

from skyprivacy.errors import UnanalysedColumnWarning

warnings.filterwarnings("ignore", category=UnanalysedColumnWarning)


def write_json(path: Path, data: dict) -> None:
    """Write results atomically (temp file in the same folder, then rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "w") as handle:
        json.dump(data, handle, indent=2)
    os.replace(tmp, path)
