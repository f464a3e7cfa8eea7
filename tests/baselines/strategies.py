"""Shared data of the baselines tests: Hypothesis strategies and the brute-force oracles."""
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pandas as pd
from hypothesis import strategies as st
from scipy.optimize import linprog

from skyprivacy import ReleaseCandidate

POOL = [1, 2, 3, 4, 5, 6]
# Li, Li and Venkatasubramanian (2007): salaries 3k..11k, three groups of three.
SALARY = ReleaseCandidate.from_groups([(3, [3, 4, 5]), (3, [6, 8, 11]), (3, [7, 9, 10])])
SVPI = ReleaseCandidate.from_groups([(2, ["a", "b"]), (3, ["a", "b", "c"])])
MVPI = ReleaseCandidate.from_groups([(2, ["a", "b", "b"])], semantics="mvpi-set")


def table_release():
    """Four QI-groups of a generalized table: (2*,F)=3, (3*,M)=2, (4*,F)=2, (4*,M)=2."""
    table = pd.DataFrame({"age": ["2*", "2*", "2*", "3*", "3*", "4*", "4*", "4*", "4*"],
                          "sex": ["F", "F", "F", "M", "M", "M", "M", "F", "F"],
                          "disease": ["flu", "hiv", "flu", "flu", "flu", "gout", "hiv", "flu",
                                      "cold"]})
    return ReleaseCandidate.from_table(table, qi=["age", "sex"], sensitive="disease")


@st.composite
def groups_strategy(draw, max_groups=6, max_size=10):
    groups = []
    for _ in range(draw(st.integers(1, max_groups))):
        n = draw(st.integers(1, max_size))
        groups.append((n, draw(st.lists(st.sampled_from(POOL), min_size=n, max_size=n))))
    return groups


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
