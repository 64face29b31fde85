"""Outcome channels: where a function writes a verdict, and where a fallback writes to the same place.

A *channel* is a destination a function writes outcome values to on different paths: its return
(`return`, `return[0]` of a tuple, `return["exact_match"]` of a dict), a name or attribute
(`verdict`, `self.passed`), a subscript (`details[]`), a receiver's method (`results.append`) or a
call keyword (`Score(value=)`).

A *verdict* is a value a compare decides: the compare's own result (`return got == expected`,
`score = float(ok)` where `ok = a == b`, `return compare(a, b)`), a constant written in a branch a
compare decides (`if got != expected: return 0.0`), or, in a function that judges (`grade_*`,
`process_judge_response`), a score it parses (`float(m.group(1))`).

A *fallback* is a value written when the work produced none: in an except handler that does not
say which stage failed (a catch-all, or an exception any stage raises around more than one
statement) and does not re-raise; in the no-match arm of a lookup (`int(m.group(1)) if m else 0`,
`if m is None:`); as a `.get`/`getattr`/`next`/`or` default; in a branch taken on an error status
(`if response.status_code != 200:`); in the arm of a dispatch on a reply that no known answer took
(`if r == "A": … elif r == "B": … else: return 0.0`).

A guard's verdict (`blocked`, `jailbreak`, `is_safe`, `RailOutcome.allow()`) is both answers of
its own channel by name: a fallback that lets the content through (`blocked=False` in a catch-all,
`if result is None: return RailOutcome.allow()`, an arm that logs an error and allows) writes what
a genuine pass writes, and is kept without a verdict beside it.

Read from the `ast` tree that `extract_file` parses for every file anyway: a screened file and a
LibCST-extracted one get the same writes, and the pre-screen needs no mirror of this module. Only
channels that receive both a verdict and a fallback are kept (and guards letting content
through); those are all FC003 can judge.
"""

from __future__ import annotations

import ast
import builtins
import re
import sys
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Iterator, Optional

from failcode import causes
from failcode.causes import is_broad_family
from failcode.facts.stages import STAGE_ORDER, StageClassifier, is_trivial
from failcode.facts.vocabulary import (ALLOWS, LOG_METHODS, TEXT_CALLS, fails_open, is_candidate_name, is_recordable,
                                      is_verdict_function, lets_through)
from failcode.facts.walk import child_nodes, walk
from failcode.model import ANY_NUMBER, ANY_REPLY, Blame, Pos, StageCall, Write, catches_all, signals, unspecific
from failcode.names import FAILURE_WORDS, is_constant_name, segments

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_DEFINITIONS = (*_FUNCTIONS, ast.ClassDef)
_SCOPES = (*_DEFINITIONS, ast.Lambda)  # nodes whose insides run later, not as part of the statement
_TRY = tuple(getattr(ast, name) for name in ("Try", "TryStar") if hasattr(ast, name))
_MATCH = getattr(ast, "Match", ())
_DECIDING = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn)
_CONVERSIONS = ("float", "int", "bool")
_APPENDS = ("append", "add", "extend", "put")
_NOWHERE = 10 ** 9
_LOGGING = LOG_METHODS | {"print"}
_WORDS = re.compile(r"\W+")
_EXPLAINING = FAILURE_WORDS | {"detail", "details", "message", "msg"}
# … in a guard's record, where `bot_message` is the content checked: `fail_open=True`, `skipped=True`
_UNCHECKED = FAILURE_WORDS | {"skipped", "unchecked", "degraded"}
_FAIL_CLOSED = frozenset("password passwd token signature auth authenticate authorize authorized permission"
                         " permissions credential credentials hmac digest secret access allowed license licence"
                         .split())
_BUILTINS = frozenset(dir(builtins))
_SIMPLE = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Return, ast.Raise, ast.Pass, ast.Import,
           ast.ImportFrom, ast.Global, ast.Nonlocal, ast.Delete, ast.Assert, ast.Break, ast.Continue)
_REFERENCE = frozenset("expected gold golden reference references truth".split())
_PROBE_WORDS = frozenset("exist exists present".split())
_CONVERTERS = frozenset("int float complex Decimal Fraction".split())
_SEARCHES = frozenset("search match fullmatch findall".split())
_ERROR_LOGS = frozenset("error exception critical fatal".split())
_FAIL_OPEN = re.compile(r"fail_?(open|closed)", re.IGNORECASE)  # a guard whose failure policy is a setting
_REPLY_DETAILS = frozenset("status_code status text reason content json body".split())  # what a reply says of itself
_STDLIB = frozenset(getattr(sys, "stdlib_module_names", ())) or frozenset(
    "os io sys pathlib shutil subprocess socket importlib json glob tempfile stat time".split())  # Python 3.9
# Calls that do not fail on data of the right kind: what they are given cannot make a harness failure
_SAFE_CALLS = frozenset("len type str repr isinstance issubclass id hash min max sum abs round sorted list tuple"
                        " set dict frozenset keys values items count startswith endswith join split strip lstrip"
                        " rstrip lower upper casefold get append add extend replace enumerate zip range".split())
# A function that reads a judge's, grader's or critic's reply: its input is the harness's, not the candidate's
_HARNESS_REPLY = frozenset("judge judgment judgement grader critic critique evaluator rater".split())
_BUILTIN_ERRORS = frozenset("ValueError TypeError RuntimeError AssertionError KeyError IndexError"
                            " LookupError AttributeError NotImplementedError".split())


_Defaults = dict[str, tuple[int, ast.expr]]  # name → (line, constant): a default written before the work


@dataclass(frozen=True)
class _Context:
    """What the statements of a block are, as a path: decided by a compare, or a fallback."""

    decided: Optional[ast.AST] = None  # the compare that decides the branch
    fallback: Optional[str] = None  # what triggers the fallback path (`except Exception`, …)
    kind: str = ""  # the fallback's kind: except, status, dispatch
    trigger: int = 0  # the line of the `except`/`if` that starts the fallback path
    region: tuple[int, int] = (0, _NOWHERE)  # the lines of the genuine path a fallback stands in for
    silent: bool = False  # a narrow handler: its exception is the signal for what it writes
    attempt: Optional[ast.AST] = None  # a handler's `try` statement
    exhausted: bool = False  # after a retry loop whose every attempt failed: a placeholder stands in for the reply


def outcome_facts(tree: ast.Module, text: str, stages: StageClassifier, module: str = "",
                  is_package: bool = False) -> tuple[tuple[Write, ...], tuple[Blame, ...]]:
    """The writes on every contested channel of the module's functions, and the catch-alls whose
    try runs our own code, in source order."""
    package = module if is_package else module.rpartition(".")[0]
    imports: dict[str, str] = {}
    for node in tree.body:
        note_import(node, imports, package)
    # names of other packages' code: a bare call of anything else (this file's functions, the
    # package's `from .grader import grade`, a global) is a call of our own code
    root = module.split(".")[0]
    foreign = frozenset(local for local, target in imports.items() if not root or target.split(".")[0] != root)
    constants = _module_constants(tree.body, imports)
    signatures = {node.name: tuple(a.arg for a in (*node.args.posonlyargs, *node.args.args))
                  for node in tree.body if isinstance(node, _FUNCTIONS)}
    writes: list[Write] = []
    blames: list[Blame] = []
    lines: list[str] = []
    pending = list(_definitions(tree.body, "", frozenset()))
    while pending:
        qualname, function, methods = pending.pop()
        scan = _Scan(qualname, function, imports, stages, foreign, methods, constants, signatures)
        # the scan met the function's nested definitions on its one walk (or skipped its body)
        inner = scan.nested if scan.walked else _inner(function.body)
        pending.extend(_definitions(inner, qualname + ".", methods))
        contested = scan.contested()
        if (contested or scan.blames) and not lines:
            lines = text.splitlines()
        writes.extend(w.finish(lines) for w in contested)
        blames.extend(b.finish(lines) for b in scan.blames)
    writes.sort(key=lambda write: (write.pos.line, write.pos.column))
    blames.sort(key=lambda blame: blame.pos.line)
    return tuple(writes), tuple(blames)


def _module_constants(body: list[ast.stmt], imports: dict[str, str]) -> dict[str, str]:
    """Name → constant key of the module's constants: a name the module binds once, to a constant
    (`_FAILED = "fail"`, keyed by its value), or imports in UPPER_SNAKE (`from .codes import
    FAILED`, keyed by its name: the module holding its value is not read here)."""
    constants = {local: repr(local) for local in imports if is_constant_name(local)}
    seen: set[str] = set()
    for node in body:
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = _constant(node.value) if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None \
                and not isinstance(node.value, ast.ListComp) else None
            for target in targets:
                for name in (n.id for n in walk(target) if isinstance(n, ast.Name)):
                    if name in seen or value is None or not isinstance(target, ast.Name):
                        constants.pop(name, None)
                    else:
                        constants[name] = value
                    seen.add(name)
    return constants


def _parameters(function) -> list[str]:
    arguments = function.args
    return [a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)
            if a.arg not in ("self", "cls")]


