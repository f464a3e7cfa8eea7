"""Benchmark: the CS attack's basis-pursuit LP, the dense interior point against HiGHS.

The LP is the decoder of Algorithm 2 (Hamman, Chen and Dutta, Theorem 2):
``min ||s||_1 s.t. H s = eta`` with a dense m x n query matrix H (Algorithm 2's perturbation
design on Uniform(0, 1) scores), the answers given by Attribute-Conceal (Cauchy, Theorem 5) at
epsilon = 100 or exactly.  These are the LPs of the bias-query Table 3 re-run
(``examples/fairness_query_reproduce.py``).

Competitors, in the same run on the same H and answers, through the same call
(``cs_reveal(H, answers, n0=N_0, lp_method=...)``):

* ``highs``: scipy's HiGHS at its default (``method="highs"``, which picks the dual simplex
  here), compiled C++;
* ``highs-ipm``: HiGHS's interior point (IPX), compiled C++;
* ``dense-ipm``: the package's primal-dual interior point on the m x m normal equations
  (numpy and scipy's LAPACK/BLAS, ``skyprivacy/fairness_queries/_interior_point.py``).

Every clock is the ``cs_reveal`` call: building the LP (HiGHS gets ``[H, -H]`` as one dense
matrix; the interior point never forms it), solving it, thresholding ``s``.  H and the answers
are made before the clock starts.  Both CPU time (all threads of this process) and wall time
are recorded, with the 1-minute load average before and after each call; BLAS runs on
``--threads`` threads (default 1: HiGHS is serial here, so the ratio compares one core with
one core).  On the largest cell HiGHS gets a time limit (``--limit``); a run that hits it is
recorded as a lower bound.  Every pair must decode the same labels; the L1 objectives are
recorded.

Run:  python benchmarks/bench_cs_lp.py [--quick] [--threads N] [--limit S]
Writes benchmarks/results/cs_lp.json.
"""

from __future__ import annotations

import argparse
import os
import sys

if __name__ == "__main__":  # BLAS reads its thread count once, when numpy is imported
    _threads = "1"
    for i, arg in enumerate(sys.argv):
        if arg == "--threads" and i + 1 < len(sys.argv):
            _threads = sys.argv[i + 1]
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = _threads

import math  # noqa: E402
import platform  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import scipy  # noqa: E402

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import write_json  # noqa: E402

from skyprivacy.errors import PrivacyRiskWarning  # noqa: E402
from skyprivacy.fairness_queries import (AttributeConceal, cs_reveal,  # noqa: E402
                                         leakage_score, statistical_parity_gap,
                                         uniform_perturbation_design)

RESULTS = HERE / "results" / "cs_lp.json"

#: (n, N_0, m, epsilon; inf = exact answers), the competitors, and whether HiGHS is limited.
CELLS = [
    (1000, 100, 400, 100.0, ("highs", "highs-ipm", "dense-ipm")),
    (10000, 100, 1000, 100.0, ("highs", "highs-ipm", "dense-ipm")),
    (10000, 100, 1000, math.inf, ("highs", "highs-ipm", "dense-ipm")),
    (10000, 1000, 3000, 100.0, ("highs-ipm", "dense-ipm")),
]
QUICK_CELLS = [(1000, 100, 400, 100.0, ("highs", "highs-ipm", "dense-ipm"))]


def problem(n, n0, m, epsilon, seed=0):
    """The attack's LP inputs: H, the answers, the true attribute vector."""
    rng = np.random.default_rng([seed, n, n0, m])
    a = np.ones(n, dtype=int)
    a[rng.choice(n, n0, replace=False)] = 0
    H = uniform_perturbation_design(rng.uniform(0, 1, n), n_queries=m, random_state=rng)
    if math.isinf(epsilon):
        return H, statistical_parity_gap(H, a), a
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PrivacyRiskWarning)
        mechanism = AttributeConceal(epsilon=epsilon, random_state=rng)
    return H, np.asarray(mechanism.answer(H, a).values), a


