"""The model (skyprivacy/hierarchy/model.py): construction and its checks, structure, lookups,
lowest common ancestors and the object protocol.

Reference values come from the bundled ARX Adult files and from the examples of Chen, LeFevre
and Ramakrishnan (2009), Sect. 1.3 (zip codes ``1234*``); Hypothesis properties compare every
query with an oracle that reads the hierarchy's own row table.
"""

from __future__ import annotations

import pickle

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from skyprivacy.datasets import bundled, load_adult_hierarchies
from skyprivacy.errors import HierarchyError, InvalidParameterError
from skyprivacy.hierarchy import Hierarchy, from_levels, from_mapping, masking, parse_arx
from skyprivacy.hierarchy.model import make_hierarchy

from .helpers import PROFILE, arx_rows, exactly, oracle_lca, trees


# ------------------------------------------------------------------ construction
@pytest.mark.parametrize("build", [
    lambda: Hierarchy([], name="h"),
    lambda: from_levels(pd.DataFrame(), name="h"),
    lambda: parse_arx("\n\n", name="h"),
    lambda: from_mapping({}, name="h"),
    lambda: from_mapping([], name="h"),
    lambda: from_mapping([{}], name="h"),
])
def test_empty_hierarchy(build):
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'h' is empty: give at least one leaf and its levels.")):
        build()


def test_empty_row():
    with pytest.raises(HierarchyError, match=exactly("Hierarchy: row 2 is empty.")):
        Hierarchy([["a", "*"], [None, ""]])
    with pytest.raises(HierarchyError, match=exactly("Hierarchy 'm': a row is empty.")):
        from_mapping({None: []}, name="m")


def test_unequal_depth_names_both_rows():
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'edu': levels of unequal depth: row 2 (leaf 'HS') has 1 level(s) above "
            "the leaf but row 1 (leaf 'BSc') has 2.")):
        parse_arx("BSc;Higher;*\nHS;*\n", name="edu")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy: levels of unequal depth: leaf 'b' has 2 level(s) above the leaf but "
            "leaf 'a' has 1.")):
        from_mapping({"a": ["*"], "b": ["x", "*"]})


def test_empty_label_inside_a_row():
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy: row 2 (leaf 'b') has an empty label at level 1.")):
        parse_arx("a;x;*\nb;;*\n")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy: row 1 (leaf 'a') has an empty label at level 1.")):
        from_levels(pd.DataFrame([["a", np.nan, "*"]]))
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
        parse_arx("Male;*\nFemale;*\nMale;*\n", name="sex")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy: leaf 1 appears twice, in row 1 (leaf 1) and row 2 (leaf 1.0).")):
        Hierarchy([[1, "*"], [1.0, "*"]])


def test_two_parents_names_node_and_both_parents():
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'education': node 'Undergraduate' at level 1 has two parents, "
            "'Higher education' (row 1 (leaf 'Bachelors')) and 'Secondary education' "
            "(row 3 (leaf 'Some-college')).")):
        parse_arx(
            "Bachelors;Undergraduate;Higher education;*\n"
            "HS-grad;High School;Secondary education;*\n"
            "Some-college;Undergraduate;Secondary education;*\n", name="education")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy: node 'x' at level 1 has two parents, 'p' (leaf 'a') and 'q' "
            "(leaf 'b').")):
        from_mapping({"a": ["x", "p", "*"], "b": ["x", "q", "*"]})


def test_more_than_one_root():
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'r' has 2 roots ['*', 'ALL'] at level 1; the last level must hold a "
            "single label such as '*'.")):
        parse_arx("a;*\nb;ALL\n", name="r")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy has 7 roots ['a', 'b', 'c', 'd', 'e', ...] at level 0; the last level "
            "must hold a single label such as '*'.")):
        Hierarchy([[c] for c in "abcdefg"])


def test_levels_argument_errors():
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'levels' parameter of Hierarchy must be a DataFrame, a 2-D array or a "
            "sequence of rows. Got {'a': '*'} instead.")):
        Hierarchy({"a": "*"})
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'levels' parameter of Hierarchy must be two-dimensional (one row per leaf). "
            "Got an array of shape (2,) instead.")):
        Hierarchy(np.array(["a", "*"]))
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'name' parameter of Hierarchy must be a string or None. Got 3 instead.")):
        Hierarchy([["a"]], name=3)


