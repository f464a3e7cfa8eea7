"""Boundary pieces shared by the group-tagging modules (one message per bad input).

The options of every public function are declared with :mod:`skyprivacy._core.validation`;
what is checked here is the data: the table (beyond its type, declared as :data:`FRAME`) and
the column names a parameter lists.
"""

from __future__ import annotations

import pandas as pd

from ..._core.encoding import column_names, sorted_uniques
from ..._core.exact import native
from ..._core.validation import InstanceOf, Interval, RandomState
from ...errors import SchemaError, param_error

__all__: list[str] = []

#: The declared type of every ``table`` parameter.
FRAME = InstanceOf(pd.DataFrame, name="a pandas DataFrame")
#: A count that must be at least 1.
POSITIVE = Interval("integer", 1)
#: The number of attribute groups (shufflers per class).
GROUPS = Interval("integer", 2, note="the paper requires S > 1")
#: A batch size.
BATCH_SIZE = Interval("integer", 2, note="a batch of 1 row is not shuffled")
#: Every ``random_state``.
RANDOM_STATE = RandomState()


def check_table(table: pd.DataFrame, *, owner: str) -> pd.DataFrame:
    """A non-empty DataFrame with distinct column names (never copied, never modified); its
    type is declared (:data:`FRAME`)."""
    if len(table) == 0:
        raise SchemaError(f"The table is empty: {owner} needs at least one row.")
    if not table.columns.is_unique:
        duplicated = sorted(set(table.columns[table.columns.duplicated()].tolist()))
        raise SchemaError(f"The table has duplicate column names {duplicated}; {owner} needs "
                          "distinct column names.")
    return table


def column_list(value, *, name: str, owner: str, allow_empty: bool = False) -> list:
    """A column name or an iterable of column names as a list of distinct names."""
    names = column_names(value, name=name, owner=owner, allow_empty=allow_empty)
    if len(set(names)) != len(names):
        raise param_error(name, owner, "name distinct columns", value)
    return names


def require_complete(cells: pd.Series, *, remedy: str, role: str | None = None) -> None:
    """The one SchemaError for a column with missing values: ``Column 'x' (the <role>) has n
    missing value(s); <remedy>``."""
    n_missing = int(cells.isna().sum())
    if n_missing:
        what = f"Column {cells.name!r}" + (f" (the {role})" if role else "")
        raise SchemaError(f"{what} has {n_missing} missing value(s); {remedy}")


def sorted_labels(values) -> list:
    """Distinct labels as native Python objects, sorted when they compare, else first seen."""
    return sorted_uniques(native(v) for v in values)