def _definitions(body: list[ast.stmt], prefix: str, methods: frozenset[str]) -> Iterator[tuple[str, ast.AST, frozenset[str]]]:
    """The functions a module, class or function body defines (at any depth of its blocks, not
    inside other functions), with their qualified names and the methods of their class (what
    `self.x()` calls in this file); a class's own are its methods."""
    for node in body:
        if isinstance(node, _FUNCTIONS):
            yield prefix + node.name, node, methods
        elif isinstance(node, ast.ClassDef):
            own = frozenset(item.name for item in node.body if isinstance(item, _FUNCTIONS))
            yield from _definitions(node.body, prefix + node.name + ".", own)
        else:
            yield from _definitions(_inner(_blocks(node)), prefix, methods)


def _inner(body: list[ast.stmt]) -> list[ast.stmt]:
    """The definitions a block holds at any depth of its compound statements."""
    out: list[ast.stmt] = []
    for node in body:
        if isinstance(node, _DEFINITIONS):
            out.append(node)
        else:
            out.extend(_inner(_blocks(node)))
    return out


def _blocks(node: ast.stmt) -> list[ast.stmt]:
    """The statements directly inside a compound statement (all its arms)."""
    out: list[ast.stmt] = []
    for field in ("body", "orelse", "finalbody"):
        out.extend(getattr(node, field, None) or ())
    for handler in getattr(node, "handlers", None) or ():
        out.extend(handler.body)
    if _MATCH and isinstance(node, _MATCH):
        for case in node.cases:
            out.extend(case.body)
    return out