def test_calling_the_class_is_from_levels():
    frame = pd.DataFrame({"leaf": np.array([1, 2, 3]), "up": ["low", "low", "high"],
                          "top": ["*"] * 3})
    assert Hierarchy(frame) == from_levels(frame)
    assert Hierarchy(frame.values.tolist(), name="n") == from_levels(frame, name="n")


def test_make_hierarchy_cites_what_it_is_told():
    rows = [["a", "*"], ["a", "*"]]
    with pytest.raises(HierarchyError, match=r"in row 1 \(leaf 'a'\) and row 2 \(leaf 'a'\)\.$"):
        make_hierarchy([list(r) for r in rows])
    with pytest.raises(HierarchyError, match=r"in row 7 \(leaf 'a'\) and row 9 \(leaf 'a'\)\.$"):
        make_hierarchy([list(r) for r in rows], row_numbers=[7, 9])
    with pytest.raises(HierarchyError, match=r"in leaf 'a' and leaf 'a'\.$"):
        make_hierarchy([list(r) for r in rows], cite_rows=False)


def test_ragged_trailing_cells_are_padding():
    # pandas pads ragged CSV rows with NaN; trailing blanks are not labels.
    assert Hierarchy([["a", "*", np.nan], ["b", "*", np.nan]]).height == 1
    assert Hierarchy([["a", "*", ""], ["b", "*"]]).rows == (("a", "*"), ("b", "*"))


# --------------------------------------------------------------------- structure
def test_structure_navigation_on_education(education):
    h = education
    assert h.nodes_at(3) == ((3, "*"),)
    assert h.labels_at(0) == h.leaves
    assert h.parent("Masters") == (1, "Graduate")
    assert h.parent((1, "Graduate")) == (2, "Higher education")
    assert h.parent("*") is None
    assert h.ancestors("Masters") == ((1, "Graduate"), (2, "Higher education"), (3, "*"))
    assert h.ancestors("*") == ()
    assert h.children("Graduate") == ((0, "Masters"), (0, "Doctorate"))
    assert h.children("Masters") == ()
    assert h.leaves_under("Masters") == frozenset({"Masters"})
    assert h.leaves_under("*") == frozenset(h.leaves)
    assert h.level_of("Primary education") == 2


def test_numeric_leaf_as_node():
    age = bundled("adult", "age")
    assert age.parent(17) == (1, "15-19") and age.level_of(17) == 0
    assert age.leaves_under((1, "15-19")) == frozenset({"16", "17", "18", "19", "20"})


def test_graph_is_a_frozen_tree():
    for h in load_adult_hierarchies().values():
        g = h.graph
        assert isinstance(g, nx.DiGraph) and nx.is_frozen(g)
        assert nx.is_arborescence(g)
        assert g.graph["name"] == h.name
        assert set(g.successors(h.root_node)) == set(h.nodes_at(h.height - 1))
        leaves = [n for n in g if g.out_degree(n) == 0]
        assert sorted(label for _, label in leaves) == sorted(h.leaves)
        assert all(g.nodes[n]["level"] == n[0] and g.nodes[n]["label"] == n[1] for n in g)
        assert h.graph is g


def test_labels_reused_across_levels_are_distinct_nodes():
    # a category kept unchanged at level 1: label 'c' on levels 0 and 1
    h = Hierarchy([["a", "ab", "*"], ["b", "ab", "*"], ["c", "c", "*"]])
    assert (0, "c") in h.graph and (1, "c") in h.graph
    assert h.graph.has_edge((1, "c"), (0, "c"))
    assert h.children((1, "c")) == ((0, "c"),)
    assert h.parent((0, "c")) == (1, "c")


@pytest.mark.parametrize("level", [-1, 2, 1.0, True, "1", None])
def test_level_out_of_range(level, sex):
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'level' parameter of Hierarchy.generalize must be an integer in [0, 1]. "
            f"Got {level!r} instead.")):
        sex.generalize(["Male"], level)
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'level' parameter of Hierarchy.nodes_at must be an integer in [0, 1]. "
            f"Got {level!r} instead.")):
        sex.nodes_at(level)
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'level' parameter of Hierarchy.labels_at must be an integer in [0, 1]. "
            f"Got {level!r} instead.")):
        sex.labels_at(level)


def test_numpy_levels_are_accepted_and_shown_native(sex):
    assert sex.generalize(["Male"], np.int64(1)) == ["*"]
    with pytest.raises(InvalidParameterError, match=r"Got 5 instead\.$"):
        sex.generalize(["Male"], np.int64(5))


