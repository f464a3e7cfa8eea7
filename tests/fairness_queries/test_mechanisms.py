"""Attribute-Conceal, the Laplace baseline and the oracle (spec §6, §7, §9; S3-S5)."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from skyprivacy.errors import (BudgetError, DegenerateGroupError, InvalidParameterError,
                               PrivacyRiskWarning, UnsafeConstantWarning)
from skyprivacy.fairness_queries import (AttributeConceal, BudgetAccountant, ComplianceOracle,
                                         LaplaceBiasQuery, attribute_conceal_beta, cs_reveal,
                                         crossover_epsilon, expected_median_abs_error,
                                         global_sensitivity_abs_sp, global_sensitivity_sp,
                                         smooth_sensitivity_sp,
                                         statistical_parity_gap, uniform_perturbation_design)

A100 = np.array([1] * 90 + [0] * 10)


def exact_oracle(a, y=None, metric="sp", budget=None):
    return ComplianceOracle(a, y, mechanism=AttributeConceal(epsilon=math.inf, noise=None,
                                                             metric=metric), budget=budget)


def constant_queries(m, n=100):
    return np.full((m, n), 0.5)  # SP = 0 exactly: the released values are the noise


# --- what a release holds -----------------------------------------------------------------

def test_release_exposes_answers_and_hides_the_audit():
    mech = AttributeConceal(epsilon=5.0, random_state=0)
    preds = uniform_perturbation_design(np.linspace(0, 1, 100), n_queries=25, random_state=1)
    release = mech.answer(preds, A100)
    assert release.values.shape == (25,)
    assert not release.values.flags.writeable
    public = release.to_public_dict()
    assert set(public) == {"schema_version", "metric", "mechanism", "epsilon", "delta", "values"}
    assert public["mechanism"] == "attribute_conceal_cauchy" and public["delta"] == 0.0
    assert all(type(v) is float for v in public["values"])
    assert "audit" not in repr(release) and "scale" not in repr(release)
    audit = release.audit.slices[0]
    assert (audit.n, audit.n0, audit.n1) == (100, 10, 90)
    assert audit.beta == pytest.approx(5 / (6 * 25))
    assert audit.scale == pytest.approx(11.721, rel=1e-4)  # T4 first row
    np.testing.assert_allclose(release.audit.true_values, statistical_parity_gap(preds, A100))
    assert release.to_dict()["audit"]["slices"][0]["scale"] == audit.scale
    frame = release.to_frame()
    assert list(frame.columns) == ["sp"] and frame.index.name == "query" and len(frame) == 25


def test_mechanism_uses_the_minority_rule_when_group_0_is_the_majority():
    a = 1 - A100  # N_0 = 90
    release = AttributeConceal(epsilon=5.0, random_state=0).answer(constant_queries(25), a)
    beta = attribute_conceal_beta(epsilon=5.0, n_queries=25)
    assert release.audit.slices[0].sensitivity == \
        pytest.approx(smooth_sensitivity_sp(100, 90, beta=beta, n_queries=25))
    assert release.audit.slices[0].sensitivity == \
        pytest.approx(smooth_sensitivity_sp(100, 10, beta=beta, n_queries=25))


def test_laplace_smooth_scale_and_baseline_scales():
    rel = AttributeConceal(epsilon=0.5, delta=1e-5, noise="laplace",
                           random_state=0).answer(constant_queries(25), A100)
    assert rel.mechanism == "attribute_conceal_laplace" and rel.delta == 1e-5
    assert rel.audit.slices[0].scale == pytest.approx(49.6573, rel=1e-5)  # T5
    base = LaplaceBiasQuery(epsilon=5.0, random_state=0).answer(constant_queries(25), A100)
    assert base.audit.slices[0].scale == pytest.approx(2.55051, rel=1e-5)  # T6
    a1000 = np.array([1] * 896 + [0] * 104)
    with pytest.warns(PrivacyRiskWarning):
        big = LaplaceBiasQuery(epsilon=100.0, random_state=0)
    assert big.answer(constant_queries(400, 1000), a1000).audit.slices[0].scale == \
        pytest.approx(2.004, rel=1e-4)
    absq = LaplaceBiasQuery(epsilon=2.0, metric="abs_sp", random_state=0)
    assert absq.answer(constant_queries(3), A100).audit.slices[0].sensitivity == \
        pytest.approx(global_sensitivity_abs_sp(100, n_queries=3))


def test_equal_opportunity_and_equalized_odds_answer_their_slices():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 100)
    y[:5], y[95:] = 1, 0  # both groups present in both slices
    n_pos = int(y.sum())
    base = LaplaceBiasQuery(epsilon=2.0, metric="eo", random_state=0)
    assert base.answer(constant_queries(4), A100, y).audit.slices[0].sensitivity == \
        pytest.approx(global_sensitivity_sp(n_pos, n_queries=4))  # n^+, not n (T12)
    acc = BudgetAccountant(epsilon=2.0)
    mech = AttributeConceal(epsilon=2.0, metric="equalized_odds", random_state=0,
                            accountant=acc)
    release = mech.answer(constant_queries(6), A100, y)
    assert release.values.shape == (6, 2)
    assert list(release.to_frame().columns) == ["tpr_gap", "fpr_gap"]
    pos, neg = release.audit.slices
    assert (pos.slice, neg.slice) == ("y=1", "y=0")
    assert pos.n == n_pos and neg.n == 100 - n_pos
    assert pos.beta == neg.beta == pytest.approx(2.0 / 36)  # each slice at the full epsilon
    assert acc.spent_epsilon == 2.0  # parallel composition: charged once


def test_abs_modes():
    preds = uniform_perturbation_design(np.linspace(0, 1, 100), n_queries=50, random_state=2)
    signed = AttributeConceal(epsilon=5.0, random_state=7).answer(preds, A100).values
    post = AttributeConceal(epsilon=5.0, metric="abs_sp", abs_mode="postprocess",
                            random_state=7).answer(preds, A100)
    np.testing.assert_array_equal(post.values, np.abs(signed))  # same noise, then |.|
    smooth = AttributeConceal(epsilon=5.0, metric="abs_sp", random_state=7).answer(preds, A100)
    exact = np.abs(statistical_parity_gap(preds, A100))
    np.testing.assert_allclose(smooth.values - exact, signed - statistical_parity_gap(preds, A100))
    with pytest.warns(UnsafeConstantWarning,
                      match=r"AttributeConceal\(abs_mode='paper'\) uses A\.6's smooth "
                            r"sensitivity of \|SP\|, which under-estimates it"):
        paper = AttributeConceal(epsilon=5.0, metric="abs_sp", abs_mode="paper", random_state=7)
    beta = attribute_conceal_beta(epsilon=5.0, n_queries=50)
    assert paper.answer(preds, A100).audit.slices[0].sensitivity == \
        pytest.approx(50 * max(1 / 10, math.exp(-8 * beta) / 2))


def test_clip_keeps_answers_in_range():
    preds = uniform_perturbation_design(np.linspace(0, 1, 100), n_queries=200, random_state=0)
    vals = AttributeConceal(epsilon=1.0, clip=True, random_state=0).answer(preds, A100).values
    assert vals.min() >= -1 and vals.max() <= 1 and (np.abs(vals) == 1).any()
    vals = LaplaceBiasQuery(epsilon=1.0, metric="abs_sp", clip=True,
                            random_state=0).answer(preds, A100).values
    assert vals.min() >= 0 and vals.max() <= 1


def test_zero_queries_return_empty_and_charge_nothing():
    acc = BudgetAccountant(epsilon=1.0)
    release = AttributeConceal(epsilon=1.0, accountant=acc).answer(np.zeros((0, 100)), A100)
    assert release.values.shape == (0,) and release.n_queries == 0 and acc.spent_epsilon == 0.0
    oracle = ComplianceOracle(A100, mechanism=AttributeConceal(epsilon=1.0), budget=1.0)
    assert oracle.query(np.zeros((0, 100))).shape == (0,)
    assert oracle.accountant.spent_epsilon == 0.0


def test_seeded_randomness_and_caller_data_untouched():
    frame = pd.DataFrame({"race": ["White"] * 90 + ["Black"] * 10,
                          "score": np.linspace(0, 1, 100)}, index=range(500, 600))
    before = frame.copy()
    a = (frame["race"] == "White")
    preds = np.vstack([frame["score"].to_numpy()] * 3)
    preds_before = preds.copy()
    one = AttributeConceal(epsilon=2.0, random_state=11).answer(preds, a).values
    two = AttributeConceal(epsilon=2.0, random_state=np.random.default_rng(11)).answer(preds, a)
    np.testing.assert_array_equal(one, two.values)
    mech = AttributeConceal(epsilon=2.0, random_state=11)
    first, second = mech.answer(preds, a).values, mech.answer(preds, a).values
    assert not np.array_equal(first, second)  # the mechanism's stream moves on
    pd.testing.assert_frame_equal(frame, before)
    np.testing.assert_array_equal(preds, preds_before)


# --- S4: the noise has the stated distribution and scale --------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 2])
def test_s4_cauchy_noise_distribution(seed):
    release = AttributeConceal(epsilon=3.0, random_state=seed).answer(constant_queries(4000),
                                                                      A100)
    z = release.values / release.audit.slices[0].scale
    assert stats.kstest(z, "cauchy").pvalue > 0.01
    assert abs(np.median(np.abs(z)) - 1.0) < 0.08


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_s4_laplace_noise_distributions(seed):
    smooth = AttributeConceal(epsilon=0.9, delta=1e-6, noise="laplace", random_state=seed)
    release = smooth.answer(constant_queries(4000), A100)
    z = release.values / release.audit.slices[0].scale
    assert stats.kstest(z, "laplace").pvalue > 0.01
    assert abs(np.median(np.abs(z)) - math.log(2)) < 0.06
    base = LaplaceBiasQuery(epsilon=2.0, random_state=seed).answer(constant_queries(4000), A100)
    z = base.values / base.audit.slices[0].scale
    assert stats.kstest(z, "laplace").pvalue > 0.01


def test_s4_dp_spot_check_on_neighbouring_attributes():
    # Neighbours N_0 = 10 and N_0 = 9 (individual 99 flips); the query isolates individual 99,
    # the worst case.  P(answer > t) may differ by at most a factor e^epsilon.
    eps, draws = 1.0, 6000
    a = A100.copy()
    b = A100.copy()
    b[99] = 1
    h = np.zeros(100)
    h[99] = 1.0
    samples = {}
    for name, labels in (("a", a), ("b", b)):
        mech = AttributeConceal(epsilon=eps, random_state=5 if name == "a" else 6)
        samples[name] = np.array([mech.answer(h, labels).values[0] for _ in range(draws)])
    for t in np.linspace(-1.0, 1.0, 9):
        p = (samples["a"] > t).mean()
        q = (samples["b"] > t).mean()
        slack = 4 * math.sqrt(0.25 / draws)
        assert p <= math.exp(eps) * q + slack
        assert q <= math.exp(eps) * p + slack


# --- S3: Attribute-Conceal stops the compressed-sensing attack -----------------------------

@pytest.mark.parametrize("eps", [5.0, 10.0, 100.0])
def test_s3_leakage_under_attribute_conceal_is_near_chance(eps):
    scores = []
    for seed in range(10):
        rng = np.random.default_rng(seed)
        a = np.ones(100, dtype=int)
        a[rng.choice(100, 10, replace=False)] = 0
        H = uniform_perturbation_design(rng.uniform(0, 1, 100), n_queries=40, random_state=rng)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PrivacyRiskWarning)
            mech = AttributeConceal(epsilon=eps, random_state=rng)
        noisy = mech.answer(H, a).values
        scores.append(cs_reveal(H, noisy, n0=10).evaluate(a).leakage)
        # the same attack without noise recovers everyone (spec S2 setting)
        assert cs_reveal(H, statistical_parity_gap(H, a), n0=10).recovered_all(a)
    assert abs(np.mean(scores) - 50.0) <= 7.0


# --- S5: when does Attribute-Conceal beat Laplace? (spec §7.7) --------------------------------

def test_s5_crossover_table():
    assert crossover_epsilon(100, 10, n_queries=25) == math.inf
    for eps in (1.0, 10.0, 100.0, 1e4):
        assert expected_median_abs_error(100, 10, mechanism="cauchy", n_queries=25, epsilon=eps) > \
            expected_median_abs_error(100, 10, mechanism="laplace", n_queries=25, epsilon=eps)
    for (n, n0, m), table in [((1000, 104, 300), 38.1), ((1000, 310, 800), 33.7),
                              ((10000, 1000, 1000), 13.0)]:
        cross = crossover_epsilon(n, n0, n_queries=m)
        assert math.ceil(cross * 10) / 10 == pytest.approx(table)  # the spec's 0.1 grid
        below, above = cross * 0.99, cross * 1.01
        assert expected_median_abs_error(n, n0, mechanism="cauchy", n_queries=m, epsilon=below) > \
            expected_median_abs_error(n, n0, mechanism="laplace", n_queries=m, epsilon=below)
        assert expected_median_abs_error(n, n0, mechanism="cauchy", n_queries=m, epsilon=above) < \
            expected_median_abs_error(n, n0, mechanism="laplace", n_queries=m, epsilon=above)


def test_s5_expected_median_errors_match_simulation():
    preds = constant_queries(3000)
    for mech, kind, args in [
        (AttributeConceal(epsilon=5.0, random_state=0), "cauchy", {}),
        (AttributeConceal(epsilon=0.5, delta=1e-5, noise="laplace", random_state=0),
         "smooth_laplace", {"delta": 1e-5}),
        (LaplaceBiasQuery(epsilon=5.0, random_state=0), "laplace", {}),
    ]:
        release = mech.answer(preds, A100)
        expected = expected_median_abs_error(100, 10, mechanism=kind, n_queries=3000,
                                             epsilon=mech.epsilon, **args)
        assert np.median(np.abs(release.values)) == pytest.approx(expected, rel=0.08)


# --- the oracle ---------------------------------------------------------------------------

def test_oracle_refuses_once_the_budget_is_spent():
    oracle = ComplianceOracle(A100, mechanism=AttributeConceal(epsilon=1.0, random_state=0),
                              budget=2.5)
    for _ in range(2):
        oracle.query(constant_queries(5))
    with pytest.raises(BudgetError, match=r"over the budget epsilon=2\.5"):
        oracle.query(constant_queries(5))
    assert oracle.queries_answered == 10 and len(oracle.audit_log) == 2
    assert oracle.accountant.spent_epsilon == 2.0
    exact = exact_oracle(A100, budget=10.0)  # no noise costs an infinite epsilon
    with pytest.raises(BudgetError, match=r"spending epsilon=inf"):
        exact.query(constant_queries(1))
    assert exact.queries_answered == 0
    assert exact_oracle(A100).query([[0.5] * 100]).tolist() == [0.0]


def test_oracle_exposes_public_facts_only():
    y = np.tile([0, 1], 50)
    oracle = exact_oracle(A100, y, metric="eo")
    assert oracle.n == 100 and oracle.metric == "eo"
    got = oracle.y
    got[:] = 7  # a copy: the oracle's labels do not change
    np.testing.assert_array_equal(oracle.y, y)
    assert not hasattr(oracle, "a")
    assert "queries_answered=0" in repr(oracle)


# --- bad inputs and warnings ------------------------------------------------------------------

def test_mechanism_parameter_errors():
    with pytest.raises(InvalidParameterError,
                       match=r"The 'epsilon' parameter of AttributeConceal must be a finite "
                             r"number > 0 \(math\.inf only with noise=None\)\. Got 0 instead\."):
        AttributeConceal(epsilon=0)
    with pytest.raises(InvalidParameterError, match=r"'epsilon' parameter of AttributeConceal "
                                                    r"must be a finite .* Got inf instead"):
        AttributeConceal(epsilon=math.inf)
    with pytest.raises(InvalidParameterError, match=r"Got nan instead"):
        AttributeConceal(epsilon=float("nan"))
    with pytest.raises(InvalidParameterError,
                       match=r"The 'epsilon' parameter of AttributeConceal must be math\.inf "
                             r"with noise=None \(exact answers\)\. Got 1\.0 instead\."):
        AttributeConceal(epsilon=1.0, noise=None)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'epsilon' parameter of AttributeConceal must be in \(0, 1\) "
                             r"with noise='laplace' \(Theorem 6 is proven only there; use "
                             r"noise='cauchy'\)\. Got 2\.0 instead\."):
        AttributeConceal(epsilon=2.0, delta=1e-5, noise="laplace")
    with pytest.raises(InvalidParameterError,
                       match=r"The 'delta' parameter of AttributeConceal must be in \(0, 1\) "
                             r"with noise='laplace'\. Got 1\.0 instead\."):
        AttributeConceal(epsilon=0.5, delta=1.0, noise="laplace")
    with pytest.raises(InvalidParameterError,
                       match=r"The 'delta' parameter of AttributeConceal must be None with "
                             r"noise='cauchy' \(pure epsilon-DP\)\. Got 1e-05 instead\."):
        AttributeConceal(epsilon=1.0, delta=1e-5)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'metric' parameter of AttributeConceal must be one of "
                             r"\['sp', 'abs_sp', 'eo', 'equalized_odds', 'prp'\]\. "
                             r"Got 'dp' instead\."):
        AttributeConceal(epsilon=1.0, metric="dp")
    with pytest.raises(InvalidParameterError,
                       match=r"The 'noise' parameter of AttributeConceal must be one of "
                             r"\['cauchy', 'laplace', None\]\. Got 'gauss' instead\."):
        AttributeConceal(epsilon=1.0, noise="gauss")
    with pytest.raises(InvalidParameterError,
                       match=r"The 'clip' parameter of LaplaceBiasQuery must be True or False"):
        LaplaceBiasQuery(epsilon=1.0, clip="yes")
    with pytest.raises(InvalidParameterError,
                       match=r"The 'random_state' parameter of AttributeConceal must be None, "
                             r"a non-negative int seed or a numpy\.random\.Generator\. Got "
                             r"'seed' instead\."):
        AttributeConceal(epsilon=1.0, random_state="seed")
    with pytest.raises(InvalidParameterError,
                       match=r"^The 'accountant' parameter of AttributeConceal must be None or "
                             r"a BudgetAccountant\. Got 'float' instead\.$"):
        AttributeConceal(epsilon=1.0, accountant=3.0)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'epsilon' parameter of LaplaceBiasQuery must be a finite "
                             r"number > 0\. Got -1 instead\."):
        LaplaceBiasQuery(epsilon=-1)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'budget' parameter of ComplianceOracle must be None, an "
                             r"epsilon or an \(epsilon, delta\) pair\. Got 'lots' instead\."):
        ComplianceOracle(A100, mechanism=AttributeConceal(epsilon=1.0), budget="lots")
    with pytest.raises(InvalidParameterError,
                       match=r"^The 'mechanism' parameter of ComplianceOracle must be an "
                             r"AttributeConceal or LaplaceBiasQuery\. Got 'str' instead\.$"):
        ComplianceOracle(A100, mechanism="laplace")


def test_answer_input_errors():
    mech = AttributeConceal(epsilon=1.0, metric="eo", random_state=0)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'y' parameter of AttributeConceal\.answer must be given for "
                             r"metric='eo'\. Got None instead\."):
        mech.answer(constant_queries(2), A100)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'y' parameter of ComplianceOracle must be given for "
                             r"metric='equalized_odds'"):
        ComplianceOracle(A100, mechanism=AttributeConceal(epsilon=1.0, metric="equalized_odds"))
    sp = AttributeConceal(epsilon=1.0, random_state=0)
    with pytest.raises(DegenerateGroupError,
                       match=r"The statistical parity gap is undefined: group a=0 is empty"):
        sp.answer(constant_queries(2), np.ones(100, dtype=int))
    y = np.zeros(100, dtype=int)
    y[[0, 1, 2]] = 1  # the positives are all in group 0 of 1 - A100
    with pytest.raises(DegenerateGroupError,
                       match=r"The equal-opportunity gap is undefined: group a=1 is empty in "
                             r"the slice y=1 \(N_0\^\+ = 3, N_1\^\+ = 0\)"):
        mech.answer(constant_queries(2), 1 - A100, y)
    y = np.zeros(100, dtype=int)
    y[[0, 99]] = 1
    with pytest.raises(InvalidParameterError,
                       match=r"The 'a' parameter of AttributeConceal\.answer must have at least "
                             r"3 individuals in the slice y=1 \(the sensitivity bounds assume "
                             r"n >= 3\)\. Got '2 individuals' instead\."):
        mech.answer(constant_queries(2), A100, y)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'preds' parameter of AttributeConceal\.answer must have last "
                             r"dimension len\(a\) = 100\. Got 'shape \(2, 99\)' instead\."):
        sp.answer(np.zeros((2, 99)), A100)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'preds' parameter of ComplianceOracle\.query must be in "
                             r"\[0, 1\] without NaN"):
        exact_oracle(A100).query(np.full((1, 100), 2.0))


def test_weak_epsilon_warns_and_threshold_is_configurable():
    with pytest.warns(PrivacyRiskWarning,
                      match=r"AttributeConceal with epsilon=100\.0 > 10\.0: the guarantee is "
                            r"very weak"):
        AttributeConceal(epsilon=100.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        AttributeConceal(epsilon=100.0, risk_epsilon=1000.0)
        AttributeConceal(epsilon=math.inf, noise=None)
        LaplaceBiasQuery(epsilon=10.0)
    with pytest.warns(UnsafeConstantWarning):
        LaplaceBiasQuery(epsilon=1.0, metric="abs_sp", abs_variant="paper")


def test_declared_numpy_options_reach_the_mechanism_as_python_scalars():
    mech = LaplaceBiasQuery(epsilon=np.float64(2.0), risk_epsilon=np.int64(5))
    assert type(mech.epsilon) is float and type(mech.risk_epsilon) is float
