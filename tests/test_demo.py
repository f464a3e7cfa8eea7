"""The main job on the bundled data runs and reports both verdicts with worst cases, then the
command-line path (anonymize, check, verify) on Adult."""
import subprocess
import sys
from pathlib import Path

import pytest

DEMO = Path(__file__).resolve().parent.parent / "examples" / "demo.py"


@pytest.fixture(scope="module")
def demo_output():
    """What ``make demo`` prints: the script run once, as make runs it (the whole demo takes
    a while, so every test below reads this one run)."""
    done = subprocess.run([sys.executable, str(DEMO)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_demo_prints_verdicts_worst_cases_and_the_command_line_path(demo_output):
    text = demo_output
    assert "UCI Adult: 45,222 records" in text
    assert "Verdict: UNSAFE" in text and "Verdict: SAFE" in text
    assert "Worst cases of the failing checks:" in text
    assert "=== SkylineAnonymize under the Table 3 policy" in text
    assert "307 QI-groups (average 147.3); certificate: SAFE" in text
    assert "Knowledge skylines at c = 0.95, the three most exposed values:" in text
    assert "Exec-managerial" in text and "pinned down" in text
    # then the command line, run in-process on Adult
    assert "$ skyprivacy data adult --output adult.csv" in text
    assert ("$ skyprivacy anonymize adult.csv --qi age,workclass,sex --sensitive occupation "
            "--policy policy.toml") in text
    assert "skyprivacy anonymize: wrote out.csv, cert.json, report.html" in text
    assert "--format json\n  (summary of the JSON) schema_version 1, verdict safe" in text
    assert "VERIFIED: out.csv matches cert.json" in text
    assert "NOT VERIFIED: tampered.csv does not match cert.json" in text
    assert "differs: the certificate records 1/100, the table gives" in text
    assert "/tmp" not in text and "skyprivacy-demo-" not in text


def test_demo_runs_as_a_script(demo_output):
    assert "=== Release coarse" in demo_output
    assert "=== The command line: anonymize, check, verify" in demo_output


def test_demo_certifies_optimizes_and_verifies_a_decision_rule(demo_output):
    text = demo_output
    assert "=== A transparency report's decision rule: certify, optimize, verify" in text
    assert "UNSAFE: the true rule is not beta-private at beta = 0.9." in text
    assert "Optimal beta* = 0.675 under Delta(delta=0.9)" in text
    assert "skyprivacy transparency optimize: wrote announced.csv, announced.cert.json, " \
           "announced.html" in text
    assert "VERIFIED: announced.csv matches announced.cert.json" in text
    assert "NOT VERIFIED: edited.csv and rules.csv do not match announced.cert.json" in text
    assert "/tmp" not in text and "skyprivacy-demo-" not in text
