"""(c, k)-safety of Martin et al. (2007): the worst case over k basic implications.

The comparator of the privacy-skyline paper (Chen, LeFevre and Ramakrishnan 2009, Sects. 3,
5.1 and 8.3).  The attacker knows L_basic(k): a conjunction of k *basic implications*
``(x_1 in u_1[S] and ... ) -> (y_1 in v_1[S] or ...)`` about the individuals of a bucketized
(svpi) release.  The release is (c, k)-safe iff, for every target t and value s and every such
knowledge consistent with the release, Pr(s in t[S] | L_basic(k), D*) < c.  Martin et al. show
the maximum is reached by the *simple* form L_simple(k) = AND_i (z_i in w_i[S] -> s in t[S]).

How it is computed.  Write E for ``s in t[S]`` and A_i for the antecedent atoms.  The knowledge
holds iff E or no A_i does, so

    Pr(E | K) = 1 / (1 + R),   R = Pr(not E and no A_i) / Pr(E),

and the groups are independent random worlds, so R is a product over the groups that hold
atoms.  The atoms of one group form a *board* (a set of (individual, value) cells that must all
be avoided).  Two facts, each checked against an enumeration of every board on small groups
(``tests/baselines/test_cksafety.py``), collapse the search:

1. In a group without the target, the least probability W_g(j) of avoiding j cells is reached
   by a staircase: individual i rules out the a_i most frequent values, a_1 >= a_2 >= ...,
   sum a_i = j, and then

       W_g(j) = min over such staircases of  prod_i (n - C(a_i) - i) / (n - i)   (i from 0),

   with C(a) the sum of the a largest counts of the group (a negative factor is 0).
2. With the target in group g, the worst value s is the group's most frequent one (count r_1)
   and t's own row is one more row of the same staircase, so the group's term with j atoms is
   (n_g / r_1) W_g(j + 1).

So R(k) = min over the target group g and a split k + 1 = sum_b j_b with j_g >= 1 of
(n_g / r_1(g)) prod_b W_b(j_b): a knapsack over the groups, the same shape as the dynamic
program of Appendix A.3 (and of Martin et al.), run exactly on Fractions.  ``W`` does not
increase in j (an extra atom can repeat one), so "k implications" and "at most k" agree.

Relation to the skyline.  Each of the skyline's l atoms ("t does not have x", that is
x in t[S] -> s in t[S] in svpi) and m atoms (s in v[S] -> s in t[S]) is one basic implication,
so the disclosure at k is at least the skyline's BP(l, 0, m) for every l + m = k and every value;
the k dimension ("the values of k individuals") costs |S| - 1 implications per individual
(Sect. 5.1, Proposition 5).  Recursive (c, l)-diversity is the case where all l - 2 atoms sit
on the target (Proposition 4); atoms elsewhere can only raise the disclosure.

References
----------
D. J. Martin, D. Kifer, A. Machanavajjhala, J. Gehrke and J. Y. Halpern, "Worst-case background
knowledge for privacy-preserving data publishing", ICDE 2007, Sects. 3-4 ((c, k)-safety,
L_basic(k), the reduction to simple implications and the dynamic program over buckets).
B.-C. Chen, K. LeFevre and R. Ramakrishnan, "Privacy skyline: privacy with multidimensional
adversarial knowledge", VLDB 2007 / VLDB Journal 2009, Sects. 3, 5.1 (Propositions 4, 5) and 8.3.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import pandas as pd

from .._core.exact import decimal_fraction, fraction_text, json_number, native, native_number
from .._core.validation import Interval, validate_params
from ..formulas import exact_breach_probability
from ..knowledge import CONFIDENCE
from ..release import ReleaseCandidate
from ._common import RELEASE, GroupVerdicts, check_svpi, label_info

__all__ = ["CKSafetyResult", "ck_safety", "ck_disclosure"]

_WHY = "(c, k)-safety gives every individual exactly one sensitive value"
_K = Interval("integer", 0)


# ----------------------------------------------------------------------------- one group
def _staircases(counts: tuple[int, ...], atoms: int) -> list[tuple[Fraction, tuple[int, ...]]]:
    """W(j) for j = 0..atoms, each with a staircase reaching it (row lengths, longest first).

    ``counts`` are the group's value counts in descending order.  Every partition of j into
    rows a_1 >= a_2 >= ... is walked once, its product built row by row; the least one per j
    is kept, then made non-increasing in j (a spare atom repeats one already known).
    """
    n = sum(counts)
    cumulative = [0]
    for count in counts:
        cumulative.append(cumulative[-1] + count)
    distinct = len(counts)
    best: list[tuple[Fraction, tuple[int, ...]] | None] = [None] * (atoms + 1)
    best[0] = (Fraction(1), ())

    def walk(rows: tuple[int, ...], used: int, longest: int, value: Fraction) -> None:
        i = len(rows)
        if i >= n:
            return
        for a in range(min(longest, atoms - used, distinct), 0, -1):
            factor = Fraction(max(n - cumulative[a] - i, 0), n - i)
            now = value * factor
            grown = (*rows, a)
            j = used + a
            held = best[j]
            if held is None or now < held[0]:
                best[j] = (now, grown)
            if now and j < atoms:
                walk(grown, j, a, now)

    walk((), 0, atoms, Fraction(1))
    out: list[tuple[Fraction, tuple[int, ...]]] = []
    for j in range(atoms + 1):
        here = best[j]
        if here is None or (out and out[-1][0] <= here[0]):
            here = out[-1]
        out.append(here)
    return out


# ----------------------------------------------------------------------------- the release
@dataclass(frozen=True)
class _Worst:
    """The exact worst case over the release: R, the target group and the atoms per group."""

    ratio: Fraction
    group: int
    split: dict  # group position -> (atoms, staircase rows); the target group's rows hold t's


def _knapsack(terms: list[list[Fraction]], order: range, atoms: int) -> list[list]:
    """best[f][j]: least product of W over the groups of ``order`` up to f with j atoms."""
    table: list[list] = []
    row = [Fraction(1)] * (atoms + 1)  # with no group yet, every j atoms may repeat: product 1
    for g in order:
        w = terms[g]
        new = []
        for j in range(atoms + 1):
            new.append(min(row[j - a] * w[a] for a in range(j + 1)))
        table.append(new)
        row = new
    return table


def _worst_cases(release: ReleaseCandidate, k: int) -> tuple[list[Fraction], _Worst]:
    """Per group, the least R with the target there; and the release's worst case."""
    indptr, _, count = release.csr
    b = release.n_groups
    atoms = k + 1  # the target's own "t has s" row is one more row of the staircase
    cache: dict[tuple[int, ...], list[tuple[Fraction, tuple[int, ...]]]] = {}
    stairs = []
    for g in range(b):
        counts = tuple(int(c) for c in count[indptr[g]:indptr[g + 1]])
        if counts not in cache:
            cache[counts] = _staircases(counts, atoms)
        stairs.append(cache[counts])
    w = [[value for value, _ in s] for s in stairs]
    before = _knapsack(w, range(b), atoms)               # groups 0..f
    after = _knapsack(w, range(b - 1, -1, -1), atoms)[::-1]  # groups f..b-1
    one = [Fraction(1)] * (atoms + 1)
    ratios: list[Fraction] = []
    best: tuple[Fraction, int, int, int] | None = None  # (R, g, atoms of g, atoms before g)
    for g in range(b):
        left = before[g - 1] if g else one
        right = after[g + 1] if g + 1 < b else one
        top = int(count[indptr[g]])
        scale = Fraction(int(release.sizes_array[g]), top)
        least: tuple[Fraction, int, int] | None = None
        for a in range(1, atoms + 1):
            rest = atoms - a
            for i in range(rest + 1):
                value = scale * w[g][a] * left[i] * right[rest - i]
                if least is None or value < least[0]:
                    least = (value, a, i)
        assert least is not None
        ratios.append(least[0])
        if best is None or least[0] < best[0]:
            best = (least[0], g, least[1], least[2])
    assert best is not None
    ratio, g, a, i = best
    split = {g: (a, stairs[g][a][1])}
    split.update(_trace(w, stairs, range(g - 1, -1, -1), before, i))
    split.update(_trace(w, stairs, range(g + 1, b), after, atoms - a - i))
    return ratios, _Worst(ratio, g, {f: s for f, s in split.items() if s[0]})


