"""Differentially private count reports (spec group-tagging §3.8; paper abstract, §2.7, §3.3,
A.3).

The paper reports "average counts" ``C_T = sum_i sum_{j in Q} sum_{T in [d]} x_ij[T]`` through
an aggregator "that uses TF-IDF calculation to add minimum noise" for "longitudinal
Differential Privacy", and specifies neither the noise, its sensitivity nor the budget.  FIS
cannot stand in for the noise: it preserves every column total within each class, so the
shuffled table gives ``C_FS = C_T`` exactly.  This module is the spec's sound replacement and
the **only** differentially private component of the namespace: per-period counts with
Laplace or two-sided geometric noise, composed over the horizon sequentially or by binary-tree
continual counting, charged to a :class:`~skyprivacy.fairness_queries.BudgetAccountant`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..._core.display import Shown, head_rows, result_html, result_repr
from ..._core.encoding import require_columns
from ..._core.exact import native
from ..._core.validation import (InstanceOf, Interval, Nullable, Options, as_generator,
                                 validate_params)
from ...errors import InvalidParameterError, SchemaError, param_error
from ...fairness_queries.accountant import BudgetAccountant
from ._common import FRAME, RANDOM_STATE, check_table, require_complete, sorted_labels
from .encoding import ENCODING
from .query import QuerySpec, predicate_mask

__all__ = ["CountRelease", "count_report", "tree_levels"]


@dataclass(frozen=True)
class CountRelease:
    """A differentially private count report over a horizon of periods.

    Attributes
    ----------
    values : tuple
        The released values, one per period: noisy counts (``statistic="count"``) or noisy
        running totals (``statistic="running_total"``); floats (Laplace) or ints (geometric).
    periods : tuple
        The period labels of the horizon, in order.
    statistic : {"count", "running_total"}
    epsilon : float
        Total privacy budget of the whole release (epsilon-DP, delta = 0), per
        :attr:`privacy_unit`.
    sensitivity : int
        Delta: the most one row changes its period's count.
    composition : {"sequential", "tree"}
    mechanism : {"laplace", "geometric"}
    scale : float
        Noise scale of each noisy value (Laplace b; geometric ``alpha = exp(-1/scale)``).
    levels : int
        Tree levels L each period enters (1 for sequential composition).
    privacy_unit : {"individual", "row"}
        What neighbouring tables differ in: one individual's rows in every period, or one row.
    """

    values: tuple
    periods: tuple
    statistic: str
    epsilon: float
    sensitivity: int
    composition: str
    mechanism: str
    scale: float
    levels: int
    privacy_unit: str

    def per_period_counts(self) -> tuple:
        """Noisy per-period counts (differences of running totals for the tree:
        post-processing, so still epsilon-DP)."""
        if self.statistic == "count":
            return self.values
        return tuple(b - a for a, b in zip((0,) + self.values[:-1], self.values))

    def to_frame(self) -> pd.DataFrame:
        """One row per period."""
        return pd.DataFrame({self.statistic: list(self.values)},
                            index=pd.Index(list(self.periods), name="period"))

    def to_dict(self) -> dict:
        """Plain-Python form (everything here may be published)."""
        return {"values": list(self.values), "periods": list(self.periods),
                "statistic": self.statistic, "epsilon": self.epsilon,
                "sensitivity": self.sensitivity, "composition": self.composition,
                "mechanism": self.mechanism, "scale": self.scale, "levels": self.levels,
                "privacy_unit": self.privacy_unit}

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, (("statistic", self.statistic), ("periods", len(self.periods)),
                                  ("mechanism", self.mechanism),
                                  ("composition", self.composition), ("epsilon", self.epsilon),
                                  ("scale", self.scale), ("privacy_unit", self.privacy_unit)),
                     None, head_rows(self.to_frame), len(self.values))


@validate_params({"d": Interval("integer", 1, note="the number of periods")})
def tree_levels(d: int) -> int:
    """Nodes per period in binary-tree continual counting: ``L = ceil(log2 d) + 1``.

    Examples
    --------
    >>> [tree_levels(d) for d in (1, 2, 4, 5, 8)]
    [1, 2, 3, 4, 4]
    """
    return (d - 1).bit_length() + 1


def query_contributions(table: pd.DataFrame, spec: QuerySpec, *, encoding, owner: str
                        ) -> tuple[np.ndarray, int]:
    """Each row's contribution to the count and the sensitivity Delta (spec §3.8).

    A predicate count contributes 0/1 per row (Delta = 1).  A bit-sum count ``sum_{j in Q}
    x_ij`` contributes the row's hot bits among the query's columns; one-hot bits of one
    source attribute count once towards Delta (checked on the data: at most one hot bit per
    attribute per row).  The callers declare ``encoding`` (:data:`.encoding.ENCODING`).
    """
    if not isinstance(spec, QuerySpec) or spec.kind != "count":
        raise param_error("spec", owner, "be a count query (QuerySpec(kind='count', ...))",
                          spec if not isinstance(spec, QuerySpec) else f"kind={spec.kind!r}")
    if spec.predicate is not None:
        return predicate_mask(table, spec, owner=owner).astype(np.int64), 1
    columns = list(spec.attributes)
    require_columns(table, columns)
    bits = {}
    for column in columns:
        values = table[column].to_numpy()
        if values.dtype.kind not in "biuf" or not np.all((values == 0) | (values == 1)):
            cells = table[column]
            shown = sorted_labels(cells.dropna())[:10] + (["NaN"] if cells.isna().any() else [])
            raise SchemaError(
                f"Column {column!r} of the count query must hold 0/1 bits (one-hot encode it) "
                f"so that each attribute adds at most 1 per row; it holds {shown}.")
        bits[column] = values.astype(np.int64)
    by_source: dict = {}
    for column in columns:
        source = encoding.source_of(column) if encoding is not None else None
        by_source.setdefault(column if source is None else ("source", source), []).append(column)
    for key, members in by_source.items():
        if len(members) > 1:
            hot = sum(bits[c] for c in members)
            if hot.max() > 1:
                row = table.index[int(np.argmax(hot))]
                raise SchemaError(
                    f"Row {native(row)!r} has {int(hot.max())} hot bits of one-hot attribute "
                    f"{key[1]!r} ({members}); an encoded row has at most one.")
    total = sum(bits.values())
    return np.asarray(total, dtype=np.int64), len(by_source)


def _two_sided_geometric(rng: np.random.Generator, scale: float, size: int) -> np.ndarray:
    """Integer noise with P(k) proportional to exp(-|k| / scale) (the discrete Laplace)."""
    p = -math.expm1(-1.0 / scale)  # 1 - alpha
    return (rng.geometric(p, size) - rng.geometric(p, size)).astype(np.int64)


@validate_params({"table": FRAME, "epsilon": Interval("real", 0, closed="neither"),
                  "encoding": ENCODING, "composition": Options("sequential", "tree"),
                  "mechanism": Options("laplace", "geometric"),
                  "privacy_unit": Options("individual", "row"), "random_state": RANDOM_STATE,
                  "accountant": Nullable(InstanceOf(BudgetAccountant,
                                                    text="be None or a BudgetAccountant"))})
def count_report(table, *, spec, epsilon, periods=None, horizon=None, encoding=None,
                 composition="sequential", mechanism="laplace", privacy_unit="individual",
                 random_state, accountant=None) -> CountRelease:
    """Release a count query per period with epsilon-differential privacy (spec §3.8).

    Parameters
    ----------
    table : pandas.DataFrame
        The table (one row per individual and period); never modified.
    spec : QuerySpec, keyword-only
        A count query: a predicate count (Delta = 1) or a sum of 0/1 bit columns
        (Delta = number of distinct source attributes among them).
    epsilon : float, keyword-only
        Total budget for the whole horizon, finite and > 0.
    periods : str, optional, keyword-only
        The period column; None releases one count for the whole table.
    horizon : list, optional, keyword-only
        The public list of periods [d], in order; default the sorted distinct values of
        ``periods`` (then the set of periods is read from the data and must be public).
    encoding : EncodingMap, optional, keyword-only
        Lets bits of one one-hot attribute count once towards Delta.
    composition : {"sequential", "tree"}, keyword-only
        ``"sequential"``: one noisy count per period.  ``"tree"``: noisy running totals by
        binary-tree continual counting, each period in ``L = ceil(log2 d) + 1`` nodes.
    mechanism : {"laplace", "geometric"}, keyword-only
        Laplace noise, or two-sided geometric noise (integer outputs).
    privacy_unit : {"individual", "row"}, default "individual", keyword-only
        What neighbouring tables differ in.  ``"individual"``: all rows of one individual
        (at most one per period), the longitudinal guarantee.  ``"row"``: one row, i.e. one
        individual in one period (event-level, as in continual counting); an individual with
        rows in k periods is then protected only at k epsilon.  Noise scales (Delta the
        per-row sensitivity, d periods, L tree levels):

        ============  ================  ============
        composition   individual        row
        ============  ================  ============
        sequential    Delta d / eps     Delta / eps
        tree          Delta L d / eps   Delta L / eps
        ============  ================  ============
    random_state : None, int or numpy.random.Generator, keyword-only
    accountant : BudgetAccountant, optional, keyword-only
        Charged ``epsilon`` before any noise is drawn (a refused charge releases nothing).

    Returns
    -------
    CountRelease
        Everything in it may be published; the exact counts are not in it.

    Raises
    ------
    InvalidParameterError
        epsilon <= 0 or not finite; a decision query; bad composition or mechanism.
    SchemaError
        Missing columns, bit columns that are not 0/1, a period outside the horizon.
    BudgetError
        The accountant cannot pay epsilon.

    Notes
    -----
    One row changes its period's count by at most Delta, so the L1 sensitivity of the d
    period counts is Delta for a row and ``Delta d`` for an individual (epsilon/d per period:
    sequential composition); a tree node over ``2^j`` periods changes by up to ``2^j Delta``,
    so the L1 sensitivity of all tree nodes is ``Delta L`` for a row and ``Delta L d`` for an
    individual.  Laplace (or geometric) noise of scale sensitivity / epsilon on every released
    quantity is epsilon-DP (Laplace mechanism).  The tree pays off only under
    ``privacy_unit="row"``, where its running totals carry ``O(log^1.5 d)`` noise instead of
    ``O(sqrt d)``.  Averages ``c / n`` or ``c / (n d)`` are post-processing when n is public.

    References
    ----------
    Dwork, McSherry, Nissim and Smith (2006), the Laplace mechanism; Ghosh, Roughgarden and
    Sundararajan (2009), the geometric mechanism; Chan, Shi and Song (2011) and Dwork, Naor,
    Pitassi and Rothblum (2010), binary-tree continual counting; Sengupta and Mishra, §2.7,
    §3.3, A.3; spec group-tagging §3.8.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"urban": [1, 0, 1, 1], "month": [1, 1, 2, 2]})
    >>> q = QuerySpec("count", ["urban"], None)
    >>> release = count_report(table, spec=q, epsilon=1.0, periods="month", random_state=0)
    >>> release.scale, release.periods          # Delta d / epsilon = 1 * 2 / 1
    (2.0, (1, 2))
    >>> tree = count_report(table, spec=q, epsilon=1.0, periods="month", composition="tree",
    ...                     mechanism="geometric", privacy_unit="row", random_state=0)
    >>> tree.statistic, tree.levels, tree.scale  # Delta L / epsilon
    ('running_total', 2, 2.0)
    """
    owner = "count_report"
    check_table(table, owner=owner)
    eps = float(epsilon)
    rng = as_generator(random_state)
    contributions, delta = query_contributions(table, spec, encoding=encoding, owner=owner)

    if periods is None:
        if horizon is not None:
            raise InvalidParameterError(f"{owner} takes a horizon only with a periods column. "
                                        f"Got horizon={horizon!r} and periods=None instead.")
        labels: list = ["all"]
        codes = np.zeros(len(table), dtype=np.int64)
    else:
        if not isinstance(periods, str):
            raise param_error("periods", owner, "be None or the name of the period column",
                              periods)
        require_columns(table, [periods])
        cells = table[periods]
        require_complete(cells, role="periods", remedy="every row needs a period.")
        data_codes, uniques = pd.factorize(cells, sort=False)
        if horizon is None:
            labels = sorted_labels(uniques)
        else:
            if isinstance(horizon, (str, bytes)):
                raise param_error("horizon", owner, "be a list of period labels", horizon)
            labels = [native(v) for v in horizon]
            if not labels or len(set(labels)) != len(labels):
                raise param_error("horizon", owner, "list distinct period labels", horizon)
        position = {label: i for i, label in enumerate(labels)}
        lookup = np.array([position.get(native(u), -1) for u in uniques], dtype=np.int64)
        codes = lookup[data_codes]
        if (codes < 0).any():
            outside = sorted_labels(cells[codes < 0])[:10]
            raise SchemaError(f"Column {periods!r} has periods {outside} outside the horizon "
                              f"{labels}.")
    d = len(labels)
    counts = np.bincount(codes, weights=contributions, minlength=d).astype(np.int64)

    levels = 1 if composition == "sequential" else tree_levels(d)
    periods_per_individual = d if privacy_unit == "individual" else 1
    scale = delta * levels * periods_per_individual / eps
    if accountant is not None:
        accountant.spend(eps)

    def noise(size: int) -> np.ndarray:
        if mechanism == "laplace":
            return rng.laplace(0.0, scale, size)
        return _two_sided_geometric(rng, scale, size)

    if composition == "sequential":
        released = counts + noise(d)
        statistic = "count"
    else:
        nodes = []
        for level in range(levels):
            width = 1 << level
            sums = np.add.reduceat(counts, np.arange(0, d, width))
            nodes.append(sums + noise(sums.size))
        released = np.empty(d, dtype=nodes[0].dtype)
        for t in range(1, d + 1):
            total, start = 0, 0
            for level in reversed(range(levels)):
                if t & (1 << level):
                    total = total + nodes[level][start >> level]
                    start += 1 << level
            released[t - 1] = total
        statistic = "running_total"
    values = tuple(int(v) for v in released) if mechanism == "geometric" \
        else tuple(float(v) for v in released)
    return CountRelease(values=values, periods=tuple(labels), statistic=statistic,
                        epsilon=eps, sensitivity=int(delta), composition=composition,
                        mechanism=mechanism, scale=float(scale), levels=levels,
                        privacy_unit=privacy_unit)
