"""docs/risk.md runs as a doctest: every figure it quotes is recomputed."""
from guides import run_guide


def test_the_risk_guide_runs():
    failed, attempted = run_guide("risk.md")
    assert attempted >= 10
    assert failed == 0
