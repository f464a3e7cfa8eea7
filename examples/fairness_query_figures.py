"""Re-run Figs. 1-3 and Table 2 of Hamman, Chen and Dutta; write their numbers and PNGs.

    python examples/fairness_query_figures.py            # writes benchmarks/results/
                                                         # fairness_figures.json and
                                                         # docs/figures/fairness_fig{1,2,3}.png
    python examples/fairness_query_figures.py --quick    # smoke run, writes nothing unless
                                                         # --json / --figures are given

What each part re-runs (spec fairness-queries §8.1, §8.3):

* Fig. 1: Adult, n = 100: Leakage against the number of queries m, noiseless (epsilon = inf)
  and under Attribute-Conceal at epsilon = 100, with the answer error at m = 40.
* Fig. 2: synthetic (Algorithm 2 on Uniform(0, 1) scores), n = 100: answer error against
  Leakage, one point per epsilon in [10, 500], for several N_0 with m = ceil(c N_0 ln(n/N_0)).
* Fig. 3: n = 1,000, N_1 = 990, N_0 = 10, m = 60 random binary predictors, epsilon = 100: the
  original s vector, its noiseless and noisy reconstructions, and the answered SP queries.
* Table 2: synthetic, epsilon = 100, n = 1,000, N_0 in {10, ..., 400}, m in {500, 900}.

Parts not in the default run (``--parts fig1_n1000,fig2_n1000``):

* ``fig1_n1000``: Fig. 1 on Adult test sets of n = 1,000 (N_0 about 95), m in {200, 300, 400},
  two test sets per point;
* ``fig2_n1000``: Fig. 2 at n = 1,000, (N_0, m) in {(10, 100), (100, 350)}, epsilon in
  {10, 100, 500}, one run per point;
* ``fig2_n10000``: Fig. 2's n = 10,000 panel, (N_0, m) in {(10, 140), (100, 900)} (m about
  1.5-2 N_0 ln(n/N_0)), epsilon in {10, 100, 500}, one run per point;
* ``table2_n10000``: Table 2's n = 10,000 half (m = 1,000, N_0 in {50, ..., 5,000}): one
  1,000 x 10,000 LP per cell, several minutes each on a shared 2-core machine.

A run with ``--parts`` keeps the other parts of the existing JSON (same seed).

The JSON is rewritten after each part (``parts_done``), so an interrupted run keeps what it
finished.  Figures need matplotlib (``pip install 'skyprivacy[plot]'``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import numpy as np

from skyprivacy.fairness_queries import bernoulli_design, cs_reveal, leakage_score

from fairness_query_experiments import (_mechanism, adult_race_task, run_trial)
from fairness_query_reproduce import write_json

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_JSON = os.path.join(ROOT, "benchmarks", "results", "fairness_figures.json")
DEFAULT_FIGURES = os.path.join(ROOT, "docs", "figures")

#: The paper's Table 2 (synthetic, epsilon = 100): (n, N_0, m) -> (Avg. SP err x1e-3, Leakage %).
PAPER_TABLE2 = {
    (1000, 10, 500): (128.8, 65), (1000, 10, 900): (191.4, 64),
    (1000, 50, 500): (90.8, 67), (1000, 50, 900): (156.3, 61),
    (1000, 100, 500): (87.4, 62), (1000, 100, 900): (102.9, 55),
    (1000, 200, 500): (51.9, 62), (1000, 200, 900): (96.7, 47),
    (1000, 300, 500): (38.9, 48), (1000, 300, 900): (59.9, 47),
    (1000, 400, 500): (41.6, 47), (1000, 400, 900): (54.5, 45),
    (10000, 50, 1000): (96.9, 64), (10000, 100, 1000): (76.9, 61),
    (10000, 500, 1000): (38.3, 59), (10000, 1000, 1000): (26.9, 59),
    (10000, 3000, 1000): (12.8, 55), (10000, 5000, 1000): (9.9, 48),
}


def synthetic_data(n: int, n0: int, seed) -> tuple[np.ndarray, np.ndarray]:
    """A protected attribute with N_0 zeros and Uniform(0, 1) base scores, from one seed."""
    rng = np.random.default_rng(seed)
    a = np.ones(n, dtype=int)
    a[rng.choice(n, n0, replace=False)] = 0
    return a, rng.uniform(0, 1, n)


def fig1(task, *, ms, runs, epsilon, seed, n=100) -> dict:
    """Leakage against m on Adult test sets of n (noiseless and Attribute-Conceal).

    The n = 100 draws keep their original seeds; other n add n to them.
    """
    points = []
    for m in ms:
        for mech, eps in (("none", math.inf), ("attribute_conceal", epsilon)):
            trials = []
            for run in range(runs):
                key = [seed, 100, run] if n == 100 else [seed, 100, n, run]
                pick = np.random.default_rng(key).choice(task.a.size, n, replace=False)
                trials.append(run_trial(task.scores[pick], task.a[pick], n_queries=m,
                                        mechanism=mech, epsilon=eps, y=task.y[pick],
                                        random_state=np.random.default_rng(
                                            [seed, 1, m, run] if n == 100
                                            else [seed, 1, n, m, run])))
            points.append({"m": m, "mechanism": mech, "epsilon": eps,
                           "leakage": float(np.mean([t.leakage for t in trials])),
                           "exact_runs": int(sum(t.exact for t in trials)),
                           "mean_abs_error": float(np.mean([t.mean_abs_error for t in trials])),
                           "median_abs_error": float(np.median([t.median_abs_error
                                                                for t in trials])),
                           "model_accuracy": float(np.mean([t.model_accuracy
                                                            for t in trials])),
                           "runs": [t.to_dict() for t in trials]})
    return {"n": n, "runs": runs, "epsilon": epsilon, "points": points}


def fig2(*, n, settings, epsilons, runs, seed) -> dict:
    """Answer error and Leakage of Attribute-Conceal, one point per (N_0, m, epsilon)."""
    points = []
    for n0, m in settings:
        for eps in epsilons:
            trials = []
            for run in range(runs):
                a, h0 = synthetic_data(n, n0, [seed, 2, n, n0, run])
                trials.append(run_trial(h0, a, n_queries=m, mechanism="attribute_conceal",
                                        epsilon=eps,
                                        random_state=np.random.default_rng([seed, 2, m, run])))
            points.append({"n": n, "N0": n0, "m": m, "epsilon": eps,
                           "leakage": float(np.mean([t.leakage for t in trials])),
                           "mean_abs_error": float(np.mean([t.mean_abs_error for t in trials])),
                           "median_abs_error": float(np.median([t.median_abs_error
                                                                for t in trials]))})
    return {"n": n, "runs": runs, "points": points}


def fig3(*, n=1000, n0=10, m=60, epsilon=100.0, seed) -> dict:
    """One seeded run of the Bernoulli design: s original / noiseless / noisy, SP answered."""
    a, _ = synthetic_data(n, n0, [seed, 3])
    H = bernoulli_design(n, n_queries=m, random_state=np.random.default_rng([seed, 3, m]))
    exact = _mechanism("none", math.inf, None).answer(H, a)
    noisy = _mechanism("attribute_conceal", epsilon,
                       np.random.default_rng([seed, 3, m, 1])).answer(H, a)
    s_true = np.where(a == 0, 1.0 / (n - n0) + 1.0 / n0, 0.0)
    clean = cs_reveal(H, exact.values, n0=n0, n1=n - n0)
    blurred = cs_reveal(H, noisy.values, n0=n0, n1=n - n0)
    err = np.abs(np.asarray(noisy.values) - np.asarray(exact.values))
    return {"n": n, "N0": n0, "m": m, "epsilon": epsilon,
            "s_true": s_true.tolist(), "s_noiseless": np.asarray(clean.decoded).tolist(),
            "s_noisy": np.asarray(blurred.decoded).tolist(),
            "sp_true": np.asarray(exact.values).tolist(),
            "sp_answered": np.asarray(noisy.values).tolist(),
            "leakage_noiseless": leakage_score(a, clean.a_hat),
            "leakage_noisy": leakage_score(a, blurred.a_hat),
            "mean_abs_error": float(err.mean()), "median_abs_error": float(np.median(err)),
            "cauchy_scale": noisy.audit.slices[0].scale}


def table2(cells, *, runs, epsilon, seed) -> dict:
    """Attribute-Conceal on synthetic data at one epsilon: error and Leakage per (n, N_0, m)."""
    rows = []
    for n, n0, m in cells:
        trials = []
        for run in range(runs):
            a, h0 = synthetic_data(n, n0, [seed, 4, n, n0, run])
            trials.append(run_trial(h0, a, n_queries=m, mechanism="attribute_conceal",
                                    epsilon=epsilon,
                                    random_state=np.random.default_rng([seed, 4, n, m, run])))
        paper = PAPER_TABLE2.get((n, n0, m), (None, None))
        rows.append({"n": n, "N0": n0, "m": m, "epsilon": epsilon,
                     "paper_err": paper[0], "paper_leak": paper[1],
                     "leakage": float(np.mean([t.leakage for t in trials])),
                     "mean_abs_error": float(np.mean([t.mean_abs_error for t in trials])),
                     "median_abs_error": float(np.median([t.median_abs_error for t in trials])),
                     "runs": [t.to_dict() for t in trials]})
    return {"runs": runs, "epsilon": epsilon, "rows": rows}


def draw(report: dict, folder: str) -> list[str]:
    """The PNGs of the parts in the report; returns the files written."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    for key in ("fig1", "fig1_n1000"):
        if key not in report:
            continue
        f1 = report[key]
        fig, ax = plt.subplots(figsize=(5, 3.5))
        for mech, label in (("none", "noiseless (epsilon = inf)"),
                            ("attribute_conceal", f"Attribute-Conceal (epsilon = "
                                                  f"{f1['epsilon']:g})")):
            pts = [p for p in f1["points"] if p["mechanism"] == mech]
            ax.plot([p["m"] for p in pts], [p["leakage"] for p in pts], marker="o", label=label)
        ax.axhline(50, color="grey", lw=0.8, ls="--")
        ax.set(xlabel="number of queries m", ylabel="Leakage (%)",
               title=f"Fig. 1 re-run: Adult, n = {f1['n']:,}, {f1['runs']} test sets")
        ax.legend()
        written.append(_save(fig, folder, FIGURE_FILES[key]))
    for key in ("fig2", "fig2_n1000", "fig2_n10000"):
        if key not in report:
            continue
        f2 = report[key]
        fig, ax = plt.subplots(figsize=(5, 3.5))
        for n0, m in sorted({(p["N0"], p["m"]) for p in f2["points"]}):
            pts = [p for p in f2["points"] if (p["N0"], p["m"]) == (n0, m)]
            ax.plot([p["median_abs_error"] for p in pts], [p["leakage"] for p in pts],
                    marker="o", label=f"N_0 = {n0}, m = {m}")
        ax.set_xscale("log")
        ax.set(xlabel="median |answer error| (one point per epsilon)", ylabel="Leakage (%)",
               title=f"Fig. 2 re-run: synthetic, n = {f2['n']:,}")
        ax.legend()
        written.append(_save(fig, folder, FIGURE_FILES[key]))
    if "fig3" in report:
        f3 = report["fig3"]
        fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5))
        left.plot(f3["s_noisy"], lw=0.6, label="reconstructed, noisy")
        left.plot(f3["s_noiseless"], lw=0.8, label="reconstructed, noiseless")
        left.plot(f3["s_true"], lw=0.8, ls="--", label="original")
        left.set(xlabel="individual", ylabel="s", title="Fig. 3 (left) re-run")
        left.legend(fontsize=7)
        right.plot(f3["sp_answered"], marker=".", lw=0.6, label="answered (Attribute-Conceal)")
        right.plot(f3["sp_true"], marker=".", lw=0.6, label="original")
        right.set(xlabel="query", ylabel="SP",
                  title=f"Fig. 3 (right): epsilon = {f3['epsilon']:g}")
        right.legend(fontsize=7)
        written.append(_save(fig, folder, "fairness_fig3.png"))
    return written


