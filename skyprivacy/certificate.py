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

import base64
import csv
import datetime as _dt
import hashlib
import io
import json
import math
import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pandas as pd

from ._core.canonical import WHITESPACE, normalization_record, whitespace_of
from ._core.classification import Classification, classification_from_dict, column_differences
from ._core.display import Shown, result_html, result_repr
from ._core.exact import (
    decimal_fraction,
    fraction_text,
    is_real,
    parse_fraction,
    readable_fraction,
)
from ._core.optional import optional_import
from ._core.version import __version__
from ._core.engines import partitioned_engine
from .check import SkylineCheckResult, skyline_check
from .criteria import (
    AverageRisk,
    BetaLikeness,
    Criterion,
    DeltaDisclosure,
    DistinctLDiversity,
    EntropyLDiversity,
    KAnonymity,
    PopulationUniqueness,
    ProsecutorRisk,
    RecursiveCLDiversity,
    SkylinePolicy,
    TCloseness,
    as_criteria,
)
from .errors import (
    HierarchyError,
    InvalidParameterError,
    SchemaError,
    UnusedPolicyValueWarning,
    param_error,
)
from .knowledge import Policy
from .labels import label_differences, parse_labels
from .release import ReleaseCandidate, check_semantics
from .risk import POPULATION_MODELS, identity_risk
from .utility import discernibility

__all__ = [
    "CERTIFICATE_SCHEMA_VERSION",
    "CANONICAL_FORM",
    "PARTITIONED_FORM",
    "canonical_csv",
    "table_sha256",
    "partitioned_sha256",
    "text_table",
    "build_certificate",
    "anonymization_certificate",
    "verify_certificate",
    "CRITERIA_KEYS",
    "parse_criterion",
    "criteria_from_spec",
    "criteria_to_spec",
    "criterion_spec",
    "policy_to_json",
    "policy_from_json",
    "Verification",
    "PROVENANCE",
    "unique_keys",
    "parse_certificate_json",
    "policy_digest",
    "certified_summary",
    "SIGNATURE_KIND",
    "generate_signing_key",
    "key_fingerprint",
    "sign_certificate",
    "signer",
    "verify_signature",
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


def certificate_header(schema_version: int, kind: str, created: str | None) -> dict:
    """The fields every certificate opens with: its layout, kind, time and issuer.

    Shared by every kind of certificate (the decision-rule certificate opens the same
    way)."""
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


def _release_of(text: pd.DataFrame, parameters: Mapping,
                whitespace: str | None = "strip") -> ReleaseCandidate:
    return ReleaseCandidate.from_table(
        text, sensitive=parameters["sensitive"], qi=parameters.get("qi"),
        group=parameters.get("group"), individual=parameters.get("individual"),
        semantics=parameters["semantics"], whitespace=whitespace)


def _check_quietly(release: ReleaseCandidate, policy: Policy) -> SkylineCheckResult:
    with warnings.catch_warnings():  # unused values are listed in the certificate instead
        warnings.simplefilter("ignore", UnusedPolicyValueWarning)
        return skyline_check(release, policy)


def build_certificate(table: pd.DataFrame, policy: Policy, *, sensitive: str, qi=None,
                      group: str | None = None, individual: str | None = None,
                      semantics: str = "svpi", result: SkylineCheckResult | None = None,
                      created: str | None = None, labels: Mapping | None = None,
                      risk: bool = False, population_size: int | None = None,
                      risk_model: str = "dankar", whitespace: str = "strip",
                      classification=None) -> dict:
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
    risk : bool, default False
        Also certify the identity-disclosure risk of the table on ``qi``
        (:func:`skyprivacy.risk.identity_risk`): the certificate gains a ``risk`` section
        with its ``assumptions`` (QIs, population size, model) and every count-based
        ``figures`` entry (exact ``'p/q'`` text beside each float), which
        :func:`verify_certificate` recomputes.  Without it the certificate is unchanged.
    population_size : int, optional
        With ``risk``: the size of the population the table was sampled from, for the
        estimated population uniqueness and journalist risk.
    risk_model : {'dankar', 'pitman', 'zayatz', 'snb'}, default 'dankar'
        With ``risk`` and ``population_size``: the population-uniqueness model.
    whitespace : {'strip', 'keep'}, default 'strip'
        How text cells are compared (:meth:`ReleaseCandidate.from_table`,
        docs/canonical-text.md): NFC, zero-width characters removed, surrounding whitespace
        stripped or kept.  Recorded as the certificate's ``normalization``, which
        :func:`verify_certificate` applies; the table is hashed exactly as written.
    classification : Classification or mapping, optional
        The role of every column of the table the release came from
        (:class:`skyprivacy._core.classification.Classification`, or its ``to_dict()``:
        ``{"qi", "sensitive", "kept", "dropped"}``), recorded as the certificate's
        ``classification``; the table's columns must be exactly the QIs, the sensitive
        column, the kept columns and the group and individual columns, which
        :func:`verify_certificate` checks again.  Without it the certificate is unchanged.

    Returns
    -------
    dict
        JSON-ready: ``schema_version``, ``kind``, ``created``, ``library``, ``table``
        (``sha256``, ``canonical_form``, ``n_rows``, ``columns``), ``parameters`` (qi, group,
        sensitive, individual, semantics), ``policy`` (:func:`policy_to_json`), ``release``
        (group counts), ``safe``, ``verdict``, ``checks`` (one entry per (value, point) with
        ``breach_probability`` as a float and ``breach_probability_exact`` as ``'p/q'``),
        ``unused_policy_values``, ``labels`` (the set-label file, or None) and
        ``normalization`` (``{"unicode": "NFC", "whitespace": ..., "removed": [...]}``).

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
    owner = "build_certificate"
    if whitespace not in WHITESPACE:
        raise param_error("whitespace", owner, f"be one of {list(WHITESPACE)}", whitespace)
    if not isinstance(risk, bool):
        raise param_error("risk", owner, "be True or False", risk)
    if not risk and (population_size is not None or risk_model != "dankar"):
        raise InvalidParameterError("build_certificate takes 'population_size' and "
                                    "'risk_model' only with risk=True.")
    assumptions = None
    if risk:
        if qi is None:
            raise param_error("risk", owner, "be False for a bucketized release (identity "
                              "risk needs the 'qi' columns)", risk)
        if population_size is None and risk_model != "dankar":
            raise InvalidParameterError("build_certificate takes 'risk_model' only with a "
                                        "'population_size'.")
        assumptions = {"qi": _columns(qi, owner), "population_size": population_size,
                       "model": risk_model}
    return _certificate(table, policy, sensitive=sensitive, qi=qi, group=group,
                        individual=individual, semantics=semantics, result=result,
                        created=created, labels=labels, risk=assumptions,
                        whitespace=whitespace, classification=classification)


def _risk_section(text: pd.DataFrame, assumptions: Mapping) -> dict:
    """The certificate's ``risk`` section: the assumptions and the figures computed under
    them on the table's text (as :func:`verify_certificate` recomputes them)."""
    figures = identity_risk(text, qi=assumptions["qi"], top=0,
                            population_size=assumptions["population_size"],
                            model=assumptions["model"]).to_json(highest=False)
    return {"assumptions": dict(assumptions), "figures": figures}


def _certificate(table, policy, *, sensitive, qi, group, individual, semantics, result,
                 created, entry: dict | None = None, labels: Mapping | None = None,
                 risk: Mapping | None = None, criteria: list | None = None,
                 release: ReleaseCandidate | None = None,
                 whitespace: str | None = "strip", classification=None) -> dict:
    """:func:`build_certificate`, with the ``table`` entry (and the release of its text)
    given when already computed; ``policy`` None only beside ``criteria``, which add the
    ``criteria`` section; ``whitespace`` None (a certificate without ``normalization``,
    verified) compares text as written."""
    owner = "build_certificate"
    if not isinstance(policy, Policy) and not (policy is None and criteria):
        raise param_error("policy", owner, "be a Policy", type(policy).__name__)
    semantics = check_semantics(semantics, owner)
    policy = None if policy is None else _text_policy(policy)
    parameters = {"qi": _columns(qi, owner), "group": group, "sensitive": sensitive,
                  "individual": individual, "semantics": semantics}
    labels = _labels_record(labels, owner)
    text = _text_of(table) if release is None or risk is not None else None
    if release is None:
        release = _release_of(text, parameters, whitespace)
    if policy is None:
        result = None
    elif result is None:
        result = _check_quietly(release, policy)
    elif not isinstance(result, SkylineCheckResult):
        raise param_error("result", owner, "be a SkylineCheckResult", type(result).__name__)
    sizes = release.sizes_array
    safe = result is None or bool(result.safe)
    certificate = {
        **certificate_header(CERTIFICATE_SCHEMA_VERSION, _KIND, created),
        "table": entry if entry is not None else _table_entry(table),
        "parameters": parameters,
        "policy": None if policy is None else policy_to_json(policy),
        "release": {"n_groups": release.n_groups, "n_individuals": release.n_individuals,
                    "min_group_size": int(sizes.min()), "max_group_size": int(sizes.max())},
        "safe": safe,
        "verdict": "safe" if safe else "unsafe",
        "checks": [] if result is None else _check_rows(result),
        "unused_policy_values": [] if result is None else [str(v) for v in
                                                           result.unused_policy_values],
        "labels": labels,
    }
    if whitespace is not None:  # how text was compared (docs/canonical-text.md)
        certificate["normalization"] = normalization_record(whitespace)
    if criteria:  # only with criteria: a skyline certificate is unchanged
        results = _criteria_results(release, criteria)
        certificate["criteria"] = {"spec": criteria_to_spec(criteria), "results": results}
        certificate["safe"] = safe = safe and all(r["safe"] for r in results)
        certificate["verdict"] = "safe" if safe else "unsafe"
    if risk is not None:  # only when asked: a certificate without it is unchanged
        certificate["risk"] = _risk_section(text, risk)
    if classification is not None:  # only when given: a certificate without it is unchanged
        certificate["classification"] = _classification_record(classification, parameters,
                                                               table.columns, owner)
    return certificate


def _classification_record(classification, parameters: Mapping, columns, owner: str) -> dict:
    """The certificate's ``classification``, checked against its parameters and the
    table's columns (:mod:`skyprivacy._core.classification`)."""
    record = (classification.to_dict() if isinstance(classification, Classification)
              else classification)
    try:
        parsed = classification_from_dict(record)
    except ValueError as exc:
        raise param_error("classification", owner, f"be a Classification ({exc})",
                          classification) from None
    problems = _classification_differences(parsed, parameters, columns)
    if problems:
        raise InvalidParameterError(problems[0])
    return parsed.to_dict()


def _classification_differences(classification: Classification, parameters: Mapping,
                                columns) -> list[str]:
    """The classification against the parameters (its QIs and sensitive column are theirs)
    and the table's columns (exactly the analysed and kept ones)."""
    out = []
    # a bucketized release (parameters.group) publishes its QIs as they are, beside the group
    if (parameters["qi"] is not None and list(classification.qi) != list(parameters["qi"])) \
            or classification.sensitive != parameters["sensitive"]:
        out.append(f"The certificate's classification names quasi-identifiers "
                   f"{list(classification.qi)} and sensitive column "
                   f"{classification.sensitive!r}, but it certifies "
                   f"{list(parameters['qi'] or [])} and {parameters['sensitive']!r}.")
    return out + column_differences(columns, classification,
                                    [parameters["group"], parameters["individual"]])


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
    certified : dict or None
        What the certificate certifies (:func:`certified_summary`): the QIs (or the group
        column), the sensitive column, the kept columns, the policy's digest, the criteria
        and the verdict.
    """

    ok: bool
    differences: tuple
    recomputed: dict | None = field(default=None, repr=False)
    certified: dict | None = field(default=None, repr=False)

    def to_dict(self) -> dict:
        """JSON-friendly form."""
        return {"verified": self.ok, "differences": list(self.differences)}

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        differences = self.differences
        return Shown("VERIFIED" if self.ok else "NOT VERIFIED", self.ok,
                     (("differences", len(differences)),),
                     differences[0] if differences else None,
                     lambda n: pd.DataFrame({"difference": list(differences[:n])}),
                     len(differences), closest_label="first difference")


_REQUIRED = {"schema_version", "kind", "table", "parameters", "policy", "safe", "verdict",
             "checks"}
#: The other fields a table certificate may hold; :func:`verify_certificate` refuses any field
#: outside these two sets (``classification`` and ``normalization`` record how the release's
#: columns were classified and its text normalized, when it records them).
_OPTIONAL = {"created", "library", "release", "unused_policy_values", "labels", "criteria",
             "risk", "anonymization", "classification", "normalization"}
#: The fields no table can give back: when and by which version the certificate was made,
#: and how an anonymization searched (its method, levels, objective and search figures, the
#: suppression limit beyond the budget it allows, the labels and failed criteria of the
#: suppressed groups).  :func:`verify_certificate` checks their form only and does not report
#: them as verified; a signature (:func:`sign_certificate`) makes them tamper-evident.
PROVENANCE = ("created", "library.version", "anonymization.method", "anonymization.levels",
              "anonymization.objective", "anonymization.search",
              "anonymization.suppression.limit", "anonymization.suppression.groups[].group",
              "anonymization.suppression.groups[].fails")


def unique_keys(pairs: list) -> dict:
    """A JSON object that refuses a key occurring twice (the ``object_pairs_hook`` of
    :func:`parse_certificate_json`): JSON readers keep the last copy, so a second copy could
    hide the first from a reader of the file.

    Raises
    ------
    InvalidParameterError
        Naming the key.

    Examples
    --------
    >>> import json
    >>> json.loads('{"verdict": "safe", "verdict": "unsafe"}', object_pairs_hook=unique_keys)
    Traceback (most recent call last):
    ...
    skyprivacy.errors.InvalidParameterError: the key 'verdict' occurs twice in one object...
    """
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise InvalidParameterError(f"the key {key!r} occurs twice in one object (a JSON "
                                        f"reader keeps only the last)")
        out[key] = value
    return out


def parse_certificate_json(text: str | bytes) -> dict:
    """A certificate's JSON text as a ``dict``, refusing duplicate keys (:func:`unique_keys`).

    Raises
    ------
    InvalidParameterError
        For text that is not JSON, a duplicate key, or JSON that is not an object.

    Examples
    --------
    >>> parse_certificate_json('{"verdict": "safe"}')
    {'verdict': 'safe'}
    """
    if not isinstance(text, (str, bytes)):
        raise param_error("text", "parse_certificate_json", "be JSON text (str or bytes)",
                          type(text).__name__)
    try:
        data = json.loads(text, object_pairs_hook=unique_keys)
    except InvalidParameterError as exc:
        raise malformed(str(exc)) from None
    except (ValueError, RecursionError) as exc:
        raise malformed(f"it is not JSON ({str(exc)[:80]})") from None
    if not isinstance(data, dict):
        raise malformed(f"expected a JSON object, got {type(data).__name__}")
    return data


def _canonical_json(data) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def policy_digest(policy: Policy) -> str:
    """SHA-256 (hex) of a policy's canonical JSON (:func:`policy_to_json` of its values as
    text, keys sorted, no spaces): the same policy read from TOML, from a certificate or
    built in Python has the same digest, so ``verify --policy FILE`` can pin it.

    Examples
    --------
    >>> from fractions import Fraction
    >>> policy_digest(Policy.uniform([(0, 0, 0, 0.9)])) == policy_digest(
    ...     Policy.uniform([(0, 0, 0, Fraction(9, 10))]))
    True
    """
    if not isinstance(policy, Policy):
        raise param_error("policy", "policy_digest", "be a Policy", type(policy).__name__)
    return hashlib.sha256(_canonical_json(policy_to_json(_text_policy(policy)))).hexdigest()


def certified_summary(certificate: Mapping) -> dict:
    """What a (well-formed) table certificate certifies, as ``verify`` states it: ``qi`` (or
    None for a bucketized release, then ``group``), ``sensitive``, ``kept`` (the columns
    published as is, from its ``classification``; None when it records none), ``policy_sha256``
    (:func:`policy_digest`, None without a skyline policy), ``criteria`` (the ``[criteria]``
    spec, None without), ``text`` (how text was compared: ``"NFC, whitespace strip"`` or
    ``"NFC, whitespace keep"`` from its ``normalization``, ``"as written"`` when it records
    none) and ``verdict``.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"zip": ["1*", "1*"], "dx": ["flu", "hiv"]})
    >>> cert = build_certificate(table, Policy.uniform([(0, 0, 0, 0.9)]), qi="zip",
    ...                          sensitive="dx")
    >>> summary = certified_summary(cert)
    >>> summary["qi"], summary["sensitive"], summary["verdict"]
    (['zip'], 'dx', 'safe')
    """
    parameters, policy = _parse(certificate)
    classification = certificate.get("classification")
    kept = classification.get("kept") if isinstance(classification, Mapping) else None
    criteria = certificate.get("criteria")
    return {"qi": parameters["qi"], "group": parameters["group"],
            "sensitive": parameters["sensitive"],
            "kept": list(kept) if isinstance(kept, list) else None,
            "policy_sha256": None if policy is None else policy_digest(policy),
            "criteria": criteria.get("spec") if isinstance(criteria, Mapping) else None,
            "text": _text_comparison(certificate.get("normalization")),
            "verdict": certificate["verdict"]}


def _text_comparison(record: object) -> str:
    """How a certificate's text was compared, in the words of its summary."""
    try:
        whitespace = whitespace_of(record)
    except ValueError:
        return "unreadable"  # verify_certificate refuses the record, naming it
    return "as written" if whitespace is None else f"NFC, whitespace {whitespace}"


