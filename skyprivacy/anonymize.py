"""SkylineAnonymize: Mondrian-style greedy partitioning that stays safe (Sect. 6.2, Fig. 4).

Starting from the whole table as one QI-group, each group is split along a quasi-identifier as
long as the release stays safe for every (value, point) of the policy.  Safety of a candidate
split is decided from the *global* sufficient statistics SS1..SS5 (minima over every group ever
queued, as in Fig. 4) updated with the children's terms, so the rest of the table is never looked
at again.  Candidate splits are evaluated from (QI value, sensitive value, count) aggregates of
the group, not by re-sorting its rows: numeric QIs split at the (weighted) median value boundary,
hierarchical QIs into the children of the lowest hierarchy node covering the group's values.
In svpi the result is minimal (Theorem 4): no group can be split by any candidate split.

The released table is then built (generalized or bucketized) and certified by an independent
:func:`skyprivacy.skyline_check` of exactly what is released.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

import numpy as np
import pandas as pd

from ._text import confidence_text, percent_text
from .check import SkylineCheckResult, skyline_check
from .errors import (
    InfeasibleError,
    InvalidParameterError,
    SchemaError,
    UnusedPolicyValueWarning,
    param_error,
)
from .formulas import (
    SortedRows,
    cap_amounts,
    combine,
    exact_min,
    exact_terms,
    holder_terms,
    log_threshold,
    within_tolerance,
)
from .knowledge import Policy
from .qi import _NumericQI, _SetQI, _TreeQI, qi_kinds
from .release import (
    ReleaseCandidate,
    _factorize,
    _pair_counts,
    check_qi_and_sensitive,
    check_semantics,
    list_like_cells,
    require_columns,
)

__all__ = ["skyline_anonymize", "AnonymizationResult", "k_anonymize", "KAnonymizationResult",
           "splittable_groups"]

_SPLITS = ("infogain", "widest")
_OUTPUTS = ("generalized", "bucketized")
_LIST_LIKE = (list, tuple, set, frozenset, np.ndarray)
INF = math.inf


# --------------------------------------------------------------------------- policy plan
@dataclass
class _Plan:
    """The policy as flat *cells*: one per (sensitive value, knowledge (l, k, m)) it
    constrains, with the strictest c of that value's skyline at that knowledge.  Cells are
    sorted by value; the cells of value j are ``cell_ptr[j]:cell_ptr[j+1]``."""

    value: np.ndarray  # position of the cell's value in the engine's values
    l: np.ndarray  # amounts capped as in formulas.cap_amounts
    k: np.ndarray
    m: np.ndarray
    c_exact: list  # Fraction per cell
    log_theta: np.ndarray  # safe iff log NR > log(1/c - 1); -inf when c = 1
    points: list  # the SkylinePoint of each cell
    cell_ptr: np.ndarray

    @classmethod
    def build(cls, policy: Policy | None, values: Sequence, n_individuals: int) -> _Plan:
        cells: dict = {}
        for j, value in enumerate(values if policy is not None else ()):
            skyline = policy.skyline_for(value)
            if skyline is None:
                continue
            for point in skyline:
                key = (j, point.knowledge)
                if key not in cells or point.c_exact < cells[key].c_exact:
                    cells[key] = point
        keys = sorted(cells)
        points = [cells[key] for key in keys]
        capped = [cap_amounts(len(values), n_individuals, p.l, p.k, p.m) for p in points]
        as_int = lambda xs: np.array(xs, dtype=np.int64)  # noqa: E731
        value = as_int([j for j, _ in keys])
        cell_ptr = np.concatenate([[0], np.cumsum(np.bincount(value, minlength=len(values)))])
        return cls(value, as_int([c[0] for c in capped]), as_int([c[1] for c in capped]),
                   as_int([c[2] for c in capped]), [p.c_exact for p in points],
                   np.array([log_threshold(p.c_exact) for p in points], dtype=float), points,
                   cell_ptr.astype(np.int64))

    def __len__(self) -> int:
        return len(self.points)


def _expand(starts: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Concatenated ranges [starts[i], starts[i] + lengths[i]): (positions, owner i)."""
    total = int(lengths.sum())
    owner = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    offset = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    return starts[owner] + np.arange(total, dtype=np.int64) - offset[owner], owner


class _Groups:
    """Groups as sparse rows: sizes and (group, value, count) nonzeros sorted by group, then
    count descending, with the :class:`~skyprivacy.formulas.SortedRows` the closed forms read."""

    def __init__(self, sizes, group, value, count, *, presorted: bool = False):
        self.sizes = np.asarray(sizes, dtype=np.int64)
        if not presorted:
            order = np.lexsort((value, -count, group))
            group, value, count = group[order], value[order], count[order]
        self.group, self.value, self.count = group, value, count

    @cached_property
    def rows(self) -> SortedRows:
        indptr = np.concatenate([[0], np.cumsum(np.bincount(self.group,
                                                            minlength=len(self.sizes)))])
        return SortedRows(self.sizes, indptr.astype(np.int64), self.count)

    def holders(self, j: int, since: int = 0) -> np.ndarray:
        """Entries of value ``j`` in groups numbered ``since`` or later, in group order."""
        if not hasattr(self, "_by_value"):
            order = np.argsort(self.value, kind="stable")  # within a value: group order
            self._by_value = (order, self.value[order])
        order, sorted_values = self._by_value
        lo, hi = np.searchsorted(sorted_values, [j, j + 1])
        idx = order[lo:hi]
        if since > 0:
            idx = idx[np.searchsorted(self.group[idx], since):]
        return idx


class _QStore:
    """Every group queued so far (Q of Fig. 4: the root and every accepted child), kept for
    the exact decisions near a threshold.  Groups are numbered in queue order; recent parts
    are merged once there are many, so finding a value's holders stays cheap."""

    def __init__(self, first: _Groups):
        self.parts: list = []  # (offset, _Groups)
        self.n_groups = 0
        self.add(first)

    def add(self, groups: _Groups) -> None:
        self.parts.append((self.n_groups, groups))
        self.n_groups += len(groups.sizes)
        if len(self.parts) > 32:
            self._merge()

    def _merge(self) -> None:
        merged = _Groups(np.concatenate([g.sizes for _, g in self.parts]),
                         np.concatenate([g.group + o for o, g in self.parts]),
                         np.concatenate([g.value for _, g in self.parts]),
                         np.concatenate([g.count for _, g in self.parts]), presorted=True)
        self.parts = [(0, merged)]

    def holders_since(self, j: int, since: int):
        """(groups, entries) of value ``j`` over the groups numbered ``since`` or later."""
        for offset, groups in self.parts:
            if offset + len(groups.sizes) > since:
                idx = groups.holders(j, max(since - offset, 0))
                if len(idx):
                    yield groups, idx


