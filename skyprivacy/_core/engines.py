"""Engines by registration: which engine takes a call, decided by the type of the data.

The in-memory (pandas) path is the library itself.  Any other engine (today the Dask
engine) registers itself, as NetworkX backends do, under the entry-point
group ``skyprivacy.engines``: the entry point's *name* is the top-level package of the data
types the engine reads (``dask``) and its value the engine module, which defines
``accepts(obj) -> bool`` and the public functions it implements under their public names
(``from_table``, ``skyline_anonymize``, ...).  The kernel names no engine: it reads the entry
points, and loads one only when a call's data comes from that engine's package, so the pandas
path never imports dask.  :func:`register_engine` adds an engine in-process (tests, plug-ins
that are not installed).

:func:`dispatchable` makes a public function dispatch: when its data argument belongs to a
registered engine, the call goes, with every argument as given, to the engine's function of the
same name.
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable
from importlib.metadata import entry_points
from types import ModuleType
from typing import Any, TypeVar

__all__ = ["ENGINE_GROUP", "partitioned_engine", "register_engine", "dispatchable"]

#: The entry-point group engines register under.
ENGINE_GROUP = "skyprivacy.engines"

F = TypeVar("F", bound=Callable[..., Any])

_registered: dict[str, Any] = {}  # data package -> engine module (or a loader of it)
_entry_points_read = False


def register_engine(package: str, engine: Any) -> None:
    """Register ``engine`` for the data types defined in the top-level ``package``.

    ``engine`` is a module (or any object) with ``accepts(obj) -> bool`` and the public
    functions it implements, or a zero-argument callable returning one (loaded on first use).
    """
    _registered[package] = engine


def _read_entry_points() -> None:
    global _entry_points_read
    if _entry_points_read:
        return
    _entry_points_read = True
    for point in entry_points(group=ENGINE_GROUP):
        _registered.setdefault(point.name, point.load)


def partitioned_engine(obj: object) -> Any | None:
    """The registered engine that reads ``obj``, or None for what the in-memory path reads.

    Nothing is imported unless ``obj``'s type comes from a package an engine registered for
    and that package is already imported (a dask frame cannot exist before dask is).

    Examples
    --------
    >>> import pandas as pd
    >>> partitioned_engine(pd.DataFrame({"a": [1]})) is None
    True
    """
    package = (type(obj).__module__ or "").partition(".")[0]
    if not package or package in ("pandas", "numpy", "builtins") or package not in sys.modules:
        return None
    _read_entry_points()
    engine = _registered.get(package)
    if engine is None:
        return None
    if not isinstance(engine, ModuleType) and not hasattr(engine, "accepts"):
        engine = _registered[package] = engine()  # an entry point's loader
    return engine if engine.accepts(obj) else None


def dispatchable(func: F | None = None, *, method: bool = False) -> Any:
    """Hand a call whose data argument belongs to a registered engine to that engine's
    function of the same name, with every argument as given.

    The data is the first positional argument (after ``cls`` when ``method``, for a
    classmethod constructor) or the keyword of the function's first parameter.

    Examples
    --------
    >>> @dispatchable
    ... def rows(table, *, limit=None):
    ...     return len(table)
    >>> rows([1, 2, 3])
    3
    """
    if func is None:
        return functools.partial(dispatchable, method=method)
    name = func.__name__
    parameters = list(inspect.signature(func).parameters)
    data_name = parameters[1 if method else 0]

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        rest = args[1:] if method else args
        engine = partitioned_engine(rest[0] if rest else kwargs.get(data_name))
        if engine is not None:
            return getattr(engine, name)(*rest, **kwargs)
        return func(*args, **kwargs)

    return wrapper
