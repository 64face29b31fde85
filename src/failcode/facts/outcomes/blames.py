"""What a failure path says caused it (FC006's facts): a broad handler that raises, records or says
ONE cause (a party, "not found", a timeout, "not installed") for every failure of a try that
also runs our own code, and "no result" logic that names a cause it never checked.
"""

from __future__ import annotations

import ast
from typing import Iterator, Optional

from failcode import causes
from failcode.facts.outcomes.provenance import _method
from failcode.facts.outcomes.records import _Pending, _PendingBlame
from failcode.facts.outcomes.syntax import (
    _BUILTINS, _NOWHERE, _PROBE_WORDS, _SCOPES, _SIMPLE, _absence, _awaited, _bound, _callee, _caught, _dotted,
    _narrows, _nodes, _nothing_test, _parameters, _reraises, _short, _simple_statements, _text)
from failcode.facts.vocabulary import LOG_METHODS, TEXT_CALLS, is_recordable
from failcode.facts.walk import child_nodes
from failcode.model import Absence
from failcode.names import segments


_REPLY_DETAILS = frozenset("status_code status text reason content json body".split())  # what a reply says of itself


_BUILTIN_ERRORS = frozenset("ValueError TypeError RuntimeError AssertionError KeyError IndexError"
                            " LookupError AttributeError NotImplementedError".split())


def _asked(test: ast.expr) -> Optional[ast.expr]:
    """What an error-status test asks: `response.status_code` in `response.status_code != 200`,
    `response.ok` in `not response.ok`, `status_code` in `status_code >= 400`."""
    return test.operand if isinstance(test, ast.UnaryOp) else test.left if isinstance(test, ast.Compare) else None


def _reply_of(test: ast.expr) -> Optional[str]:
    """The reply an error-status test asks: `response` in `response.status_code != 200` or
    `not response.ok`; None when the test names a bare status."""
    asked = _asked(test)
    return _dotted(asked.value) if isinstance(asked, ast.Attribute) else None


def _raised(node: ast.Raise) -> Optional[str]:
    """The dotted name of the class a raise raises (`raise errors.NotFound(key)`, `raise exc`);
    None for a bare `raise` or an expression that names none."""
    if node.exc is None:
        return None
    return _dotted(node.exc.func if isinstance(node.exc, ast.Call) else node.exc)


def _raises_caught(handler: ast.ExceptHandler) -> bool:
    """`except Exception as e: …; raise e`: what was caught goes on as it is."""
    return handler.name is not None and any(
        isinstance(node, ast.Raise) and isinstance(node.exc, ast.Name) and node.exc.id == handler.name
        for node in _nodes(handler.body, prose=False))


def _written(body: list[ast.stmt], names: frozenset[str]) -> Iterator[str]:
    """The word-like strings a handler records, not says: assigned (to `names` only, when given),
    returned, or passed as a keyword (`status = "provider_failed"`, `Result(reason=
    "backend_unavailable")`); not log messages or a raised error's prose."""
    for node in _nodes(body, prose=False):
        values: list[ast.expr] = []
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if not names or any(isinstance(t, ast.Name) and t.id in names for t in targets):
                values.append(node.value)
        elif isinstance(node, ast.Return) and node.value is not None and not names:
            values.append(node.value)
        elif isinstance(node, ast.keyword) and not names:
            values.append(node.value)
        for value in values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str) and is_recordable(value.value):
                yield value.value


def _words_of(body: list[ast.stmt], skip: frozenset[int] = frozenset()) -> Iterator[str]:
    """What a handler says: the text of its log messages, of the errors it raises (their class
    names too) and the strings it writes (f-strings by their literal parts). Not dict
    keys (`{"backend": …}` names a field), not debug logs, which no one reads as the outcome, not
    words a conditional expression chooses (said on one arm of its test, as a statement under an
    `if` is: `_said`), and not the nodes of `skip` (by id)."""
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        if isinstance(node, _SCOPES) or id(node) in skip:
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "debug":
            continue
        if isinstance(node, ast.IfExp):
            continue  # `" install the extra" if not AVAILABLE else ""`
        if isinstance(node, ast.Raise):
            name = _raised(node)
            if name is not None:
                yield name.rpartition(".")[2]
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip():
            yield " ".join(node.value.split())[:80]
        children = list(child_nodes(node))
        if isinstance(node, ast.Dict):
            children = [value for value in node.values]
        stack.extend(reversed(children))


