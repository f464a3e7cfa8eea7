"""The transparency paper's demonstrations, reproducible: Section 8 and the leaks of Section 3
and Appendix B (Chen, Golubchik and Pal, 2022).

A reproduction, not part of the library: it lives beside the scripts that print it
(``transparency_section8.py``, ``transparency_leaks.py``) and uses only the public API of
:mod:`skyprivacy.transparency`.  Import it with ``examples/`` on ``sys.path``.

* :func:`demo_section8` - the numerical example of Section 8 (spec section 6): beta*,
  the announced rule, the trade-off region and curve, fairness before and after.
* :func:`demo_surrogate_leak` - Section 3.2 (spec 7.1): publishing the rule of Table 1
  reveals a female card holder's income with confidence 1.
* :func:`demo_fairness_leak` - Section 3.3 (spec 7.2): Table 2's fairness numbers let
  "Mary" reconstruct the rule (:func:`infer_rules_from_fairness`).
* :func:`demo_qii_leak` - Appendix B (spec 7.3): QII answers pin down a private attribute
  (:func:`qii`).  Synthetic data only; no UCI data is shipped for it.

The data of Table 1 are facts from the paper, bundled as
:func:`skyprivacy.datasets.load_credit_card`.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pandas as pd

from skyprivacy.datasets import load_credit_card
from skyprivacy.errors import PrivacyRiskWarning, param_error
from skyprivacy.io import require_columns
from skyprivacy.transparency import (
    DecisionTable,
    Delta,
    FairnessReport,
    OptimalPrivacy,
    TradeoffCurve,
    TradeoffRegion,
    conditional_statistical_parity,
    confidence,
    fairness_report,
    max_confidence,
    optimal_privacy,
    statistical_parity,
    tradeoff_curve,
    tradeoff_region,
)

__all__ = [
    "credit_card_table",
    "Section8Demo",
    "SurrogateLeakDemo",
    "FairnessLeakDemo",
    "RuleInference",
    "QIILeakDemo",
    "demo_section8",
    "demo_surrogate_leak",
    "demo_fairness_leak",
    "infer_rules_from_fairness",
    "qii",
    "demo_qii_leak",
]

_WEIGHTS = ("population", "census", "section8")
#: the delta grid of spec section 6.7
SECTION8_DELTAS = (0.0, 0.1, 0.3, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.99, 1.0)


def credit_card_table(weight: str = "section8") -> DecisionTable:
    """Table 1 as a :class:`DecisionTable` weighted by ``weight``.

    Parameters
    ----------
    weight : {"section8", "population", "census"}
    """
    if weight not in _WEIGHTS:
        raise param_error("weight", "credit_card_table", f"be one of {list(_WEIGHTS)}", weight)
    return DecisionTable.from_frame(load_credit_card(), public="gender", sensitive="income",
                                    weight=weight, decision="d")


# -- Section 8 -------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Section8Demo:
    """Everything Section 8 computes (spec section 6), from the library's public API."""

    table: DecisionTable = field(repr=False)
    result: OptimalPrivacy
    region: TradeoffRegion
    curve: TradeoffCurve = field(repr=False)
    confidence_announced: pd.DataFrame = field(repr=False)
    fairness_true: FairnessReport = field(repr=False)
    fairness_announced: FairnessReport = field(repr=False)

    def to_dict(self) -> dict:
        return {
            "beta_star": float(self.result.beta_star),
            "beta_star_exact": str(self.result.beta_star),
            "groups": self.result.to_frame().drop(columns=["weight"]).astype(str)
                      .to_dict(orient="records"),
            "announced": [float(v) for v in self.result.announced["d_tilde"]],
            "region": {"beta_min": str(self.region.beta_min), "c_star": str(self.region.c_star)},
            "curve": self.curve.to_frame(per_group=True).to_dict(orient="records"),
            "fairness_true": self.fairness_true.to_dict(),
            "fairness_announced": self.fairness_announced.to_dict(),
        }


