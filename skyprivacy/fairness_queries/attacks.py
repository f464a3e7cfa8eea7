"""Attribute-Reveal: how answered fairness queries leak the protected attribute.

A compliance team runs these before it answers queries, to see what a model developer could
learn.  Every attack talks to an oracle (normally :class:`ComplianceOracle`) that answers
query matrices and never hands out ``a``; the pure decoders take the query matrix and the
answers.  Implements spec fairness-queries §4 (Hamman, Chen and Dutta, §3, A.1-A.3):

* Example 1: one query identifies a target (:func:`single_query_reveal`);
* Example 2: two realistic queries identify a target, with the spec's sign correction
  (:func:`flip_pair_reveal`);
* Theorem 1 / Algorithm 1: n queries reconstruct everyone (:func:`flip_reveal`,
  :func:`linear_system_reveal`), with the singular designs detected before querying, and the
  robust n + 1 variant (:func:`base_difference_reveal`);
* Theorem 2 / Algorithm 2: compressed sensing with O(N_k log(n/N_k)) queries and an L1
  (basis-pursuit) decoder solved as an LP with scipy's HiGHS or the package's dense
  interior point (:func:`cs_reveal`, :func:`compressed_sensing_reveal`), with the corrected
  sign ``eta = H r - SP``;
* Theorem 3: absolute SP still partitions everyone (:func:`abs_sp_partition`);
* Remark 2: EO and equalized-odds queries, attacked slice by slice (:func:`slice_attack`,
  :func:`equalized_odds_reveal`).

Individuals are addressed by position 0..n-1.  ``a_hat`` uses -1 for "could not decode".
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace

import numpy as np
import pandas as pd

from .._core.display import Shown, head_rows, result_html, result_repr
from .._core.optional import optional_import
from .._core.validation import (
    Interval,
    Nullable,
    Options,
    Predicate,
    RandomState,
    as_generator,
    check,
    validate_params,
)
from .._core.warning import warn
from ..errors import InfeasibleError, QueryDesignWarning, param_error
from ._interior_point import basis_pursuit_ipm
from ._validation import check_binary_vector, check_predictions, readonly
from .metrics import leakage_score

#: The declared options shared by the attacks.
_COUNT = Interval("integer", 1)
_BATCH = Nullable(_COUNT)
_FINITE = Interval("real")
_UNIT_OPEN_RIGHT = Interval("real", 0, 1, closed="right")
#: The basis-pursuit LP's solvers: scipy's HiGHS methods, or the dense interior point.
_LP_METHODS = Options("highs", "highs-ds", "highs-ipm", "dense-ipm")

__all__ = [
    "AttackResult",
    "TargetResult",
    "GroupSizeEstimate",
    "single_query_design",
    "decode_single",
    "single_query_reveal",
    "flip_pair_design",
    "decode_flip_pair",
    "flip_pair_reveal",
    "flip_design",
    "flip_design_slogdet",
    "flip_reveal",
    "linear_system_reveal",
    "base_difference_reveal",
    "uniform_perturbation_design",
    "bernoulli_design",
    "cs_reveal",
    "compressed_sensing_reveal",
    "estimate_group_sizes",
    "abs_sp_partition",
    "slice_attack",
    "equalized_odds_reveal",
]


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class AttackResult:
    """What an attack recovered and what it cost.

    Attributes
    ----------
    a_hat : numpy.ndarray of int8, shape (n,)
        Recovered protected attribute: 1, 0, or -1 where the attack could not decode.
        Read-only.
    queries_used : int
        Number of prediction vectors the attack had answered.
    method : str
        Which attack produced it.
    decoded : numpy.ndarray of float, shape (n,)
        The decoded unknown: ``v`` (``1/N_1`` or ``-1/N_0``) for the linear attacks, the
        sparse ``s`` for compressed sensing, ``|SP|`` answers for the partition attack.
    n0, n1 : int or None
        Group sizes the attack recovered or was given.
    partition : numpy.ndarray or None
        For :func:`abs_sp_partition`: 1 for the class of individual 0, 0 for the other,
        -1 undetermined (a partition is a breach even without labels, §3.2).
    leakage : float or None
        Leakage (Def. 5.1) once :meth:`evaluate` has compared with the truth.
    """

    a_hat: np.ndarray
    queries_used: int
    method: str
    decoded: np.ndarray
    n0: int | None = None
    n1: int | None = None
    partition: np.ndarray | None = None
    leakage: float | None = None

    @property
    def n_unknown(self) -> int:
        """How many individuals the attack could not decode."""
        return int((self.a_hat == -1).sum())

    def evaluate(self, a) -> AttackResult:
        """Return a copy with ``leakage`` scored against the true attribute ``a``."""
        return replace(self, leakage=leakage_score(a, self.a_hat))

    def recovered_all(self, a) -> bool:
        """Whether every individual was recovered exactly."""
        return bool(np.array_equal(self.a_hat, np.asarray(a).astype(np.int8)))

    def to_dict(self) -> dict:
        """Plain-Python form."""
        out = {"method": self.method, "queries_used": self.queries_used, "n0": self.n0,
               "n1": self.n1, "leakage": self.leakage, "n_unknown": self.n_unknown,
               "a_hat": self.a_hat.tolist(), "decoded": self.decoded.tolist()}
        if self.partition is not None:
            out["partition"] = self.partition.tolist()
        return out

    def to_frame(self) -> pd.DataFrame:
        """One row per individual: ``a_hat`` and ``decoded`` (and ``partition`` if any)."""
        data = {"a_hat": self.a_hat, "decoded": self.decoded}
        if self.partition is not None:
            data["partition"] = self.partition
        return pd.DataFrame(data, index=pd.RangeIndex(self.a_hat.size, name="individual"))

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, tuple((k, v) for k, v in (
            ("method", self.method), ("individuals", int(self.a_hat.size)),
            ("queries_used", self.queries_used), ("unknown", self.n_unknown),
            ("leakage", self.leakage)) if v is not None),
            None, head_rows(self.to_frame), int(self.a_hat.size))


@dataclass(frozen=True)
class TargetResult:
    """Outcome of a single-target attack (Examples 1 and 2).

    Attributes
    ----------
    target : int
        Position of the targeted individual.
    a_target : int
        Recovered attribute (1 or 0), or -1 if the queries carry no information.
    queries_used : int
    answers : tuple of float
        The answers the attack saw.
    group_size : int or None
        Example 1 also reveals the size of the target's group (``N_1`` if ``a_target = 1``,
        else ``N_0``).
    """

    target: int
    a_target: int
    queries_used: int
    answers: tuple[float, ...]
    group_size: int | None = None

    def to_dict(self) -> dict:
        """Plain-Python form."""
        return asdict(self)

    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, tuple((k, v) for k, v in (
            ("target", self.target), ("a_target", self.a_target),
            ("queries_used", self.queries_used), ("group_size", self.group_size))
            if v is not None))


@dataclass(frozen=True)
class GroupSizeEstimate:
    """Group sizes learnt from one Example-1 query (spec §4.4 (a))."""

    n0: int
    n1: int
    queries_used: int = 1

    def to_dict(self) -> dict:
        """Plain-Python form."""
        return asdict(self)

    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, (("n0", self.n0), ("n1", self.n1),
                                  ("queries_used", self.queries_used)))


def _result(a_hat, queries, method, decoded, n0=None, n1=None, partition=None) -> AttackResult:
    return AttackResult(a_hat=readonly(np.asarray(a_hat, dtype=np.int8).copy()),
                        queries_used=int(queries), method=method,
                        decoded=readonly(np.asarray(decoded, dtype=float).copy()),
                        n0=None if n0 is None else int(n0), n1=None if n1 is None else int(n1),
                        partition=None if partition is None
                        else readonly(np.asarray(partition, dtype=np.int8).copy()))


def _sizes_from(a_hat: np.ndarray) -> tuple[int | None, int | None]:
    if (a_hat == -1).any():
        return None, None
    n1 = int((a_hat == 1).sum())
    return int(a_hat.size - n1), n1


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------

def _check_oracle(oracle, owner: str, metrics=("sp",)):
    for attribute in ("n", "query", "metric"):
        if not hasattr(oracle, attribute):
            raise param_error("oracle", owner, "have 'n', 'metric' and 'query' (a "
                              "ComplianceOracle)", type(oracle).__name__)
    if oracle.metric not in metrics:
        hint = " (wrap EO and equalized-odds oracles with slice_attack)" \
            if oracle.metric in ("eo", "equalized_odds") else ""
        raise param_error("oracle", owner, f"answer one of the metrics {list(metrics)}{hint}",
                          f"an oracle answering {oracle.metric!r}")
    return int(oracle.n)


def _check_vector(h, n: int | None, *, name: str, owner: str) -> np.ndarray:
    try:
        shape = np.shape(h)
    except ValueError:  # ragged nested lists
        shape = "ragged"
    if shape == "ragged" or len(shape) != 1:
        raise param_error(name, owner, "be one-dimensional", f"shape {shape}")
    array, _ = check_predictions(h, shape[0] if n is None else n, owner=owner, name=name,
                                 length_name="oracle.n")
    return array[0]


def _check_target(target, n: int, owner: str) -> int:
    return check(target, Interval("integer", 0, n - 1, text=f"be a position in [0, {n - 1}]"),
                 name="target", owner=owner)


def _answers(values) -> np.ndarray:
    return np.asarray(values, dtype=float).reshape(-1)


def _query_rows(oracle, make_rows, count: int, batch_size: int | None) -> np.ndarray:
    """Ask ``count`` rows ``make_rows(start, stop)`` in batches; return the answers."""
    step = count if batch_size is None else batch_size
    out = [_answers(oracle.query(make_rows(start, min(start + step, count))))
           for start in range(0, count, max(step, 1))]
    return np.concatenate(out) if out else np.zeros(0)




# ---------------------------------------------------------------------------------------------
# Example 1 and Example 2: one target
# ---------------------------------------------------------------------------------------------

@validate_params({"n": Interval("integer", 2), "target_prediction": _UNIT_OPEN_RIGHT})
def single_query_design(n, target, *, target_prediction=1.0) -> np.ndarray:
    """The query of Example 1: ``h(x_target) = c``, every other prediction 0 (``c`` is
    ``target_prediction``; skyprivacy keeps ``c`` for the skyline confidence).

    Parameters
    ----------
    n : int
        Test-set size.
    target : int
        Position of the target.
    target_prediction : float, keyword-only
        Prediction given to the target, in (0, 1] (the soft variant of spec §4.1).

    Returns
    -------
    numpy.ndarray of shape (1, n)

    Examples
    --------
    >>> single_query_design(4, 2)
    array([[0., 0., 1., 0.]])
    """
    target = _check_target(target, n, "single_query_design")
    design = np.zeros((1, n))
    design[0, target] = target_prediction
    return design


@validate_params({"sp": _FINITE})
def decode_single(sp) -> int:
    """Decode Example 1: ``a_target = 1`` iff the answer is positive.

    ``SP = target_prediction/N_1`` if the target is in group 1 and ``-target_prediction/N_0``
    otherwise.

    Parameters
    ----------
    sp : float
        The answer to :func:`single_query_design`.

    Returns
    -------
    int
        1 or 0; -1 (with :class:`QueryDesignWarning`) for an answer of exactly 0.

    Examples
    --------
    >>> decode_single(-0.2), decode_single(1 / 15)
    (0, 1)
    """
    if sp == 0.0:
        warn("An answer of exactly 0 carries no information about the target.",
                      QueryDesignWarning)
        return -1
    return 1 if sp > 0 else 0


@validate_params({"target_prediction": _UNIT_OPEN_RIGHT})
def single_query_reveal(oracle, target, *, target_prediction=1.0) -> TargetResult:
    """Identify one individual's protected attribute with one SP query (Example 1).

    Parameters
    ----------
    oracle : ComplianceOracle
        Answers statistical-parity queries.
    target : int
        Position of the target.
    target_prediction : float, keyword-only
        Prediction given to the target, in (0, 1].

    Returns
    -------
    TargetResult
        The target's attribute, 1 query, and the size of its group
        (``round(target_prediction/|SP|)``).

    References
    ----------
    Hamman, Chen and Dutta, §3, Example 1; spec fairness-queries §4.1.

    Examples
    --------
    >>> from skyprivacy.fairness_queries import AttributeConceal, ComplianceOracle
    >>> oracle = ComplianceOracle([1] * 15 + [0] * 5,
    ...                           mechanism=AttributeConceal(epsilon=math.inf, noise=None))
    >>> single_query_reveal(oracle, 17)
    TargetResult(target=17, a_target=0, queries_used=1, answers=(-0.2,), group_size=5)
    """
    owner = "single_query_reveal"
    n = _check_oracle(oracle, owner)
    design = single_query_design(n, target, target_prediction=target_prediction)
    target = int(target)
    sp = float(_answers(oracle.query(design))[0])
    a_t = decode_single(sp)
    size = None if a_t == -1 else int(min(max(round(float(target_prediction) / abs(sp)), 1),
                                          n - 1))
    return TargetResult(target=target, a_target=a_t, queries_used=1, answers=(sp,),
                        group_size=size)


def flip_pair_design(h1, target) -> np.ndarray:
    """The two queries of Example 2: a model ``h1`` and the same model flipped at the target.

    Parameters
    ----------
    h1 : array-like, shape (n,)
        Any model's predictions in [0, 1].
    target : int

    Returns
    -------
    numpy.ndarray of shape (2, n)
        Row 0 is ``h1``; row 1 equals it except ``1 - h1[target]``.

    Examples
    --------
    >>> flip_pair_design([0.2, 0.9, 0.4], 1)
    array([[0.2, 0.9, 0.4],
           [0.2, 0.1, 0.4]])
    """
    owner = "flip_pair_design"
    h1 = _check_vector(h1, None, name="h1", owner=owner)
    target = _check_target(target, h1.size, owner)
    design = np.vstack([h1, h1])
    design[1, target] = 1.0 - h1[target]
    return design


@validate_params({"sp1": _FINITE, "sp2": _FINITE, "h1_target": Interval("real", 0, 1)})
def decode_flip_pair(sp1, sp2, h1_target) -> int:
    """Decode Example 2 with the spec's correction (§4.2).

    ``d = SP_2 - SP_1 = (1 - 2 h1(x_t)) (1/N_1 if a_t = 1 else -1/N_0)``; the paper's table
    holds only for ``h1(x_t) = 0``.  So ``a_t = 1`` iff ``d (1 - 2 h1(x_t)) > 0``.

    Parameters
    ----------
    sp1, sp2 : float
        Answers for ``h1`` and its flipped copy.
    h1_target : float
        ``h1(x_t)``, in [0, 1].

    Returns
    -------
    int
        1 or 0; -1 with :class:`QueryDesignWarning` when ``h1(x_t) = 1/2`` (the flip
        changes nothing) or the two answers are equal.

    Examples
    --------
    >>> decode_flip_pair(0.3, 0.5, 1.0)  # d = +0.2 with h1(x_t) = 1: group 0
    0
    """
    product = (float(sp2) - float(sp1)) * (1.0 - 2.0 * float(h1_target))
    if product == 0.0:
        warn("The flip pair carries no information about the target (h1(x_t) = 1/2 "
                      "or equal answers).", QueryDesignWarning)
        return -1
    return 1 if product > 0 else 0


def flip_pair_reveal(oracle, h1, target) -> TargetResult:
    """Identify one individual with two realistic models (Example 2, sign-corrected).

    Parameters
    ----------
    oracle : ComplianceOracle
        Answers SP queries.
    h1 : array-like, shape (n,)
        A realistic model's predictions; the attack flips the target's prediction.
    target : int

    Returns
    -------
    TargetResult
        With ``queries_used = 2``.

    References
    ----------
    Hamman, Chen and Dutta, Example 2; spec fairness-queries §4.2 (erratum 2).

    Examples
    --------
    >>> from skyprivacy.fairness_queries import AttributeConceal, ComplianceOracle
    >>> oracle = ComplianceOracle([1] * 16 + [0] * 4,
    ...                           mechanism=AttributeConceal(epsilon=math.inf, noise=None))
    >>> flip_pair_reveal(oracle, [1.0] * 20, 3).a_target
    1
    """
    owner = "flip_pair_reveal"
    n = _check_oracle(oracle, owner)
    design = flip_pair_design(_check_vector(h1, n, name="h1", owner=owner), target)
    sp = _answers(oracle.query(design))
    target = int(target)
    a_t = decode_flip_pair(float(sp[0]), float(sp[1]), float(design[0, target]))
    return TargetResult(target=target, a_target=a_t, queries_used=2,
                        answers=(float(sp[0]), float(sp[1])))


# ---------------------------------------------------------------------------------------------
# Theorem 1 and Algorithm 1: n queries
# ---------------------------------------------------------------------------------------------

def flip_design(h0) -> np.ndarray:
    """The n x n query matrix of Algorithm 1: row i is ``h0`` with entry i flipped.

    ``H[i, j] = h0_j`` for ``i != j`` and ``H[i, i] = 1 - h0_i``; ``H = 1 h0^T + diag(1 - 2 h0)``.

    Parameters
    ----------
    h0 : array-like, shape (n,)
        A base model's predictions in [0, 1].

    Returns
    -------
    numpy.ndarray of shape (n, n)

    Examples
    --------
    >>> flip_design([0.0, 1.0, 0.25])
    array([[1.  , 1.  , 0.25],
           [0.  , 0.  , 0.25],
           [0.  , 1.  , 0.75]])
    """
    h0 = _check_vector(h0, None, name="h0", owner="flip_design")
    design = np.tile(h0, (h0.size, 1))
    np.fill_diagonal(design, 1.0 - h0)
    return design


@validate_params({"tol": Interval("real", 0, 1, closed="left")})
def flip_design_slogdet(h0, *, tol=1e-12) -> tuple[float, float]:
    """Sign and log-|determinant| of :func:`flip_design` in O(n), from its closed form.

    Parameters
    ----------
    h0 : array-like, shape (n,)
    tol : float, keyword-only
        ``|1 - 2 h0_j| <= tol`` counts as ``h0_j = 1/2``.

    Returns
    -------
    (sign, logabsdet) : (float, float)
        As :func:`numpy.linalg.slogdet`; ``(0.0, -inf)`` for a singular design.

    Notes
    -----
    With ``D = diag(1 - 2 h0)`` the matrix is ``D + 1 h0^T``, so
    ``det H = prod_j D_j + sum_j h0_j prod_{k != j} D_k``.  If no ``h0_j`` is 1/2 this is
    ``prod_j (1 - 2 h0_j) (1 + sum_j h0_j / (1 - 2 h0_j))`` (spec §4.3).  If exactly one
    ``h0_t`` is 1/2 it is ``h0_t prod_{k != t} (1 - 2 h0_k) != 0``: the design is still
    invertible (the spec's "any h_0j = 1/2 makes H singular" needs two such entries, which
    make two rows equal).  For a binary ``h0`` the factor
    ``1 + sum h0/(1 - 2h0)`` vanishes exactly when ``h0`` accepts one individual.

    Examples
    --------
    >>> import numpy as np
    >>> h0 = [0.1, 0.7, 0.3, 0.0]
    >>> np.allclose(flip_design_slogdet(h0), np.linalg.slogdet(flip_design(h0)))
    True
    >>> flip_design_slogdet([0.0, 1.0, 0.0])  # exactly one acceptance: singular
    (0.0, -inf)
    """
    h0 = _check_vector(h0, None, name="h0", owner="flip_design_slogdet")
    diag = 1.0 - 2.0 * h0
    half = np.abs(diag) <= tol
    if half.sum() >= 2:
        return 0.0, -math.inf
    if half.sum() == 1:
        rest = diag[~half]
        t = int(np.flatnonzero(half)[0])
        sign = float(np.prod(np.sign(rest))) * math.copysign(1.0, h0[t])
        return sign, float(np.log(np.abs(rest)).sum() + math.log(h0[t]))
    factor = 1.0 + float(np.sum(h0 / diag))
    scale = 1.0 + float(np.sum(np.abs(h0 / diag)))
    if abs(factor) <= 1e-9 * scale:
        return 0.0, -math.inf
    sign = float(np.prod(np.sign(diag))) * math.copysign(1.0, factor)
    return sign, float(np.log(np.abs(diag)).sum() + math.log(abs(factor)))


def _flip_singularity(h0: np.ndarray, tol: float) -> str | None:
    """Why the flip design of h0 is singular, or None."""
    halves = int((np.abs(1.0 - 2.0 * h0) <= tol).sum())
    if halves >= 2:
        return f"{halves} predictions equal 1/2, which makes rows of H equal"
    if flip_design_slogdet(h0, tol=tol)[0] == 0.0:
        return "1 + sum_j h0_j / (1 - 2 h0_j) = 0 (for a binary h0: it accepts exactly " \
               "one individual)"
    return None


def _solve_flip(h0: np.ndarray, sp: np.ndarray, tol: float) -> np.ndarray:
    """Solve the flip system in O(n): row i answers ``SP_base + (1 - 2 h0_i) v_i``."""
    diag = 1.0 - 2.0 * h0
    half = np.abs(diag) <= tol
    if half.any():  # exactly one: its row answers SP_base itself
        t = int(np.flatnonzero(half)[0])
        base = sp[t]
        v = np.empty_like(sp)
        rest = ~half
        v[rest] = (sp[rest] - base) / diag[rest]
        v[t] = (base - float(h0[rest] @ v[rest])) / h0[t]
        return v
    # SP_base = h0 . v and v_i = (SP_i - SP_base) / D_i give SP_base (1 + sum h/D) = sum h SP / D
    base = float(np.sum(h0 * sp / diag)) / (1.0 + float(np.sum(h0 / diag)))
    return (sp - base) / diag


@validate_params({"singular": Options("raise", "base_difference"), "batch_size": _BATCH})
def flip_reveal(oracle, h0, *, singular="raise", batch_size=None, tol=1e-12) -> AttackResult:
    """Reconstruct everyone's attribute from the n flip queries of Algorithm 1.

    Parameters
    ----------
    oracle : ComplianceOracle
        Answers SP queries.
    h0 : array-like, shape (n,)
        A trained base model's predictions (binary or probabilities).
    singular : {"raise", "base_difference"}, keyword-only
        What to do when the flip design is singular (checked before any query is asked):
        raise :class:`InfeasibleError`, or run :func:`base_difference_reveal` instead.
    batch_size : int, optional, keyword-only
        Ask the n queries in batches of this many rows (memory: a batch is dense).
    tol : float, keyword-only
        ``|1 - 2 h0_j| <= tol`` counts as ``h0_j = 1/2``.

    Returns
    -------
    AttackResult
        ``decoded`` is ``v`` (``1/N_1`` on group 1, ``-1/N_0`` on group 0); n queries.

    Raises
    ------
    InfeasibleError
        If the design is singular and ``singular="raise"``.

    Notes
    -----
    The system is solved in O(n) without forming ``H^{-1}``: row i answers
    ``SP_i = h0 . v + (1 - 2 h0_i) v_i``.

    References
    ----------
    Hamman, Chen and Dutta, Theorem 1, Algorithm 1; spec fairness-queries §4.3.

    Examples
    --------
    >>> from skyprivacy.fairness_queries import AttributeConceal, ComplianceOracle
    >>> a = [1, 0, 1, 1, 0, 1]
    >>> oracle = ComplianceOracle(a, mechanism=AttributeConceal(epsilon=math.inf, noise=None))
    >>> result = flip_reveal(oracle, [0.2, 0.9, 0.4, 0.1, 0.6, 0.3])
    >>> result.a_hat.tolist(), result.queries_used, (result.n0, result.n1)
    ([1, 0, 1, 1, 0, 1], 6, (2, 4))
    """
    owner = "flip_reveal"
    n = _check_oracle(oracle, owner)
    h0 = _check_vector(h0, n, name="h0", owner=owner)
    reason = _flip_singularity(h0, tol)
    if reason is not None:
        if singular == "raise":
            raise InfeasibleError(
                f"The flip design of Algorithm 1 is singular for this h0: {reason}. Pass "
                "singular='base_difference' for the n + 1 query variant, or change h0.")
        return base_difference_reveal(oracle, h0, batch_size=batch_size, tol=tol)

    def rows(start, stop):
        block = np.tile(h0, (stop - start, 1))
        idx = np.arange(start, stop)
        block[idx - start, idx] = 1.0 - h0[idx]
        return block

    sp = _query_rows(oracle, rows, n, batch_size)
    v = _solve_flip(h0, sp, tol)
    a_hat = np.where(v > 0, 1, 0)
    n0, n1 = _sizes_from(a_hat)
    return _result(a_hat, n, "flip", v, n0, n1)


@validate_params({"batch_size": _BATCH})
def base_difference_reveal(oracle, h0, *, batch_size=None, tol=1e-12) -> AttackResult:
    """Reconstruct everyone with n + 1 queries and no matrix solve (spec §4.3, robust variant).

    Asks ``SP_0`` for ``h0`` and ``SP_j`` for ``h0`` flipped at j; then
    ``v_j = (SP_j - SP_0) / (1 - 2 h0_j)`` (Example 2 applied to everyone).

    Parameters
    ----------
    oracle : ComplianceOracle
        Answers SP queries.
    h0 : array-like, shape (n,)
        Base predictions.  Individuals with ``h0_j = 1/2`` cannot be decoded: they get -1 in
        ``a_hat`` (with :class:`QueryDesignWarning`) and are not queried.
    batch_size : int, optional, keyword-only
        Ask the flipped queries in batches.
    tol : float, keyword-only
        ``|1 - 2 h0_j| <= tol`` counts as ``h0_j = 1/2``.

    Returns
    -------
    AttackResult
        ``queries_used`` is 1 plus the number of decodable individuals.

    Examples
    --------
    >>> from skyprivacy.fairness_queries import AttributeConceal, ComplianceOracle
    >>> oracle = ComplianceOracle([1, 0, 1], mechanism=AttributeConceal(epsilon=math.inf,
    ...                                                                 noise=None))
    >>> r = base_difference_reveal(oracle, [0.0, 1.0, 0.0])  # Algorithm 1 is singular here
    >>> r.a_hat.tolist(), r.queries_used
    ([1, 0, 1], 4)
    """
    owner = "base_difference_reveal"
    n = _check_oracle(oracle, owner)
    h0 = _check_vector(h0, n, name="h0", owner=owner)
    diag = 1.0 - 2.0 * h0
    decodable = np.flatnonzero(np.abs(diag) > tol)
    if decodable.size < n:
        warn(f"{n - decodable.size} individual(s) have h0 = 1/2: flipping their "
                      "prediction changes nothing, so they stay undecoded (-1).",
                      QueryDesignWarning)

    def rows(start, stop):
        idx = decodable[start:stop]
        block = np.tile(h0, (idx.size, 1))
        block[np.arange(idx.size), idx] = 1.0 - h0[idx]
        return block

    sp0 = float(_answers(oracle.query(h0[None, :]))[0])
    sp = _query_rows(oracle, rows, decodable.size, batch_size)
    v = np.full(n, np.nan)
    v[decodable] = (sp - sp0) / diag[decodable]
    a_hat = np.full(n, -1)
    a_hat[decodable] = np.where(v[decodable] > 0, 1, 0)
    n0, n1 = _sizes_from(a_hat)
    return _result(a_hat, 1 + decodable.size, "base_difference", v, n0, n1)


def _check_matrix_answers(H, sp, owner):
    H = np.asarray(H)
    if H.ndim != 2:
        raise param_error("H", owner, "be a two-dimensional (m, n) query matrix",
                          f"shape {H.shape}")
    H, _ = check_predictions(H, H.shape[1], owner=owner, name="H")
    answers = np.array(sp, dtype=float).reshape(-1) if np.ndim(sp) <= 1 else None
    if answers is None or answers.size != H.shape[0]:
        raise param_error("sp", owner, f"be one answer per row of H ({H.shape[0]})",
                          f"shape {np.shape(sp)}")
    if not np.isfinite(answers).all():
        raise param_error("sp", owner, "be finite", answers[~np.isfinite(answers)][0].item())
    return H, answers


def linear_system_reveal(H, sp) -> AttackResult:
    """Reconstruct everyone by solving ``SP = H v`` (Theorem 1).

    Parameters
    ----------
    H : array-like, shape (m, n)
        The query matrix (rows are models' predictions).
    sp : array-like, shape (m,)
        The SP answers.

    Returns
    -------
    AttackResult
        ``decoded = v`` (least squares when m > n); ``a_j = 1`` iff ``v_j > 0``.

    Warns
    -----
    QueryDesignWarning
        If ``rank(H) < n``: Theorem 1 does not apply and the minimum-norm solution need not
        reveal the attribute.

    References
    ----------
    Hamman, Chen and Dutta, Theorem 1 and eq. (2); spec fairness-queries §4.3.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[1, 0, 0], [1, 1, 0], [0, 1, 1.0]])
    >>> v = np.array([0.5, 0.5, -1.0])  # a = [1, 1, 0]
    >>> linear_system_reveal(H, H @ v).a_hat.tolist()
    [1, 1, 0]
    """
    owner = "linear_system_reveal"
    H, answers = _check_matrix_answers(H, sp, owner)
    m, n = H.shape
    rank = int(np.linalg.matrix_rank(H))
    if rank < n:
        warn(f"rank(H) = {rank} < n = {n}: Theorem 1 needs full column rank; the "
                      "least-squares decoding is not unique and may not reveal everyone.",
                      QueryDesignWarning)
    v = np.linalg.lstsq(H, answers, rcond=None)[0]
    a_hat = np.where(v > 0, 1, 0)
    n0, n1 = _sizes_from(a_hat)
    return _result(a_hat, m, "linear_system", v, n0, n1)


# ---------------------------------------------------------------------------------------------
# Theorem 2 and Algorithm 2: compressed sensing
# ---------------------------------------------------------------------------------------------

@validate_params({"n_queries": _COUNT, "half_width": _UNIT_OPEN_RIGHT,
                  "random_state": RandomState()})
def uniform_perturbation_design(h0, *, n_queries, half_width=0.1, random_state=None) -> np.ndarray:
    """Algorithm 2's realistic queries: ``clip(h0 + U(-w, w), 0, 1)``, i.i.d. per entry.

    Parameters
    ----------
    h0 : array-like, shape (n,)
        Base model scores (probabilities).
    n_queries : int, keyword-only
        Number of perturbed models (the paper's m).
    half_width : float, keyword-only
        ``w``, in (0, 1]; the paper uses 0.1.
    random_state : None, int or numpy.random.Generator, keyword-only

    Returns
    -------
    numpy.ndarray of shape (m, n)

    Notes
    -----
    Theorem 2 is proven for random binary H only; this real-valued design is empirical
    (spec §4.4, erratum 8).

    Examples
    --------
    >>> H = uniform_perturbation_design([0.5, 0.95, 0.02], n_queries=4, random_state=0)
    >>> H.shape, bool(((H >= 0) & (H <= 1)).all())
    ((4, 3), True)
    """
    h0 = _check_vector(h0, None, name="h0", owner="uniform_perturbation_design")
    w = float(half_width)
    rng = as_generator(random_state)
    return np.clip(h0[None, :] + rng.uniform(-w, w, size=(n_queries, h0.size)), 0.0, 1.0)


@validate_params({"n": _COUNT, "n_queries": _COUNT, "p": Interval("real", 0, 1, closed="neither"),
                  "random_state": RandomState()})
def bernoulli_design(n, *, n_queries, p=0.5, random_state=None) -> np.ndarray:
    """Random binary predictors with i.i.d. Bernoulli(p) entries (Theorem 2's hypothesis).

    Parameters
    ----------
    n : int
        Test-set size.
    n_queries : int, keyword-only
        Number of queries (the paper's m).
    p : float, keyword-only
        Acceptance probability, in (0, 1).
    random_state : None, int or numpy.random.Generator, keyword-only

    Returns
    -------
    numpy.ndarray of shape (m, n), float 0/1 entries

    Examples
    --------
    >>> bernoulli_design(5, n_queries=2, random_state=0).shape
    (2, 5)
    """
    rng = as_generator(random_state)
    return (rng.random((n_queries, n)) < p).astype(float)


def _basis_pursuit(H, eta, *, nonneg, alpha_column, method, owner):
    """min ||s||_1 s.t. H s (+ alpha col) = eta, as an LP; returns (s, alpha)."""
    m, n = H.shape
    blocks = [H] if nonneg else [H, -H]
    if alpha_column is not None:
        blocks.insert(0, alpha_column[:, None])

    def solve(eta):
        if method == "dense-ipm":
            res = basis_pursuit_ipm(H, eta, split=not nonneg, column=alpha_column)
            return res.x, (0 if res.status < 2 else 2), res.message
        linprog = optional_import("scipy.optimize", owner=owner).linprog
        cost = np.ones(n if nonneg else 2 * n)
        if alpha_column is not None:
            cost = np.concatenate([[0.0], cost])
        res = linprog(cost, A_eq=np.hstack(blocks), b_eq=eta, bounds=(0, None), method=method)
        return res.x, res.status, res.message

    x, status, message = solve(eta)
    if status == 2 and not nonneg:
        A = np.hstack(blocks)
        projected = A @ np.linalg.lstsq(A, eta, rcond=None)[0]
        if np.linalg.norm(projected - eta) > 1e-9 * (1.0 + np.linalg.norm(eta)):
            # Noisy answers with rank(H) < m: decode the least-squares projection of eta.
            warn("The answers are inconsistent with H (noisy answers and rank(H) < m); "
                 "decoding the least-squares projection of eta onto the range of H.",
                 QueryDesignWarning)
            x, status, message = solve(projected)
    if status != 0:
        hint = " With noisy answers use decoder='bp' (nonnegativity may be infeasible)." \
            if nonneg and status == 2 else ""
        raise InfeasibleError(f"The basis-pursuit LP of {owner} failed: {message} "
                              f"(status {status}).{hint}")
    alpha = None
    if alpha_column is not None:
        alpha, x = float(x[0]), x[1:]
    s = x if nonneg else x[:n] - x[n:]
    return s, alpha


def _omp(H: np.ndarray, eta: np.ndarray, sparsity: int, tol: float = 1e-10) -> np.ndarray:
    """Orthogonal matching pursuit with at most ``sparsity`` atoms."""
    m, n = H.shape
    norms = np.linalg.norm(H, axis=0)
    norms[norms == 0] = 1.0
    residual = eta.copy()
    support: list[int] = []
    coef = np.zeros(0)
    target = tol * max(float(np.linalg.norm(eta)), 1e-300)
    for _ in range(min(sparsity, m, n)):
        scores = np.abs(H.T @ residual) / norms
        scores[support] = -1.0
        support.append(int(np.argmax(scores)))
        coef = np.linalg.lstsq(H[:, support], eta, rcond=None)[0]
        residual = eta - H[:, support] @ coef
        if np.linalg.norm(residual) <= target:
            break
    s = np.zeros(n)
    s[support] = coef
    return s


def _largest_gap_threshold(s: np.ndarray) -> float:
    ordered = np.sort(s)
    gaps = np.diff(ordered)
    i = int(np.argmax(gaps))
    return float((ordered[i] + ordered[i + 1]) / 2.0)


@validate_params({"n1": Nullable(_COUNT), "n0": Nullable(_COUNT), "minority": Options(0, 1),
                  "decoder": Options("bp", "bp_nonneg", "omp"),
                  "threshold": Nullable(_FINITE), "sign": Options("corrected", "paper"),
                  "lp_method": _LP_METHODS})
def cs_reveal(H, sp, *, n1=None, n0=None, minority=0, decoder="bp", threshold=None,
              sign="corrected", lp_method="highs") -> AttackResult:
    """Reconstruct everyone from m << n SP answers by compressed sensing (Theorem 2, Alg. 2).

    Parameters
    ----------
    H : array-like, shape (m, n)
        The query matrix.
    sp : array-like, shape (m,)
        The SP answers.
    n1, n0 : int, optional, keyword-only
        Group sizes (side knowledge or from :func:`estimate_group_sizes`); give one or both.
        With neither, ``alpha = 1/N_{majority}`` becomes a free LP variable and ``s`` is
        split at its largest gap (spec §4.4 (b)).
    minority : {0, 1}, keyword-only
        Which group is the small one (the sparse support).  Ignored when the sizes are
        given (the smaller one is used).
    decoder : {"bp", "bp_nonneg", "omp"}, keyword-only
        Basis pursuit ``min ||s||_1 s.t. H s = eta`` as an LP (default); the same with
        ``s >= 0`` (the true s is nonnegative; never worse noiselessly, may be infeasible
        with noisy answers); orthogonal matching pursuit with sparsity ``N_min``.
    threshold : float, optional, keyword-only
        Decision threshold on ``s``; default the midpoint ``(1/N_1 + 1/N_0)/2`` (A.7).
    sign : {"corrected", "paper"}, keyword-only
        ``"corrected"``: ``eta = H r - SP``.  ``"paper"``: Algorithm 2 line 7's
        ``eta = SP - H r``, which decodes ``-s`` and labels everyone as the majority; kept
        only to reproduce the erratum.
    lp_method : {"highs", "highs-ds", "highs-ipm", "dense-ipm"}, keyword-only
        How the basis-pursuit LP is solved: a ``method`` of :func:`scipy.optimize.linprog`
        (HiGHS), or ``"dense-ipm"``, the package's primal-dual interior point on the m x m
        normal equations (m^2 n / 2 multiply-adds per iteration, a few dozen iterations).
        With a dense H and m in the hundreds or more it is many times faster than HiGHS
        and decodes the same labels (``benchmarks/bench_cs_lp.py``, quoted in
        ``docs/fairness_queries.md``).

    Returns
    -------
    AttackResult
        ``decoded = s``; ``queries_used = m``.  With ``m >= n`` and full column rank the
        call is dispatched to :func:`linear_system_reveal`.

    Raises
    ------
    InfeasibleError
        If the LP fails.
    ImportError
        If scipy is missing (LP decoders).

    Notes
    -----
    With the minority in group 0, ``v = r - s`` where ``r = (1/N_1) 1`` and
    ``s_j = (1/N_1 + 1/N_0) [a_j = 0]`` is ``N_0``-sparse and nonnegative, so
    ``eta = H r - SP = H s``.  With the minority in group 1, ``r = -(1/N_0) 1``,
    ``s_j = (1/N_1 + 1/N_0) [a_j = 1]`` and ``eta = SP + (1/N_0) H 1``.

    References
    ----------
    Hamman, Chen and Dutta, Theorem 2, eq. (1), eq. (3), Algorithm 2, A.2, A.7; Candes and
    Tao (2005); spec fairness-queries §4.4 (erratum 1: the sign of eta).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> a = np.ones(200, dtype=int); a[rng.choice(200, 4, replace=False)] = 0
    >>> H = bernoulli_design(200, n_queries=40, random_state=1)
    >>> sp = H @ np.where(a == 1, 1 / 196, -1 / 4)
    >>> cs_reveal(H, sp, n0=4).recovered_all(a)
    True
    >>> int(cs_reveal(H, sp, n0=4, sign="paper").a_hat.min())  # everyone labelled 1
    1
    """
    owner = "cs_reveal"
    H, answers = _check_matrix_answers(H, sp, owner)
    m, n = H.shape
    if n0 is not None or n1 is not None:
        if n0 is None:
            n0 = check(n - n1, _COUNT, name="n0", owner=owner)
        if n1 is None:
            n1 = check(n - n0, _COUNT, name="n1", owner=owner)
        if n0 + n1 != n:
            raise param_error("n1", owner, f"satisfy n0 + n1 = n = {n}", f"n0={n0}, n1={n1}")
        minority = 0 if n0 <= n1 else 1
    if m >= n and int(np.linalg.matrix_rank(H)) == n:
        return linear_system_reveal(H, answers)

    row_sums = H.sum(axis=1)
    flip = -1.0 if sign == "paper" else 1.0
    if n0 is not None:
        if minority == 0:
            eta = flip * (row_sums / n1 - answers)
        else:
            eta = flip * (answers + row_sums / n0)
        if decoder == "omp":
            s = _omp(H, eta, min(n0, n1))
        else:
            s, _ = _basis_pursuit(H, eta, nonneg=decoder == "bp_nonneg", alpha_column=None,
                                  method=lp_method, owner=owner)
        cut = (1.0 / n1 + 1.0 / n0) / 2.0 if threshold is None else threshold
    else:
        if decoder == "omp":
            raise param_error("decoder", owner, "be 'bp' or 'bp_nonneg' when the group sizes "
                              "are unknown (OMP needs the sparsity N_min)", decoder)
        # SP = alpha H1 - H s (minority 0) or SP = -alpha H1 + H s (minority 1).
        sgn = 1.0 if minority == 0 else -1.0
        s, _ = _basis_pursuit(-sgn * H, flip * answers, nonneg=decoder == "bp_nonneg",
                              alpha_column=sgn * row_sums, method=lp_method, owner=owner)
        cut = _largest_gap_threshold(s) if threshold is None else threshold
    in_minority = s > cut
    a_hat = np.where(in_minority, minority, 1 - minority)
    k = int(in_minority.sum())
    if n0 is None:
        n0, n1 = (k, n - k) if minority == 0 else (n - k, k)
    return _result(a_hat, m, f"cs_{decoder}", s, n0, n1)


def estimate_group_sizes(oracle) -> GroupSizeEstimate:
    """Learn ``N_0`` and ``N_1`` with one Example-1 query (spec §4.4 (a)).

    Parameters
    ----------
    oracle : ComplianceOracle
        Answers SP queries.

    Returns
    -------
    GroupSizeEstimate
        ``round(1/|SP|)`` is the size of individual 0's group; the other is ``n`` minus it.

    Examples
    --------
    >>> from skyprivacy.fairness_queries import AttributeConceal, ComplianceOracle
    >>> oracle = ComplianceOracle([1] * 7 + [0] * 3,
    ...                           mechanism=AttributeConceal(epsilon=math.inf, noise=None))
    >>> estimate_group_sizes(oracle)
    GroupSizeEstimate(n0=3, n1=7, queries_used=1)
    """
    n = _check_oracle(oracle, "estimate_group_sizes")
    single = single_query_reveal(oracle, 0)
    if single.group_size is None:
        raise InfeasibleError("The group-size query was answered with exactly 0.")
    if single.a_target == 1:
        return GroupSizeEstimate(n0=n - single.group_size, n1=single.group_size)
    return GroupSizeEstimate(n0=single.group_size, n1=n - single.group_size)


@validate_params({"n_queries": _COUNT, "design": Options("bernoulli", "perturbation"),
                  "random_state": RandomState(), "lp_method": _LP_METHODS})
def compressed_sensing_reveal(oracle, *, n_queries, design="bernoulli", h0=None, half_width=0.1,
                              p=0.5, decoder="bp", group_sizes="query", minority=0,
                              random_state=None, lp_method="highs") -> AttackResult:
    """Audit: how much of ``a`` do m compressed-sensing queries reveal? (Algorithm 2)

    Designs the queries, has the oracle answer them and decodes with :func:`cs_reveal`.

    Parameters
    ----------
    oracle : ComplianceOracle
        Answers SP queries.
    n_queries : int, keyword-only
        Number of design queries (the paper's m); O(N_min log(n/N_min)) suffice (Theorem 2,
        no constant given: spec §4.4 reports m = 80 for n = 1000, N_0 = 10 with a Bernoulli
        design).
    design : {"bernoulli", "perturbation"}, keyword-only
        Random binary predictors (Theorem 2) or ``clip(h0 + U(-w, w))`` (Algorithm 2).
    h0 : array-like, shape (n,), optional, keyword-only
        Base scores for ``design="perturbation"``.
    half_width, p : float, keyword-only
        Parameters of the two designs.
    decoder : {"bp", "bp_nonneg", "omp"}, keyword-only
    group_sizes : {"query", "lp"} or (n0, n1), keyword-only
        ``"query"``: one extra Example-1 query; ``"lp"``: the free-alpha LP (no extra query;
        ``minority`` says which group is small); a pair: side knowledge (the paper's
        assumption).
    minority : {0, 1}, keyword-only
        For ``group_sizes="lp"``.
    random_state : None, int or numpy.random.Generator, keyword-only
    lp_method : {"highs", "highs-ds", "highs-ipm", "dense-ipm"}, keyword-only
        The LP solver, as in :func:`cs_reveal`.

    Returns
    -------
    AttackResult
        ``queries_used`` counts the design queries plus the group-size query if any.

    Examples
    --------
    >>> import numpy as np
    >>> from skyprivacy.fairness_queries import AttributeConceal, ComplianceOracle
    >>> a = np.ones(300, dtype=int); a[::50] = 0  # N_0 = 6
    >>> oracle = ComplianceOracle(a, mechanism=AttributeConceal(epsilon=math.inf, noise=None))
    >>> r = compressed_sensing_reveal(oracle, n_queries=60, random_state=0)
    >>> r.recovered_all(a), r.queries_used, (r.n0, r.n1)
    (True, 61, (6, 294))
    """
    owner = "compressed_sensing_reveal"
    n = _check_oracle(oracle, owner)
    rng = as_generator(random_state)
    extra = 0
    sizes: dict = {}
    if isinstance(group_sizes, tuple):
        if len(group_sizes) != 2:
            raise param_error("group_sizes", owner, "be 'query', 'lp' or an (n0, n1) pair",
                              group_sizes)
        sizes = {"n0": group_sizes[0], "n1": group_sizes[1]}
    else:
        check(group_sizes, Options("query", "lp"), name="group_sizes", owner=owner)
    if design == "perturbation":
        if h0 is None:
            raise param_error("h0", owner, "be given for design='perturbation'", None)
        H = uniform_perturbation_design(_check_vector(h0, n, name="h0", owner=owner),
                                        n_queries=n_queries, half_width=half_width,
                                        random_state=rng)
    else:
        H = bernoulli_design(n, n_queries=n_queries, p=p, random_state=rng)
    if group_sizes == "query":
        estimate = estimate_group_sizes(oracle)
        sizes = {"n0": estimate.n0, "n1": estimate.n1}
        extra = estimate.queries_used
    answers = _answers(oracle.query(H))
    result = cs_reveal(H, answers, minority=minority, decoder=decoder, lp_method=lp_method,
                       **sizes)
    return replace(result, queries_used=result.queries_used + extra)


# ---------------------------------------------------------------------------------------------
# Theorem 3: absolute SP
# ---------------------------------------------------------------------------------------------

@validate_params({"tol": Interval("real", 0, 1, closed="neither"),
                  "smaller_label": Options(0, 1, None), "batch_size": _BATCH})
def abs_sp_partition(oracle, *, tol=1e-9, known_member=None, smaller_label=0,
                     batch_size=None) -> AttackResult:
    """Partition everyone into the two groups from absolute-SP answers (Theorem 3, A.3).

    Parameters
    ----------
    oracle : ComplianceOracle
        Answers ``abs_sp`` (or ``sp``; only magnitudes are used).
    tol : float, keyword-only
        Relative tolerance for comparing answers (never ``==``).
    known_member : (int, int), optional, keyword-only
        Side knowledge ``(position, label)`` that names the classes.
    smaller_label : {0, 1, None}, keyword-only
        Side knowledge "the smaller class is group ``smaller_label``" (§3.2: the
        disadvantaged group is the minority), used without ``known_member``.  None leaves
        the classes unnamed.

    Returns
    -------
    AttackResult
        ``partition`` (1 = individual 0's class), ``a_hat`` when the side knowledge names
        the classes (else all -1), n queries.

    Notes
    -----
    Query ``e_0``: ``|SP| = 1/N_alpha``.  If ``N_alpha != N_beta``, query each ``e_j``:
    ``|SP| = 1/N_alpha`` means j is in individual 0's class.  If ``N_alpha = N_beta``, query
    ``e_0 + e_j``: ``2/N_alpha`` means the same class, 0 the other.

    References
    ----------
    Hamman, Chen and Dutta, Theorem 3 and A.3; spec fairness-queries §4.5.

    Examples
    --------
    >>> from skyprivacy.fairness_queries import AttributeConceal, ComplianceOracle
    >>> mech = AttributeConceal(epsilon=math.inf, noise=None, metric="abs_sp")
    >>> oracle = ComplianceOracle([1, 1, 0, 1, 0, 1, 1, 0, 1, 1], mechanism=mech)
    >>> r = abs_sp_partition(oracle)
    >>> r.a_hat.tolist(), r.queries_used
    ([1, 1, 0, 1, 0, 1, 1, 0, 1, 1], 10)
    """
    owner = "abs_sp_partition"
    n = _check_oracle(oracle, owner, metrics=("abs_sp", "sp"))
    tol = float(tol)
    if known_member is not None:
        ok = (isinstance(known_member, tuple) and len(known_member) == 2
              and isinstance(known_member[0], (int, np.integer)) and 0 <= known_member[0] < n
              and known_member[1] in (0, 1))
        if not ok:
            raise param_error("known_member", owner, f"be a (position in [0, {n - 1}], label "
                              "in {0, 1}) pair", known_member)

    first = abs(float(_answers(oracle.query(single_query_design(n, 0)))[0]))
    if first == 0.0:
        raise InfeasibleError("The first absolute-SP answer is 0; the group sizes cannot be "
                              "read from it.")
    n_alpha = int(min(max(round(1.0 / first), 1), n - 1))
    n_beta = n - n_alpha
    others = np.arange(1, n)

    def close(x, target):
        return np.abs(x - target) <= tol * max(abs(target), 1.0 / n)

    if n_alpha != n_beta:
        def rows(start, stop):
            block = np.zeros((stop - start, n))
            block[np.arange(stop - start), others[start:stop]] = 1.0
            return block
        answers = np.abs(_query_rows(oracle, rows, n - 1, batch_size))
        same, other = close(answers, 1.0 / n_alpha), close(answers, 1.0 / n_beta)
    else:
        def rows(start, stop):
            block = np.zeros((stop - start, n))
            block[:, 0] = 1.0
            block[np.arange(stop - start), others[start:stop]] = 1.0
            return block
        answers = np.abs(_query_rows(oracle, rows, n - 1, batch_size))
        same, other = close(answers, 2.0 / n_alpha), close(answers, 0.0)
    partition = np.full(n, -1)
    partition[0] = 1
    partition[1:] = np.where(same & ~other, 1, np.where(other & ~same, 0, -1))
    if (partition == -1).any():
        warn(f"{int((partition == -1).sum())} answer(s) match neither class (noisy "
                      "answers?); those individuals stay undetermined (-1).",
                      QueryDesignWarning)

    alpha_label = None
    if known_member is not None:
        pos, label = int(known_member[0]), int(known_member[1])
        if partition[pos] != -1:
            alpha_label = label if partition[pos] == 1 else 1 - label
    elif smaller_label is not None and n_alpha != n_beta:
        alpha_label = smaller_label if n_alpha < n_beta else 1 - smaller_label
    if alpha_label is None:
        a_hat = np.full(n, -1)
    else:
        a_hat = np.where(partition == 1, alpha_label,
                         np.where(partition == 0, 1 - alpha_label, -1))
    decoded = np.concatenate([[first], answers])
    n0, n1 = _sizes_from(a_hat)
    return _result(a_hat, n, "abs_sp_partition", decoded, n0, n1, partition=partition)


# ---------------------------------------------------------------------------------------------
# Remark 2: equal opportunity and equalized odds
# ---------------------------------------------------------------------------------------------

class _SliceOracle:
    """Presents an EO / equalized-odds oracle as an SP oracle over one label slice."""

    metric = "sp"

    def __init__(self, oracle, members: np.ndarray, column: int | None):
        self._oracle = oracle
        self._members = members
        self._column = column

    @property
    def n(self) -> int:
        return int(self._members.size)

    def query(self, preds):
        h, _ = check_predictions(preds, self.n, owner="slice_attack",
                                 length_name="the slice size")
        full = np.zeros((h.shape[0], self._oracle.n))
        full[:, self._members] = h
        values = np.asarray(self._oracle.query(full))
        return values[:, self._column] if self._column is not None else values


@validate_params({"attack": Predicate(callable, "be a callable taking the slice oracle"),
                  "slice": Options(1, 0)})
def slice_attack(oracle, attack, *, slice=1, y=None):
    """Run an SP attack through EO or equalized-odds answers, on one label slice (Remark 2).

    EO answers are SP restricted to ``{j : y_j = 1}``; equalized-odds answers carry the
    slices ``y = 1`` (TPR gap) and ``y = 0`` (FPR gap).  Any attack above runs unchanged on
    the slice, with positions and predictions indexed inside it.

    Parameters
    ----------
    oracle : ComplianceOracle
        Answers ``"eo"`` (slice 1 only) or ``"equalized_odds"``.
    attack : callable
        ``attack(slice_oracle) -> AttackResult | TargetResult``, for instance
        ``lambda o: flip_reveal(o, h0_slice)``; the slice oracle answers SP over the slice
        (its ``n`` is the slice size).
    slice : {1, 0}, keyword-only
        Which label slice to attack.
    y : array-like of 0/1, optional, keyword-only
        The public labels; default ``oracle.y``.

    Returns
    -------
    AttackResult or TargetResult
        Mapped back to the full data set: individuals outside the slice get -1 (``a_hat``)
        and NaN (``decoded``); a target position is translated back.

    References
    ----------
    Hamman, Chen and Dutta, Remark 2; spec fairness-queries §4.6.

    Examples
    --------
    >>> from skyprivacy.fairness_queries import AttributeConceal, ComplianceOracle
    >>> a, y = [1, 1, 1, 1, 1, 0, 0, 0], [1, 0, 1, 1, 0, 1, 0, 1]
    >>> mech = AttributeConceal(epsilon=math.inf, noise=None, metric="eo")
    >>> oracle = ComplianceOracle(a, y, mechanism=mech)
    >>> r = slice_attack(oracle, lambda o: flip_reveal(o, [0.1, 0.2, 0.3, 0.4, 0.3]))
    >>> r.a_hat.tolist()  # the y = 0 individuals stay unknown
    [1, -1, 1, 1, -1, 0, -1, 0]
    """
    owner = "slice_attack"
    _check_oracle(oracle, owner, metrics=("eo", "equalized_odds"))
    if oracle.metric == "eo" and slice == 0:
        raise param_error("slice", owner, "be 1 for an EO oracle (EO answers reveal only the "
                          "slice y = 1)", slice)
    labels = oracle.y if y is None else y
    if labels is None:
        raise param_error("y", owner, "be given (the oracle has no public labels)", None)
    labels = check_binary_vector(labels, name="y", owner=owner, length=oracle.n,
                                 length_name="oracle.n")
    members = np.flatnonzero(labels == slice)
    column = None if oracle.metric == "eo" else (0 if slice == 1 else 1)
    result = attack(_SliceOracle(oracle, members, column))
    if isinstance(result, TargetResult):
        return replace(result, target=int(members[result.target]))
    if not isinstance(result, AttackResult):
        raise param_error("attack", owner, "return an AttackResult or a TargetResult",
                          type(result).__name__)
    a_hat = np.full(oracle.n, -1)
    a_hat[members] = result.a_hat
    decoded = np.full(oracle.n, np.nan)
    decoded[members] = result.decoded
    partition = None
    if result.partition is not None:
        partition = np.full(oracle.n, -1)
        partition[members] = result.partition
    return _result(a_hat, result.queries_used, f"slice_y={slice}:{result.method}", decoded,
                   result.n0, result.n1, partition)


def equalized_odds_reveal(oracle, pos_attack, neg_attack, *, y=None) -> AttackResult:
    """Reveal everyone from equalized-odds answers: attack both label slices (Remark 2).

    Parameters
    ----------
    oracle : ComplianceOracle
        Answers ``"equalized_odds"``.
    pos_attack, neg_attack : callable
        Whole-slice attacks (as in :func:`slice_attack`) for the slices ``y = 1`` and
        ``y = 0``.
    y : array-like, optional, keyword-only
        Public labels; default ``oracle.y``.

    Returns
    -------
    AttackResult
        Both slices combined; ``queries_used`` is the sum; ``n0``/``n1`` are the totals.

    References
    ----------
    Hamman, Chen and Dutta, Remark 2; spec fairness-queries §4.6.

    Examples
    --------
    >>> from skyprivacy.fairness_queries import AttributeConceal, ComplianceOracle
    >>> a, y = [1, 1, 1, 1, 1, 0, 0, 0], [1, 0, 1, 1, 0, 1, 0, 1]
    >>> mech = AttributeConceal(epsilon=math.inf, noise=None, metric="equalized_odds")
    >>> r = equalized_odds_reveal(ComplianceOracle(a, y, mechanism=mech),
    ...                           lambda o: flip_reveal(o, [0.1, 0.2, 0.3, 0.4, 0.3]),
    ...                           lambda o: flip_reveal(o, [0.2, 0.1, 0.3]))
    >>> r.a_hat.tolist(), r.queries_used
    ([1, 1, 1, 1, 1, 0, 0, 0], 8)
    """
    owner = "equalized_odds_reveal"
    _check_oracle(oracle, owner, metrics=("equalized_odds",))
    pos = slice_attack(oracle, pos_attack, slice=1, y=y)
    neg = slice_attack(oracle, neg_attack, slice=0, y=y)
    if not isinstance(pos, AttackResult) or not isinstance(neg, AttackResult):
        raise param_error("pos_attack", owner, "return an AttackResult (a whole-slice "
                          "attack), and so must neg_attack", type(pos).__name__)
    covered = pos.a_hat != -1
    a_hat = np.where(covered, pos.a_hat, neg.a_hat)
    decoded = np.where(np.isnan(pos.decoded), neg.decoded, pos.decoded)
    n0 = n1 = None
    if (pos.n0 is not None and pos.n1 is not None
            and neg.n0 is not None and neg.n1 is not None):
        n0, n1 = pos.n0 + neg.n0, pos.n1 + neg.n1
    return _result(a_hat, pos.queries_used + neg.queries_used,
                   f"equalized_odds:{pos.method.split(':', 1)[1]}", decoded, n0, n1)
