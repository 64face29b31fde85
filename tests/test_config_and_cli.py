"""Configuration validation, rule selection, the exit-code matrix, suppression and file discovery."""

from __future__ import annotations

import json

import pathspec
import pytest

from failcode.config import Settings
from failcode.files import PathPatterns

FINDING = '''
FAILURE_CODES = ["PARSE_FAILED", "COMPARE_FAILED"]


def run(failures):
    failures.add("PARSE_FAILED")
    failures.add("NOT_REGISTERED")
'''


def test_exit_0_when_clean(project):
    project.write({"a.py": "def f():\n    return 1\n"})
    result = project.run("check")
    assert result.returncode == 0
    assert result.stdout.strip().endswith("1 file checked, 0 findings.")


def test_exit_1_with_findings_and_exit_zero(project):
    project.write({"a.py": FINDING})
    assert project.run("check").returncode == 1
    assert project.run("check", "--exit-zero").returncode == 0


@pytest.mark.parametrize("pyproject,needle", [
    ("[tool.failcode]\nunknown-key = 1\n", "tool.failcode.unknown-key"),
    ("[tool.failcode]\nselect = \"FC001\"\n", "tool.failcode.select"),
    ("[tool.failcode]\ncode-pattern = \"([\"\n", "tool.failcode.code-pattern"),
    ("[tool.failcode]\nselect = [\"FC999\"]\n", "FC999"),
    ("[tool.failcode.sinks]\nreceivers = 3\n", "tool.failcode.sinks.receivers"),
    ("[tool.failcode.stages]\nparse = [\"x\"]\n", "tool.failcode.stages.parse"),
    ("[tool.failcode]\nregistry = [\"missing.py:CODES\"]\n", "missing.py:CODES"),
    ("[tool.failcode]\nregistry = [\"a.py:NOPE\"]\n", "a.py:NOPE"),
    ("[tool.failcode\n", "invalid TOML"),
    ("[tool]\nfailcode = 3\n", "tool.failcode"),
])
def test_exit_2_for_bad_configuration(project, pyproject, needle):
    project.write({"pyproject.toml": pyproject, "a.py": FINDING})
    result = project.run("check")
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert needle in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_exit_2_for_unknown_cli_rule_and_3_for_a_missing_path(project):
    project.write({"a.py": FINDING})
    result = project.run("check", "--select", "FC123")
    assert result.returncode == 2 and "FC123" in result.stderr
    result = project.run("check", "nowhere")  # an input that cannot be read (E902), as ruff reports it
    assert result.returncode == 3 and result.stderr == "nowhere:1:1: E902 No such file or directory\n"


def test_exit_3_for_syntax_error_other_files_still_checked(project):
    project.write({"a.py": FINDING, "b.py": "def (:\n"})
    result = project.run("check", "--format", "json")
    assert result.returncode == 3
    document = json.loads(result.stdout)
    assert [(f["path"], f["rule"]) for f in document["findings"]] == [("a.py", "FC001")]
    # `def (:` — Python stops at the `(` of column 5; the summary counts b.py as an error, not as checked
    assert [(e["path"], e["kind"], e["line"], e["column"]) for e in document["errors"]] == [("b.py", "unparseable", 1, 5)]
    assert document["errors"][0]["message"] == "invalid syntax"
    assert document["summary"] == {"files": 1, "findings": 1, "errors": 1}


def test_exit_3_for_undecodable_file(project):
    project.write({"a.py": FINDING})
    (project.root / "b.py").write_bytes(b"x = '\xff\xfe'\n")
    result = project.run("check")
    assert result.returncode == 3
    assert "b.py:1:1: E902 cannot decode:" in result.stderr


def test_exit_zero_does_not_hide_input_errors(project):
    project.write({"b.py": "def (:\n"})
    assert project.run("check", "--exit-zero").returncode == 3