def demo_section8(*, delta=Fraction(9, 10)) -> Section8Demo:
    """Reproduce Section 8: 90%-fidelity on Table 1 with populations 12, 5, 3 / 9, 7, 4.

    Exact arithmetic throughout: beta*_F = 27/40 (case beta_p), beta*_M = 81/127 (case
    beta_0), beta* = 27/40, D~_1 = [0.1, 0.02, 0.9, 0.1, 0.4, 0.9], [beta_min, C*] =
    [3/5, 1] and [9/20, 18/25], RHS(22) = 1/400; statistical parity 0.225 -> 0.165 and
    conditional parity in the middle band 0.5 -> 0.38, both within Lemma 2's 0.2.

    Examples
    --------
    >>> demo = demo_section8()
    >>> demo.result.beta_star, demo.result.group("M").beta_star
    (Fraction(27, 40), Fraction(81, 127))
    """
    table = credit_card_table("section8")
    result = optimal_privacy(table, Delta(delta), exact=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PrivacyRiskWarning)  # the "before" numbers are the point
        before = fairness_report(table, protected="gender", stratum="income", fidelity=Delta(delta))
    after = fairness_report(table, result, protected="gender", stratum="income")
    return Section8Demo(
        table=table, result=result, region=tradeoff_region(table, exact=True),
        curve=tradeoff_curve(table, SECTION8_DELTAS),
        confidence_announced=confidence(table, result, exact=True),
        fairness_true=before, fairness_announced=after,
    )


# -- Section 3.2: the surrogate-rule leak ----------------------------------------------------
@dataclass(frozen=True, eq=False)
class SurrogateLeakDemo:
    """Posterior confidences of Section 3.2 under the published rule D and under D~.

    ``channels`` has one row per (gender, decision, income): the adversary's prior
    P(income | gender) from the census, conf under D and conf under the protected D~.
    """

    channels: pd.DataFrame
    beta_star: float
    delta: float

    def conf(self, gender: str, decision: int, income: str, *, protected: bool = False) -> float:
        row = self.channels[(self.channels["gender"] == gender)
                            & (self.channels["decision"] == decision)
                            & (self.channels["income"] == income)]
        return float(row["conf_protected" if protected else "conf_published"].iloc[0])

    def to_dict(self) -> dict:
        return {"beta_star": self.beta_star, "delta": self.delta,
                "channels": self.channels.to_dict(orient="records")}


def demo_surrogate_leak(*, delta: float = 0.9) -> SurrogateLeakDemo:
    """Section 3.2: a perfect surrogate rule published in an ATR reveals incomes.

    The adversary weighs Table 1's regions by census statistics.  A female card holder's
    income is above 200k with confidence 1.0 (prior 1.2%); a male holder's with
    0.035 / (0.123 * 0.5 + 0.035) = 0.3627 (prior 3.5%, the paper's "around 36%").
    The same channels under the optimal D~ at ``delta`` stay below its beta*.

    Examples
    --------
    >>> demo = demo_surrogate_leak()
    >>> demo.conf("F", 1, ">200k"), round(demo.conf("M", 1, ">200k"), 4)
    (1.0, 0.3627)
    """
    table = credit_card_table("census")
    result = optimal_privacy(table, Delta(delta))
    published = confidence(table)
    protected = confidence(table, result)
    frame = table.frame
    rows = []
    for decision in table.outcomes:
        for i in range(table.n_records):
            rows.append({
                "gender": frame["gender"].iloc[i], "decision": decision,
                "income": frame["income"].iloc[i], "prior": float(frame["census"].iloc[i]),
                "conf_published": float(published[decision].iloc[i]),
                "conf_protected": float(protected[decision].iloc[i]),
            })
    return SurrogateLeakDemo(channels=pd.DataFrame(rows), beta_star=float(result.beta_star),
                             delta=float(delta))


# -- Section 3.3: the fairness leak ----------------------------------------------------------
@dataclass(frozen=True)
class SignPattern:
    """One hypothesis about the signs hidden by |d_{1,W} - d_{2,W}| = bias_W."""

    signs: dict
    feasible: bool
    reason: str
    solution: dict = field(repr=False)
    clamped: dict = field(repr=False)
    per_equation: dict = field(repr=False)


