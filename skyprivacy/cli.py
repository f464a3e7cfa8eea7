"""The ``skyprivacy`` command line: a thin shell over the library.

``main(argv) -> int`` parses the arguments, reads the inputs through :mod:`skyprivacy.io`, calls
the library (:func:`skyprivacy.skyline_check`, :func:`skyprivacy.skyline_anonymize`,
:func:`skyprivacy.skyline_find_all`, the baselines and :mod:`skyprivacy.transparency`), and
prints results on stdout (a readable table, or JSON with a ``schema_version`` under
``--format json``); diagnostics, warnings and progress bars go to stderr.  Output files are
staged and put in place only when the whole run succeeded.

Exit codes: 0 safe / done, 1 unsafe or infeasible (or a certificate that does not verify),
2 usage error, 3 input error (missing or unreadable file, missing column, missing value,
malformed policy, hierarchy or certificate, unknown policy value), 4 internal error (a bug:
please report it with the traceback), 141 when stdout is closed early (``| head``).  The
reference is ``docs/cli.md``.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
import traceback
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd

from ._core.version import __version__
from .anonymize import k_anonymize, skyline_anonymize
from .baselines import cl_diversity_policy, recursive_cl_diversity
from .certificate import build_certificate, verify_certificate
from .check import skyline_check
from .errors import (
    EngineError,
    HierarchyError,
    InfeasibleError,
    InvalidParameterError,
    SchemaError,
    SkyPrivacyWarning,
    UnusedPolicyValueWarning,
)
from .find import skyline_find_all
from .hierarchy import Hierarchy
from .io import (
    NA_MARKERS,
    TABLE_FORMATS,
    InputError,
    OutputFiles,
    as_numbers,
    json_bytes,
    read_bytes,
    read_certificate,
    read_hierarchy,
    read_policy,
    read_table,
    read_table_dask,
    reject_missing,
    require_columns,
    table_bytes,
    table_format,
    write_parquet_dataset,
)
from .labels import DEFAULT_LABEL_LENGTH, labels_bytes, labels_record
from .qi import ORDERS
from .release import SEMANTICS, ReleaseCandidate
from ._core.text import confidence_text, percent_text

__all__ = ["main", "build_parser", "SCHEMA_VERSION", "EXIT_OK", "EXIT_UNSAFE", "EXIT_USAGE",
           "EXIT_INPUT", "EXIT_INTERNAL"]

#: Version of the JSON printed by ``--format json`` (every command's object carries it).
SCHEMA_VERSION = 1
EXIT_OK, EXIT_UNSAFE, EXIT_USAGE, EXIT_INPUT, EXIT_INTERNAL = 0, 1, 2, 3, 4
EXIT_BROKEN_PIPE = 141  # as a shell reports a process ended by SIGPIPE

EXIT_CODES = """\
exit codes:
  0  safe / done (verify: the certificate matches)
  1  unsafe or infeasible (verify: a difference was found)
  2  usage error (bad or missing arguments)
  3  input error (unreadable file, missing column, missing value, malformed policy,
     hierarchy or certificate, a policy value the data does not contain)
  4  internal error (a bug in skyprivacy; please report it with the traceback)
  141  stdout was closed early (e.g. piped into head)
