"""Signed certificates on the command line (issue "Nothing released unexamined", item 4):
``skyprivacy keygen``, ``check``/``anonymize --sign KEY`` (a detached ``JSON.sig``) and
``verify --public-key KEY``; every failure is one line and exit 1 or 3, nothing written."""
import json
import os
import stat

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed448

from skyprivacy.certificate import key_fingerprint

from .helpers import assert_input_error, run

TABLE = "zip,disease\n1*,flu\n1*,cold\n2*,flu\n2*,hiv\n"
CHECK = ["check", "t.csv", "--qi", "zip", "--sensitive", "disease", "--policy", "p.toml"]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    (tmp_path / "t.csv").write_text(TABLE)
    (tmp_path / "p.toml").write_text("[default]\nskyline = [[0, 0, 0, 0.9]]\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def keys(folder, capsys):
    code, out, err = run(capsys, "keygen", "k.pem")
    assert code == 0 and err == ""
    fingerprint = key_fingerprint((folder / "k.pem.pub").read_bytes())
    assert out == (f"Ed25519 key {fingerprint}: private key k.pem (keep it secret; sign with "
                   f"--sign k.pem), public key k.pem.pub (for verify --public-key "
                   f"k.pem.pub).\n")
    assert stat.S_IMODE(os.stat(folder / "k.pem").st_mode) == 0o600
    assert run(capsys, "keygen", "other.pem", "--public", "other.pub", "-q")[0] == 0
    return fingerprint


def test_sign_then_verify_names_the_key(folder, keys, capsys):
    assert run(capsys, *CHECK, "--certificate", "c.json", "--sign", "k.pem", "-q")[0] == 0
    signature = json.loads((folder / "c.json.sig").read_text())
    assert set(signature) == {"kind", "algorithm", "key_sha256", "signature"}
    assert signature["key_sha256"] == keys
    code, out, err = run(capsys, "verify", "t.csv", "--certificate", "c.json", "--public-key",
                         "k.pem.pub")
    assert code == 0 and err == ""
    assert out.endswith(f"; signed by Ed25519 key {keys}; verdict safe.\n")
    code, out, _ = run(capsys, "verify", "t.csv", "--certificate", "c.json", "--public-key",
                       "k.pem.pub", "--format", "json")
    assert json.loads(out)["certified"]["signed_by"] == keys
    # unsigned verification still works, and says so
    code, out, _ = run(capsys, "verify", "t.csv", "--certificate", "c.json")
    assert code == 0
    assert out.endswith("; text compared NFC, whitespace strip; unsigned; verdict safe.\n")


def test_every_signature_failure_is_one_line(folder, keys, capsys):
    assert run(capsys, *CHECK, "--certificate", "c.json", "--sign", "k.pem", "-q")[0] == 0
    verify = ["verify", "t.csv", "--certificate", "c.json", "--public-key"]
    other = key_fingerprint((folder / "other.pub").read_bytes())
    assert_input_error(capsys, [*verify, "other.pub"],
                       f"^skyprivacy verify: error: Certificate 'c.json': The certificate was "
                       f"signed by key {keys}, not by the given key {other}\\.$")
    (folder / "bad.pem").write_text("not a key\n")
    assert_input_error(capsys, [*verify, "bad.pem"],
                       "^skyprivacy verify: error: Key file 'bad.pem' \\(--public-key\\): The "
                       "public key is not an unencrypted Ed25519 public key in PEM form\\.$")
    assert_input_error(capsys, [*verify, "k.pem"],
                       "^skyprivacy verify: error: Key file 'k.pem' \\(--public-key\\) holds a "
                       "private key; --public-key needs the public key \\('skyprivacy keygen' "
                       "writes both\\)\\.$")
    assert_input_error(capsys, [*verify, "none.pub"],
                       "^skyprivacy verify: error: Cannot read key file 'none.pub': No such "
                       "file or directory\\.$")
    # the certificate changed after it was signed (a field no table gives back)
    text = (folder / "c.json").read_text()
    (folder / "c.json").write_text(text.replace('"created": "2', '"created": "1'))
    assert_input_error(capsys, [*verify, "k.pem.pub"],
                       f"^skyprivacy verify: error: Certificate 'c.json': The signature does "
                       f"not match the certificate: it was changed after key {keys} signed "
                       f"it\\.$")
    (folder / "c.json").write_text(text)
    (folder / "c.json.sig").write_text('{"kind": "skyprivacy.signature"}')
    assert_input_error(capsys, [*verify, "k.pem.pub"],
                       "^skyprivacy verify: error: Certificate 'c.json': The signature file is "
                       "malformed: expected a JSON object with kind 'skyprivacy.signature', "
                       "algorithm 'ed25519', 'key_sha256' and 'signature'\\.$")
    (folder / "c.json.sig").write_text(json.dumps({
        "kind": "skyprivacy.signature", "algorithm": "ed25519", "key_sha256": keys,
        "signature": "not base64!"}))
    assert_input_error(capsys, [*verify, "k.pem.pub"],
                       "^skyprivacy verify: error: Certificate 'c.json': The signature file is "
                       "malformed: 'signature' is not base64\\.$")
    os.remove(folder / "c.json.sig")
    assert_input_error(capsys, [*verify, "k.pem.pub"],
                       "^skyprivacy verify: error: Cannot read signature file 'c.json.sig': No "
                       "such file or directory\\. --public-key checks the signature that "
                       "--sign writes beside the certificate\\.$")


def test_signing_needs_a_private_ed25519_key_and_a_certificate(folder, keys, capsys):
    assert_input_error(capsys, [*CHECK, "--certificate", "c.json", "--sign", "k.pem.pub"],
                       "^skyprivacy check: error: Key file 'k.pem.pub' \\(--sign\\) holds a "
                       "public key; --sign needs the private key \\('skyprivacy keygen' writes "
                       "both\\)\\.$", "c.json", "c.json.sig")
    (folder / "bad.pem").write_text("-----BEGIN PRIVATE KEY-----\nAAAA\n"
                                    "-----END PRIVATE KEY-----\n")
    assert_input_error(capsys, [*CHECK, "--certificate", "c.json", "--sign", "bad.pem"],
                       "^skyprivacy check: error: Key file 'bad.pem' \\(--sign\\): The private "
                       "key is not an unencrypted Ed25519 private key in PEM form\\.$",
                       "c.json", "c.json.sig")
    (folder / "ed448.pem").write_bytes(ed448.Ed448PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))
    assert_input_error(capsys, [*CHECK, "--certificate", "c.json", "--sign", "ed448.pem"],
                       "^skyprivacy check: error: Key file 'ed448.pem' \\(--sign\\): The "
                       "private key is of type Ed448PrivateKey, not an Ed25519 key; make one "
                       "with 'skyprivacy keygen'\\.$", "c.json", "c.json.sig")
    code, out, err = run(capsys, *CHECK, "--sign", "k.pem")
    assert code == 2 and out == ""
    assert err == ("skyprivacy check: error: --sign signs the certificate; give --certificate "
                   "JSON too (see skyprivacy check --help)\n")
    code, _, err = run(capsys, "keygen", "k.pem")
    assert code == 2 and "k.pem already exists; pass --force" in err


