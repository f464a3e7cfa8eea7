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
function the warning asks for).  ``from_arx`` and ``to_arx`` touch files, so they live in the
edge module :mod:`skyprivacy.hierarchy_io`, which attaches them to the class (the model never
imports the edge); they keep the guess whether a ``str`` is a path or CSV text.  This module
goes, with the mixin, in the release after next.
"""

from __future__ import annotations


from .._core.deprecation import NEXT_RELEASE
from . import builders, shipped
from .model import Hierarchy
from .._core.warning import warn

__all__ = ["DeprecatedConstructors", "FILE_FUNCTIONS", "moved"]

#: Where the ARX file functions live (named by the warnings).
FILE_FUNCTIONS = "skyprivacy.hierarchy_io"


def moved(old: str, new: str) -> None:
    """Warn that ``Hierarchy.<old>`` is deprecated, naming its successor."""
    warn(f"Hierarchy.{old} is deprecated and stops working in {NEXT_RELEASE}; "
         f"{new} instead.", FutureWarning)


class DeprecatedConstructors:
    """The old classmethods of :class:`~skyprivacy.hierarchy.Hierarchy`, attached to it below
    (the model module does not know them, so it imports neither builders nor data)."""

    @classmethod
    def from_levels(cls, levels, *, name=None):
        """Deprecated: :func:`skyprivacy.hierarchy.from_levels`."""
        moved("from_levels", "call skyprivacy.hierarchy.from_levels(levels)")
        return builders.from_levels(levels, name=name)

    @classmethod
    def from_mapping(cls, mapping, *, name=None):
        """Deprecated: :func:`skyprivacy.hierarchy.from_mapping`."""
        moved("from_mapping", "call skyprivacy.hierarchy.from_mapping(mapping)")
        return builders.from_mapping(mapping, name=name)

    @classmethod
    def intervals(cls, values, widths, *, name=None, closed="left", origin=0):
        """Deprecated: :func:`skyprivacy.hierarchy.intervals`."""
        moved("intervals", "call skyprivacy.hierarchy.intervals(values, widths)")
        return builders.intervals(values, widths, name=name, closed=closed, origin=origin)

    @classmethod
    def masking(cls, codes, *, levels=None, mask_char="*", name=None):
        """Deprecated: :func:`skyprivacy.hierarchy.masking`."""
        moved("masking", "call skyprivacy.hierarchy.masking(codes)")
        return builders.masking(codes, levels=levels, mask_char=mask_char, name=name)

    @classmethod
    def dates(cls, values, *, levels=("month", "year", "decade"), name=None):
        """Deprecated: :func:`skyprivacy.hierarchy.dates`."""
        moved("dates", "call skyprivacy.hierarchy.dates(values)")
        return builders.dates(values, levels=levels, name=name)

    @classmethod
    def bundled(cls, dataset, attribute):
        """Deprecated: :func:`skyprivacy.hierarchy.bundled`."""
        moved("bundled", "call skyprivacy.hierarchy.bundled(dataset, attribute)")
        return shipped.bundled(dataset, attribute)


for _name in ("from_levels", "from_mapping", "intervals", "masking", "dates", "bundled"):
    setattr(Hierarchy, _name, DeprecatedConstructors.__dict__[_name])
del _name
