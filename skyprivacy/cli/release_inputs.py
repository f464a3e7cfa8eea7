"""The inputs of the release commands (check, anonymize, find, compare): the release model
from the table, the policy and value checks against the data, the hierarchies, orders and
set-label file given by options, and the HTML report page."""

from __future__ import annotations

import difflib
import functools
import os

import numpy as np
import pandas as pd

from .._core.classification import Classification, classify_columns
from ..errors import UsageError
from .. import hierarchy
from ..io import InputError, OutputFiles, read_hierarchy, reject_missing, require_columns
from ..labels import labels_bytes, labels_record
from .._core.canonical import canonical_text
from ..release import ReleaseCandidate
from .argtypes import interval_widths, mask_count
from .context import na_values


def load_release(args, raw: pd.DataFrame) -> ReleaseCandidate:
    """The release model of the table argument (``--qi`` or ``--group``)."""
    keys = list(args.qi) if args.qi else [args.group]
    columns = keys + [args.sensitive] + ([args.individual] if args.individual else [])
    if len(set(columns)) != len(columns):
        raise UsageError(f"the grouping columns, --sensitive and --individual must be distinct "
                         f"columns; got {columns}")
    require_columns(raw, columns)
    reject_missing(raw, columns, na_values(args))
    return ReleaseCandidate.from_table(raw, sensitive=args.sensitive, qi=args.qi,
                                       group=args.group, individual=args.individual,
                                       semantics=args.semantics,
                                       whitespace=getattr(args, "whitespace", "strip"))


def column_roles(args, raw) -> Classification:
    """The role of every column of the table argument: --qi (or --group), --sensitive,
    --individual, --keep and --drop account for each, or --keep-rest copies the rest
    unanalysed; else a usage error (exit 2) listing the unclassified columns.  Call it after
    the QI and sensitive columns are checked to exist, so a misspelled one is named."""
    return classify_columns(raw.columns, qi=args.qi or [], sensitive=args.sensitive,
                            keep=args.keep, drop=args.drop, keep_rest=args.keep_rest,
                            others=[getattr(args, "group", None),
                                    getattr(args, "individual", None)],
                            owner=f"skyprivacy {args.command}", style="cli")


def _unknown_value_error(value, present: list, column: str, what: str) -> InputError:
    texts = sorted(str(v) for v in present)
    close = difflib.get_close_matches(str(value), texts, n=1)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    shown = ", ".join(repr(v) for v in texts[:8]) + (", ..." if len(texts) > 8 else "")
    return InputError(f"{what} {value!r} does not occur in column {column!r}.{hint} Values "
                      f"there: [{shown}].")


def check_policy_values(policy, present, column: str,
                        whitespace: str | None = None) -> None:
    """Every value the policy names occurs in the sensitive column, else an
    :class:`InputError` that suggests the closest one; with ``whitespace``, a value is
    looked up in canonical form (:mod:`skyprivacy._core.canonical`), as the release
    compares text."""
    present = list(present)
    known = {str(canonical_text(value, whitespace)) for value in present}
    for value in policy.values:
        if str(canonical_text(value, whitespace)) not in known:
            raise _unknown_value_error(value, present, column, "Policy value")


def check_values(values, present, column: str) -> None:
    """Every ``--values`` value occurs in the sensitive column, else an
    :class:`InputError` that suggests the closest one."""
    present = list(present)
    known = set(map(str, present))
    for value in values or ():
        if value not in known:
            raise _unknown_value_error(value, present, column, "Value")


def _shortcut(source: str) -> str | None:
    """'mask' or 'intervals' for the --hierarchy shortcuts built from the data, else None."""
    kind = source.partition(":")[0]
    return kind if kind in ("mask", "intervals") else None


def given_hierarchies(args) -> dict:
    """The hierarchies read from files and bundled references (the shortcuts are built from
    the table by :func:`built_hierarchies`)."""
    out, seen = {}, set()
    every = [source for column, source in args.hierarchy if column is None]
    if len(every) > 1:
        raise UsageError(f"--hierarchy {every[1]} is given twice")
    for column, source in args.hierarchy:
        if column is None:
            continue
        if column not in args.qi:
            raise UsageError(f"--hierarchy is given for {column!r}, which is not in --qi "
                             f"{','.join(args.qi)}")
        if column in seen:
            raise UsageError(f"--hierarchy is given twice for {column!r}")
        seen.add(column)
        if _shortcut(source) is None:
            out[column] = read_hierarchy(source, column=column, sep=args.hierarchy_sep)
    for column in args.qi if every else ():  # bundled:DATASET for every QI not named
        if column not in seen:
            out[column] = read_hierarchy(every[0], column=column, sep=args.hierarchy_sep)
    for column in args.categorical:
        if column not in args.qi:
            raise UsageError(f"--categorical names {column!r}, which is not in --qi "
                             f"{','.join(args.qi)}")
    return out


