"""Optimal privacy for a given fidelity (section 6.1, OPT): the entry point that picks a solver.

Two outcomes: the corrected Theorem 1 / Algorithm 1 of :mod:`.kernels`, in O(n) (and on
Fractions for ``exact=True``).  More outcomes, or ``method="lp"``: the LP reference of
:mod:`.lp` (the paper has no closed form beyond two outcomes, spec 1.5).  Either way the
result is an :class:`~.solution.OptimalPrivacy` whose beta* was verified against the
announced rule (spec 5.7, step 7).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._core.exact import native
from .._core.validation import Boolean, Options, validate_params
from ..errors import param_error
from .certify import confidence_matrix, group_max_confidence, max_confidence_of
from .fidelity import FIDELITY, fidelity_bounds
from .kernels import CASES, solve
from .lp import lp_reference
from .solution import OptimalPrivacy, group_frame, group_share, verify, working
from .table import TABLE, DecisionTable

__all__ = ["optimal_privacy"]


@validate_params({"table": TABLE, "fidelity": FIDELITY, "exact": Boolean(),
                  "method": Options("auto", "closed_form", "lp")})
def optimal_privacy(
    table: DecisionTable,
    fidelity,
    *,
    exact: bool = False,
    method: str = "auto",
) -> OptimalPrivacy:
    """The announced rule D~ with the strongest privacy (smallest beta) under a fidelity.

    Parameters
    ----------
    table : DecisionTable
    fidelity : Delta, Alpha or Bounds
        How far D~ may move from D (section 5.2).
    exact : bool, default False
        Solve with Fractions (floats read as the decimal they print as, e.g. 0.9 = 9/10):
        ``beta_star`` and every per-group value are then Fractions and the final check
        achieved <= beta* is exact.  Pure-Python arithmetic: for audits of small tables.
    method : {"auto", "closed_form", "lp"}, default "auto"
        "closed_form" is the corrected Algorithm 1 (two outcomes only); "lp" the LP
        reference (needs scipy); "auto" picks the closed form for two outcomes and the LP
        otherwise (the paper has no closed form beyond two outcomes, spec 1.5).

    Returns
    -------
    OptimalPrivacy
        ``.beta_star`` (Lemma 3: the max over groups), ``.groups`` (per-group
        :class:`GroupResult`), ``.announced`` (the frame with d~ added), ``.achieved``
        (the verified maximum confidence of D~), ``.to_frame()``, ``.to_dict()``.

    Raises
    ------
    InvalidParameterError
        Bad fidelity or method; ``method="closed_form"`` with more than two outcomes.
    InfeasibleError
        The fidelity bounds admit no distribution for some record.
    ImportError
        ``method="lp"`` without scipy.

    Notes
    -----
    Per group T (P normalised to sum 1, bounds L <= D~_1 <= U after normalisation):
    thr_a = max_x P(x) D~_a(x)_min, max'_a(x) = min(P(x) D~_a(x)_max, thr_a) / P(x),
    beta_a = thr_a / sum_x P(x) max'_a(x) (0 when thr_a = 0), beta_p = thr_1 + thr_0,
    beta_min = max_x P(x), and beta*_T = max{beta_0, beta_1, beta_p, beta_min}.
    D~ is max'_0 (case beta_0), max'_1 (case beta_1), ALLOCATION with the general RHS
    thr_1/beta_p - sum_{x in {x^0, x^1}} P(x) D~_1(x) (case beta_p), or a constant/fixed-beta
    solution at beta_min (floor case).  A group whose beta*_T reaches C*_T announces D itself
    when D is within the bounds (Lemma 4: it is optimal, and any change only costs fidelity).
    Cost: O(n) plus one sort in the rare floor groups whose bounds share no common value.

    References
    ----------
    Chen, Golubchik, Pal, section 6.1 (OPT, eqs. 16a-16f), section 7.1 (Lemma 3),
    section 7.3 (Theorem 1, Algorithm 1, eq. 22), Lemma 5; corrections in the spec, 5.7
    and 10.1 (E1-E4).

    Examples
    --------
    The Section 8 example (populations 12, 5, 3 and 9, 7, 4; delta = 0.9):

    >>> import pandas as pd
    >>> from skyprivacy.transparency import Delta
    >>> df = pd.DataFrame({
    ...     "gender": ["F", "F", "F", "M", "M", "M"],
    ...     "income": ["<100k", "100-200k", ">200k"] * 2,
    ...     "population": [12, 5, 3, 9, 7, 4],
    ...     "d": [0, 0, 1, 0, 0.5, 1]})
    >>> table = DecisionTable.from_frame(df, public="gender", sensitive="income",
    ...                                  weight="population", decision="d")
    >>> result = optimal_privacy(table, Delta(0.9), exact=True)
    >>> result.beta_star, [g.case for g in result.groups]
    (Fraction(27, 40), ['betap', 'beta0'])
    >>> [float(v) for v in result.announced["d_tilde"]]
    [0.1, 0.02, 0.9, 0.1, 0.4, 0.9]
    >>> round(optimal_privacy(table, Delta(0.9)).beta_star, 6)
    0.675
    """
    owner = "optimal_privacy"
    if method == "closed_form" and not table.is_binary:
        raise param_error(
            "method", owner,
            f"be 'lp' or 'auto' for a table with {len(table.outcomes)} outcomes (Theorem 1 is "
            "binary only)", method,
        )
    if method == "lp" or not table.is_binary:
        if exact:
            raise param_error("exact", owner, "be False with the LP reference", exact)
        return lp_reference(table, fidelity)

    bounds = fidelity_bounds(table, fidelity, exact=exact)
    layout = table.layout
    p, L, U, d_true = working(table, bounds, exact)
    decisions = table.decision_matrix(exact=exact)
    c_star = group_max_confidence(table, confidence_matrix(table, decisions, exact=exact))
    sol = solve(p, L, U, d_true, c_star[layout.groups], layout.seg, exact)
    th = sol.theorem

    d1 = np.minimum(np.maximum(decisions[:, 1], bounds.lower[:, 1]), bounds.upper[:, 1])
    d1 = d1.copy()
    d1[layout.rows] = sol.d1
    d_tilde = np.column_stack([1 - d1, d1])
    d_tilde.flags.writeable = False

    beta_star_seg = th.beta_star
    conf = confidence_matrix(table, d_tilde, exact=exact)
    achieved_group = group_max_confidence(table, conf)
    verify(table, achieved_group[layout.groups], beta_star_seg, exact)

    index = table.index
    groups = group_frame(table, exact, {
        "beta_star": beta_star_seg,
        "case": [CASES[c] for c in sol.case],
        "beta0": th.beta0, "beta1": th.beta1, "betap": th.betap, "beta_min": th.beta_min,
        "c_star": c_star[layout.groups],
        "achieved": achieved_group[layout.groups],
        "x0": [native(index[r]) for r in layout.rows[sol.x0]],
        "x1": [native(index[r]) for r in layout.rows[sol.x1]],
        # RHS is a probability mass: report it in the units of P normalised over the table
        "rhs": np.where(sol.case == 2, sol.rhs * group_share(table, exact),
                        None if exact else np.nan),
    })

    columns = {"lower": bounds.lower[:, 1], "upper": bounds.upper[:, 1]}
    for name, values in (("max_prime_1", th.max_mass1 / p), ("max_prime_0", th.max_mass0 / p),
                         ("min_prime_1", sol.min_mass1 / p)):
        col = np.full(table.n_records, None if exact else np.nan, dtype=object if exact else float)
        col[layout.rows] = values
        columns[name] = col
    columns["d_tilde"] = d1
    details = pd.DataFrame(columns, index=table.index)

    beta_star = max(beta_star_seg) if exact else float(np.max(beta_star_seg))
    return OptimalPrivacy(
        table=table, fidelity=fidelity, beta_star=beta_star,
        achieved=max_confidence_of(table, conf), method="closed_form", exact=exact,
        _groups=groups, _d_tilde=d_tilde, _details=details,
    )
