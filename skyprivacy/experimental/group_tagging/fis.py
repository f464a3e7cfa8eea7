"""Group tagging and Fairly Iterative Shuffling (spec group-tagging §3.4-§3.6; paper §2.3-§2.5,
§3 intro, Theorem 3.1, Lemma 1, Theorem 3.2, eq. (1)-(9), A.1-A.3).

FIS tags every row with its protected class and, within each class, shuffles *attribute
groups* (sets of free columns that move together) across the rows of small batches.  The
anchored columns (ID, the tag and the tied block T of query and related attributes) never
move.  What this does and does not do:

* per class and per batch every column's multiset is unchanged, so every single-column count,
  and every count over anchored columns only, is released **exactly**;
* a row keeps the values of an attribute group from its own source row with probability
  ``1/b`` (b the batch size), all groups with ``b^-S``: :func:`row_return_probability` and
  :func:`empirical_relinkage_rate` measure that linkage;
* it is **not** differentially private for any finite epsilon (a neighbouring table changes a
  released column total with probability 1), and the paper's "epsilon" (eq. (1), (3)), which
  :func:`paper_fis_epsilon` reproduces, is no privacy budget.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from ..._core.display import Shown, head_rows, result_html
from ..._core.encoding import require_columns
from ..._core.exact import is_real, native
from ..._core.validation import (Boolean, InstanceOf, Interval, Nullable, as_generator, check,
                                 validate_params)
from ..._core.warning import warn
from ...errors import (InfeasibleError, InvalidParameterError, NotDifferentiallyPrivateWarning,
                       PrivacyRiskWarning, SchemaError, UnprovenFormulaWarning, param_error)
from ._common import (BATCH_SIZE, FRAME, GROUPS, POSITIVE, RANDOM_STATE, check_table,
                      column_list, require_complete, sorted_labels)
from .encoding import ENCODING, EncodingMap

__all__ = [
    "tag_groups",
    "FisBatch",
    "FisPlan",
    "ShuffledTable",
    "plan_fis",
    "fis_shuffle",
    "PaperBudget",
    "paper_fis_epsilon",
    "LinkageRates",
    "row_return_probability",
    "empirical_relinkage_rate",
]


# ---------------------------------------------------------------------------------------------
# Group tagging (§3.5)
# ---------------------------------------------------------------------------------------------

@validate_params({"table": FRAME})
def tag_groups(table, *, protected) -> pd.Series:
    """Tag every row with its protected class (spec §3.5; paper §2.4).

    Parameters
    ----------
    table : pandas.DataFrame
        The table; never modified.
    protected : str, keyword-only
        The protected attribute P.

    Returns
    -------
    pandas.Series
        Named ``"tag"``, on the caller's index: the P value of each row.  FIS runs
        independently per tag; the tag is released verbatim.

    Raises
    ------
    SchemaError
        If the column is missing, has missing values, or a class has fewer than 2 rows (no
        batch of size >= 2 is possible).

    Notes
    -----
    The paper says tagging "prevents all types of linkage attacks, similarity attacks,
    background knowledge attacks" (§2.4).  It does not: the tag and the tied block stay on
    the row, so linkage through them is as easy after FIS as before (spec §3.5).

    Examples
    --------
    >>> import pandas as pd
    >>> tag_groups(pd.DataFrame({"sex": ["F", "M", "F", "M"]}), protected="sex").tolist()
    ['F', 'M', 'F', 'M']
    """
    owner = "tag_groups"
    check_table(table, owner=owner)
    return _tags(table, protected, owner=owner, name="protected").rename("tag")


def _tags(table: pd.DataFrame, protected, *, owner: str, name: str) -> pd.Series:
    """The protected column, checked: named by a string, present, complete, >= 2 rows a class."""
    if not isinstance(protected, str):
        raise param_error(name, owner, "be the name of the protected column", protected)
    require_columns(table, [protected])
    cells = table[protected]
    require_complete(cells, role="protected attribute", remedy="every row needs a tag.")
    codes, uniques = pd.factorize(cells, sort=False)
    sizes = np.bincount(codes, minlength=len(uniques))
    if sizes.min() < 2:
        label = native(uniques[int(np.argmin(sizes))])
        raise SchemaError(f"Protected class {label!r} of column {protected!r} has "
                          f"{int(sizes.min())} row; FIS needs at least 2 rows per class "
                          "(a batch of size >= 2).")
    return cells.copy()


# ---------------------------------------------------------------------------------------------
# The plan (§3.4, §3.6)
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class FisBatch:
    """One batch: rows (0-based positions in the table) of one protected class."""

    tag: object
    rows: tuple

    @property
    def size(self) -> int:
        """Number of rows."""
        return len(self.rows)


@dataclass(frozen=True, repr=False)
class FisPlan:
    """How FIS shuffles a table: attribute groups, batches and (once drawn) permutations.

    **Internal to the data holder: never publish it with the data** (the permutations undo
    the shuffle).

    Attributes
    ----------
    tag : str
        The protected column.
    anchored : tuple of str
        Columns that never move (ID, the tag, the tied block T), in table order.
    attribute_groups : tuple of tuple of str
        The S attribute groups; the columns of one group move together (all bits of a one-hot
        attribute are in one group).  Empty when every column is anchored.
    batches : tuple of FisBatch
        Per class, batches whose sizes differ by at most 1; together they hold every row once.
    S : int
        Number of attribute groups (= shufflers per class).
    n_rows : int
    encoding : EncodingMap or None
        The one-hot encoding of the table, if it is encoded.
    shuffler_assignment : tuple of tuple of int, or None
        After :func:`fis_shuffle`: per batch, the shuffler serving each attribute group (a
        uniform random bijection).
    permutations : tuple of tuple of tuple of int, or None
        After :func:`fis_shuffle`: per batch and attribute group, ``perm`` such that output
        row ``rows[r]`` took the group's values from source row ``rows[perm[r]]``.
    seed : int or None
        The int ``random_state`` of the shuffle, if one was given.
    """

    tag: str
    anchored: tuple
    attribute_groups: tuple
    batches: tuple
    S: int
    n_rows: int
    encoding: EncodingMap | None = None
    shuffler_assignment: tuple | None = None
    permutations: tuple | None = None
    seed: int | None = None

    @property
    def g(self) -> int:
        """Number of free attributes (one-hot attributes count once)."""
        return sum(len(_units(group, self.encoding)) for group in self.attribute_groups)

    @property
    def classes(self) -> tuple:
        """The protected classes, in plan order."""
        return tuple(dict.fromkeys(b.tag for b in self.batches))

    @property
    def t(self) -> tuple:
        """Number of batches per class (the paper's t_i), in :attr:`classes` order."""
        return tuple(sum(1 for b in self.batches if b.tag == c) for c in self.classes)

    @property
    def batch_sizes(self) -> tuple:
        """Per class, the sizes of its batches (input for :func:`paper_fis_epsilon`)."""
        return tuple(tuple(b.size for b in self.batches if b.tag == c) for c in self.classes)

    @property
    def realized(self) -> bool:
        """Whether the permutations have been drawn (a plan returned by fis_shuffle)."""
        return self.permutations is not None

    def to_frame(self) -> pd.DataFrame:
        """One row per batch: class and size."""
        return pd.DataFrame({"tag": [b.tag for b in self.batches],
                             "size": [b.size for b in self.batches]},
                            index=pd.RangeIndex(len(self.batches), name="batch"))

    def __repr__(self) -> str:
        t = dict(zip(self.classes, self.t))
        return (f"FisPlan(tag={self.tag!r}, S={self.S}, g={self.g}, batches={t}, "
                f"n_rows={self.n_rows}, realized={self.realized})")

    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, (("tag", self.tag), ("S", self.S), ("g", self.g),
                                  ("batches", len(self.batches)), ("rows", self.n_rows),
                                  ("realized", self.realized)),
                     None, head_rows(self.to_frame), len(self.to_frame()))


