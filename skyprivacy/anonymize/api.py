"""The public anonymization functions over a pandas table: SkylineAnonymize (Sect. 6.2,
Fig. 4) and k-anonymity through the same search (Proposition 3).

Each checks its inputs (:mod:`.inputs`), encodes the table into an in-memory source
(:class:`~.source.MemorySource`), runs the one strategy (:func:`~.search.mondrian`) with the
decision rules (:class:`~.rules.Rules`), and builds the released table (:mod:`.released`),
certified by an independent :func:`skyprivacy.skyline_check` of exactly what is released.  A
Dask frame is handed to the Dask engine's functions of the same name, which run the same
strategy and rules over a source of partitions.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from .._core.canonical import WHITESPACE, canonical_text
from .._core.display import finish, progress_callback
from .._core.engines import dispatchable, partitioned_engine
from ..check import skyline_check
from ..criteria import AverageRisk, PopulationUniqueness, SkylinePolicy, as_criteria
from ..errors import InfeasibleError, InvalidParameterError, param_error
from ..knowledge import Policy
from ..labels import DEFAULT_LABEL_LENGTH
from ..release import ReleaseCandidate, encode_sensitive, pair_counts
from .encoders import distinct_cells, make_encoder
from .lattice import SUPPRESSED, AnonymizeResult, full_domain_search, suppression_budget
from .inputs import (
    Checked,
    TableFacts,
    attach,
    check_anonymization,
    check_k,
    check_local_rows,
    classified,
)
from .released import (
    AnonymizationResult,
    KAnonymizationResult,
    build_release,
    release_candidate,
    set_labels_of,
    sizes_only,
)
from .rules import CriteriaRule, PolicyPlan, Rules, SparseGroups
from .search import check_feasible, mondrian
from .source import MemorySource

__all__ = ["anonymize", "METHODS", "skyline_anonymize", "k_anonymize", "splittable_groups",
           "skyline_search", "k_search", "mondrian_search", "PandasEngine", "IDENTITY",
           "SIZE_CRITERIA"]

#: The sensitive column of k-anonymity's search: every individual's own (Proposition 3).
IDENTITY = "__skyprivacy_identity__"


class PandasEngine:
    """The pandas engine of :func:`skyline_search` and :func:`k_search`: the table's facts
    read at once, then the search in memory (its source with the rules) and the release."""

    def __init__(self, table: pd.DataFrame):
        self.table = table

    def facts(self, sensitive, semantics: str, missing: str):
        """The :class:`~.inputs.TableFacts` of the table (``sensitive`` None: k-anonymity's
        identity, never missing)."""
        def facts(qi: list) -> TableFacts:
            return TableFacts(len(self.table), [int(self.table[c].isna().sum()) if c is not None
                                                else 0 for c in [*qi, sensitive]],
                              {name: distinct_cells(self.table[name]) for name in qi})
        return facts

    def search(self, checked: Checked, sensitive, policy, split: str, min_size, progress,
               missing: str) -> PandasEngine:
        """The in-memory source of the checked table (the sensitive column read by its one
        rule, :func:`skyprivacy.release.encode_sensitive`; None: k-anonymity's placeholder
        value; every QI coded by its encoder) with the rules."""
        table, n = self.table, len(self.table)
        elem_row, elem_val, values = (
            (np.arange(n), np.zeros(n, dtype=np.int64), [0]) if sensitive is None else
            encode_sensitive(table[sensitive], semantics=checked.semantics, missing=missing,
                             whitespace=checked.whitespace))
        self.attrs = [make_encoder(name, table[name], checked.kinds[name],
                                   checked.hierarchies.get(name),
                                   checked.orders.get(name, "sorted"), checked.label_length,
                                   balanced=split == "loss", whitespace=checked.whitespace)
                      for name in checked.qi]
        self.source = self.audit = MemorySource(
            self.attrs, np.column_stack([attr.codes for attr in self.attrs]), elem_row,
            elem_val, values, checked.semantics)
        self.qi, self.sensitive, self.values, self.n_rows = checked.qi, sensitive, values, n
        self.rules = Rules(PolicyPlan.build(policy, self.values, self.n_rows),
                           len(self.values), checked.semantics, split, min_size, progress)
        return self

    def root(self):
        return self.source.root()

    def run(self) -> int:
        return mondrian(self.source, self.rules)

    def release(self, output: str, random_state, group_column: str, suppress=None,
                mask: bool = False) -> tuple:
        """(released table, group of every row, per-group summary, group sizes); the rows of
        the final groups ``suppress`` flags are dropped, or masked with ``mask``."""
        released, assignment, groups = build_release(
            self.attrs, self.table, self.qi, self.source.final, self.sensitive, output,
            random_state, group_column, suppress=suppress, mask=mask)
        index = self.table.index if suppress is None else released.index
        return (released, pd.Series(assignment, index=index, name="group"),
                groups, groups["n_individuals"].to_numpy())


def search_policy(policy: Policy, whitespace: str) -> Policy:
    """The policy as the search reads it: its keys in canonical form under ``whitespace``
    (docs/canonical-text.md), as the search's sensitive values are, so a key finds the cells
    it names in the search as in the certificate's :func:`~skyprivacy.skyline_check`.

    Raises
    ------
    InvalidParameterError
        Two keys name one value with different skylines (the check's words).

    Examples
    --------
    >>> search_policy(Policy({" Flu": [(0, 0, 0, 0.5)]}), "strip").values
    ('Flu',)
    >>> search_policy(Policy({" Flu": [(0, 0, 0, 0.5)]}), "keep").values
    (' Flu',)
    """
    skylines: dict = {}
    first: dict = {}
    for key, skyline in policy.items():
        value = canonical_text(key, whitespace)
        if value in skylines and skylines[value] != skyline:
            raise InvalidParameterError(
                f"The policy gives {first[value]!r} and {key!r} different skylines, but they "
                f"are the same value {value!r} after text normalization "
                f"(docs/canonical-text.md); give it one skyline.")
        skylines.setdefault(value, skyline)
        first.setdefault(value, key)
    if list(skylines) == list(policy.values):
        return policy
    return Policy(skylines, default=policy.default)


def skyline_search(engine, *, qi, sensitive, policy, hierarchies, semantics, split, output,
                   random_state, group_column, progress, numeric, categorical, order,
                   label_length, missing, keep=None, drop=None,
                   keep_rest: bool = False, whitespace: str = "strip") -> AnonymizationResult:
    """:func:`skyline_anonymize` over an engine (:class:`PandasEngine`, or the Dask
    engine's): the checks (the roles of the columns after every option,
    :func:`~.inputs.classified`), the search, the release without its dropped columns and
    its certificate, the same for both."""
    progress = progress_callback(progress, owner="skyline_anonymize", label="anonymizing")
    checked = check_anonymization(
        engine.table, engine.facts(sensitive, semantics, missing), qi=qi, sensitive=sensitive,
        policy=policy, hierarchies=hierarchies, semantics=semantics, split=split,
        output=output, group_column=group_column, missing=missing, numeric=numeric,
        categorical=categorical, order=order, label_length=label_length,
        owner="skyline_anonymize", whitespace=whitespace)
    qi, policy, semantics = checked.qi, checked.policy, checked.semantics
    keyed = search_policy(policy, whitespace)  # keys as the search's values: canonical
    search = engine.search(checked, sensitive, keyed, split, None, progress, missing)
    # the roles of the other columns: after every check of the data, before the search
    classification, _ = classified(engine.table, qi=qi, sensitive=sensitive, keep=keep,
                                   drop=drop, keep_rest=keep_rest, owner="skyline_anonymize")
    check_feasible(search.root(), search.values, semantics, keyed)
    n_splits = search.run()
    finish(progress)
    released, assignment, groups, _ = search.release(output, random_state, group_column)
    released = classification.select(released)
    candidate = release_candidate(released, qi=qi, sensitive=sensitive, output=output,
                                  group_column=group_column, semantics=semantics,
                                  missing=missing, whitespace=whitespace)
    result = AnonymizationResult(
        table=released, candidate=candidate, certificate=skyline_check(candidate, policy),
        assignment=assignment, groups=groups, qi=tuple(qi), sensitive=sensitive,
        semantics=semantics, output=output, split=split, n_splits=n_splits,
        n_candidates_evaluated=search.rules.n_candidates,
        group_column=group_column if output == "bucketized" else None,
        set_labels=set_labels_of(search.attrs), _engine=search.audit)
    return attach(result, classification)


def k_search(engine, *, qi, k: int, hierarchies, split, output, group_column, progress,
             numeric, categorical, order, label_length, missing, keep=None, drop=None,
             keep_rest: bool = False, whitespace: str = "strip") -> KAnonymizationResult:
    """:func:`k_anonymize` over an engine: the checks (of the QI columns beside the identity
    marker), the search under the size rule, the release and its k-anonymity certificate."""
    progress = progress_callback(progress, owner="k_anonymize", label="anonymizing")
    listed = [qi] if isinstance(qi, str) else list(qi or [])
    checked = check_anonymization(
        engine.table, engine.facts(None, "svpi", missing), qi=qi, sensitive=IDENTITY,
        policy=Policy.uniform([(0, 0, 0, 1)]), hierarchies=hierarchies, semantics="svpi",
        split=split, output=output, group_column=group_column, missing=missing,
        numeric=numeric, categorical=categorical, order=order, label_length=label_length,
        owner="k_anonymize", columns=pd.DataFrame(
            columns=[IDENTITY] + [c for c in listed if c in engine.table.columns]),
        whitespace=whitespace)
    search = engine.search(checked, None, None, split, k, progress, missing)
    if search.n_rows < k:
        raise InfeasibleError(f"The table has {search.n_rows} rows, fewer than k = {k}: no "
                              f"release can be {k}-anonymous.")
    classification, _ = classified(engine.table, qi=qi, sensitive=None, keep=keep, drop=drop,
                                   keep_rest=keep_rest, owner="k_anonymize")
    n_splits = search.run()
    finish(progress)
    released, assignment, groups, sizes = search.release(output, None, group_column)
    released = classification.select(released)
    from ..baselines import k_anonymity
    certificate = k_anonymity(sizes_only(sizes, pd.RangeIndex(len(sizes), name="group")), k=k)
    result = KAnonymizationResult(released, certificate, assignment, groups, k, n_splits,
                                  set_labels_of(search.attrs))
    return attach(result, classification)


@dispatchable  # a dask frame: the same search, distributed (docs/dask.md)
def skyline_anonymize(table: pd.DataFrame, *, qi, sensitive: str, policy: Policy,
                      hierarchies: Mapping | None = None, semantics: str = "svpi",
                      split: str = "infogain", output: str = "generalized",
                      random_state=None, group_column: str = "group",
                      progress=None, numeric=None, categorical=None, order=None,
                      label_length: int | None = DEFAULT_LABEL_LENGTH,
                      local_rows: int | None = None, missing: str = "error", keep=None,
                      drop=None, keep_rest: bool = False,
                      whitespace: str = "strip") -> AnonymizationResult:
    """Generalize or bucketize a table so that it is safe under a skyline policy (Fig. 4).

    Parameters
    ----------
    table : pandas.DataFrame
        The original data, one row per individual (for mvpi, list-like sensitive cells hold an
        individual's values). Never modified.
    qi : str or list of str
        Quasi-identifier columns to partition on. Columns with a hierarchy are split into the
        children of their lowest covering node and labelled with it. Without a hierarchy,
        numeric columns are split at the median value boundary (labels "[lo, hi]") and other
        columns at the median of their distinct values lined up by ``order``: a group is
        labelled with its one value, ``*`` when it spans every value of the column, else the
        set of values it covers (``{a, b, c}``, or a digest, see ``label_length``); pass a
        one-level hierarchy to get all-or-nothing suppression ('*') instead.
    sensitive : str
        The sensitive column.
    policy : Policy
        The value-centric skyline policy the release must satisfy.
    hierarchies : mapping of column -> Hierarchy, optional
        Generalization hierarchies (e.g. :func:`skyprivacy.hierarchy.load_adult_hierarchies`).
    semantics : {'svpi', 'mvpi-set', 'mvpi-multiset'}, default 'svpi'
    split : {'infogain', 'widest', 'loss'}, default 'infogain'
        Split priority: information gain w.r.t. the sensitive attribute (Sect. 8.4), or the
        widest normalized range (Mondrian's choice), or ``'loss'``: the largest fall of the
        generalization loss, with ordered QIs cut on the side of their median value that
        leaves the children closer in size (:func:`~skyprivacy.anonymize.encoders.median_cuts`
        with ``balanced``).
    output : {'generalized', 'bucketized'}, default 'generalized'
        'generalized' replaces QI values by the group's range ("[30, 39]") or hierarchy node;
        'bucketized' keeps QI values, adds ``group_column`` and reassigns the sensitive values
        at random within each group.
    random_state : int or numpy.random.Generator, optional
        Seed of the bucketized reassignment (same seed, same output).
    group_column : str, default 'group'
        Name of the bucket id column of a bucketized release.
    progress : callable or bool, optional
        Called with the fraction (0..1] of rows already in final groups, at most once per
        percent; ``True`` draws a tqdm bar (the ``progress`` extra).
    numeric, categorical : str or list of str, optional
        Quasi-identifiers to split as ordered numbers (median cuts, ranges) or as categories,
        whatever their dtype. Default (:func:`skyprivacy.anonymize.encoders.qi_kinds`,
        shared with the command line): numeric dtypes and text whose every cell is a number
        are numeric, except leading-zero codes (ZIP ``02139``); a mostly-numeric text
        column with a few other cells is split as categories with a
        :class:`MixedColumnWarning`. A released cell that is not generalized is the input
        cell, unchanged; ranges print their bounds as they appear in the input.
    order : {'sorted', 'first'} or mapping, optional
        The order in which a categorical QI lines up its values before it is split into runs
        (:func:`skyprivacy.anonymize.encoders.category_orders`). Default ``'sorted'`` (text
        in code-point order, as before this option existed); ``'first'``: order of first
        appearance in the table; a mapping ``{column: 'sorted' | 'first' | [values in
        order]}`` per column (columns it does not name are sorted), e.g.
        ``{"severity": ["low", "mid", "high"]}``.
    label_length : int or None, default 80
        Longest set label listed in full, in characters. A longer set (or one whose members
        hold a comma) is published as a digest, ``{#3f9a2c1b: 12 values}``, whose members
        are in ``.set_labels`` (the command line writes them to a set-label file beside the
        output, recorded by the certificate; see :mod:`skyprivacy.labels`). ``0`` publishes
        every set as a digest, ``None`` lists every set in full.
    local_rows : int, optional
        Dask frames only: groups of at most this many rows are finished on the worker that
        holds them (see docs/dask.md).
    missing : {'error', 'as_value'}, default 'error'
        Missing values (NaN/None) in the quasi-identifiers or the sensitive column raise by
        default (silently dropping them would overstate the protection); ``'as_value'``
        treats them as a value of their own, as :meth:`ReleaseCandidate.from_table` does (a
        numeric quasi-identifier orders it after every number).
    keep : str or list of str, optional
        Columns published as is, neither generalized nor analysed (say so only for columns
        that cannot identify anyone or reveal the sensitive value). Every column of the
        table must be a quasi-identifier, the sensitive column, kept or dropped.
    drop : str or list of str, optional
        Columns left out of the release.
    keep_rest : bool, default False
        Keep every column not otherwise classified, with an
        :class:`~skyprivacy.errors.UnanalysedColumnWarning` naming the columns copied
        unanalysed (without it, an unclassified column is an error).
    whitespace : {'strip', 'keep'}, default 'strip'
        How text cells, policy keys and hierarchy leaves are compared
        (docs/canonical-text.md): in Unicode NFC without zero-width characters, their
        surrounding whitespace stripped (``' Flu'`` is ``'Flu'``) or, with ``'keep'``,
        compared (two values), as :meth:`ReleaseCandidate.from_table` and
        :func:`skyprivacy.certificate.build_certificate` take it; released cells keep their
        exact text.

    Returns
    -------
    AnonymizationResult
        ``.table``, ``.candidate``, ``.certificate`` (an independent skyline_check of what is
        released), ``.assignment``, ``.groups``, ``.set_labels`` and ``.classification``.

    Raises
    ------
    InfeasibleError
        If even the whole table as one group is unsafe; the message names the value and point.
    SchemaError, HierarchyError, InvalidParameterError
        Missing columns or values, values a hierarchy does not cover, bad parameters, an
        unclassified column or a column given two roles.

    Notes
    -----
    A split into g_1..g_n is accepted iff, with SSi <- min(SSi, terms of g_1..g_n) for every
    (value, point), BP = 1 / (min(SS1, SS2*SS5, SS3*SS4) + 1) < c and no child holding the value
    has n <= k + m. Verdicts near the threshold are decided with exact fractions.

    References
    ----------
    Chen, LeFevre and Ramakrishnan (2009), Sect. 6.2, Fig. 4 and Theorem 4; LeFevre, DeWitt
    and Ramakrishnan, "Mondrian multidimensional k-anonymity" (ICDE 2006) and "Workload-aware
    anonymization" (KDD 2006) for the split criteria.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"age": [21, 22, 23, 24, 31, 33, 35, 38],
    ...                       "disease": ["flu", "aids", "flu", "cold",
    ...                                   "flu", "cold", "aids", "cold"]})
    >>> result = skyline_anonymize(table, qi="age", sensitive="disease",
    ...                            policy=Policy.uniform([(0, 1, 0, 0.8)]))
    >>> result.certificate.safe, result.candidate.n_groups
    (True, 2)
    >>> result.table["age"].tolist()
    ['[21, 24]', '[21, 24]', '[21, 24]', '[21, 24]', '[31, 38]', '[31, 38]', '[31, 38]', '[31, 38]']
    """
    owner = "skyline_anonymize"
    check_local_rows(local_rows, owner)
    if not isinstance(table, pd.DataFrame):
        raise param_error("table", owner, "be a pandas DataFrame", type(table).__name__)
    return skyline_search(
        PandasEngine(table), qi=qi, sensitive=sensitive, policy=policy, hierarchies=hierarchies,
        semantics=semantics, split=split, output=output, random_state=random_state,
        group_column=group_column, progress=progress, numeric=numeric, categorical=categorical,
        order=order, label_length=label_length, missing=missing, keep=keep, drop=drop,
        keep_rest=keep_rest, whitespace=whitespace)


@dispatchable  # a dask frame: the same search, distributed (docs/dask.md)
def k_anonymize(table: pd.DataFrame, *, qi, k: int, hierarchies: Mapping | None = None,
                split: str = "widest", output: str = "generalized",
                group_column: str = "group", progress=None, numeric=None,
                categorical=None, order=None,
                label_length: int | None = DEFAULT_LABEL_LENGTH,
                local_rows: int | None = None, missing: str = "error", keep=None,
                drop=None, keep_rest: bool = False,
                whitespace: str = "strip") -> KAnonymizationResult:
    """k-anonymity with the SkylineAnonymize engine (Proposition 3).

    With the identity of each individual as the sensitive value, the skyline point
    (0, k - 2, 0) at c = 1 holds iff every QI-group has at least k individuals, so the engine
    runs with that size rule instead of evaluating one policy cell per individual.

    Parameters
    ----------
    table : pandas.DataFrame
    qi : str or list of str
    k : int
        At least 2.
    hierarchies, split, output, group_column, progress, numeric, categorical, order
    label_length, local_rows, missing, keep, drop, keep_rest, whitespace
        As in :func:`skyline_anonymize` (``split`` defaults to Mondrian's widest range; the
        information gain needs a sensitive attribute); every column is a QI, kept or
        dropped.

    Returns
    -------
    KAnonymizationResult
        With ``.certificate`` the :func:`skyprivacy.baselines.k_anonymity` check of the
        released groups.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"age": [21, 22, 23, 24, 31, 33, 35, 38]})
    >>> result = k_anonymize(table, qi="age", k=3)
    >>> result.safe, result.groups["n_individuals"].tolist()
    (True, [4, 4])
    """
    owner = "k_anonymize"
    k = check_k(k, split, owner)
    check_local_rows(local_rows, owner)
    if not isinstance(table, pd.DataFrame):
        raise param_error("table", owner, "be a pandas DataFrame", type(table).__name__)
    return k_search(PandasEngine(table), qi=qi, k=k, hierarchies=hierarchies, split=split,
                    output=output, group_column=group_column, progress=progress,
                    numeric=numeric, categorical=categorical, order=order,
                    label_length=label_length, missing=missing, keep=keep, drop=drop,
                    keep_rest=keep_rest, whitespace=whitespace)


def splittable_groups(result: AnonymizationResult, policy: Policy) -> list[tuple[int, str]]:
    """Groups that some candidate split could still divide safely (Theorem 4: none in svpi).

    Each candidate split of each released group is checked by an exact
    :func:`skyprivacy.skyline_check` of the release with that group replaced by its children,
    independently of the sufficient statistics used during the search. Intended for audits and
    tests on small tables (cost: one full check per candidate split).

    Returns
    -------
    list of (group id, attribute name)
    """
    source = result.search_source
    if source is None:
        raise param_error("result", "splittable_groups",
                          "be a skyline_anonymize result of a pandas DataFrame (a dask "
                          "result keeps no search engine)",
                          type(result).__name__)
    assignment = result.assignment.to_numpy()
    # groups in assignment order, as sparse rows
    n_groups = int(assignment.max()) + 1
    sizes = np.bincount(assignment, minlength=n_groups)
    group, value, count = pair_counts(assignment[source.elem_row], source.elem_val, n_groups,
                                      source.n_values)
    found = []
    for g in range(n_groups):
        rows = np.flatnonzero(assignment == g)
        keep = group != g
        others = np.arange(n_groups) != g
        renumber = np.cumsum(others) - 1
        one = MemorySource(source.attrs, source.code_matrix, source.elem_row, source.elem_val,
                           source.values, result.semantics, rows=rows,
                           starts=np.array([0, len(rows)]))
        cands = one.candidates(need_counts=True)
        if not cands["n"]:  # no QI splits the group
            continue
        kids: SparseGroups = cands["children"]
        for c in range(cands["n"]):
            f, n = int(cands["first_child"][c]), int(cands["n_children"][c])
            mask = (kids.group >= f) & (kids.group < f + n)
            trial = ReleaseCandidate.from_nonzeros(
                np.concatenate([sizes[others], cands["sizes"][f:f + n]]),
                np.concatenate([renumber[group[keep]], kids.group[mask] - f + n_groups - 1]),
                np.concatenate([value[keep], kids.value[mask]]),
                np.concatenate([count[keep], kids.count[mask]]),
                source.values, semantics=result.semantics)
            if skyline_check(trial, policy).safe:
                found.append((g, source.attrs[int(cands["attr"][c])].name))
    return found


#: The strategies of :func:`anonymize`.
METHODS = ("mondrian", "full-domain")
#: Whole-release criteria Mondrian keeps true level by level: functions of the class sizes.
SIZE_CRITERIA = (AverageRisk, PopulationUniqueness)


def mondrian_criteria(criteria, owner: str = "anonymize") -> tuple:
    """The criteria of a Mondrian search, sorted for the rules: (the skyline policy or None,
    the per-group criteria, the whole-release criteria of class sizes, every criterion)."""
    listed = as_criteria(criteria)
    policies = [c for c in listed if isinstance(c, SkylinePolicy)]
    if len(policies) > 1:
        raise InvalidParameterError(
            f"method='mondrian' takes at most one skyline Policy; got {len(policies)}: "
            f"merge them into one Policy.")
    other = [c for c in listed if not c.per_group and not isinstance(c, SkylinePolicy)
             and not isinstance(c, SIZE_CRITERIA)]
    if other:
        raise InvalidParameterError(
            f"method='mondrian' cannot judge {other[0]!r}: it is neither a per-group "
            f"criterion nor one of class sizes; use method='full-domain'.")
    return (policies[0].policy if policies else None, [c for c in listed if c.per_group],
            [c for c in listed if isinstance(c, SIZE_CRITERIA)], listed)


def mondrian_search(new_engine, *, qi, sensitive, criteria, hierarchies, semantics, split,
                    budget: int, mask: bool, missing: str, progress=None,
                    whitespace: str = "strip") -> AnonymizeResult:
    """:func:`anonymize`'s Mondrian over an engine (``new_engine()`` makes a fresh one:
    :class:`PandasEngine`, or the Dask engine's): the checks, the search under
    :class:`~.rules.CriteriaRule`, the release with its suppressed rows, and an independent
    evaluation of every criterion on the released table.  A release that fails it (the
    suppressed rows moved a per-group criterion's reference distribution, or the masked
    group fails) is never returned: the search runs again with half the budget, down to
    none."""
    owner = "anonymize"
    policy, group_criteria, size_criteria, listed = mondrian_criteria(criteria, owner)
    while True:
        engine = new_engine()
        checked = check_anonymization(
            engine.table, engine.facts(sensitive, semantics, missing), qi=qi,
            sensitive=sensitive, policy=policy if policy is not None else
            Policy.uniform([(0, 0, 0, 1)]), hierarchies=hierarchies, semantics=semantics,
            split=split, output="generalized", group_column="group", missing=missing,
            numeric=None, categorical=None, order=None, label_length=DEFAULT_LABEL_LENGTH,
            owner=owner, whitespace=whitespace)
        qi_list, semantics = checked.qi, checked.semantics
        keyed = None if policy is None else search_policy(policy, whitespace)
        search = engine.search(checked, sensitive, keyed, split,
                               None if policy is not None else 1, progress, missing)
        root = search.root()
        if keyed is not None:
            check_feasible(root, search.values, semantics, keyed)
        totals = np.zeros(len(search.values), dtype=np.int64)
        np.add.at(totals, root.value, root.count)
        rule = search.rules.criteria = CriteriaRule(
            group_criteria, size_criteria, search.values, totals, semantics, budget, mask)
        failing = rule.start(root)
        if failing:
            raise InfeasibleError(
                f"Even the whole table as one group fails {', '.join(failing)}: no "
                f"generalization can satisfy the criteria.")
        search.run()
        flags = rule.suppressed_groups
        released, _, _, _ = search.release("generalized", None, "group",
                                           suppress=flags if flags.any() else None,
                                           mask=mask)
        candidate = release_candidate(released, qi=qi_list, sensitive=sensitive,
                                      output="generalized", group_column="group",
                                      semantics=semantics, missing=missing,
                                      whitespace=whitespace)
        unsafe = [repr(c) for c in listed if not c.evaluate(candidate).safe]
        if not unsafe:
            assert rule.suppressed <= budget
            return AnonymizeResult(table=released, levels=None, objective="loss", value=None,
                                   suppressed=rule.suppressed, candidate=candidate,
                                   nodes_checked=None, lattice_size=None, method="mondrian",
                                   criteria=tuple(repr(c) for c in listed))
        if budget == 0:  # pragma: no cover - every split was judged against the release
            raise InfeasibleError(f"The Mondrian release fails {', '.join(unsafe)}.")
        budget //= 2


def anonymize(table: pd.DataFrame, *, qi, sensitive, criteria, method: str = "mondrian",
              suppression_limit=0.0, suppressed: str = "drop", objective: str = "loss",
              hierarchies: Mapping | None = None, semantics: str = "svpi",
              missing: str = "error", frontier: bool = False, split: str = "infogain",
              local_rows: int | None = None, keep=None, drop=None,
              keep_rest: bool = False, whitespace: str = "strip") -> AnonymizeResult:
    """Anonymize a table under combined criteria, by Mondrian or by full-domain search.

    The one entry point of :mod:`skyprivacy.anonymize`, also callable as
    ``skyprivacy.anonymize(table, ...)``.

    Parameters
    ----------
    table : pandas.DataFrame (or a dask DataFrame with ``method='mondrian'``)
        Not modified.
    qi : str or list of str
    sensitive : str
    criteria : Criterion, Policy or list of them
        The release is safe when every one holds (:mod:`skyprivacy.criteria`).  Mondrian
        takes any list of per-group criteria (k-anonymity, the l-diversities, t-closeness,
        beta-likeness, delta-disclosure, prosecutor risk), at most one skyline policy, and
        the criteria of class sizes (average risk, population uniqueness).
    method : {'mondrian', 'full-domain'}, default 'mondrian'
        Mondrian's multidimensional partitioning (Sect. 6.2, Fig. 4, with the rules of
        :class:`~skyprivacy.anonymize.rules.CriteriaRule`), or the optimal full-domain
        generalization over the lattice of hierarchy levels
        (:func:`~skyprivacy.anonymize.lattice.full_domain_search`).
    suppression_limit : float in [0, 1], default 0
        The fraction of rows that may be suppressed (rounded down to rows); never exceeded.
    suppressed : {'drop', 'mask'}, default 'drop'
        Suppressed rows are removed, or released with every QI ``'*'``, where they form one
        group that must itself satisfy every criterion.
    objective : {'loss', 'precision', 'height', 'discernibility', 'aecs', 'entropy'}, \
