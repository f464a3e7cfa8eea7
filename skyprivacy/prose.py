"""The worst case in words: how an attacker's best grounding reads to a data owner.

One home for the prose that check, find, the command line and the HTML report show: which
group holds the target, where the known individuals and the family members sit, which values
the attacker rules out, and the resulting confidence (Theorem 2's argmins, Sect. 7.1 of Chen,
LeFevre and Ramakrishnan 2009).  Pure text, built from the model and the statistics.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ._core.exact import fraction_text, native, readable_fraction
from ._core.text import percent_text
from .formulas import SufficientStatistics
from .release import ReleaseCandidate

__all__ = ["WorstCase", "worst_case", "plural"]


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 person``, ``2 people``: a count and its noun."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


@dataclass(frozen=True)
class WorstCase:
    """The attacker's best grounding for one (value, point), in data-owner terms.

    Attributes
    ----------
    case : str
        'same-group', 'known-with-family', 'known-with-target', 'pinned' or 'absent'
        (see :attr:`skyprivacy.formulas.SufficientStatistics.case`).
    target_group : object or None
        Label of the QI-group that holds the target.
    known_group, family_group : object or None
        Labels of the groups where the k known individuals and the m family members sit.
    ruled_out : tuple
        The values the attacker uses: the l most frequent other values of the target group,
        or all of them when the group holds fewer than l.
    breach_probability : Fraction
        The resulting confidence that the target has the value.
    description : str
        The whole story in one paragraph.
    """

    value: object
    case: str
    target_group: object
    known_group: object
    family_group: object
    ruled_out: tuple
    breach_probability: Fraction
    description: str

    def to_dict(self) -> dict:
        """JSON-friendly form (labels as strings, the probability as an exact 'p/q' string; the
        check row holding it also gives it as a float)."""
        return {
            "case": self.case,
            "target_group": None if self.target_group is None else str(self.target_group),
            "known_group": None if self.known_group is None else str(self.known_group),
            "family_group": None if self.family_group is None else str(self.family_group),
            "ruled_out": [str(v) for v in self.ruled_out],
            "breach_probability": fraction_text(self.breach_probability),
            "description": self.description,
        }


def worst_case(release: ReleaseCandidate, value, stats: SufficientStatistics,
               bp: Fraction, threshold=None) -> WorstCase:
    """Turn the argmins of the sufficient statistics into a worst case in words (the
    percentage never rounds onto ``threshold``, the confidence it is compared with)."""
    l, k, m = stats.l, stats.k, stats.m
    mvpi = release.semantics != "svpi"
    case = stats.case
    confidence = f"confidence {readable_fraction(bp)} ({percent_text(bp, threshold)})"
    if case == "absent":
        return WorstCase(value, case, None, None, None, (), bp,
                         f"{value!r} occurs in no group of the release: no attacker can infer it.")
    j = release.value_index(value)
    assert j is not None  # a value the release lacks is 'absent', answered above
    described = release.derived(_group_words)

    def group_text(g: int) -> str:
        n = int(release.sizes_array[g])
        s = _row_of(release, g, j)[0]
        return (f"group [{described.description(g)}] ({plural(n, 'person', 'people')}, "
                f"{s} occurrence{'s' if s != 1 else ''} of {value!r})")

    if case == "pinned":
        g = stats.pinned_group
        assert g is not None  # the case is 'pinned' exactly when a pinned group exists
        n = int(release.sizes_array[g])
        known = min(k, n - 1)
        family = min(m, n - 1 - known)
        if n == 1:
            text = (f"The target is alone in {group_text(g)}: the release shows its value as "
                    f"it is, {confidence}.")
        else:
            pieces = []
            if known:
                pieces.append(f"knows {plural(known, 'other member')} of it not to have "
                              f"{value!r}" if mvpi
                              else f"knows the values of {plural(known, 'other member')} of it")
            if family:
                pieces.append(f"knows {plural(family, 'member')} of the target's same-value "
                              f"family there")
            text = (f"The target is in {group_text(g)}. The group is so small that an attacker "
                    f"who {' and '.join(pieces)} accounts for everyone but the target, so the "
                    f"target's {value!r} is pinned down: {confidence}.")
        label = described.label(g)
        return WorstCase(value, case, label, label, label if family else None, (), bp, text)

    if case == "same-group":
        g = f = known_g = stats.ss1.group
    elif case == "known-with-family":
        g, f = stats.ss2.group, stats.ss5.group
        known_g = f
    else:  # known-with-target
        g, f = stats.ss3.group, stats.ss4.group
        known_g = g
    # the statistics of the attaining case are finite, so each names the group attaining it
    assert g is not None and f is not None and known_g is not None
    s_g, ruled = _row_of(release, g, j, l)  # most frequent first, ties in value order
    ruled_out = tuple(v for v, _ in ruled)

    parts = [f"The target is in {group_text(g)}."]
    n_g = int(release.sizes_array[g])
    # svpi: people of the target group holding neither sigma nor a ruled-out value
    others_left = n_g - s_g - sum(c for _, c in ruled)
    settled = not mvpi and l > 0 and others_left <= 0
    # a group with fewer other values than l: the attacker uses the ones there are, and the
    # text counts what it lists
    used_l = len(ruled_out)
    names = ", ".join(repr(v) for v in ruled_out)
    if l and not used_l:
        parts.append(f"The group holds no other value for the attacker to know co-occurs with "
                     f"{value!r}." if mvpi
                     else "The group holds no other value for the attacker to rule out"
                     + (f"; only {value!r} is left for the target, no further knowledge needed."
                        if settled else "."))
    elif l:
        if mvpi:
            parts.append(f"The attacker knows that {plural(used_l, 'value')} "
                         f"{'co-occurs' if used_l == 1 else 'co-occur'} with {value!r} for the "
                         f"target ({names}: if the target has one, it has {value!r}).")
        else:
            which = ("the most frequent others there" if used_l == l
                     else f"the only other value{'s' if used_l != 1 else ''} there")
            parts.append(f"The attacker rules out {plural(used_l, 'value')} for the target "
                         f"({names}, {which})"
                         + (f"; then only {value!r} is left for the target, no further "
                            f"knowledge needed." if settled else "."))
    if k and not settled:
        where = "the same group" if known_g == g else group_text(known_g)
        if mvpi:
            parts.append(f"They know that {plural(k, 'other person', 'other people')} in "
                         f"{where} {'does' if k == 1 else 'do'} not have {value!r}.")
        else:
            used = min(k, max(others_left, 0)) if known_g == g else k
            extra = " or a ruled-out value" if l and known_g == g else ""
            parts.append(f"They know the values of {plural(used, 'other person', 'other people')}"
                         f" in {where}, none of them {value!r}{extra}"
                         + (", which leaves only {!r} for the target.".format(value)
                            if known_g == g and k >= others_left else "."))
    if m and not settled:
        where = "the same group" if f == g else group_text(f)
        parts.append(f"They know {plural(m, 'member')} of the target's same-value family in "
                     f"{where} (if any of them had {value!r}, so would the target).")
    if bp == 1:
        parts.append(f"This leaves no other possibility: {confidence}.")
    else:
        parts.append(f"Worst-case {confidence} that the target has {value!r}.")
    return WorstCase(value, case, described.label(g), described.label(known_g) if k else None,
                     described.label(f) if m else None, ruled_out, bp, " ".join(parts))


class _GroupWords:
    """The label and description of each QI-group of one release, made on first use and
    kept (thousands of worst cases name the same few groups; pandas' label lookup is slow)."""

    def __init__(self, release: ReleaseCandidate):
        self.release = release
        self.labels: dict[int, object] = {}
        self.descriptions: dict[int, str] = {}

    def label(self, g: int):
        if g not in self.labels:
            self.labels[g] = native(self.release.group_labels[g])
        return self.labels[g]

    def description(self, g: int) -> str:
        if g not in self.descriptions:
            self.descriptions[g] = self.release.group_description(g)
        return self.descriptions[g]


def _group_words(release: ReleaseCandidate) -> _GroupWords:
    return _GroupWords(release)


def _row_of(release: ReleaseCandidate, g: int, j: int, l: int = 0) -> tuple[int, list]:
    """The count of value position ``j`` in group ``g`` and the group's ``l`` most frequent
    other values with their counts, from the group's CSR row (sorted by count, ties by value
    position), without a dictionary of the whole row."""
    indptr, nz_value, nz_count = release.csr
    lo, hi = int(indptr[g]), int(indptr[g + 1])
    row_values = nz_value[lo:hi]
    hit = np.flatnonzero(row_values == j)
    s = int(nz_count[lo + hit[0]]) if len(hit) else 0
    if not l:
        return s, []
    top = min(hi - lo, l + 1)
    values = release.values
    others = [(values[int(v)], int(c)) for v, c in zip(row_values[:top], nz_count[lo:lo + top])
              if int(v) != j]
    return s, others[:l]