def note_import(node: ast.stmt, imports: dict[str, str], package: str) -> None:
    """Local name → dotted target, relative imports anchored at the file's package."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            imports[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else alias.name.split(".")[0]
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            parts = package.split(".") if package else []
            anchor = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
            base = ".".join([*anchor, base] if base else anchor)
        for alias in node.names:
            if alias.name != "*":
                imports[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name


class _Pending:
    """A write found by the scan, positioned and quoted only if it is kept."""

    __slots__ = ("node", "function", "channel", "values", "role", "kind", "why", "trigger", "region", "attempt",
                 "stages", "kept")

    def __init__(self, node, function, channel, values, role, kind, why, trigger, region, attempt=None,
                 stages=(), kept=None) -> None:
        self.node, self.function, self.channel, self.values = node, function, channel, values
        self.role, self.kind, self.why, self.trigger, self.region = role, kind, why, trigger, region
        self.attempt, self.stages, self.kept = attempt, stages, kept

    def finish(self, lines: list[str]) -> Write:
        why = self.why if isinstance(self.why, str) else f"{self.why[0]} `{_short(self.why[1])}`"
        attempt = _pos(self.attempt, lines) if self.attempt is not None else None
        if self.kept is None:
            pos, text, kept = _pos(self.node, lines), _short(self.node), 0
        elif isinstance(self.node, ast.expr):  # where a record built earlier is written (`return outcome(fallback)`)
            pos, text, kept = _pos(self.node, lines), _short(self.kept[1]), self.kept[0]
        else:  # reported at the `except` or `if` that leaves the default standing, by its keyword
            start = _pos(self.node, lines)
            keyword = "except" if isinstance(self.node, ast.ExceptHandler) else "if"
            pos, text, kept = Pos(start.line, start.column, start.line, start.column + len(keyword)), \
                _short(self.kept[1]), self.kept[0]
        return Write(pos, self.function, self.channel, text, self.values, self.role, self.kind, why,
                     self.trigger, self.region[0], self.region[1], attempt, self.stages, kept)


class _PendingBlame:
    """A Blame found by the scan (`node`: the handler, test or default it is reported at),
    positioned only if it is kept."""

    __slots__ = ("node", "function", "texts", "attempt", "shape", "caught", "own", "raised", "written", "subject",
                 "told")

    def __init__(self, node, function, texts, attempt, shape, caught="", own=(), raised=(), written=(),
                 subject="", told=()) -> None:
        self.node, self.function, self.texts, self.attempt, self.shape = node, function, texts, attempt, shape
        self.caught, self.own, self.raised, self.written, self.subject = caught, own, raised, written, subject
        self.told = told

    def finish(self, lines: list[str]) -> Blame:
        start = _pos(self.node, lines)
        if isinstance(self.node, ast.ExceptHandler):  # reported at the `except` keyword
            start = Pos(start.line, start.column, start.line, start.column + len("except"))
        return Blame(start, self.function, self.caught, self.texts, self.own, self.attempt, self.raised, self.written,
                     self.shape, self.subject, self.told)


class _Scan:
    """One function's writes, by one walk of its statements (nested definitions are their own)."""

    def __init__(self, qualname: str, function, imports: dict[str, str], stages: StageClassifier,
                 foreign: frozenset[str] = frozenset(), methods: frozenset[str] = frozenset(),
                 constants: Optional[dict[str, str]] = None,
                 signatures: Optional[dict[str, tuple[str, ...]]] = None) -> None:
        self.qualname, self.function = qualname, function
        self.constants = constants or {}
        self.signatures = signatures or {}  # the file's functions → their parameters, by position
        self.foreign, self.methods = foreign, methods
        self.manages_context = any((_dotted(d) or "").endswith("contextmanager") for d in function.decorator_list)
        self.blames: list[_PendingBlame] = []
        name = qualname.rpartition(".")[2]
        self.exempt = _exempt(name)
        self.judges = is_verdict_function(name)
        self.probes = not _PROBE_WORDS.isdisjoint(segments(name))  # `does_file_exist`: a lookup's answer
        self.imports = imports
        self.stages = stages
        self.compared: dict[str, ast.AST] = {}  # local name → the compare whose result it holds
        self.fetched: set[str] = set()  # local names bound to a call's result (a lookup, a reply)
        self.remote: set[str] = set()  # … to what another package's code returned (`response = requests.get(…)`)
        self.answered: set[str] = set()  # … to what a reply says (`data = response.json()`, `latest = data["version"]`)
        self.searched: set[str] = set()  # … to a pattern's search of a text (`m = PATTERN.search(reply)`)
        self.dicts: dict[str, ast.Dict] = {}  # local name → the dict literal it was last bound to
        self.records: dict[str, ast.Call] = {}  # local name → the call that built it (`fallback = Result(…)`)
        self._lenient: Optional[bool] = None
        self.parsed: set[str] = set()  # local names holding a score a judging function parsed
        self.fallen: dict[str, _Pending] = {}  # local name → the default it holds for a reply with no answer
        self.named: dict[str, _Pending] = {}  # … of those, the defaults of what a parsed reply holds
        self.read: set[str] = set()  # local names bound to a read stage's result (`data = json.loads(reply)`)
        self.weighed: set[int] = set()  # ids of the compares that judged a default (`choice == target`)
        self.looping = False  # inside a `while` loop: polling until something is ready
        self.trying = 0  # inside a try body (how deep): a handler stands in for what it computes
        self.bound_in: dict[int, frozenset[str]] = {}  # id of a statement → the names it binds, deep
        self.workers: set[str] = set()  # local names bound to a child process or thread (`p = Process(…)`)
        self.joined: Optional[tuple[str, int]] = None  # the worker last waited on (`p.join(10)`), and where
        self.writes: list[_Pending] = []
        self.nested: list[ast.stmt] = []  # definitions met on the walk, scanned on their own
        self.walked = not self.exempt
        self.tried: dict[int, tuple[StageCall, ...]] = {}  # stages of each try a fallback stands in for
        self._candidates: Optional[frozenset[str]] = None  # parameters holding the evaluated output
        self._origins = None  # (parameters, local name → the parameters it comes from), built on first need
        if self.walked:
            self.block(function.body, _Context())

    def contested(self) -> list[_Pending]:
        roles: dict[str, set[str]] = {}
        for write in self.writes:
            roles.setdefault(write.channel, set()).add(write.role)
        return [w for w in self.writes if len(roles[w.channel]) == 2
                or fails_open(w) and not self.lenient]

    @property
    def lenient(self) -> bool:
        """The function's guard fails open by a setting (`if self.fail_open: return allow()`):
        letting content through on a failure is its configured policy, not a verdict it forgot."""
        if self._lenient is None:
            self._lenient = any(_FAIL_OPEN.search(name) for node in walk(self.function)
                                for name in [node.id if isinstance(node, ast.Name) else
                                             node.attr if isinstance(node, ast.Attribute) else
                                             node.arg if isinstance(node, ast.arg) else ""] if name)
        return self._lenient

    # -- statements ----------------------------------------------------------------------------

    def block(self, body: list[ast.stmt], context: _Context, standing: Optional[_Defaults] = None,
              after: tuple[ast.stmt, ...] = ()) -> None:
        """The statements of a block on one path. `standing`: the defaults written before the block
        (`passed = False`) that nothing has overwritten yet; `after`: what runs after the block."""
        dispatch: tuple[Optional[str], int] = (None, 0)  # the `if r == "A": return` run before
        defaults: _Defaults = dict(standing or {})
        for index, statement in enumerate(body):
            rest = (*body[index + 1:], *after)
            if isinstance(statement, ast.Return) and dispatch[1] >= 2 and self.judges:
                self.statement(statement, self.unknown_reply(statement, dispatch[0], context))
            elif _TRY and isinstance(statement, _TRY):
                self.try_statement(statement, context, body, defaults, rest)
                if context.fallback is None and not context.silent:
                    self.fell_through(statement, body[index + 1:])
            elif isinstance(statement, ast.If):
                self.branch(statement, context, defaults, rest)
                context = self.guarded(statement, context)
            else:
                self.statement(statement, context)
                if isinstance(statement, (ast.For, ast.AsyncFor, ast.While)) and context.fallback is None \
                        and not context.silent:
                    context = self.retried(statement, context, body)
            dispatch = _dispatch(statement, dispatch)
            if defaults:
                for name in self.bound(statement) if not isinstance(statement, _SIMPLE) else _bound(statement):
                    defaults.pop(name, None)
                    for key in [key for key in defaults if key.startswith(name + "[")]:
                        defaults.pop(key)  # `result = {…}` again: its keys' defaults are gone
            if isinstance(statement, (ast.Assign, ast.AnnAssign)):
                defaults.update(_defaults(statement, self.constant))

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
        self.unchecked_arm(rest, _Context(fallback=handlers, kind="except",
                                          trigger=attempt.handlers[0].lineno, attempt=attempt))

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
            params = self.signatures.get(callee or "", ())
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
                                        context.fallback, context.trigger, context.region, attempt, (), kept))

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
                                    exhausted=True)
        return context

    def replied(self, attempt) -> None:
        """A retry loop's try that returns what a call answered (`response = client.generate(…)`,
        `return response[0].text, n`): the reply is the genuine value of that return, any value,
        and what follows the loop (`return " ", 0`, `return EmptyResponse()`) stands in for it."""
        last = attempt.body[-1]
        value = last.value if isinstance(last, ast.Return) else None
        tupled = isinstance(value, ast.Tuple) and bool(value.elts)
        answer = value.elts[0] if tupled else value
        replies = {name: source for name, (_, source) in _replies(attempt.body[:-1]).items()}
        source = _reply_source(answer, replies) if answer is not None else None
        if source is not None:
            self.writes.append(_Pending(answer, self.qualname, "return[0]" if tupled else "return", (ANY_REPLY,),
                                        "verdict", "reply", ("returns the reply of", source), last.lineno, (0, _NOWHERE)))

    def bound(self, statement: ast.stmt) -> frozenset[str]:
        """`_bound(statement, deep=True)`, once per statement, from the statements it holds: the
        blocks of a function are met again inside the statements that hold them, so each node is
        walked once however deep it sits."""
        found = self.bound_in.get(id(statement))
        if found is not None:
            return found
        names: set[str] = set()
        stack: list[ast.AST] = [statement]
        while stack:
            node = stack.pop()
            if isinstance(node, ast.stmt) and node is not statement:
                names.update(self.bound(node))
                continue
            if isinstance(node, ast.Name):
                if isinstance(node.ctx, ast.Store):
                    names.add(node.id)
                continue
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
                key = _key_channel(node)
                if key is not None:
                    names.add(key)  # `result["passed"] = …` binds that key's channel
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _LOGGING:
                continue  # as `_nodes(…, prose=False)`: what a log call is given binds nothing of the work
            stack.extend(child for child in child_nodes(node)
                         if not isinstance(child, (*_SCOPES, ast.JoinedStr)))
        found = self.bound_in[id(statement)] = frozenset(names)
        return found

    def guarded(self, node: ast.If, context: _Context) -> _Context:
        """What follows a guard (`if SEP in out: … return parsed`, no `else`) runs when its compare
        fails: the block's rest is decided by the negated compare, as an `else` would be."""
        if context.fallback is not None or context.decided is not None or context.silent or node.orelse \
                or not isinstance(node.body[-1], (ast.Return, ast.Raise)):
            return context
        decided = self.deciding(node.test, judging=self.judges)
        return context if decided is None else _Context(decided=_negated(decided), region=context.region)

    def unknown_reply(self, node: ast.AST, subject: str, context: _Context) -> _Context:
        if context.fallback is not None:
            return context
        return _Context(fallback=f"a `{subject}` no branch matched", kind="dispatch", trigger=node.lineno)

    def statement(self, node: ast.stmt, context: _Context) -> None:
        """A statement other than `if` and `try` (`block` takes those, with what follows them)."""
        if isinstance(node, _DEFINITIONS):
            self.nested.append(node)
            return
        if isinstance(node, ast.Return):
            if node.value is not None:
                self.write("return", node.value, context, top=True)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            if node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    self.assign(target, node.value, context)
        elif isinstance(node, ast.Expr):
            self.expression_statement(node.value, context)
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith)):
            looping = self.looping
            self.looping = looping or isinstance(node, ast.While)
            self.block(node.body, context)
            self.looping = looping
            self.block(getattr(node, "orelse", None) or [], context)
        elif _MATCH and isinstance(node, _MATCH):
            for case in node.cases:
                self.block(case.body, context)

    def assign(self, target: ast.expr, value: ast.expr, context: _Context) -> None:
        if isinstance(target, ast.Name):
            name = target.id
            inner = _awaited(value)
            answered = _reads_reply(inner, self.remote, self.answered)  # before `name` is rebound
            for names in (self.fetched, self.answered, self.remote, self.parsed, self.searched, self.read):
                names.discard(name)
            for table in (self.compared, self.dicts, self.records):
                table.pop(name, None)
            if answered:
                self.answered.add(name)
            if self.judges and _parsed_number(value, self.parsed):
                self.parsed.add(name)  # `score = float(m.group(1))` … `return score / 10`
            if isinstance(inner, ast.Call):
                self.fetched.add(name)
                self.records[name] = inner
                if not self.local(inner) and not self.is_own_call(inner):
                    self.remote.add(name)  # `response = requests.get(…)`, not `m = re.match(…)` nor our own helper
                callee = _callee(inner)
                if callee is not None and self.stages.classify(_resolve(callee, self.imports)) == "read":
                    self.read.add(name)  # `data = json.loads(reply)`: a reply, parsed
                if (_callee(inner) or "").rpartition(".")[2].endswith(("Process", "Thread")):
                    self.workers.add(name)
                if (_callee(inner) or "").rpartition(".")[2] in _SEARCHES:
                    self.searched.add(name)  # `m = re.search(…)`: a reply searched for its answer
            elif isinstance(inner, ast.Dict):
                self.dicts[name] = inner
            verdict = self.verdict(value, judging=self.judges or is_verdict_function(name))
            if verdict is not None:
                self.compared[name] = verdict
            self.fallen.pop(name, None)
            self.named.pop(name, None)
            written = len(self.writes)
            self.write(name, value, context)
            answers = self.answers_default(value)
            if answers:
                self.fallen.update((name, w) for w in self.writes[written:] if w.role == "fallback")
                if answers == "parsed":
                    self.named.update((name, w) for w in self.writes[written:] if w.role == "fallback")
        elif isinstance(target, ast.Attribute):
            dotted = _dotted(target)
            if dotted is not None:
                self.write(dotted, value, context)
        elif isinstance(target, ast.Subscript):
            base = _dotted(target.value)
            if base is not None:
                key = target.slice.value if isinstance(target.slice, ast.Constant) else None
                self.write(f"{base}[{key!r}]" if isinstance(key, str) else f"{base}[]", value, context)

    def answers_default(self, value: ast.expr) -> str:
        """A default that stands in for the answer a reply did not hold: the no-match arm of a
        pattern's search (`m.group(1) if m else "C"`), the default of a lookup in what a call
        returned (`data.get("verdict", "no")` after `data = json.loads(reply)`, `parse(r) or "no"`),
        or of a search for the first answer (`next((w for w in words if w in LABELS), "no")`).
        Not a setting's default (`kwargs.get("mode", "fast")`): a parameter is no reply. "parsed"
        for those read from a parsed reply (a search, a read stage's result), "" for none."""
        if isinstance(value, ast.IfExp):
            absent = self.absent(value.test)
            return "parsed" if absent is not None and absent[0] in self.searched else ""
        if isinstance(value, ast.Call) and _default_call(value) is not None:
            if _callee(value) == "next":  # `next((r for r in replies if r in LABELS), "no")`: no answer found
                return "parsed" if isinstance(value.args[0], ast.GeneratorExp) else ""
            receiver = value.func.value if isinstance(value.func, ast.Attribute) else None
            if isinstance(receiver, ast.Name) and receiver.id in self.fetched:
                return "parsed" if receiver.id in self.read else "fetched"
            return ""
        if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or):
            first = value.values[0]
            return "fetched" if isinstance(first, ast.Call) or isinstance(first, ast.Name) and first.id in self.fetched \
                else ""
        return ""

    def named_default(self, compare: ast.Compare) -> None:
        """`sycophancy_type not in ["progressive", "regressive", "none"]` after
        `.get("sycophancy_type", "none")` on a parsed reply, `letter in ("A", "B", "C")` after
        `letter = m.group(1) if m else "C"`: the code lists the reply's genuine answers and its own
        default is one of them, so the default is a verdict of that name too, whether or not the
        compare weighs. A single `==` is not such a list: `depth == 0` after a default of 0, or
        `status == "in_progress"` after that default, mostly means the default."""
        if id(compare) in self.weighed or not isinstance(compare.ops[0], (ast.In, ast.NotIn)):
            return
        fallback = self.named.get(compare.left.id) if isinstance(compare.left, ast.Name) else None
        listed = compare.comparators[0]
        if fallback is not None and isinstance(listed, (ast.List, ast.Tuple, ast.Set)) and len(listed.elts) >= 2 \
                and fallback.values[0].startswith(("'", '"')):
            if any(self.constant(item) == fallback.values[0] for item in listed.elts):
                self.weighed.add(id(compare))
                self.writes.append(_Pending(compare, self.qualname, fallback.channel, fallback.values, "verdict",
                                            "decided", ("as a genuine answer in", compare), compare.lineno,
                                            (0, _NOWHERE)))

    def judged_default(self, compare: ast.Compare) -> None:
        """A compare that judges a name holding a reply's default (`choice == target` after `choice
        = m.group(1) if m else "C"`, `verdict == "yes"` after `verdict = data.get("verdict", "no")`)
        judges the default too: it is a verdict of that name, on the compare's line. Not a
        reference's default (`expected = session.scalar(count) or 0` … `done < expected`): what is
        judged against is no answer judged."""
        if id(compare) in self.weighed:
            return
        self.weighed.add(id(compare))
        for side in (compare.left, *compare.comparators):
            fallback = self.fallen.get(side.id) if isinstance(side, ast.Name) \
                and _REFERENCE.isdisjoint(segments(side.id)) else None
            if fallback is not None:
                self.writes.append(_Pending(compare, self.qualname, fallback.channel, fallback.values, "verdict",
                                            "decided", ("when", compare), compare.lineno, (0, _NOWHERE)))

    def expression_statement(self, value: ast.expr, context: _Context) -> None:
        if isinstance(value, ast.Await):
            value = value.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "join" \
                and isinstance(value.func.value, ast.Name) and value.func.value.id in self.workers:
            self.joined = (value.func.value.id, value.lineno)
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                and value.func.attr in _APPENDS and len(value.args) == 1 and not value.keywords:
            receiver = _dotted(value.func.value)
            if receiver is not None:
                self.write(f"{receiver}.{value.func.attr}", value.args[0], context)

    def branch(self, node: ast.If, context: _Context, defaults: _Defaults, after: tuple[ast.stmt, ...]) -> None:
        test = node.test
        if self.joined is not None:
            self.no_result(node)
        if context.kind in ("except", "narrow-except") and context.attempt is not None:
            # `except ValueError: … if any(c in answer for c in candidates): return 1.0`: what a
            # handler writes only when a test holds is a decision it makes, not its blanket fallback
            self.block(node.body, _Context(silent=True))
            self.block(node.orelse, _Context(silent=True))
            return
        if context.fallback is None and not context.silent:
            self.unchecked(node)
        if context.fallback is None and not context.silent and _error_status(test):
            self.every_status(node)
            self.block(node.body, _Context(fallback=f"`{_short(test)}`", kind="status", trigger=node.lineno))
            self.block(node.orelse, context)
            return
        # a pattern's search of the reply (`m = PATTERN.search(reply)`); after `n = kwargs.get("n")`
        # or `child = make()`, None is an answer of its own
        absent = self.absent(test) if context.fallback is None and not context.silent else None
        if absent is not None and absent[0] not in self.searched:
            absent = None
        if absent is not None and self.no_match(node, absent, context, defaults, after):
            return
        decided = self.deciding(test, judging=self.judges)
        arms = context if decided is None or context.fallback is not None else _Context(
            decided=decided, region=context.region, silent=context.silent)
        self.block(node.body, arms, defaults, after)
        subject = _chain_subject(node) if self.judges and context.fallback is None else None
        self.rest_of_chain(node, arms, context, subject, defaults, after)
        if not node.orelse and defaults and not context.silent:
            self.left_standing(node, context, decided, absent, defaults, after)

    def no_match(self, node: ast.If, absent: tuple[str, bool], context: _Context, defaults: _Defaults,
                 after: tuple[ast.stmt, ...]) -> bool:
        """`if m is None: verdict = False` / `else: verdict = m.group(1) == expected`, or the guard
        `if not m: return 0.0` before what reads `m`: the arm where a pattern's search of the reply
        found nothing is a fallback for what the other path reads from it. False when the test is
        no such search."""
        name, body_missing = absent
        missing, found = (node.body, node.orelse) if body_missing else (node.orelse, node.body)
        reads = found or list(after)
        if not missing or not any(isinstance(part, ast.Name) and part.id == name for part in _nodes(reads)):
            return False
        end = (after[-1].end_lineno if after else None) or node.end_lineno or node.lineno
        self.block(missing, _Context(fallback=f"no `{name}`", kind="no-match", trigger=node.lineno,
                                     region=(node.lineno, end)))
        self.block(found, context, defaults, after)
        return True

    def left_standing(self, node: ast.If, context: _Context, decided: Optional[ast.AST],
                      absent: Optional[tuple[str, bool]], defaults: _Defaults, after: tuple[ast.stmt, ...]) -> None:
        """An `if` with no `else` whose arm overwrites a default: when the test fails, the default is
        what is written. Decided by a compare (`if score == "PASS": hallucination = False`), it is
        the verdict for "not"; when the arm reads what a search found (`if m: score =
        int(m.group(1))`), it is the fallback for no match."""
        missing = absent is not None and not absent[1] and context.fallback is None
        if not missing and (decided is None or context.fallback is not None):
            return
        written = {name for statement in node.body for name in self.bound(statement)} & defaults.keys()
        if not written or _leaves(node.body):
            return
        read = {part.id for part in _nodes(list(after)) if isinstance(part, ast.Name) and isinstance(part.ctx, ast.Load)}
        end = after[-1].end_lineno if after else node.end_lineno
        for name in sorted(written & read):
            if missing:
                self.write(name, defaults[name][1], _Context(fallback=f"no `{absent[0]}`", kind="no-match",
                                                             trigger=node.lineno, region=(node.lineno, end or node.lineno)),
                           at=(node, defaults[name]))
            elif decided is not None and context.fallback is None:
                self.write(name, defaults[name][1], _Context(decided=_negated(decided), region=context.region),
                           at=(node, defaults[name]))

    def branch_chain(self, node: ast.If, arms: _Context, context: _Context, subject: Optional[str],
                     defaults: _Defaults, after: tuple[ast.stmt, ...]) -> None:
        """An `elif` of a dispatch: its own test decides its arm; a final `else` is the unknown reply.
        The defaults written before the chain stand in every arm, as in the first."""
        decided = self.deciding(node.test, judging=self.judges)
        own = arms if decided is None else _Context(decided=decided, region=arms.region, silent=arms.silent)
        self.block(node.body, own, defaults, after)
        self.rest_of_chain(node, own, context, subject, defaults, after)

    def rest_of_chain(self, node: ast.If, arms: _Context, context: _Context, subject: Optional[str],
                      defaults: _Defaults, after: tuple[ast.stmt, ...]) -> None:
        """What follows an `if` arm: the next `elif`, the unknown-reply `else` of a dispatch, or a
        plain `else` that the same compare decides."""
        if subject is not None and node.orelse and not isinstance(node.orelse[0], ast.If):
            self.block(node.orelse, self.unknown_reply(node.orelse[0], subject, context), defaults, after)
        elif len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
            self.branch_chain(node.orelse[0], arms, context, subject, defaults, after)
        else:
            self.block(node.orelse, arms, defaults, after)

    def try_statement(self, node, context: _Context, body: list[ast.stmt], defaults: _Defaults,
                      after: tuple[ast.stmt, ...]) -> None:
        self.trying += 1
        self.block(node.body, context, defaults, (*node.orelse, *node.finalbody, *after))
        self.trying -= 1
        statements = _statement_count(node.body)  # a `with` block of ten statements is ten, not one
        body_end = node.body[-1].end_lineno or node.lineno
        block_end = body[-1].end_lineno or body_end
        for handler in node.handlers:
            types = _handler_types(handler.type, self.imports)
            if catches_all(types):
                self.catch_all(node, handler, types)
                if self.looping:
                    self.polled(node, handler, types)
            if is_broad_family(types):
                self.cause(node, handler, types)
            if _reraises(handler.body) and not _raises_if_configured(handler) or context.fallback is not None \
                    or statements == 1 and _only_compares(node.body[0]) \
                    or not catches_all(types) and all(map(_only_converts, node.body)):
                inner = _Context(silent=True)  # a narrow handler of conversions: `Decimal(t)` failing is "no number"
            elif catches_all(types) or statements > 1 and not signals(types):
                inner = _Context(fallback=_caught(types), kind="except" if unspecific(types) else "narrow-except",
                                 trigger=handler.lineno, region=(node.lineno, block_end if statements > 1 else body_end),
                                 attempt=node)
            else:  # `try: float(s) … except ValueError: return False`: the exception is the answer
                inner = _Context(silent=True)
            if inner.fallback is not None and inner.kind in ("except", "narrow-except") and self.candidate_only(node):
                inner = _Context(silent=True)  # only the evaluated answer can fail there: "wrong" is its verdict
            if self.probes and inner.kind == "except" and catches_all(types) and not _narrows(handler):
                self.not_found(node)
            self.block(handler.body, inner)
            if inner.fallback is not None and defaults:
                self.kept(node, handler, inner, defaults, after)
        self.block(node.orelse, context)
        self.block(node.finalbody, context)

    def candidate_only(self, attempt) -> bool:
        """Whether only the evaluated candidate's own output can fail in the try: every call in it
        that can fail (not `len`, `str`, `sorted`, …) works on data the candidate parameter gave:
        another package's function given only that data (`json.loads(answer)`), or a method of
        that data (`answer.split(",")`). A method of any other object (`sandbox.run(…)`,
        `self.client.ask(…)`) is the harness at work, and so is a helper of ours, whose bug would
        read as the candidate's. Then the handler's "wrong" is the
        right verdict on an answer that cannot be parsed or run; when the try also parses the
        reference, reads a file or asks a judge, a failure there is the harness's and the fallback
        a hazard. On the tune split, the findings this quiets were judged false or debatable: the
        model's unparseable answer scored wrong."""
        candidates = self.candidates()
        if not candidates:
            return False
        for node in _nodes(attempt.body, prose=False):
            if not isinstance(node, ast.Call) or (_callee(node) or "").rpartition(".")[2] in _SAFE_CALLS:
                continue
            if self.is_own_call(node):
                return False  # our own helper: a bug there is the harness's
            given = self.origins([*node.args, *(k.value for k in node.keywords)])
            receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
            if receiver is not None and not self.is_module(receiver):
                given |= self.origins([receiver]) or {"<tool>"}  # `sandbox.run(…)`, `self.client.ask(…)`
            if not given or not given <= candidates:
                return False
        return True

    def is_module(self, node: ast.expr) -> bool:
        """`json`, `sympy`, `np.linalg`: an imported module whose function is called."""
        root = node
        while isinstance(root, ast.Attribute):
            root = root.value
        return isinstance(root, ast.Name) and root.id in self.imports

    def candidates(self) -> frozenset[str]:
        """The parameter that holds the evaluated candidate's output (vocabulary.py's concept words
        `answer`, `prediction`, `completion`…), in a function that judges; none in a function that
        reads a judge's or grader's reply, whose failure is the harness's, and none when two
        parameters are so named."""
        if self._candidates is None:
            found: frozenset[str] = frozenset()
            if self.judges and not _HARNESS_REPLY.intersection(segments(self.qualname.rpartition(".")[2])):
                found = frozenset(name for name in _parameters(self.function) if is_candidate_name(name))
            # two of them (`math_score(answer, response)`): one is the reference, and which is not said
            self._candidates = found if len(found) == 1 else frozenset()
        return self._candidates

    def origins(self, nodes: list[ast.expr]) -> frozenset[str]:
        """The parameters the values come from, through the function's assignments (all of them,
        wherever they are: a loop may assign after)."""
        if self._origins is None:
            params = set(_parameters(self.function))
            table: dict[str, set[str]] = {}
            assignments = [node for node in _nodes(self.function.body, prose=False)
                           if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr, ast.For,
                                                ast.AsyncFor, ast.comprehension))]
            for _ in range(2):  # a second pass carries what a later assignment feeds an earlier one
                for node in assignments:
                    value = node.iter if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)) else node.value
                    if value is None:
                        continue
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    came = self._names_origins(value, params, table)
                    for target in targets:
                        for name in walk(target):
                            if isinstance(name, ast.Name):
                                table.setdefault(name.id, set()).update(came)
            self._origins = (frozenset(params), {name: frozenset(found) for name, found in table.items()})
        params, table = self._origins
        found: set[str] = set()
        for node in nodes:
            found |= self._names_origins(node, params, table)
        return frozenset(found)

    @staticmethod
    def _names_origins(node: ast.expr, params, table) -> set[str]:
        """The parameters a value comes from; `self`, modules and globals are the function's tools
        and settings, not data it was given."""
        found: set[str] = set()
        for part in walk(node):
            if isinstance(part, ast.Name):
                if part.id in params:
                    found.add(part.id)
                elif part.id in table:
                    found |= table[part.id]
        return found

    def not_found(self, attempt) -> None:
        """An existence probe (`try: client.files.retrieve(file_id); return True`): its genuine
        "no" is the lookup's not-found error, so a catch-all that answers False answers it for
        every failure (network, auth, rate limit) too. Only lookups of other packages' code: a
        probe of the local machine (`os.stat`, `Path(p).exists()`, `import x`) asks the OS, whose
        failures are its own answer."""
        last = attempt.body[-1]
        answer = last.value if isinstance(last, ast.Return) else None
        fields = answer.elts if isinstance(answer, ast.Tuple) else [answer]
        index = next((i for i, item in enumerate(fields) if isinstance(item, ast.Constant) and item.value is True), None)
        if index is None or len(fields) > 1 and index == 0:
            return  # `return True`, or `return name, True`: the answer, alone or beside what it is about
        calls = [node for node in _nodes(attempt.body[:-1], prose=False) if isinstance(node, ast.Call)]
        if not calls or any(isinstance(node, (ast.Import, ast.ImportFrom)) for node in _nodes(attempt.body)) \
                or any(self.local(call) or self.is_own_call(call) for call in calls):
            return
        lookup = calls[-1]
        channel = "return" if len(fields) == 1 else f"return[{index}]"
        self.writes.append(_Pending(lookup, self.qualname, channel, ("0.0",), "verdict", "probe",
                                    ("when nothing is found by", lookup), lookup.lineno, (0, _NOWHERE)))

    def local(self, call: ast.Call) -> bool:
        """A call of a builtin or of the standard library (`open(p)`, `os.stat(p)`, `Path(p)`)."""
        root = (_callee(call) or "").partition(".")[0]
        if not root:
            return False  # `client.get(x).json()`, `factory()(x)`: a call on what another returned
        if root in self.imports:
            return self.imports[root].split(".")[0] in _STDLIB
        return root in _BUILTINS

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
        replies = _replies(attempt.body) if unspecific(_handler_types(handler.type, self.imports)) else {}
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
            elif name in succeeded:
                # `status = "success"` that the try never sets: what completes the work reports it,
                # and the handler that swallows a failure leaves it to report the failure too
                first = next(node for node in reads if node.id == name)
                self.writes.append(_Pending(first, self.qualname, name, (_constant(default[1]),), "verdict",
                                            "decided", "when the try completes", first.lineno, (0, _NOWHERE)))
                reach = replace(context, region=(context.region[0], max(context.region[1], first.lineno)))
                self.write(name, default[1], reach, at=(handler, default))

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
                raised = _dotted(statement.exc.func if isinstance(statement.exc, ast.Call) else statement.exc)
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
                                         if isinstance(node, ast.Raise) and node.exc is not None
                                         for name in [_dotted(node.exc.func if isinstance(node.exc, ast.Call) else node.exc)]
                                         if name))
            self.blames.append(_PendingBlame(handler, self.qualname, texts, attempt.lineno, "handler", _caught(types),
                                             tuple(own), raised, written))

    def cause(self, attempt, handler: ast.ExceptHandler, types: tuple[str, ...]) -> None:
        """Notes a handler of a broad family (causes.py) that names one specific cause for what it
        caught (`raise FileNotFoundError(…)`, "config not found", `status = "timeout"`) without
        passing the exception on as it is or looking at it first. Only what the handler does on
        every path counts (a statement under an `if` in it is a decision on what it caught), and a
        raise or a message that carries the caught exception's own text hands the truth on beside
        the cause; a value it records for the cause (`failures.append("UPSTREAM_TIMEOUT")`) is
        what every counter reads, with or without it. With it, the try's calls (what else can fail
        there) and how many statements the try runs. Whether the cause is wrong for what the try
        can raise is FC006's to judge."""
        if _reraises(handler.body, bare_only=True) or _narrows(handler) or _raises_caught(handler):
            return
        plain = [statement for statement in handler.body if isinstance(statement, _SIMPLE)]
        carries = {id(statement) for statement in plain if handler.name is not None and any(
            isinstance(node, ast.Name) and node.id == handler.name for node in _nodes([statement]))}
        told_by = [statement for statement in plain if id(statement) not in carries]
        texts = tuple(dict.fromkeys(_words_of(told_by)))
        raised = tuple(dict.fromkeys(name.rpartition(".")[2] for statement in told_by
                                     if isinstance(statement, ast.Raise) and statement.exc is not None
                                     for name in [_dotted(statement.exc.func if isinstance(statement.exc, ast.Call)
                                                          else statement.exc)] if name))
        written = tuple(dict.fromkeys(_written(plain, frozenset())))
        codes = tuple(text for text in _words_of(plain) if causes.is_code(text))  # recorded, never prose
        if causes.asserted(raised, (*texts, *codes), written) is None:
            return
        calls = []
        for node in _nodes(attempt.body, prose=False):
            if isinstance(node, ast.Call) and _callee(node) and _callee(node) not in TEXT_CALLS:
                calls.append(("call", _callee(node), node.lineno, ""))
        statements = sum(1 for _ in _simple_statements(attempt.body))
        told = tuple(dict.fromkeys(text for statement in told_by if isinstance(statement, ast.Raise)
                                   and statement.exc is not None for text in _words_of([ast.Expr(statement.exc)])))
        self.blames.append(_PendingBlame(handler, self.qualname, tuple(dict.fromkeys((*texts, *codes))),
                                         attempt.lineno, "cause", _caught(types), tuple(calls[:4]), raised, written,
                                         subject=str(statements), told=told))

    def type_default(self, lookup: ast.Call, default: ast.Constant) -> None:
        """`next((n for n in type(e).__mro__ if n.__name__ in KINDS), "APIError")`,
        `KINDS.get(type(e), "provider_error")`: the default names every exception type the lookup
        does not list, our own `KeyError` among them. Whether it blames a party is FC006's to judge."""
        if any(b.node is default for b in self.blames):
            return  # the same write seen again (a value met twice on its way to a channel)
        self.blames.append(_PendingBlame(default, self.qualname, (default.value,), lookup.lineno, "default",
                                         subject=_callee(lookup) or ""))

    def reply_checks(self, body: list[ast.stmt]) -> set[int]:
        """ids of the `raise`s in a try that check only what the try read from elsewhere:
        `split = urlsplit(url)`, `host = split.hostname`, `if host is None: raise ValueError(…)`
        validates the reply; `if kwargs["temperature"] == 0 and n > 1: raise ValueError(…)` checks
        our own request, and stays our code."""
        read: set[str] = set()
        ours: set[str] = set()  # bound from our own code: `url = await self._tunnel_url(port)`
        checks: set[int] = set()
        for statement in body:
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
                    and isinstance(statement.targets[0], ast.Name):
                value = _awaited(statement.value)
                uses = {node.id for node in walk(value) if isinstance(node, ast.Name)}
                if self.is_own_call(value) or uses & ours:
                    ours.add(statement.targets[0].id)
                elif self.reads(value, read):
                    read.add(statement.targets[0].id)
            elif isinstance(statement, ast.If):
                names = {node.id for node in walk(statement.test)
                         if isinstance(node, ast.Name) and node.id not in _BUILTINS}
                if names and names <= read:
                    checks.update(id(node) for node in walk(statement) if isinstance(node, ast.Raise))
        return checks

    def is_own_call(self, node: ast.AST) -> bool:
        """A call of this class's methods or of a function of this file or package. A class of
        ours builds a record (`return Endpoint(host=host)`): it runs no logic to blame."""
        if not isinstance(node, ast.Call):
            return False
        root, _, rest = (_callee(node) or "").partition(".")
        return root in ("self", "cls") and rest in self.methods or bool(root) and not rest \
            and root not in self.foreign and root not in _BUILTINS and not root[:1].isupper()

    def reads(self, value: ast.expr, read: set[str]) -> bool:
        """A value taken from something read (`split.hostname`, `reply["url"]`) or returned by a
        function not of this package (`urlsplit(url)`, `response.json()`)."""
        while isinstance(value, (ast.Attribute, ast.Subscript)):
            value = value.value
        if isinstance(value, ast.Name):
            return value.id in read
        if isinstance(value, ast.Call):
            root, _, rest = (_callee(value) or "").partition(".")
            return root in self.foreign or root in read
        return False

    # -- values ------------------------------------------------------------------------------

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
        if context.fallback is not None:
            self.let_through(channel, value, context)
            if _explained(value):
                return  # `{"passed": False, "failure_reason": "…"}`: the record says what happened
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
                if isinstance(item, ast.Constant) and isinstance(item.value, bool):
                    self.write(f"{channel}[{index}]", item, context)
            return
        if isinstance(value, ast.Call) and value.keywords and not _default_call(value):
            callee = _dotted(value.func)
            if callee is not None:
                for keyword in value.keywords:
                    if keyword.arg is not None:
                        self.write(f"{callee}({keyword.arg}=)", keyword.value, context)
            return
        if context.exhausted and isinstance(value, ast.Call) and not value.args and not value.keywords \
                and (_callee(value) or "").rpartition(".")[2][:1].isupper():
            # `return LitellmModelResponse()`: an empty reply, built in place of the one that never came
            self.writes.append(_Pending(value, self.qualname, channel, (f"{_callee(value)}()",), "fallback",
                                        context.kind, context.fallback, context.trigger, context.region))
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
                                        trigger, region, attempt, stages, at[1] if at is not None else None))

    def stages_of(self, attempt) -> tuple[StageCall, ...]:
        """The first call of each stage in a try body, each in a statement of its own: calls nested
        in one expression (`float(verify(parse(a), parse(b)))`) or in a logging argument are one
        step, not stages a handler must tell apart. An `==` is a compare when one side is read from a name the
        try bound from a call or from what one returned (`out == expected` after `out = run(code)`,
        `prediction["label"] == gold` after `prediction = parse_reply(text)`)."""
        known = self.tried.get(id(attempt))
        if known is not None:
            return known
        first: dict[str, StageCall] = {}
        bound: set[str] = set()
        for statement in _simple_statements(attempt.body):
            found: list[StageCall] = []  # the statement's stage is its last: `float(verify(parse(a)))` compares
            for node in _nodes([statement], prose=False):
                if isinstance(node, ast.Call):
                    name = _callee(node)
                    if name is not None and not is_trivial(name):
                        keywords = [k.arg for k in node.keywords if k.arg]
                        stage = self.stages.classify(_resolve(name, self.imports), keywords)
                        if stage is not None:
                            found.append(StageCall(stage, name, node.lineno))
                elif isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
                    sides = [node.left, node.comparators[0]]
                    if any(_root(side) in bound for side in sides) \
                            and not any(_is_literal(side) for side in sides):
                        found.append(StageCall("compare", "==" if isinstance(node.ops[0], ast.Eq) else "!=", node.lineno))
            if found:
                last = max(found, key=lambda call: STAGE_ORDER.index(call.stage))
                first.setdefault(last.stage, last)
            # bound from a call, or from what one returned (`answer = data["answer"]`)
            value = _awaited(getattr(statement, "value", None))
            if isinstance(statement, (ast.Assign, ast.AnnAssign)) and value is not None and (
                    isinstance(value, ast.Call) or any(isinstance(n, ast.Name) and n.id in bound for n in walk(value))):
                targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                bound.update(t.id for t in targets if isinstance(t, ast.Name))
        found = tuple(sorted(first.values(), key=lambda call: call.line))
        self.tried[id(attempt)] = found
        return found

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
        if self.judges and _parsed_number(node, self.parsed):
            yield node, (ANY_NUMBER,), "verdict", "parsed", "as the score it parses"
            return
        if isinstance(node, ast.IfExp):
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
            return node if self.stages.classify(_resolve(_callee(node), self.imports)) == "compare" else None
        return None

    def judges_reply(self, left: ast.expr, right: ast.expr) -> bool:
        """`parse(latest) > parse(current)` after `latest = response.json()["info"]["version"]`, in a
        try: a compare of what a reply said with another value, neither a literal, weighs the reply,
        and the try's handler answers in its place."""
        return bool(self.trying and self.answered) and not _is_literal(left) and not _is_literal(right) \
            and any(isinstance(part, ast.Name) and part.id in self.answered for side in (left, right)
                    for part in walk(side))

    def absent(self, test: ast.expr) -> Optional[tuple[str, bool]]:
        """(what, missing) when a test asks whether a lookup found something: `m`, `not m`,
        `m is None`, `m is not None`; `missing` is True for the arm where it found nothing. The
        name must hold a call's result (`m = re.search(…)`), not a parameter or a flag."""
        absence = _absence(test)
        return absence if absence is not None and absence[0] in self.fetched else None

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

    def every_status(self, node: ast.If) -> None:
        """`if response.status_code != 200: raise ServiceUnavailable("backend unavailable")`: one
        cause for every failing status, our own 400s and 401s among them. An arm that passes the
        status or the reply's own words on (`f"failed with {response.status_code}"`) says which
        failure it was. Whether the arm blames a party is FC006's to judge."""
        if any(isinstance(part, ast.Attribute) and part.attr in _REPLY_DETAILS for part in _nodes(node.body)):
            return
        texts = tuple(dict.fromkeys(_words_of(node.body)))
        if texts:
            self.blames.append(_PendingBlame(node.test, self.qualname, texts, node.lineno, "status",
                                             subject=_short(node.test)))

    def no_result(self, node: ast.If) -> None:
        """`if not result: result.append("timed out")` after waiting on a child process or thread
        (`p.join(timeout)`): no result also means the child crashed, or our own code in it raised.
        What the arm says, and whether that blames a party, is FC006's to judge."""
        absence = _absence(node.test)
        if absence is None or not absence[1]:
            return
        worker, line = self.joined
        if any(isinstance(part, ast.Attribute) and part.attr in ("exitcode", "is_alive")
               and isinstance(part.value, ast.Name) and part.value.id == worker for part in _nodes([node])):
            return  # the arm asks the child how it ended
        texts = tuple(dict.fromkeys(_words_of(node.body)))
        if texts:
            self.blames.append(_PendingBlame(node.test, self.qualname, texts, line, "no-result", subject=worker))


