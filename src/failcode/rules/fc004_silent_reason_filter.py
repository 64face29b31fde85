"""FC004 silent-reason-filter: a membership filter that drops codes the registry does not know."""

from __future__ import annotations

from typing import Iterator, Optional

from failcode.model import FileFacts, Finding
from failcode.names import FAILURE_WORDS, is_constant_name, listed, segments
from failcode.project import Project

CODE = "FC004"
NAME = "silent-reason-filter"
SUMMARY = ("A filter keeps only known codes, or a tally only some failure members or known labels, so the rest"
           " vanish silently")
DEFAULT = True
SCOPE = "file"
# That a code or label outside the list ever reaches the filter or the chain is inferred: the list
# may be the whole vocabulary of what arrives there, which the code cannot show
CONFIDENCE = "medium"

_NEGATIONS = frozenset("no not non without".split())


def _label(project: Project, name: str, path: str) -> str:
    registry = project.registry_named(name, path)
    return registry.label if registry is not None else name.rpartition(".")[2]


def _short(name: Optional[str]) -> str:
    return name.rpartition(".")[2] if name else "the collection"


def _constant(name: Optional[str]) -> bool:
    """A module constant (`_FINISH_REASON_MAP`, `pkg.codes.ORDER`): fixed when the module loads."""
    return bool(name) and is_constant_name(name.rpartition(".")[2].lstrip("_"))


def _left_out(sorted_: tuple[str, ...], named: tuple[str, ...], members: tuple[str, ...]) -> list[str]:
    """The failure members a tally leaves out: siblings of the ones it sorts (`hook_error` and
    `cleanup_error` beside `error`), named nowhere in the function. A member that says no failure
    (`no_error`, `not_failed`) is no sibling."""
    words = {word for member in sorted_ for word in segments(member) if word in FAILURE_WORDS}
    return [member for member in members if member not in named and words.intersection(segments(member))
            and _NEGATIONS.isdisjoint(segments(member))]


def _tallies(facts: FileFacts, project: Project) -> Iterator[Finding]:
    """A chain that sorts outcomes by some failure members of an outcome Enum (`Status.failed`,
    `Status.error`) into buckets, with no arm for their siblings (`Status.hook_error`): an outcome
    of those is in no bucket, and nothing says so. A chain that scores labels by the values it
    knows, with no arm for the rest, drops an unknown label from the score the same way."""
    for tally in facts.tallies:
        if tally.scores:
            known = listed([f"`{value}`" for value in tally.sorted])
            yield Finding(facts.path, tally.pos, CODE,
                          f"scores `{tally.owner}` by {known} into `{tally.scores}` and has no arm for any other"
                          " value: a label it does not know vanishes from the score silently — record it as"
                          " unscored, or raise", None, CONFIDENCE)
            continue
        members = project.members_of(tally.owner)
        left = _left_out(tally.sorted, tally.named, members) if members is not None else []
        if not left:
            continue
        owner = tally.owner.rpartition(".")[2]
        sorted_ = listed([f"{owner}.{m}" for m in tally.sorted])
        missing = ", ".join(f"{owner}.{m}" for m in left)
        yield Finding(facts.path, tally.pos, CODE,
                      f"sorts {sorted_} into buckets but has no arm for {missing}: those outcomes vanish silently"
                      " — handle them too, or keep the rest in an else", None, CONFIDENCE)


def check(facts: FileFacts, project: Project) -> Iterator[Finding]:
    yield from _tallies(facts, project)
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
                      message + " — raise on unknown codes or keep them", None, CONFIDENCE)
