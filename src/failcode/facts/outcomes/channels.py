"""Channels and their values: where a statement writes (a return, a name, a key, a keyword), and
what it writes there: a constant the path decides, a verdict a compare decides, a score a judge
parses, or a fallback (a `.get` default, `x or default`, the no-match arm of a lookup).
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from typing import Iterator, Optional

from failcode.facts.outcomes.records import _Context, _Pending, _PendingBlame
from failcode.facts.outcomes.survivors import _none_left
from failcode.facts.outcomes.syntax import (
    _EXPLAINING, _NOWHERE, _REFERENCE, _awaited, _callee, _constant, _default_call, _dotted, _exit_status, _name_of,
    _parsed_number, _record_fields, _resolve, _short)
from failcode.facts.vocabulary import is_verdict_function
from failcode.facts.walk import walk
from failcode.model import ANY_NUMBER, ANY_STATUS
from failcode.names import FAILURE_WORDS, is_constant_name, is_predicate_name, segments


_DECIDING = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn)


_CONVERSIONS = ("float", "int", "bool")


_WORDS = re.compile(r"\W+")


@lru_cache(maxsize=65536)
def _judging_channel(channel: str) -> bool:
    """`score`, `self.passed_score`, `return['accuracy']`: a channel whose name judges."""
    return is_verdict_function(_WORDS.sub("_", channel))


# Heads of names that hold a setting or a handle, not a value to weigh: `verify_mode`, `score_fn`,
# `grader_config`, `reference_path`.
_SETTINGS = frozenset("mode modes type types kind config configs settings fn func function method name names key"
                      " keys field path paths url id ids option options format template class cls".split())


@lru_cache(maxsize=65536)
def _weighing(name: str) -> bool:
    words = segments(name)
    if words[-1:] and words[-1] in _SETTINGS:
        return False
    return is_verdict_function(name) or not _REFERENCE.isdisjoint(words)


def _weighs(node: ast.expr) -> bool:
    """A compare operand named as a verdict or a score (`score`, `verdict`) or as the reference an
    answer is checked against (`expected`, `gold_answer`, `self.reference`, `case["expected"]`),
    also normalised by its own methods (`sample.ground_truth.strip().lower()`: still the reference)."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.keywords:
        node = node.func.value
    name = _name_of(node)
    return name is not None and _weighing(name)


def _is_literal(node: ast.expr) -> bool:
    return _constant(node) is not None or isinstance(node, (ast.Set, ast.List, ast.Tuple, ast.Dict))


def _root(node: ast.expr) -> Optional[str]:
    """The name a value is read from: `prediction` of `prediction["label"]` or `reply.text`."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _keyed_by_type(lookup: ast.Call) -> bool:
    """A lookup whose key is an exception's type: `type(e)`, `e.__class__`, its `__mro__`."""
    return any(isinstance(node, ast.Call) and _callee(node) == "type"
               or isinstance(node, ast.Attribute) and node.attr in ("__class__", "__mro__")
               for node in walk(lookup.args[0]))


_FAILURE_REASONS = FAILURE_WORDS | frozenset("timeout timed crash crashed exception unknown".split())


def _says_failure(node: ast.expr) -> bool:
    """A string that names a failure (`"timeout"`, `"exec error"`, `"compilation error"`)."""
    return isinstance(node, ast.Constant) and isinstance(node.value, str) \
        and not _FAILURE_REASONS.isdisjoint(segments(node.value))


_CODE_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[_.:-][A-Za-z0-9]+)*")


