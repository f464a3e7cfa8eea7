"""The exact lexicographic LP solver (skyprivacy/experimental/group_tagging/_lp.py): its
answer is the brute-force lexicographic minimum over every vertex, its first objective is
scipy's (HiGHS) optimum, and it terminates on degenerate programs."""
import random
from fractions import Fraction

import numpy as np
import pytest
from scipy.optimize import linprog

from skyprivacy.errors import InfeasibleError
from skyprivacy.experimental.group_tagging._lp import lexicographic_minimum

from .lp_oracle import dot, vertices
from .lp_oracle import lexicographic_minimum as brute_force


def random_program(rng, n):
    """Rows with small rational entries around a feasible point, every x in [0, 1]."""
    def row():
        return [Fraction(rng.randint(-3, 3), rng.randint(1, 3)) for _ in range(n)]
    point = [Fraction(rng.randint(0, 4), 4) for _ in range(n)]
    a_eq = [row() for _ in range(rng.randint(0, 2))]
    a_ub = [row() for _ in range(rng.randint(0, 3))]
    return {"a_eq": a_eq, "b_eq": [dot(r, point) for r in a_eq],
            "a_ub": a_ub, "b_ub": [dot(r, point) + rng.randint(0, 1) for r in a_ub],
            "upper": [1] * n}


def scipy_optimum(cost, program):
    as_array = {key: (np.array(value, dtype=float) if value else None)
                for key, value in program.items() if key != "upper"}
    result = linprog(np.array(cost, dtype=float), A_eq=as_array["a_eq"],
                     b_eq=as_array["b_eq"], A_ub=as_array["a_ub"], b_ub=as_array["b_ub"],
                     bounds=[(0, u) for u in program["upper"]], method="highs")
    assert result.status == 0
    return result.fun


@pytest.mark.parametrize("seed", range(40))
def test_the_answer_is_the_lexicographic_minimum_over_every_vertex(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 4)
    program = random_program(rng, n)
    # small integer costs: ties on the first objective are common, so the later ones matter
    objectives = [[Fraction(rng.randint(-2, 2)) for _ in range(n)]
                  for _ in range(rng.randint(1, 3))]
    solution = lexicographic_minimum(objectives, **program)
    points = vertices(n, zip(program["a_eq"], program["b_eq"]),
                      zip(program["a_ub"], program["b_ub"]), program["upper"])
    best, _ = brute_force(points, [lambda x, c=c: dot(c, x) for c in objectives])
    assert solution.x == best
    assert solution.values == tuple(dot(c, best) for c in objectives)
    assert float(solution.values[0]) == pytest.approx(scipy_optimum(objectives[0], program),
                                                      abs=1e-9)


def test_a_face_of_optima_gives_its_lexicographically_smallest_vertex():
    # min -(x0 + x1) on x0 + x1 <= 1, x2 free in [0, 1]: every point of the edge x0 + x1 = 1
    # (any x2) is optimal; then -x1 picks (0, 1, .), and x2 is made as small as possible
    solution = lexicographic_minimum([[-1, -1, 0], [0, -1, 0]], a_ub=[[1, 1, 0]], b_ub=[1],
                                     upper=[1, 1, 1])
    assert solution.x == (0, 1, 0) and solution.values == (-1, -1)
    solution = lexicographic_minimum([[-1, -1, 0]], a_ub=[[1, 1, 0]], b_ub=[1],
                                     upper=[1, 1, 1])
    assert solution.x == (0, 1, 0)  # no second objective: x0 as small as possible, then x2


def test_beales_cycling_example_terminates_at_its_optimum():
    """Dantzig's rule cycles on Beale's program; Bland's rule must not."""
    cost = [Fraction(-3, 4), 20, Fraction(-1, 2), 6]
    a_ub = [[Fraction(1, 4), -8, -1, 9], [Fraction(1, 2), -12, Fraction(-1, 2), 3], [0, 0, 1, 0]]
    solution = lexicographic_minimum([cost], a_ub=a_ub, b_ub=[0, 0, 1])
    assert solution.values == (Fraction(-5, 4),)
    assert solution.x == (1, 0, 1, 0)


def test_redundant_and_negative_right_hand_side_rows():
    # the second equality is twice the first, the third has a negative right-hand side
    solution = lexicographic_minimum([[1, 2, 0]], a_eq=[[1, 1, 1], [2, 2, 2], [-1, 0, 0]],
                                     b_eq=[1, 2, Fraction(-1, 3)])
    assert solution.x == (Fraction(1, 3), 0, Fraction(2, 3))
    assert solution.values == (Fraction(1, 3),)


def test_infeasible_and_unbounded_programs():
    with pytest.raises(InfeasibleError, match="no feasible solution"):
        lexicographic_minimum([[1, 1]], a_eq=[[1, 1]], b_eq=[3], upper=[1, 1])
    with pytest.raises(ValueError, match="unbounded"):
        lexicographic_minimum([[-1, 0]], a_eq=[[0, 1]], b_eq=[1])
