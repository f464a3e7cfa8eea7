"""The release commands: ``check`` a released table against a policy, ``anonymize`` a table
until it satisfies one, ``find`` its knowledge skylines, ``compare`` a k-anonymous or
l-diverse release through skylines, and ``verify`` a table against its certificate."""

from __future__ import annotations

import argparse
import os
from fractions import Fraction

from .._core.classification import verified_columns
from .._core.exact import readable_fraction
from .._core.text import confidence_text, percent_text
from .._core.version import __version__
from ..anonymize import anonymize, k_anonymize, skyline_anonymize
from ..certificate import anonymization_certificate, build_certificate, verify_certificate
from ..criteria import SkylinePolicy
from ..check import skyline_check
from ..compare import compare_l_diversity
from ..errors import InfeasibleError, UsageError
from ..find import skyline_find_all
from ..io import (
    InputError,
    OutputFiles,
    read_bytes,
    read_certificate,
    read_criteria,
    read_policy,
    read_table,
    table_bytes,
    table_format,
)
from ..release import ReleaseCandidate
from ..risk import identity_risk
from .context import (
    Context,
    required_verdict,
    add_table,
    check_outputs,
    dataset_output,
    distinct_values,
    is_dask,
    read_input,
    read_options,
    run_verification,
    verification_json,
)
from .individuals import one_row_per_person, released_rows
from .release_inputs import (
    built_hierarchies,
    check_policy_values,
    column_roles,
    check_values,
    criteria_report_page,
    given_hierarchies,
    labels_output,
    load_release,
    orders,
    original_table,
    policy_criteria,
    report_page,
    stage_labels,
    suppression_reasons,
)
from .shared import EXIT_OK, EXIT_UNSAFE, release_line, text_table, verdict_line
from .signing import add_certificate, signature_outputs, signed_by_text, signed_inputs


def cmd_check(ctx: Context) -> int:
    """``skyprivacy check``: the verdict of a released table under a policy."""
    args = ctx.args
    check_outputs(args, {"--certificate": args.certificate, "--report": args.report,
                         **signature_outputs(args, args.certificate)},
                   {"table": args.table, "--policy": args.policy})
    policy = read_policy(args.policy)
    # one bar over the stages: reading, the verdict, the worst cases in words, writing
    bar = ctx.progress(f"reading {args.table}")
    bar(0.0)
    raw = read_input(args)
    bar.label = "checking"
    bar(0.2)
    release = load_release(args, raw)
    check_policy_values(policy, [v for v in release.values if release.contains(v)],
                         args.sensitive, release.whitespace)
    if args.population_size is not None and not args.risk:
        raise UsageError("--population-size needs --risk")
    if args.risk and args.qi is None:
        raise UsageError("--risk needs --qi (identity risk is measured on the QI columns)")
    roles = column_roles(args, raw)
    result = skyline_check(release, policy)
    bar.label = "writing the worst cases"
    for _ in result.iter_rows(progress=bar.part(0.3, 0.9)):
        pass  # every row's worst case, built now on the bar (the certificate records them)
    bar.label = "certifying"
    risk = ({"risk": True, "population_size": args.population_size} if args.risk else {})
    certificate = build_certificate(roles.select(raw), policy, sensitive=args.sensitive,
                                    qi=args.qi, group=args.group, individual=args.individual,
                                    semantics=args.semantics, result=result,
                                    classification=roles.to_dict(), **risk,
                                    whitespace=args.whitespace)
    figures = None
    if args.risk:  # the report lists the riskiest classes, which the certificate leaves out
        figures = identity_risk(raw, qi=args.qi, population_size=args.population_size).to_json()
    bar.label = "writing"
    bar(0.95)
    with OutputFiles() as out:
        if args.certificate:
            add_certificate(args, out, args.certificate, certificate)
        if args.report:
            out.add(args.report, report_page(ctx, certificate, release, result, args.table,
                                              risk=figures))
        written = out.commit()
    bar(1.0)
    bar.close()
    if written:
        ctx.note(f"wrote {', '.join(written)}")
    if args.format == "json":
        ctx.emit_json({"command": "check", "safe": result.safe,
                       "verdict": certificate["verdict"],
                       "next_step": None if result.safe else _next_step(result, args),
                       "n_checks": len(result.rows), "n_violations": len(result.violations),
                       "table": {"path": args.table, "sha256": certificate["table"]["sha256"],
                                 "n_rows": certificate["table"]["n_rows"]},
                       "release": certificate["release"],
                       "classification": certificate["classification"],
                       "copied_unanalysed": list(roles.copied),
                       "rows": [row.to_dict() for row in result.rows],
                       "certificate": certificate})
    else:
        ctx.emit("\n".join([verdict_line(result),
                            release_line(release, args.table, certificate["table"]["n_rows"]),
                            roles.explain("cli")]
                           + ([roles.dropped_note()] if roles.dropped else []) + [""]
                           + _checks_text(result, certificate)
                           + _risk_text(certificate)
                           + ([] if result.safe else ["", _next_step(result, args)])))
    return EXIT_OK if result.safe else EXIT_UNSAFE


