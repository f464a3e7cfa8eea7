"""File input and output (skyprivacy/io.py): tables as text, policies, hierarchies,
certificates, atomic writes; ARX hierarchy files (read_arx opens, write_arx writes with the
project's one atomic writer, so the file mode is every output's and a failed write leaves
nothing behind)."""
import builtins
import hashlib
import inspect
import os
import re
import stat
from io import StringIO

import pandas as pd
from fractions import Fraction

import pytest

import skyprivacy.io
from skyprivacy._core.validation import declared_constraints
from skyprivacy import Policy
from skyprivacy.certificate import table_sha256
from skyprivacy.datasets import adult_hierarchy_path, bundled
from skyprivacy.errors import HierarchyError, InvalidParameterError, SchemaError
from skyprivacy.hierarchy import Hierarchy, generate_arx, masking, parse_arx
from skyprivacy.io import (
    NA_MARKERS,
    InputError,
    OutputFiles,
    as_numbers,
    read_arx,
    read_certificate,
    read_hierarchy,
    read_policy,
    read_table,
    reject_missing,
    table_bytes,
    table_format,
    write_arx,
    write_table,
    write_text,
)

try:
    import pyarrow  # noqa: F401
    HAS_PYARROW = True
except ImportError:
    HAS_PYARROW = False


def write(path, text, encoding="utf-8"):
    with open(path, "w", encoding=encoding, newline="") as stream:
        stream.write(text)
    return str(path)


# --------------------------------------------------------------------------------- tables
def test_cells_are_read_verbatim_as_text(tmp_path):
    path = write(tmp_path / "t.csv", "zip,age,note\n02139,39,NA\n10001,4.50, x \n")
    table = read_table(path)
    assert table.to_dict("list") == {"zip": ["02139", "10001"], "age": ["39", "4.50"],
                                     "note": ["NA", " x "]}
    assert all(isinstance(v, str) for v in table.to_numpy().ravel())


def test_a_canonical_csv_file_hashes_like_sha256sum(tmp_path):
    frame = pd.DataFrame({"age": ["[20, 29]", "[20, 29]"], "job": ["Sales", 'a "b"']})
    path = tmp_path / "r.csv"
    path.write_bytes(table_bytes(frame))
    assert table_sha256(read_table(path)) == hashlib.sha256(path.read_bytes()).hexdigest()


def test_crlf_and_bom_files_read_the_same(tmp_path):
    plain = read_table(write(tmp_path / "a.csv", "a,b\n1,x\n"))
    windows = read_table(write(tmp_path / "b.csv", "\ufeffa,b\r\n1,x\r\n"))
    assert windows.equals(plain)
    assert table_sha256(windows) == table_sha256(plain)


def test_short_rows_leave_empty_cells(tmp_path):
    table = read_table(write(tmp_path / "t.csv", "a,b,c\n1,2\n"))
    assert table.iloc[0].tolist() == ["1", "2", ""]


@pytest.mark.parametrize("content, message", [
    ("", "is empty: a CSV table needs a header line"),
    ("a,b,a\n1,2,3\n", r"repeats the column name\(s\) \['a'\]; column names must be distinct"),
    ("a,b\n1,2\n1,2,3\n", "is not valid CSV: Error tokenizing data"),
])
def test_bad_csv_files(tmp_path, content, message):
    path = write(tmp_path / "t.csv", content)
    with pytest.raises(InputError, match=f"Table '{path}' " + message):
        read_table(path)


def test_unreadable_tables(tmp_path):
    missing = str(tmp_path / "none.csv")
    with pytest.raises(InputError, match=f"Cannot read table '{missing}': No such file or "
                                         f"directory."):
        read_table(missing)
    with pytest.raises(InputError, match="it is a directory"):
        read_table(str(tmp_path))
    latin = tmp_path / "latin.csv"
    latin.write_bytes("job\nCaf\xe9\n".encode("latin-1"))
    with pytest.raises(InputError, match=re.escape(
            f"Table '{latin}' is not UTF-8 text: byte 0xe9 at line 2, byte 4; pass --encoding "
            f"cp1252 if")):
        read_table(latin)


def test_table_format_from_the_name():
    assert table_format("a.PARQUET") == table_format("a.pq") == "parquet"
    assert table_format("a.csv") == table_format("a.txt") == "csv"
    with pytest.raises(Exception, match=r"The table format must be one of \['csv', "
                                        r"'parquet'\]. Got 'xlsx' instead."):
        table_format("a.csv", "xlsx")


