"""The two deprecated ARX classmethods of Hierarchy (attached by skyprivacy/hierarchy_io.py with
the warning of skyprivacy/hierarchy/deprecated.py): each warns, names its successor, and returns
what the successor returns; from_arx keeps its source guessing."""

from __future__ import annotations

import io
import re
import warnings

import pandas as pd
import pytest

from skyprivacy.datasets import adult_hierarchy_path
from skyprivacy.errors import InvalidParameterError
from skyprivacy.io import InputError
from skyprivacy.hierarchy import (Hierarchy, bundled, dates, from_mapping,
                                  generate_arx, intervals, masking, parse_arx)

from .helpers import exactly

NEXT = "is deprecated and stops working in the next release; "


def deprecated(old, new):
    """``pytest.warns`` for the whole deprecation message of ``Hierarchy.<old>``."""
    return pytest.warns(FutureWarning, match=exactly(f"Hierarchy.{old} {NEXT}{new} instead."))


@pytest.mark.parametrize("old, new, call, successor", [
    ("from_arx", "call skyprivacy.hierarchy.parse_arx(text) or "
                 "skyprivacy.hierarchy_io.read_arx(path)",
     lambda: Hierarchy.from_arx("a;*\nb;*\n", name="x"),
     lambda: parse_arx("a;*\nb;*\n", name="x")),
])
def test_each_classmethod_warns_and_builds_what_its_successor_builds(old, new, call, successor):
    with deprecated(old, new):
        built = call()
    assert built == successor() and type(built) is Hierarchy


@pytest.mark.parametrize("name", ["from_levels", "from_mapping", "intervals", "masking",
                                  "dates", "bundled"])
def test_the_builder_classmethods_are_gone(name):
    # removed without a shim (CHANGELOG.md): the function of the same name in
    # skyprivacy.hierarchy is the one spelling
    assert not hasattr(Hierarchy, name)


def test_to_arx_warns_and_returns_the_generated_text():
    h = bundled("adult", "sex")
    with deprecated("to_arx", "call skyprivacy.hierarchy.generate_arx(hierarchy) or "
                              "skyprivacy.hierarchy_io.write_arx(hierarchy, path)"):
        assert h.to_arx(sep=",") == generate_arx(h, sep=",") == "Male,*\nFemale,*\n"


def test_the_warning_points_at_the_caller():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        Hierarchy.from_arx("a;*\n")
    assert [w.filename for w in caught] == [__file__]


def test_errors_name_the_successor():
    with pytest.warns(FutureWarning), pytest.raises(InvalidParameterError, match=exactly(
            "The 'sep' parameter of generate_arx must be a single character other than a "
            "quote or newline. Got '\\n' instead.")):
        bundled("adult", "sex").to_arx(sep="\n")


# -------------------------------------------------- from_arx: what only the shim does
@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_from_arx_sources_agree(tmp_path):
    text = adult_hierarchy_path("education").read_text()
    path = tmp_path / "education.csv"
    path.write_text(text)
    expected = parse_arx(text, name="education")
    assert Hierarchy.from_arx(text, name="education") == expected
    assert Hierarchy.from_arx(path, name="education") == expected
    assert Hierarchy.from_arx(str(path), name="education") == expected
    assert Hierarchy.from_arx(io.StringIO(text), name="education") == expected
    assert Hierarchy.from_arx(io.BytesIO(("\ufeff" + text).encode()), name="education") == expected
    assert Hierarchy.from_arx(text.encode(), name="education") == expected
    assert Hierarchy.from_arx(adult_hierarchy_path("education"), name="education") == expected
    frame = pd.read_csv(path, sep=";", header=None, dtype=str, keep_default_na=False)
    assert Hierarchy.from_arx(frame, name="education") == expected
    assert bundled("adult", "education") == expected


@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_from_arx_prefers_an_existing_file_whose_name_holds_the_separator(tmp_path):
    path = tmp_path / "odd;name.csv"
    path.write_text("Male;*\nFemale;*\n")
    assert Hierarchy.from_arx(str(path)).leaves == ("Male", "Female")
    assert Hierarchy.from_arx("Male;*").leaves == ("Male",)  # one line of text


class Traversable:
    """Just enough of importlib.resources.abc.Traversable: read_text, no read."""

    def read_text(self, encoding):
        return "a;*\nb;*\n"


@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_from_arx_reads_a_traversable():
    assert Hierarchy.from_arx(Traversable()).leaves == ("a", "b")


@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_from_arx_argument_errors(tmp_path):
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'sep' parameter of Hierarchy.from_arx must be a single character other than a "
            "quote or newline. Got ';;' instead.")):
        Hierarchy.from_arx("a;*", sep=";;")
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'name' parameter of Hierarchy.from_arx must be a string or None. Got 3 "
            "instead.")):
        Hierarchy.from_arx("a", name=3)
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'source' parameter of Hierarchy.from_arx must be a path, a file-like object, "
            "CSV text or a DataFrame. Got 42 instead.")):
        Hierarchy.from_arx(42)
    missing = tmp_path / "missing.csv"
    with pytest.raises(FileNotFoundError, match=re.escape("missing.csv")):
        Hierarchy.from_arx(str(missing))


# --------------------------------------------------- to_arx: what only the shim does
@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_to_arx_round_trip_through_path_and_buffer(tmp_path):
    builders = [
        intervals(range(0, 50, 3), (5, 10), name="n"),
        masking(["47906", "47920"], name="zip"),
        dates(["2024-01-02", "2023-05-06"], name="day"),
        from_mapping({"a;b": ['quote "x"', "*"], "c": ["c", "*"]}, name="odd"),
    ]
    for h in builders:
        path = tmp_path / f"{h.name}.csv"
        assert h.to_arx(path) is None
        again = Hierarchy.from_arx(path, name=h.name)
        assert again.to_frame().astype(str).equals(h.to_frame().astype(str))
        buffer = io.StringIO()
        assert h.to_arx(buffer, sep=",") is None
        assert Hierarchy.from_arx(buffer.getvalue(), sep=",", name=h.name) == again
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_to_arx_errors(tmp_path):
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'path_or_buffer' parameter of Hierarchy.to_arx must be a path, a text "
            "file-like object or None. Got 3 instead.")):
        bundled("adult", "sex").to_arx(3)
    missing_dir = tmp_path / "nope" / "h.csv"
    with pytest.raises(InputError, match=r"^Cannot write .*h\.csv': the folder .*nope' does "
                                         r"not exist\.$"):
        bundled("adult", "sex").to_arx(missing_dir)
    assert not missing_dir.exists()
