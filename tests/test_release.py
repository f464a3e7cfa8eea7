"""ReleaseCandidate: constructors, views, validation messages, no mutation of inputs."""
import re

import numpy as np
import pandas as pd
import pytest

from skyprivacy import InvalidParameterError, ReleaseCandidate, SchemaError


def test_from_groups_counts_and_views():
    r = ReleaseCandidate.from_groups([(4, ["AIDS", "AIDS", "Flu", "Flu"]),
                                      (4, ["AIDS", "Cancer", "Flu", "Flu"])])
    assert r.values == ("AIDS", "Cancer", "Flu")
    assert r.count_matrix.tolist() == [[2, 0, 2], [1, 1, 2]]
    assert r.group_sizes.tolist() == [4, 4]
    assert r.value_counts.to_dict() == {"AIDS": 3, "Cancer": 1, "Flu": 4}
    assert list(r.group_labels) == [0, 1]
    assert r.n_groups == 2 and r.n_individuals == 8 and len(r) == 2
    assert r.sorted_counts.tolist() == [[2, 2, 0], [2, 1, 1]]
    assert r.contains("Cancer") and not r.contains("Measles")
    assert "n_groups=2" in repr(r)
    with pytest.raises(ValueError):
        r.count_matrix[0, 0] = 7  # read-only


def test_views_are_copies():
    r = ReleaseCandidate.from_groups([(2, ["a", "b"])])
    frame = r.counts
    frame.iloc[0, 0] = 99
    assert r.count_matrix[0, 0] == 1


def test_generalized_table_groups_by_qi_combination_and_keeps_input():
    table = pd.DataFrame({"zip": ["476**", "476**", "479**", "479**", "476**"],
                          "age": ["2*", "2*", "3*", "3*", "3*"],
                          "disease": ["Flu", "AIDS", "Flu", "Cancer", "Flu"]},
                         index=[10, 11, 12, 13, 14])
    before = table.copy()
    r = ReleaseCandidate.from_table(table, qi=["zip", "age"], sensitive="disease")
    pd.testing.assert_frame_equal(table, before)
    assert isinstance(r.group_labels, pd.MultiIndex)
    assert list(r.group_labels) == [("476**", "2*"), ("476**", "3*"), ("479**", "3*")]
    assert r.group_sizes.tolist() == [2, 1, 2]
    assert r.group_description(2) == "zip=479**, age=3*"


def test_bucketized_table_uses_group_column():
    table = pd.DataFrame({"bucket": [2, 1, 2, 1], "s": ["x", "y", "x", "x"]})
    r = ReleaseCandidate.from_table(table, group="bucket", sensitive="s")
    assert list(r.group_labels) == [1, 2]
    assert r.counts.loc[2, "x"] == 2
    assert r.group_description(0) == "bucket=1"


def test_mvpi_long_format_with_individual_column():
    table = pd.DataFrame({"pid": [1, 1, 2, 3, 3, 3], "g": list("xxxyyy"),
                          "v": ["a", "b", "a", "a", "b", "c"]})
    r = ReleaseCandidate.from_table(table, group="g", individual="pid", sensitive="v",
                                    semantics="mvpi-set")
    assert r.group_sizes.tolist() == [2, 1]
    assert r.count_matrix.tolist() == [[2, 1, 0], [1, 1, 1]]


def test_mvpi_list_cells_and_empty_sets():
    table = pd.DataFrame({"g": ["x", "x", "y"], "v": [["a", "b"], [], ("a", "a")]})
    r = ReleaseCandidate.from_table(table, group="g", sensitive="v", semantics="mvpi-multiset")
    assert r.group_sizes.tolist() == [2, 1]
    assert r.count_matrix.tolist() == [[1, 1], [2, 0]]


def test_missing_as_value_is_a_category():
    table = pd.DataFrame({"q": ["a", "a", "b"], "s": ["x", None, "x"]})
    r = ReleaseCandidate.from_table(table, qi="q", sensitive="s", missing="as_value")
    assert len(r.values) == 2 and pd.isna(r.values[1])
    assert r.value_index(float("nan")) == 1
    assert r.count_matrix.tolist() == [[1, 1], [1, 0]]


def test_from_counts_round_trip():
    r = ReleaseCandidate.from_groups([(3, ["a", "b", "b"]), (1, ["a"])])
    again = ReleaseCandidate.from_counts(r.sizes_array, r.count_matrix, r.values)
    assert again == r
    assert r != ReleaseCandidate.from_groups([(3, ["a", "b", "b"])])