@dataclass(frozen=True)
class ShuffledTable:
    """The result of :func:`fis_shuffle`; unpacks as ``frame, plan``.

    Attributes
    ----------
    frame : pandas.DataFrame
        The shuffled table (the caller's index and columns).  Not anonymized and not
        differentially private.
    plan : FisPlan
        The realized plan, permutations included: keep it private.
    """

    frame: pd.DataFrame
    plan: FisPlan

    def __iter__(self):
        return iter((self.frame, self.plan))


def _units(columns, encoding: EncodingMap | None) -> list:
    """Columns grouped into attributes: all present bits of a one-hot source are one unit."""
    units: dict = {}
    for column in columns:
        source = encoding.source_of(column) if encoding is not None else None
        units.setdefault(column if source is None else ("source", source), []).append(column)
    return [tuple(cols) for cols in units.values()]


def _expand_anchored(table: pd.DataFrame, names: list, encoding, owner: str) -> list:
    """Anchored names as columns: a one-hot source name stands for all its bit columns."""
    columns: list = []
    for name in names:
        bits = [] if encoding is None or name in table.columns else \
            [c for c in encoding.columns.get(name, ()) if c in table.columns]
        if bits:
            columns.extend(bits)
        else:
            require_columns(table, [name])
            columns.append(name)
    if encoding is not None:
        for source, bits in encoding.columns.items():
            present = [c for c in bits if c in table.columns]
            inside = [c for c in present if c in columns]
            if inside and len(inside) != len(present):
                raise InvalidParameterError(
                    f"The 'anchored' parameter of {owner} anchors {inside} but not the other "
                    f"bit columns of one-hot attribute {source!r} "
                    f"{[c for c in present if c not in inside]}; anchor the attribute "
                    f"{source!r} as a whole.")
    return list(dict.fromkeys(columns))


