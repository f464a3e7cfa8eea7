"""Quasi-identifier encoders (skyprivacy/anonymize/encoders.py, Sect. 6.2 of Chen, LeFevre and
Ramakrishnan 2009): how each QI is split (numbers, categories, a hierarchy), the order
categories line up in, and the codes, splits and labels of the three encoders."""
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from skyprivacy import (HierarchyError, InvalidParameterError, MixedColumnWarning, Policy,
                        k_anonymize, skyline_anonymize)
from skyprivacy.hierarchy import Hierarchy
from skyprivacy.anonymize.encoders import (NumericQI, SetQI, TreeQI, as_text, category_orders,
                                          median_cuts, parsed_numbers, qi_kinds)
from skyprivacy.anonymize.source import row_entries

ORDER_RULE = ("must be 'sorted', 'first', or a mapping of quasi-identifier -> 'sorted', 'first' "
              "or the list of its values in order")
# a hierarchy whose leaves are not in sorted order: b, a under x; c, d, e under y
def level_split(attr, codes, part_of, starts, lo, hi):
    """``attr.split`` of a level's rows: their (group, code, count) entries split, and each
    row given the child of its entry."""
    part, code, count, entry = row_entries(part_of, codes, len(lo), int(codes.max()) + 1)
    child, n_children, width = attr.split(part, code, count,
                                          np.searchsorted(part, np.arange(len(lo) + 1)), lo, hi)
    return child[entry], n_children, width


LETTERS = Hierarchy([["b", "x", "*"], ["a", "x", "*"], ["c", "y", "*"], ["d", "y", "*"],
                     ["e", "y", "*"]], name="t")


def test_a_mostly_numeric_column_warns_and_is_split_as_categories():
    ages = [str(a) for a in range(20, 38)] + ["40+", "unknown"]
    table = pd.DataFrame({"age": ages, "disease": ["a", "b"] * 10})
    with pytest.warns(MixedColumnWarning, match=re.escape(
            "Column 'age' is mostly numbers but 2 cell(s) are not (e.g. ['40+', 'unknown']): "
            "skyline_anonymize splits it as categories; clean those cells, or pass "
            "categorical=['age'] (--categorical age) to say so.")):
        assert qi_kinds(table, ["age"], {}) == {"age": "set"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert qi_kinds(table, ["age"], {}, categorical=["age"]) == {"age": "set"}


def test_explicit_choices_and_their_errors():
    table = pd.DataFrame({"zip": ["02139", "02140"], "age": ["30", "x"], "d": ["a", "b"]})
    assert qi_kinds(table, ["zip"], {}, numeric=["zip"]) == {"zip": "numeric"}
    with pytest.raises(InvalidParameterError, match=re.escape(
            "Column 'age' is declared numeric in skyline_anonymize but 1 cell(s) are not "
            "numbers, e.g. ['x'].")):
        qi_kinds(table, ["age"], {}, numeric="age")
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'numeric' parameter of skyline_anonymize names 'd', which is not a "
            "quasi-identifier; quasi-identifiers are ['zip'].")):
        qi_kinds(table, ["zip"], {}, numeric="d")
    with pytest.raises(InvalidParameterError, match=re.escape(
            "Column(s) ['zip'] are named both numeric and categorical in skyline_anonymize.")):
        qi_kinds(table, ["zip"], {}, numeric="zip", categorical=["zip"])


def test_category_orders_is_the_one_place_orders_are_decided():
    kinds = {"severity": "set", "age": "numeric"}
    table = pd.DataFrame({"severity": ["high", "low", "very_crit"], "age": [30, 41, 52]})
    assert category_orders(table, ["severity", "age"], kinds) == {"severity": "sorted"}
    assert category_orders(table, ["severity", "age"], kinds, "first") == {"severity": "first"}



# ------------------------------------------------------------------ cells as text, as numbers
def test_as_text_leaves_strings_and_writes_everything_else_with_str():
    assert as_text(pd.Series([1, "a", 2.5, None, " 7 "])).tolist() == [
        "1", "a", "2.5", "None", " 7 "]


def test_parsed_numbers_reads_text_cells_and_keeps_the_index():
    got = parsed_numbers(pd.Series([" 1.5", "x", "1e3", "2", "x"], index=[5, 6, 7, 8, 9]))
    assert got.index.tolist() == [5, 6, 7, 8, 9]
    assert got.isna().tolist() == [False, True, False, False, True]
    assert got.iloc[[0, 2, 3]].tolist() == [1.5, 1000.0, 2.0]


