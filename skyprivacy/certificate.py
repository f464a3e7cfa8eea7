"""Certificates: a checkable record of what a release was certified against, and its verification.

A certificate is a JSON-ready ``dict`` that pins down one released table (by the SHA-256 of a
canonical serialization), the value-centric policy, the semantics and the columns that define
the QI-groups, and every (value, skyline point) breach probability that
:func:`skyprivacy.skyline_check` (Chen, LeFevre and Ramakrishnan 2009, Sect. 6.1, Fig. 3)
computes for it, as an exact fraction and as a float, with the verdict.
:func:`verify_certificate` recomputes everything from the table and the certificate's own
parameters and lists every difference.

Canonical serialization of a table (``canonical_form = "skyprivacy-csv-1"``)
-----------------------------------------------------------------------------
The table's columns in their order, a header line with the column names, then one line per row
in row order (the index is not part of it); fields separated by ``,``; a field is quoted with
``"`` only when it contains ``,``, ``"``, a line break, or is an empty field standing alone on its
line, and quotes inside are doubled; missing values are empty fields; every line ends with
``\\n``; the text is encoded as UTF-8 without a byte-order mark.  Each cell is written as
:meth:`pandas.DataFrame.to_csv` writes it (numbers in their shortest round-trip form, ``True``,
text unchanged).  Hence:

* a table written to CSV by skyprivacy and read back as text hashes the same, and for such a
  file the hash equals ``sha256sum`` of the file itself;
* a typed table (``int64`` ages) and the same table read back from its CSV as text (``'39'``)
  hash the same;
* reordering rows or columns, renaming a column or changing one character changes the hash.

Canonical hash of a partitioned table (``canonical_form = "skyprivacy-csv-partitioned-1"``)
------------------------------------------------------------------------------------------
A table held in partitions (a dask DataFrame, a Parquet dataset written one file per
partition) is hashed where its partitions live: each partition's canonical CSV (header
included) is hashed alone, and the table's hash is the SHA-256 of the UTF-8 text
``skyprivacy-csv-partitioned-1\n`` followed by the 64 lowercase hex digits of every
partition's hash, in partition order, each followed by ``\n``.  Partitions without rows are
skipped, so writing or reading empty files does not change the hash; any other change of
the partitioning does (see docs/certificates.md).

Everything here is pure: no file is read or written (see :mod:`skyprivacy.io`).
"""

from __future__ import annotations

import csv
import datetime as _dt
import hashlib
import io
import math
import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from ._core.encoding import as_numbers, require_columns
from ._core.exact import fraction_text, parse_fraction, readable_fraction
from ._core.version import __version__
from ._core.engines import partitioned_engine
from .check import SkylineCheckResult, skyline_check
from .errors import InvalidParameterError, SchemaError, UnusedPolicyValueWarning, param_error
from .knowledge import Policy
from .labels import label_differences, parse_labels
from .release import ReleaseCandidate, check_semantics

__all__ = [
    "CERTIFICATE_SCHEMA_VERSION",
    "CANONICAL_FORM",
    "PARTITIONED_FORM",
    "canonical_csv",
    "table_sha256",
    "partitioned_sha256",
    "text_table",
    "build_certificate",
    "verify_certificate",
    "policy_to_json",
    "policy_from_json",
    "Verification",
    "RULE_CERTIFICATE_SCHEMA_VERSION",
    "build_rule_certificate",
    "verify_rule_certificate",
]

#: Version of the certificate layout; :func:`verify_certificate` accepts exactly this one.
CERTIFICATE_SCHEMA_VERSION = 1
#: Name of the canonical serialization hashed into ``table.sha256``.
CANONICAL_FORM = "skyprivacy-csv-1"
#: Name of the canonical hash over the partitions of a partitioned table, in order.
PARTITIONED_FORM = "skyprivacy-csv-partitioned-1"
_KIND = "skyprivacy.certificate"


