"""The identity-risk section of a table's report (skyprivacy/report/risk.py): the record-risk
histogram, the highest-risk classes escaped, the page without it unchanged, and the section
visible in headless Chromium, end to end from ``skyprivacy check --report --risk``."""
import re

import pandas as pd
import pytest

from skyprivacy import Policy, ReleaseCandidate
from skyprivacy.certificate import build_certificate
from skyprivacy.cli import main
from skyprivacy.errors import InvalidParameterError
from skyprivacy.report import record_risk_svg, render_report, risk_section
from skyprivacy.risk import identity_risk

from .browser import chromium, headless

EVIL = '<script>alert("x")</script>&'


@pytest.fixture
def risky():
    table = pd.DataFrame({"age": ["2*", "2*", "3*", "3*", "3*", "4*", EVIL, EVIL],
                          "disease": ["Flu", "AIDS", "Flu", "Cold", "Flu", "Cold", "AIDS",
                                      "Cold"]})
    figures = identity_risk(table, qi="age", threshold=0.4, population_size=80).to_json()
    return table, figures


def test_the_histogram_counts_records_by_their_risk():
    svg = record_risk_svg({"sizes": [1, 2, 3, 7, 30], "counts": [4, 2, 1, 1, 1]})
    labels = re.findall(r'font-size="10">([^<]+)</text>', svg)
    assert labels == ["1", "1/2", "1/4-1/3", "1/9-1/5", "1/19-1/10", "1/49-1/20"]
    counts = re.findall(r'font-size="11">(\d+)</text>', svg)
    assert counts == ["4", "4", "3", "7", "0", "30"]  # records, not classes
    assert "<title>4 record(s) at risk 1</title>" in svg


def test_the_section_lists_the_figures_and_escapes_the_classes(risky):
    _, figures = risky
    html = risk_section(figures)
    assert html.startswith('<section id="identity-risk"><h2>Identity risk</h2>')
    assert "<dt>Prosecutor risk, max</dt><dd>1 (100.0%)</dd>" in html
    assert "<dt>Prosecutor risk, average</dt><dd>1/2 (50.0%)</dd>" in html
    assert "<dt>Records above risk 2/5</dt><dd>5/8 (62.5%)</dd>" in html
    assert "<dt>Sample uniqueness</dt><dd>1/8 (12.5%)</dd>" in html
    assert "Population uniqueness (N = 80, zayatz)" in html  # Pitman does not apply here
    assert "Dankar et al.&#x27;s (2012) decision rule chose zayatz" in html
    assert "<h3>Highest-risk classes</h3>" in html
    assert EVIL not in html and "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;" in html
    assert '<td>4*</td><td class="num">1</td><td class="num">1 (100.0%)</td>' in html


def test_the_report_has_it_only_when_given(risky):
    table, figures = risky
    cert = build_certificate(table, Policy.uniform([(0, 0, 0, 0.9)]), qi="age",
                             sensitive="disease", created="2024-01-01T00:00:00Z")
    release = ReleaseCandidate.from_table(table, qi="age", sensitive="disease")
    plain = render_report(cert, release)
    assert "identity-risk" not in plain
    page = render_report(cert, release, risk=figures)
    assert page.replace(risk_section(figures) + "\n", "") == plain
    assert page.index("Identity risk") < page.index("QI-group sizes")
    with pytest.raises(InvalidParameterError, match=r"^The 'risk' parameter of render_report "
                                                    r"must be the figures of "
                                                    r"IdentityRisk.to_json"):
        render_report(cert, release, risk={"qi": ["age"]})


def test_check_report_risk_renders_in_headless_chromium(tmp_path, monkeypatch):
    browser = chromium()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.csv").write_text("age,sex,disease\n2*,F,Flu\n2*,F,AIDS\n3*,M,Flu\n"
                                    "3*,M,Cold\n4*,F,Flu\n")
    (tmp_path / "p.toml").write_text("[default]\nskyline = [[0, 0, 0, 0.9]]\n")
    assert main(["check", "t.csv", "--qi", "age,sex", "--sensitive", "disease", "--policy",
                 "p.toml", "--report", "r.html", "--risk", "--population-size", "50",
                 "--quiet"]) == 1  # one class of one person: unsafe at c = 0.9
    url = (tmp_path / "r.html").resolve().as_uri()
    dom = headless(browser, tmp_path / "profile", "--dump-dom", url)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert '<section id="identity-risk"><h2>Identity risk</h2>' in dom.stdout
    assert re.search(r'<svg [^>]*aria-label="Record risk"', dom.stdout)
    assert "<dt>Sample uniqueness</dt><dd>1/5 (20.0%)</dd>" in dom.stdout
    assert "<td>4*</td><td>F</td>" in dom.stdout
    shot = tmp_path / "shot.png"
    done = headless(browser, tmp_path / "profile-2", f"--screenshot={shot}",
                    "--window-size=1200,3000", url)
    assert shot.exists() and shot.stat().st_size > 20_000, done.stderr[-2000:]
    image = pytest.importorskip("matplotlib.image")
    pixels = (image.imread(shot)[..., :3] * 255).round().astype(int)
    bars = (abs(pixels - [0xd1, 0x49, 0x5b]).max(axis=2) <= 2).sum()
    assert bars > 500  # the record-risk bars are drawn on the page, not just in the DOM
