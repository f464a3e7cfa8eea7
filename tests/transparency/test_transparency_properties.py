"""Properties of the corrected Theorem 1 / Algorithm 1 on random QID groups.

Two oracles, both independent of the closed form:

* the LP reference (bisection on beta, HiGHS feasibility LPs; section 6.2) on about three
  thousand fixed-seed random groups of 1-30 records with delta, alpha and general bounds;
* the fixed-beta feasibility solver of spec 5.8 (:func:`feasible_at_beta`) as an
  optimality certificate in Hypothesis properties: the announced rule is feasible at beta*
  and *no* rule is feasible just below it.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skyprivacy.errors import PrivacyRiskWarning
from skyprivacy.transparency import (
    Alpha,
    Bounds,
    DecisionTable,
    Delta,
    feasible_at_beta,
    fidelity_bounds,
    lp_reference,
    optimal_privacy,
    tradeoff_region,
)

pytestmark = pytest.mark.filterwarnings("ignore::skyprivacy.errors.PrivacyRiskWarning")


# -- random tables ------------------------------------------------------------------------------
def random_frame(rng, n_groups, max_m, *, pinned=0.25):
    """Groups of 1..max_m records; some decisions exactly 0, 1/2 or 1 (ties, pinned alpha)."""
    sizes = rng.integers(1, max_m + 1, n_groups)
    n = int(sizes.sum())
    d = rng.random(n)
    special = rng.random(n) < pinned
    d[special] = rng.choice([0.0, 0.5, 1.0], special.sum())
    weights = np.where(rng.random(n) < 0.5, rng.integers(1, 50, n), rng.random(n) + 1e-3)
    return pd.DataFrame({
        "qid": np.repeat(np.arange(n_groups), sizes),
        "sens": np.concatenate([np.arange(m) for m in sizes]),
        "w": weights, "d": d,
    })


def make_table(df):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PrivacyRiskWarning)
        return DecisionTable.from_frame(df, public="qid", sensitive="sens", weight="w", decision="d")


def random_bounds(rng, n, *, pinned=0.15, shared=0.1):
    """General bounds on d~ (eq. 11), some pinned (lo = hi), unrelated to D."""
    lower = rng.random(n) * 0.8
    upper = lower + rng.random(n) * (1 - lower)
    pin = rng.random(n) < pinned
    upper[pin] = lower[pin]
    wide = rng.random(n) < shared  # loose records next to pinned ones make x^0 = x^1 likely
    lower[wide], upper[wide] = 0.0, 1.0
    return Bounds(lower, upper)


def check_against_lp(table, fidelity):
    closed = optimal_privacy(table, fidelity)
    lp = lp_reference(table, fidelity)
    ours = closed.to_frame()["beta_star"].to_numpy()
    ref = lp.to_frame()["beta_star"].to_numpy()
    assert np.nanmax(np.abs(ours - ref)) < 1e-6, (fidelity, np.nanargmax(np.abs(ours - ref)))
    check_solution(table, fidelity, closed)
    return closed


def check_solution(table, fidelity, result):
    bounds = fidelity_bounds(table, fidelity)
    d_tilde = result.d_tilde
    assert np.all(d_tilde >= bounds.lower - 1e-12) and np.all(d_tilde <= bounds.upper + 1e-12)
    assert np.allclose(d_tilde.sum(axis=1), 1.0, atol=1e-12)
    groups = result.to_frame()
    assert np.all(groups["achieved"] <= groups["beta_star"] * (1 + 1e-9) + 1e-12)
    assert np.all(groups["beta_min"] <= groups["beta_star"] + 1e-12)  # Lemma 5
    assert np.all(groups["beta_min"] <= groups["c_star"] + 1e-12)  # Lemma 6
    assert result.beta_star == pytest.approx(groups["beta_star"].max(), abs=0)  # Lemma 3
    assert result.achieved.conf <= result.beta_star * (1 + 1e-9) + 1e-12
    if not isinstance(fidelity, Bounds):  # D itself is feasible: beta* <= C* (Lemma 4)
        assert np.all(groups["beta_star"] <= groups["c_star"] * (1 + 1e-9) + 1e-12)


@pytest.mark.parametrize("delta", [0.3, 0.6, 0.75, 0.9, 0.97])
def test_delta_fidelity_matches_lp(delta):
    rng = np.random.default_rng(int(delta * 1000))
    table = make_table(random_frame(rng, 250, 12))
    check_against_lp(table, Delta(delta))


@pytest.mark.parametrize("alpha", [0.5, 0.8, 0.95])
def test_alpha_fidelity_matches_lp(alpha):
    rng = np.random.default_rng(int(alpha * 1000) + 7)
    table = make_table(random_frame(rng, 250, 12))
    check_against_lp(table, Alpha(alpha))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_general_bounds_match_lp(seed):
    rng = np.random.default_rng(seed)
    table = make_table(random_frame(rng, 300, 12))
    result = check_against_lp(table, random_bounds(rng, table.n_records))
    # the batches exercise every branch of the corrected algorithm, including E1 and E2
    cases = set(result.to_frame()["case"])
    assert {"beta0", "beta1", "betap", "beta_min"} <= cases


def test_large_groups_match_lp():
    rng = np.random.default_rng(30)
    table = make_table(random_frame(rng, 150, 30))
    check_against_lp(table, Delta(0.85))


def test_shared_special_record_groups_match_lp():
    """x^0 = x^1 (one dominant pinned record), the case the printed ALLOCATION gets wrong."""
    rng = np.random.default_rng(5)
    n_groups = 200
    sizes = rng.integers(2, 8, n_groups)
    n = int(sizes.sum())
    first = np.zeros(n, dtype=bool)
    first[np.cumsum(sizes) - sizes] = True
    weights = np.where(first, 5 + rng.random(n) * 5, rng.random(n))
    pin = rng.random(n)
    lower = np.where(first, pin, 0.0)
    upper = np.where(first, pin, 1.0)
    df = pd.DataFrame({"qid": np.repeat(np.arange(n_groups), sizes),
                       "sens": np.concatenate([np.arange(m) for m in sizes]),
                       "w": weights, "d": rng.random(n)})
    table = make_table(df)
    result = check_against_lp(table, Bounds(lower, upper))
    frame = result.to_frame()
    assert (frame["x0"] == frame["x1"]).mean() > 0.9


# -- Hypothesis properties (fast, no LP) ---------------------------------------------------------
probability = st.one_of(st.sampled_from([0.0, 0.5, 1.0]),
                        st.floats(0, 1, allow_subnormal=False).map(lambda x: round(x, 4)))
weight = st.one_of(st.integers(1, 30), st.floats(0.01, 10).map(lambda x: round(x, 3)))


@st.composite
def frames(draw, max_groups=4, max_m=7):
    rows = []
    for g in range(draw(st.integers(1, max_groups))):
        for k in range(draw(st.integers(1, max_m))):
            rows.append((g, k, draw(weight), draw(probability)))
    return pd.DataFrame(rows, columns=["qid", "sens", "w", "d"])


fidelities = st.one_of(
    st.builds(Delta, st.floats(0, 1).map(lambda x: round(x, 3))),
    st.builds(Alpha, st.floats(0, 1).map(lambda x: round(x, 3))),
)


def single_group(df, qid):
    return make_table(df[df["qid"] == qid])


@settings(max_examples=60, deadline=None)
@given(frames(), fidelities)
def test_solution_is_feasible_and_provably_optimal(df, fidelity):
    table = make_table(df)
    result = optimal_privacy(table, fidelity)
    check_solution(table, fidelity, result)
    for key, beta in zip(table.group_keys, result.to_frame()["beta_star"]):
        alone = single_group(df, key[0])
        assert feasible_at_beta(alone, fidelity, beta=min(1.0, beta * (1 + 1e-9))).feasible
        below = beta * (1 - 1e-6) - 1e-9
        if below > 0:
            assert not feasible_at_beta(alone, fidelity, beta=below).feasible


@settings(max_examples=40, deadline=None)
@given(frames(max_groups=3, max_m=5), fidelities)
def test_exact_path_agrees_with_floats(df, fidelity):
    table = make_table(df)
    exact = optimal_privacy(table, fidelity, exact=True)
    floats = optimal_privacy(table, fidelity)
    assert float(exact.beta_star) == pytest.approx(floats.beta_star, abs=1e-9)
    exact_groups = exact.to_frame()
    assert all(a <= b for a, b in zip(exact_groups["achieved"], exact_groups["beta_star"]))
    bounds = fidelity_bounds(table, fidelity, exact=True)
    assert np.all(exact.d_tilde >= bounds.lower) and np.all(exact.d_tilde <= bounds.upper)
    assert np.all(exact.d_tilde.sum(axis=1) == 1)


@settings(max_examples=50, deadline=None)
@given(frames(), fidelities, st.floats(0.05, 200), st.data())
def test_invariant_to_scaling_a_group(df, fidelity, factor, data):
    table = make_table(df)
    qid = data.draw(st.sampled_from(sorted(df["qid"].unique())))
    scaled = df.assign(w=np.where(df["qid"] == qid, df["w"] * factor, df["w"]))
    a = optimal_privacy(table, fidelity)
    b = optimal_privacy(make_table(scaled), fidelity)
    assert b.to_frame()["beta_star"].to_numpy() == pytest.approx(a.to_frame()["beta_star"].to_numpy(), abs=1e-9)
    assert b.d_tilde == pytest.approx(a.d_tilde, abs=1e-7)


@settings(max_examples=50, deadline=None)
@given(frames(), fidelities, st.randoms(use_true_random=False))
def test_invariant_to_permuting_records(df, fidelity, random):
    order = list(range(len(df)))
    random.shuffle(order)
    shuffled = df.iloc[order]
    a = optimal_privacy(make_table(df), fidelity).to_frame().set_index("qid")["beta_star"]
    b = optimal_privacy(make_table(shuffled), fidelity).to_frame().set_index("qid")["beta_star"]
    assert b.loc[a.index].to_numpy() == pytest.approx(a.to_numpy(), abs=1e-9)


@settings(max_examples=50, deadline=None)
@given(frames(), st.floats(0, 1), st.floats(0, 1), st.sampled_from([Delta, Alpha]))
def test_monotone_in_fidelity(df, x, y, kind):
    low, high = sorted((round(x, 4), round(y, 4)))
    table = make_table(df)
    a = optimal_privacy(table, kind(low)).to_frame()["beta_star"].to_numpy()
    b = optimal_privacy(table, kind(high)).to_frame()["beta_star"].to_numpy()
    assert np.all(a <= b + 1e-12)


@settings(max_examples=40, deadline=None)
@given(frames())
def test_extreme_fidelities(df):
    table = make_table(df)
    region = tradeoff_region(table).groups
    trivial = optimal_privacy(table, Delta(0)).to_frame()
    assert trivial["beta_star"].to_numpy() == pytest.approx(region["beta_min"].to_numpy(), abs=1e-12)
    full = optimal_privacy(table, Delta(1))
    assert full.to_frame()["beta_star"].to_numpy() == pytest.approx(region["c_star"].to_numpy(), abs=1e-12)
    assert np.array_equal(full.d_tilde, table.decisions)
    assert np.array_equal(optimal_privacy(table, Alpha(1)).d_tilde, table.decisions)


@settings(max_examples=40, deadline=None)
@given(frames(max_groups=5))
def test_lemma3_each_group_alone(df):
    table = make_table(df)
    together = optimal_privacy(table, Delta(0.8))
    alone = [optimal_privacy(single_group(df, key[0]), Delta(0.8)).beta_star for key in table.group_keys]
    assert together.to_frame()["beta_star"].tolist() == pytest.approx(alone, abs=1e-12)
    assert together.beta_star == pytest.approx(max(alone), abs=1e-12)


def test_feasibility_near_certainty_is_verified_not_assumed():
    # Hypothesis found it: beta* = 1 for group 0 (a record of tiny weight 0.016 decides alone);
    # just below 1 the float solver accepted a rule that still reaches confidence 1.
    df = pd.DataFrame({"qid": [0, 0, 0, 0, 1, 2], "sens": [0, 1, 2, 3, 0, 0],
                       "w": [1.0, 1.0, 14.0, 0.016, 1.0, 1.0],
                       "d": [0, 0, 0, 0.0156, 0, 0]})
    fidelity = Alpha(0.062)
    result = optimal_privacy(make_table(df), fidelity)
    assert list(result.to_frame()["beta_star"]) == [1.0, 1.0, 1.0]
    alone = make_table(df[df["qid"] == 0])
    assert not feasible_at_beta(alone, fidelity, beta=1 - 1e-6 - 1e-9).feasible
    assert feasible_at_beta(alone, fidelity, beta=1.0).feasible
