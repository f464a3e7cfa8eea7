"""The Dask cases of the bad-input catalogue (issue "Nothing released unexamined", item 5 and
acceptance): a partitioned Parquet table with one corrupt, truncated, empty, schema-mismatched
or column-missing part, fed to every command with ``--engine dask`` through the installed
console script, on a LocalCluster started here (its scheduler on a local TCP port, which each
script reaches with ``--scheduler``).  Each ends in exit 3 with one stderr line naming the part
and the problem, nothing on stdout, nothing written and every part unchanged; never a worker's
traceback or "internal error, please report"."""
import shutil

import pytest
from distributed import LocalCluster

from skyprivacy.cli import main
from test_bad_inputs_catalogue import assert_outcome, refused, run_scripts

from .test_bad_parts import FAULTS, TABLE

PART = "table/part.1.parquet"
RELEASE = ["--qi", "zip", "--sensitive", "dx"]
COMMANDS = {
    "check": ["check", "table", *RELEASE, "--policy", "policy.toml", "--certificate",
              "out.json"],
    "anonymize": ["anonymize", "table", *RELEASE, "--policy", "policy.toml", "--output", "out",
                  "--certificate", "out.json"],
    "verify": ["verify", "table", "--certificate", "cert.json"],
    "find": ["find", "table", *RELEASE, "--confidence", "0.9", "--output", "out.csv"],
    "compare": ["compare", "table", *RELEASE, "--k-anonymity", "2"],
    "risk": ["risk", "table", "--qi", "zip"],
}
#: command -> the faults it gets (check every one; the others a footer fault and a data fault)
FAULTS_OF = {
    "check": list(FAULTS),
    "anonymize": ["an empty part", "a part lacking a column", "corrupt data pages"],
    "verify": ["a truncated part", "corrupt data pages"],
    "find": ["corrupt data pages"],
    "compare": ["a part that is text"],
    "risk": ["a part with another column"],
}
CASES = {f"{command}: {fault}": (command, fault)
         for command, faults in FAULTS_OF.items() for fault in faults}


@pytest.fixture(scope="module")
def scheduler():
    """A LocalCluster the console scripts reach over TCP (threads in this process)."""
    cluster = LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                           protocol="tcp://", host="127.0.0.1", dashboard_address=None,
                           silence_logs=50)
    yield cluster.scheduler_address
    cluster.close()


@pytest.fixture(scope="module")
def good_parts(tmp_path_factory, scheduler):
    """Three good parts, a policy, and a certificate of the parts made on the cluster."""
    folder = tmp_path_factory.mktemp("parts")
    (folder / "table").mkdir()
    for i in range(3):
        TABLE.iloc[2 * i:2 * i + 2].to_parquet(folder / "table" / f"part.{i}.parquet",
                                               index=False)
    (folder / "policy.toml").write_text("[default]\nskyline = [[0, 0, 0, 0.9]]\n")
    assert main(["check", str(folder / "table"), *RELEASE, "--policy",
                 str(folder / "policy.toml"), "--engine", "dask", "--scheduler", scheduler,
                 "--certificate", str(folder / "cert.json"), "-q"]) == 0
    return folder


@pytest.fixture(scope="module")
def outcomes(request, good_parts, scheduler, tmp_path_factory):
    wanted = [item.callspec.params["name"] for item in request.session.items
              if getattr(item, "originalname", None) == "test_a_bad_part_on_the_console_script"
              and item.module is request.module]
    cases, folders = {}, {}
    for name in wanted:
        command, fault = CASES[name]
        folder = tmp_path_factory.mktemp("case")
        shutil.copytree(good_parts, folder, dirs_exist_ok=True)
        FAULTS[fault][0](folder / PART)
        folders[name] = folder
        cases[name] = refused({}, [*COMMANDS[command], "--engine", "dask", "--scheduler",
                                   scheduler], "part.1.parquet", FAULTS[fault][1])
    return cases, run_scripts(cases, folders)


def test_every_command_with_an_engine_gets_a_bad_part():
    assert set(FAULTS_OF) == set(COMMANDS)
    assert len(CASES) >= 15


@pytest.mark.parametrize("name", list(CASES))
def test_a_bad_part_on_the_console_script(outcomes, name):
    cases, results = outcomes
    assert_outcome(cases[name], results[name])


def _bad_byte_parts(folder) -> None:
    """Three CSV parts of 2,000 rows; part 1 holds a cp1252 byte on its line 1,502."""
    (folder / "csv").mkdir()
    for i in range(3):
        rows = [f"{j % 7}*,{'flu' if j % 3 else 'hiv'}".encode() for j in range(2000)]
        if i == 1:
            rows[1500] = b"1\xe9*,flu"
        (folder / "csv" / f"part.{i}.csv").write_bytes(b"zip,dx\n" + b"\n".join(rows) + b"\n")
    (folder / "policy.toml").write_text("[default]\nskyline = [[0, 0, 0, 0.9]]\n")


@pytest.mark.parametrize("command", ["check", "verify"])
def test_a_bad_byte_deep_in_one_csv_part_names_the_part_and_its_line(
        command, scheduler, tmp_path):
    _bad_byte_parts(tmp_path)
    argv = {"check": ["check", "csv/part.*.csv", *RELEASE, "--policy", "policy.toml",
                      "--certificate", "out.json"],
            # verify reads one partition per file
            "verify": ["verify", "csv/part.*.csv", "--certificate", "policy.toml"]}[command]
    case = refused({}, [*argv, "--engine", "dask", "--scheduler", scheduler],
                   "Table 'csv/part.1.csv' is not UTF-8 text: byte 0xe9 at line 1502, byte 2; "
                   "pass --encoding cp1252", "")
    if command == "verify":  # a certificate that reads: the table is read next
        assert main(["check", str(tmp_path / "csv" / "part.0.csv"), *RELEASE, "--policy",
                     str(tmp_path / "policy.toml"), "--certificate",
                     str(tmp_path / "cert.json"), "-q"]) == 0
        case = refused({}, [*argv[:3], "cert.json", "--engine", "dask", "--scheduler",
                            scheduler], case.named, "")
    outcome = run_scripts({command: case}, {command: tmp_path})[command]
    assert_outcome(case, outcome)
