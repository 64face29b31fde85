"""What the scan finds, before it is positioned: writes and blames keep their `ast` node and are
quoted and positioned only when a rule may report them.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Optional

from failcode.facts.outcomes.syntax import _NOWHERE, _pos, _short
from failcode.model import Blame, Pos, Write


@dataclass(frozen=True)
class _Context:
    """What the statements of a block are, as a path: decided by a compare, or a fallback."""

    decided: Optional[ast.AST] = None  # the compare that decides the branch
    fallback: Optional[str] = None  # what triggers the fallback path (`except Exception`, …)
    kind: str = ""  # the fallback's kind: except, status, dispatch
    trigger: int = 0  # the line of the `except`/`if` that starts the fallback path
    region: tuple[int, int] = (0, _NOWHERE)  # the lines of the genuine path a fallback stands in for
    silent: bool = False  # a narrow handler: its exception is the signal for what it writes
    attempt: Optional[ast.AST] = None  # a handler's `try` statement
    exhausted: bool = False  # after a retry loop whose every attempt failed: a placeholder stands in for the reply
    catch_all: bool = False  # a handler's path: it catches every exception (bare, `Exception`), our own bugs too


class _Pending:
    """A write found by the scan, positioned and quoted only if it is kept."""

    __slots__ = ("node", "function", "channel", "values", "role", "kind", "why", "trigger", "region", "attempt",
                 "stages", "kept", "source", "catch_all", "told")

    def __init__(self, node, function, channel, values, role, kind, why, trigger, region, attempt=None,
                 stages=(), kept=None, source="", catch_all=False) -> None:
        self.node, self.function, self.channel, self.values = node, function, channel, values
        self.role, self.kind, self.why, self.trigger, self.region = role, kind, why, trigger, region
        self.attempt, self.stages, self.kept, self.source = attempt, stages, kept, source
        self.catch_all = catch_all
        self.told: tuple[str, ...] = ()  # a record's fields that tell the failure by a code or flag (`Write.told`)

    def finish(self, lines: list[str]) -> Write:
        why = self.why if isinstance(self.why, str) else f"{self.why[0]} `{_short(self.why[1])}`"
        attempt = _pos(self.attempt, lines) if self.attempt is not None else None
        if self.kept is None:
            pos, text, kept = _pos(self.node, lines), _short(self.node), 0
        elif isinstance(self.node, ast.expr):  # where a record built earlier is written (`return outcome(fallback)`)
            pos, text, kept = _pos(self.node, lines), _short(self.kept[1]), self.kept[0]
        else:  # reported at the `except` or `if` that leaves the default standing, by its keyword
            start = _pos(self.node, lines)
            keyword = "except" if isinstance(self.node, ast.ExceptHandler) else "if"
            pos, text, kept = Pos(start.line, start.column, start.line, start.column + len(keyword)), \
                _short(self.kept[1]), self.kept[0]
        return Write(pos, self.function, self.channel, text, self.values, self.role, self.kind, why,
                     self.trigger, self.region[0], self.region[1], attempt, self.stages, kept, self.source,
                     self.catch_all, self.told)


class _PendingBlame:
    """A Blame found by the scan (`node`: the handler, test or default it is reported at),
    positioned only if it is kept."""

    __slots__ = ("node", "function", "texts", "attempt", "shape", "caught", "own", "raised", "written", "subject",
                 "told")

    def __init__(self, node, function, texts, attempt, shape, caught="", own=(), raised=(), written=(),
                 subject="", told=()) -> None:
        self.node, self.function, self.texts, self.attempt, self.shape = node, function, texts, attempt, shape
        self.caught, self.own, self.raised, self.written, self.subject = caught, own, raised, written, subject
        self.told = told

    def finish(self, lines: list[str]) -> Blame:
        start = _pos(self.node, lines)
        if isinstance(self.node, ast.ExceptHandler):  # reported at the `except` keyword
            start = Pos(start.line, start.column, start.line, start.column + len("except"))
        return Blame(start, self.function, self.caught, self.texts, self.own, self.attempt, self.raised, self.written,
                     self.shape, self.subject, self.told)
