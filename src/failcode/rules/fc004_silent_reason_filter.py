"""FC004 silent-reason-filter: a membership filter that drops codes the registry does not know."""

from __future__ import annotations

from typing import Iterator, Optional

from failcode.model import FileFacts, Finding
from failcode.names import is_constant_name
from failcode.project import Project

CODE = "FC004"
NAME = "silent-reason-filter"
SUMMARY = "A filter keeps only known codes, so an unknown code vanishes silently"
DEFAULT = True
SCOPE = "file"


def _label(project: Project, name: str, path: str) -> str:
    registry = project.registry_named(name, path)
    return registry.label if registry is not None else name.rpartition(".")[2]


def _short(name: Optional[str]) -> str:
    return name.rpartition(".")[2] if name else "the collection"


def _constant(name: Optional[str]) -> bool:
    """A module constant (`_FINISH_REASON_MAP`, `pkg.codes.ORDER`): fixed when the module loads."""
    return bool(name) and is_constant_name(name.rpartition(".")[2].lstrip("_"))


def check(facts: FileFacts, project: Project) -> Iterator[Finding]:
    for flt in facts.filters:
        if flt.guarded:
            continue
        container_known = project.is_registry_like(flt.container, facts.path)
        iterable_known = project.is_registry_like(flt.iterable, facts.path)
        if container_known and iterable_known or _constant(flt.container) and _constant(flt.iterable):
            continue  # a subset of one closed list or table by another: nothing unknown can be in it
        if container_known:
            message = (f"keeps only the codes of {_short(flt.iterable)} that are in "
                       f"{_label(project, flt.container, facts.path)}: an unknown code vanishes silently")
        elif iterable_known and flt.container is not None:
            message = (f"iterates {_label(project, flt.iterable, facts.path)} and keeps the codes present in "
                       f"{_short(flt.container)}: a code it does not list vanishes silently")
        else:
            continue
        yield Finding(facts.path, flt.pos, CODE,
                      message + " — raise on unknown codes or keep them", None)
