"""Generalization hierarchies: readers, builders, lookups, LCA and export (issue 3, item 1).

Reference values come from the bundled ARX Adult files, read here independently with
``str.split`` as an oracle, and from the examples of Chen, LeFevre and Ramakrishnan (2009),
Sect. 1.3 (zip codes ``1234*``, ages ``2*``).
"""

from __future__ import annotations

import datetime as dt
import io
import pickle

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from skyprivacy.datasets import ADULT_HIERARCHIES, adult_hierarchy_path, load_adult
from skyprivacy.hierarchy import Hierarchy, generalize_frame, load_adult_hierarchies

ADULT_QI = ["age", "workclass", "education", "marital-status", "occupation", "race", "sex",
            "native-country", "income"]


def arx_rows(attribute):
    """Oracle: the bundled ARX file split by hand."""
    stem = "salary-class" if attribute == "income" else attribute
    text = adult_hierarchy_path(stem).read_text(encoding="utf-8")
    return [line.split(";") for line in text.splitlines() if line]


@pytest.fixture(scope="module")
def adult():
    return load_adult()


@pytest.fixture(scope="module")
def hierarchies():
    return load_adult_hierarchies()


# ----------------------------------------------------------------------- bundled ARX
def test_load_adult_hierarchies_keys_are_adult_columns(hierarchies):
    assert set(hierarchies) == set(ADULT_QI)
    assert set(ADULT_QI) <= set(load_adult().columns)


@pytest.mark.parametrize("attribute", ADULT_QI)
def test_bundled_matches_the_arx_file(attribute, hierarchies):
    rows = arx_rows(attribute)
    h = hierarchies[attribute]
    assert h.name == attribute
    assert h.leaves == tuple(r[0] for r in rows)
    assert h.height == len(rows[0]) - 1
    assert h.root == "*" and h.root_node == (h.height, "*")
    for level in range(h.height + 1):
        assert h.generalize([r[0] for r in rows], level) == [r[level] for r in rows]
    assert h.to_frame().values.tolist() == rows


def test_bundled_reference_shapes(hierarchies):
    heights = {a: hierarchies[a].height for a in ADULT_QI}
    assert heights == {"age": 4, "workclass": 2, "education": 3, "marital-status": 2,
                       "occupation": 2, "race": 1, "sex": 1, "native-country": 2,
                       "income": 1}
    assert len(hierarchies["age"].leaves) == 100
    assert len(hierarchies["education"].leaves) == 16
    assert len(hierarchies["occupation"].leaves) == 14


def test_bundled_is_cached_and_accepts_arx_name():
    assert Hierarchy.bundled("adult", "sex") is Hierarchy.bundled("adult", "sex")
    arx = Hierarchy.bundled("adult", "salary-class")
    assert arx.name == "salary-class"
    assert arx.to_frame().equals(Hierarchy.bundled("adult", "income").to_frame())
    assert "salary-class" in ADULT_HIERARCHIES


def test_every_adult_value_is_covered(adult, hierarchies):
    for column, h in hierarchies.items():
        assert h.uncovered(adult[column]) == (), column
        h.validate(adult[column])


def test_arx_age_labels_are_off_by_one_at_multiples_of_five(hierarchies):
    """A quirk of the upstream ARX file, kept as shipped: 40 sits under '35-39'.

    The tree is valid (groups {36..40}, {41..45}, ...) but the labels misname the multiples
    of 5; docs/hierarchies.md recommends Hierarchy.intervals for correct labels.
    """
    age = hierarchies["age"]
    assert age.generalize([36, 40, 41], 1) == ["35-39", "35-39", "40-44"]
    assert age.lca([36, 40]) == "35-39"
    assert sorted(age.leaves_under("35-39"), key=int) == ["36", "37", "38", "39", "40"]


def test_generalize_adult_columns_keeps_index_and_name(adult, hierarchies):
    sample = adult.iloc[[5, 0, 17]]
    before = sample.copy()
    out = hierarchies["education"].generalize(sample["education"], 2)
    assert out.index.tolist() == [5, 0, 17] and out.name == "education"
    expected = {r[0]: r[2] for r in arx_rows("education")}
    assert out.tolist() == [expected[v] for v in sample["education"]]
    pd.testing.assert_frame_equal(sample, before)


# ------------------------------------------------------------------------- lookups
def test_numeric_leaves_accept_numbers_and_text(hierarchies):
    age = hierarchies["age"]
    for value in (39, "39", 39.0, np.int64(39), np.float32(39)):
        assert age.generalize(value, 2) == "30-39"
        assert value in age
    assert 39.5 not in age and "039" in age and True not in age
    ints = pd.Series([39, 17, 90], dtype="int64")
    assert age.generalize(ints, 3).tolist() == ["20-39", "0-19", "80-99"]
    assert age.generalize(ints, 0).tolist() == ["39", "17", "90"]  # level 0: leaf labels


