"""``ReleaseCandidate.from_table`` over a dask DataFrame: one distributed aggregation.

Every partition is scanned once: its key columns and sensitive values are coded in order of
first appearance and reduced to (group combination, value, count) triples, with the counts of
missing values, the first list-like cell and the first person holding a value twice.  The
partial results are merged in partition order (so "first" means first in the table), and
only the merged triples and the distinct values of each column reach the client, which orders
the groups and the values exactly as :meth:`ReleaseCandidate.from_table` does on one frame:
the result is equal (``==``) to the pandas path on the same rows, with the same errors.

The model is the one of Chen, LeFevre and Ramakrishnan (2009), Sect. 2.1: QI-groups with their
sizes and sensitive-value multisets.  The ``individual`` column (mvpi with one row per
(individual, value)) needs a second, shuffled aggregation keyed by individual.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from dask.dataframe.utils import make_meta

from ..errors import CanonicalTextWarning, SchemaError, param_error
from .._core.canonical import canonical_codes, canonical_positions, text_notes
from .._core.encoding import factorize, is_missing, list_like_cells
from .._core.warning import warn
from .._core.exact import native
from ..release import (
    MISSING_OPTIONS,
    ReleaseCandidate,
    check_release_columns,
    check_semantics,
    check_sensitive,
    check_whitespace,
    elements_of,
    int32_where_it_fits,
    missing_values_error,
    row_order,
    spelling_notes,
)
from ..anonymize.source import distinct_rows, lexicographic_ids, narrow, positions_of_rows
from ._compute import (
    call,
    compute,
    keep_objects,
    literal,
    local_codes,
    merge_uniques,
    positions,
    tree_reduce,
)

__all__ = ["from_table"]


@dataclass(frozen=True)
class _Spec:
    keys: tuple
    sensitive: str
    individual: str | None
    semantics: str
    missing: str
    whitespace: str | None = "strip"
    qi: bool = True

    @property
    def used(self) -> tuple:
        return (*self.keys, self.sensitive) + ((self.individual,)
                                               if self.individual is not None else ())


def sensitive_facts(cells: pd.Series, semantics: str, missing: str, by_row: bool = True,
                    whitespace: str | None = "strip"):
    """One partition's facts about its sensitive cells for :func:`skyprivacy.release.
    sensitive_error` (the first list-like cell under svpi, the missing values inside list
    cells, the first row holding a value twice under mvpi-set when ``by_row``), and the
    partition's elements: (facts, row of every element or None, codes, distinct values in
    order of first appearance); under svpi with a list-like cell, no elements.  A value held
    twice is found in canonical form under ``whitespace``, as the pandas path finds it."""
    facts: dict = {"list_row": None, "dup_row": None, "elem_missing": 0}
    list_like = list_like_cells(cells)
    if semantics == "svpi":
        if list_like.any():
            facts["list_row"] = (cells.index[int(np.flatnonzero(list_like.to_numpy())[0])],)
            return facts, None, None, pd.Series([], dtype=object)
        codes, uniques = local_codes(cells)
        return facts, None, codes, uniques
    row_of, flat = elements_of(cells, list_like)
    if missing == "error":
        facts["elem_missing"] = int(flat.map(is_missing).sum())
    codes, uniques = local_codes(flat)
    if semantics == "mvpi-set" and by_row and len(uniques):
        remap, canon, _ = canonical_codes(np.arange(len(uniques)), uniques.tolist(), whitespace,
                                          keep_order=True)
        spelled = np.empty(len(canon), dtype=np.int64)  # a cell as written of every value
        spelled[remap[::-1]] = np.arange(len(remap))[::-1]
        pair = row_of * len(canon) + remap[codes]
        uniq, counts = np.unique(pair, return_counts=True)
        if (counts > 1).any():
            dup_rows, dup_values = np.divmod(uniq[counts > 1], len(canon))
            first = dup_rows[0]
            facts["dup_row"] = (cells.index[int(first)],
                                uniques.iloc[spelled[dup_values[dup_rows == first]]].tolist())
    return facts, row_of, codes, uniques


def merge_facts(out: dict, part: dict) -> None:
    """Fold a later partition's sensitive facts into ``out`` (first faults first)."""
    out["elem_missing"] += part["elem_missing"]
    for name in ("list_row", "dup_row"):
        if out[name] is None:
            out[name] = part[name]


def repeated_value(dup_row, uniques: pd.Series, rank: np.ndarray, values: list):
    """The merged scan's first row holding a value twice (``dup_row``: the row and its values
    held twice) as (row, value), the value the smallest in the sorted ``values`` (``rank``:
    the sorted position of every distinct value ``uniques``), as the in-memory rule names it;
    None when there is none."""
    if dup_row is None:
        return None
    row, duplicated = dup_row
    return row, values[int(rank[positions(uniques, pd.Series(duplicated, dtype=object))].min())]


def raise_sensitive_faults(facts: dict, column, *, list_cells: bool = True,
                           repeated: tuple | None = None, by_individual: bool = False) -> None:
    """Raise :func:`skyprivacy.release.sensitive_error` of merged facts (``list_cells``: the
    svpi check; else the mvpi ones, with ``repeated`` the first (row, value) held twice)."""
    if list_cells:
        check_sensitive(column, list_cell=facts["list_row"])
    else:
        check_sensitive(column, n_missing=facts["elem_missing"], repeated=repeated,
                        by_individual=by_individual)


def _scan(pdf: pd.DataFrame, spec: _Spec) -> dict:
    """One partition's part of the aggregation (see the module docstring)."""
    out: dict = {"n": len(pdf)}
    if spec.missing == "error":
        out["missing"] = np.array([int(pdf[c].isna().sum()) for c in spec.used],
                                  dtype=np.int64)
    facts, row_of, value_codes, out["values"] = sensitive_facts(
        pdf[spec.sensitive], spec.semantics, spec.missing, by_row=spec.individual is None,
        whitespace=spec.whitespace)
    out.update(facts)
    coded = [local_codes(pdf[k]) for k in spec.keys]
    out["keys"] = [uniques for _, uniques in coded]
    cards = [len(u) for u in out["keys"]]
    key_codes = [narrow(codes, card) for (codes, _), card in zip(coded, cards)]
    n_values = len(out["values"])
    if spec.semantics == "svpi":
        out["pairs"] = (None if value_codes is None else
                        distinct_rows(key_codes + [value_codes], cards + [n_values],
                                      compact=True))
        return out
    out["rows"] = distinct_rows(key_codes, cards, compact=True)
    out["pairs"] = distinct_rows([codes[row_of] for codes in key_codes] + [value_codes],
                                 cards + [n_values], compact=True)
    return out


def _combine(parts: list) -> dict:
    """Merge partial scans in partition order."""
    out = dict(parts[0])
    out["keys"] = list(out["keys"])
    pairs = [out["pairs"]] if out["pairs"] is not None else []
    rows = [out["rows"]] if out.get("rows") is not None else []
    for part in parts[1:]:
        out["n"] += part["n"]
        if "missing" in out:
            out["missing"] = out["missing"] + part["missing"]
        merge_facts(out, part)
        maps = []
        for i, uniques in enumerate(part["keys"]):
            out["keys"][i], where = merge_uniques(out["keys"][i], uniques)
            maps.append(narrow(where, len(out["keys"][i])))
        out["values"], value_map = merge_uniques(out["values"], part["values"])
        value_map = narrow(value_map, len(out["values"]))
        if out["list_row"] is not None:
            pairs, rows = [], []
            continue
        if part["pairs"] is not None:
            columns, counts = part["pairs"]
            remapped = [m[c] for m, c in zip(maps, columns[:-1])] + [value_map[columns[-1]]]
            pairs.append((remapped, counts))
        if part.get("rows") is not None:
            columns, counts = part["rows"]
            rows.append(([m[c] for m, c in zip(maps, columns)], counts))
    cards = [len(u) for u in out["keys"]]

    def merged(tables, extra):
        if not tables:
            return None
        columns = [np.concatenate([t[0][i] for t in tables]) for i in range(len(tables[0][0]))]
        counts = np.concatenate([t[1] for t in tables])
        return distinct_rows(columns, cards + extra, counts, compact=True)

    out["pairs"] = None if out["list_row"] is not None else merged(pairs, [len(out["values"])])
    out["rows"] = None if out["list_row"] is not None else merged(rows, [])
    return out


def scan_table(ddf, spec: _Spec) -> dict:
    """The merged scan of every partition, put in the pandas path's order on a worker: only
    the distinct values, the groups' codes and the (group, value, count) nonzeros come back."""
    spec_task = literal(spec, "spec")
    parts = [call(_scan, part, spec_task, prefix="scan") for part in ddf.to_delayed()]
    # four at a time: the top combine holds about as many rows as its children's nonzeros
    merged = tree_reduce(parts, _combine, prefix="scan-combine", split_every=4)
    (result,) = compute(call(_finalize, merged, spec_task, prefix="scan-finalize"))
    return result


def _finalize(scan: dict, spec: _Spec) -> dict:
    """Order the merged scan as the pandas path does: sorted distinct values per column and
    of the sensitive values, groups in lexicographic order of their keys, and the nonzeros as
    compact arrays (group id, value position, count)."""
    out = {name: scan[name] for name in ("n", "list_row", "dup_row", "elem_missing")}
    if "missing" in scan:
        out["missing"] = scan["missing"]
    if scan["list_row"] is not None or scan["n"] == 0:
        return out
    # the normalization of the pandas path, on the merged distinct values; its notes are
    # warned on the client, in the pandas path's order
    notes: list = []
    key_rank, key_values = zip(*(_canonical(u, spec, key, notes, qi=spec.qi)
                                 for key, u in zip(spec.keys, scan["keys"])))
    value_rank, values = _canonical(scan["values"], spec, spec.sensitive, notes, qi=False)
    out["notes"] = notes
    out["key_values"], out["values"] = key_values, values
    cards = [len(v) for v in key_values]
    key_rank = [narrow(rank, card) for rank, card in zip(key_rank, cards)]
    value_rank = narrow(value_rank, len(values))
    pair_columns, pair_counts = scan["pairs"]
    pair_keys = [rank[c] for rank, c in zip(key_rank, pair_columns[:-1])]
    rows = (pair_keys if spec.semantics == "svpi"
            else [rank[c] for rank, c in zip(key_rank, scan["rows"][0])])
    group_ids, combos = lexicographic_ids(rows, cards)
    out["combos"] = [c.astype(np.int32 if card < 2 ** 31 else np.int64)
                     for c, card in zip(combos, cards)]
    pair_group = (group_ids if spec.semantics == "svpi"
                  else positions_of_rows(pair_keys, combos, cards))
    n_groups = len(combos[0])
    pair_value = value_rank[pair_columns[-1]]
    if len(pair_value) and any(len(np.unique(rank)) < len(rank)
                               for rank in [*key_rank, value_rank]):
        # cells merged by the normalization: their (group, value) pairs are one nonzero
        pair_key = pair_group.astype(np.int64) * len(values) + pair_value
        unique_keys, inverse = np.unique(pair_key, return_inverse=True)
        pair_counts = np.bincount(inverse.reshape(-1), weights=pair_counts).astype(np.int64)
        pair_group, pair_value = unique_keys // len(values), unique_keys % len(values)
    if spec.semantics == "svpi":
        out["sizes"] = np.bincount(pair_group, weights=pair_counts,
                                   minlength=n_groups).astype(np.int64)
    # the nonzeros travel to the client already in the model's CSR order, in the narrowest
    # integers that hold them: the client adopts them without sorting or widening
    order = row_order(pair_group, pair_value, pair_counts, len(values))
    out["indptr"] = np.concatenate(
        [[0], np.cumsum(np.bincount(pair_group, minlength=n_groups))]).astype(np.int64)
    del pair_group
    out["nz_value"] = int32_where_it_fits(pair_value[order], len(values))
    out["nz_count"] = int32_where_it_fits(pair_counts[order])
    if spec.semantics != "svpi" and spec.individual is None:
        out["row_sizes"] = np.bincount(group_ids, weights=scan["rows"][1],
                                       minlength=len(combos[0])).astype(np.int64)
    out["dup_row"] = repeated_value(scan["dup_row"], scan["values"], value_rank, values)
    return out


def _canonical(uniques: pd.Series, spec: _Spec, column, notes: list, *,
               qi: bool) -> tuple[np.ndarray, list]:
    """:func:`_sorted_codes` in canonical form (as the pandas path's factorize and
    :func:`~skyprivacy._core.canonical.normalize_column`), its notes added to ``notes``."""
    codes, ordered = _sorted_codes(uniques)
    codes, canon, merged = canonical_codes(codes, ordered, spec.whitespace)
    notes += text_notes(column, canon, merged, spec.whitespace)
    notes += spelling_notes(column, canon, qi=qi)
    return codes, canon


def _sorted_codes(uniques: pd.Series) -> tuple[np.ndarray, list]:
    """For every distinct value (in first-appearance order): its code in the sorted order
    :func:`skyprivacy.release.factorize` gives the whole column, and that order's values."""
    codes, ordered = factorize(uniques.reset_index(drop=True))
    return codes, ordered


def from_table(table, *, sensitive: str, qi=None, group=None, individual=None,
               semantics: str = "svpi", missing: str = "error",
               whitespace: str | None = "strip") -> ReleaseCandidate:
    """:meth:`ReleaseCandidate.from_table` for a ``dask.dataframe.DataFrame`` (same parameters,
    result and errors; see there)."""
    owner = "ReleaseCandidate.from_table"
    semantics = check_semantics(semantics, owner)
    if missing not in MISSING_OPTIONS:
        raise param_error("missing", owner, f"be one of {list(MISSING_OPTIONS)}", missing)
    whitespace = check_whitespace(whitespace, owner)
    keys, used = check_release_columns(table, sensitive=sensitive, qi=qi, group=group,
                                       individual=individual, owner=owner)
    spec = _Spec(tuple(keys), sensitive, individual, semantics, missing, whitespace,
                 qi is not None)
    frame = table[list(dict.fromkeys(used))]
    scan = scan_table(frame, spec)
    return release_from_scan(frame, scan, spec)


def release_from_scan(frame, scan: dict, spec: _Spec) -> ReleaseCandidate:
    """Check the merged scan in the order of the pandas path, then build the model."""
    keys, sensitive, individual = list(spec.keys), spec.sensitive, spec.individual
    if scan["n"] == 0:
        raise SchemaError("The table is empty: a release candidate needs at least one row.")
    if spec.missing == "error":
        for column, n_missing in zip(spec.used, scan["missing"].tolist()):
            if n_missing:
                raise missing_values_error(column, n_missing)
    raise_sensitive_faults(scan, sensitive)
    for note in scan.get("notes", ()):
        warn(note, CanonicalTextWarning)
    key_values, values, combos = scan["key_values"], scan["values"], scan["combos"]
    cards = [len(v) for v in key_values]
    if spec.semantics == "svpi" and individual is not None:
        _svpi_individuals(frame, individual)
    n_groups = len(combos[0])
    labels = _labels(keys, key_values, combos)
    if spec.semantics == "svpi":
        sizes = scan["sizes"]
    elif individual is None:
        sizes = scan["row_sizes"]
    else:
        sizes = _mvpi_individuals(frame, spec, key_values, combos, cards, n_groups)
    sizes = sizes.astype(np.int64)
    raise_sensitive_faults(scan, sensitive, list_cells=False, repeated=scan["dup_row"])
    if spec.semantics == "mvpi-set" and len(values) and individual is not None:
        _mvpi_set_individuals(frame, spec, values)
    # the model adopts the arrays: the scan lets go of them
    indptr, value, count = scan.pop("indptr"), scan.pop("nz_value"), scan.pop("nz_count")
    return ReleaseCandidate.from_csr(sizes, indptr, value, count, values, labels=labels,
                                     semantics=spec.semantics, whitespace=spec.whitespace)


def _labels(keys: list, key_values: tuple, combos: list) -> pd.Index:
    """Group labels as the pandas path makes them (an Index, or a MultiIndex of the keys),
    built from the groups' codes without a Python object per cell."""
    if len(keys) == 1:
        return pd.Index(list(key_values[0]), name=keys[0], tupleize_cols=False)
    if any(is_missing(v) for values in key_values for v in values):
        arrays = [[values[c] for c in codes.tolist()]
                  for values, codes in zip(key_values, combos)]
        return pd.MultiIndex.from_arrays(arrays, names=list(keys))
    return pd.MultiIndex(levels=[pd.Index(list(values), tupleize_cols=False)
                                 for values in key_values],
                         codes=combos, names=list(keys), verify_integrity=False)


# ---------------------------------------------------------------- individuals (shuffled)
def _group_of_rows(pdf: pd.DataFrame, keys: list, key_values: tuple, combos: list,
                   cards: list, whitespace: str | None = "strip") -> np.ndarray:
    """The group id of every row of a partition (its cells in canonical form)."""
    columns = []
    for key, values in zip(keys, key_values):
        columns.append(canonical_positions(values, pdf[key].astype(object), whitespace))
    return positions_of_rows(columns, combos, cards)


def _svpi_individuals(frame, individual: str) -> None:
    """svpi with an individual column: every individual on one row."""
    counts = frame[individual].value_counts(dropna=False)
    duplicated = compute(counts[counts > 1])[0]
    if not len(duplicated):
        return
    wanted = set(duplicated.index.tolist())
    firsts = frame[individual].map_partitions(
        lambda s: s[s.isin(wanted)].head(1), meta=make_meta(frame[individual]))
    (found,) = compute(firsts)
    who = found.iloc[0]
    raise SchemaError(f"Individual {native(who)!r} appears in {int(duplicated[who])} rows; "
                      f"svpi allows one row per individual.")


def _person_groups(frame, spec: _Spec, key_values, combos, cards):
    """A dask frame of (person, group) per row, and the global row number of each row."""
    keys, individual = list(spec.keys), spec.individual
    args = literal((keys, key_values, combos, cards, spec.whitespace), "groups")

    def pairs(pdf, info):
        groups = _group_of_rows(pdf, *info)
        return pd.DataFrame({"person": pdf[individual].to_numpy(dtype=object),
                             "group": groups}, index=pdf.index)

    meta = pd.DataFrame({"person": pd.Series([], dtype=object),
                         "group": pd.Series([], dtype=np.int64)})
    with keep_objects():
        return frame.map_partitions(pairs, args, meta=meta)


def _mvpi_individuals(frame, spec: _Spec, key_values, combos, cards, n_groups) -> np.ndarray:
    """mvpi with an individual column: each person in one group; sizes count persons."""
    person_group = _person_groups(frame, spec, key_values, combos, cards)
    with keep_objects():
        distinct = person_group.drop_duplicates(split_out=max(frame.npartitions // 4, 1))
        per_person = distinct.groupby("person").size()
    sizes, clashing = compute(distinct.groupby("group").size(), per_person[per_person > 1])
    if len(clashing):
        _raise_clash(frame, spec, key_values, combos, cards, set(clashing.index.tolist()))
    out = np.zeros(n_groups, dtype=np.int64)
    out[sizes.index.to_numpy(dtype=np.int64)] = sizes.to_numpy(dtype=np.int64)
    return out


def _raise_clash(frame, spec, key_values, combos, cards, clashing: set) -> None:
    """Name the person of the first row whose group differs from the group of that
    person's last row (what the pandas path reports)."""
    individual = spec.individual
    parts = frame.to_delayed()  # lengths and rows from the same partitions
    lengths = compute(*[call(len, part, prefix="length") for part in parts])
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    info = (list(spec.keys), key_values, combos, cards, spec.whitespace)
    pieces = []
    for i, part in enumerate(parts):
        def rows(pdf, start, info=info):
            keep = pdf[individual].isin(clashing).to_numpy()
            groups = _group_of_rows(pdf[keep], *info)
            return pd.DataFrame({"row": start + np.flatnonzero(keep),
                                 "person": pdf[individual].to_numpy(dtype=object)[keep],
                                 "group": groups})
        pieces.append(call(rows, part, int(offsets[i]), prefix="clash"))
    table = pd.concat(compute(*pieces), ignore_index=True)
    last = table.groupby("person", sort=False)["group"].last()
    clash = table[table["group"].to_numpy() != last.reindex(table["person"]).to_numpy()]
    who = clash.sort_values("row")["person"].iloc[0]
    raise SchemaError(f"Individual {native(who)!r} appears in more than one QI-group; each "
                      f"individual must belong to exactly one group.")


def _mvpi_set_individuals(frame, spec: _Spec, values: list) -> None:
    """mvpi-set with an individual column: no (person, value) twice across rows."""
    individual, sensitive = spec.individual, spec.sensitive
    value_codes = literal((values, spec.whitespace), "values")

    def elements(pdf, info):
        values, whitespace = info
        row_of, flat = elements_of(pdf[sensitive], list_like_cells(pdf[sensitive]))
        codes = canonical_positions(values, flat, whitespace)
        return pd.DataFrame({"person": pdf[individual].to_numpy(dtype=object)[row_of],
                             "value": codes})

    meta = pd.DataFrame({"person": pd.Series([], dtype=object),
                         "value": pd.Series([], dtype=np.int64)})
    with keep_objects():
        pairs = frame.map_partitions(elements, value_codes, meta=meta)
        counts = pairs.groupby(["person", "value"]).size()
    (duplicated,) = compute(counts[counts > 1])
    if not len(duplicated):
        return
    persons = pd.Series(duplicated.index.get_level_values("person"), dtype=object)
    ranks, _ = factorize(persons.drop_duplicates().reset_index(drop=True))
    order = dict(zip(persons.drop_duplicates().tolist(), ranks.tolist()))
    best = min(zip(duplicated.index.get_level_values("person").tolist(),
                   duplicated.index.get_level_values("value").tolist()),
               key=lambda pv: (order[pv[0]], pv[1]))
    raise_sensitive_faults({"elem_missing": 0}, sensitive, list_cells=False,
                           repeated=(best[0], values[int(best[1])]), by_individual=True)
