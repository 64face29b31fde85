"""FC008 unused-registry-code: a registered code that no checked file records."""

from __future__ import annotations

from typing import Iterator

from failcode.model import FileFacts, Finding
from failcode.project import Project

CODE = "FC008"
NAME = "unused-registry-code"
SUMMARY = "A registered code is recorded nowhere in the checked files"
DEFAULT = False


def check(facts: FileFacts, project: Project) -> Iterator[Finding]:
    recorded = project.recorded
    for registry in project.registries:
        if registry.path != facts.path:
            continue
        seen = set()
        for entry in registry.entries:
            if entry.code in recorded or entry.code in seen:
                continue
            seen.add(entry.code)
            yield Finding(facts.path, entry.pos, CODE,
                          f"{entry.code} is registered in {registry.label} but recorded nowhere "
                          f"in the checked files", entry.code)
