"""Regenerate Figs. 8 and 9 of the privacy-skyline paper (Sect. 8.4): utility against each
dimension of adversarial knowledge.

* Fig. 8 (Adult, occupation sensitive, c = 0.9): average QI-group size (8a, 8c) and
  KL-divergence (8b, 8d) of the SkylineAnonymize release that is safe for every value at
  (l, k, m), varying one dimension from the base (0, 0, 0) (8a, 8b) and from (2, 6, 2)
  (8c, 8d).
* Fig. 9 (Nursery, has_nurs sensitive, class label "class"): ten-fold cross-validated
  accuracy of a decision tree trained on the release, against l, k and m, beside the two
  references of Sect. 8.4 (the original table; the table without the sensitive attribute).
  The paper does not name its Nursery QIs.  Nursery is a full factorial design (every
  combination of the 7 non-sensitive attributes occurs once with each has_nurs value), so
  with all 7 as QIs even the finest group holds every has_nurs value; the default run
  therefore takes the family's three demographic attributes (parents, form, children) as QIs
  and keeps the other four as exact, non-QI columns (``fig9.json``/``fig9.png``); ``--fig9-qi
  all`` repeats it with all 7 as QIs (``fig9_all_qi.json``/``.png``).  The tree is trained on
  every column but the class; each fold's accuracy is kept, so the page can say whether two
  curves differ by more than the folds do.

Setup as in Sect. 8.4: bucketized output, splits by information gain w.r.t. the sensitive
attribute, svpi; the QIs are every attribute other than the sensitive one and the class
label (the paper's "demographic attributes"), without hierarchies.  A point where even the
whole table is unsafe is recorded as infeasible (the paper: "when l >= 12 the release becomes
a single QI-group ... which may not even be safe").  Accuracy follows the paper's protocol:
each of the ten folds is anonymized on its 90% training part, a tree is trained on that
release and tested on the held-out 10% of original rows.

Run:  python examples/reproduce_figures.py [--out DIR] [--only 8,9] [--quick] [--fig9-qi all]
Writes fig8.json, fig8.png, fig9.json and fig9.png into DIR (default docs/figures).
"""
from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

import numpy as np

from skyprivacy import Policy, kl_divergence, skyline_anonymize
from skyprivacy.datasets import load_adult
from skyprivacy.errors import InfeasibleError

ROOT = Path(__file__).resolve().parents[1]
C = 0.9
AXES = {"l": list(range(0, 13)), "k": list(range(0, 13)), "m": list(range(0, 13))}
BASES = {"(0,0,0)": (0, 0, 0), "(2,6,2)": (2, 6, 2)}
#: Fig. 9's default QIs: the family's demographics; the other attributes stay exact.
NURSERY_QI = ["parents", "form", "children"]


def _point(base: tuple, dim: str, x: int) -> tuple:
    l, k, m = base
    return {"l": (x, k, m), "k": (l, x, m), "m": (l, k, x)}[dim]


def figure8(axes: dict) -> dict:
    """Average group size and KL-divergence of Adult releases for every point of the axes."""
    adult = load_adult()
    qi = [c for c in adult.columns if c not in ("occupation", "income")]
    out = {"dataset": "adult", "sensitive": "occupation", "qi": qi, "c": C, "curves": {}}
    for base_name, base in BASES.items():
        for dim, xs in axes.items():
            curve = []
            for x in xs:
                point = _point(base, dim, x)
                try:
                    result = skyline_anonymize(adult, qi=qi, sensitive="occupation",
                                               policy=Policy.uniform([(*point, C)]),
                                               output="bucketized", random_state=0,
                                               drop=[c for c in adult.columns
                                                     if c not in [*qi, "occupation"]])
                except InfeasibleError:
                    curve.append({"x": x, "point": list(point), "feasible": False})
                    continue
                kl = kl_divergence(adult, result.assignment, qi=qi, sensitive="occupation")
                curve.append({"x": x, "point": list(point), "feasible": True,
                              "groups": int(result.candidate.n_groups),
                              "average_group_size": float(result.average_group_size),
                              "kl_divergence": float(kl)})
                print("fig8", base_name, dim, x, curve[-1], flush=True)
            out["curves"][f"{base_name}:{dim}"] = curve
    return out