def canonical_csv(table: pd.DataFrame) -> str:
    """The canonical CSV text of a table (see the module docstring).

    Parameters
    ----------
    table : pandas.DataFrame
        Any table; it is not modified. Column names must be distinct.

    Returns
    -------
    str

    Raises
    ------
    SchemaError
        If two columns share a name (the text could not be read back unambiguously).

    Examples
    --------
    >>> import pandas as pd
    >>> canonical_csv(pd.DataFrame({"age": [39, 50], "job": ["Sales", "Tech, support"]}))
    'age,job\\n39,Sales\\n50,"Tech, support"\\n'
    """
    if not isinstance(table, pd.DataFrame):
        raise param_error("table", "canonical_csv", "be a pandas DataFrame",
                          type(table).__name__)
    names = [str(c) for c in table.columns]
    if len(set(names)) != len(names):
        duplicated = sorted({n for n in names if names.count(n) > 1})
        raise SchemaError(f"Column name(s) {duplicated} occur more than once; a released table "
                          f"needs distinct column names.")
    return table.to_csv(index=False, lineterminator="\n", na_rep="", quoting=csv.QUOTE_MINIMAL)


def table_sha256(table: pd.DataFrame) -> str:
    """SHA-256 (hex) of the UTF-8 bytes of :func:`canonical_csv`.

    Examples
    --------
    >>> import hashlib, pandas as pd
    >>> table = pd.DataFrame({"age": [39, 50]})
    >>> table_sha256(table) == hashlib.sha256(b"age\\n39\\n50\\n").hexdigest()
    True
    """
    return hashlib.sha256(canonical_csv(table).encode("utf-8")).hexdigest()


def partitioned_sha256(partition_hashes) -> str:
    """The ``skyprivacy-csv-partitioned-1`` hash from the partitions' hashes, in order.

    Parameters
    ----------
    partition_hashes : iterable of str
        The :func:`table_sha256` of every non-empty partition, in partition order.

    Examples
    --------
    >>> import hashlib, pandas as pd
    >>> parts = [pd.DataFrame({"age": [39]}), pd.DataFrame({"age": [50]})]
    >>> digest = partitioned_sha256(table_sha256(p) for p in parts)
    >>> text = "skyprivacy-csv-partitioned-1\\n" + "".join(table_sha256(p) + "\\n" for p in parts)
    >>> digest == hashlib.sha256(text.encode()).hexdigest()
    True
    """
    text = PARTITIONED_FORM + "\n" + "".join(f"{h}\n" for h in partition_hashes)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _table_hash(table, form: str = CANONICAL_FORM) -> tuple[str, int, int | None]:
    """(hash in ``form``, rows, hashed partitions or None) of a pandas or dask table."""
    engine = partitioned_engine(table)
    if engine is not None:
        if form == CANONICAL_FORM:
            digest, n_rows = engine.whole_sha256(table)
            return digest, n_rows, None
        parts = [(h, n) for h, n in engine.partition_digests(table) if n]
        return partitioned_sha256(h for h, _ in parts), sum(n for _, n in parts), len(parts)
    if form == PARTITIONED_FORM:
        hashes = [table_sha256(table)] if len(table) else []
        return partitioned_sha256(hashes), int(len(table)), len(hashes)
    return table_sha256(table), int(len(table)), None


def _text_of(table):
    """:func:`text_table` of a pandas table, partition by partition for a dask one."""
    engine = partitioned_engine(table)
    return text_table(table) if engine is None else engine.text_frame(table)


def text_table(table: pd.DataFrame) -> pd.DataFrame:
    """The table as the text of its canonical CSV: every cell a ``str`` (missing -> ``''``).

    This is what a reader of the released CSV sees; certificates are computed and verified on
    it, so a typed table and its CSV certify identically (sensitive values become text: the
    policy of a TOML file names them as text too).

    Examples
    --------
    >>> import pandas as pd
    >>> text_table(pd.DataFrame({"age": [39, 50]}))["age"].tolist()
    ['39', '50']
    """
    return pd.read_csv(io.StringIO(canonical_csv(table)), dtype=object, keep_default_na=False,
                       na_filter=False)


def _json_confidence(point) -> float | str:
    """c as a float when the float reads back as the same exact threshold, else 'p/q'."""
    as_float = float(point.c_exact)
    if Fraction(repr(as_float)) == point.c_exact:
        return as_float
    return str(point.c_exact)


