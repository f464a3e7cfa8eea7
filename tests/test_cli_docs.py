"""The command-line docs are real: the tutorial runs as written, and docs/cli.md names every option.

Tutorial blocks run in order in one temporary folder:

* `` ```shell `` lines are ``skyprivacy`` commands run in-process through ``main`` (a trailing
  ``\\`` continues a line; ``# exit code N`` states the expected exit code, else 0);
* `` ```bash `` blocks run with bash and the installed console script on PATH;
* `` ```python `` blocks run in one shared namespace;
* `` ```toml file=NAME `` blocks are written to NAME;
* `` ```text `` blocks are the output of the block before: every line except ``...`` must
  appear, in order, among its output lines.
"""
import contextlib
import io
import os
import re
import shlex
import subprocess
import sys

import pytest

from skyprivacy.cli import build_parser, main

DOCS = os.path.join(os.path.dirname(__file__), os.pardir, "docs")
FENCE = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```", re.DOTALL | re.MULTILINE)


def read(name):
    with open(os.path.join(DOCS, name), encoding="utf-8") as stream:
        return stream.read()


def shell_commands(body):
    joined = re.sub(r"\\\n\s*", " ", body)
    for line in joined.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        expected = re.search(r"#\s*exit code (\d+)\s*$", line)
        yield shlex.split(line, comments=True), int(expected.group(1)) if expected else 0


def assert_shown(expected, output, where):
    lines = output.splitlines()
    position = 0
    for wanted in expected.splitlines():
        if wanted.strip() == "...":
            continue
        try:
            position = lines.index(wanted, position) + 1
        except ValueError:
            pytest.fail(f"{where}: the line\n{wanted}\nis not in the output (in order):\n"
                        f"{output}")


def test_the_tutorial_runs_as_written(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "tutorial"}
    output, where = None, None
    env = {**os.environ,
           "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")}
    ran = {"shell": 0, "bash": 0, "python": 0, "text": 0}
    for match in FENCE.finditer(read("tutorial.md")):
        language, info, body = match.group(1), match.group(2), match.group(3)
        where = f"tutorial.md block at offset {match.start()}"
        if language == "toml" and "file=" in info:
            name = info.split("file=")[1].strip()
            (tmp_path / name).write_text(body, encoding="utf-8")
        elif language == "shell":
            output = ""
            for argv, expected in shell_commands(body):
                assert argv[0] == "skyprivacy", where
                code = main(argv[1:])
                captured = capsys.readouterr()
                output = captured.out + captured.err
                assert code == expected, f"{where}: {shlex.join(argv)} exited {code}:\n{output}"
            ran["shell"] += 1
        elif language == "bash":
            done = subprocess.run(["bash", "-c", body], cwd=tmp_path, env=env,
                                  capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, f"{where}: {done.stdout}\n{done.stderr}"
            output = done.stdout
            ran["bash"] += 1
        elif language == "python":
            buffer = io.StringIO()
            with contextlib.redirect_stdout(buffer):
                exec(compile(body, where, "exec"), namespace)
            output = buffer.getvalue()
            ran["python"] += 1
        elif language == "text":
            assert output is not None, f"{where}: output shown before any command"
            assert_shown(body, output, where)
            ran["text"] += 1
    assert ran["shell"] >= 7 and ran["bash"] == 1 and ran["python"] == 3 and ran["text"] >= 10
    assert (tmp_path / "release.html").read_text().count("Verdict: SAFE") == 1
    assert (tmp_path / "python-release.csv").read_bytes() == \
        (tmp_path / "release.csv").read_bytes()


def _options(parser):
    for action in parser._actions:  # noqa: SLF001 (argparse lists its actions nowhere else)
        yield from (o for o in action.option_strings if o not in ("-h", "--help"))
        if hasattr(action, "choices") and isinstance(action.choices, dict):
            for sub in action.choices.values():
                yield from _options(sub)


def test_the_reference_names_every_command_and_option():
    reference = read("cli.md")
    parser = build_parser()
    missing = sorted({o for o in _options(parser)
                      if not re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", reference)})
    assert missing == []
    for command in ("check", "anonymize", "find", "compare", "verify", "transparency check",
                    "transparency optimize", "data"):
        assert f"\n## {command}\n" in reference
    for code in range(5):
        assert f"\n| {code} | " in reference


def test_the_help_epilog_lists_the_exit_codes(capsys):
    assert main(["check", "--help"]) == 0
    out = capsys.readouterr().out
    assert "exit codes:\n  0  safe / done" in out
    assert "  2  usage error" in out and "  3  input error" in out


def test_concepts_and_certificates_pages_exist():
    concepts = read("concepts.md")
    for term in ("svpi", "mvpi-set", "mvpi-multiset", "**l: values the target does not have.**",
                 "**k: other people's values.**", "**m: members of the target's same-value "
                 "family.**"):
        assert term in concepts
    certificates = read("certificates.md")
    assert "## What a certificate promises" in certificates
    assert "## What a certificate does not promise" in certificates
    assert "skyprivacy-csv-1" in certificates
