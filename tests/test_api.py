"""The Python API for editors: `failcode.check_paths` and `failcode.check_source` return the
same Finding / FileError dataclasses the command line prints."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, failcode, write_tree

import failcode as package
from failcode import api
from failcode.config import ConfigError, Settings
from failcode.engine import Options
from failcode.model import FileError, Finding

NO_CACHE = Options(use_cache=False)


def as_json_rows(findings: list[Finding]) -> list[dict]:
    return [{"rule": f.rule, "path": f.path, "line": f.pos.line, "column": f.pos.column, "end_line": f.pos.end_line,
             "end_column": f.pos.end_column, "message": f.message, "code": f.code, "confidence": f.confidence}
            for f in findings]


def cli_rows(stdout: str) -> list[dict]:
    return [{key: value for key, value in row.items() if key != "name"} for row in json.loads(stdout)["findings"]]


@pytest.fixture
def harness(tmp_path: Path, monkeypatch) -> Path:
    shutil.copytree(REPO / "examples" / "harness", tmp_path / "harness")
    monkeypatch.chdir(tmp_path)  # paths display relative to the working directory, as the CLI's do
    return tmp_path


def test_check_paths_matches_the_cli(harness):
    result = package.check_paths(["harness"], options=NO_CACHE)
    cli = failcode("check", "--format", "json", "harness", cwd=harness)
    assert cli.returncode == 1, cli.stderr
    assert all(isinstance(f, Finding) for f in result.findings)
    assert as_json_rows(result.findings) == cli_rows(cli.stdout)
    assert len(result.findings) == 12  # examples/EXPECTED.md
    assert result.errors == []
    assert result.exit_code == 1


def test_check_paths_reports_unparseable_files_as_errors(harness):
    write_tree(harness, {"harness/broken.py": "def broken(:\n"})
    result = api.check_paths("harness", options=NO_CACHE)
    assert [(e.path, e.kind) for e in result.errors] == [("harness/broken.py", "unparseable")]
    assert all(isinstance(e, FileError) for e in result.errors)
    assert len(result.findings) == 12
    assert result.exit_code == 3


def test_config_as_path_or_settings(harness):
    (harness / "failcode.toml").write_text('ignore = ["FC003"]\n', encoding="utf-8")
    from_file = api.check_paths(["harness"], config="failcode.toml", options=NO_CACHE)
    assert sorted({f.rule for f in from_file.findings}) == ["FC001", "FC002", "FC004", "FC005", "FC006", "FC007"]
    settings = Settings(root=harness, ignore=("FC003", "FC005"))
    from_settings = api.check_paths(["harness"], config=settings, options=NO_CACHE)
    assert "FC005" not in {f.rule for f in from_settings.findings}
    assert len(from_settings.findings) == 7  # 12 of examples/EXPECTED.md less 4 FC003 and 1 FC005


def test_bad_config_raises_config_error(harness):
    (harness / "failcode.toml").write_text('unknown-key = 1\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="unknown-key"):
        api.check_paths(["harness"], config=harness / "failcode.toml", options=NO_CACHE)


def test_check_source_matches_cli_stdin(harness):
    text = (harness / "harness" / "reducer.py").read_text(encoding="utf-8")
    result = package.check_source(text, path="harness/reducer.py", options=NO_CACHE)
    # one file: FC002 at the `try` (17), FC003 at the handler's site (22), and FC001 at the made-up
    # code (15), judged against the registry of `.codes`, which the buffer imports and which is read
    # although only the buffer is checked
    assert [(f.path, f.rule, f.pos.line) for f in result.findings] == [
        ("harness/reducer.py", "FC001", 15), ("harness/reducer.py", "FC002", 17), ("harness/reducer.py", "FC003", 22)]
    cli = failcode("check", "--format", "json", "--stdin-filename", "harness/reducer.py", cwd=harness, input=text)
    assert as_json_rows(result.findings) == cli_rows(cli.stdout)


def test_check_source_of_an_unsaved_buffer(harness):
    result = api.check_source("def broken(:\n", options=NO_CACHE)
    assert result.findings == []
    assert [(e.path, e.kind) for e in result.errors] == [("<stdin>", "unparseable")]
    quiet = api.check_source(b"x = 1\n", path="new/module.py", options=NO_CACHE)  # need not exist
    assert (quiet.findings, quiet.errors, quiet.files) == ([], [], 1)


def test_in_process_check_leaves_ctrl_c_to_the_host():
    """An editor calling the API keeps its own SIGINT handling (a one-file check runs in-process)."""
    code = ("import signal, failcode; failcode.check_source('x = 1\\n'); "
            "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"


@pytest.mark.parametrize("automatic", [True, False])
def test_in_process_check_leaves_garbage_collection_as_the_host_set_it(automatic, tmp_path):
    """failcode turns automatic garbage collection off while it extracts a file: the host's
    setting, on or off, is what it finds after the call, and nothing of its heap stays frozen."""
    write_tree(tmp_path, {"a.py": "def f():\n    return 1\n", "b.py": "x = 1\n"})
    code = (f"import gc, failcode; gc.enable() if {automatic} else gc.disable(); "
            f"failcode.check_paths([{str(tmp_path)!r}]); "
            "print(gc.isenabled(), gc.get_freeze_count())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(automatic), "0"]


def test_package_exports_the_api_on_first_use():
    code = "import failcode; r = failcode.check_source('x = 1\\n'); print(failcode.__version__, len(r.findings))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [package.__version__, "0"]
    assert package.check_paths is api.check_paths
    with pytest.raises(AttributeError):
        package.no_such_name  # noqa: B018
