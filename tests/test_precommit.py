"""The pre-commit hook for real: pre-commit clones this repository, installs failcode into its own
environment from the package index, and runs the hook on a project's files.

The hook repository is a snapshot of this working tree (tracked and untracked files, not ignored
ones) committed into a temp git repository, so the test exercises the code as it is now, committed
or not.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, write_tree

IDENTITY = {"GIT_AUTHOR_NAME": "failcode tests", "GIT_AUTHOR_EMAIL": "tests@example.invalid",
            "GIT_COMMITTER_NAME": "failcode tests", "GIT_COMMITTER_EMAIL": "tests@example.invalid"}
BLAMING = """
def run_case(client, case, failures):
    try:
        prompt = build_prompt(case)
        reply = client.complete(prompt)
    except Exception:
        failures.add("PROVIDER_FAILED")
        return None
    return reply.strip()
"""
FIXED = BLAMING.replace("except Exception:", "except ConnectionError:")
REGISTRY = """
FAILURE_CODES = ("PARSE_FAILED", "COMPARE_FAILED", "NEVER_RECORDED")
"""
GRADE = """
from pkg.codes import FAILURE_CODES


def grade(failures, ok):
    failures.add("PARSE_FAILED" if ok else "COMPARE_FAILED")
"""


def git(*args: str, cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def snapshot(destination: Path, env: dict[str, str]) -> str:
    """Commit this working tree into a fresh repository; return the commit's sha."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO,
                            capture_output=True, check=True, timeout=60).stdout.decode().split("\0")
    for rel in filter(None, listed):
        source = REPO / rel
        if source.is_file():  # ls-files also lists tracked files deleted from the working tree
            target = destination / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    git("init", "-q", cwd=destination, env=env)
    git("add", "-A", cwd=destination, env=env)
    git("commit", "-q", "-m", "snapshot", cwd=destination, env=env)
    return git("rev-parse", "HEAD", cwd=destination, env=env)


@pytest.mark.slow
@pytest.mark.network
def test_hook_fails_on_a_finding_and_passes_once_fixed(tmp_path):
    env = {**os.environ, **IDENTITY, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    env.pop("NO_COLOR", None)
    hooks = tmp_path / "failcode-hooks"
    hooks.mkdir()
    rev = snapshot(hooks, env)
    assert (hooks / ".pre-commit-hooks.yaml").is_file()

    project = tmp_path / "project"
    project.mkdir()
    git("init", "-q", cwd=project, env=env)
    write_tree(project, {
        ".pre-commit-config.yaml": f"""
            repos:
              - repo: {hooks}
                rev: {rev}
                hooks:
                  - id: failcode
        """,
        "runner.py": BLAMING,
        "notes.txt": "not python: the hook must not be given this file\n",
    })
    git("add", "-A", cwd=project, env=env)
    git("commit", "-q", "-m", "blaming handler", cwd=project, env=env)

    def pre_commit() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"],
                              cwd=project, env=env, capture_output=True, text=True, timeout=900)

    failed = pre_commit()
    output = failed.stdout + failed.stderr
    assert failed.returncode == 1, output
    # FC006 at the `except` keyword: line 5, column 5
    assert "runner.py:5:5: FC006" in output, output
    assert "notes.txt" not in output

    (project / "runner.py").write_text(FIXED.lstrip("\n"), encoding="utf-8")
    git("commit", "-q", "-am", "narrow the handler", cwd=project, env=env)
    passed = pre_commit()
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout

    # A commit passes only its changed files. Unused registry codes are asked for, and the registry
    # module is committed once, then left unchanged.
    write_tree(project, {"pyproject.toml": '[tool.failcode]\nextend-select = ["FC008"]\n',
                         "pkg/__init__.py": "", "pkg/codes.py": REGISTRY, "pkg/grade.py": GRADE})
    git("add", "-A", cwd=project, env=env)
    git("commit", "-q", "-m", "registry and grader", cwd=project, env=env)

    def pre_commit_files(*files: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--color", "never", "--files", *files],
                              cwd=project, env=env, capture_output=True, text=True, timeout=900)

    # only the grader changes, to a code its registry lacks: judged against the unchanged registry
    (project / "pkg" / "grade.py").write_text(GRADE.lstrip("\n").replace('"COMPARE_FAILED"', '"COMPARE_FIALED"'),
                                             encoding="utf-8")
    typo = pre_commit_files("pkg/grade.py")
    output = typo.stdout + typo.stderr
    assert typo.returncode == 1, output
    assert "pkg/grade.py:5:44: FC001 COMPARE_FIALED" in output and "did you mean COMPARE_FAILED?" in output, output
    # only the registry changes: NEVER_RECORDED is recorded nowhere in the changed files, which is
    # no evidence that it is unused, so FC008 stays quiet on a partial run; the unchanged grader
    # that imports it is checked against it, and agrees
    (project / "pkg" / "grade.py").write_text(GRADE.lstrip("\n"), encoding="utf-8")
    registry_only = pre_commit_files("pkg/codes.py")
    assert registry_only.returncode == 0, registry_only.stdout + registry_only.stderr
    # the registry drops a code the unchanged grader still records: the hook re-checks the grader,
    # which imports the changed registry module, and reports the code now missing from it
    (project / "pkg" / "codes.py").write_text(REGISTRY.lstrip("\n").replace('"COMPARE_FAILED", ', ""),
                                             encoding="utf-8")
    git("commit", "-q", "-am", "drop a code from the registry", cwd=project, env=env)
    dropped = pre_commit_files("pkg/codes.py")
    output = dropped.stdout + dropped.stderr
    assert dropped.returncode == 1, output
    assert "pkg/grade.py:5:44: FC001 COMPARE_FAILED is recorded" in output, output
