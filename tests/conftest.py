"""Shared test helpers: real files in temp dirs, the CLI run as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


# The findings examples/harness must produce, relative to examples/ (see examples/EXPECTED.md),
# written from the contract's reporting positions.
HARNESS_EXPECTED = [
    ("harness/grader.py", "FC003", 16),
    ("harness/judge.py", "FC002", 33),
    ("harness/judge.py", "FC003", 28),
    ("harness/judge.py", "FC003", 38),
    ("harness/judge.py", "FC006", 20),
    ("harness/receipts.py", "FC004", 20),
    ("harness/receipts.py", "FC005", 5),
    ("harness/receipts.py", "FC007", 13),
    ("harness/reducer.py", "FC001", 15),
    ("harness/reducer.py", "FC002", 17),
    ("harness/reducer.py", "FC003", 22),
    ("harness/runner.py", "FC006", 16),
]


# A module with one known finding, FC006 at line 5 (the `except` keyword), for tests that need a
# file that is certainly checked beside the input under test.
GOOD = """
def run(failures, client):
    try:
        request = build_request()
        client.call(request)
    except Exception:
        failures.add("PROVIDER_FAILED")
"""


def pytest_configure(config):
    """Compile failcode once, before the suite starts hundreds of `python -m failcode` processes:
    where PYTHONDONTWRITEBYTECODE is set (as on CI machines), each would otherwise compile every
    module again. Only the controller does it; xdist's workers find the files written."""
    if not hasattr(config, "workerinput"):
        import compileall

        compileall.compile_dir(str(REPO / "src" / "failcode"), quiet=1)


def pytest_addoption(parser):
    parser.addoption("--run-slow", action="store_true", help="run slow tests (real packages, sweeps)")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write {relative path: source} under root, dedenting each source."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return root


def failcode(*args: str, cwd: Path, input: str | None = None, env: dict | None = None,
             preexec_fn=None) -> subprocess.CompletedProcess:
    """Run the real CLI in a subprocess (no cache unless the test asks for one)."""
    argv = [sys.executable, "-m", "failcode", *args]
    if args and args[0] == "check" and "--cache-dir" not in args and "--use-cache" not in args:
        argv.append("--no-cache")
    argv = [a for a in argv if a != "--use-cache"]
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, input=input, env=env, timeout=300,
                          preexec_fn=preexec_fn)


def permissions_apply(tmp_path: Path):
    """A `preexec_fn` under which file permissions bind the child even when the tests run as root
    (root reads a mode-000 file): it drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from the
    child's capability bounding set. None when not root; the test is skipped when that cannot work."""
    import ctypes
    import os

    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None
    if not sys.platform.startswith("linux"):
        pytest.skip("running as root and cannot drop the file-permission capabilities here")
    libc = ctypes.CDLL(None, use_errno=True)

    def drop() -> None:
        for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
            if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
                raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")

    probe = tmp_path / "permission-probe"
    probe.write_text("x")
    probe.chmod(0)
    try:
        reads = subprocess.run([sys.executable, "-c", f"open({str(probe)!r}).read()"], capture_output=True,
                               preexec_fn=drop, timeout=60).returncode == 0
    except (OSError, subprocess.SubprocessError):
        reads = True
    finally:
        probe.unlink()
    if reads:
        pytest.skip("running as root and cannot drop the file-permission capabilities here")
    return drop


def findings_of(result: subprocess.CompletedProcess) -> list[tuple[str, str, int]]:
    """(path, rule, line) of every finding in a `--format json` run."""
    document = json.loads(result.stdout)
    return [(f["path"], f["rule"], f["line"]) for f in document["findings"]]


@pytest.fixture
def project(tmp_path: Path):
    """Write files into a fresh project dir and return a runner bound to it."""

    class Project:
        root = tmp_path

        def write(self, files: dict[str, str]) -> "Project":
            write_tree(tmp_path, files)
            return self

        def run(self, *args: str, **kwargs) -> subprocess.CompletedProcess:
            return failcode(*args, cwd=tmp_path, **kwargs)

        def findings(self, *args: str) -> list[tuple[str, str, int]]:
            result = failcode("check", "--format", "json", *args, cwd=tmp_path)
            assert result.returncode in (0, 1), result.stderr
            return findings_of(result)

    return Project()
