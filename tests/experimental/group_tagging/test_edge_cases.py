"""Test G10: every row of the edge-case table of spec group-tagging §5, with its message."""
import math
import warnings
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from skyprivacy.errors import (DegenerateGroupError, InfeasibleError, InvalidParameterError,
                               NotDifferentiallyPrivateWarning, PrivacyRiskWarning, SchemaError,
                               UnprovenFormulaWarning)
from skyprivacy.experimental.group_tagging import (QuerySpec, RelationImpactClassifier,
                                                   count_report, fis_shuffle, one_hot_encode,
                                                   paper_fis_epsilon, plan_fis, tag_groups)

TABLE = pd.DataFrame({"id": range(8), "sex": list("FFFFMMMM"), "maths": range(8),
                      "city": list("abcdabcd"), "age": [20, 30] * 4, "job": list("xyxyxyxy")})
COLUMNS = "['id', 'sex', 'maths', 'city', 'age', 'job']"


def plan(**kwargs):
    arguments = {"tag": "sex", "anchored": ["id"], "S": 2, "batches": 2, "random_state": 0,
                 **kwargs}
    return plan_fis(arguments.pop("table", TABLE), **arguments)


# -- protected column missing, or has NaN: raise (SchemaError) ---------------------------------

def test_protected_column_missing():
    message = f"Column 'gender' is not in the table; columns are {COLUMNS}."
    for call in (lambda: tag_groups(TABLE, protected="gender"), lambda: plan(tag="gender")):
        with pytest.raises(SchemaError) as caught:
            call()
        assert str(caught.value) == message


def test_protected_column_has_nan():
    table = TABLE.assign(sex=["F", None, "F", "F", "M", "M", "M", "M"])
    with pytest.raises(SchemaError) as caught:
        plan(table=table)
    assert str(caught.value) == ("Column 'sex' (the protected attribute) has 1 missing "
                                 "value(s); every row needs a tag.")


# -- a class with n_i < 2: raise --------------------------------------------------------------

def test_a_class_with_one_row():
    table = TABLE.assign(sex=list("FFFFMMMX"))
    with pytest.raises(SchemaError) as caught:
        tag_groups(table, protected="sex")
    assert str(caught.value) == ("Protected class 'X' of column 'sex' has 1 row; FIS needs at "
                                 "least 2 rows per class (a batch of size >= 2).")


# -- S <= 1: raise ------------------------------------------------------------------------------

@pytest.mark.parametrize("S", [1, 0, 2.0])
def test_s_below_two(S):
    message = (f"The 'S' parameter of plan_fis must be an integer >= 2 (the paper requires "
               f"S > 1). Got {S!r} instead.")
    with pytest.raises(InvalidParameterError) as caught:
        plan(S=S)
    assert str(caught.value) == message
    with pytest.raises(InvalidParameterError) as caught:
        paper_fis_epsilon(2, 10, S=S)
    assert str(caught.value) == message.replace("plan_fis", "paper_fis_epsilon")


# -- g < S: raise, or reduce S only when asked ----------------------------------------------------

def test_fewer_free_attributes_than_groups():
    with pytest.raises(InfeasibleError) as caught:
        plan(anchored=["id", "maths", "city"], S=3)
    assert str(caught.value) == ("FIS has fewer free attributes than attribute groups: g = 2 "
                                 "(['age', 'job']) < S = 3; anchor fewer columns, lower S, or "
                                 "pass allow_reduce_S=True.")
    with pytest.warns(PrivacyRiskWarning, match=r"^FIS has only g = 2 free attribute\(s\) "
                      r"\(\['age', 'job'\]\); S is reduced from 3 to 2, so fewer attribute "
                      r"groups are shuffled apart\.$"):
        reduced = plan(anchored=["id", "maths", "city"], S=3, allow_reduce_S=True)
    assert reduced.S == 2 and sorted(map(sorted, reduced.attribute_groups)) == [["age"],
                                                                                ["job"]]


def test_no_free_attribute_makes_fis_the_identity_with_a_warning():
    with pytest.warns(PrivacyRiskWarning, match=r"^Every column is anchored, so FIS leaves the "
                      r"table unchanged \(g = 0 free attributes for S = 2 groups\)\.$"):
        identity = plan(anchored=["id", "maths", "city", "age", "job"])
    assert identity.attribute_groups == () and identity.g == 0


# -- b_i = 1 anywhere: raise in paper_fis_epsilon and in plan_fis --------------------------------

