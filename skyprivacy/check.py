"""SkylineCheck: is a release safe under a value-centric skyline policy, and what is the worst case.

Implements Fig. 3 of Chen, LeFevre and Ramakrishnan (2009, Sect. 6.1): for every sensitive value
and every point of its skyline, the five sufficient statistics are computed in one vectorized
pass over the QI-groups, the breach probability follows from Theorem 2, and the verdict
``BP < c`` is decided with exact fractions.  Every row also carries the worst case in words: which
group holds the target, where the known individuals and the family members sit, which values the
attacker rules out, and the resulting confidence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from ._core.display import PROGRESS, Shown, finish, progress_callback, result_html, result_repr
from ._core.exact import fraction_text, readable_fraction
from ._core.text import percent_text
from ._core.validation import InstanceOf, validate_params
from ._core.warning import warn
from .errors import CanonicalTextWarning, InvalidParameterError, UnusedPolicyValueWarning
from .formulas import RELEASE, float_breach_probability, point_verdicts, sufficient_statistics
from .knowledge import Policy, Skyline, SkylinePoint
from .prose import WorstCase, worst_case
from .release import ReleaseCandidate

__all__ = ["skyline_check", "SkylineCheckResult", "PointCheck", "WorstCase"]


@dataclass(frozen=True)
class PointCheck:
    """The verdict for one sensitive value and one skyline point."""

    value: object
    point: SkylinePoint
    breach_probability: Fraction
    safe: bool
    source: str
    worst_case: WorstCase

    def to_dict(self) -> dict:
        """JSON-friendly form with the probability as an exact 'p/q' string and a float."""
        return {
            "value": self.value if isinstance(self.value, (int, float, bool)) else str(self.value),
            "l": self.point.l, "k": self.point.k, "m": self.point.m,
            "c": float(self.point.c), "c_exact": fraction_text(self.point.c_exact),
            "breach_probability": float(self.breach_probability),
            "breach_probability_exact": fraction_text(self.breach_probability),
            "safe": self.safe,
            "source": self.source,
            "worst_case": self.worst_case.to_dict(),
        }


class _Targets:
    """The (value, point, source) of every row of a check, as arrays; tuples on demand."""

    def __init__(self, values, points, value_pos, point_pos, source, extra=()):
        self._values, self._points = values, points
        self._value_pos, self._point_pos, self._source = value_pos, point_pos, source
        self._extra = list(extra)

    def extended(self, extra) -> _Targets:
        return _Targets(self._values, self._points, self._value_pos, self._point_pos,
                        self._source, self._extra + list(extra))

    def __len__(self) -> int:
        return len(self._value_pos) + len(self._extra)

    def __getitem__(self, i: int):
        if i >= len(self._value_pos):
            return self._extra[i - len(self._value_pos)]
        return (self._values[int(self._value_pos[i])], self._points[int(self._point_pos[i])],
                "default" if self._source[i] else "value")

    def c_array(self) -> np.ndarray:
        c = np.array([float(p.c_exact) for p in self._points] or [0.0])[self._point_pos]
        return np.concatenate([c, [float(t[1].c_exact) for t in self._extra]])


class SkylineCheckResult:
    """Result of :func:`skyline_check`: one :class:`PointCheck` per (value, skyline point).

    The verdicts are computed for every row at once; the rows themselves (exact breach
    probability and worst case in words) are built on first access, so checking a release with
    tens of thousands of values costs one pass over its nonzeros.

    Attributes
    ----------
    rows : tuple of PointCheck
        In value order, then point order.
    semantics : str
        The release's semantics.
    unused_policy_values : tuple
        Values the policy names but the release never contains.
    """

    def __init__(self, rows=None, semantics: str = "svpi", unused_policy_values: tuple = (),
                 *, _release=None, _targets=(), _safe=None, _log_nr=None):
        self.semantics = semantics
        self.unused_policy_values = tuple(unused_policy_values)
        self._release = _release
        self._cache: dict = {}
        # (value, point, source) per row: tuples when built from rows, else the arrays of
        # the check with their float margins (_log_nr)
        self._targets: Sequence[tuple] | _Targets
        if rows is not None:
            rows = tuple(rows)
            self._targets = [(r.value, r.point, r.source) for r in rows]
            self._cache = dict(enumerate(rows))
            self._safe = np.array([r.safe for r in rows], dtype=bool)
            self._log_nr = None
        else:
            self._targets = _targets
            self._safe = np.asarray(_safe, dtype=bool)
            self._log_nr = _log_nr

    def __len__(self) -> int:
        return len(self._targets)

    def _row(self, i: int) -> PointCheck:
        row = self._cache.get(i)
        if row is None:
            value, point, source = self._targets[i]
            stats = sufficient_statistics(self._release, value, l=point.l, k=point.k,
                                          m=point.m)
            bp = stats.breach_probability
            row = PointCheck(value, point, bp, bool(self._safe[i]), source,
                             worst_case(self._release, value, stats, bp, point.c_exact))
            self._cache[i] = row
        return row

    @property
    def rows(self) -> tuple[PointCheck, ...]:
        """Every (value, point) row, in value order, then point order."""
        return tuple(self._row(i) for i in range(len(self._targets)))

    @property
    def safe(self) -> bool:
        """True iff every (value, point) has breach probability strictly below its c."""
        return bool(self._safe.all())

    @property
    def violations(self) -> tuple[PointCheck, ...]:
        """The unsafe rows."""
        return tuple(self._row(int(i)) for i in np.flatnonzero(~self._safe))

    @property
    def worst(self) -> PointCheck | None:
        """The row with the smallest margin c - BP (the most exposed), if any."""
        targets = self._targets
        if not targets:
            return None
        if self._log_nr is None or not isinstance(targets, _Targets):
            candidates = range(len(targets))
        else:  # float margins find the few rows that can be the exact minimum
            bp = float_breach_probability(self._log_nr)
            margin = targets.c_array() - bp
            candidates = np.flatnonzero(margin <= margin.min() + 1e-9).tolist()
        return min((self._row(i) for i in candidates),
                   key=lambda r: r.point.c_exact - r.breach_probability)

    def to_frame(self) -> pd.DataFrame:
        """One row per (value, point).

        Columns: value, l, k, m, c, breach_probability (float), safe, then
        breach_probability_exact ('p/q'), source ('value' or 'default') and worst_case (text).
        """
        columns = ["value", "l", "k", "m", "c", "breach_probability", "safe",
                   "breach_probability_exact", "source", "worst_case"]
        data = [[r.value, r.point.l, r.point.k, r.point.m, float(r.point.c),
                 float(r.breach_probability), r.safe, fraction_text(r.breach_probability), r.source,
                 r.worst_case.description] for r in self.rows]
        frame = pd.DataFrame(data, columns=columns)
        return frame.astype({"l": "int64", "k": "int64", "m": "int64", "c": "float64",
                             "breach_probability": "float64", "safe": "bool"})

    def to_dict(self) -> dict:
        """JSON-friendly form: verdict, semantics and every row."""
        return {"safe": self.safe, "semantics": self.semantics,
                "unused_policy_values": [str(v) for v in self.unused_policy_values],
                "rows": [row.to_dict() for row in self.rows]}

    #: The roles of the released table's columns (a
    #: :class:`skyprivacy._core.classification.Classification`), when an anonymization made
    #: the release: :meth:`explain` ends with them.
    classification = None

    def with_classification(self, classification) -> SkylineCheckResult:
        """Record the roles of the released table's columns (shown by :meth:`explain`);
        returns this result."""
        self.classification = classification
        return self

    def explain(self) -> str:
        """The verdict and, for every unsafe row, the worst case in words (and, for the
        certificate of an anonymization, the roles of the released columns)."""
        text = self._verdict_text()
        if self.classification is not None:
            text += "\n" + self.classification.explain()
        return text

    def _verdict_text(self) -> str:
        if self.safe:
            head = (f"SAFE: all {len(self)} (value, point) checks hold; breach probabilities "
                    f"stay below their thresholds.")
            worst = self.worst
            if worst is not None:
                head += (f" Closest call: {worst.value!r} at {worst.point}, breach probability "
                         f"{readable_fraction(worst.breach_probability)} "
                         f"({percent_text(worst.breach_probability, worst.point.c_exact)}).")
            return head
        violations = self.violations
        lines = [f"UNSAFE: {len(violations)} of {len(self)} (value, point) checks fail."]
        for row in violations:
            lines.append(f"- {row.value!r} at {row.point}: breach probability "
                         f"{readable_fraction(row.breach_probability)} "
                         f"({percent_text(row.breach_probability, row.point.c_exact)}) >= "
                         f"{row.point.c}. {row.worst_case.description}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.explain()

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        worst = self.worst
        closest = None
        if worst is not None:
            closest = (f"{worst.value!r} at {worst.point}: breach probability "
                       f"{readable_fraction(worst.breach_probability)} "
                       f"({percent_text(worst.breach_probability, worst.point.c_exact)})")
        return Shown("SAFE" if self.safe else "UNSAFE", self.safe,
                     (("checks", len(self)), ("failing", int((~self._safe).sum())),
                      ("semantics", self.semantics),
                      ("unused_policy_values", len(self.unused_policy_values))),
                     closest, self._most_exposed, len(self))

    def _most_exposed(self, n: int) -> pd.DataFrame:
        """The ``n`` rows of least margin c - BP, the most exposed first, as in
        :meth:`to_frame`, building those rows alone (a check of 20,000 values shows its top
        rows without writing 20,000 worst cases)."""
        targets = self._targets
        if self._log_nr is not None and isinstance(targets, _Targets):
            margin = targets.c_array() - float_breach_probability(self._log_nr)
            order = np.argsort(margin, kind="stable")[:n].tolist()
        else:
            order = sorted(range(len(targets)), key=lambda i: self._row(i).point.c_exact
                           - self._row(i).breach_probability)[:n]
        return SkylineCheckResult([self._row(i) for i in order], self.semantics).to_frame()

    @validate_params({"progress": PROGRESS})
    def iter_rows(self, *, progress=None):
        """Every (value, point) row in the order of :attr:`rows`, each built (its exact
        breach probability and worst case in words) when it is reached and kept.

        Parameters
        ----------
        progress : callable or bool, optional
            Called with the fraction of rows built; ``True`` draws a tqdm bar (the
            ``progress`` extra).  Thousands of worst cases take seconds: the command line
            shows them on its progress bar.

        Yields
        ------
        PointCheck

        Examples
        --------
        >>> release = ReleaseCandidate.from_groups([(2, ["a", "b"])])
        >>> [row.value for row in skyline_check(release, {"a": [(0, 0, 0, 0.9)]}).iter_rows()]
        ['a']
        """
        progress = progress_callback(progress, owner="SkylineCheckResult.iter_rows",
                                     label="writing the worst cases")
        n = len(self._targets)
        for i in range(n):
            yield self._row(i)
            if progress is not None and ((i + 1) % 256 == 0 or i + 1 == n):
                progress((i + 1) / n)
        finish(progress)


def _release_skylines(release: ReleaseCandidate, policy: Policy) -> dict[int, Skyline]:
    """The skyline of every release value the policy lists, by value position.

    A policy key is matched to a value as the release compares text (a release read from a
    table compares canonical text, :mod:`skyprivacy._core.canonical`): an NFC key matches
    NFD cells.  Keys that name one value are reported with a
    :class:`~skyprivacy.errors.CanonicalTextWarning` when their skylines agree.

    Raises
    ------
    InvalidParameterError
        Two keys name one value with different skylines.
    """
    own: dict[int, Skyline] = {}
    first: dict[int, object] = {}
    for v in policy.values:
        j = release.value_index(v)
        if j is None:
            continue
        skyline = policy.skyline_for(v)
        assert skyline is not None  # a listed value has its own skyline
        if j not in own:
            own[j], first[j] = skyline, v
            continue
        if own[j] != skyline:
            raise InvalidParameterError(
                f"The policy gives {first[j]!r} and {v!r} different skylines, but they are "
                f"the same value {release.values[j]!r} after text normalization "
                f"(docs/canonical-text.md); give it one skyline.")
        warn(f"The policy keys {first[j]!r} and {v!r} are the same value "
             f"{release.values[j]!r} after text normalization; compared as one.",
             CanonicalTextWarning)
    return own


@validate_params({"release": RELEASE,
                  "policy": InstanceOf(Policy, dict, name="a Policy", got="{}")})
def skyline_check(release: ReleaseCandidate, policy: Policy) -> SkylineCheckResult:
    """Check a release against a value-centric skyline policy (SkylineCheck, Fig. 3).

    Parameters
    ----------
    release : ReleaseCandidate
        The release candidate to certify.
    policy : Policy
        A skyline per sensitive value and a default skyline for the others. A plain mapping
        ``{value: [(l, k, m, c), ...]}`` is accepted too.

    Returns
    -------
    SkylineCheckResult
        ``.safe``, ``.violations``, ``.to_frame()`` and a worst case in words for every row.

    Raises
    ------
    InvalidParameterError
        If ``release`` or ``policy`` has the wrong type.

    Warns
    -----
    UnusedPolicyValueWarning
        If the policy names values the release never contains (often a typo); those rows are
        reported with breach probability 0.

    Notes
    -----
    For each (sigma, point): NR = min(SS1, SS2 * SS5, SS3 * SS4), BP = 1 / (NR + 1), safe iff
    BP < c, decided with exact fractions (floats for c are read as the decimal they print as).

    References
    ----------
    Chen, LeFevre and Ramakrishnan (2009), Sect. 6.1, Fig. 3 and Proposition 7.

    Examples
    --------
    >>> release = ReleaseCandidate.from_groups([(4, ["AIDS", "AIDS", "Flu", "Flu"]),
    ...                                         (4, ["AIDS", "Cancer", "Flu", "Flu"])])
    >>> result = skyline_check(release, Policy({"AIDS": [(0, 1, 0, 0.7)]},
    ...                                        default=[(0, 0, 0, 0.9)]))
    >>> result.safe
    True
    >>> result.to_frame()[["value", "l", "k", "m", "c", "breach_probability", "safe"]]
        value  l  k  m    c  breach_probability  safe
    0    AIDS  0  1  0  0.7            0.666667  True
    1  Cancer  0  0  0  0.9            0.250000  True
    2     Flu  0  0  0  0.9            0.500000  True
    """
    if isinstance(policy, dict):
        policy = Policy(policy)
    totals = release.value_totals
    unused = tuple(v for v in policy.values if not release.contains(v))
    if unused:
        warn(
            f"The policy names {len(unused)} value(s) the release never contains: "
            f"{list(unused)!r}; check for typos (they are reported as safe with breach "
            f"probability 0).", UnusedPolicyValueWarning)
    # rows as arrays (value position, point index, source): the default skyline's rows are
    # built without a Python step per value
    points: list[SkylinePoint] = []
    point_id: dict[int, int] = {}

    def ids(skyline):
        out = []
        for p in skyline:
            if id(p) not in point_id:
                point_id[id(p)] = len(points)
                points.append(p)
            out.append(point_id[id(p)])
        return np.array(out, dtype=np.int64)

    own = _release_skylines(release, policy)
    listed = set(own)
    default = policy.default
    unlisted = totals > 0
    unlisted[sorted(listed)] = False
    by_default = np.flatnonzero(unlisted).astype(np.int64)
    parts = []  # (value positions, point ids, source code)
    if default is not None and len(by_default):
        d = ids(default)
        parts.append((np.repeat(by_default, len(d)), np.tile(d, len(by_default)), 1))
    for j in sorted(listed):
        if release.value_totals[j] > 0:
            d = ids(own[j])
            parts.append((np.full(len(d), j, dtype=np.int64), d, 0))
    value_pos = np.concatenate([p[0] for p in parts]) if parts else np.zeros(0, np.int64)
    point_pos = np.concatenate([p[1] for p in parts]) if parts else np.zeros(0, np.int64)
    source = np.concatenate([np.full(len(p[0]), p[2]) for p in parts]) if parts \
        else np.zeros(0, np.int64)
    order = np.lexsort((point_pos, value_pos))  # value order, then point order
    value_pos, point_pos, source = value_pos[order], point_pos[order], source[order]
    safe, log_nr = point_verdicts(release, value_pos, point_pos,
                                  [(p.l, p.k, p.m, p.c_exact) for p in points])
    rows = _Targets(release.values, points, value_pos, point_pos, source)
    if unused:  # values the release never contains: safe, breach probability 0
        extra = [(v, p, "value") for v in unused for p in policy.skyline_for(v) or ()]
        rows = rows.extended(extra)
        safe = np.concatenate([safe, np.ones(len(extra), dtype=bool)])
        log_nr = np.concatenate([log_nr, np.full(len(extra), np.inf)])
    return SkylineCheckResult(None, release.semantics, unused, _release=release,
                              _targets=rows, _safe=safe, _log_nr=log_nr)
