"""``verify --require-safe`` and ``transparency verify --require-safe`` (issue "Nothing released
unexamined", item 3): a certificate that verifies but certifies an unsafe verdict exits 0
without the flag (the table is what the certificate says) and 1 with it, with one line saying
why, so ``verify --require-safe && publish`` never publishes an honestly certified unsafe
table."""
import pytest

from skyprivacy.cli import main

TABLE = "zip,disease\n1*,flu\n1*,cold\n2*,flu\n2*,hiv\n"
RULES = "g,s,w,d\nF,a,3,0.5\nF,b,1,0.2\nM,a,1,0.4\nM,b,2,0.6\n"


@pytest.fixture
def folder(tmp_path, monkeypatch):
    (tmp_path / "t.csv").write_text(TABLE)
    (tmp_path / "loose.toml").write_text("[default]\nskyline = [[0, 0, 0, 0.9]]\n")
    (tmp_path / "tight.toml").write_text("[default]\nskyline = [[0, 0, 0, 0.5]]\n")
    (tmp_path / "rules.csv").write_text(RULES)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def certify(policy: str, name: str) -> int:
    return main(["check", "t.csv", "--qi", "zip", "--sensitive", "disease", "--policy", policy,
                 "--certificate", name, "-q"])


def test_an_unsafe_verdict_verifies_but_is_not_required_safe(folder, capsys):
    assert certify("tight.toml", "unsafe.json") == 1  # 1/2 >= 0.5: unsafe, certified as such
    capsys.readouterr()
    assert main(["verify", "t.csv", "--certificate", "unsafe.json"]) == 0
    assert "verdict unsafe." in capsys.readouterr().out
    assert main(["verify", "t.csv", "--certificate", "unsafe.json", "--require-safe"]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("VERIFIED: ")
    assert err == ("skyprivacy verify: NOT SAFE: the certificate verifies, but its verdict is "
                   "'unsafe'; --require-safe asks for 'safe'\n")


def test_a_safe_verdict_passes_and_a_changed_table_still_fails(folder, capsys):
    assert certify("loose.toml", "safe.json") == 0
    assert main(["verify", "t.csv", "--certificate", "safe.json", "--require-safe"]) == 0
    (folder / "t.csv").write_text(TABLE.replace("hiv", "flu"))
    capsys.readouterr()
    assert main(["verify", "t.csv", "--certificate", "safe.json", "--require-safe"]) == 1
    assert "NOT SAFE" not in capsys.readouterr().err  # it did not verify: that is the reason


@pytest.mark.parametrize("beta, code", [("0.1", 1), ("0.99", 0)])
def test_transparency_verify_requires_certified(folder, capsys, beta, code):
    rule = ["--public", "g", "--sensitive", "s", "--weight", "w", "--decision", "d"]
    main(["transparency", "check", "rules.csv", *rule, "--beta", beta, "--certificate",
          "rule.json", "-q"])
    capsys.readouterr()
    assert main(["transparency", "verify", "rules.csv", "--certificate", "rule.json"]) == 0
    assert main(["transparency", "verify", "rules.csv", "--certificate", "rule.json",
                 "--require-safe"]) == code
    err = capsys.readouterr().err
    assert err == ("" if code == 0 else
                   "skyprivacy transparency verify: NOT SAFE: the certificate verifies, but "
                   "its verdict is 'not certified'; --require-safe asks for 'certified'\n")
