"""Benchmark: scale-up of SkylineAnonymize against the number of records (Sect. 8.2, Fig. 7).

Fig. 7 of the privacy-skyline paper plots SkylineAnonymize's time against the number of
records for two settings, (l, k, m) = (0, 1000, 0) ("roughly k-anonymity with k = 1,000")
and (3, 1000, 10), on Agrawal et al.'s synthetic generator with the 9-value Zip-code as the
sensitive attribute, and calls the scale-up "well-behaved".  Here, every size runs in a fresh
subprocess (time of the best of --repeat runs, peak RSS of the process and the table's own
size) on two data sets:

* ``synthetic``: generated like Sect. 8.1/8.2: 8 numeric and categorical QIs drawn like
  Agrawal et al.'s attributes (salary, commission, age, education level, car, house value,
  house years, loan) and a sensitive attribute of 20 uniform values;
* ``adult``: the bundled Adult table (7 QIs, occupation sensitive) replicated and perturbed
  (ages and hours jittered by up to +-2, one categorical QI resampled in 5% of the rows), so
  that replicas are not exact duplicates.

In the same run, the competitor is plain Mondrian k-anonymity (``k_anonymize``, k = 1,000,
the setting (0, 1000, 0) corresponds to); the JSON has both times and their ratio per size,
and the fitted exponent of time (and of peak memory) against the number of records.

Run:  python benchmarks/bench_scaleup.py [--quick] [--repeat N] [--max-rows N]
Writes benchmarks/results/scaleup.json (atomically).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import write_json  # noqa: E402

HERE = Path(__file__).resolve().parent
RESULT = HERE / "results" / "scaleup.json"
SETTINGS = {"(0,1000,0)": (0, 1000, 0, 0.9), "(3,1000,10)": (3, 1000, 10, 0.9)}

JOB = r'''
import gc, json, resource, sys, time
import numpy as np, pandas as pd
from skyprivacy import Policy, k_anonymize, skyline_anonymize
from skyprivacy.datasets import load_adult
data, n_rows, job, repeat = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
rng = np.random.default_rng(0)
if data == "synthetic":
    qi = ["salary", "commission", "age", "elevel", "car", "hvalue", "hyears", "loan"]
    salary = rng.integers(20, 151, n_rows) * 1000
    df = pd.DataFrame({
        "salary": salary,
        "commission": np.where(salary >= 75000, 0, rng.integers(10, 76, n_rows) * 1000),
        "age": rng.integers(20, 81, n_rows),
        "elevel": rng.choice([f"e{i}" for i in range(5)], n_rows),
        "car": rng.choice([f"make{i:02d}" for i in range(1, 21)], n_rows),
        "hvalue": rng.integers(50, 1001, n_rows) * 1000,
        "hyears": rng.integers(1, 31, n_rows),
        "loan": rng.integers(0, 501, n_rows) * 1000,
        "sensitive": rng.choice([f"s{i:02d}" for i in range(20)], n_rows),
    })
    sensitive = "sensitive"
else:
    qi = ["age", "workclass", "education", "marital-status", "race", "sex", "hours-per-week"]
    adult = load_adult()
    reps = -(-n_rows // len(adult))
    df = pd.concat([adult] * reps, ignore_index=True).iloc[:n_rows].copy()
    df["age"] = np.clip(df["age"].to_numpy() + rng.integers(-2, 3, n_rows), 17, 90)
    df["hours-per-week"] = np.clip(df["hours-per-week"].to_numpy()
                                   + rng.integers(-2, 3, n_rows), 1, 99)
    resample = rng.random(n_rows) < 0.05
    df.loc[resample, "workclass"] = rng.choice(df["workclass"].unique(), int(resample.sum()))
    df = df[qi + ["occupation"]]
    for column in ["workclass", "education", "marital-status", "race", "sex", "occupation"]:
        df[column] = df[column].astype("category")  # 10^7 rows of strings would be 4 GB
    sensitive = "occupation"
table_bytes = int(df.memory_usage(deep=True).sum())
gc.collect()
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
def run():
    if job == "k_anonymize":
        return k_anonymize(df, keep_rest=True, qi=qi, k=1000)
    l, k, m, c = json.loads(sys.argv[5])
    return skyline_anonymize(df, keep_rest=True, qi=qi, sensitive=sensitive,
                             policy=Policy.uniform([(l, k, m, c)]))
times = []
for _ in range(repeat):
    gc.collect()
    t = time.perf_counter(); result = run(); times.append(time.perf_counter() - t)
groups = int(result.candidate.n_groups) if hasattr(result, "candidate") else int(
    result.table.groupby(qi, dropna=False, observed=True).ngroups)
cert = result.certificate
safe = bool(cert.safe)  # CheckResult and KAnonymityResult both say safe
print(json.dumps({"seconds": min(times), "peak_rss_bytes": resource.getrusage(
    resource.RUSAGE_SELF).ru_maxrss * 1024, "rss_before_bytes": base,
    "table_bytes": table_bytes, "groups": groups, "certified_safe": safe}))
'''


def run_job(data: str, n_rows: int, job: str, repeat: int, setting=None,
            timeout: float = 3600) -> dict:
    env = dict(os.environ, PYTHONPATH=str(HERE.parent))
    args = [sys.executable, "-c", JOB, data, str(n_rows), job, str(repeat)]
    if setting is not None:
        args.append(json.dumps(setting))
    try:
        done = subprocess.run(args, capture_output=True, text=True, env=env, check=False,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    if done.returncode:
        lines = done.stderr.strip().splitlines()
        return {"error": lines[-1] if lines else f"exit {done.returncode}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def exponent(points: list, key: str) -> float | None:
    """Slope of log(key) against log(rows) over the points that finished."""
    ok = [p for p in points if key in p]
    if len(ok) < 2:
        return None
    return float(np.polyfit(np.log([p["rows"] for p in ok]), np.log([p[key] for p in ok]),
                            1)[0])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10^4 .. 10^5 rows, no JSON")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--max-rows", type=int, default=10_000_000)
    parser.add_argument("--data", default="synthetic,adult")
    args = parser.parse_args(argv)
    sizes = ([10_000, 30_000, 100_000] if args.quick else
             [n for n in (100_000, 300_000, 1_000_000, 3_000_000, 10_000_000)
              if n <= args.max_rows])
    results = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                           "platform": platform.platform()},
               "paper": "Fig. 7: time against records for (0, 1000, 0) and (3, 1000, 10); "
                        "Agrawal synthetic data, Zip-code (9 values) sensitive"}
    for data in args.data.split(","):
        out = {}
        for label in ["k_anonymize", *SETTINGS]:
            points = []
            for rows in sizes:
                res = run_job(data, rows, "k_anonymize" if label == "k_anonymize"
                              else "skyline", args.repeat, SETTINGS.get(label))
                points.append({"rows": rows, **res})
                print(data, label, json.dumps(points[-1]), flush=True)
            out[label] = {"points": points, "exponent_time": exponent(points, "seconds"),
                          "exponent_peak_rss": exponent(points, "peak_rss_bytes")}
        for label in SETTINGS:  # same-run ratio to plain Mondrian k-anonymity, per size
            for p, q in zip(out[label]["points"], out["k_anonymize"]["points"]):
                if "seconds" in p and "seconds" in q:
                    p["ratio_to_k_anonymize"] = p["seconds"] / q["seconds"]
        results[data] = out
        print(data, {label: (v["exponent_time"], v["exponent_peak_rss"])
                     for label, v in out.items()}, flush=True)
    if not args.quick:
        write_json(RESULT, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
