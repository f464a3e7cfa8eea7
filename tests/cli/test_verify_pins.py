"""``verify --qi/--sensitive/--policy`` (issue "Nothing released unexamined", item 3): the
VERIFIED line and ``--format json`` name what the certificate certifies; a pin that does not
hold exits 1 with one line saying what was expected and what is certified; a certificate
with a duplicate key, an unknown field or a duplicated check is refused (exit 3, one line)."""
import json

import pytest

from skyprivacy.certificate import policy_digest
from skyprivacy.io import read_policy

from .helpers import assert_input_error, run

TABLE = "zip,age,sex,disease\n1*,3*,M,flu\n1*,3*,M,cold\n2*,4*,F,flu\n2*,4*,F,hiv\n"


@pytest.fixture
def folder(tmp_path, monkeypatch, capsys):
    (tmp_path / "t.csv").write_text(TABLE)
    (tmp_path / "p.toml").write_text("[default]\nskyline = [[0, 0, 0, 0.9]]\n")
    (tmp_path / "q.toml").write_text("[default]\nskyline = [[0, 0, 0, 0.5]]\n")
    monkeypatch.chdir(tmp_path)
    # the case: an honest certificate of the raw table made with --qi sex alone (zip
    # and age must now be classified: kept as is, and the certificate says so)
    assert run(capsys, "check", "t.csv", "--qi", "sex", "--sensitive", "disease", "--policy",
               "p.toml", "--certificate", "c.json", "--keep", "zip,age", "-q")[0] == 0
    return tmp_path


def test_the_verified_line_and_json_name_what_is_certified(folder, capsys):
    digest = policy_digest(read_policy(folder / "p.toml"))
    code, out, err = run(capsys, "verify", "t.csv", "--certificate", "c.json")
    assert code == 0 and err == ""
    assert out.endswith(f", 3 breach probabilities recomputed exactly, certifying QIs sex; "
                        f"sensitive disease; kept columns zip, age; policy sha256 {digest}; "
                        f"text compared NFC, whitespace strip; unsigned; verdict safe.\n")
    code, out, _ = run(capsys, "verify", "t.csv", "--certificate", "c.json", "--format", "json")
    assert json.loads(out)["certified"] == {
        "qi": ["sex"], "group": None, "sensitive": "disease", "kept": ["zip", "age"],
        "policy_sha256": digest, "criteria": None, "text": "NFC, whitespace strip",
        "verdict": "safe"}
    code, out, err = run(capsys, "verify", "t.csv", "--certificate", "c.json", "--qi", "sex",
                         "--sensitive", "disease", "--policy", "p.toml")
    assert code == 0 and err == "" and out.startswith("VERIFIED: ")


@pytest.mark.parametrize("pin, line", [
    (["--qi", "zip,age,sex"],
     "The certificate certifies the QIs ['sex'], not the expected ['age', 'sex', 'zip']."),
    (["--sensitive", "age"],
     "The certificate certifies the sensitive column 'disease', not the expected 'age'."),
    (["--policy", "q.toml"], "The certificate certifies the policy with sha256 {p}, not the "
                             "expected policy (sha256 {q})."),
])
def test_a_pin_that_does_not_hold_exits_1_with_one_line(folder, capsys, pin, line):
    line = line.format(p=policy_digest(read_policy(folder / "p.toml")),
                       q=policy_digest(read_policy(folder / "q.toml")))
    code, out, err = run(capsys, "verify", "t.csv", "--certificate", "c.json", *pin)
    assert code == 1
    assert err == f"skyprivacy verify: FAILED: {line}\n"
    assert out == f"NOT VERIFIED: t.csv does not match c.json:\n- {line}\n"


def test_duplicates_and_unknown_fields_are_refused(folder, capsys):
    text = (folder / "c.json").read_text()
    (folder / "dup.json").write_text(text.replace('"verdict": "safe"',
                                                  '"verdict": "unsafe", "verdict": "safe"'))
    assert_input_error(capsys, ["verify", "t.csv", "--certificate", "dup.json"],
                       "^skyprivacy verify: error: Certificate 'dup.json' is not valid JSON: "
                       "the key 'verdict' occurs twice in one object \\(a JSON reader keeps "
                       "only the last\\)\\.$")
    cert = json.loads(text)
    (folder / "extra.json").write_text(json.dumps({**cert, "approved_by": "me"}))
    assert_input_error(capsys, ["verify", "t.csv", "--certificate", "extra.json"],
                       "^skyprivacy verify: error: Certificate 'extra.json': The certificate is "
                       "malformed: unknown field 'approved_by' \\(a table certificate holds ")
    cert["checks"].append(cert["checks"][-1])
    (folder / "twice.json").write_text(json.dumps(cert))
    assert_input_error(capsys, ["verify", "t.csv", "--certificate", "twice.json"],
                       "^skyprivacy verify: error: Certificate 'twice.json': The certificate is "
                       "malformed: the check 'hiv' at \\(l=0, k=0, m=0, c=9/10\\) occurs twice "
                       "in 'checks'\\.$")


def test_edited_summary_and_worst_cases_fail(folder, capsys):
    cert = json.loads((folder / "c.json").read_text())
    cert["release"]["n_groups"] = 999
    cert["checks"][0]["worst_case"] = "No attacker can learn anything."
    (folder / "edited.json").write_text(json.dumps(cert))
    code, out, err = run(capsys, "verify", "t.csv", "--certificate", "edited.json")
    assert code == 1
    assert err.startswith("skyprivacy verify: FAILED: The field \"checks['cold' at (l=0, k=0, "
                          "m=0, c=9/10)].worst_case\" differs: the certificate records 'No "
                          "attacker can learn anything.', the table gives ")
    assert len(err.splitlines()) == 1
    assert "\n- The field 'release.n_groups' differs: the certificate records 999, the table " \
           "gives 2.\n" in out
