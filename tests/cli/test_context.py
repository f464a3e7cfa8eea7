"""skyprivacy/cli/context.py: one run of a command (its name, notes, output, progress bars on
stderr), reading the table, the Dask session's guard and checking the outputs before any
work is done."""
import io
import json
import os
import sys
from argparse import Namespace
from fractions import Fraction

import pandas as pd
import pytest

from skyprivacy.cli.context import (
    Context,
    EngineSession,
    Progress,
    add_table,
    check_outputs,
    dataset_output,
    distinct_values,
    is_dask,
    na_values,
    read_input,
    run_verification,
    verification_json,
)
from skyprivacy.cli.shared import SCHEMA_VERSION
from skyprivacy.errors import InvalidParameterError, UsageError
from skyprivacy.io import NA_MARKERS, InputError, OutputFiles, table_bytes

from .helpers import RELEASE, exactly, run


def test_progress_bars_go_to_stderr_only_when_asked(work, capsys):
    code, out, err = run(capsys, "find", "released.csv", *RELEASE, "-c", "0.9", "--values",
                         "Sales,Tech-support", "--progress")
    assert code == 0
    assert "\rfinding knowledge skylines [" in err and err.endswith("100%\n")
    assert "[" not in out.splitlines()[0]
    _, _, err = run(capsys, "find", "released.csv", *RELEASE, "-c", "0.9", "--values", "Sales")
    assert err == ""  # not a terminal: no bar by default
    _, _, err = run(capsys, "find", "released.csv", *RELEASE, "-c", "0.9", "--values", "Sales",
                    "--progress", "--quiet")
    assert err == ""



# ------------------------------------------------------------------------------ Progress
def test_a_progress_bar_redraws_only_when_the_percent_changes():
    stream = io.StringIO()
    bar = Progress(stream, "working", True)
    bar(0.5)
    bar(0.501)  # still 50%: nothing drawn
    bar(1.7)    # clamped to 100%
    bar.close()
    assert stream.getvalue() == (f"\rworking [{'#' * 15}{'.' * 15}]  50%"
                                 f"\rworking [{'#' * 30}] 100%\n")


def test_a_progress_bar_clamps_below_zero_and_closes_once():
    stream = io.StringIO()
    bar = Progress(stream, "x", True)
    bar.close()  # nothing drawn yet: no line break either
    bar(-0.2)
    bar.close()
    bar.close()
    assert stream.getvalue() == f"\rx [{'.' * 30}]   0%\n"


def test_a_disabled_progress_bar_writes_nothing():
    stream = io.StringIO()
    bar = Progress(stream, "x", False)
    bar(0.3)
    bar.part(0, 0.5)(1)
    bar.close()
    assert stream.getvalue() == ""


def test_a_part_maps_its_progress_onto_a_stretch_of_the_bar():
    stream = io.StringIO()
    bar = Progress(stream, "x", True)
    second_half = bar.part(0.5, 1.0)
    second_half(0.5)
    assert stream.getvalue().endswith("  75%")
    second_half(1.0)
    assert stream.getvalue().endswith(" 100%")


# ------------------------------------------------------------------------------- Context
class Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("args, name", [
    (Namespace(), "skyprivacy"),
    (Namespace(command="check"), "skyprivacy check"),
    (Namespace(command="transparency", transparency_command="optimize"),
     "skyprivacy transparency optimize"),
    (Namespace(command="transparency", transparency_command=None), "skyprivacy transparency"),
])
def test_the_context_names_the_command(args, name):
    assert Context(args).name == name


@pytest.mark.parametrize("terminal, progress, quiet, shown", [
    (False, None, False, False),  # by default, only on a terminal
    (True, None, False, True),
    (True, False, False, False),  # --no-progress
    (False, True, False, True),   # --progress
    (True, True, True, False),    # --quiet wins
])
def test_when_progress_is_shown(monkeypatch, terminal, progress, quiet, shown):
    monkeypatch.setattr(sys, "stderr", Terminal() if terminal else io.StringIO())
    ctx = Context(Namespace(command="find", progress=progress, quiet=quiet))
    assert ctx.show_progress is shown
    ctx.progress("finding")(1)
    assert sys.stderr.getvalue() == (f"\rfinding [{'#' * 30}] 100%" if shown else "")


