"""Inputs in the encodings and formats publishers have (issue "Nothing released unexamined",
item 9): ``encoding=`` / ``--encoding``, byte-order marks read by themselves (Excel's
"Unicode text" is UTF-16 with a mark), decoding errors that name the byte, its line and its
place in the line, cells and column names over the csv module's 128 KiB field limit, column
names holding commas (``--qi`` as a JSON list), and SAS/SPSS/Stata files through pyreadstat."""
import codecs
import gzip
import re
import sys

import pandas as pd
import pytest

from skyprivacy.cli import main
from skyprivacy.cli.argtypes import column_list, encoding_name
from skyprivacy.errors import InvalidParameterError
from skyprivacy.io import InputError, read_table, read_table_dask, text_encoding

TEXT = "zip,age,disease\n1*,30,grün\n1*,31,flu\n2*,40,flu\n2*,41,hiv\n"
POLICY = "[default]\nskyline = [[0, 0, 0, 0.9]]\n"


def expected() -> pd.DataFrame:
    return pd.DataFrame({"zip": ["1*", "1*", "2*", "2*"], "age": ["30", "31", "40", "41"],
                         "disease": ["grün", "flu", "flu", "hiv"]}, dtype=object)


@pytest.mark.parametrize("data", [
    TEXT.encode("utf-16"),  # Excel's "Unicode text": a mark, then little-endian
    codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"),
    codecs.BOM_UTF16_LE + TEXT.encode("utf-16-le"),
    TEXT.encode("utf-32"),
    codecs.BOM_UTF8 + TEXT.encode("utf-8"),
    gzip.compress(TEXT.encode("utf-16")),
], ids=["utf-16", "utf-16-be", "utf-16-le", "utf-32", "utf-8 mark", "gzip of utf-16"])
def test_a_byte_order_mark_decides_the_encoding(tmp_path, data):
    (tmp_path / "t.csv").write_bytes(data)
    pd.testing.assert_frame_equal(read_table(tmp_path / "t.csv"), expected())


@pytest.mark.parametrize("encoding", ["cp1252", "latin-1", "utf-16", "utf-16-le", "utf-8",
                                      "mac-roman"])
def test_an_explicit_encoding_reads_the_table(tmp_path, encoding):
    (tmp_path / "t.csv").write_bytes(TEXT.encode(encoding))
    pd.testing.assert_frame_equal(read_table(tmp_path / "t.csv", encoding=encoding),
                                  expected())


def test_a_cp1252_table_names_the_byte_its_line_and_the_option(tmp_path):
    path = tmp_path / "t.csv"
    path.write_bytes(TEXT.encode("cp1252"))
    with pytest.raises(InputError, match=re.escape(
            f"Table '{path}' is not UTF-8 text: byte 0xfc at line 2, byte 9; pass --encoding "
            f"cp1252 if it was saved as Windows text (Excel's CSV on Windows), --encoding "
            f"latin-1 for ISO 8859-1 (Python: read_table(..., encoding='cp1252')).")):
        read_table(path)


def test_the_place_in_the_line_counts_bytes_of_the_encoding(tmp_path):
    """é is two bytes in UTF-8: the bad byte after it is byte 5 of its line."""
    path = tmp_path / "t.csv"
    path.write_bytes("a,b\né,x\xff\n".encode("utf-8").replace(b"\xc3\xbf", b"\xff"))
    with pytest.raises(InputError, match=r"byte 0xff at line 2, byte 5;"):
        read_table(path)


def test_a_wrong_explicit_encoding_is_named(tmp_path):
    path = tmp_path / "t.csv"
    path.write_bytes(TEXT.encode("utf-8"))
    with pytest.raises(InputError, match=re.escape(
            f"Table '{path}' is not ascii text: byte 0xc3 at line 2, byte 9; check --encoding "
            f"(Python: read_table(..., encoding=...)).")):
        read_table(path, encoding="ascii")
    utf16 = tmp_path / "odd.csv"
    utf16.write_bytes(codecs.BOM_UTF16_LE + "a,b\n1,2\n".encode("utf-16-le") + b"\x00\xd8")
    with pytest.raises(InputError, match=r"is not utf-16-le text: byte 0x00 at line 3, "
                                         r"byte 1;"):
        read_table(utf16)


