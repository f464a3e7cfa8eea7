"""MkDocs hook: the API reference pages, generated at build time from the package itself.

One page per public module of skyprivacy (every module and package whose dotted name has no
part starting with an underscore), each holding a mkdocstrings directive, so the reference
follows the code with nothing to keep in step by hand.  Also the home page, which lists the
guides and the reference.  Run by ``mkdocs build`` (mkdocs.yml, ``hooks:``), never imported by
the package or its tests.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "skyprivacy"


def public_modules() -> list[str]:
    """Dotted names of the public modules, the package first, in name order.

    Read from the file tree, importing nothing (importing would load the optional engines).
    """
    names = []
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if not any(part.startswith("_") for part in parts):
            names.append(".".join(parts))
    return sorted(names)


def _page(name: str) -> str:
    return f"# `{name}`\n\n::: {name}\n    options:\n      show_root_heading: false\n"


def on_config(config):
    """Fill the nav's "API reference" section with one entry per public module."""
    pages = ["reference/index.md"] + [{name: f"reference/{name}.md"} for name in public_modules()]
    for i, section in enumerate(config["nav"] or []):
        if isinstance(section, dict) and "API reference" in section:
            config["nav"][i] = {"API reference": pages}
    return config


def on_files(files, config):
    """Add reference/<module>.md for every public module, reference/index.md and index.md."""
    modules = public_modules()
    for name in modules:
        files.append(File.generated(config, f"reference/{name}.md", content=_page(name)))
    listing = "\n".join(f"- [`{name}`]({name}.md)" for name in modules)
    files.append(File.generated(config, "reference/index.md", content=(
        "# API reference\n\nGenerated from the numpydoc docstrings of every public module.\n\n"
        + listing + "\n")))
    if files.get_file_from_path("index.md") is None:
        files.append(File.generated(config, "index.md", content=_home(config)))
    return files


def _home(config) -> str:
    guides = []
    for section in config["nav"]:
        if isinstance(section, dict) and "User guide" in section:
            for entry in section["User guide"]:
                (title, page), = entry.items()
                guides.append(f"- [{title}]({page})")
    return ("# skyprivacy\n\nCertify data releases against adversarial knowledge: privacy "
            "skylines (SkylineCheck, SkylineAnonymize, SkylineFind), the classical criteria, "
            "transparency-report and fairness-query audits.\n\n## User guide\n\n"
            + "\n".join(guides)
            + "\n\n## API reference\n\nEvery public module, from its docstrings: "
              "[API reference](reference/index.md).\n")
