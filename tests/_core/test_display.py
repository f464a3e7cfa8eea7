"""How results show themselves (skyprivacy/_core/display.py, issue 26 item 8): every public
result has a short repr (verdict, sizes, closest call; bounded whatever the data) and a
notebook ``_repr_html_`` (verdict box, facts, top rows, picture) with every cell escaped;
``progress=True`` is a tqdm bar.

The public results are enumerated from the package (every class a public module exports that
has ``to_frame`` or ``to_dict``), so a new result without its display fails here;
tests/results_gallery.py holds one example of each, made by the function that returns it."""
from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
import warnings
from pathlib import Path

import pandas as pd
import pytest
from results_gallery import MARKUP, examples, huge_examples

import skyprivacy
from skyprivacy.errors import InvalidParameterError
from skyprivacy._core.display import (
    PROGRESS,
    REPR_LIMIT,
    TOP_ROWS,
    ProgressBar,
    Shown,
    clipped,
    frame_html,
    progress_callback,
    result_repr,
    shown_html,
    shown_of,
    shown_text,
    skyline_staircase_svg,
)

#: Classes with ``to_frame`` / ``to_dict`` that are not results of a computation, and why.
NOT_RESULTS = {
    "ReleaseCandidate": "the model the user builds from a table (its own short repr)",
    "Hierarchy": "an input the user builds (its own short repr)",
    "Policy": "an input the user writes (its own short repr)",
    "DecisionTable": "an input the user builds (its own short repr)",
    "Delta": "a fidelity level the user writes", "Alpha": "a fidelity level the user writes",
    "Bounds": "a fidelity level the user writes",
    "PointCheck": "one row of a SkylineCheckResult, shown by it",
    "WorstCase": "one sentence of a SkylineCheckResult, shown by it",
    "GroupResult": "one group of an OptimalPrivacy, shown by it",
    "FairnessMeasure": "one measure of a FairnessReport, shown by it",
    "BiasInterval": "one interval of a FairnessReport, shown by it",
    "EncodingMap": "the encoding one_hot_encode returns, applied again by its transform",
}
#: Areas whose classes are not enumerated, and why.
SKIPPED_PREFIXES = {
    "skyprivacy.cli": "the command line prints its own text",
    "skyprivacy.report": "HTML pages, no results",
    "skyprivacy.dask_engine": "returns the same results as the in-memory engine",
}


def public_result_classes() -> dict:
    """{name: class} of every class a public module of skyprivacy exports (``__all__``)
    that has ``to_frame`` or ``to_dict``, less :data:`NOT_RESULTS`."""
    found = {}
    for module_info in pkgutil.walk_packages(skyprivacy.__path__, "skyprivacy."):
        name = module_info.name
        if any(part.startswith("_") for part in name.split(".")[1:]) \
                or name.startswith(tuple(SKIPPED_PREFIXES)):
            continue
        module = importlib.import_module(name)
        for attr in getattr(module, "__all__", ()):
            obj = getattr(module, attr, None)
            if inspect.isclass(obj) and obj.__module__.startswith("skyprivacy.") \
                    and not issubclass(obj, BaseException) \
                    and (hasattr(obj, "to_frame") or hasattr(obj, "to_dict")) \
                    and obj.__name__ not in NOT_RESULTS:
                found[obj.__name__] = obj
    return found


RESULTS = public_result_classes()
EXAMPLES = examples()


def test_the_gallery_has_one_example_of_every_public_result():
    assert {cls.__name__ for cls in EXAMPLES} == set(RESULTS)
    assert len(RESULTS) >= 35


#: Results that keep their own repr (a dataclass's or their class's), every field it shows
#: small whatever the data.
SMALL_REPRS = {
    "KAnonymityResult": "parameters, verdict, level and worst group (groups hidden)",
    "DistinctLDiversityResult": "parameters, verdict, level and worst group (groups hidden)",
    "EntropyLDiversityResult": "parameters, verdict, level and worst group (groups hidden)",
    "RecursiveCLDiversityResult": "parameters, verdict, level and worst group",
    "TClosenessResult": "parameters, verdict, distance and worst group (groups hidden)",
    "CKSafetyResult": "parameters, verdict, disclosure, worst group and value (groups and "
                      "implications hidden)",
    "JournalistRisk": "four numbers", "GroupSizeEstimate": "three counts",
    "GroupSizes": "nine counts", "MaxConfidence": "one group's confidence",
    "MaxFidelity": "three numbers and an OptimalPrivacy (short repr)",
    "TargetResult": "one target's answer (the answers of one or two queries)",
    "FisPlan": "its own repr: tag, S, g, batch counts per tag, rows",
    "LinkageRates": "three rates and one per attribute group of the plan",
}


