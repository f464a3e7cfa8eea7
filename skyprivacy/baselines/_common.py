"""Shared plumbing of the baselines: parameter validation and the per-group result table.

Every baseline reads a :class:`~skyprivacy.release.ReleaseCandidate` and reports one verdict per
QI-group; this module keeps the pieces they share so that the messages and the tables look the
same everywhere.
"""

from __future__ import annotations

import math
import numbers
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd

from ..errors import InvalidParameterError, param_error
from ..release import ReleaseCandidate

__all__: list[str] = []


def native(value: object) -> object:
    """A numpy scalar as the Python scalar it holds; tuples (MultiIndex labels) element-wise."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, tuple):
        return tuple(native(v) for v in value)
    return value


def check_release(release: object, owner: str) -> ReleaseCandidate:
    """Reject anything that is not a release candidate, in the words of skyline_check."""
    if not isinstance(release, ReleaseCandidate):
        raise InvalidParameterError(
            f"The 'release' parameter of {owner} must be a ReleaseCandidate. "
            f"Got {type(release).__name__} instead.")
    return release


def check_svpi(release: ReleaseCandidate, owner: str, why: str) -> None:
    """Reject mvpi releases for criteria that are only defined with one value per individual."""
    if release.semantics != "svpi":
        raise param_error("release", owner, f"have semantics 'svpi' ({why})", release.semantics)


def check_int(value: object, name: str, owner: str, minimum: int) -> int:
    """An integer >= minimum (bools rejected), returned as a Python int."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
            or value < minimum:
        requirement = "be a positive integer" if minimum == 1 else f"be an integer >= {minimum}"
        raise param_error(name, owner, requirement, native(value))
    return int(value)


def exact_number(value: object, name: str, owner: str, requirement: str) -> Fraction:
    """A finite real number as an exact fraction; floats are read as the decimal they print as.

    ``0.75`` becomes ``Fraction(3, 4)`` (not the binary double nearest to it), so a threshold
    written in decimal behaves exactly as written.  ``requirement`` is used in the error.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, Decimal)):
        raise param_error(name, owner, requirement, native(value))
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(value):
            raise param_error(name, owner, requirement, float(value))
        return Fraction(repr(float(value)))
    if isinstance(value, Decimal) and not value.is_finite():
        raise param_error(name, owner, requirement, value)
    return Fraction(value)


def native_number(value: object) -> object:
    """The caller's number as a native scalar (numpy scalars unwrapped, Decimals to Fraction)."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, Decimal):
        return Fraction(value)
    return value


def label_info(release: ReleaseCandidate) -> tuple[tuple, tuple]:
    """The group labels as native Python objects, and the names of the label levels."""
    labels = release.group_labels
    return tuple(native(v) for v in labels), tuple(labels.names)


def label_index(labels: tuple, names: tuple) -> pd.Index:
    """Rebuild the release's group-label index from :func:`label_info`."""
    if len(names) > 1:
        return pd.MultiIndex.from_tuples(list(labels), names=list(names))
    return pd.Index(list(labels), name=names[0] if names else None, tupleize_cols=False)


def group_frame(labels: tuple, names: tuple, columns: dict) -> pd.DataFrame:
    """One row per QI-group, indexed by the group labels, with the given columns in order."""
    return pd.DataFrame(columns, index=label_index(labels, names))


def json_number(value: object) -> object:
    """A parameter for JSON: ints and floats as they are, Fractions as 'p/q'."""
    return value if isinstance(value, (int, float)) else str(value)


class GroupVerdicts:
    """Behaviour shared by the baseline results (frozen dataclasses).

    A result provides ``group_labels``, ``label_names``, ``group_sizes``, ``ok``,
    ``satisfied`` and ``worst_group``, plus ``_criterion`` (its name in :meth:`to_dict`),
    ``_measure_columns()`` (the per-group measure columns of :meth:`to_frame`) and
    ``_summary()`` (its parameters and level for :meth:`to_dict`).
    """

    @property
    def violating_groups(self) -> tuple:
        """Labels of the groups that fail the criterion, in release order."""
        return tuple(g for g, ok in zip(self.group_labels, self.ok) if not ok)

    def to_frame(self) -> pd.DataFrame:
        """One row per QI-group, indexed by its label: ``n_individuals``, the measure
        column(s) of this criterion, and ``ok``."""
        return group_frame(self.group_labels, self.label_names, {
            "n_individuals": pd.array(self.group_sizes, dtype="int64"),
            **self._measure_columns(),
            "ok": pd.array(self.ok, dtype="bool")})

    def to_dict(self) -> dict:
        """JSON-friendly summary: criterion, parameters, verdict, level, worst and violating
        groups (labels as strings, exact quantities as 'p/q')."""
        return {"criterion": self._criterion, **self._summary(), "satisfied": self.satisfied,
                "worst_group": str(self.worst_group),
                "violating_groups": [str(g) for g in self.violating_groups]}

    def _measure_columns(self) -> dict:
        return {}


def fraction_text(value: Fraction | float) -> str:
    """An exact quantity for JSON: 'p/q' for fractions, 'inf' for infinity."""
    if isinstance(value, float) and math.isinf(value):
        return "inf"
    return str(value)
