"""failcode over the running interpreter's standard library: no internal error, nothing skipped.

The stdlib is the largest body of real Python at hand, tests included (which hold deliberately
broken files: bad encodings, syntax errors). The contract decides the outcome, not failcode's output:
exit 0 with --exit-zero unless some input could not be checked (then 3), never 4; every .py/.pyi
file the default excludes leave in is counted; every file Python itself cannot parse is listed as an
input error. The whole Lib is marked slow; a few packages (and lib2to3's Python 2 data) run by default.
"""

from __future__ import annotations

import json
import sysconfig
from pathlib import Path

import pytest

from conftest import failcode
from test_real_packages import INPUT_KINDS, _checkable, _python_rejects

STDLIB = Path(sysconfig.get_paths()["stdlib"])
FAST_PACKAGES = ("json", "email", "asyncio", "unittest")
# Python 2 test data (print statements, encodings, a BOM) until 3.13 dropped lib2to3, and tests.
FAST_EXTRAS = ("lib2to3", "test/test_json", "test/test_email")


def _sweep(tmp_path: Path, roots: list[Path]) -> None:
    files = [path for root in roots for path in (_checkable(root) if root.is_dir() else [root])]
    assert files
    result = failcode("check", "--exit-zero", "--format", "json", "--jobs", "2", *map(str, roots), cwd=tmp_path)

    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    document = json.loads(result.stdout)
    errors = document["errors"]
    internal = [e for e in errors if e["kind"] not in INPUT_KINDS]
    assert internal == [], "internal errors (failcode bugs):\n" + "\n".join(
        f"{e['path']}: {e['kind']}: {e['message']}" for e in internal)
    assert result.returncode == (3 if errors else 0), result.stderr[-3000:]
    assert document["summary"]["files"] == len(files) - len(errors)  # files checked
    checked = {path.as_posix() for path in files}
    assert {e["path"] for e in errors} <= checked
    rejected = {path.as_posix() for path in files if _python_rejects(path)}
    assert rejected <= {e["path"] for e in errors if e["kind"] in ("unparseable", "undecodable")}


def test_sweep_stdlib_packages(tmp_path):
    roots = [STDLIB / name for name in FAST_PACKAGES if (STDLIB / name).is_dir()]
    assert len(roots) == len(FAST_PACKAGES)
    _sweep(tmp_path, roots + [STDLIB / name for name in FAST_EXTRAS if (STDLIB / name).is_dir()])


@pytest.mark.slow
def test_sweep_whole_stdlib(tmp_path):
    """All of Lib, tests included; site-packages is not the standard library."""
    roots = sorted(path for path in STDLIB.iterdir()
                   if path.name not in ("site-packages", "dist-packages")
                   and (path.is_dir() or path.suffix in (".py", ".pyi")))
    _sweep(tmp_path, roots)
