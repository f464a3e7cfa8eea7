"""The identity-risk section of a table's report: a histogram of record risk (records by the
1/f of their class, as inline SVG) and the highest-risk classes, from the figures of
:meth:`skyprivacy.risk.IdentityRisk.to_json` (El Emam and Dankar 2008's prosecutor risk;
population uniqueness with its model and assumptions when a population size was given).

Every value that comes from the data goes through :func:`~skyprivacy.report.page.esc`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from .._core.text import percent_text
from ..errors import param_error
from .page import bar_chart_svg, esc

__all__ = ["record_risk_svg", "risk_section"]


def _buckets(largest: int) -> list[tuple[int, int]]:
    """Class-size ranges 1, 2, 3-4, 5-9, 10-19, 20-49, ... (risk 1, 1/2, 1/4-1/3, ...)."""
    edges, scale = [1, 2, 3], 1
    while edges[-1] <= largest:
        edges += [5 * scale, 10 * scale, 20 * scale]
        scale *= 10
    edges = sorted(set(edges))
    return [(lo, hi - 1) for lo, hi in zip(edges, edges[1:]) if lo <= largest]


def _risk_label(lo: int, hi: int) -> str:
    if lo == hi:
        return "1" if lo == 1 else f"1/{lo}"
    return f"1/{hi}-1/{lo}"


def record_risk_svg(class_sizes: Mapping, *, width: int = 560, height: int = 240) -> str:
    """An inline SVG histogram of the records by their prosecutor risk 1/f (f the size of
    their class), highest risk on the left.

    Parameters
    ----------
    class_sizes : mapping
        ``{"sizes": [...], "counts": [...]}``: ``counts[i]`` classes of ``sizes[i]`` records
        (the ``class_sizes`` entry of :meth:`IdentityRisk.to_json`).

    Examples
    --------
    >>> svg = record_risk_svg({"sizes": [1, 2, 7], "counts": [3, 1, 1]})
    >>> svg.startswith("<svg") and "1/9-1/5" in svg and ">3<" in svg
    True
    """
    sizes, counts = list(class_sizes["sizes"]), list(class_sizes["counts"])
    buckets = _buckets(max(sizes) if sizes else 1)
    records = [sum(s * c for s, c in zip(sizes, counts) if lo <= s <= hi) for lo, hi in buckets]
    bars = [(_risk_label(lo, hi), count, f"{count} record(s) at risk {_risk_label(lo, hi)}")
            for (lo, hi), count in zip(buckets, records)]
    return bar_chart_svg(bars, width=width, height=height, left=56, fill="#d1495b",
                         aria="Record risk",
                         title="Number of records by re-identification risk 1/f",
                         x_label="re-identification risk 1/f of the record", y_label="records")


def _share(text: str | None) -> str:
    if text is None:
        return "-"
    value = Fraction(text)
    return f"{value} ({percent_text(value)})"


def risk_section(figures: Mapping) -> str:
    """The report's "Identity risk" section from :meth:`IdentityRisk.to_json` figures: the
    summary of the measures, the record-risk histogram and the highest-risk classes."""
    if not isinstance(figures, Mapping) or "class_sizes" not in figures:
        raise param_error("risk", "render_report", "be the figures of IdentityRisk.to_json",
                          type(figures).__name__)
    qi = [str(c) for c in figures["qi"]]
    rows = [("Quasi-identifiers", ", ".join(qi)),
            ("Records / classes", f"{figures['n_records']:,} / {figures['n_classes']:,}"),
            ("Prosecutor risk, max", _share(figures["prosecutor_max_exact"])),
            ("Prosecutor risk, average", _share(figures["prosecutor_average_exact"])),
            ("Marketer risk", _share(figures["marketer_exact"])),
            ("Sample uniqueness", _share(figures["sample_uniqueness_exact"]))]
    if figures.get("threshold_exact") is not None:
        rows.append((f"Records above risk {figures['threshold_exact']}",
                     _share(figures["records_above_threshold_exact"])))
    population = figures.get("population")
    if population:
        rows.append((f"Population uniqueness (N = {population['population_size']:,}, "
                     f"{population['model']})",
                     f"{population['share']:.4%} ({population['uniques']:,.1f} people)"))
    journalist = figures.get("journalist")
    if journalist:
        rows.append(("Journalist risk, max / average",
                     f"{_share(journalist['max_exact'])} / {_share(journalist['average_exact'])}"))
    out = ['<section id="identity-risk"><h2>Identity risk</h2>',
           "<p>Can anyone find a person's record at all? A record in a class of <i>f</i> "
           "records that agree on every quasi-identifier is re-identified with probability "
           "1/<i>f</i> by an attacker who knows the person is in the table (prosecutor "
           "risk).</p><dl>",
           "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in rows), "</dl>"]
    if population:
        out.append("<ul>" + "".join(f"<li>{esc(s)}</li>" for s in population["assumptions"])
                   + "</ul>")
    out.append(f'<figure>{record_risk_svg(figures["class_sizes"])}<figcaption>Records by their '
               f're-identification risk 1/<i>f</i>; the bars on the left are the records '
               f'easiest to find.</figcaption></figure>')
    highest = figures.get("highest") or []
    if highest:
        out.append("<h3>Highest-risk classes</h3><table><thead><tr>"
                   + "".join(f"<th>{esc(c)}</th>" for c in qi)
                   + "<th>Records</th><th>Risk</th></tr></thead><tbody>")
        for row in highest:
            out.append("<tr>" + "".join(f"<td>{esc(row['values'][c])}</td>" for c in qi)
                       + f'<td class="num">{row["class_size"]:,}</td>'
                       f'<td class="num">{esc(_share(row["risk_exact"]))}</td></tr>')
        out.append("</tbody></table>")
    out.append("</section>")
    return "\n".join(out)
