"""Shims that keep an old spelling working for one release, with a FutureWarning naming the new one.

* :func:`positional_options` - options that used to be positional are now keyword-only;
  an old positional call still works and is told the new call.
* :func:`renamed_attribute` - a result attribute that was renamed (``satisfied`` -> ``safe``)
  stays readable under its old name.
"""

from __future__ import annotations

import functools
import inspect
import reprlib

from .validation import owner_of
from .warning import warn

__all__ = ["positional_options", "renamed_attribute", "NEXT_RELEASE"]

#: When the old spellings stop working.
NEXT_RELEASE = "the next release"

_SHORT = reprlib.Repr()
_SHORT.maxstring = 40
_SHORT.maxother = 40


def positional_options(*old_order: str):
    """Accept the old positional call of a function whose options became keyword-only.

    Parameters
    ----------
    *old_order : str
        The names of the old positional parameters, in their old order (data first, as
        before).  A call with more positional arguments than the new signature takes is read
        with this order, and warns.

    Examples
    --------
    >>> @positional_options("release", "c", "l")
    ... def criterion(release, *, c, l):
    ...     return release, c, l
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     criterion("r", 2, 3)
    ('r', 2, 3)
    >>> print(caught[0].message)
    Passing c, l to criterion by position is deprecated and stops working in the next release; call
        criterion(release, c=2, l=3).
    """
    def decorate(function):
        parameters = inspect.signature(function).parameters
        positional = [p for p in parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        n_positional = len(positional)
        unknown = [name for name in old_order if name not in parameters]
        if unknown:
            raise TypeError(f"{function.__qualname__} has no parameter {unknown}")
        owner = owner_of(function)
        is_method = bool(positional) and positional[0].name in ("self", "cls")

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            if len(args) <= n_positional:
                return function(*args, **kwargs)
            head = args[:1] if is_method else ()
            given = args[len(head):]
            if len(given) > len(old_order):
                raise TypeError(f"{owner}() takes at most {len(old_order)} positional "
                                f"arguments ({len(given)} given)")
            moved = dict(zip(old_order, given))
            clash = sorted(set(moved) & set(kwargs))
            if clash:
                raise TypeError(f"{owner}() got multiple values for argument {clash[0]!r}")
            data = [p.name for p in positional[len(head):]]
            options = [name for name in moved if name not in data]
            call = ", ".join([*(name for name in data if name in moved),
                              *(f"{name}={_SHORT.repr(moved[name])}" for name in options)])
            warn(
                f"Passing {', '.join(options)} to {owner} by position is deprecated and stops "
                f"working in {NEXT_RELEASE}; call {owner}({call}).", FutureWarning)
            new_args = [*head, *(moved[name] for name in data if name in moved)]
            return function(*new_args, **{k: v for k, v in moved.items() if k not in data},
                            **kwargs)

        return wrapper

    return decorate


def renamed_attribute(old: str, new: str) -> property:
    """A read-only property ``old`` that returns ``new`` and warns (FutureWarning).

    Examples
    --------
    >>> class Result:
    ...     safe = True
    ...     satisfied = renamed_attribute("satisfied", "safe")
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     Result().satisfied
    True
    >>> print(caught[0].message)
    The attribute 'satisfied' is deprecated and stops working in the next release; read 'safe'
        instead.
    """
    def getter(self):
        warn(f"The attribute {old!r} is deprecated and stops working in "
             f"{NEXT_RELEASE}; read {new!r} instead.", FutureWarning)
        return getattr(self, new)

    getter.__doc__ = f"Deprecated alias of ``{new}``."
    return property(getter)


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
