"""The generalization measures of skyprivacy.utility (issue 24 item 4): generalization loss,
precision, height, discernibility with suppression, AECS and non-uniform entropy.

Layers: values worked by hand from each paper's definition; a brute-force oracle that reads
every cell from the definitions (exact fractions, the documented fixed point for the
entropy) on random releases, full-domain and local, dropped and masked; Hypothesis
properties (monotone along generalization, in range, invariant to row order); the full-domain
search's node objective equal to the measure of the table it releases, for every objective
and every node; Mondrian results measured alike; and every error message.
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skyprivacy import ReleaseCandidate, k_anonymize, skyline_anonymize
from skyprivacy.anonymize import anonymize
from skyprivacy.anonymize.lattice import _States, OBJECTIVES, Lattice, full_domain_search
from skyprivacy.criteria import DistinctLDiversity, KAnonymity
from skyprivacy.errors import HierarchyError, InvalidParameterError, SchemaError
from skyprivacy.hierarchy import Hierarchy
from skyprivacy.knowledge import Policy
from skyprivacy.utility import (
    GeneralizationLoss,
    UtilityMeasures,
    average_equivalence_class_size,
    discernibility,
    generalization_height,
    generalization_loss,
    non_uniform_entropy,
    precision,
    utility_measures,
)

# ------------------------------------------------------------------ a small worked table
#: Zip codes of Sweeney's and Chen et al.'s examples, age by decade, sex flat.
ZIPS = Hierarchy([["13053", "1305*", "130**", "*"], ["13058", "1305*", "130**", "*"],
                  ["13068", "1306*", "130**", "*"], ["14850", "1485*", "148**", "*"],
                  ["14853", "1485*", "148**", "*"]], name="zip")
AGES = Hierarchy([[str(a), f"{a // 10 * 10}-{a // 10 * 10 + 9}", "*"]
                  for a in (21, 23, 28, 29, 47, 49, 50, 55)], name="age")
TABLE = pd.DataFrame({
    "zip": ["13053", "13068", "13068", "13053", "14853", "14850", "14850", "14853"],
    "age": ["28", "29", "21", "23", "50", "55", "47", "49"],
    "sex": ["F", "M", "F", "M", "F", "M", "F", "M"],
    "disease": ["flu", "hiv", "flu", "cold", "cancer", "flu", "hiv", "flu"]},
    index=[f"p{i}" for i in range(8)])
QI = ["zip", "age", "sex"]
HIER = {"zip": ZIPS, "age": AGES}


def generalize(table, levels, hierarchies=HIER):
    out = table.copy()
    for name, level in levels.items():
        if name in hierarchies:
            out[name] = hierarchies[name].generalize(list(table[name]), level)
        elif level:
            out[name] = "*"
    return out


def test_full_domain_release_by_hand():
    """zip at level 2 (130**, 148**), age at level 1 (decades), sex as is."""
    released = generalize(TABLE, {"zip": 2, "age": 1, "sex": 0})
    before = TABLE.copy()
    loss = generalization_loss(TABLE, released, qi=QI, hierarchies=HIER)
    # zip: 130** has 3 of 5 leaves, 148** 2: (2/4 * 4 + 1/4 * 4) / 8 = 3/8
    # age: 20-29 has 4 of 8 leaves, 40-49 2, 50-59 2: (3/7 * 4 + 1/7 * 4) / 8 = 2/7
    assert loss.per_attribute == {"zip": Fraction(3, 8), "age": Fraction(2, 7), "sex": 0}
    assert loss.total == (Fraction(3, 8) + Fraction(2, 7)) / 3
    # Sweeney: 1 - (2/3 + 1/2 + 0) / 3
    assert precision(TABLE, released, qi=QI, hierarchies=HIER) == 1 - Fraction(7, 6) / 3
    assert generalization_height(TABLE, released, qi=QI, hierarchies=HIER) == 3
    # entropy, zip: 130** holds 4 rows (13053 x2, 13068 x2), so -log2(2/4) = 1 per row;
    # 148** likewise: 8 bits.  age: 20-29 holds 4 rows, one per value: 2 bits each (8);
    # 40-49 two rows, one each: 1 bit (2); 50-59 likewise (2): 12 bits.  sex: 0.
    assert non_uniform_entropy(TABLE, released, qi=QI, hierarchies=HIER) == 20.0
    measures = utility_measures(released, table=TABLE, qi=QI, hierarchies=HIER)
    # groups: (130**, 20-29, F) x2, (130**, 20-29, M) x2, (148**, 50-59, F), (148**, 50-59,
    # M), (148**, 40-49, F), (148**, 40-49, M)
    assert measures.discernibility == 4 + 4 + 1 + 1 + 1 + 1
    assert measures.aecs == Fraction(8, 6) and measures.n_groups == 6
    assert measures.height == 3 and measures.levels == {"zip": 2, "age": 1, "sex": 0}
    pd.testing.assert_frame_equal(TABLE, before)


def test_suppressed_rows_dropped_or_masked_cost_the_whole_domain():
    """zip at level 1, age at level 2, sex at 1; rows p4 and p5 suppressed."""
    full = generalize(TABLE, {"zip": 1, "age": 2, "sex": 1})
    dropped = full.drop(index=["p4", "p5"])
    masked = full.copy()
    masked.loc[["p4", "p5"], QI] = "*"
    n, m = 8, 2
    # zip, kept rows: 1305* (2 leaves) x2, 1306* (1) x2, 1485* (2) x2: 4 * 1/4; +2 suppressed
    zip_loss = (4 * Fraction(1, 4) + m) / n
    age_loss = Fraction(n - m + m, n)  # level 2 is '*' for everyone
    sex_loss = Fraction(1)
    expected = (zip_loss + age_loss + sex_loss) / 3
    for release, suppressed in ((dropped, None), (dropped, 2), (masked, 2)):
        loss = generalization_loss(TABLE, release, qi=QI, hierarchies=HIER,
                                   suppressed=suppressed)
        assert loss.per_attribute["zip"] == zip_loss and loss.total == expected
        # precision: zip 1/3 per kept row, suppressed at the top
        assert precision(TABLE, release, qi=QI, hierarchies=HIER, suppressed=suppressed) == \
            1 - ((6 * Fraction(1, 3) + 2) / 8 + 1 + 1) / 3
        measures = utility_measures(release, table=TABLE, qi=QI, hierarchies=HIER,
                                    suppressed=suppressed)
        # kept groups: (1305*), (1306*), (1485*) of 2 rows each; suppressed charged 8 each
        assert measures.discernibility == 3 * 4 + m * n
        assert measures.aecs == Fraction(8, 3 + 1) and measures.suppressed == 2
        assert measures.height == 4
    # the masked rows counted as generalized, not suppressed: one group of two '*' rows
    as_group = utility_measures(masked, table=TABLE, qi=QI, hierarchies=HIER)
    assert as_group.suppressed == 0 and as_group.discernibility == 4 * 4
    assert as_group.height is None  # '*' next to 1485*: not one level


def test_discernibility_and_aecs_of_a_release_candidate():
    release = ReleaseCandidate.from_groups([(2, ["flu", "hiv"]), (4, ["flu"] * 4)])
    assert discernibility(release) == 20 and discernibility(release, suppressed=0) == 20
    assert discernibility(release, suppressed=3) == 20 + 3 * 9
    assert discernibility(release, suppressed=3, normalized=True) == 47 / 81
    assert average_equivalence_class_size(release) == 3
    assert average_equivalence_class_size(release, suppressed=3) == Fraction(9, 3)
    assert average_equivalence_class_size(release, suppressed=1) == Fraction(7, 3)


def test_a_mondrian_range_is_charged_the_values_it_spans():
    """A numeric QI without a hierarchy: '[21, 29]' spans the four ages 21..29 of the
    table's eight; a value kept as is spans one; '*' all eight."""
    table = pd.DataFrame({"age": [21, 23, 28, 29, 47, 49, 50, 55]})
    released = pd.DataFrame({"age": ["[21, 29]"] * 4 + ["[47, 49]", "[47, 49]", 50, "*"]})
    loss = generalization_loss(table, released, qi="age")
    assert loss.total == (4 * Fraction(3, 7) + 2 * Fraction(1, 7) + 0 + 1) / 8
    assert precision(table, released, qi="age") == 1 - loss.total  # the flat reading
    # -log2(1/4) x4, -log2(1/2) x2, 0, -log2(1/8)
    assert non_uniform_entropy(table, released, qi="age") == 8 + 2 + 0 + 3
    with pytest.raises(SchemaError, match=r"^Column 'age' is not released at one level"):
        generalization_height(table, released, qi="age")


