"""The sparse model and the batched kernel against dense references (issue "Scale in the
sensitive domain"): Theorem 2 over *every* group of a dense count matrix, with the exact terms,
on 500 random releases per semantics; amounts of any size; the dense views' size limit."""
import math
import re
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy import sparse

import skyprivacy.release as release_module
from skyprivacy import (
    Policy,
    ReleaseCandidate,
    UnknownValueWarning,
    breach_probability,
    skyline_anonymize,
    skyline_check,
    t_closeness,
)
from skyprivacy.cli import main
from skyprivacy.formulas import exact_T, exact_V, falling_table, log_V

SEMANTICS = ("svpi", "mvpi-set", "mvpi-multiset")


def dense_breach_probability(sizes, counts, j, l, k, m, semantics) -> Fraction:
    """Theorem 2 written over every group of a dense matrix, boundary rules included; no
    sparsity, no capping, no float path."""
    if not counts[:, j].any():
        return Fraction(0)
    if any(counts[g, j] > 0 and sizes[g] <= k + m for g in range(len(sizes))):
        return Fraction(1)
    t0, tk, v0, vk, nr1 = [], [], [], [], []
    for g, n in enumerate(sizes):
        n, s = int(n), int(counts[g, j])
        others = sorted((int(c) for i, c in enumerate(counts[g]) if i != j), reverse=True)
        top = tuple(others[:l])
        t0.append(exact_T(n, s, top, 0, semantics))
        tk.append(exact_T(n, s, top, k, semantics))
        v0.append(exact_V(n, s, m, 0, semantics))
        vk.append(exact_V(n, s, m, k, semantics))
        v1 = exact_V(n, s, m, k + 1, semantics)
        nr1.append(math.inf if n < 1 + k + m or math.inf in (tk[-1], v1) else tk[-1] * v1)

    def mul(a, b):
        return math.inf if math.inf in (a, b) else a * b
    nr = min(min(nr1), mul(min(t0), min(vk)), mul(min(tk), min(v0)))
    return Fraction(0) if nr == math.inf else 1 / (nr + 1)


def random_release(rng, semantics):
    n_groups = int(rng.integers(1, 7))
    n_values = int(rng.integers(1, 6))
    sizes = rng.integers(1, 7, size=n_groups)
    counts = np.zeros((n_groups, n_values), dtype=np.int64)
    for g in range(n_groups):
        if semantics == "svpi":
            # few values per group: many values sit in only a few groups
            held = rng.choice(n_values, size=min(n_values, int(rng.integers(1, 3))),
                              replace=False)
            counts[g, held] = rng.multinomial(int(sizes[g]), [1 / len(held)] * len(held))
        else:
            mask = rng.random(n_values) < 0.5
            high = int(sizes[g]) + 1 if semantics == "mvpi-set" else 2 * int(sizes[g]) + 1
            counts[g] = np.where(mask, rng.integers(1, high, size=n_values), 0)
    return sizes, counts


@pytest.mark.parametrize("semantics", SEMANTICS)
def test_sparse_path_equals_dense_reference_on_500_releases(semantics):
    rng = np.random.default_rng({"svpi": 1, "mvpi-set": 2, "mvpi-multiset": 3}[semantics])
    values = [f"v{i}" for i in range(5)]
    compared = 0
    for _ in range(500):
        sizes, counts = random_release(rng, semantics)
        names = values[:counts.shape[1]]
        release = ReleaseCandidate.from_counts(sizes, counts, names, semantics=semantics)
        queries, expected = [], []
        for _ in range(3):
            j = int(rng.integers(0, counts.shape[1]))
            l, k, m = (int(x) for x in rng.integers(0, 4, size=3))
            bp = dense_breach_probability(sizes, counts, j, l, k, m, semantics)
            assert breach_probability(release, names[j], l=l, k=k, m=m, exact=True) == bp
            queries.append((names[j], l, k, m))
            expected.append(bp)
            compared += 1
        # the batched verdicts, with c exactly at the breach probability (the boundary) and
        # just above it
        policy = {}
        for (name, l, k, m), bp in zip(queries, expected):
            c = bp if 0 < bp else Fraction(1, 2)
            policy.setdefault(name, []).append((l, k, m, c))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = skyline_check(release, Policy(policy, default=None))
        for row in result.rows:
            truth = dense_breach_probability(sizes, counts, names.index(row.value),
                                             row.point.l, row.point.k, row.point.m, semantics)
            assert row.breach_probability == truth
            assert row.safe == (truth < row.point.c_exact)
        assert result.safe == all(r.safe for r in result.rows)
    assert compared == 1500


