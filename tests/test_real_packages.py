"""failcode over pinned real packages: it never crashes and never skips a file silently.

Real code is where the extractor meets shapes no hand-written test thought of, so each package is
checked whole, with every rule (FC008 included). The wheel is fetched with pip (the test is
skipped, saying why, when it cannot be) and unpacked; nothing in it is imported or run.

Expected values come from the contract, not from failcode's output: an internal error is a bug
(exit 4), and every `.py`/`.pyi` file that the default excludes leave in is either checked or
listed as an input error, so `summary.files` equals the number of such files and every file that
Python itself cannot parse appears in `errors`.
"""

from __future__ import annotations

import ast
import fnmatch
import json
import subprocess
import sys
import warnings
import zipfile
from pathlib import Path

import pytest

from failcode.config import DEFAULT_EXCLUDE
from conftest import failcode

PACKAGES = [
    "swebench==5.0.2",
    "inspect-ai==0.3.285",
    "openai-agents==0.24.0",
    "django==5.2.19",
    "mypy==2.4.1",
]
INPUT_KINDS = {"unparseable", "unreadable", "undecodable"}


def _download(spec: str, dest: Path) -> Path:
    """The wheel of `spec`, or a skip that says why it could not be fetched."""
    argv = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
            "--disable-pip-version-check", "--quiet", "--dest", str(dest), spec]
    try:
        result = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        pytest.skip(f"pip download {spec} timed out after 300 s")
    wheels = sorted(dest.glob("*.whl"))
    if result.returncode != 0 or not wheels:
        reason = (result.stderr.strip().splitlines() or ["no wheel downloaded"])[-1]
        pytest.skip(f"pip download {spec} failed: {reason}")
    return wheels[0]


def _checkable(tree: Path) -> list[Path]:
    """Every .py/.pyi file under `tree` outside a directory that a default exclude pattern names."""
    found = []
    for path in tree.rglob("*"):
        if path.suffix not in (".py", ".pyi") or not path.is_file():
            continue
        directories = path.relative_to(tree).parts[:-1]
        if any(fnmatch.fnmatch(part, pattern) for part in directories for pattern in DEFAULT_EXCLUDE):
            continue
        found.append(path)
    return found


def _python_rejects(path: Path) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escape sequences and the like are not errors
        try:
            ast.parse(path.read_bytes(), filename=str(path))
        except (SyntaxError, ValueError):  # ValueError: NUL bytes
            return True
    return False


@pytest.mark.slow
@pytest.mark.parametrize("spec", PACKAGES, ids=[spec.partition("==")[0] for spec in PACKAGES])
def test_real_package_checks_without_internal_errors(tmp_path: Path, spec: str) -> None:
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    wheel = _download(spec, downloads)
    tree = tmp_path / "tree"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tree)
    files = _checkable(tree)
    assert files, f"{wheel.name} unpacked to no Python files"

    result = failcode("check", "tree", "--select", "FC", "--exit-zero", "--format", "json", cwd=tmp_path)

    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    document = json.loads(result.stdout)
    errors = document["errors"]
    internal = [e for e in errors if e["kind"] == "internal"]
    assert internal == [], "internal errors (failcode bugs):\n" + "\n".join(
        f"{e['path']}: {e['message']}" for e in internal)
    assert {e["kind"] for e in errors} <= INPUT_KINDS
    # --exit-zero turns only "findings" into 0; input errors still exit 3
    assert result.returncode == (3 if errors else 0), result.stderr[-3000:]
    assert document["summary"]["files"] == len(files) - len(errors)  # files checked
    assert document["summary"]["errors"] == len(errors)
    assert document["summary"]["findings"] == len(document["findings"])
    checked = {path.relative_to(tmp_path).as_posix() for path in files}
    assert {e["path"] for e in errors} <= checked
    rejected = {path.relative_to(tmp_path).as_posix() for path in files if _python_rejects(path)}
    assert rejected <= {e["path"] for e in errors if e["kind"] == "unparseable"}
