"""skyprivacy/cli/context.py: one run of a command (its name, notes, output, progress bars on
stderr), reading the table, the Dask session's guard and checking the outputs before any
work is done."""
from .helpers import RELEASE, run


def test_progress_bars_go_to_stderr_only_when_asked(work, capsys):
    code, out, err = run(capsys, "find", "released.csv", *RELEASE, "-c", "0.9", "--values",
                         "Sales,Tech-support", "--progress")
    assert code == 0
    assert "\rfinding knowledge skylines [" in err and err.endswith("100%\n")
    assert "[" not in out.splitlines()[0]
    _, _, err = run(capsys, "find", "released.csv", *RELEASE, "-c", "0.9", "--values", "Sales")
    assert err == ""  # not a terminal: no bar by default
    _, _, err = run(capsys, "find", "released.csv", *RELEASE, "-c", "0.9", "--values", "Sales",
                    "--progress", "--quiet")
    assert err == ""

