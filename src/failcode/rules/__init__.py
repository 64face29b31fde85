"""The rule catalogue. A rule is a module with CODE, NAME, SUMMARY, DEFAULT and
`check(facts, project)`, a function from one file's facts (and the project view) to findings."""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Callable, Iterable

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
    check: Callable[[FileFacts, Project], Iterable[Finding]]


def _rule(module: ModuleType) -> Rule:
    return Rule(module.CODE, module.NAME, module.SUMMARY, module.DEFAULT, module.check)


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
