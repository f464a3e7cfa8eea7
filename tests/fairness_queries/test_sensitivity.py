"""Sensitivities in closed form against brute force, lattices and LPs (spec §5-§7; T2-T7,
T12, T13)."""

import math
import warnings
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skyprivacy.errors import DegenerateGroupError, InvalidParameterError, UnsafeConstantWarning
from skyprivacy.fairness_queries import (attribute_conceal_beta, global_sensitivity_abs_sp,
                                         global_sensitivity_eo,
                                         global_sensitivity_equalized_odds,
                                         global_sensitivity_sp, local_sensitivity_abs_sp,
                                         local_sensitivity_eo, local_sensitivity_equalized_odds,
                                         local_sensitivity_sp, smooth_sensitivity_abs_sp,
                                         smooth_sensitivity_eo,
                                         smooth_sensitivity_equalized_odds,
                                         smooth_sensitivity_lattice,
                                         smooth_sensitivity_lattice_2d, smooth_sensitivity_sp)


# --- brute-force oracles written from the definitions ----------------------------------------

def exact_sp(h, a):
    n1 = sum(a)
    n0 = len(a) - n1
    lam = sum(x for x, g in zip(h, a) if g)
    mu = sum(x for x, g in zip(h, a) if not g)
    return Fraction(lam, n1) - Fraction(mu, n0)


def brute_local_sensitivity(n):
    """Exact LS of one SP query at every N_0: max over binary h, A in D and neighbours A'."""
    hs = list(product((0, 1), repeat=n))
    answers = {}
    for mask in range(1 << n):
        a = [(mask >> j) & 1 for j in range(n)]
        if 0 < sum(a) < n:
            answers[mask] = [exact_sp(h, a) for h in hs]
    best = {}
    for mask, sp in answers.items():
        n0 = n - bin(mask).count("1")
        for j in range(n):
            other = answers.get(mask ^ (1 << j))
            if other is None:
                continue  # the neighbour leaves D (a group would be empty)
            change = max(abs(x - y) for x, y in zip(sp, other))
            best[n0] = max(best.get(n0, Fraction(0)), change)
    return best


def abs_sp_table(n):
    """|SP| for every binary h (rows) and every A bitmask (columns; NaN outside D)."""
    hs = np.array(list(product((0, 1), repeat=n)), dtype=float)
    masks = np.arange(1 << n)
    bits = (masks[:, None] >> np.arange(n)) & 1
    n1 = bits.sum(axis=1)
    valid = (n1 > 0) & (n1 < n)
    with np.errstate(divide="ignore", invalid="ignore"):
        coef = np.where(bits == 1, 1.0 / n1[:, None], -1.0 / (n - n1)[:, None])
    table = np.abs(hs @ np.where(valid[:, None], coef, 0.0).T)
    table[:, ~valid] = np.nan
    return table, valid


def brute_global_abs(n):
    table, valid = abs_sp_table(n)
    best = 0.0
    masks = np.flatnonzero(valid)
    for j in range(n):
        nb = masks ^ (1 << j)
        keep = valid[nb]
        best = max(best, float(np.max(np.abs(table[:, masks[keep]] - table[:, nb[keep]]))))
    return Fraction(best).limit_denominator(10_000)


def lp_global_abs_soft(n):
    """max ||SP'| - |SP|| over soft predictions in [0, 1]^n, by LPs over the sign patterns."""
    from scipy.optimize import linprog

    def coef(a):
        n1 = a.sum()
        return np.where(a == 1, 1.0 / n1, -1.0 / (len(a) - n1))

    best = 0.0
    for n0 in range(1, n):
        a = np.array([1] * (n - n0) + [0] * n0)
        for j in (0, n - 1):  # flip a member of group 1, or of group 0
            b = a.copy()
            b[j] ^= 1
            if b.sum() in (0, n):
                continue
            c1, c2 = coef(a), coef(b)
            for s1, s2, sg in product((1, -1), repeat=3):
                res = linprog(-sg * (s2 * c2 - s1 * c1), A_ub=np.vstack([-s1 * c1, -s2 * c2]),
                              b_ub=np.zeros(2), bounds=[(0, 1)] * n, method="highs")
                if res.status == 0:
                    best = max(best, -res.fun)
    return best


# --- T2: local sensitivity --------------------------------------------------------------------

