"""Tallies: a chain of tests that sorts outcomes into buckets by the members of one class, and the
classes whose members name outcomes (FC004's facts for a partition that drops some of them).

`if s.status == Status.failed: failed.append(s) elif s.status == Status.error: errored.append(s)`
sorts two of `Status`'s failure members into lists and keeps no arm for the rest: a scenario that
ended in `Status.hook_error` is in neither list, and nothing says so. Read from the `ast` tree every
file gets; which class a name is, and which members it has, is the project's to say.

A chain that *scores* labels is a tally of the same kind, whatever the labels are: `if label in
POSITIVE: scores.append(1) elif label in NEGATIVE: scores.append(0)`, with no arm for the rest,
leaves a label outside both (a judge's `partially_supported`, an empty reply) in no score, and the
mean is taken over the others as if it had not been asked.
"""

from __future__ import annotations

import ast
from typing import Optional

from failcode.facts.outcomes.syntax import _LOGGING, _callee, _dotted, _pos, _resolve
from failcode.facts.walk import walk
from failcode.model import Members, Tally
from failcode.names import ENUM_BASES, is_registry_name

# What an arm does with the outcome it sorted: keeps it in a bucket or counts it.
_COLLECTS = frozenset("append add extend increment update inc".split())
_ONE_OF = (ast.Tuple, ast.List, ast.Set)


def enums(tree: ast.Module, module: str, imports: dict[str, str]) -> tuple[Members, ...]:
    """The module's classes whose name says they hold outcomes, with their members' names: an
    Enum's members whatever their values, a plain class's string or number constants
    (`class JobStatus: FAILED = "failed"`)."""
    found = []
    for node in tree.body:
        if not isinstance(node, ast.ClassDef) or not is_registry_name(node.name):
            continue
        bases = [_resolve(_dotted(base) or "", imports).rpartition(".")[2] for base in node.bases]
        enum = any(base in ENUM_BASES or base.endswith("Enum") for base in bases)
        names = []
        for statement in node.body:
            targets = statement.targets if isinstance(statement, ast.Assign) else \
                [statement.target] if isinstance(statement, ast.AnnAssign) and statement.value is not None else []
            value = statement.value if targets else None
            if enum or isinstance(value, ast.Constant) and isinstance(value.value, (str, int)):
                names += [t.id for t in targets if isinstance(t, ast.Name) and not t.id.startswith("_")]
        if len(names) >= 2:
            found.append(Members(f"{module}.{node.name}" if module else node.name, tuple(names)))
    return tuple(found)


def _member(node: ast.expr) -> Optional[tuple[str, str]]:
    """(owner, member) of `Status.failed` or `model.Status.failed`: an attribute of a capitalised name."""
    if not isinstance(node, ast.Attribute):
        return None
    owner = _dotted(node.value)
    if owner is None or not owner.rpartition(".")[2][:1].isupper():
        return None
    return owner, node.attr


def _sorted_by(test: ast.expr) -> Optional[tuple[str, tuple[str, ...]]]:
    """(owner, members) a test sorts by: `s.status == Status.failed`, `s is Status.error`,
    `s.status in (Status.error, Status.hook_error)`."""
    if not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return None
    op, right = test.ops[0], test.comparators[0]
    if isinstance(op, (ast.Eq, ast.Is)):
        found = _member(right) or _member(test.left)
        return (found[0], (found[1],)) if found else None
    if isinstance(op, ast.In) and isinstance(right, _ONE_OF):
        return _one_owner(right.elts)
    return None


def _one_owner(items: list[ast.expr]) -> Optional[tuple[str, tuple[str, ...]]]:
    found = [_member(item) for item in items]
    if not found or None in found or len({owner for owner, _ in found}) != 1:
        return None
    return found[0][0], tuple(member for _, member in found)


def _collects(body: list[ast.stmt]) -> bool:
    """An arm that keeps what it sorted in a bucket or counts it (`failed.append(s)`, `n += 1`)."""
    for statement in body:
        for node in walk(statement):
            if isinstance(node, ast.AugAssign) or isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in _COLLECTS:
                return True
    return False


