"""The bundled examples/: every implemented rule fires in harness/, the fixed twin is clean."""

from __future__ import annotations

from pathlib import Path

from conftest import failcode, findings_of

REPO = Path(__file__).resolve().parent.parent

# Written from the contract's reporting positions (see examples/EXPECTED.md).
EXPECTED = [
    ("examples/harness/grader.py", "FC003", 16),
    ("examples/harness/receipts.py", "FC004", 20),
    ("examples/harness/receipts.py", "FC005", 5),
    ("examples/harness/receipts.py", "FC007", 13),
    ("examples/harness/reducer.py", "FC001", 13),
    ("examples/harness/reducer.py", "FC002", 15),
    ("examples/harness/reducer.py", "FC003", 20),
    ("examples/harness/runner.py", "FC006", 16),
]


def test_harness_fires_every_rule():
    result = failcode("check", "examples/harness", "--format", "json", cwd=REPO)
    assert result.returncode == 1, result.stderr
    assert sorted(findings_of(result)) == sorted(EXPECTED)


def test_fixed_twin_is_clean():
    result = failcode("check", "examples/harness_fixed", "--extend-select", "FC008", cwd=REPO)
    assert result.returncode == 0, result.stdout + result.stderr
