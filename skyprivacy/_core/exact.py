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
    "parse_fraction",
    "readable_fraction",
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


#: Decimal digits per block when an integer is longer than Python converts in one step (4,300
#: digits by default since 3.11, a guard against quadratic conversion of untrusted text).
_BLOCK = 1000


def _int_text(n: int) -> str:
    """``str(n)`` for integers of any length (block by block past Python's limit)."""
    if n.bit_length() < 4000 * 3:  # fewer than ~3,600 digits: one step
        return str(n)
    sign, n = ("-", -n) if n < 0 else ("", n)
    blocks = []
    base = 10 ** _BLOCK
    while n:
        n, block = divmod(n, base)
        blocks.append(block)
    return sign + str(blocks[-1]) + "".join(f"{b:0{_BLOCK}d}" for b in reversed(blocks[:-1]))


def _int_of(text: str) -> int:
    """``int(text)`` for decimal integers of any length."""
    if len(text) <= 3000:
        return int(text)
    sign, digits = (-1, text[1:]) if text.startswith("-") else (1, text.lstrip("+"))
    value = 0
    for lo in range(0, len(digits), _BLOCK):
        block = digits[lo:lo + _BLOCK]
        value = value * 10 ** len(block) + int(block)
    return sign * value


def fraction_text(value: Fraction | float) -> str:
    """An exact quantity for JSON: 'p/q' for fractions (any length), 'inf' for infinity.

    Examples
    --------
    >>> fraction_text(Fraction(2, 3)), fraction_text(math.inf), fraction_text(Fraction(4))
    ('2/3', 'inf', '4')
    """
    if isinstance(value, float) and math.isinf(value):
        return "inf"
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return _int_text(value.numerator)
        return f"{_int_text(value.numerator)}/{_int_text(value.denominator)}"
    return str(value)


def parse_fraction(text: str) -> Fraction:
    """The Fraction a :func:`fraction_text` (or any 'p/q', integer or decimal text) names,
    whatever the length of p and q.

    Examples
    --------
    >>> parse_fraction("2/3"), parse_fraction("0.9"), parse_fraction(fraction_text(
    ...     Fraction(10 ** 5000 + 1, 3))) == Fraction(10 ** 5000 + 1, 3)
    (Fraction(2, 3), Fraction(9, 10), True)
    """
    text = str(text).strip()
    numerator, slash, denominator = text.partition("/")
    if slash and numerator.lstrip("+-").isdigit() and denominator.isdigit():
        return Fraction(_int_of(numerator), _int_of(denominator))
    if not slash and text.lstrip("+-").isdigit():
        return Fraction(_int_of(text))
    return Fraction(text)


def readable_fraction(value: Fraction | float) -> str:
    """A probability for a sentence: 'p/q', or past a few thousand digits (products of many
    falling factorials in large mvpi-multiset groups get there) the decimal it is close to,
    ``~0.700012``: the exact value stays in the JSON (:func:`fraction_text`).

    Examples
    --------
    >>> readable_fraction(Fraction(980, 1091)), readable_fraction(Fraction(7 * 10 ** 4000 + 1,
    ...                                                                   10 ** 4001))
    ('980/1091', '~0.7')
    """
    if not isinstance(value, Fraction) or max(value.numerator.bit_length(),
                                              value.denominator.bit_length()) < 4000 * 3:
        return str(value)
    return f"~{float(value):.6g}"


def json_number(value: object) -> object:
    """A parameter for JSON: ints and floats as they are, anything else (Fractions) as text.

    Examples
    --------
    >>> json_number(3), json_number(0.5), json_number(Fraction(1, 3))
    (3, 0.5, '1/3')
    """
    return value if isinstance(value, (int, float)) else str(value)
