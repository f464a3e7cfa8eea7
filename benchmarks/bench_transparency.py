"""Benchmark: optimal transparency-report privacy (corrected Algorithm 1) against the LP reference.

What it measures (fixed seed, synthetic decision tables with 100 records per QID group):

* scaling - end-to-end time (DecisionTable.from_frame + optimal_privacy, which includes the
  after-the-fact verification of every announced rule) at 10^4, 10^5 and 10^6 records
  (100, 1,000 and 10,000 groups), reported per record: linear time means a flat figure;
* the same for the hardest branch: one record holds about half of each group and
  delta = 0.6, so nearly every group is a floor case (beta* = beta_min) whose bounds share
  no common value, solved by the fixed-beta construction (spec 5.8, one sort per group);
* one QID group of 1,000 records solved by the closed form and by the LP reference
  (bisection on beta with HiGHS feasibility LPs, the generic method of section 6.2), in the
  same run: the ratio of the two times;
* the LP reference on the whole 10^4-record table (100 groups, batched into one LP per
  bisection step) against the closed form on the same table;
* the exact (Fraction) path on 10^4 records, for information.

Both solvers must agree (|beta*_closed - beta*_LP| is reported).  Results go to
benchmarks/results/transparency.json (written atomically).

Run:  python benchmarks/bench_transparency.py            (about a minute)
      python benchmarks/bench_transparency.py --quick    (smoke run, a few seconds)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from skyprivacy.errors import PrivacyRiskWarning
from skyprivacy.transparency import DecisionTable, Delta, lp_reference, optimal_privacy

SCHEMA_VERSION = 1
GROUP_SIZE = 100
FIDELITY = Delta(0.9)


def synthetic_frame(n_records: int, group_size: int, rng: np.random.Generator) -> pd.DataFrame:
    """QID groups of ``group_size`` records; 30% of decisions deterministic (0 or 1)."""
    n_groups = max(1, n_records // group_size)
    d = rng.random(n_records)
    pinned = rng.random(n_records) < 0.3
    d[pinned] = rng.integers(0, 2, pinned.sum())
    return pd.DataFrame({
        "qid": np.repeat(np.arange(n_groups), group_size)[:n_records],
        "sensitive": np.tile(np.arange(group_size), n_groups)[:n_records],
        "count": rng.integers(1, 1000, n_records),
        "d": d,
    })


def build(df: pd.DataFrame) -> DecisionTable:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PrivacyRiskWarning)
        return DecisionTable.from_frame(df, public="qid", sensitive="sensitive", weight="count",
                                        decision="d")


def best_of(repeats: int, fn):
    """Smallest wall time of ``repeats`` runs (and the last result)."""
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def floor_heavy_frame(n_records: int, group_size: int, rng: np.random.Generator) -> pd.DataFrame:
    """One record of every group carries about half the group's mass (beta_min ~ 0.5)."""
    df = synthetic_frame(n_records, group_size, rng)
    first = (df["sensitive"] == 0).to_numpy()
    df.loc[first, "count"] = df.loc[first, "count"] * 60
    return df


def scaling(sizes, repeats, rng, *, make=synthetic_frame, fidelity=FIDELITY) -> list[dict]:
    rows = []
    for n in sizes:
        df = make(n, GROUP_SIZE, rng)
        seconds, result = best_of(repeats, lambda df=df: optimal_privacy(build(df), fidelity))
        build_seconds, table = best_of(repeats, lambda df=df: build(df))
        solve_seconds, _ = best_of(repeats,
                                   lambda table=table: optimal_privacy(table, fidelity))
        cases = result.to_frame()["case"].value_counts().to_dict()
        rows.append({
            "records": n, "groups": table.n_groups, "seconds": seconds,
            "seconds_build": build_seconds, "seconds_solve": solve_seconds,
            "microseconds_per_record": 1e6 * seconds / n,
            "beta_star": float(result.beta_star),
            "cases": {str(k): int(v) for k, v in cases.items()},
        })
        print(f"  {n:>9,} records, {table.n_groups:>6,} groups: {seconds:8.3f} s end to end "
              f"({1e6 * seconds / n:.3f} us/record; build {build_seconds:.3f} s, "
              f"solve {solve_seconds:.3f} s)")
    return rows


