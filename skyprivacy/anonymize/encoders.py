"""Quasi-identifier encoders shared by the anonymization engines (Sect. 6.2).

Each encoder maps one QI column to integer codes and knows how to split a range of codes at one
BFS level of the Mondrian search (numeric median cut, set-valued categories, hierarchy children)
and how to label a published range.  :func:`qi_kinds` decides how each QI is split and
:func:`category_orders` in which order a categorical QI's values are lined up for splitting;
both are shared by Python and the command line.  Set labels are made by
:mod:`skyprivacy.labels`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np
import pandas as pd

from .._core.canonical import (
    canonical_text,
    normalize_column,
    numeric_spellings,
    spellings_message,
)
from .._core.encoding import factorize
from .._core.warning import warn
from ..errors import (
    CanonicalTextWarning,
    HierarchyError,
    InvalidParameterError,
    MixedColumnWarning,
    param_error,
)
from ..labels import DEFAULT_LABEL_LENGTH, SUPPRESSED, set_label

LEADING_ZERO = re.compile(r"^\s*[+-]?0\d")
MOSTLY_NUMERIC = 0.8  # a text column this numeric, but not entirely, gets a warning


def as_text(column: pd.Series) -> pd.Series:
    return column.map(lambda v: v if isinstance(v, str) else str(v))


def _distinct(column: pd.Series) -> tuple[np.ndarray, pd.Series]:
    """(code of every cell, the distinct cells as text): the per-cell rules below run once
    per distinct cell, not once per row."""
    codes, uniques = pd.factorize(column, use_na_sentinel=False)
    return codes, as_text(pd.Series(uniques, dtype=object))


def parsed_numbers(column: pd.Series) -> pd.Series:
    """The cells of a column as numbers (NaN where a cell is not one)."""
    if pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column):
        return column.astype(float)
    codes, text = _distinct(column)
    numbers = pd.to_numeric(text.str.strip(), errors="coerce").to_numpy(dtype=float)
    return pd.Series(numbers[codes], index=column.index)


def distinct_cells(column: pd.Series) -> tuple[pd.Series, np.ndarray]:
    """A column's distinct cells in order of first appearance (a missing value is one) and how
    many rows hold each: all :func:`qi_kinds` reads of a column (the Dask scan merges them
    over partitions)."""
    codes, uniques = pd.factorize(column, use_na_sentinel=False)
    keep = not isinstance(column.dtype, pd.CategoricalDtype)
    return (pd.Series(uniques, dtype=column.dtype if keep else None),
            np.bincount(codes, minlength=len(uniques)))


def qi_kinds(table, qi, hierarchies, *, numeric=None, categorical=None,
             owner: str = "skyline_anonymize") -> dict:
    """How every quasi-identifier is split: ``'tree'`` (a hierarchy), ``'numeric'`` (ordered
    numbers, median cuts, ranges ``[lo, hi]``) or ``'set'`` (categories).

    The one place the command line and Python decide it.  Explicit choices win; otherwise a
    column is numeric when it has a numeric dtype, or when it is text whose every cell reads
    as a number and none is a leading-zero code (ZIP ``02139``, ICD, NDC: codes, not
    quantities).  A text column whose cells are mostly, but not all, numbers is split as
    categories with a :class:`~skyprivacy.errors.MixedColumnWarning` naming the odd cells.
    ``table`` is a DataFrame, or ``{column: (distinct cells, counts)}`` as
    :func:`distinct_cells` gives them.

    Raises
    ------
    InvalidParameterError
        A column named in ``numeric`` or ``categorical`` is not a QI, is in both, has a
        hierarchy, or (``numeric``) holds cells that are not numbers.
    """
    numeric = _names(numeric, "numeric", owner)
    categorical = _names(categorical, "categorical", owner)
    for name, chosen in (("numeric", numeric), ("categorical", categorical)):
        for column in chosen:
            if column not in qi:
                raise InvalidParameterError(
                    f"The '{name}' parameter of {owner} names {column!r}, which is not a "
                    f"quasi-identifier; quasi-identifiers are {list(qi)!r}.")
            if column in hierarchies:
                raise InvalidParameterError(
                    f"The '{name}' parameter of {owner} names {column!r}, which has a "
                    f"hierarchy; a hierarchy decides how it is generalized.")
    both = sorted(set(numeric) & set(categorical))
    if both:
        raise InvalidParameterError(f"Column(s) {both} are named both numeric and categorical "
                                    f"in {owner}.")
    kinds = {}
    for column in qi:
        if column in hierarchies:
            kinds[column] = "tree"
        elif column in categorical:
            kinds[column] = "set"
        else:
            uniques, counts = (distinct_cells(table[column]) if isinstance(table, pd.DataFrame)
                               else table[column])
            if column not in numeric:
                kinds[column] = infer_kind(uniques, counts, column, owner)
                continue
            bad = (parsed_numbers(uniques).isna() & ~uniques.isna()).to_numpy()
            if bad.any():
                examples = list(dict.fromkeys(map(str, uniques[bad])))[:3]
                raise InvalidParameterError(
                    f"Column {column!r} is declared numeric in {owner} but "
                    f"{int(counts[bad].sum())} cell(s) are not numbers, e.g. {examples!r}.")
            kinds[column] = "numeric"
    return kinds


def infer_kind(uniques: pd.Series, counts: np.ndarray, name: str, owner: str) -> str:
    """How a column without a hierarchy is split, from its distinct cells (in order of first
    appearance) and how often each occurs: ``'numeric'`` when every cell reads as a number
    (and none has a leading zero, as ZIP codes do), else ``'set'``, with a
    :class:`MixedColumnWarning` when at least ``MOSTLY_NUMERIC`` of the rows are numbers.
    The in-memory and the Dask engine both decide through it."""
    if pd.api.types.is_bool_dtype(uniques):
        return "set"
    if pd.api.types.is_numeric_dtype(uniques):
        return "numeric"
    text = as_text(uniques)
    # one number spelled several ways ('1', '01', '1.0'): said, with the choice it forces
    spellings = numeric_spellings([t for t, missing in zip(text, uniques.isna()) if not missing])
    if text.str.match(LEADING_ZERO).any():
        if spellings:
            warn(spellings_message(name, spellings, len(text), numbers=False),
                 CanonicalTextWarning)
        return "set"  # codes such as ZIP 02139: never read as numbers
    # a missing cell (kept as a value by missing='as_value') is no odd cell: it sorts last
    odd = (pd.to_numeric(text.str.strip(), errors="coerce").isna()
           & ~uniques.isna()).to_numpy()
    if not odd.any():
        if spellings:
            distinct = len(set(pd.to_numeric(text[~uniques.isna()].str.strip()).tolist()))
            warn(spellings_message(name, spellings, distinct, numbers=True),
                 CanonicalTextWarning)
        return "numeric"
    n_odd = int(counts[odd].sum())
    if 1 - n_odd / int(counts.sum()) >= MOSTLY_NUMERIC:
        examples = list(dict.fromkeys(text.to_numpy()[odd]))[:3]  # in row order
        warn(f"Column {name!r} is mostly numbers but {n_odd} cell(s) are not (e.g. "
             f"{examples!r}): {owner} splits it as categories; clean those cells, or pass "
             f"categorical=[{name!r}] (--categorical {name}) to say so.",
             MixedColumnWarning)
    return "set"


def _names(value, name: str, owner: str) -> list:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    try:
        names = list(value)
    except TypeError:
        names = None
    if names is None or not all(isinstance(v, str) for v in names):
        raise InvalidParameterError(f"The '{name}' parameter of {owner} must be a column name "
                                    f"or a list of column names. Got {value!r} instead.")
    return names


ORDERS = ("sorted", "first")
_ORDER_REQUIREMENT = ("be 'sorted', 'first', or a mapping of quasi-identifier -> 'sorted', "
                      "'first' or the list of its values in order")


def category_orders(table: pd.DataFrame, qi, kinds: dict, order=None, *,
                    owner: str = "skyline_anonymize", whitespace: str = "strip") -> dict:
    """The order in which each categorical quasi-identifier lines up its values.

    A categorical QI (kind ``'set'`` in :func:`qi_kinds`) is split like a range over its
    distinct values in this order, so a group is always a contiguous run of it.

    Parameters
    ----------
    table : pandas.DataFrame
    qi : list of str
    kinds : dict
        From :func:`qi_kinds`.
    order : {'sorted', 'first'}, mapping or None
        ``'sorted'`` (the default): values sorted (text in code-point order, numbers by
        value); ``'first'``: the order in which values first appear in the table; a mapping
        gives a rule per column, ``'sorted'``, ``'first'`` or the list of the column's values
        in order (values the column lacks are ignored), and columns it does not name are
        sorted.
    owner : str
        The public function named in error messages.
    whitespace : {'strip', 'keep'}, default 'strip'
        How listed values are compared with the column's (in canonical form,
        docs/canonical-text.md).

    Returns
    -------
    dict
        ``{column: 'sorted' | 'first' | tuple of values}`` for every categorical QI.

    Raises
    ------
    InvalidParameterError
        A bad ``order``; a mapping that names a column which is not a QI, has a hierarchy or
        is split as numbers; an explicit list with a repeated value or without every value of
        its column.

    Examples
    --------
    >>> table = pd.DataFrame({"sev": ["high", "low", "mid"]})
    >>> category_orders(table, ["sev"], {"sev": "set"}, {"sev": ["low", "mid", "high"]})
    {'sev': ('low', 'mid', 'high')}
    """
    rules: dict[str, str | tuple] = {column: "sorted" for column in qi
                                     if kinds[column] == "set"}
    if order is None:
        return rules
    if isinstance(order, str):
        if order not in ORDERS:
            raise param_error("order", owner, _ORDER_REQUIREMENT, order)
        return {column: order for column in rules}
    if not isinstance(order, Mapping):
        raise param_error("order", owner, _ORDER_REQUIREMENT, order)
    for column, rule in order.items():
        if column not in qi:
            raise InvalidParameterError(
                f"The 'order' parameter of {owner} names {column!r}, which is not a "
                f"quasi-identifier; quasi-identifiers are {list(qi)!r}.")
        if kinds[column] == "tree":
            raise InvalidParameterError(
                f"The 'order' parameter of {owner} orders {column!r}, which has a hierarchy; "
                f"the hierarchy's leaves give its order.")
        if kinds[column] == "numeric":
            raise InvalidParameterError(
                f"The 'order' parameter of {owner} orders {column!r}, which is split as "
                f"numbers; pass categorical=[{column!r}] (--categorical {column}) to split it "
                f"as categories in that order.")
        if isinstance(rule, str):
            if rule not in ORDERS:
                raise param_error("order", owner, f"map {column!r} to 'sorted', 'first' or "
                                  f"the list of its values in order", rule)
            rules[column] = rule
            continue
        rules[column] = _explicit_order(table[column], column, rule, owner, whitespace)
    return rules


def _explicit_order(column: pd.Series, name: str, rule, owner: str,
                    whitespace: str = "strip") -> tuple:
    try:
        listed = tuple(rule)
        positions: dict = {}
        for value in listed:  # values as they are compared: in canonical form
            if canonical_text(value, whitespace) in positions:
                raise InvalidParameterError(
                    f"The 'order' parameter of {owner} lists {value!r} twice for {name!r}.")
            positions[canonical_text(value, whitespace)] = len(positions)
    except TypeError:
        raise param_error("order", owner, f"map {name!r} to 'sorted', 'first' or the list of "
                          f"its values in order", rule) from None
    distinct = pd.unique(column)
    unlisted = [v for v in distinct if canonical_text(v, whitespace) not in positions]
    if unlisted:
        shown = [v.item() if isinstance(v, np.generic) else v for v in unlisted[:5]]
        raise InvalidParameterError(
            f"The 'order' parameter of {owner} does not list {len(unlisted)} value(s) of "
            f"{name!r}: {shown!r}{' ...' if len(unlisted) > 5 else ''}; an explicit order "
            f"must list every value of the column.")
    return listed


def _ordered_codes(column: pd.Series, rule, whitespace: str = "strip"
                   ) -> tuple[np.ndarray, list]:
    """Codes 0..n-1 of a column's distinct values in the order ``rule`` gives (an explicit
    list names values in canonical form under ``whitespace``), and those values (as they
    appear in the column)."""
    if rule == "sorted":
        return factorize(column)
    if rule == "first":
        codes, uniques = pd.factorize(column, sort=False, use_na_sentinel=False)
    else:
        position = {canonical_text(value, whitespace): i for i, value in enumerate(rule)}
        seen_codes, seen = pd.factorize(column, sort=False, use_na_sentinel=False)
        ranks = np.array([position[canonical_text(v, whitespace)] for v in seen],
                         dtype=np.int64)
        by_rank = np.argsort(ranks, kind="stable")  # first-seen codes in the explicit order
        renumber = np.empty(len(ranks), dtype=np.int64)
        renumber[by_rank] = np.arange(len(ranks))
        codes = renumber[seen_codes]
        uniques = [seen[i] for i in by_rank]
    uniques = [u.item() if isinstance(u, np.generic) else u for u in list(uniques)]
    return np.asarray(codes, dtype=np.int64), uniques


def median_cuts(code: np.ndarray, count: np.ndarray, starts: np.ndarray,
                hi: np.ndarray, *, balanced: bool = False) -> np.ndarray:
    """The median rule of every group: its lower weighted median (the first code whose
    cumulative count reaches half the group) or, when that is the group's largest code ``hi``,
    the largest code below it; a group's rows with codes up to the cut form its first child.

    ``code`` and ``count`` are the distinct codes of every group in ascending order with how
    many rows hold each, the entries of group i being ``starts[i]:starts[i+1]``.

    With ``balanced``, the rows of the median code go to whichever side leaves the two
    children closer in size: the cut is the code below the median when that makes the larger
    child smaller (ties keep the median).  Mondrian's strict partitioning keeps every row
    of a code on one side (LeFevre et al. 2006, Sect. 4); when many rows share the median
    code, the plain rule can leave one child far below half the group, and the balanced
    one keeps both children large enough for a criterion such as k-anonymity more often.

    Examples
    --------
    >>> median_cuts(np.array([1, 2, 5]), np.array([2, 1, 3]), np.array([0, 3]), np.array([5]))
    array([2])
    >>> code, count = np.array([31, 32, 33, 34]), np.array([69, 70, 74, 70])
    >>> median_cuts(code, count, np.array([0, 4]), np.array([34])).tolist()  # 213 | 70
    [33]
    >>> median_cuts(code, count, np.array([0, 4]), np.array([34]), balanced=True).tolist()
    [32]
    """
    cumulative = np.cumsum(count)
    before = np.concatenate([[0], cumulative])[starts[:-1]]
    total = cumulative[starts[1:] - 1] - before
    half = (total + 1) // 2
    at = np.minimum(np.searchsorted(cumulative, before + half), len(code) - 1)
    cut = code[at]
    at_max = cut >= hi
    if at_max.any():  # the entry before the group's last one: its largest code below hi
        cut = np.where(at_max, code[np.maximum(starts[1:] - 2, 0)], cut)
    if balanced:  # the median code's rows on the smaller side (the entry before: below it)
        below = np.maximum(at - 1, 0)
        has_below = (at > starts[:-1]) & ~at_max
        left_at = cumulative[at] - before
        left_below = cumulative[below] - before
        larger_at = np.maximum(left_at, total - left_at)
        larger_below = np.maximum(left_below, total - left_below)
        cut = np.where(has_below & (larger_below < larger_at), code[below], cut)
    return cut


class NumericQI:
    """A numeric quasi-identifier: codes are ranks of the distinct numbers; each number is
    published as the text it had in the input (``1.50`` stays ``1.50``)."""

    kind = "numeric"

    def __init__(self, name: str, column: pd.Series, *, balanced: bool = False):
        self.name = name
        self.balanced = balanced  # median cuts of :func:`median_cuts` with ``balanced``
        numbers = parsed_numbers(column).to_numpy()
        uniques, first, codes = np.unique(numbers, return_index=True, return_inverse=True)
        self.uniques = uniques
        self.codes = codes.astype(np.int64).reshape(-1)
        self.span = float(uniques[-1] - uniques[0]) if len(uniques) > 1 else 0.0
        originals = column.to_numpy(dtype=object)[first]
        self.texts = [v if isinstance(v, str) else str(v.item() if isinstance(v, np.generic)
                                                       else v) for v in originals]

    def split(self, part, code, count, starts, lo, hi):
        """Median split of every group of a level at once, from its (code, count) entries.

        ``part``, ``code`` and ``count`` are the level's distinct (group, code) pairs sorted by
        group then code, with how many rows hold each (one row each, or many: rows and
        histograms alike); the entries of group i are ``starts[i]:starts[i+1]`` and its codes
        span ``lo[i]..hi[i]``.  Returns the child (0 or 1) of every entry, the number of
        children per group and the normalized width per group."""
        cuts = median_cuts(code, count, starts, hi, balanced=self.balanced)
        child = (code > cuts[part]).astype(np.int64)
        n_children = np.where(hi > lo, 2, 0)
        width = (np.zeros(len(lo)) if self.span == 0 else
                 (self.uniques[hi] - self.uniques[lo]).astype(float) / self.span)
        return child, n_children, width

    def extent(self, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """The normalized width of groups spanning codes ``lo..hi`` (their generalization
        loss on this QI)."""
        if self.span == 0:
            return np.zeros(len(lo))
        return (self.uniques[hi] - self.uniques[lo]).astype(float) / self.span

    def label(self, lo: int, hi: int) -> str:
        a, b = self.texts[lo].strip(), self.texts[hi].strip()
        return a if lo == hi else f"[{a}, {b}]"


class SetQI(NumericQI):
    """A categorical quasi-identifier without a hierarchy: its distinct values, lined up in
    the order :func:`category_orders` gives (sorted by default), are split at the median like
    a numeric range (any contiguous run of values can form a group).  A group is labelled
    with its one value, ``*`` when it spans every value of the column, or else the set of
    values its run covers (:func:`skyprivacy.labels.set_label`: listed in full up to
    ``label_length`` characters, else a digest whose members are kept in :attr:`sets`)."""

    kind = "set"

    def __init__(self, name: str, column: pd.Series, order="sorted",
                 label_length: int | None = DEFAULT_LABEL_LENGTH, *, balanced: bool = False,
                 whitespace: str = "strip"):
        self.name = name
        self.balanced = balanced
        codes, uniques = _ordered_codes(column, order, whitespace)
        # values that look the same are one category (docs/canonical-text.md); a group of
        # one cell still publishes that cell exactly (released.group_labels)
        codes, uniques = normalize_column(codes, uniques, whitespace, name,
                                          keep_order=order != "sorted")
        self.codes = codes
        self.labels_ = [str(u) for u in uniques]
        self.uniques = np.arange(len(uniques))
        self.span = float(len(uniques) - 1)
        self.label_length = label_length
        self.sets: dict = {}  # digest -> members, for the labels published as digests
        # '*' means "any value" unless the column itself holds a '*'
        self._suppress = SUPPRESSED not in self.labels_

    def label(self, lo: int, hi: int) -> str:
        values = self.labels_[lo:hi + 1]
        if len(values) == 1:
            return values[0]
        if self._suppress and len(values) == len(self.labels_):
            return SUPPRESSED
        return set_label(values, self.label_length, self.sets)


class TreeQI:
    """A hierarchical quasi-identifier: leaves numbered in depth-first order, so every node
    covers a contiguous range of leaf codes and a group's label is the lowest common ancestor
    of its smallest and largest code; cells find their leaves in canonical form under
    ``whitespace`` (:meth:`skyprivacy.hierarchy.Hierarchy.generalize`)."""

    kind = "hierarchy"

    def __init__(self, name: str, column: pd.Series, hierarchy, *, whitespace: str = "strip"):
        self.name = name
        self.whitespace = whitespace
        self._from_hierarchy(column, hierarchy)
        self.n_leaves = len(self.leaf_labels)

    def _from_hierarchy(self, column: pd.Series, hierarchy) -> None:
        graph = hierarchy.graph
        root = hierarchy.root_node
        labels: list[str] = []
        lo_list: list[int] = []
        hi_list: list[int] = []
        children: list[list[int]] = []
        parent: list[int] = []
        depth: list[int] = []
        leaf_labels: list[str] = []
        leaf_node: list[int] = []
        # iterative DFS keeping children in the hierarchy's order
        index_of = {}
        stack = [(root, -1, 0)]
        order = []
        while stack:
            node, par, d = stack.pop()
            idx = len(labels)
            index_of[node] = idx
            labels.append(str(graph.nodes[node].get("label", node[1])))
            parent.append(par)
            depth.append(d)
            children.append([])
            lo_list.append(-1)
            hi_list.append(-1)
            if par >= 0:
                children[par].append(idx)
            kids = list(graph.successors(node))
            if not kids:
                lo_list[idx] = hi_list[idx] = len(leaf_labels)
                leaf_labels.append(labels[idx])
                leaf_node.append(idx)
            order.append(idx)
            for kid in reversed(kids):
                stack.append((kid, idx, d + 1))
        lo = np.array(lo_list, dtype=np.int64)
        hi = np.array(hi_list, dtype=np.int64)
        for idx in reversed(order):  # post-order fill of ranges
            if children[idx]:
                lo[idx] = min(lo[c] for c in children[idx])
                hi[idx] = max(hi[c] for c in children[idx])
        self.node_label = labels
        self.node_lo, self.node_hi = lo, hi
        self.children = children
        self.parent = np.array(parent, dtype=np.int64)
        self.depth = np.array(depth, dtype=np.int64)
        self.leaf_labels = leaf_labels
        self.leaf_node = np.array(leaf_node, dtype=np.int64)
        # look up each distinct value once, then broadcast through the column's codes
        value_codes, uniques = normalize_column(*factorize(column), self.whitespace, self.name)
        try:
            leaves = hierarchy.generalize(list(uniques), 0, whitespace=self.whitespace)
        except HierarchyError as exc:
            raise HierarchyError(f"Hierarchy for column {self.name!r}: {exc}") from None
        position = {label: i for i, label in enumerate(leaf_labels)}
        self.codes = np.array([position[leaf] for leaf in leaves], dtype=np.int64)[value_codes]

    def _ancestors(self) -> np.ndarray:
        """anc[d, leaf] = the leaf's ancestor at depth d (the leaf itself below its depth)."""
        if not hasattr(self, "_anc"):
            height = int(self.depth.max())
            anc = np.empty((height + 1, self.n_leaves), dtype=np.int64)
            for leaf, node in enumerate(self.leaf_node.tolist()):
                chain = [node]
                while self.parent[chain[-1]] >= 0:
                    chain.append(int(self.parent[chain[-1]]))
                chain.reverse()  # root first
                chain += [node] * (height + 1 - len(chain))
                anc[:, leaf] = chain
            self._anc = anc
        return self._anc

    def split(self, part, code, count, starts, lo, hi):
        """Split every group of a level into the children of its lowest common ancestor (the
        entries as in :meth:`NumericQI.split`; only which codes are present matters)."""
        part_of, codes = part, code
        anc = self._ancestors()
        lca_depth = np.zeros(len(lo), dtype=np.int64)
        for d in range(1, anc.shape[0]):
            lca_depth = np.where(anc[d, lo] == anc[d, hi], d, lca_depth)
        has = hi > lo
        below = np.minimum(lca_depth + 1, anc.shape[0] - 1)
        child_node = anc[below[part_of], codes]
        n_nodes = len(self.node_label)
        key = part_of * n_nodes + child_node
        unique_keys, inverse = np.unique(key, return_inverse=True)
        owner = unique_keys // n_nodes
        first = np.searchsorted(owner, np.arange(len(lo)))
        child = inverse.reshape(-1) - first[part_of]
        n_children = np.where(has, np.bincount(owner, minlength=len(lo)), 0)
        lca = anc[lca_depth, lo]
        width = (np.zeros(len(lo)) if self.n_leaves <= 1 else
                 (self.node_hi[lca] - self.node_lo[lca]).astype(float) / (self.n_leaves - 1))
        return child, n_children, width

    def extent(self, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """The normalized width of groups spanning leaves ``lo..hi``: (leaves under their
        lowest common ancestor - 1) / (leaves - 1), their generalization loss on this QI."""
        if self.n_leaves <= 1:
            return np.zeros(len(lo))
        anc = self._ancestors()
        depth = np.zeros(len(lo), dtype=np.int64)
        for d in range(1, anc.shape[0]):
            depth = np.where(anc[d, lo] == anc[d, hi], d, depth)
        lca = anc[depth, lo]
        return (self.node_hi[lca] - self.node_lo[lca]).astype(float) / (self.n_leaves - 1)

    def lca(self, lo: int, hi: int) -> int:
        """The lowest common ancestor of leaves ``lo`` and ``hi``: the deepest node both
        descend from."""
        anc = self._ancestors()
        return int(anc[np.flatnonzero(anc[:, lo] == anc[:, hi])[-1], lo])

    def label(self, lo: int, hi: int) -> str:
        return self.node_label[self.lca(lo, hi)]


def make_encoder(name: str, column: pd.Series, kind: str, hierarchy=None, order="sorted",
                 label_length: int | None = DEFAULT_LABEL_LENGTH, *, balanced: bool = False,
                 whitespace: str = "strip"):
    """The encoder of a quasi-identifier of kind ``kind`` (:func:`qi_kinds`) over ``column``
    (every cell, or, as the Dask engine builds them, the column's distinct cells);
    ``balanced``: ordered QIs are cut by :func:`median_cuts`'s balanced rule; text is
    compared in canonical form under ``whitespace`` (docs/canonical-text.md)."""
    if kind == "tree":
        return TreeQI(name, column, hierarchy, whitespace=whitespace)
    if kind == "numeric":
        return NumericQI(name, column, balanced=balanced)
    return SetQI(name, column, order, label_length, balanced=balanced, whitespace=whitespace)
