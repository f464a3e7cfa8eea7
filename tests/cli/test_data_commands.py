"""skyprivacy/cli/data_commands.py: ``skyprivacy data`` writes the bundled Adult data set or one
of its ARX hierarchies to a file or to stdout."""
import pandas as pd

from .helpers import run


def test_data_exports(work, capsys):
    code, _, err = run(capsys, "data", "adult", "--sample", "10", "--output", "a10.csv")
    assert code == 0 and err == "skyprivacy data: wrote a10.csv\n"
    sample = pd.read_csv(work / "a10.csv")
    assert len(sample) == 10 and list(sample.columns)[:2] == ["age", "workclass"]
    code, out, _ = run(capsys, "data", "adult-hierarchy", "sex")
    assert code == 0 and out.splitlines()[0] == "Male;*"
    code, _, err = run(capsys, "data", "adult-hierarchy", "zip")
    assert code == 2 and "'data adult-hierarchy' needs one of age, " in err

