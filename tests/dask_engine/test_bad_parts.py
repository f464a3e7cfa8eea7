"""A partitioned Parquet table with one bad part, on the Dask engine (issue "Nothing released
unexamined", item 5): every fault ends in exit 3 with one line naming the part and the problem,
writes nothing and leaves the parts unchanged; never a worker's traceback or "internal error".
A part whose footer is bad is refused before any work is scheduled; a part whose footer is fine
but whose data is corrupt is refused by the worker that reads it."""
import hashlib
import os

import pandas as pd
import pytest

from skyprivacy.cli import main

TABLE = pd.DataFrame({"zip": ["1", "2", "1", "2", "1", "2"],
                      "dx": ["flu", "cold", "flu", "hiv", "cold", "flu"]})


def _corrupt_data(path) -> None:
    """Overwrite the bytes between the header and the footer (the data pages) with garbage,
    keeping the file's size, its magic bytes and its footer."""
    data = bytearray(path.read_bytes())
    footer = int.from_bytes(data[-8:-4], "little") + 8
    for i in range(4, len(data) - footer):
        data[i] = 0xFF
    path.write_bytes(bytes(data))


FAULTS = {
    "an empty part": (lambda p: p.write_bytes(b""), "is not a readable Parquet file"),
    "a truncated part": (lambda p: p.write_bytes(p.read_bytes()[:len(p.read_bytes()) // 2]),
                         "is not a readable Parquet file"),
    "a part that is text": (lambda p: p.write_text("zip,dx\n1,flu\n"),
                            "is not a readable Parquet file"),
    "a part lacking a column": (
        lambda p: TABLE[["zip"]].iloc[2:4].to_parquet(p, index=False),
        "lacks the column(s) ['dx'] (the first part, "),
    "a part with another column": (
        lambda p: TABLE.iloc[2:4].assign(extra="x").to_parquet(p, index=False),
        "has the extra column(s) ['extra']"),
    "a part with the columns renamed": (
        lambda p: TABLE.iloc[2:4].rename(columns={"dx": "DX"}).to_parquet(p, index=False),
        "lacks the column(s) ['dx']"),
    "corrupt data pages": (_corrupt_data, "is not a readable Parquet file"),
}


def _digest(folder) -> dict:
    return {name: hashlib.sha256((folder / name).read_bytes()).hexdigest()
            for name in sorted(os.listdir(folder))}


@pytest.fixture
def parts(tmp_path):
    folder = tmp_path / "table"
    folder.mkdir()
    for i in range(3):
        TABLE.iloc[2 * i:2 * i + 2].to_parquet(folder / f"part.{i}.parquet", index=False)
    (tmp_path / "policy.toml").write_text("[default]\nskyline = [[0, 0, 0, 0.9]]\n")
    return folder


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("command", ["check", "anonymize"])
def test_a_bad_part_is_one_line_naming_it(client, parts, capsys, fault, command):
    damage, says = FAULTS[fault]
    damage(parts / "part.1.parquet")
    before = _digest(parts)
    out = parts.parent / "out"
    argv = [command, str(parts), "--qi", "zip", "--sensitive", "dx", "--policy",
            str(parts.parent / "policy.toml"), "--engine", "dask", "--certificate",
            str(out) + ".json"]
    if command == "anonymize":
        argv += ["--output", str(out)]
    assert main(argv) == 3
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert "part.1.parquet" in err and says in err, err
    assert "internal error" not in err and "Traceback" not in err
    assert not os.path.exists(out) and not os.path.exists(str(out) + ".json")
    assert _digest(parts) == before


def test_verify_on_the_dask_engine_names_a_corrupted_part(client, parts, capsys):
    certificate = parts.parent / "cert.json"
    policy = str(parts.parent / "policy.toml")
    assert main(["check", str(parts), "--qi", "zip", "--sensitive", "dx", "--policy", policy,
                 "--engine", "dask", "--certificate", str(certificate), "-q"]) == 0
    _corrupt_data(parts / "part.2.parquet")
    capsys.readouterr()
    assert main(["verify", str(parts), "--certificate", str(certificate), "--engine",
                 "dask"]) == 3
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert "part.2.parquet" in err and "is not a readable Parquet file" in err, err