"""


class UsageError(Exception):
    """Arguments that parse but do not make sense together (exit code 2)."""


# ----------------------------------------------------------------------- argument types
def _column_list(text: str) -> list[str]:
    names = [part.strip() for part in text.split(",")]
    if not text.strip() or any(not name for name in names):
        raise argparse.ArgumentTypeError(f"expected comma-separated column names, got {text!r}")
    if len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(f"a column is named twice in {text!r}")
    return names


def _value_list(text: str) -> list[str]:
    values = [part.strip() for part in text.split(",")]
    if any(not value for value in values):
        raise argparse.ArgumentTypeError(f"expected comma-separated values, got {text!r}")
    return values


def _text_list(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def _fraction_or_float(text: str):
    text = text.strip()
    try:
        if "/" in text:
            return Fraction(text)
        return int(text) if text.lstrip("+-").isdigit() else float(text)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"expected a number or a fraction like 2/3, got "
                                         f"{text!r}") from None


def _confidence(text: str):
    value = _fraction_or_float(text)
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"must be in (0, 1], got {text!r}")
    return value


def _unit_interval(text: str):
    value = _fraction_or_float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be in [0, 1], got {text!r}")
    return value


def _non_negative(text: str):
    value = _fraction_or_float(text)
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0, got {text!r}")
    return value


def _positive(text: str):
    value = _fraction_or_float(text)
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number > 0, got {text!r}")
    return value


def _int_at_least(minimum: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value
    parse.__name__ = f"integer >= {minimum}"
    return parse


def _hierarchy_spec(text: str) -> tuple[str, str]:
    column, sep, source = text.partition("=")
    if not sep or not column.strip() or not source.strip():
        raise argparse.ArgumentTypeError(
            f"expected COLUMN=SOURCE (e.g. age=age.csv, age=bundled:adult:age, zip=mask:2 or "
            f"age=intervals:10), got {text!r}")
    column, source = column.strip(), source.strip()
    kind, _, argument = source.partition(":")
    if kind == "mask":
        _mask_count(argument, text)
    elif kind == "intervals":
        _interval_widths(argument, text)
    return column, source


def _mask_count(argument: str, spec: str) -> int:
    """N of ``COL=mask:N``: how many trailing characters may be masked (at least 1)."""
    if not argument.isdigit() or int(argument) < 1:
        raise argparse.ArgumentTypeError(
            f"{spec!r}: mask:N needs a whole number N >= 1 of trailing characters to mask, "
            f"got {argument!r}")
    return int(argument)


def _interval_widths(argument: str, spec: str) -> list:
    """WIDTH[,WIDTH...] of ``COL=intervals:...``: positive decimals, each a larger multiple of
    the one before (exact: 0.1 is 1/10)."""
    widths = []
    for part in argument.split(","):
        try:
            width = Fraction(part.strip()) if part.strip() and "/" not in part else None
        except (ValueError, ZeroDivisionError):
            width = None
        if width is None or width <= 0:
            raise argparse.ArgumentTypeError(
                f"{spec!r}: intervals:WIDTH needs positive decimal widths (e.g. intervals:10 "
                f"or intervals:5,10,20), got {part.strip()!r}")
        if widths and (width <= widths[-1] or (width / widths[-1]).denominator != 1):
            raise argparse.ArgumentTypeError(
                f"{spec!r}: each interval width must be a larger multiple of the one before; "
                f"{part.strip()} is not a larger multiple of {widths[-1]}")
        widths.append(width)
    return [int(w) if w.denominator == 1 else w for w in widths]


def _order_spec(text: str) -> tuple:
    """``first`` / ``sorted`` (every categorical QI), or ``COL=first|sorted|V1,V2,...``."""
    if text in ORDERS:
        return (None, text)
    column, sep, rule = text.partition("=")
    if not sep or not column.strip() or not rule:
        raise argparse.ArgumentTypeError(
            f"expected first, sorted, COL=first, COL=sorted or COL=V1,V2,... (values in "
            f"order), got {text!r}")
    if rule in ORDERS:
        return (column.strip(), rule)
    values = rule.split(",")
    if any(not value for value in values):
        raise argparse.ArgumentTypeError(f"{text!r}: an empty value in the order")
    repeated = sorted({v for v in values if values.count(v) > 1})
    if repeated:
        raise argparse.ArgumentTypeError(f"{text!r}: {repeated[0]!r} is listed twice")
    return (column.strip(), tuple(values))


# --------------------------------------------------------------------------- the parser
class _Formatter(argparse.RawDescriptionHelpFormatter):
    pass


def _common_output(p: argparse.ArgumentParser, *, json_format: bool = True) -> None:
    if json_format:
        p.add_argument("--format", choices=("text", "json"), default="text",
                       help="results on stdout as a readable table (default) or as JSON with "
                            "a schema_version")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="show a progress bar on stderr (default: only when stderr is a "
                        "terminal)")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress bar and no notes on stderr (errors and warnings remain)")
    p.add_argument("--force", action="store_true",
                   help="replace output files that already exist (default: refuse)")


def _separator(text: str) -> str:
    """A CSV separator: one character, or 'tab'."""
    sep = "\t" if text in ("tab", "\\t") else text
    if len(sep) != 1 or sep in "\r\n\"'":
        raise argparse.ArgumentTypeError(f"must be one character other than a quote or a line "
                                         f"break (or 'tab'); got {text!r}")
    return sep


def _table_input(p: argparse.ArgumentParser, help_text: str) -> None:
    p.add_argument("table", help=help_text + "; '-' reads standard input; CSV may be gzip, "
                                             "bz2, xz or zip compressed")
    p.add_argument("--input-format", choices=TABLE_FORMATS, default=None,
                   help="table format (default: from the content, else parquet for "
                        ".parquet/.pq files and csv otherwise)")
    p.add_argument("--sep", type=_separator, default=None, metavar="CHAR",
                   help="CSV field separator (default ','; 'tab' for a tab)")
    p.add_argument("--na-values", type=_text_list, default=None, metavar="TEXT,...",
                   help="cell texts read as missing besides empty cells (default: "
                        "pandas' markers such as NA, N/A, NaN, NULL, None); '' for none")


def _release_options(p: argparse.ArgumentParser, *, allow_group: bool = True) -> None:
    if allow_group:
        grouping = p.add_mutually_exclusive_group(required=True)
        grouping.add_argument("--qi", type=_column_list, metavar="COL,...",
                              help="generalized quasi-identifier columns (each distinct "
                                   "combination is one QI-group)")
        grouping.add_argument("--group", metavar="COL",
                              help="bucket column of a bucketized release (instead of --qi)")
        p.add_argument("--individual", metavar="COL",
                       help="column identifying individuals (mvpi: one row per individual "
                            "and value)")
    else:
        p.add_argument("--qi", type=_column_list, metavar="COL,...", required=True,
                       help="quasi-identifier columns")
    p.add_argument("--sensitive", required=True, metavar="COL", help="the sensitive column")
    p.add_argument("--semantics", choices=SEMANTICS, default="svpi",
                   help="svpi: one sensitive value per person (default); mvpi-set / "
                        "mvpi-multiset: several")


def _report_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--report", metavar="HTML",
                   help="also write a self-contained HTML report")
    p.add_argument("--report-confidence", type=_confidence, default=None, metavar="C",
                   help="confidence of the report's knowledge skylines (default: each value's "
                        "strictest c in the policy)")
    p.add_argument("--report-values", type=_int_at_least(0), default=4, metavar="N",
                   help="draw the knowledge skylines of the N most exposed values (default 4)")
    p.add_argument("--report-images", choices=("svg", "png", "auto"), default="svg",
                   help="skyline pictures as inline SVG (default) or matplotlib PNGs")


def _engine_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--engine", choices=("pandas", "dask"), default="pandas",
                   help="pandas: the table in memory (default); dask: a Parquet dataset "
                        "directory or a glob of CSV/Parquet files, aggregated on a Dask "
                        "cluster (pip install 'skyprivacy[dask]'; see docs/dask.md)")
    p.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="with --engine dask: the scheduler to use, e.g. tcp://host:8786 "
                        "(default: a local cluster sized to this machine)")


def _hierarchy_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--hierarchy", type=_hierarchy_spec, action="append", default=[],
                   metavar="COL=SOURCE",
                   help="generalization hierarchy of a quasi-identifier: an ARX CSV file, "
                        "bundled:adult:ATTR or bundled:adult (repeatable)")
    p.add_argument("--hierarchy-sep", default=";", metavar="SEP",
                   help="field separator of ARX hierarchy files (default ';')")
    p.add_argument("--categorical", type=_column_list, default=[], metavar="COL,...",
                   help="quasi-identifiers to treat as categories even when every cell is a "
                        "number (numbers without a hierarchy are split into ranges)")
    p.add_argument("--numeric", type=_column_list, default=[], metavar="COL,...",
                   help="quasi-identifiers to split as ordered numbers (default: text whose "
                        "every cell is a number, except leading-zero codes such as 02139)")
    p.add_argument("--split", choices=("infogain", "widest"), default=None,
                   help="split priority (default: infogain for skyline policies, widest for "
                        "k-anonymity)")
    p.add_argument("--order", type=_order_spec, action="append", default=[],
                   metavar="[COL=]RULE",
                   help="order in which a categorical QI's values are split into runs: sorted "
                        "(default), first (order of first appearance), or COL=V1,V2,... (every "
                        "value, in order); without COL= for every categorical QI (repeatable "
                        "with COL=)")
    p.add_argument("--label-length", type=_int_at_least(0), default=DEFAULT_LABEL_LENGTH,
                   metavar="N",
                   help=f"longest set label listed in full (default {DEFAULT_LABEL_LENGTH} "
                        f"characters); a longer set is published as a digest listed in the "
                        f"set-label file")


class _Parser(argparse.ArgumentParser):
    """argparse with one-line usage errors: ``prog: error: message (see prog --help)``."""

    def error(self, message):
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``skyprivacy`` command (all subcommands)."""
    parser = _Parser(
        prog="skyprivacy", formatter_class=_Formatter, epilog=EXIT_CODES,
        description="Certify data releases against adversarial knowledge: an attacker who "
                    "knows l values the target does not have, k other people's values and m "
                    "members of the target's same-value family. Full reference: docs/cli.md.")
    parser.add_argument("--version", action="version", version=f"skyprivacy {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def command(name, help_text, description):
        return sub.add_parser(name, help=help_text, description=description, epilog=EXIT_CODES,
                              formatter_class=_Formatter)

    p = command("check", "check a released table against a policy",
                "Check a released table against a value-centric skyline policy; print the "
                "verdict, every (value, point) breach probability and the worst cases. Exit 0 "
                "when safe, 1 when unsafe.")
    _table_input(p, "the released table (CSV or Parquet)")
    _release_options(p)
    p.add_argument("--policy", required=True, metavar="TOML", help="the policy file")
    p.add_argument("--certificate", metavar="JSON", help="also write the certificate")
    _report_options(p)
    _engine_options(p)
    _common_output(p)
    p.set_defaults(handler=_cmd_check)

    p = command("anonymize", "generalize a table until it satisfies a policy",
                "Generalize (or bucketize) a table with SkylineAnonymize until it satisfies the "
                "policy; write the released table and its certificate. Exit 1 when no release "
                "can satisfy the policy.")
    _table_input(p, "the original table, one row per person (CSV or Parquet)")
    _release_options(p, allow_group=False)
    p.add_argument("--policy", required=True, metavar="TOML", help="the policy file")
    p.add_argument("--output", required=True, metavar="FILE",
                   help="the released table (.csv, or .parquet)")
    p.add_argument("--output-format", choices=TABLE_FORMATS, default=None,
                   help="format of --output (default: from its extension)")
    p.add_argument("--certificate", metavar="JSON",
                   help="the certificate (default: the output's name with .cert.json)")
    p.add_argument("--labels", metavar="JSON",
                   help="the set-label file, written when a set is published as a digest "
                        "(default: the output's name with .labels.json)")
    _hierarchy_options(p)
    p.add_argument("--bucketized", action="store_true",
                   help="keep QI values and publish a bucket column instead of generalizing")
    p.add_argument("--group-column", default="group", metavar="NAME",
                   help="name of the bucket column with --bucketized (default 'group')")
    p.add_argument("--random-state", type=int, default=None, metavar="SEED",
                   help="seed of the bucketized shuffle")
    _report_options(p)
    _engine_options(p)
    _common_output(p)
    p.set_defaults(handler=_cmd_anonymize)

    p = command("find", "knowledge skylines of a released table",
                "Compute the knowledge skyline of every sensitive value at confidence c: the "
                "largest amounts of knowledge (l, k, m) the release withstands, most exposed "
                "value first.")
    _table_input(p, "the released table (CSV or Parquet)")
    _release_options(p)
    p.add_argument("-c", "--confidence", type=_confidence, required=True, metavar="C",
                   help="confidence threshold in (0, 1], e.g. 0.9 or 2/3")
    p.add_argument("--values", type=_value_list, default=None, metavar="V,...",
                   help="only these sensitive values")
    p.add_argument("--top", type=_int_at_least(0), default=3, metavar="N",
                   help="worst cases in words for the N most exposed values (default 3)")
    p.add_argument("--output", metavar="CSV",
                   help="also write every skyline point (value, rank, exposure, l, k, m, c)")
    _engine_options(p)
    _common_output(p)
    p.set_defaults(handler=_cmd_find)

    p = command("compare", "a k-anonymous or l-diverse release seen through skylines",
                "Make a k-anonymous or recursive (c, l)-diverse release of a table and show "
                "which values little knowledge still exposes (knowledge skylines at "
                "--confidence).")
    _table_input(p, "the original table, one row per person (CSV or Parquet)")
    _release_options(p, allow_group=False)
    baseline = p.add_mutually_exclusive_group(required=True)
    baseline.add_argument("--k-anonymity", type=_int_at_least(2), metavar="K",
                          help="make a K-anonymous release")
    baseline.add_argument("--l-diversity", type=_int_at_least(2), metavar="L",
                          help="make a recursive (c, L)-diverse release")
    p.add_argument("--diversity-c", type=_positive, default=3, metavar="C",
                   help="the c of recursive (c, l)-diversity (default 3)")
    p.add_argument("--confidence", type=_confidence, default=0.9, metavar="C",
                   help="confidence of the knowledge skylines (default 0.9)")
    p.add_argument("--values", type=_value_list, default=None, metavar="V,...",
                   help="only these sensitive values")
    p.add_argument("--output", metavar="FILE", help="also write the baseline's released table")
    p.add_argument("--labels", metavar="JSON",
                   help="with --output: the set-label file, written when a set is published "
                        "as a digest (default: the output's name with .labels.json)")
    _hierarchy_options(p)
    _engine_options(p)
    _common_output(p)
    p.set_defaults(handler=_cmd_compare)

    p = command("verify", "check a released table against its certificate",
                "Recompute a certificate from the released table and the certificate's own "
                "parameters; exit 1 on any difference in the table hash, a breach probability "
                "or the verdict.")
    _table_input(p, "the released table (CSV or Parquet)")
    p.add_argument("--certificate", required=True, metavar="JSON", help="the certificate")
    p.add_argument("--labels", metavar="JSON",
                   help="the set-label file the certificate records (default: its recorded "
                        "name, in the table's folder)")
    _engine_options(p)
    _common_output(p)
    p.set_defaults(handler=_cmd_verify)

    p = command("transparency", "decision tables of transparency reports",
                "Certify (check) or optimally perturb (optimize) the decision rule of a "
                "transparency report (Chen, Golubchik and Pal 2022). See docs/transparency.md.")
    tsub = p.add_subparsers(dest="transparency_command", metavar="ACTION", parser_class=_Parser)
    q = tsub.add_parser("verify", help="check a decision rule against its certificate",
                        description="Recompute a decision-rule certificate from the decision "
                                    "table and the announced rule; exit 1 on any difference "
                                    "(a changed cell of the table or of the rule, an edited "
                                    "beta, a fidelity that no longer holds).",
                        epilog=EXIT_CODES, formatter_class=_Formatter)
    _table_input(q, "the decision table (CSV or Parquet)")
    q.add_argument("--rule", metavar="FILE",
                   help="the table holding the announced rule (default: the decision table)")
    q.add_argument("--certificate", required=True, metavar="JSON", help="the certificate")
    _common_output(q)
    q.set_defaults(handler=_cmd_transparency_verify)
    for name, help_text, description in (
            ("check", "is the announced rule beta-private?",
             "Check that no inference channel reaches confidence above beta (exit 1 if one "
             "does)."),
            ("optimize", "the announced rule with the smallest beta under a fidelity",
             "Find the announced rule with the strongest privacy (smallest beta) that stays "
             "within the fidelity constraint.")):
        q = tsub.add_parser(name, help=help_text, description=description, epilog=EXIT_CODES,
                            formatter_class=_Formatter)
        _table_input(q, "the decision table: one row per decision region (CSV or Parquet)")
        q.add_argument("--public", type=_column_list, required=True, metavar="COL,...",
                       help="public (QID) columns")
        q.add_argument("--sensitive", type=_column_list, required=True, metavar="COL,...",
                       help="sensitive columns (several form one joint value)")
        q.add_argument("--weight", required=True, metavar="COL",
                       help="probability mass or population of each region")
        q.add_argument("--decision", type=_column_list, required=True, metavar="COL,...",
                       help="decision column (probability of the positive outcome), or one "
                            "column per outcome")
        q.add_argument("--exact", action="store_true",
                       help="compute with exact fractions (slow; small tables)")
        if name == "check":
            q.add_argument("--announced", metavar="COL",
                           help="column holding the announced rule (default: the decision)")
            bound = q.add_mutually_exclusive_group(required=True)
            bound.add_argument("--beta", type=_confidence, metavar="B",
                               help="largest allowed confidence, in (0, 1]")
            bound.add_argument("--gamma", type=_non_negative, metavar="G",
                               help="smallest allowed uncertainty -log(beta)")
            q.set_defaults(handler=_cmd_transparency_check)
        else:
            fidelity = q.add_mutually_exclusive_group(required=True)
            fidelity.add_argument("--delta", type=_unit_interval, metavar="D",
                                  help="delta-fidelity: |d~ - d| <= 1 - delta")
            fidelity.add_argument("--alpha", type=_unit_interval, metavar="A",
                                  help="alpha-fidelity: alpha <= d~/d <= 1/alpha")
            q.add_argument("--output", metavar="FILE",
                           help="also write the table with the announced rule (d_tilde)")
            q.set_defaults(handler=_cmd_transparency_optimize)
        q.add_argument("--certificate", metavar="JSON",
                       help="also write a certificate of the rule (optimize: needs --output)")
        q.add_argument("--report", metavar="HTML",
                       help="also write a self-contained HTML report")
        _common_output(q)
    p.set_defaults(handler=None, subparser=p)

    p = command("data", "export bundled data sets",
                "Write a bundled data set to a file (or stdout) so shell users can follow the "
                "tutorial without internet access.")
    p.add_argument("dataset", choices=("adult", "adult-hierarchy"),
                   help="adult: UCI Adult (45,222 rows); adult-hierarchy: an ARX hierarchy of "
                        "Adult")
    p.add_argument("attribute", nargs="?", help="with adult-hierarchy: the Adult column")
    p.add_argument("--output", metavar="FILE", help="the file to write (default: stdout)")
    p.add_argument("--sample", type=_int_at_least(1), default=None, metavar="N",
                   help="adult: only N rows drawn at random")
    p.add_argument("--random-state", type=int, default=0, metavar="SEED",
                   help="seed of --sample (default 0)")
    _common_output(p, json_format=False)
    p.set_defaults(handler=_cmd_data)
    return parser


# --------------------------------------------------------------------------- the context
class _Progress:
    """A one-line progress bar on stderr; a no-op when disabled."""

    def __init__(self, stream, label: str, enabled: bool):
        self.stream, self.label, self.enabled = stream, label, enabled
        self.shown = -1

    def __call__(self, fraction: float) -> None:
        if not self.enabled:
            return
        percent = max(0, min(100, int(fraction * 100)))
        if percent == self.shown:
            return
        self.shown = percent
        filled = percent * 30 // 100
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (30 - filled)}] {percent:3d}%")
        self.stream.flush()

    def part(self, start: float, stop: float):
        """A callback mapping (0, 1] onto [start, stop] of this bar."""
        return lambda fraction: self(start + (stop - start) * fraction)

    def close(self) -> None:
        if self.enabled and self.shown >= 0:
            self.stream.write("\n")
            self.stream.flush()
            self.shown = -1


