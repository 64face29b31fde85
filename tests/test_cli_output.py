"""What `failcode check` prints for people and pipelines: --statistics, --exit-zero, stdin mode,
--show-source, colour on a terminal (a real pty) and the progress line."""

from __future__ import annotations

import os
import pty
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO, failcode, write_tree

from failcode.report.terminal import Progress

ESC = "\x1b["


@pytest.fixture
def harness(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "examples" / "harness", tmp_path / "harness")
    return tmp_path


def reducer_text(root: Path) -> str:
    return (root / "harness" / "reducer.py").read_text(encoding="utf-8")


# -- --statistics, --exit-zero ----------------------------------------------------------------

def test_statistics_counts_each_rule(harness):
    result = failcode("check", "--statistics", "harness", cwd=harness)
    assert result.returncode == 1, result.stderr
    *rows, summary = result.stdout.splitlines()
    # examples/EXPECTED.md: FC003 four times, FC002 and FC006 twice, every other default rule once;
    # most frequent first
    assert [row.split() for row in rows] == [
        ["4", "FC003", "fallback-reuses-outcome"],
        ["2", "FC002", "stage-spanning-try"],
        ["2", "FC006", "catch-all-blames-party"],
        ["1", "FC001", "unregistered-code"],
        ["1", "FC004", "silent-reason-filter"],
        ["1", "FC005", "divergent-registries"],
        ["1", "FC007", "duplicate-registry-code"],
    ]
    assert summary == "7 files checked, 12 findings."


def test_statistics_of_a_clean_run(tmp_path):
    shutil.copytree(REPO / "examples" / "harness_fixed", tmp_path / "harness_fixed")
    result = failcode("check", "--statistics", "harness_fixed", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["7 files checked, 0 findings."]


def test_exit_zero_turns_findings_into_success(harness):
    result = failcode("check", "--exit-zero", "harness", cwd=harness)
    assert result.returncode == 0, result.stderr
    assert len([line for line in result.stdout.splitlines() if ": FC0" in line]) == 12


def test_exit_zero_keeps_input_errors(harness):
    write_tree(harness, {"harness/broken.py": "def broken(:\n"})
    result = failcode("check", "--exit-zero", "harness", cwd=harness)
    assert result.returncode == 3
    assert "harness/broken.py:1:12: E999 SyntaxError: " in result.stderr


def test_exit_zero_keeps_usage_errors(harness):
    result = failcode("check", "--exit-zero", "--select", "FC999", "harness", cwd=harness)
    assert result.returncode == 2


# -- stdin ------------------------------------------------------------------------------------

def test_dash_reads_one_file_from_stdin(harness):
    result = failcode("check", "-", cwd=harness, input=reducer_text(harness))
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split(" ")[:2] for line in lines[:-1]] == [["<stdin>:17:5:", "FC002"], ["<stdin>:22:22:", "FC003"]]
    assert lines[-1] == "1 file checked, 2 findings."


def test_stdin_filename_names_the_file_for_config_and_output(harness):
    write_tree(harness, {"pyproject.toml": """
        [tool.failcode]
        extend-exclude = ["generated"]

        [tool.failcode.per-file-ignores]
        "harness/reducer.py" = ["FC003"]
    """})
    text = reducer_text(harness)
    result = failcode("check", "--stdin-filename", "harness/reducer.py", cwd=harness, input=text)
    assert result.returncode == 1, result.stderr
    assert [line.split(" ")[:2] for line in result.stdout.splitlines()[:-1]] == [
        ["harness/reducer.py:15:22:", "FC001"], ["harness/reducer.py:17:5:", "FC002"]]  # FC003 ignored for the file
    excluded = failcode("check", "--force-exclude", "--stdin-filename", "generated/reducer.py", "-",
                        cwd=harness, input=text)
    assert excluded.returncode == 0, excluded.stderr
    assert excluded.stdout.splitlines() == ["0 files checked, 0 findings."]


def test_unparseable_stdin_is_exit_3(tmp_path):
    result = failcode("check", "-", cwd=tmp_path, input="def broken(:\n")
    assert result.returncode == 3
    assert result.stderr == "<stdin>:1:12: E999 SyntaxError: invalid syntax\n"


def test_dash_with_other_paths_is_a_usage_error(harness):
    result = failcode("check", "-", "harness", cwd=harness, input="")
    assert result.returncode == 2
    assert "failcode: error:" in result.stderr


# -- --show-source ----------------------------------------------------------------------------

