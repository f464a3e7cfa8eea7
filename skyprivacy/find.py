"""SkylineFind: the knowledge skyline of a release (Definition 5, Sect. 6.3).

The knowledge skyline of a release at confidence c for a value sigma is the set of maximal
(l, k, m) under which it is safe.  Safety is monotone in every dimension, so for each l the safe
(k, m) region is a staircase K_l(m) = the largest safe k, non-increasing in m, and
K_{l+1}(m) <= K_l(m).  Instead of the paper's binary search for k at every (l, m) pair, one
query at a time (Fig. 5), every search runs at once: a galloping search finds the last l safe
with k = m = 0, one vectorized bisection the end of every staircase in m, and one more the
height K_l(m) of every (l, m) pair, so a value costs a few dozen batched evaluations of the
closed forms of :mod:`skyprivacy.formulas` (over the holder shapes that can attain a minimum),
whatever the size of its skyline.  Past the l at which every holder's ruled-out counts are all
its other counts, the staircase no longer changes and is not searched again.  Verdicts within
float tolerance of c are decided with exact fractions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
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
from .prose import worst_case
from .errors import InvalidParameterError
from .formulas import (
    AMOUNT,
    RELEASE,
    breach_probability,
    float_verdicts,
    holder_shapes,
    log_negated_ratio,
    log_threshold,
    sufficient_statistics,
)
from ._core.validation import validate_params
from .knowledge import CONFIDENCE, exact_confidence
from .release import ReleaseCandidate

__all__ = [
    "skyline_find",
    "skyline_find_all",
    "KnowledgeSkyline",
    "KnowledgeSkylines",
    "skyline_find_paper",
    "exhaustive_skyline",
]

INF = math.inf


class _ValueStats:
    """What the breach probability of one value needs: its holders in the sparse model (the
    other groups cannot hold the target and never lower V below 1); every term comes from
    :mod:`skyprivacy.formulas`."""

    def __init__(self, release: ReleaseCandidate, sigma: object):
        self.release = release
        self.sigma = sigma
        self.semantics = release.semantics
        j = release.value_index(sigma)
        totals = release.value_totals
        present = int((totals > 0).sum())
        self.n_other_values = present - (1 if j is not None and totals[j] > 0 else 0)
        self.n_individuals = release.n_individuals
        self.absent = j is None or not totals[j] > 0
        if j is None or self.absent:
            return
        self.j = j
        shapes = holder_shapes(release, j)
        assert shapes is not None  # the value occurs, so some group holds it
        self.shapes = shapes
        self.min_n = self.shapes.min_n
        # beyond this l every holder's ruled-out counts are all its other counts
        self.saturation = self.shapes.saturation

    def log_nr(self, l, k, m) -> np.ndarray:
        """log of the minimum negated ratio for arrays of (l, k, m); -inf when pinned."""
        return log_negated_ratio(self.release, self.j, l, k, m, cache=self.shapes)


class _SafetyOracle:
    """Decides BP(l, k, m) < c for one value, in floats, exactly when too close to call."""

    def __init__(self, stats: _ValueStats, c: Fraction):
        self.stats = stats
        self.c = c
        self.log_theta = log_threshold(c)
        self.evaluations = 0
        self.exact_evaluations = 0
        self._memo: dict = {}

    def safe_many(self, l, k, m) -> np.ndarray:
        """Verdicts for arrays of amounts (``l`` an int or an array like ``k``)."""
        l, k, m = np.broadcast_arrays(*(np.atleast_1d(np.asarray(x, dtype=np.int64))
                                        for x in (l, k, m)))
        self.evaluations += len(k)
        if self.stats.absent:
            return np.ones(len(k), dtype=bool)
        log_nr = self.stats.log_nr(l, k, m)
        unsafe, close = float_verdicts(log_nr, self.log_theta)
        verdict = ~unsafe & ~close
        for i in np.flatnonzero(close):
            self.exact_evaluations += 1
            stats = sufficient_statistics(self.stats.release, self.stats.sigma, l=int(l[i]),
                                          k=int(k[i]), m=int(m[i]))
            verdict[i] = stats.breach_probability < self.c
        return verdict

    def safe(self, l: int, k: int, m: int) -> bool:
        key = (l, k, m)
        if key not in self._memo:
            self._memo[key] = bool(self.safe_many(l, np.array([k]), np.array([m]))[0])
        return self._memo[key]


def _largest(predicate, lo: int, hi: int) -> int:
    """Largest x in [lo, hi] with predicate(x) true, for a predicate true then false;
    lo - 1 if none. Galloping from lo, then bisection (cheap when the answer is near lo)."""
    if hi < lo or not predicate(lo):
        return lo - 1
    good, step = lo, 1
    while True:
        probe = good + step
        if probe >= hi:
            bad = hi + 1 if predicate(hi) else hi
            if bad == hi + 1:
                return hi
            break
        if predicate(probe):
            good, step = probe, step * 2
        else:
            bad = probe
            break
    while bad - good > 1:
        mid = (good + bad) // 2
        if predicate(mid):
            good = mid
        else:
            bad = mid
    return good


def _largest_many(predicate, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Elementwise largest x in [lo, hi] with predicate true, given it holds at lo: one
    vectorized bisection, each round one call ``predicate(positions, x)`` for every search
    still open."""
    lo, hi = lo.copy(), hi.copy()
    while True:
        active = np.flatnonzero(lo < hi)
        if not len(active):
            return lo
        mid = (lo[active] + hi[active] + 1) // 2
        ok = predicate(active, mid)
        lo[active] = np.where(ok, mid, lo[active])
        hi[active] = np.where(ok, hi[active], mid - 1)