def test_unknown_and_ambiguous_nodes(education):
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'education' has no node 'PhD'; nodes are (level, label) pairs such as "
            "(1, 'Undergraduate').")):
        education.parent("PhD")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'education' has no node (2, 'Graduate'); nodes are (level, label) pairs "
            "such as (1, 'Undergraduate').")):
        education.children((2, "Graduate"))
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


# ---------------------------------------------------------------------- lookups
def test_generalize_adult_columns_keeps_index_and_name(adult, hierarchies):
    sample = adult.iloc[[5, 0, 17]]
    before = sample.copy()
    out = hierarchies["education"].generalize(sample["education"], 2)
    assert out.index.tolist() == [5, 0, 17] and out.name == "education"
    expected = {r[0]: r[2] for r in arx_rows("education")}
    assert out.tolist() == [expected[v] for v in sample["education"]]
    pd.testing.assert_frame_equal(sample, before)


def test_generalize_output_types():
    h = from_mapping({"a": ["ab", "*"], "b": ["ab", "*"], "c": ["c", "*"]})
    assert h.generalize(["a", "c"], 1) == ["ab", "c"]
    assert h.generalize(("a", "c"), 1) == ("ab", "c")
    assert h.generalize("b", 1) == "ab"
    assert h.generalize(iter(["a"]), 2) == ["*"]
    array = h.generalize(np.array(["a", "b"]), 1)
    assert isinstance(array, np.ndarray) and array.tolist() == ["ab", "ab"]
    index = h.generalize(pd.Index(["a", "c"], name="x"), 1)
    assert isinstance(index, pd.Index) and index.name == "x" and index.tolist() == ["ab", "c"]
    series = pd.Series(["c", "a"], index=["r1", "r2"], name="col")
    out = h.generalize(series, 1)
    assert out.index.tolist() == ["r1", "r2"] and out.name == "col"
    assert out.tolist() == ["c", "ab"]
    assert h.generalize([], 1) == []
    categorical = pd.Series(pd.Categorical(["a", "c", "a"]))
    assert h.generalize(categorical, 1).tolist() == ["ab", "c", "ab"]
    assert h.generalize(np.array("a"), 1) == "ab"  # a 0-d array is one value


def test_generalize_does_not_mutate_input():
    h = bundled("adult", "age")
    values = pd.Series([39, 40], index=[7, 3])
    copy = values.copy()
    h.generalize(values, 1)
    pd.testing.assert_series_equal(values, copy)
    as_list = [39, "40"]
    h.generalize(as_list, 2)
    assert as_list == [39, "40"]


def test_uncovered_values_are_named_with_counts(sex):
    age = bundled("adult", "age")
    values = pd.Series([39, 150, 151, 151, "x", 0, -1, 200, 39])
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'age' does not cover 6 distinct value(s) of the data (7 row(s)): "
            "[150, 151, 'x', 0, -1, ...]; its leaves include ['1', '2', '3', '4', '5', ...].")):
        age.generalize(values, 1)
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'sex' does not cover 1 distinct value(s) of the data (1 row(s)): "
            "['male']; its leaves include ['Male', 'Female'].")):
        sex.validate(["Male", "male"])
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'sex' does not cover 1 distinct value(s) of the data (2 row(s)): "
            "[nan]; its leaves include ['Male', 'Female'].")):
        sex.generalize(pd.Series(["Male", None, np.nan]), 1)
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'sex' does not cover 1 distinct value(s) of the data (1 row(s)): "
            "[['Male']]; its leaves include ['Male', 'Female'].")):
        sex.generalize([["Male"]], 1)
    assert sex.validate(pd.Series(["Male", "Female"])) is None


def test_uncovered_keeps_the_order_of_first_appearance(sex):
    uncovered = sex.uncovered(["x", "Male", 3, "x", None, "a"])
    assert uncovered[:2] == ("x", 3) and pd.isna(uncovered[2]) and uncovered[3:] == ("a",)
    stamps = np.array(["2030-01-01", "2031-01-01"], dtype="datetime64[ns]")
    assert sex.uncovered(stamps) == (pd.Timestamp("2030-01-01"), pd.Timestamp("2031-01-01"))