def test_exact_leaves_do_not_normalise():
    h = Hierarchy([["1", "*"], ["x", "*"]])
    assert "1" in h and 1 not in h
    with pytest.raises(Exception, match=r"does not cover 1 distinct value\(s\) of the data "
                                        r"\(1 row\(s\)\): \[1\]"):
        h.generalize([1], 1)


def test_leading_zero_collision_makes_lookup_exact():
    # '07' and '7' would both read as 7, so numbers are not normalised at all.
    h = Hierarchy([["07", "0*", "*"], ["7", "7", "*"]])
    assert "07" in h and "7" in h and 7 not in h


def test_generalize_output_types():
    h = Hierarchy.from_mapping({"a": ["ab", "*"], "b": ["ab", "*"], "c": ["c", "*"]})
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


def test_generalize_does_not_mutate_input():
    h = Hierarchy.bundled("adult", "age")
    values = pd.Series([39, 40], index=[7, 3])
    copy = values.copy()
    h.generalize(values, 1)
    pd.testing.assert_series_equal(values, copy)
    as_list = [39, "40"]
    h.generalize(as_list, 2)
    assert as_list == [39, "40"]


def test_date_leaves_accept_date_objects():
    h = Hierarchy.dates(["2024-03-15", "2024-07-01", "2019-12-31"])
    stamps = pd.Series(pd.to_datetime(["2024-03-15 13:45", "2019-12-31 00:00"]))
    assert h.generalize(stamps, 1).tolist() == ["2024-03", "2019-12"]
    assert h.generalize(np.datetime64("2024-07-01"), 2) == "2024"
    assert h.generalize(dt.datetime(2024, 7, 1, 8), 3) == "2020-2029"
    assert dt.date(2024, 3, 16) not in h
    assert not h.covers([pd.NaT])


def test_missing_values_are_never_covered():
    h = Hierarchy.bundled("adult", "sex")
    missing = h.uncovered(pd.Series(["Male", None, np.nan]))
    assert len(missing) == 1 and pd.isna(missing[0])
    missing = h.uncovered(pd.Series([pd.NA, "Female"], dtype="object"))
    assert len(missing) == 1 and pd.isna(missing[0])
    assert not h.covers([None])
    assert h.covers([])


# -------------------------------------------------------------------------- structure
def test_structure_navigation_on_education():
    h = Hierarchy.bundled("adult", "education")
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
    age = Hierarchy.bundled("adult", "age")
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


# ------------------------------------------------------------------------------- lca
def test_lca_reference_values():
    h = Hierarchy.bundled("adult", "education")
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
    h = Hierarchy.masking(["12345", "12346", "12411", "12499"], name="zip")
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


# ---------------------------------------------------------------------------- builders
def test_intervals_reference_labels():
    h = Hierarchy.intervals(range(17, 91), (5, 10, 20), name="age")
    assert h.height == 4 and h.leaves == tuple(range(17, 91))
    assert h.generalize([17, 20, 39, 40, 90], 1) == [
        "[15, 20)", "[20, 25)", "[35, 40)", "[40, 45)", "[90, 95)"]
    assert h.generalize([17, 39, 40], 3) == ["[0, 20)", "[20, 40)", "[40, 60)"]
    assert h.lca([31, 38]) == "[30, 40)" and h.lca([21, 38]) == "[20, 40)"
    assert h.generalize("39", 2) == "[30, 40)"  # numeric leaves accept text


def test_intervals_right_closed_origin_and_exact_decimals():
    right = Hierarchy.intervals([0, 5, 6, 10], (5, 10), closed="right")
    assert right.generalize([0, 5, 6, 10], 1) == ["(-5, 0]", "(0, 5]", "(5, 10]", "(5, 10]"]
    shifted = Hierarchy.intervals([17, 21, 22], (5,), origin=2)
    assert shifted.generalize([17, 21, 22], 1) == ["[17, 22)", "[17, 22)", "[22, 27)"]
    decimals = Hierarchy.intervals([0.3, 0.7, 1.0], (0.1, 0.5))
    assert decimals.generalize([0.3, 0.7, 1.0], 1) == ["[0.3, 0.4)", "[0.7, 0.8)", "[1, 1.1)"]
    assert decimals.generalize([0.3, 0.7], 2) == ["[0, 0.5)", "[0.5, 1)"]
    negative = Hierarchy.intervals(np.array([-7, -1, 3]), [4, 8])
    assert negative.to_frame()[1].tolist() == ["[-8, -4)", "[-4, 0)", "[0, 4)"]
    assert negative.leaves == (-7, -1, 3) and type(negative.leaves[0]) is int