def test_to_frame():
    frame = ReleaseCandidate.from_groups([(2, ["a", "b"]), (1, ["a"])]).to_frame()
    assert list(frame.columns) == ["n_individuals", "a", "b"]
    assert frame["n_individuals"].tolist() == [2, 1]


# ------------------------------------------------------------------ every error message
@pytest.mark.parametrize("call,exc,message", [
    (lambda: ReleaseCandidate.from_groups([], semantics="svpi"), InvalidParameterError,
     "The 'groups' parameter of ReleaseCandidate.from_groups must contain at least one group. "
     "Got an empty iterable instead."),
    (lambda: ReleaseCandidate.from_groups(5), InvalidParameterError,
     "The 'groups' parameter of ReleaseCandidate.from_groups must be an iterable of "
     "(n_individuals, values) pairs. Got 5 instead."),
    (lambda: ReleaseCandidate.from_groups([(2, ["a", "b"])], semantics="mvpi"),
     InvalidParameterError,
     "The 'semantics' parameter of ReleaseCandidate.from_groups must be one of "
     "['svpi', 'mvpi-set', 'mvpi-multiset']. Got 'mvpi' instead."),
    (lambda: ReleaseCandidate.from_groups([(2, ["a", "b"]), 7]), InvalidParameterError,
     "Group 1 must be an (n_individuals, values) pair. Got 7 instead."),
    (lambda: ReleaseCandidate.from_groups([(0, [])]), InvalidParameterError,
     "Group 0 must have a positive integer number of individuals. Got 0 instead."),
    (lambda: ReleaseCandidate.from_groups([(2.0, ["a", "b"])]), InvalidParameterError,
     "Group 0 must have a positive integer number of individuals. Got 2.0 instead."),
    (lambda: ReleaseCandidate.from_groups([(2, "ab")]), InvalidParameterError,
     "Group 0 must list its sensitive values as an iterable. Got 'ab' instead."),
    (lambda: ReleaseCandidate.from_groups([(3, ["a", "b"])]), InvalidParameterError,
     "Group 0 has 3 individuals but 2 sensitive values; svpi needs exactly one value per "
     "individual."),
    (lambda: ReleaseCandidate.from_groups([(1, ["a", "a"])], semantics="mvpi-set"),
     InvalidParameterError,
     "Group 0 holds value 'a' 2 times but has only 1 individuals; mvpi-set allows each value "
     "at most once per person."),
    (lambda: ReleaseCandidate.from_counts([], [], []), InvalidParameterError,
     "The 'sizes' parameter of ReleaseCandidate.from_counts must be a non-empty "
     "one-dimensional array. Got array([], dtype=float64) instead."),
    (lambda: ReleaseCandidate.from_counts([1], [[1, 0]], ["a"]), InvalidParameterError,
     "The 'counts' parameter of ReleaseCandidate.from_counts must have shape (len(sizes), "
     "len(values)) = (1, 1). Got (1, 2) instead."),
    (lambda: ReleaseCandidate.from_counts([1], [[0.5]], ["a"]), InvalidParameterError,
     "The 'counts' parameter of ReleaseCandidate.from_counts must hold integers. "
     "Got dtype('float64') instead."),
    (lambda: ReleaseCandidate.from_counts([0], [[0]], ["a"]), InvalidParameterError,
     "Group 0 must have a positive integer number of individuals. Got 0 instead."),
    (lambda: ReleaseCandidate.from_counts([1], [[-1]], ["a"]), InvalidParameterError,
     "The 'counts' parameter of ReleaseCandidate.from_counts must be non-negative. "
     "Got -1 instead."),
    (lambda: ReleaseCandidate.from_counts([2], [[1, 1]], ["a", "a"]), InvalidParameterError,
     "The 'values' parameter of ReleaseCandidate.from_counts must be distinct. "
     "Got ['a', 'a'] instead."),
    (lambda: ReleaseCandidate.from_counts([1], [[1]], ["a"], labels=["x", "y"]),
     InvalidParameterError,
     "The 'labels' parameter of ReleaseCandidate.from_counts must have 1 entries. "
     "Got 2 instead."),
])
def test_constructor_errors(call, exc, message):
    with pytest.raises(exc, match=re.escape(message)):
        call()


