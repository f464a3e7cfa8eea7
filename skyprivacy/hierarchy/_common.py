"""What the modules of :mod:`skyprivacy.hierarchy` share: the root label and how messages
name a hierarchy and show values.

Numbers, missing markers and parameter checks come from the kernel (:mod:`skyprivacy._core`);
only what is particular to hierarchies lives here.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._core.encoding import is_missing
from .._core.exact import native
from ..errors import InvalidParameterError

__all__ = [
    "ROOT_LABEL",
    "title",
    "native_value",
    "is_blank",
    "shown",
    "described_error",
    "object_array",
]

#: Label of the root made by the builders (:func:`~skyprivacy.hierarchy.intervals` and friends).
ROOT_LABEL = "*"

#: How many offending values a message names before "...".
SHOW = 5


def title(name) -> str:
    """How a message names a hierarchy: ``Hierarchy 'age'``, or ``Hierarchy`` without a name."""
    return f"Hierarchy {name!r}" if name is not None else "Hierarchy"


def native_value(value):
    """A value as messages and results show it: :func:`~skyprivacy._core.exact.native`, except
    that a numpy datetime becomes a :class:`pandas.Timestamp` (``.item()`` would give an int
    for nanosecond datetimes)."""
    if isinstance(value, np.datetime64):
        return pd.Timestamp(value)
    return native(value)


def is_blank(value) -> bool:
    """A missing marker or the empty string: a cell that holds no label."""
    return is_missing(value) or (isinstance(value, str) and value == "")


def shown(values, limit: int = SHOW) -> str:
    """``[a, b, c, ...]`` with native reprs, at most ``limit`` items.

    Examples
    --------
    >>> shown([np.int64(1), "a", None, 4, 5, 6])
    "[1, 'a', None, 4, 5, ...]"
    """
    items = [repr(native_value(v)) for v in values[:limit]]
    if len(values) > limit:
        items.append("...")
    return "[" + ", ".join(items) + "]"


def described_error(name: str, owner: str, requirement: str,
                    described: str) -> InvalidParameterError:
    """The house parameter error when the bad value is better described than shown
    (``Got a DataFrame instead.``, ``Got an array of shape (2,) instead.``)."""
    return InvalidParameterError(
        f"The '{name}' parameter of {owner} must {requirement}. Got {described} instead.")


def object_array(items: list) -> np.ndarray:
    """A 1-D object array of the items (``np.asarray`` would make a list of tuples 2-D)."""
    array = np.empty(len(items), dtype=object)
    array[:] = items
    return array