def _trace(w: list[list[Fraction]], stairs: list, groups: range, table: list[list],
           j: int) -> dict:
    """Recover which groups of ``groups`` hold the j atoms that ``table`` minimized."""
    split = {}
    for f in groups:
        earlier = f - 1 if groups.step < 0 else f + 1
        inner = table[earlier] if 0 <= earlier < len(table) else [Fraction(1)] * (j + 1)
        target = table[f][j]
        for a in range(j + 1):
            if inner[j - a] * w[f][a] == target:
                split[f] = (a, stairs[f][a][1])
                j -= a
                break
    return split


def _implications(release: ReleaseCandidate, worst: _Worst, labels: tuple) -> tuple:
    """The k basic implications of the worst case, as (individual, value) antecedents.

    The consequent of every one is "the target has the worst value".  An individual is
    ``"target"`` or ``(group label, i)``, the i-th other individual (from 1) of that group.
    """
    indptr, value, _ = release.csr
    names = release.values
    out: list[tuple] = []
    for g, (_, rows) in sorted(worst.split.items()):
        order = [native(names[int(v)]) for v in value[indptr[g]:indptr[g + 1]]]
        others = 0
        for r, length in enumerate(rows):
            if g == worst.group and r == 0:
                who: object = "target"
                start = 1  # t's first cell is the value itself: the consequent, not an atom
            else:
                others += 1
                who, start = (labels[g], others), 0
            out.extend((who, order[v]) for v in range(start, length))
    return tuple(out)


