"""The released table: group labels, the generalized or bucketized table, and the results.

A group's label for a quasi-identifier comes from the lowest and highest code of its rows
(:meth:`NumericQI.label` and friends in :mod:`.encoders`): a range, a hierarchy node or a
set.  A group whose rows all hold one cell publishes that cell as it was in the input.  Both
engines label groups with :func:`group_labels` from per-group code ranges
(:func:`group_stats`) and release rows with :func:`release_rows`: the pandas table at once,
a Dask frame partition by partition.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .._core.display import Shown, head_rows, result_html, result_repr
from .._core.exact import readable_fraction
from .._core.text import percent_text
from ..check import SkylineCheckResult
from ..release import ReleaseCandidate
from .lattice import MASK
from .source import lexicographic_ids

if TYPE_CHECKING:
    from .._core.classification import Classification
    from ..baselines import KAnonymityResult
    from .source import MemorySource

__all__ = ["AnonymizationResult", "KAnonymizationResult", "set_labels_of", "range_labels",
           "group_stats", "group_labels", "release_rows", "bucket_assign",
           "groups_slice", "build_release", "sizes_only", "release_candidate"]


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
    classification : Classification
        The role of every input column: the QIs, the sensitive column, the columns kept (in
        ``table`` as they were) and those dropped (absent from ``table``).
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
    classification: Classification | None = None

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

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        sizes = self.candidate.sizes_array
        worst = self.certificate.worst
        closest = None if worst is None else (
            f"{worst.value!r} at {worst.point}: breach probability "
            f"{readable_fraction(worst.breach_probability)} "
            f"({percent_text(worst.breach_probability, worst.point.c_exact)})")
        return Shown("SAFE" if self.safe else "UNSAFE", self.safe,
                     (("rows", len(self.table)), ("groups", self.candidate.n_groups),
                      ("smallest_group", int(sizes.min()) if len(sizes) else 0),
                      ("average_group_size", self.average_group_size),
                      ("qi", self.qi), ("sensitive", self.sensitive), ("output", self.output)),
                     closest, head_rows(self.to_frame), len(self.groups))




@dataclass(frozen=True)
class KAnonymizationResult:
    """Result of :func:`k_anonymize`: the released table and its k-anonymity certificate
    (``set_labels`` and ``classification`` as in :class:`AnonymizationResult`)."""

    table: pd.DataFrame
    certificate: KAnonymityResult
    assignment: pd.Series
    groups: pd.DataFrame
    k: int
    n_splits: int
    set_labels: dict = field(default_factory=dict)
    classification: Classification | None = None

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

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        sizes = self.groups["n_individuals"]
        return Shown("SAFE" if self.safe else "UNSAFE", self.safe,
                     (("k", self.k), ("rows", len(self.table)), ("groups", len(self.groups)),
                      ("smallest_group", int(sizes.min()) if len(sizes) else 0),
                      ("average_group_size", self.average_group_size)),
                     None, head_rows(self.to_frame), len(self.groups))



def set_labels_of(attrs) -> dict:
    """``{column: {digest: members}}`` of the set labels published as digests."""
    return {attr.name: dict(attr.sets) for attr in attrs if getattr(attr, "sets", None)}


def range_labels(attr, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The labels of groups spanning codes ``lo[i]..hi[i]`` of ``attr``: the distinct labels
    and the position of every group's among them (many groups share a (lowest, highest) pair:
    each pair is formatted once)."""
    card = int(max(lo.max(initial=0), hi.max(initial=0))) + 1
    inverse, (low, high) = lexicographic_ids([lo.astype(np.int64), hi.astype(np.int64)],
                                             [card, card])
    texts = np.array([attr.label(x, y) for x, y in zip(low.tolist(), high.tolist())],
                     dtype=object)
    return texts, inverse


