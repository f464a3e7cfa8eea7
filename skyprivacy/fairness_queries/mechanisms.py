"""Attribute-Conceal, the Laplace baseline and the compliance oracle.

Implements spec fairness-queries §6-§7 and §9.1 (Hamman, Chen and Dutta, §4, Algorithm 3,
Theorems 4-6):

* :class:`AttributeConceal` adds noise calibrated to the *smooth* sensitivity of the query
  batch: Cauchy noise of scale ``6 S / epsilon`` with ``beta = epsilon / (6 m)`` (Theorem 5,
  pure epsilon-DP) or Laplace noise of scale ``2 S / epsilon`` with
  ``beta = epsilon / (4 (m + ln(2/delta)))`` (Theorem 6, (epsilon, delta)-DP).
* :class:`LaplaceBiasQuery` is the plain Laplace mechanism on the global sensitivity.
* :class:`GaussianBiasQuery` is the Gaussian mechanism the paper names as the
  (epsilon, delta) alternative (§4, citing Dwork and Roth, Theorem A.1), on the global l2
  sensitivity.
* :class:`~skyprivacy.fairness_queries.accountant.BudgetAccountant` (its own module) is what
  a mechanism draws its budget from, passed explicitly.
* :class:`ComplianceOracle` is what an attacker talks to: it holds the protected attribute,
  answers through a mechanism and refuses once its budget is spent.

The smooth-sensitivity scale depends on the private group sizes, so it is kept in a
compliance-team-only :class:`ReleaseAudit` that :meth:`BiasQueryRelease.to_public_dict` drops
(spec §7.3, erratum 11).  Randomness comes only from the ``random_state`` given to a mechanism.
"""

from __future__ import annotations

import math
import numbers
import warnings
from dataclasses import asdict, dataclass, field

import numpy as np
import pandas as pd

from .._core.display import Shown, head_rows, result_html, result_repr
from .._core.validation import (
    Boolean,
    InstanceOf,
    Interval,
    Nullable,
    Options,
    RandomState,
    as_generator,
    check,
    validate_params,
)
from .._core.warning import warn
from ..errors import PrivacyRiskWarning, UnsafeConstantWarning, param_error
from .accountant import BudgetAccountant
from ._validation import (
    QUERIES,
    check_binary_vector,
    check_group_sizes,
    check_predictions,
    check_sizes,
    readonly,
)
from .metrics import check_binary_predictions, parity_gaps, prp_gaps
from .sensitivity import (
    attribute_conceal_beta,
    global_sensitivity_abs_sp,
    global_sensitivity_prp,
    global_sensitivity_sp,
    smooth_abs_sp_paper_value,
    smooth_sp_value,
)

__all__ = [
    "SliceAudit",
    "ReleaseAudit",
    "BiasQueryRelease",
    "AttributeConceal",
    "LaplaceBiasQuery",
    "GaussianBiasQuery",
    "gaussian_sigma",
    "ComplianceOracle",
    "expected_median_abs_error",
    "crossover_epsilon",
]

METRICS = ("sp", "abs_sp", "eo", "equalized_odds", "prp")
_METRIC_COLUMNS = {"sp": ("sp",), "abs_sp": ("abs_sp",), "eo": ("eo",),
                   "equalized_odds": ("tpr_gap", "fpr_gap"), "prp": ("prp",)}
# (slice label, display name) answered for each metric; equalized odds uses both label
# slices, answered separately (parallel composition, spec §7.5).
_METRIC_SLICES = {"sp": ((None, "all"),), "abs_sp": ((None, "all"),), "eo": ((1, "y=1"),),
                  "equalized_odds": ((1, "y=1"), (0, "y=0"))}
_METRIC_NAMES = {"sp": "statistical parity gap", "abs_sp": "absolute statistical parity gap",
                 "eo": "equal-opportunity gap", "equalized_odds": "equalized-odds gap",
                 "prp": "predictive-rate-parity gap"}


#: The declared options shared by the mechanisms.
_FINITE_EPSILON = Interval("real", 0, closed="neither")
_DELTA = Interval("real", 0, 1, closed="left")


_MECHANISM = {
    "metric": Options(*METRICS), "clip": Boolean(), "random_state": RandomState(),
    "accountant": Nullable(InstanceOf(BudgetAccountant, text="be None or a BudgetAccountant")),
    "risk_epsilon": Interval("real", 0, closed="neither", inf=True),
}


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SliceAudit:
    """Compliance-team record of how one slice of a release was noised (never public).

    Attributes
    ----------
    slice : str
        ``"all"``, ``"y=1"``, ``"y=0"``, or ``"h=1"`` for predictive rate parity (each
        model's own slice; n, n0, n1 are then the whole data's).
    n, n0, n1 : int
        Size of the slice and of its groups.
    sensitivity : float
        The smooth sensitivity S (Attribute-Conceal) or global sensitivity (Laplace) used.
    beta : float or None
        Smoothness parameter (None for the Laplace baseline and noiseless answers).
    scale : float
        Noise scale: Cauchy scale ``6 S / epsilon``, Laplace scale ``2 S / epsilon`` or
        ``Delta / epsilon``; 0 for noiseless answers.
    noise : str or None
        ``"cauchy"``, ``"laplace"``, ``"gaussian"`` (scale is then sigma) or None.
    """

    slice: str
    n: int
    n0: int
    n1: int
    sensitivity: float
    beta: float | None
    scale: float
    noise: str | None


