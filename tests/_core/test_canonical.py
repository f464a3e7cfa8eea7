"""The one normalization of text (skyprivacy._core.canonical): NFC, zero-width characters
removed, surrounding whitespace per ``whitespace``; applied to distinct values."""
import unicodedata

import numpy as np
import pytest

from skyprivacy._core.canonical import (
    canonical_codes,
    canonical_positions,
    canonical_text,
    invisible_differences,
    merged_message,
    normalization_record,
    numeric_spellings,
    spellings_message,
    whitespace_of,
)

NFC = "caf\u00e9"
NFD = unicodedata.normalize("NFD", NFC)


def test_nfc_zero_width_and_whitespace_are_the_one_normalization():
    assert NFD != NFC and canonical_text(NFD) == NFC
    assert canonical_text("Flu\u200b") == canonical_text("\ufeffFlu") == "Flu"
    assert canonical_text("F\u2060lu") == "Flu"
    assert canonical_text(" Flu\t") == "Flu" and canonical_text(" Flu\t", "keep") == " Flu\t"
    assert canonical_text(f" {NFD} ", "keep") == f" {NFC} "
    assert canonical_text(NFD, None) == NFD  # None: as written
    assert canonical_text(3) == 3 and canonical_text(None) is None


def test_joiners_are_kept_and_values_differing_only_by_them_are_named():
    zwj = "a\u200db"
    assert canonical_text(zwj) == zwj  # a joiner changes how text renders: kept
    assert invisible_differences(["ab", zwj, "c"]) == [("ab", zwj)]
    assert invisible_differences(["ab", "c"]) == []


def test_only_the_distinct_values_are_normalized_and_codes_follow():
    codes = np.array([0, 1, 2, 3, 0])
    out, uniques, merged = canonical_codes(codes, [NFC, NFD, "Flu", "Flu "])
    assert uniques == ["Flu", NFC]
    assert out.tolist() == [1, 1, 0, 0, 1]
    assert merged == [("Flu", "Flu "), tuple(sorted([NFC, NFD]))]
    same = np.array([0, 1])
    out, uniques, merged = canonical_codes(same, ["a", "b"])
    assert out is same and merged == []  # nothing changed: the rows are not touched


def test_keep_order_keeps_the_order_given():
    out, uniques, merged = canonical_codes(np.array([0, 1, 2]), ["z", "a ", "a"],
                                           keep_order=True)
    assert uniques == ["z", "a"] and out.tolist() == [0, 1, 1]


def test_whitespace_keep_keeps_values_apart():
    out, uniques, merged = canonical_codes(np.array([0, 1]), ["Flu", "Flu "], "keep")
    assert uniques == ["Flu", "Flu "] and merged == []


def test_the_message_names_each_spelling_and_what_sets_it_apart():
    message = merged_message("dx", [(NFD, NFC)], "strip")
    assert message == (f"Column 'dx': {NFD!r} (NFD) and {NFC!r} (NFC) are the same value "
                       f"after NFC and whitespace='strip'; compared as one.")
    message = merged_message("dx", [("Flu", "Flu\u200b")], "strip")
    assert "'Flu\\u200b' (zero-width U+200B)" in message


def test_numbers_spelled_several_ways_are_found():
    assert numeric_spellings(["1", "1.0", "01", "2"]) == [("1", "1.0", "01")]
    assert numeric_spellings(["1", "2", "x"]) == []
    assert spellings_message("age", [("1", "01", "1.0")], 3, numbers=False) == (
        "Column 'age' mixes numeric spellings '1', '01', '1.0': treated as text, 3 distinct "
        "values; pass numeric=['age'] (--numeric age) to compare them as numbers.")


def test_the_record_round_trips_and_nothing_else_is_read():
    assert normalization_record("strip") == {"unicode": "NFC", "whitespace": "strip",
                                             "removed": ["U+200B", "U+2060", "U+FEFF"]}
    assert whitespace_of(normalization_record("keep")) == "keep"
    assert whitespace_of(None) is None
    with pytest.raises(ValueError, match=r"'normalization' must be .* got \{'unicode': 'NFKC'"):
        whitespace_of({"unicode": "NFKC", "whitespace": "strip"})


def test_positions_of_cells_in_canonical_values():
    import pandas as pd
    assert canonical_positions([NFC, "b"], pd.Series([NFD, "b ", "c"]),
                               "strip").tolist() == [0, 1, -1]
