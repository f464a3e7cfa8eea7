"""The HTML report of a certified decision rule (a transparency report; Chen, Golubchik and
Pal 2022): one self-contained page with the verdict, the certified beta against the maximum
confidence, the groups that set it, the fidelity achieved and the privacy-fidelity trade-off
curve (:func:`tradeoff_svg`).

The page's frame and escaping are :mod:`.page`'s.  Everything here is pure: the page is
returned as a string (:func:`skyprivacy.io.write_text` writes it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .page import PALETTE, esc, page_head, section, summary_list, verdict_box

__all__ = ["render_rule_report", "tradeoff_svg"]


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
             f'{esc(kind)}-fidelity">',
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
    parts.append(f'<polyline points="{line}" fill="none" stroke="{PALETTE[0]}" '
                 f'stroke-width="2"/>')
    if beta is not None:
        parts.append(f'<line x1="{left}" x2="{left + w}" y1="{y(beta):.1f}" y2="{y(beta):.1f}" '
                     f'stroke="{PALETTE[1]}" stroke-dasharray="4 3"/>')
        if fidelity is not None:
            parts.append(f'<circle cx="{x(fidelity):.1f}" cy="{y(beta):.1f}" r="4.5" '
                         f'fill="{PALETTE[1]}"><title>the certified rule: {esc(kind)} = '
                         f'{float(fidelity):g}, beta = {float(beta):.6g}</title></circle>')
    parts.append(f'<text x="{left + w / 2:.1f}" y="{height - 6}" font-size="12" '
                 f'text-anchor="middle">{esc(kind)}-fidelity</text>')
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
        From :func:`skyprivacy.transparency.certificate.build_rule_certificate`.
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
    >>> from skyprivacy.transparency.certificate import build_rule_certificate
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
        page_head(title, f"{esc(source or 'decision table')} &middot;", certificate),
        _rule_verdict(certificate, ok),
        _rule_summary(certificate, source),
        _rule_groups(certificate),
        _rule_curve(certificate, curve),
        _rule_next_step(certificate, ok),
        section("What this certifies", _RULE_SCOPE),
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
                   f"reaches confidence above beta = {esc(_num(beta))}")
    elif not certificate["private"]:
        verdict = (f"Verdict: NOT CERTIFIED &mdash; the announced rule lets an observer infer "
                   f"a sensitive value with confidence {esc(_num(worst))}, above beta = "
                   f"{esc(_num(beta))}")
    else:
        verdict = ("Verdict: NOT CERTIFIED &mdash; the announced rule breaks its fidelity "
                   "constraint")
    return verdict_box(
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
    return summary_list(rows)


def _rule_groups(certificate: Mapping) -> str:
    groups = certificate["groups_reaching_beta"]
    if not groups:
        return "<h2>The groups that set beta</h2>\n<p>No group comes close to beta.</p>"
    return ("<h2>The groups that set beta</h2>\n"
            "<table><thead><tr><th>Public group</th><th>Maximum confidence</th>"
            "</tr></thead><tbody>" + "".join(
                f'<tr><td>{esc(g["group"])}</td><td class="num">'
                f'{esc(_num(g["max_confidence"]))}</td></tr>' for g in groups)
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
    return section("Next step", (
        "Announce a perturbed rule: <code>skyprivacy transparency optimize</code> finds "
        "the rule with the smallest beta under a fidelity constraint; certify that rule."
        if not certificate["private"] else
        "Announce a rule within the fidelity constraint, or relax the constraint."))


_RULE_SCOPE = ("<code>skyprivacy transparency verify</code> recomputes every number above from "
               "the decision table and the announced rule. The guarantee covers observers who "
               "know the public attributes and the announced rule; it says nothing about other "
               "data about the same people.")
