"""The declarative query function (spec group-tagging §3.2): QuerySpec and the count
predicate it carries."""
import dataclasses
import re
import warnings

import numpy as np
import pandas as pd
import pytest

from skyprivacy.errors import InvalidParameterError, SchemaError
from skyprivacy.experimental.group_tagging import QuerySpec, count_report
from skyprivacy.experimental.group_tagging.query import predicate_mask


def test_decision_queries_always_return_the_protected_attribute():
    assert QuerySpec("decision", ["maths"], "sex", target="eligible").returned == ("maths",
                                                                                   "sex")
    assert QuerySpec("decision", ["sex", "maths"], "sex", target="y").returned == ("sex",
                                                                                   "maths")
    assert QuerySpec("count", "urban", None).attributes == ("urban",)


@pytest.mark.parametrize("args, kwargs, message", [
    (("sum", ["a"], "p"), {}, "The 'kind' parameter of QuerySpec must be one of ['count', "
                              "'decision']. Got 'sum' instead."),
    (("count", [], "p"), {}, "The 'attributes' parameter of QuerySpec must name at least one "
                             "column. Got [] instead."),
    (("count", ["a", "a"], "p"), {}, "The 'attributes' parameter of QuerySpec must name "
                                     "distinct columns. Got ['a', 'a'] instead."),
    (("decision", ["a"], None), {"target": "y"}, "The 'protected' parameter of QuerySpec must "
                                                 "be given for a decision query. Got None "
                                                 "instead."),
    (("decision", ["a"], "p"), {}, "The 'target' parameter of QuerySpec must be the decision "
                                   "column of a decision query. Got None instead."),
    (("decision", ["a"], "p"), {"target": "a"}, "The 'target' parameter of QuerySpec must not "
                                                "be one of the attributes. Got 'a' instead."),
    (("count", ["a"], "p"), {"target": "y"}, "The 'target' parameter of QuerySpec must be "
                                             "None for a count query. Got 'y' instead."),
    (("count", ["a"], "p"), {"predicate": 3}, "The 'predicate' parameter of QuerySpec must be "
                                              "None or a callable row -> bool. Got 3 instead."),
])
def test_query_spec_validation(args, kwargs, message):
    with pytest.raises(InvalidParameterError) as caught:
        QuerySpec(*args, **kwargs)
    assert str(caught.value) == message


def test_a_count_predicate_may_only_read_its_attributes():
    table = pd.DataFrame({"religion": ["Hindu"] * 3, "area": ["urban", "rural", "urban"],
                          "maths": [95, 95, 80]})
    good = QuerySpec("count", ["religion", "area", "maths"], "religion",
                     predicate=lambda r: r["religion"] == "Hindu" and r["area"] == "urban"
                     and r["maths"] > 90)
    sneaky = QuerySpec("count", ["religion"], "religion",
                       predicate=lambda r: r["religion"] == "Hindu" and r["maths"] > 90)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        release = count_report(table, spec=good, epsilon=1e9, mechanism="geometric",
                               random_state=0)
    assert release.values == (1,)  # Example 1 of the paper: exactly one such row
    with pytest.raises(SchemaError, match=r"^The predicate of the count query reads column "
                       r"'maths', which is not among its attributes \['religion'\]; list every "
                       r"column it reads in attributes\.$"):
        count_report(table, spec=sneaky, epsilon=1.0, random_state=0)


# --- what the moved tests above leave out ------------------------------------------------------

class Always:
    """A callable predicate with a stable repr (a lambda's repr holds its address)."""

    def __call__(self, row):
        return True

    def __repr__(self):
        return "Always()"


@pytest.mark.parametrize("args, kwargs, message", [
    (("count", ["a"], 3), {}, "The 'protected' parameter of QuerySpec must be a column name or "
                              "None. Got 3 instead."),
    (("count", 3, None), {}, "The 'attributes' parameter of QuerySpec must be a column name or "
                             "a list of column names. Got 3 instead."),
    (("decision", ["a"], "p"), {"target": "y", "predicate": Always()},
     "The 'predicate' parameter of QuerySpec must be None for a decision query (give "
     "target=). Got Always() instead."),
    (("decision", ["a"], "p"), {"target": 1}, "The 'target' parameter of QuerySpec must be the "
                                              "decision column of a decision query. Got 1 "
                                              "instead."),
])
def test_query_spec_validation_of_the_other_parameters(args, kwargs, message):
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        QuerySpec(*args, **kwargs)


def test_a_count_query_returns_only_its_attributes_even_with_a_protected_attribute():
    spec = QuerySpec("count", ["maths", "urban"], "sex")
    assert spec.returned == ("maths", "urban")
    assert QuerySpec("count", ["sex", "maths"], "sex").returned == ("sex", "maths")


def test_the_spec_is_frozen_and_holds_its_attributes_as_a_tuple():
    spec = QuerySpec("count", iter(["maths", "urban"]), None)
    assert spec.attributes == ("maths", "urban")
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.kind = "decision"


TABLE = pd.DataFrame({"religion": ["Hindu", "Sikh", "Hindu"], "maths": [95, 99, 60],
                      "secret": ["x", "y", "z"]}, index=["r1", "r2", "r3"])


def test_predicate_mask_sees_each_row_restricted_to_the_attributes():
    seen = []

    def predicate(row):
        seen.append(row)
        return row["religion"] == "Hindu" and row["maths"] > 90

    spec = QuerySpec("count", ["religion", "maths"], None, predicate=predicate)
    mask = predicate_mask(TABLE, spec, owner="count_report")
    assert mask.dtype == bool and mask.tolist() == [True, False, False]
    assert seen == [{"religion": "Hindu", "maths": 95}, {"religion": "Sikh", "maths": 99},
                    {"religion": "Hindu", "maths": 60}]


def test_predicate_mask_accepts_numpy_booleans():
    spec = QuerySpec("count", ["maths"], None, predicate=lambda r: np.bool_(r["maths"] >= 95))
    assert predicate_mask(TABLE, spec, owner="count_report").tolist() == [True, True, False]


def test_a_predicate_that_does_not_answer_true_or_false_names_the_row():
    spec = QuerySpec("count", ["maths"], None, predicate=lambda r: 1 if r["maths"] < 90 else True)
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The predicate of the count query must return True or False. Got 1 for row 'r3' "
            "instead.")):
        predicate_mask(TABLE, spec, owner="count_report")


def test_the_attributes_must_be_columns_of_the_table():
    spec = QuerySpec("count", ["maths", "area"], None, predicate=Always())
    with pytest.raises(SchemaError, match=re.escape(
            "Column 'area' is not in the table; columns are ['religion', 'maths', 'secret'].")):
        predicate_mask(TABLE, spec, owner="count_report")


def test_reading_a_column_outside_the_attributes_fails_even_if_the_table_has_it():
    spec = QuerySpec("count", ["maths"], None, predicate=lambda r: r["secret"] == "x")
    with pytest.raises(SchemaError, match=re.escape(
            "The predicate of the count query reads column 'secret', which is not among its "
            "attributes ['maths']; list every column it reads in attributes.")):
        predicate_mask(TABLE, spec, owner="count_report")
