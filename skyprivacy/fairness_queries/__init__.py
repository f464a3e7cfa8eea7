"""Fairness-query audit: bias queries leak protected attributes; Attribute-Conceal.

Implements Hamman, Chen and Dutta, "Can Querying for Bias Leak Protected Attributes?
Achieving Privacy With Smooth Sensitivity", as corrected by the project's specification
(``fairness-queries``): the sign of the compressed-sensing reduction, the minority-group rule
of the smooth sensitivity, and the sensitivities of absolute SP and equal opportunity.

Submodules
----------
metrics
    The queries (statistical parity, its absolute value, equal opportunity, equalized odds)
    and the evaluation scores (Leakage, average answer error).
sensitivity
    Local, smooth and global sensitivities in closed form, with lattice oracles.
mechanisms
    Attribute-Conceal (Cauchy and Laplace smooth-sensitivity noise), the Laplace baseline,
    the budget accountant and the compliance oracle the attacks talk to.
attacks
    Attribute-Reveal: single-query identification, exact reconstruction from n queries and
    compressed-sensing reconstruction from O(N_k log(n/N_k)) queries.
experiments
    The paper's experiments on bundled UCI Adult and synthetic data.
"""

from .attacks import (AttackResult, GroupSizeEstimate, TargetResult, abs_sp_partition,
                      base_difference_reveal, bernoulli_design, compressed_sensing_reveal,
                      cs_reveal, decode_flip_pair, decode_single, equalized_odds_reveal,
                      estimate_group_sizes, flip_design, flip_design_slogdet,
                      flip_pair_design, flip_pair_reveal, flip_reveal, linear_system_reveal,
                      single_query_design, single_query_reveal, slice_attack,
                      uniform_perturbation_design)
from .mechanisms import (AttributeConceal, BiasQueryRelease, BudgetAccountant,
                         ComplianceOracle, LaplaceBiasQuery, ReleaseAudit, SliceAudit,
                         crossover_epsilon, expected_median_abs_error)
from .metrics import (GroupSizes, abs_statistical_parity_gap, avg_sp_error,
                      equal_opportunity_gap, equalized_odds_gap, equalized_odds_gaps,
                      false_positive_rate_gap, group_sizes, leakage_score,
                      statistical_parity_gap)
from .sensitivity import (attribute_conceal_beta, global_sensitivity_abs_sp,
                          global_sensitivity_eo, global_sensitivity_equalized_odds,
                          global_sensitivity_sp, local_sensitivity_abs_sp, local_sensitivity_eo,
                          local_sensitivity_equalized_odds, local_sensitivity_sp,
                          smooth_sensitivity_abs_sp, smooth_sensitivity_eo,
                          smooth_sensitivity_equalized_odds, smooth_sensitivity_lattice,
                          smooth_sensitivity_lattice_2d, smooth_sensitivity_sp)

__all__ = [
    # metrics
    "GroupSizes", "group_sizes", "statistical_parity_gap", "abs_statistical_parity_gap",
    "equal_opportunity_gap", "false_positive_rate_gap", "equalized_odds_gaps",
    "equalized_odds_gap", "leakage_score", "avg_sp_error",
    # sensitivity
    "local_sensitivity_sp", "smooth_sensitivity_sp", "global_sensitivity_sp",
    "local_sensitivity_abs_sp", "smooth_sensitivity_abs_sp", "global_sensitivity_abs_sp",
    "local_sensitivity_eo", "smooth_sensitivity_eo", "global_sensitivity_eo",
    "local_sensitivity_equalized_odds", "smooth_sensitivity_equalized_odds",
    "global_sensitivity_equalized_odds", "smooth_sensitivity_lattice",
    "smooth_sensitivity_lattice_2d", "attribute_conceal_beta",
    # mechanisms
    "BudgetAccountant", "SliceAudit", "ReleaseAudit", "BiasQueryRelease", "AttributeConceal",
    "LaplaceBiasQuery", "ComplianceOracle", "expected_median_abs_error", "crossover_epsilon",
    # attacks
    "AttackResult", "TargetResult", "GroupSizeEstimate", "single_query_design",
    "decode_single", "single_query_reveal", "flip_pair_design", "decode_flip_pair",
    "flip_pair_reveal", "flip_design", "flip_design_slogdet", "flip_reveal",
    "linear_system_reveal", "base_difference_reveal", "uniform_perturbation_design",
    "bernoulli_design", "cs_reveal", "compressed_sensing_reveal", "estimate_group_sizes",
    "abs_sp_partition", "slice_attack", "equalized_odds_reveal",
]