def test_parsed_numbers_takes_numeric_columns_as_they_are_and_booleans_as_no_numbers():
    assert parsed_numbers(pd.Series([3, 1])).tolist() == [3.0, 1.0]
    assert parsed_numbers(pd.Series([True, False])).isna().all()


# -------------------------------------------------------------------------------- qi_kinds
@pytest.mark.parametrize("cells, kind", [
    ([1, 2], "numeric"),
    ([1.5, 2.0], "numeric"),
    ([True, False], "set"),  # a yes/no column is two categories, not 0 and 1
    (["1.5", " 2 ", "1e3", "-3"], "numeric"),  # text that reads as numbers throughout
    (["0", "0.5", "10"], "numeric"),  # a lone 0 and 0.5 are numbers, not codes
    (["02139", "10001"], "set"),  # ZIP codes keep their leading zero
    (["+07", "1"], "set"),
    (["-01", "5"], "set"),
    ([" 02", "3"], "set"),
    (["flu", "cold"], "set"),
    (["1", "2", "3", "x"], "set"),  # 75% numbers: categories, without a warning
])
def test_how_a_column_is_split_when_nothing_is_declared(cells, kind):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert qi_kinds(pd.DataFrame({"c": cells}), ["c"], {}) == {"c": kind}


def test_a_hierarchy_decides_and_the_kinds_follow_the_qi_order():
    table = pd.DataFrame({"age": [30, 40], "zip": ["02139", "02140"], "sex": ["F", "M"]})
    kinds = qi_kinds(table, ["zip", "sex", "age"], {"age": LETTERS})
    assert list(kinds.items()) == [("zip", "set"), ("sex", "set"), ("age", "tree")]


def test_mostly_numeric_counts_cells_not_distinct_values():
    # four of five cells are the number 1: 80% numbers (half the distinct values are)
    table = pd.DataFrame({"age": ["1", "1", "1", "1", "x"]})
    with pytest.warns(MixedColumnWarning, match=re.escape(
            "Column 'age' is mostly numbers but 1 cell(s) are not (e.g. ['x']): k_anonymize "
            "splits it as categories; clean those cells, or pass categorical=['age'] "
            "(--categorical age) to say so.")):
        assert qi_kinds(table, ["age"], {}, owner="k_anonymize") == {"age": "set"}


def test_the_warning_counts_every_odd_cell_and_shows_three_in_row_order():
    table = pd.DataFrame({"age": [str(a) for a in range(25)] + ["a", "b", "a", "c", "d"]})
    with pytest.warns(MixedColumnWarning, match=re.escape(
            "Column 'age' is mostly numbers but 5 cell(s) are not (e.g. ['a', 'b', 'c']): ")):
        qi_kinds(table, ["age"], {})


def test_a_declared_numeric_column_names_its_first_three_odd_cells():
    table = pd.DataFrame({"a": ["x", "y", "x", "1", "z", "w"]})
    with pytest.raises(InvalidParameterError, match=re.escape(
            "Column 'a' is declared numeric in k_anonymize but 5 cell(s) are not numbers, "
            "e.g. ['x', 'y', 'z'].")):
        qi_kinds(table, ["a"], {}, numeric=["a"], owner="k_anonymize")


@pytest.mark.parametrize("name", ["numeric", "categorical"])
def test_a_column_with_a_hierarchy_cannot_be_declared(name):
    table = pd.DataFrame({"zip": ["1", "2"]})
    with pytest.raises(InvalidParameterError, match=re.escape(
            f"The '{name}' parameter of skyline_anonymize names 'zip', which has a hierarchy; "
            f"a hierarchy decides how it is generalized.")):
        qi_kinds(table, ["zip"], {"zip": LETTERS}, **{name: "zip"})


@pytest.mark.parametrize("value", [5, ["zip", 1], [None]])
def test_declarations_must_be_column_names(value):
    table = pd.DataFrame({"zip": ["1", "2"]})
    with pytest.raises(InvalidParameterError, match=re.escape(
            f"The 'categorical' parameter of k_anonymize must be a column name or a list of "
            f"column names. Got {value!r} instead.")):
        qi_kinds(table, ["zip"], {}, categorical=value, owner="k_anonymize")