FIGURE_FILES = {"fig1": "fairness_fig1.png", "fig1_n1000": "fairness_fig1_n1000.png",
                "fig2": "fairness_fig2.png", "fig2_n1000": "fairness_fig2_n1000.png",
                "fig2_n10000": "fairness_fig2_n10000.png"}


def _save(fig, folder: str, name: str) -> str:
    path = os.path.join(folder, name)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    fig.clf()
    return path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small subset, one run each")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="default: benchmarks/results/fairness_figures.json on "
                        "a full run, nothing on a quick one")
    parser.add_argument("--figures", help="folder for the PNGs (default: docs/figures on a "
                        "full run, none on a quick one)")
    parser.add_argument("--parts", default="fig3,fig1,fig2,table2",
                        help="comma-separated parts to run, in this order (also: fig1_n1000, "
                        "fig2_n1000, fig2_n10000, table2_n10000); the JSON keeps the parts "
                        "not re-run")
    args = parser.parse_args(argv)
    quick = args.quick
    json_path = args.json or (None if quick else DEFAULT_JSON)
    figures = args.figures or (None if quick else DEFAULT_FIGURES)
    started = time.perf_counter()
    report: dict = {"schema_version": 1, "script": "examples/fairness_query_figures.py",
                    "seed": args.seed, "quick": quick, "parts_done": []}
    if json_path and os.path.exists(json_path):  # keep the parts this run does not redo
        with open(json_path, encoding="utf-8") as handle:
            kept = json.load(handle)
        if kept.get("seed") == args.seed and kept.get("quick") == quick:
            redo = set(args.parts.split(","))
            report["parts_done"] = [p for p in kept["parts_done"] if p not in redo]
            report.update({p: kept[p] for p in report["parts_done"]})
            report["part_seconds"] = {p: s for p, s in kept.get("part_seconds", {}).items()
                                      if p not in redo}
    for part in args.parts.split(","):
        part_started = time.perf_counter()
        if part == "fig1_n1000":  # N_0 is about 95 in 1,000 Adult rows: m from N_0 ln(n/N_0)
            task = adult_race_task(random_state=args.seed)
            report[part] = fig1(task, n=1000, ms=(200, 300, 400), runs=2,
                                epsilon=100.0, seed=args.seed)
        elif part == "fig2_n1000":  # m about 1.5-2 N_0 ln(n/N_0), as at n = 100
            report[part] = fig2(n=1000, settings=[(10, 100), (100, 350)],
                                epsilons=(10, 100, 500), runs=1, seed=args.seed)
        elif part == "fig2_n10000":  # the paper's third panel; m as at n = 1,000
            report[part] = fig2(n=10000, settings=[(10, 140), (100, 900)],
                                epsilons=(10, 100, 500), runs=1, seed=args.seed)
        elif part == "table2_n10000":  # a 1,000 x 10,000 LP per cell: minutes each
            report[part] = table2([(10000, n0, 1000) for n0 in (50, 100, 500, 1000, 3000, 5000)],
                                  runs=1, epsilon=100.0, seed=args.seed)
        elif part == "fig1":
            task = adult_race_task(random_state=args.seed)
            report["fig1"] = fig1(task, ms=(25, 40) if quick else (10, 20, 25, 30, 40, 50, 60),
                                  runs=1 if quick else 6, epsilon=100.0, seed=args.seed)
        elif part == "fig2":
            settings = [(10, 40)] if quick else [(5, 30), (10, 40), (20, 50)]
            report["fig2"] = fig2(n=100, settings=settings,
                                  epsilons=(10, 500) if quick else (10, 50, 100, 200, 500),
                                  runs=1 if quick else 10, seed=args.seed)
        elif part == "fig3":
            report["fig3"] = fig3(seed=args.seed)
        elif part == "table2":
            cells = [(100, 10, 40)] if quick else [
                (1000, n0, m) for n0 in (10, 50, 100, 200, 300, 400) for m in (500, 900)]
            report["table2"] = table2(cells, runs=1, epsilon=100.0,
                                      seed=args.seed)
        else:
            parser.error(f"unknown part {part!r}")
        report["parts_done"].append(part)
        report.setdefault("part_seconds", {})[part] = time.perf_counter() - part_started
        report["seconds"] = time.perf_counter() - started
        print(f"{part} done after {report['seconds']:.0f} s", flush=True)
        if json_path:
            write_json(json_path, report)
        if figures:
            draw(report, figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