def _pin_differences(summary: dict, qi, sensitive, policy) -> list[str]:
    """The sentences for what the certificate certifies against what the caller expects."""
    owner = "verify_certificate"
    out = []
    if qi is not None:
        expected = _columns(qi, owner)
        assert expected is not None
        if summary["qi"] is None:
            out.append(f"The certificate certifies a bucketized release (group column "
                       f"{summary['group']!r}), not the expected QIs {sorted(expected)}.")
        elif sorted(summary["qi"]) != sorted(expected):
            out.append(f"The certificate certifies the QIs {sorted(summary['qi'])}, not the "
                       f"expected {sorted(expected)}.")
    if sensitive is not None:
        if not isinstance(sensitive, str):
            raise param_error("sensitive", owner, "be a column name", sensitive)
        if summary["sensitive"] != sensitive:
            out.append(f"The certificate certifies the sensitive column "
                       f"{summary['sensitive']!r}, not the expected {sensitive!r}.")
    if policy is not None:
        skyline, others = _split_criteria(policy, owner)
        digest = None if skyline is None else policy_digest(skyline)
        if digest != summary["policy_sha256"]:
            out.append("The certificate certifies "
                       + (f"the policy with sha256 {summary['policy_sha256']}"
                          if summary["policy_sha256"] else "no skyline policy")
                       + ", not the expected "
                       + (f"policy (sha256 {digest})." if digest else "none."))
        spec = criteria_to_spec(others) if others else None
        if spec != summary["criteria"]:
            out.append(f"The certificate certifies the criteria {summary['criteria']}, not "
                       f"the expected {spec}.")
    return out


def _brief(value) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _field_differences(claimed, actual, path: str) -> list[str]:
    """One sentence per field (at its dotted path) where the certificate is not what the
    table gives: a missing or unknown key, another value, or the same value of another JSON
    type (``1`` is not ``true``, ``"5"`` is not ``5``)."""
    if isinstance(actual, Mapping) and isinstance(claimed, Mapping):
        out = []
        for name in actual:
            where = f"{path}.{name}"
            if name not in claimed:
                out.append(f"The certificate has no field {where!r}; the table gives "
                           f"{_brief(actual[name])}.")
            else:
                out += _field_differences(claimed[name], actual[name], where)
        return out + [f"The certificate has a field '{path}.{name}' that a certificate does "
                      f"not hold." for name in claimed if name not in actual]
    if isinstance(actual, list) and isinstance(claimed, list) and len(actual) == len(claimed):
        return [d for i, (c, a) in enumerate(zip(claimed, actual))
                for d in _field_differences(c, a, f"{path}[{i}]")]
    if type(claimed) is type(actual) and claimed == actual:
        return []
    return [f"The field {path!r} differs: the certificate records {_brief(claimed)}, the "
            f"table gives {_brief(actual)}."]


