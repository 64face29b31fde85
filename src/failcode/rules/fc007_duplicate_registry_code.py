"""FC007 duplicate-registry-code: the same code listed twice in one registry."""

from __future__ import annotations

from typing import Iterator

from failcode.model import Finding
from failcode.project import Project, entries_by_code

CODE = "FC007"
NAME = "duplicate-registry-code"
SUMMARY = "A code appears twice in one registry"
DEFAULT = True
SCOPE = "project"


def check(project: Project) -> Iterator[Finding]:
    for registry in project.registries:
        for code, entries in entries_by_code(registry).items():
            first = entries[0]
            for repeated in entries[1:]:
                yield Finding(registry.path, repeated.pos, CODE,
                              f"{code} appears twice in registry {registry.label}; first at line "
                              f"{first.pos.line}", code)
