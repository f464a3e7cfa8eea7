"""Fairness measures of a decision rule and how far the privacy perturbation can move them.

Appendix A of Chen, Golubchik and Pal defines the measures (spec section 4): the relative
l-infinity metric and the total variation distance (eqs. 25-26), individual fairness
(Definition 8), statistical parity, conditional statistical parity and the p-% rule
(Definitions 9-11, eqs. 27-32).  Section 5.3, Lemma 2 bounds how much a delta- or
alpha-fidelity perturbation can change a measured bias (eqs. 14-15).

Released fairness numbers must be computed from the announced rule D~, never from D
(section 5.3): numbers computed from D leak it (section 3.3).  Every function therefore
takes the announced rule; :func:`fairness_report` warns when given none.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._core.display import Shown, head_rows, result_html, result_repr
from .._core.encoding import require_columns
from .._core.exact import native
from .._core.validation import InstanceOf, Interval, Nullable, Options, validate_params
from .._core.warning import warn
from ..errors import PrivacyRiskWarning, SchemaError, param_error
from .certify import announced_matrix
from .fidelity import Alpha, Bounds, Delta
from .table import TABLE, DecisionTable

_FAMILY = Options("tv", "rm")
#: The fidelity a measure was produced under: Lemma 2 reads Delta or Alpha (Bounds: no shift).
_FIDELITY = Nullable(InstanceOf(Delta, Alpha, Bounds, name="a Delta, Alpha or Bounds"))

__all__ = [
    "FairnessMeasure",
    "FairnessReport",
    "BiasInterval",
    "d_tv",
    "d_inf",
    "group_distribution",
    "statistical_parity",
    "conditional_statistical_parity",
    "p_percent_rule",
    "individual_fairness_bias",
    "lemma2_shift",
    "bias_interval",
    "fairness_report",
]


# -- distances (Appendix A.1) -------------------------------------------------------------
def _distribution(z, name: str, owner: str) -> np.ndarray:
    arr = np.asarray(list(z.values()) if isinstance(z, dict) else z, dtype=float)
    if arr.ndim != 1 or not np.isfinite(arr).all() or (arr < 0).any():
        raise param_error(name, owner, "be a 1-d array of probabilities", z)
    return arr


def _distribution_pair(z1, z2, owner: str):
    """Two validated distributions over the same outcomes."""
    a, b = _distribution(z1, "z1", owner), _distribution(z2, "z2", owner)
    if a.shape != b.shape:
        raise param_error("z2", owner, f"have {len(a)} outcomes like z1", len(b))
    return a, b


def d_tv(z1, z2) -> float:
    """Total variation distance with the paper's 1/|A| normaliser (eq. 26).

    D_tv(Z1, Z2) = (1/|A|) sum_a |Z1(a) - Z2(a)|; equal to the usual 1/2 sum for two
    outcomes only (spec 4.1).

    Examples
    --------
    >>> round(d_tv([0.85, 0.15], [0.625, 0.375]), 6)
    0.225
    """
    a, b = _distribution_pair(z1, z2, "d_tv")
    return float(np.abs(a - b).sum() / len(a))


def d_inf(z1, z2) -> float:
    """Relative l-infinity metric sup_a |log(Z1(a) / Z2(a))| (eq. 25).

    Unbounded: a probability that is 0 in one distribution only gives inf; 0/0 counts as 0.

    Examples
    --------
    >>> round(d_inf([0.85, 0.15], [0.625, 0.375]), 4)
    0.9163
    """
    a, b = _distribution_pair(z1, z2, "d_inf")
    both = (a == 0) & (b == 0)
    one = (a == 0) ^ (b == 0)
    if one.any():
        return math.inf
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(both, 0.0, np.abs(np.log(np.where(both, 1, a) / np.where(both, 1, b))))
    return float(logs.max())


# -- results -------------------------------------------------------------------------------
@dataclass(frozen=True)
class BiasInterval:
    """Where the true bias lies given the released one (Lemma 2, section 5.3, Fig. 3)."""

    low: float
    high: float
    max_shift: float

    def to_dict(self) -> dict:
        return {"low": self.low, "high": self.high, "max_shift": self.max_shift}


@dataclass(frozen=True)
class FairnessMeasure:
    """One measured bias.

    Attributes
    ----------
    name : str
        "statistical_parity", "conditional_statistical_parity", "p_percent_rule" or
        "individual_fairness".
    family : str
        "tv" (total-variation based, F_tv) or "rm" (relative-metric based, F_rm), the
        classes of Lemma 2.
    value : float
        The bias epsilon (eq. 27-29 read as a number, spec 4.2-4.3); NaN when a group has no
        mass in the stratum.
    groups : tuple
        The two protected groups (Y1, Y2).
    distributions : dict
        E_Y(a) of each group (outcome -> probability).
    stratum : object
        The stratum value V (conditional statistical parity only).
    ratio : float or None
        p-% rule: the binary ratio E_Y1(1) / E_Y2(1) of eq. (32).
    interval : BiasInterval or None
        Lemma 2's range for the bias of the true rule, when the fidelity is known.
    """

    name: str
    family: str
    value: float
    groups: tuple
    distributions: dict = field(repr=False)
    stratum: object = None
    ratio: float | None = None
    interval: BiasInterval | None = None

    @property
    def p(self) -> float:
        """For the p-% rule: the largest p with p <= E_Y1(a)/E_Y2(a) <= 1/p, exp(-epsilon)."""
        return math.exp(-self.value)

    def to_dict(self) -> dict:
        return {
            "name": self.name, "family": self.family, "value": self.value,
            "groups": [native(g) for g in self.groups], "stratum": native(self.stratum),
            "ratio": self.ratio,
            "distributions": {str(k): v for k, v in self.distributions.items()},
            "interval": None if self.interval is None else self.interval.to_dict(),
        }


@dataclass(frozen=True)
class FairnessReport:
    """Fairness measures of one announced rule (what an ATR would publish)."""

    measures: tuple
    fidelity: Delta | Alpha | Bounds | None = None

    def measure(self, name: str, *, stratum=None) -> FairnessMeasure:
        """The measure called ``name`` (and, for conditional parity, of ``stratum``)."""
        for m in self.measures:
            if m.name == name and (stratum is None or m.stratum == stratum):
                return m
        raise param_error("name", "FairnessReport.measure", "name a measure of the report",
                          (name, stratum))

    def to_frame(self) -> pd.DataFrame:
        rows = []
        for m in self.measures:
            rows.append({
                "measure": m.name, "stratum": m.stratum, "family": m.family, "value": m.value,
                "ratio": m.ratio,
                "max_shift": None if m.interval is None else m.interval.max_shift,
                "true_low": None if m.interval is None else m.interval.low,
                "true_high": None if m.interval is None else m.interval.high,
            })
        return pd.DataFrame(rows)

    def to_dict(self) -> dict:
        return {
            "fidelity": None if self.fidelity is None else self.fidelity.to_dict(),
            "measures": [m.to_dict() for m in self.measures],
        }

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, (("measures", len(self.measures)),
                                  ("fidelity", "exact" if self.fidelity is None
                                   else type(self.fidelity).__name__)),
                     None, head_rows(self.to_frame), len(self.measures))


# -- group decision distributions ----------------------------------------------------------

def _selection(table: DecisionTable, where, owner: str) -> np.ndarray:
    frame = table.frame
    if isinstance(where, dict):
        require_columns(frame, where)
        mask = np.ones(table.n_records, dtype=bool)
        for col, value in where.items():
            values = list(value) if isinstance(value, (list, tuple, set, frozenset)) else [value]
            mask &= frame[col].isin(values).to_numpy()
        return mask
    if isinstance(where, pd.Series):
        if not where.index.equals(table.index):
            where = where.reindex(table.index, fill_value=False)
        where = where.to_numpy()
    mask = np.asarray(where)
    if mask.dtype != bool or mask.shape != (table.n_records,):
        raise param_error("where", owner,
                          "be a dict of column values or a boolean mask of "
                          f"{table.n_records} records",
                          getattr(mask, "shape", where))
    return mask


def _group_rates(table: DecisionTable, dist: np.ndarray, mask: np.ndarray) -> np.ndarray | None:
    w = table.weights * mask
    total = w.sum()
    if total <= 0:
        return None
    return (w[:, None] * dist).sum(axis=0) / total


@validate_params({"table": TABLE})
def group_distribution(table: DecisionTable, where, announced=None) -> pd.Series:
    """E_Y(a) = sum_{x in T_Y} P(x) D~_a(x) / sum_{x in T_Y} P(x) (Appendix A.2).

    Parameters
    ----------
    table : DecisionTable
    where : dict or boolean mask
        The records of the group: ``{column: value or list of values}`` (all must hold)
        or a boolean array/Series aligned with the table.
    announced : optional
        The announced rule (see :func:`~skyprivacy.transparency.max_confidence`); None uses D.

    Returns
    -------
    pandas.Series
        Indexed by outcome.

    Raises
    ------
    SchemaError
        The group has no record of positive weight.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"g": ["F", "F", "M", "M"], "s": [1, 2, 1, 2], "w": [139, 11, 5, 5],
    ...                    "d": [0.0, 0.0, 1.0, 0.5]})
    >>> t = DecisionTable.from_frame(df, public="g", sensitive="s", weight="w", decision="d")
    >>> group_distribution(t, {"g": "F"}).tolist(), group_distribution(t, {"g": "M"}).tolist()
    ([1.0, 0.0], [0.25, 0.75])
    """
    owner = "group_distribution"
    mask = _selection(table, where, owner)
    dist = announced_matrix(table, announced, exact=False, owner=owner)
    rates = _group_rates(table, dist, mask)
    if rates is None:
        raise SchemaError(f"The group {where!r} has no record of positive weight.")
    return pd.Series(rates, index=pd.Index(table.outcomes, name="outcome"), name="E_Y")


def _two_groups(table: DecisionTable, protected, groups, owner: str):
    frame = table.frame
    if not isinstance(protected, str):
        raise param_error("protected", owner, "be a column name", protected)
    require_columns(frame, [protected])
    if groups is None:
        values = [native(v) for v in pd.unique(frame[protected])]
        if len(values) != 2:
            raise param_error(
                "groups", owner,
                f"name the two groups to compare, since column {protected!r} has "
                f"{len(values)} values {values[:10]}", None,
            )
        groups = tuple(values)
    if not isinstance(groups, (tuple, list)) or len(groups) != 2:
        raise param_error("groups", owner, "be a pair (Y1, Y2) of values or lists of values",
                          groups)
    masks = []
    for g in groups:
        values = list(g) if isinstance(g, (list, set, frozenset)) else [g]
        masks.append(frame[protected].isin(values).to_numpy())
    return tuple(native(g) if not isinstance(g, (list, set, frozenset)) else tuple(g)
                 for g in groups), masks


def _lemma2(fidelity, family: str, value: float) -> BiasInterval | None:
    if fidelity is None or isinstance(fidelity, Bounds) or math.isnan(value):
        return None
    shift = lemma2_shift(fidelity, family=family)
    return _interval(value, shift, family)


def _interval(value: float, shift: float, family: str) -> BiasInterval:
    high = value + shift
    if family == "tv":
        high = min(1.0, high)
    return BiasInterval(low=max(0.0, value - shift), high=high, max_shift=shift)


def _pair_measure(table, dist, labels, masks, name, family, fidelity, stratum=None,
                  restrict=None) -> FairnessMeasure:
    if restrict is not None:
        masks = [m & restrict for m in masks]
    found = [_group_rates(table, dist, m) for m in masks]
    rates = [r for r in found if r is not None]
    outcomes = table.outcomes
    if len(rates) < len(found):  # a group has no mass here
        return FairnessMeasure(name=name, family=family, value=math.nan, groups=labels,
                               distributions={}, stratum=stratum)
    if family == "tv":
        value = d_tv(rates[0], rates[1])
        ratio = None
    else:
        value = d_inf(rates[0], rates[1])
        # eq. (32) reads the positive outcome of a binary rule only
        ratio = None
        if len(outcomes) == 2:
            ratio = float(rates[0][1] / rates[1][1]) if rates[1][1] > 0 else math.inf
    distributions = {
        label: {native(a): float(v) for a, v in zip(outcomes, r)} for label, r in zip(labels, rates)
    }
    return FairnessMeasure(
        name=name, family=family, value=value, groups=labels, distributions=distributions,
        stratum=stratum, ratio=ratio, interval=_lemma2(fidelity, family, value),
    )


def _fidelity_of(announced, fidelity):
    """The fidelity given, else the one an OptimalPrivacy result was produced under."""
    return getattr(announced, "fidelity", None) if fidelity is None else fidelity


def _two_group_measure(table, announced, protected, groups, fidelity, *, owner: str,
                       family: str) -> FairnessMeasure:
    """The one measure of ``family`` between the two groups of ``protected`` (the body of
    :func:`statistical_parity` and :func:`p_percent_rule`)."""
    labels, masks = _two_groups(table, protected, groups, owner)
    dist = announced_matrix(table, announced, exact=False, owner=owner)
    return _pair_measure(table, dist, labels, masks, owner, family,
                         _fidelity_of(announced, fidelity))


@validate_params({"table": TABLE, "fidelity": _FIDELITY})
def statistical_parity(table: DecisionTable, announced=None, *, protected: str, groups=None,
                       fidelity=None) -> FairnessMeasure:
    """Bias in statistical parity, epsilon_SP = D_tv(E_Y1, E_Y2) (Definition 9, eqs. 27/30).

    Parameters
    ----------
    table : DecisionTable
    announced : optional
        The announced rule; None uses D (which leaks D, section 3.3).
    protected : str
        Column giving the protected attribute g(X).
    groups : pair, optional
        (Y1, Y2): a value or list of values of ``protected`` each; default the column's two
        values in order of appearance.
    fidelity : Delta or Alpha, optional
        The fidelity D~ was produced under (taken from an OptimalPrivacy result by default);
        adds Lemma 2's interval for the true bias.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"gender": list("FFFMMM"), "income": ["lo", "mid", "hi"] * 2,
    ...                    "pop": [139, 9, 2, 117, 18, 5], "d": [0, 0, 1, 0, 0.5, 1]})
    >>> t = DecisionTable.from_frame(df, public="gender", sensitive="income", weight="pop",
    ...                              decision="d")
    >>> round(statistical_parity(t, protected="gender").value, 7)
    0.0866667
    """
    return _two_group_measure(table, announced, protected, groups, fidelity,
                              owner="statistical_parity", family="tv")


@validate_params({"table": TABLE, "fidelity": _FIDELITY})
def conditional_statistical_parity(table: DecisionTable, announced=None, *, protected: str,
                                   stratum: str, groups=None, fidelity=None) -> tuple:
    """Bias in conditional statistical parity per stratum V (Definition 10, eqs. 28/31).

    Returns one :class:`FairnessMeasure` per value of the ``stratum`` column (the
    valuation v(X), e.g. an income band), in order of appearance: D_tv(E_{Y1,V}, E_{Y2,V}).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"gender": list("FFFMMM"), "income": ["lo", "mid", "hi"] * 2,
    ...                    "pop": [139, 9, 2, 117, 18, 5], "d": [0, 0, 1, 0, 0.5, 1]})
    >>> t = DecisionTable.from_frame(df, public="gender", sensitive="income", weight="pop",
    ...                              decision="d")
    >>> [(m.stratum, m.value) for m in conditional_statistical_parity(
    ...     t, protected="gender", stratum="income")]
    [('lo', 0.0), ('mid', 0.5), ('hi', 0.0)]
    """
    owner = "conditional_statistical_parity"
    labels, masks = _two_groups(table, protected, groups, owner)
    frame = table.frame
    require_columns(frame, [stratum])
    dist = announced_matrix(table, announced, exact=False, owner=owner)
    fid = _fidelity_of(announced, fidelity)
    column = frame[stratum]
    out = []
    for value in pd.unique(column):
        restrict = column.eq(value).to_numpy() if not pd.isna(value) else column.isna().to_numpy()
        out.append(_pair_measure(table, dist, labels, masks, owner, "tv", fid,
                                 stratum=native(value), restrict=restrict))
    return tuple(out)


@validate_params({"table": TABLE, "fidelity": _FIDELITY})
def p_percent_rule(table: DecisionTable, announced=None, *, protected: str, groups=None,
                   fidelity=None) -> FairnessMeasure:
    """The p-% rule: epsilon_PR = max_a |log(E_Y1(a)/E_Y2(a))| (Definition 11, eq. 29).

    ``value`` is epsilon_PR = D_inf(E_Y1, E_Y2) (spec 4.3), ``p`` = exp(-epsilon_PR) the
    largest p the rule meets for every outcome, and ``ratio`` the binary form (32),
    E_Y1(1)/E_Y2(1), which looks at the positive outcome only (spec 10.5, A9).  The EEOC
    80% rule is p = 0.8.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"gender": list("FFFMMM"), "income": ["lo", "mid", "hi"] * 2,
    ...                    "pop": [12, 5, 3, 9, 7, 4], "d": [0, 0, 1, 0, 0.5, 1]})
    >>> t = DecisionTable.from_frame(df, public="gender", sensitive="income", weight="pop",
    ...                              decision="d")
    >>> m = p_percent_rule(t, protected="gender")
    >>> round(m.ratio, 4), round(m.value, 4)
    (0.4, 0.9163)
    """
    return _two_group_measure(table, announced, protected, groups, fidelity,
                              owner="p_percent_rule", family="rm")


@validate_params({"table": TABLE, "metric": Options("tv", "inf"), "fidelity": _FIDELITY})
def individual_fairness_bias(table: DecisionTable, announced=None, *,
                             record_distance: Callable | np.ndarray, metric: str = "tv",
                             fidelity=None) -> FairnessMeasure:
    """Bias epsilon_IF of (metric, record_distance)-individual fairness (Definition 8).

    epsilon_IF = max over record pairs of max(0, metric(D~(x1), D~(x2)) - distance(x1, x2)),
    the smallest epsilon of eq. (24) (spec 4.2; the paper defines no scalar).

    Parameters
    ----------
    record_distance : callable or array of shape (n, n)
        Distance between records: a function of two rows of the table's frame, or a
        matrix in table order.  A callable is evaluated n(n-1)/2 times.
    metric : {"tv", "inf"}
        D_tv (family F_tv) or the relative metric D_inf (family F_rm).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"g": ["a", "a", "a"], "s": [1, 2, 3], "w": [1, 1, 1],
    ...                    "d": [0.0, 0.5, 1.0]})
    >>> t = DecisionTable.from_frame(df, public="g", sensitive="s", weight="w", decision="d")
    >>> individual_fairness_bias(t, record_distance=lambda r1, r2: 0.25).value
    0.75
    """
    owner = "individual_fairness_bias"
    dist = announced_matrix(table, announced, exact=False, owner=owner)
    n = table.n_records
    if callable(record_distance):
        frame = table.frame
        rows = [frame.iloc[i] for i in range(n)]
        distance = np.zeros((n, n))
        for i in range(n):
            for j in range(i + 1, n):
                distance[i, j] = distance[j, i] = float(record_distance(rows[i], rows[j]))
    else:
        distance = np.asarray(record_distance, dtype=float)
        if distance.shape != (n, n):
            raise param_error("record_distance", owner, f"be a callable or an ({n}, {n}) matrix",
                              distance.shape)
    if metric == "tv":
        gaps = np.abs(dist[:, None, :] - dist[None, :, :]).sum(axis=2) / dist.shape[1]
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.abs(np.log(dist[:, None, :]) - np.log(dist[None, :, :]))
        both_zero = (dist[:, None, :] == 0) & (dist[None, :, :] == 0)
        gaps = np.where(both_zero, 0.0, ratio).max(axis=2)
    excess = np.where(np.eye(n, dtype=bool), 0.0, gaps - distance)
    value = float(max(0.0, excess.max())) if n > 1 else 0.0
    family = "tv" if metric == "tv" else "rm"
    return FairnessMeasure(
        name="individual_fairness", family=family, value=value, groups=(), distributions={},
        interval=_lemma2(_fidelity_of(announced, fidelity), family, value),
    )


# -- Lemma 2 --------------------------------------------------------------------------------
@validate_params({"family": _FAMILY})
def lemma2_shift(fidelity, *, family: str = "tv") -> float:
    """Largest change of a measured bias the perturbation can cause (Lemma 2, eqs. 14-15).

    * F_tv under delta-fidelity: min(2(1 - delta), 1) (eq. 14).
    * F_rm under alpha-fidelity: -2 log alpha, *without* the paper's cap at 1, which is
      unjustified for an unbounded metric (spec 10.2, P2).
    * F_tv under alpha-fidelity: min(2(1 - alpha), 1).  An extension: |alpha D - D| and
      |min(1, D/alpha) - D| never exceed 1 - alpha, so alpha-fidelity implies
      delta-fidelity with delta = alpha.
    * F_rm under delta-fidelity: inf (delta-fidelity does not control ratios), 0 at delta = 1.

    Examples
    --------
    >>> round(lemma2_shift(Delta(0.9)), 6), round(lemma2_shift(Alpha(0.9), family="rm"), 4)
    (0.2, 0.2107)
    """
    if isinstance(fidelity, Delta):
        level = float(fidelity.delta)
        if family == "tv":
            return min(2 * (1 - level), 1.0)
        return 0.0 if level == 1 else math.inf
    if isinstance(fidelity, Alpha):
        level = float(fidelity.alpha)
        if family == "tv":
            return min(2 * (1 - level), 1.0)
        return math.inf if level == 0 else -2 * math.log(level)
    raise param_error("fidelity", "lemma2_shift", "be a Delta or Alpha (Lemma 2 covers no other)",
                      fidelity)


@validate_params({"measured": Interval("real", 0, closed="left", inf=True), "family": _FAMILY})
def bias_interval(measured: float, *, delta=None, alpha=None, family: str = "tv") -> BiasInterval:
    """The range of the true bias given a bias measured on D~ (Lemma 2, Fig. 3).

    Exactly one of ``delta`` and ``alpha``.  F_tv: [eps~ - s, eps~ + s] within [0, 1];
    F_rm: [eps~ - s, eps~ + s] within [0, inf), with s from :func:`lemma2_shift`.

    Examples
    --------
    >>> iv = bias_interval(0.165, delta=0.9)
    >>> round(iv.low, 6), round(iv.high, 6)
    (0.0, 0.365)
    """
    if (delta is None) == (alpha is None):
        raise param_error("delta", "bias_interval", "be given, or alpha, but not both",
                          {"delta": delta, "alpha": alpha})
    fidelity = Delta(delta) if delta is not None else Alpha(alpha)
    return _interval(float(measured), lemma2_shift(fidelity, family=family), family)


@validate_params({"table": TABLE, "fidelity": _FIDELITY})
def fairness_report(table: DecisionTable, announced=None, *, protected: str, groups=None,
                    stratum: str | None = None, record_distance=None,
                    fidelity=None) -> FairnessReport:
    """The fairness section of a transparency report, computed from the announced rule.

    Statistical parity, the p-% rule, conditional statistical parity per stratum (when
    ``stratum`` is given) and individual fairness (when ``record_distance`` is given), each
    with Lemma 2's interval for the true rule's bias when the fidelity is known.

    Warns
    -----
    PrivacyRiskWarning
        When ``announced`` is None: numbers computed from the true rule can reveal it
        (section 3.3; ``examples/transparency_paper.py`` reconstructs a rule from them).

    Examples
    --------
    >>> import pandas as pd
    >>> from skyprivacy.transparency import Delta, optimal_privacy
    >>> df = pd.DataFrame({"gender": list("FFFMMM"), "income": ["lo", "mid", "hi"] * 2,
    ...                    "pop": [12, 5, 3, 9, 7, 4], "d": [0, 0, 1, 0, 0.5, 1]})
    >>> t = DecisionTable.from_frame(df, public="gender", sensitive="income", weight="pop",
    ...                              decision="d")
    >>> report = fairness_report(t, optimal_privacy(t, Delta(0.9)), protected="gender",
    ...                          stratum="income")
    >>> sp = report.measure("statistical_parity")
    >>> round(sp.value, 6), round(sp.interval.high, 6)
    (0.165, 0.365)
    """
    if announced is None:
        warn(
            "Fairness numbers computed from the true rule D can reveal it (section 3.3); "
            "release numbers computed from the announced rule D~ instead.",
            PrivacyRiskWarning)
    fid = _fidelity_of(announced, fidelity)
    measures = [
        statistical_parity(table, announced, protected=protected, groups=groups, fidelity=fid),
        p_percent_rule(table, announced, protected=protected, groups=groups, fidelity=fid),
    ]
    if stratum is not None:
        measures.extend(conditional_statistical_parity(
            table, announced, protected=protected, stratum=stratum, groups=groups, fidelity=fid))
    if record_distance is not None:
        measures.append(individual_fairness_bias(table, announced, record_distance=record_distance,
                                                 fidelity=fid))
    return FairnessReport(measures=tuple(measures), fidelity=fid)