def _parse_provenance(certificate: Mapping) -> None:
    """The form of the fields no table gives back (:data:`PROVENANCE`), and the fields every
    certificate :func:`build_certificate` writes."""
    missing = [name for name in ("created", "library", "release", "unused_policy_values",
                                 "labels") if name not in certificate]
    if missing:
        raise malformed(f"missing field(s) {missing}")
    if "criteria" in certificate and "anonymization" not in certificate:
        raise malformed("'criteria' needs the 'anonymization' section it was certified with")
    created = certificate.get("created")
    if "created" in certificate:
        try:
            ok = isinstance(created, str) and _dt.datetime.fromisoformat(
                created.replace("Z", "+00:00")).tzinfo is not None
        except ValueError:
            ok = False
        if not ok:
            raise malformed(f"'created' must be an ISO 8601 time with its time zone, not "
                            f"{created!r}")
    if "library" in certificate:
        library = certificate["library"]
        if (not isinstance(library, Mapping) or set(library) != {"name", "version"}
                or library["name"] != "skyprivacy" or not isinstance(library["version"], str)):
            raise malformed(f"'library' must be {{'name': 'skyprivacy', 'version': text}}, "
                            f"not {_brief(library)}")


def malformed(what: str) -> InvalidParameterError:
    """The error for a certificate that does not have the layout its kind promises."""
    return InvalidParameterError(f"The certificate is malformed: {what}.")


def parse_header(certificate: Mapping, kind: str, version: int, required: set,
                 hashed: tuple, forms: tuple = (CANONICAL_FORM,)) -> None:
    """The layout every certificate shares: a JSON object of the right kind and version with
    its required fields, and a SHA-256 in the canonical form for each hashed table."""
    if not isinstance(certificate, Mapping):
        raise malformed(f"expected a JSON object, got {type(certificate).__name__}")
    if "kind" in certificate and certificate["kind"] != kind:
        raise malformed(f"'kind' is {certificate['kind']!r}, expected {kind!r}")
    if "schema_version" in certificate and (type(certificate["schema_version"]) is not int
                                            or certificate["schema_version"] != version):
        raise malformed(f"schema_version {certificate['schema_version']!r} is not supported "
                        f"(this skyprivacy reads {version})")
    missing = sorted(required - set(certificate))
    if missing:
        raise malformed(f"missing field(s) {missing}")
    for name in hashed:
        part = certificate[name]
        if not isinstance(part, Mapping) or not isinstance(part.get("sha256"), str):
            raise malformed(f"'{name}.sha256' is missing")
        if part.get("canonical_form", CANONICAL_FORM) not in forms:
            raise malformed(f"canonical form {part.get('canonical_form')!r} is not supported")


def hash_difference(what: str, frame: pd.DataFrame, recorded: str) -> str | None:
    """The sentence for a table whose canonical hash is not the recorded one, else None."""
    actual = table_sha256(frame)
    if actual == recorded:
        return None
    return (f"The {what} does not match the certificate: its SHA-256 is {actual}, the "
            f"certificate records {recorded}.")


def _parse(certificate: Mapping) -> tuple[dict, Policy | None]:
    """Validate the layout; return the parameters and the policy."""
    parse_header(certificate, _KIND, CERTIFICATE_SCHEMA_VERSION, _REQUIRED, ("table",),
                 (CANONICAL_FORM, PARTITIONED_FORM))
    unknown = sorted(set(certificate) - _REQUIRED - _OPTIONAL, key=str)
    if unknown:
        raise malformed(f"unknown field {unknown[0]!r} (a table certificate holds "
                        f"{sorted(_REQUIRED | _OPTIONAL)})")
    _parse_provenance(certificate)
    parameters = certificate["parameters"]
    if not isinstance(parameters, Mapping) or not isinstance(parameters.get("sensitive"), str):
        raise malformed("'parameters.sensitive' is missing")
    try:
        semantics = check_semantics(parameters.get("semantics"), "verify_certificate")
        qi = _columns(parameters.get("qi"), "verify_certificate")
    except InvalidParameterError as exc:
        raise malformed(str(exc).rstrip(".")) from None
    group = parameters.get("group")
    individual = parameters.get("individual")
    for name, value in (("group", group), ("individual", individual)):
        if value is not None and not isinstance(value, str):
            raise malformed(f"'parameters.{name}' must be a column name or null")
    if (qi is None) == (group is None):
        raise malformed("exactly one of 'parameters.qi' and 'parameters.group' must be set")
    if set(parameters) != {"qi", "group", "sensitive", "individual", "semantics"}:
        raise malformed(f"'parameters' must hold exactly 'qi', 'group', 'sensitive', "
                        f"'individual' and 'semantics', not {sorted(parameters, key=str)}")
    try:
        policy = (None if certificate["policy"] is None and "criteria" in certificate
                  else policy_from_json(certificate["policy"]))
    except (InvalidParameterError, TypeError) as exc:
        raise malformed(f"its policy is invalid ({str(exc).rstrip('.')})") from None
    checks = certificate["checks"]
    if not isinstance(checks, list) or not all(isinstance(c, Mapping) for c in checks):
        raise malformed("'checks' must be a list of objects")
    for entry in checks:
        for key in ("value", "l", "k", "m", "c_exact", "breach_probability",
                    "breach_probability_exact", "safe"):
            if key not in entry:
                raise malformed(f"a check has no {key!r}")
    if certificate["verdict"] not in ("safe", "unsafe") or not isinstance(certificate["safe"],
                                                                          bool):
        raise malformed("'verdict' must be 'safe' or 'unsafe' and 'safe' a boolean")
    return ({"qi": qi, "group": group, "sensitive": parameters["sensitive"],
             "individual": individual, "semantics": semantics}, policy)


def _point_text(entry: Mapping) -> str:
    return (f"{entry['value']!r} at (l={entry['l']}, k={entry['k']}, m={entry['m']}, "
            f"c={entry['c_exact']})")


def _key(entry: Mapping) -> tuple:
    return (str(entry["value"]), int(entry["l"]), int(entry["k"]), int(entry["m"]),
            fraction_text(parse_fraction(entry["c_exact"])))


