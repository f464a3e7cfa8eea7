"""Helpers shared by the tests of skyprivacy.hierarchy: whole-message matching, the oracle
that reads the bundled ARX files by hand, and the Hypothesis strategy of random trees."""

from __future__ import annotations

import re

from hypothesis import settings
from hypothesis import strategies as st

from skyprivacy.datasets import adult_hierarchy_path

#: The Adult columns with a bundled ARX hierarchy (``income`` is ARX's ``salary-class``).
ADULT_QI = ["age", "workclass", "education", "marital-status", "occupation", "race", "sex",
            "native-country", "income"]

PROFILE = settings(max_examples=60, deadline=None)


def exactly(message: str) -> str:
    """A ``match=`` pattern for the whole message, so any change of wording is seen."""
    return "^" + re.escape(message) + "$"


def arx_rows(attribute):
    """Oracle: the bundled ARX file split by hand."""
    stem = "salary-class" if attribute == "income" else attribute
    text = adult_hierarchy_path(stem).read_text(encoding="utf-8")
    return [line.split(";") for line in text.splitlines() if line]


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
    """The lowest level where the rows of all members agree, and their label there."""
    for level in range(len(rows[0])):
        labels = {rows[m][level] for m in members}
        if len(labels) == 1:
            return level, labels.pop()
    raise AssertionError("rows without a single root")
