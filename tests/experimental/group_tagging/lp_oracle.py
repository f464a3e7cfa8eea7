"""Brute-force exact oracles for small linear programs (tests of _lp.py and of the
Relation-Impact post-processing): every vertex of a polytope, found by solving every square
system of active constraints with Fractions, and the lexicographic minimum over them.

The lexicographic minimum of linear keys over a polytope is attained at a vertex, and every
other vertex has a strictly larger key, so the minimum over the vertices is the answer."""
import itertools
from fractions import Fraction


def unit(n, j, value=1):
    return [Fraction(value if i == j else 0) for i in range(n)]


def affine(function, n):
    """(coefficients, constant) of an affine function of n variables, read off exactly."""
    zero = function([Fraction(0)] * n)
    return [function(unit(n, j)) - zero for j in range(n)], zero


def dot(row, x):
    return sum((Fraction(a) * b for a, b in zip(row, x)), Fraction(0))


def rank(rows):
    """The rank of a list of rows, by exact elimination."""
    rows = [[Fraction(v) for v in row] for row in rows]
    r = 0
    for c in range(len(rows[0]) if rows else 0):
        pivot = next((i for i in range(r, len(rows)) if rows[i][c] != 0), None)
        if pivot is None:
            continue
        rows[r], rows[pivot] = rows[pivot], rows[r]
        for i in range(len(rows)):
            if i != r and rows[i][c] != 0:
                f = rows[i][c] / rows[r][c]
                rows[i] = [a - f * b for a, b in zip(rows[i], rows[r])]
        r += 1
    return r


def solve(rows, rhs):
    """The unique solution of rows @ x = rhs (n unknowns), or None."""
    n = len(rows[0])
    m = [[Fraction(v) for v in row] + [Fraction(b)] for row, b in zip(rows, rhs)]
    r = 0
    for c in range(n):
        pivot = next((i for i in range(r, len(m)) if m[i][c] != 0), None)
        if pivot is None:
            return None
        m[r], m[pivot] = m[pivot], m[r]
        m[r] = [v / m[r][c] for v in m[r]]
        for i in range(len(m)):
            if i != r and m[i][c] != 0:
                f = m[i][c]
                m[i] = [a - f * b for a, b in zip(m[i], m[r])]
        r += 1
    if any(m[i][n] != 0 for i in range(r, len(m))):
        return None
    return tuple(m[i][n] for i in range(n))


def vertices(n, eq=(), ub=(), upper=()):
    """Every vertex of {x >= 0, x_j <= upper[j] (where not None), row @ x == b for (row, b)
    in eq, row @ x <= b for (row, b) in ub}."""
    inequalities = list(ub) + [(unit(n, j, -1), 0) for j in range(n)]
    inequalities += [(unit(n, j), u) for j, u in enumerate(upper) if u is not None]
    eq = list(eq)
    free = n - (rank([row for row, _ in eq]) if eq else 0)
    found = set()
    for active in itertools.combinations(inequalities, free):
        system = eq + list(active)
        x = solve([row for row, _ in system], [b for _, b in system])
        if x is not None and all(dot(row, x) <= b for row, b in inequalities):
            found.add(x)
    return found


def lexicographic_minimum(points, keys):
    """The point whose (key_0(x), key_1(x), ...) is smallest, and the points that tie with it
    on the first key."""
    def key(x):
        return tuple(k(x) for k in keys) + tuple(x)
    best = min(points, key=key)
    first = keys[0](best)
    return best, [x for x in points if keys[0](x) == first]