@dataclass(frozen=True)
class RuleInference:
    """Mary's reconstruction of the rule from published fairness numbers (spec 7.2).

    ``patterns`` lists every sign hypothesis with the interval test that rules it in or
    out; ``rule`` is the estimate d_{Y,W} from the surviving hypothesis after clamping.
    """

    patterns: tuple
    rule: dict

    def to_dict(self) -> dict:
        return {
            "rule": {f"{y}|{w}": v for (y, w), v in self.rule.items()},
            "patterns": [{"signs": {str(k): v for k, v in p.signs.items()},
                          "feasible": p.feasible, "reason": p.reason,
                          "solution": {f"{y}|{w}": v for (y, w), v in p.solution.items()},
                          "clamped": {f"{y}|{w}": v for (y, w), v in p.clamped.items()},
                          "per_equation": {str(k): v for k, v in p.per_equation.items()}}
                         for p in self.patterns],
        }


def infer_rules_from_fairness(rates: dict, csp: dict, side_info: dict,
                              known: dict) -> RuleInference:
    """Reconstruct d_{Y,W} from group approval rates and conditional-parity biases.

    The attack of Section 3.3: the report gives each group's approval rate
    rate_Y ~= sum_W P(W | Y) d_{Y,W} (equations 1-2, with the adversary's census weights)
    and |d_{Y1,W} - d_{Y2,W}| = csp_W (equations 3-5); the adversary knows some cells
    (Mary: d_{F,<100k} = 0).  For every sign pattern hidden by the absolute values, the
    rate equations become linear in the free cells d_{Y1,W}; a pattern is ruled out when
    some rate lies outside the range its equation can reach with every cell in [0, 1]
    (the paper's "0.158 < 0.1615" argument).  Surviving patterns are solved exactly (or by
    least squares), cells outside [0, 1] are clamped, and the rest re-solved.

    Parameters
    ----------
    rates : dict
        {Y: approval rate} for the two groups, Y1 first.
    csp : dict
        {W: |d_{Y1,W} - d_{Y2,W}|} for every stratum.
    side_info : dict
        {(Y, W): P(W | Y)}: the adversary's weights.
    known : dict
        {(Y, W): d} cells the adversary knows.

    Returns
    -------
    RuleInference

    Examples
    --------
    >>> demo = demo_fairness_leak()
    >>> {k: round(v, 2) for k, v in demo.inference.rule.items()}  # doctest: +NORMALIZE_WHITESPACE
    {('F', '<100k'): 0.0, ('F', '100k-200k'): 0.03, ('F', '>200k'): 1.0,
     ('M', '<100k'): 0.0, ('M', '100k-200k'): 0.53, ('M', '>200k'): 1.0}
    """
    owner = "infer_rules_from_fairness"
    if not isinstance(rates, dict) or len(rates) != 2:
        raise param_error("rates", owner, "map the two groups to their approval rates", rates)
    y1, y2 = list(rates)
    strata = list(csp)
    for y in (y1, y2):
        for w in strata:
            if (y, w) not in side_info:
                raise param_error("side_info", owner, "give P(W | Y) for every group and stratum",
                                  f"no entry for {(y, w)!r}")
    signed = [w for w in strata if csp[w] > 0]
    patterns = []
    for signs in itertools.product((1, -1), repeat=len(signed)):
        sign = dict(zip(signed, signs))
        shift = {w: sign.get(w, 0) * csp[w] for w in strata}  # d_{Y2,W} = d_{Y1,W} - shift_W
        lo = {w: max(0.0, shift[w]) for w in strata}
        hi = {w: min(1.0, 1.0 + shift[w]) for w in strata}
        fixed = {}
        for (y, w), value in known.items():
            fixed[w] = value if y == y1 else value + shift[w]
        free = [w for w in strata if w not in fixed]
        # rate equations: rows for y1, y2 over the free cells, right-hand sides moved over
        coef = np.array([[side_info[(y1, w)] for w in free], [side_info[(y2, w)] for w in free]])
        rhs = np.array([
            rates[y1] - sum(side_info[(y1, w)] * v for w, v in fixed.items()),
            rates[y2] - sum(side_info[(y2, w)] * (v - shift[w]) for w, v in fixed.items())
            + sum(side_info[(y2, w)] * shift[w] for w in free),
        ])
        reach_lo = np.array([sum(min(c * lo[w], c * hi[w]) for c, w in zip(row, free))
                             for row in coef])
        reach_hi = np.array([sum(max(c * lo[w], c * hi[w]) for c, w in zip(row, free))
                             for row in coef])
        box_ok = all(lo[w] <= hi[w] and lo[w] <= fixed.get(w, lo[w]) <= hi[w] for w in strata)
        bad = [i for i in range(2) if not reach_lo[i] - 1e-12 <= rhs[i] <= reach_hi[i] + 1e-12]
        if not box_ok:
            reason = "a known cell contradicts the signs"
        elif bad:
            reason = "; ".join(
                f"rate equation {i + 1} needs {rhs[i]:.4f} but reaches only "
                f"[{reach_lo[i]:.4f}, {reach_hi[i]:.4f}]" for i in bad
            ) + " with every cell in [0, 1]"
        else:
            reason = "consistent with every cell in [0, 1]"
        solution = (dict(zip(free, np.linalg.lstsq(coef, rhs, rcond=None)[0].tolist()))
                    if free else {})
        clamped = dict(solution)
        per_equation = {}
        active = list(free)
        for _ in range(len(free)):
            out = [w for w in active if not lo[w] <= clamped[w] <= hi[w]]
            if not out:
                break
            for w in out:
                clamped[w] = min(max(clamped[w], lo[w]), hi[w])
            active = [w for w in active if w not in out]
            if not active:
                break
            sub = coef[:, [free.index(w) for w in active]]
            sub_rhs = rhs - sum(coef[:, free.index(w)] * clamped[w]
                                for w in free if w not in active)
            clamped.update(zip(active, np.linalg.lstsq(sub, sub_rhs, rcond=None)[0].tolist()))
            if len(active) == 1:
                w = active[0]
                per_equation = {i + 1: float(sub_rhs[i] / sub[i, 0]) for i in range(2) if sub[i, 0]}
        clamped = {w: min(max(v, lo[w]), hi[w]) for w, v in clamped.items()}
        full = {(y1, w): float(fixed.get(w, clamped.get(w))) for w in strata}
        full.update({(y2, w): full[(y1, w)] - shift[w] for w in strata})
        patterns.append(SignPattern(
            signs=sign, feasible=box_ok and not bad, reason=reason,
            solution={(y1, w): float(v) for w, v in solution.items()},
            clamped=full, per_equation=per_equation,
        ))
    survivors = [p for p in patterns if p.feasible]
    rule = survivors[0].clamped if len(survivors) == 1 else {}
    return RuleInference(patterns=tuple(patterns), rule=rule)