def policy_to_json(policy: Policy) -> dict:
    """A JSON-ready form of a policy: ``{"default": [[l, k, m, c], ...], "values": {...}}``.

    Values are written as text (certificates work on the text of the released table);
    thresholds as floats when the float means the same exact fraction (``0.9`` is 9/10), else
    as a ``'p/q'`` string.

    Examples
    --------
    >>> from fractions import Fraction
    >>> policy_to_json(Policy({1: [(0, 1, 0, Fraction(1, 3))]}, default=[(1, 5, 1, 0.9)]))
    {'values': {'1': [[0, 1, 0, '1/3']]}, 'default': [[1, 5, 1, 0.9]]}
    """
    if not isinstance(policy, Policy):
        raise param_error("policy", "policy_to_json", "be a Policy", type(policy).__name__)

    def points(skyline):
        return [[p.l, p.k, p.m, _json_confidence(p)] for p in skyline]

    out: dict = {"values": {str(v): points(sky) for v, sky in policy.items()}}
    if policy.default is not None:
        out["default"] = points(policy.default)
    return out


def policy_from_json(data: Mapping) -> Policy:
    """Inverse of :func:`policy_to_json`; also reads the TOML policy-file shape.

    The file shape is ``{"default": {"skyline": [...]}, "values": {v: {"skyline": [...]}}}``;
    a threshold may be a number or a ``'p/q'`` string.

    Raises
    ------
    InvalidParameterError
        As :meth:`Policy.from_dict`, or for a threshold string that is not a fraction.

    Examples
    --------
    >>> policy_from_json({"values": {"AIDS": {"skyline": [[0, 1, 0, "2/3"]]}}}).skyline_for("AIDS")
    Skyline([(0, 1, 0, Fraction(2, 3))])
    """
    if not isinstance(data, Mapping):
        raise param_error("data", "policy_from_json", "be a mapping", data)

    def convert_points(points, where):
        if not isinstance(points, list):
            return points  # Policy.from_dict reports the problem
        out = []
        for point in points:
            if isinstance(point, list) and len(point) == 4 and isinstance(point[3], str):
                try:
                    c = Fraction(point[3].strip())
                except (ValueError, ZeroDivisionError):
                    raise InvalidParameterError(
                        f"Policy {where}: the threshold c of {point!r} must be a number or a "
                        f"fraction such as '2/3'. Got {point[3]!r} instead.") from None
                point = [*point[:3], c]
            out.append(point)
        return out

    def convert_entry(entry, where):
        if isinstance(entry, Mapping):
            return {**entry, "skyline": convert_points(entry.get("skyline"), where)} \
                if "skyline" in entry else entry
        return convert_points(entry, where)

    converted = dict(data)
    if "default" in converted:
        converted["default"] = convert_entry(converted["default"], "section 'default'")
    if isinstance(converted.get("values"), Mapping):
        converted["values"] = {v: convert_entry(e, f"for value {v!r}")
                               for v, e in converted["values"].items()}
    return Policy.from_dict(converted)


def _text_policy(policy: Policy) -> Policy:
    """The policy with its values as text, as the text of a released table shows them."""
    return Policy({str(v): sky for v, sky in policy.items()}, default=policy.default)


def _utc_now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat().replace(
        "+00:00", "Z")


def _header(schema_version: int, kind: str, created: str | None) -> dict:
    """The fields every certificate opens with: its layout, kind, time and issuer."""
    return {"schema_version": schema_version, "kind": kind, "created": created or _utc_now(),
            "library": {"name": "skyprivacy", "version": __version__}}


def _columns(qi, owner: str) -> list | None:
    if qi is None:
        return None
    if isinstance(qi, str):
        return [qi]
    if isinstance(qi, Sequence) and all(isinstance(c, str) for c in qi) and qi:
        return list(qi)
    raise param_error("qi", owner, "be a column name or a non-empty list of column names", qi)


def _check_rows(result: SkylineCheckResult) -> list[dict]:
    rows = []
    for row in result.rows:
        bp = row.breach_probability
        rows.append({
            "value": str(row.value),
            "l": row.point.l, "k": row.point.k, "m": row.point.m,
            "c": float(row.point.c), "c_exact": fraction_text(row.point.c_exact),
            "breach_probability": float(bp),
            "breach_probability_exact": fraction_text(bp),
            "safe": bool(row.safe),
            "source": row.source,
            "worst_case": row.worst_case.description,
        })
    return rows


