"""Publish exactly what the data says (issue 12, item 1): released cells that are not
generalized are the input cells; ranges print their bounds as written; which QIs are
numbers is decided in one place, the same for Python and the command line."""
import os
import re
import subprocess
import sys

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from skyprivacy import Policy
from skyprivacy.anonymize import k_anonymize, skyline_anonymize
from skyprivacy.io import read_table
from skyprivacy.anonymize.encoders import qi_kinds

LOOSE = Policy.uniform([(0, 0, 0, 1)])
SCRIPT = os.path.join(os.path.dirname(sys.executable), "skyprivacy")  # the console script


def test_leading_zero_codes_are_never_numbers_and_keep_their_zero():
    table = pd.DataFrame({"zip": ["02139", "02139", "02140", "02140"] * 3,
                          "disease": ["flu", "cold", "flu", "hiv"] * 3})
    assert qi_kinds(table, ["zip"], {}) == {"zip": "set"}
    result = skyline_anonymize(table, qi="zip", sensitive="disease", policy=LOOSE)
    assert sorted(set(result.table["zip"])) == ["02139", "02140"]


def test_numbers_keep_the_text_they_were_written_with():
    table = pd.DataFrame({"dose": ["1.50", "1.50", "2.25", "2.25", "1e3", "1e3"],
                          "disease": ["a", "b", "a", "b", "a", "b"]})
    assert qi_kinds(table, ["dose"], {}) == {"dose": "numeric"}
    exact = skyline_anonymize(table, qi="dose", sensitive="disease", policy=LOOSE)
    assert exact.table["dose"].tolist() == table["dose"].tolist()
    coarse = k_anonymize(table, qi="dose", k=4, keep="disease")
    assert set(coarse.table["dose"]) == {"[1.50, 2.25]", "1e3"} or \
        set(coarse.table["dose"]) == {"[1.50, 1e3]"}
    assert all(cell in ("[1.50, 2.25]", "[1.50, 1e3]", "1e3") for cell in coarse.table["dose"])


def test_k_anonymize_takes_the_same_explicit_choice():
    table = pd.DataFrame({"zip": ["02139", "02140"] * 4, "age": ["30", "31", "32", "33"] * 2})
    as_numbers = k_anonymize(table, qi="zip", k=8, numeric="zip", drop="age")
    assert set(as_numbers.table["zip"]) == {"[02139, 02140]"}
    as_categories = k_anonymize(table, qi="age", k=8, categorical=["age"], drop="zip")
    assert set(as_categories.table["age"]) == {"*"}
    assert set(k_anonymize(table, qi="age", k=8, drop="zip").table["age"]) == {"[30, 33]"}


def test_python_and_the_command_line_publish_the_same_file_identically(tmp_path,
                                                                       monkeypatch):
    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(3)
    rows = 300
    pd.DataFrame({"zip": rng.choice(["02139", "02140", "02141", "10001"], rows),
                  "age": rng.integers(18, 90, rows).astype(str),
                  "disease": rng.choice(["flu", "cold", "hiv", "gout", "acne"], rows)}
                 ).to_csv("t.csv", index=False)
    (tmp_path / "p.toml").write_text("[default]\nskyline = [[1, 2, 0, 0.9]]\n")
    done = subprocess.run([SCRIPT, "anonymize", "t.csv", "--qi", "zip,age", "--sensitive",
                           "disease", "--policy", "p.toml", "--output", "cli.csv", "-q"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    table = read_table("t.csv")
    assert table["zip"].str.startswith("0").any()  # read as text: ZIPs keep their zero
    python = skyline_anonymize(table, qi=["zip", "age"], sensitive="disease",
                               policy=Policy.uniform([(1, 2, 0, 0.9)]))
    cli = read_table("cli.csv")
    pd.testing.assert_frame_equal(
        python.table.astype(str).astype(object).reset_index(drop=True), cli)
    assert any(cell.startswith("[") for cell in cli["age"])  # ages are ranges, as numbers
    assert all(not cell.startswith("[") for cell in cli["zip"])  # ZIPs are codes


def _covers(label: str, cell: str, numeric: bool, sets: dict, domain: set) -> bool:
    if label == cell:
        return True
    if numeric and label.startswith("["):
        low, high = (float(x) for x in label.strip("[]").split(", "))
        return low <= float(cell) <= high
    if numeric:  # one number written two ways in one group ('2', '2.0'): one text for both
        return float(label) == float(cell)
    if label == "*":  # a group spanning every value of the column
        return cell in domain
    digest = re.fullmatch(r"\{#([0-9a-f]+): (\d+) values\}", label)
    if digest:  # members listed in the set-label mapping
        return cell in sets[digest.group(1)]
    if label.startswith("{"):
        return cell in label[1:-1].split(", ")
    return False


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 6))
def test_every_released_cell_is_its_input_or_a_label_that_covers_it(seed, k):
    rng = np.random.default_rng(seed)
    rows = int(rng.integers(8, 60))
    table = pd.DataFrame({
        "code": rng.choice(["007", "012", "120", "A1", "b2"], rows),
        "amount": rng.choice(["1.50", "2", "2.0", "10", "1e2", "-3"], rows),
        "age": rng.integers(0, 100, rows),
        "disease": rng.choice(["x", "y", "z"], rows)})
    kinds = qi_kinds(table, ["code", "amount", "age"], {})
    assert kinds == {"code": "set", "amount": "numeric", "age": "numeric"}
    result = k_anonymize(table, qi=["code", "amount", "age"], k=min(k, rows),
                         label_length=int(rng.integers(0, 30)), keep="disease")
    for column in ("code", "amount", "age"):
        sets = result.set_labels.get(column, {})
        domain = set(map(str, table[column]))
        for label, cell in zip(result.table[column], table[column]):
            assert _covers(str(label), str(cell), kinds[column] == "numeric", sets, domain), \
                (column, label, cell)