def test_values_must_be_one_dimensional_and_ordered(sex):
    owner = "The 'values' parameter of Hierarchy.{} must be "
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("generalize") + "one-dimensional (a Series, array, list or scalar). "
            "Got a DataFrame instead.")):
        sex.generalize(pd.DataFrame({"sex": ["Male"]}), 1)
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("validate") + "one-dimensional (a Series, array, list or scalar). "
            "Got an array of shape (1, 1) instead.")):
        sex.validate(np.array([["Male"]]))
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("covers") + "ordered (a Series, array, list or scalar). "
            "Got a set instead.")):
        sex.covers({"Male"})
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("lca") + "ordered (a Series, array, list or scalar). "
            "Got a dict instead.")):
        sex.lca({"Male": 1})


def test_errors_are_value_errors(sex):
    with pytest.raises(ValueError):
        sex.generalize(["x"], 1)
    with pytest.raises(ValueError):
        sex.generalize(["Male"], 9)


# --------------------------------------------------------------------------- lca
def test_lca_reference_values(education):
    h = education
    assert h.lca(["Masters", "Doctorate"]) == "Graduate"
    assert h.lca_node(["Masters", "Bachelors"]) == (2, "Higher education")
    assert h.lca(["Masters", "Preschool"]) == "*"
    assert h.lca(["Masters"]) == "Masters"
    assert h.lca("Masters") == "Masters"
    assert h.lca_node([(1, "Graduate"), "Doctorate"]) == (1, "Graduate")
    assert h.lca_node([(2, "Primary education")]) == (2, "Primary education")
    assert h.lca_node([(1, "Graduate"), (1, "Undergraduate")]) == (2, "Higher education")
    assert h.lca(pd.Series(["Masters", "Masters", "Doctorate"], index=[9, 8, 7])) == "Graduate"


def test_lca_paper_zip_example():
    # Chen et al. 2009, Table 1b: zip codes 12345, 12346 -> 1234*; 12400.. -> 124**.
    h = masking(["12345", "12346", "12411", "12499"], name="zip")
    assert h.lca(["12345", "12346"]) == "1234*"
    assert h.lca(["12411", "12499"]) == "124**"
    assert h.lca([12345, "12411"]) == "12***"


def test_lca_by_group_matches_lca_per_group(adult, hierarchies):
    rows = adult.iloc[:3000]
    groups = (rows["hours-per-week"] // 10).to_numpy()
    for column in ("age", "education", "native-country"):
        table = hierarchies[column].lca_by_group(rows[column], groups)
        for key, row in table.iterrows():
            members = rows[column][groups == key]
            assert hierarchies[column].lca_node(members) == (row["level"], row["label"])
        assert table.index.tolist() == list(pd.unique(groups))
        assert table["level"].dtype == np.int64


def test_lca_errors(education):
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'values' parameter of Hierarchy.lca_node must be non-empty. Got [] instead.")):
        education.lca_node(pd.Series([], dtype=object))
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'education' does not cover 1 distinct value(s) of the data (1 row(s)): "
            "['PhD']; its leaves include ['Bachelors', 'Some-college', '11th', 'HS-grad', "
            "'Prof-school', ...].")):
        education.lca(["Masters", "PhD"])
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'education' does not cover 1 distinct value(s) of the data (1 row(s)): "
            "[(4, '*')]; its leaves include ['Bachelors', 'Some-college', '11th', 'HS-grad', "
            "'Prof-school', ...].")):
        education.lca_node([(4, "*")])


def test_lca_by_group_errors(sex):
    owner = "The 'groups' parameter of Hierarchy.lca_by_group must "
    with pytest.raises(InvalidParameterError, match=exactly(
            owner + "have one key per value (2). Got 3 keys instead.")):
        sex.lca_by_group(["Male", "Female"], [1, 1, 2])
    with pytest.raises(InvalidParameterError, match=exactly(
            owner + "have no missing keys. Got 1 missing instead.")):
        sex.lca_by_group(["Male", "Female"], [1, None])
    with pytest.raises(InvalidParameterError, match=exactly(
            owner + "be one-dimensional (a Series, array, list or scalar). Got a DataFrame "
            "instead.")):
        sex.lca_by_group(["Male"], pd.DataFrame({"g": [1]}))
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'sex' does not cover 1 distinct value(s) of the data (1 row(s)): "
            "['M']; its leaves include ['Male', 'Female'].")):
        sex.lca_by_group(["Male", "M"], [1, 2])