TABLE = pd.DataFrame({"zip": ["1", "1", "2"], "disease": ["a", "b", "a"],
                      "pid": [1, 2, 3]})


@pytest.mark.parametrize("kwargs,exc,message", [
    (dict(sensitive="disease"), InvalidParameterError,
     "ReleaseCandidate.from_table needs exactly one of 'qi' (generalized table) and 'group' "
     "(bucketized table). Got qi=None and group=None instead."),
    (dict(sensitive="disease", qi="zip", group="pid"), InvalidParameterError,
     "needs exactly one of 'qi' (generalized table) and 'group' (bucketized table). "
     "Got qi='zip' and group='pid' instead."),
    (dict(sensitive="disease", qi=[]), InvalidParameterError,
     "The 'qi' parameter of ReleaseCandidate.from_table must name at least one column. "
     "Got [] instead."),
    (dict(sensitive="diagnosis", qi="zip"), SchemaError,
     "Column 'diagnosis' is not in the table; columns are ['zip', 'disease', 'pid']."),
    (dict(sensitive="disease", qi="disease"), InvalidParameterError,
     "ReleaseCandidate.from_table needs distinct columns for the groups, the sensitive value "
     "and the individual. Got ['disease', 'disease'] instead."),
    (dict(sensitive="disease", qi="zip", missing="drop"), InvalidParameterError,
     "The 'missing' parameter of ReleaseCandidate.from_table must be one of "
     "['error', 'as_value']. Got 'drop' instead."),
    (dict(sensitive="disease", qi="zip", semantics="SVPI"), InvalidParameterError,
     "The 'semantics' parameter of ReleaseCandidate.from_table must be one of"),
])
def test_from_table_parameter_errors(kwargs, exc, message):
    with pytest.raises(exc, match=re.escape(message)):
        ReleaseCandidate.from_table(TABLE, **kwargs)


def test_from_table_rejects_non_frames_and_empty_tables():
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'table' parameter of ReleaseCandidate.from_table must be a pandas DataFrame. "
            "Got 'dict' instead.")):
        ReleaseCandidate.from_table({"a": [1]}, qi="a", sensitive="b")
    with pytest.raises(SchemaError, match=re.escape(
            "The table is empty: a release candidate needs at least one row.")):
        ReleaseCandidate.from_table(TABLE.iloc[:0], qi="zip", sensitive="disease")


def test_missing_values_error_names_column_and_count():
    table = pd.DataFrame({"zip": ["1", None, None], "disease": ["a", "b", "a"]})
    with pytest.raises(SchemaError, match=re.escape(
            "Column 'zip' has 2 missing value(s); pass missing='as_value' to treat them as a "
            "category, or clean the table.")):
        ReleaseCandidate.from_table(table, qi="zip", sensitive="disease")
    table = pd.DataFrame({"g": [1, 1], "v": [["a", None], ["b"]]})
    with pytest.raises(SchemaError, match=re.escape(
            "Column 'v' has 1 missing value(s) inside list cells; pass missing='as_value'")):
        ReleaseCandidate.from_table(table, group="g", sensitive="v", semantics="mvpi-multiset")


def test_schema_errors_for_individuals_and_list_cells():
    with pytest.raises(SchemaError, match=re.escape(
            "Column 'v' holds a list-like cell at row 0; svpi allows exactly one sensitive value "
            "per individual (use semantics='mvpi-set' or 'mvpi-multiset').")):
        ReleaseCandidate.from_table(pd.DataFrame({"g": [1], "v": [["a", "b"]]}),
                                    group="g", sensitive="v")
    with pytest.raises(SchemaError, match=re.escape(
            "Individual 7 appears in 2 rows; svpi allows one row per individual.")):
        ReleaseCandidate.from_table(pd.DataFrame({"g": [1, 1], "v": ["a", "b"], "p": [7, 7]}),
                                    group="g", sensitive="v", individual="p")
    with pytest.raises(SchemaError, match=re.escape(
            "Individual 'ann' appears in more than one QI-group; each individual must belong to "
            "exactly one group.")):
        ReleaseCandidate.from_table(
            pd.DataFrame({"g": [1, 2], "v": ["a", "b"], "p": ["ann", "ann"]}),
            group="g", sensitive="v", individual="p", semantics="mvpi-set")
    with pytest.raises(SchemaError, match=re.escape(
            "Individual 'ann' holds value 'a' more than once; mvpi-set allows each value at most "
            "once per person (use semantics='mvpi-multiset').")):
        ReleaseCandidate.from_table(
            pd.DataFrame({"g": [1, 1], "v": ["a", "a"], "p": ["ann", "ann"]}),
            group="g", sensitive="v", individual="p", semantics="mvpi-set")
    with pytest.raises(SchemaError, match=re.escape(
            "The individual in row 'r2' holds value 'a' more than once")):
        ReleaseCandidate.from_table(
            pd.DataFrame({"g": [1, 1], "v": [["b"], ["a", "a"]]}, index=["r1", "r2"]),
            group="g", sensitive="v", semantics="mvpi-set")