def test_every_public_result_defines_its_display():
    for name, cls in RESULTS.items():
        assert callable(getattr(cls, "_repr_html_", None)), name
        assert callable(getattr(cls, "_shown", None)), name
        assert (cls.__repr__ is result_repr) != (name in SMALL_REPRS), name


@pytest.fixture(scope="module")
def shown_results():
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for cls, make in EXAMPLES.items():
            out[cls] = make()
    return out


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_each_result_shows_a_short_repr_and_an_escaped_html(shown_results, name):
    cls = RESULTS[name]
    result = shown_results[cls]
    assert type(result) is cls
    text = repr(result)
    assert 0 < len(text) <= REPR_LIMIT and "\n" not in text
    page = result._repr_html_()
    shown = shown_of(result)
    assert page.startswith('<div class="skyprivacy-result"') and page.endswith("</div>")
    assert f">{name}</div>" in page
    if shown.verdict is not None:
        assert f">{shown.verdict}</div>" in page
        assert shown.verdict in text or name in SMALL_REPRS
    # no cell reaches the page unescaped: the gallery's tables hold a <script> value
    assert "<script>" not in page


def test_results_built_on_markup_show_it_escaped(shown_results):
    shown_markup = 0
    for result in shown_results.values():
        page = result._repr_html_()
        if "&lt;script&gt;alert(1)&lt;/script&gt;" in page:
            shown_markup += 1
        assert MARKUP not in page
    assert shown_markup >= 5  # the check, the skylines, the comparison, risk, ...


def test_a_check_shows_its_verdict_closest_call_and_most_exposed_rows(shown_results):
    result = shown_results[skyprivacy.SkylineCheckResult]
    worst = result.worst
    text = repr(result)
    assert text.startswith(f"<SkylineCheckResult {'SAFE' if result.safe else 'UNSAFE'}: "
                           f"checks={len(result)}, failing={len(result.violations)}")
    assert f"closest call: {worst.value!r} at {worst.point}" in text
    top = shown_of(result).rows(2)
    assert top["value"].iloc[0] == worst.value and len(top) == 2
    page = result._repr_html_()
    assert 'class="verdict"' in page and ("#fde7ea" in page) != result.safe


def test_a_skyline_shows_its_picture(shown_results):
    skyline = shown_results[skyprivacy.KnowledgeSkyline]
    page = skyline._repr_html_()
    assert "<svg" in page and "l = 0" in page
    title = f"Knowledge skyline of {skyline.value!r} at c = 0.5"
    assert skyline_staircase_svg(skyline.points, title) in page
    assert "&lt;script&gt;" in title.join(page.split(title))  # the value's markup, escaped


@pytest.fixture(scope="module")
def huge():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {cls: make() for cls, make in huge_examples().items()}


@pytest.mark.parametrize("name", ["SkylineCheckResult", "KnowledgeSkylines",
                                  "KAnonymityResult", "ClassSizes", "AttributeRisk"])
def test_a_huge_result_keeps_a_short_repr_and_shows_its_top_rows(huge, name):
    result = next(r for cls, r in huge.items() if cls.__name__ == name)
    text = repr(result)
    assert len(text) <= REPR_LIMIT
    page = result._repr_html_()
    assert len(page) < 200_000
    shown = shown_of(result)
    if shown.n_rows > TOP_ROWS:
        assert f"and {shown.n_rows - TOP_ROWS:,} more rows" in page
        assert page.count("<tr>") <= TOP_ROWS + 1 + len(shown.facts)


