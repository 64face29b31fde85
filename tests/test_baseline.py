"""Baselines: `--write-baseline FILE` records today's findings, `--baseline FILE` reports only new ones.

A finding's identity is rule + path + normalized text of the reported line + occurrence index, so
edits that only shift or move it keep it hidden. Expected findings are examples/EXPECTED.md's.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import REPO, failcode, findings_of

EXPECTED_COUNT = 12  # examples/EXPECTED.md


@pytest.fixture
def harness(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "examples" / "harness", tmp_path / "harness")
    result = failcode("check", "harness", "--write-baseline", "baseline.json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("0 findings.")
    assert "recorded 12 finding(s) in baseline.json" in result.stderr
    return tmp_path


def check(root: Path, *args: str, cwd: Path | None = None):
    return failcode("check", "--format", "json", *args, cwd=cwd or root)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_written_baseline_lists_every_finding(harness):
    document = json.loads((harness / "baseline.json").read_text(encoding="utf-8"))
    assert document["failcode-baseline"] == 1
    entries = document["findings"]
    assert len(entries) == EXPECTED_COUNT
    assert {(e["path"], e["rule"]) for e in entries} >= {("harness/reducer.py", "FC002"), ("harness/runner.py", "FC006")}
    assert all("line" not in entry for entry in entries)  # line numbers are not part of the identity


def test_baseline_hides_recorded_findings(harness):
    result = check(harness, "harness", "--baseline", "baseline.json")
    assert result.returncode == 0, result.stderr
    assert findings_of(result) == []
    assert "12 finding(s) hidden by baseline" in result.stderr


def test_inserted_lines_and_moved_code_do_not_resurface(harness):
    reducer = harness / "harness" / "reducer.py"
    text = reducer.read_text(encoding="utf-8")
    call_start, run_start = text.index("def reduce_call("), text.index("def reduce_run(")
    reduce_call, reduce_run = text[call_start:run_start], text[run_start:]
    # five lines above everything, and reduce_call moved below reduce_run
    reducer.write_text("import os\nimport sys\n\n\n\n" + text[:call_start] + reduce_run + "\n\n" + reduce_call,
                       encoding="utf-8")
    moved = check(harness, "harness")
    assert ("harness/reducer.py", "FC002", 17) not in findings_of(moved)  # really moved
    assert len(findings_of(moved)) == EXPECTED_COUNT
    result = check(harness, "harness", "--baseline", "baseline.json")
    assert result.returncode == 0, result.stderr
    assert findings_of(result) == []


def test_new_findings_are_reported(harness):
    def append(rel: str, function: str) -> None:
        path = harness / "harness" / rel
        path.write_text(path.read_text(encoding="utf-8") + "\n\n" + function, encoding="utf-8")

    append("grader.py", "def grade_format(answer, failures):\n"
                        "    from .codes import FAILURE_CODES  # noqa: F401\n"
                        "    if not answer:\n"
                        "        failures.add(\"ANSWER_EMPTY\")\n")
    append("reducer.py", "def reduce_tool(expected, call, failures):\n"
                         "    if call[\"tool\"] != expected[\"tool\"]:\n"
                         "        failures.add(\"TOOL_NAME_MISMATCH\")\n")
    result = check(harness, "harness", "--baseline", "baseline.json")
    assert result.returncode == 1, result.stderr
    # grader.py had 21 lines: blank lines 22-23, def at 24, the registry import (which makes it
    # govern grader.py) at 25, the new code at 27. reducer.py had 30 lines: the second identical
    # `failures.add("TOOL_NAME_MISMATCH")` (an occurrence the baseline has only once) is at 35; the
    # first one, at 15, stays hidden.
    assert findings_of(result) == [("harness/grader.py", "FC001", 27), ("harness/reducer.py", "FC001", 35)]


def test_fixed_finding_leaves_the_baseline_on_the_next_write(harness):
    receipts = harness / "harness" / "receipts.py"
    edit(receipts, '    "COMPARE_FAILED",\n    "ANSWER_INVALID",\n', '    "COMPARE_FAILED",\n')  # the FC007 duplicate
    result = failcode("check", "harness", "--write-baseline", "baseline.json", cwd=harness)
    assert result.returncode == 0, result.stderr
    entries = json.loads((harness / "baseline.json").read_text(encoding="utf-8"))["findings"]
    assert len(entries) == EXPECTED_COUNT - 1
    assert "FC007" not in {entry["rule"] for entry in entries}
    # putting the duplicate back is a new finding again
    edit(receipts, '    "COMPARE_FAILED",\n', '    "COMPARE_FAILED",\n    "ANSWER_INVALID",\n')
    again = check(harness, "harness", "--baseline", "baseline.json")
    assert findings_of(again) == [("harness/receipts.py", "FC007", 13)]


def test_baseline_paths_are_relative_to_the_baseline_file(harness):
    result = check(harness, ".", "--baseline", "../baseline.json", cwd=harness / "harness")
    assert result.returncode == 0, result.stderr
    assert findings_of(result) == []


def test_stdin_is_matched_against_the_baseline(harness):
    text = (harness / "harness" / "reducer.py").read_text(encoding="utf-8")
    result = failcode("check", "--format", "json", "--baseline", "baseline.json",
                      "--stdin-filename", "harness/reducer.py", "-", cwd=harness, input="\n\n" + text)
    assert result.returncode == 0, result.stderr
    assert findings_of(result) == []


@pytest.mark.parametrize("content, complaint", [
    ("{\"failcode-baseline\": 1, \"findings\": [", "not valid JSON"),
    ("[]", "not a failcode baseline"),
    ("{\"failcode-baseline\": 1, \"findings\": [{\"rule\": \"FC001\"}]}", "not a failcode baseline"),
    (b"\xff\xfe\x00garbage", "cannot read baseline"),
])
def test_corrupt_baseline_is_a_usage_error(harness, content, complaint):
    target = harness / "corrupt.json"
    if isinstance(content, bytes):
        target.write_bytes(content)
    else:
        target.write_text(content, encoding="utf-8")
    result = failcode("check", "harness", "--baseline", "corrupt.json", cwd=harness)
    assert result.returncode == 2
    assert result.stdout == ""  # nothing was checked
    [line] = result.stderr.splitlines()
    assert line.startswith("failcode: error: corrupt.json: ") and complaint in line
    assert "Traceback" not in result.stderr


def test_missing_baseline_is_a_usage_error(harness):
    result = failcode("check", "harness", "--baseline", "missing.json", cwd=harness)
    assert result.returncode == 2
    assert "missing.json: baseline file not found" in result.stderr


def test_baseline_is_not_written_when_a_file_could_not_be_checked(harness):
    (harness / "harness" / "broken.py").write_text("def broken(:\n", encoding="utf-8")
    before = (harness / "baseline.json").read_text(encoding="utf-8")
    result = failcode("check", "harness", "--write-baseline", "baseline.json", cwd=harness)
    assert result.returncode == 3
    assert "harness/broken.py:1:12: E999 SyntaxError: " in result.stderr
    assert "baseline not written" in result.stderr
    assert (harness / "baseline.json").read_text(encoding="utf-8") == before
