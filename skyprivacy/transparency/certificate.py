"""Decision-rule certificates: a checkable record of a transparency report's announced rule.

The certificate of Chen, Golubchik and Pal's decision rule (the rule a transparency report
announces, certified against a confidence bound beta or as the optimal scheme under a fidelity
constraint) is the table certificate's sibling: it opens with the same header, pins its two
tables (the decision table and the announced rule) by the same canonical CSV hash, and is
verified by recomputing every number it records.  The canonical serialization, the hash and
the shared layout live in :mod:`skyprivacy.certificate`; what is particular to decision rules
(the confidences, beta*, the fidelity achieved) is computed here with this package's
functions.

Everything here is pure: no file is read or written (see :mod:`skyprivacy.io`).
"""

from __future__ import annotations

import hashlib
import math
import warnings
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from .._core.encoding import as_numbers, require_columns
from ..certificate import (
    CANONICAL_FORM,
    Verification,
    certificate_header,
    hash_difference,
    malformed,
    parse_certificate_json,
    parse_header,
    signer,
    table_sha256,
    text_table,
)
from ..errors import InvalidParameterError, SchemaError, param_error
from .certify import (
    announced_matrix,
    confidence_matrix,
    group_max_confidence,
    max_confidence_of,
    resolve_beta,
)
from .fidelity import Alpha, Delta, fidelity_bounds
from .optimal import optimal_privacy
from .table import DecisionTable

__all__ = ["RULE_CERTIFICATE_SCHEMA_VERSION", "build_rule_certificate", "verify_rule_certificate",
           "cell_digests"]

#: Version of the decision-rule certificate layout (:func:`verify_rule_certificate`).
RULE_CERTIFICATE_SCHEMA_VERSION = 1
_RULE_KIND = "skyprivacy.rule-certificate"
_RULE_TOL = 1e-9


def _names(value, name: str, owner: str) -> list:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Sequence) and value and all(isinstance(c, str) for c in value):
        return list(value)
    raise param_error(name, owner, "be a column name or a non-empty list of column names", value)


def _number_of(value, exact: bool) -> dict:
    """A number as the certificate records it: the float, and the fraction when exact."""
    return {"value": float(value), "exact": str(value) if exact else None}


def _decision_table_of(text: pd.DataFrame, parameters: Mapping):
    """The DecisionTable of a decision table's text, numbers parsed as the CLI parses them."""
    frame = text.copy()
    for column in dict.fromkeys([parameters["weight"], *parameters["decision"]]):
        numbers = as_numbers(text[column])
        if numbers is None:
            bad = next(v for v in text[column] if as_numbers(pd.Series([v])) is None)
            raise SchemaError(f"Column {column!r} must hold numbers; it holds {bad!r}.")
        frame[column] = numbers.astype(float)
    decision = parameters["decision"]
    with warnings.catch_warnings():  # risks of the table are reported by the check itself
        warnings.simplefilter("ignore")
        return DecisionTable.from_frame(
            frame, public=parameters["public"], sensitive=parameters["sensitive"],
            weight=parameters["weight"], decision=decision[0] if len(decision) == 1 else decision)


def _announced_of(table, rule_text: pd.DataFrame, parameters: Mapping):
    """The announced rule as an (n, outcomes) array: the rule's columns, aligned row by row
    with the decision table (same keys in the same order), or the true rule."""

    announced = parameters["announced"]
    if announced is None:
        return None
    keys = [*parameters["public"], *parameters["sensitive"]]
    mine = text_table(table.frame[keys])
    theirs = rule_text[keys].reset_index(drop=True)
    if len(theirs) != len(mine) or not mine.equals(theirs):
        raise SchemaError("The rule's rows do not match the decision table's: the public and "
                          "sensitive columns must list the same records in the same order.")
    values = []
    for column in announced:
        if parameters["exact"]:  # exact rules are written as fractions 'p/q'
            try:
                values.append(np.array([Fraction(str(v)) for v in rule_text[column]],
                                       dtype=object))
                continue
            except (ValueError, ZeroDivisionError):
                pass
        numbers = as_numbers(rule_text[column])
        if numbers is None:
            bad = next(v for v in rule_text[column] if as_numbers(pd.Series([v])) is None)
            raise SchemaError(f"Column {column!r} must hold numbers; it holds {bad!r}.")
        values.append(numbers.astype(float).to_numpy())
    return values[0] if len(values) == 1 else np.column_stack(values)


