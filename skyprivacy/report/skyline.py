"""The HTML certification report of a released table: one self-contained page for reviewers.

:func:`render_report` turns a certificate (:mod:`skyprivacy.certificate`), the release candidate
it describes and a few knowledge skylines (Chen, LeFevre and Ramakrishnan 2009, Definition 5,
Sect. 6.3; computed by :func:`report_skylines`) into one HTML page: the verdict, the per-value
table of breach probabilities, the worst cases in words (Sect. 6.1), a picture of each knowledge
skyline with the policy's points on it, and the distribution of QI-group sizes.

Pictures are inline SVG drawn here (or, with ``images="png"``, the library's matplotlib
pictures as ``data:`` URIs); the page's frame and escaping are :mod:`.page`'s.

Everything here is pure: the page is returned as a string (:func:`skyprivacy.io.write_text`
writes it).
"""

from __future__ import annotations

import base64
import io
from collections.abc import Mapping, Sequence

import numpy as np

from .._core.exact import parse_fraction, readable_fraction
from .._core.text import confidence_text, percent_text
from ..check import SkylineCheckResult
from ..errors import param_error
from ..find import KnowledgeSkyline, skyline_find
from ..release import ReleaseCandidate
from .._core.display import finish, progress_callback, skyline_staircase_svg
from .._core.display import staircase as _staircase  # noqa: F401 - the tests' name
from .page import bar_chart_svg, esc, page_head, section, summary_list, verdict_box
from .anonymization import anonymization_section
from .risk import risk_section

__all__ = ["render_report", "report_skylines", "skyline_svg", "group_size_svg"]

_IMAGES = ("svg", "png", "auto")


def _pct(p, threshold=None) -> str:
    return percent_text(_exact(p), threshold)


def _exact(value):
    """A certificate's exact number ('p/q' text of any length) as a Fraction."""
    return parse_fraction(value) if isinstance(value, str) else value


def _readable(value) -> str:
    """A certificate's exact number as a person reads it (rounded past thousands of digits)."""
    return readable_fraction(_exact(value))


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
        The confidence of every skyline; by default
        each value's strictest (smallest) c in the policy, so the policy's points can be read
        against the picture.
    n_values : int, default 4
        How many values to draw (0 for none).
    progress : callable or bool, optional
        Called with the fraction of skylines done; ``True`` draws a tqdm bar.

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
    progress = progress_callback(progress, owner="report_skylines", label="drawing skylines")
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
    finish(progress)
    return out


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
    return skyline_staircase_svg(skyline.points, f"Knowledge skyline of {skyline.value!r} "
                                                 f"at c = {confidence_text(skyline.c)}",
                                 policy_points=policy_points, width=width, height=height)


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
    labels = [str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in bins]
    bars = [(label, count, f"{count} group(s) of size {label}")
            for label, count in zip(labels, counts)]
    return bar_chart_svg(bars, width=width, height=height, left=50, fill="#1b6ca8",
                         aria="QI-group sizes", title="Number of QI-groups by size",
                         x_label="people in the QI-group", y_label="QI-groups")


def _skyline_png(skyline: KnowledgeSkyline) -> str:
    from ..plotting import plot_skyline_slices, pyplot

    plt = pyplot("render_report")
    figure = plot_skyline_slices(skyline)
    buffer = io.BytesIO()
    try:
        figure.savefig(buffer, format="png", dpi=80)
    finally:
        plt.close(figure)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    alt = f"Knowledge skyline of {skyline.value!r} at c = {confidence_text(skyline.c)}"
    return (f'<img alt="{esc(alt)}" '
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
def _policy_text(policy: Mapping) -> str:
    def points(entry):
        return ", ".join(f"({', '.join(str(x) for x in p)})" for p in entry)

    lines = []
    if policy.get("default"):
        lines.append(f"<li>every value not listed: {esc(points(policy['default']))}</li>")
    for value, entry in (policy.get("values") or {}).items():
        lines.append(f"<li><code>{esc(value)}</code>: {esc(points(entry))}</li>")
    return "<ul>" + "".join(lines) + "</ul>"


def render_report(certificate: Mapping, release: ReleaseCandidate, *,
                  skylines: Sequence[KnowledgeSkyline] = (), source: str | None = None,
                  title: str | None = None, images: str = "svg",
                  risk: Mapping | None = None) -> str:
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
    risk : mapping, optional
        Identity-risk figures (:meth:`skyprivacy.risk.IdentityRisk.to_json`): an "Identity
        risk" section beside the skylines, with a histogram of record risk and the
        highest-risk classes (:func:`skyprivacy.report.risk.risk_section`).

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
        page_head(title, f"{esc(source or 'released table')} &middot; certified",
                   certificate),
        _table_verdict(checks, failing, certificate),
        _table_summary(certificate, release, source),
        anonymization_section(certificate) if "criteria" in certificate else "",
        _table_checks(checks) if checks else "",  # none: criteria without a skyline
        _table_worst_cases(checks, failing) if checks else "",
        _table_skylines(skylines, checks, png),
        "" if risk is None else risk_section(risk),
        _table_next_step(failing),
        _table_group_sizes(release),
        section("What this certifies", _TABLE_SCOPE),
    ]
    return "\n".join(part for part in sections if part) + "\n</body></html>\n"


