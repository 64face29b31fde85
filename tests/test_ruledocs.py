"""Rule pages: the ruff sections exist, and each page's examples run as tests
(the Example fires its rule, the Use instead stays quiet)."""

from __future__ import annotations

import pytest

from failcode import ruledocs
from failcode.rules import RULES

SECTIONS = ["What it does", "Why is this bad?", "Example", "Use instead", "Options", "Known problems"]


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_page_has_the_sections(rule):
    text = ruledocs.page(rule.code)
    assert text.splitlines()[0] == f"# {rule.code}: {rule.name}"
    assert f"Default: {'on' if rule.default else 'off'}" in text
    assert list(ruledocs.sections(rule.code))[: len(SECTIONS)] == SECTIONS


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_page_examples_run(project, rule):
    example, fixed = ruledocs.examples(rule.code)
    project.write({"example.py": example})
    fired = project.findings("--extend-select", rule.code)
    assert rule.code in {f[1] for f in fired}
    (project.root / "example.py").unlink()
    project.write({"fixed.py": fixed})
    assert project.findings("--extend-select", rule.code) == []


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_page_stands_on_its_own(rule):
    """`failcode explain` and SARIF viewers show one page alone: it may not cite numbered lessons
    that no page defines."""
    assert "lesson" not in ruledocs.page(rule.code).lower()
