"""The page machinery every HTML report shares: escaping, the inline style and the page's
frame (head, verdict box, sections, summary list), and the colours of the pictures.

A report page (:mod:`.skyline`, :mod:`.transparency`) is a string of HTML built from these
parts; it needs nothing from outside: CSS is inline, pictures are inline SVG, there is no
script and no external font.  Every value that comes from the data goes through
:func:`esc`.  Pages are returned as strings; :func:`skyprivacy.io.write_text` writes them.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._core.display import PALETTE, esc

__all__ = ["esc", "PALETTE", "CSS", "page_head", "verdict_box", "section", "summary_list",
           "bar_chart_svg"]

#: The inline style of every page.
CSS = """
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


def page_head(title: str, subtitle_html: str, certificate: Mapping) -> str:
    """The page's head, title and the line naming the input, date and library version."""
    return "\n".join([
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
        f'<p class="muted">{subtitle_html} {esc(certificate.get("created", ""))} by '
        f'skyprivacy {esc(certificate.get("library", {}).get("version", ""))}</p>'])


def verdict_box(safe: bool, verdict_html: str, explanation_html: str) -> str:
    """The coloured verdict (green when ``safe``, red otherwise) and the paragraph under it."""
    return (f'<div class="verdict {"safe" if safe else "unsafe"}" id="verdict">{verdict_html}'
            f"</div>\n<p>{explanation_html}</p>")


def section(heading: str, paragraph_html: str) -> str:
    """A heading and one paragraph (the paragraph is HTML: escape its data first)."""
    return f"<h2>{esc(heading)}</h2><p>{paragraph_html}</p>"


def summary_list(rows) -> str:
    """The "Summary" section: one (label, value) row per pair, both escaped."""
    return "<h2>Summary</h2><dl>" + "".join(
        f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in rows) + "</dl>"


def bar_chart_svg(bars, *, width: int, height: int, left: int, fill: str, aria: str,
                  title: str, x_label: str, y_label: str) -> str:
    """An inline SVG bar chart: one bar per ``(label, count, tooltip)``, its count above it and
    its label below, on a shared baseline (the report's histograms).

    Examples
    --------
    >>> svg = bar_chart_svg([("1", 3, "3 things")], width=200, height=120, left=40,
    ...                     fill="#000", aria="a", title="t", x_label="x", y_label="y")
    >>> svg.startswith("<svg") and ">3<" in svg and "3 things" in svg
    True
    """
    right, top, bottom = 12, 16, 44
    plot_w, plot_h = width - left - right, height - top - bottom
    peak = max([count for _, count, _ in bars] + [1])
    slot = plot_w / len(bars)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{aria}">',
             f"<title>{title}</title>",
             f'<line x1="{left}" x2="{left + plot_w}" y1="{top + plot_h}" y2="{top + plot_h}" '
             f'stroke="#999"/>']
    for i, (label, count, tooltip) in enumerate(bars):
        h = plot_h * count / peak
        bx = left + i * slot + slot * 0.1
        parts.append(f'<rect x="{bx:.1f}" y="{top + plot_h - h:.1f}" width="{slot * 0.8:.1f}" '
                     f'height="{h:.1f}" fill="{fill}"><title>{tooltip}</title></rect>'
                     f'<text x="{bx + slot * 0.4:.1f}" y="{top + plot_h - h - 3:.1f}" '
                     f'text-anchor="middle" font-size="11">{count}</text>'
                     f'<text x="{bx + slot * 0.4:.1f}" y="{top + plot_h + 15}" '
                     f'text-anchor="middle" font-size="10">{label}</text>')
    parts.append(f'<text x="{left + plot_w / 2}" y="{height - 8}" text-anchor="middle" '
                 f'font-size="12">{x_label}</text>'
                 f'<text transform="translate(14 {top + plot_h / 2}) rotate(-90)" '
                 f'text-anchor="middle" font-size="12">{y_label}</text></svg>')
    return "".join(parts)