# -- the sections of a table's report
def _table_verdict(checks: list, failing: list, certificate: Mapping) -> str:
    results = (certificate.get("criteria") or {}).get("results") or []
    broken = [r for r in results if not r["safe"]]
    if results:  # combined criteria: the skyline checks are one of them, if any
        verdict = (f"Verdict: {'SAFE' if not failing and not broken else 'UNSAFE'} &mdash; "
                   f"{len(results) - len(broken)} of {len(results)} criteria hold"
                   + (f", {len(checks) - len(failing)} of {len(checks)} (value, point) checks "
                      f"hold" if checks else ""))
    elif not failing:
        verdict = f"Verdict: SAFE &mdash; all {len(checks)} (value, point) checks hold"
    else:
        verdict = (f"Verdict: UNSAFE &mdash; {len(failing)} of {len(checks)} (value, point) "
                   f"checks fail")
    explanation = (
        "Each check asks: can an attacker who knows <i>l</i> values the target does not "
        "have, the values of <i>k</i> other people and <i>m</i> members of the target's "
        "same-value family reach confidence <i>c</i> that the target has the value? A check "
        "holds when the worst-case breach probability stays strictly below <i>c</i>.")
    if not checks:  # criteria without a skyline policy: no (value, point) check to explain
        explanation = ("The release is safe when every criterion of the Anonymization section "
                       "holds on the table as published.")
    return verdict_box(not failing and not broken, verdict, explanation)


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
        *_classification_rows(certificate.get("classification")),
    ]
    out = [summary_list(rows)]
    if certificate.get("policy") is not None:  # None: criteria without a skyline policy
        out.append("<h3>Policy (l, k, m, c)</h3>" + _policy_text(certificate["policy"]))
    if certificate.get("unused_policy_values"):
        out.append(f"<p>The policy names values the release does not contain: "
                   f"{esc(', '.join(certificate['unused_policy_values']))}.</p>")
    return "\n".join(out)


def _classification_rows(classification) -> list[tuple[str, str]]:
    """The Summary rows of the certificate's classification: the columns published as is,
    unanalysed, and those left out (none when it records no classification)."""
    if not isinstance(classification, Mapping):
        return []
    return [("Kept as is (not analysed)", ", ".join(classification["kept"]) or "none"),
            ("Dropped (not published)", ", ".join(classification["dropped"]) or "none")]


def _table_checks(checks: list) -> str:
    out = ["<h2>Per-value checks</h2><table><thead><tr><th>Value</th><th>Skyline from</th>"
           "<th>l</th><th>k</th><th>m</th><th>c</th><th>Breach probability</th>"
           "<th>Exact</th><th>Verdict</th></tr></thead><tbody>"]
    for c in checks:
        out.append(f'<tr class="{"ok" if c["safe"] else "fail"}"><td>{esc(c["value"])}</td>'
                   f'<td>{esc(c.get("source", ""))}</td><td class="num">{c["l"]}</td>'
                   f'<td class="num">{c["k"]}</td><td class="num">{c["m"]}</td>'
                   f'<td class="num">{esc(c.get("c", c["c_exact"]))}</td>'
                   f'<td class="num">{_pct(c["breach_probability_exact"], c["c_exact"])}</td>'
                   f'<td class="num">{esc(_readable(c["breach_probability_exact"]))}</td>'
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
        out.append(f'<li><b>{esc(c["value"])}</b> at (l={c["l"]}, k={c["k"]}, m={c["m"]}, '
                   f'c={esc(c.get("c", c["c_exact"]))}): breach probability '
                   f'{esc(_readable(c["breach_probability_exact"]))} '
                   f'({_pct(c["breach_probability_exact"], c["c_exact"])}). '
                   f'{esc(c.get("worst_case", ""))}</li>')
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
        out.append(f"<figure>{picture}<figcaption>{esc(caption)}</figcaption></figure>")
    return "\n".join(out)


def _table_next_step(failing: list) -> str:
    if not failing:
        return ""
    values = sorted({str(c["value"]) for c in failing})
    return section(
        "Next step",
        "This table is not safe to release under the policy. Generalize it until it is: "
        "<code>skyprivacy anonymize</code> (Python: <code>skyline_anonymize</code>) with the "
        "same policy finds a safe generalization and certifies it; or, if the policy asks "
        "more than the release must withstand, relax the failing points for "
        f"{esc(', '.join(values[:10]))}{' ...' if len(values) > 10 else ''}.")


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
