"""``skyprivacy anonymize --individual COL``: a table of one row per person and sensitive value
(mvpi, Sect. 2.1 of Chen, LeFevre and Ramakrishnan 2009), anonymized person by person.

The search partitions people, not rows: each person becomes one row whose sensitive cell holds
their values (the table :func:`skyprivacy.anonymize.skyline_anonymize` takes for mvpi), and
the released table is the input's rows again, one per person and value, each carrying its
person's generalized quasi-identifiers, as ``skyprivacy check --individual COL`` reads it."""

from __future__ import annotations

import pandas as pd

from ..errors import UsageError
from ..io import InputError


def one_row_per_person(args, table: pd.DataFrame) -> pd.DataFrame:
    """The persons of ``table`` (``--individual``): their quasi-identifiers, which must agree on
    every row of a person, and the tuple of their sensitive values in row order; ``table``
    itself without ``--individual``."""
    person = getattr(args, "individual", None)
    if person is None:
        return table
    if args.semantics == "svpi":
        raise UsageError("--individual names the person of each row of a table with several "
                         "sensitive values per person: pass --semantics mvpi-set or "
                         "mvpi-multiset (with svpi every row is a person already)")
    if person in args.qi or person == args.sensitive:
        raise UsageError(f"--individual {person} must be a column other than --qi and "
                         f"--sensitive")
    if args.bucketized or getattr(args, "engine", "pandas") != "pandas":
        raise UsageError("--individual works with a generalized release (not --bucketized) "
                         "on --engine pandas")
    if person not in table.columns:
        from ..io import require_columns

        require_columns(table, [person])
    from ..io import reject_missing
    from .context import na_values

    reject_missing(table, [person], na_values(args))
    groups = table.groupby(person, sort=False)
    for column in args.qi:
        counts = groups[column].nunique()
        if (counts > 1).any():
            who = counts.index[int((counts > 1).to_numpy().argmax())]
            cells = pd.unique(table.loc[table[person] == who, column])
            raise InputError(f"Table {args.table!r}: individual {who!r} has {len(cells)} "
                             f"different {column!r} cells ({cells[0]!r}, {cells[1]!r}); a "
                             f"person's quasi-identifiers must agree on all their rows.")
    persons = groups[[*args.qi]].first().reset_index()
    values = groups[args.sensitive].agg(tuple)
    persons[args.sensitive] = persons[person].map(values)
    return persons


def released_rows(args, table: pd.DataFrame, released: pd.DataFrame) -> pd.DataFrame:
    """The released table with ``--individual``: the input's rows (one per person and value)
    with their person's generalized quasi-identifiers; ``released`` itself without it."""
    person = getattr(args, "individual", None)
    if person is None:
        return released
    labels = released.set_index(person)[list(args.qi)]
    out = table.copy()
    for column in args.qi:
        out[column] = table[person].map(labels[column])
    return out
