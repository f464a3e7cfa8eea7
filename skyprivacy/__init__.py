"""skyprivacy: certify data releases against adversarial knowledge.

The core follows Chen, LeFevre and Ramakrishnan, "Privacy skyline: privacy with
multidimensional adversarial knowledge" / "Adversarial-knowledge dimensions in data privacy"
(VLDB Journal, 2009): a release candidate is a set of QI-groups, the attacker knows
(l, k, m) amounts of three kinds of knowledge, and closed forms give the worst-case breach
probability.
"""

from . import datasets, errors
from .check import PointCheck, SkylineCheckResult, WorstCase, skyline_check
from .errors import (
    HierarchyError,
    InfeasibleError,
    InvalidParameterError,
    PrivacyRiskWarning,
    SchemaError,
    SkyPrivacyError,
    SkyPrivacyWarning,
    UnusedPolicyValueWarning,
)
from .formulas import breach_probability, sufficient_statistics
from .knowledge import Policy, Skyline, SkylinePoint
from .release import SEMANTICS, ReleaseCandidate

__version__ = "0.1.0"

__all__ = [
    "ReleaseCandidate",
    "SEMANTICS",
    "breach_probability",
    "sufficient_statistics",
    "SkylinePoint",
    "Skyline",
    "Policy",
    "skyline_check",
    "SkylineCheckResult",
    "PointCheck",
    "WorstCase",
    "datasets",
    "errors",
    "HierarchyError",
    "InfeasibleError",
    "InvalidParameterError",
    "PrivacyRiskWarning",
    "SchemaError",
    "SkyPrivacyError",
    "SkyPrivacyWarning",
    "UnusedPolicyValueWarning",
    "__version__",
]
