"""A catalogue of bad inputs fed to every subcommand that reads a table, a policy, a hierarchy
or a certificate (issue "Publish exactly what the data says"): each must exit 3 (input) or 2
(usage) with one line naming the file and the problem, write no output and leave every input
unchanged."""
import gzip
import hashlib
import json
import os
import zipfile
from pathlib import Path

import pytest

from skyprivacy.cli import main

GOOD_TABLE = "zip,age,disease\n1*,30,flu\n1*,31,cold\n2*,40,flu\n2*,41,hiv\n"
GOOD_POLICY = "[default]\nskyline = [[0, 0, 0, 0.9]]\n"
GOOD_HIERARCHY = "1*;*\n2*;*\n"
RULES = "g,s,w,d\nF,a,3,0.5\nF,b,1,0.2\nM,a,1,0.4\nM,b,2,0.6\n"


def _bytes(spec) -> bytes:
    return spec if isinstance(spec, bytes) else spec.encode("utf-8")


# name -> (file written as the table, what the message must say)
TABLES = {
    "missing file": (None, "No such file or directory"),
    "a directory": ("<dir>", "it is a directory"),
    "empty file": ("", "is empty: a CSV table needs a header line"),
    "header only": ("zip,age,disease\n", "has a header but no rows"),
    "not UTF-8": (b"zip,age,disease\n1*,30,gr\xfcn\n", "is not UTF-8 text"),
    "a row too long": ("zip,age,disease\n1*,30,flu,extra\n", "more fields than the header"),
    "repeated column": ("zip,zip,disease\n1,2,flu\n", "repeats the column name(s) ['zip']"),
    "empty column name": ("zip,,disease\n1,2,flu\n", "has an empty column name"),
    "NUL in a cell": ("zip,age,disease\n1*,30,f\x00lu\n", "control character (U+0000)"),
    "escape in a cell": ("zip,age,disease\n1*,30,\x1b[2Jflu\n", "control character (U+001B)"),
    "semicolons": ("zip;age;disease\n1*;30;flu\n", "looks ;-separated; pass --sep ';'"),
    "tabs": ("zip\tage\tdisease\n1*\t30\tflu\n", "looks tab-separated"),
    "truncated gzip": (gzip.compress(GOOD_TABLE.encode())[:20], "cannot be decompressed"),
    "zip of two files": ("<zip2>", "zip archive of 2 files"),
    "Parquet magic, broken": (b"PAR1garbagegarbage", "is not a readable Parquet file"),
    "binary garbage": (bytes(range(256)) * 4, "is not UTF-8 text"),
    "unterminated quote": ('zip,age,disease\n"1*,30,flu\n', "not valid CSV"),
}
# columns or values the command needs (the file reads fine)
SCHEMA = {
    "no sensitive column": ("zip,age,illness\n1*,30,flu\n2*,40,flu\n", "'disease'"),
    "missing sensitive value": ("zip,age,disease\n1*,30,\n2*,40,flu\n",
                                "missing"),
    "missing QI value": ("zip,age,disease\n,30,flu\n2*,40,flu\n", "missing"),
}
POLICIES = {
    "missing policy": (None, "No such file or directory"),
    "not TOML": ("[default\nskyline = 3\n", "not valid TOML"),
    "not UTF-8": (b"[default]\nskyline = [[0, 0, 0, 0.9]] # \xff\n", "not UTF-8"),
    "negative l": ("[default]\nskyline = [[-1, 0, 0, 0.9]]\n", "-1"),
    "c above 1": ("[default]\nskyline = [[0, 0, 0, 1.5]]\n", "1.5"),
    "c of 0": ("[default]\nskyline = [[0, 0, 0, 0]]\n", "c"),
    "fractional k": ("[default]\nskyline = [[0, 1.5, 0, 0.9]]\n", "1.5"),
    "points not a list": ("[default]\nskyline = 3\n", "skyline"),
    "a point of three numbers": ("[default]\nskyline = [[0, 0, 0]]\n", "[0, 0, 0]"),
    "unknown value": ('[values.ebola]\nskyline = [[0, 0, 0, 0.9]]\n', "ebola"),
}
HIERARCHIES = {
    "missing hierarchy": (None, "No such file or directory"),
    "unequal depths": ("1*;1;*\n2*;*\n", "zip"),
    "a value with two parents": ("1*;a;*\n1*;b;*\n2*;b;*\n", "1*"),
    "does not cover the data": ("1*;*\n", "2*"),
    "empty hierarchy": ("", "zip"),
}
CERTIFICATES = {
    "missing certificate": (None, "No such file or directory"),
    "not JSON": ("{not json", "not valid JSON"),
    "a JSON array": ("[1, 2]", "not a JSON object"),
    "wrong kind": ('{"kind": "x", "schema_version": 1}', "malformed"),
    "unknown version": (None, "schema_version 99 is not supported"),
    "missing fields": ('{"schema_version": 1}', "missing field(s)"),
}


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "good.csv").write_text(GOOD_TABLE)
    (tmp_path / "good.toml").write_text(GOOD_POLICY)
    (tmp_path / "zip.csv").write_text(GOOD_HIERARCHY)
    (tmp_path / "rules.csv").write_text(RULES)
    assert main(["check", "good.csv", "--qi", "zip", "--sensitive", "disease", "--policy",
                 "good.toml", "--certificate", "good.json", "-q"]) == 0
    return tmp_path


def _write(folder: Path, name: str, spec) -> str:
    path = folder / name
    if spec is None:
        return name
    if spec == "<dir>":
        path.mkdir()
    elif spec == "<zip2>":
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("a.csv", GOOD_TABLE)
            archive.writestr("b.csv", GOOD_TABLE)
    else:
        path.write_bytes(_bytes(spec))
    return name


