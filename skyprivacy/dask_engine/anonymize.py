"""SkylineAnonymize and k-anonymity over a dask DataFrame (Sect. 6.2, Fig. 4, distributed).

The search is the in-memory one: the same flow
(:func:`~skyprivacy.anonymize.api.skyline_search`), strategy
(:func:`~skyprivacy.anonymize.search.mondrian`) and decision rules
(:class:`~skyprivacy.anonymize.rules.Rules`) run over :class:`DaskSource`, a source of the
table's partitions, which :class:`DaskEngine` hands them.  Only where a level's candidate
statistics are computed changes:

1. **Encoding.** One scan finds every QI column's distinct values (in order of first
   appearance) and the sensitive values with their counts; the QI encoders are built on the
   client from those distinct values, so a code means what it means on one machine.  Every
   partition is then coded once (QI codes, value codes, its current group) and kept on the
   workers.
2. **Global levels.** While some group is larger than ``local_rows``, each level's candidates
   come from one distributed aggregation of (group, QI code) and (group, QI code, value)
   counts, the entries :func:`skyprivacy.anonymize.source.level_candidates` reads; the rules
   decide, and a relabel table is broadcast: a row's new group is a function of its group and
   its code (Mondrian is a tree).
3. **Local levels.** Once groups are small, their rows are shuffled so that each group lives
   on one worker, in a :class:`~skyprivacy.anonymize.source.MemorySource`.  Under k-anonymity
   (independent groups) a worker decides each of its groups by the size rule, level by level.
   Under a skyline policy, splits are coupled through the *global* statistics SS1..SS5 of
   every (value, point): each level the client broadcasts them, a worker accepts outright the
   first viable candidate of a group when none of its children's terms comes near any
   statistic (it can neither change a verdict nor an exact minimum), and sends the other
   groups' candidates to the client, where the rules decide them in queue order exactly as in
   memory.
4. **Release.** Group labels (ranges, hierarchy nodes, or the input cell when a group holds one
   value) are computed from per-group code ranges; the released table is a dask DataFrame with
   the input's partitions, index and row order, and the certificate is an independent
   :func:`skyprivacy.skyline_check` of the model aggregated from that released table.
"""

from __future__ import annotations

import copy
import math
import operator
from typing import Any, cast

import numpy as np
import pandas as pd

