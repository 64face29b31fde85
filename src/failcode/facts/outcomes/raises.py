"""What our functions raise, and the cause each raise says: the summary their callers' handlers
are judged with (issue 23, principle 2; `Summaries.raises_for`). A raise says its cause by its
class, by its words or the words bound to the name it is given, or by where it sits: reached only
when a lookup found nothing, it says the thing is not there.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Iterator

from failcode import causes
from failcode.facts.outcomes.blames import _raised, _words_of
from failcode.facts.outcomes.syntax import _awaited, _nothing_test


@dataclass
class _Raised:
    """The function's raises of a new error, and what tells their causes."""

    raises: list[ast.Raise] = field(default_factory=list)
    absent: set[int] = field(default_factory=set)  # ids of those reached only when a lookup found nothing
    texts: dict[str, ast.expr] = field(default_factory=dict)  # local name → the text last bound to it
    given: dict[int, list[ast.expr]] = field(default_factory=dict)  # id of a raise → the texts of its names


class Raising:
    """Part of `Scan`: its raises (`raised`), found on the one walk, summarised at its end."""

    def bound_text(self, name: str, value: ast.expr) -> None:
        """`message = "The condition wasn't met before the timeout expired."`: words a raise may say
        later by the name; any other value bound to the name forgets them."""
        if isinstance(value, ast.JoinedStr) or isinstance(value, ast.Constant) and isinstance(value.value, str):
            self.raised.texts[name] = value
        else:
            self.raised.texts.pop(name, None)

    def raise_statement(self, node: ast.Raise) -> None:
        """A raise of a new error (not a bare `raise`), with the words of the names it is given."""
        if node.exc is None:
            return
        self.raised.raises.append(node)
        given = node.exc.args if isinstance(node.exc, ast.Call) else ()
        self.raised.given[id(node)] = [self.raised.texts[arg.id] for arg in given
                                       if isinstance(arg, ast.Name) and arg.id in self.raised.texts]

    def raises_absent(self, node: ast.If, after: tuple[ast.stmt, ...]) -> None:
        """`record = self.try_resolve(id)` … `if record is None: raise self._not_found(id)`, or `if
        ctx := Context.get(): return ctx` and then `raise RuntimeError("only inside a step")`: a
        raise reached only when a lookup found nothing says that nothing was found, whatever its
        words (`raises_causes`). Most tests have no raise beside them: those are not asked."""
        if not any(isinstance(statement, ast.Raise) for statement in (*node.body, *node.orelse, *after[:1])):
            return
        subject, _, missing = _nothing_test(node.test)
        if isinstance(subject, ast.NamedExpr) and isinstance(_awaited(subject.value), ast.Call):
            subject = subject.target  # `if ctx := Context.get():`
        elif not (isinstance(subject, ast.Name) and subject.id in self.fetched):
            return
        if missing:
            arm = node.body
        elif node.orelse:
            arm = node.orelse
        else:  # `if found: return found`: what follows runs when nothing was found
            arm = list(after[:1]) if node.body and isinstance(node.body[-1], ast.Return) else []
        self.raised.absent.update(id(statement) for statement in arm if isinstance(statement, ast.Raise))

    def raises_causes(self) -> Iterator[tuple[str, str]]:
        """(error class, cause) of each error the function raises that names a cause (`raise
        IOError(f"File {name!r} does not exist")`, `raise NoSuchJob(id)`, `raise RuntimeError(message)`
        after `message = "… timeout expired."`, or a raise where a lookup found nothing), and the
        `FileNotFoundError` of a program it starts outside any try of its own, which says the program
        is not there (not found, not installed)."""
        if self.starts_program:  # what starting a program that is not there raises reaches the callers
            yield causes.MISSING_PROGRAM, "not-found"
            yield causes.MISSING_PROGRAM, "not-installed"
        for node in self.raised.raises:
            raised = _raised(node)
            if raised is None:
                continue
            error = raised.rpartition(".")[2]
            said = [ast.Expr(node.exc), *map(ast.Expr, self.raised.given.get(id(node), ()))]
            found = causes.asserted((error,), tuple(_words_of(said)), ())
            if found is not None:
                yield error, found[0].name
            elif id(node) in self.raised.absent:
                yield error, "not-found"