@dataclass(frozen=True)
class KnowledgeSkyline:
    """The knowledge skyline of a release for one value at one confidence (Definition 5).

    Attributes
    ----------
    value : object
    c : Fraction
        The confidence threshold (safe means breach probability < c).
    points : tuple of (l, k, m)
        The maximal safe amounts of knowledge, sorted; empty when even (0, 0, 0) is unsafe.
    bounds : (int, int, int)
        The searched box: l up to the number of other values, k and m up to the number of
        other individuals. A coordinate equal to its bound means "safe up to the bound".
    minimal_unsafe : tuple of (l, k, m)
        The least amounts of knowledge that breach c (the other side of the staircase).
    evaluations : int
        Breach-probability evaluations used (exact ones in ``exact_evaluations``).
    """

    value: object
    c: Fraction
    points: tuple
    bounds: tuple
    minimal_unsafe: tuple
    evaluations: int
    exact_evaluations: int
    _staircase: dict = field(repr=False, compare=False, default_factory=dict)

    def staircases(self) -> dict:
        """For every searched l, the safe region in (m, k) as runs ``(m_from, m_to, k)``:
        for m_from <= m <= m_to the largest safe k is k (the slices of Fig. 2's staircase).

        Examples
        --------
        >>> from skyprivacy import ReleaseCandidate
        >>> release = ReleaseCandidate.from_groups([(4, ["flu", "flu", "cold", "gout"]),
        ...                                         (3, ["cold", "gout", "flu"])])
        >>> sky = skyline_find(release, "flu", c=0.9)
        >>> sky.points
        ((0, 1, 0), (1, 0, 1))
        >>> sky.staircases()  # l = 0: k up to 1 at m = 0, k = 0 at m = 1; l = 2: nothing safe
        {0: [(0, 0, 1), (1, 1, 0)], 1: [(0, 1, 0)], 2: []}
        """
        return {l: _runs(heights) for l, heights in sorted(self._staircase.items())}

    @validate_params({"l": AMOUNT, "k": AMOUNT, "m": AMOUNT})
    def is_safe(self, l: int, k: int, m: int) -> bool:
        """True iff (l, k, m) lies beneath the skyline (within the searched bounds).

        Raises
        ------
        InvalidParameterError
            If an amount is negative or exceeds the searched bounds.
        """
        for name, value, bound in zip("lkm", (l, k, m), self.bounds):
            if value > bound:
                raise InvalidParameterError(
                    f"The '{name}' parameter of KnowledgeSkyline.is_safe must be at most the "
                    f"searched bound {bound}. Got {value} instead.")
        return any(l <= pl and k <= pk and m <= pm for pl, pk, pm in self.points)

    @property
    def least_breach(self) -> tuple[int, int, int] | None:
        """The minimal unsafe (l, k, m) of least total amount (ties: the smallest), None when
        the whole searched box is safe: the least knowledge that breaches c."""
        return min(self.minimal_unsafe, key=lambda p: (sum(p), p), default=None)

    @property
    def exposure(self) -> int | None:
        """The least total amount l + k + m that breaches c (None: safe on the whole box)."""
        breach = self.least_breach
        return None if breach is None else sum(breach)

    def to_frame(self) -> pd.DataFrame:
        """One row per skyline point: value, l, k, m, c."""
        frame = pd.DataFrame(list(self.points), columns=["l", "k", "m"], dtype="int64")
        frame.insert(0, "value", [self.value] * len(frame))
        frame["c"] = float(self.c)
        return frame

    def to_dict(self) -> dict:
        """JSON-friendly form."""
        return {"value": self.value if isinstance(self.value, (int, float)) else str(self.value),
                "c": str(self.c), "points": [list(p) for p in self.points],
                "bounds": list(self.bounds), "minimal_unsafe": [list(p) for p in
                                                                 self.minimal_unsafe],
                "exposure": self.exposure}

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        breach = self.least_breach
        return Shown(None, None,
                     (("value", repr(self.value)), ("c", confidence_text(self.c)),
                      ("skyline_points", len(self.points)),
                      ("least_breaching_knowledge", "none in the searched box" if breach is None
                       else f"(l={breach[0]}, k={breach[1]}, m={breach[2]})")),
                     None, head_rows(self.to_frame), len(self.points),
                     skyline_staircase_svg(self.points, f"Knowledge skyline of {self.value!r} "
                                                        f"at c = {confidence_text(self.c)}"))


