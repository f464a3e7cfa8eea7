"""Benchmark: Fig. 7 as the paper ran it: SkylineAnonymize on data beyond memory (Sect. 8.2).

Fig. 7 of the privacy-skyline paper (Chen, LeFevre and Ramakrishnan, VLDB J. 18, 2009) plots
SkylineAnonymize's time against the number of records, up to 10^8, for (l, k, m) =
(0, 1000, 0) and (3, 1000, 10), on Agrawal et al.'s synthetic generator with the 9-value
Zip-code as the sensitive attribute, on data larger than main memory.  Here:

* **Data.** The nine attributes of Agrawal, Imielinski and Swami's generator (IEEE TKDE 5(6),
  1993): salary U[20, 150] thousand; commission 0 when salary >= 75 thousand, else
  U[10, 75] thousand; age U[20, 80]; elevel U{0..4}; car U{1..20} (as text, ``make01`` ..);
  zipcode U{9 values} (as text, ``zip1`` .. ``zip9``); hvalue U[0.5 z, 1.5 z] x 100 thousand
  where z (1..9) is the zipcode's number; hyears U[1, 30]; loan U[0, 500] thousand (money in
  whole thousands).  The eight attributes other than zipcode are the quasi-identifiers and
  zipcode is the sensitive attribute.  :func:`generate` writes the table as a Parquet dataset
  of ``ROWS_PER_FILE``-row parts, one part at a time with its own seed: the whole table is
  never in memory (10^8 records are 3.6 GB as a frame and about 0.8 GB on disk).
* **Engine.** Every size runs in a fresh subprocess on a ``distributed.LocalCluster`` of 2
  worker processes (1 thread each), reading the Parquet files with ``dask.dataframe``:
  ``skyline_anonymize(ddf, ...)`` under each setting at c = 0.9, and, as the competitor in the
  same run, plain Mondrian k-anonymity on the same engine (``k_anonymize(ddf, k=1000)``, the
  criterion (0, 1000, 0) roughly is).  The clock covers the call: encoding scan, search, the
  released table's definition (not written) and the certificate (an independent skyline check
  of the released groups, aggregated from the released table).  A sampler records the peak
  resident memory of the client and of every worker process.

Run:  python benchmarks/bench_fig7.py [--rows N ...] [--timeout S]
      (default --rows 1000000 --rows 10000000; give --rows 100000000 for the paper's largest)
      python benchmarks/bench_fig7.py --figure   (only redraw docs/figures/fig7.png)
Writes benchmarks/results/fig7.json (atomically; entries of other sizes are kept) and draws
docs/figures/fig7.png from it (with the in-memory engine's points of
benchmarks/results/scaleup.json beside them; needs matplotlib).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import write_json  # noqa: E402

HERE = Path(__file__).resolve().parent
SCRATCH = HERE / "scratch" / "fig7"
RESULT = HERE / "results" / "fig7.json"
SCALEUP = HERE / "results" / "scaleup.json"
FIGURE = HERE.parent / "docs" / "figures" / "fig7.png"
ROWS_PER_FILE = 1_000_000
QI = ["salary", "commission", "age", "elevel", "car", "hvalue", "hyears", "loan"]
SENSITIVE = "zipcode"
#: the paper's two settings (l, k, m), at c = 0.9
SETTINGS = {"(0,1000,0)": (0, 1000, 0, 0.9), "(3,1000,10)": (3, 1000, 10, 0.9)}
K = 1000


# ------------------------------------------------------------------ data
def agrawal_part(n: int, seed: int):
    """``n`` records of Agrawal et al.'s generator (1993), money in whole thousands."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    salary = rng.integers(20, 151, n)
    zipnum = rng.integers(1, 10, n)
    low, high = 50 * zipnum, 150 * zipnum  # hvalue U[0.5 z, 1.5 z] x 100 thousand
    return pd.DataFrame({
        "salary": salary * 1000,
        "commission": np.where(salary >= 75, 0, rng.integers(10, 76, n)) * 1000,
        "age": rng.integers(20, 81, n),
        "elevel": rng.integers(0, 5, n),
        "car": np.array([f"make{i:02d}" for i in range(1, 21)], dtype=object)[
            rng.integers(0, 20, n)],
        "hvalue": (low + (rng.random(n) * (high - low + 1)).astype(np.int64)) * 1000,
        "hyears": rng.integers(1, 31, n),
        "loan": rng.integers(0, 501, n) * 1000,
        SENSITIVE: np.array([f"zip{z}" for z in range(1, 10)], dtype=object)[zipnum - 1],
    })