# ------------------------------------------------------------------------- category_orders
SEVERITY = pd.DataFrame({"sev": ["high", "low", "mid", "low"], "age": [1, 2, 3, 4],
                         "zip": list("abcd")})
KINDS = {"sev": "set", "age": "numeric", "zip": "tree"}


def orders(order, table=SEVERITY):
    return category_orders(table, list(table.columns), KINDS, order)


def test_a_mapping_orders_the_columns_it_names_and_sorts_the_others():
    table = pd.DataFrame({"a": ["y", "x"], "b": ["q", "p"]})
    assert category_orders(table, ["a", "b"], {"a": "set", "b": "set"}, {"a": "first"}) == {
        "a": "first", "b": "sorted"}


def test_an_explicit_order_is_kept_whole_with_values_the_column_lacks():
    assert orders({"sev": ["low", "mid", "high", "none"]}) == {
        "sev": ("low", "mid", "high", "none")}


@pytest.mark.parametrize("order", ["random", ["low", "mid", "high"], 5])
def test_an_order_that_is_no_rule_nor_mapping(order):
    with pytest.raises(InvalidParameterError, match=re.escape(
            f"The 'order' parameter of skyline_anonymize {ORDER_RULE}. Got {order!r} instead.")):
        orders(order)


@pytest.mark.parametrize("order, message", [
    ({"x": "sorted"}, "names 'x', which is not a quasi-identifier; quasi-identifiers are "
                      "['sev', 'age', 'zip']."),
    ({"zip": "first"}, "orders 'zip', which has a hierarchy; the hierarchy's leaves give its "
                       "order."),
    ({"age": "sorted"}, "orders 'age', which is split as numbers; pass categorical=['age'] "
                        "(--categorical age) to split it as categories in that order."),
    ({"sev": "reverse"}, "must map 'sev' to 'sorted', 'first' or the list of its values in "
                         "order. Got 'reverse' instead."),
    ({"sev": 5}, "must map 'sev' to 'sorted', 'first' or the list of its values in order. "
                 "Got 5 instead."),
    ({"sev": ["low", "mid", "low", "high"]}, "lists 'low' twice for 'sev'."),
    ({"sev": ["low"]}, "does not list 2 value(s) of 'sev': ['high', 'mid']; an explicit order "
                       "must list every value of the column."),
])
def test_bad_mappings(order, message):
    with pytest.raises(InvalidParameterError, match=re.escape(
            f"The 'order' parameter of skyline_anonymize {message}")):
        orders(order)


def test_a_long_list_of_unlisted_values_shows_five_as_plain_python_values():
    table = pd.DataFrame({"n": [3, 1, 2, 5, 4, 6, 7]})  # numpy integers in the column
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'order' parameter of k_anonymize does not list 6 value(s) of 'n': "
            "[3, 2, 5, 4, 6] ...; an explicit order must list every value of the column.")):
        category_orders(table, ["n"], {"n": "set"}, {"n": [1]}, owner="k_anonymize")


# ----------------------------------------------------------------------------------- SetQI
def test_set_codes_follow_the_order():
    column = pd.Series(["mid", "low", "high", "low"])
    by_default = SetQI("sev", column)
    assert (by_default.labels_, by_default.codes.tolist()) == (["high", "low", "mid"],
                                                               [2, 1, 0, 1])
    first = SetQI("sev", column, "first")
    assert (first.labels_, first.codes.tolist()) == (["mid", "low", "high"], [0, 1, 2, 1])
    # an explicit order, values the column lacks ('none') dropped
    explicit = SetQI("sev", column, ("none", "low", "mid", "high"))
    assert (explicit.labels_, explicit.codes.tolist()) == (["low", "mid", "high"], [1, 0, 2, 0])


def test_set_values_sort_by_value_and_are_labelled_as_text():
    ints = SetQI("n", pd.Series([3, 1, 2, 1]))
    assert (ints.labels_, ints.codes.tolist()) == (["1", "2", "3"], [2, 0, 1, 0])


def test_set_labels_one_value_every_value_or_the_run_between():
    sev = SetQI("sev", pd.Series(["mid", "low", "high", "low"]),
                ("low", "mid", "high"))
    assert [sev.label(1, 1), sev.label(0, 2), sev.label(0, 1), sev.label(1, 2)] == [
        "mid", "*", "{low, mid}", "{mid, high}"]
    # a column that holds '*' itself: the whole domain is listed, not starred
    starred = SetQI("sev", pd.Series(["*", "low", "high"]))
    assert starred.label(0, 2) == "{*, high, low}"