class _Context:
    """One run: the parsed arguments, the streams, the command's name, notes and progress."""

    def __init__(self, args):
        self.args = args
        self.stdout, self.stderr = sys.stdout, sys.stderr
        self.name = _command_name(args)
        self.quiet = getattr(args, "quiet", False)
        progress = getattr(args, "progress", None)
        if progress is None:
            progress = bool(getattr(self.stderr, "isatty", lambda: False)())
        self.show_progress = bool(progress) and not self.quiet

    def progress(self, label: str) -> _Progress:
        return _Progress(self.stderr, label, self.show_progress)

    def note(self, text: str) -> None:
        if not self.quiet:
            print(f"{self.name}: {text}", file=self.stderr)

    def emit(self, text: str) -> None:
        self.stdout.write(text if text.endswith("\n") else text + "\n")

    def emit_json(self, data: dict) -> None:
        self.stdout.write(json.dumps({"schema_version": SCHEMA_VERSION, **data}, indent=2,
                                     ensure_ascii=False, default=_json_default) + "\n")


def _json_default(value):
    if isinstance(value, Fraction):
        return str(value)
    if hasattr(value, "item"):
        return value.item()
    if value is pd.NA:
        return None
    return str(value)


def _command_name(args) -> str:
    parts = ["skyprivacy"]
    if getattr(args, "command", None):
        parts.append(args.command)
    if getattr(args, "transparency_command", None):
        parts.append(args.transparency_command)
    return " ".join(parts)


