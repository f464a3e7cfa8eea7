"""Full-domain (global recoding) optimal search over the lattice of hierarchy levels.

Every record of a released column is generalized to the same level of that column's
hierarchy; a *node* of the lattice is one level per quasi-identifier, and node ``a`` is a
specialization of ``b`` when ``a <= b`` level by level.  The search returns the safe node that
minimises the objective, with the generalization of Samarati (2001) and the search strategy
of ARX's Flash (Kohlmayer et al. 2012) in outline, written from their papers:

* class counts come from ONE base histogram of the distinct (QI codes, sensitive value)
  tuples: a node maps each QI's base codes to the codes of its level (a table per QI and
  level, built once) and regroups the histogram with numpy; the rows are never read again;
* a node is checked by building its :class:`~skyprivacy.release.ReleaseCandidate`
  (``from_nonzeros``) and evaluating every criterion; with a suppression budget the rows of
  the groups that fail a per-group criterion are suppressed when they fit the budget, and
  every criterion is then evaluated on what is released (the kept groups, plus the masked
  group with ``suppressed="mask"``);
* monotone pruning both ways (a safe node's generalizations are safe; an unsafe node's
  specializations are unsafe), only when every criterion declares itself monotone in the
  setting (:meth:`~skyprivacy.criteria.Criterion.is_monotone`, with ``suppression`` when a
  budget is given; never with ``suppressed="mask"``, where the masked group may shrink
  below what a criterion needs as the node generalizes);
* predictive tagging: nodes are tagged safe or unsafe by inference from the nodes checked
  (the minimal safe and maximal unsafe nodes found), and only untagged nodes are checked;
* best-first order by an exact lower bound of the objective (the objective without
  suppression, monotone along generalization; a suppressed row costs at least what any
  generalization of it costs), so the search stops as soon as no unexplored node can win.

The objectives (exact: integers and fractions, ties broken by the smaller levels tuple):

``loss``
    Generalization information loss, ARX's Loss / NCP (Iyengar 2002; Xu et al. 2006): per
    QI, the mean over records of (leaves under the released value - 1) / (leaves of the
    domain - 1), averaged over the QIs; a suppressed record costs 1 per QI.
``height``
    The sum of the levels (Samarati 2001).
``discernibility``
    The sum of squared class sizes, a suppressed row charged N (Bayardo and Agrawal 2005).
``aecs``
    The average equivalence class size, N / classes, the suppressed rows one class
    (LeFevre, DeWitt and Ramakrishnan 2006).

The node-level objective functions live here (over a node's class sizes and per-QI level
tables); :mod:`skyprivacy.utility` keeps the measures of any release against its table.

References
----------
Samarati (2001), "Protecting respondents' identities in microdata release", IEEE TKDE 13(6).
Kohlmayer, Prasser, Eckert, Kemper and Kuhn (2012), "Flash: efficient, stable and optimal
k-anonymity", PASSAT.  Iyengar (2002), KDD.  Xu, Wang, Pei, Wang, Shi and Fu (2006),
"Utility-based anonymization using local recoding", KDD.  Bayardo and Agrawal (2005), ICDE.
LeFevre, DeWitt and Ramakrishnan (2006), "Mondrian multidimensional k-anonymity", ICDE.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pandas as pd
from sortedcontainers import SortedList

from .._core.display import Shown, head_rows, result_html, result_repr
from .._core.encoding import factorize, require_columns
from .._core.exact import decimal_fraction, is_real
from ..criteria import as_criteria
from ..errors import InfeasibleError, InvalidParameterError, SchemaError, param_error
from ..hierarchy import Hierarchy
from ..release import ReleaseCandidate, check_semantics, encode_sensitive

__all__ = ["OBJECTIVES", "SUPPRESSED", "AnonymizeResult", "full_domain_search",
           "NodeVerdict", "Lattice"]

OBJECTIVES = ("loss", "height", "discernibility", "aecs")
SUPPRESSED = ("drop", "mask")
#: The label of every QI of a masked (suppressed) row.
MASK = "*"


@dataclass(frozen=True)
class NodeVerdict:
    """What checking one node gives: safe or not, the suppressed rows, the objective."""

    levels: tuple
    safe: bool
    suppressed: int
    objective: int | Fraction | None
    failing: tuple = ()


@dataclass(frozen=True)
class AnonymizeResult:
    """The result of :func:`skyprivacy.anonymize`: the release and how it was found.

    Attributes
    ----------
    table : pandas.DataFrame
        The released table (the caller's index; suppressed rows dropped, or with every QI
        ``'*'`` under ``suppressed='mask'``).
    levels : dict or None
        The chosen level of each QI (full-domain; None for Mondrian).
    objective : str
    value : int, Fraction or None
        The objective at the optimum (exact; None for Mondrian).
    suppressed : int
        Rows suppressed.
    candidate : ReleaseCandidate
        The QI-groups of the released table.
    nodes_checked : int or None
        Nodes whose criteria were evaluated (full-domain).
    lattice_size : int or None
    frontier : tuple of dict or None
        The minimal safe nodes, when asked for (``frontier=True``) and the criteria are
        monotone; else None.
    """

    table: pd.DataFrame
    levels: dict | None
    objective: str
    value: int | Fraction | None
    suppressed: int
    candidate: ReleaseCandidate
    nodes_checked: int | None
    lattice_size: int | None
    method: str = "full-domain"
    frontier: tuple | None = None
    criteria: tuple = field(default=())

    def to_dict(self) -> dict:
        return {"method": self.method, "levels": dict(self.levels or {}),
                "objective": self.objective,
                "value": None if self.value is None else float(self.value),
                "suppressed": self.suppressed, "nodes_checked": self.nodes_checked,
                "lattice_size": self.lattice_size, "n_groups": self.candidate.n_groups}

    def to_frame(self) -> pd.DataFrame:
        """One row: the method, the chosen levels, the objective and the search's figures."""
        row = self.to_dict()
        levels = row.pop("levels")
        row.update({f"level[{name}]": level for name, level in levels.items()})
        return pd.DataFrame([row])

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        facts = (("method", self.method), ("rows", len(self.table)),
                 ("groups", self.candidate.n_groups), ("suppressed", self.suppressed),
                 ("objective", self.objective),
                 ("value", None if self.value is None else float(self.value)),
                 ("levels", None if self.levels is None else
                  ", ".join(f"{k}={v}" for k, v in self.levels.items())),
                 ("nodes_checked", self.nodes_checked), ("lattice_size", self.lattice_size),
                 ("criteria", len(self.criteria)))
        return Shown(None, None, tuple((k, v) for k, v in facts if v is not None), None,
                     head_rows(self.to_frame), 1)


