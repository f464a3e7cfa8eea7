"""How an algorithmic transparency report leaks, and how the announced rule D~ stops it.

Reproduces Section 3 and Appendix B of Chen, Golubchik and Pal with skyprivacy:
  1. a published surrogate rule (Section 3.2),
  2. published fairness measures plus one right-of-access answer (Section 3.3),
  3. published feature-importance (QII) answers (Appendix B, on synthetic data).

Run:  python examples/transparency_leaks.py
"""

import pandas as pd

from transparency_paper import demo_fairness_leak, demo_qii_leak, demo_surrogate_leak


def main() -> None:
    pd.set_option("display.width", 120)

    print("1. Surrogate rule (Section 3.2), adversary weights = census statistics")
    leak = demo_surrogate_leak()
    print(f"   female card holder has income >200k: confidence {leak.conf('F', 1, '>200k'):.4f}"
          " (prior 0.012)")
    print(f"   male card holder has income >200k:   confidence {leak.conf('M', 1, '>200k'):.4f}"
          " (prior 0.035)")
    print(f"   same channels under D~ (delta={leak.delta}): "
          f"{leak.conf('F', 1, '>200k', protected=True):.4f} and "
          f"{leak.conf('M', 1, '>200k', protected=True):.4f}; every channel <= beta* = "
          f"{leak.beta_star:.4f}")
    print(leak.channels.round(4).to_string(index=False))

    print("\n2. Fairness measures (Section 3.3, Table 2 recomputed from Table 1)")
    fair = demo_fairness_leak()
    print("   approval rates:", {k: round(v, 6) for k, v in fair.approval_rates.items()})
    print(f"   statistical-parity bias: {fair.statistical_parity:.7f}")
    print("   conditional-parity bias per income band:", fair.conditional_parity)
    print("   Mary knows d(F, <100k) = 0 and the census weights; her sign hypotheses:")
    for p in fair.inference.patterns:
        print(f"     signs {p.signs}: {'kept' if p.feasible else 'ruled out'} - {p.reason}")
        if p.feasible:
            print("       exact solution:", {k: round(v, 5) for k, v in p.solution.items()})
            print("       after clamping, d(F, 100k-200k) from each rate equation:",
                  {k: round(v, 4) for k, v in p.per_equation.items()})
    print("   reconstructed rule:",
          {f"{y}|{w}": round(v, 3) for (y, w), v in fair.inference.rule.items()})

    print("\n3. Feature importance / QII (Appendix B, synthetic data)")
    q = demo_qii_leak()
    print(f"   Method 1: I(S; W1) = {q.method1_w1:.4f}, I(S; W0) = {q.method1_w0:.4f}, "
          f"difference = P(c=1|W1) - P(c=1|W0) = {q.method1_difference}")
    print(f"   Method 2: I(A9; W1) = {q.method2_a9:.6f}, P(U_A9 = f) = {q.p_a9_false:.6f}, "
          f"so P(c=1|W1) = {q.method2_q:.6f}")
    print(f"   confidence that an approved x_U member has A11 >= 10: {q.conf_published} published, "
          f"{q.conf_protected:.4f} from D~ (beta* = {q.beta_star:.4f});"
          f" the QII difference drops to {q.difference_protected}")


if __name__ == "__main__":
    main()
