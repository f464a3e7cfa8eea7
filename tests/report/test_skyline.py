"""The HTML report of a certified table (skyprivacy/report/skyline.py): content, escaping,
self-containment, pictures, and a render in Chromium."""
import re
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from skyprivacy import Policy, ReleaseCandidate, skyline_check, skyline_find
from skyprivacy.certificate import build_certificate
from skyprivacy.errors import InvalidParameterError
from skyprivacy.report import (
    group_size_svg,
    render_report,
    report_skylines,
    skyline_svg,
)
from skyprivacy.report.skyline import _staircase

from .browser import chromium, headless

EVIL = '<script>alert("x")</script>&'


@pytest.fixture
def unsafe_release():
    table = pd.DataFrame({
        "age": ["2*"] * 4 + ["3*"] * 3 + ["4*"],
        EVIL: ["a"] * 8,
        "disease": ["Flu", "AIDS", "Flu", EVIL, "Flu", "Cold", "AIDS", "Cold"],
    })
    policy = Policy({"AIDS": [(0, 1, 0, 0.7), (1, 0, 0, Fraction(2, 3))]},
                    default=[(0, 0, 0, 0.9)])
    cert = build_certificate(table, policy, qi=["age", EVIL], sensitive="disease",
                             created="2024-01-01T00:00:00Z")
    release = ReleaseCandidate.from_table(table, qi=["age", EVIL], sensitive="disease")
    return table, policy, cert, release


def page_of(unsafe_release, **kwargs):
    _, policy, cert, release = unsafe_release
    check = skyline_check(release, policy)
    skylines = report_skylines(release, check, n_values=3)
    return render_report(cert, release, skylines=skylines, source=f"{EVIL}.csv", **kwargs)


def test_the_page_has_verdict_table_worst_cases_skylines_and_sizes(unsafe_release):
    _, _, cert, _ = unsafe_release
    assert cert["verdict"] == "unsafe"
    page = page_of(unsafe_release)
    failing = sum(not c["safe"] for c in cert["checks"])
    assert (f'<div class="verdict unsafe" id="verdict">Verdict: UNSAFE &mdash; {failing} of '
            f'{len(cert["checks"])} (value, point) checks fail</div>') in page
    assert "<h2>Per-value checks</h2>" in page and page.count('<tr class="fail">') == failing
    assert "<h2>Worst cases of the failing checks</h2>" in page
    assert "(1 person, 1 occurrence of &#x27;Cold&#x27;). This leaves no other possibility" in page
    assert page.count("<figure><svg") == 3 + 1  # three skylines and the group sizes
    assert "Knowledge skyline of &#x27;AIDS&#x27; at c = 2/3" in page
    assert "<h2>QI-group sizes</h2>" in page
    assert cert["table"]["sha256"] in page


def test_a_safe_release_shows_its_closest_calls():
    table = pd.DataFrame({"age": ["2*"] * 4, "disease": ["a", "b", "c", "d"]})
    policy = Policy.uniform([(0, 0, 0, 0.9)])
    cert = build_certificate(table, policy, qi="age", sensitive="disease")
    page = render_report(cert, ReleaseCandidate.from_table(table, qi="age", sensitive="disease"))
    assert "Verdict: SAFE &mdash; all 4 (value, point) checks hold" in page
    assert "<h2>Closest calls</h2>" in page and page.count("<li><b>") == 3


def test_data_values_are_escaped(unsafe_release):
    page = page_of(unsafe_release)
    assert "<script" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;" in page


def test_the_page_is_self_contained(unsafe_release):
    page = page_of(unsafe_release)
    without_namespace = page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert not re.search(r"https?://|<link|<script|@import|url\(|src=\"(?!data:)",
                         without_namespace)


def test_png_pictures_are_data_uris(unsafe_release):
    pytest.importorskip("matplotlib")
    page = page_of(unsafe_release, images="png")
    assert page.count('src="data:image/png;base64,') == 3
    assert page.count("<figure><svg") == 1  # only the group sizes stay SVG


def test_bad_arguments(unsafe_release):
    _, policy, cert, release = unsafe_release
    with pytest.raises(InvalidParameterError, match=r"The 'images' parameter of render_report "
                                                    r"must be one of \['svg', 'png', 'auto'\]"):
        render_report(cert, release, images="gif")
    with pytest.raises(InvalidParameterError, match="The 'release' parameter of render_report"):
        render_report(cert, None)
    check = skyline_check(release, policy)
    with pytest.raises(InvalidParameterError, match="The 'n_values' parameter of "
                                                    "report_skylines"):
        report_skylines(release, check, n_values=-1)


