"""Group tagging, Fairly Iterative Shuffling and Relation Impact, honestly labelled.

Implements Sengupta and Mishra, "Fairly Private Through Group Tagging and Relation Impact",
as read by the project's specification ``group-tagging``, which fixes a concrete reading
where the paper is vague and lists what is wrong in it.  What each part is:

* **data transforms** (no privacy guarantee): :func:`one_hot_encode`, :class:`QuerySpec`,
  :func:`select_related_attributes`, :func:`tag_groups`, :func:`plan_fis` and
  :func:`fis_shuffle`.  FIS shuffles attribute groups within batches of each protected class;
  every column total per class stays exact and the anchored columns are released verbatim,
  so its output is neither anonymized nor differentially private (it warns so);
* **honest linkage diagnostics**: :func:`row_return_probability`,
  :func:`empirical_relinkage_rate`;
* **a fair classifier**: :class:`RelationImpactClassifier` (equalized-odds post-processing
  solved exactly as a linear program, without scipy; its default base estimator needs
  ``skyprivacy[ml]``) and :func:`group_error_rates`;
* **the only differentially private component**: :func:`count_report`;
* **reproduction only**, each warning on every call: :func:`paper_fis_epsilon` (the paper's
  "epsilon", not a DP budget), :func:`paper_loss_bound` (a bound that does not hold), and the
  tuning helper :func:`select_fis_config`.

Importing this module issues no warning and imports neither scipy nor scikit-learn.  The
user guide is ``docs/group_tagging.md``.

Submodules
----------
encoding
    One-hot encoding with an encoding map (§3.1).
query
    The declarative query function (§3.2).
related
    Related background attributes by correlation (§3.3).
fis
    Group tagging, FIS, the paper's budget and the linkage diagnostics (§3.4-§3.6).
classifier
    The Relation-Impact classifier and per-group error rates (§3.7).
counts
    Differentially private count reports (§3.8).
tuning
    The paper's loss bound and FIS configuration selection (§3.9).
"""

from .classifier import GroupErrorRates, RelationImpactClassifier, group_error_rates
from .counts import CountRelease, count_report, tree_levels
from .encoding import MISSING_CATEGORY, EncodedTable, EncodingMap, one_hot_encode
from .fis import (FisBatch, FisPlan, LinkageRates, PaperBudget, ShuffledTable,
                  empirical_relinkage_rate, fis_shuffle, paper_fis_epsilon, plan_fis,
                  row_return_probability, tag_groups)
from .query import QuerySpec
from .related import RelatedAttributes, select_related_attributes
from .tuning import FisConfigSelection, paper_loss_bound, select_fis_config

__all__ = [
    "one_hot_encode",
    "EncodingMap",
    "EncodedTable",
    "MISSING_CATEGORY",
    "QuerySpec",
    "select_related_attributes",
    "RelatedAttributes",
    "tag_groups",
    "plan_fis",
    "fis_shuffle",
    "FisPlan",
    "FisBatch",
    "ShuffledTable",
    "paper_fis_epsilon",
    "PaperBudget",
    "row_return_probability",
    "empirical_relinkage_rate",
    "LinkageRates",
    "RelationImpactClassifier",
    "group_error_rates",
    "GroupErrorRates",
    "count_report",
    "CountRelease",
    "tree_levels",
    "paper_loss_bound",
    "select_fis_config",
    "FisConfigSelection",
]