# -- shapes --------------------------------------------------------------------------------------

def _absence(test: ast.expr) -> Optional[tuple[str, bool]]:
    """(name, missing) for `x`, `not x`, `x is None`, `x is not None`: `missing` is True for the
    arm where `x` holds nothing."""
    missing = False
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, missing = test.operand, True
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.IsNot)) \
            and _constant(test.comparators[0]) == "None":
        missing = missing != isinstance(test.ops[0], ast.Is)
        test = test.left
    return (test.id, missing) if isinstance(test, ast.Name) else None


def _constant(node: ast.AST) -> Optional[str]:
    """A constant's value as one comparable key: numbers and bools as floats (`False` is `0.0`:
    whoever sums or tests them cannot tell them apart), strings quoted, `None`; lists of those."""
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or isinstance(value, (int, float)) and not isinstance(value, complex):
            try:
                return repr(float(value))
            except OverflowError:
                return None
        if isinstance(value, str):
            return repr(value)
        if value is None:
            return "None"
        return None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and isinstance(node.operand.value, (int, float)):
        inner = _constant(node.operand)
        return repr(-float(inner)) if inner is not None else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "float" and len(node.args) == 1 \
            and isinstance(node.args[0], ast.Constant) and str(node.args[0].value).lower() in ("nan", "inf", "-inf"):
        return str(node.args[0].value).lower()  # `float("nan")`: no score, not a score
    if isinstance(node, ast.Attribute) and node.attr in ("nan", "NaN", "NAN") and _dotted(node) is not None:
        return "nan"
    if isinstance(node, (ast.List, ast.Tuple)) and node.elts:
        items = [_constant(item) for item in node.elts]
        return "[" + ", ".join(items) + "]" if all(i is not None for i in items) else None  # type: ignore[arg-type]
    if isinstance(node, ast.ListComp) and len(node.generators) == 1:
        inner = _constant(node.elt)
        return f"[{inner}, …]" if inner is not None else None
    return None


