"""k-map against a population table (skyprivacy/criteria.py, KMap): counts computed by hand, an
oracle that generalizes every person of the population and counts the matches row by row,
agreement with journalist risk, monotonicity under generalization (Hypothesis), and every
message."""
import random
import re
from fractions import Fraction

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skyprivacy import ReleaseCandidate
from skyprivacy.anonymize.lattice import full_domain_search
from skyprivacy.criteria import KAnonymity, KMap, evaluate
from skyprivacy.errors import InvalidParameterError, SchemaError
from skyprivacy.hierarchy import Hierarchy
from skyprivacy.risk import journalist_risk

AGE = Hierarchy([["31", "30-34", "30-39", "*"], ["33", "30-34", "30-39", "*"],
                 ["36", "35-39", "30-39", "*"], ["42", "40-44", "40-49", "*"],
                 ["47", "45-49", "40-49", "*"]], name="age")
SEX = Hierarchy([["F", "*"], ["M", "*"]], name="sex")
POPULATION = pd.DataFrame({
    "age": ["31", "31", "33", "36", "36", "36", "42", "47", "47", "33"],
    "sex": ["F", "M", "F", "F", "M", "M", "F", "M", "M", "F"],
})


def release(table, qi=("age", "sex")):
    return ReleaseCandidate.from_table(table.assign(dx="x"), sensitive="dx", qi=list(qi))


def test_counts_by_hand_at_the_leaves_and_generalized():
    sample = pd.DataFrame({"age": ["31", "36", "42"], "sex": ["F", "M", "F"]})
    # (31, F): 1 person; (36, M): 2; (42, F): 1 -- groups sorted by label
    assert KMap(1, population=POPULATION).population_sizes(release(sample)) == (1, 2, 1)
    generalized = pd.DataFrame({"age": ["30-34", "30-34", "35-39", "40-44"],
                                "sex": ["F", "F", "*", "*"]})
    criterion = KMap(2, population=POPULATION, hierarchies={"age": AGE, "sex": SEX})
    # 30-34 & F: 31F, 33F, 33F = 3; 35-39 & *: 36 x3 = 3; 40-44 & *: 42F = 1
    assert criterion.population_sizes(release(generalized)) == (3, 3, 1)
    assert criterion.evaluate(release(generalized)).group_safe == (True, True, False)
    # rows masked with '*' in every QI (the hierarchies' roots) match the whole population
    masked = pd.concat([generalized, pd.DataFrame({"age": ["*"], "sex": ["*"]})])
    assert criterion.population_sizes(release(masked)) == (10, 3, 3, 1)
    # class sizes in place of the table: the same counts
    sizes = POPULATION.groupby(["age", "sex"]).size()
    by_sizes = KMap(2, population=sizes, hierarchies={"age": AGE, "sex": SEX})
    assert by_sizes.population_sizes(release(generalized)) == (3, 3, 1)


def test_k_map_is_journalist_risk_at_most_one_over_k():
    sample = POPULATION.iloc[[0, 2, 3, 4, 7]]
    risk = journalist_risk(sample, qi=["age", "sex"], population=POPULATION)
    counts = KMap(1, population=POPULATION).population_sizes(release(sample))
    assert risk.max == Fraction(1, min(counts))
    for k in range(1, 4):
        assert KMap(k, population=POPULATION).holds(release(sample)) == (risk.max <= Fraction(1, k))


def oracle(released: pd.DataFrame, qi, population, hierarchies) -> list:
    """Per group (sorted by label), the people whose values, generalized to the level at
    which the group's label lives, equal the label: one person at a time."""
    out = []
    for label, _ in released.groupby(qi, sort=True):
        label = label if isinstance(label, tuple) else (label,)
        count = 0
        for _, person in population.iterrows():
            ok = True
            for name, value in zip(qi, label):
                h = hierarchies[name]
                level = next(lv for lv in range(h.height + 1) if value in h.labels_at(lv))
                ok &= h.generalize(person[name], level) == value
            count += ok
        out.append(count)
    return out


