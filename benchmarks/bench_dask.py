"""Benchmark: skyprivacy on Dask (issue "Beyond one machine: certify and anonymize on Dask").

Synthetic tables of 8 quasi-identifiers (two numeric, six categorical, 240,000 possible
combinations) and a sensitive column with 20 values (skewed) or 20,000 values (Zipf 1.1) are
generated as Parquet datasets (2,000,000 rows per file, fixed seeds) under
``benchmarks/scratch/dask/`` (git-ignored).  Every job runs in a fresh subprocess on a
``distributed.LocalCluster`` of 2 worker processes (1 thread each, memory limit 8 GB); a
sampler records the peak resident memory of the client and of every worker process.

check      ``ReleaseCandidate.from_table(ddf, qi=8 QIs, ...)`` + ``skyline_check`` against a bare
           ``ddf.groupby(8 QIs + sensitive).size().compute()`` over the same files (best of
           --repeat, alternating). Targets: ratio <= 1.5; client peak RSS < 1 GB at 10^8.
anonymize  ``k_anonymize(k=10)`` and ``skyline_anonymize`` (20 values, policy below) on the
           dask path and on the pandas path (the Parquet files read into one frame) in the
           same run, with their ratio; each result's certificate is computed, the released
           table is not written. Target at 10^8: the dask path completes with every process's
           peak RSS < 8 GB; the pandas path at 10^8 is run under a 16 GB address-space limit
           and reported as it ends.

Run:  python benchmarks/bench_dask.py --rows 10000000 [--rows 100000000] [--only check]
      [--values 20000] [--which k10] [--engines dask]
Writes benchmarks/results/dask.json (atomically; entries of other sizes are kept).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import write_json  # noqa: E402

HERE = Path(__file__).resolve().parent
SCRATCH = HERE / "scratch" / "dask"
RESULT = HERE / "results" / "dask.json"
ROWS_PER_FILE = 2_000_000
QI = ["age", "hours", "sex", "race", "education", "marital", "workclass", "region"]
SENSITIVE = "diag"
#: (l, k, m, c) of the skyline policy of the anonymize jobs (20 values)
POLICY = (1, 5, 1, 0.9)
PANDAS_LIMIT = 16 * 2**30


# ------------------------------------------------------------------ data
def _columns(rng: np.random.Generator, n: int, n_values: int) -> dict:
    def skewed(k):
        p = 1.0 / np.arange(1, k + 1) ** 0.7
        return p / p.sum()

    def pick(labels, p=None):
        labels = np.array(labels, dtype=object)
        return labels[rng.choice(len(labels), n, p=p)]

    ages = np.arange(20, 70, 5)  # 10 numeric ages, 6 numeric hours: 240,000 combinations
    out = {
        "age": rng.choice(ages, n, p=skewed(len(ages))[::-1].copy()),
        "hours": rng.choice(np.arange(10, 70, 10), n, p=skewed(6)),
        "sex": pick(["Male", "Female"], [0.6, 0.4]),
        "race": pick(["White", "Black", "Asian", "Amer-Indian", "Other"], skewed(5)),
        "education": pick(["HS-grad", "Some-college", "Bachelors", "Masters"], skewed(4)),
        "marital": pick(["Married", "Never", "Divorced", "Separated", "Widowed"], skewed(5)),
        "workclass": pick(["Private", "Self-emp", "Local-gov", "State-gov"], skewed(4)),
        "region": pick(["North", "South", "East", "West", "Centre"], skewed(5)),
    }
    if n_values <= 100:
        p = skewed(n_values)
    else:  # ICD-like: Zipf 1.1
        p = np.arange(1, n_values + 1, dtype=float) ** -1.1
        p /= p.sum()
    names = np.array([f"D{i:05d}" for i in range(n_values)], dtype=object)
    out[SENSITIVE] = names[rng.choice(n_values, n, p=p)]
    return out


def generate(n_rows: int, n_values: int) -> Path:
    """The Parquet dataset of ``n_rows`` rows (made once; fixed seeds per file)."""
    import pandas as pd

    folder = SCRATCH / f"rows{n_rows}_values{n_values}"
    if (folder / "_complete").exists():
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for index, start in enumerate(range(0, n_rows, ROWS_PER_FILE)):
        rng = np.random.default_rng([n_values, index])
        rows = min(ROWS_PER_FILE, n_rows - start)
        pd.DataFrame(_columns(rng, rows, n_values)).to_parquet(
            folder / f"part.{index:05d}.parquet", index=False)
    (folder / "_complete").write_text("ok\n")
    return folder


# ------------------------------------------------------------------ memory
class Peaks:
    """Peak resident memory of this process and of each of its descendants (sampled)."""

    def __init__(self, interval: float = 0.2):
        import psutil

        self.me = psutil.Process()
        self.peaks: dict = {}
        self.names: dict = {}
        self.interval = interval
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self):
        processes = [self.me] + self.me.children(recursive=True)
        for process in processes:
            try:
                rss = process.memory_info().rss
                self.names.setdefault(process.pid, " ".join(process.cmdline()[-2:])[-60:])
            except Exception:  # noqa: BLE001 - a process may end between the calls
                continue
            self.peaks[process.pid] = max(self.peaks.get(process.pid, 0), rss)

    def _run(self):
        while not self.stop.is_set():
            self._sample()
            time.sleep(self.interval)

    def __enter__(self):
        self.peaks.clear()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.stop.clear()
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()
        self._sample()

    def summary(self) -> dict:
        client = self.peaks.get(self.me.pid, 0)
        others = [v for pid, v in self.peaks.items() if pid != self.me.pid]
        return {"client_peak_mb": round(client / 2**20, 1),
                "worker_peak_mb": round(max(others, default=0) / 2**20, 1),
                "processes": len(self.peaks)}


def _cluster():
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           memory_limit="8GB", dashboard_address=":0", silence_logs=40)
    return cluster, Client(cluster)


# ------------------------------------------------------------------ jobs (subprocesses)
def job_check(folder: str, repeat) -> dict:
    import dask.dataframe as dd

    from skyprivacy import Policy, ReleaseCandidate, skyline_check

    cluster, client = _cluster()
    policy = Policy.uniform([(1, 5, 1, 0.9)])
    ddf = dd.read_parquet(folder)
    peaks = Peaks()
    times = {"bare": [], "ours": []}
    out = {}
    for _ in range(int(repeat)):
        t = time.perf_counter()
        bare = ddf.groupby(QI + [SENSITIVE]).size().compute()
        times["bare"].append(time.perf_counter() - t)
        out["bare_nonzeros"] = len(bare)
        del bare
        with peaks:
            t = time.perf_counter()
            release = ReleaseCandidate.from_table(ddf, qi=QI, sensitive=SENSITIVE)
            result = skyline_check(release, policy)
            times["ours"].append(time.perf_counter() - t)
        out.update(groups=release.n_groups, nonzeros=release.n_nonzeros,
                   values=len(release.values), safe=bool(result.safe), **peaks.summary())
        del release, result
    out.update(ours_s=min(times["ours"]), groupby_s=min(times["bare"]),
               ratio=min(times["ours"]) / min(times["bare"]))
    client.close()
    cluster.close()
    return out


def _anonymize_calls(table):
    from skyprivacy import Policy, k_anonymize, skyline_anonymize

    policy = Policy.uniform([POLICY])
    return {
        "k10": lambda **kw: k_anonymize(table, keep_rest=True, qi=QI, k=10, **kw),
        "skyline": lambda **kw: skyline_anonymize(table, keep_rest=True, qi=QI, sensitive=SENSITIVE,
                                                  policy=policy, **kw),
    }


def job_anonymize_dask(folder: str, which: str) -> dict:
    import dask.dataframe as dd

    cluster, client = _cluster()
    ddf = dd.read_parquet(folder)
    out = {}
    for name, call in _anonymize_calls(ddf).items():
        if which not in ("all", name):
            continue
        with Peaks() as peaks:
            t = time.perf_counter()
            result = call()
            seconds = time.perf_counter() - t
        groups = (result.candidate.n_groups if hasattr(result, "candidate")
                  else len(result.certificate.group_sizes))
        out[name] = {"seconds": seconds, "safe": bool(result.safe), "groups": int(groups),
                     "n_splits": result.n_splits, **peaks.summary()}
        del result
    client.close()
    cluster.close()
    return out


def job_anonymize_pandas(folder: str, which: str) -> dict:
    import pandas as pd

    out = {}
    with Peaks() as peaks:
        t = time.perf_counter()
        table = pd.read_parquet(folder)
        read = time.perf_counter() - t
    out["read_s"] = read
    out["read_peak_mb"] = peaks.summary()["client_peak_mb"]
    for name, call in _anonymize_calls(table).items():
        if which not in ("all", name):
            continue
        with Peaks() as peaks:
            t = time.perf_counter()
            result = call()
            seconds = time.perf_counter() - t
        groups = len(result.groups)
        out[name] = {"seconds": seconds, "seconds_with_read": seconds + read,
                     "safe": bool(result.safe), "groups": groups, "n_splits": result.n_splits,
                     "peak_mb": peaks.summary()["client_peak_mb"]}
        del result
    return out


JOBS = {"check": job_check, "anonymize-dask": job_anonymize_dask,
        "anonymize-pandas": job_anonymize_pandas}


def run_job(name: str, *args, memory_limit: int | None = None, timeout: float | None = None):
    env = dict(os.environ, PYTHONPATH=str(HERE.parent))

    def limit():
        if memory_limit:
            resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))

    t = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, __file__, "--job", name, *map(str, args)],
                              capture_output=True, text=True, env=env, check=False,
                              preexec_fn=limit, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"did not finish within {timeout:.0f} s"}
    if done.returncode:
        lines = (done.stderr or "failed").strip().splitlines()
        return {"error": lines[-1] if lines else f"exit {done.returncode}",
                "exit_code": done.returncode, "wall_s": time.perf_counter() - t}
    return json.loads(done.stdout.strip().splitlines()[-1])


# ------------------------------------------------------------------ driver
def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, action="append", default=None,
                        help="table size(s); default 10^7 (give 100000000 for the 10^8 run)")
    parser.add_argument("--only", choices=("all", "check", "anonymize"), default="all")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--values", type=int, action="append", default=None,
                        help="sensitive domain size(s) of the check job; default 20 and 20000")
    parser.add_argument("--which", choices=("all", "k10", "skyline"), default="all",
                        help="anonymize jobs to run (default both)")
    parser.add_argument("--engines", choices=("both", "dask", "pandas"), default="both",
                        help="anonymize paths to run (default both)")
    parser.add_argument("--job", default=None, help=argparse.SUPPRESS)
    parser.add_argument("args", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.job:  # inside a subprocess
        print(json.dumps(JOBS[args.job](*args.args)))
        return 0
    results = json.loads(RESULT.read_text()) if RESULT.exists() else {}
    results["machine"] = {"python": platform.python_version(), "cpus": os.cpu_count(),
                          "platform": platform.platform()}

    def show(key, value):
        results[key] = value
        print(key, json.dumps(value), flush=True)
        write_json(RESULT, results)

    for rows in args.rows or [10_000_000]:
        if args.only in ("all", "check"):
            for values in args.values or (20, 20_000):
                folder = generate(rows, values)
                res = run_job("check", folder, args.repeat)
                show(f"check_rows{rows}_values{values}", res)
        if args.only in ("all", "anonymize"):
            folder = generate(rows, 20)
            entry = dict(results.get(f"anonymize_rows{rows}", {}))
            dask_res, pandas_res = entry.get("dask", {}), entry.get("pandas", {})
            if args.engines in ("both", "dask"):  # a partial run keeps the other job's figures
                dask_res = {**dask_res, **run_job("anonymize-dask", folder, args.which)}
            if args.engines in ("both", "pandas"):
                limit = PANDAS_LIMIT if rows > 20_000_000 else None
                pandas_res = {**pandas_res, **run_job("anonymize-pandas", folder, args.which,
                                                      memory_limit=limit, timeout=3 * 3600)}
            entry.update(dask=dask_res, pandas=pandas_res)
            for name in ("k10", "skyline"):
                d, p = dask_res.get(name, {}), pandas_res.get(name, {})
                if "seconds" in d and "seconds" in p:
                    entry[f"{name}_ratio_dask_over_pandas"] = d["seconds"] / p["seconds"]
                    entry[f"{name}_ratio_dask_over_pandas_with_read"] = (
                        d["seconds"] / p["seconds_with_read"])
            show(f"anonymize_rows{rows}", entry)
    return 0


if __name__ == "__main__":
    sys.exit(main())
