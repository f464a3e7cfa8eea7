"""skyprivacy/cli/parser.py: the argument parser of the ``skyprivacy`` command, its
subcommands, options, defaults and one-line usage errors."""
from skyprivacy import __version__

from .helpers import RELEASE, run


def test_python_dash_m_parser_is_named_skyprivacy(capsys):
    assert run(capsys, "--version") == (0, f"skyprivacy {__version__}\n", "")
    code, out, _ = run(capsys, "--help")
    assert code == 0 and out.startswith("usage: skyprivacy ")
    assert "exit codes:\n  0  safe / done" in out and "3  input error" in out
    for command in ("check", "anonymize", "find", "compare", "verify", "transparency", "data"):
        assert command in out


def test_compare_needs_one_baseline(work, capsys):
    code, _, err = run(capsys, "compare", "adult.csv", *RELEASE)
    assert code == 2
    assert "one of the arguments --k-anonymity --l-diversity is required" in err
    code, _, err = run(capsys, "compare", "adult.csv", *RELEASE, "--k-anonymity", "1")
    assert code == 2 and "argument --k-anonymity: must be at least 2, got 1" in err