def test_parquet_without_pyarrow_is_a_clear_error(tmp_path, monkeypatch):
    real_import = builtins.__import__

    def no_pyarrow(name, *args, **kwargs):
        if name == "pyarrow" or name.startswith("pyarrow."):
            raise ImportError("No module named 'pyarrow'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyarrow)
    message = r"Parquet needs pyarrow: pip install 'skyprivacy\[parquet\]' \(or use CSV\)."
    with pytest.raises(InputError, match="Reading " + message):
        read_table(tmp_path / "t.parquet")
    with pytest.raises(InputError, match="Writing " + message):
        table_bytes(pd.DataFrame({"a": [1]}), "parquet")


@pytest.mark.skipif(not HAS_PYARROW, reason="pyarrow is not installed")
def test_parquet_round_trip_hashes_like_csv(tmp_path):
    frame = pd.DataFrame({"age": [39, 50], "score": [0.5, None], "job": ["Sales", "Tech"]})
    path = tmp_path / "t.parquet"
    path.write_bytes(table_bytes(frame, "parquet"))
    table = read_table(path)
    assert table.to_dict("list") == {"age": ["39", "50"], "score": ["0.5", ""],
                                     "job": ["Sales", "Tech"]}
    assert table_sha256(table) == table_sha256(frame)


# ------------------------------------------------------------------------- missing values
def test_reject_missing_names_column_count_and_row():
    frame = pd.DataFrame({"a": ["1", "2", "3"], "b": ["x", "", "NaN"]})
    reject_missing(frame, ["a"])
    with pytest.raises(SchemaError, match=r"Column 'b' has 2 missing cell\(s\), the first on "
                                          r"data row 2 \(''\); skyprivacy never drops rows "
                                          r"silently"):
        reject_missing(frame, ["a", "b"])


def test_na_markers_can_be_replaced():
    frame = pd.DataFrame({"region": ["NA", "EU"]})
    assert "NA" in NA_MARKERS
    with pytest.raises(SchemaError, match="'NA'"):
        reject_missing(frame, ["region"])
    reject_missing(frame, ["region"], na_values=())
    with pytest.raises(SchemaError, match="'   '"):
        reject_missing(pd.DataFrame({"a": ["   "]}), ["a"], na_values=())


def test_as_numbers():
    assert as_numbers(pd.Series(["1", "-2"])).dtype == "int64"
    assert as_numbers(pd.Series(["1", "2.5"])).tolist() == [1.0, 2.5]
    assert as_numbers(pd.Series(["1", "a"])) is None
    assert as_numbers(pd.Series(["1", "inf"])) is None
    assert as_numbers(pd.Series(["True"])) is None


# ------------------------------------------------------------------------------- policies
POLICY = """\
[default]
skyline = [[1, 5, 1, 0.9]]            # (l, k, m, c) points for every value not listed

[values."Exec-managerial"]
skyline = [[4, 10, 4, 0.9], [1, 20, 1, 0.9]]
"""


def test_read_the_issue_policy(tmp_path):
    policy = read_policy(write(tmp_path / "p.toml", POLICY))
    assert policy == Policy({"Exec-managerial": [(4, 10, 4, 0.9), (1, 20, 1, 0.9)]},
                            default=[(1, 5, 1, 0.9)])


def test_policy_thresholds_may_be_fractions(tmp_path):
    policy = read_policy(write(tmp_path / "p.toml", '[default]\nskyline = [[0, 1, 0, "2/3"]]\n'))
    assert policy.default.points[0].c_exact == pytest.approx(2 / 3)
    assert str(policy.default.points[0].c_exact) == "2/3"


@pytest.mark.parametrize("content, message", [
    ("[default\n", " is not valid TOML: "),
    ("[default]\nskyline = [[1, 5, 1, 1.5]]\n",
     r": The 'c' parameter of SkylinePoint must be in \(0, 1\]. Got 1.5 instead."),
    ("[default]\nskyline = [[1, 5, 1]]\n", ": A skyline point must be a SkylinePoint or an "),
    ("[defaults]\nskyline = [[1, 5, 1, 0.9]]\n", r": Unknown policy section\(s\) \['defaults'\]"),
    ("[values.a]\npoints = [[1, 5, 1, 0.9]]\n", r": Policy section values.'a' has no 'skyline'"),
    ("", ": A policy needs at least one skyline"),
])
def test_bad_policy_files(tmp_path, content, message):
    path = write(tmp_path / "p.toml", content)
    with pytest.raises(InputError, match=f"Policy file '{path}'" + message):
        read_policy(path)


def test_unreadable_policy(tmp_path):
    with pytest.raises(InputError, match="Cannot read policy file '.*nope.toml': No such file"):
        read_policy(tmp_path / "nope.toml")


def test_read_criteria_of_a_policy_file(tmp_path):
    from skyprivacy.criteria import SkylinePolicy
    from skyprivacy.io import read_criteria

    path = write(tmp_path / "p.toml", POLICY + '\n[criteria]\nk = 5\nl-diversity = '
                                               '["distinct:3", "recursive:3,2"]\n'
                                               't-closeness = "equal:0.2"\n')
    skyline, *others = read_criteria(path)
    assert isinstance(skyline, SkylinePolicy) and skyline.policy == read_policy(
        write(tmp_path / "q.toml", POLICY))
    assert [repr(c) for c in others] == [
        "KAnonymity(k=5)", "DistinctLDiversity(l=3)",
        "RecursiveCLDiversity(diversity_c=3, l=2)", "TCloseness(t=1/5, distance='equal')"]
    only = write(tmp_path / "c.toml", "[criteria]\nk = 5\n")
    assert [repr(c) for c in read_criteria(only)] == ["KAnonymity(k=5)"]
    assert [repr(c) for c in read_criteria(write(tmp_path / "s.toml", POLICY))] == [
        repr(skyline)]
    with pytest.raises(InputError, match=f"^Policy file '{only}' has a \\[criteria\\] section, "
                                         f"which only 'skyprivacy anonymize' reads; this "
                                         f"command certifies a skyline policy alone\\.$"):
        read_policy(only)


def test_population_uniqueness_in_a_policy_files_criteria(tmp_path):
    from skyprivacy.criteria import PopulationUniqueness
    from skyprivacy.io import read_criteria

    path = write(tmp_path / "u.toml", '[criteria]\nk = 2\npopulation-uniqueness = '
                                      '["pitman:0.05,1000000", "dankar:1/10,5000"]\n')
    k, pitman, dankar = read_criteria(path)
    assert isinstance(pitman, PopulationUniqueness) and isinstance(dankar, PopulationUniqueness)
    assert (pitman.u, pitman.population_size, pitman.model) == (Fraction(1, 20), 1000000,
                                                                "pitman")
    assert (dankar.u, dankar.population_size, dankar.model) == (Fraction(1, 10), 5000, "dankar")
    bad = write(tmp_path / "b.toml", '[criteria]\npopulation-uniqueness = "dankar:0.05"\n')
    with pytest.raises(InputError, match=r", section \[criteria\]: 'population-uniqueness' "
                                         r"must be MODEL:U,N with MODEL one of pitman, zayatz, "
                                         r"snb, dankar, U in \[0, 1\] and N the population size "
                                         r">= 1 \(e\.g\. 'dankar:0\.05,1000000'\); got "
                                         r"'dankar:0\.05'\.$"):
        read_criteria(bad)


@pytest.mark.parametrize("content, message", [
    ("[criteria]\n", r": its \[criteria\] section is empty and it has no skyline; give k = 5, "
                     r"l-diversity = \"distinct:3\", ... or a \[default\] skyline\.$"),
    ("[criteria]\nk = 0\n", r", section \[criteria\]: 'k' must be a whole number >= 1; got "
                             r"0\.$"),
    ("[criteria]\nm = 2\n", r", section \[criteria\]: Unknown criterion 'm'; the criteria "
                             r"are \['k', "),
    ("[criteria]\nk = 1e400\n", r", section \[criteria\]: 'k' must be a whole number >= 1; "
                             r"got inf\.$"),
    ('[criteria]\nk = "1e999999999"\n', r", section \[criteria\]: 'k' must be a whole number "
                                         r">= 1; got '1e999999999'\.$"),
    ("criteria = 5\n", r", section \[criteria\]: The criteria must be a table of criterion = "
                       r"value; got 5\.$"),
    ("[criteria]\nk = 5\n[defaults]\nskyline = [[1, 5, 1, 0.9]]\n",
     r": Unknown policy section\(s\) \['defaults'\]"),
])
def test_bad_criteria_sections(tmp_path, content, message):
    from skyprivacy.io import read_criteria

    path = write(tmp_path / "p.toml", content)
    with pytest.raises(InputError, match=f"^Policy file '{path}'" + message):
        read_criteria(path)


# ---------------------------------------------------------------------------- hierarchies
def test_bundled_hierarchy_references():
    assert read_hierarchy("bundled:adult", column="age") == bundled("adult", "age")
    income = read_hierarchy("bundled:adult:salary-class", column="income")
    assert income.leaves == bundled("adult", "income").leaves
    with pytest.raises(InputError, match="Unknown bundled hierarchy 'bundled:adult' for column "
                                         "'zip': The 'attribute' parameter"):
        read_hierarchy("bundled:adult", column="zip")
    with pytest.raises(InputError, match="Unknown bundled hierarchy 'bundled:census:age'"):
        read_hierarchy("bundled:census:age", column="age")
    with pytest.raises(InputError, match="must be 'bundled:adult' or "
                                         "'bundled:adult:ATTRIBUTE'"):
        read_hierarchy("bundled:", column="age")


def test_arx_hierarchy_files(tmp_path):
    path = write(tmp_path / "sex.csv", "Male;*\nFemale;*\n")
    hierarchy = read_hierarchy(path, column="sex")
    assert hierarchy.name == "sex" and hierarchy.generalize(["Male"], 1) == ["*"]
    tabbed = write(tmp_path / "sex.tsv", "Male\t*\nFemale\t*\n")
    assert read_hierarchy(tabbed, column="sex", sep="\t") == hierarchy


def test_malformed_and_missing_hierarchy_files(tmp_path):
    path = write(tmp_path / "age.csv", "1;0-4;*\n2;*\n")
    with pytest.raises(HierarchyError, match=f"Hierarchy file '{path}' for column 'age': "
                                             f"Hierarchy 'age': levels of unequal depth"):
        read_hierarchy(path, column="age")
    with pytest.raises(InputError, match="Cannot read hierarchy file '.*none.csv': No such"):
        read_hierarchy(str(tmp_path / "none.csv"), column="age")


def test_text_files_that_cannot_be_read(tmp_path):
    # policies, certificates and hierarchies are read by one reader: one message per failure
    latin = tmp_path / "latin.txt"
    latin.write_bytes("café;*\n".encode("latin-1"))
    folder = tmp_path / "folder"
    folder.mkdir()
    for read, title, noun in [
            (read_policy, "Policy file", "policy file"),
            (read_certificate, "Certificate", "certificate"),
            (lambda path: read_hierarchy(str(path), column="x"), "Hierarchy file",
             "hierarchy file")]:
        with pytest.raises(InputError) as caught:
            read(latin)
        assert str(caught.value) == f"{title} '{latin}' is not UTF-8 text."
        with pytest.raises(InputError) as caught:
            read(folder)
        assert str(caught.value) == f"Cannot read {noun} '{folder}': it is a directory."


def test_hierarchy_file_options_are_checked_before_the_file_is_read(tmp_path):
    missing = str(tmp_path / "none.csv")
    with pytest.raises(InvalidParameterError) as caught:
        read_hierarchy(missing, column="age", sep=";;")
    assert str(caught.value) == ("The 'sep' parameter of read_hierarchy must be a single "
                                 "character other than a quote or newline. Got ';;' instead.")
    with pytest.raises(InvalidParameterError) as caught:
        read_hierarchy(missing, column=3)
    assert str(caught.value) == ("The 'column' parameter of read_hierarchy must be a string or "
                                 "None. Got 3 instead.")


# ---------------------------------------------------------------------------- certificates
def test_read_certificate_errors(tmp_path):
    with pytest.raises(InputError, match="Certificate '.*c.json' is not valid JSON: "):
        read_certificate(write(tmp_path / "c.json", "{"))
    with pytest.raises(InputError, match="Certificate '.*d.json' is not a JSON object."):
        read_certificate(write(tmp_path / "d.json", "[1]"))
    with pytest.raises(InputError, match="Cannot read certificate '.*e.json': No such file"):
        read_certificate(tmp_path / "e.json")
    assert read_certificate(write(tmp_path / "f.json", '{"a": 1}')) == {"a": 1}


# --------------------------------------------------------------------------------- writing
def test_outputs_appear_only_on_commit(tmp_path):
    with OutputFiles() as out:
        out.add(tmp_path / "a.csv", b"a\n1\n")
        out.add(tmp_path / "b.json", "{}")
        assert not (tmp_path / "a.csv").exists()
        assert out.commit() == [str(tmp_path / "a.csv"), str(tmp_path / "b.json")]
    assert sorted(os.listdir(tmp_path)) == ["a.csv", "b.json"]
    assert (tmp_path / "a.csv").read_bytes() == b"a\n1\n"


def test_a_failure_leaves_no_file_and_no_temporary(tmp_path):
    (tmp_path / "keep.csv").write_text("old")
    with pytest.raises(RuntimeError):
        with OutputFiles() as out:
            out.add(tmp_path / "keep.csv", b"new")
            out.add(tmp_path / "other.csv", b"new")
            raise RuntimeError("the report failed")
    assert sorted(os.listdir(tmp_path)) == ["keep.csv"]
    assert (tmp_path / "keep.csv").read_text() == "old"


def test_output_checks(tmp_path):
    with pytest.raises(InputError, match="Cannot write '.*x.csv': the folder '.*nowhere' does "
                                         "not exist."):
        OutputFiles.check(tmp_path / "nowhere" / "x.csv")
    with pytest.raises(InputError, match="it is a directory"):
        OutputFiles.check(tmp_path)
    with OutputFiles() as out:
        out.add(tmp_path / "a.csv", b"1")
        with pytest.raises(Exception, match="Two outputs name the same file"):
            out.add(tmp_path / "a.csv", b"2")
    assert os.listdir(tmp_path) == []


def test_written_files_follow_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        write_text("hello", tmp_path / "r.html")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "r.html").st_mode) == 0o644