default 'loss'
        What full-domain search minimises: the measures of :mod:`skyprivacy.utility`
        (``'precision'``: 1 - precision); ``skyprivacy.utility.utility_measures(result,
        table=...)`` reports them all, for Mondrian results too.
    hierarchies : mapping of QI -> Hierarchy, optional
    semantics : {'svpi', 'mvpi-set', 'mvpi-multiset'}, default 'svpi'
    missing : {'error', 'as_value'}, default 'error'
    frontier : bool, default False
        Full-domain: also report every minimal safe node.
    split : {'infogain', 'widest', 'loss'}, default 'infogain'
        Mondrian's split priority (as in :func:`skyline_anonymize`; ``'loss'`` also balances
        the median cuts of ordered QIs).
    local_rows : int, optional
        Mondrian on a dask frame: groups of at most this many rows are finished on the
        worker that holds them.
    keep : str or list of str, optional
        Columns published as is, neither generalized nor analysed (say so only for columns
        that cannot identify anyone or reveal the sensitive value). Every column of the
        table must be a quasi-identifier, the sensitive column, kept or dropped.
    drop : str or list of str, optional
        Columns left out of the release.
    keep_rest : bool, default False
        Keep every column not otherwise classified, with an
        :class:`~skyprivacy.errors.UnanalysedColumnWarning` naming the columns copied
        unanalysed (without it, an unclassified column is an error).
    whitespace : {'strip', 'keep'}, default 'strip'
        How text is compared (as in :func:`skyline_anonymize`); ``'keep'`` works with
        ``method='mondrian'`` (full-domain search compares text with ``'strip'``).

    Returns
    -------
    AnonymizeResult
        ``.table``, ``.suppressed``, ``.levels`` (full-domain), ``.candidate``,
        ``.nodes_checked``, ``.lattice_size``, ``.classification``, ``.to_frame()``.

    Raises
    ------
    InvalidParameterError
        For a bad parameter, or a criterion the chosen method does not support.
    InfeasibleError
        If no release satisfies the criteria (for Mondrian: the whole table as one group
        fails one).

    Notes
    -----
    Mondrian splits a group when every child satisfies every per-group criterion (judged
    against the table's sensitive distribution, which t-closeness, beta-likeness and
    delta-disclosure read), the skyline rule of Fig. 4 accepts the split, and the release
    with it still satisfies the criteria of class sizes.  With a budget of B =
    floor(suppression_limit x rows), a group without such a split may take one whose
    failing children hold at most the rows still left of B and not the whole group: those
    children are suppressed, and never split again (groups are served one level at a time
    in queue order, each with its first such split in priority order).  Suppression thus
    buys the splits a few outlier rows block, as in ARX and lighthouse.  Whatever the
    criteria (monotone or not: population uniqueness is a model estimate), the released
    table, with its masked group under ``suppressed='mask'``, is evaluated by every
    criterion before it is returned; if a check fails (the suppressed rows shifted the
    distribution a per-group criterion compares with, or the masked group is unsafe), the
    search is run again with half the budget, down to none, where every split was judged
    against exactly what is released.

    References
    ----------
    Chen, LeFevre and Ramakrishnan (2009), Sect. 6.2; LeFevre, DeWitt and Ramakrishnan
    (2006); Samarati (2001); Kohlmayer et al. (2012).

    Examples
    --------
    >>> from skyprivacy.criteria import KAnonymity
    >>> t = pd.DataFrame({"sex": ["F", "F", "M", "M"], "zip": ["1", "2", "1", "2"],
    ...                   "dx": ["a", "b", "a", "b"]})
    >>> anonymize(t, qi=["sex", "zip"], sensitive="dx", criteria=[KAnonymity(2)],
    ...           method="full-domain").levels
    {'sex': 0, 'zip': 1}
    >>> anonymize(t, qi=["sex", "zip"], sensitive="dx", criteria=[KAnonymity(2)]
    ...           ).candidate.sizes_array.tolist()
    [2, 2]
    """
    owner = "anonymize"
    if method not in METHODS:
        raise param_error("method", owner, f"be one of {list(METHODS)}", method)
    if whitespace not in WHITESPACE:
        raise param_error("whitespace", owner, f"be one of {list(WHITESPACE)}", whitespace)
    engine = partitioned_engine(table)
    if engine is None and not isinstance(table, pd.DataFrame):
        raise param_error("table", owner, "be a pandas DataFrame", type(table).__name__)
    if method == "mondrian":  # the options first, then the roles of the columns
        check_local_rows(local_rows, owner)
        mondrian_criteria(criteria, owner)
        if suppressed not in SUPPRESSED:
            raise param_error("suppressed", owner, f"be one of {list(SUPPRESSED)}",
                              suppressed)
    classification, table = classified(table, qi=qi, sensitive=sensitive, keep=keep, drop=drop,
                                       keep_rest=keep_rest, owner=owner)
    if method == "full-domain":
        return attach(full_domain_search(
            table, qi=qi, sensitive=sensitive, criteria=criteria, hierarchies=hierarchies,
            objective=objective, suppression_limit=suppression_limit, suppressed=suppressed,
            semantics=semantics, missing=missing, frontier=frontier, whitespace=whitespace),
            classification)
    if engine is not None:
        return attach(engine.anonymize(table, qi=qi, sensitive=sensitive, criteria=criteria,
                                       suppression_limit=suppression_limit,
                                       suppressed=suppressed, hierarchies=hierarchies,
                                       semantics=semantics, missing=missing, split=split,
                                       local_rows=local_rows, whitespace=whitespace),
                      classification)
    budget = suppression_budget(suppression_limit, len(table), owner)
    return attach(mondrian_search(lambda: PandasEngine(table), qi=qi, sensitive=sensitive,
                                  criteria=criteria, hierarchies=hierarchies,
                                  semantics=semantics, split=split, budget=budget,
                                  mask=suppressed == "mask", missing=missing,
                                  whitespace=whitespace), classification)
