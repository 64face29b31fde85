"""The same tree gives the same output, byte for byte, whatever the number of jobs and run after run.

The contract orders findings by path, line, column and rule "whatever the number of jobs"; errors are
per file and must not depend on which worker met the file. The tree holds enough files for
`--jobs 2` to use the worker pool (a handful would be extracted in-process), with findings of
several rules, a project-wide rule (FC001 across files) and input errors.
"""

from __future__ import annotations

import json
import random
import shutil

import pytest

from conftest import REPO, failcode, write_tree

MODULE = '''
from .codes import FAILURE_CODES


def step_{n}(failures, client):
    try:
        data = client.fetch()
        result = client.compare(data)
    except Exception:
        failures.add("PROVIDER_FAILED")
    failures.add("UNKNOWN_{n}_FAILED")
    return result
'''


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("determinism")
    shutil.copytree(REPO / "examples", root / "examples")
    files = {"pkg/__init__.py": "", "pkg/codes.py": 'FAILURE_CODES = ["PROVIDER_FAILED", "PARSE_FAILED"]\n'}
    files.update({f"pkg/m{n:02d}.py": MODULE.format(n=n) for n in range(24)})
    files["pkg/broken.py"] = "def broken(:\n"
    write_tree(root, files)
    (root / "pkg" / "binary.py").write_bytes(b"\xff\xfe\x00")
    return root


def _run(root, *args):
    result = failcode("check", *args, ".", cwd=root)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 3, result.stderr  # findings, and two files that cannot be checked
    return result


@pytest.mark.parametrize("output", ["json", "text"])
def test_jobs_1_and_jobs_2_agree(tree, output):
    one = _run(tree, "--format", output, "--jobs", "1")
    two = _run(tree, "--format", output, "--jobs", "2")
    assert one.stdout == two.stdout
    assert one.stderr == two.stderr


def test_output_is_sorted_and_complete(tree):
    document = json.loads(_run(tree, "--format", "json", "--jobs", "2").stdout)
    keys = [(f["path"], f["line"], f["column"], f["rule"]) for f in document["findings"]]
    assert keys == sorted(keys)
    paths = {f["path"] for f in document["findings"]}
    assert {f"pkg/m{n:02d}.py" for n in range(24)} <= paths
    assert sorted((e["path"], e["kind"]) for e in document["errors"]) == [
        ("pkg/binary.py", "undecodable"), ("pkg/broken.py", "unparseable")]
    # the project-wide rule sees every file whichever worker read it: each module's own code is
    # unregistered in pkg/codes.py, and PROVIDER_FAILED is registered
    for n in range(24):
        assert (f"pkg/m{n:02d}.py", "FC001", 10) in {(f["path"], f["rule"], f["line"]) for f in document["findings"]}
    assert not any(f["rule"] == "FC001" and f["code"] == "PROVIDER_FAILED" for f in document["findings"])


def test_repeated_runs_agree(tree):
    outputs = {_run(tree, "--format", "json", "--jobs", "2").stdout for _ in range(3)}
    assert len(outputs) == 1


def test_order_of_paths_on_the_command_line_does_not_matter(tree):
    paths = sorted(str(path.relative_to(tree)) for path in (tree / "pkg").glob("*.py"))
    shuffled = paths[:]
    random.Random(7).shuffle(shuffled)
    runs = [failcode("check", "--format", "json", "--jobs", "2", *order, cwd=tree) for order in (paths, shuffled)]
    assert runs[0].returncode == runs[1].returncode == 3
    assert runs[0].stdout == runs[1].stdout
