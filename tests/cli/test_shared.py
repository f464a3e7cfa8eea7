"""skyprivacy/cli/shared.py: the exit codes, the one-line rendering of errors, the JSON encoder
of --format json, the text tables and lines every command prints, and the file an error is
about."""
import json
import re
import signal
from argparse import Namespace
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from skyprivacy import Policy, ReleaseCandidate, skyline_check
from skyprivacy.cli.shared import (
    EXIT_BROKEN_PIPE,
    EXIT_CODES,
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_UNSAFE,
    EXIT_USAGE,
    json_default,
    naming_the_file,
    one_line,
    release_line,
    text_table,
    verdict_line,
)
from skyprivacy.errors import HierarchyError, SchemaError
from skyprivacy.io import InputError


def test_the_exit_codes_and_their_epilog():
    assert (EXIT_OK, EXIT_UNSAFE, EXIT_USAGE, EXIT_INPUT, EXIT_INTERNAL) == (0, 1, 2, 3, 4)
    assert EXIT_BROKEN_PIPE == 128 + signal.SIGPIPE  # what a shell reports for SIGPIPE
    assert EXIT_CODES.startswith("exit codes:\n")
    listed = [int(code) for code in re.findall(r"^  (\d+)  \S", EXIT_CODES, re.MULTILINE)]
    assert listed == [EXIT_OK, EXIT_UNSAFE, EXIT_USAGE, EXIT_INPUT, EXIT_INTERNAL,
                      EXIT_BROKEN_PIPE]


@pytest.mark.parametrize("text, line", [
    ("one line", "one line"),
    ("  two\n  lines\t and  tabs \n", "two lines and tabs"),
    (ValueError("Column 'd' has\n1 missing cell(s)"), "Column 'd' has 1 missing cell(s)"),
    ("", ""),
])
def test_one_line(text, line):
    assert one_line(text) == line


def test_json_default_writes_what_json_does_not_know():
    data = {"exact": Fraction(2, 3), "count": np.int64(3), "share": np.float64(0.5),
            "flag": np.bool_(True), "missing": pd.NA, "other": {"a"}}
    assert json.loads(json.dumps(data, default=json_default)) == {
        "exact": "2/3", "count": 3, "share": 0.5, "flag": True, "missing": None,
        "other": "{'a'}"}
    assert type(json_default(np.int64(3))) is int  # the value, not a numpy scalar


def test_text_table_aligns_columns_and_shows_missing_cells_as_a_dash():
    table = text_table(["rank", "value", "share"],
                       [[1, "Sales", 0.123456789], [np.int64(12), None, float("nan")],
                        [3, pd.NA, np.float64(1 / 3)]], right={0, 2})
    assert table.split("\n") == [
        "rank  value     share",
        "----  -----  --------",
        "   1  Sales  0.123457",
        "  12  -             -",
        "   3  -      0.333333",
    ]


def test_text_table_without_rows_is_the_header_and_its_rule():
    assert text_table(["value", "l"], []) == "value  l\n-----  -"


def test_release_line(table1b):
    assert release_line(table1b, "t.csv", 8) == (
        "t.csv: 8 rows in 2 QI-groups of 4 to 4 people (average 4.0); semantics svpi.")
    uneven = ReleaseCandidate.from_groups([(2, ["a", "b"]), (3, ["a", "b", "c"])])
    assert release_line(uneven, "released.csv", 1234567) == (
        "released.csv: 1,234,567 rows in 2 QI-groups of 2 to 3 people (average 2.5); "
        "semantics svpi.")


def test_verdict_line(table1b):
    safe = skyline_check(table1b, Policy({}, default=[(0, 0, 0, 0.9)]))
    assert verdict_line(safe) == "SAFE: all 3 (value, point) checks hold."
    unsafe = skyline_check(table1b, Policy({"AIDS": [(0, 1, 0, 0.7), (0, 0, 1, 0.7)]},
                                           default=[(0, 0, 0, 0.9)]))
    assert verdict_line(unsafe) == "UNSAFE: 1 of 4 (value, point) checks fail."


# ----------------------------------------------------------------------- naming_the_file
def release_args(**given):
    args = {"table": "t.csv", "policy": "p.toml", "certificate": None, "hierarchy": []}
    return Namespace(**{**args, **given})


def test_an_error_about_the_table_is_prefixed_with_it():
    error = SchemaError("Column 'zip' is not in the table;\n columns are ['age'].")
    assert naming_the_file(error, release_args()) == (
        "Table 't.csv': Column 'zip' is not in the table; columns are ['age'].")


def test_an_error_that_names_its_file_is_left_alone():
    args = release_args(certificate="c.json")
    error = InputError("Certificate 'c.json' is not valid JSON: line 1")
    assert naming_the_file(error, args) == "Certificate 'c.json' is not valid JSON: line 1"
    error = InputError("Hierarchy file 'age.csv' for column 'age': levels of unequal depth")
    assert naming_the_file(error, release_args(hierarchy=[("age", "age.csv")])) == \
        "Hierarchy file 'age.csv' for column 'age': levels of unequal depth"


def test_a_cannot_error_is_left_alone():
    error = InputError("Cannot read set-label file 'x.json': No such file or directory.")
    assert naming_the_file(error, release_args()) == \
        "Cannot read set-label file 'x.json': No such file or directory."


def test_a_policy_error_names_the_policy_file():
    error = InputError("Policy value 'Exec-manager' does not occur in column 'occupation'.")
    assert naming_the_file(error, release_args()) == (
        "Policy 'p.toml': Policy value 'Exec-manager' does not occur in column 'occupation'.")
    # without --policy (e.g. find) it is an error about the table
    assert naming_the_file(error, release_args(policy=None)) == (
        "Table 't.csv': Policy value 'Exec-manager' does not occur in column 'occupation'.")


def test_a_hierarchy_error_names_the_hierarchy_of_the_column_it_is_about():
    args = release_args(hierarchy=[("age", "age.csv"), ("sex", "sex.csv")])
    error = HierarchyError("Hierarchy for column 'sex': 'Female' is not a leaf.")
    assert naming_the_file(error, args) == (
        "Hierarchy 'sex.csv' of 'sex': Hierarchy for column 'sex': 'Female' is not a leaf.")
    error = HierarchyError("A hierarchy is malformed.")  # no column named: the first one
    assert naming_the_file(error, args) == (
        "Hierarchy 'age.csv' of 'age': A hierarchy is malformed.")
    # without --hierarchy a HierarchyError is about the table
    assert naming_the_file(error, release_args()) == "Table 't.csv': A hierarchy is malformed."


def test_an_error_without_any_input_file_is_its_one_line():
    assert naming_the_file(ValueError("bad\nthing"), Namespace()) == "bad thing"


def test_a_rule_file_named_in_the_message_is_left_alone():
    args = Namespace(table="d.csv", rule="announced.csv", certificate="c.json")
    error = SchemaError("Column 'd_tilde' is not in 'announced.csv'.")
    assert naming_the_file(error, args) == "Column 'd_tilde' is not in 'announced.csv'."
