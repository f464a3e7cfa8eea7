"""The pages of docs/ run as tests: shared by the tests of every page.

Two runners:

* :func:`run_guide` runs a page written as a doctest file (every ``>>>`` example, in order, in
  one namespace), for the guides whose examples show their output;
* :func:`run_page` runs a page's fenced blocks in order, in one namespace and one working
  folder per page:

  - `` ```python `` blocks run; a block with ``>>>`` prompts runs as doctest examples (its
    shown output is compared), any other block is executed as written;
  - `` ```shell `` / `` ```sh `` / `` ```console `` / `` ```bash `` lines that call
    ``skyprivacy`` are parsed by the CLI's own parser, so every command and option a page shows
    exists (a trailing ``\\`` continues a line; a line with a bare ``...`` argument is elided
    and skipped; other programs, ``pip install``, are not run);
  - `` ```toml `` blocks are read as TOML, and a policy (``[default]`` / ``[values."V"]``) is
    read by :func:`skyprivacy.io.read_policy`; `` ```json `` blocks are read as JSON;
  - other blocks (formulas, output, plain text) are not code.

  A block that cannot run offline is marked in the page with ``<!-- norun: reason -->`` on the
  line before its fence; :func:`norun_blocks` lists them (the list is kept tiny by a test).
"""

from __future__ import annotations

import contextlib
import doctest
import io
import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

ROOT_TESTS = Path(__file__).resolve().parent
DOCS = ROOT_TESTS.parent / "docs"
FENCE = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)
NORUN = re.compile(r"<!--\s*norun:\s*(.+?)\s*-->\s*$")
SHELLS = {"shell", "sh", "console", "bash"}
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def run_guide(name: str, *, normalize_whitespace: bool = True) -> tuple[int, int]:
    """(failures, attempted) of ``docs/<name>``'s examples, run with ELLIPSIS (and
    NORMALIZE_WHITESPACE unless told otherwise)."""
    guide = DOCS / name
    assert guide.is_file(), f"missing user guide {guide}"
    flags = doctest.ELLIPSIS | (doctest.NORMALIZE_WHITESPACE if normalize_whitespace else 0)
    result = doctest.testfile(str(guide), module_relative=False, optionflags=flags,
                              verbose=False, raise_on_error=False)
    return result.failed, result.attempted


@dataclass(frozen=True)
class Block:
    """One fenced block of a page."""
    page: str
    line: int  # of the opening fence
    language: str
    info: str
    body: str
    norun: str | None  # the reason, when marked <!-- norun: ... -->

    @property
    def where(self) -> str:
        return f"docs/{self.page}:{self.line}"


def blocks(name: str) -> list[Block]:
    """The fenced blocks of ``docs/<name>``, in order."""
    text = (DOCS / name).read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        before = text[:match.start()].rstrip("\n").rpartition("\n")[2]
        marked = NORUN.search(before)
        found.append(Block(name, text.count("\n", 0, match.start()) + 1, match.group(1),
                           match.group(2).strip(), match.group(3),
                           marked.group(1) if marked else None))
    return found


def norun_blocks() -> list[Block]:
    """Every block of docs/ marked ``<!-- norun: reason -->``."""
    return [b for page in sorted(DOCS.glob("*.md")) for b in blocks(page.name) if b.norun]


@dataclass
class PageRun:
    """What :func:`run_page` ran, by kind of block."""
    python: int = 0
    doctest_examples: int = 0
    commands: int = 0
    documents: int = 0
    skipped: list[str] = field(default_factory=list)


def shell_commands(body: str):
    """The argv of each command line of a shell block (continuations joined, comments and
    prompts dropped)."""
    joined = re.sub(r"\\\n\s*", " ", body)
    for line in joined.splitlines():
        line = line.strip().removeprefix("$ ")
        if line and not line.startswith("#"):
            yield shlex.split(line, comments=True)


def run_python(block: Block, namespace: dict) -> int:
    """Run a python block in ``namespace``; the number of doctest examples it held."""
    if ">>>" in block.body:
        test = doctest.DocTestParser().get_doctest(block.body, namespace, block.where,
                                                   block.where, block.line)
        out = io.StringIO()
        runner = doctest.DocTestRunner(optionflags=FLAGS)
        result = runner.run(test, out=out.write, clear_globs=False)
        namespace.update(test.globs)
        assert result.failed == 0, f"{block.where}:\n{out.getvalue()}"
        return result.attempted
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(block.body, block.where, "exec"), namespace)
    return 0


def check_command(block: Block, argv: list[str]) -> None:
    """A ``skyprivacy`` command line parses with the CLI's own parser."""
    from skyprivacy.cli import build_parser

    errors = io.StringIO()
    try:
        with contextlib.redirect_stderr(errors):
            build_parser().parse_args(argv[1:])
    except SystemExit as exit_:
        raise AssertionError(f"{block.where}: {shlex.join(argv)} does not parse "
                             f"(exit {exit_.code}):\n{errors.getvalue()}") from None


def check_document(block: Block, folder: Path) -> None:
    """A TOML or JSON block reads; a TOML policy reads as a policy."""
    if block.language == "json":
        json.loads(block.body)
        return
    from skyprivacy import io as skyio

    path = folder / f"block-{block.line}.toml"
    path.write_text(block.body, encoding="utf-8")
    data = skyio.tomllib.loads(block.body)
    if data and set(data) <= {"default", "values"}:
        skyio.read_policy(path)


def run_page(name: str, folder: Path) -> PageRun:
    """Run the blocks of ``docs/<name>`` in order, in one namespace; files the page writes go
    to ``folder`` (the caller makes it the working directory)."""
    namespace: dict = {"__name__": f"docs.{Path(name).stem}"}
    ran = PageRun()
    for block in blocks(name):
        if block.norun:
            ran.skipped.append(f"{block.where}: {block.norun}")
        elif block.language == "python":
            ran.doctest_examples += run_python(block, namespace)
            ran.python += 1
        elif block.language in SHELLS:
            for argv in shell_commands(block.body):
                if argv[0] != "skyprivacy":
                    continue  # pip and friends: installation, not the library
                if "..." in argv:
                    ran.skipped.append(f"{block.where}: elided command {shlex.join(argv)}")
                    continue
                check_command(block, argv)
                ran.commands += 1
        elif block.language in ("toml", "json"):
            check_document(block, folder)
            ran.documents += 1
    return ran
