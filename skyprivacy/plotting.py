"""Drawing, at the edge: the figures skyprivacy draws, with matplotlib (the ``plot`` extra).

Computation never draws; it returns results with ``.to_frame()``, and the functions here turn
those results into figures.  matplotlib is imported only when a function is called, so the
library works without it.

* :func:`plot_tradeoff_curve` - beta* against the fidelity level per QID group, Fig. 5 of
  Chen, Golubchik and Pal (2022), from :func:`skyprivacy.transparency.tradeoff_curve`.
"""

from __future__ import annotations

from ._core.optional import optional_import
from ._core.validation import InstanceOf, validate_params
from .transparency.tradeoff import TradeoffCurve

__all__ = ["plot_tradeoff_curve"]


@validate_params({"curve": InstanceOf(TradeoffCurve)})
def plot_tradeoff_curve(curve: TradeoffCurve, ax=None):
    """Plot beta* against the fidelity level, one line per QID group (Fig. 5).

    Parameters
    ----------
    curve : TradeoffCurve
        From :func:`skyprivacy.transparency.tradeoff_curve`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure's axes.

    Returns
    -------
    matplotlib.axes.Axes
        With the fidelity kind on the x axis, "optimal beta*" on the y axis and a legend
        naming each group's public values.

    Raises
    ------
    ImportError
        matplotlib is not installed (``pip install 'skyprivacy[plot]'``).

    References
    ----------
    Chen, Golubchik and Pal, "Achieving Transparency Report Privacy in Linear Time", ACM JDIQ
    14(2), 2022, Fig. 5.
    """
    if ax is None:
        plt = optional_import("matplotlib.pyplot", owner="plot_tradeoff_curve")
        _, ax = plt.subplots()
    by_group = curve.to_frame(per_group=True)
    keys = [c for c in by_group.columns if c not in (curve.kind, "beta_star", "case")]
    for key, part in by_group.groupby(keys, sort=False):
        ax.plot(part[curve.kind], part["beta_star"], label=str(key))
    ax.set_xlabel(curve.kind)
    ax.set_ylabel("optimal beta*")
    ax.legend()
    return ax