def verify_certificate(table: pd.DataFrame, certificate: Mapping | str | bytes, *,
                       labels: bytes | str | None = None,
                       original: pd.DataFrame | None = None, qi=None,
                       sensitive: str | None = None, policy=None,
                       public_key: bytes | str | None = None,
                       signature: bytes | str | None = None,
                       hierarchies: Mapping | None = None) -> Verification:
    """Recompute a certificate from a released table and list every difference.

    The table is hashed as in :func:`build_certificate`; then the release is rebuilt with the
    certificate's own columns and semantics, checked against the certificate's policy, and
    every (value, point) breach probability (exact fraction, and the float given next to it)
    and the verdict are compared.  A certificate with criteria (:func:`anonymization_certificate`)
    also has every criterion's verdict recomputed on the released table, the masked group's
    included, and its record of the anonymization checked: the partition and utility
    figures of the released groups, the suppressed rows against the table (the rows dropped,
    or the masked group) and the budget.

    Parameters
    ----------
    table : pandas.DataFrame
        The released table.
    certificate : mapping, str or bytes
        A certificate made by :func:`build_certificate`: parsed JSON, or its JSON text
        (parsed by :func:`parse_certificate_json`, which refuses duplicate keys).  Every
        field is recomputed and compared, or refused when unknown; the fields no table gives
        back (:data:`PROVENANCE`) are checked for their form only.
    labels : bytes or str, optional
        The content of the set-label file the certificate records (``labels``), when it
        records one: its SHA-256 must be the recorded one, every digest must be the SHA-256
        of its members, and every digest label of the table's QI columns must be listed with
        its number of members (:mod:`skyprivacy.labels`).
    original : pandas.DataFrame, optional
        The original table of an anonymization certificate
        (:func:`anonymization_certificate`): its number of rows must be the one recorded, so
        the suppressed rows are counted against it.  Without it, the recorded count is
        checked against the released table alone (the dropped rows and the masked group).
        For a full-domain release (the certificate records ``levels``), every released row
        must also be its original row with each QI generalized to the recorded level, in
        the original's order less the dropped rows (masked rows: every QI ``'*'``, the other
        cells as they were).
    qi : str or list of str, optional
        The QI columns the certificate must certify (in any order); another set is a
        difference.
    sensitive : str, optional
        The sensitive column the certificate must certify.
    policy : Policy, Criterion or list of them, optional
        The policy (and ``[criteria]``) the certificate must certify: the same skyline policy
        (:func:`policy_digest`) and the same other criteria.
    public_key : bytes or str, optional
        An Ed25519 public key (PEM): the certificate, given as its exact bytes, must carry
        this key's ``signature`` (:func:`verify_signature`); the summary then names the key
        (``certified["signed_by"]``).
    signature : bytes or str, optional
        The detached signature file's content (:func:`sign_certificate`), with
        ``public_key``.
    hierarchies : mapping of QI -> Hierarchy, optional
        With ``original``: the hierarchies the full-domain release was made with (for a QI
        the search gave none, its two levels: ``Hierarchy([[v, '*'] for v in values])``); a
        QI above level 0 without one is not compared cell by cell.

    Returns
    -------
    Verification
        ``.ok`` and ``.differences`` (empty when everything agrees).

    Raises
    ------
    InvalidParameterError
        If the certificate is malformed (missing or unknown fields, a duplicate key or check,
        unknown schema version, a policy that does not parse).
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
    signed_by = signer(certificate, signature, public_key, "verify_certificate")
    if isinstance(certificate, (str, bytes)):
        certificate = parse_certificate_json(certificate)
    parameters, policy_read = _parse(certificate)
    summary = certified_summary(certificate)
    if signed_by is not None:
        summary["signed_by"] = signed_by
    differences: list[str] = _pin_differences(summary, qi, sensitive, policy)
    try:
        record = _labels_record(certificate.get("labels"), "verify_certificate")
    except InvalidParameterError:
        raise malformed("'labels' must be null or an object with 'file' and a 'sha256' of "
                        "64 hex digits") from None
    form = certificate["table"].get("canonical_form", CANONICAL_FORM)
    entry = _table_entry(table, form)
    recorded = certificate["table"]["sha256"]
    if entry["sha256"] != recorded:
        return Verification(False, (*differences,
                                    f"The table does not match the certificate: its SHA-256 "
                                    f"is {entry['sha256']}, the certificate records "
                                    f"{recorded}."), None, summary)
    classification = _parse_classification(certificate)
    risk = _parse_risk(certificate, parameters)
    if risk is not None and risk["population_size"] is not None \
            and risk["population_size"] < entry["n_rows"]:
        raise malformed(f"'risk.assumptions.population_size' ({risk['population_size']}) is "
                        f"smaller than the table's {entry['n_rows']} rows")
    n_rows = int(entry["n_rows"])
    criteria = _parse_criteria(certificate)
    anonymization = _parse_anonymization(certificate, parameters)
    whitespace = _parse_normalization(certificate)
    release = None
    if anonymization is not None:
        release = _release_of(_text_of(table), parameters, whitespace)
    recomputed = _certificate(table, policy_read, sensitive=parameters["sensitive"],
                              qi=parameters["qi"], group=parameters["group"],
                              individual=parameters["individual"],
                              semantics=parameters["semantics"], result=None,
                              created=certificate.get("created"), entry=entry,
                              labels=record, risk=risk, criteria=criteria, release=release,
                              whitespace=whitespace)
    claimed: dict = {}
    for check in certificate["checks"]:
        try:
            key = _key(check)
            exact = parse_fraction(check["breach_probability_exact"])
        except (TypeError, ValueError, ZeroDivisionError):
            raise malformed(f"the check {_point_text(check)} has an unreadable number") \
                from None
        if key in claimed:
            raise malformed(f"the check {_point_text(check)} occurs twice in 'checks'")
        claimed[key] = (check, exact)
        if not (isinstance(check["breach_probability"], (int, float))
                and math.isclose(float(exact), float(check["breach_probability"]),
                                 rel_tol=1e-12, abs_tol=0.0)):
            differences.append(f"The certificate's float breach probability "
                               f"{check['breach_probability']!r} for {_point_text(check)} "
                               f"disagrees with its exact value {readable_fraction(exact)}.")
    actual = {_key(check): check for check in recomputed["checks"]}
    fields: list[str] = []  # every other field, compared after the named differences
    for key, check in actual.items():
        if key not in claimed:
            differences.append(f"The certificate has no check for {_point_text(check)}, which "
                               f"its policy requires.")
            continue
        claimed_check, exact = claimed[key]
        recorded = parse_fraction(check["breach_probability_exact"])
        if recorded != exact:
            differences.append(f"Breach probability of {_point_text(check)} differs: the "
                               f"certificate records {readable_fraction(exact)}, the table "
                               f"gives {readable_fraction(recorded)}.")
        elif bool(claimed_check["safe"]) != check["safe"]:
            differences.append(f"The verdict of {_point_text(check)} differs: the certificate "
                               f"says {'safe' if claimed_check['safe'] else 'unsafe'}, the "
                               f"table gives {'safe' if check['safe'] else 'unsafe'}.")
        else:
            mine = dict(claimed_check)
            if isinstance(mine["breach_probability"], float):  # its own sentence above
                mine["breach_probability"] = check["breach_probability"]
            fields += _field_differences(mine, check, f"checks[{_point_text(check)}]")
    for key, (check, _) in claimed.items():
        if key not in actual:
            differences.append(f"The certificate lists a check for {_point_text(check)} that "
                               f"its policy and the table do not produce.")
    if (certificate["verdict"] != recomputed["verdict"]
            or certificate["safe"] != recomputed["safe"]):
        differences.append(f"The verdict differs: the certificate says "
                           f"{certificate['verdict']!r}, the table gives "
                           f"{recomputed['verdict']!r}.")
    differences += _label_file_differences(table, record, parameters["qi"], labels)
    named_criteria: list[str] = []
    if criteria:
        named_criteria = _criteria_differences(certificate["criteria"]["results"],
                                               recomputed["criteria"]["results"])
        differences += named_criteria
    if anonymization is not None:
        assert release is not None and criteria is not None
        differences += _anonymization_differences(anonymization, release, criteria,
                                                  n_rows, original)
        fields += _anonymization_fields(certificate["anonymization"], release, criteria,
                                        parameters["qi"])
        if original is not None and anonymization["levels"] is not None \
                and len(original) == anonymization["suppression"]["n_original_rows"]:
            differences += _generalization_differences(
                table, original, anonymization["levels"], parameters["qi"],
                anonymization["suppression"], hierarchies)
    if risk is not None:
        differences += _risk_differences(certificate["risk"]["figures"],
                                         recomputed["risk"]["figures"], "")
        fields += _field_differences(certificate["risk"], {
            "assumptions": recomputed["risk"]["assumptions"],
            "figures": certificate["risk"]["figures"]}, "risk")
    for name in ("table", "parameters", "policy", "release", "unused_policy_values", "labels",
                 "criteria"):
        if name == "criteria" and named_criteria:
            continue  # said above, verdict by verdict
        if name in recomputed or name in certificate:
            fields += _field_differences(certificate.get(name), recomputed.get(name), name)
    if classification is not None:
        found = _classification_differences(classification, parameters, table.columns)
        differences += found
        if not found:
            recomputed["classification"] = classification.to_dict()
    differences += [d for d in dict.fromkeys(fields) if d not in differences]
    return Verification(not differences, tuple(differences), recomputed, summary)


def _parse_normalization(certificate: Mapping) -> str | None:
    """The ``whitespace`` choice of the certificate's ``normalization`` (None when it has
    none: made before text was normalized, so its text is compared as written)."""
    if "normalization" not in certificate:
        return None
    if certificate["normalization"] is None:
        raise malformed("'normalization' must be an object")
    try:
        return whitespace_of(certificate["normalization"])
    except ValueError as exc:
        raise malformed(str(exc)) from None


def _parse_classification(certificate: Mapping) -> Classification | None:
    """The certificate's ``classification`` (None when it records none)."""
    if "classification" not in certificate:
        return None
    try:
        return classification_from_dict(certificate["classification"])
    except ValueError as exc:
        raise malformed(str(exc)) from None


def _generalization_differences(table, original: pd.DataFrame, levels: Mapping, qi: list,
                                suppression: Mapping, hierarchies: Mapping | None) -> list[str]:
    """Whether every released row of a full-domain release is its original row generalized
    to ``levels`` (compared as the text of the canonical CSV): in order, less the suppressed
    rows (``'drop'``: absent; ``'mask'``: every QI ``'*'``, the other cells kept, at most as
    many as were suppressed).  A QI above level 0 is compared only when its hierarchy is
    given, every other column always.  The first row that differs is named, with its
    cell."""
    mode, n_suppressed = suppression["suppressed"], int(suppression["n_suppressed"])
    hierarchies = dict(hierarchies or {})
    if not isinstance(levels, Mapping) or sorted(map(str, levels)) != sorted(map(str, qi)):
        return [f"The certificate records levels for "
                f"{sorted(map(str, levels)) if isinstance(levels, Mapping) else levels!r}, "
                f"not for its QIs {sorted(map(str, qi))}."]
    released = _text_of(table)
    if not isinstance(released, pd.DataFrame):  # a dask frame: the rows, in order
        released = released.compute()
    source = text_table(original)
    if not set(released.columns) <= set(source.columns):
        return [f"The released table's columns {list(released.columns)} are not among the "
                f"original table's {list(source.columns)}."]
    source = source[list(released.columns)]  # the dropped columns are not released
    if not set(qi) <= set(source.columns):
        return [f"The released table lacks the QI column(s) "
                f"{sorted(set(qi) - set(source.columns))}."]
    expected = source.copy()
    unknown = []  # QIs above level 0 whose hierarchy is not given: not compared
    for name in qi:
        level, tree = int(levels[name]), hierarchies.get(name)
        if tree is None:
            if level:
                unknown.append(name)
            continue
        if not 0 <= level <= tree.height:
            return [f"The certificate records level {level} for {name!r}, whose hierarchy has "
                    f"levels 0 to {tree.height}."]
        try:
            cells = tree.generalize(source[name], level)
        except HierarchyError as exc:
            return [f"The original table does not fit the hierarchy of {name!r}: {exc}"]
        expected[name] = pd.Series(cells, index=source.index, dtype=object).astype(str)
    columns = list(source.columns)
    compared = [j for j, name in enumerate(columns) if name not in unknown]
    at = [columns.index(name) for name in qi]
    mine = released.to_numpy(dtype=object)
    wanted = expected.to_numpy(dtype=object)
    if mode == "mask":
        if len(mine) != len(wanted):
            return []  # the row counts are reported with the suppressed rows
        masked = (mine[:, at] == MASK).all(axis=1)
        if not unknown:
            masked &= ~(wanted[:, at] == MASK).all(axis=1)
            if int(masked.sum()) > n_suppressed:
                return [f"{int(masked.sum()):,} released rows have every QI '{MASK}' where "
                        f"their generalization to the recorded levels does not: more than the "
                        f"{n_suppressed:,} suppressed rows the certificate records."]
        wanted = wanted.copy()
        wanted[np.ix_(masked, at)] = MASK
        bad = np.flatnonzero((mine[:, compared] != wanted[:, compared]).any(axis=1))
        if not len(bad):
            return []
        row = source_row = int(bad[0])
    else:
        keys = ["\x1f".join(r) for r in wanted[:, compared].tolist()]
        j, last = 0, -1
        for i, key in enumerate(keys):  # greedy: the released rows as a subsequence
            if j < len(mine) and key == "\x1f".join(mine[j, compared].tolist()):
                j, last = j + 1, i
        if j == len(mine):
            return []
        row = j
        window = wanted[last + 1:last + 1 + max(1, len(wanted) - len(mine))][:, compared]
        if not len(window):
            return [f"Row {row} of the released table is not a row of the original "
                    f"generalized to the recorded levels: every original row is matched or "
                    f"suppressed before it."]
        source_row = last + 1 + int((window != mine[row, compared]).sum(axis=1).argmin())
    column = next(j for j in compared if mine[row, j] != wanted[source_row, j])
    name = columns[column]
    if name in qi:
        cell = (f"its {name!r} is {mine[row, column]!r}, but the original "
                f"{source.iat[source_row, column]!r} at level {int(levels[name])} is "
                f"{wanted[source_row, column]!r}")
    else:
        cell = (f"its {name!r} is {mine[row, column]!r}, the original's "
                f"{wanted[source_row, column]!r}")
    return [f"Row {row} of the released table is not row {source_row} of the original "
            f"generalized to the recorded levels: {cell}."]