@pytest.mark.parametrize("n, n0, expected", [
    (8, 3, Fraction(1, 2)), (100, 10, Fraction(101, 910)), (1000, 104, Fraction(77, 7176)),
    (1000, 10, Fraction(1001, 9910)), (10, 1, Fraction(11, 18)), (10, 9, Fraction(11, 18)),
    (10, 5, Fraction(11, 30)),
])
def test_t2_local_sensitivity_table(n, n0, expected):
    assert local_sensitivity_sp(n, n0, exact=True) == expected
    assert local_sensitivity_sp(n, n0) == pytest.approx(float(expected), rel=1e-15)
    assert local_sensitivity_sp(n, n0, m=7, exact=True) == 7 * expected


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_local_sensitivity_equals_exhaustive_enumeration(n):
    brute = brute_local_sensitivity(n)
    assert sorted(brute) == list(range(1, n))
    for n0, value in brute.items():
        assert local_sensitivity_sp(n, n0, exact=True) == value
    assert max(brute.values()) == global_sensitivity_sp(n, exact=True)


# --- T3: smooth sensitivity, closed form against the lattice oracle ---------------------------

BETAS = [1e-4, 1e-3, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0]


@pytest.mark.parametrize("n", [5, 10, 30, 100, 1000])
def test_t3_closed_form_equals_lattice(n):
    for beta in BETAS:
        for n0 in range(1, n):
            closed = smooth_sensitivity_sp(n, n0, beta=beta)
            assert closed == pytest.approx(smooth_sensitivity_lattice(n, n0, beta=beta),
                                           rel=1e-12), (n0, beta)


def test_lattice_with_a_brute_force_local_sensitivity():
    brute = brute_local_sensitivity(6)
    for beta in (0.05, 0.7):
        for n0 in range(1, 6):
            lattice = smooth_sensitivity_lattice(6, n0, beta=beta,
                                                 local_sensitivity=lambda n, k: brute[k])
            assert smooth_sensitivity_sp(6, n0, beta=beta) == pytest.approx(lattice, rel=1e-12)


def test_minority_rule_where_theorem_5_taken_literally_underestimates():
    n, beta = 100, 0.05

    def literal(n0):  # Theorem 5 as printed, valid only for 2 <= N_0 <= N_1
        n1 = n - n0
        return max(1 / (n1 + 1) + 1 / n0, math.exp(-(n0 - 2) * beta) * (1 / (n - 1) + 1 / 2))

    for n0, exact in ((60, 0.0763), (90, 0.3419)):
        assert smooth_sensitivity_sp(n, n0, beta=beta) == pytest.approx(exact, abs=5e-5)
        assert literal(n0) < smooth_sensitivity_sp(n, n0, beta=beta)
    assert literal(60) == pytest.approx(0.0411, abs=5e-5)
    assert literal(90) == pytest.approx(0.1020, abs=5e-5)
    # N_0 = 1: the global value; the literal formula would give 1.01
    assert smooth_sensitivity_sp(n, 1, beta=beta) == pytest.approx(global_sensitivity_sp(n))
    assert literal(1) == pytest.approx(1.01, abs=5e-3)


@settings(max_examples=80)
@given(n=st.integers(3, 300), frac=st.floats(0, 1), beta=st.floats(0, 5), m=st.integers(1, 50))
def test_smooth_sensitivity_is_a_smooth_upper_bound(n, frac, beta, m):
    n0 = 1 + int(frac * (n - 2))
    s = smooth_sensitivity_sp(n, n0, beta=beta, m=m)
    assert s >= local_sensitivity_sp(n, n0, m=m) * (1 - 1e-12)
    assert s <= global_sensitivity_sp(n, m=m) * (1 + 1e-12)
    for other in (n0 - 1, n0 + 1):
        if 1 <= other <= n - 1:
            assert s <= math.exp(beta) * smooth_sensitivity_sp(n, other, beta=beta, m=m) \
                * (1 + 1e-12)
    assert s == pytest.approx(m * smooth_sensitivity_sp(n, n0, beta=beta), rel=1e-12)
    assert s == pytest.approx(smooth_sensitivity_sp(n, n - n0, beta=beta, m=m), rel=1e-12)
    assert smooth_sensitivity_sp(n, n0, beta=beta + 0.1, m=m) <= s * (1 + 1e-12)


# --- T4, T5: Attribute-Conceal worked values --------------------------------------------------