def _risk_text(certificate: dict) -> list[str]:
    """With --risk: the identity-risk figures the certificate records, in one paragraph."""
    if "risk" not in certificate:
        return []
    figures = certificate["risk"]["figures"]

    def share(name: str) -> str:
        value = Fraction(figures[f"{name}_exact"])
        return f"{readable_fraction(value)} ({percent_text(value)})"
    line = (f"Identity risk on {', '.join(figures['qi'])}: prosecutor max "
            f"{share('prosecutor_max')}, average {share('prosecutor_average')}; marketer "
            f"{share('marketer')}; sample uniqueness {share('sample_uniqueness')}")
    population = figures["population"]
    if population is not None:
        line += (f"; population uniqueness {population['share']:.4%} (N = "
                 f"{population['population_size']:,}, {population['model']})")
    return ["", line + "."]


def _next_step(result, args) -> str:
    """What to do about an unsafe table: anonymize it, or relax the failing points."""
    values = sorted({str(row.value) for row in result.violations})
    shown = ", ".join(repr(v) for v in values[:10])
    if len(values) > 10:  # a count, not '...': the sentence's full stop follows
        more = len(values) - 10
        shown += f" and {more} more value{'s' if more != 1 else ''}"
    return (f"Next step: generalize the table until it is safe, e.g. skyprivacy anonymize "
            f"{args.table} --qi COL,... --sensitive {args.sensitive} --policy {args.policy} "
            f"--output released.csv; or relax the failing points of {shown}.")


def _checks_text(result, certificate: dict) -> list[str]:
    lines = [text_table(
        ["value", "l", "k", "m", "c", "breach", "exact", "verdict"],
        [[c["value"], c["l"], c["k"], c["m"], f"{c['c']:g}",
          percent_text(c["breach_probability_exact"], c["c_exact"]),
          c["breach_probability_exact"], "safe" if c["safe"] else "UNSAFE"]
         for c in certificate["checks"]], right={1, 2, 3, 4, 5, 6})]
    violations = result.violations
    if violations:
        lines += ["", "Worst cases of the failing checks:"]
        # the most exposed first, at most WORST_CASES_SHOWN: thousands of sentences are
        # no reading (every one is in --format json and the certificate)
        shown = violations if len(violations) <= WORST_CASES_SHOWN else sorted(
            violations, key=lambda r: r.point.c_exact - r.breach_probability)[:WORST_CASES_SHOWN]
    else:
        lines += ["", "Closest calls:"]
        shown = sorted(result.rows, key=lambda r: r.point.c_exact - r.breach_probability)[:3]
    for row in shown:
        lines.append(f"- {row.value!r} at {row.point}: breach probability "
                     f"{readable_fraction(row.breach_probability)} "
                     f"({percent_text(row.breach_probability, row.point.c_exact)}). "
                     f"{row.worst_case.description}")
    if len(violations) > len(shown):
        more = len(violations) - len(shown)
        lines.append(f"- and {more:,} more failing check{'s' if more != 1 else ''}: "
                     f"--format json lists the worst case of every one")
    return lines


#: Worst cases of failing checks the text output shows, the most exposed first.
WORST_CASES_SHOWN = 20


