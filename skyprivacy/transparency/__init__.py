"""Transparency-report privacy: certify and optimally perturb published decision rules.

Implements C.-L. Chen, L. Golubchik and R. Pal, "Achieving Transparency Report Privacy in
Linear Time" (ACM JDIQ 14(2), 2022; arXiv:2104.00137), as corrected by the project's spec
(``docs/transparency.md`` lists every correction with its evidence):

* :class:`DecisionTable` - decision regions, P(x) and D(x) per QID group (sections 4.1-4.3);
* fidelity constraints :class:`Delta`, :class:`Alpha`, :class:`Bounds` (section 5.2);
* certification: :func:`confidence`, :func:`max_confidence`, :func:`satisfies_beta`,
  :func:`min_uncertainty` (section 5.1, Appendix C);
* :func:`optimal_privacy` - Theorem 1 / Algorithm 1 corrected, vectorised across QID groups
  (sections 6-7; the segment kernels in :mod:`.kernels`, the result in :mod:`.solution`);
* the trade-off region, curve and the largest fidelity for a target beta (:mod:`.tradeoff`);
* fairness of the announced rule and Lemma 2's bounds (Appendix A, section 5.3);
* :func:`lp_reference` - the LP bisection reference (section 6.2; needs scipy).
* decision-rule certificates, built and verified in ``skyprivacy.transparency.certificate``
  (imported on demand: the table certificate's canonical hash lives in
  ``skyprivacy.certificate``).

Tables are positional and options keyword-only.  The paper's demonstrations (Section 8 and
the leaks of Section 3 / Appendix B) are reproduced outside the package, in
``examples/transparency_paper.py``; Table 1's data ship as
:func:`skyprivacy.datasets.load_credit_card`.
"""

from . import certify, fairness, fidelity, lp, optimal, solution, tradeoff
from .certify import *  # noqa: F403 - each module's __all__ is the public API
from .fairness import *  # noqa: F403
from .fidelity import *  # noqa: F403
from .lp import *  # noqa: F403
from .optimal import *  # noqa: F403
from .solution import *  # noqa: F403
from .table import DecisionTable
from .tradeoff import *  # noqa: F403

__all__ = ["DecisionTable", *fidelity.__all__, *certify.__all__, *solution.__all__,
           *optimal.__all__, *tradeoff.__all__, *lp.__all__, *fairness.__all__]