@pytest.mark.parametrize("semantics", SEMANTICS)
def test_the_sparse_model_round_trips_with_the_dense_one(semantics):
    rng = np.random.default_rng(7)
    for _ in range(50):
        sizes, counts = random_release(rng, semantics)
        names = [f"v{i}" for i in range(counts.shape[1])]
        dense = ReleaseCandidate.from_counts(sizes, counts, names, semantics=semantics)
        assert ReleaseCandidate.from_counts(sizes, sparse.csr_array(counts), names,
                                            semantics=semantics) == dense
        g, v = np.nonzero(counts)
        assert ReleaseCandidate.from_nonzeros(sizes, g, v, counts[g, v], names,
                                              semantics=semantics) == dense
        assert np.array_equal(dense.count_matrix, counts)
        assert np.array_equal(dense.to_sparse().toarray(), counts)
        assert dense.n_nonzeros == int((counts > 0).sum())
        frame = dense.nonzeros()
        assert int(frame["count"].sum()) == int(counts.sum())


def test_amounts_of_any_size_equal_the_capped_query():
    release = ReleaseCandidate.from_groups(
        [(4, ["flu", "flu", "cold", "hiv"]), (5, ["flu", "cold", "cold", "hiv", "gout"])])
    big = breach_probability(release, "flu", l=10**9, k=2**70, m=2**70, exact=True)
    capped = breach_probability(release, "flu", l=len(release.values),
                                k=release.n_individuals, m=release.n_individuals, exact=True)
    assert big == capped == 1
    # l alone beyond the number of other values
    assert breach_probability(release, "flu", l=10**30, k=0, m=0, exact=True) == \
        breach_probability(release, "flu", l=3, k=0, m=0, exact=True)
    result = skyline_check(release, Policy.uniform([(10**9, 2**70, 2**70, 0.5)]))
    assert not result.safe and len(result.violations) == 4


def test_huge_amounts_in_a_policy_file_give_a_verdict(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    pd.DataFrame({"zip": ["1*", "1*", "2*", "2*"],
                  "disease": ["flu", "cold", "flu", "hiv"]}).to_csv("t.csv", index=False)
    (tmp_path / "p.toml").write_text(
        f"[default]\nskyline = [[{2**63}, {2**63}, {2**70}, 0.9]]\n")
    code = main(["check", "t.csv", "--qi", "zip", "--sensitive", "disease",
                 "--policy", "p.toml"])
    out, err = capsys.readouterr()
    assert code == 1, err
    assert out.startswith("UNSAFE: 3 of 3 (value, point) checks fail.")


def test_an_unknown_value_warns_with_the_closest_values():
    release = ReleaseCandidate.from_groups([(2, ["influenza", "cold"])])
    with pytest.warns(UnknownValueWarning, match=re.escape(
            "breach_probability: 'influenza ' occurs in no group of the release, so its "
            "breach probability is 0; closest existing values: ['influenza']. Check the "
            "spelling: a typo must not read as 'perfectly safe'.")) as caught:
        assert breach_probability(release, "influenza ", l=0, k=0, m=0) == 0.0
    assert caught[0].filename == __file__  # the user's line, not the library's


def test_dense_views_refuse_above_the_limit_and_name_the_sparse_form(monkeypatch):
    release = ReleaseCandidate.from_groups([(2, ["a", "b"]), (1, ["c"])])
    monkeypatch.setattr(release_module, "DENSE_LIMIT", 5)
    with pytest.raises(MemoryError, match=re.escape(
            "ReleaseCandidate.counts would be a dense 2 x 3 table (6 cells, above the 5-cell "
            "limit); use release.nonzeros() for the (group, value, count) triples or "
            "release.to_sparse() for a scipy.sparse matrix.")):
        _ = release.counts
    assert release.nonzeros()["count"].tolist() == [1, 1, 1]
    assert breach_probability(release, "c", l=0, k=0, m=0) == 1.0


def test_long_falling_ratios_match_exact_values():
    # the Stirling form (m > 16) and the direct sums agree with exact fractions
    for n, s, m, k in [(400, 100, 80, 3), (10**6, 7, 5000, 0), (10**5, 5 * 10**4, 17, 10),
                       (60, 3, 40, 0), (10**6, 10**4, 2 * 10**4, 10)]:
        exact = exact_V(n, s, m, k, "svpi")
        approx = float(log_V(n, s, m, k, "svpi"))
        assert approx == pytest.approx(math.log(exact.numerator) - math.log(exact.denominator),
                                       rel=1e-12, abs=1e-12)


def test_t_closeness_from_nonzeros_equals_the_dense_formula():
    rng = np.random.default_rng(11)
    for _ in range(40):
        n_groups, n_values = int(rng.integers(1, 6)), int(rng.integers(2, 7))
        sizes = rng.integers(1, 8, size=n_groups)
        counts = np.stack([rng.multinomial(int(n), rng.dirichlet([0.3] * n_values))
                           for n in sizes])
        names = list(range(n_values))
        release = ReleaseCandidate.from_counts(sizes, counts, names)
        present = counts.sum(axis=0) > 0
        release = ReleaseCandidate.from_counts(sizes, counts[:, present],
                                               [v for v, p in zip(names, present) if p])
        c = counts[:, present]
        total, n_all = c.sum(axis=0), int(c.sum())
        diff = c * n_all - sizes[:, None] * total[None, :]
        equal = [Fraction(int(a), int(2 * n * n_all))
                 for a, n in zip(np.abs(diff).sum(axis=1), sizes)]
        width = c.shape[1]
        ordered = [Fraction(int(a), int((width - 1) * n * n_all)) if width > 1 else Fraction(0)
                   for a, n in zip(np.abs(np.cumsum(diff, axis=1)).sum(axis=1), sizes)]
        assert list(t_closeness(release, t=1).distances) == equal
        assert list(t_closeness(release, t=1, ordered=list(release.values)).distances) == ordered


def test_anonymization_progress_moves_and_ends_at_one():
    rng = np.random.default_rng(3)
    table = pd.DataFrame({"age": rng.integers(20, 80, 3000),
                          "zip": rng.integers(0, 100, 3000),
                          "dx": [f"d{i}" for i in rng.integers(0, 300, 3000)]})
    seen = []
    result = skyline_anonymize(table, qi=["age", "zip"], sensitive="dx",
                               policy=Policy.uniform([(1, 2, 1, 0.5)]), progress=seen.append)
    assert result.certificate.safe
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) > 5