def _tells_by_code(field: str, value: ast.expr) -> bool:
    """A record's failure-worded field given a code or a flag (`reason_code=SchemaErrorReason.CHECK_ERROR`,
    `error="judge_unavailable"`, `errored=True`): a value a reader can sort on, where words built
    from the exception (`reason=f"judge error: {e}"`) can only be shown."""
    if FAILURE_WORDS.isdisjoint(segments(field)):
        return False
    if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or):  # `err.reason_code or Reason.CHECK`
        value = value.values[-1]
    if isinstance(value, ast.Constant):
        return value.value is True or isinstance(value.value, str) and _CODE_TEXT.fullmatch(value.value) is not None
    return isinstance(value, ast.Name) and is_constant_name(value.id) \
        or isinstance(value, ast.Attribute) and is_constant_name(value.attr)


# How a record says its check did not run: "Metric skipped.", "No latency data provided", "not
# evaluated". The concept "this check did not run", in the words records use for it.
_NOT_RUN = re.compile(r"(?i)\bskip(?:ped|ping)?\b|\bnot (?:run|evaluated|executed|checked|scored)\b"
                      r"|\b(?:no|not)\b[\w ]{0,30}\bprovided\b")


def _says_not_run(call: ast.Call) -> Optional[str]:
    """The words of a record (a string argument or keyword) that say its check did not run, unless a
    field says so for a reader to sort on (`skipped=True`, `status="skipped"`): then the record
    is honest, and its verdict field a placeholder nobody counts."""
    texts = [part.value for node in (*call.args, *(k.value for k in call.keywords))
             for part in (node.values if isinstance(node, ast.JoinedStr) else (node,))
             if isinstance(part, ast.Constant) and isinstance(part.value, str)]
    flagged = any("skip" in keyword.arg.lower() for keyword in call.keywords if keyword.arg is not None) \
        or any(text.strip().lower() in ("skip", "skipped") for text in texts)
    return None if flagged else next((text.strip() for text in texts if _NOT_RUN.search(text)), None)


def _empty(node: ast.expr) -> bool:
    """`None`, `""`, `[]`, `{}`: a field a record leaves empty says nothing there."""
    if isinstance(node, ast.Constant):
        return node.value is None or node.value == ""
    return isinstance(node, (ast.List, ast.Tuple, ast.Set)) and not node.elts or isinstance(node, ast.Dict) and not node.keys


