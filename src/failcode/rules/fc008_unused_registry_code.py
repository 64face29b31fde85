"""FC008 unused-registry-code: a registered code that no checked file records."""

from __future__ import annotations

from typing import Iterator

from failcode.model import Finding
from failcode.project import Project

CODE = "FC008"
NAME = "unused-registry-code"
SUMMARY = "A registered code is recorded nowhere in the checked files"
DEFAULT = False
SCOPE = "project"
WHOLE_PROJECT = True


def check(project: Project) -> Iterator[Finding]:
    recorded = project.recorded
    for registry in project.registries:
        if registry in project.by_use:
            continue  # `Stamp = Literal[...]` found by `-> Stamp`: it lists what may flow, not what is written
        seen = set()
        for entry in registry.entries:
            if entry.code in recorded or entry.code in seen:
                continue
            seen.add(entry.code)
            yield Finding(registry.path, entry.pos, CODE,
                          f"{entry.code} is registered in {registry.label} but recorded nowhere "
                          f"in the checked files", entry.code)
