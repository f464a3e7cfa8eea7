"""Set labels: how a group of categories is published, and the file that names long ones.

A quasi-identifier without a hierarchy is split as an ordered run of categories (Sect. 6.2:
any contiguous run of values can form a group).  A group that keeps one category publishes
it unchanged; a group spanning every category of the column publishes ``*``; any other group
publishes the set of categories its run covers:

* in full, ``{Divorced, Separated, Widowed}``, when that text is at most ``label_length``
  characters and no member holds a comma (so the label splits back into its members at
  ``", "``);
* otherwise as a short digest, ``{#3f9a2c1b: 12 values}``, whose members are listed in a
  *set-label file* written beside the released table.  The digest is the first hexadecimal
  digits (8, more only when two sets of one column would share them) of the SHA-256 of the
  members as a compact JSON array in UTF-8, ``["a","b"]``: anyone can recompute it.

The set-label file is a JSON object (:func:`labels_document`)::

    {"schema_version": 1, "kind": "skyprivacy.set-labels",
     "columns": {"occupation": {"3f9a2c1b": ["Adm-clerical", "Armed-Forces", ...]}}}

A certificate records its name and SHA-256; :func:`label_differences` checks a released table
against it.  Everything here is pure: files are read and written by :mod:`skyprivacy.io` and
:mod:`skyprivacy.cli`.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence

import pandas as pd

from ._core.text import MAX_NESTING, nesting_depth

__all__ = ["LABELS_SCHEMA_VERSION", "DEFAULT_LABEL_LENGTH", "SUPPRESSED", "member_digest",
           "set_label", "labels_document", "labels_bytes", "labels_record", "parse_labels",
           "label_differences"]

#: Version of the set-label file layout.
LABELS_SCHEMA_VERSION = 1
#: Longest set label listed in full, in characters (braces and separators included).
DEFAULT_LABEL_LENGTH = 80
#: The label of a group spanning every category of its column.
SUPPRESSED = "*"
_KIND = "skyprivacy.set-labels"
_DIGEST_LENGTH = 8
_DIGEST_LABEL = re.compile(r"^\{#([0-9a-f]{8,64}): ([0-9]+) values\}$")


def member_digest(members: Sequence[str]) -> str:
    """The full SHA-256 (hex) of a member list, as a compact UTF-8 JSON array.

    Examples
    --------
    >>> member_digest(["a", "b"])[:8]
    '0473ef2d'
    """
    text = json.dumps([str(m) for m in members], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def set_label(members: Sequence[str], label_length: int | None, known: dict) -> str:
    """The label of a run of two or more categories (see the module docstring).

    Parameters
    ----------
    members : sequence of str
        The categories of the run, in the column's order.
    label_length : int or None
        Longest label listed in full; ``None`` lists every set in full (when no member holds
        a comma).
    known : dict
        The digests already given in this column (``digest -> members``); a new digest is
        added to it, lengthened beyond 8 digits only if it would collide.

    Examples
    --------
    >>> known = {}
    >>> set_label(["Divorced", "Widowed"], 64, known)
    '{Divorced, Widowed}'
    >>> set_label(["a", "b"], 4, known), known
    ('{#0473ef2d: 2 values}', {'0473ef2d': ('a', 'b')})
    """
    members = tuple(str(m) for m in members)
    listed = "{" + ", ".join(members) + "}"
    if ((label_length is None or len(listed) <= label_length)
            and not any("," in m for m in members)):
        return listed
    full = member_digest(members)
    size = _DIGEST_LENGTH
    while known.get(full[:size], members) != members:
        size += 1
    known[full[:size]] = members
    return f"{{#{full[:size]}: {len(members)} values}}"


def labels_document(set_labels: Mapping) -> dict:
    """The JSON object of a set-label file: ``{column: {digest: [members]}}`` wrapped with
    its ``schema_version`` and ``kind``.

    Examples
    --------
    >>> labels_document({"job": {"0473ef2d": ("a", "b")}})["columns"]
    {'job': {'0473ef2d': ['a', 'b']}}
    """
    return {"schema_version": LABELS_SCHEMA_VERSION, "kind": _KIND,
            "columns": {str(column): {digest: list(members)
                                      for digest, members in sorted(sets.items())}
                        for column, sets in set_labels.items() if sets}}


def labels_bytes(set_labels: Mapping) -> bytes:
    """The bytes of the set-label file of ``set_labels`` (indented UTF-8 JSON, final newline),
    exactly as the command line writes it.

    Examples
    --------
    >>> labels_bytes({"job": {"0473ef2d": ("a", "b")}}).splitlines()[1]
    b'  "schema_version": 1,'
    """
    return (json.dumps(labels_document(set_labels), indent=2, ensure_ascii=False)
            + "\n").encode("utf-8")


def labels_record(data: bytes, file: str) -> dict:
    """What a certificate records of a set-label file: its name (relative to the released
    table's folder) and the SHA-256 of its bytes.

    Examples
    --------
    >>> labels_record(b"{}", "out.labels.json")["sha256"][:12]
    '44136fa355b3'
    """
    return {"file": str(file), "sha256": hashlib.sha256(data).hexdigest()}


def parse_labels(data: bytes | str) -> dict:
    """The ``{column: {digest: tuple of members}}`` of a set-label file's text.

    Raises
    ------
    ValueError
        With one sentence saying what is wrong (not JSON, wrong kind or version, a digest
        that is not the SHA-256 of its members).
    """
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValueError("it is not UTF-8 text") from None
    depth = nesting_depth(data)
    if depth > MAX_NESTING:
        raise ValueError(f"it nests arrays or objects {depth} levels deep; at most "
                         f"{MAX_NESTING} are read")
    try:
        document = json.loads(data)
    except json.JSONDecodeError as exc:
        raise ValueError(f"it is not valid JSON: {exc}") from None
    if not isinstance(document, dict) or document.get("kind") != _KIND:
        raise ValueError(f"it is not a set-label file (no \"kind\": \"{_KIND}\")")
    if document.get("schema_version") != LABELS_SCHEMA_VERSION:
        raise ValueError(f"schema_version {document.get('schema_version')!r} is not supported "
                         f"(this skyprivacy reads {LABELS_SCHEMA_VERSION})")
    columns = document.get("columns")
    if not isinstance(columns, dict):
        raise ValueError("'columns' must map column names to {digest: [members]}")
    out: dict[str, dict[str, tuple[str, ...]]] = {}
    for column, sets in columns.items():
        if not isinstance(sets, dict):
            raise ValueError(f"the sets of column {column!r} must be an object")
        out[column] = {}
        for digest, members in sets.items():
            if (not isinstance(members, list) or len(members) < 2
                    or not all(isinstance(m, str) for m in members)):
                raise ValueError(f"the members of {digest!r} in column {column!r} must be a "
                                 f"list of at least two strings")
            if (not re.fullmatch(r"[0-9a-f]{8,64}", digest)
                    or not member_digest(members).startswith(digest)):
                raise ValueError(f"{digest!r} in column {column!r} is not the SHA-256 of its "
                                 f"members")
            out[column][digest] = tuple(members)
    return out


def label_differences(table: pd.DataFrame, columns: Sequence[str], sets: Mapping) -> list[str]:
    """Sentences for every digest label of ``table[columns]`` the set-label file does not
    resolve (an unknown digest, or another number of members), in order of appearance.

    Examples
    --------
    >>> table = pd.DataFrame({"job": ["{#0473ef2d: 2 values}", "{#00000000: 3 values}"]})
    >>> label_differences(table, ["job"], {"job": {"0473ef2d": ("a", "b")}})
    ["Column 'job' publishes '{#00000000: 3 values}', which the set-label file does not list."]
    """
    differences = []
    for column in columns:
        if column not in table.columns:
            continue
        known = sets.get(column, {})
        cells = table[column].astype(str)
        # a partitioned (dask) table: its distinct labels only reach this process
        distinct = (cells.drop_duplicates().compute() if hasattr(cells, "compute")
                    else pd.unique(cells))
        for label in distinct:
            match = _DIGEST_LABEL.match(label)
            if match is None:
                continue
            members = known.get(match.group(1))
            if members is None:
                differences.append(f"Column {column!r} publishes {label!r}, which the "
                                   f"set-label file does not list.")
            elif len(members) != int(match.group(2)):
                differences.append(f"Column {column!r} publishes {label!r}, but the set-label "
                                   f"file lists {len(members)} members for it.")
    return differences
