"""The experimental namespace (skyprivacy/experimental/__init__.py): opt-in (``import skyprivacy``
does not load it, and importing it loads none of its submodules), its docstring lists every
submodule, and every submodule is called experimental where the documentation presents it."""
import importlib
import re
import subprocess
import sys
from pathlib import Path

import skyprivacy.experimental as experimental

ROOT = Path(__file__).resolve().parents[2]


def test_import_skyprivacy_does_not_load_the_experimental_namespace():
    done = subprocess.run([sys.executable, "-c", "import sys, skyprivacy; "
                           "print('skyprivacy.experimental' in sys.modules)"],
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "False"


def test_importing_the_namespace_loads_and_binds_none_of_its_submodules(fresh_python):
    done = fresh_python(
        "import sys\n"
        "import skyprivacy.experimental as namespace\n"
        "print(sorted(m for m in sys.modules if m.startswith('skyprivacy.experimental.')),\n"
        "      sorted(name for name in vars(namespace) if not name.startswith('_')))\n")
    assert (done.returncode, done.stdout, done.stderr) == (0, "[] []\n", "")
    assert not hasattr(experimental, "__all__")


def test_the_docstring_lists_every_submodule(docstring_section, public_modules):
    assert set(docstring_section(experimental, "Submodules")) == public_modules(experimental)


def test_every_submodule_is_called_experimental_where_it_is_documented(public_modules):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in sorted(public_modules(experimental)):
        guide = ROOT / "docs" / f"{name}.md"
        title = guide.read_text(encoding="utf-8").splitlines()[0]
        assert title.startswith("# ") and "(experimental)" in title, (name, title)
        links = re.findall(rf"^\* \[docs/{name}\.md\]\(docs/{name}\.md\): (.+)$", readme,
                           flags=re.M)
        assert len(links) == 1 and "experimental" in links[0], (name, links)
        module = importlib.import_module(f"skyprivacy.experimental.{name}")
        assert f"docs/{name}.md" in module.__doc__, name  # the module points to its guide