def test_a_large_table_gives_exactly_the_groupby_counts():
    rng = np.random.default_rng(0)
    table = pd.DataFrame({"a": rng.integers(0, 30, 200_000), "b": rng.integers(0, 20, 200_000),
                          "s": rng.integers(0, 10, 200_000)})
    r = ReleaseCandidate.from_table(table, qi=["a", "b"], sensitive="s")
    assert r.n_individuals == 200_000
    assert np.array_equal(r.sizes_array, table.groupby(["a", "b"]).size().to_numpy())
    # every (group, value, count) nonzero, against pandas on the same rows
    expected = table.groupby(["a", "b", "s"]).size()
    nonzeros = r.nonzeros()  # group labels are the (a, b) tuples
    got = pd.Series(nonzeros["count"].to_numpy(), index=pd.MultiIndex.from_tuples(
        [(a, b, s) for (a, b), s in zip(nonzeros["group"], nonzeros["value"])],
        names=["a", "b", "s"]))
    assert got.sort_index().equals(expected.sort_index())

# ------------------------------------------------------------------ CSR input and storage
def test_from_csr_adopts_rows_in_model_order_without_a_copy():
    r = ReleaseCandidate.from_groups([(4, ["AIDS", "AIDS", "Flu", "Flu"]),
                                      (4, ["AIDS", "Cancer", "Flu", "Flu"])])
    indptr, value, count = r.csr
    assert value.dtype == np.int32 and count.dtype == np.int32 and indptr.dtype == np.int64
    # rows: counts descending, ties by value position
    assert value.tolist() == [0, 2, 2, 0, 1] and count.tolist() == [2, 2, 2, 1, 1]
    again = ReleaseCandidate.from_csr(r.sizes_array, indptr, value, count, r.values)
    assert again == r
    assert np.shares_memory(again.csr[1], value) and np.shares_memory(again.csr[2], count)


def test_from_csr_sorts_rows_given_in_another_order():
    r = ReleaseCandidate.from_csr([3, 2], [0, 2, 4], [0, 1, 2, 0], [1, 2, 1, 1],
                                  ["a", "b", "c"], labels=["x", "y"])
    assert r == ReleaseCandidate.from_counts([3, 2], [[1, 2, 0], [1, 0, 1]], ["a", "b", "c"],
                                             labels=["x", "y"])
    assert r.csr[1].tolist() == [1, 0, 0, 2]


