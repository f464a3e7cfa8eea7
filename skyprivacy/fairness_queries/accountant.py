"""The privacy budget of a sequence of releases: :class:`BudgetAccountant`.

Basic sequential composition (spec fairness-queries §9.1): releases at ``(eps_i, delta_i)``
together are ``(sum eps_i, sum delta_i)``-DP.  An accountant is passed explicitly to each
mechanism (or compliance oracle) that should draw from it, never through a global object;
amounts are added as exact decimals, so ``spent == budget`` is decided without round-off.
"""

from __future__ import annotations

import math
from fractions import Fraction

from .._core.exact import decimal_fraction
from .._core.validation import Interval, validate_params
from ..errors import BudgetError

__all__ = ["BudgetAccountant"]

_DELTA = Interval("real", 0, 1, closed="left")
_AMOUNT = {"epsilon": Interval("real", 0, closed="left", inf=True), "delta": _DELTA}


class BudgetAccountant:
    """Sequential-composition privacy accountant (spec §9.1).

    Parameters
    ----------
    epsilon : float, default inf
        Total epsilon budget, > 0 (``math.inf`` for no limit).
    delta : float, default 0.0
        Total delta budget, in [0, 1).

    Notes
    -----
    Basic composition: releases at ``(eps_i, delta_i)`` together are
    ``(sum eps_i, sum delta_i)``-DP.  Amounts are added as exact decimals, so the boundary
    ``spent == budget`` is decided without float round-off.  Nothing is global: pass the
    accountant to each mechanism (or oracle) that should draw from it.

    Examples
    --------
    >>> acc = BudgetAccountant(epsilon=1.0)
    >>> for _ in range(10):
    ...     acc.spend(0.1)
    >>> acc.spent_epsilon, acc.remaining_epsilon
    (1.0, 0.0)
    >>> acc.spend(0.1)
    Traceback (most recent call last):
    ...
    skyprivacy.errors.BudgetError: The privacy budget is exhausted: spending epsilon=0.1, delta=0.0
        would bring the total to epsilon=1.1, delta=0.0, over the budget epsilon=1.0, delta=0.0.
    """

    @validate_params({"epsilon": Interval("real", 0, closed="neither", inf=True,
                                          note="math.inf for no limit"), "delta": _DELTA})
    def __init__(self, epsilon: float = math.inf, delta: float = 0.0):
        # Finite amounts are kept as the exact decimals they were written as
        # (``decimal_fraction(0.1) == Fraction(1, 10)``), so ten charges of 0.1 add up to
        # exactly 1 and a budget of 1.0 is neither refused early nor overrun by round-off.
        self._epsilon = float(epsilon)
        self._delta = float(delta)
        self._spent_eps: Fraction | None = Fraction(0)  # None once an infinite amount is spent
        self._spent_delta = Fraction(0)
        self._ledger: list[tuple[float, float]] = []

    @property
    def epsilon(self) -> float:
        """Total epsilon budget."""
        return self._epsilon

    @property
    def delta(self) -> float:
        """Total delta budget."""
        return self._delta

    @property
    def spent_epsilon(self) -> float:
        """Epsilon spent so far."""
        return math.inf if self._spent_eps is None else float(self._spent_eps)

    @property
    def spent_delta(self) -> float:
        """Delta spent so far."""
        return float(self._spent_delta)

    @property
    def remaining_epsilon(self) -> float:
        """Epsilon still available."""
        if math.isinf(self._epsilon):
            return math.inf
        # a finite budget never accepts an infinite amount, so what is spent is finite
        assert self._spent_eps is not None
        return float(decimal_fraction(self._epsilon) - self._spent_eps)

    @property
    def remaining_delta(self) -> float:
        """Delta still available."""
        return float(decimal_fraction(self._delta) - self._spent_delta)

    @property
    def ledger(self) -> tuple[tuple[float, float], ...]:
        """Every (epsilon, delta) charged, in order."""
        return tuple(self._ledger)

    def _totals_after(self, epsilon: float, delta: float) -> tuple[Fraction | None, Fraction]:
        """Spent (epsilon, delta) after a charge; epsilon None once it is infinite (delta is
        always finite, in [0, 1))."""
        eps = None if (self._spent_eps is None or math.isinf(epsilon)) \
            else self._spent_eps + decimal_fraction(epsilon)
        return eps, self._spent_delta + decimal_fraction(delta)

    @validate_params(_AMOUNT)
    def can_spend(self, epsilon: float, delta: float = 0.0) -> bool:
        """Whether a release at ``(epsilon, delta)`` fits in what is left."""
        epsilon, delta = float(epsilon), float(delta)
        eps_after, delta_after = self._totals_after(epsilon, delta)
        eps_ok = math.isinf(self._epsilon) or (eps_after is not None
                                                and eps_after <= decimal_fraction(self._epsilon))
        return eps_ok and delta_after <= decimal_fraction(self._delta)

    @validate_params(_AMOUNT)
    def spend(self, epsilon: float, delta: float = 0.0) -> None:
        """Charge a release at ``(epsilon, delta)``.

        Raises
        ------
        BudgetError
            If the charge would exceed the budget; nothing is charged then.
        """
        epsilon, delta = float(epsilon), float(delta)
        if not self.can_spend(epsilon, delta):
            eps_after, delta_after = self._totals_after(epsilon, delta)
            shown = math.inf if eps_after is None else float(eps_after)
            raise BudgetError(
                f"The privacy budget is exhausted: spending epsilon={epsilon}, delta={delta} "
                f"would bring the total to epsilon={shown}, delta={float(delta_after)}, over "
                f"the budget epsilon={self._epsilon}, delta={self._delta}."
            )
        self._spent_eps, self._spent_delta = self._totals_after(epsilon, delta)
        self._ledger.append((epsilon, delta))

    def __repr__(self) -> str:
        return (f"BudgetAccountant(epsilon={self._epsilon}, delta={self._delta}, "
                f"spent_epsilon={self.spent_epsilon}, spent_delta={self.spent_delta})")
