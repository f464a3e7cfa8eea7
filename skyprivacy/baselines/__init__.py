"""Classical privacy criteria over a release candidate, and their skyline forms.

The baselines the privacy skyline generalizes, each a plain function over a
:class:`~skyprivacy.release.ReleaseCandidate` (none re-groups raw rows) returning a named,
frozen result with the verdict ``.safe``, the worst group and a per-group ``.to_frame()``:

- :func:`k_anonymity` (Sweeney 2002) and, as a skyline, :func:`k_anonymity_policy` on
  :func:`identity_release` (Chen, LeFevre and Ramakrishnan 2009, Proposition 3);
- :func:`distinct_l_diversity`, :func:`entropy_l_diversity` and :func:`recursive_cl_diversity`
  (Machanavajjhala et al. 2007) and, as a skyline, :func:`cl_diversity_policy` (Proposition 4);
- :func:`t_closeness` with the earth mover's distance (Li, Li and Venkatasubramanian 2007);
- :func:`ck_safety` and :func:`ck_disclosure`, the (c, k)-safety of Martin et al. (2007): the
  worst case over k basic implications, the comparator of Sects. 3, 5.1 and 8.3;
- :func:`dp_breach_probability`, the dynamic program of Appendix A.3 that computes the breach
  probability without the congregation property: a reference checker and the competitor of
  Sect. 8.1, never on the default path.

Examples
--------
>>> from skyprivacy import ReleaseCandidate, skyline_check
>>> from skyprivacy.baselines import recursive_cl_diversity, cl_diversity_policy
>>> release = ReleaseCandidate.from_groups([(4, ["flu", "flu", "hiv", "cold"]),
...                                         (4, ["flu", "hiv", "hiv", "gout"])])
>>> recursive_cl_diversity(release, diversity_c=2, l=2).safe
True
>>> skyline_check(release, cl_diversity_policy(diversity_c=2, l=2)).safe
True

Data are positional and options keyword-only (``k_anonymity(release, k=3)``); the old
positional form (``k_anonymity(release, 3)``) still works for one release, with a
FutureWarning naming the new call.
"""

from . import cksafety, dynamic, kanonymity, ldiversity, tcloseness
from .cksafety import *  # noqa: F403
from .dynamic import *  # noqa: F403 - each module's __all__ is the public API
from .kanonymity import *  # noqa: F403
from .ldiversity import *  # noqa: F403
from .tcloseness import *  # noqa: F403

__all__ = [*kanonymity.__all__, *ldiversity.__all__, *tcloseness.__all__, *dynamic.__all__,
           *cksafety.__all__]
