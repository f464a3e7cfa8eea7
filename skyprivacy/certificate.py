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

import pandas as pd

from ._core.display import Shown, result_html, result_repr
from ._core.exact import fraction_text, parse_fraction, readable_fraction
from ._core.version import __version__
from ._core.engines import partitioned_engine
from .check import SkylineCheckResult, skyline_check
from .errors import InvalidParameterError, SchemaError, UnusedPolicyValueWarning, param_error
from .knowledge import Policy
from .labels import label_differences, parse_labels
from .release import ReleaseCandidate, check_semantics
from .risk import POPULATION_MODELS, identity_risk

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
                      created: str | None = None, labels: Mapping | None = None,
                      risk: bool = False, population_size: int | None = None,
                      risk_model: str = "dankar") -> dict:
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
    owner = "build_certificate"
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
                        created=created, labels=labels, risk=assumptions)


def _risk_section(text: pd.DataFrame, assumptions: Mapping) -> dict:
    """The certificate's ``risk`` section: the assumptions and the figures computed under
    them on the table's text (as :func:`verify_certificate` recomputes them)."""
    figures = identity_risk(text, qi=assumptions["qi"], top=0,
                            population_size=assumptions["population_size"],
                            model=assumptions["model"]).to_json(highest=False)
    return {"assumptions": dict(assumptions), "figures": figures}


def _certificate(table, policy, *, sensitive, qi, group, individual, semantics, result,
                 created, entry: dict | None = None, labels: Mapping | None = None,
                 risk: Mapping | None = None) -> dict:
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
    certificate = {
        **certificate_header(CERTIFICATE_SCHEMA_VERSION, _KIND, created),
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
    if risk is not None:  # only when asked: a certificate without it is unchanged
        certificate["risk"] = _risk_section(text, risk)
    return certificate


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
    if "schema_version" in certificate and certificate["schema_version"] != version:
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


def _parse(certificate: Mapping) -> tuple[dict, Policy]:
    """Validate the layout; return the parameters and the policy."""
    parse_header(certificate, _KIND, CERTIFICATE_SCHEMA_VERSION, _REQUIRED, ("table",),
                 (CANONICAL_FORM, PARTITIONED_FORM))
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
    try:
        policy = policy_from_json(certificate["policy"])
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
        raise malformed("'labels' must be null or an object with 'file' and a 'sha256' of "
                        "64 hex digits") from None
    differences: list[str] = []
    form = certificate["table"].get("canonical_form", CANONICAL_FORM)
    entry = _table_entry(table, form)
    recorded = certificate["table"]["sha256"]
    if entry["sha256"] != recorded:
        return Verification(False, (f"The table does not match the certificate: its SHA-256 "
                                    f"is {entry['sha256']}, the certificate records "
                                    f"{recorded}.",), None)
    risk = _parse_risk(certificate, parameters)
    if risk is not None and risk["population_size"] is not None \
            and risk["population_size"] < entry["n_rows"]:
        raise malformed(f"'risk.assumptions.population_size' ({risk['population_size']}) is "
                        f"smaller than the table's {entry['n_rows']} rows")
    recomputed = _certificate(table, policy, sensitive=parameters["sensitive"],
                              qi=parameters["qi"], group=parameters["group"],
                              individual=parameters["individual"],
                              semantics=parameters["semantics"], result=None,
                              created=certificate.get("created"), entry=entry,
                              labels=record, risk=risk)
    claimed = {}
    for entry in certificate["checks"]:
        try:
            key = _key(entry)
            exact = parse_fraction(entry["breach_probability_exact"])
        except (TypeError, ValueError, ZeroDivisionError):
            raise malformed(f"the check {_point_text(entry)} has an unreadable number") \
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
    if risk is not None:
        differences += _risk_differences(certificate["risk"]["figures"],
                                         recomputed["risk"]["figures"], "")
    return Verification(not differences, tuple(differences), recomputed)


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
        isinstance(actual, float) and isinstance(claimed, (int, float))
        and not isinstance(claimed, bool)
        and math.isclose(claimed, actual, rel_tol=1e-9, abs_tol=0.0))
    if same:
        return []
    return [f"The risk figure {path!r} differs: the certificate records {claimed!r}, the "
            f"table gives {actual!r}."]
