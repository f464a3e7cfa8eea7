"""What is left of the deprecation shims: :func:`renamed_keyword` and :data:`NEXT_RELEASE`.

skyprivacy 0.1.0 was never released, so it keeps no shims (CHANGELOG.md lists what was renamed
and removed).  The last users are edge modules (``report.py``, ``plotting.py`` and, through
``hierarchy/deprecated.py``, ``hierarchy_io.py``); this module goes with their shims.
"""

from __future__ import annotations

import functools

from .warning import warn

__all__ = ["renamed_keyword", "NEXT_RELEASE"]

#: When the old spellings stop working.
NEXT_RELEASE = "the next release"

def renamed_keyword(old: str, new: str):
    """Accept keyword ``old`` of the decorated function as ``new`` for one release, with a
    FutureWarning (passing both is an error).

    Examples
    --------
    >>> @renamed_keyword("confidence", "c")
    ... def draw(release, *, c=None):
    ...     return c
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     draw("r", confidence=0.5)
    0.5
    >>> print(caught[0].message)
    The keyword 'confidence' of draw is deprecated and stops working in the next release; pass
        c=0.5 instead.
    """
    def decorate(function):
        owner = function.__name__

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            if old in kwargs:
                value = kwargs.pop(old)
                if new in kwargs:
                    raise TypeError(f"{owner} got both {old!r} and {new!r}; pass {new!r} only.")
                warn(f"The keyword {old!r} of {owner} is deprecated and stops working "
                     f"in {NEXT_RELEASE}; pass {new}={value!r} instead.", FutureWarning)
                kwargs[new] = value
            return function(*args, **kwargs)
        return wrapper
    return decorate
