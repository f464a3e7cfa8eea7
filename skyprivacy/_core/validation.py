"""Declared parameter constraints, checked at the public boundary with one message template.

A public function states what its options may be, as data::

    @validate_params({"k": Interval("integer", 1), "exact": Boolean()})
    def k_anonymity(release, *, k, exact=False): ...

and :func:`validate_params` checks every argument the caller passed (defaults are trusted)
before the body runs, raising :class:`~skyprivacy.errors.InvalidParameterError` with the house
template of :func:`~skyprivacy.errors.param_error`::

    The 'k' parameter of k_anonymity must be a positive integer. Got 0 instead.

Constraints that depend on other arguments (``n0`` in [1, n - 1]) are checked in the body
with :func:`check`, which builds the same message.  Each constraint can produce a value that
violates it (:meth:`Constraint.invalid_value`), so one common test walks every public function
that declares constraints and asserts the message of each (``tests/_core``).

The model is scikit-learn's ``validate_params`` / ``Interval`` / ``StrOptions``; this is a
smaller one, whose wording is the one skyprivacy already used.
"""

from __future__ import annotations

import functools
import inspect
import math
import numbers
from collections.abc import Callable, Mapping
from fractions import Fraction

import numpy as np

from ..errors import param_error
from .exact import decimal_fraction, is_real, native

__all__ = [
    "Constraint",
    "Interval",
    "Options",
    "Boolean",
    "InstanceOf",
    "Predicate",
    "RandomState",
    "Nullable",
    "check",
    "validate_params",
    "declared_constraints",
    "owner_of",
    "as_generator",
]


class Constraint:
    """What a parameter may be: a test, the words of the message, and a value that fails.

    Subclasses implement :meth:`is_satisfied_by`, :meth:`requirement` and
    :meth:`invalid_value`; ``text`` (any constraint) replaces the generated requirement, for
    messages that name other arguments (``be an integer in [1, n - 1] = [1, 4]``).
    """

    text: str | None = None

    def is_satisfied_by(self, value: object) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    def requirement(self, value: object) -> str:  # pragma: no cover - abstract
        """The words after "must" for a value that fails (may depend on the value's type)."""
        raise NotImplementedError

    def invalid_value(self) -> object:  # pragma: no cover - abstract
        """One value that violates the constraint (for the common test)."""
        raise NotImplementedError

    def shown(self, value: object) -> object:
        """The value as the message shows it after "Got"."""
        return native(value)

    def message_requirement(self, value: object) -> str:
        return self.text if self.text is not None else self.requirement(value)


def _bound_text(value) -> str:
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    return str(value)


