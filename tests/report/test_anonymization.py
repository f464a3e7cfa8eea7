"""The anonymization section of a table's report (skyprivacy/report/anonymization.py): the
criteria's verdicts, the chosen node or the Mondrian partition, the utility figures and the
suppressed rows, escaped; and the acceptance run of issue 24 end to end on the command line:
Adult, full-domain with a 1% suppression limit, criteria from a policy file's [criteria]
section, the certificate verified, the report rendered in headless Chromium."""
import json
import re
from pathlib import Path

import pandas as pd
import pytest

from skyprivacy.anonymize import anonymize
from skyprivacy.certificate import anonymization_certificate
from skyprivacy.cli import main
from skyprivacy.criteria import DistinctLDiversity, KAnonymity
from skyprivacy.datasets import load_adult
from skyprivacy.errors import InvalidParameterError
from skyprivacy.hierarchy import Hierarchy
from skyprivacy.io import write_table
from skyprivacy.report import anonymization_section, render_report

from .browser import chromium, headless

EVIL = '<script>alert("x")</script>'
ZIPS = Hierarchy([["11", "1*", "*"], ["12", "1*", "*"], ["21", "2*", "*"], ["22", "2*", "*"],
                  [EVIL, "3*", "*"], ["32", "3*", "*"]])


def _certificate(mode: str):
    table = pd.DataFrame({"zip": ["11", "12", "21", "22"] * 3 + [EVIL, "32"],
                          "dx": ["a"] * 4 + ["b"] * 4 + ["c"] * 4 + ["a", "b"]})
    criteria = [KAnonymity(2), DistinctLDiversity(2)]
    result = anonymize(table, qi="zip", sensitive="dx", criteria=criteria,
                       method="full-domain", suppression_limit=0.2, suppressed=mode,
                       hierarchies={"zip": ZIPS})
    reasons = [{"group": {"zip": z}, "n_rows": 1,
                "fails": ["KAnonymity(k=2)", "DistinctLDiversity(l=2)"]} for z in (EVIL, "32")]
    cert = anonymization_certificate(result, qi="zip", sensitive="dx", criteria=criteria,
                                     suppressed=mode, suppression_limit=0.2, reasons=reasons,
                                     created="2024-01-01T00:00:00Z")
    return result, cert


def test_the_section_shows_the_node_utility_and_suppressed_rows():
    _, cert = _certificate("drop")
    html = anonymization_section(cert)
    assert html.startswith('<section id="anonymization"><h2>Anonymization</h2><p>Made by '
                           '<code>skyprivacy.anonymize</code> with method <b>full-domain</b>'
                           '.</p><h3>Criteria</h3>')
    assert ("<tr><td>KAnonymity(k=2)</td><td>holds</td><td class=\"num\">0</td></tr>"
            in html)
    assert ('<table id="levels"><thead><tr><th>Quasi-identifier</th><th>Level</th></tr>'
            '</thead><tbody><tr><td>zip</td><td class="num">0</td></tr></tbody></table>'
            in html)
    assert "The release has 4 QI-groups of 3 to 3 rows (average 3.0)." in html
    value = cert["anonymization"]["objective"]["value"]
    assert f"<dt>Objective</dt><dd>loss = {value}" in html
    assert "<dt>Discernibility of the released groups</dt><dd>36</dd>" in html
    assert "<dt>Discernibility, each suppressed row charged N</dt><dd>64</dd>" in html
    assert ('<p id="suppressed">2 of 14 rows suppressed (removed from the release); the '
            'limit 1/5 of the rows allowed 2.</p>') in html
    assert EVIL not in html
    assert ("<td>zip = &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</td><td "
            "class=\"num\">1</td><td>KAnonymity(k=2), DistinctLDiversity(l=2)</td>") in html


def test_the_masked_group_and_a_mondrian_partition():
    _, cert = _certificate("mask")
    html = anonymization_section(cert)
    assert "released with every quasi-identifier &#x27;*&#x27;" in html
    assert ("<p>The masked group holds 2 rows and is itself a QI-group of the release: "
            "KAnonymity(k=2) holds, DistinctLDiversity(l=2) holds.</p>") in html
    table = pd.DataFrame({"age": ["1", "2", "3", "4"], "dx": ["a", "b", "a", "b"]})
    result = anonymize(table, qi="age", sensitive="dx", criteria=KAnonymity(2))
    cert = anonymization_certificate(result, qi="age", sensitive="dx", criteria=KAnonymity(2))
    html = anonymization_section(cert)
    assert "<h3>Mondrian partition</h3><p>Multidimensional partitioning released 2 " \
           "QI-groups of 2 to 2 rows (average 2.0).</p>" in html
    assert "<dd>loss = -</dd>" in html and "Why:" not in html
    with pytest.raises(InvalidParameterError, match=r"^The 'certificate' parameter of "
                                                    r"anonymization_section must have a "
                                                    r"'criteria' section\. Got 'dict'"):
        anonymization_section({"checks": []})