def test_utf16_without_a_mark_is_named_with_its_byte_order(tmp_path):
    for order in ("utf-16-le", "utf-16-be"):
        path = tmp_path / f"{order}.csv"
        path.write_bytes(TEXT.encode(order))
        with pytest.raises(InputError, match=re.escape(
                f"Table '{path}' looks like UTF-16 text without a byte-order mark; pass "
                f"--encoding {order} (Python: read_table(..., encoding={order!r})).")):
            read_table(path)
        pd.testing.assert_frame_equal(read_table(path, encoding=order), expected())


@pytest.mark.parametrize("encoding", ["no-such-codec", "rot13", "base64", 5])
def test_an_unknown_encoding_is_a_parameter_error(tmp_path, encoding):
    (tmp_path / "t.csv").write_text(TEXT)
    with pytest.raises(InvalidParameterError, match=re.escape(
            f"The 'encoding' parameter of read_table must be a text encoding such as 'utf-8', "
            f"'utf-16' or 'cp1252'. Got {encoding!r} instead.")):
        read_table(tmp_path / "t.csv", encoding=encoding)


def test_text_encoding_names_the_codec():
    assert text_encoding("UTF8") == "utf-8"
    assert text_encoding("Windows-1252") == "cp1252"
    assert text_encoding(None) is None


def test_cells_and_column_names_over_128_kib_are_read(tmp_path):
    """The csv module refuses fields over 128 KiB; skyprivacy reads them (a long free-text
    cell, a long generated column name)."""
    long_name, long_cell = "n" * 200_000, "x" * 300_000
    (tmp_path / "t.csv").write_text(f"zip,{long_name}\n1*,{long_cell}\n2*,y\n")
    table = read_table(tmp_path / "t.csv")
    assert list(table.columns) == ["zip", long_name]
    assert table[long_name].tolist() == [long_cell, "y"]


def test_a_partitioned_table_in_utf16_and_cp1252(tmp_path):
    """--engine dask reads the same encodings: a mark decides, or --encoding."""
    pytest.importorskip("dask")
    for i, part in enumerate(("zip,disease\n1*,grün\n", "zip,disease\n2*,flu\n")):
        (tmp_path / f"u{i}.csv").write_bytes(part.encode("utf-16"))
        (tmp_path / f"w{i}.csv").write_bytes(part.encode("cp1252"))
    for pattern, encoding in (("u*.csv", None), ("w*.csv", "cp1252")):
        frame = read_table_dask(str(tmp_path / pattern), encoding=encoding)
        got = frame.compute(scheduler="sync").reset_index(drop=True)
        assert got.to_dict("list") == {"zip": ["1*", "2*"], "disease": ["grün", "flu"]}
    (tmp_path / "mixed").mkdir()
    (tmp_path / "mixed" / "a.csv").write_bytes("zip\n1\n".encode("utf-16"))
    (tmp_path / "mixed" / "b.csv").write_text("zip\n2\n")
    with pytest.raises(InputError, match=r"matches CSV files of different encodings "
                                         r"\(\['utf-16', 'utf-8-sig'\]\); convert them to one"):
        read_table_dask(str(tmp_path / "mixed" / "*.csv"))


# ------------------------------------------------------------------ SAS, SPSS and Stata
@pytest.mark.parametrize("suffix,writer", [(".sav", "write_sav"), (".dta", "write_dta"),
                                           (".xpt", "write_xport")])
def test_spss_stata_and_sas_transport_files_are_read_as_text(tmp_path, suffix, writer):
    pyreadstat = pytest.importorskip("pyreadstat")  # the test extra installs it: never skipped
    frame = pd.DataFrame({"zip": ["1*", "1*", "2*"], "age": [30.0, 31.0, 40.0],
                          "bmi": [20.5, 22.0, 30.0], "disease": ["flu", "cold", "flu"]})
    getattr(pyreadstat, writer)(frame, str(tmp_path / f"t{suffix}"))
    table = read_table(tmp_path / f"t{suffix}")
    assert table.to_dict("list") == {"zip": ["1*", "1*", "2*"], "age": ["30", "31", "40"],
                                     "bmi": ["20.5", "22.0", "30.0"],
                                     "disease": ["flu", "cold", "flu"]}


@pytest.mark.parametrize("name,what", [("t.sas7bdat", "SAS data set"),
                                       ("t.sav", "SPSS data file"),
                                       ("t.dta", "Stata data file")])
