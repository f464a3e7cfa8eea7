"""The Dask engine's identity risk (skyprivacy/dask_engine/risk.py): one scan of the partitions
gives the same figures as pandas (exact fractions equal), through the public functions."""
import numpy as np
import pandas as pd
import pytest

from skyprivacy import risk
from skyprivacy.dask_engine import risk as dask_risk
from skyprivacy.errors import InvalidParameterError, SchemaError


def random_table(seed: int, n: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"age": rng.integers(20, 20 + int(rng.integers(2, 30)), n),
                         "zip": rng.choice(["02139", "02138", "10001", "94110"], n),
                         "sex": rng.choice(["F", "M"], n),
                         "income": rng.normal(size=n)})


@pytest.mark.parametrize("seed", range(8))
def test_every_figure_equals_the_pandas_one(to_dask, seed):
    table = random_table(seed, 50 + 37 * seed)
    before = table.copy()
    options = {"qi": ["age", "zip", "sex"], "threshold": 0.2, "top": 5,
               "population_size": 20 * len(table)}
    expected = risk.identity_risk(table, **options)
    got = risk.identity_risk(to_dask(table, npartitions=1 + seed % 4), **options)
    assert got.to_json(highest=False) == expected.to_json(highest=False)
    assert got.prosecutor == expected.prosecutor  # exact Fractions, equal
    assert got.class_sizes == expected.class_sizes
    assert (got.prosecutor.highest["class_size"].tolist()
            == expected.prosecutor.highest["class_size"].tolist())
    pd.testing.assert_frame_equal(table, before)


def test_the_single_measures_dispatch_to_the_engine(to_dask):
    table = random_table(11, 200)
    frame = to_dask(table, npartitions=4)
    qi = ["age", "sex"]
    assert risk.class_sizes(frame, qi=qi) == risk.class_sizes(table, qi=qi)
    assert risk.prosecutor_risk(frame, qi=qi, threshold=0.5) == risk.prosecutor_risk(
        table, qi=qi, threshold=0.5)
    assert risk.marketer_risk(frame, qi=qi) == risk.marketer_risk(table, qi=qi)
    assert risk.sample_uniqueness(frame, qi=qi) == risk.sample_uniqueness(table, qi=qi)
    assert (risk.population_uniqueness(frame, qi=qi, population_size=4000, model="zayatz")
            == risk.population_uniqueness(table, qi=qi, population_size=4000, model="zayatz"))


def test_missing_values_raise_or_form_a_class(to_dask):
    table = pd.DataFrame({"zip": ["1", None, "1", "2"], "sex": ["F", "M", "F", None]})
    frame = to_dask(table, npartitions=2)
    with pytest.raises(SchemaError, match=r"^Column 'zip' has 1 missing value\(s\); pass "
                                          r"missing='as_value'"):
        risk.identity_risk(frame, qi=["zip", "sex"])
    got = risk.identity_risk(frame, qi=["zip", "sex"], missing="as_value")
    assert got.class_sizes == risk.identity_risk(table, qi=["zip", "sex"],
                                                 missing="as_value").class_sizes


def test_errors_name_the_bad_value(to_dask):
    frame = to_dask(pd.DataFrame({"zip": ["1", "2"]}), npartitions=1)
    with pytest.raises(SchemaError, match=r"^Column 'age' is not in the table"):
        risk.identity_risk(frame, qi=["age"])
    with pytest.raises(InvalidParameterError, match=r"'top' parameter of identity_risk .*-1"):
        risk.identity_risk(frame, qi="zip", top=-1)
    with pytest.raises(InvalidParameterError, match=r"'model' parameter of identity_risk"):
        risk.identity_risk(frame, qi="zip", model="bogus")
    with pytest.raises(InvalidParameterError, match=r"'population_size' parameter of "
                                                    r"identity_risk .*>= the number of "
                                                    r"records \(2\)"):
        risk.identity_risk(frame, qi="zip", population_size=1)
    with pytest.raises(InvalidParameterError, match=r"'population' parameter of marketer_risk"):
        risk.marketer_risk(frame, qi="zip", population=pd.DataFrame({"zip": ["1"]}))
    with pytest.raises(InvalidParameterError, match=r"'table' parameter of identity_risk must "
                                                    r"be a dask DataFrame"):
        dask_risk.identity_risk([1, 2], qi="zip")
    with pytest.raises(SchemaError, match=r"^The table is empty"):
        risk.identity_risk(to_dask(pd.DataFrame({"zip": pd.Series([], dtype=object)})),
                           qi="zip")


def test_a_certificate_s_risk_section_is_the_same_on_dask(to_dask):
    from skyprivacy import Policy
    from skyprivacy.certificate import build_certificate, verify_certificate

    table = random_table(5, 120).astype({"age": str})
    options = {"qi": ["age", "sex"], "sensitive": "zip", "risk": True,
               "population_size": 6000}
    policy = Policy.uniform([(0, 0, 0, 1)])
    expected = build_certificate(table, policy, **options)["risk"]
    frame = to_dask(table, npartitions=3)
    certificate = build_certificate(frame, policy, **options)
    assert certificate["risk"] == expected
    assert verify_certificate(frame, certificate).ok
