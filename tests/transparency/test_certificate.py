"""Decision-rule certificates (skyprivacy/transparency/certificate.py): certify, verify,
tamper, report (issue "Certify decision rules the way tables are certified")."""
import copy
import hashlib
import json
import re
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skyprivacy import InvalidParameterError, SchemaError
from skyprivacy.datasets import load_credit_card
from skyprivacy.transparency import DecisionTable, Delta, optimal_privacy
from skyprivacy.transparency.certificate import (
    RULE_CERTIFICATE_SCHEMA_VERSION,
    build_rule_certificate,
    verify_rule_certificate,
)

from .tables import KW, section8

CLI = [sys.executable, "-m", "skyprivacy"]


@pytest.mark.parametrize("exact", [False, True])
def test_section_8_round_trip_with_the_papers_beta_star(exact):
    frame, rule, cert = section8(exact)
    assert cert["schema_version"] == RULE_CERTIFICATE_SCHEMA_VERSION
    assert cert["mode"] == "optimize" and cert["verdict"] == "certified"
    # Section 8: beta* = 0.675 at 90% fidelity, set by the group F
    assert cert["beta"]["value"] == pytest.approx(0.675)
    assert cert["beta_star"]["value"] == pytest.approx(0.675)
    if exact:
        assert cert["beta"]["exact"] == cert["beta_star"]["exact"] == "27/40"
        assert cert["fidelity"]["achieved"]["delta"]["exact"] == "9/10"
    else:
        assert cert["beta"]["exact"] is None and cert["parameters"]["tolerance"] == 1e-9
    assert [g["group"] for g in cert["groups_reaching_beta"]] == [["F"]]
    assert cert["fidelity"]["constraint"] == {"kind": "delta", "value": 0.9}
    assert cert["fidelity"]["holds"] is True
    parsed = json.loads(json.dumps(cert))  # what an auditor reads from disk
    check = verify_rule_certificate(frame, rule, parsed)
    assert check.ok and check.differences == ()


def _tamper(cert, path, value):
    out = copy.deepcopy(cert)
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


@pytest.mark.parametrize("path,value,message", [
    (("beta", "value"), 0.5, "The certified beta differs: the certificate records 0.5"),
    (("beta_star", "value"), 0.6, "The beta* of the optimal scheme differs"),
    (("max_confidence", "value"), 0.6, "The maximum confidence of the announced rule differs"),
    (("max_confidence", "group"), ["M"], "Where the maximum confidence is attained differs"),
    (("groups_reaching_beta",), [], "The groups that reach beta differ"),
    (("fidelity", "achieved", "delta", "value"), 0.95, "The delta-fidelity achieved differs"),
    (("fidelity", "achieved", "alpha", "value"), 0.5, "The alpha-fidelity achieved differs"),
    (("fidelity", "holds"), False, "The fidelity constraint"),
    (("satisfied",), False, "The 'satisfied' field differs"),
    (("private",), False, "The 'private' field differs"),
    (("verdict",), "not certified", "The 'verdict' field differs"),
    (("table", "sha256"), "0" * 64, "The decision table does not match the certificate"),
    (("rule", "sha256"), "0" * 64, "The announced rule does not match the certificate"),
])
def test_every_recorded_field_is_checked(path, value, message):
    frame, rule, cert = section8(False)
    check = verify_rule_certificate(frame, rule, _tamper(cert, path, value))
    assert not check.ok
    assert any(d.startswith(message) for d in check.differences), check.differences


def test_an_edited_constraint_that_no_longer_holds_is_named():
    frame, rule, cert = section8(False)
    stricter = _tamper(cert, ("fidelity", "constraint", "value"), 0.95)
    check = verify_rule_certificate(frame, rule, stricter)
    assert any("no longer holds" in d for d in check.differences), check.differences


def test_changed_cells_of_the_table_or_the_rule_are_named_with_their_consequences():
    frame, rule, cert = section8(False)
    edited = rule.copy()
    edited.loc[4, "d_tilde"] = 0.45  # moves no recorded number: the hash alone catches it
    check = verify_rule_certificate(frame, edited, cert)
    assert len(check.differences) == 1
    assert check.differences[0].startswith("The announced rule does not match the certificate")
    edited.loc[2, "d_tilde"] = 0.8  # 0.2 from the true 1.0: 90% fidelity no longer holds
    check = verify_rule_certificate(frame, edited, cert)
    assert check.differences[0].startswith("The announced rule does not match the certificate")
    named = " ".join(check.differences[1:])
    assert "The delta-fidelity achieved differs: the certificate records 0.9" in named
    assert "no longer holds" in named and "The 'verdict' field differs" in named
    table = frame.copy()
    table.loc[0, "section8"] = 13
    check = verify_rule_certificate(table, rule, cert)
    assert check.differences[0].startswith("The decision table does not match the certificate")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.sampled_from([0.5, 0.8, 0.95]), st.booleans())
