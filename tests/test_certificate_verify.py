"""verify says what it verified and refuses what it cannot check (issue "Nothing released
unexamined", item 3): the certified summary and the pins, unknown fields, duplicate keys and
checks, every field's form and value, and the signature API (item 4)."""
import copy
import json
import re
from fractions import Fraction

import pandas as pd
import pytest

from skyprivacy import Policy
from skyprivacy.anonymize import anonymize
from skyprivacy.certificate import (
    anonymization_certificate,
    build_certificate,
    certified_summary,
    generate_signing_key,
    key_fingerprint,
    parse_certificate_json,
    policy_digest,
    sign_certificate,
    verify_certificate,
    verify_signature,
)
from skyprivacy.criteria import KAnonymity, SkylinePolicy
from skyprivacy.errors import InvalidParameterError



def exactly(message: str) -> str:
    """A ``match=`` pattern for the whole message."""
    return "^" + re.escape(message) + "$"

TABLE = pd.DataFrame({"zip": ["1*", "1*", "2*", "2*"], "age": ["3*"] * 4,
                      "dx": ["flu", "cold", "flu", "hiv"]})
POLICY = Policy.uniform([(0, 0, 0, 0.9)])


@pytest.fixture
def cert():
    return build_certificate(TABLE, POLICY, qi=["zip", "age"], sensitive="dx",
                             created="2024-01-01T00:00:00Z")


def edited(cert, change):
    out = copy.deepcopy(cert)
    change(out)
    return out


def test_the_summary_names_what_is_certified(cert):
    result = verify_certificate(TABLE, cert)
    assert result.ok
    assert result.certified == certified_summary(cert) == {
        "qi": ["zip", "age"], "group": None, "sensitive": "dx", "kept": None,
        "policy_sha256": policy_digest(POLICY), "criteria": None,
        "text": "NFC, whitespace strip", "verdict": "safe"}
    classified = {**cert, "classification": {"qi": ["zip", "age"], "sensitive": "dx",
                                             "kept": ["note"], "dropped": []}}
    assert certified_summary(classified)["kept"] == ["note"]
    # the digest is the policy's, however its thresholds are written
    assert policy_digest(Policy.uniform([(0, 0, 0, Fraction(9, 10))])) == policy_digest(POLICY)
    assert policy_digest(Policy.uniform([(0, 0, 0, 0.8)])) != policy_digest(POLICY)


def test_pins_fail_with_one_sentence_each(cert):
    assert verify_certificate(TABLE, cert, qi=["age", "zip"], sensitive="dx",
                              policy=POLICY).ok
    assert verify_certificate(TABLE, cert, qi="zip").differences == (
        "The certificate certifies the QIs ['age', 'zip'], not the expected ['zip'].",)
    assert verify_certificate(TABLE, cert, sensitive="zip").differences == (
        "The certificate certifies the sensitive column 'dx', not the expected 'zip'.",)
    other = Policy.uniform([(0, 0, 0, 0.5)])
    assert verify_certificate(TABLE, cert, policy=other).differences == (
        f"The certificate certifies the policy with sha256 {policy_digest(POLICY)}, not the "
        f"expected policy (sha256 {policy_digest(other)}).",)
    assert verify_certificate(TABLE, cert, policy=[SkylinePolicy(POLICY), KAnonymity(2)]
                              ).differences == (
        "The certificate certifies the criteria None, not the expected {'k': [2]}.",)
    assert verify_certificate(TABLE, cert, policy=[KAnonymity(2)]).differences[0] == (
        f"The certificate certifies the policy with sha256 {policy_digest(POLICY)}, not the "
        f"expected none.")
    bucketized = build_certificate(TABLE, POLICY, group="zip", sensitive="dx")
    assert verify_certificate(TABLE, bucketized, qi="zip").differences == (
        "The certificate certifies a bucketized release (group column 'zip'), not the "
        "expected QIs ['zip'].",)
    with pytest.raises(InvalidParameterError, match="'sensitive' parameter"):
        verify_certificate(TABLE, cert, sensitive=["dx"])
    # a pin is said even when the table does not match
    changed = TABLE.assign(dx=["flu", "flu", "flu", "hiv"])
    differences = verify_certificate(changed, cert, sensitive="zip").differences
    assert differences[0].startswith("The certificate certifies the sensitive column")
    assert differences[1].startswith("The table does not match the certificate")


