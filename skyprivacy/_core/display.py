"""How results show themselves: a short ``repr`` and the notebook's ``_repr_html_``, and the
progress bar of ``progress=True``.

One home for the rendering every public result shares (issue 26 item 8).  A result describes
itself as a :class:`Shown` (its verdict, a few headline sizes, the closest call, the first rows
of its table and, where there is one, a picture) and takes its two representations from here::

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown: ...

* :func:`result_repr` is one line of bounded length (:data:`REPR_LIMIT` characters), whatever
  the size of the data: the verdict, the sizes and the closest call, never the table.
* :func:`result_html` is a self-contained HTML fragment for Jupyter: a verdict box, the facts,
  the first :data:`TOP_ROWS` rows of the per-value table ("and N more rows"), the picture.
  Every value that comes from the data is escaped with :func:`esc` (cells may hold markup).

The HTML reports (:mod:`skyprivacy.report`) escape with the same :func:`esc`, draw with the
same :data:`PALETTE` and draw a knowledge skyline with the same :func:`skyline_staircase_svg`.

``progress=True`` (every public function with a ``progress=`` parameter) is a tqdm bar, the
``progress`` extra; :func:`progress_callback` turns the parameter into the callable the
computation reports to (``True`` a bar, ``None`` / ``False`` nothing, a callable itself).
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import pandas as pd

from ..errors import param_error
from .exact import readable_fraction
from .optional import optional_import
from .text import percent_text
from .validation import Predicate

__all__ = ["esc", "PALETTE", "Shown", "result_repr", "result_html", "shown_text",
           "shown_html", "frame_html", "skyline_staircase_svg", "nice_ticks", "staircase",
           "REPR_LIMIT", "TOP_ROWS", "value_text", "dict_facts", "head_rows", "PROGRESS",
           "progress_callback", "ProgressBar", "clipped", "finish",
           "shown_of"]

#: The longest ``repr`` of any result, in characters.
REPR_LIMIT = 300
#: Rows of a result's table shown in a notebook; the rest are counted ("and N more rows").
TOP_ROWS = 20
#: Columns of a result's table shown in a notebook; the rest are counted.
TOP_COLUMNS = 12
#: The longest text of one fact in a repr and of one cell in a notebook table.
FACT_LIMIT = 80
CELL_LIMIT = 200

#: The colours of the lines and marks of every picture, in order.
PALETTE = ("#1b6ca8", "#d1495b", "#2e933c", "#e09f3e", "#6a4c93", "#00a6a6", "#8c5e34",
           "#5c5c5c")


def esc(value) -> str:
    """``value`` as text safe inside HTML elements and attribute values.

    Examples
    --------
    >>> esc('<b class="x">&</b>')
    '&lt;b class=&quot;x&quot;&gt;&amp;&lt;/b&gt;'
    """
    return html.escape(str(value), quote=True)


def clipped(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, an ellipsis marking the cut.

    Examples
    --------
    >>> clipped("abcdef", 4), clipped("abc", 4)
    ('abc…', 'abc')
    """
    return text if len(text) <= limit else text[:max(limit - 1, 0)] + "…"


@dataclass(frozen=True)
class Shown:
    """What a result shows of itself, in a repr and in a notebook.

    Attributes
    ----------
    verdict : str or None
        ``'SAFE'``, ``'UNSAFE'``, ``'VERIFIED'``, ... ; None for a measure without a verdict.
    safe : bool or None
        The verdict box's colour (green, red, or neutral for None).
    facts : tuple of (label, value)
        The sizes and headline figures, most telling first.
    closest : str or None
        The closest call (or the worst case) in one sentence.
    closest_label : str
        What :attr:`closest` is called ("closest call", "worst case", ...).
    rows : callable or None
        ``rows(n)``: the first ``n`` rows of the result's table (most exposed first where the
        result ranks its rows), built without building the rest.
    n_rows : int
        How many rows the whole table has.
    picture : str or None
        An inline SVG.
    """

    verdict: str | None = None
    safe: bool | None = None
    facts: tuple = ()
    closest: str | None = None
    rows: Callable[[int], pd.DataFrame] | None = None
    n_rows: int = 0
    picture: str | None = None
    closest_label: str = "closest call"


def _fact_text(value) -> str:
    if isinstance(value, Fraction):
        return value_text(value)
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    if isinstance(value, (tuple, list)):
        return ", ".join(_fact_text(v) for v in value[:8]) + (
            f" and {len(value) - 8:,} more" if len(value) > 8 else "")
    return str(value)


