"""(c, k)-safety (skyprivacy/baselines/cksafety.py) against the definition.

Layers: a brute-force oracle written from the definition (every random world of a tiny
bucketized release, every grounding of k simple implications, exact fractions); a second
oracle over richer basic implications (conjunctive antecedents, disjunctive consequents) that
checks Martin et al.'s reduction to simple ones; the two structural facts the module rests on,
each against an enumeration of every board; Hypothesis properties; the messages.
"""
import itertools
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skyprivacy import ReleaseCandidate, breach_probability
from skyprivacy.baselines import (
    CKSafetyResult,
    ck_disclosure,
    ck_safety,
    recursive_cl_diversity_threshold,
)
from skyprivacy.baselines.cksafety import _staircases
from skyprivacy.errors import InvalidParameterError


# ----------------------------------------------------------------------------- the oracle
def _worlds(groups):
    """Every world (one value per individual, individuals numbered across groups), each
    equally likely: the product of every group's distinct arrangements.  Returns the cells
    (individual, value) and a boolean matrix world x cell."""
    per_group = [sorted(set(itertools.permutations(values))) for _, values in groups]
    domain = sorted({v for _, values in groups for v in values})
    n = sum(size for size, _ in groups)
    cells = [(p, v) for p in range(n) for v in domain]
    rows = [sum(parts, ()) for parts in itertools.product(*per_group)]
    holds = np.array([[world[p] == v for p, v in cells] for world in rows], dtype=bool)
    return cells, holds


def _oracle_simple(groups, k):
    """max Pr(s in t | AND_i (z_i in w_i -> s in t)) over every t, s and k antecedent atoms."""
    cells, holds = _worlds(groups)
    best = Fraction(0)
    for e, _ in enumerate(cells):
        target = holds[:, e]
        if not target.any():
            continue
        for atoms in itertools.combinations_with_replacement(range(len(cells)), k):
            knowledge = target | ~holds[:, list(atoms)].any(axis=1) if atoms else target | True
            best = max(best, Fraction(int(target.sum()), int(knowledge.sum())))
    return best


def _oracle_basic_one(groups):
    """max over ONE basic implication (AND of 1-2 atoms) -> (OR of 1-2 atoms)."""
    cells, holds = _worlds(groups)
    sets = [list(c) for r in (1, 2) for c in itertools.combinations(range(len(cells)), r)]
    antecedents = np.array([holds[:, s].all(axis=1) for s in sets]).T
    consequents = np.array([holds[:, s].any(axis=1) for s in sets]).T
    best = Fraction(0)
    for e in range(len(cells)):
        target = holds[:, e]
        if not target.any():
            continue
        for a in range(antecedents.shape[1]):
            knowledge = ~antecedents[:, [a]] | consequents  # every consequent at once
            both = (knowledge & target[:, None]).sum(axis=0)
            total = knowledge.sum(axis=0)
            for hit, all_ in zip(both.tolist(), total.tolist()):
                if all_:
                    best = max(best, Fraction(hit, all_))
    return best


def _release(groups):
    return ReleaseCandidate.from_groups(groups)


def _random_groups(rng, max_total=6, values="abc"):
    groups, total = [], 0
    while total < max_total:
        n = int(rng.integers(1, 4))
        if total + n > max_total:
            break
        groups.append((n, [values[int(v)] for v in rng.integers(0, len(values), n)]))
        total += n
        if rng.random() < 0.4:
            break
    return groups


# ----------------------------------------------------------------------------- values
def test_no_knowledge_is_the_largest_share_of_a_value():
    release = _release([(4, list("aabc")), (5, list("abbbc"))])
    assert ck_disclosure(release, k=0) == Fraction(3, 5)


@pytest.mark.parametrize("seed", range(40))
def test_agrees_with_the_enumeration_of_simple_implications(seed):
    rng = np.random.default_rng(seed)
    groups = _random_groups(rng)
    release = _release(groups)
    for k in range(3):
        assert ck_disclosure(release, k=k) == _oracle_simple(groups, k), (groups, k)


@pytest.mark.parametrize("k", [1, 2])
def test_groups_with_their_own_values(k):
    """Two groups sharing no value, one diverse and one near-homogeneous, eight individuals
    (beyond the random cases' six): the knapsack against the enumeration."""
    groups = [(4, list("abcd")), (4, list("xxxy"))]
    assert ck_disclosure(_release(groups), k=k) == _oracle_simple(groups, k)


