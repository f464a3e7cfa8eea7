"""The HTML certification report: one self-contained page for reviewers.

:func:`render_report` turns a certificate (:mod:`skyprivacy.certificate`), the release candidate
it describes and a few knowledge skylines (Chen, LeFevre and Ramakrishnan 2009, Definition 5,
Sect. 6.3; computed by :func:`report_skylines`) into one HTML page: the verdict, the per-value
table of breach probabilities, the worst cases in words (Sect. 6.1), a picture of each knowledge
skyline with the policy's points on it, and the distribution of QI-group sizes.

The page needs nothing from outside: CSS is inline, pictures are inline SVG drawn here (or, with
``images="png"``, the library's matplotlib pictures as ``data:`` URIs), there is no script and no
external font.  Every value that comes from the data is escaped with :func:`html.escape`.

Everything here is pure: the page is returned as a string (:func:`skyprivacy.io.write_text`
writes it).
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Mapping, Sequence

import numpy as np

from ._core.deprecation import renamed_keyword
from ._core.exact import parse_fraction, readable_fraction
from ._core.text import confidence_text, percent_text
from .check import SkylineCheckResult
from .errors import param_error
from .find import KnowledgeSkyline, skyline_find
from .release import ReleaseCandidate

__all__ = ["render_report", "report_skylines", "skyline_svg", "group_size_svg",
           "confidence_text", "render_rule_report", "tradeoff_svg"]

_IMAGES = ("svg", "png", "auto")
_PALETTE = ("#1b6ca8", "#d1495b", "#2e933c", "#e09f3e", "#6a4c93", "#00a6a6", "#8c5e34",
            "#5c5c5c")


def _esc(value) -> str:
    return html.escape(str(value), quote=True)


def _pct(p, threshold=None) -> str:
    return percent_text(_exact(p), threshold)


def _exact(value):
    """A certificate's exact number ('p/q' text of any length) as a Fraction."""
    return parse_fraction(value) if isinstance(value, str) else value


def _readable(value) -> str:
    """A certificate's exact number as a person reads it (rounded past thousands of digits)."""
    return readable_fraction(_exact(value))


@renamed_keyword("confidence", "c")
def report_skylines(release: ReleaseCandidate, check: SkylineCheckResult, *, c=None,
                    n_values: int = 4, progress=None) -> list[KnowledgeSkyline]:
    """Knowledge skylines of the most exposed values of a checked release.

    Parameters
    ----------
    release : ReleaseCandidate
    check : SkylineCheckResult
        Its check; values are ranked by their smallest margin c - breach probability (failing
        values first).
    c : float or Fraction, optional
        The confidence of every skyline (``confidence=`` before, deprecated); by default
        each value's strictest (smallest) c in the policy, so the policy's points can be read
        against the picture.
    n_values : int, default 4
        How many values to draw (0 for none).
    progress : callable, optional
        Called with the fraction of skylines done.

    Returns
    -------
    list of KnowledgeSkyline

    Examples
    --------
    >>> from skyprivacy import Policy, skyline_check
    >>> release = ReleaseCandidate.from_groups([(4, ["AIDS", "AIDS", "Flu", "Flu"]),
    ...                                         (4, ["AIDS", "Cancer", "Flu", "Flu"])])
    >>> check = skyline_check(release, Policy.uniform([(0, 1, 0, 0.7)]))
    >>> [(s.value, s.points) for s in report_skylines(release, check, n_values=2)]
    [('AIDS', ((0, 1, 0),)), ('Flu', ((0, 1, 0),))]
    """
    if not isinstance(n_values, int) or isinstance(n_values, bool) or n_values < 0:
        raise param_error("n_values", "report_skylines", "be a non-negative integer", n_values)
    margins: dict = {}
    strictest: dict = {}
    for row in check.rows:
        if not release.contains(row.value):
            continue
        margin = row.point.c_exact - row.breach_probability
        if row.value not in margins or margin < margins[row.value]:
            margins[row.value] = margin
        point_c = row.point.c_exact
        strictest[row.value] = min(point_c, strictest.get(row.value, point_c))
    chosen = sorted(margins, key=lambda v: margins[v])[:n_values]
    out = []
    for done, value in enumerate(chosen, start=1):
        out.append(skyline_find(release, value, c=c if c is not None else strictest[value]))
        if progress is not None:
            progress(done / len(chosen))
    return out