def test_show_source_prints_the_line_and_a_caret(harness):
    result = failcode("check", "--show-source", "harness/reducer.py", cwd=harness)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("harness/reducer.py:22:22: FC003"))
    source, caret = lines[at + 1], lines[at + 2]
    assert source == '  22 |         failures.add("EXEC_ARGUMENTS_MISMATCH")'
    # column 22 of the source line, the string literal of 25 characters
    assert caret == "     | " + " " * 21 + "^" * len('"EXEC_ARGUMENTS_MISMATCH"')
    at = next(i for i, line in enumerate(lines) if line.startswith("harness/reducer.py:17:5: FC002"))
    assert lines[at + 1] == "  17 |     try:"
    assert lines[at + 2].startswith("     |     ^")


def test_show_source_reads_stdin_text(harness):
    result = failcode("check", "--show-source", "-", cwd=harness, input="\n" + reducer_text(harness))
    assert "  18 |     try:" in result.stdout.splitlines()  # the try of line 17, one line lower


# -- colour and progress ----------------------------------------------------------------------

def on_terminal(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, str, str]:
    """Run the CLI with stdout on a real pseudo-terminal; stderr stays a pipe."""
    master, slave = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "failcode", *args], cwd=cwd, env=env,
                               stdout=slave, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    stderr = process.stderr.read().decode()
    process.stderr.close()
    return process.wait(timeout=120), b"".join(chunks).decode().replace("\r\n", "\n"), stderr


def environment(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(extra)
    return env


def test_colour_on_a_terminal(harness):
    status, stdout, stderr = on_terminal(["check", "--no-cache", "harness"], harness, environment())
    assert status == 1, stderr
    finding = next(line for line in stdout.splitlines() if "FC002" in line and "reducer" in line)
    assert finding.startswith(ESC)
    assert "harness/reducer.py" in finding and ESC in finding.split("FC002")[0]
    assert stderr == ""  # a short run shows no progress line, and stderr is not a terminal anyway


def test_no_color_on_a_terminal(harness):
    status, stdout, _ = on_terminal(["check", "--no-cache", "harness"], harness, environment(NO_COLOR="1"))
    assert status == 1
    assert ESC not in stdout
    assert "harness/reducer.py:17:5: FC002 " in stdout


def test_no_colour_and_no_progress_in_a_pipe(harness):
    result = failcode("check", "harness", cwd=harness, env=environment())
    assert result.returncode == 1
    assert ESC not in result.stdout
    assert result.stderr == ""


def test_progress_line_on_a_terminal_is_erased_at_the_end():
    master, slave = pty.openpty()
    with open(slave, "w", encoding="utf-8", closefd=True) as stream:
        with Progress(stream, delay=0.0, interval=0.05):
            time.sleep(0.3)
        shown = b""
        while select.select([master], [], [], 0.2)[0]:
            shown += os.read(master, 65536)
    os.close(master)
    text = shown.decode()
    assert "failcode: checking... 0s" in text
    width = len("failcode: checking... 0s")
    assert text.endswith("\r" + " " * width + "\r")


def test_no_progress_line_off_a_terminal(tmp_path):
    with open(tmp_path / "log", "w", encoding="utf-8") as stream:
        with Progress(stream, delay=0.0, interval=0.05):
            time.sleep(0.2)
    assert (tmp_path / "log").read_text(encoding="utf-8") == ""


def test_progress_line_counts_files_once_the_engine_reports_them():
    master, slave = pty.openpty()
    with open(slave, "w", encoding="utf-8", closefd=True) as stream:
        with Progress(stream, delay=0.0, interval=0.05) as progress:
            progress.update(120, 843)
            time.sleep(0.3)
        shown = b""
        while select.select([master], [], [], 0.2)[0]:
            shown += os.read(master, 65536)
    os.close(master)
    assert "failcode: checking 120/843 files... 0s" in shown.decode()


@pytest.mark.parametrize("jobs", [1, 2])
def test_engine_reports_each_file_done_of_all(tmp_path, jobs):
    """Twelve files (enough for a pool with two jobs): (0, 12) first, then one step per file."""
    from failcode import api
    from failcode.engine import Options

    write_tree(tmp_path, {f"m{n:02}.py": "def f(failures):\n    failures.add('A_FAILED')\n" for n in range(12)})
    calls: list[tuple[int, int]] = []
    cache = tmp_path / "cache"
    options = Options(jobs=jobs, cache_dir=cache, progress=lambda done, total: calls.append((done, total)))
    result = api.check_paths(tmp_path, options=options)
    assert result.files == 12 and not result.errors
    assert calls == [(n, 12) for n in range(13)]
    calls.clear()
    api.check_paths(tmp_path, options=options)  # every file answered by the cache: done at once
    assert calls == [(12, 12)]
