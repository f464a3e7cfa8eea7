"""The transparency paper's demonstrations (examples/transparency_paper.py, spec 6 and 7) and
the runnable example scripts."""

import json
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from skyprivacy.errors import InvalidParameterError, SchemaError
from skyprivacy.transparency import confidence

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))

from transparency_paper import (  # noqa: E402 - the examples folder is not a package
    credit_card_table,
    demo_fairness_leak,
    demo_qii_leak,
    demo_section8,
    demo_surrogate_leak,
    infer_rules_from_fairness,
    qii,
)


def test_section8_demo_numbers():
    demo = demo_section8()
    assert demo.result.beta_star == F(27, 40)
    assert demo.region.beta_min == F(3, 5) and demo.region.c_star == 1
    assert demo.fairness_true.measure("statistical_parity").value == pytest.approx(0.225)
    assert demo.fairness_announced.measure("statistical_parity").value == pytest.approx(0.165)
    assert demo.confidence_announced.loc[0, 0] == F(27, 40)
    payload = json.loads(json.dumps(demo.to_dict()))
    assert payload["beta_star_exact"] == "27/40"
    assert payload["announced"] == pytest.approx([0.1, 0.02, 0.9, 0.1, 0.4, 0.9])


def test_surrogate_leak_numbers():
    """spec 7.1: 1.0 for a female holder, 0.035/0.0965 = 0.3627 for a male one."""
    demo = demo_surrogate_leak()
    assert demo.conf("F", 1, ">200k") == 1.0
    assert demo.conf("M", 1, ">200k") == pytest.approx(0.035 / 0.0965, abs=1e-12)
    assert round(demo.conf("M", 1, ">200k"), 4) == 0.3627
    assert demo.conf("F", 0, "<100k") == pytest.approx(0.9423, abs=5e-5)  # denied applicants
    assert demo.conf("M", 0, "<100k") == pytest.approx(0.9319, abs=5e-5)
    assert demo.conf("F", 1, ">200k", protected=True) < 1.0
    assert demo.channels["conf_protected"].max() <= demo.beta_star + 1e-9
    assert json.dumps(demo.to_dict())
    by_population = confidence(credit_card_table("population"))
    assert by_population.loc[5, 1] == pytest.approx(5 / 14)  # population counts instead: 0.3571


def test_fairness_leak_reproduces_table2_and_marys_inference():
    demo = demo_fairness_leak()
    assert demo.approval_rates == pytest.approx({"F": 2 / 150, "M": 0.1})
    assert demo.statistical_parity == pytest.approx(0.0866667, abs=5e-8)
    assert demo.conditional_parity == {"<100k": 0.0, "100k-200k": 0.5, ">200k": 0.0}
    wrong, right = demo.inference.patterns
    assert wrong.signs == {"100k-200k": 1} and not wrong.feasible
    assert "rate equation 2 needs 0.1615 but reaches only [0.0615, 0.1580]" in wrong.reason
    assert right.signs == {"100k-200k": -1} and right.feasible
    assert right.solution[("F", "100k-200k")] == pytest.approx(0.00674, abs=5e-6)  # paper: 0.0088
    assert right.solution[("F", ">200k")] == pytest.approx(1.07630, abs=5e-6)  # paper: 1.0692
    assert right.per_equation == pytest.approx({1: 0.0228, 2: 0.0285}, abs=5e-5)
    rule = demo.inference.rule
    assert rule[("F", "<100k")] == 0 and rule[("M", "<100k")] == 0
    assert rule[("F", ">200k")] == 1 and rule[("M", ">200k")] == 1
    assert rule[("F", "100k-200k")] == pytest.approx(0.0, abs=0.03)
    assert rule[("M", "100k-200k")] == pytest.approx(0.5, abs=0.03)
    assert json.dumps(demo.to_dict())


def test_rule_inference_errors():
    with pytest.raises(InvalidParameterError,
                       match=r"The 'rates' parameter of infer_rules_from_fairness must "
                       r"map the two groups to their approval rates\. Got \{'F': 0\.1\} instead\."):
        infer_rules_from_fairness({"F": 0.1}, {}, {}, {})
    with pytest.raises(InvalidParameterError,
                       match=r"The 'side_info' parameter of infer_rules_from_fairness "
                       r"must give P\(W \| Y\) for every group and stratum\. Got \"no entry for "
                       r"\('F', 'lo'\)\" instead\."):
        infer_rules_from_fairness({"F": 0.1, "M": 0.2}, {"lo": 0.1}, {}, {})


def test_qii_leak_identity_and_protection():
    demo = demo_qii_leak()
    assert demo.method1_difference == 1.0  # I(S;W1) - I(S;W0) = P(c=1|W1) - P(c=1|W0)
    assert demo.method1_w1 - demo.method1_w0 == pytest.approx(1.0, abs=1e-12)
    assert demo.method2_q == pytest.approx(1.0, abs=1e-12)  # Q = I(A9) / P(U_A9 = f)
    assert demo.method2_a9 == pytest.approx(demo.p_a9_false, abs=1e-12)
    assert demo.conf_published == 1.0
    assert demo.conf_protected <= demo.beta_star < 1.0
    assert 0 < demo.difference_protected < 1.0
    assert demo_qii_leak().to_dict() == demo.to_dict()  # fixed seed: reproducible


def test_qii_monte_carlo_matches_the_exact_average():
    data = pd.DataFrame({"x": np.arange(100) % 10, "y": np.arange(100) % 3})

    def model(frame):
        return (frame["x"] >= 5).to_numpy(dtype=float)

    where = (data["x"] >= 5).to_numpy()
    exact = qii(model, data, "x", where=where)
    assert exact == pytest.approx(0.5)
    sampled = qii(model, data, ["x"], where=where, n_samples=4000, random_state=1)
    assert sampled == pytest.approx(exact, abs=0.03)
    assert qii(model, data, "x", where=where, n_samples=50, random_state=7) == \
        qii(model, data, "x", where=where, n_samples=50, random_state=np.random.default_rng(7))
    with pytest.raises(SchemaError,
                       match=r"^Column 'z' is not in the table; columns are \['x', 'y'\]\.$"):
        qii(model, data, "z", where=where)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'n_samples' parameter of qii must be a positive "
                       r"integer or None\. Got 0 instead\."):
        qii(model, data, "x", where=where, n_samples=0)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'where' parameter of qii must be a non-empty boolean "
                       r"mask over the data's rows\."):
        qii(model, data, "x", where=np.zeros(100, dtype=bool))


def test_credit_card_table_weight_names():
    with pytest.raises(InvalidParameterError,
                       match=r"The 'weight' parameter of credit_card_table must be one "
                       r"of \['population', 'census', 'section8'\]\. Got 'counts' instead\."):
        credit_card_table("counts")


@pytest.mark.parametrize("script, expected", [
    ("transparency_section8.py", ["beta* = 27/40 = 0.675000", "[0.1, 0.02, 0.9, 0.1, 0.4, 0.9]",
                                  "beta-check at beta*: True"]),
    ("transparency_leaks.py", ["confidence 1.0000 (prior 0.012)", "confidence 0.3627 (prior 0.035)",
                               "statistical-parity bias: 0.0866667", "ruled out",
                               "difference = P(c=1|W1) - P(c=1|W0) = 1.0"]),
])
def test_example_scripts_run(script, expected):
    done = subprocess.run([sys.executable, str(ROOT / "examples" / script)], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    for text in expected:
        assert text in done.stdout
