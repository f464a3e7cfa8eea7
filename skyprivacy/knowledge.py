"""Adversarial knowledge and privacy policies: skyline points, skylines, value-centric policies.

A skyline point (l, k, m, c) says: an attacker with at most l, k and m pieces of the three kinds
of knowledge must not reach confidence c (Definition 3).  A skyline is a set of incomparable
points (Definition 4); point A dominates B when it asks at least as much (l_A >= l_B,
k_A >= k_B, m_A >= m_B, c_A <= c_B), so dominated points add nothing and are dropped.  A policy
is value-centric (Table 3 of the paper): a skyline per sensitive value, and a default skyline for
every value not listed.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

import numpy as np

from ._core.exact import is_real
from ._core.validation import Interval, Nullable, Predicate, check, validate_params
from .errors import InvalidParameterError
from .formulas import check_amount

__all__ = ["SkylinePoint", "Skyline", "Policy", "exact_confidence", "CONFIDENCE"]

class _Confidence(Interval):
    """A real number in (0, 1]; a non-finite value of a float-like type is shown as its float
    (``Got inf instead.``), whatever type it came in."""

    def __init__(self):
        super().__init__("real", 0, 1, closed="right")

    def shown(self, value):
        if is_real(value) and not isinstance(value, (numbers.Rational, Decimal)) \
                and not math.isfinite(float(value)):
            return float(value)
        return super().shown(value)


#: The declared type of a confidence threshold ``c``: a real number in (0, 1], compared
#: exactly (floats as the decimal they print as).
CONFIDENCE = _Confidence()


def exact_confidence(c: object, owner: str = "SkylinePoint") -> Fraction:
    """The confidence threshold as an exact fraction, validated to lie in (0, 1].

    Floats are read as the decimal number they print as, so ``0.9`` means 9/10 exactly (not
    the binary double nearest to it); ints, Fractions and Decimals are exact already.  Any
    other real type is read as its float.

    Examples
    --------
    >>> exact_confidence(0.9)
    Fraction(9, 10)
    """
    check(c, CONFIDENCE, name="c", owner=owner)
    if isinstance(c, (numbers.Rational, Decimal)):
        return Fraction(c)
    assert isinstance(c, numbers.Real)  # CONFIDENCE accepts real numbers only
    # a float, a numpy float or another real type: the decimal its float prints as
    return Fraction(repr(float(c)))


@dataclass(frozen=True, order=True)
class SkylinePoint:
    """One point (l, k, m, c) of a privacy skyline.

    Parameters
    ----------
    l : int
        Values the attacker knows the target does not have (svpi) / that co-occur with the
        target value (mvpi).
    k : int
        Other individuals whose values are known (svpi) / known not to have the value (mvpi).
    m : int
        Members of the target's same-value family the attacker knows.
    c : float or Fraction
        Confidence threshold in (0, 1]: the release is safe for this point iff the breach
        probability is strictly below c.

    Examples
    --------
    >>> p = SkylinePoint(1, 5, 2, 0.5)
    >>> p.dominates(SkylinePoint(1, 3, 2, 0.5)), p.c_exact
    (True, Fraction(1, 2))
    """

    l: int
    k: int
    m: int
    c: float | Fraction
    c_exact: Fraction = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("l", "k", "m"):
            object.__setattr__(self, name, check_amount(name, getattr(self, name), "SkylinePoint"))
        exact = exact_confidence(self.c)
        c = self.c
        if isinstance(c, np.generic):
            c = c.item()
        if isinstance(c, Decimal):
            c = Fraction(c)
        object.__setattr__(self, "c", c)
        object.__setattr__(self, "c_exact", exact)

    @classmethod
    def coerce(cls, point: object) -> SkylinePoint:
        """Accept a SkylinePoint or an (l, k, m, c) sequence."""
        if isinstance(point, SkylinePoint):
            return point
        if isinstance(point, (str, bytes)) or not isinstance(point, Iterable):
            raise InvalidParameterError(
                f"A skyline point must be a SkylinePoint or an (l, k, m, c) tuple. "
                f"Got {point!r} instead.")
        items = list(point)
        if len(items) != 4:
            raise InvalidParameterError(
                f"A skyline point must be a SkylinePoint or an (l, k, m, c) tuple. "
                f"Got {point!r} instead.")
        return cls(*items)

    @property
    def knowledge(self) -> tuple[int, int, int]:
        """The (l, k, m) amount of knowledge."""
        return (self.l, self.k, self.m)

    def dominates(self, other: SkylinePoint) -> bool:
        """True if this point asks at least as much as ``other`` (Sect. 4.2)."""
        return (self.l >= other.l and self.k >= other.k and self.m >= other.m
                and self.c_exact <= other.c_exact)

    def as_tuple(self) -> tuple:
        """``(l, k, m, c)`` with native Python scalars."""
        return (self.l, self.k, self.m, self.c)

    def __str__(self) -> str:
        return f"(l={self.l}, k={self.k}, m={self.m}, c={self.c})"


class Skyline:
    """A set of skyline points with dominated points dropped (Definition 4).

    Parameters
    ----------
    points : iterable of SkylinePoint or (l, k, m, c) tuples
        At least one point.

    Examples
    --------
    >>> sky = Skyline([(1, 5, 2, 0.5), (1, 3, 2, 0.5), (1, 1, 5, 0.5)])
    >>> [p.as_tuple() for p in sky]
    [(1, 1, 5, 0.5), (1, 5, 2, 0.5)]
    """

    __slots__ = ("_points",)
    _points: tuple[SkylinePoint, ...]  # sorted by (l, k, m, c), none dominating another

    def __init__(self, points: Iterable) -> None:
        if isinstance(points, Skyline):
            self._points = points.points
            return
        if isinstance(points, (SkylinePoint, str, bytes)) or not isinstance(points, Iterable):
            raise InvalidParameterError(
                f"A skyline must be a list of (l, k, m, c) points. Got {points!r} instead.")
        coerced = [SkylinePoint.coerce(p) for p in points]
        if not coerced:
            raise InvalidParameterError("A skyline needs at least one (l, k, m, c) point. "
                                        "Got an empty list instead.")
        # one representative per (l, k, m, exact c); then drop strictly dominated points
        unique = list({(p.l, p.k, p.m, p.c_exact): p for p in reversed(coerced)}.values())
        kept = [p for p in unique
                if not any(q is not p and q.dominates(p) for q in unique)]
        self._points = tuple(sorted(kept, key=lambda p: (p.l, p.k, p.m, p.c_exact)))

    @property
    def points(self) -> tuple[SkylinePoint, ...]:
        """The non-dominated points, sorted by (l, k, m, c)."""
        return self._points

    def covers(self, point: object) -> bool:
        """True if some point of the skyline dominates ``point`` (it is beneath the skyline)."""
        point = SkylinePoint.coerce(point)
        return any(p.dominates(point) for p in self._points)

    def __iter__(self) -> Iterator[SkylinePoint]:
        return iter(self._points)

    def __len__(self) -> int:
        return len(self._points)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Skyline):
            return NotImplemented
        return self._points == other._points

    def __hash__(self) -> int:
        return hash(self._points)

    def __repr__(self) -> str:
        return f"Skyline({[p.as_tuple() for p in self._points]!r})"


class Policy:
    """A value-centric privacy policy: a skyline per sensitive value and a default skyline.

    Parameters
    ----------
    skylines : mapping of value -> skyline, optional
        Each skyline is a :class:`Skyline` or a list of :class:`SkylinePoint` / (l, k, m, c)
        tuples.
    default : skyline, optional
        The skyline of every value not listed in ``skylines``; None leaves them unconstrained.

    Raises
    ------
    InvalidParameterError
        If the policy constrains nothing, or a point is malformed.

    References
    ----------
    Chen, LeFevre and Ramakrishnan (2009), Sect. 4.2 and Table 3 (value-centric policies).

    Examples
    --------
    >>> policy = Policy({"AIDS": [(1, 5, 2, 0.5), (1, 1, 5, 0.5)]}, default=[(1, 5, 1, 0.9)])
    >>> policy.skyline_for("AIDS")
    Skyline([(1, 1, 5, 0.5), (1, 5, 2, 0.5)])
    >>> policy.skyline_for("Flu")
    Skyline([(1, 5, 1, 0.9)])
    """

    __slots__ = ("_skylines", "_default")

    @validate_params({"skylines": Nullable(Predicate(
        lambda v: isinstance(v, Mapping), "be a mapping of value -> list of points",
        invalid=[]))})
    def __init__(self, skylines: Mapping | None = None, *, default: Iterable | None = None):
        if skylines is None:
            skylines = {}
        parsed: dict[Hashable, Skyline] = {}
        for value, points in skylines.items():
            try:
                parsed[value] = Skyline(points)
            except InvalidParameterError as exc:
                raise InvalidParameterError(f"Policy for value {value!r}: {exc}") from None
        self._skylines = parsed
        self._default = None if default is None else Skyline(default)
        if not parsed and self._default is None:
            raise InvalidParameterError(
                "A policy needs at least one skyline: give per-value skylines or a default.")

    @classmethod
    def uniform(cls, points: Iterable) -> Policy:
        """An attribute-centric policy: the same skyline for every value.

        Examples
        --------
        >>> Policy.uniform([(5, 10, 5, 0.7)]).default
        Skyline([(5, 10, 5, 0.7)])
        """
        return cls({}, default=points)

    @property
    def default(self) -> Skyline | None:
        """The skyline applied to every value without its own skyline."""
        return self._default

    @property
    def values(self) -> tuple:
        """The values with their own skyline, in the order given."""
        return tuple(self._skylines)

    def skyline_for(self, value: object) -> Skyline | None:
        """The skyline that applies to ``value`` (its own, else the default, else None)."""
        try:
            return self._skylines.get(value, self._default)
        except TypeError:  # unhashable
            return self._default

    def items(self):
        """(value, skyline) pairs of the explicitly listed values."""
        return self._skylines.items()

    def points(self) -> list[tuple[object, SkylinePoint]]:
        """Every (value, point) of the explicit skylines; the default is separate."""
        return [(v, p) for v, sky in self._skylines.items() for p in sky]

    def to_dict(self) -> dict:
        """A JSON/TOML-friendly form: ``{"default": [...], "values": {value: [...]}}``."""
        out: dict = {"values": {str(v) if not isinstance(v, (int, float)) else v:
                                [list(p.as_tuple()) for p in sky]
                                for v, sky in self._skylines.items()}}
        if self._default is not None:
            out["default"] = [list(p.as_tuple()) for p in self._default]
        return out

    @classmethod
    @validate_params({"data": Predicate(lambda v: isinstance(v, Mapping), "be a mapping",
                                        invalid=[])})
    def from_dict(cls, data: Mapping) -> Policy:
        """Inverse of :meth:`to_dict`; also accepts the TOML shape ``{"default": {"skyline":
        [...]}, "values": {v: {"skyline": [...]}}}``.

        Examples
        --------
        >>> Policy.from_dict({"default": {"skyline": [[1, 5, 1, 0.9]]}}).default
        Skyline([(1, 5, 1, 0.9)])
        """
        unknown = set(data) - {"default", "values"}
        if unknown:
            raise InvalidParameterError(
                f"Unknown policy section(s) {sorted(map(str, unknown))}; expected 'default' "
                f"and 'values'.")

        def points_of(entry, where):
            if isinstance(entry, Mapping):
                if "skyline" not in entry:
                    raise InvalidParameterError(f"Policy section {where} has no 'skyline' list.")
                return entry["skyline"]
            return entry

        default = data.get("default")
        values = data.get("values", {}) or {}
        if not isinstance(values, Mapping):
            raise InvalidParameterError("Policy section 'values' must map values to skylines.")
        return cls({v: points_of(e, f"values.{v!r}") for v, e in values.items()},
                   default=None if default is None else points_of(default, "'default'"))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Policy):
            return NotImplemented
        return self._skylines == other._skylines and self._default == other._default

    # Policies compare by content and are not hashable.  typeshed declares object.__hash__
    # a method, so mypy refuses the None that Python itself uses to mark a class unhashable.
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        inner = ", ".join(f"{v!r}: {[p.as_tuple() for p in s]}" for v, s in self._skylines.items())
        default = None if self._default is None else [p.as_tuple() for p in self._default]
        return f"Policy({{{inner}}}, default={default!r})"