def _achieved_fidelity(true: np.ndarray, announced: np.ndarray) -> dict:
    """delta and alpha the announced rule attains against the true one (Defs. 5 and 6):
    delta = 1 - max |D~ - D|; alpha = the largest a with a D <= D~ <= D / a everywhere."""
    diff = max((abs(a - b) for a, b in zip(announced.ravel(), true.ravel())), default=0)
    alpha = 1
    for a, d in zip(announced.ravel(), true.ravel()):
        if d == 0 and a == 0:
            continue
        if d == 0 or a == 0:
            alpha = 0
            break
        alpha = min(alpha, a / d, d / a)
    return {"delta": 1 - diff, "alpha": alpha}


def _fidelity_of(spec) -> object:
    if spec is None:
        return None
    if isinstance(spec, (Delta, Alpha)):
        return spec
    if isinstance(spec, Mapping) and spec.get("kind") in ("delta", "alpha") and \
            isinstance(spec.get("value"), (int, float)):
        return (Delta if spec["kind"] == "delta" else Alpha)(spec["value"])
    raise param_error("fidelity", "build_rule_certificate", "be a Delta or an Alpha", spec)


def build_rule_certificate(table: pd.DataFrame, rule: pd.DataFrame | None = None, *, public,
                           sensitive, weight: str, decision, announced=None, beta=None,
                           gamma=None, fidelity=None, optimal: bool = False,
                           exact: bool = False, created: str | None = None) -> dict:
    """A certificate for the decision rule of a transparency report (Chen, Golubchik and Pal).

    It pins the decision table and the announced rule by the SHA-256 of their canonical CSV
    (the same serialization as :func:`skyprivacy.certificate.build_certificate`) and records
    every number an auditor needs to recompute: the certified beta, beta* of the optimal
    scheme when the rule was optimized, the maximum confidence of the announced rule and the
    QID groups that set it, the fidelity constraint and the fidelity the rule actually
    achieves.

    Parameters
    ----------
    table : pandas.DataFrame
        The decision table as published (one row per decision region).
    rule : pandas.DataFrame, optional
        The table holding the announced rule: the public and sensitive columns, in the
        decision table's row order, and the ``announced`` column(s).  Default: ``table``.
    public, sensitive, weight, decision
        As :meth:`skyprivacy.transparency.DecisionTable.from_frame`.
    announced : str or list of str, optional
        Column(s) of ``rule`` holding the announced d~ (one per outcome for more than two);
        None certifies the true rule (the ``decision`` columns).
    beta, gamma : float, optional
        Certify the rule against this confidence bound (or minimum uncertainty).
    fidelity : Delta or Alpha, optional
        A fidelity constraint the announced rule must meet.
    optimal : bool, default False
        Certify the rule as the optimal scheme under ``fidelity``: the certified beta is
        beta* of :func:`skyprivacy.transparency.optimal_privacy`, recomputed here.
    exact : bool, default False
        Compute with Fractions; the certificate then records exact values.  Otherwise floats
        with a relative tolerance of 1e-9, which the certificate records.
    created : str, optional
        UTC time stamp (ISO 8601); default now.

    Returns
    -------
    dict
        JSON-ready; the fields are documented in ``docs/certificates.md``.

    Raises
    ------
    InvalidParameterError
        Neither or both of (beta or gamma) and ``optimal``; ``optimal`` without a fidelity.
    SchemaError
        A missing column, non-numeric weights or decisions, or rule rows that do not match.

    References
    ----------
    Chen, Golubchik and Pal (2022), Definition 4 (beta-maximum confidence), Definitions 5-6
    (fidelity), Theorem 1 and Lemma 3 (beta*).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"g": ["F"] * 3, "s": ["low", "mid", "high"],
    ...                    "w": [139, 9, 2], "d": [0.0, 0.0, 1.0]})
    >>> cert = build_rule_certificate(df, public="g", sensitive="s", weight="w",
    ...                               decision="d", beta=0.95, exact=True,
    ...                               created="2024-01-01T00:00:00Z")
    >>> cert["verdict"], cert["max_confidence"]["exact"]
    ('not certified', '1')
    >>> verify_rule_certificate(df, None, cert).ok
    True
    """
    owner = "build_rule_certificate"
    for name, frame in (("table", table), ("rule", rule)):
        if frame is not None and not isinstance(frame, pd.DataFrame):
            raise param_error(name, owner, "be a pandas DataFrame", type(frame).__name__)
    if isinstance(optimal, bool) is False:
        raise param_error("optimal", owner, "be True or False", optimal)
    if optimal == (beta is not None or gamma is not None):
        raise InvalidParameterError(
            f"{owner} needs exactly one of a confidence bound (beta or gamma) and "
            f"optimal=True (certify beta* of the optimal scheme).")
    fidelity = _fidelity_of(fidelity)
    if optimal and fidelity is None:
        raise InvalidParameterError(f"{owner} with optimal=True needs the fidelity constraint "
                                    f"the rule was optimized under (Delta or Alpha).")
    parameters: dict[str, Any] = {
        "public": _names(public, "public", owner),
        "sensitive": _names(sensitive, "sensitive", owner),
        "weight": weight, "decision": _names(decision, "decision", owner),
        "announced": None if announced is None else _names(announced, "announced", owner),
        "exact": bool(exact), "tolerance": 0 if exact else _RULE_TOL}
    text = text_table(table)
    require_columns_of(text, [*parameters["public"], *parameters["sensitive"], weight,
                              *parameters["decision"]])
    rule_source = table if rule is None else rule
    rule_text = text_table(rule_source)
    rule_columns = [*parameters["public"], *parameters["sensitive"],
                    *(parameters["announced"] or parameters["decision"])]
    require_columns_of(rule_text, rule_columns)
    decision_table = _decision_table_of(text, parameters)
    announced_values = _announced_of(decision_table, rule_text, parameters)
    dist = announced_matrix(decision_table, announced_values, exact=exact, owner=owner)
    true = decision_table.decision_matrix(exact=exact)
    conf = confidence_matrix(decision_table, dist, exact=exact)
    worst = max_confidence_of(decision_table, conf)
    # numbers below are Fractions when exact, else floats (typed object where they come from)
    worst_conf: Any = worst.conf
    target: Any
    beta_star = None
    if optimal:
        beta_star = optimal_privacy(decision_table, fidelity, exact=exact).beta_star
        target = beta_star
    else:
        target = resolve_beta(beta, gamma, owner)
        target = Fraction(str(target)) if exact else float(target)
    per_group = group_max_confidence(decision_table, conf)
    bar = min(target, worst_conf)
    reach = [g for g, v in enumerate(per_group)
             if (v >= bar if exact else float(v) >= float(bar) * (1 - _RULE_TOL))]
    achieved = _achieved_fidelity(true, dist)
    holds = None
    if fidelity is not None:
        bounds = fidelity_bounds(decision_table, fidelity, exact=exact)
        slack = 0 if exact else _RULE_TOL
        holds = bool(np.all(dist >= bounds.lower - slack) and np.all(dist <= bounds.upper + slack))
    private = bool(worst_conf <= target if exact else
                   float(worst_conf) <= float(target) * (1 + _RULE_TOL))
    satisfied = private and holds is not False
    return {
        **certificate_header(RULE_CERTIFICATE_SCHEMA_VERSION, _RULE_KIND, created),
        "table": {"sha256": table_sha256(table), "canonical_form": CANONICAL_FORM,
                  "n_rows": int(len(table)), "columns": [str(c) for c in table.columns],
                  "cell_sha256": cell_digests(text)},
        "rule": {"sha256": table_sha256(rule_text[rule_columns]),
                 "canonical_form": CANONICAL_FORM, "n_rows": int(len(rule_text)),
                 "columns": rule_columns,
                 "cell_sha256": cell_digests(rule_text[rule_columns])},
        "parameters": parameters,
        "mode": "optimize" if optimal else "check",
        "beta": {**_number_of(target, exact), "gamma": -math.log(float(target)) + 0.0},
        "beta_star": None if beta_star is None else _number_of(beta_star, exact),
        "max_confidence": {**_number_of(worst_conf, exact),
                           "group": [_plain(v) for v in worst.group],
                           "outcome": _plain(worst.outcome),
                           "sensitive": _plain(worst.sensitive)},
        "groups_reaching_beta": [
            {"group": [_plain(v) for v in decision_table.group_keys[g]],
             "max_confidence": _number_of(per_group[g], exact)} for g in reach],
        "fidelity": {"constraint": None if fidelity is None else {
                         "kind": "delta" if hasattr(fidelity, "delta") else "alpha",
                         "value": float(getattr(fidelity, "delta",
                                                getattr(fidelity, "alpha", 0)))},
                     "achieved": {k: _number_of(v, exact) for k, v in achieved.items()},
                     "holds": holds},
        "private": private,
        "satisfied": satisfied,
        "verdict": "certified" if satisfied else "not certified",
    }


