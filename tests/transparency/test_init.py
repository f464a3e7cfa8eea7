"""The transparency facade (skyprivacy/transparency/__init__.py): the names it exports, each from
the module that defines it; the docstring and the guide's API section present only exports, the
guide's 'Where it lives' is the package's modules, and the paper's demonstrations are outside
the package, in the example both name."""
import ast
import importlib
import keyword
import re
from pathlib import Path

from skyprivacy import errors, transparency

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "transparency.md").read_text(encoding="utf-8")
EXPORTS = {
    "DecisionTable",  # table.py (GroupLayout, the solvers' working order, stays there)
    "Delta", "Alpha", "Bounds", "FidelityBounds", "fidelity_bounds",  # fidelity.py
    "MaxConfidence", "BetaCheck", "confidence", "max_confidence", "min_uncertainty",  # certify.py
    "satisfies_beta", "beta_from_gamma", "gamma_from_beta",
    "GroupResult", "OptimalPrivacy",  # solution.py
    "optimal_privacy",  # optimal.py
    "TradeoffRegion", "TradeoffCurve", "MaxFidelity", "FixedBeta", "tradeoff_region",  # tradeoff.py
    "tradeoff_curve", "max_fidelity_for_beta", "feasible_at_beta",
    "lp_reference",  # lp.py
    "FairnessMeasure", "FairnessReport", "BiasInterval", "d_tv", "d_inf",  # fairness.py
    "group_distribution", "statistical_parity", "conditional_statistical_parity",
    "p_percent_rule", "individual_fairness_bias", "lemma2_shift", "bias_interval",
    "fairness_report",
}
CALL = re.compile(r"([A-Za-z_][\w.]*)\((?s:.*)\)(?: -> (\w+))?")  # a call and its result


def section(start: str, end: str) -> str:
    return GUIDE[GUIDE.index(start):GUIDE.index(end)]


def test_exports():
    assert set(transparency.__all__) == EXPORTS
    assert len(transparency.__all__) == len(EXPORTS)


def test_every_export_comes_from_the_module_that_defines_it(misattributed_exports):
    assert misattributed_exports(transparency) == []


def test_nothing_but_the_exports_and_the_modules_is_public(unexported_names):
    assert unexported_names(transparency) == []


def test_every_name_the_docstring_presents_is_exported(docstring_references):
    references = docstring_references(transparency)
    assert [target for target, obj in references.items() if obj is None] == []
    named = {target for target in references if "." not in target}
    assert {"DecisionTable", "optimal_privacy", "lp_reference", "Bounds"} <= named
    assert named <= set(transparency.__all__), named - set(transparency.__all__)


def test_the_guide_and_the_examples_import_only_exported_names(documented_imports):
    used = documented_imports("skyprivacy.transparency")
    assert {"DecisionTable", "Delta", "optimal_privacy"} <= set(used)
    assert set(used) <= set(transparency.__all__), {
        name: used[name] for name in set(used) - set(transparency.__all__)}


def test_the_guide_s_api_section_presents_only_exports():
    """Every call (``confidence(table, ...)``, ``DecisionTable.from_frame(df, ...)``) and every
    class named in section 3, and the names the fairness bullets list, are exports (or, fully
    qualified, resolve); classes may also be the errors and warnings raised."""
    api = section("## 3. API", "### Demonstrations")
    presented = []
    for span in re.findall(r"`([^`]+)`", api):
        call = CALL.fullmatch(span)
        if call and not call.group(1).startswith("."):
            presented += [name for name in call.groups() if name]
        elif re.fullmatch(r"[A-Z]\w*", span) and not keyword.iskeyword(span):  # not None
            presented.append(span)
    fairness = section("### Fairness of the announced rule", "### Demonstrations")
    for bullet in re.split(r"^- ", fairness, flags=re.M)[1:]:
        first_sentence = re.split(r"\.\s", bullet)[0]
        presented += [span for span in re.findall(r"`([^`]+)`", first_sentence)
                      if re.fullmatch(r"[a-z_]\w*", span)]
    assert {"DecisionTable.from_frame", "fidelity_bounds", "satisfies_beta", "TradeoffCurve",
            "feasible_at_beta", "statistical_parity", "lemma2_shift", "fairness_report",
            "skyprivacy.plotting.plot_tradeoff_curve"} <= set(presented)
    wrong = []
    for name in presented:
        head, *attributes = name.removeprefix("skyprivacy.").split(".")
        if name.startswith("skyprivacy."):
            obj = importlib.import_module(f"skyprivacy.{head}")
        elif head in transparency.__all__:
            obj = getattr(transparency, head)
        elif head in errors.__all__ and not attributes:
            continue
        else:
            wrong.append(name)
            continue
        for attribute in attributes:
            obj = getattr(obj, attribute, None)
        if obj is None:
            wrong.append(name)
    assert not wrong, wrong


def test_where_it_lives_lists_the_package_s_modules(public_modules):
    lives = section("### Where it lives", "### Behaviour at the edges")
    assert set(re.findall(r"`(\w+)\.py`", lives)) == public_modules(transparency)


def test_the_demonstrations_are_outside_the_package_in_the_example_both_name(public_modules):
    example = re.search(r"``(examples/\w+\.py)``", " ".join(transparency.__doc__.split()))
    demonstrations = section("### Demonstrations", "### Where it lives")
    assert example and f"### Demonstrations (`{example.group(1)}`, outside the package)" in \
        demonstrations
    demos = [call.group(1) for span in re.findall(r"`([^`]+)`", demonstrations)
             if (call := CALL.fullmatch(span)) and not call.group(1).startswith("skyprivacy.")]
    assert "demo_section8" in demos and len(demos) >= 7
    tree = ast.parse((ROOT / example.group(1)).read_text(encoding="utf-8"))
    defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert set(demos) <= defined, set(demos) - defined
    modules = [transparency, *(getattr(transparency, name)
                               for name in public_modules(transparency))]
    in_package = [name for name in demos if any(hasattr(module, name) for module in modules)]
    assert not in_package, in_package
