"""Constructors of common shapes (skyprivacy/hierarchy/builders.py): reference labels, every
message, and Hypothesis properties checked against the definitions (exact interval bounds,
common prefixes of masked codes, the calendar)."""

from __future__ import annotations

import datetime as dt
import os
import re
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from skyprivacy.errors import HierarchyError, InvalidParameterError
from skyprivacy.hierarchy import (ROOT_LABEL, Hierarchy, dates, from_levels, from_mapping,
                                  intervals, masking)

from .helpers import PROFILE, exactly


@pytest.mark.parametrize("owner, call", [
    ("from_levels", lambda: from_levels([["a"]], name=3)),
    ("from_mapping", lambda: from_mapping({"a": []}, name=3)),
    ("intervals", lambda: intervals([1], [2], name=3)),
    ("masking", lambda: masking(["1"], name=3)),
    ("dates", lambda: dates(["2024-01-01"], name=3)),
])
def test_name_must_be_a_string(owner, call):
    with pytest.raises(InvalidParameterError, match=exactly(
            f"The 'name' parameter of {owner} must be a string or None. Got 3 instead.")):
        call()


# ------------------------------------------------------------------ from_levels
def test_from_levels_frame_array_and_numpy_scalars():
    frame = pd.DataFrame({"leaf": np.array([1, 2, 3]), "up": ["low", "low", "high"],
                          "top": ["*"] * 3})
    h = from_levels(frame)
    assert h.leaves == (1, 2, 3) and all(type(x) is int for x in h.leaves)
    assert from_levels(frame.to_numpy()) == h
    assert from_levels(frame.values.tolist()) == h
    single = from_levels([["only"]])
    assert single.height == 0 and single.root == "only" and single.lca(["only"]) == "only"


def test_from_levels_ragged_trailing_cells_are_padding():
    # pandas pads ragged CSV rows with NaN; trailing blanks are not labels.
    frame = pd.DataFrame([["a", "*", np.nan], ["b", "*", np.nan]])
    assert from_levels(frame).height == 1


def test_from_levels_argument_errors():
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'levels' parameter of from_levels must be a DataFrame, a 2-D array "
            "or a sequence of rows. Got 'a;*' instead.")):
        from_levels("a;*")
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'levels' parameter of from_levels must be two-dimensional (one row "
            "per leaf). Got an array of shape (2,) instead.")):
        from_levels(np.array(["a", "*"]))
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'levels' parameter of from_levels must be a sequence of rows (each "
            "a sequence of labels). Got 'a' instead.")):
        from_levels(["a", "*"])


# ----------------------------------------------------------------- from_mapping
def test_from_mapping_forms_agree():
    nested = from_mapping({"flu": ["resp", "*"], "cold": ["resp", "*"],
                           "ulcer": ["dig", "*"]}, name="d")
    per_level = from_mapping([{"flu": "resp", "cold": "resp", "ulcer": "dig"},
                              {"resp": "*", "dig": "*"}], name="d")
    assert nested == per_level and hash(nested) == hash(per_level)
    assert from_mapping({"a": "*", "b": "*"}).height == 1


def test_per_level_mapping_errors():
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'd': node 'dig' at level 1 has no parent: it is not a key of mapping 2 "
            "(level 1 -> level 2).")):
        from_mapping([{"flu": "resp", "ulcer": "dig"}, {"resp": "*"}], name="d")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'd': mapping 2 (level 1 -> level 2) has keys ['respiratory'] that are "
            "not nodes at level 1.")):
        from_mapping([{"flu": "resp"}, {"resp": "*", "respiratory": "*"}], name="d")
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'mapping' parameter of from_mapping must be a dict {leaf: "
            "[ancestors]} or a list of {child: parent} dicts. Got 'a:b' instead.")):
        from_mapping("a:b")
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'mapping' parameter of from_mapping must be a dict {leaf: "
            "[ancestors]} or a list of {child: parent} dicts. Got [('a', 'b')] instead.")):
        from_mapping([("a", "b")])


# -------------------------------------------------------------------- intervals
def test_intervals_reference_labels():
    h = intervals(range(17, 91), (5, 10, 20), name="age")
    assert h.height == 4 and h.leaves == tuple(range(17, 91))
    assert h.generalize([17, 20, 39, 40, 90], 1) == [
        "[15, 20)", "[20, 25)", "[35, 40)", "[40, 45)", "[90, 95)"]
    assert h.generalize([17, 39, 40], 3) == ["[0, 20)", "[20, 40)", "[40, 60)"]
    assert h.lca([31, 38]) == "[30, 40)" and h.lca([21, 38]) == "[20, 40)"
    assert h.generalize("39", 2) == "[30, 40)"  # numeric leaves accept text


