"""The command line with --engine dask: a Parquet dataset directory in and out, the same
release and verdicts as the pandas engine, a partitioned certificate that verify recomputes,
and nothing written when a run fails."""
import json
import os

import dask
import pandas as pd
import pytest

from skyprivacy.cli import main
from skyprivacy.datasets import load_adult

QI = "age,sex,race,education"
ADULT = list(load_adult().columns)
#: every other column of Adult left out of the release (every column is classified)
OTHERS = ["--drop", ",".join(c for c in ADULT if c not in QI.split(",") + ["occupation"])]
OTHERS3 = ["--drop", ",".join(c for c in ADULT if c not in ["age", "sex", "race", "occupation"])]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("dask-cli")
    adult = load_adult().head(3000)
    os.mkdir(folder / "adult")
    for i in range(3):  # a dataset of three files, read one partition per file
        adult.iloc[i * 1000:(i + 1) * 1000].to_parquet(folder / "adult" / f"part{i}.parquet",
                                                       index=False)
    adult.to_csv(folder / "adult.csv", index=False)
    (folder / "policy.toml").write_text("[default]\nskyline = [[1, 5, 1, 0.9]]\n")
    return folder


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def dask_args(client):
    return ["--engine", "dask", "--scheduler", client.scheduler.address]


def read_dataset(folder) -> pd.DataFrame:
    names = sorted(os.listdir(folder))
    return pd.concat([pd.read_parquet(folder / n) for n in names], ignore_index=True)


def test_anonymize_a_parquet_directory_then_verify_check_and_find(client, files, capsys):
    out = files / "released"
    code, text, err = run(capsys, "anonymize", files / "adult", "--qi", QI, *OTHERS,
                          "--sensitive", "occupation", "--policy", files / "policy.toml",
                          "--hierarchy", "education=bundled:adult", "--format", "json",
                          "--output", out, *dask_args(client))
    assert code == 0, err
    result = json.loads(text)
    assert sorted(os.listdir(out)) == [f"part.{i:05d}.parquet" for i in range(3)]
    certificate = json.loads((files / "released.cert.json").read_text())
    assert certificate["table"]["canonical_form"] == "skyprivacy-csv-partitioned-1"
    assert certificate["table"]["n_partitions"] == 3 and certificate["table"]["n_rows"] == 3000
    assert result["certificate"] == certificate
    # the pandas engine releases the same cells from the same rows
    code, _, err = run(capsys, "anonymize", files / "adult.csv", "--qi", QI, *OTHERS, "--sensitive",
                       "occupation", "--policy", files / "policy.toml", "--hierarchy",
                       "education=bundled:adult", "--output", files / "released.csv",
                       "--certificate", files / "pandas.cert.json", "-q")
    assert code == 0, err
    expected = pd.read_csv(files / "released.csv", dtype=str, keep_default_na=False)
    assert (read_dataset(out).to_numpy() == expected.to_numpy()).all()
    pandas_certificate = json.loads((files / "pandas.cert.json").read_text())
    code, text, _ = run(capsys, "verify", out, "--certificate", files / "released.cert.json",
                        *dask_args(client))
    assert code == 0 and text.startswith("VERIFIED")
    code, text, _ = run(capsys, "check", out, "--qi", QI, "--sensitive", "occupation",
                        "--policy", files / "policy.toml", "--format", "json",
                        *dask_args(client))
    assert code == 0
    checked = json.loads(text)
    assert checked["certificate"]["checks"] == certificate["checks"]
    assert checked["table"]["sha256"] == certificate["table"]["sha256"]
    code, text, _ = run(capsys, "find", out, "--qi", QI, "--sensitive", "occupation",
                        "-c", "0.9", "--format", "json", *dask_args(client))
    code_pandas, text_pandas, _ = run(capsys, "find", files / "released.csv", "--qi", QI,
                                      "--sensitive", "occupation", "-c", "0.9",
                                      "--format", "json")
    assert code == code_pandas == 0
    assert json.loads(text)["skylines"] == json.loads(text_pandas)["skylines"]
    assert pandas_certificate["checks"] == certificate["checks"]