def _release_of(text: pd.DataFrame, parameters: Mapping) -> ReleaseCandidate:
    return ReleaseCandidate.from_table(
        text, sensitive=parameters["sensitive"], qi=parameters.get("qi"),
        group=parameters.get("group"), individual=parameters.get("individual"),
        semantics=parameters["semantics"])


def _check_quietly(release: ReleaseCandidate, policy: Policy) -> SkylineCheckResult:
    with warnings.catch_warnings():  # unused values are listed in the certificate instead
        warnings.simplefilter("ignore", UnusedPolicyValueWarning)
        return skyline_check(release, policy)


def build_certificate(table: pd.DataFrame, policy: Policy, *, sensitive: str, qi=None,
                      group: str | None = None, individual: str | None = None,
                      semantics: str = "svpi", result: SkylineCheckResult | None = None,
                      created: str | None = None, labels: Mapping | None = None) -> dict:
    """A certificate for a released table under a value-centric policy.

    Parameters
    ----------
    table : pandas.DataFrame
        The released table exactly as published (its canonical CSV is hashed).
    policy : Policy
        The value-centric skyline policy it is certified against.
    sensitive : str
        The sensitive column.
    qi : str or list of str, optional
        Generalized quasi-identifier columns (each distinct combination is one QI-group).
    group : str, optional
        The bucket column of a bucketized release. Give exactly one of ``qi`` and ``group``.
    individual : str, optional
        The column identifying individuals (mvpi with one row per (individual, value)).
    semantics : {'svpi', 'mvpi-set', 'mvpi-multiset'}, default 'svpi'
    result : SkylineCheckResult, optional
        A check already computed on this table (for example the certificate of
        :func:`skyprivacy.skyline_anonymize`); by default the check is computed here, on
        :func:`text_table` of ``table``, exactly as :func:`verify_certificate` will.
    created : str, optional
        The UTC time stamp to record (ISO 8601); defaults to now.
    labels : mapping, optional
        The set-label file published with the table (:func:`skyprivacy.labels.labels_record`:
        its ``file`` name beside the table and the ``sha256`` of its bytes), when the release
        publishes sets as digests (:attr:`AnonymizationResult.set_labels`).

    Returns
    -------
    dict
        JSON-ready: ``schema_version``, ``kind``, ``created``, ``library``, ``table``
        (``sha256``, ``canonical_form``, ``n_rows``, ``columns``), ``parameters`` (qi, group,
        sensitive, individual, semantics), ``policy`` (:func:`policy_to_json`), ``release``
        (group counts), ``safe``, ``verdict``, ``checks`` (one entry per (value, point) with
        ``breach_probability`` as a float and ``breach_probability_exact`` as ``'p/q'``),
        ``unused_policy_values`` and ``labels`` (the set-label file, or None).

    Raises
    ------
    SchemaError, InvalidParameterError
        As :meth:`ReleaseCandidate.from_table` for the table and columns.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"age": ["2*", "2*", "3*", "3*"],
    ...                       "disease": ["Flu", "AIDS", "Flu", "Cold"]})
    >>> cert = build_certificate(table, Policy.uniform([(0, 0, 0, 0.9)]), qi="age",
    ...                          sensitive="disease", created="2024-01-01T00:00:00Z")
    >>> cert["verdict"], [c["breach_probability_exact"] for c in cert["checks"]]
    ('safe', ['1/2', '1/2', '1/2'])
    >>> verify_certificate(table, cert).ok
    True
    """
    return _certificate(table, policy, sensitive=sensitive, qi=qi, group=group,
                        individual=individual, semantics=semantics, result=result,
                        created=created, labels=labels)