# ------------------------------------------------------------------ the brute-force oracle
def fixed_log2(count: int) -> int:
    """log2 rounded to a multiple of 2^-32: the documented fixed point of the entropy."""
    return round(math.log2(count) * 2 ** 32)


def random_hierarchy(rng: random.Random, values: list, name: str) -> Hierarchy:
    """Leaves ``values``, 1 to 3 levels of random merges, root '*'; labels unique."""
    height = rng.randint(1, 3)
    columns, current = [list(values)], {v: v for v in values}
    for level in range(1, height):
        labels = sorted(set(current.values()))
        parents = {label: f"{name}{level}_{rng.randrange(max(1, len(labels) - 1))}"
                   for label in labels}
        current = {v: parents[current[v]] for v in values}
        columns.append([current[v] for v in values])
    columns.append(["*"] * len(values))
    return Hierarchy([list(row) for row in zip(*columns)], name=name)


def random_table(rng: random.Random, n_max: int = 10):
    qi = [f"q{j}" for j in range(rng.randint(1, 3))]
    n = rng.randint(2, n_max)
    data, hierarchies = {}, {}
    for name in qi:
        domain = [f"{name}v{i}" for i in range(rng.randint(1, 5))]
        extra = [f"{name}x{i}" for i in range(rng.randint(0, 2))]  # leaves no row holds
        data[name] = [rng.choice(domain) for _ in range(n)]
        hierarchies[name] = random_hierarchy(rng, domain + extra, name)
    data["s"] = [rng.choice("ab") for _ in range(n)]
    return pd.DataFrame(data, index=[f"r{i}" for i in range(n)]), qi, hierarchies