def test_batches_of_one_row():
    with pytest.raises(InvalidParameterError) as caught:
        plan(batches=3)
    assert str(caught.value) == ("The 'batches' parameter of plan_fis must give each class at "
                                 "most n_i / 2 batches (every batch needs >= 2 rows); class 'F' "
                                 "has n_i = 4 rows and t_i = 3.")
    with pytest.raises(InvalidParameterError) as caught:
        plan(batches=None, batch_size=1)
    assert str(caught.value) == ("The 'batch_size' parameter of plan_fis must be an integer >= "
                                 "2 (a batch of 1 row is not shuffled). Got 1 instead.")
    for sizes in (1, [10, 1], [[2, 2], [1, 1]]):
        with pytest.raises(InvalidParameterError) as caught:
            paper_fis_epsilon(2 if sizes == 1 else [2, 2], sizes, S=2)
        assert str(caught.value) == (
            "The 'batch_sizes' parameter of paper_fis_epsilon must be >= 2 for every class "
            "(b = 1 makes (b - 1)^S = 0, a division by zero in eq. (1)/(3)). Got 1 instead.")
    user_plan = replace(plan(), batches=plan().batches[:1] + (
        replace(plan().batches[1], rows=plan().batches[1].rows[:1]),
        replace(plan().batches[1], rows=plan().batches[1].rows[1:])) + plan().batches[2:])
    with pytest.raises(InvalidParameterError) as caught:
        fis_shuffle(TABLE, plan=user_plan, random_state=0)
    assert str(caught.value) == "Batch 1 of the plan has 1 row; every batch needs >= 2 rows."


# -- unequal batch sizes beyond +-1: paper_fis_epsilon uses the mean and warns -----------------

def test_unequal_batches_of_a_user_plan():
    big = pd.DataFrame({"sex": ["F"] * 12, "a": range(12), "b": range(12)})
    made = plan_fis(big, tag="sex", anchored=[], S=2, batches=2, random_state=0)
    rows = sorted(r for batch in made.batches for r in batch.rows)
    uneven = replace(made, batches=(replace(made.batches[0], rows=tuple(rows[:3])),
                                    replace(made.batches[1], rows=tuple(rows[3:]))))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotDifferentiallyPrivateWarning)
        out, realized = fis_shuffle(big, plan=uneven, random_state=0)  # a valid user plan
    assert realized.batch_sizes == ((3, 9),)
    with pytest.warns(UnprovenFormulaWarning, match=r"^Class 0 has unequal batch sizes \(3 to "
                      r"9\): eq\. \(1\)/\(3\) assume n_i1 ≃ \.\.\. ≃ n_it_i; the mean is "
                      r"used\.$"), pytest.warns(NotDifferentiallyPrivateWarning):
        budget = paper_fis_epsilon(realized.t, realized.batch_sizes, S=2)
    assert budget.epsilon == pytest.approx(math.log(2 / 5 ** 2))  # mean 6


# -- epsilon <= 0 or non-finite in count_report: raise --------------------------------------------

@pytest.mark.parametrize("epsilon", [0.0, -0.5, math.inf, -math.inf, math.nan])
def test_count_report_epsilon(epsilon):
    with pytest.raises(InvalidParameterError) as caught:
        count_report(TABLE.assign(x=1), spec=QuerySpec("count", ["x"], None), epsilon=epsilon,
                     random_state=0)
    assert str(caught.value) == (f"The 'epsilon' parameter of count_report must be a finite "
                                 f"number > 0. Got {epsilon!r} instead.")


# -- anchored column not in the DataFrame: raise, listing the columns ---------------------------

def test_anchored_column_missing():
    for call in (lambda: plan(anchored=["id", "income"]),
                 lambda: fis_shuffle(TABLE, tag="sex", anchored=["income"], S=2, batches=2,
                                     random_state=0)):
        with pytest.raises(SchemaError) as caught:
            call()
        assert str(caught.value) == f"Column 'income' is not in the table; columns are {COLUMNS}."


# -- a one-hot attribute split across attribute groups: impossible by construction; a user plan
#    that splits one is rejected -------------------------------------------------------------------

