"""The released table (skyprivacy/anonymize/released.py): group numbers by first row, one
label per (lowest, highest) code pair, and the k-anonymity model of group sizes."""
import numpy as np
import pandas as pd

from skyprivacy.anonymize.encoders import NumericQI
from skyprivacy.anonymize.released import (
    group_labels,
    group_stats,
    range_labels,
    sizes_only,
)


def test_groups_are_numbered_by_their_first_row_and_labelled_by_their_ranges():
    attr = NumericQI("age", pd.Series([30, 40, 50, 30, 50]))
    final = np.array([2, 0, 2, 1, 0])
    stats = group_stats(final, np.arange(5), attr.codes[:, None], {})
    labels = group_labels([attr], [], stats)
    assert labels["id_of_key"][final].tolist() == [0, 1, 0, 2, 1]
    assert labels["texts"][0][labels["label_of"][0]].tolist() == ["[40, 50]", "30", "[30, 50]"]
    assert [same.tolist() for same in labels["same"]] == [[False, True, False]]


def test_each_range_is_labelled_once():
    attr = NumericQI("age", pd.Series([30, 40, 50]))
    texts, inverse = range_labels(attr, np.array([0, 0, 2]), np.array([1, 1, 2]))
    assert texts.tolist() == ["[30, 40]", "50"] and inverse.tolist() == [0, 0, 1]


def test_sizes_only_is_a_model_of_the_group_sizes():
    model = sizes_only(np.array([3, 4]), pd.RangeIndex(2, name="group"))
    assert model.sizes_array.tolist() == [3, 4] and model.values == ("individuals",)
