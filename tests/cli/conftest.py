"""Fixtures of the skyprivacy.cli tests: a 2,000-row sample of Adult with the issue's policy
and its anonymization, made once, and a fresh copy of them as the current directory."""
import shutil

import pytest

from skyprivacy.cli import main
from skyprivacy.datasets import load_adult
from skyprivacy.io import write_table

from .helpers import POLICY, ORIGINAL


@pytest.fixture(scope="session")
def inputs(tmp_path_factory):
    """A 2,000-row sample of Adult, the issue's policy, and its anonymization."""
    folder = tmp_path_factory.mktemp("cli")
    write_table(load_adult().sample(2000, random_state=0).sort_index(), folder / "adult.csv")
    (folder / "policy.toml").write_text(POLICY)
    assert main(["anonymize", str(folder / "adult.csv"), *ORIGINAL, "--policy",
                 str(folder / "policy.toml"), "--output", str(folder / "released.csv"),
                 "--certificate", str(folder / "released.cert.json"), "--quiet"]) == 0
    return folder


@pytest.fixture
def work(inputs, tmp_path, monkeypatch):
    """A fresh folder holding copies of the inputs, as the current directory."""
    for name in ("adult.csv", "policy.toml", "released.csv", "released.cert.json"):
        shutil.copy(inputs / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path
