"""skyline_anonymize / k_anonymize on a dask frame release exactly what the in-memory engine
releases (table, groups, assignment, candidate), for every local_rows, with the same errors."""
import re
import subprocess
import sys
import warnings

import dask
import numpy as np
import pandas as pd
import pytest

from skyprivacy import (
    InfeasibleError,
    MixedColumnWarning,
    Policy,
    ReleaseCandidate,
    k_anonymize,
    skyline_anonymize,
    skyline_check,
)
from skyprivacy.datasets import load_adult, load_adult_hierarchies
from skyprivacy.hierarchy import masking

DISEASES = ["flu", "aids", "cancer", "cold", "gout"]
ZIPS = ["47906", "47907", "47901", "47302", "47305", "48001"]
ZIP_HIERARCHY = masking(ZIPS, name="zip")
ADULT_QI = ["age", "sex", "race", "marital-status", "education", "native-country", "workclass"]


def make_table(seed: int, n: int, semantics: str = "svpi") -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    table = pd.DataFrame({"age": rng.integers(20, 70, n), "zip": rng.choice(ZIPS, n),
                          "sex": rng.choice(["F", "M"], n)},
                         index=pd.Index(rng.permutation(n) * 10, name="rid"))
    weights = np.array([0.4, 0.1, 0.2, 0.2, 0.1])
    if semantics == "svpi":
        table["disease"] = rng.choice(DISEASES, n, p=weights)
    else:
        table["disease"] = pd.Series(
            [sorted(rng.choice(DISEASES, int(rng.integers(0, 3)), p=weights,
                               replace=semantics == "mvpi-multiset").tolist())
             for _ in range(n)], index=table.index, dtype=object)
    return table


def random_policy(rng) -> Policy:
    points = [(int(rng.integers(0, 3)), int(rng.integers(0, 4)), int(rng.integers(0, 3)),
               float(rng.choice([0.5, 0.6, 0.75, 0.9, 1.0])))]
    if rng.random() < 0.5:
        return Policy({"flu": points}, default=[(0, 1, 0, 0.95)])
    return Policy.uniform(points)


def assert_same_release(got, expected):
    table, assignment, groups = dask.compute(got.table, got.assignment, got.groups)
    pd.testing.assert_frame_equal(table, expected.table)
    pd.testing.assert_series_equal(assignment, expected.assignment)
    pd.testing.assert_frame_equal(groups, expected.groups)
    assert got.n_splits == expected.n_splits


@pytest.fixture(scope="module")
def adult():
    return load_adult()


@pytest.fixture(scope="module")
def adult_hierarchies():
    h = load_adult_hierarchies()
    return {c: h[c] for c in ADULT_QI if c != "age"}


def test_skyline_anonymize_on_adult_equals_the_pandas_path(adult, adult_hierarchies, to_dask):
    policy = Policy.uniform([(1, 5, 1, 0.9)])
    kwargs = dict(qi=ADULT_QI, sensitive="occupation", policy=policy,
                  hierarchies=adult_hierarchies,
                  drop=[c for c in adult.columns if c not in [*ADULT_QI, "occupation"]])
    expected = skyline_anonymize(adult, **kwargs)
    frame = to_dask(adult, 4)
    before = frame.compute()
    got = skyline_anonymize(frame, local_rows=2_000, **kwargs)
    assert_same_release(got, expected)
    assert got.candidate == expected.candidate
    assert got.certificate.safe and got.certificate.to_dict() == expected.certificate.to_dict()
    assert got.n_candidates_evaluated == expected.n_candidates_evaluated
    pd.testing.assert_frame_equal(frame.compute(), before)  # the input is untouched


def test_k_anonymize_on_adult_equals_the_pandas_path(adult, adult_hierarchies, to_dask):
    kwargs = dict(qi=ADULT_QI, k=10, hierarchies=adult_hierarchies,
                  drop=[c for c in adult.columns if c not in ADULT_QI])
    expected = k_anonymize(adult, **kwargs)
    for local_rows in (5_000, 100_000):  # partly distributed; the whole table on one worker
        got = k_anonymize(to_dask(adult, 4), local_rows=local_rows, **kwargs)
        assert_same_release(got, expected)
        assert got.safe and got.certificate.level == expected.certificate.level


