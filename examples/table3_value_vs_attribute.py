"""Value-centric vs attribute-centric policies on Adult (Table 3 of the paper, issue 3).

Anonymizes Adult (occupation sensitive, svpi, bucketized output, information-gain splits)
once under the value-centric policy of Table 3 and once under the attribute-centric one that
protects every value like the most sensitive, and prints the average QI-group size and the
KL-divergence of Sect. 8.4 next to the paper's figures (79.45 vs 1585; 1.280 vs 1.869).

Run:  python examples/table3_value_vs_attribute.py [--all-attributes] [--arx]
      python examples/table3_value_vs_attribute.py --json docs/figures/table3.json

--all-attributes uses the 13 attributes other than occupation and income as QIs (closest to
the paper, which anonymizes on all demographic attributes); --arx generalizes the six
categorical QIs along the bundled ARX hierarchies instead of splitting their sorted values
(age has an ARX hierarchy too, but stays numeric and is split as a number).  --json runs the
three settings (7 QIs; 7 QIs with --arx; --all-attributes) and writes what each prints to one
JSON file, which docs/skyline.md and docs/reproduction.md quote (tests/test_docs_figures.py).
"""
import argparse
import json
import os
import tempfile
from pathlib import Path

from skyprivacy import Policy, kl_divergence, load_adult_hierarchies, skyline_anonymize
from skyprivacy.datasets import load_adult

QI7 = ["age", "workclass", "education", "marital-status", "race", "sex", "native-country"]
VALUE_CENTRIC = Policy({"Armed-Forces": [(5, 10, 5, 0.7)],
                        "Exec-managerial": [(4, 10, 4, 0.9)],
                        "Protective-serv": [(3, 8, 3, 0.9)]}, default=[(1, 5, 1, 0.9)])
ATTRIBUTE_CENTRIC = Policy.uniform([(5, 10, 5, 0.7)])
PAPER = {"value-centric": (79.45, 1.280), "attribute-centric": (1585, 1.869)}


SETTINGS = {"7": {"all_attributes": False, "arx": False},
            "7arx": {"all_attributes": False, "arx": True},
            "13": {"all_attributes": True, "arx": False}}


def run(*, all_attributes: bool, arx: bool) -> dict:
    """Both policies under one QI setting: groups, average group size, KL-divergence."""
    adult = load_adult()
    qi = ([c for c in adult.columns if c not in ("occupation", "income")]
          if all_attributes else QI7)
    hierarchies = ({k: v for k, v in load_adult_hierarchies().items() if k in qi and k != "age"}
                   if arx else {})
    out = {"qi": qi, "hierarchies": sorted(hierarchies), "policies": {}}
    for name, policy in (("value-centric", VALUE_CENTRIC),
                         ("attribute-centric", ATTRIBUTE_CENTRIC)):
        result = skyline_anonymize(adult, qi=qi, sensitive="occupation", policy=policy,
                                   hierarchies=hierarchies, output="bucketized",
                                   random_state=0, drop=[c for c in adult.columns
                                                         if c not in [*qi, "occupation"]])
        out["policies"][name] = {
            "groups": int(result.candidate.n_groups),
            "average_group_size": float(result.average_group_size),
            "kl_divergence": float(kl_divergence(adult, result.assignment, qi=qi,
                                                 sensitive="occupation")),
            "certified_safe": bool(result.certificate.safe)}
    return out


def report(setting: dict) -> str:
    lines = [f"QIs: {setting['qi']}; hierarchies: {setting['hierarchies'] or 'none'}",
             f"{'policy':<18} {'groups':>7} {'avg size':>9} {'KL':>7}   paper: avg size, KL"]
    for name, got in setting["policies"].items():
        paper_size, paper_kl = PAPER[name]
        lines.append(f"{name:<18} {got['groups']:>7} {got['average_group_size']:>9.2f} "
                     f"{got['kl_divergence']:>7.3f}   {paper_size}, {paper_kl}  "
                     f"(certified safe: {got['certified_safe']})")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all-attributes", action="store_true",
                        help="use the 13 attributes other than occupation and income as QIs")
    parser.add_argument("--arx", action="store_true",
                        help="generalize the categorical QIs along the bundled ARX hierarchies")
    parser.add_argument("--json", help="run all three settings and write them to this file")
    args = parser.parse_args(argv)
    if not args.json:
        print(report(run(all_attributes=args.all_attributes, arx=args.arx)))
        return 0
    results = {"paper": {name: {"average_group_size": size, "kl_divergence": kl}
                         for name, (size, kl) in PAPER.items()}, "settings": {}}
    for key, options in SETTINGS.items():
        results["settings"][key] = run(**options)
        print(report(results["settings"][key]))
    path = Path(args.json)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")  # atomic: no half file
    with os.fdopen(fd, "w") as handle:
        json.dump(results, handle, indent=1)
    os.replace(tmp, path)
    print(f"written {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
