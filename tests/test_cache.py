"""The cache never changes an answer: damaged entries are rebuilt, concurrent runs agree, a changed
configuration never reuses facts extracted under the old one, and an unwritable cache only costs time.

Every test compares a cached run with what the contract expects and with a `--no-cache` run of the
same tree. Entries are found on disk under the cache directory (every file but CACHEDIR.TAG and .gitignore).
"""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import GOOD, failcode, findings_of, permissions_apply, write_tree

LOWER = GOOD.replace("PROVIDER_FAILED", "provider_failed")
TAG_SIGNATURE = "Signature: 8a477f597d28d172789f06886806bc55"


def _tree(root: Path) -> Path:
    write_tree(root, {f"pkg/m{n}.py": GOOD for n in range(10)})
    write_tree(root, {"pkg/lower.py": LOWER, "pkg/broken.py": "def broken(:\n"})
    return root


def _entries(cache: Path) -> list[Path]:
    return sorted(p for p in cache.rglob("*") if p.is_file() and p.name not in ("CACHEDIR.TAG", ".gitignore"))


def _check(root: Path, *args: str, **kwargs) -> subprocess.CompletedProcess:
    result = failcode("check", "--format", "json", *args, "pkg", cwd=root, **kwargs)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def _expected(result: subprocess.CompletedProcess) -> None:
    """The contract's answer for _tree: FC006 at line 5 of each m*.py, broken.py unparseable, exit 3.
    (`provider_failed` is not code-shaped under the default code-pattern: no finding in lower.py.)"""
    assert result.returncode == 3, result.stderr
    assert findings_of(result) == [(f"pkg/m{n}.py", "FC006", 5) for n in range(10)]


def test_cache_directory_is_created_with_a_cachedir_tag(tmp_path):
    _tree(tmp_path)
    cache = tmp_path / "deep" / "cache"
    _expected(_check(tmp_path, "--cache-dir", str(cache)))
    assert (cache / "CACHEDIR.TAG").read_text().startswith(TAG_SIGNATURE)
    assert len(_entries(cache)) == 12  # one per file, the unparseable one included