@pytest.mark.parametrize("seed", range(100, 110))
def test_agrees_with_the_enumeration_at_three_implications(seed):
    groups = _random_groups(np.random.default_rng(seed), max_total=5)
    assert ck_disclosure(_release(groups), k=3) == _oracle_simple(groups, 3), groups


@pytest.mark.parametrize("groups", [
    [(2, list("ab")), (2, list("ab"))],
    [(3, list("aab"))],
    [(2, list("ab")), (2, list("aa"))],
    [(4, list("aabb"))],
])
def test_simple_implications_are_the_worst_basic_ones(groups):
    """Martin et al.'s reduction, at k = 1, against antecedents of two atoms and consequents
    of two atoms (everything L_basic(1) can say on four individuals and two values)."""
    assert _oracle_basic_one(groups) == ck_disclosure(_release(groups), k=1)


def test_the_worst_case_it_reports_reaches_its_disclosure():
    groups = [(4, list("aabc")), (3, list("abc")), (3, list("aab"))]
    release = _release(groups)
    cells, holds = _worlds(groups)
    starts = np.cumsum([0] + [n for n, _ in groups])
    for k in range(4):
        result = ck_safety(release, c=1, k=k)
        assert len(result.implications) <= k
        g = int(result.worst_group)
        target = cells.index((int(starts[g]), result.worst_value))
        # the target is its group's first individual; "(group, i)" is the i-th other one
        def who_is(who, g=g):
            if who == "target":
                return int(starts[g])
            return int(starts[who[0]]) + who[1] - (0 if who[0] == g else 1)

        atoms = [cells.index((who_is(who), value)) for who, value in result.implications]
        knowledge = holds[:, target] | ~holds[:, atoms].any(axis=1) if atoms else \
            np.ones(len(holds), bool)
        got = Fraction(int((holds[:, target] & knowledge).sum()), int(knowledge.sum()))
        assert got == result.disclosure, (k, result.implications)


# ----------------------------------------------------------------------------- the two facts
def _least_avoidance(values, j, target_value=None):
    """min over every board of j cells of Pr(avoid it) (times 1/Pr(t = s) with a target)."""
    n = len(values)
    worlds = np.array(sorted(set(itertools.permutations(values))))
    domain = sorted(set(values))
    cells = [(p, v) for p in range(n) for v in domain if (p, v) != (0, target_value)]
    base = np.ones(len(worlds), bool) if target_value is None else worlds[:, 0] != target_value
    scale = Fraction(1) if target_value is None else \
        Fraction(len(worlds), int((worlds[:, 0] == target_value).sum()))
    best = None
    for board in itertools.combinations(cells, j):
        ok = base.copy()
        for p, v in board:
            ok &= worlds[:, p] != v
        value = Fraction(int(ok.sum()), len(worlds)) * scale
        best = value if best is None or value < best else best
    return best


@pytest.mark.parametrize("values", ["aabc", "aaabbb", "abcd", "aab", "aaaab", "aabbc"])
def test_a_staircase_is_the_least_board(values):
    counts = tuple(sorted((values.count(v) for v in set(values)), reverse=True))
    stairs = _staircases(counts, 4)
    for j in range(5):
        if j <= len(values) * len(set(values)):
            assert stairs[j][0] == _least_avoidance(values, j), (values, j)


@pytest.mark.parametrize("values", ["aabc", "aaabbb", "abcd", "aab", "aabbc"])
def test_the_target_is_one_more_row_of_the_staircase_on_the_top_value(values):
    counts = tuple(sorted((values.count(v) for v in set(values)), reverse=True))
    stairs = _staircases(counts, 4)
    for j in range(3):
        least = min(_least_avoidance(values, j, target_value=s) for s in set(values))
        assert least == Fraction(len(values), counts[0]) * stairs[j + 1][0], (values, j)


# ----------------------------------------------------------------------------- properties
SMALL = st.lists(st.tuples(st.integers(1, 6), st.lists(st.integers(0, 3), min_size=6,
                                                       max_size=6)),
                 min_size=1, max_size=4).map(
    lambda spec: [(n, ["abcd"[v] for v in vs[:n]]) for n, vs in spec])


@settings(max_examples=40, deadline=None)
@given(SMALL)
def test_monotone_in_k(groups):
    release = _release(groups)
    values = [ck_disclosure(release, k=k) for k in range(5)]
    assert values == sorted(values)


@settings(max_examples=40, deadline=None)
@given(SMALL, st.integers(0, 3))
def test_at_least_every_skyline_point_it_contains(groups, k):
    """t rules out l values and m others share s: l + m simple implications (Sect. 5.1)."""
    release = _release(groups)
    disclosure = ck_disclosure(release, k=k)
    for l in range(k + 1):
        for value in release.values:
            assert breach_probability(release, value, l=l, k=0, m=k - l, exact=True) \
                <= disclosure


