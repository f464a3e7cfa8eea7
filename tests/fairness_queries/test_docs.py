"""The user guide docs/fairness_queries.md is executable: every example in it runs as a
doctest, and its benchmark table quotes the committed benchmark results."""

from __future__ import annotations

import json
from pathlib import Path

from guides import run_guide

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "fairness_queries.md"
RESULTS = ROOT / "benchmarks" / "results" / "fairness_queries.json"


def test_fairness_queries_guide_examples_run():
    failures, attempted = run_guide("fairness_queries.md")
    assert attempted >= 20
    assert failures == 0


def test_guide_quotes_the_committed_benchmark():
    report = json.loads(RESULTS.read_text())
    assert report["quick"] is False and report["cs_attack"]["n"] == 10_000
    text = GUIDE.read_text()
    cs = report["cs_attack"]
    assert f"| {cs['l1']['queries_used']} | {cs['l1']['seconds']:.1f} s | 100% | yes |" in text
    assert f"{cs['ratios']['queries_n_plus_1_over_cs']:.1f}x fewer queries" in text
    batched = report["mechanisms"]["batched"]["ratios"]
    assert f"| {batched['median_error_conceal_over_laplace']:.1f} |" in text
