"""Bad input never crashes failcode, never reads as a finding, and never goes silent.

Each case puts a real bad file (or directory, link, configuration) beside `good.py`, whose one
finding is known from the contract (FC006 at the `except` keyword, line 5, column 5), and runs the
real CLI. The contract says what must come out: exit 3 and one line `path: kind: reason` on stderr
for input that cannot be checked, the other files still checked (so good.py's finding is still
reported, and 3 outranks its 1), exit 2 and `failcode: error: ...` for a usage or configuration
mistake (nothing checked), and never a traceback.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Optional

import pytest

from conftest import GOOD, failcode, permissions_apply, write_tree
from failcode import engine
from failcode.config import Settings
from failcode.files import FileFinder
from failcode.resolve import Resolver
from failcode.model import FileError

GOOD_FINDING = "good.py:5:5: FC006 "

# A file's own FC006, to prove a file that looks odd (BOM, cookie, size) was really checked.
FINDING_BODY = GOOD.lstrip("\n")


def _run(root: Path, *paths: str, preexec_fn=None):
    result = failcode("check", *paths, cwd=root, preexec_fn=preexec_fn)
    assert "Traceback" not in result.stderr, result.stderr
    assert "Traceback" not in result.stdout, result.stdout
    return result


# ruff's tags: E999 for syntax, E902 for a file that cannot be read or decoded
TAGS = {"unparseable": "E999 SyntaxError: ", "undecodable": "E902 ", "unreadable": "E902 "}


def _input_error(result, path: str, kind: str, reason: str, at: Optional[str] = None) -> None:
    """Exit 3, good.py still reported, and exactly one stderr line `path:line:col: TAG …reason…`,
    at `at` when given; a file that cannot be read or decoded has no better position than 1:1."""
    assert result.returncode == 3, (result.returncode, result.stdout, result.stderr)
    assert GOOD_FINDING in result.stdout, result.stdout
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    at = at or (r"\d+:\d+" if kind == "unparseable" else "1:1")
    assert re.match(rf"{re.escape(path)}:{at}: {TAGS[kind]}", lines[0]), lines
    assert reason in lines[0], lines


def _clean(result, files: int) -> None:
    """The odd file was checked like any other: only good.py's finding, no error."""
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert result.stderr.strip() == ""
    assert [line for line in result.stdout.splitlines() if ": FC" in line] == \
        [line for line in result.stdout.splitlines() if line.startswith(GOOD_FINDING)]
    assert f"{files} files checked" in result.stdout


@pytest.fixture
def root(tmp_path: Path) -> Path:
    write_tree(tmp_path, {"good.py": GOOD})
    return tmp_path


# -- files that are fine, if unusual ---------------------------------------------------------------

def test_empty_file(root):
    (root / "empty.py").write_bytes(b"")
    _clean(_run(root, "empty.py", "good.py"), files=2)


def test_only_comments(root):
    (root / "comments.py").write_text("# nothing\n# but comments\n")
    _clean(_run(root, "comments.py", "good.py"), files=2)


def test_bom_file_is_checked(root):
    (root / "bom.py").write_bytes(b"\xef\xbb\xbf" + FINDING_BODY.encode())
    result = _run(root, "bom.py", "good.py")
    assert result.returncode == 1
    assert "bom.py:5:5: FC006 " in result.stdout
    assert GOOD_FINDING in result.stdout


def test_latin1_cookie_with_non_ascii_is_checked(root):
    source = '# -*- coding: latin-1 -*-\nNAME = "café"\n' + FINDING_BODY
    (root / "latin.py").write_bytes(source.encode("latin-1"))
    result = _run(root, "latin.py", "good.py")
    assert result.returncode == 1, result.stderr
    assert "latin.py:7:5: FC006 " in result.stdout  # two lines above the body
    assert result.stderr.strip() == ""


def test_large_module_of_data_is_checked(root):
    """5 MB of embedded data (string blobs) and a function at the end: checked, finding found."""
    lines = ['"""Generated: embedded data."""']
    size = 0
    index = 0
    while size < 5_000_000:
        chunk = "".join(chr(65 + (index * 7 + j) % 26) for j in range(76))
        block = f"BLOB_{index:05d} = (\n" + "\n".join(f'    "{chunk}"' for _ in range(40)) + "\n)"
        lines.append(block)
        size += len(block) + 1
        index += 1
    _assert_checked_after(root, "big.py", lines)


