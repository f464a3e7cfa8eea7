"""The ``risk`` command: the re-identification (identity-disclosure) risk of a table on its
quasi-identifiers, from :mod:`skyprivacy.risk` (prosecutor, journalist and marketer risk, sample
and population uniqueness, the individual risk of a weighted sample, the riskiest classes)."""

from __future__ import annotations

from fractions import Fraction

from .._core.exact import fraction_text, readable_fraction
from .._core.text import percent_text
from ..errors import EstimatorError, SchemaError, UsageError
from ..io import InputError, read_table, reject_missing, require_columns
from ..risk import (
    class_sizes,
    identity_risk,
    individual_risk,
    journalist_risk,
    marketer_risk,
)
from .context import Context, is_dask, na_values, read_input, read_options
from .shared import EXIT_OK, text_table


def _share(value: Fraction, threshold=None) -> str:
    """An exact share for a sentence: the fraction and its percentage."""
    return f"{readable_fraction(value)} ({percent_text(value, threshold)})"


def _population_table(args, qi: list):
    """The --population table, its errors naming it (not the sample)."""
    try:
        population = read_table(args.population, **read_options(args))
        require_columns(population, qi)
        reject_missing(population, qi, na_values(args))
    except (SchemaError, InputError) as exc:
        message = " ".join(str(exc).split())
        if args.population in message:
            raise
        raise InputError(f"Population table {args.population!r}: {message}") from None
    return population


def cmd_risk(ctx: Context) -> int:
    """``skyprivacy risk``: the identity-disclosure figures of a table."""
    args = ctx.args
    qi = list(args.qi)
    if is_dask(args) and (args.population or args.weights):
        flag = "--population" if args.population else "--weights"
        raise UsageError(f"{flag} needs --engine pandas (the Dask engine computes the "
                         f"count-based measures)")
    if args.weights is not None and args.weights in qi:
        raise UsageError(f"--weights {args.weights} is one of the --qi columns")
    raw = read_input(args)
    require_columns(raw, qi + ([args.weights] if args.weights else []))
    reject_missing(raw, qi, na_values(args))
    try:
        result = identity_risk(raw, qi=qi, threshold=args.threshold, top=args.top,
                               population_size=args.population_size, model=args.model)
    except EstimatorError as exc:  # the sample does not suit the model asked for
        raise InputError(f"Table {args.table!r}: {' '.join(str(exc).split())} Choose another "
                         f"--model, or dankar to let the rule choose.") from None
    figures = result.to_json()
    extra: dict = {}
    if args.population:
        population = _population_table(args, qi)
        try:
            journalist = journalist_risk(raw, qi=qi, population=population)
        except SchemaError as exc:
            raise InputError(f"Population table {args.population!r}: "
                             f"{' '.join(str(exc).split())}") from None
        marketer = marketer_risk(raw, qi=qi, population=population)
        whole = class_sizes(population, qi=qi)
        extra["population_table"] = {
            "path": args.population, "n_records": whole.n_records,
            "n_classes": whole.n_classes,
            "journalist_max": float(journalist.max),
            "journalist_max_exact": fraction_text(journalist.max),
            "journalist_average": float(journalist.average),
            "journalist_average_exact": fraction_text(journalist.average),
            "smallest_population_class": journalist.smallest_population_class,
            "marketer": float(marketer), "marketer_exact": fraction_text(marketer),
            "population_uniqueness": float(Fraction(whole.of_size(1), whole.n_records)),
            "population_uniqueness_exact": fraction_text(Fraction(whole.of_size(1),
                                                                  whole.n_records))}
    if args.weights:
        risks = individual_risk(raw, qi=qi, weights=args.weights)
        extra["individual"] = {"weights": args.weights, "max": float(risks.max()),
                               "mean": float(risks.mean()),
                               "records_above_threshold": None if args.threshold is None
                               else int((risks > float(args.threshold)).sum())}
    if args.format == "json":
        ctx.emit_json({"command": "risk", "engine": args.engine,
                       "table": {"path": args.table, "n_rows": result.prosecutor.n_records},
                       "assumptions": _assumptions(args, figures), **figures, **extra})
    else:
        ctx.emit("\n".join(_text(args, result, figures, extra)))
    return EXIT_OK


def _assumptions(args, figures: dict) -> dict:
    population = figures["population"]
    return {"qi": list(args.qi), "population_size": args.population_size,
            "population_table": args.population, "model": args.model,
            "threshold": figures["threshold_exact"],  # 0.2 as 1/5, as the decimal reads
            "weights": args.weights,
            "statements": [] if population is None else population["assumptions"]}


def _text(args, result, figures: dict, extra: dict) -> list[str]:
    pros = result.prosecutor
    lines = [f"Identity risk of {args.table} on {', '.join(result.qi)}: {pros.n_records:,} "
             f"records in {pros.n_classes:,} classes (smallest {pros.smallest_class:,}).",
             f"Prosecutor risk: max {_share(pros.max)}, average {_share(pros.average)}; "
             f"{pros.records_at_max:,} record(s) at the max."]
    if pros.threshold is not None:
        lines.append(f"Records above the threshold {readable_fraction(pros.threshold)}: "
                     f"{_share(pros.above_threshold)}.")
    lines += [f"Marketer risk: {_share(result.marketer)}.",
              f"Sample uniqueness: {_share(result.sample_uniqueness)} of the records are "
              f"unique in the table."]
    if result.population is not None:
        pop = figures["population"]
        lines.append(f"Population uniqueness (N = {pop['population_size']:,}, sampling fraction "
                     f"{percent_text(result.population.sampling_fraction)}, model "
                     f"{pop['model']}): {pop['share']:.4%} of the population estimated unique "
                     f"({pop['uniques']:,.1f} people).")
        lines += [f"  Assumes: {sentence}" for sentence in pop["assumptions"]]
        journalist = result.journalist
        lines.append(f"Journalist risk (population classes estimated as f N / n): max "
                     f"{_share(journalist.max)}, average {_share(journalist.average)}.")
    if "population_table" in extra:
        table = extra["population_table"]
        lines.append(f"Against the population table {table['path']} ({table['n_records']:,} "
                     f"records): journalist risk max "
                     f"{_share(Fraction(table['journalist_max_exact']))}, average "
                     f"{_share(Fraction(table['journalist_average_exact']))}; marketer risk "
                     f"{_share(Fraction(table['marketer_exact']))}; population uniqueness "
                     f"{_share(Fraction(table['population_uniqueness_exact']))}.")
    if "individual" in extra:
        ind = extra["individual"]
        above = ("" if ind["records_above_threshold"] is None
                 else f"; {ind['records_above_threshold']:,} record(s) above the threshold")
        lines.append(f"Individual risk (weights {ind['weights']}, Benedetti and Franconi 1998): "
                     f"max {ind['max']:.4g}, mean {ind['mean']:.4g}{above}.")
    highest = figures["highest"]
    if highest:
        lines += ["", f"The {len(highest)} highest-risk class(es):", text_table(
            [*result.qi, "records", "risk"],
            [[*(row["values"][c] for c in result.qi), row["class_size"],
              _share(Fraction(row["risk_exact"]))] for row in highest],
            right={len(result.qi)})]
    return lines