@dataclass(frozen=True)
class ReleaseAudit:
    """Compliance-team-only record of a release: exact answers and noise parameters.

    The smooth-sensitivity scale reveals ``N_0`` (spec §7.3), and the exact answers are what
    the noise protects, so none of this may reach the querying party.

    Attributes
    ----------
    true_values : numpy.ndarray
        The exact metric values, shaped like the released values (read-only).
    slices : tuple of SliceAudit
    """

    true_values: np.ndarray
    slices: tuple[SliceAudit, ...]

    def to_dict(self) -> dict:
        """Plain-Python form (lists and dicts)."""
        return {"true_values": self.true_values.tolist(),
                "slices": [asdict(s) for s in self.slices]}

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, (("queries", int(len(self.true_values))),
                                  ("slices", len(self.slices))),
                     None, lambda n: pd.DataFrame([vars(s) for s in self.slices[:n]]),
                     len(self.slices))


@dataclass(frozen=True)
class BiasQueryRelease:
    """The answers to one batch of fairness queries.

    Attributes
    ----------
    values : numpy.ndarray
        Released answers, shape (m,) or (m, 2) for equalized odds (TPR gap, FPR gap);
        read-only.
    metric : str
        ``"sp"``, ``"abs_sp"``, ``"eo"``, ``"equalized_odds"`` or ``"prp"``.
    mechanism : str
        ``"attribute_conceal_cauchy"``, ``"attribute_conceal_laplace"``, ``"laplace"``,
        ``"gaussian"`` or
        ``"exact"`` (no noise, epsilon = inf; for attacks and tests only).
    epsilon, delta : float
        Privacy parameters of this release.
    audit : ReleaseAudit or None
        Compliance-team-only details; excluded from :meth:`to_public_dict` and from ``repr``.
    """

    values: np.ndarray
    metric: str
    mechanism: str
    epsilon: float
    delta: float
    audit: ReleaseAudit | None = field(default=None, repr=False, compare=False)

    @property
    def n_queries(self) -> int:
        """Number of queries answered (the paper's m)."""
        return int(self.values.shape[0])

    def to_public_dict(self) -> dict:
        """What may be sent to the querying party: the answers and the privacy parameters."""
        return {"schema_version": 1, "metric": self.metric, "mechanism": self.mechanism,
                "epsilon": self.epsilon, "delta": self.delta, "values": self.values.tolist()}

    def to_dict(self) -> dict:
        """Everything, the audit included (compliance-team side)."""
        out = self.to_public_dict()
        out["audit"] = None if self.audit is None else self.audit.to_dict()
        return out

    def to_frame(self) -> pd.DataFrame:
        """The released answers, one row per query."""
        columns = list(_METRIC_COLUMNS[self.metric])
        data = self.values.reshape(self.n_queries, len(columns))
        return pd.DataFrame(data, columns=columns,
                            index=pd.RangeIndex(self.n_queries, name="query"))

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, (("metric", self.metric), ("mechanism", self.mechanism),
                                  ("epsilon", self.epsilon), ("delta", self.delta),
                                  ("queries", self.n_queries)),
                     None, head_rows(self.to_frame), self.n_queries)


# ---------------------------------------------------------------------------------------------
# Mechanisms
# ---------------------------------------------------------------------------------------------