# ------------------------------------------------------------------------------------- pictures
def _nice_ticks(top: float, count: int = 5) -> list[float]:
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


def _staircase(points: Sequence[tuple], level: int) -> list[tuple[int, int]]:
    """The runs (m_to, k) of K_level(m) = max{k' : (l', k', m') skyline point, l' >= level,
    m' >= m}, for m = 0..m_to of each run in turn (k non-increasing)."""
    usable = sorted((m, k) for l, k, m in points if l >= level)
    runs, best = [], -1
    for m, k in reversed(usable):  # from the largest m down, a running maximum of k
        if k > best:
            runs.append((m, k))
            best = k
    return list(reversed(runs))


def skyline_svg(skyline: KnowledgeSkyline, *, policy_points: Sequence[tuple] = (),
                width: int = 560, height: int = 300) -> str:
    """An inline SVG of a knowledge skyline: for each l, the largest safe k against m.

    Parameters
    ----------
    skyline : KnowledgeSkyline
    policy_points : sequence of (l, k, m)
        Points to mark (the policy's points for this value at the same c): a mark above the
        line of its l is knowledge the release does not withstand.
    width, height : int
        Size in pixels.

    Returns
    -------
    str
        An ``<svg>`` element (text escaped).

    Examples
    --------
    >>> from skyprivacy import ReleaseCandidate
    >>> release = ReleaseCandidate.from_groups([(3, ["a", "b", "b"])])
    >>> svg = skyline_svg(skyline_find(release, "a", c=0.6), policy_points=[(0, 1, 0)])
    >>> svg.startswith("<svg") and "l = 0" in svg
    True
    """
    if not isinstance(skyline, KnowledgeSkyline):
        raise param_error("skyline", "skyline_svg", "be a KnowledgeSkyline",
                          type(skyline).__name__)
    points = list(skyline.points)
    marks = [tuple(int(x) for x in p) for p in policy_points]
    left, right, top, bottom = 58, 110, 16, 44
    plot_w, plot_h = width - left - right, height - top - bottom
    m_top = max([m for _, _, m in points + marks] + [1]) + 1
    k_top = max([k for _, k, _ in points + marks] + [1]) * 1.08 + 1
    title = _esc(f"Knowledge skyline of {skyline.value!r} at c = "
                 f"{confidence_text(skyline.c)}")

    def x(m):
        return left + plot_w * m / m_top

    def y(k):
        return top + plot_h * (1 - k / k_top)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{title}">',
             f"<title>{title}</title>",
             f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="#fafafa" '
             f'stroke="#999"/>']
    for t in _nice_ticks(k_top):
        parts.append(f'<line x1="{left - 4}" x2="{left + plot_w}" y1="{y(t):.1f}" '
                     f'y2="{y(t):.1f}" stroke="#e3e3e3"/>'
                     f'<text x="{left - 6}" y="{y(t) + 4:.1f}" text-anchor="end" '
                     f'font-size="11">{t:g}</text>')
    for t in _nice_ticks(m_top):
        parts.append(f'<text x="{x(t):.1f}" y="{top + plot_h + 15}" text-anchor="middle" '
                     f'font-size="11">{t:g}</text>')
    parts.append(f'<text x="{left + plot_w / 2}" y="{height - 8}" text-anchor="middle" '
                 f'font-size="12">m: same-value family members known</text>'
                 f'<text transform="translate(14 {top + plot_h / 2}) rotate(-90)" '
                 f'text-anchor="middle" font-size="12">k: others\' values known</text>')
    levels = sorted({l for l, _, _ in points} | {l for l, _, _ in marks})
    for index, level in enumerate(levels):
        color = _PALETTE[index % len(_PALETTE)]
        runs = _staircase(points, level)
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
                         f'stroke="#000"><title>{_esc(f"policy point (l={l}, k={k}, m={m})")}'
                         f'</title></circle><text x="{x(m) + 6:.1f}" y="{y(k) - 6:.1f}" '
                         f'font-size="10">({l},{k},{m})</text>')
    if not points:
        parts.append(f'<text x="{left + plot_w / 2}" y="{top + plot_h / 2}" '
                     f'text-anchor="middle" font-size="13" fill="#b00020">unsafe even without '
                     f'any knowledge</text>')
    parts.append("</svg>")
    return "".join(parts)