def test_notes_go_to_stderr_unless_quiet(capsys):
    Context(Namespace(command="data")).note("wrote a.csv")
    Context(Namespace(command="data", quiet=True)).note("wrote b.csv")
    assert capsys.readouterr() == ("", "skyprivacy data: wrote a.csv\n")


def test_emit_ends_the_text_with_one_line_break(capsys):
    ctx = Context(Namespace(command="find"))
    ctx.emit("one")
    ctx.emit("two\n")
    assert capsys.readouterr() == ("one\ntwo\n", "")


def test_emit_json_opens_with_the_schema_version(capsys):
    Context(Namespace(command="find")).emit_json(
        {"command": "find", "confidence": Fraction(2, 3), "value": "Zürich"})
    out = capsys.readouterr().out
    assert out == ('{\n  "schema_version": 1,\n  "command": "find",\n  "confidence": "2/3",\n'
                   '  "value": "Zürich"\n}\n')
    assert json.loads(out)["schema_version"] == SCHEMA_VERSION


class PipeFile(io.RawIOBase):
    """An unbuffered file whose writes take at most ``chunk`` bytes, as a pipe's write does
    when the reader goes mid-write; once ``limit`` bytes are in, the reader has gone."""

    def __init__(self, chunk: int, limit: int | None = None):
        self.chunk, self.limit, self.data = chunk, limit, bytearray()

    def writable(self):
        return True

    def write(self, b):
        if self.limit is not None and len(self.data) >= self.limit:
            raise BrokenPipeError(32, "Broken pipe")
        taken = bytes(b[:self.chunk])
        self.data += taken
        return len(taken)


def unbuffered_context(raw):
    ctx = Context(Namespace(command="data"))
    # what PYTHONUNBUFFERED=1 makes of stdout: the text layer straight over the raw file
    ctx.stdout = io.TextIOWrapper(raw, encoding="utf-8", write_through=True)
    return ctx


def test_unbuffered_stdout_gets_all_the_text_though_each_write_takes_a_little():
    raw = PipeFile(chunk=5)
    unbuffered_context(raw).emit("age,workclass\n39,State-gov\nZürich")
    assert raw.data.decode("utf-8") == "age,workclass\n39,State-gov\nZürich\n"


def test_unbuffered_stdout_closed_mid_write_raises_broken_pipe():
    raw = PipeFile(chunk=8, limit=8)  # the first write is cut short, then the reader is gone
    with pytest.raises(BrokenPipeError):
        unbuffered_context(raw).write("age,workclass\n39,State-gov\n")
    assert raw.data == b"age,work"


# ------------------------------------------------------------------ reading the table
def test_na_values_are_pandas_markers_unless_given():
    assert na_values(Namespace(na_values=None)) == NA_MARKERS
    assert "NA" in NA_MARKERS
    assert na_values(Namespace(na_values=())) == ()
    assert na_values(Namespace(na_values=("?",))) == ("?",)


def test_is_dask():
    assert is_dask(Namespace(engine="dask"))
    assert not is_dask(Namespace(engine="pandas"))
    assert not is_dask(Namespace())  # the commands without --engine


def test_read_input_reads_the_table_as_text_with_its_separator(tmp_path):
    (tmp_path / "t.csv").write_text("zip;age\n02139;39\n10001;NA\n")
    args = Namespace(table=str(tmp_path / "t.csv"), input_format=None, sep=";",
                     engine="pandas")
    table = read_input(args)
    assert list(table.columns) == ["zip", "age"]
    assert table["zip"].tolist() == ["02139", "10001"]  # leading zeros kept


def test_distinct_values_in_order_of_appearance():
    table = pd.DataFrame({"x": ["b", "a", "b", "c", "a"]})
    assert distinct_values(table, "x") == ["b", "a", "c"]


def test_add_table_stages_the_canonical_csv(tmp_path):
    frame = pd.DataFrame({"age": [39, 50], "sex": ["Male", "Female"]})
    target = tmp_path / "out.csv"
    with OutputFiles() as out:
        add_table(Namespace(engine="pandas"), out, str(target), frame, "csv")
        assert not target.exists()  # staged, not yet in place
        out.commit()
    assert target.read_bytes() == table_bytes(frame, "csv")


