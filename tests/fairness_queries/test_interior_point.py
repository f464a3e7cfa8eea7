"""The dense interior point for the CS attack's basis-pursuit LP (``lp_method="dense-ipm"``).

Checked three ways: against a brute-force vertex enumeration written from the LP's definition
(tiny problems, every basis), against scipy's HiGHS on the attack's own problems (same
optimum, same decoded labels), and on the error paths the HiGHS route already has.
"""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skyprivacy.errors import InfeasibleError, InvalidParameterError, QueryDesignWarning
from skyprivacy.fairness_queries import (AttributeConceal, ComplianceOracle, LaplaceBiasQuery,
                                         bernoulli_design,
                                         compressed_sensing_reveal, cs_reveal,
                                         statistical_parity_gap, uniform_perturbation_design)
from skyprivacy.fairness_queries._interior_point import basis_pursuit_ipm


def planted(n, n0, seed):
    rng = np.random.default_rng(seed)
    a = np.ones(n, dtype=int)
    a[rng.choice(n, n0, replace=False)] = 0
    return a


def vertex_minimum(H, eta, *, split, column=None):
    """min 1'x over {x >= 0 : A x = eta} by enumerating every basis of A (the definition:
    a bounded feasible LP attains its minimum at a basic feasible solution)."""
    m = H.shape[0]
    blocks = [H, -H] if split else [H]
    cost = [np.ones(H.shape[1])] * len(blocks)
    if column is not None:
        blocks.insert(0, column[:, None])
        cost.insert(0, np.zeros(1))
    A, c = np.hstack(blocks), np.concatenate(cost)
    best = math.inf
    for size in range(1, m + 1):
        for basis in itertools.combinations(range(A.shape[1]), size):
            sub = A[:, basis]
            if np.linalg.matrix_rank(sub) < size:
                continue
            x_b = np.linalg.lstsq(sub, eta, rcond=None)[0]
            if np.linalg.norm(sub @ x_b - eta) > 1e-9 * (1 + np.linalg.norm(eta)):
                continue
            if (x_b >= -1e-12).all():
                best = min(best, float(c[list(basis)] @ x_b))
    return best


@settings(max_examples=60, deadline=None)
@given(m=st.integers(1, 3), n=st.integers(2, 6), split=st.booleans(), alpha=st.booleans(),
       seed=st.integers(0, 2**32 - 1))
def test_the_optimum_equals_the_best_vertex(m, n, split, alpha, seed):
    rng = np.random.default_rng(seed)
    H = rng.uniform(0, 1, (m, n))
    column = rng.uniform(0.5, 1.5, m) if alpha else None
    x_true = np.where(rng.random(n) < 0.4, rng.normal(0, 1, n), 0.0)
    if not split:
        x_true = np.abs(x_true)
    eta = H @ x_true + (rng.uniform(0, 1) * column if alpha else 0.0)
    expected = vertex_minimum(H, eta, split=split, column=column)
    result = basis_pursuit_ipm(H, eta, split=split, column=column)
    assert result.status in (0, 1)
    assert (result.x >= 0).all()
    A = np.hstack(([column[:, None]] if alpha else []) + ([H, -H] if split else [H]))
    assert np.allclose(A @ result.x, eta, atol=1e-6 * (1 + np.abs(eta).max()))
    objective = float(result.x[1:].sum() if alpha else result.x.sum())
    assert objective == pytest.approx(expected, rel=1e-6, abs=1e-6)  # the stopping rule


def highs_and_ipm(H, sp, **kwargs):
    return (cs_reveal(H, sp, lp_method="highs", **kwargs),
            cs_reveal(H, sp, lp_method="dense-ipm", **kwargs))


@pytest.mark.parametrize("mechanism", ["none", "cauchy", "laplace"])
def test_the_attack_decodes_the_same_labels_as_highs(mechanism):
    # The attack's own problems: Algorithm 2's perturbation design on Uniform(0, 1) scores,
    # answered exactly, by Attribute-Conceal (Cauchy) or by Laplace.
    for seed in range(8):
        n, n0 = (300, 30) if seed % 2 else (200, 10)
        m = 4 * n0 + 10 * seed
        rng = np.random.default_rng(seed)
        a = planted(n, n0, seed)
        H = uniform_perturbation_design(rng.uniform(0, 1, n), n_queries=m, random_state=rng)
        if mechanism == "none":
            sp = statistical_parity_gap(H, a)
        elif mechanism == "cauchy":
            sp = AttributeConceal(epsilon=10.0, random_state=seed).answer(H, a).values
        else:
            sp = LaplaceBiasQuery(epsilon=10.0, random_state=seed).answer(H, a).values
        highs, ipm = highs_and_ipm(H, np.asarray(sp), n0=n0)
        assert (ipm.a_hat == highs.a_hat).all(), seed
        assert np.abs(ipm.decoded).sum() == pytest.approx(np.abs(highs.decoded).sum(), rel=1e-7)


