"""skyprivacy: certify data releases against adversarial knowledge.

The core follows Chen, LeFevre and Ramakrishnan, "Privacy skyline: privacy with
multidimensional adversarial knowledge" / "Adversarial-knowledge dimensions in data privacy"
(VLDB Journal, 2009): a release candidate is a set of QI-groups, the attacker knows
(l, k, m) amounts of three kinds of knowledge, and closed forms give the worst-case breach
probability.
"""

from ._core.version import __version__
from . import (anonymize, baselines, datasets, errors, fairness_queries, hierarchy,
               risk, transparency, utility)
from .anonymize import (
    AnonymizeResult,
    AnonymizationResult,
    KAnonymizationResult,
    full_domain_search,
    k_anonymize,
    skyline_anonymize,
    splittable_groups,
)
from .baselines import (
    cl_diversity_policy,
    distinct_l_diversity,
    entropy_l_diversity,
    identity_release,
    k_anonymity,
    k_anonymity_policy,
    recursive_cl_diversity,
    t_closeness,
)
from .check import PointCheck, SkylineCheckResult, WorstCase, skyline_check
from .compare import LDiversityComparison, compare_l_diversity
from .find import (
    KnowledgeSkyline,
    KnowledgeSkylines,
    skyline_find,
    skyline_find_all,
)
from .plotting import plot_skyline, plot_skyline_slices
from .datasets import load_adult_hierarchies
from .hierarchy import Hierarchy, generalize_frame
from .utility import (
    UtilityReport,
    average_group_size,
    discernibility,
    kl_divergence,
    utility_report,
)
from .errors import (
    BudgetError,
    DegenerateGroupError,
    HierarchyError,
    QueryDesignWarning,
    UnsafeConstantWarning,
    InfeasibleError,
    InvalidParameterError,
    PrivacyRiskWarning,
    MixedColumnWarning,
    SchemaError,
    SkyPrivacyError,
    SkyPrivacyWarning,
    UnusedPolicyValueWarning,
    UnknownValueWarning,
)
from .formulas import breach_probability, sufficient_statistics
from .knowledge import Policy, Skyline, SkylinePoint
from .release import SEMANTICS, ReleaseCandidate


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
    "skyline_find",
    "skyline_find_all",
    "KnowledgeSkyline",
    "KnowledgeSkylines",
    "compare_l_diversity",
    "LDiversityComparison",
    "plot_skyline",
    "plot_skyline_slices",
    "anonymize",
    "AnonymizeResult",
    "full_domain_search",
    "skyline_anonymize",
    "AnonymizationResult",
    "k_anonymize",
    "KAnonymizationResult",
    "splittable_groups",
    "Hierarchy",
    "generalize_frame",
    "load_adult_hierarchies",
    "k_anonymity",
    "k_anonymity_policy",
    "identity_release",
    "distinct_l_diversity",
    "entropy_l_diversity",
    "recursive_cl_diversity",
    "cl_diversity_policy",
    "t_closeness",
    "average_group_size",
    "discernibility",
    "kl_divergence",
    "utility_report",
    "UtilityReport",
    "baselines",
    "hierarchy",
    "fairness_queries",
    "transparency",
    "utility",
    "risk",
    "datasets",
    "errors",
    "BudgetError",
    "DegenerateGroupError",
    "QueryDesignWarning",
    "UnsafeConstantWarning",
    "HierarchyError",
    "InfeasibleError",
    "InvalidParameterError",
    "PrivacyRiskWarning",
    "MixedColumnWarning",
    "SchemaError",
    "SkyPrivacyError",
    "SkyPrivacyWarning",
    "UnusedPolicyValueWarning",
    "UnknownValueWarning",
    "__version__",
]