def _certificate(table, policy, *, sensitive, qi, group, individual, semantics, result,
                 created, entry: dict | None = None, labels: Mapping | None = None) -> dict:
    """:func:`build_certificate`, with the ``table`` entry given when already computed."""
    owner = "build_certificate"
    if not isinstance(policy, Policy):
        raise param_error("policy", owner, "be a Policy", type(policy).__name__)
    semantics = check_semantics(semantics, owner)
    policy = _text_policy(policy)
    parameters = {"qi": _columns(qi, owner), "group": group, "sensitive": sensitive,
                  "individual": individual, "semantics": semantics}
    labels = _labels_record(labels, owner)
    text = _text_of(table)
    release = _release_of(text, parameters)
    if result is None:
        result = _check_quietly(release, policy)
    elif not isinstance(result, SkylineCheckResult):
        raise param_error("result", owner, "be a SkylineCheckResult", type(result).__name__)
    sizes = release.sizes_array
    return {
        **_header(CERTIFICATE_SCHEMA_VERSION, _KIND, created),
        "table": entry if entry is not None else _table_entry(table),
        "parameters": parameters,
        "policy": policy_to_json(policy),
        "release": {"n_groups": release.n_groups, "n_individuals": release.n_individuals,
                    "min_group_size": int(sizes.min()), "max_group_size": int(sizes.max())},
        "safe": bool(result.safe),
        "verdict": "safe" if result.safe else "unsafe",
        "checks": _check_rows(result),
        "unused_policy_values": [str(v) for v in result.unused_policy_values],
        "labels": labels,
    }


def _labels_record(labels, owner: str) -> dict | None:
    """A set-label record ``{"file": name, "sha256": 64 hex digits}``, validated."""
    if labels is None:
        return None
    if (not isinstance(labels, Mapping) or not isinstance(labels.get("file"), str)
            or not labels["file"] or not isinstance(labels.get("sha256"), str)
            or not re.fullmatch(r"[0-9a-f]{64}", labels["sha256"])):
        raise param_error("labels", owner, "be None or {'file': name, 'sha256': 64 hex digits} "
                          "(skyprivacy.labels.labels_record)", labels)
    return {"file": labels["file"], "sha256": labels["sha256"]}


def _label_file_differences(table: pd.DataFrame, record: dict | None, qi,
                            labels: bytes | str | None) -> list[str]:
    """Differences between the set-label file a certificate records and the one given."""
    if record is None:
        return [] if labels is None else [
            "A set-label file was given, but the certificate records none."]
    if labels is None:
        return [f"The certificate records the set-label file {record['file']!r} (SHA-256 "
                f"{record['sha256']}), which was not given."]
    data = labels.encode("utf-8") if isinstance(labels, str) else bytes(labels)
    actual = hashlib.sha256(data).hexdigest()
    if actual != record["sha256"]:
        return [f"The set-label file {record['file']!r} does not match the certificate: its "
                f"SHA-256 is {actual}, the certificate records {record['sha256']}."]
    try:
        sets = parse_labels(data)
    except ValueError as exc:
        return [f"The set-label file {record['file']!r} cannot be used: {exc}."]
    return label_differences(table, qi or [], sets)


def _table_entry(table, form: str | None = None) -> dict:
    """The certificate's ``table`` field in ``form``; by default a pandas table in the
    single-file form, a dask table in the partitioned form (with its number of non-empty
    partitions)."""
    if form is None:
        form = CANONICAL_FORM if partitioned_engine(table) is None else PARTITIONED_FORM
    digest, n_rows, n_partitions = _table_hash(table, form)
    entry = {"sha256": digest, "canonical_form": form, "n_rows": n_rows,
             "columns": [str(c) for c in table.columns]}
    if n_partitions is not None:
        entry["n_partitions"] = n_partitions
    return entry


@dataclass(frozen=True)
class Verification:
    """Result of :func:`verify_certificate`.

    Attributes
    ----------
    ok : bool
        True iff the table hash, every breach probability and the verdict agree.
    differences : tuple of str
        One sentence per difference, the most basic first (hash, then checks, then verdict).
    recomputed : dict or None
        The certificate recomputed from the table (None when the table could not be read
        with the certificate's parameters or the hash already differs).
    """

    ok: bool
    differences: tuple
    recomputed: dict | None = field(default=None, repr=False)

    def to_dict(self) -> dict:
        """JSON-friendly form."""
        return {"verified": self.ok, "differences": list(self.differences)}


_REQUIRED = {"schema_version", "kind", "table", "parameters", "policy", "safe", "verdict",
             "checks"}


def _malformed(what: str) -> InvalidParameterError:
    return InvalidParameterError(f"The certificate is malformed: {what}.")