class _BiasQueryMechanism:
    """Shared answering pipeline: validate, compute, noise each slice, clip, charge, record."""

    metric: str
    epsilon: float
    delta: float
    clip: bool
    _noise: str | None  # the noise family drawn by _draw ("cauchy", "laplace", "gaussian")
    accountant: BudgetAccountant | None

    def _init_common(self, *, metric, clip, random_state, accountant, risk_epsilon):
        """Store the options every mechanism shares (declared in ``_MECHANISM``)."""
        self.metric = metric
        self.clip = bool(clip)
        self._rng = as_generator(random_state)
        self.accountant = accountant
        self.risk_epsilon = float(risk_epsilon)

    def _warn_if_weak(self, owner):
        if math.isfinite(self.epsilon) and self.epsilon > self.risk_epsilon:
            warn(
                f"{owner} with epsilon={self.epsilon} > {self.risk_epsilon}: the guarantee is "
                f"very weak (an attacker's odds may grow by a factor up to "
                f"e^{self.epsilon:g}); the paper's experiments use such values only to show "
                "the error/leakage trade-off.", PrivacyRiskWarning)

    @property
    def name(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def _slice_noise(self, n: int, n0: int, n_queries: int, slice_name: str):
        """Return (noise scale, SliceAudit) for one slice answered at the full budget."""
        raise NotImplementedError  # pragma: no cover

    def _draw(self, scale: float, size: int, noise: str | None) -> np.ndarray:
        if noise is None or scale == 0.0:
            return np.zeros(size)
        if noise == "cauchy":
            return scale * self._rng.standard_cauchy(size)
        if noise == "gaussian":
            return self._rng.normal(0.0, scale, size)
        return self._rng.laplace(0.0, scale, size)

    def _prp_noise(self, sizes: np.ndarray) -> tuple[float, float]:
        """(sensitivity, noise scale) of a predictive-rate-parity batch with these slices."""
        raise NotImplementedError  # pragma: no cover - only the global mechanisms answer PRP

    def _answer_prp(self, preds, a, y, owner) -> BiasQueryRelease:
        """Remark 2: the PPV gap per model, each on the slice the model accepts."""
        h, _ = check_binary_predictions(preds, a.size, owner=owner)
        exact, sizes = prp_gaps(h, a, y)
        if sizes.size and sizes.min() < 3:
            i = int(np.argmin(sizes))
            raise param_error("preds", owner, "accept at least 3 individuals per model for "
                              "metric='prp' (the sensitivity bound assumes a slice of >= 3)",
                              f"model {i} accepting {int(sizes[i])}")
        m = int(exact.size)
        audits = []
        values = exact
        if m > 0:
            if self.accountant is not None:
                self.accountant.spend(self.epsilon, self.delta)
            sens, scale = self._prp_noise(sizes)
            values = exact + self._draw(scale, m, self._noise)
            n1 = int(a.sum())
            audits.append(SliceAudit(slice="h=1", n=int(a.size), n0=int(a.size) - n1, n1=n1,
                                     sensitivity=sens, beta=None, scale=scale,
                                     noise=self._noise))
        if self.clip:
            values = np.clip(values, -1.0, 1.0)
        return BiasQueryRelease(values=readonly(np.array(values, dtype=float)),
                                metric=self.metric, mechanism=self.name,
                                epsilon=self.epsilon, delta=self.delta,
                                audit=ReleaseAudit(true_values=readonly(np.array(exact)),
                                                   slices=tuple(audits)))

    def answer(self, preds, a, y=None) -> BiasQueryRelease:
        """Answer a batch of fairness queries.

        Parameters
        ----------
        preds : array-like, shape (n,) or (m, n)
            Predictions of m models on the test set, in [0, 1].  A batch counts as m queries
            (it sets beta and the sensitivity).
        a : array-like of 0/1, shape (n,)
            Protected attribute (compliance-team side).
        y : array-like of 0/1, shape (n,), optional
            True labels; required for ``metric="eo"`` and ``"equalized_odds"``.

        Returns
        -------
        BiasQueryRelease
            ``values`` has shape (m,) ((m, 2) for equalized odds); m = 0 returns an empty
            release and charges nothing.

        Raises
        ------
        InvalidParameterError
            Bad predictions, labels or lengths; a slice with fewer than 3 individuals.
        DegenerateGroupError
            A group (or a group inside a label slice) is empty.
        BudgetError
            The accountant cannot pay for the release; nothing is answered.
        """
        owner = f"{type(self).__name__}.answer"
        a = check_binary_vector(a, name="a", owner=owner)
        needs_y = self.metric in ("eo", "equalized_odds", "prp")
        if needs_y and y is None:
            raise param_error("y", owner, f"be given for metric={self.metric!r}", None)
        if y is not None:
            y = check_binary_vector(y, name="y", owner=owner, length=a.size)
        if self.metric == "prp":
            return self._answer_prp(preds, a, y, owner)
        h, _ = check_predictions(preds, a.size, owner=owner)
        m = int(h.shape[0])

        slices = []
        for label, slice_name in _METRIC_SLICES[self.metric]:
            keep = np.ones(a.size, dtype=bool) if label is None else (y == label)
            n0, n1 = check_group_sizes(a[keep], metric=_METRIC_NAMES[self.metric],
                                       slice_label=label)
            if n0 + n1 < 3:
                where = "" if label is None else f" in the slice {slice_name}"
                raise param_error("a", owner, f"have at least 3 individuals{where} (the "
                                  "sensitivity bounds assume n >= 3)",
                                  f"{n0 + n1} individuals")
            slices.append((keep, label, slice_name, n0, n1))

        if m > 0 and self.accountant is not None:
            self.accountant.spend(self.epsilon, self.delta)
        columns = []
        true_columns = []
        audits = []
        for keep, label, slice_name, n0, n1 in slices:
            exact = parity_gaps(h[:, keep], a[keep], metric=_METRIC_NAMES[self.metric],
                         slice_label=label)
            true_columns.append(np.abs(exact) if self.metric == "abs_sp" else exact)
            if m == 0:
                columns.append(true_columns[-1])
                continue
            scale, audit = self._slice_noise(n0 + n1, n0, m, slice_name)
            columns.append(self._combine(exact, self._draw(scale, m, audit.noise)))
            audits.append(audit)

        values = np.column_stack(columns) if len(columns) > 1 else columns[0]
        true_values = np.column_stack(true_columns) if len(columns) > 1 else true_columns[0]
        if self.clip:
            low = 0.0 if self.metric == "abs_sp" else -1.0
            values = np.clip(values, low, 1.0)
        return BiasQueryRelease(values=readonly(np.array(values, dtype=float)),
                                metric=self.metric, mechanism=self.name,
                                epsilon=self.epsilon, delta=self.delta,
                                audit=ReleaseAudit(true_values=readonly(np.array(true_values)),
                                                   slices=tuple(audits)))

    def _combine(self, exact: np.ndarray, noise: np.ndarray) -> np.ndarray:
        if self.metric == "abs_sp":
            return np.abs(exact) + noise
        return exact + noise


class AttributeConceal(_BiasQueryMechanism):
    """Attribute-Conceal: fairness queries answered with smooth-sensitivity noise (Algorithm 3).

    Parameters
    ----------
    epsilon : float, keyword-only
        Privacy parameter, > 0 and finite; ``math.inf`` only together with ``noise=None``.
    delta : float, optional, keyword-only
        Needed for ``noise="laplace"``, in (0, 1); must be None (or 0) for Cauchy noise.
    noise : {"cauchy", "laplace", None}, keyword-only
        ``"cauchy"`` (default): pure epsilon-DP, ``scale = 6 S / epsilon``,
        ``beta = epsilon / (6 m)`` (Theorem 5).  ``"laplace"``: (epsilon, delta)-DP for
        epsilon, delta in (0, 1), ``scale = 2 S / epsilon``,
        ``beta = epsilon / (4 (m + ln(2/delta)))`` (Theorem 6).  None: exact answers
        (epsilon must be inf), for attacks and tests; this is no privacy at all.
    metric : {"sp", "abs_sp", "eo", "equalized_odds"}, keyword-only
        The query.  EO is answered on the slice ``y = 1``; equalized odds answers both label
        slices, each at the full epsilon (parallel composition: a flip of ``a_j`` moves only
        the slice holding ``j``, spec §7.5).
    abs_mode : {"smooth_sp", "postprocess", "paper"}, keyword-only
        For ``metric="abs_sp"``: ``"smooth_sp"`` adds noise scaled to the smooth
        sensitivity of SP (a valid bound for ``|SP|``); ``"postprocess"`` releases
        ``|SP + noise|`` (same privacy, biased upward); ``"paper"`` uses A.6's constant,
        which is too small, and warns with :class:`UnsafeConstantWarning`.
    clip : bool, keyword-only
        Clip answers to [-1, 1] ([0, 1] for ``abs_sp``); post-processing (Remark 3).
    random_state : None, int or numpy.random.Generator, keyword-only
        Source of the noise; the mechanism draws from it on every call.
    accountant : BudgetAccountant, optional, keyword-only
        Charged ``(epsilon, delta)`` per answered batch.
    risk_epsilon : float, keyword-only
        Emit :class:`PrivacyRiskWarning` when epsilon exceeds it (default 10).

    Raises
    ------
    InvalidParameterError
        Out-of-domain epsilon/delta (including epsilon >= 1 with ``noise="laplace"``, where
        Theorem 6 is not proven), unknown options.

    Notes
    -----
    For a batch of m queries Algorithm 3 computes ``S = S_SP,beta`` for the m-vector (the
    minority rule of spec §7.2) and releases ``SP + (6 S/epsilon) Z`` with ``Z`` i.i.d.
    standard Cauchy.  Because ``S_m = m S_1`` this equals answering each query at
    ``epsilon/m`` with the one-dimensional mechanism and composing.  Only the answers are
    released; S, beta, the scale and the group sizes go to the audit record.

    The Cauchy noise has no mean: compare mechanisms by median error
    (:func:`expected_median_abs_error`).  Attribute-Conceal beats the Laplace baseline only
    when the minority group is large and epsilon is large (:func:`crossover_epsilon`).

    References
    ----------
    Hamman, Chen and Dutta, Algorithm 3, Theorems 5 and 6; Nissim, Raskhodnikova and Smith,
    STOC 2007, Lemmas 2.6, 2.7 and 2.9; spec fairness-queries §7.

    Examples
    --------
    >>> a = [1] * 90 + [0] * 10
    >>> preds = [[0.5] * 100, [1.0] * 50 + [0.0] * 50]
    >>> mech = AttributeConceal(epsilon=5.0, random_state=0)
    >>> release = mech.answer(preds, a)
    >>> release.n_queries, release.mechanism
    (2, 'attribute_conceal_cauchy')
    >>> round(release.audit.slices[0].scale, 4)  # 6 S / epsilon, CT-side only
    0.2664
    >>> sorted(release.to_public_dict())
    ['delta', 'epsilon', 'mechanism', 'metric', 'schema_version', 'values']
    """

    @validate_params({"noise": Options("cauchy", "laplace", None),
                      "abs_mode": Options("smooth_sp", "postprocess", "paper"), **_MECHANISM})
    def __init__(self, *, epsilon, delta=None, noise="cauchy", metric="sp",
                 abs_mode="smooth_sp", clip=False, random_state=None, accountant=None,
                 risk_epsilon=10.0):
        owner = "AttributeConceal"
        self.noise = self._noise = noise
        if noise is None:
            exact_only = "be math.inf with noise=None (exact answers)"
            eps = float(check(epsilon, Interval("real", 0, closed="neither", inf=True,
                                                text=exact_only), name="epsilon", owner=owner))
            if not math.isinf(eps):
                raise param_error("epsilon", owner, exact_only, epsilon)
        else:
            eps = float(check(epsilon, Interval("real", 0, closed="neither",
                                                note="math.inf only with noise=None"),
                              name="epsilon", owner=owner))
        if noise == "laplace":
            check(epsilon, Interval("real", 0, 1, closed="neither", text=(
                "be in (0, 1) with noise='laplace' (Theorem 6 is proven only there; use "
                "noise='cauchy')")), name="epsilon", owner=owner)
            dlt = float(check(delta, Interval("real", 0, 1, closed="neither",
                                              text="be in (0, 1) with noise='laplace'"),
                              name="delta", owner=owner))
        else:
            if delta not in (None, 0, 0.0):
                raise param_error("delta", owner, f"be None with noise={noise!r} (pure "
                                  "epsilon-DP)", delta)
            dlt = 0.0
        self.epsilon = eps
        self.delta = dlt
        self.abs_mode = abs_mode
        self._init_common(metric=metric, clip=clip, random_state=random_state,
                          accountant=accountant, risk_epsilon=risk_epsilon)
        if self.metric == "prp" and noise is not None:
            raise param_error("metric", owner, "be 'sp', 'abs_sp', 'eo' or 'equalized_odds' "
                              "with noise (no smooth sensitivity of predictive rate parity is "
                              "derived; use LaplaceBiasQuery or GaussianBiasQuery)", metric)
        if self.metric == "abs_sp" and abs_mode == "paper":
            warn(
                "AttributeConceal(abs_mode='paper') uses A.6's smooth sensitivity of |SP|, "
                "which under-estimates it; the release is not epsilon-DP. Use it only to "
                "reproduce the paper.", UnsafeConstantWarning)
        self._warn_if_weak(owner)

    @property
    def name(self) -> str:
        return "exact" if self.noise is None else f"attribute_conceal_{self.noise}"

    def _prp_noise(self, sizes):
        return 0.0, 0.0  # exact answers only (noise=None); refused otherwise in __init__

    def _slice_noise(self, n, n0, n_queries, slice_name):
        if self.noise is None:
            return 0.0, SliceAudit(slice=slice_name, n=n, n0=n0, n1=n - n0, sensitivity=0.0,
                                   beta=None, scale=0.0, noise=None)
        beta = attribute_conceal_beta(epsilon=self.epsilon, n_queries=n_queries, noise=self.noise,
                                      delta=self.delta if self.noise == "laplace" else None)
        if self.metric == "abs_sp" and self.abs_mode == "paper":
            sens = smooth_abs_sp_paper_value(n0, beta, n_queries)
        else:
            sens = smooth_sp_value(n, n0, beta, n_queries)
        factor = 6.0 if self.noise == "cauchy" else 2.0
        scale = factor * sens / self.epsilon
        return scale, SliceAudit(slice=slice_name, n=n, n0=n0, n1=n - n0, sensitivity=sens,
                                 beta=beta, scale=scale, noise=self.noise)

    def _combine(self, exact, noise):
        if self.metric == "abs_sp" and self.abs_mode == "postprocess":
            return np.abs(exact + noise)
        return super()._combine(exact, noise)

    def __repr__(self) -> str:
        return (f"AttributeConceal(epsilon={self.epsilon}, delta={self.delta}, "
                f"noise={self.noise!r}, metric={self.metric!r})")


class LaplaceBiasQuery(_BiasQueryMechanism):
    """Plain Laplace mechanism for fairness queries: the baseline (Theorem 4, spec §6).

    Parameters
    ----------
    epsilon : float, keyword-only
        Privacy parameter, > 0 and finite.
    metric : {"sp", "abs_sp", "eo", "equalized_odds"}, keyword-only
    abs_variant : {"exact", "binary", "paper"}, keyword-only
        Sensitivity of ``|SP|`` (:func:`global_sensitivity_abs_sp`); ``"paper"`` warns.
    clip : bool, keyword-only
        Clip to the metric's range (post-processing, Remark 3).
    random_state : None, int or numpy.random.Generator, keyword-only
    accountant : BudgetAccountant, optional, keyword-only
    risk_epsilon : float, keyword-only
        Emit :class:`PrivacyRiskWarning` above this epsilon (default 10).

    Notes
    -----
    ``value_i + Lap(Delta / epsilon)`` i.i.d. with ``Delta`` the l1 sensitivity of the whole
    m-vector: ``m/2 + m/(n-1)`` for SP, ``m n / (2(n-1))`` for ``|SP|``,
    ``m/2 + m/(n^+ - 1)`` for EO, and per label slice for equalized odds.  The scale depends
    only on public quantities (n, the label counts, m, epsilon).

    References
    ----------
    Hamman, Chen and Dutta, §4 "Laplace Mechanism", Theorem 4, A.4; Dwork, McSherry, Nissim
    and Smith (2006); spec fairness-queries §6.

    Examples
    --------
    >>> mech = LaplaceBiasQuery(epsilon=5.0, random_state=0)
    >>> release = mech.answer([[0.5] * 100] * 25, [1] * 90 + [0] * 10)
    >>> round(release.audit.slices[0].scale, 5)  # Delta_SP / epsilon at n=100, m=25
    2.55051
    """

    @validate_params({"epsilon": _FINITE_EPSILON,
                      "abs_variant": Options("exact", "binary", "paper"), **_MECHANISM})
    def __init__(self, *, epsilon, metric="sp", abs_variant="exact", clip=False,
                 random_state=None, accountant=None, risk_epsilon=10.0):
        self.epsilon = float(epsilon)
        self.delta = 0.0
        self.abs_variant = abs_variant
        self._init_common(metric=metric, clip=clip, random_state=random_state,
                          accountant=accountant, risk_epsilon=risk_epsilon)
        if self.metric == "abs_sp" and abs_variant == "paper":
            # The sensitivity function itself warns; surface it once, here.
            global_sensitivity_abs_sp(3, variant="paper")
        self._warn_if_weak("LaplaceBiasQuery")

    name = "laplace"
    _noise = "laplace"

    def _prp_noise(self, sizes):
        sens = global_sensitivity_prp(sizes)
        return sens, sens / self.epsilon

    def _slice_noise(self, n, n0, n_queries, slice_name):
        if self.metric == "abs_sp":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UnsafeConstantWarning)
                sens = global_sensitivity_abs_sp(n, n_queries=n_queries, variant=self.abs_variant)
        else:
            sens = global_sensitivity_sp(n, n_queries=n_queries)
        scale = sens / self.epsilon
        return scale, SliceAudit(slice=slice_name, n=n, n0=n0, n1=n - n0, sensitivity=sens,
                                 beta=None, scale=scale, noise="laplace")

    def __repr__(self) -> str:
        return f"LaplaceBiasQuery(epsilon={self.epsilon}, metric={self.metric!r})"