def test_verify_notices_a_changed_partition(client, files, capsys, tmp_path):
    out = tmp_path / "released"
    code, _, err = run(capsys, "anonymize", files / "adult", "--qi", QI, *OTHERS, "--sensitive",
                       "occupation", "--policy", files / "policy.toml", "--output", out,
                       "--certificate", tmp_path / "cert.json", "-q", *dask_args(client))
    assert code == 0, err
    part = pd.read_parquet(out / "part.00001.parquet")
    part.loc[0, "occupation"] = "Sales" if part.loc[0, "occupation"] != "Sales" else "Tech-support"
    part.to_parquet(out / "part.00001.parquet", index=False)
    code, text, err = run(capsys, "verify", out, "--certificate", tmp_path / "cert.json",
                          *dask_args(client))
    assert code == 1
    assert "The table does not match the certificate: its SHA-256 is" in err


def test_compare_writes_a_dataset_and_globs_read_csv(client, files, capsys, tmp_path):
    code, text, err = run(capsys, "compare", str(files / "adult.csv").replace(".csv", ".c*v"),
                          "--qi", "age,sex,race", *OTHERS3, "--sensitive", "occupation",
                          "--k-anonymity", "10", "--output", tmp_path / "cmp", "--format",
                          "json", *dask_args(client))
    assert code == 0, err
    pandas_code, pandas_text, _ = run(capsys, "compare", files / "adult.csv", "--qi",
                                      "age,sex,race", *OTHERS3, "--sensitive", "occupation",
                                      "--k-anonymity", "10", "--format", "json")
    assert json.loads(text) == json.loads(pandas_text)
    assert os.listdir(tmp_path / "cmp") == ["part.00000.parquet"]


def test_failed_runs_leave_nothing_behind(client, files, capsys, tmp_path):
    (tmp_path / "strict.toml").write_text("[default]\nskyline = [[0, 0, 0, 0.01]]\n")
    code, _, err = run(capsys, "anonymize", files / "adult", "--qi", QI, *OTHERS, "--sensitive",
                       "occupation", "--policy", tmp_path / "strict.toml", "--output",
                       tmp_path / "out", *dask_args(client))
    assert code == 1 and "infeasible" in err
    assert os.listdir(tmp_path) == ["strict.toml"]
    code, _, err = run(capsys, "anonymize", files / "adult", "--qi", "age,height",
                       "--sensitive", "occupation", "--policy", files / "policy.toml",
                       "--output", tmp_path / "out", *dask_args(client))
    assert code == 3 and "Column 'height' is not in the table" in err
    assert os.listdir(tmp_path) == ["strict.toml"]


@pytest.mark.parametrize("argv, message", [
    (["--output", "{tmp}/out.csv"], "with --engine dask, --output is written as a Parquet "
                                    "dataset directory; name it without the .csv extension"),
    (["--output", "{tmp}"], "already exists; pass --force to replace it"),
    (["--output", "{tmp}/out", "--engine", "pandas"], "--scheduler needs --engine dask"),
])
def test_usage_errors(client, files, capsys, tmp_path, argv, message):
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    code, _, err = run(capsys, "anonymize", files / "adult", "--qi", QI, *OTHERS, "--sensitive",
                       "occupation", "--policy", files / "policy.toml",
                       "--certificate", tmp_path / "c.json", *dask_args(client), *argv)
    assert code == 2 and message in err