# --------------------------------------------------------------------------- result
@dataclass(frozen=True)
class AnonymizationResult:
    """Result of :func:`skyline_anonymize`.

    Attributes
    ----------
    table : pandas.DataFrame
        The released table (same index and row order as the input).
    candidate : ReleaseCandidate
        The release candidate of ``table``, rebuilt from the released table itself.
    certificate : SkylineCheckResult
        ``skyline_check(candidate, policy)``, computed independently of the search.
    assignment : pandas.Series
        The QI-group id (0..B-1) of every input row, aligned with the input index.
    groups : pandas.DataFrame
        One row per QI-group: its generalized QI values and size.
    """

    table: pd.DataFrame
    candidate: ReleaseCandidate
    certificate: SkylineCheckResult
    assignment: pd.Series
    groups: pd.DataFrame
    qi: tuple
    sensitive: str
    semantics: str
    output: str
    split: str
    n_splits: int
    n_candidates_evaluated: int
    group_column: str | None = None
    _engine: object = field(default=None, repr=False, compare=False)

    @property
    def safe(self) -> bool:
        """The certificate's verdict."""
        return self.certificate.safe

    @property
    def average_group_size(self) -> float:
        """Average QI-group size (Sect. 8.4)."""
        return float(self.candidate.n_individuals / self.candidate.n_groups)

    def to_frame(self) -> pd.DataFrame:
        """The per-group summary (same as :attr:`groups`)."""
        return self.groups.copy()

    def to_dict(self) -> dict:
        """A JSON-friendly summary (no table)."""
        return {"qi": list(self.qi), "sensitive": self.sensitive, "semantics": self.semantics,
                "output": self.output, "split": self.split, "n_groups": self.candidate.n_groups,
                "average_group_size": self.average_group_size, "n_splits": self.n_splits,
                "safe": self.safe, "certificate": self.certificate.to_dict()}


