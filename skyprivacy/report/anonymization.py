"""The anonymization section of a table's report: how a release made by
:func:`skyprivacy.anonymize` was made, from its certificate
(:func:`skyprivacy.certificate.anonymization_certificate`): the criteria and each one's
verdict, the chosen node of the full-domain lattice (a level per quasi-identifier) or the
Mondrian partition, the objective and utility figures, and the suppressed rows (how many,
within which budget, which groups failed which criterion, and the masked group).

Every value that comes from the data goes through :func:`~skyprivacy.report.page.esc`.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import param_error
from .page import esc

__all__ = ["anonymization_section"]

#: Suppressed groups listed in full before the rest are counted.
_SHOWN = 20


def _criteria_table(results: list) -> str:
    rows = "".join(
        f"<tr><td>{esc(r['criterion'])}</td><td>{'holds' if r['safe'] else 'FAILS'}</td>"
        f"<td class=\"num\">{esc(r.get('failing_groups', '-'))}</td></tr>" for r in results)
    return ("<h3>Criteria</h3><p>The release must satisfy every criterion (they combine with "
            "AND); each verdict is recomputed by <code>skyprivacy verify</code>.</p><table>"
            "<thead><tr><th>Criterion</th><th>Verdict</th><th>Failing groups</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>")


def _node(section: Mapping) -> str:
    levels = section.get("levels")
    partition = section["partition"]
    groups = (f"{partition['n_groups']:,} QI-groups of {partition['min_group_size']:,} to "
              f"{partition['max_group_size']:,} rows (average "
              f"{partition['average_group_size']:,.1f})")
    if levels is None:
        return (f"<h3>Mondrian partition</h3><p>Multidimensional partitioning released "
                f"{esc(groups)}.</p>")
    rows = "".join(f"<tr><td>{esc(name)}</td><td class=\"num\">{int(level)}</td></tr>"
                   for name, level in levels.items())
    search = section.get("search") or {}
    checked = ""
    if search.get("nodes_checked") is not None and search.get("lattice_size"):
        checked = (f" The search checked {search['nodes_checked']:,} of the "
                   f"{search['lattice_size']:,} nodes of the lattice.")
    return ("<h3>Chosen node (full-domain generalization)</h3><p>Every value of a "
            "quasi-identifier is generalized to the same level of its hierarchy (0: as "
            f"collected).{esc(checked)} The release has {esc(groups)}.</p><table "
            "id=\"levels\"><thead><tr><th>Quasi-identifier</th><th>Level</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>")


def _utility(section: Mapping) -> str:
    objective = section["objective"]
    utility = section["utility"]
    value = objective.get("value")
    shown = "-" if value is None else (
        f"{esc(value)}" + ("" if "/" not in str(value) else
                          f" (&asymp; {float(objective['value_float']):.6g})"))
    return ("<h3>Utility</h3><dl id=\"utility\">"
            f"<dt>Objective</dt><dd>{esc(objective['name'])} = {shown}</dd>"
            f"<dt>Discernibility of the released groups</dt>"
            f"<dd>{utility['discernibility']:,}</dd>"
            f"<dt>Discernibility, each suppressed row charged N</dt>"
            f"<dd>{utility['discernibility_suppressed_charged_n']:,}</dd></dl>")


def _suppression(section: Mapping) -> str:
    supp = section["suppression"]
    n, budget, original = supp["n_suppressed"], supp["budget"], supp["n_original_rows"]
    how = ("removed from the release" if supp["suppressed"] == "drop" else
           "released with every quasi-identifier '*'")
    out = [f"<h3>Suppressed rows</h3><p id=\"suppressed\">{n:,} of {original:,} rows "
           f"suppressed ({esc(how)}); the limit {esc(supp['limit'])} of the rows allowed "
           f"{budget:,}.</p>"]
    groups = supp.get("groups")
    if n and groups:
        rows = "".join(
            "<tr><td>" + esc(", ".join(f"{k} = {v}" for k, v in (g.get("group") or {}).items()))
            + f"</td><td class=\"num\">{int(g['n_rows']):,}</td><td>"
            + esc(", ".join(g.get("fails") or [])) + "</td></tr>" for g in groups[:_SHOWN])
        more = (f"<p>And {len(groups) - _SHOWN:,} more group(s), listed in the "
                f"certificate.</p>" if len(groups) > _SHOWN else "")
        out.append("<p>Why: at the chosen node these groups fail a criterion; their rows fit "
                   "the budget, so they were suppressed instead of generalizing further."
                   "</p><table id=\"suppressed-groups\"><thead><tr><th>Group</th><th>Rows"
                   f"</th><th>Fails</th></tr></thead><tbody>{rows}</tbody></table>{more}")
    masked = section.get("masked_group")
    if masked:
        verdicts = ", ".join(f"{v['criterion']} {'holds' if v['safe'] else 'FAILS'}"
                             for v in masked["criteria"]) or "no per-group criterion"
        out.append(f"<p>The masked group holds {masked['n_rows']:,} rows and is itself a "
                   f"QI-group of the release: {esc(verdicts)}.</p>")
    return "".join(out)


def anonymization_section(certificate: Mapping) -> str:
    """The "Anonymization" section of the report of a certificate with criteria.

    Parameters
    ----------
    certificate : mapping
        A certificate with a ``criteria`` section and, when the release was made by
        :func:`skyprivacy.anonymize`, an ``anonymization`` section.

    Returns
    -------
    str
        HTML: the criteria's verdicts; with ``anonymization`` also the chosen node or the
        partition, the utility figures and the suppressed rows with their reasons.

    Raises
    ------
    InvalidParameterError
        If the certificate has no ``criteria`` section.

    Examples
    --------
    >>> html = anonymization_section({"criteria": {"spec": {"k": [2]}, "results": [
    ...     {"criterion": "KAnonymity(k=2)", "safe": True, "failing_groups": 0}]}})
    >>> html.startswith('<section id="anonymization">') and "KAnonymity(k=2)" in html
    True
    """
    criteria = certificate.get("criteria") if isinstance(certificate, Mapping) else None
    if not isinstance(criteria, Mapping):
        raise param_error("certificate", "anonymization_section", "have a 'criteria' section",
                          type(certificate).__name__)
    parts = ['<section id="anonymization"><h2>Anonymization</h2>',
             _criteria_table(criteria["results"])]
    section = certificate.get("anonymization")
    if section is not None:
        method = esc(section["method"])
        parts.insert(1, f"<p>Made by <code>skyprivacy.anonymize</code> with method "
                        f"<b>{method}</b>.</p>")
        parts += [_node(section), _utility(section), _suppression(section)]
    return "".join(parts) + "</section>"
