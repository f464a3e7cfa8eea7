"""skyprivacy/cli/transparency_commands.py: ``skyprivacy transparency check``, ``optimize`` and
``verify`` over a decision table, in-process."""
import json
import re

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
                       r"^skyprivacy transparency check: error: Table 'dec.csv': Column 'd' "
                       r"must hold numbers; it holds 'half'\.$")
    (work / "dec.csv").write_text(DECISIONS.replace("0.5", ""))
    assert_input_error(capsys, ["transparency", "optimize", "dec.csv", *DECISION, "--delta",
                                "0.9", "--output", "a.csv"],
                       r"Column 'd' has 1 missing cell\(s\), the first on data row 5", "a.csv")
    code, _, err = run(capsys, "transparency", "check", "dec.csv", *DECISION)
    assert code == 2 and "one of the arguments --beta --gamma is required" in err



SHA = r"[0-9a-f]{64}"


def test_optimize_certificate_needs_output(work, capsys):
    (work / "dec.csv").write_text(DECISIONS)
    code, out, err = run(capsys, "transparency", "optimize", "dec.csv", *DECISION, "--delta",
                         "0.9", "--certificate", "c.json")
    assert (code, out) == (2, "")
    assert err == ("skyprivacy transparency optimize: error: --certificate needs --output: the "
                   "certificate pins the announced rule, which --output writes (see skyprivacy "
                   "transparency optimize --help)\n")
    assert not (work / "c.json").exists()


def test_an_optimized_rule_verifies_against_its_certificate(work, capsys):
    (work / "dec.csv").write_text(DECISIONS)
    code, _, err = run(capsys, "transparency", "optimize", "dec.csv", *DECISION, "--delta",
                       "0.9", "--output", "ann.csv", "--certificate", "c.json", "--report",
                       "r.html")
    assert code == 0
    assert err == "skyprivacy transparency optimize: wrote ann.csv, c.json, r.html\n"
    certificate = json.loads((work / "c.json").read_text())
    assert certificate["kind"] == "skyprivacy.rule-certificate"
    assert certificate["verdict"] == "certified"
    assert "Verdict: CERTIFIED" in (work / "r.html").read_text()

    code, out, err = run(capsys, "transparency", "verify", "dec.csv", "--rule", "ann.csv",
                         "--certificate", "c.json")
    assert code == 0 and err == ""
    assert out == (f"VERIFIED: ann.csv matches c.json: decision table sha256 "
                   f"{certificate['table']['sha256']}, rule sha256 "
                   f"{certificate['rule']['sha256']}, beta 0.675 recomputed, verdict "
                   f"certified.\n")

    code, out, _ = run(capsys, "transparency", "verify", "dec.csv", "--rule", "ann.csv",
                       "--certificate", "c.json", "--format", "json")
    assert code == 0 and json.loads(out) == {
        "schema_version": 1, "command": "transparency verify", "verified": True,
        "differences": [],
        "table": {"path": "dec.csv", "sha256": certificate["table"]["sha256"]},
        "rule": {"path": "ann.csv", "sha256": certificate["rule"]["sha256"]},
        "certificate": {"path": "c.json", "verdict": "certified"}}


def test_verify_fails_when_a_decision_changed(work, capsys):
    (work / "dec.csv").write_text(DECISIONS)
    assert run(capsys, "transparency", "optimize", "dec.csv", *DECISION, "--delta", "0.9",
               "--output", "ann.csv", "--certificate", "c.json", "-q")[0] == 0
    (work / "dec.csv").write_text(DECISIONS.replace("0.5", "0.6"))
    code, out, err = run(capsys, "transparency", "verify", "dec.csv", "--rule", "ann.csv",
                         "--certificate", "c.json")
    assert code == 1
    assert re.fullmatch(rf"skyprivacy transparency verify: FAILED: The decision table does not "
                        rf"match the certificate: its SHA-256 is {SHA}, the certificate records "
                        rf"{SHA}; changed: row 5 \(gender=M, income=100k-200k\), column 'd' "
                        rf"\(now '0\.6'\)\.\n", err)
    lines = out.splitlines()
    assert lines[0].startswith("NOT VERIFIED: ") and lines[0].endswith(" do not match c.json:")
    # an announced rule that does not verify names the rule, then the table
    assert lines[0] == "NOT VERIFIED: ann.csv and dec.csv do not match c.json:"
    assert lines[1] == "- " + err.split("FAILED: ", 1)[1].rstrip("\n")
    assert "- The 'verdict' field differs: the certificate says 'certified', the tables give " \
           "'not certified'." in lines


