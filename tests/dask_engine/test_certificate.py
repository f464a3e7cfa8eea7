"""Certificates of partitioned tables: the partitioned hash is the documented construction,
empty partitions do not count, and both forms verify on the engine."""
import hashlib

import dask
import dask.dataframe as dd
import pandas as pd

from skyprivacy import Policy
from skyprivacy.certificate import (
    build_certificate,
    canonical_csv,
    table_sha256,
    verify_certificate,
)

TABLE = pd.DataFrame({"age": ["2*", "2*", "3*", "3*", "4*", "4*", "4*"],
                      "zip": [1, 1, 2, 2, 3, 3, 3],
                      "disease": ["flu", "cold", "flu", "flu", "cold", "gout", "flu"]})
POLICY = Policy.uniform([(0, 0, 0, 0.9)])


def documented_hash(parts) -> str:
    lines = "".join(hashlib.sha256(canonical_csv(p).encode()).hexdigest() + "\n"
                    for p in parts if len(p))
    return hashlib.sha256(("skyprivacy-csv-partitioned-1\n" + lines).encode()).hexdigest()


def test_partitioned_hash_is_the_documented_construction(to_dask):
    frame = to_dask(TABLE, 3)
    parts = [p.compute() for p in frame.to_delayed()]
    certificate = build_certificate(frame, POLICY, qi=["age", "zip"], sensitive="disease",
                                    created="2026-01-01T00:00:00Z")
    assert certificate["table"] == {"sha256": documented_hash(parts),
                                    "canonical_form": "skyprivacy-csv-partitioned-1",
                                    "n_rows": 7, "columns": ["age", "zip", "disease"],
                                    "n_partitions": 3}
    in_memory = build_certificate(TABLE, POLICY, qi=["age", "zip"], sensitive="disease",
                                  created="2026-01-01T00:00:00Z")
    for key in ("parameters", "policy", "release", "safe", "verdict", "checks"):
        assert certificate[key] == in_memory[key]
    assert verify_certificate(frame, certificate).ok


def test_empty_partitions_do_not_count_and_changes_do(to_dask):
    frame = to_dask(TABLE, 3)
    certificate = build_certificate(frame, POLICY, qi=["age", "zip"], sensitive="disease")
    parts = [p.compute() for p in frame.to_delayed()]
    with dask.config.set({"dataframe.convert-string": False}):
        same_rows = dd.from_delayed([dask.delayed(p) for p in
                                     [parts[0], TABLE.iloc[:0], *parts[1:]]],
                                    meta=TABLE.iloc[:0], verify_meta=False)
    assert same_rows.npartitions == 4
    assert verify_certificate(same_rows, certificate).ok
    changed = TABLE.assign(disease=TABLE["disease"].where(TABLE.index != 4, "flu"))
    check = verify_certificate(to_dask(changed, 3), certificate)
    assert not check.ok and check.differences[0].startswith(
        "The table does not match the certificate: its SHA-256 is")
    regrouped = verify_certificate(to_dask(TABLE, 2), certificate)
    assert not regrouped.ok  # the partitioning is part of what is certified


def test_a_single_file_certificate_verifies_on_the_engine(to_dask):
    certificate = build_certificate(TABLE, POLICY, qi=["age", "zip"], sensitive="disease")
    assert certificate["table"]["sha256"] == table_sha256(TABLE)
    assert verify_certificate(to_dask(TABLE, 3), certificate).ok  # streamed whole text
    one = build_certificate(to_dask(TABLE, 1), POLICY, qi=["age", "zip"],
                            sensitive="disease")
    assert verify_certificate(TABLE, one).ok  # a pandas table is one partition


def test_a_released_dataset_written_from_python_verifies(to_dask, tmp_path):
    from skyprivacy import skyline_anonymize
    from skyprivacy.io import read_table_dask, write_dataset

    table = pd.DataFrame({"age": [21, 22, 23, 24, 31, 33, 35, 38] * 3,
                          "disease": ["flu", "aids", "flu", "cold"] * 6})
    result = skyline_anonymize(to_dask(table, 3), qi="age", sensitive="disease",
                               policy=Policy.uniform([(0, 1, 0, 0.8)]))
    released = result.table.compute()
    assert released.index[8] == 8 and len(released) == 24
    write_dataset(result.table, tmp_path / "released")
    certificate = build_certificate(result.table, POLICY, qi="age", sensitive="disease")
    back = read_table_dask(tmp_path / "released")
    assert back.npartitions == 3
    assert verify_certificate(back, certificate).ok
    assert (back.compute().to_numpy() == released.astype(str).to_numpy()).all()


def test_an_anonymization_certificate_verifies_on_the_engine(to_dask):
    """Every criterion and the masked group recomputed over partitions, as in memory."""
    from skyprivacy.anonymize import anonymize
    from skyprivacy.certificate import anonymization_certificate
    from skyprivacy.criteria import DistinctLDiversity, KAnonymity
    from skyprivacy.hierarchy import Hierarchy

    zips = Hierarchy([[z, z[0] + "*", "*"] for z in ("11", "12", "21", "22", "31", "32")])
    table = pd.DataFrame({"zip": ["11", "12", "21", "22"] * 3 + ["31", "32"],
                          "dx": ["a"] * 4 + ["b"] * 4 + ["c"] * 4 + ["a", "b"]})
    criteria = [KAnonymity(2), DistinctLDiversity(2)]
    result = anonymize(table, qi="zip", sensitive="dx", criteria=criteria,
                       method="full-domain", suppression_limit=0.2, suppressed="mask",
                       hierarchies={"zip": zips})
    cert = anonymization_certificate(result, qi="zip", sensitive="dx", criteria=criteria,
                                     suppressed="mask", suppression_limit=0.2)
    assert verify_certificate(to_dask(result.table, 3), cert, original=table).ok
    changed = result.table.copy()
    changed.loc[changed["zip"] == "*", "dx"] = "a"  # the masked group loses its diversity
    forged = {**cert, "table": {**cert["table"], "sha256": table_sha256(changed)}}
    differences = verify_certificate(to_dask(changed, 3), forged).differences
    assert "The masked group fails DistinctLDiversity(l=2)." in differences
