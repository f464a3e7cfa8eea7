"""Competitor runner: anjana's k-anonymity (full-domain generalization over the ARX
hierarchies, with record suppression) on a CSV (run in the competitors' venv).

Usage: python run_anjana.py TABLE.csv --qi a,b,c --k 5 --hierarchies DIR --supp 0
Hierarchy files DIR/<qi>.csv are ARX format (';'-separated, leaf first). Prints one JSON
line: seconds, peak RSS, suppressed records, groups, average group size.
"""
import argparse
import json
import resource
import time
from pathlib import Path

import pandas as pd


def load_hierarchy(path: Path, numeric: bool) -> dict:
    frame = pd.read_csv(path, sep=";", header=None, dtype=str)
    levels = {i: frame[i].to_numpy() for i in frame.columns}
    if numeric:
        levels[0] = frame[0].astype(int).to_numpy()
    return levels


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("table")
    parser.add_argument("--qi", required=True)
    parser.add_argument("--k", type=int, required=True)
    parser.add_argument("--hierarchies", required=True)
    parser.add_argument("--supp", type=float, default=0.0)
    args = parser.parse_args()
    import anjana.anonymity as anonymity
    qi = args.qi.split(",")
    df = pd.read_csv(args.table)
    hierarchies = {q: load_hierarchy(Path(args.hierarchies) / f"{q}.csv",
                                     numeric=df[q].dtype != object) for q in qi}
    start = time.perf_counter()
    out = anonymity.k_anonymity(df, [], qi, args.k, args.supp, hierarchies)
    seconds = time.perf_counter() - start
    sizes = out.groupby(qi, observed=True).size()
    print(json.dumps({"tool": "anjana", "seconds": seconds,
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                      "suppressed": int(len(df) - len(out)),
                      "groups": int(len(sizes)), "records": int(sizes.sum()),
                      "average_group_size": float(sizes.mean()) if len(sizes) else None,
                      "min_group_size": int(sizes.min()) if len(sizes) else None}))


if __name__ == "__main__":
    main()