def test_input_errors(client, files, capsys, tmp_path):
    code, _, err = run(capsys, "check", tmp_path / "nothing*.parquet", "--qi", QI,
                       "--sensitive", "occupation", "--policy", files / "policy.toml",
                       *dask_args(client))
    assert code == 3 and "no file matches" in err
    os.mkdir(tmp_path / "empty")
    code, _, err = run(capsys, "check", tmp_path / "empty", "--qi", QI, "--sensitive",
                       "occupation", "--policy", files / "policy.toml", *dask_args(client))
    assert code == 3 and "the directory holds no Parquet files" in err
    frame = load_adult().head(20).astype(str)
    frame.loc[7, "race"] = "NA"
    os.mkdir(tmp_path / "holes")
    frame.iloc[:10].to_parquet(tmp_path / "holes" / "a.parquet", index=False)
    frame.iloc[10:].to_parquet(tmp_path / "holes" / "b.parquet", index=False)
    expected_code, _, expected_err = run(capsys, "check", tmp_path / "holes" / "a.parquet",
                                         "--qi", QI, "--sensitive", "occupation", "--policy",
                                         files / "policy.toml")
    code, _, err = run(capsys, "check", tmp_path / "holes", "--qi", QI, "--sensitive",
                       "occupation", "--policy", files / "policy.toml", *dask_args(client))
    assert code == expected_code == 3
    assert err.split(": ", 2)[2] == expected_err.split(": ", 2)[2].replace(
        str(tmp_path / "holes" / "a.parquet"), str(tmp_path / "holes"))
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        code, _, err = run(capsys, "check", files / "adult", "--qi", QI, "--sensitive",
                           "occupation", "--policy", files / "policy.toml", "--engine", "dask",
                           "--scheduler", "tcp://127.0.0.1:1")
    assert code == 4 and "Cannot reach the Dask scheduler at 'tcp://127.0.0.1:1'" in err


def test_a_directory_output_is_all_or_nothing(tmp_path):
    from skyprivacy.io import OutputFiles

    def broken(folder):
        (tmp_path / "seen").write_text(folder)
        with open(os.path.join(folder, "part.00000.parquet"), "wb") as stream:
            stream.write(b"half")
        raise RuntimeError("a worker died while writing")

    with pytest.raises(RuntimeError), OutputFiles() as out:
        out.add_directory(tmp_path / "released", broken)
    assert sorted(os.listdir(tmp_path)) == ["seen"]  # the staged folder is gone
    (tmp_path / "released").mkdir()
    (tmp_path / "released" / "part.00000.parquet").write_text("old")
    with OutputFiles() as out:
        out.add_directory(tmp_path / "released",
                          lambda folder: open(os.path.join(folder, "part.new"), "w").close())
        assert out.commit() == [str(tmp_path / "released")]
    assert os.listdir(tmp_path / "released") == ["part.new"]
    assert sorted(os.listdir(tmp_path)) == ["released", "seen"]  # nothing left aside


@pytest.mark.parametrize("method", ["mondrian", "full-domain"])
def test_anonymize_under_criteria_on_dask_releases_what_pandas_does(client, files, capsys,
                                                                     tmp_path, method):
    """Criteria from a policy file's [criteria] section and a flag, a 1% suppression budget:
    the dask engine writes a dataset with the pandas engine's cells and the same record of
    the anonymization, and verify recomputes it."""
    (tmp_path / "crit.toml").write_text('[criteria]\nl-diversity = "distinct:2"\n')
    common = ["--qi", QI, "--sensitive", "occupation", "--policy", tmp_path / "crit.toml",
              "--k", "5", "--hierarchy", "bundled:adult", "--method", method,
              "--suppression-limit", "1%", "--format", "json", *OTHERS]
    code, text, err = run(capsys, "anonymize", files / "adult", *common, "--output",
                          tmp_path / "released", *dask_args(client))
    assert code == 0, err
    on_dask = json.loads(text)
    code, text, err = run(capsys, "anonymize", files / "adult.csv", *common, "--output",
                          tmp_path / "released.csv", "--certificate", tmp_path / "pd.json")
    assert code == 0, err
    on_pandas = json.loads(text)
    assert on_dask["suppression"]["n_suppressed"] == on_pandas["suppression"]["n_suppressed"] > 0
    assert on_dask["levels"] == on_pandas["levels"]
    assert on_dask["criteria"] == on_pandas["criteria"]
    assert on_dask["certificate"]["anonymization"] == on_pandas["certificate"]["anonymization"]
    assert on_dask["certificate"]["table"]["canonical_form"] == "skyprivacy-csv-partitioned-1"
    expected = pd.read_csv(tmp_path / "released.csv", dtype=str, keep_default_na=False)
    released = read_dataset(tmp_path / "released").astype(str)
    assert released.shape == expected.shape
    assert (released.to_numpy() == expected.to_numpy()).all()
    code, text, err = run(capsys, "verify", tmp_path / "released", "--certificate",
                          tmp_path / "released.cert.json", *dask_args(client))
    assert code == 0 and text.startswith("VERIFIED"), err