def random_release(rng: random.Random, table, qi, hierarchies, full_domain: bool):
    """(released table, cell level of every kept row and QI, suppressed labels, mask)."""
    n = len(table)
    levels = {name: rng.randint(0, hierarchies[name].height) for name in qi}
    suppressed = set(rng.sample(list(table.index), rng.randint(0, n - 1)))
    cell_levels = {}
    released = table.copy()
    for name in qi:
        h = hierarchies[name]
        per_row = [levels[name] if full_domain else rng.randint(0, h.height)
                   for _ in range(n)]
        cell_levels[name] = dict(zip(table.index, per_row))
        released[name] = [h.generalize(v, lv) for v, lv in zip(table[name], per_row)]
    mask = rng.random() < 0.5
    if mask:
        released.loc[list(suppressed), qi] = "*"
    else:
        released = released.drop(index=list(suppressed))
    return released, cell_levels, suppressed, mask, levels


def oracle(table, released, qi, hierarchies, cell_levels, suppressed) -> dict:
    """Every measure from its definition, cell by cell."""
    n, m = len(table), len(suppressed)
    loss, prec_cost, units = {}, Fraction(0), 0
    for name in qi:
        h = hierarchies[name]
        leaves = len(h.leaves)
        counts = table[name].value_counts()
        cost = Fraction(0)
        for row, value in table[name].items():
            if row in suppressed:
                cost += 1
                prec_cost += 1
                units += fixed_log2(n) - fixed_log2(counts[value])
                continue
            level = cell_levels[name][row]
            label = h.generalize(value, level)
            under = h.leaves_under((level, label))
            cost += Fraction(len(under) - 1, leaves - 1) if leaves > 1 else 0
            prec_cost += Fraction(level, h.height)
            mass = int(table[name].isin(under).sum())
            units += fixed_log2(mass) - fixed_log2(counts[value])
        loss[name] = cost / n
    kept = released.loc[[r for r in released.index if r not in suppressed]]
    sizes = kept.groupby(qi).size().to_numpy() if len(kept) else np.zeros(0, int)
    return {"loss": sum(loss.values()) / len(qi), "per": loss,
            "precision": 1 - prec_cost / (n * len(qi)),
            "discernibility": int((sizes ** 2).sum()) + m * n,
            "aecs": Fraction(n, len(sizes) + (1 if m else 0)),
            "entropy": float(Fraction(units, 2 ** 32))}


