"""The inputs publishers have (issue "Publish exactly what the data says", item 4): standard
input, pipes, compressed CSV, Parquet by its magic bytes, Excel, byte-order marks, other
separators; the errors of header-only tables, empty column names and control characters;
outputs that are never replaced silently and write errors that name the file."""
import bz2
import errno
import gzip
import io
import lzma
import os
import re
import zipfile

import pandas as pd
import pytest

from skyprivacy.io import InputError, OutputFiles, read_policy, read_table

CSV = "zip,age,disease\n02139,34,flu\n02139,35,cold\n02140,36,flu\n02140,37,hiv\n"
POLICY = "[default]\nskyline = [[0, 0, 0, 0.9]]\n"


def expected():
    return pd.read_csv(io.StringIO(CSV), dtype=object)


@pytest.mark.parametrize("name,pack", [
    ("t.csv.gz", gzip.compress), ("t.csv.bz2", bz2.compress), ("t.csv.xz", lzma.compress),
    ("t.dat", gzip.compress),  # detected by its magic bytes, not its name
])
def test_compressed_csv_is_read_transparently(tmp_path, name, pack):
    (tmp_path / name).write_bytes(pack(CSV.encode()))
    pd.testing.assert_frame_equal(read_table(tmp_path / name), expected())


@pytest.mark.parametrize("name", ["plain.csv.gz", "plain.zip", "plain.bz2", "plain.xz"])
def test_a_name_decides_nothing_plain_csv_named_like_an_archive_is_csv(tmp_path, name):
    (tmp_path / name).write_text(CSV)
    pd.testing.assert_frame_equal(read_table(tmp_path / name), expected())


def test_an_empty_zip_archive_is_an_input_error(tmp_path):
    zipfile.ZipFile(tmp_path / "empty.zip", "w").close()
    with pytest.raises(InputError, match=re.escape(
            "empty.zip' is a zip archive of 0 files; it must hold exactly one CSV file.")):
        read_table(tmp_path / "empty.zip")


def test_a_zip_with_one_csv_is_read_and_with_two_is_refused(tmp_path):
    with zipfile.ZipFile(tmp_path / "one.zip", "w") as archive:
        archive.writestr("t.csv", CSV)
    pd.testing.assert_frame_equal(read_table(tmp_path / "one.zip"), expected())
    with zipfile.ZipFile(tmp_path / "two.zip", "w") as archive:
        archive.writestr("a.csv", CSV)
        archive.writestr("b.csv", CSV)
    with pytest.raises(InputError, match=re.escape(
            "two.zip' is a zip archive of 2 files; it must hold exactly one CSV file.")):
        read_table(tmp_path / "two.zip")


def test_parquet_is_recognized_by_its_magic_bytes_and_excel_through_openpyxl(tmp_path):
    expected().to_parquet(tmp_path / "really-parquet.csv")
    pd.testing.assert_frame_equal(read_table(tmp_path / "really-parquet.csv"), expected())
    expected().to_excel(tmp_path / "t.xlsx", index=False)
    pd.testing.assert_frame_equal(read_table(tmp_path / "t.xlsx"), expected())
    (tmp_path / "fake.parquet").write_text(CSV)
    with pytest.raises(InputError, match=re.escape(
            "is named like a Parquet file but is not one (no Parquet magic bytes); pass "
            "--input-format csv if it is CSV.")):
        read_table(tmp_path / "fake.parquet")
    pd.testing.assert_frame_equal(read_table(tmp_path / "fake.parquet", format="csv"),
                                  expected())


def test_byte_order_marks_are_accepted_in_tables_and_policies(tmp_path):
    (tmp_path / "bom.csv").write_bytes(b"\xef\xbb\xbf" + CSV.encode())
    assert list(read_table(tmp_path / "bom.csv").columns) == ["zip", "age", "disease"]
    (tmp_path / "bom.toml").write_bytes(b"\xef\xbb\xbf" + POLICY.encode())
    assert [p.c for p in read_policy(tmp_path / "bom.toml").default] == [0.9]


def test_other_separators_by_option_and_a_hint_when_the_header_is_one_column(tmp_path):
    (tmp_path / "semi.csv").write_text(CSV.replace(",", ";"))
    (tmp_path / "tab.tsv").write_text(CSV.replace(",", "\t"))
    with pytest.raises(InputError, match=re.escape(
            "Table '" + str(tmp_path / "semi.csv") + "' has one column 'zip;age;disease': it "
            "looks ;-separated; pass --sep ';' (Python: read_table(..., sep=';')).")):
        read_table(tmp_path / "semi.csv")
    with pytest.raises(InputError, match=re.escape(
            "it looks tab-separated; pass --sep $'\\t' (Python: read_table(..., sep='\\t')).")):
        read_table(tmp_path / "tab.tsv")
    pd.testing.assert_frame_equal(read_table(tmp_path / "semi.csv", sep=";"), expected())
    pd.testing.assert_frame_equal(read_table(tmp_path / "tab.tsv", sep="\t"), expected())
    with pytest.raises(Exception, match=re.escape(
            "The 'sep' parameter of read_table must be one character other than a quote or a "
            "line break. Got ';;' instead.")):
        read_table(tmp_path / "semi.csv", sep=";;")


@pytest.mark.parametrize("content,message", [
    ("zip,age,disease\n", "has a header but no rows."),
    ("zip,,disease\n1,2,3\n", "has an empty column name (column 2 of the header); every column "
                              "needs a name."),
    ("zip,age,zip\n1,2,3\n", "repeats the column name(s) ['zip']; column names must be "
                             "distinct."),
    ("zip,age,disease\n1,2,f\x00lu\n", "has a control character (U+0000) in column 'disease', "
                                       "data row 1; remove it."),
    ("zip,age,disease\n1,2,flu\n3,4,\x1b[31mred\n", "has a control character (U+001B) in "
                                                    "column 'disease', data row 2; remove it."),
    ("", "is empty: a CSV table needs a header line."),
])
def test_malformed_tables_have_their_own_errors(tmp_path, content, message):
    (tmp_path / "bad.csv").write_text(content)
    with pytest.raises(InputError, match=re.escape(message)):
        read_table(tmp_path / "bad.csv")


# The command-line side of these inputs (standard input, /dev/stdin, process substitution,
# --sep, --force, compressed and Excel tables) runs through the installed console script in
# test_cli_publish_what_the_data_says.py.


def test_a_write_error_names_the_file(tmp_path, monkeypatch):
    real_fdopen = os.fdopen

    class Full:
        def __init__(self, handle, mode):
            self.stream = real_fdopen(handle, mode)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.stream.close()

        def write(self, data):
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fdopen", Full)
    target = tmp_path / "out.csv"
    with pytest.raises(InputError, match=re.escape(
            f"Cannot write '{target}': No space left on device.")):
        with OutputFiles() as out:
            out.add(target, b"data")
    assert os.listdir(tmp_path) == []  # no temporary file left behind