@dataclass(frozen=True, eq=False)
class FairnessLeakDemo:
    """Table 2 recomputed from Table 1, and Mary's reconstruction of the rule from it."""

    approval_rates: dict
    statistical_parity: float
    conditional_parity: dict
    inference: RuleInference

    def to_dict(self) -> dict:
        return {"approval_rates": self.approval_rates,
                "statistical_parity": self.statistical_parity,
                "conditional_parity": self.conditional_parity,
                "inference": self.inference.to_dict()}


def demo_fairness_leak() -> FairnessLeakDemo:
    """Section 3.3: fairness numbers plus one right-of-access answer reveal the rule.

    Table 2 from Table 1's populations: approval rates F = 2/150 (1.33%), M = 14/140 (10%),
    statistical-parity bias 0.0866667 (the paper truncates to 0.0866), conditional parity
    0 / 0.5 / 0.  Mary knows d_{F,<100k} = 0 and the census weights.  The hypothesis
    d_{F,mid} = d_{M,mid} + 0.5 needs 0.1615 from equation (2), which reaches only 0.158;
    the other one solves exactly to d_{F,mid} = 0.00674, d_{F,>200k} = 1.0763 (the paper
    prints 0.0088 and 1.0692), and after clamping d_{F,>200k} = 1 equation (1) gives
    d_{F,mid} = 0.0228 and equation (2) 0.0285 (the paper's "0.0013" is 0.057 d_{F,mid}).

    Examples
    --------
    >>> demo = demo_fairness_leak()
    >>> round(demo.statistical_parity, 7), demo.conditional_parity
    (0.0866667, {'<100k': 0.0, '100k-200k': 0.5, '>200k': 0.0})
    """
    table = credit_card_table("population")
    sp = statistical_parity(table, protected="gender")
    csp = conditional_statistical_parity(table, protected="gender", stratum="income")
    rates = {g: sp.distributions[g][1] for g in ("F", "M")}
    frame = load_credit_card()
    side = {(g, w): c for g, w, c in zip(frame["gender"], frame["income"], frame["census"])}
    inference = infer_rules_from_fairness(
        # what the report prints: rates rounded as published (1.33%, 10%)
        {"F": 0.0133, "M": 0.1}, {m.stratum: m.value for m in csp}, side, {("F", "<100k"): 0.0},
    )
    return FairnessLeakDemo(
        approval_rates=rates, statistical_parity=sp.value,
        conditional_parity={m.stratum: m.value for m in csp}, inference=inference,
    )


