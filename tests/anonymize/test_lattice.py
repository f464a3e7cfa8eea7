"""Full-domain optimal search: the pruned search against every node of the lattice checked
from the definitions (pandas generalization, grouping and the objectives written out), the
suppression budget, an independent re-check of every release, and the errors."""

from __future__ import annotations

import itertools
import math
import random
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from skyprivacy.anonymize.lattice import MASK, full_domain_search, suppression_budget
from skyprivacy.criteria import (
    AverageRisk,
    BetaLikeness,
    DeltaDisclosure,
    DistinctLDiversity,
    EntropyLDiversity,
    KAnonymity,
    ProsecutorRisk,
    RecursiveCLDiversity,
    TCloseness,
)
from skyprivacy.errors import InfeasibleError, InvalidParameterError, SchemaError
from skyprivacy.hierarchy import Hierarchy
from skyprivacy.knowledge import Policy
from skyprivacy.release import ReleaseCandidate

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracle import breach_grid  # noqa: E402


# ------------------------------------------------------------------ random tables, hierarchies
def random_hierarchy(rng: random.Random, values: list, name: str) -> Hierarchy:
    """Leaves ``values``, 1 to 3 levels of random merges, root ``'*'``."""
    height = rng.randint(1, 3)
    columns = [list(values)]
    current = {v: v for v in values}
    for level in range(1, height):
        labels = sorted(set(current.values()), key=str)
        parents = {label: f"{name}{level}_{rng.randrange(max(1, len(labels) - 1))}"
                   for label in labels}
        current = {v: parents[current[v]] for v in values}
        columns.append([current[v] for v in values])
    columns.append([MASK] * len(values))
    return Hierarchy([list(row) for row in zip(*columns)], name=name)


def random_case(rng: random.Random, n_max: int = 9):
    n_qi = rng.randint(1, 3)
    n = rng.randint(3, n_max)
    qi = [f"q{j}" for j in range(n_qi)]
    data, hierarchies = {}, {}
    for name in qi:
        domain = [f"{name}v{i}" for i in range(rng.randint(1, 4))]
        data[name] = [rng.choice(domain) for _ in range(n)]
        hierarchies[name] = random_hierarchy(rng, domain, name)
    data["s"] = [rng.choice("abc") for _ in range(n)]
    return pd.DataFrame(data, index=[f"r{i}" for i in range(n)]), qi, hierarchies


def random_criteria(rng: random.Random, kind: str) -> list:
    makers = {
        "k": lambda: KAnonymity(rng.randint(2, 3)),
        "distinct": lambda: DistinctLDiversity(2),
        "entropy": lambda: EntropyLDiversity(rng.choice([Fraction(3, 2), 2])),
        "recursive": lambda: RecursiveCLDiversity(2, 2),
        "t": lambda: TCloseness(rng.choice([Fraction(1, 3), Fraction(1, 2)])),
        "t-ordered": lambda: TCloseness(Fraction(1, 2), distance="ordered"),
        "t-hier": lambda: TCloseness(rng.choice([Fraction(1, 3), Fraction(1, 2)]),
                                     distance="hierarchical",
                                     hierarchy=random_hierarchy(rng, list("abc"), "s")),
        "beta": lambda: BetaLikeness(rng.choice([1, 2])),
        "delta": lambda: DeltaDisclosure(rng.choice([1, 2])),
        "prosecutor": lambda: ProsecutorRisk(Fraction(1, 2)),
        "average": lambda: AverageRisk(Fraction(1, 2)),
    }
    if kind == "combined":
        return [makers[name]() for name in rng.sample(sorted(makers), 2)]
    return [makers[kind]()]


# ------------------------------------------------------------------ the exhaustive checker
def generalized(table, qi, hierarchies, levels) -> pd.DataFrame:
    out = table.copy()
    for name, level in zip(qi, levels):
        out[name] = pd.Series(hierarchies[name].generalize(list(table[name]), level),
                              index=table.index, dtype=object)
    return out


def row_keys(frame, qi) -> list:
    return list(zip(*(frame[name] for name in qi)))


def failing_rows(frame, qi, criteria) -> np.ndarray:
    release = ReleaseCandidate.from_table(frame, sensitive="s", qi=qi)
    labels = [label if isinstance(label, tuple) else (label,) for label in release.group_labels]
    failing = set()
    for criterion in criteria:
        if criterion.per_group:
            for label, ok in zip(labels, criterion.evaluate(release).group_safe):
                if not ok:
                    failing.add(label)
    return np.array([key in failing for key in row_keys(frame, qi)], dtype=bool)


