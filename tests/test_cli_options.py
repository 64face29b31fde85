"""`check` options of issue 13, through the real CLI: --output-file, --quiet, --exclude and
--extend-exclude, and what happens when the paths hold no Python file at all.

Every tree uses conftest.GOOD, whose one finding is FC006 at line 5, column 5 (the `except` keyword).
"""

from __future__ import annotations

import json

import pytest
from conftest import GOOD, REPO, findings_of

from failcode.cli import check

FC006_LINE = "a.py:5:5: FC006 "


# -- --output-file ----------------------------------------------------------------------------

def test_output_file_takes_the_text_report_and_stdout_keeps_the_summary(project):
    project.write({"a.py": GOOD})
    result = project.run("check", "--output-file", "report.txt")
    assert result.returncode == 1, result.stderr
    assert result.stdout == "1 file checked, 1 finding.\n"
    report = (project.root / "report.txt").read_text(encoding="utf-8").splitlines()
    assert len(report) == 1 and report[0].startswith(FC006_LINE)


@pytest.mark.parametrize("output_format", ["json", "sarif"])
def test_output_file_takes_a_whole_document(project, output_format):
    project.write({"a.py": GOOD})
    result = project.run("check", "--format", output_format, "-o", "report.out")
    assert result.returncode == 1, result.stderr
    assert result.stdout == ""
    document = json.loads((project.root / "report.out").read_text(encoding="utf-8"))
    if output_format == "json":
        assert [(f["path"], f["rule"], f["line"]) for f in document["findings"]] == [("a.py", "FC006", 5)]
    else:
        assert [r["ruleId"] for r in document["runs"][0]["results"]] == ["FC006"]


def test_output_file_takes_github_annotations(project):
    project.write({"a.py": GOOD})
    result = project.run("check", "--format", "github", "-o", "annotations.txt")
    assert result.returncode == 1, result.stderr
    assert result.stdout == "1 file checked, 1 finding.\n"
    (annotation,) = (project.root / "annotations.txt").read_text(encoding="utf-8").splitlines()
    assert annotation.startswith("::error file=a.py,line=5,col=5,")


def test_output_file_leaves_unparseable_files_on_stderr(project):
    project.write({"a.py": GOOD, "b.py": "def broken(:\n"})
    result = project.run("check", "-o", "report.txt")
    assert result.returncode == 3
    assert (project.root / "report.txt").read_text(encoding="utf-8").startswith(FC006_LINE)
    assert result.stderr == "b.py:1:12: E999 SyntaxError: invalid syntax\n"
    assert result.stdout == "1 file checked, 1 finding, 1 file could not be checked.\n"


def test_output_file_parents_are_created(project):
    """As ruff's `-o`: the report's folders are made, not a reason to fail after checking."""
    project.write({"a.py": GOOD})
    result = project.run("check", "--format", "json", "-o", "reports/ci/report.json")
    assert result.returncode == 1, result.stderr
    assert [f["path"] for f in json.loads((project.root / "reports/ci/report.json").read_text())["findings"]] == ["a.py"]


def test_output_file_that_cannot_be_written_is_a_usage_error(project):
    project.write({"a.py": GOOD, "blocker": "a file, not a folder\n"})
    result = project.run("check", "-o", "blocker/report.txt")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "blocker/report.txt: cannot write the report" in result.stderr


def test_without_output_file_the_report_goes_to_stdout(project):
    project.write({"a.py": GOOD})
    result = project.run("check")
    assert result.stdout.splitlines()[0].startswith(FC006_LINE)
    assert sorted(p.name for p in project.root.iterdir()) == ["a.py"]


# -- --quiet ----------------------------------------------------------------------------------

def test_quiet_prints_findings_without_the_summary(project):
    project.write({"a.py": GOOD, "clean.py": "x = 1\n"})
    result = project.run("check", "--quiet")
    assert result.returncode == 1
    (line,) = result.stdout.splitlines()
    assert line.startswith(FC006_LINE)
    assert result.stderr == ""


def test_quiet_clean_run_prints_nothing(project):
    project.write({"clean.py": "x = 1\n"})
    result = project.run("check", "-q")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_quiet_keeps_errors_and_their_exit_status(project):
    project.write({"a.py": GOOD, "b.py": "def broken(:\n"})
    result = project.run("check", "-q")
    assert result.returncode == 3
    assert len(result.stdout.splitlines()) == 1
    assert result.stderr == "b.py:1:12: E999 SyntaxError: invalid syntax\n"
    assert "checked" not in result.stdout + result.stderr


def test_quiet_hides_the_baseline_note(project):
    project.write({"a.py": GOOD})
    assert project.run("check", "--write-baseline", "base.json").returncode == 0
    loud = project.run("check", "--baseline", "base.json")
    assert "hidden by baseline" in loud.stderr
    quiet = project.run("check", "--baseline", "base.json", "-q")
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")


