"""The top-level facade (skyprivacy/__init__.py): what ``import skyprivacy`` exports, where each
name comes from, what the README and the guides take from it, what importing it loads, and the
deprecated ARX classmethods it attaches to Hierarchy."""
import re
import sys
from pathlib import Path

import skyprivacy
from skyprivacy._core.version import __version__

ROOT = Path(__file__).resolve().parents[1]

#: The public names of ``import skyprivacy``, by area.
EXPORTS = {
    # the model, the closed forms, knowledge and policies
    "ReleaseCandidate", "SEMANTICS", "breach_probability", "sufficient_statistics",
    "SkylinePoint", "Skyline", "Policy",
    # SkylineCheck, SkylineFind, the l-diversity comparison and their drawings
    "skyline_check", "SkylineCheckResult", "PointCheck", "WorstCase", "skyline_find",
    "skyline_find_all", "KnowledgeSkyline", "KnowledgeSkylines", "compare_l_diversity",
    "LDiversityComparison", "plot_skyline", "plot_skyline_slices",
    # anonymization: the one entry point (the callable package), full-domain search,
    # SkylineAnonymize and k-anonymization
    "anonymize", "AnonymizeResult", "full_domain_search",
    "skyline_anonymize", "AnonymizationResult", "k_anonymize", "KAnonymizationResult",
    "splittable_groups",
    # hierarchies
    "Hierarchy", "generalize_frame", "load_adult_hierarchies",
    # baselines and utility
    "k_anonymity", "k_anonymity_policy", "identity_release", "distinct_l_diversity",
    "entropy_l_diversity", "recursive_cl_diversity", "cl_diversity_policy", "t_closeness",
    "average_group_size", "discernibility", "kl_divergence", "utility_report", "UtilityReport",
    # the areas and data sets as modules
    "baselines", "hierarchy", "fairness_queries", "transparency", "utility", "risk",
    "datasets", "errors",
    # errors and warnings
    "BudgetError", "DegenerateGroupError", "QueryDesignWarning", "UnsafeConstantWarning",
    "HierarchyError", "InfeasibleError", "InvalidParameterError", "PrivacyRiskWarning",
    "MixedColumnWarning", "SchemaError", "SkyPrivacyError", "SkyPrivacyWarning",
    "UnusedPolicyValueWarning", "UnknownValueWarning",
    "__version__",
}

#: Third-party libraries of the optional extras (dask, plot, ml, lp, excel), and the parts of
#: the package that need them or the terminal: none is loaded by ``import skyprivacy``.
NOT_LOADED = ["dask", "distributed", "matplotlib", "sklearn", "scipy", "openpyxl", "cryptography",
              "skyprivacy.dask_engine", "skyprivacy.cli"]


def test_exports():
    assert set(skyprivacy.__all__) == EXPORTS
    assert len(skyprivacy.__all__) == len(EXPORTS)  # no name listed twice


def test_every_export_comes_from_a_module_that_defines_or_exports_it(reexports,
                                                                     misattributed_exports):
    assert misattributed_exports(skyprivacy) == []
    # everything the facade imports is exported
    assert set(reexports(skyprivacy)) - set(skyprivacy.__all__) == set()


def test_no_private_name_is_exported():
    assert [name for name in skyprivacy.__all__ if name.startswith("_")] == ["__version__"]
    namespace = {}
    exec("from skyprivacy import *", namespace)  # every exported name resolves
    assert set(namespace) - {"__builtins__"} == EXPORTS


def test_the_package_reads_its_version_from_the_one_place():
    assert skyprivacy.__version__ == __version__


def test_the_readme_s_api_table_names_exported_names():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("## What it does"):readme.index("## Command line")]
    promised = set()
    for row in re.findall(r"^\| [^|]+ \| (.+) \|$", table, flags=re.M):
        for span in re.findall(r"`([^`]+)`", row):
            path = re.match(r"[A-Za-z_][\w.]*", span).group().removeprefix("skyprivacy.")
            obj = skyprivacy
            for part in path.split("."):
                obj = getattr(obj, part)  # the README's dotted name resolves
            promised.add(path.split(".")[0])
    assert {"ReleaseCandidate", "breach_probability", "skyline_check", "skyline_anonymize",
            "skyline_find", "Hierarchy", "transparency", "fairness_queries"} <= promised
    assert promised <= set(skyprivacy.__all__), promised - set(skyprivacy.__all__)


def test_the_documentation_takes_only_exported_names_from_the_top_level(documented_imports):
    """``from skyprivacy import x`` and ``sp.x`` (after ``import skyprivacy as sp``) in the
    README, the guides, the examples and the benchmarks name an export or a subpackage."""
    used = dict(documented_imports("skyprivacy"))
    for document in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
                     *sorted((ROOT / "examples").glob("*.py"))]:
        text = document.read_text(encoding="utf-8")
        if "import skyprivacy as sp" in text:
            for name in re.findall(r"\bsp\.(\w+)", text):
                used.setdefault(name, []).append(document.name)
    assert {"Policy", "skyline_anonymize", "load_adult_hierarchies"} <= set(used)
    wrong = {name: where for name, where in used.items()
             if name not in skyprivacy.__all__ and f"skyprivacy.{name}" not in sys.modules}
    assert not wrong, wrong


def test_importing_is_silent_and_loads_no_optional_dependency(fresh_python):
    done = fresh_python("import sys\n"
                        "import skyprivacy\n"
                        f"print([m for m in {NOT_LOADED!r} if m in sys.modules])\n")
    assert (done.returncode, done.stdout, done.stderr) == (0, "[]\n", "")
