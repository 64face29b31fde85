"""Ctrl-C ends a run at once: exit 130, `failcode: interrupted`, no traceback, no worker left behind;
a worker that dies ends it as failcode's own failure (exit 4).

A tree of a few hundred generated files keeps two workers busy for many seconds; SIGINT goes to the
failcode process only (as `kill -INT` would; a terminal also signals the workers, which ignore it).
Worker processes are found by scanning /proc for children of the failcode process.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")

FUNCTION = '''
def step_{i}(failures, client):
    try:
        data = client.fetch_{i}()
        result = compare_{i}(data)
    except Exception:
        failures.add("PROVIDER_FAILED")
    return [x * {i} for x in range({i})]
'''


def _tree(root: Path, files: int = 200, functions: int = 30) -> Path:
    tree = root / "tree"
    tree.mkdir()
    body = "".join(FUNCTION.format(i=i) for i in range(functions))
    for n in range(files):
        (tree / f"mod_{n:03d}.py").write_text(f"# generated module {n}\n{body}")
    return tree


def _children(pid: int) -> set[int]:
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry))
    return found


def _running(pid: int) -> bool:
    """Alive and not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _start(tree: Path, jobs: str) -> subprocess.Popen:
    argv = [sys.executable, "-m", "failcode", "check", str(tree), "--no-cache", "--jobs", jobs]
    return subprocess.Popen(argv, cwd=tree.parent, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _workers(process: subprocess.Popen) -> set[int]:
    """The pool's worker processes, once both exist (a failure if they never do)."""
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while time.monotonic() < deadline and len(workers) < 2 and process.poll() is None:
        time.sleep(0.05)
        workers = {pid for pid in _children(process.pid) if _running(pid)}
    assert len(workers) >= 2, "the pool never started"
    return workers


def _outlived(workers: set[int]) -> list[int]:
    """The workers still running after the run ended, given a while to exit: an orphan keeps
    running, a worker of a loaded machine only takes longer to go."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(_running(pid) for pid in workers):
        time.sleep(0.1)
    return [pid for pid in workers if _running(pid)]


def _interrupt(process: subprocess.Popen) -> tuple[float, str, str]:
    started = time.monotonic()
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
    return time.monotonic() - started, out, err


def _assert_interrupted(process: subprocess.Popen) -> None:
    """SIGINT ends the run: exit 130, `failcode: interrupted`, no traceback. A run that does not
    stop is killed after `_interrupt`'s timeout and fails on its exit status; no wall-clock bound
    here, which a loaded machine would break."""
    _, out, err = _interrupt(process)
    assert process.returncode == 130, (process.returncode, err[-2000:])
    assert "Traceback" not in err, err[-3000:]
    assert err.strip().splitlines()[-1] == "failcode: interrupted"


def test_ctrl_c_with_a_worker_pool(tmp_path):
    tree = _tree(tmp_path)
    process = _start(tree, "2")
    workers = _workers(process)
    time.sleep(1.0)  # the workers are in the middle of files now
    assert process.poll() is None, "the run finished before it could be interrupted: make the tree bigger"

    _assert_interrupted(process)
    assert _outlived(workers) == [], "orphaned workers"
    assert [pid for pid in _children(process.pid) if _running(pid)] == []


def test_ctrl_c_in_process(tmp_path):
    """`--jobs 1` extracts in the main process, which must still take Ctrl-C."""
    tree = _tree(tmp_path, files=150)
    process = _start(tree, "1")
    time.sleep(3.0)
    assert process.poll() is None, "the run finished before it could be interrupted: make the tree bigger"

    _assert_interrupted(process)


def test_worker_killed_mid_run(tmp_path):
    """A worker that dies (killed here; a crash in native code looks the same) is failcode's failure:
    exit 4 with one line, never a traceback, never a partial report passed off as the result."""
    tree = _tree(tmp_path)
    process = _start(tree, "2")
    workers = _workers(process)
    time.sleep(1.0)
    os.kill(min(workers), signal.SIGKILL)
    out, err = process.communicate(timeout=60)

    assert process.returncode == 4, (process.returncode, err[-2000:])
    assert "Traceback" not in err, err[-3000:]
    assert err.strip().splitlines() == [err.strip()]
    assert err.startswith("failcode: error: internal error: ")
    assert "files checked" not in out
    assert _outlived(workers) == []


HALF_WRITTEN = '''
import os, signal, struct, sys
from concurrent.futures.process import BrokenProcessPool

from failcode.pool import ordered, worker_pool


def ready():
    pass


def half_written(item):
    """Item 3's worker dies the way one killed in the middle of sending its result does: the
    length of a message in the result pipe, and only a few of its bytes."""
    if item == 3:
        frame = sys._getframe()
        while "result_queue" not in frame.f_locals:
            frame = frame.f_back
        pipe = frame.f_locals["result_queue"]._writer.fileno()
        os.write(pipe, struct.pack("!i", 1 << 30) + b"the start of a result")
        os.kill(os.getpid(), signal.SIGKILL)
    return item


if __name__ == "__main__":
    try:
        with worker_pool(2, ready, ()) as pool:
            print("finished", list(ordered(pool, half_written, list(range(12)), 1)))
    except BrokenProcessPool as exc:
        print("broken:", exc)
'''


def test_worker_killed_while_sending_its_result(tmp_path):
    """The pool's manager thread, woken by the dead worker's half message, waits for the rest of
    it forever: without a look at the workers the run hangs (the CI flake of
    test_worker_killed_mid_run). The run must end with BrokenProcessPool, and the interpreter
    must exit (the manager thread let go)."""
    script = tmp_path / "half_written.py"
    script.write_text(HALF_WRITTEN)
    process = subprocess.Popen([sys.executable, str(script)], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        pytest.fail(f"the run hung: {out!r} {err[-2000:]!r}")
    assert process.returncode == 0, err[-2000:]
    assert out.startswith("broken: worker process "), out
    assert "ended with exit code -9" in out
