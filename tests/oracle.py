"""Brute-force breach probabilities written from the definitions, for tiny releases.

Nothing here uses the closed forms, the congregation property or Theorem 2.  It enumerates:

* every reconstruction (Sect. 2.1): each labelled occurrence of each value in a group is matched
  with an individual of that group, subject to the integrity constraint (svpi: each individual
  gets exactly one occurrence; mvpi-set: no individual gets two occurrences of one value;
  mvpi-multiset: anything).  Reconstructions that give every individual the same values are
  merged and carry their multiplicity as a weight, so the random-worlds probabilities are
  exact integer ratios;
* every grounding of the knowledge of Definitions 1 and 2 with at most (l, k, m) pieces: the
  target t, the ruled-out / co-occurring values x_i, the known individuals u_i (and, in svpi,
  every combination of their values y_i, through the values they actually hold), and the family
  members v_i, with the grounding constraints u_i != t, v_i != t, v_i != u_j;

and returns max Pr(sigma in t[S] | K, D*) over the consistent groundings (Definition 3), as an
exact Fraction.  The only shortcut is exchangeability: individuals of one group are
interchangeable under the uniform distribution over reconstructions, so a grounding is fixed by
*how many* known individuals and family members sit in each group.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np


def _group_reconstructions(n: int, occurrences: list[int], n_values: int, semantics: str):
    """Counter: holding matrix (n x V, as bytes key) -> number of labelled reconstructions."""
    out: Counter = Counter()
    shapes = {}
    for assignment in itertools.product(range(n), repeat=len(occurrences)):
        holding = np.zeros((n, n_values), dtype=np.int64)
        for person, value in zip(assignment, occurrences):
            holding[person, value] += 1
        if semantics == "svpi" and not (holding.sum(axis=1) == 1).all():
            continue
        if semantics == "mvpi-set" and (holding > 1).any():
            continue
        key = holding.tobytes()
        out[key] += 1
        shapes[key] = holding
    return [(shapes[key], weight) for key, weight in out.items()]


def reconstructions(groups, values, semantics):
    """All reconstructions of the release: (holdings R x N x V, weights R, group of person)."""
    index = {v: j for j, v in enumerate(values)}
    per_group = []
    owner = []
    for g, (n, vals) in enumerate(groups):
        occurrences = [index[v] for v in vals]
        per_group.append(_group_reconstructions(n, occurrences, len(values), semantics))
        owner += [g] * n
    holdings, weights = [], []
    for combo in itertools.product(*per_group):
        holdings.append(np.vstack([h for h, _ in combo]))
        weight = 1
        for _, w in combo:
            weight *= w
        weights.append(weight)
    return np.stack(holdings), np.array(weights, dtype=np.int64), np.array(owner)


def breach_grid(groups, sigma, semantics, l_max, k_max, m_max):
    """BP(l, k, m) for every l <= l_max, k <= k_max, m <= m_max, as a dict of Fractions.

    Parameters
    ----------
    groups : list of (n, values)
    sigma : the target value (may be absent from the release: BP = 0 everywhere)
    semantics : 'svpi', 'mvpi-set' or 'mvpi-multiset'
    """
    values = sorted({v for _, vals in groups for v in vals} | {sigma})
    s = values.index(sigma)
    H, W, owner = reconstructions(groups, values, semantics)
    n_values = len(values)
    members = {g: np.flatnonzero(owner == g).tolist() for g in set(owner.tolist())}
    sizes = {g: len(p) for g, p in members.items()}
    has = H >= 1  # R x N x V
    weights = W
    best: dict = {}

    def record(size_key, prob):
        if prob > best.get(size_key, Fraction(-1)):
            best[size_key] = prob

    value_subsets = [xs for r in range(0, min(l_max, n_values) + 1)
                     for xs in itertools.combinations(range(n_values), r)]
    group_ids = sorted(members)
    for tg in group_ids:
        t = members[tg][0]
        event = has[:, t, s]
        # per group: how many known (u) and family (v) individuals; t's group has one fewer slot
        ranges = []
        for g in group_ids:
            free = sizes[g] - (1 if g == tg else 0)
            ranges.append([(u, v) for u in range(free + 1) for v in range(free + 1 - u)])
        for placement in itertools.product(*ranges):
            n_u = sum(u for u, _ in placement)
            n_v = sum(v for _, v in placement)
            if n_u > k_max or n_v > m_max:
                continue
            U, V = [], []
            for g, (u, v) in zip(group_ids, placement):
                others = [p for p in members[g] if p != t]
                U += others[:u]
                V += others[u:u + v]
            base = np.ones(len(weights), dtype=bool)
            for v in V:  # family: sigma in v -> sigma in t
                base &= ~has[:, v, s] | event
            if semantics == "svpi":
                if U:
                    held = H[:, U, :].argmax(axis=2)  # the one value each u holds
                    key = (held * (n_values ** np.arange(len(U)))).sum(axis=1)
                else:
                    key = np.zeros(len(weights), dtype=np.int64)
            else:
                for u in U:
                    base &= ~has[:, u, s]
                key = np.zeros(len(weights), dtype=np.int64)
            for xs in value_subsets:
                cond = base.copy()
                for x in xs:
                    if semantics == "svpi":
                        cond &= ~has[:, t, x]
                    else:  # x in t -> sigma in t
                        cond &= ~has[:, t, x] | event
                size_key = (len(xs), n_u, n_v)
                if not cond.any():
                    continue
                keys, inverse = np.unique(key[cond], return_inverse=True)
                totals = np.bincount(inverse, weights=weights[cond], minlength=len(keys))
                hits = np.bincount(inverse, weights=weights[cond] * event[cond],
                                   minlength=len(keys))
                for total, hit in zip(totals.tolist(), hits.tolist()):
                    if total > 0:
                        record(size_key, Fraction(int(hit), int(total)))
    grid = {}
    for l in range(l_max + 1):
        for k in range(k_max + 1):
            for m in range(m_max + 1):
                grid[(l, k, m)] = max(
                    [p for (a, b, c), p in best.items() if a <= l and b <= k and c <= m],
                    default=Fraction(0))
    if not (H[:, :, s] > 0).any():
        grid = {key: Fraction(0) for key in grid}
    return grid
