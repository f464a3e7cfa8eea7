"""Decision tables the transparency tests share: Table 1 of the paper and small hand-made ones,
and the certificate of Section 8's optimal rule."""
import warnings

import pandas as pd

from skyprivacy.datasets import load_credit_card
from skyprivacy.errors import PrivacyRiskWarning
from skyprivacy.transparency import DecisionTable, Delta, optimal_privacy
from skyprivacy.transparency.certificate import build_rule_certificate


def credit_card_table(weight: str = "section8") -> DecisionTable:
    """Table 1 of Chen, Golubchik and Pal weighted by ``weight`` (section8, population or
    census)."""
    return DecisionTable.from_frame(load_credit_card(), public="gender", sensitive="income",
                                    weight=weight, decision="d")


def table_of(p, d, groups=None, index=None, **extra) -> DecisionTable:
    """One record per weight in ``p`` with decision ``d``, sensitive values 0..n-1, all in QID
    group "g" unless ``groups`` says otherwise; extra columns (bounds) ride along.  The
    table's own PrivacyRiskWarnings (single-record groups) are silenced: not the point here."""
    groups = groups or ["g"] * len(p)
    frame = pd.DataFrame({"g": groups, "s": range(len(p)), "w": p, "d": d, **extra}, index=index)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PrivacyRiskWarning)
        return DecisionTable.from_frame(frame, public="g", sensitive="s", weight="w",
                                        decision="d")


def three_outcomes() -> DecisionTable:
    """Two QID groups (4 and 3 records) with three outcomes, no / maybe / yes."""
    frame = pd.DataFrame({
        "g": ["a"] * 4 + ["b"] * 3, "s": [1, 2, 3, 4, 1, 2, 3], "w": [5, 3, 1, 1, 2, 2, 6],
        "no": [0.9, 0.2, 0.0, 0.3, 1.0, 0.0, 0.5], "maybe": [0.1, 0.3, 0.0, 0.3, 0.0, 0.5, 0.5],
        "yes": [0.0, 0.5, 1.0, 0.4, 0.0, 0.5, 0.0],
    })
    return DecisionTable.from_frame(frame, public="g", sensitive="s", weight="w",
                                    decision=["no", "maybe", "yes"])


#: The columns of Table 1 as the Section 8 certificates read them.
KW = {"public": "gender", "sensitive": "income", "weight": "section8", "decision": "d"}


def section8(exact):
    """(table, announced rule, certificate) of Section 8 of the paper: Table 1 with
    populations 12, 5, 3 / 9, 7, 4, delta = 0.9."""
    frame = load_credit_card()
    result = optimal_privacy(DecisionTable.from_frame(frame, **KW), Delta(0.9), exact=exact)
    rule = result.announced
    cert = build_rule_certificate(frame, rule, announced="d_tilde", fidelity=Delta(0.9),
                                  optimal=True, exact=exact, created="2026-01-01T00:00:00Z",
                                  **KW)
    return frame, rule, cert