#: Hex digits kept of each cell's SHA-256 in ``cell_sha256``: enough to tell which cell
#: changed (the table's own ``sha256`` is what certifies it).
_CELL_DIGITS = 16
#: Changed cells named one by one in a difference; more are counted.
_CELLS_NAMED = 100


def _cell_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:_CELL_DIGITS]


def cell_digests(text: pd.DataFrame) -> list[list[str]]:
    """The ``cell_sha256`` of a table's text (:func:`skyprivacy.certificate.text_table`): one
    list per row, one digest per column (the first 16 hex digits of the SHA-256 of the
    cell's UTF-8 text), so ``verify`` can name each changed row and cell.

    Examples
    --------
    >>> cell_digests(pd.DataFrame({"g": ["F"], "d": ["0.5"]}))[0][0]
    'f67ab10ad4e4c531'
    """
    return [[_cell_digest(str(cell)) for cell in row]
            for row in text.itertuples(index=False, name=None)]


def _changed_cells(text: pd.DataFrame, entry: Mapping, keys: list) -> str:
    """Which rows and cells of a table differ from the ones a certificate's entry records
    (``columns`` and ``cell_sha256``), as a clause; '' when it records no cell digests."""
    recorded = entry.get("cell_sha256")
    columns = entry.get("columns")
    if not isinstance(recorded, list) or not isinstance(columns, list):
        return ""
    parts = []
    missing = [c for c in columns if c not in text.columns]
    added = [c for c in text.columns if c not in columns]
    if missing or added:
        parts += [f"column {c!r} is missing" for c in missing]
        parts += [f"column {c!r} was added" for c in added]
    shared = [c for c in columns if c in text.columns]
    where = {c: i for i, c in enumerate(columns)}
    actual = cell_digests(text[shared])
    changed = []
    for r in range(min(len(actual), len(recorded))):
        row = recorded[r]
        for j, column in enumerate(shared):
            if not isinstance(row, list) or len(row) != len(columns) \
                    or row[where[column]] != actual[r][j]:
                label = ", ".join(f"{k}={text.iloc[r][k]}" for k in keys if k in text.columns)
                changed.append(f"row {r + 1}{f' ({label})' if label else ''}, column "
                               f"{column!r} (now {text.iloc[r][column]!r})")
    parts += changed[:_CELLS_NAMED]
    if len(changed) > _CELLS_NAMED:
        parts.append(f"and {len(changed) - _CELLS_NAMED} more cells")
    for first, last, what in ((len(recorded) + 1, len(actual), "added"),
                              (len(actual) + 1, len(recorded), "removed")):
        if first == last:
            parts.append(f"row {first} was {what}")
        elif first < last:
            parts.append(f"rows {first} to {last} were {what}")
    if not parts:
        parts.append("no cell differs; the columns are in another order"
                     if [str(c) for c in text.columns] != columns else "no cell differs")
    return "; changed: " + "; ".join(parts)


