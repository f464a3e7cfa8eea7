"""SkylineAnonymize and k-anonymity over a dask DataFrame (Sect. 6.2, Fig. 4, distributed).

The search is the in-memory one (:class:`skyprivacy.anonymize.Mondrian`), level by level, with
the same rules and order; only where the candidate statistics are computed changes:

1. **Encoding.** One scan finds every QI column's distinct values (in order of first
   appearance) and the sensitive values with their counts; the QI encoders are built on the
   client from those distinct values, so a code means what it means on one machine.  Every
   partition is then coded once (QI codes, value codes, its current group) and kept on the
   workers.
2. **Global levels.** While some group is larger than ``local_rows``, each level's candidate
   statistics come from one distributed aggregation of (group, QI code, value) counts; the
   client builds the candidates exactly as ``level_candidates`` does, decides the splits with
   ``_accept_level`` (or k-anonymity's size rule) and broadcasts a relabel table: a row's new
   group is a function of its group and its code (Mondrian is a tree).
3. **Local levels.** Once groups are small, their rows are shuffled so that each group lives
   on one worker.  For k-anonymity (independent groups) a worker finishes its groups with the
   in-memory engine.  Under a skyline policy, splits are coupled through the *global*
   statistics SS1..SS5 of every (value, point): each level the client broadcasts them, a worker
   accepts outright the first viable candidate of a group when none of its children's terms
   comes near any statistic (it can neither change a verdict nor an exact minimum), and sends
   the other groups' candidates to the client, which decides them sequentially in queue order
   exactly as in memory.  The result is the in-memory result.
4. **Release.** Group labels (ranges, hierarchy nodes, or the input cell when a group holds one
   value) are computed from per-group code ranges; the released table is a dask DataFrame with
   the input's partitions, index and row order, and the certificate is an independent
   :func:`skyprivacy.skyline_check` of the model aggregated from that released table.
"""

from __future__ import annotations

import math
import operator
import warnings

from typing import Any

import numpy as np
import pandas as pd

from ..anonymize import (
    SPLITS,
    AnonymizationResult,
    KAnonymizationResult,
    LevelCandidates,
    SparseGroups,
    check_columns,
    check_group_column,
    check_options,
    infeasible_error,
    Mondrian,
    PolicyPlan,
    label_length_of,
    set_labels_of,
)
from ..check import skyline_check
from ..errors import (
    InfeasibleError,
    InvalidParameterError,
    SchemaError,
    UnusedPolicyValueWarning,
    param_error,
)
from ..formulas import within_tolerance
from ..knowledge import Policy
from ..labels import DEFAULT_LABEL_LENGTH
from ..qi import (
    NumericQI,
    SetQI,
    TreeQI,
    category_orders,
    infer_kind,
    parsed_numbers,
    qi_kinds,
)
from .._core.encoding import factorize, list_like_cells
from ..release import ReleaseCandidate
from ._compute import (
    call,
    compute,
    distinct_rows,
    exchange,
    literal,
    keep_objects,
    local_codes,
    merge_uniques,
    persist,
    positions,
    split_by_key,
    split_by_row,
    tree_reduce,
)
from .release import elements_of

__all__ = ["skyline_anonymize", "k_anonymize", "DEFAULT_LOCAL_ROWS"]

#: Groups of at most this many rows are finished on the worker that holds them.
DEFAULT_LOCAL_ROWS = 1_000_000
#: Rows per worker-side chunk of the local levels (at least ``local_rows``).
CHUNK_ROWS = 2_000_000
_MARKER = "__skyprivacy_identity__"


# ============================================================================ scan
def _scan(pdf: pd.DataFrame, qi: list, sensitive, semantics: str) -> tuple:
    """One partition, read once: (summary, local codes).  The summary holds its length,
    missing counts, every QI's distinct values (first appearance) with counts, and the
    sensitive values (or elements) with counts; the local codes are the partition coded
    against its own distinct values, recoded later without reading the rows again."""
    out: dict[str, Any] = {"lengths": [len(pdf)], "list_like": False, "row_dup": False,
                           "elem_missing": 0}
    columns = list(qi) + ([sensitive] if sensitive is not None else [])
    out["missing"] = np.array([int(pdf[c].isna().sum()) for c in columns], dtype=np.int64)
    out["qi"] = []
    local: dict[str, Any] = {"codes": np.empty((len(pdf), len(qi)), dtype=np.int32),
                             "uniques": [],
             "elem_row": None, "elem_val": None, "value_uniques": None}
    for a, name in enumerate(qi):
        codes, uniques = local_codes(pdf[name])
        local["codes"][:, a] = codes
        local["uniques"].append(uniques)
        out["qi"].append((uniques, np.bincount(codes, minlength=len(uniques))))
    if sensitive is None:
        out["values"] = (pd.Series([0], dtype=np.int64), np.array([len(pdf)], dtype=np.int64))
        return out, local
    cells = pdf[sensitive]
    list_like = list_like_cells(cells)
    if semantics == "svpi":
        if list_like.any():
            out["list_like"] = True
            out["values"] = (pd.Series([], dtype=object), np.zeros(0, dtype=np.int64))
            return out, None
        codes, uniques = local_codes(cells)
        row_of = None
    else:
        row_of, flat = elements_of(cells, list_like)
        out["elem_missing"] = int(flat.isna().sum())
        codes, uniques = local_codes(flat)
        if semantics == "mvpi-set" and len(uniques):
            pair = row_of * len(uniques) + codes
            out["row_dup"] = len(np.unique(pair)) != len(pair)
    out["values"] = (uniques, np.bincount(codes, minlength=len(uniques)))
    local.update(elem_row=row_of, elem_val=codes.astype(np.int32), value_uniques=uniques)
    return out, local


def _merge_counts(first, second):
    uniques, where = merge_uniques(first[0], second[0])
    counts = np.zeros(len(uniques), dtype=np.int64)
    counts[:len(first[1])] += first[1]
    np.add.at(counts, where, second[1])
    return uniques, counts


def _combine_scans(parts: list) -> dict:
    out = dict(parts[0])
    out["qi"] = list(out["qi"])
    for part in parts[1:]:
        out["lengths"] = out["lengths"] + part["lengths"]
        out["missing"] = out["missing"] + part["missing"]
        out["list_like"] = out["list_like"] or part["list_like"]
        out["row_dup"] = out["row_dup"] or part["row_dup"]
        out["elem_missing"] += part["elem_missing"]
        out["qi"] = [_merge_counts(a, b) for a, b in zip(out["qi"], part["qi"])]
        out["values"] = _merge_counts(out["values"], part["values"])
    return out


# ============================================================================ kinds
def _orders(qi: list, kinds: dict, scan: dict, order, owner: str) -> dict:
    """:func:`skyprivacy.qi.category_orders` from each column's distinct values (an explicit
    order must list every value of its column: the scan has them all)."""
    distinct = {name: uniques for name, (uniques, _) in zip(qi, scan["qi"])}
    return category_orders(distinct, qi, kinds, order, owner=owner)


