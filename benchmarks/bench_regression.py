"""Benchmark: is this tree slower than a committed baseline? (issue "Honest figures", item 2).

A slowdown built up over several merges shows in no single benchmark, and absolute times on
this shared machine move by 2x between runs.  So the baseline is not a number but a commit:
``benchmarks/results/baseline.json`` names it, this script exports that commit's package into a
temporary directory (``git archive``), and runs every job on both trees in the same run,
alternating old and new, best of ``--repeat`` in fresh subprocesses.  Each job reports
new / old time; above ``--tolerance`` (default 1.10) it is flagged SLOWER and the exit code is 1.
Both clocks include the same work: building the input frame is outside them, the call and its
result are inside.

Jobs (public API only, so that both trees run the same code path):

* ``from_table``: the bundled Adult resampled to 1M rows, 7 QIs (six text columns) and
  occupation: ``ReleaseCandidate.from_table``;
* ``check``: ``skyline_check`` of Adult's release at six knowledge points;
* ``k_anonymize``: 1M Adult-like rows, 7 QIs, k = 10;
* ``skyline_anonymize``: Adult, 3 QIs with the bundled hierarchies' columns, (1, 5, 1, 0.9).

Run:  python benchmarks/bench_regression.py [--baseline REF] [--repeat N] [--quick]
      python benchmarks/bench_regression.py --set-baseline REF   (record a new baseline)
Writes benchmarks/results/regression.json (atomically).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import write_json  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BASELINE = HERE / "results" / "baseline.json"
RESULT = HERE / "results" / "regression.json"
JOBS = ("from_table", "check", "k_anonymize", "skyline_anonymize")

JOB = r'''
import gc, json, sys, time
import numpy as np
name, n_rows = sys.argv[1], int(sys.argv[2])
from skyprivacy import Policy, ReleaseCandidate, k_anonymize, skyline_anonymize, skyline_check
from skyprivacy.datasets import load_adult
import inspect, warnings
# the jobs publish every column, as they did before columns had to be classified (a baseline
# older than keep_rest copied them by default)
rest = {"keep_rest": True} if "keep_rest" in inspect.signature(k_anonymize).parameters else {}
warnings.simplefilter("ignore")
qi = ["age", "workclass", "education", "marital-status", "race", "sex", "native-country"]
adult = load_adult()
rng = np.random.default_rng(0)
big = adult.iloc[rng.integers(0, len(adult), n_rows)].reset_index(drop=True)
points = [(0, 0, 0, 0.9), (1, 1, 1, 0.9), (2, 2, 2, 0.9), (1, 5, 1, 0.9), (3, 0, 4, 0.8),
          (0, 3, 0, 0.7)]
if name == "from_table":
    run = lambda: ReleaseCandidate.from_table(big, qi=qi, sensitive="occupation")
elif name == "check":
    release = ReleaseCandidate.from_table(adult, qi=qi, sensitive="occupation")
    run = lambda: [skyline_check(release, Policy.uniform([p])).safe for p in points]
elif name == "k_anonymize":
    run = lambda: k_anonymize(big[qi + ["occupation"]], qi=qi, k=10, **rest)
else:
    run = lambda: skyline_anonymize(adult, qi=["age", "education", "marital-status"],
                                    sensitive="occupation", **rest,
                                    policy=Policy.uniform([(1, 5, 1, 0.9)]))
gc.collect()
t = time.perf_counter(); run(); print(json.dumps({"seconds": time.perf_counter() - t}))
'''


def export(ref: str, into: Path) -> Path:
    """The package of commit ``ref`` unpacked under ``into`` (``git archive``)."""
    tar = into / "tree.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(tar), ref, "skyprivacy"],
                   check=True)
    with tarfile.open(tar) as archive:
        archive.extractall(into, filter="data")
    return into


def time_job(tree: Path, name: str, n_rows: int) -> float:
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, "-c", JOB, name, str(n_rows)], capture_output=True,
                          text=True, env=env, check=False)
    if done.returncode:
        raise RuntimeError(f"{name} on {tree}: {done.stderr.strip().splitlines()[-1]}")
    return json.loads(done.stdout.strip().splitlines()[-1])["seconds"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="commit to compare with (default: baseline.json)")
    parser.add_argument("--set-baseline", metavar="REF", help="record REF as the baseline")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tolerance", type=float, default=1.10)
    parser.add_argument("--quick", action="store_true", help="100,000 rows (smoke run)")
    parser.add_argument("--only", default=",".join(JOBS))
    args = parser.parse_args(argv)
    if args.set_baseline:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", args.set_baseline],
                                capture_output=True, text=True, check=True).stdout.strip()
        write_json(BASELINE, {"commit": commit})
        print("baseline", commit)
        return 0
    ref = args.baseline or json.loads(BASELINE.read_text())["commit"]
    n_rows = 100_000 if args.quick else 1_000_000
    results: dict = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                                 "platform": platform.platform()},
                     "baseline": ref, "rows": n_rows, "tolerance": args.tolerance,
                     "jobs": {}}
    slower = []
    with tempfile.TemporaryDirectory() as tmp:
        old = export(ref, Path(tmp))
        for name in args.only.split(","):
            times: dict = {"old": [], "new": []}
            for _ in range(args.repeat):  # alternate, so load shifts hit both sides
                times["old"].append(time_job(old, name, n_rows))
                times["new"].append(time_job(ROOT, name, n_rows))
            ratio = min(times["new"]) / min(times["old"])
            results["jobs"][name] = {"old_s": min(times["old"]), "new_s": min(times["new"]),
                                     "ratio_new_over_old": ratio}
            flag = "SLOWER" if ratio > args.tolerance else "ok"
            if ratio > args.tolerance:
                slower.append(name)
            print(f"{name:18s} old {min(times['old']):8.3f}s  new {min(times['new']):8.3f}s"
                  f"  new/old {ratio:5.2f}  {flag}", flush=True)
    results["slower"] = slower
    if not args.quick:
        write_json(RESULT, results)
    return 1 if slower else 0


if __name__ == "__main__":
    sys.exit(main())