# ---------------------------------------------------------------------------- formatting
def _cell(value) -> str:
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()
    if isinstance(value, float):
        return "-" if value != value else f"{value:.6g}"
    if value is None or value is pd.NA:
        return "-"
    return str(value)


def _text_table(headers: list[str], rows: list[list], right: set[int] = frozenset()) -> str:
    cells = [[_cell(cell) for cell in row] for row in rows]
    widths = [max([len(h)] + [len(row[i]) for row in cells]) for i, h in enumerate(headers)]

    def line(row):
        return "  ".join(cell.rjust(w) if i in right else cell.ljust(w)
                         for i, (cell, w) in enumerate(zip(row, widths))).rstrip()
    return "\n".join([line(headers), line(["-" * w for w in widths])] +
                     [line(row) for row in cells])


def _pct(p, threshold=None) -> str:
    return percent_text(p, threshold)


def _release_line(release: ReleaseCandidate, source: str, n_rows: int) -> str:
    sizes = release.sizes_array
    return (f"{source}: {n_rows:,} rows in {release.n_groups:,} QI-groups of "
            f"{int(sizes.min()):,} to {int(sizes.max()):,} people (average "
            f"{release.n_individuals / release.n_groups:,.1f}); semantics {release.semantics}.")


def _checks_text(result, certificate: dict) -> list[str]:
    lines = [_text_table(
        ["value", "l", "k", "m", "c", "breach", "exact", "verdict"],
        [[c["value"], c["l"], c["k"], c["m"], f"{c['c']:g}",
          _pct(c["breach_probability_exact"], c["c_exact"]),
          c["breach_probability_exact"], "safe" if c["safe"] else "UNSAFE"]
         for c in certificate["checks"]], right={1, 2, 3, 4, 5, 6})]
    if result.violations:
        lines += ["", "Worst cases of the failing checks:"]
        shown = result.violations
    else:
        lines += ["", "Closest calls:"]
        shown = sorted(result.rows, key=lambda r: r.point.c_exact - r.breach_probability)[:3]
    for row in shown:
        lines.append(f"- {row.value!r} at {row.point}: breach probability "
                     f"{row.breach_probability} "
                     f"({_pct(row.breach_probability, row.point.c_exact)}). "
                     f"{row.worst_case.description}")
    return lines


def _verdict_line(result) -> str:
    if result.safe:
        return f"SAFE: all {len(result.rows)} (value, point) checks hold."
    return f"UNSAFE: {len(result.violations)} of {len(result.rows)} (value, point) checks fail."


# ------------------------------------------------------------------------------- inputs
def _na_values(args) -> tuple:
    return NA_MARKERS if args.na_values is None else args.na_values


def _load_release(args, raw: pd.DataFrame) -> ReleaseCandidate:
    keys = list(args.qi) if args.qi else [args.group]
    columns = keys + [args.sensitive] + ([args.individual] if args.individual else [])
    if len(set(columns)) != len(columns):
        raise UsageError(f"the grouping columns, --sensitive and --individual must be distinct "
                         f"columns; got {columns}")
    require_columns(raw, columns)
    reject_missing(raw, columns, _na_values(args))
    return ReleaseCandidate.from_table(raw, sensitive=args.sensitive, qi=args.qi,
                                       group=args.group, individual=args.individual,
                                       semantics=args.semantics)


def _dask(args) -> bool:
    return getattr(args, "engine", "pandas") == "dask"


def _read_input(args, **kwargs):
    """The table argument: in memory, or as a dask frame with --engine dask."""
    if _dask(args):
        return read_table_dask(args.table, format=args.input_format, sep=args.sep, **kwargs)
    return read_table(args.table, format=args.input_format, sep=args.sep)


def _distinct(table, column: str) -> list:
    """The distinct cells of a column (on the cluster for a dask frame)."""
    from ._core.engines import is_dask_frame

    if is_dask_frame(table):
        return list(table[column].drop_duplicates().compute())
    return list(pd.unique(table[column]))


def _add_table(args, out: OutputFiles, path: str, frame, output_format) -> None:
    """Stage a released table: a file, or with --engine dask a Parquet dataset directory."""
    if _dask(args):
        out.add_directory(path, lambda folder: write_parquet_dataset(frame, folder))
    else:
        out.add(path, table_bytes(frame, output_format))


def _dataset_output(args, flag: str, path: str | None) -> None:
    """With --engine dask, a table output is a Parquet dataset directory."""
    if path is None:
        return
    if table_format(path) == "csv" and os.path.splitext(path)[1]:
        raise UsageError(f"with --engine dask, {flag} is written as a Parquet dataset "
                         f"directory; name it without the {os.path.splitext(path)[1]} "
                         f"extension (e.g. released/) or use --engine pandas")
    if os.path.lexists(path) and not os.path.isdir(path):
        raise UsageError(f"{flag} {path} exists and is not a directory")
    if os.path.isdir(path) and not getattr(args, "force", False):
        raise UsageError(f"{flag} {path} already exists; pass --force to replace it")


class _EngineSession:
    """With --engine dask: a client for --scheduler, or a local cluster sized to the machine,
    for the time of one command."""

    def __init__(self, args):
        self.args = args
        self.client = self.cluster = None

    def __enter__(self):
        if not _dask(self.args):
            if getattr(self.args, "scheduler", None):
                raise UsageError("--scheduler needs --engine dask")
            return self
        from ._core.engines import require_dask
        require_dask("--engine dask")
        from distributed import Client, LocalCluster
        address = self.args.scheduler
        try:
            if address:
                self.client = Client(address)  # waits distributed.comm.timeouts.connect
            else:
                self.cluster = LocalCluster(dashboard_address=":0", silence_logs=40)
                self.client = Client(self.cluster)
        except (OSError, TimeoutError) as exc:
            raise EngineError(f"Cannot reach the Dask scheduler at {address!r}: "
                              f"{_one_line(exc) or type(exc).__name__}.") from None
        self.current = self.client.as_current()  # even if another client is the default
        self.current.__enter__()
        return self

    def __exit__(self, *exc_info):
        if self.client is not None:
            self.current.__exit__(*exc_info)
        for resource in (self.client, self.cluster):
            if resource is not None:
                try:
                    resource.close()
                except Exception:  # noqa: BLE001 - closing a broken cluster must not mask
                    pass


def _unknown_value_error(value, present: list, column: str, what: str) -> InputError:
    texts = sorted(str(v) for v in present)
    close = difflib.get_close_matches(str(value), texts, n=1)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    shown = ", ".join(repr(v) for v in texts[:8]) + (", ..." if len(texts) > 8 else "")
    return InputError(f"{what} {value!r} does not occur in column {column!r}.{hint} Values "
                      f"there: [{shown}].")


def _check_policy_values(policy, present, column: str) -> None:
    present = list(present)
    known = set(map(str, present))
    for value in policy.values:
        if str(value) not in known:
            raise _unknown_value_error(value, present, column, "Policy value")


def _check_values(values, present, column: str) -> None:
    present = list(present)
    known = set(map(str, present))
    for value in values or ():
        if value not in known:
            raise _unknown_value_error(value, present, column, "Value")


def _check_outputs(args, outputs: dict, inputs: dict) -> None:
    """Distinct outputs, none overwriting an input, every folder writable (before working)."""
    seen: dict = {}
    for flag, path in outputs.items():
        if path is None:
            continue
        key = os.path.abspath(path)
        for in_flag, in_path in inputs.items():
            if in_path is not None and os.path.abspath(in_path) == key:
                raise UsageError(f"{flag} {path} would overwrite the input {in_flag}")
        if key in seen:
            raise UsageError(f"{seen[key]} and {flag} name the same file {path}")
        seen[key] = flag
        if os.path.lexists(path) and not os.path.isdir(path) and not getattr(args, "force",
                                                                              False):
            raise UsageError(f"{flag} {path} already exists; pass --force to replace it")
        OutputFiles.check(path)


def _shortcut(source: str) -> str | None:
    """'mask' or 'intervals' for the --hierarchy shortcuts built from the data, else None."""
    kind = source.partition(":")[0]
    return kind if kind in ("mask", "intervals") else None


