"""Local, smooth and global sensitivities of the fairness queries, in closed form.

Implements spec fairness-queries §5-§7 (Hamman, Chen and Dutta, §4.1, Theorems 4-7, A.4-A.6),
with the spec's corrections:

* the smooth sensitivity of SP uses the *minority* group (Theorem 5's closed form silently
  assumes ``2 <= N_0 <= N_1``; taken literally for ``N_0 > N_1`` it under-estimates);
* the sensitivity of ``|SP|`` is larger than Theorem 7 / A.6 state (``m/2``, ``m/N_0``);
* the equal-opportunity gap's global sensitivity uses ``n^+``, not ``n``;
* equalized odds (not in the paper) takes the worse of its two label slices.

Neighbouring data sets differ in one protected attribute ``a_j``; ``X``, ``Y`` and the query
matrix ``H`` are fixed, and both groups stay non-empty (universe D, spec §3.2).  Every bound
is the worst case over all predictions in [0, 1], so it never depends on ``H``.

Exact ``fractions.Fraction`` results are available (``exact=True``) for every sensitivity that
is rational; smooth sensitivities involve ``exp(-k beta)`` and are floats.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .._core.validation import Boolean, Interval, Options, check, validate_params
from .._core.warning import warn
from ..errors import UnsafeConstantWarning
from ._validation import QUERIES, SIZE, check_sizes

__all__ = [
    "local_sensitivity_sp",
    "smooth_sensitivity_sp",
    "global_sensitivity_sp",
    "local_sensitivity_abs_sp",
    "smooth_sensitivity_abs_sp",
    "global_sensitivity_abs_sp",
    "local_sensitivity_eo",
    "smooth_sensitivity_eo",
    "global_sensitivity_eo",
    "local_sensitivity_equalized_odds",
    "smooth_sensitivity_equalized_odds",
    "global_sensitivity_equalized_odds",
    "global_sensitivity_prp",
    "smooth_sensitivity_lattice",
    "smooth_sensitivity_lattice_2d",
    "attribute_conceal_beta",
]


#: The declared options of the sensitivities.
_BETA = Interval("real", 0, closed="left")
_EXACT = Boolean()
_COUNTED = {"n_queries": QUERIES, "exact": _EXACT}
_SMOOTH = {"n_queries": QUERIES, "beta": _BETA}


def _ls_sp_fraction(n: int, n0: int) -> Fraction:
    """Per-query LS of SP at (n, N_0), exact (spec §7.1)."""
    n1 = n - n0
    terms = []
    if n0 >= 2:  # a 0 -> 1 flip keeps group 0 non-empty
        terms.append(Fraction(1, n1 + 1) + Fraction(1, n0))
    if n1 >= 2:  # a 1 -> 0 flip keeps group 1 non-empty
        terms.append(Fraction(1, n1) + Fraction(1, n0 + 1))
    return max(terms)


def _gs_sp_fraction(n: int) -> Fraction:
    return Fraction(1, 2) + Fraction(1, n - 1)


def smooth_sp_value(n: int, n0: int, beta: float, n_queries: int) -> float:
    """Spec §7.2 minority rule on validated inputs (the mechanisms' kernel; not exported)."""
    n_min = min(n0, n - n0)
    n_max = n - n_min
    glob = 0.5 + 1.0 / (n - 1)
    if n_min == 1:
        return n_queries * glob
    return n_queries * max(1.0 / (n_max + 1) + 1.0 / n_min, math.exp(-(n_min - 2) * beta) * glob)


@validate_params(_COUNTED)
def local_sensitivity_sp(n, n0, *, n_queries=1, exact=False):
    """Local l1 sensitivity of m statistical-parity queries (spec §7.1; proof of Theorem 5).

    Parameters
    ----------
    n : int
        Test-set size, at least 3.
    n0 : int
        Size ``N_0`` of the disadvantaged group, in [1, n - 1].
    n_queries : int, keyword-only
        Number of queries answered together (the paper's m).
    exact : bool, keyword-only
        Return a :class:`fractions.Fraction` instead of a float.

    Returns
    -------
    float or Fraction

    Raises
    ------
    InvalidParameterError
        If ``n < 3``, ``m < 1`` or ``n0`` is outside [0, n].
    DegenerateGroupError
        If ``n0`` is 0 or ``n`` (a group is empty).

    Notes
    -----
    Per query, with ``N_1 = n - N_0``::

        LS = max( 1/(N_1+1) + 1/N_0   [a 0 -> 1 flip; needs N_0 >= 2],
                  1/N_1 + 1/(N_0+1)   [a 1 -> 0 flip; needs N_1 >= 2] )

    and ``m * LS`` for m queries.  It is the worst case over all predictions, so it bounds
    ``|SP(S) - SP(S')|`` for every ``H``; the test suite checks it against exhaustive
    enumeration for ``n <= 7`` in exact arithmetic.

    References
    ----------
    Hamman, Chen and Dutta, §4.1 and the proof of Theorem 5 (step (b)); spec fairness-queries
    §7.1.

    Examples
    --------
    >>> local_sensitivity_sp(100, 10, exact=True)
    Fraction(101, 910)
    >>> local_sensitivity_sp(10, 9, exact=True)  # the minority is group 1
    Fraction(11, 18)
    """
    owner = "local_sensitivity_sp"
    n, n0 = check_sizes(n, n0, owner=owner)
    value = n_queries * _ls_sp_fraction(n, n0)
    return value if exact else float(value)


@validate_params({"n": SIZE, **_COUNTED})
def global_sensitivity_sp(n, *, n_queries=1, exact=False):
    """Global l1 sensitivity of m statistical-parity queries (Theorem 4).

    Parameters
    ----------
    n : int
        Test-set size, at least 3.
    n_queries : int, keyword-only
        Number of queries (the paper's m).
    exact : bool, keyword-only
        Return a Fraction.

    Returns
    -------
    float or Fraction
        ``m/2 + m/(n-1)``, attained at ``N_0 = 2`` (or ``N_0 = 1``).

    References
    ----------
    Hamman, Chen and Dutta, Theorem 4 and A.4 (correct as stated; spec §6).

    Examples
    --------
    >>> round(global_sensitivity_sp(100, n_queries=25), 4)
    12.7525
    >>> global_sensitivity_sp(10, exact=True)
    Fraction(11, 18)
    """
    n, n_queries = int(n), int(n_queries)
    return n_queries * _gs_sp_fraction(n) if exact else n_queries * (0.5 + 1.0 / (n - 1))


@validate_params(_SMOOTH)
def smooth_sensitivity_sp(n, n0, *, beta, n_queries=1):
    """beta-smooth sensitivity of m statistical-parity queries, minority rule (spec §7.2).

    Parameters
    ----------
    n : int
        Test-set size, at least 3.
    n0 : int
        Size of the disadvantaged group, in [1, n - 1].  Either group may be the minority.
    beta : float, keyword-only
        Smoothness parameter, >= 0 (Attribute-Conceal derives it from epsilon, see
        :func:`attribute_conceal_beta`).
    n_queries : int, keyword-only
        Number of queries (the paper's m).

    Returns
    -------
    float

    Notes
    -----
    With ``N_min = min(N_0, N_1)``, ``N_max = n - N_min`` and ``G = 1/2 + 1/(n-1)``::

        S = m G                                                     if N_min = 1
        S = m max( 1/(N_max+1) + 1/N_min,  exp(-(N_min - 2) beta) G )  otherwise

    Theorem 5 writes this with ``N_0``, which is right only when ``2 <= N_0 <= N_1``.  The
    maximum over the lattice of group sizes sits at one of its two ends because
    ``k -> exp(-k beta) LS(N_min - k)`` is convex: with ``a = N_max + k + 1`` and
    ``b = N_min - k`` the second derivative divided by ``m exp(-k beta)`` is
    ``(beta^2/a + 2 beta/a^2 + 2/a^3) + (1/b)((beta - 1/b)^2 + 1/b^2) > 0`` (spec §7.2; A.5's
    own argument has a sign error in its third term).  The test suite checks the closed form
    against :func:`smooth_sensitivity_lattice` for every ``N_0`` at n up to 1000.

    References
    ----------
    Hamman, Chen and Dutta, Def. 4.3, Theorem 5 and A.5; Nissim, Raskhodnikova and Smith,
    "Smooth sensitivity and sampling in private data analysis", STOC 2007; spec
    fairness-queries §7.2.

    Examples
    --------
    >>> round(smooth_sensitivity_sp(100, 10, beta=5 / (6 * 25), n_queries=25), 5)
    9.76752
    >>> round(smooth_sensitivity_sp(100, 90, beta=0.05), 4)  # literal Theorem 5: 0.1020
    0.3419
    """
    owner = "smooth_sensitivity_sp"
    n, n0 = check_sizes(n, n0, owner=owner)
    return smooth_sp_value(n, n0, float(beta), n_queries)


def smooth_abs_sp_paper_value(n0: int, beta: float, n_queries: int) -> float:
    """A.6's smooth sensitivity of |SP| as printed (too small; spec §7.4); not exported."""
    return n_queries * max(1.0 / n0, math.exp(-(n0 - 2) * beta) / 2.0)


def _warn_paper_variant(variant, owner):
    if variant == "paper":
        warn(
            f"{owner}(variant='paper') uses the constant of Hamman, Chen and Dutta (Theorem 7 / "
            "A.6), which under-estimates the sensitivity of |SP|; the release is not "
            "differentially private at the stated epsilon. Use it only to reproduce the paper.",
            UnsafeConstantWarning)


@validate_params({"n": SIZE, **_COUNTED,
                  "variant": Options("exact", "binary", "paper")})
def global_sensitivity_abs_sp(n, *, n_queries=1, variant="exact", exact=False):
    """Global l1 sensitivity of m absolute-statistical-parity queries (spec §6, §7.4).

    Parameters
    ----------
    n : int
        Test-set size, at least 3.
    n_queries : int, keyword-only
        Number of queries (the paper's m).
    variant : {"exact", "binary", "paper"}, keyword-only
        ``"exact"`` (default): ``m n / (2(n-1))``, the exact value over predictions in
        [0, 1].  ``"binary"``: the exact value when every prediction is 0 or 1, which is
        smaller for odd n, ``m((n+1)/(2(n-1)) - 1/(2(n-2)))``; valid only for binary models.
        ``"paper"``: Theorem 7's ``m/2``, too small; emits :class:`UnsafeConstantWarning`.
    exact : bool, keyword-only
        Return a Fraction.

    Returns
    -------
    float or Fraction

    Notes
    -----
    Even-n witness (spec §6): ``N_0 = 2``, ``mu = 1``, ``lambda = (n-2)/2``; flipping the
    group-0 member with ``h = 0`` moves SP from 0 to ``-n/(2(n-1))``.  For odd n the spec
    gives the binary value; with soft predictions the same witness is reachable with a
    half-integer ``lambda`` (e.g. n = 7: 7/12 > 17/30), which the test suite confirms with an
    LP over all predictions in [0, 1].

    References
    ----------
    Hamman, Chen and Dutta, Theorem 7 and A.4.1 (the ``m/2`` there is an under-estimate);
    spec fairness-queries §6 and §11 item 3.

    Examples
    --------
    >>> global_sensitivity_abs_sp(10, exact=True)
    Fraction(5, 9)
    >>> global_sensitivity_abs_sp(7, variant="binary", exact=True)
    Fraction(17, 30)
    """
    n, n_queries = int(n), int(n_queries)
    _warn_paper_variant(variant, "global_sensitivity_abs_sp")
    if variant == "paper":
        value = Fraction(n_queries, 2)
    elif variant == "binary" and n % 2 == 1:
        value = n_queries * (Fraction(n + 1, 2 * (n - 1)) - Fraction(1, 2 * (n - 2)))
    else:
        value = n_queries * Fraction(n, 2 * (n - 1))
    return value if exact else float(value)


@validate_params({**_COUNTED, "variant": Options("bound", "paper")})
def local_sensitivity_abs_sp(n, n0, *, n_queries=1, variant="bound", exact=False):
    """Local sensitivity bound for m absolute-SP queries (spec §7.4).

    Parameters
    ----------
    n, n0 : int
        Test-set size and disadvantaged-group size.
    n_queries : int, keyword-only
        Number of queries (the paper's m).
    variant : {"bound", "paper"}, keyword-only
        ``"bound"``: ``LS_SP``, valid because ``||x| - |y|| <= |x - y|``.  ``"paper"``: A.6's
        ``m/N_0``, which is too small (``N_1 = 10, N_0 = 5`` reaches 3/11 > 1/5); emits
        :class:`UnsafeConstantWarning`.
    exact : bool, keyword-only
        Return a Fraction.

    Returns
    -------
    float or Fraction

    References
    ----------
    Hamman, Chen and Dutta, A.6; spec fairness-queries §7.4.

    Examples
    --------
    >>> local_sensitivity_abs_sp(15, 5, exact=True)  # >= the exact 3/11 = 15/55
    Fraction(16, 55)
    """
    owner = "local_sensitivity_abs_sp"
    n, n0 = check_sizes(n, n0, owner=owner)
    _warn_paper_variant(variant, owner)
    value = n_queries * (Fraction(1, n0) if variant == "paper" else _ls_sp_fraction(n, n0))
    return value if exact else float(value)


@validate_params({**_SMOOTH, "variant": Options("bound", "paper")})
def smooth_sensitivity_abs_sp(n, n0, *, beta, n_queries=1, variant="bound"):
    """beta-smooth sensitivity bound for m absolute-SP queries (spec §7.4).

    Parameters
    ----------
    n, n0 : int
        Test-set size and disadvantaged-group size.
    beta : float, keyword-only
        Smoothness parameter.
    n_queries : int, keyword-only
        Number of queries (the paper's m).
    variant : {"bound", "paper"}, keyword-only
        ``"bound"``: :func:`smooth_sensitivity_sp`, a valid beta-smooth upper bound for
        ``|SP|``.  ``"paper"``: A.6's ``max(m/N_0, m exp(-(N_0-2) beta)/2)``, which
        under-estimates (n = 20, N_0 = 5, beta = 1: exact 0.25, paper 0.20); emits
        :class:`UnsafeConstantWarning`.

    Returns
    -------
    float

    References
    ----------
    Hamman, Chen and Dutta, A.6; spec fairness-queries §7.4.

    Examples
    --------
    >>> round(smooth_sensitivity_abs_sp(20, 5, beta=1.0), 4)
    0.2625
    """
    owner = "smooth_sensitivity_abs_sp"
    n, n0 = check_sizes(n, n0, owner=owner)
    beta = float(beta)
    _warn_paper_variant(variant, owner)
    if variant == "paper":
        return smooth_abs_sp_paper_value(n0, beta, n_queries)
    return smooth_sp_value(n, n0, beta, n_queries)


@validate_params(_COUNTED)
def local_sensitivity_eo(n_pos, n0_pos, *, n_queries=1, exact=False):
    """Local sensitivity of m equal-opportunity queries: §7.1 on the slice y = 1 (spec §7.5).

    Parameters
    ----------
    n_pos : int
        ``n^+``, the number of individuals with ``y = 1`` (public), at least 3.
    n0_pos : int
        ``N_0^+``, the disadvantaged group inside that slice, in [1, n^+ - 1].
    n_queries : int, keyword-only
        Number of queries (the paper's m).
    exact : bool, keyword-only
        Return a Fraction.

    Returns
    -------
    float or Fraction

    Examples
    --------
    >>> local_sensitivity_eo(5, 2, exact=True)
    Fraction(3, 4)
    """
    owner = "local_sensitivity_eo"
    n_pos, n0_pos = check_sizes(n_pos, n0_pos, owner=owner, n_name="n_pos", n0_name="n0_pos")
    value = n_queries * _ls_sp_fraction(n_pos, n0_pos)
    return value if exact else float(value)


@validate_params(_SMOOTH)
def smooth_sensitivity_eo(n_pos, n0_pos, *, beta, n_queries=1):
    """beta-smooth sensitivity of m equal-opportunity queries (spec §7.5).

    :func:`smooth_sensitivity_sp` applied to the slice ``y = 1``: ``n -> n^+``,
    ``N_a -> N_a^+``.  A flip of ``a_j`` with ``y_j = 0`` does not move the EO gap.

    Parameters
    ----------
    n_pos, n0_pos : int
        ``n^+`` and ``N_0^+``.
    beta : float, keyword-only
    n_queries : int, keyword-only
        Number of queries (the paper's m).

    Returns
    -------
    float

    Examples
    --------
    >>> smooth_sensitivity_eo(20, 10, beta=0.0) == smooth_sensitivity_sp(20, 10, beta=0.0)
    True
    """
    owner = "smooth_sensitivity_eo"
    n_pos, n0_pos = check_sizes(n_pos, n0_pos, owner=owner, n_name="n_pos", n0_name="n0_pos")
    return smooth_sp_value(n_pos, n0_pos, float(beta), n_queries)


@validate_params({"n_pos": SIZE, **_COUNTED})
def global_sensitivity_eo(n_pos, *, n_queries=1, exact=False):
    """Global sensitivity of m equal-opportunity queries: ``m/2 + m/(n^+ - 1)`` (spec §6).

    Theorem 4 says "similarly" and keeps ``n``; the bound must use ``n^+`` (public, since
    ``Y`` is public), which is larger whenever ``n^+ < n``.

    Parameters
    ----------
    n_pos : int
        ``n^+``, at least 3.
    n_queries : int, keyword-only
        Number of queries (the paper's m).
    exact : bool, keyword-only

    Returns
    -------
    float or Fraction

    References
    ----------
    Hamman, Chen and Dutta, Theorem 4; spec fairness-queries §6 and §11 item 4.

    Examples
    --------
    >>> round(global_sensitivity_eo(20), 6)  # the paper's n = 100 would give 0.510101
    0.552632
    """
    value = n_queries * _gs_sp_fraction(int(n_pos))
    return value if exact else float(value)


@validate_params({"exact": _EXACT})
def global_sensitivity_prp(slice_sizes, *, exact=False):
    """Global l1 sensitivity of m predictive-rate-parity queries (Remark 2).

    Query i is the PPV gap of a binary model h_i: ``P(Y=1 | h_i=1, A=1) - P(Y=1 | h_i=1,
    A=0)``, i.e. the statistical-parity gap of the public labels ``y`` computed on the slice
    ``{j : h_i(x_j) = 1}`` of size ``k_i``.  A flip of one ``a_j`` moves it by at most the SP
    bound of that slice, ``1/2 + 1/(k_i - 1)`` (Theorem 4 applied to the slice; ``k_i`` is
    public because the developers chose ``h_i``), so the batch's l1 sensitivity is the sum.

    Parameters
    ----------
    slice_sizes : sequence of int
        ``k_i = #{j : h_i(x_j) = 1}`` per query, each at least 3.
    exact : bool, keyword-only
        Return a Fraction.

    Returns
    -------
    float or Fraction
        ``sum_i (1/2 + 1/(k_i - 1))``.

    Raises
    ------
    InvalidParameterError
        A slice with fewer than 3 individuals.

    References
    ----------
    Hamman, Chen and Dutta, Remark 2 and footnote 2 (predictive rate parity, no sensitivity
    given), Theorem 4 (the SP bound used per slice).

    Examples
    --------
    >>> global_sensitivity_prp([10, 4], exact=True)  # (1/2 + 1/9) + (1/2 + 1/3)
    Fraction(13, 9)
    """
    sizes = [check(k, SIZE, name="slice_sizes", owner="global_sensitivity_prp")
             for k in np.asarray(slice_sizes, dtype=object).ravel().tolist()]
    value = sum((_gs_sp_fraction(int(k)) for k in sizes), Fraction(0))
    return value if exact else float(value)


def _eo_pair_sizes(n_pos, n0_pos, n_neg, n0_neg, owner):
    n_pos, n0_pos = check_sizes(n_pos, n0_pos, owner=owner, n_name="n_pos", n0_name="n0_pos")
    n_neg, n0_neg = check_sizes(n_neg, n0_neg, owner=owner, n_name="n_neg", n0_name="n0_neg")
    return n_pos, n0_pos, n_neg, n0_neg


@validate_params(_COUNTED)
def local_sensitivity_equalized_odds(n_pos, n0_pos, n_neg, n0_neg, *, n_queries=1, exact=False):
    """Local sensitivity of m joint equalized-odds queries (TPR and FPR gaps; spec §7.5).

    One flip of ``a_j`` moves only the slice that contains ``j`` (``Y`` is public), so the
    joint value is the larger of the two slice values.

    Parameters
    ----------
    n_pos, n0_pos, n_neg, n0_neg : int
        Sizes of the slices ``y = 1`` and ``y = 0`` and of their disadvantaged groups.
    n_queries : int, keyword-only
        Number of queries (the paper's m).
    exact : bool, keyword-only

    Returns
    -------
    float or Fraction

    Examples
    --------
    >>> local_sensitivity_equalized_odds(5, 2, 3, 1, exact=True)
    Fraction(1, 1)
    """
    owner = "local_sensitivity_equalized_odds"
    n_pos, n0_pos, n_neg, n0_neg = _eo_pair_sizes(n_pos, n0_pos, n_neg, n0_neg, owner)
    value = n_queries * max(_ls_sp_fraction(n_pos, n0_pos), _ls_sp_fraction(n_neg, n0_neg))
    return value if exact else float(value)


@validate_params(_SMOOTH)
def smooth_sensitivity_equalized_odds(n_pos, n0_pos, n_neg, n0_neg, *, beta, n_queries=1):
    """beta-smooth sensitivity of m joint equalized-odds queries (spec §7.5).

    The maximum of the two slices' :func:`smooth_sensitivity_sp`.  It equals the exact 2-D
    lattice maximum (:func:`smooth_sensitivity_lattice_2d`).  Attribute-Conceal answers the
    two slices separately instead (parallel composition, each at the full epsilon); this
    joint form is for a single release.

    Parameters
    ----------
    n_pos, n0_pos, n_neg, n0_neg : int
        Slice sizes and disadvantaged-group sizes inside them.
    beta : float, keyword-only
    n_queries : int, keyword-only
        Number of queries (the paper's m).

    Returns
    -------
    float

    Examples
    --------
    >>> round(smooth_sensitivity_equalized_odds(240, 25, 760, 79, beta=50 / 60, n_queries=10), 6)
    0.446296
    """
    owner = "smooth_sensitivity_equalized_odds"
    n_pos, n0_pos, n_neg, n0_neg = _eo_pair_sizes(n_pos, n0_pos, n_neg, n0_neg, owner)
    beta = float(beta)
    return max(smooth_sp_value(n_pos, n0_pos, beta, n_queries),
               smooth_sp_value(n_neg, n0_neg, beta, n_queries))


@validate_params({"n_pos": SIZE, "n_neg": SIZE, **_COUNTED})
def global_sensitivity_equalized_odds(n_pos, n_neg, *, n_queries=1, exact=False):
    """Global sensitivity of m joint equalized-odds queries (spec §6, §7.5).

    Parameters
    ----------
    n_pos, n_neg : int
        Sizes of the slices ``y = 1`` and ``y = 0``, each at least 3.
    n_queries : int, keyword-only
        Number of queries (the paper's m).
    exact : bool, keyword-only

    Returns
    -------
    float or Fraction
        ``max(m/2 + m/(n^+ - 1), m/2 + m/(n^- - 1))``.

    Examples
    --------
    >>> global_sensitivity_equalized_odds(20, 80, exact=True)
    Fraction(21, 38)
    """
    value = n_queries * _gs_sp_fraction(min(int(n_pos), int(n_neg)))
    return value if exact else float(value)


def _ls_sp_vector(n: int) -> np.ndarray:
    """Per-query LS of SP at every N_0 in [1, n-1], as floats (index k -> N_0 = k + 1)."""
    n0 = np.arange(1, n, dtype=float)
    n1 = n - n0
    flip01 = np.where(n0 >= 2, 1.0 / (n1 + 1) + 1.0 / n0, -np.inf)
    flip10 = np.where(n1 >= 2, 1.0 / n1 + 1.0 / (n0 + 1), -np.inf)
    return np.maximum(flip01, flip10)


@validate_params(_SMOOTH)
def smooth_sensitivity_lattice(n, n0, *, beta, n_queries=1, local_sensitivity=None):
    """Smooth sensitivity as a maximum over the lattice of group sizes (Def. 4.3; spec §5).

    The reference oracle for the closed forms: because the local sensitivity depends on
    ``A`` only through ``N_0``, ``max_{S'} LS(S') exp(-beta d(S, S'))`` reduces to a maximum
    over ``N_0' in [1, n-1]``.

    Parameters
    ----------
    n, n0 : int
        Test-set size and disadvantaged-group size.
    beta : float, keyword-only
        Smoothness parameter, >= 0.
    n_queries : int, keyword-only
        Number of queries, the paper's m (the default LS is multiplied by it).
    local_sensitivity : callable, optional, keyword-only
        ``local_sensitivity(n, n0_prime) -> float``, the local sensitivity at each lattice
        point, already including m.  Defaults to ``m`` times the SP formula of §7.1.

    Returns
    -------
    float

    References
    ----------
    Nissim, Raskhodnikova and Smith (STOC 2007), Def. 2.1 and Lemma 2.3; Hamman, Chen and
    Dutta, Def. 4.3; spec fairness-queries §5.

    Examples
    --------
    >>> abs(smooth_sensitivity_lattice(100, 60, beta=0.05) - 0.0763) < 1e-4
    True
    """
    n, n0 = check_sizes(n, n0, owner="smooth_sensitivity_lattice")
    beta = float(beta)
    grid = np.arange(1, n)
    if local_sensitivity is None:
        ls = n_queries * _ls_sp_vector(n)
    else:
        ls = np.array([float(local_sensitivity(n, int(k))) for k in grid])
    return float(np.max(ls * np.exp(-beta * np.abs(grid - n0))))


@validate_params(_SMOOTH)
def smooth_sensitivity_lattice_2d(n_pos, n0_pos, n_neg, n0_neg, *, beta, n_queries=1):
    """Joint equalized-odds smooth sensitivity over the 2-D lattice (spec §7.5, T13 oracle).

    Maximises ``exp(-beta(|p - N_0^+| + |q - N_0^-|)) * m * max(LS^+(p), LS^-(q))`` over
    ``p in [1, n^+ - 1]`` and ``q in [1, n^- - 1]``: one flip changes exactly one slice, so
    the Hamming distance is the l1 distance on the lattice.

    Parameters
    ----------
    n_pos, n0_pos, n_neg, n0_neg : int
    beta : float, keyword-only
    n_queries : int, keyword-only
        Number of queries (the paper's m).

    Returns
    -------
    float

    Examples
    --------
    >>> round(smooth_sensitivity_lattice_2d(240, 25, 760, 79, beta=50 / 60, n_queries=10), 6)
    0.446296
    """
    n_pos, n0_pos, n_neg, n0_neg = _eo_pair_sizes(n_pos, n0_pos, n_neg, n0_neg,
                                                  "smooth_sensitivity_lattice_2d")
    beta = float(beta)
    p = np.arange(1, n_pos)
    q = np.arange(1, n_neg)
    joint = np.maximum(_ls_sp_vector(n_pos)[:, None], _ls_sp_vector(n_neg)[None, :])
    decay = np.exp(-beta * (np.abs(p - n0_pos)[:, None] + np.abs(q - n0_neg)[None, :]))
    return float(n_queries * np.max(joint * decay))


@validate_params({"epsilon": Interval("real", 0, closed="neither"), "n_queries": QUERIES,
                  "noise": Options("cauchy", "laplace")})
def attribute_conceal_beta(*, epsilon, n_queries, noise="cauchy", delta=None) -> float:
    """The smoothness parameter beta Attribute-Conceal derives from the budget (spec §7.3).

    Parameters
    ----------
    epsilon : float, keyword-only
        Privacy parameter, > 0 and finite.
    n_queries : int, keyword-only
        Number of queries answered together (the paper's m).
    noise : {"cauchy", "laplace"}, keyword-only
        ``"cauchy"`` (Theorem 5, pure epsilon-DP): ``beta = epsilon / (6 m)``.
        ``"laplace"`` (Theorem 6, (epsilon, delta)-DP): ``beta = epsilon / (4 (m + ln(2/delta)))``.
    delta : float, keyword-only
        Needed for ``"laplace"``, in (0, 1).

    Returns
    -------
    float

    References
    ----------
    Hamman, Chen and Dutta, Theorems 5 and 6, Algorithm 3; Nissim, Raskhodnikova and Smith,
    Lemmas 2.6, 2.7 and 2.9; spec fairness-queries §7.3.

    Examples
    --------
    >>> round(attribute_conceal_beta(epsilon=5, n_queries=25), 7)
    0.0333333
    >>> round(attribute_conceal_beta(epsilon=0.5, n_queries=25, noise="laplace", delta=1e-5), 8)
    0.00335967
    """
    eps = float(epsilon)
    if noise == "cauchy":
        return eps / (6 * n_queries)
    d = float(check(delta, Interval("real", 0, 1, closed="neither",
                                    text="be in (0, 1) for noise='laplace'"),
                    name="delta", owner="attribute_conceal_beta"))
    return eps / (4 * (n_queries + math.log(2 / d)))
