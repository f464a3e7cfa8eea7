"""Benchmark: scale in the sensitive domain (issue "Scale in the sensitive domain").

Every job runs in a fresh subprocess (best of --repeat runs; peak memory of the measured call
from tracemalloc, which numpy and pandas report to), with its competitor in the same process:

a. Sect. 8.1 synthetic (20 uniform values, groups of 100, 1M and 5M rows, point (10, 10, 10)):
   ``from_table`` + ``skyline_check`` against a bare pandas ``groupby([group, value]).size()``
   of the same rows. Target: ratio <= 1.3.
b. ICD-like: 1M rows, 20,000 values drawn Zipf(1.1), 10,000 groups, policy default
   (1, 5, 1, 0.9) plus 50 listed values: the same ratio (target <= 3) and peak memory against
   the input frame's deep size (target <= 2).
c. SkylineAnonymize of 100,000 rows, 5 QIs, 20,000 Zipf values, default (1, 2, 1, 0.5), and
   the same run with a 20-value sensitive column. Targets: <= 60 s and ratio <= 3.
d. ``skyline_find_all`` on (b)'s release for the 100 most exposed values (highest breach
   probability with no knowledge). Target: <= 10 s.
e. Check time over V in {20, 200, 2,000, 20,000} at 1M rows: the fitted exponent of the check
   time against the number of nonzeros (target <= 1.1), from_table included and excluded.
f. A publisher's table: the bundled Adult resampled (with replacement, seeded) to 5M and 10^7
   rows, 7 QIs (age and six text columns) and occupation as the sensitive column:
   ``from_table`` against ``groupby(7 QIs + occupation).size()`` on the same frame in the
   same process (both clocks include hashing the text cells; neither includes building the
   frame). Target: ratio <= 1.3 (issue "Honest figures", item 2).

Run:  python benchmarks/bench_scale.py [--quick] [--repeat N]
Writes benchmarks/results/scale.json (atomically).
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
RESULT = HERE / "results" / "scale.json"

JOB = r'''
import gc, json, sys, time, tracemalloc
import numpy as np, pandas as pd
from skyprivacy import Policy, ReleaseCandidate, skyline_anonymize, skyline_check, skyline_find_all
name, n_rows, n_values, repeat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
with_find = sys.argv[5] == "1"
rng = np.random.default_rng(0)

def zipf_codes(n, v):
    p = np.arange(1, v + 1, dtype=float) ** -1.1
    return rng.choice(v, n, p=p / p.sum())

def labels(codes, prefix):
    names = np.array([f"{prefix}{i:05d}" for i in range(codes.max() + 1)], dtype=object)
    return names[codes]

def best(fn):
    times, out = [], None
    for _ in range(repeat):
        gc.collect()
        t = time.perf_counter(); out = fn(); times.append(time.perf_counter() - t)
    return min(times), out

def peak(fn):
    gc.collect(); tracemalloc.start(); fn(); p = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop(); return p

out = {}
if name in ("synthetic", "icd", "scaling"):
    if name == "synthetic":  # Sect. 8.1: groups of 100, 20 uniform values
        groups = np.repeat(np.arange(n_rows // 100), 100)
        values = labels(rng.integers(0, n_values, n_rows), "v")
        policy = Policy.uniform([(10, 10, 10, 0.9)])
    else:
        groups = rng.integers(0, 10_000, n_rows)
        values = labels(zipf_codes(n_rows, n_values), "D")
        listed = sorted(set(values[:5000]))[:50]
        policy = Policy({v: [(2, 5, 2, 0.8)] for v in listed}, default=[(1, 5, 1, 0.9)])
    df = pd.DataFrame({"group": groups, "value": values})
    def ours():
        release = ReleaseCandidate.from_table(df, group="group", sensitive="value")
        return release, skyline_check(release, policy).safe
    def bare():
        return df.groupby(["group", "value"]).size()
    t_ours, (release, safe) = best(ours)
    t_bare, _ = best(bare)
    t_check, _ = best(lambda: skyline_check(release, policy).safe)
    out.update(ours_s=t_ours, groupby_s=t_bare, ratio=t_ours / t_bare, check_only_s=t_check,
               safe=bool(safe), nonzeros=release.n_nonzeros, groups=release.n_groups,
               values=len(release.values))
    if name == "icd":
        out["frame_bytes"] = int(df.memory_usage(deep=True).sum())
        out["peak_bytes"] = peak(ours)
        out["memory_ratio"] = out["peak_bytes"] / out["frame_bytes"]
    if name == "icd" and with_find:
        bp0 = release.nonzeros()
        bp0["share"] = bp0["count"] / release.group_sizes.reindex(bp0["group"]).to_numpy()
        exposed = bp0.groupby("value")["share"].max().sort_values(ascending=False)
        top = list(exposed.index[:100])
        t = time.perf_counter()
        skylines = skyline_find_all(release, c=0.9, values=top)
        t_find = time.perf_counter() - t
        out.update(find_all_100_s=t_find, find_all_values=len(skylines))
elif name == "adult":
    from skyprivacy.datasets import load_adult
    qi = ["age", "workclass", "education", "marital-status", "race", "sex", "native-country"]
    adult = load_adult()[qi + ["occupation"]]
    df = adult.iloc[rng.integers(0, len(adult), n_rows)].reset_index(drop=True)
    del adult
    def ours():
        return ReleaseCandidate.from_table(df, qi=qi, sensitive="occupation")
    def bare():
        return df.groupby(qi + ["occupation"]).size()
    t_ours, release = best(ours)
    t_bare, _ = best(bare)
    out.update(ours_s=t_ours, groupby_s=t_bare, ratio=t_ours / t_bare,
               groups=release.n_groups, nonzeros=release.n_nonzeros,
               text_columns=int(sum(df[c].dtype.kind not in "iuf" for c in qi)))
elif name == "anonymize":
    n = n_rows
    df = pd.DataFrame({"age": rng.integers(17, 91, n), "hours": rng.integers(1, 100, n),
                       "zip": rng.integers(0, 1000, n),
                       "edu": rng.choice([f"e{i}" for i in range(16)], n),
                       "sex": rng.choice(["F", "M"], n),
                       "dx": labels(zipf_codes(n, n_values), "D")})
    policy = Policy.uniform([(1, 2, 1, 0.5)])
    t, result = best(lambda: skyline_anonymize(df, keep_rest=True,
                                               qi=["age", "hours", "zip", "edu", "sex"],
                                               sensitive="dx", policy=policy))
    out.update(seconds=t, groups=result.candidate.n_groups, safe=bool(result.certificate.safe),
               nonzeros=result.candidate.n_nonzeros)
print(json.dumps(out))
'''


def run_job(name: str, n_rows: int, n_values: int, repeat: int, find: bool = True) -> dict:
    env = dict(os.environ, PYTHONPATH=str(HERE.parent))
    done = subprocess.run([sys.executable, "-c", JOB, name, str(n_rows), str(n_values),
                           str(repeat), "1" if find else "0"], capture_output=True, text=True,
                          env=env, check=False)
    if done.returncode:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr else "failed"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (smoke run)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="abcdef",
                        help="which targets to run, e.g. 'be' (default: all)")
    args = parser.parse_args(argv)
    scale = 10 if args.quick else 1
    results: dict = {"machine": {"python": platform.python_version(),
                                 "cpus": os.cpu_count(), "platform": platform.platform()}}

    def show(key, value):
        results[key] = value
        print(key, json.dumps(value), flush=True)

    only = set(args.only)
    targets = {}
    if "a" in only:
        for rows in (1_000_000, 5_000_000):
            res = run_job("synthetic", rows // scale, 20, args.repeat)
            show(f"a_synthetic_{rows}", res)
            targets[f"a_{rows // 10**6}M_ratio<=1.3"] = res.get("ratio", 99) <= 1.3
    if "b" in only or "d" in only:
        res = run_job("icd", 1_000_000 // scale, 20_000, args.repeat, find="d" in only)
        show("b_icd", res)
        targets["b_ratio<=3"] = res.get("ratio", 99) <= 3
        targets["b_memory<=2x"] = res.get("memory_ratio", 99) <= 2
        if "d" in only:
            show("d_find_all", {"seconds": res.get("find_all_100_s"),
                                "values": res.get("find_all_values")})
            targets["d_seconds<=10"] = (res.get("find_all_100_s") or 1e9) <= 10
    if "c" in only:
        many = run_job("anonymize", 100_000 // scale, 20_000, args.repeat)
        few = run_job("anonymize", 100_000 // scale, 20, args.repeat)
        ratio = many.get("seconds", float("nan")) / few.get("seconds", 1)
        # the two runs release different partitions (rare values allow more splits), so the
        # raw ratio compares unequal outputs; the work per released group and per released
        # nonzero is the like-for-like comparison
        per_group = ((many.get("seconds", 1e9) / many.get("groups", 1))
                     / (few.get("seconds", 1) / few.get("groups", 1)))
        per_nonzero = ((many.get("seconds", 1e9) / many.get("nonzeros", 1))
                       / (few.get("seconds", 1) / few.get("nonzeros", 1)))
        show("c_anonymize", {"values_20000": many, "values_20": few, "ratio": ratio,
                             "ratio_per_group": per_group, "ratio_per_nonzero": per_nonzero})
        targets["c_seconds<=60"] = many.get("seconds", 1e9) <= 60
        targets["c_raw_ratio<=3"] = ratio <= 3
        targets["c_ratio_per_group<=3"] = per_group <= 3
        targets["c_ratio_per_nonzero<=3"] = per_nonzero <= 3
    if "e" in only:
        points = []
        for v in (20, 200, 2_000, 20_000):
            points.append({"values": v, **run_job("scaling", 1_000_000 // scale, v,
                                                  args.repeat)})
        nnz = np.log([p["nonzeros"] for p in points])
        total = np.polyfit(nnz, np.log([p["ours_s"] for p in points]), 1)[0]
        check = np.polyfit(nnz, np.log([p["check_only_s"] for p in points]), 1)[0]
        show("e_scaling", {"points": points, "exponent_total": float(total),
                           "exponent_check_only": float(check)})
        targets["e_exponent_total<=1.1"] = total <= 1.1
        targets["e_exponent_check_only<=1.1"] = check <= 1.1
    if "f" in only:
        for rows in (5_000_000, 10_000_000):
            res = run_job("adult", rows // scale, 0, args.repeat)
            show(f"f_adult_{rows}", res)
            targets[f"f_adult_{rows // 10**6}M_ratio<=1.3"] = res.get("ratio", 99) <= 1.3
    show("targets", {key: bool(ok) for key, ok in targets.items()})
    if not args.quick:
        if RESULT.exists():  # keep the targets of earlier partial runs
            merged = json.loads(RESULT.read_text())
            merged.update({k: v for k, v in results.items() if k != "targets"})
            merged["targets"] = {**merged.get("targets", {}), **results["targets"]}
            results = merged
        write_json(RESULT, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
