"""``skyprivacy anonymize --individual COL`` (issue "Nothing released unexamined", item 9): a
table of one row per person and sensitive value (mvpi) is anonymized person by person; the
released table is one row per person and value again, which ``check --individual`` and
``verify`` accept; the faults are one line each."""
import json
import re

import pandas as pd
import pytest

from skyprivacy.cli import main

TABLE = ("pid,zip,age,dx\na,11,30,flu\na,11,30,hiv\nb,12,31,flu\nc,21,40,cold\nd,22,41,flu\n"
         "d,22,41,cold\ne,23,42,hiv\nf,24,43,flu\n")
POLICY = "[default]\nskyline = [[0, 0, 0, 0.9]]\n"
ANONYMIZE = ["anonymize", "mv.csv", "--qi", "zip,age", "--sensitive", "dx", "--policy",
             "p.toml", "--output", "out.csv", "--individual", "pid", "--semantics", "mvpi-set"]


@pytest.fixture
def work(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mv.csv").write_text(TABLE)
    (tmp_path / "p.toml").write_text(POLICY)
    return tmp_path


def test_people_are_grouped_and_each_row_keeps_its_value(work, capsys):
    assert main([*ANONYMIZE, "-q"]) == 0
    released = pd.read_csv(work / "out.csv", dtype=str)
    original = pd.read_csv(work / "mv.csv", dtype=str)
    # the same rows, in order, with the same person and value
    assert released[["pid", "dx"]].equals(original[["pid", "dx"]])
    # a person's rows carry one label per QI, and no group mixes a person across labels
    assert (released.groupby("pid")[["zip", "age"]].nunique() == 1).all().all()
    groups = released.groupby(["zip", "age"])["pid"].nunique()
    assert groups.sum() == original["pid"].nunique() == 6
    assert (groups >= 2).all()  # nobody is alone: each group of people is generalized
    certificate = json.loads((work / "out.cert.json").read_text())
    assert certificate["parameters"]["individual"] == "pid"
    assert certificate["verdict"] == "safe"
    capsys.readouterr()
    assert main(["verify", "out.csv", "--certificate", "out.cert.json"]) == 0
    assert capsys.readouterr().out.startswith("VERIFIED: out.csv matches out.cert.json")
    assert main(["check", "out.csv", "--qi", "zip,age", "--sensitive", "dx", "--individual",
                 "pid", "--semantics", "mvpi-set", "--policy", "p.toml", "-q"]) == 0


def test_a_multiset_of_values_per_person(work, capsys):
    (work / "mv.csv").write_text(TABLE + "f,24,43,flu\n")
    assert main([*ANONYMIZE[:-1], "mvpi-multiset", "-q"]) == 0
    assert len(pd.read_csv(work / "out.csv")) == 9


@pytest.mark.parametrize("change, message", [
    (["--semantics", "svpi"], "--individual names the person of each row of a table with "
                              "several sensitive values per person: pass --semantics "
                              "mvpi-set or mvpi-multiset"),
    (["--individual", "zip"], "--individual zip must be a column other than --qi and "
                              "--sensitive"),
    (["--bucketized"], "--individual works with a generalized release (not --bucketized)"),
    (["--k", "2"], "--individual works with a skyline policy alone under --method mondrian"),
    (["--individual", "person"], "Column 'person' is not in the table; columns are ['pid', "
                                 "'zip', 'age', 'dx']."),
])
def test_faults_are_one_line(work, capsys, change, message):
    argv = list(ANONYMIZE)
    for i in range(0, len(change), 2):
        if change[i] in argv and i + 1 < len(change) and change[i] != "--k":
            argv[argv.index(change[i]) + 1] = change[i + 1]
        else:
            argv += change[i:i + 2]
    assert main(argv) in (2, 3)
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err, err
    assert not (work / "out.csv").exists()


def test_a_person_whose_quasi_identifiers_disagree(work, capsys):
    (work / "mv.csv").write_text(TABLE.replace("b,12,31", "a,12,30"))
    assert main(ANONYMIZE) == 3
    assert re.search(r"Table 'mv.csv': individual 'a' has 2 different 'zip' cells \('11', "
                     r"'12'\); a person's quasi-identifiers must agree on all their rows\.$",
                     capsys.readouterr().err.strip())
    assert not (work / "out.csv").exists()