@pytest.mark.parametrize("args,kwargs,message", [
    (([2], [0, 1], [0], [2], ["a"]), dict(semantics="x"),
     "The 'semantics' parameter of ReleaseCandidate.from_csr must be one of "
     "['svpi', 'mvpi-set', 'mvpi-multiset']. Got 'x' instead."),
    (([], [0], [], [], ["a"]), {},
     "The 'sizes' parameter of ReleaseCandidate.from_csr must be a non-empty "
     "one-dimensional array. Got array([], dtype=float64) instead."),
    (([2.0], [0, 1], [0], [2], ["a"]), {},
     "The 'sizes' parameter of ReleaseCandidate.from_csr must hold integers. "
     "Got dtype('float64') instead."),
    (([2], [0, 1], [0.0], [2], ["a"]), {},
     "The 'value' parameter of ReleaseCandidate.from_csr must be a one-dimensional integer "
     "array. Got dtype('float64') instead."),
    (([2], [0, 1], [0], [1, 1], ["a"]), {},
     "The 'count' parameter of ReleaseCandidate.from_csr must have as many entries as "
     "'value' (1). Got 2 instead."),
    (([2], [0, 2], [0], [2], ["a"]), {},
     "The 'indptr' parameter of ReleaseCandidate.from_csr must rise from 0 to 1 in 2 "
     "entries. Got [0, 2] instead."),
    (([1, 1], [0, 2, 1], [0, 1], [1, 1], ["a", "b"]), {},
     "The 'indptr' parameter of ReleaseCandidate.from_csr must rise from 0 to 2 in 3 "
     "entries. Got [0, 2, 1] instead."),
    (([2], [0, 1], [3], [2], ["a"]), {},
     "The 'value' parameter of ReleaseCandidate.from_csr must hold positions in 0..0. "
     "Got 3 instead."),
    (([2], [0, 1], [0], [0], ["a"]), {},
     "The 'count' parameter of ReleaseCandidate.from_csr must be positive. Got 0 instead."),
    (([2], [0, 2], [0, 0], [1, 1], ["a"]), {},
     "The 'value' parameter of ReleaseCandidate.from_csr must be distinct within a row. "
     "Got 'row 0 repeats a value' instead."),
    (([0], [0, 1], [0], [1], ["a"]), {},
     "Group 0 must have a positive integer number of individuals. Got 0 instead."),
    (([2], [0, 1], [0], [2], ["a", "a"]), {},
     "The 'values' parameter of ReleaseCandidate.from_csr must be distinct. "
     "Got ['a', 'a'] instead."),
    (([2], [0, 1], [0], [2], ["a"]), dict(labels=["x", "y"]),
     "The 'labels' parameter of ReleaseCandidate.from_csr must have 1 entries. "
     "Got 2 instead."),
    (([2, 3], [0, 1, 2], [0, 0], [2, 2], ["a"]), {},
     "Group 1 has 3 individuals but 2 sensitive values; svpi needs exactly one value per "
     "individual."),
    (([1, 2], [0, 1, 3], [0, 1, 0], [1, 3, 1], ["a", "b"]), dict(semantics="mvpi-set"),
     "Group 1 holds value 'b' 3 times but has only 2 individuals; mvpi-set allows each "
     "value at most once per person."),
])
def test_from_csr_errors(args, kwargs, message):
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        ReleaseCandidate.from_csr(*args, **kwargs)


def test_checks_over_pieces_agree_with_whole_arrays(monkeypatch):
    """Validation, totals and the by-value index run over pieces of the nonzeros; with pieces
    of a few entries they give what one pass gives."""
    import skyprivacy.release as release_module

    rng = np.random.default_rng(3)
    counts = rng.integers(0, 3, size=(40, 9)) * (rng.random((40, 9)) < 0.5)
    counts[:, 0] += 1
    sizes = counts.sum(axis=1)
    values = [f"v{j}" for j in range(9)]
    whole = ReleaseCandidate.from_counts(sizes, counts, values)
    monkeypatch.setattr(release_module, "PIECE", 5)
    pieces = ReleaseCandidate.from_csr(sizes, *whole.csr, values)
    assert pieces == whole
    assert pieces.value_totals.tolist() == counts.sum(axis=0).tolist()
    assert pieces.holders_per_value.tolist() == (counts > 0).sum(axis=0).tolist()
    ptr, order = pieces.by_value
    _, value, _ = whole.csr
    for j in range(9):  # value j's entries, in group order
        entries = order[ptr[j]:ptr[j + 1]]
        assert (value[entries] == j).all() and (np.diff(entries) > 0).all()
        assert len(entries) == (counts[:, j] > 0).sum()
    bad = counts.copy()
    bad[17, 3] += 1
    with pytest.raises(InvalidParameterError, match="^Group 17 has"):
        ReleaseCandidate.from_csr(sizes, *ReleaseCandidate.from_counts(
            bad.sum(axis=1) - (np.arange(40) == 17), bad, values,
            semantics="mvpi-multiset").csr, values)


def test_row_chunks_cover_every_row_once():
    from skyprivacy.release import row_chunks

    indptr = np.array([0, 3, 3, 10, 11, 30, 31])
    chunks = list(row_chunks(indptr, piece=4))
    assert chunks == [(0, 2, 0, 3), (2, 3, 3, 10), (3, 4, 10, 11), (4, 5, 11, 30),
                      (5, 6, 30, 31)]
    assert list(row_chunks(indptr, piece=100)) == [(0, 6, 0, 31)]
