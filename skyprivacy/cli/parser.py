"""The argument parser of the ``skyprivacy`` command: every subcommand, option and help text,
and the handler each subcommand runs."""

from __future__ import annotations

import argparse
from fractions import Fraction

from .._core.version import __version__
from ..anonymize.api import METHODS
from ..anonymize.lattice import OBJECTIVES, SUPPRESSED
from ..io import TABLE_FORMATS
from ..labels import DEFAULT_LABEL_LENGTH
from ..release import SEMANTICS, WHITESPACE
from .argtypes import (
    column_list,
    confidence,
    criterion_option,
    encoding_name,
    hierarchy_spec,
    int_at_least,
    non_negative,
    order_spec,
    positive,
    separator,
    share_of_rows,
    text_list,
    unit_interval,
    value_list,
)
from .data_commands import cmd_data
from .risk_commands import cmd_risk
from .release_commands import (
    cmd_anonymize,
    cmd_check,
    cmd_compare,
    cmd_find,
    cmd_verify,
)
from .shared import EXIT_CODES, EXIT_USAGE
from .signing import cmd_keygen
from .transparency_commands import (
    cmd_transparency_check,
    cmd_transparency_optimize,
    cmd_transparency_verify,
)


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


def _table_input(p: argparse.ArgumentParser, help_text: str) -> None:
    p.add_argument("table", help=help_text + "; '-' reads standard input; CSV may be gzip, "
                                             "bz2, xz or zip compressed")
    p.add_argument("--input-format", choices=TABLE_FORMATS, default=None,
                   help="table format (default: from the content, else parquet for "
                        ".parquet/.pq files and csv otherwise)")
    p.add_argument("--sep", type=separator, default=None, metavar="CHAR",
                   help="CSV field separator (default ','; 'tab' for a tab)")
    p.add_argument("--encoding", type=encoding_name, default=None, metavar="NAME",
                   help="text encoding of a CSV table, e.g. cp1252 or latin-1 (default UTF-8; "
                        "a UTF-8, UTF-16 or UTF-32 byte-order mark is read by itself, so "
                        "Excel's 'Unicode text' reads as it is)")
    p.add_argument("--na-values", type=text_list, default=None, metavar="TEXT,...",
                   help="cell texts read as missing besides empty cells (default: "
                        "pandas' markers such as NA, N/A, NaN, NULL, None); '' for none")


def _release_options(p: argparse.ArgumentParser, *, allow_group: bool = True) -> None:
    if allow_group:
        grouping = p.add_mutually_exclusive_group(required=True)
        grouping.add_argument("--qi", type=column_list, metavar="COL,...",
                              help="generalized quasi-identifier columns (each distinct "
                                   "combination is one QI-group)")
        grouping.add_argument("--group", metavar="COL",
                              help="bucket column of a bucketized release (instead of --qi)")
        p.add_argument("--individual", metavar="COL",
                       help="column identifying individuals (mvpi: one row per individual "
                            "and value)")
        _whitespace_option(p)
    else:
        p.add_argument("--qi", type=column_list, metavar="COL,...", required=True,
                       help="quasi-identifier columns")
    p.add_argument("--sensitive", required=True, metavar="COL", help="the sensitive column")
    p.add_argument("--semantics", choices=SEMANTICS, default="svpi",
                   help="svpi: one sensitive value per person (default); mvpi-set / "
                        "mvpi-multiset: several")


def _whitespace_option(p: argparse.ArgumentParser) -> None:
    """How text is compared: the same option on the commands that check and on anonymize."""
    p.add_argument("--whitespace", choices=WHITESPACE, default="strip",
                   help="text cells are compared in Unicode NFC without zero-width "
                        "characters; strip (default) also ignores surrounding whitespace, "
                        "keep compares it (docs/canonical-text.md); cells are never "
                        "changed")


def _classification_options(p: argparse.ArgumentParser) -> None:
    """Every other column of the table kept (published as is) or dropped (left out): nothing
    is released unexamined (skyprivacy._core.classification)."""
    roles = p.add_argument_group(
        "other columns (every column of the table must be a QI, the sensitive column, kept or "
        "dropped)")
    roles.add_argument("--keep", type=column_list, default=[], metavar="COL,...",
                       help="columns published as is, not analysed (listed in the "
                            "certificate as kept)")
    roles.add_argument("--drop", type=column_list, default=[], metavar="COL,...",
                       help="columns left out of the release")
    roles.add_argument("--keep-rest", action="store_true",
                       help="keep every column not classified, copied unanalysed (the output "
                            "warns which)")