def test_the_page_holds_the_section_and_no_empty_skyline_parts():
    result, cert = _certificate("drop")
    page = render_report(cert, result.candidate)
    assert anonymization_section(cert) in page
    assert ("Verdict: SAFE &mdash; 2 of 2 criteria hold</div>\n<p>The release is safe when "
            "every criterion of the Anonymization section holds on the table as published."
            "</p>") in page
    assert "<h2>Per-value checks</h2>" not in page and "Closest calls" not in page
    assert "<h3>Policy (l, k, m, c)</h3>" not in page
    assert page.index("Anonymization") < page.index("QI-group sizes")


def _documented_output() -> list:
    """The output docs/cli.md shows for the full-domain run on Adult."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    section = page[page.index("### Combined criteria, full-domain search and suppression"):]
    block = section[section.index("```text\n") + len("```text\n"):]
    return block[:block.index("```")].splitlines()


CRITERIA = """\
# the publisher's rule: k = 5 AND 2 distinct occupations in every group
[criteria]
k = 5
l-diversity = "distinct:2"
"""
QI = "age,sex,race,marital-status,education,native-country,workclass,income"
DROPPED = "fnlwgt,education-num,relationship,capital-gain,capital-loss,hours-per-week"


def test_adult_full_domain_with_suppression_end_to_end_in_chromium(tmp_path, monkeypatch,
                                                                    capsys):
    """Issue 24's acceptance: on Adult, full-domain with suppression and criteria from a
    policy file; the certificate verifies; the report renders in headless Chromium."""
    browser = chromium()
    monkeypatch.chdir(tmp_path)
    write_table(load_adult(), tmp_path / "adult.csv")
    (tmp_path / "rule.toml").write_text(CRITERIA)
    code = main(["anonymize", "adult.csv", "--qi", QI, "--sensitive", "occupation",
                 "--hierarchy", "bundled:adult", "--policy", "rule.toml", "--method",
                 "full-domain", "--suppression-limit", "1%", "--output", "released.csv",
                 "--report", "report.html", "--quiet", "--drop", DROPPED])
    out = capsys.readouterr().out
    assert code == 0
    cert = json.loads((tmp_path / "released.cert.json").read_text())
    made = cert["anonymization"]
    supp = made["suppression"]
    assert cert["verdict"] == "safe" and cert["criteria"]["spec"] == {
        "k": [5], "l-diversity": ["distinct:2"]}
    assert supp["budget"] == 452 and 0 < supp["n_suppressed"] <= 452
    assert sum(g["n_rows"] for g in supp["groups"]) == supp["n_suppressed"]
    assert all(g["fails"] for g in supp["groups"])
    assert set(made["levels"]) == set(QI.split(","))
    released = pd.read_csv(tmp_path / "released.csv", dtype=str)
    assert len(released) == 45_222 - supp["n_suppressed"]
    assert out.splitlines()[0] == ("SAFE: all 2 criteria hold (KAnonymity(k=5), "
                                   "DistinctLDiversity(l=2)).")
    # docs/cli.md shows this run's output: every line of it is this output's
    shown = _documented_output()
    assert shown and shown == out.splitlines()[:len(shown)]
    assert main(["verify", "released.csv", "--certificate", "released.cert.json",
                 "--original", "adult.csv"]) == 0
    assert capsys.readouterr().out.startswith("VERIFIED: released.csv matches ")

    url = (tmp_path / "report.html").resolve().as_uri()
    dom = headless(browser, tmp_path / "profile", "--dump-dom", url)
    assert dom.returncode == 0, dom.stderr[-2000:]
    page = dom.stdout
    assert '<section id="anonymization"><h2>Anonymization</h2>' in page
    assert "Verdict: SAFE — 2 of 2 criteria hold" in page
    levels = re.findall(r'<tr><td>([^<]+)</td><td class="num">(\d+)</td></tr>',
                        page[page.index('id="levels"'):])
    assert dict((k, int(v)) for k, v in levels[:len(made["levels"])]) == made["levels"]
    assert (f'<p id="suppressed">{supp["n_suppressed"]:,} of 45,222 rows suppressed (removed '
            f'from the release); the limit 1/100 of the rows allowed 452.</p>') in page
    assert '<table id="suppressed-groups">' in page
    assert (f"<dt>Discernibility of the released groups</dt>"
            f"<dd>{made['utility']['discernibility']:,}</dd>") in page
    shot = tmp_path / "shot.png"
    done = headless(browser, tmp_path / "profile-2", f"--screenshot={shot}",
                    "--window-size=1200,3000", url)
    assert shot.exists() and shot.stat().st_size > 20_000, done.stderr[-2000:]
