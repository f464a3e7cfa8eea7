"""The fairness-query examples (examples/fairness_query_*.py): the reproduction module of the
paper's experiments, the example scripts and the benchmark smoke run (issue 7, items 4 and 6)."""

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples"))

from fairness_query_experiments import (PAPER_TABLE1, adult_race_task,  # noqa: E402
                                        error_scale_table, fit_logistic_regression, run_trial)


def run_script(*args, timeout=600):  # generous: the machine may be shared
    env = dict(os.environ, PYTHONWARNINGS="error::DeprecationWarning")
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=env, check=False)


def test_logistic_regression_reaches_the_penalised_optimum():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 4))
    y = (X @ [1.0, -2.0, 0.5, 0.0] + rng.logistic(size=300) > 0).astype(int)
    w = fit_logistic_regression(X, y, l2=2.0)
    Z = np.column_stack([np.ones(300), X])
    p = 1 / (1 + np.exp(-(Z @ w)))
    gradient = Z.T @ (p - y) + 2.0 * np.r_[0.0, w[1:]]
    assert np.abs(gradient).max() < 1e-8  # the first-order condition holds
    assert np.sign(w[1:3]).tolist() == [1.0, -1.0]


def test_adult_task_matches_the_spec_setup():
    task = adult_race_task(random_state=0)
    assert task.black_share == pytest.approx(0.0980, abs=5e-5)  # spec §8.1: 9.80%
    assert task.test_accuracy > 0.83
    assert task.a.size + task.n_train == 43131
    assert not task.scores.flags.writeable


def test_trial_scores_both_mechanisms_on_the_same_queries():
    rng = np.random.default_rng(2)
    a = np.ones(100, dtype=int)
    a[rng.choice(100, 10, replace=False)] = 0
    h0 = rng.uniform(0, 1, 100)
    exact = run_trial(h0, a, n_queries=40, random_state=5)
    assert exact.exact and exact.leakage == 100.0 and exact.mean_abs_error == 0.0
    ours = run_trial(
        h0, a, n_queries=40, mechanism="attribute_conceal", epsilon=5.0, random_state=5
    )
    lap = run_trial(h0, a, n_queries=40, mechanism="laplace", epsilon=5.0, random_state=5)
    assert not ours.exact and ours.median_abs_error > lap.median_abs_error  # spec §7.7
    assert ours.to_dict()["mechanism"] == "attribute_conceal"
    table = error_scale_table([(100, 10, 25, 5), (100, 10, 25, 100)])
    assert table["cauchy scale"].round(4).tolist() == [11.721, 0.1665]
    assert table["paper err Ours (x1e-3)"].tolist() == [10.9, 0.05]
    assert len(PAPER_TABLE1) == 16 and PAPER_TABLE1[(1000, 400, math.inf)][2] == 100


def test_audit_example_runs_on_bundled_adult():
    done = run_script("examples/fairness_query_audit.py", "--quick")
    assert done.returncode == 0, done.stderr
    assert "Compressed sensing (Algorithm 2, basis pursuit): 41 queries, Leakage 100.0%" in \
        done.stdout
    assert "Attribute-Conceal beats Laplace here never" in done.stdout


def test_reproduction_example_quick_run(tmp_path):
    target = tmp_path / "report.md"
    done = run_script("examples/fairness_query_reproduce.py", "--quick", "--output",
                      str(target), "--json", str(tmp_path / "report.json"))
    assert done.returncode == 0, done.stderr
    text = target.read_text()
    assert text == done.stdout
    assert "## Table 1 (Adult)" in text and "| 100 | 40 | inf | 11 |" in text
    assert "| 100 | 10 | 25 | inf |" in text  # no crossover in the paper's n = 100 setting
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["quick"] is True and report["sections_done"][-1] == "crossover"
    assert report["crossover"]["rows"][0]["crossover epsilon"] == math.inf
    # every run is kept: 8 quick Table 1 cells x 2 mechanisms x 1 run
    assert len(report["table1"]["trials"]) == 16 and report["table1"]["runs"] == 1
    assert {t["mechanism"] for t in report["table1"]["trials"]} == \
        {"attribute_conceal", "laplace", "none"}


def test_figures_example_quick_run(tmp_path):
    done = run_script("examples/fairness_query_figures.py", "--quick", "--parts",
                      "fig3,fig2,table2", "--json", str(tmp_path / "figs.json"),
                      "--figures", str(tmp_path))
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "figs.json").read_text())
    assert report["parts_done"] == ["fig3", "fig2", "table2"]
    fig3 = report["fig3"]
    assert fig3["leakage_noiseless"] == 100.0  # Fig. 3: 60 Bernoulli queries recover N_0 = 10
    assert len(fig3["s_true"]) == 1000 and len(fig3["sp_answered"]) == 60
    assert fig3["cauchy_scale"] == pytest.approx(0.363633, rel=1e-5)  # spec T4 row 8
    assert report["table2"]["rows"][0]["epsilon"] == 100.0
    for name in ("fairness_fig2.png", "fairness_fig3.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_benchmark_quick_run_writes_ratios(tmp_path):
    target = tmp_path / "bench.json"
    done = run_script("benchmarks/bench_fairness_queries.py", "--quick", "--output",
                      str(target))
    assert done.returncode == 0, done.stderr
    report = json.loads(target.read_text())
    assert report["schema_version"] == 1 and report["quick"] is True
    cs = report["cs_attack"]
    assert cs["l1"]["recovered_all"] is True
    assert cs["ratios"]["queries_n_plus_1_over_cs"] > 1
    assert cs["n_plus_1"]["queries_used"] == cs["n"] + 1
    mech = report["mechanisms"]
    for regime in ("batched", "sequential"):
        entry = mech[regime]
        assert entry["queries"] == 10_000
        for name in ("conceal", "laplace"):  # the noise has the closed-form median
            assert entry[name]["median_abs_error"] == \
                pytest.approx(entry[name]["expected_median_abs_error"], rel=0.1)
    # spec §7.7: Laplace wins for big batches, Attribute-Conceal for single queries here
    assert mech["batched"]["ratios"]["median_error_conceal_over_laplace"] > 1
    assert mech["sequential"]["ratios"]["median_error_conceal_over_laplace"] < 1
