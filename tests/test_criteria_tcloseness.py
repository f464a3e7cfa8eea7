"""t-closeness with the hierarchical ground distance (skyprivacy/criteria.py, TCloseness with
distance='hierarchical'): values computed by hand on the example of Li, Li and
Venkatasubramanian (2007), a brute-force oracle that solves the EMD as a min-cost flow over
every pair of values at ground distance level(lca) / H, monotonicity under merging, the
full-domain search, and every message."""
import random
import re
from collections import Counter
from fractions import Fraction

import networkx as nx
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skyprivacy import ReleaseCandidate
from skyprivacy.anonymize.lattice import full_domain_search
from skyprivacy.criteria import KAnonymity, TCloseness, evaluate
from skyprivacy.errors import InvalidParameterError
from skyprivacy.hierarchy import Hierarchy

# The Disease hierarchy of the paper's example (H = 3): respiratory infections and vascular
# lung diseases under respiratory system diseases; stomach and colon diseases under
# digestive system diseases; both under one root.
DISEASE = Hierarchy([
    ["flu", "respiratory infection", "respiratory system", "*"],
    ["pneumonia", "respiratory infection", "respiratory system", "*"],
    ["bronchitis", "respiratory infection", "respiratory system", "*"],
    ["pulmonary edema", "vascular lung", "respiratory system", "*"],
    ["pulmonary embolism", "vascular lung", "respiratory system", "*"],
    ["gastric ulcer", "stomach", "digestive system", "*"],
    ["gastritis", "stomach", "digestive system", "*"],
    ["stomach cancer", "stomach", "digestive system", "*"],
    ["colitis", "colon", "digestive system", "*"],
    ["colon cancer", "colon", "digestive system", "*"],
], name="disease")

# The paper's nine patients (salary in thousands, disease) in its three 3-anonymous classes
# of the t-close table: records {1, 3, 8}, {4, 5, 6}, {2, 7, 9}.
CLASSES = [
    [(3, "gastric ulcer"), (5, "stomach cancer"), (9, "pneumonia")],
    [(6, "gastritis"), (11, "flu"), (8, "bronchitis")],
    [(4, "gastritis"), (7, "bronchitis"), (10, "stomach cancer")],
]


def test_the_paper_s_example_by_hand():
    release = ReleaseCandidate.from_groups([(3, [d for _, d in c]) for c in CLASSES])
    # Q = gastric ulcer 1/9, gastritis 2/9, stomach cancer 2/9, flu 1/9, bronchitis 2/9,
    # pneumonia 1/9.  Class 1: extras +2/9, -2/9, +1/9 under 'stomach' (min(3/9, 2/9) = 2/9
    # crosses it, cost 1/3 each), -1/9, -2/9, +2/9 under 'respiratory infection' (2/9, 1/3),
    # and 1/9 crosses the root (cost 1): 2/27 + 2/27 + 3/27 = 7/27.
    # Class 2: 1/9 inside 'stomach', 1/9 inside 'respiratory infection', 2/9 across the
    # root: 1/27 + 1/27 + 6/27 = 8/27.  Class 3: 1/27 + 1/27 + 3/27 = 5/27.
    criterion = TCloseness(Fraction(8, 27), distance="hierarchical", hierarchy=DISEASE)
    assert criterion.distances(release) == (Fraction(7, 27), Fraction(8, 27), Fraction(5, 27))
    assert criterion.evaluate(release).safe
    assert not TCloseness(Fraction(7, 27), distance="hierarchical",
                          hierarchy=DISEASE).evaluate(release).safe
    # the classes are the paper's: their salaries are 1/6-close with the ordered distance
    salaries = ReleaseCandidate.from_groups([(3, [s for s, _ in c]) for c in CLASSES])
    assert TCloseness(Fraction(1, 6), distance="ordered").distances(salaries) == (
        Fraction(1, 6), Fraction(1, 6), Fraction(1, 12))
    # a class of digestive diseases alone: all of Q's respiratory mass, 4/9, crosses the root
    homogeneous = ReleaseCandidate.from_groups(
        [(3, ["gastric ulcer", "gastritis", "stomach cancer"]),
         (6, ["gastritis", "stomach cancer", "flu", "bronchitis", "bronchitis", "pneumonia"])])
    assert criterion.distances(homogeneous)[0] == Fraction(4, 9)


