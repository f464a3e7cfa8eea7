"""Rebuild skyprivacy/data/nursery.csv.gz from the raw UCI file (maintainers only).

Usage: python tools/build_nursery_data.py RAW_DIR
RAW_DIR holds nursery.data (UCI Nursery: 12,960 records, 9 columns, no header, CRLF line
endings, a trailing blank line; sha256 825e4403...ac34). The UCI column names are added as a
header; nothing else changes. The package never reads RAW_DIR at run or test time.
"""
import gzip
import hashlib
import io
import sys
from pathlib import Path

import pandas as pd

COLUMNS = ["parents", "has_nurs", "form", "children", "housing", "finance", "social",
           "health", "class"]
RAW_SHA256 = "825e44035931be25992a78bd3d69f5c60eaaea4318ed9bdf9bebd925b516ac34"


def main(raw_dir: str) -> None:
    raw = (Path(raw_dir) / "nursery.data").read_bytes()
    assert hashlib.sha256(raw).hexdigest() == RAW_SHA256
    df = pd.read_csv(io.BytesIO(raw), header=None, names=COLUMNS, dtype=str,
                     skip_blank_lines=True)
    assert len(df) == 12960 and not df.isna().any().any(), df.shape
    out = Path(__file__).resolve().parents[1] / "skyprivacy" / "data" / "nursery.csv.gz"
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as gz:
        gz.write(df.to_csv(index=False, lineterminator="\n").encode())
    out.write_bytes(buf.getvalue())
    print(out, len(df), hashlib.sha256(out.read_bytes()).hexdigest())


if __name__ == "__main__":
    main(sys.argv[1])
