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
  generalization of it costs), so the search stops as soon as no unexplored node can win;
* when the verdict is not monotone (a skyline or l-diversity under suppression), a check
  has two stages: first what the per-group criteria suppress, hence the exact objective
  (a suppressed class's cost is read once from one of its base tuples), then every
  criterion on the release, run only for the node that comes first by (objective, levels)
  among those no unexplored node can precede, so the first safe one is the optimum.  The
  first stage's budget test still prunes when every per-group criterion is monotone with
  suppression (a class it fails subdivides into classes it fails): over the budget, a node
  and its specializations are unsafe.  With dropped rows (svpi) a skyline adds its pinning
  size (:meth:`~skyprivacy.criteria.SkylinePolicy.pinning_size`): a class that small,
  released, pins its values, so its rows count against the budget in that test too; and its
  breach floors (:meth:`~skyprivacy.criteria.SkylinePolicy.breach_floors`): a class where a
  value's count reaches its floor cannot be released, nor can any part of it that keeps too
  many of the value's rows, so the rows that must go from it (``_Checker._forced_rows``, with
  the proof) count too.

The objectives (exact: integers and fractions, ties broken by the smaller levels tuple), each
the measure of the same name in :mod:`skyprivacy.utility` on the released table, computed by
its formulas there (:func:`~skyprivacy.utility.loss_value`, summed over one common
denominator, and the others):

``loss``
    Generalization information loss, ARX's Loss / NCP (Iyengar 2002; Xu et al. 2006): per
    QI, the mean over records of (leaves under the released value - 1) / (leaves of the
    domain - 1), averaged over the QIs; a suppressed record costs 1 per QI.
``precision``
    1 - Sweeney's precision (Sweeney 2002): the mean over QIs and records of level / height,
    a suppressed record at the top.  The search minimises this complement; the public
    measure :func:`~skyprivacy.utility.precision` is the precision itself.
``height``
    The sum of the levels (Samarati 2001).
``discernibility``
    The sum of squared class sizes, a suppressed row charged N (Bayardo and Agrawal 2005).
``aecs``
    The average equivalence class size, N / classes, the suppressed rows one class
    (LeFevre, DeWitt and Ramakrishnan 2006).
``entropy``
    Non-uniform entropy in bits (Gionis and Tassa 2009; ARX): the sum over records and QIs
    of -log2 P(original value | released value) in the original table's distribution, a
    suppressed record's value given the whole domain; summed in fixed point (every log2
    rounded to a multiple of 2^-32) so that it compares exactly.

Each has an exact lower bound, the objective without suppression, non-decreasing along
generalization (:meth:`Lattice.lower_bound` says why suppression never goes below it).

References
----------
Samarati (2001), "Protecting respondents' identities in microdata release", IEEE TKDE 13(6).
Kohlmayer, Prasser, Eckert, Kemper and Kuhn (2012), "Flash: efficient, stable and optimal
k-anonymity", PASSAT.  Iyengar (2002), KDD.  Xu, Wang, Pei, Wang, Shi and Fu (2006),
"Utility-based anonymization using local recoding", KDD.  Bayardo and Agrawal (2005), ICDE.
LeFevre, DeWitt and Ramakrishnan (2006), "Mondrian multidimensional k-anonymity", ICDE.
Sweeney (2002), "Achieving k-anonymity privacy protection using generalization and
suppression", IJUFKS 10(5).  Gionis and Tassa (2009), "k-Anonymization with minimal loss of
information", IEEE TKDE 21(2).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from fractions import Fraction

import numpy as np
import pandas as pd
from sortedcontainers import SortedList

from .._core.canonical import WHITESPACE
from .._core.classification import Classification
from .._core.display import Shown, head_rows, result_html, result_repr
from .._core.encoding import factorize, is_missing, require_columns
from .._core.engines import dispatchable
from .._core.exact import decimal_fraction, is_real
from ..criteria import AverageRisk, KAnonymity, ProsecutorRisk, SkylinePolicy, as_criteria
from ..errors import (
    HierarchyError,
    InfeasibleError,
    InvalidParameterError,
    SchemaError,
    param_error,
)
from ..hierarchy import Hierarchy
from ..release import ReleaseCandidate, check_semantics, encode_sensitive
from ..utility import (
    aecs_value,
    discernibility_value,
    entropy_value,
    exact_dot,
    log2_units,
    precision_value,
)

__all__ = ["OBJECTIVES", "SUPPRESSED", "AnonymizeResult", "full_domain_search",
           "NodeVerdict", "Lattice", "SearchPlan", "Optimum", "Recoding", "checked_columns",
           "plan_search", "search_optimum", "release_rows", "result_of"]

