"""Run every benchmark script in this directory, one after the other (``make bench``).

Each script writes its JSON to benchmarks/results/. Pass --quick for smoke runs.
"""
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = ["bench_anonymize.py", "bench_find.py", "bench_transparency.py",
           "bench_fairness_queries.py", "bench_prose.py"]


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    failed = []
    for script in SCRIPTS:
        print(f"=== {script} {' '.join(args)}", flush=True)
        done = subprocess.run([sys.executable, str(HERE / script), *args], check=False)
        if done.returncode:
            failed.append(script)
    if failed:
        print(f"failed: {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
