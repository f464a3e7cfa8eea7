"""The generalization hierarchy of one quasi-identifier, and the queries it answers.

A :class:`Hierarchy` is a rooted tree whose leaves are the values of one quasi-identifier and
whose inner nodes are coarser labels, arranged in levels of equal depth: level 0 holds the
leaves, level ``height`` the single root.  It is what a release shows in place of a QI value
once that value is generalized (Chen, LeFevre and Ramakrishnan 2009, Sect. 1.3 and Table 1b:
ages ``2*``, zip codes ``1234*``) and what SkylineAnonymize labels its QI-groups with
(Sect. 6.2, multidimensional generalization over the "QI space").

The class holds the model (levels, the frozen :class:`networkx.DiGraph`, nodes, parents,
children, ancestors, leaves; equality, hashing, pickling) and its lookups
(:meth:`~Hierarchy.generalize`, :meth:`~Hierarchy.lca`, :meth:`~Hierarchy.covers`, ...).
Readers and builders live beside it as functions (:mod:`skyprivacy.hierarchy.arx`,
:mod:`skyprivacy.hierarchy.builders`; the bundled files are parsed by
:func:`skyprivacy.datasets.bundled`); every one of them ends in :func:`make_hierarchy`, the one
construction path.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

import networkx as nx
import numpy as np
import pandas as pd
from pandas.api.types import is_hashable

from .._core.canonical import WHITESPACE
from .._core.validation import Interval, Options, Predicate, check, validate_params
from ..errors import HierarchyError, param_error
from ._common import described_error, is_blank, native_value, object_array, shown, title
from .lookup import LeafLookup, first_seen_codes, one_dimensional

__all__ = ["Hierarchy", "NAME", "NumberedRows", "make_hierarchy", "rows_of"]

#: The declared ``name`` option of the class and of every reader and builder.
NAME = Predicate(lambda value: value is None or isinstance(value, str), "be a string or None",
                 invalid=3)


class Hierarchy:
    """A generalization hierarchy of one quasi-identifier: levels of equal depth, one root.

    Level 0 holds the leaves (the values that occur in the data), level ``height`` the root;
    every node has exactly one parent on the next level.  Build one from ARX's CSV format
    (:func:`~skyprivacy.hierarchy.parse_arx`), from rows or mappings
    (:func:`~skyprivacy.hierarchy.from_levels`, :func:`~skyprivacy.hierarchy.from_mapping`),
    or with a builder (:func:`~skyprivacy.hierarchy.intervals`,
    :func:`~skyprivacy.hierarchy.masking`, :func:`~skyprivacy.hierarchy.dates`); calling the
    class is the same as ``from_levels``.  A hierarchy is immutable, hashable and picklable.

    Parameters
    ----------
    levels : pandas.DataFrame, 2-D array or sequence of sequences
        One row per leaf: ``leaf, level 1, ..., root`` (the ARX layout).
    name : str, optional
        Name of the attribute (used in messages and as the name of generalized Series).

    Raises
    ------
    HierarchyError
        If the rows are empty, a label is missing, rows have unequal depth, a leaf repeats,
        a node has two parents, or the last level holds more than one label.

    Notes
    -----
    Nodes are ``(level, label)`` pairs: a label may repeat on several levels (a category
    kept unchanged at level 1, say ``'c'`` under ``'c'``), so a label alone does not always
    identify a node.  Methods taking a node accept the pair, or a bare label when it
    occurs on exactly one level.  How data values are matched to leaves (``39`` against the
    leaf ``'39'``) is described in :mod:`skyprivacy.hierarchy.lookup`.

    References
    ----------
    Chen, LeFevre and Ramakrishnan (2009), "Privacy skyline", Sect. 1.3 (generalized regions
    ``[2*, *, 1234*]``) and Sect. 6.2 (multidimensional generalization of the QI space).
    Prasser and Kohlmayer, ARX Data Anonymization Tool, hierarchy CSV format.

    Examples
    --------
    >>> h = Hierarchy([["Male", "*"], ["Female", "*"]], name="sex")
    >>> h
    Hierarchy(name='sex', height=1, leaves=2)
    >>> h.generalize(["Male", "Female"], 1)
    ['*', '*']
    >>> h.root, h.leaves
    ('*', ('Male', 'Female'))
    """

    __slots__ = (
        "_name", "_rows", "_height", "_leaves", "_labels", "_label_arrays", "_codes",
        "_label_code", "_first_leaf", "_label_levels", "_find_leaf", "_graph", "_hash",
    )
    # Set once by _build (through object.__setattr__, the class being immutable); the two
    # caches _graph and _hash start as None and are filled on first use.
    _name: str | None
    _rows: tuple[tuple[Any, ...], ...]
    _height: int
    _leaves: tuple[Any, ...]
    _labels: tuple[tuple[Any, ...], ...]
    _label_arrays: tuple[np.ndarray, ...]
    _codes: np.ndarray
    _label_code: tuple[dict[Any, int], ...]
    _first_leaf: tuple[np.ndarray, ...]
    _label_levels: dict[Any, tuple[int, ...]]
    _find_leaf: LeafLookup
    _graph: nx.DiGraph | None
    _hash: int | None

    @validate_params({"name": NAME})
    def __init__(self, levels, *, name=None):
        rows, numbers_ = rows_of(levels, "Hierarchy")
        self._build(rows, name, numbers_)

    def _build(self, rows: list, name, row_numbers) -> None:
        """Validate rows (each a sequence leaf, ..., root) and set every attribute."""
        tables = _tables(rows, name, row_numbers)
        set_ = object.__setattr__
        set_(self, "_name", name)
        for key, value in tables.items():
            set_(self, key, value)
        set_(self, "_graph", None)
        set_(self, "_hash", None)

    # ------------------------------------------------------------------- properties
    @property
    def name(self):
        """Name of the attribute, or None."""
        return self._name

    @property
    def height(self) -> int:
        """Number of generalization levels above the leaves; the root is at level ``height``."""
        return self._height

    @property
    def root(self):
        """Label of the root."""
        return self._labels[self._height][0]

    @property
    def root_node(self) -> tuple:
        """The root as a node ``(height, label)``."""
        return (self._height, self.root)

    @property
    def leaves(self) -> tuple:
        """Leaf labels, in the order of the rows the hierarchy was built from."""
        return self._leaves

    @property
    def rows(self) -> tuple:
        """One tuple per leaf, ``(leaf, level 1, ..., root)``: the ARX layout, labels as built.

        Examples
        --------
        >>> Hierarchy([["a", "ab", "*"], ["b", "ab", "*"]]).rows
        (('a', 'ab', '*'), ('b', 'ab', '*'))
        """
        return self._rows

    @property
    def graph(self) -> nx.DiGraph:
        """Frozen :class:`networkx.DiGraph`, edges parent -> child.

        Nodes are ``(level, label)`` with attributes ``level`` and ``label``; the graph
        attribute ``name`` is the hierarchy's name.
        """
        if self._graph is None:
            object.__setattr__(self, "_graph", self._make_graph())
        return self._graph

    def _make_graph(self) -> nx.DiGraph:
        graph = nx.DiGraph(name=self._name)
        for level in range(self._height, -1, -1):
            graph.add_nodes_from(((level, label), {"level": level, "label": label})
                                 for label in self._labels[level])
        for level in range(self._height):
            # one edge per distinct (parent, child) pair, in order of first appearance
            child_codes = np.arange(len(self._labels[level]))
            parent_codes = self._codes[level + 1][self._first_leaf[level]]
            upper, lower = self._labels[level + 1], self._labels[level]
            graph.add_edges_from(((level + 1, upper[p]), (level, lower[c]))
                                 for p, c in zip(parent_codes.tolist(), child_codes.tolist()))
        return nx.freeze(graph)

    def _has_node(self, node) -> bool:
        if not (isinstance(node, tuple) and len(node) == 2 and is_hashable(node)):
            return False
        level, label = node
        if not isinstance(level, numbers.Integral) or isinstance(level, bool):
            return False
        return 0 <= int(level) <= self._height and label in self._label_code[int(level)]

    # ------------------------------------------------------------------ structure
    def _check_level(self, level, owner: str) -> int:
        return check(level, Interval("integer", 0, self._height), name="level", owner=owner)

    def nodes_at(self, level) -> tuple:
        """Nodes ``(level, label)`` at a level, in order of first appearance.

        Examples
        --------
        >>> from skyprivacy.datasets import bundled
        >>> bundled("adult", "education").nodes_at(2)
        ((2, 'Higher education'), (2, 'Secondary education'), (2, 'Primary education'))
        """
        level = self._check_level(level, "Hierarchy.nodes_at")
        return tuple((level, label) for label in self._labels[level])

    def labels_at(self, level) -> tuple:
        """Labels at a level, in order of first appearance (``labels_at(0) == leaves``)."""
        return self._labels[self._check_level(level, "Hierarchy.labels_at")]

    def _resolve(self, node) -> tuple:
        """A node given as (level, label), a label on a single level, or a data value of a leaf."""
        if self._has_node(node):
            return (int(node[0]), self._labels[node[0]][self._label_code[node[0]][node[1]]])
        if is_hashable(node):
            levels = self._label_levels.get(node)
            if levels is not None and len(levels) > 1:
                raise HierarchyError(
                    f"{title(self._name)}: label {node!r} is at levels "
                    f"{', '.join(map(str, levels))}; pass a (level, label) node to say which."
                )
            if levels is not None:
                return (levels[0], node)
        position = self._find_leaf(node)
        if position >= 0:
            return (0, self._leaves[position])
        example = (min(1, self._height), self._labels[min(1, self._height)][0])
        raise HierarchyError(
            f"{title(self._name)} has no node {native_value(node)!r}; nodes are (level, label) "
            f"pairs such as {example!r}."
        )

    def level_of(self, node) -> int:
        """Level of a node (``(level, label)``, or a label found on exactly one level).

        Examples
        --------
        >>> from skyprivacy.datasets import bundled
        >>> h = bundled("adult", "education")
        >>> h.level_of("Undergraduate"), h.level_of("Masters"), h.level_of((3, "*"))
        (1, 0, 3)
        """
        return self._resolve(node)[0]

    def parent(self, node):
        """The parent node ``(level + 1, label)``, or None for the root.

        Examples
        --------
        >>> from skyprivacy.datasets import bundled
        >>> bundled("adult", "age").parent(39)
        (1, '35-39')
        """
        level, label = self._resolve(node)
        if level == self._height:
            return None
        row = self._first_leaf[level][self._label_code[level][label]]
        return (level + 1, self._labels[level + 1][self._codes[level + 1][row]])

    def ancestors(self, node) -> tuple:
        """Nodes from the parent of ``node`` up to the root (empty for the root)."""
        level, label = self._resolve(node)
        row = self._first_leaf[level][self._label_code[level][label]]
        return tuple((up, self._labels[up][self._codes[up][row]])
                     for up in range(level + 1, self._height + 1))

    def children(self, node) -> tuple:
        """Child nodes, in order of first appearance (empty for a leaf).

        Examples
        --------
        >>> from skyprivacy.datasets import bundled
        >>> bundled("adult", "marital-status").children("*")
        ((1, 'spouse present'), (1, 'spouse not present'))
        """
        return tuple(self.graph.successors(self._resolve(node)))

    def leaves_under(self, node) -> frozenset:
        """Leaf labels in the subtree of a node (a leaf gives itself).

        Examples
        --------
        >>> from skyprivacy.datasets import bundled
        >>> sorted(bundled("adult", "education").leaves_under("Graduate"))
        ['Doctorate', 'Masters']
        """
        level, label = self._resolve(node)
        mask = self._codes[level] == self._label_code[level][label]
        return frozenset(self._labels[0][i] for i in np.flatnonzero(mask))

    # --------------------------------------------------------------------- lookups
    def _positions(self, data, *, nodes: bool = False, whitespace: str = "strip"):
        """Leaf positions of 1-D data (-1 where uncovered), and nodes found when ``nodes``;
        text is looked up in canonical form under ``whitespace`` (:class:`LeafLookup`).

        Works on the distinct values only, so the cost is one factorize of the data plus a
        dictionary lookup per distinct value.
        """
        codes, uniques = first_seen_codes(data)
        found_nodes = []
        unique_positions = np.empty(len(uniques), dtype=np.intp)
        for j, value in enumerate(uniques):
            if nodes and self._has_node(value):
                found_nodes.append((int(value[0]), value[1]))
                unique_positions[j] = -2
            else:
                unique_positions[j] = self._find_leaf(value, whitespace)
        return codes, uniques, unique_positions, found_nodes

    def _covered_positions(self, data, *, nodes: bool = False, whitespace: str = "strip"):
        """:meth:`_positions`, raising the uncovered-values error if a value has no leaf."""
        codes, uniques, unique_positions, found = self._positions(data, nodes=nodes,
                                                                  whitespace=whitespace)
        bad = np.flatnonzero(unique_positions == -1)
        if bad.size:
            rows = int(np.isin(codes, bad).sum())
            values = [uniques[j] for j in bad]
            raise HierarchyError(
                f"{title(self._name)} does not cover {len(values)} distinct value(s) of the "
                f"data ({rows} row(s)): {shown(values)}; its leaves include "
                f"{shown(list(self._leaves))}."
            )
        return codes, unique_positions, found

    def uncovered(self, values) -> tuple:
        """Distinct values that no leaf covers, in order of first appearance.

        Examples
        --------
        >>> from skyprivacy.datasets import bundled
        >>> bundled("adult", "sex").uncovered(["Male", "male", None, "Male"])
        ('male', nan)
        """
        return self._uncovered(values, "Hierarchy.uncovered")

    def _uncovered(self, values, owner: str) -> tuple:
        _, data = one_dimensional(values, owner)
        _, uniques, unique_positions, _ = self._positions(data)
        return tuple(native_value(uniques[j]) for j in np.flatnonzero(unique_positions < 0))

    def covers(self, values) -> bool:
        """Whether every value (or the single value given) is covered by a leaf.

        Examples
        --------
        >>> from skyprivacy.datasets import bundled
        >>> age = bundled("adult", "age")
        >>> age.covers([17, "90"]), age.covers(101)
        (True, False)
        """
        return not self._uncovered(values, "Hierarchy.covers")

    @validate_params({"whitespace": Options(*WHITESPACE)})
    def validate(self, values, *, whitespace: str = "strip") -> None:
        """Raise :class:`HierarchyError` naming the values no leaf covers.

        Parameters
        ----------
        values : Series, Index, ndarray, list, tuple or iterable
        whitespace : {'strip', 'keep'}, default 'strip'
            How text is matched to the leaves, as in :meth:`generalize`.

        Examples
        --------
        >>> from skyprivacy.datasets import bundled
        >>> bundled("adult", "sex").validate(["Male", "female", "x", "x"])
        Traceback (most recent call last):
        ...
        skyprivacy.errors.HierarchyError: Hierarchy 'sex' does not cover 2 distinct value(s) of the
            data (3 row(s)): ['female', 'x']; its leaves include ['Male', 'Female'].
        """
        _, data = one_dimensional(values, "Hierarchy.validate")
        self._covered_positions(data, whitespace=whitespace)

    def __contains__(self, value) -> bool:
        return self._find_leaf(value) >= 0

    @validate_params({"whitespace": Options(*WHITESPACE)})
    def generalize(self, values, level, *, whitespace: str = "strip"):
        """Replace each value by the label of its ancestor at ``level``.

        Parameters
        ----------
        values : Series, Index, ndarray, list, tuple, iterable or scalar
            Data values, matched to leaves by the lookup rule of
            :mod:`skyprivacy.hierarchy.lookup` (``39`` finds the leaf ``'39'``).  A ``str``
            is one value.
        level : int
            In ``[0, height]``; 0 gives the leaf labels themselves, ``height`` the root.
        whitespace : {'strip', 'keep'}, default 'strip'
            How a text value without a leaf of its exact text is compared with the leaves
            (docs/canonical-text.md): in Unicode NFC without zero-width characters, its
            surrounding whitespace stripped or kept (``' Male'`` finds ``'Male'`` only under
            ``'strip'``).

        Returns
        -------
        Same kind as ``values``
            A Series keeps its index and name (dtype inferred by pandas from the labels), an
            Index its name; an ndarray gives an object ndarray; a tuple a tuple; other
            iterables a list; a scalar a scalar.  The input is not modified.

        Raises
        ------
        HierarchyError
            If a value is not covered (names up to five distinct values and how many rows).
        InvalidParameterError
            If ``level`` is not an integer in ``[0, height]`` or ``values`` is not 1-D.

        Notes
        -----
        Vectorized: the values are factorized once and only the distinct ones are looked
        up, so a million values take a small fraction of a second.

        Examples
        --------
        >>> import pandas as pd
        >>> from skyprivacy.datasets import bundled
        >>> age = bundled("adult", "age")
        >>> ages = pd.Series([39, 52, 38], index=[10, 11, 12], name="age")
        >>> age.generalize(ages, 2).tolist()
        ['30-39', '50-59', '30-39']
        >>> age.generalize(ages, 2).index.tolist()
        [10, 11, 12]
        >>> age.generalize(ages, 5)
        Traceback (most recent call last):
        ...
        skyprivacy.errors.InvalidParameterError: The 'level' parameter of Hierarchy.generalize must
            be an integer in [0, 4]. Got 5 instead.
        """
        owner = "Hierarchy.generalize"
        level = self._check_level(level, owner)
        kind, data = one_dimensional(values, owner)
        codes, unique_positions, _ = self._covered_positions(data, whitespace=whitespace)
        labels = self._label_arrays[level][unique_positions][codes]
        if kind == "series":
            return pd.Series(labels, index=values.index, name=values.name)
        if kind == "index":
            return pd.Index(labels, name=values.name)
        if kind == "array":
            return labels
        if kind == "scalar":
            return labels[0]
        if kind == "tuple":
            return tuple(labels.tolist())
        return labels.tolist()

    # ------------------------------------------------------------------------ lca
    def lca_node(self, values) -> tuple:
        """Lowest node ``(level, label)`` whose subtree covers all values.

        Parameters
        ----------
        values : iterable or scalar
            Data values (matched to leaves as in :meth:`generalize`) and/or nodes
            ``(level, label)``; a 2-tuple that is a node is taken as that node.

        Returns
        -------
        tuple
            ``(level, label)``.

        Raises
        ------
        HierarchyError
            If a value is not covered.
        InvalidParameterError
            If ``values`` is empty.

        Examples
        --------
        >>> from skyprivacy.datasets import bundled
        >>> h = bundled("adult", "education")
        >>> h.lca_node(["Masters", "Doctorate"])
        (1, 'Graduate')
        >>> h.lca_node(["Masters", (1, "Undergraduate")])
        (2, 'Higher education')
        """
        return self._lca(values, "Hierarchy.lca_node")

    def lca(self, values):
        """Label of the lowest common ancestor of the values: the label of a QI-group.

        Same arguments as :meth:`lca_node`; returns only the label.

        Examples
        --------
        >>> from skyprivacy.datasets import bundled
        >>> age = bundled("adult", "age")
        >>> age.lca([31, 38]), age.lca([22, 38]), age.lca([31, 45]), age.lca([39])
        ('30-39', '20-39', '*', '39')
        >>> age.lca([])
        Traceback (most recent call last):
        ...
        skyprivacy.errors.InvalidParameterError: The 'values' parameter of Hierarchy.lca must be
            non-empty. Got [] instead.
        """
        return self._lca(values, "Hierarchy.lca")[1]

    def _lca(self, values, owner: str) -> tuple:
        _, data = one_dimensional(values, owner)
        if len(data) == 0:
            raise param_error("values", owner, "be non-empty", [])
        _, unique_positions, found = self._covered_positions(data, nodes=True)
        representatives = [int(p) for p in unique_positions if p >= 0]
        start = 0
        for level, label in found:
            representatives.append(int(self._first_leaf[level][self._label_code[level][label]]))
            start = max(start, level)
        block = self._codes[start:, representatives]
        level = start + int(np.argmax((block == block[:, :1]).all(axis=1)))
        return (level, self._labels[level][self._codes[level][representatives[0]]])

    def lca_by_group(self, values, groups) -> pd.DataFrame:
        """Lowest common ancestor of the values in each group, vectorized over groups.

        Parameters
        ----------
        values : 1-D array-like
            Data values, matched to leaves as in :meth:`generalize`.
        groups : 1-D array-like of the same length
            Group key of each value (e.g. a QI-group id).  Missing keys are not allowed.

        Returns
        -------
        pandas.DataFrame
            Indexed by group key in order of first appearance, columns ``level`` (int) and
            ``label``.

        Raises
        ------
        HierarchyError
            If a value is not covered.
        InvalidParameterError
            If the lengths differ or a group key is missing.

        Examples
        --------
        >>> from skyprivacy.datasets import bundled
        >>> age = bundled("adult", "age")
        >>> age.lca_by_group([31, 38, 45, 45], ["g1", "g1", "g2", "g2"])
            level  label
        g1      2  30-39
        g2      0     45
        """
        owner = "Hierarchy.lca_by_group"
        _, data = one_dimensional(values, owner)
        _, keys = one_dimensional(groups, owner, "groups")
        if len(keys) != len(data):
            raise described_error("groups", owner, f"have one key per value ({len(data)})",
                                  f"{len(keys)} keys")
        group_codes, group_keys = pd.factorize(keys, use_na_sentinel=True)
        if (group_codes < 0).any():
            raise described_error("groups", owner, "have no missing keys",
                                  f"{int((group_codes < 0).sum())} missing")
        codes, unique_positions, _ = self._covered_positions(data)
        positions = unique_positions[codes]
        n_groups = len(group_keys)
        result_level = np.full(n_groups, -1, dtype=np.intp)
        result_code = np.zeros(n_groups, dtype=np.intp)
        for level in range(self._height + 1):
            node_codes = self._codes[level][positions]
            low = np.full(n_groups, np.iinfo(np.intp).max, dtype=np.intp)
            high = np.full(n_groups, -1, dtype=np.intp)
            np.minimum.at(low, group_codes, node_codes)
            np.maximum.at(high, group_codes, node_codes)
            settle = (low == high) & (result_level < 0)
            result_level[settle] = level
            result_code[settle] = low[settle]
            if (result_level >= 0).all():
                break
        labels = [self._labels[lv][c]
                  for lv, c in zip(result_level.tolist(), result_code.tolist())]
        return pd.DataFrame({"level": result_level.astype(np.int64), "label": labels},
                            index=pd.Index(group_keys))

    # ------------------------------------------------------------------- export
    def to_frame(self) -> pd.DataFrame:
        """One row per leaf, one column per level (columns ``0 .. height``): the ARX layout.

        Examples
        --------
        >>> from skyprivacy.datasets import bundled
        >>> bundled("adult", "sex").to_frame()
                0  1
        0    Male  *
        1  Female  *
        """
        return pd.DataFrame([list(row) for row in self._rows], columns=range(self._height + 1))

    # ----------------------------------------------------------------- protocol
    def __setattr__(self, key, value):
        raise AttributeError(f"Hierarchy is immutable; cannot set {key!r}.")

    def __delattr__(self, key):
        raise AttributeError(f"Hierarchy is immutable; cannot delete {key!r}.")

    def __reduce__(self):
        return (_rebuild, (list(map(list, self._rows)), self._name))

    def __eq__(self, other):
        if not isinstance(other, Hierarchy):
            return NotImplemented
        return self._name == other._name and self._rows == other._rows

    def __hash__(self):
        if self._hash is None:
            object.__setattr__(self, "_hash", hash((self._name, self._rows)))
        return self._hash

    def __repr__(self):
        return (f"Hierarchy(name={self._name!r}, height={self._height}, "
                f"leaves={len(self._leaves)})")


def make_hierarchy(rows: list, *, name=None, row_numbers=None,
                   cite_rows: bool = True) -> Hierarchy:
    """The one construction path: validated rows (``leaf, level 1, ..., root``) -> Hierarchy.

    Every reader and builder ends here; users call :class:`Hierarchy` or a builder.

    Parameters
    ----------
    rows : list of sequences
        One row per leaf; trailing missing or empty cells are padding.  The list may be
        modified (padding trimmed).
    name : str or None
        The attribute's name, already validated.
    row_numbers : sequence of int, optional
        The number a message cites for each row (an ARX file's line numbers); default the
        1-based positions.
    cite_rows : bool, default True
        False when the rows have no numbers a user would know (mappings): messages cite
        the leaf only.
    """
    if cite_rows and row_numbers is None:
        row_numbers = range(1, len(rows) + 1)
    return Hierarchy(NumberedRows(rows, list(row_numbers) if cite_rows else None), name=name)


def _rebuild(rows, name):
    return make_hierarchy(rows, name=name)


class NumberedRows(NamedTuple):
    """Rows already read (``leaf, level 1, ..., root``) with the number a message cites for
    each, or None to cite leaves only: how :func:`make_hierarchy` hands a reader's or a
    builder's rows to the class, whose constructor is the one place a hierarchy is built."""

    rows: list
    numbers: list | None


def rows_of(levels, owner: str):
    """Rows (lists of labels) and their 1-based numbers from a frame, array or sequences."""
    if isinstance(levels, NumberedRows):
        return levels.rows, levels.numbers
    if isinstance(levels, pd.DataFrame):
        rows = [list(row) for row in levels.itertuples(index=False, name=None)]
    elif isinstance(levels, np.ndarray):
        if levels.ndim != 2:
            raise described_error("levels", owner, "be two-dimensional (one row per leaf)",
                                  f"an array of shape {levels.shape}")
        rows = [list(row) for row in levels.tolist()]
    elif (isinstance(levels, (str, bytes, Mapping)) or not isinstance(levels, Iterable)):
        raise param_error("levels", owner,
                          "be a DataFrame, a 2-D array or a sequence of rows", levels)
    else:
        rows = []
        for row in levels:
            if isinstance(row, (str, bytes)) or not isinstance(row, Iterable):
                raise param_error("levels", owner,
                                  "be a sequence of rows (each a sequence of labels)", row)
            rows.append(list(row))
    return rows, list(range(1, len(rows) + 1))


def _tables(rows: list, name, row_numbers) -> dict:
    """Check the rows and return the attributes of the hierarchy they describe.

    ``row_numbers`` is a list of 1-based row numbers to cite in messages, or None to cite
    leaves only (mappings have no rows).  Works column by column with
    :func:`pandas.factorize`, so 100,000 leaves take a fraction of a second.
    """
    name_ = title(name)

    def where(i: int) -> str:
        leaf = native_value(rows[i][0]) if len(rows[i]) else None
        if row_numbers is None:
            return f"leaf {leaf!r}"
        return f"row {row_numbers[i]} (leaf {leaf!r})"

    if not rows:
        raise HierarchyError(f"{name_} is empty: give at least one leaf and its levels.")
    lasts = object_array([row[-1] if len(row) else None for row in rows])
    suspects = np.flatnonzero(np.asarray(pd.isna(lasts), dtype=bool) | (lasts == ""))
    for i in suspects.tolist():
        row = rows[i]
        if not len(row) or is_blank(row[-1]):
            # trailing empty cells are the padding of a ragged table, not labels
            row = list(row)
            while row and is_blank(row[-1]):
                row.pop()
            if not row:
                cite = f"row {row_numbers[i]}" if row_numbers else "a row"
                raise HierarchyError(f"{name_}: {cite} is empty.")
            rows[i] = row
    depth = len(rows[0])
    lengths = np.fromiter(map(len, rows), dtype=np.intp, count=len(rows))
    unequal = np.flatnonzero(lengths != depth)
    if unequal.size:
        i = int(unequal[0])
        raise HierarchyError(
            f"{name_}: levels of unequal depth: {where(i)} has {len(rows[i]) - 1} "
            f"level(s) above the leaf but {where(0)} has {depth - 1}."
        )
    height = depth - 1

    # Per level: distinct labels in order of first appearance, each row's code, and the
    # first row holding each label.
    labels, codes, label_code, first_row = [], [], [], []
    for level in range(depth):
        column = object_array([row[level] for row in rows])
        blank = np.asarray(pd.isna(column), dtype=bool) | (column == "")
        if blank.any():
            raise HierarchyError(
                f"{name_}: {where(int(np.argmax(blank)))} has an empty label at level {level}."
            )
        try:
            level_codes, uniques = pd.factorize(column)
        except TypeError:
            i = next(i for i, label in enumerate(column) if not is_hashable(label))
            raise HierarchyError(
                f"{name_}: {where(i)} has an unhashable label {column[i]!r} at level {level}."
            ) from None
        level_codes = np.asarray(level_codes, dtype=np.intp)
        first = np.unique(level_codes, return_index=True)[1]
        if level == 0 and len(first) < len(rows):
            repeated = np.flatnonzero(np.arange(len(rows)) != first[level_codes])
            i = int(repeated[0])
            raise HierarchyError(
                f"{name_}: leaf {native_value(column[first[level_codes[i]]])!r} appears twice, "
                f"in {where(int(first[level_codes[i]]))} and {where(i)}."
            )
        level_labels = tuple(uniques.tolist() if isinstance(uniques, np.ndarray) else uniques)
        if any(isinstance(label, np.generic) for label in level_labels):
            level_labels = tuple(native_value(label) for label in level_labels)
        labels.append(level_labels)
        codes.append(level_codes)
        label_code.append({label: code for code, label in enumerate(level_labels)})
        first_row.append(first.astype(np.intp))

    # Each node has exactly one parent on the next level: compare every row's parent with
    # the parent seen on the first row of the same child.
    for level in range(height):
        child, parent = codes[level], codes[level + 1]
        expected = parent[first_row[level]][child]
        conflicts = np.flatnonzero(parent != expected)
        if conflicts.size:
            i = int(conflicts[0])
            first_of_child = int(first_row[level][child[i]])
            raise HierarchyError(
                f"{name_}: node {labels[level][child[i]]!r} at level {level} has two "
                f"parents, {labels[level + 1][parent[first_of_child]]!r} "
                f"({where(first_of_child)}) and "
                f"{labels[level + 1][parent[i]]!r} ({where(i)})."
            )
    if len(labels[height]) != 1:
        raise HierarchyError(
            f"{name_} has {len(labels[height])} roots {shown(list(labels[height]))} at "
            f"level {height}; the last level must hold a single label such as '*'."
        )

    label_levels: dict = {}
    for level in range(depth):
        for label in labels[level]:
            label_levels.setdefault(label, []).append(level)

    label_arrays = []
    for level in range(depth):
        # indexed by leaf position; leaves are in row order, so leaf position == row
        array = object_array(list(labels[level]))[codes[level]]
        array.flags.writeable = False
        label_arrays.append(array)
    code_matrix = np.vstack(codes)
    code_matrix.flags.writeable = False
    return {
        "_rows": tuple(zip(*label_arrays)),
        "_height": height,
        "_leaves": labels[0],
        "_labels": tuple(labels),
        "_label_arrays": tuple(label_arrays),
        "_codes": code_matrix,
        "_label_code": tuple(label_code),
        "_first_leaf": tuple(first_row),
        "_label_levels": {k: tuple(v) for k, v in label_levels.items()},
        "_find_leaf": LeafLookup(labels[0], label_code[0]),
    }