@pytest.mark.slow
def test_large_generated_table_is_checked(root):
    """5 MB of dense generated code (a table of dicts: ~1M tokens). LibCST needs ~45 s and ~3 GB."""
    lines = []
    size = 0
    index = 0
    while size < 5_000_000:
        line = (f'ENTRY_{index:06d} = {{"name": "entry-{index}", "weight": {index * 7 % 1000}, '
                f'"tags": ("alpha", "beta"), "ratio": {index / 3:.6f}}}')
        lines.append(line)
        size += len(line) + 1
        index += 1
    _assert_checked_after(root, "table.py", lines)


def _assert_checked_after(root: Path, name: str, lines: list[str]) -> None:
    """`lines` of generated code, then the known finding: its FC006 is reported at its own line."""
    source = "\n".join(lines) + "\n\n\n" + FINDING_BODY
    (root / name).write_text(source)
    except_line = source.splitlines().index("    except Exception:") + 1
    result = _run(root, name, "good.py")
    assert result.returncode == 1, result.stderr
    assert f"{name}:{except_line}:5: FC006 " in result.stdout


# -- input that cannot be checked: exit 3, one line, the rest still checked ----------------------------

def test_invalid_utf8(root):
    (root / "bad.py").write_bytes(b'x = "\xff\xfe"\n')
    _input_error(_run(root, "bad.py", "good.py"), "bad.py", "undecodable", "cannot decode")


def test_cookie_naming_an_unknown_encoding(root):
    (root / "bad.py").write_bytes(b"# -*- coding: no-such-codec -*-\nx = 1\n")
    _input_error(_run(root, "bad.py", "good.py"), "bad.py", "undecodable", "no-such-codec")


def test_nul_bytes(root):
    (root / "bad.py").write_bytes(b"x = 1\x00\ny = 2\n")
    _input_error(_run(root, "bad.py", "good.py"), "bad.py", "unparseable", "NUL byte")


def test_syntax_error(root):
    (root / "bad.py").write_text("def broken(:\n    pass\n")
    _input_error(_run(root, "bad.py", "good.py"), "bad.py", "unparseable", "invalid syntax", at="1:12")


def test_syntax_only_libcst_checks(root):
    """`except:` before another handler parses, but LibCST's validation rejects it: input, not a bug."""
    (root / "bad.py").write_text("def f(failures):\n    try:\n        pass\n    except:\n"
                                 "        failures.add('A_FAILED')\n    except ValueError:\n        pass\n")
    _input_error(_run(root, "bad.py", "good.py"), "bad.py", "unparseable", "except")


def test_python2_print_statement(root):
    (root / "bad.py").write_text('print "hello"\n')
    _input_error(_run(root, "bad.py", "good.py"), "bad.py", "unparseable", "Missing parentheses", at="1:1")


def test_brackets_nested_1000_deep(root):
    """LibCST's parser would crash the process (its stack overflows); Python allows 200 levels."""
    (root / "bad.py").write_text("x = " + "(" * 1000 + "1" + ")" * 1000 + "\n")
    _input_error(_run(root, "bad.py", "good.py"), "bad.py", "unparseable", "nested")


@pytest.mark.parametrize("expression", [
    "1" + " + 1" * 20_000,           # valid for Python's parser, 20,000 levels deep for LibCST
    "lambda: " * 5_000 + "1",        # more than LibCST's stack holds
    "f(" * 150 + "lambda: " * 3_000 + "1" + ")" * 150,
], ids=["binop-chain", "lambda-chain", "calls-and-lambdas"])
def test_expression_nested_beyond_libcst(root, expression):
    (root / "bad.py").write_text("def f(failures):\n    failures.add('SOME_CODE')\n    x = " + expression + "\n")
    _input_error(_run(root, "bad.py", "good.py"), "bad.py", "unparseable", "nested")


def test_deep_but_within_limits_is_checked(root):
    """Nesting LibCST handles (150 brackets around a 1,000-term sum) is checked, not refused."""
    body = "x = " + "(" * 150 + "1" + " + 1" * 1_000 + ")" * 150 + "\n"
    (root / "deep.py").write_text(body + FINDING_BODY)
    result = _run(root, "deep.py", "good.py")
    assert result.returncode == 1, result.stderr
    assert "deep.py:6:5: FC006 " in result.stdout


