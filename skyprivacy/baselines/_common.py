"""Shared plumbing of the baselines: parameter validation and the per-group result table.

Every baseline reads a :class:`~skyprivacy.release.ReleaseCandidate` and reports one verdict per
QI-group; this module keeps the pieces they share so that the messages and the tables look the
same everywhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from .._core.display import Shown, head_rows, result_html
from .._core.exact import native
from .._core.validation import InstanceOf
from ..errors import param_error
from ..release import ReleaseCandidate

__all__: list[str] = []

#: The declared type of every baseline's ``release`` parameter.
RELEASE = InstanceOf(ReleaseCandidate)


def check_svpi(release: ReleaseCandidate, owner: str, why: str) -> None:
    """Reject mvpi releases for criteria that are only defined with one value per individual."""
    if release.semantics != "svpi":
        raise param_error("release", owner, f"have semantics 'svpi' ({why})", release.semantics)


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

    A result provides ``group_labels``, ``label_names``, ``group_sizes``, ``group_safe``,
    ``safe`` and ``worst_group``, plus ``_criterion`` (its name in :meth:`to_dict`),
    ``_measure_columns()`` (the per-group measure columns of :meth:`to_frame`) and
    ``_summary()`` (its parameters and level for :meth:`to_dict`).

    ``safe`` (the release) and ``group_safe`` (per group) are the verdict's one name across
    skyprivacy.
    """

    if TYPE_CHECKING:
        # What each result dataclass provides (fields, class attributes, methods).
        safe: bool
        worst_group: object
        group_labels: tuple
        group_sizes: tuple
        label_names: tuple
        _criterion: str

        @property
        def group_safe(self) -> tuple: ...

        def _summary(self) -> dict: ...

    @property
    def violating_groups(self) -> tuple:
        """Labels of the groups that fail the criterion, in release order."""
        return tuple(g for g, safe in zip(self.group_labels, self.group_safe) if not safe)

    def to_frame(self) -> pd.DataFrame:
        """One row per QI-group, indexed by its label: ``n_individuals``, the measure
        column(s) of this criterion, and ``safe``."""
        return group_frame(self.group_labels, self.label_names, {
            "n_individuals": pd.array(self.group_sizes, dtype="int64"),
            **self._measure_columns(),
            "safe": pd.array(self.group_safe, dtype="bool")})

    def to_dict(self) -> dict:
        """JSON-friendly summary: criterion, parameters, verdict (``safe``; ``satisfied``
        repeats it, as the command line's JSON does), level, worst and violating groups
        (labels as strings, exact quantities as 'p/q')."""
        return {"criterion": self._criterion, **self._summary(), "safe": self.safe,
                "satisfied": self.safe, "worst_group": str(self.worst_group),
                "violating_groups": [str(g) for g in self.violating_groups]}

    def _measure_columns(self) -> dict:
        return {}

    _repr_html_ = result_html

    def _shown(self) -> Shown:
        failing = len(self.violating_groups)
        return Shown("SAFE" if self.safe else "UNSAFE", bool(self.safe),
                     (("criterion", self._criterion), *self._summary().items(),
                      ("groups", len(self.group_labels)), ("failing_groups", failing)),
                     None if self.worst_group is None else f"worst group {self.worst_group}",
                     head_rows(self.to_frame), len(self.group_labels))