# ----------------------------------------------------------------------------- outputs
def test_dataset_output_needs_a_directory_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = Namespace(force=False)
    assert dataset_output(args, "--output", None) is None
    dataset_output(args, "--output", "released")  # new: fine
    dataset_output(args, "--output", "released.parquet")  # a Parquet name: fine
    with pytest.raises(UsageError, match=exactly(
            "with --engine dask, --output is written as a Parquet dataset directory; name it "
            "without the .csv extension (e.g. released/) or use --engine pandas")):
        dataset_output(args, "--output", "released.csv")
    (tmp_path / "afile").write_text("x")
    with pytest.raises(UsageError, match=exactly("--output afile exists and is not a directory")):
        dataset_output(args, "--output", "afile")
    (tmp_path / "adir").mkdir()
    with pytest.raises(UsageError, match=exactly(
            "--output adir already exists; pass --force to replace it")):
        dataset_output(args, "--output", "adir")
    dataset_output(Namespace(force=True), "--output", "adir")


def test_check_outputs_accepts_new_distinct_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    check_outputs(Namespace(force=False), {"--output": "o.csv", "--certificate": None,
                                            "--report": "r.html"}, {"table": "t.csv"})
    assert os.listdir(tmp_path) == []  # the probe of the folder is removed


def test_check_outputs_refuses_to_overwrite_an_input(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError, match=exactly("--report ./p.toml would overwrite the input "
                                                 "--policy")):
        check_outputs(Namespace(force=True), {"--report": "./p.toml"},
                      {"table": "t.csv", "--policy": "p.toml"})


def test_check_outputs_refuses_two_outputs_in_one_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError, match=exactly("--output and --labels name the same file "
                                                 "o.json")):
        check_outputs(Namespace(), {"--output": "o.json", "--labels": "o.json"}, {})


def test_check_outputs_replaces_a_file_only_with_force(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "o.csv").write_text("old")
    with pytest.raises(UsageError, match=exactly("--output o.csv already exists; pass --force "
                                                 "to replace it")):
        check_outputs(Namespace(force=False), {"--output": "o.csv"}, {})
    check_outputs(Namespace(force=True), {"--output": "o.csv"}, {})
    assert (tmp_path / "o.csv").read_text() == "old"  # checked, not touched


def test_check_outputs_checks_the_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match=exactly(
            f"Cannot write 'nowhere/c.json': the folder {str(tmp_path / 'nowhere')!r} does "
            f"not exist.")):
        check_outputs(Namespace(), {"--certificate": "nowhere/c.json"}, {})


# ------------------------------------------------------------------- the engine session
def test_the_pandas_engine_needs_no_session():
    with EngineSession(Namespace(engine="pandas", scheduler=None)) as session:
        assert session.client is None and session.cluster is None
    with EngineSession(Namespace()) as session:  # a command without --engine
        assert session.client is None


def test_a_scheduler_needs_the_dask_engine():
    with pytest.raises(UsageError, match=exactly("--scheduler needs --engine dask")):
        with EngineSession(Namespace(engine="pandas", scheduler="tcp://host:8786")):
            pass


# ------------------------------------------------------------------------ verification
def test_run_verification_passes_its_inputs_through():
    def verify(*inputs, **options):
        return inputs, options

    assert run_verification(Namespace(certificate="c.json"), verify, 1, 2, labels=b"x") == \
        ((1, 2), {"labels": b"x"})


def test_a_malformed_certificate_is_an_input_error_naming_it():
    def verify(*inputs, **options):
        raise InvalidParameterError("The certificate is malformed: missing field(s) ['checks'].")

    with pytest.raises(InputError, match=exactly(
            "Certificate 'c.json': The certificate is malformed: missing field(s) "
            "['checks'].")):
        run_verification(Namespace(certificate="c.json"), verify)


def test_verification_json():
    verification = Namespace(ok=False, differences=("one", "two"))
    args = Namespace(table="t.csv")
    assert verification_json("verify", verification, args, {"table": {"sha256": "ab12"}}) == {
        "command": "verify", "verified": False, "differences": ["one", "two"],
        "table": {"path": "t.csv", "sha256": "ab12"}}
