"""ARX hierarchy files at the edge (skyprivacy/hierarchy_io.py): read_arx opens, write_arx
writes with the project's one atomic writer, so the file mode is every output's and a failed
write leaves nothing behind."""

from __future__ import annotations

import io
import os
import re
import stat

import pytest

from skyprivacy import io as sp_io
from skyprivacy.datasets import adult_hierarchy_path
from skyprivacy.errors import HierarchyError, InvalidParameterError
from skyprivacy.hierarchy import bundled, generate_arx, masking, parse_arx
from skyprivacy.hierarchy_io import read_arx, write_arx
from skyprivacy.io import InputError, read_hierarchy, write_text


def exactly(message: str) -> str:
    return "^" + re.escape(message) + "$"


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


# ------------------------------------------------------------------------ reading
def test_read_arx_reads_paths_of_both_kinds(tmp_path):
    path = tmp_path / "education.csv"
    path.write_bytes(b"\xef\xbb\xbf" + adult_hierarchy_path("education").read_bytes())
    expected = bundled("adult", "education")
    assert read_arx(path, name="education") == expected
    assert read_arx(str(path), name="education") == expected
    (tmp_path / "sex.tsv").write_text("Male\t*\r\nFemale\t*\r\n")
    assert read_arx(tmp_path / "sex.tsv", sep="\t").leaves == ("Male", "Female")


def test_read_arx_cites_line_numbers(tmp_path):
    path = tmp_path / "edu.csv"
    path.write_text("BSc;Higher;*\n\nHS;*\n")
    with pytest.raises(HierarchyError, match=exactly(
            "Hierarchy 'edu': levels of unequal depth: row 3 (leaf 'HS') has 1 level(s) above "
            "the leaf but row 1 (leaf 'BSc') has 2.")):
        read_arx(path, name="edu")


def test_read_arx_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_arx(tmp_path / "missing.csv")
    with pytest.raises(IsADirectoryError):
        read_arx(tmp_path)
    (tmp_path / "latin.csv").write_bytes("Espa\xf1a;*\n".encode("latin-1"))
    with pytest.raises(UnicodeDecodeError):
        read_arx(tmp_path / "latin.csv")
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'path' parameter of read_arx must be a path (str or os.PathLike). Got "
            "'StringIO' instead.")):
        read_arx(io.StringIO("a;*"))
    # options are checked before the file is opened
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'sep' parameter of read_arx must be a single character other than a quote "
            "or newline. Got ';;' instead.")):
        read_arx(tmp_path / "missing.csv", sep=";;")
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'name' parameter of read_arx must be a string or None. Got 3 instead.")):
        read_arx(tmp_path / "missing.csv", name=3)


# ------------------------------------------------------------------------ writing
def test_write_arx_round_trip(tmp_path):
    h = masking(["47906", "47920"], name="zip")
    path = tmp_path / "zip.csv"
    assert write_arx(h, path) is None
    assert path.read_text() == generate_arx(h)
    assert read_arx(path, name="zip") == h
    write_arx(h, str(path), sep=",")
    assert parse_arx(path.read_text(), sep=",", name="zip") == h
    assert sorted(p.name for p in tmp_path.iterdir()) == ["zip.csv"]  # no temporary left


def test_write_arx_uses_the_project_file_mode(tmp_path):
    previous = os.umask(0o027)
    try:
        write_arx(bundled("adult", "sex"), tmp_path / "sex.csv")
        write_text("x", tmp_path / "other.txt")
    finally:
        os.umask(previous)
    assert mode(tmp_path / "sex.csv") == mode(tmp_path / "other.txt") == 0o640
    previous = os.umask(0o022)
    try:
        write_arx(bundled("adult", "sex"), tmp_path / "sex.csv")
    finally:
        os.umask(previous)
    assert mode(tmp_path / "sex.csv") == 0o644  # not the 0600 of a bare temporary file


def test_write_arx_failure_leaves_no_partial_file(tmp_path, monkeypatch):
    path = tmp_path / "sex.csv"
    path.write_text("old content\n")

    def fail(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(sp_io.os, "replace", fail)
    with pytest.raises(InputError, match=r"^Cannot write .*sex\.csv': No space left on "
                                         r"device\.$"):
        write_arx(bundled("adult", "sex"), path)
    assert path.read_text() == "old content\n"  # the old file, whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sex.csv"]  # no temporary left


def test_write_arx_errors(tmp_path):
    missing = tmp_path / "nope" / "h.csv"
    with pytest.raises(InputError, match=exactly(
            f"Cannot write {str(missing)!r}: the folder {str(missing.parent)!r} does not "
            f"exist.")):
        write_arx(bundled("adult", "sex"), missing)
    assert not missing.parent.exists()
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'hierarchy' parameter of write_arx must be a Hierarchy. Got 'str' "
            "instead.")):
        write_arx("Male;*", tmp_path / "h.csv")
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'path' parameter of write_arx must be a path (str or os.PathLike). Got "
            "'NoneType' instead.")):
        write_arx(bundled("adult", "sex"), None)
    with pytest.raises(InvalidParameterError, match=r"^The 'sep' parameter of write_arx "):
        write_arx(bundled("adult", "sex"), tmp_path / "h.csv", sep="")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.filterwarnings("ignore::FutureWarning")  # io still calls Hierarchy.from_arx
def test_read_hierarchy_of_io_still_reads_files(tmp_path):
    path = tmp_path / "age.csv"
    write_arx(bundled("adult", "age"), path)
    assert read_hierarchy(str(path), column="age") == bundled("adult", "age")
