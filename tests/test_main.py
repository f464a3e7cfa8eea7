"""``python -m skyprivacy`` (skyprivacy/__main__.py): the same command line as the ``skyprivacy``
script, run in a fresh interpreter, with main's exit code as the process's."""
import importlib
import os
import subprocess
import sys

import skyprivacy.cli
from skyprivacy import __version__

SCRIPT = os.path.join(os.path.dirname(sys.executable), "skyprivacy")  # the console script


def python_m(*argv, cwd=None):
    return subprocess.run([sys.executable, "-m", "skyprivacy", *argv], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_help_exits_0_and_prints_the_usage():
    done = python_m("--help")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.startswith("usage: skyprivacy [-h] [--version] COMMAND ...\n")
    for command in ("check", "anonymize", "find", "compare", "verify", "transparency", "data"):
        assert f"\n    {command}" in done.stdout


def test_it_is_the_same_command_line_as_the_script():
    assert python_m("--help").stdout == subprocess.run(
        [SCRIPT, "--help"], capture_output=True, text=True, timeout=300).stdout


def test_version_prints_the_package_version():
    done = python_m("--version")
    assert (done.returncode, done.stdout, done.stderr) == (0, f"skyprivacy {__version__}\n", "")


def test_the_exit_code_of_main_is_the_exit_code_of_the_process(tmp_path):
    (tmp_path / "t.csv").write_text("zip,disease\n02139,flu\n")
    done = python_m("check", "t.csv", "--qi", "zip", "--sensitive", "disease",
                    "--policy", "p.toml", cwd=tmp_path)
    assert done.returncode == 3  # input error, returned by main rather than raised by argparse
    assert done.stderr == ("skyprivacy check: error: Cannot read policy file 'p.toml': No such "
                           "file or directory.\n")
    assert done.stdout == ""


def test_a_missing_command_is_a_usage_error():
    done = python_m()
    assert done.returncode == 2
    assert done.stderr == ("usage: skyprivacy [-h] [--version] COMMAND ...\n"
                           "skyprivacy: error: choose a command (see --help)\n")


def test_importing_the_module_does_not_run_the_command_line(capsys):
    module = importlib.import_module("skyprivacy.__main__")
    assert module.main is skyprivacy.cli.main
    assert capsys.readouterr() == ("", "")