def cmd_anonymize(ctx: Context) -> int:
    """``skyprivacy anonymize``: generalize (or bucketize) a table until it is safe;
    write it with its certificate."""
    args = ctx.args
    certificate_path = args.certificate
    if certificate_path is None:
        stem, _ = os.path.splitext(args.output.rstrip("/") if is_dask(args) else args.output)
        certificate_path = stem + ".cert.json"
    labels_path = labels_output(args, args.output.rstrip("/") if is_dask(args) else args.output)
    if is_dask(args):
        dataset_output(args, "--output", args.output)
    check_outputs(args, {**({} if is_dask(args) else {"--output": args.output}),
                          "--certificate": certificate_path, "--labels": labels_path,
                          "--report": args.report, **signature_outputs(args, certificate_path)},
                   {"table": args.table, "--policy": args.policy})
    output_format = table_format(args.output, args.output_format)
    criteria = policy_criteria(args)
    if not _skyline_alone(args, criteria):
        return _anonymize_under_criteria(ctx, criteria, certificate_path, output_format)
    policy = criteria[0].policy
    hierarchies = given_hierarchies(args)
    order = orders(args)
    # one bar over the stages: reading, the search, the worst cases in words, writing
    bar = ctx.progress(f"reading {args.table}")
    bar(0.0)
    raw = read_input(args)
    table = original_table(args, raw, hierarchies)
    hierarchies = built_hierarchies(args, table, hierarchies)
    check_policy_values(policy, distinct_values(table, args.sensitive), args.sensitive,
                        args.whitespace)
    persons = one_row_per_person(args, table)  # --individual: the search partitions people
    roles = column_roles(args, table)
    bar.label = "anonymizing"
    try:
        result = skyline_anonymize(
            persons, qi=args.qi, sensitive=args.sensitive, policy=policy, hierarchies=hierarchies,
            semantics=args.semantics, split=args.split or "infogain",
            output="bucketized" if args.bucketized else "generalized",
            random_state=args.random_state, group_column=args.group_column,
            progress=bar.part(0.1, 0.7), numeric=args.numeric, categorical=args.categorical,
            order=order, label_length=args.label_length,
            # --individual: the persons' table holds the person, the QIs and the values only;
            # the kept and dropped columns come back (or stay out) with released_rows below
            keep=[args.individual] if args.individual else list(roles.kept),
            drop=[] if args.individual else list(roles.dropped), whitespace=args.whitespace)
        bar.label = "writing the worst cases"
        for _ in result.certificate.iter_rows(progress=bar.part(0.7, 0.85)):
            pass  # built now on the bar; the certificate records every one
        bar.label = "certifying and writing"
        bar(0.9)
    except BaseException:
        bar.close()
        raise
    if not result.safe:  # the search only accepts safe splits; never publish otherwise
        raise InfeasibleError("The released table failed its own certificate; nothing was "
                              "written. Please report this as a bug.")
    grouping = ({"group": args.group_column} if args.bucketized else {"qi": args.qi})
    if args.individual:
        grouping["individual"] = args.individual
    released = released_rows(args, roles.select(table), result.table)
    with OutputFiles() as out:
        add_table(args, out, args.output, released, output_format)
        labels = stage_labels(out, labels_path, args.output.rstrip("/"), result.set_labels)
        certificate = build_certificate(released, policy, sensitive=args.sensitive,
                                        semantics=args.semantics, result=result.certificate,
                                        labels=labels, classification=roles.to_dict(),
                                        whitespace=args.whitespace, **grouping)
        add_certificate(args, out, certificate_path, certificate)
        if args.report:
            out.add(args.report, report_page(ctx, certificate, result.candidate,
                                              result.certificate, args.output))
        written = out.commit()
    bar(1.0)
    bar.close()
    ctx.note(f"wrote {', '.join(written)}")
    if args.format == "json":
        ctx.emit_json({"command": "anonymize", "safe": result.safe,
                       "verdict": certificate["verdict"], "output": args.output,
                       "certificate_path": certificate_path, "report": args.report,
                       "labels": labels_path if labels else None,
                       "n_rows": certificate["table"]["n_rows"],
                       "n_groups": result.candidate.n_groups,
                       "average_group_size": result.average_group_size,
                       "n_splits": result.n_splits, "release_type": result.output,
                       "classification": certificate["classification"],
                       "copied_unanalysed": list(roles.copied),
                       "certificate": certificate})
    else:
        lines = [verdict_line(result.certificate),
                 "Released " + release_line(result.candidate, args.output,
                                             certificate["table"]["n_rows"]),
                 roles.explain("cli"),
                 f"Certificate: {certificate_path} (table sha256 "
                 f"{certificate['table']['sha256']})."]
        if labels:
            count = sum(len(sets) for sets in result.set_labels.values())
            lines.append(f"Set labels: {labels_path} lists the members of the {count} set(s) "
                         f"published as a digest.")
        worst = result.certificate.worst
        if worst is not None:
            bp = worst.breach_probability
            lines.append(f"Closest call: {worst.value!r} at {worst.point}, breach probability "
                         f"{readable_fraction(bp)} ({percent_text(bp)}).")
        ctx.emit("\n".join(lines))
    return EXIT_OK


