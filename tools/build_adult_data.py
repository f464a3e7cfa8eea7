"""Rebuild skyprivacy/data/adult.csv.gz from the raw UCI files (maintainers only).

Usage: python tools/build_adult_data.py RAW_DIR
RAW_DIR holds adult.data and adult.test (UCI Adult, one header line each).
Rows with a '?' in any column are dropped (45,222 remain); the stray leading
spaces of every field and the trailing '.' of the test file's labels are removed.
The package never reads RAW_DIR at run or test time.
"""
import gzip
import hashlib
import io
import sys
from pathlib import Path

import pandas as pd

COLUMNS = ["age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
           "occupation", "relationship", "race", "sex", "capital-gain", "capital-loss",
           "hours-per-week", "native-country", "income"]


def main(raw_dir: str) -> None:
    frames = []
    for name in ("adult.data", "adult.test"):
        df = pd.read_csv(Path(raw_dir) / name, header=0, names=COLUMNS, dtype=str,
                         skipinitialspace=True)
        frames.append(df)
    df = pd.concat(frames, ignore_index=True)
    df = df.apply(lambda col: col.str.strip())
    df["income"] = df["income"].str.rstrip(".")
    df = df[~(df == "?").any(axis=1)].reset_index(drop=True)
    assert len(df) == 45222, len(df)
    out = Path(__file__).resolve().parents[1] / "skyprivacy" / "data" / "adult.csv.gz"
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as gz:
        gz.write(df.to_csv(index=False).encode())
    out.write_bytes(buf.getvalue())
    print(out, len(df), hashlib.sha256(out.read_bytes()).hexdigest())


if __name__ == "__main__":
    main(sys.argv[1])