def test_random_tables_round_trip_and_detect_a_changed_rule(seed, delta, exact):
    rng = np.random.default_rng(seed)
    n_groups, per = int(rng.integers(1, 4)), int(rng.integers(2, 4))
    frame = pd.DataFrame({
        "g": np.repeat([f"g{i}" for i in range(n_groups)], per),
        "s": [f"s{j}" for _ in range(n_groups) for j in range(per)],
        "w": rng.integers(1, 20, n_groups * per),
        "d": rng.choice([0.0, 0.25, 0.5, 0.75, 1.0], n_groups * per)})
    kw = {"public": "g", "sensitive": "s", "weight": "w", "decision": "d"}
    with _quiet():
        table = DecisionTable.from_frame(frame, **kw)
        rule = optimal_privacy(table, Delta(delta), exact=exact).announced
        cert = build_rule_certificate(frame, rule, announced="d_tilde", fidelity=Delta(delta),
                                      optimal=True, exact=exact, **kw)
        assert verify_rule_certificate(frame, rule, json.loads(json.dumps(cert))).ok
        check_cert = build_rule_certificate(frame, beta=0.9, exact=exact, **kw)
        assert verify_rule_certificate(frame, None, check_cert).ok
        assert check_cert["private"] == bool(
            Fraction(check_cert["max_confidence"]["exact"]) <= Fraction(9, 10) if exact
            else check_cert["max_confidence"]["value"] <= 0.9 * (1 + 1e-9))
        edited = rule.astype({"d_tilde": object})
        edited.loc[0, "d_tilde"] = 0.123 if not exact else Fraction(123, 1000)
        assert not verify_rule_certificate(frame, edited, cert).ok


class _quiet:
    def __enter__(self):
        import warnings
        self._ctx = warnings.catch_warnings()
        self._ctx.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc):
        return self._ctx.__exit__(*exc)


def test_build_errors_name_the_bad_value():
    frame = load_credit_card()
    with pytest.raises(InvalidParameterError, match=re.escape(
            "build_rule_certificate needs exactly one of a confidence bound (beta or gamma) "
            "and optimal=True")):
        build_rule_certificate(frame, **KW)
    with pytest.raises(InvalidParameterError, match=re.escape(
            "build_rule_certificate with optimal=True needs the fidelity constraint")):
        build_rule_certificate(frame, optimal=True, **KW)
    with pytest.raises(SchemaError, match=re.escape("Column 'd_tilde' is not in the table")):
        build_rule_certificate(frame, announced="d_tilde", beta=0.9, **KW)
    shuffled = frame.iloc[::-1].assign(d_tilde=0.5)
    with pytest.raises(SchemaError, match=re.escape(
            "The rule's rows do not match the decision table's")):
        build_rule_certificate(frame, shuffled, announced="d_tilde", beta=0.9, **KW)
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The certificate is malformed: 'kind' is 'skyprivacy.certificate'")):
        verify_rule_certificate(frame, None, {**section8(False)[2],
                                              "kind": "skyprivacy.certificate"})
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The certificate is malformed: missing field(s) ['beta']")):
        cert = dict(section8(False)[2])
        del cert["beta"]
        verify_rule_certificate(frame, None, cert)


def _run(*args, cwd):
    done = subprocess.run([*CLI, *args], capture_output=True, text=True, cwd=cwd, timeout=120)
    return done.returncode, done.stdout, done.stderr