#: The declared parameters of the public searches.
_SEARCH = {"release": RELEASE, "c": CONFIDENCE}


@validate_params(_SEARCH)
def skyline_find(release: ReleaseCandidate, sigma: object, *, c) -> KnowledgeSkyline:
    """The knowledge skyline of a release for one value at confidence c (Definition 5).

    Parameters
    ----------
    release : ReleaseCandidate
    sigma : hashable
        The sensitive value.
    c : float or Fraction
        Confidence threshold in (0, 1]; floats are read as the decimal they print as.

    Returns
    -------
    KnowledgeSkyline
        ``.points`` equal the maximal safe points of an exhaustive search over the box
        l <= #other values, k, m <= #other individuals.

    Notes
    -----
    For each l, the staircase K_l(m) (largest safe k) is found for every m at once, all l
    together, by vectorized bisections. A point (l, K_l(m), m) is maximal iff
    K_l(m + 1) < K_l(m) and K_{l+1}(m) < K_l(m).

    References
    ----------
    Chen, LeFevre and Ramakrishnan (2009), Definition 5, Sect. 6.3 and Fig. 5.

    Examples
    --------
    >>> release = ReleaseCandidate.from_groups([(4, ["AIDS", "AIDS", "Flu", "Flu"]),
    ...                                         (4, ["AIDS", "Cancer", "Flu", "Flu"])])
    >>> skyline_find(release, "AIDS", c=0.7).points
    ((0, 1, 0),)
    """
    c_exact = exact_confidence(c, "skyline_find")
    stats = _ValueStats(release, sigma)
    return _find(stats, c_exact)


_BLOCK = 1 << 20  # (l, m) pairs searched together: bounds the bisection's memory


