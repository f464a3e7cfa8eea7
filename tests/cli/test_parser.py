"""skyprivacy/cli/parser.py: the argument parser of the ``skyprivacy`` command, its
subcommands, options, defaults and one-line usage errors."""
import re
from fractions import Fraction

import pytest

from skyprivacy import __version__
from skyprivacy.cli.data_commands import cmd_data
from skyprivacy.cli.parser import build_parser
from skyprivacy.cli.release_commands import (
    cmd_anonymize,
    cmd_check,
    cmd_compare,
    cmd_find,
    cmd_verify,
)
from skyprivacy.cli.transparency_commands import (
    cmd_transparency_check,
    cmd_transparency_optimize,
    cmd_transparency_verify,
)

from .helpers import run, ORIGINAL


def test_python_dash_m_parser_is_named_skyprivacy(capsys):
    assert run(capsys, "--version") == (0, f"skyprivacy {__version__}\n", "")
    code, out, _ = run(capsys, "--help")
    assert code == 0 and out.startswith("usage: skyprivacy ")
    assert "exit codes:\n  0  safe / done" in out and "3  input error" in out
    for command in ("check", "anonymize", "find", "compare", "verify", "transparency", "data"):
        assert command in out


def test_compare_needs_one_baseline(work, capsys):
    code, _, err = run(capsys, "compare", "adult.csv", *ORIGINAL)
    assert code == 2
    assert "one of the arguments --k-anonymity --l-diversity is required" in err
    code, _, err = run(capsys, "compare", "adult.csv", *ORIGINAL, "--k-anonymity", "1")
    assert code == 2 and "argument --k-anonymity: must be at least 2, got 1" in err



TABLE = ["--input-format", "--sep", "--encoding", "--na-values"]
COMMON = ["--format", "--progress", "--no-progress", "-q", "--quiet", "--force"]
ENGINE = ["--engine", "--scheduler"]
REPORT = ["--report", "--report-confidence", "--report-values", "--report-images"]
HIERARCHY = ["--hierarchy", "--hierarchy-sep", "--categorical", "--numeric", "--split",
             "--order", "--label-length"]
RULE = ["--public", "--sensitive", "--weight", "--decision", "--exact", "--certificate",
        "--report"]
# every subcommand: the options its --help must name, and some its usage must not
OPTIONS = {
    ("check",): (TABLE + COMMON + ENGINE + REPORT + [
        "--qi", "--group", "--individual", "--sensitive", "--semantics", "--policy",
        "--certificate"], ["--output", "--hierarchy", "--confidence"]),
    ("anonymize",): (TABLE + COMMON + ENGINE + REPORT + HIERARCHY + [
        "--qi", "--sensitive", "--semantics", "--policy", "--output", "--output-format",
        "--certificate", "--labels", "--bucketized", "--group-column", "--random-state",
        "--individual"], ["--group", "--confidence"]),
    ("find",): (TABLE + COMMON + ENGINE + [
        "--qi", "--group", "--individual", "--sensitive", "--semantics", "-c", "--confidence",
        "--values", "--top", "--output"], ["--policy", "--report", "--hierarchy"]),
    ("compare",): (TABLE + COMMON + ENGINE + HIERARCHY + [
        "--qi", "--sensitive", "--semantics", "--k-anonymity", "--l-diversity",
        "--diversity-c", "--confidence", "--values", "--output", "--labels"],
        ["--group", "--policy", "--report", "--certificate"]),
    ("verify",): (TABLE + COMMON + ENGINE + ["--certificate", "--labels", "--qi", "--sensitive",
                                             "--policy", "--public-key", "--require-safe"],
                  ["--group", "--semantics", "--output"]),
    ("transparency", "check"): (TABLE + COMMON + RULE + ["--announced", "--beta", "--gamma"],
                                ["--engine", "--delta", "--alpha", "--output"]),
    ("transparency", "optimize"): (TABLE + COMMON + RULE + ["--delta", "--alpha", "--output"],
                                   ["--engine", "--beta", "--gamma", "--announced"]),
    ("transparency", "verify"): (TABLE + COMMON + ["--rule", "--certificate"],
                                 ["--engine", "--public", "--beta", "--report"]),
    ("keygen",): (["--public", "--progress", "--no-progress", "-q", "--quiet", "--force"],
                  ["--format", "--engine", "--sep"]),
    ("data",): (["--output", "--sample", "--random-state", "--progress", "--no-progress",
                 "-q", "--quiet", "--force"], ["--format", "--engine", "--sep"]),
}