def test_anonymize_signs_its_certificate(folder, keys, capsys):
    (folder / "raw.csv").write_text("zip,disease\n11,flu\n12,cold\n21,flu\n22,hiv\n")
    code, _, err = run(capsys, "anonymize", "raw.csv", "--qi", "zip", "--sensitive", "disease",
                       "--k", "2", "--output", "out.csv", "--sign", "k.pem", "-q")
    assert code == 0, err
    assert (folder / "out.cert.json.sig").exists()
    code, out, err = run(capsys, "verify", "out.csv", "--certificate", "out.cert.json",
                         "--public-key", "k.pem.pub")
    assert code == 0, err
    assert f"signed by Ed25519 key {keys}" in out


# ------------------------------------------------ decision-rule (transparency) certificates
def test_a_signed_rule_certificate_verifies_with_its_key_only(folder, keys, capsys):
    from .helpers import DECISION, DECISIONS

    (folder / "dec.csv").write_text(DECISIONS)
    code, _, err = run(capsys, "transparency", "check", "dec.csv", *DECISION, "--beta", "1",
                       "--certificate", "chk.json", "--sign", "k.pem")
    assert code == 0 and err == "skyprivacy transparency check: wrote chk.json, chk.json.sig\n"
    assert json.loads((folder / "chk.json.sig").read_text())["key_sha256"] == keys
    verify = ["transparency", "verify", "dec.csv", "--certificate", "chk.json"]
    code, out, err = run(capsys, *verify, "--public-key", "k.pem.pub")
    assert code == 0 and err == ""
    assert out.endswith(f" recomputed, signed by Ed25519 key {keys}, verdict certified.\n")
    code, out, _ = run(capsys, *verify, "--public-key", "k.pem.pub", "--format", "json")
    assert code == 0 and json.loads(out)["signed_by"] == keys
    code, out, _ = run(capsys, *verify)  # without a key: the signature is not read
    assert code == 0 and "signed by" not in out
    other = key_fingerprint((folder / "other.pub").read_bytes())
    assert_input_error(capsys, [*verify, "--public-key", "other.pub"],
                       f"^skyprivacy transparency verify: error: Certificate 'chk.json': The "
                       f"certificate was signed by key {keys}, not by the given key "
                       f"{other}\\.$")
    text = (folder / "chk.json").read_text()
    (folder / "chk.json").write_text(text.replace('"created": "2', '"created": "1'))
    assert_input_error(capsys, [*verify, "--public-key", "k.pem.pub"],
                       f"^skyprivacy transparency verify: error: Certificate 'chk.json': The "
                       f"signature does not match the certificate: it was changed after key "
                       f"{keys} signed it\\.$")
    (folder / "chk.json").write_text(text)
    edited = json.loads(text)
    edited["beta"]["value"] = 0.99  # any field: the bytes are signed
    (folder / "chk.json").write_text(json.dumps(edited, indent=2) + "\n")
    assert_input_error(capsys, [*verify, "--public-key", "k.pem.pub"],
                       "^skyprivacy transparency verify: error: Certificate 'chk.json': The "
                       "signature does not match the certificate")


