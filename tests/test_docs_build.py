"""The manual builds: `mkdocs build --strict` on mkdocs.yml (the guides of docs/ and an API
reference generated from the docstrings of every public module), with zero warnings, offline.

Needs the ``docs`` extra (``make test`` installs it); skipped without mkdocs.  One build, in a
temporary directory, so the working tree is left as it was."""
import importlib
import pkgutil
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("mkdocs", reason="the docs extra is not installed (make test installs it)")
pytest.importorskip("mkdocstrings_handlers.python", reason="the docs extra is not installed")

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _build(config: Path, site: Path, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f",
                           str(config), "-d", str(site)],
                          cwd=cwd, capture_output=True, text=True, timeout=300)


def _public_modules() -> list[str]:
    import skyprivacy
    names = ["skyprivacy"]
    for info in pkgutil.walk_packages(skyprivacy.__path__, prefix="skyprivacy."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append(info.name)
    return sorted(names)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    done = _build(ROOT / "mkdocs.yml", out, ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    return out, done.stdout + done.stderr


def test_the_manual_builds_without_a_warning(site):
    _, log = site
    assert not [line for line in log.splitlines() if "WARNING" in line or "ERROR" in line]


def test_every_guide_is_a_page(site):
    out, _ = site
    for page in DOCS.glob("*.md"):
        assert (out / page.with_suffix(".html").name).is_file(), page.name


def test_every_public_module_has_a_reference_page_with_its_docstring(site):
    out, _ = site
    for name in _public_modules():
        page = out / "reference" / f"{name}.html"
        assert page.is_file(), name
        doc = importlib.import_module(name).__doc__
        assert doc, f"{name} has no module docstring"
        words = re.findall(r"\b[A-Za-z]{5,}\b", doc.strip().splitlines()[0])
        text = re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8"))
        assert words and all(word in text for word in words[:3]), name


def test_the_reference_documents_the_functions(site):
    out, _ = site
    page = (out / "reference" / "skyprivacy.baselines.cksafety.html").read_text("utf-8")
    assert 'id="skyprivacy.baselines.cksafety.ck_safety"' in page
    assert "Parameters" in page and "Returns" in page


def test_nothing_is_fetched_from_the_network(site):
    """Every stylesheet, script, image and font the pages load is in the site itself."""
    out, _ = site
    remote = re.compile(r"<(?:script|link|img)[^>]*(?:src|href)=\"(?:https?:)?//", re.I)
    for page in out.rglob("*.html"):
        assert not remote.search(page.read_text(encoding="utf-8")), page
    for sheet in out.rglob("*.css"):
        assert not re.search(r"@import\s+url\(\s*['\"]?(?:https?:)?//|url\(\s*['\"]?https?://",
                             sheet.read_text(encoding="utf-8")), sheet


def test_a_docstring_warning_fails_the_build(tmp_path):
    """The strict build is strict about docstrings: a parameter documented but absent from the
    signature (griffe's warning) stops it.  Same handler options as mkdocs.yml."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "probe.py").write_text(textwrap.dedent('''
        def f(a):
            """Do.

            Parameters
            ----------
            b : int
                Not a parameter of f.
            """
    '''))
    (tmp_path / "docs" / "index.md").write_text("# probe\n\n::: probe.f\n")
    (tmp_path / "mkdocs.yml").write_text(textwrap.dedent("""
        site_name: probe
        strict: true
        theme: {name: mkdocs, highlightjs: false}
        plugins:
          - mkdocstrings:
              handlers:
                python:
                  paths: [.]
                  options: {docstring_style: numpy}
    """))
    done = _build(tmp_path / "mkdocs.yml", tmp_path / "site", tmp_path)
    assert done.returncode != 0
    assert "Parameter 'b' does not appear in the function signature" in done.stderr
