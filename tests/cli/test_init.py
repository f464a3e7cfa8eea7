"""skyprivacy/cli/__init__.py: ``main`` runs one command and turns what goes wrong into one
line on stderr and an exit code (2 usage, 3 input, 4 internal error, 130 interrupted, 141
closed pipe); library warnings become one line each."""
import os
import re

import pytest

from .helpers import DECISION, DECISIONS, RELEASE, run


@pytest.mark.parametrize("argv, message", [
    ([], r"skyprivacy: error: choose a command \(see --help\)"),
    (["transparency"], r"skyprivacy transparency: error: choose a command"),
    (["check", "released.csv", "--qi", "age", "--sensitive", "occupation"],
     "the following arguments are required: --policy"),
    (["check", "released.csv", "--qi", "age", "--group", "g", "--sensitive", "occupation",
      "--policy", "policy.toml"], "argument --group: not allowed with argument --qi"),
    (["find", "released.csv", "--qi", "age", "--sensitive", "occupation", "-c", "1.5"],
     r"argument -c/--confidence: must be in \(0, 1\], got '1.5'"),
    (["find", "released.csv", "--qi", "age,,sex", "--sensitive", "occupation", "-c", "0.5"],
     "argument --qi: expected comma-separated column names"),
    (["anonymize", "adult.csv", *RELEASE, "--policy", "policy.toml", "--output", "o.csv",
      "--hierarchy", "zip=bundled:adult"],
     r"--hierarchy is given for 'zip', which is not in --qi age,workclass,sex"),
    (["anonymize", "adult.csv", *RELEASE, "--policy", "policy.toml", "--output", "o.csv",
      "--hierarchy", "age"], "argument --hierarchy: expected COLUMN=SOURCE"),
    (["anonymize", "adult.csv", *RELEASE, "--policy", "policy.toml", "--output", "adult.csv"],
     "--output adult.csv would overwrite the input table"),
    (["anonymize", "adult.csv", *RELEASE, "--policy", "policy.toml", "--output", "o.csv",
      "--certificate", "o.csv"], "--output and --certificate name the same file o.csv"),
    (["check", "released.csv", "--qi", "age", "--sensitive", "age", "--policy",
      "policy.toml"], "the grouping columns, --sensitive and --individual must be distinct"),
    (["check", "released.csv", *RELEASE, "--policy", "policy.toml", "--semantics", "mvpi"],
     "argument --semantics: invalid choice: 'mvpi'"),
])
def test_usage_errors_exit_2(work, capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert re.search(message, err), err
    assert not os.path.exists("o.csv")


def test_library_warnings_become_one_line_each(work, capsys):
    (work / "dec.csv").write_text(DECISIONS + "X,<100k,1,0\n")
    code, _, err = run(capsys, "transparency", "check", "dec.csv", *DECISION, "--beta", "1")
    assert code == 0
    warning = [line for line in err.splitlines() if "warning:" in line]
    assert len(warning) == 1
    assert warning[0].startswith("skyprivacy transparency check: warning: ")


def test_an_internal_error_exits_4_with_the_traceback(work, capsys, monkeypatch):
    import skyprivacy.cli.release_commands as release_commands

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(release_commands, "skyline_check", broken)
    code, out, err = run(capsys, "check", "released.csv", *RELEASE, "--policy", "policy.toml",
                         "--certificate", "c.json")
    assert code == 4 and out == ""
    assert "Traceback" in err and "RuntimeError: boom" in err
    assert err.endswith("skyprivacy check: internal error; please report it with the traceback "
                        "above\n")
    assert not os.path.exists("c.json")