def fixed_log2(count: int) -> int:
    """log2(count) rounded to a multiple of 2^-32 (the entropy's documented fixed point)."""
    return round(math.log2(count) * 2 ** 32)


def objective_of(name, table, frame, qi, hierarchies, levels, failing) -> object:
    n = len(table)
    suppressed = int(failing.sum())
    if name == "height":
        return sum(levels)
    if name == "loss":
        total = Fraction(0)
        for column, level in zip(qi, levels):
            hierarchy = hierarchies[column]
            domain = len(hierarchy.leaves) - 1
            for label in frame.loc[~failing, column]:
                if domain:
                    under = len(hierarchy.leaves_under((level, label)))
                    total += Fraction(under - 1, domain)
            total += suppressed
        return total / (n * len(qi))
    if name == "precision":  # 1 - precision: level / height per kept cell, 1 if suppressed
        total = Fraction(0)
        for column, level in zip(qi, levels):
            height = hierarchies[column].height
            total += (n - suppressed) * (Fraction(level, height) if height else 0) + suppressed
        return total / (n * len(qi))
    if name == "entropy":  # -log2 P(value | released value) per cell, whole domain if suppressed
        units = 0
        for column in qi:
            counts = table[column].value_counts()
            under = frame[column].value_counts()
            for row in range(n):
                mass = n if failing[row] else under[frame[column].iloc[row]]
                units += fixed_log2(mass) - fixed_log2(counts[table[column].iloc[row]])
        return Fraction(units, 2 ** 32)
    sizes = pd.Series(row_keys(frame.loc[~failing], qi)).value_counts().to_numpy()
    if name == "discernibility":
        return int((sizes ** 2).sum()) + suppressed * n
    return Fraction(n, len(sizes) + (1 if suppressed else 0))


def node_outcome(table, qi, hierarchies, criteria, levels, budget, mask, objective):
    """(safe, suppressed, objective, released table) of one node, from the definitions."""
    frame = generalized(table, qi, hierarchies, levels)
    failing = failing_rows(frame, qi, criteria)
    if failing.sum() > budget:
        return False, None, None, None
    released = frame.copy()
    if mask and failing.any():
        released.loc[failing, qi] = MASK
    else:
        released = released.loc[~failing]
    if len(released) == 0:
        return False, None, None, None
    release = ReleaseCandidate.from_table(released, sensitive="s", qi=qi)
    if not all(c.evaluate(release).safe for c in criteria):
        return False, None, None, None
    value = objective_of(objective, table, frame, qi, hierarchies, levels, failing)
    return True, int(failing.sum()), value, released


def exhaustive(table, qi, hierarchies, criteria, budget, mask, objective):
    best = None
    for levels in itertools.product(*(range(hierarchies[c].height + 1) for c in qi)):
        safe, suppressed, value, _ = node_outcome(table, qi, hierarchies, criteria, levels,
                                                  budget, mask, objective)
        if safe and (best is None or (value, levels) < best[:2]):
            best = (value, levels, suppressed)
    return best


# ------------------------------------------------------------------ independent re-check
def recheck(released: pd.DataFrame, qi, criteria) -> None:
    """Every criterion on the released table; k and distinct l from pandas grouping alone."""
    groups = released.groupby(qi, sort=False)["s"]
    release = ReleaseCandidate.from_table(released, sensitive="s", qi=qi)
    for criterion in criteria:
        if isinstance(criterion, KAnonymity):
            assert groups.size().min() >= criterion.k
        elif isinstance(criterion, DistinctLDiversity):
            assert groups.nunique().min() >= criterion.l
        assert criterion.evaluate(release).safe, criterion


