"""Shared test configuration: make tests/ importable (oracle.py) and tame Hypothesis."""
import os
import sys

import pytest
from hypothesis import HealthCheck, settings

from skyprivacy import ReleaseCandidate

sys.path.insert(0, os.path.dirname(__file__))

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture
def table1b():
    """Table 1b of Chen, LeFevre and Ramakrishnan (2009): two QI-groups of four, the paper's
    running example (group 0: AIDS, AIDS, Flu, Flu; group 1: AIDS, Cancer, Flu, Flu)."""
    return ReleaseCandidate.from_groups([(4, ["AIDS", "AIDS", "Flu", "Flu"]),
                                         (4, ["AIDS", "Cancer", "Flu", "Flu"])])