def _report_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--report", metavar="HTML",
                   help="also write a self-contained HTML report")
    p.add_argument("--report-confidence", type=confidence, default=None, metavar="C",
                   help="confidence of the report's knowledge skylines (default: each value's "
                        "strictest c in the policy)")
    p.add_argument("--report-values", type=int_at_least(0), default=4, metavar="N",
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
    p.add_argument("--hierarchy", type=hierarchy_spec, action="append", default=[],
                   metavar="COL=SOURCE",
                   help="generalization hierarchy of a quasi-identifier: an ARX CSV file, "
                        "bundled:adult:ATTR or bundled:adult (repeatable); bundled:adult "
                        "alone: every QI's Adult hierarchy of its name")
    p.add_argument("--hierarchy-sep", default=";", metavar="SEP",
                   help="field separator of ARX hierarchy files (default ';')")
    p.add_argument("--categorical", type=column_list, default=[], metavar="COL,...",
                   help="quasi-identifiers to treat as categories even when every cell is a "
                        "number (numbers without a hierarchy are split into ranges)")
    p.add_argument("--numeric", type=column_list, default=[], metavar="COL,...",
                   help="quasi-identifiers to split as ordered numbers (default: text whose "
                        "every cell is a number, except leading-zero codes such as 02139)")
    p.add_argument("--split", choices=("infogain", "widest", "loss"), default=None,
                   help="Mondrian's split priority: infogain, widest, or loss (the cut that "
                        "saves the most generalization loss); default infogain for skyline "
                        "policies and combined criteria, widest for k-anonymity")
    p.add_argument("--order", type=order_spec, action="append", default=[],
                   metavar="[COL=]RULE",
                   help="order in which a categorical QI's values are split into runs: sorted "
                        "(default), first (order of first appearance), or COL=V1,V2,... (every "
                        "value, in order); without COL= for every categorical QI (repeatable "
                        "with COL=)")
    p.add_argument("--label-length", type=int_at_least(0), default=DEFAULT_LABEL_LENGTH,
                   metavar="N",
                   help=f"longest set label listed in full (default {DEFAULT_LABEL_LENGTH} "
                        f"characters); a longer set is published as a digest listed in the "
                        f"set-label file")


def _sign_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--sign", default=None, metavar="PEM",
                   help="sign the certificate with this Ed25519 private key (make one with "
                        "'skyprivacy keygen'): writes the detached signature JSON.sig beside "
                        "it (needs the 'sign' extra)")


def _public_key_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--public-key", default=None, metavar="PEM",
                   help="check the certificate's Ed25519 signature (the file JSON.sig) with "
                        "this public key; the VERIFIED line names the key's fingerprint")


def _escape_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--escape-formulas", action="store_true",
                   help="prefix an apostrophe to every input cell a spreadsheet would run as "
                        "a formula (=, +, -, @, tab, CR), before anything is analysed, so the "
                        "released CSV opens as text; the certificate certifies the escaped "
                        "cells")


