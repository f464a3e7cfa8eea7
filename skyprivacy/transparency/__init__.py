"""Transparency-report privacy: certify and optimally perturb published decision rules.

Implements C.-L. Chen, L. Golubchik and R. Pal, "Achieving Transparency Report Privacy in
Linear Time" (ACM JDIQ 14(2), 2022; arXiv:2104.00137), as corrected by the project's spec
(``docs/transparency.md`` lists every correction with its evidence):

* :class:`DecisionTable` - decision regions, P(x) and D(x) per QID group (sections 4.1-4.3);
* fidelity constraints :class:`Delta`, :class:`Alpha`, :class:`Bounds` (section 5.2);
* certification: :func:`confidence`, :func:`max_confidence`, :func:`satisfies_beta`,
  :func:`min_uncertainty` (section 5.1, Appendix C);
* :func:`optimal_privacy` - Theorem 1 / Algorithm 1 corrected, vectorised across QID groups,
  with the trade-off region, curve and the largest fidelity for a target beta
  (sections 6-7);
* fairness of the announced rule and Lemma 2's bounds (Appendix A, section 5.3);
* :func:`lp_reference` - the LP bisection reference (section 6.2; needs scipy);
* :mod:`.demos` - Section 8 and the leaks of Section 3 / Appendix B.
"""

from .certify import (
    BetaCheck,
    MaxConfidence,
    beta_from_gamma,
    confidence,
    gamma_from_beta,
    max_confidence,
    min_uncertainty,
    satisfies_beta,
)
from .fairness import (
    BiasInterval,
    FairnessMeasure,
    FairnessReport,
    bias_interval,
    conditional_statistical_parity,
    d_inf,
    d_tv,
    fairness_report,
    group_distribution,
    individual_fairness_bias,
    lemma2_shift,
    p_percent_rule,
    statistical_parity,
)
from .fidelity import Alpha, Bounds, Delta, FidelityBounds, fidelity_bounds
from .lp import lp_reference
from .optimal import (
    FixedBeta,
    GroupResult,
    MaxFidelity,
    OptimalPrivacy,
    TradeoffCurve,
    TradeoffRegion,
    feasible_at_beta,
    max_fidelity_for_beta,
    optimal_privacy,
    tradeoff_curve,
    tradeoff_region,
)
from .table import DecisionTable

__all__ = [
    "DecisionTable",
    "Delta",
    "Alpha",
    "Bounds",
    "FidelityBounds",
    "fidelity_bounds",
    "MaxConfidence",
    "BetaCheck",
    "confidence",
    "max_confidence",
    "min_uncertainty",
    "satisfies_beta",
    "beta_from_gamma",
    "gamma_from_beta",
    "GroupResult",
    "OptimalPrivacy",
    "TradeoffRegion",
    "TradeoffCurve",
    "MaxFidelity",
    "FixedBeta",
    "optimal_privacy",
    "tradeoff_region",
    "tradeoff_curve",
    "max_fidelity_for_beta",
    "feasible_at_beta",
    "lp_reference",
    "FairnessMeasure",
    "FairnessReport",
    "BiasInterval",
    "d_tv",
    "d_inf",
    "group_distribution",
    "statistical_parity",
    "conditional_statistical_parity",
    "p_percent_rule",
    "individual_fairness_bias",
    "lemma2_shift",
    "bias_interval",
    "fairness_report",
]
