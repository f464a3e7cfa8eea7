"""ARX's CSV format as pure text functions (skyprivacy/hierarchy/arx.py)."""

from __future__ import annotations

import pytest
from hypothesis import given

from skyprivacy.datasets import (ADULT_HIERARCHIES, NURSERY_COLUMNS, adult_hierarchy_path,
                                 bundled, nursery_hierarchy_path)
from skyprivacy.errors import HierarchyError, InvalidParameterError
from skyprivacy.hierarchy import (Hierarchy, dates, from_mapping, generate_arx, intervals,
                                  masking, parse_arx)

from .helpers import ADULT_QI, PROFILE, exactly, trees

BUNDLED = [("adult", a) for a in ADULT_HIERARCHIES] + [("nursery", c) for c in NURSERY_COLUMNS]


def bundled_text(dataset, attribute):
    path = adult_hierarchy_path(attribute) if dataset == "adult" else \
        nursery_hierarchy_path(attribute)
    return path.read_text(encoding="utf-8")


# ----------------------------------------------------------------------- parsing
def test_parse_reads_the_rows_as_text():
    h = parse_arx("1;0-4;*\n5;5-9;*\n", name="age")
    assert h.name == "age" and h.rows == (("1", "0-4", "*"), ("5", "5-9", "*"))


def test_parse_blank_lines_quotes_and_other_separator():
    h = parse_arx('"a,1",x,*\n\n"b",x,*\n', sep=",")
    assert h.leaves == ("a,1", "b")
    # rows are cited by line number, blank lines included
    with pytest.raises(HierarchyError, match=r"leaf 'b' appears twice, in row 3 \(leaf 'b'\) "
                                             r"and row 4 \(leaf 'b'\)\.$"):
        parse_arx("a;x;*\n\nb;y;*\nb;y;*\n")


def test_parse_ignores_a_byte_order_mark_crlf_and_trailing_empty_fields():
    expected = parse_arx("a;*\nb;*\n")
    assert parse_arx("\ufeffa;*\r\nb;*\r\n") == expected
    assert parse_arx("a;*;;\nb;*\n") == expected
    assert parse_arx("a;*") == parse_arx("a;*\n")  # one line without its end is text too


def test_parse_argument_errors():
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'text' parameter of parse_arx must be the CSV text as a str (read_arx reads "
            "a file). Got 'bytes' instead.")):
        parse_arx(b"a;*")
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'sep' parameter of parse_arx must be a single character other than a quote "
            "or newline. Got ';;' instead.")):
        parse_arx("a;*", sep=";;")
    for sep in ('"', "\n", "\r", "", 1):
        with pytest.raises(InvalidParameterError, match=r"^The 'sep' parameter of parse_arx"):
            parse_arx("a;*", sep=sep)
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'name' parameter of parse_arx must be a string or None. Got 3 instead.")):
        parse_arx("a", name=3)


# --------------------------------------------------------------------- generating
@pytest.mark.parametrize("attribute", ADULT_QI)
def test_generate_reproduces_the_bundled_adult_file(attribute):
    stem = "salary-class" if attribute == "income" else attribute
    text = generate_arx(bundled("adult", attribute))
    assert text.splitlines() == adult_hierarchy_path(stem).read_text().splitlines()
    assert text.endswith("\n") and "\r" not in text


@pytest.mark.parametrize("dataset, attribute", BUNDLED)
def test_parse_and_generate_round_trip_on_every_bundled_hierarchy(dataset, attribute):
    text = bundled_text(dataset, attribute)
    h = parse_arx(text, name=attribute)
    assert generate_arx(h) == (text if text.endswith("\n") else text + "\n")  # one line end
    assert parse_arx(generate_arx(h), name=attribute) == h
    assert parse_arx(generate_arx(h, sep=","), name=attribute, sep=",") == h


def test_generate_quotes_labels_holding_the_separator_or_a_quote():
    h = from_mapping({"a;b": ['quote "x"', "*"], "c": ["c", "*"]}, name="odd")
    text = generate_arx(h)
    assert text == '"a;b";"quote ""x""";*\nc;c;*\n'
    assert parse_arx(text, name="odd") == h


def test_generate_writes_labels_as_their_str():
    h = Hierarchy([[1, 1.5, "*"], [2, 2.5, "*"], ["t", True, "*"]])
    assert generate_arx(h) == "1;1.5;*\n2;2.5;*\nt;True;*\n"


def test_builders_round_trip_as_text():
    for h in (intervals(range(0, 50, 3), (5, 10), name="n"),
              masking(["47906", "47920"], name="zip"),
              dates(["2024-01-02", "2023-05-06"], name="day")):
        again = parse_arx(generate_arx(h), name=h.name)
        assert again.rows == tuple(tuple(str(label) for label in row) for row in h.rows)
        assert parse_arx(generate_arx(again, sep="\t"), sep="\t", name=h.name) == again


def test_generate_argument_errors(sex):
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'sep' parameter of generate_arx must be a single character other than a "
            "quote or newline. Got '\\n' instead.")):
        generate_arx(sex, sep="\n")
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'hierarchy' parameter of generate_arx must be a Hierarchy. Got 'str' "
            "instead.")):
        generate_arx("Male;*")


@PROFILE
@given(trees())
def test_round_trip(rows):
    h = Hierarchy(rows, name="t")
    assert parse_arx(generate_arx(h), name="t") == h
