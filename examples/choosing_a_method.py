"""Mondrian against full-domain search on Adult, with and without suppression, over k.

The figures of docs/choosing-a-method.md come from this script:

    python examples/choosing_a_method.py --json docs/figures/choosing.json \
        --plot docs/figures/choosing.png
    python examples/choosing_a_method.py --quick      # a smoke run: two k, a sample of Adult

For every k and suppression limit it releases the bundled Adult table (7 QIs with the bundled
ARX hierarchies, occupation as the sensitive column) twice, with
``skyprivacy.anonymize(method="mondrian", split="loss")`` and
``skyprivacy.anonymize(method="full-domain", objective="loss")``, and measures each release with
``skyprivacy.utility.utility_measures`` against the original: generalization loss (NCP, the
share of each QI's domain a released cell spans, suppressed rows charged 1), discernibility
(suppressed rows charged N), the number of classes and the rows suppressed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

from skyprivacy import anonymize
from skyprivacy.criteria import KAnonymity
from skyprivacy.datasets import load_adult, load_adult_hierarchies
from skyprivacy.utility import utility_measures

QI = ["age", "workclass", "education", "marital-status", "race", "sex", "native-country"]
SENSITIVE = "occupation"
KS = (2, 5, 10, 20, 50, 100)
LIMITS = (0.0, 0.01)
METHODS = ("mondrian", "full-domain")


def run(ks=KS, limits=LIMITS, rows: int | None = None) -> dict:
    """Every (method, limit, k) release of Adult and its utility."""
    table = load_adult()
    if rows is not None:
        table = table.sample(rows, random_state=0).reset_index(drop=True)
    hierarchies = {name: h for name, h in load_adult_hierarchies().items() if name in QI}
    unused = [c for c in table.columns if c not in [*QI, SENSITIVE]]  # not released
    out = []
    for method in METHODS:
        for limit in limits:
            for k in ks:
                options = ({"split": "loss"} if method == "mondrian"
                           else {"objective": "loss"})
                started = time.perf_counter()
                result = anonymize(table, qi=QI, sensitive=SENSITIVE,
                                   criteria=[KAnonymity(k)], method=method,
                                   suppression_limit=limit, hierarchies=hierarchies,
                                   drop=unused, **options)
                seconds = time.perf_counter() - started
                measures = utility_measures(result, table=table, qi=QI,
                                            hierarchies=hierarchies)
                out.append({"method": method, "suppression_limit": limit, "k": k,
                            "loss": float(measures.loss),
                            "discernibility": int(measures.discernibility),
                            "classes": int(measures.n_groups),
                            "suppressed": int(result.suppressed),
                            "levels": result.levels, "seconds": round(seconds, 3)})
                print(json.dumps(out[-1]), flush=True)
    return {"rows": len(table), "qi": QI, "sensitive": SENSITIVE, "runs": out}


def plot(results: dict, path: str) -> None:
    """Generalization loss against k, one line per method and suppression limit."""
    from skyprivacy.plotting import pyplot

    plt = pyplot("examples/choosing_a_method.py")
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for method in METHODS:
        for limit in sorted({r["suppression_limit"] for r in results["runs"]}):
            runs = [r for r in results["runs"]
                    if r["method"] == method and r["suppression_limit"] == limit]
            ax.plot([r["k"] for r in runs], [r["loss"] for r in runs],
                    marker="o" if method == "mondrian" else "s",
                    linestyle="-" if limit == 0 else "--",
                    label=f"{method}, {limit:.0%} suppressed at most")
    ax.set_xscale("log")
    ax.set_xlabel("k")
    ax.set_ylabel("generalization loss (NCP; lower is better)")
    ax.set_title(f"Adult ({results['rows']:,} rows, {len(results['qi'])} QIs): k-anonymity")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="k = 5, 50 on 5,000 rows")
    parser.add_argument("--json", help="write the results to this file")
    parser.add_argument("--plot", help="draw the figure to this PNG file")
    args = parser.parse_args(argv)
    results = run(ks=(5, 50), rows=5000) if args.quick else run()
    if args.json:
        folder = os.path.dirname(os.path.abspath(args.json))
        with tempfile.NamedTemporaryFile("w", dir=folder, delete=False, suffix=".tmp") as tmp:
            json.dump(results, tmp, indent=2)
            tmp.write("\n")
        os.replace(tmp.name, args.json)
    if args.plot:
        plot(results, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