def _parse_risk(certificate: Mapping, parameters: Mapping) -> dict | None:
    """The assumptions of the certificate's ``risk`` section (None when it has none)."""
    if "risk" not in certificate:
        return None
    section = certificate["risk"]
    if (not isinstance(section, Mapping) or not isinstance(section.get("assumptions"), Mapping)
            or not isinstance(section.get("figures"), Mapping)):
        raise malformed("'risk' must be an object with 'assumptions' and 'figures'")
    assumptions = section["assumptions"]
    qi, size, model = (assumptions.get("qi"), assumptions.get("population_size"),
                       assumptions.get("model"))
    if qi != parameters["qi"]:
        raise malformed(f"'risk.assumptions.qi' is {qi!r}, but the certificate's QI columns "
                        f"are {parameters['qi']!r}")
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size < 1):
        raise malformed(f"'risk.assumptions.population_size' must be null or a positive "
                        f"integer, not {size!r}")
    if model not in POPULATION_MODELS:
        raise malformed(f"'risk.assumptions.model' must be one of {list(POPULATION_MODELS)}, "
                        f"not {model!r}")
    if size is None and model != "dankar":
        raise malformed(f"'risk.assumptions.model' is {model!r} without a population size "
                        f"(a model is only used with one; the default is 'dankar')")
    return {"qi": list(qi), "population_size": size, "model": model}


def _risk_differences(claimed, actual, path: str) -> list[str]:
    """Every risk figure the certificate records that the table does not give: exact figures
    and counts equal, estimator floats equal up to 1e-9 (an optimizer's last digits)."""
    if isinstance(actual, Mapping) and isinstance(claimed, Mapping):
        out = []
        for name in sorted(set(actual) | set(claimed), key=str):
            where = f"{path}.{name}" if path else str(name)
            if name not in claimed:
                out.append(f"The certificate has no risk figure {where!r}.")
            elif name not in actual:
                out.append(f"The certificate records a risk figure {where!r} that the table "
                           f"does not give.")
            else:
                out += _risk_differences(claimed[name], actual[name], where)
        return out
    if isinstance(actual, list) and isinstance(claimed, list) and len(actual) == len(claimed):
        return [d for i, (c, a) in enumerate(zip(claimed, actual))
                for d in _risk_differences(c, a, f"{path}[{i}]")]
    same = (claimed == actual and type(claimed) is type(actual)) or (
        isinstance(actual, float) and isinstance(claimed, float)
        and math.isclose(claimed, actual, rel_tol=1e-9, abs_tol=0.0))
    if same:
        return []
    return [f"The risk figure {path!r} differs: the certificate records {claimed!r}, the "
            f"table gives {actual!r}."]


# ----------------------------------------------------------------------------- signatures
#: The ``kind`` of a detached signature file (``<certificate>.sig``).
SIGNATURE_KIND = "skyprivacy.signature"


def _ed25519():
    return optional_import("cryptography.hazmat.primitives.asymmetric.ed25519",
                           owner="Signing certificates")


def _serialization():
    return optional_import("cryptography.hazmat.primitives.serialization",
                           owner="Signing certificates")


def _load_key(pem: bytes | str, private: bool):
    """An Ed25519 key from PEM text; one InvalidParameterError line for anything else."""
    noun = "private" if private else "public"
    ed25519, serialization = _ed25519(), _serialization()
    data = pem.encode("utf-8") if isinstance(pem, str) else pem
    if not isinstance(data, bytes):
        raise param_error(f"{noun}_key", "signing", "be PEM text (str or bytes)",
                          type(pem).__name__)
    try:
        key = (serialization.load_pem_private_key(data, password=None) if private
               else serialization.load_pem_public_key(data))
    except (ValueError, TypeError):
        other = "public" if private else "private"
        held = (f"; it holds a {other} key" if f"BEGIN {other.upper()} KEY".encode() in data
                else "")
        raise InvalidParameterError(f"The {noun} key is not an unencrypted Ed25519 {noun} key "
                                    f"in PEM form{held}.") from None
    wanted = ed25519.Ed25519PrivateKey if private else ed25519.Ed25519PublicKey
    if not isinstance(key, wanted):
        raise InvalidParameterError(f"The {noun} key is of type "
                                    f"{type(key).__name__.lstrip('_')}, not an Ed25519 key; "
                                    f"make one with 'skyprivacy keygen'.")
    return key


def _fingerprint(public) -> str:
    raw = public.public_bytes(_serialization().Encoding.Raw, _serialization().PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()


def generate_signing_key() -> tuple[bytes, bytes]:
    """A new Ed25519 key pair as PEM: (private key, unencrypted PKCS #8; public key,
    SubjectPublicKeyInfo).  Needs the ``sign`` extra (``cryptography``).

    Examples
    --------
    >>> private, public = generate_signing_key()
    >>> private.startswith(b"-----BEGIN PRIVATE KEY-----"), len(key_fingerprint(public))
    (True, 64)
    """
    serialization = _serialization()
    key = _ed25519().Ed25519PrivateKey.generate()
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    public = key.public_key().public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo)
    return private, public


def key_fingerprint(key: bytes | str) -> str:
    """The fingerprint of an Ed25519 key (PEM, public or private): the SHA-256 (hex) of its
    32 raw public-key bytes, as a signature file and ``verify`` name it."""
    data = key.encode("utf-8") if isinstance(key, str) else key
    private = isinstance(data, bytes) and b"PRIVATE KEY" in data
    loaded = _load_key(data, private=private)
    return _fingerprint(loaded.public_key() if private else loaded)


def sign_certificate(certificate: bytes | str, private_key: bytes | str) -> bytes:
    """A detached Ed25519 signature of a certificate's exact bytes (the ``.sig`` file).

    Parameters
    ----------
    certificate : bytes or str
        The certificate file's bytes exactly as written (a str is encoded as UTF-8).
    private_key : bytes or str
        An unencrypted Ed25519 private key in PEM form (:func:`generate_signing_key`,
        ``skyprivacy keygen``, or ``openssl genpkey -algorithm ed25519``).

    Returns
    -------
    bytes
        The signature file: a JSON object ``{"kind": "skyprivacy.signature", "algorithm":
        "ed25519", "key_sha256": <fingerprint>, "signature": <base64 of 64 bytes>}``.

    Raises
    ------
    InvalidParameterError
        For a key that is not an Ed25519 private key in PEM form.
    ImportError
        Without the ``sign`` extra.

    Examples
    --------
    >>> private, public = generate_signing_key()
    >>> signature = sign_certificate(b'{"verdict": "safe"}', private)
    >>> verify_signature(b'{"verdict": "safe"}', signature, public) == key_fingerprint(public)
    True
    """
    key = _load_key(private_key, private=True)
    data = certificate.encode("utf-8") if isinstance(certificate, str) else certificate
    if not isinstance(data, bytes):
        raise param_error("certificate", "sign_certificate", "be the certificate's bytes",
                          type(certificate).__name__)
    record = {"kind": SIGNATURE_KIND, "algorithm": "ed25519",
              "key_sha256": _fingerprint(key.public_key()),
              "signature": base64.b64encode(key.sign(data)).decode("ascii")}
    return (json.dumps(record, indent=2) + "\n").encode("utf-8")


def signer(certificate, signature: bytes | str | None, public_key: bytes | str | None,
           owner: str) -> str | None:
    """The fingerprint of the key that signed a certificate, when a verifier (``owner``) is
    given ``public_key`` and ``signature`` (None when given neither): the one signature check
    of every certificate kind (:func:`verify_signature`).

    Raises
    ------
    InvalidParameterError
        Only one of the two given; ``certificate`` not its exact bytes; as
        :func:`verify_signature`.
    """
    if public_key is None and signature is None:
        return None
    if public_key is None or signature is None:
        raise InvalidParameterError(f"{owner} checks a signature with both 'public_key' and "
                                    f"'signature'; one was not given.")
    if not isinstance(certificate, (str, bytes)):
        raise param_error("certificate", owner, "be the certificate's exact bytes to check "
                          "its signature", type(certificate).__name__)
    return verify_signature(certificate, signature, public_key)


def verify_signature(certificate: bytes | str, signature: bytes | str,
                     public_key: bytes | str) -> str:
    """Check a detached signature (:func:`sign_certificate`) of a certificate's bytes.

    Returns
    -------
    str
        The key's fingerprint (:func:`key_fingerprint`), when the signature is the key's
        signature of exactly these bytes.

    Raises
    ------
    InvalidParameterError
        One line: a malformed key or signature file, a signature made with another key
        (both fingerprints named), or a signature that does not match the bytes (the
        certificate was changed after it was signed).
    """
    key = _load_key(public_key, private=False)
    fingerprint = _fingerprint(key)
    try:
        record = parse_certificate_json(signature)
    except InvalidParameterError:
        record = None
    if (record is None or set(record) != {"kind", "algorithm", "key_sha256", "signature"}
            or record["kind"] != SIGNATURE_KIND or record["algorithm"] != "ed25519"
            or not isinstance(record["key_sha256"], str)
            or not isinstance(record["signature"], str)):
        raise InvalidParameterError("The signature file is malformed: expected a JSON object "
                                    "with kind 'skyprivacy.signature', algorithm 'ed25519', "
                                    "'key_sha256' and 'signature'.")
    if record["key_sha256"] != fingerprint:
        raise InvalidParameterError(f"The certificate was signed by key {record['key_sha256']}, "
                                    f"not by the given key {fingerprint}.")
    try:
        raw = base64.b64decode(record["signature"], validate=True)
    except ValueError:
        raise InvalidParameterError("The signature file is malformed: 'signature' is not "
                                    "base64.") from None
    data = certificate.encode("utf-8") if isinstance(certificate, str) else certificate
    try:
        key.verify(raw, data)
    except optional_import("cryptography.exceptions", owner="Signing certificates") \
            .InvalidSignature:
        raise InvalidParameterError(f"The signature does not match the certificate: it was "
                                    f"changed after key {fingerprint} signed it.") from None
    return fingerprint


