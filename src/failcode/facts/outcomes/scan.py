"""The scan of one function: one walk of its statements, in order, with what each binds.

`Scan` is made of one part per concept (the sibling modules); this module holds the walk itself:
blocks, statements, assignments, and the defaults a function writes before the work that a failure
can leave standing (what a default written in place of an answer stands for is `defaults`).
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from typing import Optional

from failcode.facts.outcomes.attempts import Attempts
from failcode.facts.outcomes.blames import Blames
from failcode.facts.outcomes.branches import Branches
from failcode.facts.outcomes.channels import Channels
from failcode.facts.outcomes.commands import Commands
from failcode.facts.outcomes.defaults import Defaults
from failcode.facts.outcomes.fields import RecordFields
from failcode.facts.outcomes.paths import FailurePaths
from failcode.facts.outcomes.provenance import Provenance
from failcode.facts.outcomes.raises import Raising, _Raised
from failcode.facts.outcomes.records import _Context, _Pending, _PendingBlame
from failcode.facts.outcomes.survivors import Survivors
from failcode.facts.outcomes.replies import Replies
from failcode.facts.outcomes.tallies import Tallies
from failcode.facts.outcomes.syntax import (
    _DEFINITIONS, _Defaults, _LOGGING, _MAKING_WORDS, _MATCH, _PROBE_WORDS, _SCOPES, _SIMPLE, _TRY, _awaited, _bound,
    _callee, _constant, _dispatch_test, _dotted, _exit_status, _key_channel, _links, _parsed_number, _resolve)
from failcode.facts.stages import StageClassifier
from failcode.facts.vocabulary import fails_open, is_verdict_function
from failcode.facts.walk import child_nodes, walk
from failcode.model import Absence, StageCall
from failcode.names import segments


_APPENDS = ("append", "add", "extend", "put")


_FAIL_CLOSED = frozenset("password passwd token signature auth authenticate authorize authorized permission"
                         " permissions credential credentials hmac digest secret access allowed license licence"
                         .split())


_SEARCHES = frozenset("search match fullmatch findall".split())


_FAIL_OPEN = re.compile(r"fail_?(open|closed)", re.IGNORECASE)  # a guard whose failure policy is a setting


# Protocol methods whose False on an exception is what the protocol asks (`__eq__` of an unlike
# object); `__call__`, `__getitem__` or `__bool__` are code like any other
_PROTOCOL = frozenset("__eq__ __ne__ __lt__ __le__ __gt__ __ge__ __contains__ __hash__ __instancecheck__"
                      " __subclasscheck__".split())


@lru_cache(maxsize=65536)
def _exempt(name: str) -> bool:
    """`__eq__` returning False on an exception is the protocol; an access check that fails closed
    (`verify_password`, `compare_digest`) answers "no" to what it cannot check, rightly."""
    return name in _PROTOCOL or bool(_FAIL_CLOSED.intersection(segments(name)))


def _dispatch(statement: ast.stmt, before: tuple[Optional[str], int]) -> tuple[Optional[str], int]:
    """Carries a dispatch across consecutive `if r == "A": return …` statements, or the links of one
    `if r == "A": return … elif r == "B": return …` chain with no `else`: after two tests or more,
    a `return` is what a reply no branch matched gets."""
    links = _links(statement) if isinstance(statement, ast.If) else []
    if not links or links[-1].orelse or not all(link.body and isinstance(link.body[-1], ast.Return) for link in links):
        return None, 0
    subjects = {_dispatch_test(link.test) for link in links}
    if len(subjects) != 1 or None in subjects:
        return None, 0
    subject, count = subjects.pop(), len(links)
    return subject, before[1] + count if before[0] == subject else count


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


def _asks_how_it_ended(value: ast.expr, workers: set[str]) -> bool:
    """`not thread.is_alive()`, `p.exitcode == 0`: a value that asks a worker whether, or how, it ended."""
    return any(isinstance(node, ast.Attribute) and node.attr in ("is_alive", "exitcode")
               and isinstance(node.value, ast.Name) and node.value.id in workers for node in walk(value))


def _reads_reply(value: ast.expr, remote: set[str], answered: set[str]) -> bool:
    """What a reply says: read by a method (`response.json()`) from what another package's call
    returned (`remote`), or a part of such a reading (`data["info"]["version"]`)."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and isinstance(value.func.value, ast.Name) \
            and value.func.value.id in remote:
        return True
    while isinstance(value, (ast.Attribute, ast.Subscript)):
        value = value.value
    return isinstance(value, ast.Name) and value.id in answered