def _hierarchies(args) -> dict:
    """The hierarchies read from files and bundled references (the shortcuts are built from
    the table by :func:`_built_hierarchies`)."""
    out, seen = {}, set()
    for column, source in args.hierarchy:
        if column not in args.qi:
            raise UsageError(f"--hierarchy is given for {column!r}, which is not in --qi "
                             f"{','.join(args.qi)}")
        if column in seen:
            raise UsageError(f"--hierarchy is given twice for {column!r}")
        seen.add(column)
        if _shortcut(source) is None:
            out[column] = read_hierarchy(source, column=column, sep=args.hierarchy_sep)
    for column in args.categorical:
        if column not in args.qi:
            raise UsageError(f"--categorical names {column!r}, which is not in --qi "
                             f"{','.join(args.qi)}")
    return out


def _built_hierarchies(args, table: pd.DataFrame, hierarchies: dict) -> dict:
    """``hierarchies`` with the ``COL=mask:N`` and ``COL=intervals:WIDTH`` shortcuts built
    from the table's cells (:meth:`Hierarchy.masking`, :meth:`Hierarchy.intervals`)."""
    out = dict(hierarchies)
    for column, source in args.hierarchy:
        kind = _shortcut(source)
        if kind is None:
            continue
        spec = f"--hierarchy {column}={source}"
        argument = source.partition(":")[2]
        cells = pd.unique(table[column].astype(str))
        if kind == "mask":
            lengths = sorted({len(cell) for cell in cells})
            if len(lengths) > 1:
                short = next(c for c in cells if len(c) == lengths[0])
                long = next(c for c in cells if len(c) == lengths[-1])
                raise InputError(f"Table {args.table!r}: {spec} needs codes of one length in "
                                 f"column {column!r}; {short!r} has {lengths[0]} character(s) "
                                 f"but {long!r} has {lengths[-1]}.")
            count = _mask_count(argument, spec)
            if count > lengths[0]:
                raise UsageError(f"{spec} masks {count} characters, but the codes of column "
                                 f"{column!r} in {args.table!r} have {lengths[0]}")
            # masking every character is the root '*' itself
            out[column] = Hierarchy.masking(cells, levels=range(1, min(count, lengths[0] - 1)
                                                                + 1), name=column)
        else:
            numbers = pd.to_numeric(pd.Series(cells).str.strip(), errors="coerce")
            bad = [c for c, n in zip(cells, numbers) if not np.isfinite(n)]
            if bad:
                raise InputError(f"Table {args.table!r}: {spec} needs finite numbers in column "
                                 f"{column!r}; {len(bad)} distinct cell(s) are not, e.g. "
                                 f"{bad[:3]!r}.")
            order = np.argsort(numbers.to_numpy(), kind="stable")
            cells, numbers = [cells[i] for i in order], numbers.to_numpy()[order].tolist()
            numbers = [int(n) if float(n).is_integer() and abs(n) < 2**53 else n
                       for n in numbers]
            tree = Hierarchy.intervals(numbers, _interval_widths(argument, spec), name=column)
            # leaves are the cells as written ('007', '1e1'), under their numbers' intervals
            levels = [tree.generalize(numbers, level) for level in range(1, tree.height + 1)]
            rows = [[cell, *(labels[i] for labels in levels)] for i, cell in enumerate(cells)]
            out[column] = Hierarchy.from_levels(rows, name=column)
    return out


def _orders(args):
    """The ``order`` of :func:`skyline_anonymize` from the --order options."""
    every = [rule for column, rule in args.order if column is None]
    per_column = [(column, rule) for column, rule in args.order if column is not None]
    if len(every) > 1:
        raise UsageError("--order RULE is given twice")
    if every and per_column:
        raise UsageError("give one --order RULE for every categorical quasi-identifier, or "
                         "--order COL=... per column, not both")
    if every:
        return every[0]
    out = {}
    for column, rule in per_column:
        if column not in args.qi:
            raise UsageError(f"--order is given for {column!r}, which is not in --qi "
                             f"{','.join(args.qi)}")
        if column in out:
            raise UsageError(f"--order is given twice for {column!r}")
        out[column] = rule
    return out or None


def _labels_output(args, output: str | None) -> str | None:
    """Where the set-label file of a generalized release goes (beside ``output``)."""
    if output is None:
        if args.labels:
            raise UsageError("--labels needs --output: it lists the sets of the released table")
        return None
    if getattr(args, "bucketized", False):
        if args.labels:
            raise UsageError("--labels has no use with --bucketized: a bucketized release keeps "
                             "its quasi-identifier values")
        return None
    return args.labels or os.path.splitext(output)[0] + ".labels.json"


def _stage_labels(out: OutputFiles, path: str | None, output: str, set_labels: dict):
    """Stage the set-label file when the release publishes a digest; its certificate record."""
    if path is None or not set_labels:
        return None
    data = labels_bytes(set_labels)
    out.add(path, data)
    folder = os.path.dirname(os.path.abspath(output))
    return labels_record(data, os.path.relpath(os.path.abspath(path), folder))


def _original_table(args, raw: pd.DataFrame, hierarchies: dict) -> pd.DataFrame:
    """The input as read (text): the anonymization decides which QIs are numbers."""
    if len(set(args.qi) | {args.sensitive}) != len(args.qi) + 1:
        raise UsageError(f"--sensitive {args.sensitive} is also in --qi")
    require_columns(raw, [*args.qi, args.sensitive])
    reject_missing(raw, [*args.qi, args.sensitive], _na_values(args))
    return raw  # which QIs are numbers is decided by skyprivacy.qi.qi_kinds, as in Python


def _report_page(ctx, certificate, release, result, source) -> bytes:
    from .report import render_report, report_skylines

    args = ctx.args
    bar = ctx.progress("drawing knowledge skylines")
    try:
        skylines = report_skylines(release, result, confidence=args.report_confidence,
                                   n_values=args.report_values, progress=bar)
    finally:
        bar.close()
    return render_report(certificate, release, skylines=skylines, source=source,
                         images=args.report_images).encode("utf-8")


# ------------------------------------------------------------------------------ commands
def _cmd_check(ctx: _Context) -> int:
    args = ctx.args
    _check_outputs(args, {"--certificate": args.certificate, "--report": args.report},
                   {"table": args.table, "--policy": args.policy})
    policy = read_policy(args.policy)
    raw = _read_input(args)
    release = _load_release(args, raw)
    _check_policy_values(policy, [v for v in release.values if release.contains(v)],
                         args.sensitive)
    result = skyline_check(release, policy)
    certificate = build_certificate(raw, policy, sensitive=args.sensitive, qi=args.qi,
                                    group=args.group, individual=args.individual,
                                    semantics=args.semantics, result=result)
    with OutputFiles() as out:
        if args.certificate:
            out.add(args.certificate, json_bytes(certificate))
        if args.report:
            out.add(args.report, _report_page(ctx, certificate, release, result, args.table))
        written = out.commit()
    if written:
        ctx.note(f"wrote {', '.join(written)}")
    if args.format == "json":
        ctx.emit_json({"command": "check", "safe": result.safe,
                       "verdict": certificate["verdict"],
                       "next_step": None if result.safe else _next_step(result, args),
                       "n_checks": len(result.rows), "n_violations": len(result.violations),
                       "table": {"path": args.table, "sha256": certificate["table"]["sha256"],
                                 "n_rows": certificate["table"]["n_rows"]},
                       "release": certificate["release"],
                       "rows": [row.to_dict() for row in result.rows],
                       "certificate": certificate})
    else:
        ctx.emit("\n".join([_verdict_line(result),
                            _release_line(release, args.table, certificate["table"]["n_rows"]),
                            ""]
                           + _checks_text(result, certificate)
                           + ([] if result.safe else ["", _next_step(result, args)])))
    return EXIT_OK if result.safe else EXIT_UNSAFE


def _next_step(result, args) -> str:
    """What to do about an unsafe table: anonymize it, or relax the failing points."""
    values = sorted({str(row.value) for row in result.violations})
    shown = ", ".join(repr(v) for v in values[:10]) + (" ..." if len(values) > 10 else "")
    return (f"Next step: generalize the table until it is safe, e.g. skyprivacy anonymize "
            f"{args.table} --qi COL,... --sensitive {args.sensitive} --policy {args.policy} "
            f"--output released.csv; or relax the failing points of {shown}.")