def _find(stats: _ValueStats, c_exact: Fraction) -> KnowledgeSkyline:
    oracle = _SafetyOracle(stats, c_exact)
    l_max = stats.n_other_values
    k_max = m_max = max(stats.n_individuals - 1, 0)
    bounds = (l_max, k_max, m_max)
    if stats.absent:  # nothing to infer: safe everywhere in the box
        return KnowledgeSkyline(stats.sigma, c_exact, ((l_max, k_max, m_max),), bounds, (),
                                oracle.evaluations, 0)
    # k + m < smallest group holding sigma, else the target is pinned
    reach = stats.min_n - 1
    m_cap = min(m_max, reach)
    # past the saturation every K_l equals K_saturation: search l up to it only
    l_top = min(l_max, max(stats.saturation, 0))
    l_last = _largest(lambda l: oracle.safe(l, 0, 0), 0, l_top)

    staircases: dict = {}
    if l_last >= 0:
        # the staircase of l spans m = 0 .. m_end (the last m still safe with k = 0) ...
        ls = np.arange(l_last + 1, dtype=np.int64)
        m_end = _largest_many(lambda pos, x: oracle.safe_many(ls[pos], 0, x),
                              np.zeros(len(ls), dtype=np.int64),
                              np.full(len(ls), m_cap, dtype=np.int64))
        m_end = np.minimum.accumulate(m_end)  # K_l <= K_{l-1}
        # ... and K_l(m) is found for every (l, m) at once by a vectorized bisection, in
        # blocks of consecutive l, each bounded by the last staircase of the block before
        upper = None
        start = 0
        while start <= l_last:
            sizes = np.cumsum(m_end[start:] + 1)
            stop = start + max(1, int(np.searchsorted(sizes, _BLOCK, side="right")))
            block = ls[start:stop]
            l_rep = np.repeat(block, m_end[start:stop] + 1)
            offsets = np.concatenate([[0], sizes[:stop - start]])
            m_rep = np.arange(len(l_rep), dtype=np.int64) - np.repeat(offsets[:-1],
                                                                       m_end[start:stop] + 1)
            hi = np.minimum(k_max, reach - m_rep)
            if upper is not None:
                hi = np.minimum(hi, _height(upper, m_rep))
            heights = _largest_many(
                lambda pos, x, l_rep=l_rep, m_rep=m_rep: oracle.safe_many(l_rep[pos], x,
                                                                          m_rep[pos]),
                np.zeros(len(l_rep), dtype=np.int64), hi)
            for i, l in enumerate(block.tolist()):
                staircases[l] = heights[offsets[i]:offsets[i + 1]]
            upper = staircases[int(block[-1])]
            start = stop
    saturated = l_last == l_top < l_max
    if l_last < l_top:  # the first l unsafe even without k and m
        staircases[l_last + 1] = np.zeros(0, dtype=np.int64)
    elif saturated:
        staircases[l_max] = staircases[l_top]

    def stair(l):
        return staircases.get(min(l, l_top) if saturated else l)

    points = []
    for l, heights in staircases.items():
        if not len(heights):
            continue
        # run ends: the last m of each step (where K drops next, or the end)
        ends = np.flatnonzero(np.diff(np.append(heights, -1)) != 0)
        keep = heights[ends] >= 0
        if l < l_max:  # maximal only if one more ruled-out value breaks it
            keep &= _height(stair(l + 1), ends) < heights[ends]
        points += [(l, int(heights[m]), int(m)) for m in ends[keep]]
    minimal_unsafe = _minimal_unsafe(staircases, stair, k_max, m_max)
    return KnowledgeSkyline(stats.sigma, c_exact, tuple(sorted(points)), bounds,
                            tuple(sorted(minimal_unsafe)), oracle.evaluations,
                            oracle.exact_evaluations, staircases)


def _runs(heights: np.ndarray) -> list:
    """Staircase K(0..M) as runs (m_from, m_to, k) of equal heights."""
    if heights is None or not len(heights):
        return []
    change = np.flatnonzero(np.diff(heights)) + 1
    begins = np.concatenate([[0], change])
    ends = np.concatenate([change - 1, [len(heights) - 1]])
    return [(int(b), int(e), int(heights[b])) for b, e in zip(begins, ends)]


def _height(heights, m: np.ndarray) -> np.ndarray:
    """K(m) from a staircase array; -1 (nothing safe) beyond its end or if absent."""
    m = np.asarray(m, dtype=np.int64)
    if heights is None or not len(heights):
        return np.full(m.shape, -1, dtype=np.int64)
    inside = m < len(heights)
    return np.where(inside, heights[np.minimum(m, len(heights) - 1)], -1)


def _minimal_unsafe(staircases: dict, stair, k_max, m_max):
    """Minimal unsafe points: unsafe, and one step down in any dimension is safe.

    At a fixed l the unsafe k's are those above K_l(m); the lowest, K_l(m) + 1, can only be
    minimal where the staircase drops (the start of a step, or the first m with no safe k),
    and only if K_{l-1}(m) reaches it (``stair(l)`` is K_l for any l of the box)."""
    out: set[tuple[int, int, int]] = set()
    for l, heights in sorted(staircases.items()):
        starts = np.flatnonzero(np.diff(np.concatenate([[-2], heights])) != 0)
        m_cand = np.append(starts, len(heights)).astype(np.int64)
        k_cand = np.append(heights[starts] + 1, 0).astype(np.int64)
        ok = (k_cand <= k_max) & (m_cand <= m_max)
        if l > 0:
            ok &= _height(stair(l - 1), m_cand) >= k_cand
        out.update((l, int(k), int(m)) for k, m in zip(k_cand[ok], m_cand[ok]))
    return out


