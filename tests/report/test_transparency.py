"""The HTML report of a certified decision rule (skyprivacy/report/transparency.py): the
verdict, the next step, the trade-off curve, and a render in Chromium."""
import re

import numpy as np
import pytest
from transparency.tables import KW, section8

from skyprivacy.report import render_rule_report, tradeoff_svg
from skyprivacy.transparency.certificate import build_rule_certificate

from .browser import chromium, headless


def test_the_curve_marks_the_certified_rule():
    svg = tradeoff_svg([(0.0, 0.6), (0.5, 0.62), (1.0, 1.0)], beta=0.62, fidelity=0.5,
                       kind="<alpha>")
    assert svg.startswith("<svg") and svg.count("<polyline") == 1 and "<circle" in svg
    assert "&lt;alpha&gt;-fidelity" in svg and "<alpha>" not in svg
    assert "<circle" not in tradeoff_svg([(0.0, 0.6), (1.0, 1.0)], beta=0.62)


def test_reports_say_certified_or_risk_with_the_next_step():
    frame, rule, cert = section8(True)
    page = render_rule_report(cert, curve=[(0.0, 0.6), (0.9, 0.675), (1.0, 1.0)])
    assert "Verdict: CERTIFIED" in page and "27/40" in page and "<svg" in page
    assert "decision-rule certification" in page
    unsafe = build_rule_certificate(frame, beta=0.9, **KW)
    page = render_rule_report(unsafe)
    assert "decision-rule risk report" in page and "Verdict: NOT CERTIFIED" in page
    assert "transparency optimize" in page  # the next step


def test_the_rule_report_renders_in_headless_chromium(tmp_path):
    browser = chromium()
    image = pytest.importorskip("matplotlib.image")
    frame, rule, cert = section8(False)
    page = tmp_path / "rule.html"
    page.write_text(render_rule_report(cert, curve=[(x / 10, 0.6 + 0.04 * x) for x in range(11)],
                                       source="table1.csv"), encoding="utf-8")
    shot = tmp_path / "shot.png"
    done = headless(browser, tmp_path / "p1", f"--screenshot={shot}",
                     "--window-size=1200,1400", page.resolve().as_uri())
    assert shot.exists(), done.stderr[-2000:]
    pixels = image.imread(shot)
    assert pixels.shape[:2] == (1400, 1200)
    assert len(np.unique((pixels[..., :3] * 255).astype(np.uint8).reshape(-1, 3), axis=0)) > 50
    dom = headless(browser, tmp_path / "p2", "--dump-dom", page.resolve().as_uri())
    assert re.search(r'<div class="verdict safe" id="verdict">Verdict: CERTIFIED', dom.stdout)
    assert "<polyline" in dom.stdout and "<script" not in dom.stdout
