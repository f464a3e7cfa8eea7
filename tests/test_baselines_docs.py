"""The user guide docs/baselines.md is executable: every example in it runs as a doctest."""

from __future__ import annotations

from guides import run_guide


def test_baselines_guide_examples_run():
    failures, attempted = run_guide("baselines.md")
    assert attempted > 40
    assert failures == 0