def _parse_header(certificate: Mapping, kind: str, version: int, required: set,
                  hashed: tuple, forms: tuple = (CANONICAL_FORM,)) -> None:
    """The layout every certificate shares: a JSON object of the right kind and version with
    its required fields, and a SHA-256 in the canonical form for each hashed table."""
    if not isinstance(certificate, Mapping):
        raise _malformed(f"expected a JSON object, got {type(certificate).__name__}")
    if "kind" in certificate and certificate["kind"] != kind:
        raise _malformed(f"'kind' is {certificate['kind']!r}, expected {kind!r}")
    if "schema_version" in certificate and certificate["schema_version"] != version:
        raise _malformed(f"schema_version {certificate['schema_version']!r} is not supported "
                         f"(this skyprivacy reads {version})")
    missing = sorted(required - set(certificate))
    if missing:
        raise _malformed(f"missing field(s) {missing}")
    for name in hashed:
        part = certificate[name]
        if not isinstance(part, Mapping) or not isinstance(part.get("sha256"), str):
            raise _malformed(f"'{name}.sha256' is missing")
        if part.get("canonical_form", CANONICAL_FORM) not in forms:
            raise _malformed(f"canonical form {part.get('canonical_form')!r} is not supported")


def _hash_difference(what: str, frame: pd.DataFrame, recorded: str) -> str | None:
    """The sentence for a table whose canonical hash is not the recorded one, else None."""
    actual = table_sha256(frame)
    if actual == recorded:
        return None
    return (f"The {what} does not match the certificate: its SHA-256 is {actual}, the "
            f"certificate records {recorded}.")


def _parse(certificate: Mapping) -> tuple[dict, Policy]:
    """Validate the layout; return the parameters and the policy."""
    _parse_header(certificate, _KIND, CERTIFICATE_SCHEMA_VERSION, _REQUIRED, ("table",),
                  (CANONICAL_FORM, PARTITIONED_FORM))
    parameters = certificate["parameters"]
    if not isinstance(parameters, Mapping) or not isinstance(parameters.get("sensitive"), str):
        raise _malformed("'parameters.sensitive' is missing")
    try:
        semantics = check_semantics(parameters.get("semantics"), "verify_certificate")
        qi = _columns(parameters.get("qi"), "verify_certificate")
    except InvalidParameterError as exc:
        raise _malformed(str(exc).rstrip(".")) from None
    group = parameters.get("group")
    individual = parameters.get("individual")
    for name, value in (("group", group), ("individual", individual)):
        if value is not None and not isinstance(value, str):
            raise _malformed(f"'parameters.{name}' must be a column name or null")
    if (qi is None) == (group is None):
        raise _malformed("exactly one of 'parameters.qi' and 'parameters.group' must be set")
    try:
        policy = policy_from_json(certificate["policy"])
    except (InvalidParameterError, TypeError) as exc:
        raise _malformed(f"its policy is invalid ({str(exc).rstrip('.')})") from None
    checks = certificate["checks"]
    if not isinstance(checks, list) or not all(isinstance(c, Mapping) for c in checks):
        raise _malformed("'checks' must be a list of objects")
    for entry in checks:
        for key in ("value", "l", "k", "m", "c_exact", "breach_probability",
                    "breach_probability_exact", "safe"):
            if key not in entry:
                raise _malformed(f"a check has no {key!r}")
    if certificate["verdict"] not in ("safe", "unsafe") or not isinstance(certificate["safe"],
                                                                          bool):
        raise _malformed("'verdict' must be 'safe' or 'unsafe' and 'safe' a boolean")
    return ({"qi": qi, "group": group, "sensitive": parameters["sensitive"],
             "individual": individual, "semantics": semantics}, policy)


def _point_text(entry: Mapping) -> str:
    return (f"{entry['value']!r} at (l={entry['l']}, k={entry['k']}, m={entry['m']}, "
            f"c={entry['c_exact']})")


def _key(entry: Mapping) -> tuple:
    return (str(entry["value"]), int(entry["l"]), int(entry["k"]), int(entry["m"]),
            fraction_text(parse_fraction(entry["c_exact"])))