# ----------------------------------------------------------------------------- criteria spec
#: The keys of a policy file's ``[criteria]`` section, which a certificate's ``criteria.spec``
#: repeats: each names one criterion of :mod:`skyprivacy.criteria` and its parameters.
CRITERIA_KEYS = ("k", "l-diversity", "t-closeness", "beta-likeness", "delta-disclosure",
                 "prosecutor-risk", "average-risk", "population-uniqueness")
_FORMS = {
    "k": "a whole number >= 1",
    "l-diversity": "distinct:L, entropy:L or recursive:C,L (e.g. 'distinct:3')",
    "t-closeness": "equal:T or ordered:T with T in [0, 1] (e.g. 'equal:0.2')",
    "beta-likeness": "basic:B or enhanced:B with B > 0 (e.g. 'basic:1.5')",
    "delta-disclosure": "a number > 0",
    "prosecutor-risk": "a number in (0, 1]",
    "average-risk": "a number in (0, 1]",
    "population-uniqueness": f"MODEL:U,N with MODEL one of {', '.join(POPULATION_MODELS)}, U "
                             f"in [0, 1] and N the population size >= 1 (e.g. "
                             f"'dankar:0.05,1000000')",
}
#: Longest number text a criterion reads: a longer one is refused before it is converted.
_NUMBER_DIGITS = 40


def _spec_number(text: object, key: str, *, whole: bool = False) -> Fraction:
    """An exact number of a criterion's spec: an int, or a decimal or 'p/q' text (a TOML
    float is read as the decimal it prints as); refuses booleans, infinities and texts too
    long to be a threshold and exponents (``1e999999999`` would allocate a billion digits:
    nothing is allocated in proportion to a number)."""
    bad = InvalidParameterError(f"'{key}' must be {_FORMS[key]}; got {text!r}.")
    if isinstance(text, bool):
        raise bad
    if isinstance(text, int):
        value = Fraction(text)
    elif isinstance(text, float):
        if not math.isfinite(text):
            raise bad
        value = Fraction(repr(text))
    elif isinstance(text, str) and 0 < len(text.strip()) <= _NUMBER_DIGITS \
            and re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)(/\d+)?", text.strip()):
        try:
            value = parse_fraction(text)
        except (ValueError, ZeroDivisionError):
            raise bad from None
    else:
        raise bad
    if whole and value.denominator != 1:
        raise bad
    return value