# Protocol methods whose False on an exception is what the protocol asks (`__eq__` of an unlike
# object); `__call__`, `__getitem__` or `__bool__` are code like any other
_PROTOCOL = frozenset("__eq__ __ne__ __lt__ __le__ __gt__ __ge__ __contains__ __hash__ __instancecheck__"
                      " __subclasscheck__".split())


@lru_cache(maxsize=65536)
def _exempt(name: str) -> bool:
    """`__eq__` returning False on an exception is the protocol; an access check that fails closed
    (`verify_password`, `compare_digest`) answers "no" to what it cannot check, rightly."""
    return name in _PROTOCOL or bool(_FAIL_CLOSED.intersection(segments(name)))


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
    answer is checked against (`expected`, `gold_answer`, `self.reference`, `case["expected"]`)."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        name = node.slice.value
    else:
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
    return name is not None and _weighing(name)


def _is_literal(node: ast.expr) -> bool:
    return _constant(node) is not None or isinstance(node, (ast.Set, ast.List, ast.Tuple, ast.Dict))


def _parsed_number(node: ast.expr, parsed: set[str]) -> bool:
    """`float(m.group(1))`, `int(score) / 10`, `min(max(score / 10, 0.0), 1.0)`, or a name bound
    to one (`parsed`): a number read from something, the score a judge's reply holds."""
    if isinstance(node, ast.Name):
        return node.id in parsed
    if isinstance(node, ast.Call):
        name = _callee(node)
        if name in ("int", "float") and len(node.args) == 1 and _constant(node.args[0]) is None:
            return True
        if name in ("min", "max", "round", "abs"):
            return any(_parsed_number(arg, parsed) for arg in node.args)
    if isinstance(node, ast.BinOp):
        return _parsed_number(node.left, parsed) or _parsed_number(node.right, parsed)
    return False