def built_hierarchies(args, table: pd.DataFrame, hierarchies: dict) -> dict:
    """``hierarchies`` with the ``COL=mask:N`` and ``COL=intervals:WIDTH`` shortcuts built
    from the table's cells (:func:`skyprivacy.hierarchy.masking`,
    :func:`skyprivacy.hierarchy.intervals`)."""
    out = dict(hierarchies)
    for column, source in args.hierarchy:
        kind = _shortcut(source)
        if kind is None or column is None:
            continue
        spec = f"--hierarchy {column}={source}"
        argument = source.partition(":")[2]
        cells = pd.unique(table[column].astype(str))
        if kind == "mask":
            lengths = sorted({len(cell) for cell in cells})
            if len(lengths) > 1:
                short = next(c for c in cells if len(c) == lengths[0])
                long = next(c for c in cells if len(c) == lengths[-1])
                raise InputError(f"Table {args.table!r}: {spec} needs codes of one length in "
                                 f"column {column!r}; {short!r} has {lengths[0]} character(s) "
                                 f"but {long!r} has {lengths[-1]}.")
            count = mask_count(argument, spec)
            if count > lengths[0]:
                raise UsageError(f"{spec} masks {count} characters, but the codes of column "
                                 f"{column!r} in {args.table!r} have {lengths[0]}")
            # masking every character is the root '*' itself
            out[column] = hierarchy.masking(cells, levels=range(1, min(count, lengths[0] - 1)
                                                                + 1), name=column)
        else:
            numbers = pd.to_numeric(pd.Series(cells).str.strip(), errors="coerce")
            bad = [c for c, n in zip(cells, numbers) if not np.isfinite(n)]
            if bad:
                raise InputError(f"Table {args.table!r}: {spec} needs finite numbers in column "
                                 f"{column!r}; {len(bad)} distinct cell(s) are not, e.g. "
                                 f"{bad[:3]!r}.")
            order = np.argsort(numbers.to_numpy(), kind="stable")
            cells, numbers = [cells[i] for i in order], numbers.to_numpy()[order].tolist()
            numbers = [int(n) if float(n).is_integer() and abs(n) < 2**53 else n
                       for n in numbers]
            tree = hierarchy.intervals(numbers, interval_widths(argument, spec), name=column)
            # leaves are the cells as written ('007', '1e1'), under their numbers' intervals
            levels = [tree.generalize(numbers, level) for level in range(1, tree.height + 1)]
            rows = [[cell, *(labels[i] for labels in levels)] for i, cell in enumerate(cells)]
            out[column] = hierarchy.from_levels(rows, name=column)
    return out


def orders(args):
    """The ``order`` of :func:`skyline_anonymize` from the --order options."""
    every = [rule for column, rule in args.order if column is None]
    per_column = [(column, rule) for column, rule in args.order if column is not None]
    if len(every) > 1:
        raise UsageError("--order RULE is given twice")
    if every and per_column:
        raise UsageError("give one --order RULE for every categorical quasi-identifier, or "
                         "--order COL=... per column, not both")
    if every:
        return every[0]
    out = {}
    for column, rule in per_column:
        if column not in args.qi:
            raise UsageError(f"--order is given for {column!r}, which is not in --qi "
                             f"{','.join(args.qi)}")
        if column in out:
            raise UsageError(f"--order is given twice for {column!r}")
        out[column] = rule
    return out or None


def labels_output(args, output: str | None) -> str | None:
    """Where the set-label file of a generalized release goes (beside ``output``)."""
    if output is None:
        if args.labels:
            raise UsageError("--labels needs --output: it lists the sets of the released table")
        return None
    if getattr(args, "bucketized", False):
        if args.labels:
            raise UsageError("--labels has no use with --bucketized: a bucketized release keeps "
                             "its quasi-identifier values")
        return None
    return args.labels or os.path.splitext(output)[0] + ".labels.json"


def stage_labels(out: OutputFiles, path: str | None, output: str, set_labels: dict):
    """Stage the set-label file when the release publishes a digest; its certificate record."""
    if path is None or not set_labels:
        return None
    data = labels_bytes(set_labels)
    out.add(path, data)
    folder = os.path.dirname(os.path.abspath(output))
    return labels_record(data, os.path.relpath(os.path.abspath(path), folder))


