"""The figures docs/reproduction.md and docs/skyline.md quote for Tables 2 and 3, Figs. 8 and 9
and the Adult anonymization benchmark come from the JSON their scripts write.

One place holds each figure:

* Table 2: ``docs/figures/table2.json``, written by ``python examples/l_diversity_vs_skyline.py
  --json docs/figures/table2.json``;
* Table 3: ``docs/figures/table3.json``, written by ``python
  examples/table3_value_vs_attribute.py --json docs/figures/table3.json`` (and what the plain
  command prints is that file's first setting: a test runs it);
* Figs. 8 and 9: ``docs/figures/fig8.json``, ``fig9.json`` and ``fig9_all_qi.json``, written by
  ``python examples/reproduce_figures.py --only 8`` / ``--only 9`` / ``--only 9 --fig9-qi all``;
* the benchmark table of docs/skyline.md section 8: ``benchmarks/results/anonymize.json``,
  written by ``python benchmarks/bench_anonymize.py``.

Each table and each sentence that quotes a figure is rendered here from the JSON; a test fails
when the page differs, and, for the sections this file owns, when the prose quotes a number
that is neither rendered here nor a constant of the set-up or the paper.  After a new run,
``python tests/test_docs_figures.py`` prints what to paste.  No time is asserted.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIGURES = ROOT / "docs" / "figures"
REPRODUCTION = ROOT / "docs" / "reproduction.md"
SKYLINE = ROOT / "docs" / "skyline.md"
ANONYMIZE = ROOT / "benchmarks" / "results" / "anonymize.json"


def load(name: str) -> dict:
    path = ANONYMIZE if name == "anonymize" else FIGURES / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def section(path: Path, heading: str) -> str:
    """The text from ``heading`` to the next heading of the same or a higher level."""
    page = path.read_text(encoding="utf-8")
    start = page.index(heading)
    level = heading.split(" ")[0]
    ends = [page.find(f"\n{'#' * n} ", start + 1) for n in range(1, len(level) + 1)]
    ends = [e for e in ends if e != -1]
    return page[start:min(ends) if ends else len(page)]


def flat(text: str) -> str:
    return " ".join(text.split())


_NUMBER = re.compile(r"(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?(?:x|%)?")


def stray_numbers(text: str, rendered: list[str], constants: set[str]) -> set[str]:
    """Numbers in ``text`` outside the rendered pieces, code spans and ``constants``."""
    prose = flat(text)
    for piece in rendered:
        prose = prose.replace(flat(piece), "")
    prose = re.sub(r"`[^`]*`", "", prose)
    prose = re.sub(r"\]\([^)]*\)", "]", prose)  # link targets
    return {n for n in _NUMBER.findall(prose) if n not in constants}


def point(p) -> str:
    return "(" + ",".join(str(x) for x in p) + ")"


def spaced(p) -> str:
    return "(" + ", ".join(str(x) for x in p) + ")"


# --- Fig. 8 ---------------------------------------------------------------------------------

FIG8_ROWS = [("(0,0,0):l", "(L, 0, 0): average group size / KL"), ("(0,0,0):k", "(0, K, 0)"),
             ("(0,0,0):m", "(0, 0, M)"), ("(2,6,2):l", "(L, 6, 2)"), ("(2,6,2):k", "(2, K, 2)"),
             ("(2,6,2):m", "(2, 6, M)")]
FIG8_XS = (0, 4, 8, 12)


def _feasible(curve):
    return [p for p in curve if p["feasible"]]


def _first_infeasible(curve):
    return next((p["x"] for p in curve if not p["feasible"]), None)


def fig8_table(data: dict) -> str:
    rows = ["| curve | " + " | ".join(f"x = {x}" for x in FIG8_XS) + " |",
            "|---" * (len(FIG8_XS) + 1) + "|"]
    for key, label in FIG8_ROWS:
        curve = {p["x"]: p for p in data["curves"][key]}
        dim = key[-1]
        cells = []
        for x in FIG8_XS:
            p = curve[x]
            cells.append(f"{p['average_group_size']:,.1f} / {p['kl_divergence']:.2f}"
                         if p["feasible"] else
                         f"infeasible (from {dim} = {_first_infeasible(data['curves'][key])})")
        rows.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def fig8_sentences(data: dict) -> list[str]:
    curves = data["curves"]
    k12 = {p["x"]: p for p in curves["(0,0,0):k"]}[12]
    m12 = {p["x"]: p for p in curves["(0,0,0):m"]}[12]
    l_last = _feasible(curves["(0,0,0):l"])[-1]
    names = {"(2,6,2):l": "(L, 6, 2)", "(2,6,2):m": "(2, 6, M)", "(2,6,2):k": "(2, K, 2)",
             "(0,0,0):l": "(L, 0, 0)", "(0,0,0):k": "(0, K, 0)", "(0,0,0):m": "(0, 0, M)"}
    dips = []
    for key, curve in curves.items():
        f = _feasible(curve)
        dips += [f"{names[key]} at {key[-1]} = {b['x']}" for a, b in zip(f, f[1:])
                 if b["average_group_size"] < a["average_group_size"]]
    count = {1: "One curve is", 2: "Two curves are", 3: "Three curves are"}[len(dips)]
    return [
        f"our k curves are the flattest ({k12['average_group_size']:,.0f} at k = 12 against "
        f"{m12['average_group_size']:,.0f} at m = 12 and {l_last['average_group_size']:,.0f} "
        f"at l = {l_last['x']}), l is the steepest, and from l = "
        f"{_first_infeasible(curves['(0,0,0):l'])} even the whole table is unsafe "
        f"(the paper: from 12).",
        f"{count} not monotone in group size ({', '.join(dips)}):",
    ]


def test_fig8_kl_is_monotone_on_every_curve_as_the_page_says():
    for curve in load("fig8")["curves"].values():
        f = _feasible(curve)
        assert all(a["kl_divergence"] <= b["kl_divergence"] for a, b in zip(f, f[1:]))


def test_the_fig8_table_and_prose_are_the_json():
    data = load("fig8")
    text = section(REPRODUCTION, "## Fig. 8: ")
    assert fig8_table(data) in text
    for sentence in fig8_sentences(data):
        assert sentence in flat(text), sentence
    stray = stray_numbers(text, [fig8_table(data), *fig8_sentences(data)],
                          {"8", "8a", "8b", "8c", "8d", "8.4", "4", "45,222", "13", "0.9", "0",
                           "12", "2", "6", "1", "3"})
    assert not stray, f"numbers in the Fig. 8 section that no JSON renders: {sorted(stray)}"


# --- Fig. 9 ---------------------------------------------------------------------------------

def _acc(curve, x):
    return {p["x"]: p for p in curve}[x]["accuracy"]


def _std(values):
    mean = sum(values) / len(values)
    return (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5


def fig9_table(small: dict, full: dict) -> str:
    def column(data, rows):
        c = data["curves"]
        return [f"{data['original']:.3f}", f"{data['without_sensitive']:.3f}",
                f"{_acc(c['(0,0,0):l'], 0):.3f}",
                ", ".join(f"{_acc(c['(0,0,0):l'], x):.3f}" for x in (1, 2, 3)),
                ", ".join(f"{_acc(c['(0,0,0):k'], x):.3f}" for x in (4, 8, 12)),
                ", ".join(f"{_acc(c['(0,0,0):m'], x):.3f}" for x in (4, 8, 12)),
                f"{_std(c['(0,0,0):l'][0]['fold_accuracies']):.3f}"]
    labels = ["original table (upper reference)", "original without has_nurs (lower reference)",
              "release at (0, 0, 0)", "(L, 0, 0), l = 1, 2, 3", "(0, K, 0), k = 4, 8, 12",
              "(0, 0, M), m = 4, 8, 12", "standard deviation of the ten folds at (0, 0, 0)"]
    rows = [f"| accuracy | QIs {', '.join(small['qi'])} | all {len(full['qi'])} as QIs |",
            "|---|---|---|"]
    for label, a, b in zip(labels, column(small, None), column(full, None)):
        rows.append(f"| {label} | {a} | {b} |")
    return "\n".join(rows)


def fig9_sentences(small: dict, full: dict) -> list[str]:
    every = [p["accuracy"] for c in small["curves"].values() for p in _feasible(c)]
    c = full["curves"]
    spread = max(abs(_acc(c[a], x) - _acc(c[b], x)) for x in (1, 2, 3)
                 for a in c for b in c)
    ends = {d: _feasible(c[f"(0,0,0):{d}"])[-1] for d in "lkm"}
    sd = _std(c["(0,0,0):l"][0]["fold_accuracies"])
    return [
        "With the three family QIs every point of every curve has accuracy "
        + (f"{min(every):.4f} " if min(every) == max(every)
           else f"{min(every):.4f}-{max(every):.4f} ")
        + f"(l up to {_feasible(small['curves']['(0,0,0):l'])[-1]['x']}, k and m up to "
        f"{_feasible(small['curves']['(0,0,0):k'])[-1]['x']}): "
        + ("no amount of knowledge changes the release enough to change the tree."
           if min(every) == max(every) else "knowledge changes it by less than the folds vary."),
        f"With all {len(full['qi'])} as QIs the three curves fall from "
        f"{_acc(c['(0,0,0):l'], 0):.3f} at (0, 0, 0) to {ends['l']['accuracy']:.3f} (l = "
        f"{ends['l']['x']}), {ends['k']['accuracy']:.3f} (k = {ends['k']['x']}) and "
        f"{ends['m']['accuracy']:.3f} (m = {ends['m']['x']}); at x = 1-3, where all three "
        f"exist, they differ by at most {spread:.4f}, while the ten folds at (0, 0, 0) spread "
        f"by {sd:.3f} (standard deviation).",
    ]


def test_the_fig9_table_and_prose_are_the_json():
    small, full = load("fig9"), load("fig9_all_qi")
    text = section(REPRODUCTION, "## Fig. 9: ")
    assert fig9_table(small, full) in text
    for sentence in fig9_sentences(small, full):
        assert sentence in flat(text), sentence
    stray = stray_numbers(text, [fig9_table(small, full), *fig9_sentences(small, full)],
                          {"9", "8.4", "12,960", "7", "0.9", "90%", "10%", "10", "5", "4",
                           "3", "1", "0", "12", "48"})
    assert not stray, f"numbers in the Fig. 9 section that no JSON renders: {sorted(stray)}"


# --- Table 2 --------------------------------------------------------------------------------

def table2_release(data: dict) -> tuple[int, str]:
    match = re.search(r"\((\d+) QI-groups, average size ([\d.]+)\)", data["report_first_line"])
    return int(match.group(1)), match.group(2)


def table2_row(data: dict) -> str:
    return "| skyprivacy | " + " ".join(point(p) for p in data["exec_managerial_skyline"]) + " |"


def table2_sentences(data: dict) -> list[str]:
    ours = {tuple(p) for p in data["exec_managerial_skyline"]}
    paper = [tuple(p) for p in data["paper_table2"]]
    common = [p for p in paper if p in ours]
    near, far = [], []
    for p in paper:
        if p in ours:
            continue
        close = [q for q in ours if sum(abs(a - b) for a, b in zip(p, q)) == 1]
        (near if close else far).append(p)
    values = data["values"]
    at_most_5 = [v for v in values if v["exposure"] <= 5]
    rest = [v for v in values if v["exposure"] > 5]
    lowest = min(values, key=lambda v: v["exposure"])
    exec_ = next(v for v in values if v["value"] == "Exec-managerial")
    groups, average = table2_release(data)
    far_text = (f"; {', '.join(point(p) for p in far)} is more than one unit from every point "
                f"of ours" if far else "")
    return [
        f"{groups} groups, average {average}",
        f"Of the paper's {len(paper)} points, {len(common)} are identical, "
        f"{' and '.join(point(p) for p in near)} differ from one of ours by one unit in one "
        f"dimension{far_text}.",
        f"on this release {len(at_most_5)} of the {len(values)} values are breached by at most "
        f"5 pieces of knowledge; "
        + " and ".join(f"{v['value']} {'needs ' if i == 0 else ''}{v['exposure']}"
                       for i, v in enumerate(rest)) + ".",
        f"\"Exec-managerial\" is breached at {data['confidence']:.0%} by "
        f"{spaced(exec_['least_breaching_knowledge'])}, and the most exposed value, "
        f"{lowest['value']}, by {spaced(lowest['least_breaching_knowledge'])}.",
    ]


@pytest.mark.parametrize("path, heading", [(SKYLINE, "### Table 2: "),
                                           (REPRODUCTION, "## Table 2: ")])
def test_table2_on_both_pages_is_the_json(path, heading):
    data = load("table2")
    text = flat(section(path, heading))
    skyline = " ".join(point(p) for p in data["exec_managerial_skyline"])
    assert skyline in text
    assert " ".join(point(p) for p in data["paper_table2"]) in text
    for sentence in table2_sentences(data):
        assert sentence in text, sentence
    if path == SKYLINE:
        assert table2_row(data) in section(path, heading)
    stray = stray_numbers(section(path, heading),
                          [skyline, " ".join(point(p) for p in data["paper_table2"]),
                           *table2_sentences(data)],
                          {"2", "8.3", "7", "45,222", "3", "6", "4", "0", "0.75", "0.95", "14",
                           "5"})
    assert not stray, f"numbers in the Table 2 section that no JSON renders: {sorted(stray)}"


def test_table2_names_the_hierarchies_it_used():
    data = load("table2")
    assert "age" in data["qi"] and "age" not in data["hierarchies"]
    assert "age split as a number" in flat(section(SKYLINE, "### Table 2: "))


# --- Table 3 --------------------------------------------------------------------------------

TABLE3_LABELS = {"7": "7 ARX QIs, no hierarchies (the command as given)",
                 "7arx": "the same with `--arx`: the six categorical ones along their ARX "
                         "hierarchies, age split as a number",
                 "13": "`--all-attributes`: 13 attributes (all but occupation and income), "
                       "no hierarchies"}


def _cell(got: dict) -> str:
    return f"{got['average_group_size']:,.2f}, {got['kl_divergence']:.3f}"


def table3_table(data: dict) -> str:
    rows = ["| setting | value-centric: avg size, KL | attribute-centric: avg size, KL |",
            "|---|---|---|",
            f"| paper, Table 3 | {_cell(data['paper']['value-centric'])} "
            f"| {_cell(data['paper']['attribute-centric'])} |"]
    for key, label in TABLE3_LABELS.items():
        got = data["settings"][key]["policies"]
        rows.append(f"| {label} | {_cell(got['value-centric'])} "
                    f"| {_cell(got['attribute-centric'])} |")
    return "\n".join(rows)


def _shrink(policies: dict) -> float:
    return (policies["attribute-centric"]["average_group_size"]
            / policies["value-centric"]["average_group_size"])


def table3_sentence(data: dict) -> str:
    s = data["settings"]
    return (f"releases groups {_shrink(s['13']['policies']):.0f}x smaller with the 13 "
            f"attributes (paper: {_shrink(data['paper']):.0f}x; "
            f"{_shrink(s['7']['policies']):.0f}x and {_shrink(s['7arx']['policies']):.0f}x with "
            f"the 7 QIs without and with the hierarchies), with a lower KL-divergence in every "
            f"setting.")


def test_table3_value_centric_has_the_lower_kl_everywhere_as_the_page_says():
    for setting in load("table3")["settings"].values():
        got = setting["policies"]
        assert got["value-centric"]["kl_divergence"] < got["attribute-centric"]["kl_divergence"]


def test_table3_on_both_pages_is_the_json():
    data = load("table3")
    text = section(SKYLINE, "### Table 3: ")
    assert table3_table(data) in text
    assert table3_sentence(data) in flat(text)
    assert table3_sentence(data) in flat(section(REPRODUCTION, "## Table 3: "))
    cells = [_cell(got) for key in TABLE3_LABELS
             for got in data["settings"][key]["policies"].values()]
    cells += [_cell(got) for got in data["paper"].values()]
    for cell in cells:
        assert cell in flat(section(REPRODUCTION, "## Table 3: "))
    constants = {"3", "8.4", "7", "13", "90%"}
    for path, heading, rendered in (
            (SKYLINE, "### Table 3: ", [table3_table(data), table3_sentence(data)]),
            (REPRODUCTION, "## Table 3: ", [*cells, table3_sentence(data)])):
        stray = stray_numbers(section(path, heading), rendered, constants)
        assert not stray, f"numbers in {path.name}'s Table 3 that no JSON renders: {sorted(stray)}"


def test_the_documented_table3_command_prints_the_json():
    # the page's command, as given: what it prints is the JSON's first setting
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "table3_value_vs_attribute.py")],
                          capture_output=True, text=True, timeout=300, check=True)
    for name, got in load("table3")["settings"]["7"]["policies"].items():
        assert (f"{name:<18} {got['groups']:>7} {got['average_group_size']:>9.2f} "
                f"{got['kl_divergence']:>7.3f}") in done.stdout


# --- the Adult anonymization benchmark (docs/skyline.md section 8) --------------------------

BENCH_ROWS = [("ours", "k5_free", "`k_anonymize`, k = 5, no hierarchies"),
              ("competitors", "anonypy_k5", "anonypy 0.2.1 Mondrian, k = 5"),
              ("ours", "k5_arx", "`k_anonymize`, k = 5, ARX hierarchies of the six categorical "
                                 "QIs, age split as a number"),
              ("ours", "k5_arx7", "`k_anonymize`, k = 5, all seven ARX hierarchies (age's "
                                  "too: anjana's set)"),
              ("competitors", "anjana_k5_supp0",
               "anjana 1.2.3, k = 5, all seven ARX hierarchies, 0% suppression"),
              ("competitors", "anjana_k5_supp1",
               "anjana 1.2.3, k = 5, all seven ARX hierarchies, 1% suppression ({suppressed:,} "
               "rows)"),
              ("ours", "skyline_400_075", "`skyline_anonymize`, (4, 0, 0) at 0.75"),
              ("ours", "skyline_table3", "`skyline_anonymize`, Table 3 value-centric policy"),
              ("ours", "synthetic_1m",
               "`skyline_anonymize`, 1M-row synthetic table, (1, 5, 1) at 0.9")]


def _sec(seconds: float) -> str:
    return f"{seconds:.2f} s" if seconds < 10 else f"{seconds:.1f} s"


def bench_table(data: dict) -> str:
    rows = ["| job | time | groups | avg size | peak RSS |", "|---|---|---|---|---|"]
    for part, key, label in BENCH_ROWS:
        job = data[part][key]
        size = job["average_group_size"]
        rows.append(f"| {label.format(**job)} | {_sec(job['seconds'])} | {job['groups']:,} "
                    f"| {size:,.2f} | {job['peak_rss_mb']:.0f} MB |")
    return "\n".join(rows)


def bench_intro(data: dict) -> str:
    machine = data["machine"]
    return (f"Measured on {data['date']} in one run on a shared {machine['cpus']}-core machine "
            f"(Python {machine['python']}, `make bench`; JSON in "
            f"`benchmarks/results/anonymize.json`), with a 1-minute load average of "
            f"{machine['load_average_at_start']:.1f} at the start of the run and "
            f"{machine['load_average_at_end']:.1f} at its end: other jobs shared the "
            f"{machine['cpus']} cores, so every clock, the competitors' too, is slower than on "
            f"an idle machine.")


def bench_sentence(data: dict) -> str:
    r, comp = data["ratios"], data["competitors"]
    fastest = min((v for v in comp.values() if isinstance(v, dict) and "seconds" in v),
                  key=lambda v: v["seconds"])
    met = min(r["fastest_competitor_over_skyline_400_075"],
              r["fastest_competitor_over_skyline_table3"]) > 10
    target_note = "" if met else ", not met in this run"
    return (f"Ratios: the fastest competitor ({fastest['tool']}, {_sec(fastest['seconds'])}) "
            f"over ours is {r['fastest_competitor_over_skyline_400_075']:.1f}x for (4, 0, 0) at "
            f"0.75 and {r['fastest_competitor_over_skyline_table3']:.1f}x for the Table 3 policy "
            f"(target: more than 10x{target_note}); anonypy over `k_anonymize` is "
            f"{r['anonypy_over_k5_free']:.0f}x with {r['group_size_k5_free_vs_anonypy']:.2f}x its "
            f"average group size (smaller is better); anjana over `k_anonymize` with the same "
            f"seven hierarchies is {r['anjana_supp1_over_k5_arx7']:.1f}x (1% suppression) to "
            f"{r['anjana_supp0_over_k5_arx7']:.1f}x (none), with groups "
            f"{1 / r['group_size_k5_arx7_vs_anjana_supp1']:.1f}x to "
            f"{1 / r['group_size_k5_arx7_vs_anjana_supp0']:.0f}x smaller.")


def test_the_anonymization_benchmark_table_is_the_json():
    data = load("anonymize")
    text = section(SKYLINE, "## 8. Benchmarks")
    assert bench_table(data) in text
    assert bench_intro(data) in flat(text)
    assert bench_sentence(data) in flat(text)
    part = text[:text.index("**Knowledge skylines**")]
    stray = stray_numbers(part, [bench_table(data), bench_intro(data), bench_sentence(data)],
                          {"8", "7", "3", "2", "5", "6"})
    assert not stray, f"numbers in the anonymization benchmark that no JSON renders: {stray}"


def test_no_page_calls_the_six_hierarchy_run_anjanas_hierarchies():
    for path in (SKYLINE, REPRODUCTION, ROOT / "README.md"):
        text = flat(path.read_text(encoding="utf-8")) if path.exists() else ""
        assert "3,617 groups with ARX hierarchies" not in text
    data = load("anonymize")
    assert data["ours"]["k5_arx7"]["groups"] != data["ours"]["k5_arx"]["groups"]


if __name__ == "__main__":
    print(fig8_table(load("fig8")), *fig8_sentences(load("fig8")), sep="\n\n")
    print()
    print(fig9_table(load("fig9"), load("fig9_all_qi")),
          *fig9_sentences(load("fig9"), load("fig9_all_qi")), sep="\n\n")
    print()
    print(table2_row(load("table2")), *table2_sentences(load("table2")), sep="\n\n")
    print()
    print(table3_table(load("table3")), table3_sentence(load("table3")), sep="\n\n")
    print()
    if "k5_arx7" in load("anonymize")["ours"]:
        print(bench_intro(load("anonymize")), bench_table(load("anonymize")),
              bench_sentence(load("anonymize")), sep="\n\n")
