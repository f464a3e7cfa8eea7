"""One home for exact numbers: how a number the user typed is read, and how one is handed back.

Every quantity a privacy verdict depends on passes through here:

* :func:`decimal_fraction` reads a float as the decimal it prints as (``0.9`` is 9/10, not
  the binary double nearest to it), so a threshold written in decimal behaves exactly as
  written; ints, Fractions and Decimals are exact already.
* :func:`native` hands numpy scalars back as the Python scalars they hold, so no result
  leaks numpy types.
* :data:`REL_TOL` is the one relative slack a float verdict allows at a boundary; exact
  verdicts allow none.
"""

from __future__ import annotations

import math
import numbers
from decimal import Decimal
from fractions import Fraction
from typing import SupportsFloat

import numpy as np

__all__ = [
    "REL_TOL",
    "decimal_fraction",
    "exact_array",
    "as_number",
    "is_real",
    "native",
    "native_number",
    "fraction_text",
    "json_number",
]

#: Relative slack of a float verdict at its boundary (``x <= bound * (1 + REL_TOL)``): float
#: paths that recompute a quantity they promised (a confidence, a beta*) accept this much
#: round-off; the exact paths (Fractions) accept none.
REL_TOL = 1e-9


def is_real(value: object) -> bool:
    """A real number of any numeric type (int, float, Fraction, Decimal, numpy), never a bool."""
    return (isinstance(value, (numbers.Real, Decimal))
            and not isinstance(value, (bool, np.bool_)))


def decimal_fraction(value: object) -> Fraction:
    """A finite real number as an exact Fraction; floats read as the decimal they print as.

    Parameters
    ----------
    value : int, float, Fraction, Decimal or a numpy number
        Booleans are taken as 0 and 1.

    Returns
    -------
    Fraction

    Raises
    ------
    ValueError
        For NaN or an infinity.
    TypeError
        For anything that is not a real number.

    Examples
    --------
    >>> decimal_fraction(0.9), decimal_fraction(3), decimal_fraction(Fraction(2, 3))
    (Fraction(9, 10), Fraction(3, 1), Fraction(2, 3))
    """
    if isinstance(value, (bool, np.bool_)):
        return Fraction(int(value))
    if isinstance(value, (numbers.Integral, np.integer)):
        return Fraction(int(value))
    if isinstance(value, numbers.Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"{value!r} is not a finite number")
        return Fraction(value)
    if not isinstance(value, numbers.Real):
        raise TypeError(f"{value!r} is not a real number")
    as_float = float(value)
    if not math.isfinite(as_float):
        raise ValueError(f"{value!r} is not a finite number")
    return Fraction(repr(as_float))


def exact_array(values) -> np.ndarray:
    """An ``object`` array of Fractions, each read with :func:`decimal_fraction`.

    Examples
    --------
    >>> exact_array([0.1, 2]).tolist()
    [Fraction(1, 10), Fraction(2, 1)]
    """
    flat = [decimal_fraction(v) for v in np.asarray(values, dtype=object).ravel()]
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return out.reshape(np.shape(values))


def as_number(value: SupportsFloat, exact: bool):
    """A float, or on the exact path a Fraction (read with :func:`decimal_fraction`).

    The return is left untyped on purpose: callers mix it into numpy arithmetic on object
    arrays of Fractions, which numpy's stubs cannot express.
    """
    if exact:
        return value if isinstance(value, Fraction) else decimal_fraction(value)
    return float(value)


def native(value: object) -> object:
    """A numpy scalar as the Python scalar it holds; tuples (MultiIndex labels) element-wise.

    Examples
    --------
    >>> native(np.int64(3)), native((np.float64(0.5), "a"))
    (3, (0.5, 'a'))
    """
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, tuple):
        return tuple(native(v) for v in value)
    return value


def native_number(value: object) -> int | float | Fraction:
    """A number as the caller gave it, but native: numpy scalars unwrapped, Decimals as Fractions.

    ``value`` is a real number the caller has validated.  Ints, floats and Fractions come
    back as they are; any other rational as a Fraction, any other real (numpy's long double,
    whose ``.item()`` is itself) as a float.

    Examples
    --------
    >>> native_number(np.float64(0.75)), native_number(Decimal("0.5"))
    (0.75, Fraction(1, 2))
    """
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, Decimal):
        return Fraction(value)
    if isinstance(value, (int, float, Fraction)):
        return value
    if isinstance(value, numbers.Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    if isinstance(value, numbers.Real):
        return float(value)
    raise TypeError(f"{value!r} is not a real number")


def fraction_text(value: Fraction | float) -> str:
    """An exact quantity for JSON: 'p/q' for fractions, 'inf' for infinity.

    Examples
    --------
    >>> fraction_text(Fraction(2, 3)), fraction_text(math.inf)
    ('2/3', 'inf')
    """
    if isinstance(value, float) and math.isinf(value):
        return "inf"
    return str(value)


def json_number(value: object) -> object:
    """A parameter for JSON: ints and floats as they are, anything else (Fractions) as text.

    Examples
    --------
    >>> json_number(3), json_number(0.5), json_number(Fraction(1, 3))
    (3, 0.5, '1/3')
    """
    return value if isinstance(value, (int, float)) else str(value)
