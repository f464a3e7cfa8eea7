"""Hypothesis properties of hierarchies, checked against oracles written from the definitions.

The oracle for a hierarchy is its own row table (leaf, level 1, ..., root): the ancestor of a
leaf at level L is the row's L-th cell, and the lowest common ancestor of a set of leaves is
the cell of the lowest level where all their rows agree.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from fractions import Fraction

import networkx as nx
import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from skyprivacy.hierarchy import Hierarchy

PROFILE = settings(max_examples=60, deadline=None)


@st.composite
def trees(draw):
    """Row tables of random valid hierarchies; labels deliberately reused across levels."""
    n_leaves = draw(st.integers(1, 12))
    height = draw(st.integers(0 if n_leaves == 1 else 1, 4))
    sizes = [n_leaves]
    for _ in range(height - 1):
        sizes.append(draw(st.integers(1, sizes[-1])))
    if height:
        sizes.append(1)
    # node k of level L is labelled f"n{k}" at every level >= 1, so labels repeat over levels
    leaf_labels = draw(st.lists(st.text("abcxyz", min_size=1, max_size=3), min_size=n_leaves,
                                max_size=n_leaves, unique=True))
    parents = [draw(st.lists(st.integers(0, sizes[lv + 1] - 1), min_size=sizes[lv],
                             max_size=sizes[lv])) for lv in range(height)]
    rows = []
    for leaf in range(n_leaves):
        row, node = [leaf_labels[leaf]], leaf
        for level in range(height):
            node = parents[level][node]
            row.append("*" if level == height - 1 else f"n{node}")
        rows.append(row)
    return rows


def oracle_lca(rows, members):
    for level in range(len(rows[0])):
        labels = {rows[m][level] for m in members}
        if len(labels) == 1:
            return level, labels.pop()
    raise AssertionError("rows without a single root")


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
def test_arx_round_trip(rows):
    h = Hierarchy(rows, name="t")
    assert Hierarchy.from_arx(h.to_arx(), name="t") == h
    assert Hierarchy.from_levels(h.to_frame(), name="t") == h


# ----------------------------------------------------------------------- intervals
def parse_interval(label):
    match = re.fullmatch(r"([\[(])(-?[\d.e+-]+), (-?[\d.e+-]+)([\])])", label)
    assert match, label
    return match.group(1), Fraction(match.group(2)), Fraction(match.group(3)), match.group(4)


@PROFILE
@given(
    st.lists(st.integers(-500, 500), min_size=1, max_size=40),
    st.integers(1, 7),
    st.lists(st.integers(2, 4), max_size=3),
    st.integers(-10, 10),
    st.sampled_from(["left", "right"]),
    st.sampled_from([1, 10]),
)
def test_intervals_contain_their_leaves_and_nest(ints, base, multipliers, origin, closed, scale):
    # scale 10 turns the integers into one-decimal values: exact decimal arithmetic matters
    values = ints if scale == 1 else [v / 10 for v in ints]
    widths = [base]
    for m in multipliers:
        widths.append(widths[-1] * m)
    if scale == 10:
        widths = [w / 10 for w in widths]
    h = Hierarchy.intervals(values, widths, closed=closed, origin=origin)
    assert h.height == len(widths) + 1 and h.root == "*"
    assert list(h.leaves) == sorted(set(values))
    for value in set(values):
        exact = Fraction(repr(value)) if isinstance(value, float) else Fraction(value)
        previous = (exact, exact)
        for level, width in enumerate(widths, start=1):
            opening, lo, hi, closing = parse_interval(h.generalize(value, level))
            assert hi - lo == (Fraction(repr(width)) if isinstance(width, float) else width)
            assert ((lo - origin) / (hi - lo)).denominator == 1  # aligned on origin
            if closed == "left":
                assert (opening, closing) == ("[", ")") and lo <= exact < hi
            else:
                assert (opening, closing) == ("(", "]") and lo < exact <= hi
            assert lo <= previous[0] and previous[1] <= hi  # nested in the next level
            previous = (lo, hi)


# -------------------------------------------------------------------------- masking
@PROFILE
@given(st.integers(1, 6).flatmap(
    lambda n: st.tuples(st.just(n), st.lists(st.text("0123456789", min_size=n, max_size=n),
                                             min_size=1, max_size=15))))
def test_masking_labels_and_lca_are_common_prefixes(sized):
    length, codes = sized
    h = Hierarchy.masking(codes)
    assert h.height == length
    for code in codes:
        assert [label for _, label in h.ancestors(code)][:-1] == [
            code[: length - c] + "*" * c for c in range(1, length)]
    prefix = os.path.commonprefix(codes)
    masked = length - len(prefix)
    expected = (masked, codes[0]) if masked == 0 else (
        (masked, prefix + "*" * masked) if masked < length else (length, "*"))
    assert h.lca_node(codes) == expected


# ---------------------------------------------------------------------------- dates
@PROFILE
@given(st.lists(st.dates(dt.date(1700, 1, 1), dt.date(2200, 12, 31)), min_size=1, max_size=20))
def test_dates_labels_follow_the_calendar(days):
    h = Hierarchy.dates(days, levels=("month", "quarter", "year", "decade", "century"))
    stamps = pd.Series(pd.to_datetime(days))
    for day, label in zip(days, h.generalize(stamps, 0)):
        assert label == day.isoformat()
    assert h.generalize(days, 1) == [f"{d.year:04d}-{d.month:02d}" for d in days]
    assert h.generalize(days, 2) == [f"{d.year:04d}-Q{(d.month + 2) // 3}" for d in days]
    assert h.generalize(np.array(days, dtype="datetime64[D]"), 3).tolist() == [
        str(d.year) for d in days]
    decade = [d.year // 10 * 10 for d in days]
    assert h.generalize(days, 4) == [f"{y}-{y + 9}" for y in decade]
    if len({d.year for d in days}) == 1:
        assert h.lca_node(days)[0] <= 3
