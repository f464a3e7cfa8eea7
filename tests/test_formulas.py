"""Closed forms of Sect. 7.1, boundary rules, and numerical robustness of the two paths."""
import math
import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skyprivacy import (
    InvalidParameterError,
    ReleaseCandidate,
    UnknownValueWarning,
    breach_probability,
)
from skyprivacy.formulas import (
    SortedRows,
    exact_T,
    exact_V,
    group_terms,
    sufficient_statistics,
    top_other_counts,
)


def test_svpi_closed_forms_match_the_paper():
    # T = (n - #s - #s(1..l) - k) / #s ; V = prod_{i<m} (n - #s - k - i) / (n - k - i)
    assert exact_T(10, 2, (3, 2), 1, "svpi") == Fraction(10 - 2 - 5 - 1, 2)
    assert exact_V(10, 2, 3, 1, "svpi") == Fraction(7, 9) * Fraction(6, 8) * Fraction(5, 7)
    assert exact_T(4, 1, (2,), 2, "svpi") == 0  # negative numerator: certainty (rule 3)
    assert exact_V(4, 3, 2, 0, "svpi") == 0


def test_mvpi_closed_forms_match_the_paper():
    # set: T = (n - #s - k)/#s * prod_{i<=l} (n - #s(i))/n
    assert exact_T(6, 2, (3, 1), 1, "mvpi-set") == Fraction(3, 2) * Fraction(3, 6) * Fraction(5, 6)
    # multiset: q = ((n-k-1)/(n-k))^#s, T = q/(1-q) * ((n-1)/n)^#s(1..l), V = ((n-k-m)/(n-k))^#s
    q = Fraction(4, 5) ** 3
    assert exact_T(6, 3, (2, 1), 1, "mvpi-multiset") == q / (1 - q) * Fraction(5, 6) ** 3
    assert exact_V(6, 3, 2, 1, "mvpi-multiset") == Fraction(3, 5) ** 3
    assert exact_V(6, 0, 2, 1, "mvpi-multiset") == 1  # rule 4


def test_boundary_rules_for_infeasible_and_absent():
    assert exact_T(3, 0, (), 0, "svpi") == math.inf  # rule 1: no sigma, no target
    assert exact_T(3, 1, (), 3, "svpi") == math.inf  # rule 2: t + k others do not fit
    assert exact_V(3, 1, 2, 2, "svpi") == math.inf  # rule 2: k + m do not fit
    assert exact_V(3, 1, 0, 3, "svpi") == 1


def test_top_other_counts_removes_one_copy_of_sigma_with_ties():
    sorted_counts = np.array([[5, 3, 3, 1], [4, 4, 0, 0], [2, 0, 0, 0]])
    s = np.array([3, 4, 0])
    assert top_other_counts(sorted_counts, s, 2).tolist() == [[5, 3], [4, 0], [2, 0]]
    assert top_other_counts(sorted_counts, s, 6).tolist() == [
        [5, 3, 1, 0, 0, 0], [4, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0]]
    assert top_other_counts(sorted_counts, s, 0).shape == (3, 0)


def test_vectorized_terms_agree_with_exact_terms():
    rng = np.random.default_rng(5)
    for semantics in ("svpi", "mvpi-set", "mvpi-multiset"):
        for _ in range(30):
            n = rng.integers(1, 40, size=20)
            counts = np.stack([rng.multinomial(int(x), [0.3, 0.3, 0.2, 0.2]) for x in n])
            if semantics == "mvpi-set":
                counts = np.minimum(counts, n[:, None])
            l, k, m = (int(v) for v in rng.integers(0, 4, size=3))
            s = counts[:, 0]
            top = top_other_counts(-np.sort(-counts, axis=1), s, l)
            terms = group_terms(n, s, top, l=l, k=k, m=m, semantics=semantics)
            for g in range(len(n)):
                t = tuple(top[g].tolist())
                for log_value, exact in [
                        (terms.log_T0[g], exact_T(int(n[g]), int(s[g]), t, 0, semantics)),
                        (terms.log_Tk[g], exact_T(int(n[g]), int(s[g]), t, k, semantics)),
                        (terms.log_Vk[g], exact_V(int(n[g]), int(s[g]), m, k, semantics))]:
                    if exact == math.inf:
                        assert log_value == math.inf
                    elif exact == 0:
                        assert log_value == -math.inf
                    else:
                        assert log_value == pytest.approx(math.log(exact), abs=1e-9)


