"""One-hot encoding (spec group-tagging §3.1)."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from skyprivacy.errors import (InvalidParameterError, SchemaError, UnknownCategoryWarning)
from skyprivacy.experimental.group_tagging import MISSING_CATEGORY, one_hot_encode

TABLE = pd.DataFrame({"religion": ["Hindu", "Muslim", "Hindu", "Sikh"],
                      "maths": [95, 40, 90, 89.5], "name": ["a", "b", "c", "d"]},
                     index=[7, 8, 9, 10])


def test_bits_replace_each_attribute_in_place_and_keep_the_index():
    frame, encoding = one_hot_encode(TABLE, columns=["religion", "maths"],
                                     bins={"maths": [50, 90]})
    assert frame.columns.tolist() == ["religion=Hindu", "religion=Muslim", "religion=Sikh",
                                      "maths=<50", "maths=[50, 90)", "maths=>=90", "name"]
    assert frame.index.tolist() == [7, 8, 9, 10]
    assert frame["maths=>=90"].tolist() == [1, 0, 1, 0]  # 90 is in [90, inf); 89.5 is not
    assert frame["maths=[50, 90)"].tolist() == [0, 0, 0, 1]
    assert frame["name"].tolist() == ["a", "b", "c", "d"]
    assert encoding.columns["maths"] == ("maths=<50", "maths=[50, 90)", "maths=>=90")
    assert encoding.bins["maths"] == (50.0, 90.0)
    assert encoding.source_of("religion=Sikh") == "religion"
    assert encoding.source_of("name") is None
    assert encoding.to_frame().shape == (6, 3)
    for bits in encoding.columns.values():  # exactly one hot bit per attribute
        assert (frame[list(bits)].sum(axis=1) == 1).all()


def test_explicit_categories_fix_the_bits_across_periods():
    frame, encoding = one_hot_encode(TABLE, columns="religion",
                                     categories={"religion": ["Sikh", "Hindu", "Muslim"]})
    assert list(encoding.columns["religion"]) == ["religion=Sikh", "religion=Hindu",
                                                  "religion=Muslim"]
    later = pd.DataFrame({"religion": ["Muslim"], "maths": [1], "name": ["z"]})
    again, same = encoding.transform(later)
    assert same.columns == encoding.columns
    assert again[list(encoding.columns["religion"])].iloc[0].tolist() == [0, 0, 1]


def test_an_unseen_category_raises_or_is_ignored_with_a_warning():
    with pytest.raises(SchemaError, match=r"^Column 'religion' has values outside its "
                       r"categories: \['Sikh'\] \(categories are \['Hindu', 'Muslim'\]\); pass "
                       r"handle_unknown='ignore' to encode them as all-zero bits\.$"):
        one_hot_encode(TABLE, columns="religion", categories={"religion": ["Hindu", "Muslim"]})
    with pytest.warns(UnknownCategoryWarning, match=r"^Column 'religion': 1 row\(s\) with values "
                      r"outside its categories \(\['Sikh'\]\) are encoded as all-zero bits, so "
                      r"they have no hot bit for 'religion'\.$"):
        frame, _ = one_hot_encode(TABLE, columns="religion", handle_unknown="ignore",
                                  categories={"religion": ["Hindu", "Muslim"]})
    assert frame.loc[10, ["religion=Hindu", "religion=Muslim"]].tolist() == [0, 0]


def test_a_later_period_is_checked_and_warned_about_at_the_callers_line():
    _, encoding = one_hot_encode(TABLE.iloc[:3], columns="religion")  # no Sikh yet
    with pytest.raises(InvalidParameterError) as caught:
        encoding.transform(TABLE, handle_unknown="skip")
    assert str(caught.value) == ("The 'handle_unknown' parameter of EncodingMap.transform must "
                                 "be one of ['error', 'ignore']. Got 'skip' instead.")
    with pytest.raises(InvalidParameterError) as caught:
        encoding.transform(TABLE.to_dict())
    assert str(caught.value) == ("The 'table' parameter of EncodingMap.transform must be a pandas "
                                 "DataFrame. Got 'dict' instead.")
    with pytest.warns(UnknownCategoryWarning) as caught:  # transform -> one_hot_encode -> warn
        encoding.transform(TABLE, handle_unknown="ignore")
    assert caught[0].filename == __file__


def test_missing_values_raise_or_become_a_category():
    table = pd.DataFrame({"area": ["urban", None, "rural"], "score": [1.0, 2.0, np.nan]})
    with pytest.raises(SchemaError, match=r"^Column 'area' has 1 missing value\(s\); pass "
                       r"missing='as_category' to encode them as a category of their own, or "
                       r"clean the table\.$"):
        one_hot_encode(table, columns=["area"])
    frame, encoding = one_hot_encode(table, columns=["area", "score"], bins={"score": [1.5]},
                                     missing="as_category")
    assert encoding.categories["area"] == ("rural", "urban", MISSING_CATEGORY)
    assert frame["area=<NA>"].tolist() == [0, 1, 0]
    assert frame["score=<NA>"].tolist() == [0, 0, 1]
    assert encoding.transform(table).frame.columns.tolist() == frame.columns.tolist()


@pytest.mark.parametrize("kwargs, message", [
    ({"columns": []}, "The 'columns' parameter of one_hot_encode must name at least one "
                      "column. Got [] instead."),
    ({"columns": ["religion"], "bins": {"maths": [1]}},
     "The 'bins' parameter of one_hot_encode must name only columns listed in 'columns' "
     "(['religion']). Got 'maths' instead."),
    ({"columns": ["maths"], "bins": {"maths": [90, 50]}},
     "The 'bins' parameter of one_hot_encode must give column 'maths' a non-empty list of "
     "finite, strictly increasing edges. Got [90, 50] instead."),
    ({"columns": ["maths"], "bins": {"maths": [1]}, "categories": {"maths": [1]}},
     "The 'categories' parameter of one_hot_encode must not name a column that also has bins "
     "(bins define its categories). Got 'maths' instead."),
    ({"columns": ["religion"], "categories": {"religion": ["a", "a"]}},
     "The 'categories' parameter of one_hot_encode must give column 'religion' a non-empty "
     "list of distinct categories. Got ['a', 'a'] instead."),
    ({"columns": ["religion"], "missing": "drop"},
     "The 'missing' parameter of one_hot_encode must be one of ['error', 'as_category']. Got "
     "'drop' instead."),
    ({"columns": ["religion"], "bins": [("maths", [1])]},
     "The 'bins' parameter of one_hot_encode must be None or a mapping from column to list. Got "
     "'list' instead."),
    ({"columns": ["religion"], "categories": "religion"},
     "The 'categories' parameter of one_hot_encode must be None or a mapping from column to "
     "list. Got 'str' instead."),
    ({"columns": ["maths"], "bins": {"maths": [1, float("nan")]}},
     "The 'bins' parameter of one_hot_encode must give column 'maths' a non-empty list of "
     "finite, strictly increasing edges. Got [1, nan] instead."),
    ({"columns": ["religion"], "handle_unknown": "skip"},
     "The 'handle_unknown' parameter of one_hot_encode must be one of ['error', 'ignore']. Got "
     "'skip' instead."),
])
def test_bad_parameters(kwargs, message):
    with pytest.raises(InvalidParameterError) as caught:
        one_hot_encode(TABLE, **kwargs)
    assert str(caught.value) == message


def test_schema_errors():
    with pytest.raises(SchemaError, match=r"^Column 'zip' is not in the table; columns are "
                       r"\['religion', 'maths', 'name'\]\.$"):
        one_hot_encode(TABLE, columns=["zip"])
    with pytest.raises(SchemaError, match=r"^Column 'name' has bins but is not numeric"):
        one_hot_encode(TABLE, columns=["name"], bins={"name": [1]})
    clash = TABLE.assign(**{"religion=Hindu": 0})
    with pytest.raises(SchemaError, match=r"^The bit column 'religion=Hindu' of 'religion' "
                       r"clashes with another column of the table; rename one of them\.$"):
        one_hot_encode(clash, columns=["religion"])
    with pytest.raises(SchemaError, match=r"^The table is empty: one_hot_encode needs at least "
                       r"one row\.$"):
        one_hot_encode(TABLE.iloc[:0], columns=["religion"])


@given(st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=30))
def test_every_row_has_one_hot_bit_and_the_input_is_untouched(values):
    table = pd.DataFrame({"x": values})
    before = table.copy()
    frame, encoding = one_hot_encode(table, columns=["x"])
    assert (frame.sum(axis=1) == 1).all()
    decoded = frame.idxmax(axis=1).str.removeprefix("x=")
    assert decoded.tolist() == values
    pd.testing.assert_frame_equal(table, before)