@pytest.mark.parametrize("full_domain", [True, False])
def test_every_measure_matches_the_oracle_on_random_releases(full_domain):
    rng = random.Random(f"measures-{full_domain}")
    for _ in range(60):
        table, qi, hierarchies = random_table(rng)
        released, cell_levels, suppressed, mask, levels = random_release(
            rng, table, qi, hierarchies, full_domain)
        before = table.copy(), released.copy()
        expected = oracle(table, released, qi, hierarchies, cell_levels, suppressed)
        options = {"qi": qi, "hierarchies": hierarchies, "suppressed": len(suppressed)}
        if full_domain:
            options["levels"] = levels
        got = utility_measures(released, table=table, **options)
        assert got.loss == expected["loss"] and got.loss_per_attribute == expected["per"]
        assert got.precision == expected["precision"]
        assert got.discernibility == expected["discernibility"]
        assert got.aecs == expected["aecs"]
        assert got.entropy == expected["entropy"]
        assert got.suppressed == len(suppressed) and got.n_rows == len(table)
        if full_domain:
            assert got.height == sum(levels.values())
            assert generalization_height(table, released, qi=qi, hierarchies=hierarchies,
                                         levels=levels) == sum(levels.values())
        assert generalization_loss(table, released, **options).total == expected["loss"]
        assert precision(table, released, **options) == expected["precision"]
        assert non_uniform_entropy(table, released, **options) == expected["entropy"]
        pd.testing.assert_frame_equal(table, before[0])
        pd.testing.assert_frame_equal(released, before[1])


# ------------------------------------------------------------------ properties
@st.composite
def lattice_cases(draw):
    rng = random.Random(draw(st.integers(0, 2 ** 32)))
    table, qi, hierarchies = random_table(rng, n_max=12)
    low = {name: draw(st.integers(0, hierarchies[name].height)) for name in qi}
    high = {name: draw(st.integers(low[name], hierarchies[name].height)) for name in qi}
    return table, qi, hierarchies, low, high


def full_domain(table, qi, hierarchies, levels):
    return generalize(table, levels, hierarchies)


@given(lattice_cases())
@settings(max_examples=60, deadline=None)
def test_loss_precision_and_entropy_are_monotone_along_generalization(case):
    table, qi, hierarchies, low, high = case
    coarse = utility_measures(full_domain(table, qi, hierarchies, high), table=table, qi=qi,
                              hierarchies=hierarchies, levels=high)
    fine = utility_measures(full_domain(table, qi, hierarchies, low), table=table, qi=qi,
                            hierarchies=hierarchies, levels=low)
    assert fine.loss <= coarse.loss and fine.entropy <= coarse.entropy
    assert fine.precision >= coarse.precision and fine.height <= coarse.height
    assert fine.discernibility <= coarse.discernibility and fine.aecs <= coarse.aecs
    for measures in (fine, coarse):
        assert 0 <= measures.loss <= 1 and 0 <= measures.precision <= 1
        assert all(0 <= v <= 1 for v in measures.loss_per_attribute.values())
        assert measures.entropy >= 0