def test_select_ignore_and_prefixes(project):
    project.write({"a.py": FINDING + '\nDUP_CODES = ["X_FAILED", "X_FAILED"]\n'})
    assert {f[1] for f in project.findings()} == {"FC001", "FC007"}
    assert {f[1] for f in project.findings("--select", "FC007")} == {"FC007"}
    assert {f[1] for f in project.findings("--ignore", "FC001")} == {"FC007"}
    assert {f[1] for f in project.findings("--select", "FC00", "--ignore", "FC007,FC008")} == {"FC001"}


def test_config_select_and_per_file_ignores(project):
    project.write({
        "pyproject.toml": '[tool.failcode]\nextend-select = ["FC008"]\n[tool.failcode.per-file-ignores]\n"legacy/*" = ["FC001"]\n',
        "a.py": FINDING,
        "legacy/b.py": FINDING.replace("FAILURE_CODES", "FAILURE_CODES2"),
    })
    found = project.findings()
    assert ("a.py", "FC001", 6) in found
    assert not any(f[0] == "legacy/b.py" and f[1] == "FC001" for f in found)
    assert ("a.py", "FC008", 1) in found  # COMPARE_FAILED is recorded nowhere


@pytest.mark.parametrize("comment,quiet", [
    ("  # noqa: FC001", True),
    ("  # noqa: FC007, FC001", True),
    ("  # noqa", True),
    ("  # NOQA:FC001", True),
    ("  # noqa: FC002", False),
])
def test_noqa_forms(project, comment, quiet):
    project.write({"a.py": FINDING.replace('"NOT_REGISTERED")', '"NOT_REGISTERED")' + comment)})
    assert (project.findings() == []) is quiet


def test_file_level_noqa(project):
    project.write({"a.py": "# failcode: noqa\n" + FINDING})
    assert project.findings() == []


def test_gitignore_and_exclude(project):
    project.write({
        ".gitignore": "generated/\n",
        "pyproject.toml": '[tool.failcode]\nextend-exclude = ["vendor"]\n',
        "a.py": FINDING,
        "generated/g.py": FINDING,
        "vendor/v.py": FINDING,
        ".venv/lib/x.py": FINDING,
        "notes.txt": FINDING,
    })
    assert {f[0] for f in project.findings()} == {"a.py"}
    # explicitly named files are checked unless --force-exclude
    assert {f[0] for f in project.findings("vendor/v.py")} == {"vendor/v.py"}
    assert project.findings("vendor/v.py", "--force-exclude") == []


def test_gitignore_negation_keeps_a_file(project):
    """A negated pattern (`!generated/keep.py`) brings back what an earlier one excluded: gitignore
    decides by the patterns' order, not by whether any matches."""
    project.write({
        ".gitignore": "generated/*\n!generated/keep.py\n",
        "a.py": FINDING,
        "generated/g.py": FINDING,
        "generated/keep.py": FINDING,
    })
    assert {f[0] for f in project.findings()} == {"a.py", "generated/keep.py"}


def test_patterns_are_matched_from_where_they_are_written(project):
    """A nested `.gitignore`'s anchored pattern (`/gen.py`) is relative to its own folder, and an
    `exclude` with a folder in it (`tools/t.py`) to the configuration's root: the same names
    elsewhere are checked."""
    project.write({
        "pyproject.toml": '[tool.failcode]\nextend-exclude = ["tools/t.py"]\n',
        "pkg/.gitignore": "/gen.py\n",
        "pkg/gen.py": FINDING,
        "pkg/sub/gen.py": FINDING,
        "gen.py": FINDING,
        "tools/t.py": FINDING,
        "pkg/tools/t.py": FINDING,
    })
    assert {f[0] for f in project.findings()} == {"pkg/sub/gen.py", "gen.py", "pkg/tools/t.py"}