def _size_bins(max_size: int) -> list[tuple[int, int]]:
    edges, scale = [1], 1
    while edges[-1] <= max_size:
        for step in (2, 5, 10):
            edges.append(step * scale)
        scale *= 10
    edges = sorted(set(edges))
    bins = [(lo, hi - 1) for lo, hi in zip(edges, edges[1:]) if lo <= max_size]
    return bins


def group_size_svg(sizes, *, width: int = 560, height: int = 240) -> str:
    """An inline SVG histogram of QI-group sizes in 1-2-5 bins (1, 2-4, 5-9, 10-19, ...).

    Examples
    --------
    >>> svg = group_size_svg([1, 3, 3, 12])
    >>> svg.startswith("<svg") and "2-4" in svg
    True
    """
    sizes = np.asarray(sizes, dtype=np.int64)
    bins = _size_bins(int(sizes.max()) if len(sizes) else 1)
    counts = [int(((sizes >= lo) & (sizes <= hi)).sum()) for lo, hi in bins]
    left, right, top, bottom = 50, 12, 16, 44
    plot_w, plot_h = width - left - right, height - top - bottom
    peak = max(counts + [1])
    slot = plot_w / len(bins)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="QI-group sizes">',
             "<title>Number of QI-groups by size</title>",
             f'<line x1="{left}" x2="{left + plot_w}" y1="{top + plot_h}" y2="{top + plot_h}" '
             f'stroke="#999"/>']
    for i, ((lo, hi), count) in enumerate(zip(bins, counts)):
        h = plot_h * count / peak
        bx = left + i * slot + slot * 0.1
        label = str(lo) if lo == hi else f"{lo}-{hi}"
        parts.append(f'<rect x="{bx:.1f}" y="{top + plot_h - h:.1f}" width="{slot * 0.8:.1f}" '
                     f'height="{h:.1f}" fill="#1b6ca8"><title>{count} group(s) of size '
                     f'{label}</title></rect>'
                     f'<text x="{bx + slot * 0.4:.1f}" y="{top + plot_h - h - 3:.1f}" '
                     f'text-anchor="middle" font-size="11">{count}</text>'
                     f'<text x="{bx + slot * 0.4:.1f}" y="{top + plot_h + 15}" '
                     f'text-anchor="middle" font-size="10">{label}</text>')
    parts.append(f'<text x="{left + plot_w / 2}" y="{height - 8}" text-anchor="middle" '
                 f'font-size="12">people in the QI-group</text>'
                 f'<text transform="translate(14 {top + plot_h / 2}) rotate(-90)" '
                 f'text-anchor="middle" font-size="12">QI-groups</text></svg>')
    return "".join(parts)


def _skyline_png(skyline: KnowledgeSkyline) -> str:
    from .plotting import plot_skyline_slices, pyplot

    plt = pyplot("render_report")
    figure = plot_skyline_slices(skyline)
    buffer = io.BytesIO()
    try:
        figure.savefig(buffer, format="png", dpi=80)
    finally:
        plt.close(figure)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    alt = f"Knowledge skyline of {skyline.value!r} at c = {confidence_text(skyline.c)}"
    return (f'<img alt="{_esc(alt)}" '
            f'src="data:image/png;base64,{data}">')


def _use_png(images: str) -> bool:
    if images == "svg":
        return False
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        if images == "png":
            raise ImportError("PNG pictures need matplotlib: pip install 'skyprivacy[plot]' "
                              "(or use images='svg').") from None
        return False
    return True


