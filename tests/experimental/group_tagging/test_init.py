"""The group-tagging facade (skyprivacy/experimental/group_tagging/__init__.py): the names it
exports, each from the module that defines it, none claiming privacy, each documented;
importing it is silent and cheap; its docstring lists every submodule and names only exports."""
import re
import subprocess
import sys
from pathlib import Path

import skyprivacy.experimental.group_tagging as gt

EXPORTS = {
    "one_hot_encode", "EncodingMap", "EncodedTable", "MISSING_CATEGORY",  # encoding.py
    "QuerySpec",  # query.py
    "select_related_attributes", "RelatedAttributes",  # related.py
    "tag_groups", "plan_fis", "fis_shuffle", "FisPlan", "FisBatch", "ShuffledTable",  # fis.py
    "paper_fis_epsilon", "PaperBudget", "row_return_probability", "empirical_relinkage_rate",
    "LinkageRates",
    "RelationImpactClassifier", "group_error_rates", "GroupErrorRates",  # classifier.py
    "count_report", "CountRelease", "tree_levels",  # counts.py
    "paper_loss_bound", "select_fis_config", "FisConfigSelection",  # tuning.py
}


def test_exports():
    assert set(gt.__all__) == EXPORTS
    assert len(gt.__all__) == len(EXPORTS)


def test_every_export_comes_from_the_module_that_defines_it(misattributed_exports):
    assert misattributed_exports(gt) == []


def test_nothing_but_the_exports_and_the_modules_is_public(unexported_names):
    assert unexported_names(gt) == []


def test_the_docstring_lists_every_submodule(docstring_section, public_modules):
    assert set(docstring_section(gt, "Submodules")) == public_modules(gt)


def test_every_name_the_docstring_presents_is_exported(docstring_references):
    references = docstring_references(gt)
    assert [target for target, obj in references.items() if obj is None] == []
    assert {"count_report", "fis_shuffle", "RelationImpactClassifier"} <= set(references)
    assert set(references) <= set(gt.__all__), set(references) - set(gt.__all__)


def test_the_guide_and_the_examples_import_only_exported_names(documented_imports):
    used = documented_imports("skyprivacy.experimental.group_tagging")
    assert {"fis_shuffle", "count_report", "paper_loss_bound"} <= set(used)
    assert set(used) <= set(gt.__all__), {name: used[name] for name in
                                          set(used) - set(gt.__all__)}


def test_importing_is_silent_and_loads_neither_scipy_nor_sklearn():
    code = ("import sys, warnings\n"
            "warnings.simplefilter('error')\n"
            "import skyprivacy.experimental.group_tagging\n"
            "assert 'scipy' not in sys.modules and 'sklearn' not in sys.modules, "
            "sorted(m for m in sys.modules if m.startswith(('scipy', 'sklearn')))\n")
    done = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


def test_no_public_name_claims_privacy():
    for name in gt.__all__:
        assert not re.search(r"priva|anonym|(^|_)dp($|_)|differential", name.lower()), name


def test_every_public_name_is_documented():
    guide = (Path(__file__).resolve().parents[3] / "docs" / "group_tagging.md").read_text()
    for name in ("one_hot_encode", "QuerySpec", "select_related_attributes", "tag_groups",
                 "plan_fis", "fis_shuffle", "paper_fis_epsilon", "row_return_probability",
                 "empirical_relinkage_rate", "RelationImpactClassifier", "group_error_rates",
                 "count_report", "paper_loss_bound", "select_fis_config"):
        assert f"`{name}" in guide, name
        assert getattr(gt, name).__doc__
