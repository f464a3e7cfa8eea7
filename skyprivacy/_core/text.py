"""Shared wording helpers: how a threshold and a probability near it are printed.

One home for the text every surface (command line, reports, error messages) uses, so a
probability is never printed as its threshold."""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np

__all__ = ["confidence_text", "percent_text", "nesting_depth", "MAX_NESTING"]

#: The deepest nesting of arrays and objects a JSON or TOML document may have; the parsers of
#: the standard library recurse once per level, so a deeper document is refused before it is
#: parsed (no certificate, policy or label file comes near this).
MAX_NESTING = 100

_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"' + r"|'[^'\n]*'")


def confidence_text(c) -> str:
    """A threshold as the decimal it was written as (``0.9``), else as a fraction (``2/3``).

    Examples
    --------
    >>> confidence_text(Fraction(9, 10)), confidence_text(Fraction(2, 3))
    ('0.9', '2/3')
    """
    c = Fraction(c)
    as_float = float(c)
    return repr(as_float) if Fraction(repr(as_float)) == c else str(c)


def percent_text(p, threshold=None, *, digits: int = 1) -> str:
    """``p`` as a percentage that never rounds onto ``threshold`` or across it.

    With one decimal, 0.89955 would print as 90.0% next to c = 0.9 although it is below it;
    decimals are added until the printed value sits on the same side of the threshold as the
    exact value (up to 12; beyond that, an exact ``<`` or ``>`` mark).  A value equal to the
    threshold is printed as the threshold when a decimal of at most 12 places is it, else
    rounded to ``digits`` as without a threshold (2/3 has no decimal): it is on no side, so
    it never carries a mark, which would say it is above or below.

    Examples
    --------
    >>> percent_text(Fraction(1, 2))
    '50.0%'
    >>> percent_text(0.89955, Fraction(9, 10))
    '89.95%'
    >>> percent_text(Fraction(9, 10), Fraction(9, 10))
    '90.0%'
    >>> percent_text(Fraction(2, 3), Fraction(2, 3))
    '66.7%'
    """
    value = Fraction(p) if not isinstance(p, float) else Fraction(repr(p))
    if threshold is None:
        return f"{float(value):.{digits}%}"
    limit = Fraction(threshold)
    side = (value > limit) - (value < limit)
    for places in range(digits, 13):
        shown = Fraction(f"{float(value) * 100:.{places}f}") / 100
        if (shown > limit) - (shown < limit) == side:
            return f"{float(value):.{places}%}"
    if side == 0:  # equal to a threshold no short decimal is: equal is not above
        return f"{float(value):.{digits}%}"
    return ("<" if side < 0 else ">") + f"{float(limit):.12%}"


def nesting_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in a JSON or TOML text, quoted strings skipped.

    One vectorized pass (no recursion), so it is safe on any input, however deep; brackets
    inside quoted strings do not count.

    Examples
    --------
    >>> nesting_depth('{"a": [1, [2, "]]]"]]}'), nesting_depth("x = 1")
    (3, 0)
    """
    bare = _QUOTED.sub("", text).encode("utf-8", "surrogatepass")
    codes = np.frombuffer(bare, dtype=np.uint8)
    step = ((codes == ord("[")) | (codes == ord("{"))).astype(np.int64)
    step -= (codes == ord("]")) | (codes == ord("}"))
    return int(np.cumsum(step).max(initial=0))