def test_long_set_labels_are_digests_whose_members_are_kept():
    letters = SetQI("c", pd.Series(list("abcdefghij")), label_length=5)
    label = letters.label(0, 8)
    digest = re.fullmatch(r"\{#([0-9a-f]{8}): 9 values\}", label).group(1)
    assert letters.sets == {digest: tuple("abcdefghi")}


def test_a_set_split_is_the_median_cut_of_the_ordered_values():
    sev = SetQI("s", pd.Series(["a", "b", "c", "a"]))  # codes 0 1 2 0
    child, n_children, width = level_split(sev, sev.codes, np.zeros(4, dtype=np.int64),
                                               np.array([0, 4]), np.array([0]), np.array([2]))
    # sorted codes 0 0 1 2, lower median 0: {a} against {b, c}; the run spans every value
    assert child.tolist() == [0, 1, 1, 0] and n_children.tolist() == [2]
    assert width.tolist() == [1.0]


# ------------------------------------------------------------------------------- NumericQI
def test_numeric_codes_are_ranks_and_labels_the_text_first_written():
    dose = NumericQI("dose", pd.Series(["1.50", "2", " 1e3 ", "1.5"]))
    assert dose.uniques.tolist() == [1.5, 2.0, 1000.0]
    assert dose.codes.tolist() == [0, 1, 2, 0]
    assert dose.span == 998.5
    assert [dose.label(0, 0), dose.label(2, 2), dose.label(0, 2), dose.label(0, 1)] == [
        "1.50", "1e3", "[1.50, 1e3]", "[1.50, 2]"]  # 1.5 written first as 1.50; spaces dropped


def test_numeric_columns_are_labelled_as_python_prints_them():
    assert NumericQI("n", pd.Series([5, 3, 5])).texts == ["3", "5"]
    assert NumericQI("x", pd.Series([2.0, 0.5])).texts == ["0.5", "2.0"]
    assert NumericQI("x", pd.Series([7, 7])).span == 0.0


def test_a_numeric_level_is_split_at_each_groups_lower_median():
    values = NumericQI("v", pd.Series([10, 20, 30, 50]))  # codes 0..3, span 40
    codes = np.array([2, 0, 3, 1, 1, 1, 2, 3, 3])
    part_of = np.array([0, 0, 0, 0, 1, 1, 1, 2, 2])
    child, n_children, width = level_split(values, codes, part_of, np.array([0, 4, 7, 9]),
                                                  np.array([0, 1, 3]), np.array([3, 2, 3]))
    # group 0: 0 1 | 2 3; group 1: 1 1 | 2; group 2 is one value and is not split
    assert child[:7].tolist() == [1, 0, 1, 0, 0, 0, 1]
    assert n_children.tolist() == [2, 2, 0]
    assert width.tolist() == [1.0, 0.25, 0.0]  # (50-10)/40, (30-20)/40, 0


def test_a_median_at_the_maximum_cuts_below_it():
    values = NumericQI("v", pd.Series([10, 20, 30, 50]))
    # codes 0 1 1 1: the lower median is 1, the maximum, which would leave one side empty
    child, n_children, _ = level_split(values, np.array([0, 1, 1, 1]), np.zeros(4, dtype=np.int64),
                                              np.array([0, 4]), np.array([0]), np.array([1]))
    assert child.tolist() == [0, 1, 1, 1] and n_children.tolist() == [2]