def search_matches_exhaustive(table, qi, hierarchies, criteria, limit, objective, *,
                              suppressed=None, label=None):
    """full_domain_search against the exhaustive search of the same lattice: the same optimum,
    the suppression within the budget and the release re-checked, or the same refusal when no
    node is safe (then None is returned)."""
    budget = suppression_budget(limit, len(table), "test")
    expected = exhaustive(table, qi, hierarchies, criteria, budget, suppressed == "mask",
                          objective)
    options = {"qi": qi, "sensitive": "s", "criteria": criteria, "hierarchies": hierarchies,
               "suppression_limit": limit, "objective": objective}
    if suppressed is not None:
        options["suppressed"] = suppressed
    if expected is None:
        with pytest.raises(InfeasibleError, match="No generalization of"):
            full_domain_search(table, **options)
        return None
    result = full_domain_search(table, **options)
    value, levels, n_suppressed = expected
    assert (result.value, tuple(result.levels.values())) == (value, levels), label
    assert result.suppressed == n_suppressed <= budget
    recheck(result.table, qi, criteria)
    return result


KINDS = ["k", "distinct", "entropy", "recursive", "t", "t-ordered", "t-hier", "beta", "delta",
         "prosecutor", "average", "combined", "combined"]


@pytest.mark.parametrize("kind", KINDS)
def test_the_pruned_optimum_is_the_best_node_of_the_lattice(kind):
    rng = random.Random(f"lattice-{kind}")
    compared = infeasible = 0
    for case in range(24):
        table, qi, hierarchies = random_case(rng)
        before = table.copy()
        criteria = random_criteria(rng, kind)
        limit = rng.choice([0, 0, Fraction(1, 5), Fraction(2, 5)])
        suppressed = rng.choice(["drop", "mask"])
        objective = rng.choice(["loss", "precision", "height", "discernibility", "aecs",
                                "entropy"])
        budget = suppression_budget(limit, len(table), "test")
        expected = exhaustive(table, qi, hierarchies, criteria, budget,
                              suppressed == "mask" and budget > 0, objective)
        if expected is None:
            with pytest.raises(InfeasibleError, match="No generalization of"):
                full_domain_search(table, qi=qi, sensitive="s", criteria=criteria,
                                   hierarchies=hierarchies, suppression_limit=limit,
                                   suppressed=suppressed, objective=objective)
            infeasible += 1
            continue
        result = full_domain_search(table, qi=qi, sensitive="s", criteria=criteria,
                                    hierarchies=hierarchies, suppression_limit=limit,
                                    suppressed=suppressed, objective=objective)
        pd.testing.assert_frame_equal(table, before)
        value, levels, n_suppressed = expected
        assert (result.value, tuple(result.levels.values())) == (value, levels), (
            case, criteria, limit, suppressed, objective)
        assert result.suppressed == n_suppressed <= budget
        assert result.nodes_checked <= result.lattice_size
        if suppressed == "drop":
            assert len(result.table) == len(table) - result.suppressed
        else:
            assert len(result.table) == len(table)
        recheck(result.table, qi, criteria)
        assert result.candidate == ReleaseCandidate.from_table(result.table, sensitive="s",
                                                               qi=qi)
        compared += 1
    assert compared >= 12 and compared + infeasible == 24


def skyline_safe_by_oracle(released: pd.DataFrame, qi, point) -> bool:
    l, k, m, c = point
    groups = [(len(rows), list(rows["s"])) for _, rows in released.groupby(qi, sort=False)]
    values = sorted(set(released["s"]))
    return all(breach_grid(groups, sigma, "svpi", l, k, m)[(l, k, m)] < c for sigma in values)


def test_skyline_policy_optimum_and_release_against_the_brute_force_oracle():
    rng = random.Random("lattice-skyline")
    compared = 0
    for _ in range(20):
        table, qi, hierarchies = random_case(rng, n_max=5)
        point = rng.choice([(0, 0, 0, Fraction(2, 3)), (1, 0, 0, Fraction(9, 10)),
                            (0, 1, 0, Fraction(3, 4))])
        criteria = [Policy.uniform([point])]
        if rng.random() < 0.5:
            criteria.append(KAnonymity(2))
        from skyprivacy.criteria import as_criteria
        listed = as_criteria(criteria)
        expected = exhaustive(table, qi, hierarchies, listed, 0, False, "loss")
        if expected is None:
            continue
        result = full_domain_search(table, qi=qi, sensitive="s", criteria=criteria,
                                    hierarchies=hierarchies)
        assert (result.value, tuple(result.levels.values())) == expected[:2]
        assert skyline_safe_by_oracle(result.table, qi, point)
        compared += 1
    assert compared >= 8