def test_default_cache_directory_never_shows_as_untracked_in_git(tmp_path):
    """Its own `.gitignore` (`*`) hides it: `git status` lists the checked files, not the cache."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    _tree(tmp_path)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    _expected(_check(tmp_path, "--use-cache"))
    assert (tmp_path / ".failcode_cache" / ".gitignore").read_text().splitlines()[-1] == "*"
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=tmp_path,
                            capture_output=True, text=True, check=True).stdout
    untracked = sorted(line[3:] for line in status.splitlines())
    assert untracked == sorted(["pkg/broken.py", "pkg/lower.py", *(f"pkg/m{n}.py" for n in range(10))])


def test_default_cache_location_is_tagged(tmp_path):
    _tree(tmp_path)
    _expected(_check(tmp_path, "--use-cache"))
    assert (tmp_path / ".failcode_cache" / "CACHEDIR.TAG").read_text().startswith(TAG_SIGNATURE)
    _expected(_check(tmp_path, "--use-cache"))  # and the cache directory itself is never checked


def test_warm_cache_gives_the_same_answer(tmp_path):
    _tree(tmp_path)
    cache = str(tmp_path / "cache")
    cold, warm, plain = _check(tmp_path, "--cache-dir", cache), _check(tmp_path, "--cache-dir", cache), _check(tmp_path)
    _expected(cold)
    assert cold.stdout == warm.stdout == plain.stdout


def test_truncated_and_garbage_entries_are_rebuilt(tmp_path):
    _tree(tmp_path)
    cache = tmp_path / "cache"
    first = _check(tmp_path, "--cache-dir", str(cache))
    entries = _entries(cache)
    originals = {path: path.read_bytes() for path in entries}
    entries[0].write_bytes(originals[entries[0]][: len(originals[entries[0]]) // 2])  # truncated
    entries[1].write_bytes(os.urandom(200))  # garbage
    entries[2].write_bytes(b"")  # empty
    entries[3].write_bytes(pickle.dumps({"not": "facts"}))  # a valid pickle of the wrong thing

    again = _check(tmp_path, "--cache-dir", str(cache))

    _expected(again)
    assert again.stdout == first.stdout
    for path in entries[:4]:  # rebuilt, not left damaged (the same facts, if not the same bytes)
        assert pickle.loads(path.read_bytes()) == pickle.loads(originals[path])


def test_entry_of_an_edited_file_is_not_reused(tmp_path):
    _tree(tmp_path)
    cache = str(tmp_path / "cache")
    _expected(_check(tmp_path, "--cache-dir", cache))
    (tmp_path / "pkg" / "m3.py").write_text("def run():\n    return 1\n")
    result = _check(tmp_path, "--cache-dir", cache)
    assert findings_of(result) == [(f"pkg/m{n}.py", "FC006", 5) for n in range(10) if n != 3]


def test_changed_configuration_never_reuses_stale_facts(tmp_path):
    """With `code-pattern` for lower_snake codes, `provider_failed` becomes a code: FC006 in lower.py."""
    _tree(tmp_path)
    cache = str(tmp_path / "cache")
    _expected(_check(tmp_path, "--cache-dir", cache))

    (tmp_path / "pyproject.toml").write_text('[tool.failcode]\ncode-pattern = "^[a-z]+(_[a-z]+)+$"\n')
    changed = _check(tmp_path, "--cache-dir", cache)
    assert changed.returncode == 3
    assert findings_of(changed) == [("pkg/lower.py", "FC006", 5)]
    assert changed.stdout == _check(tmp_path).stdout

    (tmp_path / "pyproject.toml").write_text(
        '[tool.failcode.sinks]\nreceivers = ["outbox"]\nreplace = true\n')
    sinks = _check(tmp_path, "--cache-dir", cache)
    assert findings_of(sinks) == []  # `failures` is no longer a sink: nothing records a code
    assert sinks.stdout == _check(tmp_path).stdout

    (tmp_path / "pyproject.toml").unlink()
    _expected(_check(tmp_path, "--cache-dir", cache))


def test_concurrent_runs_on_one_cache(tmp_path):
    _tree(tmp_path)
    write_tree(tmp_path, {f"pkg/more{n}.py": GOOD for n in range(30)})
    cache = str(tmp_path / "cache")
    argv = [sys.executable, "-m", "failcode", "check", "--format", "json", "--cache-dir", cache, "--jobs", "2", "pkg"]
    runs = [subprocess.Popen(argv, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [3, 3], outputs
    assert outputs[0][0] == outputs[1][0] == _check(tmp_path).stdout
    assert all("Traceback" not in err for _, err in outputs)
    assert _check(tmp_path, "--cache-dir", cache).stdout == outputs[0][0]
    assert not [p for p in Path(cache).rglob(".tmp-*")], "temporary files left behind"


def test_cache_dir_that_cannot_be_created(tmp_path):
    _tree(tmp_path)
    (tmp_path / "blocker").write_text("a file, not a directory")
    result = _check(tmp_path, "--cache-dir", str(tmp_path / "blocker" / "cache"))
    _expected(result)
    assert result.stdout == _check(tmp_path).stdout


def test_read_only_tree(tmp_path):
    """The default cache lives in the tree; a tree nobody may write to still lints, the same way."""
    preexec = permissions_apply(tmp_path)
    root = tmp_path / "project"
    _tree(root)
    expected = _check(root)
    directories = [root, *(p for p in root.rglob("*") if p.is_dir())]
    for directory in directories:
        directory.chmod(0o555)
    try:
        result = _check(root, "--use-cache", preexec_fn=preexec)
    finally:
        for directory in directories:
            directory.chmod(0o755)
    _expected(result)
    assert result.stdout == expected.stdout
    assert not (root / ".failcode_cache").exists()


def test_read_only_warm_cache(tmp_path):
    """A cache filled earlier and now read-only is read, and the new entries it cannot take are skipped."""
    preexec = permissions_apply(tmp_path)
    _tree(tmp_path)
    cache = tmp_path / "cache"
    _expected(_check(tmp_path, "--cache-dir", str(cache)))
    (tmp_path / "pkg" / "m3.py").write_text("def run():\n    return 1\n")
    directories = [cache, *(p for p in cache.rglob("*") if p.is_dir())]
    for directory in directories:
        directory.chmod(0o555)
    try:
        result = _check(tmp_path, "--cache-dir", str(cache), preexec_fn=preexec)
    finally:
        for directory in directories:
            directory.chmod(0o755)
    assert result.returncode == 3
    assert findings_of(result) == [(f"pkg/m{n}.py", "FC006", 5) for n in range(10) if n != 3]


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX")
def test_entry_that_would_run_code_is_not_loaded(tmp_path):
    """A cache directory planted in a repository (every entry replaced by a pickle that runs code)."""
    _tree(tmp_path)
    cache = tmp_path / "cache"
    first = _check(tmp_path, "--cache-dir", str(cache))
    marker = tmp_path / "PWNED"

    class Payload:
        def __reduce__(self):
            return (exec, (f"open({str(marker)!r}, 'w').write('ran')",))

    for entry in _entries(cache):
        entry.write_bytes(pickle.dumps(Payload(), protocol=pickle.HIGHEST_PROTOCOL))

    again = _check(tmp_path, "--cache-dir", str(cache))

    assert not marker.exists()
    assert again.stdout == first.stdout