# -- Appendix B: the QII leak ----------------------------------------------------------------
def qii(classifier: Callable, data: pd.DataFrame, attrs, *, where, n_samples: int | None = None,
        random_state=None) -> float:
    """Quantitative input influence I(K) = Q(X) - Q(X_{-K} U_K) (Appendix B, eqs. 33-34).

    Q(X) = P{c(X) = 1 | X in T_W}.  The intervention replaces the attributes K of every
    record of T_W by an independent draw U_K from their joint marginal in ``data``.

    Parameters
    ----------
    classifier : callable
        Maps a DataFrame to P{c = 1} per row (0/1 labels for a deterministic model).
    data : pandas.DataFrame
        The dataset defining the marginal of K.
    attrs : str or list of str
        The intervened attributes K (drawn jointly).
    where : boolean mask or Series
        The records of T_W.
    n_samples : int, optional
        Monte-Carlo draws per record; None averages over every row of ``data`` (exact for
        the empirical marginal).
    random_state : int or numpy Generator, optional
        Only used with ``n_samples``.

    Examples
    --------
    >>> import pandas as pd
    >>> data = pd.DataFrame({"x": [0, 1, 1, 1]})
    >>> qii(lambda f: (f["x"] == 1).astype(float), data, "x", where=data["x"] == 1)
    0.25
    """
    owner = "qii"
    attrs = [attrs] if isinstance(attrs, str) else list(attrs)
    require_columns(data, attrs)
    mask = where.to_numpy() if isinstance(where, pd.Series) else np.asarray(where)
    if mask.dtype != bool or mask.shape != (len(data),) or not mask.any():
        raise param_error("where", owner, "be a non-empty boolean mask over the data's rows", where)
    group = data[mask]
    base = float(np.mean(np.asarray(classifier(group), dtype=float)))
    if n_samples is None:
        draws = data[attrs].reset_index(drop=True)
    else:
        if isinstance(n_samples, bool) or not isinstance(n_samples, int) or n_samples < 1:
            raise param_error("n_samples", owner, "be a positive integer or None", n_samples)
        rng = np.random.default_rng(random_state)
        draws = data[attrs].iloc[rng.integers(0, len(data), n_samples)].reset_index(drop=True)
    rest = group.drop(columns=attrs).reset_index(drop=True)
    crossed = rest.merge(draws, how="cross")[list(data.columns)]
    intervened = float(np.mean(np.asarray(classifier(crossed), dtype=float)))
    return base - intervened


def _qii_data(rng: np.random.Generator) -> pd.DataFrame:
    """Synthetic stand-in for the Australian credit data (Appendix B, Table 6).

    300 records with public A4-A7 and private A9 (t/f), A11 (0-20) and A14; the targeted
    QID group x_U = (y, p, k, v) has nine records with A11 in [0, 1] (W0) and two with A11
    in [10, 11] and A9 = t (W1), as in Table 6.
    """
    n = 289
    data = pd.DataFrame({
        "A4": rng.choice(["u", "y", "l"], n), "A5": rng.choice(["g", "p", "gg"], n),
        "A6": rng.choice(["c", "d", "k", "q"], n), "A7": rng.choice(["v", "h", "bb"], n),
        "A9": rng.choice(["t", "f"], n), "A11": rng.integers(0, 21, n),
        "A14": rng.integers(0, 500, n),
    })
    # keep the other records out of the targeted group
    data.loc[(data["A4"] == "y") & (data["A5"] == "p") & (data["A6"] == "k")
             & (data["A7"] == "v"), "A7"] = "h"
    target = pd.DataFrame({
        "A4": ["y"] * 11, "A5": ["p"] * 11, "A6": ["k"] * 11, "A7": ["v"] * 11,
        "A9": ["f"] * 7 + ["t", "t"] + ["t", "t"],
        "A11": [0, 0, 0, 0, 0, 0, 0, 1, 1, 10, 11],
        "A14": [160, 224, 200, 280, 140, 200, 216, 280, 180, 320, 380],
    })
    return pd.concat([data, target], ignore_index=True)