# --------------------------------------------------------------------------- engine
class _Mondrian:
    """Top-down greedy partitioning (Fig. 4). ``min_size`` switches the safety rule to plain
    k-anonymity (every group at least that large), for the k-anonymity baseline."""

    def __init__(self, table, qi, sensitive, policy, hierarchies, semantics, split,
                 min_size=None, progress=None, kinds=None):
        self.n_rows = len(table)
        cells = table[sensitive]
        if semantics == "svpi":
            if list_like_cells(cells).any():
                raise SchemaError(
                    f"Column {sensitive!r} holds list-like cells; svpi allows exactly one "
                    f"sensitive value per individual (use semantics='mvpi-set' or "
                    f"'mvpi-multiset').")
            value_codes, values = _factorize(cells)
            self.elem_row = np.arange(self.n_rows, dtype=np.int64)
            self.elem_val = value_codes
        else:
            elements = [list(v) if isinstance(v, _LIST_LIKE) else [v] for v in cells.tolist()]
            lengths = np.array([len(e) for e in elements], dtype=np.int64)
            flat = pd.Series([x for e in elements for x in e], dtype=object)
            if flat.isna().any():
                raise SchemaError(f"Column {sensitive!r} has {int(flat.isna().sum())} missing "
                                  f"value(s) inside list cells; clean the table.")
            value_codes, values = _factorize(flat)
            self.elem_row = np.repeat(np.arange(self.n_rows, dtype=np.int64), lengths)
            self.elem_val = value_codes
            if semantics == "mvpi-set" and len(values):
                pair = self.elem_row * len(values) + self.elem_val
                if len(np.unique(pair)) != len(pair):
                    raise SchemaError(
                        f"Some individual holds a value of {sensitive!r} more than once; "
                        f"mvpi-set allows each value at most once per person (use "
                        f"semantics='mvpi-multiset').")
        attrs = []
        kinds = kinds or qi_kinds(table, list(qi), hierarchies or {})
        for name in qi:
            column = table[name]
            if kinds[name] == "tree":
                attrs.append(_TreeQI(name, column, hierarchies[name]))
            elif kinds[name] == "numeric":
                attrs.append(_NumericQI(name, column))
            else:
                attrs.append(_SetQI(name, column))
        self._setup(qi, attrs, np.column_stack([attr.codes for attr in attrs]), self.elem_row,
                    self.elem_val, values, _Plan.build(policy, values, self.n_rows),
                    semantics, split, min_size, progress)

    @classmethod
    def from_codes(cls, qi, attrs, code_matrix, elem_row, elem_val, values, plan, semantics,
                   split, min_size=None, progress=None) -> _Mondrian:
        """An engine over rows already coded by ``attrs`` (encoders built elsewhere, e.g. from
        the distinct values of a partitioned table): ``code_matrix`` (rows x QIs) and the
        (row, value position) of every sensitive element, in any integer types wide enough
        for the encoders' arithmetic (codes below 2**14 fit int16)."""
        engine = cls.__new__(cls)
        engine.n_rows = len(code_matrix)
        engine._setup(qi, attrs, code_matrix, np.asarray(elem_row), np.asarray(elem_val),
                      values, plan, semantics, split, min_size, progress)
        return engine

    def _setup(self, qi, attrs, code_matrix, elem_row, elem_val, values, plan, semantics,
               split, min_size, progress) -> None:
        self.qi = list(qi)
        self.min_size = min_size
        self.progress = progress
        self.semantics = semantics
        self.split = split
        self.values = values
        self.n_values = len(values)
        order = np.argsort(elem_row, kind="stable")
        self.elem_row, self.elem_val = elem_row[order], elem_val[order]
        self.attrs = list(attrs)
        self.code_matrix = code_matrix
        self.plan = plan
        self._exact_memo: dict = {}
        self.n_candidates = 0

    # -- aggregates
    def level_candidates(self, rows: np.ndarray, starts: np.ndarray, *,
                         need_counts: bool = True) -> dict:
        """Candidate splits of every group of a BFS level, from per-partition aggregates.

        ``rows`` holds the level's rows grouped by partition (boundaries ``starts``). Returns
        arrays over candidates (one per partition and splittable attribute): partition,
        attribute, first child, number of children, width; over children: size and (child,
        sensitive value) counts; and per attribute the child of every row."""
        n_parts = len(starts) - 1
        part_of = np.repeat(np.arange(n_parts), np.diff(starts))
        block = self.code_matrix[rows]
        lows = np.minimum.reduceat(block, starts[:-1], axis=0)
        highs = np.maximum.reduceat(block, starts[:-1], axis=0)
        if self.semantics != "svpi":
            position = np.full(self.n_rows, -1, dtype=np.int64)
            position[rows] = np.arange(len(rows))
            elem_mask = position[self.elem_row] >= 0
            elem_pos = position[self.elem_row[elem_mask]]
            elem_val = self.elem_val[elem_mask]
        cand_part, cand_attr, cand_n, cand_width, sizes, nonzeros = [], [], [], [], [], []
        n_before = 0
        row_child = np.full((len(self.attrs), len(rows)), -1, dtype=np.int64)
        for a, attr in enumerate(self.attrs):
            lo, hi = lows[:, a], highs[:, a]
            has = hi > lo
            if not has.any():
                continue
            child, n_children, width = attr.level_split(block[:, a], part_of, starts, lo, hi)
            row_child[a] = np.where(has[part_of], child, -1)
            splittable = np.flatnonzero(has)
            base = np.zeros(n_parts, dtype=np.int64)
            base[splittable] = np.cumsum(n_children[splittable]) - n_children[splittable]
            total = int(n_children[splittable].sum())
            keep = has[part_of]
            global_child = base[part_of[keep]] + child[keep]
            sizes.append(np.bincount(global_child, minlength=total))
            if need_counts:  # (child, value, count) nonzeros: O(rows), never O(children x V)
                if self.semantics == "svpi":
                    ec, ev = global_child, self.elem_val[rows[keep]]
                else:
                    child_of_pos = np.full(len(rows), -1, dtype=np.int64)
                    child_of_pos[keep] = global_child
                    ec = child_of_pos[elem_pos]
                    ec, ev = ec[ec >= 0], elem_val[ec >= 0]
                g, v, c = _pair_counts(ec, ev, total, self.n_values)
                nonzeros.append((g + n_before, v, c))
            n_before += total
            cand_part.append(splittable)
            cand_attr.append(np.full(len(splittable), a, dtype=np.int64))
            cand_n.append(n_children[splittable])
            cand_width.append(width[splittable])
        if not cand_part:
            return {"n": 0}
        cand_n = np.concatenate(cand_n)
        sizes = np.concatenate(sizes)
        children = None
        if need_counts:
            children = _Groups(sizes, *(np.concatenate(x) for x in zip(*nonzeros)))
        return {
            "n": len(cand_n),
            "part": np.concatenate(cand_part),
            "attr": np.concatenate(cand_attr),
            "n_children": cand_n,
            "first_child": np.cumsum(cand_n) - cand_n,
            "width": np.concatenate(cand_width),
            "sizes": sizes,
            "children": children,
            "row_child": row_child,
            "part_of": part_of,
        }

    def _priority_keys(self, cands: dict) -> np.ndarray:
        """Smaller is better: minus the information gain w.r.t. the sensitive attribute
        (LeFevre et al. 2006), or minus the normalized width (Mondrian)."""
        if self.split == "widest" or cands["children"] is None:
            return -cands["width"]
        kids = cands["children"]
        first = cands["first_child"]
        n_kids = len(kids.sizes)
        total = np.bincount(kids.group, weights=kids.count, minlength=n_kids)
        child_h = _entropy_sum(kids.group, kids.count, total, n_kids) * total
        parent_n = np.add.reduceat(total, first)
        # the parent's counts are the sum of its children's (any candidate of the partition)
        owner = np.repeat(np.arange(len(first)), cands["n_children"])[kids.group]
        key = owner * max(self.n_values, 1) + kids.value
        uniq, inverse = np.unique(key, return_inverse=True)
        parent_count = np.bincount(inverse.reshape(-1), weights=kids.count)
        parent_of = uniq // max(self.n_values, 1)
        parent_h = _entropy_sum(parent_of, parent_count, parent_n, len(first))
        gain = parent_h * parent_n - np.add.reduceat(child_h, first)
        return -gain / np.maximum(parent_n, 1)

    def _ordered(self, cands: dict) -> np.ndarray:
        """Candidates sorted by partition, then priority, then attribute (ties)."""
        keys = np.round(self._priority_keys(cands), 12)
        return np.lexsort((cands["attr"], keys, cands["part"]))

    def _level_terms(self, cands: dict) -> dict:
        """The children's terms for the policy cells of the values they hold, reduced to one
        *combo* per (candidate, cell): the five minima over the candidate's children and
        whether one of them pins the target.  Cost: O(children's nonzeros x cells per value).
        Cells a candidate's children do not hold keep the global statistics (rule 1)."""
        kids = cands["children"]
        plan = self.plan
        lo = plan.cell_ptr[kids.value]
        # one pair per (child nonzero e, cell of its value)
        cell, e = _expand(lo, plan.cell_ptr[kids.value + 1] - lo)
        terms = holder_terms(kids.rows, e, l=plan.l[cell], k=plan.k[cell], m=plan.m[cell],
                             semantics=self.semantics)
        n = kids.sizes[kids.group[e]]
        pinned = n <= plan.k[cell] + plan.m[cell]
        cand_of_child = np.repeat(np.arange(cands["n"]), cands["n_children"])
        key = cand_of_child[kids.group[e]] * len(plan) + cell
        order = np.argsort(key, kind="stable")
        key = key[order]
        starts = np.flatnonzero(np.concatenate([[True], key[1:] != key[:-1]])) \
            if len(key) else np.zeros(0, dtype=np.int64)
        mins = np.stack([np.minimum.reduceat(t[order], starts) if len(starts) else t[:0]
                         for t in terms.as_tuple()])
        combo_cand = key[starts] // max(len(plan), 1)
        return {"cand": combo_cand, "cell": key[starts] % max(len(plan), 1), "mins": mins,
                "pinned": (np.maximum.reduceat(pinned[order].astype(np.int8), starts) > 0
                           if len(starts) else np.zeros(0, dtype=bool)),
                "ptr": np.searchsorted(combo_cand, np.arange(cands["n"] + 1))}

    def run(self):
        """Greedy top-down partitioning, one BFS level at a time.

        Candidate splits and their children's terms are computed for the whole level at
        once; accepting them stays sequential in queue order (exactly Fig. 4's FIFO), since
        each accepted split lowers the global statistics the next one is judged against. A
        candidate unsafe against the level's starting statistics stays unsafe (they only
        decrease) and is dropped without a second look."""
        n = self.n_rows
        if self.min_size is None:
            self.start_statistics(self.root_groups(), n)
        splitting = (len(self.plan) > 0) or self.min_size is not None
        if self.min_size is not None and n < self.min_size:
            splitting = False
        final_of_row, n_final, n_splits = self.levels(
            np.arange(n, dtype=np.int64), np.array([0, n], dtype=np.int64), splitting)
        # groups numbered by their first row
        first_row = np.full(n_final, n, dtype=np.int64)
        np.minimum.at(first_row, final_of_row, np.arange(n))
        renumber = np.empty(n_final, dtype=np.int64)
        renumber[np.argsort(first_row, kind="stable")] = np.arange(n_final)
        return renumber[final_of_row], n_splits

    def start_statistics(self, root: _Groups, n: int) -> None:
        """The global statistics of Fig. 4 for the whole table as one group (``root``, of
        ``n`` individuals): SS1..SS5 per policy cell, pinned cells, and Q = {root}."""
        plan = self.plan
        # every value occurs in the root: cell i's holder is the root's entry of its value
        entry = np.full(self.n_values, -1, dtype=np.int64)
        entry[root.value] = np.arange(len(root.value))
        e = entry[plan.value]
        terms = holder_terms(root.rows, e, l=plan.l, k=plan.k, m=plan.m,
                             semantics=self.semantics)
        self.ss = np.stack(terms.as_tuple())  # (5, N): minima over every group queued (Q)
        self.pinned = n <= plan.k + plan.m
        self.queue = _QStore(root)
        self.exact_ss: dict = {}  # cell -> (groups of Q covered, five exact minima)

    def choose_by_size(self, cands: dict, order: np.ndarray, chosen: np.ndarray) -> None:
        """k-anonymity's rule: per partition, the first candidate in priority order whose
        children all hold at least ``min_size`` individuals."""
        small = np.minimum.reduceat(cands["sizes"], cands["first_child"])
        viable = order[small[order] >= self.min_size]
        # first viable candidate of each partition, in priority order
        parts = cands["part"][viable]
        first = np.unique(parts, return_index=True)[1]
        chosen[parts[first]] = viable[first]
        self.n_candidates += cands["n"]

    def levels(self, rows: np.ndarray, starts: np.ndarray, splitting: bool = True):
        """The BFS loop from the partitions ``rows`` (grouped, boundaries ``starts``).

        Returns the final group of every row (numbered in the order groups are finished), the
        number of groups and the number of accepted splits."""
        n = self.n_rows
        final_of_row = np.full(n, -1, dtype=np.int64)
        n_final = 0
        n_splits = 0
        outside = n - len(rows)  # rows that are not in this search
        self.placed = outside
        while len(rows):
            n_parts = len(starts) - 1
            chosen = np.full(n_parts, -1, dtype=np.int64)
            cands = self.level_candidates(rows, starts, need_counts=self.min_size is None) \
                if splitting else {"n": 0}
            if cands["n"]:
                order = self._ordered(cands)
                if self.min_size is not None:
                    self.choose_by_size(cands, order, chosen)
                else:
                    self._accept_level(cands, order, chosen)
            accepted = np.flatnonzero(chosen >= 0)
            n_splits += len(accepted)
            part_of = cands.get("part_of", np.repeat(np.arange(n_parts), np.diff(starts)))
            # finalize the partitions that did not split
            done = chosen[part_of] < 0
            if done.any():
                finished_parts = np.flatnonzero(chosen < 0)
                final_id = np.full(n_parts, -1, dtype=np.int64)
                final_id[finished_parts] = n_final + np.arange(len(finished_parts))
                final_of_row[rows[done]] = final_id[part_of[done]]
                n_final += len(finished_parts)
            self.placed = outside + int((final_of_row >= 0).sum())
            self._report(self.placed)
            if not len(accepted):
                break
            # next level: children numbered partition by partition, in child order
            c_of_part = chosen[accepted]
            n_kids = cands["n_children"][c_of_part]
            new_base = np.full(n_parts, -1, dtype=np.int64)
            new_base[accepted] = np.cumsum(n_kids) - n_kids
            live = ~done
            attr_of_row = cands["attr"][chosen[part_of[live]]]
            local = cands["row_child"][attr_of_row, np.flatnonzero(live)]
            new_part = new_base[part_of[live]] + local
            key = new_part.astype(np.int32) if n_kids.sum() < 2**31 else new_part
            order = np.argsort(key, kind="stable")
            rows = rows[live][order]
            starts = np.concatenate([[0], np.cumsum(np.bincount(new_part,
                                                                minlength=int(n_kids.sum())))])
        return final_of_row, n_final, n_splits

    def _report(self, placed: int) -> None:
        """Progress: the fraction of rows placed in a final group (at least per level and
        per 5% of rows)."""
        if self.progress is not None:
            self.progress(placed / max(self.n_rows, 1))

    def root_groups(self) -> _Groups:
        """The whole table as one group, sparse."""
        totals = np.bincount(self.elem_val, minlength=self.n_values)
        value = np.flatnonzero(totals)
        return _Groups(np.array([self.n_rows]), np.zeros(len(value), dtype=np.int64), value,
                       totals[value])

    def _classify(self, ss, pinned, cell):
        """Per combo: clearly unsafe, and too close to call in floating point; ``ss`` (5, X)
        are the statistics with the combo's children, for policy cells ``cell``."""
        log_nr = combine(*ss)
        theta = self.plan.log_theta[cell]
        finite = np.isfinite(theta)
        with np.errstate(invalid="ignore"):
            margin = log_nr - theta
        close = finite & np.isfinite(log_nr) & within_tolerance(log_nr, theta)
        # c = 1 (theta = -inf): safe iff NR > 0, i.e. log NR > -inf, which is exact
        unsafe = pinned | np.where(finite, (margin <= 0) & ~close, np.isneginf(log_nr))
        return unsafe, close & ~unsafe

    def _verdicts(self, combos: dict, lo: int, hi: int):
        """(unsafe, unsure) of combos lo:hi against the current global statistics; a combo
        that lowers no statistic keeps the global verdict, which is safe."""
        cell = combos["cell"][lo:hi]
        mins = combos["mins"][:, lo:hi]
        current = self.ss[:, cell]
        pinned = combos["pinned"][lo:hi]
        changed = (mins < current).any(axis=0) | pinned
        unsafe, unsure = self._classify(np.minimum(current, mins), pinned | self.pinned[cell],
                                        cell)
        return unsafe & changed, unsure & changed

    def _accept_level(self, cands: dict, order: np.ndarray, chosen: np.ndarray) -> None:
        """Sequential acceptance, in queue order, of the level's candidates.

        Every candidate is first judged against the level's starting statistics (unsafe then
        means unsafe for good: the statistics only decrease).  A survivor is re-judged when
        it is reached only if an accepted split has since lowered a statistic of a cell it
        touches; near-threshold cells are decided exactly."""
        combos = self._level_terms(cands)
        self.n_candidates += cands["n"]
        ptr = combos["ptr"]
        unsafe, unsure = self._verdicts(combos, 0, len(combos["cell"]))
        cand_of = combos["cand"]
        bad = np.zeros(cands["n"], dtype=bool)
        bad[cand_of[unsafe]] = True
        viable = order[~bad[order]]
        parts = cands["part"][viable]
        # progress: rows of partitions without a viable candidate are placed now
        has_viable = np.zeros(len(chosen), dtype=bool)
        has_viable[parts] = True
        part_rows = (cands["part_rows"] if "part_rows" in cands
                     else np.bincount(cands["part_of"], minlength=len(chosen)))
        placed = self.placed + int(part_rows[~has_viable].sum())
        self._report(placed)
        step = max(1, self.n_rows // 20)
        next_report = placed + step
        if not len(viable):
            return
        last_part = np.full(len(chosen), -1, dtype=np.int64)
        last_part[parts] = np.arange(len(viable))
        first, n_children = cands["first_child"], cands["n_children"]
        kids = cands["children"]
        lowered_at = np.zeros(len(self.plan), dtype=np.int64)  # accept step of last lowering
        judged_at = np.zeros(cands["n"], dtype=np.int64)
        version = 0
        self._pending = []
        for i, c in enumerate(viable.tolist()):
            p = int(parts[i])
            if chosen[p] >= 0:
                continue
            lo, hi = int(ptr[c]), int(ptr[c + 1])
            cells = combos["cell"][lo:hi]
            if version and lowered_at[cells].max(initial=0) > judged_at[c]:
                u, w = self._verdicts(combos, lo, hi)
                unsafe[lo:hi], unsure[lo:hi] = u, w
                judged_at[c] = version
            ok = not unsafe[lo:hi].any()
            if ok:
                close = cells[unsure[lo:hi]]
                if len(close):
                    self._flush_pending(kids)
                    ok = not any(self._exact_unsafe(int(cell), kids, int(first[c]),
                                                    int(n_children[c])) for cell in close)
            if ok:
                chosen[p] = c
                self._pending.append((int(first[c]), int(n_children[c])))
                mins = combos["mins"][:, lo:hi]
                lower = (mins < self.ss[:, cells]).any(axis=0) | combos["pinned"][lo:hi]
                if lower.any():
                    version += 1
                    touched = cells[lower]
                    self.ss[:, touched] = np.minimum(self.ss[:, touched], mins[:, lower])
                    self.pinned[touched] |= combos["pinned"][lo:hi][lower]
                    lowered_at[touched] = version
            elif last_part[p] == i:  # the partition's last chance failed: it is final
                placed += int(part_rows[p])
                if placed >= next_report:
                    self._report(placed)
                    next_report = placed + step
        self._flush_pending(kids)

    def _flush_pending(self, kids: _Groups) -> None:
        """Add the children accepted so far in this level to Q (for exact fallbacks)."""
        if not self._pending:
            return
        # Q's order does not matter for minima; ascending ids keep the rows sorted
        child = np.sort(np.concatenate([np.arange(f, f + n) for f, n in self._pending]))
        self._pending = []
        new_id = np.full(len(kids.sizes), -1, dtype=np.int64)
        new_id[child] = np.arange(len(child))
        keep = new_id[kids.group] >= 0
        # a subset of sorted rows, renumbered in order, stays sorted
        self.queue.add(_Groups(kids.sizes[child], new_id[kids.group[keep]], kids.value[keep],
                               kids.count[keep], presorted=True))

    def group_candidates(self, rows: np.ndarray):
        """Candidate splits of one group: [(attribute, child sizes, (child, value, count))]."""
        cands = self.level_candidates(np.sort(rows), np.array([0, len(rows)]))
        out = []
        kids = cands.get("children")
        for c in range(cands["n"]):
            f, n = int(cands["first_child"][c]), int(cands["n_children"][c])
            mask = (kids.group >= f) & (kids.group < f + n)
            out.append((int(cands["attr"][c]), cands["sizes"][f:f + n],
                        (kids.group[mask] - f, kids.value[mask], kids.count[mask])))
        return out

    # -- exact arithmetic near the threshold
    def _exact_minima(self, groups: _Groups, idx: np.ndarray, cell: int) -> list:
        """The five exact minima of a cell's terms over the holder entries ``idx`` of
        ``groups``: only entries within the tolerance of a float minimum are recomputed with
        Fractions, once per distinct group shape."""
        plan = self.plan
        l, k, m = int(plan.l[cell]), int(plan.k[cell]), int(plan.m[cell])
        if not len(idx):
            return [INF] * 5
        terms = holder_terms(groups.rows, idx, l=l, k=k, m=m, semantics=self.semantics)

        def shape(i):
            e = int(idx[i])
            top = groups.rows.top_tuple(e, l)
            return (int(groups.sizes[groups.group[e]]), int(groups.count[e]),
                    top if self.semantics == "mvpi-set" else (sum(top),))

        def exact_of(stat):
            def f(i):
                key = (shape(i), cell)
                if key not in self._exact_memo:
                    n, s, top = key[0]
                    self._exact_memo[key] = exact_terms(n, s, top, k, m, self.semantics)
                return self._exact_memo[key][stat]
            return f

        out = []
        positions = np.arange(len(idx))
        for stat, logs in enumerate(terms.as_tuple()):
            if stat >= 3 and m == 0:  # V(f, 0, k) = 1 where k fits
                out.append(Fraction(1) if np.isfinite(logs).any() else INF)
            else:
                out.append(exact_min(logs, positions, exact_of(stat), shape)[0])
        return out

    def _exact_unsafe(self, cell: int, kids: _Groups, first: int, n_children: int) -> bool:
        """Exact verdict of one cell for Q plus a candidate's children.

        The exact minima over Q are kept per cell and only brought up to date with the
        groups queued since; the children's are computed from their own nonzeros."""
        j = int(self.plan.value[cell])
        covered, values = self.exact_ss.get(cell, (0, [INF] * 5))
        for groups, idx in self.queue.holders_since(j, covered):
            values = [min(a, b) for a, b in zip(values, self._exact_minima(groups, idx, cell))]
        self.exact_ss[cell] = (self.queue.n_groups, values)
        lo, hi = kids.rows.indptr[first], kids.rows.indptr[first + n_children]
        kid_idx = lo + np.flatnonzero(kids.value[lo:hi] == j)
        ss1, ss2, ss3, ss4, ss5 = (min(a, b) for a, b in
                                   zip(values, self._exact_minima(kids, kid_idx, cell)))

        def mul(a, b):
            return INF if a == INF or b == INF else a * b
        nr = min(ss1, mul(ss2, ss5), mul(ss3, ss4))
        bp = Fraction(0) if nr == INF else 1 / (nr + 1)
        return not bp < self.plan.c_exact[cell]


def _entropy_sum(owner: np.ndarray, count: np.ndarray, total: np.ndarray, n: int) -> np.ndarray:
    """Shannon entropy (bits) of each owner's distribution, from its nonzero counts."""
    with np.errstate(divide="ignore", invalid="ignore"):
        p = count / total[owner]
        terms = np.where(p > 0, -p * np.log2(np.where(p > 0, p, 1.0)), 0.0)
    return np.bincount(owner, weights=terms, minlength=n)


# --------------------------------------------------------------------------- public API
def _check_inputs(table, qi, sensitive, policy, hierarchies, semantics, split, output, owner):
    if not isinstance(table, pd.DataFrame):
        raise param_error("table", owner, "be a pandas DataFrame", type(table).__name__)
    if isinstance(qi, str):
        qi = [qi]
    if qi is None or not list(qi):
        raise param_error("qi", owner, "name at least one column", qi)
    qi = list(qi)
    require_columns(table, [*qi, sensitive])
    check_qi_and_sensitive(qi, sensitive, owner)
    if len(table) == 0:
        raise SchemaError("The table is empty: there is nothing to anonymize.")
    for column in [*qi, sensitive]:
        n_missing = int(table[column].isna().sum())
        if n_missing:
            raise SchemaError(f"Column {column!r} has {n_missing} missing value(s); fill or "
                              f"drop them explicitly before anonymizing.")
    if isinstance(policy, Mapping) and not isinstance(policy, Policy):
        policy = Policy(policy)
    if not isinstance(policy, Policy):
        raise param_error("policy", owner, "be a Policy", type(policy).__name__)
    semantics = check_semantics(semantics, owner)
    if split not in _SPLITS:
        raise param_error("split", owner, f"be one of {list(_SPLITS)}", split)
    if output not in _OUTPUTS:
        raise param_error("output", owner, f"be one of {list(_OUTPUTS)}", output)
    if hierarchies is None:
        hierarchies = {}
    if not isinstance(hierarchies, Mapping):
        raise param_error("hierarchies", owner, "be a mapping of column -> Hierarchy",
                          type(hierarchies).__name__)
    from .hierarchy import Hierarchy
    for name, hierarchy in hierarchies.items():
        if name not in qi:
            raise InvalidParameterError(
                f"A hierarchy is given for {name!r}, which is not a quasi-identifier; "
                f"quasi-identifiers are {qi!r}.")
        if not isinstance(hierarchy, Hierarchy):
            raise param_error("hierarchies", owner, f"map {name!r} to a Hierarchy",
                              type(hierarchy).__name__)
    return qi, policy, semantics, dict(hierarchies)


def _check_local_rows(local_rows, owner: str) -> None:
    """``local_rows`` (dask frames only) is None or a positive integer."""
    if local_rows is not None and (isinstance(local_rows, (bool, np.bool_))
                                   or not isinstance(local_rows, (int, np.integer))
                                   or local_rows < 1):
        raise param_error("local_rows", owner, "be a positive integer", local_rows)


def _infeasible(root: ReleaseCandidate, check) -> InfeasibleError:
    """The error for a policy even the whole table breaks, with a way forward: which points
    fail on the whole table and, for those values, the strongest knowledge the whole table
    withstands (its knowledge skyline at the failing point's confidence)."""
    from .find import skyline_find

    failing = check.violations
    withstands: dict = {}
    for row in failing:
        key = (row.value, row.point.c_exact)
        if key not in withstands and len(withstands) < 5:
            withstands[key] = skyline_find(root, row.value, c=row.point.c_exact).points
    first = failing[0]
    best = withstands[(first.value, first.point.c_exact)]
    strongest = (f"the whole table withstands at most (l, k, m) in {list(best)[:6]}"
                 f"{' ...' if len(best) > 6 else ''} for {first.value!r} at c = "
                 f"{confidence_text(first.point.c_exact)}" if best else
                 f"the whole table is unsafe for {first.value!r} even with no knowledge at c = "
                 f"{confidence_text(first.point.c_exact)} (its breach probability without "
                 f"knowledge is {_bp0(root, first.value)}: c must be above it)")
    error = InfeasibleError(
        f"Even the whole table as one group is unsafe: {len(failing)} (value, point) "
        f"check(s) fail, first {first.value!r} at {first.point} with breach probability "
        f"{first.breach_probability} "
        f"({percent_text(first.breach_probability, first.point.c_exact)}); {strongest}; no "
        f"generalization can satisfy the policy: relax the failing points to what the table "
        f"withstands.")
    error.failing = [row.to_dict() for row in failing]
    error.withstands = [{"value": value if isinstance(value, (int, float)) else str(value),
                         "c": str(c), "points": [list(p) for p in points]}
                        for (value, c), points in withstands.items()]
    return error


def _bp0(root: ReleaseCandidate, value) -> str:
    from .formulas import breach_probability
    bp = breach_probability(root, value, l=0, k=0, m=0, exact=True)
    return f"{bp} ({percent_text(bp)})"


def skyline_anonymize(table: pd.DataFrame, *, qi, sensitive: str, policy: Policy,
                      hierarchies: Mapping | None = None, semantics: str = "svpi",
                      split: str = "infogain", output: str = "generalized",
                      random_state=None, group_column: str = "group",
                      progress=None, numeric=None, categorical=None,
                      local_rows: int | None = None) -> AnonymizationResult:
    """Generalize or bucketize a table so that it is safe under a skyline policy (Fig. 4).

    Parameters
    ----------
    table : pandas.DataFrame
        The original data, one row per individual (for mvpi, list-like sensitive cells hold an
        individual's values). Never modified.
    qi : str or list of str
        Quasi-identifier columns to partition on. Columns with a hierarchy are split into the
        children of their lowest covering node and labelled with it. Without a hierarchy,
        numeric columns are split at the median value boundary (labels "[lo, hi]") and other
        columns at the median of their sorted distinct values (labels "{a, b, c}"); pass a
        one-level hierarchy to get all-or-nothing suppression ('*') instead.
    sensitive : str
        The sensitive column.
    policy : Policy
        The value-centric skyline policy the release must satisfy.
    hierarchies : mapping of column -> Hierarchy, optional
        Generalization hierarchies (e.g. :func:`skyprivacy.hierarchy.load_adult_hierarchies`).
    semantics : {'svpi', 'mvpi-set', 'mvpi-multiset'}, default 'svpi'
    split : {'infogain', 'widest'}, default 'infogain'
        Split priority: information gain w.r.t. the sensitive attribute (Sect. 8.4), or the
        widest normalized range (Mondrian's choice).
    output : {'generalized', 'bucketized'}, default 'generalized'
        'generalized' replaces QI values by the group's range ("[30, 39]") or hierarchy node;
        'bucketized' keeps QI values, adds ``group_column`` and reassigns the sensitive values
        at random within each group.
    random_state : int or numpy.random.Generator, optional
        Seed of the bucketized reassignment (same seed, same output).
    group_column : str, default 'group'
        Name of the bucket id column of a bucketized release.
    progress : callable, optional
        Called with the fraction (0..1] of rows already in final groups, at most once per
        percent (for progress bars; the library itself never prints).
    numeric, categorical : str or list of str, optional
        Quasi-identifiers to split as ordered numbers (median cuts, ranges) or as categories,
        whatever their dtype. Default (:func:`skyprivacy.qi.qi_kinds`, shared with the command
        line): numeric dtypes and text whose every cell is a number are numeric, except
        leading-zero codes (ZIP ``02139``); a mostly-numeric text column with a few other
        cells is split as categories with a :class:`MixedColumnWarning`. A released cell that
        is not generalized is the input cell, unchanged; ranges print their bounds as they
        appear in the input.

    Returns
    -------
    AnonymizationResult
        ``.table``, ``.candidate``, ``.certificate`` (an independent skyline_check of what is
        released), ``.assignment`` and ``.groups``.

    Raises
    ------
    InfeasibleError
        If even the whole table as one group is unsafe; the message names the value and point.
    SchemaError, HierarchyError, InvalidParameterError
        Missing columns or values, values a hierarchy does not cover, bad parameters.

    Notes
    -----
    A split into g_1..g_n is accepted iff, with SSi <- min(SSi, terms of g_1..g_n) for every
    (value, point), BP = 1 / (min(SS1, SS2*SS5, SS3*SS4) + 1) < c and no child holding the value
    has n <= k + m. Verdicts near the threshold are decided with exact fractions.

    References
    ----------
    Chen, LeFevre and Ramakrishnan (2009), Sect. 6.2, Fig. 4 and Theorem 4; LeFevre, DeWitt
    and Ramakrishnan, "Mondrian multidimensional k-anonymity" (ICDE 2006) and "Workload-aware
    anonymization" (KDD 2006) for the split criteria.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"age": [21, 22, 23, 24, 31, 33, 35, 38],
    ...                       "disease": ["flu", "aids", "flu", "cold",
    ...                                   "flu", "cold", "aids", "cold"]})
    >>> result = skyline_anonymize(table, qi="age", sensitive="disease",
    ...                            policy=Policy.uniform([(0, 1, 0, 0.8)]))
    >>> result.certificate.safe, result.candidate.n_groups
    (True, 2)
    >>> result.table["age"].tolist()
    ['[21, 24]', '[21, 24]', '[21, 24]', '[21, 24]', '[31, 38]', '[31, 38]', '[31, 38]', '[31, 38]']
    """
    from .dask_engine import is_dask_frame

    if is_dask_frame(table):  # the same search, distributed (see docs/dask.md)
        from .dask_engine import anonymize as distributed
        return distributed.skyline_anonymize(
            table, qi=qi, sensitive=sensitive, policy=policy, hierarchies=hierarchies,
            semantics=semantics, split=split, output=output, random_state=random_state,
            group_column=group_column, progress=progress, numeric=numeric,
            categorical=categorical, local_rows=local_rows)
    owner = "skyline_anonymize"
    _check_local_rows(local_rows, owner)
    qi, policy, semantics, hierarchies = _check_inputs(
        table, qi, sensitive, policy, hierarchies, semantics, split, output, owner)
    if output == "bucketized" and group_column in table.columns:
        raise InvalidParameterError(
            f"The bucket column {group_column!r} already exists in the table; pass another "
            f"group_column.")
    kinds = qi_kinds(table, qi, hierarchies, numeric=numeric, categorical=categorical,
                     owner=owner)
    engine = _Mondrian(table, qi, sensitive, policy, hierarchies, semantics, split,
                       progress=progress, kinds=kinds)

    # The whole table as one group must be safe (Theorem 4's premise); say what fails if not.
    whole = engine.root_groups()
    root = ReleaseCandidate.from_nonzeros(whole.sizes, whole.group, whole.value, whole.count,
                                          engine.values, semantics=semantics)
    with warnings.catch_warnings():  # unused policy values are reported by the certificate
        warnings.simplefilter("ignore", UnusedPolicyValueWarning)
        root_check = skyline_check(root, policy)
    if not root_check.safe:
        raise _infeasible(root, root_check)

    assignment, n_splits = engine.run()
    released, group_frame, candidate = _build_release(
        engine, table, qi, assignment, sensitive, output, random_state, group_column, semantics)
    certificate = skyline_check(candidate, policy)
    return AnonymizationResult(
        table=released, candidate=candidate, certificate=certificate,
        assignment=pd.Series(assignment, index=table.index, name="group"),
        groups=group_frame, qi=tuple(qi), sensitive=sensitive, semantics=semantics,
        output=output, split=split, n_splits=n_splits,
        n_candidates_evaluated=engine.n_candidates,
        group_column=group_column if output == "bucketized" else None, _engine=engine)


def _build_release(engine, table, qi, assignment, sensitive, output, random_state,
                   group_column, semantics):
    """The released table, the per-group labels and the candidate, from the group of each
    row (groups numbered by their first row)."""
    n_groups = int(assignment.max()) + 1
    order = np.argsort(assignment, kind="stable")
    starts = np.searchsorted(assignment[order], np.arange(n_groups))
    columns = {}
    for attr in engine.attrs:
        codes = attr.codes[order]
        lows = np.minimum.reduceat(codes, starts)
        highs = np.maximum.reduceat(codes, starts)
        # many groups share a (lowest, highest) pair: format each pair once
        pairs, inverse = np.unique(np.stack([lows, highs], axis=1), axis=0,
                                   return_inverse=True)
        texts = np.array([attr.label(int(lo), int(hi)) for lo, hi in pairs.tolist()],
                         dtype=object)
        columns[attr.name] = texts[inverse.reshape(-1)].tolist()
    group_frame = pd.DataFrame(columns, columns=list(qi))
    group_frame.index.name = "group"
    group_frame["n_individuals"] = np.bincount(assignment, minlength=n_groups)

    released = table.copy()
    if output == "generalized":
        for attr in engine.attrs:
            name = attr.name
            labels = np.asarray(columns[name], dtype=object)[assignment]
            # a group whose rows all hold the same cell publishes that cell exactly as it was
            # in the input (02139 stays 02139, 1.50 stays 1.50)
            cells = table[name].to_numpy(dtype=object)
            codes, _ = _factorize(table[name])
            same = (np.minimum.reduceat(codes[order], starts)
                    == np.maximum.reduceat(codes[order], starts))
            keep = same[assignment]
            released[name] = pd.Series(np.where(keep, cells, labels), index=table.index,
                                       dtype=object)
        candidate = (ReleaseCandidate.from_table(released, qi=qi, sensitive=sensitive,
                                                 semantics=semantics) if sensitive else None)
    else:
        rng = np.random.default_rng(random_state)
        keys = rng.random(engine.n_rows)
        shuffled_order = np.lexsort((keys, assignment))  # grouped, random within a group
        if sensitive:
            values = released[sensitive].to_numpy(dtype=object).copy()
            values[order] = table[sensitive].to_numpy(dtype=object)[shuffled_order]
            released[sensitive] = pd.Series(values, index=table.index, dtype=object)
        released.insert(len(released.columns), group_column, assignment)
        candidate = (ReleaseCandidate.from_table(released, group=group_column,
                                                 sensitive=sensitive, semantics=semantics)
                     if sensitive else None)
    return released, group_frame, candidate


@dataclass(frozen=True)
class KAnonymizationResult:
    """Result of :func:`k_anonymize`: the released table and its k-anonymity certificate."""

    table: pd.DataFrame
    certificate: object  # skyprivacy.baselines.KAnonymityResult
    assignment: pd.Series
    groups: pd.DataFrame
    k: int
    n_splits: int

    @property
    def safe(self) -> bool:
        """True iff every released group has at least k individuals."""
        return bool(self.certificate.satisfied)

    @property
    def average_group_size(self) -> float:
        """Average QI-group size (Sect. 8.4)."""
        return float(self.groups["n_individuals"].mean())

    def to_frame(self) -> pd.DataFrame:
        """The per-group summary (same as :attr:`groups`)."""
        return self.groups.copy()


def k_anonymize(table: pd.DataFrame, *, qi, k: int, hierarchies: Mapping | None = None,
                split: str = "widest", output: str = "generalized",
                group_column: str = "group", progress=None, numeric=None,
                categorical=None, local_rows: int | None = None) -> KAnonymizationResult:
    """k-anonymity with the SkylineAnonymize engine (Proposition 3).

    With the identity of each individual as the sensitive value, the skyline point
    (0, k - 2, 0) at c = 1 holds iff every QI-group has at least k individuals, so the engine
    runs with that size rule instead of evaluating one policy cell per individual.

    Parameters
    ----------
    table : pandas.DataFrame
    qi : str or list of str
    k : int
        At least 2.
    hierarchies, split, output, group_column, progress
        As in :func:`skyline_anonymize` (``split`` defaults to Mondrian's widest range; the
        information gain needs a sensitive attribute).

    Returns
    -------
    KAnonymizationResult
        With ``.certificate`` the :func:`skyprivacy.baselines.k_anonymity` check of the
        released groups.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"age": [21, 22, 23, 24, 31, 33, 35, 38]})
    >>> result = k_anonymize(table, qi="age", k=3)
    >>> result.safe, result.groups["n_individuals"].tolist()
    (True, [4, 4])
    """
    from .dask_engine import is_dask_frame

    if is_dask_frame(table):  # the same search, distributed (see docs/dask.md)
        from .dask_engine import anonymize as distributed
        return distributed.k_anonymize(
            table, qi=qi, k=k, hierarchies=hierarchies, split=split, output=output,
            group_column=group_column, progress=progress, numeric=numeric,
            categorical=categorical, local_rows=local_rows)
    owner = "k_anonymize"
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) or k < 2:
        raise param_error("k", owner, "be an integer >= 2", k)
    if split not in _SPLITS:
        raise param_error("split", owner, f"be one of {list(_SPLITS)}", split)
    _check_local_rows(local_rows, owner)
    marker = "__skyprivacy_identity__"
    work = pd.DataFrame({marker: np.zeros(len(table), dtype=np.int64)}, index=table.index) \
        if isinstance(table, pd.DataFrame) else table
    if isinstance(table, pd.DataFrame):
        for column in ([qi] if isinstance(qi, str) else list(qi or [])):
            if column in table.columns:
                work[column] = table[column]
    qi, _, _, hierarchies = _check_inputs(work, qi, marker, Policy.uniform([(0, 0, 0, 1)]),
                                          hierarchies, "svpi", split, output, owner)
    if output == "bucketized" and group_column in table.columns:
        raise InvalidParameterError(
            f"The bucket column {group_column!r} already exists in the table; pass another "
            f"group_column.")
    kinds = qi_kinds(work, qi, hierarchies, numeric=numeric, categorical=categorical,
                     owner=owner)
    engine = _Mondrian(work, qi, marker, None, hierarchies, "svpi", split, min_size=int(k),
                       progress=progress, kinds=kinds)
    if engine.n_rows < k:
        raise InfeasibleError(f"The table has {engine.n_rows} rows, fewer than k = {k}: no "
                              f"release can be {k}-anonymous.")
    assignment, n_splits = engine.run()
    released, group_frame, _ = _build_release(
        engine, table, qi, assignment, None, output, None, group_column, "svpi")
    from .baselines import k_anonymity
    sizes = group_frame["n_individuals"].to_numpy()
    # k-anonymity reads group sizes only; one placeholder value column keeps the model valid
    sizes_only = ReleaseCandidate.from_nonzeros(
        sizes, np.arange(len(sizes)), np.zeros(len(sizes), dtype=np.int64), sizes,
        ("individuals",), labels=group_frame.index)
    certificate = k_anonymity(sizes_only, int(k))
    return KAnonymizationResult(released, certificate,
                                pd.Series(assignment, index=table.index, name="group"),
                                group_frame, int(k), n_splits)


