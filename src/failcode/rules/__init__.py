"""The rule catalogue. A rule is a module with CODE, NAME, SUMMARY, DEFAULT, SCOPE and `check`.

SCOPE says what a rule judges. A "file" rule's `check(facts, project)` judges one file's facts
(with the project view for registries and imports) and runs once per checked file. A "project"
rule's `check(project)` judges what only the whole project shows (registries against each other,
codes recorded nowhere) and runs once per check, whatever the number of files. WHOLE_PROJECT = True
marks a rule that needs every file: it is skipped when the run was given single files (pre-commit,
stdin), where "recorded nowhere" would mean "in none of the changed files".
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Callable, Iterable, Union

from failcode.model import FileFacts, Finding
from failcode.project import Project
from failcode.rules import (
    fc001_unregistered_code,
    fc002_stage_spanning_try,
    fc003_fallback_reuses_outcome,
    fc004_silent_reason_filter,
    fc005_divergent_registries,
    fc006_catch_all_blames_party,
    fc007_duplicate_registry_code,
    fc008_unused_registry_code,
)


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    summary: str
    default: bool
    scope: str  # file | project
    whole_project: bool  # judges only a run that saw every file (not pre-commit's changed files)
    check: Union[Callable[[FileFacts, Project], Iterable[Finding]], Callable[[Project], Iterable[Finding]]]


def _rule(module: ModuleType) -> Rule:
    return Rule(module.CODE, module.NAME, module.SUMMARY, module.DEFAULT, module.SCOPE,
                getattr(module, "WHOLE_PROJECT", False), module.check)


RULES: tuple[Rule, ...] = tuple(_rule(m) for m in (
    fc001_unregistered_code,
    fc002_stage_spanning_try,
    fc003_fallback_reuses_outcome,
    fc004_silent_reason_filter,
    fc005_divergent_registries,
    fc006_catch_all_blames_party,
    fc007_duplicate_registry_code,
    fc008_unused_registry_code,
))
BY_CODE = {rule.code: rule for rule in RULES}
BY_NAME = {rule.name: rule for rule in RULES}
