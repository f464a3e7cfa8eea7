"""Every column of a table to release, classified before anything is released.

A column is a quasi-identifier (generalized by the search), the sensitive column (judged by
the policy), *kept* (published as is, listed as such) or *dropped* (left out of the release).
Nothing is copied into a release unexamined: an unclassified column is an error that lists
the columns and says how to classify them, as ARX makes the publisher give every attribute a
type (identifying, quasi-identifying, sensitive, insensitive) before a release
(Prasser and Kohlmayer, "Putting statistical disclosure control into practice: the ARX data
anonymization tool", 2015).  The escape ``keep_rest`` (``--keep-rest``) keeps every
unclassified column, and says loudly which ones were copied unanalysed.

This module is the one home of the classification and of every message about it, for the
Python API (``keep=`` / ``drop=`` / ``keep_rest=``) and the command line (``--keep`` /
``--drop`` / ``--keep-rest``): ``style`` picks the spelling of the options a message names.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..errors import InvalidParameterError, UnanalysedColumnWarning, UsageError
from .warning import warn

__all__ = ["Classification", "classify_columns", "classification_from_dict",
           "column_differences", "verified_columns", "STYLES"]

#: How messages spell the options: the Python keywords or the command-line flags.
STYLES: dict[str, dict[str, str]] = {
    "python": {"keep": "keep=[...]", "drop": "drop=[...]", "keep_rest": "keep_rest=True",
               "kept": "keep", "dropped": "drop"},
    "cli": {"keep": "--keep COL,...", "drop": "--drop COL,...", "keep_rest": "--keep-rest",
            "kept": "--keep", "dropped": "--drop"},
}


def _names(columns: Iterable) -> str:
    return ", ".join(repr(str(c)) for c in columns)


@dataclass(frozen=True)
class Classification:
    """The role of every column of a table to release.

    Attributes
    ----------
    qi : tuple of str
        The quasi-identifiers (empty for a release grouped by a bucket column).
    sensitive : str or None
        The sensitive column (None for k-anonymity, which has none).
    kept : tuple of str
        Columns published as is, in table order (``copied`` among them).
    dropped : tuple of str
        Columns left out of the release, in table order.
    copied : tuple of str
        The kept columns no one classified, copied by ``keep_rest`` (``--keep-rest``).
    others : tuple of str
        Other analysed columns: the bucket column and the individual column, when given.

    Examples
    --------
    >>> c = classify_columns(["age", "zip", "dx", "name"], qi=["age", "zip"], sensitive="dx",
    ...                      drop=["name"])
    >>> c.to_dict()
    {'qi': ['age', 'zip'], 'sensitive': 'dx', 'kept': [], 'dropped': ['name']}
    >>> c.explain()
    "Columns: quasi-identifiers 'age', 'zip'; sensitive 'dx'; kept as is: none; dropped: 'name'."
    """

    qi: tuple
    sensitive: str | None
    kept: tuple = ()
    dropped: tuple = ()
    copied: tuple = ()
    others: tuple = ()

    def to_dict(self) -> dict:
        """The certificate's ``classification`` field."""
        return {"qi": list(self.qi), "sensitive": self.sensitive, "kept": list(self.kept),
                "dropped": list(self.dropped)}

    @property
    def released(self) -> tuple:
        """The columns a release of this classification holds: the analysed ones and the
        kept ones (the dropped ones are absent)."""
        return (*self.qi, *([] if self.sensitive is None else [self.sensitive]), *self.others,
                *self.kept)

    def select(self, table):
        """``table`` without the dropped columns (a new frame; ``table`` itself when nothing
        is dropped), in its column order; any frame with ``.columns`` and ``[list]``."""
        if not self.dropped:
            return table
        gone = set(self.dropped)
        return table[[c for c in table.columns if c not in gone]]

    def explain(self, style: str = "python") -> str:
        """Every role and its columns on one line, then, when ``keep_rest`` copied columns,
        the loud line about them (naming the escape as ``style`` spells it)."""
        parts = [f"quasi-identifiers {_names(self.qi)}" if self.qi else "no quasi-identifiers"]
        if self.sensitive is not None:
            parts.append(f"sensitive {self.sensitive!r}")
        if self.others:
            parts.append(f"grouping {_names(self.others)}")
        parts.append(f"kept as is: {_names(self.kept) if self.kept else 'none'}")
        parts.append(f"dropped: {_names(self.dropped) if self.dropped else 'none'}")
        line = "Columns: " + "; ".join(parts) + "."
        return line + ("\n" + self.copied_message(style) if self.copied else "")

    def dropped_note(self) -> str:
        """What a check certified without the dropped columns asks of the publisher."""
        return (f"Certified without the dropped column(s) {_names(self.dropped)}: publish the "
                f"table without them (verify checks the columns).")

    def copied_message(self, style: str = "python") -> str:
        """The loud sentence about the columns ``keep_rest`` copied unanalysed."""
        return (f"WARNING: {STYLES[style]['keep_rest']} copied {len(self.copied)} "
                f"column(s) into the release unanalysed: {_names(self.copied)}; no privacy "
                f"check covers them.")