@pytest.mark.parametrize("change, message", [
    (lambda c: c.update(note="hi"), "unknown field 'note' (a table certificate holds "
                                    "['anonymization', 'checks', 'classification', 'created', "
                                    "'criteria', 'kind', 'labels', 'library', "
                                    "'normalization', 'parameters', 'policy', 'release', "
                                    "'risk', 'safe', 'schema_version', 'table', "
                                    "'unused_policy_values', 'verdict'])"),
    (lambda c: c["checks"].append(dict(c["checks"][0])),
     "the check 'cold' at (l=0, k=0, m=0, c=9/10) occurs twice in 'checks'"),
    (lambda c: c.pop("release"), "missing field(s) ['release']"),
    (lambda c: c.pop("created"), "missing field(s) ['created']"),
    (lambda c: c.update(created="yesterday"),
     "'created' must be an ISO 8601 time with its time zone, not 'yesterday'"),
    (lambda c: c.update(created="2024-01-01T00:00:00"),
     "'created' must be an ISO 8601 time with its time zone, not '2024-01-01T00:00:00'"),
    (lambda c: c.update(library={"name": "other", "version": "1"}),
     "'library' must be {'name': 'skyprivacy', 'version': text}, not "
     "{\"name\": \"other\", \"version\": \"1\"}"),
    (lambda c: c.update(schema_version=True),
     "schema_version True is not supported (this skyprivacy reads 1)"),
    (lambda c: c["parameters"].update(extra=1),
     "'parameters' must hold exactly 'qi', 'group', 'sensitive', 'individual' and "
     "'semantics', not ['extra', 'group', 'individual', 'qi', 'semantics', 'sensitive']"),
    (lambda c: c.update(criteria={"spec": {"k": [2]}, "results": []}),
     "'criteria' needs the 'anonymization' section it was certified with"),
])
def test_a_certificate_that_cannot_be_checked_is_malformed(cert, change, message):
    with pytest.raises(InvalidParameterError,
                       match=exactly(f"The certificate is malformed: {message}.")):
        verify_certificate(TABLE, edited(cert, change))


@pytest.mark.parametrize("change, message", [
    (lambda c: c["release"].update(n_groups=999),
     "The field 'release.n_groups' differs: the certificate records 999, the table gives 2."),
    (lambda c: c["release"].update(n_groups=2.0),
     "The field 'release.n_groups' differs: the certificate records 2.0, the table gives 2."),
    (lambda c: c["release"].pop("max_group_size"),
     "The certificate has no field 'release.max_group_size'; the table gives 2."),
    (lambda c: c["release"].update(mean=2),
     "The certificate has a field 'release.mean' that a certificate does not hold."),
    (lambda c: c["checks"][0].update(worst_case="No attacker can learn anything."),
     "The field \"checks['cold' at (l=0, k=0, m=0, c=9/10)].worst_case\" differs: the "
     "certificate records 'No attacker can learn anything.', the table gives \"The target is "
     "in group [zip=1*, age=3*] (2 people, 1 occurrence of 'cold'). ...."),
    (lambda c: c["checks"][0].update(safe=1),
     "The field \"checks['cold' at (l=0, k=0, m=0, c=9/10)].safe\" differs: the certificate "
     "records 1, the table gives true."),
    (lambda c: c["table"].update(n_rows=5),
     "The field 'table.n_rows' differs: the certificate records 5, the table gives 4."),
    (lambda c: c["policy"]["default"][0].__setitem__(3, "9/10"),
     "The field 'policy.default[0][3]' differs: the certificate records '9/10', the table "
     "gives 0.9."),
    (lambda c: c.update(unused_policy_values=["hiv"]),
     "The field 'unused_policy_values' differs: the certificate records [\"hiv\"], the table "
     "gives []."),
])
def test_every_other_field_is_recomputed(cert, change, message):
    assert verify_certificate(TABLE, edited(cert, change)).differences == (message,)