class Interval(Constraint):
    """An integer or a real number within bounds.

    Parameters
    ----------
    kind : {"integer", "real"}
        Integers: any ``numbers.Integral`` (numpy included), never a bool.  Reals: any real
        number (int, float, Fraction, Decimal, numpy), never a bool, never NaN.
    low, high : number, optional
        The bounds; None for none.
    closed : {"both", "left", "right", "neither"}, default "both"
        Which bounds belong to the interval.
    inf : bool, default False
        Reals only: whether infinity (on the open side) is allowed.
    note : str, optional
        Said in parentheses after the requirement: ``(the number of queries)``.
    text : str, optional
        Replaces the whole requirement.

    Notes
    -----
    Bounds are compared exactly, with floats read as the decimal they print as, so
    ``Interval("real", 0, 1, closed="right")`` rejects 0 and accepts 1.0 without round-off.
    The requirement reads: ``be a positive integer`` (integers from 1), ``be a non-negative
    integer`` (from 0), ``be an integer >= 3``, ``be an integer in [1, 9]``; ``be in (0, 1]``
    for a two-sided real interval (``be a number in (0, 1]`` when the value is not a number
    at all), ``be a finite number > 0`` or ``be a number >= 0`` (infinity allowed) for a
    one-sided one, ``be a finite number`` for none.

    Examples
    --------
    >>> Interval("real", 0, 1, closed="right").requirement(1.5)
    'be in (0, 1]'
    >>> Interval("integer", 3, note="the bounds assume n >= 3").requirement(2)
    'be an integer >= 3 (the bounds assume n >= 3)'
    """

    def __init__(self, kind: str, low=None, high=None, *, closed: str = "both",
                 inf: bool = False, note: str | None = None, text: str | None = None):
        if kind not in ("integer", "real"):
            raise ValueError(f"kind must be 'integer' or 'real', not {kind!r}")
        if closed not in ("both", "left", "right", "neither"):
            raise ValueError(f"closed must be 'both', 'left', 'right' or 'neither', not {closed!r}")
        self.kind, self.low, self.high, self.closed = kind, low, high, closed
        self.inf, self.note, self.text = inf, note, text
        self._low = None if low is None else decimal_fraction(low)
        self._high = None if high is None else decimal_fraction(high)
        self._integral_bounds = all(b is None or b.denominator == 1
                                    for b in (self._low, self._high))

    def _right_type(self, value) -> bool:
        if self.kind == "integer":
            return isinstance(value, (numbers.Integral, np.integer)) \
                and not isinstance(value, (bool, np.bool_))
        return is_real(value)

    def is_satisfied_by(self, value) -> bool:
        if not self._right_type(value):
            return False
        if self._integral_bounds and type(value) in (int, float):
            # integer bounds: a float and its printed decimal lie on the same side of an
            # integer, so the plain comparison is exact (and ~20 times faster)
            if value != value or value in (math.inf, -math.inf):
                return self._infinite_ok(value)
            exact = value
        else:
            try:
                exact = decimal_fraction(value)
            except ValueError:  # NaN or an infinity
                return self._infinite_ok(value)
        return self._within(exact)

    def _infinite_ok(self, value) -> bool:
        if self.kind == "integer" or not self.inf or _is_nan(value):
            return False
        positive = float(value) > 0
        return (self._high is None) if positive else (self._low is None)

    def _within(self, exact) -> bool:
        if self._low is not None:
            if exact < self._low or (exact == self._low and self.closed in ("right", "neither")):
                return False
        if self._high is not None:
            if exact > self._high or (exact == self._high and self.closed in ("left", "neither")):
                return False
        return True

    def requirement(self, value) -> str:
        words = self._words(self._right_type(value))
        return f"{words} ({self.note})" if self.note else words

    def _words(self, right_type: bool) -> str:
        low, high = self.low, self.high
        left_in = self.closed in ("both", "left")
        right_in = self.closed in ("both", "right")
        if self.kind == "integer":
            if low is not None and high is not None:
                return f"be an integer in [{_bound_text(low)}, {_bound_text(high)}]"
            if low is not None:
                start = low if left_in else low + 1
                if start == 1:
                    return "be a positive integer"
                if start == 0:
                    return "be a non-negative integer"
                return f"be an integer >= {_bound_text(start)}"
            if high is not None:
                return f"be an integer <= {_bound_text(high if right_in else high - 1)}"
            return "be an integer"
        if low is not None and high is not None:
            interval = (f"{'[' if left_in else '('}{_bound_text(low)}, "
                        f"{_bound_text(high)}{']' if right_in else ')'}")
            return f"be in {interval}" if right_type else f"be a number in {interval}"
        number = "a number" if self.inf else "a finite number"
        if low is not None:
            return f"be {number} {'>=' if left_in else '>'} {_bound_text(low)}"
        if high is not None:
            return f"be {number} {'<=' if right_in else '<'} {_bound_text(high)}"
        return f"be {number}"

    def invalid_value(self):
        if self.low is not None:
            step = 1 if self.kind == "integer" else Fraction(1, 2)
            below = self._low - (0 if self.closed in ("right", "neither") else step)
            return int(below) if self.kind == "integer" else float(below)
        if self.high is not None:
            step = 1 if self.kind == "integer" else Fraction(1, 2)
            above = self._high + (0 if self.closed in ("left", "neither") else step)
            return int(above) if self.kind == "integer" else float(above)
        return "not a number"