@dataclass(frozen=True)
class CKSafetyResult(GroupVerdicts):
    """Result of :func:`ck_safety`.

    Attributes
    ----------
    c : int, float or Fraction
        The confidence threshold, as given.
    k : int
        The number of basic implications the attacker knows.
    safe : bool
        True iff the worst-case disclosure is below ``c`` (decided exactly).
    disclosure : Fraction
        max Pr(s in t[S] | L_basic(k), D*) over every target, value and knowledge.
    worst_group : object
        Label of the group holding the target of the worst case.
    worst_value : object
        The value the worst case discloses (the most frequent one of ``worst_group``).
    implications : tuple
        The worst case's k antecedents, as ``(individual, value)`` pairs: each reads
        "if that individual has that value, the target has ``worst_value``".  The individual
        is ``"target"`` (ruling a value out for the target) or ``(group label, i)``, the i-th
        other individual of that group.  Fewer than k pairs when fewer already reach the
        worst case; when the disclosure is 1, some pairs may be redundant.
    group_labels, group_sizes : tuple
        Per group: label and number of individuals.
    top_values : tuple
        Per group: its most frequent value (the worst value with the target there).
    group_disclosures : tuple of Fraction
        Per group: the worst-case disclosure with the target in that group (the knowledge may
        still be about other groups).

    ``to_frame()`` has the columns ``n_individuals``, ``top_value``, ``disclosure`` (a float)
    and ``safe`` (the group's disclosure is below ``c``).
    """

    c: int | float | Fraction
    k: int
    safe: bool
    disclosure: Fraction
    worst_group: object
    worst_value: object
    implications: tuple = field(repr=False)
    group_labels: tuple = field(repr=False)
    group_sizes: tuple = field(repr=False)
    top_values: tuple = field(repr=False)
    group_disclosures: tuple = field(repr=False)
    label_names: tuple = field(repr=False, default=(None,))
    c_exact: Fraction = field(repr=False, default=Fraction(1))

    @property
    def group_safe(self) -> tuple:
        """Per group: is the disclosure with the target there below ``c``, exactly."""
        return tuple(d < self.c_exact for d in self.group_disclosures)

    _criterion = "(c, k)-safety"

    def _measure_columns(self) -> dict:
        return {"top_value": pd.array(list(self.top_values), dtype="object"),
                "disclosure": pd.array([float(d) for d in self.group_disclosures],
                                       dtype="float64")}

    def _summary(self) -> dict:
        return {"c": json_number(self.c), "k": self.k,
                "disclosure": fraction_text(self.disclosure),
                "worst_value": str(self.worst_value)}


def _result(release: ReleaseCandidate, k: int, c: object) -> CKSafetyResult:
    check_svpi(release, "ck_safety", _WHY)
    ratios, worst = _worst_cases(release, k)
    labels, names = label_info(release)
    disclosures = tuple(exact_breach_probability(r) for r in ratios)
    indptr, value, _ = release.csr
    values = release.values
    top = tuple(native(values[int(value[indptr[g]])]) for g in range(release.n_groups))
    c_exact = decimal_fraction(c)
    disclosure = exact_breach_probability(worst.ratio)
    return CKSafetyResult(
        native_number(c), k, disclosure < c_exact, disclosure, labels[worst.group],
        top[worst.group], _implications(release, worst, labels), labels,
        tuple(int(n) for n in release.sizes_array), top, disclosures, names, c_exact)


