"""Every field of a certificate, edited in turn (issue "Nothing released unexamined", item 3):
``verify_certificate`` rejects the edit (a difference, or a malformed certificate), or the
field is recomputed (the edit changes neither the verification nor what verify rewrites), or
the field is one no table can give back (:data:`skyprivacy.certificate.PROVENANCE`: checked
for its form only) -- and then a signed certificate rejects it.  Not a sample: the walk visits
every key and every leaf of svpi and mvpi certificates, with and without suppression (dropped
and masked rows), with a skyline policy, combined criteria and the risk section."""
from __future__ import annotations

import copy
from fractions import Fraction
import json

import pandas as pd
import pytest

from skyprivacy import Policy
from skyprivacy.anonymize import anonymize
from skyprivacy.certificate import (
    PROVENANCE,
    anonymization_certificate,
    build_certificate,
    certified_summary,
    generate_signing_key,
    sign_certificate,
    verify_certificate,
)
from skyprivacy.criteria import DistinctLDiversity, KAnonymity, SkylinePolicy
from skyprivacy.errors import InvalidParameterError, SchemaError
from skyprivacy.hierarchy import Hierarchy

POLICY = Policy({"flu": [(0, 1, 0, 0.9)]}, default=[(0, 0, 0, 0.95), (1, 1, 0, Fraction(2, 3))])
ZIPS = Hierarchy([["11", "1*", "*"], ["12", "1*", "*"], ["21", "2*", "*"], ["22", "2*", "*"],
                  ["31", "3*", "*"], ["32", "3*", "*"]])
CREATED = "2024-01-01T00:00:00Z"


def _svpi():
    table = pd.DataFrame({"zip": ["1*", "1*", "1*", "2*", "2*", "2*"],
                          "age": ["3*"] * 6,
                          "dx": ["flu", "cold", "hiv", "flu", "cold", "flu"]})
    cert = build_certificate(table, POLICY, qi=["zip", "age"], sensitive="dx",
                             created=CREATED, risk=True, population_size=600)
    return table, cert, None


def _mvpi():
    table = pd.DataFrame({"pid": ["a", "a", "b", "c", "c", "d"],
                          "zip": ["1*", "1*", "1*", "1*", "1*", "1*"],
                          "dx": ["flu", "cold", "flu", "hiv", "flu", "cold"]})
    cert = build_certificate(table, POLICY, qi="zip", sensitive="dx", individual="pid",
                             semantics="mvpi-set", created=CREATED)
    return table, cert, None


def _suppressed(mode):
    original = pd.DataFrame({"zip": ["11", "12", "21", "22"] * 3 + ["31", "32"],
                             "dx": ["a"] * 4 + ["b"] * 4 + ["c"] * 4 + ["a", "b"]})
    policy = Policy.uniform([(0, 0, 0, 0.9)])
    criteria = [SkylinePolicy(policy), KAnonymity(2), DistinctLDiversity(2)]
    result = anonymize(original, qi="zip", sensitive="dx", criteria=criteria,
                       method="full-domain", suppression_limit=0.2, suppressed=mode,
                       hierarchies={"zip": ZIPS})
    assert result.suppressed == 2
    reasons = [{"group": {"zip": z}, "n_rows": 1,
                "fails": ["KAnonymity(k=2)", "DistinctLDiversity(l=2)"]} for z in ("31", "32")]
    cert = anonymization_certificate(result, qi="zip", sensitive="dx", criteria=criteria,
                                     suppressed=mode, suppression_limit=0.2, reasons=reasons,
                                     created=CREATED)
    return result.table, cert, original


CASES = {"svpi": _svpi, "mvpi": _mvpi, "dropped": lambda: _suppressed("drop"),
         "masked": lambda: _suppressed("mask")}


