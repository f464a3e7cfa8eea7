"""The Appendix A.3 dynamic program, compiled with numba: the fair competitor of Fig. 6.

:func:`skyprivacy.baselines.dp_breach_probability` is the readable reference: numpy over the
(k + 1) x (m + 1) table, but a Python loop per group and per (a, b) shift, so at Sect. 8.1
sizes it spends most of its time in the interpreter.  The paper timed two compiled programs.
This module transcribes the same recurrence into one compiled loop nest, so the benchmark
compares algorithms, not interpreters.

What is compiled and what is not:

* the per-group terms log V(f, b, a) and log T(f, l, a) + log V(f, b, a + 1) come from
  :func:`skyprivacy.formulas.log_V` and :func:`skyprivacy.formulas.log_T` (numpy, with the
  reference's boundary rules), computed once per distinct group shape (n, #sigma, ruled-out
  side) as arrays (shapes, k + 1, m + 1); the benchmark's clock includes this preparation;
* the recurrence (two min-plus tables over (i, j) <= (k, m), scanned over the groups) runs in
  :func:`_advance`, compiled by numba.  +inf absorbs (an impossible placement stays
  impossible) and -inf (a certain placement) wins, as in the reference's ``_min_plus``.

Every sum the kernel forms (table entry + term) is the sum the reference forms, and a minimum
is exact, so on the same terms both return the same float; ``tests/test_benchmark_dp_compiled.py``
checks it against the reference and Theorem 2.

References
----------
Chen, LeFevre and Ramakrishnan (2009), Appendix A.3 (the program) and Sect. 8.1 (Fig. 6).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from skyprivacy import ReleaseCandidate
from skyprivacy.baselines import DP_MAX_STATES
from skyprivacy.formulas import (
    SortedRows,
    cap_amounts,
    float_breach_probability,
    log_T,
    log_V,
)

__all__ = ["compiled_dp_breach_probability", "warm_up"]

INF = np.inf

@njit(cache=True)
def _advance(without, with_t, log_v, log_tv, shape_of):  # pragma: no cover - compiled
    """Scan every group f (its terms are row ``shape_of[f]`` of ``log_v`` and ``log_tv``),
    updating ``without`` and ``with_t`` in place.

    without(i, j): least log product with i known individuals and j family members placed
    and the target not placed yet; with_t(i, j): the target placed.  For group f,
    new_without = without (+) V_f and new_with = min(with_t (+) V_f, without (+) TV_f), where
    (+) is the min-plus product over placements (a, b) in the group."""
    n_rows, n_cols = without.shape
    new_without = np.empty_like(without)
    new_with = np.empty_like(with_t)
    for f in range(shape_of.shape[0]):
        g = shape_of[f]
        new_without[:, :] = INF
        new_with[:, :] = INF
        for i in range(n_rows):
            for j in range(n_cols):
                x = without[i, j]
                y = with_t[i, j]
                if x == INF and y == INF:
                    continue
                for a in range(n_rows - i):
                    for b in range(n_cols - j):
                        v = log_v[g, a, b]
                        if v != INF:
                            if x != INF and x + v < new_without[i + a, j + b]:
                                new_without[i + a, j + b] = x + v
                            if y != INF and y + v < new_with[i + a, j + b]:
                                new_with[i + a, j + b] = y + v
                        if x != INF:
                            tv = log_tv[g, a, b]
                            if tv != INF and x + tv < new_with[i + a, j + b]:
                                new_with[i + a, j + b] = x + tv
        without[:, :] = new_without
        with_t[:, :] = new_with


def _shapes(release: ReleaseCandidate, j: int, l: int) -> tuple:
    """Every group's shape for sigma = values[j]: (n, #sigma, ruled-out side), as the distinct
    shapes (columns of a 2-D array) and the position of every group's shape among them.

    T and V depend on a group only through its shape, so the terms are computed once per
    distinct shape; the program still scans every group.  The ruled-out side is h, the sum
    of the top-l other counts (svpi, mvpi-multiset), or the mvpi-set (log, full) pair; it is
    0 where sigma is absent (T is +inf there whatever it is)."""
    rows = SortedRows.of(release)
    ptr, order = release.by_value
    holders = np.asarray(order[ptr[j]:ptr[j + 1]], dtype=np.int64)
    group_of = rows.row_of(holders)
    n_groups = release.n_groups
    columns = [np.asarray(release.sizes_array, dtype=float), np.zeros(n_groups)]
    columns[1][group_of] = rows.count[holders]
    if release.semantics == "mvpi-set":
        set_log, set_full = rows.set_top(holders, l)
        columns += [np.zeros(n_groups), np.zeros(n_groups)]
        columns[2][group_of] = set_log
        columns[3][group_of] = set_full
    else:
        columns.append(np.zeros(n_groups))
        columns[2][group_of] = rows.top_sum(holders, l)
    shapes, shape_of = np.unique(np.stack(columns, axis=1), axis=0, return_inverse=True)
    return shapes, np.asarray(shape_of, dtype=np.int64).reshape(-1)


def _terms(shapes: np.ndarray, k: int, m: int, semantics: str) -> tuple:
    """(log V(f, b, a), log T(f, l, a) + log V(f, b, a + 1)) of every shape, an array
    (shapes, k + 1, m + 1) each, with the reference's rules: NaN (+inf - inf) and a target,
    a known individuals and b family members that do not fit are +inf."""
    a = np.arange(k + 1)[None, :, None]
    b = np.arange(m + 1)[None, None, :]
    n = shapes[:, 0, None, None].astype(np.int64)
    s = shapes[:, 1, None, None].astype(np.int64)
    if semantics == "mvpi-set":
        ruled = {"set_log": shapes[:, 2, None, None],
                 "set_full": shapes[:, 3, None, None].astype(np.int64)}
    else:
        ruled = {"h": shapes[:, 2, None, None].astype(np.int64)}
    log_v = log_V(n, s, b, a, semantics)
    with np.errstate(invalid="ignore"):
        log_tv = log_T(n, s, a, semantics, **ruled) + log_V(n, s, b, a + 1, semantics)
    log_tv = np.where(np.isnan(log_tv), INF, log_tv)
    log_tv = np.where(n < 1 + a + b, INF, log_tv)
    return (np.ascontiguousarray(np.broadcast_to(log_v, log_tv.shape), dtype=float),
            np.ascontiguousarray(log_tv, dtype=float))


def compiled_dp_breach_probability(release: ReleaseCandidate, sigma: object, *, l: int,
                                   k: int, m: int) -> float:
    """Breach probability of ``sigma`` at (l, k, m) by the compiled Appendix A.3 program.

    Same contract as :func:`skyprivacy.baselines.dp_breach_probability` (float path): the
    amounts are capped as there, 0 when sigma is absent, 1 when a placement pins the target.
    """
    l, k, m = cap_amounts(len(release.values), release.n_individuals, int(l), int(k), int(m))
    if (k + 1) * (m + 1) > DP_MAX_STATES:
        raise ValueError(f"(k + 1)(m + 1) = {(k + 1) * (m + 1)} states per group is more than "
                         f"{DP_MAX_STATES}")
    j = release.value_index(sigma)
    if j is None or not release.value_totals[j] > 0:
        return 0.0
    shapes, shape_of = _shapes(release, j, l)
    log_v, log_tv = _terms(shapes, k, m, release.semantics)
    without = np.full((k + 1, m + 1), INF)
    without[0, 0] = 0.0
    with_t = np.full((k + 1, m + 1), INF)
    _advance(without, with_t, log_v, log_tv, shape_of)
    return float_breach_probability(float(with_t.min()))


def warm_up() -> None:
    """Compile the kernel (or load it from numba's cache) before anything is timed."""
    release = ReleaseCandidate.from_groups([(3, ["a", "b", "b"]), (2, ["a", "c"])])
    compiled_dp_breach_probability(release, "a", l=1, k=1, m=1)
