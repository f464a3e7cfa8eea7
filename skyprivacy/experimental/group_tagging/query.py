"""The declarative query function (spec group-tagging §3.2; paper §2.2, Table 3).

The paper's "query function" maps a natural-language question to the attributes it needs
("How many Hindus live in the urban area with the score in maths greater than ninety
percent?" -> {religion, living area, maths}).  Natural-language parsing is out of scope: a
:class:`QuerySpec` states the attributes, the protected attribute and either a row predicate
(count queries) or a decision target (decision queries).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..._core.encoding import require_columns
from ..._core.validation import Nullable, Options, Predicate, check
from ...errors import InvalidParameterError, SchemaError, param_error
from ._common import column_list

__all__ = ["QuerySpec"]

_KIND = Options("count", "decision")
_PREDICATE = Nullable(Predicate(callable, "be None or a callable row -> bool",
                                invalid="not a callable"))


@dataclass(frozen=True)
class QuerySpec:
    """A count or decision query: which attributes it reads (paper §2.2).

    Parameters
    ----------
    kind : {"count", "decision"}
    attributes : str or list of str
        The attributes the query needs (the paper's Q, c = len(attributes)).
    protected : str or None
        The protected attribute P.  Required for decision queries, whose returned attributes
        always include it ("returned no matter what the question is").
    predicate : callable, optional
        Count queries only: ``row -> bool``, called with each row as a dict restricted to
        ``attributes`` (reading any other column raises).  Without a predicate a count query
        sums the 0/1 bit columns ``attributes`` (the paper's ``C_T``).
    target : str, optional
        Decision queries only, required there: the 0/1 decision column (eligible or not).

    Raises
    ------
    InvalidParameterError
        For a bad kind, empty or duplicated attributes, a predicate on a decision query, a
        target on a count query, a decision query without target or protected attribute, or a
        target that is also an attribute.

    Examples
    --------
    >>> q = QuerySpec("decision", ["maths"], "sex", target="eligible")
    >>> q.returned
    ('maths', 'sex')
    >>> hindus = QuerySpec("count", ["religion", "area", "maths"], "religion",
    ...                    predicate=lambda r: r["religion"] == "Hindu"
    ...                    and r["area"] == "urban" and r["maths"] > 90)
    >>> hindus.returned
    ('religion', 'area', 'maths')
    """

    kind: str
    attributes: tuple
    protected: str | None
    predicate: Callable | None = None
    target: str | None = None

    def __post_init__(self):
        owner = "QuerySpec"
        check(self.kind, _KIND, name="kind", owner=owner)
        attributes = tuple(column_list(self.attributes, name="attributes", owner=owner))
        object.__setattr__(self, "attributes", attributes)
        if self.protected is not None and not isinstance(self.protected, str):
            raise param_error("protected", owner, "be a column name or None", self.protected)
        check(self.predicate, _PREDICATE, name="predicate", owner=owner)
        if self.kind == "decision":
            if self.protected is None:
                raise param_error("protected", owner, "be given for a decision query", None)
            if self.predicate is not None:
                raise param_error("predicate", owner, "be None for a decision query (give "
                                  "target=)", self.predicate)
            if not isinstance(self.target, str):
                raise param_error("target", owner, "be the decision column of a decision "
                                  "query", self.target)
            if self.target in attributes:
                raise param_error("target", owner, "not be one of the attributes",
                                  self.target)
        elif self.target is not None:
            raise param_error("target", owner, "be None for a count query", self.target)

    @property
    def returned(self) -> tuple:
        """The attributes the query function returns: ``attributes``, plus ``protected`` for a
        decision query (paper §2.2, Example 2)."""
        if self.kind == "decision" and self.protected not in self.attributes:
            return self.attributes + (self.protected,)
        return self.attributes


def predicate_mask(table: pd.DataFrame, spec: QuerySpec, *, owner: str) -> np.ndarray:
    """Evaluate a count query's predicate on every row (a bool array).

    The predicate sees only the query's attributes, so a predicate reading another column
    fails here with a SchemaError instead of silently using data the spec does not name.
    """
    predicate = spec.predicate
    assert predicate is not None  # callers evaluate only queries that have a predicate
    columns = list(spec.attributes)
    require_columns(table, columns)
    records = table[columns].to_dict("records")  # plain dicts: fast, and only these keys
    answers = np.empty(len(records), dtype=bool)
    for position, row in enumerate(records):
        try:
            answer = predicate(row)
        except KeyError as err:
            missing = err.args[0] if err.args else err
            raise SchemaError(
                f"The predicate of the count query reads column {missing!r}, which is not "
                f"among its attributes {columns}; list every column it reads in "
                "attributes.") from None
        if not isinstance(answer, (bool, np.bool_)):
            raise InvalidParameterError(
                f"The predicate of the count query must return True or False. Got {answer!r} "
                f"for row {table.index[position]!r} instead.")
        answers[position] = bool(answer)
    return answers