# ----------------------------------------------------------------------------------------- page
_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;
margin:0 auto;max-width:1100px;padding:24px;color:#1d1d1f;line-height:1.45;background:#fff}
h1{font-size:1.6em;margin:0 0 4px}h2{font-size:1.2em;margin:28px 0 8px;border-bottom:1px solid #ddd;
padding-bottom:4px}.muted{color:#666}.verdict{font-size:1.5em;font-weight:700;padding:14px 18px;
border-radius:8px;margin:16px 0}.verdict.safe{background:#e3f4e6;color:#155d27;
border:2px solid #2e933c}.verdict.unsafe{background:#fde7ea;color:#8a1022;border:2px solid #d1495b}
table{border-collapse:collapse;width:100%;font-size:.92em}th,td{border:1px solid #ddd;
padding:4px 8px;text-align:left;vertical-align:top}th{background:#f3f3f3}
tr.fail td{background:#fdf0f2}td.num{text-align:right;font-variant-numeric:tabular-nums}
dl{display:grid;grid-template-columns:max-content auto;gap:4px 16px;margin:0}dt{font-weight:600}
dd{margin:0;word-break:break-all}figure{margin:12px 0 24px}figcaption{font-size:.9em;color:#444;
max-width:900px}li{margin-bottom:6px}code{background:#f3f3f3;padding:0 3px;border-radius:3px}
"""


def _policy_text(policy: Mapping) -> str:
    def points(entry):
        return ", ".join(f"({', '.join(str(x) for x in p)})" for p in entry)

    lines = []
    if policy.get("default"):
        lines.append(f"<li>every value not listed: {_esc(points(policy['default']))}</li>")
    for value, entry in (policy.get("values") or {}).items():
        lines.append(f"<li><code>{_esc(value)}</code>: {_esc(points(entry))}</li>")
    return "<ul>" + "".join(lines) + "</ul>"


def render_report(certificate: Mapping, release: ReleaseCandidate, *,
                  skylines: Sequence[KnowledgeSkyline] = (), source: str | None = None,
                  title: str | None = None, images: str = "svg") -> str:
    """The HTML report of a certified release, as one self-contained page.

    Parameters
    ----------
    certificate : mapping
        A certificate from :func:`skyprivacy.certificate.build_certificate`.
    release : ReleaseCandidate
        The release it certifies (for the group-size distribution).
    skylines : sequence of KnowledgeSkyline, optional
        Knowledge skylines to draw (:func:`report_skylines` picks the most exposed values).
    source : str, optional
        How to name the table (e.g. its file name).
    title : str, optional
        Default: a certification report when the release is safe, a risk report otherwise.
    images : {'svg', 'png', 'auto'}, default 'svg'
        Skyline pictures drawn as inline SVG (with the policy's points marked), or the
        matplotlib pictures of :func:`skyprivacy.plot_skyline_slices` as PNG data URIs
        ('auto': PNG when matplotlib is installed).

    Returns
    -------
    str
        The HTML page.

    Examples
    --------
    >>> import pandas as pd
    >>> from skyprivacy import Policy
    >>> from skyprivacy.certificate import build_certificate
    >>> table = pd.DataFrame({"age": ["2*", "2*"], "disease": ["<b>Flu</b>", "Cold"]})
    >>> cert = build_certificate(table, Policy.uniform([(0, 0, 0, 0.9)]), qi="age",
    ...                          sensitive="disease")
    >>> page = render_report(cert, ReleaseCandidate.from_table(table, qi="age",
    ...                                                        sensitive="disease"))
    >>> "Verdict: SAFE" in page, "<b>Flu</b>" in page, "&lt;b&gt;Flu&lt;/b&gt;" in page
    (True, False, True)
    """
    if images not in _IMAGES:
        raise param_error("images", "render_report", f"be one of {list(_IMAGES)}", images)
    if not isinstance(release, ReleaseCandidate):
        raise param_error("release", "render_report", "be a ReleaseCandidate",
                          type(release).__name__)
    png = _use_png(images)
    checks = list(certificate["checks"])
    failing = [c for c in checks if not c["safe"]]
    safe = bool(certificate["safe"])
    if title is None:  # an unsafe table is not certified: call the page what it is
        title = "skyprivacy certification report" if safe else "skyprivacy risk report"
    sections = [
        _page_head(title, f"{_esc(source or 'released table')} &middot; certified",
                   certificate),
        _table_verdict(checks, failing),
        _table_summary(certificate, release, source),
        _table_checks(checks),
        _table_worst_cases(checks, failing),
        _table_skylines(skylines, checks, png),
        _table_next_step(failing),
        _table_group_sizes(release),
        _section("What this certifies", _TABLE_SCOPE),
    ]
    return "\n".join(part for part in sections if part) + "\n</body></html>\n"


def _page_head(title: str, subtitle_html: str, certificate: Mapping) -> str:
    """The page's head, title and the line naming the input, date and library version."""
    return "\n".join([
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_esc(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{_esc(title)}</h1>",
        f'<p class="muted">{subtitle_html} {_esc(certificate.get("created", ""))} by '
        f'skyprivacy {_esc(certificate.get("library", {}).get("version", ""))}</p>'])


def _verdict_box(safe: bool, verdict_html: str, explanation_html: str) -> str:
    return (f'<div class="verdict {"safe" if safe else "unsafe"}" id="verdict">{verdict_html}'
            f"</div>\n<p>{explanation_html}</p>")


def _section(heading: str, paragraph_html: str) -> str:
    return f"<h2>{_esc(heading)}</h2><p>{paragraph_html}</p>"


def _summary_list(rows) -> str:
    return "<h2>Summary</h2><dl>" + "".join(
        f"<dt>{_esc(k)}</dt><dd>{_esc(v)}</dd>" for k, v in rows) + "</dl>"


# -- the sections of a table's report
def _table_verdict(checks: list, failing: list) -> str:
    if not failing:
        verdict = f"Verdict: SAFE &mdash; all {len(checks)} (value, point) checks hold"
    else:
        verdict = (f"Verdict: UNSAFE &mdash; {len(failing)} of {len(checks)} (value, point) "
                   f"checks fail")
    return _verdict_box(
        not failing, verdict,
        "Each check asks: can an attacker who knows <i>l</i> values the target does not "
        "have, the values of <i>k</i> other people and <i>m</i> members of the target's "
        "same-value family reach confidence <i>c</i> that the target has the value? A check "
        "holds when the worst-case breach probability stays strictly below <i>c</i>.")


def _table_summary(certificate: Mapping, release: ReleaseCandidate, source) -> str:
    parameters = certificate["parameters"]
    table = certificate["table"]
    sizes = release.sizes_array
    grouping = (f"quasi-identifiers {', '.join(parameters['qi'])}" if parameters.get("qi")
                else f"bucket column {parameters.get('group')}")
    rows = [
        ("Table", f"{source or '(in memory)'}: {int(table.get('n_rows', 0)):,} rows, "
                  f"{len(table.get('columns', []))} columns"),
        ("SHA-256", table.get("sha256", "")),
        ("Groups", f"{release.n_groups:,} QI-groups of {int(sizes.min()):,} to "
                   f"{int(sizes.max()):,} people (average "
                   f"{release.n_individuals / release.n_groups:,.1f}), by {grouping}"),
        ("Sensitive column", parameters.get("sensitive", "")),
        ("Semantics", parameters.get("semantics", "")),
    ]
    out = [_summary_list(rows), "<h3>Policy (l, k, m, c)</h3>" + _policy_text(
        certificate["policy"])]
    if certificate.get("unused_policy_values"):
        out.append(f"<p>The policy names values the release does not contain: "
                   f"{_esc(', '.join(certificate['unused_policy_values']))}.</p>")
    return "\n".join(out)


def _table_checks(checks: list) -> str:
    out = ["<h2>Per-value checks</h2><table><thead><tr><th>Value</th><th>Skyline from</th>"
           "<th>l</th><th>k</th><th>m</th><th>c</th><th>Breach probability</th>"
           "<th>Exact</th><th>Verdict</th></tr></thead><tbody>"]
    for c in checks:
        out.append(f'<tr class="{"ok" if c["safe"] else "fail"}"><td>{_esc(c["value"])}</td>'
                   f'<td>{_esc(c.get("source", ""))}</td><td class="num">{c["l"]}</td>'
                   f'<td class="num">{c["k"]}</td><td class="num">{c["m"]}</td>'
                   f'<td class="num">{_esc(c.get("c", c["c_exact"]))}</td>'
                   f'<td class="num">{_pct(c["breach_probability_exact"], c["c_exact"])}</td>'
                   f'<td class="num">{_esc(_readable(c["breach_probability_exact"]))}</td>'
                   f'<td>{"safe" if c["safe"] else "<b>UNSAFE</b>"}</td></tr>')
    out.append("</tbody></table>")
    return "\n".join(out)


def _table_worst_cases(checks: list, failing: list) -> str:
    if failing:
        out = ["<h2>Worst cases of the failing checks</h2><ul>"]
        shown = failing
    else:
        out = ["<h2>Closest calls</h2><p>No check fails; these come nearest to their "
               "threshold.</p><ul>"]
        shown = sorted(checks, key=lambda c: _exact(c["c_exact"])
                       - _exact(c["breach_probability_exact"]))[:3]
    for c in shown:
        out.append(f'<li><b>{_esc(c["value"])}</b> at (l={c["l"]}, k={c["k"]}, m={c["m"]}, '
                   f'c={_esc(c.get("c", c["c_exact"]))}): breach probability '
                   f'{_esc(_readable(c["breach_probability_exact"]))} '
                   f'({_pct(c["breach_probability_exact"], c["c_exact"])}). '
                   f'{_esc(c.get("worst_case", ""))}</li>')
    out.append("</ul>")
    return "\n".join(out)


def _table_skylines(skylines: Sequence[KnowledgeSkyline], checks: list, png: bool) -> str:
    if not skylines:
        return ""
    out = ["<h2>Knowledge skylines</h2><p>For each value, every line bounds the "
           "knowledge the release withstands at that confidence: for a number "
           "<i>l</i> of ruled-out values, any (<i>m</i>, <i>k</i>) on or under the "
           "line of that <i>l</i> keeps the breach probability below <i>c</i>. Dots "
           "are the policy's points for that value at the same <i>c</i>; a dot above "
           "the line of its <i>l</i> is knowledge the release does not withstand.</p>"]
    for skyline in skylines:
        marks = [(c["l"], c["k"], c["m"]) for c in checks
                 if c["value"] == str(skyline.value) and _exact(c["c_exact"]) == skyline.c]
        picture = _skyline_png(skyline) if png else skyline_svg(skyline, policy_points=marks)
        breach = skyline.least_breach
        caption = (f"Knowledge skyline of {skyline.value!r} at c = "
                   f"{confidence_text(skyline.c)}: {len(skyline.points)} maximal safe point(s)")
        caption += (f"; the least knowledge that reaches c is (l, k, m) = {breach}."
                    if breach is not None else
                    "; safe against every amount of knowledge searched.")
        if any(b == p for point in skyline.points for b, p in zip(skyline.bounds, point)):
            caption += (f" A coordinate equal to its search bound {skyline.bounds} means "
                        f"safe up to that bound.")
        out.append(f"<figure>{picture}<figcaption>{_esc(caption)}</figcaption></figure>")
    return "\n".join(out)


def _table_next_step(failing: list) -> str:
    if not failing:
        return ""
    values = sorted({str(c["value"]) for c in failing})
    return _section(
        "Next step",
        "This table is not safe to release under the policy. Generalize it until it is: "
        "<code>skyprivacy anonymize</code> (Python: <code>skyline_anonymize</code>) with the "
        "same policy finds a safe generalization and certifies it; or, if the policy asks "
        "more than the release must withstand, relax the failing points for "
        f"{_esc(', '.join(values[:10]))}{' ...' if len(values) > 10 else ''}.")


def _table_group_sizes(release: ReleaseCandidate) -> str:
    sizes = release.sizes_array
    return ("<h2>QI-group sizes</h2><figure>" + group_size_svg(sizes) +
            f"<figcaption>{release.n_groups} QI-groups; median size "
            f"{float(np.median(sizes)):g}. Smaller groups expose their members to less "
            f"knowledge.</figcaption></figure>")


_TABLE_SCOPE = ("The breach probabilities are recomputed by <code>skyprivacy verify</code> "
                "from the released table and the certificate. They bound what an attacker "
                "with at most the stated (l, k, m) knowledge can infer from the "
                "quasi-identifiers named above; other columns, other releases of the same "
                "people and other kinds of knowledge are outside this guarantee.")


# ----------------------------------------------------------------------- decision rules
def tradeoff_svg(points: Sequence[tuple], *, kind: str = "delta", beta=None, fidelity=None,
                 width: int = 560, height: int = 260) -> str:
    """The privacy-fidelity trade-off curve beta*(fidelity) as an inline SVG (Fig. 5 of
    Chen, Golubchik and Pal), with the certified beta and the fidelity marked.

    Parameters
    ----------
    points : sequence of (fidelity, beta_star)
        Sorted by fidelity (:func:`skyprivacy.transparency.tradeoff_curve`).
    kind : {'delta', 'alpha'}
    beta, fidelity : float, optional
        The certified rule's beta and its fidelity level (a dot and a dashed line).

    Examples
    --------
    >>> svg = tradeoff_svg([(0.0, 0.6), (0.5, 0.62), (1.0, 1.0)], beta=0.62, fidelity=0.5)
    >>> svg.startswith("<svg") and "polyline" in svg and "circle" in svg
    True
    """
    left, right, top, bottom = 52, 16, 14, 40
    w, h = width - left - right, height - top - bottom

    def x(v):
        return left + w * float(v)

    def y(v):
        return top + h * (1 - float(v))

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="optimal beta against '
             f'{_esc(kind)}-fidelity">',
             f'<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="#fafafa" '
             f'stroke="#bbb"/>']
    for t in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<line x1="{left - 4}" x2="{left}" y1="{y(t):.1f}" y2="{y(t):.1f}" '
                     f'stroke="#777"/><text x="{left - 7}" y="{y(t) + 4:.1f}" font-size="11" '
                     f'text-anchor="end">{t:g}</text>')
        parts.append(f'<line x1="{x(t):.1f}" x2="{x(t):.1f}" y1="{top + h}" y2="{top + h + 4}" '
                     f'stroke="#777"/><text x="{x(t):.1f}" y="{top + h + 16}" font-size="11" '
                     f'text-anchor="middle">{t:g}</text>')
    line = " ".join(f"{x(f):.1f},{y(b):.1f}" for f, b in points)
    parts.append(f'<polyline points="{line}" fill="none" stroke="{_PALETTE[0]}" '
                 f'stroke-width="2"/>')
    if beta is not None:
        parts.append(f'<line x1="{left}" x2="{left + w}" y1="{y(beta):.1f}" y2="{y(beta):.1f}" '
                     f'stroke="{_PALETTE[1]}" stroke-dasharray="4 3"/>')
        if fidelity is not None:
            parts.append(f'<circle cx="{x(fidelity):.1f}" cy="{y(beta):.1f}" r="4.5" '
                         f'fill="{_PALETTE[1]}"><title>the certified rule: {_esc(kind)} = '
                         f'{float(fidelity):g}, beta = {float(beta):.6g}</title></circle>')
    parts.append(f'<text x="{left + w / 2:.1f}" y="{height - 6}" font-size="12" '
                 f'text-anchor="middle">{_esc(kind)}-fidelity</text>')
    parts.append(f'<text x="14" y="{top + h / 2:.1f}" font-size="12" text-anchor="middle" '
                 f'transform="rotate(-90 14 {top + h / 2:.1f})">optimal beta*</text>')
    parts.append("</svg>")
    return "".join(parts)


def render_rule_report(certificate: Mapping, *, curve: Sequence[tuple] = (),
                       source: str | None = None, title: str | None = None) -> str:
    """The HTML report of a certified decision rule (transparency report), self-contained.

    Parameters
    ----------
    certificate : mapping
        From :func:`skyprivacy.certificate.build_rule_certificate`.
    curve : sequence of (fidelity, beta_star), optional
        The trade-off curve to draw (binary tables; see
        :func:`skyprivacy.transparency.tradeoff_curve`).
    source : str, optional
        How to name the decision table.
    title : str, optional
        Default: a certification report when the rule is certified, a risk report otherwise.

    Returns
    -------
    str

    Examples
    --------
    >>> import pandas as pd
    >>> from skyprivacy.certificate import build_rule_certificate
    >>> df = pd.DataFrame({"g": ["F", "F"], "s": ["<b>a</b>", "b"], "w": [1, 1],
    ...                    "d": [0.5, 0.5]})
    >>> cert = build_rule_certificate(df, public="g", sensitive="s", weight="w",
    ...                               decision="d", beta=0.6)
    >>> page = render_rule_report(cert)
    >>> "Verdict: CERTIFIED" in page, "<b>a</b>" in page
    (True, False)
    """
    ok = bool(certificate["satisfied"])
    title = title or ("skyprivacy decision-rule certification" if ok
                      else "skyprivacy decision-rule risk report")
    sections = [
        _page_head(title, f"{_esc(source or 'decision table')} &middot;", certificate),
        _rule_verdict(certificate, ok),
        _rule_summary(certificate, source),
        _rule_groups(certificate),
        _rule_curve(certificate, curve),
        _rule_next_step(certificate, ok),
        _section("What this certifies", _RULE_SCOPE),
    ]
    return "\n".join(part for part in sections if part) + "\n</body></html>\n"


def _num(entry: Mapping) -> str:
    """A recorded number: its exact form when it has one, else the float."""
    return entry["exact"] if entry.get("exact") else f"{entry['value']:.6g}"


# -- the sections of a decision rule's report
def _rule_verdict(certificate: Mapping, ok: bool) -> str:
    beta, worst = certificate["beta"], certificate["max_confidence"]
    if ok:
        verdict = (f"Verdict: CERTIFIED &mdash; no inference channel of the announced rule "
                   f"reaches confidence above beta = {_esc(_num(beta))}")
    elif not certificate["private"]:
        verdict = (f"Verdict: NOT CERTIFIED &mdash; the announced rule lets an observer infer "
                   f"a sensitive value with confidence {_esc(_num(worst))}, above beta = "
                   f"{_esc(_num(beta))}")
    else:
        verdict = ("Verdict: NOT CERTIFIED &mdash; the announced rule breaks its fidelity "
                   "constraint")
    return _verdict_box(
        ok, verdict,
        "An observer who knows a person's public attributes and sees the decision the "
        "announced rule gives infers the sensitive value with a confidence (Definition 4 of "
        "Chen, Golubchik and Pal); the rule is beta-private when no such confidence exceeds "
        "beta.")


def _rule_summary(certificate: Mapping, source) -> str:
    beta, worst = certificate["beta"], certificate["max_confidence"]
    parameters, fidelity = certificate["parameters"], certificate["fidelity"]
    rows = [("Decision table", f"{source or '(in memory)'}: "
                               f"{certificate['table']['n_rows']:,} rows, SHA-256 "
                               f"{certificate['table']['sha256']}"),
            ("Announced rule", f"columns {', '.join(parameters['announced'] or [])} "
                               f"(SHA-256 {certificate['rule']['sha256']})"
                               if parameters.get("announced") else "the true decision rule"),
            ("Public / sensitive", f"{', '.join(parameters['public'])} / "
                                   f"{', '.join(parameters['sensitive'])}"),
            ("Certified beta", f"{_num(beta)} (uncertainty gamma = {beta['gamma']:.4g})"
                               + ("" if beta.get("exact") else
                                  f", float with relative tolerance {parameters['tolerance']}")),
            ("Maximum confidence", f"{_num(worst)}: group {worst['group']}, outcome "
                                   f"{worst['outcome']!r}, inferring {worst['sensitive']!r}")]
    if certificate.get("beta_star"):
        rows.append(("Optimal beta*", f"{_num(certificate['beta_star'])} (the smallest beta "
                                      f"any rule within the fidelity constraint can reach)"))
    constraint = fidelity.get("constraint")
    achieved = fidelity["achieved"]
    rows.append(("Fidelity", (f"constraint {constraint['kind']} >= {constraint['value']:g}: "
                              f"{'holds' if fidelity['holds'] else 'BROKEN'}; "
                              if constraint else "")
                 + f"achieved delta = {_num(achieved['delta'])}, alpha = "
                   f"{_num(achieved['alpha'])}"))
    return _summary_list(rows)


def _rule_groups(certificate: Mapping) -> str:
    groups = certificate["groups_reaching_beta"]
    if not groups:
        return "<h2>The groups that set beta</h2>\n<p>No group comes close to beta.</p>"
    return ("<h2>The groups that set beta</h2>\n"
            "<table><thead><tr><th>Public group</th><th>Maximum confidence</th>"
            "</tr></thead><tbody>" + "".join(
                f'<tr><td>{_esc(g["group"])}</td><td class="num">'
                f'{_esc(_num(g["max_confidence"]))}</td></tr>' for g in groups)
            + "</tbody></table>")


def _rule_curve(certificate: Mapping, curve: Sequence[tuple]) -> str:
    if not curve:
        return ""
    constraint = certificate["fidelity"].get("constraint")
    level = constraint["value"] if constraint else None
    kind = constraint["kind"] if constraint else "delta"
    return ("<h2>Privacy against fidelity</h2><figure>"
            + tradeoff_svg(curve, kind=kind, beta=certificate["beta"]["value"], fidelity=level)
            + "<figcaption>The smallest beta a rule within each fidelity level can "
              "reach (the optimal scheme); the dashed line is the certified beta, the "
              "dot the certified rule. More fidelity to the true rule costs "
              "privacy.</figcaption></figure>")


def _rule_next_step(certificate: Mapping, ok: bool) -> str:
    if ok:
        return ""
    return _section("Next step", (
        "Announce a perturbed rule: <code>skyprivacy transparency optimize</code> finds "
        "the rule with the smallest beta under a fidelity constraint; certify that rule."
        if not certificate["private"] else
        "Announce a rule within the fidelity constraint, or relax the constraint."))


_RULE_SCOPE = ("<code>skyprivacy transparency verify</code> recomputes every number above from "
               "the decision table and the announced rule. The guarantee covers observers who "
               "know the public attributes and the announced rule; it says nothing about other "
               "data about the same people.")