def _default_call(node: ast.Call) -> Optional[ast.expr]:
    """The default of `.get(key, DEFAULT)`, `getattr(obj, name, DEFAULT)`, `next(it, DEFAULT)`."""
    if node.keywords or len(node.args) not in (2, 3):
        return None
    name = _callee(node)
    if name is None:
        return None
    last = name.rpartition(".")[2]
    if last == "get" and "." in name and len(node.args) == 2 or name in ("next",) and len(node.args) == 2 \
            or name == "getattr" and len(node.args) == 3:
        return node.args[-1]
    return None


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


def _error_status(test: ast.expr) -> bool:
    """A test that takes every failure of a reply as one path: `status_code != 200`, `>= 400`,
    `not response.ok`."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return isinstance(test.operand, ast.Attribute) and test.operand.attr == "ok"
    if not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return False
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if not (isinstance(left, ast.Attribute) and left.attr in ("status_code", "status")
            or isinstance(left, ast.Name) and left.id in ("status_code",)):
        return False
    code = right.value if isinstance(right, ast.Constant) and isinstance(right.value, int) else None
    if code is None:
        return False
    return isinstance(op, ast.NotEq) and 200 <= code < 300 or isinstance(op, (ast.GtE, ast.Gt)) and code in (299, 300, 399, 400)


def _chain_subject(node: ast.If) -> Optional[str]:
    """The subject of a dispatch `if r == "A": … elif r == "B": …`: the same value compared with
    constants in every test of the chain (two tests at least)."""
    subjects = []
    while True:
        subjects.append(_dispatch_test(node.test))
        if len(node.orelse) != 1 or not isinstance(node.orelse[0], ast.If):
            break
        node = node.orelse[0]
    if len(subjects) < 2 or None in subjects or len(set(subjects)) != 1:
        return None
    return subjects[0]


def _dispatch_test(test: ast.expr) -> Optional[str]:
    """`r == "A"` or `r in ("A", "B")`: the subject `r` as written."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op, right = test.ops[0], test.comparators[0]
        if isinstance(op, ast.Eq) and _constant(right) is not None \
                or isinstance(op, ast.In) and isinstance(right, (ast.Tuple, ast.List, ast.Set)):
            return _short(test.left)
    return None


