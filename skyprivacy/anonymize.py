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
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ._core.encoding import factorize, list_like_cells, require_columns
from ._core.engines import dispatchable
from ._core.exact import readable_fraction
from ._core.text import confidence_text, percent_text
from .check import SkylineCheckResult, skyline_check
from .errors import (
    InfeasibleError,
    InvalidParameterError,
    SchemaError,
    UnusedPolicyValueWarning,
    param_error,
)
from .formulas import (
    NR_TERMS,
    SortedRows,
    cap_amounts,
    close_one,
    combine,
    exact_breach_probability,
    exact_min,
    exact_negated_ratio,
    exact_terms,
    exact_v_without_family,
    float_verdict_one,
    float_verdicts,
    holder_terms,
    log_threshold,
)
from .knowledge import Policy
from .labels import DEFAULT_LABEL_LENGTH
from .qi import NumericQI, SetQI, TreeQI, category_orders, qi_kinds
from .release import (
    ReleaseCandidate,
    check_qi_and_sensitive,
    check_semantics,
    pair_counts,
)

if TYPE_CHECKING:
    from .baselines import KAnonymityResult

__all__ = ["skyline_anonymize", "AnonymizationResult", "k_anonymize", "KAnonymizationResult",
           "splittable_groups"]

SPLITS = ("infogain", "widest")
OUTPUTS = ("generalized", "bucketized")
_LIST_LIKE = (list, tuple, set, frozenset, np.ndarray)
INF = math.inf
_FEW = 24  # up to this many combos are judged in plain floats, more as arrays
_WINDOW, _WINDOW_MAX = 16, 4096  # partitions judged together by the level sweep
_EXACT_FEW = 32  # up to this many holders (and l, m) get exact terms without a float filter
_SHAPES_MIN = 512  # from this many (entry, cell) pairs, terms are computed once per shape


# --------------------------------------------------------------------------- policy plan
@dataclass
class PolicyPlan:
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
    def build(cls, policy: Policy | None, values: Sequence, n_individuals: int) -> PolicyPlan:
        # Values that share a skyline (typically all but a few listed ones share the
        # default) share its reduced points: the per-skyline work is done once and the cells
        # of its values are laid out with array operations, never a Python step per value.
        by_skyline: dict = {}  # id(skyline) -> (skyline, positions of its values)
        if policy is not None:
            for j, value in enumerate(values):
                skyline = policy.skyline_for(value)
                if skyline is not None:
                    by_skyline.setdefault(id(skyline), (skyline, []))[1].append(j)
        pieces = []  # per skyline: its value positions and its reduced points
        for skyline, positions in by_skyline.values():
            reduced: dict = {}
            for point in skyline:
                kept = reduced.get(point.knowledge)
                if kept is None or point.c_exact < kept.c_exact:
                    reduced[point.knowledge] = point
            kept_points = [reduced[key] for key in sorted(reduced)]
            pieces.append((np.asarray(positions, dtype=np.int64), kept_points))
        n_values = len(values)
        value_parts, index_parts = [], []
        points: list = []
        for positions, kept_points in pieces:
            value_parts.append(np.repeat(positions, len(kept_points)))
            index_parts.append(np.tile(np.arange(len(kept_points), dtype=np.int64)
                                       + len(points), len(positions)))
            points.extend(kept_points)
        value = np.concatenate(value_parts) if value_parts else np.zeros(0, dtype=np.int64)
        point_of = np.concatenate(index_parts) if index_parts else np.zeros(0, dtype=np.int64)
        order = np.argsort(value, kind="stable")  # by value, then the skyline's point order
        value, point_of = value[order], point_of[order]
        capped = np.array([cap_amounts(n_values, n_individuals, p.l, p.k, p.m) for p in points],
                          dtype=np.int64).reshape(-1, 3)
        thresholds = np.array([log_threshold(p.c_exact) for p in points], dtype=float)
        cell_ptr = np.concatenate([[0], np.cumsum(np.bincount(value, minlength=n_values))])
        return cls(value, capped[point_of, 0], capped[point_of, 1], capped[point_of, 2],
                   [points[i].c_exact for i in point_of.tolist()], thresholds[point_of],
                   [points[i] for i in point_of.tolist()], cell_ptr.astype(np.int64))

    def __len__(self) -> int:
        return len(self.points)