def release_candidate(released, *, qi, sensitive, output, group_column, semantics,
                      missing, whitespace: str = "strip") -> ReleaseCandidate:
    """The candidate of a released table (either engine), aggregated from what is released
    (text compared under ``whitespace``, as the search compared it): the certificate checks
    it independently of the search."""
    if output == "generalized":
        return ReleaseCandidate.from_table(released, qi=qi, sensitive=sensitive,
                                           semantics=semantics, missing=missing,
                                           whitespace=whitespace)
    return ReleaseCandidate.from_table(released, group=group_column, sensitive=sensitive,
                                       semantics=semantics, missing=missing,
                                       whitespace=whitespace)


def sizes_only(sizes: np.ndarray, labels) -> ReleaseCandidate:
    """Groups of these sizes with one placeholder value: what k-anonymity reads (group sizes
    only) as a valid model."""
    return ReleaseCandidate.from_nonzeros(
        sizes, np.arange(len(sizes)), np.zeros(len(sizes), dtype=np.int64), sizes,
        ("individuals",), labels=labels)


def group_stats(key: np.ndarray, row: np.ndarray, codes: np.ndarray, raw: dict) -> dict:
    """Per group (``key`` of every row): its size, first row (``row``), lowest and highest
    code of every QI (``codes``, rows x QIs) and of the raw cell codes ``raw``."""
    keys, inverse = np.unique(key, return_inverse=True)
    order = np.argsort(inverse, kind="stable")
    starts = np.searchsorted(inverse[order], np.arange(len(keys)))
    if not len(keys):
        empty = np.zeros(0, dtype=np.int64)
        return {"keys": empty, "size": empty, "first": empty,
                "lo": codes[:0].astype(np.int64), "hi": codes[:0].astype(np.int64),
                "raw_lo": {a: empty for a in raw}, "raw_hi": {a: empty for a in raw}}
    codes = codes[order].astype(np.int64)
    return {"keys": keys, "size": np.bincount(inverse, minlength=len(keys)).astype(np.int64),
            "first": np.minimum.reduceat(np.asarray(row, dtype=np.int64)[order], starts),
            "lo": np.minimum.reduceat(codes, starts, axis=0),
            "hi": np.maximum.reduceat(codes, starts, axis=0),
            "raw_lo": {a: np.minimum.reduceat(r[order].astype(np.int64), starts)
                       for a, r in raw.items()},
            "raw_hi": {a: np.maximum.reduceat(r[order].astype(np.int64), starts)
                       for a, r in raw.items()}}


def group_labels(attrs: list, raw_attrs, stats: dict) -> dict:
    """Group numbers (by first row) and, per QI, the label of every group and whether the
    group publishes its input cell (all its rows hold the same cell: the same code, or, for
    the QIs ``raw_attrs`` whose codes stand for several cells, the same raw code)."""
    n = len(stats["keys"])
    by_first = np.argsort(stats["first"], kind="stable")
    id_of_key = np.empty(n, dtype=np.int64)
    id_of_key[by_first] = np.arange(n)
    same, label_of, texts = [], [], []
    for a, attr in enumerate(attrs):
        lo, hi = stats["lo"][:, a], stats["hi"][:, a]
        if a in raw_attrs:
            same.append(stats["raw_lo"][a] == stats["raw_hi"][a])
        else:
            same.append(lo == hi)
        attr_texts, inverse = range_labels(attr, lo, hi)
        texts.append(attr_texts)
        label_of.append(inverse.astype(np.int32))
    return {"id_of_key": id_of_key, "key_of_id": by_first, "same": same,
            "label_of": label_of, "texts": texts, "size": stats["size"]}