_GAUSSIAN_EPSILON = Interval("real", 0, 1, closed="neither",
                             note="Dwork and Roth's Theorem A.1 is proven for epsilon < 1")
_GAUSSIAN_DELTA = Interval("real", 0, 1, closed="neither")


@validate_params({"l2_sensitivity": Interval("real", 0, closed="left"),
                  "epsilon": _GAUSSIAN_EPSILON, "delta": _GAUSSIAN_DELTA})
def gaussian_sigma(l2_sensitivity, *, epsilon, delta) -> float:
    """Standard deviation of the classic Gaussian mechanism (Dwork and Roth, Theorem A.1).

    Parameters
    ----------
    l2_sensitivity : float
        Global l2 sensitivity ``Delta_2`` of the released vector, >= 0.
    epsilon : float, keyword-only
        In (0, 1): the theorem is proven only there.
    delta : float, keyword-only
        In (0, 1).

    Returns
    -------
    float
        ``sigma = Delta_2 sqrt(2 ln(1.25 / delta)) / epsilon``.

    Raises
    ------
    InvalidParameterError
        epsilon outside (0, 1), delta outside (0, 1), a negative sensitivity.

    Notes
    -----
    Theorem A.1 states (epsilon, delta)-DP for ``sigma >= c Delta_2 / epsilon`` with
    ``c^2 > 2 ln(1.25/delta)``; this returns the infimum ``c^2 = 2 ln(1.25/delta)``, which is
    (epsilon, delta)-DP too, because for a fixed event both sides of the DP inequality are
    continuous in sigma.  It is not the tightest calibration (the analytic Gaussian mechanism of
    Balle and Wang, ICML 2018, needs less noise); it is the one the paper cites.

    References
    ----------
    Hamman, Chen and Dutta, §4 ("The Gaussian mechanism is used to achieve (epsilon, delta)-DP
    ... [52, Theorem A.1]") and Remark 3; Dwork and Roth, The Algorithmic Foundations of
    Differential Privacy (2014), Theorem A.1.

    Examples
    --------
    >>> round(gaussian_sigma(1.0, epsilon=0.5, delta=1e-5), 4)  # 2 sqrt(2 ln 125000)
    9.6896
    """
    return float(l2_sensitivity) * math.sqrt(2.0 * math.log(1.25 / float(delta))) \
        / float(epsilon)