def test_a_generalization_of_a_safe_node_may_be_unsafe_under_suppression():
    """Distinct 2-diversity, half the rows suppressible, masked: at level 0 the rows of 'b'
    (x) and 'c' (y) are masked into one 2-diverse group; at level 1 'ab' absorbs 'b' and the
    masked group is 'c' alone (y), not 2-diverse; at level 2 all is one group.  A search that
    pruned (level 1 unsafe, so level 0 unsafe) would return level 2."""
    table = pd.DataFrame({"q": ["a", "a", "b", "c"], "s": ["x", "y", "x", "y"]})
    hierarchy = Hierarchy([["a", "ab", "*"], ["b", "ab", "*"], ["c", "c1", "*"]], name="q")
    criteria = [DistinctLDiversity(2)]
    safe = {level: node_outcome(table, ["q"], {"q": hierarchy}, criteria, (level,), 2, True,
                                "height")[0] for level in range(3)}
    assert safe == {0: True, 1: False, 2: True}
    assert not DistinctLDiversity(2).is_monotone("svpi", suppression=True)
    for objective in ("height", "loss", "precision", "entropy"):
        result = full_domain_search(table, qi=["q"], sensitive="s", criteria=criteria,
                                    hierarchies={"q": hierarchy}, suppression_limit=0.5,
                                    suppressed="mask", objective=objective)
        assert result.levels == {"q": 0} and result.suppressed == 2
        assert list(result.table["q"]) == ["a", "a", MASK, MASK]
        recheck(result.table, ["q"], criteria)


