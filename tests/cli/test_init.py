"""skyprivacy/cli/__init__.py: ``main`` runs one command and turns what goes wrong into one
line on stderr and an exit code (2 usage, 3 input, 4 internal error, 130 interrupted, 141
closed pipe); library warnings become one line each."""
import os
import re
import sys
import warnings

import pytest

from skyprivacy.cli import EXIT_BROKEN_PIPE, main, parser
from skyprivacy.cli.context import Context
from skyprivacy.errors import (
    EngineError,
    InfeasibleError,
    PrivacyRiskWarning,
    SchemaError,
    SkyPrivacyWarning,
    UnusedPolicyValueWarning,
    UsageError,
)
from skyprivacy.io import InputError

from .helpers import DECISION, DECISIONS, RELEASE, run, ORIGINAL


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
    (["anonymize", "adult.csv", *ORIGINAL, "--policy", "policy.toml", "--output", "o.csv",
      "--hierarchy", "zip=bundled:adult"],
     r"--hierarchy is given for 'zip', which is not in --qi age,workclass,sex"),
    (["anonymize", "adult.csv", *ORIGINAL, "--policy", "policy.toml", "--output", "o.csv",
      "--hierarchy", "age"], "argument --hierarchy: expected COLUMN=SOURCE"),
    (["anonymize", "adult.csv", *ORIGINAL, "--policy", "policy.toml", "--output", "adult.csv"],
     "--output adult.csv would overwrite the input table"),
    (["anonymize", "adult.csv", *ORIGINAL, "--policy", "policy.toml", "--output", "o.csv",
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



# ------------------------------------------------------------ what main makes of errors
@pytest.fixture
def handler(monkeypatch):
    """Make ``skyprivacy data ...`` run the given function instead of the data command."""
    def use(function):
        monkeypatch.setattr(parser, "cmd_data", function)
    return use


def raising(exc):
    def command(ctx):
        raise exc
    return command


@pytest.mark.parametrize("exc, code, line", [
    (UsageError("--sample needs\n adult"), 2,
     "skyprivacy data: error: --sample needs adult (see skyprivacy data --help)"),
    (InfeasibleError("No release\nis safe."), 1,
     "skyprivacy data: infeasible: No release is safe."),
    (EngineError("The Dask cluster failed."), 4, "skyprivacy data: error: The Dask cluster "
                                                 "failed."),
    (InputError("Cannot read 'x.csv': gone."), 3, "skyprivacy data: error: Cannot read 'x.csv': "
                                                  "gone."),
    (SchemaError("Column 'age' is missing."), 3, "skyprivacy data: error: Column 'age' is "
                                                 "missing."),
    (FileNotFoundError(2, "No such file or directory"), 3,
     "skyprivacy data: error: [Errno 2] No such file or directory"),
    (ImportError("Writing Parquet needs pyarrow."), 3,
     "skyprivacy data: error: Writing Parquet needs pyarrow."),
    (KeyboardInterrupt(), 130, "skyprivacy data: interrupted; nothing was written"),
])
def test_each_kind_of_error_is_one_line_and_its_exit_code(capsys, handler, exc, code, line):
    handler(raising(exc))
    assert run(capsys, "data", "adult") == (code, "", line + "\n")


def test_an_input_error_names_the_table_it_is_about(capsys, monkeypatch):
    monkeypatch.setattr(parser, "cmd_verify", raising(SchemaError("Column 'age' is missing.")))
    assert run(capsys, "verify", "t.csv", "--certificate", "c.json") == (
        3, "", "skyprivacy verify: error: Table 't.csv': Column 'age' is missing.\n")


def test_an_interruption_names_the_outputs_already_in_place(work, capsys, monkeypatch):
    def interrupted(self, text):
        raise KeyboardInterrupt  # after the file was put in place, before the note

    monkeypatch.setattr(Context, "note", interrupted)
    code, out, err = run(capsys, "data", "adult-hierarchy", "sex", "--output", "sex.txt")
    assert (code, out) == (130, "")
    assert err == ("skyprivacy data: interrupted; these outputs were complete before the "
                   "interruption and are on disk: sex.txt\n")
    assert (work / "sex.txt").read_text() == "Male;*\nFemale;*\n"


def test_a_closed_pipe_exits_141_quietly(capsys, handler):
    handler(raising(BrokenPipeError()))
    assert run(capsys, "data", "adult") == (EXIT_BROKEN_PIPE, "", "")


def test_the_handler_s_exit_code_is_main_s(capsys, handler):
    handler(lambda ctx: ctx.emit("done") or 1)
    assert run(capsys, "data", "adult") == (1, "done\n", "")


def test_warnings_follow_the_error_and_unused_policy_values_are_silent(capsys, handler):
    def command(ctx):
        warnings.warn("first\n warning", PrivacyRiskWarning, stacklevel=1)
        warnings.warn("a value the policy names but the data lacks", UnusedPolicyValueWarning,
                      stacklevel=1)
        warnings.warn("second warning", SkyPrivacyWarning, stacklevel=1)
        raise InputError("Cannot read 'x'.")

    handler(command)
    assert run(capsys, "data", "adult") == (3, "", "skyprivacy data: error: Cannot read 'x'.\n"
                                                   "skyprivacy data: warning: first warning\n"
                                                   "skyprivacy data: warning: second warning\n")


def test_a_scheduler_without_the_dask_engine_is_a_usage_error(work, capsys, monkeypatch):
    monkeypatch.setattr(parser, "cmd_verify", raising(AssertionError("not reached")))
    assert run(capsys, "verify", "released.csv", "--certificate", "released.cert.json",
               "--scheduler", "tcp://127.0.0.1:8786") == (
        2, "", "skyprivacy verify: error: --scheduler needs --engine dask (see skyprivacy "
               "verify --help)\n")


def test_main_reads_sys_argv_by_default(capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["skyprivacy", "data", "adult-hierarchy", "sex"])
    assert main() == 0
    assert capsys.readouterr() == ("Male;*\nFemale;*\n", "")
