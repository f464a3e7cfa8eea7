"""skyprivacy.anonymize (method='mondrian') on a dask frame: the same search under combined
criteria and a suppression budget over the partitions, the same released rows as pandas."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from skyprivacy import anonymize
from skyprivacy.criteria import (
    AverageRisk,
    DistinctLDiversity,
    KAnonymity,
    TCloseness,
)
from skyprivacy.errors import InvalidParameterError
from skyprivacy.hierarchy import Hierarchy
from skyprivacy.knowledge import Policy

ZIP = Hierarchy([["a1", "a", "*"], ["a2", "a", "*"], ["b1", "b", "*"], ["b2", "b", "*"],
                 ["c1", "c", "*"]], name="zip")


def make_table(seed: int, n: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    table = pd.DataFrame({"age": rng.integers(18, 80, n),
                          "zip": rng.choice(["a1", "a2", "b1", "b2", "c1"], n,
                                            p=[0.4, 0.3, 0.15, 0.1, 0.05]),
                          "sex": rng.choice(["F", "M"], n),
                          "s": rng.choice(["x", "y", "z"], n, p=[0.5, 0.3, 0.2])})
    table.index = pd.RangeIndex(1000, 1000 + n)
    return table


CASES = [
    ([KAnonymity(4)], 0.02, "drop", "loss"),
    ([KAnonymity(3), DistinctLDiversity(2)], 0.03, "drop", "infogain"),
    ([KAnonymity(3), TCloseness(Fraction(1, 2))], 0.02, "mask", "widest"),
    ([KAnonymity(3), AverageRisk(Fraction(1, 6))], 0.02, "drop", "loss"),
    ([Policy.uniform([(0, 0, 0, 0.9)]), KAnonymity(3), DistinctLDiversity(2)], 0.03, "drop",
     "infogain"),
]


@pytest.mark.parametrize("criteria, limit, suppressed, split", CASES)
@pytest.mark.parametrize("local_rows", [None, 40])
def test_dask_releases_the_same_rows_as_pandas(to_dask, criteria, limit, suppressed, split,
                                               local_rows):
    """Global levels only (default local_rows) and groups finished on the workers (40):
    the same released rows, the same suppressed count, within the budget."""
    table = make_table(11, 400)
    options = {"qi": ["age", "zip", "sex"], "sensitive": "s", "criteria": criteria,
               "suppression_limit": limit, "suppressed": suppressed,
               "hierarchies": {"zip": ZIP}, "split": split}
    expected = anonymize(table, **options)
    frame = to_dask(table, npartitions=4)
    result = anonymize(frame, local_rows=local_rows, **options)
    released = result.table.compute()
    pd.testing.assert_frame_equal(released, expected.table)
    assert result.suppressed == expected.suppressed <= int(limit * len(table))
    assert result.candidate == expected.candidate
    pd.testing.assert_frame_equal(frame.compute(), table)


def test_dask_errors_name_the_bad_value(to_dask):
    frame = to_dask(make_table(1, 40))
    with pytest.raises(InvalidParameterError, match=r"^The 'suppressed' parameter of "
                       r"anonymize must be one of \['drop', 'mask'\]. Got 'hide' instead.$"):
        anonymize(frame, qi="age", sensitive="s", criteria=[KAnonymity(2)],
                  suppressed="hide")
    with pytest.raises(InvalidParameterError, match=r"^The 'local_rows' parameter of "
                       r"anonymize must be a positive integer. Got 0 instead.$"):
        anonymize(frame, qi="age", sensitive="s", criteria=[KAnonymity(2)], local_rows=0)
