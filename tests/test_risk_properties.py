"""Re-identification risk (skyprivacy/risk.py), the measures test_risk.py checks by hand, here
against their definitions written out independently (Pitman's and the SNB estimates solved
again from the papers' equations) and as Hypothesis properties: journalist risk and k-map
never rise when classes merge, individual risk is the prosecutor risk of an unweighted sample
and falls as the weights rise, distinction and separation grow with the QI subset, and the
population estimates depend on the class-size histogram alone."""
import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize, special, stats

from skyprivacy import ReleaseCandidate
from skyprivacy.criteria import KMap
from skyprivacy.risk import (
    ClassSizes,
    attribute_risk,
    individual_risk,
    journalist_risk,
    pitman_uniques,
    population_uniqueness,
    prosecutor_risk,
    snb_uniques,
    zayatz_uniques,
)

HIST = ClassSizes(sizes=(1, 2, 3, 5), counts=(40, 12, 5, 2))  # n = 83 records, 59 classes


def test_pitman_is_the_maximum_of_the_sampling_formula():
    """Pitman's sampling formula for a partition of n into u classes of sizes f_j,
    prod_{i=1}^{u-1} (theta + i alpha) prod_j prod_{k=1}^{f_j - 1} (k - alpha) /
    prod_{i=1}^{n-1} (theta + i), maximized term by term with Nelder-Mead, then the expected
    population uniques Gamma(theta + 1) / Gamma(theta + alpha) N^alpha (Hoshino 2001).  The
    sample has a heavy tail, so the maximum lies inside 0 < alpha < 1 (about 0.53)."""
    hist = ClassSizes(sizes=(1, 2, 3, 4, 8, 20), counts=(60, 15, 6, 3, 2, 1))
    sizes = [s for s, c in zip(hist.sizes, hist.counts) for _ in range(c)]
    u, n = len(sizes), sum(sizes)

    def loglik(theta, alpha):
        value = sum(math.log(theta + i * alpha) for i in range(1, u))
        value += sum(math.log(k - alpha) for f in sizes for k in range(1, f))
        return value - sum(math.log(theta + i) for i in range(1, n))

    found = optimize.minimize(lambda x: -loglik(x[0], x[1]) if x[0] > 0 and 0 < x[1] < 1
                              else math.inf, [10.0, 0.5], method="Nelder-Mead",
                              options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 20000})
    theta, alpha = found.x
    assert 0.5 < alpha < 0.56
    expected = math.exp(special.gammaln(theta + 1) - special.gammaln(theta + alpha)
                        + alpha * math.log(5000))
    assert pitman_uniques(hist, 5000) == pytest.approx(expected, rel=1e-5)


def test_snb_solves_its_two_equations():
    """Shlosser's K, then (a, b) with K P(f = 1) = c1 and K P(f = 2) = c2, the
    probabilities summed from the definition (F = 1 + NegBin(a, b), f ~ Binomial(F, n/N)),
    and the estimate K b^a (Chen and Keller-McNulty 1998)."""
    N, n, q = 2000, HIST.n_records, HIST.n_records / 2000
    numerator = sum((1 - q) ** s * c for s, c in zip(HIST.sizes, HIST.counts))
    denominator = sum(s * q * (1 - q) ** (s - 1) * c for s, c in zip(HIST.sizes, HIST.counts))
    K = HIST.n_classes + HIST.of_size(1) * numerator / denominator
    g = np.arange(0, 20000)

    def equations(x):
        a, b = math.exp(x[0]), special.expit(x[1])
        weights = stats.nbinom.pmf(g, a, b)
        p1 = np.sum(weights * stats.binom.pmf(1, g + 1, q))
        p2 = np.sum(weights * stats.binom.pmf(2, g + 1, q))
        return [K * p1 / HIST.of_size(1) - 1, K * p2 / HIST.of_size(2) - 1]

    solution = optimize.fsolve(equations, [0.0, 0.0], xtol=1e-13)
    assert max(abs(r) for r in equations(solution)) < 1e-9
    a, b = math.exp(solution[0]), special.expit(solution[1])
    assert n < N and snb_uniques(HIST, N) == pytest.approx(K * b ** a, rel=1e-6)


codes_strategy = st.lists(st.integers(0, 8), min_size=1, max_size=30)