def emd_by_flow(groups, hierarchy):
    """Each group's EMD from the whole release as a min-cost flow: masses scaled to integers
    (c_v N at the group's values, n T_v at the release's), every pair of values joined at
    ground distance level(lca), the cost divided by H n N."""
    totals = Counter(v for g in groups for v in g)
    n_all = sum(totals.values())
    values = sorted(totals)
    out = []
    for g in groups:
        counts, n = Counter(g), len(g)
        graph = nx.DiGraph()
        for v in values:
            graph.add_node(("p", v), demand=-counts.get(v, 0) * n_all)
            graph.add_node(("q", v), demand=n * totals[v])
        for a in values:
            for b in values:
                graph.add_edge(("p", a), ("q", b),
                               weight=0 if a == b else hierarchy.lca_node([a, b])[0])
        cost = nx.min_cost_flow_cost(graph)
        out.append(Fraction(cost, hierarchy.height * n * n_all))
    return tuple(out)


def random_tree(rng: random.Random, leaves: list) -> Hierarchy:
    height = rng.randint(1, 4)
    columns, current = [list(leaves)], {v: v for v in leaves}
    for level in range(1, height):
        labels = sorted(set(current.values()))
        parent = {label: f"n{level}_{rng.randrange(max(1, len(labels) - 1))}"
                  for label in labels}
        current = {v: parent[current[v]] for v in leaves}
        columns.append([current[v] for v in leaves])
    columns.append(["*"] * len(leaves))
    return Hierarchy([list(row) for row in zip(*columns)], name="s")


def test_the_tree_formula_is_the_min_cost_flow_on_random_cases():
    rng = random.Random("hierarchical-emd")
    for _ in range(150):
        domain = [f"v{i}" for i in range(rng.randint(2, 7))]
        hierarchy = random_tree(rng, domain)
        groups = [[rng.choice(domain) for _ in range(rng.randint(1, 6))]
                  for _ in range(rng.randint(1, 5))]
        release = ReleaseCandidate.from_groups([(len(g), g) for g in groups])
        criterion = TCloseness(0.5, distance="hierarchical", hierarchy=hierarchy)
        assert criterion.distances(release) == emd_by_flow(groups, hierarchy), (groups,
                                                                                 hierarchy.rows)


FLAT = Hierarchy([[v, "*"] for v in "abcd"], name="s")
TWO_LEVELS = Hierarchy([["a", "ab", "*"], ["b", "ab", "*"], ["c", "cd", "*"],
                        ["d", "cd", "*"]], name="s")
groups_strategy = st.lists(st.lists(st.sampled_from("abcd"), min_size=1, max_size=6),
                           min_size=2, max_size=5)


@settings(max_examples=80, deadline=None)
@given(groups=groups_strategy)
def test_a_flat_hierarchy_is_the_equal_distance(groups):
    release = ReleaseCandidate.from_groups([(len(g), g) for g in groups])
    assert TCloseness(0.5, distance="hierarchical", hierarchy=FLAT).distances(release) == \
        TCloseness(0.5).distances(release)


@settings(max_examples=80, deadline=None)
@given(groups=groups_strategy, data=st.data())
def test_merging_two_groups_never_moves_them_farther(groups, data):
    i, j = data.draw(st.sampled_from([(i, j) for i in range(len(groups))
                                      for j in range(i + 1, len(groups))]))
    criterion = TCloseness(Fraction(1, 3), distance="hierarchical", hierarchy=TWO_LEVELS)
    before = criterion.distances(ReleaseCandidate.from_groups([(len(g), g) for g in groups]))
    merged = [g for k, g in enumerate(groups) if k not in (i, j)] + [groups[i] + groups[j]]
    after = criterion.distances(ReleaseCandidate.from_groups([(len(g), g) for g in merged]))
    assert after[-1] <= max(before[i], before[j])
    assert criterion.is_monotone() and not criterion.is_monotone(suppression=True)


