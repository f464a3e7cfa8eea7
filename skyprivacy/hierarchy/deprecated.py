"""What the deprecation warnings of :mod:`skyprivacy.hierarchy_io` say.

The six classmethods ``Hierarchy.from_levels``, ``.from_mapping``, ``.intervals``,
``.masking``, ``.dates`` and ``.bundled`` are gone (use the functions of
:mod:`skyprivacy.hierarchy`).  ``Hierarchy.from_arx`` and ``Hierarchy.to_arx`` live in the edge
module :mod:`skyprivacy.hierarchy_io`, which still imports :func:`moved` from here; this module
goes with them.
"""

from __future__ import annotations

from .._core.deprecation import NEXT_RELEASE
from .._core.warning import warn

__all__ = ["FILE_FUNCTIONS", "moved"]

#: Where the ARX file functions live (named by the warnings).
FILE_FUNCTIONS = "skyprivacy.hierarchy_io"


def moved(old: str, new: str) -> None:
    """Warn that ``Hierarchy.<old>`` is deprecated, naming its successor."""
    warn(f"Hierarchy.{old} is deprecated and stops working in {NEXT_RELEASE}; "
         f"{new} instead.", FutureWarning)
