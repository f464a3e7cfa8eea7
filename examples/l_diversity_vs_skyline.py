"""Is my l-diverse release actually safe? (issue 4, Sects. 5.1 and 8.3 of the paper)

Makes a recursive (c = 3, l = 6)-diverse release of UCI Adult with occupation sensitive (the
(4, 0, 0) point at 0.75, Prop. 4), confirms the (c, l)-diversity directly, then draws the
knowledge skyline of every occupation at confidence 0.95 and reports which values are
exposed by how little knowledge, with the attacker's worst case in words. The skyline of
"Exec-managerial" is printed next to the paper's Table 2.

QIs: the seven ARX attributes; the six categorical ones are generalized along the bundled ARX
hierarchies, age (which has one too) stays numeric and is split as a number.

Run:  python examples/l_diversity_vs_skyline.py [--confidence 0.95] [--plot skyline.png]
                                                 [--json docs/figures/table2.json]
--json also writes what it prints (the release, the Exec-managerial skyline, every value's
least breaching knowledge), which docs/skyline.md and docs/reproduction.md quote
(tests/test_docs_figures.py).
"""
import argparse
import json
import os
import tempfile
from pathlib import Path

from skyprivacy import compare_l_diversity, load_adult_hierarchies
from skyprivacy.datasets import load_adult

QI = ["age", "workclass", "education", "marital-status", "race", "sex", "native-country"]
PAPER_TABLE2 = [(0, 4, 0), (1, 3, 1), (2, 2, 2), (3, 1, 2), (2, 1, 3), (4, 0, 3), (3, 0, 4)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--confidence", type=float, default=0.95)
    parser.add_argument("--plot", help="write a picture of the Exec-managerial skyline here")
    parser.add_argument("--json", help="write the figures printed here to this file")
    args = parser.parse_args(argv)
    adult = load_adult()
    hierarchies = {k: v for k, v in load_adult_hierarchies().items() if k in QI and k != "age"}
    comparison = compare_l_diversity(adult, qi=QI, sensitive="occupation", diversity_c=3, l=6,
                                     c=args.confidence, hierarchies=hierarchies,
                                     drop=[c for c in adult.columns
                                           if c not in [*QI, "occupation"]])
    print(comparison.report())
    print()
    ours = comparison.skylines["Exec-managerial"].points
    print(f"Exec-managerial skyline at {args.confidence}: {list(ours)}")
    print(f"paper's Table 2:                      {PAPER_TABLE2}")
    print(f"in common: {sorted(set(ours) & set(PAPER_TABLE2))}")
    print()
    print(comparison.to_frame()[["value", "rank", "exposure", "least_breaching_knowledge",
                                 "n_skyline_points", "breach_probability_000"]].to_string(
        index=False))
    if args.json:
        frame = comparison.to_frame()
        data = {"confidence": args.confidence, "qi": QI, "hierarchies": sorted(hierarchies),
                "report_first_line": comparison.report().splitlines()[0],
                "exec_managerial_skyline": [list(p) for p in ours],
                "paper_table2": [list(p) for p in PAPER_TABLE2],
                "in_common": [list(p) for p in sorted(set(ours) & set(PAPER_TABLE2))],
                "values": [{"value": str(row.value), "exposure": int(row.exposure),
                            "least_breaching_knowledge": [int(x) for x in
                                                          row.least_breaching_knowledge]}
                           for row in frame.itertuples()]}
        path = Path(args.json)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")  # atomic: no half file
        with os.fdopen(fd, "w") as handle:
            json.dump(data, handle, indent=1)
        os.replace(tmp, path)
        print(f"written {path}")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        from skyprivacy import plot_skyline
        ax = plot_skyline(comparison.skylines["Exec-managerial"])
        ax.figure.savefig(args.plot, dpi=120, bbox_inches="tight")
        print(f"wrote {args.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
