"""Issue "Publish exactly what the data says", through the installed console script.

Every sentence of the issue that concerns the command line is exercised here by running
``.venv/bin/skyprivacy`` in a subprocess (the bad-input catalogue is in
test_bad_inputs_catalogue.py, which also runs a sample through the script).  Faults that a
subprocess cannot meet on demand (a full disk, an interrupt after the outputs were committed)
are injected by a ``sitecustomize`` module on the child's PYTHONPATH, which leaves the
program itself untouched.
"""
import bz2
import gzip
import hashlib
import json
import lzma
import os
import re
import signal
import subprocess
import sys
import textwrap
import zipfile

import pandas as pd
import pytest

SCRIPT = os.path.join(os.path.dirname(sys.executable), "skyprivacy")
LOOSE = "[default]\nskyline = [[0, 0, 0, 0.9]]\n"
TABLE = "zip,age,disease\n02139,34,flu\n02139,35,cold\n02140,36,flu\n02140,37,hiv\n"
SEVERITY = ["low", "mid", "high", "critical", "very_crit"]


#: the commands that classify every column (issue 26 item 1)
CLASSIFYING = ("check", "anonymize", "compare")


def run(folder, *argv, stdin=None, env=None):
    """The console script; a command that classifies columns and is given no role for the
    others copies them as before this file's tables were classified (``--keep-rest``)."""
    if not os.path.exists(SCRIPT):
        pytest.fail(f"The console script {SCRIPT} is missing; run pip install -e . first.")
    if argv and argv[0] in CLASSIFYING and not {"--keep", "--drop", "--keep-rest"} & set(argv):
        argv = (*argv, "--keep-rest")
    return subprocess.run([SCRIPT, *argv], cwd=folder, capture_output=True, text=True,
                          input=stdin, timeout=300, env=env)


def injected(folder, code: str) -> dict:
    """An environment whose Python imports ``code`` first (a sitecustomize module)."""
    site = folder / "inject"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(textwrap.dedent(code))
    return {**os.environ, "PYTHONPATH": str(site)}


def one_line(done, prefix: str) -> str:
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(prefix), lines[0]
    return lines[0]


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "loose.toml").write_text(LOOSE)
    (tmp_path / "t.csv").write_text(TABLE)
    return tmp_path


def listing(folder) -> list:
    return sorted(p.name for p in folder.iterdir() if p.name != "inject")


# ------------------------------------------------------------------ 1. value fidelity
def test_released_cells_keep_their_text_and_ranges_their_bounds(folder):
    """'a group that keeps one ZIP publishes 2139 for 02139, ranges read [2138, 2142], 1.50
    becomes 1.5 and 1e3 becomes 1000.0' -- no longer."""
    rows = ["zip,dose,disease"] + [f"{z},{d},{s}" for z, d, s in [
        ("02139", "1.50", "flu"), ("02139", "1.50", "cold"), ("02139", "2.25", "flu"),
        ("02139", "2.25", "hiv"), ("02140", "1e3", "flu"), ("02140", "1e3", "cold"),
        ("02141", "1e3", "flu"), ("02141", "1e3", "hiv")]]
    (folder / "doses.csv").write_text("\n".join(rows) + "\n")
    done = run(folder, "compare", "doses.csv", "--qi", "zip,dose", "--sensitive", "disease",
               "--k-anonymity", "4", "--output", "out.csv", "-q")
    assert done.returncode == 0, done.stderr
    out = pd.read_csv(folder / "out.csv", dtype=str)
    assert set(out["zip"]) <= {"02139", "{02140, 02141}", "*"}
    assert "02139" in set(out["zip"])  # the leading zero stays
    assert set(out["dose"]) <= {"1.50", "2.25", "1e3", "[1.50, 2.25]", "[1.50, 1e3]",
                                "[2.25, 1e3]"}
    assert "[1.50, 2.25]" in set(out["dose"]) or "1.50" in set(out["dose"])