def release_rows(pdf: pd.DataFrame, key: np.ndarray, labels: dict, spec: dict,
                 bucket) -> tuple:
    """The released rows of ``pdf`` (final group ``key`` of every row) and their group
    numbers: generalized (each QI cell replaced by its group's label, unless the group holds
    that one cell), or bucketized (``bucket["cell"]``: the reassigned sensitive cells)."""
    group = labels["id_of_key"][key]
    released = pdf.copy()
    if spec["output"] == "generalized":
        for a, name in enumerate(spec["qi"]):
            text = labels["texts"][a][labels["label_of"][a][key]]
            cells = pdf[name].to_numpy(dtype=object)
            released[name] = pd.Series(np.where(labels["same"][a][key], cells, text),
                                       index=pdf.index, dtype=object)
    else:
        sensitive = spec["sensitive"]
        if sensitive is not None:
            cells = bucket["cell"].to_numpy(dtype=object)
            if spec["value_objects"] is not None:
                cells = spec["value_objects"][bucket["cell"].to_numpy(dtype=np.int64)]
            released[sensitive] = pd.Series(cells, index=pdf.index, dtype=object)
        released.insert(len(released.columns), spec["group_column"], group)
    suppress = spec.get("suppress")
    if suppress is not None:  # the rows of suppressed groups: dropped, or every QI masked
        hit = suppress[key]
        if spec.get("mask"):
            for name in spec["qi"]:
                cells = released[name].to_numpy(dtype=object).copy()
                cells[hit] = MASK
                released[name] = pd.Series(cells, index=released.index, dtype=object)
        else:
            released, group = released.loc[~hit], group[~hit]
    return released, pd.Series(group, index=released.index, name="group")


def bucket_assign(frame: pd.DataFrame) -> pd.DataFrame:
    """Within every group, the i-th row (in row order) receives the cell of the row with the
    i-th smallest random key, as the in-memory release does."""
    group = frame["group"].to_numpy(dtype=np.int64)
    row = frame["row"].to_numpy(dtype=np.int64)
    dest = np.lexsort((row, group))
    source = np.lexsort((row, frame["u"].to_numpy(), group))
    cells = frame["cell"].to_numpy()
    return pd.DataFrame({"row": row[dest], "cell": cells[source]})


def groups_slice(labels: dict, qi: list, start: int, stop: int) -> pd.DataFrame:
    """The per-group summary of groups ``start`` to ``stop``: labels and sizes."""
    keys = labels["key_of_id"][start:stop]
    columns = {name: labels["texts"][a][labels["label_of"][a][keys]].tolist()
               for a, name in enumerate(qi)}
    frame = pd.DataFrame(columns, columns=list(qi), index=pd.RangeIndex(start, stop))
    frame.index.name = "group"
    frame["n_individuals"] = labels["size"][keys]
    return frame


def build_release(attrs, table: pd.DataFrame, qi, final: np.ndarray, sensitive, output,
                  random_state, group_column, suppress: np.ndarray | None = None,
                  mask: bool = False) -> tuple:
    """The released table, the group of every row (numbered by first row) and the per-group
    summary, from the final group of every row, as the Dask engine makes them partition by
    partition; the rows of the final groups ``suppress`` flags are dropped (or, with
    ``mask``, released with every QI ``'*'``)."""
    n = len(table)
    raw = {a: pd.factorize(table[attr.name], use_na_sentinel=False)[0]
           for a, attr in enumerate(attrs)}
    stats = group_stats(final, np.arange(n), np.column_stack([a.codes for a in attrs]), raw)
    labels = group_labels(attrs, list(raw), stats)
    spec = {"qi": qi, "output": output, "sensitive": sensitive, "group_column": group_column,
            "value_objects": None, "suppress": suppress, "mask": mask}
    bucket = None
    if output == "bucketized" and sensitive:
        bucket = bucket_assign(pd.DataFrame({
            "group": labels["id_of_key"][final], "row": np.arange(n),
            "u": np.random.default_rng(random_state).random(n),
            "cell": table[sensitive].to_numpy(dtype=object)})).sort_values("row")
    released, assignment = release_rows(table, final, labels, spec, bucket)
    return released, assignment.to_numpy(), groups_slice(labels, qi, 0, len(stats["keys"]))
