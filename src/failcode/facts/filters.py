"""Membership filters that can make unknown codes vanish, and the guards that report them.

Recorded only when one side of the membership looks like a registry (by name, or configured), so
`{k: v for k, v in kwargs.items() if k in allowed}` never becomes a fact.
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from failcode.facts.cstnodes import names_in
from failcode.facts.imports import ImportTable
from failcode.model import Filter
from failcode.names import FAILURE_WORDS, segments

_WRAPPERS = frozenset({"set", "frozenset", "list", "tuple", "sorted", "iter", "reversed"})
_VIEWS = frozenset({"keys", "values", "items", "copy"})
_ANSWERS = frozenset({"any", "all", "sum", "len"})
_COMPREHENSIONS = (cst.GeneratorExp, cst.ListComp, cst.SetComp)


def _target_names(target: cst.BaseExpression) -> set[str]:
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        names: set[str] = set()
        for element in target.elements:
            names |= _target_names(element.value)
        return names
    return set()


def _refers_to(node: cst.BaseExpression, names: set[str]) -> bool:
    """`r`, `r.state`, `r["code"]` all test the iterated element."""
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        node = node.value
    return isinstance(node, cst.Name) and node.value in names


def _builds_set(node: cst.BaseExpression) -> bool:
    """`set(…)`, `frozenset(…)`, `{…}`, a set comprehension or a dict view: certainly a set."""
    if isinstance(node, (cst.Set, cst.SetComp)):
        return True
    if isinstance(node, cst.Call):
        func = node.func
        if isinstance(func, cst.Name) and func.value in ("set", "frozenset"):
            return True
        return isinstance(func, cst.Attribute) and func.attr.value in ("keys", "items")
    return False


def _keeps_nothing(node: cst.If, names: set[str]) -> bool:
    """A branch on membership that keeps no selection of codes, so an unknown code loses nothing:
    - `if candidate.finish_reason in BLOCKED: raise ContentBlocked(…)` is a guard, and `if
      other["status"] in HOLDING: return other["id"]` a search for the first hit;
    - `if run.status in UNSTARTED: continue` skips the known codes and goes on with the rest, the
      unknown among them;
    - `if info["state"] in STOPPED_STATES: self.exitstatus = NOT_RUNNING` sets one value, the same
      on every hit, from nothing of the element: it answers whether any element is a member, as
      `any(…)` does. A branch that uses the element (`out.append(r)`, `counts[r] += 1`) or
      accumulates (`failed += 1`) keeps a selection, and an unknown code vanishes from it."""
    if isinstance(node.body, cst.SimpleStatementSuite):  # `if run.status in UNSTARTED: continue`
        lines: tuple = (node.body,)
    else:
        lines = tuple(node.body.body)
    if not lines or not isinstance(lines[-1], (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
        return False
    if any(isinstance(s, (cst.Raise, cst.Return, cst.Continue)) for s in lines[-1].body):
        return True
    if not all(isinstance(line, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) for line in lines):
        return False
    statements = [s for line in lines for s in line.body]
    return all(isinstance(s, cst.Assign) for s in statements) \
        and not any(name.value in names for s in statements for name in names_in(s))


class FilterFinder:
    """Finds filters for the extractor's walk and hands them back through `on_filter(node, form,
    container, iterable)`; `on_difference(name)` hears of `x - NAME` / `.difference(NAME)`, the
    guard that keeps unknown codes."""

    def __init__(self, imports: ImportTable, looks_like_registry: Callable[[str], bool],
                 on_filter: Callable[..., None], on_difference: Callable[[str], None]) -> None:
        self.imports = imports
        self.looks_like_registry = looks_like_registry
        self.on_filter = on_filter
        self.on_difference = on_difference
        # generators that answer one question instead of keeping a selection: `any(…)`, `all(…)`,
        # a total (`sum(1 for j in jobs if j.state in RUNNING_STATES)`, `len([…])`), and
        # `next((n for n in mro if n in KINDS), "APIError")`, whose default keeps the unknown
        self.answering: set[int] = set()
        # this function's local names for a registry: `counts = {c: 0 for c in FAILURE_CODES}`
        self.aliases: dict[str, str] = {}

    def alias(self, name: str, value: cst.BaseExpression) -> None:
        """Remember a local table keyed by a registry (`{c: 0 for c in CODES}`, `dict.fromkeys(CODES,
        0)`), so `if r in counts: counts[r] += 1` is a filter by that registry."""
        source = None
        if isinstance(value, (cst.DictComp, cst.SetComp, cst.ListComp)) and value.for_in.inner_for_in is None \
                and not value.for_in.ifs:
            source = self.collection_name(value.for_in.iter)
        elif isinstance(value, cst.Call) and value.args and self.imports.resolve(value.func) == "dict.fromkeys":
            source = self.collection_name(value.args[0].value)
        if source is not None and self.looks_like_registry(source.rpartition(".")[2]):
            self.aliases[name] = source
        else:
            self.aliases.pop(name, None)

    def collection_name(self, node: cst.BaseExpression) -> Optional[str]:
        """The import-resolved name of a collection, through `set(…)`, `sorted(…)`, `.keys()`."""
        while isinstance(node, cst.Call):
            func = node.func
            if isinstance(func, cst.Name) and func.value in _WRAPPERS and node.args:
                node = node.args[0].value
            elif isinstance(func, cst.Attribute) and func.attr.value in _VIEWS and not node.args:
                node = func.value
            else:
                return None
        if isinstance(node, cst.Name) and node.value in self.aliases:
            return self.aliases[node.value]
        if isinstance(node, (cst.Name, cst.Attribute)):
            return self.imports.resolve(node)
        return None

    def _record(self, node, form, container, iterable) -> None:
        if container is None and iterable is None:
            return
        if any(name is not None and self.looks_like_registry(name.rpartition(".")[2])
               for name in (container, iterable)):
            self.on_filter(node, form, container, iterable)

    def _membership(self, test: cst.BaseExpression, names: set[str]) -> Optional[cst.BaseExpression]:
        """The container of `elem in CONTAINER` where elem is (part of) the iterated element."""
        if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
            return None
        comparison = test.comparisons[0]
        if isinstance(comparison.operator, cst.In) and _refers_to(test.left, names):
            return comparison.comparator
        return None

    def comprehension(self, node) -> None:
        if id(node) in self.answering:
            return
        comp_for = node.for_in
        while comp_for is not None:
            names = _target_names(comp_for.target)
            for comp_if in comp_for.ifs:
                container = self._membership(comp_if.test, names)
                if container is None:
                    continue
                name = self.collection_name(container)
                # `[t for t in tis if t.state in SCHEDULEABLE_STATES]` selects records by a state of
                # a vocabulary; by a list of failures (`FAILURE_STATES`) it can drop an unknown failure
                element = getattr(node, "elt", None)
                if element is not None and not element.deep_equals(comp_if.test.left) \
                        and (name is None or FAILURE_WORDS.isdisjoint(segments(name.rpartition(".")[2]))):
                    continue
                self._record(node, "comprehension", name, self.collection_name(comp_for.iter))
            comp_for = comp_for.inner_for_in

    def call(self, node: cst.Call, name: Optional[str]) -> None:
        func = node.func
        if node.args and isinstance(node.args[0].value, _COMPREHENSIONS) and (
                name in _ANSWERS or name == "next" and len(node.args) == 2):
            self.answering.add(id(node.args[0].value))
        if name == "filter" and len(node.args) == 2:
            predicate, iterable = node.args[0].value, self.collection_name(node.args[1].value)
            if isinstance(predicate, cst.Lambda) and predicate.params.params:
                names = {predicate.params.params[0].name.value}
                container = self._membership(predicate.body, names)
                if container is not None:
                    self._record(node, "filter", self.collection_name(container), iterable)
            elif isinstance(predicate, cst.Attribute) and predicate.attr.value == "__contains__":
                self._record(node, "filter", self.collection_name(predicate.value), iterable)
        elif isinstance(func, cst.Attribute) and node.args:
            method = func.attr.value
            if method == "intersection":
                self._record(node, "intersection", self.collection_name(node.args[0].value),
                             self.collection_name(func.value))
            elif method in ("difference", "symmetric_difference", "difference_update"):
                self._difference(node.args[0].value)

    def binary(self, node: cst.BinaryOperation) -> None:
        if isinstance(node.operator, cst.BitAnd):
            # `flags & FAIL_FAST` is bit arithmetic: only an operand built as a set makes it a filter
            if _builds_set(node.left) or _builds_set(node.right):
                self._record(node, "intersection", self.collection_name(node.right),
                             self.collection_name(node.left))
        elif isinstance(node.operator, cst.Subtract):
            self._difference(node.right)

    def _difference(self, node: cst.BaseExpression) -> None:
        name = self.collection_name(node)
        if name is not None:
            self.on_difference(name)

    def for_loop(self, node: cst.For) -> None:
        names = _target_names(node.target)
        body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
        for statement in body:
            if isinstance(statement, cst.If) and statement.orelse is None:
                container = self._membership(statement.test, names)
                if container is not None and not _keeps_nothing(statement, names):
                    self._record(node, "for", self.collection_name(container), self.collection_name(node.iter))


class FilterHooks:
    """Part of `Extractor`: where it hands comprehensions, loops and set operations to `FilterFinder`,
    and the filters that finder reports, kept until the enclosing function's guards are known."""

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> Optional[bool]:
        self.filters.binary(node)
        return None

    def visit_ListComp(self, node) -> Optional[bool]:
        self.filters.comprehension(node)
        return None

    visit_SetComp = visit_GeneratorExp = visit_DictComp = visit_ListComp

    def visit_For(self, node: cst.For) -> Optional[bool]:
        self.filters.for_loop(node)
        return None

    def add_filter(self, node, form, container, iterable) -> None:
        """Called by FilterFinder; guards are known only when the enclosing function ends."""
        if self.function is not None:
            self.function.filters.append((node, form, container, iterable))
        else:
            self._filter(node, form, container, iterable, "<module>", False)

    def add_difference(self, container: str) -> None:
        if self.function is not None:
            self.function.differenced.add(container)

    def _filter(self, node, form, container, iterable, function, guarded) -> None:
        self.pending.append(lambda pos_of: Filter(pos_of(node), form, container, iterable, function, guarded))
