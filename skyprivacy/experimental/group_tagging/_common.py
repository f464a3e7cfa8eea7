"""Boundary checks shared by the group-tagging modules (one message per bad input)."""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from ...errors import SchemaError, param_error
from ...release import require_columns

__all__: list[str] = []


def check_frame(df, *, owner: str, name: str = "df") -> pd.DataFrame:
    """A non-empty DataFrame with distinct column names (never copied, never modified)."""
    if not isinstance(df, pd.DataFrame):
        raise param_error(name, owner, "be a pandas DataFrame", type(df).__name__)
    if len(df) == 0:
        raise SchemaError(f"The table is empty: {owner} needs at least one row.")
    if not df.columns.is_unique:
        duplicated = sorted(set(df.columns[df.columns.duplicated()].tolist()))
        raise SchemaError(f"The table has duplicate column names {duplicated}; {owner} needs "
                          "distinct column names.")
    return df


def column_list(value, *, name: str, owner: str, allow_empty: bool = False) -> list:
    """A column name or an iterable of column names as a list of distinct names."""
    if isinstance(value, str):
        names = [value]
    else:
        try:
            names = list(value)
        except TypeError:
            raise param_error(name, owner, "be a column name or a list of column names",
                              value) from None
    if not allow_empty and not names:
        raise param_error(name, owner, "name at least one column", value)
    if len(set(names)) != len(names):
        raise param_error(name, owner, "name distinct columns", value)
    return names


def check_columns(df: pd.DataFrame, names) -> None:
    """The house SchemaError naming the first missing column and the columns that exist."""
    require_columns(df, names)


def native(value):
    """A numpy scalar as the Python scalar it holds (results never leak numpy scalars)."""
    return value.item() if isinstance(value, np.generic) else value


def sorted_labels(values) -> list:
    """Distinct labels as native Python objects, sorted when they compare, else first seen."""
    distinct = list(dict.fromkeys(native(v) for v in values))
    try:
        return sorted(distinct)
    except TypeError:
        return distinct


def is_int(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))