PATTERN_LISTS = [
    list(Settings().exclude),
    ["generated/"],
    ["/build", "*.pyc", "docs/**/conf.py", "a?c[0-9].py", "deep/**", "**/cache"],
    ["*.py", "!keep.py"],
    ["generated/*", "!generated/keep.py"],
    ["# a comment", ""],
    [],
]
PATHS = ["a.py", "build/", "build", "src/build/", "x/venv/", "venv", "pkg/a.egg-info/", "generated/",
         "generated/g.py", "generated/keep.py", "keep.py", "docs/conf.py", "docs/a/b/conf.py", "abc1.py",
         "abc12.py", "deep/x/y.py", "a/cache/", "a/cache", "node_modules/", "mod/node_modules/x.py",
         "./build/", "x.pyc"]


@pytest.mark.parametrize("lines", PATTERN_LISTS)
def test_path_patterns_answer_as_pathspec_does(lines):
    """`PathPatterns` asks patterns without a negation as one expression: its answer must be
    gitignore's, as pathspec gives it, pattern by pattern, for every kind of pattern."""
    patterns, spec = PathPatterns(lines), pathspec.GitIgnoreSpec.from_lines(lines)
    assert [patterns.matches(path) for path in PATHS] == [spec.match_file(path) for path in PATHS]


def test_output_is_sorted_and_one_based(project):
    project.write({"b.py": FINDING, "a.py": FINDING})
    """b.py is written first, yet a.py is reported first: order is by path, not by discovery."""
    lines = project.run("check").stdout.splitlines()
    assert [line.split(": FC001 ")[0] for line in lines[:2]] == ["a.py:6:18", "b.py:6:18"]
    assert lines[2:] == ["2 files checked, 2 findings."]


def test_json_shape(project):
    project.write({"a.py": FINDING})
    document = json.loads(project.run("check", "--format", "json").stdout)
    assert set(document) == {"version", "findings", "errors", "summary"}
    (finding,) = document["findings"]
    assert finding == {
        "rule": "FC001", "name": "unregistered-code", "path": "a.py", "line": 6, "column": 18,
        "end_line": 6, "end_column": 34, "message": finding["message"], "code": "NOT_REGISTERED",
        "confidence": "high",
    }


def test_sites_inventory_json(project):
    project.write({"a.py": FINDING + "\n\ndef other(outcome, x):\n    outcome(status=x)\n    outcome(status=UNKNOWN_CONST)\n"})
    result = project.run("sites", "--format", "json")
    assert result.returncode == 0, result.stderr
    sites = json.loads(result.stdout)["sites"]
    assert sites[0] == {"path": "a.py", "line": 5, "column": 18, "code": "PARSE_FAILED", "sink": "failures.add",
                        "function": "run", "context": "plain", "registered": True,
                        "channel": "failures.add", "role": "other", "value": "PARSE_FAILED", "why": ""}
    assert sites[1]["code"] == "NOT_REGISTERED" and sites[1]["registered"] is False
    assert sites[2]["code"] is None and sites[2]["registered"] is None and sites[2]["line"] == 11


def test_rules_and_explain(project):
    result = project.run("rules")
    assert result.returncode == 0
    assert [line.split()[0] for line in result.stdout.splitlines()] == [f"FC00{i}" for i in range(1, 9)]
    explained = project.run("explain", "FC002")
    assert explained.returncode == 0 and explained.stdout.startswith("# FC002: stage-spanning-try")
    assert project.run("explain", "FC999").returncode == 2


def test_explain_without_a_rule_lists_the_rules(project):
    listed = project.run("explain")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout == project.run("rules").stdout
    assert [line.split()[:2] for line in listed.stdout.splitlines()][1] == ["FC002", "stage-spanning-try"]


def test_version(project):
    result = project.run("--version")
    assert result.returncode == 0 and "failcode" in result.stdout


def test_bare_except_before_another_handler_is_unparseable_even_without_codes(project):
    """`ast` accepts it and the pre-screen must not wave it through: LibCST (and Python's compiler)
    reject it, so the file could not be checked."""
    project.write({"a.py": "def f():\n    try:\n        pass\n    except:\n        pass\n    except ValueError:\n        pass\n"})
    result = project.run("check")
    assert result.returncode == 3
    assert "a.py:" in result.stderr and " E999 SyntaxError: " in result.stderr
