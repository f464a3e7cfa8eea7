"""What a level of the search needs from the data, and the in-memory source that supplies it.

A *source* holds the rows of a search and their groups at the current level.  The strategy
(:func:`skyprivacy.anonymize.search.mondrian`) asks it, one level at a time, for

* the level's candidate splits with their counts (:meth:`Source.candidates`): built by
  :func:`level_candidates` from per-group (code, count) entries of every quasi-identifier, so
  rows in memory and histograms aggregated over partitions give the same arrays;
* how many children each group gets from the decisions (:meth:`Source.decided`);
* the relabelling of its rows (:meth:`Source.advance`): a finished group gets its final
  number, a split one's rows move to the child their code falls in;
* the local finish (:meth:`Source.finish`), once no group is live.

:class:`MemorySource` is the source of a pandas table (and of a Dask worker's share of whole
groups); the Dask engine's source aggregates the same entries on its workers.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import pandas as pd

from .rules import SparseGroups

__all__ = ["Source", "LevelCandidates", "level_candidates", "row_entries", "narrow",
           "distinct_rows", "lexicographic_ids", "positions_of_rows", "root_group",
           "children_of", "MemorySource"]


class Source(Protocol):
    """The protocol of a search's data (see the module docstring)."""

    n_rows: int

    @property
    def n_parts(self) -> int:
        """The number of live groups at the current level."""

    @property
    def sizes(self) -> np.ndarray:
        """Their sizes (once the level's candidates are built)."""

    def root(self) -> SparseGroups: ...

    def candidates(self, need_counts: bool) -> dict: ...

    def decided(self, cands: dict, chosen: np.ndarray) -> np.ndarray: ...

    def advance(self, final_id: np.ndarray, new_base: np.ndarray) -> None: ...

    def finish(self) -> int: ...


class LevelCandidates:
    """One BFS level's split candidates, gathered a batch at a time (an attribute's, in
    :func:`level_candidates`; a Dask worker's, for the client).

    Children are numbered globally in the order they are added, so the (child, value, count)
    nonzeros of a batch are shifted by the children added before it.
    """

    def __init__(self) -> None:
        self.batches: list = []  # (group, attribute, number of children, width) per batch
        self.sizes: list = []
        self.child_widths: list = []
        self.nonzeros: list = []
        self.n_before = 0  # children added so far

    def add(self, part: np.ndarray, attr: np.ndarray, n_children: np.ndarray,
            width: np.ndarray, child_sizes: np.ndarray, counts: tuple | None,
            child_width: np.ndarray | None = None) -> None:
        """Append candidates (their group, attribute, number of children and width) and
        their children; ``counts`` is the children's (child, value, count) nonzeros with
        children numbered from 0 (None when not needed); ``child_width`` each child's
        normalized width on the split attribute (zeros when not given)."""
        self.batches.append((part, attr, n_children, width))
        self.sizes.append(child_sizes)
        self.child_widths.append(np.zeros(len(child_sizes)) if child_width is None
                                 else child_width)
        if counts is not None:
            g, v, c = counts
            self.nonzeros.append((g + self.n_before, v, c))
        self.n_before += len(child_sizes)

    def arrays(self, need_counts: bool, **extra) -> dict:
        """The candidates as arrays (``{"n": 0}`` when no attribute splits), then ``extra``."""
        if not self.batches:
            return {"n": 0, **extra}
        part, attr, n_children, width = (np.concatenate(x) for x in zip(*self.batches))
        child_sizes = np.concatenate(self.sizes)
        children = None
        if need_counts:
            children = SparseGroups(child_sizes,
                                    *(np.concatenate(x) for x in zip(*self.nonzeros)))
        return {"n": len(n_children), "part": part, "attr": attr, "n_children": n_children,
                "first_child": np.cumsum(n_children) - n_children, "width": width,
                "sizes": child_sizes, "children": children,
                "child_width": np.concatenate(self.child_widths), **extra}