def test_intervals_right_closed_origin_and_exact_decimals():
    right = intervals([0, 5, 6, 10], (5, 10), closed="right")
    assert right.generalize([0, 5, 6, 10], 1) == ["(-5, 0]", "(0, 5]", "(5, 10]", "(5, 10]"]
    shifted = intervals([17, 21, 22], (5,), origin=2)
    assert shifted.generalize([17, 21, 22], 1) == ["[17, 22)", "[17, 22)", "[22, 27)"]
    decimals = intervals([0.3, 0.7, 1.0], (0.1, 0.5))
    assert decimals.generalize([0.3, 0.7, 1.0], 1) == ["[0.3, 0.4)", "[0.7, 0.8)", "[1, 1.1)"]
    assert decimals.generalize([0.3, 0.7], 2) == ["[0, 0.5)", "[0.5, 1)"]
    negative = intervals(np.array([-7, -1, 3]), [4, 8])
    assert negative.to_frame()[1].tolist() == ["[-8, -4)", "[-4, 0)", "[0, 4)"]
    assert negative.leaves == (-7, -1, 3) and type(negative.leaves[0]) is int


def test_intervals_read_every_kind_of_exact_number():
    # Fractions, Decimals and numpy scalars as widths and origin: one rule, the kernel's
    h = intervals([1, 2], (Fraction(1, 2), Decimal("1.5")), origin=np.float64(0.25))
    assert h.generalize([1, 2], 1) == ["[0.75, 1.25)", "[1.75, 2.25)"]
    assert h.generalize([1, 2], 2) == ["[0.25, 1.75)", "[1.75, 3.25)"]


def test_intervals_from_data_column(adult):
    column = adult["hours-per-week"]
    h = intervals(column, (10, 20))
    assert len(h.leaves) == column.nunique()
    assert h.generalize(column.iloc[:3], 1).tolist() == ["[40, 50)", "[10, 20)", "[40, 50)"]


def test_intervals_parameter_errors():
    owner = "The '{}' parameter of intervals must "
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("closed") + "be 'left' or 'right'. Got 'both' instead.")):
        intervals([1], [5], closed="both")
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("origin") + "be a finite number. Got inf instead.")):
        intervals([1], [5], origin=float("inf"))
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("origin") + "be a finite number. Got '0' instead.")):
        intervals([1], [5], origin="0")
    requirement = "be increasing positive numbers, each a multiple of the previous"
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("widths") + requirement + " (12 is not a larger multiple of 5). "
            "Got (5, 12) instead.")):
        intervals([1], (5, 12))
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("widths") + requirement + " (5 is not a larger multiple of 10). "
            "Got [10, 5] instead.")):
        intervals([1], [10, 5])
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("widths") + requirement + " (5 is not a larger multiple of 5). "
            "Got [5, 5] instead.")):
        intervals([1], [5, 5])
    for widths in ([], [0], [-5], [True], "5", 5, [float("nan")], [float("inf")], ["5"]):
        with pytest.raises(InvalidParameterError, match=exactly(
                owner.format("widths") + requirement + f". Got {widths!r} instead.")):
            intervals([1], widths)
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("values") + "be an iterable of numbers. Got 7 instead.")):
        intervals(7, [5])


def test_intervals_value_errors():
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'age': intervals need finite numbers; 3 value(s) are not: "
            "['x', nan, True].")):
        intervals([1, "x", np.nan, True, 2], [5], name="age")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy: intervals need finite numbers; 1 value(s) are not: [inf].")):
        intervals(np.array([1.0, np.inf]), [5])
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy: intervals need finite numbers; 1 value(s) are not: [Decimal('1')].")):
        intervals([Decimal("1")], [5])  # leaves become labels: numbers of the built-in kinds
    for empty in ([], range(0), np.array([], dtype=int)):
        with pytest.raises(HierarchyError, match=exactly(
                "Hierarchy is empty: give at least one value.")):
            intervals(empty, [5])


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
    h = intervals(values, widths, closed=closed, origin=origin)
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


# ---------------------------------------------------------------------- masking
def test_masking_default_and_custom_levels():
    h = masking(["47906", "47907", "47920"], name="zip")
    assert h.height == 5
    assert h.to_frame().iloc[0].tolist() == ["47906", "4790*", "479**", "47***", "4****", "*"]
    custom = masking([47906, 47920], levels=[2, 5], mask_char="#")
    assert custom.to_frame().values.tolist() == [["47906", "479##", "#####", "*"],
                                                 ["47920", "479##", "#####", "*"]]
    assert masking(["02139", "02140"]).generalize("02139", 2) == "021**"
    assert masking(["ab", "ab", "cd"], levels=[]).leaves == ("ab", "cd")
    assert masking(np.array([47906, 47920]), levels=[np.int64(1)]).height == 2


