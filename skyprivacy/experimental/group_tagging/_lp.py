"""Exact lexicographic linear programs for the Relation-Impact post-processing (spec
group-tagging §3.7).

The post-processing LPs are small (a handful of rows per group) and often have a whole face
of optimal solutions: with scores, any mixture of ROC-hull thresholds that reaches the optimal
(FPR, TPR) point is optimal, and the optimal points themselves can tie.  A floating-point
solver returns one vertex of that face, and which one depends on its version, its pivoting
rules and its tolerances.  Here the programs are solved over the rationals
(:class:`fractions.Fraction`, no tolerance) by the simplex method with Bland's rule, and the
answer is the *lexicographic* minimum: the first objective is minimised, then the second over
the first's optimal solutions, and so on, and last every variable in index order.  That point
is unique, so the result depends on the data alone.

Over an optimal basis the objective is ``z* + sum_j d_j x_j`` with every reduced cost
``d_j >= 0``, so the optimal solutions are exactly the feasible points with ``x_j = 0`` for
every ``d_j > 0``; each stage fixes those columns at zero and minimises the next objective from
the same (feasible) basis.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from ...errors import InfeasibleError

__all__: list[str] = []

Number = int | Fraction
Row = Sequence[Number]


@dataclass(frozen=True)
class LexicographicSolution:
    """The lexicographic minimum of a linear program.

    Attributes
    ----------
    x : tuple of Fraction
        The unique point: ``objectives[0]`` minimal, then ``objectives[1]`` minimal among
        those points, ..., then ``x[0]``, ``x[1]``, ... minimal in turn.
    values : tuple of Fraction
        ``objectives[i] . x`` for each objective given.
    """

    x: tuple
    values: tuple


def lexicographic_minimum(objectives: Sequence[Row], *, a_eq: Sequence[Row] = (),
                          b_eq: Row = (), a_ub: Sequence[Row] = (), b_ub: Row = (),
                          upper: Sequence[Number | None] = ()) -> LexicographicSolution:
    """Minimise ``objectives[0] . x``, then each later objective over the optimal solutions
    of the ones before, then ``x[0]``, ``x[1]``, ... in turn, all exactly.

    Parameters
    ----------
    objectives : sequence of rows
        Each a row of n rationals (ints or Fractions); at least one.
    a_eq, b_eq : rows and right-hand sides
        ``a_eq @ x == b_eq``.
    a_ub, b_ub : rows and right-hand sides
        ``a_ub @ x <= b_ub``.
    upper : sequence of bounds or None, optional
        ``x[j] <= upper[j]`` where given (every ``x >= 0`` always).

    Returns
    -------
    LexicographicSolution

    Raises
    ------
    InfeasibleError
        No x satisfies the constraints.
    ValueError
        An objective is unbounded below on the feasible set.
    """
    n = len(objectives[0])
    rows: list[list[Fraction]] = []
    rhs: list[Fraction] = []
    slack_rows: list[int] = []  # rows that get a slack column, in column order
    for row, b in zip(a_eq, b_eq):
        rows.append([Fraction(v) for v in row])
        rhs.append(Fraction(b))
    for row, b in zip(a_ub, b_ub):
        slack_rows.append(len(rows))
        rows.append([Fraction(v) for v in row])
        rhs.append(Fraction(b))
    for j, bound in enumerate(upper):
        if bound is not None:
            slack_rows.append(len(rows))
            rows.append([Fraction(int(i == j)) for i in range(n)])
            rhs.append(Fraction(bound))
    tableau = _Tableau(n, rows, rhs, slack_rows)
    values = []
    for objective in objectives:
        values.append(tableau.minimise([Fraction(v) for v in objective]))
    for j in range(n):
        if not tableau.free_columns():
            break  # every column is basic or fixed at zero: the point is unique
        tableau.minimise([Fraction(int(i == j)) for i in range(n)])
    return LexicographicSolution(tuple(tableau.point()[:n]), tuple(values))


class _Tableau:
    """A dense simplex tableau over the rationals, ``T = B^-1 [A | b]``, with Bland's rule."""

    def __init__(self, n: int, rows: list, rhs: list, slack_rows: list) -> None:
        m = len(rows)
        slack_of = {r: n + k for k, r in enumerate(slack_rows)}
        width = n + len(slack_rows)
        self.rows: list[list[Fraction]] = []
        self.basis: list[int] = []
        artificial = width
        for r in range(m):
            sign = -1 if rhs[r] < 0 else 1
            row = [sign * v for v in rows[r]] + [Fraction(0)] * len(slack_rows)
            if r in slack_of:
                row[slack_of[r]] = Fraction(sign)
            self.rows.append(row + [sign * rhs[r]])
            if r in slack_of and sign == 1:
                self.basis.append(slack_of[r])  # a slack with b >= 0 starts basic
            else:
                self.basis.append(-1)
        self.width = width
        missing = [r for r in range(m) if self.basis[r] == -1]
        for k, r in enumerate(missing):  # artificial columns, after the real ones
            self.basis[r] = artificial + k
        total = width + len(missing)
        for r, row in enumerate(self.rows):
            b = row.pop()
            row.extend([Fraction(0)] * len(missing))
            if self.basis[r] >= width:
                row[self.basis[r]] = Fraction(1)
            row.append(b)
        self.allowed = [True] * total
        if missing:
            phase_one = [Fraction(0)] * width + [Fraction(1)] * len(missing)
            if self.minimise(phase_one) != 0:
                raise InfeasibleError("The post-processing linear program has no feasible "
                                      "solution.")
            self._drop_artificials(width)
        self.allowed = self.allowed[:width]
        for row in self.rows:
            del row[width:-1]

    def _drop_artificials(self, width: int) -> None:
        """Pivot every artificial left in the basis (at zero) out, or drop its row when it
        only involves columns that are zero in every feasible point (phase 1 fixed them, and
        they never enter the basis again)."""
        r = 0
        while r < len(self.rows):
            if self.basis[r] >= width:
                column = next((j for j in range(width)
                               if self.allowed[j] and self.rows[r][j] != 0), None)
                if column is None:
                    del self.rows[r], self.basis[r]
                    continue
                self._pivot(r, column)
            r += 1

    def free_columns(self) -> list:
        basic = set(self.basis)
        return [j for j, ok in enumerate(self.allowed) if ok and j not in basic]

    def point(self) -> list:
        x = [Fraction(0)] * self.width
        for r, j in enumerate(self.basis):
            if j < self.width:
                x[j] = self.rows[r][-1]
        return x

    def minimise(self, cost: list) -> Fraction:
        """Minimise ``cost . x`` over the columns still allowed, from the current feasible
        basis; fix the columns with a positive reduced cost at zero; return the optimum."""
        cost = cost + [Fraction(0)] * (len(self.allowed) - len(cost))
        reduced = cost[:]
        value = Fraction(0)
        for r, j in enumerate(self.basis):
            c = cost[j]
            if c:
                row = self.rows[r]
                for i, v in enumerate(row[:-1]):
                    if v:
                        reduced[i] -= c * v
                value += c * row[-1]
        while True:
            entering = next((j for j, ok in enumerate(self.allowed)
                             if ok and reduced[j] < 0), None)
            if entering is None:
                break
            leaving, best = -1, Fraction(0)  # the least ratio; ties: the least basic index
            for r, row in enumerate(self.rows):
                a = row[entering]
                if a > 0:
                    ratio = row[-1] / a
                    if (leaving < 0 or ratio < best
                            or (ratio == best and self.basis[r] < self.basis[leaving])):
                        leaving, best = r, ratio
            if leaving < 0:
                raise ValueError("The linear program is unbounded.")
            factor = reduced[entering]
            self._pivot(leaving, entering)
            row = self.rows[leaving]
            for i, v in enumerate(row[:-1]):
                if v:
                    reduced[i] -= factor * v
            value += factor * row[-1]
        for j, ok in enumerate(self.allowed):
            if ok and reduced[j] > 0:
                self.allowed[j] = False
        return value

    def _pivot(self, r: int, j: int) -> None:
        pivot = self.rows[r]
        a = pivot[j]
        if a != 1:
            pivot[:] = [v / a for v in pivot]
        nonzero = [i for i, v in enumerate(pivot) if v]
        for s, row in enumerate(self.rows):
            f = row[j]
            if s != r and f:
                for i in nonzero:
                    row[i] -= f * pivot[i]
        self.basis[r] = j