def level_candidates(attrs: list, entries: list, n_parts: int, n_values: int,
                     need_counts: bool) -> dict:
    """Candidate splits of every group of a level, from per-group aggregates.

    ``entries[a]`` is attribute a's ``(part, code, count, items)``: the distinct (group,
    code) pairs of the level's rows sorted by group then code, how many rows hold each, and a
    function giving the level's sensitive elements as ``(entry, value, weight)`` (the entry of
    each element's row, its value position, how many elements it stands for, or None for one
    each).  Returns arrays over candidates (one per group and splittable attribute): group,
    attribute, first child, number of children, width; over children: size and (child,
    sensitive value) counts (:class:`SparseGroups`, when ``need_counts``); and per attribute
    ``child_of_entry``, the child of every entry within its candidate."""
    found = LevelCandidates()
    child_of_entry = {}
    for a, attr in enumerate(attrs):
        part, code, count, items = entries[a]
        starts = np.searchsorted(part, np.arange(n_parts + 1))
        lo, hi = code[starts[:-1]], code[starts[1:] - 1]
        has = hi > lo
        if not has.any():
            continue
        child, n_children, width = attr.split(part, code, count, starts, lo, hi)
        # the splittable groups, each one's first child within the attribute, their children
        splittable = np.flatnonzero(has)
        base = np.zeros(n_parts, dtype=np.int64)
        base[splittable] = np.cumsum(n_children[splittable]) - n_children[splittable]
        total = int(n_children[splittable].sum())
        keep = has[part]
        counts = None
        if need_counts:  # (child, value, count) nonzeros: never O(children x values)
            entry, value, weight = items()
            mine = keep[entry]
            entry = entry[mine]
            (g, v), c = distinct_rows([base[part[entry]] + child[entry], value[mine]],
                                      [total, n_values], None if weight is None else weight[mine])
            counts = (g, v, c)
        child_of_entry[a] = np.where(keep, child, -1)
        child_id = base[part[keep]] + child[keep]
        child_sizes = np.bincount(child_id, weights=count[keep],
                                  minlength=total).astype(np.int64)
        # each child's extent on the attribute (codes ascend within a group)
        child_lo = np.zeros(total, dtype=np.int64)
        child_hi = np.zeros(total, dtype=np.int64)
        child_lo[child_id[::-1]] = code[keep][::-1]
        child_hi[child_id] = code[keep]
        found.add(splittable, np.full(len(splittable), a, dtype=np.int64),
                  n_children[splittable], width[splittable], child_sizes, counts,
                  attr.extent(child_lo, child_hi))
    return found.arrays(need_counts, child_of_entry=child_of_entry)


def row_entries(part_of: np.ndarray, codes: np.ndarray, n_parts: int, n_codes: int):
    """The (group, code, count) entries of rows (group ``part_of``, codes below
    ``n_codes``) and the entry of every row."""
    columns, cards = [part_of, codes], [n_parts, n_codes]
    (part, code), count, where = distinct_rows(columns, cards, inverse=True)
    return part, code, count, where


def narrow(array: np.ndarray, card: int) -> np.ndarray:
    """``array`` (codes 0..card-1, or counts below ``card``) in the smallest signed integer
    type that holds them: scans of many partitions keep their code columns at a byte or two
    per entry instead of eight."""
    for dtype in (np.int8, np.int16, np.int32):
        if card <= np.iinfo(dtype).max:
            return array.astype(dtype, copy=False)
    return array.astype(np.int64, copy=False)


