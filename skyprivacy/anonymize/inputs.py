"""The input checks of an anonymization, shared by every engine, in one order.

Both engines check a call the same way, so a bad call fails with the same message whether the
table is a pandas frame or a Dask frame: parameters that need no data first, then the columns
(by name), then what one read of the table tells (its length, the missing values of every
column read, the distinct cells of every quasi-identifier), then the options and the QI kinds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from .._core.classification import Classification, classify_columns
from .._core.encoding import require_columns
from ..errors import InvalidParameterError, SchemaError, param_error
from ..check import SkylineCheckResult
from ..knowledge import Policy
from .._core.canonical import WHITESPACE
from ..release import (
    MISSING_OPTIONS,
    check_qi_and_sensitive,
    check_whitespace,
    check_semantics,
    missing_values_error,
)
from .encoders import category_orders, qi_kinds
from .rules import SPLITS

__all__ = ["OUTPUTS", "TableFacts", "Checked", "check_anonymization", "check_columns", "classified",
           "check_options", "check_group_column", "label_length_of", "check_local_rows",
           "check_k", "attach"]

OUTPUTS = ("generalized", "bucketized")


@dataclass
class TableFacts:
    """What one read of a table tells the checks: its length, the missing values of every
    column read (in the order read), and every quasi-identifier's distinct cells with their
    counts (:func:`~.encoders.distinct_cells`)."""

    n_rows: int
    n_missing: list
    distinct: dict


@dataclass
class Checked:
    """The checked inputs of an anonymization."""

    qi: list
    policy: Policy
    semantics: str
    hierarchies: dict
    kinds: dict
    orders: dict
    label_length: int | None
    facts: TableFacts
    whitespace: str = "strip"  # how text is compared (docs/canonical-text.md)


def check_anonymization(table, facts: Callable[[list], TableFacts], *, qi, sensitive,
                        policy, hierarchies, semantics, split, output, group_column, missing,
                        numeric, categorical, order, label_length, owner: str,
                        columns=None, whitespace: str = "strip") -> Checked:
    """Every check of :func:`~.api.skyline_anonymize` (and, with the identity marker as the
    sensitive column, of :func:`~.api.k_anonymize`), in order; ``facts(qi)`` reads the table
    once; ``columns`` (default ``table``) is the frame whose column names are checked;
    ``whitespace`` is how text is compared (:func:`skyprivacy.release.check_whitespace`).

    Raises
    ------
    InvalidParameterError, SchemaError
        The first bad parameter, missing column, empty table or missing value."""
    if missing not in MISSING_OPTIONS:
        raise param_error("missing", owner, f"be one of {list(MISSING_OPTIONS)}", missing)
    if whitespace is None or check_whitespace(whitespace, owner) is None:
        raise param_error("whitespace", owner, f"be one of {list(WHITESPACE)}", whitespace)
    qi = check_columns(table if columns is None else columns, qi, sensitive, owner)
    read = facts(qi)
    if read.n_rows == 0:
        raise SchemaError("The table is empty: there is nothing to anonymize.")
    if missing == "error":
        for column, n_missing in zip([*qi, sensitive], read.n_missing):
            if n_missing:
                raise missing_values_error(column, n_missing)
    policy, semantics, hierarchies = check_options(policy, semantics, split, output,
                                                   hierarchies, qi, owner)
    check_group_column(table, output, group_column)
    kinds = qi_kinds(read.distinct, qi, hierarchies, numeric=numeric, categorical=categorical,
                     owner=owner)
    orders = category_orders({name: read.distinct[name][0] for name in qi}, qi, kinds, order,
                             owner=owner, whitespace=whitespace)
    return Checked(qi, policy, semantics, hierarchies, kinds, orders,
                   label_length_of(label_length, owner), read, whitespace)


def check_columns(table, qi, sensitive, owner: str) -> list:
    """The quasi-identifiers as a list, once they and ``sensitive`` are checked to be distinct
    columns of ``table`` (any frame with ``.columns``: no pass over the data)."""
    if isinstance(qi, str):
        qi = [qi]
    if qi is None or not list(qi):
        raise param_error("qi", owner, "name at least one column", qi)
    qi = list(qi)
    require_columns(table, [*qi, sensitive])
    check_qi_and_sensitive(qi, sensitive, owner)
    return qi


def classified(table, *, qi, sensitive, keep, drop, keep_rest, owner: str):
    """The classification of every column of ``table`` (:func:`skyprivacy._core.classification.
    classify_columns`) and the table to anonymize: ``table`` without its dropped columns (any
    frame with ``.columns``; nothing is read).  The QIs and the sensitive column are checked
    to be columns first, so a misspelled one is named as missing, not its intended column as
    unclassified; ``sensitive`` None (k-anonymity) has none.

    Raises
    ------
    InvalidParameterError, SchemaError
        A missing QI or sensitive column; an unclassified column, one given two roles, or a
        ``keep`` / ``drop`` name the table lacks."""
    if sensitive is None:
        listed = [qi] if isinstance(qi, str) else qi
        if listed is None or isinstance(listed, Mapping) or not hasattr(listed, "__iter__") \
                or not list(listed):
            raise param_error("qi", owner, "name at least one column", qi)
        require_columns(table, list(listed))
    else:
        check_columns(table, qi, sensitive, owner)
    classification = classify_columns(table.columns, qi=qi, sensitive=sensitive, keep=keep,
                                      drop=drop, keep_rest=keep_rest, owner=owner)
    return classification, classification.select(table)


def attach(result, classification: Classification):
    """``result`` (a dataclass result of an anonymization) with its ``classification``; the
    skyline certificate's :meth:`~skyprivacy.check.SkylineCheckResult.explain` shows it."""
    import dataclasses

    certificate = getattr(result, "certificate", None)
    if isinstance(certificate, SkylineCheckResult):
        certificate.with_classification(classification)
    return dataclasses.replace(result, classification=classification)


