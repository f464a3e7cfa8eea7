"""The paper's loss bound (test G9) and FIS configuration selection (spec group-tagging §3.9)."""
import math
import warnings

import pytest

from skyprivacy.errors import (InvalidParameterError, NotDifferentiallyPrivateWarning,
                               UnprovenFormulaWarning)
from skyprivacy.experimental.group_tagging import (QuerySpec, paper_fis_epsilon,
                                                   paper_loss_bound, select_fis_config)

LOSS_WARNING = ("paper_loss_bound reproduces eq. (17)/(22) of Sengupta and Mishra, which does "
                "not follow from its premise eq. (20) (C_T = 0, C_FS = 10, epsilon = 0.1 breaks "
                "it) and which FIS violates for negative epsilon; it is not a bound to rely on.")


def bound(c_fs, epsilon):
    with pytest.warns(UnprovenFormulaWarning) as caught:
        value = paper_loss_bound(c_fs, epsilon)
    assert str(caught[0].message) == LOSS_WARNING
    return value


def test_g9_the_spec_values():
    assert round(bound(500, -7.58080), 3) == 499.745
    assert round(bound(500, 5.52146)) == 124500
    assert bound(0, 3.0) == 0.0


def test_g9_the_one_sided_premise_does_not_give_the_bound():
    """Known false: C_T = 0, C_FS = 10, eps = 0.1 satisfies (20) C_T <= e^eps C_FS, yet the
    loss |C_T - C_FS| = 10 exceeds the "bound" C_FS |e^eps - 1| = 1.05."""
    c_t, c_fs, eps = 0, 10, 0.1
    assert c_t <= math.exp(eps) * c_fs
    assert abs(c_t - c_fs) > bound(c_fs, eps)
    # and FIS violates the premise itself at the usual negative epsilon: C_T = C_FS
    assert not 500 <= math.exp(-7.58080) * 500


@pytest.mark.parametrize("args, message", [
    ((-1, 0.5), "The 'c_fs' parameter of paper_loss_bound must be a finite number >= 0. Got -1 "
                "instead."),
    ((1, math.inf), "The 'epsilon' parameter of paper_loss_bound must be a finite number. Got "
                    "inf instead."),
])
def test_loss_bound_validation(args, message):
    with pytest.raises(InvalidParameterError) as caught:
        paper_loss_bound(*args)
    assert str(caught.value) == message


# --- select_fis_config -------------------------------------------------------------------------

SUM_COUNT = QuerySpec("count", ["religion"], None)  # the paper's C_T over Q = {religion}
ANCHORED_COUNT = QuerySpec("count", ["maths"], None, predicate=lambda r: r["maths"] > 90)
CROSS_COUNT = QuerySpec("count", ["religion", "urban"], None,
                        predicate=lambda r: r["religion"] == 1 and r["urban"] == 1)
GRID = [{"S": 2, "batches": 2}, {"S": 3, "batches": 2}, {"S": 2, "batch_size": 10}]


def select(reference, workload, **kwargs):
    with pytest.warns(NotDifferentiallyPrivateWarning, match=r"^select_fis_config tunes FIS on "
                      r"the real data: the choice is data-dependent and nothing it returns is "
                      r"private \(FIS itself is not differentially private\)\.$"):
        return select_fis_config(reference, workload, GRID, tag="sex",
                                 anchored=["id", "maths", "income"], n_draws=6,
                                 random_state=0, **kwargs)


def test_the_loss_is_zero_for_sum_counts_and_anchored_counts(reference):
    result = select(reference, [SUM_COUNT, ANCHORED_COUNT])
    assert result.table["loss"].tolist() == [0.0, 0.0, 0.0]
    assert result.best_index == 0 and result.best == GRID[0]  # ties: the first
    assert result.table["batches"].tolist()[2] == {"F": 40, "M": 60}


def test_cross_unit_conjunctions_have_a_loss_and_the_penalty_can_decide(reference):
    result = select(reference, [CROSS_COUNT])
    losses = result.table["loss"].tolist()
    assert losses[1] > 0  # S = 3: religion and urban are always in different groups
    assert result.best_index == int(result.table["risk"].idxmin())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotDifferentiallyPrivateWarning)
        expected = paper_fis_epsilon([2, 2], [200, 300], S=3).epsilon
    assert result.table.loc[1, "paper_epsilon"] == pytest.approx(expected)
    penalised = select(reference, [SUM_COUNT], lam=1.0, penalty=lambda c: -c["S"])
    assert penalised.best == GRID[1] and penalised.table["penalty"].tolist() == [-2, -3, -2]
    assert penalised.to_frame() is not penalised.table


def test_the_paper_bound_objective_is_degenerate_and_warns(reference):
    with pytest.warns(UnprovenFormulaWarning, match=r"objective='paper_bound'\) reproduces eq\. "
                      r"\(27\)/\(29\), whose bound does not hold; its minimum is degenerate"):
        result = select(reference, [SUM_COUNT], objective="paper_bound")
    # the most negative "epsilon" (largest batches, largest S) wins
    assert result.best_index == int(result.table["paper_epsilon"].idxmin()) == 1


@pytest.mark.parametrize("kwargs, message", [
    ({"lam": 1.0}, "select_fis_config needs a penalty when lam > 0. Got lam=1.0 and "
                   "penalty=None instead."),
    ({"lam": -1.0}, "The 'lam' parameter of select_fis_config must be a finite number >= 0. "
                    "Got -1.0 instead."),
    ({"n_draws": 0}, "The 'n_draws' parameter of select_fis_config must be a positive "
                     "integer. Got 0 instead."),
    ({"objective": "risk"}, "The 'objective' parameter of select_fis_config must be one of "
                            "['loss', 'paper_bound']. Got 'risk' instead."),
    ({"grid": [{"S": 2}]}, "The 'grid' parameter of select_fis_config must hold mappings with "
                           "'S' and exactly one of 'batches' and 'batch_size'. Got {'S': 2} "
                           "instead."),
    ({"workload": []}, "The 'workload' parameter of select_fis_config must hold at least one "
                       "count query. Got [] instead."),
])
def test_selection_validation(reference, kwargs, message):
    arguments = {"workload": [SUM_COUNT], "grid": GRID, **kwargs}
    with pytest.raises(InvalidParameterError) as caught:
        select_fis_config(reference, arguments.pop("workload"), arguments.pop("grid"),
                          tag="sex", anchored=["id"], random_state=0, **arguments)
    assert str(caught.value) == message