@settings(max_examples=40, deadline=None)
@given(SMALL, st.integers(2, 5))
def test_at_least_the_cl_diversity_worst_case(groups, l):
    """Proposition 4: l - 2 implications on the target give r_1 / (r_1 + r_l + ...)."""
    release = _release(groups)
    threshold = recursive_cl_diversity_threshold(release, l=l)
    bound = Fraction(1) if threshold == float("inf") else threshold / (1 + threshold)
    assert ck_disclosure(release, k=l - 2) >= bound


@settings(max_examples=30, deadline=None)
@given(SMALL, st.integers(0, 3), st.randoms(use_true_random=False))
def test_invariant_to_group_order_and_value_names(groups, k, rnd):
    before = ck_disclosure(_release(groups), k=k)
    shuffled = list(groups)
    rnd.shuffle(shuffled)
    names = dict(zip("abcd", rnd.sample(["w", "x", "y", "z"], 4)))
    renamed = [(n, [names[v] for v in vs]) for n, vs in shuffled]
    assert ck_disclosure(_release(renamed), k=k) == before


@settings(max_examples=30, deadline=None)
@given(SMALL, st.integers(0, 3))
def test_the_verdict_is_the_disclosure_against_c(groups, k):
    release = _release(groups)
    result = ck_safety(release, c=1, k=k)
    d = result.disclosure
    assert result.disclosure == max(result.group_disclosures)
    assert ck_safety(release, c=d, k=k).safe is False
    if d < 1:
        assert ck_safety(release, c=(d + 1) / 2, k=k).safe is True


# ----------------------------------------------------------------------------- the result
def test_result_shape_and_frame():
    release = ReleaseCandidate.from_groups([(4, ["flu", "flu", "hiv", "cold"]),
                                            (4, ["flu", "hiv", "cold", "gout"])])
    result = ck_safety(release, c=0.8, k=2)
    assert isinstance(result, CKSafetyResult)
    assert (result.safe, result.disclosure, result.worst_value) == (False, 1, "flu")
    frame = result.to_frame()
    assert list(frame.columns) == ["n_individuals", "top_value", "disclosure", "safe"]
    assert frame["safe"].tolist() == [False, True]
    assert result.violating_groups == (0,)
    assert result.to_dict() == {
        "criterion": "(c, k)-safety", "c": 0.8, "k": 2, "disclosure": "1",
        "worst_value": "flu", "safe": False, "satisfied": False, "worst_group": "0",
        "violating_groups": ["0"]}


def test_does_not_touch_the_release():
    table = pd.DataFrame({"zip": [1, 1, 1, 2, 2, 2], "d": list("aabcab")})
    copy = table.copy()
    release = ReleaseCandidate.from_table(table, sensitive="d", qi=["zip"])
    assert ck_safety(release, c=0.9, k=1).worst_group in (1, 2)
    pd.testing.assert_frame_equal(table, copy)


def test_a_single_valued_group_falls_to_one_implication():
    release = _release([(3, list("abc")), (2, list("dd"))])
    assert ck_disclosure(release, k=0) == 1
    assert ck_disclosure(_release([(3, list("abc")), (3, list("abc"))]), k=1) == Fraction(1, 2)


@pytest.mark.parametrize("kwargs, message", [
    ({"c": 1.5, "k": 1}, "The 'c' parameter of ck_safety must be in (0, 1]. Got 1.5 instead."),
    ({"c": 0, "k": 1}, "The 'c' parameter of ck_safety must be in (0, 1]. Got 0 instead."),
    ({"c": 0.5, "k": -1},
     "The 'k' parameter of ck_safety must be a non-negative integer. Got -1 instead."),
])
def test_messages(kwargs, message):
    release = _release([(2, list("ab"))])
    with pytest.raises(InvalidParameterError) as info:
        ck_safety(release, **kwargs)
    assert str(info.value) == message


def test_mvpi_is_refused():
    release = ReleaseCandidate.from_groups([(2, list("aab"))], semantics="mvpi-multiset")
    with pytest.raises(InvalidParameterError, match=r"^The 'release' parameter of ck_safety "
                       r"must have semantics 'svpi' \(\(c, k\)-safety gives every individual "
                       r"exactly one sensitive value\). Got 'mvpi-multiset' instead\.$"):
        ck_safety(release, c=0.5, k=1)
