"""FC005 divergent-registries: two registries that share codes but disagree."""

from __future__ import annotations

from typing import Iterable, Iterator

from failcode.model import Finding
from failcode.project import Project

CODE = "FC005"
NAME = "divergent-registries"
SUMMARY = "Two registries of the same codes disagree"
DEFAULT = True
SCOPE = "project"


def listing(codes: Iterable[str], limit: int = 5) -> str:
    """`A, B, C, D, E and 3 more`: the first five codes, then a count."""
    codes = sorted(codes)
    shown = ", ".join(codes[:limit])
    return shown + (f" and {len(codes) - limit} more" if len(codes) > limit else "")


def check(project: Project) -> Iterator[Finding]:
    for found in project.disagreements:
        registry = found.registry
        others = " + ".join(other.label for other in found.against)
        if found.configured:
            parts = []
            if found.missing:
                parts.append(f"lacks {len(found.missing)} of its codes ({listing(found.missing)})")
            if found.extra:
                parts.append(f"has {len(found.extra)} it does not list ({listing(found.extra)})")
            message = (f"{registry.label} disagrees with the configured registry {others}: it "
                       f"{' and '.join(parts)}")
        else:
            message = (f"{registry.label} lacks {len(found.missing)} code(s) that {others} list: "
                       f"{listing(found.missing)}")
        yield Finding(registry.path, registry.pos, CODE,
                      message + " — the lists disagree; decide which one is right", None)
