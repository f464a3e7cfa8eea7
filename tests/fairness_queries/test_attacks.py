"""Attribute-Reveal attacks on synthetic data (spec §4; T8-T11, S1, S2)."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from skyprivacy.errors import (BudgetError, InfeasibleError, InvalidParameterError,
                               QueryDesignWarning)
from skyprivacy.fairness_queries import (AttributeConceal, ComplianceOracle, abs_sp_partition,
                                         base_difference_reveal, bernoulli_design,
                                         compressed_sensing_reveal, cs_reveal, decode_flip_pair,
                                         decode_single, equalized_odds_reveal,
                                         estimate_group_sizes, flip_design,
                                         flip_design_slogdet, flip_pair_design,
                                         flip_pair_reveal, flip_reveal, leakage_score,
                                         linear_system_reveal, single_query_design,
                                         single_query_reveal, slice_attack,
                                         statistical_parity_gap, uniform_perturbation_design)


def exact_oracle(a, y=None, metric="sp", budget=None):
    mech = AttributeConceal(epsilon=math.inf, noise=None, metric=metric)
    return ComplianceOracle(a, y, mechanism=mech, budget=budget)


def planted(n, n0, seed, minority=0):
    """Attribute vector with a random minority of size n0 in group ``minority``."""
    rng = np.random.default_rng(seed)
    a = np.full(n, 1 - minority)
    a[rng.choice(n, n0, replace=False)] = minority
    return a


# --- Example 1 --------------------------------------------------------------------------------

def test_example_1_single_query_identifies_the_target():
    a = np.array([1] * 15 + [0] * 5)
    oracle = exact_oracle(a)
    result = single_query_reveal(oracle, 17)
    assert (result.a_target, result.queries_used, result.group_size) == (0, 1, 5)
    assert result.answers == (pytest.approx(-0.2),)  # -1/N_0 (spec §4.1)
    result = single_query_reveal(oracle, 3, target_prediction=0.3)  # the soft variant
    assert (result.a_target, result.group_size) == (1, 15)
    assert result.answers[0] == pytest.approx(0.3 / 15)
    assert oracle.queries_answered == 2
    assert result.to_dict()["target"] == 3
    assert decode_single(-1e-9) == 0 and decode_single(1e-9) == 1
    with pytest.warns(QueryDesignWarning, match=r"An answer of exactly 0 carries no information"):
        assert decode_single(0.0) == -1


# --- T8: Example 2 sign table -----------------------------------------------------------------

@pytest.mark.parametrize("h_t, a_t, n1, expected", [
    (0.0, 0, 15, -0.2), (0.0, 1, 16, 0.0625), (1.0, 0, 15, 0.2), (1.0, 1, 16, -0.0625)])
def test_t8_example_2_sign_table(h_t, a_t, n1, expected):
    a = np.array([1] * n1 + [0] * (20 - n1))
    target = 0 if a_t == 1 else 19
    h1 = np.full(20, 0.3)
    h1[target] = h_t
    sp1, sp2 = statistical_parity_gap(flip_pair_design(h1, target), a)
    assert sp2 - sp1 == pytest.approx(expected)
    assert decode_flip_pair(sp1, sp2, h_t) == a_t
    assert flip_pair_reveal(exact_oracle(a), h1, target).a_target == a_t


@settings(max_examples=50)
@given(st.data())
def test_flip_pair_decodes_any_soft_model(data):
    n = data.draw(st.integers(3, 15))
    a = data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)
                  .filter(lambda v: 0 < sum(v) < len(v)))
    h1 = data.draw(st.lists(st.floats(0, 1), min_size=n, max_size=n))
    target = data.draw(st.integers(0, n - 1))
    assume(abs(1 - 2 * h1[target]) >= 1e-6)  # h1(x_t) = 1/2 carries no information
    assert flip_pair_reveal(exact_oracle(a), h1, target).a_target == a[target]


def test_flip_pair_without_information_warns():
    with pytest.warns(QueryDesignWarning, match=r"h1\(x_t\) = 1/2"):
        assert decode_flip_pair(0.1, 0.1, 0.5) == -1


# --- T9: Algorithm 1 and its singular cases ----------------------------------------------------

@settings(max_examples=40)
@given(st.lists(st.floats(0, 1).filter(lambda x: abs(x - 0.5) > 1e-3), min_size=2,
                max_size=12))
def test_t9_determinant_identity(h0):
    sign, logdet = flip_design_slogdet(h0)
    ref_sign, ref_logdet = np.linalg.slogdet(flip_design(h0))
    if ref_sign == 0 or sign == 0:
        assert abs(np.linalg.det(flip_design(h0))) < 1e-8
    else:
        assert sign == ref_sign
        assert logdet == pytest.approx(ref_logdet, abs=1e-8)


def test_t9_singular_designs():
    one_accept = np.zeros(30)
    one_accept[4] = 1.0
    assert np.linalg.matrix_rank(flip_design(one_accept)) == 29
    assert flip_design_slogdet(one_accept) == (0.0, -math.inf)
    assert np.linalg.matrix_rank(flip_design(np.full(30, 0.5))) == 1
    assert flip_design_slogdet(np.full(30, 0.5)) == (0.0, -math.inf)
    # exactly one prediction at 1/2 keeps H invertible (det = h_t prod_{k != t}(1 - 2h_k))
    one_half = np.linspace(0.05, 0.3, 30)
    one_half[7] = 0.5
    assert np.linalg.matrix_rank(flip_design(one_half)) == 30
    sign, logdet = flip_design_slogdet(one_half)
    assert (sign, logdet) == pytest.approx(np.linalg.slogdet(flip_design(one_half)))


def test_t9_flip_reveal_refuses_or_falls_back_before_querying():
    a = planted(30, 6, 0)
    oracle = exact_oracle(a)
    one_accept = np.zeros(30)
    one_accept[4] = 1.0
    with pytest.raises(InfeasibleError,
                       match=r"The flip design of Algorithm 1 is singular for this h0: "
                             r"1 \+ sum_j h0_j / \(1 - 2 h0_j\) = 0 \(for a binary h0: it "
                             r"accepts exactly one individual\)\. Pass "
                             r"singular='base_difference'"):
        flip_reveal(oracle, one_accept)
    with pytest.raises(InfeasibleError, match=r"2 predictions equal 1/2"):
        flip_reveal(oracle, np.r_[0.5, 0.5, np.zeros(28)])
    assert oracle.queries_answered == 0  # refused before asking anything
    result = flip_reveal(oracle, one_accept, singular="base_difference")
    assert result.method == "base_difference" and result.recovered_all(a)
    assert result.queries_used == 31


@pytest.mark.parametrize("kind", ["binary", "soft", "one_half"])
def test_flip_reveal_recovers_everyone(kind):
    rng = np.random.default_rng(1)
    a = planted(50, 12, 1)
    h0 = {"binary": (rng.random(50) < 0.4).astype(float), "soft": rng.uniform(0, 1, 50),
          "one_half": np.r_[0.5, rng.uniform(0, 0.45, 49)]}[kind]
    result = flip_reveal(exact_oracle(a), h0)
    assert result.recovered_all(a)
    assert (result.queries_used, result.n0, result.n1) == (50, 12, 38)
    np.testing.assert_allclose(np.sort(np.unique(np.round(result.decoded, 9))),
                               [-1 / 12, 1 / 38], atol=1e-9)
    batched = flip_reveal(exact_oracle(a), h0, batch_size=7)
    np.testing.assert_allclose(batched.decoded, result.decoded, atol=1e-12)
    assert batched.queries_used == 50
    assert result.evaluate(a).leakage == 100.0


@settings(max_examples=30)
@given(st.lists(st.floats(0, 1), min_size=3, max_size=20), st.integers(0, 2**32 - 1))
def test_linear_time_solve_matches_dense_solve(h0, seed):
    h0 = np.array(h0)
    if flip_design_slogdet(h0)[1] < -30 or np.abs(1 - 2 * h0).min() < 1e-3:
        return  # ill-conditioned designs: nothing to compare
    a = planted(h0.size, 1 + seed % (h0.size - 1), seed)
    oracle = exact_oracle(a)
    result = flip_reveal(oracle, h0)
    dense = np.linalg.solve(flip_design(h0), statistical_parity_gap(flip_design(h0), a))
    np.testing.assert_allclose(result.decoded, dense, rtol=1e-6, atol=1e-8)


def test_base_difference_reveal_marks_undecodable_individuals():
    a = planted(20, 5, 2)
    h0 = np.linspace(0.0, 0.4, 20)
    h0[[3, 11]] = 0.5
    oracle = exact_oracle(a)
    with pytest.warns(QueryDesignWarning,
                      match=r"2 individual\(s\) have h0 = 1/2: flipping their prediction "
                            r"changes nothing"):
        result = base_difference_reveal(oracle, h0, batch_size=6)
    assert result.queries_used == 1 + 18 == oracle.queries_answered
    assert result.a_hat[3] == result.a_hat[11] == -1 and result.n_unknown == 2
    keep = np.ones(20, dtype=bool)
    keep[[3, 11]] = False
    np.testing.assert_array_equal(result.a_hat[keep], a[keep])
    assert (result.n0, result.n1) == (None, None)
    assert leakage_score(a, result.a_hat) < 100.0


def test_linear_system_reveal_and_rank_warning():
    a = planted(12, 3, 3)
    H = bernoulli_design(12, n_queries=20, random_state=0)
    result = linear_system_reveal(H, statistical_parity_gap(H, a))
    assert result.recovered_all(a) and result.queries_used == 20
    with pytest.warns(QueryDesignWarning, match=r"rank\(H\) = 5 < n = 12: Theorem 1 needs full "
                                                r"column rank"):
        linear_system_reveal(H[:5], statistical_parity_gap(H[:5], a))


# --- Theorem 3: absolute SP --------------------------------------------------------------------

def test_t10_theorem_3_partition_query_counts():
    a = np.array([1, 0, 1, 1, 0, 1, 1, 0, 1, 1])  # n = 10, N_1 = 7
    oracle = exact_oracle(a, metric="abs_sp")
    result = abs_sp_partition(oracle)
    assert result.queries_used == 10 == oracle.queries_answered
    np.testing.assert_array_equal(result.a_hat, a)
    np.testing.assert_array_equal(result.partition, (a == a[0]).astype(int))
    assert (result.n0, result.n1) == (3, 7)

    b = np.array([0, 1, 1, 0, 1, 0, 0, 1])  # n = 8, N_1 = 4: the equal-size branch
    oracle = exact_oracle(b, metric="abs_sp")
    result = abs_sp_partition(oracle)
    assert result.queries_used == 8 == oracle.queries_answered
    np.testing.assert_array_equal(result.partition, (b == b[0]).astype(int))
    assert result.n_unknown == 8  # equal classes: the sizes cannot name them
    named = abs_sp_partition(exact_oracle(b, metric="abs_sp"), known_member=(2, 1))
    np.testing.assert_array_equal(named.a_hat, b)
    assert abs_sp_partition(exact_oracle(b, metric="sp"), known_member=(0, 0)).recovered_all(b)
    unnamed = abs_sp_partition(exact_oracle(a, metric="abs_sp"), smaller_label=None)
    assert unnamed.n_unknown == 10 and max(leakage_score(a, unnamed.partition),
                                           leakage_score(a, 1 - unnamed.partition)) == 100.0


# --- T11: the sign of the compressed-sensing reduction ----------------------------------------

def test_t11_paper_sign_decodes_minus_s_and_the_correction_recovers():
    n, n0, m = 1000, 10, 60
    a = planted(n, n0, 11)
    H = bernoulli_design(n, n_queries=m, random_state=11)
    sp = statistical_parity_gap(H, a)
    s_true = np.where(a == 0, 1 / 990 + 1 / 10, 0.0)
    paper = cs_reveal(H, sp, n0=n0, sign="paper")
    np.testing.assert_allclose(paper.decoded, -s_true, atol=1e-8)
    assert (paper.a_hat == 1).all() and paper.evaluate(a).leakage == 50.0
    fixed = cs_reveal(H, sp, n0=n0)
    np.testing.assert_allclose(fixed.decoded, s_true, atol=1e-8)
    assert fixed.recovered_all(a) and fixed.evaluate(a).leakage == 100.0


# --- S1, S2: compressed-sensing recovery rates --------------------------------------------------

def test_s1_bernoulli_design_recovers_exactly():
    exact = 0
    for seed in range(10):
        a = planted(1000, 10, seed)
        H = bernoulli_design(1000, n_queries=100, random_state=seed + 100)
        exact += cs_reveal(H, statistical_parity_gap(H, a), n0=10).recovered_all(a)
    assert exact >= 9


def test_s2_algorithm_2_design_on_synthetic_scores():
    exact = 0
    for seed in range(8):
        rng = np.random.default_rng(seed)
        a = planted(100, 10, seed)
        H = uniform_perturbation_design(rng.uniform(0, 1, 100), n_queries=40, random_state=rng)
        exact += cs_reveal(H, statistical_parity_gap(H, a), n0=10).recovered_all(a)
    assert exact >= 7


def test_nonnegative_basis_pursuit_recovers_whenever_plain_bp_does():
    # If s is the unique L1 minimiser over all of R^n it is also the unique one over s >= 0,
    # so exact recovery by "bp" implies exact recovery by "bp_nonneg".  Per-run Leakage is
    # not monotone (the spec's "never worse" holds for exact recovery and on average only).
    plain_scores, nonneg_scores = [], []
    for seed in range(12):
        rng = np.random.default_rng(seed)
        a = planted(100, 10, seed)
        H = uniform_perturbation_design(rng.uniform(0, 1, 100), n_queries=25, random_state=rng)
        sp = statistical_parity_gap(H, a)
        plain = cs_reveal(H, sp, n0=10).evaluate(a)
        nonneg = cs_reveal(H, sp, n0=10, decoder="bp_nonneg").evaluate(a)
        if plain.recovered_all(a):
            assert nonneg.recovered_all(a)
        plain_scores.append(plain.leakage)
        nonneg_scores.append(nonneg.leakage)
    assert np.mean(nonneg_scores) > np.mean(plain_scores)


def test_group_sizes_from_the_free_alpha_lp():
    for seed in (0, 1):
        a = planted(1000, 10, seed)
        H = bernoulli_design(1000, n_queries=80, random_state=seed)
        result = cs_reveal(H, statistical_parity_gap(H, a))
        assert result.recovered_all(a) and (result.n0, result.n1) == (10, 990)
    b = planted(300, 8, 5, minority=1)  # the advantaged group is the minority
    H = bernoulli_design(300, n_queries=70, random_state=5)
    result = cs_reveal(H, statistical_parity_gap(H, b), minority=1, decoder="bp_nonneg")
    assert result.recovered_all(b) and (result.n0, result.n1) == (292, 8)


def test_minority_in_group_one_with_known_sizes_and_omp():
    b = planted(400, 8, 7, minority=1)
    H = bernoulli_design(400, n_queries=160, random_state=7)
    for decoder in ("bp", "bp_nonneg"):
        result = cs_reveal(H[:90], statistical_parity_gap(H[:90], b), n1=8, decoder=decoder)
        assert result.recovered_all(b), decoder
        assert result.method == f"cs_{decoder}"
    # greedy OMP needs more queries than basis pursuit on this coherent 0/1 design
    result = cs_reveal(H, statistical_parity_gap(H, b), n1=8, decoder="omp")
    assert result.recovered_all(b) and result.method == "cs_omp"


def test_cs_dispatches_to_the_linear_system_when_m_reaches_n():
    a = planted(30, 5, 8)
    H = bernoulli_design(30, n_queries=40, random_state=8)
    result = cs_reveal(H, statistical_parity_gap(H, a), n0=5)
    assert result.method == "linear_system" and result.recovered_all(a)


def test_compressed_sensing_audit_counts_every_query():
    a = planted(500, 8, 9)
    oracle = exact_oracle(a)
    result = compressed_sensing_reveal(oracle, n_queries=80, random_state=0)
    assert result.recovered_all(a) and result.queries_used == 81 == oracle.queries_answered
    assert (result.n0, result.n1) == (8, 492)
    side = compressed_sensing_reveal(exact_oracle(a), n_queries=80, group_sizes=(8, 492),
                                     random_state=0)
    assert side.queries_used == 80 and side.recovered_all(a)
    lp = compressed_sensing_reveal(exact_oracle(a), n_queries=80, group_sizes="lp", random_state=0)
    assert lp.queries_used == 80 and lp.recovered_all(a)
    rng = np.random.default_rng(4)
    b = planted(100, 10, 4)
    soft = compressed_sensing_reveal(exact_oracle(b), n_queries=40, design="perturbation",
                                     h0=rng.uniform(0, 1, 100), random_state=rng)
    assert soft.evaluate(b).leakage >= 90.0
    assert estimate_group_sizes(exact_oracle(b)).to_dict() == {"n0": 10, "n1": 90,
                                                              "queries_used": 1}


def test_noisy_answers_are_decoded_or_refused_with_a_reason():
    a = planted(200, 10, 1)
    H = bernoulli_design(200, n_queries=40, random_state=1)
    mech = AttributeConceal(epsilon=1.0, random_state=0)
    noisy = mech.answer(H, a).values
    result = cs_reveal(H, noisy, n0=10)  # always feasible: rank(H) = m < n
    assert 0.0 <= result.evaluate(a).leakage <= 100.0
    with pytest.raises(InfeasibleError, match=r"The basis-pursuit LP of cs_reveal failed: .* "
                                              r"With noisy answers use decoder='bp'"):
        cs_reveal(H, noisy, n0=10, decoder="bp_nonneg")
    duplicated = np.vstack([H, H[:3]])  # rank(H) < m: noisy answers are inconsistent
    answers = np.r_[noisy, noisy[:3] + 0.5]
    with pytest.warns(QueryDesignWarning, match=r"decoding the least-squares projection"):
        cs_reveal(duplicated, answers, n0=10)


def test_attack_under_attribute_conceal_stays_near_chance():
    scores = []
    for seed in range(6):
        a = planted(1000, 10, seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mech = AttributeConceal(epsilon=100.0, random_state=seed)
        oracle = ComplianceOracle(a, mechanism=mech)
        scores.append(compressed_sensing_reveal(oracle, n_queries=60, group_sizes=(10, 990),
                                                random_state=seed).evaluate(a).leakage)
    assert abs(np.mean(scores) - 50.0) <= 10.0


def test_budget_stops_an_attack_midway():
    oracle = ComplianceOracle(planted(40, 5, 0), mechanism=AttributeConceal(epsilon=1.0),
                              budget=3.0)
    with pytest.raises(BudgetError, match=r"over the budget epsilon=3\.0"):
        flip_reveal(oracle, np.linspace(0, 0.4, 40), batch_size=10)
    assert oracle.queries_answered == 30


# --- Remark 2: EO and equalized odds ------------------------------------------------------------

def test_eo_queries_reveal_the_positive_slice_and_equalized_odds_everyone():
    rng = np.random.default_rng(0)
    a = planted(60, 15, 0)
    y = rng.integers(0, 2, 60)
    eo = exact_oracle(a, y, metric="eo")
    pos = np.flatnonzero(y == 1)
    result = slice_attack(eo, lambda o: flip_reveal(o, rng.uniform(0, 0.4, o.n)))
    np.testing.assert_array_equal(result.a_hat[pos], a[pos])
    assert (result.a_hat[y == 0] == -1).all() and np.isnan(result.decoded[y == 0]).all()
    assert result.queries_used == pos.size and result.method == "slice_y=1:flip"
    target = slice_attack(eo, lambda o: single_query_reveal(o, 2))
    assert target.target == pos[2] and target.a_target == a[pos[2]]

    odds = exact_oracle(a, y, metric="equalized_odds")
    result = equalized_odds_reveal(odds, lambda o: flip_reveal(o, rng.uniform(0, 0.4, o.n)),
                                   lambda o: compressed_sensing_reveal(o, n_queries=o.n,
                                                                       random_state=1))
    assert result.recovered_all(a)
    assert result.queries_used == odds.queries_answered
    assert (result.n0, result.n1) == (15, 45)
    part = slice_attack(exact_oracle(a, y, metric="equalized_odds"), abs_sp_partition, slice=0)
    assert part.partition is not None and (part.partition[y == 1] == -1).all()


# --- bad inputs ------------------------------------------------------------------------------

def test_attack_input_errors():
    a = planted(20, 5, 0)
    oracle = exact_oracle(a)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'target' parameter of single_query_design must be a "
                             r"position in \[0, 19\]\. Got 20 instead\."):
        single_query_reveal(oracle, 20)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'target_prediction' parameter of single_query_design must "
                             r"be in \(0, 1\]\. Got 0 instead\."):
        single_query_design(5, 0, target_prediction=0)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'oracle' parameter of flip_reveal must answer one of the "
                             r"metrics \['sp'\] \(wrap EO and equalized-odds oracles with "
                             r"slice_attack\)\. Got \"an oracle answering 'eo'\" instead\."):
        flip_reveal(exact_oracle(a, np.tile([0, 1], 10), metric="eo"), np.zeros(20))
    with pytest.raises(InvalidParameterError,
                       match=r"The 'oracle' parameter of cs_reveal|The 'oracle' parameter of "
                             r"compressed_sensing_reveal must have 'n', 'metric' and 'query'"):
        compressed_sensing_reveal(a, n_queries=5)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'h0' parameter of flip_reveal must have last dimension "
                             r"oracle\.n = 20\. Got 'shape \(19,\)' instead\."):
        flip_reveal(oracle, np.zeros(19))
    with pytest.raises(InvalidParameterError,
                       match=r"The 'h0' parameter of flip_design must be in \[0, 1\] "
                             r"without NaN\. Got '-0\.1 at position 0' instead\."):
        flip_design([-0.1, 0.2])
    with pytest.raises(InvalidParameterError,
                       match=r"The 'h1' parameter of flip_pair_design must be one-dimensional"):
        flip_pair_design([[0.1, 0.2]], 0)
    H = bernoulli_design(20, n_queries=5, random_state=0)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'sp' parameter of cs_reveal must be one answer per row of H "
                             r"\(5\)\. Got 'shape \(4,\)' instead\."):
        cs_reveal(H, np.zeros(4), n0=5)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'sp' parameter of cs_reveal must be finite\. Got nan"):
        cs_reveal(H, [0, 0, 0, 0, np.nan], n0=5)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'H' parameter of linear_system_reveal must be a "
                             r"two-dimensional \(m, n\) query matrix\. Got 'shape \(20,\)'"):
        linear_system_reveal(np.zeros(20), [0.0])
    with pytest.raises(InvalidParameterError,
                       match=r"The 'decoder' parameter of cs_reveal must be one of \['bp', "
                             r"'bp_nonneg', 'omp'\]\. Got 'l2' instead\."):
        cs_reveal(H, np.zeros(5), n0=5, decoder="l2")
    with pytest.raises(InvalidParameterError,
                       match=r"The 'decoder' parameter of cs_reveal must be 'bp' or "
                             r"'bp_nonneg' when the group sizes are unknown"):
        cs_reveal(H, np.zeros(5), decoder="omp")
    with pytest.raises(InvalidParameterError,
                       match=r"The 'n1' parameter of cs_reveal must satisfy n0 \+ n1 = n = 20\. "
                             r"Got 'n0=5, n1=14' instead\."):
        cs_reveal(H, np.zeros(5), n0=5, n1=14)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'h0' parameter of compressed_sensing_reveal must be given "
                             r"for design='perturbation'"):
        compressed_sensing_reveal(oracle, n_queries=5, design="perturbation")
    with pytest.raises(InvalidParameterError,
                       match=r"The 'group_sizes' parameter of compressed_sensing_reveal must "
                             r"be one of \['query', 'lp'\]\. Got 'guess' instead\."):
        compressed_sensing_reveal(oracle, n_queries=5, group_sizes="guess")
    with pytest.raises(InvalidParameterError,
                       match=r"The 'p' parameter of bernoulli_design must be in \(0, 1\)\. "
                             r"Got 1\.0 instead\."):
        bernoulli_design(3, n_queries=3, p=1.0)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'half_width' parameter of uniform_perturbation_design must "
                             r"be in \(0, 1\]\. Got 0\.0 instead\."):
        uniform_perturbation_design([0.5], n_queries=3, half_width=0.0)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'known_member' parameter of abs_sp_partition must be a "
                             r"\(position in \[0, 19\], label in \{0, 1\}\) pair\. Got \(25, 1\)"):
        abs_sp_partition(exact_oracle(a, metric="abs_sp"), known_member=(25, 1))
    with pytest.raises(InvalidParameterError,
                       match=r"The 'slice' parameter of slice_attack must be 1 for an EO "
                             r"oracle \(EO answers reveal only the slice y = 1\)\. Got 0"):
        slice_attack(exact_oracle(a, np.tile([0, 1], 10), metric="eo"), abs_sp_partition,
                     slice=0)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'attack' parameter of slice_attack must be a callable"):
        slice_attack(exact_oracle(a, np.tile([0, 1], 10), metric="eo"), "flip")
    with pytest.raises(InvalidParameterError,
                       match=r"The 'batch_size' parameter of flip_reveal must be a positive "
                             r"integer\. Got 0 instead\."):
        flip_reveal(oracle, np.zeros(20) + 0.1, batch_size=0)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'singular' parameter of flip_reveal must be one of "
                             r"\['raise', 'base_difference'\]\. Got 'ignore' instead\."):
        flip_reveal(oracle, np.zeros(20) + 0.1, singular="ignore")


def test_attacks_do_not_touch_their_inputs():
    a = planted(50, 7, 3)
    h0 = np.linspace(0.05, 0.45, 50)
    h0_before = h0.copy()
    flip_reveal(exact_oracle(a), h0)
    np.testing.assert_array_equal(h0, h0_before)
    H = bernoulli_design(50, n_queries=30, random_state=0)
    sp = statistical_parity_gap(H, a)
    H_before, sp_before = H.copy(), sp.copy()
    result = cs_reveal(H, sp, n0=7)
    np.testing.assert_array_equal(H, H_before)
    np.testing.assert_array_equal(sp, sp_before)
    assert not result.a_hat.flags.writeable and not result.decoded.flags.writeable
    frame = result.to_frame()
    assert list(frame.columns) == ["a_hat", "decoded"] and frame.index.name == "individual"
    assert result.to_dict()["queries_used"] == 30


def test_data_may_be_named_and_options_are_keyword_only():
    a = np.array([1, 0, 1, 1, 0, 1])
    h0 = [0.2, 0.9, 0.4, 0.1, 0.6, 0.3]
    named = flip_reveal(oracle=exact_oracle(a), h0=h0)  # no positional-only data any more
    assert named.a_hat.tolist() == a.tolist()
    with pytest.raises(TypeError):
        bernoulli_design(4, 6, random_state=3)
    with pytest.raises(TypeError):
        uniform_perturbation_design(h0, 3, random_state=1)