def test_an_optimized_rule_is_signed_and_an_unsigned_one_is_one_line(folder, keys, capsys):
    from .helpers import DECISION, DECISIONS

    (folder / "dec.csv").write_text(DECISIONS)
    optimize = ["transparency", "optimize", "dec.csv", *DECISION, "--delta", "0.9",
                "--output", "ann.csv", "--certificate", "opt.json", "-q"]
    assert run(capsys, *optimize, "--sign", "k.pem")[0] == 0
    verify = ["transparency", "verify", "dec.csv", "--rule", "ann.csv", "--certificate",
              "opt.json", "--public-key", "k.pem.pub"]
    code, out, _ = run(capsys, *verify)
    assert code == 0 and f"signed by Ed25519 key {keys}, verdict certified." in out
    os.remove(folder / "opt.json.sig")  # an unsigned certificate, a key given
    assert_input_error(capsys, verify,
                       "^skyprivacy transparency verify: error: Cannot read signature file "
                       "'opt.json.sig': No such file or directory\\. --public-key checks the "
                       "signature that --sign writes beside the certificate\\.$")
    # --sign needs a private key and a certificate to sign, before any work
    assert_input_error(capsys, ["transparency", "check", "dec.csv", *DECISION, "--beta", "1",
                                "--certificate", "c2.json", "--sign", "k.pem.pub"],
                       "^skyprivacy transparency check: error: Key file 'k.pem.pub' "
                       "\\(--sign\\) holds a public key; --sign needs the private key "
                       "\\('skyprivacy keygen' writes both\\)\\.$", "c2.json", "c2.json.sig")
    code, out, err = run(capsys, "transparency", "check", "dec.csv", *DECISION, "--beta", "1",
                         "--sign", "k.pem")
    assert code == 2 and out == ""
    assert err == ("skyprivacy transparency check: error: --sign signs the certificate; give "
                   "--certificate JSON too (see skyprivacy transparency check --help)\n")


def test_the_rule_verifier_checks_a_signature_in_python(folder, keys):
    import pandas as pd

    from skyprivacy.certificate import generate_signing_key, sign_certificate
    from skyprivacy.errors import InvalidParameterError
    from skyprivacy.io import json_bytes
    from skyprivacy.transparency.certificate import (build_rule_certificate,
                                                     verify_rule_certificate)

    df = pd.DataFrame({"g": ["F", "F", "M", "M"], "s": ["a", "b", "a", "b"],
                       "w": [3, 1, 1, 1], "d": [0.5, 0.5, 0.2, 0.4]})
    data = json_bytes(build_rule_certificate(df, public="g", sensitive="s", weight="w",
                                             decision="d", beta=0.8))
    private, public = generate_signing_key()
    signature = sign_certificate(data, private)
    verification = verify_rule_certificate(df, None, data, public_key=public,
                                           signature=signature)
    assert verification.ok and verification.certified == {
        "signed_by": key_fingerprint(public)}
    assert verify_rule_certificate(df, None, data).certified is None
    with pytest.raises(InvalidParameterError, match="^verify_rule_certificate checks a "
                       "signature with both 'public_key' and 'signature'; one was not given"
                       "\\.$"):
        verify_rule_certificate(df, None, data, public_key=public)
    with pytest.raises(InvalidParameterError, match="^The 'certificate' parameter of "
                       "verify_rule_certificate must be the certificate's exact bytes to "
                       "check its signature\\. Got 'dict' instead\\.$"):
        verify_rule_certificate(df, None, json.loads(data), public_key=public,
                                signature=signature)
