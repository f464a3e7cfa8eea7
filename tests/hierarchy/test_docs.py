"""The user guide docs/hierarchies.md is executable: every example in it runs as a doctest."""

from __future__ import annotations

from guides import run_guide


def test_user_guide_examples_run():
    failures, attempted = run_guide("hierarchies.md", normalize_whitespace=False)
    assert attempted > 40
    assert failures == 0