def test_numeric_and_categorical_flags_map_onto_the_one_rule(folder):
    done = run(folder, "compare", "t.csv", "--qi", "zip", "--sensitive", "disease",
               "--k-anonymity", "4", "--numeric", "zip", "--output", "n.csv", "-q",
               "--drop", "age")
    assert done.returncode == 0, done.stderr
    assert pd.read_csv(folder / "n.csv", dtype=str)["zip"].tolist() == ["[02139, 02140]"] * 4
    done = run(folder, "compare", "t.csv", "--qi", "age", "--sensitive", "disease",
               "--k-anonymity", "4", "--categorical", "age", "--output", "c.csv", "-q",
               "--drop", "zip")
    assert done.returncode == 0, done.stderr
    assert pd.read_csv(folder / "c.csv", dtype=str)["age"].tolist() == ["*"] * 4


def test_a_mostly_numeric_column_is_split_as_categories_with_a_warning(folder):
    ages = [str(a) for a in range(20, 38)] + ["40+", "unknown"]
    pd.DataFrame({"age": ages, "disease": ["a", "b"] * 10}).to_csv(folder / "ages.csv",
                                                                    index=False)
    done = run(folder, "compare", "ages.csv", "--qi", "age", "--sensitive", "disease",
               "--k-anonymity", "5")
    assert done.returncode == 0, done.stderr
    assert ("skyprivacy compare: warning: Column 'age' is mostly numbers but 2 cell(s) are "
            "not (e.g. ['40+', 'unknown']): k_anonymize splits it as categories; clean those "
            "cells, or pass categorical=['age'] (--categorical age) to say so.") in done.stderr


# ------------------------------------------------------------------------- 2. labels
def _triage(folder):
    pd.DataFrame({"severity": ["high", "low", "very_crit", "mid", "critical"] * 8,
                  "disease": ["a", "b", "c", "d"] * 10}).to_csv(folder / "triage.csv",
                                                                 index=False)


def _released(folder, *options, k="10"):
    for name in ("r.csv", "r.labels.json"):
        if (folder / name).exists():
            (folder / name).unlink()
    done = run(folder, "compare", "triage.csv", "--qi", "severity", "--sensitive", "disease",
               "--k-anonymity", k, "--output", "r.csv", "-q", *options)
    assert done.returncode == 0, done.stderr
    return sorted(set(pd.read_csv(folder / "r.csv", dtype=str)["severity"]))


def test_categories_split_in_the_order_the_user_gives(folder):
    _triage(folder)
    default = _released(folder)
    assert default == ["{critical, high, low}", "{mid, very_crit}"]  # sorted text
    assert _released(folder, "--order", "sorted") == default
    assert _released(folder, "--order", "severity=" + ",".join(SEVERITY)) == [
        "{critical, very_crit}", "{low, mid, high}"]
    assert _released(folder, "--order", "severity=first") == ["{high, low, very_crit}",
                                                              "{mid, critical}"]


def test_a_group_spanning_the_whole_domain_is_a_star(folder):
    """'publish a group spanning the whole domain as {critical, ..., very_crit} (5 values)'"""
    _triage(folder)
    assert _released(folder, k="40") == ["*"]


def test_nursery_as_a_new_user_meets_it(folder):
    """UCI Nursery without hierarchies: 'has_nurs' (proper, less_proper, improper, critical,
    very_crit) once read '{critical, ..., very_crit} (5 values)'."""
    from skyprivacy.datasets import load_nursery
    load_nursery().to_csv(folder / "nursery.csv", index=False)

    def released(*options, k="5000"):
        done = run(folder, "compare", "nursery.csv", "--qi", "has_nurs", "--sensitive", "class",
                   "--k-anonymity", k, "--output", "n.csv", "--force", "-q", "--keep-rest",
                   *options)
        assert done.returncode == 0, done.stderr
        return pd.read_csv(folder / "n.csv", dtype=str)["has_nurs"].value_counts().to_dict()

    assert released() == {"{critical, improper, less_proper}": 7776,
                          "{proper, very_crit}": 5184}  # sorted: runs of the alphabet
    assert released("--order", "first") == {"{proper, less_proper, improper}": 7776,
                                            "{critical, very_crit}": 5184}  # the scale
    assert released(k="12960") == {"*": 12960}


