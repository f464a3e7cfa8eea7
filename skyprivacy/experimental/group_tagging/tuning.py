"""The paper's loss bound, and FIS tuning as a utility helper (spec group-tagging §3.9; paper
§3.3 eq. (17)-(18), A.3 eq. (20)-(31)).

The paper bounds the loss ``L = |C_T - C_FS| <= C_FS |e^eps - 1|`` (17)/(22)/(24) "by the idea
of the neighboring data set" (20).  The bound does not follow from its one-sided premise
(``C_T = 0, C_FS = 10, eps = 0.1`` breaks it), FIS itself violates the premise for the usual
negative eps (it gives ``C_T = C_FS``), and the risk minimiser (18), (25)-(31) leaves its
hypothesis class, regulariser and search undefined.  :func:`paper_loss_bound` reproduces the
formula; :func:`select_fis_config` is the spec's concrete reading: choose (S, batches) by the
mean count loss over a workload, a data-dependent utility choice that is not private.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..._core.display import Shown, result_html, result_repr
from ..._core.validation import (Interval, Nullable, Options, Predicate, as_generator,
                                 validate_params)
from ..._core.warning import warn
from ...errors import (InvalidParameterError, NotDifferentiallyPrivateWarning,
                       UnprovenFormulaWarning, param_error)
from ._common import FRAME, POSITIVE, RANDOM_STATE, check_table
from .counts import query_contributions
from .encoding import ENCODING
from .fis import fis_shuffle, paper_fis_epsilon
from .query import QuerySpec

__all__ = ["paper_loss_bound", "FisConfigSelection", "select_fis_config"]


@validate_params({"c_fs": Interval("real", 0), "epsilon": Interval("real")})
def paper_loss_bound(c_fs, epsilon) -> float:
    """The paper's loss "bound" ``C_FS |e^eps - 1|`` (eq. (17)/(22)/(24)), for reproduction.

    Parameters
    ----------
    c_fs : float
        The count on the FIS data, >= 0.
    epsilon : float
        The paper's eps (finite; usually the negative value of eq. (3)).

    Returns
    -------
    float

    Warns
    -----
    UnprovenFormulaWarning
        Always: the bound does not follow from its premise and is not to be relied on.

    Notes
    -----
    Known false: the premise (20) ``C_T <= e^eps C_FS`` is one-sided, and ``C_T = 0,
    C_FS = 10, eps = 0.1`` satisfies it while ``|C_T - C_FS| = 10 > 1.05``.  For negative eps
    the "bound" is about C_FS (vacuous); for positive eps it is huge.  For FIS as specified the
    loss of the paper's sum count is exactly 0.

    References
    ----------
    Sengupta and Mishra, §3.3 eq. (17), A.3 eq. (20)-(24); spec group-tagging §3.9.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     print(round(paper_loss_bound(500, -7.58080), 3), round(paper_loss_bound(500, 5.52146)))
    499.745 124500
    """
    count, eps = float(c_fs), float(epsilon)
    warn("paper_loss_bound reproduces eq. (17)/(22) of Sengupta and Mishra, which does not "
         "follow from its premise eq. (20) (C_T = 0, C_FS = 10, epsilon = 0.1 breaks it) and "
         "which FIS violates for negative epsilon; it is not a bound to rely on.",
         UnprovenFormulaWarning)
    return count * abs(math.expm1(eps)) if eps < 709 else math.inf


@dataclass(frozen=True)
class FisConfigSelection:
    """The result of :func:`select_fis_config`.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per configuration: ``S``, ``batches`` (t per class), ``loss`` (mean absolute
        count error, or the paper-bound objective), ``penalty``, ``risk`` (loss +
        lam * penalty), ``paper_epsilon`` (eq. (3), for reference only: not a DP budget).
    best : dict
        The configuration with the least risk (the first on ties), as given in the grid.
    best_index : int
        Its row in ``table``.
    """

    table: pd.DataFrame
    best: dict
    best_index: int

    def to_frame(self) -> pd.DataFrame:
        """A copy of :attr:`table`."""
        return self.table.copy()

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, (("configurations", len(self.table)),
                                  ("best_index", self.best_index),
                                  ("best", ", ".join(f"{k}={v}" for k, v in self.best.items()))),
                     None, lambda n: self.table.head(n), len(self.table))


#: A finite real number.
_FINITE = Interval("real")


def _check_config(config, number: int, owner: str) -> dict:
    if not isinstance(config, Mapping) or "S" not in config \
            or ("batches" in config) == ("batch_size" in config) \
            or set(config) - {"S", "batches", "batch_size"}:
        raise param_error("grid", owner, "hold mappings with 'S' and exactly one of "
                          "'batches' and 'batch_size'", config)
    return dict(config)


@validate_params({"table": FRAME, "encoding": ENCODING, "lam": Interval("real", 0),
                  "penalty": Nullable(Predicate(callable, "be None or a callable config -> "
                                                "float", invalid="not a callable")),
                  "n_draws": POSITIVE, "objective": Options("loss", "paper_bound"),
                  "random_state": RANDOM_STATE})
def select_fis_config(table, workload, grid, *, tag, anchored, encoding=None, lam=0.0,
                      penalty=None, n_draws=50, objective="loss", random_state
                      ) -> FisConfigSelection:
    """Choose FIS parameters by the count loss they cause on a workload (spec §3.9).

    Parameters
    ----------
    table : pandas.DataFrame
        The table; never modified.
    workload : list of QuerySpec
        Count queries.
    grid : list of mapping
        Configurations θ, each ``{"S": int, "batches": ...}`` or ``{"S": int,
        "batch_size": int}`` as for :func:`plan_fis`.
    tag, anchored, encoding : keyword-only
        As for :func:`plan_fis`, shared by every configuration.
    lam : float, default 0.0, keyword-only
        Weight of the penalty, >= 0.
    penalty : callable, optional, keyword-only
        ``θ -> float`` (required when lam > 0).
    n_draws : int, default 50, keyword-only
        FIS draws per configuration.
    objective : {"loss", "paper_bound"}, keyword-only
        ``"loss"``: ``mean_q mean_draws |C_T,q - C_FS,q|``.  ``"paper_bound"``: the paper's
        (27)/(29) ``mean e^eps C_FS``, for comparison only (warns).
    random_state : None, int or numpy.random.Generator, keyword-only

    Returns
    -------
    FisConfigSelection

    Warns
    -----
    NotDifferentiallyPrivateWarning
        Always: tuning on the real data is data-dependent and not private.
    UnprovenFormulaWarning
        With ``objective="paper_bound"``.

    Notes
    -----
    The loss is identically 0 for the paper's sum count ``C_T`` of any Q and for counts over
    anchored attributes (FIS keeps them exact); it is non-zero only for conjunctions across
    shuffle units.  Where it is 0 the choice is made by the penalty alone.  The paper-bound
    objective is minimised by driving eps as negative as possible (huge batches, large S): a
    degenerate choice.

    References
    ----------
    Sengupta and Mishra, §3.3 eq. (18), A.3 eq. (25)-(31); spec group-tagging §3.9.
    """
    owner = "select_fis_config"
    check_table(table, owner=owner)
    queries = list(workload) if not isinstance(workload, QuerySpec) else [workload]
    if not queries:
        raise param_error("workload", owner, "hold at least one count query", workload)
    configs = [_check_config(c, i, owner) for i, c in enumerate(grid)]
    if not configs:
        raise param_error("grid", owner, "hold at least one configuration", grid)
    weight = float(lam)
    if weight > 0 and penalty is None:
        raise InvalidParameterError(f"{owner} needs a penalty when lam > 0. Got lam={lam!r} "
                                    "and penalty=None instead.")
    rng = as_generator(random_state)
    truth = [query_contributions(table, q, encoding=encoding, owner=owner)[0].sum()
             for q in queries]

    warn(f"{owner} tunes FIS on the real data: the choice is data-dependent and nothing it "
         "returns is private (FIS itself is not differentially private).",
         NotDifferentiallyPrivateWarning)
    if objective == "paper_bound":
        warn(f"{owner}(objective='paper_bound') reproduces eq. (27)/(29), whose bound does not "
             "hold; its minimum is degenerate (the most negative epsilon).",
             UnprovenFormulaWarning)
    rows = []
    for config in configs:
        losses = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NotDifferentiallyPrivateWarning)
            for _ in range(n_draws):
                shuffled, plan = fis_shuffle(table, tag=tag, anchored=anchored,
                                             encoding=encoding, random_state=rng, **config)
                fs = [query_contributions(shuffled, q, encoding=encoding, owner=owner)[0].sum()
                      for q in queries]
                losses.append(fs)
            means = [sum(sizes) / len(sizes) for sizes in plan.batch_sizes]
            paper_eps = paper_fis_epsilon(list(plan.t), means, S=plan.S).epsilon
        fs_values = np.asarray(losses, dtype=float)
        if objective == "loss":
            loss = float(np.mean(np.abs(fs_values - np.asarray(truth, dtype=float))))
        else:
            loss = float(math.exp(paper_eps) * fs_values.mean()) if paper_eps < 709 \
                else math.inf
        pen = 0.0
        if penalty is not None:
            value = penalty(dict(config))
            if not _FINITE.is_satisfied_by(value):
                raise InvalidParameterError(f"The penalty of {owner} must return a finite "
                                            f"number. Got {value!r} for {config!r} instead.")
            pen = float(value)
        rows.append({"S": config["S"], "batches": dict(zip(plan.classes, plan.t)),
                     "loss": loss, "penalty": pen, "risk": loss + weight * pen,
                     "paper_epsilon": paper_eps})
    scores = pd.DataFrame(rows, index=pd.RangeIndex(len(rows), name="config"))
    best = int(np.argmin(scores["risk"].to_numpy()))
    return FisConfigSelection(table=scores, best=configs[best], best_index=best)