def generate(n_rows: int) -> tuple[Path, float]:
    """The Parquet dataset of ``n_rows`` records, written part by part (made once).

    Returns the folder and the seconds the generation took (0 when it already existed).
    """
    folder = SCRATCH / f"rows{n_rows}"
    if (folder / "_complete").exists():
        return folder, 0.0
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    t = time.perf_counter()
    for index, start in enumerate(range(0, n_rows, ROWS_PER_FILE)):
        part = agrawal_part(min(ROWS_PER_FILE, n_rows - start), seed=index)
        part.to_parquet(folder / f"part.{index:05d}.parquet", index=False)
        del part
    seconds = time.perf_counter() - t
    (folder / "_complete").write_text("ok\n")
    return folder, seconds


def frame_bytes(n_rows: int) -> int:
    """The table's size as pandas frames (deep, the parts summed), without building it.

    Every cell has a fixed size (int64 numbers, 6-character car and 4-character zipcode
    strings), so a part's deep size is exactly a per-row size times its rows plus its index.
    """
    small, large = (int(agrawal_part(n, 0).memory_usage(deep=True).sum()) for n in (1000, 2000))
    per_row = (large - small) // 1000
    fixed = small - 1000 * per_row
    parts = range(0, n_rows, ROWS_PER_FILE)
    return sum(per_row * min(ROWS_PER_FILE, n_rows - start) + fixed for start in parts)


def disk_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.glob("*.parquet"))


# ------------------------------------------------------------------ job (subprocess)
def job(folder: str, name: str) -> dict:
    import dask.dataframe as dd
    from bench_dask import Peaks, _cluster

    from skyprivacy import Policy, k_anonymize, skyline_anonymize

    cluster, client = _cluster()
    ddf = dd.read_parquet(folder)
    with Peaks() as peaks:
        t = time.perf_counter()
        if name == "k_anonymize":
            result = k_anonymize(ddf, keep_rest=True, qi=QI, k=K)
        else:
            result = skyline_anonymize(ddf, keep_rest=True, qi=QI, sensitive=SENSITIVE,
                                       policy=Policy.uniform([SETTINGS[name]]))
        seconds = time.perf_counter() - t
    sizes = result.certificate.group_sizes if name == "k_anonymize" else None
    groups = int(len(sizes) if sizes is not None else result.candidate.n_groups)
    out = {"seconds": seconds, "certified_safe": bool(result.certificate.safe),
           "groups": groups, "n_splits": int(result.n_splits),
           "partitions": int(ddf.npartitions), **peaks.summary()}
    client.close()
    cluster.close()
    return out


def run_job(folder: Path, name: str, timeout: float) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE.parent), str(HERE)]))
    t = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, __file__, "--job", str(folder), name],
                              capture_output=True, text=True, env=env, check=False,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"did not finish within {timeout:.0f} s"}
    if done.returncode:
        lines = (done.stderr or "failed").strip().splitlines()
        return {"error": lines[-1] if lines else f"exit {done.returncode}",
                "wall_s": time.perf_counter() - t}
    return json.loads(done.stdout.strip().splitlines()[-1])


def exponent(results: dict, name: str) -> float | None:
    """Slope of log(seconds) against log(records) over the sizes that finished."""
    ok = [(int(key[4:]), v[name]["seconds"]) for key, v in results.items()
          if key.startswith("rows") and "seconds" in v.get(name, {})]
    if len(ok) < 2:
        return None
    rows, secs = zip(*sorted(ok))
    return float(np.polyfit(np.log(rows), np.log(secs), 1)[0])