def names(option, text):
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text) is not None


@pytest.mark.parametrize("command", OPTIONS, ids=" ".join)
def test_every_subcommand_help_exits_0_and_names_its_options(capsys, command):
    code, out, err = run(capsys, *command, "--help")
    assert code == 0 and err == ""
    assert out.startswith(f"usage: skyprivacy {' '.join(command)} [-h]")
    assert "exit codes:\n  0  safe / done" in out  # every subcommand has the epilog
    present, absent = OPTIONS[command]
    assert [o for o in present if not names(o, out)] == []
    usage = out.split("\n\n", 1)[0]  # help texts may mention other commands' options
    assert [o for o in absent if names(o, usage)] == []


def test_transparency_help_lists_its_actions(capsys):
    code, out, _ = run(capsys, "transparency", "--help")
    assert code == 0 and out.startswith("usage: skyprivacy transparency [-h] ACTION ...")
    for action in ("verify", "check", "optimize"):
        assert re.search(rf"^\s+{action}\s+\S", out, re.MULTILINE), action


def parse(*argv):
    return build_parser().parse_args(list(argv))


def test_the_release_options_default_as_documented():
    args = parse("check", "t.csv", "--qi", "age,sex", "--sensitive", "occupation", "--policy",
                 "p.toml")
    assert args.command == "check" and args.table == "t.csv"
    assert args.qi == ["age", "sex"] and args.group is None and args.individual is None
    assert args.semantics == "svpi" and args.format == "text"
    assert args.engine == "pandas" and args.scheduler is None
    assert args.progress is None  # decided by the terminal, see test_context.py
    assert args.quiet is False and args.force is False
    assert args.input_format is None and args.sep is None and args.na_values is None
    assert args.certificate is None and args.report is None
    assert args.report_values == 4 and args.report_images == "svg"
    assert args.report_confidence is None


def test_the_anonymize_options_default_as_documented():
    args = parse("anonymize", "t.csv", "--qi", "age", "--sensitive", "occupation", "--policy",
                 "p.toml", "--output", "o.csv")
    assert args.output == "o.csv" and args.output_format is None
    assert args.certificate is None and args.labels is None  # named after --output later
    assert args.hierarchy == [] and args.hierarchy_sep == ";" and args.order == []
    assert args.categorical == [] and args.numeric == []
    assert args.split is None  # infogain for a policy, widest for k-anonymity
    assert args.label_length == 80  # docs/cli.md: "(default 80)"
    assert args.bucketized is False and args.group_column == "group"
    assert args.random_state is None


def test_the_find_compare_and_data_options_default_as_documented():
    args = parse("find", "t.csv", "--group", "g", "--sensitive", "s", "-c", "2/3")
    assert args.group == "g" and args.qi is None
    assert args.confidence == Fraction(2, 3) and args.top == 3 and args.values is None
    args = parse("compare", "t.csv", "--qi", "age", "--sensitive", "s", "--k-anonymity", "5")
    assert args.k_anonymity == 5 and args.l_diversity is None
    assert args.diversity_c == 3 and args.confidence == 0.9
    args = parse("data", "adult")
    assert args.dataset == "adult" and args.attribute is None and args.output is None
    assert args.sample is None and args.random_state == 0
    args = parse("transparency", "check", "d.csv", "--public", "g", "--sensitive", "i",
                 "--weight", "w", "--decision", "d", "--gamma", "0.5")
    assert args.transparency_command == "check" and args.gamma == 0.5 and args.beta is None
    assert args.announced is None and args.exact is False


