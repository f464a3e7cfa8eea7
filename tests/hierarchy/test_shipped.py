"""The hierarchies shipped with skyprivacy (skyprivacy/hierarchy/shipped.py).

The oracle reads the bundled ARX Adult files with ``str.split``, independently of the parser.
"""

from __future__ import annotations

import pytest

from skyprivacy.datasets import ADULT_HIERARCHIES, NURSERY_COLUMNS, load_adult, load_nursery
from skyprivacy.errors import InvalidParameterError
from skyprivacy.hierarchy import bundled, load_adult_hierarchies

from .helpers import ADULT_QI, arx_rows, exactly


def test_load_adult_hierarchies_keys_are_adult_columns(hierarchies):
    assert set(hierarchies) == set(ADULT_QI)
    assert set(ADULT_QI) <= set(load_adult().columns)
    again = load_adult_hierarchies()
    assert again is not hierarchies  # a new dict ...
    assert all(again[c] is hierarchies[c] for c in ADULT_QI)  # ... of the shared hierarchies


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
    assert [list(row) for row in h.rows] == rows


def test_bundled_reference_shapes(hierarchies):
    heights = {a: hierarchies[a].height for a in ADULT_QI}
    assert heights == {"age": 4, "workclass": 2, "education": 3, "marital-status": 2,
                       "occupation": 2, "race": 1, "sex": 1, "native-country": 2,
                       "income": 1}
    assert len(hierarchies["age"].leaves) == 100
    assert len(hierarchies["education"].leaves) == 16
    assert len(hierarchies["occupation"].leaves) == 14


def test_bundled_is_cached_and_accepts_arx_name():
    assert bundled("adult", "sex") is bundled("adult", "sex")
    arx = bundled("adult", "salary-class")
    assert arx.name == "salary-class"
    assert arx.rows == bundled("adult", "income").rows
    assert "salary-class" in ADULT_HIERARCHIES


def test_every_adult_value_is_covered(adult, hierarchies):
    for column, h in hierarchies.items():
        assert h.uncovered(adult[column]) == (), column
        h.validate(adult[column])


@pytest.mark.parametrize("column", NURSERY_COLUMNS)
def test_every_nursery_value_is_covered(column):
    h = bundled("nursery", column)
    assert h.name == column and h.root == "*"
    assert h.covers(load_nursery()[column])
    assert bundled("nursery", column) is h


def test_arx_age_labels_are_off_by_one_at_multiples_of_five(hierarchies):
    """A quirk of the upstream ARX file, kept as shipped: 40 sits under '35-39'.

    The tree is valid (groups {36..40}, {41..45}, ...) but the labels misname the multiples
    of 5; docs/hierarchies.md recommends intervals() for correct labels.
    """
    age = hierarchies["age"]
    assert age.generalize([36, 40, 41], 1) == ["35-39", "35-39", "40-44"]
    assert age.lca([36, 40]) == "35-39"
    assert sorted(age.leaves_under("35-39"), key=int) == ["36", "37", "38", "39", "40"]


def test_bundled_errors():
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'dataset' parameter of bundled must be 'adult' or 'nursery'. "
            "Got 'census' instead.")):
        bundled("census", "age")
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'attribute' parameter of bundled must be one of ['age', "
            "'workclass', 'education', 'marital-status', 'occupation', 'race', 'sex', "
            "'native-country', 'income', 'salary-class']. Got 'zip' instead.")):
        bundled("adult", "zip")
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'attribute' parameter of bundled must be one of ['parents', 'has_nurs', "
            "'form', 'children', 'housing', 'finance', 'social', 'health', 'class']. "
            "Got 'age' instead.")):
        bundled("nursery", "age")
    with pytest.raises(InvalidParameterError, match=r"^The 'attribute' parameter of bundled "):
        bundled("adult", ["age"])  # unhashable: refused before the cache sees it
