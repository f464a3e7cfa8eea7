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

  A threshold ``c`` may also be a fraction written as a string, ``"2/3"``.
* Hierarchies are ARX CSV files (``leaf;level 1;...;*``) or references to the bundled ones:
  ``bundled:adult:ATTRIBUTE``, or ``bundled:adult`` for the Adult attribute of the column's
  own name.
* Every output file is written atomically: to a temporary file in the target directory, then
  renamed over the target (:class:`OutputFiles` stages several files and renames them only when
  all are written), so a failed run leaves no partial file.
"""

from __future__ import annotations

import csv
import io as _io
import json
import os
import sys
import tempfile
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from .certificate import canonical_csv, policy_from_json, text_table
from .errors import HierarchyError, InvalidParameterError, SchemaError, SkyPrivacyError
from .hierarchy import Hierarchy
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
    "read_hierarchy",
    "read_certificate",
    "table_bytes",
    "json_bytes",
    "OutputFiles",
    "write_table",
    "write_text",
]

#: Cell texts read as missing in addition to the empty cell (the markers pandas.read_csv uses).
NA_MARKERS = ("#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND",
              "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null")
TABLE_FORMATS = ("csv", "parquet")
_PARQUET_SUFFIXES = (".parquet", ".pq")
_SHOW = 10  # how many values an error message lists before "..."


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


def _csv_header(path) -> list[str]:
    with open(path, encoding="utf-8-sig", newline="") as stream:
        try:
            return next(csv.reader(stream))
        except StopIteration:
            return []


def read_table(path, *, format: str | None = None) -> pd.DataFrame:
    """Read a table as text: every cell the ``str`` written in the file.

    Parameters
    ----------
    path : str or os.PathLike
    format : {'csv', 'parquet'}, optional
        Default: from the file name (:func:`table_format`).

    Returns
    -------
    pandas.DataFrame
        Object columns of ``str``; missing cells are ``''`` (CSV) or the empty text of
        the Parquet null; a RangeIndex.

    Raises
    ------
    InputError
        The file does not exist or cannot be read, is not UTF-8, is not valid CSV, has no
        header or repeats a column name; Parquet without pyarrow.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "t.csv")
    >>> _ = open(path, "w").write("age,job\\n39,NA\\n")
    >>> read_table(path).iloc[0].tolist()
    ['39', 'NA']
    """
    fmt = table_format(path, format)
    where = _name(path)
    try:
        if fmt == "parquet":
            _require_pyarrow("Reading")
            try:
                frame = pd.read_parquet(path)
            except (OSError, ValueError) as exc:
                if isinstance(exc, OSError) and not os.path.exists(path):
                    raise
                raise InputError(f"Table {where} is not a readable Parquet file: "
                                 f"{str(exc).splitlines()[0] if str(exc) else exc!r}.") from None
            return text_table(frame.reset_index(drop=True))
        header = _csv_header(path)
        if not header:
            raise InputError(f"Table {where} is empty: a CSV table needs a header line.")
        duplicated = sorted({c for c in header if header.count(c) > 1})
        if duplicated:
            raise InputError(f"Table {where} repeats the column name(s) {duplicated}; column "
                             f"names must be distinct.")
        with warnings.catch_warnings():
            # a data row longer than the header would silently become an index: refuse it
            warnings.simplefilter("error", pd.errors.ParserWarning)
            frame = pd.read_csv(path, dtype=object, keep_default_na=False, na_filter=False,
                                encoding="utf-8-sig", index_col=False)
    except InputError:
        raise
    except pd.errors.ParserWarning:
        raise InputError(f"Table {where} is not valid CSV: a data row has more fields than "
                         f"the header.") from None
    except UnicodeDecodeError:
        raise InputError(f"Table {where} is not UTF-8 text; save it as UTF-8 CSV.") from None
    except pd.errors.EmptyDataError:
        raise InputError(f"Table {where} is empty: a CSV table needs a header line.") from None
    except pd.errors.ParserError as exc:
        message = " ".join(str(exc).split())
        raise InputError(f"Table {where} is not valid CSV: {message}.") from None
    except IsADirectoryError:
        raise InputError(f"Cannot read table {where}: it is a directory.") from None
    except OSError as exc:
        raise InputError(f"Cannot read table {where}: {_reason(exc)}.") from None
    # short rows leave NaN even without NA filtering; they are missing cells
    return frame.where(frame.notna(), "")


def require_columns(frame: pd.DataFrame, columns: Iterable[str]) -> None:
    """Raise the library's :class:`SchemaError` for the first column the table lacks.

    Examples
    --------
    >>> require_columns(pd.DataFrame({"age": [1]}), ["zip"])
    Traceback (most recent call last):
    ...
    skyprivacy.errors.SchemaError: Column 'zip' is not in the table; columns are ['age'].
    """
    for column in columns:
        if column not in frame.columns:
            raise SchemaError(f"Column {column!r} is not in the table; columns are "
                              f"{list(map(str, frame.columns))}.")


def missing_mask(column: pd.Series, na_values: Iterable[str] = NA_MARKERS) -> pd.Series:
    """True where a text cell is missing: empty (after stripping spaces), NaN, or a marker."""
    markers = set(na_values)
    return column.map(lambda v: not isinstance(v, str) or v.strip() == "" or v in markers)


def reject_missing(frame: pd.DataFrame, columns: Iterable[str],
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
    for column in dict.fromkeys(columns):
        mask = missing_mask(frame[column], na_values).to_numpy(dtype=bool)
        if mask.any():
            first = int(np.flatnonzero(mask)[0])
            raise SchemaError(
                f"Column {column!r} has {int(mask.sum())} missing cell(s), the first on data row "
                f"{first + 1} ({frame[column].iloc[first]!r}); skyprivacy never drops rows "
                f"silently: fill or remove them (or change --na-values).")


def as_numbers(column: pd.Series) -> pd.Series | None:
    """The text column as numbers (int64 if every cell is an integer, else float64), or None
    when some cell does not read as a decimal number.

    Examples
    --------
    >>> as_numbers(pd.Series(["39", "50"])).tolist(), as_numbers(pd.Series(["39", "x"]))
    ([39, 50], None)
    """
    try:
        numbers = pd.to_numeric(column, errors="raise")
    except (ValueError, TypeError):
        return None
    if not pd.api.types.is_numeric_dtype(numbers) or pd.api.types.is_bool_dtype(numbers):
        return None
    if numbers.isna().any() or not np.isfinite(numbers.to_numpy(dtype=float)).all():
        return None
    return numbers


# ------------------------------------------------------------------------------ policy etc.
def _load_document(path, title: str, noun: str, syntax: str, load, decode_error):
    """Parse a UTF-8 text file with ``load``; every failure becomes one InputError line."""
    where = _name(path)
    try:
        with open(path, encoding="utf-8") as stream:
            return load(stream)
    except decode_error as exc:
        raise InputError(f"{title} {where} is not valid {syntax}: {exc}.") from None
    except UnicodeDecodeError:
        raise InputError(f"{title} {where} is not UTF-8 text.") from None
    except IsADirectoryError:
        raise InputError(f"Cannot read {noun} {where}: it is a directory.") from None
    except OSError as exc:
        raise InputError(f"Cannot read {noun} {where}: {_reason(exc)}.") from None


def read_policy(path) -> Policy:
    """Read a value-centric policy from a TOML file (shape in the module docstring).

    Raises
    ------
    InputError
        The file cannot be read, is not TOML, or does not describe a valid policy.
    """
    where = _name(path)
    data = _load_document(path, "Policy file", "policy file", "TOML",
                          lambda stream: tomllib.loads(stream.read()), tomllib.TOMLDecodeError)
    try:
        return policy_from_json(data)
    except (InvalidParameterError, TypeError) as exc:
        raise InputError(f"Policy file {where}: {exc}") from None


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
            return Hierarchy.bundled(dataset, attribute)
        except InvalidParameterError as exc:
            raise InputError(f"Unknown bundled hierarchy {source!r} for column {column!r}: "
                             f"{exc}") from None
    where = _name(source)
    try:
        return Hierarchy.from_arx(Path(source), name=column, sep=sep)
    except HierarchyError as exc:
        raise HierarchyError(f"Hierarchy file {where} for column {column!r}: {exc}") from None
    except UnicodeDecodeError:
        raise InputError(f"Hierarchy file {where} is not UTF-8 text.") from None
    except IsADirectoryError:
        raise InputError(f"Cannot read hierarchy file {where}: it is a directory.") from None
    except OSError as exc:
        raise InputError(f"Cannot read hierarchy file {where}: {_reason(exc)}.") from None


def read_certificate(path) -> dict:
    """Parse a certificate JSON file (its layout is checked by
    :func:`skyprivacy.certificate.verify_certificate`).

    Raises
    ------
    InputError
        The file cannot be read or is not a JSON object.
    """
    where = _name(path)
    data = _load_document(path, "Certificate", "certificate", "JSON", json.load,
                          json.JSONDecodeError)
    if not isinstance(data, dict):
        raise InputError(f"Certificate {where} is not a JSON object.")
    return data


# ----------------------------------------------------------------------------------- writing
def table_bytes(frame: pd.DataFrame, format: str = "csv") -> bytes:
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
        frame.to_parquet(buffer, index=False)
        return buffer.getvalue()
    return canonical_csv(frame).encode("utf-8")


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

    def __init__(self):
        self._staged: list[tuple[str, str]] = []
        self._targets: set[str] = set()

    @staticmethod
    def check(path) -> None:
        """Raise :class:`InputError` early if ``path`` cannot be written (missing folder...)."""
        path = os.fspath(path)
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            raise InputError(f"Cannot write {_name(path)}: it is a directory.")
        if not os.path.isdir(folder):
            raise InputError(f"Cannot write {_name(path)}: the folder {_name(folder)} does not "
                             f"exist.")
        if not os.access(folder, os.W_OK):
            raise InputError(f"Cannot write {_name(path)}: the folder {_name(folder)} is not "
                             f"writable.")

    def add(self, path, data: bytes | str) -> None:
        """Write ``data`` to a temporary file next to ``path``."""
        path = os.fspath(path)
        key = os.path.abspath(path)
        if key in self._targets:
            raise InvalidParameterError(f"Two outputs name the same file {_name(path)}.")
        self.check(path)
        if isinstance(data, str):
            data = data.encode("utf-8")
        folder = os.path.dirname(key)
        handle, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.",
                                             suffix=".tmp", dir=folder)
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
            os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes 0600 files
        except BaseException:
            _remove(temporary)
            raise
        self._staged.append((temporary, path))
        self._targets.add(key)

    def commit(self) -> list[str]:
        """Rename every staged file onto its target; returns the targets."""
        done = []
        try:
            for temporary, path in self._staged:
                os.replace(temporary, path)
                done.append(path)
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


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def write_table(frame: pd.DataFrame, path, *, format: str | None = None) -> None:
    """Write a table atomically (CSV as :func:`table_bytes`, or Parquet)."""
    with OutputFiles() as out:
        out.add(path, table_bytes(frame, table_format(path, format)))
        out.commit()


def write_text(text: str | bytes, path) -> None:
    """Write a text (or bytes) file atomically."""
    with OutputFiles() as out:
        out.add(path, text)
        out.commit()
