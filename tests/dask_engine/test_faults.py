"""A worker process killed in the middle of an anonymization: dask recomputes what the worker
held from the lineage and the run ends with the same release, or it fails cleanly (exit 3 or
4) leaving nothing behind; never a certificate for a table that was not checked."""
import json
import os
import sys

import cloudpickle
import pandas as pd
from distributed import Client, LocalCluster, WorkerPlugin

from skyprivacy.cli import main
from skyprivacy.datasets import load_adult


class KillOnce(WorkerPlugin):
    """Kill the worker process (as a crash would) when it starts the first task whose key
    contains ``task``; the marker file makes it happen once across restarted workers."""

    def __init__(self, marker: str, task: str):
        self.marker, self.task = marker, task

    def transition(self, key, start, finish, **kwargs):
        if finish != "executing" or self.task not in str(key):
            return
        try:
            os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            return
        os._exit(1)


def test_a_worker_killed_during_anonymize(client, tmp_path, capsys):
    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers cannot import tests
    adult = load_adult().head(4000)
    os.mkdir(tmp_path / "adult")
    for i in range(4):
        adult.iloc[i * 1000:(i + 1) * 1000].to_parquet(tmp_path / "adult" / f"p{i}.parquet",
                                                       index=False)
    adult.to_csv(tmp_path / "adult.csv", index=False)
    (tmp_path / "policy.toml").write_text("[default]\nskyline = [[1, 5, 1, 0.9]]\n")
    common = ["--qi", "age,sex,race,marital-status", "--sensitive", "occupation", "--policy",
              str(tmp_path / "policy.toml"), "-q", "--drop", ",".join(
                  c for c in adult.columns
                  if c not in ("age", "sex", "race", "marital-status", "occupation"))]
    assert main(["anonymize", str(tmp_path / "adult.csv"), *common, "--output",
                 str(tmp_path / "expected.csv")]) == 0
    marker = tmp_path / "killed"
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0", silence_logs=50) as cluster, \
            Client(cluster, set_as_default=False) as control:
        control.register_plugin(KillOnce(str(marker), "skyprivacy-evaluate-"))
        code = main(["anonymize", str(tmp_path / "adult"), *common, "--output",
                     str(tmp_path / "released"), "--engine", "dask", "--scheduler",
                     cluster.scheduler_address])
    err = capsys.readouterr().err
    assert marker.exists()  # a worker did die mid-run
    if code == 0:  # recovered: the release of the pandas engine, with a valid certificate
        expected = pd.read_csv(tmp_path / "expected.csv", dtype=str, keep_default_na=False)
        names = sorted(os.listdir(tmp_path / "released"))
        got = pd.concat([pd.read_parquet(tmp_path / "released" / n) for n in names],
                        ignore_index=True)
        assert (got.to_numpy() == expected.to_numpy()).all()
        assert json.loads((tmp_path / "released.cert.json").read_text())["safe"]
        assert main(["verify", str(tmp_path / "released"), "--certificate",
                     str(tmp_path / "released.cert.json"), "--engine", "dask",
                     "--scheduler", client.scheduler.address]) == 0
    else:  # failed cleanly: one line, exit 3 or 4, and no output of any kind
        assert code in (3, 4), err
        assert "Traceback" not in err
        assert sorted(os.listdir(tmp_path)) == ["adult", "adult.csv", "expected.cert.json",
                                                "expected.csv", "killed", "policy.toml"]