def figure9(axes: dict, folds: int = 10, qi: list | None = None) -> dict:
    """Ten-fold accuracy on Nursery releases, with the two references of Sect. 8.4."""
    from skyprivacy.datasets import load_nursery
    from skyprivacy.utility import classification_accuracy
    nursery = load_nursery()
    sensitive, target = "has_nurs", "class"
    qi = list(qi or [c for c in nursery.columns if c not in (sensitive, target)])
    features = [c for c in nursery.columns if c != target]
    rng = np.random.default_rng(0)
    fold_of = rng.permutation(np.arange(len(nursery)) % folds)

    def accuracy(point, table=nursery, columns=features):
        scores = []
        for f in range(folds):
            train, test = table[fold_of != f], table[fold_of == f]
            if point is None:
                release = train
            else:
                # the classifier's target and features are kept as they are (Sect. 8.4)
                release = skyline_anonymize(train, qi=qi, sensitive=sensitive,
                                            policy=Policy.uniform([(*point, C)]),
                                            output="bucketized", random_state=f,
                                            keep=[c for c in train.columns
                                                  if c not in [*qi, sensitive]]).table
            scores.append(float(classification_accuracy(release, target=target,
                                                        features=columns, test=test,
                                                        random_state=0).accuracy))
        return {"accuracy": float(np.mean(scores)), "fold_accuracies": scores}

    original = accuracy(None)
    without = accuracy(None, nursery.drop(columns=[sensitive]),
                       [c for c in features if c != sensitive])
    out = {"dataset": "nursery", "sensitive": sensitive, "target": target, "qi": qi,
           "features": features, "c": C, "folds": folds,
           "original": original["accuracy"], "original_folds": original["fold_accuracies"],
           "without_sensitive": without["accuracy"],
           "without_sensitive_folds": without["fold_accuracies"], "curves": {}}
    for dim, xs in axes.items():
        curve = []
        for x in xs:
            point = _point((0, 0, 0), dim, x)
            try:
                curve.append({"x": x, "point": list(point), "feasible": True,
                              **accuracy(point)})
            except InfeasibleError:
                curve.append({"x": x, "point": list(point), "feasible": False})
            print("fig9", dim, x, {k: v for k, v in curve[-1].items()
                                   if k != "fold_accuracies"}, flush=True)
        out["curves"][f"(0,0,0):{dim}"] = curve
    return out


def _plot(data: dict, measures: list, path: Path, title: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    bases = sorted({key.split(":")[0] for key in data["curves"]})
    fig, axes = plt.subplots(len(bases), len(measures), figsize=(5 * len(measures),
                                                                 3.6 * len(bases)),
                             squeeze=False)
    for row, base in enumerate(bases):
        for col, (measure, label) in enumerate(measures):
            ax = axes[row][col]
            for dim in "lkm":
                curve = [p for p in data["curves"].get(f"{base}:{dim}", []) if p["feasible"]]
                name = {"l": "(L, {1}, {2})", "k": "({0}, K, {2})", "m": "({0}, {1}, M)"}[dim]
                b = base.strip("()").split(",")
                # distinct markers and a small horizontal offset per dimension: curves that
                # coincide (Fig. 9's do at x = 1..3) must stay visible, not hide each other
                style = {"l": ("o", "-", -0.12), "k": ("s", "--", 0.0),
                         "m": ("^", ":", 0.12)}[dim]
                ax.plot([p["x"] + style[2] for p in curve], [p[measure] for p in curve],
                        marker=style[0], linestyle=style[1], markersize=5, fillstyle="none",
                        label=name.format(*b))
            for ref, style in (("original", "--"), ("without_sensitive", ":")):
                if measure == "accuracy" and ref in data:
                    ax.axhline(data[ref], linestyle=style, color="grey",
                               label=ref.replace("_", " "))
            if measure == "average_group_size":
                ax.set_yscale("log")
            ax.set_xlabel("amount of knowledge on the varied dimension")
            ax.set_ylabel(label)
            ax.set_title(f"base {base}")
            ax.legend(fontsize=8)
    fig.suptitle(title, fontsize=9 if "\n" in title else None)
    fig.tight_layout()
    _atomic(path, lambda tmp: fig.savefig(tmp, format="png", dpi=110))
    plt.close(fig)


def _atomic(path: Path, write) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "figures"))
    parser.add_argument("--only", default="8,9")
    parser.add_argument("--quick", action="store_true",
                        help="three points per axis and three folds (a smoke run)")
    parser.add_argument("--fig9-qi", choices=["demographic", "all"], default="demographic",
                        help="Fig. 9's QIs: parents, form, children (default) or all 7")
    args = parser.parse_args(argv)
    out = Path(args.out)
    axes = {d: xs[::6] for d, xs in AXES.items()} if args.quick else AXES
    if "8" in args.only.split(","):
        data = figure8(axes)
        _atomic(out / "fig8.json", lambda tmp: Path(tmp).write_text(json.dumps(data, indent=1)))
        _plot(data, [("average_group_size", "average QI-group size"),
                     ("kl_divergence", "KL-divergence")], out / "fig8.png",
              "Fig. 8: Adult, occupation sensitive, c = 0.9")
    if "9" in args.only.split(","):
        nursery_axes = dict(axes, l=[x for x in axes["l"] if x <= 3])
        qi, name = (None, "fig9_all_qi") if args.fig9_qi == "all" else (NURSERY_QI, "fig9")
        data = figure9(nursery_axes, folds=3 if args.quick else 10, qi=qi)
        _atomic(out / f"{name}.json",
                lambda tmp: Path(tmp).write_text(json.dumps(data, indent=1)))
        _plot(data, [("accuracy", "10-fold accuracy")], out / f"{name}.png",
              f"Fig. 9: Nursery, has_nurs sensitive, c = 0.9\nQIs: {', '.join(data['qi'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
