"""The main job on the bundled data: certify generalized releases of UCI Adult.

Run with ``python examples/demo.py`` (``make demo``).  Two releases of Adult with occupation as
the sensitive attribute are checked against the value-centric policy of Table 3 of Chen, LeFevre
and Ramakrishnan (2009): a fine one (age in decades, sex and race kept) and a coarse one (age in
20-year bands, sex and race suppressed).  For each, the per-value table and the worst cases of the
failing checks are printed.

Then SkylineAnonymize under the same policy (7 QIs, the six categorical ones along their ARX
hierarchies, age split as a number) and the knowledge skylines of the most exposed values of its
release (:func:`anonymize_demo`).

Then the command-line path (:func:`cli_demo`): Adult is exported to a temporary folder, anonymized
by ``skyprivacy anonymize`` with a certificate and an HTML report, re-checked with ``skyprivacy
check --format json`` and verified with ``skyprivacy verify`` (once as released, once after one
cell was changed).  The commands run in-process and are printed as a shell user would type them.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
import sys
import tempfile

import pandas as pd

from skyprivacy.anonymize import skyline_anonymize
from skyprivacy.check import skyline_check
from skyprivacy.datasets import load_adult, load_adult_hierarchies, load_credit_card
from skyprivacy.find import skyline_find_all
from skyprivacy.knowledge import Policy
from skyprivacy.release import ReleaseCandidate

#: Table 3 of the paper: the value-centric policy on occupation.
TABLE3_POLICY = Policy(
    {
        "Armed-Forces": [(5, 10, 5, 0.7)],
        "Exec-managerial": [(4, 10, 4, 0.9)],
        "Protective-serv": [(3, 8, 3, 0.9)],
    },
    default=[(1, 5, 1, 0.9)],
)


def _decades(age: pd.Series, width: int) -> pd.Series:
    low = (age // width) * width
    return low.astype(str) + "-" + (low + width - 1).astype(str)


def build_releases(adult: pd.DataFrame) -> dict[str, tuple[pd.DataFrame, list[str]]]:
    """Two simple generalizations of Adult: (table, quasi-identifier columns)."""
    fine = adult[["age", "sex", "race", "occupation"]].assign(age=_decades(adult["age"], 10))
    coarse = adult[["age", "sex", "race", "occupation"]].assign(
        age=_decades(adult["age"], 20), sex="*", race="*")
    return {"fine: age in decades, sex, race": (fine, ["age", "sex", "race"]),
            "coarse: age in 20-year bands, sex and race suppressed": (coarse,
                                                                      ["age", "sex", "race"])}


#: The policy file of the command-line part (the issue's example policy).
POLICY_TOML = """\
[default]
skyline = [[1, 5, 1, 0.9]]            # (l, k, m, c) points for every value not listed

