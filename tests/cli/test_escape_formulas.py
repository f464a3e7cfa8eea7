"""``--escape-formulas`` (issue "Nothing released unexamined", item 7): the opt-in escape for
spreadsheets.  Every input cell a spreadsheet would run as a formula gets an apostrophe before
anything is analysed, so the released CSV holds text, no formula warning is printed, and the
certificate certifies (and ``verify`` checks) the escaped cells that are published."""
import pandas as pd

from skyprivacy.io import read_table

from .helpers import run

TABLE = ("zip,note,disease\n1*,=HYPERLINK(\"http://x.example\"),flu\n1*,ok,cold\n"
         "2*,@SUM(1+1),flu\n2*,-2,hiv\n")
POLICY = "[default]\nskyline = [[0, 0, 0, 1]]\n"


def test_anonymize_escapes_formula_cells_and_certifies_the_escaped_table(tmp_path, monkeypatch,
                                                                        capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.csv").write_text(TABLE)
    (tmp_path / "p.toml").write_text(POLICY)
    argv = ["anonymize", "t.csv", "--qi", "zip", "--sensitive", "disease", "--keep", "note",
            "--policy", "p.toml", "--output", "out.csv", "-q"]
    code, _, err = run(capsys, *argv)
    assert code == 0 and "start like a spreadsheet formula" in err  # without the escape
    code, _, err = run(capsys, *argv, "--escape-formulas", "--force")
    assert code == 0 and err == ""
    released = read_table("out.csv")
    assert released["note"].tolist() == ["'=HYPERLINK(\"http://x.example\")", "ok",
                                         "'@SUM(1+1)", "-2"]
    assert (tmp_path / "t.csv").read_text() == TABLE  # the input is unchanged
    code, out, _ = run(capsys, "verify", "out.csv", "--certificate", "out.cert.json")
    assert code == 0 and out.startswith("VERIFIED: ")


def test_compare_escapes_its_released_table(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.csv").write_text(TABLE)
    code, _, err = run(capsys, "compare", "t.csv", "--qi", "zip", "--sensitive", "disease",
                       "--keep", "note", "--k-anonymity", "2", "--output", "out.csv",
                       "--escape-formulas", "-q")
    assert code == 0 and err == ""
    assert pd.read_csv("out.csv", dtype=str)["note"].str.startswith("'").sum() == 2