def test_a_damaged_statistics_file_is_one_line(tmp_path, name, what):
    (tmp_path / name).write_bytes(b"garbage" * 20)
    with pytest.raises(InputError, match=re.escape(
            f"Table '{tmp_path / name}' is not a readable {what}: ")):
        read_table(tmp_path / name)


def test_an_spss_file_is_known_by_its_magic_bytes(tmp_path):
    (tmp_path / "export.bin").write_bytes(b"$FL2" + b"\x00" * 60)
    with pytest.raises(InputError, match="is not a readable SPSS data file"):
        read_table(tmp_path / "export.bin")


def test_without_pyreadstat_the_error_names_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyreadstat", None)  # import fails as if not installed
    (tmp_path / "t.dta").write_bytes(b"x")
    with pytest.raises(InputError, match=re.escape(
            f"Table '{tmp_path / 't.dta'}' is a Stata data file; reading it needs pyreadstat: "
            f"pip install 'skyprivacy[readstat]' (or save it as CSV).")):
        read_table(tmp_path / "t.dta")


def test_without_openpyxl_the_error_names_the_extra(tmp_path, monkeypatch):
    pytest.importorskip("openpyxl")
    buffer = tmp_path / "t.xlsx"
    pd.DataFrame({"zip": ["1*"], "disease": ["flu"]}).to_excel(buffer, index=False)
    assert read_table(buffer).to_dict("list") == {"zip": ["1*"], "disease": ["flu"]}
    monkeypatch.setitem(sys.modules, "openpyxl", None)
    with pytest.raises(InputError, match=re.escape(
            "is an Excel workbook; reading it needs openpyxl: pip install 'skyprivacy[excel]' "
            "(or save it as CSV).")):
        read_table(buffer)


# ------------------------------------------------------------------------- the command line
def test_column_lists_take_a_json_list_for_names_with_commas():
    assert column_list('["income, net", " age"]') == ["income, net", " age"]
    assert column_list("zip, age") == ["zip", "age"]
    for text, says in (('["a", ', "expected a JSON list of column names"),
                       ('["a"] x', "expected a JSON list of column names"),
                       ('[["a"]]', "expected a JSON list of non-empty column names"),
                       ("[]", "expected a JSON list of non-empty column names"),
                       ('["a", ""]', "expected a JSON list of non-empty column names"),
                       ('["a", 3]', "expected a JSON list of non-empty column names"),
                       ('["a", "a"]', "a column is named twice")):
        with pytest.raises(Exception, match=re.escape(says)):
            column_list(text)


def test_encoding_option_type():
    assert encoding_name("latin1") == "iso8859-1"
    with pytest.raises(Exception, match=re.escape(
            "unknown text encoding 'klingon' (e.g. utf-8, utf-16, cp1252, latin-1)")):
        encoding_name("klingon")


def test_check_with_encoding_and_a_column_holding_a_comma(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.toml").write_text(POLICY)
    table = TEXT.replace("zip,", '"zip, coarse",', 1)
    (tmp_path / "t.csv").write_bytes(table.encode("cp1252"))
    argv = ["check", "t.csv", "--qi", '["zip, coarse"]', "--sensitive", "disease",
            "--policy", "p.toml", "--keep", "age", "--format", "json"]
    assert main(argv) == 3
    assert "byte 0xfc at line 2, byte 9; pass --encoding cp1252" in capsys.readouterr().err
    assert main([*argv, "--encoding", "cp1252"]) == 0
    out = capsys.readouterr().out
    assert '"zip, coarse"' in out and '"gr\\u00fcn"' not in out and "grün" in out


def test_a_partitioned_cp1252_table_names_the_file_line_and_byte(tmp_path):
    pytest.importorskip("dask")
    (tmp_path / "a.csv").write_bytes(TEXT.encode("cp1252"))
    with pytest.raises(InputError, match=re.escape(
            f"Table '{tmp_path / 'a.csv'}' is not UTF-8 text: byte 0xfc at line 2, byte 9; "
            f"pass --encoding cp1252 if")):
        read_table_dask(str(tmp_path / "*.csv"))
    frame = read_table_dask(str(tmp_path / "*.csv"), encoding="cp1252")
    assert frame.compute(scheduler="sync")["disease"].tolist()[0] == "grün"
