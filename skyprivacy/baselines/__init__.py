"""Classical privacy criteria over a release candidate, and their skyline forms.

The baselines the privacy skyline generalizes, each a plain function over a
:class:`~skyprivacy.release.ReleaseCandidate` (none re-groups raw rows) returning a named,
frozen result with ``.satisfied``, the worst group and a per-group ``.to_frame()``:

- :func:`k_anonymity` (Sweeney 2002) and, as a skyline, :func:`k_anonymity_policy` on
  :func:`identity_release` (Chen, LeFevre and Ramakrishnan 2009, Proposition 3);
- :func:`distinct_l_diversity`, :func:`entropy_l_diversity` and :func:`recursive_cl_diversity`
  (Machanavajjhala et al. 2007) and, as a skyline, :func:`cl_diversity_policy` (Proposition 4);
- :func:`t_closeness` with the earth mover's distance (Li, Li and Venkatasubramanian 2007);
- :func:`dp_breach_probability`, the dynamic program of Appendix A.3 that computes the breach
  probability without the congregation property: a reference checker and the competitor of
  Sect. 8.1, never on the default path.

Examples
--------
>>> from skyprivacy import ReleaseCandidate, skyline_check
>>> from skyprivacy.baselines import recursive_cl_diversity, cl_diversity_policy
>>> release = ReleaseCandidate.from_groups([(4, ["flu", "flu", "hiv", "cold"]),
...                                         (4, ["flu", "hiv", "hiv", "gout"])])
>>> recursive_cl_diversity(release, 2, 2).satisfied
True
>>> skyline_check(release, cl_diversity_policy(2, 2)).safe
True
"""

from .dynamic import DP_MAX_STATES, dp_breach_probability
from .kanonymity import (
    IDENTITY_RELEASE_MAX_CELLS,
    KAnonymityResult,
    identity_release,
    k_anonymity,
    k_anonymity_level,
    k_anonymity_policy,
)
from .ldiversity import (
    DistinctLDiversityResult,
    EntropyLDiversityResult,
    RecursiveCLDiversityResult,
    cl_diversity_policy,
    distinct_l_diversity,
    distinct_l_diversity_level,
    entropy_l_diversity,
    entropy_l_diversity_level,
    recursive_cl_diversity,
    recursive_cl_diversity_threshold,
)
from .tcloseness import TClosenessResult, t_closeness, t_closeness_level

__all__ = [
    "k_anonymity",
    "k_anonymity_level",
    "k_anonymity_policy",
    "identity_release",
    "IDENTITY_RELEASE_MAX_CELLS",
    "KAnonymityResult",
    "distinct_l_diversity",
    "distinct_l_diversity_level",
    "entropy_l_diversity",
    "entropy_l_diversity_level",
    "recursive_cl_diversity",
    "recursive_cl_diversity_threshold",
    "cl_diversity_policy",
    "DistinctLDiversityResult",
    "EntropyLDiversityResult",
    "RecursiveCLDiversityResult",
    "t_closeness",
    "t_closeness_level",
    "TClosenessResult",
    "dp_breach_probability",
    "DP_MAX_STATES",
]
