"""What a level needs from the data (skyprivacy/anonymize/source.py): distinct rows of code
columns, the (group, code, count) entries of rows, the one candidate builder that reads rows
and histograms alike, and the in-memory source's relabelling."""
import numpy as np
import pandas as pd
import pytest

from skyprivacy.anonymize.encoders import NumericQI, SetQI
from skyprivacy.anonymize.source import (
    MemorySource,
    distinct_rows,
    level_candidates,
    lexicographic_ids,
    narrow,
    row_entries,
)


@pytest.mark.parametrize("wide", [False, True])
def test_row_entries_are_the_distinct_group_codes_with_their_rows(wide):
    rng = np.random.default_rng(int(wide))
    part_of = np.sort(rng.integers(0, 5, 200))
    codes = rng.integers(0, 3 * 2 ** 20 if wide else 30, 200)
    part, code, count, entry = row_entries(part_of, codes, 5, int(codes.max()) + 1)
    keys, counts = np.unique(np.stack([part_of, codes], axis=1), axis=0, return_counts=True)
    assert part.tolist() == keys[:, 0].tolist() and code.tolist() == keys[:, 1].tolist()
    assert count.tolist() == counts.tolist()
    assert np.array_equal(part[entry], part_of) and np.array_equal(code[entry], codes)


@pytest.mark.parametrize("card, dtype", [
    (2, np.int8), (127, np.int8), (128, np.int16), (32767, np.int16), (32768, np.int32),
    (2 ** 31 - 1, np.int32), (2 ** 31, np.int64),
])
def test_narrow_picks_the_smallest_signed_type_holding_the_card(card, dtype):
    narrowed = narrow(np.array([0, 1], dtype=np.int64), card)
    assert narrowed.dtype == dtype and narrowed.tolist() == [0, 1]


def test_narrow_does_not_copy_an_array_already_narrow():
    array = np.array([1, 2], dtype=np.int8)
    assert narrow(array, 5) is array


# five rows of two code columns: (1, 2) three times, (0, 0) and (0, 1) once each
A = np.array([1, 0, 1, 0, 1])
B = np.array([2, 0, 2, 1, 2])
WEIGHTS = np.array([1, 2, 3, 4, 5])


@pytest.mark.parametrize("cards", [
    [2, 3],              # a packed key and a table of every key
    [1000, 1000],        # a packed key sorted (the table would be too large)
    [2 ** 31, 2 ** 31],  # no packed key fits in int64: grouped by pandas
], ids=["table", "sort", "pandas"])
def test_distinct_rows_are_sorted_and_counted(cards):
    rows, counts = distinct_rows([A, B], cards)
    assert [r.tolist() for r in rows] == [[0, 0, 1], [0, 1, 2]]
    assert counts.tolist() == [1, 1, 3] and counts.dtype == np.int64
    rows, sums = distinct_rows([A, B], cards, WEIGHTS)
    assert sums.tolist() == [2, 4, 1 + 3 + 5]
    ids, rows = lexicographic_ids([A, B], cards)
    assert ids.tolist() == [2, 0, 2, 1, 2] and ids.dtype == np.int64
    assert [r.tolist() for r in rows] == [[0, 0, 1], [0, 1, 2]]


def test_one_column_grouped_by_pandas():
    rows, counts = distinct_rows([np.array([5, 3, 5])], [2 ** 62])
    assert [r.tolist() for r in rows] == [[3, 5]] and counts.tolist() == [1, 2]


def test_compact_rows_and_sums_come_back_narrow():
    rows, sums = distinct_rows([A, B], [2, 300], WEIGHTS, compact=True)
    assert [r.dtype for r in rows] == [np.int8, np.int16] and sums.dtype == np.int8
    assert [r.tolist() for r in rows] == [[0, 0, 1], [0, 1, 2]] and sums.tolist() == [2, 4, 9]


def test_no_rows():
    empty = np.zeros(0, dtype=np.int64)
    rows, counts = distinct_rows([empty, empty], [2, 3])
    assert [r.tolist() for r in rows] == [[], []] and counts.tolist() == []
    ids, rows = lexicographic_ids([empty, empty], [2, 3])
    assert ids.tolist() == [] and [r.tolist() for r in rows] == [[], []]


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
    source.advance(np.array([-1]), np.array([0]))
    assert source.sizes.tolist() == [3, 3]
    assert source.rows.tolist() == [0, 1, 2, 3, 4, 5] and source.n_parts == 2
    source.decided({"n": 0}, np.array([-1, -1]))
    source.advance(np.array([5, 6]), np.array([-1, -1]))
    assert source.final.tolist() == [5, 5, 5, 6, 6, 6] and source.n_parts == 0
    assert source.finish() == 0