def distinct_rows(columns: list, cards: list, weights: np.ndarray | None = None, *,
                  compact: bool = False, inverse: bool = False):
    """Distinct rows of integer code columns (``cards[i]`` codes in column i), sorted
    lexicographically, and the summed weights (row counts when ``weights`` is None).

    Rows are packed into one int64 key when the codes fit (summed by a table of every key
    when that table is small, else by one sort: about 24 bytes per row at the peak), else
    grouped by pandas.  With ``compact`` the code columns and the sums come back in the
    narrowest integer types that hold them (see :func:`narrow`); callers doing arithmetic
    on them must widen first.  With ``inverse`` (row counts only) a third array gives the
    position of every input row among the distinct rows, read off the same table or sort
    (no second search)."""
    n = len(columns[0]) if columns else 0
    if inverse and weights is not None:
        raise ValueError("distinct_rows: inverse positions are for row counts, not weights")
    counting = weights is None
    if not n:
        empty = [np.zeros(0, dtype=np.int64) for _ in columns], np.zeros(0, dtype=np.int64)
        return (*empty, np.zeros(0, dtype=np.int64)) if inverse else empty
    total = 1
    for card in cards:
        total *= max(int(card), 1)
    if total < 2 ** 62:
        packed = np.zeros(n, dtype=np.int64)
        for column, card in zip(columns, cards):
            packed *= max(int(card), 1)
            packed += column
        where = None
        if total <= max(4 * n, 1 << 16):  # a table of every key: no sort
            summed = np.bincount(packed, weights=None if counting else weights,
                                 minlength=total)
            uniq = np.flatnonzero(summed)
            if inverse:  # rank of every key among the present ones
                rank = np.zeros(total, dtype=np.int64)
                rank[uniq] = np.arange(len(uniq), dtype=np.int64)
                where = rank[packed]
                del rank
            del packed
            summed = summed[uniq].astype(np.int64)
        else:
            order = np.argsort(packed)
            packed = packed[order]
            if not counting:
                weights = np.asarray(weights, dtype=np.int64)[order]
            first = np.empty(n, dtype=bool)
            first[0] = True
            np.not_equal(packed[1:], packed[:-1], out=first[1:])
            starts = np.flatnonzero(first)
            if inverse:  # the sorted rows' running count of distinct keys, put back
                where = np.empty(n, dtype=np.int64)
                where[order] = np.cumsum(first) - 1
            del order, first
            summed = (np.diff(np.append(starts, n)) if counting
                      else np.add.reduceat(np.asarray(weights), starts))
            uniq = packed[starts]
            del packed, weights
        digits = []
        for card in reversed(cards):
            uniq, digit = np.divmod(uniq, max(int(card), 1))
            digits.append(narrow(digit, card) if compact else digit)
        if compact:
            summed = narrow(summed, int(summed.max()) + 1)
        return (digits[::-1], summed, where) if inverse else (digits[::-1], summed)
    if inverse:  # codes too wide to pack: pandas groups, then finds every row
        rows, summed = distinct_rows(columns, cards, compact=compact)
        return rows, summed, positions_of_rows(columns, rows, cards)
    frame = pd.DataFrame({i: c for i, c in enumerate(columns)})
    frame["__w"] = np.ones(n, dtype=np.int64) if counting else weights
    grouped = frame.groupby(list(range(len(columns))), sort=True)["__w"].sum()
    index = grouped.index
    if len(columns) == 1:
        return [np.asarray(index, dtype=np.int64)], grouped.to_numpy(dtype=np.int64)
    return ([np.asarray(index.get_level_values(i), dtype=np.int64)
             for i in range(len(columns))], grouped.to_numpy(dtype=np.int64))


def lexicographic_ids(columns: list, cards: list) -> tuple[np.ndarray, list]:
    """Ids 0..G-1 of the distinct rows of code columns in lexicographic order, for every row,
    and the distinct rows themselves (one array per column)."""
    rows, _, where = distinct_rows(columns, cards, inverse=True)  # sorted lexicographically
    return where, rows


def positions_of_rows(columns: list, rows: list, cards: list) -> np.ndarray:
    """Position of every row of ``columns`` among the sorted distinct ``rows``."""
    total = 1
    for card in cards:
        total *= max(int(card), 1)
    if total < 2 ** 62:
        def pack(cols):
            packed = np.zeros(len(cols[0]), dtype=np.int64)
            for column, card in zip(cols, cards):
                packed *= max(int(card), 1)
                packed += column
            return packed
        return np.searchsorted(pack(rows), pack(columns)).astype(np.int64)
    index = pd.MultiIndex.from_arrays(rows)
    return np.asarray(index.get_indexer(pd.MultiIndex.from_arrays(columns)), dtype=np.int64)


def root_group(n_rows: int, totals: np.ndarray) -> SparseGroups:
    """The whole table as one group of ``n_rows`` individuals holding every value ``totals``
    times (the start of Fig. 4)."""
    value = np.flatnonzero(totals)
    return SparseGroups(np.array([n_rows]), np.zeros(len(value), dtype=np.int64), value,
                        totals[value])


def children_of(cands: dict, chosen: np.ndarray) -> np.ndarray:
    """The number of children of every group given the candidate chosen for it (-1: none,
    the group is final)."""
    n_children = np.zeros(len(chosen), dtype=np.int64)
    split = chosen >= 0
    if split.any():
        n_children[split] = cands["n_children"][chosen[split]]
    return n_children


