"""Benchmark: the fairness-query audit (issue 7).

What it measures (fixed seeds, synthetic protected attribute, exact answers for the attacks):

* the compressed-sensing attack (Theorem 2, Bernoulli(1/2) design, L1 decoder: basis pursuit
  with s >= 0 as a HiGHS LP) on n = 10,000 individuals with a minority of N_k = 100, at
  m = ceil(c N_k ln(n/N_k)) for c = 1 and c = 1.5, plus the one Example-1 query that reveals
  the group sizes: queries used, time, Leakage, exact recovery;
* in the same run, the plain alternatives: the n + 1 query exact reconstruction
  (``base_difference_reveal``), a dense minimum-norm least-squares decoder and greedy OMP on
  the same m answers (best of 3 runs each; the LP runs once); ratios of queries and times;
* the mechanisms answering 10^5 queries, Attribute-Conceal (Cauchy, Theorem 5) against the
  plain Laplace baseline (Theorem 4) on n = 1,000, N_0 = 104:
  - batched: 10 batches of 10^4 queries at epsilon = 10 per batch;
  - sequential: 10^5 single-query calls at epsilon = 1 each;
  time per query and median absolute error, as ratios Conceal / Laplace (closed-form
  expectations alongside: which mechanism wins depends on the regime, spec §7.7).

Run:  python benchmarks/bench_fairness_queries.py            (about 4 minutes)
      python benchmarks/bench_fairness_queries.py --quick    (smoke run, a few seconds)
Writes benchmarks/results/fairness_queries.json (atomically).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import scipy

from skyprivacy.errors import PrivacyRiskWarning
from skyprivacy.fairness_queries import (AttributeConceal, ComplianceOracle, LaplaceBiasQuery,
                                         base_difference_reveal, bernoulli_design, cs_reveal,
                                         estimate_group_sizes, expected_median_abs_error,
                                         leakage_score, statistical_parity_gap)

RESULT = Path(__file__).resolve().parent / "results" / "fairness_queries.json"


def write_json(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "w") as handle:
        json.dump(data, handle, indent=2)
    os.replace(tmp, path)


def timed(job, repeat: int = 1):
    """Run ``job`` ``repeat`` times; return its result and the best wall-clock time."""
    best, out = math.inf, None
    for _ in range(repeat):
        start = time.perf_counter()
        out = job()
        best = min(best, time.perf_counter() - start)
    return out, best


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def exact_oracle(a):
    return ComplianceOracle(a, mechanism=AttributeConceal(epsilon=math.inf, noise=None))


def bench_cs_attack(n: int, n_k: int, seed: int, lp_method: str) -> dict:
    rng = np.random.default_rng(seed)
    a = np.ones(n, dtype=int)
    a[rng.choice(n, n_k, replace=False)] = 0

    oracle = exact_oracle(a)
    sizes = estimate_group_sizes(oracle)  # 1 query
    assert (sizes.n0, sizes.n1) == (n_k, n - n_k)

    runs = []
    for c in (1.0, 1.5):
        m = math.ceil(c * n_k * math.log(n / n_k))
        H = bernoulli_design(n, n_queries=m, random_state=seed + 1)
        answers = np.asarray(oracle.query(H))
        result, seconds = timed(lambda H=H, answers=answers: cs_reveal(
            H, answers, n0=sizes.n0, n1=sizes.n1, decoder="bp_nonneg", lp_method=lp_method))
        runs.append({"c": c, "m": m, "queries_used": m + sizes.queries_used,
                     "seconds": seconds, "leakage": leakage_score(a, result.a_hat),
                     "recovered_all": result.recovered_all(a)})
        log(f"  CS m={m}: {seconds:.1f} s, Leakage {runs[-1]['leakage']:.1f}%")
    best = runs[-1]

    # competitors on the same answers: dense least squares, OMP
    m = best["m"]
    H = bernoulli_design(n, n_queries=m, random_state=seed + 1)
    answers = statistical_parity_gap(H, a)
    eta = H.sum(axis=1) / sizes.n1 - answers
    (s_ls, _, _, _), ls_seconds = timed(lambda: np.linalg.lstsq(H, eta, rcond=None), 3)
    ls_guess = np.where(s_ls > (1 / sizes.n1 + 1 / sizes.n0) / 2, 0, 1)
    omp, omp_seconds = timed(lambda: cs_reveal(H, answers, n0=sizes.n0, decoder="omp"), 3)

    # competitor: the n + 1 query exact reconstruction
    h0 = np.random.default_rng(seed + 2).uniform(0.0, 0.4, n)
    full, full_seconds = timed(lambda: base_difference_reveal(exact_oracle(a), h0,
                                                              batch_size=500), 3)
    log(f"  n+1 queries: {full_seconds:.1f} s")
    return {
        "n": n, "n_k": n_k, "design": "bernoulli(1/2)", "decoder": "bp_nonneg",
        "lp_method": lp_method, "runs": runs, "l1": best,
        "n_plus_1": {"queries_used": full.queries_used, "seconds": full_seconds,
                     "leakage": leakage_score(a, full.a_hat),
                     "recovered_all": full.recovered_all(a)},
        "least_squares": {"m": m, "seconds": ls_seconds, "leakage": leakage_score(a, ls_guess),
                          "recovered_all": bool(np.array_equal(ls_guess, a))},
        "omp": {"m": m, "seconds": omp_seconds, "leakage": leakage_score(a, omp.a_hat),
                "recovered_all": omp.recovered_all(a)},
        "ratios": {
            "queries_n_plus_1_over_cs": full.queries_used / best["queries_used"],
            "time_cs_over_n_plus_1": best["seconds"] / full_seconds,
            "time_cs_over_least_squares": best["seconds"] / ls_seconds,
            "time_cs_over_omp": best["seconds"] / omp_seconds,
        },
    }


def bench_mechanisms(n: int, n0: int, total: int, batch: int, seed: int) -> dict:
    a = np.ones(n, dtype=int)
    a[:n0] = 0
    preds = np.random.default_rng(seed).uniform(0, 1, (batch, n))
    exact = statistical_parity_gap(preds, a)
    report = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PrivacyRiskWarning)
        for regime, eps, m, calls, rows in (("batched", 10.0, batch, total // batch, preds),
                                            ("sequential", 1.0, 1, total, preds[:1])):
            entry = {"n": n, "n0": n0, "queries": total, "queries_per_call": m,
                     "epsilon_per_call": eps}
            for name, make, kind in (("conceal", AttributeConceal, "cauchy"),
                                     ("laplace", LaplaceBiasQuery, "laplace")):
                mech = make(epsilon=eps, random_state=seed)
                mech.answer(rows, a)  # warm-up
                errors = []

                def job(mech=mech, errors=errors, rows=rows, m=m, calls=calls):
                    for _ in range(calls):
                        errors.append(np.asarray(mech.answer(rows, a).values) - exact[:m])
                _, seconds = timed(job)
                err = np.abs(np.concatenate(errors))
                entry[name] = {"seconds": seconds, "per_query_us": 1e6 * seconds / total,
                               "median_abs_error": float(np.median(err)),
                               "expected_median_abs_error":
                                   expected_median_abs_error(n, n0, mechanism=kind, n_queries=m,
                                                             epsilon=eps)}
            entry["ratios"] = {
                "time_per_query_conceal_over_laplace":
                    entry["conceal"]["seconds"] / entry["laplace"]["seconds"],
                "median_error_conceal_over_laplace":
                    entry["conceal"]["median_abs_error"] / entry["laplace"]["median_abs_error"],
            }
            ratios = entry["ratios"]
            log(f"  {regime}: time ratio {ratios['time_per_query_conceal_over_laplace']:.2f}"
                f", error ratio {ratios['median_error_conceal_over_laplace']:.3g}")
            report[regime] = entry
    return report


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, a few seconds")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lp-method", default="highs-ipm",
                        help="scipy.optimize.linprog method (default highs-ipm)")
    parser.add_argument("--output", type=Path, default=RESULT)
    args = parser.parse_args(argv)
    if args.quick:
        n, n_k, total, batch = 1_000, 10, 10_000, 2_000
    else:
        n, n_k, total, batch = 10_000, 100, 100_000, 10_000

    log(f"compressed-sensing attack, n={n}, N_k={n_k}")
    cs = bench_cs_attack(n, n_k, args.seed, args.lp_method)
    log(f"mechanisms, {total} queries")
    mechanisms = bench_mechanisms(1000, 104, total, batch, args.seed)
    report = {
        "schema_version": 1, "benchmark": "fairness_queries", "quick": args.quick,
        "seed": args.seed,
        "environment": {"python": platform.python_version(), "numpy": np.__version__,
                        "scipy": scipy.__version__, "machine": platform.machine()},
        "cs_attack": cs, "mechanisms": mechanisms,
    }
    write_json(args.output, report)
    print(json.dumps({"cs_attack": {"queries": cs["l1"]["queries_used"],
                                    "seconds": round(cs["l1"]["seconds"], 2),
                                    **{k: round(v, 3) for k, v in cs["ratios"].items()}},
                      "mechanisms": {k: {r: round(x, 3) for r, x in v["ratios"].items()}
                                     for k, v in mechanisms.items()}}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