def _skyline_alone(args, criteria: list) -> bool:
    """Whether ``anonymize`` runs SkylineAnonymize as it always has: one skyline policy, no
    other criterion, Mondrian without suppression."""
    return (len(criteria) == 1 and isinstance(criteria[0], SkylinePolicy)
            and args.method == "mondrian" and args.suppression_limit == 0
            and args.suppressed is None and args.objective is None)


#: Options of SkylineAnonymize alone, with their defaults: (flag, attribute, default).
_SKYLINE_ONLY: tuple[tuple[str, str, object], ...] = (
    ("--bucketized", "bucketized", False), ("--group-column", "group_column", "group"),
    ("--random-state", "random_state", None),
    ("--order", "order", []), ("--numeric", "numeric", []),
    ("--categorical", "categorical", []), ("--labels", "labels", None),
    ("--individual", "individual", None))


def _anonymize_under_criteria(ctx: Context, criteria: list, certificate_path: str,
                              output_format) -> int:
    """``skyprivacy anonymize`` under combined criteria (a policy file's ``[criteria]``
    section, the criterion flags), by Mondrian or full-domain search with a suppression
    budget: :func:`skyprivacy.anonymize`, certified by
    :func:`skyprivacy.certificate.anonymization_certificate`."""
    args = ctx.args
    if not criteria:
        raise UsageError("give the criteria: --policy FILE (a skyline policy and/or a "
                         "[criteria] section), --k, --l-diversity or --t-closeness")
    for flag, name, default in _SKYLINE_ONLY:
        if getattr(args, name) != default:
            raise UsageError(f"{flag} works with a skyline policy alone under --method "
                             f"mondrian without suppression; it has no use with "
                             f"{_criteria_words(args)}")
    if args.method == "mondrian" and args.objective is not None:
        raise UsageError("--objective chooses what --method full-domain minimises; Mondrian "
                         "splits by information gain")
    if args.split is not None and args.method != "mondrian":
        raise UsageError(f"--split {args.split} chooses Mondrian's cuts; --method "
                         f"{args.method} has none")
    if args.suppressed is not None and args.suppression_limit == 0:
        raise UsageError(f"--suppressed {args.suppressed} has no use without a "
                         f"--suppression-limit above 0")
    policies = [c.policy for c in criteria if isinstance(c, SkylinePolicy)]
    policy = policies[0] if policies else None
    hierarchies = given_hierarchies(args)
    raw = read_input(args)
    table = original_table(args, raw, hierarchies)
    hierarchies = built_hierarchies(args, table, hierarchies)
    if policy is not None:
        check_policy_values(policy, distinct_values(table, args.sensitive), args.sensitive,
                            args.whitespace)
    roles = column_roles(args, table)
    suppressed = args.suppressed or "drop"
    result = anonymize(table, qi=args.qi, sensitive=args.sensitive, criteria=criteria,
                       method=args.method,
                       # 0 as an int: anonymize's Mondrian takes no Fraction for "none"
                       suppression_limit=args.suppression_limit or 0,
                       suppressed=suppressed, objective=args.objective or "loss",
                       hierarchies=hierarchies, semantics=args.semantics,
                       split=args.split or "infogain",  # Mondrian's; full-domain has none
                       keep=list(roles.kept), drop=list(roles.dropped),
                       whitespace=args.whitespace)
    reasons = suppression_reasons(table, result, criteria, hierarchies, args)
    with OutputFiles() as out:
        add_table(args, out, args.output, result.table, output_format)
        certificate = anonymization_certificate(
            result, qi=args.qi, sensitive=args.sensitive, criteria=criteria,
            suppressed=suppressed, suppression_limit=args.suppression_limit, reasons=reasons,
            semantics=args.semantics, classification=roles.to_dict(),
            whitespace=args.whitespace)
        if not certificate["safe"]:  # the search only releases safe tables
            raise InfeasibleError("The released table failed its own certificate; nothing "
                                  "was written. Please report this as a bug.")
        add_certificate(args, out, certificate_path, certificate)
        if args.report:
            out.add(args.report, criteria_report_page(ctx, certificate, result.candidate,
                                                      policy, args.output))
        written = out.commit()
    ctx.note(f"wrote {', '.join(written)}")
    made = certificate["anonymization"]
    supp = made["suppression"]
    if args.format == "json":
        ctx.emit_json({"command": "anonymize", "safe": certificate["safe"],
                       "verdict": certificate["verdict"], "output": args.output,
                       "certificate_path": certificate_path, "report": args.report,
                       "n_rows": certificate["table"]["n_rows"],
                       "n_groups": result.candidate.n_groups, "method": made["method"],
                       "levels": made["levels"], "objective": made["objective"],
                       "search": made["search"], "suppression": supp,
                       "criteria": certificate["criteria"]["results"],
                       "classification": certificate["classification"],
                       "copied_unanalysed": list(roles.copied),
                       "certificate": certificate})
        return EXIT_OK
    results = certificate["criteria"]["results"]
    head = (f"SAFE: {_criteria_count(len(results), 'all ')} "
            f"{'holds' if len(results) == 1 else 'hold'} "
            f"({', '.join(r['criterion'] for r in results)})")
    if certificate["checks"]:
        head += f" and all {len(certificate['checks'])} (value, point) checks of the policy"
    lines = [head + ".",
             "Released " + release_line(result.candidate, args.output,
                                         certificate["table"]["n_rows"])]
    objective = made["objective"]
    value = "" if objective["value"] is None else f" = {objective['value_float']:.6g}"
    if made["levels"] is not None:
        levels = ", ".join(f"{name}={level}" for name, level in made["levels"].items())
        lines.append(f"Full-domain node: {levels}; objective {objective['name']}{value} "
                     f"(checked {made['search']['nodes_checked']:,} of "
                     f"{made['search']['lattice_size']:,} nodes).")
    else:
        lines.append("Method mondrian: multidimensional partitioning.")
    if supp["n_suppressed"] or args.suppression_limit:
        line = (f"Suppressed {supp['n_suppressed']:,} of {supp['n_original_rows']:,} rows "
                f"({'removed' if suppressed == 'drop' else 'masked'}; limit "
                f"{percent_text(args.suppression_limit)}, budget {supp['budget']:,})")
        if supp["groups"]:
            failed = sorted({name for g in supp["groups"] for name in g["fails"]})
            line += (f": {len(supp['groups']):,} group(s) failing {', '.join(failed)} at the "
                     f"chosen node")
        lines.append(line + ".")
    lines.append(roles.explain("cli"))
    lines.append(f"Certificate: {certificate_path} (table sha256 "
                 f"{certificate['table']['sha256']}).")
    ctx.emit("\n".join(lines))
    return EXIT_OK