def test_one_hot_attribute_split():
    frame, encoding = one_hot_encode(TABLE, columns=["city", "job"])
    made = plan_fis(frame, tag="sex", anchored=["id"], S=2, batches=2, encoding=encoding,
                    random_state=0)
    for group in made.attribute_groups:  # by construction: whole attributes per group
        for bits in encoding.columns.values():
            assert set(bits) <= set(group) or not set(bits) & set(group)
    free = [c for g in made.attribute_groups for c in g]
    first = tuple(c for c in free if c == "city=a" or not c.startswith("city="))
    split = replace(made, attribute_groups=(first, tuple(c for c in free if c not in first)))
    with pytest.raises(InvalidParameterError) as caught:
        fis_shuffle(frame, plan=split, random_state=0)
    assert str(caught.value) == ("The plan splits one-hot attribute 'city' across attribute "
                                 "groups (['city=a', 'city=b', 'city=c', 'city=d']); its bits "
                                 "must move together.")
    with pytest.raises(InvalidParameterError) as caught:
        plan_fis(frame, tag="sex", anchored=["city=a"], S=2, batches=2, encoding=encoding,
                 random_state=0)
    assert str(caught.value) == ("The 'anchored' parameter of plan_fis anchors ['city=a'] but "
                                 "not the other bit columns of one-hot attribute 'city' "
                                 "['city=b', 'city=c', 'city=d']; anchor the attribute 'city' "
                                 "as a whole.")
    whole = plan_fis(frame, tag="sex", anchored=["city"], S=2, batches=2, encoding=encoding,
                     random_state=0)
    assert set(encoding.columns["city"]) <= set(whole.anchored)


# -- n_p = 1: allowed (FIS = BUDS iterative shuffling, eq. (3) = eq. (1)) -----------------------

def test_one_protected_class():
    table = TABLE.assign(sex="F")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotDifferentiallyPrivateWarning)
        out, made = fis_shuffle(table, tag="sex", anchored=["id"], S=2, batches=4,
                                random_state=0)
        budget = paper_fis_epsilon(made.t, made.batch_sizes, S=2)
    assert made.classes == ("F",) and made.t == (4,)
    assert budget.equation == "eq. (1)" and budget.epsilon == pytest.approx(math.log(4))


# -- decision query with a single-class target: raise -------------------------------------------

def test_single_class_target():
    class Always:
        def fit(self, X, y):
            return self

        def predict(self, X):
            return np.ones(len(X), dtype=int)

    with pytest.raises(DegenerateGroupError) as caught:
        RelationImpactClassifier(base_estimator=Always()).fit(TABLE[["maths"]], [0] * 8,
                                                              TABLE["sex"])
    assert str(caught.value) == ("RelationImpactClassifier.fit needs both classes in y (there "
                                 "is no FPR or FNR otherwise); y holds only 0.")


# -- plans that do not fit the table ---------------------------------------------------------------

@pytest.mark.parametrize("change, message", [
    (lambda p: replace(p, n_rows=9), "The plan is for 9 rows; the table has 8."),
    (lambda p: replace(p, anchored=("sex",)), "The plan does not cover columns ['id']; anchor "
                                              "them or put them in an attribute group."),
    (lambda p: replace(p, anchored=("id", "sex", "age")),
     "The plan lists columns ['age'] more than once; each column is anchored or in exactly one "
     "attribute group."),
    (lambda p: replace(p, batches=(replace(p.batches[0], rows=(0, 4)),) + p.batches[1:]),
     "Batch 0 of the plan mixes rows of other classes into class 'F'; rows of different "
     "classes never exchange values."),
    (lambda p: replace(p, batches=p.batches[1:]),
     "The plan's batches must hold every row exactly once; row {row} is in 0 batches."),
])
def test_user_plans_that_do_not_fit(change, message):
    made = plan()
    missing_row = min(made.batches[0].rows)
    with pytest.raises(InvalidParameterError) as caught:
        fis_shuffle(TABLE, plan=change(made), random_state=0)
    assert str(caught.value) == message.format(row=missing_row)


def test_plan_and_plan_parameters_together():
    with pytest.raises(InvalidParameterError) as caught:
        fis_shuffle(TABLE, plan=plan(), S=2, random_state=0)
    assert str(caught.value) == ("fis_shuffle takes either plan= or the plan's parameters (tag, "
                                 "anchored, S, batches or batch_size, encoding), not both. Got "
                                 "plan and ['S'] instead.")
    with pytest.raises(InvalidParameterError) as caught:
        fis_shuffle(TABLE, anchored=["id"], S=2, batches=2, random_state=0)
    assert str(caught.value) == ("The 'tag' parameter of fis_shuffle must be given when plan is "
                                 "None. Got None instead.")
    with pytest.raises(InvalidParameterError) as caught:
        plan(batches=None)
    assert str(caught.value) == ("plan_fis needs exactly one of 'batches' (the number of "
                                 "batches per class) and 'batch_size'. Got batches=None and "
                                 "batch_size=None instead.")


def test_a_shuffler_that_is_no_permutation():
    with pytest.raises(InvalidParameterError) as caught:
        fis_shuffle(TABLE, tag="sex", anchored=["id"], S=2, batches=1,
                    shufflers=[lambda n, rng: np.zeros(n, dtype=int)] * 2, random_state=0)
    assert str(caught.value).endswith("for a batch of 4 rows; a shuffler must return a "
                                      "permutation of range(4).")
    assert str(caught.value).startswith("Shuffler ")