def test_certificate_text_refuses_duplicate_keys(cert):
    text = json.dumps(cert)
    assert verify_certificate(TABLE, text).ok and verify_certificate(TABLE, text.encode()).ok
    doubled = text.replace('"verdict": "safe"', '"verdict": "unsafe", "verdict": "safe"')
    with pytest.raises(InvalidParameterError, match=exactly(
            "The certificate is malformed: the key 'verdict' occurs twice in one object (a "
            "JSON reader keeps only the last).")):
        verify_certificate(TABLE, doubled)
    with pytest.raises(InvalidParameterError, match=exactly(
            "The certificate is malformed: expected a JSON object, got list.")):
        parse_certificate_json("[1]")
    with pytest.raises(InvalidParameterError, match="^The certificate is malformed: it is not "
                                                    "JSON \\(Expecting property name"):
        parse_certificate_json("{")
    with pytest.raises(InvalidParameterError, match="'text' parameter"):
        parse_certificate_json({"a": 1})


def _anonymized():
    table = pd.DataFrame({"zip": ["11", "12", "21", "22"], "dx": ["a", "b", "a", "b"]})
    from skyprivacy.hierarchy import Hierarchy
    tree = Hierarchy([["11", "1*", "*"], ["12", "1*", "*"], ["21", "2*", "*"],
                      ["22", "2*", "*"]])
    result = anonymize(table, qi="zip", sensitive="dx", criteria=[KAnonymity(2)],
                       method="full-domain", hierarchies={"zip": tree})
    return result.table, anonymization_certificate(result, qi="zip", sensitive="dx",
                                                   criteria=[KAnonymity(2)])


@pytest.mark.parametrize("change, message", [
    (lambda a: a.update(note=1),
     "The certificate has a field 'anonymization.note' that a certificate does not hold."),
    (lambda a: a["suppression"].update(note=1), "The certificate has a field "
     "'anonymization.suppression.note' that a certificate does not hold."),
    (lambda a: a.update(method=""),
     "The field 'anonymization.method' must be the method's name, not ''."),
    (lambda a: a.update(levels={"age": 1}), "The field 'anonymization.levels' must be null or "
     "a level >= 0 for each QI of ['zip'], not {\"age\": 1}."),
    (lambda a: a["objective"].update(value_float=7.5), "The field 'anonymization.objective' "
     "must be {'name', 'value' ('p/q' or null), 'value_float' (its float)}, not "),
    (lambda a: a["search"].update(nodes_checked=-1), "The field 'anonymization.search' must "
     "be {'nodes_checked', 'lattice_size'}, each null or a count, not "),
    (lambda a: a["suppression"].update(groups=[{"group": {"zip": "3*"}, "n_rows": 0}]),
     "The field 'anonymization.suppression.groups[0]' must be {'group': a label per QI, "
     "'n_rows', 'fails': the criteria it fails}, not "),
    (lambda a: a["partition"].update(n_groups=2.0), "The field 'anonymization.partition."
     "n_groups' differs: the certificate records 2.0, the table gives 2."),
])
def test_the_anonymization_record_is_checked_field_by_field(change, message):
    table, cert = _anonymized()
    assert verify_certificate(table, cert).ok
    forged = copy.deepcopy(cert)
    change(forged["anonymization"])
    differences = verify_certificate(table, forged).differences
    assert len(differences) == 1 and differences[0].startswith(message), differences


def test_signatures_in_python(cert):
    private, public = generate_signing_key()
    data = json.dumps(cert).encode()
    signature = sign_certificate(data, private)
    assert key_fingerprint(private) == key_fingerprint(public) == verify_signature(
        data, signature, public)
    result = verify_certificate(TABLE, data, public_key=public, signature=signature)
    assert result.ok and result.certified["signed_by"] == key_fingerprint(public)
    with pytest.raises(InvalidParameterError, match=exactly(
            "verify_certificate checks a signature with both 'public_key' and 'signature'; "
            "one was not given.")):
        verify_certificate(TABLE, data, public_key=public)
    with pytest.raises(InvalidParameterError, match="'certificate' parameter of "
                                                    "verify_certificate must be the "
                                                    "certificate's exact bytes"):
        verify_certificate(TABLE, cert, public_key=public, signature=signature)
    with pytest.raises(InvalidParameterError, match="'certificate' parameter of "
                                                    "sign_certificate"):
        sign_certificate(cert, private)
    with pytest.raises(InvalidParameterError, match="'public_key' parameter of signing"):
        verify_signature(data, signature, 5)
    with pytest.raises(InvalidParameterError, match=exactly(
            "The public key is not an unencrypted Ed25519 public key in PEM form; it holds a "
            "private key.")):
        verify_signature(data, signature, private)
    with pytest.raises(InvalidParameterError, match="it was changed after key"):
        verify_signature(data + b" ", signature, public)