def _expand(starts: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Concatenated ranges [starts[i], starts[i] + lengths[i]): (positions, owner i)."""
    total = int(lengths.sum())
    owner = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    offset = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    return starts[owner] + np.arange(total, dtype=np.int64) - offset[owner], owner


def _count_order(group: np.ndarray, value: np.ndarray, count: np.ndarray) -> np.ndarray:
    """The order of (group, value, count) entries by group, count descending, then value.

    Entries already in (group, value) order (as pair counts come) need one stable sort of a
    single integer key, many times faster than sorting by three keys."""
    top = int(count.max(initial=0)) + 1
    in_pair_order = (len(group) < 2 or bool(np.all(
        (group[1:] > group[:-1]) | ((group[1:] == group[:-1]) & (value[1:] > value[:-1])))))
    if in_pair_order and int(group.max(initial=0)) < (2 ** 62) // top:
        return np.argsort(group.astype(np.int64) * top + (top - 1 - count), kind="stable")
    return np.lexsort((value, -count, group))


class SparseGroups:
    """Groups as sparse rows: sizes and (group, value, count) nonzeros sorted by group, then
    count descending, with the :class:`~skyprivacy.formulas.SortedRows` the closed forms read."""

    def __init__(self, sizes, group, value, count, *, presorted: bool = False):
        self.sizes = np.asarray(sizes, dtype=np.int64)
        if not presorted:
            order = _count_order(group, value, count)
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
    the exact decisions near a threshold.  Groups are numbered in queue order and held in
    parts whose sizes fall geometrically (a part is merged into the one before it once it is
    at least half as large), so there are O(log Q) parts, each nonzero is merged O(log Q)
    times, and finding a value's holders stays cheap."""

    def __init__(self, first: SparseGroups):
        self.parts: list = []  # (offset, SparseGroups)
        self.n_groups = 0
        self.add(first)

    def add(self, groups: SparseGroups) -> None:
        self.parts.append((self.n_groups, groups))
        self.n_groups += len(groups.sizes)
        while len(self.parts) > 1 and 2 * len(self.parts[-1][1].value) >= \
                len(self.parts[-2][1].value):
            self._merge_last_two()

    def _merge_last_two(self) -> None:
        (offset, a), (b_offset, b) = self.parts[-2:]
        # a's groups come first and b's are numbered after them: the rows stay sorted
        merged = SparseGroups(np.concatenate([a.sizes, b.sizes]),
                         np.concatenate([a.group, b.group + (b_offset - offset)]),
                         np.concatenate([a.value, b.value]),
                         np.concatenate([a.count, b.count]), presorted=True)
        self.parts[-2:] = [(offset, merged)]

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
    set_labels : dict
        ``{column: {digest: tuple of members}}`` for every set label published as a digest
        (``{#3f9a2c1b: 12 values}``); the content of the set-label file
        (:func:`skyprivacy.labels.labels_document`). Empty when every set is listed in full.
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
    set_labels: dict = field(default_factory=dict)
    _engine: Mondrian | None = field(default=None, repr=False, compare=False)

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
def segment_cummin(values: np.ndarray, segment: np.ndarray) -> np.ndarray:
    """Running minimum of each row of ``values`` (shape (R, X)) that restarts where the
    non-decreasing ``segment`` changes.

    Small inputs: ranks make every segment's keys lower than all earlier segments', so one
    ``minimum.accumulate`` restarts by itself; large ones go through pandas' grouped
    ``cummin``."""
    n = values.shape[1]
    if n > 1000:
        return pd.DataFrame(values.T).groupby(segment, sort=False).cummin().to_numpy().T
    out = np.empty_like(values)
    _, first = np.unique(segment, return_index=True)
    offset = np.repeat(np.arange(len(first), dtype=np.int64) * n, np.diff(np.append(first, n)))
    positions = np.arange(n, dtype=np.int64)
    for i, row in enumerate(values):
        order = np.argsort(row, kind="stable")
        rank = np.empty(n, dtype=np.int64)
        rank[order] = positions
        out[i] = row[order][np.minimum.accumulate(rank - offset) + offset]
    return out


class LevelSweep:
    """The state of one level's acceptance: the combos evaluated so far and their verdicts,
    which cells were lowered when, and when each candidate was last judged (see
    :meth:`Mondrian._accept_level`).

    ``combos`` (as :meth:`Mondrian._level_terms` returns them, ``ptr`` over every candidate)
    with their ``unsafe``, ``unsure`` and ``live`` flags are the candidates evaluated from the
    start; None starts with none, and :meth:`evaluate` adds candidates as they are needed."""

    def __init__(self, engine, cands, combos=None, unsafe=None, unsure=None, live=None):
        self.engine, self.cands = engine, cands
        if combos is None:
            combos = {"cell": np.zeros(0, dtype=np.int64), "mins": np.zeros((5, 0)),
                      "pinned": np.zeros(0, dtype=bool),
                      "ptr": np.zeros(cands["n"] + 1, dtype=np.int64)}
            unsafe, unsure, live = (np.zeros(0, dtype=bool) for _ in range(3))
        n_cells = len(combos["cell"])
        # the store: combos in the order they were evaluated, room to grow beyond ``size``
        self.combos = {"cell": combos["cell"], "mins": combos["mins"],
                       "pinned": combos["pinned"]}
        self.unsafe, self.unsure, self.live = unsafe, unsure, live
        self.size = n_cells
        ptr = np.asarray(combos["ptr"], dtype=np.int64)
        self.lo, self.hi = ptr[:-1].copy(), ptr[1:].copy()  # a candidate's combos
        self.lowered_at = np.zeros(len(engine.plan), dtype=np.int64)  # step of last lowering
        self.judged_at = np.zeros(cands["n"], dtype=np.int64)
        self.version = 0

    def evaluate(self, which: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Evaluate the candidates ``which`` (distinct, not evaluated yet) against the
        current statistics and keep their combos; whether each is unsafe now (then it stays
        unsafe: the statistics only decrease), and whether it is too close to call in
        floats (not unsafe, some cell unsure)."""
        engine = self.engine
        batch = engine._level_terms(self.cands, which)
        n_new = len(batch["cell"])
        # a combo that lowers no statistic now never will (they only decrease): its verdict
        # stays the global one, safe, and it is never judged again
        live = (batch["mins"] < engine.ss[:, batch["cell"]]).any(axis=0) | batch["pinned"]
        judged = np.flatnonzero(live)
        unsafe, unsure = np.zeros(n_new, dtype=bool), np.zeros(n_new, dtype=bool)
        if len(judged) <= _FEW:
            few = engine._verdicts_few(batch, judged)
            unsafe[judged], unsure[judged] = few
        else:
            unsafe[judged], unsure[judged] = engine._verdicts(batch, judged)
        start = self._append(batch, unsafe, unsure, live)
        ptr = batch["ptr"]
        self.lo[which] = start + ptr[:-1]
        self.hi[which] = start + ptr[1:]
        self.judged_at[which] = self.version
        owner = np.repeat(np.arange(len(which)), np.diff(ptr))
        bad = np.zeros(len(which), dtype=bool)
        bad[owner[unsafe]] = True
        close = np.zeros(len(which), dtype=bool)
        close[owner[unsure]] = True
        return bad, close & ~bad

    def _append(self, batch: dict, unsafe, unsure, live) -> int:
        """Store a batch of combos after those held; returns where it starts."""
        start, n_new = self.size, len(batch["cell"])
        end = start + n_new
        store = self.combos
        if end > len(store["cell"]):  # grow geometrically: appends cost O(1) amortized
            room = max(2 * len(store["cell"]), end + end // 4 + 1024)

            def grown(a):
                out = np.empty(a.shape[:-1] + (room,), dtype=a.dtype)
                out[..., :start] = a[..., :start]
                return out
            store["cell"], store["mins"], store["pinned"] = (
                grown(store["cell"]), grown(store["mins"]), grown(store["pinned"]))
            self.unsafe, self.unsure, self.live = (
                grown(self.unsafe), grown(self.unsure), grown(self.live))
        store["cell"][start:end] = batch["cell"]
        store["mins"][:, start:end] = batch["mins"]
        store["pinned"][start:end] = batch["pinned"]
        self.unsafe[start:end], self.unsure[start:end] = unsafe, unsure
        self.live[start:end] = live
        self.size = end
        return start

    def _scratch(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-cell work arrays, +inf and False between uses."""
        if not hasattr(self, "_low"):
            n_cells = len(self.engine.plan)
            self._low = np.full((5, n_cells), INF)
            self._pin = np.zeros(n_cells, dtype=bool)
        return self._low, self._pin

    def _live_combos(self, cand: np.ndarray) -> np.ndarray:
        lo, hi = self.lo[cand], self.hi[cand]
        at, _ = _expand(lo, hi - lo)
        return at[self.live[at]]

    def first_failure(self, window: np.ndarray) -> int | None:
        """Position in ``window`` (candidates of successive partitions, in queue order) of
        the first one that is unsafe or unsure once every candidate before it in the window
        is accepted; None if there is none."""
        engine, combos = self.engine, self.combos
        lo, hi = self.lo[window], self.hi[window]
        at, pos = _expand(lo, hi - lo)
        keep = self.live[at]
        at, pos = at[keep], pos[keep]
        if not len(at):
            return None
        cell = combos["cell"][at]
        mins = combos["mins"][:, at]
        pinned = combos["pinned"][at]
        # Once the whole window is accepted, a cell's statistics are at their lowest and a
        # safe verdict there is safe all along (NR only falls with the statistics): only the
        # combos of cells not clearly safe then can fail, and only they are followed in order
        low, pin = self._scratch()
        for stat in range(5):
            np.minimum.at(low[stat], cell, mins[stat])
        pin[cell[pinned]] = True
        unsafe, unsure = engine._classify(np.minimum(engine.ss[:, cell], low[:, cell]),
                                          pin[cell] | engine.pinned[cell], cell)
        low[:, cell], pin[cell] = INF, False
        risky = unsafe | unsure
        if not risky.any():
            return None
        if not risky.all():
            at, pos, cell = at[risky], pos[risky], cell[risky]
            mins, pinned = mins[:, risky], pinned[risky]
        # statistics each combo sees: the current ones lowered by the window's earlier
        # candidates (an exclusive running minimum per cell, in queue order)
        by_cell = np.lexsort((pos, cell))
        sorted_cell = cell[by_cell]
        running = segment_cummin(mins[:, by_cell], sorted_cell)
        seen = np.full(mins.shape, INF)
        same = np.flatnonzero(sorted_cell[1:] == sorted_cell[:-1]) + 1
        seen[:, by_cell[same]] = running[:, same - 1]
        current = np.minimum(engine.ss[:, cell], seen)
        changed = (mins < current).any(axis=0) | pinned
        unsafe, unsure = engine._classify(np.minimum(current, mins),
                                          pinned | engine.pinned[cell], cell)
        failing = pos[(unsafe | unsure) & changed]
        return int(failing.min()) if len(failing) else None

    def accept_all(self, accepted: np.ndarray, chosen: np.ndarray) -> None:
        """Accept candidates of distinct partitions known to be safe in this order."""
        if not len(accepted):
            return
        engine, cands, combos = self.engine, self.cands, self.combos
        chosen[cands["part"][accepted]] = accepted
        engine._pending.extend(zip(cands["first_child"][accepted].tolist(),
                                   cands["n_children"][accepted].tolist()))
        at = self._live_combos(accepted)
        if not len(at):
            return
        cell = combos["cell"][at]
        before = engine.ss[:, cell]
        for stat in range(5):
            np.minimum.at(engine.ss[stat], cell, combos["mins"][stat, at])
        lowered = cell[(combos["mins"][:, at] < before).any(axis=0)]  # repeats are harmless
        if len(lowered):
            self.version += 1
            self.lowered_at[lowered] = self.version

    def try_one(self, c: int, chosen: np.ndarray) -> bool:
        """Judge candidate ``c`` against the current statistics (exactly near a threshold)
        and accept it if it is safe."""
        engine, combos = self.engine, self.combos
        lo, hi = int(self.lo[c]), int(self.hi[c])
        cells = combos["cell"][lo:hi]
        unsafe, unsure = self.unsafe, self.unsure
        if self.version and self.judged_at[c] < self.version:
            # only the cells lowered since this candidate was judged can change verdict
            # (a cell's statistics and pin change only when it is lowered)
            stale = np.flatnonzero((self.lowered_at[cells] > self.judged_at[c])
                                   & self.live[lo:hi])
            if len(stale):
                stale += lo
                unsafe[stale], unsure[stale] = (engine._verdicts_few(combos, stale)
                                                if len(stale) <= _FEW else
                                                engine._verdicts(combos, stale))
            self.judged_at[c] = self.version
        if unsafe[lo:hi].any() or self.exactly_unsafe(c):
            return False
        self.accept_all(np.array([c]), chosen)
        return True

    def exactly_unsafe(self, c: int) -> bool:
        """Whether one of candidate ``c``'s cells too close to call in floats (as last
        judged) is unsafe in exact arithmetic, against Q and the current statistics."""
        lo, hi = int(self.lo[c]), int(self.hi[c])
        close = lo + np.flatnonzero(self.unsure[lo:hi])
        if not len(close):
            return False
        engine, combos, kids = self.engine, self.combos, self.cands["children"]
        first, n_children = int(self.cands["first_child"][c]), int(self.cands["n_children"][c])
        return any(engine._exact_unsafe(int(combos["cell"][at]), kids, first, n_children,
                                        combos["mins"][:, at]) for at in close.tolist())


class LevelCandidates:
    """One BFS level's split candidates, gathered attribute by attribute, in the layout of
    :meth:`Mondrian.level_candidates` (the in-memory and the Dask engine fill it alike).

    Each :meth:`add` appends one attribute's splittable partitions; children are numbered
    globally in the order they are added, so the (child, value, count) nonzeros of an
    attribute are shifted by the children added before it.
    """

    def __init__(self) -> None:
        self.part: list = []
        self.attr: list = []
        self.n_children: list = []
        self.width: list = []
        self.sizes: list = []
        self.nonzeros: list = []
        self.n_before = 0  # children added so far

    @staticmethod
    def offsets(has: np.ndarray, n_children: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
        """The splittable partitions, each one's first child (numbered within the attribute)
        and the attribute's number of children."""
        splittable = np.flatnonzero(has)
        base = np.zeros(len(has), dtype=np.int64)
        base[splittable] = np.cumsum(n_children[splittable]) - n_children[splittable]
        return splittable, base, int(n_children[splittable].sum())

    def add(self, a: int, splittable: np.ndarray, n_children: np.ndarray, width: np.ndarray,
            child_sizes: np.ndarray, counts: tuple | None) -> None:
        """Append attribute ``a``'s candidates; ``counts`` is its (child, value, count)
        nonzeros with children numbered within the attribute (None when not needed)."""
        self.sizes.append(child_sizes)
        if counts is not None:
            g, v, c = counts
            self.nonzeros.append((g + self.n_before, v, c))
        self.n_before += len(child_sizes)
        self.part.append(splittable)
        self.attr.append(np.full(len(splittable), a, dtype=np.int64))
        self.n_children.append(n_children[splittable])
        self.width.append(width[splittable])

    def arrays(self, need_counts: bool, **extra) -> dict:
        """The candidates as arrays (``{"n": 0}`` when no attribute splits), then ``extra``."""
        if not self.part:
            return {"n": 0}
        n_children = np.concatenate(self.n_children)
        child_sizes = np.concatenate(self.sizes)
        children = None
        if need_counts:
            children = SparseGroups(child_sizes,
                                    *(np.concatenate(x) for x in zip(*self.nonzeros)))
        return {
            "n": len(n_children),
            "part": np.concatenate(self.part),
            "attr": np.concatenate(self.attr),
            "n_children": n_children,
            "first_child": np.cumsum(n_children) - n_children,
            "width": np.concatenate(self.width),
            "sizes": child_sizes,
            "children": children,
            **extra,
        }


class Mondrian:
    """Top-down greedy partitioning (Fig. 4). ``min_size`` switches the safety rule to plain
    k-anonymity (every group at least that large), for the k-anonymity baseline."""

    def __init__(self, table, qi, sensitive, policy, hierarchies, semantics, split,
                 min_size=None, progress=None, kinds=None, orders=None,
                 label_length=DEFAULT_LABEL_LENGTH):
        self.n_rows = len(table)
        cells = table[sensitive]
        if semantics == "svpi":
            if list_like_cells(cells).any():
                raise SchemaError(
                    f"Column {sensitive!r} holds list-like cells; svpi allows exactly one "
                    f"sensitive value per individual (use semantics='mvpi-set' or "
                    f"'mvpi-multiset').")
            value_codes, values = factorize(cells)
            self.elem_row = np.arange(self.n_rows, dtype=np.int64)
            self.elem_val = value_codes
        else:
            elements = [list(v) if isinstance(v, _LIST_LIKE) else [v] for v in cells.tolist()]
            lengths = np.array([len(e) for e in elements], dtype=np.int64)
            flat = pd.Series([x for e in elements for x in e], dtype=object)
            if flat.isna().any():
                raise SchemaError(f"Column {sensitive!r} has {int(flat.isna().sum())} missing "
                                  f"value(s) inside list cells; clean the table.")
            value_codes, values = factorize(flat)
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
                attrs.append(TreeQI(name, column, hierarchies[name]))
            elif kinds[name] == "numeric":
                attrs.append(NumericQI(name, column))
            else:
                attrs.append(SetQI(name, column, (orders or {}).get(name, "sorted"),
                                    label_length))
        self._setup(qi, attrs, np.column_stack([attr.codes for attr in attrs]), self.elem_row,
                    self.elem_val, values, PolicyPlan.build(policy, values, self.n_rows),
                    semantics, split, min_size, progress)

    @classmethod
    def from_codes(cls, qi, attrs, code_matrix, elem_row, elem_val, values, plan, semantics,
                   split, min_size=None, progress=None) -> Mondrian:
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
        # the distinct (l, k, m) of the policy cells: terms depend on a cell through them only
        self._amount_of = (np.unique(np.stack([plan.l, plan.k, plan.m], axis=1), axis=0,
                                     return_inverse=True)[1].reshape(-1).astype(np.int64)
                           if len(plan) else np.zeros(0, dtype=np.int64))
        self._one_cell = bool(np.all(np.diff(plan.cell_ptr) == 1))  # each value: one cell
        reach = plan.k + plan.m  # a holder of n <= k + m pins the target (BP = 1)
        self._pin_reach = (int(reach[0]) if len(plan) and np.all(reach == reach[0])
                           and np.all(np.diff(plan.cell_ptr) > 0) else None)
        # a cell's place among its value's cells
        self._cell_slot = np.arange(len(plan), dtype=np.int64) - plan.cell_ptr[plan.value]
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
        found = LevelCandidates()
        row_child = np.full((len(self.attrs), len(rows)), -1, dtype=np.int64)
        for a, attr in enumerate(self.attrs):
            lo, hi = lows[:, a], highs[:, a]
            has = hi > lo
            if not has.any():
                continue
            child, n_children, width = attr.level_split(block[:, a], part_of, starts, lo, hi)
            row_child[a] = np.where(has[part_of], child, -1)
            splittable, base, total = found.offsets(has, n_children)
            keep = has[part_of]
            global_child = base[part_of[keep]] + child[keep]
            counts = None
            if need_counts:  # (child, value, count) nonzeros: O(rows), never O(children x V)
                if self.semantics == "svpi":
                    ec, ev = global_child, self.elem_val[rows[keep]]
                else:
                    child_of_pos = np.full(len(rows), -1, dtype=np.int64)
                    child_of_pos[keep] = global_child
                    ec = child_of_pos[elem_pos]
                    ec, ev = ec[ec >= 0], elem_val[ec >= 0]
                counts = pair_counts(ec, ev, total, self.n_values)
            found.add(a, splittable, n_children, width,
                      np.bincount(global_child, minlength=total), counts)
        return found.arrays(need_counts, row_child=row_child, part_of=part_of)

    def _priority_keys(self, cands: dict) -> np.ndarray:
        """Smaller is better: minus the information gain w.r.t. the sensitive attribute
        (LeFevre et al. 2006), or minus the normalized width (Mondrian)."""
        if self.split == "widest" or cands["children"] is None:
            return -cands["width"]
        kids = cands["children"]
        first = cands["first_child"]
        n_kids = len(kids.sizes)
        # one value per individual: a child's counts sum to its size
        total = (kids.sizes.astype(float) if self.semantics == "svpi" else
                 np.bincount(kids.group, weights=kids.count, minlength=n_kids))
        child_h = _entropy_sum(kids.group, kids.count, total, n_kids, runs=True) * total
        parent_n = np.add.reduceat(total, first)
        # the parent's counts are the sum of its children's, the same for every candidate of
        # a partition: they are summed once per partition, over the children of its
        # candidate with the fewest nonzeros (values in ascending order, as per candidate)
        indptr = kids.rows.indptr
        lo = indptr[first]
        nnz = indptr[first + cands["n_children"]] - lo
        by_part = np.lexsort((nnz, cands["part"]))
        parts, at = np.unique(cands["part"][by_part], return_index=True)
        rep = by_part[at]  # one candidate per partition
        entries, owner = _expand(lo[rep], nnz[rep])
        key = owner * max(self.n_values, 1) + kids.value[entries]
        # grouped by partition already: a stable sort runs through it fast
        order = np.argsort(key, kind="stable")
        key = key[order]
        starts = np.flatnonzero(np.concatenate([[True], key[1:] != key[:-1]])) \
            if len(key) else np.zeros(0, dtype=np.int64)
        # integer sums: exact, and in the order of the values as before
        parent_count = np.add.reduceat(kids.count[entries][order], starts).astype(float) \
            if len(key) else np.zeros(0)
        parent_of = key[starts] // max(self.n_values, 1)
        parent_h = _entropy_sum(parent_of, parent_count, parent_n[rep], len(rep))[
            np.searchsorted(parts, cands["part"])]
        gain = parent_h * parent_n - np.add.reduceat(child_h, first)
        return -gain / np.maximum(parent_n, 1)

    def _ordered(self, cands: dict) -> np.ndarray:
        """Candidates sorted by partition, then priority, then attribute (ties)."""
        keys = np.round(self._priority_keys(cands), 12)
        return np.lexsort((cands["attr"], keys, cands["part"]))

    def _level_terms(self, cands: dict, which: np.ndarray | None = None) -> dict:
        """The children's terms for the policy cells of the values they hold, reduced to one
        *combo* per (candidate, cell): the five minima over the candidate's children and
        whether one of them pins the target.  Cost: O(children's nonzeros x cells per value).
        Cells a candidate's children do not hold keep the global statistics (rule 1).

        ``which`` (default: every candidate) are the candidates to evaluate, distinct; the
        combos come grouped by candidate in that order, cells ascending within one, and
        ``ptr`` bounds those of ``which[i]`` (of candidate i when ``which`` is None)."""
        kids = cands["children"]
        plan = self.plan
        owner = np.zeros(0, dtype=np.int64)
        if which is None:
            entries = None
            value = kids.value
            n_owners = cands["n"]
        else:
            first = cands["first_child"][which]
            lo_e = kids.rows.indptr[first]
            entries, owner = _expand(lo_e, kids.rows.indptr[first + cands["n_children"][which]]
                                     - lo_e)
            value = kids.value[entries]
            n_owners = len(which)
        lo = plan.cell_ptr[value]
        # one pair per (child nonzero e, cell of its value)
        if self._one_cell:
            cell, pair = lo, np.arange(len(value), dtype=np.int64)
        else:
            cell, pair = _expand(lo, plan.cell_ptr[value + 1] - lo)
        e = pair if entries is None else entries[pair]
        terms, at = self._pair_terms(kids.rows, e, cell)
        n = kids.sizes[kids.group[e]]
        pinned = n <= plan.k[cell] + plan.m[cell]
        if entries is None:
            cand_of_child = np.repeat(np.arange(cands["n"]), cands["n_children"])
            owner_of = cand_of_child[kids.group[e]]
        else:
            owner_of = owner[pair]
        key = owner_of * len(plan) + cell
        order = np.argsort(key, kind="stable")
        key = key[order]
        starts = np.flatnonzero(np.concatenate([[True], key[1:] != key[:-1]])) \
            if len(key) else np.zeros(0, dtype=np.int64)
        pick = order if at is None else at[order]
        mins = np.stack([np.minimum.reduceat(t[pick], starts) if len(starts) else t[:0]
                         for t in terms])
        combo_owner = key[starts] // max(len(plan), 1)
        return {"cand": combo_owner if which is None else which[combo_owner],
                "cell": key[starts] % max(len(plan), 1), "mins": mins,
                "pinned": (np.maximum.reduceat(pinned[order].astype(np.int8), starts) > 0
                           if len(starts) else np.zeros(0, dtype=bool)),
                "ptr": np.searchsorted(combo_owner, np.arange(n_owners + 1))}

    def _pair_terms(self, rows: SortedRows, e: np.ndarray, cell: np.ndarray) -> tuple:
        """The five terms of the pairs (entry ``e[i]`` of ``rows``, policy cell ``cell[i]``)
        as ``(terms, at)``: pair i's are ``terms[...][at[i]]`` (``at`` None: aligned).

        In svpi and mvpi-multiset the terms depend on a pair only through its shape: the
        group size n, the count s, the sum h of the top-l other counts and the cell's
        (l, k, m).  Rows hold their counts in descending order, so successive entries of a
        group often share their shape (every count below the top l with the same value: the
        long tail of a skewed distribution); each run of equal shapes is computed once (the
        pairs taken one slot of their value's cells at a time when cells differ in amounts)."""
        plan = self.plan
        if self.semantics != "mvpi-set" and len(e) >= _SHAPES_MIN:
            amount = self._amount_of[cell]
            perm = None
            pe, pc = e, cell  # the pairs in the order runs are looked for
            if amount.any():  # several (l, k, m): the pairs of one slot of cells together
                perm = np.argsort(self._cell_slot[cell], kind="stable")
                pe, pc, amount = e[perm], cell[perm], amount[perm]
            n = rows.sizes[rows.row[pe]]
            s = rows.count[pe]
            h = rows.top_sum(pe, plan.l[pc])
            new = np.ones(len(pe), dtype=bool)
            new[1:] = ((s[1:] != s[:-1]) | (h[1:] != h[:-1]) | (n[1:] != n[:-1])
                       | (amount[1:] != amount[:-1]))
            rep = np.flatnonzero(new)
            if 2 * len(rep) <= len(pe):
                terms = holder_terms(rows, pe[rep], l=plan.l[pc[rep]], k=plan.k[pc[rep]],
                                     m=plan.m[pc[rep]], semantics=self.semantics)
                at = np.cumsum(new) - 1
                if perm is not None:
                    at[perm] = at.copy()
                return terms.as_tuple(), at
        return holder_terms(rows, e, l=plan.l[cell], k=plan.k[cell], m=plan.m[cell],
                            semantics=self.semantics).as_tuple(), None

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

    def start_statistics(self, root: SparseGroups, n: int) -> None:
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
            cands: dict = (self.level_candidates(rows, starts, need_counts=self.min_size is None)
                           if splitting else {"n": 0})
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

    def root_groups(self) -> SparseGroups:
        """The whole table as one group, sparse."""
        totals = np.bincount(self.elem_val, minlength=self.n_values)
        value = np.flatnonzero(totals)
        return SparseGroups(np.array([self.n_rows]), np.zeros(len(value), dtype=np.int64), value,
                       totals[value])

    def _classify(self, ss, pinned, cell):
        """Per combo: clearly unsafe, and too close to call in floating point; ``ss`` (5, X)
        are the statistics with the combo's children, for policy cells ``cell``."""
        return float_verdicts(combine(*ss), self.plan.log_theta[cell], pinned)

    def _verdicts(self, combos: dict, at):
        """(unsafe, unsure) of the combos ``at`` (a slice or positions) against the current
        global statistics; a combo that lowers no statistic keeps the global verdict, which
        is safe."""
        cell = combos["cell"][at]
        mins = combos["mins"][:, at]
        current = self.ss[:, cell]
        pinned = combos["pinned"][at]
        changed = (mins < current).any(axis=0) | pinned
        unsafe, unsure = self._classify(np.minimum(current, mins), pinned | self.pinned[cell],
                                        cell)
        return unsafe & changed, unsure & changed

    def _verdicts_few(self, combos: dict, at: np.ndarray) -> tuple[list[bool], list[bool]]:
        """:meth:`_verdicts` of a few combos in plain floats (the sequential loop's case)."""
        unsafe: list[bool] = []
        unsure: list[bool] = []
        cells: list[int] = combos["cell"][at].tolist()
        mins: list[list[float]] = combos["mins"][:, at].T.tolist()
        current: list[list[float]] = self.ss[:, cells].T.tolist()
        pinned: list[bool] = combos["pinned"][at].tolist()
        global_pinned: list[bool] = self.pinned[cells].tolist()
        theta: list[float] = self.plan.log_theta[cells].tolist()
        for i in range(len(cells)):
            own, now = mins[i], current[i]
            if not (pinned[i] or own[0] < now[0] or own[1] < now[1] or own[2] < now[2]
                    or own[3] < now[3] or own[4] < now[4]):
                unsafe.append(False)
                unsure.append(False)
                continue
            ss1, ss2, ss3, ss4, ss5 = (a if a < b else b for a, b in zip(own, now))
            u, w = float_verdict_one(ss1, ss2, ss3, ss4, ss5, theta[i],
                                     pinned[i] or global_pinned[i])
            unsafe.append(u)
            unsure.append(w)
        return unsafe, unsure

    def _accept_level(self, cands: dict, order: np.ndarray, chosen: np.ndarray) -> None:
        """Acceptance, in queue order, of the level's candidates (Fig. 4's FIFO, exactly).

        Candidates are evaluated lazily, only when the sequential rule reaches them: each
        partition's *head* is its first candidate (in priority order) that is not unsafe
        against the level's starting statistics, in floats or, too close to call, in exact
        arithmetic against Q (unsafe then means unsafe for good: the statistics only
        decrease and Q only grows, so the rule would skip it); the heads are found in rounds,
        one priority rank of the partitions still without one at a time.  The partitions are
        then taken in order, a window at a time: each one's head is judged against the
        starting statistics lowered by the heads before it in the window (a running minimum
        per cell), which is exactly what the sequential rule sees as long as every earlier
        one is accepted.  The prefix up to the first head that is then unsafe or too close to
        call is accepted at once; that partition is decided one candidate at a time
        (near-threshold cells with exact fractions; its later candidates evaluated only once
        the ones before them are rejected), and the next window starts after it."""
        self.n_candidates += cands["n"]
        self._pending: list[tuple[int, int]] = []  # (first child, number) of accepted ones
        sweep = LevelSweep(self, cands)
        # the candidates of a partition are contiguous in queue order
        parts = cands["part"][order]
        runs = np.flatnonzero(np.concatenate([[True], parts[1:] != parts[:-1]]))
        run_end = np.append(runs[1:], len(order))
        # heads: a round per priority rank, over the partitions whose candidate was unsafe
        head_at = runs.copy()  # position in ``order`` of each partition's head
        found = np.zeros(len(runs), dtype=bool)
        todo = np.arange(len(runs))
        pinning = self._pinning(cands)

        def evaluate(which: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            """:meth:`LevelSweep.evaluate`; a candidate with a child that pins the target
            (n <= k + m) is unsafe whatever the statistics and is not evaluated."""
            if pinning is None or not pinning[which].any():
                return sweep.evaluate(which)
            bad, close = pinning[which].copy(), np.zeros(len(which), dtype=bool)
            rest = ~bad
            if rest.any():
                bad[rest], close[rest] = sweep.evaluate(which[rest])
            return bad, close

        while len(todo):
            which = order[head_at[todo]]
            bad, close = evaluate(which)
            # too close to call in floats: decided exactly against the starting statistics
            # (the rule reaches every head; exactly unsafe now is unsafe for good too)
            for i in np.flatnonzero(close).tolist():
                bad[i] = sweep.exactly_unsafe(int(which[i]))
            found[todo[~bad]] = True
            todo = todo[bad]
            head_at[todo] += 1
            todo = todo[head_at[todo] < run_end[todo]]
        viable = np.flatnonzero(found)  # partitions (as runs) with a head
        heads = order[head_at[viable]]
        # progress: rows of partitions without a viable candidate are placed now
        has_viable = np.zeros(len(chosen), dtype=bool)
        has_viable[parts[runs[viable]]] = True
        part_rows = (cands["part_rows"] if "part_rows" in cands
                     else np.bincount(cands["part_of"], minlength=len(chosen)))
        placed = self.placed + int(part_rows[~has_viable].sum())
        self._report(placed)
        step = max(1, self.n_rows // 20)
        next_report = placed + step
        if not len(heads):
            return

        def decide(j: int) -> bool:
            """The sequential rule on the j-th viable partition: its head, then (evaluated
            now, in one go: nothing changes the statistics while they are judged) each later
            candidate until one is accepted."""
            if sweep.try_one(int(heads[j]), chosen):
                return True
            run = int(viable[j])
            rest = order[head_at[run] + 1:run_end[run]]
            if not len(rest):
                return False
            unsafe, _ = evaluate(rest)
            return any(sweep.try_one(c, chosen) for c in rest[~unsafe].tolist())

        r, width = 0, _WINDOW
        while r < len(heads):
            window = heads[r:r + width]
            fail = sweep.first_failure(window)
            sweep.accept_all(window[:fail] if fail is not None else window, chosen)
            if fail is None:
                r += len(window)
                width = min(2 * width, _WINDOW_MAX)
                continue
            j = r + fail
            if not decide(j):
                placed += int(part_rows[parts[runs[viable[j]]]])  # last chance failed: final
                if placed >= next_report:
                    self._report(placed)
                    next_report = placed + step
            r = j + 1
            width = max(width // 2, _WINDOW)
        self._flush_pending(cands["children"])

    def _pinning(self, cands: dict) -> np.ndarray | None:
        """Per candidate, whether a child holding some value has n <= k + m (BP = 1: unsafe
        whatever the statistics), when every value has cells and they all share k + m;
        None otherwise."""
        if self._pin_reach is None:
            return None
        kids = cands["children"]
        holds = np.diff(kids.rows.indptr) > 0
        return np.logical_or.reduceat(holds & (kids.sizes <= self._pin_reach),
                                      cands["first_child"])

    def _flush_pending(self, kids: SparseGroups) -> None:
        """Add the children accepted so far in this level to Q (for exact fallbacks).

        Each accepted candidate's children are a range of children, whose nonzeros are a
        range of ``kids``: only those are read, never the whole level."""
        if not self._pending:
            return
        # Q's order does not matter for minima; ascending ids keep the rows sorted
        pending = np.array(sorted(self._pending), dtype=np.int64).reshape(-1, 2)
        self._pending = []
        first, n_children = pending[:, 0], pending[:, 1]
        child, _ = _expand(first, n_children)
        indptr = kids.rows.indptr
        lo = indptr[first]
        entries, owner = _expand(lo, indptr[first + n_children] - lo)
        # new ids number the accepted children in order
        shift = (np.cumsum(n_children) - n_children) - first
        # a subset of sorted rows, renumbered in order, stays sorted
        self.queue.add(SparseGroups(kids.sizes[child], kids.group[entries] + shift[owner],
                                    kids.value[entries], kids.count[entries], presorted=True))

    def group_candidates(self, rows: np.ndarray):
        """Candidate splits of one group: [(attribute, child sizes, (child, value, count))]."""
        cands = self.level_candidates(np.sort(rows), np.array([0, len(rows)]))
        if not cands["n"]:
            return []
        kids: SparseGroups = cands["children"]
        out = []
        for c in range(cands["n"]):
            f, n = int(cands["first_child"][c]), int(cands["n_children"][c])
            mask = (kids.group >= f) & (kids.group < f + n)
            out.append((int(cands["attr"][c]), cands["sizes"][f:f + n],
                        (kids.group[mask] - f, kids.value[mask], kids.count[mask])))
        return out

    # -- exact arithmetic near the threshold
    def _exact_minima(self, groups: SparseGroups, idx: np.ndarray, cell: int) -> list:
        """The five exact minima of a cell's terms over the holder entries ``idx`` of
        ``groups``, computed once per distinct group shape (the inputs the terms depend on).

        A few holders whose exact terms are cheap (svpi and mvpi-set with small l and m:
        O(l + m) arithmetic) get them all directly; otherwise only entries within the
        tolerance of a float minimum are recomputed with Fractions."""
        plan = self.plan
        l, k, m = int(plan.l[cell]), int(plan.k[cell]), int(plan.m[cell])
        if not len(idx):
            return [INF] * 5
        rows = groups.rows
        n_of: list[int] = groups.sizes[groups.group[idx]].tolist()
        s_of: list[int] = groups.count[idx].tolist()
        if self.semantics == "mvpi-set":
            def shape(i):
                return (n_of[i], s_of[i], rows.top_tuple(int(idx[i]), l))
        else:  # the terms read the top-l other counts through their sum h only
            h_of: list[int] = rows.top_sum(idx, l).tolist()

            def shape(i):
                return (n_of[i], s_of[i], (h_of[i],))

        def exact(key):
            memo_key = (key, cell)
            if memo_key not in self._exact_memo:
                n, s, top = key
                self._exact_memo[memo_key] = exact_terms(n, s, top, k, m, self.semantics)
            return self._exact_memo[memo_key]

        if (len(idx) <= _EXACT_FEW and m <= _EXACT_FEW and self.semantics != "mvpi-multiset"
                and (self.semantics == "svpi" or l <= _EXACT_FEW)):
            found = [exact(key) for key in {shape(i) for i in range(len(idx))}]
            return [min(terms[stat] for terms in found) for stat in range(5)]
        terms = holder_terms(rows, idx, l=l, k=k, m=m, semantics=self.semantics)

        def exact_of(stat):
            def f(i):
                return exact(shape(i))[stat]
            return f

        out = []
        positions = np.arange(len(idx))
        for stat, logs in enumerate(terms.as_tuple()):
            if stat >= 3 and m == 0:
                out.append(exact_v_without_family(logs))
            else:
                out.append(exact_min(logs, positions, exact_of(stat), shape)[0])
        return out

    def _exact_unsafe(self, cell: int, kids: SparseGroups, first: int, n_children: int,
                      kid_mins: Sequence[float] | None = None) -> bool:
        """Exact verdict of one cell for Q plus a candidate's children.

        The exact minima over Q are kept per cell and only brought up to date with the
        groups queued since; the children's are computed from their own nonzeros.

        With ``kid_mins``, the children's float minima (the cell being too close to call in
        floats against the current statistics, the float minima over Q), only what can
        decide is made exact: the terms of NR = min(SS1, SS2 SS5, SS3 SS4) within the
        tolerance of the threshold (the others are clearly above it), and of their
        statistics only the sides (Q, children) within the tolerance of the lower one."""
        j = int(self.plan.value[cell])
        need_q, need_kids = [True] * 5, [True] * 5
        near = list(NR_TERMS)
        if kid_mins is not None:
            q_mins: list[float] = self.ss[:, cell].tolist()
            kid_mins = [float(x) for x in kid_mins]
            lowest = [min(a, b) for a, b in zip(q_mins, kid_mins)]
            theta = float(self.plan.log_theta[cell])
            near = [term for term in near if close_one(sum(lowest[i] for i in term), theta)]
            if not near:  # cannot happen for an unsure cell: decide it in full
                return self._exact_unsafe(cell, kids, first, n_children)
            for i in range(5):
                need_q[i] = q_mins[i] <= kid_mins[i] or close_one(q_mins[i], kid_mins[i])
                need_kids[i] = kid_mins[i] <= q_mins[i] or close_one(kid_mins[i], q_mins[i])
            needed = {i for term in near for i in term}
            need_q = [q and i in needed for i, q in enumerate(need_q)]
            need_kids = [k and i in needed for i, k in enumerate(need_kids)]
        exact = [INF] * 5
        if any(need_q):
            self._flush_pending(kids)
            covered, values = self.exact_ss.get(cell, (0, [INF] * 5))
            for groups, idx in self.queue.holders_since(j, covered):
                values = [min(a, b) for a, b in
                          zip(values, self._exact_minima(groups, idx, cell))]
            self.exact_ss[cell] = (self.queue.n_groups, values)
            exact = [v if q else INF for v, q in zip(values, need_q)]
        if any(need_kids):
            lo, hi = kids.rows.indptr[first], kids.rows.indptr[first + n_children]
            kid_idx = lo + np.flatnonzero(kids.value[lo:hi] == j)
            exact = [min(a, b) if k else a for a, b, k in
                     zip(exact, self._exact_minima(kids, kid_idx, cell), need_kids)]

        bp = exact_breach_probability(exact_negated_ratio(exact, near))
        return not bp < self.plan.c_exact[cell]


def _entropy_sum(owner: np.ndarray, count: np.ndarray, total: np.ndarray, n: int,
                 runs: bool = False) -> np.ndarray:
    """Shannon entropy (bits) of each owner's distribution, from its nonzero counts.

    ``runs``: successive entries often repeat (owner, count) (sorted rows, tails of equal
    counts): each run's term is computed once; the sums add the same terms in the same
    order."""
    at = None
    if runs and len(owner) > 1:
        new = np.ones(len(owner), dtype=bool)
        new[1:] = (owner[1:] != owner[:-1]) | (count[1:] != count[:-1])
        first = np.flatnonzero(new)
        if 2 * len(first) <= len(owner):
            at = np.cumsum(new) - 1
            owner_of, count = owner[first], count[first]
    with np.errstate(divide="ignore", invalid="ignore"):
        p = count / total[owner if at is None else owner_of]
        terms = np.where(p > 0, -p * np.log2(np.where(p > 0, p, 1.0)), 0.0)
    return np.bincount(owner, weights=terms if at is None else terms[at], minlength=n)


# --------------------------------------------------------------------------- public API
def _check_inputs(table, qi, sensitive, policy, hierarchies, semantics, split, output, owner):
    if not isinstance(table, pd.DataFrame):
        raise param_error("table", owner, "be a pandas DataFrame", type(table).__name__)
    qi = check_columns(table, qi, sensitive, owner)
    if len(table) == 0:
        raise SchemaError("The table is empty: there is nothing to anonymize.")
    for column in [*qi, sensitive]:
        n_missing = int(table[column].isna().sum())
        if n_missing:
            raise SchemaError(f"Column {column!r} has {n_missing} missing value(s); fill or "
                              f"drop them explicitly before anonymizing.")
    policy, semantics, hierarchies = check_options(policy, semantics, split, output,
                                                   hierarchies, qi, owner)
    return qi, policy, semantics, hierarchies


def check_columns(table, qi, sensitive, owner: str) -> list:
    """The quasi-identifiers as a list, once they and ``sensitive`` are checked to be distinct
    columns of ``table`` (any frame with ``.columns``: no pass over the data)."""
    if isinstance(qi, str):
        qi = [qi]
    if qi is None or not list(qi):
        raise param_error("qi", owner, "name at least one column", qi)
    qi = list(qi)
    require_columns(table, [*qi, sensitive])
    check_qi_and_sensitive(qi, sensitive, owner)
    return qi


def check_options(policy, semantics, split, output, hierarchies, qi: list,
                  owner: str) -> tuple[Policy, str, dict]:
    """The checked (policy, semantics, hierarchies) of an anonymization, after ``split`` and
    ``output`` are checked: a mapping becomes a Policy, and every hierarchy is a Hierarchy of
    a quasi-identifier."""
    if isinstance(policy, Mapping) and not isinstance(policy, Policy):
        policy = Policy(policy)
    if not isinstance(policy, Policy):
        raise param_error("policy", owner, "be a Policy", type(policy).__name__)
    semantics = check_semantics(semantics, owner)
    if split not in SPLITS:
        raise param_error("split", owner, f"be one of {list(SPLITS)}", split)
    if output not in OUTPUTS:
        raise param_error("output", owner, f"be one of {list(OUTPUTS)}", output)
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
    return policy, semantics, dict(hierarchies)


def check_group_column(table, output: str, group_column: str) -> None:
    """A bucketized release adds ``group_column``: it must not be a column of ``table``."""
    if output == "bucketized" and group_column in table.columns:
        raise InvalidParameterError(
            f"The bucket column {group_column!r} already exists in the table; pass another "
            f"group_column.")


def _search_engine(work: pd.DataFrame, qi: list, sensitive: str, policy: Policy | None,
                   hierarchies: Mapping, semantics: str, split: str, *, min_size: int | None,
                   progress, numeric, categorical, order, label_length, owner: str) -> Mondrian:
    """The in-memory engine over ``work`` (the table, or k_anonymize's identity frame), with
    the QI kinds, category orders and label length of the options."""
    kinds = qi_kinds(work, qi, hierarchies, numeric=numeric, categorical=categorical,
                     owner=owner)
    orders = category_orders(work, qi, kinds, order, owner=owner)
    return Mondrian(work, qi, sensitive, policy, hierarchies, semantics, split,
                    min_size=min_size, progress=progress, kinds=kinds, orders=orders,
                    label_length=label_length_of(label_length, owner))


def _check_local_rows(local_rows, owner: str) -> None:
    """``local_rows`` (dask frames only) is None or a positive integer."""
    if local_rows is not None and (isinstance(local_rows, (bool, np.bool_))
                                   or not isinstance(local_rows, (int, np.integer))
                                   or local_rows < 1):
        raise param_error("local_rows", owner, "be a positive integer", local_rows)


def infeasible_error(root: ReleaseCandidate, check) -> InfeasibleError:
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
        f"{readable_fraction(first.breach_probability)} "
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
    return f"{readable_fraction(bp)} ({percent_text(bp)})"


@dispatchable  # a dask frame: the same search, distributed (docs/dask.md)
def skyline_anonymize(table: pd.DataFrame, *, qi, sensitive: str, policy: Policy,
                      hierarchies: Mapping | None = None, semantics: str = "svpi",
                      split: str = "infogain", output: str = "generalized",
                      random_state=None, group_column: str = "group",
                      progress=None, numeric=None, categorical=None, order=None,
                      label_length: int | None = DEFAULT_LABEL_LENGTH,
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
        columns at the median of their distinct values lined up by ``order``: a group is
        labelled with its one value, ``*`` when it spans every value of the column, else the
        set of values it covers (``{a, b, c}``, or a digest, see ``label_length``); pass a
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
    order : {'sorted', 'first'} or mapping, optional
        The order in which a categorical QI lines up its values before it is split into runs
        (:func:`skyprivacy.qi.category_orders`). Default ``'sorted'`` (text in code-point
        order, as before this option existed); ``'first'``: order of first appearance in the
        table; a mapping ``{column: 'sorted' | 'first' | [values in order]}`` per column
        (columns it does not name are sorted), e.g. ``{"severity": ["low", "mid", "high"]}``.
    label_length : int or None, default 80
        Longest set label listed in full, in characters. A longer set (or one whose members
        hold a comma) is published as a digest, ``{#3f9a2c1b: 12 values}``, whose members
        are in ``.set_labels`` (the command line writes them to a set-label file beside the
        output, recorded by the certificate; see :mod:`skyprivacy.labels`). ``0`` publishes
        every set as a digest, ``None`` lists every set in full.

    Returns
    -------
    AnonymizationResult
        ``.table``, ``.candidate``, ``.certificate`` (an independent skyline_check of what is
        released), ``.assignment``, ``.groups`` and ``.set_labels``.

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
    owner = "skyline_anonymize"
    _check_local_rows(local_rows, owner)
    qi, policy, semantics, hierarchies = _check_inputs(
        table, qi, sensitive, policy, hierarchies, semantics, split, output, owner)
    check_group_column(table, output, group_column)
    engine = _search_engine(table, qi, sensitive, policy, hierarchies, semantics, split,
                            min_size=None, progress=progress, numeric=numeric,
                            categorical=categorical, order=order, label_length=label_length,
                            owner=owner)

    # The whole table as one group must be safe (Theorem 4's premise); say what fails if not.
    whole = engine.root_groups()
    root = ReleaseCandidate.from_nonzeros(whole.sizes, whole.group, whole.value, whole.count,
                                          engine.values, semantics=semantics)
    with warnings.catch_warnings():  # unused policy values are reported by the certificate
        warnings.simplefilter("ignore", UnusedPolicyValueWarning)
        root_check = skyline_check(root, policy)
    if not root_check.safe:
        raise infeasible_error(root, root_check)

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
        group_column=group_column if output == "bucketized" else None,
        set_labels=set_labels_of(engine), _engine=engine)


def label_length_of(label_length, owner: str) -> int | None:
    """The validated ``label_length`` option (None: every set listed in full)."""
    if label_length is None:
        return None
    if (isinstance(label_length, (bool, np.bool_))
            or not isinstance(label_length, (int, np.integer)) or label_length < 0):
        raise param_error("label_length", owner, "be a non-negative integer or None",
                          label_length)
    return int(label_length)


def set_labels_of(engine) -> dict:
    """``{column: {digest: members}}`` of the set labels published as digests."""
    return {attr.name: dict(attr.sets) for attr in engine.attrs
            if getattr(attr, "sets", None)}


def _unique_pairs(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(np.stack([a, b], axis=1), axis=0, return_inverse=True)`` for integer
    arrays, through one integer key when it fits (many times faster than rows)."""
    if len(a):
        base = min(int(a.min()), int(b.min()))
        span = max(int(a.max()), int(b.max())) - base + 1
        if span * span < 2 ** 62:
            key = (a.astype(np.int64) - base) * span + (b.astype(np.int64) - base)
            keys, inverse = np.unique(key, return_inverse=True)
            return np.stack([keys // span + base, keys % span + base], axis=1), inverse
    pairs, inverse = np.unique(np.stack([a, b], axis=1), axis=0, return_inverse=True)
    return pairs, inverse.reshape(-1)


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
        pairs, inverse = _unique_pairs(lows, highs)
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
            codes, _ = factorize(table[name])
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
    """Result of :func:`k_anonymize`: the released table and its k-anonymity certificate
    (``set_labels`` as in :class:`AnonymizationResult`)."""

    table: pd.DataFrame
    certificate: KAnonymityResult
    assignment: pd.Series
    groups: pd.DataFrame
    k: int
    n_splits: int
    set_labels: dict = field(default_factory=dict)

    @property
    def safe(self) -> bool:
        """True iff every released group has at least k individuals."""
        return bool(self.certificate.safe)

    @property
    def average_group_size(self) -> float:
        """Average QI-group size (Sect. 8.4)."""
        return float(self.groups["n_individuals"].mean())

    def to_frame(self) -> pd.DataFrame:
        """The per-group summary (same as :attr:`groups`)."""
        return self.groups.copy()


@dispatchable  # a dask frame: the same search, distributed (docs/dask.md)
def k_anonymize(table: pd.DataFrame, *, qi, k: int, hierarchies: Mapping | None = None,
                split: str = "widest", output: str = "generalized",
                group_column: str = "group", progress=None, numeric=None,
                categorical=None, order=None,
                label_length: int | None = DEFAULT_LABEL_LENGTH,
                local_rows: int | None = None) -> KAnonymizationResult:
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
    hierarchies, split, output, group_column, progress, numeric, categorical, order, label_length
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
    owner = "k_anonymize"
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) or k < 2:
        raise param_error("k", owner, "be an integer >= 2", k)
    if split not in SPLITS:
        raise param_error("split", owner, f"be one of {list(SPLITS)}", split)
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
    check_group_column(table, output, group_column)
    engine = _search_engine(work, qi, marker, None, hierarchies, "svpi", split,
                            min_size=int(k), progress=progress, numeric=numeric,
                            categorical=categorical, order=order, label_length=label_length,
                            owner=owner)
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
    certificate = k_anonymity(sizes_only, k=int(k))
    return KAnonymizationResult(released, certificate,
                                pd.Series(assignment, index=table.index, name="group"),
                                group_frame, int(k), n_splits, set_labels_of(engine))


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
    if engine is None:
        raise param_error("result", "splittable_groups",
                          "be a skyline_anonymize result of a pandas DataFrame (a dask "
                          "result keeps no search engine)",
                          type(result).__name__)
    assignment = result.assignment.to_numpy()
    # groups in assignment order, as sparse rows
    n_groups = int(assignment.max()) + 1
    sizes = np.bincount(assignment, minlength=n_groups)
    group, value, count = pair_counts(assignment[engine.elem_row], engine.elem_val, n_groups,
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