def test_long_file_with_carriage_return_line_endings_is_checked(root):
    """Python reads a lone CR as a line break: 5,000 short statements are not one deep expression."""
    statements = "".join(f"x{n} = a.b.c + 1 - 2 * 3\r" for n in range(5_000))
    (root / "mac.py").write_bytes((statements + FINDING_BODY.replace("\n", "\r")).encode())
    result = _run(root, "mac.py", "good.py")
    assert result.returncode == 1, result.stderr
    assert "mac.py:5005:5: FC006 " in result.stdout


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_symlink_loop(root):
    os.symlink("loop_b.py", root / "loop_a.py")
    os.symlink("loop_a.py", root / "loop_b.py")
    result = _run(root, "loop_a.py", "good.py")
    _input_error(result, "loop_a.py", "unreadable", "cannot read")


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_symlink_loop_inside_a_directory(root):
    os.symlink("loop_b.py", root / "loop_a.py")
    os.symlink("loop_a.py", root / "loop_b.py")
    result = _run(root, ".")
    assert result.returncode == 3
    assert GOOD_FINDING in result.stdout
    errors = sorted(result.stderr.splitlines())
    assert [line.split(" ")[:2] for line in errors] == [["loop_a.py:1:1:", "E902"], ["loop_b.py:1:1:", "E902"]]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_dangling_symlink(root):
    os.symlink("missing.py", root / "dangling.py")
    _input_error(_run(root, "dangling.py", "good.py"), "dangling.py", "unreadable", "No such file")
    _input_error(_run(root, "."), "dangling.py", "unreadable", "No such file")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_fifo_named_like_a_module(root):
    """Opening a FIFO waits for a writer for ever: refused, not read (and not a hang)."""
    os.mkfifo(root / "pipe.py")
    _input_error(_run(root, "pipe.py", "good.py"), "pipe.py", "unreadable", "not a regular file")
    _input_error(_run(root, "."), "pipe.py", "unreadable", "not a regular file")


@pytest.mark.skipif(not os.path.exists("/dev/zero") or not hasattr(os, "symlink"), reason="no /dev/zero")
def test_link_to_an_endless_device(root):
    """`x.py -> /dev/zero` would be read until memory runs out: refused."""
    os.symlink("/dev/zero", root / "zero.py")
    _input_error(_run(root, "."), "zero.py", "unreadable", "not a regular file")


def test_directory_named_like_a_module(root):
    """`pkg.py/` is a directory: walked, its files checked, never read as a file."""
    write_tree(root, {"pkg.py/inner.py": FINDING_BODY})
    for given in (["pkg.py", "good.py"], ["."]):
        result = _run(root, *given)
        assert result.returncode == 1, result.stderr
        assert result.stderr.strip() == ""
        assert "pkg.py/inner.py:5:5: FC006 " in result.stdout
        assert GOOD_FINDING in result.stdout
        assert "2 files checked" in result.stdout


def test_file_without_read_permission(root, tmp_path):
    preexec = permissions_apply(tmp_path)
    secret = root / "secret.py"
    secret.write_text(FINDING_BODY)
    secret.chmod(0)
    try:
        _input_error(_run(root, "secret.py", "good.py", preexec_fn=preexec), "secret.py", "unreadable",
                     "Permission denied")
        _input_error(_run(root, ".", preexec_fn=preexec), "secret.py", "unreadable", "Permission denied")
    finally:
        secret.chmod(0o644)


def test_directory_without_read_permission(root, tmp_path):
    """Files in a directory that cannot be listed are not skipped silently: the directory is named."""
    preexec = permissions_apply(tmp_path)
    write_tree(root, {"locked/inner.py": FINDING_BODY})
    (root / "locked").chmod(0)
    try:
        _input_error(_run(root, ".", preexec_fn=preexec), "locked", "unreadable", "cannot list directory")
    finally:
        (root / "locked").chmod(0o755)


def test_file_deleted_after_discovery(tmp_path):
    """Between FileFinder.find and reading, a file disappears: an input error for it, facts for the rest."""
    write_tree(tmp_path, {"a.py": GOOD, "b.py": GOOD, "c.py": GOOD})
    settings = Settings(root=tmp_path)
    found = FileFinder(Resolver(settings)).find([tmp_path])
    assert [path.name for path in found] == ["a.py", "b.py", "c.py"]
    (tmp_path / "b.py").unlink()
    outcomes = [engine.extract_task(engine.Task(str(path), path.name, path.stem, False), settings)
                for path in found]
    # the other two keep their facts: GOOD's one try block, FC006's subject
    assert [len(outcomes[i].tries) for i in (0, 2)] == [1, 1]
    assert (outcomes[1].path, outcomes[1].kind) == ("b.py", "unreadable")
    assert "No such file" in outcomes[1].message


def test_task_whose_file_was_removed(tmp_path):
    path = tmp_path / "gone.py"
    path.write_text(GOOD)
    task = engine.Task(str(path), "gone.py", "gone", False)
    path.unlink()
    outcome = engine.extract_task(task, Settings(root=tmp_path))
    assert outcome == FileError("gone.py", "unreadable", outcome.message)
    assert outcome.message.startswith("cannot read: ")


