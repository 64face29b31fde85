"""Failure paths that are handlers: a try's except clauses, a retry loop whose every attempt failed,
a default a handler leaves standing, a guard that lets content through when its check raised.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Callable, Optional

from failcode.causes import NOT_FOUND, is_broad_family, is_the_cause
from failcode.facts.outcomes.records import _Context, _Pending
from failcode.facts.outcomes.syntax import (
    _DEFINITIONS, _Defaults, _NOWHERE, _TRY, _always_leaves, _awaited, _blocks, _bound, _callee, _caught, _constant,
    _dotted, _explained, _leaves, _narrows, _nodes, _positional, _read_from, _reraises, _resolve, _short)
from failcode.facts.stages import is_trivial
from failcode.facts.vocabulary import ALLOWS, fails_open, lets_through
from failcode.facts.walk import walk
from failcode.model import ANY_REPLY, catches_all, signals, unspecific
from failcode.names import FAILURE_WORDS, says_success, segments


# … in a guard's record, where `bot_message` is the content checked: `fail_open=True`, `skipped=True`
_UNCHECKED = FAILURE_WORDS | {"skipped", "unchecked", "degraded"}


_CONVERTERS = frozenset("int float complex Decimal Fraction".split())


_ERROR_LOGS = frozenset("error exception critical fatal".split())


def _statement_count(body: list[ast.stmt]) -> int:
    """The simple statements of a block, those inside its `with`, `if`, `for` and `try` blocks too
    (not inside definitions): how much a handler around it stands in for."""
    count = 0
    for statement in body:
        if isinstance(statement, _DEFINITIONS):
            continue
        inner = _blocks(statement)
        count += _statement_count(inner) if inner else 1
    return count


def _says_success(value: ast.expr) -> bool:
    """`"success"`, `"OK"`, `"completed"`: a default that says the work went well."""
    return isinstance(value, ast.Constant) and isinstance(value.value, str) and says_success(value.value)


def _replies(body: list[ast.stmt], computes: Callable[[ast.Call], bool]) -> dict[str, tuple[ast.Assign, ast.Call]]:
    """The names a block's own statements bind from a call's answer, with the binding and the call."""
    replies: dict[str, tuple[ast.Assign, ast.Call]] = {}
    for statement in body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
                and isinstance(statement.targets[0], ast.Name):
            source = _reply_source(_awaited(statement.value), {name: call for name, (_, call) in replies.items()},
                                   computes)
            if source is not None:
                replies[statement.targets[0].id] = (statement, source)
    return replies


def _reply_source(value: Optional[ast.expr], replies: dict[str, ast.Call],
                  computes: Callable[[ast.Call], bool]) -> Optional[ast.Call]:
    """The call whose answer a value is: the call itself (`client.generate(…)`, not a builtin's or
    a conversion's), a name bound to one, or a part of either (`response[0].text`,
    `data.get("result", {}).get("action")`, `response.choices[0].message.content.strip()`). A
    call that `computes` its answer from what it is given (a builtin's, the standard library's
    away from its network and process modules) answers for no party: `json.loads(body)` is the
    reply it is given, and `datetime.strptime(run_id, fmt)` of our own data is no reply at all."""
    root = _read_from(value)
    if isinstance(root, ast.Name) and root.id in replies:
        return replies[root.id]  # read from a reply, however deep
    while isinstance(value, (ast.Attribute, ast.Subscript)) \
            or isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
            and isinstance(value.func.value, (ast.Call, ast.Subscript)):
        value = value.func.value if isinstance(value, ast.Call) else value.value
    if isinstance(value, ast.Name):
        return replies.get(value.id)
    if isinstance(value, ast.Call):
        if isinstance(value.func, ast.Attribute) and isinstance(value.func.value, ast.Name) \
                and value.func.value.id in replies:
            return replies[value.func.value.id]
        if computes(value) and "." in (_callee(value) or ""):  # a builtin's conversion is no reply (below)
            given = (node.id for argument in [*value.args, *(k.value for k in value.keywords)]
                     for node in walk(argument) if isinstance(node, ast.Name) and node.id in replies)
            return next((replies[name] for name in given), None)
        callee = _callee(value)
        return value if callee is not None and "." in callee and not is_trivial(callee) else None
    return None


def _logs_error(statement: ast.stmt) -> bool:
    """`log.error(…)`, `logger.exception(…)`, `logging.critical(…)` as a statement."""
    call = statement.value if isinstance(statement, ast.Expr) else None
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute) or call.func.attr not in _ERROR_LOGS:
        return False
    receiver = _dotted(call.func.value) or ""
    return any(word.startswith("log") for word in segments(receiver))


def _only_compares(statement: ast.stmt) -> bool:
    """A statement whose only calls convert (`ok = bool(a == b)`): what it can raise is the compare's
    own error, and "not equal" is a fair answer for values that cannot be compared."""
    return not any(isinstance(node, ast.Call) and not is_trivial(_callee(node) or "?") for node in walk(statement))


def _only_converts(statement: ast.stmt) -> bool:
    """A statement whose calls only convert text to numbers (`[Decimal(t) for t in s.split()]`,
    `x = float(s)`), or a value to another's type (`type(value)(expected)`), beside trivial ones:
    one stage, whose error says the value is not of that kind."""
    calls = [node for node in walk(statement) if isinstance(node, ast.Call)]
    converts = [_converts(call) for call in calls]
    return any(converts) and all(converted or is_trivial((_callee(call) or "?").rpartition(".")[2])
                                 for call, converted in zip(calls, converts))


def _converts(call: ast.Call) -> bool:
    """`float(s)`, `Decimal(t)`, `type(value)(expected)`: a conversion to a kind of value."""
    if isinstance(call.func, ast.Call):
        return _callee(call.func) == "type" and len(call.func.args) == 1
    return (_callee(call) or "?").rpartition(".")[2] in _CONVERTERS


# What a conversion raises when the value is not of the kind (`float("x")`, `Decimal("x")`, `int(None)`).
_CONVERSION_ERRORS = frozenset("ValueError TypeError InvalidOperation ArithmeticError OverflowError".split())


def _conversions_answer(body: list[ast.stmt], types: tuple[str, ...]) -> bool:
    """A try of conversions only (`[Decimal(t) for t in s.split()]`), or of conversions and then
    compares of what they made (`expected = type(value)(self.expected)` … `return expected ==
    value`) under a handler of the conversion's own errors: a value that cannot take the kind is no
    number, or not equal to the other, so the handler answers the try's own question."""
    converting = [_only_converts(statement) for statement in body]
    if all(converting):
        return True
    return any(converting) and bool(types) and all(t.rpartition(".")[2] in _CONVERSION_ERRORS for t in types) \
        and all(converts or _only_compares(statement) for converts, statement in zip(converting, body))