def test_intervals_from_data_column(adult):
    column = adult["hours-per-week"]
    h = Hierarchy.intervals(column, (10, 20))
    assert len(h.leaves) == column.nunique()
    assert h.generalize(column.iloc[:3], 1).tolist() == ["[40, 50)", "[10, 20)", "[40, 50)"]


def test_masking_default_and_custom_levels():
    h = Hierarchy.masking(["47906", "47907", "47920"], name="zip")
    assert h.height == 5
    assert h.to_frame().iloc[0].tolist() == ["47906", "4790*", "479**", "47***", "4****", "*"]
    custom = Hierarchy.masking([47906, 47920], levels=[2, 5], mask_char="#")
    assert custom.to_frame().values.tolist() == [["47906", "479##", "#####", "*"],
                                                 ["47920", "479##", "#####", "*"]]
    assert Hierarchy.masking(["02139", "02140"]).generalize("02139", 2) == "021**"
    assert Hierarchy.masking(["ab", "ab", "cd"], levels=[]).leaves == ("ab", "cd")


def test_dates_levels_and_labels():
    h = Hierarchy.dates([dt.date(1999, 12, 31), "2024-03-15", pd.Timestamp("2024-11-02")],
                        levels=("month", "quarter", "year", "decade", "century"))
    assert h.to_frame().values.tolist() == [
        ["1999-12-31", "1999-12", "1999-Q4", "1999", "1990-1999", "1900-1999", "*"],
        ["2024-03-15", "2024-03", "2024-Q1", "2024", "2020-2029", "2000-2099", "*"],
        ["2024-11-02", "2024-11", "2024-Q4", "2024", "2020-2029", "2000-2099", "*"],
    ]
    assert h.lca(["2024-03-15", "2024-11-02"]) == "2024"
    default = Hierarchy.dates(pd.Series(pd.to_datetime(["2024-03-15", "2024-03-15"])))
    assert default.height == 4 and default.leaves == ("2024-03-15",)
    assert Hierarchy.dates(["2024-03-15"], levels=()).to_frame().values.tolist() == [
        ["2024-03-15", "*"]]


def test_from_mapping_forms_agree():
    nested = Hierarchy.from_mapping({"flu": ["resp", "*"], "cold": ["resp", "*"],
                                     "ulcer": ["dig", "*"]}, name="d")
    per_level = Hierarchy.from_mapping([{"flu": "resp", "cold": "resp", "ulcer": "dig"},
                                        {"resp": "*", "dig": "*"}], name="d")
    assert nested == per_level and hash(nested) == hash(per_level)
    assert Hierarchy.from_mapping({"a": "*", "b": "*"}).height == 1


def test_from_levels_frame_array_and_numpy_scalars():
    frame = pd.DataFrame({"leaf": np.array([1, 2, 3]), "up": ["low", "low", "high"],
                          "top": ["*"] * 3})
    h = Hierarchy.from_levels(frame)
    assert h.leaves == (1, 2, 3) and all(type(x) is int for x in h.leaves)
    assert Hierarchy.from_levels(frame.to_numpy()) == h
    assert Hierarchy(frame.values.tolist()) == h
    single = Hierarchy([["only"]])
    assert single.height == 0 and single.root == "only" and single.lca(["only"]) == "only"


def test_ragged_trailing_cells_are_padding():
    # pandas pads ragged CSV rows with NaN; trailing blanks are not labels.
    frame = pd.DataFrame([["a", "*", np.nan], ["b", "*", np.nan]])
    assert Hierarchy.from_levels(frame).height == 1
    assert Hierarchy.from_arx("a;*;;\nb;*\n").height == 1


# ---------------------------------------------------------------------- ARX reading
def test_from_arx_sources_agree(tmp_path):
    text = adult_hierarchy_path("education").read_text()
    path = tmp_path / "education.csv"
    path.write_text(text)
    expected = Hierarchy.from_arx(text, name="education")
    assert Hierarchy.from_arx(path, name="education") == expected
    assert Hierarchy.from_arx(str(path), name="education") == expected
    assert Hierarchy.from_arx(io.StringIO(text), name="education") == expected
    assert Hierarchy.from_arx(io.BytesIO(("\ufeff" + text).encode()), name="education") == expected
    assert Hierarchy.from_arx(text.encode(), name="education") == expected
    assert Hierarchy.from_arx(adult_hierarchy_path("education"), name="education") == expected
    frame = pd.read_csv(path, sep=";", header=None, dtype=str, keep_default_na=False)
    assert Hierarchy.from_arx(frame, name="education") == expected
    assert Hierarchy.bundled("adult", "education") == expected