def _credit_model(frame: pd.DataFrame) -> np.ndarray:
    """The synthetic "learned" model: approve iff A9 = t and A11 >= 10 (private inputs)."""
    return ((frame["A9"] == "t") & (frame["A11"] >= 10)).to_numpy(dtype=float)


@dataclass(frozen=True, eq=False)
class QIILeakDemo:
    """Appendix B on synthetic data: QII answers reveal W1 membership; D~ caps it."""

    method1_w1: float
    method1_w0: float
    method1_difference: float
    method2_a9: float
    p_a9_false: float
    method2_q: float
    conf_published: float
    conf_protected: float
    beta_star: float
    difference_protected: float

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def demo_qii_leak(*, random_state=0, delta: float = 0.9) -> QIILeakDemo:
    """Appendix B: feature-importance (QII) answers leak a private attribute.

    Method 1: with S all private attributes, the intervened terms of I(S) for W1 and W0
    coincide (both groups share x_U), so I(S; W1) - I(S; W0) = P{c=1|W1} - P{c=1|W0} = 1:
    every W1 member is approved and no W0 member is.  Method 2: every W1 record has
    A9 = t and the model needs A9 = t, so I(A9; W1) = Q P{U_A9 = f} and Q = I / P{U=f} = 1.
    An adversary who sees a target of x_U approved infers A11 >= 10 with confidence 1.
    Computing the same answers from the optimal D~ (delta-fidelity) caps that at beta*.

    Examples
    --------
    >>> demo = demo_qii_leak()
    >>> demo.method1_difference, demo.conf_published, demo.conf_protected <= demo.beta_star
    (1.0, 1.0, True)
    """
    rng = np.random.default_rng(random_state)
    data = _qii_data(rng)
    private = ["A9", "A11", "A14"]
    in_group = ((data["A4"] == "y") & (data["A5"] == "p") & (data["A6"] == "k")
                & (data["A7"] == "v")).to_numpy()
    w1 = in_group & (data["A11"] >= 10).to_numpy()
    w0 = in_group & (data["A11"] <= 1).to_numpy()
    i_w1 = qii(_credit_model, data, private, where=w1)
    i_w0 = qii(_credit_model, data, private, where=w0)
    i_a9 = qii(_credit_model, data, "A9", where=w1)
    p_false = float((data["A9"] == "f").mean())

    # the decision regions of the group: the band of A11 (W0 / W1) is the secret
    regions = pd.DataFrame({
        "x_U": "y,p,k,v", "band": ["W0", "W1"],
        "count": [int(w0.sum()), int(w1.sum())],
        "d": [float(_credit_model(data[w0]).mean()), float(_credit_model(data[w1]).mean())],
    })
    table = DecisionTable.from_frame(regions, public="x_U", sensitive="band", weight="count",
                                     decision="d")
    result = optimal_privacy(table, Delta(delta))
    d_tilde = dict(zip(regions["band"], result.d_tilde[:, 1]))

    def protected_model(frame: pd.DataFrame) -> np.ndarray:
        bands = np.where(frame["A11"].to_numpy() >= 10, "W1", "W0")
        return np.array([d_tilde[b] for b in bands])

    diff_protected = (qii(protected_model, data, private, where=w1)
                      - qii(protected_model, data, private, where=w0))
    return QIILeakDemo(
        method1_w1=i_w1, method1_w0=i_w0, method1_difference=round(i_w1 - i_w0, 12),
        method2_a9=i_a9, p_a9_false=p_false, method2_q=i_a9 / p_false,
        conf_published=float(max_confidence(table).conf),
        conf_protected=float(confidence(table, result).loc[1, 1]),
        beta_star=float(result.beta_star), difference_protected=round(diff_protected, 12),
    )
