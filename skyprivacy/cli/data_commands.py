"""The ``data`` command: write a bundled data set (UCI Adult, or one of its ARX hierarchies) to
a file or to stdout."""

from __future__ import annotations

from ..errors import UsageError
from ..io import OutputFiles, table_bytes, table_format
from .context import Context, check_outputs
from .shared import EXIT_OK


def cmd_data(ctx: Context) -> int:
    """``skyprivacy data``: write a bundled data set to ``--output`` or stdout."""
    from ..datasets import ADULT_HIERARCHIES, adult_hierarchy_path, load_adult

    args = ctx.args
    check_outputs(args, {"--output": args.output}, {})
    if args.dataset == "adult":
        if args.attribute:
            raise UsageError("'data adult' takes no attribute")
        frame = load_adult()
        if args.sample is not None:
            frame = frame.sample(n=min(args.sample, len(frame)),
                                 random_state=args.random_state).sort_index()
        data = table_bytes(frame, table_format(args.output) if args.output else "csv")
    else:
        choices = sorted({*ADULT_HIERARCHIES, "income"})
        if args.attribute not in choices:
            raise UsageError(f"'data adult-hierarchy' needs one of {', '.join(choices)}")
        data = adult_hierarchy_path(args.attribute).read_bytes()
    if args.output:
        with OutputFiles() as out:
            out.add(args.output, data)
            ctx.note(f"wrote {', '.join(out.commit())}")
    else:
        ctx.write(data.decode("utf-8"))
    return EXIT_OK