def _dispatch(statement: ast.stmt, before: tuple[Optional[str], int]) -> tuple[Optional[str], int]:
    """Carries a dispatch across consecutive `if r == "A": return …` statements: after two or more,
    a `return` is what a reply no branch matched gets."""
    if not isinstance(statement, ast.If) or statement.orelse or not statement.body \
            or not isinstance(statement.body[-1], ast.Return):
        return None, 0
    subject = _dispatch_test(statement.test)
    if subject is None:
        return None, 0
    return subject, before[1] + 1 if before[0] == subject else 1


def _explained(value: ast.expr, words: frozenset[str] = _EXPLAINING) -> bool:
    """A record that names what went wrong beside its verdict: a failure-worded key or keyword
    (`{"passed": False, "failure_reason": …}`, `Result(ok=False, error=…)`), also in a tuple."""
    items = value.elts if isinstance(value, ast.Tuple) else [value]
    for item in items:
        if isinstance(item, ast.Dict):
            names = [k.value for k in item.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        elif isinstance(item, ast.Call):
            names = [k.arg for k in item.keywords if k.arg]
        else:
            continue
        if any(set(segments(name)) & words for name in names):
            return True
    return False


_FAILURE_REASONS = FAILURE_WORDS | frozenset("timeout timed crash crashed exception unknown".split())


def _says_failure(node: ast.expr) -> bool:
    """A string that names a failure (`"timeout"`, `"exec error"`, `"compilation error"`)."""
    return isinstance(node, ast.Constant) and isinstance(node.value, str) \
        and not _FAILURE_REASONS.isdisjoint(segments(node.value))


def _awaited(node: Optional[ast.expr]) -> Optional[ast.expr]:
    return node.value if isinstance(node, ast.Await) else node


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


def _simple_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of a block that are no blocks themselves, nested ones included, with the
    headers (`if` tests, `for` iterables) of the compound ones as statements of their own."""
    for statement in body:
        if isinstance(statement, _DEFINITIONS):
            continue
        inner = _blocks(statement)
        if not inner:
            yield statement
            continue
        header = [getattr(statement, field, None) for field in ("test", "iter", "items", "subject")]
        for part in header:
            if isinstance(part, ast.AST):
                yield ast.Expr(part, lineno=part.lineno, col_offset=part.col_offset)
            elif isinstance(part, list):
                for item in part:
                    yield ast.Expr(item.context_expr, lineno=statement.lineno, col_offset=statement.col_offset)
        yield from _simple_statements(inner)


_OPPOSITE = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.GtE, ast.GtE: ast.Lt, ast.Gt: ast.LtE,
             ast.LtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In}


def _negated(test: ast.AST) -> ast.AST:
    """The test that takes the other arm, as a message quotes it: `score != 'PASS'`, `not ok`."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _OPPOSITE:
        return ast.Compare(test.left, [_OPPOSITE[type(test.ops[0])]()], test.comparators)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand
    return ast.UnaryOp(ast.Not(), test)


def _defaults(statement: ast.stmt, constant=_constant) -> _Defaults:
    """The constants a statement writes to plain names: `passed = False`, `hallucination, reasons =
    True, None`, `content_type: str = "text/html"`; and to a dict's keys, by the key's channel
    (`result['passed']`): `result["passed"] = False`, `result = {"passed": False}`."""
    if isinstance(statement, ast.AnnAssign) and statement.value is not None:
        target, value = statement.target, statement.value
    elif isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target, value = statement.targets[0], statement.value
    else:
        return {}
    pairs = zip(target.elts, value.elts) if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) \
        and len(target.elts) == len(value.elts) else [(target, value)]
    found = {name.id: (statement.lineno, item) for name, item in pairs
             if isinstance(name, ast.Name) and constant(item) is not None}
    key = _key_channel(target)
    if key is not None and constant(value) is not None:
        found[key] = (statement.lineno, value)
    if isinstance(target, ast.Name) and isinstance(value, ast.Dict):
        for item_key, item in zip(value.keys, value.values):
            if isinstance(item_key, ast.Constant) and isinstance(item_key.value, str) and constant(item) is not None:
                found[f"{target.id}[{item_key.value!r}]"] = (statement.lineno, item)
    return found