def test_write_table_writes_the_canonical_csv(tmp_path):
    frame = pd.DataFrame({"a": [1, 2], "b": ["x", None]})
    write_table(frame, tmp_path / "t.csv")
    assert (tmp_path / "t.csv").read_bytes() == b"a,b\n1,x\n2,\n"


# ------------------------------------------------------------------------ ARX files
def exactly(message: str) -> str:
    return "^" + re.escape(message) + "$"


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


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
        read_arx(StringIO("a;*"))
    # options are checked before the file is opened
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'sep' parameter of read_arx must be a single character other than a quote "
            "or newline. Got ';;' instead.")):
        read_arx(tmp_path / "missing.csv", sep=";;")
    with pytest.raises(InvalidParameterError, match=exactly(
            "The 'name' parameter of read_arx must be a string or None. Got 3 instead.")):
        read_arx(tmp_path / "missing.csv", name=3)


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

    monkeypatch.setattr(skyprivacy.io.os, "replace", fail)
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


def test_read_hierarchy_of_io_still_reads_files(tmp_path):
    path = tmp_path / "age.csv"
    write_arx(bundled("adult", "age"), path)
    assert read_hierarchy(str(path), column="age") == bundled("adult", "age")


ARX_CALLS = {read_arx: ("in.csv",),
             write_arx: (Hierarchy([["Male", "*"], ["Female", "*"]], name="sex"), "out.csv")}
