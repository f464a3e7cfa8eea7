"""The main job on the bundled data runs and reports both verdicts with worst cases."""
import io
import subprocess
import sys

from skyprivacy import demo


def test_demo_prints_verdicts_and_worst_cases():
    out = io.StringIO()
    assert demo.main(out) == 0
    text = out.getvalue()
    assert "UCI Adult: 45,222 records" in text
    assert "Verdict: UNSAFE" in text and "Verdict: SAFE" in text
    assert "Worst cases of the failing checks:" in text
    assert "Exec-managerial" in text and "pinned down" in text


def test_demo_runs_as_a_module():
    done = subprocess.run([sys.executable, "-m", "skyprivacy.demo"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "=== Release coarse" in done.stdout
