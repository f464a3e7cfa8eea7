"""Hypothesis properties of the breach probability (Sects. 4.2, 6.2 and Theorem 3)."""
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from skyprivacy import ReleaseCandidate, breach_probability

# absent values are part of every property's domain; their UnknownValueWarning is tested in
# test_sparse_kernel.py
pytestmark = pytest.mark.filterwarnings("ignore::skyprivacy.UnknownValueWarning")

POOL = ["flu", "aids", "cancer", "cold", "gout"]
SEMANTICS = ["svpi", "mvpi-set", "mvpi-multiset"]


@st.composite
def releases(draw, semantics=None, max_groups=6, max_size=12):
    semantics = semantics or draw(st.sampled_from(SEMANTICS))
    groups = []
    for _ in range(draw(st.integers(1, max_groups))):
        n = draw(st.integers(1, max_size))
        if semantics == "svpi":
            values = draw(st.lists(st.sampled_from(POOL), min_size=n, max_size=n))
        elif semantics == "mvpi-set":
            values = []
            for v in POOL:
                values += [v] * draw(st.integers(0, min(n, 3)))
        else:
            values = draw(st.lists(st.sampled_from(POOL), max_size=2 * n))
        groups.append((n, values))
    return semantics, groups


amounts = st.tuples(st.integers(0, 4), st.integers(0, 6), st.integers(0, 4))


@settings(max_examples=150)
@given(releases(), amounts, st.sampled_from(POOL))
def test_monotone_in_each_dimension(rel, lkm, sigma):
    semantics, groups = rel
    release = ReleaseCandidate.from_groups(groups, semantics=semantics)
    l, k, m = lkm
    base = breach_probability(release, sigma, l=l, k=k, m=m, exact=True)
    assert 0 <= base <= 1
    assert breach_probability(release, sigma, l=l + 1, k=k, m=m, exact=True) >= base
    assert breach_probability(release, sigma, l=l, k=k + 1, m=m, exact=True) >= base
    assert breach_probability(release, sigma, l=l, k=k, m=m + 1, exact=True) >= base


@settings(max_examples=100)
@given(releases(), amounts, st.randoms(use_true_random=False))
def test_invariant_to_row_order_and_group_order(rel, lkm, rnd):
    semantics, groups = rel
    rows = [(g, v) for g, (n, values) in enumerate(groups) for v in values]
    if semantics != "svpi" or not rows:
        shuffled = groups[:]
        rnd.shuffle(shuffled)
        a = ReleaseCandidate.from_groups(groups, semantics=semantics)
        b = ReleaseCandidate.from_groups(shuffled, semantics=semantics)
    else:
        table = pd.DataFrame(rows, columns=["qi", "s"])
        order = list(range(len(table)))
        rnd.shuffle(order)
        a = ReleaseCandidate.from_table(table, qi="qi", sensitive="s")
        b = ReleaseCandidate.from_table(table.iloc[order], qi="qi", sensitive="s")
    l, k, m = lkm
    assert a is not b
    for sigma in POOL:
        assert breach_probability(a, sigma, l=l, k=k, m=m, exact=True) == \
            breach_probability(b, sigma, l=l, k=k, m=m, exact=True)
    # the same groups, whatever the order: equal multisets of (size, value counts)
    def shapes(release):
        return sorted((int(n), tuple(sorted(release.group_counts(g).items())))
                      for g, n in enumerate(release.sizes_array))
    assert shapes(a) == shapes(b)


@settings(max_examples=100)
@given(releases(), amounts, st.permutations(range(len(POOL))))
def test_invariant_to_relabelling_values(rel, lkm, perm):
    semantics, groups = rel
    rename = {v: f"v{perm[i]}" for i, v in enumerate(POOL)}
    renamed = [(n, [rename[v] for v in values]) for n, values in groups]
    a = ReleaseCandidate.from_groups(groups, semantics=semantics)
    b = ReleaseCandidate.from_groups(renamed, semantics=semantics)
    l, k, m = lkm
    for sigma in POOL:
        assert breach_probability(a, sigma, l=l, k=k, m=m, exact=True) == \
            breach_probability(b, rename[sigma], l=l, k=k, m=m, exact=True)


@settings(max_examples=200)
@given(releases(semantics="svpi", max_groups=5), amounts, st.data())
def test_svpi_merging_two_groups_never_raises_breach_probability(rel, lkm, data):
    # Corollary of Theorem 3: the skyline criterion is monotonic in svpi.
    _, groups = rel
    assume(len(groups) >= 2)
    i, j = data.draw(st.lists(st.integers(0, len(groups) - 1), min_size=2, max_size=2,
                              unique=True))
    merged = [g for x, g in enumerate(groups) if x not in (i, j)]
    merged.append((groups[i][0] + groups[j][0], groups[i][1] + groups[j][1]))
    fine = ReleaseCandidate.from_groups(groups)
    coarse = ReleaseCandidate.from_groups(merged)
    l, k, m = lkm
    for sigma in POOL:
        assert breach_probability(coarse, sigma, l=l, k=k, m=m, exact=True) <= \
            breach_probability(fine, sigma, l=l, k=k, m=m, exact=True)


@settings(max_examples=100)
@given(releases(), amounts, st.sampled_from(POOL))
def test_float_result_is_the_rounded_exact_result(rel, lkm, sigma):
    semantics, groups = rel
    release = ReleaseCandidate.from_groups(groups, semantics=semantics)
    l, k, m = lkm
    exact = breach_probability(release, sigma, l=l, k=k, m=m, exact=True)
    approx = breach_probability(release, sigma, l=l, k=k, m=m)
    assert isinstance(exact, Fraction) and type(approx) is float
    assert approx == float(exact)


@settings(max_examples=60)
@given(releases(semantics="svpi", max_groups=4), amounts)
def test_from_table_and_from_groups_agree(rel, lkm):
    _, groups = rel
    table = pd.DataFrame([(g, v) for g, (_, vals) in enumerate(groups) for v in vals],
                         columns=["bucket", "disease"])
    a = ReleaseCandidate.from_groups(groups)
    b = ReleaseCandidate.from_table(table, group="bucket", sensitive="disease")
    assert np.array_equal(a.sizes_array, b.sizes_array)
    l, k, m = lkm
    for sigma in POOL:
        assert breach_probability(a, sigma, l=l, k=k, m=m, exact=True) == \
            breach_probability(b, sigma, l=l, k=k, m=m, exact=True)