def test_long_sets_are_digests_listed_in_a_set_label_file_beside_the_output(folder):
    _triage(folder)
    labels = _released(folder, "--label-length", "16", "--order",
                       "severity=" + ",".join(SEVERITY))
    full = hashlib.sha256(b'["critical","very_crit"]').hexdigest()
    assert labels == sorted(["{low, mid, high}", f"{{#{full[:8]}: 2 values}}"])
    document = json.loads((folder / "r.labels.json").read_text())
    assert document == {"schema_version": 1, "kind": "skyprivacy.set-labels",
                        "columns": {"severity": {full[:8]: ["critical", "very_crit"]}}}
    # listed in full when it fits: no set-label file at all
    assert _released(folder, "--label-length", "21", "--order",
                     "severity=" + ",".join(SEVERITY)) == ["{critical, very_crit}",
                                                           "{low, mid, high}"]
    assert not (folder / "r.labels.json").exists()


def _one_disease_per_severity(folder):
    """Each severity alone reveals its disease: groups must hold several severities."""
    pd.DataFrame({"severity": SEVERITY * 4, "disease": list("abcde") * 4}).to_csv(
        folder / "triage.csv", index=False)
    (folder / "any.toml").write_text("[default]\nskyline = [[0, 0, 0, 0.6]]\n")


