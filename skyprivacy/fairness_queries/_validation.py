"""Input validation shared by the fairness-query audit (spec fairness-queries §9.3).

Every public function of :mod:`skyprivacy.fairness_queries` validates at its boundary with
these helpers, so one bad input produces the same one-line message everywhere.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction

import numpy as np

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


def check_int(value, *, name: str, owner: str, minimum: int, requirement: str | None = None
              ) -> int:
    """A Python int >= minimum (numpy integers accepted, booleans and floats refused)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise param_error(name, owner, requirement or f"be an integer >= {minimum}", value)
    value = int(value)
    if value < minimum:
        raise param_error(name, owner, requirement or f"be an integer >= {minimum}", value)
    return value


def check_sizes(n, n0, *, owner: str, n_name: str = "n", n0_name: str = "n0") -> tuple[int, int]:
    """Validate a data-set size n >= 3 and a group size 1 <= n0 <= n - 1 (spec §3.2, §9.2)."""
    n = check_int(n, name=n_name, owner=owner, minimum=3,
                  requirement="be an integer >= 3 (the sensitivity bounds assume n >= 3)")
    if isinstance(n0, (bool, np.bool_)) or not isinstance(n0, numbers.Integral):
        raise param_error(n0_name, owner, f"be an integer in [1, {n_name} - 1]", n0)
    n0 = int(n0)
    if n0 in (0, n):
        raise DegenerateGroupError(
            f"The '{n0_name}' parameter of {owner} leaves a group empty ({n0_name} = {n0}, "
            f"{n_name} = {n}): statistical parity is undefined."
        )
    if not 1 <= n0 <= n - 1:
        raise param_error(n0_name, owner, f"be an integer in [1, {n_name} - 1] = [1, {n - 1}]",
                          n0)
    return n, n0


def check_real(value, *, name: str, owner: str, requirement: str,
               low: float | None = None, high: float | None = None,
               low_open: bool = True, high_open: bool = True, allow_inf: bool = False) -> float:
    """A real number inside an interval, returned as a Python float."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, Fraction)):
        raise param_error(name, owner, requirement, value)
    x = float(value)
    if math.isnan(x) or (math.isinf(x) and not allow_inf):
        raise param_error(name, owner, requirement, value)
    if low is not None and (x < low or (low_open and x == low)):
        raise param_error(name, owner, requirement, value)
    if high is not None and (x > high or (high_open and x == high)):
        raise param_error(name, owner, requirement, value)
    return x


def check_choice(value, choices, *, name: str, owner: str):
    """One of a fixed set of options."""
    if value not in choices:
        raise param_error(name, owner, f"be one of {list(choices)}", value)
    return value


def check_random_state(random_state, *, owner: str) -> np.random.Generator:
    """None, an int seed or a numpy Generator, as a Generator (never the global RNG)."""
    if random_state is None:
        return np.random.default_rng()
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool) \
            and int(random_state) >= 0:
        return np.random.default_rng(int(random_state))
    raise param_error("random_state", owner,
                      "be None, a non-negative int seed or a numpy.random.Generator",
                      random_state)


def readonly(array: np.ndarray) -> np.ndarray:
    """Mark an array read-only so frozen result objects stay frozen."""
    array.setflags(write=False)
    return array