class GaussianBiasQuery(_BiasQueryMechanism):
    """Gaussian mechanism for fairness queries: the paper's (epsilon, delta) alternative.

    Parameters
    ----------
    epsilon : float, keyword-only
        In (0, 1) (Theorem A.1 of Dwork and Roth is proven only there).
    delta : float, keyword-only
        In (0, 1); charged to the accountant with epsilon.
    metric : {"sp", "abs_sp", "eo", "equalized_odds", "prp"}, keyword-only
        ``"prp"`` (predictive rate parity, Remark 2) needs binary predictions.
    abs_variant : {"exact", "binary", "paper"}, keyword-only
        Per-query sensitivity of ``|SP|`` (:func:`global_sensitivity_abs_sp`).
    clip : bool, keyword-only
        Clip to the metric's range (post-processing, Remark 3).
    random_state : None, int or numpy.random.Generator, keyword-only
    accountant : BudgetAccountant, optional, keyword-only
        Charged ``(epsilon, delta)`` per answered batch.
    risk_epsilon : float, keyword-only
        Emit :class:`PrivacyRiskWarning` above this epsilon (default 10; never reached here).

    Notes
    -----
    ``value_i + N(0, sigma^2)`` i.i.d. with ``sigma = gaussian_sigma(Delta_2, epsilon, delta)``.
    A flip of one ``a_j`` moves each of the m answers by at most the per-query global
    sensitivity ``g`` (``1/2 + 1/(n-1)`` for SP, ``n/(2(n-1))`` for ``|SP|``, the slice's value
    for EO), so ``Delta_2 = sqrt(m) g`` where the Laplace baseline pays ``Delta_1 = m g``; for
    predictive rate parity ``Delta_2 = sqrt(sum_i g_i^2)`` over the models' slices.  Equalized
    odds answers both label slices at the full budget (parallel composition, spec §7.5).  The
    scale depends only on public quantities.

    References
    ----------
    Hamman, Chen and Dutta, §4 and Remark 3; Dwork and Roth (2014), Theorem A.1.

    Examples
    --------
    >>> mech = GaussianBiasQuery(epsilon=0.5, delta=1e-5, random_state=0)
    >>> release = mech.answer([[0.5] * 100] * 25, [1] * 90 + [0] * 10)
    >>> round(release.audit.slices[0].sensitivity, 5)  # sqrt(25) (1/2 + 1/99)
    2.55051
    >>> round(release.audit.slices[0].scale, 3)  # sigma
    24.713
    """

    @validate_params({"epsilon": _GAUSSIAN_EPSILON, "delta": _GAUSSIAN_DELTA,
                      "abs_variant": Options("exact", "binary", "paper"), **_MECHANISM})
    def __init__(self, *, epsilon, delta, metric="sp", abs_variant="exact", clip=False,
                 random_state=None, accountant=None, risk_epsilon=10.0):
        self.epsilon = float(epsilon)
        self.delta = float(delta)
        self.abs_variant = abs_variant
        self._init_common(metric=metric, clip=clip, random_state=random_state,
                          accountant=accountant, risk_epsilon=risk_epsilon)
        if self.metric == "abs_sp" and abs_variant == "paper":
            global_sensitivity_abs_sp(3, variant="paper")  # warns once, here
        self._warn_if_weak("GaussianBiasQuery")

    name = "gaussian"
    _noise = "gaussian"

    def _sigma(self, l2: float) -> float:
        return gaussian_sigma(l2, epsilon=self.epsilon, delta=self.delta)

    def _prp_noise(self, sizes):
        per_query = np.array([global_sensitivity_prp([k]) for k in sizes.tolist()])
        l2 = float(np.sqrt((per_query ** 2).sum()))
        return l2, self._sigma(l2)

    def _slice_noise(self, n, n0, n_queries, slice_name):
        if self.metric == "abs_sp":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UnsafeConstantWarning)
                per_query = global_sensitivity_abs_sp(n, variant=self.abs_variant)
        else:
            per_query = global_sensitivity_sp(n)
        l2 = math.sqrt(n_queries) * per_query
        sigma = self._sigma(l2)
        return sigma, SliceAudit(slice=slice_name, n=n, n0=n0, n1=n - n0, sensitivity=l2,
                                 beta=None, scale=sigma, noise="gaussian")

    def __repr__(self) -> str:
        return (f"GaussianBiasQuery(epsilon={self.epsilon}, delta={self.delta}, "
                f"metric={self.metric!r})")


