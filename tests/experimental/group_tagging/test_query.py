"""The declarative query function (spec group-tagging §3.2): QuerySpec and the count
predicate it carries."""
import warnings

import pandas as pd
import pytest

from skyprivacy.errors import InvalidParameterError, SchemaError
from skyprivacy.experimental.group_tagging import QuerySpec, count_report


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
