"""ARX hierarchy files: the thin file functions beside the pure text ones.

:func:`read_arx` opens a file and hands its text to :func:`skyprivacy.hierarchy.parse_arx`;
:func:`write_arx` writes :func:`skyprivacy.hierarchy.generate_arx` with the project's one
atomic writer (:func:`skyprivacy.io.write_text`: a temporary file renamed into place, the
usual file mode), so a failed write leaves no file at all.  This is the edge: the hierarchy
package itself never touches a file.  (Meant to join :mod:`skyprivacy.io`.)
"""

from __future__ import annotations

import os

import pandas as pd

from ._core.validation import InstanceOf, check, validate_params
from .errors import param_error
from .hierarchy import Hierarchy, from_levels, generate_arx, parse_arx
from .hierarchy.arx import SEP
from .hierarchy.deprecated import FILE_FUNCTIONS, moved
from .hierarchy.model import NAME
from .io import write_text

__all__ = ["read_arx", "write_arx"]

_PATH = InstanceOf(str, os.PathLike, name="a path (str or os.PathLike)")


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


# --------------------------------------------------------------------------- deprecated
# Hierarchy.from_arx and Hierarchy.to_arx (one release): they touch files, so they are
# defined at the edge and attached to the class here, not in the model.
def _from_arx(cls, source, *, name=None, sep=";"):
    """Deprecated: :func:`~skyprivacy.hierarchy.parse_arx` for text,
    :func:`~skyprivacy.hierarchy_io.read_arx` for a file.

    ``source`` is a path (``str``, ``os.PathLike``, an ``importlib.resources``
    traversable), an open text or binary file, the CSV text, bytes, or a DataFrame.  A
    ``str`` is text if it contains a newline, or the separator and is not the name of
    an existing file; otherwise it is a path.
    """
    moved("from_arx", f"call skyprivacy.hierarchy.parse_arx(text) or "
                       f"{FILE_FUNCTIONS}.read_arx(path)")
    owner = "Hierarchy.from_arx"
    check(name, NAME, name="name", owner=owner)
    check(sep, SEP, name="sep", owner=owner)
    if isinstance(source, pd.DataFrame):
        return from_levels(source, name=name)
    if isinstance(source, bytes):
        text = source.decode("utf-8-sig")
    elif isinstance(source, str) and ("\n" in source or "\r" in source or (
            sep in source and not os.path.isfile(source))):
        text = source
    elif isinstance(source, (str, os.PathLike)):
        return read_arx(source, name=name, sep=sep)
    elif hasattr(source, "read"):
        text = source.read()
        if isinstance(text, bytes):
            text = text.decode("utf-8-sig")
    elif hasattr(source, "read_text"):  # importlib.resources Traversable
        text = source.read_text(encoding="utf-8-sig")
    else:
        raise param_error("source", owner,
                          "be a path, a file-like object, CSV text or a DataFrame", source)
    return parse_arx(text, name=name, sep=sep)

def _to_arx(self, path_or_buffer=None, *, sep=";"):
    """Deprecated: :func:`~skyprivacy.hierarchy.generate_arx` for the text,
    :func:`~skyprivacy.hierarchy_io.write_arx` for a file.

    ``path_or_buffer`` is None (the text is returned), an open text file (the text is
    written to it) or a path (written atomically, as every output of skyprivacy).
    """
    moved("to_arx", f"call skyprivacy.hierarchy.generate_arx(hierarchy) or "
                     f"{FILE_FUNCTIONS}.write_arx(hierarchy, path)")
    if path_or_buffer is None:
        return generate_arx(self, sep=sep)
    if hasattr(path_or_buffer, "write"):
        path_or_buffer.write(generate_arx(self, sep=sep))
        return None
    if not isinstance(path_or_buffer, (str, os.PathLike)):
        raise param_error("path_or_buffer", "Hierarchy.to_arx",
                          "be a path, a text file-like object or None", path_or_buffer)
    write_arx(self, path_or_buffer, sep=sep)
    return None


Hierarchy.from_arx = classmethod(_from_arx)
Hierarchy.to_arx = _to_arx
