"""The Gaussian mechanism (the paper's (epsilon, delta) alternative, §4) and predictive rate
parity (Remark 2, footnote 2): calibration by hand, the noise's scale, errors, accounting."""

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from skyprivacy.errors import BudgetError, DegenerateGroupError, InvalidParameterError
from skyprivacy.fairness_queries import (AttributeConceal, BudgetAccountant, ComplianceOracle,
                                         GaussianBiasQuery, LaplaceBiasQuery, gaussian_sigma,
                                         global_sensitivity_prp, predictive_rate_parity_gap,
                                         statistical_parity_gap)

A100 = np.array([1] * 90 + [0] * 10)
A8 = [1, 1, 1, 1, 1, 0, 0, 0]
Y8 = [1, 0, 1, 1, 0, 1, 0, 1]


# --- calibration ----------------------------------------------------------------------------

def test_gaussian_sigma_by_hand():
    # Dwork and Roth, Theorem A.1: sigma = Delta_2 sqrt(2 ln(1.25/delta)) / epsilon.
    # ln(1.25 / 1e-5) = ln(125000) = 11.736069..., sqrt(2 x that) = 4.844805...
    assert gaussian_sigma(1.0, epsilon=0.5, delta=1e-5) == pytest.approx(9.689610525, rel=1e-9)
    assert gaussian_sigma(2.0, epsilon=0.5, delta=1e-5) == \
        pytest.approx(2 * gaussian_sigma(1.0, epsilon=0.5, delta=1e-5))
    # delta = 1.25 / e^2: sqrt(2 ln(e^2)) = 2, so sigma = 2 Delta_2 / epsilon exactly
    assert gaussian_sigma(3.0, epsilon=0.25, delta=1.25 / math.e ** 2) == pytest.approx(24.0)
    assert gaussian_sigma(0.0, epsilon=0.5, delta=0.1) == 0.0


def test_gaussian_release_uses_the_l2_sensitivity():
    release = GaussianBiasQuery(epsilon=0.5, delta=1e-5, random_state=0).answer(
        np.full((25, 100), 0.5), A100)
    audit = release.audit.slices[0]
    per_query = 0.5 + 1 / 99                      # Theorem 4, one query, n = 100
    assert audit.sensitivity == pytest.approx(5 * per_query)   # sqrt(25) x, not 25 x
    assert audit.scale == pytest.approx(5 * per_query * math.sqrt(2 * math.log(125000)) / 0.5)
    assert audit.noise == "gaussian" and audit.beta is None
    assert (audit.n, audit.n0, audit.n1) == (100, 10, 90)
    assert release.mechanism == "gaussian" and release.delta == 1e-5
    # |SP| pays n/(2(n-1)) per query; EO its slice's 1/2 + 1/(n^+ - 1)
    abs_release = GaussianBiasQuery(epsilon=0.5, delta=1e-5, metric="abs_sp").answer(
        np.full((4, 100), 0.5), A100)
    assert abs_release.audit.slices[0].sensitivity == pytest.approx(2 * 100 / 198)
    y = np.array([1, 0] * 50)
    eo = GaussianBiasQuery(epsilon=0.5, delta=1e-5, metric="equalized_odds").answer(
        np.full((9, 100), 0.5), A100, y)
    assert [s.slice for s in eo.audit.slices] == ["y=1", "y=0"]
    assert eo.audit.slices[0].sensitivity == pytest.approx(3 * (0.5 + 1 / 49))
    assert eo.values.shape == (9, 2)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gaussian_noise_has_the_calibrated_scale(seed):
    release = GaussianBiasQuery(epsilon=0.8, delta=1e-6, random_state=seed).answer(
        np.full((4000, 100), 0.5), A100)          # SP = 0 exactly: the values are the noise
    sigma = release.audit.slices[0].scale
    z = release.values / sigma
    assert stats.kstest(z, "norm").pvalue > 0.01
    assert np.std(z) == pytest.approx(1.0, abs=0.05)
    # the median |noise| of N(0, sigma^2) is sigma Phi^-1(3/4)
    assert np.median(np.abs(z)) == pytest.approx(stats.norm.ppf(0.75), abs=0.05)


def test_gaussian_dp_spot_check_on_neighbouring_attributes():
    # The query isolates individual 99, who flips; P(answer > t) may differ by at most a
    # factor e^epsilon plus delta (plus sampling slack).
    eps, delta, draws = 0.9, 1e-3, 6000
    b = A100.copy()
    b[99] = 1
    h = np.zeros((draws, 100))
    h[:, 99] = 1.0
    answers = {name: GaussianBiasQuery(epsilon=eps, delta=delta, random_state=seed)
               .answer(h, labels).values for name, labels, seed in (("a", A100, 3), ("b", b, 4))}
    # one query per row would need draws separate releases; here each row's noise has the
    # batch's sigma, which is sqrt(draws) times larger, so also check the single-query sigma
    single = GaussianBiasQuery(epsilon=eps, delta=delta).answer(h[:1], A100).audit.slices[0]
    assert single.sensitivity == pytest.approx(0.5 + 1 / 99)
    slack = 4 * math.sqrt(0.25 / draws)
    for t in np.linspace(-3, 3, 7) * answers["a"].std():
        p, q = (answers["a"] > t).mean(), (answers["b"] > t).mean()
        assert p <= math.exp(eps) * q + delta + slack
        assert q <= math.exp(eps) * p + delta + slack