# ---------------------------------------------------------------------------------------------
# The compliance team as an oracle
# ---------------------------------------------------------------------------------------------

class ComplianceOracle:
    """The compliance team: holds the protected attribute and answers through a mechanism.

    Attacks talk to an oracle, never to ``a`` (spec §9.3).  Each call to :meth:`query`
    answers one batch through the mechanism and charges the oracle's budget
    ``(mechanism.epsilon, mechanism.delta)``; once the budget cannot pay, the oracle refuses
    with :class:`BudgetError` and answers nothing.

    Parameters
    ----------
    a : array-like of 0/1, shape (n,)
        Protected attribute (private).
    y : array-like of 0/1, shape (n,), optional
        True labels (public); required by EO and equalized-odds mechanisms.
    mechanism : AttributeConceal or LaplaceBiasQuery, keyword-only
    budget : None, float or (float, float), keyword-only
        Total epsilon (or ``(epsilon, delta)``) the oracle may spend; None means no limit.

    Attributes
    ----------
    n : int
        Test-set size (public: the model developers hold X).
    y : numpy.ndarray or None
        The public labels (a copy).
    metric : str
        The mechanism's metric.
    queries_answered : int
        Number of prediction vectors answered so far.
    accountant : BudgetAccountant

    Examples
    --------
    >>> exact = AttributeConceal(epsilon=math.inf, noise=None)
    >>> oracle = ComplianceOracle([1, 1, 1, 0], mechanism=exact)
    >>> oracle.query([[0, 0, 0, 1]])
    array([-1.])
    >>> oracle.queries_answered
    1
    """

    @validate_params({"mechanism": InstanceOf(_BiasQueryMechanism,
                                              name="an AttributeConceal or LaplaceBiasQuery")})
    def __init__(self, a, y=None, *, mechanism, budget=None) -> None:
        owner = "ComplianceOracle"
        self._a = check_binary_vector(a, name="a", owner=owner)
        self._y = None if y is None else check_binary_vector(y, name="y", owner=owner,
                                                             length=self._a.size)
        if mechanism.metric in ("eo", "equalized_odds") and self._y is None:
            raise param_error("y", owner, f"be given for metric={mechanism.metric!r}", None)
        self.mechanism = mechanism
        if budget is None:
            self.accountant = BudgetAccountant()
        elif isinstance(budget, tuple) and len(budget) == 2:
            self.accountant = BudgetAccountant(budget[0], budget[1])
        elif isinstance(budget, numbers.Real) and not isinstance(budget, bool):
            self.accountant = BudgetAccountant(budget)
        else:
            raise param_error("budget", owner, "be None, an epsilon or an (epsilon, delta) pair",
                              budget)
        self.queries_answered = 0
        self._audit_log: list[BiasQueryRelease] = []

    @property
    def n(self) -> int:
        """Test-set size."""
        return int(self._a.size)

    @property
    def y(self) -> np.ndarray | None:
        """The public labels (a copy), or None."""
        return None if self._y is None else self._y.copy()

    @property
    def metric(self) -> str:
        """The metric the oracle answers."""
        return self.mechanism.metric

    @property
    def audit_log(self) -> tuple[BiasQueryRelease, ...]:
        """Every release made so far, audits included (compliance-team side)."""
        return tuple(self._audit_log)

    def query(self, preds) -> np.ndarray:
        """Answer a batch of queries; returns the released values (a fresh writable array).

        Raises
        ------
        BudgetError
            The budget cannot pay for this batch.
        InvalidParameterError
            Bad predictions (see :meth:`AttributeConceal.answer`).
        """
        h, _ = check_predictions(preds, self.n, owner="ComplianceOracle.query")
        charge = (self.mechanism.epsilon, self.mechanism.delta)
        if h.shape[0] > 0 and not self.accountant.can_spend(*charge):
            self.accountant.spend(*charge)  # raises BudgetError with the figures
        release = self.mechanism.answer(h, self._a, self._y)
        if h.shape[0] > 0:
            self.accountant.spend(*charge)
        self.queries_answered += release.n_queries
        self._audit_log.append(release)
        return np.array(release.values)

    def __repr__(self) -> str:
        return (f"ComplianceOracle(n={self.n}, mechanism={self.mechanism!r}, "
                f"queries_answered={self.queries_answered})")