# --------------------------------------------------------------------------- every value
@dataclass(frozen=True)
class KnowledgeSkylines:
    """Knowledge skylines of every value of a release at one confidence, most exposed first.

    Attributes
    ----------
    skylines : tuple of KnowledgeSkyline
        Ordered by exposure: the least total knowledge l + k + m that breaches c (values safe
        on the whole box last), then by breach probability at (0, 0, 0), highest first.
    worst_cases : dict
        For each exposed value, the attacker's worst case at its least breaching amount of
        knowledge, in words (a :class:`skyprivacy.check.WorstCase`).
    """

    c: Fraction
    skylines: tuple
    worst_cases: dict
    baseline_risk: dict

    def __getitem__(self, value) -> KnowledgeSkyline:
        for skyline in self.skylines:
            if skyline.value == value:
                return skyline
        raise KeyError(value)

    def __iter__(self):
        return iter(self.skylines)

    def __len__(self) -> int:
        return len(self.skylines)

    def to_frame(self) -> pd.DataFrame:
        """One row per (value, skyline point): value, rank, exposure, l, k, m, c.

        A value without any safe point (unsafe even with no knowledge) gets one row with
        l, k, m missing."""
        rows = []
        for rank, skyline in enumerate(self.skylines, start=1):
            exposure = skyline.exposure
            base = {"value": skyline.value, "rank": rank,
                    "exposure": pd.NA if exposure is None else exposure,
                    "breach_probability_000": float(self.baseline_risk[skyline.value])}
            if not skyline.points:
                rows.append({**base, "l": pd.NA, "k": pd.NA, "m": pd.NA})
            for l, k, m in skyline.points:
                rows.append({**base, "l": l, "k": k, "m": m})
        frame = pd.DataFrame(rows, columns=["value", "rank", "exposure",
                                            "breach_probability_000", "l", "k", "m"])
        for column in ("rank", "exposure", "l", "k", "m"):
            frame[column] = frame[column].astype("Int64")
        frame["c"] = float(self.c)
        return frame

    def summary(self) -> pd.DataFrame:
        """One row per value: rank, exposure, least breaching knowledge, worst case."""
        rows = []
        for rank, skyline in enumerate(self.skylines, start=1):
            breach = skyline.least_breach
            worst = self.worst_cases.get(skyline.value)
            rows.append({"value": skyline.value, "rank": rank, "exposure": skyline.exposure,
                         "least_breaching_knowledge": breach,
                         "n_skyline_points": len(skyline.points),
                         "breach_probability_000": float(self.baseline_risk[skyline.value]),
                         "worst_case": None if worst is None else worst.description})
        return pd.DataFrame(rows)

    def to_dict(self) -> dict:
        """JSON-friendly form."""
        return {"c": str(self.c), "skylines": [s.to_dict() for s in self.skylines],
                "worst_cases": {str(v): w.to_dict() for v, w in self.worst_cases.items()}}

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        first = self.skylines[0] if self.skylines else None
        worst = None if first is None else self.worst_cases.get(first.value)
        exposed = sum(1 for s in self.skylines if s.exposure is not None)
        facts: tuple = (("c", confidence_text(self.c)), ("values", len(self.skylines)),
                        ("exposed_values", exposed))
        picture = None
        if first is not None:
            breach = first.least_breach
            facts += (("most_exposed", repr(first.value)),
                      ("least_breaching_knowledge", "none in the searched box" if breach is None
                       else f"(l={breach[0]}, k={breach[1]}, m={breach[2]})"))
            picture = skyline_staircase_svg(first.points, f"Knowledge skyline of the most "
                                                          f"exposed value {first.value!r} at "
                                                          f"c = {confidence_text(self.c)}")
        return Shown(None, None, facts, None if worst is None else worst.description,
                     lambda n: KnowledgeSkylines(self.c, self.skylines[:n], self.worst_cases,
                                                 self.baseline_risk).summary(),
                     len(self.skylines), picture, "worst case")