ARX_CASES = [(function, parameter) for function in ARX_CALLS
             for parameter in declared_constraints(function)[1]]


@pytest.mark.parametrize("function, parameter", ARX_CASES,
                         ids=[f"{f.__name__}-{p}" for f, p in ARX_CASES])
def test_an_invalid_value_of_each_arx_option_gets_the_house_message(function, parameter,
                                                                    tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # read_arx and write_arx must fail before touching a file
    owner, constraints = declared_constraints(function)
    constraint = constraints[parameter]
    bad = constraint.invalid_value()
    bound = inspect.signature(function).bind_partial(*ARX_CALLS[function])
    bound.arguments[parameter] = bad
    expected = (f"The '{parameter}' parameter of {owner} must "
                f"{constraint.message_requirement(bad)}. Got {constraint.shown(bad)!r} instead.")
    with pytest.raises(InvalidParameterError, match=exactly(expected)):
        function(*bound.args, **bound.kwargs)
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ decompression bombs
def _compressed(kind: str, data: bytes) -> bytes:
    import bz2
    import gzip
    import io as _io
    import lzma
    import zipfile
    if kind == "zip":
        buffer = _io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("t.csv", data)
        return buffer.getvalue()
    return {"gzip": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}[kind](data)


@pytest.mark.parametrize("kind", ["gzip", "bz2", "xz", "zip"])
def test_a_table_expanding_beyond_the_limit_is_refused_early(tmp_path, monkeypatch, kind):
    from skyprivacy.io import InputError
    body = b"zip,dx\n" + b"1,flu\n" * 400_000  # 2.4 MB that compresses ~1,000 fold
    path = tmp_path / "bomb.csv"
    path.write_bytes(_compressed(kind, body))
    monkeypatch.setenv("SKYPRIVACY_MAX_DECOMPRESSED", "1M")
    with pytest.raises(InputError, match=re.escape(
            f"Table {str(path)!r} expands beyond 1,048,576 bytes when {kind}-decompressed (a "
            f"decompression bomb?); set SKYPRIVACY_MAX_DECOMPRESSED to allow a larger table.")):
        skyprivacy.io.read_table(path)
    monkeypatch.setenv("SKYPRIVACY_MAX_DECOMPRESSED", "3M")  # the same table within a limit
    assert len(skyprivacy.io.read_table(path)) == 400_000


def test_the_default_limit_and_a_bad_setting(tmp_path, monkeypatch):
    from skyprivacy.io import InputError
    from skyprivacy.io import decompression_limit
    monkeypatch.delenv("SKYPRIVACY_MAX_DECOMPRESSED", raising=False)
    assert decompression_limit(10) == 2 ** 30  # 1 GiB at least
    assert decompression_limit(2 ** 30) == 100 * 2 ** 30  # else 100 times the compressed size
    monkeypatch.setenv("SKYPRIVACY_MAX_DECOMPRESSED", "2048")
    assert decompression_limit(10) == 2048
    for bad in ("x", "-5", "0", "1.5G"):
        monkeypatch.setenv("SKYPRIVACY_MAX_DECOMPRESSED", bad)
        with pytest.raises(InputError, match=re.escape(
                f"SKYPRIVACY_MAX_DECOMPRESSED={bad!r} is not a positive size in bytes "
                f"(such as 4G).")):
            decompression_limit(10)


# ------------------------------------------------------------------ formula cells
@pytest.mark.parametrize("cell,risky", [
    ("=HYPERLINK(\"http://x\",\"click\")", True), ("+cmd|' /C calc'!A0", True),
    ("@SUM(1+1)", True), ("-2+3+cmd|' /C calc'!A0", True), ("\tx", True), ("\rx", True),
    ("-2", False), ("+3.5", False), ("-", False), ("-1e3", False), ("a=b", False), ("", False),
    ("plain", False)])
def test_formula_cells(cell, risky):
    from skyprivacy.io import formula_cells
    table = pd.DataFrame({"note": ["ok", cell], "n": [1, 2]})
    assert formula_cells(table) == ([("note", 1, cell)] if risky else [])


def test_a_csv_output_with_formula_cells_warns_and_keeps_them():
    from skyprivacy.errors import SkyPrivacyWarning
    table = pd.DataFrame({"a": ["=1+1", "@x", "ok"], "b": ["=2", "y", "z"]})
    with pytest.warns(SkyPrivacyWarning, match=re.escape(
            "3 cell(s) of the CSV output start like a spreadsheet formula (first: '=1+1' in "
            "column 'a', and 1 in 1 other column(s)); they are published as they are, and a "
            "spreadsheet that opens the file may run them: open it as text, import the "
            "columns as text, or pass --escape-formulas to publish them as text.")):
        data = skyprivacy.io.table_bytes(table)
    assert data == b"a,b\n=1+1,=2\n@x,y\nok,z\n"  # fidelity: the cells as they are


def test_escape_formulas_prefixes_an_apostrophe_to_formula_cells_only():
    from skyprivacy.io import escape_formulas, formula_cells
    table = pd.DataFrame({"a": ["=1+1", "@x", "ok", "-2", "-", "+cmd|x", None],
                          "n": [1, 2, 3, 4, 5, 6, 7]})
    before = table.copy()
    escaped = escape_formulas(table)
    assert escaped["a"].tolist()[:6] == ["'=1+1", "'@x", "ok", "-2", "-", "'+cmd|x"]
    assert pd.isna(escaped["a"].iloc[6])  # a missing cell stays missing
    assert escaped["n"].tolist() == table["n"].tolist()
    assert formula_cells(escaped) == []
    assert table.equals(before)  # the caller's frame is unchanged
    clean = pd.DataFrame({"a": ["x"]})
    assert escape_formulas(clean) is clean


def test_escape_formulas_on_a_partitioned_frame_escapes_each_partition():
    import dask.dataframe as dd

    from skyprivacy.io import escape_formulas
    frame = pd.DataFrame({"a": ["=x", "y", "@z", "-1"], "n": [1, 2, 3, 4]})
    escaped = escape_formulas(dd.from_pandas(frame, npartitions=2)).compute()
    assert escaped["a"].tolist() == ["'=x", "y", "'@z", "-1"]