def _raises_if_configured(handler: ast.ExceptHandler) -> bool:
    """`if self.raise_on_failure: raise e` first, then the handler goes on: it re-raises only when
    a setting says so (a test of plain names, not of what it caught), and otherwise falls through
    to the fallback after it."""
    first = handler.body[0] if handler.body else None
    if not isinstance(first, ast.If) or first.orelse or not all(isinstance(s, ast.Raise) for s in first.body) \
            or _reraises(handler.body[1:]):
        return False
    parts = list(walk(first.test))
    return not any(isinstance(p, ast.Call) or isinstance(p, ast.Name) and p.id == handler.name for p in parts)


def _writes_beside(name: str, written: set[str]) -> bool:
    """A key's default (`reply['status']`) whose record the handler writes another key of
    (`reply['found'] = False`, `reply['error'] = str(e)`): the record says what the failure was."""
    base, key = name.partition("[")[::2]
    return bool(key) and any(other.startswith(base + "[") for other in written)


def _stores_caught(handler: ast.ExceptHandler) -> bool:
    """The handler keeps what it caught (`error_to_raise = e`, `self.error = str(e)`): the failure
    goes on with it, to be raised or reported later."""
    if handler.name is None:
        return False
    return any(isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None
               and any(isinstance(part, ast.Name) and part.id == handler.name for part in walk(node.value))
               for node in _nodes(handler.body, prose=False))


def _handler_types(node: Optional[ast.expr], imports: dict[str, str]) -> tuple[str, ...]:
    if node is None:
        return ()
    items = node.elts if isinstance(node, ast.Tuple) else [node]
    names = []
    for item in items:
        dotted = _dotted(item)
        if dotted is None and isinstance(item, ast.Attribute):
            names.append(item.attr)  # a class reached through a factory (`lazy_botocore().ClientError`)
        else:
            names.append(_resolve(dotted, imports).removeprefix("builtins.") if dotted else "?")
    return tuple(names)


