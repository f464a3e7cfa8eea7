"""Competitor runner: Airbnb's lighthouse (``project-lighthouse-anonymize``, Core Mondrian)
k-anonymity on a CSV, at its recommended settings (run in the competitors' venv).

Usage: python run_lighthouse.py TABLE.csv --qi a,b,c --k 5 --hierarchies DIR --out OUT.csv

The categorical QIs get generalization trees built from the ARX hierarchy files
DIR/<qi>.csv (';'-separated, leaf first, root last); numeric QIs have none (lighthouse
micro-aggregates them).  Everything else is lighthouse's default: ``k_anonymize`` with its
default data-quality thresholds (``pct_non_suppressed`` 0.99, i.e. at most 1% of rows
suppressed), RILM cut scoring, median numeric cuts and no parallel workers (``parallelism``
None: one process, as our run).  Writes the released rows (with the ``__row`` id of each
input row) to OUT.csv and prints one JSON line: seconds (the ``k_anonymize`` call only: trees
in hand, metrics lighthouse computes inside included), peak RSS, rows in and out.
"""
import argparse
import json
import logging
import resource
import time
from pathlib import Path

import pandas as pd


def gtree_from_arx(path: Path):
    """A lighthouse GTree from an ARX hierarchy file: one node per distinct path prefix."""
    from project_lighthouse_anonymize.gtrees import GTree

    frame = pd.read_csv(path, sep=";", header=None, dtype=str, keep_default_na=False)
    tree = GTree()
    root = tree.create_node("*")
    nodes = {(): root}
    for row in frame.itertuples(index=False):
        path_top_down = list(reversed(list(row)))[1:]  # below the root '*'
        for depth in range(1, len(path_top_down) + 1):
            key = tuple(path_top_down[:depth])
            if key not in nodes:
                nodes[key] = tree.create_node(path_top_down[depth - 1],
                                              parent=nodes[key[:-1]])
    tree.add_default_geometric_sizes()
    tree.update_highest_node_with_value_if()
    tree.update_lowest_node_with_descendant_leaves_if()
    tree.update_descendant_leaf_values_if()
    return tree


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("table")
    parser.add_argument("--qi", required=True)
    parser.add_argument("--k", type=int, required=True)
    parser.add_argument("--hierarchies", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    from project_lighthouse_anonymize.wrappers.k_anonymize import k_anonymize

    qi = args.qi.split(",")
    df = pd.read_csv(args.table)
    df["__row"] = range(len(df))
    gtrees = {q: gtree_from_arx(Path(args.hierarchies) / f"{q}.csv")
              for q in qi if df[q].dtype == object}
    logger = logging.getLogger("lighthouse")
    logger.setLevel(logging.WARNING)
    start = time.perf_counter()
    anon, dq, _ = k_anonymize(logger, df, qi, args.k, gtrees, "__row", parallelism=None)
    seconds = time.perf_counter() - start
    anon[["__row", *qi]].to_csv(args.out, index=False)
    print(json.dumps({"tool": "lighthouse", "k": args.k, "seconds": seconds,
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                      "rows_in": len(df), "rows_out": len(anon),
                      "pct_non_suppressed": dq.get("pct_non_suppressed")}))


if __name__ == "__main__":
    main()