T4 = [  # n, N_0, m, eps, beta, S, scale = 6 S / eps
    (100, 10, 25, 5, 0.0333333, 9.76752, 11.721),
    (100, 10, 25, 10, 0.0666667, 7.48122, 4.48873),
    (100, 10, 25, 100, 0.666667, 2.77473, 0.166484),
    (100, 10, 40, 5, 0.0208333, 17.2716, 20.726),
    (100, 10, 40, 100, 0.416667, 4.43956, 0.266374),
    (1000, 104, 300, 5, 0.00277778, 113.217, 135.86),
    (1000, 104, 400, 100, 0.0416667, 4.29208, 0.257525),
    (1000, 10, 60, 100, 0.277778, 6.06054, 0.363633),
    (1000, 310, 800, 1000, 0.208333, 3.73839, 0.0224303),
    (1000, 310, 1000, 10, 0.00166667, 299.848, 179.909),
    (10000, 100, 1000, 100, 0.0166667, 97.6583, 5.8595),
]


@pytest.mark.parametrize("n, n0, m, eps, beta, s, scale", T4)
def test_t4_cauchy_worked_values(n, n0, m, eps, beta, s, scale):
    b = attribute_conceal_beta(epsilon=eps, m=m)
    assert b == pytest.approx(beta, rel=1e-5)
    got = smooth_sensitivity_sp(n, n0, beta=b, m=m)
    assert got == pytest.approx(s, rel=1e-5)
    assert 6 * got / eps == pytest.approx(scale, rel=1e-5)
    # S(m) = m S(1) at the same beta
    assert got == pytest.approx(m * smooth_sensitivity_sp(n, n0, beta=b), rel=1e-12)
    # Algorithm 3 == m one-dimensional mechanisms at eps/m, composed (spec §7.3)
    eps1 = eps / m
    beta1 = attribute_conceal_beta(epsilon=eps1, m=1)
    per_query = 6 * smooth_sensitivity_sp(n, n0, beta=beta1) / eps1
    assert per_query == pytest.approx(6 * got / eps, rel=1e-12)


T5 = [  # n, N_0, m, eps, delta, beta, S, scale = 2 S / eps
    (100, 10, 25, 0.5, 1e-5, 0.00335967, 12.4143, 49.6573),
    (1000, 104, 300, 0.9, 1e-6, 0.000715402, 139.723, 310.496),
    (1000, 10, 60, 0.5, 1e-3, 0.00184909, 29.6187, 118.475),
]


@pytest.mark.parametrize("n, n0, m, eps, delta, beta, s, scale", T5)
def test_t5_laplace_smooth_worked_values(n, n0, m, eps, delta, beta, s, scale):
    b = attribute_conceal_beta(epsilon=eps, m=m, noise="laplace", delta=delta)
    assert b == pytest.approx(beta, rel=1e-5)
    got = smooth_sensitivity_sp(n, n0, beta=b, m=m)
    assert got == pytest.approx(s, rel=1e-5)
    assert 2 * got / eps == pytest.approx(scale, rel=1e-5)


# --- T6: Laplace constants; T12: EO uses n^+ ---------------------------------------------------

def test_t6_global_sensitivity_of_sp():
    assert global_sensitivity_sp(100, m=25) == pytest.approx(12.7525, abs=5e-5)
    assert global_sensitivity_sp(100, m=25) / 5 == pytest.approx(2.55051, abs=5e-6)
    assert global_sensitivity_sp(1000, m=400) == pytest.approx(200.4, abs=5e-3)
    assert global_sensitivity_sp(1000, m=400) / 100 == pytest.approx(2.004, abs=5e-5)
    assert global_sensitivity_sp(100, m=25, exact=True) == Fraction(25, 2) + Fraction(25, 99)


def test_t12_equal_opportunity_uses_the_positive_slice_size():
    assert global_sensitivity_eo(20) == pytest.approx(0.552632, abs=5e-7)
    assert global_sensitivity_eo(20, m=3, exact=True) == 3 * (Fraction(1, 2) + Fraction(1, 19))
    assert global_sensitivity_sp(100) == pytest.approx(0.510101, abs=5e-7)  # the paper's value
    assert local_sensitivity_eo(20, 5, exact=True) == local_sensitivity_sp(20, 5, exact=True)
    assert smooth_sensitivity_eo(20, 5, beta=0.3, m=4) == \
        smooth_sensitivity_sp(20, 5, beta=0.3, m=4)


# --- T7: absolute SP ----------------------------------------------------------------------------

