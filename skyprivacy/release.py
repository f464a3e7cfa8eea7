"""The QI-group model: a release candidate, built once and read by every algorithm.

A release candidate D* is a list of disjoint QI-groups g = (G_g, X_g): n_g individuals and the
multiset X_g of their sensitive values (Chen, LeFevre and Ramakrishnan 2009, Sect. 2.1).  It is
stored sparsely, as a vector of group sizes and the (group, value, count) nonzeros in CSR form
(each group's row sorted by count, so it doubles as the sorted counts the closed forms need), in
memory O(groups + values + nonzeros); nothing downstream re-groups raw rows or builds a dense
groups x values array.  Three constructors build the same object: from explicit
``(n_individuals, values)`` pairs, from a generalized table (groups = distinct combinations of
the quasi-identifier columns) and from a bucketized table (an explicit group column).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from ._core.encoding import (
    factorize,
    is_missing,
    list_like_cells,
    require_columns,
    sorted_uniques,
)
from ._core.canonical import (
    WHITESPACE,
    canonical_text,
    normalize_column,
    numeric_spellings,
    spellings_message,
)
from ._core.engines import dispatchable
from ._core.warning import warn
from ._core.exact import native
from .errors import CanonicalTextWarning, InvalidParameterError, SchemaError, param_error

__all__ = ["ReleaseCandidate", "SEMANTICS"]

#: The integrity constraints of Sect. 2.1: single value per individual, and multiple values per
#: individual as a set (no duplicates per person) or as a multiset.
SEMANTICS = ("svpi", "mvpi-set", "mvpi-multiset")
MISSING_OPTIONS = ("error", "as_value")
#: Largest groups x values table the dense views (:attr:`ReleaseCandidate.counts`) build.
DENSE_LIMIT = 20_000_000


def check_semantics(semantics: object, owner: str) -> str:
    """Validate a semantics name and return it."""
    if not isinstance(semantics, str) or semantics not in SEMANTICS:
        raise param_error("semantics", owner, f"be one of {list(SEMANTICS)}", semantics)
    return semantics


def check_release_columns(table, *, sensitive, qi, group, individual,
                          owner: str) -> tuple[list, list]:
    """(group keys, every column used) of a release table (any frame with ``.columns``), once
    checked: exactly one of ``qi`` and ``group``, at least one key, every column present and
    none used twice."""
    if (qi is None) == (group is None):
        raise InvalidParameterError(
            f"{owner} needs exactly one of 'qi' (generalized table) and 'group' "
            f"(bucketized table). Got qi={qi!r} and group={group!r} instead.")
    keys = [qi] if isinstance(qi, str) else (list(qi) if qi is not None else [group])
    if not keys:
        raise param_error("qi", owner, "name at least one column", qi)
    used = [*keys, sensitive] + ([individual] if individual is not None else [])
    require_columns(table, used)
    if len(set(used)) != len(used):
        raise InvalidParameterError(
            f"{owner} needs distinct columns for the groups, the sensitive value and the "
            f"individual. Got {used!r} instead.")
    return keys, used


def check_qi_and_sensitive(qi: list, sensitive, owner: str) -> None:
    """Quasi-identifiers must be distinct and must not include the sensitive column."""
    if sensitive in qi or len(set(qi)) != len(qi):
        raise InvalidParameterError(
            f"{owner} needs distinct quasi-identifier columns and a sensitive column that is "
            f"not one of them. Got qi={qi!r} and sensitive={sensitive!r} instead.")


class ReleaseCandidate:
    """A release candidate: QI-groups with their sizes and sensitive-value counts.

    Build it with :meth:`from_groups`, :meth:`from_table` or :meth:`from_counts`; the object is
    immutable and every algorithm in skyprivacy reads it.

    Attributes
    ----------
    semantics : {'svpi', 'mvpi-set', 'mvpi-multiset'}
        The integrity constraint of the original data (Sect. 2.1).
    values : tuple
        The distinct sensitive values, in column order of :attr:`counts`.
    group_labels : pandas.Index
        One label per QI-group (the generalized QI values, the bucket id, or 0..B-1).

    References
    ----------
    Chen, LeFevre and Ramakrishnan, "Adversarial-knowledge dimensions in data privacy",
    VLDB Journal 18 (2009), Sect. 2.1 (release candidates and reconstructions).

    Examples
    --------
    >>> release = ReleaseCandidate.from_groups(
    ...     [(4, ["AIDS", "AIDS", "Flu", "Flu"]), (4, ["AIDS", "Cancer", "Flu", "Flu"])])
    >>> release.n_groups, release.n_individuals
    (2, 8)
    >>> release.value_counts.to_dict()
    {'AIDS': 3, 'Cancer': 1, 'Flu': 4}
    """

    __slots__ = ("_sizes", "_indptr", "_nz_value", "_nz_count", "_values", "_labels",
                 "_semantics", "__dict__")
    _whitespace: str | None  # set by from_table (in __dict__); see the whitespace property

    def __init__(self, sizes, group, value, count, values, labels, semantics):
        # Private: use the from_* constructors, which validate.  (group, value, count) are
        # nonzeros in any order with distinct (group, value) pairs; they are stored as CSR rows
        # sorted by count, descending (ties by value), so each row is its sorted counts.
        sizes = np.array(sizes, dtype=np.int64).reshape(-1)
        group = np.asarray(group, dtype=np.int64)
        value = np.asarray(value, dtype=np.int64)
        count = np.asarray(count, dtype=np.int64)
        keep = count > 0
        if not keep.all():
            group, value, count = group[keep], value[keep], count[keep]
        order = row_order(group, value, count, len(values))
        indptr = np.concatenate([[0], np.cumsum(np.bincount(group, minlength=len(sizes)))])
        del group
        # narrow before gathering: the sorted copies are then int32 too
        value = int32_where_it_fits(value, len(values))[order]
        count = int32_where_it_fits(count)[order]
        self._store(sizes, indptr, value, count, values, labels, semantics)

    def _store(self, sizes, indptr, value, count, values, labels, semantics) -> None:
        """Keep CSR rows already in the model's order: values and counts as int32 where they
        fit (half the memory of the largest arrays), adopted without a copy when they are."""
        self._sizes = np.asarray(sizes, dtype=np.int64)
        self._indptr = np.asarray(indptr, dtype=np.int64)
        self._nz_value = int32_where_it_fits(np.asarray(value), len(values))
        self._nz_count = int32_where_it_fits(np.asarray(count))
        for array in (self._sizes, self._indptr, self._nz_value, self._nz_count):
            array.setflags(write=False)
        self._values = tuple(native(v) for v in values)
        self._labels = labels
        self._semantics = semantics

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_groups(cls, groups: Iterable, semantics: str = "svpi") -> ReleaseCandidate:
        """Build a release candidate from explicit ``(n_individuals, values)`` pairs.

        Parameters
        ----------
        groups : iterable of (int, iterable)
            One pair per QI-group: the number of individuals and the multiset of sensitive
            values held in the group (every occurrence listed).
        semantics : {'svpi', 'mvpi-set', 'mvpi-multiset'}, default 'svpi'
            In svpi every individual has exactly one value, so ``n == len(values)``; in
            mvpi-set no value can occur more often than there are individuals.

        Returns
        -------
        ReleaseCandidate
            Groups labelled 0..B-1 in input order.

        Raises
        ------
        InvalidParameterError
            Empty input, a non-positive group size, or values that break the semantics.

        Examples
        --------
        >>> r = ReleaseCandidate.from_groups([(3, ["a", "b"]), (2, ["a", "a"])],
        ...                                  semantics="mvpi-set")
        >>> r.counts
               a  b
        group
        0      1  1
        1      2  0
        """
        semantics = check_semantics(semantics, "ReleaseCandidate.from_groups")
        try:
            pairs = list(groups)
        except TypeError:
            raise param_error("groups", "ReleaseCandidate.from_groups",
                              "be an iterable of (n_individuals, values) pairs", groups) from None
        if not pairs:
            raise InvalidParameterError(
                "The 'groups' parameter of ReleaseCandidate.from_groups must contain at least "
                "one group. Got an empty iterable instead.")
        sizes, counters = [], []
        for index, pair in enumerate(pairs):
            try:
                n, values = pair
            except (TypeError, ValueError):
                raise InvalidParameterError(
                    f"Group {index} must be an (n_individuals, values) pair. Got {pair!r} instead."
                ) from None
            if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) or n < 1:
                raise InvalidParameterError(
                    f"Group {index} must have a positive integer number of individuals. "
                    f"Got {n!r} instead.")
            if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
                raise InvalidParameterError(
                    f"Group {index} must list its sensitive values as an iterable. "
                    f"Got {values!r} instead.")
            values = [native(v) for v in values]
            counter = Counter(values)
            _check_group(index, int(n), counter, len(values), semantics)
            sizes.append(int(n))
            counters.append(counter)
        all_values = sorted_uniques(v for c in counters for v in c)
        column = {_value_key(v): j for j, v in enumerate(all_values)}
        group, value, count = [], [], []
        for i, counter in enumerate(counters):
            merged: dict = {}
            for v, c in counter.items():  # distinct NaN objects are one missing value
                j = column[_value_key(v)]
                merged[j] = merged.get(j, 0) + c
            group += [i] * len(merged)
            value += list(merged)
            count += list(merged.values())
        labels = pd.RangeIndex(len(sizes), name="group")
        return cls(sizes, group, value, count, all_values, labels, semantics)

    @classmethod
    def from_counts(cls, sizes, counts, values, *, labels=None,
                    semantics: str = "svpi", whitespace: str | None = None) -> ReleaseCandidate:
        """Build a release candidate from a size vector and a groups x values count matrix.

        This is the constructor algorithms use when they already hold aggregates (for
        example SkylineAnonymize's partitions); it validates like :meth:`from_groups`.

        Parameters
        ----------
        sizes : array-like of int, shape (B,)
        counts : array-like of int or scipy.sparse matrix, shape (B, V)
            Dense counts, or any object with a ``tocoo()`` method (scipy.sparse); only the
            nonzeros are kept.
        values : sequence, length V
        labels : sequence or pandas.Index, optional
            Group labels; defaults to 0..B-1.
        semantics : {'svpi', 'mvpi-set', 'mvpi-multiset'}, default 'svpi'
        whitespace : {'strip', 'keep'} or None, default None
            As in :meth:`from_csr`: how the engine that made ``values`` compared text.

        Examples
        --------
        >>> ReleaseCandidate.from_counts([2, 1], [[1, 1], [0, 1]], ["x", "y"]).group_sizes.tolist()
        [2, 1]
        """
        owner = "ReleaseCandidate.from_counts"
        semantics = check_semantics(semantics, owner)
        whitespace = check_whitespace(whitespace, owner)
        sizes = np.asarray(sizes)
        values = list(values)
        if sizes.ndim != 1 or len(sizes) == 0:
            raise param_error("sizes", owner, "be a non-empty one-dimensional array", sizes)
        if hasattr(counts, "tocoo") and not isinstance(counts, np.ndarray):
            shape = tuple(counts.shape)
            coo = counts.tocoo()
            group, value, count = (np.asarray(coo.row), np.asarray(coo.col),
                                   np.asarray(coo.data))
        else:
            counts = np.asarray(counts)
            shape = counts.shape
            if shape == (len(sizes), len(values)):
                group, value = np.nonzero(counts)
                count = counts[group, value]
        if shape != (len(sizes), len(values)):
            raise param_error("counts", owner,
                              f"have shape (len(sizes), len(values)) = {(len(sizes), len(values))}",
                              shape)
        if not (np.issubdtype(sizes.dtype, np.integer)
                and (count.size == 0 or np.issubdtype(count.dtype, np.integer))):
            dtype = count.dtype if np.issubdtype(sizes.dtype, np.integer) else sizes.dtype
            raise param_error("counts", owner, "hold integers", dtype)
        if count.size and count.min() < 0:
            raise param_error("counts", owner, "be non-negative", int(count.min()))
        release: ReleaseCandidate = cls._validated(owner, sizes, group, value, count, values,
                                                   labels, semantics)
        release._whitespace = whitespace
        return release

    @classmethod
    def from_nonzeros(cls, sizes, group, value, count, values, *, labels=None,
                      semantics: str = "svpi",
                      whitespace: str | None = None) -> ReleaseCandidate:
        """Build a release candidate from (group, value, count) nonzeros.

        The sparse counterpart of :meth:`from_counts`, for engines that aggregate elsewhere
        (a Dask cluster, a database): memory is O(groups + values + nonzeros).  Repeated
        (group, value) pairs are summed; zero counts are dropped.

        Parameters
        ----------
        sizes : array-like of int, shape (B,)
            Individuals per group.
        group, value, count : array-like of int, shape (N,)
            Group position in 0..B-1, value position in 0..V-1, and a non-negative count.
        values : sequence, length V
        labels : sequence or pandas.Index, optional
        semantics : {'svpi', 'mvpi-set', 'mvpi-multiset'}, default 'svpi'
        whitespace : {'strip', 'keep'} or None, default None
            As in :meth:`from_csr`.

        Examples
        --------
        >>> r = ReleaseCandidate.from_nonzeros([2, 1], [0, 0, 1], [0, 1, 1], [1, 1, 1], ["x", "y"])
        >>> r == ReleaseCandidate.from_counts([2, 1], [[1, 1], [0, 1]], ["x", "y"])
        True
        """
        owner = "ReleaseCandidate.from_nonzeros"
        semantics = check_semantics(semantics, owner)
        whitespace = check_whitespace(whitespace, owner)
        values = list(values)
        g, v, c = (a.astype(np.int64, copy=False) for a in
                   _integer_arrays(owner, group=group, value=value, count=count))
        if not len(g) == len(v) == len(c):
            raise param_error("count", owner, f"have as many entries as 'group' ({len(g)})",
                              len(c))
        sizes = _checked_sizes(sizes, owner)
        _check_positions("group", g, len(sizes), owner)
        _check_positions("value", v, len(values), owner)
        if len(c) and c.min() < 0:
            raise param_error("count", owner, "be non-negative", int(c.min()))
        if len(g):  # sum repeated (group, value) pairs
            key = g * len(values) + v
            if len(values) and len(sizes) > np.iinfo(np.int64).max // len(values):
                raise param_error("values", owner, "fit groups x values in 64 bits", len(values))
            uniq, inverse = np.unique(key, return_inverse=True)
            if len(uniq) != len(key):
                c = np.bincount(inverse.reshape(-1), weights=c).astype(np.int64)
                g, v = np.divmod(uniq, len(values))
        release: ReleaseCandidate = cls._validated(owner, sizes, g, v, c, values, labels,
                                                   semantics)
        release._whitespace = whitespace
        return release

    @classmethod
    def from_csr(cls, sizes, indptr, value, count, values, *, labels=None,
                 semantics: str = "svpi", whitespace: str | None = None) -> ReleaseCandidate:
        """Build a release candidate from CSR rows: group g holds the values
        ``value[indptr[g]:indptr[g+1]]`` with their counts.

        The constructor for engines that aggregate elsewhere and can send their nonzeros
        grouped (a Dask cluster, a database, ``scipy.sparse.csr_array``).  Rows already in the
        model's order (counts descending, ties by value position) are adopted as they are,
        without a copy when the arrays are int32 (or int64 beyond int32), so memory stays at
        the nonzeros; other rows are sorted.  Every check runs over the nonzeros in pieces.

        Parameters
        ----------
        sizes : array-like of int, shape (B,)
            Individuals per group.
        indptr : array-like of int, shape (B + 1,)
            Row boundaries: non-decreasing, from 0 to N.
        value, count : array-like of int, shape (N,)
            Value position in 0..V-1 (distinct within a row) and a positive count.
        values : sequence, length V
        labels : sequence or pandas.Index, optional
        semantics : {'svpi', 'mvpi-set', 'mvpi-multiset'}, default 'svpi'
        whitespace : {'strip', 'keep'} or None, default None
            How the engine compared text (:meth:`from_table`'s ``whitespace``) when
            ``values`` are its canonical values, so value lookups normalize the same way;
            None: values are looked up as given.

        Examples
        --------
        >>> r = ReleaseCandidate.from_csr([2, 1], [0, 2, 3], [0, 1, 1], [1, 1, 1], ["x", "y"])
        >>> r == ReleaseCandidate.from_counts([2, 1], [[1, 1], [0, 1]], ["x", "y"])
        True
        """
        owner = "ReleaseCandidate.from_csr"
        semantics = check_semantics(semantics, owner)
        whitespace = check_whitespace(whitespace, owner)
        values = list(values)
        sizes = _checked_sizes(sizes, owner)
        indptr, value, count = _integer_arrays(owner, indptr=indptr, value=value, count=count)
        if len(value) != len(count):
            raise param_error("count", owner, f"have as many entries as 'value' ({len(value)})",
                              len(count))
        if (len(indptr) != len(sizes) + 1 or int(indptr[0]) != 0
                or int(indptr[-1]) != len(value) or (np.diff(indptr) < 0).any()):
            raise param_error("indptr", owner, f"rise from 0 to {len(value)} in "
                              f"{len(sizes) + 1} entries", _short(indptr))
        _check_positions("value", value, len(values), owner)
        if len(count) and _extremes(count)[0] < 1:
            raise param_error("count", owner, "be positive", _extremes(count)[0])
        _check_sizes_and_values(sizes, values, owner)
        indptr = indptr.astype(np.int64)
        sizes = sizes.astype(np.int64)
        ordered, repeated = _row_state(indptr, value, count)
        if repeated is not None:
            raise param_error("value", owner, "be distinct within a row",
                              f"row {repeated} repeats a value")
        if not ordered:
            group = np.repeat(np.arange(len(sizes), dtype=np.int64), np.diff(indptr))
            order = np.lexsort((value, -count.astype(np.int64), group))
            value, count = value[order], count[order]
        labels = _checked_labels(labels, sizes, owner)
        release: ReleaseCandidate = cls.__new__(cls)  # rows in order: adopted, not re-sorted
        release._store(sizes, indptr, value, count, values, labels, semantics)
        release._check_totals()
        release._whitespace = whitespace
        return release

    @classmethod
    def _validated(cls, owner, sizes, group, value, count, values, labels, semantics):
        """Shared checks of the aggregate constructors, vectorized over the nonzeros."""
        _check_sizes_and_values(sizes, values, owner)
        labels = _checked_labels(labels, sizes, owner)
        release = cls(sizes.astype(np.int64), group, value, count, values, labels, semantics)
        release._check_totals()
        return release

    def _check_totals(self) -> None:
        """The semantics' constraint on every group, over the nonzeros in pieces: svpi counts
        add up to the group size; mvpi-set counts are at most the group size.  The first
        group in violation (its smallest value position, in mvpi-set) is named."""
        if self._semantics == "mvpi-multiset":
            return
        sizes, indptr, value, count = self._sizes, self._indptr, self._nz_value, self._nz_count
        for g0, g1, lo, hi in row_chunks(indptr):
            if self._semantics == "svpi":
                running = np.concatenate([[0], np.cumsum(count[lo:hi], dtype=np.int64)])
                totals = running[indptr[g0 + 1:g1 + 1] - lo] - running[indptr[g0:g1] - lo]
                wrong = np.flatnonzero(totals != sizes[g0:g1])
                if len(wrong):
                    i = g0 + int(wrong[0])
                    _check_group(i, int(sizes[i]), {}, int(totals[wrong[0]]), self._semantics)
                continue
            row = np.repeat(np.arange(g0, g1), np.diff(indptr[g0:g1 + 1]))
            over = np.flatnonzero(count[lo:hi] > sizes[row])
            if len(over):
                i = int(row[over[0]])
                first = over[row[over] == i]
                e = lo + int(first[np.argmin(value[lo + first])])
                _check_group(i, int(sizes[i]), {self._values[int(value[e])]: int(count[e])},
                             int(count[e]), self._semantics)

    @classmethod
    @dispatchable(method=True)  # a dask frame: one distributed aggregation (docs/dask.md)
    def from_table(cls, table: pd.DataFrame, *, sensitive: str, qi=None, group=None,
                   individual=None, semantics: str = "svpi",
                   missing: str = "error", whitespace: str | None = "strip"
                   ) -> ReleaseCandidate:
        """Build a release candidate from a generalized or bucketized table.

        Parameters
        ----------
        table : pandas.DataFrame or dask.dataframe.DataFrame
            The released table. It is never modified. A dask frame is aggregated on its
            cluster (see docs/dask.md): the result is equal to the pandas path's.
        sensitive : str
            The sensitive column. For mvpi without ``individual``, cells may be list-likes
            (list, tuple, set, numpy array): every element is one value of that row's person.
        qi : str or list of str, optional
            Generalized quasi-identifier columns: each distinct combination is one QI-group.
        group : str, optional
            An explicit group column (bucketized / Anatomy-style release). Give exactly one of
            ``qi`` and ``group``.
        individual : str, optional
            Identifies individuals. For mvpi this allows one row per (individual, value); an
            individual must then lie in a single group. For svpi it must be unique per row.
        semantics : {'svpi', 'mvpi-set', 'mvpi-multiset'}, default 'svpi'
        missing : {'error', 'as_value'}, default 'error'
            Missing values (NaN/None) in the used columns raise by default (silently dropping
            them would overstate the protection); ``'as_value'`` treats them as a category.
        whitespace : {'strip', 'keep'} or None, default 'strip'
            Text cells of the group and sensitive columns are compared in canonical form
            (:mod:`skyprivacy._core.canonical`, docs/canonical-text.md): Unicode NFC,
            zero-width characters removed and, with ``'strip'``, surrounding whitespace
            removed (``'keep'`` keeps it).  Values that become one are reported with a
            :class:`~skyprivacy.errors.CanonicalTextWarning`, as is a QI column that spells
            one number several ways (``1``, ``01``, ``1.0``).  None compares cells exactly as
            written (certificates made before text was normalized).  The table is not
            changed.

        Returns
        -------
        ReleaseCandidate
            Groups sorted by their labels (canonical values); labels are the QI tuples (a
            MultiIndex when there are several QI columns) or the group ids.

        Raises
        ------
        SchemaError
            A missing column, missing values under ``missing='error'``, an empty table,
            duplicated individuals in svpi, an individual in two groups, a duplicated value of
            one person in mvpi-set, or list-like cells in svpi.

        Examples
        --------
        >>> import pandas as pd
        >>> table = pd.DataFrame({"age": ["2*", "2*", "3*", "3*"],
        ...                       "disease": ["Flu", "AIDS", "Flu", "Flu"]})
        >>> r = ReleaseCandidate.from_table(table, qi="age", sensitive="disease")
        >>> r.counts
             AIDS  Flu
        age
        2*      1    1
        3*      0    2
        """
        owner = "ReleaseCandidate.from_table"
        semantics = check_semantics(semantics, owner)
        if missing not in MISSING_OPTIONS:
            raise param_error("missing", owner, f"be one of {list(MISSING_OPTIONS)}", missing)
        whitespace = check_whitespace(whitespace, owner)
        if not isinstance(table, pd.DataFrame):
            raise param_error("table", owner, "be a pandas DataFrame", type(table).__name__)
        keys, used = check_release_columns(table, sensitive=sensitive, qi=qi, group=group,
                                           individual=individual, owner=owner)
        if len(table) == 0:
            raise SchemaError("The table is empty: a release candidate needs at least one row.")
        # each key column is factorized once; its uniques tell whether it holds a missing
        # value, so only the other used columns need a scan of their own for the check
        factorized = {key: canonical_key(*factorize(table[key]), whitespace, key,
                                         qi=qi is not None)
                      for key in dict.fromkeys(keys)}
        if missing == "error":
            for column in used:
                if column in factorized and not any(
                        is_missing(u) for u in factorized[column][1]):
                    continue
                n_missing = int(table[column].isna().sum())
                if n_missing:
                    raise missing_values_error(column, n_missing)

        group_codes, labels = _group_codes(table, keys, factorized)
        n_groups = len(labels)
        cells = table[sensitive]
        if semantics == "svpi":
            _, value_codes, values = encode_sensitive(cells, semantics=semantics,
                                                      missing=missing, whitespace=whitespace)
            if individual is not None:
                dup = table[individual].duplicated(keep=False)
                if dup.any():
                    who = table[individual][dup].iloc[0]
                    n_rows = int((table[individual] == who).sum())
                    raise SchemaError(
                        f"Individual {native(who)!r} appears in {n_rows} rows; svpi allows one "
                        f"row per individual.")
            sizes = np.bincount(group_codes, minlength=n_groups)
            key = _pair_key(group_codes, value_codes, n_groups, len(values))
            del group_codes, value_codes  # only the pair keys stay
            release = cls(sizes, *_key_counts(key, n_groups, len(values)), values, labels,
                          semantics)
            release._whitespace = whitespace
            return release

        # mvpi: one person per row (list-like cells) or one row per (individual, value).
        persons = None
        if individual is not None:
            persons = table[individual]
            person_codes, names = factorize(persons)
            person_group = np.full(len(names), -1, dtype=np.int64)
            person_group[person_codes] = group_codes
            clash = person_group[person_codes] != group_codes
            if clash.any():
                who = names[person_codes[int(np.flatnonzero(clash)[0])]]
                raise SchemaError(
                    f"Individual {who!r} appears in more than one QI-group; each individual "
                    f"must belong to exactly one group.")
            sizes = np.bincount(person_group, minlength=n_groups)
        else:
            sizes = np.bincount(group_codes, minlength=n_groups)
        row_of, value_codes, values = encode_sensitive(cells, semantics=semantics,
                                                       missing=missing, individuals=persons,
                                                       whitespace=whitespace)
        codes = group_codes[row_of]
        release = cls(sizes, *pair_counts(codes, value_codes, n_groups, len(values)),
                      values, labels, semantics)
        release._whitespace = whitespace
        return release

    # ------------------------------------------------------------------ read-only views
    @property
    def semantics(self) -> str:
        """The integrity constraint: 'svpi', 'mvpi-set' or 'mvpi-multiset'."""
        return self._semantics

    @property
    def values(self) -> tuple:
        """The distinct sensitive values, in the column order of :attr:`counts`."""
        return self._values

    @property
    def group_labels(self) -> pd.Index:
        """One label per QI-group."""
        return self._labels

    @property
    def n_groups(self) -> int:
        """Number of QI-groups B."""
        return int(len(self._sizes))

    @property
    def n_individuals(self) -> int:
        """Number of individuals, the sum of the group sizes."""
        return int(self._sizes.sum())

    @property
    def sizes_array(self) -> np.ndarray:
        """Group sizes n_g as a read-only int64 array (for algorithms)."""
        return self._sizes

    @property
    def group_sizes(self) -> pd.Series:
        """Group sizes n_g, indexed by group label."""
        return pd.Series(self._sizes.copy(), index=self._labels, name="n_individuals")

    @cached_property
    def value_totals(self) -> np.ndarray:
        """Total occurrences of every value, aligned with :attr:`values` (read-only array)."""
        out = count_by(self._nz_value, len(self._values), weights=self._nz_count)
        out.setflags(write=False)
        return out

    @cached_property
    def holders_per_value(self) -> np.ndarray:
        """Number of groups holding every value, aligned with :attr:`values` (read-only)."""
        out = count_by(self._nz_value, len(self._values))
        out.setflags(write=False)
        return out

    @property
    def value_counts(self) -> pd.Series:
        """Total occurrences of every sensitive value over all groups."""
        return pd.Series(self.value_totals.copy(), index=pd.Index(self._values, name="value"),
                         name="count")

    # ------------------------------------------------------------------ sparse form
    def derived(self, build: Callable[[ReleaseCandidate], Any]) -> Any:
        """``build(self)``, computed once per release and kept with it.

        A release never changes, so a value computed from it alone (the formulas' sorted
        rows, the running maximum of the group sizes, ...) holds as long as the release
        lives.  ``build`` is the key: a module keeps what it derives from the model here,
        through the model's own interface, instead of writing into the model's attributes.

        Examples
        --------
        >>> calls = []
        >>> def largest(release):
        ...     calls.append(release)
        ...     return int(release.sizes_array.max())
        >>> r = ReleaseCandidate.from_groups([(2, ["a", "b"]), (3, ["a", "a", "b"])])
        >>> r.derived(largest), r.derived(largest), len(calls)
        (3, 3, 1)
        """
        store = self._derived_values
        if build not in store:
            store[build] = build(self)
        return store[build]

    @cached_property
    def _derived_values(self) -> dict:
        return {}  # build -> value; filled by derived()

    @property
    def n_nonzeros(self) -> int:
        """Number of (group, value) pairs with a nonzero count."""
        return int(len(self._nz_count))

    @property
    def csr(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The nonzeros as read-only CSR arrays ``(indptr, value, count)``.

        Row g is ``value[indptr[g]:indptr[g+1]]`` with its counts, sorted by count
        (descending, ties by value position), so every row is also that group's sorted counts.
        ``indptr`` is int64; values and counts are int32 where they fit (else int64), which
        halves the memory of the two arrays that grow with the nonzeros.
        """
        return self._indptr, self._nz_value, self._nz_count

    @cached_property
    def nz_group(self) -> np.ndarray:
        """Group position of every nonzero, aligned with :attr:`csr` (read-only)."""
        out = np.repeat(np.arange(self.n_groups, dtype=_index_dtype(self.n_groups)),
                        np.diff(self._indptr))
        out.setflags(write=False)
        return out

    @cached_property
    def nz_rank(self) -> np.ndarray:
        """Position of every nonzero within its group's descending counts (read-only)."""
        out = np.arange(len(self._nz_count), dtype=np.int64) - self._indptr[self.nz_group]
        out.setflags(write=False)
        return out

    @cached_property
    def by_value(self) -> tuple[np.ndarray, np.ndarray]:
        """CSC view: ``(value_ptr, order)``; the nonzeros of value j (the groups holding it) are
        ``order[value_ptr[j]:value_ptr[j+1]]``, in group order."""
        ptr = np.concatenate([[0], np.cumsum(self.holders_per_value)]).astype(np.int64)
        # a counting sort, a piece at a time: stable, so every value's entries stay in group
        # order (the CSR is group-major), with no temporary the size of all the nonzeros
        order = np.empty(len(self._nz_value), dtype=_index_dtype(len(self._nz_value)))
        free = ptr[:-1].copy()
        for lo in range(0, len(self._nz_value), PIECE):
            piece = self._nz_value[lo:lo + PIECE]
            by = np.argsort(piece, kind="stable")
            ordered = piece[by]
            starts = np.flatnonzero(np.concatenate([[True], ordered[1:] != ordered[:-1]]))
            runs = np.diff(np.append(starts, len(ordered)))
            rank = np.arange(len(ordered)) - np.repeat(starts, runs)
            order[free[ordered] + rank] = by + lo
            free[ordered[starts]] += runs
        order.setflags(write=False)
        ptr.setflags(write=False)
        return ptr, order

    def nonzeros(self) -> pd.DataFrame:
        """The (group, value, count) triples, one row per nonzero, in group order.

        Examples
        --------
        >>> ReleaseCandidate.from_groups([(3, ["a", "b", "b"])]).nonzeros()
           group value  count
        0      0     b      2
        1      0     a      1
        """
        labels = self._labels[self.nz_group]
        values = pd.Index(self._values, dtype=object)[self._nz_value]
        return pd.DataFrame({"group": labels, "value": values,
                             "count": self._nz_count.astype(np.int64)})

    def to_sparse(self):
        """The groups x values counts as a ``scipy.sparse.csr_array`` (needs scipy).

        Examples
        --------
        >>> ReleaseCandidate.from_groups([(2, ["a", "b"])]).to_sparse().toarray().tolist()
        [[1, 1]]
        """
        try:
            from scipy import sparse
        except ImportError:  # pragma: no cover - scipy is installed with the test extra
            raise ImportError("ReleaseCandidate.to_sparse needs scipy; install it with "
                              "'pip install scipy', or use release.nonzeros().") from None
        return sparse.csr_array((self._nz_count.astype(np.int64), self._nz_value.copy(),
                                 self._indptr.copy()), shape=(self.n_groups, len(self._values)))

    def _dense(self, what: str) -> np.ndarray:
        cells = self.n_groups * len(self._values)
        if cells > DENSE_LIMIT:
            raise MemoryError(
                f"ReleaseCandidate.{what} would be a dense {self.n_groups:,} x "
                f"{len(self._values):,} table ({cells:,} cells, above the {DENSE_LIMIT:,}-cell "
                f"limit); use release.nonzeros() for the (group, value, count) triples or "
                f"release.to_sparse() for a scipy.sparse matrix.")
        out = np.zeros((self.n_groups, len(self._values)), dtype=np.int64)
        out[self.nz_group, self._nz_value] = self._nz_count
        return out

    @property
    def count_matrix(self) -> np.ndarray:
        """Groups x values counts as a dense int64 array, built on demand (for display and
        tests; algorithms read the sparse :attr:`csr`). Raises MemoryError above
        ``DENSE_LIMIT`` cells."""
        out = self._dense("count_matrix")
        out.setflags(write=False)
        return out

    @property
    def counts(self) -> pd.DataFrame:
        """The groups x values count matrix as a DataFrame, built on demand for display.

        Raises MemoryError (naming :meth:`nonzeros` and :meth:`to_sparse`) above
        ``DENSE_LIMIT`` cells."""
        return pd.DataFrame(self._dense("counts"), index=self._labels,
                            columns=pd.Index(self._values))

    @property
    def sorted_counts(self) -> np.ndarray:
        """Each group's counts sorted in descending order, dense (for display and tests)."""
        out = np.zeros((self.n_groups, max(len(self._values), 1)), dtype=np.int64)
        self._dense("sorted_counts")
        out[self.nz_group, self.nz_rank] = self._nz_count
        out = out[:, :len(self._values)]
        out.setflags(write=False)
        return out

    @property
    def whitespace(self) -> str | None:
        """How text was normalized before values were compared: the ``whitespace`` choice of
        :meth:`from_table` (NFC and zero-width characters removed, then surrounding
        whitespace stripped or kept), or None when values are compared as given."""
        return self.__dict__.get("_whitespace")

    def value_index(self, value: object) -> int | None:
        """Column of a sensitive value in :attr:`counts`, or None if the release lacks it; a
        release read from a table looks a text value up in canonical form (an NFC name finds
        NFD cells)."""
        return self._index_of.get(_value_key(canonical_text(value, self.whitespace)))

    def contains(self, value: object) -> bool:
        """Whether some group holds the sensitive value."""
        j = self.value_index(value)
        return j is not None and bool(self.value_totals[j] > 0)

    def group_counts(self, g: int) -> dict:
        """The nonzero counts of group ``g`` as ``{value: count}``, most frequent first."""
        lo, hi = self._indptr[g], self._indptr[g + 1]
        return {self._values[int(j)]: int(c)
                for j, c in zip(self._nz_value[lo:hi], self._nz_count[lo:hi])}

    def count_of(self, g: int, j: int) -> int:
        """#x_g: the count of value position ``j`` in group ``g`` (0 when absent)."""
        lo, hi = self._indptr[g], self._indptr[g + 1]
        hit = np.flatnonzero(self._nz_value[lo:hi] == j)
        return int(self._nz_count[lo + hit[0]]) if len(hit) else 0

    @cached_property
    def _index_of(self) -> dict:
        return {_value_key(v): j for j, v in enumerate(self._values)}

    def group_description(self, i: int) -> str:
        """A readable description of group ``i``'s label, e.g. ``"age=3*, sex=Male"``."""
        label = self._labels[i]
        names = list(self._labels.names)
        if isinstance(self._labels, pd.MultiIndex):
            return ", ".join(f"{name}={native(v)}" for name, v in zip(names, label))
        name = names[0] if names and names[0] is not None else "group"
        return f"{name}={native(label)}"

    def to_frame(self) -> pd.DataFrame:
        """One row per QI-group: its size and the count of every sensitive value.

        Examples
        --------
        >>> ReleaseCandidate.from_groups([(2, ["a", "b"])]).to_frame()
               n_individuals  a  b
        group
        0                  2  1  1
        """
        frame = self.counts
        frame.insert(0, "n_individuals", self._sizes.copy())
        return frame

    def __len__(self) -> int:
        return self.n_groups

    def __repr__(self) -> str:
        return (f"ReleaseCandidate(semantics={self._semantics!r}, n_groups={self.n_groups}, "
                f"n_individuals={self.n_individuals}, n_values={len(self._values)})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ReleaseCandidate):
            return NotImplemented
        # missing markers (distinct NaN objects, None) are one value, as everywhere in the model
        return (self._semantics == other._semantics
                and [_value_key(v) for v in self._values]
                == [_value_key(v) for v in other._values]
                and np.array_equal(self._sizes, other._sizes)
                and np.array_equal(self._indptr, other._indptr)
                and np.array_equal(self._nz_value, other._nz_value)
                and np.array_equal(self._nz_count, other._nz_count)
                and self._labels.equals(other._labels))

    # Defining __eq__ alone leaves __hash__ None: candidates compare, they do not hash.


def check_whitespace(whitespace: object, owner: str) -> str | None:
    """Validate a ``whitespace`` choice (None: text compared as written) and return it."""
    if whitespace is not None and (not isinstance(whitespace, str)
                                   or whitespace not in WHITESPACE):
        raise param_error("whitespace", owner, f"be one of {list(WHITESPACE)}", whitespace)
    return whitespace


def canonical_key(codes: np.ndarray, uniques: list, whitespace: str | None, column, *,
                  qi: bool) -> tuple[np.ndarray, list]:
    """A group column's codes and distinct values in canonical form (reported when values
    merge); a QI column that spells one number several ways is reported too.  The one rule
    for key columns; the Dask engine applies it to the merged distinct values."""
    codes, uniques = normalize_column(codes, uniques, whitespace, column)
    for note in spelling_notes(column, uniques, qi=qi):
        warn(note, CanonicalTextWarning)
    return codes, uniques


def spelling_notes(column, uniques: list, *, qi: bool) -> list[str]:
    """The sentence for a QI column of a released table that spells a number several ways
    (compared as text, as a reader sees it), or nothing."""
    spellings = numeric_spellings(uniques) if qi else []
    return [spellings_message(column, spellings, len(uniques), numbers=None)] \
        if spellings else []


def missing_values_error(column, n_missing: int) -> SchemaError:
    """The error for missing values in a column read under ``missing='error'``."""
    return SchemaError(f"Column {column!r} has {n_missing} missing value(s); pass "
                       f"missing='as_value' to treat them as a category, or clean the table.")


def sensitive_error(column, *, list_cell: tuple | None = None, n_missing: int = 0,
                    repeated: tuple | None = None, by_individual: bool = False
                    ) -> SchemaError | None:
    """The error of a sensitive column's first fault, from facts about its cells (None when
    there is none): ``list_cell`` ``(row,)`` of the first list-like cell under svpi,
    ``n_missing`` missing values inside list cells, ``repeated`` ``(row or individual,
    value)`` of the first person holding a value twice under mvpi-set.  The one wording of
    these faults: :func:`encode_sensitive` and the Dask scans decide through it."""
    if list_cell is not None:
        return SchemaError(
            f"Column {column!r} holds a list-like cell at row {native(list_cell[0])!r}; svpi "
            f"allows exactly one sensitive value per individual (use semantics='mvpi-set' or "
            f"'mvpi-multiset').")
    if n_missing:
        return SchemaError(
            f"Column {column!r} has {n_missing} missing value(s) inside list cells; pass "
            f"missing='as_value' to treat them as a category, or clean the table.")
    if repeated is not None:
        who, value = repeated
        subject = (f"Individual {native(who)!r}" if by_individual else
                   f"The individual in row {native(who)!r}")
        return SchemaError(
            f"{subject} holds value {value!r} more than once; mvpi-set allows each value at "
            f"most once per person (use semantics='mvpi-multiset').")
    return None


def check_sensitive(column, **facts) -> None:
    """Raise :func:`sensitive_error` of these facts, if they hold a fault."""
    error = sensitive_error(column, **facts)
    if error is not None:
        raise error


def elements_of(cells: pd.Series, list_like: pd.Series) -> tuple[np.ndarray, pd.Series]:
    """Row of every element, and the elements as an object Series (a scalar cell is one)."""
    elements = [list(v) if is_list else [v]
                for v, is_list in zip(cells.tolist(), list_like.tolist())]
    lengths = np.fromiter((len(e) for e in elements), dtype=np.int64, count=len(elements))
    row_of = np.repeat(np.arange(len(elements), dtype=np.int64), lengths)
    flat = pd.Series([x for e in elements for x in e], dtype=object)
    return row_of, flat


def encode_sensitive(cells: pd.Series, *, semantics: str, missing: str = "error",
                     individuals: pd.Series | None = None,
                     whitespace: str | None = "strip") -> tuple[np.ndarray, np.ndarray, list]:
    """The one rule for reading a sensitive column (Sect. 2.1): the row of every sensitive
    element, its value code and the distinct values (sorted, as :func:`factorize` gives).

    Under svpi a cell is one value and a list-like cell is an error; under mvpi a list-like
    cell holds a person's values (a scalar cell is one value), missing values inside lists are
    an error under ``missing='error'`` (else values of their own), and under mvpi-set no
    person holds a value twice (a person is a row, or ``individuals`` names them).  Missing
    scalar cells are the caller's to check with the other columns it reads.  Values are
    compared in canonical form under ``whitespace`` (:mod:`skyprivacy._core.canonical`;
    None: as written).

    Raises
    ------
    SchemaError
        The first fault, in the words of :func:`sensitive_error`.

    Examples
    --------
    >>> row, code, values = encode_sensitive(pd.Series([["a", "b"], "b"], name="dx"),
    ...                                      semantics="mvpi-set")
    >>> row.tolist(), code.tolist(), values
    ([0, 0, 1], [0, 1, 1], ['a', 'b'])
    """
    list_like = list_like_cells(cells)
    if semantics == "svpi":
        if list_like.any():
            first = int(np.flatnonzero(list_like.to_numpy())[0])
            check_sensitive(cells.name, list_cell=(cells.index[first],))
        codes, values = normalize_column(*factorize(cells), whitespace, cells.name)
        return np.arange(len(cells), dtype=np.int64), codes, values
    row_of, flat = elements_of(cells, list_like)
    if missing == "error":
        check_sensitive(cells.name, n_missing=int(flat.map(is_missing).sum()))
    codes, values = normalize_column(*factorize(flat), whitespace, cells.name)
    if semantics == "mvpi-set" and len(values):
        person_codes, persons = (factorize(individuals) if individuals is not None else
                                 (np.arange(len(cells), dtype=np.int64), cells.index))
        pair = person_codes[row_of] * len(values) + codes
        uniq, counts = np.unique(pair, return_counts=True)
        if (counts > 1).any():
            who, value = divmod(int(uniq[np.flatnonzero(counts > 1)[0]]), len(values))
            check_sensitive(cells.name, repeated=(persons[who], values[value]),
                            by_individual=individuals is not None)
    return row_of, codes, values


def _index_dtype(n: int):
    """int32 for positions below 2^31 (half the memory of the large index arrays)."""
    return np.int32 if n < 2 ** 31 - 1 else np.int64


def pair_counts(group_codes: np.ndarray, value_codes: np.ndarray, n_groups: int,
                 n_values: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(group, value, count) nonzeros of code pairs: a bincount when groups x values is small
    next to the rows, else a sort of the pair keys (memory O(rows), never O(groups x values))."""
    return _key_counts(_pair_key(group_codes, value_codes, n_groups, n_values), n_groups,
                       n_values)


def _pair_key(group_codes: np.ndarray, value_codes: np.ndarray, n_groups: int,
              n_values: int) -> np.ndarray:
    """group * n_values + value, in int32 when it fits (half the bytes to hold and sort)."""
    key = group_codes.astype(np.int32 if n_groups * n_values < 2 ** 31 else np.int64)
    key *= n_values
    np.add(key, value_codes, out=key, casting="unsafe")
    return key


def _key_counts(key: np.ndarray, n_groups: int,
                n_values: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`pair_counts` from the keys group * n_values + value (``key`` is consumed)."""
    if n_groups * n_values <= max(4 * len(key), 1 << 16):
        counts = np.bincount(key, minlength=n_groups * n_values)
        del key
        nonzero = np.flatnonzero(counts)
        group, value = np.divmod(nonzero, max(n_values, 1))
        return group, value, counts[nonzero]
    key.sort()  # run-length encode the sorted keys, in place where possible
    starts = np.flatnonzero(np.concatenate([[True], key[1:] != key[:-1]]))
    count = np.diff(starts, append=len(key))
    value = key[starts].astype(np.int64)
    del key, starts
    group = value // n_values
    value -= group * n_values
    return group, value, count


def _value_key(value: object) -> object:
    """Dictionary key of a sensitive value: NaN markers collapse to one key."""
    value = native(value)
    if is_missing(value):
        return ("__missing__",)
    return value


def _check_group(index: int, n: int, counter: Counter | dict, total: int, semantics: str) -> None:
    if semantics == "svpi" and total != n:
        raise InvalidParameterError(
            f"Group {index} has {n} individuals but {total} sensitive values; svpi needs exactly "
            f"one value per individual.")
    if semantics == "mvpi-set":
        for value, count in counter.items():
            if count > n:
                raise InvalidParameterError(
                    f"Group {index} holds value {value!r} {count} times but has only {n} "
                    f"individuals; mvpi-set allows each value at most once per person.")


def _group_codes(df: pd.DataFrame, keys: Sequence[str],
                 factorized: Mapping | None = None) -> tuple[np.ndarray, pd.Index]:
    """Dense group ids (sorted by label) and the labels, from one or more key columns.

    The per-column codes are combined into ONE mixed-radix integer key (code order is value
    order, so key order is the labels' lexicographic order), ranked once: by a presence table
    when the key's range is small, else by one sort.  Only when the product of the columns'
    cardinalities would overflow is the running key re-ranked to dense ids first, so a table
    is sorted at most once per 62 bits of key rather than once per column (``factorized``:
    the columns' :func:`~skyprivacy._core.encoding.factorize` results, when already made).
    """
    factorized = factorized or {}
    per_column = [factorized[key] if key in factorized else factorize(df[key])
                  for key in keys]
    if len(keys) == 1:  # factorize codes are already dense group ids in label order
        codes, uniques = per_column[0]
        return codes, pd.Index(uniques, name=keys[0], tupleize_cols=False)
    combined = per_column[0][0].astype(np.int64)
    radix = max(len(per_column[0][1]), 1)
    for codes, uniques in per_column[1:]:
        width = max(len(uniques), 1)
        if radix * width >= 2 ** 62:  # re-rank to dense ids before the key overflows
            combined, radix = _dense_rank(combined, radix)
        combined *= width
        combined += codes
        radix *= width
    inverse, n_groups = _dense_rank(combined, radix)
    first_row = np.zeros(n_groups, dtype=np.int64)
    first_row[inverse[::-1]] = np.arange(len(inverse) - 1, -1, -1)
    arrays = [pd.Index(uniques, tupleize_cols=False).take(codes[first_row])
              if len(uniques) else [] for codes, uniques in per_column]
    return inverse, pd.MultiIndex.from_arrays(arrays, names=list(keys))


def _dense_rank(key: np.ndarray, bound: int) -> tuple[np.ndarray, int]:
    """Dense ranks of non-negative integer keys below ``bound`` and their number: a presence
    table (no sort) when ``bound`` is at most a few times the number of keys, else a hash
    factorization whose (fewer) distinct keys alone are sorted."""
    if bound <= 4 * len(key) + 1024:
        present = np.zeros(bound, dtype=bool)
        present[key] = True
        rank = np.cumsum(present, dtype=np.int64) - 1
        return rank[key], int(rank[-1]) + 1 if bound else 0
    codes, uniq = pd.factorize(key, sort=False)
    rank = np.empty(len(uniq), dtype=np.int64)
    rank[np.argsort(uniq, kind="stable")] = np.arange(len(uniq))
    return rank[codes], len(uniq)


def row_order(group: np.ndarray, value: np.ndarray, count: np.ndarray,
              n_values: int) -> np.ndarray:
    """Order of the nonzeros by group, then count descending, then value (the model's CSR
    order).

    Input already in (group, value) order (every in-memory aggregation produces it) needs only
    a stable sort of one integer key, which is nearly sorted; anything else is lexsorted.  The
    arrays keep their integer types: at most one int64 temporary is made at a time."""
    group, value, count = np.asarray(group), np.asarray(value), np.asarray(count)
    if len(group) > 1:
        c_max = int(count.max())
        g_max = int(group.max())
        if (g_max + 1) * (c_max + 1) < 2 ** 62 and (g_max + 1) * max(n_values, 1) < 2 ** 62:
            pair = group.astype(np.int64)
            pair *= max(n_values, 1)
            pair += value
            in_pair_order = bool((pair[1:] > pair[:-1]).all())
            del pair
            if in_pair_order:
                key = group.astype(np.int64)
                key *= c_max + 1
                key += c_max
                key -= count
                return np.argsort(key, kind="stable")
    return np.lexsort((value, -count.astype(np.int64, copy=False) if count.dtype.kind == "u"
                       else -count, group))


#: Nonzeros per piece when a pass over them must not allocate in proportion to all of them.
PIECE = 1 << 20


def row_chunks(indptr: np.ndarray, piece: int = PIECE):
    """``(g0, g1, lo, hi)``: runs of whole rows g0..g1-1 holding the entries lo..hi-1, about
    ``piece`` entries each (a longer row is a run of its own)."""
    n_rows = len(indptr) - 1
    g0 = 0
    while g0 < n_rows:
        lo = int(indptr[g0])
        g1 = int(np.searchsorted(indptr, lo + piece, side="right")) - 1
        g1 = min(max(g1, g0 + 1), n_rows)
        yield g0, g1, lo, int(indptr[g1])
        g0 = g1


def count_by(keys: np.ndarray, n: int, weights: np.ndarray | None = None) -> np.ndarray:
    """``np.bincount(keys, weights, minlength=n)`` in pieces, as int64 (keys of any integer
    type are not widened all at once)."""
    out = np.zeros(n, dtype=np.int64)
    for lo in range(0, len(keys), PIECE):
        hi = lo + PIECE
        w = None if weights is None else weights[lo:hi]
        out += np.bincount(keys[lo:hi], weights=w, minlength=n).astype(np.int64)
    return out


def int32_where_it_fits(array: np.ndarray, bound: int | None = None) -> np.ndarray:
    """An integer array as int32 when its values fit (``bound``: a known exclusive upper
    bound on them, with no negatives), else int64; no copy when it is one already."""
    if array.dtype == np.int32 or (array.dtype == np.int64 and bound is not None
                                   and bound > 2 ** 31 - 1):
        return array
    if bound is not None:
        fits = bound <= 2 ** 31 - 1
    else:
        low, high = _extremes(array)
        fits = -(2 ** 31) <= low and high < 2 ** 31
    return array.astype(np.int32 if fits else np.int64, copy=False)


def _extremes(array: np.ndarray) -> tuple[int, int]:
    """(min, max) of an integer array as Python ints ((0, 0) when empty)."""
    if not len(array):
        return 0, 0
    return int(array.min()), int(array.max())


def _short(array: np.ndarray) -> object:
    """An integer array for a one-line message: its values when short, else its length and
    first entries."""
    head = [int(x) for x in np.asarray(array)[:8]]
    if len(array) <= 8:
        return head
    return f"{len(array)} entries starting {head[:4]}"


def _row_state(indptr: np.ndarray, value: np.ndarray, count: np.ndarray):
    """(whether every row is in the model's order, the first row that repeats a value or
    None), over the rows in pieces."""
    ordered = True
    for g0, g1, lo, hi in row_chunks(indptr):
        row = np.repeat(np.arange(g1 - g0, dtype=np.int64), np.diff(indptr[g0:g1 + 1]))
        v = value[lo:hi].astype(np.int64)
        if ordered:
            c = count[lo:hi]
            ordered = bool(((row[1:] != row[:-1]) | (c[:-1] > c[1:])
                            | ((c[:-1] == c[1:]) & (v[:-1] < v[1:]))).all())
        width = int(v.max(initial=0)) + 1
        key = np.sort(row * width + v, kind="stable")  # row-major runs: a merge sort's case
        dup = np.flatnonzero(key[1:] == key[:-1])
        if len(dup):
            return ordered, g0 + int(key[dup[0]] // width)
    return ordered, None


def _integer_arrays(owner: str, **arrays) -> list:
    """The named arguments as one-dimensional integer arrays (their own types kept)."""
    out = []
    for name, array in arrays.items():
        array = np.asarray(array)
        if array.ndim != 1 or (array.size and not np.issubdtype(array.dtype, np.integer)):
            raise param_error(name, owner, "be a one-dimensional integer array", array.dtype)
        out.append(array)
    return out


def _checked_sizes(sizes, owner: str) -> np.ndarray:
    """Group sizes as a non-empty one-dimensional integer array."""
    sizes = np.asarray(sizes)
    if sizes.ndim != 1 or len(sizes) == 0:
        raise param_error("sizes", owner, "be a non-empty one-dimensional array", sizes)
    if not np.issubdtype(sizes.dtype, np.integer):
        raise param_error("sizes", owner, "hold integers", sizes.dtype)
    return sizes


def _check_positions(name: str, positions: np.ndarray, n: int, owner: str) -> None:
    """Every entry of ``positions`` is in 0..n-1."""
    low, high = _extremes(positions)
    if len(positions) and (low < 0 or high >= n):
        raise param_error(name, owner, f"hold positions in 0..{n - 1}",
                          low if low < 0 else high)


def _check_sizes_and_values(sizes: np.ndarray, values: list, owner: str) -> None:
    """Every group holds someone, and the values are distinct."""
    if (sizes < 1).any():
        bad = int(np.flatnonzero(sizes < 1)[0])
        raise InvalidParameterError(
            f"Group {bad} must have a positive integer number of individuals. "
            f"Got {int(sizes[bad])} instead.")
    if len(set(map(_value_key, values))) != len(values):
        raise param_error("values", owner, "be distinct", values)


def _checked_labels(labels, sizes: np.ndarray, owner: str) -> pd.Index:
    """Group labels as an Index of one entry per group (0..B-1 when None)."""
    if labels is None:
        return pd.RangeIndex(len(sizes), name="group")
    if not isinstance(labels, pd.Index):  # keep a MultiIndex and its level names
        labels = pd.Index(labels)
    if len(labels) != len(sizes):
        raise param_error("labels", owner, f"have {len(sizes)} entries", len(labels))
    return labels
