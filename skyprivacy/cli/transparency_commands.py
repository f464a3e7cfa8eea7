"""The ``transparency`` commands: ``check`` that a decision rule is beta-private, ``optimize``
the announced rule under a fidelity constraint, and ``verify`` a rule against its certificate
(Chen, Golubchik and Pal 2022)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import SchemaError, UsageError
from ..io import (
    OutputFiles,
    as_numbers,
    read_certificate,
    read_table,
    reject_missing,
    require_columns,
    table_bytes,
    table_format,
)
from .context import (
    Context,
    read_options,
    required_verdict,
    check_outputs,
    na_values,
    run_verification,
    verification_json,
)
from .shared import EXIT_OK, EXIT_UNSAFE, text_table
from .signing import add_certificate, signature_outputs, signed_by_text, signed_inputs


def _decision_table(args):
    """The raw text table and the DecisionTable built from it (numbers parsed)."""
    from ..transparency import DecisionTable

    raw = read_table(args.table, **read_options(args))
    numeric = [args.weight, *args.decision] + ([args.announced]
                                               if getattr(args, "announced", None) else [])
    keys = [*args.public, *args.sensitive]
    require_columns(raw, keys + numeric)
    reject_missing(raw, keys + numeric, na_values(args))
    frame = raw.copy()
    for column in dict.fromkeys(numeric):
        numbers = as_numbers(raw[column])
        if numbers is None:
            bad = next(v for v in raw[column] if as_numbers(pd.Series([v])) is None)
            raise SchemaError(f"Column {column!r} must hold numbers; it holds {bad!r}.")
        frame[column] = numbers.astype(float)
    decision = args.decision[0] if len(args.decision) == 1 else args.decision
    return raw, DecisionTable.from_frame(frame, public=args.public, sensitive=args.sensitive,
                                           weight=args.weight, decision=decision)


def _rule_parameters(args) -> dict:
    return {"public": args.public, "sensitive": args.sensitive, "weight": args.weight,
            "decision": args.decision, "exact": args.exact}


def _rule_curve(table, certificate) -> list:
    """The trade-off curve of a binary table for the report (none for more outcomes)."""
    from ..transparency import tradeoff_curve

    if not table.is_binary:
        return []
    constraint = certificate["fidelity"]["constraint"]
    kind = constraint["kind"] if constraint else "delta"
    points = tradeoff_curve(table, np.linspace(0, 1, 41), kind=kind).points
    return list(zip(points[kind].tolist(), points["beta_star"].tolist()))


def _rule_outputs(ctx, out, certificate, table) -> None:
    from ..report import render_rule_report

    args = ctx.args
    if args.certificate:  # with --sign, its detached signature beside it
        add_certificate(args, out, args.certificate, certificate)
    if args.report:
        out.add(args.report, render_rule_report(certificate, curve=_rule_curve(table, certificate),
                                                source=args.table).encode("utf-8"))


def cmd_transparency_check(ctx: Context) -> int:
    """``skyprivacy transparency check``: is the announced rule
    beta-private?"""
    from ..transparency.certificate import build_rule_certificate
    from ..transparency import satisfies_beta

    args = ctx.args
    check_outputs(args, {"--certificate": args.certificate, "--report": args.report,
                         **signature_outputs(args, args.certificate)}, {"table": args.table})
    frame, table = _decision_table(args)
    check = satisfies_beta(table, args.announced, beta=args.beta, gamma=args.gamma,
                           exact=args.exact)
    worst = check.max_confidence
    if args.certificate or args.report:
        certificate = build_rule_certificate(
            frame, announced=args.announced, beta=args.beta, gamma=args.gamma,
            **_rule_parameters(args))
        with OutputFiles() as out:
            _rule_outputs(ctx, out, certificate, table)
            ctx.note(f"wrote {', '.join(out.commit())}")
    if args.format == "json":
        ctx.emit_json({"command": "transparency check", **check.to_dict()})
    else:
        lines = [f"{'SAFE' if check.safe else 'UNSAFE'}: the "
                 f"{'announced' if args.announced else 'true'} rule is "
                 f"{'' if check.safe else 'not '}beta-private at beta = "
                 f"{float(check.beta):g}.",
                 f"Maximum confidence {float(worst.conf):.4g} (group {worst.group}, outcome "
                 f"{worst.outcome}, inferring {worst.sensitive})."]
        if check.n_violations:
            violations = check.violations
            lines += ["", f"{check.n_violations} violating channel(s)"
                          f"{' (the first 20)' if check.n_violations > 20 else ''}:",
                      text_table([str(c) for c in violations.columns],
                                  violations.head(20).values.tolist())]
        ctx.emit("\n".join(lines))
    return EXIT_OK if check.safe else EXIT_UNSAFE


def cmd_transparency_optimize(ctx: Context) -> int:
    """``skyprivacy transparency optimize``: the rule with the smallest
    beta under a fidelity constraint."""
    from ..transparency import Alpha, Delta, optimal_privacy

    from ..transparency.certificate import build_rule_certificate

    args = ctx.args
    if args.certificate and not args.output:
        raise UsageError("--certificate needs --output: the certificate pins the announced "
                         "rule, which --output writes")
    check_outputs(args, {"--output": args.output, "--certificate": args.certificate,
                          "--report": args.report, **signature_outputs(args, args.certificate)},
                   {"table": args.table})
    frame, table = _decision_table(args)
    fidelity = Delta(args.delta) if args.delta is not None else Alpha(args.alpha)
    result = optimal_privacy(table, fidelity, exact=args.exact)
    if args.output or args.report:
        announced = result.announced
        added = [c for c in announced.columns if c not in frame.columns]
        released = frame.copy()  # the cells as read, then the announced rule
        for column in added:
            released[column] = announced[column].to_numpy()
        certificate = None
        if args.certificate or args.report:
            certificate = build_rule_certificate(
                frame, released, announced=added, fidelity=fidelity, optimal=True,
                **_rule_parameters(args))
        with OutputFiles() as out:
            if args.output:
                out.add(args.output, table_bytes(released, table_format(args.output)))
            if certificate is not None:
                _rule_outputs(ctx, out, certificate, table)
            ctx.note(f"wrote {', '.join(out.commit())}")
    if args.format == "json":
        ctx.emit_json({"command": "transparency optimize", **result.to_dict()})
    else:
        groups = result.to_frame()
        ctx.emit("\n".join([
            f"Optimal beta* = {float(result.beta_star):.6g} under {fidelity}, attained by the "
            f"group {result.binding_group}; the announced rule's maximum confidence, "
            f"recomputed, is {float(result.achieved.conf):.6g}.",
            "", text_table([str(c) for c in groups.columns], groups.values.tolist(),
                            right=set(range(1, len(groups.columns))))]))
    return EXIT_OK


def cmd_transparency_verify(ctx: Context) -> int:
    """``skyprivacy transparency verify``: recompute a decision-rule
    certificate."""
    from ..transparency.certificate import verify_rule_certificate

    args = ctx.args
    certificate = read_certificate(args.certificate)
    signed = signed_inputs(args)
    table = read_table(args.table, **read_options(args))
    rule = None if args.rule is None else read_table(
        args.rule, sep=args.sep, encoding=read_options(args)["encoding"])
    verification = run_verification(args, verify_rule_certificate, table, rule,
                                    signed.pop("certificate_bytes", certificate), **signed)
    if not verification.ok:
        print(f"{ctx.name}: FAILED: {verification.differences[0]}", file=ctx.stderr)
    if args.format == "json":
        ctx.emit_json({**verification_json("transparency verify", verification, args,
                                           certificate),
                       "rule": {"path": args.rule or args.table,
                                "sha256": certificate["rule"]["sha256"]},
                       "certificate": {"path": args.certificate,
                                       "verdict": certificate.get("verdict")},
                       # with --public-key: the fingerprint of the key that signed it
                       **({"signed_by": verification.certified["signed_by"]}
                          if verification.certified else {})})
    elif verification.ok:
        beta = certificate["beta"]
        ctx.emit(f"VERIFIED: {args.rule or args.table} matches {args.certificate}: decision "
                 f"table sha256 {certificate['table']['sha256']}, rule sha256 "
                 f"{certificate['rule']['sha256']}, beta {beta.get('exact') or beta['value']} "
                 f"recomputed, "
                 + (f"{signed_by_text(verification.certified)}, " if verification.certified
                    else "")
                 + f"verdict {certificate['verdict']}.")
    else:
        # without --rule the decision table holds the rule: one file, named once
        files = (f"{args.table} does not" if args.rule is None
                 else f"{args.rule} and {args.table} do not")
        ctx.emit("\n".join([f"NOT VERIFIED: {files} match {args.certificate}:"]
                           + [f"- {d}" for d in verification.differences]))
    return required_verdict(ctx, verification.ok, certificate.get("verdict"), "certified")