@given(lattice_cases(), st.randoms(use_true_random=False))
@settings(max_examples=40, deadline=None)
def test_the_measures_do_not_depend_on_row_order(case, rnd):
    table, qi, hierarchies, _, high = case
    released = full_domain(table, qi, hierarchies, high)
    order = list(table.index)
    rnd.shuffle(order)
    a = utility_measures(released, table=table, qi=qi, hierarchies=hierarchies)
    b = utility_measures(released.loc[order], table=table.loc[order[::-1]], qi=qi,
                         hierarchies=hierarchies)
    assert a == b


@given(lattice_cases())
@settings(max_examples=40, deadline=None)
def test_nothing_generalized_loses_nothing_and_everything_suppressed_loses_all(case):
    table, qi, hierarchies, _, _ = case
    same = utility_measures(table, table=table, qi=qi, hierarchies=hierarchies)
    assert (same.loss, same.precision, same.height, same.entropy) == (0, 1, 0, 0.0)
    gone = utility_measures(table.iloc[:0], table=table, qi=qi, hierarchies=hierarchies)
    assert (gone.loss, gone.precision, gone.suppressed) == (1, 0, len(table))
    assert gone.discernibility == len(table) ** 2 and gone.aecs == len(table)


# ------------------------------------------------------------------ the search's objectives
def public_value(objective: str, measures: UtilityMeasures):
    return {"loss": measures.loss, "precision": 1 - measures.precision,
            "height": measures.height, "discernibility": measures.discernibility,
            "aecs": measures.aecs, "entropy": measures.entropy}[objective]


def test_every_node_objective_is_the_measure_of_the_table_it_releases():
    """At every node of the lattice, without suppression: the lower bound equals the
    objective, and both equal the public measure of the generalized table."""
    rng = random.Random("node-objectives")
    for _ in range(15):
        table, qi, hierarchies = random_table(rng, n_max=8)
        lattice = Lattice(table, qi, "s", hierarchies, "svpi", "error")
        states = _States(lattice, pairs=False)  # the class counts the search rolls up
        for levels in lattice.nodes():
            sizes = np.asarray(states.get(levels).sizes, dtype=np.int64)
            node = dict(zip(qi, levels))
            measures = utility_measures(full_domain(table, qi, hierarchies, node), table=table,
                                        qi=qi, hierarchies=hierarchies, levels=node)
            for objective in OBJECTIVES:
                value = lattice.objective(levels, objective, sizes, None)
                assert lattice.lower_bound(levels, objective, sizes) == value
                expected = public_value(objective, measures)
                assert (float(value) if objective == "entropy" else value) == expected


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_the_optimum_value_is_the_measure_of_the_released_table(objective):
    """With suppression, dropped or masked: the search's value is the public measure."""
    rng = random.Random(f"optimum-{objective}")
    compared = 0
    for _ in range(25):
        table, qi, hierarchies = random_table(rng, n_max=10)
        criteria = [rng.choice([KAnonymity(2), KAnonymity(3), DistinctLDiversity(2)])]
        options = {"qi": qi, "sensitive": "s", "criteria": criteria,
                   "hierarchies": hierarchies, "objective": objective,
                   "suppression_limit": rng.choice([0, Fraction(1, 5), Fraction(2, 5)]),
                   "suppressed": rng.choice(["drop", "mask"])}
        try:
            result = full_domain_search(table, **options)
        except Exception as error:  # noqa: BLE001 - infeasible cases are skipped
            assert type(error).__name__ == "InfeasibleError"
            continue
        measures = utility_measures(result, table=table, qi=qi, hierarchies=hierarchies)
        value = float(result.value) if objective == "entropy" else result.value
        assert value == public_value(objective, measures), (objective, options)
        assert measures.suppressed == result.suppressed
        assert measures.levels == result.levels
        compared += 1
    assert compared >= 10