def _paths(node, path=()):
    """Every path of a JSON document: each key's and each element's (the root excluded)."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*path, key)
            yield from _paths(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield (*path, i)
            yield from _paths(value, (*path, i))


def _leaf_edits(value) -> list:
    """Other values for a leaf: a changed value of the same type, and the same value spelled
    as another JSON type (``"5"`` for ``5``, ``1`` for ``true``, ``5.0`` for ``5``)."""
    if isinstance(value, bool):
        return [not value, int(value), str(value).lower()]
    if isinstance(value, int):
        return [value + 1, float(value), str(value)]
    if isinstance(value, float):
        return [value * 2 + 1, str(value)] + ([int(value)] if value.is_integer() else [])
    if isinstance(value, str):
        return [value + "x", ""] if value else ["x"]
    if value is None:
        return ["x", 0, False, {}]
    if isinstance(value, list):
        return [value + value[-1:] if value else ["x"]] + ([value[:-1]] if value else [])
    return [{**value, "edited": 1}]  # a dict: one more key


def _edits(cert):
    """(description, edited certificate) for every path: each key renamed and removed, each
    value replaced by every one of :func:`_leaf_edits`."""
    for path in _paths(cert):
        parent = cert
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        value = parent[last]
        options = []
        if isinstance(parent, dict):
            options.append(("renamed", lambda p, k=last: p.__setitem__(k + "_edited",
                                                                         p.pop(k))))
            options.append(("removed", lambda p, k=last: p.pop(k)))
        else:
            options.append(("removed", lambda p, k=last: p.pop(k)))
        for new in _leaf_edits(value):
            options.append((f"= {new!r}"[:60], lambda p, k=last, v=new: p.__setitem__(
                k, copy.deepcopy(v))))
        for how, edit in options:
            edited = copy.deepcopy(cert)
            target = edited
            for step in path[:-1]:
                target = target[step]
            edit(target)
            yield path, how, edited


def _pattern(path) -> str:
    return ".".join("[]" if isinstance(s, int) else s for s in path).replace(".[]", "[]")


def _provenance(path) -> bool:
    pattern = _pattern(path)
    return any(pattern == p or pattern.startswith(p + ".") or pattern.startswith(p + "[")
               for p in PROVENANCE)


def _verify(table, cert, original):
    try:
        return verify_certificate(table, cert, original=original)
    except (InvalidParameterError, SchemaError):
        return None


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_field_edited_is_rejected_or_recomputed(case):
    table, cert, original = CASES[case]()
    base = verify_certificate(table, cert, original=original)
    assert base.ok, base.differences
    accepted = []
    n_edits = 0
    for path, how, edited in _edits(cert):
        n_edits += 1
        result = _verify(table, edited, original)
        if result is None or not result.ok:
            continue  # rejected
        if _provenance(path):
            # no table gives it back: checked for its form, and it changes nothing verify
            # recomputes or states (a signature makes it tamper-evident, below)
            assert (result.recomputed, result.certified) == (base.recomputed, base.certified) \
                or path == ("created",), path
            continue
        if path == ("risk",) and how == "removed":
            # the optional risk section removed: the certificate claims less, and verify
            # recomputes (and says) less
            assert "risk" not in result.recomputed and "risk" in base.recomputed
            continue
        if path == ("normalization",) and how == "removed":
            # a certificate without normalization is one made before text was normalized:
            # verify compares the text as written (here it gives the same verdict) and says so
            assert certified_summary(edited)["text"] == "as written"
            assert "normalization" not in result.recomputed
            continue
        accepted.append(f"{_pattern(path)} {how}")
    assert accepted == [], f"{len(accepted)} of {n_edits} edits were accepted: {accepted[:20]}"
    assert n_edits > 100


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_signed_certificate_rejects_every_edit(case):
    table, cert, original = CASES[case]()
    private, public = generate_signing_key()
    data = json.dumps(cert, indent=2).encode()
    signature = sign_certificate(data, private)
    signed = verify_certificate(table, data, original=original, public_key=public,
                                signature=signature)
    assert signed.ok and len(signed.certified["signed_by"]) == 64
    for _path, _how, edited in _edits(cert):
        with pytest.raises(InvalidParameterError, match="changed after key"):
            verify_certificate(table, json.dumps(edited, indent=2).encode(), original=original,
                               public_key=public, signature=signature)
