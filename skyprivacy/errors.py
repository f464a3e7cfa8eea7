"""Exceptions and warnings raised by skyprivacy.

Every error the library raises derives from :class:`SkyPrivacyError` and from the
built-in exception a Python user would reach for (``ValueError``, ``KeyError``...), so
``except ValueError`` keeps working.  Warnings are named classes, never prints.

Messages follow one template so they can be asserted and grepped:

``The 'c' parameter of skyline_check must be in (0, 1]. Got 1.5 instead.``
"""

from __future__ import annotations

__all__ = [
    "SkyPrivacyError",
    "InvalidParameterError",
    "SchemaError",
    "HierarchyError",
    "InfeasibleError",
    "EngineError",
    "UsageError",
    "SkyPrivacyWarning",
    "PrivacyRiskWarning",
    "MixedColumnWarning",
    "CanonicalTextWarning",
    "UnusedPolicyValueWarning",
    "UnanalysedColumnWarning",
    "UnknownValueWarning",
    "param_error",
]


class SkyPrivacyError(Exception):
    """Base class of every error raised by skyprivacy."""


class InvalidParameterError(SkyPrivacyError, ValueError):
    """A parameter value is outside its documented domain."""


class SchemaError(SkyPrivacyError, ValueError):
    """A table does not have the columns, types or values an operation needs."""


class HierarchyError(SkyPrivacyError, ValueError):
    """A generalization hierarchy is malformed or does not cover the data."""


class InfeasibleError(SkyPrivacyError, ValueError):
    """No release can satisfy the requested privacy policy.

    The anonymizers set ``failing`` (the policy points the table itself violates) and
    ``withstands`` (what the unsplit table does withstand) on the instances they raise."""

    failing: list[dict]
    withstands: list[dict]


class EngineError(SkyPrivacyError, RuntimeError):
    """A distributed run failed in the cluster (a worker lost beyond recovery, the scheduler
    unreachable); nothing was written and no certificate was issued."""


class UsageError(SkyPrivacyError):
    """Command-line arguments that parse but do not make sense together (the command line
    exits with code 2)."""


class SkyPrivacyWarning(UserWarning):
    """Base class of every warning issued by skyprivacy."""


class MixedColumnWarning(SkyPrivacyWarning):
    """A quasi-identifier column is mostly numbers with a few cells that are not: it is
    split as categories (say ``categorical=`` to silence this, or clean the cells)."""


class CanonicalTextWarning(SkyPrivacyWarning):
    """Values that differ only in invisible ways (Unicode form, surrounding whitespace,
    zero-width characters) were compared as one, or still differ only by invisible
    characters, or a column spells one number several ways (docs/canonical-text.md)."""


class PrivacyRiskWarning(SkyPrivacyWarning):
    """Something about the input weakens the privacy guarantee a user may expect."""


class UnanalysedColumnWarning(PrivacyRiskWarning):
    """Columns no one classified were copied into a release unanalysed (``keep_rest=True``):
    no privacy check covers them."""


class UnusedPolicyValueWarning(SkyPrivacyWarning):
    """A policy names a sensitive value that the release never contains (often a typo)."""


class UnknownValueWarning(SkyPrivacyWarning):
    """A query names a sensitive value the release does not contain (often a typo): its breach
    probability is 0, which must not read as "perfectly safe"."""


def param_error(name: str, owner: str, requirement: str, got: object) -> InvalidParameterError:
    """Build the house-style error for a bad parameter value.

    Examples
    --------
    >>> str(param_error("c", "skyline_check", "be in (0, 1]", 1.5))
    "The 'c' parameter of skyline_check must be in (0, 1]. Got 1.5 instead."
    """
    return InvalidParameterError(
        f"The '{name}' parameter of {owner} must {requirement}. Got {got!r} instead."
    )


# --- Fairness-query audit (skyprivacy.fairness_queries; Hamman, Chen and Dutta) ---


class DegenerateGroupError(SkyPrivacyError, ValueError):
    """A group-fairness metric is undefined because a protected group (or a slice) is empty."""


class BudgetError(SkyPrivacyError, ValueError):
    """Answering would spend more privacy budget than a :class:`BudgetAccountant` allows."""


class UnsafeConstantWarning(PrivacyRiskWarning):
    """A sensitivity constant known to be too small (kept only to reproduce a paper) is in use."""


class QueryDesignWarning(SkyPrivacyWarning):
    """An attack's query design or answers cannot determine every protected attribute."""


__all__ += [
    "DegenerateGroupError",
    "BudgetError",
    "UnsafeConstantWarning",
    "QueryDesignWarning",
]


# --- Group tagging and FIS (skyprivacy.experimental.group_tagging; Sengupta and Mishra) ---


class NotDifferentiallyPrivateWarning(PrivacyRiskWarning):
    """An output could be read as a differential-privacy guarantee and is not one: a paper's
    "epsilon" that is no DP budget, or a permutation-only shuffle that releases every column
    total exactly."""


class UnprovenFormulaWarning(SkyPrivacyWarning):
    """A formula kept only to reproduce a paper does not hold as stated (or is used outside
    its premise); do not rely on its value."""


class DegenerateColumnWarning(SkyPrivacyWarning):
    """A column is constant, so a statistic of it (a correlation) is undefined; it is skipped."""


class UndefinedMetricWarning(SkyPrivacyWarning):
    """A rate is undefined (a group without negatives has no false-positive rate); it is
    reported as NaN."""


class UnknownCategoryWarning(SkyPrivacyWarning):
    """A value outside an attribute's declared categories was encoded as all-zero bits."""


class NotFittedError(SkyPrivacyError, ValueError, AttributeError):
    """An estimator was used before ``fit``."""


__all__ += [
    "NotDifferentiallyPrivateWarning",
    "UnprovenFormulaWarning",
    "DegenerateColumnWarning",
    "UndefinedMetricWarning",
    "UnknownCategoryWarning",
    "NotFittedError",
]


# --- Re-identification risk (skyprivacy.risk) ---


class EstimatorError(SkyPrivacyError, ValueError):
    """A population-uniqueness estimator does not apply to a sample: its likelihood equations
    have no admissible solution, or its estimate lies outside [0, population size]."""


__all__ += ["EstimatorError"]
