"""skyprivacy/cli/release_inputs.py: the inputs of the release commands (the release model, the
policy's and --values' values checked against the data, hierarchies, orders, set-label files
and the HTML report)."""
import hashlib
import os
import re
from argparse import Namespace

import pandas as pd
import pytest

from skyprivacy import Policy, skyline_check
from skyprivacy.certificate import build_certificate
from skyprivacy.cli.context import Context
from skyprivacy.cli.release_inputs import (
    built_hierarchies,
    check_policy_values,
    check_values,
    given_hierarchies,
    labels_output,
    load_release,
    orders,
    original_table,
    report_page,
    stage_labels,
)
from skyprivacy.errors import SchemaError, UsageError
from skyprivacy.io import InputError, OutputFiles
from skyprivacy.labels import parse_labels

from .helpers import RELEASE, assert_input_error, exactly


def test_find_rejects_an_unknown_value(work, capsys):
    assert_input_error(capsys, ["find", "released.csv", *RELEASE, "-c", "0.9", "--values",
                                "Sales,Salse"],
                       r"^skyprivacy find: error: Table 'released.csv': Value 'Salse' does "
                       r"not occur in column 'occupation'\. Did you mean 'Sales'\?")


def test_an_unknown_policy_value(work, capsys):
    (work / "typo.toml").write_text('[values."Exec-manager"]\nskyline = [[1, 5, 1, 0.9]]\n')
    for command in (["check", "released.csv"], ["anonymize", "adult.csv", "--output",
                                                "o.csv"]):
        assert_input_error(capsys, [*command, *RELEASE, "--policy", "typo.toml"],
                           r"error: Policy 'typo.toml': Policy value 'Exec-manager' does not "
                           r"occur in column 'occupation'\. Did you mean 'Exec-managerial'\? "
                           r"Values there: "
                           r"\['Adm-clerical', ", "o.csv", "o.cert.json")



# ------------------------------------------------------------------------- the release
RAW = pd.DataFrame({"zip": ["130**"] * 4 + ["148**"] * 4,
                    "age": ["2*", "2*", "3*", "3*", "4*", "4*", "4*", "NA"],
                    "disease": ["AIDS", "AIDS", "Flu", "Flu", "AIDS", "Cancer", "Flu", "Flu"],
                    "person": ["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"]})


def release_args(**given):
    args = {"qi": ["zip"], "group": None, "sensitive": "disease", "individual": None,
            "semantics": "svpi", "na_values": None, "table": "t.csv"}
    return Namespace(**{**args, **given})


def test_load_release_groups_by_the_qi_columns_or_the_group_column(table1b):
    for args in (release_args(), release_args(qi=None, group="zip")):
        release = load_release(args, RAW)
        assert release.n_groups == 2 and release.n_individuals == 8
        assert release.group_sizes.tolist() == [4, 4]
        for g in (0, 1):  # the paper's Table 1b, group for group
            assert release.group_counts(g) == table1b.group_counts(g)


def test_load_release_needs_distinct_columns():
    with pytest.raises(UsageError, match=exactly(
            "the grouping columns, --sensitive and --individual must be distinct columns; got "
            "['zip', 'disease', 'zip']")):
        load_release(release_args(individual="zip"), RAW)


def test_load_release_needs_every_column():
    with pytest.raises(SchemaError, match=exactly(
            "Column 'zip5' is not in the table; columns are ['zip', 'age', 'disease', "
            "'person']. Did you mean 'zip'?")):
        load_release(release_args(qi=["zip5"]), RAW)


def test_load_release_refuses_missing_cells_unless_na_values_say_otherwise():
    with pytest.raises(SchemaError, match=exactly(
            "Column 'age' has 1 missing cell(s), the first on data row 8 ('NA'); skyprivacy "
            "never drops rows silently: fill or remove them (or change --na-values).")):
        load_release(release_args(qi=["age"]), RAW)
    release = load_release(release_args(qi=["age"], na_values=()), RAW)
    assert release.n_groups == 4  # 'NA' is a group of its own


# ---------------------------------------------------------------------- values checked
def test_policy_values_that_occur_pass():
    check_policy_values(Policy({"Flu": [(0, 0, 0, 0.9)]}, default=[(0, 0, 0, 0.9)]),
                        ["AIDS", "Flu"], "disease")
    check_policy_values(Policy({3: [(0, 0, 0, 0.9)]}), [3, 4], "code")  # compared as text


def test_an_unknown_policy_value_suggests_the_closest():
    with pytest.raises(InputError, match=exactly(
            "Policy value 'Flue' does not occur in column 'disease'. Did you mean 'Flu'? "
            "Values there: ['AIDS', 'Cancer', 'Flu'].")):
        check_policy_values(Policy({"Flue": [(0, 0, 0, 0.9)]}), ["Flu", "AIDS", "Cancer"],
                            "disease")


def test_an_unknown_value_without_a_close_one_lists_eight_values():
    with pytest.raises(InputError, match=exactly(
            "Value 'zzz' does not occur in column 'x'. Values there: ['a', 'b', 'c', 'd', "
            "'e', 'f', 'g', 'h', ...].")):
        check_values(["a", "zzz"], list("jihgfedcba"), "x")