def _criteria_count(n: int, all_: str = "") -> str:
    """'the criterion' / 'all 3 criteria'."""
    return "the criterion" if n == 1 else f"{all_}{n} criteria"


def _criteria_words(args) -> str:
    """What makes ``anonymize`` run under combined criteria, for a usage error."""
    if args.method != "mondrian":
        return f"--method {args.method}"
    if args.suppression_limit or args.suppressed is not None:
        return "--suppression-limit"
    if args.objective is not None:
        return "--objective"
    return "criteria other than a skyline policy alone"


def _skyline_rows(skylines) -> list[dict]:
    rows = []
    for rank, skyline in enumerate(skylines, start=1):
        breach = skyline.least_breach
        worst = skylines.worst_cases.get(skyline.value)
        rows.append({**skyline.to_dict(), "value": str(skyline.value), "rank": rank,
                     "least_breaching_knowledge": None if breach is None else list(breach),
                     "breach_probability_000": str(skylines.baseline_risk[skyline.value]),
                     "worst_case": None if worst is None else worst.description})
    return rows


def _skylines_text(skylines, top: int) -> list[str]:
    rows = _skyline_rows(skylines)
    lines = [text_table(
        ["rank", "value", "exposure", "least breaching (l,k,m)", "skyline points",
         "breach at (0,0,0)"],
        [[r["rank"], r["value"], "-" if r["exposure"] is None else r["exposure"],
          "none (safe in the searched box)" if r["least_breaching_knowledge"] is None
          else "(" + ", ".join(map(str, r["least_breaching_knowledge"])) + ")",
          len(r["points"]), percent_text(Fraction(r["breach_probability_000"]))] for r in rows],
        right={0, 2, 4, 5})]
    shown = [r for r in rows if r["worst_case"]][:top]
    if shown:
        lines += ["", "Worst cases of the most exposed values:"]
        lines += [f"- {r['value']!r}: {r['worst_case']}" for r in shown]
    return lines


