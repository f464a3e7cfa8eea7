"""The page machinery every report shares (skyprivacy/report/page.py): escaping, the frame of
a page, and the browser the report tests render pages in."""
import shutil

import pytest

from skyprivacy.report.page import CSS, esc, page_head, section, summary_list, verdict_box

from .browser import chromium

EVIL = '<script>alert("x")</script>&'


def test_escaping_covers_elements_and_attribute_values():
    assert esc(EVIL) == "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;"
    assert esc(3) == "3"


def test_the_head_names_the_input_the_date_and_the_version_escaped():
    head = page_head(EVIL, "table.csv &middot;", {"created": "2024-01-01T00:00:00Z",
                                                  "library": {"version": EVIL}})
    assert head.startswith("<!DOCTYPE html>") and f"<style>{CSS}</style>" in head
    assert "<script" not in head and head.count(esc(EVIL)) == 3
    assert "table.csv &middot; 2024-01-01T00:00:00Z by skyprivacy" in head


def test_the_verdict_box_section_and_summary():
    assert verdict_box(True, "ok", "why").startswith('<div class="verdict safe" id="verdict">ok')
    assert 'class="verdict unsafe"' in verdict_box(False, "no", "why")
    assert section("A <b>", "<i>x</i>") == "<h2>A &lt;b&gt;</h2><p><i>x</i></p>"
    assert summary_list([("Rows", EVIL)]) == (
        f"<h2>Summary</h2><dl><dt>Rows</dt><dd>{esc(EVIL)}</dd></dl>")


def test_a_missing_chromium_skips_locally_but_fails_when_required(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.delenv("SKYPRIVACY_REQUIRE_CHROMIUM", raising=False)
    with pytest.raises(pytest.skip.Exception, match="chromium is not installed"):
        chromium()
    monkeypatch.setenv("SKYPRIVACY_REQUIRE_CHROMIUM", "1")
    with pytest.raises(pytest.fail.Exception, match="SKYPRIVACY_REQUIRE_CHROMIUM=1 but no "
                                                    "chromium on PATH"):
        chromium()