@pytest.mark.parametrize("semantics", ("svpi", "mvpi-set"))
def test_the_falling_table_equals_the_closed_form(semantics):
    # V's falling ratio read from the cumulative table agrees with the direct products and
    # the Stirling form, boundary rules included, far inside LOG_TOL
    rng = np.random.default_rng(7)
    n = rng.integers(1, 1025, 20_000)
    s = np.minimum(rng.integers(0, 60, 20_000), n)
    m = rng.integers(0, 200, 20_000)
    k = rng.integers(0, 40, 20_000)
    table = falling_table(1024, 60)
    fast = log_V(n, s, m, k, semantics, table=table)
    direct = log_V(n, s, m, k, semantics)
    assert np.array_equal(np.isinf(fast), np.isinf(direct))
    assert np.array_equal(np.sign(fast[np.isinf(fast)]), np.sign(direct[np.isinf(direct)]))
    finite = np.isfinite(direct)
    assert np.abs(fast[finite] - direct[finite]).max() < 1e-10 * (1 + np.abs(direct[finite])).max()
    assert falling_table(1025, 1) is None  # too large a group: the closed form is used


def test_layers_of_amounts_give_the_exact_verdicts_on_both_paths():
    # a default point for every value plus listed values with several points each: the
    # first layer sweeps the rows, the later ones (a few values) gather their holders
    rng = np.random.default_rng(11)
    groups = rng.integers(0, 300, 6000)
    values = rng.choice(40, 6000, p=(lambda p: p / p.sum())(np.arange(1, 41) ** -1.2))
    release = ReleaseCandidate.from_table(pd.DataFrame({"g": groups, "v": values}),
                                          group="g", sensitive="v")
    listed = {int(v): [(1, 2, 1, 0.7), (0, 4, 2, 0.8), (3, 0, 0, 0.6)] for v in (0, 5, 17)}
    policy = Policy(listed, default=[(2, 3, 1, 0.75)])
    result = skyline_check(release, policy)
    assert len(result.rows) == 3 * 3 + 37
    for row in result.rows:
        bp = breach_probability(release, row.value, l=row.point.l, k=row.point.k,
                                m=row.point.m, exact=True)
        assert row.breach_probability == bp
        assert row.safe == (bp < row.point.c_exact)
