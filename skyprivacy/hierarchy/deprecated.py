"""The classmethods :class:`~skyprivacy.hierarchy.Hierarchy` had before its builders became
functions: each still works for one release, warns (FutureWarning) and names its successor.

=================================  ==========================================================
deprecated                         successor
=================================  ==========================================================
``Hierarchy.from_arx(source)``     :func:`~skyprivacy.hierarchy.parse_arx` (text),
                                   :func:`~skyprivacy.hierarchy_io.read_arx` (a file)
``Hierarchy.to_arx(path)``         :func:`~skyprivacy.hierarchy.generate_arx` (text),
                                   :func:`~skyprivacy.hierarchy_io.write_arx` (a file)
``Hierarchy.from_levels``          :func:`~skyprivacy.hierarchy.from_levels`
``Hierarchy.from_mapping``         :func:`~skyprivacy.hierarchy.from_mapping`
``Hierarchy.intervals``            :func:`~skyprivacy.hierarchy.intervals`
``Hierarchy.masking``              :func:`~skyprivacy.hierarchy.masking`
``Hierarchy.dates``                :func:`~skyprivacy.hierarchy.dates`
``Hierarchy.bundled``              :func:`~skyprivacy.hierarchy.bundled`
=================================  ==========================================================

A shim hands its arguments to the successor, so an error it raises names the successor (the
function the warning asks for).  Only ``from_arx`` and ``to_arx`` keep code of their own: the
guess whether a ``str`` is a path or CSV text, file-like objects, and the open file or path
argument; files are opened by the edge module :mod:`skyprivacy.hierarchy_io`.  This module
goes, with the mixin, in the release after next.
"""

from __future__ import annotations

import os
import warnings

import pandas as pd

from .._core.deprecation import NEXT_RELEASE
from .._core.validation import check
from ..errors import param_error

__all__ = ["DeprecatedConstructors", "FILE_FUNCTIONS"]

#: Where the ARX file functions live (named by the warnings).
FILE_FUNCTIONS = "skyprivacy.hierarchy_io"


def _moved(old: str, new: str) -> None:
    warnings.warn(f"Hierarchy.{old} is deprecated and stops working in {NEXT_RELEASE}; "
                  f"{new} instead.", FutureWarning, stacklevel=3)


class DeprecatedConstructors:
    """The old classmethods of :class:`~skyprivacy.hierarchy.Hierarchy` (a mixin)."""

    __slots__ = ()

    @classmethod
    def from_arx(cls, source, *, name=None, sep=";"):
        """Deprecated: :func:`~skyprivacy.hierarchy.parse_arx` for text,
        :func:`~skyprivacy.hierarchy_io.read_arx` for a file.

        ``source`` is a path (``str``, ``os.PathLike``, an ``importlib.resources``
        traversable), an open text or binary file, the CSV text, bytes, or a DataFrame.  A
        ``str`` is text if it contains a newline, or the separator and is not the name of
        an existing file; otherwise it is a path.
        """
        from ..hierarchy_io import read_arx
        from .arx import SEP, parse_arx
        from .builders import from_levels
        from .model import NAME

        _moved("from_arx", f"call skyprivacy.hierarchy.parse_arx(text) or "
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

    def to_arx(self, path_or_buffer=None, *, sep=";"):
        """Deprecated: :func:`~skyprivacy.hierarchy.generate_arx` for the text,
        :func:`~skyprivacy.hierarchy_io.write_arx` for a file.

        ``path_or_buffer`` is None (the text is returned), an open text file (the text is
        written to it) or a path (written atomically, as every output of skyprivacy).
        """
        from ..hierarchy_io import write_arx
        from .arx import generate_arx

        _moved("to_arx", f"call skyprivacy.hierarchy.generate_arx(hierarchy) or "
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

    @classmethod
    def from_levels(cls, levels, *, name=None):
        """Deprecated: :func:`skyprivacy.hierarchy.from_levels`."""
        from .builders import from_levels

        _moved("from_levels", "call skyprivacy.hierarchy.from_levels(levels)")
        return from_levels(levels, name=name)

    @classmethod
    def from_mapping(cls, mapping, *, name=None):
        """Deprecated: :func:`skyprivacy.hierarchy.from_mapping`."""
        from .builders import from_mapping

        _moved("from_mapping", "call skyprivacy.hierarchy.from_mapping(mapping)")
        return from_mapping(mapping, name=name)

    @classmethod
    def intervals(cls, values, widths, *, name=None, closed="left", origin=0):
        """Deprecated: :func:`skyprivacy.hierarchy.intervals`."""
        from .builders import intervals

        _moved("intervals", "call skyprivacy.hierarchy.intervals(values, widths)")
        return intervals(values, widths, name=name, closed=closed, origin=origin)

    @classmethod
    def masking(cls, codes, *, levels=None, mask_char="*", name=None):
        """Deprecated: :func:`skyprivacy.hierarchy.masking`."""
        from .builders import masking

        _moved("masking", "call skyprivacy.hierarchy.masking(codes)")
        return masking(codes, levels=levels, mask_char=mask_char, name=name)

    @classmethod
    def dates(cls, values, *, levels=("month", "year", "decade"), name=None):
        """Deprecated: :func:`skyprivacy.hierarchy.dates`."""
        from .builders import dates

        _moved("dates", "call skyprivacy.hierarchy.dates(values)")
        return dates(values, levels=levels, name=name)

    @classmethod
    def bundled(cls, dataset, attribute):
        """Deprecated: :func:`skyprivacy.hierarchy.bundled`."""
        from .shipped import bundled

        _moved("bundled", "call skyprivacy.hierarchy.bundled(dataset, attribute)")
        return bundled(dataset, attribute)