def check_options(policy, semantics, split, output, hierarchies, qi: list,
                  owner: str) -> tuple[Policy, str, dict]:
    """The checked (policy, semantics, hierarchies) of an anonymization, after ``split`` and
    ``output`` are checked: a mapping becomes a Policy, and every hierarchy is a Hierarchy of
    a quasi-identifier."""
    if isinstance(policy, Mapping) and not isinstance(policy, Policy):
        policy = Policy(policy)
    if not isinstance(policy, Policy):
        raise param_error("policy", owner, "be a Policy", type(policy).__name__)
    semantics = check_semantics(semantics, owner)
    if split not in SPLITS:
        raise param_error("split", owner, f"be one of {list(SPLITS)}", split)
    if output not in OUTPUTS:
        raise param_error("output", owner, f"be one of {list(OUTPUTS)}", output)
    if hierarchies is None:
        hierarchies = {}
    if not isinstance(hierarchies, Mapping):
        raise param_error("hierarchies", owner, "be a mapping of column -> Hierarchy",
                          type(hierarchies).__name__)
    from ..hierarchy import Hierarchy
    for name, hierarchy in hierarchies.items():
        if name not in qi:
            raise InvalidParameterError(
                f"A hierarchy is given for {name!r}, which is not a quasi-identifier; "
                f"quasi-identifiers are {qi!r}.")
        if not isinstance(hierarchy, Hierarchy):
            raise param_error("hierarchies", owner, f"map {name!r} to a Hierarchy",
                              type(hierarchy).__name__)
    return policy, semantics, dict(hierarchies)


def check_group_column(table, output: str, group_column: str) -> None:
    """A bucketized release adds ``group_column``: it must not be a column of ``table``."""
    if output == "bucketized" and group_column in table.columns:
        raise InvalidParameterError(
            f"The bucket column {group_column!r} already exists in the table; pass another "
            f"group_column.")


def label_length_of(label_length, owner: str) -> int | None:
    """The validated ``label_length`` option (None: every set listed in full)."""
    if label_length is None:
        return None
    if (isinstance(label_length, (bool, np.bool_))
            or not isinstance(label_length, (int, np.integer)) or label_length < 0):
        raise param_error("label_length", owner, "be a non-negative integer or None",
                          label_length)
    return int(label_length)


def check_local_rows(local_rows, owner: str, default: int | None = None) -> int | None:
    """``local_rows`` (dask frames only): None (then ``default``) or a positive integer."""
    if local_rows is None:
        return default
    if (isinstance(local_rows, (bool, np.bool_)) or not isinstance(local_rows, (int, np.integer))
            or local_rows < 1):
        raise param_error("local_rows", owner, "be a positive integer", local_rows)
    return int(local_rows)


def check_k(k, split, owner: str) -> int:
    """k-anonymity's ``k`` (an integer >= 2) and ``split``, checked before anything else."""
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) or k < 2:
        raise param_error("k", owner, "be an integer >= 2", k)
    if split not in SPLITS:
        raise param_error("split", owner, f"be one of {list(SPLITS)}", split)
    return int(k)
