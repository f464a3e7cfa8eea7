"""Every page of docs/ has its code run by a test: the pages written as doctest files by
their own tests (:func:`guides.run_guide`), the tutorial by tests/test_cli_docs.py, every other
page here by :func:`guides.run_page` (python blocks run in order in one namespace, skyprivacy
commands parse with the CLI's parser, TOML and JSON blocks read); and a test holds the set of
pages covered to the set of pages in docs/."""

from __future__ import annotations

import sys

import pytest
from guides import DOCS, ROOT_TESTS, blocks, norun_blocks, run_page

#: Pages run by another test module: page -> the test module (below tests/) that runs it.
RUN_ELSEWHERE = {
    "baselines.md": "test_baselines_docs.py",
    "canonical-text.md": "test_canonical_text.py",
    "choosing-a-method.md": "test_choosing_docs.py",
    "fairness_queries.md": "fairness_queries/test_docs.py",
    "group_tagging.md": "experimental/group_tagging/test_docs.py",
    "hierarchies.md": "hierarchy/test_docs.py",
    "utility.md": "test_utility_docs.py",
    "notebooks.md": "_core/test_display.py",
    "risk.md": "test_risk_docs.py",
    "tutorial.md": "test_cli_docs.py",
}
#: Pages run here, with the least each must run (python blocks, skyprivacy commands,
#: TOML/JSON documents), so a page that loses its code is noticed.
RUN_HERE = {
    "certificates.md": (1, 3, 2),
    "cli.md": (0, 0, 3),
    "concepts.md": (0, 0, 1),
    "dask.md": (0, 3, 0),
    "reproduction.md": (0, 0, 0),
    "skyline.md": (5, 0, 0),
    "transparency.md": (1, 2, 0),
}
#: The blocks that cannot run offline, (page, reason): kept tiny.
NORUN = {
    ("dask.md", "needs a Parquet dataset claims/ and a Dask cluster"),
}


def test_every_page_of_docs_is_run_by_a_test():
    pages = {page.name for page in DOCS.glob("*.md")}
    assert set(RUN_ELSEWHERE) | set(RUN_HERE) == pages
    assert not set(RUN_ELSEWHERE) & set(RUN_HERE)


@pytest.mark.parametrize("page", sorted(RUN_ELSEWHERE))
def test_a_page_run_elsewhere_is_run_whole_there(page):
    """The test module names the page; a doctest page holds no python block without
    prompts (doctest would skip it silently)."""
    assert page in (ROOT_TESTS / RUN_ELSEWHERE[page]).read_text(encoding="utf-8")
    if page != "tutorial.md":
        plain = [b.where for b in blocks(page) if b.language == "python" and ">>>" not in b.body]
        assert plain == []


def test_the_norun_list_is_tiny():
    assert {(b.page, b.norun) for b in norun_blocks()} == NORUN


@pytest.mark.parametrize("page", sorted(RUN_HERE))
def test_the_page_runs(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    try:
        ran = run_page(page, tmp_path)
    finally:
        if "matplotlib.pyplot" in sys.modules:
            sys.modules["matplotlib.pyplot"].close("all")
    python, commands, documents = RUN_HERE[page]
    assert ran.python >= python and ran.commands >= commands and ran.documents >= documents, ran