# ------------------------------------------------------------------ figure
def draw(results: dict, path: Path = FIGURE) -> Path:
    """Fig. 7 re-drawn: seconds against records, Dask from Parquet and in memory, log-log."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    memory = json.loads(SCALEUP.read_text())["synthetic"] if SCALEUP.exists() else {}
    sizes = sorted(int(key[4:]) for key in results if key.startswith("rows"))
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, color in zip(["(0,1000,0)", "(3,1000,10)", "k_anonymize"], "C0 C1 C2".split()):
        label = name if name != "k_anonymize" else f"k_anonymize, k = {K}"
        pts = [(n, results[f"rows{n}"][name]["seconds"]) for n in sizes
               if "seconds" in results[f"rows{n}"].get(name, {})]
        if pts:
            ax.plot(*zip(*pts), marker="o", color=color,
                    label=f"{label}: Dask, Parquet on disk")
        mem = [(p["rows"], p["seconds"]) for p in memory.get(name, {}).get("points", [])
               if "seconds" in p]
        if mem:
            ax.plot(*zip(*mem), marker="x", ls=":", color=color,
                    label=f"{label}: in memory (scaleup.json)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set(xlabel="records", ylabel="seconds",
           title="Fig. 7 re-run: Agrawal data, zipcode (9 values) sensitive, c = 0.9")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


# ------------------------------------------------------------------ driver
def machine() -> dict:
    """Where the runs ran: Python, cores, platform and physical memory (bytes)."""
    return {"python": platform.python_version(), "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "memory_bytes": os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, action="append", default=None)
    parser.add_argument("--timeout", type=float, default=3600.0,
                        help="seconds each job may take (default 3600)")
    parser.add_argument("--job", nargs=2, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--keep", action="store_true",
                        help="keep the Parquet files (default: delete them after the size)")
    parser.add_argument("--only", action="append", choices=["k_anonymize", *SETTINGS],
                        default=None, help="a job to run (repeatable; default all three); "
                        "the JSON keeps the others")
    parser.add_argument("--figure", action="store_true",
                        help="only redraw docs/figures/fig7.png from the JSON (and record "
                        "this machine's memory in it)")
    args = parser.parse_args(argv)
    if args.job:  # inside a subprocess
        print(json.dumps(job(*args.job)))
        return 0
    results = json.loads(RESULT.read_text()) if RESULT.exists() else {}
    results["machine"] = machine()
    if args.figure:  # the runs in the JSON were made here: record the machine's memory too
        write_json(RESULT, results)
        print(draw(results))
        return 0
    results["paper"] = ("Fig. 7: SkylineAnonymize time against records (up to 10^8) for "
                        "(0, 1000, 0) and (3, 1000, 10); Agrawal synthetic data, Zip-code "
                        "(9 values) sensitive, data larger than memory")
    results["settings"] = {**{k: list(v) for k, v in SETTINGS.items()}, "k_anonymize": K}
    for rows in args.rows or [1_000_000, 10_000_000]:
        folder, gen_s = generate(rows)
        old = results.get(f"rows{rows}", {})
        entry = {**old, "rows": rows, "generate_s": gen_s or old.get("generate_s", 0.0),
                 "parquet_bytes": disk_bytes(folder), "frame_bytes": frame_bytes(rows),
                 "files": len(list(folder.glob("*.parquet")))}
        for name in ["k_anonymize", *SETTINGS]:
            if args.only and name not in args.only:
                continue
            entry[name] = run_job(folder, name, args.timeout)
            print(rows, name, json.dumps(entry[name]), flush=True)
            results[f"rows{rows}"] = entry  # an interrupted run keeps the jobs it finished
            write_json(RESULT, results)
        for name in SETTINGS:
            a, b = entry.get(name, {}), entry.get("k_anonymize", {})
            if "seconds" in a and "seconds" in b:
                entry[name]["ratio_to_k_anonymize"] = a["seconds"] / b["seconds"]
        results[f"rows{rows}"] = entry
        for name in ["k_anonymize", *SETTINGS]:
            results.setdefault("exponent_time", {})[name] = exponent(results, name)
        write_json(RESULT, results)
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
        try:
            draw(results)
        except ImportError:
            print("matplotlib is not installed: docs/figures/fig7.png not redrawn")
    return 0


if __name__ == "__main__":
    sys.exit(main())
