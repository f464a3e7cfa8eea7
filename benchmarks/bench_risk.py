"""Benchmark: re-identification risk (issue "Re-identification risk").

a. Every count-based identity measure of a table (``skyprivacy.risk.identity_risk``: prosecutor
   max/average/records above 0.2/top-10 classes, marketer, sample uniqueness, class-size
   histogram) on 1M rows against a bare pandas ``groupby(qi, sort=False, dropna=False,
   observed=True).size()`` of the same QIs, in the same process.  Both clocks start with the
   frame in memory and stop with the result in hand.  The table is UCI Adult resampled to 1M
   rows with 7 QIs, six of them text columns (as publishers' tables are), and the same with
   integer-coded columns.  Target: ratio <= 2.
b. The population estimators (Pitman, Zayatz, SNB and Dankar's rule) on a sample with 10^5
   distinct classes (a 20% sample of a 10^6-person heavy-tailed population).
   Target: each under 1 s.

Run:  python benchmarks/bench_risk.py [--repeat N]
Writes benchmarks/results/risk.json (atomically).
"""

from __future__ import annotations

import argparse
import gc
import platform
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import write_json  # noqa: E402

from skyprivacy.datasets import load_adult  # noqa: E402
from skyprivacy.risk import (  # noqa: E402
    ClassSizes,
    identity_risk,
    pitman_uniques,
    population_uniques_from_sizes,
    snb_uniques,
    zayatz_uniques,
)

RESULT = Path(__file__).resolve().parent / "results" / "risk.json"
QI = ["age", "workclass", "education", "marital-status", "race", "sex", "native-country"]


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def measure_counts(table: pd.DataFrame, repeat: int) -> dict:
    ours = best(lambda: identity_risk(table, qi=QI, threshold=0.2), repeat)
    bare = best(lambda: table.groupby(QI, sort=False, dropna=False, observed=True).size(),
                repeat)
    return {"rows": len(table), "ours_s": round(ours, 4), "groupby_size_s": round(bare, 4),
            "ratio": round(ours / bare, 3)}


def measure_estimators(repeat: int) -> dict:
    rng = np.random.default_rng(7)
    population = np.floor(rng.lognormal(10, 2.5, 1_000_000)).astype(np.int64)
    sample = rng.choice(population, 200_000, replace=False)
    sizes = np.unique(sample, return_counts=True)[1]
    hist = ClassSizes(*map(tuple, np.unique(sizes, return_counts=True)))
    out = {"distinct_classes": hist.n_classes, "sample": hist.n_records,
           "population": 1_000_000}
    for name, fn in [("pitman", pitman_uniques), ("zayatz", zayatz_uniques),
                     ("snb", snb_uniques)]:
        out[f"{name}_s"] = round(best(lambda fn=fn: fn(hist, 1_000_000), repeat), 4)
    out["dankar_s"] = round(best(lambda: population_uniques_from_sizes(hist, 1_000_000),
                                 repeat), 4)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    adult = load_adult()
    rng = np.random.default_rng(0)
    text = adult.iloc[rng.integers(0, len(adult), 1_000_000)][QI].reset_index(drop=True)
    coded = text.apply(lambda column: pd.factorize(column)[0])
    results = {"machine": platform.platform(), "python": platform.python_version(),
               "a_text": measure_counts(text, args.repeat),
               "a_codes": measure_counts(coded, args.repeat),
               "b": measure_estimators(args.repeat)}
    results["targets"] = {
        "a_text_ratio_le_2": results["a_text"]["ratio"] <= 2,
        "a_codes_ratio_le_2": results["a_codes"]["ratio"] <= 2,
        "b_each_under_1s": all(results["b"][f"{m}_s"] < 1
                               for m in ("pitman", "zayatz", "snb", "dankar")),
    }
    for key, value in results.items():
        print(key, value, flush=True)
    write_json(RESULT, results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