class Channels:
    """Part of `Scan`: the channel a statement writes to and the role of each value written."""

    def type_default(self, lookup: ast.Call, default: ast.Constant) -> None:
        """`next((n for n in type(e).__mro__ if n.__name__ in KINDS), "APIError")`,
        `KINDS.get(type(e), "provider_error")`: the default names every exception type the lookup
        does not list, our own `KeyError` among them. Whether it blames a party is FC006's to judge."""
        if any(b.node is default for b in self.blames):
            return  # the same write seen again (a value met twice on its way to a channel)
        self.blames.append(_PendingBlame(default, self.qualname, (default.value,), lookup.lineno, "default",
                                         subject=_callee(lookup) or ""))

    def write(self, channel: str, value: ast.expr, context: _Context, top: bool = False,
              at: Optional[tuple[ast.AST, tuple[int, ast.expr]]] = None) -> None:
        """The values an expression writes on a channel, each with its role on this path. `at`: a
        handler that leaves the default (an assignment before the try) standing."""
        if context.silent:
            return
        if isinstance(value, ast.Await):
            value = value.value
        if top and isinstance(value, ast.Name) and value.id in self.dicts:
            value = self.dicts[value.id]
        filled = [(record, field, item) for record, field, item in _record_fields(value, channel) if not _empty(item)]
        if context.fallback is not None:
            self.let_through(channel, value, context)
            if any(isinstance(item, ast.Constant) and item.value is True and set(segments(field)) & _EXPLAINING
                   for _, field, item in filled):
                return  # `ScoreResult(value=0.0, scoring_failed=True)`: the record flags the failure
        start = len(self.writes)
        self.record_write(channel, value, context, top, at)
        if not filled:
            return
        fields = [(record, field) for record, field, _ in filled]
        if context.fallback is not None:
            # `{"passed": False, "failure_reason": "…"}`: the record says what happened, unless the
            # genuine verdict's record fills that field too (`Scan.contested`)
            told = frozenset(pair for pair in fields if set(segments(pair[1])) & _EXPLAINING)
            if told:
                self.explained.extend((write, told) for write in self.writes[start:])
            coded = tuple(field for _, field, item in filled if _tells_by_code(field, item))
            for write in self.writes[start:]:
                write.told = coded
        elif any(write.role == "verdict" and write.kind != "decided" for write in self.writes[start:]):
            self.described.update(fields)

    def record_write(self, channel: str, value: ast.expr, context: _Context, top: bool,
                     at: Optional[tuple[ast.AST, tuple[int, ast.expr]]]) -> None:
        """`write` of the value itself: a record's fields as channels of their own, a tuple's items,
        a call's keywords, and the role of each value written."""
        if top and isinstance(value, ast.Dict):
            for key, item in zip(value.keys, value.values):
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    self.write(f"{channel}[{key.value!r}]", item, context)
            return
        if top and isinstance(value, ast.Tuple) and value.elts:
            if context.fallback is not None and any(_says_failure(item) for item in value.elts[1:]):
                return  # `return False, "timeout"`: the reason beside the verdict says what happened
            self.write(f"{channel}[0]", value.elts[0], context)
            for index, item in enumerate(value.elts[1:], 1):  # `return name, False`: a flag beside what it is about
                if isinstance(item, ast.Constant) and isinstance(item.value, bool) \
                        or not _is_literal(item) and self.verdict(item, self.judges) is not None:
                    self.write(f"{channel}[{index}]", item, context)  # `return got, got == expected`
            return
        if isinstance(value, ast.Call) and value.keywords and not _default_call(value):
            callee = _dotted(value.func)
            if callee is not None:
                words = _says_not_run(value) if context.fallback is None and callee.rpartition(".")[2][:1].isupper() \
                    else None
                # `MetricResult(passed=True, reason="No context provided. Metric skipped.")`: the pass it
                # records stands in for a verdict; a fail for what it could not check (the candidate's
                # missing trace, a missing reference) is another arm's question
                skipped = _Context(fallback=f"a record whose words say its check did not run ({words!r})",
                                   kind="skipped", trigger=value.lineno) if words is not None else None
                for keyword in value.keywords:
                    if keyword.arg is not None:  # `Score(value={"correct": ok})`: a key channel each
                        passes = skipped is not None and self.constant(keyword.value) == "1.0"
                        self.write(f"{callee}({keyword.arg}=)", keyword.value, skipped if passes else context,
                                   top=isinstance(keyword.value, ast.Dict))
            return
        if context.exhausted and isinstance(value, ast.Call) and not value.args and not value.keywords \
                and (_callee(value) or "").rpartition(".")[2][:1].isupper():
            # `return LitellmModelResponse()`: an empty reply, built in place of the one that never came
            self.writes.append(_Pending(value, self.qualname, channel, (f"{_callee(value)}()",), "fallback",
                                        context.kind, context.fallback, context.trigger, context.region,
                                        catch_all=context.catch_all))
            return
        judging = self.judges or _judging_channel(channel)
        for node, values, role, kind, why in self.values(value, judging):
            trigger, region = node.lineno, (0, _NOWHERE)
            if role is None:  # a constant: the path decides what it is
                if context.fallback is not None:
                    role, kind, why = "fallback", context.kind, context.fallback
                    trigger, region = context.trigger, context.region
                elif context.decided is not None:
                    role, kind, why = "verdict", "decided", ("when", context.decided)
                else:
                    continue
            elif role == "verdict" and context.fallback is not None:
                continue  # a handler that computes a verdict again is not a fallback
            attempt = context.attempt if role == "fallback" and why == context.fallback else None
            stages = self.stages_of(attempt) if attempt is not None else ()
            self.writes.append(_Pending(node if at is None else at[0], self.qualname, channel, values, role, kind, why,
                                        trigger, region, attempt, stages, at[1] if at is not None else None,
                                        catch_all=context.catch_all))

    def values(self, node: ast.expr, judging: bool) -> Iterator[tuple]:
        """(node, values, role, kind, why) for what an expression can write; role None for a constant."""
        constant = self.constant(node)
        if constant is not None:
            yield node, (constant,), None, "", None
            return
        verdict = self.verdict(node, judging)
        if verdict is not None:
            yield node, ("0.0", "1.0"), "verdict", "computed", ("as", verdict)
            return
        process = self.statuses.get(node.id) if isinstance(node, ast.Name) else _exit_status(_awaited(node))
        if process is not None:  # `return proc.returncode, out`: a command's own verdict on itself
            yield node, (ANY_STATUS,), "verdict", "status", f"as the exit status of `{_short(process)}`"
            return
        scored = self.scored_lookup(node)
        if scored is not None:  # `float(reply.get("score", 0.0))`: the default stands in for the score
            lookup, default = scored
            held = f"as the `{lookup.args[0].value}` of `{_short(lookup.func.value)}`"
            yield lookup, (ANY_NUMBER,), "verdict", "parsed", held
            yield default, (self.constant(default),), "fallback", "default", f"the `{_callee(lookup)}` default"
            return
        if self.judges and _parsed_number(node, self.parsed):
            yield node, (ANY_NUMBER,), "verdict", "parsed", "as the score it parses"
            return
        measured = self.measured(node, judging)
        if measured is not None:  # `sum(rewards) / len(rewards)` of the samples that did not fail
            yield node, measured[0], "verdict", "measured", measured[1]
            return
        if isinstance(node, ast.IfExp):
            emptied = self.emptied(node.test)
            if emptied is not None:
                # `sum(rewards) / len(rewards) if rewards else 0.0`: the arm for "every sample
                # failed" stands in for what the other arm measures over those that did not
                found, lost = (node.orelse, node.body) if emptied[1] else (node.body, node.orelse)
                yield from self.values(found, judging)
                default = self.constant(lost)
                if default is not None:
                    yield lost, (default,), "fallback", "none-left", _none_left(emptied[0])
                return
            absent = self.absent(node.test)
            found, lost = (node.orelse, node.body) if absent and absent[1] else (node.body, node.orelse)
            # a lookup's no-match arm stands in for what the other arm reads from it
            # (`m.group(1) if m else "C"`); `1.0 if within_bounds else 0.0` is a flag's two answers
            if absent is not None and any(isinstance(part, ast.Name) and part.id == absent[0] for part in walk(found)):
                name = absent[0]
                yield from self.values(found, judging)
                default = self.constant(lost)
                if default is not None:
                    yield lost, (default,), "fallback", "no-match", f"no `{name}`"
                return
            decided = self.deciding(node.test, judging)
            if decided is not None:
                for arm in (node.body, node.orelse):
                    value = self.constant(arm)
                    if value is not None:
                        yield arm, (value,), "verdict", "decided", ("when", decided)
            return
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and len(node.values) == 2:
            default = self.constant(node.values[1])
            if default is not None:
                yield from self.values(node.values[0], judging)
                yield node.values[1], (default,), "fallback", "default", f"`{_short(node.values[0])} or …`"
            return
        if isinstance(node, ast.Call):
            default = _default_call(node)
            if default is not None:
                value = self.constant(default)
                if isinstance(default, ast.Constant) and isinstance(default.value, str) and _keyed_by_type(node):
                    self.type_default(node, default)
                if value is not None:
                    yield default, (value,), "fallback", "default", f"the `{_callee(node)}` default"
                return
            if _callee(node) in ("int", "float") and len(node.args) == 1 and not node.keywords:
                yield from self.values(node.args[0], judging)

    def constant(self, node: ast.expr) -> Optional[str]:
        """A constant's key (`_constant`), also through a name: a module constant (`_FAILED =
        "fail"`) by its value, an imported one (`from .codes import FAILED`) and a member of an enum
        or constants class (`Verdict.FAIL`) by their names."""
        value = _constant(node)
        if value is not None:
            return value
        if isinstance(node, ast.Name):
            return self.constants.get(node.id)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id[:1].isupper() \
                and is_constant_name(node.attr):
            return repr(node.attr)
        return None

    def verdict(self, node: ast.expr, judging: bool) -> Optional[ast.AST]:
        """The compare that decides a computed verdict: a compare of two values, a call that compares
        (a compare stage), or a name holding one; through `float()`/`bool()`, `not`, `and`/`or`."""
        if isinstance(node, ast.Await):
            node = node.value
        if isinstance(node, ast.Compare):
            return self.deciding(node, judging, computed=True)
        if isinstance(node, ast.Name):
            return self.compared.get(node.id)
        if isinstance(node, ast.BoolOp):
            return next((v for v in (self.verdict(item, judging) for item in node.values) if v is not None), None)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return self.verdict(node.operand, judging)
        if isinstance(node, ast.Call):
            name = _callee(node)
            if name in _CONVERSIONS and len(node.args) == 1:
                return self.verdict(node.args[0], judging)
            if name is not None and self.stages.classify(_resolve(name, self.imports)) == "compare" \
                    and not name.endswith("compare_digest"):
                return node
        return None

    def deciding(self, node: ast.expr, judging: bool, computed: bool = False) -> Optional[ast.AST]:
        """The compare in a test that weighs a value. Anywhere, a call that compares (a compare
        stage: `compare_answers(a, b)`); in a function or for a channel that judges (`grade_*`,
        `score = …`), also a compare against another value or a reference constant (`got !=
        expected`, `reply == "A"`); a `computed` result (`ok = a > b`, not a branch's test) also
        when it judges what a reply said (`judges_reply`). Elsewhere (`is_inside(path)`,
        `at_bottom()`) a compare that fails closed on an error checks the machinery's own state;
        `x is None` never decides."""
        if isinstance(node, ast.Compare):
            if len(node.ops) != 1 or not isinstance(node.ops[0], _DECIDING):
                return None
            if self.named:
                self.named_default(node)
            left, right = node.left, node.comparators[0]
            # a compare that weighs a value named as one, or against a reference (`if score ==
            # "PASS"`, `verdict != "yes"`, `out.strip() == expected`, `pred in self.gold_labels`)
            if not judging and not any(_weighs(side) for side in (left, right)) \
                    and not (computed and self.judges_reply(left, right)):
                return None
            if _is_literal(left) and _is_literal(right) or _constant(right) == "None":
                return None
            if self.fallen:
                self.judged_default(node)
            return node
        if isinstance(node, ast.Name):
            return self.compared.get(node.id)  # `ok = got == expected` … `if ok:`
        if isinstance(node, ast.BoolOp):
            return next((d for d in (self.deciding(v, judging) for v in node.values) if d is not None), None)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return self.deciding(node.operand, judging)
        if isinstance(node, ast.Call) and _callee(node) is not None:
            # a compare stage anywhere; where a function judges, also a yes/no question of ours or
            # another's (`if self._is_solved(state): return 1.0`)
            return node if self.stages.classify(_resolve(_callee(node), self.imports)) == "compare" \
                or judging and is_predicate_name(_callee(node)) else None
        return None

    def judges_reply(self, left: ast.expr, right: ast.expr) -> bool:
        """`parse(latest) > parse(current)` after `latest = response.json()["info"]["version"]`, in a
        try: a compare of what a reply said with another value, neither a literal, weighs the reply,
        and the try's handler answers in its place."""
        return bool(self.trying and self.answered) and not _is_literal(left) and not _is_literal(right) \
            and any(isinstance(part, ast.Name) and part.id in self.answered for side in (left, right)
                    for part in walk(side))