def timed(H, answers, n0, method, limit):
    """One ``cs_reveal`` call under both clocks; HiGHS's time limit only where asked."""
    cpu, wall = time.process_time(), time.perf_counter()
    if limit is not None and method.startswith("highs"):
        # cs_reveal passes no solver options: the same LP, built as cs_reveal builds it.
        from scipy.optimize import linprog
        n = H.shape[1]
        eta = H.sum(axis=1) / (n - n0) - answers
        res = linprog(np.ones(2 * n), A_eq=np.hstack([H, -H]), b_eq=eta, bounds=(0, None),
                      method=method, options={"time_limit": float(limit)})
        out = {"cpu_s": time.process_time() - cpu, "wall_s": time.perf_counter() - wall,
               "finished": res.status == 0, "status": int(res.status)}
        if res.status == 0:
            s = res.x[:n] - res.x[n:]
            cut = (1.0 / (n - n0) + 1.0 / n0) / 2.0
            out.update(labels=np.where(s > cut, 0, 1), l1=float(np.abs(s).sum()))
        return out
    result = cs_reveal(H, answers, n0=n0, lp_method=method)
    return {"cpu_s": time.process_time() - cpu, "wall_s": time.perf_counter() - wall,
            "finished": True, "status": 0, "labels": result.a_hat,
            "l1": float(np.abs(result.decoded).sum())}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the smallest cell only")
    parser.add_argument("--threads", type=int, default=1, help="BLAS threads (default 1)")
    parser.add_argument("--limit", type=float, default=900.0,
                        help="HiGHS's time limit on the largest cell, seconds (default 900)")
    parser.add_argument("--output", type=Path, default=None,
                        help=f"default {RESULTS.relative_to(HERE.parent)} (not on --quick)")
    args = parser.parse_args(argv)
    out_path = args.output or (None if args.quick else RESULTS)
    report = {"schema_version": 1, "script": "benchmarks/bench_cs_lp.py", "quick": args.quick,
              "blas_threads": args.threads, "highs_time_limit_s": args.limit,
              "python": platform.python_version(), "numpy": np.__version__,
              "scipy": scipy.__version__, "machine": platform.machine(),
              "cpus": os.cpu_count(), "cells": []}
    for n, n0, m, epsilon, methods in (QUICK_CELLS if args.quick else CELLS):
        H, answers, a = problem(n, n0, m, epsilon)
        largest = (n, n0, m) == (10000, 1000, 3000)
        cell = {"n": n, "N0": n0, "m": m, "epsilon": epsilon, "runs": {}}
        ours_labels = None
        for method in sorted(methods, key=lambda name: name != "dense-ipm"):  # ours first
            load_before = os.getloadavg()[0]
            run = timed(H, answers, n0, method, args.limit if largest else None)
            run["load_average_before_after"] = [load_before, os.getloadavg()[0]]
            labels = run.pop("labels", None)
            run["leakage"] = None if labels is None else leakage_score(a, labels)
            if method == "dense-ipm":
                ours_labels, ours = labels, run
            else:
                run["same_labels_as_dense_ipm"] = (None if labels is None
                                                   else bool((labels == ours_labels).all()))
                run["cpu_ratio_to_dense_ipm"] = run["cpu_s"] / ours["cpu_s"]
                run["wall_ratio_to_dense_ipm"] = run["wall_s"] / ours["wall_s"]
                run["ratio_is_lower_bound"] = not run["finished"]
            cell["runs"][method] = run
            print(f"n={n} N0={n0} m={m} eps={epsilon:g} {method}: cpu {run['cpu_s']:.1f} s, "
                  f"wall {run['wall_s']:.1f} s, finished {run['finished']}"
                  + ("" if method == "dense-ipm" else
                     f", {'at least ' if not run['finished'] else ''}"
                     f"{run['cpu_ratio_to_dense_ipm']:.1f}x dense-ipm's CPU"), flush=True)
        report["cells"].append(cell)
        if out_path:
            write_json(out_path, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