def _kinds(table, qi: list, hierarchies: dict, scan: dict, numeric, categorical,
           owner: str) -> dict:
    """:func:`skyprivacy.qi.qi_kinds` from each column's distinct values and their counts
    (the same decisions, warnings and errors as on the whole column)."""
    empty = table._meta.iloc[:0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        qi_kinds(empty, qi, hierarchies, numeric=numeric, categorical=categorical, owner=owner)
    numeric = [numeric] if isinstance(numeric, str) else list(numeric or [])
    categorical = [categorical] if isinstance(categorical, str) else list(categorical or [])
    kinds = {}
    for name, (uniques, counts) in zip(qi, scan["qi"]):
        if name in hierarchies:
            kinds[name] = "tree"
        elif name in categorical:
            kinds[name] = "set"
        elif name in numeric:
            bad = parsed_numbers(uniques).isna().to_numpy()
            if bad.any():
                examples = list(dict.fromkeys(map(str, uniques[bad])))[:3]
                raise InvalidParameterError(
                    f"Column {name!r} is declared numeric in {owner} but "
                    f"{int(counts[bad].sum())} cell(s) are not numbers, e.g. {examples!r}.")
            kinds[name] = "numeric"
        else:
            kinds[name] = infer_kind(uniques, counts, name, owner)
    return kinds


# ============================================================================ encoding
class _Encoding:
    """What every worker needs to code its rows: each QI's distinct values with the code the
    encoder gives them, and the sensitive values' positions."""

    def __init__(self, qi, uniques, codes, injective, sensitive, value_uniques, value_codes,
                 semantics):
        self.qi, self.uniques, self.codes = qi, uniques, codes
        self.injective = injective  # per QI: one distinct input cell per code
        self.sensitive, self.value_uniques, self.value_codes = (sensitive, value_uniques,
                                                                value_codes)
        self.semantics = semantics
        self.n_codes = [int(c.max()) + 1 if len(c) else 1 for c in codes]


class _Chunk:
    """One input partition, coded: QI codes, sensitive elements, and the state of each row
    (its live group at the current level, its final group, or its pending local group).
    Tasks never modify a chunk; they return a new one sharing the unchanged arrays."""

    __slots__ = ("offset", "codes", "raw", "elem_row", "elem_val", "part", "final", "pending")

    def __init__(self, offset, codes, raw, elem_row, elem_val, part, final, pending):
        self.offset, self.codes, self.raw = offset, codes, raw
        self.elem_row, self.elem_val = elem_row, elem_val
        self.part, self.final, self.pending = part, final, pending

    def replace(self, part, final, pending) -> _Chunk:
        return _Chunk(self.offset, self.codes, self.raw, self.elem_row, self.elem_val, part,
                      final, pending)


def _encode(scanned: tuple, offset: int, enc: _Encoding) -> _Chunk:
    """A scanned partition recoded with the encoders' codes (per distinct value: its
    position among the table's distinct values, then its code)."""
    local = scanned[1]
    n = len(local["codes"])
    codes = np.empty((n, len(enc.qi)), dtype=_small_int(max(enc.n_codes, default=1)))
    raw = {}
    for a in range(len(enc.qi)):
        where = positions(enc.uniques[a], local["uniques"][a])[local["codes"][:, a]]
        codes[:, a] = enc.codes[a][where]
        if not enc.injective[a]:
            raw[a] = where.astype(np.int32)
    if enc.sensitive is None:
        elem_row = np.arange(n, dtype=np.int64)
        elem_val = np.zeros(n, dtype=np.int32)
    else:
        elem_row = (local["elem_row"] if local["elem_row"] is not None
                    else np.arange(n, dtype=np.int64))
        value_of = enc.value_codes[positions(enc.value_uniques, local["value_uniques"])]
        elem_val = value_of[local["elem_val"]].astype(np.int32)
    zeros = np.zeros(n, dtype=np.int32)
    return _Chunk(offset, codes, raw, elem_row, elem_val, zeros, zeros - 1, zeros - 1)


def _small_int(n_codes: int):
    """The narrowest signed integer type holding codes 0..n_codes-1 (chunks hold every row)."""
    for kind in (np.int8, np.int16, np.int32):
        if n_codes <= np.iinfo(kind).max:
            return kind
    return np.int64


# ============================================================================ global levels
def _histograms(chunk: _Chunk, n_parts: int, n_codes: list, n_values: int,
                need_values: bool) -> dict:
    """(group, code) row counts per QI and, under a policy, (group, code, value) element
    counts, over the chunk's live rows."""
    live = np.flatnonzero(chunk.part >= 0)
    part = chunk.part[live].astype(np.int64)
    out: dict[str, Any] = {"rows": [], "values": [],
                           "cards": (n_parts, list(n_codes), n_values)}
    if need_values:
        position = np.full(len(chunk.part), -1, dtype=np.int64)
        position[live] = np.arange(len(live))
        elem_pos = position[chunk.elem_row]
        keep = elem_pos >= 0
        elem_pos = elem_pos[keep]
        elem_val = chunk.elem_val[keep].astype(np.int64)
    for a, n_code in enumerate(n_codes):
        code = chunk.codes[live, a].astype(np.int64)
        out["rows"].append(distinct_rows([part, code], [n_parts, n_code]))
        if need_values:
            out["values"].append(distinct_rows([part[elem_pos], code[elem_pos], elem_val],
                                               [n_parts, n_code, n_values]))
    return out


def _combine_histograms(parts: list) -> dict:
    n_parts, n_codes, n_values = parts[0]["cards"]
    out = {"rows": [], "values": [], "cards": parts[0]["cards"]}
    for name, extra in (("rows", []), ("values", [n_values])):
        for a, n_code in enumerate(n_codes):
            tables = [p[name][a] for p in parts if p[name]]
            if not tables:
                continue
            cards = [n_parts, n_code] + extra
            columns = [np.concatenate([t[0][i] for t in tables]) for i in range(len(cards))]
            out[name].append(distinct_rows(columns, cards,
                                           np.concatenate([t[1] for t in tables])))
    return out


def _numeric_split(attr, code_e, part_e, starts_e, count_e, lo, hi, part_rows):
    """``NumericQI.level_split`` from a histogram: the lower weighted median of every group
    (the first code whose cumulative count reaches half the group), or, when that is the
    group's largest code, the largest code below it."""
    half = (part_rows + 1) // 2
    cumulative = np.cumsum(count_e)
    before = np.concatenate([[0], cumulative])[starts_e[:-1]]
    cut = code_e[np.minimum(np.searchsorted(cumulative, before + half), len(code_e) - 1)]
    at_max = cut >= hi
    if at_max.any():
        previous = code_e[np.maximum(starts_e[1:] - 2, 0)]
        cut = np.where(at_max, previous, cut)
    child = (code_e > cut[part_e]).astype(np.int64)
    n_children = np.where(hi > lo, 2, 0)
    width = (np.zeros(len(lo)) if attr.span == 0 else
             (attr.uniques[hi] - attr.uniques[lo]).astype(float) / attr.span)
    return child, n_children, width


def _split_entries(attr, code_e, part_e, starts_e, count_e, lo, hi, part_rows):
    """Every group's split from its (code, count) entries, as ``attr.level_split`` makes it
    from the rows."""
    method = type(attr).level_split
    if method is NumericQI.level_split:
        return _numeric_split(attr, code_e, part_e, starts_e, count_e, lo, hi, part_rows)
    if method is TreeQI.level_split:  # children of the lowest common ancestor: presence only
        return attr.level_split(code_e, part_e, starts_e, lo, hi)
    raise TypeError(f"The dask engine does not know how {type(attr).__name__} splits a group "
                    f"from aggregates; its level_split must be the numeric or the tree one.")


def _candidates(hist: dict, attrs: list, part_rows: np.ndarray, n_values: int,
                need_counts: bool) -> dict:
    """The candidates of :meth:`Mondrian.level_candidates` from the level's histograms (the
    same arrays in the same order), plus per QI the child of every (group, code) entry."""
    n_parts = len(part_rows)
    found = LevelCandidates()
    entries = {}
    for a, attr in enumerate(attrs):
        (part_e, code_e), count_e = hist["rows"][a]
        starts_e = np.searchsorted(part_e, np.arange(n_parts + 1))
        lo = code_e[starts_e[:-1]]
        hi = code_e[starts_e[1:] - 1]
        has = hi > lo
        if not has.any():
            continue
        child_e, n_children, width = _split_entries(attr, code_e, part_e, starts_e, count_e,
                                                    lo, hi, part_rows)
        splittable, base, total = found.offsets(has, n_children)
        keep = has[part_e]
        counts = None
        if need_counts:
            (vpart, vcode, vvalue), vcount = hist["values"][a]
            n_code = int(code_e.max()) + 1
            entry = np.searchsorted(part_e * n_code + code_e, vpart * n_code + vcode)
            vkeep = has[vpart]
            child = base[vpart[vkeep]] + child_e[entry[vkeep]]
            (g, v), c = distinct_rows([child, vvalue[vkeep]], [total, n_values], vcount[vkeep])
            counts = (g, v, c)
        entries[a] = (part_e, code_e, child_e)
        found.add(a, splittable, n_children, width,
                  np.bincount(base[part_e[keep]] + child_e[keep], weights=count_e[keep],
                              minlength=total).astype(np.int64), counts)
    return found.arrays(need_counts, part_rows=part_rows, entries=entries)


def _relabel(chunk: _Chunk, table: dict) -> _Chunk:
    """Apply one level's decisions to the chunk's live rows.

    ``table`` holds, per live group: its final key if it is finished, else the QI it is split
    on (or -2 when it moves whole to child ``direct``); per QI the child of every (group, code)
    entry; and per child its live group at the next level or its pending local group."""
    part = chunk.part
    live = np.flatnonzero(part >= 0)
    new_part = np.full(len(part), -1, dtype=np.int32)
    final = chunk.final.copy()
    pending = chunk.pending.copy()
    if not len(live):
        return chunk.replace(new_part, final, pending)
    p = part[live].astype(np.int64)
    finished = table["final_of_part"][p]
    done = finished >= 0
    final[live[done]] = finished[done]
    child = np.full(len(live), -1, dtype=np.int64)
    attr_of = table["attr_of_part"][p]
    whole = attr_of == -2
    child[whole] = table["direct"][p[whole]]
    for a, (keys, n_code, child_id) in table["maps"].items():
        rows = np.flatnonzero(attr_of == a)
        if len(rows):
            child[rows] = child_id[np.searchsorted(keys, p[rows] * n_code
                                                   + chunk.codes[live[rows], a])]
    moved = child >= 0
    new_part[live[moved]] = table["child_live"][child[moved]]
    pending[live[moved]] = table["child_pending"][child[moved]]
    return chunk.replace(new_part, final, pending)


def _global_group_stats(chunk: _Chunk, raw_attrs: list) -> dict:
    """Per final group finished in the global levels: size, first row, code and raw ranges."""
    rows = np.flatnonzero(chunk.final >= 0)
    return _stats_of(chunk.final[rows].astype(np.int64), chunk.offset + rows,
                     chunk.codes[rows], {a: chunk.raw[a][rows] for a in raw_attrs})


def _stats_of(key: np.ndarray, row: np.ndarray, codes: np.ndarray, raw: dict) -> dict:
    keys, inverse = np.unique(key, return_inverse=True)
    order = np.argsort(inverse, kind="stable")
    starts = np.searchsorted(inverse[order], np.arange(len(keys)))
    if not len(keys):
        empty = np.zeros(0, dtype=np.int64)
        return {"keys": empty, "size": empty, "first": empty,
                "lo": codes[:0].astype(np.int64), "hi": codes[:0].astype(np.int64),
                "raw_lo": {a: empty for a in raw}, "raw_hi": {a: empty for a in raw}}
    codes = codes[order].astype(np.int64)
    return {"keys": keys, "size": np.bincount(inverse, minlength=len(keys)).astype(np.int64),
            "first": np.minimum.reduceat(np.asarray(row, dtype=np.int64)[order], starts),
            "lo": np.minimum.reduceat(codes, starts, axis=0),
            "hi": np.maximum.reduceat(codes, starts, axis=0),
            "raw_lo": {a: np.minimum.reduceat(r[order].astype(np.int64), starts)
                       for a, r in raw.items()},
            "raw_hi": {a: np.maximum.reduceat(r[order].astype(np.int64), starts)
                       for a, r in raw.items()}}


def _slim(chunk: _Chunk) -> _Chunk:
    """What the release still needs of a chunk once its live rows have gone local."""
    return _Chunk(chunk.offset, None, {}, None, None, None, chunk.final, None)


def _combine_stats(parts: list) -> dict:
    """Merge group statistics (a group may span several chunks)."""
    parts = [p for p in parts if p is not None]
    keys = np.concatenate([p["keys"] for p in parts])
    uniq, inverse = np.unique(keys, return_inverse=True)
    inverse = inverse.reshape(-1)
    n = len(uniq)

    def reduce(name, ufunc, sub=None):
        values = np.concatenate([p[name] if sub is None else p[name][sub] for p in parts])
        start = {np.add: 0, np.minimum: np.iinfo(np.int64).max,
                 np.maximum: np.iinfo(np.int64).min}[ufunc]
        out = np.full((n,) + values.shape[1:], start, dtype=np.int64)
        ufunc.at(out, inverse, values)
        return out

    raw_attrs = list(parts[0]["raw_lo"])
    return {"keys": uniq, "size": reduce("size", np.add), "first": reduce("first", np.minimum),
            "lo": reduce("lo", np.minimum), "hi": reduce("hi", np.maximum),
            "raw_lo": {a: reduce("raw_lo", np.minimum, a) for a in raw_attrs},
            "raw_hi": {a: reduce("raw_hi", np.maximum, a) for a in raw_attrs}}


# ============================================================================ local levels
def _rows_frame(chunk: _Chunk, which: str, n_attrs: int, with_values: bool) -> pd.DataFrame:
    """The chunk's rows that go local (by pending key, or every live row by its group) as a
    frame for the shuffle: key, global row number, QI codes, raw cells where needed and, in
    svpi, the value."""
    keys = chunk.pending if which == "pending" else chunk.part
    rows = np.flatnonzero(keys >= 0)
    data = {"key": keys[rows].astype(np.int64), "row": chunk.offset + rows.astype(np.int64)}
    for a in range(n_attrs):
        data[f"c{a}"] = chunk.codes[rows, a]  # narrow codes: less to move
    for a, raw in sorted(chunk.raw.items()):
        data[f"r{a}"] = raw[rows]
    if with_values:
        data["value"] = chunk.elem_val[rows]
    return pd.DataFrame(data)


def _elements_frame(chunk: _Chunk, which: str) -> pd.DataFrame:
    """The sensitive elements (mvpi) of the rows that go local."""
    keys = chunk.pending if which == "pending" else chunk.part
    keep = keys[chunk.elem_row] >= 0
    elem_row = chunk.elem_row[keep]
    return pd.DataFrame({"key": keys[elem_row].astype(np.int64),
                         "row": chunk.offset + elem_row.astype(np.int64),
                         "value": chunk.elem_val[keep].astype(np.int32)})


class _Local:
    """A worker's share of the local levels: whole groups, coded, with the in-memory engine
    over them; ``rows``/``starts`` are the live groups of the current level (global ids
    ``parts``) and ``final`` the final key of every finished row."""

    def __init__(self, rows_frame: pd.DataFrame, elements, engine_args: dict, n_attrs: int,
                 raw_attrs: list):
        rows_frame = rows_frame.sort_values(["key", "row"], kind="stable")
        self.row = rows_frame["row"].to_numpy(dtype=np.int64)
        key = rows_frame["key"].to_numpy(dtype=np.int64)
        n_codes = max((attr_codes(attr) for attr in engine_args["attrs"]), default=1)
        # narrow codes, with headroom for the encoders' range arithmetic (hi - lo + 1)
        kind = np.int16 if n_codes < 2 ** 14 else (np.int32 if n_codes < 2 ** 30 else np.int64)
        codes = np.empty((len(key), n_attrs), dtype=kind)
        for a in range(n_attrs):
            codes[:, a] = rows_frame[f"c{a}"].to_numpy()
        self.raw = {a: rows_frame[f"r{a}"].to_numpy(dtype=np.int32) for a in raw_attrs}
        index = np.int32 if len(key) < 2 ** 31 else np.int64
        if elements is not None:
            by_row = np.argsort(self.row, kind="stable")
            found = np.searchsorted(self.row[by_row], elements["row"].to_numpy(dtype=np.int64))
            elem_row = by_row[found].astype(index)
            elem_val = elements["value"].to_numpy(dtype=np.int32)
        else:
            elem_row = np.arange(len(key), dtype=index)
            elem_val = (rows_frame["value"].to_numpy(dtype=np.int32) if "value" in rows_frame
                        else np.zeros(len(key), dtype=np.int32))
        del rows_frame
        self.engine = Mondrian.from_codes(code_matrix=codes, elem_row=elem_row,
                                           elem_val=elem_val, **engine_args)
        self.parts, starts = np.unique(key, return_index=True)
        self.rows = np.arange(len(key), dtype=index)
        self.starts = np.concatenate([starts, [len(key)]]).astype(np.int64)
        self.final = np.full(len(key), -1, dtype=np.int64)
        self.cands: dict[str, Any] | None = None
        self.status: np.ndarray | None = None

    def copy(self) -> _Local:
        other = _Local.__new__(_Local)
        other.__dict__.update(self.__dict__)
        return other


def attr_codes(attr) -> int:
    """How many codes an encoder gives (leaves of a hierarchy, distinct values otherwise)."""
    return int(getattr(attr, "n_leaves", None) or len(attr.uniques))


def _local_state(rows_frame, elements, engine_args, n_attrs, raw_attrs) -> _Local:
    return _Local(rows_frame, elements, engine_args, n_attrs, raw_attrs)


def _finish_k(rows_frame: pd.DataFrame, engine_args: dict, n_attrs: int,
              raw_attrs: list) -> dict:
    """k-anonymity on a worker: the share's groups are finished by the in-memory engine
    (groups are independent under the size rule)."""
    local = _Local(rows_frame, None, engine_args, n_attrs, raw_attrs)
    engine = local.engine
    if len(local.row):
        final, n_final, n_splits = engine.levels(local.rows, local.starts)
    else:
        final, n_final, n_splits = local.final, 0, 0
    stats = _stats_of(final, local.row, engine.code_matrix, local.raw)
    return {"row": local.row, "key": final, "n_groups": int(n_final),
            "n_splits": int(n_splits), "n_candidates": int(engine.n_candidates),
            "stats": stats}


def _evaluate(local: _Local, statistics) -> tuple:
    """One local level under a policy.  Every live group's candidates are built and judged
    against the level's global statistics; a group whose first viable candidate is clear of
    every statistic (each of its children's terms is above it by more than the float
    tolerance, and none pins the target) is decided here; the other groups' candidates go to
    the client.  Returns (state with the level's candidates, report)."""
    ss, pinned = statistics
    engine = local.engine
    state = local.copy()
    n_parts = len(local.starts) - 1
    report: dict[str, Any] = {"parts": local.parts, "size": np.diff(local.starts),
              "status": np.full(n_parts, -1, dtype=np.int64),
              "n_children": np.zeros(n_parts, dtype=np.int64), "n": 0, "undecided": None}
    state.status = report["status"]
    if not n_parts:
        return state, report
    cands = engine.level_candidates(local.rows, local.starts, need_counts=True)
    # the children of every row are kept until the decisions come back: narrowly
    if cands["n"]:
        widest = int(cands["n_children"].max())
        cands["row_child"] = cands["row_child"].astype(np.int8 if widest < 127 else np.int32)
    state.cands = cands
    if not cands["n"]:
        return state, report
    report["n"] = int(cands["n"])
    engine.ss, engine.pinned = ss, pinned
    order = engine._ordered(cands)
    combos = engine._level_terms(cands)
    unsafe, _ = engine._verdicts(combos, slice(None))
    bad = np.zeros(cands["n"], dtype=bool)
    bad[combos["cand"][unsafe]] = True
    current = ss[:, combos["cell"]]
    mins = combos["mins"]
    with np.errstate(invalid="ignore"):
        clear = ((mins >= current) & ~within_tolerance(mins, current)).all(axis=0)
    clear &= ~combos["pinned"]
    unclear = np.zeros(cands["n"], dtype=bool)
    unclear[combos["cand"][~clear]] = True
    viable = order[~bad[order]]
    parts = cands["part"][viable]
    first = np.unique(parts, return_index=True)[1]
    head, head_part = viable[first], parts[first]
    decided = ~unclear[head]
    status = report["status"]
    status[head_part[decided]] = head[decided]
    status[head_part[~decided]] = -2
    report["n_children"][head_part[decided]] = cands["n_children"][head[decided]]
    undecided = np.flatnonzero(status == -2)
    if len(undecided):
        report["undecided"] = _subset(cands, undecided, np.diff(local.starts))
    return state, report


def _subset(cands: dict, parts: np.ndarray, part_rows: np.ndarray) -> dict:
    """The candidates of some groups with their children, groups renumbered 0..len-1, each
    candidate with its index in ``cands``."""
    index = np.full(len(part_rows), -1, dtype=np.int64)
    index[parts] = np.arange(len(parts))
    keep = np.flatnonzero(index[cands["part"]] >= 0)
    kids = cands["children"]
    first, n_children = cands["first_child"][keep], cands["n_children"][keep]
    child = np.concatenate([np.arange(f, f + n) for f, n in zip(first.tolist(),
                                                               n_children.tolist())])
    new_id = np.full(len(kids.sizes), -1, dtype=np.int64)
    new_id[child] = np.arange(len(child))
    entry = new_id[kids.group] >= 0
    return {"part": index[cands["part"][keep]], "attr": cands["attr"][keep],
            "n_children": n_children, "width": cands["width"][keep],
            "sizes": kids.sizes[child], "group": new_id[kids.group[entry]],
            "value": kids.value[entry], "count": kids.count[entry],
            "part_rows": part_rows[parts], "local": keep}


def _merge_undecided(pieces: list, rank: list) -> dict:
    """Undecided candidates of every worker as one candidate set for
    :meth:`Mondrian._accept_level`; ``rank[i]`` numbers piece i's groups in queue order."""
    names = ("part", "attr", "n_children", "width", "sizes", "group", "value", "count",
             "piece", "local")
    fields: dict[str, list] = {name: [] for name in names}
    part_rows = np.zeros(sum(len(p["part_rows"]) for p in pieces), dtype=np.int64)
    n_kids = 0
    for i, (piece, ranks) in enumerate(zip(pieces, rank)):
        fields["part"].append(ranks[piece["part"]])
        part_rows[ranks] = piece["part_rows"]
        for name in ("attr", "n_children", "width", "sizes", "value", "count", "local"):
            fields[name].append(piece[name])
        fields["group"].append(piece["group"] + n_kids)
        fields["piece"].append(np.full(len(piece["attr"]), i, dtype=np.int64))
        n_kids += len(piece["sizes"])
    merged = {name: np.concatenate(values) for name, values in fields.items()}
    children = SparseGroups(merged["sizes"], merged["group"], merged["value"], merged["count"],
                       presorted=True)
    n_children = merged["n_children"]
    return {"n": len(n_children), "part": merged["part"], "attr": merged["attr"],
            "n_children": n_children, "first_child": np.cumsum(n_children) - n_children,
            "width": merged["width"], "sizes": children.sizes, "children": children,
            "part_rows": part_rows, "piece": merged["piece"], "local": merged["local"]}


def _apply(evaluated: tuple, decision: dict) -> _Local:
    """The in-memory next-level step on a local share, with the level's decisions."""
    local = evaluated[0]
    state = local.copy()
    state.cands = state.status = None
    n_parts = len(local.starts) - 1
    if not n_parts:
        return state
    chosen = np.where(local.status >= 0, local.status, -1)
    undecided = np.flatnonzero(local.status == -2)
    chosen[undecided] = decision["chosen"]
    part_of = np.repeat(np.arange(n_parts), np.diff(local.starts))
    done = chosen[part_of] < 0
    final = local.final.copy()
    final[local.rows[done]] = decision["final_key"][part_of[done]]
    state.final = final
    if done.all():
        state.rows = np.zeros(0, dtype=np.int64)
        state.starts = np.zeros(1, dtype=np.int64)
        state.parts = np.zeros(0, dtype=np.int64)
        return state
    cands = local.cands
    live = np.flatnonzero(~done)
    child = cands["row_child"][cands["attr"][chosen[part_of[live]]], live].astype(np.int64)
    new_part = decision["new_base"][part_of[live]] + child
    order = np.argsort(new_part, kind="stable")
    state.rows = local.rows[live][order]
    state.parts, starts = np.unique(new_part[order], return_index=True)
    state.starts = np.concatenate([starts, [len(order)]]).astype(np.int64)
    return state


def _local_stats(local: _Local) -> dict:
    return _stats_of(local.final, local.row, local.engine.code_matrix, local.raw)


def _local_keys(result, offset: int) -> pd.DataFrame:
    """(global row, final key) of a local share, for the way back to the input partitions."""
    if isinstance(result, _Local):
        return pd.DataFrame({"row": result.row, "key": result.final})
    return pd.DataFrame({"row": result["row"], "key": result["key"] + offset})


def _k_summary(result: dict) -> dict:
    return {"n_groups": result["n_groups"], "n_splits": result["n_splits"],
            "n_candidates": result["n_candidates"]}


def _k_stats(result: dict, offset: int) -> dict:
    stats = dict(result["stats"])
    stats["keys"] = stats["keys"] + offset
    return stats


# ============================================================================ the run
class _Run:
    """One distributed search: the coded chunks on the workers, the client's decider (an
    in-memory engine holding the global statistics and Q), and the level loop."""

    def __init__(self, table, parts, qi, sensitive, policy, hierarchies, semantics, split,
                 kinds, scan, min_size, local_rows, progress, orders=None,
                 label_length=DEFAULT_LABEL_LENGTH) -> None:
        self.table, self.parts, self.qi, self.sensitive = table, parts, list(qi), sensitive
        self.semantics, self.split, self.min_size = semantics, split, min_size
        self.local_rows, self.progress = local_rows, progress
        self.offsets = np.concatenate([[0], np.cumsum(scan["lengths"])]).astype(np.int64)
        self.scanned = scan["scanned"]
        self.n_rows = int(self.offsets[-1])
        attrs, codes, injective, uniques_of = [], [], [], []
        for name, (uniques, _) in zip(qi, scan["qi"]):
            uniques = uniques.reset_index(drop=True)
            attr: TreeQI | NumericQI | SetQI
            if kinds[name] == "tree":
                attr = TreeQI(name, uniques, hierarchies[name])
            elif kinds[name] == "numeric":
                attr = NumericQI(name, uniques)
            else:  # the scan keeps first appearances in table order, as 'first' needs
                attr = SetQI(name, uniques, (orders or {}).get(name, "sorted"), label_length)
            attrs.append(attr)
            uniques_of.append(uniques)
            codes.append(np.asarray(attr.codes, dtype=np.int64))
            injective.append(len(np.unique(attr.codes)) == len(uniques))
        self.attrs = attrs
        self.raw_attrs = [a for a, ok in enumerate(injective) if not ok]
        value_uniques, value_counts = scan["values"]
        value_uniques = value_uniques.reset_index(drop=True)
        if sensitive is not None and semantics != "svpi":
            value_uniques = value_uniques.astype(object)
        value_codes, values = factorize(value_uniques)
        self.values = values
        self.value_totals = np.bincount(value_codes, weights=value_counts,
                                        minlength=len(values)).astype(np.int64)
        self.encoding = _Encoding(self.qi, uniques_of, codes, injective, sensitive,
                                  value_uniques, value_codes, semantics)
        self.plan = PolicyPlan.build(policy, values, self.n_rows)
        self.decider = Mondrian.from_codes(
            self.qi, attrs, np.zeros((0, len(qi)), dtype=np.int64), np.zeros(0, dtype=np.int64),
            np.zeros(0, dtype=np.int64), values, self.plan, semantics, split,
            min_size=min_size, progress=progress)
        self.decider.n_rows = self.n_rows
        self.decider.placed = 0
        self.n_splits = 0
        self.next_key = 0  # final groups, numbered in the order they are finished
        self.n_pending = 0
        self.pending_rows = 0
        self.placed = 0
        self.locals: list = []
        self.local_offsets: list = []
        self.global_stats = None

    def root(self) -> SparseGroups:
        value = np.flatnonzero(self.value_totals)
        return SparseGroups(np.array([self.n_rows]), np.zeros(len(value), dtype=np.int64), value,
                       self.value_totals[value])

    def engine_args(self) -> dict:
        return {"qi": self.qi, "attrs": self.attrs, "values": self.values, "plan": self.plan,
                "semantics": self.semantics, "split": self.split, "min_size": self.min_size}

    def report(self) -> None:
        self.decider.placed = self.placed
        if self.progress is not None:
            self.progress(self.placed / max(self.n_rows, 1))

    # -- the search
    def search(self) -> None:
        enc = literal(self.encoding, "encoding")
        self.chunks = list(persist(*[call(_encode, part, int(self.offsets[i]), enc,
                                          prefix="encode")
                                     for i, part in enumerate(self.scanned)]))
        del self.scanned  # the local codes are released once the chunks hold them
        policy_mode = self.min_size is None
        if policy_mode:
            self.decider.start_statistics(self.root(), self.n_rows)
            splitting = len(self.plan) > 0
        else:
            splitting = self.n_rows >= self.min_size
        sizes = np.array([self.n_rows], dtype=np.int64)  # the live groups of the level
        if not splitting:
            self._relabel(self._table(sizes, finished=np.ones(1, dtype=bool)))
            sizes = sizes[:0]
        elif not policy_mode and self.n_rows <= self.local_rows:
            self._relabel(self._table(sizes, finished=np.zeros(1, dtype=bool), whole=True))
            sizes = sizes[:0]
        while len(sizes):
            if policy_mode and (sizes <= self.local_rows).all():
                self._local_policy(sizes)
                break
            sizes = self._global_level(sizes)
        if not policy_mode and self.n_pending:
            self._local_k()
        self.placed = self.n_rows
        self.report()

    def _table(self, sizes, *, finished, whole=False) -> dict:
        """A relabel table that finishes the groups ``finished`` and, with ``whole``, sends
        every other group whole to its pending local group."""
        n_parts = len(sizes)
        table: dict[str, Any] = {"final_of_part": np.full(n_parts, -1, dtype=np.int64),
                 "attr_of_part": np.full(n_parts, -1, dtype=np.int64),
                 "direct": np.full(n_parts, -1, dtype=np.int64), "maps": {},
                 "child_live": np.zeros(0, dtype=np.int64),
                 "child_pending": np.zeros(0, dtype=np.int64)}
        done = np.flatnonzero(finished)
        table["final_of_part"][done] = self.next_key + np.arange(len(done))
        self.next_key += len(done)
        self.placed += int(sizes[done].sum())
        if whole:
            moving = np.flatnonzero(~finished)
            table["attr_of_part"][moving] = -2
            table["direct"][moving] = np.arange(len(moving))
            table["child_live"] = np.full(len(moving), -1, dtype=np.int64)
            table["child_pending"] = self.n_pending + np.arange(len(moving))
            self.n_pending += len(moving)
            self.pending_rows += int(sizes[moving].sum())
        return table

    def _relabel(self, table: dict) -> None:
        table = literal(table, "relabel")
        self.chunks = list(persist(*[call(_relabel, c, table) for c in self.chunks]))

    def _global_level(self, sizes: np.ndarray) -> np.ndarray:
        """One level from a distributed aggregation; returns the next level's live sizes."""
        n_parts = len(sizes)
        need = self.min_size is None
        parts = [call(_histograms, c, n_parts, self.encoding.n_codes, len(self.values), need,
                      prefix="histogram") for c in self.chunks]
        (hist,) = compute(tree_reduce(parts, _combine_histograms, prefix="histogram-combine"))
        cands = _candidates(hist, self.attrs, sizes, len(self.values), need)
        del hist
        chosen = np.full(n_parts, -1, dtype=np.int64)
        if cands["n"]:
            order = self.decider._ordered(cands)
            if need:
                self.decider._accept_level(cands, order, chosen)
            else:
                self.decider.choose_by_size(cands, order, chosen)
        accepted = np.flatnonzero(chosen >= 0)
        self.n_splits += len(accepted)
        table = self._table(sizes, finished=chosen < 0)
        if not len(accepted):
            self._relabel(table)
            self.report()
            return sizes[:0]
        c_of_part = chosen[accepted]
        n_kids = cands["n_children"][c_of_part]
        new_base = np.full(n_parts, -1, dtype=np.int64)
        new_base[accepted] = np.cumsum(n_kids) - n_kids
        table["attr_of_part"][accepted] = cands["attr"][c_of_part]
        child = np.concatenate([np.arange(f, f + n) for f, n in
                                zip(cands["first_child"][c_of_part].tolist(), n_kids.tolist())])
        child_sizes = cands["sizes"][child]
        for a in np.unique(cands["attr"][c_of_part]).tolist():
            part_e, code_e, child_e = cands["entries"][a]
            mine = table["attr_of_part"][part_e] == a
            n_code = self.encoding.n_codes[a]
            table["maps"][a] = (part_e[mine] * n_code + code_e[mine], n_code,
                                new_base[part_e[mine]] + child_e[mine])
        small = (child_sizes <= self.local_rows) if not need else \
            np.zeros(len(child_sizes), dtype=bool)
        table["child_live"] = np.full(len(child_sizes), -1, dtype=np.int64)
        table["child_live"][~small] = np.arange(int((~small).sum()))
        table["child_pending"] = np.full(len(child_sizes), -1, dtype=np.int64)
        table["child_pending"][small] = self.n_pending + np.arange(int(small.sum()))
        self.n_pending += int(small.sum())
        self.pending_rows += int(child_sizes[small].sum())
        self._relabel(table)
        self.report()
        return child_sizes[~small]

    # -- local levels
    def _shuffled(self, which: str, n_rows: int):
        """The rows going local, exchanged so that every group is in one share."""
        n_attrs = len(self.attrs)
        with_values = self.min_size is None and self.semantics == "svpi"
        n_out = max(2, min(4 * len(self.chunks),
                           math.ceil(n_rows / max(CHUNK_ROWS, self.local_rows))))
        frames = [call(_rows_frame, c, which, n_attrs, with_values, prefix="rows")
                  for c in self.chunks]
        rows = exchange(frames, split_by_key, ("key", n_out), n_out, prefix="to-local")
        elements = [None] * n_out
        if self.min_size is None and self.semantics != "svpi":
            frames = [call(_elements_frame, c, which, prefix="elements") for c in self.chunks]
            elements = exchange(frames, split_by_key, ("key", n_out), n_out,
                                prefix="elements-to-local")
        return rows, elements

    def _go_local(self, tasks: list) -> list:
        """Persist the local shares; the chunks keep only what the release needs (the groups
        finished in the global levels are summarised first)."""
        stats = tree_reduce([call(_global_group_stats, c, self.raw_attrs, prefix="group-stats")
                             for c in self.chunks], _combine_stats, prefix="group-combine")
        slim = [call(_slim, c) for c in self.chunks]
        done = persist(*tasks, stats, *slim)
        self.global_stats = done[len(tasks)]
        self.chunks = list(done[len(tasks) + 1:])
        return list(done[:len(tasks)])

    def _local_k(self) -> None:
        rows, _ = self._shuffled("pending", self.pending_rows)
        args = literal(self.engine_args(), "engine")
        self.locals = self._go_local([call(_finish_k, r, args, len(self.attrs), self.raw_attrs,
                                           prefix="finish-k") for r in rows])
        for summary in compute(*[call(_k_summary, r) for r in self.locals]):
            self.local_offsets.append(self.next_key)
            self.next_key += summary["n_groups"]
            self.n_splits += summary["n_splits"]
            self.decider.n_candidates += summary["n_candidates"]

    def _local_policy(self, sizes: np.ndarray) -> None:
        rows, elements = self._shuffled("live", int(sizes.sum()))
        args = literal(self.engine_args(), "engine")
        states = self._go_local([call(_local_state, r, e, args, len(self.attrs),
                                      self.raw_attrs, prefix="local")
                                 for r, e in zip(rows, elements)])
        decider = self.decider
        n_parts = len(sizes)
        while n_parts:
            statistics = literal((decider.ss.copy(), decider.pinned.copy()), "statistics")
            evaluated = list(persist(*[call(_evaluate, s, statistics) for s in states]))
            reports = compute(*[call(operator.itemgetter(1), e, prefix="report")
                                for e in evaluated])
            n_kids = np.zeros(n_parts, dtype=np.int64)
            size = np.zeros(n_parts, dtype=np.int64)
            pieces, owners = [], []
            for r in reports:
                decider.n_candidates += r["n"]
                n_kids[r["parts"]] = r["n_children"]
                size[r["parts"]] = r["size"]
                if r["undecided"] is not None:
                    pieces.append(r["undecided"])
                    owners.append(r["parts"][r["status"] == -2])
            local_choice = [np.zeros(0, dtype=np.int64)] * len(pieces)
            if pieces:
                everyone = np.concatenate(owners)
                rank = np.empty(len(everyone), dtype=np.int64)
                rank[np.argsort(everyone, kind="stable")] = np.arange(len(everyone))
                bounds = np.cumsum([0] + [len(o) for o in owners])
                ranks = [rank[bounds[i]:bounds[i + 1]] for i in range(len(owners))]
                merged = _merge_undecided(pieces, ranks)
                decider.n_candidates -= merged["n"]  # counted by the workers already
                chosen = np.full(len(everyone), -1, dtype=np.int64)
                decider._accept_level(merged, decider._ordered(merged), chosen)
                for i, piece_ranks in enumerate(ranks):
                    picked = chosen[piece_ranks]
                    ok = picked >= 0
                    local_choice[i] = np.where(ok, merged["local"][np.maximum(picked, 0)], -1)
                    n_kids[owners[i][ok]] = merged["n_children"][picked[ok]]
            split = n_kids > 0
            new_base = np.full(n_parts, -1, dtype=np.int64)
            new_base[split] = np.cumsum(n_kids[split]) - n_kids[split]
            final_key = np.full(n_parts, -1, dtype=np.int64)
            finished = np.flatnonzero(~split)
            final_key[finished] = self.next_key + np.arange(len(finished))
            self.next_key += len(finished)
            self.n_splits += int(split.sum())
            self.placed += int(size[finished].sum())
            decisions, piece = [], 0
            for r in reports:
                choice = np.zeros(0, dtype=np.int64)
                if r["undecided"] is not None:
                    choice, piece = local_choice[piece], piece + 1
                decisions.append({"chosen": choice, "final_key": final_key[r["parts"]],
                                  "new_base": new_base[r["parts"]]})
            states = list(persist(*[call(_apply, e, literal(d, "decision"))
                                    for e, d in zip(evaluated, decisions)]))
            n_parts = int(n_kids.sum())
            self.report()
        self.locals = states
        self.local_offsets = [0] * len(states)

    # -- the groups
    def groups(self) -> dict:
        """Every final group's size, first row and code ranges, indexed by final key."""
        if self.global_stats is None:
            parts = [call(_global_group_stats, c, self.raw_attrs, prefix="group-stats")
                     for c in self.chunks]
            pieces = [tree_reduce(parts, _combine_stats, prefix="group-combine")]
        else:
            pieces = [self.global_stats]
        if self.min_size is None:
            pieces += [call(_local_stats, s) for s in self.locals]
        else:
            pieces += [call(_k_stats, r, o) for r, o in zip(self.locals, self.local_offsets)]
        stats = _combine_stats(list(compute(*pieces)))
        if not np.array_equal(stats["keys"], np.arange(self.next_key)):
            raise AssertionError("every final group must hold rows")  # pragma: no cover
        return stats

    def local_keys(self) -> list:
        """Per input partition, the (row, final key) of its rows finished on the workers,
        sorted by row (delayed), or None when every row was finished in the global levels."""
        if not self.locals:
            return [None] * len(self.chunks)
        frames = [call(_local_keys, r, o, prefix="local-keys")
                  for r, o in zip(self.locals, self.local_offsets)]
        return exchange(frames, split_by_row, ("row", self.offsets), len(self.chunks),
                        sort_by="row", prefix="keys-back")


# ============================================================================ the release
def _labels(run: _Run, stats: dict) -> dict:
    """Group numbers (by first row) and, per QI, the label of every group and whether the
    group publishes its input cell (all its rows hold the same cell)."""
    n = len(stats["keys"])
    by_first = np.argsort(stats["first"], kind="stable")
    id_of_key = np.empty(n, dtype=np.int64)
    id_of_key[by_first] = np.arange(n)
    same, label_of, texts = [], [], []
    for a, attr in enumerate(run.attrs):
        lo, hi = stats["lo"][:, a], stats["hi"][:, a]
        if a in run.raw_attrs:
            same.append(stats["raw_lo"][a] == stats["raw_hi"][a])
        else:
            same.append(lo == hi)
        pairs, inverse = np.unique(np.stack([lo, hi], axis=1), axis=0, return_inverse=True)
        texts.append(np.array([attr.label(int(x), int(y)) for x, y in pairs.tolist()],
                              dtype=object))
        label_of.append(inverse.reshape(-1).astype(np.int32))
    return {"id_of_key": id_of_key, "key_of_id": by_first, "same": same,
            "label_of": label_of, "texts": texts, "size": stats["size"]}


def _keys_of(chunk: _Chunk, routed, n_rows: int) -> np.ndarray:
    """The final key of every row of an input partition (finished globally or locally)."""
    if len(chunk.final) != n_rows:  # pragma: no cover - the partitions are taken once
        raise AssertionError("a partition changed between the passes over the table")
    key = chunk.final.astype(np.int64)
    if routed is not None and len(routed):
        key[routed["row"].to_numpy(dtype=np.int64) - chunk.offset] = routed["key"].to_numpy()
    return key


def _release_partition(pdf: pd.DataFrame, chunk: _Chunk, routed, labels: dict, spec: dict,
                       bucket) -> tuple:
    """The released rows of one input partition and their group numbers."""
    key = _keys_of(chunk, routed, len(pdf))
    group = labels["id_of_key"][key]
    released = pdf.copy()
    if spec["output"] == "generalized":
        for a, name in enumerate(spec["qi"]):
            text = labels["texts"][a][labels["label_of"][a][key]]
            cells = pdf[name].to_numpy(dtype=object)
            released[name] = pd.Series(np.where(labels["same"][a][key], cells, text),
                                       index=pdf.index, dtype=object)
    else:
        sensitive = spec["sensitive"]
        if sensitive is not None:
            cells = bucket["cell"].to_numpy(dtype=object)
            if spec["value_objects"] is not None:
                cells = spec["value_objects"][bucket["cell"].to_numpy(dtype=np.int64)]
            released[sensitive] = pd.Series(cells, index=pdf.index, dtype=object)
        released.insert(len(released.columns), spec["group_column"], group)
    return released, pd.Series(group, index=pdf.index, name="group")


def _uniform(stream, offset: int, n: int) -> np.ndarray:
    """Draws ``offset`` to ``offset + n`` of ``Generator.random`` on the stream (each double
    takes one 64-bit output, so the generator is advanced instead of replayed)."""
    kind, state = stream
    bits = kind()
    bits.state = state
    bits.advance(offset)
    return np.random.Generator(bits).random(n)


def _bucket_sources(pdf: pd.DataFrame, chunk: _Chunk, routed, labels: dict, spec: dict,
                    stream) -> pd.DataFrame:
    """(group, row, random key, cell) of every row, for the shuffle within groups."""
    key = _keys_of(chunk, routed, len(pdf))
    cells = pdf[spec["sensitive"]]
    if spec["value_objects"] is not None:
        cells = positions(spec["value_uniques"], cells)
    else:
        cells = cells.to_numpy(dtype=object)
    return pd.DataFrame({"group": labels["id_of_key"][key],
                         "row": chunk.offset + np.arange(len(pdf), dtype=np.int64),
                         "u": _uniform(stream, chunk.offset, len(pdf)), "cell": cells})


def _bucket_assign(frame: pd.DataFrame) -> pd.DataFrame:
    """Within every group, the i-th row (in row order) receives the cell of the row with the
    i-th smallest random key, as the in-memory release does."""
    group = frame["group"].to_numpy(dtype=np.int64)
    row = frame["row"].to_numpy(dtype=np.int64)
    dest = np.lexsort((row, group))
    source = np.lexsort((row, frame["u"].to_numpy(), group))
    cells = frame["cell"].to_numpy()
    return pd.DataFrame({"row": row[dest], "cell": cells[source]})


# ============================================================================ public API
def _check_local_rows(local_rows, owner: str) -> int:
    if local_rows is None:
        return DEFAULT_LOCAL_ROWS
    if isinstance(local_rows, (bool, np.bool_)) or not isinstance(local_rows, (int, np.integer)) \
            or local_rows < 1:
        raise param_error("local_rows", owner, "be a positive integer", local_rows)
    return int(local_rows)


def _validate_after_scan(scan: dict, columns: list, policy, semantics, split, output,
                         hierarchies, qi, owner):
    """The rest of the pandas path's input checks, in its order."""
    if sum(scan["lengths"]) == 0:
        raise SchemaError("The table is empty: there is nothing to anonymize.")
    for column, n_missing in zip(columns, scan["missing"].tolist()):
        if n_missing:
            raise SchemaError(f"Column {column!r} has {n_missing} missing value(s); fill or "
                              f"drop them explicitly before anonymizing.")
    return check_options(policy, semantics, split, output, hierarchies, qi, owner)


def _scan_table(parts: list, qi: list, sensitive, semantics: str) -> dict:
    """The merged summary of every partition; the partitions' local codes stay on the
    workers (``scan["scanned"]``) for the encoding.  ``parts`` are the table's partitions,
    taken once: every later pass (the release) reads the very same partitions."""
    semantics_arg = semantics if semantics in ("svpi", "mvpi-set", "mvpi-multiset") else "svpi"
    scanned = list(persist(*[call(_scan, part, qi, sensitive, semantics_arg, prefix="scan")
                             for part in parts]))
    summaries = [call(operator.itemgetter(0), s, prefix="scan-summary") for s in scanned]
    (scan,) = compute(tree_reduce(summaries, _combine_scans, prefix="scan-combine"))
    scan["scanned"] = scanned
    return scan


def _sensitive_errors(scan: dict, sensitive: str, semantics: str) -> None:
    """The in-memory engine's checks of the sensitive column, in its order."""
    if semantics == "svpi":
        if scan["list_like"]:
            raise SchemaError(
                f"Column {sensitive!r} holds list-like cells; svpi allows exactly one "
                f"sensitive value per individual (use semantics='mvpi-set' or "
                f"'mvpi-multiset').")
        return
    if scan["elem_missing"]:
        raise SchemaError(f"Column {sensitive!r} has {scan['elem_missing']} missing "
                          f"value(s) inside list cells; clean the table.")
    if semantics == "mvpi-set" and scan["row_dup"]:
        raise SchemaError(
            f"Some individual holds a value of {sensitive!r} more than once; mvpi-set "
            f"allows each value at most once per person (use semantics='mvpi-multiset').")


def _released(run: _Run, labels: dict, output: str, group_column: str, random_state):
    """The released dask frame and the group number of every row."""
    with keep_objects():
        return _released_frames(run, labels, output, group_column, random_state)


def _released_frames(run, labels, output, group_column, random_state):
    import dask.dataframe as dd

    table = run.table
    routed = run.local_keys()
    spec = {"qi": run.qi, "output": output, "sensitive": run.sensitive,
            "group_column": group_column, "value_objects": None, "value_uniques": None}
    buckets = [None] * len(run.chunks)
    labels_task = literal(labels, "labels")
    parts = run.parts
    if output == "bucketized" and run.sensitive is not None:
        if run.semantics == "svpi":
            spec["value_uniques"] = run.encoding.value_uniques
            spec["value_objects"] = run.encoding.value_uniques.to_numpy(dtype=object)
        bits = np.random.default_rng(random_state).bit_generator
        if not hasattr(bits, "advance"):
            raise param_error("random_state", "skyline_anonymize",
                              "be a seed or a Generator whose bit generator can advance "
                              "(PCG64, PCG64DXSM, Philox) on a dask frame",
                              type(bits).__name__)
        stream = literal((type(bits), bits.state), "stream")
        spec_task = literal(spec, "spec")
        sources = [call(_bucket_sources, part, chunk, r, labels_task, spec_task, stream,
                        prefix="bucket-sources")
                   for part, chunk, r in zip(parts, run.chunks, routed)]
        n_out = len(run.chunks)
        grouped = exchange(sources, split_by_key, ("group", n_out), n_out, prefix="buckets")
        assigned = [call(_bucket_assign, g, prefix="bucket-assign") for g in grouped]
        buckets = exchange(assigned, split_by_row, ("row", run.offsets), n_out, sort_by="row",
                           prefix="buckets-back")
        if isinstance(random_state, np.random.Generator):
            random_state.bit_generator.advance(run.n_rows)  # as if the draws were made here
    else:
        spec_task = literal(spec, "spec")
    pairs = [call(_release_partition, part, chunk, r, labels_task, spec_task, b,
                  prefix="release")
             for part, chunk, r, b in zip(parts, run.chunks, routed, buckets)]
    meta = table._meta.copy()
    if output == "generalized":
        for name in run.qi:
            meta[name] = meta[name].astype(object)
    else:
        if run.sensitive is not None:
            meta[run.sensitive] = meta[run.sensitive].astype(object)
        meta.insert(len(meta.columns), group_column, pd.Series([], dtype=np.int64))
    # the input's divisions, when its partitions are the ones read (they are unless dask
    # fused partitions while optimizing)
    divisions = table.divisions if len(parts) == table.npartitions else None
    released = dd.from_delayed([call(operator.itemgetter(0), p, prefix="released")
                                for p in pairs], meta=meta, divisions=divisions,
                               verify_meta=False)
    assignment = dd.from_delayed([call(operator.itemgetter(1), p, prefix="assignment")
                                  for p in pairs],
                                 meta=pd.Series([], dtype=np.int64, name="group",
                                                index=table._meta.index),
                                 divisions=divisions, verify_meta=False)
    return released, assignment


def _groups_slice(labels: dict, qi: list, start: int, stop: int) -> pd.DataFrame:
    keys = labels["key_of_id"][start:stop]
    columns = {name: labels["texts"][a][labels["label_of"][a][keys]].tolist()
               for a, name in enumerate(qi)}
    frame = pd.DataFrame(columns, columns=list(qi), index=pd.RangeIndex(start, stop))
    frame.index.name = "group"
    frame["n_individuals"] = labels["size"][keys]
    return frame


def _groups_frame(run: _Run, labels: dict, step: int = 1_000_000):
    """The per-group summary as a dask frame (labels made on the workers)."""
    import dask.dataframe as dd

    n = len(labels["key_of_id"])
    task = literal(labels, "labels")
    bounds = list(range(0, n, step)) + [n]
    meta = _groups_slice(labels, run.qi, 0, 0)
    with keep_objects():
        return dd.from_delayed([call(_groups_slice, task, run.qi, a, b, prefix="groups")
                            for a, b in zip(bounds[:-1], bounds[1:])], meta=meta,
                           divisions=(*bounds[:-1], n - 1), verify_meta=False)


def skyline_anonymize(table, *, qi, sensitive: str, policy, hierarchies=None,
                      semantics: str = "svpi", split: str = "infogain",
                      output: str = "generalized", random_state=None,
                      group_column: str = "group", progress=None, numeric=None,
                      categorical=None, order=None, label_length=DEFAULT_LABEL_LENGTH,
                      local_rows=None) -> AnonymizationResult:
    """:func:`skyprivacy.skyline_anonymize` for a dask DataFrame (same parameters and
    result, with ``.table``, ``.assignment`` and ``.groups`` as dask collections)."""
    owner = "skyline_anonymize"
    local_rows = _check_local_rows(local_rows, owner)
    qi = check_columns(table, qi, sensitive, owner)
    parts = table.to_delayed()
    scan = _scan_table(parts, qi, sensitive, semantics)
    policy, semantics, hierarchies = _validate_after_scan(
        scan, [*qi, sensitive], policy, semantics, split, output, hierarchies, qi, owner)
    check_group_column(table, output, group_column)
    kinds = _kinds(table, qi, hierarchies, scan, numeric, categorical, owner)
    orders = _orders(qi, kinds, scan, order, owner)
    label_length = label_length_of(label_length, owner)
    _sensitive_errors(scan, sensitive, semantics)
    run = _Run(table, parts, qi, sensitive, policy, hierarchies, semantics, split, kinds, scan,
               None, local_rows, progress, orders, label_length)
    sizes, group, value, count = _root_arrays(run)
    root = ReleaseCandidate.from_nonzeros(sizes, group, value, count, run.values,
                                          semantics=semantics)
    with warnings.catch_warnings():  # unused policy values are reported by the certificate
        warnings.simplefilter("ignore", UnusedPolicyValueWarning)
        root_check = skyline_check(root, policy)
    if not root_check.safe:
        raise infeasible_error(root, root_check)
    run.search()
    labels = _labels(run, run.groups())
    released, assignment = _released(run, labels, output, group_column, random_state)
    from .release import from_table
    if output == "generalized":
        candidate = from_table(released, qi=qi, sensitive=sensitive, semantics=semantics)
    else:
        candidate = from_table(released, group=group_column, sensitive=sensitive,
                               semantics=semantics)
    certificate = skyline_check(candidate, policy)
    return AnonymizationResult(
        table=released, candidate=candidate, certificate=certificate, assignment=assignment,
        groups=_groups_frame(run, labels), qi=tuple(qi), sensitive=sensitive,
        semantics=semantics, output=output, split=split, n_splits=run.n_splits,
        n_candidates_evaluated=run.decider.n_candidates,
        group_column=group_column if output == "bucketized" else None,
        set_labels=set_labels_of(run))


def _root_arrays(run: _Run):
    value = np.flatnonzero(run.value_totals)
    return (np.array([run.n_rows]), np.zeros(len(value), dtype=np.int64), value,
            run.value_totals[value])


def k_anonymize(table, *, qi, k: int, hierarchies=None, split: str = "widest",
                output: str = "generalized", group_column: str = "group", progress=None,
                numeric=None, categorical=None, order=None, label_length=DEFAULT_LABEL_LENGTH,
                local_rows=None) -> KAnonymizationResult:
    """:func:`skyprivacy.k_anonymize` for a dask DataFrame; groups of at most ``local_rows``
    rows are finished on the worker holding them by the in-memory engine."""
    owner = "k_anonymize"
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) or k < 2:
        raise param_error("k", owner, "be an integer >= 2", k)
    if split not in SPLITS:
        raise param_error("split", owner, f"be one of {list(SPLITS)}", split)
    local_rows = _check_local_rows(local_rows, owner)
    # the pandas path checks a frame of the QI columns beside an identity marker
    listed = [qi] if isinstance(qi, str) else list(qi or [])
    work = pd.DataFrame(columns=[_MARKER] + [c for c in listed if c in table.columns])
    qi = check_columns(work, qi, _MARKER, owner)
    parts = table.to_delayed()
    scan = _scan_table(parts, qi, None, "svpi")
    _, _, hierarchies = _validate_after_scan(
        scan, [*qi], Policy.uniform([(0, 0, 0, 1)]), "svpi", split, output, hierarchies, qi,
        owner)
    check_group_column(table, output, group_column)
    kinds = _kinds(table, qi, hierarchies, scan, numeric, categorical, owner)
    orders = _orders(qi, kinds, scan, order, owner)
    run = _Run(table, parts, qi, None, None, hierarchies, "svpi", split, kinds, scan, int(k),
               local_rows, progress, orders, label_length_of(label_length, owner))
    if run.n_rows < k:
        raise InfeasibleError(f"The table has {run.n_rows} rows, fewer than k = {k}: no "
                              f"release can be {k}-anonymous.")
    run.search()
    stats = run.groups()
    labels = _labels(run, stats)
    released, assignment = _released(run, labels, output, group_column, None)
    from ..baselines import k_anonymity
    groups = _groups_frame(run, labels)
    sizes = labels["size"][labels["key_of_id"]]
    sizes_only = ReleaseCandidate.from_nonzeros(
        sizes, np.arange(len(sizes)), np.zeros(len(sizes), dtype=np.int64), sizes,
        ("individuals",), labels=pd.RangeIndex(len(sizes), name="group"))
    certificate = k_anonymity(sizes_only, k=int(k))
    return KAnonymizationResult(released, certificate, assignment, groups, int(k),
                                run.n_splits, set_labels_of(run))
