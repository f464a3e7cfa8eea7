"""Benchmark: SkylineAnonymize and k-anonymity on Adult and on a 1M-row table (issue 3).

Every job runs in a fresh subprocess (best of --repeat runs; peak RSS of the process), so
memory figures are not polluted by earlier jobs. Competitors run in the same benchmark run
when their virtual environment exists (``make bench`` creates benchmarks/.venv-competitors
with anonypy and anjana; or point SKYPRIVACY_COMPETITOR_PYTHON at a Python that has them):

* anonypy (Mondrian, categorical values split by halves of their set, no hierarchies) and our
  ``k_anonymize`` without hierarchies, k = 5;
* anjana (full-domain generalization over all seven ARX hierarchies, age's included,
  suppression 0% and 1%) and our ``k_anonymize`` with the same seven hierarchies, k = 5
  ("k5_arx7"); beside it ``k_anonymize`` with the ARX hierarchies of the six categorical QIs
  only, age split as a number ("k5_arx", the set-up of the SkylineAnonymize jobs below);
* SkylineAnonymize with (4, 0, 0) at 0.75 (recursive (3, 6)-diversity, Prop. 4), with the
  value-centric Table 3 policy and with the attribute-centric (5, 10, 5) at 0.7;
* SkylineAnonymize on a 1M-row synthetic table (3 numeric QIs, 1 categorical, 12 sensitive
  values) with (1, 5, 1) at 0.9.

QIs on Adult: age, workclass, education, marital-status, race, sex, native-country (the ARX
set). Every job but "k5_free" and "k5_arx7" generalizes the six categorical QIs along their ARX
hierarchies and splits age as a number (its ARX hierarchy unused). The Table 3
reproduction (average group size and KL-divergence of the value-centric vs the
attribute-centric policy, bucketized output, information-gain splits) is reported for these
7 QIs with the six categorical ARX hierarchies ("7arx") and for all 13 attributes other than
occupation and income without hierarchies ("13free", the closest to the paper's setting of
all demographic attributes).

Run:  python benchmarks/bench_anonymize.py [--quick] [--repeat N] [--no-competitors]
Writes benchmarks/results/anonymize.json (atomically).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import write_json  # noqa: E402

HERE = Path(__file__).resolve().parent
RESULT = HERE / "results" / "anonymize.json"
QI7 = ["age", "workclass", "education", "marital-status", "race", "sex", "native-country"]
TABLE3_PAPER = {"value_centric": {"average_group_size": 79.45, "kl_divergence": 1.280},
                "attribute_centric": {"average_group_size": 1585, "kl_divergence": 1.869}}

JOB = r'''
import json, resource, sys, time
import numpy as np, pandas as pd
from skyprivacy import (Policy, cl_diversity_policy, k_anonymize, kl_divergence,
                        load_adult_hierarchies, skyline_anonymize)
from skyprivacy.datasets import load_adult
name, repeat = sys.argv[1], int(sys.argv[2])
QI7 = %(qi7)r
TABLE3 = Policy({"Armed-Forces": [(5, 10, 5, 0.7)], "Exec-managerial": [(4, 10, 4, 0.9)],
                 "Protective-serv": [(3, 8, 3, 0.9)]}, default=[(1, 5, 1, 0.9)])
ATTRIBUTE = Policy.uniform([(5, 10, 5, 0.7)])
def adult_setup(qi=QI7, with_age=False):
    adult = load_adult()
    arx = {k: v for k, v in load_adult_hierarchies().items()
           if k in qi and (with_age or k != "age")}
    return adult, arx
def synthetic(n=1_000_000):
    rng = np.random.default_rng(0)
    weights = np.array([12, 11, 10, 9, 8, 8, 7, 7, 6, 5, 4, 3], dtype=float)
    return pd.DataFrame({"age": rng.integers(17, 91, n), "hours": rng.integers(1, 100, n),
                         "zip": rng.integers(0, 1000, n),
                         "edu": rng.choice([f"e{i}" for i in range(10)], n),
                         "job": rng.choice([f"j{i}" for i in range(12)], n,
                                           p=weights / weights.sum())})
QI13 = None
if name.startswith("table3"):
    adult = load_adult()
    QI13 = [c for c in adult.columns if c not in ("occupation", "income")]
setups = {
    "k5_free": lambda: (lambda a, h: lambda: k_anonymize(a, keep_rest=True, qi=QI7, k=5))(
        *adult_setup()),
    "k5_arx": lambda: (lambda a, h: lambda: k_anonymize(a, keep_rest=True, qi=QI7, k=5,
                                                        hierarchies=h))(*adult_setup()),
    "k5_arx7": lambda: (lambda a, h: lambda: k_anonymize(a, keep_rest=True, qi=QI7, k=5,
                                                         hierarchies=h))(
        *adult_setup(with_age=True)),
    "skyline_400_075": lambda: (lambda a, h: lambda: skyline_anonymize(
        a, qi=QI7, sensitive="occupation", policy=cl_diversity_policy(diversity_c=3, l=6),
        hierarchies=h))(*adult_setup()),
    "skyline_table3": lambda: (lambda a, h: lambda: skyline_anonymize(
        a, qi=QI7, sensitive="occupation", policy=TABLE3, hierarchies=h))(*adult_setup()),
    "skyline_attribute_centric": lambda: (lambda a, h: lambda: skyline_anonymize(
        a, qi=QI7, sensitive="occupation", policy=ATTRIBUTE, hierarchies=h))(*adult_setup()),
    "synthetic_1m": lambda: (lambda t: lambda: skyline_anonymize(
        t, qi=["age", "hours", "zip", "edu"], sensitive="job",
        policy=Policy.uniform([(1, 5, 1, 0.9)])))(synthetic()),
}
def table3_job(qi, policy, use_arx):
    adult = load_adult()
    arx = {k: v for k, v in load_adult_hierarchies().items() if k in qi and k != "age"} \
        if use_arx else {}
    def run():
        return skyline_anonymize(adult, keep_rest=True, qi=qi, sensitive="occupation",
                                 policy=policy, hierarchies=arx, output="bucketized",
                                 random_state=0)
    return run, adult
if name.startswith("table3"):
    _, qiset, which = name.split(":")
    qi = QI7 if qiset == "7arx" else QI13
    run, adult = table3_job(qi, TABLE3 if which == "value" else ATTRIBUTE, qiset == "7arx")
else:
    run = setups[name]()
times = []
for _ in range(repeat):
    start = time.perf_counter()
    result = run()
    times.append(time.perf_counter() - start)
out = {"seconds": min(times), "peak_rss_mb": resource.getrusage(
    resource.RUSAGE_SELF).ru_maxrss / 1024}
groups = result.groups["n_individuals"]
out.update(groups=int(len(groups)), average_group_size=float(groups.mean()),
           min_group_size=int(groups.min()), safe=bool(result.safe))
if name.startswith("table3"):
    out["kl_divergence"] = kl_divergence(adult, result.assignment, qi=qi,
                                         sensitive="occupation")
print(json.dumps(out))
''' % {"qi7": QI7}


def run_ours(name: str, repeat: int) -> dict:
    done = subprocess.run([sys.executable, "-c", JOB, name, str(repeat)], capture_output=True,
                          text=True, check=False)
    if done.returncode:
        return {"error": done.stderr.strip().splitlines()[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def competitor_python() -> str | None:
    env = os.environ.get("SKYPRIVACY_COMPETITOR_PYTHON")
    if env:
        return env
    local = HERE / ".venv-competitors" / "bin" / "python"
    return str(local) if local.exists() else None


def run_competitor(python: str, script: str, args: list, repeat: int) -> dict:
    best = None
    for _ in range(repeat):
        done = subprocess.run([python, str(HERE / "competitors" / script), *args],
                              capture_output=True, text=True, check=False)
        if done.returncode:
            return {"error": (done.stderr.strip().splitlines() or ["failed"])[-1]}
        out = json.loads(done.stdout.strip().splitlines()[-1])
        if best is None or out["seconds"] < best["seconds"]:
            best = out
    return best


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="Adult jobs once, no 1M table, no competitors")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-competitors", action="store_true")
    args = parser.parse_args(argv)
    repeat = 1 if args.quick else args.repeat
    results: dict = {"date": datetime.now(timezone.utc).date().isoformat(),
                     "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                                 # the 1-minute load average before the first job: on a
                                 # shared machine it says how far the clocks can be trusted
                                 "load_average_at_start": os.getloadavg()[0]},
                     "qi": QI7, "ours": {}, "competitors": {}, "table3": {}}
    jobs = ["k5_free", "k5_arx", "k5_arx7", "skyline_400_075", "skyline_table3",
            "skyline_attribute_centric"]
    if not args.quick:
        jobs.append("synthetic_1m")
    for name in jobs:
        results["ours"][name] = run_ours(name, 1 if name == "synthetic_1m" else repeat)
        print(f"ours {name}: {results['ours'][name]}", flush=True)
    for qiset in ("7arx", "13free"):
        for which in ("value", "attribute"):
            key = f"table3:{qiset}:{which}"
            results["table3"][key] = run_ours(key, 1)
            print(f"{key}: {results['table3'][key]}", flush=True)
    results["table3"]["paper"] = TABLE3_PAPER

    python = None if (args.quick or args.no_competitors) else competitor_python()
    if python is None:
        results["competitors"]["note"] = ("competitors not run (create them with `make bench` "
                                          "or set SKYPRIVACY_COMPETITOR_PYTHON)")
    else:
        with tempfile.TemporaryDirectory() as tmp:
            from skyprivacy.datasets import load_adult
            table = Path(tmp) / "adult.csv"
            load_adult().to_csv(table, index=False)
            hierarchies = Path(tmp) / "hierarchies"
            shutil.copytree(HERE.parent / "skyprivacy" / "data" / "hierarchies" / "adult",
                            hierarchies)
            qi = ",".join(QI7)
            results["competitors"]["anonypy_k5"] = run_competitor(
                python, "run_anonypy.py",
                [str(table), "--qi", qi, "--sensitive", "occupation", "--k", "5"], 1)
            print(f"anonypy k=5: {results['competitors']['anonypy_k5']}", flush=True)
            for supp in ("0", "1"):
                key = f"anjana_k5_supp{supp}"
                results["competitors"][key] = run_competitor(
                    python, "run_anjana.py",
                    [str(table), "--qi", qi, "--k", "5", "--hierarchies", str(hierarchies),
                     "--supp", supp], repeat)
                print(f"anjana k=5 supp={supp}%: {results['competitors'][key]}", flush=True)
    ratios = {}
    comp = results["competitors"]
    timed = [v["seconds"] for v in comp.values() if isinstance(v, dict) and "seconds" in v]
    if timed:
        fastest = min(timed)
        for name in ("k5_free", "k5_arx", "k5_arx7", "skyline_400_075", "skyline_table3"):
            ours = results["ours"].get(name, {})
            if "seconds" in ours:
                ratios[f"fastest_competitor_over_{name}"] = fastest / ours["seconds"]
        if "seconds" in comp.get("anonypy_k5", {}):
            ratios["anonypy_over_k5_free"] = comp["anonypy_k5"]["seconds"] / \
                results["ours"]["k5_free"]["seconds"]
            ratios["group_size_k5_free_vs_anonypy"] = (
                results["ours"]["k5_free"]["average_group_size"] /
                comp["anonypy_k5"]["average_group_size"])
        for supp in ("0", "1"):
            other = comp.get(f"anjana_k5_supp{supp}", {})
            if "seconds" in other:
                # against the job with the same seven hierarchies as anjana
                ratios[f"anjana_supp{supp}_over_k5_arx7"] = other["seconds"] / \
                    results["ours"]["k5_arx7"]["seconds"]
                ratios[f"group_size_k5_arx7_vs_anjana_supp{supp}"] = (
                    results["ours"]["k5_arx7"]["average_group_size"] /
                    other["average_group_size"])
    results["ratios"] = ratios
    results["machine"]["load_average_at_end"] = os.getloadavg()[0]
    write_json(RESULT, results)
    print(json.dumps(ratios, indent=2))
    print(f"written {RESULT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