OBJECTIVES = ("loss", "precision", "height", "discernibility", "aecs", "entropy")
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
    classification : Classification or None
        The role of every input column (QIs, sensitive, kept, dropped), as in
        :class:`~skyprivacy.anonymize.released.AnonymizationResult`.
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
    classification: Classification | None = None

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
                 semantics: str, missing: str, weights: np.ndarray | None = None,
                 coded: list | None = None, whitespace: str = "strip"):
        # ``weights``: rows stand for this many records each (the Dask engine's histogram of
        # distinct rows); None, one record a row.  ``coded``: per QI, the (codes, uniques) of
        # its column by _core.encoding.factorize, when the caller has them already
        # ``whitespace``: how text is compared (docs/canonical-text.md), for the hierarchy
        # leaves of the QI cells, the sensitive values and the candidates' value lookups
        self.qi = list(qi)
        self.whitespace = whitespace
        self.hierarchies = [hierarchies[name] for name in self.qi]
        self.heights = np.array([h.height for h in self.hierarchies], dtype=np.int64)
        self.n_rows = len(table) if weights is None else int(np.sum(weights))
        columns = []
        self.uniques: list[list] = []  # per QI, the distinct raw values (code order)
        self.level_codes: list[list[np.ndarray]] = []  # per QI, per level: base code -> code
        self.level_labels: list[list[np.ndarray]] = []  # per QI, per level: code -> label
        self.level_cost: list[list[np.ndarray]] = []  # per QI, per level: base code -> leaves-1
        self.domain: list[int] = []  # per QI, leaves of the domain - 1
        for j, (name, hierarchy) in enumerate(zip(self.qi, self.hierarchies)):
            codes, uniques = factorize(table[name]) if coded is None else coded[j]
            columns.append(codes)
            self.uniques.append(uniques)
            # each distinct value's leaf (the lookup rule of Hierarchy.generalize), then every
            # level from the hierarchy's rows: one lookup per column, not one per level
            leaf = pd.Index(list(hierarchy.leaves)).get_indexer(pd.Index(
                hierarchy.generalize(np.asarray(uniques, dtype=object), 0,
                                     whitespace=whitespace), dtype=object))
            per_level, labels_of, costs = [], [], []
            for level in range(hierarchy.height + 1):
                leaf_codes, label_uniques = pd.factorize(
                    np.array([row[level] for row in hierarchy.rows], dtype=object))
                under = np.bincount(leaf_codes)  # leaves under each label of the level
                per_level.append(leaf_codes[leaf].astype(np.int64))
                labels_of.append(np.asarray(label_uniques, dtype=object))
                costs.append(under[leaf_codes[leaf]].astype(np.int64) - 1)
            self.level_codes.append(per_level)
            self.level_labels.append(labels_of)
            self.level_cost.append(costs)
            self.domain.append(len(hierarchy.leaves) - 1)
        base, row_tuple = _distinct_rows(columns, len(table))
        del columns
        self.base = base.astype(np.int64)  # distinct QI code tuples
        self.base_sizes = _counts(row_tuple, weights, len(base))
        self.row_tuple = row_tuple
        elem_row, elem_val, values = encode_sensitive(table[sensitive], semantics=semantics,
                                                      missing=missing, whitespace=whitespace)
        self.values = values
        self.semantics = semantics
        # the (base tuple, value) counts, built on first use (k-anonymity reads none)
        self._elements = (elem_row, elem_val, weights)
        self.size = int(np.prod(self.heights + 1))
        # per QI and level, the records' summed cost (leaves under the value - 1): the loss
        # of a node without suppression is a sum of these, over a common denominator
        self.common = int(np.lcm.reduce([max(d, 1) for d in self.domain])) if self.domain \
            else 1
        self.level_cost_sum = [[exact_dot(self.base_sizes, cost[self.base[:, j]])
                                for cost in self.level_cost[j]] for j in range(len(self.qi))]
        self.level_loss = [[total * (self.common // max(self.domain[j], 1))
                            for total in self.level_cost_sum[j]] for j in range(len(self.qi))]

    @cached_property
    def pairs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The base histogram's (tuple, value, count) nonzeros, in (tuple, value) order."""
        elem_row, elem_val, weights = self._elements
        n_values = max(len(self.values), 1)
        pair = self.row_tuple[elem_row].astype(np.int64) * n_values + elem_val
        inverse, pairs = pd.factorize(pair, sort=True)
        pair_tuple, pair_value = np.divmod(pairs, n_values)
        return pair_tuple, pair_value, _counts(inverse.reshape(-1), None if weights is None
                                               else np.asarray(weights)[elem_row], len(pairs))

    # -- nodes
    def nodes(self) -> list[tuple]:
        return list(itertools.product(*(range(h + 1) for h in self.heights.tolist())))

    # -- objectives
    @cached_property
    def level_precision(self) -> tuple[int, list[list[int]]]:
        """Per QI and level, level / height over a common denominator (returned first)."""
        heights = [max(int(h), 1) for h in self.heights.tolist()]
        common = int(np.lcm.reduce(heights)) if heights else 1
        return common, [[level * (common // height) for level in range(int(h) + 1)]
                        for h, height in zip(self.heights.tolist(), heights)]

    @cached_property
    def entropy_tables(self) -> tuple[list[list[np.ndarray]], list[list[int]], int]:
        """Per QI and level, L(rows under each label) (L = :func:`~skyprivacy.utility.
        log2_units`) and the level's entropy units without suppression, sum over the rows of
        L(rows under the row's label) - L(rows holding the row's value); and L(N)."""
        units, sums = [], []
        for j in range(len(self.qi)):
            per_level, totals = [], []
            for level, codes in enumerate(self.level_codes[j]):
                mass = np.bincount(codes[self.base[:, j]], weights=self.base_sizes,
                                   minlength=len(self.level_labels[j][level])).astype(np.int64)
                logs = log2_units(np.maximum(mass, 1))
                per_level.append(logs)
                totals.append(exact_dot(mass, logs))
            units.append(per_level)
            sums.append([total - totals[0] for total in totals])
        return units, sums, int(log2_units([self.n_rows])[0])

    def lower_bound(self, levels: tuple, objective: str, sizes: np.ndarray | None = None):
        """The objective with nothing suppressed: exact, and a lower bound of the objective
        under any suppression, non-decreasing along generalization.

        A bound because suppression removes whole groups and charges each of their rows at
        least what any generalization of it costs: 1 per QI in loss and precision (a cell's
        (leaves - 1) / (D - 1) and level / height are at most 1), -log2(c(v) / N) in entropy
        (at least -log2(c(v) / c(E)) for the row's extent E), N in discernibility (at least
        its group's size, n^2 <= n N); in AECS the suppressed groups become one class.
        Non-decreasing because generalizing merges extents and groups: more leaves, a higher
        level, c(E) L(c(E)) summed over merged extents, (a + b)^2 >= a^2 + b^2, fewer
        classes.  Loss, precision and entropy are summed from per-level tables built once."""
        if objective == "loss":  # the per-level sums, exactly
            total = sum(self.level_loss[j][level] for j, level in enumerate(levels))
            return Fraction(total, self.common * self.n_rows * max(len(levels), 1))
        if objective == "precision":
            common, table = self.level_precision
            total = sum(table[j][level] for j, level in enumerate(levels))
            return Fraction(total, common * max(len(levels), 1))
        if objective == "entropy":
            sums = self.entropy_tables[1]
            return entropy_value(sum(sums[j][level] for j, level in enumerate(levels)))
        return self.objective(levels, objective, sizes, None)

    def objective(self, levels: tuple, objective: str, sizes: np.ndarray | None,
                  gone: tuple | None, n_suppressed: int = 0):
        """The objective of a node (``gone``: the suppressed classes, as (a base tuple of
        each, its size), None for none; ``sizes``: the released class sizes, the suppressed
        rows not among them), by the formulas of :mod:`skyprivacy.utility`; ``"precision"``
        is 1 - Sweeney's precision.

        Every record of a class has the same released value of each QI, so what a record
        costs (the leaves under its value, the rows under its label) is read once per
        suppressed class from its base tuple, and the suppressed records' share is taken off
        the per-level sums: the rows are never revisited."""
        n = self.n_rows
        if objective == "height":
            return int(sum(levels))
        if objective == "loss":
            if gone is None:
                return self.lower_bound(levels, objective)
            # loss_value's total over the common denominator of lower_bound: per QI, the
            # kept records' cost / (leaves - 1), and 1 per suppressed record
            rep, size = gone
            total = len(levels) * n_suppressed * self.common
            for j, level in enumerate(levels):
                kept = self.level_cost_sum[j][level] - exact_dot(
                    size, self.level_cost[j][level][self.base[rep, j]])
                total += kept * (self.common // max(self.domain[j], 1))
            return Fraction(total, self.common * n * max(len(levels), 1))
        if objective == "precision":
            kept = n - n_suppressed
            level_sums = [Fraction(kept * level, int(height)) if height else Fraction(0)
                          for level, height in zip(levels, self.heights.tolist())]
            return 1 - precision_value(level_sums, n, n_suppressed)
        if objective == "entropy":
            units, sums, log_n = self.entropy_tables
            total = sum(sums[j][level] for j, level in enumerate(levels))
            if gone is not None:  # a suppressed row costs L(N) instead of L(c(E))
                rep, size = gone
                for j, level in enumerate(levels):
                    under = units[j][level][self.level_codes[j][level][self.base[rep, j]]]
                    total += exact_dot(size, log_n - under)
            return entropy_value(total)
        assert sizes is not None
        if objective == "discernibility":
            return discernibility_value(sizes, n, n_suppressed)
        return aecs_value(n, len(sizes), n_suppressed)


def _distinct_rows(columns: list, n_rows: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct code tuples of the rows and each row's tuple: one mixed-radix key per
    row when the codes fit 63 bits (a 1-D unique), else a unique over the rows."""
    widths = [int(c.max()) + 1 if len(c) else 1 for c in columns]
    if float(np.prod([float(w) for w in widths])) < 2.0 ** 62:
        key = np.zeros(n_rows, dtype=np.int64)
        for codes, width in zip(columns, widths):
            key = key * width + codes
        row_tuple, uniq = pd.factorize(key, sort=True)  # hashing, then sorting the distinct
        base = np.empty((len(uniq), len(columns)), dtype=np.int64)
        rest = uniq
        for j in range(len(columns) - 1, -1, -1):
            rest, base[:, j] = np.divmod(rest, widths[j])
        return base, row_tuple.reshape(-1)
    base, row_tuple = np.unique(np.column_stack(columns), axis=0, return_inverse=True)
    return base, row_tuple.reshape(-1)


def _counts(index: np.ndarray, weights, n: int) -> np.ndarray:
    """How many records fall on each of ``n`` positions (``weights`` per entry, or 1)."""
    if weights is None:
        return np.bincount(index, minlength=n).astype(np.int64)
    return np.bincount(index, weights=np.asarray(weights, dtype=np.float64),
                       minlength=n).round().astype(np.int64)


def _dense_ranks(key: np.ndarray, radix: int,
                 ordered: bool = True) -> tuple[np.ndarray, int]:
    """Dense ranks of non-negative keys below ``radix`` (equal keys, equal ranks; ranks in
    key order unless not ``ordered``) and their number: a presence table when the radix is
    small, else a hash (and a sort of the distinct keys when ``ordered``)."""
    if radix <= 4 * len(key) + 1024:
        present = np.zeros(radix, dtype=bool)
        present[key] = True
        rank = np.cumsum(present, dtype=np.int64) - 1
        return rank[key], int(rank[-1]) + 1 if radix else 0
    rank, uniq = pd.factorize(key, sort=ordered)
    return rank.astype(np.int64, copy=False), len(uniq)


# ----------------------------------------------------------------------------- node states
#: Criteria that read nothing but the class sizes (exact types: a subclass may read more).
_SIZE_ONLY = (KAnonymity, ProsecutorRisk, AverageRisk)
#: Of those, the per-group ones, whose ``group_safe`` reads ``sizes_array`` alone.
_GROUP_SIZE_ONLY = (KAnonymity, ProsecutorRisk)


class _ClassSizes:
    """The class sizes of a node, as the per-group size criteria read them."""

    __slots__ = ("sizes_array",)

    def __init__(self, sizes: np.ndarray):
        self.sizes_array = sizes


@dataclass
class _State:
    """The classes of one node: a base tuple standing for each (``rep``), their sizes and,
    once a criterion has read values there, the (class, value, count) nonzeros (``pairs``)."""

    levels: tuple
    rep: np.ndarray
    sizes: np.ndarray
    pairs: tuple | None = None


class _States:
    """Class counts rolled up, never from the rows: a node's classes come from the cached
    node below it with the fewest classes (the base histogram at worst), whose classes each
    fall whole into one class of the node (a hierarchy maps a value's generalization at a
    lower level to one value at every higher level).  The sizes come first; the value
    counts (``pairs``) only when a criterion reads values at the node, rolled up the same
    way from the cached node below it that has them."""

    def __init__(self, lattice: Lattice, pairs: bool):
        self.lattice = lattice
        self.want_pairs = pairs
        n_base = len(lattice.base)
        self.base = _State((0,) * len(lattice.qi), np.arange(n_base, dtype=np.int64),
                           lattice.base_sizes,
                           lattice.pairs if pairs else None)
        self.base_weights = lattice.base_sizes.astype(np.float64)  # bincount's weights
        self.cache: dict = {}  # levels -> _State, least recently used first
        self.base_codes: dict = {}  # (QI, level) -> the base tuples' codes at the level
        self.held = 0  # array entries held by the cache
        # the cache holds 16 times the base histogram's entries: the nodes of many chains
        # (their roll-ups start close by; on Adult, k = 5, 1%, a tenth of the time of 4
        # times), still well below the table (a row of the base stands for many rows)
        self.capacity = 16 * n_base + 65536
        self.n_values = max(len(lattice.values), 1)
        # the cached states' levels and class counts, one slot each, for a vectorized choice
        # of the source of a roll-up (and whether each has its value counts)
        self.slot_of: dict = {}
        self.free: list = []
        self.slot_levels = np.zeros((0, len(lattice.qi)), dtype=np.int64)
        self.slot_classes = np.zeros(0, dtype=np.int64)
        self.slot_pairs = np.zeros(0, dtype=bool)
        self.from_base: tuple | None = None  # the last node rolled up from the base

    def get(self, levels: tuple, pairs: bool = False) -> _State:
        """The classes of a node (with their value counts when ``pairs``)."""
        state = self.cache.pop(levels, None)
        if state is None:
            source = self._source(levels, pairs)
            if source is self.base and len(self.base.sizes) > 4096:
                source = self._hub(levels, pairs)
            state = self._roll_up(levels, source, pairs)
            self.held += self._entries(state)
            self._occupy(state)
        self.cache[levels] = state
        if pairs and state.pairs is None:
            self.with_pairs(state)
        self._evict()
        return state

    def _hub(self, levels: tuple, pairs: bool) -> _State:
        """A source for a node that would be rolled up from the base: the meet (the levels'
        minimum) of the node and the last one that was, rolled up from the base and cached,
        so that the next nodes above both roll up from its classes, not the base's (the
        probes of :func:`_classify` are high on their chains, rarely above one another, and
        their meets are few and small: on Adult, k = 5, the base's roll-ups fall from 200 to
        about 40 a search)."""
        previous, self.from_base = self.from_base, levels
        if previous is None:
            return self.base
        meet = tuple(min(a, b) for a, b in zip(levels, previous))
        if meet == levels:
            return self.base
        hub = self.cache.pop(meet, None)
        if hub is None:
            hub = self._roll_up(meet, self.base, pairs)
            self.held += self._entries(hub)
            self._occupy(hub)
        self.cache[meet] = hub
        if pairs and hub.pairs is None:
            self.with_pairs(hub)
        return hub

    def with_pairs(self, state: _State) -> tuple:
        """The value counts of a node's classes (rolled up on first use)."""
        if state.pairs is None:
            source = self._source(state.levels, True)
            up, _ = self._classes(state.levels, source.rep)
            state.pairs = self._roll_pairs(up, len(state.sizes), source)
            if self.cache.get(state.levels) is state:
                self.held += 3 * len(state.pairs[0])
                self.slot_pairs[self.slot_of[state.levels]] = True
        return state.pairs

    def _evict(self) -> None:
        while len(self.cache) > 1 and self.held > self.capacity:
            oldest = next(iter(self.cache))
            self.held -= self._entries(self.cache.pop(oldest))
            slot = self.slot_of.pop(oldest)
            self.slot_classes[slot] = -1
            self.free.append(slot)

    def _occupy(self, state: _State) -> None:
        if not self.free:
            grown = max(16, 2 * len(self.slot_classes))
            self.free = list(range(grown - 1, len(self.slot_classes) - 1, -1))
            self.slot_levels = np.resize(self.slot_levels, (grown, self.slot_levels.shape[1]))
            self.slot_classes = np.concatenate(
                [self.slot_classes, np.full(grown - len(self.slot_classes), -1)])
            self.slot_pairs = np.resize(self.slot_pairs, grown)
        slot = self.free.pop()
        self.slot_of[state.levels] = slot
        self.slot_levels[slot] = state.levels
        self.slot_classes[slot] = len(state.sizes)
        self.slot_pairs[slot] = state.pairs is not None

    def _entries(self, state: _State) -> int:
        return 2 * len(state.sizes) + (len(state.pairs[0]) * 3 if state.pairs else 0)

    def _source(self, levels: tuple, pairs: bool) -> _State:
        """The cached state below ``levels`` with the fewest classes (and value counts when
        ``pairs``), or the base."""
        below = (self.slot_classes >= 0) & (self.slot_levels <= np.asarray(levels)).all(axis=1)
        if pairs:
            below &= self.slot_pairs
        if not below.any():
            return self.base
        slots = np.flatnonzero(below)
        slot = int(slots[np.argmin(self.slot_classes[slots])])
        found = self.cache.get(tuple(int(x) for x in self.slot_levels[slot]))
        return self.base if found is None or len(found.sizes) >= len(self.base.sizes) \
            else found

    def codes(self, j: int, level: int) -> np.ndarray:
        """The code at ``level`` of QI ``j`` of every base tuple (built on first use)."""
        codes = self.base_codes.get((j, level))
        if codes is None:
            lat = self.lattice
            codes = self.base_codes[j, level] = lat.level_codes[j][level][
                lat.base[:, j]].astype(np.int32)
        return codes

    def _classes(self, levels: tuple, rep: np.ndarray) -> tuple[np.ndarray, int]:
        """The class at ``levels`` of each base tuple in ``rep``, and the number of classes.

        When value counts are rolled up, classes are numbered in the lexicographic order of
        their codes at ``levels``, so that a node's numbering is the same whichever node its
        classes and its value counts were rolled up from; else in any order."""
        lat = self.lattice
        key = np.zeros(len(rep), dtype=np.int64)
        radix = 1
        every = rep is self.base.rep
        for j, level in enumerate(levels):
            width = len(lat.level_labels[j][level])
            if width == 1:
                continue
            if radix * width >= 2 ** 62:  # recompress (order-preserving) before overflow
                key, radix = _dense_ranks(key, radix, self.want_pairs)
            codes = self.codes(j, level)
            key *= width
            key += codes if every else codes[rep]
            radix *= width
        return _dense_ranks(key, radix, self.want_pairs)

    def _roll_up(self, levels: tuple, source: _State, pairs: bool) -> _State:
        if source.levels == levels:
            return source
        up, n = self._classes(levels, source.rep)
        weights = self.base_weights if source is self.base else source.sizes
        sizes = np.bincount(up, weights=weights, minlength=n).round().astype(np.int64)
        rep = np.empty(n, dtype=np.int64)
        rep[up] = source.rep
        return _State(levels, rep, sizes, self._roll_pairs(up, n, source) if pairs else None)

    def _roll_pairs(self, up: np.ndarray, n: int, source: _State) -> tuple:
        assert source.pairs is not None
        group, value, count = source.pairs
        pair_key = up[group] * self.n_values + value
        if n * self.n_values <= 4 * len(pair_key) + 4096:
            dense = np.bincount(pair_key, weights=count, minlength=n * self.n_values)
            where = np.flatnonzero(dense)
            return (where // self.n_values, where % self.n_values,
                    dense[where].round().astype(np.int64))
        uniq, inverse = np.unique(pair_key, return_inverse=True)
        merged = np.bincount(inverse.reshape(-1), weights=count, minlength=len(uniq))
        return uniq // self.n_values, uniq % self.n_values, merged.round().astype(np.int64)

    def labels(self, state: _State, j: int) -> np.ndarray:
        """The label of QI ``j`` of every class of the node."""
        lat = self.lattice
        level = state.levels[j]
        return lat.level_labels[j][level][self.codes(j, level)[state.rep]]


# ----------------------------------------------------------------------------- checking
def _ranked_counts(group: np.ndarray, count: np.ndarray, n_groups: int) -> tuple:
    """The value counts of each group in falling order: (the rank of every entry within its
    group, each group's first position and size in that order, the running sums)."""
    order = np.lexsort((-count, group))
    per_group = np.bincount(group, minlength=n_groups)
    start = np.concatenate([[0], np.cumsum(per_group)[:-1]])
    rank = np.empty(len(group), dtype=np.int64)
    rank[order] = np.arange(len(group)) - start[group[order]]
    running = np.concatenate([[0], np.cumsum(count[order])])
    return rank, start, per_group, running


def _top_others(ranked: tuple, group: np.ndarray, count: np.ndarray, l: int) -> np.ndarray:
    """Per entry, the sum of the ``l`` largest counts of the other values of its group."""
    rank, start, per_group, running = ranked
    g_start, g_size = start[group], per_group[group]

    def top(j):  # the sum of the j largest counts of each entry's group
        return running[g_start + np.minimum(j, g_size)] - running[g_start]
    return np.where(rank < l, top(l + 1) - count, top(l))


@dataclass(frozen=True)
class _Pending:
    """A node past the first stage of its check: within the budget, its objective known."""

    levels: tuple
    suppressed: int
    objective: int | Fraction


#: Why a node is unsafe when its failing groups hold more rows than the budget.
_OVER_BUDGET = ("suppression budget",)
#: Why, when the failing rows and those of the classes a skyline pins exceed the budget.
_PINNED_OVER = ("suppression budget (with the classes a skyline pins)",)
#: Why, when those and the rows a skyline's breach floor forces out exceed the budget.
_FORCED_OVER = ("suppression budget (with the rows a skyline's breach floor forces out)",)
#: The reasons that hold for every specialization of a node (the budget tests).
_OVER = (_OVER_BUDGET, _PINNED_OVER, _FORCED_OVER)


@dataclass
class _Checker:
    lattice: Lattice
    criteria: list
    budget: int
    mask: bool
    objective: str
    checked: int = 0

    def __post_init__(self):
        self.sizes_only = all(type(c) in _SIZE_ONLY for c in self.criteria)
        # k-anonymity and the prosecutor bound read a group's size alone, through group_safe:
        # a view of the sizes serves them without building a validated model per node
        self.views = all(type(c) in _GROUP_SIZE_ONLY for c in self.criteria)
        self.per_group = [c for c in self.criteria if c.per_group]
        self.states = _States(self.lattice, pairs=not self.sizes_only)
        # criteria that read the released labels at known levels (k-map against a
        # population): bound to each node's levels, and the node's candidate is labelled
        self.labelled = any(hasattr(c, "at_levels") for c in self.criteria)
        self.all_criteria = self.criteria
        # the skylines' pinning sizes, largest first, with the criterion each belongs to: a
        # released class at most that large fails it (single-valued cells only)
        self.pins = sorted(((c.pinning_size(), repr(c)) for c in self.criteria
                            if isinstance(c, SkylinePolicy)
                            and self.lattice.semantics == "svpi"), reverse=True)
        self.pins = [pin for pin in self.pins if pin[0] > 0]
        self.floors = self._breach_floors()
        self._last: tuple | None = None  # the last first stage's classes and failing ones

    def _breach_floors(self) -> tuple | None:
        """The skylines' breach floors (:meth:`~skyprivacy.criteria.SkylinePolicy.
        breach_floors`) as arrays: per distinct (l, k, c = p / q) point, whether it applies
        to each sensitive value, and the skylines' name; None without a skyline, in mvpi,
        or when q n could overflow 63 bits."""
        skylines = [c for c in self.criteria if isinstance(c, SkylinePolicy)]
        if not skylines or self.lattice.semantics != "svpi":
            return None
        values = list(self.lattice.values)
        applies: dict = {}  # (l, k, c) -> per value, whether the point applies to it
        for criterion in skylines:
            for v, points in enumerate(criterion.breach_floors(values)):
                for point in points:
                    applies.setdefault(point, np.zeros(len(values), dtype=bool))[v] = True
        n = max(self.lattice.n_rows, 1)
        if not applies or max(c.denominator for _, _, c in applies) * 4 * n >= 2 ** 62:
            return None
        # k beyond the table changes nothing (n - k - b < 0 either way) and stays small
        return ([(l, min(k, n + 1), c.numerator, c.denominator, on)
                 for (l, k, c), on in applies.items()],
                " AND ".join(repr(c) for c in skylines))

    def _forced_rows(self, state: _State, out: np.ndarray) -> int:
        """The rows that the skylines' breach floors force out of the node's classes not
        in ``out``, in the node and in every specialization of it.

        A released class where a value held a times, with b the l largest counts of the
        other values, has a >= c (n - k - b) breaches a point (l, k, m, c) of the value's
        skyline (:meth:`~skyprivacy.criteria.SkylinePolicy.breach_floors`).  In a
        specialization the class splits, and the kept parts that hold the value each pass
        the test.  If there are any, summing their a_i < c (n_i - k - b_i) (b is
        subadditive, k counts once at least) gives a - r_v < c (n' - k - b') for the r_v
        rows of the value suppressed, where n' - b' (the parts' rows less their l largest
        other counts) is at most n - r_v - b, its value with every other row of the class
        in them: so r_v > h = (a - c (n - k - b)) / (1 - c).  If there are none, r_v = a.
        So at least min(floor(h) + 1, a) rows go (a when c = 1).  The largest of those
        bounds over the values and points is a lower bound of the rows suppressed from the
        class in any safe specialization (or the node itself); summed over the classes,
        with the rows the k part and the pinning size suppress, over the budget means the
        node and its specializations are unsafe."""
        assert self.floors is not None
        group, value, count = self.states.with_pairs(state)
        keep = ~out[group]
        group, value, count = group[keep], value[keep], count[keep]
        if not len(group):
            return 0
        sizes = state.sizes[group]
        per_class = np.zeros(len(state.sizes), dtype=np.int64)
        ranked = None
        for l, k, p, q, applies in self.floors[0]:
            on = applies[value]
            if not on.any():
                continue
            others: np.ndarray | int = 0
            if l:
                if ranked is None:
                    ranked = _ranked_counts(group, count, len(state.sizes))
                others = _top_others(ranked, group, count, l)
            surplus = q * count - p * (sizes - k - others)  # (1 - c) h, times q
            hit = on & (surplus >= 0)
            if not hit.any():
                continue
            a, surplus = count[hit], surplus[hit]
            gap = q - p
            rows = a if gap == 0 else np.minimum(surplus // gap + 1, a)
            np.maximum.at(per_class, group[hit], rows)
        return int(per_class.sum())

    def _bind(self, levels: tuple) -> None:
        """Bind the level-aware criteria to the node being checked."""
        if self.labelled:
            at = dict(zip(self.lattice.qi, (int(x) for x in levels)))
            self.criteria = [c.at_levels(at) if hasattr(c, "at_levels") else c
                             for c in self.all_criteria]
            self.per_group = [c for c in self.criteria if c.per_group]

    def check(self, levels: tuple) -> NodeVerdict:
        """Evaluate the criteria at a node, suppressing within the budget."""
        first = self.first(levels)
        return first if isinstance(first, NodeVerdict) else self.second(first)

    def first(self, levels: tuple) -> NodeVerdict | _Pending:
        """The first stage of a check: the rows the per-group criteria suppress and the
        objective, or the verdict when they exceed the budget (counted as one check).

        The per-group criteria that read class sizes alone go first, on the sizes: when
        their failing rows already exceed the budget, the node is over it, whatever the
        others add, and its value counts are never rolled up."""
        self.checked += 1
        state, failing, n_suppressed = self._last = self._failing(levels)
        if n_suppressed > self.budget:
            return NodeVerdict(levels, False, n_suppressed, None, _OVER_BUDGET)
        if (self.pins or self.floors is not None) and not self.mask:
            # dropped, a class within a skyline's pinning size must be suppressed: kept, it
            # is released and pins its values.  Those rows and the suppressed ones shrink
            # along generalization (both are rows of classes that subdivide), so a node
            # where they exceed the budget is unsafe with all its specializations; so is
            # one where they and the rows the breach floors force out do (_forced_rows)
            sizes = state.sizes
            pinned_classes = np.zeros(len(sizes), dtype=bool)
            if self.pins:
                pinned_classes = (sizes <= self.pins[0][0]) & ~failing
            pinned = int(sizes[pinned_classes].sum())
            if n_suppressed + pinned > self.budget:
                return NodeVerdict(levels, False, n_suppressed, None, _PINNED_OVER)
            forced = 0 if self.floors is None else self._forced_rows(
                state, failing | pinned_classes)
            if n_suppressed + pinned + forced > self.budget:
                return NodeVerdict(levels, False, n_suppressed, None, _FORCED_OVER)
            if pinned:
                return NodeVerdict(levels, False, n_suppressed, None, (self.pins[0][1],))
            if forced:  # a kept class breaches a skyline's floor
                assert self.floors is not None
                return NodeVerdict(levels, False, n_suppressed, None, (self.floors[1],))
        if not n_suppressed:  # the objective with nothing suppressed is the lower bound
            value = self.lattice.lower_bound(levels, self.objective, state.sizes)
        else:
            sizes = state.sizes
            value = self.lattice.objective(levels, self.objective, sizes[~failing],
                                           (state.rep[failing], sizes[failing]), n_suppressed)
        return _Pending(levels, n_suppressed, value)

    def second(self, pending: _Pending) -> NodeVerdict:
        """The second stage: every criterion on what the node releases.  A skyline's pinning
        size (:meth:`~skyprivacy.criteria.SkylinePolicy.pinning_size`) is tried on the
        released class sizes before the closed form."""
        levels, n_suppressed = pending.levels, pending.suppressed
        last = self._last
        if last is not None and last[0].levels == levels:
            state, failing, _ = last
            self._bind(levels)
        else:
            state, failing, _ = self._failing(levels)
        self._last = None
        keep = ~failing if n_suppressed else None
        if self.pins:
            sizes = self._released_sizes(state, keep)
            if sizes is not None and len(sizes) and int(sizes.min()) <= self.pins[0][0]:
                return NodeVerdict(levels, False, n_suppressed, None, (self.pins[0][1],))
        released = self._release(state, keep)
        if released is None:
            return NodeVerdict(levels, False, n_suppressed, None, ("nothing released",))
        bad = tuple(repr(c) for c in self.criteria
                    if not (bool(np.all(c.group_safe(released))) if c.per_group
                            else c.evaluate(released).safe))
        if bad:
            return NodeVerdict(levels, False, n_suppressed, None, bad)
        return NodeVerdict(levels, True, n_suppressed, pending.objective)

    def _failing(self, levels: tuple) -> tuple[_State, np.ndarray, int]:
        """The node's classes, whether a per-group criterion fails each (their rows are the
        suppressed ones) and the rows they hold; the sizes-only criteria first, the others
        only while those stay within the budget."""
        self._bind(levels)
        sized = [c for c in self.per_group if type(c) in _GROUP_SIZE_ONLY]
        valued = [c for c in self.per_group if type(c) not in _GROUP_SIZE_ONLY]
        state = self.states.get(levels, pairs=bool(valued))
        sizes = state.sizes
        failing = np.zeros(len(sizes), dtype=bool)
        view = _ClassSizes(sizes)
        for criterion in sized:
            failing |= ~np.asarray(criterion.group_safe(view), dtype=bool)
        n_suppressed = int(sizes[failing].sum())
        if valued and n_suppressed <= self.budget:
            release = self._release(state, None)
            for criterion in valued:
                failing |= ~np.asarray(criterion.group_safe(release), dtype=bool)
            n_suppressed = int(sizes[failing].sum())
        return state, failing, n_suppressed

    def failing(self, levels: tuple) -> np.ndarray:
        """Per class of the node, whether a per-group criterion fails it (its rows are the
        suppressed ones)."""
        return self._failing(levels)[1]

    def _released_sizes(self, state: _State, keep: np.ndarray | None) -> np.ndarray | None:
        """The sizes of the released classes (the kept ones; the masked rows added to the
        kept class labelled '*' everywhere, else a class of their own), None when nothing
        is released."""
        sizes = state.sizes
        if keep is None:
            return sizes
        masked = int(sizes[~keep].sum())
        if not self.mask:
            return sizes[keep] if keep.any() else None
        kept = sizes[keep]
        if masked:
            target = self._mask_target(state, keep)
            if target is None:
                kept = np.append(kept, masked)
            else:
                kept[int(np.cumsum(keep)[target]) - 1] += masked
        return kept

    def _mask_target(self, state: _State, keep: np.ndarray) -> int | None:
        """The kept class labelled '*' everywhere (the masked rows join it), or None."""
        star = np.ones(len(state.sizes), dtype=bool)
        for j in range(len(state.levels)):
            star &= self.states.labels(state, j) == MASK
        hits = np.flatnonzero(star & keep)
        return int(hits[0]) if len(hits) else None

    def _release(self, state: _State, keep: np.ndarray | None) -> ReleaseCandidate | None:
        """The ReleaseCandidate of the node's classes (those with ``keep`` True; the others
        in one masked class when masking), or None when nothing is released."""
        sizes = state.sizes
        if keep is not None and not self.mask and not keep.any():
            return None
        if self.sizes_only:
            released = self._released_sizes(state, keep)
            assert released is not None
            if self.views:
                return _ClassSizes(released)  # type: ignore[return-value]
            return ReleaseCandidate.from_csr(released, np.arange(len(released) + 1),
                                             np.zeros(len(released), dtype=np.int64),
                                             released, ("individuals",),
                                             semantics=self.lattice.semantics)
        target = None
        if keep is not None and self.mask and int(sizes[~keep].sum()):
            # a kept class labelled '*' everywhere is the masked class itself
            target = self._mask_target(state, keep)
        group, value, count = self.states.with_pairs(state)
        values = self.lattice.values
        labels = self._labels(state, keep, target) if self.labelled else None
        if keep is None:
            return _candidate(sizes, group, value, count, values, self.lattice.semantics,
                              labels, self.lattice.whitespace)
        new = np.cumsum(keep) - 1
        n_kept = int(keep.sum())
        masked = int(sizes[~keep].sum())
        if self.mask and masked:
            new = np.where(keep, new, n_kept if target is None else new[target])
            sizes = sizes[keep]
            if target is None:
                sizes = np.append(sizes, masked)
            else:
                sizes[new[target]] += masked
            return _candidate(sizes, new[group], value, count, values,
                              self.lattice.semantics, labels, self.lattice.whitespace)
        on = keep[group]
        # only the values still released: a criterion over the release's values (the
        # ordered distance of t-closeness) reads the same release as the released table's
        present, value = np.unique(value[on], return_inverse=True)
        return _candidate(sizes[keep], new[group[on]], value.reshape(-1), count[on],
                          [values[v] for v in present], self.lattice.semantics, labels,
                          self.lattice.whitespace)

    def _labels(self, state: _State, keep: np.ndarray | None, target: int | None):
        """The released QI labels of the node's classes (the kept ones, then the masked class
        of '*' when it is a class of its own), as the released table shows them."""
        qi = self.lattice.qi
        arrays = [self.states.labels(state, j) for j in range(len(qi))]
        if keep is not None:
            arrays = [a[keep] for a in arrays]
            if self.mask and int(state.sizes[~keep].sum()) and target is None:
                arrays = [np.append(a, MASK) for a in arrays]
        return pd.MultiIndex.from_arrays(arrays, names=qi)


def _candidate(sizes, group, value, count, values, semantics,
               labels=None, whitespace: str = "strip") -> ReleaseCandidate:
    """The candidate of (group, value, count) entries, repeated pairs summed: through a
    dense count matrix when it is small (a bincount, no sort), else the nonzeros.  Its
    values are the lattice's canonical values under ``whitespace``, so a criterion's value
    lookups (a policy's keys) normalize as the certificate's check does."""
    cells = len(sizes) * len(values)
    if cells <= 4 * len(group) + 4096:
        counts = np.bincount(group * len(values) + value, weights=count, minlength=cells)
        return ReleaseCandidate.from_counts(
            sizes, counts.round().astype(np.int64).reshape(len(sizes), len(values)), values,
            labels=labels, semantics=semantics, whitespace=whitespace)
    return ReleaseCandidate.from_nonzeros(sizes, group, value, count, values, labels=labels,
                                          semantics=semantics, whitespace=whitespace)


# ----------------------------------------------------------------------------- the search
class _Nodes:
    """Every node of the lattice as a row of levels (the first QI slowest), with the tag of
    each: 1 safe, -1 unsafe, 0 not known (predictive tagging over a flat array: a check
    tags every generalization of a safe node and every specialization of an unsafe one)."""

    def __init__(self, heights: np.ndarray, steps: list | None = None):
        # ``steps``: per QI and level, what reaching that level adds to the objective's
        # bound (the chains follow it); None, the relative levels
        self.heights = [int(h) for h in heights]
        self.steps = None if steps is None else [
            [0, *(int(b) - int(a) for a, b in zip(table, table[1:]))] for table in steps]
        grids = np.meshgrid(*(np.arange(h + 1) for h in self.heights), indexing="ij")
        self.levels = np.stack([g.reshape(-1) for g in grids], axis=1).astype(np.int64) \
            if self.heights else np.zeros((1, 0), dtype=np.int64)
        radices = [h + 1 for h in self.heights]
        self.strides = [int(np.prod(radices[j + 1:])) for j in range(len(radices))]
        self.tag = np.zeros(len(self.levels), dtype=np.int8)
        # per QI and level, the nodes at or above it and at or below it (for the tagging)
        self.at_least = [[self.levels[:, j] >= level for level in range(h + 1)]
                         for j, h in enumerate(self.heights)]
        self.at_most = [[self.levels[:, j] <= level for level in range(h + 1)]
                        for j, h in enumerate(self.heights)]

    def index(self, levels) -> int:
        return sum(a * s for a, s in zip(levels, self.strides))

    def mark(self, levels: tuple, safe: bool) -> None:
        columns = self.at_least if safe else self.at_most
        where = columns[0][levels[0]].copy()
        for j in range(1, len(levels)):
            where &= columns[j][levels[j]]
        self.tag[where] = 1 if safe else -1

    def chain(self, levels: tuple) -> list:
        """A chain of the lattice from the bottom to the top through ``levels``: down by
        lowering the relatively highest level, up by raising the relatively lowest (ties to
        the first QI); the steps of each QI in the order of their relative levels.

        With ``steps`` (the bound's increments), down by undoing the dearest step, up by
        taking the cheapest: the chain stays among the nodes of low bound, those a
        best-first search has to classify, as long as it can."""
        if self.steps is not None:
            return self._cheap_chain(levels)
        relative = [max(h, 1) for h in self.heights]
        down = sorted(((-c / r, j) for j, r in enumerate(relative)
                       for c in range(levels[j], 0, -1)))
        up = sorted(((c / r, j) for j, (r, h) in enumerate(zip(relative, self.heights))
                     for c in range(levels[j], h)))
        chain, current = [tuple(levels)], list(levels)
        for _, j in down:
            current[j] -= 1
            chain.append(tuple(current))
        chain.reverse()
        current = list(levels)
        for _, j in up:
            current[j] += 1
            chain.append(tuple(current))
        return chain

    def _cheap_chain(self, levels: tuple) -> list:
        steps, heights = self.steps, self.heights
        assert steps is not None
        current = list(levels)
        down = []
        while True:
            lowered = [(steps[j][c], -j) for j, c in enumerate(current) if c > 0]
            if not lowered:
                break
            j = -max(lowered)[1]
            current[j] -= 1
            down.append(tuple(current))
        down.reverse()
        current = list(levels)
        chain = [*down, tuple(levels)]
        while True:
            raised = [(steps[j][c + 1], j) for j, c in enumerate(current) if c < heights[j]]
            if not raised:
                return chain
            j = min(raised)[1]
            current[j] += 1
            chain.append(tuple(current))


def _classify(nodes: _Nodes, levels: tuple, check) -> None:
    """Tag ``levels`` by a search for the lowest safe node on a chain from the bottom to the
    top of the lattice through it (Flash's paths, in outline).

    The search probes high in the part of the chain not yet tagged (at 9/10 of it, not at
    the middle): the nodes a best-first search classifies lie below the optimum, most of
    them unsafe, and an unsafe node high on the chain tags the most of them at once (on
    Adult, k = 5, this halves the checks of a binary search)."""
    chain = nodes.chain(levels)
    where = [nodes.index(node) for node in chain]
    lo, hi = 0, len(chain)  # the lowest safe position lies in [lo, hi]
    while lo < hi:
        tags = nodes.tag[where[lo:hi]].tolist()
        for position in range(len(tags) - 1, -1, -1):  # above the highest unsafe node
            if tags[position] < 0:
                tags = tags[position + 1:]
                lo += position + 1
                break
        if 1 in tags:  # at or below the lowest safe node
            hi = lo + tags.index(1)
        if lo >= hi:
            break
        check(chain[lo + (hi - lo) * 9 // 10])


def _additive_bound(lat: Lattice, objective: str) -> list | None:
    """Per QI and level, integers whose sum over a node's levels orders the nodes as
    :meth:`Lattice.lower_bound` does (that bound is the sum over a common denominator), or
    None when the bound is not such a sum."""
    if objective == "loss":
        return lat.level_loss
    if objective == "height":
        return [list(range(int(h) + 1)) for h in lat.heights]
    return None


def _bound_order(checker: _Checker, nodes: _Nodes):
    """The node indices in (lower bound, levels) order, and the bound of a node by index (the
    exact value of :meth:`Lattice.lower_bound`)."""
    lat, objective = checker.lattice, checker.objective
    additive = _additive_bound(lat, objective)
    if additive is not None and sum(max(t) for t in additive) < 2 ** 62:
        total = np.zeros(len(nodes.levels), dtype=np.int64)
        for j, table in enumerate(additive):
            total += np.asarray(table, dtype=np.int64)[nodes.levels[:, j]]
        order = np.lexsort([*(nodes.levels[:, j] for j in
                              reversed(range(nodes.levels.shape[1]))), total])

        def bound(i: int):
            return lat.lower_bound(tuple(int(x) for x in nodes.levels[i]), objective)
        return order, bound
    bounds = []
    for row in nodes.levels:
        levels = tuple(int(x) for x in row)
        sizes = checker.states.get(levels).sizes if objective in ("discernibility", "aecs") \
            else None
        bounds.append(lat.lower_bound(levels, objective, sizes))
    order = SortedList((bound, tuple(int(x) for x in nodes.levels[i]), i)
                       for i, bound in enumerate(bounds))
    return np.asarray([i for _, _, i in order], dtype=np.int64), bounds.__getitem__


def _staged_search(checker: _Checker, nodes: _Nodes, order: np.ndarray, bound_of,
                   classify: bool):
    """Best-first when the verdict is not monotone: the nodes in (lower bound, levels) order
    go through the first stage of their check (the suppressed rows and the objective), and
    those within the budget wait in a heap by (objective, levels) for the second (every
    criterion on the release).  A queued node is checked in full only when no node not yet
    reached can come before it (their objectives are at least their bounds), so the first
    safe node off the heap is the optimum, and a node whose objective cannot win is never
    checked in full.

    ``classify``: the first stage's budget test is monotone (every per-group criterion fails
    the classes of a node that subdivide a class it fails, and so does a skyline's pinning
    size, so a node's suppressed and pinned rows include those of its generalizations: over
    the budget, so are its specializations; within it, so are its generalizations), and
    nodes are tagged by it, as :func:`_search` tags by the verdict."""
    tag = nodes.tag
    firsts: dict = {}

    def first(levels: tuple):
        out = firsts.get(levels)
        if out is None:
            out = firsts[levels] = checker.first(levels)
            if classify:
                nodes.mark(levels, isinstance(out, _Pending) or out.failing not in _OVER)
        return out

    heap: list = []  # (objective, levels, pending)

    def settle(before: tuple | None) -> NodeVerdict | None:
        """Check in full the queued nodes that come before ``before`` (all when None)."""
        while heap and (before is None or heap[0][:2] < before):
            _, _, pending = heapq.heappop(heap)
            verdict = checker.second(pending)
            if verdict.safe:
                return verdict
        return None

    for i in order.tolist():
        if classify and tag[i] < 0:
            continue
        levels = tuple(int(x) for x in nodes.levels[i])
        found = settle((bound_of(i), levels))
        if found is not None:
            return found
        if classify and tag[i] == 0:
            _classify(nodes, levels, first)
            if tag[i] < 0:
                continue
        out = first(levels)
        if isinstance(out, _Pending):
            heapq.heappush(heap, (out.objective, levels, out))
    return settle(None)


def _search(checker: _Checker, prune: bool, exhaustive: bool, want_frontier: bool,
            staged: bool = False, classify: bool = False):
    """Best-first over the lattice by (lower bound, levels); returns (best verdict, frontier).

    A node whose bound is not below the best found cannot win (the objective is at least
    its bound), so the search stops there; an untagged node is classified first by
    :func:`_classify` when pruning is allowed."""
    lat = checker.lattice
    nodes = _Nodes(lat.heights, _additive_bound(lat, checker.objective))
    order, bound_of = _bound_order(checker, nodes)
    if staged and not prune and not exhaustive:  # see _staged_search
        found = _staged_search(checker, nodes, order, bound_of, classify)
        return (None if found is None else (found.objective, found.levels, found)), None
    verdicts: dict = {}

    def check(levels: tuple) -> NodeVerdict:
        verdict = verdicts.get(levels)
        if verdict is None:
            verdict = verdicts[levels] = checker.check(levels)
            if prune:
                nodes.mark(levels, verdict.safe)
        return verdict

    best: tuple | None = None  # (value, levels, verdict)
    no_suppression = checker.budget == 0
    tag = nodes.tag
    for i in order.tolist():
        if prune and tag[i] < 0:  # tagged unsafe: neither a candidate nor a reason to stop
            continue
        levels = tuple(int(x) for x in nodes.levels[i])
        bound = bound_of(i)
        if not exhaustive and best is not None and (bound, levels) >= best[:2]:
            break
        if prune:
            if nodes.tag[i] == 0:
                _classify(nodes, levels, check)
            if nodes.tag[i] < 0:
                continue
            if levels in verdicts:
                verdict = verdicts[levels]
            elif no_suppression:  # tagged safe, nothing suppressed: the objective is the bound
                verdict = NodeVerdict(levels, True, 0, bound)
            else:
                verdict = check(levels)
        else:
            verdict = checker.check(levels)
        if verdict.safe:
            key = (verdict.objective, levels)
            if best is None or key < best[:2]:
                best = (verdict.objective, levels, verdict)
    frontier = _frontier(nodes, check) if want_frontier and prune else None
    return best, frontier


def _frontier(nodes: _Nodes, check) -> tuple:
    """Every minimal safe node: the untagged nodes are checked, lowest first; a safe node
    is minimal when no node one level below it is safe."""
    for i in np.lexsort([*(nodes.levels[:, j] for j in reversed(range(nodes.levels.shape[1]))),
                         nodes.levels.sum(axis=1)]).tolist():
        if nodes.tag[i] == 0:
            check(tuple(int(x) for x in nodes.levels[i]))
    minimal = nodes.tag > 0
    for j, stride in enumerate(nodes.strides):
        above = np.flatnonzero(nodes.levels[:, j] > 0)
        minimal[above[nodes.tag[above - stride] > 0]] = False
    return tuple(tuple(int(x) for x in nodes.levels[i]) for i in np.flatnonzero(minimal))


# ----------------------------------------------------------------------------- the API
def _checked_hierarchies(table: pd.DataFrame, qi: list, hierarchies, owner: str,
                         distinct: list, whitespace: str = "strip") -> dict:
    """A hierarchy per QI (``distinct``: per QI, its distinct values), each checked to cover
    its column (text matched under ``whitespace``)."""
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
            values = [value for value in distinct[qi.index(name)] if not is_missing(value)]
            hierarchy = Hierarchy([[value, MASK] for value in values], name=name)
        elif not isinstance(hierarchy, Hierarchy):
            raise param_error("hierarchies", owner, "map QI columns to Hierarchy objects",
                              type(hierarchy).__name__)
        else:
            try:  # the distinct values first: the column only to word the error
                hierarchy.validate(pd.Series(distinct[qi.index(name)], dtype=object),
                                   whitespace=whitespace)
            except HierarchyError:
                hierarchy.validate(table[name], whitespace=whitespace)
        out[name] = hierarchy
    return out


def suppression_budget(limit, n_rows: int, owner: str) -> int:
    """The number of rows a fraction ``limit`` of the table allows (rounded down, exactly)."""
    exact = decimal_fraction(limit) if is_real(limit) and not isinstance(limit, bool) else None
    if exact is None or not 0 <= exact <= 1:
        raise param_error("suppression_limit", owner, "be a fraction of rows in [0, 1]", limit)
    return int(exact * n_rows)


@dataclass(frozen=True)
class SearchPlan:
    """The checked options of one full-domain search (shared by the engines)."""

    qi: list
    sensitive: object
    criteria: list
    objective: str
    suppressed: str
    semantics: str
    missing: str
    budget: int
    limit: object
    hierarchies: dict
    n_rows: int
    coded: list = field(default_factory=list, repr=False, compare=False)  # (codes, uniques)
    whitespace: str = "strip"  # how text is compared (docs/canonical-text.md)


def checked_columns(table, qi, sensitive, owner: str) -> list:
    """The QI list, after checking that it and the sensitive column are columns of the table
    (pandas or dask) and that the sensitive column is not a QI."""
    qi = [qi] if isinstance(qi, str) else list(qi)
    if not qi:
        raise param_error("qi", owner, "name at least one column", qi)
    require_columns(table, [*qi, sensitive])
    if sensitive in qi:
        raise param_error("sensitive", owner, "not be a QI", sensitive)
    return qi


def plan_search(table: pd.DataFrame, weights, *, qi, sensitive, criteria, hierarchies,
                objective, suppression_limit, suppressed, semantics,
                missing, owner: str = "anonymize", whitespace: str = "strip") -> SearchPlan:
    """Check the options of :func:`full_domain_search` against a table whose rows stand for
    ``weights`` records each (None: one each; the Dask engine passes its histogram)."""
    qi = checked_columns(table, qi, sensitive, owner)
    n_rows = len(table) if weights is None else int(np.sum(weights))
    if n_rows == 0:
        raise SchemaError("The table is empty: there is nothing to anonymize.")
    coded = [factorize(table[name]) for name in qi]  # read once, for the lattice too
    if missing == "error":
        for name, (codes, uniques) in zip(qi, coded):
            absent = [i for i, value in enumerate(uniques) if is_missing(value)]
            if absent:
                rows = np.isin(codes, absent)
                n_missing = int(rows.sum() if weights is None
                                else np.asarray(weights)[rows].sum())
                raise SchemaError(f"Column {name!r} has {n_missing} missing values; pass "
                                  f"missing='as_value' to treat them as a category.")
    criteria = as_criteria(criteria)
    if objective not in OBJECTIVES:
        raise param_error("objective", owner, f"be one of {list(OBJECTIVES)}", objective)
    if suppressed not in SUPPRESSED:
        raise param_error("suppressed", owner, f"be one of {list(SUPPRESSED)}", suppressed)
    semantics = check_semantics(semantics, owner)
    budget = suppression_budget(suppression_limit, n_rows, owner)
    if whitespace not in WHITESPACE:
        raise param_error("whitespace", owner, f"be one of {list(WHITESPACE)}", whitespace)
    return SearchPlan(qi, sensitive, criteria, objective, suppressed, semantics, missing,
                      budget, suppression_limit,
                      _checked_hierarchies(table, qi, hierarchies, owner,
                                           [uniques for _, uniques in coded], whitespace),
                      n_rows, coded, whitespace)


@dataclass(frozen=True)
class Recoding:
    """How the rows of the table are released at the optimum: small, per distinct value, so
    that it travels to the workers of a partitioned table."""

    qi: tuple
    uniques: tuple  # per QI, the distinct raw values (the lattice's code order)
    labels: tuple  # per QI, the released label of every distinct raw value
    class_key: tuple  # per QI, the node-level code of every distinct raw value
    failing: np.ndarray | None  # node-level codes of the suppressed classes (None: none)
    mask: bool

    def codes(self, frame: pd.DataFrame) -> list:
        """Per QI, the position of every row's raw value among the distinct values."""
        out = []
        for name, uniques in zip(self.qi, self.uniques):
            found = pd.Index(uniques, dtype=object).get_indexer(frame[name].astype(object))
            if len(found) and found.min() < 0:
                unseen = frame[name].iloc[int(np.argmin(found))]
                raise SchemaError(f"Column {name!r} holds {unseen!r}, a value the scan of the "
                                  f"table did not see; was the table changed during the run?")
            out.append(found)
        return out


@dataclass(frozen=True)
class Optimum:
    """The optimal node of a search, how to release it, and the search's figures."""

    lattice: Lattice
    levels: tuple
    verdict: NodeVerdict
    recoding: Recoding
    nodes_checked: int
    frontier: tuple | None


def search_optimum(table: pd.DataFrame, weights, plan: SearchPlan, *, frontier: bool,
                   exhaustive: bool) -> Optimum:
    """Build the lattice of ``table`` (rows weighted by ``weights``) and find its optimum."""
    lattice = Lattice(table, plan.qi, plan.sensitive, plan.hierarchies, plan.semantics,
                      plan.missing, weights, plan.coded or None, plan.whitespace)
    mask = plan.suppressed == "mask"
    checker = _Checker(lattice, plan.criteria, plan.budget, mask and plan.budget > 0,
                       plan.objective)
    with_suppression = plan.budget > 0
    prune = (not exhaustive and not (mask and with_suppression)
             and all(c.is_monotone(plan.semantics, suppression=with_suppression)
                     for c in plan.criteria))
    # the first stage of a check (what the per-group criteria suppress) is monotone when
    # each of them is proven monotone with suppression (k-anonymity, the prosecutor bound,
    # k-map: a class they fail subdivides into classes they fail)
    classify = all(c.is_monotone(plan.semantics, suppression=True)
                   for c in plan.criteria if c.per_group)
    best, found = _search(checker, prune, exhaustive, frontier, staged=True,
                          classify=classify)
    if best is None:
        raise InfeasibleError(f"No generalization of {plan.qi} satisfies {plan.criteria} with "
                              f"at most {plan.budget} suppressed rows (suppression_limit="
                              f"{plan.limit!r}); raise the limit or add levels.")
    _, levels, verdict = best
    class_key = tuple(lattice.level_codes[j][level] for j, level in enumerate(levels))
    failing_keys = None
    if verdict.suppressed:
        state = checker.states.get(levels)
        reps = state.rep[checker.failing(levels)]
        failing_keys = np.stack([class_key[j][lattice.base[reps, j]]
                                 for j in range(len(levels))], axis=1)
    recoding = Recoding(
        tuple(plan.qi), tuple(lattice.uniques),
        tuple(lattice.level_labels[j][level][lattice.level_codes[j][level]]
              for j, level in enumerate(levels)), class_key, failing_keys, mask)
    return Optimum(lattice, levels, verdict, recoding, checker.checked,
                   None if found is None else tuple(dict(zip(plan.qi, f)) for f in found))


def release_rows(frame: pd.DataFrame, codes: list, recoding: Recoding) -> pd.DataFrame:
    """``frame`` generalized to the optimum, its suppressed rows dropped or masked.

    ``codes``: per QI, the position of every row's raw value among the lattice's distinct
    values.  The same for a whole table and for each partition of one."""
    qi = list(recoding.qi)
    row_failing = None if recoding.failing is None else _rows_in(
        np.stack([recoding.class_key[j][codes[j]] for j in range(len(qi))],
                 axis=1).reshape(len(frame), len(qi)), recoding.failing)
    if row_failing is not None and not recoding.mask:  # the kept rows alone are copied
        keep = ~row_failing
        released = frame.loc[keep]
        codes = [c[keep] for c in codes]
    else:
        released = frame.copy()
    for j, name in enumerate(qi):
        released[name] = pd.Series(recoding.labels[j][codes[j]], index=released.index,
                                   dtype=object)
    if row_failing is not None and recoding.mask:
        released.loc[row_failing, qi] = MASK
    return released


def _rows_in(rows: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Whether each row of ``rows`` (integer tuples) is one of ``wanted``'s rows."""
    widths = [int(max(rows[:, j].max(initial=0), wanted[:, j].max(initial=0))) + 1
              for j in range(rows.shape[1])]
    if float(np.prod([float(w) for w in widths])) < 2.0 ** 62:
        def key(array):
            out = np.zeros(len(array), dtype=np.int64)
            for j, width in enumerate(widths):
                out = out * width + array[:, j]
            return out
        return np.isin(key(rows), key(wanted))
    index = pd.MultiIndex.from_arrays([wanted[:, j] for j in range(wanted.shape[1])])
    return index.get_indexer(pd.MultiIndex.from_arrays(
        [rows[:, j] for j in range(rows.shape[1])])) >= 0


@dispatchable  # a dask frame: the histogram from one scan, the same search (docs/dask.md)
def full_domain_search(table: pd.DataFrame, *, qi, sensitive, criteria, hierarchies=None,
                       objective: str = "loss", suppression_limit=0.0,
                       suppressed: str = "drop", semantics: str = "svpi",
                       missing: str = "error", frontier: bool = False,
                       exhaustive: bool = False, whitespace: str = "strip") -> AnonymizeResult:
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
    objective : {'loss', 'precision', 'height', 'discernibility', 'aecs', 'entropy'}, \
default 'loss'
        What the search minimises (``'precision'``: 1 - precision), as the module docstring
        says; :func:`skyprivacy.utility.utility_measures` reports all of them.
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
    whitespace : {'strip', 'keep'}, default 'strip'
        How text is compared (docs/canonical-text.md): QI cells with the hierarchy leaves,
        the sensitive values, and a policy's keys with them.  Released cells keep their text.

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
    plan = plan_search(table, None, qi=qi, sensitive=sensitive, criteria=criteria,
                       hierarchies=hierarchies, objective=objective,
                       suppression_limit=suppression_limit, suppressed=suppressed,
                       semantics=semantics, missing=missing, owner=owner,
                       whitespace=whitespace)
    optimum = search_optimum(table, None, plan, frontier=frontier, exhaustive=exhaustive)
    lattice = optimum.lattice
    released = release_rows(table, [lattice.base[lattice.row_tuple, j]
                                    for j in range(len(plan.qi))], optimum.recoding)
    candidate = ReleaseCandidate.from_table(released, sensitive=sensitive, qi=plan.qi,
                                            semantics=plan.semantics, missing=missing,
                                            whitespace=whitespace)
    return result_of(released, candidate, optimum, plan)


def result_of(released, candidate: ReleaseCandidate, optimum: Optimum,
              plan: SearchPlan) -> AnonymizeResult:
    """The :class:`AnonymizeResult` of a released table and its optimum."""
    return AnonymizeResult(
        table=released, levels=dict(zip(plan.qi, (int(x) for x in optimum.levels))),
        objective=plan.objective, value=optimum.verdict.objective,
        suppressed=optimum.verdict.suppressed, candidate=candidate,
        nodes_checked=optimum.nodes_checked, lattice_size=optimum.lattice.size,
        frontier=optimum.frontier, criteria=tuple(repr(c) for c in plan.criteria))
