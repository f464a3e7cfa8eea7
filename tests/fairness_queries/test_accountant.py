"""The budget accountant (skyprivacy/fairness_queries/accountant.py; spec §9.1)."""

import math

import numpy as np
import pytest

from skyprivacy.errors import BudgetError, InvalidParameterError
from skyprivacy.fairness_queries import BudgetAccountant


def test_accountant_adds_exact_decimals():
    acc = BudgetAccountant(epsilon=1.0, delta=1e-5)
    for _ in range(10):
        acc.spend(0.1, 1e-6)
    assert (acc.spent_epsilon, acc.spent_delta) == (1.0, 1e-5)
    assert acc.remaining_epsilon == 0.0 and acc.remaining_delta == 0.0
    assert acc.ledger == ((0.1, 1e-6),) * 10
    assert acc.can_spend(0.0) and not acc.can_spend(1e-9)
    with pytest.raises(BudgetError,
                       match=r"The privacy budget is exhausted: spending epsilon=0\.5, "
                             r"delta=0\.0 would bring the total to epsilon=1\.5, delta=1e-05, "
                             r"over the budget epsilon=1\.0, delta=1e-05\."):
        acc.spend(0.5)
    assert len(acc.ledger) == 10  # a refused charge is not recorded
    unlimited = BudgetAccountant()
    unlimited.spend(math.inf)
    assert unlimited.spent_epsilon == math.inf and unlimited.remaining_epsilon == math.inf
    with pytest.raises(BudgetError, match=r"would bring the total to epsilon=inf"):
        BudgetAccountant(epsilon=100.0).spend(math.inf)
    assert "spent_epsilon=inf" in repr(unlimited)


def test_accountant_parameter_errors():
    with pytest.raises(InvalidParameterError,
                       match=r"The 'epsilon' parameter of BudgetAccountant must be a number "
                             r"> 0 \(math\.inf for no limit\)\. Got 0 instead\."):
        BudgetAccountant(epsilon=0)


def test_declared_numpy_options_reach_the_accountant_as_python_scalars():
    acc = BudgetAccountant(epsilon=np.float32(1.5))
    assert type(acc.epsilon) is float and acc.epsilon == 1.5