@validate_params({"release": RELEASE, "c": CONFIDENCE, "k": _K})
def ck_safety(release: ReleaseCandidate, *, c: int | float | Fraction, k: int
              ) -> CKSafetyResult:
    """Check (c, k)-safety: the worst case over k basic implications stays below ``c``.

    Parameters
    ----------
    release : ReleaseCandidate
        An svpi release (a bucketized or generalized table: one value per individual).
    c : int, float or Fraction
        The confidence threshold, in (0, 1].  Floats are read as the decimal they print as
        (``0.75`` is 3/4).
    k : int
        The number of basic implications the attacker knows, at least 0 (k = 0 is the
        attacker with no knowledge: the largest share of a value in a group).

    Returns
    -------
    CKSafetyResult

    Raises
    ------
    InvalidParameterError
        If ``release`` is not an svpi ReleaseCandidate, ``c`` is not in (0, 1] or ``k`` is
        not a non-negative integer.

    See Also
    --------
    ck_disclosure : the worst-case disclosure alone.
    recursive_cl_diversity : the case where every implication is about the target.

    Notes
    -----
    The release is (c, k)-safe iff max Pr(s in t[S] | L_basic(k), D*) < c, the maximum over
    every target t, value s and conjunction of k basic implications consistent with the
    release.  It equals 1 / (1 + R) with R = min over the target group g and a split of k + 1
    atoms, j_g >= 1, of (n_g / r_1(g)) prod_b W_b(j_b) (see the module docstring for W).  Cost:
    one walk of the partitions of at most k + 1 per distinct sorted count vector, then
    O(B (k + 2)^2) Fraction products.  Every number is exact.

    A group with a single value is breached by one implication about any of its members
    ("if u has the value he must have, the target has s"): it fails at every k >= 1
    whatever c < 1, which is why Martin et al. pair (c, k)-safety with diverse buckets.

    References
    ----------
    Martin, Kifer, Machanavajjhala, Gehrke and Halpern, "Worst-case background knowledge for
    privacy-preserving data publishing", ICDE 2007 (the definition, L_basic(k) and its
    reduction to simple implications).
    Chen, LeFevre and Ramakrishnan (2009), Sect. 3 (the definition as restated there),
    Sect. 5.1 and Sect. 8.3 (the comparison with the privacy skyline).

    Examples
    --------
    >>> release = ReleaseCandidate.from_groups([(4, ["flu", "flu", "hiv", "cold"]),
    ...                                         (4, ["flu", "hiv", "cold", "gout"])])
    >>> result = ck_safety(release, c=0.8, k=1)
    >>> result
    CKSafetyResult(c=0.8, k=1, safe=True, disclosure=Fraction(3, 4), worst_group=0,
        worst_value='flu')
    >>> result.implications   # "if the 1st other member of group 0 has flu, the target has"
    (((0, 1), 'flu'),)
    >>> result.to_frame()  # doctest: +NORMALIZE_WHITESPACE
           n_individuals top_value  disclosure  safe
    group
    0                  4       flu        0.75  True
    1                  4      cold        0.40  True
    >>> ck_safety(release, c=0.8, k=2).implications   # t is neither cold nor hiv: flu
    (('target', 'cold'), ('target', 'hiv'))
    """
    return _result(release, int(k), c)


@validate_params({"release": RELEASE, "k": _K})
def ck_disclosure(release: ReleaseCandidate, *, k: int) -> Fraction:
    """The worst-case disclosure max Pr(s in t[S] | L_basic(k), D*), exactly.

    The release is (c, k)-safe exactly for c above it; it never decreases as k grows.

    Examples
    --------
    >>> release = ReleaseCandidate.from_groups([(4, list("aabc")), (4, list("abcd"))])
    >>> [ck_disclosure(release, k=k) for k in range(4)]
    [Fraction(1, 2), Fraction(3, 4), Fraction(1, 1), Fraction(1, 1)]
    """
    check_svpi(release, "ck_disclosure", _WHY)
    return exact_breach_probability(_worst_cases(release, int(k))[1].ratio)
