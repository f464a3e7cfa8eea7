"""Benchmark: ``skyprivacy check`` of a 20,000-value table with its worst cases in words, against
the same check with ``--format json`` and the prose off (issue 26 item 8).

The table: 60,000 rows, two QI columns (400 QI-groups of about 150 people) and a sensitive
column of 20,000 distinct values (each at least once), fixed seed; the policy gives every value
the point (l, k, m, c) = (1, 2, 1, 0.0075), so about a third of the values fail and the text
output has thousands of failing checks to tell.

Two clocks, each a fresh ``python`` process running the console entry point
(``skyprivacy.cli.main``) on the same table, in the same run, interleaved, best of --repeat:

* ``with_prose_s``: ``skyprivacy check T --qi zip,sex --sensitive diag --policy P`` with text
  output: the verdict, the per-value table, the worst cases of the most exposed failing checks
  and, in the certificate it builds, the worst case in words of every one of the 20,000 checks;
* ``json_prose_off_s``: ``skyprivacy check T ... --format json`` with the worst-case sentences
  switched off: the command has no switch for that (the certificate and the JSON record every
  sentence), so the driver replaces :func:`skyprivacy.prose.worst_case`, as the check imports
  it, with one that returns an empty sentence; everything else (the exact breach probability
  of every row, the certificate, the JSON) is the same work.

Each clock includes the interpreter start, the imports, reading the CSV, the check, the
certificate and writing stdout to a file (no certificate file is written).  Wall time and the
CPU time of the child process (user + system, less sensitive to other load on the machine)
are both recorded; the acceptance ratio ``with_prose_s / json_prose_off_s`` must stay <= 2.
An in-process split of the one expensive step, building the 20,000 rows (exact breach
probabilities alone, then with the sentences), is recorded too (``rows_*``).

Run:  python benchmarks/bench_prose.py [--repeat N] [--values N] [--quick]
Writes benchmarks/results/prose.json.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import write_json  # noqa: E402

RESULTS = HERE / "results" / "prose.json"
POLICY = "[default]\nskyline = [[1, 2, 1, 0.0075]]\n"

#: The prose-off driver: the check's worst cases are empty sentences, nothing else changes.
PROSE_OFF = """
import sys
import skyprivacy.check
from skyprivacy.prose import WorstCase

def silent(release, value, stats, bp, threshold=None):
    return WorstCase(value, stats.case, None, None, None, (), bp, "")

skyprivacy.check.worst_case = silent
from skyprivacy.cli import main
sys.exit(main(sys.argv[1:]))
"""
WITH_PROSE = """
import sys
from skyprivacy.cli import main
sys.exit(main(sys.argv[1:]))
"""


def make_table(n_values: int, n_rows: int, seed: int = 0) -> pd.DataFrame:
    """``n_rows`` rows over 400 QI-groups, every one of ``n_values`` sensitive values at least
    once (fixed seed)."""
    rng = np.random.default_rng(seed)
    values = np.concatenate([np.arange(n_values), rng.integers(0, n_values, n_rows - n_values)])
    rng.shuffle(values)
    return pd.DataFrame({"zip": rng.integers(0, 200, n_rows).astype(str),
                         "sex": rng.choice(["F", "M"], n_rows),
                         "diag": [f"d{v:05d}" for v in values]})


def timed(driver: str, argv: list[str], out: Path) -> tuple[float, float, int]:
    """Wall and child CPU seconds of one fresh process running ``driver`` on ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(out, "wb") as stdout:
        code = subprocess.run([sys.executable, "-c", driver, *argv], stdout=stdout,
                              stderr=subprocess.DEVNULL, check=False).returncode
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, code