# ---------------------------------------------------------------------------------------------
# Utility comparison (spec §7.7)
# ---------------------------------------------------------------------------------------------

@validate_params({"mechanism": Options("cauchy", "smooth_laplace", "laplace"), "n_queries": QUERIES,
                  "epsilon": _FINITE_EPSILON})
def expected_median_abs_error(n, n0, *, mechanism, n_queries, epsilon, delta=None) -> float:
    """Median absolute error of each answer under a mechanism (spec §7.7).

    Parameters
    ----------
    n, n0 : int
        Test-set size and disadvantaged-group size.
    mechanism : {"cauchy", "smooth_laplace", "laplace"}, keyword-only
        Attribute-Conceal with Cauchy noise, Attribute-Conceal with Laplace noise
        (Theorem 6), or the Laplace baseline.
    n_queries : int, keyword-only
        Number of queries in the batch (the paper's m).
    epsilon : float, keyword-only
        Privacy parameter.
    delta : float, keyword-only
        For ``"smooth_laplace"``.

    Returns
    -------
    float
        Cauchy: the scale ``6 S / epsilon`` (the median of ``|scale Z|``); Laplace noise of
        scale b: ``b ln 2``.

    Notes
    -----
    The Cauchy distribution has no mean, so the mean error of Attribute-Conceal is
    dominated by outliers; medians are the fair comparison.

    Examples
    --------
    >>> round(expected_median_abs_error(100, 10, mechanism="cauchy", n_queries=25, epsilon=5.0), 3)
    11.721
    >>> round(expected_median_abs_error(100, 10, mechanism="laplace", n_queries=25, epsilon=5.0), 4)
    1.7679
    """
    n, n0 = check_sizes(n, n0, owner="expected_median_abs_error")
    eps = float(epsilon)
    if mechanism == "laplace":  # 2.55051 ln 2 in the example
        return global_sensitivity_sp(n, n_queries=n_queries) / eps * math.log(2)
    if mechanism == "cauchy":
        beta = attribute_conceal_beta(epsilon=eps, n_queries=n_queries)
        return 6.0 * smooth_sp_value(n, n0, beta, n_queries) / eps
    beta = attribute_conceal_beta(epsilon=eps, n_queries=n_queries, noise="laplace", delta=delta)
    return 2.0 * smooth_sp_value(n, n0, beta, n_queries) / eps * math.log(2)


