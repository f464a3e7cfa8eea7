"""compare_l_diversity is the one (c, l)-diversity comparison: its options reach SkylineAnonymize,
its progress is the anonymization's then the skylines', and ``skyprivacy compare
--l-diversity`` prints what it returns."""
import json

import numpy as np
import pandas as pd

from skyprivacy import compare_l_diversity, skyline_anonymize, skyline_find_all
from skyprivacy.baselines import cl_diversity_policy
from skyprivacy.cli import main
from skyprivacy.io import read_table


def jobs_table() -> pd.DataFrame:
    rng = np.random.default_rng(1)
    n = 300
    return pd.DataFrame({"age": rng.integers(20, 70, n).astype(str),
                         "zip": [f"{z:05d}" for z in rng.integers(13000, 13040, n)],
                         "job": rng.choice(list("ABCDEF"), n, p=[.3, .2, .2, .1, .1, .1])})


def test_progress_is_the_anonymization_then_the_skylines():
    table = jobs_table()
    seen: list = []
    comparison = compare_l_diversity(table, qi=["age", "zip"], sensitive="job", diversity_c=2, l=3,
                                     c=0.8, progress=seen.append)
    first: list = []
    made = skyline_anonymize(table, qi=["age", "zip"], sensitive="job",
                             policy=cl_diversity_policy(diversity_c=2, l=3), progress=first.append)
    second: list = []
    skyline_find_all(made.candidate, c=0.8, progress=second.append)
    assert first and second
    assert seen == [0.5 * f for f in first] + [0.5 + 0.5 * f for f in second]
    assert seen[-1] == 1.0
    assert comparison.anonymization.table.equals(made.table)


def test_the_quasi_identifier_options_reach_the_anonymization():
    table = jobs_table()
    options = {"categorical": ["age"], "order": "first", "label_length": 0}
    comparison = compare_l_diversity(table, qi=["age", "zip"], sensitive="job", diversity_c=2, l=3,
                                     c=0.8, **options)
    made = skyline_anonymize(table, qi=["age", "zip"], sensitive="job",
                             policy=cl_diversity_policy(diversity_c=2, l=3), **options)
    default = compare_l_diversity(table, qi=["age", "zip"], sensitive="job", diversity_c=2, l=3,
                                  c=0.8)
    assert comparison.anonymization.table.equals(made.table)
    assert comparison.anonymization.set_labels == made.set_labels
    assert not comparison.anonymization.table.equals(default.anonymization.table)
    assert comparison.diversity.safe


def test_the_command_line_prints_what_compare_l_diversity_returns(tmp_path, capsys):
    jobs_table().to_csv(tmp_path / "t.csv", index=False)
    code = main(["compare", str(tmp_path / "t.csv"), "--qi", "age,zip", "--sensitive", "job",
                 "--l-diversity", "3", "--diversity-c", "2", "--confidence", "0.8",
                 "--format", "json"])
    out = capsys.readouterr().out
    assert code == 0
    printed = json.loads(out)
    comparison = compare_l_diversity(read_table(tmp_path / "t.csv"), qi=["age", "zip"],
                                     sensitive="job", diversity_c=2, l=3, c=0.8)
    release = comparison.anonymization.candidate
    assert printed["baseline"] == {"kind": "l-diversity", "c": "2", "l": 3, "satisfied": True}
    assert printed["release"]["n_groups"] == release.n_groups
    assert printed["release"]["smallest_group"] == int(release.sizes_array.min())
    assert all(row["points"] for row in printed["skylines"])
    assert [row["value"] for row in printed["skylines"]] == \
        [str(skyline.value) for skyline in comparison.skylines]
    assert [[list(point) for point in row["points"]] for row in printed["skylines"]] == \
        [[list(point) for point in skyline.points] for skyline in comparison.skylines]
