"""The namespace is honestly labelled (issue 14, items 2 and 4): importing it is silent and
cheap, nothing is named private, anonymous or DP except the one DP component, the functions
whose output could be mistaken for a guarantee warn, and the guarantee-free ones say so."""
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pandas as pd
import pytest

import skyprivacy.experimental.group_tagging as gt
from skyprivacy.errors import NotDifferentiallyPrivateWarning, UnprovenFormulaWarning

PACKAGE = Path(gt.__file__).parent


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


_CLAIM = re.compile(r"(differentially private|anonymi[sz]ed|is private|epsilon-DP)", re.I)
_NEGATION = re.compile(r"\b(not|neither|nor|no|never|nothing)\b", re.I)


@pytest.mark.parametrize("module", ["encoding", "query", "related", "fis", "classifier",
                                    "tuning"])
def test_only_count_reports_are_called_private(module):
    """Outside counts.py every privacy claim in the source is negated within its sentence."""
    text = (PACKAGE / f"{module}.py").read_text()
    for match in _CLAIM.finditer(text):
        sentence_start = max(text.rfind(".", 0, match.start()), text.rfind("\n\n", 0,
                                                                         match.start()))
        before = text[sentence_start:match.start()]
        assert _NEGATION.search(before), (module, text[match.start() - 80:match.end()])


def test_the_functions_that_could_be_mistaken_for_a_guarantee_warn():
    table = pd.DataFrame({"sex": ["F"] * 4, "a": range(4), "b": range(4)})
    with pytest.warns(NotDifferentiallyPrivateWarning):
        gt.fis_shuffle(table, tag="sex", anchored=[], S=2, batches=1, random_state=0)
    with pytest.warns(NotDifferentiallyPrivateWarning):
        gt.paper_fis_epsilon(2, 5, S=2)
    with pytest.warns(UnprovenFormulaWarning):
        gt.paper_loss_bound(10, 0.1)
    with pytest.warns(NotDifferentiallyPrivateWarning):
        gt.select_fis_config(table, [gt.QuerySpec("count", ["a"], None,
                                                  predicate=lambda r: r["a"] > 1)],
                             [{"S": 2, "batches": 1}], tag="sex", anchored=[], n_draws=1,
                             random_state=0)


def test_the_transforms_and_the_dp_component_do_not_warn():
    table = pd.DataFrame({"sex": ["F", "F", "M", "M"], "a": ["x", "y", "x", "y"],
                          "b": [1, 0, 1, 0], "c": [3, 4, 5, 6]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gt.one_hot_encode(table, columns=["a"])
        gt.tag_groups(table, protected="sex")
        gt.plan_fis(table, tag="sex", anchored=[], S=2, batches=1, random_state=0)
        gt.count_report(table, spec=gt.QuerySpec("count", ["b"], None), epsilon=1.0,
                        random_state=0)
        gt.row_return_probability(5, S=2)


def test_every_public_name_is_documented():
    guide = (Path(__file__).resolve().parents[3] / "docs" / "group_tagging.md").read_text()
    for name in ("one_hot_encode", "QuerySpec", "select_related_attributes", "tag_groups",
                 "plan_fis", "fis_shuffle", "paper_fis_epsilon", "row_return_probability",
                 "empirical_relinkage_rate", "RelationImpactClassifier", "group_error_rates",
                 "count_report", "paper_loss_bound", "select_fis_config"):
        assert f"`{name}" in guide, name
        assert getattr(gt, name).__doc__