def _plain(value):
    """A JSON-native copy of a key value (numpy scalars and tuples made plain)."""
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if hasattr(value, "item"):
        return value.item()
    return value if isinstance(value, (str, int, float, bool)) or value is None else str(value)


def require_columns_of(text: pd.DataFrame, columns) -> None:
    """The house SchemaError for the first column a table lacks."""

    require_columns(text, list(dict.fromkeys(columns)))


_RULE_REQUIRED = {"schema_version", "kind", "table", "rule", "parameters", "mode", "beta",
                  "beta_star", "max_confidence", "groups_reaching_beta", "fidelity", "private",
                  "satisfied", "verdict"}


def _parse_rule(certificate: Mapping) -> dict:
    """Validate a decision-rule certificate; return the keyword arguments that rebuild it."""
    parse_header(certificate, _RULE_KIND, RULE_CERTIFICATE_SCHEMA_VERSION, _RULE_REQUIRED,
                 ("table", "rule"))
    parameters = certificate["parameters"]
    if not isinstance(parameters, Mapping):
        raise malformed("'parameters' must be an object")
    try:
        kwargs: dict[str, Any] = {
            "public": _names(parameters.get("public"), "public", "verify"),
            "sensitive": _names(parameters.get("sensitive"), "sensitive", "verify"),
            "decision": _names(parameters.get("decision"), "decision", "verify")}
        if parameters.get("announced") is not None:
            kwargs["announced"] = _names(parameters["announced"], "announced", "verify")
    except InvalidParameterError as exc:
        raise malformed(f"'parameters' are invalid ({str(exc).rstrip('.')})") from None
    if not isinstance(parameters.get("weight"), str):
        raise malformed("'parameters.weight' must be a column name")
    kwargs["weight"] = parameters["weight"]
    kwargs["exact"] = bool(parameters.get("exact"))
    mode = certificate["mode"]
    if mode not in ("check", "optimize"):
        raise malformed(f"'mode' is {mode!r}, expected 'check' or 'optimize'")
    beta = certificate["beta"]
    try:
        if mode == "check":
            kwargs["beta"] = (Fraction(beta["exact"]) if kwargs["exact"]
                              else float(beta["value"]))
        else:
            kwargs["optimal"] = True
        constraint = (certificate["fidelity"] or {}).get("constraint")
        if constraint is not None:
            kwargs["fidelity"] = _fidelity_of(constraint)
    except (TypeError, KeyError, ValueError, ZeroDivisionError, InvalidParameterError):
        raise malformed("its beta or fidelity constraint cannot be read") from None
    return kwargs