def _number_spec(value: Fraction) -> str:
    """A threshold as the spec writes it: a decimal when it has one ('0.2'), else 'p/q'."""
    if value.denominator == 1:
        return str(value.numerator)
    rest = value.denominator
    for prime in (2, 5):
        while rest % prime == 0:
            rest //= prime
    if rest != 1:
        return fraction_text(value)
    digits = 0
    while (value * 10 ** digits).denominator != 1:
        digits += 1
    scaled = abs(value.numerator * 10 ** digits // value.denominator)
    text = str(scaled).rjust(digits + 1, "0")
    return ("-" if value < 0 else "") + text[:-digits] + "." + text[-digits:]


def parse_criterion(key: str, value: object) -> Criterion:
    """One criterion from its ``[criteria]`` key and value (also a command-line flag's text).

    Parameters
    ----------
    key : str
        One of :data:`CRITERIA_KEYS`.
    value : int, float or str
        ``k = 5``, ``l-diversity = "distinct:3"`` (``entropy:L``, ``recursive:C,L``),
        ``t-closeness = "equal:0.2"`` (``ordered:T``), ``beta-likeness = "basic:1.5"``
        (``enhanced:B``), ``delta-disclosure = 1.2``, ``prosecutor-risk = 0.2``,
        ``average-risk = 0.05``, ``population-uniqueness = "dankar:0.05,1000000"`` (the
        model, the largest estimated share of population uniques and the population size).
        Numbers are exact: ``0.2`` is 1/5, ``"2/3"`` is 2/3.

    Returns
    -------
    Criterion

    Raises
    ------
    InvalidParameterError
        For an unknown key or a value out of its form or range; the message names both.

    Examples
    --------
    >>> parse_criterion("l-diversity", "recursive:3,2")
    RecursiveCLDiversity(diversity_c=3, l=2)
    >>> parse_criterion("t-closeness", "equal:0.2")
    TCloseness(t=1/5, distance='equal')
    """
    if key not in _FORMS:
        raise InvalidParameterError(f"Unknown criterion {key!r}; the criteria are "
                                    f"{list(CRITERIA_KEYS)}.")
    bad = InvalidParameterError(f"'{key}' must be {_FORMS[key]}; got {value!r}.")
    if key == "population-uniqueness":
        return _population_uniqueness(value, bad)
    if key in ("l-diversity", "t-closeness", "beta-likeness"):
        kind, colon, rest = value.partition(":") if isinstance(value, str) else ("", "", "")
        kind = kind.strip()
        kinds = {"l-diversity": ("distinct", "entropy", "recursive"),
                 "t-closeness": ("equal", "ordered"),
                 "beta-likeness": ("basic", "enhanced")}[key]
        if not colon or kind not in kinds:
            raise bad
        parts = rest.split(",")
        if len(parts) != (2 if kind == "recursive" else 1):
            raise bad
        try:
            numbers = [_spec_number(part, key) for part in parts]
        except InvalidParameterError:
            raise bad from None  # named whole: 'distinct:x', not 'x'
    else:
        numbers = [_spec_number(value, key, whole=key == "k")]
        kind = ""
    try:
        if key == "k":
            return KAnonymity(int(numbers[0]))
        if key == "l-diversity":
            if kind == "recursive":
                c, l = numbers
                if l.denominator != 1:
                    raise bad
                return RecursiveCLDiversity(c, int(l))
            if kind == "distinct":
                if numbers[0].denominator != 1:
                    raise bad
                return DistinctLDiversity(int(numbers[0]))
            return EntropyLDiversity(numbers[0])
        if key == "t-closeness":
            return TCloseness(numbers[0], distance=kind)
        if key == "beta-likeness":
            return BetaLikeness(numbers[0], enhanced=kind == "enhanced")
        if key == "delta-disclosure":
            return DeltaDisclosure(numbers[0])
        if key == "prosecutor-risk":
            return ProsecutorRisk(numbers[0])
        return AverageRisk(numbers[0])
    except InvalidParameterError:  # the criterion's own range: said in the spec's words
        raise bad from None


def _population_uniqueness(value: object, bad: InvalidParameterError) -> Criterion:
    """``population-uniqueness = "MODEL:U,N"``: :class:`PopulationUniqueness`."""
    model, colon, rest = value.partition(":") if isinstance(value, str) else ("", "", "")
    parts = rest.split(",")
    if not colon or model.strip() not in POPULATION_MODELS or len(parts) != 2:
        raise bad
    try:
        u = _spec_number(parts[0], "population-uniqueness")
        size = _spec_number(parts[1], "population-uniqueness", whole=True)
        return PopulationUniqueness(u, population_size=int(size), model=model.strip())
    except InvalidParameterError:  # named whole, in the spec's words
        raise bad from None


def criteria_from_spec(spec: Mapping) -> list[Criterion]:
    """The criteria of a ``[criteria]`` section (or a certificate's ``criteria.spec``).

    Each key of :data:`CRITERIA_KEYS` holds one value or a list of them (``l-diversity =
    ["distinct:3", "entropy:2"]``); the release must satisfy every criterion.

    Raises
    ------
    InvalidParameterError
        For an unknown key, an empty list or a bad value (see :func:`parse_criterion`).

    Examples
    --------
    >>> criteria_from_spec({"k": 5, "t-closeness": "equal:0.2"})
    [KAnonymity(k=5), TCloseness(t=1/5, distance='equal')]
    """
    if not isinstance(spec, Mapping):
        raise InvalidParameterError(f"The criteria must be a table of criterion = value; got "
                                    f"{spec!r}.")
    out: list[Criterion] = []
    for key, value in spec.items():
        if key not in _FORMS:
            raise InvalidParameterError(f"Unknown criterion {key!r}; the criteria are "
                                        f"{list(CRITERIA_KEYS)}.")
        listed = value if isinstance(value, list) else [value]
        if not listed:
            raise InvalidParameterError(f"'{key}' is an empty list; give {_FORMS[key]}.")
        out += [parse_criterion(key, item) for item in listed]
    return out


def criterion_spec(criterion: Criterion) -> tuple[str, object]:
    """The ``[criteria]`` (key, value) of a criterion, inverse of :func:`parse_criterion`.

    Raises
    ------
    InvalidParameterError
        For a criterion the spec cannot write (a skyline policy is the certificate's
        ``policy``; k-map needs a population table).

    Examples
    --------
    >>> criterion_spec(TCloseness(0.2, distance="ordered"))
    ('t-closeness', 'ordered:0.2')
    """
    if isinstance(criterion, KAnonymity):
        return "k", criterion.k
    if isinstance(criterion, DistinctLDiversity):
        return "l-diversity", f"distinct:{criterion.l}"
    if isinstance(criterion, EntropyLDiversity):
        return "l-diversity", f"entropy:{_number_spec(criterion.l)}"
    if isinstance(criterion, RecursiveCLDiversity):
        return "l-diversity", f"recursive:{_number_spec(criterion.diversity_c)},{criterion.l}"
    if isinstance(criterion, TCloseness) and criterion.order is None:
        return "t-closeness", f"{criterion.distance}:{_number_spec(criterion.t)}"
    if isinstance(criterion, BetaLikeness):
        kind = "enhanced" if criterion.enhanced else "basic"
        return "beta-likeness", f"{kind}:{_number_spec(criterion.beta)}"
    if isinstance(criterion, DeltaDisclosure):
        return "delta-disclosure", _number_spec(criterion.delta)
    if isinstance(criterion, ProsecutorRisk):
        return "prosecutor-risk", _number_spec(criterion.r)
    if isinstance(criterion, AverageRisk):
        return "average-risk", _number_spec(criterion.r)
    if isinstance(criterion, PopulationUniqueness):
        return "population-uniqueness", (f"{criterion.model}:{_number_spec(criterion.u)},"
                                         f"{criterion.population_size}")
    raise param_error("criterion", "criterion_spec", "be a criterion a [criteria] section "
                      "can hold", criterion)


def criteria_to_spec(criteria) -> dict:
    """The ``[criteria]`` mapping of a list of criteria (each key a list of values).

    Examples
    --------
    >>> criteria_to_spec([KAnonymity(5), DistinctLDiversity(3)])
    {'k': [5], 'l-diversity': ['distinct:3']}
    """
    out: dict = {}
    for criterion in criteria:
        key, value = criterion_spec(criterion)
        out.setdefault(key, []).append(value)
    return out


# ----------------------------------------------------------------------------- anonymization
#: The label of every QI of a masked (suppressed) row, as :func:`skyprivacy.anonymize` writes.
MASK = "*"


def _split_criteria(criteria, owner: str) -> tuple[Policy | None, list[Criterion]]:
    """(the one skyline policy or None, the other criteria) of ``criteria=``."""
    listed = as_criteria(criteria)
    policies = [c.policy for c in listed if isinstance(c, SkylinePolicy)]
    if len(policies) > 1:
        raise param_error("criteria", owner, "hold at most one skyline policy", criteria)
    others = [c for c in listed if not isinstance(c, SkylinePolicy)]
    for criterion in others:
        criterion_spec(criterion)  # one a certificate can write and read back
    return (policies[0] if policies else None), others


def _criteria_results(release: ReleaseCandidate, criteria: list) -> list[dict]:
    """Each criterion's verdict on the release (and its failing groups, per group)."""
    return [criterion.evaluate(release).to_dict() for criterion in criteria]


def _masked_index(release: ReleaseCandidate) -> int | None:
    """The group whose every QI is ``'*'`` (where masked rows are released), or None."""
    for i, label in enumerate(release.group_labels):
        labels = label if isinstance(label, tuple) else (label,)
        if all(str(x) == MASK for x in labels):
            return i
    return None


def _release_figures(release: ReleaseCandidate, criteria: list, suppressed: str,
                     n_suppressed: int, n_original: int) -> dict:
    """What the anonymization section records that the released table alone gives back:
    the partition, the utility of the released groups and the masked group."""
    sizes = release.sizes_array
    charged = discernibility(release)
    masked = None
    index = _masked_index(release) if suppressed == "mask" else None
    if index is not None or (suppressed == "mask" and n_suppressed):
        size = 0 if index is None else int(sizes[index])
        verdicts = []
        if index is not None:
            verdicts = [{"criterion": repr(c), "safe": bool(c.evaluate(release).group_safe[index])}
                        for c in criteria if c.per_group]
        masked = {"n_rows": size, "criteria": verdicts}
        if size >= n_suppressed:  # the masked rows are charged N each, not the group's size
            charged += (size - n_suppressed) ** 2 - size ** 2
    charged += n_suppressed * n_original
    return {
        "partition": {"n_groups": release.n_groups, "min_group_size": int(sizes.min()),
                      "max_group_size": int(sizes.max()),
                      "average_group_size": release.n_individuals / release.n_groups},
        "utility": {"discernibility": discernibility(release),
                    "discernibility_suppressed_charged_n": charged},
        "masked_group": masked,
    }


def anonymization_certificate(result, *, qi, sensitive: str, criteria,
                              suppressed: str = "drop", suppression_limit=0,
                              reasons: Sequence | None = None, semantics: str = "svpi",
                              created: str | None = None,
                              labels: Mapping | None = None, classification=None,
                              whitespace: str = "strip") -> dict:
    """A certificate of a release made by :func:`skyprivacy.anonymize` under combined
    criteria, with how it was made.

    Parameters
    ----------
    result : AnonymizeResult
        The result: its ``.table`` is certified (hashed, every criterion checked), and its
        ``.method``, ``.levels``, ``.objective``, ``.value``, ``.suppressed``,
        ``.nodes_checked`` and ``.lattice_size`` are recorded.
    qi : str or list of str
    sensitive : str
    criteria : Criterion, Policy or list of them
        The criteria the release was made under; at most one skyline policy (recorded as the
        certificate's ``policy`` with its (value, point) ``checks``), the others in
        ``criteria.spec`` (the ``[criteria]`` form, :func:`criteria_to_spec`) with each one's
        verdict in ``criteria.results``.
    suppressed : {'drop', 'mask'}, default 'drop'
        How the suppressed rows were released (removed, or with every QI ``'*'``).
    suppression_limit : number in [0, 1], default 0
        The fraction of rows that could be suppressed; recorded with the budget it allows.
    reasons : sequence of dict, optional
        Why rows were suppressed: one entry per suppressed group, ``{"group": {qi: label},
        "n_rows": int, "fails": [criterion, ...]}``, as the command line computes it; their
        rows must add up to ``result.suppressed``.
    semantics, created, labels, classification, whitespace
        As in :func:`build_certificate` (``whitespace``: the one the release was made with,
        recorded as the certificate's ``normalization``).

    Returns
    -------
    dict
        A certificate as :func:`build_certificate` makes (``policy`` and ``checks`` null and
        empty without a skyline policy), with ``criteria`` and ``anonymization`` (method,
        levels, partition, objective, search figures, utility, suppression and the masked
        group); ``verdict`` is safe only when every criterion holds.

    Raises
    ------
    InvalidParameterError
        For a bad parameter, two skyline policies, reasons that do not add up, or a criterion
        the ``[criteria]`` form cannot write.

    Examples
    --------
    >>> import pandas as pd
    >>> from skyprivacy.anonymize import anonymize
    >>> table = pd.DataFrame({"zip": ["11", "12", "21", "22", "31"],
    ...                       "dx": ["a", "b", "a", "b", "a"]})
    >>> from skyprivacy.hierarchy import Hierarchy
    >>> tree = Hierarchy([["11", "1*", "*"], ["12", "1*", "*"], ["21", "2*", "*"],
    ...                   ["22", "2*", "*"], ["31", "3*", "*"]])
    >>> result = anonymize(table, qi="zip", sensitive="dx", criteria=[KAnonymity(2)],
    ...                    method="full-domain", suppression_limit=0.2,
    ...                    hierarchies={"zip": tree})
    >>> cert = anonymization_certificate(result, qi="zip", sensitive="dx",
    ...                                  criteria=[KAnonymity(2)], suppression_limit=0.2)
    >>> made = cert["anonymization"]
    >>> cert["verdict"], made["levels"], made["suppression"]["n_suppressed"]
    ('safe', {'zip': 1}, 1)
    >>> verify_certificate(result.table, cert).ok
    True
    """
    owner = "anonymization_certificate"
    if suppressed not in ("drop", "mask"):
        raise param_error("suppressed", owner, "be one of ['drop', 'mask']", suppressed)
    exact_limit = decimal_fraction(suppression_limit) if is_real(suppression_limit) \
        and not isinstance(suppression_limit, bool) else None
    if exact_limit is None or not 0 <= exact_limit <= 1:
        raise param_error("suppression_limit", owner, "be a fraction of rows in [0, 1]",
                          suppression_limit)
    policy, others = _split_criteria(criteria, owner)
    table = result.table
    n_suppressed = int(result.suppressed)
    n_original = len(table) + (n_suppressed if suppressed == "drop" else 0)
    if reasons is not None:
        reasons = [dict(r) for r in reasons]
        if sum(int(r.get("n_rows", 0)) for r in reasons) != n_suppressed:
            raise param_error("reasons", owner, f"account for the {n_suppressed} suppressed "
                              f"rows", reasons)
    semantics = check_semantics(semantics, owner)
    if whitespace not in WHITESPACE:
        raise param_error("whitespace", owner, f"be one of {list(WHITESPACE)}", whitespace)
    release = _release_of(_text_of(table), {"qi": _columns(qi, owner), "group": None,
                                            "individual": None, "sensitive": sensitive,
                                            "semantics": semantics}, whitespace)
    certificate = _certificate(table, policy, sensitive=sensitive, qi=qi, group=None,
                               individual=None, semantics=semantics, result=None,
                               created=created, labels=labels, criteria=others,
                               release=release, classification=classification,
                               whitespace=whitespace)
    value = getattr(result, "value", None)
    levels = getattr(result, "levels", None)
    certificate["anonymization"] = {
        "method": str(result.method),
        "levels": None if levels is None else {str(k): int(v) for k, v in levels.items()},
        "objective": {"name": str(result.objective),
                      "value": None if value is None else fraction_text(Fraction(value)),
                      "value_float": None if value is None else float(value)},
        "search": {"nodes_checked": getattr(result, "nodes_checked", None),
                   "lattice_size": getattr(result, "lattice_size", None)},
        "suppression": {"suppressed": suppressed, "limit": fraction_text(exact_limit),
                        "budget": int(exact_limit * n_original),
                        "n_original_rows": n_original, "n_suppressed": n_suppressed,
                        "groups": reasons},
        **_release_figures(release, others, suppressed, n_suppressed, n_original),
    }
    return certificate


def _parse_criteria(certificate: Mapping) -> list | None:
    """The criteria of a certificate's ``criteria`` section (None when it has none)."""
    if "criteria" not in certificate:
        return None
    section = certificate["criteria"]
    if (not isinstance(section, Mapping) or not isinstance(section.get("results"), list)
            or not all(isinstance(r, Mapping) and isinstance(r.get("criterion"), str)
                       and isinstance(r.get("safe"), bool) for r in section["results"])):
        raise malformed("'criteria' must be an object with 'spec' and a list of 'results' "
                        "(each with 'criterion' and 'safe')")
    try:
        criteria = criteria_from_spec(section.get("spec"))  # type: ignore[arg-type]
    except InvalidParameterError as exc:
        raise malformed(f"its criteria are invalid ({str(exc).rstrip('.')})") from None
    if not criteria:
        raise malformed("'criteria.spec' names no criterion")
    return criteria


def _criteria_differences(claimed: list, actual: list) -> list[str]:
    """Every criterion whose recorded verdict (or number of failing groups) the table does
    not give, and every criterion recorded or missing against the spec."""
    out = []
    recorded = {r["criterion"]: r for r in claimed}
    for entry in actual:
        name = entry["criterion"]
        mine = recorded.pop(name, None)
        if mine is None:
            out.append(f"The certificate has no verdict for {name}, which its criteria "
                       f"require.")
        elif mine["safe"] != entry["safe"]:
            out.append(f"The verdict of {name} differs: the certificate says "
                       f"{'safe' if mine['safe'] else 'unsafe'}, the table gives "
                       f"{'safe' if entry['safe'] else 'unsafe'}.")
        elif mine.get("failing_groups") != entry.get("failing_groups"):
            out.append(f"The failing groups of {name} differ: the certificate records "
                       f"{mine.get('failing_groups')!r}, the table gives "
                       f"{entry.get('failing_groups')!r}.")
    out += [f"The certificate lists a verdict for {name} that its criteria do not name."
            for name in recorded]
    return out


_ANONYMIZATION = ("method", "levels", "objective", "search", "suppression", "partition",
                  "utility", "masked_group")
_SUPPRESSION = ("suppressed", "limit", "budget", "n_original_rows", "n_suppressed", "groups")


def _count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _parse_anonymization(certificate: Mapping, parameters: Mapping) -> dict | None:
    """The ``anonymization`` section, its layout checked (None when there is none)."""
    if "anonymization" not in certificate:
        return None
    section = certificate["anonymization"]
    if not isinstance(section, Mapping) or any(k not in section for k in _ANONYMIZATION):
        raise malformed(f"'anonymization' must be an object with {list(_ANONYMIZATION)}")
    if "criteria" not in certificate:
        raise malformed("'anonymization' needs the 'criteria' section it was made under")
    if parameters["qi"] is None:
        raise malformed("'anonymization' needs 'parameters.qi'")
    supp = section["suppression"]
    if not isinstance(supp, Mapping) or any(k not in supp for k in _SUPPRESSION):
        raise malformed(f"'anonymization.suppression' must be an object with "
                        f"{list(_SUPPRESSION)}")
    if supp["suppressed"] not in ("drop", "mask"):
        raise malformed(f"'anonymization.suppression.suppressed' must be 'drop' or 'mask', "
                        f"not {supp['suppressed']!r}")
    for name in ("budget", "n_original_rows", "n_suppressed"):
        if not _count(supp[name]):
            raise malformed(f"'anonymization.suppression.{name}' must be a whole number >= 0, "
                            f"not {supp[name]!r}")
    try:
        limit = parse_fraction(supp["limit"])
    except (TypeError, ValueError, ZeroDivisionError):
        limit = None
    if limit is None or not 0 <= limit <= 1:
        raise malformed(f"'anonymization.suppression.limit' must be a fraction in [0, 1], not "
                        f"{supp['limit']!r}")
    groups = supp["groups"]
    if groups is not None and not (isinstance(groups, list) and all(
            isinstance(g, Mapping) and _count(g.get("n_rows")) for g in groups)):
        raise malformed("'anonymization.suppression.groups' must be null or a list of "
                        "objects with 'n_rows'")
    return {**section, "suppression": {**supp, "limit": limit}}


def _anonymization_fields(section: Mapping, release: ReleaseCandidate, criteria: list,
                          qi) -> list[str]:
    """Every field of the ``anonymization`` section that is not what the released table
    gives (typed: ``1`` is not ``true``) or not of its form, and every unknown field.  The
    fields no table gives back (:data:`PROVENANCE`) are checked for their form."""
    out = [f"The certificate has a field 'anonymization.{k}' that a certificate does not "
           f"hold." for k in section if k not in _ANONYMIZATION]
    supp = section["suppression"]
    out += [f"The certificate has a field 'anonymization.suppression.{k}' that a certificate "
            f"does not hold." for k in supp if k not in _SUPPRESSION]
    actual = _release_figures(release, criteria, supp["suppressed"], supp["n_suppressed"],
                              supp["n_original_rows"])
    for name in ("partition", "utility", "masked_group"):
        mine = section[name]
        if name == "partition" and isinstance(mine, Mapping) and isinstance(
                mine.get("average_group_size"), float) and math.isclose(
                mine["average_group_size"], actual[name]["average_group_size"], rel_tol=1e-12):
            mine = {**mine, "average_group_size": actual[name]["average_group_size"]}
        if mine == actual[name]:  # else said by _anonymization_differences; here: the types
            out += _field_differences(mine, actual[name], f"anonymization.{name}")

    def bad(path: str, form: str, value) -> str:
        return (f"The field 'anonymization.{path}' must be {form}, not {_brief(value)}.")

    if not isinstance(section["method"], str) or not section["method"]:
        out.append(bad("method", "the method's name", section["method"]))
    levels = section["levels"]
    if levels is not None and not (isinstance(levels, Mapping) and set(levels) == set(qi)
                                   and all(_count(v) for v in levels.values())):
        out.append(bad("levels", f"null or a level >= 0 for each QI of {qi}", levels))
    objective = section["objective"]
    value = objective.get("value") if isinstance(objective, Mapping) else None
    try:
        exact = None if value is None else parse_fraction(value)
    except (TypeError, ValueError, ZeroDivisionError):
        exact = Fraction(-1)
    if not (isinstance(objective, Mapping) and set(objective) == {"name", "value", "value_float"}
            and isinstance(objective["name"], str) and (isinstance(value, str) or value is None)
            and exact != Fraction(-1)
            and ((value is None and objective["value_float"] is None)
                 or (exact is not None and type(objective["value_float"]) is float
                     and objective["value_float"] == float(exact)))):
        out.append(bad("objective", "{'name', 'value' ('p/q' or null), 'value_float' (its "
                       "float)}", objective))
    search = section["search"]
    if not (isinstance(search, Mapping) and set(search) == {"nodes_checked", "lattice_size"}
            and all(v is None or _count(v) for v in search.values())):
        out.append(bad("search", "{'nodes_checked', 'lattice_size'}, each null or a count",
                       search))
    for i, group in enumerate(supp["groups"] or []):
        labels = group.get("group")
        fails = group.get("fails")
        if not (set(group) == {"group", "n_rows", "fails"} and isinstance(labels, Mapping)
                and set(labels) == set(qi) and all(isinstance(v, str) for v in labels.values())
                and isinstance(fails, list) and fails
                and all(isinstance(f, str) for f in fails)):
            out.append(bad(f"suppression.groups[{i}]", "{'group': a label per QI, 'n_rows', "
                           "'fails': the criteria it fails}", group))
    return out


def _anonymization_differences(section: Mapping, release: ReleaseCandidate, criteria: list,
                               n_rows: int, original) -> list[str]:
    """What the released table (and the original, when given) says against the record of
    how it was made: the suppressed rows and budget, the partition, utility and masked
    group."""
    out = []
    supp = section["suppression"]
    mode, n_suppressed, n_original = supp["suppressed"], supp["n_suppressed"], \
        supp["n_original_rows"]
    budget = int(supp["limit"] * n_original)
    if supp["budget"] != budget:
        out.append(f"The suppression budget differs: the certificate records "
                   f"{supp['budget']} rows, a limit of {fraction_text(supp['limit'])} of "
                   f"{n_original:,} rows allows {budget}.")
    if n_suppressed > budget:
        out.append(f"The certificate records {n_suppressed:,} suppressed rows, more than the "
                   f"budget of {budget:,}.")
    expected = n_original - n_suppressed if mode == "drop" else n_original
    if n_rows != expected:
        out.append(f"The suppressed rows do not add up: the certificate records "
                   f"{n_original:,} original rows and {n_suppressed:,} suppressed "
                   f"({mode}), so the released table should have {expected:,} rows; it has "
                   f"{n_rows:,}.")
    if original is not None and len(original) != n_original:
        out.append(f"The original table has {len(original):,} rows; the certificate records "
                   f"{n_original:,}.")
    groups = supp["groups"]
    if groups is not None and sum(g["n_rows"] for g in groups) != n_suppressed:
        out.append(f"The suppressed groups the certificate lists hold "
                   f"{sum(g['n_rows'] for g in groups):,} rows, not the {n_suppressed:,} it "
                   f"records.")
    actual = _release_figures(release, criteria, mode, n_suppressed, n_original)
    for name in ("partition", "utility", "masked_group"):
        mine, theirs = section[name], actual[name]
        if name == "partition" and isinstance(mine, Mapping) and isinstance(
                mine.get("average_group_size"), (int, float)):
            if math.isclose(mine["average_group_size"], theirs["average_group_size"],
                            rel_tol=1e-12):
                mine = {**mine, "average_group_size": theirs["average_group_size"]}
        if mine != theirs:
            out.append(f"The {name.replace('_', ' ')} differs: the certificate records "
                       f"{mine!r}, the table gives {theirs!r}.")
    masked = actual["masked_group"]
    if masked is not None:
        if masked["n_rows"] < n_suppressed:
            out.append(f"The masked group (every QI '{MASK}') holds {masked['n_rows']:,} rows, "
                       f"fewer than the {n_suppressed:,} suppressed rows the certificate "
                       f"records.")
        out += [f"The masked group fails {v['criterion']}." for v in masked["criteria"]
                if not v["safe"]]
    return out
