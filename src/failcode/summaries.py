"""Summaries of our own functions, joined across the project (issue 23, principle 2: flow).

Each file's facts say, per function, what it raises that names a cause, what a broad handler of it
answers every failure with, whether it returns a reply it read, which callers' tests say why it gave
nothing back, and which records' fields it fills with a verdict (kept by the record's class, whose
every construction in the project writes the same field). A caller in another module knows its
callee only by the name it calls, so the summaries are kept by a function's last name, one per
definition of that name in the project, and a question is answered yes only when every definition
agrees: a caller never knows which of two same-named functions it reaches. A method of the caller's
own class called on `self` is the exception: it reaches that class's definition (`said_absent`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional, TypeVar

from failcode import causes
from failcode.model import Absence, FileFacts, Write
from failcode.names import FAILURE_WORDS, segments

_T = TypeVar("_T")


@dataclass
class Summaries:
    # a function's last name → what each of its definitions raises that names a cause (`Raises`)
    raisers: dict[str, list[frozenset[tuple[str, str]]]] = field(default_factory=dict)
    # a function's last name → what each of its definitions answers every failure of a broad
    # handler with (`None`, `False`), or "" for a definition that does not (`Blame` shape `swallow`)
    swallowers: dict[str, list[str]] = field(default_factory=dict)
    # a function's last name → the callers' tests that say why it gave nothing back, with their file
    absences: dict[str, list[tuple[str, Absence]]] = field(default_factory=dict)
    # a function's last name → whether each of its definitions returns a reply it read (`FileFacts.replies`)
    repliers: dict[str, list[bool]] = field(default_factory=dict)
    # a record's field (`MetricResult(passed=)`, by the class's last name) → the computed verdicts our
    # functions pass to it, with their file (`FileFacts.records`)
    record_verdicts: dict[str, list[tuple[str, Write]]] = field(default_factory=dict)
    # (field, failure-worded field) pairs some module reads off one name (`FileFacts.reads`)
    read_together: frozenset[tuple[str, str]] = frozenset()

    @classmethod
    def build(cls, files: Iterable[FileFacts]) -> "Summaries":
        files = list(files)
        absences: dict[str, list[tuple[str, Absence]]] = {}
        for facts in files:
            for absence in facts.absences:
                absences.setdefault(absence.callee, []).append((facts.path, absence))
        verdicts: dict[str, list[tuple[str, Write]]] = {}
        for facts in files:
            for write in facts.records:
                if write.role == "verdict":
                    verdicts.setdefault(_record(write.channel), []).append((facts.path, write))
        together: set[tuple[str, str]] = set()
        for facts in files:
            for fields in facts.reads:
                told = [name for name in fields if not FAILURE_WORDS.isdisjoint(segments(name))]
                together.update((read, name) for name in told for read in fields if read != name)
        return cls(_raisers(files), _swallowers(files), absences, _repliers(files), verdicts, frozenset(together))

    def raises_for(self, callee: str, cause: str, types: tuple[str, ...]) -> bool:
        """Our function `callee` (`filefind`, `self.load`: by its last name, every definition of
        that name in the project) raises an error `types` catch to say `cause`: a handler around
        it that says so hears what it was told."""
        definitions = self.raisers.get(callee.rpartition(".")[2])
        return bool(definitions) and all(any(said == cause and causes.catches(types, error) for error, said in raised)
                                         for raised in definitions)

    def said_absent(self, function: str, nothing: str, path: str) -> list[tuple[str, Absence]]:
        """The callers' tests that say why our function `function` (defined in `path`, answering
        a broad handler's failures with `nothing`: `None`, `False`) gave nothing back, where the
        test takes that for nothing (`x is None`, `not x`): those of its own class that call it on
        `self`, which reach this definition, and those that call it by its last name, joined only
        when every definition of that name in the project answers so (which one they reach is
        unknown)."""
        own = [(where, absence) for where, absence in self.absences.get(function, ()) if where == path] \
            if "." in function else []
        name = function.rpartition(".")[2]
        definitions = self.swallowers.get(name, ())
        named = self.absences.get(name, ()) if definitions and all(answer == nothing for answer in definitions) else ()
        return [(where, absence) for where, absence in (*own, *named) if absence.nothing in (nothing, "falsy")]

    def returns_reply(self, callee: str) -> bool:
        """Our function `callee` (by its last name, every definition of it in the project) returns
        what a model or service replied: a try that returns its answer returns a reply."""
        definitions = self.repliers.get(callee.rpartition(".")[2])
        return bool(definitions) and all(definitions)

    def record_verdict(self, fallback: Write, path: str) -> Optional[tuple[str, Write]]:
        """A verdict our code passes to the record's field a fallback writes a constant to, among
        whose values that constant is (preferring one in the fallback's own file)."""
        verdicts = [found for found in self.record_verdicts.get(_record(fallback.channel), ())
                    if fallback.values[0] in found[1].values]
        return min(verdicts, key=lambda found: (found[0] != path, found[0], found[1].pos.line)) if verdicts else None

    def sorts_by_failure(self, fallback: Write) -> bool:
        """Some module of the project reads the fallback record's verdict field beside a field
        that tells the failure by a code or flag (`if result.passed: continue` …
        `result.reason_code`): its readers sort such records by their failure before counting
        the verdict (facts/outcomes/fields.py)."""
        verdict = fallback.channel[:-2].partition("(")[2]
        return any((verdict, told) in self.read_together for told in fallback.told)


def _record(channel: str) -> str:
    """`MetricResult(passed=)` of `models.MetricResult(passed=)`: a record is known by its class's last name."""
    return channel.rpartition(".")[2] if "." in channel.partition("(")[0] else channel


def _raisers(files: list[FileFacts]) -> dict[str, list[frozenset[tuple[str, str]]]]:
    """A function's last name → one set per definition of it in the project (a definition that
    raises no cause has an empty set) of the (error, cause) pairs it raises. Only names that some
    definition raises a cause under are kept."""
    raised_by: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for facts in files:
        for raised in facts.raises:
            raised_by.setdefault((facts.path, raised.function), set()).add((raised.error, raised.cause))
    return _by_definition(files, raised_by, frozenset)


def _swallowers(files: list[FileFacts]) -> dict[str, list[str]]:
    """A function's last name → per definition of it in the project, what a broad handler of it
    answers every failure with (`None`, `False`; "" for a definition with no such handler, or with
    two different answers). Only names some definition swallows under are kept."""
    answers: dict[tuple[str, str], set[str]] = {}
    for facts in files:
        for blame in facts.blames:
            if blame.shape == "swallow":
                answers.setdefault((facts.path, blame.function), set()).update(blame.written)
    return _by_definition(files, answers, lambda given: next(iter(given)) if len(given) == 1 else "")


def _repliers(files: list[FileFacts]) -> dict[str, list[bool]]:
    """A function's last name → one flag per definition of it in the project: whether it returns
    a reply it read. Only names that some definition returns a reply under are kept."""
    return _by_definition(files, {(facts.path, function): {True} for facts in files for function in facts.replies},
                          bool)


def _by_definition(files: list[FileFacts], found: dict[tuple[str, str], set],
                   summary: Callable[[set], _T]) -> dict[str, list[_T]]:
    """A function's last name → the `summary` of what was `found` (by file and qualified name) for
    each definition of that name in the project, in file order; a definition with nothing found
    is summarised from an empty set, so one that does not answer so keeps its name's callers
    honest. Only names something was found under are kept: the project joins calls with these by
    the callee's last name, and every definition must agree."""
    named = {function.rpartition(".")[2] for _, function in found}
    by_name: dict[str, list[_T]] = {}
    for facts in files:
        for function in dict.fromkeys(facts.functions):
            name = function.rpartition(".")[2]
            if name in named:
                by_name.setdefault(name, []).append(summary(found.get((facts.path, function), set())))
    return by_name