def original_table(args, raw: pd.DataFrame, hierarchies: dict) -> pd.DataFrame:
    """The input as read (text): the anonymization decides which QIs are numbers."""
    if len(set(args.qi) | {args.sensitive}) != len(args.qi) + 1:
        raise UsageError(f"--sensitive {args.sensitive} is also in --qi")
    require_columns(raw, [*args.qi, args.sensitive])
    reject_missing(raw, [*args.qi, args.sensitive], na_values(args))
    return raw  # which QIs are numbers: skyprivacy.anonymize.encoders.qi_kinds decides


def report_page(ctx, certificate, release, result, source, risk=None) -> bytes:
    """The HTML report of a release: its certificate and the knowledge skylines of
    its most exposed values (and, given ``risk`` figures, its identity risk)."""
    from ..report import render_report, report_skylines

    args = ctx.args
    bar = ctx.progress("drawing knowledge skylines")
    try:
        skylines = report_skylines(release, result, c=args.report_confidence,
                                   n_values=args.report_values, progress=bar)
    finally:
        bar.close()
    return render_report(certificate, release, skylines=skylines, source=source,
                         images=args.report_images, risk=risk).encode("utf-8")


def policy_criteria(args) -> list:
    """The criteria of ``skyprivacy anonymize``: the policy file's (its skyline policy
    first, then its ``[criteria]`` section) and the criterion flags', combined with AND."""
    from ..io import read_criteria

    given = read_criteria(args.policy) if args.policy else []
    return given + [*args.k, *args.l_diversity, *args.t_closeness]


def suppression_reasons(table: pd.DataFrame, result, criteria: list, hierarchies: dict, args
                        ) -> list | None:
    """Why the rows of a full-domain release were suppressed: every QI-group of the table
    generalized to the chosen levels that fails a per-group criterion, with its labels, rows
    and the criteria it fails (recomputed here from the table and the hierarchies, apart
    from the search); None when nothing was suppressed, for a Mondrian release, or when the
    groups do not account for the suppressed rows."""
    if not result.suppressed or result.levels is None:
        return None
    columns = table[[*args.qi, args.sensitive]]
    generalize = functools.partial(_at_levels, levels=result.levels, hierarchies=hierarchies,
                                   whitespace=args.whitespace)
    # a dask frame is generalized partition by partition and grouped on the cluster
    generalized = (generalize(columns) if isinstance(columns, pd.DataFrame) else
                   columns.map_partitions(generalize, meta={c: object for c in columns}))
    release = ReleaseCandidate.from_table(generalized, qi=args.qi, sensitive=args.sensitive,
                                          semantics=args.semantics, whitespace=args.whitespace)
    per_group = [c for c in criteria if c.per_group]
    verdicts = [np.asarray(c.evaluate(release).group_safe, dtype=bool) for c in per_group]
    sizes = release.sizes_array
    reasons: list[dict] = []
    for g, label in enumerate(release.group_labels):
        fails = [repr(c) for c, ok in zip(per_group, verdicts) if not ok[g]]
        if fails:
            labels = label if isinstance(label, tuple) else (label,)
            reasons.append({"group": {name: str(x) for name, x in zip(args.qi, labels)},
                            "n_rows": int(sizes[g]), "fails": fails})
    if sum(r["n_rows"] for r in reasons) != result.suppressed:
        return None
    return reasons


def _at_levels(frame: pd.DataFrame, *, levels: dict, hierarchies: dict,
               whitespace: str = "strip") -> pd.DataFrame:
    """``frame``'s QIs generalized to a full-domain node's ``levels`` (text matched to the
    leaves under ``whitespace``)."""
    out = frame.astype(object)
    for name, level in levels.items():
        tree = hierarchies.get(name)
        if tree is not None:
            out[name] = pd.Series(tree.generalize(out[name], level, whitespace=whitespace),
                                  index=out.index, dtype=object)
        elif level:  # a QI without a hierarchy has the levels value -> '*'
            out[name] = "*"
    return out


def criteria_report_page(ctx, certificate, release: ReleaseCandidate, policy, source) -> bytes:
    """The HTML report of a release made under combined criteria: its certificate, its
    Anonymization section and, with a skyline policy, the knowledge skylines."""
    from ..check import skyline_check
    from ..report import render_report

    if policy is not None:
        return report_page(ctx, certificate, release, skyline_check(release, policy), source)
    return render_report(certificate, release, source=source,
                         images=ctx.args.report_images).encode("utf-8")