def test_twenty_thousand_values_show_without_twenty_thousand_worst_cases(monkeypatch):
    import skyprivacy.check

    result = huge_examples()[skyprivacy.SkylineCheckResult]()
    assert len(result) == 20_000
    told = []
    real = skyprivacy.check.worst_case
    monkeypatch.setattr(skyprivacy.check, "worst_case",
                        lambda *args: told.append(args[1]) or real(*args))
    repr(result)
    result._repr_html_()
    # the worst row, and the TOP_ROWS most exposed: not a sentence per value
    assert 1 <= len(told) <= TOP_ROWS + 1


# ------------------------------------------------------------------------- the helpers
def test_the_repr_is_cut_to_its_limit_whatever_the_facts():
    shown = Shown("SAFE", True, tuple((f"fact{i}", "x" * 10_000) for i in range(100)),
                  "y" * 10_000)
    text = shown_text("Big", shown)
    assert len(text) == REPR_LIMIT and text.startswith("<Big SAFE: fact0=")
    assert text.endswith("…>")


def test_clipped_marks_the_cut():
    assert clipped("abcdef", 4) == "abc…" and clipped("abcd", 4) == "abcd"


def test_frame_html_escapes_headers_and_cells_and_counts_the_rest():
    frame = pd.DataFrame({"<th>": ["<b>x</b>", '"&'], **{f"c{i}": [1, 2] for i in range(15)}})
    page = frame_html(frame, 5)
    assert "&lt;th&gt;" in page and "&lt;b&gt;x&lt;/b&gt;" in page and "&quot;&amp;" in page
    assert "<b>" not in page
    assert "and 3 more rows, and 4 more columns" in page


def test_shown_html_escapes_the_name_verdict_facts_and_closest_call():
    page = shown_html("<n>", Shown("<v>", None, (("<k>", "<f>"),), "<c>"))
    for piece in ("<n>", "<v>", "<k>", "<f>", "<c>"):
        assert piece not in page and piece.replace("<", "&lt;").replace(">", "&gt;") in page


# ------------------------------------------------------------------------- progress
def test_progress_true_is_a_tqdm_bar(capsys):
    bar = progress_callback(True, owner="f", label="working")
    assert isinstance(bar, ProgressBar)
    bar(0.5)
    bar(1.0)
    assert "working" in capsys.readouterr().err


def test_progress_none_false_and_callables():
    assert progress_callback(None, owner="f", label="x") is None
    assert progress_callback(False, owner="f", label="x") is None
    def report(fraction):
        return fraction

    assert progress_callback(report, owner="f", label="x") is report
    assert PROGRESS.is_satisfied_by(True) and not PROGRESS.is_satisfied_by("yes")
    with pytest.raises(InvalidParameterError, match=r"^The 'progress' parameter of f must be "
                       r"True \(a tqdm progress bar\), False, None or a callable taking the "
                       r"fraction done\. Got 'yes' instead\.$"):
        progress_callback("yes", owner="f", label="x")


def test_progress_true_without_tqdm_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    with pytest.raises(ImportError) as err:
        progress_callback(True, owner="skyline_find_all", label="x")
    assert str(err.value) == ("skyline_find_all(progress=True) needs tqdm: "
                              "pip install 'skyprivacy[progress]'")


def _progress_calls():
    from results_gallery import _hierarchies, _policy, _raw, _release

    from skyprivacy.report import report_skylines
    release = _release()
    return {
        "skyline_find_all": lambda p: skyprivacy.skyline_find_all(release, c=0.5, progress=p),
        "skyline_anonymize": lambda p: skyprivacy.skyline_anonymize(
            _raw(), qi=["zip", "age"], sensitive="disease", policy=_policy(0.9),
            hierarchies=_hierarchies(), progress=p),
        "k_anonymize": lambda p: skyprivacy.k_anonymize(
            _raw(), qi=["zip", "age"], k=3, hierarchies=_hierarchies(), progress=p,
            keep="disease"),
        "compare_l_diversity": lambda p: skyprivacy.compare_l_diversity(
            _raw(), qi=["zip", "age"], sensitive="disease", diversity_c=2, l=2, c=0.9,
            hierarchies=_hierarchies(), progress=p),
        "report_skylines": lambda p: report_skylines(
            release, skyprivacy.skyline_check(release, _policy()), progress=p),
    }


