"""The search strategy of SkylineAnonymize: Mondrian's top-down greedy partitioning, one BFS
level at a time (Chen, LeFevre and Ramakrishnan 2009, Sect. 6.2, Fig. 4).

Starting from the whole table as one QI-group, every group of a level is offered its
candidate splits (one per quasi-identifier it spans) and :class:`~.rules.Rules` accepts at
most one per group, in Fig. 4's FIFO order; a group without an accepted split is final.  The
loop runs over any :class:`~.source.Source` (rows in memory, partitions of a Dask frame), so
the strategy is written once; in svpi the result is minimal (Theorem 4): no final group can be
split by any candidate split.  With combined criteria (:class:`~.rules.CriteriaRule`) the
rules also judge the children against every criterion and spend the suppression budget, and
the loop tells them which groups each level finishes.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._core.exact import readable_fraction
from .._core.text import confidence_text, percent_text
from ..check import skyline_check
from ..errors import InfeasibleError, UnusedPolicyValueWarning
from ..knowledge import Policy
from ..release import ReleaseCandidate
from .rules import Rules, SparseGroups
from .source import Source

__all__ = ["mondrian", "check_feasible", "infeasible_error"]


def mondrian(source: Source, rules: Rules) -> int:
    """Greedy top-down partitioning of ``source``'s rows, one BFS level at a time; returns the
    number of accepted splits (the source holds every row's final group, numbered in the order
    groups are finished).

    Candidate splits and their children's terms are computed for the whole level at once;
    accepting them stays sequential in queue order (exactly Fig. 4's FIFO), since each
    accepted split lowers the global statistics the next one is judged against.  Finished
    groups are numbered in level order, and the children of a level's splits group by group,
    in child order."""
    rules.n_rows, rules.placed = source.n_rows, 0
    if rules.policy_mode:
        rules.start_statistics(source.root(), source.n_rows)
    splitting = rules.splitting(source.n_rows)
    n_final = n_splits = 0
    criteria = rules.criteria
    while source.n_parts:
        cands: dict = (source.candidates(need_counts=rules.need_counts) if splitting
                       else {"n": 0, "part_rows": source.sizes})
        sizes = source.sizes  # known once the level's candidates are (Dask workers tell)
        rules.level_sizes = sizes
        chosen = np.full(len(cands["part_rows"]), -1, dtype=np.int64)
        if cands["n"]:
            rules.decide(cands, chosen)
        n_children = source.decided(cands, chosen)
        split = n_children > 0
        final_id = np.full(len(split), -1, dtype=np.int64)
        final_id[~split] = n_final + np.arange(int((~split).sum()))
        n_final += int((~split).sum())
        new_base = np.full(len(split), -1, dtype=np.int64)
        new_base[split] = np.cumsum(n_children[split]) - n_children[split]
        n_splits += int(split.sum())
        rules.placed += int(sizes[~split].sum())
        if criteria is not None:
            criteria.advance(sizes, split, n_children, new_base)
        source.advance(final_id, new_base)
        rules.report(rules.placed)
    return n_splits + source.finish()


def check_feasible(root: SparseGroups, values: list, semantics: str, policy: Policy) -> None:
    """The whole table as one group must be safe (Theorem 4's premise); say what fails if
    not.  ``root`` is that group, as :meth:`Source.root` gives it."""
    whole = ReleaseCandidate.from_nonzeros(root.sizes, root.group, root.value, root.count,
                                           values, semantics=semantics)
    with warnings.catch_warnings():  # unused policy values are reported by the certificate
        warnings.simplefilter("ignore", UnusedPolicyValueWarning)
        verdict = skyline_check(whole, policy)
    if not verdict.safe:
        raise infeasible_error(whole, verdict)


def infeasible_error(root: ReleaseCandidate, check) -> InfeasibleError:
    """The error for a policy even the whole table breaks, with a way forward: which points
    fail on the whole table and, for those values, the strongest knowledge the whole table
    withstands (its knowledge skyline at the failing point's confidence)."""
    from ..find import skyline_find

    failing = check.violations
    withstands: dict = {}
    for row in failing:
        key = (row.value, row.point.c_exact)
        if key not in withstands and len(withstands) < 5:
            withstands[key] = skyline_find(root, row.value, c=row.point.c_exact).points
    first = failing[0]
    best = withstands[(first.value, first.point.c_exact)]
    strongest = (f"the whole table withstands at most (l, k, m) in {list(best)[:6]}"
                 f"{' ...' if len(best) > 6 else ''} for {first.value!r} at c = "
                 f"{confidence_text(first.point.c_exact)}" if best else
                 f"the whole table is unsafe for {first.value!r} even with no knowledge at c = "
                 f"{confidence_text(first.point.c_exact)} (its breach probability without "
                 f"knowledge is {_bp0(root, first.value)}: c must be above it)")
    error = InfeasibleError(
        f"Even the whole table as one group is unsafe: {len(failing)} (value, point) "
        f"check(s) fail, first {first.value!r} at {first.point} with breach probability "
        f"{readable_fraction(first.breach_probability)} "
        f"({percent_text(first.breach_probability, first.point.c_exact)}); {strongest}; no "
        f"generalization can satisfy the policy: relax the failing points to what the table "
        f"withstands.")
    error.failing = [row.to_dict() for row in failing]
    error.withstands = [{"value": value if isinstance(value, (int, float)) else str(value),
                         "c": str(c), "points": [list(p) for p in points]}
                        for (value, c), points in withstands.items()]
    return error


def _bp0(root: ReleaseCandidate, value) -> str:
    from ..formulas import breach_probability
    bp = breach_probability(root, value, l=0, k=0, m=0, exact=True)
    return f"{readable_fraction(bp)} ({percent_text(bp)})"