def _cmd_anonymize(ctx: _Context) -> int:
    args = ctx.args
    certificate_path = args.certificate
    if certificate_path is None:
        stem, _ = os.path.splitext(args.output.rstrip("/") if _dask(args) else args.output)
        certificate_path = stem + ".cert.json"
    labels_path = _labels_output(args, args.output.rstrip("/") if _dask(args) else args.output)
    if _dask(args):
        _dataset_output(args, "--output", args.output)
    _check_outputs(args, {**({} if _dask(args) else {"--output": args.output}),
                          "--certificate": certificate_path, "--labels": labels_path,
                          "--report": args.report},
                   {"table": args.table, "--policy": args.policy})
    output_format = table_format(args.output, args.output_format)
    policy = read_policy(args.policy)
    hierarchies = _hierarchies(args)
    order = _orders(args)
    raw = _read_input(args)
    table = _original_table(args, raw, hierarchies)
    hierarchies = _built_hierarchies(args, table, hierarchies)
    _check_policy_values(policy, _distinct(table, args.sensitive), args.sensitive)
    bar = ctx.progress("anonymizing")
    try:
        result = skyline_anonymize(
            table, qi=args.qi, sensitive=args.sensitive, policy=policy, hierarchies=hierarchies,
            semantics=args.semantics, split=args.split or "infogain",
            output="bucketized" if args.bucketized else "generalized",
            random_state=args.random_state, group_column=args.group_column, progress=bar,
            numeric=args.numeric, categorical=args.categorical, order=order,
            label_length=args.label_length)
    finally:
        bar.close()
    if not result.safe:  # the search only accepts safe splits; never publish otherwise
        raise InfeasibleError("The released table failed its own certificate; nothing was "
                              "written. Please report this as a bug.")
    grouping = ({"group": args.group_column} if args.bucketized else {"qi": args.qi})
    with OutputFiles() as out:
        _add_table(args, out, args.output, result.table, output_format)
        labels = _stage_labels(out, labels_path, args.output.rstrip("/"), result.set_labels)
        certificate = build_certificate(result.table, policy, sensitive=args.sensitive,
                                        semantics=args.semantics, result=result.certificate,
                                        labels=labels, **grouping)
        out.add(certificate_path, json_bytes(certificate))
        if args.report:
            out.add(args.report, _report_page(ctx, certificate, result.candidate,
                                              result.certificate, args.output))
        written = out.commit()
    ctx.note(f"wrote {', '.join(written)}")
    if args.format == "json":
        ctx.emit_json({"command": "anonymize", "safe": result.safe,
                       "verdict": certificate["verdict"], "output": args.output,
                       "certificate_path": certificate_path, "report": args.report,
                       "labels": labels_path if labels else None,
                       "n_rows": certificate["table"]["n_rows"],
                       "n_groups": result.candidate.n_groups,
                       "average_group_size": result.average_group_size,
                       "n_splits": result.n_splits, "release_type": result.output,
                       "certificate": certificate})
    else:
        lines = [_verdict_line(result.certificate),
                 "Released " + _release_line(result.candidate, args.output,
                                             certificate["table"]["n_rows"]),
                 f"Certificate: {certificate_path} (table sha256 "
                 f"{certificate['table']['sha256']})."]
        if labels:
            count = sum(len(sets) for sets in result.set_labels.values())
            lines.append(f"Set labels: {labels_path} lists the members of the {count} set(s) "
                         f"published as a digest.")
        worst = result.certificate.worst
        if worst is not None:
            lines.append(f"Closest call: {worst.value!r} at {worst.point}, breach probability "
                         f"{worst.breach_probability} ({_pct(worst.breach_probability)}).")
        ctx.emit("\n".join(lines))
    return EXIT_OK


def _skyline_rows(skylines) -> list[dict]:
    rows = []
    for rank, skyline in enumerate(skylines, start=1):
        breach = skyline.least_breach
        worst = skylines.worst_cases.get(skyline.value)
        rows.append({**skyline.to_dict(), "value": str(skyline.value), "rank": rank,
                     "least_breaching_knowledge": None if breach is None else list(breach),
                     "breach_probability_000": str(skylines.baseline_risk[skyline.value]),
                     "worst_case": None if worst is None else worst.description})
    return rows


def _skylines_text(skylines, top: int) -> list[str]:
    rows = _skyline_rows(skylines)
    lines = [_text_table(
        ["rank", "value", "exposure", "least breaching (l,k,m)", "skyline points",
         "breach at (0,0,0)"],
        [[r["rank"], r["value"], "-" if r["exposure"] is None else r["exposure"],
          "none (safe in the searched box)" if r["least_breaching_knowledge"] is None
          else "(" + ", ".join(map(str, r["least_breaching_knowledge"])) + ")",
          len(r["points"]), _pct(Fraction(r["breach_probability_000"]))] for r in rows],
        right={0, 2, 4, 5})]
    shown = [r for r in rows if r["worst_case"]][:top]
    if shown:
        lines += ["", "Worst cases of the most exposed values:"]
        lines += [f"- {r['value']!r}: {r['worst_case']}" for r in shown]
    return lines


def _cmd_find(ctx: _Context) -> int:
    args = ctx.args
    _check_outputs(args, {"--output": args.output}, {"table": args.table})
    raw = _read_input(args)
    release = _load_release(args, raw)
    n_rows = len(raw)
    _check_values(args.values, [v for v in release.values if release.contains(v)],
                  args.sensitive)
    bar = ctx.progress("finding knowledge skylines")
    try:
        skylines = skyline_find_all(release, c=args.confidence, values=args.values,
                                    progress=bar)
    finally:
        bar.close()
    if args.output:
        with OutputFiles() as out:
            out.add(args.output, table_bytes(skylines.to_frame(), "csv"))
            ctx.note(f"wrote {', '.join(out.commit())}")
    if args.format == "json":
        ctx.emit_json({"command": "find", "confidence": str(skylines.c),
                       "table": {"path": args.table, "n_rows": n_rows},
                       "release": {"n_groups": release.n_groups,
                                   "n_individuals": release.n_individuals,
                                   "semantics": release.semantics},
                       "skylines": _skyline_rows(skylines)})
    else:
        ctx.emit("\n".join([f"Knowledge skylines at confidence c = {confidence_text(skylines.c)}, "
                            f"most exposed value first.",
                            _release_line(release, args.table, n_rows), ""]
                           + _skylines_text(skylines, args.top)))
    return EXIT_OK


def _cmd_compare(ctx: _Context) -> int:
    args = ctx.args
    labels_path = _labels_output(args, args.output.rstrip("/") if args.output and _dask(args)
                                 else args.output)
    if _dask(args):
        _dataset_output(args, "--output", args.output)
    _check_outputs(args, {**({} if _dask(args) else {"--output": args.output}),
                          "--labels": labels_path},
                   {"table": args.table})
    output_format = table_format(args.output, None) if args.output else None
    hierarchies = _hierarchies(args)
    order = _orders(args)
    raw = _read_input(args)
    table = _original_table(args, raw, hierarchies)
    hierarchies = _built_hierarchies(args, table, hierarchies)
    present = _distinct(table, args.sensitive)
    _check_values(args.values, present, args.sensitive)
    bar = ctx.progress("anonymizing, then finding skylines")
    try:
        if args.k_anonymity is not None:
            made = k_anonymize(table, qi=args.qi, k=args.k_anonymity, hierarchies=hierarchies,
                               split=args.split or "widest", progress=bar.part(0, 0.5),
                               numeric=args.numeric, categorical=args.categorical,
                               order=order, label_length=args.label_length)
            released = made.table
            release = ReleaseCandidate.from_table(released, qi=args.qi,
                                                  sensitive=args.sensitive,
                                                  semantics=args.semantics)
            baseline = {"kind": "k-anonymity", "k": args.k_anonymity,
                        "satisfied": bool(made.safe),
                        "smallest_group": int(release.sizes_array.min())}
            head = (f"The release is {args.k_anonymity}-anonymous (smallest QI-group "
                    f"{baseline['smallest_group']}); k-anonymity says nothing about what the "
                    f"sensitive values of a group reveal.")
        else:
            c, l = args.diversity_c, args.l_diversity
            distinct = len(present)
            if l > distinct:  # say it in l-diversity terms, not as a skyline point
                raise InfeasibleError(
                    f"Recursive ({c}, {l})-diversity needs at least {l} distinct values of "
                    f"{args.sensitive!r} in every QI-group, and the table has only {distinct} "
                    f"distinct values; choose --l-diversity {distinct} or less.")
            made = skyline_anonymize(table, qi=args.qi, sensitive=args.sensitive,
                                     policy=cl_diversity_policy(c, l), hierarchies=hierarchies,
                                     semantics=args.semantics, split=args.split or "infogain",
                                     progress=bar.part(0, 0.5), numeric=args.numeric,
                                     categorical=args.categorical, order=order,
                                     label_length=args.label_length)
            released, release = made.table, made.candidate
            diversity = recursive_cl_diversity(release, c, l)
            baseline = {"kind": "l-diversity", "c": str(c), "l": l,
                        "satisfied": bool(diversity.satisfied)}
            head = (f"The release is recursive ({c}, {l})-diverse; (c, l)-diversity only "
                    f"protects against an attacker who rules out l - 2 = {l - 2} values.")
        skylines = skyline_find_all(release, c=args.confidence, values=args.values,
                                    progress=bar.part(0.5, 1.0))
    finally:
        bar.close()
    if args.output:
        with OutputFiles() as out:
            _add_table(args, out, args.output, released, output_format)
            _stage_labels(out, labels_path, args.output.rstrip("/"), made.set_labels)
            ctx.note(f"wrote {', '.join(out.commit())}")
    summary = {"n_groups": release.n_groups,
               "average_group_size": release.n_individuals / release.n_groups,
               "smallest_group": int(release.sizes_array.min())}
    if args.format == "json":
        ctx.emit_json({"command": "compare", "baseline": baseline, "release": summary,
                       "confidence": str(skylines.c), "skylines": _skyline_rows(skylines)})
    else:
        ctx.emit("\n".join([head, "Released " + _release_line(release, "table",
                                                               release.n_individuals),
                            f"Knowledge skylines at confidence c = "
                            f"{confidence_text(skylines.c)}, most exposed value first:", ""]
                           + _skylines_text(skylines, 3)))
    return EXIT_OK


