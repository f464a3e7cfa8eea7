"""Fixtures shared by the tests of skyprivacy.hierarchy: the Adult data and its ARX hierarchies,
and two small hierarchies most error messages are asserted on."""

from __future__ import annotations

import pytest

from skyprivacy.datasets import bundled, load_adult, load_adult_hierarchies
from skyprivacy.hierarchy import Hierarchy


@pytest.fixture(scope="session")
def adult():
    return load_adult()


@pytest.fixture(scope="session")
def hierarchies():
    return load_adult_hierarchies()


@pytest.fixture
def sex():
    """A two-leaf hierarchy built by hand: Male, Female under '*'."""
    return Hierarchy([["Male", "*"], ["Female", "*"]], name="sex")


@pytest.fixture
def education():
    """ARX's Adult education hierarchy (height 3, 16 leaves)."""
    return bundled("adult", "education")