def verify_rule_certificate(table: pd.DataFrame, rule: pd.DataFrame | None,
                            certificate: Mapping | str | bytes, *,
                            public_key: bytes | str | None = None,
                            signature: bytes | str | None = None) -> Verification:
    """Recompute a decision-rule certificate and list every difference.

    Both tables are hashed as :func:`build_rule_certificate` hashes them; then every recorded
    number is recomputed from them with the certificate's own parameters and compared: the
    certified beta (beta* recomputed for an optimized rule), the maximum confidence and where
    it is attained, the groups that reach beta, the fidelity achieved and whether the
    constraint holds, and the verdict.

    Parameters
    ----------
    table : pandas.DataFrame
        The decision table.
    rule : pandas.DataFrame or None
        The table holding the announced rule (None: the decision table holds it).
    certificate : mapping, str or bytes
        A certificate made by :func:`build_rule_certificate` (parsed JSON, or the JSON text
        of its file: its exact bytes when its signature is checked).
    public_key, signature : bytes or str, optional
        An Ed25519 public key (PEM) and the detached signature file ``--sign`` writes
        (:func:`skyprivacy.certificate.sign_certificate`): the certificate's bytes must be
        that key's signature, as :func:`skyprivacy.certificate.verify_certificate` checks
        a release certificate's.

    Returns
    -------
    Verification
        ``certified`` is ``{"signed_by": fingerprint}`` when the signature was checked, else
        None.

    Raises
    ------
    InvalidParameterError
        If the certificate is malformed, or its signature is not the key's signature of its
        bytes (one line naming both keys, or saying it was changed after it was signed).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"g": ["F", "F", "M", "M"], "s": ["a", "b", "a", "b"],
    ...                    "w": [3, 1, 1, 1], "d": [0.5, 0.5, 0.2, 0.4]})
    >>> cert = build_rule_certificate(df, public="g", sensitive="s", weight="w", decision="d",
    ...                               beta=0.8)
    >>> cert["verdict"]
    'certified'
    >>> verify_rule_certificate(df.assign(d=[0.5, 0.5, 0.2, 0.5]), None, cert).differences[0][:40]
    'The decision table does not match the ce'
    """
    signed_by = signer(certificate, signature, public_key, "verify_rule_certificate")
    if isinstance(certificate, (str, bytes)):
        certificate = parse_certificate_json(certificate)
    certified = None if signed_by is None else {"signed_by": signed_by}
    kwargs = _parse_rule(certificate)
    keys = [*kwargs["public"], *kwargs["sensitive"]]
    rule_text = text_table(table if rule is None else rule)
    rule_text = rule_text[[c for c in certificate["rule"].get("columns", [])
                           if c in rule_text.columns]]
    differences = [d.rstrip(".") + _changed_cells(text, certificate[name], keys) + "."
                   for d, text, name in (
                       (hash_difference("decision table", table, certificate["table"]["sha256"]),
                        text_table(table), "table"),
                       (hash_difference("announced rule", rule_text,
                                        certificate["rule"]["sha256"]), rule_text, "rule"))
                   if d]
    try:
        recomputed = build_rule_certificate(table, rule, created=certificate.get("created"),
                                            **kwargs)
    except (SchemaError, InvalidParameterError) as exc:
        if differences:  # an edited table that no longer reads: the hash says enough
            return Verification(False, tuple(differences), None, certified)
        raise SchemaError(f"The tables cannot be read with the certificate's parameters: "
                          f"{exc}") from None

    def number(entry) -> object:
        if not isinstance(entry, Mapping):
            return entry
        return Fraction(entry["exact"]) if entry.get("exact") is not None else entry.get("value")

    def same(a, b) -> bool:
        a, b = number(a), number(b)
        if isinstance(a, Fraction) or isinstance(b, Fraction):
            return a == b
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)
        return a == b

    for field_name, label in (("beta", "certified beta"), ("beta_star", "beta* of the optimal "
                                                                        "scheme"),
                              ("max_confidence", "maximum confidence of the announced rule")):
        ours, theirs = recomputed[field_name], certificate[field_name]
        if (ours is None) != (theirs is None) or (ours is not None and not same(ours, theirs)):
            differences.append(f"The {label} differs: the certificate records "
                               f"{_shown(theirs)}, the tables give {_shown(ours)}.")
    mc_ours, mc_theirs = recomputed["max_confidence"], certificate["max_confidence"]
    if isinstance(mc_theirs, Mapping) and [mc_ours.get(k) for k in ("group", "outcome",
                                                                    "sensitive")] != \
            [mc_theirs.get(k) for k in ("group", "outcome", "sensitive")]:
        differences.append(f"Where the maximum confidence is attained differs: the certificate "
                           f"records group {mc_theirs.get('group')}, outcome "
                           f"{mc_theirs.get('outcome')!r}, value {mc_theirs.get('sensitive')!r};"
                           f" the tables give group {mc_ours['group']}, outcome "
                           f"{mc_ours['outcome']!r}, value {mc_ours['sensitive']!r}.")
    theirs = certificate["groups_reaching_beta"]
    ours = recomputed["groups_reaching_beta"]
    if not isinstance(theirs, list) or len(theirs) != len(ours) or not all(
            isinstance(a, Mapping) and a.get("group") == b["group"]
            and same(a.get("max_confidence"), b["max_confidence"]) for a, b in zip(theirs, ours)):
        differences.append(f"The groups that reach beta differ: the certificate records "
                           f"{_groups_text(theirs)}, the tables give {_groups_text(ours)}.")
    fid_ours, fid_theirs = recomputed["fidelity"], certificate["fidelity"]
    if not isinstance(fid_theirs, Mapping):
        raise malformed("'fidelity' must be an object")
    achieved = fid_theirs.get("achieved") or {}
    for kind in ("delta", "alpha"):
        if not same(achieved.get(kind), fid_ours["achieved"][kind]):
            differences.append(f"The {kind}-fidelity achieved differs: the certificate records "
                               f"{_shown(achieved.get(kind))}, the tables give "
                               f"{_shown(fid_ours['achieved'][kind])}.")
    if fid_theirs.get("holds") != fid_ours["holds"]:
        differences.append(f"The fidelity constraint {fid_theirs.get('constraint')} "
                           f"{'no longer holds' if fid_ours['holds'] is False else 'holds'} "
                           f"(the certificate says holds = {fid_theirs.get('holds')}).")
    for key in ("private", "satisfied", "verdict"):
        if certificate[key] != recomputed[key]:
            differences.append(f"The {key!r} field differs: the certificate says "
                               f"{certificate[key]!r}, the tables give {recomputed[key]!r}.")
    return Verification(not differences, tuple(differences), recomputed, certified)


def _shown(entry) -> str:
    if isinstance(entry, Mapping):
        return str(entry.get("exact") or entry.get("value"))
    return str(entry)


def _groups_text(groups) -> str:
    if not isinstance(groups, list):
        return repr(groups)
    return "[" + ", ".join(f"{g.get('group')}: {_shown(g.get('max_confidence'))}"
                           if isinstance(g, Mapping) else repr(g) for g in groups) + "]"