@pytest.mark.parametrize("seed", range(9))
def test_random_tables_equal_the_pandas_path(to_dask, seed):
    rng = np.random.default_rng(seed)
    semantics = ["svpi", "mvpi-set", "mvpi-multiset"][seed % 3]
    output = ["generalized", "bucketized"][seed % 2]
    split = ["infogain", "widest"][(seed // 2) % 2]
    table = make_table(seed, int(rng.integers(20, 120)), semantics)
    local_rows = int(rng.choice([1, 5, 30, 10**6]))
    kwargs = dict(qi=["age", "zip", "sex"], sensitive="disease", policy=random_policy(rng),
                  hierarchies={"zip": ZIP_HIERARCHY}, semantics=semantics, split=split,
                  output=output, random_state=seed)
    try:
        expected = skyline_anonymize(table, **kwargs)
    except InfeasibleError as error:
        with pytest.raises(InfeasibleError, match=re.escape(str(error))):
            skyline_anonymize(to_dask(table, 3), local_rows=local_rows, **kwargs)
        return
    got = skyline_anonymize(to_dask(table, 3), local_rows=local_rows, **kwargs)
    assert_same_release(got, expected)
    assert got.candidate == expected.candidate
    assert got.certificate.safe


@pytest.mark.parametrize("local_rows", [1, 4, 25, 10**6])
def test_k_anonymize_random_tables_for_every_local_rows(to_dask, local_rows):
    # 1: every level distributed; 10**6 (more than the table): the whole search on one worker
    for seed, output in enumerate(("generalized", "bucketized")):
        table = make_table(100 + seed, 120)
        kwargs = dict(qi=["age", "zip", "sex"], k=3 + seed, output=output, keep="disease",
                      hierarchies={"zip": ZIP_HIERARCHY} if seed else None,
                      split=["widest", "infogain"][seed % 2])
        expected = k_anonymize(table, **kwargs)
        got = k_anonymize(to_dask(table, 2 + seed), local_rows=local_rows, **kwargs)
        assert_same_release(got, expected)


def test_numeric_text_and_odd_partitions(to_dask):
    rng = np.random.default_rng(5)
    table = pd.DataFrame({"size": rng.choice(["1.5", "1.50", "2", "10", "3.25"], 90),
                          "code": rng.choice(["02139", "10001", "94110"], 90),
                          "s": rng.choice(list("abc"), 90)})
    policy = Policy.uniform([(0, 0, 0, 0.8)])
    expected = skyline_anonymize(table, qi=["size", "code"], sensitive="s", policy=policy)
    # "1.5" and "1.50" are one number, published as written
    got = skyline_anonymize(to_dask(table, 9), qi=["size", "code"], sensitive="s",
                            policy=policy, local_rows=10)
    assert_same_release(got, expected)


def errors_match(call, table, to_dask, **kwargs):
    with pytest.raises(Exception) as pandas_error:
        call(table, **kwargs)
    with pytest.raises(type(pandas_error.value), match=re.escape(str(pandas_error.value))):
        call(to_dask(table, 2), **kwargs)
    return str(pandas_error.value)


@pytest.mark.parametrize("kwargs", [
    dict(qi=[]), dict(qi="height"), dict(qi=["age", "disease"]), dict(policy={"flu": 3}),
    dict(policy="strict"), dict(semantics="svpi-ish"), dict(split="best"), dict(output="csv"),
    dict(hierarchies={"sex": ZIP_HIERARCHY}), dict(hierarchies={"zip": {}}),
    dict(hierarchies=[ZIP_HIERARCHY]), dict(output="bucketized", group_column="sex"),
    dict(numeric=["zip"], hierarchies={"zip": ZIP_HIERARCHY}), dict(numeric=["sex"]),
    dict(categorical=["nope"]), dict(numeric="age", categorical="age"),
    dict(local_rows=0), dict(policy=Policy.uniform([(0, 0, 0, 0.1)])),
])
def test_parameter_and_policy_errors_are_the_pandas_errors(to_dask, kwargs):
    table = make_table(0, 20)
    arguments = dict(qi=["age", "zip"], sensitive="disease",
                     policy=Policy.uniform([(0, 0, 0, 0.9)]))
    arguments.update(kwargs)
    errors_match(skyline_anonymize, table, to_dask, **arguments)


def test_data_errors_are_the_pandas_errors(to_dask):
    policy = Policy.uniform([(0, 0, 0, 0.9)])
    table = make_table(0, 20)
    assert errors_match(skyline_anonymize, table.iloc[:0], to_dask, qi="age",
                        sensitive="disease", policy=policy) == (
        "The table is empty: there is nothing to anonymize.")
    holes = table.copy()
    holes.loc[holes.index[:3], "age"] = np.nan
    assert errors_match(skyline_anonymize, holes, to_dask, qi="age", sensitive="disease",
                        policy=policy) == ("Column 'age' has 3 missing value(s); pass "
                                           "missing='as_value' to treat them as a category, "
                                           "or clean the table.")
    errors_match(skyline_anonymize, table, to_dask, qi="zip", sensitive="disease",
                 policy=policy, hierarchies={"zip": masking(["47906"], name="zip")})
    lists = make_table(0, 20, "mvpi-set")
    errors_match(skyline_anonymize, lists, to_dask, qi="age", sensitive="disease",
                 policy=policy)
    lists.loc[lists.index[5], "disease"] = ["flu", "flu"]
    errors_match(skyline_anonymize, lists, to_dask, qi="age", sensitive="disease",
                 policy=policy, semantics="mvpi-set")
    lists.loc[lists.index[5], "disease"] = ["flu", None]
    errors_match(skyline_anonymize, lists, to_dask, qi="age", sensitive="disease",
                 policy=policy, semantics="mvpi-multiset")
    text = table.assign(age=table["age"].astype(str))
    text.loc[text.index[:2], "age"] = "unknown"
    assert errors_match(skyline_anonymize, text, to_dask, qi="age", sensitive="disease",
                        policy=policy, numeric="age") == (
        "Column 'age' is declared numeric in skyline_anonymize but 2 cell(s) are not "
        "numbers, e.g. ['unknown'].")


def test_mixed_column_warning_counts_cells_of_the_whole_table(to_dask):
    table = make_table(0, 40)
    table["age"] = table["age"].astype(str)
    table.loc[table.index[:3], "age"] = ["n/a", "n/a", "?"]
    policy = Policy.uniform([(0, 0, 0, 0.9)])
    messages = []
    for frame in (table, to_dask(table, 3)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            skyline_anonymize(frame, qi=["age"], sensitive="disease", policy=policy,
                              drop=["zip", "sex"])
        mixed = [w for w in caught if w.category is MixedColumnWarning]
        assert [w.filename for w in mixed] == [__file__]  # both engines name the caller's line
        messages.append([str(w.message) for w in mixed])
    assert messages[0] == messages[1] == [
        "Column 'age' is mostly numbers but 3 cell(s) are not (e.g. ['n/a', '?']): "
        "skyline_anonymize splits it as categories; clean those cells, or pass "
        "categorical=['age'] (--categorical age) to say so."]


def test_k_anonymize_errors_are_the_pandas_errors(to_dask):
    table = make_table(0, 20)
    assert errors_match(k_anonymize, table, to_dask, qi="age", k=25) == (
        "The table has 20 rows, fewer than k = 25: no release can be 25-anonymous.")
    for kwargs in (dict(qi="age", k=1), dict(qi="height", k=2), dict(qi="age", k=3,
                                                                    local_rows=-1)):
        errors_match(k_anonymize, table, to_dask, **kwargs)


def test_certificate_is_an_independent_check_of_the_released_table(to_dask):
    table = make_table(7, 120)
    policy = Policy.uniform([(1, 1, 0, 0.75)])
    got = skyline_anonymize(to_dask(table, 3), qi=["age", "zip", "sex"], sensitive="disease",
                            policy=policy, local_rows=20)
    released = got.table.compute()
    again = ReleaseCandidate.from_table(released, qi=["age", "zip", "sex"],
                                        sensitive="disease")
    assert again == got.candidate
    assert skyline_check(again, policy).to_dict() == got.certificate.to_dict()


def test_the_pandas_path_never_imports_dask():
    code = (
        "import sys, pandas as pd\n"
        "import skyprivacy\n"
        "table = pd.DataFrame({'a': [1, 2, 3, 4], 's': ['x', 'y', 'x', 'y']})\n"
        "skyprivacy.ReleaseCandidate.from_table(table, qi='a', sensitive='s')\n"
        "skyprivacy.skyline_anonymize(table, qi='a', sensitive='s',\n"
        "                             policy=skyprivacy.Policy.uniform([(0, 0, 0, 0.9)]))\n"
        "skyprivacy.k_anonymize(table, qi='a', k=2, keep='s')\n"
        "assert 'dask' not in sys.modules, sorted(m for m in sys.modules if 'dask' in m)\n"
        "assert 'distributed' not in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("order", ["first", {"job": ["z", "y", "x", "w", "v", "u", "t", "s"]},
                                   "sorted"])
@pytest.mark.parametrize("local_rows", [1, 10_000])
def test_category_orders_and_set_labels_are_those_of_the_pandas_path(to_dask, order,
                                                                      local_rows):
    # a categorical QI split in the user's order, long sets published as digests: the same
    # partition, the same labels and the same digest -> members mapping on both engines
    rng = np.random.default_rng(7)
    n = 600
    table = pd.DataFrame({"job": rng.choice(list("stuvwxyz"), n),
                          "age": rng.integers(20, 60, n),
                          "disease": rng.choice(DISEASES, n, p=[0.4, 0.1, 0.2, 0.2, 0.1])})
    kwargs = dict(qi=["job", "age"], sensitive="disease",
                  policy=Policy.uniform([(0, 1, 0, 0.8)]), order=order, label_length=5)
    expected = skyline_anonymize(table, **kwargs)
    got = skyline_anonymize(to_dask(table, 3), local_rows=local_rows, **kwargs)
    assert_same_release(got, expected)
    assert got.set_labels == expected.set_labels
    assert any("#" in str(cell) for cell in expected.table["job"])  # digests were published
    k_expected = k_anonymize(table, qi=["job", "age"], k=20, order=order, label_length=5,
                             keep="disease")
    k_got = k_anonymize(to_dask(table, 3), qi=["job", "age"], k=20, order=order,
                        label_length=5, local_rows=local_rows, keep="disease")
    pd.testing.assert_frame_equal(k_got.table.compute(), k_expected.table)
    assert k_got.set_labels == k_expected.set_labels


@pytest.mark.parametrize("semantics", ["svpi", "mvpi-multiset"])
def test_missing_as_value_releases_what_the_pandas_path_releases(to_dask, semantics):
    table = make_table(7, 60, semantics)
    table.loc[table.index[:4], "age"] = np.nan
    if semantics == "svpi":
        table.loc[table.index[5:8], "disease"] = None
    else:
        table.loc[table.index[5], "disease"] = ["flu", None]
    policy = Policy.uniform([(0, 1, 0, 0.95)])
    kwargs = dict(qi=["age", "zip"], sensitive="disease", policy=policy, semantics=semantics,
                  drop="sex")
    message = errors_match(skyline_anonymize, table, to_dask, **kwargs)
    assert message.startswith("Column 'age' has 4 missing value(s); pass missing='as_value'")
    expected = skyline_anonymize(table, missing="as_value", **kwargs)
    for local_rows in (None, 8):
        got = skyline_anonymize(to_dask(table, 3), missing="as_value", local_rows=local_rows,
                                **kwargs)
        assert_same_release(got, expected)
        assert got.candidate == expected.candidate
        assert got.n_candidates_evaluated == expected.n_candidates_evaluated


def test_k_anonymize_keeps_missing_values_as_the_pandas_path_does(to_dask):
    table = make_table(8, 50)
    table.loc[table.index[:5], "zip"] = None
    expected = k_anonymize(table, qi=["age", "zip"], k=4, missing="as_value",
                           keep=["sex", "disease"])
    got = k_anonymize(to_dask(table, 3), qi=["age", "zip"], k=4, missing="as_value",
                      local_rows=10, keep=["sex", "disease"])
    assert_same_release(got, expected)
    assert errors_match(k_anonymize, table, to_dask, qi=["age", "zip"], k=4).startswith(
        "Column 'zip' has 5 missing value(s)")


@pytest.mark.parametrize("local_rows", [None, 15])
def test_progress_only_grows_and_ends_with_every_row_placed(to_dask, local_rows):
    table = make_table(9, 120)
    seen = {"pandas": [], "dask": []}
    policy = Policy.uniform([(0, 1, 0, 0.9)])
    kwargs = dict(qi=["age", "zip", "sex"], sensitive="disease", policy=policy)
    skyline_anonymize(table, progress=seen["pandas"].append, **kwargs)
    skyline_anonymize(to_dask(table, 3), progress=seen["dask"].append, local_rows=local_rows,
                      **kwargs)
    for values in seen.values():
        assert values == sorted(values) and values[-1] == 1.0
    assert max(seen["dask"][:-1]) > 0  # the local levels place rows as they finish