class MemorySource:
    """The rows of a search in memory: QI codes (rows x QIs, from the encoders ``attrs``), the
    (row, value position) of every sensitive element, the distinct values, and the level's
    groups: ``rows`` grouped
    by group (boundaries ``starts``, group ids ``parts``).  By default one group of every row
    (the whole table); a Dask worker starts from its share of whole groups."""

    def __init__(self, attrs: list, code_matrix: np.ndarray, elem_row: np.ndarray,
                 elem_val: np.ndarray, values: list, semantics: str, rows=None, starts=None,
                 parts=None):
        self.attrs = list(attrs)
        self.code_matrix = code_matrix
        self.n_rows = len(code_matrix)
        self.values = values
        self.n_values = len(values)
        self.semantics = semantics
        order = np.argsort(elem_row, kind="stable")
        self.elem_row, self.elem_val = elem_row[order], elem_val[order]
        self.rows = np.arange(self.n_rows, dtype=np.int64) if rows is None else rows
        self.starts = (np.array([0, self.n_rows], dtype=np.int64) if starts is None
                       else starts)
        self.parts = np.arange(len(self.starts) - 1) if parts is None else parts
        self.final = np.full(self.n_rows, -1, dtype=np.int64)  # final group of every row
        self.cands: dict = {"n": 0}
        self.chosen = np.zeros(0, dtype=np.int64)

    @property
    def n_parts(self) -> int:
        return len(self.starts) - 1

    @property
    def sizes(self) -> np.ndarray:
        return np.diff(self.starts)

    def root(self) -> SparseGroups:
        """The whole table as one group, sparse."""
        return root_group(self.n_rows, np.bincount(self.elem_val, minlength=self.n_values))

    def candidates(self, need_counts: bool) -> dict:
        """The level's candidates (:func:`level_candidates` from the rows), with
        ``row_child``, the child of every row per attribute (-1: not split on it)."""
        rows, starts = self.rows, self.starts
        part_of = np.repeat(np.arange(self.n_parts), np.diff(starts))
        block = self.code_matrix[rows]  # narrow codes: the packing widens them
        by_row = [row_entries(part_of, block[:, a], self.n_parts, int(block[:, a].max()) + 1)
                  for a in range(len(self.attrs))]

        def items(a: int):
            """The level's elements: the entry of each one's row, its value."""
            entry = by_row[a][3]
            if self.semantics == "svpi":
                return entry, self.elem_val[rows], None
            position = np.full(self.n_rows, -1, dtype=np.int64)
            position[rows] = np.arange(len(rows))
            at = position[self.elem_row]
            mine = at >= 0
            return entry[at[mine]], self.elem_val[mine], None

        entries = [(part, code, count, lambda a=a: items(a))
                   for a, (part, code, count, _) in enumerate(by_row)]
        cands = level_candidates(self.attrs, entries, self.n_parts, self.n_values,
                                 need_counts)
        widest = max((int(child.max()) for child in cands["child_of_entry"].values()
                      if len(child)), default=0)
        row_child = np.full((len(self.attrs), len(rows)), -1, dtype=narrow(
            np.zeros(0, dtype=np.int64), widest + 1).dtype)
        for a, child in cands["child_of_entry"].items():
            row_child[a] = child[by_row[a][3]]
        cands["row_child"] = row_child
        del cands["child_of_entry"]
        cands["part_rows"] = np.diff(starts)
        self.cands = cands
        return cands

    def decided(self, cands: dict, chosen: np.ndarray) -> np.ndarray:
        """The number of children of every group (0: it is final) from the level's choices."""
        self.chosen = chosen
        return children_of(cands, chosen)

    def advance(self, final_id: np.ndarray, new_base: np.ndarray) -> None:
        """Finish the groups with a final id, move the rows of the others to the child they
        fall in (group ``new_base`` + child)."""
        chosen, cands, rows = self.chosen, self.cands, self.rows
        part_of = np.repeat(np.arange(self.n_parts), np.diff(self.starts))
        done = chosen[part_of] < 0
        self.final[rows[done]] = final_id[part_of[done]]
        live = np.flatnonzero(~done)
        if not len(live):
            self.rows = rows[:0]
            self.starts, self.parts = np.zeros(1, dtype=np.int64), self.parts[:0]
            return
        child = cands["row_child"][cands["attr"][chosen[part_of[live]]], live]
        new_part = new_base[part_of[live]] + child.astype(np.int64)
        key = new_part.astype(np.int32) if new_part.max() < 2**31 else new_part
        order = np.argsort(key, kind="stable")
        self.rows = rows[live][order]
        self.parts, starts = np.unique(new_part[order], return_index=True)
        self.starts = np.append(starts, len(order)).astype(np.int64)
        self.cands = {"n": 0}

    def finish(self) -> int:
        """Nothing is left once no group is live: no split is made after the levels."""
        return 0