# ------------------------------------------------------------------------------ skylines
def test_report_skylines_rank_by_margin_at_each_values_strictest_c(unsafe_release):
    _, policy, _, release = unsafe_release
    check = skyline_check(release, policy)
    skylines = report_skylines(release, check, n_values=10)
    margins = {}
    for row in check.rows:
        margins[row.value] = min(margins.get(row.value, 2), row.point.c_exact
                                 - row.breach_probability)
    assert [s.value for s in skylines] == sorted(margins, key=margins.get)
    assert {s.value: s.c for s in skylines}["AIDS"] == Fraction(2, 3)
    assert all(s.c == Fraction(9, 10) for s in skylines if s.value != "AIDS")
    assert report_skylines(release, check, n_values=0) == []
    fixed = report_skylines(release, check, c=0.5, n_values=2)
    assert [s.c for s in fixed] == [Fraction(1, 2)] * 2
    assert fixed[0] == skyline_find(release, fixed[0].value, c=0.5)


def test_the_drawn_staircase_is_the_safe_region():
    rng = np.random.default_rng(7)
    for _ in range(40):
        points = [tuple(int(x) for x in rng.integers(0, 6, 3)) for _ in range(4)]
        for level in range(6):
            runs = _staircase(points, level)
            m_from = 0
            for m_to, k in runs:
                for m in range(m_from, m_to + 1):
                    best = max([pk for pl, pk, pm in points if pl >= level and pm >= m],
                               default=-1)
                    assert best == k
                m_from = m_to + 1
            assert not any(pl >= level and pm >= m_from for pl, _, pm in points)


def test_skyline_svg_marks_policy_points():
    release = ReleaseCandidate.from_groups([(3, ["a", "b", "b"]), (4, ["a", "a", "b", "c"])])
    svg = skyline_svg(skyline_find(release, "a", c=0.6), policy_points=[(0, 1, 0), (1, 0, 2)])
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count("<circle") == 2 and "(1,0,2)" in svg
    assert "l = 0" in svg and "l = 1" in svg
    with pytest.raises(InvalidParameterError, match="The 'skyline' parameter of skyline_svg"):
        skyline_svg("a")


def test_a_skyline_without_safe_points_says_so():
    release = ReleaseCandidate.from_groups([(1, ["a"])])
    assert "unsafe even without any knowledge" in skyline_svg(skyline_find(release, "a", c=0.5))


def test_group_size_bins():
    svg = group_size_svg([1, 1, 2, 4, 5, 9, 10, 120])
    labels = re.findall(r'font-size="10">([^<]+)</text>', svg)
    assert labels == ["1", "2-4", "5-9", "10-19", "20-49", "50-99", "100-199"]
    counts = re.findall(r"<title>(\d+) group\(s\) of size", svg)
    assert counts == ["2", "2", "2", "1", "0", "0", "1"]


def test_the_report_renders_in_headless_chromium(unsafe_release, tmp_path):
    browser = chromium()
    image = pytest.importorskip("matplotlib.image")
    page = tmp_path / "report.html"
    page.write_text(page_of(unsafe_release), encoding="utf-8")
    url = page.resolve().as_uri()
    shot = tmp_path / "shot.png"
    done = headless(browser, tmp_path / "profile-1", f"--screenshot={shot}",
                     "--window-size=1200,2000", url)
    assert shot.exists(), done.stderr[-2000:]
    assert shot.stat().st_size > 20_000
    pixels = image.imread(shot)
    assert pixels.shape[:2] == (2000, 1200)
    colours = np.unique((pixels[..., :3] * 255).astype(np.uint8).reshape(-1, 3), axis=0)
    assert len(colours) > 50  # text, the verdict box, lines and bars: not a blank page
    rows_with_ink = (pixels[..., :3].min(axis=2) < 0.5).any(axis=1).sum()
    assert rows_with_ink > 500
    dom = headless(browser, tmp_path / "profile-2", "--dump-dom", url)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert re.search(r'<div class="verdict unsafe" id="verdict">Verdict: UNSAFE', dom.stdout)
    assert "<script" not in dom.stdout
