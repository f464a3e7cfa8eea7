"""The installed ``skyprivacy`` console script (and ``python -m skyprivacy``), once per subcommand.

The exit code of the process must be the code ``main`` returns: 0, 1, 2 and 3 all occur here.
"""
import json
import os
import subprocess
import sys

import pytest
from cli.helpers import ORIGINAL, POLICY, RELEASE  # the CLI tests' policy and columns

SCRIPT = os.path.join(os.path.dirname(sys.executable), "skyprivacy")


def skyprivacy(folder, *argv):
    return subprocess.run([SCRIPT, *argv], cwd=folder, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    if not os.path.exists(SCRIPT):
        pytest.fail(f"The console script {SCRIPT} is missing; run pip install -e . in the "
                    f"environment.")
    folder = tmp_path_factory.mktemp("script")
    (folder / "policy.toml").write_text(POLICY)
    done = skyprivacy(folder, "data", "adult", "--sample", "1500", "--output", "adult.csv")
    assert done.returncode == 0, done.stderr
    assert done.stderr == "skyprivacy data: wrote adult.csv\n"
    done = skyprivacy(folder, "anonymize", "adult.csv", *ORIGINAL, "--policy", "policy.toml",
                      "--output", "out.csv", "--certificate", "cert.json")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("SAFE: all ")
    return folder


def test_check(folder):
    done = skyprivacy(folder, "check", "out.csv", *RELEASE, "--policy", "policy.toml",
                      "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["verdict"] == "safe"
    done = skyprivacy(folder, "check", "adult.csv", *ORIGINAL, "--policy", "policy.toml")
    assert done.returncode == 1 and done.stdout.startswith("UNSAFE: ")


def test_verify(folder):
    done = skyprivacy(folder, "verify", "out.csv", "--certificate", "cert.json")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("VERIFIED: out.csv matches cert.json")
    done = skyprivacy(folder, "verify", "adult.csv", "--certificate", "cert.json")
    assert done.returncode == 1
    assert done.stderr.startswith("skyprivacy verify: FAILED: The table does not match the "
                                  "certificate")


def test_find(folder):
    done = skyprivacy(folder, "find", "out.csv", *RELEASE, "-c", "0.9", "--values",
                      "Sales,Craft-repair", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert [s["value"] for s in json.loads(done.stdout)["skylines"]] != []


def test_compare(folder):
    done = skyprivacy(folder, "compare", "adult.csv", *ORIGINAL, "--k-anonymity", "4")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("The release is 4-anonymous")


def test_anonymize_input_error_and_usage_error(folder):
    done = skyprivacy(folder, "anonymize", "missing.csv", *RELEASE, "--policy", "policy.toml",
                      "--output", "x.csv")
    assert done.returncode == 3
    assert done.stderr == ("skyprivacy anonymize: error: Cannot read table 'missing.csv': No "
                           "such file or directory.\n")
    assert not (folder / "x.csv").exists()
    done = skyprivacy(folder, "anonymize", "adult.csv")
    assert done.returncode == 2 and "the following arguments are required" in done.stderr


def test_transparency(folder):
    (folder / "dec.csv").write_text("g,s,w,d\nF,a,2,0\nF,b,1,1\nM,a,1,0.5\nM,b,1,0.5\n")
    columns = ["--public", "g", "--sensitive", "s", "--weight", "w", "--decision", "d"]
    done = skyprivacy(folder, "transparency", "check", "dec.csv", *columns, "--beta", "0.9")
    assert done.returncode == 1 and done.stdout.startswith("UNSAFE")
    done = skyprivacy(folder, "transparency", "optimize", "dec.csv", *columns, "--delta", "0.5",
                      "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["schema_version"] == 1


def test_python_dash_m(folder):
    done = subprocess.run([sys.executable, "-m", "skyprivacy", "data", "adult-hierarchy", "sex"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "Male;*"
    done = subprocess.run([sys.executable, "-m", "skyprivacy", "--help"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("usage: skyprivacy ")


def test_a_closed_stdout_ends_quietly_with_141():
    process = subprocess.Popen([SCRIPT, "data", "adult"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    process.stdout.close()  # the reader has gone before the first byte (like `| head -0`)
    stderr = process.stderr.read()
    assert process.wait(timeout=120) == 141
    assert stderr == b""
