"""Every column classified (issue 26 item 1): the one home of the roles and their messages,
in both spellings (Python keywords, command-line flags)."""
import warnings

import pandas as pd
import pytest

from skyprivacy._core.classification import (
    Classification,
    classification_from_dict,
    classify_columns,
    column_differences,
    verified_columns,
)
from skyprivacy.errors import InvalidParameterError, UnanalysedColumnWarning, UsageError

COLUMNS = ["age", "zip", "name", "dx", "note"]


def test_every_column_classified_gives_each_its_role_in_table_order():
    c = classify_columns(COLUMNS, qi=["zip", "age"], sensitive="dx", keep=["note"],
                         drop="name")
    assert c == Classification(qi=("zip", "age"), sensitive="dx", kept=("note",),
                               dropped=("name",))
    assert c.to_dict() == {"qi": ["zip", "age"], "sensitive": "dx", "kept": ["note"],
                           "dropped": ["name"]}
    assert c.released == ("zip", "age", "dx", "note")
    assert classification_from_dict(c.to_dict()) == c
    assert c.explain() == ("Columns: quasi-identifiers 'zip', 'age'; sensitive 'dx'; kept as "
                           "is: 'note'; dropped: 'name'.")


def test_select_leaves_out_the_dropped_columns_and_never_touches_the_table():
    table = pd.DataFrame({name: [1, 2] for name in COLUMNS})
    before = table.copy()
    c = classify_columns(table.columns, qi="age", sensitive="dx", drop=["name", "zip"],
                         keep="note")
    out = c.select(table)
    assert list(out.columns) == ["age", "dx", "note"]
    pd.testing.assert_frame_equal(table, before)
    nothing = classify_columns(["age", "dx"], qi="age", sensitive="dx")
    assert nothing.select(table) is table


@pytest.mark.parametrize("style, error, words", [
    ("python", InvalidParameterError, ("keep=[...]", "drop=[...]", "keep_rest=True")),
    ("cli", UsageError, ("--keep COL,...", "--drop COL,...", "--keep-rest")),
])
def test_an_unclassified_column_is_one_line_listing_them_and_how_to_classify(style, error,
                                                                             words):
    with pytest.raises(error) as raised:
        classify_columns(COLUMNS, qi="age", sensitive="dx", keep="zip", style=style)
    keep, drop, rest = words
    assert str(raised.value) == (
        f"2 column(s) of the table are not classified: 'name', 'note'; name each one a "
        f"quasi-identifier or the sensitive column, keep it ({keep}: published as is) or "
        f"drop it ({drop}: left out of the release), or pass {rest} to copy them "
        f"unanalysed.")
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("style, error, keep, drop", [
    ("python", InvalidParameterError, "keep", "drop"),
    ("cli", UsageError, "--keep", "--drop"),
])
def test_a_column_given_two_roles_or_one_the_table_lacks_is_named(style, error, keep, drop):
    def classify(**options):
        return classify_columns(COLUMNS, qi=["age", "zip"], sensitive="dx", style=style,
                                **{"keep": ["note"], "drop": ["name"], **options})

    with pytest.raises(error, match=r"^Column 'note' is both kept and dropped; give every "
                                    r"column one role\.$"):
        classify(drop=["name", "note"])
    with pytest.raises(error, match=r"^Column 'age' is both a quasi-identifier and kept; "
                                    r"give every column one role\.$"):
        classify(keep=["note", "age"])
    with pytest.raises(error, match=r"^Column 'dx' is both the sensitive column and dropped; "
                                    r"give every column one role\.$"):
        classify(drop=["name", "dx"])
    with pytest.raises(error) as raised:
        classify(keep=["note", "nmae"])
    assert str(raised.value) == (f"{keep} names 'nmae', which the table does not have; its "
                                 f"columns are 'age', 'zip', 'name', 'dx', 'note'.")
    with pytest.raises(error) as raised:
        classify(drop=["name", "Zip"])
    assert str(raised.value).startswith(f"{drop} names 'Zip', which the table does not have")


