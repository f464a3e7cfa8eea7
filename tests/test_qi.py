"""Quasi-identifier encoders (skyprivacy/qi.py, Sect. 6.2 of Chen, LeFevre and Ramakrishnan
2009): how each QI is split (numbers, categories, a hierarchy), the order categories line up
in, and the codes, splits and labels of the three encoders."""
import re
import warnings

import pandas as pd
import pytest

from skyprivacy import InvalidParameterError, MixedColumnWarning
from skyprivacy.qi import category_orders, qi_kinds


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