def _run_options(p: argparse.ArgumentParser, handler, *, report: bool = False) -> None:
    """The options a command over a release ends with (the HTML report where it writes one,
    the engine, the output) and the handler it runs."""
    if report:
        _report_options(p)
    _engine_options(p)
    _common_output(p)
    p.set_defaults(handler=handler)


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

    def table_command(name, help_text, description, table_help, *, release=True,
                      allow_group=True):
        """A subcommand over one table: its input options first, then (``release``) the
        columns of the release."""
        p = command(name, help_text, description)
        _table_input(p, table_help)
        if release:
            _release_options(p, allow_group=allow_group)
        return p

    p = table_command("check", "check a released table against a policy",
                      "Check a released table against a value-centric skyline policy; print the "
                      "verdict, every (value, point) breach probability and the worst cases. "
                      "Exit 0 when safe, 1 when unsafe.",
                      "the released table (CSV or Parquet)")
    p.add_argument("--policy", required=True, metavar="TOML", help="the policy file")
    p.add_argument("--certificate", metavar="JSON", help="also write the certificate")
    _sign_option(p)
    p.add_argument("--risk", action="store_true",
                   help="also certify the identity-disclosure risk on --qi (prosecutor, "
                        "marketer, uniqueness) in the certificate, and show it in the report")
    p.add_argument("--population-size", type=int_at_least(1), default=None, metavar="N",
                   help="with --risk: the population the table was sampled from has N "
                        "records (estimated population uniqueness and journalist risk)")
    _classification_options(p)
    _run_options(p, cmd_check, report=True)

    p = table_command("anonymize", "generalize a table until it satisfies a policy",
                      "Generalize (or bucketize) a table until it satisfies the policy and the "
                      "criteria (all of them: they combine with AND), by Mondrian's "
                      "partitioning (SkylineAnonymize) or the optimal full-domain "
                      "generalization, suppressing rows within a budget; write the released "
                      "table and its certificate. Exit 1 when no release can satisfy them.",
                      "the original table, one row per person (CSV or Parquet)",
                      allow_group=False)
    p.add_argument("--policy", metavar="TOML",
                   help="the policy file: a skyline policy and/or a [criteria] section "
                        "(needed unless a criterion flag is given)")
    criteria = p.add_argument_group("criteria (combined with the policy file's, with AND)")
    criteria.add_argument("--k", type=criterion_option("k"), action="append", default=[],
                          metavar="K", help="k-anonymity: every QI-group holds K or more rows")
    criteria.add_argument("--l-diversity", type=criterion_option("l-diversity"),
                          action="append", default=[], metavar="KIND:L",
                          help="distinct:L, entropy:L or recursive:C,L (repeatable)")
    criteria.add_argument("--t-closeness", type=criterion_option("t-closeness"),
                          action="append", default=[], metavar="KIND:T",
                          help="equal:T or ordered:T, the earth mover's distance bound "
                               "(repeatable)")
    search = p.add_argument_group("search")
    search.add_argument("--method", choices=METHODS, default="mondrian",
                        help="mondrian: multidimensional partitioning (default); full-domain: "
                             "one hierarchy level per quasi-identifier, the optimum of "
                             "--objective over the lattice of levels")
    search.add_argument("--suppression-limit", type=share_of_rows, default=Fraction(0),
                        metavar="SHARE",
                        help="rows that may be suppressed, e.g. 1%% or 0.01 (default 0)")
    search.add_argument("--suppressed", choices=SUPPRESSED, default=None,
                        help="suppressed rows are removed (drop, default) or released with "
                             "every quasi-identifier '*' (mask), as one QI-group that must "
                             "satisfy every criterion too")
    search.add_argument("--objective", choices=OBJECTIVES, default=None,
                        help="what --method full-domain minimises (default loss)")
    p.add_argument("--output", required=True, metavar="FILE",
                   help="the released table (.csv, or .parquet)")
    p.add_argument("--output-format", choices=TABLE_FORMATS, default=None,
                   help="format of --output (default: from its extension)")
    p.add_argument("--certificate", metavar="JSON",
                   help="the certificate (default: the output's name with .cert.json)")
    _sign_option(p)
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
    p.add_argument("--individual", metavar="COL",
                   help="column identifying people, for a table of one row per person and "
                        "sensitive value (with --semantics mvpi-set or mvpi-multiset): "
                        "people are grouped, each released row carries its person's "
                        "generalized quasi-identifiers (check --individual reads it)")
    _whitespace_option(p)
    _classification_options(p)
    _escape_option(p)
    _run_options(p, cmd_anonymize, report=True)

    p = table_command("find", "knowledge skylines of a released table",
                      "Compute the knowledge skyline of every sensitive value at confidence c: "
                      "the largest amounts of knowledge (l, k, m) the release withstands, most "
                      "exposed value first.",
                      "the released table (CSV or Parquet)")
    p.add_argument("-c", "--confidence", type=confidence, required=True, metavar="C",
                   help="confidence threshold in (0, 1], e.g. 0.9 or 2/3")
    p.add_argument("--values", type=value_list, default=None, metavar="V,...",
                   help="only these sensitive values")
    p.add_argument("--top", type=int_at_least(0), default=3, metavar="N",
                   help="worst cases in words for the N most exposed values (default 3)")
    p.add_argument("--output", metavar="CSV",
                   help="also write every skyline point (value, rank, exposure, l, k, m, c)")
    _run_options(p, cmd_find)

    p = table_command("compare", "a k-anonymous or l-diverse release seen through skylines",
                      "Make a k-anonymous or recursive (c, l)-diverse release of a table and "
                      "show which values little knowledge still exposes (knowledge skylines at "
                      "--confidence).",
                      "the original table, one row per person (CSV or Parquet)",
                      allow_group=False)
    baseline = p.add_mutually_exclusive_group(required=True)
    baseline.add_argument("--k-anonymity", type=int_at_least(2), metavar="K",
                          help="make a K-anonymous release")
    baseline.add_argument("--l-diversity", type=int_at_least(2), metavar="L",
                          help="make a recursive (c, L)-diverse release")
    p.add_argument("--diversity-c", type=positive, default=3, metavar="C",
                   help="the c of recursive (c, l)-diversity (default 3)")
    p.add_argument("--confidence", type=confidence, default=0.9, metavar="C",
                   help="confidence of the knowledge skylines (default 0.9)")
    p.add_argument("--values", type=value_list, default=None, metavar="V,...",
                   help="only these sensitive values")
    p.add_argument("--output", metavar="FILE", help="also write the baseline's released table")
    p.add_argument("--labels", metavar="JSON",
                   help="with --output: the set-label file, written when a set is published "
                        "as a digest (default: the output's name with .labels.json)")
    _hierarchy_options(p)
    _classification_options(p)
    _escape_option(p)
    _whitespace_option(p)
    _run_options(p, cmd_compare)

    p = table_command("verify", "check a released table against its certificate",
                      "Recompute a certificate from the released table and the certificate's "
                      "own parameters; exit 1 on any difference in the table hash, a breach "
                      "probability or the verdict.",
                      "the released table (CSV or Parquet)", release=False)
    p.add_argument("--certificate", required=True, metavar="JSON", help="the certificate")
    p.add_argument("--labels", metavar="JSON",
                   help="the set-label file the certificate records (default: its recorded "
                        "name, in the table's folder)")
    p.add_argument("--original", metavar="TABLE",
                   help="the original table of a certificate made by anonymize under "
                        "criteria: its rows must be the ones recorded, so the suppressed rows "
                        "are counted against it")
    p.add_argument("--hierarchy", type=hierarchy_spec, action="append", default=[],
                   metavar="COL=SOURCE",
                   help="with --original and a full-domain release: the hierarchy a QI was "
                        "generalized with (as anonymize's --hierarchy; repeatable), so every "
                        "released cell is checked against its original cell at the recorded "
                        "level; a QI without one has two levels, its values and '*'")
    p.add_argument("--hierarchy-sep", default=";", metavar="SEP",
                   help="field separator of ARX hierarchy files (default ';')")
    p.add_argument("--require-safe", action="store_true",
                   help="exit 1 unless the certificate verifies AND its verdict is safe (for "
                        "pipelines: verify && publish)")
    p.add_argument("--qi", type=column_list, default=None, metavar="COL,...",
                   help="exit 1 unless the certificate certifies exactly these QI columns "
                        "(in any order)")
    p.add_argument("--sensitive", default=None, metavar="COL",
                   help="exit 1 unless the certificate certifies this sensitive column")
    p.add_argument("--policy", default=None, metavar="TOML",
                   help="exit 1 unless the certificate certifies this policy file's skyline "
                        "policy and [criteria]")
    _public_key_option(p)
    _run_options(p, cmd_verify)

    p = table_command("risk", "re-identification risk of a table on its quasi-identifiers",
                      "Measure identity disclosure: prosecutor, journalist and marketer risk, "
                      "sample and population uniqueness, the individual risk of a weighted "
                      "sample and the highest-risk classes (see docs/risk.md).",
                      "the table (CSV or Parquet)", release=False)
    p.add_argument("--qi", type=column_list, required=True, metavar="COL,...",
                   help="quasi-identifier columns (records agreeing on all are one class)")
    population = p.add_mutually_exclusive_group()
    population.add_argument("--population-size", type=int_at_least(1), default=None,
                            metavar="N",
                            help="the size of the population the table was sampled from: "
                                 "estimate population uniqueness and journalist risk")
    population.add_argument("--population", metavar="TABLE",
                            help="a table of the whole population (same QI columns): count "
                                 "journalist and marketer risk and population uniqueness")
    p.add_argument("--weights", metavar="COL",
                   help="column of sampling weights: also the individual risk of every record "
                        "(Benedetti and Franconi 1998)")
    p.add_argument("--threshold", type=unit_interval, default=None, metavar="R",
                   help="also count the records whose risk is above R, e.g. 0.2")
    p.add_argument("--top", type=int_at_least(0), default=10, metavar="N",
                   help="list the N highest-risk classes (default 10)")
    p.add_argument("--model", choices=("dankar", "pitman", "zayatz", "snb"), default="dankar",
                   help="population-uniqueness model with --population-size (default dankar: "
                        "Dankar et al.'s rule chooses)")
    _run_options(p, cmd_risk)

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
    q.add_argument("--require-safe", action="store_true",
                   help="exit 1 unless the certificate verifies AND its verdict is certified "
                        "(for pipelines: verify && publish)")
    _public_key_option(q)
    _common_output(q)
    q.set_defaults(handler=cmd_transparency_verify)
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
        q.add_argument("--public", type=column_list, required=True, metavar="COL,...",
                       help="public (QID) columns")
        q.add_argument("--sensitive", type=column_list, required=True, metavar="COL,...",
                       help="sensitive columns (several form one joint value)")
        q.add_argument("--weight", required=True, metavar="COL",
                       help="probability mass or population of each region")
        q.add_argument("--decision", type=column_list, required=True, metavar="COL,...",
                       help="decision column (probability of the positive outcome), or one "
                            "column per outcome")
        q.add_argument("--exact", action="store_true",
                       help="compute with exact fractions (slow; small tables)")
        if name == "check":
            q.add_argument("--announced", metavar="COL",
                           help="column holding the announced rule (default: the decision)")
            bound = q.add_mutually_exclusive_group(required=True)
            bound.add_argument("--beta", type=confidence, metavar="B",
                               help="largest allowed confidence, in (0, 1]")
            bound.add_argument("--gamma", type=non_negative, metavar="G",
                               help="smallest allowed uncertainty -log(beta)")
            q.set_defaults(handler=cmd_transparency_check)
        else:
            fidelity = q.add_mutually_exclusive_group(required=True)
            fidelity.add_argument("--delta", type=unit_interval, metavar="D",
                                  help="delta-fidelity: |d~ - d| <= 1 - delta")
            fidelity.add_argument("--alpha", type=unit_interval, metavar="A",
                                  help="alpha-fidelity: alpha <= d~/d <= 1/alpha")
            q.add_argument("--output", metavar="FILE",
                           help="also write the table with the announced rule (d_tilde)")
            q.set_defaults(handler=cmd_transparency_optimize)
        q.add_argument("--certificate", metavar="JSON",
                       help="also write a certificate of the rule (optimize: needs --output)")
        _sign_option(q)
        q.add_argument("--report", metavar="HTML",
                       help="also write a self-contained HTML report")
        _common_output(q)
    p.set_defaults(handler=None, subparser=p)

    p = command("keygen", "make an Ed25519 key pair to sign certificates",
                "Write a new Ed25519 private key (PEM, unencrypted: keep it secret) and its "
                "public key (give it to reviewers for 'verify --public-key'); print the key's "
                "fingerprint. Needs the 'sign' extra (cryptography).")
    p.add_argument("private", metavar="PRIVATE_PEM", help="the private key file to write")
    p.add_argument("--public", metavar="PUBLIC_PEM", default=None,
                   help="the public key file to write (default: PRIVATE_PEM with .pub)")
    _common_output(p, json_format=False)
    p.set_defaults(handler=cmd_keygen)

    p = command("data", "export bundled data sets",
                "Write a bundled data set to a file (or stdout) so shell users can follow the "
                "tutorial without internet access.")
    p.add_argument("dataset", choices=("adult", "adult-hierarchy"),
                   help="adult: UCI Adult (45,222 rows); adult-hierarchy: an ARX hierarchy of "
                        "Adult")
    p.add_argument("attribute", nargs="?", help="with adult-hierarchy: the Adult column")
    p.add_argument("--output", metavar="FILE", help="the file to write (default: stdout)")
    p.add_argument("--sample", type=int_at_least(1), default=None, metavar="N",
                   help="adult: only N rows drawn at random")
    p.add_argument("--random-state", type=int, default=0, metavar="SEED",
                   help="seed of --sample (default 0)")
    _common_output(p, json_format=False)
    p.set_defaults(handler=cmd_data)
    return parser
