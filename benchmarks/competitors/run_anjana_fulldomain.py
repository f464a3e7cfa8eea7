"""Competitor runner: anjana's full-domain k-anonymity (run in the competitors' venv), with
the hierarchy level it chose for every QI and the records it suppressed.

anjana's ``k_anonymity`` is ``k_anonymity_inner`` minus the levels: both generalize, one
level at a time, the QI with the most distinct values until the table is k-anonymous (after
suppressing the classes below k when they fit the suppression limit), all records of a column
at the same level (global recoding); it is greedy, not an optimal search.  This runner times
``k_anonymity_inner`` (the whole algorithm, from the frame in memory to the released frame).

Usage: python run_anjana_fulldomain.py TABLE.csv --qi a,b,c --k 5 --hierarchies DIR --supp 1
Hierarchy files DIR/<qi>.csv are ARX format (';'-separated, leaf first).  Prints one JSON
line: seconds, peak RSS, suppressed records, levels, groups.
"""
import argparse
import contextlib
import io
import json
import resource
import time
from pathlib import Path

import pandas as pd
from run_anjana import load_hierarchy  # one reader of ARX files into anjana's level dict


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("table")
    parser.add_argument("--qi", required=True)
    parser.add_argument("--k", type=int, required=True)
    parser.add_argument("--hierarchies", required=True)
    parser.add_argument("--supp", type=float, default=0.0, help="percent of records")
    args = parser.parse_args()
    from anjana.anonymity._k_anonymity import k_anonymity_inner
    qi = args.qi.split(",")
    df = pd.read_csv(args.table)
    hierarchies = {q: load_hierarchy(Path(args.hierarchies) / f"{q}.csv",
                                     numeric=df[q].dtype != object) for q in qi}
    with contextlib.redirect_stdout(io.StringIO()):  # anjana prints its progress
        start = time.perf_counter()
        out, suppressed, levels = k_anonymity_inner(df, [], qi, args.k, args.supp, hierarchies)
        seconds = time.perf_counter() - start
    sizes = out.groupby(qi, observed=True).size() if len(out) else pd.Series([], dtype=int)
    print(json.dumps({"tool": "anjana", "seconds": seconds,
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                      "suppressed": int(suppressed), "levels": {q: int(levels[q]) for q in qi},
                      "groups": int(len(sizes)),
                      "min_group_size": int(sizes.min()) if len(sizes) else None}))


if __name__ == "__main__":
    main()
