"""One run of a command: the parsed arguments, the streams, notes and progress on stderr, the
Dask session of ``--engine dask``, reading the input table and checking the outputs before any
work is done."""

from __future__ import annotations

import errno
import io
import json
import os
import sys

import pandas as pd

from ..errors import EngineError, InvalidParameterError, UsageError
from ..io import (
    NA_MARKERS,
    InputError,
    OutputFiles,
    escape_formulas,
    read_table,
    read_table_dask,
    table_bytes,
    table_format,
    write_parquet_dataset,
)
from .shared import EXIT_OK, EXIT_UNSAFE, SCHEMA_VERSION, json_default, one_line


class Progress:
    """A one-line progress bar on stderr; a no-op when disabled."""

    def __init__(self, stream, label: str, enabled: bool):
        self.stream, self.label, self.enabled = stream, label, enabled
        self.shown = -1
        self.width = 0  # of the line last drawn: a shorter one blanks what it leaves

    def __call__(self, fraction: float) -> None:
        if not self.enabled:
            return
        percent = max(0, min(100, int(fraction * 100)))
        if percent == self.shown:
            return
        self.shown = percent
        filled = percent * 30 // 100
        line = f"{self.label} [{'#' * filled}{'.' * (30 - filled)}] {percent:3d}%"
        self.stream.write(f"\r{line}{' ' * (self.width - len(line))}")
        self.width = len(line)
        self.stream.flush()

    def part(self, start: float, stop: float):
        """A callback mapping (0, 1] onto [start, stop] of this bar."""
        return lambda fraction: self(start + (stop - start) * fraction)

    def close(self) -> None:
        if self.enabled and self.shown >= 0:
            self.stream.write("\n")
            self.stream.flush()
            self.shown = -1
            self.width = 0


class Context:
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

    def progress(self, label: str) -> Progress:
        return Progress(self.stderr, label, self.show_progress)

    def note(self, text: str) -> None:
        if not self.quiet:
            print(f"{self.name}: {text}", file=self.stderr)

    def write(self, text: str) -> None:
        """Write ``text`` to stdout, all of it, or raise :class:`BrokenPipeError`."""
        write_all(self.stdout, text)

    def emit(self, text: str) -> None:
        self.write(text if text.endswith("\n") else text + "\n")

    def emit_json(self, data: dict) -> None:
        self.write(json.dumps({"schema_version": SCHEMA_VERSION, **data}, indent=2,
                              ensure_ascii=False, default=json_default) + "\n")


def write_all(stream, text: str) -> None:
    """Write ``text`` to ``stream``, all of it, or raise (:class:`BrokenPipeError` when the
    reader of a pipe has gone).

    A buffered stream (the default stdout, a test's capture) does this itself.  Unbuffered
    (``PYTHONUNBUFFERED=1``, ``python -u``), the text layer hands the bytes straight to the
    file and ignores how many it took: a write cut short because the reader closed the pipe
    (``| head``) loses the rest silently, the next write never comes, and the command would end
    0 with its output truncated.  There the bytes are written here, in a loop until all are
    taken, so the closed pipe surfaces as a BrokenPipeError (exit 141) as it does buffered.
    """
    raw = getattr(stream, "buffer", None)
    if not isinstance(raw, io.RawIOBase):
        stream.write(text)
        return
    stream.flush()  # anything the text layer still holds goes first
    if os.linesep != "\n":  # what the standard streams' text layer does on Windows
        text = text.replace("\n", os.linesep)
    data = memoryview(text.encode(stream.encoding, stream.errors or "strict"))
    while data:
        written = raw.write(data)
        if written is None:  # a non-blocking file that takes nothing now
            raise BlockingIOError(errno.EAGAIN, "stdout cannot take the output now")
        data = data[written:]


def _command_name(args) -> str:
    parts = ["skyprivacy"]
    if getattr(args, "command", None):
        parts.append(args.command)
    if getattr(args, "transparency_command", None):
        parts.append(args.transparency_command)
    return " ".join(parts)


def na_values(args) -> tuple:
    """The cell texts read as missing: ``--na-values``, else pandas' markers."""
    return NA_MARKERS if args.na_values is None else args.na_values


def is_dask(args) -> bool:
    """Whether the command runs with ``--engine dask``."""
    return getattr(args, "engine", "pandas") == "dask"


def read_options(args) -> dict:
    """How the command's tables are read: ``--input-format``, ``--sep`` and ``--encoding``."""
    return {"format": args.input_format, "sep": args.sep,
            "encoding": getattr(args, "encoding", None)}


def read_input(args, **kwargs):
    """The table argument: in memory, or as a dask frame with --engine dask."""
    if is_dask(args):
        table = read_table_dask(args.table, **read_options(args), **kwargs)
    else:
        table = read_table(args.table, **read_options(args))
    if getattr(args, "escape_formulas", False):  # before anything is analysed or certified
        table = escape_formulas(table)
    return table


def distinct_values(table, column: str) -> list:
    """The distinct cells of a column (on the cluster for a dask frame)."""
    from .._core.engines import partitioned_engine

    if partitioned_engine(table) is not None:
        return list(table[column].drop_duplicates().compute())
    return list(pd.unique(table[column]))


def add_table(args, out: OutputFiles, path: str, frame, output_format) -> None:
    """Stage a released table: a file, or with --engine dask a Parquet dataset directory."""
    if is_dask(args):
        out.add_directory(path, lambda folder: write_parquet_dataset(frame, folder))
    else:
        out.add(path, table_bytes(frame, output_format))


def dataset_output(args, flag: str, path: str | None) -> None:
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


class EngineSession:
    """With --engine dask: a client for --scheduler, or a local cluster sized to the machine,
    for the time of one command."""

    def __init__(self, args):
        self.args = args
        self.client = self.cluster = None

    def __enter__(self):
        if not is_dask(self.args):
            if getattr(self.args, "scheduler", None):
                raise UsageError("--scheduler needs --engine dask")
            return self
        from .._core.optional import require_dask
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
                              f"{one_line(exc) or type(exc).__name__}.") from None
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


def check_outputs(args, outputs: dict, inputs: dict) -> None:
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


def run_verification(args, verify, *inputs, **options):
    """``verify(*inputs, **options)``, a certificate verifier: a certificate it rejects as
    malformed is an input error naming ``--certificate``."""
    try:
        return verify(*inputs, **options)
    except InvalidParameterError as exc:
        raise InputError(f"Certificate {args.certificate!r}: {exc}") from None


def verification_json(command: str, verification, args, certificate: dict) -> dict:
    """The opening of ``--format json`` output of a verify command: the command, the verdict,
    the differences and the table's path and certified hash."""
    return {"command": command, "verified": verification.ok,
            "differences": list(verification.differences),
            "table": {"path": args.table, "sha256": certificate["table"]["sha256"]}}


def required_verdict(ctx: Context, verified: bool, verdict, wanted: str) -> int:
    """The exit code of a verify command: 1 when the certificate does not verify, and with
    ``--require-safe`` also when it verifies but certifies another verdict than ``wanted``
    (a pipeline's ``verify && publish`` must not publish an honestly certified unsafe
    table); the reason is one stderr line."""
    if not verified:
        return EXIT_UNSAFE
    if getattr(ctx.args, "require_safe", False) and verdict != wanted:
        print(f"{ctx.name}: NOT SAFE: the certificate verifies, but its verdict is "
              f"{verdict!r}; --require-safe asks for {wanted!r}", file=ctx.stderr)
        return EXIT_UNSAFE
    return EXIT_OK
