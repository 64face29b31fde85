"""One LibCST parse and one traversal per file, producing plain-data FileFacts.

The walker visits node fields directly (no CSTVisitor: that rebuilds every node), keeps its own
stacks for functions, try contexts and stage collectors, and computes positions only for the nodes
that became facts (facts/positions.py). It records what the code does; the rules decide what is wrong.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import re
from typing import Callable, Optional

import libcst as cst

from failcode.config import Settings
from failcode.facts import registries
from failcode.facts.cstnodes import children_fields, names_in
from failcode.facts.filters import FilterFinder
from failcode.facts.imports import ImportTable, dotted
from failcode.facts.nesting import AST_MAY_CRASH, too_deep
from failcode.facts.positions import node_positions
from failcode.facts.screen import Masked
from failcode.facts.vocabulary import DOTTED_NAME, LOG_METHODS, TEXT_CALLS, Vocabulary
from failcode.facts.sinks import keyword_values, recorded_values, string_value, target_name, target_text
from failcode.facts.source import InputError, decode, python_syntax_error, suppressions
from failcode.facts.stages import StageClassifier, is_trivial
from failcode.model import catches_all as catches_all_types
from failcode.model import (
    COLLECTIONS, Annotation,
    Constant, FileFacts, Filter, Handler, Pos, Registry, Site, StageCall, Test, TryBlock,
)

_EXCEPTION_CHECKS = frozenset({"isinstance", "issubclass", "type"})
_PASSIVE_CALLS = LOG_METHODS | TEXT_CALLS | {"append", "add", "extend"}
_SAYING = LOG_METHODS | {"print"}
_NOWHERE = Pos(0, 0, 0, 0)


class _Collector:
    """Stage calls seen in one try body (first call per stage) and names bound from calls."""

    def __init__(self) -> None:
        self.first: dict[str, StageCall] = {}
        self.from_calls: set[str] = set()


class _Function:
    def __init__(self, qualname: str) -> None:
        self.qualname = qualname
        self.returns: list[tuple[cst.CSTNode, Optional[str], Optional[str], tuple, bool]] = []
        self.handler_returns = False
        self.typed: Optional[tuple[str, tuple[str, ...]]] = None  # (return registry, parameter registries)
        self.plain: Optional[str] = None  # a return type of ours with no registry word (`-> Grade`)
        self.differenced: set[str] = set()
        self.filters: list[tuple[cst.CSTNode, str, Optional[str], Optional[str]]] = []


class Extractor:
    """Walks one module. Nodes that become facts are kept with a builder until positions exist."""

    def __init__(self, module: cst.Module, path: str, module_name: str, is_package: bool,
                 settings: Settings, shapes: Vocabulary, stages: StageClassifier,
                 prelude: Optional[tuple] = None) -> None:
        self.module = module
        self.prelude = prelude  # what the statements the screen spared LibCST tell (screen.Masked)
        self.path = path
        self.module_name = module_name
        self.imports = ImportTable(module_name, is_package)
        self.shapes = shapes
        self.stages = stages
        self.code_re = re.compile(settings.code_pattern)
        self.filters = FilterFinder(self.imports, shapes.looks_like_registry, self.add_filter, self.add_difference)
        # traversal state
        self.function: Optional[_Function] = None
        self.classes: list[str] = []
        self.context: list[tuple[str, int]] = []  # ("try", id) / ("handler", id), this function only
        self.collectors: list[_Collector] = []
        self.handler_names: dict[int, Optional[str]] = {}
        self.reraising: set[int] = set()
        self.narrowing: set[int] = set()
        self.quoting = 0  # depth inside log calls and f-strings
        self.strings: dict[str, str] = {}  # the module's UPPER_CASE string constants so far (`PARSE_FAILED = "…"`)
        self.keeping: set[int] = set()  # handlers that store what they caught on a record
        self.module_defs: set[str] = set()
        # pending facts: builders called once positions are known
        self.pending: list[Callable[[Callable[[cst.CSTNode], Pos]], object]] = []
        self.stage_pending: list[Callable[[Callable[[cst.CSTNode], Pos]], None]] = []
        self.recording: set[int] = set()  # handlers with at least one site
        self.next_try = 0
        self.next_handler = 0

    # -- traversal ---------------------------------------------------------------------------

    def run(self, source: Optional[str] = None, tree: Optional[ast.Module] = None,
            rows: Optional[tuple[int, ...]] = None) -> FileFacts:
        """The file's facts. `source` is the parsed text and `tree` its `ast`, which let positions be
        computed for the fact nodes alone; without `source`, the whole module is positioned. `rows`
        gives each line of a masked `source` its line in the file (screen.Masked)."""
        self.walk(self.module)
        if not self.pending:
            return FileFacts(self.path, self.module_name)
        wanted: list[cst.CSTNode] = []

        def note(node: cst.CSTNode) -> Pos:  # a throw-away first build lists the nodes facts need
            wanted.append(node)
            return _NOWHERE

        for fill in self.stage_pending:
            fill(note)
        for build in self.pending:
            build(note)
        ranges = node_positions(self.module, wanted, source, tree, children_fields, rows)
        row = (lambda line: line) if rows is None else (lambda line: rows[line - 1])

        def pos_of(node: cst.CSTNode) -> Pos:
            code_range = ranges[id(node)]
            return Pos(row(code_range.start.line), code_range.start.column + 1,
                       row(code_range.end.line), code_range.end.column + 1)

        buckets: dict[type, list] = {Site: [], TryBlock: [], Test: [], Registry: [], Filter: [], Constant: [],
                                     Annotation: []}
        for fill in self.stage_pending:  # stage calls first: try blocks read them
            fill(pos_of)
        for build in self.pending:
            fact = build(pos_of)
            if fact is not None:
                buckets[type(fact)].append(fact)
        buckets[Site], buckets[TryBlock] = _numbered(buckets[Site], buckets[TryBlock])
        for kind in (Site, Test, Registry, Filter):  # in source order, however the walk met them
            buckets[kind].sort(key=_position)
        return FileFacts(
            self.path, self.module_name, tuple(buckets[Site]), tuple(buckets[TryBlock]),
            tuple(buckets[Test]), tuple(buckets[Registry]), tuple(buckets[Filter]),
            tuple(buckets[Constant]),
            # a site's registry is the one its module defines or imports (project.Project.in_scope)
            # (and a filter's, FC004)
            tuple(sorted(self.imports.targets)) if buckets[Site] or buckets[Annotation] or buckets[Filter] else (),
            annotations=tuple(sorted(set(buckets[Annotation]), key=_annotation_key)),  # a set: no order, no repeats
        )

    def walk(self, node: cst.CSTNode) -> None:
        method = getattr(self, "visit_" + type(node).__name__, None)
        if method is None or method(node) is not False:
            self.walk_children(node)

    def walk_children(self, node: cst.CSTNode) -> None:
        for name in children_fields(node):
            value = getattr(node, name)
            if isinstance(value, cst.CSTNode):
                self.walk(value)
            elif isinstance(value, (tuple, list)):
                for item in value:
                    if isinstance(item, cst.CSTNode):
                        self.walk(item)

    def walk_all(self, nodes) -> None:
        for node in nodes:
            self.walk(node)

    # -- scopes ------------------------------------------------------------------------------

    def visit_Module(self, node: cst.Module) -> Optional[bool]:
        if not self.prelude:
            return None
        if len(self.prelude) != len(node.body) + 1:
            raise ValueError(f"the screen kept {len(self.prelude) - 1} statements, LibCST read {len(node.body)}")
        for told, statement in zip(self.prelude, node.body):
            self._spared(told)
            self.walk(statement)
        self._spared(self.prelude[-1])
        return False

    def _spared(self, told: tuple) -> None:
        """What statements LibCST did not read tell, as they would have told it (screen.Event)."""
        for event in told:
            kind = event[0]
            if kind == "import":
                self.imports.add_ast(event[1])
            elif kind == "def":
                self.module_defs.add(event[1])
            elif kind == "string":
                self._constant(event[1], event[2])
            else:
                self.strings.pop(event[1], None)

    def visit_Import(self, node: cst.Import) -> bool:
        self.imports.add_import(node)
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        self.imports.add_import_from(node)
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        if self.function is None and not self.classes:
            self.module_defs.add(node.name.value)
        self.walk_all(node.decorators)
        self.walk(node.params)
        outer = (self.function, self.context, self.collectors)
        prefix = outer[0].qualname + "." if outer[0] else ("".join(c + "." for c in self.classes))
        function = _Function(prefix + node.name.value)
        returns = self._registry_type(node.returns.annotation) if node.returns is not None else None
        if returns is not None:
            params = [*node.params.posonly_params, *node.params.params, *node.params.kwonly_params]
            typed = (self._registry_type(param.annotation.annotation) for param in params if param.annotation)
            function.typed = (returns, tuple(name for name in typed if name is not None and name != returns))
        elif node.returns is not None:
            function.plain = self._registry_type(node.returns.annotation, plain=True)
        self.function, self.context, self.collectors = function, [], []
        aliases, self.filters.aliases = self.filters.aliases, {}
        self.walk(node.body)
        self._finish_function(function)
        self.function, self.context, self.collectors = outer
        self.filters.aliases = aliases
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        at_module = self.function is None and not self.classes
        if at_module:
            self.module_defs.add(node.name.value)
            self._class_registry(node)
        self.walk_all(node.decorators)
        self.walk_all(node.bases)
        self.walk_all(node.keywords)
        self.classes.append(node.name.value)
        outer = (self.function, self.context, self.collectors)
        self.function, self.context, self.collectors = None, [], []
        self.walk(node.body)
        self.function, self.context, self.collectors = outer
        self.classes.pop()
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        # the body runs later, outside any try it is written in
        outer = self.collectors
        self.collectors = []
        self.walk(node.params)
        self.walk(node.body)
        self.collectors = outer
        return False

    # -- try blocks --------------------------------------------------------------------------

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

    # -- calls and comparisons ---------------------------------------------------------------

    def visit_Call(self, node: cst.Call) -> Optional[bool]:
        name = self.imports.resolve(node.func)
        if name is None and isinstance(node.func, cst.Attribute):
            name = "?." + node.func.attr.value
        keywords = [arg.keyword.value for arg in node.args if arg.keyword is not None]
        if self.collectors and name is not None:
            stage = self.stages.classify(name, keywords)
            if stage is not None:
                line_node = node
                label = name.rpartition(".")[2] if name.startswith("?.") else name
                for collector in self.collectors:
                    if stage not in collector.first:
                        collector.first[stage] = None  # placeholder keeps order; filled below
                        self._stage_at(collector, stage, label, line_node)
        if self.function is not None and self.context and name is not None and not self.quoting:
            self._note_narrowing(node, name)
        if self.function is not None:
            self._call_sites(node, keywords)
        self.filters.call(node, name)
        if name is not None and name.rpartition(".")[2] in _SAYING:
            return self._quoted(node)
        return None

    def visit_FormattedStringExpression(self, node: cst.FormattedStringExpression) -> bool:
        return self._quoted(node)

    def _quoted(self, node: cst.CSTNode) -> bool:
        """What a log call or an f-string is given it only says (`logger.warning(f"{type(e)}")`):
        a handler does not sort what it caught by naming it."""
        self.quoting += 1
        self.walk_children(node)
        self.quoting -= 1
        return False

    def _stage_at(self, collector: _Collector, stage: str, label: str, node: cst.CSTNode) -> None:
        # positions are not known during the walk: fill the StageCall when they are
        def fill(pos_of) -> None:
            collector.first[stage] = StageCall(stage, label, pos_of(node).line)
        self.stage_pending.append(fill)

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

    def _call_sites(self, node: cst.Call, keywords: list[str]) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in self.shapes.methods:
            receiver = target_name(func.value)
            if receiver is not None and self.shapes.is_receiver(receiver):
                method = func.attr.value
                positional = [arg.value for arg in node.args if arg.keyword is None and not arg.star]
                index = 1 if method == "insert" else 0
                values: list[cst.BaseExpression] = []
                if method in ("extend", "update"):
                    if positional and isinstance(positional[0], (cst.List, cst.Tuple, cst.Set)):
                        values = [element.value for element in positional[0].elements]
                elif len(positional) > index:
                    values = [positional[index]]
                dest = f"{target_text(func.value)}.{method}"
                extra = _code(self.module, [a for i, a in enumerate(node.args) if i != index])
                for value_node in values:
                    for value, literal, ref in recorded_values(value_node):
                        self._site(value, "call", f"{receiver}.{method}", dest, literal, ref, extra)
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value in self.shapes.keywords:
                keyword = arg.keyword.value
                callee = dotted(func) or "?"
                extra = _code(self.module, [a for a in node.args if a is not arg])
                for value, literal, ref in keyword_values(arg.value):
                    self._site(value, "keyword", f"{keyword}=", f"{callee}({keyword}=)", literal, ref, extra)

    def visit_Dict(self, node: cst.Dict) -> Optional[bool]:
        """`{"status": "FAILED", ...}` records like `Outcome(status="FAILED")`: same sink key."""
        if self.function is None:
            return None
        elements = [e for e in node.elements if isinstance(e, cst.DictElement)]
        keys = [string_value(e.key) for e in elements]
        for element, key in zip(elements, keys):
            if key in self.shapes.keywords:
                others = ",".join(sorted(f"{k}" for k in keys if k is not None and k != key))
                for value, literal, ref in keyword_values(element.value):
                    self._site(value, "keyword", f"{key}=", f"{{{key!r}: …}}", literal, ref, others)
            elif key in ("error", "failure") and isinstance(element.value, cst.Dict):
                self._nested(key, element.value)
        return None

    def _nested(self, outer: str, node: cst.Dict) -> None:
        """`{"error": {"type": "internal_error", …}}`: an error frame's `type` is its `error_type`,
        the sink the same code has as a keyword or a name (a key that is a sink on its own, like
        `code`, is one already)."""
        elements = [e for e in node.elements if isinstance(e, cst.DictElement)]
        keys = [string_value(e.key) for e in elements]
        for element, key in zip(elements, keys):
            sink = f"{outer}_{key}"
            if key is None or key in self.shapes.keywords or sink not in self.shapes.keywords:
                continue
            others = ",".join(sorted(f"{k}" for k in keys if k is not None and k != key))
            for value, literal, ref in keyword_values(element.value):
                self._site(value, "keyword", f"{sink}=", f"{{{outer!r}: {{{key!r}: …}}}}", literal, ref, others)

    def visit_Comparison(self, node: cst.Comparison) -> Optional[bool]:
        if len(node.comparisons) != 1:
            return None
        target = node.comparisons[0]
        operator = target.operator
        left, right = node.left, target.comparator
        if isinstance(operator, (cst.Equal, cst.NotEqual)):
            if self.collectors:
                self._compare_stage(node, left, right)
            self._test(node, left, right)
        elif isinstance(operator, cst.In):
            self._test(node, left, right)
        elif isinstance(operator, cst.NotIn) and self.function is not None:
            container = self.filters.collection_name(right)
            if container is not None:
                self.function.differenced.add(container)
        return None

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

    def _test(self, node, left, right) -> None:
        if self.function is None:
            return
        if string_value(left) is not None:
            left, right = right, left
        name = target_name(left) if isinstance(left, (cst.Name, cst.Attribute, cst.Subscript)) else None
        if name is None or not self.shapes.is_assign_target(name):
            return
        if isinstance(right, (cst.Tuple, cst.List, cst.Set)):
            values = [string_value(element.value) for element in right.elements]
        else:
            values = [string_value(right)]
        if not values or any(value is None for value in values):
            return
        function, target = self.function.qualname, target_text(left)
        self.pending.append(lambda pos_of: Test(pos_of(node), function, target, tuple(values)))

    def visit_Match(self, node) -> Optional[bool]:
        subject = node.subject
        if self.function is None or not isinstance(subject, (cst.Name, cst.Attribute)):
            return None
        name = target_name(subject)
        if name is None or not self.shapes.is_assign_target(name):
            return None
        values = []
        for case in node.cases:
            pattern = case.pattern
            if isinstance(pattern, cst.MatchValue):
                literal = string_value(pattern.value)
                if literal is not None:
                    values.append(literal)
        if values:
            function, target = self.function.qualname, target_text(subject)
            self.pending.append(lambda pos_of: Test(pos_of(node), function, target, tuple(values)))
        return None

    # -- assignments and returns -------------------------------------------------------------

    def visit_Assign(self, node: cst.Assign) -> Optional[bool]:
        targets = [t.target for t in node.targets]
        self._assignment(targets, node.value)
        return None

    def visit_AnnAssign(self, node: cst.AnnAssign) -> Optional[bool]:
        if node.value is not None:
            self._assignment([node.target], node.value)
            if self.function is not None:
                self._typed_assignment(node.target, node.annotation.annotation, node.value)
        return None

    def _typed_assignment(self, target: cst.BaseExpression, annotation: cst.BaseExpression,
                          value: cst.BaseExpression) -> None:
        """`result: Outcome = "passed"`: a name typed with a registry records its codes, whatever
        the name (a sink name's sites are `_assignment`'s already)."""
        typed = self._registry_type(annotation)
        name = target_name(target)
        recorded = list(recorded_values(value))
        if typed is None and any(literal is not None for _, literal, _ in recorded):
            typed = self._registry_type(annotation, plain=True)  # `result: Grade = "pass"`
        if typed is None or name is None:
            return
        sink = f"={name}"
        if not self.shapes.is_assign_target(name):
            for value_node, literal, ref in recorded:
                self._site(value_node, "assign", sink, target_text(target), literal, ref)
        self.pending.append(lambda pos_of: Annotation(sink, typed))

    def _assignment(self, targets: list[cst.BaseExpression], value: cst.BaseExpression) -> None:
        if self.function is None:
            if not self.classes and len(targets) == 1 and isinstance(targets[0], cst.Name):
                self._module_assignment(targets[0].value, targets[0], value)
            return
        if len(targets) == 1 and isinstance(targets[0], cst.Name):
            self.filters.alias(targets[0].value, value)
        elif any(isinstance(target, (cst.Attribute, cst.Subscript)) for target in targets):
            self._note_keeping(value)
        if self.collectors:
            source = value
            while isinstance(source, (cst.Subscript, cst.Attribute)):
                source = source.value  # answer = json.loads(text)["answer"] is data from a call too
            called = _called_name(source, self.imports)
            if called is not None and not is_trivial(called):
                for target in targets:
                    if isinstance(target, cst.Name):
                        for collector in self.collectors:
                            collector.from_calls.add(target.value)
        for target in targets:
            name = target_name(target)
            if name is None or not self.shapes.is_assign_target(name):
                continue
            dest = target_text(target)
            for value_node, literal, ref in recorded_values(value):
                self._site(value_node, "assign", f"={name}", dest, literal, ref)

    def visit_Return(self, node: cst.Return) -> Optional[bool]:
        if self.function is None or node.value is None:
            return None
        in_handler = any(kind == "handler" for kind, _ in self.context)
        values = list(recorded_values(node.value))
        if not values:
            self.function.returns.append((node, None, None, (), False))
            return None
        for value, literal, ref in values:
            self.function.returns.append((value, literal, ref, tuple(self.context), in_handler))
            if in_handler:
                self.function.handler_returns = True
                self.recording.add(next(i for k, i in reversed(self.context) if k == "handler"))
        return None

    def _finish_function(self, function: _Function) -> None:
        returns = [r for r in function.returns if r[3] is not None]
        real = [r for r in returns if r[1] is not None or r[2] is not None]
        if function.plain is not None and any(r[1] is not None for r in real):
            function.typed = (function.plain, ())  # `-> Grade` returning words: Grade may be a registry by use
        all_codes = len(real) >= 2 and len(real) == len(returns) and all(
            r[2] is not None or self.code_re.match(r[1]) for r in real
        )
        sink = f"return:{self.module_name}.{function.qualname}"
        if all_codes or function.handler_returns or function.typed:
            for value, literal, ref, context, _ in real:
                self._site(value, "return", sink, "return", literal, ref, function=function.qualname, context=context)
        if function.typed:
            returns, params = function.typed
            self.pending.append(lambda pos_of: Annotation(sink, returns, params))
        for node, form, container, iterable in function.filters:
            guarded = container in function.differenced or (iterable in function.differenced if iterable else False)
            self._filter(node, form, container, iterable, function.qualname, guarded)

    def _registry_type(self, annotation: cst.BaseExpression, plain: bool = False) -> Optional[str]:
        """The qualified name of a registry-like type (`Outcome`, `codes.FailureReason`,
        `Optional[Outcome]`, `"Outcome"`, `Outcome | None`), else None. `plain` also takes a type
        of this project whose name has no registry word (`Grade`): it may be a `Literal` alias, a
        registry found by this use of it."""
        if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
            for side, other in ((annotation.left, annotation.right), (annotation.right, annotation.left)):
                if isinstance(other, cst.Name) and other.value == "None":
                    return self._registry_type(side, plain)
            return None
        if isinstance(annotation, cst.Subscript) and len(annotation.slice) == 1 and \
                isinstance(annotation.slice[0].slice, cst.Index) and \
                (self.imports.resolve(annotation.value) or "").rpartition(".")[2] == "Optional":
            return self._registry_type(annotation.slice[0].slice.value, plain)
        name = string_value(annotation) if isinstance(annotation, cst.SimpleString) else dotted(annotation)
        short = name.rpartition(".")[2] if name is not None and DOTTED_NAME.fullmatch(name) else ""
        if not short or short.endswith(("Error", "Exception")):
            return None
        qualname = self._qualify(name)
        if self.shapes.looks_like_registry(short):
            return qualname
        # a type of ours: defined here, or imported from this project (`from .kinds import Grade`)
        ours = qualname.split(".")[0] == self.module_name.split(".")[0] if self.imports.is_imported(name) \
            else not hasattr(builtins, name)
        return qualname if plain and short[:1].isupper() and ours else None

    def _site(self, node, kind, sink, dest, literal, ref, extra="", function=None, context=None) -> None:
        function = function or self.function.qualname
        stack = self.context if context is None else context
        innermost = stack[-1] if stack else None
        label = {"try": "try-body", "handler": "handler"}[innermost[0]] if innermost else "plain"
        handler = next((ident for k, ident in reversed(stack) if k == "handler"), None)
        in_handler = handler is not None
        if label == "handler":
            self.recording.add(handler)
        if ref is not None:
            ref = self._qualify(ref)
        self.pending.append(lambda pos_of: Site(
            pos_of(node), kind, sink, dest, literal, ref, function, label, handler, in_handler, extra))

    def _qualify(self, ref: str) -> str:
        if self.imports.is_imported(ref):
            return self.imports.resolve_text(ref)
        return f"{self.module_name}.{ref}" if self.module_name else ref

    # -- module-level definitions ------------------------------------------------------------

    def _module_assignment(self, name: str, target: cst.Name, value: cst.BaseExpression) -> None:
        literal = string_value(value)
        if literal is not None:
            self._constant(name, literal)
            return
        self.strings.pop(name, None)
        found = registries.collection_elements(value, self.imports, self.strings)
        # any `Literal[...]` alias: one whose name has no registry word is a registry by use (`-> Grade`);
        # so is a constant collection of codes (`ORDER = ("READ_FAILED", "ANSWER_MISMATCH")`), once a
        # filter pairs it with recorded reasons
        if found is not None and (found[0] == "literal" or self.shapes.looks_like_registry(name)
                                  or self._code_collection(name, found)):
            module, path = self.module_name, self.path
            self.pending.append(lambda pos_of: registries.build(name, module, path, pos_of(target), found, pos_of))

    def _constant(self, name: str, literal: str) -> None:
        """`name = "text"` at module level: an UPPER_CASE name is a constant that may name a code."""
        if name.isupper():
            qualname = self._qualify(name)
            self.pending.append(lambda pos_of: Constant(qualname, literal))
            self.strings[name] = literal

    def _code_collection(self, name: str, found: tuple) -> bool:
        """`ORDER = ("READ_FAILED", "ANSWER_MISMATCH")`: a constant list, tuple or set of two or
        more codes (screen.py's `_code_collection` is its superset)."""
        return name.isupper() and found[0] in COLLECTIONS and len(found[1]) >= 2 \
            and all(self.code_re.match(code) for _, code, _ in found[1])

    def visit_TypeAlias(self, node) -> Optional[bool]:
        name = node.name.value
        if self.function is None and not self.classes:
            found = registries.collection_elements(node.value, self.imports)
            if found is not None and (found[0] == "literal" or self.shapes.looks_like_registry(name)):
                module, path = self.module_name, self.path
                self.pending.append(lambda pos_of: registries.build(name, module, path, pos_of(node.name), found, pos_of))
        return None

    def _class_registry(self, node: cst.ClassDef) -> None:
        name = node.name.value
        if name.endswith(("Error", "Exception")) or not self.shapes.looks_like_registry(name):
            return
        found = registries.class_elements(node, self.imports)
        if found is not None:
            module, path = self.module_name, self.path
            self.pending.append(lambda pos_of: registries.build(name, module, path, pos_of(node.name), found, pos_of))

    # -- filters -----------------------------------------------------------------------------

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


def _numbered(sites: list[Site], tries: list[TryBlock]) -> tuple[list[Site], list[TryBlock]]:
    """Try and handler ids renumbered in source order among those that are facts, so a file read
    whole and one read with its fact-free definitions masked (facts/screen.py) get the same ids."""
    tries = sorted(tries, key=lambda found: found.pos)
    handler_ids: dict[int, int] = {}
    for found in tries:
        for handler in found.handlers:
            handler_ids.setdefault(handler.id, len(handler_ids))
    for site in sorted(sites, key=lambda found: found.pos):
        if site.handler is not None:
            handler_ids.setdefault(site.handler, len(handler_ids))
    tries = [dataclasses.replace(found, id=index, handlers=tuple(
        dataclasses.replace(handler, id=handler_ids[handler.id]) for handler in found.handlers))
        for index, found in enumerate(tries)]
    sites = [site if site.handler is None else dataclasses.replace(site, handler=handler_ids[site.handler])
             for site in sites]
    return sites, tries


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


def _code(module: cst.Module, args: list[cst.Arg]) -> str:
    """Normalised source of the other arguments: `Score(INCORRECT, reason=…)` ≠ `Score(INCORRECT)`."""
    if not args:
        return ""
    return ",".join("".join(module.code_for_node(arg.with_changes(comma=cst.MaybeSentinel.DEFAULT)).split())
                    for arg in args)


_TOOLS: dict[Settings, tuple[Vocabulary, StageClassifier]] = {}


def _tools(settings: Settings) -> tuple[Vocabulary, StageClassifier]:
    tools = _TOOLS.get(settings)
    if tools is None:
        tools = _TOOLS[settings] = (Vocabulary(settings), StageClassifier(settings.stages))
    return tools


def _syntax_error(text: str, exc: cst.ParserSyntaxError) -> InputError:
    """Python's own wording and position where it has one (LibCST's native parser often reports
    the end of the input); LibCST's message and position for syntax only LibCST rejects."""
    return python_syntax_error(text) or \
        InputError("unparseable", exc.message, exc.editor_line, exc.editor_column + 1)


def parse(text: str) -> cst.Module:
    if "\x00" in text:
        raise InputError("unparseable", "source contains a NUL byte")
    deep = too_deep(text)  # LibCST's parser would crash the process here, not raise
    if deep is not None:  # an unclosed bracket also looks deep: Python's syntax error says which
        raise (None if AST_MAY_CRASH else python_syntax_error(text)) or InputError("unparseable", deep)
    try:
        return cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        raise _syntax_error(text, exc) from None
    except cst.CSTValidationError as exc:  # parsed, but not valid Python (`except:` before another handler)
        raise python_syntax_error(text) or InputError("unparseable", f"invalid syntax: {exc}") from None
    except RecursionError:
        raise InputError("unparseable", "too deeply nested for LibCST to parse") from None


def extract(data: bytes, path: str, module_name: str, is_package: bool, settings: Settings) -> FileFacts:
    """Facts of one file's bytes. Raises InputError for input problems; anything else is a bug."""
    return extract_source(decode(data), path, module_name, is_package, settings)


def extract_source(text: str, path: str, module_name: str, is_package: bool, settings: Settings,
                   tree: Optional[ast.Module] = None, masked: Optional[Masked] = None) -> FileFacts:
    """Facts of decoded source text; `tree` is its `ast` when the caller has parsed it already.
    With `masked` (facts/screen.py), LibCST reads only what it kept of the text; noqa comments
    count wherever they are in the text."""
    source = text if masked is None else masked.text
    module = parse(source)
    shapes, stages = _tools(settings)
    try:
        if masked is None:
            facts = Extractor(module, path, module_name, is_package, settings, shapes, stages).run(source, tree)
        else:
            facts = Extractor(module, path, module_name, is_package, settings, shapes, stages,
                              masked.prelude).run(source, masked.tree, masked.rows)
    except RecursionError:
        raise InputError("unparseable", "too deeply nested for LibCST to analyse") from None
    noqa, file_noqa = suppressions(text)
    if noqa or file_noqa is not None:
        facts = dataclasses.replace(facts, noqa=noqa, file_noqa=file_noqa)
    return facts


def extract_parts(parts, original: str, path: str, module_name: str, is_package: bool,
                  settings: Settings) -> FileFacts:
    """Facts of a large file read in parts (facts/screen.py `_parts`): each part's facts on the lines
    it owns, try and handler ids renumbered across the parts in source order, as one read gives
    them. Every part tells the module's imports and its statements outside definitions alike."""
    merged: dict[str, list] = {"sites": [], "tries": [], "tests": [], "registries": [], "filters": []}
    annotations: set[Annotation] = set()
    imports: set[str] = set()
    first: Optional[FileFacts] = None
    for number, part in enumerate(parts):
        facts = extract_source(original, path, module_name, is_package, settings, masked=part)
        first = first or facts
        offset = number * 1_000_000  # ids apart until `_numbered` numbers them anew

        def owned(found) -> bool:
            return any(start <= found.pos.line <= end for start, end in part.owned)

        merged["sites"] += [site if site.handler is None else dataclasses.replace(site, handler=site.handler + offset)
                            for site in facts.sites if owned(site)]
        merged["tries"] += [dataclasses.replace(found, id=found.id + offset, handlers=tuple(
            dataclasses.replace(handler, id=handler.id + offset) for handler in found.handlers))
            for found in facts.tries if owned(found)]
        for kind in ("tests", "registries", "filters"):
            merged[kind] += [found for found in getattr(facts, kind) if owned(found)]
        annotations.update(facts.annotations)
        imports.update(facts.imports)
    sites, tries = _numbered(merged["sites"], merged["tries"])
    return dataclasses.replace(
        first, sites=tuple(sorted(sites, key=_position)), tries=tuple(tries),
        tests=tuple(sorted(merged["tests"], key=_position)),
        registries=tuple(sorted(merged["registries"], key=_position)),
        filters=tuple(sorted(merged["filters"], key=_position)),
        annotations=tuple(sorted(annotations, key=_annotation_key)),
        imports=tuple(sorted(imports)) if sites or annotations or merged["filters"] else ())


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


def _position(fact) -> Pos:
    return fact.pos


def _annotation_key(annotation: Annotation) -> tuple:
    return annotation.sink, annotation.returns, annotation.params
