"""Reading and writing files: tables, policies, hierarchies, certificates and reports.

This is the only module (with :mod:`skyprivacy.datasets`, which reads bundled files) that
touches the file system for the command line; everything it reads is validated here and every
problem becomes one clear :class:`InputError` (or the library's :class:`SchemaError` /
:class:`HierarchyError`) naming the file.

* Tables are CSV (UTF-8, ``,``-separated, a header line) or Parquet (needs ``pyarrow``).  They
  are read as *text*: every cell is the string written in the file, so a released table hashes
  and groups exactly as it reads (see :mod:`skyprivacy.certificate`), and sensitive values match
  the text of a policy file.  Parquet cells become the text their CSV would hold.
* Missing cells are the empty cell (or one of spaces only) and the markers of
  :data:`NA_MARKERS` (those :func:`pandas.read_csv` treats as missing); :func:`reject_missing`
  refuses them in the columns an operation uses, since dropping rows silently would overstate
  the protection.
* Policies are TOML files (``tomllib``; ``tomli`` on Python 3.10)::

      [default]
      skyline = [[1, 5, 1, 0.9]]            # (l, k, m, c) points for every value not listed

      [values."Exec-managerial"]
      skyline = [[4, 10, 4, 0.9], [1, 20, 1, 0.9]]

  A threshold ``c`` may also be a fraction written as a string, ``"2/3"``.  A ``[criteria]``
  section adds other criteria (``k = 5``, ``l-diversity = "distinct:3"``, ``t-closeness =
  "equal:0.2"``; :func:`read_criteria`), which ``skyprivacy anonymize`` ANDs with the skyline.
* Hierarchies are ARX CSV files (``leaf;level 1;...;*``) or references to the bundled ones:
  ``bundled:adult:ATTRIBUTE``, or ``bundled:adult`` for the Adult attribute of the column's
  own name.  :func:`read_arx` and :func:`write_arx` are the thin file functions beside the
  pure text ones of :mod:`skyprivacy.hierarchy.arx` (the hierarchy package never touches a
  file); :func:`write_arx` writes atomically, as every output below.
* Every output file is written atomically: to a temporary file in the target directory, then
  renamed over the target (:class:`OutputFiles` stages several files and renames them only when
  all are written), so a failed run leaves no partial file.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import io as _io
import json
import os
import re
import select
import stat
import sys
import tempfile
import warnings
from collections.abc import Iterable, Mapping
from typing import TextIO

import numpy as np
import pandas as pd

from ._core.encoding import NA_MARKERS, as_numbers, missing_mask, require_columns
from ._core.validation import InstanceOf, check, validate_params
from ._core.text import MAX_NESTING, nesting_depth
from ._core.warning import warn
from .certificate import (
    canonical_csv,
    criteria_from_spec,
    policy_from_json,
    text_table,
    unique_keys,
)
from .criteria import SkylinePolicy
from .errors import (HierarchyError, InvalidParameterError, SchemaError, SkyPrivacyError,
                     SkyPrivacyWarning)
from .datasets import bundled
from .hierarchy import Hierarchy, generate_arx, parse_arx
from .hierarchy.arx import SEP
from .hierarchy.model import NAME
from .knowledge import Policy

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = [
    "InputError",
    "NA_MARKERS",
    "TABLE_FORMATS",
    "table_format",
    "read_table",
    "require_columns",
    "reject_missing",
    "missing_mask",
    "as_numbers",
    "read_policy",
    "read_criteria",
    "read_hierarchy",
    "read_arx",
    "write_arx",
    "read_certificate",
    "read_bytes",
    "table_bytes",
    "json_bytes",
    "OutputFiles",
    "write_table",
    "write_text",
    "read_table_dask",
    "undecodable_csv",
    "write_parquet_dataset",
    "write_dataset",
]

#: Cell texts read as missing in addition to the empty cell (the markers pandas.read_csv uses).
TABLE_FORMATS = ("csv", "parquet")
_PARQUET_SUFFIXES = (".parquet", ".pq")
_SHOW = 10  # how many values an error message lists before "..."
_PATH = InstanceOf(str, os.PathLike, name="a path (str or os.PathLike)")


class InputError(SkyPrivacyError, ValueError):
    """A file cannot be read, or its content is not what the operation needs."""


def _name(path) -> str:
    return repr(str(path))


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


def _show(values: Iterable) -> str:
    values = list(values)
    shown = ", ".join(repr(v) for v in values[:_SHOW])
    return f"[{shown}{', ...' if len(values) > _SHOW else ''}]"


# ------------------------------------------------------------------------------------ tables
def table_format(path, format: str | None = None) -> str:
    """The table format: ``format`` if given, else ``'parquet'`` for ``.parquet``/``.pq``
    files and ``'csv'`` otherwise.

    Examples
    --------
    >>> table_format("release.parquet"), table_format("release.csv.gz"), table_format("x", "csv")
    ('parquet', 'csv', 'csv')
    """
    if format is not None:
        if format not in TABLE_FORMATS:
            raise InvalidParameterError(f"The table format must be one of {list(TABLE_FORMATS)}."
                                        f" Got {format!r} instead.")
        return format
    return "parquet" if str(path).lower().endswith(_PARQUET_SUFFIXES) else "csv"


def _require_pyarrow(action: str) -> None:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise InputError(f"{action} Parquet needs pyarrow: pip install 'skyprivacy[parquet]' "
                         f"(or use CSV).") from None


_COMPRESSION = ((b"\x1f\x8b", "gzip"), (b"BZh", "bz2"), (b"\xfd7zXZ\x00", "xz"),
                (b"PK\x03\x04", "zip"), (b"PK\x05\x06", "zip"))  # the second: an empty zip
_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
STDIN = "-"


def _where(path) -> str:
    return "'-' (standard input)" if str(path) == STDIN else _name(path)


#: How often a read of a pipe wakes to let the main thread run a pending signal handler.
_PIPE_WAKE_SECONDS = 0.1


def _read_pipe(stream) -> bytes:
    """Every byte of a pipe, read in a loop that wakes every :data:`_PIPE_WAKE_SECONDS`.

    Python runs signal handlers in the main thread only, between bytecodes.  A SIGTERM that
    the kernel hands to another thread (numpy's BLAS workers) would leave a main thread
    blocked in one ``read`` until the writer closes the pipe, perhaps never; waking lets the
    handler run and the run stop.  Streams without a file descriptor are read at once.
    """
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return stream.read()
    chunks: list[bytes] = []
    while True:
        try:
            ready = select.select([fd], [], [], _PIPE_WAKE_SECONDS)[0]
        except (OSError, ValueError):  # no select on this kind of file (Windows pipes)
            return b"".join(chunks) + stream.read()
        if ready:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)


def _open_source(path, noun: str):
    """The bytes of an input (``-`` is standard input): regular files stay on disk (a path),
    anything else (a pipe, ``/dev/stdin``, process substitution) is read once into memory."""
    where = _where(path)
    if str(path) == STDIN:
        return _io.BytesIO(_read_pipe(sys.stdin.buffer))
    try:
        info = os.stat(path)
    except OSError as exc:
        raise InputError(f"Cannot read {noun} {where}: {_reason(exc)}.") from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError(f"Cannot read {noun} {where}: it is a directory.")
    if stat.S_ISREG(info.st_mode):
        return os.fspath(path)
    try:
        with open(path, "rb", buffering=0) as stream:
            return _io.BytesIO(_read_pipe(stream))
    except OSError as exc:
        raise InputError(f"Cannot read {noun} {where}: {_reason(exc)}.") from None


def _head(source, size: int = 8) -> bytes:
    if isinstance(source, _io.BytesIO):
        return source.getvalue()[:size]
    with open(source, "rb") as stream:
        return stream.read(size)


def _all_bytes(source) -> bytes:
    if isinstance(source, _io.BytesIO):
        return source.getvalue()
    with open(source, "rb") as stream:
        return stream.read()


#: Environment variable that sets the largest decompressed size of a compressed table, in
#: bytes (suffixes K, M, G and T for powers of 1,024 are accepted).
MAX_DECOMPRESSED_ENV = "SKYPRIVACY_MAX_DECOMPRESSED"
_CHUNK = 1 << 20


def decompression_limit(compressed_size: int) -> int:
    """The largest decompressed size a compressed table of ``compressed_size`` bytes may have.

    ``$SKYPRIVACY_MAX_DECOMPRESSED`` when set; else generous for real tables but early for a
    decompression bomb: 1 GiB, or 100 times the compressed size when that is more (CSV text
    compresses 5-20 fold; gzip reaches 1,000 fold only on repeated bytes).

    Examples
    --------
    >>> decompression_limit(1_000) == 2 ** 30
    True
    >>> decompression_limit(100 * 2 ** 20) == 10_000 * 2 ** 20
    True
    """
    text = os.environ.get(MAX_DECOMPRESSED_ENV, "").strip()
    if not text:
        return max(2 ** 30, 100 * compressed_size)
    scale = {"K": 2 ** 10, "M": 2 ** 20, "G": 2 ** 30, "T": 2 ** 40}.get(text[-1:].upper(), 1)
    digits = text[:-1] if scale > 1 else text
    if not digits.isdigit() or int(digits) <= 0:
        raise InputError(f"{MAX_DECOMPRESSED_ENV}={text!r} is not a positive size in bytes "
                         f"(such as 4G).")
    return int(digits) * scale


def _bounded_read(stream, where: str, kind: str, limit: int) -> _io.BytesIO:
    """Read a decompressing stream in chunks, refusing it as soon as it exceeds ``limit``
    (memory stays within the limit plus one chunk, whatever the archive claims)."""
    out = _io.BytesIO()
    while chunk := stream.read(_CHUNK):
        out.write(chunk)
        if out.tell() > limit:
            raise InputError(f"Table {where} expands beyond {limit:,} bytes when "
                             f"{kind}-decompressed (a decompression bomb?); set "
                             f"{MAX_DECOMPRESSED_ENV} to allow a larger table.")
    out.seek(0)
    return out


def _decompressed(source, where: str):
    """The source with gzip, bz2, xz or single-member zip compression removed (detected by
    the magic bytes, whatever the file name says), within :func:`decompression_limit`."""
    head = _head(source)
    kind = next((name for magic, name in _COMPRESSION if head.startswith(magic)), None)
    if kind is None:
        return source
    import bz2
    import gzip
    import lzma
    import zipfile

    data = _all_bytes(source)
    limit = decompression_limit(len(data))
    try:
        if kind == "zip":
            with zipfile.ZipFile(_io.BytesIO(data)) as archive:
                names = [n for n in archive.namelist() if not n.endswith("/")]
                if "[Content_Types].xml" in names and any(n.startswith("xl/") for n in names):
                    return ("xlsx", data)
                if len(names) != 1:
                    raise InputError(f"Table {where} is a zip archive of {len(names)} files; "
                                     f"it must hold exactly one CSV file.")
                with archive.open(names[0]) as member:
                    return _bounded_read(member, where, kind, limit)
        opener = {"gzip": gzip.GzipFile, "bz2": bz2.BZ2File, "xz": lzma.LZMAFile}[kind]
        with opener(fileobj=_io.BytesIO(data)) if kind == "gzip" else \
                opener(_io.BytesIO(data)) as stream:
            return _bounded_read(stream, where, kind, limit)
    except InputError:
        raise
    except (OSError, EOFError, ValueError, zipfile.BadZipFile, lzma.LZMAError) as exc:
        raise InputError(f"Table {where} looks {kind}-compressed but cannot be decompressed: "
                         f"{exc}.") from None


def _csv_header(source, sep: str, encoding: str = "utf-8-sig") -> list[str]:
    stream: TextIO
    if isinstance(source, _io.BytesIO):
        stream = _io.StringIO(source.getvalue().decode(encoding))
    else:
        stream = open(source, encoding=encoding, newline="")
    with stream, _no_field_limit():
        try:
            return next(csv.reader(stream, delimiter=sep))
        except StopIteration:
            return []


@contextlib.contextmanager
def _no_field_limit():
    """The csv module refuses fields over 128 KiB (``field larger than field limit``); a
    header may name a long column, and pandas reads long cells: lift the limit while
    reading a header."""
    before = csv.field_size_limit()
    csv.field_size_limit(2 ** 31 - 1)
    try:
        yield
    finally:
        csv.field_size_limit(before)


def _read_excel(data: bytes, where: str) -> pd.DataFrame:
    try:
        import openpyxl  # noqa: F401
    except ImportError:
        raise InputError(f"Table {where} is an Excel workbook; reading it needs openpyxl: "
                         f"pip install 'skyprivacy[excel]' (or save it as CSV).") from None
    try:
        frame = pd.read_excel(_io.BytesIO(data), dtype=object, keep_default_na=False,
                              na_filter=False)
    except Exception as exc:  # noqa: BLE001 - openpyxl's errors share no base but Exception
        raise InputError(f"Table {where} is not a readable Excel workbook: "
                         f"{_first_line(exc)}.") from None
    return text_table(frame.reset_index(drop=True))


#: Files of statistics packages read through pyreadstat (the ``readstat`` extra): suffix ->
#: (what the file is called, pyreadstat's reader).
_STATISTICS = {".sas7bdat": ("a SAS data set", "read_sas7bdat"),
               ".sav": ("an SPSS data file", "read_sav"), ".zsav": ("an SPSS data file",
                                                                  "read_sav"),
               ".dta": ("a Stata data file", "read_dta"),
               ".xpt": ("a SAS transport file", "read_xport")}


def _statistics_format(path, source) -> str | None:
    """The suffix of a SAS, SPSS or Stata file (by its name; SPSS also by its magic bytes)."""
    suffix = os.path.splitext(str(path).lower())[1]
    if suffix in _STATISTICS:
        return suffix
    return ".sav" if _head(source, 4) in (b"$FL2", b"$FL3") else None


def _read_statistics(source, where: str, suffix: str) -> pd.DataFrame:
    """A SAS, SPSS or Stata file as text (pyreadstat; the values as stored, not their value
    labels).  pyreadstat reads a path: standard input goes through a temporary file."""
    what, reader = _STATISTICS[suffix]
    try:
        import pyreadstat
    except ImportError:
        raise InputError(f"Table {where} is {what}; reading it needs pyreadstat: pip install "
                         f"'skyprivacy[readstat]' (or save it as CSV).") from None
    with contextlib.ExitStack() as stack:
        if isinstance(source, _io.BytesIO):
            handle = stack.enter_context(tempfile.NamedTemporaryFile(suffix=suffix))
            handle.write(source.getvalue())
            handle.flush()
            source = handle.name
        try:
            frame, _ = getattr(pyreadstat, reader)(source)
        except Exception as exc:  # noqa: BLE001 - pyreadstat's ReadstatError is no OSError
            raise InputError(f"Table {where} is not a readable {what[what.index(' ') + 1:]}: "
                             f"{_first_line(exc)}.") from None
    if not len(frame.columns):
        raise InputError(f"Table {where} has no columns.")
    if not len(frame):
        raise InputError(f"Table {where} has columns but no rows.")
    for column in frame.columns:  # SAS and SPSS store every number as a double: 30, not 30.0
        values = frame[column]
        if values.dtype.kind == "f" and np.all(np.isnan(values) | (values == np.round(values))):
            frame[column] = values.astype("Int64")
    return text_table(frame.reset_index(drop=True))


def _first_line(exc: BaseException) -> str:
    return str(exc).splitlines()[0] if str(exc) else repr(exc)


def _read_parquet(source, where: str) -> pd.DataFrame:
    _require_pyarrow("Reading")
    try:
        frame = pd.read_parquet(source)
    except (OSError, ValueError) as exc:  # pyarrow's ArrowInvalid is a ValueError
        raise InputError(f"Table {where} is not a readable Parquet file: "
                         f"{_first_line(exc)}.") from None
    return text_table(frame.reset_index(drop=True))


def read_parquet_part(path) -> pd.DataFrame:
    """One part of a partitioned Parquet table, as text (what a Dask worker reads); a part
    that cannot be read is one :class:`InputError` line naming it, raised on the worker and
    re-raised by the client as it is."""
    return _read_parquet(os.fspath(path), f"part {_name(path)}")


def _parquet_columns(files: list, where: str) -> None:
    """Read every part's footer (not its rows) before any work is scheduled: a part that is
    not Parquet, or whose columns differ from the first part's, is one InputError line naming
    it, instead of a worker's traceback in the middle of a computation."""
    import pyarrow.parquet as pq

    first = None
    for file in files:
        try:
            names = [n for n in pq.read_schema(file).names if not n.startswith("__index_level_")]
        except (OSError, ValueError) as exc:
            raise InputError(f"Table {where}: part {_name(file)} is not a readable Parquet "
                             f"file: {_first_line(exc)}.") from None
        if first is None:
            first = names
        elif names != first:
            lacks = [n for n in first if n not in names]
            extra = [n for n in names if n not in first]
            what = (f"lacks the column(s) {_show(lacks)}" if lacks else
                    f"has the extra column(s) {_show(extra)}" if extra else
                    "orders the columns differently")
            raise InputError(f"Table {where}: part {_name(file)} {what} (the first part, "
                             f"{_name(files[0])}, has {_show(first)}).")


# ------------------------------------------------------------------------------- encodings
#: Byte-order marks read without ``--encoding`` (UTF-32 first: its little-endian mark starts
#: with UTF-16's).
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
         (codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
         (codecs.BOM_UTF16_BE, "utf-16-be"))
_UNICODE = {"utf-8", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"}


def text_encoding(encoding) -> str | None:
    """The codec name of ``encoding`` (``None``: UTF-8, or the byte-order mark's), or an
    :class:`~skyprivacy.errors.InvalidParameterError` naming it when Python has no such text
    encoding.

    Examples
    --------
    >>> text_encoding("CP1252"), text_encoding("latin1"), text_encoding(None)
    ('cp1252', 'iso8859-1', None)
    """
    if encoding is None:
        return None
    try:
        info = codecs.lookup(encoding) if isinstance(encoding, str) else None
    except LookupError:
        info = None
    if info is None or not getattr(info, "_is_text_encoding", True):
        raise InvalidParameterError(f"The 'encoding' parameter of read_table must be a text "
                                    f"encoding such as 'utf-8', 'utf-16' or 'cp1252'. Got "
                                    f"{encoding!r} instead.")
    return info.name


def _bom(head: bytes) -> tuple[str, int] | None:
    """(codec, length) of the byte-order mark ``head`` starts with, if any."""
    for mark, codec in _BOMS:
        if head.startswith(mark):
            return codec, len(mark)
    return None


def _not_text(data: bytes, where: str, codec: str, skip: int, exc: UnicodeDecodeError,
              given: bool, lines_before: int = 0) -> InputError:
    """The one-line error of a table that does not decode: the first bad byte, its line and
    its byte within the line (both from 1; ``data`` starting after ``lines_before`` whole
    lines of the file), and the option that reads it."""
    start = skip + exc.start
    before = data[skip:start].decode(codec, errors="replace")
    line = lines_before + before.count("\n") + 1
    tail = before[before.rfind("\n") + 1:]
    try:
        column = len(tail.encode(codec)) - len("".encode(codec)) + 1  # utf-16 adds a mark
    except UnicodeError:  # a codec that cannot say it back: count from the file's start
        column = start + 1
    name = "UTF-8" if codec == "utf-8" else codec
    hint = ("; check --encoding (Python: read_table(..., encoding=...))" if given else
            "; pass --encoding cp1252 if it was saved as Windows text (Excel's CSV on "
            "Windows), --encoding latin-1 for ISO 8859-1 (Python: read_table(..., "
            "encoding='cp1252'))")
    return InputError(f"Table {where} is not {name} text: byte 0x{data[start]:02x} at line "
                      f"{line}, byte {column}{hint}.")


def _utf16_without_bom(head: bytes) -> str | None:
    """'utf-16-le' or 'utf-16-be' when the opening bytes look like UTF-16 text without a
    byte-order mark (every other byte NUL, as ASCII text in UTF-16 is), else None."""
    even, odd = head[0::2], head[1::2]
    if len(odd) < 2:
        return None
    if odd.count(0) * 4 >= len(odd) * 3 and even.count(0) == 0:
        return "utf-16-le"
    if even.count(0) * 4 >= len(even) * 3 and odd.count(0) == 0:
        return "utf-16-be"
    return None


def _decoded_text(source, where: str, encoding: str | None):
    """The source as UTF-8 bytes: as it is when it is UTF-8 (with or without a byte-order
    mark; the CSV reader decodes it), else decoded from ``encoding`` or the UTF-16/UTF-32
    byte-order mark and re-encoded (a decoding error names the line and the byte)."""
    head = _head(source, 4096)
    mark = _bom(head)
    if encoding is None and (mark is None or mark[0] == "utf-8"):
        guess = _utf16_without_bom(head) if mark is None else None
        if guess is not None:
            raise InputError(f"Table {where} looks like UTF-16 text without a byte-order "
                             f"mark; pass --encoding {guess} (Python: read_table(..., "
                             f"encoding={guess!r})).")
        return source
    codec, skip = (encoding, 0) if encoding is not None else mark or ("utf-8", 0)
    if codec in ("utf-8", "utf-8-sig"):
        return source
    if codec in ("utf-16", "utf-32") and mark is not None and mark[0].startswith(codec):
        codec, skip = mark  # the mark says which byte order
    elif mark is not None and mark[0] == codec:
        skip = mark[1]
    data = _all_bytes(source)
    try:
        text = data[skip:].decode(codec)
    except UnicodeDecodeError as exc:
        raise _not_text(data, where, codec, skip, exc, encoding is not None) from None
    return _io.BytesIO(text.removeprefix("\ufeff").encode("utf-8"))


def read_table(path, *, format: str | None = None, sep: str | None = None,
               encoding: str | None = None) -> pd.DataFrame:
    """Read a table as text: every cell the ``str`` written in the file.

    ``path`` may be ``-`` (standard input), a pipe or a process substitution (read once); CSV
    compressed with gzip, bz2, xz or zip is read transparently, Parquet is recognized by its
    magic bytes whatever the file is called, an Excel ``.xlsx`` workbook through the
    ``excel`` extra, SAS (``.sas7bdat``, ``.xpt``), SPSS (``.sav``, ``.zsav``) and Stata
    (``.dta``) files through the ``readstat`` extra (pyreadstat; the stored values, not their
    value labels), a UTF-8 byte-order mark is ignored and a UTF-16 or UTF-32 one decides the
    encoding.

    Parameters
    ----------
    path : str or os.PathLike
    format : {'csv', 'parquet'}, optional
        Default: from the content, else from the file name (:func:`table_format`).
    sep : str, optional
        The CSV field separator (one character; default ``,``).
    encoding : str, optional
        The text encoding of a CSV table (``'cp1252'``, ``'latin-1'``, ``'utf-16'``...).
        Default: UTF-8, or UTF-16 / UTF-32 when the file starts with their byte-order mark
        (Excel's "Unicode text"); a UTF-8 byte-order mark is skipped either way.

    Returns
    -------
    pandas.DataFrame
        Object columns of ``str``; missing cells are ``''`` (CSV) or the empty text of
        the Parquet null; a RangeIndex.

    Raises
    ------
    InputError
        The file does not exist or cannot be read, is not UTF-8 (or ``encoding``; the
        message names the first bad byte, its line and its place in the line), is not valid
        CSV, has no header, only a header, an empty or repeated column name, a header that looks
        separated by another character than ``sep``, or control characters in a cell;
        Parquet without pyarrow, Excel without openpyxl; a compressed table that expands
        beyond :func:`decompression_limit` (``$SKYPRIVACY_MAX_DECOMPRESSED``).

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "t.csv")
    >>> _ = open(path, "w").write("age,job\\n39,NA\\n")
    >>> read_table(path).iloc[0].tolist()
    ['39', 'NA']
    """
    where = _where(path)
    if sep is not None and (not isinstance(sep, str) or len(sep) != 1 or sep in "\r\n\"'"):
        raise InvalidParameterError(f"The 'sep' parameter of read_table must be one character "
                                    f"other than a quote or a line break. Got {sep!r} instead.")
    encoding = text_encoding(encoding)
    if table_format(path, format) == "parquet":  # validates format; pyarrow first
        _require_pyarrow("Reading")
    source = _open_source(path, "table")
    try:
        if format == "parquet" or (format is None and _head(source).startswith(b"PAR1")):
            return _read_parquet(source, where)
        if format is None and str(path).lower().endswith(_PARQUET_SUFFIXES):
            raise InputError(f"Table {where} is named like a Parquet file but is not one "
                             f"(no Parquet magic bytes); pass --input-format csv if it is CSV.")
        kind = _statistics_format(path, source) if format is None else None
        if kind is not None:
            return _read_statistics(source, where, kind)
        source = _decompressed(source, where)
        if isinstance(source, tuple):
            return _read_excel(source[1], where)
        if _head(source).startswith(b"PAR1"):
            return _read_parquet(source, where)
        source = _decoded_text(source, where, encoding)
        return _read_csv(source, where, sep or ",")
    except InputError:
        raise
    except UnicodeDecodeError:
        data = _all_bytes(source)
        skip = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
        try:
            data[skip:].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _not_text(data, where, "utf-8", skip, exc, False) from None
        raise InputError(f"Table {where} is not UTF-8 text.") from None
    except OSError as exc:
        raise InputError(f"Cannot read table {where}: {_reason(exc)}.") from None


def _read_csv(source, where: str, sep: str) -> pd.DataFrame:
    _check_csv_header(_csv_header(source, sep), where, sep)
    if isinstance(source, _io.BytesIO):
        source.seek(0)
    try:
        with warnings.catch_warnings():
            # a data row longer than the header would silently become an index: refuse it
            warnings.simplefilter("error", pd.errors.ParserWarning)
            # compression was detected by the magic bytes: a name such as x.gz decides nothing
            frame = pd.read_csv(source, sep=sep, dtype=object, keep_default_na=False,
                                na_filter=False, encoding="utf-8-sig", index_col=False,
                                compression=None)
    except pd.errors.ParserWarning:
        raise InputError(f"Table {where} is not valid CSV: a data row has more fields than "
                         f"the header.") from None
    except pd.errors.EmptyDataError:
        raise InputError(f"Table {where} is empty: a CSV table needs a header line.") from None
    except pd.errors.ParserError as exc:
        message = " ".join(str(exc).split())
        raise InputError(f"Table {where} is not valid CSV: {message}.") from None
    if not len(frame):
        raise InputError(f"Table {where} has a header but no rows.")
    # short rows leave NaN even without NA filtering; they are missing cells
    frame = frame.where(frame.notna(), "")
    _reject_control(source, frame, where)
    return frame


def _check_csv_header(header: list, where: str, sep: str) -> None:
    """A CSV header must exist, name every column once, and not look separated by another
    character than ``sep``."""
    if not header:
        raise InputError(f"Table {where} is empty: a CSV table needs a header line.")
    if len(header) == 1:
        for other, flag in ((";", ";"), ("\t", "tab")):
            if other != sep and other in header[0]:
                raise InputError(
                    f"Table {where} has one column {header[0]!r}: it looks "
                    f"{flag}-separated; pass --sep {shlex_quote(other)} (Python: "
                    f"read_table(..., sep={other!r})).")
    empty = [i + 1 for i, name in enumerate(header) if not name.strip()]
    if empty:
        raise InputError(f"Table {where} has an empty column name (column {empty[0]} of the "
                         f"header); every column needs a name.")
    duplicated = sorted({c for c in header if header.count(c) > 1})
    if duplicated:
        raise InputError(f"Table {where} repeats the column name(s) {duplicated}; column "
                         f"names must be distinct.")


def _reject_control(source, frame: pd.DataFrame, where: str) -> None:
    """Refuse control characters (NUL, escape, ...) in cells: printed raw they can rewrite a
    terminal, and no release should carry them.  The raw bytes are scanned first (fast)."""
    data = _all_bytes(source) if isinstance(source, _io.BytesIO) else None
    if data is None:
        with open(source, "rb") as stream:
            found = any(_CONTROL.search(chunk) for chunk in iter(lambda: stream.read(1 << 22),
                                                                 b""))
    else:
        found = _CONTROL.search(data) is not None
    if not found:
        return
    pattern = _CONTROL.pattern.decode("ascii")
    for column in frame.columns:
        hits = frame[column].astype(str).str.contains(pattern, regex=True)
        if hits.any():
            row = int(np.flatnonzero(hits.to_numpy())[0])
            found_char = re.search(pattern, str(frame[column].iat[row]))
            if found_char:
                raise InputError(f"Table {where} has a control character "
                                 f"(U+{ord(found_char.group(0)):04X}) in column {column!r}, "
                                 f"data row {row + 1}; remove it.")
    for number, name in enumerate(frame.columns, start=1):
        char = re.search(pattern, str(name))
        if char:
            raise InputError(f"Table {where} has a control character (U+{ord(char.group(0)):04X})"
                             f" in its header, column {number}; remove it.")
    raise InputError(f"Table {where} has a control character; remove it.")


def shlex_quote(text: str) -> str:
    """``text`` quoted for a POSIX shell (``$'\\t'`` for a tab)."""
    if text == "\t":
        return "$'\\t'"
    import shlex

    return shlex.quote(text)


def reject_missing(table: pd.DataFrame, columns: Iterable[str],
                   na_values: Iterable[str] = NA_MARKERS) -> None:
    """Raise :class:`SchemaError` if a used column holds a missing cell.

    The message names the column, the number of missing cells, the first data row (1 is the
    line after the header) and the cell text.

    Examples
    --------
    >>> try:
    ...     reject_missing(pd.DataFrame({"age": ["39", "NA"]}), ["age"])
    ... except SchemaError as error:
    ...     print(str(error)[:68])
    Column 'age' has 1 missing cell(s), the first on data row 2 ('NA');
    """
    na_values = tuple(na_values)
    from ._core.engines import partitioned_engine

    if partitioned_engine(table) is not None:  # counted where the partitions live
        from .dask_engine.io import first_missing

        for column, n_missing, first, cell in first_missing(table, columns, na_values):
            if n_missing:
                raise SchemaError(
                    f"Column {column!r} has {n_missing} missing cell(s), the first on data "
                    f"row {first + 1} ({cell!r}); skyprivacy never drops rows silently: fill "
                    f"or remove them (or change --na-values).")
        return
    for column in dict.fromkeys(columns):
        mask = missing_mask(table[column], na_values).to_numpy(dtype=bool)
        if mask.any():
            first = int(np.flatnonzero(mask)[0])
            raise SchemaError(
                f"Column {column!r} has {int(mask.sum())} missing cell(s), the first on data row "
                f"{first + 1} ({table[column].iloc[first]!r}); skyprivacy never drops rows "
                f"silently: fill or remove them (or change --na-values).")


# ------------------------------------------------------------------------------ policy etc.
def _read_text(path, title: str, noun: str, *, newline: str | None = None) -> str:
    """The text of a UTF-8 file (a byte-order mark is dropped); every failure becomes one
    InputError line naming the file (``title`` starts a sentence, ``noun`` follows a verb)."""
    where = _name(path)
    try:
        with open(path, encoding="utf-8-sig", newline=newline) as stream:
            return stream.read()
    except UnicodeDecodeError:
        raise InputError(f"{title} {where} is not UTF-8 text.") from None
    except IsADirectoryError:
        raise InputError(f"Cannot read {noun} {where}: it is a directory.") from None
    except OSError as exc:
        raise InputError(f"Cannot read {noun} {where}: {_reason(exc)}.") from None


def _load_document(path, title: str, noun: str, syntax: str, load, decode_error):
    """Parse a UTF-8 text file with ``load`` (text -> data); every failure becomes one
    InputError line."""
    text = _read_text(path, title, noun)
    depth = nesting_depth(text)
    if depth > MAX_NESTING:
        raise InputError(f"{title} {_name(path)} nests arrays or objects {depth} levels deep; "
                         f"at most {MAX_NESTING} are read.")
    try:
        return load(text)
    except decode_error as exc:
        raise InputError(f"{title} {_name(path)} is not valid {syntax}: {exc}.") from None


def _policy_file(path) -> tuple[Policy | None, list]:
    """(the skyline policy or None, the criteria of the ``[criteria]`` section) of a policy
    file: the one place its TOML is read."""
    where = _name(path)
    data = _load_document(path, "Policy file", "policy file", "TOML", tomllib.loads,
                          tomllib.TOMLDecodeError)
    section = data.pop("criteria", None)
    try:
        criteria = [] if section is None else criteria_from_spec(section)
    except InvalidParameterError as exc:
        raise InputError(f"Policy file {where}, section [criteria]: {exc}") from None
    if section is not None and not data:
        if not criteria:
            raise InputError(f"Policy file {where}: its [criteria] section is empty and it has "
                             f"no skyline; give k = 5, l-diversity = \"distinct:3\", ... or a "
                             f"[default] skyline.")
        return None, criteria
    try:
        return policy_from_json(data), criteria
    except (InvalidParameterError, TypeError) as exc:
        raise InputError(f"Policy file {where}: {exc}") from None


def read_policy(path) -> Policy:
    """Read a value-centric policy from a TOML file (shape in the module docstring).

    Raises
    ------
    InputError
        The file cannot be read, is not TOML, or does not describe a valid policy; or it holds
        a ``[criteria]`` section (:func:`read_criteria` reads those).
    """
    policy, criteria = _policy_file(path)
    if criteria or policy is None:
        raise InputError(f"Policy file {_name(path)} has a [criteria] section, which only "
                         f"'skyprivacy anonymize' reads; this command certifies a skyline "
                         f"policy alone.")
    return policy


def read_criteria(path) -> list:
    """Read the criteria of a policy file: its skyline policy (as a
    :class:`~skyprivacy.criteria.SkylinePolicy`, first) and its ``[criteria]`` section::

        [default]
        skyline = [[1, 5, 1, 0.9]]

        [criteria]
        k = 5
        l-diversity = "distinct:3"      # entropy:L, recursive:C,L; or a list of them
        t-closeness = "equal:0.2"       # ordered:T

    The keys and values are :func:`skyprivacy.certificate.parse_criterion`'s; a release must
    satisfy every criterion.

    Raises
    ------
    InputError
        The file cannot be read, is not TOML, or holds a bad skyline or criterion (the
        message names the key and the value), or neither.
    """
    policy, criteria = _policy_file(path)
    return ([] if policy is None else [SkylinePolicy(policy)]) + criteria


def read_hierarchy(source: str, *, column: str, sep: str = ";") -> Hierarchy:
    """A hierarchy for a column from an ARX CSV file or a bundled reference.

    Parameters
    ----------
    source : str
        A path to an ARX CSV file, ``bundled:adult:ATTRIBUTE`` or ``bundled:adult`` (the Adult
        hierarchy of the attribute named like ``column``).
    column : str
        The quasi-identifier it generalizes (also the hierarchy's name).
    sep : str, default ';'
        Field separator of the ARX file.

    Raises
    ------
    InputError
        Unreadable file or unknown bundled reference.
    HierarchyError
        A malformed hierarchy file (the message names the file and the line).

    Examples
    --------
    >>> read_hierarchy("bundled:adult", column="sex").generalize(["Male"], 1)
    ['*']
    """
    source = str(source)
    if source.startswith("bundled:"):
        parts = source.split(":")
        if len(parts) not in (2, 3) or not all(parts[1:]):
            raise InputError(f"Hierarchy reference {source!r} for column {column!r} must be "
                             f"'bundled:adult' or 'bundled:adult:ATTRIBUTE'.")
        dataset = parts[1]
        attribute = parts[2] if len(parts) == 3 else column
        try:
            return bundled(dataset, attribute)
        except InvalidParameterError as exc:
            raise InputError(f"Unknown bundled hierarchy {source!r} for column {column!r}: "
                             f"{exc}") from None
    check(column, NAME, name="column", owner="read_hierarchy")
    check(sep, SEP, name="sep", owner="read_hierarchy")
    text = _read_text(source, "Hierarchy file", "hierarchy file", newline="")
    try:
        return parse_arx(text, name=column, sep=sep)
    except HierarchyError as exc:
        raise HierarchyError(f"Hierarchy file {_name(source)} for column {column!r}: "
                             f"{exc}") from None


@validate_params({"path": _PATH, "name": NAME, "sep": SEP})
def read_arx(path, *, name=None, sep=";") -> Hierarchy:
    """Read an ARX hierarchy file (UTF-8, a byte-order mark allowed).

    Parameters
    ----------
    path : str or os.PathLike
        The file.  A ``str`` is always a path (:func:`~skyprivacy.hierarchy.parse_arx`
        takes text).
    name : str, optional
        Name of the attribute.
    sep : str, default ``";"``
        Field separator.

    Returns
    -------
    Hierarchy

    Raises
    ------
    OSError
        If the file cannot be read (``FileNotFoundError``, ``IsADirectoryError``, ...).
    UnicodeDecodeError
        If the file is not UTF-8 text.
    HierarchyError, InvalidParameterError
        As for :func:`~skyprivacy.hierarchy.parse_arx` (rows cited by line number).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "sex.csv")
    >>> with open(path, "w") as stream:
    ...     _ = stream.write("Male;*\\nFemale;*\\n")
    >>> read_arx(path, name="sex").leaves
    ('Male', 'Female')
    """
    with open(path, encoding="utf-8-sig", newline="") as stream:
        text = stream.read()
    return parse_arx(text, name=name, sep=sep)


@validate_params({"hierarchy": InstanceOf(Hierarchy, name="a Hierarchy"), "path": _PATH,
                  "sep": SEP})
def write_arx(hierarchy, path, *, sep=";") -> None:
    """Write a hierarchy as an ARX file, atomically.

    Parameters
    ----------
    hierarchy : Hierarchy
    path : str or os.PathLike
        The file to write; an existing file is replaced only once the new one is complete.
    sep : str, default ``";"``
        Field separator.

    Raises
    ------
    InputError
        If the file cannot be written (a missing folder, a directory in its place, a full
        disk); nothing is left behind.

    Examples
    --------
    >>> import os, tempfile
    >>> from skyprivacy.hierarchy import masking
    >>> path = os.path.join(tempfile.mkdtemp(), "zip.csv")
    >>> write_arx(masking(["47906", "47920"], name="zip"), path)
    >>> read_arx(path, name="zip") == masking(["47906", "47920"], name="zip")
    True
    """
    write_text(generate_arx(hierarchy, sep=sep), path)


def read_certificate(path) -> dict:
    """Parse a certificate JSON file (its layout is checked by
    :func:`skyprivacy.certificate.verify_certificate`).

    Raises
    ------
    InputError
        The file cannot be read or is not a JSON object, or a key occurs twice in one of its
        objects (:func:`skyprivacy.certificate.unique_keys`).
    """
    where = _name(path)
    data = _load_document(path, "Certificate", "certificate", "JSON",
                          lambda text: json.loads(text, object_pairs_hook=unique_keys),
                          (json.JSONDecodeError, InvalidParameterError))
    if not isinstance(data, dict):
        raise InputError(f"Certificate {where} is not a JSON object.")
    return data


def read_bytes(path, *, noun: str = "file") -> bytes:
    """The bytes of a small input file (such as a set-label file), read once (``-`` is
    standard input); every failure is one :class:`InputError` line naming the file.

    Examples
    --------
    >>> read_bytes("no-such-file.json", noun="set-label file")
    Traceback (most recent call last):
    ...
    skyprivacy.io.InputError: Cannot read set-label file 'no-such-file.json': No such file ...
    """
    source = _open_source(path, noun)
    try:
        return _all_bytes(source)
    except OSError as exc:
        raise InputError(f"Cannot read {noun} {_where(path)}: {_reason(exc)}.") from None


# ----------------------------------------------------------------------------------- writing
def table_bytes(table: pd.DataFrame, format: str = "csv") -> bytes:
    """The bytes of a table file: the canonical CSV (so ``sha256sum`` of the file equals the
    certificate's table hash) or Parquet without the index.

    Examples
    --------
    >>> table_bytes(pd.DataFrame({"age": [39]}))
    b'age\\n39\\n'
    """
    if format == "parquet":
        _require_pyarrow("Writing")
        buffer = _io.BytesIO()
        table.to_parquet(buffer, index=False)
        return buffer.getvalue()
    found = formula_cells(table)
    if found:
        column, count, example = found[0]
        others = sum(n for _, n, _ in found[1:])
        warn(f"{count + others:,} cell(s) of the CSV output start like a spreadsheet formula "
             f"(first: {example[:40]!r} in column {column!r}"
             + (f", and {others:,} in {len(found) - 1} other column(s)" if others else "")
             + "); they are published as they are, and a spreadsheet that opens the file may "
               "run them: open it as text, import the columns as text, or pass "
               "--escape-formulas to publish them as text.",
             SkyPrivacyWarning)
    return canonical_csv(table).encode("utf-8")


#: First characters that make a spreadsheet read a cell as a formula (OWASP, "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def formula_cells(table: pd.DataFrame) -> list[tuple]:
    """``(column, cells, first cell)`` of every column holding text a spreadsheet would run as
    a formula: a cell starting with ``=``, ``@``, a tab or a carriage return, or with ``+`` or
    ``-`` when it is not a number (``-2`` and ``+3.5`` are numbers, ``-2+3+cmd|...`` is not;
    a lone ``-`` is a placeholder).

    Examples
    --------
    >>> formula_cells(pd.DataFrame({"a": ["=HYPERLINK(1)", "-2", "x"], "b": [1, 2, 3]}))
    [('a', 1, '=HYPERLINK(1)')]
    """
    out = []
    for column in table.columns:
        risky = _formula_mask(table[column])
        if risky is not None and risky.any():
            text = table[column][risky]
            out.append((column, int(risky.sum()), str(text.iloc[0])))
    return out


def _formula_mask(cells: pd.Series) -> pd.Series | None:
    """Which cells of a column a spreadsheet would run as a formula (None: a column of
    numbers, written as numbers)."""
    if cells.dtype.kind in "iufb":
        return None
    is_text = cells.map(lambda v: isinstance(v, str)).astype(bool)
    if not is_text.any():
        return None
    text = cells.where(is_text, "").astype(str)
    risky = is_text & text.str.startswith(FORMULA_STARTS)
    signed = risky & text.str.startswith(("+", "-"))
    risky &= ~(signed & (text.str.len() == 1))  # a lone dash is a placeholder, not code
    if signed.any():
        risky &= ~(signed & pd.to_numeric(text.where(signed), errors="coerce").notna())
    return risky


#: What ``escape_formulas`` puts before a formula-like cell: a spreadsheet shows a cell that
#: starts with an apostrophe as text, without the apostrophe (OWASP, "CSV injection").
FORMULA_ESCAPE = "'"


def escape_formulas(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with every cell a spreadsheet would run as a formula (:func:`formula_cells`)
    prefixed by an apostrophe, which spreadsheets read as "this cell is text": the opt-in
    escape of ``--escape-formulas``, applied to the input before anything is analysed, so the
    certificate certifies the escaped cells that are published.  A new frame (the caller's is
    unchanged); ``table`` itself when no cell needs it.  A partitioned (dask) frame is escaped
    partition by partition.

    Examples
    --------
    >>> escape_formulas(pd.DataFrame({"a": ["=HYPERLINK(1)", "-2", "x"]}))["a"].tolist()
    ["'=HYPERLINK(1)", '-2', 'x']
    """
    if not isinstance(table, pd.DataFrame):  # a dask frame
        return table.map_partitions(escape_formulas)
    out = None
    for column in table.columns:
        risky = _formula_mask(table[column])
        if risky is None or not risky.any():
            continue
        if out is None:
            out = table.copy()
        cells = table[column].to_numpy(dtype=object, copy=True)
        mask = risky.to_numpy(dtype=bool)
        cells[mask] = [FORMULA_ESCAPE + cell for cell in cells[mask]]
        out[column] = pd.Series(cells, index=table.index, dtype=object)
    return table if out is None else out


def json_bytes(data: Mapping) -> bytes:
    """Indented UTF-8 JSON with a final newline (non-ASCII kept readable)."""
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


class OutputFiles:
    """Stage several output files and put them in place together.

    Each :meth:`add` writes a temporary file next to its target; :meth:`commit` renames them
    all (``os.replace``, atomic per file); leaving the ``with`` block by an exception removes
    the temporary files, so a failed run leaves no output at all.

    Examples
    --------
    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> with OutputFiles() as out:
    ...     out.add(os.path.join(folder, "a.txt"), b"one")
    ...     out.add(os.path.join(folder, "b.txt"), b"two")
    ...     written = out.commit()
    >>> sorted(os.listdir(folder))
    ['a.txt', 'b.txt']
    """

    _committed: list = []  # every target put in place in this process, in order
    #: Whether :meth:`commit` may replace an existing target; the command line turns it off
    #: without ``--force`` (:meth:`replacing`), so the check holds at the rename itself.
    _replace = True

    def __init__(self) -> None:
        self._staged: list[tuple[str, str]] = []
        self._targets: set[str] = set()

    @classmethod
    @contextlib.contextmanager
    def replacing(cls, allowed: bool):
        """Within the block, :meth:`commit` replaces an existing target only if ``allowed``:
        without it a target that appeared since the run started (a concurrent run's output)
        is an :class:`InputError` and stays untouched."""
        before, cls._replace = cls._replace, allowed
        try:
            yield
        finally:
            cls._replace = before

    @classmethod
    def mark(cls) -> int:
        """A position in the record of committed outputs (see :meth:`committed_since`)."""
        return len(cls._committed)

    @classmethod
    def committed_since(cls, mark: int) -> list:
        """The outputs put in place since ``mark`` (complete files: each was renamed whole)."""
        return list(cls._committed[mark:])

    @staticmethod
    def check(path) -> None:
        """Raise :class:`InputError` early if ``path`` cannot be written (missing folder...)."""
        path = os.fspath(path)
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            raise InputError(f"Cannot write {_name(path)}: it is a directory.")
        OutputFiles._check_folder(path, folder)
        _stale_temporaries(path, folder)
        # os.access says yes to root, and knows nothing of read-only mounts: try it
        try:
            handle, probe = tempfile.mkstemp(prefix=_temporary_prefix(path), suffix=".tmp",
                                             dir=folder)
        except OSError as exc:
            raise InputError(f"Cannot write {_name(path)}: the folder {_name(folder)} is not "
                             f"writable ({_reason(exc)}).") from None
        os.close(handle)
        _remove(probe)

    @staticmethod
    def _check_folder(path: str, folder: str) -> None:
        """Raise :class:`InputError` if the folder of ``path`` is missing or not writable."""
        if not os.path.isdir(folder):
            raise InputError(f"Cannot write {_name(path)}: the folder {_name(folder)} does not "
                             f"exist.")
        if not os.access(folder, os.W_OK):
            raise InputError(f"Cannot write {_name(path)}: the folder {_name(folder)} is not "
                             f"writable.")

    def _claim(self, path) -> tuple[str, str]:
        """(path, absolute path) of a new output: no two outputs may name one file."""
        path = os.fspath(path)
        key = os.path.abspath(path)
        if key in self._targets:
            raise InvalidParameterError(f"Two outputs name the same file {_name(path)}.")
        return path, key

    def _stage(self, temporary: str, path: str, key: str, fill) -> None:
        """Stage ``temporary`` for ``path`` once ``fill()`` has written it; if that fails,
        ``temporary`` is removed (an OSError, such as a full disk, becomes an InputError
        naming the output)."""
        try:
            fill()
        except OSError as exc:
            _remove(temporary)
            raise InputError(f"Cannot write {_name(path)}: {_reason(exc)}.") from None
        except BaseException:
            _remove(temporary)
            raise
        self._staged.append((temporary, path))
        self._targets.add(key)

    def add(self, path, data: bytes | str) -> None:
        """Write ``data`` to a temporary file next to ``path``."""
        path, key = self._claim(path)
        self.check(path)
        payload = data.encode("utf-8") if isinstance(data, str) else data
        try:
            handle, temporary = tempfile.mkstemp(prefix=_temporary_prefix(path),
                                                 suffix=".tmp", dir=os.path.dirname(key))
        except OSError as exc:
            raise InputError(f"Cannot write {_name(path)}: {_reason(exc)}.") from None

        def fill() -> None:
            with os.fdopen(handle, "wb") as stream:
                stream.write(payload)
            os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes 0600 files

        self._stage(temporary, path, key, fill)

    def add_directory(self, path, write) -> None:
        """Stage a directory (a Parquet dataset): ``write(folder)`` fills a temporary folder
        next to ``path`` that :meth:`commit` renames onto ``path``, replacing a directory
        already there; a failure leaves nothing behind."""
        path, key = self._claim(path)
        folder = os.path.dirname(key)
        self._check_folder(path, folder)
        if os.path.lexists(path) and not os.path.isdir(path):
            raise InputError(f"Cannot write {_name(path)}: it exists and is not a directory.")
        temporary = tempfile.mkdtemp(prefix=_temporary_prefix(key), suffix=".tmp",
                                     dir=folder)

        def fill() -> None:
            os.chmod(temporary, 0o777 & ~_umask())  # mkdtemp makes 0700 folders
            write(temporary)

        self._stage(temporary, path, key, fill)

    def commit(self) -> list[str]:
        """Rename every staged file onto its target; returns the targets."""
        done = []
        try:
            for temporary, path in self._staged:
                if os.path.isdir(temporary) and os.path.isdir(path) and OutputFiles._replace:
                    # a directory cannot be renamed over a non-empty one: swap, then delete
                    aside = tempfile.mkdtemp(prefix=_temporary_prefix(path), suffix=".old",
                                             dir=os.path.dirname(os.path.abspath(path)))
                    os.replace(path, os.path.join(aside, "old"))
                    os.replace(temporary, path)
                    _remove(aside)
                elif OutputFiles._replace:
                    os.replace(temporary, path)
                else:
                    _put_without_replacing(temporary, path)
                done.append(path)
                OutputFiles._committed.append(path)
        except OSError as exc:
            raise InputError(f"Cannot write {_name(path)}: {_reason(exc)}.") from None
        finally:
            self._staged = [(t, p) for t, p in self._staged if p not in done]
            self.discard()
        return done

    def discard(self) -> None:
        """Remove every staged temporary file."""
        for temporary, _ in self._staged:
            _remove(temporary)
        self._staged = []

    def __enter__(self) -> OutputFiles:
        return self

    def __exit__(self, *exc_info) -> None:
        self.discard()


def _temporary_prefix(path) -> str:
    """``.NAME.PID.``: a staged output's temporary name says which process writes it, so a
    later run can tell a killed run's leftovers from a live run's files."""
    return f".{os.path.basename(os.fspath(path))}.{os.getpid()}."


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process, or no permission to ask: assume it lives
        return True
    return True


_REPORTED: set = set()


def _stale_temporaries(path: str, folder: str) -> None:
    """Remove the temporary files an earlier, killed run left for ``path`` (their process is
    gone), with a warning naming them; leftovers without a process id (written by an older
    skyprivacy) are named but kept, as a live run may own them."""
    base = os.path.basename(path)
    pattern = re.compile(re.escape(f".{base}.") + r"(?:(\d+)\.)?[^/]*\.(?:tmp|old)$")
    try:
        names = os.listdir(folder)
    except OSError:
        return
    removed, kept = [], []
    for name in sorted(names):
        match = pattern.fullmatch(name)
        if match is None:
            continue
        pid = match.group(1)
        if pid is not None and int(pid) != os.getpid() and not _alive(int(pid)):
            _remove(os.path.join(folder, name))
            removed.append(name)
        elif pid is None and (folder, name) not in _REPORTED:
            _REPORTED.add((folder, name))  # an output is checked twice: name it once
            kept.append(name)
    if removed:
        warn(f"Removed {len(removed)} temporary file(s) that an interrupted run left for "
             f"{_name(path)}: {_show(removed)}.", SkyPrivacyWarning)
    if kept:
        warn(f"{len(kept)} temporary file(s) for {_name(path)} may be left by an interrupted "
             f"run: {_show(kept)}; remove them if no other run is writing there.",
             SkyPrivacyWarning)


def _put_without_replacing(temporary: str, path: str) -> None:
    """Move ``temporary`` onto ``path`` only if nothing is there, atomically: a hard link
    fails on an existing name (a file), a rename fails onto a non-empty directory."""
    if os.path.isdir(temporary):
        if os.path.lexists(path):
            raise FileExistsError(17, "it appeared while this run was working (pass --force "
                                      "to replace it)")
        os.rename(temporary, path)
        return
    try:
        os.link(temporary, path)
    except FileExistsError:
        raise FileExistsError(17, "it appeared while this run was working (pass --force to "
                                  "replace it)") from None
    except OSError:  # a file system without hard links: the check and the rename, close
        if os.path.lexists(path):
            raise FileExistsError(17, "it appeared while this run was working (pass --force "
                                      "to replace it)") from None
        os.replace(temporary, path)
        return
    _remove(temporary)


def _remove(path: str) -> None:
    if os.path.isdir(path) and not os.path.islink(path):
        import shutil

        shutil.rmtree(path, ignore_errors=True)
        return
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def write_table(table: pd.DataFrame, path, *, format: str | None = None) -> None:
    """Write a table atomically (CSV as :func:`table_bytes`, or Parquet)."""
    with OutputFiles() as out:
        out.add(path, table_bytes(table, table_format(path, format)))
        out.commit()


def write_text(text: str | bytes, path) -> None:
    """Write a text (or bytes) file atomically."""
    with OutputFiles() as out:
        out.add(path, text)
        out.commit()


# ------------------------------------------------------------------ partitioned tables (dask)
def read_table_dask(path, *, format: str | None = None, sep: str | None = None,
                    encoding: str | None = None, one_partition_per_file: bool = False):
    """Read a table as a dask frame of text (``pip install 'skyprivacy[dask]'``).

    ``path`` is a Parquet dataset directory (its ``.parquet``/``.pq`` files, in the order of
    their names), a single file, or a glob of CSV or Parquet files (matches in the order of
    their names).  Parquet files are read one partition per file; CSV files in blocks, or one
    partition per file with ``one_partition_per_file`` (what ``verify`` of a partitioned
    certificate needs).  Cells are the text their CSV holds, as in :func:`read_table`.

    Raises
    ------
    InputError
        No file matches, a directory without Parquet files, a bad CSV header, Parquet without
        pyarrow, or files of both formats.
    """
    from ._core.optional import require_dask

    require_dask("Reading a table with --engine dask")
    import glob

    from .dask_engine.io import read_csv_files, read_parquet_files

    where = _name(path)
    path = os.fspath(path)
    if sep is not None and (not isinstance(sep, str) or len(sep) != 1 or sep in "\r\n\"'"):
        raise InvalidParameterError(f"The 'sep' parameter of read_table must be one character "
                                    f"other than a quote or a line break. Got {sep!r} instead.")
    encoding = text_encoding(encoding)
    if os.path.isdir(path):
        files = sorted(os.path.join(path, f) for f in os.listdir(path)
                       if f.lower().endswith(_PARQUET_SUFFIXES) and not f.startswith((".", "_")))
        if not files:
            raise InputError(f"Cannot read table {where}: the directory holds no Parquet "
                             f"files (.parquet or .pq).")
        kind = "parquet"
    else:
        files = sorted(glob.glob(path)) if glob.has_magic(path) else [path]
        files = [f for f in files if not os.path.isdir(f)]
        if not files:
            raise InputError(f"Cannot read table {where}: no file matches.")
        for file in files:
            _open_source(file, "table")
        kinds = {table_format(f, format) if format or not _is_parquet(f) else "parquet"
                 for f in files}
        if len(kinds) > 1:
            raise InputError(f"Table {where} matches both CSV and Parquet files; give one "
                             f"format.")
        kind = kinds.pop()
    if kind == "parquet":
        _require_pyarrow("Reading")
        _parquet_columns(files, where)
        # the workers of a --scheduler cluster run elsewhere: they get absolute paths
        return read_parquet_files([os.path.abspath(f) for f in files], read_parquet_part)
    codecs_of = {_dask_codec(file, encoding) for file in files}
    if len(codecs_of) > 1:
        raise InputError(f"Table {where} matches CSV files of different encodings "
                         f"({sorted(codecs_of)}); convert them to one.")
    codec = codecs_of.pop()
    for file in files:
        try:
            header = _csv_header(file, sep or ",", codec)
        except UnicodeDecodeError:
            raise _opening_not_text(file, codec, encoding is not None) from None
        _check_csv_header(header, _name(file), sep or ",")
    # a block boundary is found by its line-break byte, which only ASCII-based text has
    whole = one_partition_per_file or codec not in ("utf-8-sig",) + _ASCII_BASED
    return read_csv_files([os.path.abspath(f) for f in files], sep or ",", whole,
                          encoding=codec)


def _opening_not_text(file: str, codec: str, given: bool) -> InputError:
    """The error of a CSV part whose opening bytes (what the header check decodes) are not
    ``codec`` text, naming the byte, its line and its place in the line."""
    with open(file, "rb") as stream:
        data = stream.read(1 << 20)
    name = "utf-8" if codec == "utf-8-sig" else codec
    skip = len(codecs.BOM_UTF8) if name == "utf-8" and data.startswith(codecs.BOM_UTF8) else 0
    try:
        data[skip:].decode(name)
    except UnicodeDecodeError as exc:
        if exc.reason != "unexpected end of data":  # not a character cut by the 1 MiB read
            return _not_text(data, _name(file), name, skip, exc, given)
    return InputError(f"Table {_name(file)} is not {name} text; pass its --encoding.")


#: Encodings whose line break is the byte 0x0A alone (a CSV file may be cut into blocks there).
_ASCII_BASED = ("cp1252", "iso8859-1", "iso8859-15", "ascii", "utf-8")
#: Bytes read at a time when a partitioned table's CSV files are searched for a bad byte.
_SCAN_BYTES = 1 << 22


def undecodable_csv(path, encoding: str | None = None) -> InputError | None:
    """The error of the first CSV file of a partitioned table (``path``: a file or a glob, as
    :func:`read_table_dask` takes it) holding a byte its codec cannot decode: the file, the
    byte, its line and its byte within that line, as :func:`read_table` says of one file;
    None when every file decodes.

    The workers decode the files in blocks that know neither their file nor their first
    line, so a decoding error is located here, after it happened, by reading the files again
    (ASCII-based codecs a few MiB at a time, cut at line breaks).

    Examples
    --------
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> for i, text in enumerate([b"a\\n1\\n", b"a\\n2\\n\\xe9\\n"]):
    ...     _ = open(os.path.join(folder, f"part{i}.csv"), "wb").write(text)
    >>> where, what = str(undecodable_csv(os.path.join(folder, "*.csv"))).split(": ", 1)
    >>> where.endswith("part1.csv' is not UTF-8 text"), what[:28]
    (True, 'byte 0xe9 at line 3, byte 1;')
    """
    import glob

    path = os.fspath(path)
    files = sorted(glob.glob(path)) if glob.has_magic(path) else [path]
    encoding = text_encoding(encoding)
    for file in files:
        if os.path.isdir(file) or _is_parquet(file):
            continue
        error = _file_not_text(file, _dask_codec(file, encoding), encoding is not None)
        if error is not None:
            return error
    return None


def _file_not_text(file: str, codec: str, given: bool) -> InputError | None:
    """:func:`_not_text` of one CSV file read with ``codec`` (None when it decodes)."""
    name = "utf-8" if codec == "utf-8-sig" else codec
    if name not in _ASCII_BASED:  # UTF-16/32: read whole, as the workers read it
        with open(file, "rb") as stream:
            data = stream.read()
        mark = _bom(data[:4])
        codec, skip = mark if mark is not None and mark[0].startswith(name) else (name, 0)
        try:
            data[skip:].decode(codec)
        except UnicodeDecodeError as exc:
            return _not_text(data, _name(file), codec, skip, exc, given)
        return None
    lines, carry = 0, b""
    with open(file, "rb") as stream:
        head = stream.read(len(codecs.BOM_UTF8))
        if not (name == "utf-8" and head == codecs.BOM_UTF8):
            carry = head
        while True:
            chunk = stream.read(_SCAN_BYTES)
            data = carry + chunk
            cut = data.rfind(b"\n") + 1 if chunk else len(data)  # whole lines, then the rest
            piece, carry = data[:cut], data[cut:]
            try:
                piece.decode(name)
            except UnicodeDecodeError as exc:
                return _not_text(piece, _name(file), name, 0, exc, given, lines)
            lines += piece.count(b"\n")
            if not chunk:
                return None


def _dask_codec(file: str, encoding: str | None) -> str:
    """The codec a CSV file of a partitioned table is read with: ``encoding`` (a byte-order
    mark of the same family is skipped), else UTF-8 or its byte-order mark's."""
    mark = _bom(_head(file, 4))
    if encoding is None:
        if mark is None or mark[0] == "utf-8":
            return "utf-8-sig"
        return mark[0][:6]  # utf-16 / utf-32: the codec reads the mark and its byte order
    return "utf-8-sig" if encoding == "utf-8" else encoding


def _is_parquet(path) -> bool:
    try:
        return _head(os.fspath(path), 4) == b"PAR1"
    except OSError:
        return False


def write_parquet_dataset(table, folder: str) -> None:
    """Write a dask table into the existing ``folder`` as a Parquet dataset: one file per
    partition, ``part.00000.parquet``, ``part.00001.parquet``... (the names sort in partition
    order, so :func:`read_table_dask` reads the same partitions back); object columns are
    stored as the text of their canonical CSV."""
    from .dask_engine.io import write_parquet_files

    _require_pyarrow("Writing")
    write_parquet_files(table, folder)


def write_dataset(table, path) -> None:
    """Write a dask table as the Parquet dataset directory ``path``, atomically: staged in a
    temporary directory beside it and renamed into place (replacing a directory there)."""
    with OutputFiles() as out:
        out.add_directory(path, lambda folder: write_parquet_dataset(table, folder))
        out.commit()