def test_mondrian_and_full_domain_results_report_the_same_measures():
    adult = TABLE.assign(age=TABLE["age"].astype(int))
    hierarchies = {"zip": ZIPS}
    full = anonymize(adult, qi=["zip", "age"], sensitive="disease",
                     criteria=[KAnonymity(2)], method="full-domain",
                     hierarchies={"zip": ZIPS, "age": AGES}, keep="sex")
    mondrian = anonymize(adult, qi=["zip", "age"], sensitive="disease",
                         criteria=[KAnonymity(2)], method="mondrian", hierarchies=hierarchies,
                         keep="sex")
    k = k_anonymize(adult, qi=["zip", "age"], k=2, hierarchies=hierarchies,
                    keep=["sex", "disease"])
    sky = skyline_anonymize(adult, qi=["zip", "age"], sensitive="disease",
                            policy=Policy.uniform([(0, 0, 0, Fraction(9, 10))]),
                            hierarchies=hierarchies, keep="sex")
    reports = [utility_measures(r, table=adult, qi=["zip", "age"],
                                hierarchies={"zip": ZIPS, "age": AGES} if r is full
                                else hierarchies) for r in (full, mondrian, k, sky)]
    frame = pd.concat([r.to_frame() for r in reports], ignore_index=True)
    assert list(frame.columns) == ["loss", "precision", "height", "discernibility", "aecs",
                                   "entropy", "suppressed", "n_rows", "n_groups",
                                   "loss[zip]", "loss[age]"]
    assert reports[0].loss == full.value and reports[0].height == sum(full.levels.values())
    assert reports[1] == reports[2]  # the same Mondrian k-anonymous partition
    for r in reports:
        assert 0 <= r.loss <= 1 and 0 <= r.precision <= 1 and r.suppressed == 0
    # Mondrian's age ranges read as spans of the table's ages, independently parsed
    ages = sorted(adult["age"])
    by_hand = Fraction(0)
    for cell in mondrian.table["age"]:
        if isinstance(cell, str) and cell.startswith("["):
            low, high = (int(x) for x in cell[1:-1].split(", "))
            span = sum(low <= a <= high for a in sorted(set(ages)))
        elif cell == "*":
            span = len(set(ages))
        else:
            span = 1
        by_hand += Fraction(span - 1, len(set(ages)) - 1)
    assert reports[1].loss_per_attribute["age"] == by_hand / len(adult)


def test_results_are_named_and_serializable():
    released = generalize(TABLE, {"zip": 1, "age": 0, "sex": 0})
    loss = generalization_loss(TABLE, released, qi=QI, hierarchies=HIER)
    assert isinstance(loss, GeneralizationLoss)
    # 1305* and 1485* cover 2 of 5 leaves (1/4 each, six rows), 1306* one (two rows)
    assert loss.to_frame().to_dict("list") == {"attribute": QI,
                                               "loss": [Fraction(3, 16), 0, 0]}
    assert loss.to_dict() == {"total": 0.0625,
                              "per_attribute": {"zip": 0.1875, "age": 0.0, "sex": 0.0}}
    measures = utility_measures(released, table=TABLE, qi=QI, hierarchies=HIER)
    data = measures.to_dict()
    assert data["levels"] == {"zip": 1, "age": 0, "sex": 0}
    assert all(isinstance(v, (int, float, dict)) for v in data.values())


# ------------------------------------------------------------------ errors
RELEASED = generalize(TABLE, {"zip": 1, "age": 1, "sex": 0})