def splittable_groups(result: AnonymizationResult, policy: Policy) -> list[tuple[int, str]]:
    """Groups that some candidate split could still divide safely (Theorem 4: none in svpi).

    Each candidate split of each released group is checked by an exact
    :func:`skyprivacy.skyline_check` of the release with that group replaced by its children,
    independently of the sufficient statistics used during the search. Intended for audits and
    tests on small tables (cost: one full check per candidate split).

    Returns
    -------
    list of (group id, attribute name)
    """
    engine = result._engine
    assignment = result.assignment.to_numpy()
    # groups in assignment order, as sparse rows
    n_groups = int(assignment.max()) + 1
    sizes = np.bincount(assignment, minlength=n_groups)
    group, value, count = _pair_counts(assignment[engine.elem_row], engine.elem_val, n_groups,
                                       engine.n_values)
    found = []
    for g in range(n_groups):
        rows = np.flatnonzero(assignment == g)
        keep = group != g
        others = np.arange(n_groups) != g
        renumber = np.cumsum(others) - 1
        for a, c_sizes, (c_group, c_value, c_count) in engine.group_candidates(rows):
            trial = ReleaseCandidate.from_nonzeros(
                np.concatenate([sizes[others], c_sizes]),
                np.concatenate([renumber[group[keep]], c_group + n_groups - 1]),
                np.concatenate([value[keep], c_value]), np.concatenate([count[keep], c_count]),
                engine.values, semantics=result.semantics)
            if skyline_check(trial, policy).safe:
                found.append((g, engine.attrs[a].name))
    return found
