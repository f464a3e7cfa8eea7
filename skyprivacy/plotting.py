"""Drawing, at the edge: the figures skyprivacy draws, with matplotlib (the ``plot`` extra).

Computation never draws; it returns results with ``.to_frame()``, and the functions here turn
those results into figures.  matplotlib is imported only when a function is called, so the
library works without it.

* :func:`plot_skyline` and :func:`plot_skyline_slices` - a knowledge skyline (Sect. 6.3 of
  Chen, LeFevre and Ramakrishnan 2009) as a 3D staircase and as its 2D slices per l, from
  :func:`skyprivacy.skyline_find`.
* :func:`plot_tradeoff_curve` - beta* against the fidelity level per QID group, Fig. 5 of
  Chen, Golubchik and Pal (2022), from :func:`skyprivacy.transparency.tradeoff_curve`.

Both areas' pictures are drawn here, beside the one helper that loads matplotlib: drawing is
the edge's, whichever area computed the result.
"""

from __future__ import annotations

from ._core.optional import optional_import
from ._core.validation import InstanceOf, validate_params
from .find import KnowledgeSkyline
from .transparency.tradeoff import TradeoffCurve

__all__ = ["plot_skyline", "plot_skyline_slices", "plot_tradeoff_curve", "pyplot"]


def pyplot(owner: str):
    """matplotlib.pyplot, on the non-interactive Agg backend unless one was chosen (the
    library draws into figures; it never opens windows)."""
    matplotlib = optional_import("matplotlib", owner=owner)
    matplotlib.use("Agg", force=False)
    return optional_import("matplotlib.pyplot", owner=owner)


@validate_params({"skyline": InstanceOf(KnowledgeSkyline)})
def plot_skyline(skyline: KnowledgeSkyline, *, ax=None):
    """3D staircase of a knowledge skyline: the safe region as boxes under each point.

    Parameters
    ----------
    skyline : KnowledgeSkyline
        From :func:`skyprivacy.skyline_find`.
    ax : matplotlib 3D axes, optional

    Returns
    -------
    matplotlib.axes.Axes

    References
    ----------
    Chen, LeFevre and Ramakrishnan (2009), Sect. 6.3 and Fig. 2.
    """
    plt = pyplot("plot_skyline")
    if ax is None:
        fig = plt.figure(figsize=(6, 5))
        ax = fig.add_subplot(projection="3d")
    colors = plt.get_cmap("viridis")
    n = max(len(skyline.points), 1)
    for i, (l, k, m) in enumerate(skyline.points):
        ax.bar3d(0, 0, 0, k + 1, m + 1, l + 1, alpha=0.25, color=colors(i / n), shade=True)
        ax.scatter([k + 1], [m + 1], [l + 1], color=colors(i / n), s=30)
        ax.text(k + 1, m + 1, l + 1, f"({l},{k},{m})", fontsize=7)
    ax.set_xlabel("k (others' values known)")
    ax.set_ylabel("m (family members known)")
    ax.set_zlabel("l (values ruled out)")
    ax.set_title(f"Knowledge skyline of {skyline.value!r} at c = {float(skyline.c):g}")
    return ax


@validate_params({"skyline": InstanceOf(KnowledgeSkyline)})
def plot_skyline_slices(skyline: KnowledgeSkyline, *, axes=None):
    """2D slices of a knowledge skyline: for each l, the safe staircase of k against m.

    Parameters
    ----------
    skyline : KnowledgeSkyline
        From :func:`skyprivacy.skyline_find`.
    axes : sequence of matplotlib axes, optional
        One per l; default a new figure with up to four columns.

    Returns
    -------
    matplotlib.figure.Figure
    """
    plt = pyplot("plot_skyline_slices")
    staircases = skyline.staircases() or {0: []}
    if axes is None:
        cols = min(len(staircases), 4)
        rows = -(-len(staircases) // cols)
        fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 2.8 * rows), squeeze=False)
        axes = axes.ravel()
    else:
        fig = axes[0].figure
    for ax, (l, runs) in zip(axes, staircases.items()):
        xs, ys = [], []
        for m_from, m_to, k_val in runs:
            xs += [m_from, m_to + 1]
            ys += [k_val, k_val]
        if xs:
            ax.fill_between(xs, ys, step="pre", alpha=0.3, color="tab:green")
            ax.step(xs, ys, where="pre", color="tab:green")
        ax.set_title(f"l = {l}")
        ax.set_xlabel("m")
        ax.set_ylabel("largest safe k")
    for ax in list(axes)[len(staircases):]:
        ax.set_visible(False)
    fig.suptitle(f"{skyline.value!r}: safe (k, m) for each l at c = {float(skyline.c):g}")
    fig.tight_layout()
    return fig


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
        _, ax = pyplot("plot_tradeoff_curve").subplots()
    by_group = curve.to_frame(per_group=True)
    keys = [c for c in by_group.columns if c not in (curve.kind, "beta_star", "case")]
    for key, part in by_group.groupby(keys, sort=False):
        ax.plot(part[curve.kind], part["beta_star"], label=str(key))
    ax.set_xlabel(curve.kind)
    ax.set_ylabel("optimal beta*")
    ax.legend()
    return ax

