"""Partial results: a loop that collects, and a broad handler inside it that leaves the loop with
what was collected so far, which the function then returns as the whole.

`for row in cursor: try: messages.append(decode(row)) except Exception: log(…); break` … `return
messages`: a failure midway (a dropped connection, a bug in `decode`) ends the loop as the end of the
data would, and the caller gets the first rows as all of them: a truncated result reads as a
complete one (issue 23, principle 5: what stands in for data that is used later). A handler that
keeps what it caught (`first_error = e`, `errors.append(e)`), sets anything else (`truncated =
True`), or raises says the result is partial, and is quiet; so is a narrow handler (`except
StopIteration`, `except TimeoutError`: the end it names).
"""

from __future__ import annotations

import ast
from typing import Optional

from failcode.facts.outcomes.records import _Pending
from failcode.facts.outcomes.syntax import _LOGGING, _caught, _nodes

# What a loop body does to keep an item: `rows.append(r)`, `seen.add(k)`, `out.update(part)`.
_KEEPS = frozenset("append appendleft extend add update insert".split())
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def _collected(body: list[ast.stmt]) -> set[str]:
    """The local names a try body keeps items in: `rows.append(…)`, `totals[k] = …`, `text += …`."""
    names = set()
    for node in _nodes(body):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _KEEPS \
                and isinstance(node.func.value, ast.Name):
            names.add(node.func.value.id)
        elif isinstance(node, ast.Assign):
            names.update(t.value.id for t in node.targets if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name))
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _only_leaves(handler: ast.ExceptHandler) -> Optional[ast.Break]:
    """The `break` of a handler that does nothing else but log or print (`logger.error(…)`,
    `print(…)`, `pass`): nothing it does says the loop ended early. None otherwise."""
    leaving = None
    for statement in handler.body:
        if isinstance(statement, ast.Break):
            leaving = leaving or statement
        elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            func = statement.value.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
            if name not in _LOGGING:
                return None
        elif not isinstance(statement, ast.Pass):
            return None
    return leaving


class Partial:
    """Part of `Scan`: the handlers that cut a collecting loop short, and the returns of what it
    collected after the loop (`partials`)."""

    def cut_short(self, attempt: ast.Try, handler: ast.ExceptHandler, types: tuple[str, ...]) -> None:
        """Notes a broad handler (`causes.is_broad_family`, asked by the caller) of a try inside the
        innermost loop (`self.loop`, the one its `break` leaves) that only logs and leaves it, when
        the try keeps items in local names."""
        if self.loop is None:
            return
        leaving = _only_leaves(handler)
        names = _collected(attempt.body) if leaving is not None else ()
        if names:
            self.cut.append((self.loop, handler, leaving, _caught(types), frozenset(names)))

    def partials(self) -> list[_Pending]:
        """The cut-short loops whose collection the function returns after the loop, from a name it
        bound before the loop (not a parameter: a caller's own list shows what it got)."""
        if not self.cut:
            return []
        found = []
        for loop, handler, leaving, caught, names in self.cut:
            bound = {target.id for node in _nodes(self.function.body)
                     if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.lineno < loop.lineno
                     for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                     if isinstance(target, ast.Name)}
            end = loop.end_lineno or loop.lineno
            returned = next(((node, part) for node in _nodes(self.function.body)
                             if isinstance(node, ast.Return) and node.value is not None and node.lineno > end
                             for part in _nodes([node.value])
                             if isinstance(part, ast.Name) and part.id in names & bound), None)
            if returned is not None:
                found.append(_Pending(handler, self.qualname, "return", ("partial",), "fallback", "partial", caught,
                                      leaving.lineno, (loop.lineno, returned[0].lineno),
                                      kept=(returned[0].lineno, returned[1])))
        return found
