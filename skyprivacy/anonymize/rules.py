"""The decision rules of SkylineAnonymize (Chen, LeFevre and Ramakrishnan 2009, Sect. 6.2, Fig. 4).

Every search strategy and every source shares them: the policy as flat cells
(:class:`PolicyPlan`), groups as sparse rows (:class:`SparseGroups`), the global sufficient
statistics SS1..SS5 with Q, the queue of every group ever accepted (:class:`Rules`), and
the acceptance of a level's candidate splits in Fig. 4's FIFO order (:class:`LevelSweep`).
A candidate split is accepted iff, with SSi <- min(SSi, terms of its children) for every
(value, point), BP = 1 / (min(SS1, SS2 SS5, SS3 SS4) + 1) < c and no child holding the value
has n <= k + m; verdicts near the threshold are decided with exact fractions.  Candidates are
ranked by information gain w.r.t. the sensitive attribute (LeFevre et al. 2006) or by the
widest normalized range (Rules); with ``min_size`` the rule is plain k-anonymity.

Combined criteria (:mod:`skyprivacy.criteria`) join these rules through
:class:`CriteriaRule`: every per-group criterion is judged on a candidate's children (a
candidate whose children all pass is *clean*), whole-release criteria on the class sizes the
release would have, and a suppression budget lets a split through whose failing children fit
what is left of it (those children are suppressed).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from ..formulas import (
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
    float_verdicts,
    holder_terms,
    log_threshold,
)
from ..knowledge import Policy
from ..release import ReleaseCandidate, row_order

__all__ = ["PolicyPlan", "SparseGroups", "QStore", "LevelSweep", "Rules", "CriteriaRule",
           "segment_cummin",
           "expand", "entropy_sum", "SPLITS"]

SPLITS = ("infogain", "widest", "loss")
INF = math.inf
WINDOW, WINDOW_MAX = 16, 4096  # partitions judged together by the level sweep
EXACT_FEW = 32  # up to this many holders (and l, m) get exact terms without a float filter
SHAPES_MIN = 512  # from this many (entry, cell) pairs, terms are computed once per shape


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
                   cell_ptr.astype(np.int64))

    def __len__(self) -> int:
        return len(self.c_exact)


def expand(starts: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Concatenated ranges [starts[i], starts[i] + lengths[i]): (positions, owner i)."""
    total = int(lengths.sum())
    owner = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    offset = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    return starts[owner] + np.arange(total, dtype=np.int64) - offset[owner], owner


class SparseGroups:
    """Groups as sparse rows: sizes and (group, value, count) nonzeros sorted by group, then
    count descending, with the :class:`~skyprivacy.formulas.SortedRows` the closed forms read."""

    def __init__(self, sizes, group, value, count, *, presorted: bool = False):
        self.sizes = np.asarray(sizes, dtype=np.int64)
        if not presorted:
            order = row_order(group, value, count, int(value.max(initial=-1)) + 1)
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


