"""Faults of a run (issue "Nothing released unexamined", item 6): SIGTERM and SIGHUP end a run
like Ctrl-C (exit 143 / 129, one line, no output, no temporary file left); the temporary files
of a run killed outright (SIGKILL) are removed by the next run that writes the same output,
which says so; and without --force the no-clobber check holds at the final rename, so an
output that appears while a run works is never silently replaced."""
import os
import signal
import subprocess
import sys
import textwrap

import pytest

SCRIPT = os.path.join(os.path.dirname(sys.executable), "skyprivacy")
TABLE = "zip,age,disease\n02139,34,flu\n02139,35,cold\n02140,36,flu\n02140,37,hiv\n"
POLICY = "[default]\nskyline = [[0, 0, 0, 0.9]]\n"


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "t.csv").write_text(TABLE)
    (tmp_path / "p.toml").write_text(POLICY)
    return tmp_path


def listing(folder) -> list:
    return sorted(p.name for p in folder.iterdir() if p.name != "inject")


def injected(folder, code: str) -> dict:
    """An environment whose Python imports ``code`` first (a sitecustomize module)."""
    site = folder / "inject"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(textwrap.dedent(code))
    return {**os.environ, "PYTHONPATH": str(site)}


def run(folder, *argv, env=None):
    return subprocess.run([SCRIPT, *argv], cwd=folder, capture_output=True, text=True,
                          timeout=300, env=env)


ANONYMIZE = ["anonymize", "t.csv", "--qi", "zip,age", "--sensitive", "disease", "--policy",
             "p.toml", "--output", "out.csv"]


@pytest.mark.parametrize("signum,code,name", [(signal.SIGTERM, 143, "SIGTERM"),
                                               (signal.SIGHUP, 129, "SIGHUP")])
def test_a_signal_while_outputs_are_staged_leaves_nothing(folder, signum, code, name):
    """The signal arrives when every output is staged and about to be renamed into place (the
    moment a killed run used to leave a hidden copy of the full release behind)."""
    env = injected(folder, f"""
        import os, skyprivacy.io
        commit = skyprivacy.io.OutputFiles.commit
        def signalled(self):
            os.kill(os.getpid(), {int(signum)})
            return commit(self)
        skyprivacy.io.OutputFiles.commit = signalled
    """)
    done = run(folder, *ANONYMIZE, env=env)
    assert done.returncode == code, done.stderr
    assert done.stderr.strip() == f"skyprivacy anonymize: terminated by {name}; nothing was written"
    assert listing(folder) == ["p.toml", "t.csv"]  # no output, no .out.csv.*.tmp


def test_a_real_sigterm_while_the_table_is_read(folder):
    """The process blocks reading a pipe that never ends; SIGTERM interrupts the read."""
    fifo = folder / "table.fifo"
    os.mkfifo(fifo)
    process = subprocess.Popen([SCRIPT, *ANONYMIZE[:1], "table.fifo", *ANONYMIZE[2:]],
                               cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    writer = os.open(fifo, os.O_WRONLY)  # returns once the run has opened the pipe
    try:
        os.write(writer, b"zip,age,disease\n")
        process.send_signal(signal.SIGTERM)
        err = process.communicate(timeout=300)[1].decode()
    finally:
        os.close(writer)
    assert process.returncode == 143, err
    assert err.strip() == "skyprivacy anonymize: terminated by SIGTERM; nothing was written"
    assert listing(folder) == ["p.toml", "t.csv", "table.fifo"]


def test_a_sigterm_that_another_thread_receives_still_stops_a_blocked_read(folder):
    """The kernel may hand a process's SIGTERM to any of its threads (numpy's BLAS workers);
    Python runs the handler in the main thread only, so a main thread blocked reading a pipe
    must wake to run it.  Here a helper thread of the run signals itself, deterministically
    (the race in the test above once hung a fresh-clone run this way)."""
    env = injected(folder, """
        import os, signal, threading, time
        def signal_from_this_thread():
            while not os.path.exists("go"):
                time.sleep(0.01)
            signal.pthread_kill(threading.get_ident(), signal.SIGTERM)
        threading.Thread(target=signal_from_this_thread, daemon=True).start()
    """)
    fifo = folder / "table.fifo"
    os.mkfifo(fifo)
    process = subprocess.Popen([SCRIPT, *ANONYMIZE[:1], "table.fifo", *ANONYMIZE[2:]],
                               cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=env)
    writer = os.open(fifo, os.O_WRONLY)  # returns once the run has opened the pipe
    try:
        os.write(writer, b"zip,age,disease\n")
        (folder / "go").write_text("")
        err = process.communicate(timeout=120)[1].decode()
    finally:
        os.close(writer)
        if process.poll() is None:
            process.kill()
    assert process.returncode == 143, err
    assert err.strip() == "skyprivacy anonymize: terminated by SIGTERM; nothing was written"
    assert listing(folder) == ["go", "p.toml", "t.csv", "table.fifo"]


def test_the_leftovers_of_a_killed_run_are_removed_and_named(folder):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    pid = int(dead.stdout)  # a process that has exited: its temporary files are stale
    (folder / f".out.csv.{pid}.abc123.tmp").write_text("a full release, half written")
    (folder / ".out.csv.oldstyle.tmp").write_text("no process id: maybe a live run's")
    (folder / ".other.csv.1.x.tmp").write_text("another output's: not ours to judge")
    done = run(folder, *ANONYMIZE, "-q")
    assert done.returncode == 0, done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines == [
        f"skyprivacy anonymize: warning: Removed 1 temporary file(s) that an interrupted run "
        f"left for 'out.csv': ['.out.csv.{pid}.abc123.tmp'].",
        "skyprivacy anonymize: warning: 1 temporary file(s) for 'out.csv' may be left by an "
        "interrupted run: ['.out.csv.oldstyle.tmp']; remove them if no other run is writing "
        "there."]
    assert ".out.csv.oldstyle.tmp" in listing(folder) and ".other.csv.1.x.tmp" in listing(folder)
    assert f".out.csv.{pid}.abc123.tmp" not in listing(folder)


def test_an_output_that_appears_during_the_run_is_not_replaced(folder):
    """A concurrent run puts out.csv in place while this one works: without --force this run
    fails at its own rename and leaves the other's file as it was; with --force it replaces
    it, as asked."""
    env = injected(folder, """
        import skyprivacy.io
        commit = skyprivacy.io.OutputFiles.commit
        def raced(self):
            with open("out.csv", "w") as stream:
                stream.write("the other run's release\\n")
            return commit(self)
        skyprivacy.io.OutputFiles.commit = raced
    """)
    done = run(folder, *ANONYMIZE, "-q", env=env)
    assert done.returncode == 3, done.stderr
    assert done.stderr.strip() == (
        "skyprivacy anonymize: error: Cannot write 'out.csv': it appeared while this run was "
        "working (pass --force to replace it).")
    assert (folder / "out.csv").read_text() == "the other run's release\n"
    assert sorted(n for n in listing(folder) if n.startswith(".")) == []
    done = run(folder, *ANONYMIZE, "-q", "--force", env=env)
    assert done.returncode == 0, done.stderr
    assert (folder / "out.csv").read_text().startswith("zip,age,disease")
