"""The user guide docs/hierarchies.md is executable: every example in it runs as a doctest."""

from __future__ import annotations

import doctest
from pathlib import Path

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "hierarchies.md"


def test_user_guide_examples_run():
    assert GUIDE.is_file(), f"missing user guide {GUIDE}"
    failures, attempted = doctest.testfile(
        str(GUIDE), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False,
        raise_on_error=False,
    )
    assert attempted > 40
    assert failures == 0
