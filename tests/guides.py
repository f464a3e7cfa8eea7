"""A user guide in docs/ run as a doctest file: shared by the tests of every guide."""

from __future__ import annotations

import doctest
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"


def run_guide(name: str, *, normalize_whitespace: bool = True) -> tuple[int, int]:
    """(failures, attempted) of ``docs/<name>``'s examples, run with ELLIPSIS (and
    NORMALIZE_WHITESPACE unless told otherwise)."""
    guide = DOCS / name
    assert guide.is_file(), f"missing user guide {guide}"
    flags = doctest.ELLIPSIS | (doctest.NORMALIZE_WHITESPACE if normalize_whitespace else 0)
    result = doctest.testfile(str(guide), module_relative=False, optionflags=flags,
                              verbose=False, raise_on_error=False)
    return result.failed, result.attempted