def test_gaussian_budget_accounting_charges_epsilon_and_delta():
    accountant = BudgetAccountant(epsilon=1.0, delta=2e-5)
    mech = GaussianBiasQuery(epsilon=0.5, delta=1e-5, random_state=0, accountant=accountant)
    mech.answer(np.full((3, 100), 0.5), A100)
    assert (accountant.spent_epsilon, accountant.spent_delta) == (0.5, 1e-5)
    mech.answer(np.full((3, 100), 0.5), A100)
    assert accountant.spent_delta == pytest.approx(2e-5)
    with pytest.raises(BudgetError, match=r"spending epsilon=0\.5, delta=1e-05 would bring the "
                                          r"total to epsilon=1\.5"):
        mech.answer(np.full((3, 100), 0.5), A100)
    oracle = ComplianceOracle(A100, mechanism=GaussianBiasQuery(epsilon=0.5, delta=1e-5),
                              budget=(10.0, 1e-5))
    oracle.query(np.full((2, 100), 0.5))
    with pytest.raises(BudgetError, match=r"over the budget epsilon=10\.0, delta=1e-05"):
        oracle.query(np.full((2, 100), 0.5))


def test_gaussian_parameter_errors():
    with pytest.raises(InvalidParameterError,
                       match=r"The 'epsilon' parameter of GaussianBiasQuery must be in \(0, 1\) "
                             r"\(Dwork and Roth's Theorem A\.1 is proven for epsilon "
                             r"< 1\)\. Got 1\.0 instead\."):
        GaussianBiasQuery(epsilon=1.0, delta=1e-5)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'delta' parameter of GaussianBiasQuery must be in "
                             r"\(0, 1\)\. Got 0 instead\."):
        GaussianBiasQuery(epsilon=0.5, delta=0)
    with pytest.raises(TypeError, match="delta"):
        GaussianBiasQuery(epsilon=0.5)  # delta has no default: (epsilon, delta)-DP
    with pytest.raises(InvalidParameterError,
                       match=r"The 'l2_sensitivity' parameter of gaussian_sigma must be a "
                             r"finite number >= 0\. Got -1\.0 instead\."):
        gaussian_sigma(-1.0, epsilon=0.5, delta=0.1)
    with pytest.raises(InvalidParameterError, match=r"'epsilon' parameter of gaussian_sigma"):
        gaussian_sigma(1.0, epsilon=2.0, delta=0.1)


# --- predictive rate parity (Remark 2) -------------------------------------------------------

def test_prp_gap_by_hand():
    # h accepts 0, 2, 4 (group 1: y = 1, 1, 0) and 5, 7 (group 0: y = 1, 1)
    h = [1, 0, 1, 0, 1, 1, 0, 1]
    assert predictive_rate_parity_gap(h, A8, Y8) == pytest.approx(2 / 3 - 1)
    both = predictive_rate_parity_gap([h, [1, 1, 1, 1, 1, 1, 1, 1]], A8, Y8)
    # the all-accepting model's PPV gap is the SP of y: 3/5 - 2/3
    np.testing.assert_allclose(both, [-1 / 3, 3 / 5 - 2 / 3])
    assert both[1] == pytest.approx(statistical_parity_gap(Y8, A8))


def test_prp_errors():
    with pytest.raises(InvalidParameterError,
                       match=r"The 'preds' parameter of predictive_rate_parity_gap must be "
                             r"binary \(0/1\) for predictive rate parity\. Got '0\.5 at "
                             r"position 2' instead\."):
        predictive_rate_parity_gap([1, 0, 0.5, 0, 1, 1, 0, 1], A8, Y8)
    with pytest.raises(DegenerateGroupError,
                       match=r"The predictive-rate-parity gap is undefined: group a=0 is empty "
                             r"\(N_0 = 0, N_1 = 2\) among the individuals model 1 accepts "
                             r"\(h = 1\)\."):
        predictive_rate_parity_gap([[1] * 8, [1, 1, 0, 0, 0, 0, 0, 0]], A8, Y8)
    with pytest.raises(InvalidParameterError, match=r"'y' parameter of GaussianBiasQuery\.answer "
                                                    r"must be given for metric='prp'"):
        GaussianBiasQuery(epsilon=0.5, delta=0.1, metric="prp").answer([1] * 8, A8)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'metric' parameter of AttributeConceal must be 'sp', "
                             r"'abs_sp', 'eo' or 'equalized_odds' with noise \(no smooth "
                             r"sensitivity of predictive rate parity is derived; use "
                             r"LaplaceBiasQuery or GaussianBiasQuery\)\. Got 'prp' instead\."):
        AttributeConceal(epsilon=1.0, metric="prp")
    with pytest.raises(InvalidParameterError,
                       match=r"The 'preds' parameter of LaplaceBiasQuery\.answer must accept at "
                             r"least 3 individuals per model for metric='prp' \(the "
                             r"sensitivity bound assumes a slice of >= 3\)\. Got 'model 0 "
                             r"accepting 2' instead\."):
        LaplaceBiasQuery(epsilon=1.0, metric="prp").answer([1, 0, 0, 0, 0, 1, 0, 0], A8, Y8)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'slice_sizes' parameter of global_sensitivity_prp must be "
                             r"an integer >= 3 \(the sensitivity bounds assume n >= 3\)\. Got 2 "
                             r"instead\."):
        global_sensitivity_prp([5, 2])