def test_counts_match_a_person_by_person_oracle_at_every_node():
    rng = random.Random("kmap")
    for _ in range(12):
        n = rng.randint(1, 6)
        population = POPULATION.sample(frac=1, random_state=rng.randrange(100)).iloc[
            :rng.randint(n, len(POPULATION))]
        sample = population.sample(n=n, random_state=rng.randrange(100))
        for levels in [(a, s) for a in range(4) for s in range(2)]:
            released = pd.DataFrame({
                "age": AGE.generalize(list(sample["age"]), levels[0]),
                "sex": SEX.generalize(list(sample["sex"]), levels[1])})
            hierarchies = {"age": AGE, "sex": SEX}
            expected = oracle(released, ["age", "sex"], population, hierarchies)
            criterion = KMap(1, population=population, hierarchies=hierarchies)
            got = criterion.at_levels({"age": levels[0], "sex": levels[1]}).population_sizes(
                release(released))
            assert list(got) == expected, (levels, released)


@settings(max_examples=40, deadline=None)
@given(rows=st.lists(st.integers(0, len(POPULATION) - 1), min_size=1, max_size=6, unique=True),
       k=st.integers(1, 6), low=st.tuples(st.integers(0, 3), st.integers(0, 1)),
       up=st.tuples(st.integers(0, 3), st.integers(0, 1)))
def test_a_generalization_of_a_k_map_release_is_k_map(rows, k, low, up):
    high = (max(low[0], up[0]), max(low[1], up[1]))
    sample = POPULATION.iloc[rows]
    criterion = KMap(k, population=POPULATION, hierarchies={"age": AGE, "sex": SEX})

    def at(levels):
        released = pd.DataFrame({"age": AGE.generalize(list(sample["age"]), levels[0]),
                                 "sex": SEX.generalize(list(sample["sex"]), levels[1])})
        bound = criterion.at_levels({"age": levels[0], "sex": levels[1]})
        verdict = dict(zip(release(released).group_labels,
                           bound.evaluate(release(released)).group_safe))
        return [verdict[key] for key in zip(released["age"], released["sex"])]

    before, after = at(low), at(high)
    assert all(b <= a for b, a in zip(before, after))  # a passing row keeps passing
    assert criterion.is_monotone() and criterion.is_monotone(suppression=True)


def test_a_label_on_two_levels_is_read_at_the_lowest_unless_told():
    # 'c' is a leaf and, one level up, the node over 'c' and 'd'
    h = Hierarchy([["c", "c", "*"], ["d", "c", "*"], ["e", "e", "*"]], name="q")
    population = pd.DataFrame({"q": ["c", "d", "d", "e"]})
    released = release(pd.DataFrame({"q": ["c"]}), qi=["q"])
    criterion = KMap(2, population=population, hierarchies={"q": h})
    assert criterion.population_sizes(released) == (1,)  # the cautious reading: the leaf
    assert criterion.at_levels({"q": 1}).population_sizes(released) == (3,)
    assert not criterion.holds(released) and criterion.at_levels({"q": 1}).holds(released)


def test_evaluate_takes_it_beside_other_criteria_and_nothing_is_modified():
    copy = POPULATION.copy()
    sample = POPULATION.iloc[[3, 4, 5]]
    frame = evaluate(release(sample, qi=["age"]),
                     [KAnonymity(3), KMap(3, population=POPULATION)])
    assert frame["safe"].tolist() == [True, True]
    pd.testing.assert_frame_equal(POPULATION, copy)
    assert repr(KMap(3, population=POPULATION)) == "KMap(k=3, population=10 people)"


