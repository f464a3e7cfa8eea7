"""ARX hierarchy files: the thin file functions beside the pure text ones.

:func:`read_arx` opens a file and hands its text to :func:`skyprivacy.hierarchy.parse_arx`;
:func:`write_arx` writes :func:`skyprivacy.hierarchy.generate_arx` with the project's one
atomic writer (:func:`skyprivacy.io.write_text`: a temporary file renamed into place, the
usual file mode), so a failed write leaves no file at all.  This is the edge: the hierarchy
package itself never touches a file.  (Meant to join :mod:`skyprivacy.io`.)
"""

from __future__ import annotations

import os

from ._core.validation import InstanceOf, validate_params
from .hierarchy import Hierarchy, generate_arx, parse_arx
from .hierarchy.arx import SEP
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