def test_masking_errors():
    owner = "The '{}' parameter of masking must "
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("mask_char") + "be a single character. Got '**' instead.")):
        masking(["123"], mask_char="**")
    with pytest.raises(InvalidParameterError, match=exactly(
            owner.format("codes") + "be an iterable of codes (str or int). Got '47906' "
            "instead.")):
        masking("47906")
    for levels in ([2, 1], [0, 1], [1, 6], [1.5], "12", 3, [True]):
        with pytest.raises(InvalidParameterError, match=exactly(
                owner.format("levels") + "be strictly increasing integers in [1, 5]. "
                f"Got {levels!r} instead.")):
            masking(["47906"], levels=levels)
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'zip': codes to mask must all have the same length; '47906' has 5 "
            "characters but '4790' has 4.")):
        masking(["47906", 4790], name="zip")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'zip': codes to mask contain a missing value (nan).")):
        masking(["47906", np.nan], name="zip")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy: codes to mask must be strings or integers; got 47906.0.")):
        masking([47906.0])
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy: codes to mask contain an empty string.")):
        masking(["1", ""])
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy is empty: give at least one code to mask.")):
        masking([])


@PROFILE
@given(st.integers(1, 6).flatmap(
    lambda n: st.tuples(st.just(n), st.lists(st.text("0123456789", min_size=n, max_size=n),
                                             min_size=1, max_size=15))))
def test_masking_labels_and_lca_are_common_prefixes(sized):
    length, codes = sized
    h = masking(codes)
    assert h.height == length
    for code in codes:
        assert [label for _, label in h.ancestors(code)][:-1] == [
            code[: length - c] + "*" * c for c in range(1, length)]
    prefix = os.path.commonprefix(codes)
    masked = length - len(prefix)
    expected = (masked, codes[0]) if masked == 0 else (
        (masked, prefix + "*" * masked) if masked < length else (length, "*"))
    assert h.lca_node(codes) == expected


# ------------------------------------------------------------------------ dates
def test_dates_levels_and_labels():
    h = dates([dt.date(1999, 12, 31), "2024-03-15", pd.Timestamp("2024-11-02")],
              levels=("month", "quarter", "year", "decade", "century"))
    assert h.to_frame().values.tolist() == [
        ["1999-12-31", "1999-12", "1999-Q4", "1999", "1990-1999", "1900-1999", "*"],
        ["2024-03-15", "2024-03", "2024-Q1", "2024", "2020-2029", "2000-2099", "*"],
        ["2024-11-02", "2024-11", "2024-Q4", "2024", "2020-2029", "2000-2099", "*"],
    ]
    assert h.lca(["2024-03-15", "2024-11-02"]) == "2024"
    default = dates(pd.Series(pd.to_datetime(["2024-03-15", "2024-03-15"])))
    assert default.height == 4 and default.leaves == ("2024-03-15",)
    assert dates(["2024-03-15"], levels=()).to_frame().values.tolist() == [
        ["2024-03-15", "*"]]


def test_dates_errors():
    requirement = ("be a sequence of distinct names from ['month', 'quarter', 'year', "
                   "'decade', 'century'] in that order")
    for levels in (("year", "month"), ("week",), "year", ("year", "year"), 3):
        with pytest.raises(InvalidParameterError, match=exactly(
                f"The 'levels' parameter of dates must {requirement}. "
                f"Got {levels!r} instead.")):
            dates(["2024-01-01"], levels=levels)
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'values' parameter of dates must be an iterable of dates. "
            "Got '2024-01-01' instead.")):
        dates("2024-01-01")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'd': dates contain 2 missing value(s) [None, NaT].")):
        dates(["2024-01-01", None, pd.NaT], name="d")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy: 2 value(s) cannot be read as dates: ['2024-13-45', 2024].")):
        dates(["2024-01-01", "2024-13-45", 2024])
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy is empty: give at least one date.")):
        dates([])


@PROFILE
@given(st.lists(st.dates(dt.date(1700, 1, 1), dt.date(2200, 12, 31)), min_size=1, max_size=20))
def test_dates_labels_follow_the_calendar(days):
    h = dates(days, levels=("month", "quarter", "year", "decade", "century"))
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


def test_builders_return_hierarchies_that_end_in_the_root_label():
    for h in (intervals([1], [5]), masking(["1"]), dates(["2024-01-01"])):
        assert isinstance(h, Hierarchy) and h.root == ROOT_LABEL == "*"
