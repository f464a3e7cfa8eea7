"""t-closeness over a release candidate, with the earth mover's distance (Li et al. 2007).

A QI-group is t-close when the distribution P of the sensitive values inside it is within
distance t of their distribution Q in the whole release; the release is t-close when every group
is.  The distance is the earth mover's distance (EMD) under one of two ground distances:

- *equal* (categorical values): every two distinct values are at distance 1, and the EMD is
  the variational distance (1/2) sum_i |p_i - q_i|;
- *ordered* (numeric or otherwise ordered values v_1 < ... < v_V): v_i and v_j are at distance
  |i - j| / (V - 1), and the EMD is (1/(V-1)) sum_{i=1..V} |sum_{j<=i} (p_j - q_j)|.

Both are rational numbers, computed here exactly from the integer counts, so the verdict
EMD <= t has no round-off at the boundary.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pandas as pd

from .._core.encoding import MISSING_KEY, is_missing
from .._core.exact import decimal_fraction, json_number, native, native_number
from .._core.validation import Interval, validate_params
from ..errors import InvalidParameterError, param_error
from ..release import ReleaseCandidate
from ._common import RELEASE, GroupVerdicts, check_svpi, label_info

__all__ = ["TClosenessResult", "t_closeness", "t_closeness_level"]

_WHY = "t-closeness compares distributions of one sensitive value per individual"


@dataclass(frozen=True)
class TClosenessResult(GroupVerdicts):
    """Result of :func:`t_closeness`.

    Attributes
    ----------
    t : int, float or Fraction
        The threshold, as given.
    safe : bool
        True iff every group's distance is at most ``t`` (decided exactly).
    max_distance : Fraction
        The largest distance: the smallest t the release satisfies.
    worst_group : object
        Label of the group at the largest distance (the first one, on ties).
    ground : {'equal', 'ordered'}
        The ground distance used.
    order : tuple or None
        The value order of the ordered distance.
    group_labels, group_sizes : tuple
        Per group: label and number of individuals.
    distances : tuple of Fraction
        Per group: the exact EMD between the group's and the release's value distributions.

    ``to_frame()`` has the columns ``n_individuals``, ``distance`` (as a float) and ``safe``.
    """

    t: int | float | Fraction
    safe: bool
    max_distance: Fraction
    worst_group: object
    ground: str
    order: tuple | None = field(repr=False)
    group_labels: tuple = field(repr=False)
    group_sizes: tuple = field(repr=False)
    distances: tuple = field(repr=False)
    label_names: tuple = field(repr=False, default=(None,))
    t_exact: Fraction = field(repr=False, default=Fraction(0))

    @property
    def group_safe(self) -> tuple:
        """Per group: distance <= t, exactly."""
        return tuple(d <= self.t_exact for d in self.distances)

    _criterion = "t-closeness"

    def _measure_columns(self) -> dict:
        return {"distance": pd.array([float(d) for d in self.distances], dtype="float64")}

    def _summary(self) -> dict:
        return {"t": json_number(self.t), "ground": self.ground,
                "max_distance": float(self.max_distance),
                "max_distance_exact": str(self.max_distance)}


def _value_order(release: ReleaseCandidate, ordered: object, owner: str) -> tuple[list, tuple]:
    """Column of the release for every position of the order (-1 if absent), and the order."""
    if ordered is True:
        values = list(release.values)
        try:
            if any(is_missing(v) for v in values):
                raise TypeError
            order = sorted(values)
        except TypeError:
            raise InvalidParameterError(
                f"The 'ordered' parameter of {owner} can be True only when the release's "
                f"sensitive values can be sorted. Got values {values!r} instead.") from None
    elif isinstance(ordered, (str, bytes)) or not isinstance(ordered, Iterable) \
            or isinstance(ordered, (bool, np.bool_)):
        raise param_error("ordered", owner,
                          "be None, True or a sequence of the sensitive values in order", ordered)
    else:
        order = [native(v) for v in ordered]
    columns, seen = [], set()
    for value in order:
        try:
            key = MISSING_KEY if is_missing(value) else value
            duplicate = key in seen
        except TypeError:
            raise InvalidParameterError(
                f"The 'ordered' parameter of {owner} must hold hashable sensitive values. "
                f"Got {value!r} instead.") from None
        if duplicate:
            raise InvalidParameterError(
                f"The 'ordered' parameter of {owner} must list each value once. "
                f"Got {value!r} more than once instead.")
        seen.add(key)
        j = release.value_index(value)
        columns.append(-1 if j is None else j)
    listed = set(columns)
    missing = [v for j, v in enumerate(release.values) if j not in listed]
    if missing:
        raise InvalidParameterError(
            f"The 'ordered' parameter of {owner} must list every sensitive value of the "
            f"release. Got an order without {missing!r} instead.")
    return columns, tuple(order)


def _distances(release: ReleaseCandidate, columns: list | None) -> list[Fraction]:
    """Exact EMD of every group from the whole release (equal ground if columns is None).

    Computed from the nonzeros (Li, Li and Venkatasubramanian 2007, Sect. 4): with N people,
    group size n and totals T, the equal-ground numerator is sum_v |c_v N - n T_v|, where the
    values a group lacks contribute n T_v each; the ordered numerator is sum_i |N C(i) - n
    S(i)| over the value order, with C the group's and S the release's cumulative counts. C
    is constant between the group's nonzeros and S is non-decreasing, so each run is summed in
    closed form from prefix sums of S: O(nonzeros x log values), never groups x values.
    """
    indptr, value, count = release.csr
    group = release.nz_group
    n = np.bincount(group, weights=count, minlength=release.n_groups).astype(np.int64)
    totals = np.bincount(value, weights=count, minlength=len(release.values)).astype(np.int64)
    n_all = int(n.sum())
    width = len(columns) if columns is not None else len(release.values)
    # |numerators| and denominators stay below width * N^2; fall back to Python ints beyond.
    dtype = np.int64 if width * n_all * n_all < 2 ** 62 else object
    count, n, totals = count.astype(dtype), n.astype(dtype), totals.astype(dtype)
    if columns is None:
        per_nz = np.abs(count * n_all - n[group] * totals[value])
        numerators = np.zeros(len(n), dtype=dtype)
        np.add.at(numerators, group, per_nz)
        covered = np.zeros(len(n), dtype=dtype)
        np.add.at(covered, group, totals[value])
        numerators = numerators + n * (n_all - covered)
        denominators = 2 * n * n_all
    else:
        if width <= 1:
            return [Fraction(0)] * len(n)
        index = np.array(columns, dtype=np.int64)
        position = np.full(len(release.values), -1, dtype=np.int64)
        present = index >= 0
        position[index[present]] = np.flatnonzero(present)
        ordered_totals = np.zeros(width, dtype=dtype)
        ordered_totals[present] = totals[index[present]]
        cum_s = np.cumsum(ordered_totals)  # S(i), non-decreasing
        prefix_s = np.concatenate([np.zeros(1, dtype=dtype), np.cumsum(cum_s)])
        # the group's nonzeros in value order: runs [p_t, p_{t+1}) with C = c_1 + ... + c_t
        pos = position[value]
        order = np.lexsort((pos, group))
        g_sorted, p_sorted, c_sorted = group[order], pos[order], count[order]
        starts = np.concatenate([[0], np.cumsum(np.bincount(g_sorted, minlength=len(n)))])
        run_c = np.cumsum(c_sorted) - np.repeat(
            np.concatenate([[0], np.cumsum(c_sorted)])[starts[:-1]], np.diff(starts))
        run_lo = p_sorted
        last = np.zeros(len(p_sorted), dtype=bool)
        last[starts[1:] - 1] = True
        run_hi = np.where(last, width, np.roll(p_sorted, -1))
        nn = n[g_sorted]
        # inside a run, N C - n S(i) >= 0 exactly while S(i) < ceil(N C / n)
        target = -(-(run_c * n_all) // nn)
        split = np.clip(np.searchsorted(cum_s, target), run_lo, run_hi)
        sum_lo = prefix_s[split] - prefix_s[run_lo]
        sum_hi = prefix_s[run_hi] - prefix_s[split]
        part = ((split - run_lo) * run_c * n_all - nn * sum_lo
                + nn * sum_hi - (run_hi - split) * run_c * n_all)
        numerators = np.zeros(len(n), dtype=dtype)
        np.add.at(numerators, g_sorted, part)
        # before the group's first nonzero C = 0: sum of n S(i)
        first_pos = p_sorted[starts[:-1]]
        numerators = numerators + n * prefix_s[first_pos]
        denominators = (width - 1) * n * n_all
    return [Fraction(int(a), int(b)) for a, b in zip(numerators, denominators)]


def _prepare(release: ReleaseCandidate, ordered: object, owner: str):
    check_svpi(release, owner, _WHY)
    if ordered is None:
        return None, None
    return _value_order(release, ordered, owner)


@validate_params({"release": RELEASE, "t": Interval("real", 0, 1)})
def t_closeness(release: ReleaseCandidate, *, t: int | float | Fraction,
                ordered: bool | Sequence | None = None) -> TClosenessResult:
    """Check t-closeness: every group's value distribution is within EMD ``t`` of the overall one.

    Parameters
    ----------
    release : ReleaseCandidate
        An svpi release. The overall distribution Q is that of the whole release.
    t : int, float or Fraction
        The threshold, in [0, 1]. Floats are read as the decimal they print as.
    ordered : None, True or sequence, default None
        None: categorical values, every two distinct values at ground distance 1.
        A sequence: the values in their order (it may hold values the release lacks, e.g.
        the attribute's whole domain; it must hold every value the release has); v_i and v_j
        are at distance |i - j| / (V - 1) with V the length of the sequence.
        True: the release's own values in sorted order (numeric attributes).

    Returns
    -------
    TClosenessResult

    Raises
    ------
    InvalidParameterError
        If ``release`` is not an svpi ReleaseCandidate, ``t`` is not in [0, 1], or
        ``ordered`` is malformed (not a sequence, unhashable or repeated values, a value of the
        release missing, or True with values that cannot be sorted).

    Notes
    -----
    With p_i = #v_i,g / n_g and q_i = #v_i / N, the equal-distance EMD is
    (1/2) sum_i |p_i - q_i| and the ordered-distance EMD is
    (1/(V-1)) sum_{i=1..V} |sum_{j<=i} (p_j - q_j)|.  Both are computed as exact fractions
    from the integer counts; the group passes iff EMD <= t.

    References
    ----------
    N. Li, T. Li and S. Venkatasubramanian, "t-closeness: privacy beyond k-anonymity and
    l-diversity", ICDE 2007, Sect. 4 (EMD for equal and ordered distances).

    Examples
    --------
    >>> release = ReleaseCandidate.from_groups([(2, [3000, 4000]), (2, [5000, 6000])])
    >>> t_closeness(release, t=0.5)
    TClosenessResult(t=0.5, safe=True, max_distance=Fraction(1, 2), worst_group=0, ground='equal')
    >>> result = t_closeness(release, t=0.3, ordered=True)
    >>> result.max_distance, result.safe
    (Fraction(1, 3), False)
    >>> result.to_frame().round(4)  # doctest: +NORMALIZE_WHITESPACE
           n_individuals  distance   safe
    group
    0                  2    0.3333  False
    1                  2    0.3333  False
    """
    columns, order = _prepare(release, ordered, "t_closeness")
    t_exact = decimal_fraction(t)
    distances = _distances(release, columns)
    worst = max(range(len(distances)), key=lambda g: (distances[g], -g))
    labels, names = label_info(release)
    return TClosenessResult(
        native_number(t), distances[worst] <= t_exact, distances[worst], labels[worst],
        "equal" if columns is None else "ordered", order, labels,
        tuple(int(x) for x in release.sizes_array), tuple(distances), names, t_exact)


@validate_params({"release": RELEASE})
def t_closeness_level(release: ReleaseCandidate, *,
                      ordered: bool | Sequence | None = None) -> Fraction:
    """The smallest t for which the release is t-close: the largest group distance, exactly.

    Examples
    --------
    >>> release = ReleaseCandidate.from_groups([(2, ["a", "b"]), (2, ["a", "a"])])
    >>> t_closeness_level(release)
    Fraction(1, 4)
    """
    columns, _ = _prepare(release, ordered, "t_closeness_level")
    return max(_distances(release, columns))