def rows_split(table: pd.DataFrame, policy_text: str) -> dict:
    """In process: the 20,000 rows built with and without their sentences (CPU seconds)."""
    import skyprivacy.check
    from skyprivacy import Policy, ReleaseCandidate, skyline_check
    from skyprivacy.prose import WorstCase

    release = ReleaseCandidate.from_table(table, sensitive="diag", qi=["zip", "sex"])
    policy = Policy.uniform([(1, 2, 1, 0.0075)])
    start = time.process_time()
    result = skyline_check(release, policy)
    verdict = result.safe
    worst = result.worst
    verdict_s = time.process_time() - start
    start = time.process_time()
    with_prose = len(skyline_check(release, policy).rows)
    with_prose_s = time.process_time() - start
    real = skyprivacy.check.worst_case
    skyprivacy.check.worst_case = (lambda release, value, stats, bp, threshold=None:
                                   WorstCase(value, stats.case, None, None, None, (), bp, ""))
    try:
        start = time.process_time()
        without = len(skyline_check(release, policy).rows)
        without_s = time.process_time() - start
    finally:
        skyprivacy.check.worst_case = real
    assert with_prose == without
    return {"rows_verdict_only_s": verdict_s, "rows_with_prose_s": with_prose_s,
            "rows_without_prose_s": without_s, "verdict_safe": bool(verdict),
            "worst_value": str(worst.value) if worst is not None else None}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--values", type=int, default=20_000)
    parser.add_argument("--rows", type=int, default=60_000)
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: 2,000 values, 6,000 rows, one repeat, to "
                             "benchmarks/results/prose-quick.json")
    args = parser.parse_args(argv)
    results = RESULTS
    if args.quick:
        args.values, args.rows, args.repeat = 2_000, 6_000, 1
        results = RESULTS.with_name("prose-quick.json")
    table = make_table(args.values, args.rows)
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        path, policy = folder / "table.csv", folder / "policy.toml"
        table.to_csv(path, index=False)
        policy.write_text(POLICY)
        common = [str(path), "--qi", "zip,sex", "--sensitive", "diag", "--policy", str(policy)]
        runs: dict[str, list] = {"with_prose": [], "json_prose_off": []}
        codes = {}
        for _ in range(args.repeat):  # interleaved, so both see the same load
            wall, cpu, codes["with_prose"] = timed(WITH_PROSE, ["check", *common],
                                                   folder / "text.out")
            runs["with_prose"].append((wall, cpu))
            wall, cpu, codes["json_prose_off"] = timed(
                PROSE_OFF, ["check", *common, "--format", "json"], folder / "json.out")
            runs["json_prose_off"].append((wall, cpu))
        text = (folder / "text.out").read_text(encoding="utf-8")
        shown = sum(1 for line in text.splitlines() if line.startswith("- '"))
    best = {name: (min(w for w, _ in r), min(c for _, c in r)) for name, r in runs.items()}
    split = rows_split(table, POLICY)
    result = {
        "benchmark": "skyprivacy check of a 20,000-value table: text with the worst cases in "
                     "words vs --format json with the prose off (issue 26 item 8)",
        "clock": "fresh python process per run: interpreter start, imports, reading the CSV, "
                 "the check, the certificate, stdout to a file; best of repeat; wall and "
                 "child CPU (user + system)",
        "n_values": args.values, "n_rows": args.rows, "n_groups": 400,
        "policy": POLICY.strip(), "repeat": args.repeat,
        "exit_codes": codes,
        "worst_cases_shown_in_text": shown,
        "with_prose_s": best["with_prose"][0], "json_prose_off_s": best["json_prose_off"][0],
        "with_prose_cpu_s": best["with_prose"][1],
        "json_prose_off_cpu_s": best["json_prose_off"][1],
        "ratio_wall": best["with_prose"][0] / best["json_prose_off"][0],
        "ratio_cpu": best["with_prose"][1] / best["json_prose_off"][1],
        "within_2x": best["with_prose"][0] <= 2 * best["json_prose_off"][0],
        "runs": runs,
        **split,
        "prose_share_of_rows": 1 - split["rows_without_prose_s"] / split["rows_with_prose_s"],
        "python": platform.python_version(), "machine": platform.machine(),
        "cpus": os.cpu_count(),
    }
    write_json(results, result)
    print(f"check of {args.values:,} values: with prose {result['with_prose_s']:.2f} s "
          f"(CPU {result['with_prose_cpu_s']:.2f} s), --format json prose off "
          f"{result['json_prose_off_s']:.2f} s (CPU {result['json_prose_off_cpu_s']:.2f} s): "
          f"ratio {result['ratio_wall']:.2f} wall, {result['ratio_cpu']:.2f} CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