def value_text(p: Fraction) -> str:
    """An exact share as a person reads it: ``1/3 (33.3%)``, the fraction rounded past a few
    thousand digits.

    Examples
    --------
    >>> value_text(Fraction(1, 3))
    '1/3 (33.3%)'
    """
    if 0 <= p <= 1:
        return f"{readable_fraction(p)} ({percent_text(p)})"
    return readable_fraction(p)


def dict_facts(mapping, keys) -> tuple:
    """The ``(key, value)`` facts of ``mapping`` for the ``keys`` it holds, in that order,
    missing values left out."""
    return tuple((key, mapping[key]) for key in keys if mapping.get(key) is not None)


def shown_text(name: str, shown: Shown) -> str:
    """The one-line repr: ``<Name VERDICT: fact=..., ...; closest call: ...>``, at most
    :data:`REPR_LIMIT` characters.

    Examples
    --------
    >>> shown_text("Check", Shown("SAFE", True, (("checks", 3),), "'a' at 1/2 < 0.9"))
    "<Check SAFE: checks=3; closest call: 'a' at 1/2 < 0.9>"
    """
    facts = ", ".join(f"{label}={clipped(_fact_text(value), FACT_LIMIT)}"
                      for label, value in shown.facts)
    body = " ".join(part for part in (shown.verdict and shown.verdict + ":", facts) if part)
    if shown.closest:
        body += f"; {shown.closest_label}: {clipped(shown.closest, FACT_LIMIT * 2)}"
    return "<" + clipped(f"{name} {body}".strip(), REPR_LIMIT - 2) + ">"


def shown_of(self) -> Shown:
    """What a result shows of itself (its ``_shown()``)."""
    return self._shown()


def result_repr(self) -> str:
    """``__repr__`` of a result: :func:`shown_text` of its ``_shown()``."""
    return shown_text(type(self).__name__, self._shown())


def result_html(self) -> str:
    """``_repr_html_`` of a result: :func:`shown_html` of its ``_shown()``."""
    return shown_html(type(self).__name__, self._shown())


_BOX = {True: "background:#e3f4e6;color:#155d27;border:2px solid #2e933c",
        False: "background:#fde7ea;color:#8a1022;border:2px solid #d1495b",
        None: "background:#f3f3f3;color:#1d1d1f;border:2px solid #999"}
#: The fragment's style, scoped to its own class (a notebook page holds other outputs).
_STYLE = ("<style>.skyprivacy-result table{border-collapse:collapse;margin:4px 0;"
          "font-size:.9em}.skyprivacy-result th,.skyprivacy-result td{border:1px solid #ddd;"
          "padding:2px 6px;text-align:left;vertical-align:top}.skyprivacy-result th"
          "{background:#f3f3f3}</style>")


def frame_html(frame: pd.DataFrame, n_rows: int | None = None, *,
               n_columns: int = TOP_COLUMNS) -> str:
    """An HTML table of ``frame`` (already cut to the rows to show), every header and cell
    escaped and clipped, followed by "and N more rows" when the whole table (``n_rows``)
    is longer and by "and N more columns" past ``n_columns``.

    Examples
    --------
    >>> frame_html(pd.DataFrame({"v": ["<b>"]}), 3)
    '<table><tr><th>v</th></tr><tr><td>&lt;b&gt;</td></tr></table><p ...>and 2 more rows</p>'
    """
    n_rows = len(frame) if n_rows is None else n_rows
    columns = list(frame.columns)
    shown_columns = columns[:n_columns]
    head = "".join(f"<th>{esc(clipped(str(c), 60))}</th>" for c in shown_columns)
    body = []
    for row in frame[shown_columns].itertuples(index=False, name=None):
        body.append("<tr>" + "".join(
            f"<td>{esc(clipped(_cell_text(v), CELL_LIMIT))}</td>"
            for v in row) + "</tr>")
    out = f"<table><tr>{head}</tr>" + "".join(body) + "</table>"
    more = []
    if n_rows > len(frame):
        extra = n_rows - len(frame)
        more.append(f"and {extra:,} more row{'s' if extra != 1 else ''}")
    if len(columns) > len(shown_columns):
        hidden = len(columns) - len(shown_columns)
        more.append(f"and {hidden:,} more column{'s' if hidden != 1 else ''}")
    if more:
        out += f'<p style="margin:4px 0;color:#666">{esc(", ".join(more))}</p>'
    return out


def _cell_text(value) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    try:
        if pd.isna(value):
            return ""
    except (TypeError, ValueError):
        pass
    return str(value)


