"""Fidelity constraints and their normalised bounds (skyprivacy/transparency/fidelity.py):
Definitions 5-6, eqs. (9)-(13), the binary normalisation of spec 3.1 and every error."""
import json

import numpy as np
import pandas as pd
import pytest

from skyprivacy.errors import (
    InfeasibleError,
    InvalidParameterError,
    SchemaError,
)
from skyprivacy.transparency import (
    Alpha,
    Bounds,
    Delta,
    fidelity_bounds,
    optimal_privacy,
)

from .tables import table_of, three_outcomes


def test_alpha_cannot_move_deterministic_decisions(section8):
    result = optimal_privacy(section8, Alpha(0.5))
    assert result.d_tilde[:3, 1].tolist() == [0.0, 0.0, 1.0]


def test_bounds_from_columns_and_per_outcome():
    table = table_of([0.5, 0.2, 0.3], [0.6, 0.5, 0.5], lo=[0.6, 0, 0], hi=[0.6, 1, 1])
    by_column = optimal_privacy(table, Bounds("lo", "hi"))
    per_outcome = optimal_privacy(table, Bounds(np.array([[0.4, 0.6], [0, 0], [0, 0]]),
                                                np.array([[0.4, 0.6], [1, 1], [1, 1]])))
    assert by_column.d_tilde == pytest.approx(per_outcome.d_tilde)
    assert by_column.beta_star == pytest.approx(0.5)
    series = optimal_privacy(table, Bounds(pd.Series([0, 0, 0.6], index=[2, 1, 0]),
                                           pd.Series([1, 1, 0.6], index=[2, 1, 0])))
    assert series.beta_star == pytest.approx(0.5)


def test_binary_normalisation_of_alpha_bounds():
    """spec 3.1: D_1 = 0.5, alpha = 0.9 -> [0.45, 0.5556] and [0.4444, 0.55] -> [0.45, 0.55]."""
    table = table_of([1, 1], [0.5, 0.5])
    bounds = fidelity_bounds(table, Alpha(0.9))
    assert bounds.lower[0].tolist() == pytest.approx([0.45, 0.45])
    assert bounds.upper[0].tolist() == pytest.approx([0.55, 0.55])
    assert bounds.to_frame().columns.tolist() == ["lower[0]", "upper[0]", "lower[1]", "upper[1]"]
    assert json.dumps(bounds.to_dict())


def test_fidelity_parameter_errors(section8):
    with pytest.raises(InvalidParameterError,
                       match=r"The 'fidelity' parameter of optimal_privacy must be "
                       r"a Delta, Alpha or Bounds\. Got 'float' instead\."):
        optimal_privacy(section8, 0.9)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'delta' parameter of Delta must be in \[0, 1\]\. "
                       r"Got 1\.5 instead\."):
        Delta(1.5)
    with pytest.raises(InvalidParameterError,
                       match=r"The 'alpha' parameter of Alpha must be in \[0, 1\]\. "
                       r"Got nan instead\."):
        Alpha(float("nan"))
    with pytest.raises(InvalidParameterError,
                       match=r"The 'alpha' parameter of Alpha must be a number in "
                       r"\[0, 1\]\. Got '0\.9' instead\."):
        Alpha("0.9")
    with pytest.raises(InvalidParameterError,
                       match=r"The 'delta' parameter of Delta must be a number in "
                       r"\[0, 1\]\. Got True instead\."):
        Delta(True)


def test_bounds_errors():
    table = table_of([0.5, 0.2, 0.3], [0.6, 0.5, 0.5])
    with pytest.raises(InfeasibleError,
                       match=r"^The fidelity bounds admit no distribution at index 1: "
                       r"lower \[0\.3, 0\.8\] exceeds upper \[0\.2, 0\.7\] after making the "
                       r"outcomes consistent\.$"):
        optimal_privacy(table, Bounds([0, 0.8, 0], [1, 0.7, 1]))
    with pytest.raises(InvalidParameterError,
                       match=r"The 'fidelity' parameter of fidelity_bounds must give "
                       r"bounds inside \[0, 1\]\. Got '\[-0\.5, 0\.0\] to \[1\.0, 1\.5\] at index "
                       r"0' instead\."):
        optimal_privacy(table, Bounds([0, 0, 0], [1.5, 1, 1]))
    with pytest.raises(InvalidParameterError,
                       match=r"The 'fidelity' parameter of fidelity_bounds must give "
                       r"lower bounds of shape \(3,\) for a binary table or \(3, 2\)\. Got \(2,\) "
                       r"instead\."):
        optimal_privacy(table, Bounds([0, 0], [1, 1]))
    with pytest.raises(InvalidParameterError,
                       match=r"The 'fidelity' parameter of fidelity_bounds must give "
                       r"lower and upper bounds of the same shape\. Got \(\(3,\), \(3, 2\)\) "
                       r"instead\."):
        optimal_privacy(table, Bounds([0, 0, 0], np.ones((3, 2))))
    with pytest.raises(InvalidParameterError,
                       match=r"must give finite upper bounds\. Got 'NaN' instead\."):
        optimal_privacy(table, Bounds([0, 0, 0], [1, np.nan, 1]))
    with pytest.raises(SchemaError,
                       match=r"^Column 'lo' is not in the table; columns are \['g', 's', 'w', "
                             r"'d'\]\.$"):
        optimal_privacy(table, Bounds("lo", "hi"))
    with pytest.raises(SchemaError,
                       match=r"^The lower bounds do not cover every record of the table "
                       r"\(aligned by index\)\.$"):
        optimal_privacy(table, Bounds(pd.Series([0, 0], index=[0, 1]), [1, 1, 1]))
    with pytest.raises(InfeasibleError, match=r"admit no distribution at index 0"):
        optimal_privacy(three_outcomes(), Bounds(np.full((7, 3), 0.5), np.ones((7, 3))))
