"""Input validation of the fairness-query audit's data (spec fairness-queries §9.3).

The options of every public function are declared with :mod:`skyprivacy._core.validation`;
what is checked here is the data: 0/1 label vectors, prediction matrices, and the group sizes
the sensitivities are defined for, so one bad input produces the same one-line message
everywhere.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .._core.validation import Interval, check
from ..errors import DegenerateGroupError, param_error

__all__: list[str] = []

_SLICE_NAMES = {None: "", 1: " in the slice y=1", 0: " in the slice y=0"}
_SLICE_SUFFIX = {None: "", 1: "^+", 0: "^-"}


def found_values(values: np.ndarray, limit: int = 10) -> list:
    """The distinct values of an array as native Python objects, sorted when possible."""
    flat = values.ravel().tolist()
    distinct = list(dict.fromkeys(flat))
    try:
        distinct.sort()
    except TypeError:  # mixed types: keep first-seen order
        pass
    return distinct[:limit]


def check_binary_vector(values, *, name: str, owner: str, length: int | None = None,
                        length_name: str = "len(a)") -> np.ndarray:
    """A 1-D vector of 0/1 labels (booleans accepted) as an int8 array (a fresh copy)."""
    array = np.asarray(values)
    if array.ndim != 1:
        raise param_error(name, owner, "be one-dimensional", f"an array of shape {array.shape}")
    if array.size == 0:
        raise param_error(name, owner, "be non-empty", [])
    if length is not None and array.size != length:
        raise param_error(name, owner, f"have length {length_name} = {length}",
                          f"length {array.size}")
    if array.dtype == bool:
        return array.astype(np.int8)
    if array.dtype.kind in "iuf":
        ok = (array == 0) | (array == 1)
        if ok.all():
            return array.astype(np.int8)
    else:
        try:
            ok = np.array([isinstance(v, (numbers.Integral, float, np.bool_, bool))
                           and not (isinstance(v, float) and math.isnan(v))
                           and v in (0, 1) for v in array.tolist()])
        except TypeError:
            ok = np.zeros(array.size, dtype=bool)
        if ok.all():
            return np.asarray(array.tolist(), dtype=np.int8)
    raise param_error(name, owner, "contain only the labels 0 and 1 (booleans accepted)",
                      f"values {found_values(array)}")


def check_predictions(preds, n: int, *, owner: str, name: str = "preds",
                      length_name: str = "len(a)") -> tuple[np.ndarray, bool]:
    """Predictions as a float (m, n) array in [0, 1]; also whether the input was 1-D."""
    try:
        array = np.array(preds, dtype=float)  # a copy: the caller's array is never touched
    except (TypeError, ValueError):
        raise param_error(name, owner, "be numeric predictions in [0, 1]",
                          f"values {found_values(np.asarray(preds, dtype=object))}") from None
    if array.ndim not in (1, 2):
        raise param_error(name, owner, "be one- or two-dimensional (n,) or (m, n)",
                          f"an array of shape {array.shape}")
    if array.shape[-1] != n:
        raise param_error(name, owner, f"have last dimension {length_name} = {n}",
                          f"shape {array.shape}")
    bad = ~((array >= 0.0) & (array <= 1.0))  # NaN fails both comparisons
    if bad.any():
        position = tuple(int(i) for i in np.argwhere(bad)[0])
        value = float(array[position])
        where = position[0] if array.ndim == 1 else position
        raise param_error(name, owner, "be in [0, 1] without NaN",
                          f"{value} at position {where}")
    was_1d = array.ndim == 1
    return (array[None, :] if was_1d else array), was_1d


def check_group_sizes(a: np.ndarray, *, metric: str, slice_label: int | None = None
                      ) -> tuple[int, int]:
    """Return (N_0, N_1) of the labels ``a``; raise DegenerateGroupError if a group is empty."""
    n1 = int(a.sum())
    n0 = int(a.size - n1)
    if n0 == 0 or n1 == 0:
        empty = 0 if n0 == 0 else 1
        sfx = _SLICE_SUFFIX[slice_label]
        raise DegenerateGroupError(
            f"The {metric} is undefined: group a={empty} is empty{_SLICE_NAMES[slice_label]} "
            f"(N_0{sfx} = {n0}, N_1{sfx} = {n1})."
        )
    return n0, n1


#: A data-set size: every sensitivity bound assumes at least three individuals.
SIZE = Interval("integer", 3, note="the sensitivity bounds assume n >= 3")
#: The number of queries answered together.
QUERIES = Interval("integer", 1, note="the number of queries")


def check_sizes(n, n0, *, owner: str, n_name: str = "n", n0_name: str = "n0") -> tuple[int, int]:
    """Validate a data-set size n >= 3 and a group size 1 <= n0 <= n - 1 (spec §3.2, §9.2)."""
    n = check(n, SIZE, name=n_name, owner=owner)
    range_text = f"be an integer in [1, {n_name} - 1]"
    n0 = check(n0, Interval("integer", text=range_text), name=n0_name, owner=owner)
    if n0 in (0, n):
        raise DegenerateGroupError(
            f"The '{n0_name}' parameter of {owner} leaves a group empty ({n0_name} = {n0}, "
            f"{n_name} = {n}): statistical parity is undefined."
        )
    check(n0, Interval("integer", 1, n - 1, text=f"{range_text} = [1, {n - 1}]"),
          name=n0_name, owner=owner)
    return n, n0


def readonly(array: np.ndarray) -> np.ndarray:
    """Mark an array read-only so frozen result objects stay frozen."""
    array.setflags(write=False)
    return array