def _listed(value, name: str, owner: str, style: str) -> list:
    """``keep`` / ``drop`` as a list of column names (None: none)."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping) or not isinstance(value, Iterable):
        raise _error(style, f"The '{name}' parameter of {owner} must be None or a list of "
                            f"column names. Got {value!r} instead.")
    return list(dict.fromkeys(value))


def _error(style: str, message: str) -> Exception:
    return (UsageError if style == "cli" else InvalidParameterError)(message)


def classify_columns(columns: Iterable, *, qi, sensitive: str | None, keep=None, drop=None,
                     keep_rest: bool = False, others: Iterable = (), owner: str = "anonymize",
                     style: str = "python") -> Classification:
    """Classify every column of a table: the QIs, the sensitive column, ``others`` (a bucket
    or individual column), ``keep`` and ``drop`` must account for every one.

    Parameters
    ----------
    columns : iterable of str
        The table's columns, in order.
    qi : str or list of str
    sensitive : str or None
    keep, drop : str or list of str, optional
        Columns published as is, and columns left out of the release.
    keep_rest : bool, default False
        Keep every column not classified, with an :class:`UnanalysedColumnWarning` (Python
        style) naming them; the command line prints :meth:`Classification.copied_message`.
    others : iterable of str
        Further analysed columns (the bucket column of a bucketized release, the individual
        column of an mvpi one).
    owner : str
        The function named in messages.
    style : {'python', 'cli'}
        How messages name the options; errors are :class:`InvalidParameterError` (Python) or
        :class:`UsageError` (command line, exit 2).

    Returns
    -------
    Classification

    Raises
    ------
    InvalidParameterError or UsageError
        An unclassified column (without ``keep_rest``), a column given two roles, or a
        ``keep`` / ``drop`` name that is not a column; one line naming the columns.
    """
    words = STYLES[style]
    if not isinstance(keep_rest, bool):
        raise _error(style, f"The 'keep_rest' parameter of {owner} must be True or False. "
                            f"Got {keep_rest!r} instead.")
    columns = [str(c) for c in columns]
    qi = [qi] if isinstance(qi, str) else [str(c) for c in (qi or [])]
    others = [str(c) for c in others if c is not None]
    kept = _listed(keep, "keep", owner, style)
    dropped = _listed(drop, "drop", owner, style)
    present = set(columns)
    for option, names in (("kept", kept), ("dropped", dropped)):
        missing = [c for c in names if c not in present]
        if missing:
            raise _error(style, f"{words[option]} names {_names(missing)}, which the table "
                                f"does not have; its columns are {_names(columns)}.")
    roles: dict[str, str] = {}
    for role, names in (("a quasi-identifier", qi),
                        ("the sensitive column", [] if sensitive is None else [sensitive]),
                        ("a grouping column", others), ("kept", kept), ("dropped", dropped)):
        for name in names:
            if name in roles and roles[name] != role:
                raise _error(style, f"Column {name!r} is both {roles[name]} and {role}; give "
                                    f"every column one role.")
            roles.setdefault(name, role)
    rest = [c for c in columns if c not in roles]
    if rest and not keep_rest:
        raise _error(style, f"{len(rest)} column(s) of the table are not classified: "
                            f"{_names(rest)}; name each one a quasi-identifier or the "
                            f"sensitive column, keep it ({words['keep']}: published as is) or "
                            f"drop it ({words['drop']}: left out of the release), or pass "
                            f"{words['keep_rest']} to copy them unanalysed.")
    kept_set = set(kept) | set(rest)
    dropped_set = set(dropped)
    classification = Classification(
        qi=tuple(qi), sensitive=sensitive,
        kept=tuple(c for c in columns if c in kept_set),
        dropped=tuple(c for c in columns if c in dropped_set),
        copied=tuple(rest), others=tuple(others))
    if rest and style == "python":
        warn(classification.copied_message("python"), UnanalysedColumnWarning)
    return classification


def classification_from_dict(data) -> Classification:
    """The classification a certificate records (its ``classification`` field).

    Raises
    ------
    ValueError
        When it is not ``{"qi": [...], "sensitive": str or null, "kept": [...],
        "dropped": [...]}`` of column names.
    """
    keys = ("qi", "sensitive", "kept", "dropped")
    if not isinstance(data, Mapping) or sorted(data) != sorted(keys):
        raise ValueError(f"'classification' must be an object with exactly the fields "
                         f"{list(keys)}")
    for key in ("qi", "kept", "dropped"):
        if not isinstance(data[key], list) or not all(isinstance(c, str) for c in data[key]):
            raise ValueError(f"'classification.{key}' must be a list of column names")
    if data["sensitive"] is not None and not isinstance(data["sensitive"], str):
        raise ValueError("'classification.sensitive' must be a column name or null")
    return Classification(qi=tuple(data["qi"]), sensitive=data["sensitive"],
                          kept=tuple(data["kept"]), dropped=tuple(data["dropped"]))


def column_differences(columns: Iterable, classification: Classification,
                       others: Iterable = ()) -> list[str]:
    """What ``verify`` says when a released table's columns are not exactly the QIs, the
    sensitive column, the kept columns and ``others`` (the bucket and individual columns)
    of its recorded classification."""
    columns = [str(c) for c in columns]
    expected = [*classification.released, *(c for c in others if c is not None)]
    out = []
    unlisted = [c for c in columns if c not in set(expected)]
    if unlisted:
        out.append(f"The table has column(s) {_names(unlisted)} that the certificate's "
                   f"classification does not list (neither analysed nor kept).")
    absent = [c for c in dict.fromkeys(expected) if c not in set(columns)]
    if absent:
        out.append(f"The certificate's classification lists column(s) {_names(absent)} that "
                   f"the table does not have.")
    return out


def verified_columns(record) -> str:
    """The clause of ``verify``'s VERIFIED line about the columns a certificate's
    ``classification`` record keeps unanalysed ('' when it records none).

    Examples
    --------
    >>> verified_columns({"qi": ["age"], "sensitive": "dx", "kept": ["id"], "dropped": []})
    "columns checked: kept as is (not analysed) 'id', "
    """
    if not isinstance(record, Mapping):
        return ""
    kept = record.get("kept") or []
    return (f"columns checked: kept as is (not analysed) {_names(kept)}, " if kept
            else "columns checked: none kept unanalysed, ")
