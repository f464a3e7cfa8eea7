"""Baselines against oracles written from the definitions, and Hypothesis properties.

Oracles: plain Python over Counters (distinct, entropy with log, recursive with Fractions), and
the earth mover's distance as a transportation linear program (scipy), independent of the
closed forms used by t_closeness.
"""
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from skyprivacy import ReleaseCandidate
from skyprivacy.baselines import (
    distinct_l_diversity,
    distinct_l_diversity_level,
    entropy_l_diversity,
    entropy_l_diversity_level,
    k_anonymity,
    k_anonymity_level,
    recursive_cl_diversity,
    recursive_cl_diversity_threshold,
    t_closeness,
    t_closeness_level,
)

POOL = [1, 2, 3, 4, 5, 6]


@st.composite
def groups_strategy(draw, max_groups=6, max_size=10):
    groups = []
    for _ in range(draw(st.integers(1, max_groups))):
        n = draw(st.integers(1, max_size))
        groups.append((n, draw(st.lists(st.sampled_from(POOL), min_size=n, max_size=n))))
    return groups


# ----------------------------------------------------------------------------- oracles
def oracle_recursive(groups, c, l):
    c = Fraction(c)
    for _, values in groups:
        r = sorted(Counter(values).values(), reverse=True)
        if not r[0] < c * sum(r[l - 1:]):
            return False
    return True


def oracle_entropy(values):
    n = len(values)
    return -sum(k / n * math.log(k / n) for k in Counter(values).values())


def emd_by_linear_program(p, q, ground):
    """min sum f_ij d_ij  s.t.  sum_j f_ij = p_i, sum_i f_ij = q_j, f >= 0."""
    size = len(p)
    a_eq, b_eq = [], []
    for i in range(size):
        row = np.zeros((size, size))
        row[i, :] = 1
        a_eq.append(row.ravel())
        b_eq.append(p[i])
    for j in range(size):
        col = np.zeros((size, size))
        col[:, j] = 1
        a_eq.append(col.ravel())
        b_eq.append(q[j])
    result = linprog(np.asarray(ground, dtype=float).ravel(), A_eq=np.array(a_eq),
                     b_eq=np.array(b_eq), bounds=(0, None), method="highs")
    assert result.status == 0
    return result.fun


def oracle_emd(groups, ordered):
    domain = sorted({v for _, vals in groups for v in vals})
    size = len(domain)
    total = Counter(v for _, vals in groups for v in vals)
    n_all = sum(total.values())
    q = [total[v] / n_all for v in domain]
    if ordered:
        ground = [[abs(i - j) / max(size - 1, 1) for j in range(size)] for i in range(size)]
    else:
        ground = [[0.0 if i == j else 1.0 for j in range(size)] for i in range(size)]
    out = []
    for n, vals in groups:
        counts = Counter(vals)
        out.append(emd_by_linear_program([counts[v] / n for v in domain], q, ground))
    return out


# ----------------------------------------------------------------------------- agreement
@settings(max_examples=150)
@given(groups_strategy(), st.integers(1, 7))
def test_k_and_distinct_match_definitions(groups, level):
    release = ReleaseCandidate.from_groups(groups)
    assert k_anonymity(release, level).satisfied == all(n >= level for n, _ in groups)
    assert distinct_l_diversity(release, level).satisfied == all(
        len(set(vals)) >= level for _, vals in groups)
    assert k_anonymity_level(release) == min(n for n, _ in groups)
    assert distinct_l_diversity_level(release) == min(len(set(v)) for _, v in groups)


@settings(max_examples=150)
@given(groups_strategy(), st.integers(1, 6),
       st.fractions(min_value=Fraction(1, 10), max_value=8, max_denominator=10))
def test_recursive_matches_definition(groups, l, c):
    release = ReleaseCandidate.from_groups(groups)
    result = recursive_cl_diversity(release, c, l)
    assert result.satisfied == oracle_recursive(groups, c, l)
    threshold = recursive_cl_diversity_threshold(release, l)
    assert threshold == result.threshold
    if threshold != math.inf:
        assert not oracle_recursive(groups, threshold, l)
        assert oracle_recursive(groups, threshold + Fraction(1, 10 ** 6), l)


