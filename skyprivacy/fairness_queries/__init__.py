"""Fairness-query audit: bias queries leak protected attributes; Attribute-Conceal.

Implements Hamman, Chen and Dutta, "Can Querying for Bias Leak Protected Attributes?
Achieving Privacy With Smooth Sensitivity", as corrected by the project's specification
(``fairness-queries``): the sign of the compressed-sensing reduction, the minority-group rule
of the smooth sensitivity, and the sensitivities of absolute SP and equal opportunity.

Submodules
----------
metrics
    The queries (statistical parity, its absolute value, equal opportunity, equalized odds,
    predictive rate parity) and the evaluation scores (Leakage, average answer error).
sensitivity
    Local, smooth and global sensitivities in closed form, with lattice oracles.
accountant
    The budget accountant (sequential composition, exact, passed explicitly).
mechanisms
    Attribute-Conceal (Cauchy and Laplace smooth-sensitivity noise), the Laplace baseline, the
    Gaussian mechanism (the paper's (epsilon, delta) alternative) and the compliance oracle the
    attacks talk to.
attacks
    Attribute-Reveal: single-query identification, exact reconstruction from n queries and
    compressed-sensing reconstruction from O(N_k log(n/N_k)) queries.

Data are positional and options keyword-only (``crossover_epsilon(n, n0, n_queries=25)``).
The paper's query count m is ``n_queries`` here: ``m`` is a knowledge amount in skyprivacy.
The paper's experiments are reproduced outside the package, in
``examples/fairness_query_experiments.py``.
"""

from . import accountant, attacks, mechanisms, metrics, sensitivity
from .accountant import *  # noqa: F403 - each module's __all__ is the public API
from .attacks import *  # noqa: F403
from .mechanisms import *  # noqa: F403
from .metrics import *  # noqa: F403
from .sensitivity import *  # noqa: F403

__all__ = [*metrics.__all__, *sensitivity.__all__, *accountant.__all__, *mechanisms.__all__,
           *attacks.__all__]
