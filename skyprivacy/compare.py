"""Is my l-diverse release actually safe? An (c, l)-diverse release seen through knowledge
skylines (Sects. 5.1 and 8.3 of Chen, LeFevre and Ramakrishnan 2009, Proposition 4, Table 2).

SkylineAnonymize makes the release under the Prop. 4 policy, the baseline checks its
(c, l)-diversity directly, and SkylineFind draws every value's knowledge skyline: the command
line's ``compare --l-diversity`` and the Python function are this one workflow.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pandas as pd

from ._core.display import (
    Shown,
    finish,
    head_rows,
    progress_callback,
    result_html,
    result_repr,
    skyline_staircase_svg,
)
from ._core.text import confidence_text
from .anonymize import AnonymizationResult, skyline_anonymize
from .baselines import RecursiveCLDiversityResult, cl_diversity_policy, recursive_cl_diversity
from .find import KnowledgeSkylines, skyline_find_all
from ._core.validation import validate_params
from .knowledge import CONFIDENCE, exact_confidence
from .labels import DEFAULT_LABEL_LENGTH

__all__ = ["compare_l_diversity", "LDiversityComparison"]


@dataclass(frozen=True)
class LDiversityComparison:
    """An (c, l)-diverse release seen through knowledge skylines (Sects. 5.1 and 8.3).

    Attributes
    ----------
    anonymization : AnonymizationResult
        The (c, l)-diverse release (made by SkylineAnonymize with the Prop. 4 policy).
    diversity : RecursiveCLDiversityResult
        The direct recursive (c, l)-diversity check of the release (it passes).
    skylines : KnowledgeSkylines
        Every value's knowledge skyline at confidence ``c``, most exposed first.
    """

    diversity_c: object  # the c of (c, l)-diversity as the caller gave it
    l_diversity: int
    c: Fraction  # the confidence of the skylines
    anonymization: AnonymizationResult
    diversity: RecursiveCLDiversityResult
    skylines: KnowledgeSkylines

    def to_frame(self) -> pd.DataFrame:
        """One row per value: exposure and least breaching knowledge, with the worst case."""
        return self.skylines.summary()

    def report(self) -> str:
        """A plain-words answer to "is my l-diverse release actually safe?"."""
        n_groups = self.anonymization.candidate.n_groups
        lines = [f"The release is recursive ({self.diversity_c}, {self.l_diversity})-diverse "
                 f"({n_groups} QI-groups, average size "
                 f"{self.anonymization.average_group_size:.1f}); (c, l)-diversity only "
                 f"protects against an attacker who rules out l - 2 = {self.l_diversity - 2} "
                 f"values. At confidence {float(self.c):g}:"]
        for skyline in self.skylines:
            breach = skyline.least_breach
            if breach is None:
                lines.append(f"- {skyline.value!r}: safe against every amount of knowledge "
                             f"searched.")
                continue
            l, k, m = breach
            lines.append(f"- {skyline.value!r}: breached with l={l}, k={k}, m={m} "
                         f"(total {l + k + m}); skyline {list(skyline.points)}.")
            worst = self.skylines.worst_cases.get(skyline.value)
            if worst is not None:
                lines.append(f"    {worst.description}")
        return "\n".join(lines)

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        skylines = self.skylines.skylines
        first = skylines[0] if skylines else None
        return Shown("SAFE" if self.diversity.safe else "UNSAFE", bool(self.diversity.safe),
                     (("diversity_c", self.diversity_c), ("l", self.l_diversity),
                      ("c", confidence_text(self.c)),
                      ("groups", self.anonymization.candidate.n_groups),
                      ("values", len(skylines)),
                      ("most_exposed", None if first is None else repr(first.value))),
                     None, head_rows(self.to_frame), len(skylines),
                     None if first is None else skyline_staircase_svg(
                         first.points, f"Knowledge skyline of the most exposed value "
                                       f"{first.value!r} at c = {confidence_text(self.c)}"))


# diversity_c and l are checked by cl_diversity_policy, whose name their messages carry
@validate_params({"c": CONFIDENCE})
def compare_l_diversity(table: pd.DataFrame, *, qi, sensitive: str, diversity_c, l: int, c,
                        hierarchies=None, split: str = "infogain", values=None,
                        semantics: str = "svpi", numeric=None, categorical=None, order=None,
                        label_length: int | None = DEFAULT_LABEL_LENGTH,
                        progress=None, keep=None, drop=None,
                        keep_rest: bool = False,
                        whitespace: str = "strip") -> LDiversityComparison:
    """Make a recursive (c, l)-diverse release and show which values little knowledge exposes.

    The release is built by :func:`skyprivacy.skyline_anonymize` with the Prop. 4 policy
    (l - 2, 0, 0) at c / (c + 1); its (c, l)-diversity is checked directly, then the knowledge
    skyline of every value is computed at confidence ``c``.

    Parameters
    ----------
    table : pandas.DataFrame
    qi : list of str
    sensitive : str
    diversity_c, l : numbers
        The (c, l)-diversity parameters (``diversity_c`` > 0, l >= 2).
    c : float or Fraction
        The confidence at which the skylines are drawn (e.g. 0.95), in (0, 1].
    hierarchies, split, semantics, numeric, categorical, order, label_length
        As in :func:`skyprivacy.skyline_anonymize`.
    keep, drop, keep_rest
        The other columns of the table, as in :func:`skyprivacy.skyline_anonymize`.
    whitespace : {"strip", "keep"}, default "strip"
        How text is compared (docs/canonical-text.md), as in
        :func:`skyprivacy.skyline_anonymize`; the skylines read the release it makes.
    values : iterable, optional
        Values to draw skylines for (default: all).
    progress : callable or bool, optional
        Called with the fraction done in (0, 1]: the anonymization is the first half, the
        skylines the second; ``True`` draws a tqdm bar (the ``progress`` extra).

    Returns
    -------
    LDiversityComparison

    References
    ----------
    Chen, LeFevre and Ramakrishnan (2009), Proposition 4 and Sect. 8.3 (Table 2).
    """
    progress = progress_callback(progress, owner="compare_l_diversity",
                                 label="anonymizing, then finding skylines")
    policy = cl_diversity_policy(diversity_c=diversity_c, l=l)
    result = skyline_anonymize(table, qi=qi, sensitive=sensitive, policy=policy,
                               hierarchies=hierarchies, semantics=semantics, split=split,
                               numeric=numeric, categorical=categorical, order=order,
                               label_length=label_length, keep=keep, drop=drop,
                               keep_rest=keep_rest, whitespace=whitespace,
                               progress=None if progress is None else _half(progress, 0))
    diversity = recursive_cl_diversity(result.candidate, diversity_c=diversity_c, l=l)
    skylines = skyline_find_all(result.candidate, c=c, values=values,
                                progress=None if progress is None else _half(progress, 1))
    finish(progress)
    return LDiversityComparison(diversity_c, l, exact_confidence(c, "compare_l_diversity"),
                                result, diversity, skylines)


def _half(progress, which: int):
    """``progress`` seen by one half of the work: the first (0) or the second (1)."""
    return lambda fraction: progress(which / 2 + 0.5 * fraction)