#: The number of batches of a class (``batches`` is one, or a mapping class -> one).
_BATCHES = Interval("integer", 1,
                    text="be a positive integer (or a mapping class -> positive integer)")


def _batch_counts(sizes: dict, *, batches, batch_size, owner: str) -> dict:
    """t_i per class from ``batches`` (int or mapping) or ``batch_size``."""
    if (batches is None) == (batch_size is None):
        raise InvalidParameterError(f"{owner} needs exactly one of 'batches' (the number of "
                                    "batches per class) and 'batch_size'. Got "
                                    f"batches={batches!r} and batch_size={batch_size!r} instead.")
    if batch_size is not None:  # declared: an integer >= 2
        return {c: max(1, min(n // 2, (2 * n + batch_size) // (2 * batch_size)))
                for c, n in sizes.items()}
    if isinstance(batches, Mapping):
        unknown = [c for c in batches if c not in sizes]
        if unknown:
            raise param_error("batches", owner, f"name only the classes {list(sizes)}",
                              unknown[0])
        absent = [c for c in sizes if c not in batches]
        if absent:
            raise param_error("batches", owner, f"give a number of batches for every class "
                              f"{list(sizes)}", dict(batches))
        counts = dict(batches)
    else:
        counts = {c: batches for c in sizes}
    for label, t in counts.items():
        t = check(t, _BATCHES, name="batches", owner=owner)
        if 2 * t > sizes[label]:
            raise InvalidParameterError(
                f"The 'batches' parameter of {owner} must give each class at most n_i / 2 "
                f"batches (every batch needs >= 2 rows); class {label!r} has n_i = "
                f"{sizes[label]} rows and t_i = {t}.")
    return {c: int(t) for c, t in counts.items()}


#: The options :func:`plan_fis` and :func:`fis_shuffle` share.
_PLAN_OPTIONS = {"batch_size": Nullable(BATCH_SIZE), "encoding": ENCODING,
                 "allow_reduce_S": Boolean(), "random_state": RANDOM_STATE}


@validate_params({"table": FRAME, "S": GROUPS, **_PLAN_OPTIONS})
def plan_fis(table, *, tag, anchored, S, batches=None, batch_size=None, encoding=None,
             allow_reduce_S=False, random_state) -> FisPlan:
    """Draw the attribute groups and the batches of a FIS run (spec §3.4, §3.6; paper §2.5).

    Parameters
    ----------
    table : pandas.DataFrame
        The table; never modified.
    tag : str, keyword-only
        The protected column (always anchored).
    anchored : str or list of str, keyword-only
        Columns that never move: the ID and the tied block T = Q ∪ B.  With ``encoding``, a
        one-hot attribute's name stands for all its bit columns.
    S : int, keyword-only
        Number of attribute groups (shufflers per class), >= 2 as the paper requires.
    batches : int or mapping class -> int, keyword-only
        Batches per class t_i, each at most n_i / 2.
    batch_size : int, keyword-only
        Alternative to ``batches``: ``t_i = round(n_i / batch_size)``, clipped to
        ``[1, n_i // 2]``.
    encoding : EncodingMap, optional, keyword-only
        Keeps each one-hot attribute's bits in one attribute group.
    allow_reduce_S : bool, default False, keyword-only
        With fewer free attributes g than S, use S = g (with a warning) instead of raising.
    random_state : None, int or numpy.random.Generator, keyword-only

    Returns
    -------
    FisPlan
        Without permutations (:func:`fis_shuffle` draws them).

    Raises
    ------
    SchemaError
        As :func:`tag_groups`; an anchored column not in the table (the message lists the
        columns).
    InfeasibleError
        g < S and not ``allow_reduce_S``.
    InvalidParameterError
        S < 2, batch sizes below 2, a one-hot attribute partly anchored, bad batches.

    Warns
    -----
    PrivacyRiskWarning
        When g = 0 (FIS is the identity) or S is reduced.

    Notes
    -----
    The free attributes are dealt uniformly at random into S groups of ``floor(g/S)``; the
    ``g mod S`` leftovers go to distinct groups chosen uniformly without replacement, so group
    sizes differ by at most 1 (§3.4, following A.2: the tied block never moves, so it is not
    one of the g = k - m attributes the paper counts).  Each class's rows, in uniformly random
    order, are cut into t_i consecutive batches whose sizes differ by at most 1.

    References
    ----------
    Sengupta and Mishra, §2.3, §2.5, A.2, A.3; spec group-tagging §3.4, §3.6.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"id": range(8), "sex": list("FFFFMMMM"),
    ...                       "maths": [90, 80, 70, 60, 50, 40, 30, 20],
    ...                       "city": list("abcdabcd"), "age": [20, 30, 40, 50] * 2})
    >>> plan = plan_fis(table, tag="sex", anchored=["id", "maths"], S=2, batches=2,
    ...                 random_state=0)
    >>> plan
    FisPlan(tag='sex', S=2, g=2, batches={'F': 2, 'M': 2}, n_rows=8, realized=False)
    >>> sorted(map(sorted, plan.attribute_groups))
    [['age'], ['city']]
    """
    owner = "plan_fis"
    check_table(table, owner=owner)
    rng = as_generator(random_state)
    tags = _tags(table, tag, owner=owner, name="tag")
    n_groups = S
    names = column_list(anchored, name="anchored", owner=owner, allow_empty=True)
    fixed = _expand_anchored(table, [tag] + [n for n in names if n != tag], encoding, owner)
    free_units = _units([c for c in table.columns if c not in fixed], encoding)
    g = len(free_units)
    if g == 0:
        warn(f"Every column is anchored, so FIS leaves the table unchanged (g = 0 free "
             f"attributes for S = {n_groups} groups).", PrivacyRiskWarning)
    elif g < n_groups:
        free = [u[0] if len(u) == 1 else encoding.source_of(u[0]) for u in free_units]
        if not allow_reduce_S:
            raise InfeasibleError(
                f"FIS has fewer free attributes than attribute groups: g = {g} ({free}) < "
                f"S = {n_groups}; anchor fewer columns, lower S, or pass allow_reduce_S=True.")
        warn(f"FIS has only g = {g} free attribute(s) ({free}); S is reduced from {n_groups} "
             f"to {g}, so fewer attribute groups are shuffled apart.", PrivacyRiskWarning)
        n_groups = g

    sizes = {c: int(n) for c, n in tags.value_counts(sort=False).items()}
    sizes = {native(c): sizes[c] for c in sorted_labels(sizes)}
    counts = _batch_counts(sizes, batches=batches, batch_size=batch_size, owner=owner)

    groups: tuple = ()
    if g:
        order = [free_units[i] for i in rng.permutation(g)]
        base = g // n_groups
        dealt = [list(order[s * base:(s + 1) * base]) for s in range(n_groups)]
        leftovers = order[n_groups * base:]
        for unit, s in zip(leftovers, rng.choice(n_groups, size=len(leftovers), replace=False)):
            dealt[int(s)].append(unit)
        position = {c: i for i, c in enumerate(table.columns)}
        groups = tuple(tuple(sorted((c for unit in group for c in unit),
                                    key=position.__getitem__))
                       for group in dealt)

    tag_values = tags.to_numpy()
    plan_batches = []
    for label in sizes:
        rows = np.flatnonzero(tag_values == label)
        rows = rows[rng.permutation(len(rows))]
        for chunk in np.array_split(rows, counts[label]):
            plan_batches.append(FisBatch(label, tuple(int(r) for r in chunk)))
    position = {c: i for i, c in enumerate(table.columns)}
    return FisPlan(tag=tag, anchored=tuple(sorted(fixed, key=position.__getitem__)),
                   attribute_groups=groups, batches=tuple(plan_batches),
                   S=n_groups if g else S, n_rows=len(table), encoding=encoding)


def _check_plan(table: pd.DataFrame, plan: FisPlan, owner: str) -> None:
    """A plan (possibly user-made) must fit the table exactly before anything moves."""
    if plan.n_rows != len(table):
        raise InvalidParameterError(f"The plan is for {plan.n_rows} rows; the table has "
                                    f"{len(table)}.")
    units = [tuple(plan.anchored)] + [tuple(g) for g in plan.attribute_groups]
    listed = [c for unit in units for c in unit]
    require_columns(table, listed)
    if len(set(listed)) != len(listed):
        twice = sorted({c for c in listed if listed.count(c) > 1})
        raise InvalidParameterError(f"The plan lists columns {twice} more than once; each "
                                    "column is anchored or in exactly one attribute group.")
    uncovered = [c for c in table.columns if c not in set(listed)]
    if uncovered:
        raise InvalidParameterError(f"The plan does not cover columns {uncovered}; anchor "
                                    "them or put them in an attribute group.")
    if plan.tag not in plan.anchored:
        raise InvalidParameterError(f"The plan must anchor its tag column {plan.tag!r}.")
    if plan.attribute_groups and len(plan.attribute_groups) != plan.S:
        raise InvalidParameterError(f"The plan has {len(plan.attribute_groups)} attribute "
                                    f"groups but S = {plan.S}.")
    if any(len(g) == 0 for g in plan.attribute_groups):
        raise InvalidParameterError("The plan has an empty attribute group.")
    if plan.encoding is not None:
        unit_of = {c: i for i, unit in enumerate(units) for c in unit}
        for source, bits in plan.encoding.columns.items():
            where = {unit_of[c] for c in bits if c in unit_of}
            if len(where) > 1:
                raise InvalidParameterError(
                    f"The plan splits one-hot attribute {source!r} across attribute groups "
                    f"({[c for c in bits if c in unit_of]}); its bits must move together.")
    tags = _tags(table, plan.tag, owner=owner, name="plan").to_numpy()
    seen = np.zeros(len(table), dtype=np.int64)
    for number, batch in enumerate(plan.batches):
        rows = np.asarray(batch.rows, dtype=np.int64)
        if rows.size < 2:
            raise InvalidParameterError(f"Batch {number} of the plan has {rows.size} row; "
                                        "every batch needs >= 2 rows.")
        if rows.min() < 0 or rows.max() >= len(table):
            raise InvalidParameterError(f"Batch {number} of the plan names rows outside "
                                        f"0..{len(table) - 1}.")
        if not np.all(tags[rows] == batch.tag):
            raise InvalidParameterError(f"Batch {number} of the plan mixes rows of other "
                                        f"classes into class {batch.tag!r}; rows of different "
                                        "classes never exchange values.")
        np.add.at(seen, rows, 1)
    if not np.all(seen == 1):
        bad = int(np.flatnonzero(seen != 1)[0])
        raise InvalidParameterError(f"The plan's batches must hold every row exactly once; "
                                    f"row {bad} is in {int(seen[bad])} batches.")


def _shufflers_for(shufflers, plan: FisPlan, owner: str) -> dict:
    """The S shufflers reserved for each class."""
    n = plan.S
    if shufflers is None:
        return {}
    if isinstance(shufflers, Mapping):
        missing = [c for c in plan.classes if c not in shufflers]
        if missing:
            raise param_error("shufflers", owner, f"give {n} shufflers for every class "
                              f"{list(plan.classes)}", missing[0])
        per_class = {c: shufflers[c] for c in plan.classes}
    else:
        per_class = {c: shufflers for c in plan.classes}
    for label, funcs in per_class.items():
        funcs = list(funcs) if not callable(funcs) else [funcs]
        if len(funcs) != n or not all(callable(f) for f in funcs):
            raise param_error("shufflers", owner, f"be {n} callables (size, rng) -> "
                              "permutation per class", funcs)
        per_class[label] = funcs
    return per_class


@validate_params({"table": FRAME, "plan": Nullable(InstanceOf(
    FisPlan, name="a FisPlan (from plan_fis or fis_shuffle)")), "S": Nullable(GROUPS),
    **_PLAN_OPTIONS})
def fis_shuffle(table, *, plan=None, tag=None, anchored=None, S=None, batches=None,
                batch_size=None, encoding=None, allow_reduce_S=False, shufflers=None,
                random_state=None) -> ShuffledTable:
    """Fairly Iterative Shuffling: shuffle attribute groups within batches of each class
    (spec §3.6; paper §2.5, §3).

    Parameters
    ----------
    table : pandas.DataFrame
        The table; never modified.
    plan : FisPlan, optional, keyword-only
        Reuse these attribute groups and batches (fresh permutations are drawn).  Otherwise
        give ``tag``, ``anchored``, ``S`` and ``batches`` or ``batch_size`` (and optionally
        ``encoding``, ``allow_reduce_S``) as for :func:`plan_fis`.
    shufflers : callable sequence or mapping class -> sequence, optional, keyword-only
        S callables ``(size, rng) -> permutation of range(size)`` per class (the paper's S
        shufflers per tag group); default ``rng.permutation``.  Per batch, the shufflers are
        assigned to the attribute groups by a uniform random bijection.
    random_state : None, int or numpy.random.Generator, keyword-only

    Returns
    -------
    ShuffledTable
        ``frame, plan = fis_shuffle(...)``; the plan holds the permutations (keep it private).

    Raises
    ------
    InvalidParameterError
        Both ``plan`` and plan parameters, a plan that does not fit the table (it splits a
        one-hot attribute, mixes classes, misses rows or columns), or a shuffler that returns
        something other than a permutation.
    SchemaError, InfeasibleError
        As :func:`plan_fis`.

    Warns
    -----
    NotDifferentiallyPrivateWarning
        Always: the output is neither anonymized nor differentially private.

    Notes
    -----
    Output row ``rows[r]`` of a batch takes attribute group s from source row
    ``rows[perm_s[r]]``.  Anchored columns are byte-identical; per class and batch, each free
    column's multiset (and each group's multiset of row tuples) is unchanged, so every
    single-column count is exact.  A conjunctive count over columns A, B of different
    shuffle units has expectation ``sum_b count_A(b) count_B(b) / |b|`` given the plan.  The
    paper's "iteratively" is one pass over the batches: repeating rounds would not change the
    output distribution (a uniform permutation composed with any independent permutation is
    uniform).

    References
    ----------
    Sengupta and Mishra, §2.5, §3, Theorem 3.2, A.1-A.3; spec group-tagging §3.6.

    Examples
    --------
    >>> import warnings
    >>> import pandas as pd
    >>> table = pd.DataFrame({"sex": list("FFFFMMMM"), "maths": [9, 8, 7, 6, 5, 4, 3, 2],
    ...                       "city": list("abcdabcd"), "age": [20, 30, 40, 50] * 2})
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     out, plan = fis_shuffle(table, tag="sex", anchored=["maths"], S=2, batches=1,
    ...                             random_state=1)
    >>> out["maths"].equals(table["maths"])       # anchored: never moves
    True
    >>> sorted(out["city"][:4]) == sorted(table["city"][:4])  # same multiset per class
    True
    """
    owner = "fis_shuffle"
    check_table(table, owner=owner)
    rng = as_generator(random_state)
    if plan is None:
        for name, value in (("tag", tag), ("anchored", anchored), ("S", S)):
            if value is None:
                raise param_error(name, owner, "be given when plan is None", None)
        plan = plan_fis(table, tag=tag, anchored=anchored, S=S, batches=batches,
                        batch_size=batch_size, encoding=encoding,
                        allow_reduce_S=allow_reduce_S, random_state=rng)
    else:
        given = [n for n, v in (("tag", tag), ("anchored", anchored), ("S", S),
                                ("batches", batches), ("batch_size", batch_size),
                                ("encoding", encoding)) if v is not None]
        if allow_reduce_S:
            given.append("allow_reduce_S")
        if given:
            raise InvalidParameterError(
                f"{owner} takes either plan= or the plan's parameters (tag, anchored, S, "
                f"batches or batch_size, encoding), not both. Got plan and {given} instead.")
        _check_plan(table, plan, owner)
    per_class = _shufflers_for(shufflers, plan, owner)

    n = len(table)
    n_groups = len(plan.attribute_groups)
    sources = np.tile(np.arange(n, dtype=np.int64), (n_groups, 1))
    assignment: list = []
    permutations: list = []
    for batch in plan.batches:
        rows = np.asarray(batch.rows, dtype=np.int64)
        size = rows.size
        served_by = rng.permutation(n_groups) if n_groups else np.zeros(0, dtype=np.int64)
        perms = []
        for s in range(n_groups):
            if per_class:
                shuffler = per_class[batch.tag][int(served_by[s])]
                perm = np.asarray(shuffler(size, rng))
                if perm.shape != (size,) or perm.dtype.kind not in "iu" \
                        or not np.array_equal(np.sort(perm), np.arange(size)):
                    raise InvalidParameterError(
                        f"Shuffler {int(served_by[s])} of class {batch.tag!r} returned "
                        f"{perm.tolist()[:20]!r} for a batch of {size} rows; a shuffler must "
                        f"return a permutation of range({size}).")
            else:
                perm = rng.permutation(size)
            sources[s, rows] = rows[perm]
            perms.append(tuple(int(p) for p in perm))
        assignment.append(tuple(int(x) for x in served_by))
        permutations.append(tuple(perms))

    columns: dict = {}
    group_of = {c: s for s, group in enumerate(plan.attribute_groups) for c in group}
    for column in table.columns:
        cells = table[column].array
        columns[column] = (cells.copy() if column not in group_of
                           else cells.take(sources[group_of[column]]))
    frame = pd.DataFrame(columns, index=table.index)
    # declared: None, a Generator, or an int seed (numpy ints arrive as Python ints)
    seed = random_state if isinstance(random_state, int) else None
    realized = replace(plan, shuffler_assignment=tuple(assignment),
                       permutations=tuple(permutations), seed=seed)
    warn("fis_shuffle permutes attribute groups within each protected class: the output is not "
         "anonymized and not differentially private (per class every column total is exact and "
         "the anchored columns are released verbatim); see empirical_relinkage_rate for the "
         "share of rows that keep their own values.", NotDifferentiallyPrivateWarning)
    return ShuffledTable(frame, realized)


# ---------------------------------------------------------------------------------------------
# The paper's "privacy budget" (§3.6, eq. (1), (3), (5)-(9)) and honest linkage diagnostics
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PaperBudget:
    """The value of the paper's eq. (1) / eq. (3) - **not** a differential-privacy budget.

    Attributes
    ----------
    rr : float
        ``RR_inf = (1/n_p!) sum_i t_i / (b_i - 1)^S``.
    epsilon : float
        ``ln RR_inf``; usually negative, which no DP budget can be.
    n_p : int
        Number of protected classes (n_p = 1 is eq. (1), BUDS).
    equation : str
        ``"eq. (1)"`` or ``"eq. (3)"``.
    is_dp_guarantee : bool
        Always False.
    """

    rr: float
    epsilon: float
    n_p: int
    equation: str
    is_dp_guarantee: bool = False


#: Any integer (numpy included, never a bool).
_INTEGER = Interval("integer")
#: A batch size of eq. (1)/(3): the mean of a class's batches, or one of them.
_PAPER_BATCH = Interval("real", 2, text="be >= 2 for every class (b = 1 makes (b - 1)^S = 0, "
                        "a division by zero in eq. (1)/(3))")


def _mean_batch_size(value, *, t: int, label: int, owner: str) -> float:
    if is_real(value):
        return float(check(value, _PAPER_BATCH, name="batch_sizes", owner=owner))
    try:
        sizes = list(value)
    except TypeError:
        raise param_error("batch_sizes", owner, "be a number or a list of batch sizes per "
                          "class", value) from None
    if not sizes or not all(_INTEGER.is_satisfied_by(b) for b in sizes):
        raise param_error("batch_sizes", owner, "list integer batch sizes", value)
    check(min(sizes), _PAPER_BATCH, name="batch_sizes", owner=owner)
    if len(sizes) != t:
        raise param_error("batch_sizes", owner, f"list t_i = {t} sizes for class {label}",
                          len(sizes))
    if max(sizes) - min(sizes) > 1:
        warn(f"Class {label} has unequal batch sizes ({min(sizes)} to {max(sizes)}): eq. "
             "(1)/(3) assume n_i1 ≃ ... ≃ n_it_i; the mean is used.", UnprovenFormulaWarning)
    return sum(sizes) / len(sizes)


@validate_params({"S": GROUPS})
def paper_fis_epsilon(t, batch_sizes, *, S) -> PaperBudget:
    """The paper's FIS "privacy budget" eq. (3) (eq. (1) for one class), for reproduction.

    Parameters
    ----------
    t : int or list of int
        Batches per class t_i (>= 1); an int means one class (eq. (1)).
    batch_sizes : number, or list of (number or list of int)
        Per class, the average batch size n_{i t_i} (>= 2) or the list of its batch sizes
        (their mean is used; unequal sizes beyond +-1 warn).  A single number applies to every
        class.
    S : int, keyword-only
        Attribute groups per class, >= 2.

    Returns
    -------
    PaperBudget
        ``is_dp_guarantee`` is always False.

    Raises
    ------
    InvalidParameterError
        t_i < 1, b_i < 2 (b = 1 divides by zero), S < 2, mismatched lengths.

    Warns
    -----
    NotDifferentiallyPrivateWarning
        Always: the value is not a DP budget.
    UnprovenFormulaWarning
        A class's batch sizes differ by more than 1.

    Notes
    -----
    ``RR_i = t_i / (b_i - 1)^S`` (5), ``RR_inf = (1/n_p!) sum_i RR_i`` (6),
    ``epsilon = ln RR_inf`` (3), (7), (8); two classes give eq. (9).  Computed in log space, so
    a large S never builds a huge number.  Why it is no DP budget (spec §3.6): it is negative
    unless ``sum_i t_i / (b_i - 1)^S >= n_p!`` (t >= (b - 1)^S per class for two equal
    classes); it grows with the number of batches (more people, "less privacy"); and FIS, a
    permutation, releases every column total exactly, so it is not epsilon-DP for any finite
    epsilon.

    References
    ----------
    Sengupta and Mishra, Theorem 3.1 eq. (1), Theorem 3.2 eq. (3)-(9), Lemma 1, A.1; BUDS
    (Sengupta, Paul and Mishra, 2020); spec group-tagging §3.6.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     budget = paper_fis_epsilon([4, 6], [100, 100], S=2)
    >>> round(budget.epsilon, 5), budget.is_dp_guarantee
    (-7.5808, False)
    """
    owner = "paper_fis_epsilon"
    n_groups = S
    single = _INTEGER.is_satisfied_by(t)
    counts = [t] if single else (list(t) if not isinstance(t, (str, bytes)) else None)
    if counts is None or not counts or not all(POSITIVE.is_satisfied_by(x) for x in counts):
        raise param_error("t", owner, "be a positive integer or a list of positive integers "
                          "(batches per class)", t)
    n_p = len(counts)
    if is_real(batch_sizes):
        per_class = [batch_sizes] * n_p
    elif single:
        per_class = [batch_sizes]
    else:
        per_class = list(batch_sizes)
        if len(per_class) != n_p:
            raise param_error("batch_sizes", owner, f"give one entry per class (len(t) = "
                              f"{n_p})", batch_sizes)
    means = [_mean_batch_size(b, t=int(ti), label=i, owner=owner)
             for i, (ti, b) in enumerate(zip(counts, per_class))]
    logs = [math.log(ti) - n_groups * math.log(b - 1) for ti, b in zip(counts, means)]
    top = max(logs)
    log_rr = top + math.log(sum(math.exp(v - top) for v in logs)) - math.lgamma(n_p + 1)
    rr = math.exp(log_rr) if log_rr < 709 else math.inf
    warn(f"paper_fis_epsilon reproduces eq. ({1 if n_p == 1 else 3}) of Sengupta and Mishra: "
         f"epsilon = {log_rr:.6g} is not a differential-privacy budget (FIS is a permutation "
         "and is not epsilon-DP for any finite epsilon); is_dp_guarantee is False.",
         NotDifferentiallyPrivateWarning)
    return PaperBudget(rr=rr, epsilon=log_rr, n_p=n_p,
                       equation="eq. (1)" if n_p == 1 else "eq. (3)")


@dataclass(frozen=True)
class LinkageRates:
    """How often shuffled rows keep values from their own source row.

    Attributes
    ----------
    each_group : float
        Share of (row, attribute group) pairs whose values are the row's own (``1/b`` in
        expectation).
    any_group : float
        Share of rows with at least one attribute group still their own.
    all_groups : float
        Share of rows entirely their own (the whole record re-linked).
    per_group : tuple of float
        Measured rates only: the share per attribute group (empty for the closed form).
    """

    each_group: float
    any_group: float
    all_groups: float
    per_group: tuple = ()

    def to_dict(self) -> dict:
        """Plain-Python form."""
        return {"each_group": self.each_group, "any_group": self.any_group,
                "all_groups": self.all_groups, "per_group": list(self.per_group)}

    _repr_html_ = result_html

    def _shown(self) -> Shown:
        per_group = self.per_group
        return Shown(None, None, (("each_group", self.each_group),
                                  ("any_group", self.any_group),
                                  ("all_groups", self.all_groups), ("groups", len(per_group))),
                     None, lambda n: pd.DataFrame({"per_group": list(per_group[:n])}),
                     len(per_group))


@validate_params({"batch_size": BATCH_SIZE, "S": POSITIVE})
def row_return_probability(batch_size, *, S) -> LinkageRates:
    """Probability that a row's attribute groups stay on their own row under FIS (spec §3.6).

    Parameters
    ----------
    batch_size : int
        The batch size b, >= 2.
    S : int, keyword-only
        Number of independently shuffled attribute groups, >= 1.

    Returns
    -------
    LinkageRates
        ``1/b`` for each group, ``1 - (1 - 1/b)^S`` for some group, ``b^-S`` for all groups.

    Notes
    -----
    A uniform permutation of b rows leaves a given row fixed with probability 1/b; the S
    groups are shuffled independently.  This is the honest counterpart of the paper's
    Lemma 1 ratio, whose odds ``1/(b-1)`` per group are the most plausible origin of eq. (1).

    Examples
    --------
    >>> rates = row_return_probability(5, S=2)
    >>> round(rates.any_group, 4), round(rates.all_groups, 4)
    (0.36, 0.04)
    """
    b, s = batch_size, S
    return LinkageRates(each_group=1.0 / b, any_group=-math.expm1(s * math.log1p(-1.0 / b)),
                        all_groups=math.exp(-s * math.log(b)))


@validate_params({"plan": InstanceOf(FisPlan, name="a FisPlan returned by fis_shuffle")})
def empirical_relinkage_rate(plan) -> LinkageRates:
    """The share of rows whose attribute-group values came from their own row, by provenance.

    Parameters
    ----------
    plan : FisPlan
        A realized plan (returned by :func:`fis_shuffle`), whose permutations record where
        every value came from.

    Returns
    -------
    LinkageRates
        With no attribute group (g = 0) every row is its own: all rates are 1.

    Raises
    ------
    InvalidParameterError
        If the plan has no permutations (a plan from :func:`plan_fis`).

    Notes
    -----
    Measured on provenance, not on value equality: two rows with equal values would otherwise
    count as re-linked.  Expected values: ``1 - (1 - 1/b)^S`` (some group) and ``b^-S`` (all
    groups), :func:`row_return_probability`.

    Examples
    --------
    >>> import warnings
    >>> import pandas as pd
    >>> table = pd.DataFrame({"sex": ["F"] * 500, "a": range(500), "b": range(500)})
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     _, plan = fis_shuffle(table, tag="sex", anchored=[], S=2, batch_size=5,
    ...                           random_state=0)
    >>> rates = empirical_relinkage_rate(plan)
    >>> 0.25 < rates.any_group < 0.47 and rates.all_groups < 0.1
    True
    """
    owner = "empirical_relinkage_rate"
    if not plan.realized:
        raise InvalidParameterError(
            f"{owner} needs a plan returned by fis_shuffle (with its permutations); plan_fis "
            "only draws the attribute groups and the batches.")
    n_groups = len(plan.attribute_groups)
    if n_groups == 0:
        return LinkageRates(each_group=1.0, any_group=1.0, all_groups=1.0)
    home = np.zeros((n_groups, plan.n_rows), dtype=bool)
    for batch, perms in zip(plan.batches, plan.permutations):
        rows = np.asarray(batch.rows, dtype=np.int64)
        for s, perm in enumerate(perms):
            home[s, rows] = np.asarray(perm) == np.arange(rows.size)
    return LinkageRates(each_group=float(home.mean()), any_group=float(home.any(axis=0).mean()),
                        all_groups=float(home.all(axis=0).mean()),
                        per_group=tuple(float(x) for x in home.mean(axis=1)))
