"""Fixtures of the transparency tests: the paper's Table 1 under its three weightings and the
Section 8 optimum (delta = 9/10), computed once."""
from fractions import Fraction

import pytest

from skyprivacy.transparency import Delta, optimal_privacy

from .tables import credit_card_table


@pytest.fixture(scope="session")
def section8():
    """Table 1 with the Section 8 populations 12, 5, 3 (F) and 9, 7, 4 (M)."""
    return credit_card_table("section8")


@pytest.fixture(scope="session")
def section8_exact(section8):
    """The exact optimum of Section 8 at 90%-fidelity."""
    return optimal_privacy(section8, Delta(Fraction(9, 10)), exact=True)


@pytest.fixture(scope="session")
def population():
    """Table 1 with the applicant populations (Section 3)."""
    return credit_card_table("population")