def shown_html(name: str, shown: Shown, *, top: int = TOP_ROWS) -> str:
    """The notebook fragment: a verdict box, the facts, the closest call, the first ``top``
    rows of the table and the picture; everything from the data escaped.

    Examples
    --------
    >>> out = shown_html("Check", Shown("UNSAFE", False, (("value", "<i>"),)))
    >>> "UNSAFE" in out and "&lt;i&gt;" in out and "<i>" not in out
    True
    """
    parts = ['<div class="skyprivacy-result" style="font-family:system-ui,sans-serif;'
             f'line-height:1.4">{_STYLE}', f'<div style="font-weight:600">{esc(name)}</div>']
    if shown.verdict:
        parts.append(f'<div class="verdict" style="{_BOX[shown.safe]};font-size:1.2em;'
                     f'font-weight:700;padding:6px 12px;border-radius:6px;margin:6px 0;'
                     f'display:inline-block">{esc(shown.verdict)}</div>')
    if shown.facts:
        parts.append("<table>" + "".join(
            f"<tr><th>{esc(label)}</th>"
            f"<td>{esc(clipped(_fact_text(value), CELL_LIMIT))}</td></tr>"
            for label, value in shown.facts) + "</table>")
    if shown.closest:
        parts.append(f'<p style="margin:4px 0"><b>{esc(shown.closest_label.capitalize())}:'
                     f'</b> {esc(clipped(shown.closest, 2 * CELL_LIMIT))}</p>')
    if shown.rows is not None and shown.n_rows:
        parts.append(frame_html(shown.rows(min(top, shown.n_rows)), shown.n_rows))
    if shown.picture:
        parts.append(f"<figure style=\"margin:8px 0\">{shown.picture}</figure>")
    parts.append("</div>")
    return "".join(parts)


def head_rows(frame: Callable[[], pd.DataFrame]) -> Callable[[int], pd.DataFrame]:
    """``rows(n)`` of a result whose whole table is cheap: the first ``n`` rows of it."""
    return lambda n: frame().head(n)


# ------------------------------------------------------------------------------ pictures
def nice_ticks(top: float, count: int = 5) -> list[float]:
    """Axis ticks 0, step, 2 step, ... up to ``top``, the step a 1-2-5 multiple of a power
    of ten.

    Examples
    --------
    >>> nice_ticks(9)
    [0.0, 2.0, 4.0, 6.0, 8.0]
    """
    if top <= 0:
        return [0]
    raw = top / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(s * magnitude for s in (1, 2, 5, 10) if s * magnitude >= raw)
    ticks, t = [], 0.0
    while t <= top + 1e-9:
        ticks.append(t)
        t += step
    return ticks


def staircase(points: Sequence[tuple], level: int) -> list[tuple[int, int]]:
    """The runs (m_to, k) of K_level(m) = max{k' : (l', k', m') skyline point, l' >= level,
    m' >= m}, for m = 0..m_to of each run in turn (k non-increasing).

    Examples
    --------
    >>> staircase([(0, 3, 0), (0, 1, 2)], 0)
    [(0, 3), (2, 1)]
    """
    usable = sorted((m, k) for l, k, m in points if l >= level)
    runs, best = [], -1
    for m, k in reversed(usable):  # from the largest m down, a running maximum of k
        if k > best:
            runs.append((m, k))
            best = k
    return list(reversed(runs))


