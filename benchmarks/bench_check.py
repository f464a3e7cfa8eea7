"""Benchmark: SkylineCheck against the dynamic program of Appendix A.3 (Sect. 8.1, Fig. 6).

The paper's Fig. 6 reports the "improvement ratio" of SkylineCheck (Theorem 2, the
congregation property) over the dynamic program that distributes the k and m individuals
across groups without it: about 140x at (l, k, m) = (10, 10, 10) on 1M-5M records (Fig. 6a),
falling with l (6b), rising with k to about 1,000x at k = 32 (6c) and with m (6d).  Release
candidates are generated as in Sect. 8.1: 20 uniformly distributed sensitive values, QI-groups
of 100 individuals, svpi, c = 0.9.

Two competitors, both computing the breach probability of every value at the point:

* the compiled DP, ``benchmarks/competitors/dp_compiled.py``: the recurrence compiled by numba,
  its per-group T and V terms from :mod:`skyprivacy.formulas` (numpy, once per distinct group
  shape); the clock includes the term preparation, not numba's one-time compilation (done
  before anything is timed and reported as ``compile_s``);
* the interpreted DP, :func:`skyprivacy.baselines.dp_breach_probability`: the readable
  reference, numpy over the (k + 1) x (m + 1) table with a Python loop per group and shift.

For every point, in the same run and on the same rows, two framings:

* fed the group counts (``*_alone``): a ReleaseCandidate is built from the rows off the clock
  (a fresh one for every repetition, so nothing cached by an earlier run is reused), then only
  ``skyline_check`` (``check_alone_s``) or the compiled DP (``compiled_dp_alone_s``) is timed;
* from the rows (``*_with_scan``): ``ReleaseCandidate.from_table`` + the check
  (``check_with_scan_s``) or + the compiled DP (``compiled_dp_with_scan_s``);

plus a bare pandas ``groupby([group, value]).size()`` of the same rows (``groupby_s``, the
floor of any check from rows) and the interpreted DP fed the group counts
(``interpreted_dp_alone_s``, one run, every value).  Fast clocks are the best of --repeat.
Ratios: ``compiled_dp_alone_s / check_alone_s``, ``compiled_dp_with_scan_s /
check_with_scan_s`` and ``interpreted_dp_alone_s / compiled_dp_alone_s``.  Every point also
records whether the two programs, Theorem 2 (``breach_probability``) and the check's verdict
agree, and the largest relative difference between the breach probabilities.

Sizes: by default one tenth of the paper's (1e5..5e5 records for Fig. 6a, 1e5 for 6b-d) so the
interpreted DP finishes in about half an hour; --paper-sizes uses 1M-5M (hours).

Run:  python benchmarks/bench_check.py [--quick] [--repeat N] [--paper-sizes] [--only abcd]
      [--no-interpreted]
Writes benchmarks/results/check.json (atomically, after every point, ``complete`` false until
the last point of the run is in).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import sys
import time
from pathlib import Path

import numba
import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "competitors"))
from _common import write_json  # noqa: E402
from dp_compiled import compiled_dp_breach_probability, warm_up  # noqa: E402

from skyprivacy import Policy, ReleaseCandidate, breach_probability, skyline_check  # noqa: E402
from skyprivacy.baselines import dp_breach_probability  # noqa: E402

RESULT = HERE / "results" / "check.json"
SCHEMA = 2
C = 0.9
PAPER = {"a": "about 140x at (10, 10, 10), 1M-5M records",
         "b": "falls as l grows to 16", "c": "rises with k; about 1,000x at k = 32",
         "d": "rises with m to 16"}
CLOCKS = {
    "check_alone_s": "skyline_check on a ReleaseCandidate built off the clock (fresh per "
                     "repetition); best of repeat",
    "check_with_scan_s": "ReleaseCandidate.from_table + skyline_check; best of repeat",
    "groupby_s": "pandas groupby([group, value]).size() of the same rows; best of repeat",
    "compiled_dp_alone_s": "compiled DP for every value on a ReleaseCandidate built off the "
                           "clock (fresh per repetition), including the numpy preparation of "
                           "its T and V terms, excluding numba's one-time compilation; best "
                           "of repeat",
    "compiled_dp_with_scan_s": "ReleaseCandidate.from_table + the compiled DP for every value; "
                               "best of repeat",
    "interpreted_dp_alone_s": "skyprivacy.baselines.dp_breach_probability for every value on a "
                              "ReleaseCandidate built off the clock; one run",
}
COMPETITORS = {
    "compiled_dp": "benchmarks/competitors/dp_compiled.py: the Appendix A.3 recurrence compiled "
                   "by numba; T and V terms from skyprivacy.formulas (numpy), once per distinct "
                   "group shape",
    "interpreted_dp": "skyprivacy.baselines.dp_breach_probability: the readable reference, "
                      "numpy over the (k+1) x (m+1) table, a Python loop per group and shift",
}


def section_8_1_rows(n_rows: int, seed: int = 0) -> pd.DataFrame:
    """Sect. 8.1: QI-groups of 100 individuals, 20 uniformly distributed sensitive values."""
    rng = np.random.default_rng(seed)
    names = np.array([f"v{i:02d}" for i in range(20)], dtype=object)
    return pd.DataFrame({"group": np.repeat(np.arange(n_rows // 100), 100),
                         "value": names[rng.integers(0, 20, n_rows)]})


def scan(df: pd.DataFrame) -> ReleaseCandidate:
    return ReleaseCandidate.from_table(df, group="group", sensitive="value")


def best(fn, repeat: int, setup=None):
    """Least time of ``fn(setup())`` over ``repeat`` runs (``setup`` off the clock)."""
    times, out = [], None
    for _ in range(repeat):
        arg = setup() if setup is not None else None
        gc.collect()
        start = time.perf_counter()
        out = fn(arg)
        times.append(time.perf_counter() - start)
    return min(times), out


def all_values(program, release: ReleaseCandidate, l: int, k: int, m: int) -> dict:
    return {v: program(release, v, l=l, k=k, m=m) for v in release.values}


def relative_gap(a: dict, b: dict) -> float:
    return max((abs(a[v] - b[v]) / max(abs(b[v]), 1e-300) for v in b), default=0.0)


def measure(df: pd.DataFrame, point: tuple, repeat: int, interpreted: bool) -> dict:
    l, k, m = point
    policy = Policy.uniform([(l, k, m, C)])

    t_check, result = best(lambda r: skyline_check(r, policy), repeat, setup=lambda: scan(df))
    t_check_scan, _ = best(lambda _: skyline_check(scan(df), policy), repeat)
    t_groupby, _ = best(lambda _: df.groupby(["group", "value"]).size(), repeat)
    t_dp, compiled = best(lambda r: all_values(compiled_dp_breach_probability, r, l, k, m),
                          repeat, setup=lambda: scan(df))
    t_dp_scan, _ = best(lambda _: all_values(compiled_dp_breach_probability, scan(df), l, k, m),
                        repeat)
    release = scan(df)
    theorem_2 = all_values(breach_probability, release, l, k, m)
    safe = bool(result.safe)
    out = {"records": len(df), "groups": release.n_groups, "l": l, "k": k, "m": m,
           "check_alone_s": t_check, "check_with_scan_s": t_check_scan, "groupby_s": t_groupby,
           "compiled_dp_alone_s": t_dp, "compiled_dp_with_scan_s": t_dp_scan,
           "compiled_over_check_alone": t_dp / t_check,
           "compiled_over_check_with_scan": t_dp_scan / t_check_scan,
           "check_with_scan_over_groupby": t_check_scan / t_groupby,
           "safe": safe,
           "compiled_vs_theorem_2_max_rel_diff": relative_gap(compiled, theorem_2),
           "compiled_verdict_agrees": all(bp < C for bp in compiled.values()) == safe}
    if interpreted:
        t_interp, reference = best(lambda r: all_values(dp_breach_probability, r, l, k, m), 1,
                                   setup=lambda: scan(df))
        out.update(interpreted_dp_alone_s=t_interp,
                   interpreted_over_compiled=t_interp / t_dp,
                   compiled_vs_interpreted_max_rel_diff=relative_gap(compiled, reference),
                   interpreted_verdict_agrees=all(bp < C for bp in reference.values()) == safe)
    return out


def line(panel: str, p: dict) -> str:
    """One printed line per point: both framings, both DPs, the ratios."""
    ms = 1000.0
    text = (f"6{panel} ({p['l']:2d},{p['k']:2d},{p['m']:2d}) {p['records']:>9,} rec | "
            f"check {p['check_alone_s'] * ms:6.2f} ms, +scan {p['check_with_scan_s'] * ms:6.1f} ms"
            f" | compiled DP {p['compiled_dp_alone_s']:6.3f} s, +scan "
            f"{p['compiled_dp_with_scan_s']:6.3f} s | compiled/check "
            f"{p['compiled_over_check_alone']:6.0f}x alone, "
            f"{p['compiled_over_check_with_scan']:5.1f}x with scan")
    if "interpreted_dp_alone_s" in p:
        text += (f" | interpreted DP {p['interpreted_dp_alone_s']:6.1f} s, "
                 f"interpreted/compiled {p['interpreted_over_compiled']:5.0f}x")
    agree = p["compiled_verdict_agrees"] and p.get("interpreted_verdict_agrees", True)
    return text + (" | agree" if agree else " | DISAGREE")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="1e4 records, no interpreted DP, no JSON")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--paper-sizes", action="store_true",
                        help="Fig. 6a at 1M-5M records and 6b-d at 1M (slow: hours of DP)")
    parser.add_argument("--only", default="abcd", help="which panels of Fig. 6 to run")
    parser.add_argument("--no-interpreted", action="store_true",
                        help="skip the interpreted DP (the slow part)")
    args = parser.parse_args(argv)
    interpreted = not (args.quick or args.no_interpreted)
    unit = 1_000_000 if args.paper_sizes else (10_000 if args.quick else 100_000)
    start = time.perf_counter()
    warm_up()
    compile_s = time.perf_counter() - start
    fixed = section_8_1_rows(unit)
    results: dict = {
        "schema": SCHEMA, "complete": False,
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                    "platform": platform.platform(), "numpy": np.__version__,
                    "pandas": pd.__version__, "numba": numba.__version__},
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
        "setup": {"values": 20, "group_size": 100, "c": C, "semantics": "svpi",
                  "fixed_records": unit, "repeat": args.repeat,
                  "interpreted_dp": "every value at every point" if interpreted else "not run"},
        "clocks": CLOCKS, "competitors": COMPETITORS, "compile_s": compile_s, "paper": PAPER}
    if not args.quick and set(args.only) != set("abcd") and RESULT.exists():
        earlier = json.loads(RESULT.read_text())
        if earlier.get("schema") == SCHEMA:  # keep the other panels of an earlier run
            results = {**earlier, **{key: value for key, value in results.items()
                                     if key != "complete"}}
    panels = {
        "a": [((10, 10, 10), section_8_1_rows(r * unit)) for r in (1, 2, 3, 4, 5)],
        "b": [((l, 10, 10), fixed) for l in (0, 2, 4, 6, 8, 10, 12, 14, 16)],
        "c": [((10, k, 10), fixed) for k in (0, 4, 8, 12, 16, 20, 24, 28, 32)],
        "d": [((10, 10, m), fixed) for m in (0, 2, 4, 6, 8, 10, 12, 14, 16)],
    }
    print(f"numba compilation (or cache load): {compile_s:.2f} s, not in any clock", flush=True)
    for panel in args.only:
        points: list = []
        results[f"fig6{panel}"] = points
        for point, df in panels[panel]:
            points.append(measure(df, point, args.repeat, interpreted))
            print(line(panel, points[-1]), flush=True)
            if not args.quick:
                write_json(RESULT, results)
    results["complete"] = True
    if not args.quick:
        write_json(RESULT, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
