"""Quasi-identifier encoders shared by the anonymization engines (Sect. 6.2).

Each encoder maps one QI column to integer codes and knows how to split a range of codes at one
BFS level of the Mondrian search (numeric median cut, set-valued categories, hierarchy children)
and how to label a published range.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .errors import HierarchyError
from .release import _factorize

class _NumericQI:
    """A numeric quasi-identifier: codes are ranks of the distinct values."""

    kind = "numeric"

    def __init__(self, name: str, column: pd.Series):
        self.name = name
        uniques, codes = np.unique(column.to_numpy(), return_inverse=True)
        self.uniques = uniques
        self.codes = codes.astype(np.int64).reshape(-1)
        self.span = float(uniques[-1] - uniques[0]) if len(uniques) > 1 else 0.0

    def level_split(self, codes, part_of, starts, lo, hi):
        """Median split of every group of a level at once.

        ``codes`` are the attribute codes of the level's rows grouped by partition
        (``part_of``, boundaries ``starts``). Returns the child (0 or 1) of every row, the
        number of children per partition and the normalized width per partition."""
        n_parts = len(lo)
        sizes = np.diff(starts)
        half = (sizes + 1) // 2  # lower median: first code whose cumulative count reaches it
        span = hi - lo + 1
        if span.sum() <= max(4 * len(codes), 1 << 20):
            # per-partition histograms laid end to end: no sorting needed
            offset = np.cumsum(span) - span
            histogram = np.bincount(offset[part_of] + codes - lo[part_of],
                                    minlength=int(span.sum()))
            cumulative = np.cumsum(histogram)
            before = np.where(offset > 0, cumulative[np.maximum(offset - 1, 0)], 0)
            cut = lo + np.searchsorted(cumulative, before + half) - offset
            at_max = cut >= hi
            if at_max.any():  # cut at the largest present code below the maximum instead
                index = np.arange(len(histogram))
                last_present = np.maximum.accumulate(np.where(histogram > 0, index, -1))
                previous = last_present[np.maximum(offset + span - 2, 0)]
                cut = np.where(at_max, lo + previous - offset, cut)
        else:
            key = part_of * (len(self.uniques) + 1) + codes
            sorted_codes = codes[np.argsort(key, kind="stable")]
            cut = sorted_codes[starts[:-1] + half - 1]
            at_max = cut >= hi
            if at_max.any():
                below = np.add.reduceat((codes < hi[part_of]).astype(np.int64), starts[:-1])
                alternative = sorted_codes[np.maximum(starts[:-1] + below - 1, 0)]
                cut = np.where(at_max, alternative, cut)
        child = (codes > cut[part_of]).astype(np.int64)
        n_children = np.where(hi > lo, 2, 0)
        width = (np.zeros(n_parts) if self.span == 0 else
                 (self.uniques[hi] - self.uniques[lo]).astype(float) / self.span)
        return child, n_children, width

    def label(self, lo: int, hi: int) -> str:
        a, b = self.uniques[lo], self.uniques[hi]
        a = a.item() if isinstance(a, np.generic) else a
        b = b.item() if isinstance(b, np.generic) else b
        return str(a) if lo == hi else f"[{a}, {b}]"


class _SetQI(_NumericQI):
    """A categorical quasi-identifier without a hierarchy: its distinct values in sorted order
    are split at the median like a numeric range (any contiguous run of values can form a
    group), and a group is labelled with the set of values its range spans."""

    kind = "set"

    def __init__(self, name: str, column: pd.Series):
        self.name = name
        codes, uniques = _factorize(column)
        self.codes = codes
        self.labels_ = [str(u) for u in uniques]
        self.uniques = np.arange(len(uniques))
        self.span = float(len(uniques) - 1)

    def label(self, lo: int, hi: int) -> str:
        values = self.labels_[lo:hi + 1]
        if len(values) == 1:
            return values[0]
        if len(values) <= 4:
            return "{" + ", ".join(values) + "}"
        return f"{{{values[0]}, ..., {values[-1]}}} ({len(values)} values)"


class _TreeQI:
    """A hierarchical quasi-identifier: leaves numbered in depth-first order, so every node
    covers a contiguous range of leaf codes and a group's label is the lowest common ancestor
    of its smallest and largest code."""

    kind = "hierarchy"

    def __init__(self, name: str, column: pd.Series, hierarchy=None):
        self.name = name
        if hierarchy is None:  # flat: every distinct value directly under '*'
            codes, uniques = _factorize(column)
            self.leaf_labels = [str(u) for u in uniques]
            self.codes = codes
            n = len(uniques)
            self.node_label = ["*"] + self.leaf_labels
            self.node_lo = np.array([0] + list(range(n)), dtype=np.int64)
            self.node_hi = np.array([n - 1] + list(range(n)), dtype=np.int64)
            self.children = [list(range(1, n + 1))] + [[] for _ in range(n)]
            self.parent = np.array([-1] + [0] * n, dtype=np.int64)
            self.depth = np.array([0] + [1] * n, dtype=np.int64)
            self.leaf_node = np.arange(1, n + 1, dtype=np.int64)
        else:
            self._from_hierarchy(column, hierarchy)
        self.n_leaves = len(self.leaf_labels)

    def _from_hierarchy(self, column: pd.Series, hierarchy) -> None:
        graph = hierarchy.graph
        root = hierarchy.root_node
        labels, lo, hi, children, parent, depth = [], [], [], [], [], []
        leaf_labels, leaf_node = [], []
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
            lo.append(-1)
            hi.append(-1)
            if par >= 0:
                children[par].append(idx)
            kids = list(graph.successors(node))
            if not kids:
                lo[idx] = hi[idx] = len(leaf_labels)
                leaf_labels.append(labels[idx])
                leaf_node.append(idx)
            order.append(idx)
            for kid in reversed(kids):
                stack.append((kid, idx, d + 1))
        lo = np.array(lo, dtype=np.int64)
        hi = np.array(hi, dtype=np.int64)
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
        value_codes, uniques = _factorize(column)
        try:
            leaves = hierarchy.generalize(list(uniques), 0)
        except HierarchyError as exc:
            raise HierarchyError(f"Hierarchy for column {self.name!r}: {exc}") from None
        position = {label: i for i, label in enumerate(leaf_labels)}
        self.codes = np.array([position[leaf] for leaf in leaves], dtype=np.int64)[value_codes]

    def lca(self, lo: int, hi: int) -> int:
        a, b = int(self.leaf_node[lo]), int(self.leaf_node[hi])
        while self.depth[a] > self.depth[b]:
            a = int(self.parent[a])
        while self.depth[b] > self.depth[a]:
            b = int(self.parent[b])
        while a != b:
            a, b = int(self.parent[a]), int(self.parent[b])
        return a

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

    def level_split(self, codes, part_of, starts, lo, hi):
        """Split every group of a level into the children of its lowest common ancestor."""
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

    def label(self, lo: int, hi: int) -> str:
        return self.node_label[self.lca(lo, hi)]