def test_t7_local_sensitivity_of_abs_sp_counterexample():
    # Exhaustive over binary h at N_1 = 10, N_0 = 5: the exact value is 3/11 > 1/5 (A.6).
    n = 15
    a = np.array([1] * 10 + [0] * 5)
    hs = np.array(list(product((0, 1), repeat=n)), dtype=float)

    def abs_sp(labels):
        n1 = labels.sum()
        return np.abs(hs @ np.where(labels == 1, 1 / n1, -1 / (n - n1)))

    base = abs_sp(a)
    worst = 0.0
    for j in range(n):
        b = a.copy()
        b[j] ^= 1
        worst = max(worst, float(np.max(np.abs(abs_sp(b) - base))))
    assert Fraction(worst).limit_denominator(1000) == Fraction(3, 11)
    with pytest.warns(UnsafeConstantWarning, match=r"local_sensitivity_abs_sp\(variant='paper'\)"):
        assert local_sensitivity_abs_sp(n, 5, variant="paper", exact=True) == Fraction(1, 5)
    assert local_sensitivity_abs_sp(n, 5, exact=True) >= Fraction(3, 11)


@pytest.mark.parametrize("n, expected", [(7, Fraction(17, 30)), (9, Fraction(31, 56)),
                                         (10, Fraction(5, 9)), (11, Fraction(49, 90))])
def test_t7_global_abs_sp_binary_equals_enumeration(n, expected):
    assert brute_global_abs(n) == expected
    assert global_sensitivity_abs_sp(n, variant="binary", exact=True) == expected


@pytest.mark.parametrize("n, expected", [(10, Fraction(5, 9)), (20, Fraction(10, 19)),
                                         (50, Fraction(25, 49)), (100, Fraction(50, 99)),
                                         (7, Fraction(17, 30)), (9, Fraction(31, 56)),
                                         (11, Fraction(49, 90)), (21, Fraction(199, 380))])
def test_t7_spec_values_of_the_binary_global_sensitivity(n, expected):
    assert global_sensitivity_abs_sp(n, variant="binary", exact=True) == expected


@pytest.mark.parametrize("n", [7, 8, 9, 10])
def test_global_abs_sp_with_soft_predictions_is_n_over_2_n_minus_1(n):
    # With predictions in [0, 1] (logistic models) the odd-n binary value is exceeded:
    # the library's default n/(2(n-1)) is exact there.
    assert lp_global_abs_soft(n) == pytest.approx(n / (2 * (n - 1)), abs=1e-9)
    assert global_sensitivity_abs_sp(n) == pytest.approx(n / (2 * (n - 1)), rel=1e-15)


def test_t7_library_bound_dominates_and_paper_variant_warns():
    for n in range(3, 300):
        assert global_sensitivity_abs_sp(n, exact=True) >= \
            global_sensitivity_abs_sp(n, variant="binary", exact=True)
        assert global_sensitivity_abs_sp(n, exact=True) > Fraction(1, 2)
    with pytest.warns(UnsafeConstantWarning,
                      match=r"global_sensitivity_abs_sp\(variant='paper'\) uses the constant "
                            r"of Hamman, Chen and Dutta \(Theorem 7 / A\.6\), which "
                            r"under-estimates the sensitivity of \|SP\|"):
        assert global_sensitivity_abs_sp(10, m=4, variant="paper") == 2.0


def test_smooth_abs_sp_bound_and_paper_constant():
    assert smooth_sensitivity_abs_sp(20, 5, beta=1.0) == pytest.approx(0.2625, abs=5e-5)
    assert smooth_sensitivity_abs_sp(20, 5, beta=1.0) >= 0.25  # the exact value (spec §7.4)
    with pytest.warns(UnsafeConstantWarning):
        assert smooth_sensitivity_abs_sp(20, 5, beta=1.0, variant="paper") == \
            pytest.approx(0.2, abs=1e-12)


# --- T13: equalized odds ------------------------------------------------------------------------

def test_t13_joint_equalized_odds_equals_the_2d_lattice():
    for n_pos, n0_pos, n_neg, n0_neg in [(5, 1, 7, 3), (12, 6, 9, 2), (30, 4, 25, 20),
                                         (40, 39, 10, 5)]:
        for beta in (0.0, 0.05, 0.4, 2.0):
            for m in (1, 3):
                joint = smooth_sensitivity_equalized_odds(n_pos, n0_pos, n_neg, n0_neg,
                                                          beta=beta, m=m)
                lattice = smooth_sensitivity_lattice_2d(n_pos, n0_pos, n_neg, n0_neg,
                                                        beta=beta, m=m)
                assert joint == pytest.approx(lattice, rel=1e-13)
    s = smooth_sensitivity_equalized_odds(240, 25, 760, 79, beta=50 / 60, m=10)
    assert s == pytest.approx(0.446296, abs=5e-7)
    assert 6 * s / 50 == pytest.approx(0.0535556, abs=5e-8)
    assert smooth_sensitivity_lattice_2d(240, 25, 760, 79, beta=50 / 60, m=10) == \
        pytest.approx(s, rel=1e-15)
    assert local_sensitivity_equalized_odds(5, 2, 3, 1, exact=True) == \
        max(local_sensitivity_sp(5, 2, exact=True), local_sensitivity_sp(3, 1, exact=True))
    assert global_sensitivity_equalized_odds(20, 80, m=2, exact=True) == \
        global_sensitivity_eo(20, m=2, exact=True)


