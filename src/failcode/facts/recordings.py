"""Part of the extractor: the places a function records an outcome (sites) and the tests of them.

A site is a call on a failure-shaped receiver (`failures.add(…)`), a sink keyword or dict key
(`status=`, `{"status": …}`), an assignment to a sink-shaped name, or a return of a function that
returns codes; a test compares a sink-shaped name with literals (`verdict == "reject"`, `match`).
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from failcode.facts.tries import _called_name
from failcode.facts.imports import dotted
from failcode.facts.sinks import keyword_values, recorded_values, string_value, target_name, target_text
from failcode.facts.stages import is_trivial
from failcode.model import Annotation, Site, Test


class _Function:
    def __init__(self, qualname: str) -> None:
        self.qualname = qualname
        self.returns: list[tuple[cst.CSTNode, Optional[str], Optional[str], tuple, bool]] = []
        self.handler_returns = False
        self.typed: Optional[tuple[str, tuple[str, ...]]] = None  # (return registry, parameter registries)
        self.plain: Optional[str] = None  # a return type of ours with no registry word (`-> Grade`)
        self.differenced: set[str] = set()
        self.filters: list[tuple[cst.CSTNode, str, Optional[str], Optional[str]]] = []


class Recordings:
    """Part of `Extractor`: sites, tests, assignments and returns."""

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

    def visit_IfExp(self, node: cst.IfExp) -> Optional[bool]:
        """Notes the arms of a conditional inside a function (visited after the statement that
        holds it: its sites read `self.arms` once the walk is done)."""
        if self.function is not None:
            self.arms[id(node.body)] = (node.test, "then")
            self.arms[id(node.orelse)] = (node.test, "else")
        return None

    def _decision(self, node: cst.CSTNode) -> str:
        """The test and arm of the conditional whose arm `node` is (`reg.conclusion is not None:then`)."""
        arm = self.arms.get(id(node))
        if arm is None:
            return ""
        return "".join(self.module.code_for_node(arm[0]).split()) + ":" + arm[1]

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
            pos_of(node), kind, sink, dest, literal, ref, function, label, handler, in_handler, extra,
            self._decision(node)))

    def _qualify(self, ref: str) -> str:
        if self.imports.is_imported(ref):
            return self.imports.resolve_text(ref)
        return f"{self.module_name}.{ref}" if self.module_name else ref


def _code(module: cst.Module, args: list[cst.Arg]) -> str:
    """Normalised source of the other arguments: `Score(INCORRECT, reason=…)` ≠ `Score(INCORRECT)`."""
    if not args:
        return ""
    return ",".join("".join(module.code_for_node(arg.with_changes(comma=cst.MaybeSentinel.DEFAULT)).split())
                    for arg in args)