def test_from_arx_blank_lines_quotes_and_other_separator():
    h = Hierarchy.from_arx('"a,1",x,*\n\n"b",x,*\n', sep=",")
    assert h.leaves == ("a,1", "b")
    # rows are cited by line number, blank lines included
    with pytest.raises(Exception, match=r"leaf 'b' appears twice, in row 3 \(leaf 'b'\) and "
                                        r"row 4 \(leaf 'b'\)\.$"):
        Hierarchy.from_arx("a;x;*\n\nb;y;*\nb;y;*\n")


# ---------------------------------------------------------------------- round trips
@pytest.mark.parametrize("attribute", ADULT_QI)
def test_to_arx_reproduces_the_bundled_file(attribute):
    h = Hierarchy.bundled("adult", attribute)
    stem = "salary-class" if attribute == "income" else attribute
    assert h.to_arx().splitlines() == adult_hierarchy_path(stem).read_text().splitlines()


def test_to_arx_round_trip_through_path_and_buffer(tmp_path):
    builders = [
        Hierarchy.intervals(range(0, 50, 3), (5, 10), name="n"),
        Hierarchy.masking(["47906", "47920"], name="zip"),
        Hierarchy.dates(["2024-01-02", "2023-05-06"], name="day"),
        Hierarchy.from_mapping({"a;b": ['quote "x"', "*"], "c": ["c", "*"]}, name="odd"),
    ]
    for h in builders:
        path = tmp_path / f"{h.name}.csv"
        assert h.to_arx(path) is None
        again = Hierarchy.from_arx(path, name=h.name)
        assert again.to_frame().astype(str).equals(h.to_frame().astype(str))
        buffer = io.StringIO()
        h.to_arx(buffer, sep=",")
        assert Hierarchy.from_arx(buffer.getvalue(), sep=",", name=h.name) == again
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_to_arx_failed_write_leaves_no_file(tmp_path):
    missing_dir = tmp_path / "nope" / "h.csv"
    with pytest.raises(FileNotFoundError):
        Hierarchy.bundled("adult", "sex").to_arx(missing_dir)
    assert not missing_dir.exists()


def test_to_frame_shape():
    frame = Hierarchy.bundled("adult", "age").to_frame()
    assert frame.shape == (100, 5) and frame.columns.tolist() == [0, 1, 2, 3, 4]
    assert frame.iloc[0].tolist() == ["1", "0-4", "0-9", "0-19", "*"]


# -------------------------------------------------------------------- object protocol
def test_immutable_hashable_picklable():
    h = Hierarchy.bundled("adult", "workclass")
    with pytest.raises(AttributeError, match="Hierarchy is immutable; cannot set 'name'"):
        h.name = "x"
    with pytest.raises(AttributeError, match="Hierarchy is immutable; cannot set '_rows'"):
        h._rows = ()
    with pytest.raises(AttributeError, match="Hierarchy is immutable; cannot delete '_name'"):
        del h._name
    clone = pickle.loads(pickle.dumps(h))
    assert clone == h and hash(clone) == hash(h) and clone is not h
    assert clone.generalize(["Private"], 1) == ["Non-Government"]
    assert h != Hierarchy.bundled("adult", "sex") and h != "workclass"
    assert repr(h) == "Hierarchy(name='workclass', height=2, leaves=8)"
    assert {h: 1}[clone] == 1


def test_generalize_frame_keeps_index_and_other_columns():
    table = pd.DataFrame({"age": [39, 52], "sex": ["Male", "Female"], "x": [1, 2]},
                         index=["p", "q"])
    before = table.copy()
    out = generalize_frame(table, hierarchies=load_adult_hierarchies(),
                           levels={"age": 1, "sex": 0})
    assert out.index.tolist() == ["p", "q"] and out.columns.tolist() == ["age", "sex", "x"]
    assert out["age"].tolist() == ["35-39", "50-54"] and out["x"].tolist() == [1, 2]
    pd.testing.assert_frame_equal(table, before)


def test_from_arx_prefers_an_existing_file_whose_name_holds_the_separator(tmp_path):
    path = tmp_path / "odd;name.csv"
    path.write_text("Male;*\nFemale;*\n")
    assert Hierarchy.from_arx(str(path)).leaves == ("Male", "Female")
    assert Hierarchy.from_arx("Male;*").leaves == ("Male",)  # one line of text