class Scan(FailurePaths, Branches, Channels, Attempts, Provenance, Defaults, Blames, Tallies, Commands, Survivors,
           Replies, RecordFields, Raising):
    """One function's writes and blames, by one walk of its statements (nested definitions are
    their own scans)."""

    def __init__(self, qualname: str, function, imports: dict[str, str], stages: StageClassifier,
                 foreign: frozenset[str] = frozenset(), methods: frozenset[str] = frozenset(),
                 constants: Optional[dict[str, str]] = None,
                 definitions: Optional[dict[str, ast.AST]] = None, bases: tuple[str, ...] = ()) -> None:
        self.qualname, self.function = qualname, function
        self.bases = bases  # the last names of its class's bases (`("Toolkit",)`)
        self.constants = constants or {}
        self.definitions = definitions or {}  # the file's module-level functions, by name
        self.foreign, self.methods = foreign, methods
        self.manages_context = any((_dotted(d) or "").endswith("contextmanager") for d in function.decorator_list)
        self.blames: list[_PendingBlame] = []
        name = qualname.rpartition(".")[2]
        self.exempt = _exempt(name)
        self.judges = is_verdict_function(name)
        words = segments(name)  # `does_file_exist`: a lookup's answer; `ensure_dir_exists` is none
        self.probes = not _PROBE_WORDS.isdisjoint(words) and _MAKING_WORDS.isdisjoint(words)
        self.imports = imports
        self.stages = stages
        self.compared: dict[str, ast.AST] = {}  # local name → the compare whose result it holds
        self.statuses: dict[str, ast.expr] = {}  # local name → the process whose exit status it holds
        self.fetched: set[str] = set()  # local names bound to a call's result (a lookup, a reply)
        self.remote: set[str] = set()  # … to what another package's code returned (`response = requests.get(…)`)
        self.answered: set[str] = set()  # … to what a reply says (`data = response.json()`, `latest = data["version"]`)
        self.searched: set[str] = set()  # … to a pattern's search of a text (`m = PATTERN.search(reply)`)
        self.searched_answer: set[str] = set()  # … of those, the searches of the candidate's text alone
        self.dicts: dict[str, ast.Dict] = {}  # local name → the dict literal it was last bound to
        self.records: dict[str, ast.Call] = {}  # local name → the call that built it (`fallback = Result(…)`)
        self._lenient: Optional[bool] = None
        self.parsed: set[str] = set()  # local names holding a score a judging function parsed
        self.fallen: dict[str, _Pending] = {}  # local name → the default it holds for a reply with no answer
        self.markers: set[tuple[str, str]] = set()  # (channel, default) the code tests for: its "no answer"
        self.named: dict[str, _Pending] = {}  # … of those, the defaults of what a parsed reply holds
        self.read: set[str] = set()  # local names bound to a read stage's result (`data = json.loads(reply)`)
        self.survivors: dict[str, bool] = {}  # … to the items of a collection whose work did not fail (`Survivors`)
        self.weighed: set[int] = set()  # ids of the compares that judged a default (`choice == target`)
        self.looping = False  # inside a `while` loop: polling until something is ready
        self.trying = 0  # inside a try body (how deep): a handler stands in for what it computes
        self.bound_in: dict[int, frozenset[str]] = {}  # id of a statement → the names it binds, deep
        self.workers: set[str] = set()  # local names bound to a child process or thread (`p = Process(…)`)
        self.commands: dict[str, ast.Call] = {}  # local name → the command it runs (`proc = subprocess.Popen(…)`)
        self.outputs: dict[str, tuple[str, frozenset[str]]] = {}  # local name → the command and streams it holds
        # tests of whether a command printed anything: the test, the command's name, its call (None
        # for the result of another call, found when asked), the streams tested
        self.output_tests: list[tuple[ast.If, str, Optional[ast.Call], frozenset[str]]] = []
        self.output_verdicts: list[tuple[ast.Call, str, ast.Call]] = []  # our verdicts on what a command printed
        self.joined: Optional[tuple[str, int]] = None  # the worker last waited on (`p.join(10)`), and where
        self.asked: set[str] = set()  # local names holding how a worker ended (`done = not t.is_alive()`)
        self.writes: list[_Pending] = []
        # a fallback's record that names a failure in a field (`reason=f"judge error: {e}"`), with the
        # (record, field) pairs that name it; and the pairs genuine writes fill: `Channels.write`
        self.explained: list[tuple[_Pending, frozenset[tuple[str, str]]]] = []
        self.described: set[tuple[str, str]] = set()
        self.raised = _Raised()  # the function's raises of a new error, for `Raising.raises_causes`
        # local name → our function whose result it holds: its last name, or `Class.method` for the class's own
        self.results: dict[str, str] = {}
        self.absences: list[Absence] = []  # tests that say why our function gave nothing back
        self.starts_program = False  # starts a program outside any try of its own (`Commands.started`)
        self.gives_reply = False  # a genuine return reads a model's or service's reply (`Replies.note_answer`)
        self.tallies: list[tuple] = []  # (node, owner, members sorted, members named, scores) of each tally
        self.chained: set[int] = set()  # ids of the `elif`s of a chain already read as a tally
        self.nested: list[ast.stmt] = []  # definitions met on the walk, scanned on their own
        self.walked = not self.exempt
        self.tried: dict[int, tuple[StageCall, ...]] = {}  # stages of each try a fallback stands in for
        self._candidates: Optional[frozenset[str]] = None  # parameters holding the evaluated output
        self._origins = None  # (parameters, name → its bindings: line, the parameters bound), built on first need
        self._sides = None  # (reads inside a try with what they read, parameters read outside every try), on first need
        self._exposed_calls: dict[str, frozenset[str]] = {}  # our function called outside every try → what it is given
        if self.walked:
            self.block(function.body, _Context())

    def contested(self) -> list[_Pending]:
        """The writes of channels that carry both a verdict and a fallback, less the fallbacks to a
        value the code tests for as its "no answer" marker (`judged_default`); a guard's fallback
        that lets content through; a command's unread exit status."""
        told = {id(write) for write, fields in self.explained if not fields <= self.described}
        writes = [w for w in self.writes if id(w) not in told
                  and (w.role != "fallback" or (w.channel, w.values[0]) not in self.markers)]
        roles: dict[str, set[str]] = {}
        for write in writes:
            roles.setdefault(write.channel, set()).add(write.role)
        return [w for w in writes if len(roles[w.channel]) == 2
                or fails_open(w) and not self.lenient] + self.unread_statuses()

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

    def block(self, body: list[ast.stmt], context: _Context, standing: Optional[_Defaults] = None,
              after: tuple[ast.stmt, ...] = ()) -> None:
        """The statements of a block on one path. `standing`: the defaults written before the block
        (`passed = False`) that nothing has overwritten yet; `after`: what runs after the block."""
        dispatch: tuple[Optional[str], int] = (None, 0)  # the `if r == "A": return` run before
        defaults: _Defaults = dict(standing or {})
        for index, statement in enumerate(body):
            rest = (*body[index + 1:], *after)
            if isinstance(statement, ast.Return) and dispatch[1] >= 2 and self.judges \
                    and dispatch[0] not in self.candidates():
                self.statement(statement, self.unknown_reply(statement, dispatch[0], context))
            elif _TRY and isinstance(statement, _TRY):
                self.try_statement(statement, context, body, defaults, rest)
                if context.fallback is None and not context.silent:
                    self.fell_through(statement, body[index + 1:])
            elif isinstance(statement, ast.If):
                self.tallied(statement)
                if self.commands or self.fetched:
                    self.judged_by_output(statement, rest)
                self.branch(statement, context, defaults, rest)
                context = self.guarded(statement, context)
            else:
                if isinstance(statement, ast.For):
                    self.tallied(statement)
                elif isinstance(statement, ast.Return) and self.commands:
                    self.returned_verdict(statement)
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

    def statement(self, node: ast.stmt, context: _Context) -> None:
        """A statement other than `if` and `try` (`block` takes those, with what follows them)."""
        if isinstance(node, _DEFINITIONS):
            self.nested.append(node)
            return
        if isinstance(node, ast.Return):
            if node.value is not None:
                self.started(node.value)
                self.write("return", node.value, context, top=True)
                if context.fallback is None and not context.silent and not self.gives_reply:
                    self.note_answer(node.value)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            if node.value is not None:
                self.started(node.value)
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    self.assign(target, node.value, context)
        elif isinstance(node, ast.Expr):
            self.started(node.value)
            self.expression_statement(node.value, context)
        elif isinstance(node, ast.Raise):
            self.raise_statement(node)
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith)):
            for item in getattr(node, "items", ()):
                self.started(item.context_expr)
                if isinstance(item.optional_vars, ast.Name):
                    self.ran(item.optional_vars.id, item.context_expr)  # `with subprocess.Popen(…) as proc:`
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
            for names in (self.fetched, self.answered, self.remote, self.parsed, self.searched, self.searched_answer,
                          self.read):
                names.discard(name)
            survived = self.survived(inner)  # before `name` is rebound: `scores = [s for s in scores if …]`
            for table in (self.compared, self.dicts, self.records, self.statuses, self.results, self.survivors):
                table.pop(name, None)
            self.bound_text(name, value)
            if self.our_function(inner) is not None:  # `agent = get_agent(id)`, `agent = store.get_agent(id)`
                self.results[name] = self._relayed_from(inner)  # `self._lookup(id)`: `Store._lookup`
            process = _exit_status(inner)
            if process is not None:
                self.statuses[name] = process  # `code = proc.returncode`
            if self.workers and _asks_how_it_ended(value, self.workers):
                self.asked.add(name)  # `completed = not thread.is_alive()`, kept whatever else an `else` binds
            self.ran(name, value)
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
                last = (callee or "").rpartition(".")[2]
                if last.endswith(("Process", "Thread")):
                    self.workers.add(name)
                if last in _SEARCHES:
                    self.searched.add(name)  # `m = re.search(…)`: a reply searched for its answer
                    # the text searched: `re.search(pattern, text, …)`, `PATTERN.search(text, …)`
                    module = isinstance(inner.func, ast.Attribute) and self.is_module(inner.func.value)
                    text = inner.args[1 if module else 0:][:1] if self.candidates() else []
                    if text and self.as_given(text[0]) in self.candidates():
                        self.searched_answer.add(name)  # … of the candidate's own text (principle 1)
            elif isinstance(inner, ast.Dict):
                self.dicts[name] = inner
            elif survived is not None:
                self.survivors[name] = survived  # `rewards = [r.reward for r in results if r.error is None]`
            judging = self.judges or is_verdict_function(name)
            verdict = self.verdict(value, judging=judging)
            if verdict is None and isinstance(inner, ast.IfExp) and self.constant(inner.body) is not None \
                    and self.constant(inner.orelse) is not None:
                # `score = 1.0 if matches else 0.0`: the name holds the verdict the compare decides,
                # wherever it is written next (`return GradeResult(score=score, …)`)
                verdict = self.deciding(inner.test, judging)
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
        elif isinstance(target, ast.Tuple) and self.commands:
            self.communicated(target, value)
        elif isinstance(target, ast.Attribute):
            dotted = _dotted(target)
            if dotted is not None:
                self.write(dotted, value, context, top=True)  # `score.value = {"accuracy": …}`: a key channel each
        elif isinstance(target, ast.Subscript):
            base = _dotted(target.value)
            if base is not None:
                key = target.slice.value if isinstance(target.slice, ast.Constant) else None
                self.write(f"{base}[{key!r}]" if isinstance(key, str) else f"{base}[]", value, context, top=True)

    def expression_statement(self, value: ast.expr, context: _Context) -> None:
        if isinstance(value, ast.Await):
            value = value.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "join" \
                and isinstance(value.func.value, ast.Name) and value.func.value.id in self.workers:
            self.joined = (value.func.value.id, value.lineno)
        if isinstance(value, ast.Yield) and value.value is not None:
            self.write("yield", value.value, context, top=True)  # a generator's answers, one per item
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                and value.func.attr in _APPENDS and len(value.args) == 1 and not value.keywords:
            receiver = _dotted(value.func.value)
            if receiver is not None:
                self.write(f"{receiver}.{value.func.attr}", value.args[0], context)
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "update":
            receiver = _dotted(value.func.value)  # `result.update({"correct": ok})`, `result.update(correct=ok)`
            if receiver is not None:
                if len(value.args) == 1 and isinstance(value.args[0], ast.Dict):
                    self.write(receiver, value.args[0], context, top=True)
                for keyword in value.keywords:
                    if keyword.arg is not None:
                        self.write(f"{receiver}[{keyword.arg!r}]", keyword.value, context)