def _imports(call: ast.Call) -> bool:
    """A call of our own function named for importing (`self._import_module(name)`,
    `import_string(path)`): a probe of whether a module loads, as an `import` statement is."""
    return "import" in segments((_callee(call) or "").rpartition(".")[2])


def _presence(answer: Optional[ast.expr]) -> bool:
    """A lookup's answer that says only whether something came back (`client.get(key) is not None`):
    its genuine "no" is the lookup finding nothing, as a probe's is."""
    if not (isinstance(answer, ast.Compare) and len(answer.ops) == 1 and isinstance(answer.ops[0], ast.IsNot)):
        return False
    nothing = answer.comparators[0]
    return isinstance(answer.left, ast.Call) and isinstance(nothing, ast.Constant) and nothing.value is None


# What a lookup raises when the thing is not there (the concept "a lookup's own failure"): a
# subscript's `KeyError` (`IndexError` for a sequence), `getattr`'s `AttributeError` without a
# default, `import_module`'s `ImportError`; `LookupError` is the first two's base.
_LOOKUP_ERRORS = frozenset("KeyError IndexError LookupError AttributeError ImportError ModuleNotFoundError".split())


def _lookup_errors(node: ast.expr) -> tuple[str, ...]:
    """The errors a lookup raises for a missing thing: `KeyError` (or `IndexError`, for a sequence)
    for `registry[name]`, `AttributeError` for `getattr(module, name)`, `ModuleNotFoundError` for
    `importlib.import_module(path)`; none for anything else (`getattr(obj, name, None)` answers its
    default instead)."""
    if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
        return ("KeyError", "IndexError")
    if isinstance(node, ast.Call) and not node.keywords:
        name = (_callee(node) or "").rpartition(".")[2]
        if name == "getattr" and len(node.args) == 2:
            return ("AttributeError",)
        if name in ("import_module", "__import__"):
            return ("ModuleNotFoundError",)
    return ()


def _said(attempt, handler: ast.ExceptHandler) -> Optional[tuple[tuple[str, ...], ...]]:
    """What a handler asserts of every failure it catches, when it names one specific cause
    (causes.py): its words (prose and recorded codes), the classes it raises, the values it records,
    and the words of the errors it raises; None when it passes the exception on, looks at it first,
    or names no cause. Only what the handler does on every path counts (a statement under an `if`
    in it is a decision on what it caught), and a message that carries the caught exception's own
    text, a log line that prints its traceback, or a handler that keeps the exception itself
    (`_keeps_caught`) hands the truth on beside the words of the cause; a raise's `from exc` does not
    (`_carriers`)."""
    if _reraises(handler.body, bare_only=True) or _narrows(handler) or _raises_caught(handler):
        return None
    plain = [statement for statement in handler.body if isinstance(statement, _SIMPLE)]
    if _keeps_caught(handler, plain):
        return None
    carries = _carriers(handler, plain) | _messages_both_fill(plain, attempt.body)
    told_by = [statement for statement in plain if id(statement) not in carries]
    texts = tuple(dict.fromkeys(_words_of(told_by)))
    # the class a raise names is what every caller that catches it is told, whatever its message carries
    raised = tuple(dict.fromkeys(name.rpartition(".")[2] for statement in plain
                                 if isinstance(statement, ast.Raise) for name in [_raised(statement)] if name))
    written = tuple(dict.fromkeys(_written(plain, frozenset())))
    codes = tuple(text for text in _words_of(plain) if causes.is_code(text))  # recorded, never prose
    if causes.asserted(raised, (*texts, *codes), written) is None:
        return None
    told = tuple(dict.fromkeys(text for statement in told_by if isinstance(statement, ast.Raise)
                               and statement.exc is not None for text in _words_of([ast.Expr(statement.exc)])))
    return tuple(dict.fromkeys((*texts, *codes))), raised, written, told