def test_absent_value_is_zero_and_pinned_group_is_one():
    release = ReleaseCandidate.from_groups([(3, list("abb")), (6, list("aabbbb"))])
    with pytest.warns(UnknownValueWarning, match="'z' occurs in no group"):
        assert breach_probability(release, "z", l=3, k=3, m=3) == 0.0
    stats = sufficient_statistics(release, "a", l=0, k=2, m=1)
    assert stats.case == "pinned" and stats.pinned_group == 0
    assert stats.breach_probability == 1


def test_no_underflow_with_long_products():
    # mvpi-multiset with many occurrences: q = ((n-k-1)/(n-k))^s underflows as a float
    release = ReleaseCandidate.from_groups([(2, ["a"] * 1500 + ["b"] * 1500)],
                                           semantics="mvpi-multiset")
    exact = breach_probability(release, "a", l=1, k=0, m=0, exact=True)
    assert 0 < 1 - exact < Fraction(1, 10**300)
    assert breach_probability(release, "a", l=1, k=0, m=0) == 1.0
    # svpi with a long family product (the lgamma path, m > 64), several near-equal groups
    groups = [(400, ["a"] * 100 + ["b"] * 300), (401, ["a"] * 100 + ["b"] * 301),
              (399, ["a"] * 100 + ["b"] * 299)]
    release = ReleaseCandidate.from_groups(groups)
    stats = sufficient_statistics(release, "a", l=0, k=3, m=80)
    expected_v = min(exact_V(n, 100, 80, 3, "svpi") for n, _ in groups)
    assert stats.ss5.value == expected_v and stats.ss5.group == 2
    assert float(stats.breach_probability) == breach_probability(release, "a", l=0, k=3, m=80)


def test_exact_minimum_survives_float_near_ties():
    # Two groups whose T differ by 1 part in 10^13: only exact arithmetic separates them.
    big = 10**13
    release = ReleaseCandidate.from_counts([big + 1, big + 2], [[1, big], [1, big + 1]],
                                           ["a", "b"])
    stats = sufficient_statistics(release, "a", l=0, k=0, m=0)
    assert stats.ss2.value == Fraction(big, 1) and stats.ss2.group == 0
    assert breach_probability(release, "a", l=0, k=0, m=0, exact=True) == Fraction(1, big + 1)


@pytest.mark.parametrize("kwargs,message", [
    (dict(l=-1, k=0, m=0),
     "The 'l' parameter of breach_probability must be a non-negative integer. Got -1 instead."),
    (dict(l=0, k=2.5, m=0),
     "The 'k' parameter of breach_probability must be a non-negative integer. Got 2.5 instead."),
    (dict(l=0, k=0, m="1"),
     "The 'm' parameter of breach_probability must be a non-negative integer. Got '1' instead."),
])
def test_amount_errors(kwargs, message):
    release = ReleaseCandidate.from_groups([(1, ["a"])])
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        breach_probability(release, "a", **kwargs)


def test_release_type_error():
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'release' parameter of breach_probability must be a ReleaseCandidate. "
            "Got DataFrame instead.")):
        import pandas as pd
        breach_probability(pd.DataFrame(), "a", l=0, k=0, m=0)


_LOGS = st.sampled_from([-math.inf, -2.0, -1e-10, 0.0, 1e-10, 0.3, 1.0, math.inf])


