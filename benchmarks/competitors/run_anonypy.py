"""Competitor runner: anonypy's Mondrian k-anonymity on a CSV (run in the competitors' venv).

Usage: python run_anonypy.py TABLE.csv --qi a,b,c --sensitive s --k 5
Prints one JSON line: seconds (partitioning + anonymized output), peak RSS, groups, average
group size. anonypy treats columns of dtype 'category' as categorical (split by halves of the
value set) and others as numeric (split at the median).
"""
import argparse
import json
import resource
import time

import pandas as pd


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("table")
    parser.add_argument("--qi", required=True)
    parser.add_argument("--sensitive", required=True)
    parser.add_argument("--k", type=int, required=True)
    args = parser.parse_args()
    import anonypy
    qi = args.qi.split(",")
    df = pd.read_csv(args.table)
    for column in qi + [args.sensitive]:
        if df[column].dtype == object:
            df[column] = df[column].astype("category")
    start = time.perf_counter()
    preserver = anonypy.Preserver(df, qi, args.sensitive)
    rows = preserver.anonymize_k_anonymity(k=args.k)
    seconds = time.perf_counter() - start
    out = pd.DataFrame(rows)
    for column in qi:  # anonypy returns each generalized value as a one-element list
        out[column] = out[column].map(lambda v: v[0] if isinstance(v, list) else v)
    sizes = out.groupby(qi, observed=True)["count"].sum()
    print(json.dumps({"tool": "anonypy", "version": getattr(anonypy, "__version__", "?"),
                      "seconds": seconds,
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                      "groups": int(len(sizes)), "records": int(sizes.sum()),
                      "average_group_size": float(sizes.mean()),
                      "min_group_size": int(sizes.min())}))


if __name__ == "__main__":
    main()
