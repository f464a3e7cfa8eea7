"""skyprivacy/cli/risk_commands.py: ``skyprivacy risk`` prints the identity-disclosure figures of
a table (text and JSON, pandas and Dask), and every input error is one line naming its file."""
import json
import subprocess
import sys
from fractions import Fraction

import pytest

from skyprivacy.risk import identity_risk, individual_risk, journalist_risk
from skyprivacy.io import read_table

from .helpers import assert_input_error, run

SAMPLE = "zip,sex,w\n1,F,2\n1,F,3\n2,M,1.5\n3,F,4\n"
POPULATION = "zip,sex\n1,F\n1,F\n1,F\n2,M\n2,M\n3,F\n3,F\n4,M\n"


@pytest.fixture
def small(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.csv").write_text(SAMPLE)
    (tmp_path / "p.csv").write_text(POPULATION)
    return tmp_path


def test_the_text_summary(small, capsys):
    code, out, err = run(capsys, "risk", "s.csv", "--qi", "zip,sex", "--threshold", "0.6",
                         "--top", "2")
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "Identity risk of s.csv on zip, sex: 4 records in 3 classes (smallest 1).",
        "Prosecutor risk: max 1 (100.0%), average 3/4 (75.0%); 2 record(s) at the max.",
        "Records above the threshold 3/5: 1/2 (50.0%).",
        "Marketer risk: 3/4 (75.0%).",
        "Sample uniqueness: 1/2 (50.0%) of the records are unique in the table.",
        "",
        "The 2 highest-risk class(es):",
        "zip  sex  records  risk",
        "---  ---  -------  ----------",
        "2    M          1  1 (100.0%)",
        "3    F          1  1 (100.0%)"]


def test_population_size_gives_the_model_its_assumptions_and_journalist_risk(small, capsys):
    code, out, _ = run(capsys, "risk", "s.csv", "--qi", "zip,sex", "--population-size", "8",
                       "--model", "zayatz")
    assert code == 0
    lines = out.splitlines()
    expected = identity_risk(read_table("s.csv"), qi=["zip", "sex"], population_size=8,
                             model="zayatz")
    assert lines[4] == (f"Population uniqueness (N = 8, sampling fraction 50.0%, model zayatz):"
                        f" {expected.population.share:.4%} of the population estimated unique "
                        f"({expected.population.uniques:,.1f} people).")
    assert lines[5] == "  Assumes: The zayatz model, as asked."
    assert lines[6].startswith("  Assumes: Zayatz's method (Zayatz 1991)")
    assert lines[7] == ("Journalist risk (population classes estimated as f N / n): max 1/2 "
                        "(50.0%), average 3/8 (37.5%).")


def test_population_table_and_weights(small, capsys):
    code, out, _ = run(capsys, "risk", "s.csv", "--qi", "zip,sex", "--population", "p.csv",
                       "--weights", "w", "--threshold", "0.4", "--top", "0")
    assert code == 0
    sample, population = read_table("s.csv"), read_table("p.csv")
    journalist = journalist_risk(sample, qi=["zip", "sex"], population=population)
    assert journalist.max == Fraction(1, 2) and journalist.average == Fraction(5, 12)
    risks = individual_risk(sample, qi=["zip", "sex"], weights="w")
    assert out.splitlines()[5:] == [
        "Against the population table p.csv (8 records): journalist risk max 1/2 (50.0%), "
        "average 5/12 (41.7%); marketer risk 5/12 (41.7%); population uniqueness 1/8 (12.5%).",
        f"Individual risk (weights w, Benedetti and Franconi 1998): max {risks.max():.4g}, "
        f"mean {risks.mean():.4g}; {int((risks > 0.4).sum())} record(s) above the threshold."]


