"""Certification of an announced decision rule: maximum confidence and minimum uncertainty.

Implements section 5.1 (Definitions 3-4, Lemma 1, eq. 8 / Appendix D eq. 37) and
Appendix C (Definitions 12-13, Lemma 7): the confidence of every inference channel
<X_U, A -> X_S>, the worst one with its argmax, the beta-maximum-confidence check listing
every violation, and the beta/gamma conversion.  The announced rule is D~ when one is
given, the true rule D otherwise (which is what leaks if D itself is published).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from .._core.display import Shown, result_html, result_repr
from .._core.encoding import require_columns
from .._core.exact import REL_TOL, as_number, decimal_fraction, exact_array, native
from .._core.validation import Boolean, Interval, Nullable, check, validate_params
from ..errors import InvalidParameterError, SchemaError, param_error
from ._segments import EMPTY_TOL, safe_div
from .table import TABLE, DecisionTable

__all__ = [
    "MaxConfidence",
    "BetaCheck",
    "confidence",
    "max_confidence",
    "min_uncertainty",
    "satisfies_beta",
    "beta_from_gamma",
    "gamma_from_beta",
]

#: The declared constraints of a confidence bound and a minimum uncertainty.
BETA = Interval("real", 0, 1, closed="right")
GAMMA = Interval("real", 0, closed="left", inf=True)


# -- beta / gamma ------------------------------------------------------------------------
@validate_params({"gamma": GAMMA})
def beta_from_gamma(gamma: float) -> float:
    """The maximum confidence beta = exp(-gamma) equivalent to gamma-minimum uncertainty.

    Appendix C, Lemma 7: gamma-MU is e^{-gamma}-maximum confidence (natural log).

    Examples
    --------
    >>> round(beta_from_gamma(gamma_from_beta(0.675)), 12)
    0.675
    >>> beta_from_gamma(-1)
    Traceback (most recent call last):
    ...
    skyprivacy.errors.InvalidParameterError: The 'gamma' parameter of beta_from_gamma must be a
        number >= 0. Got -1 instead.
    """
    return math.exp(-float(gamma))


@validate_params({"beta": BETA})
def gamma_from_beta(beta: float) -> float:
    """The minimum uncertainty gamma = -log(beta) equivalent to beta-maximum confidence.

    Examples
    --------
    >>> gamma_from_beta(1)
    0.0
    """
    return -math.log(float(beta)) + 0.0  # + 0.0 turns -0.0 into 0.0


#: The declared pair of every function that takes a target as ``beta`` or ``gamma``.
TARGET = {"beta": Nullable(BETA), "gamma": Nullable(GAMMA)}


def resolve_beta(beta, gamma, owner: str):
    """The target beta from exactly one of ``beta`` and ``gamma`` (each checked)."""
    if (beta is None) == (gamma is None):
        raise InvalidParameterError(
            f"{owner} needs exactly one of 'beta' and 'gamma'. Got beta={beta!r}, gamma={gamma!r}."
        )
    if gamma is not None:
        return math.exp(-float(check(gamma, GAMMA, name="gamma", owner=owner)))
    return check(beta, BETA, name="beta", owner=owner)


# -- the announced rule --------------------------------------------------------------------
def announced_matrix(table: DecisionTable, announced, *, exact: bool, owner: str) -> np.ndarray:
    """The announced D~ as an (n_records, n_outcomes) array in table order.

    ``announced`` may be None (the true D), a result with a ``d_tilde`` matrix for this
    table (e.g. :class:`~skyprivacy.transparency.OptimalPrivacy`), a column name of the
    table's frame holding d~ (binary), a Series/DataFrame aligned by index, or an array of
    shape (n,) (binary d~) or (n, n_outcomes).
    """
    k = len(table.outcomes)
    if announced is None:
        return table.decision_matrix(exact=exact)
    d_tilde = getattr(announced, "d_tilde", None)
    if isinstance(d_tilde, np.ndarray):
        if getattr(announced, "table", None) is not table:
            raise param_error(
                "announced", owner, "be a result computed for this table",
                "a result of another table"
            )
        values = d_tilde
    elif isinstance(announced, str):
        require_columns(table.frame, [announced])
        values = table.frame[announced]
    else:
        values = announced
    if isinstance(values, (pd.Series, pd.DataFrame)):
        if not values.index.equals(table.index):
            if not values.index.is_unique or table.index.difference(values.index).size:
                raise SchemaError(
                    "The announced rule does not cover every record of the table "
                    "(aligned by index)."
                )
            values = values.reindex(table.index)
        values = values.to_numpy(dtype=object)
    arr = np.asarray(values, dtype=object)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim == 1 and len(arr) == table.n_records and k == 2:
        arr = exact_array(arr) if exact else arr.astype(float)
        arr = np.column_stack([1 - arr, arr])
    elif arr.shape == (table.n_records, k):
        arr = exact_array(arr) if exact else arr.astype(float)
    else:
        raise param_error(
            "announced", owner,
            f"have shape ({table.n_records},) for a binary table or ({table.n_records}, {k})",
            arr.shape,
        )
    if not exact and not np.isfinite(arr).all():
        raise param_error("announced", owner, "hold finite probabilities", "NaN or inf")
    outside = (arr < 0) | (arr > 1)
    if np.any(outside):
        row = int(np.flatnonzero(np.asarray(outside).any(axis=1))[0])
        raise param_error(
            "announced", owner, "hold probabilities in [0, 1]",
            f"{[float(v) for v in arr[row]]} at index {native(table.index[row])!r}",
        )
    sums = arr.sum(axis=1)
    off = (sums != 1) if exact else (np.abs(sums - 1.0) > 1e-9)
    if np.any(off):
        row = int(np.flatnonzero(off)[0])
        raise param_error(
            "announced", owner, "give distributions that sum to 1",
            f"sum {float(sums[row])!r} at index {native(table.index[row])!r}",
        )
    return arr


def channel_confidence(p: np.ndarray, dist: np.ndarray, seg, *, exact: bool) -> np.ndarray:
    """eq. (8) for records in working order: P(x) D~_a(x) / sum_{x' in T} P(x') D~_a(x').

    ``seg`` gives the QID groups as segments; P need not be normalised.
    """
    p = p / seg.spread(seg.sum(p))
    masses = p[:, None] * dist
    den = seg.sum(masses)
    if not exact:
        den = np.where(den <= EMPTY_TOL, 0.0, den)
    return safe_div(masses, seg.spread(den))


def confidence_matrix(table: DecisionTable, dist: np.ndarray, *, exact: bool) -> np.ndarray:
    """conf(x_U, a -> x_S) for every record and outcome (eq. 8), table order.

    Empty channels (no announced mass of outcome a in the group) get conf = 0; on the float
    path a channel counts as empty below a relative mass of ``EMPTY_TOL`` (spec 2.1).
    """
    layout = table.layout
    weights = table.weight_array(exact=exact)
    conf_sorted = channel_confidence(weights[layout.rows], dist[layout.rows], layout.seg,
                                     exact=exact)
    conf = np.zeros(dist.shape, dtype=object if exact else float)
    if exact:
        conf[:] = Fraction(0)
    conf[layout.rows] = conf_sorted
    return conf


def group_max_confidence(table: DecisionTable, conf: np.ndarray) -> np.ndarray:
    """Largest confidence of every QID group (0 for groups without mass), group order."""
    layout = table.layout
    best = np.zeros(table.n_groups, dtype=conf.dtype)
    if conf.dtype == object:
        best[:] = Fraction(0)
    if layout.seg.size:
        per_row = conf[layout.rows].max(axis=1)
        best[layout.groups] = layout.seg.max(per_row)
    return best


# -- results -------------------------------------------------------------------------------
@dataclass(frozen=True)
class MaxConfidence:
    """The worst inference channel: Conf(X_U, A -> X_S) and where it is attained.

    Attributes
    ----------
    conf : float or Fraction
        max over (x_U, a, x_S) of conf(x_U, a -> x_S) (Definition 3).
    group : tuple
        x_U of the QID group attaining it.
    outcome
        The decision a of that channel.
    sensitive
        The inferred sensitive value x_S.
    record
        Index label of that record in the table.
    """

    conf: float | Fraction
    group: tuple
    outcome: object
    sensitive: object
    record: object

    @property
    def min_uncertainty(self) -> float:
        """Ucrt = -log Conf (Appendix C, Definition 13); inf when Conf = 0."""
        return math.inf if self.conf == 0 else -math.log(float(self.conf)) + 0.0

    def to_dict(self) -> dict:
        return {
            "conf": float(self.conf),
            "conf_exact": str(self.conf) if isinstance(self.conf, Fraction) else None,
            "min_uncertainty": self.min_uncertainty,
            "group": list(self.group),
            "outcome": self.outcome,
            "sensitive": self.sensitive,
            "record": self.record,
        }

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame([self.to_dict()])

    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, (("max_confidence", self.conf), ("group", self.group),
                                  ("outcome", self.outcome), ("sensitive", self.sensitive)))


@dataclass(frozen=True, eq=False)
class BetaCheck:
    """Verdict of a beta-maximum-confidence check (Definition 4) with every violation.

    ``safe`` (the verdict's one name across skyprivacy) and truthy when no channel exceeds
    beta.  ``violations`` has one
    row per violating (record, outcome): the public and sensitive columns, the outcome and
    the confidence.
    """

    safe: bool
    beta: float | Fraction
    max_confidence: MaxConfidence
    violations: pd.DataFrame

    def __bool__(self) -> bool:
        return self.safe

    @property
    def gamma(self) -> float:
        return -math.log(float(self.beta)) + 0.0

    @property
    def n_violations(self) -> int:
        return len(self.violations)

    def to_frame(self) -> pd.DataFrame:
        return self.violations.copy()

    def to_dict(self) -> dict:
        rows = self.violations.reset_index().to_dict(orient="records")
        return {
            "safe": self.safe,
            "satisfied": self.safe,  # the JSON of `transparency check` has carried it
            "beta": float(self.beta),
            "gamma": self.gamma,
            "max_confidence": self.max_confidence.to_dict(),
            "n_violations": self.n_violations,
            "violations": [{k: native(v) if not isinstance(v, Fraction) else float(v)
                            for k, v in r.items()} for r in rows],
        }

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown("SAFE" if self.safe else "UNSAFE", bool(self.safe),
                     (("beta", self.beta), ("max_confidence", self.max_confidence.conf),
                      ("violations", self.n_violations)),
                     f"max confidence {self.max_confidence.conf} in group "
                     f"{self.max_confidence.group}",
                     lambda n: self.violations.head(n), self.n_violations)


# -- public functions ----------------------------------------------------------------------

@validate_params({"table": TABLE, "exact": Boolean()})
def confidence(table: DecisionTable, announced=None, *, exact: bool = False) -> pd.DataFrame:
    """Confidence of every inference channel <x_U, a -> x_S> under the announced rule.

    Parameters
    ----------
    table : DecisionTable
    announced : optional
        The announced rule D~ (see :func:`max_confidence`); None evaluates the true D.
    exact : bool, default False
        Compute with Fractions.

    Returns
    -------
    pandas.DataFrame
        Indexed like the table, one column per outcome (``columns.name == "outcome"``):
        conf(x_U, a -> x_S) = P(x) D~_a(x) / sum_{x' in T} P(x') D~_a(x').

    Notes
    -----
    Lemma 1, eq. (8), derived in Appendix D (eqs. 36-38; [J] drops the tilde in the
    numerator, [A] has it).  A channel no one in the group receives has conf = 0 (spec 2.1).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"g": ["F", "F", "F"], "s": ["low", "mid", "high"],
    ...                    "w": [139, 9, 2], "d": [0.0, 0.0, 1.0]})
    >>> t = DecisionTable.from_frame(df, public="g", sensitive="s", weight="w", decision="d")
    >>> confidence(t)[1].tolist()
    [0.0, 0.0, 1.0]
    """
    dist = announced_matrix(table, announced, exact=exact, owner="confidence")
    conf = confidence_matrix(table, dist, exact=exact)
    frame = pd.DataFrame(conf, index=table.index, columns=pd.Index(table.outcomes, name="outcome"))
    return frame


def max_confidence_of(table: DecisionTable, conf: np.ndarray) -> MaxConfidence:
    """The :class:`MaxConfidence` of a confidence matrix (package-internal; not exported)."""
    flat = int(np.argmax(conf.ravel()))
    row, col = divmod(flat, conf.shape[1])
    return MaxConfidence(
        conf=conf[row, col] if conf.dtype == object else float(conf[row, col]),
        group=table.group_keys[table.group_codes[row]],
        outcome=table.outcomes[col],
        sensitive=table.sensitive_at(row),
        record=native(table.index[row]),
    )


@validate_params({"table": TABLE, "exact": Boolean()})
def max_confidence(table: DecisionTable, announced=None, *, exact: bool = False) -> MaxConfidence:
    """The maximum confidence Conf(X_U, A -> X_S) and the channel attaining it.

    Parameters
    ----------
    table : DecisionTable
    announced : optional
        The announced rule: None (the true D), an :class:`OptimalPrivacy` result, a column
        name holding d~, a Series aligned by index, or an array of shape (n,) or
        (n, n_outcomes).
    exact : bool, default False
        Compute with Fractions; ``conf`` is then a Fraction.

    Returns
    -------
    MaxConfidence
        Ties go to the first record in table order, then the first outcome.

    References
    ----------
    Definition 3 (worst-case posterior vulnerability), Lemma 1, eq. (8).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"g": ["M"] * 3, "s": ["low", "mid", "high"],
    ...                    "census": [0.842, 0.123, 0.035], "d": [0.0, 0.5, 1.0]})
    >>> t = DecisionTable.from_frame(df, public="g", sensitive="s", weight="census",
    ...                              decision="d")
    >>> m = max_confidence(t)
    >>> round(m.conf, 4), m.outcome, m.sensitive
    (0.9319, 0, 'low')
    """
    dist = announced_matrix(table, announced, exact=exact, owner="max_confidence")
    return max_confidence_of(table, confidence_matrix(table, dist, exact=exact))


@validate_params({"table": TABLE})
def min_uncertainty(table: DecisionTable, announced=None) -> float:
    """Ucrt(X_U, A -> X_S) = -log Conf(X_U, A -> X_S) (Appendix C, Definitions 12-13).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"g": ["a", "a"], "s": [1, 2], "w": [1, 1], "d": [0.5, 0.5]})
    >>> t = DecisionTable.from_frame(df, public="g", sensitive="s", weight="w", decision="d")
    >>> round(min_uncertainty(t), 6) == round(gamma_from_beta(0.5), 6)
    True
    """
    return max_confidence(table, announced).min_uncertainty


@validate_params({"table": TABLE, **TARGET, "exact": Boolean(),
                  "tol": Interval("real", 0, closed="left")})
def satisfies_beta(
    table: DecisionTable,
    announced=None,
    *,
    beta=None,
    gamma=None,
    exact: bool = False,
    tol: float = REL_TOL,
) -> BetaCheck:
    """Check beta-maximum confidence (Definition 4) and list every violating channel.

    Parameters
    ----------
    table : DecisionTable
    announced : optional
        The announced rule (see :func:`max_confidence`); None checks the true D.
    beta, gamma : float
        Exactly one: the confidence bound beta in (0, 1], or the minimum uncertainty
        gamma >= 0 (beta = exp(-gamma), Appendix C).
    exact : bool, default False
        Decide conf <= beta with Fractions, without float round-off at the boundary.
    tol : float, default 1e-9
        Relative slack of the float verdict (ignored when ``exact``).

    Returns
    -------
    BetaCheck
        ``.safe`` (and truthy) iff every conf(x_U, a -> x_S) <= beta.

    Raises
    ------
    InvalidParameterError
        Neither or both of beta and gamma, or a value out of range.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"g": ["F"] * 3, "s": ["low", "mid", "high"],
    ...                    "w": [139, 9, 2], "d": [0.0, 0.0, 1.0]})
    >>> t = DecisionTable.from_frame(df, public="g", sensitive="s", weight="w", decision="d")
    >>> check = satisfies_beta(t, beta=0.9)
    >>> bool(check), check.n_violations, check.violations["s"].tolist()
    (False, 2, ['low', 'high'])
    """
    owner = "satisfies_beta"
    target = resolve_beta(beta, gamma, owner)
    dist = announced_matrix(table, announced, exact=exact, owner=owner)
    conf = confidence_matrix(table, dist, exact=exact)
    limit = decimal_fraction(target) if exact else float(target) * (1 + tol)
    over = conf > limit
    rows, cols = np.nonzero(np.asarray(over, dtype=bool))
    key_cols = list(table.public + table.sensitive)
    violations = table.frame.iloc[rows][key_cols].copy()
    violations["outcome"] = [table.outcomes[c] for c in cols]
    violations["conf"] = conf[rows, cols] if exact else conf[rows, cols].astype(float)
    return BetaCheck(
        safe=len(rows) == 0,
        beta=as_number(target, exact),
        max_confidence=max_confidence_of(table, conf),
        violations=violations,
    )