@settings(max_examples=150)
@given(groups_strategy(), st.floats(1, 7))
def test_entropy_matches_definition_away_from_the_boundary(groups, l):
    entropies = [oracle_entropy(vals) for _, vals in groups]
    assume(all(abs(h - math.log(l)) > 1e-9 for h in entropies))
    release = ReleaseCandidate.from_groups(groups)
    result = entropy_l_diversity(release, l)
    assert result.ok == tuple(h >= math.log(l) for h in entropies)
    assert result.entropies == pytest.approx(entropies, abs=1e-12)
    level = entropy_l_diversity_level(release)
    assert level == pytest.approx(math.exp(min(entropies)), rel=1e-12)
    assert entropy_l_diversity(release, level).satisfied


@settings(max_examples=80)
@given(groups_strategy(max_groups=4, max_size=8), st.booleans())
def test_emd_matches_transportation_linear_program(groups, ordered):
    release = ReleaseCandidate.from_groups(groups)
    result = t_closeness(release, 1, ordered=True if ordered else None)
    assert [float(d) for d in result.distances] == pytest.approx(
        oracle_emd(groups, ordered), abs=1e-9)
    assert t_closeness_level(release, ordered=True if ordered else None) == max(
        result.distances)
    assert t_closeness(release, result.max_distance, ordered=ordered or None).satisfied


# ----------------------------------------------------------------------------- properties
def _all_levels(release):
    return (k_anonymity_level(release), distinct_l_diversity_level(release),
            entropy_l_diversity_level(release),
            [recursive_cl_diversity_threshold(release, l) for l in (1, 2, 3)],
            t_closeness_level(release), t_closeness_level(release, ordered=True))


@settings(max_examples=100)
@given(groups_strategy(), st.data())
def test_merging_two_groups_never_weakens_a_criterion(groups, data):
    assume(len(groups) >= 2)
    i, j = data.draw(st.lists(st.integers(0, len(groups) - 1), min_size=2, max_size=2,
                              unique=True))
    merged = [g for index, g in enumerate(groups) if index not in (i, j)]
    merged.append((groups[i][0] + groups[j][0], groups[i][1] + groups[j][1]))
    fine = _all_levels(ReleaseCandidate.from_groups(groups))
    coarse = _all_levels(ReleaseCandidate.from_groups(merged))
    assert coarse[0] >= fine[0]  # k
    assert coarse[1] >= fine[1]  # distinct l
    assert coarse[2] >= fine[2] * (1 - 1e-12)  # entropy l (float level)
    for after, before in zip(coarse[3], fine[3]):  # recursive threshold never grows
        assert after <= before
    assert coarse[4] <= fine[4] and coarse[5] <= fine[5]  # t never grows


@settings(max_examples=100)
@given(groups_strategy(), st.randoms(use_true_random=False), st.permutations(POOL))
def test_invariant_to_group_order_and_value_relabelling(groups, rnd, perm):
    shuffled = groups[:]
    rnd.shuffle(shuffled)
    rename = dict(zip(POOL, (f"v{p}" for p in perm)))
    renamed = [(n, [rename[v] for v in vals]) for n, vals in groups]
    base = ReleaseCandidate.from_groups(groups)
    for other in (ReleaseCandidate.from_groups(shuffled), ReleaseCandidate.from_groups(renamed)):
        levels, other_levels = _all_levels(base)[:5], _all_levels(other)[:5]
        assert levels[:2] == other_levels[:2] and levels[3:] == other_levels[3:]
        assert levels[2] == pytest.approx(other_levels[2], rel=1e-12)
    # the ordered distance only depends on the order, not on the values' names
    order = [rename[v] for v in POOL]
    assert t_closeness(ReleaseCandidate.from_groups(renamed), 1, ordered=order).distances == \
        t_closeness(base, 1, ordered=POOL).distances


@settings(max_examples=100)
@given(groups_strategy(), st.integers(1, 6),
       st.fractions(min_value=0, max_value=1, max_denominator=20))
def test_monotone_in_the_parameter(groups, level, t):
    release = ReleaseCandidate.from_groups(groups)
    if k_anonymity(release, level + 1).satisfied:
        assert k_anonymity(release, level).satisfied
    if distinct_l_diversity(release, level + 1).satisfied:
        assert distinct_l_diversity(release, level).satisfied
    if entropy_l_diversity(release, level + 1).satisfied:
        assert entropy_l_diversity(release, level).satisfied
    if recursive_cl_diversity(release, 2, level + 1).satisfied:
        assert recursive_cl_diversity(release, 2, level).satisfied
    if recursive_cl_diversity(release, Fraction(1, 2) + level, level).satisfied:
        assert recursive_cl_diversity(release, Fraction(3, 2) + level, level).satisfied
    if t_closeness(release, t).satisfied:
        assert t_closeness(release, min(1, t + Fraction(1, 20))).satisfied