def test_json_has_every_figure_exact_and_as_a_float(small, capsys):
    code, out, _ = run(capsys, "risk", "s.csv", "--qi", "zip,sex", "--population-size", "40",
                       "--threshold", "1/2", "--population-size", "40", "--format", "json")
    assert code == 0
    data = json.loads(out)
    expected = identity_risk(read_table("s.csv"), qi=["zip", "sex"], threshold=Fraction(1, 2),
                             population_size=40)
    assert data["schema_version"] == 1 and data["command"] == "risk"
    assert data["table"] == {"path": "s.csv", "n_rows": 4}
    assert data["prosecutor_average_exact"] == "3/4" and data["prosecutor_average"] == 0.75
    assert data["records_above_threshold_exact"] == "1/2"
    assert data["journalist"]["max_exact"] == "1/10"
    assert data["population"]["model"] == expected.population.model == "pitman"  # n/N = 10%
    assert data["population"]["share"] == expected.population.share
    assert data["assumptions"]["qi"] == ["zip", "sex"]
    assert data["assumptions"]["population_size"] == 40
    assert data["assumptions"]["threshold"] == "1/2"
    code, out, _ = run(capsys, "risk", "s.csv", "--qi", "zip", "--threshold", "0.2",
                       "--format", "json")
    assert json.loads(out)["assumptions"]["threshold"] == "1/5"  # the decimal, not its float
    assert data["assumptions"]["statements"] == data["population"]["assumptions"]
    assert {k: v for k, v in data.items() if k in expected.to_json()} == json.loads(
        json.dumps(expected.to_json()))


def test_the_console_script_and_the_dask_engine(small):
    def console(*argv):
        return subprocess.run([sys.executable, "-m", "skyprivacy.cli", *argv],
                              capture_output=True, text=True, timeout=300)

    pandas = console("risk", "s.csv", "--qi", "zip,sex", "--format", "json")
    dask = console("risk", "s.csv", "--qi", "zip,sex", "--format", "json", "--engine", "dask",
                   "--quiet")
    assert pandas.returncode == 0 and dask.returncode == 0, dask.stderr
    by_pandas, by_dask = json.loads(pandas.stdout), json.loads(dask.stdout)
    assert by_dask.pop("engine") == "dask" and by_pandas.pop("engine") == "pandas"
    assert by_dask == by_pandas
    text = console("risk", "s.csv", "--qi", "zip", "--top", "0")
    assert text.returncode == 0 and text.stdout.splitlines()[1] == (
        "Prosecutor risk: max 1 (100.0%), average 3/4 (75.0%); 2 record(s) at the max.")
    bad = console("risk", "s.csv", "--qi", "age")
    assert bad.returncode == 3 and bad.stdout == ""
    assert bad.stderr == ("skyprivacy risk: error: Table 's.csv': Column 'age' is not in the "
                          "table; columns are ['zip', 'sex', 'w'].\n")


@pytest.mark.parametrize("argv, message", [
    (["risk", "s.csv", "--qi", "zip,age"],
     r"^skyprivacy risk: error: Table 's\.csv': Column 'age' is not in the table; columns are "
     r"\['zip', 'sex', 'w'\]\.$"),
    (["risk", "gone.csv", "--qi", "zip"],
     r"^skyprivacy risk: error: Cannot read table 'gone\.csv': No such file or directory\.$"),
    (["risk", "s.csv", "--qi", "zip", "--population-size", "3"],
     r"^skyprivacy risk: error: Table 's\.csv': The 'population_size' parameter of "
     r"identity_risk must be an integer >= the number of records \(4\)\. Got 3 instead\.$"),
    (["risk", "s.csv", "--qi", "zip", "--population", "gone.csv"],
     r"^skyprivacy risk: error: Cannot read table 'gone\.csv': No such file or directory\.$"),
    (["risk", "s.csv", "--qi", "zip,w", "--population", "p.csv"],
     r"^skyprivacy risk: error: Population table 'p\.csv': Column 'w' is not in the table; "
     r"columns are \['zip', 'sex'\]\.$"),
    (["risk", "m.csv", "--qi", "zip,sex"],
     r"^skyprivacy risk: error: Table 'm\.csv': Column 'sex' has 1 missing cell\(s\), the "
     r"first on data row 2 \(''\);"),
    (["risk", "s.csv", "--qi", "zip", "--weights", "bad"],
     r"^skyprivacy risk: error: Table 's\.csv': Column 'bad' is not in the table; columns are "
     r"\['zip', 'sex', 'w'\]\.$"),
    (["risk", "s.csv", "--qi", "zip", "--weights", "sex"],
     r"^skyprivacy risk: error: Table 's\.csv': Column 'sex' must hold sampling weights >= 1; "
     r"it has 'F'\.$"),
])
def test_input_errors_are_one_line_naming_the_file(small, capsys, argv, message):
    (small / "m.csv").write_text("zip,sex\n1,F\n2,\n")
    assert_input_error(capsys, argv, message)