def _snapshot(folder: Path) -> dict:
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            out[str(path.relative_to(folder))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def _check(folder, capsys, argv, named: str, says: str, outputs=("out.csv", "out.json",
                                                                  "out.html")):
    before = _snapshot(folder)
    code = main(argv)
    err = capsys.readouterr().err
    assert code in (2, 3), (argv, code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, (argv, err)
    assert named in lines[0], (argv, named, err)
    assert says in lines[0], (argv, says, err)
    assert not any((folder / o).exists() for o in outputs), argv
    assert _snapshot(folder) == before  # nothing changed, nothing written
    return code


RELEASE = ["--qi", "zip", "--sensitive", "disease"]
TABLE_COMMANDS = {
    "check": lambda t: ["check", t, *RELEASE, "--policy", "good.toml", "--certificate",
                        "out.json", "--report", "out.html"],
    "anonymize": lambda t: ["anonymize", t, *RELEASE, "--policy", "good.toml", "--output",
                            "out.csv", "--certificate", "out.json"],
    "find": lambda t: ["find", t, *RELEASE, "--confidence", "0.9"],
    "compare": lambda t: ["compare", t, *RELEASE, "--k-anonymity", "2", "--output", "out.csv"],
    "verify": lambda t: ["verify", t, "--certificate", "good.json"],
    "transparency check": lambda t: ["transparency", "check", t, "--public", "g",
                                     "--sensitive", "s", "--weight", "w", "--decision", "d",
                                     "--beta", "0.9", "--certificate", "out.json"],
    "transparency optimize": lambda t: ["transparency", "optimize", t, "--public", "g",
                                        "--sensitive", "s", "--weight", "w", "--decision",
                                        "d", "--delta", "0.9", "--output", "out.csv"],
}


@pytest.mark.parametrize("command", sorted(TABLE_COMMANDS))
@pytest.mark.parametrize("fault", sorted(TABLES))
def test_bad_tables(folder, capsys, fault, command):
    spec, says = TABLES[fault]
    name = _write(folder, "bad.csv" if fault != "zip of two files" else "bad.zip", spec)
    _check(folder, capsys, TABLE_COMMANDS[command](name), name, says)


@pytest.mark.parametrize("command", ["check", "anonymize", "find", "compare"])
@pytest.mark.parametrize("fault", sorted(SCHEMA))
def test_tables_without_what_the_command_needs(folder, capsys, fault, command):
    content, says = SCHEMA[fault]
    (folder / "bad.csv").write_text(content)
    _check(folder, capsys, TABLE_COMMANDS[command]("bad.csv"), "bad.csv", says)


@pytest.mark.parametrize("command", ["check", "anonymize"])
@pytest.mark.parametrize("fault", sorted(POLICIES))
def test_bad_policies(folder, capsys, fault, command):
    spec, says = POLICIES[fault]
    name = _write(folder, "bad.toml", spec)
    argv = TABLE_COMMANDS[command]("good.csv")
    argv[argv.index("good.toml")] = name
    _check(folder, capsys, argv, name, says)


@pytest.mark.parametrize("command", ["anonymize", "compare"])
@pytest.mark.parametrize("fault", sorted(HIERARCHIES))
def test_bad_hierarchies(folder, capsys, fault, command):
    spec, says = HIERARCHIES[fault]
    name = _write(folder, "bad-hierarchy.csv", spec)
    argv = [*TABLE_COMMANDS[command]("good.csv"), "--hierarchy", f"zip={name}"]
    _check(folder, capsys, argv, name, says)


@pytest.mark.parametrize("command", ["verify", "transparency verify"])
@pytest.mark.parametrize("fault", sorted(CERTIFICATES))
def test_bad_certificates(folder, capsys, fault, command):
    spec, says = CERTIFICATES[fault]
    if fault == "unknown version":
        data = json.loads((folder / "good.json").read_text())
        data["schema_version"] = 99
        if command == "transparency verify":
            data["kind"] = "skyprivacy.rule-certificate"
        spec = json.dumps(data)
    name = _write(folder, "bad.json", spec)
    argv = (["verify", "good.csv", "--certificate", name] if command == "verify" else
            ["transparency", "verify", "rules.csv", "--certificate", name])
    _check(folder, capsys, argv, name, says)


USAGE = {
    "a two-character separator": (["check", "good.csv", "--sep", ";;", *RELEASE, "--policy",
                                   "good.toml"], "--sep"),
    "an output over the input": (["anonymize", "good.csv", *RELEASE, "--policy", "good.toml",
                                  "--output", "good.csv"], "good.csv"),
    "an existing output": (["check", "good.csv", *RELEASE, "--policy", "good.toml",
                            "--certificate", "good.json"], "good.json"),
    "two outputs on one file": (["anonymize", "good.csv", *RELEASE, "--policy", "good.toml",
                                 "--output", "out.csv", "--certificate", "out.csv"],
                                "out.csv"),
    "--sensitive among --qi": (["check", "good.csv", "--qi", "zip,disease", "--sensitive",
                                "disease", "--policy", "good.toml"], "disease"),
}


@pytest.mark.parametrize("fault", sorted(USAGE))
def test_usage_errors(folder, capsys, fault):
    argv, named = USAGE[fault]
    assert _check(folder, capsys, argv, named, "") in (2, 3)


def test_the_catalogue_has_at_least_40_distinct_bad_inputs():
    assert len(TABLES) + len(SCHEMA) + len(POLICIES) + len(HIERARCHIES) + \
        len(CERTIFICATES) + len(USAGE) >= 40
