"""Benchmark d of issue 24: utility against Airbnb's lighthouse on Adult, 7 QIs, k = 5, 10, 50,
100, measured in the same run.

lighthouse (``project-lighthouse-anonymize``, Core Mondrian, in the competitors' venv:
``SKYPRIVACY_COMPETITOR_PYTHON``, else ``benchmarks/.venv-competitors``) runs at its recommended
settings through ``competitors/run_lighthouse.py``; it decides itself how many rows to suppress
(at most 1%).  Ours: Mondrian (:func:`skyprivacy.anonymize`, k-anonymity, the ARX hierarchies
for the categorical QIs, age as numbers, ``split='loss'``: the candidate whose children lower
the generalization loss most first, with age cut on the side of its median value that leaves
the children closer in size) with a suppression budget of exactly the rows lighthouse
suppressed, and full-domain search (loss objective, the same budget).  Every release is
measured by the same code here, from the released table and the original rows:

* ``suppressed``: rows not released;
* ``discernibility_kept`` and ``discernibility_charged``:
  :func:`skyprivacy.utility.discernibility_value` of the released QI-groups (rows with the
  same released QI values), with no suppressed row charged, and with every suppressed row
  charged N (Bayardo and Agrawal 2005);
* ``loss``: :func:`skyprivacy.utility.generalization_loss` (NCP, Xu et al. 2006; ARX's Loss;
  a suppressed row charged 1) of each release's *group extents*: every kept row is released
  as its group's extent, age as the range of the group's original ages (age has no
  hierarchy: a range costs the ages it spans, in rank), a categorical QI as the lowest node
  of its ARX hierarchy above the group's original values; so releases that label groups
  differently (ranges, lighthouse's micro-aggregated means, hierarchy nodes above the
  extent) are measured alike;
* ``accuracy``: :func:`skyprivacy.utility.classification_accuracy` of a decision tree learning
  ``income`` from the released QI columns (10-fold cross-validation, seed 0).

Clock: lighthouse's ``k_anonymize`` call (trees in hand), ours ``anonymize`` (frame in memory to
the released table); neither includes the measurements.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

from skyprivacy.anonymize.api import anonymize
from skyprivacy.criteria import KAnonymity
from skyprivacy.datasets import adult_hierarchy_path, load_adult, load_adult_hierarchies
from skyprivacy.utility import (
    classification_accuracy,
    discernibility_value,
    generalization_loss,
)

HERE = Path(__file__).resolve().parent
RESULT = HERE / "results" / "optimal_utility.json"
QI = ["age", "workclass", "education", "marital-status", "race", "sex", "native-country"]
NUMERIC = ["age"]
TARGET = "income"
KS = (5, 10, 50, 100)
SPLIT = "loss"


def group_ids(released: pd.DataFrame, qi: list) -> np.ndarray:
    """The QI-group of every released row: rows with the same released QI values."""
    keys = released[qi].astype(str).agg("\x1f".join, axis=1)
    return pd.factorize(keys)[0]


def competitor_python() -> str:
    """The competitors' venv: ``SKYPRIVACY_COMPETITOR_PYTHON``, else the local one."""
    return os.environ.get("SKYPRIVACY_COMPETITOR_PYTHON") or str(
        HERE / ".venv-competitors" / "bin" / "python")


def extents(original: pd.DataFrame, group: np.ndarray, hierarchies: dict) -> pd.DataFrame:
    """Every kept row released as its group's extent (``original``: the kept rows' original
    values, aligned with ``group``; the index is kept): a numeric QI as the range of its
    group's values, a categorical one as the lowest node of its hierarchy above them."""
    frame = original[QI].copy()
    by = pd.Series(group, index=frame.index)
    for name in QI:
        values = frame[name]
        if name in NUMERIC:
            low = values.groupby(by).transform("min").astype(str)
            high = values.groupby(by).transform("max").astype(str)
            frame[name] = np.where(low == high, low, "[" + low + ", " + high + "]")
            continue
        hierarchy = hierarchies[name]
        label = pd.Series(None, index=frame.index, dtype=object)
        for level in range(hierarchy.height + 1):
            at = pd.Series(hierarchy.generalize(values.astype(object), level),
                           index=frame.index, dtype=object)
            one = at.groupby(by).transform("nunique") == 1
            pick = one & label.isna()
            label[pick] = at[pick]
        frame[name] = label
    return frame