@validate_params({"n_queries": QUERIES})
def crossover_epsilon(n, n0, *, n_queries) -> float:
    """Epsilon above which Attribute-Conceal (Cauchy) has lower median error than Laplace.

    Parameters
    ----------
    n, n0 : int
        Test-set size and disadvantaged-group size.
    n_queries : int, keyword-only
        Number of queries (the paper's m).

    Returns
    -------
    float
        The infimum epsilon such that for every larger epsilon the Cauchy median error
        ``6 S / epsilon`` is below the Laplace median error ``(Delta / epsilon) ln 2``;
        ``math.inf`` if that never happens.

    Notes
    -----
    Both errors scale as 1/epsilon, so the comparison is ``6 S < Delta ln 2`` with
    ``S = m max(1/(N_max+1) + 1/N_min, exp(-(N_min-2) epsilon/(6m)) G)`` and
    ``Delta = m G``, ``G = 1/2 + 1/(n-1)``.  It holds iff
    ``6 (1/(N_max+1) + 1/N_min) < G ln 2`` and
    ``epsilon > 6 m ln(6 / ln 2) / (N_min - 2)`` (about ``12.95 m / (N_min - 2)``).  The paper
    claims Attribute-Conceal always wins; it does not (spec §7.7).

    Examples
    --------
    >>> crossover_epsilon(100, 10, n_queries=25)  # the paper's n = 100 Adult setting: never
    inf
    >>> round(crossover_epsilon(1000, 104, n_queries=300), 2)
    38.09
    """
    n, n0 = check_sizes(n, n0, owner="crossover_epsilon")
    n_min = min(n0, n - n0)
    n_max = n - n_min
    glob = 0.5 + 1.0 / (n - 1)
    if n_min <= 2 or 6.0 * (1.0 / (n_max + 1) + 1.0 / n_min) >= glob * math.log(2):
        return math.inf
    return 6.0 * n_queries * math.log(6.0 / math.log(2)) / (n_min - 2)
