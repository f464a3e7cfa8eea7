"""The fairness-query facade (skyprivacy/fairness_queries/__init__.py): the names it exports,
each from the module that defines it; the guide's table of what the module offers names exports
(and the decoders' option values, or cs_reveal's keywords), and the experiments it puts
outside the package are outside, in the example the docstring names."""
import ast
import inspect
import re
from pathlib import Path

from skyprivacy import fairness_queries
from skyprivacy._core.validation import declared_constraints

ROOT = Path(__file__).resolve().parents[2]
EXPORTS = {
    # metrics.py
    "GroupSizes", "group_sizes", "statistical_parity_gap", "abs_statistical_parity_gap",
    "equal_opportunity_gap", "false_positive_rate_gap", "equalized_odds_gaps",
    "equalized_odds_gap", "leakage_score", "avg_sp_error", "predictive_rate_parity_gap",
    # sensitivity.py
    *(f"{kind}_sensitivity_{query}" for kind in ("local", "smooth", "global")
      for query in ("sp", "abs_sp", "eo", "equalized_odds")),
    "smooth_sensitivity_lattice", "smooth_sensitivity_lattice_2d", "attribute_conceal_beta",
    "global_sensitivity_prp",
    # mechanisms.py
    "BudgetAccountant", "SliceAudit", "ReleaseAudit", "BiasQueryRelease", "AttributeConceal",
    "LaplaceBiasQuery", "ComplianceOracle", "expected_median_abs_error", "crossover_epsilon",
    "GaussianBiasQuery", "gaussian_sigma",
    # attacks.py
    "AttackResult", "TargetResult", "GroupSizeEstimate", "single_query_design", "decode_single",
    "single_query_reveal", "flip_pair_design", "decode_flip_pair", "flip_pair_reveal",
    "flip_design", "flip_design_slogdet", "flip_reveal", "linear_system_reveal",
    "base_difference_reveal", "uniform_perturbation_design", "bernoulli_design", "cs_reveal",
    "compressed_sensing_reveal", "estimate_group_sizes", "abs_sp_partition", "slice_attack",
    "equalized_odds_reveal",
}


def offers():
    """{group: [names]} of the guide's table 'What the module offers', the shorthand
    ``local_/smooth_/global_sensitivity_sp``, ``..._eo`` written out."""
    guide = (ROOT / "docs" / "fairness_queries.md").read_text(encoding="utf-8")
    section = guide[guide.index("## What the module offers"):]
    table = {}
    for group, cell in re.findall(r"^\| (\w+) \(§[^|]*\) \| (.+) \|$", section, flags=re.M):
        names, stems = [], []
        for span in re.findall(r"`([^`]+)`", cell):
            name = re.match(r"[\w./]+", span).group()
            if "/" in name and not name.endswith(".py"):  # local_/smooth_/global_sensitivity_sp
                *heads, last = name.split("/")
                head, stem = last.split("_", 1)
                prefixes = [*heads, f"{head}_"]
                names += [prefix + stem for prefix in prefixes]
                stems = [prefix + stem.rsplit("_", 1)[0] for prefix in prefixes]
            elif name.startswith("..."):  # ..._eo: the same prefixes and stem
                names += [stem + name[3:] for stem in stems]
            else:
                names.append(name)
        table[group] = names
    return table


def test_exports():
    assert set(fairness_queries.__all__) == EXPORTS
    assert len(fairness_queries.__all__) == len(EXPORTS)


def test_every_export_comes_from_the_module_that_defines_it(misattributed_exports):
    assert misattributed_exports(fairness_queries) == []


def test_nothing_but_the_exports_and_the_modules_is_public(unexported_names):
    assert unexported_names(fairness_queries) == []


def test_the_docstring_lists_every_submodule(docstring_section, public_modules):
    assert set(docstring_section(fairness_queries, "Submodules")) == \
        public_modules(fairness_queries)


def test_the_guide_and_the_examples_import_only_exported_names(documented_imports):
    used = documented_imports("skyprivacy.fairness_queries")
    assert {"AttributeConceal", "cs_reveal", "leakage_score"} <= set(used)
    assert set(used) <= set(fairness_queries.__all__), {
        name: used[name] for name in set(used) - set(fairness_queries.__all__)}


def test_what_the_guide_says_the_module_offers_is_exported():
    table = offers()
    assert set(table) == {"queries", "scores", "sensitivities", "mechanisms", "attacks",
                          "experiments"}
    offered = [name for group, names in table.items() if group != "experiments"
               for name in names]
    assert "global_sensitivity_equalized_odds" in offered and len(offered) > 40
    decoders = declared_constraints(fairness_queries.cs_reveal)[1]["decoder"].values
    keywords = inspect.signature(fairness_queries.cs_reveal).parameters  # lp_method="dense-ipm"
    missing = [name for name in offered if name not in fairness_queries.__all__
               and name not in decoders and name not in keywords]
    assert not missing, missing


def test_the_experiments_are_outside_the_package_in_the_example_the_docstring_names(
        public_modules):
    example = re.search(r"``(examples/\w+\.py)``", " ".join(fairness_queries.__doc__.split()))
    assert example and example.group(1) == "examples/fairness_query_experiments.py"
    path, *experiments = offers()["experiments"]
    assert path == example.group(1) and len(experiments) >= 6
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert set(experiments) <= defined, set(experiments) - defined
    modules = [fairness_queries, *(getattr(fairness_queries, name)
                                   for name in public_modules(fairness_queries))]
    in_package = [name for name in experiments
                  if any(hasattr(module, name) for module in modules)]
    assert not in_package, in_package