def _is_nan(value) -> bool:
    try:
        return math.isnan(float(value))
    except (TypeError, ValueError, OverflowError):
        return False


class Options(Constraint):
    """One of a fixed list of values (strings, numbers or None), compared by equality.

    Examples
    --------
    >>> Options("mean", "median").requirement("max")
    "be one of ['mean', 'median']"
    """

    def __init__(self, *values, note: str | None = None, text: str | None = None):
        self.values, self.note, self.text = values, note, text

    def is_satisfied_by(self, value) -> bool:
        try:
            return value in self.values
        except (TypeError, ValueError):  # arrays and other objects without a plain ==
            return False

    def requirement(self, value) -> str:
        words = f"be one of {list(self.values)}"
        return f"{words} ({self.note})" if self.note else words

    def invalid_value(self):
        return "not_an_option"


class Boolean(Constraint):
    """True or False (numpy booleans accepted; 0 and 1 are not booleans)."""

    def __init__(self, *, text: str | None = None):
        self.text = text

    def is_satisfied_by(self, value) -> bool:
        return isinstance(value, (bool, np.bool_))

    def requirement(self, value) -> str:
        return "be True or False"

    def invalid_value(self):
        return "yes"


class _Bare(str):
    """A text shown as it is after "Got" (its repr is the text, without quotes)."""

    def __repr__(self) -> str:
        return str(self)


class InstanceOf(Constraint):
    """An instance of one of some classes; the message shows the wrong value's type name.

    ``got`` formats the type name without quotes (``got="{}"``: ``Got list instead.``, the
    wording of the skyline core's messages; ``got="a {}"``: ``Got a list instead.``); by
    default the name is quoted (``Got 'list' instead.``).

    Examples
    --------
    >>> import pandas as pd
    >>> InstanceOf(pd.DataFrame, name="a pandas DataFrame").requirement([])
    'be a pandas DataFrame'
    >>> repr(InstanceOf(pd.DataFrame, got="{}").shown([]))
    'list'
    """

    def __init__(self, *types: type, name: str | None = None, text: str | None = None,
                 got: str | None = None):
        self.types = types
        self.name = name or " or ".join(f"a {t.__name__}" for t in types)
        self.text = text
        self.got = got

    def is_satisfied_by(self, value) -> bool:
        return isinstance(value, self.types)

    def requirement(self, value) -> str:
        return f"be {self.name}"

    def shown(self, value):
        name = type(value).__name__
        return name if self.got is None else _Bare(self.got.format(name))

    def invalid_value(self):
        return object()


class Predicate(Constraint):
    """Anything a function accepts, described in words: ``Predicate(callable, "be a callable")``.

    ``show``, if given, turns a failing value into what the message shows after "Got".
    """

    text: str  # always given: the words are the whole requirement

    def __init__(self, test: Callable[[object], bool], text: str, *, invalid: object = None,
                 show: Callable[[object], object] | None = None):
        self.test, self.text, self._invalid, self._show = test, text, invalid, show

    def is_satisfied_by(self, value) -> bool:
        return bool(self.test(value))

    def shown(self, value):
        return super().shown(value) if self._show is None else self._show(value)

    def requirement(self, value) -> str:
        return self.text

    def invalid_value(self):
        return self._invalid


class RandomState(Constraint):
    """None, a non-negative int seed or a :class:`numpy.random.Generator` (no global RNG)."""

    def __init__(self, *, text: str | None = None):
        self.text = text

    def is_satisfied_by(self, value) -> bool:
        if value is None or isinstance(value, np.random.Generator):
            return True
        return isinstance(value, (numbers.Integral, np.integer)) \
            and not isinstance(value, (bool, np.bool_)) and int(value) >= 0

    def requirement(self, value) -> str:
        return "be None, a non-negative int seed or a numpy.random.Generator"

    def invalid_value(self):
        return -1