def cmd_find(ctx: Context) -> int:
    """``skyprivacy find``: the knowledge skyline of every sensitive value."""
    args = ctx.args
    check_outputs(args, {"--output": args.output}, {"table": args.table})
    raw = read_input(args)
    release = load_release(args, raw)
    n_rows = len(raw)
    check_values(args.values, [v for v in release.values if release.contains(v)],
                  args.sensitive)
    bar = ctx.progress("finding knowledge skylines")
    try:
        skylines = skyline_find_all(release, c=args.confidence, values=args.values,
                                    progress=bar)
    finally:
        bar.close()
    if args.output:
        with OutputFiles() as out:
            out.add(args.output, table_bytes(skylines.to_frame(), "csv"))
            ctx.note(f"wrote {', '.join(out.commit())}")
    if args.format == "json":
        ctx.emit_json({"command": "find", "confidence": str(skylines.c),
                       "table": {"path": args.table, "n_rows": n_rows},
                       "release": {"n_groups": release.n_groups,
                                   "n_individuals": release.n_individuals,
                                   "semantics": release.semantics},
                       "skylines": _skyline_rows(skylines)})
    else:
        ctx.emit("\n".join([f"Knowledge skylines at confidence c = {confidence_text(skylines.c)}, "
                            f"most exposed value first.",
                            release_line(release, args.table, n_rows), ""]
                           + _skylines_text(skylines, args.top)))
    return EXIT_OK