# ----------------------------------------------------------------------- export
def test_rows_and_to_frame_are_the_arx_layout():
    age = bundled("adult", "age")
    frame = age.to_frame()
    assert frame.shape == (100, 5) and frame.columns.tolist() == [0, 1, 2, 3, 4]
    assert frame.iloc[0].tolist() == ["1", "0-4", "0-9", "0-19", "*"]
    assert age.rows[0] == ("1", "0-4", "0-9", "0-19", "*")
    assert frame.values.tolist() == [list(row) for row in age.rows]
    mixed = Hierarchy([[1, "low", "*"], [2.5, "low", "*"]])
    assert mixed.rows == ((1, "low", "*"), (2.5, "low", "*"))
    assert type(mixed.rows[0][0]) is int  # the labels as built, not a frame's float column


# -------------------------------------------------------------- object protocol
def test_immutable_hashable_picklable():
    h = bundled("adult", "workclass")
    with pytest.raises(AttributeError, match="Hierarchy is immutable; cannot set 'name'"):
        h.name = "x"
    with pytest.raises(AttributeError, match="Hierarchy is immutable; cannot set '_rows'"):
        h._rows = ()  # noqa: SLF001 (the private state is immutable too)
    with pytest.raises(AttributeError, match="Hierarchy is immutable; cannot delete '_name'"):
        del h._name  # noqa: SLF001
    clone = pickle.loads(pickle.dumps(h))
    assert clone == h and hash(clone) == hash(h) and clone is not h
    assert clone.generalize(["Private"], 1) == ["Non-Government"]
    assert h != bundled("adult", "sex") and h != "workclass"
    assert repr(h) == "Hierarchy(name='workclass', height=2, leaves=8)"
    assert {h: 1}[clone] == 1
    assert not hasattr(h, "__dict__")  # the slots hold everything (the mixin adds none)


# ------------------------------------------------------------------- properties
@PROFILE
@given(trees(), st.data())
def test_generalize_and_lca_agree_with_the_row_table(rows, data):
    h = Hierarchy(rows, name="t")
    leaves = [r[0] for r in rows]
    picks = data.draw(st.lists(st.integers(0, len(rows) - 1), min_size=1, max_size=20))
    values = [leaves[i] for i in picks]
    for level in range(h.height + 1):
        assert h.generalize(values, level) == [rows[i][level] for i in picks]
    assert h.lca_node(values) == oracle_lca(rows, set(picks))
    # the lca covers every value and none of its children covers them all
    node = h.lca_node(values)
    assert set(values) <= h.leaves_under(node)
    assert not any(set(values) <= h.leaves_under(child) for child in h.children(node))


@PROFILE
@given(trees(), st.data())
def test_structure_is_a_tree_consistent_with_rows(rows, data):
    h = Hierarchy(rows)
    g = h.graph
    assert nx.is_arborescence(g) if g.number_of_nodes() > 1 else g.number_of_nodes() == 1
    assert g.number_of_nodes() == sum(len(h.nodes_at(lv)) for lv in range(h.height + 1))
    level = data.draw(st.integers(0, h.height))
    for node in h.nodes_at(level):
        expected = {r[0] for r in rows if r[level] == node[1]}
        assert h.leaves_under(node) == expected
        if level < h.height:
            parent = h.parent(node)
            assert node in h.children(parent)
            assert h.ancestors(node)[0] == parent and h.ancestors(node)[-1] == h.root_node


@PROFILE
@given(trees(), st.randoms(use_true_random=False))
def test_generalize_commutes_with_permutation_and_keeps_index(rows, random):
    h = Hierarchy(rows)
    values = pd.Series([r[0] for r in rows] * 2)
    order = list(range(len(values)))
    random.shuffle(order)
    permuted = values.iloc[order]
    level = random.randint(0, h.height)
    out = h.generalize(permuted, level)
    assert out.index.tolist() == permuted.index.tolist()
    pd.testing.assert_series_equal(out, h.generalize(values, level).iloc[order])


@PROFILE
@given(trees(), st.data())
def test_lca_by_group_agrees_with_lca(rows, data):
    h = Hierarchy(rows)
    n = data.draw(st.integers(1, 30))
    picks = data.draw(st.lists(st.integers(0, len(rows) - 1), min_size=n, max_size=n))
    groups = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    values = [rows[i][0] for i in picks]
    table = h.lca_by_group(values, groups)
    for key, row in table.iterrows():
        members = {p for p, g in zip(picks, groups) if g == key}
        assert (row["level"], row["label"]) == oracle_lca(rows, members)


@PROFILE
@given(trees())
def test_rows_rebuild_the_same_hierarchy(rows):
    h = Hierarchy(rows, name="t")
    assert h.rows == tuple(map(tuple, rows))
    assert Hierarchy(h.rows, name="t") == h == from_levels(h.to_frame(), name="t")