def measure(table: pd.DataFrame, released: pd.DataFrame, rows: np.ndarray, hierarchies: dict,
            seconds: float) -> dict:
    """The measures of one release: ``released`` (QI columns) holds the kept rows, ``rows``
    their positions in ``table``."""
    n = len(table)
    group = group_ids(released, QI)
    sizes = np.bincount(group) if len(group) else np.zeros(0, dtype=np.int64)
    suppressed = n - len(released)
    learn = released[QI].reset_index(drop=True).copy()
    learn[TARGET] = table[TARGET].to_numpy()[rows]
    accuracy = classification_accuracy(learn, target=TARGET, features=QI, cv=10,
                                       random_state=0).accuracy
    categorical = {name: hierarchies[name] for name in QI if name not in NUMERIC}
    loss = generalization_loss(table, extents(table.iloc[rows], group, categorical), qi=QI,
                               hierarchies=categorical)
    return {"seconds": round(seconds, 3), "suppressed": int(suppressed),
            "groups": int(len(sizes)), "min_group": int(sizes.min()) if len(sizes) else None,
            "discernibility_kept": discernibility_value(sizes, n, 0),
            "discernibility_charged": discernibility_value(sizes, n, suppressed),
            "loss": round(float(loss.total), 6), "accuracy": round(float(accuracy), 5)}


def run_lighthouse(csv: Path, k: int, out: Path) -> dict:
    """lighthouse in the competitors' venv (one subprocess per k)."""
    hierarchy_dir = adult_hierarchy_path("age").parent
    done = subprocess.run(
        [competitor_python(), str(HERE / "competitors" / "run_lighthouse.py"), str(csv),
         "--qi", ",".join(QI), "--k", str(k), "--hierarchies", str(hierarchy_dir),
         "--out", str(out)], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def ours(table: pd.DataFrame, k: int, budget: int, method: str, hierarchies: dict) -> tuple:
    """One of our releases with a budget of ``budget`` rows: (released QI frame, kept row
    positions, seconds, result)."""
    given = ({name: h for name, h in hierarchies.items() if name in QI and name not in NUMERIC}
             if method == "mondrian" else {name: hierarchies[name] for name in QI})
    start = time.perf_counter()
    result = anonymize(table, keep_rest=True, qi=QI, sensitive=TARGET, criteria=[KAnonymity(k)],
                       method=method, suppression_limit=Fraction(budget, len(table)),
                       hierarchies=given, objective="loss", split=SPLIT)
    seconds = time.perf_counter() - start
    released = result.table
    rows = table.index.get_indexer(released.index)
    return released, rows, seconds, result


def run(ks=KS, lighthouse_outputs: Path | None = None) -> dict:
    """Every k: lighthouse, our Mondrian with lighthouse's number of suppressed rows, our
    full-domain search with the same budget; the ratios ours / lighthouse."""
    table = load_adult().reset_index(drop=True)
    hierarchies = load_adult_hierarchies()
    rows_out = []
    with tempfile.TemporaryDirectory() as tmp:
        csv = Path(tmp) / "adult.csv"
        table.to_csv(csv, index=False)
        for k in ks:
            if lighthouse_outputs is not None:  # a cached run (development only)
                out = lighthouse_outputs / f"k{k}.csv"
                info = json.loads((lighthouse_outputs / f"k{k}.json").read_text())
            else:
                out = Path(tmp) / f"lighthouse_k{k}.csv"
                info = run_lighthouse(csv, k, out)
            released = pd.read_csv(out, dtype={q: object for q in QI if q not in NUMERIC})
            rows = released["__row"].to_numpy()
            entry = {"k": k, "lighthouse": measure(table, released[QI], rows, hierarchies,
                                                   info["seconds"])}
            budget = entry["lighthouse"]["suppressed"]
            for method in ("mondrian", "full-domain"):
                mine, mine_rows, seconds, result = ours(table, k, budget, method, hierarchies)
                entry[method] = measure(table, mine, mine_rows, hierarchies, seconds)
                entry[method]["budget"] = budget
            lh, mo = entry["lighthouse"], entry["mondrian"]
            entry["mondrian_vs_lighthouse"] = {
                "discernibility_kept": round(mo["discernibility_kept"]
                                             / lh["discernibility_kept"], 4),
                "discernibility_charged": round(mo["discernibility_charged"]
                                                / lh["discernibility_charged"], 4),
                "loss": round(mo["loss"] / lh["loss"], 4),
                "accuracy_points": round(100 * (mo["accuracy"] - lh["accuracy"]), 2),
            }
            entry["target_met"] = (mo["discernibility_kept"] <= lh["discernibility_kept"]
                                   and mo["loss"] <= lh["loss"]
                                   and mo["accuracy"] >= lh["accuracy"])
            rows_out.append(entry)
            print(json.dumps(entry), flush=True)
    return {"benchmark": "d: utility against lighthouse on Adult", "qi": QI, "target": TARGET,
            "n_rows": len(table), "results": rows_out}


def main() -> int:
    """Run every k and write ``results/optimal_utility.json`` (atomically)."""
    sys.path.insert(0, str(HERE))
    from _common import write_json

    results = run()
    entries = results["results"]
    results.update({
        "machine": platform.platform(), "python": platform.python_version(),
        "targets": {"d_at_least_as_good_on_all_three": all(e["target_met"] for e in entries)},
        "clock": "lighthouse: its k_anonymize call (trees in hand; includes the metrics it "
                 "computes); ours: anonymize(), frame in memory to the released table; "
                 "measurements excluded"})
    write_json(RESULT, results)
    return 0