def skyline_staircase_svg(points: Sequence[tuple], title: str, *,
                          policy_points: Sequence[tuple] = (), width: int = 560,
                          height: int = 300) -> str:
    """An inline SVG of a knowledge skyline's points: for each l, the largest safe k against
    m, with ``policy_points`` marked (Chen, LeFevre and Ramakrishnan 2009, Sect. 6.3).

    ``title`` is escaped here.

    Examples
    --------
    >>> svg = skyline_staircase_svg([(0, 1, 0)], "<a>", policy_points=[(0, 1, 0)])
    >>> svg.startswith("<svg") and "l = 0" in svg and "&lt;a&gt;" in svg
    True
    """
    points = [tuple(int(x) for x in p) for p in points]
    marks = [tuple(int(x) for x in p) for p in policy_points]
    left, right, top, bottom = 58, 110, 16, 44
    plot_w, plot_h = width - left - right, height - top - bottom
    m_top = max([m for _, _, m in points + marks] + [1]) + 1
    k_top = max([k for _, k, _ in points + marks] + [1]) * 1.08 + 1
    title = esc(title)

    def x(m):
        return left + plot_w * m / m_top

    def y(k):
        return top + plot_h * (1 - k / k_top)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{title}">',
             f"<title>{title}</title>",
             f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="#fafafa" '
             f'stroke="#999"/>']
    for t in nice_ticks(k_top):
        parts.append(f'<line x1="{left - 4}" x2="{left + plot_w}" y1="{y(t):.1f}" '
                     f'y2="{y(t):.1f}" stroke="#e3e3e3"/>'
                     f'<text x="{left - 6}" y="{y(t) + 4:.1f}" text-anchor="end" '
                     f'font-size="11">{t:g}</text>')
    for t in nice_ticks(m_top):
        parts.append(f'<text x="{x(t):.1f}" y="{top + plot_h + 15}" text-anchor="middle" '
                     f'font-size="11">{t:g}</text>')
    parts.append(f'<text x="{left + plot_w / 2}" y="{height - 8}" text-anchor="middle" '
                 f'font-size="12">m: same-value family members known</text>'
                 f'<text transform="translate(14 {top + plot_h / 2}) rotate(-90)" '
                 f'text-anchor="middle" font-size="12">k: others\' values known</text>')
    levels = sorted({l for l, _, _ in points} | {l for l, _, _ in marks})
    for index, level in enumerate(levels):
        color = PALETTE[index % len(PALETTE)]
        runs = staircase(points, level)
        if runs:
            path, m_from = [], 0
            for m_to, k in runs:
                path.append(f"{x(m_from):.1f},{y(k):.1f} {x(m_to + 1):.1f},{y(k):.1f}")
                m_from = m_to + 1
            path.append(f"{x(m_from):.1f},{y(0):.1f}")
            parts.append(f'<polyline points="{x(0):.1f},{y(runs[0][1]):.1f} {" ".join(path)}" '
                         f'fill="none" stroke="{color}" stroke-width="2"/>')
        legend_y = top + 14 + 16 * index
        parts.append(f'<line x1="{left + plot_w + 10}" x2="{left + plot_w + 28}" '
                     f'y1="{legend_y - 4}" y2="{legend_y - 4}" stroke="{color}" '
                     f'stroke-width="2"/><text x="{left + plot_w + 32}" y="{legend_y}" '
                     f'font-size="11">l = {level}</text>')
        for l, k, m in marks:
            if l != level:
                continue
            parts.append(f'<circle cx="{x(m):.1f}" cy="{y(k):.1f}" r="4.5" fill="{color}" '
                         f'stroke="#000"><title>{esc(f"policy point (l={l}, k={k}, m={m})")}'
                         f'</title></circle><text x="{x(m) + 6:.1f}" y="{y(k) - 6:.1f}" '
                         f'font-size="10">({l},{k},{m})</text>')
    if not points:
        parts.append(f'<text x="{left + plot_w / 2}" y="{top + plot_h / 2}" '
                     f'text-anchor="middle" font-size="13" fill="#b00020">unsafe even without '
                     f'any knowledge</text>')
    parts.append("</svg>")
    return "".join(parts)


# ------------------------------------------------------------------------------ progress
def _is_progress(value) -> bool:
    return value is None or isinstance(value, bool) or callable(value)


#: The declared constraint of every ``progress=`` parameter.
PROGRESS = Predicate(_is_progress, "be True (a tqdm progress bar), False, None or a callable "
                                   "taking the fraction done", invalid="yes")


class ProgressBar:
    """A tqdm bar fed fractions done (0 to 1); closed when it reaches 1 or on :meth:`close`.

    tqdm is the ``progress`` extra; ``tqdm.auto`` draws a widget in a notebook and a text bar
    on a terminal (on stderr).
    """

    STEPS = 1000

    def __init__(self, label: str, *, owner: str):
        tqdm = optional_import("tqdm.auto", owner=f"{owner}(progress=True)").tqdm
        self._bar = tqdm(total=self.STEPS, desc=label, leave=False)
        self._done = 0

    def __call__(self, fraction: float) -> None:
        if self._bar is None:
            return
        step = max(0, min(self.STEPS, int(round(float(fraction) * self.STEPS))))
        if step > self._done:
            self._bar.update(step - self._done)
            self._done = step
        if step >= self.STEPS:
            self.close()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def finish(progress) -> None:
    """Close ``progress`` if it is a :class:`ProgressBar` still open (a computation whose
    last report fell short of 1); a caller's own callable is left alone."""
    if isinstance(progress, ProgressBar):
        progress.close()


def progress_callback(progress, *, owner: str, label: str):
    """The callable a computation reports its fraction done to: a :class:`ProgressBar` for
    ``True``, None for ``None`` / ``False``, ``progress`` itself when it is callable.

    Examples
    --------
    >>> progress_callback(None, owner="f", label="x") is None
    True
    >>> progress_callback(print, owner="f", label="x") is print
    True

    Raises
    ------
    InvalidParameterError
        For anything else, in the house template naming ``owner``.
    """
    if not _is_progress(progress):
        raise param_error("progress", owner, PROGRESS.text, progress)
    if progress is None or progress is False:
        return None
    if progress is True:
        return ProgressBar(label, owner=owner)
    return progress