# ----------------------------------------------------------------------------- the lattice
class Lattice:
    """The base histogram of a table and the lattice of its QIs' hierarchy levels.

    Built once from the rows; every node is then evaluated from the histogram alone.
    """

    def __init__(self, table: pd.DataFrame, qi: list, sensitive, hierarchies: Mapping,
                 semantics: str, missing: str):
        self.qi = list(qi)
        self.hierarchies = [hierarchies[name] for name in self.qi]
        self.heights = np.array([h.height for h in self.hierarchies], dtype=np.int64)
        self.n_rows = len(table)
        columns = []
        self.level_codes: list[list[np.ndarray]] = []  # per QI, per level: base code -> code
        self.level_labels: list[list[np.ndarray]] = []  # per QI, per level: code -> label
        self.level_cost: list[list[np.ndarray]] = []  # per QI, per level: base code -> leaves-1
        self.domain: list[int] = []  # per QI, leaves of the domain - 1
        for name, hierarchy in zip(self.qi, self.hierarchies):
            codes, uniques = factorize(table[name])
            columns.append(codes)
            distinct = pd.Series(uniques, dtype=object)
            leaves = pd.Series(list(hierarchy.leaves), dtype=object)
            per_level, labels_of, costs = [], [], []
            for level in range(hierarchy.height + 1):
                labels = np.asarray(hierarchy.generalize(distinct, level), dtype=object)
                mapped, label_uniques = pd.factorize(labels)
                per_level.append(mapped.astype(np.int64))
                labels_of.append(np.asarray(label_uniques, dtype=object))
                leaf_labels = pd.Series(hierarchy.generalize(leaves, level), dtype=object)
                under = leaf_labels.value_counts()
                costs.append(under.reindex(labels).to_numpy(dtype=np.int64) - 1)
            self.level_codes.append(per_level)
            self.level_labels.append(labels_of)
            self.level_cost.append(costs)
            self.domain.append(len(hierarchy.leaves) - 1)
        base, row_tuple = _distinct_rows(columns, self.n_rows)
        self.base = base.astype(np.int64)  # distinct QI code tuples
        self.base_sizes = np.bincount(row_tuple, minlength=len(base)).astype(np.int64)
        self.row_tuple = row_tuple
        elem_row, elem_val, values = encode_sensitive(table[sensitive], semantics=semantics,
                                                      missing=missing)
        self.values = values
        self.semantics = semantics
        pair = row_tuple[elem_row].astype(np.int64) * max(len(values), 1) + elem_val
        pairs, pair_counts = np.unique(pair, return_counts=True)
        self.pair_tuple, self.pair_value = np.divmod(pairs, max(len(values), 1))
        self.pair_count = pair_counts.astype(np.int64)
        self.size = int(np.prod(self.heights + 1))
        self.current: tuple = ()  # the node of the last groups() call
        # per QI and level, the records' summed cost (leaves under the value - 1): the loss
        # of a node without suppression is a sum of these, over a common denominator
        self.common = int(np.lcm.reduce([max(d, 1) for d in self.domain])) if self.domain \
            else 1
        self.level_loss = [[int(np.dot(self.base_sizes, cost[self.base[:, j]]))
                            * (self.common // max(self.domain[j], 1))
                            for cost in self.level_cost[j]] for j in range(len(self.qi))]

    # -- nodes
    def nodes(self) -> list[tuple]:
        return list(itertools.product(*(range(h + 1) for h in self.heights.tolist())))

    def groups(self, levels: tuple) -> tuple[np.ndarray, int]:
        """The group of every base tuple at a node, and the number of groups."""
        key = np.zeros(len(self.base), dtype=np.int64)
        radix = 1
        for j, level in enumerate(levels):
            codes = self.level_codes[j][level][self.base[:, j]]
            width = len(self.level_labels[j][level])
            if radix * width >= 2 ** 62:  # recompress before the key overflows
                _, key = np.unique(key, return_inverse=True)
                key = key.reshape(-1).astype(np.int64)
                radix = int(key.max()) + 1 if len(key) else 1
            key = key * width + codes
            radix *= width
        self.current = tuple(levels)
        if radix <= 4 * len(key) + 1024:  # a presence table beats sorting
            present = np.zeros(radix, dtype=bool)
            present[key] = True
            rank = np.cumsum(present) - 1
            return rank[key], int(rank[-1]) + 1 if radix else 0
        uniq, group = np.unique(key, return_inverse=True)
        return group.reshape(-1), len(uniq)

    def release(self, group: np.ndarray, n_groups: int, keep: np.ndarray | None = None,
                mask: bool = False) -> ReleaseCandidate | None:
        """The ReleaseCandidate of the groups (those with ``keep`` True; the others in one
        masked group at the end when ``mask``), or None when nothing is released."""
        sizes = np.bincount(group, weights=self.base_sizes, minlength=n_groups).astype(np.int64)
        pg = group[self.pair_tuple]
        value, count = self.pair_value, self.pair_count
        if keep is None:
            return self._candidate(sizes, pg, value, count, self.values)
        new = np.cumsum(keep) - 1
        n_kept = int(keep.sum())
        masked = int(sizes[~keep].sum())
        if mask and masked:
            # a kept group already labelled '*' everywhere is the masked group itself
            target = self.masked_group(group, n_groups, keep)
            new = np.where(keep, new, n_kept if target is None else new[target])
            sizes = sizes[keep]
            if target is None:
                sizes = np.append(sizes, masked)
            else:
                sizes[new[target]] += masked
            return self._candidate(sizes, new[pg], value, count, self.values)
        if n_kept == 0:
            return None
        on = keep[pg]
        # only the values still released: a criterion over the release's values (the
        # ordered distance of t-closeness) reads the same release as the released table's
        present, value = np.unique(value[on], return_inverse=True)
        return self._candidate(sizes[keep], new[pg[on]], value.reshape(-1), count[on],
                               [self.values[v] for v in present])

    def _candidate(self, sizes, group, value, count, values) -> ReleaseCandidate:
        """The candidate of (group, value, count) entries, repeated pairs summed: through a
        dense count matrix when it is small (a bincount, no sort), else the nonzeros."""
        cells = len(sizes) * len(values)
        if cells <= 4 * len(group) + 4096:
            counts = np.bincount(group * len(values) + value, weights=count, minlength=cells)
            return ReleaseCandidate.from_counts(
                sizes, counts.astype(np.int64).reshape(len(sizes), len(values)), values,
                semantics=self.semantics)
        return ReleaseCandidate.from_nonzeros(sizes, group, value, count, values,
                                              semantics=self.semantics)

    def masked_group(self, group: np.ndarray, n_groups: int, keep: np.ndarray) -> int | None:
        """The kept group whose every QI label is ``'*'`` (the masked rows join it), or None."""
        first = np.full(n_groups, -1, dtype=np.int64)
        first[group[::-1]] = np.arange(len(group))[::-1]
        levels = self.current
        for g in np.flatnonzero(keep):
            labels = [self.level_labels[j][level][self.level_codes[j][level][self.base[
                first[g], j]]] for j, level in enumerate(levels)]
            if all(label == MASK for label in labels):
                return int(g)
        return None

    # -- objectives
    def lower_bound(self, levels: tuple, objective: str, sizes: np.ndarray | None = None):
        """The objective with nothing suppressed: a lower bound of it under any
        suppression, monotone along generalization."""
        if objective == "loss":  # the per-level sums, exactly
            total = sum(self.level_loss[j][level] for j, level in enumerate(levels))
            return Fraction(total, self.common * self.n_rows * max(len(levels), 1))
        return self.objective(levels, objective, sizes, None)

    def objective(self, levels: tuple, objective: str, sizes: np.ndarray | None,
                  kept_tuples: np.ndarray | None, n_suppressed: int = 0):
        """The objective of a node (``kept_tuples``: the base tuples released, None for all;
        ``sizes``: the released class sizes, the suppressed rows not among them)."""
        n = self.n_rows
        if objective == "height":
            return int(sum(levels))
        if objective == "loss":
            weights = self.base_sizes if kept_tuples is None else \
                np.where(kept_tuples, self.base_sizes, 0)
            total = Fraction(0)
            for j, level in enumerate(levels):
                if self.domain[j] == 0:
                    total += n_suppressed
                    continue
                cost = self.level_cost[j][level][self.base[:, j]]
                total += Fraction(int(np.dot(weights, cost)) + n_suppressed * self.domain[j],
                                  self.domain[j])
            return total / (n * max(len(levels), 1))
        assert sizes is not None
        if objective == "discernibility":
            return int(np.dot(sizes, sizes)) + n_suppressed * n
        # aecs: the suppressed rows count as one class
        return Fraction(n, len(sizes) + (1 if n_suppressed else 0))


def _distinct_rows(columns: list, n_rows: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct code tuples of the rows and each row's tuple: one mixed-radix key per
    row when the codes fit 63 bits (a 1-D unique), else a unique over the rows."""
    widths = [int(c.max()) + 1 if len(c) else 1 for c in columns]
    if float(np.prod([float(w) for w in widths])) < 2.0 ** 62:
        key = np.zeros(n_rows, dtype=np.int64)
        for codes, width in zip(columns, widths):
            key = key * width + codes
        uniq, row_tuple = np.unique(key, return_inverse=True)
        base = np.empty((len(uniq), len(columns)), dtype=np.int64)
        rest = uniq
        for j in range(len(columns) - 1, -1, -1):
            rest, base[:, j] = np.divmod(rest, widths[j])
        return base, row_tuple.reshape(-1)
    base, row_tuple = np.unique(np.column_stack(columns), axis=0, return_inverse=True)
    return base, row_tuple.reshape(-1)


# ----------------------------------------------------------------------------- checking
@dataclass
class _Checker:
    lattice: Lattice
    criteria: list
    budget: int
    mask: bool
    objective: str
    checked: int = 0

    def check(self, levels: tuple) -> NodeVerdict:
        """Evaluate the criteria at a node, suppressing within the budget."""
        self.checked += 1
        lat = self.lattice
        group, n_groups = lat.groups(levels)
        release = lat.release(group, n_groups)
        assert release is not None
        sizes = release.sizes_array
        per_group = [c for c in self.criteria if c.per_group]
        failing = np.zeros(n_groups, dtype=bool)
        for criterion in per_group:
            failing |= ~np.asarray(criterion.group_safe(release), dtype=bool)
        n_suppressed = int(sizes[failing].sum())
        if n_suppressed > self.budget:
            return NodeVerdict(levels, False, n_suppressed, None, ("suppression budget",))
        if n_suppressed:
            released = lat.release(group, n_groups, ~failing, self.mask)
        else:
            released = release
        if released is None:
            return NodeVerdict(levels, False, n_suppressed, None, ("nothing released",))
        bad = tuple(repr(c) for c in self.criteria
                    if not (bool(np.all(c.group_safe(released))) if c.per_group
                            else c.evaluate(released).safe))
        if bad:
            return NodeVerdict(levels, False, n_suppressed, None, bad)
        kept_sizes = sizes[~failing]
        value = lat.objective(levels, self.objective, kept_sizes,
                              (~failing)[group] if n_suppressed else None, n_suppressed)
        return NodeVerdict(levels, True, n_suppressed, value)


def _dominated(node: np.ndarray, others: list, below: bool) -> bool:
    """Whether some node in ``others`` is <= ``node`` (``below``) or >= it, level by level."""
    if not others:
        return False
    stack = np.asarray(others)
    return bool((stack <= node).all(axis=1).any() if below else
                (stack >= node).all(axis=1).any())


class _Tags:
    """Predictive tagging: the minimal safe and maximal unsafe nodes checked so far, which
    tag every generalization safe and every specialization unsafe (monotone criteria)."""

    def __init__(self, checker: _Checker):
        self.checker = checker
        self.safe_min: list = []
        self.unsafe_max: list = []
        self.verdicts: dict = {}  # every node checked, by levels

    def status(self, node: np.ndarray) -> bool | None:
        if _dominated(node, self.unsafe_max, below=False):
            return False
        if _dominated(node, self.safe_min, below=True):
            return True
        return None

    def check(self, levels: tuple) -> NodeVerdict:
        verdict = self.verdicts.get(levels)
        if verdict is None:
            verdict = self.verdicts[levels] = self.checker.check(levels)
        node = np.asarray(levels)
        if verdict.safe and not _dominated(node, self.safe_min, below=True):
            self.safe_min[:] = [s for s in self.safe_min if not (node <= s).all()]
            self.safe_min.append(node)
        elif not verdict.safe and not _dominated(node, self.unsafe_max, below=False):
            self.unsafe_max[:] = [u for u in self.unsafe_max if not (node >= u).all()]
            self.unsafe_max.append(node)
        return verdict

    def classify(self, levels: tuple, heights: np.ndarray) -> None:
        """Tag ``levels`` by a binary search for the lowest safe node on a chain from the
        bottom to the top of the lattice through it (Flash's paths, in outline)."""
        chain = _chain(np.asarray(levels), heights)
        lo, hi = 0, len(chain)  # the lowest safe position lies in [lo, hi]
        while lo < hi:
            known = [self.status(node) for node in chain[lo:hi]]
            base = lo
            unsafe = [i for i, k in enumerate(known) if k is False]
            safe = [i for i, k in enumerate(known) if k is True]
            if unsafe:
                lo = base + unsafe[-1] + 1
            if safe:
                hi = min(hi, base + safe[0])
            if lo >= hi:
                break
            mid = (lo + hi) // 2
            if self.check(tuple(int(x) for x in chain[mid])).safe:
                hi = mid
            else:
                lo = mid + 1


def _chain(node: np.ndarray, heights: np.ndarray) -> list:
    """A chain of the lattice from the bottom to the top through ``node``: down by lowering
    the relatively highest level, up by raising the relatively lowest."""
    relative = np.maximum(heights, 1)
    down, current = [], node.copy()
    while current.any():
        j = int(np.argmax(np.where(current > 0, current / relative, -1)))
        current = current.copy()
        current[j] -= 1
        down.append(current)
    up, current = [], node.copy()
    while (current < heights).any():
        j = int(np.argmin(np.where(current < heights, current / relative, np.inf)))
        current = current.copy()
        current[j] += 1
        up.append(current)
    return [*reversed(down), node, *up]


def _search(checker: _Checker, prune: bool, exhaustive: bool, want_frontier: bool):
    """Best-first over the lattice by (lower bound, levels); returns (best verdict, frontier).

    A node whose bound is not below the best found cannot win (the objective is at least
    its bound), so the search stops there; an untagged node is classified first by
    :meth:`_Tags.classify` when pruning is allowed."""
    lat = checker.lattice
    objective = checker.objective
    need_sizes = objective in ("discernibility", "aecs")
    keys = []
    for levels in lat.nodes():
        sizes = None
        if need_sizes:
            group, n_groups = lat.groups(levels)
            sizes = np.bincount(group, weights=lat.base_sizes, minlength=n_groups)
        keys.append((lat.lower_bound(levels, objective, sizes), levels))
    order = SortedList(keys)
    tags = _Tags(checker)
    best: tuple | None = None  # (value, levels, verdict)
    no_suppression = checker.budget == 0
    for bound, levels in order:
        if not exhaustive and best is not None and (bound, levels) >= best[:2]:
            break
        node = np.asarray(levels)
        if prune:
            status = tags.status(node)
            if status is None:
                tags.classify(levels, lat.heights)
                status = tags.status(node)
            if status is False:
                continue
            if levels in tags.verdicts:
                verdict = tags.verdicts[levels]
            elif no_suppression:  # tagged safe, nothing suppressed: the objective is the bound
                verdict = NodeVerdict(levels, True, 0, bound)
            else:
                verdict = tags.check(levels)
        else:
            verdict = checker.check(levels)
        if verdict.safe:
            key = (verdict.objective, levels)
            if best is None or key < best[:2]:
                best = (verdict.objective, levels, verdict)
    frontier = None
    if want_frontier and prune:
        frontier = _frontier(checker, tags.safe_min, tags.unsafe_max)
    return best, frontier


def _frontier(checker: _Checker, safe_min: list, unsafe_max: list) -> tuple:
    """Every minimal safe node: the untagged nodes are checked, lowest first."""
    lat = checker.lattice
    for levels in sorted(lat.nodes(), key=lambda n: (sum(n), n)):
        node = np.asarray(levels)
        if _dominated(node, unsafe_max, below=False) or _dominated(node, safe_min, below=True):
            continue
        if checker.check(levels).safe:
            safe_min.append(node)
        else:
            unsafe_max[:] = [u for u in unsafe_max if not (node >= u).all()]
            unsafe_max.append(node)
    return tuple(sorted(tuple(int(x) for x in s) for s in safe_min))


# ----------------------------------------------------------------------------- the API
def _checked_hierarchies(table: pd.DataFrame, qi: list, hierarchies, owner: str) -> dict:
    given = dict(hierarchies or {})
    for name in given:
        if name not in qi:
            raise param_error("hierarchies", owner, f"name QI columns only ({qi})", name)
    out = {}
    for name in qi:
        hierarchy = given.get(name)
        if hierarchy is None:
            column = table[name]
            if pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column):
                raise InvalidParameterError(
                    f"Column {name!r} is numeric and has no hierarchy; full-domain search "
                    f"needs one per QI: pass hierarchies={{{name!r}: "
                    f"skyprivacy.hierarchy.intervals(values, widths)}}.")
            distinct = pd.unique(column.dropna())
            hierarchy = Hierarchy([[value, MASK] for value in distinct], name=name)
        elif not isinstance(hierarchy, Hierarchy):
            raise param_error("hierarchies", owner, "map QI columns to Hierarchy objects",
                              type(hierarchy).__name__)
        else:
            hierarchy.validate(table[name])
        out[name] = hierarchy
    return out


def suppression_budget(limit, n_rows: int, owner: str) -> int:
    """The number of rows a fraction ``limit`` of the table allows (rounded down, exactly)."""
    exact = decimal_fraction(limit) if is_real(limit) and not isinstance(limit, bool) else None
    if exact is None or not 0 <= exact <= 1:
        raise param_error("suppression_limit", owner, "be a fraction of rows in [0, 1]", limit)
    return int(exact * n_rows)


def full_domain_search(table: pd.DataFrame, *, qi, sensitive, criteria, hierarchies=None,
                       objective: str = "loss", suppression_limit=0.0,
                       suppressed: str = "drop", semantics: str = "svpi",
                       missing: str = "error", frontier: bool = False,
                       exhaustive: bool = False) -> AnonymizeResult:
    """Find the optimal full-domain generalization of a table under combined criteria.

    Parameters
    ----------
    table : pandas.DataFrame
        Not modified.
    qi : str or list of str
        Quasi-identifiers; each needs a hierarchy (a categorical one without gets the flat
        hierarchy value -> ``'*'``).
    sensitive : str
    criteria : Criterion, Policy or list of them
        The release is safe when every one holds (:mod:`skyprivacy.criteria`).
    hierarchies : mapping of QI -> Hierarchy, optional
    objective : {'loss', 'height', 'discernibility', 'aecs'}, default 'loss'
    suppression_limit : float in [0, 1], default 0
        The fraction of rows that may be suppressed.
    suppressed : {'drop', 'mask'}, default 'drop'
        Suppressed rows are removed, or released with every QI ``'*'`` as one group that must
        itself satisfy every criterion.
    semantics : {'svpi', 'mvpi-set', 'mvpi-multiset'}, default 'svpi'
    missing : {'error', 'as_value'}, default 'error'
    frontier : bool, default False
        Also find every minimal safe node (when the criteria are monotone).
    exhaustive : bool, default False
        Check every node (a reference for the pruned search, and for benchmarks).

    Returns
    -------
    AnonymizeResult

    Raises
    ------
    InvalidParameterError
        For a bad parameter, or a numeric QI without a hierarchy.
    InfeasibleError
        If no node of the lattice is safe within the budget.

    Notes
    -----
    See the module docstring for the search and the objectives.

    References
    ----------
    Samarati (2001); Kohlmayer et al. (2012), Flash; Iyengar (2002); Xu et al. (2006);
    Bayardo and Agrawal (2005); LeFevre, DeWitt and Ramakrishnan (2006).

    Examples
    --------
    >>> from skyprivacy.criteria import KAnonymity
    >>> t = pd.DataFrame({"sex": ["F", "F", "M", "M"], "zip": ["1", "2", "1", "2"],
    ...                   "dx": ["a", "b", "a", "b"]})
    >>> r = full_domain_search(t, qi=["sex", "zip"], sensitive="dx", criteria=KAnonymity(2))
    >>> r.levels, r.nodes_checked <= r.lattice_size
    ({'sex': 0, 'zip': 1}, True)
    """
    owner = "anonymize"
    if not isinstance(table, pd.DataFrame):
        raise param_error("table", owner, "be a pandas DataFrame", type(table).__name__)
    qi = [qi] if isinstance(qi, str) else list(qi)
    if not qi:
        raise param_error("qi", owner, "name at least one column", qi)
    require_columns(table, [*qi, sensitive])
    if sensitive in qi:
        raise param_error("sensitive", owner, "not be a QI", sensitive)
    if len(table) == 0:
        raise SchemaError("The table is empty: there is nothing to anonymize.")
    if missing == "error":
        for name in qi:
            n_missing = int(table[name].isna().sum())
            if n_missing:
                raise SchemaError(f"Column {name!r} has {n_missing} missing values; pass "
                                  f"missing='as_value' to treat them as a category.")
    criteria = as_criteria(criteria)
    if objective not in OBJECTIVES:
        raise param_error("objective", owner, f"be one of {list(OBJECTIVES)}", objective)
    if suppressed not in SUPPRESSED:
        raise param_error("suppressed", owner, f"be one of {list(SUPPRESSED)}", suppressed)
    semantics = check_semantics(semantics, owner)
    budget = suppression_budget(suppression_limit, len(table), owner)
    hierarchies = _checked_hierarchies(table, qi, hierarchies, owner)
    lattice = Lattice(table, qi, sensitive, hierarchies, semantics, missing)
    mask = suppressed == "mask"
    checker = _Checker(lattice, criteria, budget, mask and budget > 0, objective)
    with_suppression = budget > 0
    prune = (not exhaustive and not (mask and with_suppression)
             and all(c.is_monotone(semantics, suppression=with_suppression) for c in criteria))
    best, found = _search(checker, prune, exhaustive, frontier)
    if best is None:
        raise InfeasibleError(f"No generalization of {qi} satisfies {criteria} with at most "
                              f"{budget} suppressed rows (suppression_limit="
                              f"{suppression_limit!r}); raise the limit or add levels.")
    value, levels, verdict = best
    released = _released_table(table, lattice, levels, checker, verdict)
    candidate = ReleaseCandidate.from_table(released, sensitive=sensitive, qi=qi,
                                            semantics=semantics, missing=missing)
    return AnonymizeResult(
        table=released, levels=dict(zip(qi, (int(x) for x in levels))), objective=objective,
        value=value, suppressed=verdict.suppressed, candidate=candidate,
        nodes_checked=checker.checked, lattice_size=lattice.size,
        frontier=None if found is None else tuple(dict(zip(qi, f)) for f in found),
        criteria=tuple(repr(c) for c in criteria))


def _released_table(table: pd.DataFrame, lattice: Lattice, levels: tuple, checker: _Checker,
                    verdict: NodeVerdict) -> pd.DataFrame:
    """The table generalized to the node, its suppressed rows dropped or masked."""
    released = table.copy()
    for j, (name, level) in enumerate(zip(lattice.qi, levels)):
        base_codes = lattice.base[lattice.row_tuple, j]
        labels = lattice.level_labels[j][level][lattice.level_codes[j][level][base_codes]]
        released[name] = pd.Series(labels, index=table.index, dtype=object)
    if verdict.suppressed:
        group, n_groups = lattice.groups(levels)
        release = lattice.release(group, n_groups)
        assert release is not None
        failing = np.zeros(n_groups, dtype=bool)
        for criterion in checker.criteria:
            if criterion.per_group:
                failing |= ~np.asarray(criterion.evaluate(release).group_safe, dtype=bool)
        row_failing = failing[group[lattice.row_tuple]]
        if checker.mask:
            released.loc[row_failing, lattice.qi] = MASK
        else:
            released = released.loc[~row_failing]
    return released