# --- bad inputs ---------------------------------------------------------------------------------

def test_sensitivity_parameter_errors():
    with pytest.raises(InvalidParameterError,
                       match=r"The 'n' parameter of local_sensitivity_sp must be an integer "
                             r">= 3 \(the sensitivity bounds assume n >= 3\)\. Got 2 instead\."):
        local_sensitivity_sp(2, 1)
    with pytest.raises(DegenerateGroupError,
                       match=r"The 'n0' parameter of smooth_sensitivity_sp leaves a group "
                             r"empty \(n0 = 0, n = 10\): statistical parity is undefined\."):
        smooth_sensitivity_sp(10, 0, beta=0.1)
    with pytest.raises(DegenerateGroupError, match=r"\(n0 = 10, n = 10\)"):
        local_sensitivity_sp(10, 10)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'n0' parameter of local_sensitivity_sp must be an integer "
                             r"in \[1, n - 1\] = \[1, 9\]\. Got 11 instead\."):
        local_sensitivity_sp(10, 11)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'n0' parameter of local_sensitivity_sp must be an integer "
                             r"in \[1, n - 1\]\. Got 2\.5 instead\."):
        local_sensitivity_sp(10, 2.5)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'm' parameter of global_sensitivity_sp must be a positive "
                             r"integer \(the number of queries\)\. Got 0 instead\."):
        global_sensitivity_sp(10, m=0)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'beta' parameter of smooth_sensitivity_sp must be a finite "
                             r"number >= 0\. Got -0\.1 instead\."):
        smooth_sensitivity_sp(10, 3, beta=-0.1)
    with pytest.raises(InvalidParameterError, match=r"'beta' parameter .* Got nan instead"):
        smooth_sensitivity_sp(10, 3, beta=float("nan"))
    with pytest.raises(InvalidParameterError,
                       match=r"The 'variant' parameter of global_sensitivity_abs_sp must be "
                             r"one of \['exact', 'binary', 'paper'\]\. Got 'loose' instead\."):
        global_sensitivity_abs_sp(10, variant="loose")
    with pytest.raises(InvalidParameterError,
                       match=r"The 'n0_pos' parameter of local_sensitivity_eo must be an "
                             r"integer in \[1, n_pos - 1\] = \[1, 4\]\. Got 7 instead\."):
        local_sensitivity_eo(5, 7)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'n_neg' parameter of global_sensitivity_equalized_odds "
                             r"must be an integer >= 3"):
        global_sensitivity_equalized_odds(10, 2)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'delta' parameter of attribute_conceal_beta must be in "
                             r"\(0, 1\) for noise='laplace'\. Got None instead\."):
        attribute_conceal_beta(epsilon=0.5, m=10, noise="laplace")
    with pytest.raises(InvalidParameterError,
                       match=r"The 'epsilon' parameter of attribute_conceal_beta must be a "
                             r"finite number > 0\. Got 0 instead\."):
        attribute_conceal_beta(epsilon=0, m=10)
    with pytest.raises(InvalidParameterError, match=r"'n' parameter .* Got True instead"):
        global_sensitivity_sp(True)


def test_numpy_integers_are_accepted_and_results_are_native():
    value = smooth_sensitivity_sp(np.int64(100), np.int32(10), beta=np.float64(0.1),
                                  m=np.int64(2))
    assert type(value) is float
    assert type(local_sensitivity_sp(np.int64(10), np.int64(3))) is float
    assert isinstance(global_sensitivity_sp(10, exact=True), Fraction)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        smooth_sensitivity_abs_sp(20, 5, beta=1.0)  # the default variant never warns


def test_attribute_conceal_beta_takes_its_options_by_keyword():
    assert attribute_conceal_beta(epsilon=6, m=2) == 0.5
    with pytest.warns(FutureWarning, match=r"call attribute_conceal_beta\(epsilon=6, m=2\)\.$"):
        assert attribute_conceal_beta(6, 2) == 0.5
    assert local_sensitivity_sp(n=10, n0=3, exact=True) == local_sensitivity_sp(10, 3, exact=True)
