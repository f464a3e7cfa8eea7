"""README.md's examples run, and no document cites a file the repository lacks (issue
"Publish exactly what the data says", item 5)."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)


def test_every_python_block_of_the_readme_runs(tmp_path):
    code = blocks((ROOT / "README.md").read_text(), "python")
    assert code, "the README has Python examples"
    for number, block in enumerate(code):
        script = tmp_path / f"readme_{number}.py"
        script.write_text(block)
        done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                              cwd=tmp_path, timeout=300)
        assert done.returncode == 0, f"README block {number} failed:\n{done.stderr[-2000:]}"


def fenced(text: str) -> list[tuple[str, str]]:
    """Every fenced code block of a Markdown text as (language, body)."""
    out, language, body = [], None, []
    for line in text.splitlines(keepends=True):
        if line.startswith("```"):
            if language is None:
                language, body = line[3:].strip(), []
            else:
                out.append((language, "".join(body)))
                language = None
        elif language is not None:
            body.append(line)
    return out


def test_every_other_code_block_of_the_readme_runs(tmp_path):
    """The shell block runs with the installed console script first on PATH; the make block
    is run as ``make -n`` (running the whole suite from inside the suite would recurse)."""
    every = fenced((ROOT / "README.md").read_text())
    assert {language for language, _ in every} == {"", "python", "shell"}  # all run here
    env = {**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep
           + os.environ.get("PATH", "")}
    shell = [body for language, body in every if language == "shell"]
    for number, block in enumerate(shell):
        done = subprocess.run(["bash", "-e", "-c", block], capture_output=True, text=True,
                              cwd=tmp_path, env=env, timeout=600)
        assert done.returncode == 0, f"README shell block {number} failed:\n{done.stderr}"
    assert done.stdout.splitlines()[-1].startswith("VERIFIED: out.csv matches cert.json")
    assert [body for language, body in every if language == ""] == ["make demo\nmake test\n"]
    done = subprocess.run(["make", "-n", "-C", str(ROOT), "demo", "test"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "examples/demo.py" in done.stdout and "-m pytest" in done.stdout


# repository paths as documents cite them: links and `code` spans naming a file
_CITED = re.compile(r"(?:\]\(|`)((?:docs|examples|benchmarks|tests|tools|skyprivacy|specs)"
                    r"/[\w./-]+\.(?:md|py|json|csv|toml|png|gz))")


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_no_document_cites_a_missing_file(document):
    text = document.read_text()
    missing = sorted({path for path in _CITED.findall(text)
                      if not (ROOT / path).exists()
                      and not (document.parent / path).exists()})
    assert missing == [], f"{document.name} cites files the repository lacks: {missing}"


# bare names of modules, packages and scripts as documents mention them: `check.py`, `cli/`
_BARE = re.compile(r"`([A-Za-z_][\w-]*(?:\.py|/))`")
_SEARCHED = ("", "skyprivacy", "examples", "benchmarks", "tests", "docs",
             *(f"skyprivacy/{d.name}" for d in (ROOT / "skyprivacy").iterdir() if d.is_dir()))


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_no_document_names_a_module_the_package_lacks(document):
    text = document.read_text()
    missing = sorted({name for name in _BARE.findall(text)
                      if not any((ROOT / folder / name.rstrip("/")).exists()
                                 for folder in _SEARCHED)})
    assert missing == [], f"{document.name} names files the repository lacks: {missing}"


# ------------------------------------------------------- nothing released unexamined (issue 26)
def _option(command: str, name: str) -> list[str]:
    """The comma-separated columns of ``--name`` in a shell command (none when absent)."""
    found = re.search(rf"--{name} (\S+)", command)
    return found.group(1).split(",") if found else []


def test_the_readme_releases_only_the_columns_it_analysed(tmp_path):
    """Every command of the README's shell block runs; its ``anonymize`` command is read from
    the README, and its released table holds exactly that command's --qi and --sensitive
    columns (nothing kept, copied or passed through unanalysed), as its certificate's
    classification records; ``verify`` accepts it.  The Python block's release likewise."""
    every = fenced((ROOT / "README.md").read_text())
    [shell] = [body for language, body in every if language == "shell"]
    env = {**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep
           + os.environ.get("PATH", "")}
    done = subprocess.run(["bash", "-e", "-c", shell], capture_output=True, text=True,
                          cwd=tmp_path, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    command = next(line for line in shell.replace("\\\n", " ").splitlines()
                   if line.startswith("skyprivacy anonymize "))
    qi, [sensitive] = _option(command, "qi"), _option(command, "sensitive")
    assert _option(command, "keep") == [] and "--keep-rest" not in command
    import pandas as pd
    original = pd.read_csv(tmp_path / "adult.csv", nrows=1)
    released = pd.read_csv(tmp_path / "out.csv", dtype=str)
    assert list(released.columns) == [c for c in original.columns if c in {*qi, sensitive}]
    certificate = json.loads((tmp_path / "cert.json").read_text())
    assert certificate["classification"] == {
        "qi": qi, "sensitive": sensitive, "kept": [],
        "dropped": [c for c in original.columns if c not in {*qi, sensitive}]}
    assert "VERIFIED: out.csv matches cert.json" in done.stdout
    # the Python block, run with a check of what it released appended
    [code] = blocks((ROOT / "README.md").read_text(), "python")
    script = tmp_path / "readme_release.py"
    script.write_text(code + "\nimport json\nprint(json.dumps({'columns': list(result.table."
                      "columns), 'analysed': [*result.classification.qi, result.classification"
                      ".sensitive], 'kept': list(result.classification.kept)}))\n")
    ran = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         cwd=tmp_path, timeout=300)
    assert ran.returncode == 0, ran.stderr[-2000:]
    facts = json.loads(ran.stdout.splitlines()[-1])
    assert facts["kept"] == [] and sorted(facts["columns"]) == sorted(facts["analysed"])
    assert "Columns: quasi-identifiers 'age', 'workclass', 'sex'; sensitive 'occupation'; " \
           "kept as is: none; dropped: 'fnlwgt'" in ran.stdout
