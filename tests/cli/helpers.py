"""What the tests of skyprivacy.cli share besides fixtures: the issue's policy and release
columns, a small decision table, and running ``main`` in-process."""
import os
import re

from skyprivacy.cli import main

POLICY = """\
[default]
skyline = [[1, 5, 1, 0.9]]            # (l, k, m, c) points for every value not listed

[values."Exec-managerial"]
skyline = [[4, 10, 4, 0.9], [1, 20, 1, 0.9]]
"""
RELEASE = ["--qi", "age,workclass,sex", "--sensitive", "occupation"]
#: The other columns of Adult: every column of a table is classified (issue 26 item 1)
UNUSED = ("fnlwgt,education,education-num,marital-status,relationship,race,capital-gain,"
          "capital-loss,hours-per-week,native-country,income")
#: Adult's columns, in order
ADULT = ("age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
         "occupation", "relationship", "race", "sex", "capital-gain", "capital-loss",
         "hours-per-week", "native-country", "income")


def drop_others(qi: str, sensitive: str = "occupation") -> list:
    """``--drop`` every column of Adult but the QIs ``qi`` (comma-separated) and
    ``sensitive``."""
    used = {*qi.split(","), sensitive}
    return ["--drop", ",".join(c for c in ADULT if c not in used)]


#: RELEASE of the original table: its other columns left out of the release
ORIGINAL = [*RELEASE, "--drop", UNUSED]
#: RELEASE of the original table checked as it is: its other columns kept (published as is)
AS_IS = [*RELEASE, "--keep", UNUSED]

DECISIONS = """\
gender,income,population,d
F,<100k,12,0
F,100k-200k,5,0
F,>200k,3,1
M,<100k,9,0
M,100k-200k,7,0.5
M,>200k,4,1
"""
DECISION = ["--public", "gender", "--sensitive", "income", "--weight", "population",
            "--decision", "d"]


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_input_error(capsys, argv, message, *absent):
    code, out, err = run(capsys, *argv)
    assert code == 3, err
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert re.search(message, lines[0]), lines[0]
    for name in absent:
        assert not os.path.exists(name), name
    leftovers = [f for f in os.listdir(".") if f.endswith(".tmp")]
    assert leftovers == []


def exactly(message: str) -> str:
    """A ``match=`` pattern for the whole message, so any change of wording is seen."""
    return "^" + re.escape(message) + "$"