def verify_certificate(table: pd.DataFrame, certificate: Mapping, *,
                       labels: bytes | str | None = None) -> Verification:
    """Recompute a certificate from a released table and list every difference.

    The table is hashed as in :func:`build_certificate`; then the release is rebuilt with the
    certificate's own columns and semantics, checked against the certificate's policy, and
    every (value, point) breach probability (exact fraction, and the float given next to it)
    and the verdict are compared.

    Parameters
    ----------
    table : pandas.DataFrame
        The released table.
    certificate : mapping
        A certificate made by :func:`build_certificate` (parsed JSON).
    labels : bytes or str, optional
        The content of the set-label file the certificate records (``labels``), when it
        records one: its SHA-256 must be the recorded one, every digest must be the SHA-256
        of its members, and every digest label of the table's QI columns must be listed with
        its number of members (:mod:`skyprivacy.labels`).

    Returns
    -------
    Verification
        ``.ok`` and ``.differences`` (empty when everything agrees).

    Raises
    ------
    InvalidParameterError
        If the certificate is malformed (missing fields, unknown schema version, a policy that
        does not parse).
    SchemaError
        If the table lacks a column the certificate names or holds missing values there.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"zip": ["1*", "1*"], "disease": ["Flu", "Flu"]})
    >>> cert = build_certificate(table, Policy.uniform([(0, 0, 0, 0.9)]), qi="zip",
    ...                          sensitive="disease")
    >>> cert["verdict"]
    'unsafe'
    >>> check = verify_certificate(table.assign(disease=["Flu", "Cold"]), cert)
    >>> check.ok, check.differences[0][:39]
    (False, 'The table does not match the certificat')
    """
    parameters, policy = _parse(certificate)
    try:
        record = _labels_record(certificate.get("labels"), "verify_certificate")
    except InvalidParameterError:
        raise _malformed("'labels' must be null or an object with 'file' and a 'sha256' of "
                         "64 hex digits") from None
    differences: list[str] = []
    form = certificate["table"].get("canonical_form", CANONICAL_FORM)
    entry = _table_entry(table, form)
    recorded = certificate["table"]["sha256"]
    if entry["sha256"] != recorded:
        return Verification(False, (f"The table does not match the certificate: its SHA-256 "
                                    f"is {entry['sha256']}, the certificate records "
                                    f"{recorded}.",), None)
    recomputed = _certificate(table, policy, sensitive=parameters["sensitive"],
                              qi=parameters["qi"], group=parameters["group"],
                              individual=parameters["individual"],
                              semantics=parameters["semantics"], result=None,
                              created=certificate.get("created"), entry=entry,
                              labels=record)
    claimed = {}
    for entry in certificate["checks"]:
        try:
            key = _key(entry)
            exact = parse_fraction(entry["breach_probability_exact"])
        except (TypeError, ValueError, ZeroDivisionError):
            raise _malformed(f"the check {_point_text(entry)} has an unreadable number") \
                from None
        claimed[key] = (entry, exact)
        if not (isinstance(entry["breach_probability"], (int, float))
                and math.isclose(float(exact), float(entry["breach_probability"]),
                                 rel_tol=1e-12, abs_tol=0.0)):
            differences.append(f"The certificate's float breach probability "
                               f"{entry['breach_probability']!r} for {_point_text(entry)} "
                               f"disagrees with its exact value {readable_fraction(exact)}.")
    actual = {_key(entry): entry for entry in recomputed["checks"]}
    for key, entry in actual.items():
        if key not in claimed:
            differences.append(f"The certificate has no check for {_point_text(entry)}, which "
                               f"its policy requires.")
            continue
        claimed_entry, exact = claimed[key]
        recorded = parse_fraction(entry["breach_probability_exact"])
        if recorded != exact:
            differences.append(f"Breach probability of {_point_text(entry)} differs: the "
                               f"certificate records {readable_fraction(exact)}, the table "
                               f"gives {readable_fraction(recorded)}.")
        elif bool(claimed_entry["safe"]) != entry["safe"]:
            differences.append(f"The verdict of {_point_text(entry)} differs: the certificate "
                               f"says {'safe' if claimed_entry['safe'] else 'unsafe'}, the "
                               f"table gives {'safe' if entry['safe'] else 'unsafe'}.")
    for key, (entry, _) in claimed.items():
        if key not in actual:
            differences.append(f"The certificate lists a check for {_point_text(entry)} that "
                               f"its policy and the table do not produce.")
    if (certificate["verdict"] != recomputed["verdict"]
            or certificate["safe"] != recomputed["safe"]):
        differences.append(f"The verdict differs: the certificate says "
                           f"{certificate['verdict']!r}, the table gives "
                           f"{recomputed['verdict']!r}.")
    differences += _label_file_differences(table, record, parameters["qi"], labels)
    return Verification(not differences, tuple(differences), recomputed)