# -- --exclude, --extend-exclude --------------------------------------------------------------

@pytest.fixture
def excludable(project):
    return project.write({
        "pyproject.toml": '[tool.failcode]\nextend-exclude = ["vendor"]\n',
        "a.py": GOOD, "b.py": GOOD, "gen/g.py": GOOD, "vendor/v.py": GOOD, ".venv/x.py": GOOD,
    })


def _paths(project, *args: str) -> set[str]:
    return {path for path, _, _ in project.findings(*args)}


def test_configured_excludes_alone(excludable):
    assert _paths(excludable) == {"a.py", "b.py", "gen/g.py"}


def test_extend_exclude_adds_to_the_configured_patterns(excludable):
    assert _paths(excludable, "--extend-exclude", "gen,b.py") == {"a.py"}
    assert _paths(excludable, "--extend-exclude", "gen", "--extend-exclude", " b.py ") == {"a.py"}


def test_exclude_replaces_the_configured_exclude_but_not_extend_exclude(excludable):
    # the defaults (.venv among them) are gone; the configured extend-exclude (vendor) stays
    assert _paths(excludable, "--exclude", "gen", "--exclude", "b.py") == {"a.py", ".venv/x.py"}


def test_command_line_excludes_apply_to_named_files_only_with_force_exclude(excludable):
    assert _paths(excludable, "--extend-exclude", "b.py", "a.py", "b.py") == {"a.py", "b.py"}
    assert _paths(excludable, "--extend-exclude", "b.py", "--force-exclude", "a.py", "b.py") == {"a.py"}


def test_a_named_directory_is_checked_though_its_name_is_excluded(project):
    """`failcode check build`: a directory named on the command line is checked, as a named file
    is; patterns match below it from it, so the default pattern `build` does not exclude
    `build/cli.py`, and `__pycache__` inside it stays excluded. `check .` still skips it."""
    project.write({"build/cli.py": GOOD, "build/sub/x.py": GOOD, "build/__pycache__/y.py": GOOD, "a.py": GOOD})
    assert _paths(project, "build") == {"build/cli.py", "build/sub/x.py"}
    assert _paths(project) == {"a.py"}  # control: the same before and after


def test_a_named_directory_is_checked_though_a_gitignore_skips_it(project):
    project.write({".gitignore": "generated/\n", "generated/g.py": GOOD, "a.py": GOOD})
    assert _paths(project, "generated") == {"generated/g.py"}
    assert _paths(project) == {"a.py"}  # control: the same before and after


# -- no Python file found ---------------------------------------------------------------------

WARNING = "failcode: warning: no Python files found under "


def test_empty_directory_is_a_usage_error(project):
    (project.root / "empty").mkdir()
    result = project.run("check", "empty")
    assert (result.returncode, result.stdout, result.stderr) == (2, "", WARNING + "empty\n")


def test_only_excluded_or_non_python_files_is_a_usage_error(project):
    project.write({".venv/x.py": GOOD, "README.md": "# hello\n"})
    result = project.run("check", "--format", "json")
    assert (result.returncode, result.stdout, result.stderr) == (2, "", WARNING + ".\n")


def test_force_excluded_named_files_warn_and_pass(excludable):
    """pre-commit passes a batch of files; when every one is excluded there is nothing to fix."""
    result = excludable.run("check", "--force-exclude", "--format", "json", "vendor/v.py", ".venv/x.py")
    assert result.returncode == 0, result.stderr
    assert result.stderr == WARNING + "vendor/v.py .venv/x.py\n"
    assert findings_of(result) == []


def test_force_excluded_directory_is_still_a_usage_error(excludable):
    result = excludable.run("check", "--force-exclude", "vendor")
    assert (result.returncode, result.stderr) == (2, WARNING + "vendor\n")


def test_force_exclude_with_one_file_left_checks_it(excludable):
    result = excludable.run("check", "--force-exclude", "vendor/v.py", "a.py")
    assert result.returncode == 1
    assert result.stdout.splitlines()[0].startswith(FC006_LINE)
    assert result.stderr == ""


# -- the README documents them ----------------------------------------------------------------

def test_readme_documents_every_check_option():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    options = [name for param in check.params for name in param.opts if name.startswith("--")]
    assert "--add-noqa" in options and "--output-file" in options
    assert [name for name in options if f"`{name}" not in readme] == []


def test_readme_installs_nothing_that_is_not_published():
    """failcode is not on PyPI and has no release tags: the CI and pre-commit snippets must not say so."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "pip install failcode" not in readme
    assert "rev: v" not in readme


def test_readme_says_why_its_first_command_exits_1():
    """A newcomer's first command finds the examples' defects and exits 1: the README says that is
    by design, next to the command."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    first = readme.index("pip install . && failcode check examples/")
    said = readme[first:first + 1200]
    assert "exits with status 1 by design" in said and "Exit status" in said
