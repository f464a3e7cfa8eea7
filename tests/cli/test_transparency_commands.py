"""skyprivacy/cli/transparency_commands.py: ``skyprivacy transparency check``, ``optimize`` and
``verify`` over a decision table, in-process."""
import json

import pandas as pd

from .helpers import DECISION, DECISIONS, assert_input_error, run


def test_transparency_check_and_optimize(work, capsys):
    (work / "dec.csv").write_text(DECISIONS)
    code, out, _ = run(capsys, "transparency", "check", "dec.csv", *DECISION, "--beta", "0.7")
    assert code == 1
    assert out.startswith("UNSAFE: the true rule is not beta-private at beta = 0.7.\n"
                          "Maximum confidence 1 (group ('F',), outcome 1, inferring >200k).")
    assert "3 violating channel(s):" in out

    code, out, err = run(capsys, "transparency", "optimize", "dec.csv", *DECISION, "--delta",
                         "0.9", "--output", "announced.csv")
    assert code == 0 and err == "skyprivacy transparency optimize: wrote announced.csv\n"
    assert out.startswith("Optimal beta* = 0.675 under Delta(delta=0.9), attained by the "
                          "group ('F',)")
    announced = pd.read_csv(work / "announced.csv", dtype=str)
    assert list(announced.columns) == ["gender", "income", "population", "d", "d_tilde"]
    assert announced["population"].tolist() == ["12", "5", "3", "9", "7", "4"]

    code, out, _ = run(capsys, "transparency", "check", "announced.csv", *DECISION,
                       "--announced", "d_tilde", "--beta", "0.675", "--format", "json")
    result = json.loads(out)
    assert code == 0 and result["schema_version"] == 1 and result["satisfied"] is True
    assert result["command"] == "transparency check"

    code, out, _ = run(capsys, "transparency", "optimize", "dec.csv", *DECISION, "--alpha",
                       "0.9", "--format", "json", "--exact")
    result = json.loads(out)
    assert code == 0 and result["command"] == "transparency optimize"
    assert result["beta_star"] == 1.0 and result["exact"] is True


def test_transparency_input_errors(work, capsys):
    (work / "dec.csv").write_text(DECISIONS.replace("0.5", "half"))
    assert_input_error(capsys, ["transparency", "check", "dec.csv", *DECISION, "--gamma", "0.1"],
                       r"^skyprivacy transparency check: error: Table 'dec.csv': Column 'd' must hold numbers; "
                       r"it holds 'half'\.$")
    (work / "dec.csv").write_text(DECISIONS.replace("0.5", ""))
    assert_input_error(capsys, ["transparency", "optimize", "dec.csv", *DECISION, "--delta",
                                "0.9", "--output", "a.csv"],
                       r"Column 'd' has 1 missing cell\(s\), the first on data row 5", "a.csv")
    code, _, err = run(capsys, "transparency", "check", "dec.csv", *DECISION)
    assert code == 2 and "one of the arguments --beta --gamma is required" in err