from .._core.encoding import factorize
from ..anonymize.api import k_search, mondrian_criteria, mondrian_search, skyline_search
from .._core.canonical import normalize_column
from ..anonymize.encoders import make_encoder
from ..anonymize.inputs import TableFacts, check_k, check_local_rows
from ..anonymize.lattice import SUPPRESSED, AnonymizeResult, suppression_budget
from ..anonymize.released import (
    AnonymizationResult,
    KAnonymizationResult,
    bucket_assign,
    group_labels,
    group_stats,
    groups_slice,
    release_rows,
)
from ..anonymize.rules import PolicyPlan, Rules, SparseGroups
from ..anonymize.search import mondrian
from ..anonymize.source import (
    LevelCandidates,
    MemorySource,
    children_of,
    distinct_rows,
    level_candidates,
    narrow,
    root_group,
)
from ..errors import param_error
from ..formulas import within_tolerance
from ..labels import DEFAULT_LABEL_LENGTH
from ._compute import (
    call,
    compute,
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
from .release import merge_facts, raise_sensitive_faults, repeated_value, sensitive_facts

__all__ = ["skyline_anonymize", "k_anonymize", "anonymize", "DaskSource", "DEFAULT_LOCAL_ROWS"]

#: Groups of at most this many rows are finished on the worker that holds them.
DEFAULT_LOCAL_ROWS = 1_000_000
#: Rows per worker-side chunk of the local levels (at least ``local_rows``).
CHUNK_ROWS = 2_000_000


# ============================================================================ scan
def _scan(pdf: pd.DataFrame, qi: list, sensitive, semantics: str, missing: str) -> tuple:
    """One partition, read once: (summary, local codes).  The summary holds its length,
    missing counts, every QI's distinct values (first appearance) with counts, the sensitive
    values (or elements) with counts and the facts of the sensitive-column rule; the local
    codes are the partition coded against its own distinct values, recoded later without
    reading the rows again."""
    out: dict[str, Any] = {"lengths": [len(pdf)], "list_row": None, "dup_row": None,
                           "elem_missing": 0}
    columns = list(qi) + ([sensitive] if sensitive is not None else [])
    out["missing"] = np.array([int(pdf[c].isna().sum()) for c in columns], dtype=np.int64)
    out["qi"] = []
    local: dict[str, Any] = {"codes": np.empty((len(pdf), len(qi)), dtype=np.int32),
                             "uniques": [], "elem_row": None, "elem_val": None,
                             "value_uniques": None}
    for a, name in enumerate(qi):
        codes, uniques = local_codes(pdf[name])
        local["codes"][:, a] = codes
        local["uniques"].append(uniques)
        out["qi"].append((uniques, np.bincount(codes, minlength=len(uniques))))
    if sensitive is None:
        out["values"] = (pd.Series([0], dtype=np.int64), np.array([len(pdf)], dtype=np.int64))
        return out, local
    facts, row_of, codes, uniques = sensitive_facts(pdf[sensitive], semantics, missing)
    out.update(facts)
    if codes is None:  # a list-like cell under svpi: the checks stop the run
        out["values"] = (uniques, np.zeros(0, dtype=np.int64))
        return out, None
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
        merge_facts(out, part)
        out["qi"] = [_merge_counts(a, b) for a, b in zip(out["qi"], part["qi"])]
        out["values"] = _merge_counts(out["values"], part["values"])
    return out


def _scan_table(parts: list, qi: list, sensitive, semantics: str, missing: str) -> dict:
    """The merged summary of every partition; the partitions' local codes stay on the
    workers (``scan["scanned"]``) for the encoding.  ``parts`` are the table's partitions,
    taken once: every later pass (the release) reads the very same partitions."""
    semantics_arg = semantics if semantics in ("svpi", "mvpi-set", "mvpi-multiset") else "svpi"
    scanned = list(persist(*[call(_scan, part, qi, sensitive, semantics_arg, missing,
                                  prefix="scan") for part in parts]))
    summaries = [call(operator.itemgetter(0), s, prefix="scan-summary") for s in scanned]
    (scan,) = compute(tree_reduce(summaries, _combine_scans, prefix="scan-combine"))
    scan["scanned"] = scanned
    return scan


def _sensitive_values(scan: dict, sensitive, semantics: str,
                      whitespace: str = "strip") -> tuple:
    """The sensitive values' distinct cells, their codes and the values as the in-memory
    rule orders them, once the scan's facts pass :func:`skyprivacy.release.sensitive_error`
    (in the rule's order: list-like cells, then missing values in lists, then a value held
    twice, named as the first such row's smallest value)."""
    value_uniques = scan["values"][0].reset_index(drop=True)
    if sensitive is not None and semantics != "svpi":
        value_uniques = value_uniques.astype(object)
    value_codes, values = factorize(value_uniques)
    if sensitive is not None:  # as encode_sensitive: values compared in canonical form
        value_codes, values = normalize_column(value_codes, values, whitespace, sensitive)
    if sensitive is not None:
        raise_sensitive_faults(scan, sensitive, list_cells=semantics == "svpi", repeated=(
            repeated_value(scan["dup_row"], value_uniques, value_codes, values)))
    return value_uniques, value_codes, values


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
    (its live group at the current level, or its final group).
    Tasks never modify a chunk; they return a new one sharing the unchanged arrays."""

    __slots__ = ("offset", "codes", "raw", "elem_row", "elem_val", "part", "final")

    def __init__(self, offset, codes, raw, elem_row, elem_val, part, final):
        self.offset, self.codes, self.raw = offset, codes, raw
        self.elem_row, self.elem_val = elem_row, elem_val
        self.part, self.final = part, final



def _encode(scanned: tuple, offset: int, enc: _Encoding) -> _Chunk:
    """A scanned partition recoded with the encoders' codes (per distinct value: its
    position among the table's distinct values, then its code)."""
    local = scanned[1]
    n = len(local["codes"])
    # the narrowest integers that hold the codes: a chunk holds a code per row and QI
    codes = narrow(np.empty((n, len(enc.qi)), dtype=np.int64), max(enc.n_codes, default=1))
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
    return _Chunk(offset, codes, raw, elem_row, elem_val, zeros, zeros - 1)


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


def _relabel(chunk: _Chunk, table: dict) -> _Chunk:
    """Apply one level's decisions to the chunk's live rows.

    ``table`` holds, per live group, its final key if it is finished, else the QI it is split
    on; and per QI the keys (group, code) of its entries with the next level's group of each
    (the child its code falls in)."""
    part = chunk.part
    live = np.flatnonzero(part >= 0)
    new_part = np.full(len(part), -1, dtype=np.int32)
    final = chunk.final.copy()
    p = part[live].astype(np.int64)
    finished = table["final_of_part"][p]
    done = finished >= 0
    final[live[done]] = finished[done]
    attr_of = table["attr_of_part"][p]
    for a, (keys, n_code, child_id) in table["maps"].items():
        rows = np.flatnonzero(attr_of == a)
        if len(rows):
            new_part[live[rows]] = child_id[np.searchsorted(
                keys, p[rows] * n_code + chunk.codes[live[rows], a])]
    return _Chunk(chunk.offset, chunk.codes, chunk.raw, chunk.elem_row, chunk.elem_val,
                  new_part, final)


def _global_group_stats(chunk: _Chunk, raw_attrs: list) -> dict:
    """Per final group finished in the global levels: size, first row, code and raw ranges."""
    rows = np.flatnonzero(chunk.final >= 0)
    return group_stats(chunk.final[rows].astype(np.int64), chunk.offset + rows,
                     chunk.codes[rows], {a: chunk.raw[a][rows] for a in raw_attrs})


def _slim(chunk: _Chunk) -> _Chunk:
    """What the release still needs of a chunk once its live rows have gone local."""
    return _Chunk(chunk.offset, None, {}, None, None, None, chunk.final)


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
def _rows_frame(chunk: _Chunk, n_attrs: int, with_values: bool) -> pd.DataFrame:
    """The chunk's live rows, which go local, as a frame for the shuffle: key (the group),
    global row number, QI codes, raw cells where needed and, in svpi, the value."""
    keys = chunk.part
    rows = np.flatnonzero(keys >= 0)
    data = {"key": keys[rows].astype(np.int64), "row": chunk.offset + rows.astype(np.int64)}
    for a in range(n_attrs):
        data[f"c{a}"] = chunk.codes[rows, a]  # narrow codes: less to move
    for a, raw in sorted(chunk.raw.items()):
        data[f"r{a}"] = raw[rows]
    if with_values:
        data["value"] = chunk.elem_val[rows]
    return pd.DataFrame(data)


def _elements_frame(chunk: _Chunk) -> pd.DataFrame:
    """The sensitive elements (mvpi) of the rows that go local."""
    keys = chunk.part
    keep = keys[chunk.elem_row] >= 0
    elem_row = chunk.elem_row[keep]
    return pd.DataFrame({"key": keys[elem_row].astype(np.int64),
                         "row": chunk.offset + elem_row.astype(np.int64),
                         "value": chunk.elem_val[keep].astype(np.int32)})


class _Local:
    """A worker's share of the local levels: whole groups, coded, as an in-memory source
    (its groups of the current level numbered globally) with the decision rules; ``row`` is
    the global row number of every row of the share."""

    def __init__(self, rows_frame: pd.DataFrame, elements, engine_args: dict, n_attrs: int,
                 raw_attrs: list):
        rows_frame = rows_frame.sort_values(["key", "row"], kind="stable")
        self.row = rows_frame["row"].to_numpy(dtype=np.int64)
        key = rows_frame["key"].to_numpy(dtype=np.int64)
        # the chunks' narrow codes (the source widens what it computes with)
        codes = np.column_stack([rows_frame[f"c{a}"].to_numpy() for a in range(n_attrs)])
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
        parts, starts = np.unique(key, return_index=True)
        values, semantics = engine_args["values"], engine_args["semantics"]
        self.source = MemorySource(engine_args["attrs"], codes, elem_row, elem_val, values,
                                   semantics, rows=np.arange(len(key), dtype=index),
                                   starts=np.append(starts, len(key)).astype(np.int64),
                                   parts=parts)
        self.rules = Rules(engine_args["plan"], len(values), semantics, engine_args["split"],
                           engine_args["min_size"])
        criteria = engine_args.get("criteria")
        self.rules.criteria = None if criteria is None else criteria.for_worker()
        self.status: np.ndarray | None = None

    def copy(self) -> _Local:
        """A copy whose source and rules a task may change (tasks never modify their
        inputs)."""
        other = copy.copy(self)
        other.source, other.rules = copy.copy(self.source), copy.copy(self.rules)
        other.source.final = self.source.final.copy()
        if self.rules.criteria is not None:
            other.rules.criteria = self.rules.criteria.for_worker()
        return other


def _evaluate(local: _Local, statistics) -> tuple:
    """One local level.  Under k-anonymity groups are independent: each is decided here by
    the size rule.  Under a policy every live group's candidates are built and judged
    against the level's global statistics; a group whose first viable candidate is clear of
    every statistic (each of its children's terms is above it by more than the float
    tolerance, and none pins the target) is decided here; the other groups' candidates go to
    the client.  Returns (state with the level's candidates, report)."""
    state = local.copy()
    source, rules = state.source, state.rules
    n_parts = source.n_parts
    report: dict[str, Any] = {"parts": source.parts, "size": source.sizes,
                              "status": np.full(n_parts, -1, dtype=np.int64),
                              "n_children": np.zeros(n_parts, dtype=np.int64), "n": 0,
                              "undecided": None}
    state.status = report["status"]
    if not n_parts:
        return state, report
    cands = source.candidates(need_counts=rules.need_counts)
    if not cands["n"]:
        return state, report
    rules.level_sizes = source.sizes
    # the children of every row are kept until the decisions come back: narrowly
    widest = int(cands["n_children"].max())
    cands["row_child"] = cands["row_child"].astype(np.int8 if widest < 127 else np.int32,
                                                  copy=False)
    report["n"] = int(cands["n"])
    if not rules.policy_mode:
        # under combined criteria, groups whose choice spends the suppression budget or
        # changes a whole-release measure come back -2: the client decides them
        rules.choose_by_size(cands, rules.ordered(cands), report["status"])
        report["n_children"] = children_of(cands, report["status"])
        undecided = np.flatnonzero(report["status"] == -2)
        if len(undecided):
            report["undecided"] = _subset(cands, undecided, source.parts)
        return state, report
    rules.ss, rules.pinned = statistics
    order = rules.ordered(cands)
    combos = rules.level_terms(cands)
    unsafe, _ = rules.verdicts(combos, slice(None))
    bad = np.zeros(cands["n"], dtype=bool)
    bad[combos["cand"][unsafe]] = True
    current = rules.ss[:, combos["cell"]]
    mins = combos["mins"]
    with np.errstate(invalid="ignore"):
        clear = ((mins >= current) & ~within_tolerance(mins, current)).all(axis=0)
    clear &= ~combos["pinned"]
    unclear = np.zeros(cands["n"], dtype=bool)
    unclear[combos["cand"][~clear]] = True
    if rules.criteria is not None:  # combined criteria: what spends goes to the client
        bad |= rules.criteria.blocked(cands, source.sizes)
        unclear |= rules.criteria.level["could"]
        if rules.criteria.release_criteria:
            unclear[:] = True
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
        report["undecided"] = _subset(cands, undecided, source.parts)
    return state, report


def _subset(cands: dict, parts: np.ndarray, part_ids: np.ndarray) -> dict:
    """The candidates of some groups (positions ``parts``) with their children, numbered from
    0, for the client: each candidate's group id (``part_ids``) and its index in ``cands``."""
    keep = np.flatnonzero(np.isin(cands["part"], parts))
    kids = cands["children"]
    first, n_children = cands["first_child"][keep], cands["n_children"][keep]
    child = np.concatenate([np.arange(f, f + n) for f, n in zip(first.tolist(),
                                                               n_children.tolist())])
    new_id = np.full(len(kids.sizes), -1, dtype=np.int64)
    new_id[child] = np.arange(len(child))
    entry = new_id[kids.group] >= 0
    return {"part": part_ids[cands["part"][keep]], "attr": cands["attr"][keep],
            "n_children": n_children, "width": cands["width"][keep],
            "sizes": kids.sizes[child], "child_width": cands["child_width"][child],
            "counts": (new_id[kids.group[entry]], kids.value[entry], kids.count[entry]),
            "local": keep}


def _apply(evaluated: tuple, decision: dict) -> _Local:
    """The next-level step of a local share (:meth:`MemorySource.advance`), with the level's
    decisions: those made on the worker and those the client sends."""
    local = evaluated[0]
    state = local.copy()
    state.status = None
    source = state.source
    if not source.n_parts:
        return state
    chosen = np.where(local.status >= 0, local.status, -1)
    chosen[local.status == -2] = decision["chosen"]
    source.decided(source.cands, chosen)
    source.advance(decision["final_key"], decision["new_base"])
    return state


def _local_stats(local: _Local) -> dict:
    return group_stats(local.source.final, local.row, local.source.code_matrix, local.raw)


def _local_keys(local: _Local) -> pd.DataFrame:
    """(global row, final key) of a local share, for the way back to the input partitions."""
    return pd.DataFrame({"row": local.row, "key": local.source.final})


# ============================================================================ the source
class DaskSource:
    """The search's source over a dask frame's partitions (see the module docstring): the
    coded chunks on the workers, the live groups of the level (``sizes``), and, once groups
    are small, the workers' local shares.  It owns the decision rules (``rules``), built from
    the sensitive values the scan found."""

    def __init__(self, table, parts, scan: dict, checked, sensitive, policy, split: str,
                 min_size, local_rows: int, progress) -> None:
        self.table, self.parts, self.qi, self.sensitive = table, parts, checked.qi, sensitive
        self.semantics, self.local_rows = checked.semantics, local_rows
        value_uniques, value_codes, values = _sensitive_values(scan, sensitive,
                                                               checked.semantics,
                                                               checked.whitespace)
        self.offsets = np.concatenate([[0], np.cumsum(scan["lengths"])]).astype(np.int64)
        self.scanned = scan["scanned"]
        self.n_rows = int(self.offsets[-1])
        attrs, codes, injective, uniques_of = [], [], [], []
        for name, (uniques, _) in zip(self.qi, scan["qi"]):
            uniques = uniques.reset_index(drop=True)
            # the scan keeps first appearances in table order, as the order 'first' needs
            attr = make_encoder(name, uniques, checked.kinds[name],
                                checked.hierarchies.get(name),
                                checked.orders.get(name, "sorted"), checked.label_length,
                                balanced=split == "loss", whitespace=checked.whitespace)
            attrs.append(attr)
            uniques_of.append(uniques)
            codes.append(np.asarray(attr.codes, dtype=np.int64))
            injective.append(len(np.unique(attr.codes)) == len(uniques))
        self.attrs = attrs
        self.raw_attrs = [a for a, ok in enumerate(injective) if not ok]
        self.values = values
        self.value_totals = np.bincount(value_codes, weights=scan["values"][1],
                                        minlength=len(values)).astype(np.int64)
        self.encoding = _Encoding(self.qi, uniques_of, codes, injective, sensitive,
                                  value_uniques, value_codes, self.semantics)
        self.rules = Rules(PolicyPlan.build(policy, values, self.n_rows), len(values),
                           self.semantics, split, min_size, progress)
        self.sizes = np.array([self.n_rows], dtype=np.int64)  # the live groups of the level
        self.n_final = 0  # groups finished so far
        self.chunks: list = []
        self.states: list | None = None  # the local shares under a policy, once local
        self.locals: list = []
        self.global_stats = None
        self.level: dict = {}
        self.audit = None  # a Dask result keeps no source for audits

    @property
    def n_parts(self) -> int:
        return len(self.sizes)

    def root(self) -> SparseGroups:
        return root_group(self.n_rows, self.value_totals)

    def run(self) -> int:
        """Code every partition on its worker, then run the strategy; returns the number of
        accepted splits."""
        enc = literal(self.encoding, "encoding")
        self.chunks = list(persist(*[call(_encode, part, int(self.offsets[i]), enc,
                                          prefix="encode")
                                     for i, part in enumerate(self.scanned)]))
        del self.scanned  # the local codes are released once the chunks hold them
        return mondrian(self, self.rules)

    # -- the level
    def candidates(self, need_counts: bool) -> dict:
        """The level's candidates: from a distributed aggregation while some group is larger
        than ``local_rows``, else those the workers leave undecided."""
        if (self.sizes <= self.local_rows).all():
            return self._local_candidates()
        n_parts = self.n_parts
        parts = [call(_histograms, c, n_parts, self.encoding.n_codes, len(self.values),
                      need_counts, prefix="histogram") for c in self.chunks]
        (hist,) = compute(tree_reduce(parts, _combine_histograms, prefix="histogram-combine"))
        entries = []
        for a in range(len(self.attrs)):
            (part_e, code_e), count_e = hist["rows"][a]

            def items(a=a, part_e=part_e, code_e=code_e):
                """The (group, code, value) counts: each one's entry, value and count."""
                (vpart, vcode, vvalue), vcount = hist["values"][a]
                n_code = int(code_e.max()) + 1
                return (np.searchsorted(part_e * n_code + code_e, vpart * n_code + vcode),
                        vvalue, vcount)
            entries.append((part_e, code_e, count_e, items))
        cands = level_candidates(self.attrs, entries, n_parts, len(self.values), need_counts)
        cands["part_rows"] = self.sizes
        self.level = {"cands": cands, "entries": [e[:2] for e in entries]}
        return cands

    def decided(self, cands: dict, chosen: np.ndarray) -> np.ndarray:
        """The number of children of every group of the level (0: it is final)."""
        self.level["chosen"] = chosen
        if self.states is not None:
            return self._local_decided(chosen)
        return children_of(cands, chosen)

    def advance(self, final_id: np.ndarray, new_base: np.ndarray) -> None:
        """Broadcast the level's decisions: a relabel table to the chunks, or the decisions
        of each local share."""
        self.n_final += int((final_id >= 0).sum())
        if self.states is not None:
            return self._local_advance(final_id, new_base)
        cands, chosen = self.level.get("cands", {"n": 0}), self.level["chosen"]
        table: dict[str, Any] = {"final_of_part": final_id,
                                 "attr_of_part": np.full(len(final_id), -1, dtype=np.int64),
                                 "maps": {}}
        accepted = np.flatnonzero(chosen >= 0)
        self.sizes = np.zeros(0, dtype=np.int64)
        if len(accepted):
            table["attr_of_part"][accepted] = cands["attr"][chosen[accepted]]
            self.sizes = cands["sizes"][np.concatenate(
                [np.arange(f, f + n) for f, n in zip(cands["first_child"][chosen[accepted]],
                                                     cands["n_children"][chosen[accepted]])])]
        for a in np.unique(table["attr_of_part"][accepted]).tolist():
            part_e, code_e = self.level["entries"][a]
            mine = table["attr_of_part"][part_e] == a
            n_code = self.encoding.n_codes[a]
            table["maps"][a] = (part_e[mine] * n_code + code_e[mine], n_code,
                                new_base[part_e[mine]] + cands["child_of_entry"][a][mine])
        table = literal(table, "relabel")
        self.chunks = list(persist(*[call(_relabel, c, table) for c in self.chunks]))

    # -- local levels
    def _shuffled(self, n_rows: int):
        """The live rows, exchanged so that every group is in one share."""
        n_attrs = len(self.attrs)
        policy_mode = self.rules.need_counts  # a policy, or criteria reading the values
        with_values = policy_mode and self.semantics == "svpi"
        n_out = max(2, min(4 * len(self.chunks),
                           math.ceil(n_rows / max(CHUNK_ROWS, self.local_rows))))
        frames = [call(_rows_frame, c, n_attrs, with_values, prefix="rows")
                  for c in self.chunks]
        rows = exchange(frames, split_by_key, ("key", n_out), n_out, prefix="to-local")
        elements = [None] * n_out
        if policy_mode and self.semantics != "svpi":
            frames = [call(_elements_frame, c, prefix="elements") for c in self.chunks]
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

    def _local_candidates(self) -> dict:
        """A local level: the workers judge their groups against the broadcast statistics;
        the candidates of the groups they leave undecided, as one candidate set."""
        if self.states is None:
            rows, elements = self._shuffled(int(self.sizes.sum()))
            # what a worker needs to build its share's source and rules
            args = literal({"attrs": self.attrs, "values": self.values, "plan": self.rules.plan,
                            "semantics": self.semantics, "split": self.rules.split,
                            "min_size": self.rules.min_size,
                            "criteria": self.rules.criteria}, "engine")
            self.states = self._go_local([call(_Local, r, e, args, len(self.attrs),
                                               self.raw_attrs, prefix="local")
                                          for r, e in zip(rows, elements)])
        rules = self.rules
        statistics = literal((rules.ss.copy(), rules.pinned.copy()) if rules.policy_mode
                             else None, "statistics")
        evaluated = list(persist(*[call(_evaluate, s, statistics) for s in self.states]))
        reports = compute(*[call(operator.itemgetter(1), e, prefix="report")
                            for e in evaluated])
        n_parts = self.n_parts
        n_kids = np.zeros(n_parts, dtype=np.int64)
        size = np.zeros(n_parts, dtype=np.int64)
        pieces, owners = [], []
        for r in reports:
            rules.n_candidates += r["n"]
            n_kids[r["parts"]] = r["n_children"]
            size[r["parts"]] = r["size"]
            if r["undecided"] is not None:
                pieces.append(r["undecided"])
                owners.append(r["parts"][r["status"] == -2])
        self.sizes = size
        found = LevelCandidates()
        for piece in pieces:
            found.add(piece["part"], piece["attr"], piece["n_children"], piece["width"],
                      piece["sizes"], piece["counts"], piece["child_width"])
        # the rules place the rows of the undecided groups only (the others are the workers')
        part_rows = np.zeros(n_parts, dtype=np.int64)
        for owner in owners:
            part_rows[owner] = size[owner]
        merged = found.arrays(True, part_rows=part_rows,
                              local=np.concatenate([p["local"] for p in pieces] or [[]]))
        rules.n_candidates -= merged["n"]  # counted by the workers already
        self.level = {"evaluated": evaluated, "reports": reports, "n_kids": n_kids,
                      "owners": owners, "cands": merged}
        return merged

    def _local_decided(self, chosen: np.ndarray) -> np.ndarray:
        level = self.level
        merged, n_kids = level["cands"], level["n_kids"]
        level["choice"] = []
        for owner in level["owners"]:
            picked = chosen[owner]
            ok = picked >= 0
            level["choice"].append(np.where(ok, merged["local"][np.maximum(picked, 0)], -1))
            n_kids[owner[ok]] = merged["n_children"][picked[ok]]
        return n_kids

    def _local_advance(self, final_id: np.ndarray, new_base: np.ndarray) -> None:
        level = self.level
        decisions, piece = [], 0
        for r in level["reports"]:
            choice = np.zeros(0, dtype=np.int64)
            if r["undecided"] is not None:
                choice, piece = level["choice"][piece], piece + 1
            decisions.append({"chosen": choice, "final_key": final_id[r["parts"]],
                              "new_base": new_base[r["parts"]]})
        self.states = list(persist(*[call(_apply, e, literal(d, "decision"))
                                     for e, d in zip(level["evaluated"], decisions)]))
        # the next level's groups; their sizes come with the workers' next reports
        self.sizes = np.zeros(int(level["n_kids"].sum()), dtype=np.int64)

    def finish(self) -> int:
        """Every group is final once no group is live: the workers' shares hold the groups
        finished locally; no split is made after the levels."""
        self.locals = self.states or []
        self.rules.report(self.n_rows)
        return 0

    # -- the release
    def release(self, output: str, random_state, group_column: str, suppress=None,
                mask: bool = False) -> tuple:
        """(released dask frame, group of every row, per-group summary, group sizes); the
        rows of the final groups ``suppress`` flags are dropped, or masked with ``mask``."""
        labels = group_labels(self.attrs, self.raw_attrs, self.groups())
        released, assignment = _released(self, labels, output, group_column, random_state,
                                         suppress, mask)
        return (released, assignment, _groups_frame(self, labels),
                labels["size"][labels["key_of_id"]])

    def groups(self) -> dict:
        """Every final group's size, first row and code ranges, indexed by final key."""
        if self.global_stats is None:
            parts = [call(_global_group_stats, c, self.raw_attrs, prefix="group-stats")
                     for c in self.chunks]
            pieces = [tree_reduce(parts, _combine_stats, prefix="group-combine")]
        else:
            pieces = [self.global_stats]
        pieces += [call(_local_stats, s) for s in self.locals]
        stats = _combine_stats(list(compute(*pieces)))
        if not np.array_equal(stats["keys"], np.arange(self.n_final)):
            raise AssertionError("every final group must hold rows")  # pragma: no cover
        return stats

    def local_keys(self) -> list:
        """Per input partition, the (row, final key) of its rows finished on the workers,
        sorted by row (delayed), or None when every row was finished in the global levels."""
        if not self.locals:
            return [None] * len(self.chunks)
        frames = [call(_local_keys, r, prefix="local-keys") for r in self.locals]
        return exchange(frames, split_by_row, ("row", self.offsets), len(self.chunks),
                        sort_by="row", prefix="keys-back")


# ============================================================================ the release
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
    return release_rows(pdf, _keys_of(chunk, routed, len(pdf)), labels, spec, bucket)


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


def _released(run: DaskSource, labels: dict, output: str, group_column: str, random_state,
              suppress=None, mask: bool = False):
    """The released dask frame and the group number of every row (the rows of suppressed
    final groups dropped or masked, as :func:`~skyprivacy.anonymize.released.release_rows`
    does)."""
    import dask.dataframe as dd
    from dask.dataframe.utils import make_meta

    table = run.table
    routed = run.local_keys()
    spec = {"qi": run.qi, "output": output, "sensitive": run.sensitive,
            "group_column": group_column, "value_objects": None, "value_uniques": None,
            "suppress": suppress, "mask": mask}
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
        assigned = [call(bucket_assign, g, prefix="bucket-assign") for g in grouped]
        buckets = exchange(assigned, split_by_row, ("row", run.offsets), n_out, sort_by="row",
                           prefix="buckets-back")
        if isinstance(random_state, np.random.Generator):
            # as if the draws were made here (the bit generator advances: checked above)
            cast(Any, random_state.bit_generator).advance(run.n_rows)
    else:
        spec_task = literal(spec, "spec")
    pairs = [call(_release_partition, part, chunk, r, labels_task, spec_task, b,
                  prefix="release")
             for part, chunk, r, b in zip(parts, run.chunks, routed, buckets)]
    meta = make_meta(table).copy()
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
    with keep_objects():
        released = dd.from_delayed([call(operator.itemgetter(0), p, prefix="released")
                                    for p in pairs], meta=meta, divisions=divisions,
                                   verify_meta=False)
        assignment = dd.from_delayed([call(operator.itemgetter(1), p, prefix="assignment")
                                      for p in pairs],
                                     meta=pd.Series([], dtype=np.int64, name="group",
                                                    index=make_meta(table).index),
                                     divisions=divisions, verify_meta=False)
    return released, assignment


def _groups_frame(run: DaskSource, labels: dict, step: int = 1_000_000):
    """The per-group summary as a dask frame (labels made on the workers)."""
    import dask.dataframe as dd

    n = len(labels["key_of_id"])
    task = literal(labels, "labels")
    bounds = list(range(0, n, step)) + [n]
    meta = groups_slice(labels, run.qi, 0, 0)
    with keep_objects():
        return dd.from_delayed([call(groups_slice, task, run.qi, a, b, prefix="groups")
                            for a, b in zip(bounds[:-1], bounds[1:])], meta=meta,
                           divisions=(*bounds[:-1], n - 1), verify_meta=False)


class DaskEngine:
    """The Dask engine of :func:`skyprivacy.anonymize.api.skyline_search` and ``k_search``:
    the facts from one scan of the partitions, a search over them (:class:`DaskSource`)."""

    def __init__(self, table, local_rows: int):
        self.table, self.local_rows = table, local_rows
        self.parts = table.to_delayed()  # taken once: every pass reads these partitions
        self.scan: dict = {}

    def facts(self, sensitive, semantics: str, missing: str):
        def facts(qi: list) -> TableFacts:
            self.scan.update(_scan_table(self.parts, qi, sensitive, semantics, missing))
            n_missing = self.scan["missing"].tolist() + ([] if sensitive is not None else [0])
            return TableFacts(sum(self.scan["lengths"]), n_missing,
                              dict(zip(qi, self.scan["qi"])))
        return facts

    def search(self, checked, sensitive, policy, split: str, min_size, progress,
               missing: str) -> DaskSource:
        return DaskSource(self.table, self.parts, self.scan, checked, sensitive, policy,
                          split, min_size, self.local_rows, progress)


def skyline_anonymize(table, *, qi, sensitive: str, policy, hierarchies=None,
                      semantics: str = "svpi", split: str = "infogain",
                      output: str = "generalized", random_state=None,
                      group_column: str = "group", progress=None, numeric=None,
                      categorical=None, order=None, label_length=DEFAULT_LABEL_LENGTH,
                      local_rows=None, missing: str = "error", keep=None, drop=None,
                      keep_rest: bool = False, whitespace: str = "strip") -> AnonymizationResult:
    """:func:`skyprivacy.skyline_anonymize` for a dask DataFrame (same parameters and
    result, with ``.table``, ``.assignment`` and ``.groups`` as dask collections)."""
    local_rows = check_local_rows(local_rows, "skyline_anonymize", DEFAULT_LOCAL_ROWS)
    return skyline_search(
        DaskEngine(table, local_rows), qi=qi, sensitive=sensitive, policy=policy,
        hierarchies=hierarchies, semantics=semantics, split=split, output=output,
        random_state=random_state, group_column=group_column, progress=progress,
        numeric=numeric, categorical=categorical, order=order, label_length=label_length,
        missing=missing, keep=keep, drop=drop, keep_rest=keep_rest, whitespace=whitespace)


def k_anonymize(table, *, qi, k: int, hierarchies=None, split: str = "widest",
                output: str = "generalized", group_column: str = "group", progress=None,
                numeric=None, categorical=None, order=None, label_length=DEFAULT_LABEL_LENGTH,
                local_rows=None, missing: str = "error", keep=None, drop=None,
                keep_rest: bool = False, whitespace: str = "strip") -> KAnonymizationResult:
    """:func:`skyprivacy.k_anonymize` for a dask DataFrame; groups of at most ``local_rows``
    rows are finished on the worker holding them."""
    k = check_k(k, split, "k_anonymize")
    local_rows = check_local_rows(local_rows, "k_anonymize", DEFAULT_LOCAL_ROWS)
    return k_search(DaskEngine(table, local_rows), qi=qi, k=k, hierarchies=hierarchies,
                    split=split, output=output, group_column=group_column, progress=progress,
                    numeric=numeric, categorical=categorical, order=order,
                    label_length=label_length, missing=missing, keep=keep, drop=drop,
                    keep_rest=keep_rest, whitespace=whitespace)


def anonymize(table, *, qi, sensitive, criteria, suppression_limit=0.0,
              suppressed: str = "drop", hierarchies=None, semantics: str = "svpi",
              missing: str = "error", split: str = "infogain",
              local_rows=None, whitespace: str = "strip") -> AnonymizeResult:
    """:func:`skyprivacy.anonymize` (``method='mondrian'``) for a dask DataFrame: the same
    search under the same criteria and budget over the partitions (``.table`` is a dask
    frame with the input's partitions and index, less the dropped rows)."""
    owner = "anonymize"
    local_rows = check_local_rows(local_rows, owner, DEFAULT_LOCAL_ROWS)
    mondrian_criteria(criteria, owner)
    if suppressed not in SUPPRESSED:
        raise param_error("suppressed", owner, f"be one of {list(SUPPRESSED)}", suppressed)
    n_rows = int(table.map_partitions(len).compute().sum())
    budget = suppression_budget(suppression_limit, n_rows, owner)
    return mondrian_search(lambda: DaskEngine(table, local_rows), qi=qi, sensitive=sensitive,
                           criteria=criteria, hierarchies=hierarchies, semantics=semantics,
                           split=split, budget=budget, mask=suppressed == "mask",
                           missing=missing, whitespace=whitespace)