def cmd_compare(ctx: Context) -> int:
    """``skyprivacy compare``: a k-anonymous or (c, l)-diverse release seen through
    knowledge skylines."""
    args = ctx.args
    labels_path = labels_output(args, args.output.rstrip("/") if args.output and is_dask(args)
                                 else args.output)
    if is_dask(args):
        dataset_output(args, "--output", args.output)
    check_outputs(args, {**({} if is_dask(args) else {"--output": args.output}),
                          "--labels": labels_path},
                   {"table": args.table})
    output_format = table_format(args.output, None) if args.output else None
    hierarchies = given_hierarchies(args)
    order = orders(args)
    raw = read_input(args)
    table = original_table(args, raw, hierarchies)
    roles = column_roles(args, table)
    hierarchies = built_hierarchies(args, table, hierarchies)
    present = distinct_values(table, args.sensitive)
    check_values(args.values, present, args.sensitive)
    bar = ctx.progress("anonymizing, then finding skylines")
    try:
        if args.k_anonymity is not None:
            made = k_anonymize(table, qi=args.qi, k=args.k_anonymity, hierarchies=hierarchies,
                               split=args.split or "widest", progress=bar.part(0, 0.5),
                               numeric=args.numeric, categorical=args.categorical,
                               order=order, label_length=args.label_length,
                               keep=[args.sensitive, *roles.kept], drop=list(roles.dropped),
                               whitespace=args.whitespace)
            released, set_labels = made.table, made.set_labels
            release = ReleaseCandidate.from_table(released, qi=args.qi,
                                                  sensitive=args.sensitive,
                                                  semantics=args.semantics,
                                                  whitespace=args.whitespace)
            baseline = {"kind": "k-anonymity", "k": args.k_anonymity,
                        "satisfied": bool(made.safe),
                        "smallest_group": int(release.sizes_array.min())}
            head = (f"The release is {args.k_anonymity}-anonymous (smallest QI-group "
                    f"{baseline['smallest_group']}); k-anonymity says nothing about what the "
                    f"sensitive values of a group reveal.")
            skylines = skyline_find_all(release, c=args.confidence, values=args.values,
                                        progress=bar.part(0.5, 1.0))
        else:
            c, l = args.diversity_c, args.l_diversity
            distinct = len(present)
            if l > distinct:  # say it in l-diversity terms, not as a skyline point
                raise InfeasibleError(
                    f"Recursive ({c}, {l})-diversity needs at least {l} distinct values of "
                    f"{args.sensitive!r} in every QI-group, and the table has only {distinct} "
                    f"distinct values; choose --l-diversity {distinct} or less.")
            comparison = compare_l_diversity(
                table, qi=args.qi, sensitive=args.sensitive, diversity_c=c, l=l,
                c=args.confidence, hierarchies=hierarchies,
                split=args.split or "infogain", values=args.values, semantics=args.semantics,
                numeric=args.numeric, categorical=args.categorical, order=order,
                label_length=args.label_length, progress=bar, keep=list(roles.kept),
                drop=list(roles.dropped), whitespace=args.whitespace)
            anonymization, skylines = comparison.anonymization, comparison.skylines
            released, release = anonymization.table, anonymization.candidate
            set_labels = anonymization.set_labels
            baseline = {"kind": "l-diversity", "c": str(c), "l": l,
                        "satisfied": bool(comparison.diversity.safe)}
            head = (f"The release is recursive ({c}, {l})-diverse; (c, l)-diversity only "
                    f"protects against an attacker who rules out l - 2 = {l - 2} values.")
    finally:
        bar.close()
    if args.output:
        with OutputFiles() as out:
            add_table(args, out, args.output, released, output_format)
            stage_labels(out, labels_path, args.output.rstrip("/"), set_labels)
            ctx.note(f"wrote {', '.join(out.commit())}")
    summary = {"n_groups": release.n_groups,
               "average_group_size": release.n_individuals / release.n_groups,
               "smallest_group": int(release.sizes_array.min())}
    if args.format == "json":
        ctx.emit_json({"command": "compare", "baseline": baseline, "release": summary,
                       "confidence": str(skylines.c), "skylines": _skyline_rows(skylines)})
    else:
        ctx.emit("\n".join([head, "Released " + release_line(release, "table",
                                                               release.n_individuals),
                            *([roles.copied_message("cli")] if roles.copied else []),
                            f"Knowledge skylines at confidence c = "
                            f"{confidence_text(skylines.c)}, most exposed value first:", ""]
                           + _skylines_text(skylines, 3)))
    return EXIT_OK


