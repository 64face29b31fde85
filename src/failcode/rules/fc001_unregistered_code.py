"""FC001 unregistered-code: a recorded code that the registry governing its sink does not declare."""

from __future__ import annotations

from typing import Iterator

from failcode.model import FileFacts, Finding
from failcode.project import Project

CODE = "FC001"
NAME = "unregistered-code"
SUMMARY = "A recorded failure code is missing from its registry"
DEFAULT = True
SCOPE = "file"


def check(facts: FileFacts, project: Project) -> Iterator[Finding]:
    for site in facts.sites:
        resolved = project.resolve(site)
        if resolved.missing_member is not None:
            registry = resolved.registry
            member = resolved.missing_member
            yield Finding(facts.path, site.pos, CODE,
                          f"{registry.name}.{member} is not a member of registry {registry.label}", member)
            continue
        if resolved.code is None or site.kind == "raise" and not project.is_code(site):
            continue
        governing = project.governing(site)
        if any(resolved.code in registry.codes for registry in governing):
            continue
        # a near miss of a registered code is a typo, the strongest evidence there is, even on a
        # sink that records no other code of that registry
        typo = project.near_miss(site, resolved.code)
        if typo is not None:
            yield Finding(facts.path, site.pos, CODE,
                          f"{resolved.code} is recorded ({site.dest}) but not registered in {typo[1].label}"
                          f" — did you mean {typo[0]}?", resolved.code)
        elif governing and project.is_code(site):
            against = " or ".join(registry.label for registry in governing)
            yield Finding(facts.path, site.pos, CODE,
                          f"{resolved.code} is recorded ({site.dest}) but not registered in {against}",
                          resolved.code)
