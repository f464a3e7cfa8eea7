"""``skyprivacy anonymize --individual COL``: a table of one row per person and sensitive value
(mvpi, Sect. 2.1 of Chen, LeFevre and Ramakrishnan 2009), anonymized person by person.

The search partitions people, not rows: each person becomes one row whose sensitive cell holds
their values (the table :func:`skyprivacy.anonymize.skyline_anonymize` takes for mvpi), and
the released table is the input's rows again, one per person and value, each carrying its
person's generalized quasi-identifiers, as ``skyprivacy check --individual COL`` reads it.

With ``--engine dask`` the persons are aggregated where the partitions live (one row per
person, in order of their first row, as the pandas path lists them), anonymized by the Dask
engine, and every partition of the input gets its persons' labels: the same released rows
and certificate as on one machine."""

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
    if args.bucketized:
        raise UsageError("--individual works with a generalized release (not --bucketized)")
    if person not in table.columns:
        from ..io import require_columns

        require_columns(table, [person])
    from ..io import reject_missing
    from .context import na_values

    reject_missing(table, [person], na_values(args))
    if not isinstance(table, pd.DataFrame):  # a dask frame
        return _persons_dask(args, table, person)
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
    if not isinstance(released, pd.DataFrame):  # a dask release: its persons' labels
        labels = released[[person, *args.qi]].compute().set_index(person)
        return table.map_partitions(_labelled, labels, person, meta=_empty(table))
    return _labelled(table, released.set_index(person)[list(args.qi)], person)


def _empty(table) -> pd.DataFrame:
    """An empty frame of a dask frame's columns and dtypes (its partitions' form)."""
    return pd.DataFrame({c: pd.Series([], dtype=t) for c, t in table.dtypes.items()})


def _labelled(table: pd.DataFrame, labels: pd.DataFrame, person: str) -> pd.DataFrame:
    """``table`` with each QI of ``labels`` replaced by its person's label."""
    out = table.copy()
    for column in labels.columns:
        out[column] = table[person].map(labels[column])
    return out


#: The column of the row position while persons are aggregated on Dask.
_FIRST = "__skyprivacy_first_row__"


def _with_positions(part: pd.DataFrame, offset: int) -> pd.DataFrame:
    return part.assign(**{_FIRST: range(offset, offset + len(part))})


def _values_of(chunks: pd.Series) -> pd.Series:
    """A person's values from its chunks' lists, in partition (row) order."""
    return chunks.apply(lambda lists: tuple(v for values in lists for v in values))


def _persons_dask(args, table, person: str):
    """:func:`one_row_per_person` of a dask frame: the same persons in the same order (each
    person's first row), aggregated on the workers; a person whose QIs disagree is the same
    one-line error."""
    import dask
    import dask.dataframe as dd
    from dask import delayed

    from ..dask_engine._compute import keep_objects

    qi, sensitive = list(args.qi), args.sensitive
    with keep_objects():
        counts = dict(zip(qi, dask.compute(*[table.groupby(person)[column].nunique()
                                             for column in qi])))
        for column in qi:
            if (counts[column] > 1).any():
                at = table[table[person].isin(counts[column].index[counts[column] > 1])
                           ].compute()
                who = at[person].iloc[0]
                cells = pd.unique(at.loc[at[person] == who, column])
                raise InputError(
                    f"Table {args.table!r}: individual {who!r} has {len(cells)} different "
                    f"{column!r} cells ({cells[0]!r}, {cells[1]!r}); a person's "
                    f"quasi-identifiers must agree on all their rows.")
        lengths = table.map_partitions(len).compute().tolist()
        offsets = [sum(lengths[:i]) for i in range(len(lengths))]
        meta = _empty(table).assign(**{_FIRST: pd.Series([], dtype="int64")})
        framed = dd.from_delayed([delayed(_with_positions)(part, offset) for part, offset
                                  in zip(table.to_delayed(), offsets)], meta=meta,
                                 verify_meta=False)
        collect = dd.Aggregation(
            "values", chunk=lambda s: s.apply(list),
            agg=lambda s: s.apply(lambda lists: [v for chunk in lists for v in chunk]),
            finalize=lambda s: s.apply(tuple))
        groups = framed.groupby(person)
        persons = groups[[*qi, _FIRST]].agg({**{c: "first" for c in qi}, _FIRST: "min"})
        persons[sensitive] = groups[sensitive].agg(collect)
        persons = persons.reset_index().sort_values(_FIRST)
        return persons[[person, *qi, sensitive]].reset_index(drop=True)
