"""The released table: group labels, the generalized or bucketized table, and the results.

A group's label for a quasi-identifier comes from the lowest and highest code of its rows
(:meth:`NumericQI.label` and friends in :mod:`.encoders`): a range, a hierarchy node or a
set.  A group whose rows all hold one cell publishes that cell as it was in the input.  The
Dask engine labels its groups with :func:`range_labels` from per-group code ranges.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .._core.encoding import factorize
from ..check import SkylineCheckResult
from ..release import ReleaseCandidate

if TYPE_CHECKING:
    from ..baselines import KAnonymityResult
    from .source import MemorySource

__all__ = ["AnonymizationResult", "KAnonymizationResult", "set_labels_of", "range_labels",
           "by_first_row", "build_release", "sizes_only"]


@dataclass(frozen=True)
class AnonymizationResult:
    """Result of :func:`skyline_anonymize`.

    Attributes
    ----------
    table : pandas.DataFrame
        The released table (same index and row order as the input).
    candidate : ReleaseCandidate
        The release candidate of ``table``, rebuilt from the released table itself.
    certificate : SkylineCheckResult
        ``skyline_check(candidate, policy)``, computed independently of the search.
    assignment : pandas.Series
        The QI-group id (0..B-1) of every input row, aligned with the input index.
    groups : pandas.DataFrame
        One row per QI-group: its generalized QI values and size.
    set_labels : dict
        ``{column: {digest: tuple of members}}`` for every set label published as a digest
        (``{#3f9a2c1b: 12 values}``); the content of the set-label file
        (:func:`skyprivacy.labels.labels_document`). Empty when every set is listed in full.
    """

    table: pd.DataFrame
    candidate: ReleaseCandidate
    certificate: SkylineCheckResult
    assignment: pd.Series
    groups: pd.DataFrame
    qi: tuple
    sensitive: str
    semantics: str
    output: str
    split: str
    n_splits: int
    n_candidates_evaluated: int
    group_column: str | None = None
    set_labels: dict = field(default_factory=dict)
    _engine: MemorySource | None = field(default=None, repr=False, compare=False)

    @property
    def search_source(self) -> MemorySource | None:
        """The in-memory source the search ran over (None for a Dask result), for audits
        such as :func:`~.api.splittable_groups`."""
        return self._engine

    @property
    def safe(self) -> bool:
        """The certificate's verdict."""
        return self.certificate.safe

    @property
    def average_group_size(self) -> float:
        """Average QI-group size (Sect. 8.4)."""
        return float(self.candidate.n_individuals / self.candidate.n_groups)

    def to_frame(self) -> pd.DataFrame:
        """The per-group summary (same as :attr:`groups`)."""
        return self.groups.copy()

    def to_dict(self) -> dict:
        """A JSON-friendly summary (no table)."""
        return {"qi": list(self.qi), "sensitive": self.sensitive, "semantics": self.semantics,
                "output": self.output, "split": self.split, "n_groups": self.candidate.n_groups,
                "average_group_size": self.average_group_size, "n_splits": self.n_splits,
                "safe": self.safe, "certificate": self.certificate.to_dict()}




@dataclass(frozen=True)
class KAnonymizationResult:
    """Result of :func:`k_anonymize`: the released table and its k-anonymity certificate
    (``set_labels`` as in :class:`AnonymizationResult`)."""

    table: pd.DataFrame
    certificate: KAnonymityResult
    assignment: pd.Series
    groups: pd.DataFrame
    k: int
    n_splits: int
    set_labels: dict = field(default_factory=dict)

    @property
    def safe(self) -> bool:
        """True iff every released group has at least k individuals."""
        return bool(self.certificate.safe)

    @property
    def average_group_size(self) -> float:
        """Average QI-group size (Sect. 8.4)."""
        return float(self.groups["n_individuals"].mean())

    def to_frame(self) -> pd.DataFrame:
        """The per-group summary (same as :attr:`groups`)."""
        return self.groups.copy()



def set_labels_of(attrs) -> dict:
    """``{column: {digest: members}}`` of the set labels published as digests."""
    return {attr.name: dict(attr.sets) for attr in attrs if getattr(attr, "sets", None)}


def unique_pairs(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(np.stack([a, b], axis=1), axis=0, return_inverse=True)`` for integer
    arrays, through one integer key when it fits (many times faster than rows)."""
    if len(a):
        base = min(int(a.min()), int(b.min()))
        span = max(int(a.max()), int(b.max())) - base + 1
        if span * span < 2 ** 62:
            key = (a.astype(np.int64) - base) * span + (b.astype(np.int64) - base)
            keys, inverse = np.unique(key, return_inverse=True)
            return np.stack([keys // span + base, keys % span + base], axis=1), inverse
    pairs, inverse = np.unique(np.stack([a, b], axis=1), axis=0, return_inverse=True)
    return pairs, inverse.reshape(-1)


def range_labels(attr, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The labels of groups spanning codes ``lo[i]..hi[i]`` of ``attr``: the distinct labels
    and the position of every group's among them (many groups share a (lowest, highest) pair:
    each pair is formatted once)."""
    pairs, inverse = unique_pairs(lo, hi)
    texts = np.array([attr.label(int(x), int(y)) for x, y in pairs.tolist()], dtype=object)
    return texts, inverse.reshape(-1)


def by_first_row(final: np.ndarray) -> np.ndarray:
    """Group numbers in the order of their first row, from any numbering of the groups."""
    n = len(final)
    n_final = int(final.max()) + 1
    first_row = np.full(n_final, n, dtype=np.int64)
    np.minimum.at(first_row, final, np.arange(n))
    renumber = np.empty(n_final, dtype=np.int64)
    renumber[np.argsort(first_row, kind="stable")] = np.arange(n_final)
    return renumber[final]


def release_candidate(released, *, qi, sensitive, output, group_column, semantics,
                      missing) -> ReleaseCandidate:
    """The candidate of a released table (either engine), aggregated from what is released:
    the certificate checks it independently of the search."""
    if output == "generalized":
        return ReleaseCandidate.from_table(released, qi=qi, sensitive=sensitive,
                                           semantics=semantics, missing=missing)
    return ReleaseCandidate.from_table(released, group=group_column, sensitive=sensitive,
                                       semantics=semantics, missing=missing)


def sizes_only(sizes: np.ndarray, labels) -> ReleaseCandidate:
    """Groups of these sizes with one placeholder value: what k-anonymity reads (group sizes
    only) as a valid model."""
    return ReleaseCandidate.from_nonzeros(
        sizes, np.arange(len(sizes)), np.zeros(len(sizes), dtype=np.int64), sizes,
        ("individuals",), labels=labels)


def build_release(attrs, table: pd.DataFrame, qi, assignment, sensitive, output,
                  random_state, group_column):
    """The released table and the per-group labels from the group of each row (groups
    numbered by their first row)."""
    n_groups = int(assignment.max()) + 1
    order = np.argsort(assignment, kind="stable")
    starts = np.searchsorted(assignment[order], np.arange(n_groups))
    columns = {}
    for attr in attrs:
        codes = attr.codes[order]
        texts, inverse = range_labels(attr, np.minimum.reduceat(codes, starts),
                                      np.maximum.reduceat(codes, starts))
        columns[attr.name] = texts[inverse].tolist()
    group_frame = pd.DataFrame(columns, columns=list(qi))
    group_frame.index.name = "group"
    group_frame["n_individuals"] = np.bincount(assignment, minlength=n_groups)

    released = table.copy()
    if output == "generalized":
        for attr in attrs:
            name = attr.name
            labels = np.asarray(columns[name], dtype=object)[assignment]
            # a group whose rows all hold the same cell publishes that cell exactly as it was
            # in the input (02139 stays 02139, 1.50 stays 1.50)
            cells = table[name].to_numpy(dtype=object)
            codes, _ = factorize(table[name])
            same = (np.minimum.reduceat(codes[order], starts)
                    == np.maximum.reduceat(codes[order], starts))
            keep = same[assignment]
            released[name] = pd.Series(np.where(keep, cells, labels), index=table.index,
                                       dtype=object)
    else:
        rng = np.random.default_rng(random_state)
        keys = rng.random(len(table))
        shuffled_order = np.lexsort((keys, assignment))  # grouped, random within a group
        if sensitive:
            values = released[sensitive].to_numpy(dtype=object).copy()
            values[order] = table[sensitive].to_numpy(dtype=object)[shuffled_order]
            released[sensitive] = pd.Series(values, index=table.index, dtype=object)
        released.insert(len(released.columns), group_column, assignment)
    return released, group_frame