def versus_lp(table: DecisionTable, repeats: int, label: str) -> dict:
    closed_seconds, closed = best_of(repeats, lambda: optimal_privacy(table, FIDELITY))
    lp_seconds, lp = best_of(1, lambda: lp_reference(table, FIDELITY))
    gap = float(np.nanmax(np.abs(closed.to_frame()["beta_star"].to_numpy()
                                 - lp.to_frame()["beta_star"].to_numpy())))
    row = {
        "instance": label, "records": table.n_records, "groups": table.n_groups,
        "seconds_closed_form": closed_seconds, "seconds_lp": lp_seconds,
        "speedup": lp_seconds / closed_seconds, "max_abs_beta_gap": gap,
        "beta_star": float(closed.beta_star),
    }
    print(f"  {label}: closed form {closed_seconds * 1e3:.2f} ms, LP {lp_seconds:.3f} s -> "
          f"{row['speedup']:,.0f}x faster; |beta* gap| = {gap:.1e}")
    return row


def write_atomically(path: Path, payload: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(handle, "w") as out:
            json.dump(payload, out, indent=2)
            out.write("\n")
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smoke run with small sizes")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--output", type=Path,
                        default=Path(__file__).resolve().parent / "results" / "transparency.json")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    sizes = (10_000, 100_000) if args.quick else (10_000, 100_000, 1_000_000)
    repeats = 1 if args.quick else 3
    lp_group = 200 if args.quick else 1_000

    print("Scaling (delta = 0.9, 100 records per QID group):")
    scale = scaling(sizes, repeats, rng)
    per_record = [row["microseconds_per_record"] for row in scale]
    print("Scaling, floor-heavy (delta = 0.6, a dominant record per group):")
    floor = scaling(sizes, repeats, rng, make=floor_heavy_frame, fidelity=Delta(0.6))

    print("Closed form against the LP reference, same run:")
    one_group = build(synthetic_frame(lp_group, lp_group, rng))
    single = versus_lp(one_group, max(repeats, 5), f"one group of {lp_group:,} records")
    batch = versus_lp(build(synthetic_frame(10_000 if not args.quick else 2_000, GROUP_SIZE, rng)),
                      repeats, "whole table")

    exact_seconds, _ = best_of(1, lambda: optimal_privacy(
        build(synthetic_frame(10_000, GROUP_SIZE, rng)), FIDELITY, exact=True))
    print(f"Exact (Fraction) path on 10,000 records: {exact_seconds:.2f} s")

    import scipy

    payload = {
        "schema_version": SCHEMA_VERSION,
        "benchmark": "transparency",
        "quick": args.quick, "seed": args.seed, "fidelity": FIDELITY.to_dict(),
        "environment": {
            "python": sys.version.split()[0], "platform": platform.platform(),
            "cpus": os.cpu_count(), "numpy": np.__version__, "pandas": pd.__version__,
            "scipy": scipy.__version__,
            "load_average_1min": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
        },
        "scaling": scale,
        "per_record_ratio_largest_to_smallest": per_record[-1] / per_record[0],
        "scaling_floor_heavy": floor,
        "lp_single_group": single,
        "lp_whole_table": batch,
        "exact_10k_seconds": exact_seconds,
        "targets": {
            "linear_scaling": "microseconds_per_record roughly flat from 10^4 to 10^6",
            "speedup_vs_lp_single_group_at_least": 100,
            "met_speedup": single["speedup"] >= 100,
        },
    }
    write_atomically(args.output, payload)
    print(f"Wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
