"""failcode never imports or runs the code it checks.

The tree is full of modules that leave a marker file when imported or run: an ordinary module, a
`conftest.py`, a `setup.py`, a package `__init__.py`, a `__main__.py`, the configured registry
module, and modules named like what failcode itself imports (`click.py`, `json.py`, `libcst.py`),
which `python -m failcode` run from the tree would otherwise find first on sys.path. `check`,
`sites` and `registry` all run there (the CLI is started with `python -m`, from the tree), and
each must still do its job: the registry is read statically, the findings are reported.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import GOOD, failcode, findings_of, write_tree

SIDE_EFFECT = "open({marker!r}, 'w').write('imported')\n"
PLANTED = ["evil.py", "conftest.py", "setup.py", "pkg/__init__.py", "pkg/__main__.py", "codes.py",
           "click.py", "json.py", "libcst.py", "pathspec.py", "tomllib.py", "sitecustomize.py"]
RECORDER = "import json\n\n" + GOOD + '    failures.add("NOT_REGISTERED")\n'


@pytest.fixture
def tree(tmp_path: Path):
    markers = tmp_path / "markers"
    markers.mkdir()
    root = tmp_path / "tree"
    files = {name: SIDE_EFFECT.format(marker=str(markers / name.replace("/", "_"))) for name in PLANTED}
    files["codes.py"] += 'CODES = ["PROVIDER_FAILED", "PARSE_FAILED"]\n'
    files["pkg/worker.py"] = RECORDER
    files["pyproject.toml"] = '[tool.failcode]\nregistry = ["codes.py:CODES"]\n'
    write_tree(root, files)
    return root, markers


@pytest.mark.parametrize("command", ["check", "sites", "registry"])
def test_checked_code_is_never_run(tree, command):
    root, markers = tree
    result = failcode(command, "--format", "json", ".", cwd=root)
    assert "Traceback" not in result.stderr, result.stderr
    assert sorted(path.name for path in markers.iterdir()) == []
    document = json.loads(result.stdout)
    if command == "check":
        # PROVIDER_FAILED is in CODES (read from codes.py without importing it); NOT_REGISTERED is not
        assert result.returncode == 1, result.stderr
        assert findings_of(result) == [("pkg/worker.py", "FC006", 8), ("pkg/worker.py", "FC001", 10)]
    elif command == "sites":
        assert result.returncode == 0, result.stderr
        assert [(s["code"], s["registered"]) for s in document["sites"]] == [
            ("PROVIDER_FAILED", True), ("NOT_REGISTERED", False)]
    else:
        assert result.returncode == 0, result.stderr
        assert [(r["name"], r["path"], r["configured"], r["codes"]) for r in document["registries"]] == [
            ("CODES", "codes.py", True, ["PROVIDER_FAILED", "PARSE_FAILED"])]


def test_nothing_runs_with_a_worker_pool_and_cache(tree):
    root, markers = tree
    write_tree(root, {f"pkg/more{n}.py": RECORDER for n in range(12)})
    for _ in range(2):  # cold, then warm
        result = failcode("check", "--format", "json", "--jobs", "2", "--use-cache", ".", cwd=root)
        assert result.returncode == 1, result.stderr
        assert len(findings_of(result)) == 26
    assert sorted(path.name for path in markers.iterdir()) == []
