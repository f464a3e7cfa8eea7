"""The bundled UCI Adult data."""
import re

import pytest

from skyprivacy import InvalidParameterError
from skyprivacy.datasets import ADULT_COLUMNS, adult_hierarchy_path, load_adult
from skyprivacy.hierarchy import bundled


def test_adult_is_the_45222_clean_records():
    adult = load_adult()
    assert adult.shape == (45222, 15)
    assert tuple(adult.columns) == ADULT_COLUMNS
    text_columns = [c for c in adult.columns if adult[c].dtype == object]
    assert len(text_columns) == 9
    for column in text_columns:
        values = adult[column]
        assert not values.str.startswith(" ").any(), column
        assert not values.str.endswith(".").any(), column
        assert not (values == "?").any(), column
    assert adult["age"].dtype == "int64" and adult["age"].between(17, 90).all()
    assert adult["occupation"].nunique() == 14
    assert adult["income"].value_counts().to_dict() == {"<=50K": 34014, ">50K": 11208}
    assert adult.isna().sum().sum() == 0


def test_adult_loader_returns_a_fresh_frame():
    a = load_adult()
    a.loc[0, "age"] = -1
    assert load_adult().loc[0, "age"] == 39


def test_bundled_hierarchy_files():
    assert adult_hierarchy_path("age").read_text().splitlines()[0] == "1;0-4;0-9;0-19;*"
    assert adult_hierarchy_path("income").name == "salary-class.csv"
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'attribute' parameter of adult_hierarchy_path must be one of ['age', ")):
        adult_hierarchy_path("zip")


def test_nursery_is_the_uci_table_with_hierarchies_covering_every_value():
    from skyprivacy.datasets import NURSERY_COLUMNS, load_nursery
    nursery = load_nursery()
    assert nursery.shape == (12960, 9)
    assert tuple(nursery.columns) == NURSERY_COLUMNS == (
        "parents", "has_nurs", "form", "children", "housing", "finance", "social", "health",
        "class")
    # the eight attributes form a full Cartesian product (3*5*4*4*3*2*3*3 = 12,960)
    assert not nursery.drop(columns="class").duplicated().any()
    assert nursery["class"].value_counts().to_dict() == {
        "not_recom": 4320, "priority": 4266, "spec_prior": 4044, "very_recom": 328,
        "recommend": 2}
    for column in NURSERY_COLUMNS:
        hierarchy = bundled("nursery", column)
        assert set(nursery[column]) == set(hierarchy.leaves), column
        assert hierarchy.generalize(list(nursery[column].unique()), hierarchy.height) == \
            ["*"] * nursery[column].nunique()
    nursery.loc[0, "parents"] = "changed"  # a fresh frame every call
    assert load_nursery().loc[0, "parents"] == "usual"


def test_nursery_lookups_name_the_bad_value():
    from skyprivacy.datasets import nursery_hierarchy_path
    with pytest.raises(InvalidParameterError,
                       match=r"The 'attribute' parameter of bundled must be one of "
                             r"\['parents', .*'class'\]. Got 'age' instead."):
        bundled("nursery", "age")
    with pytest.raises(InvalidParameterError,
                       match=r"The 'dataset' parameter of bundled must be 'adult' "
                             r"or 'nursery'. Got 'iris' instead."):
        bundled("iris", "age")
    with pytest.raises(InvalidParameterError,
                       match=r"The 'attribute' parameter of nursery_hierarchy_path must be "
                             r"one of .*Got 'zip' instead."):
        nursery_hierarchy_path("zip")
