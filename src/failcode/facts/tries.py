"""Part of the extractor: try blocks, their handlers and the stages their bodies reach.

A try block becomes a fact only when one of its handlers records an outcome. Its stage calls are
collected while its body is walked (the first call of each stage); a handler that looks at what it
caught narrows, one that stores it on a record keeps it, and a `raise` in a handler re-raises.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from failcode.facts.cstnodes import names_in
from failcode.facts.imports import ImportTable, dotted
from failcode.facts.sinks import recorded_values
from failcode.facts.stages import is_trivial
from failcode.facts.vocabulary import LOG_METHODS, TEXT_CALLS
from failcode.model import Handler, StageCall, TryBlock
from failcode.model import catches_all as catches_all_types

_EXCEPTION_CHECKS = frozenset({"isinstance", "issubclass", "type"})
_PASSIVE_CALLS = LOG_METHODS | TEXT_CALLS | {"append", "add", "extend"}


class _Collector:
    """Stage calls seen in one try body (first call per stage) and names bound from calls."""

    def __init__(self) -> None:
        self.first: dict[str, StageCall] = {}
        self.from_calls: set[str] = set()


class Tries:
    """Part of `Extractor`: try blocks, handlers, raises and stage calls."""

    def visit_Try(self, node) -> bool:
        try_id = self.next_try
        self.next_try += 1
        types = [self._handler_types(handler) for handler in node.handlers]
        catches_all = any(catches_all_types(tuple(t)) for t in types)
        collector = _Collector()
        outer = self.collectors
        self.collectors = [collector] if catches_all else [*outer, collector]
        self.context.append(("try", try_id))
        self.walk(node.body)
        self.context.pop()
        self.collectors = outer
        handler_ids = []
        for handler, handler_types in zip(node.handlers, types):
            handler_id = self.next_handler
            self.next_handler += 1
            handler_ids.append(handler_id)
            name = handler.name.name.value if handler.name and isinstance(handler.name.name, cst.Name) else None
            self.handler_names[handler_id] = name
            if handler.type is not None:
                self.walk(handler.type)
            self.context.append(("handler", handler_id))
            self.walk(handler.body)
            self.context.pop()
        if node.orelse is not None:
            self.walk(node.orelse)
        if node.finalbody is not None:
            self.walk(node.finalbody)
        if self.function is None or not self.recording.intersection(handler_ids):
            return False  # only a try whose handler records an outcome can matter to a rule
        function = self.function.qualname
        callee = _single_call(node.body)
        statements = _statement_count(node.body.body)  # a `with` block of ten statements is ten
        handlers_info = list(zip(node.handlers, types, handler_ids))

        def build(pos_of):
            handlers = tuple(
                Handler(hid, pos_of(h), tuple(t), hid in self.reraising, hid in self.narrowing, hid in self.keeping)
                for h, t, hid in handlers_info
            )
            return TryBlock(try_id, pos_of(node), function, tuple(collector.first.values()),
                            handlers, callee is not None and self._is_external(callee), statements)

        self.pending.append(build)
        return False

    visit_TryStar = visit_Try

    def _handler_types(self, handler: cst.ExceptHandler) -> list[str]:
        if handler.type is None:
            return []
        if isinstance(handler.type, cst.Tuple):
            items = [element.value for element in handler.type.elements]
        else:
            items = [handler.type]
        return [self.imports.resolve(item) or "?" for item in items]

    def _is_external(self, callee: str) -> bool:
        root = callee.split(".")[0]
        if root in ("self", "cls"):
            return callee.count(".") >= 2  # self.client.complete(): a collaborator's call
        if self.imports.is_imported(callee):
            return True
        return root not in self.module_defs

    def visit_Raise(self, node: cst.Raise) -> Optional[bool]:
        for kind, ident in self.context:
            if kind == "handler":
                self.reraising.add(ident)
        if self.function is not None and isinstance(node.exc, cst.Call):
            exc_name = dotted(node.exc.func) or "?"
            args = [arg.value for arg in node.exc.args]
            for value_node in args:
                for value, literal, ref in recorded_values(value_node):
                    if literal is not None and not self.code_re.match(literal):
                        continue
                    self._site(value, "raise", f"raise:{exc_name}", f"raise {exc_name}", literal, ref)
        return None

    def _stage_at(self, collector: _Collector, stage: str, label: str, node: cst.CSTNode) -> None:
        # positions are not known during the walk: fill the StageCall when they are
        def fill(pos_of) -> None:
            collector.first[stage] = StageCall(stage, label, pos_of(node).line)
        self.stage_pending.append(fill)

    def _compare_stage(self, node, left, right) -> None:
        if _is_constant(left) or _is_constant(right):
            return
        operator = "==" if isinstance(node.comparisons[0].operator, cst.Equal) else "!="
        for side in (left, right):
            called = _called_name(side, self.imports)
            if called is not None and self.stages.classify(called) is not None:
                return  # the call is a stage of its own and is named when it is visited
            if called is not None and not is_trivial(called):
                label = f"{operator} on {called.rpartition('.')[2]}()"
            elif _root_name(side) is not None and any(_root_name(side) in c.from_calls for c in self.collectors):
                label = f"{operator} on {_root_name(side)}"  # `out["answer"] == expected`, out = run()
            else:
                continue
            for collector in self.collectors:
                if "compare" not in collector.first:
                    collector.first["compare"] = None
                    self._stage_at(collector, "compare", label, node)
            return

    def _note_narrowing(self, node: cst.Call, name: str) -> None:
        """A handler that looks at what it caught: `isinstance(e, RateLimitError)`, `type(e)`, or
        any function given the exception (`is_rate_limit(e)`, `find_outage_in_chain(exc)`), but
        not a log call, `str(e)` or an exception built from it."""
        last = name.rpartition(".")[2]
        if name not in _EXCEPTION_CHECKS and (last in _PASSIVE_CALLS or last[:1].isupper()):
            return
        given = {arg.value.value for arg in node.args if isinstance(arg.value, cst.Name)}
        for kind, ident in self.context:
            if kind == "handler" and self.handler_names.get(ident) in given:
                self.narrowing.add(ident)

    def _note_keeping(self, value: cst.BaseExpression) -> None:
        """A handler that stores what it caught on a record (`action.result = str(e)`,
        `row["error"] = repr(exc)`) reports the failure there, whatever else it returns."""
        caught = {self.handler_names.get(ident): ident for kind, ident in self.context if kind == "handler"}
        caught.pop(None, None)
        if caught:  # only inside a handler that names what it caught: no walk on every assignment
            for node in names_in(value):
                if node.value in caught:
                    self.keeping.add(caught[node.value])


def _single_call(body: cst.BaseSuite) -> Optional[str]:
    """The callee when a try body is one statement that is one call (`resp = client.chat(…)`)."""
    statements = body.body if isinstance(body, cst.IndentedBlock) else [body]
    if len(statements) != 1 or not isinstance(statements[0], (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
        return None
    smalls = statements[0].body
    if len(smalls) != 1:
        return None
    small = smalls[0]
    value = getattr(small, "value", None)
    if isinstance(value, cst.Await):
        value = value.expression
    if isinstance(value, cst.Call):
        return dotted(value.func)
    return None


def _statement_count(body) -> int:
    """The simple statements of a LibCST block, those inside its compound statements' blocks too
    (not inside definitions), as facts/outcomes/ counts them."""
    count = 0
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            count += len(statement.body)
        elif isinstance(statement, cst.BaseSmallStatement):  # in a one-line suite: `with x: a; b`
            count += 1
        elif not isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            for block in _blocks_of(statement):
                count += _statement_count(block)
    return count


def _blocks_of(statement) -> list:
    """The statement lists a compound statement holds (its body, `else`, handlers, `finally`)."""
    found = []
    for name in ("body", "orelse", "finalbody"):
        part = getattr(statement, name, None)
        while part is not None and not isinstance(part, (list, tuple)):
            if isinstance(part, cst.If):  # an `elif`
                found.append(part.body.body)
                part = part.orelse
                continue
            part = getattr(part, "body", None)
        if part:
            found.append(part)
    for handler in getattr(statement, "handlers", ()):
        found.append(handler.body.body)
    for case in getattr(statement, "cases", ()):
        found.append(case.body.body)
    return found


def _root_name(node: cst.BaseExpression) -> Optional[str]:
    """`out` for `out`, `out["answer"]`, `out.answer[0]`."""
    while isinstance(node, (cst.Subscript, cst.Attribute)):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


def _called_name(node: cst.BaseExpression, imports: ImportTable) -> Optional[str]:
    if isinstance(node, cst.Await):
        node = node.expression
    if isinstance(node, cst.Call):
        name = imports.resolve(node.func)
        if name is None and isinstance(node.func, cst.Attribute):
            return node.func.attr.value
        return name or "?"
    return None


def _is_constant(node: cst.BaseExpression) -> bool:
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.Integer, cst.Float, cst.Imaginary)):
        return True
    if isinstance(node, cst.Name):
        return node.value in ("None", "True", "False") or node.value.isupper()
    if isinstance(node, cst.Attribute):
        return node.attr.value.isupper()
    return isinstance(node, cst.UnaryOperation) and _is_constant(node.expression)
