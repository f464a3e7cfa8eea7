"""Helpers shared by the benchmark scripts."""
import json
import os
import tempfile
from pathlib import Path


def write_json(path: Path, data: dict) -> None:
    """Write results atomically (temp file in the same folder, then rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "w") as handle:
        json.dump(data, handle, indent=2)
    os.replace(tmp, path)