def _cmd_verify(ctx: _Context) -> int:
    args = ctx.args
    certificate = read_certificate(args.certificate)
    raw = _read_input(args, one_partition_per_file=True) if _dask(args) else _read_input(args)
    labels_path, labels = _labels_input(args, certificate), None
    if labels_path is not None:
        try:
            labels = read_bytes(labels_path, noun="set-label file")
        except InputError as exc:
            if args.labels:
                raise
            raise InputError(f"{exc} The certificate {args.certificate!r} records it; pass "
                             f"--labels FILE if it is elsewhere.") from None
    try:
        verification = verify_certificate(raw, certificate, labels=labels)
    except InvalidParameterError as exc:
        raise InputError(f"Certificate {args.certificate!r}: {exc}") from None
    made_by = certificate.get("library", {}).get("version")
    if made_by and made_by != __version__:
        ctx.note(f"the certificate was made by skyprivacy {made_by}; recomputed with "
                 f"{__version__}")
    if not verification.ok:
        print(f"{ctx.name}: FAILED: {verification.differences[0]}", file=ctx.stderr)
    if args.format == "json":
        ctx.emit_json({"command": "verify", "verified": verification.ok,
                       "differences": list(verification.differences),
                       "table": {"path": args.table, "sha256": certificate["table"]["sha256"]},
                       "labels": labels_path,
                       "certificate": {"path": args.certificate,
                                       "created": certificate.get("created"),
                                       "library_version": made_by,
                                       "verdict": certificate["verdict"],
                                       "n_checks": len(certificate["checks"])}})
    elif verification.ok:
        ctx.emit(f"VERIFIED: {args.table} matches {args.certificate}: table sha256 "
                 f"{certificate['table']['sha256']}, "
                 + (f"set-label file {labels_path} sha256 {certificate['labels']['sha256']}, "
                    if labels_path else "")
                 + f"{len(certificate['checks'])} breach probabilities recomputed exactly, "
                   f"verdict {certificate['verdict']}.")
    else:
        ctx.emit("\n".join([f"NOT VERIFIED: {args.table} does not match {args.certificate}:"]
                           + [f"- {d}" for d in verification.differences]))
    return EXIT_OK if verification.ok else EXIT_UNSAFE


def _labels_input(args, certificate: dict) -> str | None:
    """The set-label file to verify: --labels, else the name the certificate records, in the
    table's folder."""
    if args.labels:
        return args.labels
    record = certificate.get("labels")
    if not isinstance(record, dict) or not isinstance(record.get("file"), str):
        return None  # none recorded (or malformed: verify_certificate says so)
    folder = "" if args.table == "-" else os.path.dirname(args.table)
    return os.path.join(folder, record["file"])


def _decision_table(args):
    """The raw text table and the DecisionTable built from it (numbers parsed)."""
    from .transparency import DecisionTable

    raw = read_table(args.table, format=args.input_format, sep=args.sep)
    numeric = [args.weight, *args.decision] + ([args.announced]
                                               if getattr(args, "announced", None) else [])
    keys = [*args.public, *args.sensitive]
    require_columns(raw, keys + numeric)
    reject_missing(raw, keys + numeric, _na_values(args))
    frame = raw.copy()
    for column in dict.fromkeys(numeric):
        numbers = as_numbers(raw[column])
        if numbers is None:
            bad = next(v for v in raw[column] if as_numbers(pd.Series([v])) is None)
            raise SchemaError(f"Column {column!r} must hold numbers; it holds {bad!r}.")
        frame[column] = numbers.astype(float)
    decision = args.decision[0] if len(args.decision) == 1 else args.decision
    return raw, DecisionTable.from_frame(frame, public=args.public, sensitive=args.sensitive,
                                           weight=args.weight, decision=decision)


def _rule_parameters(args) -> dict:
    return {"public": args.public, "sensitive": args.sensitive, "weight": args.weight,
            "decision": args.decision, "exact": args.exact}


def _rule_curve(table, certificate) -> list:
    """The trade-off curve of a binary table for the report (none for more outcomes)."""
    from .transparency import tradeoff_curve

    if not table.is_binary:
        return []
    constraint = certificate["fidelity"]["constraint"]
    kind = constraint["kind"] if constraint else "delta"
    points = tradeoff_curve(table, np.linspace(0, 1, 41), kind=kind).points
    return list(zip(points[kind].tolist(), points["beta_star"].tolist()))


def _rule_outputs(ctx, out, certificate, table) -> None:
    from .report import render_rule_report

    args = ctx.args
    if args.certificate:
        out.add(args.certificate, json_bytes(certificate))
    if args.report:
        out.add(args.report, render_rule_report(certificate, curve=_rule_curve(table, certificate),
                                                source=args.table).encode("utf-8"))


def _cmd_transparency_check(ctx: _Context) -> int:
    from .certificate import build_rule_certificate
    from .transparency import satisfies_beta

    args = ctx.args
    _check_outputs(args, {"--certificate": args.certificate, "--report": args.report},
                   {"table": args.table})
    frame, table = _decision_table(args)
    check = satisfies_beta(table, args.announced, beta=args.beta, gamma=args.gamma,
                           exact=args.exact)
    worst = check.max_confidence
    if args.certificate or args.report:
        certificate = build_rule_certificate(
            frame, announced=args.announced, beta=args.beta, gamma=args.gamma,
            **_rule_parameters(args))
        with OutputFiles() as out:
            _rule_outputs(ctx, out, certificate, table)
            ctx.note(f"wrote {', '.join(out.commit())}")
    if args.format == "json":
        ctx.emit_json({"command": "transparency check", **check.to_dict()})
    else:
        lines = [f"{'SAFE' if check.satisfied else 'UNSAFE'}: the "
                 f"{'announced' if args.announced else 'true'} rule is "
                 f"{'' if check.satisfied else 'not '}beta-private at beta = "
                 f"{float(check.beta):g}.",
                 f"Maximum confidence {float(worst.conf):.4g} (group {worst.group}, outcome "
                 f"{worst.outcome}, inferring {worst.sensitive})."]
        if check.n_violations:
            violations = check.violations
            lines += ["", f"{check.n_violations} violating channel(s)"
                          f"{' (the first 20)' if check.n_violations > 20 else ''}:",
                      _text_table([str(c) for c in violations.columns],
                                  violations.head(20).values.tolist())]
        ctx.emit("\n".join(lines))
    return EXIT_OK if check.satisfied else EXIT_UNSAFE


