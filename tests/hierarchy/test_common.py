"""What the modules of the hierarchy package share (skyprivacy/hierarchy/_common.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from skyprivacy.errors import InvalidParameterError
from skyprivacy.hierarchy._common import (ROOT_LABEL, described_error, is_blank, native_value,
                                          object_array, shown, title)


def test_title_names_the_hierarchy_when_it_has_a_name():
    assert title("age") == "Hierarchy 'age'" and title(None) == "Hierarchy"


def test_shown_lists_at_most_five_native_values():
    assert shown([np.int64(1), "a", None]) == "[1, 'a', None]"
    assert shown(list(range(7))) == "[0, 1, 2, 3, 4, ...]"
    assert shown([1, 2, 3], limit=2) == "[1, 2, ...]"
    assert shown([]) == "[]"


def test_native_value_keeps_datetimes_as_timestamps():
    assert native_value(np.datetime64("2030-01-01T00:00:00.000000000")) == \
        pd.Timestamp("2030-01-01")
    assert type(native_value(np.datetime64("2030-01-01"))) is pd.Timestamp
    assert type(native_value(np.int64(3))) is int and native_value("a") == "a"


def test_is_blank():
    assert all(is_blank(v) for v in (None, np.nan, pd.NaT, pd.NA, ""))
    assert not any(is_blank(v) for v in (" ", 0, "*", [None]))


def test_described_error_is_the_house_template():
    error = described_error("table", "f", "be a pandas DataFrame", "a Series")
    assert isinstance(error, InvalidParameterError)
    assert (
        str(error) == "The 'table' parameter of f must be a pandas DataFrame. Got a Series instead."
    )


def test_object_array_keeps_tuples_as_items():
    array = object_array([("a", 1), ("b", 2)])
    assert array.shape == (2,) and array.dtype == object and array[1] == ("b", 2)
    assert ROOT_LABEL == "*"
