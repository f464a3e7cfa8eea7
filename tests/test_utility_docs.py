"""The user guide docs/utility.md is executable: every example in it runs as a doctest."""

from __future__ import annotations

from guides import run_guide


def test_utility_guide_examples_run():
    failures, attempted = run_guide("utility.md")
    assert attempted > 15
    assert failures == 0