def _key_channel(target: ast.expr) -> Optional[str]:
    """`result["passed"]` as the channel its writes go to (`result['passed']`), None for another target."""
    if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) \
            and isinstance(target.slice, ast.Constant) and isinstance(target.slice.value, str):
        return f"{target.value.id}[{target.slice.value!r}]"
    return None


_SUCCESS_WORDS = frozenset("success succeeded successful ok okay pass passed completed complete done".split())


def _says_success(value: ast.expr) -> bool:
    """`"success"`, `"OK"`, `"completed"`: a default that says the work went well."""
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        words = segments(value.value)
        return bool(words) and set(words) <= _SUCCESS_WORDS
    return False


def _bound(statement: ast.stmt, deep: bool = False) -> Iterator[str]:
    """The plain names a statement binds (assignment, augmented or annotated, `for` and `with`
    targets, `:=`); `deep`: also in the blocks it holds, not in nested definitions."""
    roots = [statement] if deep else [part for part in (getattr(statement, "targets", None) or
                                                       [getattr(statement, "target", None)]) if part is not None]
    for node in _nodes(roots, prose=False) if deep else (n for root in roots for n in walk(root)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            yield node.id
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            key = _key_channel(node)
            if key is not None:
                yield key


def _reads_reply(value: ast.expr, remote: set[str], answered: set[str]) -> bool:
    """What a reply says: read by a method (`response.json()`) from what another package's call
    returned (`remote`), or a part of such a reading (`data["info"]["version"]`)."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and isinstance(value.func.value, ast.Name) \
            and value.func.value.id in remote:
        return True
    while isinstance(value, (ast.Attribute, ast.Subscript)):
        value = value.value
    return isinstance(value, ast.Name) and value.id in answered


def _replies(body: list[ast.stmt]) -> dict[str, tuple[ast.Assign, ast.Call]]:
    """The names a block's own statements bind from a call's answer, with the binding and the call."""
    replies: dict[str, tuple[ast.Assign, ast.Call]] = {}
    for statement in body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
                and isinstance(statement.targets[0], ast.Name):
            source = _reply_source(_awaited(statement.value), {name: call for name, (_, call) in replies.items()})
            if source is not None:
                replies[statement.targets[0].id] = (statement, source)
    return replies


def _reply_source(value: Optional[ast.expr], replies: dict[str, ast.Call]) -> Optional[ast.Call]:
    """The call whose answer a value is: the call itself (`client.generate(…)`, not a builtin's or
    a conversion's), a name bound to one, or a part of either (`response[0].text`,
    `data.get("result", {}).get("action")`, `response.choices[0].message.content.strip()`)."""
    root = value
    while isinstance(root, (ast.Attribute, ast.Subscript)) or isinstance(root, ast.Call) and isinstance(root.func, ast.Attribute):
        root = root.func.value if isinstance(root, ast.Call) else root.value
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


def _always_leaves(body: list[ast.stmt]) -> bool:
    """A block that leaves the path on every path through it: its last statement leaves, or is an
    `if` whose arms both do."""
    last = body[-1] if body else None
    if isinstance(last, ast.If):
        return _always_leaves(last.body) and _always_leaves(last.orelse)
    return isinstance(last, (ast.Return, ast.Raise, ast.Continue, ast.Break))


def _leaves(body: list[ast.stmt]) -> bool:
    """A block that leaves the path (`return`, `raise`, `continue`, `break`) somewhere."""
    return any(isinstance(node, (ast.Return, ast.Raise, ast.Continue, ast.Break)) for node in _nodes(body))


def _only_compares(statement: ast.stmt) -> bool:
    """A statement whose only calls convert (`ok = bool(a == b)`): what it can raise is the compare's
    own error, and "not equal" is a fair answer for values that cannot be compared."""
    return not any(isinstance(node, ast.Call) and not is_trivial(_callee(node) or "?") for node in walk(statement))


def _only_converts(statement: ast.stmt) -> bool:
    """A statement whose calls only convert text to numbers (`[Decimal(t) for t in s.split()]`,
    `x = float(s)`), beside trivial ones: one stage, whose error says the text holds no number."""
    calls = [(_callee(node) or "?").rpartition(".")[2] for node in walk(statement) if isinstance(node, ast.Call)]
    return any(name in _CONVERTERS for name in calls) and all(name in _CONVERTERS or is_trivial(name) for name in calls)


def _reraises(body: list[ast.stmt], bare_only: bool = False) -> bool:
    """A `raise` in the block (`bare_only`: a bare `raise`, the exception passed on as it is)."""
    for statement in body:
        if isinstance(statement, ast.Raise) and (statement.exc is None or not bare_only):
            return True
        if isinstance(statement, _DEFINITIONS):
            continue
        if _reraises(_blocks(statement), bare_only):
            return True
    return False


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


def _raises_caught(handler: ast.ExceptHandler) -> bool:
    """`except Exception as e: …; raise e`: what was caught goes on as it is."""
    return handler.name is not None and any(
        isinstance(node, ast.Raise) and isinstance(node.exc, ast.Name) and node.exc.id == handler.name
        for node in _nodes(handler.body, prose=False))


def _stores_caught(handler: ast.ExceptHandler) -> bool:
    """The handler keeps what it caught (`error_to_raise = e`, `self.error = str(e)`): the failure
    goes on with it, to be raised or reported later."""
    if handler.name is None:
        return False
    return any(isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None
               and any(isinstance(part, ast.Name) and part.id == handler.name for part in walk(node.value))
               for node in _nodes(handler.body, prose=False))


def _narrows(handler: ast.ExceptHandler) -> bool:
    """The handler looks at what it caught before it speaks (`isinstance(e, RateLimitError)`,
    `type(e)`, `is_rate_limit(e)`): what it says may be true of that exception."""
    if handler.name is None:
        return False
    for node in _nodes(handler.body, prose=False):  # `logger.warning(f"{type(e)}")` only says it
        if isinstance(node, ast.Call) and any(isinstance(arg, ast.Name) and arg.id == handler.name
                                              for arg in node.args) and _callee(node) not in TEXT_CALLS \
                and not (isinstance(node.func, ast.Attribute) and node.func.attr in _LOGGING):
            return True
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == handler.name:
            return True
    return False


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
    keys (`{"backend": …}` names a field), not debug logs, which no one reads as the outcome, and
    not the nodes of `skip` (by id)."""
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        if isinstance(node, _SCOPES) or id(node) in skip:
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "debug":
            continue
        if isinstance(node, ast.Raise) and node.exc is not None:
            raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            name = _dotted(raised)
            if name is not None:
                yield name.rpartition(".")[2]
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip():
            yield " ".join(node.value.split())[:80]
        children = list(child_nodes(node))
        if isinstance(node, ast.Dict):
            children = [value for value in node.values]
        stack.extend(reversed(children))


def _nodes(roots: list[ast.AST], prose: bool = True) -> Iterator[ast.AST]:
    """Every node under the roots, outside nested functions, classes and lambdas; without
    `prose`, also outside f-strings and logging arguments (what only says a value, not the work)."""
    stack: list[ast.AST] = list(reversed(roots))
    while stack:
        node = stack.pop()
        yield node
        if not prose and isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in _LOGGING:
            continue
        for child in child_nodes(node):
            if not isinstance(child, _SCOPES) and (prose or not isinstance(child, ast.JoinedStr)):
                stack.append(child)


def _caught(types: tuple[str, ...]) -> str:
    """How a message names a handler: `except Exception`, `bare except`."""
    return f"except {', '.join(types)}" if types else "bare except"


def _handler_types(node: Optional[ast.expr], imports: dict[str, str]) -> tuple[str, ...]:
    if node is None:
        return ()
    items = node.elts if isinstance(node, ast.Tuple) else [node]
    names = []
    for item in items:
        dotted = _dotted(item)
        names.append(_resolve(dotted, imports).removeprefix("builtins.") if dotted else "?")
    return tuple(names)


def _dotted(node: ast.AST) -> Optional[str]:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _callee(node: ast.Call) -> Optional[str]:
    return _dotted(node.func)


def _resolve(name: str, imports: dict[str, str]) -> str:
    root, dot, rest = name.partition(".")
    target = imports.get(root)
    return name if target is None else f"{target}{dot}{rest}"


def _short(node: ast.AST) -> str:
    """The node's source on one line, cut to a length a message can quote."""
    text = " ".join(ast.unparse(node).split())
    return text if len(text) <= 60 else text[:57] + "..."


def _pos(node: ast.AST, lines: list[str]) -> Pos:
    """1-based line and character columns (`ast` counts UTF-8 bytes)."""
    def column(line: int, offset: int) -> int:
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        return len(text.encode("utf-8")[:offset].decode("utf-8", "replace")) + 1

    end_line = node.end_lineno or node.lineno
    return Pos(node.lineno, column(node.lineno, node.col_offset), end_line,
               column(end_line, node.end_col_offset or node.col_offset))