def test_a_population_missing_a_sample_class(small, capsys):
    (small / "p.csv").write_text("zip,sex\n1,F\n1,F\n2,M\n")
    assert_input_error(capsys, ["risk", "s.csv", "--qi", "zip,sex", "--population", "p.csv"],
                       r"^skyprivacy risk: error: Population table 'p\.csv': The sample's "
                       r"class \('3', 'F'\) is not in the population table: the population "
                       r"must contain the sample\.$")


def test_a_model_that_does_not_apply(small, capsys, monkeypatch):
    from skyprivacy import risk
    from skyprivacy.errors import EstimatorError

    def fails(hist, population_size):
        raise EstimatorError("The SNB model does not apply: no solution.")
    monkeypatch.setitem(risk._ESTIMATORS, "snb", fails)  # noqa: SLF001 - force the failure
    assert_input_error(capsys, ["risk", "s.csv", "--qi", "zip", "--population-size", "9",
                                "--model", "snb"],
                       r"^skyprivacy risk: error: Table 's\.csv': The SNB model does not "
                       r"apply: no solution\. Choose another --model, or dankar to let the "
                       r"rule choose\.$")


@pytest.mark.parametrize("argv, message", [
    (["risk", "s.csv", "--qi", "zip", "--population", "p.csv", "--population-size", "9"],
     "argument --population-size: not allowed with argument --population"),
    (["risk", "s.csv", "--qi", "zip", "--weights", "w", "--engine", "dask"],
     "--weights needs --engine pandas (the Dask engine computes the count-based measures)"),
    (["risk", "s.csv", "--qi", "zip", "--population", "p.csv", "--engine", "dask"],
     "--population needs --engine pandas (the Dask engine computes the count-based measures)"),
    (["risk", "s.csv", "--qi", "zip", "--weights", "zip"],
     "--weights zip is one of the --qi columns"),
    (["risk", "s.csv", "--qi", "zip", "--threshold", "2"], "argument --threshold"),
    (["risk", "s.csv", "--qi", "zip", "--model", "best"], "argument --model: invalid choice"),
    (["risk", "s.csv"], "the following arguments are required: --qi"),
])
def test_usage_errors(small, capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and err.rstrip().endswith("(see skyprivacy risk --help)")


def test_json_of_a_population_table_and_weights(small, capsys):
    code, out, _ = run(capsys, "risk", "s.csv", "--qi", "zip,sex", "--population", "p.csv",
                       "--weights", "w", "--threshold", "0.4", "--format", "json")
    assert code == 0
    data = json.loads(out)
    risks = individual_risk(read_table("s.csv"), qi=["zip", "sex"], weights="w")
    assert data["population_table"] == {
        "path": "p.csv", "n_records": 8, "n_classes": 4, "journalist_max": 0.5,
        "journalist_max_exact": "1/2", "journalist_average": 5 / 12,
        "journalist_average_exact": "5/12", "smallest_population_class": 2,
        "marketer": 5 / 12, "marketer_exact": "5/12", "population_uniqueness": 0.125,
        "population_uniqueness_exact": "1/8"}
    assert data["individual"] == {"weights": "w", "max": float(risks.max()),
                                  "mean": float(risks.mean()),
                                  "records_above_threshold": int((risks > 0.4).sum())}
    assert data["assumptions"]["population_table"] == "p.csv"
    assert data["population"] is None and data["journalist"] is None
