"""Warnings that point at the user's line: the first frame outside skyprivacy.

A warning's ``stacklevel`` counted by hand breaks as soon as a decorator (the parameter
validation) or a helper stands between the user and the function that
warns.  :func:`warn` counts the frames instead: it attributes the warning to the first caller
outside the skyprivacy package, so ``python -W error`` and the printed location name the
user's own call wherever the library decided to warn.
"""

from __future__ import annotations

import inspect
import os
import warnings
from types import FrameType

__all__ = ["warn", "external_stacklevel"]

_PACKAGE = os.path.normcase(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _in_package(filename: str) -> bool:
    """Whether ``filename`` lies inside the skyprivacy package directory, compared by path
    components: ``<parent>/skyprivacy_plugins/user.py`` shares the text of the package's
    path, not its directory."""
    path = os.path.normcase(os.path.abspath(filename))
    return path == _PACKAGE or path.startswith(os.path.join(_PACKAGE, ""))


def external_stacklevel() -> int:
    """The ``stacklevel`` that, passed by the caller of this function to
    :func:`warnings.warn`, names the first frame outside skyprivacy."""
    here = inspect.currentframe()  # None only on Pythons without frame support
    frame: FrameType | None = here.f_back if here else None  # it calls warnings.warn
    level = 1
    while frame is not None and _in_package(frame.f_code.co_filename):
        frame = frame.f_back
        level += 1
    return level


def warn(message: str, category: type[Warning]) -> None:
    """:func:`warnings.warn` attributed to the first frame outside skyprivacy."""
    warnings.warn(message, category, stacklevel=external_stacklevel())