def test_the_nonnegative_and_free_alpha_decoders_match_highs():
    for seed in range(4):
        a = planted(400, 8, seed)
        H = bernoulli_design(400, n_queries=90, random_state=seed)
        sp = statistical_parity_gap(H, a)
        highs, ipm = highs_and_ipm(H, sp, n0=8, decoder="bp_nonneg")
        assert ipm.recovered_all(a) and (ipm.a_hat == highs.a_hat).all()
        highs, ipm = highs_and_ipm(H, sp)  # sizes unknown: alpha is an LP variable
        assert ipm.recovered_all(a) and (ipm.n0, ipm.n1) == (highs.n0, highs.n1) == (8, 392)


def test_compressed_sensing_reveal_passes_the_solver_on():
    a = planted(500, 8, 9)
    mech = AttributeConceal(epsilon=math.inf, noise=None)
    result = compressed_sensing_reveal(ComplianceOracle(a, mechanism=mech), n_queries=80,
                                       random_state=0, lp_method="dense-ipm")
    assert result.recovered_all(a) and result.queries_used == 81


def test_infeasible_and_inconsistent_answers_take_the_highs_paths():
    a = planted(200, 10, 1)
    H = bernoulli_design(200, n_queries=40, random_state=1)
    noisy = AttributeConceal(epsilon=1.0, random_state=0).answer(H, a).values
    with pytest.raises(InfeasibleError, match=r"^The basis-pursuit LP of cs_reveal failed: no "
                                              r"solution to accuracy 1e-06 \(best .*\): "
                                              r"infeasible or too ill-conditioned \(status 2\)\. "
                                              r"With noisy answers use decoder='bp' "
                                              r"\(nonnegativity may be infeasible\)\.$"):
        cs_reveal(H, noisy, n0=10, decoder="bp_nonneg", lp_method="dense-ipm")
    duplicated = np.vstack([H, H[:3]])  # rank(H) < m: noisy answers are inconsistent
    answers = np.r_[noisy, noisy[:3] + 0.5]
    with pytest.warns(QueryDesignWarning, match=r"^The answers are inconsistent with H \(noisy "
                                                r"answers and rank\(H\) < m\); decoding the "
                                                r"least-squares projection"):
        highs = cs_reveal(duplicated, answers, n0=10)
    with pytest.warns(QueryDesignWarning, match=r"decoding the least-squares projection"):
        ipm = cs_reveal(duplicated, answers, n0=10, lp_method="dense-ipm")
    assert (ipm.a_hat == highs.a_hat).all()


def test_a_rank_deficient_but_consistent_system_needs_no_projection():
    a = planted(100, 5, 3)
    H = bernoulli_design(100, n_queries=30, random_state=3)
    duplicated = np.vstack([H, H[:5]])
    sp = statistical_parity_gap(duplicated, a)
    result = cs_reveal(duplicated, sp, n0=5, lp_method="dense-ipm")
    assert result.recovered_all(a)


def test_an_unknown_solver_is_refused_by_name():
    with pytest.raises(InvalidParameterError, match=r"^The 'lp_method' parameter of cs_reveal "
                                                    r"must be one of \['highs', 'highs-ds', "
                                                    r"'highs-ipm', 'dense-ipm'\]\. Got "
                                                    r"'simplex' instead\.$"):
        cs_reveal(np.ones((2, 3)), np.zeros(2), n0=1, lp_method="simplex")
    with pytest.raises(InvalidParameterError, match=r"'lp_method' parameter of "
                                                    r"compressed_sensing_reveal"):
        oracle = ComplianceOracle([0, 1, 1], mechanism=AttributeConceal(epsilon=1.0))
        compressed_sensing_reveal(oracle, n_queries=1, lp_method="ipm")


def test_the_caller_arrays_are_not_changed():
    rng = np.random.default_rng(0)
    H = rng.uniform(0, 1, (5, 20))
    eta = rng.normal(0, 1, 5)
    before = H.copy(), eta.copy()
    basis_pursuit_ipm(H, eta)
    assert (H == before[0]).all() and (eta == before[1]).all()