def test_the_certificate_records_the_set_label_file_and_verify_checks_it(folder):
    _one_disease_per_severity(folder)
    done = run(folder, "anonymize", "triage.csv", "--qi", "severity", "--sensitive", "disease",
               "--policy", "any.toml", "--output", "out.csv", "--label-length", "0",
               "--format", "json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["labels"] == "out.labels.json"
    assert done.stderr == "skyprivacy anonymize: wrote out.csv, out.labels.json, " \
                          "out.cert.json\n"
    certificate = json.loads((folder / "out.cert.json").read_text())
    data = (folder / "out.labels.json").read_bytes()
    assert certificate["labels"] == {"file": "out.labels.json",
                                     "sha256": hashlib.sha256(data).hexdigest()}
    sets = json.loads(data)["columns"]["severity"]
    for label in set(pd.read_csv(folder / "out.csv", dtype=str)["severity"]):
        digest = re.fullmatch(r"\{#([0-9a-f]{8}): (\d) values\}", label)
        assert digest and len(sets[digest.group(1)]) == int(digest.group(2))

    done = run(folder, "verify", "out.csv", "--certificate", "out.cert.json")
    assert done.returncode == 0, done.stderr
    assert (f"set-label file out.labels.json sha256 {certificate['labels']['sha256']}"
            in done.stdout)

    (folder / "moved").mkdir()
    os.replace(folder / "out.labels.json", folder / "moved" / "l.json")
    done = run(folder, "verify", "out.csv", "--certificate", "out.cert.json")
    assert done.returncode == 3
    assert one_line(done, "skyprivacy verify: error: ") == (
        "skyprivacy verify: error: Cannot read set-label file 'out.labels.json': No such file "
        "or directory. The certificate 'out.cert.json' records it; pass --labels FILE if it "
        "is elsewhere.")
    done = run(folder, "verify", "out.csv", "--certificate", "out.cert.json", "--labels",
               "moved/l.json")
    assert done.returncode == 0, done.stderr

    first, second = list(sets)[:2]
    tampered = data.decode().replace(first, second[:4] + first[4:])
    (folder / "moved" / "l.json").write_text(tampered)
    done = run(folder, "verify", "out.csv", "--certificate", "out.cert.json", "--labels",
               "moved/l.json")
    assert done.returncode == 1
    assert done.stderr.startswith("skyprivacy verify: FAILED: The set-label file "
                                  "'out.labels.json' does not match the certificate: its "
                                  "SHA-256 is ")


def test_the_set_label_file_is_written_with_the_other_outputs_or_not_at_all(folder):
    """A write that fails after the table and the set-label file were staged (here the
    certificate, on a full disk) leaves none of them."""
    _one_disease_per_severity(folder)
    env = injected(folder, FULL_DISK.replace("TARGET", ".out.cert.json."))
    done = run(folder, "anonymize", "triage.csv", "--qi", "severity", "--sensitive", "disease",
               "--policy", "any.toml", "--output", "out.csv", "--label-length", "0", env=env)
    assert done.returncode == 3
    assert one_line(done, "skyprivacy anonymize: error: ") == (
        "skyprivacy anonymize: error: Cannot write 'out.cert.json': No space left on device.")
    assert listing(folder) == ["any.toml", "loose.toml", "t.csv", "triage.csv"]


def test_hierarchy_shortcuts_mask_and_intervals(folder):
    rows = [("02139", 34), ("02138", 36), ("02141", 41), ("02145", 47), ("10001", 52),
            ("10003", 58), ("10012", 61), ("10014", 69)]
    pd.DataFrame({"zip": [z for z, _ in rows] * 2, "age": [a for _, a in rows] * 2,
                  "disease": ["a", "b"] * 8}).to_csv(folder / "p.csv", index=False)
    done = run(folder, "compare", "p.csv", "--qi", "zip", "--sensitive", "disease",
               "--k-anonymity", "4", "--hierarchy", "zip=mask:2", "--output", "m.csv", "-q")
    assert done.returncode == 0, done.stderr
    assert set(pd.read_csv(folder / "m.csv", dtype=str)["zip"]) == {"0213*", "0214*",
                                                                     "1000*", "1001*"}
    done = run(folder, "compare", "p.csv", "--qi", "zip", "--sensitive", "disease",
               "--k-anonymity", "8", "--hierarchy", "zip=mask:2", "--output", "m8.csv", "-q")
    assert set(pd.read_csv(folder / "m8.csv", dtype=str)["zip"]) == {"021**", "100**"}
    done = run(folder, "compare", "p.csv", "--qi", "age", "--sensitive", "disease",
               "--k-anonymity", "4", "--hierarchy", "age=intervals:10,20", "--output",
               "i.csv", "-q")
    assert done.returncode == 0, done.stderr
    released = pd.read_csv(folder / "i.csv", dtype=str)["age"]
    for label, age in zip(released, [a for _, a in rows] * 2):
        low, high = (int(x) for x in label.strip("[)").split(", "))
        assert low <= age < high and high - low in (10, 20), (label, age)
    done = run(folder, "compare", "p.csv", "--qi", "zip", "--sensitive", "disease",
               "--k-anonymity", "4", "--hierarchy", "zip=mask:0")
    assert done.returncode == 2
    assert one_line(done, "skyprivacy compare: error: argument --hierarchy: 'zip=mask:0': "
                          "mask:N needs a whole number N >= 1 of trailing characters to "
                          "mask, got '0'")


# ------------------------------------------------------------------- 3. a way forward
def test_an_infeasible_policy_says_what_fails_and_what_the_table_withstands(folder):
    pd.DataFrame({"zip": ["1", "1", "2", "2", "3", "3"],
                  "disease": ["flu", "flu", "flu", "flu", "flu", "cold"]}).to_csv(
        folder / "u.csv", index=False)
    (folder / "strict.toml").write_text("[default]\nskyline = [[0, 1, 0, 0.9]]\n")
    done = run(folder, "anonymize", "u.csv", "--qi", "zip", "--sensitive", "disease",
               "--policy", "strict.toml", "--output", "o.csv")
    assert done.returncode == 1 and done.stdout == ""
    line = one_line(done, "skyprivacy anonymize: infeasible: Even the whole table as one "
                          "group is unsafe: ")
    assert ("first 'flu' at (l=0, k=1, m=0, c=0.9) with breach probability 1 (100.0%); the "
            "whole table withstands at most (l, k, m) in [(0, 0, 0)] for 'flu' at c = 0.9; no "
            "generalization can satisfy the policy") in line
    done = run(folder, "anonymize", "u.csv", "--qi", "zip", "--sensitive", "disease",
               "--policy", "strict.toml", "--output", "o.csv", "--format", "json")
    report = json.loads(done.stdout)
    assert report["verdict"] == "infeasible" and report["failing"][0]["value"] == "flu"
    assert report["withstands"] == [{"value": "flu", "c": "9/10", "points": [[0, 0, 0]]}]
    (folder / "stricter.toml").write_text("[default]\nskyline = [[0, 0, 0, 0.8]]\n")
    done = run(folder, "anonymize", "u.csv", "--qi", "zip", "--sensitive", "disease",
               "--policy", "stricter.toml", "--output", "o.csv")
    assert done.returncode == 1
    assert ("the whole table is unsafe for 'flu' even with no knowledge at c = 0.8 (its breach "
            "probability without knowledge is 5/6 (83.3%): c must be above it)"
            in one_line(done, "skyprivacy anonymize: infeasible: "))
    assert not (folder / "o.csv").exists()


def test_an_unsafe_check_ends_with_the_next_step(folder):
    pd.DataFrame({"zip": ["1", "1", "2", "2"], "disease": ["flu", "flu", "flu", "cold"]}
                 ).to_csv(folder / "u.csv", index=False)
    done = run(folder, "check", "u.csv", "--qi", "zip", "--sensitive", "disease", "--policy",
               "loose.toml", "--report", "r.html")
    assert done.returncode == 1
    assert done.stdout.rstrip().splitlines()[-1] == (
        "Next step: generalize the table until it is safe, e.g. skyprivacy anonymize u.csv "
        "--qi COL,... --sensitive disease --policy loose.toml --output released.csv; or relax "
        "the failing points of 'flu'.")
    page = (folder / "r.html").read_text()
    assert "<title>skyprivacy risk report</title>" in page
    assert "<h2>Next step</h2>" in page and "certification report" not in page


# --------------------------------------------------------------------------- 4. inputs
def test_standard_input_dev_stdin_and_process_substitution_are_read_once(folder):
    args = ["--qi", "zip", "--sensitive", "disease", "--policy", "loose.toml"]
    for table in ("-", "/dev/stdin"):
        done = run(folder, "check", table, *args, stdin=TABLE)
        assert done.returncode == 0 and done.stdout.startswith("SAFE: all 3"), done.stderr
    done = subprocess.run(["bash", "-c",
                           f"{SCRIPT} check <(cat t.csv) {' '.join(args)} --keep-rest"],
                          cwd=folder, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.startswith("SAFE: all 3"), done.stderr


@pytest.mark.parametrize("name,pack", [
    ("t.csv.gz", gzip.compress), ("t.csv.bz2", bz2.compress), ("t.csv.xz", lzma.compress),
    ("t.zip", None), ("gzipped.csv", gzip.compress), ("plain.csv.gz", bytes)])
def test_compressed_csv_is_read_transparently(folder, name, pack):
    if pack is None:
        with zipfile.ZipFile(folder / name, "w") as archive:
            archive.writestr("t.csv", TABLE)
    else:
        (folder / name).write_bytes(pack(TABLE.encode()))
    done = run(folder, "check", name, "--qi", "zip", "--sensitive", "disease", "--policy",
               "loose.toml")
    assert done.returncode == 0 and done.stdout.startswith("SAFE: all 3"), done.stderr


def test_other_separators_parquet_excel_and_byte_order_marks(folder):
    args = ["--qi", "zip", "--sensitive", "disease", "--policy", "loose.toml"]
    (folder / "semi.csv").write_text(TABLE.replace(",", ";"))
    done = run(folder, "check", "semi.csv", *args)
    assert done.returncode == 3
    assert one_line(done, "skyprivacy check: error: ") == (
        "skyprivacy check: error: Table 'semi.csv' has one column 'zip;age;disease': it looks "
        ";-separated; pass --sep ';' (Python: read_table(..., sep=';')).")
    assert run(folder, "check", "semi.csv", "--sep", ";", *args).returncode == 0
    frame = pd.read_csv(folder / "t.csv", dtype=str)
    frame.to_parquet(folder / "parquet-inside.csv")  # Parquet bytes, named .csv
    frame.to_excel(folder / "t.xlsx", index=False)
    (folder / "bom.csv").write_bytes(b"\xef\xbb\xbf" + TABLE.encode())
    (folder / "bom.toml").write_bytes(b"\xef\xbb\xbf" + LOOSE.encode())
    for table in ("parquet-inside.csv", "t.xlsx", "bom.csv"):
        done = run(folder, "check", table, *args)
        assert done.returncode == 0 and done.stdout.startswith("SAFE: all 3"), (table,
                                                                                done.stderr)
    done = run(folder, "check", "t.csv", "--qi", "zip", "--sensitive", "disease", "--policy",
               "bom.toml")
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("content,message", [
    ("zip,age,disease\n", "Table 'bad.csv' has a header but no rows."),
    ("zip,,disease\n1,2,flu\n", "Table 'bad.csv' has an empty column name (column 2 of the "
                                "header); every column needs a name."),
    ("zip,age,zip\n1,2,3\n", "Table 'bad.csv' repeats the column name(s) ['zip']; column "
                             "names must be distinct."),
    ("zip,age,disease\n1,2,f\x00lu\n", "Table 'bad.csv' has a control character (U+0000) in "
                                       "column 'disease', data row 1; remove it."),
])
def test_malformed_tables_get_their_own_clear_errors(folder, content, message):
    (folder / "bad.csv").write_text(content)
    done = run(folder, "anonymize", "bad.csv", "--qi", "zip", "--sensitive", "disease",
               "--policy", "loose.toml", "--output", "out.csv")
    assert done.returncode == 3
    assert one_line(done, "skyprivacy anonymize: error: ") == \
        f"skyprivacy anonymize: error: {message}"
    assert "\x00" not in done.stderr
    assert not (folder / "out.csv").exists()


def test_existing_outputs_are_replaced_only_with_force(folder):
    (folder / "cert.json").write_text("keep me")
    os.chmod(folder / "cert.json", 0o444)
    args = ["check", "t.csv", "--qi", "zip", "--sensitive", "disease", "--policy",
            "loose.toml", "--certificate", "cert.json"]
    done = run(folder, *args)
    assert done.returncode == 2
    assert one_line(done, "") == ("skyprivacy check: error: --certificate cert.json already "
                                  "exists; pass --force to replace it (see skyprivacy check "
                                  "--help)")
    assert (folder / "cert.json").read_text() == "keep me"
    assert run(folder, *args, "--force").returncode == 0
    assert (folder / "cert.json").read_text().startswith("{")


FULL_DISK = """
    import errno, os
    _fdopen = os.fdopen

    class _Full:
        def __init__(self, stream):
            self.stream = stream
        def __enter__(self):
            return self
        def __exit__(self, *exc):
            self.stream.close()
        def write(self, data):
            raise OSError(errno.ENOSPC, "No space left on device")

    def fdopen(fd, mode="r", *args, **kwargs):
        stream = _fdopen(fd, mode, *args, **kwargs)
        name = os.path.basename(os.readlink(f"/proc/self/fd/{fd}"))
        return _Full(stream) if "w" in mode and name.startswith("TARGET") else stream

    os.fdopen = fdopen
"""


def test_a_full_disk_names_the_file_and_leaves_nothing(folder):
    env = injected(folder, FULL_DISK.replace("TARGET", ".out.csv."))
    done = run(folder, "anonymize", "t.csv", "--qi", "zip", "--sensitive", "disease",
               "--policy", "loose.toml", "--output", "out.csv", env=env)
    assert done.returncode == 3
    assert one_line(done, "") == ("skyprivacy anonymize: error: Cannot write 'out.csv': No "
                                  "space left on device.")
    assert listing(folder) == ["loose.toml", "t.csv"]


def test_a_read_only_folder_is_refused_before_any_work(folder):
    done = run(folder, "anonymize", "t.csv", "--qi", "zip", "--sensitive", "disease",
               "--policy", "loose.toml", "--output", "/sys/out.csv")
    assert done.returncode == 3
    assert one_line(done, "") == ("skyprivacy anonymize: error: Cannot write '/sys/out.csv': "
                                  "the folder '/sys' is not writable (Permission denied).")


# --------------------------------------------------------------------- 5. honest words
def test_a_closest_call_just_below_c_is_not_printed_as_c(folder):
    rows = ["flu"] * 17991 + ["cold"] * 2009  # 17,991 / 20,000 = 0.89955 < 0.9
    pd.DataFrame({"zip": "021**", "disease": rows}).to_csv(folder / "close.csv", index=False)
    done = run(folder, "check", "close.csv", "--qi", "zip", "--sensitive", "disease",
               "--policy", "loose.toml")
    assert done.returncode == 0, done.stderr
    assert "(89.95%)" in done.stdout and "(90.0%)" not in done.stdout


def test_an_interrupt_says_what_is_on_disk(folder):
    """Before the outputs: a real SIGINT while the progress bar runs. After: injected where the
    command notes what it wrote (the outputs are committed by then)."""
    from skyprivacy.datasets import load_adult
    load_adult().to_csv(folder / "adult.csv", index=False)
    (folder / "p.toml").write_text("[default]\nskyline = [[1, 5, 1, 0.9]]\n")
    process = subprocess.Popen(
        [SCRIPT, "anonymize", "adult.csv", "--qi", "age,workclass,education,sex",
         "--sensitive", "occupation", "--policy", "p.toml", "--output", "out.csv",
         "--progress", "--keep-rest"], cwd=folder, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE)
    seen = b""
    while b"anonymizing [" not in seen:
        byte = process.stderr.read(1)
        assert byte, seen
        seen += byte
    process.send_signal(signal.SIGINT)
    rest = process.communicate(timeout=300)[1]
    assert process.returncode == 130
    assert (seen + rest).decode().strip().splitlines()[-1] == \
        "skyprivacy anonymize: interrupted; nothing was written"
    assert listing(folder) == ["adult.csv", "p.toml", "loose.toml", "t.csv"] or \
        listing(folder) == sorted(["adult.csv", "p.toml", "loose.toml", "t.csv"])

    env = injected(folder, """
        import skyprivacy.cli.context
        def note(self, text):
            raise KeyboardInterrupt
        skyprivacy.cli.context.Context.note = note
    """)
    done = run(folder, "check", "t.csv", "--qi", "zip", "--sensitive", "disease", "--policy",
               "loose.toml", "--certificate", "c.json", env=env)
    assert done.returncode == 130
    assert done.stderr.strip() == ("skyprivacy check: interrupted; these outputs were complete "
                                   "before the interruption and are on disk: c.json")
    assert json.loads((folder / "c.json").read_text())["verdict"] == "safe"


def test_l_diversity_beyond_the_number_of_values_is_explained_in_its_terms(folder):
    pd.DataFrame({"age": range(70), "disease": [f"d{i % 7}" for i in range(70)]}).to_csv(
        folder / "seven.csv", index=False)
    done = run(folder, "compare", "seven.csv", "--qi", "age", "--sensitive", "disease",
               "--l-diversity", "50")
    assert done.returncode == 1
    assert one_line(done, "") == (
        "skyprivacy compare: infeasible: Recursive (3, 50)-diversity needs at least 50 distinct "
        "values of 'disease' in every QI-group, and the table has only 7 distinct values; "
        "choose --l-diversity 7 or less.")
