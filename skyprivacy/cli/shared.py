"""What every command of the command line shares: the exit codes, the JSON schema version,
the one-line rendering of errors and the text tables and lines of the readable output."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from fractions import Fraction

import pandas as pd

from ..errors import HierarchyError
from ..release import ReleaseCandidate


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


def one_line(text: object) -> str:
    """``text`` (an exception, a warning, a string) on one line: every run of white space one
    space."""
    return " ".join(str(text).split())


def json_default(value):
    """How ``--format json`` writes what :mod:`json` does not know: a Fraction as
    its text, a numpy scalar as its value, a missing cell as null."""
    if isinstance(value, Fraction):
        return str(value)
    if hasattr(value, "item"):
        return value.item()
    if value is pd.NA:
        return None
    return str(value)


def _cell(value) -> str:
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()
    if isinstance(value, float):
        return "-" if value != value else f"{value:.6g}"
    if value is None or value is pd.NA:
        return "-"
    return str(value)


def text_table(headers: list[str], rows: list[list], right: AbstractSet[int] = frozenset()) -> str:
    """A plain-text table: a header row, a rule, then the rows (columns in ``right``
    aligned to the right)."""
    cells = [[_cell(cell) for cell in row] for row in rows]
    widths = [max([len(h)] + [len(row[i]) for row in cells]) for i, h in enumerate(headers)]

    def line(row):
        return "  ".join(cell.rjust(w) if i in right else cell.ljust(w)
                         for i, (cell, w) in enumerate(zip(row, widths))).rstrip()
    return "\n".join([line(headers), line(["-" * w for w in widths])] +
                     [line(row) for row in cells])


def release_line(release: ReleaseCandidate, source: str, n_rows: int) -> str:
    """One line describing a release: rows, QI-groups, their sizes, semantics."""
    sizes = release.sizes_array
    return (f"{source}: {n_rows:,} rows in {release.n_groups:,} QI-groups of "
            f"{int(sizes.min()):,} to {int(sizes.max()):,} people (average "
            f"{release.n_individuals / release.n_groups:,.1f}); semantics {release.semantics}.")


def verdict_line(result) -> str:
    """SAFE or UNSAFE, with how many (value, point) checks hold or fail."""
    if result.safe:
        return f"SAFE: all {len(result.rows)} (value, point) checks hold."
    return f"UNSAFE: {len(result.violations)} of {len(result.rows)} (value, point) checks fail."


def naming_the_file(exc, args) -> str:
    """The error's one line, prefixed with the input file it is about when it names none."""
    if isinstance(exc, UnicodeDecodeError) and getattr(args, "engine", None) == "dask" \
            and getattr(args, "table", None):
        # a worker's block knows neither its file nor its line: find them in the files
        from ..io import undecodable_csv

        located = undecodable_csv(args.table, getattr(args, "encoding", None))
        if located is not None:
            return one_line(located)
    message = one_line(exc)
    inputs = [("Table", getattr(args, "table", None)), ("Policy", getattr(args, "policy", None)),
              ("Certificate", getattr(args, "certificate", None)),
              ("Rule", getattr(args, "rule", None)),
              ("Population table", getattr(args, "population", None)),
              ("Original table", getattr(args, "original", None)),
              ("Key", getattr(args, "public_key", None)), ("Key", getattr(args, "sign", None))]
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