def test_bad_option_values_are_named_with_the_house_template():
    with pytest.raises(InvalidParameterError, match=r"^The 'keep' parameter of anonymize must "
                                                    r"be None or a list of column names\. Got "
                                                    r"5 instead\.$"):
        classify_columns(COLUMNS, qi="age", sensitive="dx", keep=5)
    with pytest.raises(InvalidParameterError, match=r"^The 'keep_rest' parameter of anonymize "
                                                    r"must be True or False\. Got 'yes' "
                                                    r"instead\.$"):
        classify_columns(COLUMNS, qi="age", sensitive="dx", keep_rest="yes")


def test_keep_rest_copies_the_rest_and_says_so_loudly():
    with pytest.warns(UnanalysedColumnWarning) as caught:
        c = classify_columns(COLUMNS, qi="age", sensitive="dx", drop="name", keep_rest=True)
    assert str(caught[0].message) == (
        "WARNING: keep_rest=True copied 2 column(s) into the release unanalysed: 'zip', "
        "'note'; no privacy check covers them.")
    assert c.kept == ("zip", "note") and c.copied == ("zip", "note")
    assert c.explain().splitlines()[1] == str(caught[0].message)
    with warnings.catch_warnings():  # the command line prints it instead of warning
        warnings.simplefilter("error")
        cli = classify_columns(COLUMNS, qi="age", sensitive="dx", drop="name",
                               keep_rest=True, style="cli")
    assert cli.copied_message("cli") == (
        "WARNING: --keep-rest copied 2 column(s) into the release unanalysed: 'zip', 'note'; "
        "no privacy check covers them.")


def test_grouping_columns_and_k_anonymity_without_a_sensitive_column():
    c = classify_columns(["b", "dx", "id", "x"], qi=[], sensitive="dx", others=["b", "id"],
                         drop="x")
    assert c.explain() == ("Columns: no quasi-identifiers; sensitive 'dx'; grouping 'b', 'id'; "
                           "kept as is: none; dropped: 'x'.")
    assert c.released == ("dx", "b", "id")
    k = classify_columns(["age", "x"], qi="age", sensitive=None, keep="x")
    assert k.to_dict()["sensitive"] is None and k.released == ("age", "x")


def test_a_dropped_note_and_the_verified_clause():
    c = classify_columns(COLUMNS, qi="age", sensitive="dx", drop=["name", "zip"], keep="note")
    assert c.dropped_note() == ("Certified without the dropped column(s) 'zip', 'name': "
                                "publish the table without them (verify checks the columns).")
    assert verified_columns(c.to_dict()) == "columns checked: kept as is (not analysed) 'note', "
    assert verified_columns({**c.to_dict(), "kept": []}) == ("columns checked: none kept "
                                                             "unanalysed, ")
    assert verified_columns(None) == ""


def test_column_differences_name_unlisted_and_absent_columns():
    c = classification_from_dict({"qi": ["age"], "sensitive": "dx", "kept": ["note"],
                                  "dropped": ["name"]})
    assert column_differences(["age", "dx", "note"], c) == []
    assert column_differences(["age", "dx", "note", "name"], c) == [
        "The table has column(s) 'name' that the certificate's classification does not list "
        "(neither analysed nor kept)."]
    assert column_differences(["age", "dx", "group"], c, ["group"]) == [
        "The certificate's classification lists column(s) 'note' that the table does not "
        "have."]


@pytest.mark.parametrize("record, message", [
    ([], "'classification' must be an object with exactly the fields ['qi', 'sensitive', "
         "'kept', 'dropped']"),
    ({"qi": [], "sensitive": "d", "kept": []},
     "'classification' must be an object with exactly the fields"),
    ({"qi": "age", "sensitive": "d", "kept": [], "dropped": []},
     "'classification.qi' must be a list of column names"),
    ({"qi": [], "sensitive": 3, "kept": [], "dropped": []},
     "'classification.sensitive' must be a column name or null"),
])
def test_a_recorded_classification_of_the_wrong_shape_is_refused(record, message):
    with pytest.raises(ValueError) as raised:
        classification_from_dict(record)
    assert str(raised.value).startswith(message)