def cmd_verify(ctx: Context) -> int:
    """``skyprivacy verify``: recompute a certificate from the released table, check what it
    certifies against ``--qi``/``--sensitive``/``--policy`` and its signature against
    ``--public-key``."""
    args = ctx.args
    certificate = read_certificate(args.certificate)
    signed = signed_inputs(args)
    expected_policy = read_criteria(args.policy) if args.policy else None
    raw = read_input(args, one_partition_per_file=True) if is_dask(args) else read_input(args)
    labels_path, labels = _labels_input(args, certificate), None
    if labels_path is not None:
        try:
            labels = read_bytes(labels_path, noun="set-label file")
        except InputError as exc:
            if args.labels:
                raise
            raise InputError(f"{exc} The certificate {args.certificate!r} records it; pass "
                             f"--labels FILE if it is elsewhere.") from None
    original = None
    if args.original is not None:
        if "anonymization" not in certificate:
            raise UsageError("--original counts the suppressed rows of a certificate made by "
                             "anonymize under criteria; this certificate records none")
        original = read_table(args.original, **read_options(args))
    hierarchies = _verify_hierarchies(args, certificate, original)
    verification = run_verification(
        args, verify_certificate, raw, signed.pop("certificate_bytes", certificate),
        labels=labels, original=original, qi=args.qi, sensitive=args.sensitive,
        policy=expected_policy, hierarchies=hierarchies, **signed)
    made_by = certificate.get("library", {}).get("version")
    if made_by and made_by != __version__:
        ctx.note(f"the certificate was made by skyprivacy {made_by}; recomputed with "
                 f"{__version__}")
    if not verification.ok:
        print(f"{ctx.name}: FAILED: {verification.differences[0]}", file=ctx.stderr)
    if args.format == "json":
        ctx.emit_json({**verification_json("verify", verification, args, certificate),
                       "labels": labels_path,
                       "certified": verification.certified,
                       "certificate": {"path": args.certificate,
                                       "created": certificate.get("created"),
                                       "library_version": made_by,
                                       "verdict": certificate["verdict"],
                                       "n_checks": len(certificate["checks"]),
                                       "classification": certificate.get("classification")}})
    elif verification.ok:
        ctx.emit(f"VERIFIED: {args.table} matches {args.certificate}: table sha256 "
                 f"{certificate['table']['sha256']}, "
                 + verified_columns(certificate.get("classification"))
                 + (f"set-label file {labels_path} sha256 {certificate['labels']['sha256']}, "
                    if labels_path else "")
                 + (f"{len(certificate['checks'])} breach probabilities recomputed exactly, "
                    if certificate["checks"] or "criteria" not in certificate else "")
                   + (f"{_criteria_count(len(certificate['criteria']['results']))} "
                      f"recomputed, "
                      if "criteria" in certificate else "")
                   + ("the suppressed rows and the partition checked"
                      + (f" against {args.original}" if original is not None else "") + ", "
                      if "anonymization" in certificate else "")
                   + ("the identity-risk figures recomputed, " if "risk" in certificate else "")
                   + _certified_text(verification.certified)
                   + f"; verdict {certificate['verdict']}.")
    else:
        ctx.emit("\n".join([f"NOT VERIFIED: {args.table} does not match {args.certificate}:"]
                           + [f"- {d}" for d in verification.differences]))
    return required_verdict(ctx, verification.ok, certificate["verdict"], "safe")


def _certified_text(summary: dict) -> str:
    """What a verified certificate certifies, in the VERIFIED line's words."""
    columns = (f"QIs {', '.join(summary['qi'])}" if summary["qi"] is not None
               else f"group column {summary['group']}")
    kept = summary["kept"]
    policy = summary["policy_sha256"]
    criteria = summary["criteria"]
    return (f"certifying {columns}; sensitive {summary['sensitive']}; kept columns "
            + ("not recorded" if kept is None else ", ".join(kept) if kept else "none")
            + "; policy " + (f"sha256 {policy}" if policy else "none")
            + (f"; criteria {criteria}" if criteria else "")
            + f"; text compared {summary['text']}; " + signed_by_text(summary))


def _verify_hierarchies(args, certificate: dict, original) -> dict | None:
    """``verify --hierarchy``: the hierarchies of the certificate's QIs (the shortcuts built
    from the original table's cells), for the full-domain check against --original."""
    if not args.hierarchy:
        return None
    if original is None:
        raise UsageError("--hierarchy checks a full-domain release's cells against "
                         "--original; give --original TABLE")
    qi = certificate.get("parameters", {}).get("qi")
    view = argparse.Namespace(**{**vars(args), "qi": list(qi) if isinstance(qi, list) else [],
                                 "categorical": [], "table": args.original})
    return built_hierarchies(view, original, given_hierarchies(view))


def _labels_input(args, certificate: dict) -> str | None:
    """The set-label file to verify: --labels, else the name the certificate records, in the
    table's folder."""
    if args.labels:
        return args.labels
    record = certificate.get("labels")
    if not isinstance(record, dict) or not isinstance(record.get("file"), str):
        return None  # none recorded (or malformed: verify_certificate says so)
    folder = "" if args.table == "-" else os.path.dirname(args.table)
    return os.path.join(folder, record["file"])
