"""Every (c, k)-safety figure of docs/reproduction.md and docs/baselines.md comes from
docs/figures/ck_safety.json, and that JSON is what examples/ck_safety_vs_skyline.py computes.

The table and sentences are rendered here from the JSON; the test fails when a page differs
from them, or when the JSON differs from a fresh run of the example's ``compute()`` (exact
fractions, so no tolerance).  After a new run, ``python tests/test_ck_safety_figures.py``
prints the table and sentences to paste.
"""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "docs" / "figures" / "ck_safety.json"
SCRIPT = ROOT / "examples" / "ck_safety_vs_skyline.py"
PAGES = {"reproduction.md": "## (c, k)-safety against the skyline (Sects. 3, 5.1, 8.3)",
         "baselines.md": "## (c, k)-safety: k basic implications (Martin et al. 2007)"}


def load() -> dict:
    return json.loads(RESULT.read_text(encoding="utf-8"))


def point(p) -> str:
    return "(" + ", ".join(str(x) for x in p) + ")"


def table(data: dict) -> str:
    lines = ["| k | worst-case disclosure | skyline (l, 0, m), l + m = k | value |",
             "|---|---|---|---|"]
    for row in data["rows"]:
        lines.append(f"| {row['k']} | {row['disclosure']} = {row['disclosure_float']:.4f} | "
                     f"{row['skyline_slice']} at {point(row['skyline_slice_point'])} | "
                     f"{row['worst_value']} |")
    return "\n".join(lines)


def _slice_sentence(rows: list[dict]) -> str:
    """Which skyline dimension the worst implications are, k by k: m up to some k, then l."""
    family = [r["k"] for r in rows if r["skyline_slice_point"] == [0, 0, r["k"]] and r["k"]]
    ruled = [r["k"] for r in rows if r["skyline_slice_point"] == [r["k"], 0, 0] and r["k"]]
    assert family == list(range(1, len(family) + 1)), family
    assert ruled == list(range(len(family) + 1, len(rows))), ruled
    return (f"family members of the target (m) up to k = {family[-1]}, values ruled out for "
            f"the target (l) from k = {ruled[0]}")


def sentences(data: dict) -> list[str]:
    r, e, safe = data["release"], data["exec_managerial"], data["largest_safe_k"]
    two = data["rows"][2]
    return [
        _slice_sentence(data["rows"]),
        f"two same-value family members already take the most exposed occupation, "
        f"{two['worst_value']}, to {two['disclosure']}",
        f"recursive (3, 6)-diverse Adult release of Table 2 ({r['groups']} groups, average "
        f"{r['average_size']})",
        f"BP(4, 0, 0) = {r['prop4_bp_400']}",
        f"(c, k)-safe at c = 3/4 for k <= {safe['3/4']} only",
        f"at c = 0.95 for k <= {safe['19/20']}",
        f"breached at 0.95 by {point(e['least_breach'])}, {e['basic_implications']} basic "
        f"implications",
        f"withstands (0, {e['k_axis_safe']}, 0) and falls to the values of "
        f"{e['k_axis_safe'] + 1} individuals, {e['k_axis_breach_implications']} basic "
        f"implications",
    ]


def section(page: str) -> str:
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    start = text.index(PAGES[page])
    end = text.find("\n## ", start + 1)
    return " ".join(text[start:end if end > 0 else None].split())


def test_every_sentence_is_the_json():
    body = section("reproduction.md")
    for sentence in sentences(load()):
        assert " ".join(sentence.split()) in body, sentence


def test_the_guide_quotes_the_json():
    body = section("baselines.md")
    for sentence in sentences(load())[2:]:
        assert " ".join(sentence.split()) in body, sentence


def test_the_table_is_the_json():
    assert " ".join(table(load()).split()) in section("reproduction.md")


def test_the_json_is_what_the_example_computes():
    spec = importlib.util.spec_from_file_location("ck_safety_vs_skyline", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.compute() == load()


if __name__ == "__main__":
    print(table(load()))
    print()
    print("\n".join(sentences(load())))