@pytest.mark.parametrize("make, error, message", [
    (lambda: KMap(0, population=POPULATION), InvalidParameterError,
     "The 'k' parameter of KMap must be a positive integer. Got 0 instead."),
    (lambda: KMap(2, population=[1, 2]), InvalidParameterError,
     "The 'population' parameter of KMap must be a pandas DataFrame or Series of class sizes. "
     "Got 'list' instead."),
    (lambda: KMap(2, population=pd.Series([3, 1])), InvalidParameterError,
     "The 'population' parameter of KMap must be class sizes indexed by the QI values (index "
     "names the QI columns). Got 'a Series indexed by [None]' instead."),
    (lambda: KMap(2, population=pd.Series([3, 0], index=pd.Index(["a", "b"], name="q"))),
     InvalidParameterError, "The 'population' parameter of KMap must be class sizes: positive "
                            "integer counts. Got 0 instead."),
    (lambda: KMap(2, population=POPULATION.iloc[:0]), SchemaError,
     "The population table is empty: k-map needs the population."),
    (lambda: KMap(2, population=POPULATION, hierarchies=[AGE]), InvalidParameterError,
     "The 'hierarchies' parameter of KMap must map QI columns to Hierarchy objects. Got "
     "'list' instead."),
    (lambda: KMap(2, population=POPULATION, hierarchies={"age": {"31": "*"}}),
     InvalidParameterError, "The 'hierarchies' parameter of KMap must map QI columns to "
                            "Hierarchy objects. Got 'dict' instead."),
    (lambda: KMap(2, population=POPULATION, hierarchies={"zip": AGE}).evaluate(
        release(POPULATION)), InvalidParameterError,
     "The 'hierarchies' parameter of KMap must name QI columns of the release (['age', "
     "'sex']). Got 'zip' instead."),
    (lambda: KMap(2, population=POPULATION[["age"]]).evaluate(release(POPULATION)),
     SchemaError, "Column 'sex' is not in the population; its columns are ['age']."),
    (lambda: KMap(2, population=POPULATION).evaluate(
        ReleaseCandidate.from_groups([(2, ["a", "b"])])), InvalidParameterError,
     "KMap needs a release whose groups are labelled by their QI values "
     "(ReleaseCandidate.from_table(table, sensitive=..., qi=...)). Got groups labelled "
     "['group'] instead."),
    (lambda: KMap(2, population=POPULATION, hierarchies={"age": AGE}).evaluate(
        release(pd.DataFrame({"age": ["30-35"], "sex": ["F"]}))), InvalidParameterError,
     "KMap cannot match the released value '30-35' of column 'age' to a node of its "
     "hierarchy; release the hierarchy's labels, or give the population in the release's "
     "coding without a hierarchy."),
    (lambda: KMap(2, population=POPULATION).evaluate(
        release(pd.DataFrame({"age": ["30-34"], "sex": ["F"]}))), SchemaError,
     "The sample's class ('30-34', 'F') is not in the population table: the population must "
     "contain the sample."),
    (lambda: KMap(2, population=POPULATION).evaluate(
        release(pd.DataFrame({"age": ["42", "42"], "sex": ["F", "F"]}))), SchemaError,
     "The sample's class ('42', 'F') has 2 records but the population only 1: the population "
     "must contain the sample."),
    (lambda: KMap(2, population=POPULATION).evaluate("r"), InvalidParameterError,
     "The 'release' parameter of KMap must be a ReleaseCandidate. Got 'str' instead."),
])
def test_messages(make, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        make()


def _kmap_safe_by_hand(sample, levels, k) -> bool:
    """Every released class matches at least k people of the population once both are
    generalized to ``levels`` (the definition, by counting)."""
    hierarchies = {"age": AGE, "sex": SEX}
    def coarse(frame):
        return list(zip(*(hierarchies[c].generalize(frame[c].tolist(), levels[i])
                          for i, c in enumerate(["age", "sex"]))))
    people = coarse(POPULATION)
    return all(people.count(label) >= k for label in set(coarse(sample)))


@pytest.mark.parametrize("k", [1, 2, 3, 4])
@pytest.mark.parametrize("rows", [[0, 2, 3], [0, 3, 6, 7], [1, 4, 5, 8, 9], [6]])
def test_the_full_domain_search_finds_the_lowest_node_that_k_maps(k, rows):
    """The search binds KMap to each node's levels and labels the node's classes as the
    released table shows them; its optimum (objective height: fewest levels, ties by the
    levels tuple) is the best node that satisfies the definition, counted by hand."""
    sample = POPULATION.iloc[rows].assign(dx=[f"d{i}" for i in range(len(rows))])
    nodes = [(a, s) for a in range(AGE.height + 1) for s in range(SEX.height + 1)]
    safe = sorted((sum(n), n) for n in nodes if _kmap_safe_by_hand(sample, n, k))
    criteria = [KMap(k, population=POPULATION, hierarchies={"age": AGE, "sex": SEX})]
    result = full_domain_search(sample, qi=["age", "sex"], sensitive="dx", criteria=criteria,
                                hierarchies={"age": AGE, "sex": SEX}, objective="height")
    assert tuple(result.levels.values()) == safe[0][1]
    released = ReleaseCandidate.from_table(result.table, sensitive="dx", qi=["age", "sex"])
    assert criteria[0].at_levels(result.levels).evaluate(released).safe