class Nullable(Constraint):
    """None (usually the default, meaning "not given") or a value meeting ``inner``.

    The message is the inner constraint's: None is what the caller did not pass.
    """

    def __init__(self, inner: Constraint):
        self.inner = inner
        self.text = inner.text

    def is_satisfied_by(self, value) -> bool:
        return value is None or self.inner.is_satisfied_by(value)

    def requirement(self, value) -> str:
        return self.inner.requirement(value)

    def shown(self, value):
        return self.inner.shown(value)

    def invalid_value(self):
        return self.inner.invalid_value()


def check(value, constraint: Constraint, *, name: str, owner: str):
    """Check one value in a function's body; return it native (numpy scalars unwrapped).

    Raises
    ------
    InvalidParameterError
        With the house template: ``The '{name}' parameter of {owner} must ... Got ... instead.``

    Examples
    --------
    >>> check(np.int64(3), Interval("integer", 1), name="k", owner="k_anonymity")
    3
    >>> check(0, Interval("integer", 1), name="k", owner="k_anonymity")
    Traceback (most recent call last):
    ...
    skyprivacy.errors.InvalidParameterError: The 'k' parameter of k_anonymity must be a positive
        integer. Got 0 instead.
    """
    if not constraint.is_satisfied_by(value):
        raise param_error(name, owner, constraint.message_requirement(value),
                          constraint.shown(value))
    return native(value)


def owner_of(function: Callable) -> str:
    """How messages name a function: ``k_anonymity``, ``BudgetAccountant.spend``, or the class
    for ``__init__`` (``AttributeConceal``)."""
    qualname = function.__qualname__
    return qualname[: -len(".__init__")] if qualname.endswith(".__init__") else qualname


def validate_params(constraints: Mapping[str, Constraint], *, owner: str | None = None):
    """Decorate a public function so the arguments its caller passed are checked first.

    Parameters
    ----------
    constraints : mapping
        Parameter name -> :class:`Constraint`.  Parameters not listed (the data, usually
        validated in the body with domain-specific checks) pass through; arguments left at
        their default are not checked.
    owner : str, optional
        The name the messages use; default :func:`owner_of` the function.

    Returns
    -------
    callable
        The function, wrapped: a declared argument that passes reaches the body as a native
        Python scalar (numpy scalars unwrapped); ``declared_constraints(wrapped)`` returns the
        constraints and the owner so a common test can walk them.
    """
    def decorate(function):
        signature = inspect.signature(function)
        position = {}
        for index, (pname, parameter) in enumerate(signature.parameters.items()):
            if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
                position[pname] = index
        unknown = set(constraints) - set(signature.parameters)
        if unknown:
            raise TypeError(f"{function.__qualname__} has no parameter {sorted(unknown)}")
        name_of = owner or owner_of(function)
        checks = tuple((pname, constraint, position.get(pname))
                       for pname, constraint in constraints.items())

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            for pname, constraint, index in checks:
                in_kwargs = pname in kwargs
                if in_kwargs:
                    value = kwargs[pname]
                elif index is not None and index < len(args):
                    value = args[index]
                else:
                    continue
                if not constraint.is_satisfied_by(value):
                    raise param_error(pname, name_of, constraint.message_requirement(value),
                                      constraint.shown(value))
                if isinstance(value, np.generic):  # the body sees native Python scalars
                    if in_kwargs:
                        kwargs[pname] = value.item()
                    else:
                        args = (*args[:index], value.item(), *args[index + 1:])
            return function(*args, **kwargs)

        wrapper.__param_constraints__ = (name_of, dict(constraints))
        return wrapper

    return decorate


def declared_constraints(function) -> tuple[str, dict] | None:
    """(owner, {name: constraint}) of a function decorated with :func:`validate_params`."""
    while function is not None:
        found = getattr(function, "__param_constraints__", None)
        if found is not None:
            return found
        function = getattr(function, "__wrapped__", None)
    return None


def as_generator(random_state) -> np.random.Generator:
    """The Generator a validated ``random_state`` stands for (a fresh one for None)."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    return np.random.default_rng(None if random_state is None else int(random_state))
