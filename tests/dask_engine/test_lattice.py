"""Full-domain search on a dask frame: the histogram from one scan, the same search as pandas:
the same optimum, the same suppressed rows and the same released rows (dropped or masked), on
tables split into several partitions, and through ``skyprivacy.anonymize``."""
import random
import sys
from fractions import Fraction
from pathlib import Path

import dask
import numpy as np
import pandas as pd
import pytest

import skyprivacy
from skyprivacy.anonymize.lattice import full_domain_search
from skyprivacy.criteria import DistinctLDiversity, KAnonymity
from skyprivacy.datasets import load_adult, load_adult_hierarchies
from skyprivacy.errors import InvalidParameterError, SchemaError
from skyprivacy.release import ReleaseCandidate

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "anonymize"))
from test_lattice import random_case, random_criteria  # noqa: E402

ADULT_QI = ["age", "workclass", "education", "marital-status", "occupation", "race", "sex",
            "native-country"]


def same(pandas_result, dask_result, sensitive, missing="error"):
    """Every figure of the search and the released rows, cell by cell and in the same order."""
    assert dask_result.levels == pandas_result.levels
    assert dask_result.value == pandas_result.value
    assert dask_result.suppressed == pandas_result.suppressed
    assert dask_result.nodes_checked == pandas_result.nodes_checked
    assert dask_result.lattice_size == pandas_result.lattice_size
    assert dask_result.frontier == pandas_result.frontier
    released = dask_result.table.compute()
    pd.testing.assert_frame_equal(released, pandas_result.table)
    assert dask_result.candidate == pandas_result.candidate
    assert dask_result.candidate == ReleaseCandidate.from_table(
        released, sensitive=sensitive, qi=list(pandas_result.levels), missing=missing)


@pytest.mark.parametrize("kind", ["k", "distinct", "t", "combined"])
def test_random_tables_in_partitions_give_the_pandas_optimum_and_rows(kind, to_dask):
    rng = random.Random(f"dask-lattice-{kind}")
    compared = 0
    for _ in range(6):
        table, qi, hierarchies = random_case(rng, n_max=14)
        criteria = random_criteria(rng, kind)
        options = dict(qi=qi, sensitive="s", criteria=criteria, hierarchies=hierarchies,
                       suppression_limit=rng.choice([0, Fraction(1, 5), Fraction(2, 5)]),
                       suppressed=rng.choice(["drop", "mask"]),
                       objective=rng.choice(["loss", "height", "discernibility", "aecs"]))
        try:
            expected = full_domain_search(table, **options)
        except skyprivacy.InfeasibleError as error:
            with pytest.raises(skyprivacy.InfeasibleError) as caught:
                full_domain_search(to_dask(table, npartitions=3), **options)
            assert str(caught.value) == str(error)
            continue
        got = full_domain_search(to_dask(table, npartitions=3), **options)
        same(expected, got, "s")
        compared += 1
    assert compared >= 3


@pytest.mark.parametrize("suppressed", ["drop", "mask"])
def test_adult_with_suppression_in_four_partitions(suppressed, to_dask):
    """Adult, 8 QIs, the bundled ARX hierarchies, k = 5, 1% suppression: rows are suppressed,
    and they are the same rows on both engines."""
    table = load_adult()
    hierarchies = {name: h for name, h in load_adult_hierarchies().items() if name in ADULT_QI}
    options = dict(qi=ADULT_QI, sensitive="income", criteria=[KAnonymity(5)],
                   hierarchies=hierarchies, suppression_limit=0.01, suppressed=suppressed)
    expected = full_domain_search(table, **options)
    assert 0 < expected.suppressed <= len(table) // 100
    got = full_domain_search(to_dask(table, npartitions=4), **options)
    same(expected, got, "income")


def test_the_entry_point_hands_a_dask_frame_to_the_engine(to_dask):
    rng = np.random.default_rng(3)
    table = pd.DataFrame({"q": rng.choice(["a", "b", "c", "d"], 60),
                          "s": rng.choice(["x", "y", "z"], 60)},
                         index=pd.Index(rng.permutation(60) * 3, name="rid"))
    hierarchy = skyprivacy.hierarchy.Hierarchy(
        [["a", "ab", "*"], ["b", "ab", "*"], ["c", "cd", "*"], ["d", "cd", "*"]], name="q")
    options = dict(qi="q", sensitive="s", criteria=[KAnonymity(20), DistinctLDiversity(3)],
                   method="full-domain", hierarchies={"q": hierarchy}, frontier=True)
    expected = skyprivacy.anonymize(table, **options)
    got = skyprivacy.anonymize(to_dask(table, npartitions=5), **options)
    same(expected, got, "s")
    assert expected.frontier is not None


def test_missing_sensitive_values_as_a_value_and_the_error_that_counts_rows(to_dask):
    table = pd.DataFrame({"q": ["a", "b", "b", "a", "c", "b", "a", "c"],
                          "s": ["x", None, "x", "y", None, "y", "x", "y"]})
    criteria = [KAnonymity(2), DistinctLDiversity(2)]
    expected = full_domain_search(table, qi="q", sensitive="s", criteria=criteria,
                                  missing="as_value")
    got = full_domain_search(to_dask(table, npartitions=3), qi="q", sensitive="s",
                             criteria=criteria, missing="as_value")
    same(expected, got, "s", missing="as_value")
    missing_qi = table.assign(q=["a", None, "b", "a", None, "b", "a", "b"], s="x")
    message = "^Column 'q' has 2 missing values; pass missing='as_value'"
    with pytest.raises(SchemaError, match=message):
        full_domain_search(missing_qi, qi="q", sensitive="s", criteria=criteria)
    with pytest.raises(SchemaError, match=message):
        full_domain_search(to_dask(missing_qi, npartitions=3), qi="q", sensitive="s",
                           criteria=criteria)


def test_errors_name_the_bad_value(to_dask):
    from skyprivacy.dask_engine.lattice import full_domain_search as on_dask

    table = pd.DataFrame({"q": ["a", "b"], "s": [["x"], ["y"]]})
    with pytest.raises(InvalidParameterError, match=(
            r"^The 'semantics' parameter of anonymize must be 'svpi' for a dask frame \(the "
            r"histogram counts one sensitive value per row\). Got 'mvpi-set' instead.$")):
        full_domain_search(to_dask(table, npartitions=1), qi="q", sensitive="s",
                           criteria=KAnonymity(2), semantics="mvpi-set")
    with pytest.raises(InvalidParameterError, match=(
            "^The 'table' parameter of anonymize must be a dask DataFrame. Got 'DataFrame' "
            "instead.$")):
        on_dask(table, qi="q", sensitive="s", criteria=KAnonymity(2))
    with pytest.raises(SchemaError, match=r"^Column 'zip' is not in the table"):
        full_domain_search(to_dask(table, npartitions=1), qi="zip", sensitive="s",
                           criteria=KAnonymity(2))
    with dask.config.set({"dataframe.convert-string": False}):
        empty = to_dask(pd.DataFrame({"q": pd.Series([], dtype=object),
                                      "s": pd.Series([], dtype=object)}), npartitions=1)
    with pytest.raises(SchemaError, match="^The table is empty: there is nothing to "):
        full_domain_search(empty, qi="q", sensitive="s", criteria=KAnonymity(2))