@settings(max_examples=300)
@given(ss=st.lists(_LOGS, min_size=5, max_size=5),
       theta=st.sampled_from([-math.inf, 0.0, 0.3, -1.0]), pinned=st.booleans())
def test_the_scalar_float_verdict_is_the_array_rule(ss, theta, pinned):
    from skyprivacy.formulas import combine, float_verdict_one, float_verdicts
    unsafe, unsure = float_verdicts(combine(*(np.array([x]) for x in ss)), theta,
                                    np.array([pinned]))
    assert float_verdict_one(*ss, theta, pinned) == (bool(unsafe[0]), bool(unsure[0]))


# --------------------------------------------------------------------------- sorted rows
@st.composite
def sorted_rows(draw):
    """Rows of descending counts (some empty), mvpi-set sized: counts at most the row size."""
    lengths = draw(st.lists(st.integers(0, 6), min_size=1, max_size=8))
    rows, sizes = [], []
    for length in lengths:
        size = draw(st.integers(1, 9))
        counts = draw(st.lists(st.integers(1, size), min_size=length, max_size=length))
        rows.append(sorted(counts, reverse=True))
        sizes.append(size)
    return sizes, rows


def _flat(sizes, rows):
    indptr = np.concatenate([[0], np.cumsum([len(r) for r in rows])])
    count = np.array([c for r in rows for c in r], dtype=np.int32)
    return SortedRows(np.array(sizes), indptr, count), indptr


@settings(max_examples=200)
@given(sorted_rows(), st.integers(0, 12), st.booleans())
def test_top_l_sums_of_sorted_rows_follow_their_definition(data, l, given_rows):
    """h and the mvpi-set sums equal the definition (the l largest *other* counts of the
    entry's row), whether they come from row heads (small l) or from every entry (large l),
    and whether the rows are given or found by binary search."""
    sizes, rows_list = data
    rows, indptr = _flat(sizes, rows_list)
    if given_rows:
        rows = SortedRows(np.array(sizes), indptr, rows.count,
                          row=np.repeat(np.arange(len(sizes)), np.diff(indptr)))
    idx = np.arange(len(rows.count))
    h = rows.top_sum(idx, l)
    set_log, set_full = rows.set_top(idx, l)
    for e in idx.tolist():
        g = int(np.searchsorted(indptr, e, side="right")) - 1
        others = rows_list[g][:e - indptr[g]] + rows_list[g][e - indptr[g] + 1:]
        top = others[:l]
        assert h[e] == sum(top)
        assert rows.top_tuple(e, l) == tuple(top)
        assert set_full[e] == sum(c >= sizes[g] for c in top)
        expected = sum(math.log1p(-c / sizes[g]) for c in top if c < sizes[g])
        assert set_log[e] == pytest.approx(expected, abs=1e-12)
    assert rows.row_of(idx).tolist() == np.repeat(np.arange(len(sizes)), np.diff(indptr)).tolist()
    for lo in range(len(idx) + 1):
        for hi in range(lo + 1, len(idx) + 1):
            assert rows.row_range(lo, hi).tolist() == rows.row_of(idx[lo:hi]).tolist()


def test_both_kinds_of_prefix_sums_are_used():
    """Small l reads a groups x width table; l as long as the rows reads sums over every
    entry; both give the same h."""
    sizes = [6, 6, 6]
    rows_list = [[3, 2, 1], [4, 1, 1], [5, 1]]
    rows, _ = _flat(sizes, rows_list)
    idx = np.arange(8)
    small = rows.top_sum(idx, 1)
    # which prefix sums were built is the private state under test
    assert rows._sums["count"][0] is not None  # noqa: SLF001 (heads of the rows)
    assert small.tolist() == [2, 3, 3, 1, 4, 4, 1, 5]
    big = rows.top_sum(idx, 3)
    assert rows._sums["count"][0] is None  # noqa: SLF001 (3 x 4 heads > 8 entries + 3 rows)
    assert big.tolist() == [3, 4, 5, 2, 5, 5, 1, 5]


