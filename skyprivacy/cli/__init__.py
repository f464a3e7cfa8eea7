"""The ``skyprivacy`` command line: a thin shell over the library.

``main(argv) -> int`` parses the arguments, reads the inputs through :mod:`skyprivacy.io`, calls
the library (:func:`skyprivacy.skyline_check`, :func:`skyprivacy.skyline_anonymize`,
:func:`skyprivacy.skyline_find_all`, the baselines and :mod:`skyprivacy.transparency`), and
prints results on stdout (a readable table, or JSON with a ``schema_version`` under
``--format json``); diagnostics, warnings and progress bars go to stderr.  Output files are
staged and put in place only when the whole run succeeded.

Exit codes: 0 safe / done, 1 unsafe or infeasible (or a certificate that does not verify),
2 usage error, 3 input error (missing or unreadable file, missing column, missing value,
malformed policy, hierarchy or certificate, unknown policy value), 4 internal error (a bug:
please report it with the traceback), 130 on Ctrl-C, 143 on SIGTERM and 129 on SIGHUP (each
unwinds the same way: staged outputs removed, no partial file left), 141 when stdout is
closed early (``| head``).  The reference is ``docs/cli.md``.

The modules: :mod:`.parser` builds the argument parser from the option types of
:mod:`.argtypes`; :mod:`.context` holds one run (streams, notes, progress, the Dask session,
reading the table, checking the outputs); :mod:`.release_inputs` the release commands' inputs
(policy values, hierarchies, orders, set labels, the HTML report); :mod:`.release_commands`,
:mod:`.transparency_commands` and :mod:`.data_commands` the commands; :mod:`.shared` the exit
codes and the text every command prints; this module runs one command and turns its errors
into one line and an exit code.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import traceback
import warnings

from ..errors import (
    EngineError,
    HierarchyError,
    InfeasibleError,
    InvalidParameterError,
    SchemaError,
    SkyPrivacyWarning,
    UnusedPolicyValueWarning,
    UsageError,
)
from ..io import InputError, OutputFiles
from .context import Context, EngineSession
from .parser import build_parser
from .shared import (
    EXIT_BROKEN_PIPE,
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_UNSAFE,
    EXIT_USAGE,
    SCHEMA_VERSION,
    naming_the_file,
    one_line,
)

__all__ = ["main", "build_parser", "SCHEMA_VERSION", "EXIT_OK", "EXIT_UNSAFE", "EXIT_USAGE",
           "EXIT_INPUT", "EXIT_INTERNAL"]


_INPUT_ERRORS = (InputError, SchemaError, HierarchyError, InvalidParameterError, OSError,
                 UnicodeDecodeError)


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP (a scheduler's stop, a closed terminal), raised where the run is so
    that it unwinds like Ctrl-C: staged outputs removed, nothing half-written left behind."""

    def __init__(self, signum: int):
        super().__init__(f"terminated by {signal.Signals(signum).name}")
        self.signum = signum


def _terminate(signum, frame):
    raise Terminated(signum)


@contextlib.contextmanager
def _terminations():
    """SIGTERM and SIGHUP behave like SIGINT for the length of one command (main thread
    only: a signal handler cannot be set elsewhere; the previous handlers come back after)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    wanted = [s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None))
              if s is not None]
    before = {s: signal.signal(s, _terminate) for s in wanted}
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)


def main(argv: list[str] | None = None) -> int:
    """Run the ``skyprivacy`` command line; returns the exit code (see the module docstring).

    Parameters
    ----------
    argv : list of str, optional
        The arguments without the program name (default ``sys.argv[1:]``).

    Examples
    --------
    >>> main(["data", "adult-hierarchy", "sex"])
    Male;*
    Female;*
    0
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help / --version (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if getattr(args, "handler", None) is None:
        target = getattr(args, "subparser", parser)
        target.print_usage(sys.stderr)
        print(f"{target.prog}: error: choose a command (see --help)", file=sys.stderr)
        return EXIT_USAGE
    ctx = Context(args)
    start = OutputFiles.mark()
    with warnings.catch_warnings(record=True) as caught, _terminations(), \
            OutputFiles.replacing(getattr(args, "force", True)):
        warnings.simplefilter("always", SkyPrivacyWarning)
        warnings.simplefilter("ignore", UnusedPolicyValueWarning)  # an input error here
        try:
            with EngineSession(args):
                code = args.handler(ctx)
            sys.stdout.flush()  # surface a closed pipe here, not at interpreter exit
        except BrokenPipeError:  # e.g. `skyprivacy data adult | head`: the reader has gone
            devnull = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(devnull, sys.stdout.fileno())
            except (OSError, ValueError):  # stdout without a file descriptor (tests)
                pass
            finally:
                os.close(devnull)
            code = EXIT_BROKEN_PIPE
        except UsageError as exc:
            print(f"{ctx.name}: error: {one_line(exc)} (see {ctx.name} --help)",
                  file=sys.stderr)
            code = EXIT_USAGE
        except InfeasibleError as exc:
            print(f"{ctx.name}: infeasible: {one_line(exc)}", file=sys.stderr)
            failing = getattr(exc, "failing", None)  # set by skyline_anonymize
            if getattr(args, "format", None) == "json" and failing is not None:
                ctx.emit_json({"command": ctx.name.split(" ", 1)[-1], "verdict": "infeasible",
                               "message": one_line(exc), "failing": failing,
                               "withstands": getattr(exc, "withstands", None)})
            code = EXIT_UNSAFE
        except EngineError as exc:  # the cluster failed: nothing was written
            print(f"{ctx.name}: error: {one_line(exc)}", file=sys.stderr)
            code = EXIT_INTERNAL
        except _INPUT_ERRORS as exc:
            print(f"{ctx.name}: error: {naming_the_file(exc, args)}", file=sys.stderr)
            code = EXIT_INPUT
        except ImportError as exc:
            print(f"{ctx.name}: error: {one_line(exc)}", file=sys.stderr)
            code = EXIT_INPUT
        except KeyboardInterrupt as exc:
            written = OutputFiles.committed_since(start)
            print(f"{ctx.name}: {exc.args[0] if isinstance(exc, Terminated) else 'interrupted'}; "
                  + (f"these outputs were complete before the interruption and are on disk: "
                     f"{', '.join(written)}" if written else "nothing was written"),
                  file=sys.stderr)
            code = 128 + exc.signum if isinstance(exc, Terminated) else 130
        except Exception:  # a bug: keep the traceback, but never exit 1 ("unsafe")
            traceback.print_exc()
            print(f"{ctx.name}: internal error; please report it with the traceback above",
                  file=sys.stderr)
            code = EXIT_INTERNAL
    for warning in caught:
        if issubclass(warning.category, SkyPrivacyWarning):
            print(f"{ctx.name}: warning: {one_line(warning.message)}", file=sys.stderr)
    return code