def test_prp_sensitivity_is_the_slice_sp_bound_and_holds_by_enumeration():
    assert global_sensitivity_prp([10, 4], exact=True) == Fraction(13, 9)
    assert global_sensitivity_prp([5]) == pytest.approx(0.75)
    # Exhaustive over every a in {0,1}^6 with both groups non-empty on the slice, every y and
    # every neighbour: the largest move of the PPV gap equals 1/2 + 1/(k - 1) for k = 6.
    n, worst = 6, Fraction(0)
    h = [1] * n
    for code_y in range(2 ** n):
        y = [(code_y >> j) & 1 for j in range(n)]
        for code_a in range(1, 2 ** n - 1):
            a = [(code_a >> j) & 1 for j in range(n)]
            base = _prp_fraction(h, a, y)
            for j in range(n):
                b = list(a)
                b[j] = 1 - b[j]
                if 0 < sum(b) < n:
                    worst = max(worst, abs(_prp_fraction(h, b, y) - base))
    assert worst == global_sensitivity_prp([n], exact=True) == Fraction(7, 10)


def _prp_fraction(h, a, y):
    ones = [y[j] for j in range(len(a)) if h[j] and a[j] == 1]
    zeros = [y[j] for j in range(len(a)) if h[j] and a[j] == 0]
    return Fraction(sum(ones), len(ones)) - Fraction(sum(zeros), len(zeros))


def test_prp_answered_by_laplace_and_gaussian():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 100)
    h = (rng.uniform(size=(5, 100)) < 0.6).astype(float)
    sizes = h.sum(axis=1)
    lap = LaplaceBiasQuery(epsilon=2.0, metric="prp", random_state=0).answer(h, A100, y)
    np.testing.assert_allclose(lap.audit.true_values, predictive_rate_parity_gap(h, A100, y))
    assert lap.audit.slices[0].sensitivity == pytest.approx(float(np.sum(0.5 + 1 / (sizes - 1))))
    assert lap.audit.slices[0].scale == pytest.approx(lap.audit.slices[0].sensitivity / 2.0)
    gauss = GaussianBiasQuery(epsilon=0.5, delta=1e-5, metric="prp", clip=True,
                              random_state=0).answer(h, A100, y)
    l2 = math.sqrt(float(np.sum((0.5 + 1 / (sizes - 1)) ** 2)))
    assert gauss.audit.slices[0].sensitivity == pytest.approx(l2)
    assert gauss.audit.slices[0].scale == pytest.approx(gaussian_sigma(l2, epsilon=0.5,
                                                                        delta=1e-5))
    assert np.all(np.abs(gauss.values) <= 1.0) and gauss.to_frame().columns.tolist() == ["prp"]
    exact = AttributeConceal(epsilon=math.inf, noise=None, metric="prp").answer(h, A100, y)
    np.testing.assert_allclose(exact.values, lap.audit.true_values)


def test_prp_queries_leak_the_protected_attribute():
    # Remark 2: the attacks extend.  A model accepting a fixed set K plus target t: the PPV
    # gap moves when t joins K, in a direction set by a_t (here y_t = 1 and K's groups have
    # different positive rates), so two exact answers reveal a_t.
    rng = np.random.default_rng(1)
    a = A100.copy()
    y = rng.integers(0, 2, 100)
    known = np.zeros(100)
    known[[0, 1, 2, 90, 91, 92]] = 1
    y[[0, 1, 2]] = 1
    y[[90, 91, 92]] = 0                          # PPV 1 in group 1, 0 in group 0: gap 1
    oracle = ComplianceOracle(a, y, mechanism=AttributeConceal(epsilon=math.inf, noise=None,
                                                               metric="prp"))
    base = oracle.query(known)[0]
    recovered = []
    for target in np.flatnonzero((y == 1) & (known == 0))[:20]:
        with_t = known.copy()
        with_t[target] = 1
        # t with y = 1 raises the group-0 PPV (gap falls) or leaves group 1's at 1 (no move)
        recovered.append((int(target), int(oracle.query(with_t)[0] >= base)))
    assert base == 1.0
    assert all(guess == a[t] for t, guess in recovered) and len(recovered) == 20