@pytest.mark.parametrize("owner", sorted(_progress_calls()))
def test_progress_true_shows_a_bar_where_progress_is_a_parameter(owner, capsys):
    call = _progress_calls()[owner]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        call(True)
    err = capsys.readouterr().err
    assert "%" in err and "|" in err  # tqdm's bar: 'label:  50%|#####     | 500/1000'
    with pytest.raises(InvalidParameterError, match=f"^The 'progress' parameter of {owner} "):
        call("yes")


def test_every_progress_parameter_is_covered():
    """Every public function with a ``progress=`` parameter is in the test above."""
    with_progress = set()
    for module_info in pkgutil.walk_packages(skyprivacy.__path__, "skyprivacy."):
        if module_info.name.startswith(("skyprivacy.cli", "skyprivacy.dask_engine")) \
                or "._" in module_info.name:
            continue
        module = importlib.import_module(module_info.name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name, None)
            if inspect.isfunction(inspect.unwrap(obj) if callable(obj) else None) \
                    and "progress" in inspect.signature(obj).parameters:
                with_progress.add(name)
    assert with_progress == set(_progress_calls()) | set(BEHIND)


#: Functions with ``progress=`` reached through another one, tested through it.
BEHIND = {"skyline_search": "the engines' search behind skyline_anonymize",
          "k_search": "the engines' search behind k_anonymize",
          "mondrian_search": "the engines' Mondrian behind anonymize(method='mondrian'), "
                             "which draws no bar of its own"}


# ------------------------------------------------------------------------- the notebook
NOTEBOOK = Path(__file__).resolve().parents[1] / "display_results.ipynb"


def test_a_notebook_shows_every_result_as_html():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    pages = [output["data"]["text/html"] for cell in notebook.cells
             if cell.cell_type == "code" for output in cell.get("outputs", ())
             if output.get("output_type") == "display_data" and "text/html" in output["data"]]
    shown = {}
    for page in pages:
        name = page.split('<div style="font-weight:600">', 1)[1].split("</div>", 1)[0]
        shown[name] = page
    assert set(shown) == set(RESULTS)
    for name, page in shown.items():
        verdicts = [v for v in ("SAFE", "UNSAFE", "VERIFIED", "NOT VERIFIED", "FEASIBLE",
                                "INFEASIBLE") if f">{v}</div>" in page]
        assert verdicts == [v for v in [EXAMPLES_VERDICTS.get(name)] if v], (name, verdicts)
        assert "<script>" not in page


#: The verdict each gallery example shows (None: a measure without a verdict).
EXAMPLES_VERDICTS = {
    "SkylineCheckResult": "UNSAFE", "AnonymizationResult": "SAFE",
    "KAnonymizationResult": "SAFE", "LDiversityComparison": "SAFE",
    "Verification": "NOT VERIFIED", "CriterionResult": "UNSAFE",
    "KAnonymityResult": "UNSAFE", "DistinctLDiversityResult": "SAFE",
    "EntropyLDiversityResult": "SAFE", "RecursiveCLDiversityResult": "SAFE",
    "TClosenessResult": "UNSAFE", "BetaCheck": "UNSAFE", "FixedBeta": "INFEASIBLE",
    "CKSafetyResult": "SAFE",
}


def test_iter_rows_builds_every_row_on_a_bar(capsys):
    from results_gallery import _policy, _release

    result = skyprivacy.skyline_check(_release(), _policy())
    seen = []
    rows = list(result.iter_rows(progress=seen.append))
    assert rows == list(result.rows) and seen[-1] == 1.0
    list(skyprivacy.skyline_check(_release(), _policy()).iter_rows(progress=True))
    assert "writing the worst cases" in capsys.readouterr().err
    with pytest.raises(InvalidParameterError, match="^The 'progress' parameter of "
                                                    "SkylineCheckResult.iter_rows must"):
        result.iter_rows(progress="yes")


