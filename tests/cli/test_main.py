"""skyprivacy/cli/__main__.py: ``python -m skyprivacy.cli`` is the ``skyprivacy`` command, its
exit code the one ``main`` returns."""
import importlib
import os
import subprocess
import sys

import pytest

from skyprivacy import __version__
import skyprivacy.cli


def python_m(*argv, **options):
    return subprocess.run([sys.executable, "-m", "skyprivacy.cli", *argv], capture_output=True,
                          text=True, timeout=120, **options)


def test_help_exits_0():
    done = python_m("--help")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("usage: skyprivacy [-h] [--version] COMMAND ...")
    assert "exit codes:\n  0  safe / done" in done.stdout


def test_version():
    done = python_m("--version")
    assert (done.returncode, done.stdout, done.stderr) == (0, f"skyprivacy {__version__}\n", "")


def test_a_command_writes_to_stdout():
    done = python_m("data", "adult-hierarchy", "sex")
    assert (done.returncode, done.stdout, done.stderr) == (0, "Male;*\nFemale;*\n", "")


@pytest.mark.parametrize("argv, code, last_line", [
    ([], 2, "skyprivacy: error: choose a command (see --help)"),
    (["data", "adult", "--sample", "0"], 2,
     "skyprivacy data: error: argument --sample: must be at least 1, got 0 (see skyprivacy data "
     "--help)"),
    (["verify", "gone.csv", "--certificate", "gone.json"], 3,
     "skyprivacy verify: error: Cannot read certificate 'gone.json': No such file or "
     "directory."),
])
def test_the_exit_code_is_mains(tmp_path, argv, code, last_line):
    done = python_m(*argv, cwd=tmp_path)
    assert done.returncode == code and done.stdout == ""
    assert done.stderr.splitlines()[-1] == last_line


@pytest.mark.parametrize("unbuffered", [None, "1"])
def test_a_reader_that_stops_early_ends_it_with_141_and_no_traceback(unbuffered):
    # buffered stdout, as by default, and unbuffered (PYTHONUNBUFFERED=1): there the text
    # layer writes straight to the file and ignores a write cut short by the closed pipe, so
    # the command writes all of its output itself and sees the pipe close either way
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered is not None:
        env["PYTHONUNBUFFERED"] = unbuffered
    with subprocess.Popen([sys.executable, "-m", "skyprivacy.cli", "data", "adult"], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout.readline().startswith(b"age,workclass,")
        process.stdout.close()  # as `| head -1` does
        stderr = process.stderr.read()
        assert process.wait(timeout=120) == 141
    assert stderr == b""


def test_importing_the_module_runs_nothing(capsys):
    module = importlib.import_module("skyprivacy.cli.__main__")
    assert module.main is skyprivacy.cli.main
    assert capsys.readouterr() == ("", "")
