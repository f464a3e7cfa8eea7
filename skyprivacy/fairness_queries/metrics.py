"""Group-fairness queries and the evaluation scores of the fairness-query audit.

The query functions are the statistics a compliance team answers (Hamman, Chen and Dutta,
Def. 2.1, Def. 2.2, §3.2, Remark 2); equalized odds, named but never defined by the paper, is
defined here as in spec fairness-queries §3.1.  The scores are the paper's Leakage (Def. 5.1)
and the average query error of §5/§8.2 of the spec.

All functions are pure and take numpy arrays (or anything ``numpy.asarray`` accepts, such as
pandas Series); the caller's arrays are never modified.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from .._core.display import Shown, dict_facts, result_html
from .._core.validation import Options, validate_params
from ..errors import DegenerateGroupError, param_error
from ._validation import (
    check_binary_vector,
    check_group_sizes,
    check_predictions,
    found_values,
)

__all__ = [
    "GroupSizes",
    "group_sizes",
    "statistical_parity_gap",
    "abs_statistical_parity_gap",
    "equal_opportunity_gap",
    "false_positive_rate_gap",
    "equalized_odds_gaps",
    "equalized_odds_gap",
    "predictive_rate_parity_gap",
    "leakage_score",
    "avg_sp_error",
]


@dataclass(frozen=True)
class GroupSizes:
    """Group sizes of a protected attribute, overall and inside the label slices.

    Attributes
    ----------
    n, n0, n1 : int
        Test-set size and the sizes of the disadvantaged (a = 0) and advantaged (a = 1) group.
    n_pos, n0_pos, n1_pos : int or None
        The same inside the slice y = 1 (``n^+``, ``N_0^+``, ``N_1^+``); None without labels.
    n_neg, n0_neg, n1_neg : int or None
        The same inside the slice y = 0.
    """

    n: int
    n0: int
    n1: int
    n_pos: int | None = None
    n0_pos: int | None = None
    n1_pos: int | None = None
    n_neg: int | None = None
    n0_neg: int | None = None
    n1_neg: int | None = None

    def to_dict(self) -> dict:
        """The sizes as a plain dict."""
        return asdict(self)

    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, dict_facts(self.to_dict(), (
            "n", "n0", "n1", "n_pos", "n0_pos", "n1_pos", "n_neg", "n0_neg", "n1_neg")))


def group_sizes(a, y=None) -> GroupSizes:
    """Count the protected groups, overall and per label slice (spec §2, §3.3).

    Parameters
    ----------
    a : array-like of 0/1 (or bool), shape (n,)
        Protected attribute; 1 is the advantaged group.
    y : array-like of 0/1, shape (n,), optional
        True labels.  Needed for the slice counts.

    Returns
    -------
    GroupSizes
        Counts may be 0 here: this function describes, it does not judge.

    Examples
    --------
    >>> g = group_sizes([1, 1, 1, 1, 1, 0, 0, 0], [1, 0, 1, 1, 0, 1, 0, 1])
    >>> (g.n1, g.n0, g.n1_pos, g.n0_pos, g.n1_neg, g.n0_neg)
    (5, 3, 3, 2, 2, 1)
    """
    a = check_binary_vector(a, name="a", owner="group_sizes")
    n = int(a.size)
    n1 = int(a.sum())
    if y is None:
        return GroupSizes(n=n, n0=n - n1, n1=n1)
    y = check_binary_vector(y, name="y", owner="group_sizes", length=n)
    pos = y == 1
    n1_pos = int(a[pos].sum())
    n1_neg = int(a[~pos].sum())
    n_pos = int(pos.sum())
    return GroupSizes(n=n, n0=n - n1, n1=n1, n_pos=n_pos, n0_pos=n_pos - n1_pos, n1_pos=n1_pos,
                      n_neg=n - n_pos, n0_neg=n - n_pos - n1_neg, n1_neg=n1_neg)


def parity_gaps(h: np.ndarray, a: np.ndarray, *, metric: str, slice_label: int | None = None
         ) -> np.ndarray:
    """SP of every row of h over the individuals of a: lambda/N_1 - mu/N_0 (Def 2.1).

    The package-internal kernel of every gap (the mechanisms answer with it); not exported.
    """
    n0, n1 = check_group_sizes(a, metric=metric, slice_label=slice_label)
    in1 = a == 1
    # Two group means rather than H @ v: the same value, with one rounding per mean.
    return h[:, in1].sum(axis=1) / n1 - h[:, ~in1].sum(axis=1) / n0


def _finish(values: np.ndarray, was_1d: bool):
    return float(values[0]) if was_1d else values


def statistical_parity_gap(preds, a):
    """Statistical-parity gap of one or m models (Def. 2.1, eq. (2)).

    Parameters
    ----------
    preds : array-like, shape (n,) or (m, n)
        Predictions ``h_i(x_j)`` in [0, 1] (binary or probabilities, used as-is).
    a : array-like of 0/1 (or bool), shape (n,)
        Protected attribute; 1 is the advantaged group, 0 the disadvantaged group.

    Returns
    -------
    float or numpy.ndarray of shape (m,)
        ``SP_i = lambda_i / N_1 - mu_i / N_0``, a signed value in [-1, 1]; a float for 1-D
        ``preds``.

    Raises
    ------
    InvalidParameterError
        If ``a`` is not 0/1, ``preds`` is outside [0, 1] or NaN, or the lengths differ.
    DegenerateGroupError
        If one group is empty (SP is undefined, spec §3.2).

    Notes
    -----
    ``SP = H v`` with ``v_j = 1/N_1`` if ``a_j = 1`` and ``-1/N_0`` if ``a_j = 0``; this
    linearity in the unknown ``v`` is what the attacks of Theorems 1 and 2 exploit.

    References
    ----------
    Hamman, Chen and Dutta, "Can Querying for Bias Leak Protected Attributes?", Def. 2.1 and
    eq. (2); spec fairness-queries §3.1.

    Examples
    --------
    >>> a = [1, 1, 1, 1, 1, 0, 0, 0]
    >>> round(statistical_parity_gap([1, 0, 1, 0, 1, 1, 0, 0], a), 6)  # 3/5 - 1/3
    0.266667
    >>> statistical_parity_gap([[1, 0, 1, 0, 1, 1, 0, 0], [0, 0, 0, 0, 0, 1, 1, 1]], a)
    array([ 0.26666667, -1.        ])
    """
    a = check_binary_vector(a, name="a", owner="statistical_parity_gap")
    h, was_1d = check_predictions(preds, a.size, owner="statistical_parity_gap")
    return _finish(parity_gaps(h, a, metric="statistical parity gap"), was_1d)


def abs_statistical_parity_gap(preds, a):
    """Absolute statistical-parity gap ``|SP_i|`` (Def. 2.2 sentence, §3.2), in [0, 1].

    Parameters
    ----------
    preds : array-like, shape (n,) or (m, n)
        Predictions in [0, 1].
    a : array-like of 0/1, shape (n,)
        Protected attribute.

    Returns
    -------
    float or numpy.ndarray of shape (m,)

    Raises
    ------
    InvalidParameterError, DegenerateGroupError
        As :func:`statistical_parity_gap`.

    References
    ----------
    Hamman, Chen and Dutta, §3.2 and Theorem 3; spec fairness-queries §3.1.

    Examples
    --------
    >>> abs_statistical_parity_gap([0, 0, 1, 1], [1, 1, 0, 0])
    1.0
    """
    a = check_binary_vector(a, name="a", owner="abs_statistical_parity_gap")
    h, was_1d = check_predictions(preds, a.size, owner="abs_statistical_parity_gap")
    return _finish(np.abs(parity_gaps(h, a, metric="absolute statistical parity gap")), was_1d)


def _sliced_gap(preds, a, y, *, owner: str, label: int, metric: str):
    a = check_binary_vector(a, name="a", owner=owner)
    y = check_binary_vector(y, name="y", owner=owner, length=a.size)
    h, was_1d = check_predictions(preds, a.size, owner=owner)
    keep = y == label
    return _finish(parity_gaps(h[:, keep], a[keep], metric=metric, slice_label=label), was_1d)


def equal_opportunity_gap(preds, a, y):
    """Equal-opportunity (true-positive-rate) gap (Def. 2.2).

    Parameters
    ----------
    preds : array-like, shape (n,) or (m, n)
        Predictions in [0, 1].
    a : array-like of 0/1, shape (n,)
        Protected attribute.
    y : array-like of 0/1, shape (n,)
        True labels (public).

    Returns
    -------
    float or numpy.ndarray of shape (m,)
        ``mean(h | A=1, Y=1) - mean(h | A=0, Y=1)``: SP computed on the slice ``y = 1``.

    Raises
    ------
    InvalidParameterError
        Bad labels or predictions, or lengths that differ.
    DegenerateGroupError
        If a group is empty inside the slice ``y = 1``.

    References
    ----------
    Hamman, Chen and Dutta, Def. 2.2 (named "equalized odds" in the abstract; it is the
    equal-opportunity gap, spec fairness-queries §3.1 naming erratum).

    Examples
    --------
    >>> a, y = [1, 1, 1, 1, 1, 0, 0, 0], [1, 0, 1, 1, 0, 1, 0, 1]
    >>> round(equal_opportunity_gap([1, 0, 1, 0, 1, 1, 0, 0], a, y), 6)  # 2/3 - 1/2
    0.166667
    """
    return _sliced_gap(preds, a, y, owner="equal_opportunity_gap", label=1,
                       metric="equal-opportunity gap")


def false_positive_rate_gap(preds, a, y):
    """False-positive-rate gap: SP computed on the slice ``y = 0`` (spec §3.1).

    Parameters
    ----------
    preds : array-like, shape (n,) or (m, n)
        Predictions in [0, 1].
    a : array-like of 0/1, shape (n,)
        Protected attribute.
    y : array-like of 0/1, shape (n,)
        True labels (public).

    Returns
    -------
    float or numpy.ndarray of shape (m,)

    Raises
    ------
    InvalidParameterError, DegenerateGroupError
        As :func:`equal_opportunity_gap`, for the slice ``y = 0``.

    References
    ----------
    Spec fairness-queries §3.1 (equalized odds, this library's definition).

    Examples
    --------
    >>> a, y = [1, 1, 1, 1, 1, 0, 0, 0], [1, 0, 1, 1, 0, 1, 0, 1]
    >>> false_positive_rate_gap([1, 0, 1, 0, 1, 1, 0, 0], a, y)  # 1/2 - 0
    0.5
    """
    return _sliced_gap(preds, a, y, owner="false_positive_rate_gap", label=0,
                       metric="false-positive-rate gap")


def equalized_odds_gaps(preds, a, y) -> np.ndarray:
    """Equalized-odds gaps: the pair (TPR gap, FPR gap) per model (spec §3.1).

    The paper names equalized odds but never defines it (Remark 2); this library defines it
    as the pair of SP gaps on the slices ``y = 1`` and ``y = 0``.

    Parameters
    ----------
    preds : array-like, shape (n,) or (m, n)
        Predictions in [0, 1].
    a : array-like of 0/1, shape (n,)
        Protected attribute.
    y : array-like of 0/1, shape (n,)
        True labels (public).

    Returns
    -------
    numpy.ndarray of shape (2,) for 1-D ``preds``, else (m, 2)
        Column 0 is the TPR gap (:func:`equal_opportunity_gap`), column 1 the FPR gap.

    Raises
    ------
    InvalidParameterError, DegenerateGroupError
        As :func:`equal_opportunity_gap`, for either slice (so ``y`` with a single class
        raises: one slice is empty).

    References
    ----------
    Hamman, Chen and Dutta, Remark 2; spec fairness-queries §3.1.

    Examples
    --------
    >>> a, y = [1, 1, 1, 1, 1, 0, 0, 0], [1, 0, 1, 1, 0, 1, 0, 1]
    >>> equalized_odds_gaps([1, 0, 1, 0, 1, 1, 0, 0], a, y).round(6)
    array([0.166667, 0.5     ])
    """
    owner = "equalized_odds_gaps"
    a = check_binary_vector(a, name="a", owner=owner)
    y = check_binary_vector(y, name="y", owner=owner, length=a.size)
    h, was_1d = check_predictions(preds, a.size, owner=owner)
    pos = y == 1
    tpr = parity_gaps(h[:, pos], a[pos], metric="equalized-odds TPR gap", slice_label=1)
    fpr = parity_gaps(h[:, ~pos], a[~pos], metric="equalized-odds FPR gap", slice_label=0)
    pairs = np.column_stack([tpr, fpr])
    return pairs[0] if was_1d else pairs


def equalized_odds_gap(preds, a, y):
    """Scalar equalized-odds gap ``max(|TPR gap|, |FPR gap|)`` (post-processing of the pair).

    Parameters
    ----------
    preds, a, y
        As :func:`equalized_odds_gaps`.

    Returns
    -------
    float or numpy.ndarray of shape (m,)

    Examples
    --------
    >>> a, y = [1, 1, 1, 1, 1, 0, 0, 0], [1, 0, 1, 1, 0, 1, 0, 1]
    >>> equalized_odds_gap([1, 0, 1, 0, 1, 1, 0, 0], a, y)
    0.5
    """
    pairs = np.atleast_2d(equalized_odds_gaps(preds, a, y))
    worst = np.abs(pairs).max(axis=1)
    return float(worst[0]) if np.ndim(preds) == 1 else worst


def prp_gaps(h: np.ndarray, a: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """PPV gap of every row of a binary h, and each row's slice size (package-internal).

    Row i is the SP of ``y`` over ``{j : h_i(x_j) = 1}``; an empty group in a slice raises.
    """
    values = np.empty(h.shape[0])
    sizes = np.empty(h.shape[0], dtype=np.int64)
    for i, row in enumerate(h):
        keep = row == 1.0
        sizes[i] = int(keep.sum())
        try:
            values[i] = parity_gaps(y[None, keep].astype(float), a[keep],
                                    metric="predictive-rate-parity gap")[0]
        except DegenerateGroupError as exc:
            raise DegenerateGroupError(f"{str(exc)[:-1]} among the individuals model {i} "
                                       "accepts (h = 1).") from None
    return values, sizes


def check_binary_predictions(preds, n: int, *, owner: str) -> tuple[np.ndarray, bool]:
    """Predictions that must be 0/1 (predictive rate parity conditions on ``h = 1``)."""
    h, was_1d = check_predictions(preds, n, owner=owner)
    soft = (h != 0.0) & (h != 1.0)
    if soft.any():
        position = tuple(int(i) for i in np.argwhere(soft)[0])
        raise param_error("preds", owner, "be binary (0/1) for predictive rate parity",
                          f"{float(h[position])} at position "
                          f"{position[1] if was_1d else position}")
    return h, was_1d


def predictive_rate_parity_gap(preds, a, y):
    """Predictive-rate-parity (positive-predictive-value) gap of binary models (Remark 2).

    Parameters
    ----------
    preds : array-like of 0/1, shape (n,) or (m, n)
        Binary predictions (the metric conditions on ``h = 1``).
    a : array-like of 0/1, shape (n,)
        Protected attribute.
    y : array-like of 0/1, shape (n,)
        True labels (public).

    Returns
    -------
    float or numpy.ndarray of shape (m,)
        ``P(Y=1 | h=1, A=1) - P(Y=1 | h=1, A=0)``: the statistical-parity gap of ``y``
        computed on the individuals the model accepts.

    Raises
    ------
    InvalidParameterError
        Non-binary predictions, bad labels, lengths that differ.
    DegenerateGroupError
        If a model accepts nobody of one group.

    Notes
    -----
    Remark 2 says the attacks "extend to" predictive rate parity and footnote 2 defines it
    in words; the paper gives no formula or sensitivity (spec fairness-queries §3.1 leaves it
    out of scope).  This is the footnote's definition; its sensitivity is
    :func:`~skyprivacy.fairness_queries.global_sensitivity_prp`.  It leaks like SP: the
    developers choose the slice, so a model accepting a known set plus one target reveals the
    target's group through the change of the gap.

    References
    ----------
    Hamman, Chen and Dutta, Remark 2 and footnote 2; Verma and Rubin, "Fairness definitions
    explained" (FairWare 2018), the paper's [50].

    Examples
    --------
    >>> a, y = [1, 1, 1, 1, 1, 0, 0, 0], [1, 0, 1, 1, 0, 1, 0, 1]
    >>> h = [1, 0, 1, 0, 1, 1, 0, 1]
    >>> round(predictive_rate_parity_gap(h, a, y), 6)  # PPV 2/3 (A=1) - 2/2 (A=0)
    -0.333333
    """
    owner = "predictive_rate_parity_gap"
    a = check_binary_vector(a, name="a", owner=owner)
    y = check_binary_vector(y, name="y", owner=owner, length=a.size)
    h, was_1d = check_binary_predictions(preds, a.size, owner=owner)
    return _finish(prp_gaps(h, a, y)[0], was_1d)


def leakage_score(a, a_hat) -> float:
    """Leakage: balanced accuracy of a recovered protected attribute, in percent (Def. 5.1).

    Parameters
    ----------
    a : array-like of 0/1, shape (n,)
        The true protected attribute.
    a_hat : array-like of {0, 1, -1}, shape (n,)
        The attacker's guess; -1 marks an individual the attack could not decode, which
        counts as not recovered.

    Returns
    -------
    float
        ``50 * (N_A / N_1 + N_B / N_0)`` where ``N_A`` counts group-1 members guessed 1 and
        ``N_B`` group-0 members guessed 0.  Random guessing scores about 50 (Remark 4).

    Raises
    ------
    DegenerateGroupError
        If a group of ``a`` is empty (Leakage is undefined, spec §8.2).
    InvalidParameterError
        If ``a_hat`` has other values or another length.

    References
    ----------
    Hamman, Chen and Dutta, Def. 5.1 and Remark 4; spec fairness-queries §8.2.

    Examples
    --------
    >>> a = [1] * 90 + [0] * 10
    >>> leakage_score(a, [1] * 81 + [0] * 9 + [0] * 5 + [1] * 5)
    70.0
    """
    a = check_binary_vector(a, name="a", owner="leakage_score")
    guess = np.asarray(a_hat)
    if guess.ndim != 1 or guess.size != a.size:
        raise param_error("a_hat", "leakage_score", f"be one-dimensional of length len(a) = "
                          f"{a.size}", f"shape {guess.shape}")
    if guess.dtype == bool:
        guess = guess.astype(np.int8)
    if not np.isin(guess, (0, 1, -1)).all():
        raise param_error("a_hat", "leakage_score", "contain only 0, 1 or -1 (unknown)",
                          f"values {found_values(guess)}")
    n0, n1 = check_group_sizes(a, metric="Leakage")
    hits1 = int(((a == 1) & (guess == 1)).sum())
    hits0 = int(((a == 0) & (guess == 0)).sum())
    return 50.0 * (hits1 / n1 + hits0 / n0)


@validate_params({"stat": Options("mean", "median")})
def avg_sp_error(true, released, *, stat: str = "mean") -> float:
    """Average absolute error of released query answers (spec §8.2 reading of "Avg. SP err").

    Parameters
    ----------
    true, released : array-like of the same shape
        Exact and released answers.
    stat : {"mean", "median"}, keyword-only
        The mean of ``|released - true|``, or its median.  Report the median too: Cauchy
        noise has no mean, so the mean is dominated by outliers (spec §7.7).

    Returns
    -------
    float

    Raises
    ------
    InvalidParameterError
        If the shapes differ, the arrays are empty or ``stat`` is unknown.

    Examples
    --------
    >>> avg_sp_error([0.5, 0.5, 0.5], [0.5, 0.75, 1.5])
    0.4166666666666667
    >>> avg_sp_error([0.5, 0.5, 0.5], [0.5, 0.75, 1.5], stat="median")
    0.25
    """
    t = np.asarray(true, dtype=float)
    r = np.asarray(released, dtype=float)
    if t.shape != r.shape:
        raise param_error("released", "avg_sp_error", f"have the shape of 'true' {t.shape}",
                          f"shape {r.shape}")
    if t.size == 0:
        raise param_error("true", "avg_sp_error", "be non-empty", [])
    err = np.abs(r - t)
    return float(err.mean() if stat == "mean" else np.median(err))
