"""The bundled examples/: every implemented rule fires in harness/, the fixed twin is clean."""

from __future__ import annotations

from conftest import HARNESS_EXPECTED, REPO, failcode, findings_of

EXPECTED = [(f"examples/{path}", rule, line) for path, rule, line in HARNESS_EXPECTED]


def test_harness_fires_every_rule():
    result = failcode("check", "examples/harness", "--format", "json", cwd=REPO)
    assert result.returncode == 1, result.stderr
    assert sorted(findings_of(result)) == sorted(EXPECTED)


def test_fixed_twin_is_clean():
    result = failcode("check", "examples/harness_fixed", "--extend-select", "FC008", cwd=REPO)
    assert result.returncode == 0, result.stdout + result.stderr


def test_readme_command_on_both_packages_reports_the_same_findings():
    """`failcode check examples/` (the README's first command) checks both twins in one project."""
    result = failcode("check", "examples", "--format", "json", cwd=REPO)
    assert result.returncode == 1, result.stderr
    assert sorted(findings_of(result)) == sorted(EXPECTED)