# ----------------------------------------------------------------------- decision rules
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
    from .transparency import DecisionTable

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
    from .transparency import Alpha, Delta

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
    (the same serialization as :func:`build_certificate`) and records every number an auditor
    needs to recompute: the certified beta, beta* of the optimal scheme when the rule was
    optimized, the maximum confidence of the announced rule and the QID groups that set it,
    the fidelity constraint and the fidelity the rule actually achieves.

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
    from .transparency import optimal_privacy
    from .transparency.certify import (
        announced_matrix,
        confidence_matrix,
        group_max_confidence,
        max_confidence_of,
        resolve_beta,
    )
    from .transparency.fidelity import fidelity_bounds

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
    true = decision_table._exact_decisions if exact else decision_table.decisions
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
        **_header(RULE_CERTIFICATE_SCHEMA_VERSION, _RULE_KIND, created),
        "table": {"sha256": table_sha256(table), "canonical_form": CANONICAL_FORM,
                  "n_rows": int(len(table)), "columns": [str(c) for c in table.columns]},
        "rule": {"sha256": table_sha256(rule_text[rule_columns]),
                 "canonical_form": CANONICAL_FORM, "n_rows": int(len(rule_text)),
                 "columns": rule_columns},
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
    _parse_header(certificate, _RULE_KIND, RULE_CERTIFICATE_SCHEMA_VERSION, _RULE_REQUIRED,
                  ("table", "rule"))
    parameters = certificate["parameters"]
    if not isinstance(parameters, Mapping):
        raise _malformed("'parameters' must be an object")
    try:
        kwargs: dict[str, Any] = {
            "public": _names(parameters.get("public"), "public", "verify"),
            "sensitive": _names(parameters.get("sensitive"), "sensitive", "verify"),
            "decision": _names(parameters.get("decision"), "decision", "verify")}
        if parameters.get("announced") is not None:
            kwargs["announced"] = _names(parameters["announced"], "announced", "verify")
    except InvalidParameterError as exc:
        raise _malformed(f"'parameters' are invalid ({str(exc).rstrip('.')})") from None
    if not isinstance(parameters.get("weight"), str):
        raise _malformed("'parameters.weight' must be a column name")
    kwargs["weight"] = parameters["weight"]
    kwargs["exact"] = bool(parameters.get("exact"))
    mode = certificate["mode"]
    if mode not in ("check", "optimize"):
        raise _malformed(f"'mode' is {mode!r}, expected 'check' or 'optimize'")
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
        raise _malformed("its beta or fidelity constraint cannot be read") from None
    return kwargs


def verify_rule_certificate(table: pd.DataFrame, rule: pd.DataFrame | None,
                            certificate: Mapping) -> Verification:
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
    certificate : mapping
        A certificate made by :func:`build_rule_certificate` (parsed JSON).

    Returns
    -------
    Verification

    Raises
    ------
    InvalidParameterError
        If the certificate is malformed.

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
    kwargs = _parse_rule(certificate)
    differences = [d for d in (
        _hash_difference("decision table", table, certificate["table"]["sha256"]),
        _hash_difference("announced rule", text_table(table if rule is None else rule)[
            [c for c in certificate["rule"].get("columns", [])
             if c in (table if rule is None else rule).columns]],
            certificate["rule"]["sha256"])) if d]
    try:
        recomputed = build_rule_certificate(table, rule, created=certificate.get("created"),
                                            **kwargs)
    except (SchemaError, InvalidParameterError) as exc:
        if differences:  # an edited table that no longer reads: the hash says enough
            return Verification(False, tuple(differences), None)
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
        raise _malformed("'fidelity' must be an object")
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
    return Verification(not differences, tuple(differences), recomputed)


def _shown(entry) -> str:
    if isinstance(entry, Mapping):
        return str(entry.get("exact") or entry.get("value"))
    return str(entry)


def _groups_text(groups) -> str:
    if not isinstance(groups, list):
        return repr(groups)
    return "[" + ", ".join(f"{g.get('group')}: {_shown(g.get('max_confidence'))}"
                           if isinstance(g, Mapping) else repr(g) for g in groups) + "]"
