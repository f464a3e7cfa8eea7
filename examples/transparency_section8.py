"""Section 8 of Chen, Golubchik and Pal, reproduced with skyprivacy.transparency.

Table 1's credit-card rule with the populations 12, 5, 3 (female) and 9, 7, 4 (male) is
announced under 90%-fidelity.  Every number printed here is listed in docs/transparency.md
(and asserted by the tests of skyprivacy.transparency and tests/test_examples_transparency.py).

Run:  python examples/transparency_section8.py
"""

import pandas as pd

from skyprivacy.transparency import Delta, satisfies_beta

from transparency_paper import demo_section8


def main() -> None:
    pd.set_option("display.width", 120)
    demo = demo_section8()
    result = demo.result
    table = demo.table

    print("Inputs (Table 1 rows, Section 8 populations):")
    print(table.to_frame().to_string())

    print("\nTable 4 - normalised bounds on D~_1 and the Theorem 1 quantities:")
    print(result.details.map(str).to_string())

    print("\nPer QID group (exact):")
    cols = ["gender", "beta0", "beta1", "betap", "beta_min", "beta_star", "case", "c_star", "rhs"]
    print(result.to_frame()[cols].map(str).to_string(index=False))

    print(f"\nbeta* = {result.beta_star} = {float(result.beta_star):.6f}"
          f"  (gamma* = {result.gamma_star:.4f})")
    print("announced d~ =", [float(v) for v in result.announced["d_tilde"]])
    print("achieved maximum confidence (recomputed):", result.achieved.conf,
          "on", result.achieved.group, "decision", result.achieved.outcome,
          "->", result.achieved.sensitive)
    print("beta-check at beta*:",
          bool(satisfies_beta(table, result, beta=result.beta_star, exact=True)))

    print("\nConfidence of every channel under D~:")
    print(demo.confidence_announced.map(str).to_string())

    print("\nTrade-off region [beta_min, C*] per group:")
    print(demo.region.groups.map(str).to_string(index=False))

    print("\nTrade-off curve beta*(delta) (spec 6.7):")
    print(demo.curve.to_frame(per_group=True).pivot(index="delta", columns="gender",
                                                    values=["beta_star", "case"]).to_string())

    print("\nFairness computed from D (never publish these) and from D~ with Lemma 2 bounds:")
    for title, report in (("true rule D", demo.fairness_true),
                          ("announced D~", demo.fairness_announced)):
        frame = report.to_frame()[["measure", "stratum", "value", "ratio", "true_low", "true_high"]]
        print(f"-- {title}")
        print(frame.round(6).to_string(index=False))
    print(f"\nLemma 2 bound for TV measures at {Delta(0.9)}: 2(1 - delta) = 0.2")


if __name__ == "__main__":
    main()
