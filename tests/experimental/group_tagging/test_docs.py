"""docs/group_tagging.md is executable and quotes the Adult example's figures (issue 14, item
3): every doctest runs, and a full run of examples/group_tagging_adult.py reproduces every
figure the guide quotes."""
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from guides import run_guide

ROOT = Path(__file__).resolve().parents[3]
GUIDE = ROOT / "docs" / "group_tagging.md"
EXAMPLE = ROOT / "examples" / "group_tagging_adult.py"


def test_the_guide_examples_run():
    failures, attempted = run_guide(GUIDE.name)
    assert attempted >= 30 and failures == 0


def run_example(tmp_path, *flags) -> dict:
    out = tmp_path / "figures.json"
    done = subprocess.run([sys.executable, str(EXAMPLE), *flags, "--json", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "(a) re-linkage" in done.stdout and "(d) high_income count" in done.stdout
    return json.loads(out.read_text())


@pytest.fixture(scope="module")
def full_run(tmp_path_factory):
    return run_example(tmp_path_factory.mktemp("adult"))


def test_the_example_supports_the_guides_conclusions(full_run):
    r = full_run
    assert r["rows"] == 45222 and r["related"]["selected_at_0.5"] == []
    assert r["paper_epsilon"] < 0 and r["paper_is_dp_guarantee"] is False
    for b, rates in r["relinkage"].items():  # measured re-linkage follows the closed form
        if b != "guess_most_common_occupation":
            assert abs(rates["any_group"] - rates["expected_any_group"]) < 0.01
    anchored = r["risks"]["anchored"]
    assert anchored["original"] == anchored["fis"]  # nothing anchored changes
    shuffled = r["risks"]["shuffled"]
    assert not shuffled["fis"]["safe"]  # FIS does not make the release certifiable
    fair = r["fairness"]
    assert fair["same_predictions_on_fis_table"] is True
    assert fair["relation_impact_train"]["fpr_gap"] == 0.0
    for key in ("relation_impact", "relation_impact_scores"):
        assert fair[key]["fpr_gap"] < fair["base"]["fpr_gap"]
        assert fair[key]["fnr_gap"] < fair["base"]["fnr_gap"]
    assert fair["relation_impact_scores"]["error"] <= fair["relation_impact"]["error"]
    c = r["counts"]
    assert c["fis_count"] == c["true_count"]  # FIS releases the exact count
    errors = [c["laplace"][e]["mean_abs_error"] for e in ("0.01", "0.1", "1.0", "10.0")]
    assert errors == sorted(errors, reverse=True)
    for eps, figures in c["laplace"].items():  # Laplace: E|noise| = scale = 1 / epsilon
        assert figures["mean_abs_error"] == pytest.approx(1 / float(eps), rel=0.15)


def test_the_guide_quotes_the_full_run(full_run):
    text = GUIDE.read_text()
    r = full_run
    quoted = [f"eq. (3) gives {r['paper_epsilon']}",
              f"{r['batches']['Female']} batches of women and {r['batches']['Male']} of men",
              f"right for {r['relinkage']['guess_most_common_occupation']:.4f}"]
    for b in ("5", "20", "100"):
        x = r["relinkage"][b]
        quoted.append(f"| {b} | {x['any_group']:.4f} | {x['expected_any_group']:.4f} | "
                      f"{x['all_groups']:.5f} | {x['expected_all_groups']:.5f} | "
                      f"{x['occupation_correct']:.4f} |")
    for name, x in r["risks"].items():
        o, f = x["original"], x["fis"]
        quoted.append(
            f"| {name} | {', '.join(x['qi'])} | {x['sensitive']} | "
            f"{o['violations']}/{o['checks']} → {f['violations']}/{f['checks']} | "
            f"{o['values_breached_without_knowledge']} → "
            f"{f['values_breached_without_knowledge']} | {o['mean_exposure']} → "
            f"{f['mean_exposure']} | {o['groups']} → {f['groups']} |")
    for label, key in (("base", "base"), ("Relation Impact (labels)", "relation_impact"),
                       ("Relation Impact (scores)", "relation_impact_scores")):
        x = r["fairness"][key]
        quoted.append(f"| {label} | {x['fpr']['Female']:.3f} | {x['fpr']['Male']:.3f} | "
                      f"{x['fnr']['Female']:.3f} | {x['fnr']['Male']:.3f} | "
                      f"{x['fpr_gap']:.3f} | {x['fnr_gap']:.3f} | {x['error']:.3f} |")
    same = r["fairness"]["same_predictions_on_fis_table"]
    quoted.append(f"identical to those on the original: {same}")
    c = r["counts"]
    quoted.append(f"FIS releases {c['fis_count']}, the exact count")
    quoted.append(f"over {c['draws']} draws")
    for eps, x in c["laplace"].items():
        quoted.append(f"| {eps} | {x['mean_abs_error']} | {x['expected']} |")
    quoted.append(f"counts {c['exec_and_high_income']['original']} in the original and "
                  f"{c['exec_and_high_income']['fis']} in the FIS table")
    groups = [", ".join(g) for g in r["attribute_groups"]]
    quoted += [f"`{g}`" for g in groups]
    missing = [q for q in quoted if q not in text]
    assert missing == [], f"docs/group_tagging.md does not quote: {missing}"


def test_the_quick_run_works():
    spec = importlib.util.spec_from_file_location("group_tagging_adult", EXAMPLE)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)  # in-process: the full run above covers the CLI
    r = example.run(quick=True)
    assert r["quick"] is True and r["rows"] == 8000
    assert r["risks"]["anchored"]["original"] == r["risks"]["anchored"]["fis"]
    assert r["counts"]["fis_count"] == r["counts"]["true_count"]
    assert "(b) SkylineCheck" in example.report(r)