def _label_test(test: ast.expr) -> Optional[str]:
    """The label a test asks about, as its source text: `label in POSITIVE`, `verdict == "PASS"`,
    `v in ("FAIL", "fail")`, or an `or` of such tests of one label."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        asked = {_label_test(value) for value in test.values}
        return asked.pop() if len(asked) == 1 else None
    if not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return None
    op, known = test.ops[0], test.comparators[0]
    if isinstance(op, ast.Eq) and isinstance(known, ast.Constant) and isinstance(known.value, str) \
            or isinstance(op, ast.In) and (_dotted(known) is not None or isinstance(known, _ONE_OF)
                                           and all(isinstance(item, ast.Constant) for item in known.elts)):
        return ast.unparse(test.left)
    return None


def _scored_into(body: list[ast.stmt]) -> Optional[str]:
    """The list an arm scores into: `scores.append(1)`, `passed.append(False)`, a number or a truth
    value written in the code, the label's score."""
    for statement in body:
        call = statement.value if isinstance(statement, ast.Expr) else None
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "append" \
                and len(call.args) == 1 and isinstance(call.args[0], ast.Constant) \
                and isinstance(call.args[0].value, (bool, int, float)):
            return ast.unparse(call.func.value)
    return None


def _says_nothing(body: list[ast.stmt]) -> bool:
    """An `else` that keeps nothing of the label: it logs, passes or goes on to the next."""
    return all(isinstance(statement, (ast.Pass, ast.Continue))
               or isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)
               and (_callee(statement.value) or "").rpartition(".")[2] in _LOGGING for statement in body)


class Tallies:
    """Part of `Scan`: the tallies among the function's `if` chains and `for` loops."""

    def tallied(self, node: ast.stmt) -> None:
        """Notes an `if`/`elif` chain whose every arm sorts by members of one class and collects,
        with no `else`, or a `for` over members of one class that collects."""
        if id(node) in self.chained:
            return
        if isinstance(node, ast.For):
            found = _one_owner(node.iter.elts) if isinstance(node.iter, _ONE_OF) and len(node.iter.elts) >= 2 else None
            if found is not None and _collects(node.body):
                self.tally(node, *found)
            return
        if self.scored(node):
            return
        owner, members, arm = None, [], node
        while True:
            found = _sorted_by(arm.test)
            if found is None or owner not in (None, found[0]) or not _collects(arm.body):
                return
            owner = found[0]
            members += found[1]
            if len(arm.orelse) == 1 and isinstance(arm.orelse[0], ast.If):
                arm = arm.orelse[0]
                self.chained.add(id(arm))
            elif arm.orelse:
                return  # an `else` keeps the rest
            else:
                break
        self.tally(node, owner, tuple(members))

    def scored(self, node: ast.If) -> bool:
        """Notes a chain of two arms or more that tests one label against values it knows and scores
        it into one list in every arm, with no arm that keeps the rest, unless the function keeps
        unknown labels out beforehand (`if label not in KNOWN: raise`). Every `if` comes here, so the
        arms' scoring (cheap) is asked first, and a label's source text only of a chain that scores."""
        arms = [node]
        while len(arms[-1].orelse) == 1 and isinstance(arms[-1].orelse[0], ast.If):
            arms.append(arms[-1].orelse[0])
        if len(arms) < 2 or not _says_nothing(arms[-1].orelse):
            return False
        scores = {_scored_into(arm.body) for arm in arms}
        if len(scores) != 1 or None in scores:
            return False
        labels = {_label_test(arm.test) for arm in arms}
        label = labels.pop() if len(labels) == 1 else None
        if label is None or any(isinstance(n, ast.Compare) and isinstance(n.ops[0], ast.NotIn)
                                and ast.unparse(n.left) == label for n in walk(self.function)):
            return False
        known = [ast.unparse(test.comparators[0]) for arm in arms
                 for test in (arm.test.values if isinstance(arm.test, ast.BoolOp) else [arm.test])
                 if isinstance(test, ast.Compare)]
        self.chained.update(id(arm) for arm in arms[1:])
        self.tallies.append((node, label, tuple(known), (), scores.pop()))
        return True

    def tally(self, node: ast.stmt, owner: str, members: tuple[str, ...]) -> None:
        named = {found[1] for n in walk(self.function) for found in [_member(n)] if found is not None and found[0] == owner}
        self.tallies.append((node, owner, members, tuple(sorted(named)), ""))

    def finish_tallies(self, lines: list[str], module: str) -> list[Tally]:
        """The tallies, positioned, their owner resolved: imported, or a class of this module."""
        found = []
        for node, owner, members, named, scores in self.tallies:
            resolved = owner if scores else _resolve(owner, self.imports)
            if resolved == owner and module and not scores and owner.partition(".")[0] not in self.imports:
                resolved = f"{module}.{owner}"
            found.append(Tally(_pos(node, lines), self.qualname, resolved, members, named, scores))
        return found
