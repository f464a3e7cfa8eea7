"""The solution of (OPT) as users read it (skyprivacy/transparency/solution.py):
OptimalPrivacy and GroupResult views, JSON and the announced frame."""
import json
import math

import pytest

from skyprivacy.transparency import (
    DecisionTable,
    Delta,
    optimal_privacy,
)


def test_result_views(section8):
    result = optimal_privacy(section8, Delta(0.9))
    announced = result.announced
    assert list(announced.columns) == ["gender", "income", "d", "population", "census", "section8",
                                       "d_tilde"]
    assert announced.index.equals(section8.index)
    assert "d_tilde" not in section8.frame.columns  # the table is untouched
    frame = result.to_frame()
    assert list(frame.columns) == ["gender", "n_records", "weight", "beta_star", "case", "beta0",
                                   "beta1",
                                   "betap", "beta_min", "c_star", "achieved", "x0", "x1", "rhs"]
    assert frame["rhs"].tolist()[0] == pytest.approx(0.0025)
    assert math.isnan(frame["rhs"].tolist()[1])
    assert result.gamma_star == pytest.approx(-math.log(0.675))
    assert result.details.columns.tolist() == ["lower", "upper", "max_prime_1", "max_prime_0",
                                               "min_prime_1", "d_tilde"]
    group = result.group("F")
    assert group.records == (0, 1, 2) and group.n_records == 3
    assert isinstance(group.beta_star, float) and isinstance(group.x0, int)
    with pytest.raises(ValueError):
        result.d_tilde[0, 0] = 0.5


def test_to_dict_is_json_for_both_paths(section8):
    for exact in (False, True):
        payload = optimal_privacy(section8, Delta(0.9), exact=exact).to_dict()
        text = json.dumps(payload)
        assert payload["beta_star"] == pytest.approx(0.675)
        assert payload["cases"] == {"betap": 1, "beta0": 1}
        assert ('"beta_star_exact": "27/40"' in text) == exact
        assert payload["groups"][0]["d_tilde"] == pytest.approx([0.1, 0.02, 0.9])


def test_announced_column_name_never_overwrites(section8):
    df = section8.frame.assign(d_tilde=1)
    table = DecisionTable.from_frame(df, public="gender", sensitive="income", weight="section8",
                                     decision="d")
    announced = optimal_privacy(table, Delta(0.9)).announced
    assert announced["d_tilde"].tolist() == [1] * 6
    assert announced["d_tilde_"].tolist() == pytest.approx([0.1, 0.02, 0.9, 0.1, 0.4, 0.9])
