"""Both engines compare text after the same normalization (docs/canonical-text.md): the Dask
release equals the pandas one, with the same reports."""
import unicodedata
import warnings

import pandas as pd
import pytest

from skyprivacy import ReleaseCandidate
from skyprivacy.errors import CanonicalTextWarning, SchemaError

NFC = "caf\u00e9"
NFD = unicodedata.normalize("NFD", NFC)


def reports(call):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        out = call()
    return out, [str(w.message) for w in seen if issubclass(w.category, CanonicalTextWarning)]


def test_the_dask_release_normalizes_as_the_pandas_one(to_dask):
    table = pd.DataFrame({"city": ["Rome", NFD, " Rome", NFC, "Rome\u200b", NFD] * 3,
                          "age": ["1", "01", "1", "1.0", "2", "2"] * 3,
                          "disease": ["Flu", "Flu ", NFC, NFD, "Cold", "Cold"] * 3})
    for whitespace in ("strip", "keep", None):
        expected, said = reports(lambda ws=whitespace: ReleaseCandidate.from_table(
            table, qi=["city", "age"], sensitive="disease", whitespace=ws))
        got, told = reports(lambda ws=whitespace: ReleaseCandidate.from_table(
            to_dask(table), qi=["city", "age"], sensitive="disease", whitespace=ws))
        assert got == expected and got.whitespace == expected.whitespace == whitespace
        assert told == said
    assert any("'age' mixes numeric spellings" in m for m in said)


def test_individuals_are_grouped_by_canonical_cells(to_dask):
    table = pd.DataFrame({"city": [NFC, NFD, "Rome ", "Rome"],
                          "person": ["a", "a", "b", "b"],
                          "disease": ["Flu", "Cold", "Flu", "HIV"]})
    expected, _ = reports(lambda: ReleaseCandidate.from_table(
        table, qi="city", sensitive="disease", individual="person", semantics="mvpi-set"))
    got, _ = reports(lambda: ReleaseCandidate.from_table(
        to_dask(table, npartitions=2), qi="city", sensitive="disease", individual="person",
        semantics="mvpi-set"))
    assert got == expected and got.n_groups == 2


def test_a_person_holding_one_value_in_two_spellings_is_refused_alike(to_dask):
    table = pd.DataFrame({"zip": ["1*"] * 4,
                          "disease": [["Flu", "HIV"], ["Cold"], ["Flu", "Flu "], ["HIV"]]})
    message = (r"The individual in row 2 holds value 'Flu' more than once; mvpi-set allows "
               r"each value at most once per person")
    with pytest.raises(SchemaError, match=message):
        ReleaseCandidate.from_table(table, qi="zip", sensitive="disease",
                                    semantics="mvpi-set")
    with pytest.raises(SchemaError, match=message):
        ReleaseCandidate.from_table(to_dask(table, npartitions=2), qi="zip",
                                    sensitive="disease", semantics="mvpi-set")


def test_the_anonymizers_take_the_whitespace_option_on_dask_as_on_pandas(to_dask):
    from skyprivacy import Policy, anonymize
    from skyprivacy.anonymize import k_anonymize, skyline_anonymize
    from skyprivacy.criteria import KAnonymity

    # ' a' and 'a' (and ' Flu' and 'Flu') are one value under strip, two under keep
    table = pd.DataFrame({"city": [" a", "a", " a", "a", "b", "b", "b"],
                          "disease": ["Flu", "Cold", "HIV", "Gout", "Flu", " Flu", "Cold"]})
    policy = Policy.uniform([(0, 0, 0, 0.6)])
    calls = {
        "skyline": lambda t, ws: skyline_anonymize(t, qi="city", sensitive="disease",
                                                   policy=policy, whitespace=ws),
        "k": lambda t, ws: k_anonymize(t, qi="city", k=2, drop=["disease"], whitespace=ws),
        "criteria": lambda t, ws: anonymize(t, qi="city", sensitive="disease",
                                            criteria=[KAnonymity(2), policy], whitespace=ws)}
    groups = {}
    for name, call in calls.items():
        for whitespace in ("strip", "keep"):
            expected, said = reports(lambda c=call, ws=whitespace: c(table, ws))
            got, told = reports(lambda c=call, ws=whitespace: c(to_dask(table, npartitions=3),
                                                                ws))
            pd.testing.assert_frame_equal(got.table.compute().sort_index(),
                                          expected.table.sort_index())
            assert told == said
            groups[name, whitespace] = expected.table["city"].nunique()
    assert groups == {("skyline", "strip"): 1, ("skyline", "keep"): 3,
                      ("k", "strip"): 2, ("k", "keep"): 3,
                      ("criteria", "strip"): 1, ("criteria", "keep"): 3}