@validate_params(_SEARCH)
def skyline_find_all(release: ReleaseCandidate, *, c, values=None,
                     progress=None) -> KnowledgeSkylines:
    """Knowledge skylines of every sensitive value at once, the most exposed first.

    Parameters
    ----------
    release : ReleaseCandidate
    c : float or Fraction
        Confidence threshold in (0, 1].
    values : iterable, optional
        Restrict to these values (default: every value the release contains).
    progress : callable or bool, optional
        Called with the fraction of values done after each value; ``True`` draws a tqdm bar
        (the ``progress`` extra).

    Returns
    -------
    KnowledgeSkylines
        ``.to_frame()`` is one table for all values; ``.summary()`` one row per value with the
        least knowledge that breaches c and the attacker's worst case there.

    Examples
    --------
    >>> release = ReleaseCandidate.from_groups([(4, ["AIDS", "AIDS", "Flu", "Flu"]),
    ...                                         (4, ["AIDS", "Cancer", "Flu", "Flu"])])
    >>> result = skyline_find_all(release, c=0.7)
    >>> [(s.value, s.exposure) for s in result]
    [('AIDS', 1), ('Flu', 1), ('Cancer', 2)]
    """
    c_exact = exact_confidence(c, "skyline_find_all")
    progress = progress_callback(progress, owner="skyline_find_all",
                                 label="finding knowledge skylines")
    if values is None:
        values = [v for v in release.values if release.contains(v)]
    skylines, worst, baseline = [], {}, {}
    values = list(values)
    for done, value in enumerate(values, start=1):
        skyline = _find(_ValueStats(release, value), c_exact)
        skylines.append(skyline)
        baseline[value] = breach_probability(release, value, l=0, k=0, m=0, exact=True)
        breach = skyline.least_breach
        if breach is not None:
            stats = sufficient_statistics(release, value, l=breach[0], k=breach[1], m=breach[2])
            worst[value] = worst_case(release, value, stats, stats.breach_probability, c_exact)
        if progress is not None:
            progress(done / len(values))
    finish(progress)
    skylines.sort(key=lambda s: (s.exposure if s.exposure is not None else INF,
                                 -baseline[s.value]))
    return KnowledgeSkylines(c_exact, tuple(skylines), worst, baseline)


# --------------------------------------------------------------------------- references
@validate_params(_SEARCH)
def skyline_find_paper(release: ReleaseCandidate, sigma: object, *, c,
                       cached: bool = False) -> tuple:
    """The paper's SkylineFind (Fig. 5), kept as a reference and benchmark competitor.

    For every l and m while BP(l, 0, m) < c, a fresh binary search over k evaluates the
    breach probability; dominated points are dropped at the end. Same result as
    :func:`skyline_find`, many more evaluations.

    Parameters
    ----------
    cached : bool, default False
        False: every evaluation is a full :func:`skyprivacy.breach_probability` call, as in
        the paper. True: evaluations use the per-value statistics that :func:`skyline_find`
        builds once, which isolates the gain of the search strategy itself.

    Returns
    -------
    tuple of (l, k, m)
    """
    c_exact = exact_confidence(c, "skyline_find_paper")
    stats = _ValueStats(release, sigma)
    if cached:
        safe = _SafetyOracle(stats, c_exact).safe
    else:
        def safe(l, k, m):
            return breach_probability(release, sigma, l=l, k=k, m=m, exact=True) < c_exact
    return _paper_loop(safe, stats.n_other_values, max(release.n_individuals - 1, 0))


def _paper_loop(safe, l_max: int, k_max: int) -> tuple:
    m_max = k_max
    found = []
    for l in range(l_max + 1):
        if not safe(l, 0, 0):
            break
        for m in range(m_max + 1):
            if not safe(l, 0, m):
                break
            lo, hi = 0, k_max  # largest safe k by binary search
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if safe(l, mid, m):
                    lo = mid
                else:
                    hi = mid - 1
            found.append((l, lo, m))
    points = [p for p in found
              if not any(q != p and all(q[i] >= p[i] for i in range(3)) for q in found)]
    return tuple(sorted(set(points)))


@validate_params(_SEARCH)
def exhaustive_skyline(release: ReleaseCandidate, sigma: object, *, c, bounds) -> tuple:
    """Maximal safe points by evaluating every (l, k, m) in ``bounds`` (tiny releases only).

    Examples
    --------
    >>> release = ReleaseCandidate.from_groups([(3, ["a", "b", "b"])])
    >>> exhaustive_skyline(release, "a", c=0.6, bounds=(1, 2, 2))
    ((0, 0, 1), (0, 1, 0))
    """
    c_exact = exact_confidence(c, "exhaustive_skyline")
    l_max, k_max, m_max = bounds
    safe = [(l, k, m) for l in range(l_max + 1) for k in range(k_max + 1)
            for m in range(m_max + 1)
            if breach_probability(release, sigma, l=l, k=k, m=m, exact=True) < c_exact]
    return tuple(sorted(p for p in safe
                        if not any(q != p and all(q[i] >= p[i] for i in range(3))
                                   for q in safe)))
