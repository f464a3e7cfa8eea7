"""Every user-facing error of skyprivacy.hierarchy, with its full message.

Messages are matched whole (``^...$`` around ``re.escape``) so a change of wording is a
deliberate, reviewed change.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from skyprivacy.errors import HierarchyError, InvalidParameterError, SchemaError
from skyprivacy.hierarchy import Hierarchy, generalize_frame


def exactly(message: str) -> str:
    return "^" + re.escape(message) + "$"


SEX = Hierarchy([["Male", "*"], ["Female", "*"]], name="sex")
EDU = Hierarchy.bundled("adult", "education")


# ------------------------------------------------------------------ construction
@pytest.mark.parametrize("build", [
    lambda: Hierarchy([], name="h"),
    lambda: Hierarchy.from_levels(pd.DataFrame(), name="h"),
    lambda: Hierarchy.from_arx("\n\n", name="h"),
    lambda: Hierarchy.from_mapping({}, name="h"),
    lambda: Hierarchy.from_mapping([], name="h"),
    lambda: Hierarchy.from_mapping([{}], name="h"),
])
def test_empty_hierarchy(build):
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'h' is empty: give at least one leaf and its levels.")):
        build()


def test_empty_row():
    with pytest.raises(HierarchyError, match=exactly("Hierarchy: row 2 is empty.")):
        Hierarchy([["a", "*"], [None, ""]])
    with pytest.raises(HierarchyError, match=exactly("Hierarchy 'm': a row is empty.")):
        Hierarchy.from_mapping({None: []}, name="m")


def test_unequal_depth_names_both_rows():
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'edu': levels of unequal depth: row 2 (leaf 'HS') has 1 level(s) above "
            "the leaf but row 1 (leaf 'BSc') has 2.")):
        Hierarchy.from_arx("BSc;Higher;*\nHS;*\n", name="edu")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy: levels of unequal depth: leaf 'b' has 2 level(s) above the leaf but "
            "leaf 'a' has 1.")):
        Hierarchy.from_mapping({"a": ["*"], "b": ["x", "*"]})


def test_empty_label_inside_a_row():
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy: row 2 (leaf 'b') has an empty label at level 1.")):
        Hierarchy.from_arx("a;x;*\nb;;*\n")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy: row 1 (leaf 'a') has an empty label at level 1.")):
        Hierarchy.from_levels(pd.DataFrame([["a", np.nan, "*"]]))
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy: row 1 (leaf None) has an empty label at level 0.")):
        Hierarchy([[None, "*"]])


def test_unhashable_label():
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy: row 2 (leaf 'b') has an unhashable label ['x'] at level 1.")):
        Hierarchy([["a", "x", "*"], ["b", ["x"], "*"]])


def test_duplicate_leaf_names_both_rows():
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'sex': leaf 'Male' appears twice, in row 1 (leaf 'Male') and row 3 "
            "(leaf 'Male').")):
        Hierarchy.from_arx("Male;*\nFemale;*\nMale;*\n", name="sex")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy: leaf 1 appears twice, in row 1 (leaf 1) and row 2 (leaf 1.0).")):
        Hierarchy([[1, "*"], [1.0, "*"]])


def test_two_parents_names_node_and_both_parents():
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'education': node 'Undergraduate' at level 1 has two parents, "
            "'Higher education' (row 1 (leaf 'Bachelors')) and 'Secondary education' "
            "(row 3 (leaf 'Some-college')).")):
        Hierarchy.from_arx(
            "Bachelors;Undergraduate;Higher education;*\n"
            "HS-grad;High School;Secondary education;*\n"
            "Some-college;Undergraduate;Secondary education;*\n", name="education")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy: node 'x' at level 1 has two parents, 'p' (leaf 'a') and 'q' "
            "(leaf 'b').")):
        Hierarchy.from_mapping({"a": ["x", "p", "*"], "b": ["x", "q", "*"]})


def test_more_than_one_root():
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'r' has 2 roots ['*', 'ALL'] at level 1; the last level must hold a "
            "single label such as '*'.")):
        Hierarchy.from_arx("a;*\nb;ALL\n", name="r")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy has 7 roots ['a', 'b', 'c', 'd', 'e', ...] at level 0; the last level "
            "must hold a single label such as '*'.")):
        Hierarchy([[c] for c in "abcdefg"])


def test_per_level_mapping_errors():
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'd': node 'dig' at level 1 has no parent: it is not a key of mapping 2 "
            "(level 1 -> level 2).")):
        Hierarchy.from_mapping([{"flu": "resp", "ulcer": "dig"}, {"resp": "*"}], name="d")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'd': mapping 2 (level 1 -> level 2) has keys ['respiratory'] that are "
            "not nodes at level 1.")):
        Hierarchy.from_mapping([{"flu": "resp"}, {"resp": "*", "respiratory": "*"}], name="d")
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'mapping' parameter of Hierarchy.from_mapping must be a dict {leaf: "
            "[ancestors]} or a list of {child: parent} dicts. Got 'a:b' instead.")):
        Hierarchy.from_mapping("a:b")
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'mapping' parameter of Hierarchy.from_mapping must be a dict {leaf: "
            "[ancestors]} or a list of {child: parent} dicts. Got [('a', 'b')] instead.")):
        Hierarchy.from_mapping([("a", "b")])


def test_levels_argument_errors():
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'levels' parameter of Hierarchy.from_levels must be a DataFrame, a 2-D array "
            "or a sequence of rows. Got 'a;*' instead.")):
        Hierarchy.from_levels("a;*")
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'levels' parameter of Hierarchy must be a DataFrame, a 2-D array or a "
            "sequence of rows. Got {'a': '*'} instead.")):
        Hierarchy({"a": "*"})
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'levels' parameter of Hierarchy.from_levels must be two-dimensional (one row "
            "per leaf). Got an array of shape (2,) instead.")):
        Hierarchy.from_levels(np.array(["a", "*"]))
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'levels' parameter of Hierarchy.from_levels must be a sequence of rows (each "
            "a sequence of labels). Got 'a' instead.")):
        Hierarchy.from_levels(["a", "*"])


@pytest.mark.parametrize("owner, call", [
    ("Hierarchy", lambda: Hierarchy([["a"]], name=3)),
    ("Hierarchy.from_arx", lambda: Hierarchy.from_arx("a", name=3)),
    ("Hierarchy.from_levels", lambda: Hierarchy.from_levels([["a"]], name=3)),
    ("Hierarchy.from_mapping", lambda: Hierarchy.from_mapping({"a": []}, name=3)),
    ("Hierarchy.intervals", lambda: Hierarchy.intervals([1], [2], name=3)),
    ("Hierarchy.masking", lambda: Hierarchy.masking(["1"], name=3)),
    ("Hierarchy.dates", lambda: Hierarchy.dates(["2024-01-01"], name=3)),
])
def test_name_must_be_a_string(owner, call):
    with pytest.raises(InvalidParameterError, match=exactly(
            f"The 'name' parameter of {owner} must be a string or None. Got 3 instead.")):
        call()


# ---------------------------------------------------------------------- from_arx
def test_from_arx_argument_errors(tmp_path):
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'sep' parameter of Hierarchy.from_arx must be a single character other than a "
            "quote or newline. Got ';;' instead.")):
        Hierarchy.from_arx("a;*", sep=";;")
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'source' parameter of Hierarchy.from_arx must be a path, a file-like object, "
            "CSV text or a DataFrame. Got 42 instead.")):
        Hierarchy.from_arx(42)
    missing = tmp_path / "missing.csv"
    with pytest.raises(FileNotFoundError, match="missing.csv"):
        Hierarchy.from_arx(str(missing))


# ---------------------------------------------------------------------- builders
def test_intervals_parameter_errors():
    owner = "The '{}' parameter of Hierarchy.intervals must "
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("closed") + "be 'left' or 'right'. Got 'both' instead.")):
        Hierarchy.intervals([1], [5], closed="both")
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("origin") + "be a finite number. Got inf instead.")):
        Hierarchy.intervals([1], [5], origin=float("inf"))
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("origin") + "be a finite number. Got '0' instead.")):
        Hierarchy.intervals([1], [5], origin="0")
    requirement = "be increasing positive numbers, each a multiple of the previous"
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("widths") + requirement + " (12 is not a larger multiple of 5). "
            "Got (5, 12) instead.")):
        Hierarchy.intervals([1], (5, 12))
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("widths") + requirement + " (5 is not a larger multiple of 10). "
            "Got [10, 5] instead.")):
        Hierarchy.intervals([1], [10, 5])
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("widths") + requirement + " (5 is not a larger multiple of 5). "
            "Got [5, 5] instead.")):
        Hierarchy.intervals([1], [5, 5])
    for widths in ([], [0], [-5], [True], "5", 5, [float("nan")]):
        with pytest.raises(InvalidParameterError, match=exactly(
                owner.format("widths") + requirement + f". Got {widths!r} instead.")):
            Hierarchy.intervals([1], widths)
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("values") + "be an iterable of numbers. Got 7 instead.")):
        Hierarchy.intervals(7, [5])


def test_intervals_value_errors():
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'age': intervals need finite numbers; 3 value(s) are not: "
            "['x', nan, True].")):
        Hierarchy.intervals([1, "x", np.nan, True, 2], [5], name="age")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy: intervals need finite numbers; 1 value(s) are not: [inf].")):
        Hierarchy.intervals(np.array([1.0, np.inf]), [5])
    for empty in ([], range(0), np.array([], dtype=int)):
        with pytest.raises(HierarchyError, match=exactly(
                "Hierarchy is empty: give at least one value.")):
            Hierarchy.intervals(empty, [5])


def test_masking_errors():
    owner = "The '{}' parameter of Hierarchy.masking must "
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("mask_char") + "be a single character. Got '**' instead.")):
        Hierarchy.masking(["123"], mask_char="**")
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("codes") + "be an iterable of codes (str or int). Got '47906' "
            "instead.")):
        Hierarchy.masking("47906")
    for levels in ([2, 1], [0, 1], [1, 6], [1.5], "12", 3, [True]):
        with pytest.raises(InvalidParameterError, match=exactly(
                owner.format("levels") + "be strictly increasing integers in [1, 5]. "
                f"Got {levels!r} instead.")):
            Hierarchy.masking(["47906"], levels=levels)
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'zip': codes to mask must all have the same length; '47906' has 5 "
            "characters but '4790' has 4.")):
        Hierarchy.masking(["47906", 4790], name="zip")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'zip': codes to mask contain a missing value (nan).")):
        Hierarchy.masking(["47906", np.nan], name="zip")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy: codes to mask must be strings or integers; got 47906.0.")):
        Hierarchy.masking([47906.0])
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy: codes to mask contain an empty string.")):
        Hierarchy.masking(["1", ""])
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy is empty: give at least one code to mask.")):
        Hierarchy.masking([])


def test_dates_errors():
    requirement = ("be a sequence of distinct names from ['month', 'quarter', 'year', "
                   "'decade', 'century'] in that order")
    for levels in (("year", "month"), ("week",), "year", ("year", "year"), 3):
        with pytest.raises(InvalidParameterError, match=exactly(
                f"The 'levels' parameter of Hierarchy.dates must {requirement}. "
                f"Got {levels!r} instead.")):
            Hierarchy.dates(["2024-01-01"], levels=levels)
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'values' parameter of Hierarchy.dates must be an iterable of dates. "
            "Got '2024-01-01' instead.")):
        Hierarchy.dates("2024-01-01")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'd': dates contain 2 missing value(s) [None, NaT].")):
        Hierarchy.dates(["2024-01-01", None, pd.NaT], name="d")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy: 2 value(s) cannot be read as dates: ['2024-13-45', 2024].")):
        Hierarchy.dates(["2024-01-01", "2024-13-45", 2024])
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy is empty: give at least one date.")):
        Hierarchy.dates([])


def test_bundled_errors():
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'dataset' parameter of Hierarchy.bundled must be 'adult' or 'nursery'. "
            "Got 'census' instead.")):
        Hierarchy.bundled("census", "age")
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'attribute' parameter of Hierarchy.bundled must be one of ['age', "
            "'workclass', 'education', 'marital-status', 'occupation', 'race', 'sex', "
            "'native-country', 'income', 'salary-class']. Got 'zip' instead.")):
        Hierarchy.bundled("adult", "zip")


# ------------------------------------------------------------------------ lookups
def test_uncovered_values_are_named_with_counts():
    age = Hierarchy.bundled("adult", "age")
    values = pd.Series([39, 150, 151, 151, "x", 0, -1, 200, 39])
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'age' does not cover 6 distinct value(s) of the data (7 row(s)): "
            "[150, 151, 'x', 0, -1, ...]; its leaves include ['1', '2', '3', '4', '5', ...].")):
        age.generalize(values, 1)
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'sex' does not cover 1 distinct value(s) of the data (1 row(s)): "
            "['male']; its leaves include ['Male', 'Female'].")):
        SEX.validate(["Male", "male"])
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'sex' does not cover 1 distinct value(s) of the data (2 row(s)): "
            "[nan]; its leaves include ['Male', 'Female'].")):
        SEX.generalize(pd.Series(["Male", None, np.nan]), 1)
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'sex' does not cover 1 distinct value(s) of the data (1 row(s)): "
            "[['Male']]; its leaves include ['Male', 'Female'].")):
        SEX.generalize([["Male"]], 1)


@pytest.mark.parametrize("level", [-1, 2, 1.0, True, "1", None])
def test_level_out_of_range(level):
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'level' parameter of Hierarchy.generalize must be an integer in [0, 1]. "
            f"Got {level!r} instead.")):
        SEX.generalize(["Male"], level)
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'level' parameter of Hierarchy.nodes_at must be an integer in [0, 1]. "
            f"Got {level!r} instead.")):
        SEX.nodes_at(level)
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'level' parameter of Hierarchy.labels_at must be an integer in [0, 1]. "
            f"Got {level!r} instead.")):
        SEX.labels_at(level)


def test_values_must_be_one_dimensional_and_ordered():
    owner = "The 'values' parameter of Hierarchy.{} must be "
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("generalize") + "one-dimensional (a Series, array, list or scalar). "
            "Got a DataFrame instead.")):
        SEX.generalize(pd.DataFrame({"sex": ["Male"]}), 1)
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("validate") + "one-dimensional (a Series, array, list or scalar). "
            "Got an array of shape (1, 1) instead.")):
        SEX.validate(np.array([["Male"]]))
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("covers") + "ordered (a Series, array, list or scalar). "
            "Got a set instead.")):
        SEX.covers({"Male"})
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("lca") + "ordered (a Series, array, list or scalar). "
            "Got a dict instead.")):
        SEX.lca({"Male": 1})


# --------------------------------------------------------------------------- nodes
def test_unknown_and_ambiguous_nodes():
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'education' has no node 'PhD'; nodes are (level, label) pairs such as "
            "(1, 'Undergraduate').")):
        EDU.parent("PhD")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'education' has no node (2, 'Graduate'); nodes are (level, label) pairs "
            "such as (1, 'Undergraduate').")):
        EDU.children((2, "Graduate"))
    reused = Hierarchy([["a", "ab", "*"], ["b", "ab", "*"], ["c", "c", "*"]], name="r")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'r': label 'c' is at levels 0, 1; pass a (level, label) node to say "
            "which.")):
        reused.level_of("c")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'r': label 'c' is at levels 0, 1; pass a (level, label) node to say "
            "which.")):
        reused.leaves_under("c")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy has no node 'z'; nodes are (level, label) pairs such as (0, 'only').")):
        Hierarchy([["only"]]).ancestors("z")


# ----------------------------------------------------------------------------- lca
def test_lca_errors():
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'values' parameter of Hierarchy.lca_node must be non-empty. Got [] instead.")):
        EDU.lca_node(pd.Series([], dtype=object))
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'education' does not cover 1 distinct value(s) of the data (1 row(s)): "
            "['PhD']; its leaves include ['Bachelors', 'Some-college', '11th', 'HS-grad', "
            "'Prof-school', ...].")):
        EDU.lca(["Masters", "PhD"])
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'education' does not cover 1 distinct value(s) of the data (1 row(s)): "
            "[(4, '*')]; its leaves include ['Bachelors', 'Some-college', '11th', 'HS-grad', "
            "'Prof-school', ...].")):
        EDU.lca_node([(4, "*")])


def test_lca_by_group_errors():
    owner = "The 'groups' parameter of Hierarchy.lca_by_group must "
    with pytest.raises(InvalidParameterError, match=exactly(
            owner + "have one key per value (2). Got 3 keys instead.")):
        SEX.lca_by_group(["Male", "Female"], [1, 1, 2])
    with pytest.raises(InvalidParameterError, match=exactly(
            owner + "have no missing keys. Got 1 missing instead.")):
        SEX.lca_by_group(["Male", "Female"], [1, None])
    with pytest.raises(InvalidParameterError, match=exactly(
            owner + "be one-dimensional (a Series, array, list or scalar). Got a DataFrame "
            "instead.")):
        SEX.lca_by_group(["Male"], pd.DataFrame({"g": [1]}))
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'sex' does not cover 1 distinct value(s) of the data (1 row(s)): "
            "['M']; its leaves include ['Male', 'Female'].")):
        SEX.lca_by_group(["Male", "M"], [1, 2])


# -------------------------------------------------------------------------- export
def test_to_arx_errors():
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'path_or_buffer' parameter of Hierarchy.to_arx must be a path, a text "
            "file-like object or None. Got 3 instead.")):
        SEX.to_arx(3)
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'sep' parameter of Hierarchy.to_arx must be a single character other than a "
            "quote or newline. Got '\\n' instead.")):
        SEX.to_arx(sep="\n")


def test_generalize_frame_errors():
    table = pd.DataFrame({"age": [39], "sex": ["Male"]})
    hierarchies = {"sex": SEX}
    with pytest.raises(SchemaError, match=exactly(
            "Column 'zip' is not in the table; columns are ['age', 'sex'].")):
        generalize_frame(table, hierarchies=hierarchies, levels={"zip": 1})
    with pytest.raises(SchemaError, match=exactly(
            "Column 'age' has no hierarchy; hierarchies are given for ['sex'].")):
        generalize_frame(table, hierarchies=hierarchies, levels={"age": 1})
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'frame' parameter of generalize_frame must be a pandas DataFrame. "
            "Got a Series instead.")):
        generalize_frame(table["sex"], hierarchies=hierarchies, levels={"sex": 1})


def test_errors_are_value_errors():
    with pytest.raises(ValueError):
        SEX.generalize(["x"], 1)
    with pytest.raises(ValueError):
        SEX.generalize(["Male"], 9)