@settings(max_examples=60, deadline=None)
@given(sample=codes_strategy, extra=st.lists(st.integers(0, 8), max_size=30),
       merge=st.integers(1, 4))
def test_journalist_risk_and_k_map_never_rise_when_classes_merge(sample, extra, merge):
    table = pd.DataFrame({"q": sample})
    population = pd.DataFrame({"q": sample + extra})
    coarse = table.assign(q=table["q"] // (merge + 1))
    coarse_population = population.assign(q=population["q"] // (merge + 1))
    before = journalist_risk(table, qi="q", population=population)
    after = journalist_risk(coarse, qi="q", population=coarse_population)
    assert after.max <= before.max and after.average <= before.average
    smallest = int(population.groupby("q").size().loc[sorted(set(sample))].min())
    assert before.max == Fraction(1, smallest)
    release = ReleaseCandidate.from_table(table.assign(s="x"), sensitive="s", qi=["q"])
    for k in (1, 2, 3, 5):
        assert KMap(k, population=population).holds(release) == (before.max <= Fraction(1, k))


@settings(max_examples=60, deadline=None)
@given(sample=codes_strategy, data=st.data())
def test_individual_risk_is_prosecutor_risk_unweighted_and_falls_with_the_weights(sample,
                                                                                  data):
    weights = data.draw(st.lists(st.floats(1, 50), min_size=len(sample),
                                 max_size=len(sample)))
    table = pd.DataFrame({"q": sample, "w": weights, "one": 1.0})
    unweighted = individual_risk(table, qi="q", weights="one")
    sizes = table.groupby("q")["q"].transform("size")
    assert unweighted.tolist() == pytest.approx((1 / sizes).tolist(), rel=1e-12)
    assert float(unweighted.max()) == float(prosecutor_risk(table, qi="q").max)
    risk = individual_risk(table, qi="q", weights="w")
    heavier = individual_risk(table.assign(w=table["w"] * 3), qi="q", weights="w")
    assert ((risk > 0) & (risk <= 1)).all()
    assert (heavier <= risk * (1 + 1e-9)).all()
    assert (risk <= unweighted * (1 + 1e-9)).all()


@settings(max_examples=40, deadline=None)
@given(rows=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)),
                     min_size=2, max_size=25))
def test_distinction_and_separation_grow_with_the_subset(rows):
    table = pd.DataFrame(rows, columns=["a", "b", "c"])
    frame = attribute_risk(table, qi=["a", "b", "c"]).table
    by_subset = {tuple(sorted(q)): (d, s) for q, d, s in
                 zip(frame["qi"], frame["distinction"], frame["separation"])}
    for subset, (d, s) in by_subset.items():
        assert 0 < d <= 1 and 0 <= s <= 1
        assert d == Fraction(len(table.groupby(list(subset))), len(table))
        for superset, (d2, s2) in by_subset.items():
            if set(subset) < set(superset):
                assert d <= d2 and s <= s2


@settings(max_examples=15, deadline=None)
@given(sample=st.lists(st.integers(0, 40), min_size=5, max_size=60),
       factor=st.integers(2, 50), seed=st.integers(0, 1000))
def test_the_estimates_read_the_histogram_alone(sample, factor, seed):
    table = pd.DataFrame({"q": sample})
    rng = np.random.default_rng(seed)
    relabelled = pd.DataFrame({"q": [f"v{(x * 7919) % 1009}" for x in sample]}).sample(
        frac=1, random_state=rng)
    N = len(sample) * factor
    for model in ("zayatz", "dankar"):
        try:
            first = population_uniqueness(table, qi="q", population_size=N, model=model)
        except ValueError:  # an estimator that does not apply says so (test_risk.py)
            continue
        again = population_uniqueness(relabelled, qi="q", population_size=N, model=model)
        assert first == again
        assert 0 <= first.share <= 1 and math.isfinite(first.uniques)
    hist = ClassSizes(*map(tuple, np.unique(np.unique(sample, return_counts=True)[1],
                                            return_counts=True)))
    # Zayatz: the sample uniques, scaled by N / n, times a probability
    assert 0 <= zayatz_uniques(hist, N) <= hist.of_size(1) * N / len(sample) * (1 + 1e-12)