[values."Exec-managerial"]
skyline = [[4, 10, 4, 0.9], [1, 20, 1, 0.9]]
"""


def _run_cli(arguments: list[str], folder: str, out) -> tuple[int, str]:
    """Run ``skyprivacy ARGUMENTS`` in-process; print the command (paths relative to the
    folder), its stdout and stderr; return the exit code and stdout."""
    from skyprivacy.cli import main as cli_main

    shown = [os.path.relpath(a, folder) if a.startswith(folder) else a for a in arguments]
    print(f"$ {shlex.join(['skyprivacy', *shown])}", file=out)
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = cli_main(arguments)
    return (code, stdout.getvalue().replace(folder + os.sep, ""),
            stderr.getvalue().replace(folder + os.sep, ""))


def cli_demo(out=None) -> int:
    """The command-line path on the bundled Adult data; returns 0 when every step behaved."""
    out = out or sys.stdout
    print("=== The command line: anonymize, check, verify", file=out)
    ok = True
    with tempfile.TemporaryDirectory(prefix="skyprivacy-demo-") as folder:
        path = lambda name: os.path.join(folder, name)  # noqa: E731
        with open(path("policy.toml"), "w", encoding="utf-8") as stream:
            stream.write(POLICY_TOML)
        print(f"$ cat policy.toml\n{POLICY_TOML}", file=out)
        release = ["--qi", "age,workclass,sex", "--sensitive", "occupation"]
        # every other column of Adult is left out: the release holds only what was analysed
        unused = [c for c in load_adult().columns if c not in ("age", "workclass", "sex",
                                                               "occupation")]
        steps = [
            (["data", "adult", "--output", path("adult.csv")], 0),
            (["anonymize", path("adult.csv"), *release, "--policy", path("policy.toml"),
              "--drop", ",".join(unused),
              "--hierarchy", "workclass=bundled:adult", "--output", path("out.csv"),
              "--certificate", path("cert.json"), "--report", path("report.html")], 0),
        ]
        for arguments, expected in steps:
            code, stdout, stderr = _run_cli(arguments, folder, out)
            print(stdout + stderr + f"(exit code {code})\n", file=out)
            ok &= code == expected
        code, stdout, _ = _run_cli(["check", path("out.csv"), *release, "--policy",
                                    path("policy.toml"), "--format", "json"], folder, out)
        result = json.loads(stdout)
        worst = max(result["rows"], key=lambda r: r["breach_probability"])
        print(f"  (summary of the JSON) schema_version {result['schema_version']}, verdict "
              f"{result['verdict']}, {result['n_checks']} checks, table sha256 "
              f"{result['table']['sha256'][:16]}..., highest breach probability "
              f"{worst['breach_probability_exact']} for {worst['value']!r}\n(exit code {code})\n",
              file=out)
        ok &= code == 0
        code, stdout, stderr = _run_cli(["verify", path("out.csv"), "--certificate",
                                         path("cert.json")], folder, out)
        print(stdout + stderr + f"(exit code {code})\n", file=out)
        ok &= code == 0
        with open(path("out.csv"), encoding="utf-8") as stream:
            lines = stream.read().split("\n")
        lines[1] = lines[1].replace("Adm-clerical", "Exec-managerial", 1)
        with open(path("tampered.csv"), "w", encoding="utf-8") as stream:
            stream.write("\n".join(lines))
        print("One cell of the release changed (tampered.csv); verify must fail:", file=out)
        code, stdout, stderr = _run_cli(["verify", path("tampered.csv"), "--certificate",
                                         path("cert.json")], folder, out)
        print(stdout + f"(exit code {code})\n", file=out)
        ok &= code == 1
        with open(path("cert.json"), encoding="utf-8") as stream:
            certificate = json.load(stream)
        certificate["checks"][0]["breach_probability_exact"] = "1/100"
        certificate["checks"][0]["breach_probability"] = 0.01
        with open(path("edited.cert.json"), "w", encoding="utf-8") as stream:
            json.dump(certificate, stream)
        print("One breach probability of the certificate lowered (edited.cert.json); verify "
              "recomputes it:", file=out)
        code, stdout, stderr = _run_cli(["verify", path("out.csv"), "--certificate",
                                         path("edited.cert.json")], folder, out)
        print(stdout + f"(exit code {code})", file=out)
        ok &= code == 1
    return 0 if ok else 1


def main(out=None) -> int:
    """Print the certification of both releases, then run the command-line path; returns 0."""
    out = out or sys.stdout
    adult = load_adult()
    print(f"UCI Adult: {len(adult):,} records; sensitive attribute: occupation "
          f"({adult['occupation'].nunique()} values).", file=out)
    print(f"Policy (Table 3, value-centric): {TABLE3_POLICY!r}\n", file=out)
    for name, (table, qi) in build_releases(adult).items():
        release = ReleaseCandidate.from_table(table, qi=qi, sensitive="occupation")
        result = skyline_check(release, TABLE3_POLICY)
        sizes = release.group_sizes
        print(f"=== Release {name}", file=out)
        print(f"{release.n_groups} QI-groups, sizes {sizes.min()}..{sizes.max()} "
              f"(average {sizes.mean():.1f}). Verdict: {'SAFE' if result.safe else 'UNSAFE'}",
              file=out)
        frame = result.to_frame()[["value", "l", "k", "m", "c", "breach_probability",
                                   "breach_probability_exact", "safe"]]
        with pd.option_context("display.width", 160, "display.max_colwidth", 40):
            print(frame.to_string(index=False), file=out)
        if result.violations:
            print("\nWorst cases of the failing checks:", file=out)
            for row in result.violations:
                print(f"- {row.value} at {row.point}: {row.worst_case.description}", file=out)
        print(file=out)
    anonymize_demo(adult, out)
    code = cli_demo(out)
    return transparency_demo(out) or code


def transparency_demo(out=None) -> int:
    """A transparency report's decision rule (Table 1 of Chen, Golubchik and Pal, Section 8):
    certify the true rule, optimize it, verify the certificate, and catch an edited rule;
    returns 0 when every step behaved."""

    out = out or sys.stdout
    print("\n=== A transparency report's decision rule: certify, optimize, verify", file=out)
    ok = True
    with tempfile.TemporaryDirectory(prefix="skyprivacy-demo-") as folder:
        path = lambda name: os.path.join(folder, name)  # noqa: E731
        load_credit_card()[["gender", "income", "d", "section8"]].to_csv(
            path("rules.csv"), index=False)
        print("Table 1 of the paper (gender public, income sensitive, d = P(approve)):",
              file=out)
        with open(path("rules.csv"), encoding="utf-8") as stream:
            print(stream.read(), file=out)
        columns = ["--public", "gender", "--sensitive", "income", "--weight", "section8",
                   "--decision", "d"]
        steps = [
            (["transparency", "check", path("rules.csv"), *columns, "--beta", "0.9",
              "--certificate", path("true.cert.json")], 1),
            (["transparency", "optimize", path("rules.csv"), *columns, "--delta", "0.9",
              "--exact", "--output", path("announced.csv"), "--certificate",
              path("announced.cert.json"), "--report", path("announced.html")], 0),
            (["transparency", "verify", path("rules.csv"), "--rule", path("announced.csv"),
              "--certificate", path("announced.cert.json")], 0),
        ]
        for arguments, expected in steps:
            code, stdout, stderr = _run_cli(arguments, folder, out)
            print(stdout + stderr + f"(exit code {code})\n", file=out)
            ok &= code == expected
        with open(path("announced.csv"), encoding="utf-8") as stream:
            text = stream.read()
        with open(path("edited.csv"), "w", encoding="utf-8") as stream:
            stream.write(text.replace("9/10", "4/5", 1))
        print("The announced rule edited after certification (edited.csv: one d_tilde 9/10 -> "
              "4/5); verify must fail:", file=out)
        code, stdout, stderr = _run_cli(["transparency", "verify", path("rules.csv"), "--rule",
                                         path("edited.csv"), "--certificate",
                                         path("announced.cert.json")], folder, out)
        print(stdout + f"(exit code {code})", file=out)
        ok &= code == 1
    return 0 if ok else 1


def anonymize_demo(adult: pd.DataFrame, out) -> None:
    """SkylineAnonymize under the Table 3 policy, then the knowledge skylines of its most
    exposed values (Sects. 6.2 and 6.3)."""
    qi = ["age", "workclass", "education", "marital-status", "race", "sex", "native-country"]
    hierarchies = {k: v for k, v in load_adult_hierarchies().items() if k in qi and k != "age"}
    result = skyline_anonymize(adult, qi=qi, sensitive="occupation", policy=TABLE3_POLICY,
                               hierarchies=hierarchies,
                               drop=[c for c in adult.columns if c not in [*qi, "occupation"]])
    print(f"=== SkylineAnonymize under the Table 3 policy, QIs {qi} (ARX hierarchies "
          f"for {', '.join(sorted(hierarchies))}; age split as a number)",
          file=out)
    print(f"{result.candidate.n_groups} QI-groups (average {result.average_group_size:.1f}); "
          f"certificate: {result.certificate.explain()}", file=out)
    print(result.table[qi + ["occupation"]].head(3).to_string(index=False), file=out)
    skylines = skyline_find_all(result.candidate, c=0.95)
    print("\nKnowledge skylines at c = 0.95, the three most exposed values:", file=out)
    for skyline in list(skylines)[:3]:
        breach = skyline.least_breach
        print(f"- {skyline.value}: safe under {list(skyline.points)[:6]}"
              f"{' ...' if len(skyline.points) > 6 else ''}; breached by (l, k, m) = {breach}",
              file=out)
    print(file=out)


if __name__ == "__main__":
    raise SystemExit(main())
