"""HTML reports: one self-contained page per certificate, for reviewers.

Each area's page lives in its own module, over the page machinery they share:

=====================  =====================================================================
module                 what lives there
=====================  =====================================================================
:mod:`.page`           escaping, the inline style, the page's frame and the colours
:mod:`.skyline`        the report of a certified table: :func:`render_report`,
                       :func:`report_skylines`, :func:`skyline_svg`, :func:`group_size_svg`
:mod:`.risk`           the identity-risk section of a table's report: :func:`risk_section`,
                       :func:`record_risk_svg`
:mod:`.anonymization`  how a release of :func:`skyprivacy.anonymize` was made:
                       :func:`anonymization_section`
:mod:`.transparency`   the report of a certified decision rule: :func:`render_rule_report`,
                       :func:`tradeoff_svg`
=====================  =====================================================================

Pages are returned as strings; the command line writes them with
:func:`skyprivacy.io.write_text`.
"""

from .anonymization import anonymization_section
from .risk import record_risk_svg, risk_section
from .skyline import group_size_svg, render_report, report_skylines, skyline_svg
from .transparency import render_rule_report, tradeoff_svg

__all__ = ["render_report", "report_skylines", "skyline_svg", "group_size_svg",
           "render_rule_report", "tradeoff_svg", "risk_section", "record_risk_svg",
           "anonymization_section"]