def test_a_check_allocates_nothing_the_size_of_the_nonzeros(monkeypatch):
    """skyline_check reads the model's arrays in pieces: with the groups, the values and the
    policy fixed, doubling the nonzeros adds next to nothing to its peak allocation (a
    temporary as long as the nonzeros, even a boolean mask, would add a byte per nonzero; the
    kernel before the sparse model copied several int64 arrays)."""
    import tracemalloc

    import skyprivacy.formulas as formulas
    import skyprivacy.release as release_module
    from skyprivacy import Policy, skyline_check

    monkeypatch.setattr(formulas, "_CHUNK", 1024)
    monkeypatch.setattr(release_module, "PIECE", 1024)
    policy = Policy.uniform([(1, 5, 1, 0.9)])

    def peak_of_a_check(per_group):
        rng = np.random.default_rng(7)
        n_groups, n_values = 2_000, 2_000
        value = np.concatenate([np.sort(rng.choice(n_values, per_group, replace=False))
                                for _ in range(n_groups)])
        count = rng.integers(1, 4, size=len(value))
        group = np.repeat(np.arange(n_groups), per_group)
        sizes = np.bincount(group, weights=count).astype(np.int64)
        release = ReleaseCandidate.from_nonzeros(sizes, group, value, count,
                                                 [f"v{j}" for j in range(n_values)])
        del value, count, group
        _, nz_value, nz_count = release.csr
        assert nz_value.dtype == np.int32 and nz_count.dtype == np.int32
        tracemalloc.start()
        assert skyline_check(release, policy).safe
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return release.n_nonzeros, peak

    n_small, small = peak_of_a_check(250)
    n_large, large = peak_of_a_check(500)
    assert (n_small, n_large) == (500_000, 1_000_000)
    # under half a byte per extra nonzero (a full-length mask would be one): what grows is
    # bounded by the group sizes (the falling-ratio table), not by the nonzeros
    assert large - small < 0.5 * (n_large - n_small), (small, large)


def test_the_closed_forms_live_in_formulas_alone():
    """formulas.py is the one implementation of T, V, Theorem 2's minimum and BP = 1/(NR + 1)
    (issue "Scale in the sensitive domain"): no other module of the package defines a closed
    form or computes the breach probability from a negated ratio in its code (docstrings may
    cite them). The dynamic program of baselines/dynamic.py is a different algorithm (the
    paper's competitor) and only combines formulas' terms; the other papers' areas have their
    own formulas."""
    import ast
    from pathlib import Path

    package = Path(__file__).resolve().parents[1] / "skyprivacy"
    closed_form_names = {"log_T", "log_V", "exact_T", "exact_V", "_log_T", "_log_V",
                         "_log_nr", "_log_falling", "_log_falling_ratio", "falling_table",
                         "exact_terms", "holder_terms", "group_terms", "combine",
                         "exact_negated_ratio", "exact_breach_probability"}
    found = []
    other_papers = {"fairness_queries", "transparency", "experimental"}
    for path in sorted(package.rglob("*.py")):
        if (path.name == "formulas.py" and path.parent == package) \
                or other_papers & set(path.relative_to(package).parts):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                    and node.name in closed_form_names:
                found.append(f"{path.name}: def {node.name}")
            # 1 / (x + 1) or 1 / (1 + x): a breach probability from a negated ratio
            if (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)
                    and isinstance(node.left, ast.Constant) and node.left.value == 1
                    and isinstance(node.right, ast.BinOp) and isinstance(node.right.op, ast.Add)
                    and any(isinstance(side, ast.Constant) and side.value == 1
                            for side in (node.right.left, node.right.right))):
                found.append(f"{path.relative_to(package)}:{node.lineno}: 1 / (... + 1)")
    assert found == []