def test_the_full_domain_search_and_evaluate_take_it():
    table = pd.DataFrame({"zip": list("11223344"), "s": list("abcdacbd")})
    zips = Hierarchy([["1", "12", "*"], ["2", "12", "*"], ["3", "34", "*"], ["4", "34", "*"]],
                     name="zip")
    # Q is uniform.  Level 0: {a, b} and {c, d} move 1/2 across the root (distance 1/2);
    # {a, c} and {b, d} move 1/4 inside 'ab' and 'cd' at 1/2 each (1/4).  Level 1: '12' and
    # '34' hold every value once (0).
    wide = TCloseness(Fraction(1, 2), distance="hierarchical", hierarchy=TWO_LEVELS)
    strict = TCloseness(Fraction(1, 4), distance="hierarchical", hierarchy=TWO_LEVELS)
    options = {"qi": ["zip"], "sensitive": "s", "hierarchies": {"zip": zips},
               "objective": "height"}
    result = full_domain_search(table, criteria=[wide], **options)
    assert result.levels == {"zip": 0}
    assert strict.distances(result.candidate) == (Fraction(1, 2), Fraction(1, 2),
                                                  Fraction(1, 4), Fraction(1, 4))
    assert evaluate(result.candidate, [wide, strict, KAnonymity(2)])["safe"].tolist() == [
        True, False, True]
    assert full_domain_search(table, criteria=[strict], **options).levels == {"zip": 1}
    exhaustive = full_domain_search(table, criteria=[strict], exhaustive=True, **options)
    assert exhaustive.levels == {"zip": 1} and exhaustive.nodes_checked == 3


@pytest.mark.parametrize("make, message", [
    (lambda: TCloseness(0.2, distance="hierarchical"),
     "The 'hierarchy' parameter of TCloseness must be a Hierarchy of the sensitive attribute "
     "with distance='hierarchical'. Got 'NoneType' instead."),
    (lambda: TCloseness(0.2, distance="hierarchical", hierarchy={"a": "*"}),
     "The 'hierarchy' parameter of TCloseness must be a Hierarchy of the sensitive attribute "
     "with distance='hierarchical'. Got 'dict' instead."),
    (lambda: TCloseness(0.2, hierarchy=FLAT),
     "TCloseness takes a 'hierarchy' only with distance='hierarchical'."),
    (lambda: TCloseness(0.2, distance="hierarchical", hierarchy=FLAT, order=["a"]),
     "TCloseness takes an 'order' only with distance='ordered'."),
    (lambda: TCloseness(0.2, distance="hierarchical", hierarchy=FLAT).evaluate(
        ReleaseCandidate.from_groups([(2, ["a", "x"]), (1, ["y"])])),
     "The hierarchy of TCloseness must cover every sensitive value of the release. Got a "
     "hierarchy without ['x', 'y'] instead (its leaves include ['a', 'b', 'c', 'd'])."),
    (lambda: TCloseness(0.2, distance="hierarchical", hierarchy=FLAT).distances([1]),
     "The 'release' parameter of TCloseness must be a ReleaseCandidate. Got 'list' instead."),
])
def test_messages(make, message):
    with pytest.raises(InvalidParameterError, match=f"^{re.escape(message)}$"):
        make()


def test_large_counts_stay_exact():
    big = ReleaseCandidate.from_counts([3_000_000_000, 1_000_000_000],
                                       [[2_000_000_000, 1_000_000_000, 0, 0],
                                        [0, 0, 500_000_000, 500_000_000]], list("abcd"))
    got = TCloseness(0.5, distance="hierarchical", hierarchy=TWO_LEVELS).distances(big)
    # Q = (1/2, 1/4, 1/8, 1/8); group 0 = (2/3, 1/3, 0, 0): 1/4 crosses the root -> 1/4
    assert got[0] == Fraction(1, 4)
    assert got[1] == Fraction(3, 4)  # (0, 0, 1/2, 1/2): 3/4 crosses the root
