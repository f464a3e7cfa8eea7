"""What a level needs from the data (skyprivacy/anonymize/source.py): the (group, code, count)
entries of rows, the one candidate builder that reads rows and histograms alike, and the
in-memory source's relabelling."""
import numpy as np
import pandas as pd
import pytest

from skyprivacy.anonymize.encoders import NumericQI, SetQI
from skyprivacy.anonymize.source import (
    MemorySource,
    level_candidates,
    pair_totals,
    row_entries,
)
from skyprivacy.release import pair_counts


@pytest.mark.parametrize("wide", [False, True])
def test_row_entries_are_the_distinct_group_codes_with_their_rows(wide):
    rng = np.random.default_rng(int(wide))
    part_of = np.sort(rng.integers(0, 5, 200))
    codes = rng.integers(0, 3 * 2 ** 20 if wide else 30, 200)
    lo = np.array([codes[part_of == p].min() for p in range(5)])
    hi = np.array([codes[part_of == p].max() for p in range(5)])
    part, code, count, entry = row_entries(part_of, codes, lo, hi)
    keys, counts = np.unique(np.stack([part_of, codes], axis=1), axis=0, return_counts=True)
    assert part.tolist() == keys[:, 0].tolist() and code.tolist() == keys[:, 1].tolist()
    assert count.tolist() == counts.tolist()
    assert np.array_equal(part[entry], part_of) and np.array_equal(code[entry], codes)


def test_weighted_pair_totals_are_the_pair_counts_of_the_items_they_stand_for():
    rng = np.random.default_rng(3)
    child, value = rng.integers(0, 40, 500), rng.integers(0, 7, 500)
    weight = rng.integers(1, 5, 500)
    want = pair_counts(np.repeat(child, weight), np.repeat(value, weight), 40, 7)
    for got in (pair_totals(child, value, weight, 40, 7),
                pair_totals(child, value, weight, 10 ** 6, 7)):  # the sorting path too
        assert [a.tolist() for a in got] == [a.tolist() for a in want]


def test_a_histogram_gives_the_candidates_of_its_rows():
    rng = np.random.default_rng(5)
    n = 300
    ages = pd.Series(rng.integers(20, 60, n))
    zips = pd.Series(rng.choice(["a", "b", "c", "d"], n))
    attrs = [NumericQI("age", ages), SetQI("zip", zips)]
    values = rng.integers(0, 4, n)
    part_of = np.sort(rng.integers(0, 6, n))
    starts = np.searchsorted(part_of, np.arange(7))
    source = MemorySource(attrs, np.column_stack([a.codes for a in attrs]),
                          np.arange(n), values, [0, 1, 2, 3], "svpi",
                          rows=np.arange(n), starts=starts)
    from_rows = source.candidates(need_counts=True)
    entries = []
    for attr in attrs:
        keys, count = np.unique(part_of * 1000 + attr.codes, return_counts=True)
        part, code = np.divmod(keys, 1000)
        vkeys, vcount = np.unique((part_of * 1000 + attr.codes) * 10 + values,
                                  return_counts=True)
        vpc, vvalue = np.divmod(vkeys, 10)

        def items(vpc=vpc, vvalue=vvalue, vcount=vcount, keys=keys):
            return np.searchsorted(keys, vpc), vvalue, vcount
        entries.append((part, code, count, items))
    from_histogram = level_candidates(attrs, entries, 6, 4, True)
    for name in ("part", "attr", "n_children", "first_child", "width", "sizes"):
        assert np.array_equal(from_rows[name], from_histogram[name]), name
    for name in ("group", "value", "count"):
        assert np.array_equal(getattr(from_rows["children"], name),
                              getattr(from_histogram["children"], name)), name


def test_the_memory_source_moves_rows_to_their_children_and_numbers_final_groups():
    attr = NumericQI("age", pd.Series([10, 20, 30, 40, 50, 60]))
    source = MemorySource([attr], attr.codes[:, None], np.arange(6), np.zeros(6, dtype=int),
                          ["x"], "svpi")
    cands = source.candidates(need_counts=False)
    assert cands["n"] == 1 and cands["sizes"].tolist() == [3, 3]
    n_children = source.decided(cands, np.array([0]))
    assert n_children.tolist() == [2]
    assert source.advance(np.array([-1]), np.array([0])).tolist() == [3, 3]
    assert source.rows.tolist() == [0, 1, 2, 3, 4, 5] and source.n_parts == 2
    source.decided({"n": 0}, np.array([-1, -1]))
    source.advance(np.array([5, 6]), np.array([-1, -1]))
    assert source.final.tolist() == [5, 5, 5, 6, 6, 6] and source.n_parts == 0
    assert source.finish() == 0
