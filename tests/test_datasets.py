"""The bundled UCI Adult data."""
import re

import pytest

from skyprivacy import InvalidParameterError
from skyprivacy.datasets import ADULT_COLUMNS, adult_hierarchy_path, load_adult


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