def test_a_checked_rule_verifies_without_a_rule_file(work, capsys):
    (work / "dec.csv").write_text(DECISIONS)
    code, out, err = run(capsys, "transparency", "check", "dec.csv", *DECISION, "--beta", "1",
                         "--certificate", "chk.json")
    assert code == 0 and err == "skyprivacy transparency check: wrote chk.json\n"
    assert out.startswith("SAFE: the true rule is beta-private at beta = 1.\n")
    code, out, _ = run(capsys, "transparency", "verify", "dec.csv", "--certificate",
                       "chk.json")
    assert code == 0
    assert re.fullmatch(rf"VERIFIED: dec\.csv matches chk\.json: decision table sha256 {SHA}, "
                        rf"rule sha256 {SHA}, beta 1(\.0)? recomputed, verdict certified\.\n",
                        out)


def test_a_checked_rule_that_does_not_verify_names_the_decision_table_once(work, capsys):
    # without --rule the decision table holds the rule: one file, named once
    (work / "dec.csv").write_text(DECISIONS)
    assert run(capsys, "transparency", "check", "dec.csv", *DECISION, "--beta", "1",
               "--certificate", "chk.json", "-q")[0] == 0
    (work / "dec.csv").write_text(DECISIONS.replace("0.5", "0.6"))
    code, out, err = run(capsys, "transparency", "verify", "dec.csv", "--certificate",
                         "chk.json")
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "NOT VERIFIED: dec.csv does not match chk.json:"
    assert lines[1] == "- " + err.split("FAILED: ", 1)[1].rstrip("\n")


def test_check_an_unsafe_rule_still_writes_its_report(work, capsys):
    (work / "dec.csv").write_text(DECISIONS)
    code, out, err = run(capsys, "transparency", "check", "dec.csv", *DECISION, "--beta", "0.7",
                         "--report", "chk.html", "--format", "json")
    assert code == 1 and err == "skyprivacy transparency check: wrote chk.html\n"
    result = json.loads(out)
    assert result["command"] == "transparency check" and result["safe"] is False
    assert result["n_violations"] == len(result["violations"]) == 3
    assert result["max_confidence"]["group"] == ["F"]
    assert result["max_confidence"]["sensitive"] == ">200k"
    assert "Verdict: NOT CERTIFIED" in (work / "chk.html").read_text()


def test_the_violations_are_listed_as_a_table(work, capsys):
    (work / "dec.csv").write_text(DECISIONS)
    _, out, _ = run(capsys, "transparency", "check", "dec.csv", *DECISION, "--beta", "0.7")
    lines = out.splitlines()
    start = lines.index("3 violating channel(s):")
    assert lines[start + 1].split() == ["gender", "income", "outcome", "conf"]
    # F: 12 of the 17 with outcome 0 have <100k, and all 3 with outcome 1 have >200k;
    # M: 9 of the 12.5 (9 + 7 / 2) with outcome 0 have <100k
    assert [line.split() for line in lines[start + 3:]] == [
        ["F", "<100k", "0", "0.705882"], ["F", ">200k", "1", "1"], ["M", "<100k", "0", "0.72"]]


def test_transparency_verify_input_errors(work, capsys):
    (work / "dec.csv").write_text(DECISIONS)
    (work / "odd.json").write_text('{"schema_version": 1}')
    assert_input_error(capsys, ["transparency", "verify", "dec.csv", "--certificate",
                                "odd.json"],
                       r"^skyprivacy transparency verify: error: Certificate 'odd\.json': The "
                       r"certificate is malformed: missing field\(s\) \['beta', ")
    assert run(capsys, "transparency", "check", "dec.csv", *DECISION, "--beta", "1",
               "--certificate", "chk.json", "-q")[0] == 0
    assert_input_error(capsys, ["transparency", "verify", "dec.csv", "--rule", "gone.csv",
                                "--certificate", "chk.json"],
                       r"^skyprivacy transparency verify: error: Cannot read table 'gone\.csv': "
                       r"No such file or directory\.$")