def test_check_on_the_command_line_shows_every_stage_on_its_bar(tmp_path, capsys,
                                                               monkeypatch):
    from results_gallery import adult_like

    from skyprivacy.cli import main
    monkeypatch.chdir(tmp_path)
    adult_like(200, n_values=40).to_csv("t.csv", index=False)
    (tmp_path / "p.toml").write_text("[default]\nskyline = [[1, 1, 0, 0.5]]\n")
    code = main(["check", "t.csv", "--qi", "zip,age", "--sensitive", "disease", "--policy",
                 "p.toml", "--certificate", "c.json", "--progress"])
    err = capsys.readouterr().err
    assert code in (0, 1)
    stages = [piece.split(" [")[0].rstrip() for piece in err.split("\r") if " [" in piece]
    for stage in ("reading t.csv", "checking", "writing the worst cases", "writing"):
        assert stage in stages, (stage, stages)
    assert "100%\n" in err


# ------------------------------------------------------------------------- the guide
DOCS = Path(__file__).resolve().parents[2] / "docs"
PROSE_JSON = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "prose.json"


def prose_figures(data: dict) -> str:
    """The figures docs/notebooks.md quotes, rendered from benchmarks/results/prose.json."""
    return (
        f"With the worst cases in words, `skyprivacy check` took {data['with_prose_s']:.1f} s "
        f"({data['with_prose_cpu_s']:.1f} s of CPU); with `--format json` and the prose off, "
        f"{data['json_prose_off_s']:.1f} s ({data['json_prose_off_cpu_s']:.1f} s of CPU): "
        f"{data['ratio_wall']:.2f} times as long ({data['ratio_cpu']:.2f} in CPU time), best "
        f"of {data['repeat']} runs each, {data['n_values']:,} values.  In one process, "
        f"building the {data['n_values']:,} rows took {data['rows_with_prose_s']:.2f} s of "
        f"CPU with their sentences and {data['rows_without_prose_s']:.2f} s without them "
        f"(the exact breach probabilities); the verdict alone took "
        f"{data['rows_verdict_only_s']:.2f} s.")


def test_the_guide_runs():
    from guides import run_guide
    failed, attempted = run_guide("notebooks.md")
    assert attempted >= 6 and failed == 0


def test_the_guide_quotes_the_benchmark_as_measured():
    import json
    data = json.loads(PROSE_JSON.read_text(encoding="utf-8"))
    page = (DOCS / "notebooks.md").read_text(encoding="utf-8")
    quoted = page.split("<!-- prose figures")[1].split("-->\n", 1)[1] \
        .split("\n<!-- end prose figures -->")[0]
    assert " ".join(quoted.split()) == " ".join(prose_figures(data).split())
    assert data["n_values"] == 20_000 and data["n_rows"] == 60_000


if __name__ == "__main__":  # after a new run: PYTHONPATH=tests python tests/_core/test_display.py
    import json
    print(prose_figures(json.loads(PROSE_JSON.read_text(encoding="utf-8"))))


def test_anonymize_on_the_command_line_shows_every_stage_on_its_bar(tmp_path, capsys,
                                                                   monkeypatch):
    from results_gallery import _raw

    from skyprivacy.cli import main
    monkeypatch.chdir(tmp_path)
    _raw(300).to_csv("t.csv", index=False)
    (tmp_path / "p.toml").write_text("[default]\nskyline = [[0, 1, 0, 0.9]]\n")
    code = main(["anonymize", "t.csv", "--qi", "zip,age", "--sensitive", "disease",
                 "--policy", "p.toml", "--output", "out.csv", "--progress"])
    err = capsys.readouterr().err
    assert code == 0, err
    stages = [piece.split(" [")[0] for piece in err.split("\r") if " [" in piece]
    for stage in ("reading t.csv", "anonymizing", "writing the worst cases",
                  "certifying and writing"):
        assert stage in stages, (stage, stages)
    assert "100%\n" in err


def test_a_shorter_stage_blanks_what_the_longer_one_drew():
    import io

    from skyprivacy.cli.context import Progress
    stream = io.StringIO()
    bar = Progress(stream, "writing the worst cases", True)
    bar(0.5)
    bar.label = "writing"
    bar(0.6)
    first, second = stream.getvalue().split("\r")[1:]
    assert len(second) == len(first) and second.rstrip().endswith("60%")