class FailurePaths:
    """Part of `Scan`: the except handlers and retry loops of a function as failure paths."""

    def fell_through(self, attempt, rest: list[ast.stmt]) -> None:
        """`try: … else: return outcome(result)` with handlers that only log: what follows the try
        runs only when the work failed. A guard's record built before it (`fallback =
        Result(blocked=False)` … `return outcome(fallback)`) is then what the failure reports."""
        succeeded = attempt.orelse or attempt.body
        if not attempt.handlers or not rest or not isinstance(succeeded[-1], ast.Return) \
                or any(_leaves(handler.body) for handler in attempt.handlers):
            return
        types = _handler_types(attempt.handlers[0].type, self.imports)
        handlers = f"the handlers falling through ({_caught(types)}, …)" if len(attempt.handlers) > 1 \
            else f"a handler falling through ({_caught(types)})"
        self.unchecked_arm(rest, _Context(fallback=handlers, kind="except", trigger=attempt.handlers[0].lineno,
                                          attempt=attempt, catch_all=any(
                                              catches_all(_handler_types(h.type, self.imports))
                                              for h in attempt.handlers)))

    def unchecked(self, node: ast.If) -> None:
        """The arms where a guard could not decide: no result from the call that asks (`if
        verdict is None:` after `verdict = await ask_guard(…)`), or an arm that logs an error
        (`log.error("could not run the check"); return allow()`). Only what lets content through
        is kept from them: elsewhere `None` is often an answer, and an error arm a rejection."""
        test = node.test
        absence = self.absent(test) if isinstance(test, ast.Compare) else None  # `x is None`, not `not x`
        if absence is not None:
            name, missing = absence
            arm = node.body if missing else node.orelse
            if arm:
                self.unchecked_arm(arm, _Context(fallback=f"no result in `{name}`", kind="no-result",
                                                 trigger=node.lineno))
        elif any(_logs_error(statement) for statement in node.body):
            self.unchecked_arm(node.body, _Context(fallback=f"`{_short(test)}`, logged as an error", kind="logged",
                                                   trigger=node.lineno))

    def unchecked_arm(self, body: list[ast.stmt], context: _Context) -> None:
        """The guard verdicts that let content through, among what a block's own statements write
        until it leaves."""
        start = len(self.writes)
        for statement in body:
            value = _awaited(getattr(statement, "value", None))
            if isinstance(statement, ast.Return) and value is not None:
                self.write("return", value, context, top=True)
            elif isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
                    and isinstance(statement.targets[0], ast.Name):
                self.write(statement.targets[0].id, value, context)
            if isinstance(statement, (ast.Return, ast.Raise)):
                break
        self.writes[start:] = [w for w in self.writes[start:] if fails_open(w)]

    def let_through(self, channel: str, value: ast.expr, context: _Context) -> None:
        """On a fallback path, a guard's verdict that lets the content through, wherever the record
        carrying it is built: in another call's arguments (`return outcome(GuardResult(blocked=False),
        mode)`), before the try (`fallback = GuardResult(blocked=False)` … `return
        outcome(fallback)`), passed by position to this file's function (`_lynx_outcome(False,
        None)`, whose parameter is `hallucination`), or the guard's own allow
        (`RailOutcome.allow()`). The keywords of the written call itself are its channels already.
        A record that says what went wrong (`error=…`) has said it."""
        found: list[tuple[ast.AST, str, str, Optional[ast.expr]]] = []  # (reported at, channel, value, record's)
        pending: list[tuple[ast.expr, Optional[ast.Name]]] = []  # (a call, the name it was built into)
        if isinstance(value, ast.Call):
            pending.append((value, None))
        elif isinstance(value, ast.Name) and value.id in self.records:
            pending.append((self.records[value.id], value))
        while pending:
            call, through = pending.pop()
            if _explained(call, _UNCHECKED):
                return
            callee = _dotted(call.func)
            if isinstance(call.func, ast.Attribute) and call.func.attr == "allow":
                found.append((through or call, channel, ALLOWS, None))
            params = _positional(self.definitions.get(callee or ""))
            for index, arg in enumerate(call.args):
                arg = _awaited(arg)
                key = self.constant(arg)
                if key is not None and index < len(params) and lets_through(params[index], key):
                    found.append((through or arg, f"{callee}({params[index]}=)", key, arg if through else None))
                elif isinstance(arg, ast.Call):
                    pending.append((arg, through))
                elif isinstance(arg, ast.Name) and arg.id in self.records and through is None:
                    pending.append((self.records[arg.id], arg))
            if call is value:
                continue
            for keyword in call.keywords:
                key = self.constant(keyword.value) if keyword.arg else None
                if key is not None and lets_through(keyword.arg, key):
                    found.append((through or keyword.value, f"{callee}({keyword.arg}=)", key,
                                  keyword.value if through else None))
        attempt = context.attempt if context.kind == "except" else None
        for node, written, key, record in found:
            kept = (record.lineno, record) if record is not None else None
            self.writes.append(_Pending(node, self.qualname, written, (key,), "fallback", context.kind,
                                        context.fallback, context.trigger, context.region, attempt, (), kept,
                                        catch_all=context.catch_all))

    def retried(self, loop, context: _Context, body: list[ast.stmt]) -> _Context:
        """`for attempt in range(3): try: … return verdict / except Exception: sleep(…)` … `return
        False`: what follows a retry loop runs when every attempt failed, a fallback as surely as a
        handler's own `return False` would be. A retry loop's try returns (or breaks) at its end, and
        its broad handler goes on to the next attempt."""
        for statement in loop.body:
            if not (_TRY and isinstance(statement, _TRY)) or not statement.body \
                    or not isinstance(statement.body[-1], (ast.Return, ast.Break)):
                continue
            for handler in statement.handlers:
                types = _handler_types(handler.type, self.imports)
                if not _leaves([s for s in handler.body if not isinstance(s, ast.Continue)]):
                    self.replied(statement)
                    end = body[-1].end_lineno or loop.lineno
                    return _Context(fallback=f"every attempt failing ({_caught(types)})", kind="except",
                                    trigger=handler.lineno, region=(loop.lineno, end), attempt=statement,
                                    exhausted=True, catch_all=catches_all(types))
        return context

    def replied(self, attempt) -> None:
        """A retry loop's try that returns what a call answered (`response = client.generate(…)`,
        `return response[0].text, n`): the reply is the genuine value of that return, any value,
        and what follows the loop (`return " ", 0`, `return EmptyResponse()`) stands in for it."""
        last = attempt.body[-1]
        value = last.value if isinstance(last, ast.Return) else None
        tupled = isinstance(value, ast.Tuple) and bool(value.elts)
        answer = value.elts[0] if tupled else value
        replies = {name: source for name, (_, source) in _replies(attempt.body[:-1], self.computes).items()}
        source = _reply_source(answer, replies, self.computes) if answer is not None else None
        if source is not None:
            self.writes.append(_Pending(answer, self.qualname, "return[0]" if tupled else "return", (ANY_REPLY,),
                                        "verdict", "reply", ("returns the reply of", source), last.lineno, (0, _NOWHERE)))

    def try_statement(self, node, context: _Context, body: list[ast.stmt], defaults: _Defaults,
                      after: tuple[ast.stmt, ...]) -> None:
        self.trying += 1
        self.block(node.body, context, defaults, (*node.orelse, *node.finalbody, *after))
        self.trying -= 1
        statements = _statement_count(node.body)  # a `with` block of ten statements is ten, not one
        body_end = node.body[-1].end_lineno or node.lineno
        block_end = body[-1].end_lineno or body_end
        fallbacks: list[tuple[_Context, bool]] = []  # each fallback handler's context, and whether it falls through
        for handler in node.handlers:
            types = _handler_types(handler.type, self.imports)
            if catches_all(types):
                self.catch_all(node, handler, types)
                if self.looping:
                    self.polled(node, handler, types)
            if is_broad_family(types):
                self.cause(node, handler, types)
                self.swallow(node, handler, types)
                self.error_as_reply(node, handler, types)
            else:
                self.runs_lookup(node, handler, types)
            if _reraises(handler.body) and not _raises_if_configured(handler) or context.fallback is not None \
                    or statements == 1 and _only_compares(node.body[0]) \
                    or not catches_all(types) and _conversions_answer(node.body, types):
                inner = _Context(silent=True)  # a narrow handler of conversions: `Decimal(t)` failing is "no number"
            elif catches_all(types) or statements > 1 and not signals(types):
                inner = _Context(fallback=_caught(types), kind="except" if unspecific(types) else "narrow-except",
                                 trigger=handler.lineno, region=(node.lineno, block_end if statements > 1 else body_end),
                                 attempt=node, catch_all=catches_all(types))
            else:  # `try: float(s) … except ValueError: return False`: the exception is the answer
                inner = _Context(silent=True)
            if inner.fallback is not None and inner.kind in ("except", "narrow-except") and self.candidate_only(node):
                inner = _Context(silent=True)  # only the evaluated answer can fail there: "wrong" is its verdict
            if self.probes and context.fallback is None and is_broad_family(types) and not _narrows(handler) \
                    and not _reraises(handler.body) and not is_the_cause(NOT_FOUND, types) \
                    and self.not_found(node, after):
                # an existence probe's broad handler (`except ClientError:` around one lookup) is no
                # signal for "not there": auth, network and throttling fail the same way
                inner = _Context(fallback=_caught(types), kind="except", trigger=handler.lineno,
                                 region=(node.lineno, block_end), attempt=node, catch_all=catches_all(types))
            self.block(handler.body, inner)
            if inner.fallback is not None and defaults:
                self.kept(node, handler, inner, defaults, after)
            if inner.fallback is not None:
                fallbacks.append((inner, not _leaves(handler.body)))
        self.after_the_try(node, fallbacks, after)
        self.block(node.orelse, context)
        self.block(node.finalbody, context)

    def after_the_try(self, attempt, fallbacks: list[tuple[_Context, bool]], after: tuple[ast.stmt, ...]) -> None:
        """What a handler that falls through (`except Exception: pass`) reaches: the return right
        after the try. When the try ends in a verdict's guard (`if parsed == expected: return 1.0`),
        that return is also the genuine "no", decided by the guard's failed compare, so a handler's
        own `return 0.0` reads as that verdict too. When the try ends in a return (`return
        float(got == want)`), the return after it runs only for a failure: a fallback as surely
        as the handler's own `return 0.0` would be. Only for a try whose handlers write a fallback."""
        last = attempt.body[-1]
        if not fallbacks or attempt.orelse or attempt.finalbody or not after \
                or not isinstance(after[0], ast.Return) or after[0].value is None:
            return
        if isinstance(last, ast.If):
            genuine = self.guarded(last, _Context())
            if genuine.decided is None:
                return
            self.statement(after[0], genuine)
        elif not isinstance(last, ast.Return):
            return
        for handler, falls in fallbacks:
            if falls:
                self.statement(after[0], replace(handler, fallback=f"{handler.fallback} (falling through)"))

    def kept(self, attempt, handler: ast.ExceptHandler, context: _Context, defaults: _Defaults,
             after: tuple[ast.stmt, ...]) -> None:
        """A default written before the try (`passed = False`), that the try's work overwrites, that
        a handler falling through (on some path: `if self.raise_on_failure: raise`) leaves standing,
        and that is read after the try or by the handler itself: the handler writes it as surely as
        `except Exception: passed = False` would. When the try took it from what a call it made
        answered (`response = self._get(url)`, `content_type = self._content_type(response)`) and a
        catch-all leaves it, the default reads as what the reply said. A setting's default read from
        a single call (`enc = "utf-8"`, `enc = locale.nl_langinfo(…)`) is a default, not a reply."""
        worked = {name for statement in attempt.body for name in self.bound(statement)}
        succeeded = {name for name, (_, value) in defaults.items() if _says_success(value)}
        if worked.isdisjoint(defaults) and not succeeded or _always_leaves(handler.body) or _stores_caught(handler):
            return
        left = {name for statement in handler.body for name in _bound(statement, deep=True)}
        reads = [node for node in _nodes([*handler.body, *attempt.finalbody, *after])
                 if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)]
        read = {node.id for node in reads}
        replies = _replies(attempt.body, self.computes) if unspecific(_handler_types(handler.type, self.imports)) else {}
        for name, default in defaults.items():
            if name in left or name.partition("[")[0] not in read:  # `return result` reads `result['passed']`
                continue
            if name in worked:
                statement, source = replies.get(name, (None, None))
                read_reply = statement is not None and any(
                    isinstance(part, ast.Name) and part.id in replies and part.id != name for part in walk(statement.value))
                if read_reply and not any(w.kind == "reply" and w.channel == name for w in self.writes):
                    self.writes.append(_Pending(statement.value, self.qualname, name, (ANY_REPLY,), "verdict", "reply",
                                                ("sets it from the reply of", source), statement.lineno, (0, _NOWHERE)))
                self.write(name, default[1], context, at=(handler, default))
            elif name in succeeded and not _writes_beside(name, left):
                # `status = "success"` that the try never sets: what completes the work reports it,
                # and the handler that swallows a failure leaves it to report the failure too
                first = next(node for node in reads if node.id == name.partition("[")[0])  # `result['status']`: `result`
                self.writes.append(_Pending(first, self.qualname, name, (_constant(default[1]),), "verdict",
                                            "decided", "when the try completes", first.lineno, (0, _NOWHERE)))
                reach = replace(context, region=(context.region[0], max(context.region[1], first.lineno)))
                self.write(name, default[1], reach, at=(handler, default))