def test_repeatable_options_collect_every_use():
    args = parse("anonymize", "t.csv", "--qi", "age,zip", "--sensitive", "s", "--policy", "p",
                 "--output", "o.csv", "--hierarchy", "age=intervals:10", "--hierarchy",
                 "zip=mask:2", "--order", "first", "--order", "zip=1,2")
    assert args.hierarchy == [("age", "intervals:10"), ("zip", "mask:2")]
    assert args.order == [(None, "first"), ("zip", ("1", "2"))]


@pytest.mark.parametrize("argv, handler", [
    (["check", "t", "--qi", "a", "--sensitive", "s", "--policy", "p"], cmd_check),
    (["anonymize", "t", "--qi", "a", "--sensitive", "s", "--policy", "p", "--output", "o"],
     cmd_anonymize),
    (["find", "t", "--qi", "a", "--sensitive", "s", "-c", "1"], cmd_find),
    (["compare", "t", "--qi", "a", "--sensitive", "s", "--l-diversity", "2"], cmd_compare),
    (["verify", "t", "--certificate", "c"], cmd_verify),
    (["transparency", "check", "t", "--public", "p", "--sensitive", "s", "--weight", "w",
      "--decision", "d", "--beta", "1"], cmd_transparency_check),
    (["transparency", "optimize", "t", "--public", "p", "--sensitive", "s", "--weight", "w",
      "--decision", "d", "--delta", "1"], cmd_transparency_optimize),
    (["transparency", "verify", "t", "--certificate", "c"], cmd_transparency_verify),
    (["data", "adult"], cmd_data),
])
def test_each_subcommand_runs_its_handler(argv, handler):
    assert parse(*argv).handler is handler


def test_no_command_leaves_no_handler():
    assert getattr(parse(), "handler", None) is None
    args = parse("transparency")
    assert args.handler is None and args.subparser.prog == "skyprivacy transparency"


@pytest.mark.parametrize("argv, message", [
    (["find", "t", "--qi", "a", "--sensitive", "s"],
     "skyprivacy find: error: the following arguments are required: -c/--confidence (see "
     "skyprivacy find --help)"),
    (["check", "t", "--qi", "a", "--sensitive", "s", "--policy", "p", "--report-values", "-1"],
     "skyprivacy check: error: argument --report-values: must be at least 0, got -1 (see "
     "skyprivacy check --help)"),
    (["transparency", "optimize", "t", "--public", "p", "--sensitive", "s", "--weight", "w",
      "--decision", "d", "--delta", "0.5", "--alpha", "0.5"],
     "skyprivacy transparency optimize: error: argument --alpha: not allowed with argument "
     "--delta (see skyprivacy transparency optimize --help)"),
    (["transparency", "check", "t", "--public", "p", "--sensitive", "s", "--weight", "w",
      "--decision", "d", "--gamma", "-1"],
     "skyprivacy transparency check: error: argument --gamma: must be a finite number >= 0, "
     "got '-1' (see skyprivacy transparency check --help)"),
    (["data", "adult", "--sample", "0"],
     "skyprivacy data: error: argument --sample: must be at least 1, got 0 (see skyprivacy "
     "data --help)"),
    (["verify", "t", "--certificate", "c", "--sep", "ab"],
     "skyprivacy verify: error: argument --sep: must be one character other than a quote or "
     "a line break (or 'tab'); got 'ab' (see skyprivacy verify --help)"),
    (["anonymize", "t", "--qi", "a", "--sensitive", "s", "--policy", "p"],
     "skyprivacy anonymize: error: the following arguments are required: --output (see "
     "skyprivacy anonymize --help)"),
])
def test_a_usage_error_is_one_line_on_stderr_and_exits_2(capsys, argv, message):
    with pytest.raises(SystemExit) as exit_:
        parse(*argv)
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == message + "\n"  # no usage block
