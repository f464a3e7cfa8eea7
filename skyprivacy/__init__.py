"""skyprivacy: certify data releases against adversarial knowledge.

The core follows Chen, LeFevre and Ramakrishnan, "Privacy skyline: privacy with
multidimensional adversarial knowledge" / "Adversarial-knowledge dimensions in data privacy"
(VLDB Journal, 2009): a release candidate is a set of QI-groups, the attacker knows
(l, k, m) amounts of three kinds of knowledge, and closed forms give the worst-case breach
probability.
"""

from . import errors
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

__version__ = "0.1.0"

__all__ = [
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