# -- paths on the command line ------------------------------------------------------------------------

def test_path_given_twice_is_checked_once(root):
    result = _run(root, "good.py", "good.py", "./good.py", str(root / "good.py"))
    assert result.returncode == 1
    assert result.stdout.count(GOOD_FINDING) == 1
    assert "1 file checked" in result.stdout


def test_nonexistent_path_is_e902_and_the_rest_is_checked(root):
    """ruff's semantics: a missing path is an input error of its own (E902), not a reason to check
    nothing; the other paths are checked and their findings reported. Exit 3: an input could not
    be checked, which outranks the findings' 1."""
    result = _run(root, "nope.py", "good.py")
    assert result.returncode == 3
    assert result.stderr.strip() == "nope.py:1:1: E902 No such file or directory"
    assert GOOD_FINDING in result.stdout
    assert "1 file checked, 1 finding, 1 file could not be checked." in result.stdout


def test_only_missing_paths(root):
    result = _run(root, "nope.py", "gone/")
    assert result.returncode == 3
    assert result.stderr.strip().splitlines() == ["gone:1:1: E902 No such file or directory",
                                                  "nope.py:1:1: E902 No such file or directory"]


# -- configuration: exit 2, nothing checked, the message names the file or entry ------------------------

def _config_error(root: Path, pyproject: str, *expected: str) -> None:
    (root / "pyproject.toml").write_text(pyproject)
    result = _run(root, ".")
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("failcode: error: "), lines
    for text in expected:
        assert text in lines[0], lines
    assert GOOD_FINDING not in result.stdout


def test_pyproject_not_valid_toml(root):
    _config_error(root, "[tool.failcode\nregistry = [\n", "pyproject.toml", "invalid TOML")


def test_tool_failcode_not_a_table(root):
    _config_error(root, "[tool]\nfailcode = 3\n", "`tool.failcode` must be a table")


def test_tool_failcode_key_of_wrong_type(root):
    _config_error(root, "[tool.failcode]\nregistry = 5\n", "`tool.failcode.registry`", "list of strings")


def test_registry_file_missing(root):
    _config_error(root, '[tool.failcode]\nregistry = ["codes.py:CODES"]\n', "`codes.py:CODES`", "not found")


def test_registry_name_missing(root):
    (root / "codes.py").write_text('OTHER_CODES = ["PARSE_FAILED", "READ_FAILED"]\n')
    _config_error(root, '[tool.failcode]\nregistry = ["codes.py:CODES"]\n', "`codes.py:CODES`", "named CODES")


def test_registry_not_a_literal_collection(root):
    (root / "codes.py").write_text("CODES = load_codes()\n")
    _config_error(root, '[tool.failcode]\nregistry = ["codes.py:CODES"]\n', "`codes.py:CODES`", "named CODES")


def test_registry_file_that_cannot_be_parsed(root):
    (root / "codes.py").write_text("CODES = [\n")
    _config_error(root, '[tool.failcode]\nregistry = ["codes.py:CODES"]\n', "`codes.py:CODES`",
                  "could not be read or parsed", "unparseable at 1:9: '[' was never closed")


def test_registry_data_file_not_valid_toml(root):
    (root / "codes.toml").write_text("codes = [unquoted\n")
    _config_error(root, '[tool.failcode]\nregistry = ["codes.toml"]\n', "`codes.toml`", "invalid TOML")


def test_registry_entry_is_a_directory(root):
    (root / "codes.py").mkdir()
    _config_error(root, '[tool.failcode]\nregistry = ["codes.py:CODES"]\n', "`codes.py:CODES`", "not a file")


def test_every_error_line_is_one_line(root):
    """Several bad files at once: one line each, in path order, exit 3 (the highest that applies)."""
    (root / "a_bad.py").write_bytes(b"\xff\n")
    (root / "b_bad.py").write_text("def (:\n")
    (root / "c_bad.py").write_bytes(b"\x00")
    result = _run(root, ".")
    assert result.returncode == 3
    lines = result.stderr.splitlines()
    assert [re.match(r"^(\S+?):(\d+):(\d+): (E\d+) .+$", line).groups() for line in lines] == [
        ("a_bad.py", "1", "1", "E902"), ("b_bad.py", "1", "5", "E999"), ("c_bad.py", "1", "1", "E999")]
    assert GOOD_FINDING in result.stdout
    assert "1 file checked, 1 finding, 3 files could not be checked." in result.stdout
