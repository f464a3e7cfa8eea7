"""Honest words (issue "Publish exactly what the data says", items 3 and 5): percentages that
never round onto a threshold, an unsafe table's report titled as a risk report with the next
step, the interrupted message that says what is on disk, l-diversity infeasibility in
l-diversity terms, and the next step after an unsafe check."""
import pandas as pd

import skyprivacy.cli.context as cli_context
import skyprivacy.cli.release_commands as release_commands
from skyprivacy.cli import main

POLICY = "[default]\nskyline = [[0, 0, 0, 0.9]]\n"


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_closest_call_just_below_c_is_not_printed_as_c(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rows = ["flu"] * 17991 + ["cold"] * 2009  # 17,991 / 20,000 = 0.89955 < 0.9
    pd.DataFrame({"zip": "021**", "disease": rows}).to_csv("t.csv", index=False)
    (tmp_path / "p.toml").write_text(POLICY)
    code, out, err = run(capsys, "check", "t.csv", "--qi", "zip", "--sensitive", "disease",
                         "--policy", "p.toml")
    assert code == 0, err
    assert "(89.95%)" in out and "(90.0%)" not in out


def unsafe_table(tmp_path):
    pd.DataFrame({"zip": ["1", "1", "2", "2"],
                  "disease": ["flu", "flu", "flu", "cold"]}).to_csv(tmp_path / "t.csv",
                                                                     index=False)
    (tmp_path / "p.toml").write_text(POLICY)


def test_an_unsafe_check_ends_with_the_next_step_and_its_report_is_a_risk_report(
        tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    unsafe_table(tmp_path)
    code, out, err = run(capsys, "check", "t.csv", "--qi", "zip", "--sensitive", "disease",
                         "--policy", "p.toml", "--report", "r.html")
    assert code == 1
    assert out.rstrip().splitlines()[-1] == (
        "Next step: generalize the table until it is safe, e.g. skyprivacy anonymize t.csv "
        "--qi COL,... --sensitive disease --policy p.toml --output released.csv; or relax the "
        "failing points of 'flu'.")
    page = (tmp_path / "r.html").read_text()
    assert "<title>skyprivacy risk report</title>" in page
    assert "certification report" not in page
    assert "<h2>Next step</h2><p>This table is not safe to release under the policy." in page


def test_an_interrupt_after_the_outputs_were_committed_says_they_exist(tmp_path, capsys,
                                                                       monkeypatch):
    monkeypatch.chdir(tmp_path)
    unsafe_table(tmp_path)

    def interrupted(self, message):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_context.Context, "note", interrupted)
    code, out, err = run(capsys, "check", "t.csv", "--qi", "zip", "--sensitive", "disease",
                         "--policy", "p.toml", "--certificate", "c.json")
    assert code == 130
    assert err.strip() == ("skyprivacy check: interrupted; these outputs were complete before "
                           "the interruption and are on disk: c.json")
    assert (tmp_path / "c.json").read_text().startswith("{")


def test_an_interrupt_before_any_output_says_nothing_was_written(tmp_path, capsys,
                                                                 monkeypatch):
    monkeypatch.chdir(tmp_path)
    unsafe_table(tmp_path)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(release_commands, "build_certificate", interrupted)
    code, out, err = run(capsys, "check", "t.csv", "--qi", "zip", "--sensitive", "disease",
                         "--policy", "p.toml", "--certificate", "c.json")
    assert code == 130
    assert err.strip() == "skyprivacy check: interrupted; nothing was written"
    assert not (tmp_path / "c.json").exists()


def test_l_diversity_beyond_the_number_of_values_is_explained_in_its_terms(tmp_path, capsys,
                                                                          monkeypatch):
    monkeypatch.chdir(tmp_path)
    pd.DataFrame({"age": range(70), "disease": [f"d{i % 7}" for i in range(70)]}).to_csv(
        "t.csv", index=False)
    code, out, err = run(capsys, "compare", "t.csv", "--qi", "age", "--sensitive", "disease",
                         "--l-diversity", "50")
    assert code == 1
    assert err.strip() == (
        "skyprivacy compare: infeasible: Recursive (3, 50)-diversity needs at least 50 distinct "
        "values of 'disease' in every QI-group, and the table has only 7 distinct values; "
        "choose --l-diversity 7 or less.")