class QStore:
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
    :meth:`Rules.accept_level`).

    ``combos`` (as :meth:`Rules.level_terms` returns them, ``ptr`` over every candidate)
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
        batch = engine.level_terms(self.cands, which)
        n_new = len(batch["cell"])
        # a combo that lowers no statistic now never will (they only decrease): its verdict
        # stays the global one, safe, and it is never judged again
        live = (batch["mins"] < engine.ss[:, batch["cell"]]).any(axis=0) | batch["pinned"]
        judged = np.flatnonzero(live)
        unsafe, unsure = np.zeros(n_new, dtype=bool), np.zeros(n_new, dtype=bool)
        unsafe[judged], unsure[judged] = engine.verdicts(batch, judged)
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
        at, _ = expand(lo, hi - lo)
        return at[self.live[at]]

    def first_failure(self, window: np.ndarray) -> int | None:
        """Position in ``window`` (candidates of successive partitions, in queue order) of
        the first one that is unsafe or unsure once every candidate before it in the window
        is accepted; None if there is none."""
        engine, combos = self.engine, self.combos
        lo, hi = self.lo[window], self.hi[window]
        at, pos = expand(lo, hi - lo)
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
        unsafe, unsure = engine.classify(np.minimum(engine.ss[:, cell], low[:, cell]),
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
        unsafe, unsure = engine.judge(cell, mins, pinned, np.minimum(engine.ss[:, cell], seen))
        failing = pos[unsafe | unsure]
        return int(failing.min()) if len(failing) else None

    def accept_all(self, accepted: np.ndarray, chosen: np.ndarray) -> None:
        """Accept candidates of distinct partitions known to be safe in this order."""
        if not len(accepted):
            return
        engine, cands, combos = self.engine, self.cands, self.combos
        chosen[cands["part"][accepted]] = accepted
        engine.pending.extend(zip(cands["first_child"][accepted].tolist(),
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
                unsafe[stale], unsure[stale] = engine.verdicts(combos, stale)
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
        return any(engine.exact_unsafe(int(combos["cell"][at]), kids, first, n_children,
                                        combos["mins"][:, at]) for at in close.tolist())


class CriteriaRule:
    """Combined criteria in Mondrian: per-group criteria judged on a level's children,
    whole-release criteria on the class sizes the release would have, and the suppression
    budget, with their state across levels.

    * A per-group criterion (:attr:`~skyprivacy.criteria.Criterion.per_group`) is judged on
      every child of every candidate of a level at once, in one
      :class:`~skyprivacy.release.ReleaseCandidate` holding the children and one *filler*
      group whose counts bring the value totals to a multiple of the table's: a group's
      verdict under t-closeness, beta-likeness and delta-disclosure depends on the release
      only through that distribution, so each child is judged against the table's, which is
      the release's when nothing is suppressed.  A candidate whose children all pass is
      *clean*; its *cost* is the rows of its failing children.
    * The suppression budget is shared out as lighthouse's Core Mondrian does (Bloomston et
      al. 2025): the root holds all of it; a group that splits passes what it did not spend
      to its kept children in proportion to their sizes (rounding remainders, and the
      allowance of every group that ends, go to a common pool).  A group takes its first
      candidate in priority order that is clean or whose failing children fit its allowance
      plus the pool (and that keeps some of its rows): those children are suppressed, and
      never split again.  Groups that spend are served in queue order.
    * Whole-release criteria (average risk, population uniqueness: functions of the class
      sizes) are kept true after every level: the level's accepted splits are taken in queue
      order and a split after which the release would fail is undone.  Since the whole
      table passes and every accepted set of splits is checked, the release passes after
      every level, monotone criterion or not.

    ``local`` (a Dask worker's copy): decisions that spend the budget or change a
    whole-release measure are left to the client (marked -2).

    References
    ----------
    Bloomston et al. (2025), "Core Mondrian: Basic Mondrian beyond k-anonymity",
    arXiv:2510.09661 (the proportional suppression budget); LeFevre, DeWitt and
    Ramakrishnan (2006).
    """

    def __init__(self, group_criteria: Sequence, release_criteria: Sequence, values: Sequence,
                 totals: np.ndarray, semantics: str, budget: int, mask: bool):
        self.group_criteria = list(group_criteria)
        self.release_criteria = list(release_criteria)
        self.values = list(values)
        self.totals = np.asarray(totals, dtype=np.int64)  # the reference distribution
        self.semantics = semantics
        self.budget = self.left = int(budget)
        self.mask = mask
        self.local = False
        self.live_fails = np.zeros(1, dtype=bool)  # per live group: a suppressed child
        self.allow: np.ndarray | None = np.array([self.budget], dtype=np.int64)
        self.pool = 0  # allowance no group holds
        self.family: tuple | None = None  # how the last level's splits share allowances
        self.final_sizes: list = []
        self.final_fails: list = []
        self.charged: dict = {}  # this level: part -> candidate whose failing children go
        self.level: dict = {}

    @property
    def suppressed(self) -> int:
        """Rows suppressed so far (charged to the budget)."""
        return self.budget - self.left

    def for_worker(self) -> CriteriaRule:
        """The copy a Dask worker's rules use (decides only what spends nothing shared)."""
        other = copy.copy(self)
        other.local, other.charged, other.level = True, {}, {}
        return other

    def groups_safe(self, sizes, group, value, count) -> np.ndarray:
        """Per group of the (group, value, count) nonzeros: every per-group criterion holds,
        judged against the table's value distribution (see the class docstring)."""
        n = len(sizes)
        if not self.group_criteria:
            return np.ones(n, dtype=bool)
        ref = self.totals
        held = np.rint(np.bincount(value, weights=count, minlength=len(ref))).astype(np.int64)
        on = ref > 0
        times = max(1, int((-(-held[on] // ref[on])).max(initial=1)))
        fill = times * ref - held
        sizes = np.asarray(sizes, dtype=np.int64)
        if fill.sum() > 0:
            at = np.flatnonzero(fill)
            sizes = np.append(sizes, int(fill.sum()))
            group = np.concatenate([group, np.full(len(at), n, dtype=np.int64)])
            value = np.concatenate([value, at])
            count = np.concatenate([count, fill[at]])
        release = ReleaseCandidate.from_nonzeros(sizes, group, value, count, self.values,
                                                 semantics=self.semantics)
        safe = np.ones(n, dtype=bool)
        for criterion in self.group_criteria:
            safe &= np.asarray(criterion.group_safe(release), dtype=bool)[:n]
        return safe

    def start(self, root: SparseGroups) -> list:
        """The criteria the whole table (``root``, one group) fails: none, or no
        generalization helps."""
        failing = []
        for criterion in self.group_criteria:
            keep, self.group_criteria = self.group_criteria, [criterion]
            try:
                if not self.groups_safe(root.sizes, root.group, root.value, root.count)[0]:
                    failing.append(repr(criterion))
            finally:
                self.group_criteria = keep
        sizes = root.sizes.astype(np.int64)
        failing += [repr(c) for c in self.release_criteria
                    if not c.evaluate(_sizes_release(sizes)).safe]
        return failing

    def allowances(self, part_sizes: np.ndarray) -> np.ndarray:
        """Each live group's allowance, shared out once its size is known (see the class
        docstring)."""
        if self.allow is None:
            assert self.family is not None
            first, n_children, remaining = self.family
            owner = np.repeat(np.arange(len(first)), n_children)
            weight = np.where(self.live_fails, 0, part_sizes).astype(np.int64)
            total = np.bincount(owner, weights=weight, minlength=len(first)).astype(np.int64)
            share = (weight * remaining[owner]) // np.maximum(total[owner], 1)
            self.pool += int(remaining.sum() - share.sum())
            self.allow = share.astype(np.int64)
        return self.allow

    def judge(self, cands: dict, part_sizes: np.ndarray) -> dict:
        """The level's verdicts: per child whether it passes, per candidate its cost, whether
        it is clean and whether it could suppress (not clean, some rows kept, its group not
        itself a suppressed child; a worker does not know which groups are)."""
        kids = cands["children"]
        ok = self.groups_safe(kids.sizes, kids.group, kids.value, kids.count)
        cost = np.add.reduceat(np.where(ok, 0, kids.sizes), cands["first_child"])
        part = cands["part"]
        could = (cost > 0) & (cost < part_sizes[part]) & (self.budget > 0)
        if not self.local:
            could &= ~self.live_fails[part]
            self.allowances(part_sizes)
        self.level = {"cands": cands, "ok": ok, "cost": cost, "clean": cost == 0,
                      "could": could}
        self.charged = {}
        return self.level

    def affordable(self, c: int, p: int) -> bool:
        assert self.allow is not None
        return int(self.level["cost"][c]) <= int(self.allow[p]) + self.pool

    def charge(self, c: int, p: int) -> None:
        """Spend candidate ``c``'s cost from group ``p``'s allowance, then the pool."""
        assert self.allow is not None
        cost = int(self.level["cost"][c])
        own = min(cost, int(self.allow[p]))
        self.allow[p] -= own
        self.pool -= cost - own
        self.left -= cost
        self.charged[p] = (c, own)

    def refund(self, p: int) -> None:
        c, own = self.charged.pop(p)
        assert self.allow is not None
        cost = int(self.level["cost"][c])
        self.allow[p] += own
        self.pool += cost - own
        self.left += cost

    def choose(self, cands: dict, order: np.ndarray, chosen: np.ndarray,
               part_sizes: np.ndarray) -> None:
        """The size rule's choices under the criteria: per group, its first candidate in
        priority order that is clean or could suppress; a clean one is taken at once, the
        others are served in queue order, each group taking its first candidate from there
        that is clean or affordable (:meth:`affordable`); then the whole-release criteria
        (:meth:`cap`).  A worker marks -2 the groups whose decision it leaves to the
        client."""
        level = self.judge(cands, part_sizes)
        part, clean, could = cands["part"], level["clean"], level["could"]
        usable = order[(clean | could)[order]]
        first = np.unique(part[usable], return_index=True)[1]
        heads = usable[first]
        at_once = clean[heads]
        chosen[part[heads[at_once]]] = heads[at_once]
        spend = part[heads[~at_once]]
        if self.local:
            chosen[spend] = -2
        elif len(spend):
            position = np.empty(len(order), dtype=np.int64)
            position[order] = np.arange(len(order))
            for head in heads[~at_once].tolist():
                p = int(part[head])
                for c in order[position[head]:].tolist():
                    if int(part[c]) != p:
                        break
                    if clean[c]:
                        chosen[p] = c
                        break
                    if could[c] and self.affordable(c, p):
                        chosen[p] = c
                        self.charge(c, p)
                        break
        if self.release_criteria:
            if self.local:
                chosen[chosen >= 0] = -2
            else:
                self.cap(cands, chosen, part_sizes)

    def blocked(self, cands: dict, part_sizes: np.ndarray) -> np.ndarray:
        """Under a skyline policy: per candidate, whether the criteria rule it out (neither
        clean nor affordable at the level's start), for :meth:`Rules.accept_level`."""
        level = self.judge(cands, part_sizes)
        could = level["could"]
        if not self.local and could.any():
            assert self.allow is not None
            could = could & (level["cost"] <= self.allow[cands["part"]] + self.pool)
        return ~(level["clean"] | could)

    def settle(self, cands: dict, chosen: np.ndarray, part_sizes: np.ndarray) -> None:
        """After the skyline's acceptance: the accepted candidates that suppress are charged
        in queue order, and one that no longer fits is undone (its children lowered the
        statistics already: stricter, never unsafe); then :meth:`cap`."""
        cost = self.level["cost"]
        for p in np.flatnonzero(chosen >= 0).tolist():
            c = int(chosen[p])
            if cost[c] > 0:
                if self.affordable(c, p):
                    self.charge(c, p)
                else:
                    chosen[p] = -1
        if self.release_criteria:
            self.cap(cands, chosen, part_sizes)

    def cap(self, cands: dict, chosen: np.ndarray, part_sizes: np.ndarray) -> None:
        """Undo, in queue order, each accepted split after which a whole-release criterion
        would fail (the release at the level's start passes; each prefix found to pass is
        kept, by bisection)."""
        accepted = np.flatnonzero(chosen >= 0)
        if not len(accepted):
            return
        ok = self.level["ok"]
        finals = (np.concatenate(self.final_sizes) if self.final_sizes
                  else np.zeros(0, dtype=np.int64))
        final_fails = self.suppressed_groups
        base_pool = int(finals[final_fails].sum())
        finals = finals[~final_fails]

        def holds(parts: list) -> bool:
            keep = ~self.live_fails.copy()
            pool = base_pool + int(part_sizes[self.live_fails].sum())
            pieces = [finals]
            for p in parts:
                keep[p] = False
                c = int(chosen[p])
                f, n = int(cands["first_child"][c]), int(cands["n_children"][c])
                kid_sizes = cands["children"].sizes[f:f + n]
                pieces.append(kid_sizes[ok[f:f + n]])
                pool += int(kid_sizes[~ok[f:f + n]].sum())
            pieces.append(part_sizes[keep])
            sizes = np.concatenate(pieces).astype(np.int64)
            if self.mask and pool:
                sizes = np.append(sizes, pool)
            release = _sizes_release(sizes)
            return all(c.evaluate(release).safe for c in self.release_criteria)

        done: list = []
        todo = accepted.tolist()
        while todo and not holds(done + todo):
            lo, hi = 0, len(todo)  # done + todo[:lo] holds, done + todo[:hi] does not
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if holds(done + todo[:mid]):
                    lo = mid
                else:
                    hi = mid
            done += todo[:lo]
            p = todo[lo]
            if p in self.charged:
                self.refund(p)
            chosen[p] = -1
            todo = todo[lo + 1:]

    def advance(self, part_sizes: np.ndarray, split: np.ndarray, n_children: np.ndarray,
                new_base: np.ndarray) -> None:
        """Record the groups finished this level (their allowance goes to the pool); mark
        the suppressed children among the next level's groups and how the split groups
        share their allowance with their children."""
        done = ~split
        allow = self.allowances(part_sizes) if self.budget else None
        self.final_sizes.append(np.asarray(part_sizes[done], dtype=np.int64))
        self.final_fails.append(np.asarray(self.live_fails[done], dtype=bool))
        n_next = int(n_children.sum())
        live = np.zeros(n_next, dtype=bool)
        if self.charged:
            cands, ok = self.level["cands"], self.level["ok"]
            for p, (c, _) in self.charged.items():
                f, n = int(cands["first_child"][c]), int(cands["n_children"][c])
                live[int(new_base[p]) + np.flatnonzero(~ok[f:f + n])] = True
        self.live_fails = live
        if allow is not None:
            self.pool += int(allow[done].sum())
            self.family = (new_base[split], n_children[split], allow[split].copy())
            self.allow = None
        self.charged, self.level = {}, {}

    @property
    def suppressed_groups(self) -> np.ndarray:
        """Per final group (in the order groups are finished): suppressed or not."""
        return (np.concatenate(self.final_fails) if self.final_fails
                else np.zeros(0, dtype=bool))

def _sizes_release(sizes: np.ndarray) -> ReleaseCandidate:
    """Groups of these sizes with one placeholder value: what criteria of class sizes read."""
    return ReleaseCandidate.from_nonzeros(sizes, np.arange(len(sizes)),
                                          np.zeros(len(sizes), dtype=np.int64), sizes,
                                          ("individuals",))


class Rules:
    """The decision rules of Fig. 4 and their state: the policy cells, the global statistics
    SS1..SS5 (minima over every group queued), Q, and the number of candidates evaluated.

    ``min_size`` switches the safety rule to plain k-anonymity (every group at least that
    large), for the k-anonymity baseline.  A search strategy asks :meth:`decide` for a
    level's choices; the Dask source's workers call :meth:`ordered`, :meth:`level_terms` and
    :meth:`verdicts` against statistics the client broadcasts."""

    def __init__(self, plan: PolicyPlan, n_values: int, semantics: str, split: str,
                 min_size: int | None = None, progress=None):
        self.min_size = min_size
        self.progress = progress
        self.semantics = semantics
        self.split = split
        self.n_values = n_values
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
        self.exact_memo: dict = {}
        self.n_candidates = 0
        self.n_rows = 0  # of the search, for progress
        self.placed = 0  # rows already in final groups
        self.pending: list[tuple[int, int]] = []  # (first child, number) of accepted ones
        self.criteria: CriteriaRule | None = None  # combined criteria, attached by anonymize()
        self.level_sizes = np.zeros(0, dtype=np.int64)  # the sizes of the level's groups

    @property
    def policy_mode(self) -> bool:
        """True under a skyline policy, False under k-anonymity's size rule."""
        return self.min_size is None

    @property
    def need_counts(self) -> bool:
        """Whether candidates need their children's sensitive counts (a policy, or criteria
        that read them)."""
        return self.policy_mode or self.criteria is not None

    def splitting(self, n_rows: int) -> bool:
        """Whether the search splits at all: some policy cell, or k-anonymity with at least
        ``min_size`` rows, or combined criteria."""
        if self.criteria is not None:
            return True
        return len(self.plan) > 0 if self.min_size is None else n_rows >= self.min_size

    def decide(self, cands: dict, chosen: np.ndarray) -> None:
        """A level's choices: per partition, the candidate accepted (``chosen``, -1 where
        none is), candidates in priority order, under the policy or the size rule."""
        order = self.ordered(cands)
        if self.policy_mode:
            self.accept_level(cands, order, chosen)
            if self.criteria is not None and not self.criteria.local:
                self.criteria.settle(cands, chosen, self.level_sizes)
        else:
            self.choose_by_size(cands, order, chosen)

    def priority_keys(self, cands: dict) -> np.ndarray:
        """Smaller is better: minus the information gain w.r.t. the sensitive attribute
        (LeFevre et al. 2006), or minus the normalized width (Rules), or (``loss``) minus
        the fall of the generalization loss on the split attribute, w - sum_i n_i w_i / n
        (w the group's normalized width, w_i and n_i its children's)."""
        if self.split == "loss":  # the largest fall of the generalization loss (NCP)
            first = cands["first_child"]
            n = np.add.reduceat(cands["sizes"], first).astype(float)
            kept = np.add.reduceat(cands["sizes"] * cands["child_width"], first)
            return -(cands["width"] - kept / np.maximum(n, 1))
        if self.split == "widest" or cands["children"] is None:
            return -cands["width"]
        kids = cands["children"]
        first = cands["first_child"]
        n_kids = len(kids.sizes)
        # one value per individual: a child's counts sum to its size
        total = (kids.sizes.astype(float) if self.semantics == "svpi" else
                 np.bincount(kids.group, weights=kids.count, minlength=n_kids))
        child_h = entropy_sum(kids.group, kids.count, total, n_kids, runs=True) * total
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
        entries, owner = expand(lo[rep], nnz[rep])
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
        parent_h = entropy_sum(parent_of, parent_count, parent_n[rep], len(rep))[
            np.searchsorted(parts, cands["part"])]
        gain = parent_h * parent_n - np.add.reduceat(child_h, first)
        return -gain / np.maximum(parent_n, 1)

    def ordered(self, cands: dict) -> np.ndarray:
        """Candidates sorted by partition, then priority, then attribute (ties)."""
        keys = np.round(self.priority_keys(cands), 12)
        return np.lexsort((cands["attr"], keys, cands["part"]))

    def level_terms(self, cands: dict, which: np.ndarray | None = None) -> dict:
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
            entries, owner = expand(lo_e, kids.rows.indptr[first + cands["n_children"][which]]
                                     - lo_e)
            value = kids.value[entries]
            n_owners = len(which)
        lo = plan.cell_ptr[value]
        # one pair per (child nonzero e, cell of its value)
        if self._one_cell:
            cell, pair = lo, np.arange(len(value), dtype=np.int64)
        else:
            cell, pair = expand(lo, plan.cell_ptr[value + 1] - lo)
        e = pair if entries is None else entries[pair]
        terms, at = self.pair_terms(kids.rows, e, cell)
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

    def pair_terms(self, rows: SortedRows, e: np.ndarray, cell: np.ndarray) -> tuple:
        """The five terms of the pairs (entry ``e[i]`` of ``rows``, policy cell ``cell[i]``)
        as ``(terms, at)``: pair i's are ``terms[...][at[i]]`` (``at`` None: aligned).

        In svpi and mvpi-multiset the terms depend on a pair only through its shape: the
        group size n, the count s, the sum h of the top-l other counts and the cell's
        (l, k, m).  Rows hold their counts in descending order, so successive entries of a
        group often share their shape (every count below the top l with the same value: the
        long tail of a skewed distribution); each run of equal shapes is computed once (the
        pairs taken one slot of their value's cells at a time when cells differ in amounts)."""
        plan = self.plan
        if self.semantics != "mvpi-set" and len(e) >= SHAPES_MIN:
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
        self.queue = QStore(root)
        self.exact_ss: dict = {}  # cell -> (groups of Q covered, five exact minima)

    def choose_by_size(self, cands: dict, order: np.ndarray, chosen: np.ndarray) -> None:
        """k-anonymity's rule: per partition, the first candidate in priority order whose
        children all hold at least ``min_size`` individuals (with combined criteria,
        :meth:`CriteriaRule.choose`)."""
        if self.criteria is not None:
            self.n_candidates += cands["n"]
            self.criteria.choose(cands, order, chosen, self.level_sizes)
            return
        small = np.minimum.reduceat(cands["sizes"], cands["first_child"])
        viable = order[small[order] >= self.min_size]
        # first viable candidate of each partition, in priority order
        parts = cands["part"][viable]
        first = np.unique(parts, return_index=True)[1]
        chosen[parts[first]] = viable[first]
        self.n_candidates += cands["n"]

    def report(self, placed: int) -> None:
        """Progress: the fraction of rows placed in a final group (at least per level and
        per 5% of rows)."""
        if self.progress is not None:
            self.progress(placed / max(self.n_rows, 1))

    def classify(self, ss, pinned, cell):
        """Per combo: clearly unsafe, and too close to call in floating point; ``ss`` (5, X)
        are the statistics with the combo's children, for policy cells ``cell``."""
        return float_verdicts(combine(*ss), self.plan.log_theta[cell], pinned)

    def verdicts(self, combos: dict, at):
        """(unsafe, unsure) of the combos ``at`` (a slice or positions) against the current
        global statistics; a combo that lowers no statistic keeps the global verdict, which
        is safe."""
        cell = combos["cell"][at]
        return self.judge(cell, combos["mins"][:, at], combos["pinned"][at], self.ss[:, cell])

    def judge(self, cell, mins, pinned, current):
        """(unsafe, unsure) of combos of policy cells ``cell`` with minima ``mins`` and pins
        ``pinned`` against the statistics ``current`` (5, X); a combo that lowers none of them
        keeps their verdict, which is safe."""
        changed = (mins < current).any(axis=0) | pinned
        unsafe, unsure = self.classify(np.minimum(current, mins), pinned | self.pinned[cell],
                                        cell)
        return unsafe & changed, unsure & changed

    def accept_level(self, cands: dict, order: np.ndarray, chosen: np.ndarray) -> None:
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
        self.pending = []
        sweep = LevelSweep(self, cands)
        # the candidates of a partition are contiguous in queue order
        parts = cands["part"][order]
        runs = np.flatnonzero(np.concatenate([[True], parts[1:] != parts[:-1]]))
        run_end = np.append(runs[1:], len(order))
        # heads: a round per priority rank, over the partitions whose candidate was unsafe
        head_at = runs.copy()  # position in ``order`` of each partition's head
        found = np.zeros(len(runs), dtype=bool)
        todo = np.arange(len(runs))
        pinning = self.pinning(cands)
        if self.criteria is not None:  # ruled out by the combined criteria, like a pin
            blocked = self.criteria.blocked(cands, self.level_sizes)
            pinning = blocked if pinning is None else pinning | blocked

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
        self.report(placed)
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

        r, width = 0, WINDOW
        while r < len(heads):
            window = heads[r:r + width]
            fail = sweep.first_failure(window)
            sweep.accept_all(window[:fail] if fail is not None else window, chosen)
            if fail is None:
                r += len(window)
                width = min(2 * width, WINDOW_MAX)
                continue
            j = r + fail
            if not decide(j):
                placed += int(part_rows[parts[runs[viable[j]]]])  # last chance failed: final
                if placed >= next_report:
                    self.report(placed)
                    next_report = placed + step
            r = j + 1
            width = max(width // 2, WINDOW)
        self.flush_pending(cands["children"])

    def pinning(self, cands: dict) -> np.ndarray | None:
        """Per candidate, whether a child holding some value has n <= k + m (BP = 1: unsafe
        whatever the statistics), when every value has cells and they all share k + m;
        None otherwise."""
        if self._pin_reach is None:
            return None
        kids = cands["children"]
        holds = np.diff(kids.rows.indptr) > 0
        return np.logical_or.reduceat(holds & (kids.sizes <= self._pin_reach),
                                      cands["first_child"])

    def flush_pending(self, kids: SparseGroups) -> None:
        """Add the children accepted so far in this level to Q (for exact fallbacks).

        Each accepted candidate's children are a range of children, whose nonzeros are a
        range of ``kids``: only those are read, never the whole level."""
        if not self.pending:
            return
        # Q's order does not matter for minima; ascending ids keep the rows sorted
        pending = np.array(sorted(self.pending), dtype=np.int64).reshape(-1, 2)
        self.pending = []
        first, n_children = pending[:, 0], pending[:, 1]
        child, _ = expand(first, n_children)
        indptr = kids.rows.indptr
        lo = indptr[first]
        entries, owner = expand(lo, indptr[first + n_children] - lo)
        # new ids number the accepted children in order
        shift = (np.cumsum(n_children) - n_children) - first
        # a subset of sorted rows, renumbered in order, stays sorted
        self.queue.add(SparseGroups(kids.sizes[child], kids.group[entries] + shift[owner],
                                    kids.value[entries], kids.count[entries], presorted=True))

    # -- exact arithmetic near the threshold
    def exact_minima(self, groups: SparseGroups, idx: np.ndarray, cell: int) -> list:
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
            if memo_key not in self.exact_memo:
                n, s, top = key
                self.exact_memo[memo_key] = exact_terms(n, s, top, k, m, self.semantics)
            return self.exact_memo[memo_key]

        if (len(idx) <= EXACT_FEW and m <= EXACT_FEW and self.semantics != "mvpi-multiset"
                and (self.semantics == "svpi" or l <= EXACT_FEW)):
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

    def exact_unsafe(self, cell: int, kids: SparseGroups, first: int, n_children: int,
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
                return self.exact_unsafe(cell, kids, first, n_children)
            for i in range(5):
                need_q[i] = q_mins[i] <= kid_mins[i] or close_one(q_mins[i], kid_mins[i])
                need_kids[i] = kid_mins[i] <= q_mins[i] or close_one(kid_mins[i], q_mins[i])
            needed = {i for term in near for i in term}
            need_q = [q and i in needed for i, q in enumerate(need_q)]
            need_kids = [k and i in needed for i, k in enumerate(need_kids)]
        exact = [INF] * 5
        if any(need_q):
            self.flush_pending(kids)
            covered, values = self.exact_ss.get(cell, (0, [INF] * 5))
            for groups, idx in self.queue.holders_since(j, covered):
                values = [min(a, b) for a, b in
                          zip(values, self.exact_minima(groups, idx, cell))]
            self.exact_ss[cell] = (self.queue.n_groups, values)
            exact = [v if q else INF for v, q in zip(values, need_q)]
        if any(need_kids):
            lo, hi = kids.rows.indptr[first], kids.rows.indptr[first + n_children]
            kid_idx = lo + np.flatnonzero(kids.value[lo:hi] == j)
            exact = [min(a, b) if k else a for a, b, k in
                     zip(exact, self.exact_minima(kids, kid_idx, cell), need_kids)]

        bp = exact_breach_probability(exact_negated_ratio(exact, near))
        return not bp < self.plan.c_exact[cell]



def entropy_sum(owner: np.ndarray, count: np.ndarray, total: np.ndarray, n: int,
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