def test_cli_optimize_certify_verify_and_catch_an_edited_rule(tmp_path):
    load_credit_card().to_csv(tmp_path / "table.csv", index=False)
    opts = ["--public", "gender", "--sensitive", "income", "--weight", "section8",
            "--decision", "d"]
    code, out, err = _run("transparency", "optimize", "table.csv", *opts, "--delta", "0.9",
                          "--exact", "--output", "rule.csv", "--certificate", "rule.json",
                          "--report", "rule.html", cwd=tmp_path)
    assert code == 0, err
    assert "wrote rule.csv, rule.json, rule.html" in err
    cert = json.loads((tmp_path / "rule.json").read_text())
    assert cert["beta_star"]["exact"] == "27/40"
    code, out, err = _run("transparency", "verify", "table.csv", "--rule", "rule.csv",
                          "--certificate", "rule.json", cwd=tmp_path)
    assert code == 0 and out.startswith("VERIFIED: rule.csv matches rule.json"), err
    text = (tmp_path / "rule.csv").read_text().replace("2/5", "9/20")
    (tmp_path / "edited.csv").write_text(text)
    code, out, err = _run("transparency", "verify", "table.csv", "--rule", "edited.csv",
                          "--certificate", "rule.json", "--format", "json", cwd=tmp_path)
    assert code == 1
    report = json.loads(out)
    assert report["verified"] is False
    assert report["differences"][0].startswith("The announced rule does not match")
    assert err.startswith("skyprivacy transparency verify: FAILED: The announced rule")
    # check mode: the true rule is not private at 0.9; its certificate verifies as such
    code, out, err = _run("transparency", "check", "table.csv", *opts, "--beta", "0.9",
                          "--certificate", "check.json", "--report", "check.html", cwd=tmp_path)
    assert code == 1 and "wrote check.json, check.html" in err
    assert "risk report" in (tmp_path / "check.html").read_text()
    code, out, err = _run("transparency", "verify", "table.csv", "--certificate", "check.json",
                          cwd=tmp_path)
    assert code == 0 and "verdict not certified" in out


def test_cli_rule_certificate_errors(tmp_path):
    load_credit_card().to_csv(tmp_path / "table.csv", index=False)
    opts = ["--public", "gender", "--sensitive", "income", "--weight", "section8",
            "--decision", "d"]
    code, out, err = _run("transparency", "optimize", "table.csv", *opts, "--delta", "0.9",
                          "--certificate", "rule.json", cwd=tmp_path)
    assert code == 2
    assert "--certificate needs --output" in err
    assert not (tmp_path / "rule.json").exists()
    (tmp_path / "bad.json").write_text('{"kind": "x"}')
    code, out, err = _run("transparency", "verify", "table.csv", "--certificate", "bad.json",
                          cwd=tmp_path)
    assert code == 3
    assert "Certificate 'bad.json': The certificate is malformed: 'kind' is 'x', expected " \
           "'skyprivacy.rule-certificate'." in err
    assert len(err.strip().splitlines()) == 1


def test_verify_names_each_changed_row_and_cell():
    """Issue "Nothing released unexamined", item 3: the certificate records a digest per cell
    (``cell_sha256``), so a table or rule that no longer matches is told cell by cell."""
    frame = pd.DataFrame({"g": ["F", "F", "M", "M"], "s": ["a", "b", "a", "b"],
                          "w": [3, 1, 1, 2], "d": [0.5, 0.2, 0.4, 0.6]})
    cert = build_rule_certificate(frame, public="g", sensitive="s", weight="w", decision="d",
                                  beta=0.9)
    assert cert["table"]["cell_sha256"][0] == [
        hashlib.sha256(text.encode()).hexdigest()[:16] for text in ("F", "a", "3", "0.5")]
    edited = frame.copy()
    edited.loc[1, "d"] = 0.25
    edited.loc[2, "w"] = 2
    first = verify_rule_certificate(edited, None, cert).differences[0]
    assert first.endswith("; changed: row 2 (g=F, s=b), column 'd' (now '0.25'); row 3 "
                          "(g=M, s=a), column 'w' (now '2').")
    grown = pd.concat([frame, frame.iloc[:2]], ignore_index=True)
    assert verify_rule_certificate(grown, None, cert).differences[0].endswith(
        "; changed: rows 5 to 6 were added.")
    assert verify_rule_certificate(frame.iloc[:3], None, cert).differences[0].endswith(
        "; changed: row 4 was removed.")
    assert verify_rule_certificate(frame[["g", "s", "d", "w"]], None, cert).differences[
        0].endswith("; changed: no cell differs; the columns are in another order.")
    assert verify_rule_certificate(frame.assign(x=1), None, cert).differences[0].endswith(
        "; changed: column 'x' was added.")
    rule_of = frame.assign(t=[0.5, 0.2, 0.4, 0.6])
    cert = build_rule_certificate(frame, rule_of, public="g", sensitive="s", weight="w",
                                  decision="d", announced="t", beta=0.9)
    differences = verify_rule_certificate(frame, rule_of.assign(t=[0.5, 0.2, 0.4, 0.7]),
                                          cert).differences
    assert differences[0].startswith("The announced rule does not match the certificate")
    assert differences[0].endswith("; changed: row 4 (g=M, s=b), column 't' (now '0.7').")
