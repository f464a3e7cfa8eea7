"""skyprivacy/cli/data_commands.py: ``skyprivacy data`` writes the bundled Adult data set or one
of its ARX hierarchies to a file or to stdout."""
import contextlib
import io

import pandas as pd
import pytest

from skyprivacy.cli import main

from .helpers import run


def test_data_exports(work, capsys):
    code, _, err = run(capsys, "data", "adult", "--sample", "10", "--output", "a10.csv")
    assert code == 0 and err == "skyprivacy data: wrote a10.csv\n"
    sample = pd.read_csv(work / "a10.csv")
    assert len(sample) == 10 and list(sample.columns)[:2] == ["age", "workclass"]
    code, out, _ = run(capsys, "data", "adult-hierarchy", "sex")
    assert code == 0 and out.splitlines()[0] == "Male;*"
    code, _, err = run(capsys, "data", "adult-hierarchy", "zip")
    assert code == 2 and "'data adult-hierarchy' needs one of age, " in err



@pytest.fixture(scope="module")
def adult_csv():
    """``skyprivacy data adult`` on stdout: every line of the bundled table."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["data", "adult"]) == 0
    return out.getvalue().splitlines()


def test_all_of_adult_goes_to_stdout(adult_csv):
    assert len(adult_csv) == 1 + 45222  # the header and the rows --help announces
    assert adult_csv[0].split(",") == [
        "age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
        "occupation", "relationship", "race", "sex", "capital-gain", "capital-loss",
        "hours-per-week", "native-country", "income"]


def test_a_sample_keeps_the_table_order_and_depends_on_the_seed(adult_csv, capsys):
    code, out, err = run(capsys, "data", "adult", "--sample", "50")
    assert code == 0 and err == ""
    sample = out.splitlines()
    assert len(sample) == 51 and sample[0] == adult_csv[0]
    rows = iter(adult_csv[1:])
    assert all(any(line == row for row in rows) for line in sample[1:])  # a subsequence
    assert run(capsys, "data", "adult", "--sample", "50", "--random-state", "0")[1] == out
    assert run(capsys, "data", "adult", "--sample", "50", "--random-state", "1")[1] != out


def test_a_sample_larger_than_adult_is_all_of_it(adult_csv, capsys):
    code, out, _ = run(capsys, "data", "adult", "--sample", "100000")
    assert code == 0 and out.splitlines() == adult_csv


def test_the_output_format_follows_the_extension(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "data", "adult", "--sample", "7", "--output", "a.parquet",
                         "--quiet")
    assert code == 0 and out == "" and err == ""  # --quiet: no note
    frame = pd.read_parquet(tmp_path / "a.parquet")
    assert len(frame) == 7 and list(frame.columns)[:2] == ["age", "workclass"]


def test_an_existing_output_needs_force(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sex.txt").write_text("old\n")
    code, out, err = run(capsys, "data", "adult-hierarchy", "sex", "--output", "sex.txt")
    assert (code, out) == (2, "")
    assert err == ("skyprivacy data: error: --output sex.txt already exists; pass --force to "
                   "replace it (see skyprivacy data --help)\n")
    assert (tmp_path / "sex.txt").read_text() == "old\n"
    code, _, err = run(capsys, "data", "adult-hierarchy", "sex", "--output", "sex.txt",
                       "--force")
    assert code == 0 and err == "skyprivacy data: wrote sex.txt\n"
    assert (tmp_path / "sex.txt").read_text() == "Male;*\nFemale;*\n"


def test_income_is_the_salary_class_hierarchy(capsys):
    code, income, _ = run(capsys, "data", "adult-hierarchy", "income")
    assert code == 0 and income.splitlines() == [">50K;*", "<=50K;*"]
    assert run(capsys, "data", "adult-hierarchy", "salary-class")[1] == income


@pytest.mark.parametrize("argv, message", [
    (["adult", "sex"], "'data adult' takes no attribute"),
    (["adult-hierarchy"], "'data adult-hierarchy' needs one of age, education, income, "
                          "marital-status, native-country, occupation, race, salary-class, sex, "
                          "workclass"),
])
def test_data_usage_errors(capsys, argv, message):
    assert run(capsys, "data", *argv) == (
        2, "", f"skyprivacy data: error: {message} (see skyprivacy data --help)\n")
