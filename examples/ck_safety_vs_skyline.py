"""(c, k)-safety against the privacy skyline on the l-diverse Adult release (Sects. 3, 5.1, 8.3)

The skyline paper's comparator is Martin et al.'s (c, k)-safety: the attacker knows k basic
implications.  Sect. 8.3 argues on a recursive (c = 3, l = 6)-diverse Adult release that
l-diversity "has similar behavior to (c, k)-safety" and that such a release can still be
unsafe.  This script takes the release of Table 2 (the same call as
examples/l_diversity_vs_skyline.py), computes its exact worst-case disclosure under k basic
implications for k = 0..8 with skyprivacy.baselines.ck_safety, and sets it beside

- the skyline's (l, 0, m) slice with l + m = k (each of those atoms is one basic implication,
  so it bounds the disclosure from below), maximized over every occupation;
- the (c, k)-safety verdicts at c = 3/4 (the Prop. 4 confidence c/(c+1) of (3, 6)-diversity)
  and at 0.95 (Table 2's confidence);
- the least knowledge that breaches "Exec-managerial" at 0.95 on the skyline, and what it costs
  in basic implications (|S| - 1 = 13 per individual whose value is known, Sect. 5.1).

Run:  python examples/ck_safety_vs_skyline.py [--json docs/figures/ck_safety.json]
docs/reproduction.md and docs/baselines.md quote the JSON (tests/test_ck_safety_figures.py).
"""
import argparse
import json
import os
import tempfile
from fractions import Fraction
from pathlib import Path

from skyprivacy import breach_probability, compare_l_diversity, load_adult_hierarchies
from skyprivacy.baselines import ck_safety, recursive_cl_diversity
from skyprivacy.datasets import load_adult

QI = ["age", "workclass", "education", "marital-status", "race", "sex", "native-country"]
KS = range(9)
CONFIDENCES = (Fraction(3, 4), Fraction(95, 100))
VALUE = "Exec-managerial"


def text(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}" if x.denominator != 1 else str(x.numerator)


def compute() -> dict:
    adult = load_adult()
    hierarchies = {k: v for k, v in load_adult_hierarchies().items() if k in QI and k != "age"}
    comparison = compare_l_diversity(adult, qi=QI, sensitive="occupation", diversity_c=3, l=6,
                                     c=0.95, hierarchies=hierarchies,
                                     drop=[c for c in adult.columns
                                           if c not in [*QI, "occupation"]])
    release = comparison.anonymization.candidate
    n_values = len(release.values)
    rows = []
    for k in KS:
        result = ck_safety(release, c=1, k=k)
        slice_bp, slice_point = max(
            (breach_probability(release, value, l=l, k=0, m=k - l, exact=True), (l, 0, k - l))
            for value in release.values for l in range(k + 1))
        rows.append({"k": k, "disclosure": text(result.disclosure),
                     "disclosure_float": float(result.disclosure),
                     "worst_value": str(result.worst_value),
                     "implications": [[str(who), str(value)]
                                      for who, value in result.implications],
                     "skyline_slice": text(slice_bp), "skyline_slice_point": list(slice_point)})
    safe_up_to = {}
    for c in CONFIDENCES:
        safe = [row["k"] for row in rows if Fraction(row["disclosure"]) < c]
        safe_up_to[text(c)] = max(safe) if safe else -1
    diversity = recursive_cl_diversity(release, diversity_c=3, l=6)
    skyline = comparison.skylines[VALUE]
    l, k, m = skyline.least_breach
    k_axis = max(p[1] for p in skyline.points if p[0] == 0 and p[2] == 0)
    return {
        "release": {"groups": release.n_groups,
                    "average_size": round(comparison.anonymization.average_group_size, 1),
                    "values": n_values, "cl_diverse_3_6": diversity.safe,
                    "prop4_bp_400": text(max(breach_probability(release, v, l=4, k=0, m=0,
                                                                exact=True)
                                             for v in release.values))},
        "rows": rows,
        "largest_safe_k": safe_up_to,
        "exec_managerial": {"skyline": [list(p) for p in skyline.points],
                            "least_breach": [l, k, m],
                            "basic_implications": l + m + (n_values - 1) * k,
                            "k_axis_safe": k_axis,
                            "k_axis_breach_implications": (n_values - 1) * (k_axis + 1)},
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the figures printed here to this file")
    args = parser.parse_args(argv)
    data = compute()
    r = data["release"]
    print(f"release: {r['groups']} QI-groups, average size {r['average_size']}, "
          f"recursive (3, 6)-diverse: {r['cl_diverse_3_6']}, BP(4, 0, 0) = {r['prop4_bp_400']}")
    print(f"{'k':>2}  {'(c, k) disclosure':>22}  {'skyline (l, 0, m), l + m = k':>30}  worst")
    for row in data["rows"]:
        point = tuple(row["skyline_slice_point"])
        print(f"{row['k']:>2}  {row['disclosure']:>13} = {row['disclosure_float']:.4f}  "
              f"{row['skyline_slice']:>20} at {point}  {row['worst_value']}")
    for c, k in data["largest_safe_k"].items():
        print(f"(c, k)-safe at c = {c} for k <= {k}")
    e = data["exec_managerial"]
    print(f"{VALUE} at 0.95: skyline {e['skyline']}; least breach {tuple(e['least_breach'])} "
          f"= {e['basic_implications']} basic implications; on the k axis safe up to "
          f"(0, {e['k_axis_safe']}, 0), breached by the values of {e['k_axis_safe'] + 1} "
          f"individuals = {e['k_axis_breach_implications']} basic implications")
    if args.json:
        path = Path(args.json)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1)
            out.write("\n")
        os.replace(tmp, path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
