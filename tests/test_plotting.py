"""The drawing edge (skyprivacy/plotting.py): knowledge skylines and the trade-off curve of
Fig. 5."""
import re

import matplotlib
import pytest
from transparency.tables import credit_card_table

from skyprivacy import ReleaseCandidate, skyline_find
from skyprivacy.errors import InvalidParameterError
from skyprivacy.plotting import plot_skyline, plot_skyline_slices, plot_tradeoff_curve
from skyprivacy.transparency import tradeoff_curve

matplotlib.use("Agg")


def test_curve_plot_draws_one_line_per_group():
    curve = tradeoff_curve(credit_card_table("section8"), [0, 0.5, 1])
    ax = plot_tradeoff_curve(curve)
    lines = ax.get_lines()
    assert [line.get_label() for line in lines] == ["('F',)", "('M',)"]
    assert lines[0].get_xdata().tolist() == [0.0, 0.5, 1.0]
    assert lines[0].get_ydata().tolist() == pytest.approx([0.6, 0.6, 1.0])
    assert ax.get_xlabel() == "delta" and ax.get_ylabel() == "optimal beta*"
    assert plot_tradeoff_curve(curve, ax=ax) is ax


def test_only_a_curve_is_drawn():
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'curve' parameter of plot_tradeoff_curve must be a TradeoffCurve. "
            "Got 'dict' instead.")):
        plot_tradeoff_curve({})


def test_skyline_plots_draw_every_point_and_every_slice():
    release = ReleaseCandidate.from_groups([(6, list("aabbcd")), (5, list("abcdd"))])
    skyline = skyline_find(release, "a", c=0.8)
    ax = plot_skyline(skyline)
    assert len(ax.collections) >= len(skyline.points)
    assert ax.get_title() == "Knowledge skyline of 'a' at c = 0.8"
    figure = plot_skyline_slices(skyline)
    visible = [a for a in figure.axes if a.get_visible()]
    assert [a.get_title() for a in visible] == [f"l = {l}" for l in skyline.staircases()]


def test_only_a_knowledge_skyline_is_drawn():
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'skyline' parameter of plot_skyline must be a KnowledgeSkyline. "
            "Got 'tuple' instead.")):
        plot_skyline((1, 2, 3))
    with pytest.raises(InvalidParameterError, match=re.escape(
            "The 'skyline' parameter of plot_skyline_slices must be a KnowledgeSkyline. "
            "Got 'NoneType' instead.")):
        plot_skyline_slices(None)
