"""Count logic lines (code that is not blank, a comment or a docstring) of Python files.

Usage: ``python tools/logic_lines.py PATH [PATH ...]`` (files or directories); prints one line
per path and the total.  Issue 23 measures the one-search refactor with it.
"""
from __future__ import annotations

import ast
import io
import sys
import tokenize
from pathlib import Path


def docstring_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                lines.update(range(body[0].lineno, body[0].end_lineno + 1))
    return lines


def logic_lines(path: Path) -> int:
    text = path.read_text(encoding="utf-8")
    skip = docstring_lines(ast.parse(text))
    code: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                        tokenize.DEDENT, tokenize.ENDMARKER):
            continue
        for line in range(tok.start[0], tok.end[0] + 1):
            if line not in skip:
                code.add(line)
    return len(code)


def main(argv: list[str]) -> int:
    total = 0
    for arg in argv:
        root = Path(arg)
        files = sorted(root.rglob("*.py")) if root.is_dir() else [root]
        count = sum(logic_lines(f) for f in files if f.exists())
        print(f"{count:7d}  {arg}")
        total += count
    print(f"{total:7d}  total")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