def test_pruning_checks_fewer_nodes_and_the_frontier_is_the_minimal_safe_nodes():
    rng = np.random.default_rng(0)
    table = pd.DataFrame({f"q{j}": rng.integers(0, 8, 400).astype(str) for j in range(3)})
    table["s"] = rng.integers(0, 3, 400).astype(str)
    hierarchies = {name: Hierarchy([[str(v), str(v // 2), str(v // 4), "*"] for v in range(8)],
                                   name=name) for name in ["q0", "q1", "q2"]}
    result = full_domain_search(table, qi=["q0", "q1", "q2"], sensitive="s",
                                criteria=[KAnonymity(5)], hierarchies=hierarchies,
                                frontier=True)
    full = full_domain_search(table, qi=["q0", "q1", "q2"], sensitive="s",
                              criteria=[KAnonymity(5)], hierarchies=hierarchies,
                              exhaustive=True)
    assert result.lattice_size == 64 and full.nodes_checked == 64
    assert (result.levels, result.value) == (full.levels, full.value)
    crit = [KAnonymity(5)]
    safe = {lv for lv in itertools.product(range(4), repeat=3)
            if node_outcome(table, ["q0", "q1", "q2"], hierarchies, crit, lv, 0, False,
                            "height")[0]}
    minimal = {lv for lv in safe
               if not any(o != lv and all(a <= b for a, b in zip(o, lv)) for o in safe)}
    assert {tuple(f.values()) for f in result.frontier} == minimal
    quick = full_domain_search(table, qi=["q0", "q1", "q2"], sensitive="s",
                               criteria=[KAnonymity(5)], hierarchies=hierarchies)
    assert quick.nodes_checked < 64
    assert quick.to_frame().loc[0, "level[q0]"] == quick.levels["q0"]


def test_a_categorical_qi_without_a_hierarchy_gets_the_flat_one():
    table = pd.DataFrame({"q": ["a", "b", "a", "b"], "s": ["x", "y", "y", "x"]})
    result = full_domain_search(table, qi="q", sensitive="s", criteria=KAnonymity(4))
    assert result.levels == {"q": 1} and set(result.table["q"]) == {MASK}


@pytest.mark.parametrize("options, error, message", [
    ({"qi": ["age"]}, InvalidParameterError,
     r"^Column 'age' is numeric and has no hierarchy; full-domain search needs one per QI: "
     r"pass hierarchies=\{'age': skyprivacy.hierarchy.intervals\(values, widths\)\}.$"),
    ({"objective": "ncp"}, InvalidParameterError,
     r"^The 'objective' parameter of anonymize must be one of \['loss', 'precision', "
     r"'height', 'discernibility', 'aecs', 'entropy'\]. Got 'ncp' instead.$"),
    ({"suppressed": "hide"}, InvalidParameterError,
     r"^The 'suppressed' parameter of anonymize must be one of \['drop', 'mask'\]. "
     r"Got 'hide' instead.$"),
    ({"suppression_limit": 1.5}, InvalidParameterError,
     r"^The 'suppression_limit' parameter of anonymize must be a fraction of rows in \[0, 1\]. "
     r"Got 1.5 instead.$"),
    ({"qi": ["zip"]}, SchemaError,
     r"^Column 'zip' is not in the table; columns are \['age', 'sex', 's'\].$"),
    ({"qi": []}, InvalidParameterError,
     r"^The 'qi' parameter of anonymize must name at least one column. Got \[\] instead.$"),
    ({"qi": ["s"]}, InvalidParameterError,
     r"^The 'sensitive' parameter of anonymize must not be a QI. Got 's' instead.$"),
    ({"hierarchies": {"s": None}}, InvalidParameterError,
     r"^The 'hierarchies' parameter of anonymize must name QI columns only \(\['sex'\]\). "
     r"Got 's' instead.$"),
    ({"hierarchies": {"sex": {"F": "*"}}}, InvalidParameterError,
     r"^The 'hierarchies' parameter of anonymize must map QI columns to Hierarchy objects. "
     r"Got 'dict' instead.$"),
    ({"criteria": [KAnonymity(9)]}, InfeasibleError,
     r"^No generalization of \['sex'\] satisfies \[KAnonymity\(k=9\)\] with at most 0 "
     r"suppressed rows \(suppression_limit=0.0\); raise the limit or add levels.$"),
])
def test_errors_name_the_bad_value(options, error, message):
    table = pd.DataFrame({"age": [30, 40], "sex": ["F", "M"], "s": ["x", "y"]})
    arguments = {"qi": ["sex"], "sensitive": "s", "criteria": [KAnonymity(1)], **options}
    with pytest.raises(error, match=message):
        full_domain_search(table, **arguments)


def test_missing_qi_values_and_empty_tables_raise():
    with pytest.raises(SchemaError, match=r"^Column 'q' has 1 missing values; pass "
                                          r"missing='as_value' to treat them as a category.$"):
        full_domain_search(pd.DataFrame({"q": ["a", None], "s": ["x", "y"]}), qi="q",
                           sensitive="s", criteria=KAnonymity(1))
    with pytest.raises(SchemaError, match=r"^The table is empty: there is nothing to "
                                          r"anonymize.$"):
        full_domain_search(pd.DataFrame({"q": [], "s": []}), qi="q", sensitive="s",
                           criteria=KAnonymity(1))
    with pytest.raises(InvalidParameterError, match=r"^The 'table' parameter of anonymize "
                                                    r"must be a pandas DataFrame. Got 'list'"):
        full_domain_search([], qi="q", sensitive="s", criteria=KAnonymity(1))


def test_skyline_with_suppression_optimum_against_every_node_and_the_oracle():
    """The skyline is not monotone under suppression: the search checks nodes in order of
    their exact objective (the k part decides what is suppressed), tags nodes over the
    budget by the k part alone, and refutes nodes by the pinning size before the closed
    form; every optimum is the best node of the lattice, its release safe by the oracle."""
    from skyprivacy.criteria import as_criteria
    rng = random.Random("lattice-skyline-suppression")
    compared = pinned = oracle = 0
    for _ in range(40):
        table, qi, hierarchies = random_case(rng, n_max=7)
        point = rng.choice([(0, 0, 0, Fraction(2, 3)), (1, 0, 0, Fraction(9, 10)),
                            (0, 1, 0, Fraction(3, 4)), (0, 1, 1, Fraction(9, 10)),
                            (1, 2, 0, 1)])
        criteria = as_criteria([Policy.uniform([point])]
                               + ([KAnonymity(rng.randint(1, 3))] if rng.random() < 0.8
                                  else [DistinctLDiversity(2)]))
        limit = rng.choice([Fraction(1, 5), Fraction(2, 5), Fraction(1, 2)])
        suppressed = rng.choice(["drop", "mask"])
        objective = rng.choice(["loss", "precision", "height", "discernibility", "aecs",
                                "entropy"])
        result = search_matches_exhaustive(
            table, qi, hierarchies, criteria, limit, objective, suppressed=suppressed,
            label=(point, criteria, limit, suppressed, objective))
        if result is None:
            continue
        assert result.nodes_checked <= result.lattice_size
        if len(result.table) <= 5:  # the oracle enumerates reconstructions: small ones
            assert skyline_safe_by_oracle(result.table, qi, point)
            oracle += 1
        pinned += point[1] + point[2] > 0
        compared += 1
    assert compared >= 15 and pinned >= 5 and oracle >= 5


def test_the_k_part_tags_nodes_over_the_budget_when_the_skyline_cannot_prune():
    """k = 3 and a skyline under suppression: the nodes whose small classes exceed the
    budget, and their specializations, are tagged without a check."""
    rng = np.random.default_rng(1)
    table = pd.DataFrame({f"q{j}": rng.integers(0, 8, 300).astype(str) for j in range(3)})
    table["s"] = rng.integers(0, 4, 300).astype(str)
    hierarchies = {name: Hierarchy([[str(v), str(v // 2), str(v // 4), "*"] for v in range(8)],
                                   name=name) for name in ["q0", "q1", "q2"]}
    options = {"qi": ["q0", "q1", "q2"], "sensitive": "s", "hierarchies": hierarchies,
               "criteria": [Policy.uniform([(0, 1, 0, Fraction(9, 10))]), KAnonymity(3)],
               "suppression_limit": 0.05}
    quick = full_domain_search(table, **options)
    full = full_domain_search(table, exhaustive=True, **options)
    assert (quick.levels, quick.value, quick.suppressed) == (full.levels, full.value,
                                                              full.suppressed)
    assert full.nodes_checked == 64 and quick.nodes_checked < 64
    pd.testing.assert_frame_equal(quick.table, full.table)


def test_a_group_at_a_skylines_breach_floor_makes_the_release_unsafe():
    """SkylinePolicy.breach_floors: a group where a value held a times, with b the l largest
    counts of the others, has a >= c (n - k - b) breaches (l, k, m, c), whatever the other
    groups are (skyline_check on random releases, several groups, l, k and m)."""
    from skyprivacy.check import skyline_check
    from skyprivacy.criteria import SkylinePolicy
    rng = random.Random("breach-floor")
    hits = 0
    for _ in range(600):
        n = rng.randint(1, 14)
        table = pd.DataFrame({"q": [str(rng.randint(0, 2)) for _ in range(n)],
                              "s": [rng.choice("abcd"[:rng.randint(1, 4)]) for _ in range(n)]})
        point = (rng.randint(0, 2), rng.randint(0, 5), rng.randint(0, 2),
                 Fraction(rng.randint(1, 10), 10))
        criterion = SkylinePolicy(Policy.uniform([point]))
        floors = criterion.breach_floors(sorted(set(table["s"])))
        assert all(f == ((point[0], point[1], point[3]),) for f in floors)
        breached = False
        for _, rows in table.groupby("q"):
            counts = rows["s"].value_counts()
            for value, a in counts.items():
                b = sum(sorted((int(x) for v, x in counts.items() if v != value),
                               reverse=True)[:point[0]])
                breached |= a >= point[3] * (len(rows) - point[1] - b)
        if breached:
            release = ReleaseCandidate.from_table(table, sensitive="s", qi=["q"])
            assert not skyline_check(release, criterion.policy).safe, (table, point)
            hits += 1
    assert hits >= 300
    both = SkylinePolicy(Policy({"a": [(0, 3, 0, 0.9)]}, default=[(1, 1, 1, 0.5)]))
    assert both.breach_floors(["a", "z"]) == [((0, 3, Fraction(9, 10)),),
                                              ((1, 1, Fraction(1, 2)),)]
    assert SkylinePolicy(Policy({"a": [(0, 3, 0, 0.9)]})).breach_floors(["z"]) == [()]


FLOOR_POINTS = [(0, 0, 0, Fraction(2, 3)), (1, 0, 0, Fraction(9, 10)), (1, 2, 1, Fraction(3, 4)),
                (2, 1, 0, Fraction(1, 2)), (0, 1, 0, 1), (1, 1, 0, Fraction(4, 5))]


def random_floor_criteria(rng, *, with_k: float) -> list:
    """A random skyline policy (:func:`random_floor_policy`), with k-anonymity (k up to 3)
    beside it in a share ``with_k`` of the draws."""
    from skyprivacy.criteria import as_criteria
    return as_criteria([random_floor_policy(rng)]
                       + ([KAnonymity(rng.randint(1, 3))] if rng.random() < with_k else []))


def random_floor_policy(rng: random.Random) -> Policy:
    """A uniform policy of one or two points, or value 'a' on its own skyline (with or
    without a default for the others)."""
    shape = rng.choice(["one", "two", "value", "value-only"])
    if shape == "one":
        return Policy.uniform([rng.choice(FLOOR_POINTS)])
    if shape == "two":
        return Policy.uniform(rng.sample(FLOOR_POINTS, 2))
    default = None if shape == "value-only" else [rng.choice(FLOOR_POINTS)]
    return Policy({"a": [rng.choice(FLOOR_POINTS)]}, default=default)


def test_the_breach_floor_tags_only_nodes_whose_specializations_are_all_unsafe():
    """The proof of the breach-floor rule, node by node: wherever the first stage of a check
    says the rows the k part, the pinning size and the breach floors force out exceed the
    budget, that node and every specialization of it are unsafe by the definitions
    (generalize, suppress what the per-group criteria fail, evaluate every criterion)."""
    from skyprivacy.anonymize.lattice import _FORCED_OVER, Lattice, _Checker
    rng = random.Random("breach-floor-tags")
    tagged = 0
    for _ in range(60):
        table, qi, hierarchies = random_case(rng, n_max=12)
        criteria = random_floor_criteria(rng, with_k=0.7)
        budget = rng.randint(0, len(table) // 2)
        lattice = Lattice(table, qi, "s", hierarchies, "svpi", "error")
        checker = _Checker(lattice, criteria, budget, False, "loss")
        outcome = {}
        for levels in lattice.nodes():
            first = checker.first(levels)
            if getattr(first, "failing", None) != _FORCED_OVER:
                continue
            tagged += 1
            for below in lattice.nodes():
                if all(x <= y for x, y in zip(below, levels)):
                    if below not in outcome:
                        outcome[below] = node_outcome(table, qi, hierarchies, criteria, below,
                                                      budget, False, "loss")[0]
                    assert not outcome[below], (levels, below, criteria, budget)
    assert tagged >= 30


def test_skyline_policies_under_suppression_against_every_node():
    """Skyline policies (one or two points, value-specific skylines, l up to 2, c = 1) with
    k under a suppression budget, dropped: the search, which tags nodes by the breach
    floors, finds the best node of the lattice checked from the definitions."""
    rng = random.Random("breach-floor-search")
    compared = 0
    for _ in range(60):
        table, qi, hierarchies = random_case(rng, n_max=12)
        criteria = random_floor_criteria(rng, with_k=0.8)
        limit = rng.choice([Fraction(1, 5), Fraction(2, 5), Fraction(1, 2)])
        objective = rng.choice(["loss", "height", "discernibility", "entropy"])
        if search_matches_exhaustive(table, qi, hierarchies, criteria, limit, objective,
                                     label=criteria) is None:
            continue
        compared += 1
    assert compared >= 15


def test_the_chains_follow_the_cheapest_steps_from_the_bottom_to_the_top():
    """_Nodes.chain with the bound's steps: from the bottom to the top through the node, one
    level of one QI a step; up, the cheapest next step first; down, the dearest undone."""
    from skyprivacy.anonymize.lattice import _Nodes
    steps = [[0, 5, 6], [0, 1, 9, 10], [0, 3]]  # per QI and level, the bound's table
    nodes = _Nodes(np.array([2, 3, 1]), steps)
    for levels in itertools.product(range(3), range(4), range(2)):
        chain = nodes.chain(levels)
        assert chain[0] == (0, 0, 0) and chain[-1] == (2, 3, 1) and levels in chain
        assert all(sum(b) - sum(a) == 1 and all(y >= x for x, y in zip(a, b))
                   for a, b in zip(chain, chain[1:]))
    # from the bottom: qi1 (+1), qi2 (+3), qi0 (+5), qi0 (+1), qi1 (+8), qi1 (+1)
    assert nodes.chain((0, 0, 0)) == [(0, 0, 0), (0, 1, 0), (0, 1, 1), (1, 1, 1), (2, 1, 1),
                                      (2, 2, 1), (2, 3, 1)]
    # down from (2, 2, 0): undo qi1's +8, then qi0's +1 ... (the dearest step each time)
    assert nodes.chain((2, 2, 0))[:4] == [(0, 0, 0), (0, 1, 0), (1, 1, 0), (2, 1, 0)]