def _people(n_people: int = 60) -> pd.DataFrame:
    """One row per person and diagnosis: 1-3 rows a person, a person's rows apart."""
    import numpy as np

    rng = np.random.default_rng(7)
    rows = []
    for p in range(n_people):
        zip_, age = f"{10 + p % 9}", str(20 + (p * 7) % 40)
        for dx in rng.choice(["flu", "cold", "hiv", "gout", "acne"], size=1 + p % 3,
                             replace=False):
            rows.append((f"p{p}", zip_, age, dx))
    order = rng.permutation(len(rows))
    return pd.DataFrame([rows[i] for i in order], columns=["pid", "zip", "age", "dx"])


def test_anonymize_individual_on_dask_releases_what_pandas_does(client, capsys, tmp_path):
    table = _people()
    table.to_csv(tmp_path / "people.csv", index=False)
    os.mkdir(tmp_path / "parts")
    for i, cut in enumerate([(0, 40), (40, 41), (41, len(table))]):  # people across parts
        table.iloc[cut[0]:cut[1]].to_csv(tmp_path / "parts" / f"p{i}.csv", index=False)
    (tmp_path / "p.toml").write_text("[default]\nskyline = [[0, 1, 0, 0.8]]\n")
    argv = ["anonymize", "--qi", "zip,age", "--sensitive", "dx", "--policy", tmp_path / "p.toml",
            "--individual", "pid", "--semantics", "mvpi-set", "-q"]
    assert run(capsys, argv[0], tmp_path / "people.csv", *argv[1:], "--output",
               tmp_path / "pandas.csv")[0] == 0
    code, _, err = run(capsys, argv[0], tmp_path / "parts" / "p*.csv", *argv[1:], "--output",
                       tmp_path / "dask", *dask_args(client))
    assert code == 0, err
    expected = pd.read_csv(tmp_path / "pandas.csv", dtype=str, keep_default_na=False)
    pd.testing.assert_frame_equal(read_dataset(tmp_path / "dask"), expected)
    assert expected["zip"].nunique() > 1  # people were grouped, not all suppressed
    certified = [json.loads((tmp_path / name).read_text())
                 for name in ("pandas.cert.json", "dask.cert.json")]
    for certificate in certified:
        del certificate["table"], certificate["created"]  # the partitioned hash; the time
    assert certified[0] == certified[1]
    code, out, err = run(capsys, "verify", tmp_path / "dask", "--certificate",
                         tmp_path / "dask.cert.json", *dask_args(client))
    assert code == 0 and out.startswith("VERIFIED: "), err
    # a person whose quasi-identifiers disagree: the pandas path's one line
    table.loc[table["pid"] == "p2", "zip"] = ["12", "99", "12"]  # p2 has three rows
    for i, cut in enumerate([(0, 40), (40, 41), (41, len(table))]):
        table.iloc[cut[0]:cut[1]].to_csv(tmp_path / "parts" / f"p{i}.csv", index=False)
    code, out, err = run(capsys, argv[0], tmp_path / "parts" / "p*.csv", *argv[1:],
                         "--output", tmp_path / "dask2", *dask_args(client))
    assert (code, out) == (3, "")
    assert err == (f"skyprivacy anonymize: error: Table '{tmp_path / 'parts' / 'p*.csv'}': "
                   f"individual 'p2' has 2 different 'zip' cells ('12', '99'); a person's "
                   f"quasi-identifiers must agree on all their rows.\n")
    assert not (tmp_path / "dask2").exists()