@pytest.mark.parametrize("call, error, message", [
    (lambda: utility_measures(42, table=TABLE, qi=QI), InvalidParameterError,
     r"^The 'released' parameter of utility_measures must be a released DataFrame or an "
     r"anonymization result with a .table. Got 'int' instead.$"),
    (lambda: utility_measures(RELEASED, table=[], qi=QI), InvalidParameterError,
     r"^The 'table' parameter of utility_measures must be a pandas DataFrame. "
     r"Got 'list' instead.$"),
    (lambda: generalization_loss(TABLE, RELEASED, qi=QI, hierarchies=[ZIPS]),
     InvalidParameterError,
     r"^The 'hierarchies' parameter of generalization_loss must be a mapping of QI columns "
     r"to Hierarchy objects. Got 'list' instead.$"),
    (lambda: precision(TABLE, RELEASED, qi=QI, hierarchies={"disease": ZIPS}),
     InvalidParameterError,
     r"^The 'hierarchies' parameter of precision must name QI columns only \(\['zip', "
     r"'age', 'sex'\]\). Got 'disease' instead.$"),
    (lambda: precision(TABLE, RELEASED, qi=QI, hierarchies={"zip": {"13053": "*"}}),
     InvalidParameterError,
     r"^The 'hierarchies' parameter of precision must map QI columns to Hierarchy objects. "
     r"Got 'dict' instead.$"),
    (lambda: non_uniform_entropy(TABLE, RELEASED, qi=QI, hierarchies=HIER,
                                 levels={"zip": 1}), InvalidParameterError,
     r"^The 'levels' parameter of non_uniform_entropy must give one level for every QI "
     r"\(\['zip', 'age', 'sex'\]\). Got \{'zip': 1\} instead.$"),
    (lambda: non_uniform_entropy(TABLE, RELEASED, qi=QI, hierarchies=HIER,
                                 levels={"zip": 4, "age": 1, "sex": 0}), InvalidParameterError,
     r"^The 'levels' parameter of non_uniform_entropy must give 'zip' a level in \[0, 3\]. "
     r"Got 4 instead.$"),
    (lambda: non_uniform_entropy(TABLE, RELEASED, qi=QI, hierarchies=HIER,
                                 levels={"zip": 1, "age": 1, "sex": 2}), InvalidParameterError,
     r"^The 'levels' parameter of non_uniform_entropy must give 'sex' a level in \[0, 1\]. "
     r"Got 2 instead.$"),
    (lambda: generalization_loss(TABLE, RELEASED, qi=QI, levels=[1]), InvalidParameterError,
     r"^The 'levels' parameter of generalization_loss must be a mapping of QI columns to "
     r"hierarchy levels. Got 'list' instead.$"),
    (lambda: generalization_loss(TABLE, RELEASED, qi=QI, suppressed=-1),
     InvalidParameterError,
     r"^The 'suppressed' parameter of generalization_loss must be a non-negative integer. "
     r"Got -1 instead.$"),
    (lambda: generalization_loss(TABLE, RELEASED.iloc[2:], qi=QI, hierarchies=HIER,
                                 suppressed=1), InvalidParameterError,
     r"^The 'suppressed' parameter of generalization_loss must be at least the 2 row\(s\) "
     r"missing from the release. Got 1 instead.$"),
    (lambda: generalization_loss(TABLE, RELEASED.iloc[2:], qi=QI, hierarchies=HIER,
                                 suppressed=3), InvalidParameterError,
     r"^The 'suppressed' parameter of generalization_loss must be at most 2 \(the 2 row\(s\) "
     r"missing from the release and the 0 released with every QI '\*'\). Got 3 instead.$"),
    (lambda: generalization_loss(TABLE, RELEASED, qi=[]), InvalidParameterError,
     r"^The 'qi' parameter of generalization_loss must be a column name or a non-empty list "
     r"of column names. Got \[\] instead.$"),
    (lambda: generalization_loss(TABLE, RELEASED, qi=["zip", "height"]), SchemaError,
     r"^Column 'height' is not in the table; columns are \['zip', 'age', 'sex', "
     r"'disease'\].$"),
    (lambda: generalization_loss(TABLE, RELEASED.drop(columns="sex"), qi=QI), SchemaError,
     r"^Column 'sex' is not in the released table; its columns are \['zip', 'age', "
     r"'disease'\].$"),
    (lambda: generalization_loss(TABLE.iloc[:0], RELEASED.iloc[:0], qi=QI), SchemaError,
     r"^The table is empty: the utility measures need at least one row.$"),
    (lambda: generalization_loss(TABLE.set_axis([0] * 8), RELEASED, qi=QI), SchemaError,
     r"^The original table repeats row labels; released rows are matched to it by label, so "
     r"its labels must be unique.$"),
    (lambda: generalization_loss(TABLE, RELEASED.iloc[[0, 0]], qi=QI), SchemaError,
     r"^The released table repeats row label 'p0'; every released row stands for one row "
     r"of the original table.$"),
    (lambda: generalization_loss(TABLE, RELEASED.rename(index={"p3": "x"}), qi=QI),
     SchemaError,
     r"^The released table has 1 row label\(s\) that are not rows of the original table "
     r"\(first: 'x'\).$"),
    (lambda: generalization_loss(TABLE.assign(sex=[None] + ["F"] * 7), RELEASED, qi=QI),
     SchemaError,
     r"^Column 'sex' has 1 missing value\(s\); the utility measures need every QI value of "
     r"the original table.$"),
    (lambda: generalization_loss(TABLE, RELEASED, qi=QI, hierarchies=HIER,
                                 levels={"zip": 2, "age": 1, "sex": 0}), SchemaError,
     r"^Column 'zip' at level 2: the released value '1305\*' of row 'p0' is not the level-2 "
     r"generalization of '13053', which is '130\*\*'.$"),
    (lambda: generalization_loss(TABLE, RELEASED, qi=QI, hierarchies=HIER,
                                 levels={"zip": 1, "age": 1, "sex": 1}), SchemaError,
     r"^Column 'sex' at level 1: the released value 'F' of row 'p0' is not '\*'.$"),
    (lambda: generalization_loss(TABLE, RELEASED.assign(sex=["M"] + ["F"] * 7), qi=QI,
                                 hierarchies=HIER, levels={"zip": 1, "age": 1, "sex": 0}),
     SchemaError,
     r"^Column 'sex' at level 0: the released value 'M' of row 'p0' is not its value 'F'.$"),
    (lambda: generalization_loss(TABLE, RELEASED.assign(zip="1485*"), qi=QI,
                                 hierarchies=HIER), SchemaError,
     r"^Column 'zip': the released value '1485\*' is no node of its hierarchy above every "
     r"value released as it \(row 'p0' holds '13053'\); pass the hierarchy the release was "
     r"made with.$"),
    (lambda: generalization_loss(TABLE.assign(zip=["99999"] * 8), RELEASED, qi=QI,
                                 hierarchies=HIER), HierarchyError,
     r"^Hierarchy 'zip' does not cover 1 distinct value\(s\) of the data \(8 row\(s\)\)"),
    (lambda: generalization_height(TABLE, RELEASED.assign(zip=["13053"] + ["*"] * 7), qi=QI,
                                   hierarchies=HIER), SchemaError,
     r"^Column 'zip' is not released at one level of its hierarchy \(a multi-dimensional "
     r"release, or rows masked with '\*' not counted as suppressed\), so the release has no "
     r"height.$"),
    (lambda: discernibility(ReleaseCandidate.from_groups([(1, ["a"])]), suppressed=-2),
     InvalidParameterError,
     r"^The 'suppressed' parameter of discernibility must be a non-negative integer. "
     r"Got -2 instead.$"),
    (lambda: average_equivalence_class_size(TABLE), InvalidParameterError,
     r"^The 'release' parameter of average_equivalence_class_size must be a "
     r"ReleaseCandidate. Got DataFrame instead.$"),
])
def test_errors_name_the_bad_value(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_released_values_read_as_text_match_hierarchy_labels():
    """A kept numeric cell 28 is the leaf '28' (Mondrian publishes labels as text)."""
    table = TABLE.assign(age=TABLE["age"].astype(int))
    released = generalize(TABLE, {"zip": 1, "age": 0, "sex": 0}).assign(age=table["age"])
    assert generalization_loss(table, released, qi=QI, hierarchies=HIER).per_attribute[
        "age"] == 0
    assert list(itertools.islice(released["age"], 2)) == [28, 29]
