"""docs/choosing-a-method.md quotes two JSON files and nothing else: the Mondrian / full-domain
table comes from ``docs/figures/choosing.json`` (``python examples/choosing_a_method.py --json
docs/figures/choosing.json --plot docs/figures/choosing.png``) and the lighthouse rows from
``benchmarks/results/optimal_utility.json`` (``python benchmarks/bench_optimal.py --part d``).
Each table is rendered here from its JSON; the test fails when the page differs.  After a new
run, ``python tests/test_choosing_docs.py`` prints what to paste.  A smoke run of the script
checks that it still runs (no time is asserted)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "choosing-a-method.md"
CHOOSING = ROOT / "docs" / "figures" / "choosing.json"
LIGHTHOUSE = ROOT / "benchmarks" / "results" / "optimal_utility.json"


def methods_table() -> str:
    runs = json.loads(CHOOSING.read_text())["runs"]
    lines = ["| k | method | suppression limit | loss (NCP) | discernibility | classes | "
             "rows suppressed |", "|---|---|---|---|---|---|---|"]
    for k in sorted({r["k"] for r in runs}):
        for r in runs:
            if r["k"] == k:
                lines.append(f"| {k} | {r['method']} | {r['suppression_limit']:.0%} | "
                             f"{r['loss']:.3f} | {r['discernibility']:,} | {r['classes']:,} | "
                             f"{r['suppressed']:,} |")
    return "\n".join(lines)


def lighthouse_table() -> str:
    results = json.loads(LIGHTHOUSE.read_text())["results"]
    lines = ["| k | rows suppressed (lighthouse = ours) | discernibility of kept rows, "
             "ours / lighthouse | loss, ours / lighthouse | accuracy, ours - lighthouse "
             "(points) |", "|---|---|---|---|---|"]
    for r in results:
        ratio = r["mondrian_vs_lighthouse"]
        lines.append(f"| {r['k']} | {r['lighthouse']['suppressed']:,} | "
                     f"{ratio['discernibility_kept']:.3f} | {ratio['loss']:.3f} | "
                     f"{ratio['accuracy_points']:+.2f} |")
    return "\n".join(lines)


def test_the_methods_table_is_the_scripts_output():
    assert methods_table() in PAGE.read_text()


def test_the_lighthouse_table_is_the_benchmarks_output():
    assert lighthouse_table() in PAGE.read_text()


def test_the_script_runs(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "choosing_a_method.py"),
                           "--quick", "--json", str(tmp_path / "c.json")],
                          capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    runs = json.loads((tmp_path / "c.json").read_text())["runs"]
    assert {(r["method"], r["suppression_limit"], r["k"]) for r in runs} == {
        (m, s, k) for m in ("mondrian", "full-domain") for s in (0.0, 0.01) for k in (5, 50)}
    for r in runs:  # the budget holds, and suppression never costs loss it did not save
        assert r["suppressed"] <= 0.01 * 5000 if r["suppression_limit"] else r["suppressed"] == 0


if __name__ == "__main__":
    print(methods_table(), "\n")
    print(lighthouse_table())