def test_values_that_occur_pass():
    check_values(None, ["a"], "x")  # no --values: every value
    check_values(["a", "3"], ["a", 3], "x")


# ------------------------------------------------------------------------- hierarchies
def hierarchy_args(**given):
    args = {"qi": ["zip", "age"], "hierarchy": [], "hierarchy_sep": ";", "categorical": [],
            "table": "t.csv"}
    return Namespace(**{**args, **given})


def test_given_hierarchies_reads_files_and_bundled_ones_not_shortcuts(tmp_path):
    (tmp_path / "zip.csv").write_text("13053|1305*|*\n13068|1306*|*\n")
    hierarchies = given_hierarchies(hierarchy_args(hierarchy=[
        ("zip", str(tmp_path / "zip.csv")), ("age", "bundled:adult:age")], hierarchy_sep="|"))
    assert sorted(hierarchies) == ["age", "zip"]
    assert hierarchies["zip"].generalize(["13053", "13068"], 1) == ["1305*", "1306*"]
    assert hierarchies["age"].covers(["17", "90"])
    assert given_hierarchies(hierarchy_args(hierarchy=[("zip", "mask:2"),
                                                       ("age", "intervals:10")])) == {}


@pytest.mark.parametrize("given, message", [
    ({"hierarchy": [("sex", "bundled:adult:sex")]},
     "--hierarchy is given for 'sex', which is not in --qi zip,age"),
    ({"hierarchy": [("zip", "mask:2"), ("zip", "mask:3")]},
     "--hierarchy is given twice for 'zip'"),
    ({"categorical": ["sex"]}, "--categorical names 'sex', which is not in --qi zip,age"),
])
def test_given_hierarchies_usage_errors(given, message):
    with pytest.raises(UsageError, match=exactly(message)):
        given_hierarchies(hierarchy_args(**given))


ZIPS = pd.DataFrame({"zip": ["13053", "13068", "14850"], "age": ["007", "10", "25"]})


def levels(tree, cells):
    return [tree.generalize(cells, level) for level in range(tree.height + 1)]


def test_a_mask_hierarchy_masks_trailing_characters():
    built = built_hierarchies(hierarchy_args(hierarchy=[("zip", "mask:2")]), ZIPS, {})
    assert levels(built["zip"], ["13053", "14850"]) == [
        ["13053", "14850"], ["1305*", "1485*"], ["130**", "148**"], ["*", "*"]]


def test_masking_every_character_is_the_root():
    built = built_hierarchies(hierarchy_args(hierarchy=[("zip", "mask:5")]), ZIPS, {})
    assert built["zip"].height == 5  # four masks, then '*' (not '*****')
    assert levels(built["zip"], ["13053"])[-2:] == [["1****"], ["*"]]


def test_an_interval_hierarchy_keeps_the_cells_as_written():
    built = built_hierarchies(hierarchy_args(hierarchy=[("age", "intervals:10,20")]), ZIPS,
                              {})
    assert levels(built["age"], ["007", "10", "25"]) == [
        ["007", "10", "25"], ["[0, 10)", "[10, 20)", "[20, 30)"],
        ["[0, 20)", "[0, 20)", "[20, 40)"], ["*", "*", "*"]]


def test_built_hierarchies_keep_the_given_ones():
    given = {"age": object()}
    built = built_hierarchies(hierarchy_args(hierarchy=[("age", "bundled:adult:age"),
                                                        ("zip", "mask:1")]), ZIPS, given)
    assert built["age"] is given["age"] and sorted(built) == ["age", "zip"]
    assert given == {"age": given["age"]}  # not changed in place


def test_a_mask_needs_codes_of_one_length():
    with pytest.raises(InputError, match=exactly(
            "Table 't.csv': --hierarchy age=mask:1 needs codes of one length in column 'age'; "
            "'10' has 2 character(s) but '007' has 3.")):
        built_hierarchies(hierarchy_args(hierarchy=[("age", "mask:1")]), ZIPS, {})


def test_a_mask_longer_than_the_codes():
    with pytest.raises(UsageError, match=exactly(
            "--hierarchy zip=mask:6 masks 6 characters, but the codes of column 'zip' in "
            "'t.csv' have 5")):
        built_hierarchies(hierarchy_args(hierarchy=[("zip", "mask:6")]), ZIPS, {})


def test_intervals_need_finite_numbers():
    table = pd.DataFrame({"zip": ["1", "x", "inf", "y", "x"], "age": ["1"] * 5})
    with pytest.raises(InputError, match=exactly(
            "Table 't.csv': --hierarchy zip=intervals:10 needs finite numbers in column 'zip'; "
            "3 distinct cell(s) are not, e.g. ['x', 'inf', 'y'].")):
        built_hierarchies(hierarchy_args(hierarchy=[("zip", "intervals:10")]), table, {})


