"""Benchmark: peak memory of ``k_anonymize`` on 1M Adult-like rows (issue "Honest figures", item 2).

The table is the one ``bench_regression.py`` times: the bundled UCI Adult resampled with
replacement (seeded) to 1,000,000 rows, 7 QIs (age and six text columns: workclass,
education, marital-status, race, sex, native-country) and occupation, as plain object
(string) columns, the form a publisher's CSV is read in.  ``k_anonymize(frame, qi=7 QIs,
k=10)`` runs in a fresh subprocess, and its memory is measured two ways:

* **tracemalloc**: the peak of the bytes allocated during the call, above what was allocated
  before it (numpy and pandas report their buffers to tracemalloc; Python objects, such as
  the released table's strings, are traced too).  This is the figure the target is about.
* **RSS**: the process's peak resident set (``ru_maxrss``) minus its resident set just before
  the call, in a second run of the same job without tracemalloc (tracemalloc slows the
  call and adds its own bookkeeping).  It includes memory the allocator keeps and what
  tracemalloc cannot see.

Both are reported as a ratio to the input frame's deep size
(``frame.memory_usage(deep=True).sum()``, object strings included), with the released table's
own deep size beside them.  Target: peak at most 2x the input frame.

Run:  python benchmarks/bench_memory.py [--rows N]
Writes benchmarks/results/memory.json (atomically).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import write_json  # noqa: E402

HERE = Path(__file__).resolve().parent
RESULT = HERE / "results" / "memory.json"
TARGET = 2.0

JOB = r'''
import gc, json, resource, sys, time, tracemalloc
import numpy as np
from skyprivacy import k_anonymize
from skyprivacy.datasets import load_adult
n_rows, how = int(sys.argv[1]), sys.argv[2]
qi = ["age", "workclass", "education", "marital-status", "race", "sex", "native-country"]
adult = load_adult()[qi + ["occupation"]]
rng = np.random.default_rng(0)
frame = adult.iloc[rng.integers(0, len(adult), n_rows)].reset_index(drop=True)
for column in frame.columns:
    if frame[column].dtype.kind not in "iuf":
        frame[column] = frame[column].astype(object)
del adult
frame_bytes = int(frame.memory_usage(deep=True).sum())
gc.collect()
out = {"rows": n_rows, "frame_bytes": frame_bytes,
       "text_columns": int(sum(frame[c].dtype == object for c in qi))}
if how == "tracemalloc":
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    t = time.perf_counter()
    result = k_anonymize(frame, keep_rest=True, qi=qi, k=10)
    out["seconds_traced"] = time.perf_counter() - t
    out["peak_bytes"] = tracemalloc.get_traced_memory()[1] - before
    tracemalloc.stop()
else:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    with open("/proc/self/statm") as f:
        rss_now = int(f.read().split()[1]) * resource.getpagesize()
    t = time.perf_counter()
    result = k_anonymize(frame, keep_rest=True, qi=qi, k=10)
    out["seconds"] = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    out["rss_before_bytes"] = rss_now
    out["rss_peak_bytes"] = peak
    out["rss_growth_bytes"] = peak - rss_now
out["result_bytes"] = int(result.table.memory_usage(deep=True).sum())
out["groups"] = int(len(result.certificate.group_sizes))
out["certified_safe"] = bool(result.certificate.safe)
print(json.dumps(out))
'''


def run(n_rows: int, how: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(HERE.parent))
    done = subprocess.run([sys.executable, "-c", JOB, str(n_rows), how], capture_output=True,
                          text=True, env=env, check=False)
    if done.returncode:
        raise RuntimeError(done.stderr.strip().splitlines()[-1])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args(argv)
    traced, rss = run(args.rows, "tracemalloc"), run(args.rows, "rss")
    frame = traced["frame_bytes"]
    out = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                       "platform": platform.platform()},
           "job": "k_anonymize(frame, qi=7 Adult QIs, k=10), 1M rows resampled from Adult",
           "target_ratio": TARGET, "rows": args.rows, "frame_bytes": frame,
           "result_bytes": traced["result_bytes"], "groups": traced["groups"],
           "certified_safe": traced["certified_safe"], "text_columns": traced["text_columns"],
           "seconds": rss["seconds"],
           "tracemalloc_peak_bytes": traced["peak_bytes"],
           "tracemalloc_ratio": traced["peak_bytes"] / frame,
           "rss_before_bytes": rss["rss_before_bytes"], "rss_peak_bytes": rss["rss_peak_bytes"],
           "rss_growth_bytes": rss["rss_growth_bytes"],
           "rss_ratio": rss["rss_growth_bytes"] / frame,
           "result_ratio": traced["result_bytes"] / frame}
    out["meets_target"] = out["tracemalloc_ratio"] <= TARGET
    for key in ("frame_bytes", "result_bytes", "tracemalloc_peak_bytes", "rss_growth_bytes"):
        print(f"{key:24s} {out[key] / 2**20:9.1f} MB")
    print(f"tracemalloc peak / frame {out['tracemalloc_ratio']:.2f}x, RSS growth / frame "
          f"{out['rss_ratio']:.2f}x (target <= {TARGET:g}x): "
          f"{'met' if out['meets_target'] else 'NOT met'}")
    if args.rows == 1_000_000:
        write_json(RESULT, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