def lower_median_split(codes, lo, hi):
    """The split the docstring describes, one group at a time: rows above the lower median go
    right, unless the median is the maximum, then rows above the largest smaller code."""
    ordered = sorted(codes)
    cut = ordered[(len(ordered) + 1) // 2 - 1]
    if cut >= hi:
        cut = max(c for c in codes if c < hi)
    return [int(c > cut) for c in codes]


LEVELS = st.lists(st.lists(st.integers(0, 11), min_size=1, max_size=12), min_size=1,
                  max_size=4)


def check_level(attr, groups):
    """level_split on ``groups`` (lists of codes) against the one-group-at-a-time oracle; lo and
    hi are each group's own extremes, as the engines pass them."""
    codes = np.array([c for g in groups for c in g], dtype=np.int64)
    part_of = np.repeat(np.arange(len(groups)), [len(g) for g in groups])
    starts = np.concatenate([[0], np.cumsum([len(g) for g in groups])])
    lo = np.array([min(g) for g in groups])
    hi = np.array([max(g) for g in groups])
    child, n_children, width = level_split(attr, codes, part_of, starts, lo, hi)
    for i, g in enumerate(groups):
        assert n_children[i] == (2 if hi[i] > lo[i] else 0)
        expected = (attr.uniques[hi[i]] - attr.uniques[lo[i]]) / attr.span
        assert width[i] == pytest.approx(expected)
        if hi[i] > lo[i]:
            assert child[starts[i]:starts[i + 1]].tolist() == lower_median_split(g, lo[i], hi[i])
    return int((hi - lo + 1).sum()), len(codes)


@given(LEVELS)
def test_the_histogram_split_agrees_with_the_lower_median_oracle(groups):
    check_level(NumericQI("v", pd.Series(np.arange(12))), groups)


@pytest.fixture(scope="module")
def wide():
    """A numeric QI with more than 2**20 distinct values: a level whose groups span more codes
    than that (and than 4 per row) is split by sorting instead of by per-group histograms."""
    return NumericQI("v", pd.Series(np.arange(2 ** 20 + 2)))


@given(LEVELS)
def test_the_sorting_split_agrees_with_the_lower_median_oracle(wide, groups):
    scale = (len(wide.uniques) - 1) // 11  # codes 0..11 spread over the whole range
    spread = [[c * scale for c in g] for g in groups] + [[0, len(wide.uniques) - 1]]
    spanned, rows = check_level(wide, spread)
    assert spanned > max(4 * rows, 2 ** 20)  # the sorting path was the one taken


# ---------------------------------------------------------------------------------- TreeQI
def test_tree_leaves_are_numbered_depth_first_in_the_hierarchy_order():
    tree = TreeQI("t", pd.Series(["e", "a", "c", "a", "b"]), LETTERS)
    assert tree.leaf_labels == ["b", "a", "c", "d", "e"] and tree.n_leaves == 5
    assert tree.codes.tolist() == [4, 1, 2, 1, 0]
    assert tree.node_label == ["*", "x", "b", "a", "y", "c", "d", "e"]
    assert list(zip(tree.node_lo.tolist(), tree.node_hi.tolist())) == [
        (0, 4), (0, 1), (0, 0), (1, 1), (2, 4), (2, 2), (3, 3), (4, 4)]


@pytest.mark.parametrize("lo, hi, label", [
    (0, 1, "x"), (2, 4, "y"), (3, 4, "y"), (3, 3, "d"), (1, 2, "*"), (0, 4, "*")])
def test_a_tree_range_is_labelled_with_its_lowest_common_ancestor(lo, hi, label):
    assert TreeQI("t", pd.Series(list("abcde")), LETTERS).label(lo, hi) == label


def test_data_values_find_their_leaves_by_the_hierarchy_lookup():
    ages = Hierarchy([["39", "30-39", "*"], ["52", "50-59", "*"]])
    tree = TreeQI("age", pd.Series([52, 39, 52]), ages)  # 52 finds the leaf '52'
    assert tree.codes.tolist() == [1, 0, 1]
    assert [tree.label(0, 1), tree.label(1, 1)] == ["*", "52"]


def test_a_value_the_hierarchy_lacks_names_the_column():
    with pytest.raises(HierarchyError, match=re.escape(
            "Hierarchy for column 't': Hierarchy 't' does not cover 1 distinct value(s) of the "
            "data (1 row(s)): ['z']; its leaves include ['b', 'a', 'c', 'd', 'e'].")):
        TreeQI("t", pd.Series(["a", "z"]), LETTERS)


def test_a_tree_level_splits_into_the_children_of_each_groups_ancestor():
    tree = TreeQI("t", pd.Series(list("abcde")), LETTERS)
    # group 0: a, b (under x); group 1: e, c (under y, d absent); group 2: d alone
    codes = np.array([1, 0, 4, 2, 3])
    child, n_children, width = level_split(tree, codes, np.array([0, 0, 1, 1, 2]),
                                                np.array([0, 2, 4, 5]),
                                                np.array([0, 2, 3]), np.array([1, 4, 3]))
    assert child[:4].tolist() == [1, 0, 1, 0]  # b before a under x; c before e under y
    assert n_children.tolist() == [2, 2, 0]  # only the children present are counted
    assert width.tolist() == [0.25, 0.5, 0.0]  # leaves under x, y, d: 1/4, 2/4, 0/4
    whole = level_split(tree, np.array([4, 1, 2, 1, 0]), np.zeros(5, dtype=np.int64),
                             np.array([0, 5]), np.array([0]), np.array([4]))
    assert whole[0].tolist() == [1, 0, 1, 0, 0] and whole[2].tolist() == [1.0]  # x | y


def test_a_one_level_hierarchy_hangs_every_value_under_the_root():
    flat = TreeQI("f", pd.Series(["b", "a", "b"]), Hierarchy([["a", "*"], ["b", "*"]]))
    assert (flat.leaf_labels, flat.codes.tolist()) == (["a", "b"], [1, 0, 1])
    assert (flat.label(0, 1), flat.label(1, 1)) == ("*", "b")
    child, n_children, width = level_split(flat, flat.codes, np.zeros(3, dtype=np.int64),
                                                np.array([0, 3]), np.array([0]), np.array([1]))
    assert (child.tolist(), n_children.tolist(), width.tolist()) == ([1, 0, 1], [2], [1.0])


MIXED_AGES = pd.DataFrame({"age": [str(a) for a in range(20, 38)] + ["40+", "unknown"],
                           "disease": ["a", "b"] * 10})


@pytest.mark.parametrize("owner, call", [
    ("k_anonymize", lambda: k_anonymize(MIXED_AGES, qi="age", k=2, keep="disease")),
    ("skyline_anonymize", lambda: skyline_anonymize(
        MIXED_AGES, qi="age", sensitive="disease", policy=Policy.uniform([(0, 0, 0, 1)]))),
    ("skyline_anonymize", lambda: qi_kinds(MIXED_AGES, ["age"], {})),
])
def test_the_mixed_column_warning_names_the_callers_line(owner, call):
    # counted frames, not a hand-counted stacklevel: the caller's line, whichever entry point
    with pytest.warns(MixedColumnWarning, match=re.escape(
            f"Column 'age' is mostly numbers but 2 cell(s) are not (e.g. ['40+', 'unknown']): "
            f"{owner} splits it as categories; clean those cells, or pass "
            f"categorical=['age'] (--categorical age) to say so.")) as caught:
        call()
    assert len(caught) == 1
    assert (caught[0].filename, caught[0].lineno) == (__file__, call.__code__.co_firstlineno)


# ------------------------------------------------------------- the balanced median cut


@given(st.lists(st.lists(st.integers(1, 50), min_size=2, max_size=8), min_size=1,
                max_size=6))
def test_the_balanced_cut_is_a_cut_of_the_group_and_never_less_balanced(groups):
    """Per group: the cut is one of its codes below its largest, and the balanced rule's
    larger child is never larger than the plain median rule's."""
    code = np.concatenate([np.arange(len(g)) * 3 for g in groups])
    count = np.concatenate([np.array(g) for g in groups])
    starts = np.concatenate([[0], np.cumsum([len(g) for g in groups])])
    hi = code[starts[1:] - 1]
    plain = median_cuts(code, count, starts, hi)
    balanced = median_cuts(code, count, starts, hi, balanced=True)
    def larger(cut, mine, sizes):
        left = int(sizes[mine <= cut].sum())
        return max(left, int(sizes.sum()) - left)

    for i, g in enumerate(groups):
        mine, sizes = code[starts[i]:starts[i + 1]], np.array(g)
        assert balanced[i] in mine and balanced[i] < hi[i]
        assert larger(balanced[i], mine, sizes) <= larger(plain[i], mine, sizes)


def test_split_loss_splits_a_group_whose_plain_median_cut_leaves_a_child_below_k():
    """Adult's ages 31..34 with 69, 70, 74 and 70 rows: the plain median cut gives 213 and
    70 rows (k = 100 fails); split='loss' cuts at 32 (139 and 144)."""
    from skyprivacy import anonymize
    from skyprivacy.criteria import KAnonymity

    ages = np.repeat([31, 32, 33, 34], [69, 70, 74, 70])
    table = pd.DataFrame({"age": ages, "dx": np.resize(["a", "b"], len(ages))})
    sizes = {split: sorted(anonymize(table, qi="age", sensitive="dx", criteria=[KAnonymity(100)],
                                     split=split).table["age"].value_counts().tolist())
             for split in ("loss", "widest")}
    assert sizes == {"loss": [139, 144], "widest": [283]}