class Blames:
    """Part of `Scan`: the cause a broad handler or a "no result" test records or raises."""

    def not_found(self, attempt, after: tuple[ast.stmt, ...] = ()) -> bool:
        """An existence probe (`try: client.files.retrieve(file_id); return True`, or the `return
        True` in the try's `else` or right after it): its genuine "no" is the lookup's not-found
        error, so a broad handler that answers False answers it for every failure (network, auth,
        rate limit) too. A lookup through our own function (`return self.load_entry(key) is not
        None`, `self._open_dataset()`) is one as well: whatever it reaches, its failures and its
        bugs answer "no" (issue 23, principle 1: our own helpers are the harness side). A probe of
        the local machine (`os.stat`, `Path(p).exists()`, `import x`, or our own function that
        imports, `self._import_module(name)`) asks the OS or the interpreter, whose failures are
        its own answer. Whether the try is one."""
        last = attempt.body[-1]
        lookups = attempt.body[:-1]
        if not isinstance(last, ast.Return):  # the answer after the lookups: `else: return True`, or after the try
            lookups = attempt.body
            last = (attempt.orelse or [s for s in after if not attempt.finalbody] or [None])[0]
        answer = last.value if isinstance(last, ast.Return) else None
        if isinstance(last, ast.Return) and last in attempt.body and _presence(answer):
            lookups, answer = attempt.body, ast.Constant(True)  # `return client.get(key) is not None`
        fields = answer.elts if isinstance(answer, ast.Tuple) else [answer]
        index = next((i for i, item in enumerate(fields) if isinstance(item, ast.Constant) and item.value is True), None)
        if index is None or len(fields) > 1 and index == 0:
            return False  # `return True`, or `return name, True`: the answer, alone or beside what it is about
        calls = [node for node in _nodes(lookups, prose=False) if isinstance(node, ast.Call)]
        if not calls or any(isinstance(node, (ast.Import, ast.ImportFrom)) for node in _nodes(attempt.body)) \
                or any(self.local(call) or self.is_own_call(call) and _imports(call) for call in calls):
            return False
        lookup = max(calls, key=lambda call: (call.lineno, call.col_offset))  # the last one the try makes
        channel = "return" if len(fields) == 1 else f"return[{index}]"
        self.writes.append(_Pending(lookup, self.qualname, channel, ("0.0",), "verdict", "probe",
                                    ("when nothing is found by", lookup), lookup.lineno, (0, _NOWHERE)))
        return True

    def catch_all(self, attempt, handler: ast.ExceptHandler, types: tuple[str, ...]) -> None:
        """Notes a catch-all (not re-raising as is, not looking at what it caught) whose try runs
        our own code: a check that raises a builtin error (`raise ValueError("temperature 0 with
        several samples")`), a `yield` in a context manager (the caller's `with` body raises into
        it), or a call of a function of this file or package, or of a method of this class. With it,
        what the handler says (log messages, raised errors, written strings). A handler that
        re-raises counts when it first sets a status the try's `finally` reads (`status =
        "provider_failed"; raise` … `finally: record["status"] = status`): that status outlives the
        raise. Whether that blames an outside party, and which of our code counts, is FC006's to
        judge."""
        outlives: frozenset[str] = frozenset()
        if _reraises(handler.body, bare_only=True):
            if not attempt.finalbody:
                return
            read = {node.id for node in _nodes(attempt.finalbody)
                    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
            outlives = frozenset(name for statement in handler.body for name in _bound(statement, deep=True)) & read
            if not outlives:
                return
        if _narrows(handler):
            return
        own: list[tuple[str, str, int, str]] = []
        reading = self.reply_checks(attempt.body)
        received: Optional[frozenset[str]] = None  # the names the try binds, found at its first call of our own
        for statement in _simple_statements(attempt.body):
            if isinstance(statement, ast.Raise) and statement.exc is not None:
                raised = _raised(statement)
                # a check of our own (`raise ValueError("bad config")`), not of what was just read;
                # or an exception object made elsewhere, raised again here (`raise exc`): whatever
                # it is, the party did not raise it in this try
                if raised in _BUILTIN_ERRORS and id(statement) not in reading \
                        or isinstance(statement.exc, ast.Name) and raised not in _BUILTINS:
                    said = " ".join(text for text in _words_of([ast.Expr(statement.exc)]))
                    own.append(("raise", raised, statement.lineno, said))
                continue
            value = _awaited(getattr(statement, "value", None))
            if isinstance(value, (ast.Yield, ast.YieldFrom)) and self.manages_context:
                own.append(("yield", "", statement.lineno, ""))  # the caller's `with` body raises into it
            for node in _nodes([statement], prose=False):
                if self.is_own_call(node):
                    # a call that is the statement itself, or one inside another call's arguments;
                    # `reply` when it takes what the try received (`is_done(chunk)`): it reads the answer
                    if received is None:
                        received = frozenset().union(*map(self.bound, attempt.body))
                    kind = "reply" if received & {n.id for n in _nodes(node.args) if isinstance(n, ast.Name)} \
                        else "call" if node is value else "argument"
                    own.append((kind, _callee(node), node.lineno, ""))
        if own:
            texts = tuple(dict.fromkeys(_words_of(handler.body)))
            written = tuple(dict.fromkeys(_written(handler.body, outlives)))
            raised = tuple(dict.fromkeys(name.rpartition(".")[2] for node in _nodes(handler.body)
                                         if isinstance(node, ast.Raise) for name in [_raised(node)] if name))
            self.blames.append(_PendingBlame(handler, self.qualname, texts, attempt.lineno, "handler", _caught(types),
                                             tuple(own), raised, written))

    def cause(self, attempt, handler: ast.ExceptHandler, types: tuple[str, ...]) -> None:
        """Notes a handler of a broad family (causes.py) that names one specific cause for what it
        caught (`raise FileNotFoundError(…)`, "config not found", `status = "timeout"`: `_said`). A
        value it records for the cause (`failures.append("UPSTREAM_TIMEOUT")`) is what every counter
        reads, and a class it raises (`raise FileNotFoundError(f"failed to load: {e}")`) is what
        every caller that catches it is told, with or without the caught text. With it, the try's
        calls, imports and re-raised objects (what else can fail there) and how many statements the
        try runs.
        Whether the cause is wrong for what the try can raise is FC006's to judge."""
        said = _said(attempt, handler)
        if said is None:
            return
        texts, raised, written, told = said
        # `import`: a module the try imports, whose failure to load is the import's own answer
        calls = [("import", alias.name, statement.lineno, "") for statement in _simple_statements(attempt.body)
                 if isinstance(statement, (ast.Import, ast.ImportFrom)) for alias in statement.names]
        for node in _nodes(attempt.body, prose=False):
            if isinstance(node, ast.Call) and _callee(node) not in TEXT_CALLS:
                # `own`: a function of ours, whose raises the project summarises (`Summaries.raises_for`),
                # also through a module of our package (`process.exec_cmd(…)`); `start`: a program started;
                # a call no dotted name spells (`(root / path).resolve()`) by its method's name
                kind = "own" if self.is_own_call(node) or self.ours(node) else "start" if self.starts(node) else "call"
                calls.append((kind, _callee(node) or _method(node) or "…", node.lineno, ""))
        # `raise`: an exception object made elsewhere, raised again in the try (`raise exc`): whatever it is
        calls += [("raise", _raised(statement) or "", statement.lineno, "")
                  for statement in _simple_statements(attempt.body) if isinstance(statement, ast.Raise)
                  and statement.exc is not None and not isinstance(statement.exc, ast.Call)]
        statements = sum(1 for _ in _simple_statements(attempt.body))
        self.blames.append(_PendingBlame(handler, self.qualname, texts, attempt.lineno, "cause", _caught(types),
                                         tuple(calls), raised, written, subject=str(statements), told=told))

    def runs_lookup(self, attempt, handler: ast.ExceptHandler, types: tuple[str, ...]) -> None:
        """Notes a handler of a lookup's own failure (`except KeyError` for `registry[name]`,
        `except AttributeError` for `getattr(module, name)`, `except ImportError` for
        `import_module(path)`) that names one cause ("not found", "pip install …") for what it
        caught, around a try that also runs what it looked up (`registry[name](config)`, `cls =
        getattr(module, name)` … `cls(**kwargs)`): an error of that kind inside the code it runs (a
        plugin's constructor reading a missing setting, a skill's own attribute error) is reported
        as the lookup's (issue 23, principle 6: callbacks are code the try runs). A try that runs
        what it looked up only after the handler (`else:`, or after the try) is quiet, and so is a
        handler that carries what it caught (as for `cause`). The first call that runs it is kept."""
        if not types or not all(t.rpartition(".")[2] in _LOOKUP_ERRORS for t in types):
            return
        said = _said(attempt, handler)
        if said is None:
            return
        looked: dict[str, tuple[str, ...]] = {}  # a name the try binds to what a lookup found: its errors
        for statement in _simple_statements(attempt.body):
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
                    and isinstance(statement.targets[0], ast.Name):
                errors = _lookup_errors(_awaited(statement.value))
                if errors:
                    looked[statement.targets[0].id] = errors
        for node in _nodes(attempt.body, prose=False):
            if not isinstance(node, ast.Call):
                continue
            errors = looked.get(node.func.id, ()) if isinstance(node.func, ast.Name) else _lookup_errors(node.func)
            # the handler's own name for the lookup's error: `except ImportError` hears any import failing
            error = next((name.rpartition(".")[2] for error in errors for name in types
                          if causes.catches((name,), error)), None)
            if error is not None:
                texts, raised, written, told = said
                ran = _short(node.func)
                self.blames.append(_PendingBlame(handler, self.qualname, texts, attempt.lineno, "runs-lookup",
                                                 _caught(types), (("runs", ran, node.lineno, error),), raised,
                                                 written, told=told))
                return

    def swallow(self, attempt, handler: ast.ExceptHandler, types: tuple[str, ...]) -> None:
        """Notes a broad handler whose only answer is nothing (`except Exception: log_error(…);
        return None`, `return False`, or falling off the end of a function whose try returns a
        value): whoever calls the function cannot tell its failures from the thing not being
        there, and a caller that says "not found" for nothing (`Absence`) says it of every failure.
        A handler that prints the traceback hands the truth on, as it does for a
        cause said in words. The try must call something beyond builtins and the standard library
        (`reaches`: another package's client, our own code): a try of nothing but imports, local
        calls and methods of its data (`os.stat(p)`, `path.exists()`) asks the interpreter, the OS or
        the data, whose failures are its answer, as for an existence probe. Whether a caller says so
        is the project's to join, and FC006's to judge."""
        if _reraises(handler.body) or _narrows(handler):
            return
        told = [statement for statement in handler.body if not _quiet(statement)]
        if any(map(_logs_traceback, handler.body)):
            return
        if not told and attempt is self.function.body[-1] \
                and any(isinstance(node, ast.Return) and node.value is not None for node in attempt.body):
            told = [ast.Return(value=None)]  # falls off the end of a function whose try returns: `None`
        if len(told) != 1 or not isinstance(told[0], ast.Return):
            return
        value = told[0].value
        nothing = None if value is not None and not isinstance(value, ast.Constant) else getattr(value, "value", None)
        if nothing is not None and nothing is not False:
            return  # `return 0`, `return ""`: a value, not nothing
        if any(isinstance(node, ast.Call) and self.reaches(node) for node in _nodes(attempt.body, prose=False)):
            self.blames.append(_PendingBlame(handler, self.qualname, (), attempt.lineno, "swallow", _caught(types),
                                             written=(repr(nothing),)))

    def reaches(self, call: ast.Call) -> bool:
        """A call of code that can fail for reasons of its own: our own function, another package's,
        a method of what the object holds (`self.client.get(…)`), or of what another package's call
        returned (`manager = self.cluster.buckets()` … `manager.get_bucket(name)`), or of a
        parameter (`db.get_component(key)`: a client it was given). Not a builtin or the standard
        library, not a method of what those returned (`content.get("url")`), and not a parameter
        asked whether it is there (`path.exists()`): the OS or the data answers there."""
        if self.local(call):
            return False
        root, _, rest = (_callee(call) or "").partition(".")
        if rest and root in _parameters(self.function):
            return _PROBE_WORDS.isdisjoint(segments(rest.rpartition(".")[2]))
        return self.is_own_call(call) or root == "self" or root in self.imports or root in self.remote

    def said_absent(self, node: ast.If) -> None:
        """`if agent is None: raise HTTPException(404, "Agent not found")` where `agent =
        get_agent(id)`, `if not self._bucket_exists(): raise ValueError("Bucket does not exist")`,
        or the `else` of `if agent is not None:` / `if agent:`: the arm says why our function gave
        nothing back. Kept as an `Absence` when it names one cause (causes.py)."""
        test, nothing, missing = _nothing_test(node.test)
        arm = node.body if missing else node.orelse
        if not arm:
            return
        test = _awaited(test)
        callee = self.results.get(test.id) if isinstance(test, ast.Name) \
            else self._relayed_from(test) if self.our_function(test) is not None else None
        if not callee:
            return
        both = _messages_both_fill(arm, node.orelse if missing else node.body)
        plain = [statement for statement in arm if isinstance(statement, _SIMPLE) and id(statement) not in both]
        raised = tuple(dict.fromkeys(name.rpartition(".")[2] for statement in plain
                                     if isinstance(statement, ast.Raise) for name in [_raised(statement)] if name))
        found = causes.asserted(raised, tuple(dict.fromkeys(_words_of(plain))), ())
        if found is not None:
            cause, words = found
            self.absences.append(Absence(callee, node.lineno, nothing, cause.name, words))

    def polled(self, attempt, handler: ast.ExceptHandler, types: tuple[str, ...]) -> None:
        """`while True: try: state = client.status(job) … except Exception: return "timeout"`: any
        error while polling, our own bug or the party's refusal, is recorded as a timeout.
        Whether the handler says so is FC006's to judge."""
        if _reraises(handler.body, bare_only=True) or _narrows(handler):
            return
        written = tuple(dict.fromkeys(_written(handler.body, frozenset())))
        if written:
            self.blames.append(_PendingBlame(handler, self.qualname, written, attempt.lineno, "poll", _caught(types),
                                             written=written))

    def every_status(self, test: ast.expr, arm: list[ast.stmt], failing: Optional[ast.expr] = None) -> None:
        """`if response.status_code != 200: raise ServiceUnavailable("backend unavailable")`, or
        the same words after `if response.status_code == 200: return …` (reported at that test;
        `failing` is then the test of the arm, `status_code != 200`): one cause for every failing
        status, our own 400s and 401s among them. An arm that passes the status or the reply's own
        words on (`f"failed with {response.status_code}"`, or the bare status the test asked: `if
        status_code >= 400:` … `f"Status code: {status_code}"`) says which failure it was; so does
        one that hands the reply itself to a call (an error mapper, the exception: `raise
        error_for(response)`) or puts it into its words (`f"API error: {response}"`, `"… %s" %
        response`), status and message with it. Whether the arm blames a party or names one cause
        is FC006's to judge."""
        failing = test if failing is None else failing
        reply = _reply_of(failing)
        asked = _dotted(_asked(failing))
        for part in _nodes(arm):
            if isinstance(part, ast.Attribute) and part.attr in _REPLY_DETAILS \
                    or asked is not None and isinstance(part, (ast.Name, ast.Attribute)) and _dotted(part) == asked:
                return
            if reply is not None and _hands_on(part, reply):
                return
        texts = tuple(dict.fromkeys(_words_of(arm)))
        if texts:
            self.blames.append(_PendingBlame(test, self.qualname, texts, test.lineno, "status",
                                             subject=_short(failing)))

    def no_result(self, node: ast.If) -> None:
        """`if not result: result.append("timed out")` after waiting on a child process or thread
        (`p.join(timeout)`): no result also means the child crashed, or our own code in it raised.
        What the arm says, and whether that blames a party, is FC006's to judge."""
        absence = _absence(node.test)
        if absence is None or not absence[1] or absence[0] in self.asked:
            return  # … or the test asks the child how it ended (`completed = not thread.is_alive()`)
        worker, line = self.joined
        if any(isinstance(part, ast.Attribute) and part.attr in ("exitcode", "is_alive")
               and isinstance(part.value, ast.Name) and part.value.id == worker for part in _nodes([node])):
            return  # the arm asks the child how it ended
        texts = tuple(dict.fromkeys(_words_of(node.body)))
        if texts:
            self.blames.append(_PendingBlame(node.test, self.qualname, texts, line, "no-result", subject=worker))


def _hands_on(part: ast.AST, reply: str) -> bool:
    """`error_for(response)`, `Error("…", response=response)`, `f"… {response}"`, `"… %s" %
    response`: the reply itself given to a call or formatted into words, as it is."""
    if isinstance(part, ast.Call):
        return any(_dotted(argument) == reply for argument in (*part.args, *(k.value for k in part.keywords)))
    if isinstance(part, ast.FormattedValue):
        return _dotted(part.value) == reply
    if isinstance(part, ast.BinOp) and isinstance(part.op, ast.Mod):
        values = part.right.elts if isinstance(part.right, ast.Tuple) else [part.right]
        return any(_dotted(value) == reply for value in values)
    return False


# The standard library's calls that put the exception being handled into words or on screen.
_TRACEBACK_CALLS = frozenset("format_exc format_exception format_exception_only print_exc exc_info".split())


def _carriers(handler: ast.ExceptHandler, plain: list[ast.stmt]) -> set[int]:
    """Ids of the handler's statements that hand the caught exception on: those that read it (`{e}`,
    `str(e)`), a name bound from it in the handler (`err = str(e)`, `tb = traceback.format_exc()`),
    or its traceback (`traceback.format_exc()`, `logger.exception(…)`); and a message bound only to
    be said by one of those (`msg = "… invalid or not found: [%s]"` … `raise RuntimeError(msg %
    (uri, tb))`): its words go out beside the exception's own. A raise's `from exc` is not read: it
    chains the caught error for a traceback, while whoever catches the new one prints its message
    (`raise NotFound("dataset not found") from exc` tells a caller "not found" and nothing else)."""
    reads, formats = [], []  # per statement: the names it reads, whether it puts a traceback in words
    for statement in plain:
        nodes = list(_nodes([statement.exc] if isinstance(statement, ast.Raise) and statement.exc is not None
                            else [statement]))
        reads.append({node.id for node in nodes if isinstance(node, ast.Name)})
        formats.append(_logs_traceback(statement) or any(
            isinstance(node, ast.Call) and (_callee(node) or "").rpartition(".")[2] in _TRACEBACK_CALLS for node in nodes))
    carrying = {handler.name} if handler.name is not None else set()
    carries: set[int] = set()
    for statement, read, formatted in zip(plain, reads, formats):
        if formatted or read & carrying:
            carries.add(id(statement))
            carrying.update(_bound(statement))
    for index, statement in enumerate(plain):
        names = set(_bound(statement)) if id(statement) not in carries else set()
        readers = [later for later, read in zip(plain[index + 1:], reads[index + 1:]) if read & names]
        if readers and all(id(reader) in carries for reader in readers):
            carries.add(id(statement))
    return carries


def _keeps_caught(handler: ast.ExceptHandler, plain: list[ast.stmt]) -> bool:
    """The handler keeps the caught exception itself for whoever reads what it kept (`exception = e`
    beside `cores = "not found"`, then `return cores, exception`; `self.error = e`): its words are
    not all it tells, as a message carrying `{e}` does. (A call given it, `errors.append(e)`, is a
    look at what it caught: `_narrows`.)"""
    return handler.name is not None and any(
        isinstance(statement, (ast.Assign, ast.AnnAssign)) and isinstance(statement.value, ast.Name)
        and statement.value.id == handler.name for statement in plain)


def _messages_both_fill(statements: list[ast.stmt], other: list[ast.stmt]) -> set[int]:
    """Ids of the statements that bind words (`error_detail = f"Span {key!r} not found"`) to a name
    the other path binds words to as well (the try's own `error_detail = f"… not found"`, the other
    arm's): a message each path fills is said later, of whichever path ran (a delete that then finds
    no row), not of this path's failure. The other path is walked only when this one binds words."""
    binding = [statement for statement in statements if isinstance(statement, ast.Assign)
               and _text(statement.value) is not None and all(isinstance(t, ast.Name) for t in statement.targets)]
    if not binding:
        return set()
    filled = {target.id for node in _nodes(other, prose=False) if isinstance(node, ast.Assign)
              and _text(node.value) is not None for target in node.targets if isinstance(target, ast.Name)}
    return {id(statement) for statement in binding if all(target.id in filled for target in statement.targets)}


def _quiet(statement: ast.stmt) -> bool:
    """`pass`, or a call on its own line (a log line, a print, a counter's `inc()`): a statement
    that gives the caller nothing."""
    return isinstance(statement, ast.Pass) or isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)


def _logs_traceback(statement: ast.stmt) -> bool:
    """`logger.exception("…")`, `log.warning("…", exc_info=True)`: a log line that prints the caught
    exception's traceback hands the truth on beside its words, as a message with `{exc}` does."""
    call = statement.value if isinstance(statement, ast.Expr) else None
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
        return False
    if call.func.attr == "exception":
        return True
    return call.func.attr in LOG_METHODS and any(
        keyword.arg == "exc_info" and not (isinstance(keyword.value, ast.Constant) and not keyword.value.value)
        for keyword in call.keywords)
