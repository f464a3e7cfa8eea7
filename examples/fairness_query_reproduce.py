"""Re-run the experiments of Hamman, Chen and Dutta and print them next to the paper's tables.

Prints Markdown and writes every cell, with every run, to JSON (the tables of
docs/fairness_queries.md are checked against that JSON by tests/test_fairness_docs_figures.py):

    python examples/fairness_query_reproduce.py            # full: about 12 minutes; writes
                                           # benchmarks/results/fairness_reproduce.json
    python examples/fairness_query_reproduce.py --quick    # smoke run: a few seconds
    # Table 3's n = 10,000 half (84 LPs of up to 3,000 x 20,000, by the dense interior
    # point; run only when named), then merged into the committed JSON:
    python examples/fairness_query_reproduce.py --sections table3_n10000 --json part.json
    python examples/fairness_query_reproduce.py --json benchmarks/results/fairness_reproduce.json
        --merge benchmarks/results/fairness_reproduce.json part.json

The JSON is rewritten after each section, so an interrupted run keeps the sections it finished
(``sections_done`` lists them).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time

import numpy as np
import pandas as pd

from skyprivacy.fairness_queries import crossover_epsilon

from fairness_query_experiments import (PAPER_TABLE1, adult_race_task, error_scale_table,
                                        reproduce_recovery, reproduce_synthetic,
                                        reproduce_table1)


def markdown(frame: pd.DataFrame, digits: int = 3) -> str:
    """A DataFrame as a Markdown table (no optional dependency)."""
    def cell(value):
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return "-"
        if isinstance(value, float):
            return "inf" if math.isinf(value) else f"{value:.{digits}g}"
        if isinstance(value, list):
            return ", ".join(map(str, value))
        return str(value)
    header = "| " + " | ".join(map(str, frame.columns)) + " |"
    rule = "|" + "---|" * len(frame.columns)
    body = ["| " + " | ".join(cell(v) for v in row) + " |"
            for row in frame.itertuples(index=False)]
    return "\n".join([header, rule, *body])


DEFAULT_JSON = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                            "benchmarks", "results", "fairness_reproduce.json")


def records(frame: pd.DataFrame) -> dict:
    """A section of the JSON: the summary rows and, when the frame carries them, every run."""
    section = {"rows": frame.to_dict("records")}
    if "trials" in frame.attrs:
        section["trials"] = frame.attrs["trials"]
    return section


def _plain(value):
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"not JSON serialisable: {value!r}")


def write_json(path: str, report: dict) -> None:
    """Write the report atomically (``inf`` as JSON ``Infinity``, which ``json`` reads back)."""
    folder = os.path.dirname(os.path.abspath(path))
    with tempfile.NamedTemporaryFile("w", dir=folder, delete=False, suffix=".tmp") as tmp:
        json.dump(report, tmp, indent=1, default=_plain)
        tmp.write("\n")
    os.chmod(tmp.name, 0o644)  # a results file, readable like the others
    os.replace(tmp.name, path)


SECTIONS = ("setup", "table1", "recovery", "error_scale", "table3", "table3_n10000", "crossover")
#: ``table3_n10000`` (Table 3's n = 10,000 half) runs only when asked for by ``--sections``.
DEFAULT_SECTIONS = tuple(name for name in SECTIONS if name != "table3_n10000")


def merge_reports(paths) -> dict:
    """One report from partial runs of the same seed: sections in the order of SECTIONS."""
    parts = [json.loads(open(path, encoding="utf-8").read()) for path in paths]
    if len({(p["seed"], p["quick"]) for p in parts}) != 1:
        raise ValueError(f"the partial runs differ in seed or quick mode: {list(paths)}")
    merged = {key: parts[0][key] for key in ("schema_version", "script", "seed", "quick")}
    merged["sections_done"] = []
    merged["section_seconds"] = {}
    for name in SECTIONS:
        for part in parts:
            if name in part.get("sections_done", []):
                merged[name] = part[name]
                merged["sections_done"].append(name)
                merged["section_seconds"][name] = part.get("section_seconds", {}).get(name)
                break
    merged["seconds"] = sum(filter(None, merged["section_seconds"].values()))
    return merged


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small subset, one run each")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--output", help="also write the Markdown to this file")
    parser.add_argument("--json", help="write every cell and run here (default: "
                        "benchmarks/results/fairness_reproduce.json on a full run, "
                        "nothing on a quick one)")
    parser.add_argument("--sections", default=",".join(DEFAULT_SECTIONS),
                        help="comma-separated subset of the sections, to run them in "
                             "separate processes (table3_n10000 runs only when named)")
    parser.add_argument("--merge", nargs="+", metavar="PART_JSON",
                        help="instead of running: merge the JSON files of partial runs "
                             "(each section taken from the file that has it) into --json")
    args = parser.parse_args(argv)
    if args.merge:
        write_json(args.json or DEFAULT_JSON, merge_reports(args.merge))
        return 0
    wanted = args.sections.split(",")
    unknown = sorted(set(wanted) - set(SECTIONS))
    if unknown:
        parser.error(f"unknown sections {unknown}; choose from {list(SECTIONS)}")
    quick = args.quick
    json_path = args.json or (None if quick else DEFAULT_JSON)
    started = time.perf_counter()
    out: list[str] = []
    report: dict = {"schema_version": 1, "script": "examples/fairness_query_reproduce.py",
                    "seed": args.seed, "quick": quick, "sections_done": [],
                    "section_seconds": {}}
    clock = [started]

    def done(name: str, section) -> None:
        report[name] = section
        report["sections_done"].append(name)
        now = time.perf_counter()
        report["section_seconds"][name] = now - clock[0]
        clock[0] = now
        report["seconds"] = now - started
        if json_path:
            write_json(json_path, report)

    task = adult_race_task(random_state=args.seed)  # every section's data, cheap to redo
    out += ["## Adult set-up", "",
            f"- White and Black rows of the bundled Adult: Black share "
            f"{task.black_share:.2%} (paper: 10.4%; spec recomputed 9.80%).",
            f"- Base model: logistic regression, held-out accuracy {task.test_accuracy:.2%} "
            f"on {task.a.size} rows (paper: perturbed models 86.23%; model class not stated).",
            ""]
    if "setup" in wanted:
        done("setup", {"black_share": task.black_share, "test_accuracy": task.test_accuracy,
                       "test_pool": int(task.a.size), "n_train": task.n_train})

    if "table1" in wanted:
        run_table1(task, quick, args.seed, out, done)
    if "recovery" in wanted:
        run_recovery(task, quick, args.seed, out, done)
    if "error_scale" in wanted:
        run_error_scale(out, done)
    if "table3" in wanted:
        run_table3(quick, args.seed, out, done)
    if "table3_n10000" in wanted:
        run_table3_n10000(quick, args.seed, out, done)
    if "crossover" in wanted:
        run_crossover(out, done)
    out += [f"_Generated in {time.perf_counter() - started:.0f} s "
            f"({'quick' if quick else 'full'} run, seed {args.seed})._"]

    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    if args.output:
        folder = os.path.dirname(os.path.abspath(args.output))
        with tempfile.NamedTemporaryFile("w", dir=folder, delete=False, suffix=".tmp") as tmp:
            tmp.write(text)
        os.replace(tmp.name, args.output)
    return 0


def run_table1(task, quick, seed, out, done) -> None:
    cells = [k for k in PAPER_TABLE1 if k[0] == 100] if quick else list(PAPER_TABLE1)
    table1 = reproduce_table1(runs=1 if quick else 6, cells=cells, task=task,
                              random_state=seed)
    out += ["## Table 1 (Adult): Leakage (%) and answer error (x1e-3)", "",
            markdown(table1), ""]
    done("table1", {"runs": 1 if quick else 6, **records(table1)})


def run_recovery(task, quick, seed, out, done) -> None:
    recovery_settings = [("bernoulli", 1000, 10, m) for m in ((40, 80) if quick
                                                              else (30, 40, 50, 60, 80))]
    recovery_settings += [("synthetic", 100, 10, m) for m in ((25, 40) if quick
                                                              else (10, 20, 25, 30, 40))]
    if not quick:
        recovery_settings += [("synthetic", 1000, 104, m) for m in (200, 300, 400, 500)]
        recovery_settings += [("adult", 100, 0, 25), ("adult", 100, 0, 40),
                              ("adult", 1000, 0, 300), ("adult", 1000, 0, 400)]
    recovery = reproduce_recovery(recovery_settings, runs=2 if quick else 8, task=task,
                                  random_state=seed)
    out += ["## Noiseless recovery (spec §4.4 performance table)", "", markdown(recovery), ""]
    done("recovery", {"runs": 2 if quick else 8, **records(recovery)})


def run_error_scale(out, done) -> None:
    scale_cells = [(100, 10, 25, 5), (100, 10, 25, 100), (1000, 104, 300, 100),
                   (1000, 104, 400, 100), (1000, 10, 60, 100), (10000, 100, 1000, 100)]
    scales = error_scale_table(scale_cells)
    out += ["## Closed-form median errors against the paper's errors", "",
            markdown(scales, digits=4), ""]
    done("error_scale", records(scales))


def run_table3(quick, seed, out, done) -> None:
    synthetic_settings = [(1000, 10, 100, eps) for eps in ((100,) if quick
                                                             else (10, 50, 100, 500))]
    if not quick:
        synthetic_settings += [(1000, 100, 400, eps) for eps in (10, 50, 100, 500)]
    synthetic = reproduce_synthetic(synthetic_settings, runs=1 if quick else 5,
                                    random_state=seed)
    out += ["## Table 3 (synthetic, Algorithm 2 on Uniform(0, 1) scores)", "",
            markdown(synthetic), ""]
    done("table3", {"runs": 1 if quick else 5, **records(synthetic)})


#: Table 3's n = 10,000 half: m where the noiseless attack succeeds.  N_0 = 100: m = 1,000, as
#: in Table 2's n = 10,000 half.  N_0 = 1,000: m = 3,000 (a trial at 2,500 left Leakage at 76%,
#: one at 3,000 recovered everyone); the section re-checks both noiselessly, twice.
TABLE3_N10000_M = {100: 1000, 1000: 3000}
TABLE3_N10000_RUNS = 5


def run_table3_n10000(quick, seed, out, done) -> None:
    # The LPs are 1,000-4,000 x 20,000 and dense: HiGHS needs minutes for each, the dense
    # interior point seconds (same labels; tests/fairness_queries/test_interior_point.py).
    n0s = (100,) if quick else (100, 1000)
    settings = [(10000, n0, TABLE3_N10000_M[n0], eps) for n0 in n0s
                for eps in ((100,) if quick else (10, 50, 100, 500))]
    runs = 1 if quick else TABLE3_N10000_RUNS
    recovery = reproduce_recovery([("synthetic", 10000, n0, TABLE3_N10000_M[n0]) for n0 in n0s],
                                  runs=1 if quick else 2, random_state=seed,
                                  lp_method="dense-ipm")
    synthetic = reproduce_synthetic(settings, runs=runs, random_state=seed,
                                    lp_method="dense-ipm")
    out += ["## Table 3, n = 10,000 (synthetic, Algorithm 2 on Uniform(0, 1) scores)", "",
            "Noiseless recovery at the chosen m:", "", markdown(recovery), "",
            markdown(synthetic), ""]
    done("table3_n10000", {"runs": runs, "lp_method": "dense-ipm",
                           "noiseless": records(recovery), **records(synthetic)})


def run_crossover(out, done) -> None:
    crossings = pd.DataFrame([{"n": n, "N0": n0, "m": m,
                               "crossover epsilon": crossover_epsilon(n, n0, n_queries=m)}
                              for n, n0, m in [(100, 10, 25), (1000, 104, 300),
                                               (1000, 310, 800), (10000, 1000, 1000)]])
    done("crossover", records(crossings))
    out += ["## Smallest epsilon at which Attribute-Conceal beats Laplace (median error)", "",
            markdown(crossings, digits=4), ""]


if __name__ == "__main__":
    sys.exit(main())
