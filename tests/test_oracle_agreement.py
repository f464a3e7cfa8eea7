"""The closed forms equal a brute-force enumeration of the definitions, exactly.

Hundreds of random tiny releases per semantics; for each, every (l, k, m) on a grid and two
target values (one may be absent) are compared as Fractions.
"""
import random
from fractions import Fraction

import pytest

from oracle import breach_grid
from skyprivacy import ReleaseCandidate, breach_probability

# absent values are part of the oracle's domain; their UnknownValueWarning is tested in
# test_sparse_kernel.py
pytestmark = pytest.mark.filterwarnings("ignore::skyprivacy.UnknownValueWarning")

VALUES = "abc"


def random_release(rng: random.Random, semantics: str):
    while True:
        groups = []
        for _ in range(rng.randint(1, 3)):
            if semantics == "svpi":
                n = rng.randint(1, 4)
                values = [rng.choice(VALUES) for _ in range(n)]
            elif semantics == "mvpi-set":
                n = rng.randint(1, 3)
                values = [v for v in VALUES if rng.random() < 0.5]
                values += [v for v in VALUES if rng.random() < 0.3 and n >= 2]
            else:
                n = rng.randint(1, 3)
                values = [rng.choice(VALUES) for _ in range(rng.randint(0, 3))]
            groups.append((n, values))
        total = sum(n for n, _ in groups)
        if any(v for _, v in groups) and total <= (7 if semantics == "svpi" else 6):
            return groups


@pytest.mark.parametrize("semantics", ["svpi", "mvpi-set", "mvpi-multiset"])
@pytest.mark.parametrize("chunk", range(8))
def test_closed_forms_equal_brute_force(semantics, chunk):
    rng = random.Random(f"{semantics}-{chunk}")
    compared = 0
    for _ in range(30):
        groups = random_release(rng, semantics)
        release = ReleaseCandidate.from_groups(groups, semantics=semantics)
        for sigma in ("a", "c"):
            grid = breach_grid(groups, sigma, semantics, l_max=3, k_max=3, m_max=2)
            for (l, k, m), expected in grid.items():
                got = breach_probability(release, sigma, l=l, k=k, m=m, exact=True)
                assert got == expected, (groups, sigma, (l, k, m), got, expected)
                compared += 1
    assert compared == 30 * 2 * 4 * 4 * 3


SPEC_TABLE = [
    ("svpi", [(4, "AIDS AIDS Flu Flu"), (4, "AIDS Cancer Flu Flu")], "AIDS",
     {(0, 0, 0): "1/2", (0, 1, 0): "2/3", (0, 0, 1): "3/4", (1, 0, 0): "1"}),
    ("svpi", [(5, "Flu Flu Flu Flu AIDS")], "AIDS",
     {(0, 0, 0): "1/5", (0, 3, 0): "1/2", (0, 4, 0): "1", (0, 0, 2): "1/3"}),
    ("svpi", [(2, "a c"), (2, "c c")], "a", {(2, 2, 1): "1"}),
    ("svpi", [(4, "c c c c"), (2, "c a")], "a", {(0, 2, 0): "1"}),
    ("mvpi-set", [(1, "c b"), (3, "b a")], "a", {(2, 0, 1): "3/5"}),
    ("mvpi-set", [(3, "a b c"), (3, "a a b")], "a", {(0, 0, 0): "2/3"}),
    ("mvpi-multiset", [(3, "a c"), (1, "b")], "a", {(1, 0, 0): "3/7"}),
    ("mvpi-multiset", [(3, "c b a"), (1, "b")], "a", {(2, 1, 0): "9/13"}),
    ("mvpi-multiset", [(2, "a a b"), (3, "a c c")], "a", {(0, 0, 0): "3/4"}),
]


@pytest.mark.parametrize("semantics,groups,sigma,expected", SPEC_TABLE)
def test_spec_worked_values_closed_form_and_oracle(semantics, groups, sigma, expected):
    groups = [(n, values.split()) for n, values in groups]
    release = ReleaseCandidate.from_groups(groups, semantics=semantics)
    top = tuple(max(key[i] for key in expected) for i in range(3))
    grid = breach_grid(groups, sigma, semantics, *top)
    for (l, k, m), value in expected.items():
        assert breach_probability(release, sigma, l=l, k=k, m=m, exact=True) == Fraction(value)
        assert grid[(l, k, m)] == Fraction(value)
        assert breach_probability(release, sigma, l=l, k=k, m=m) == float(Fraction(value))


def test_exactly_theorem_2_fails_where_at_most_is_needed():
    # The spec's counter-example: with "exactly (0, 2, 0)" Theorem 2 would give 1/2; the
    # attacker who learns the one other member of the small group is certain.
    groups = [(4, list("cccc")), (2, list("ca"))]
    assert breach_grid(groups, "a", "svpi", 0, 2, 0)[(0, 2, 0)] == 1
    release = ReleaseCandidate.from_groups(groups)
    assert breach_probability(release, "a", l=0, k=2, m=0, exact=True) == 1
