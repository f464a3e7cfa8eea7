"""skyprivacy/cli/release_inputs.py: the inputs of the release commands (the release model, the
policy's and --values' values checked against the data, hierarchies, orders, set-label files
and the HTML report)."""
from .helpers import RELEASE, assert_input_error


def test_find_rejects_an_unknown_value(work, capsys):
    assert_input_error(capsys, ["find", "released.csv", *RELEASE, "-c", "0.9", "--values",
                                "Sales,Salse"],
                       r"^skyprivacy find: error: Table 'released.csv': Value 'Salse' does not occur in column "
                       r"'occupation'\. Did you mean 'Sales'\?")


def test_an_unknown_policy_value(work, capsys):
    (work / "typo.toml").write_text('[values."Exec-manager"]\nskyline = [[1, 5, 1, 0.9]]\n')
    for command in (["check", "released.csv"], ["anonymize", "adult.csv", "--output",
                                                "o.csv"]):
        assert_input_error(capsys, [*command, *RELEASE, "--policy", "typo.toml"],
                           r"error: Policy 'typo.toml': Policy value 'Exec-manager' does not occur in column "
                           r"'occupation'\. Did you mean 'Exec-managerial'\? Values there: "
                           r"\['Adm-clerical', ", "o.csv", "o.cert.json")