def _cmd_transparency_optimize(ctx: _Context) -> int:
    from .transparency import Alpha, Delta, optimal_privacy

    from .certificate import build_rule_certificate

    args = ctx.args
    if args.certificate and not args.output:
        raise UsageError("--certificate needs --output: the certificate pins the announced "
                         "rule, which --output writes")
    _check_outputs(args, {"--output": args.output, "--certificate": args.certificate,
                          "--report": args.report}, {"table": args.table})
    frame, table = _decision_table(args)
    fidelity = Delta(args.delta) if args.delta is not None else Alpha(args.alpha)
    result = optimal_privacy(table, fidelity, exact=args.exact)
    if args.output or args.report:
        announced = result.announced
        added = [c for c in announced.columns if c not in frame.columns]
        released = frame.copy()  # the cells as read, then the announced rule
        for column in added:
            released[column] = announced[column].to_numpy()
        certificate = None
        if args.certificate or args.report:
            certificate = build_rule_certificate(
                frame, released, announced=added, fidelity=fidelity, optimal=True,
                **_rule_parameters(args))
        with OutputFiles() as out:
            if args.output:
                out.add(args.output, table_bytes(released, table_format(args.output)))
            if certificate is not None:
                _rule_outputs(ctx, out, certificate, table)
            ctx.note(f"wrote {', '.join(out.commit())}")
    if args.format == "json":
        ctx.emit_json({"command": "transparency optimize", **result.to_dict()})
    else:
        groups = result.to_frame()
        ctx.emit("\n".join([
            f"Optimal beta* = {float(result.beta_star):.6g} under {fidelity}, attained by the "
            f"group {result.binding_group}; the announced rule's maximum confidence, "
            f"recomputed, is {float(result.achieved.conf):.6g}.",
            "", _text_table([str(c) for c in groups.columns], groups.values.tolist(),
                            right=set(range(1, len(groups.columns))))]))
    return EXIT_OK


def _cmd_transparency_verify(ctx: _Context) -> int:
    from .certificate import verify_rule_certificate

    args = ctx.args
    certificate = read_certificate(args.certificate)
    table = read_table(args.table, format=args.input_format, sep=args.sep)
    rule = None if args.rule is None else read_table(args.rule, sep=args.sep)
    try:
        verification = verify_rule_certificate(table, rule, certificate)
    except InvalidParameterError as exc:
        raise InputError(f"Certificate {args.certificate!r}: {exc}") from None
    if not verification.ok:
        print(f"{ctx.name}: FAILED: {verification.differences[0]}", file=ctx.stderr)
    if args.format == "json":
        ctx.emit_json({"command": "transparency verify", "verified": verification.ok,
                       "differences": list(verification.differences),
                       "table": {"path": args.table, "sha256": certificate["table"]["sha256"]},
                       "rule": {"path": args.rule or args.table,
                                "sha256": certificate["rule"]["sha256"]},
                       "certificate": {"path": args.certificate,
                                       "verdict": certificate.get("verdict")}})
    elif verification.ok:
        beta = certificate["beta"]
        ctx.emit(f"VERIFIED: {args.rule or args.table} matches {args.certificate}: decision "
                 f"table sha256 {certificate['table']['sha256']}, rule sha256 "
                 f"{certificate['rule']['sha256']}, beta {beta.get('exact') or beta['value']} "
                 f"recomputed, verdict {certificate['verdict']}.")
    else:
        ctx.emit("\n".join([f"NOT VERIFIED: {args.rule or args.table} and {args.table} do not "
                            f"match {args.certificate}:"]
                           + [f"- {d}" for d in verification.differences]))
    return EXIT_OK if verification.ok else EXIT_UNSAFE


def _cmd_data(ctx: _Context) -> int:
    from .datasets import ADULT_HIERARCHIES, adult_hierarchy_path, load_adult

    args = ctx.args
    _check_outputs(args, {"--output": args.output}, {})
    if args.dataset == "adult":
        if args.attribute:
            raise UsageError("'data adult' takes no attribute")
        frame = load_adult()
        if args.sample is not None:
            frame = frame.sample(n=min(args.sample, len(frame)),
                                 random_state=args.random_state).sort_index()
        data = table_bytes(frame, table_format(args.output) if args.output else "csv")
    else:
        choices = sorted({*ADULT_HIERARCHIES, "income"})
        if args.attribute not in choices:
            raise UsageError(f"'data adult-hierarchy' needs one of {', '.join(choices)}")
        data = adult_hierarchy_path(args.attribute).read_bytes()
    if args.output:
        with OutputFiles() as out:
            out.add(args.output, data)
            ctx.note(f"wrote {', '.join(out.commit())}")
    else:
        ctx.stdout.write(data.decode("utf-8"))
    return EXIT_OK


def _naming_the_file(exc, args) -> str:
    """The error's one line, prefixed with the input file it is about when it names none."""
    message = _one_line(exc)
    inputs = [("Table", getattr(args, "table", None)), ("Policy", getattr(args, "policy", None)),
              ("Certificate", getattr(args, "certificate", None)),
              ("Rule", getattr(args, "rule", None))]
    hierarchies = [(column, source) for column, source in getattr(args, "hierarchy", None) or ()]
    named = [path for _, path in inputs if path] + [source for _, source in hierarchies]
    if any(str(path) in message for path in named) or message.startswith("Cannot "):
        return message  # it names its file ("Cannot read set-label file 'x.json': ...")
    if isinstance(exc, HierarchyError) and hierarchies:
        column, source = next(((c, src) for c, src in hierarchies if f"{c!r}" in message),
                              hierarchies[0])
        return f"Hierarchy {source!r} of {column!r}: {message}"
    if message.startswith("Policy") and getattr(args, "policy", None):
        return f"Policy {args.policy!r}: {message}"
    if getattr(args, "table", None):
        return f"Table {args.table!r}: {message}"
    return message


# --------------------------------------------------------------------------------- main
_INPUT_ERRORS = (InputError, SchemaError, HierarchyError, InvalidParameterError, OSError,
                 UnicodeDecodeError)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def main(argv: list[str] | None = None) -> int:
    """Run the ``skyprivacy`` command line; returns the exit code (see the module docstring).

    Parameters
    ----------
    argv : list of str, optional
        The arguments without the program name (default ``sys.argv[1:]``).

    Examples
    --------
    >>> main(["data", "adult-hierarchy", "sex"])
    Male;*
    Female;*
    0
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help / --version (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if getattr(args, "handler", None) is None:
        target = getattr(args, "subparser", parser)
        target.print_usage(sys.stderr)
        print(f"{target.prog}: error: choose a command (see --help)", file=sys.stderr)
        return EXIT_USAGE
    ctx = _Context(args)
    start = OutputFiles.mark()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SkyPrivacyWarning)
        warnings.simplefilter("ignore", UnusedPolicyValueWarning)  # an input error here
        try:
            with _EngineSession(args):
                code = args.handler(ctx)
            sys.stdout.flush()  # surface a closed pipe here, not at interpreter exit
        except BrokenPipeError:  # e.g. `skyprivacy data adult | head`: the reader has gone
            devnull = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(devnull, sys.stdout.fileno())
            except (OSError, ValueError):  # stdout without a file descriptor (tests)
                pass
            finally:
                os.close(devnull)
            code = EXIT_BROKEN_PIPE
        except UsageError as exc:
            print(f"{ctx.name}: error: {_one_line(exc)} (see {ctx.name} --help)",
                  file=sys.stderr)
            code = EXIT_USAGE
        except InfeasibleError as exc:
            print(f"{ctx.name}: infeasible: {_one_line(exc)}", file=sys.stderr)
            if getattr(args, "format", None) == "json" and hasattr(exc, "failing"):
                ctx.emit_json({"command": ctx.name.split(" ", 1)[-1], "verdict": "infeasible",
                               "message": _one_line(exc), "failing": exc.failing,
                               "withstands": exc.withstands})
            code = EXIT_UNSAFE
        except EngineError as exc:  # the cluster failed: nothing was written
            print(f"{ctx.name}: error: {_one_line(exc)}", file=sys.stderr)
            code = EXIT_INTERNAL
        except _INPUT_ERRORS as exc:
            print(f"{ctx.name}: error: {_naming_the_file(exc, args)}", file=sys.stderr)
            code = EXIT_INPUT
        except ImportError as exc:
            print(f"{ctx.name}: error: {_one_line(exc)}", file=sys.stderr)
            code = EXIT_INPUT
        except KeyboardInterrupt:
            written = OutputFiles.committed_since(start)
            print(f"{ctx.name}: interrupted; "
                  + (f"these outputs were complete before the interruption and are on disk: "
                     f"{', '.join(written)}" if written else "nothing was written"),
                  file=sys.stderr)
            code = 130
        except Exception:  # a bug: keep the traceback, but never exit 1 ("unsafe")
            traceback.print_exc()
            print(f"{ctx.name}: internal error; please report it with the traceback above",
                  file=sys.stderr)
            code = EXIT_INTERNAL
    for warning in caught:
        if issubclass(warning.category, SkyPrivacyWarning):
            print(f"{ctx.name}: warning: {_one_line(warning.message)}", file=sys.stderr)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
