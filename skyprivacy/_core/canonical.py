"""Canonical text: the one normalization under which cells, policy keys and hierarchy leaves
are compared.

Two cells that look the same must be the same value, or a table whose ``café`` is spelled in
two Unicode forms, or whose ``Flu`` sometimes carries a trailing space, is certified on groups
and values no reader of the table can tell apart.  The normalization (docs/canonical-text.md):

1. zero-width characters that never change what is shown (U+200B zero width space, U+2060
   word joiner, U+FEFF zero width no-break space / byte order mark) are removed;
2. the text is put in Unicode Normalization Form C (NFC: composed characters);
3. with ``whitespace='strip'`` (the default) surrounding whitespace is removed; ``'keep'``
   keeps it.

Other invisible format characters (zero width joiner and non-joiner, direction marks) can
change how text renders or reads, so they are kept; values that differ only by them are
reported.  It is applied to the distinct values of a column, never to every row, and it
decides which values are equal: the released cells keep their exact text.

References
----------
Unicode Standard Annex #15, Unicode Normalization Forms (NFC).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Final

import numpy as np
import pandas as pd

from ..errors import CanonicalTextWarning
from .encoding import sorted_uniques, value_key
from .warning import warn

__all__ = [
    "WHITESPACE",
    "UNICODE_FORM",
    "ZERO_WIDTH",
    "canonical_text",
    "canonical_codes",
    "normalization_record",
    "whitespace_of",
    "merged_message",
    "invisible_differences",
    "invisible_message",
    "text_notes",
    "normalize_column",
    "canonical_positions",
    "numeric_spellings",
    "spellings_message",
]

#: The choices for surrounding whitespace: removed (the default) or kept.
WHITESPACE = ("strip", "keep")
#: The Unicode normalization form every text is compared in.
UNICODE_FORM: Final = "NFC"
#: Zero-width characters removed wherever they stand: they never change what is shown.
ZERO_WIDTH = ("\u200b", "\u2060", "\ufeff")
_REMOVE = str.maketrans("", "", "".join(ZERO_WIDTH))
_LOOKS_NUMERIC = re.compile(r"\s*[+-]?\.?\d")
_NUMBER_START = frozenset("0123456789+-.")
#: The most merged sets (or spellings) one message lists.
SHOWN = 3


def canonical_text(value: object, whitespace: str | None = "strip") -> object:
    """The canonical form of one value: text normalized as the module docstring says; any
    other value (a number, a missing marker) unchanged; ``whitespace=None`` leaves text as
    it is (a certificate made before text was normalized).

    Examples
    --------
    >>> canonical_text("cafe\\u0301") == "caf\\u00e9", canonical_text(" Flu \\u200b")
    (True, 'Flu')
    >>> canonical_text(" Flu ", "keep"), canonical_text(3)
    (' Flu ', 3)
    """
    if not isinstance(value, str) or whitespace is None:
        return value
    if not value.isascii():
        value = unicodedata.normalize(UNICODE_FORM, value.translate(_REMOVE))
    return value.strip() if whitespace == "strip" else value


def normalization_record(whitespace: str | None) -> dict | None:
    """The certificate's ``normalization`` field: what was done to text before comparing
    (None for ``whitespace=None``: nothing).

    Examples
    --------
    >>> normalization_record("strip")
    {'unicode': 'NFC', 'whitespace': 'strip', 'removed': ['U+200B', 'U+2060', 'U+FEFF']}
    """
    if whitespace is None:
        return None
    return {"unicode": UNICODE_FORM, "whitespace": whitespace,
            "removed": [f"U+{ord(c):04X}" for c in ZERO_WIDTH]}


def whitespace_of(record: object) -> str | None:
    """The ``whitespace`` choice a certificate's ``normalization`` field records (None when
    the field is absent: a certificate made before text was normalized).

    Raises
    ------
    ValueError
        A record that is not exactly one this module makes, naming it.

    Examples
    --------
    >>> whitespace_of(normalization_record("keep")), whitespace_of(None)
    ('keep', None)
    """
    if record is None:
        return None
    for whitespace in WHITESPACE:
        if record == normalization_record(whitespace):
            return whitespace
    raise ValueError(f"'normalization' must be {normalization_record('strip')!r} with "
                     f"'whitespace' one of {list(WHITESPACE)}; got {record!r}")


def canonical_codes(codes: np.ndarray, uniques: Sequence, whitespace: str | None = "strip",
                    *, keep_order: bool = False) -> tuple[np.ndarray, list, list]:
    """Codes and distinct values of a column after normalization, from its
    :func:`~skyprivacy._core.encoding.factorize` result, and the sets of values merged.

    Only the distinct values are normalized; the codes are remapped (one pass over the rows)
    only when a value changed.  Distinct values stay in :func:`sorted_uniques` order, so the
    result is what factorizing the normalized column would give (with ``keep_order``, in the
    order of ``uniques``, a merged value at its first place).

    Returns
    -------
    codes : numpy.ndarray
    uniques : list
        The canonical distinct values.
    merged : list of tuple
        Every set of two or more distinct values that became one, as written (sorted).

    Examples
    --------
    >>> codes, uniques, merged = canonical_codes(np.array([0, 1, 2]), ["Flu", "Flu ", "flu"])
    >>> codes.tolist(), uniques, merged
    ([0, 0, 1], ['Flu', 'flu'], [('Flu', 'Flu ')])
    """
    canon = [canonical_text(u, whitespace) for u in uniques]
    if all(c is u or not isinstance(u, str) or c == u for c, u in zip(canon, uniques)):
        return codes, list(uniques), []
    ordered = (list(dict.fromkeys(value_key(c) for c in canon)) if keep_order
               else sorted_uniques(canon))
    if keep_order:  # back from keys to values (one missing marker, as it came)
        first = {value_key(c): c for c in reversed(canon)}
        ordered = [first[k] for k in ordered]
    position = {value_key(v): i for i, v in enumerate(ordered)}
    remap = np.fromiter((position[value_key(c)] for c in canon), dtype=np.int64,
                        count=len(canon))
    groups: dict = {}
    for u, c in zip(uniques, canon):
        groups.setdefault(value_key(c), []).append(u)
    merged = [tuple(sorted(g, key=str)) for g in groups.values() if len(g) > 1]
    new_codes = remap[codes] if len(codes) else np.asarray(codes, dtype=np.int64)
    return new_codes, ordered, sorted(merged, key=lambda g: [str(v) for v in g])


def _how_written(value: str, whitespace: str | None) -> str:
    """What sets one spelling apart: ``NFD``/``not NFC``, its zero-width characters, its
    surrounding spaces."""
    notes = []
    removed = [f"U+{ord(c):04X}" for c in ZERO_WIDTH if c in value]
    if removed:
        notes.append("zero-width " + " ".join(removed))
    bare = value.translate(_REMOVE)
    if unicodedata.normalize(UNICODE_FORM, bare) != bare:
        notes.append("NFD" if unicodedata.is_normalized("NFD", bare) else "not NFC")
    elif unicodedata.normalize("NFD", bare) != bare:
        notes.append("NFC")
    if whitespace == "strip" and bare != bare.strip():
        notes.append("surrounding whitespace")
    return f"{value!r}" + (f" ({', '.join(notes)})" if notes else "")


def merged_message(column: object, merged: list, whitespace: str | None,
                   what: str = "Column") -> str:
    """One sentence naming the values that became one (at most :data:`SHOWN` sets).

    Examples
    --------
    >>> print(merged_message("dx", [("Flu", "Flu ")], "strip"))
    Column 'dx': 'Flu' and 'Flu ' (surrounding whitespace) are the same value after NFC and
    whitespace='strip'; compared as one.
    """
    sets = []
    for group in merged[:SHOWN]:
        shown = [_how_written(v, whitespace) if isinstance(v, str) else repr(v)
                 for v in group]
        sets.append(", ".join(shown[:-1]) + " and " + shown[-1])
    more = f" (and {len(merged) - SHOWN} more set(s))" if len(merged) > SHOWN else ""
    return (f"{what} {column!r}: {'; '.join(sets)}{more} are the same value after "
            f"{UNICODE_FORM} and whitespace={whitespace!r}; compared as one.")


def invisible_differences(uniques: Sequence) -> list[tuple]:
    """Sets of distinct text values that differ only by the invisible format characters the
    normalization keeps (zero width joiner and non-joiner, direction marks: Unicode category
    Cf), in first-seen order.

    Examples
    --------
    >>> invisible_differences(["ab", "a\u200db", "c"]) == [("ab", "a\u200db")]
    True
    """
    def bare(text: str) -> str:
        return "".join(ch for ch in text if unicodedata.category(ch) != "Cf")

    # most columns hold no such character: one cheap pass, and nothing more, says so
    marked = {u for u in uniques if isinstance(u, str) and not u.isascii() and bare(u) != u}
    if not marked:
        return []
    groups: dict = {}
    for u in uniques:
        if isinstance(u, str):
            groups.setdefault(bare(u) if u in marked else u, []).append(u)
    return [tuple(g) for g in groups.values() if len(g) > 1]


def invisible_message(column: object, sets: list[tuple], what: str = "Column") -> str:
    """One sentence naming values that differ only by kept invisible characters.

    Examples
    --------
    >>> print(invisible_message("dx", [("ab", "a\u200db")]))
    Column 'dx': 'ab' and 'a\\u200db' differ only by invisible characters (U+200D); compared
    as different values.
    """
    shown, chars = [], set()
    for group in sets[:SHOWN]:
        shown.append(" and ".join(repr(v) for v in group))
        chars |= {ch for v in group for ch in v if unicodedata.category(ch) == "Cf"}
    more = f" (and {len(sets) - SHOWN} more set(s))" if len(sets) > SHOWN else ""
    codes = " ".join(f"U+{ord(c):04X}" for c in sorted(chars))
    return (f"{what} {column!r}: {'; '.join(shown)}{more} differ only by invisible "
            f"characters ({codes}); compared as different values.")


def text_notes(column: object, uniques: Sequence, merged: list,
               whitespace: str | None, what: str = "Column") -> list[str]:
    """The sentences a column's normalization calls for: values merged, and canonical
    values that still differ only by invisible characters (both engines report these)."""
    notes = [merged_message(column, merged, whitespace, what)] if merged else []
    if whitespace is not None:
        invisible = invisible_differences(uniques)
        if invisible:
            notes.append(invisible_message(column, invisible, what))
    return notes


def normalize_column(codes: np.ndarray, uniques: Sequence, whitespace: str | None,
                     column: object, *, keep_order: bool = False) -> tuple[np.ndarray, list]:
    """:func:`canonical_codes`, with a :class:`~skyprivacy.errors.CanonicalTextWarning` for
    every note of :func:`text_notes`."""
    codes, canon, merged = canonical_codes(codes, uniques, whitespace, keep_order=keep_order)
    for note in text_notes(column, canon, merged, whitespace):
        warn(note, CanonicalTextWarning)
    return codes, canon


def canonical_positions(values: Sequence, cells: pd.Series,
                        whitespace: str | None) -> np.ndarray:
    """Position in ``values`` (canonical distinct values) of every cell's canonical form, -1
    when absent; each distinct cell is normalized once.

    Examples
    --------
    >>> canonical_positions(["a", "b"], pd.Series(["b ", "a", "c"]), "strip").tolist()
    [1, 0, -1]
    """
    codes, uniques = pd.factorize(cells, use_na_sentinel=False)
    canon = pd.Index([canonical_text(u, whitespace) for u in uniques], dtype=object)
    found = pd.Index(list(values), dtype=object).get_indexer(canon)
    return np.asarray(found, dtype=np.int64)[codes] if len(codes) else \
        np.zeros(0, dtype=np.int64)


def numeric_spellings(uniques: Sequence) -> list[tuple]:
    """Sets of distinct text values that spell the same number (``'1'``, ``'01'``,
    ``'1.0'``), each in first-seen order; empty when no number is spelled twice.

    Examples
    --------
    >>> numeric_spellings(["1", "01", "2", "1.0", "x"])
    [('1', '01', '1.0')]
    """
    # only text that starts like a number is parsed (parsing fails slowly on other text)
    texts = pd.Series([u for u in uniques if isinstance(u, str)
                       and u.lstrip()[:1] in _NUMBER_START and _LOOKS_NUMERIC.match(u)],
                      dtype=object)
    if len(texts) < 2:
        return []
    numbers = pd.to_numeric(texts.str.strip(), errors="coerce")
    frame = pd.DataFrame({"text": texts.tolist(), "number": numbers.to_numpy(dtype=float)})
    frame = frame[np.isfinite(frame["number"].to_numpy())]
    if frame["number"].is_unique:
        return []
    return [tuple(group["text"]) for _, group in frame.groupby("number", sort=True)
            if len(group) > 1]


def spellings_message(column: object, spellings: list[tuple], n_distinct: int, *,
                      numbers: bool | None) -> str:
    """One sentence naming a column's numbers spelled several ways and the choice this
    forces: compared as text (``numbers=False``: every spelling its own value, with the
    options of the anonymizers; ``None``: a released table checked as written) or as
    numbers.

    Examples
    --------
    >>> print(spellings_message("age", [("1", "01", "1.0")], 3, numbers=False))
    Column 'age' mixes numeric spellings '1', '01', '1.0': treated as text, 3 distinct values;
    pass numeric=['age'] (--numeric age) to compare them as numbers.
    """
    shown = "; ".join(", ".join(repr(s) for s in group) for group in spellings[:SHOWN])
    more = f" (and {len(spellings) - SHOWN} more)" if len(spellings) > SHOWN else ""
    if numbers is None:
        return (f"Column {column!r} mixes numeric spellings {shown}{more}: compared as text, "
                f"{n_distinct} distinct values, as a reader of the table sees them; write "
                f"each number one way if the spellings mean the same.")
    if numbers:
        return (f"Column {column!r} mixes numeric spellings {shown}{more}: compared as "
                f"numbers, {n_distinct} distinct values; pass categorical=[{column!r}] "
                f"(--categorical {column}) to keep the spellings apart.")
    return (f"Column {column!r} mixes numeric spellings {shown}{more}: treated as text, "
            f"{n_distinct} distinct values; pass numeric=[{column!r}] (--numeric {column}) "
            f"to compare them as numbers.")