# ------------------------------------------------------------------------------ orders
@pytest.mark.parametrize("order, expected", [
    ([], None),
    ([(None, "first")], "first"),
    ([("zip", "first"), ("age", ("10", "007", "25"))],
     {"zip": "first", "age": ("10", "007", "25")}),
])
def test_orders(order, expected):
    assert orders(Namespace(order=order, qi=["zip", "age"])) == expected


@pytest.mark.parametrize("order, message", [
    ([(None, "first"), (None, "sorted")], "--order RULE is given twice"),
    ([(None, "first"), ("zip", "sorted")],
     "give one --order RULE for every categorical quasi-identifier, or --order COL=... per "
     "column, not both"),
    ([("sex", "first")], "--order is given for 'sex', which is not in --qi zip,age"),
    ([("zip", "first"), ("zip", "sorted")], "--order is given twice for 'zip'"),
])
def test_orders_usage_errors(order, message):
    with pytest.raises(UsageError, match=exactly(message)):
        orders(Namespace(order=order, qi=["zip", "age"]))


# -------------------------------------------------------------------------- set labels
@pytest.mark.parametrize("given, output, path", [
    ({}, "released.csv", "released.labels.json"),
    ({}, os.path.join("out", "r.parquet"), os.path.join("out", "r.labels.json")),
    ({}, "released", "released.labels.json"),  # a dataset directory
    ({"labels": "sets.json"}, "released.csv", "sets.json"),
    ({}, None, None),
    ({"bucketized": True}, "released.csv", None),  # a bucketized release has no sets
])
def test_labels_output(given, output, path):
    assert labels_output(Namespace(**{"labels": None, **given}), output) == path


def test_labels_output_usage_errors():
    with pytest.raises(UsageError, match=exactly(
            "--labels needs --output: it lists the sets of the released table")):
        labels_output(Namespace(labels="sets.json"), None)
    with pytest.raises(UsageError, match=exactly(
            "--labels has no use with --bucketized: a bucketized release keeps its "
            "quasi-identifier values")):
        labels_output(Namespace(labels="sets.json", bucketized=True), "released.csv")


SETS = {"job": {"0473ef2d": ("a", "b")}}  # the digest of ["a", "b"]


def test_stage_labels_writes_the_file_and_records_it_beside_the_output(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "labels").mkdir()
    path = tmp_path / "labels" / "sets.json"
    with OutputFiles() as out:
        record = stage_labels(out, str(path), str(tmp_path / "out" / "r.csv"), SETS)
        out.commit()
    data = path.read_bytes()
    assert parse_labels(data) == SETS
    assert record == {"file": os.path.join("..", "labels", "sets.json"),
                      "sha256": hashlib.sha256(data).hexdigest()}


@pytest.mark.parametrize("path, sets", [(None, SETS), ("sets.json", {})])
def test_stage_labels_without_sets_or_path_writes_nothing(tmp_path, monkeypatch, path, sets):
    monkeypatch.chdir(tmp_path)
    with OutputFiles() as out:
        assert stage_labels(out, path, "r.csv", sets) is None
        assert out.commit() == []
    assert os.listdir(tmp_path) == []


# ---------------------------------------------------------------------- original table
def anonymize_args(**given):
    args = {"qi": ["zip", "age"], "sensitive": "disease", "na_values": ()}
    return Namespace(**{**args, **given})


def test_original_table_is_the_input_as_read():
    assert original_table(anonymize_args(), RAW, {}) is RAW


def test_original_table_usage_and_input_errors():
    with pytest.raises(UsageError, match=exactly("--sensitive zip is also in --qi")):
        original_table(anonymize_args(sensitive="zip"), RAW, {})
    with pytest.raises(SchemaError, match=exactly(
            "Column 'diagnosis' is not in the table; columns are ['zip', 'age', 'disease', "
            "'person'].")):
        original_table(anonymize_args(sensitive="diagnosis"), RAW, {})
    with pytest.raises(SchemaError, match=re.escape(
            "Column 'age' has 1 missing cell(s), the first on data row 8 ('NA'); ")):
        original_table(anonymize_args(na_values=None), RAW, {})


# ------------------------------------------------------------------------------- report
@pytest.mark.parametrize("n_values", [0, 2])
def test_report_page_draws_the_most_exposed_values(capsys, n_values):
    args = release_args(report_confidence=None, report_values=n_values,
                        report_images="svg", command="check", progress=True, quiet=False)
    release = load_release(args, RAW)
    policy = Policy({}, default=[(0, 0, 0, 0.9)])
    result = skyline_check(release, policy)
    certificate = build_certificate(RAW, policy, sensitive="disease", qi=["zip"],
                                    result=result)
    page = report_page(Context(args), certificate, release, result, "t.csv").decode("utf-8")
    assert "Verdict: SAFE" in page and "t.csv" in page
    assert page.count("<figcaption>Knowledge skyline of ") == n_values
    err = capsys.readouterr().err
    if n_values:
        assert err.startswith("\rdrawing knowledge skylines [") and err.endswith("100%\n")
    else:  # nothing to draw, no bar
        assert err == ""
