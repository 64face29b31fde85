"""Where a value comes from, traced through assignments: the evaluated candidate's own output (a
parameter), a reply of another package's code, or our own code. "Whose failure": a failure only
the candidate's output can cause is the verdict working, not a fallback.
"""

from __future__ import annotations

import ast
import sys
from typing import Optional

from failcode.facts.outcomes.syntax import (
    _BUILTINS, _LOGGING, _SCOPES, _TRY, _awaited, _callee, _nodes, _parameters, _read_from, _resolve)
from failcode.facts.vocabulary import is_candidate_name, is_reference_name
from failcode.facts.walk import walk
from failcode.names import segments


_STDLIB = frozenset(getattr(sys, "stdlib_module_names", ())) or frozenset(
    "os io sys pathlib shutil subprocess socket importlib json glob tempfile stat time".split())  # Python 3.9


# The standard library's modules whose calls reach another process or host: what those answer is a reply
_REACHING = frozenset("urllib http socket ssl smtplib ftplib poplib imaplib xmlrpc subprocess asyncio multiprocessing"
                      " concurrent".split())


# Calls that do not fail on data of the right kind: what they are given cannot make a harness failure
_SAFE_CALLS = frozenset("len any all type str repr isinstance issubclass id hash min max sum abs round sorted list tuple"
                        " set dict frozenset keys values items count startswith endswith join split strip lstrip"
                        " rstrip lower upper casefold get append add extend replace enumerate zip range".split())


# A function that reads a judge's, grader's or critic's reply: its input is the harness's, not the candidate's
_HARNESS_REPLY = frozenset("judge judgment judgement grader critic critique evaluator rater".split())


_ERROR_CLASSES = ("Error", "Exception", "Warning")


def _arguments(call: ast.Call) -> list[ast.expr]:
    return [*call.args, *(k.value for k in call.keywords)]


def _method(node: ast.Call) -> str:
    """The called function's own name, also on a receiver no dotted name spells (`entry["pieces"].items()`)."""
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return (_callee(node) or "").rpartition(".")[2]


class Provenance:
    """Part of `Scan`: the origins of values: candidate parameters, replies, our own calls."""

    def candidate_only(self, attempt) -> bool:
        """Whether only the evaluated candidate's own output can fail in the try: every call in it
        that can fail (not `len`, `str`, `sorted`, …) works on data the candidate parameter gave:
        another package's function given only that data (`json.loads(answer)`), or a method of
        that data (`answer.split(",")`). A method of any other object (`sandbox.run(…)`,
        `self.client.ask(…)`) is the harness at work, and so is a helper of ours, whose bug would
        read as the candidate's, unless it parses only that data (`self._parse_grid(answer)`).
        `any`, `all` and the like only iterate: what fails in them is walked on its own. Then the
        handler's "wrong" is the
        right verdict on an answer that cannot be parsed or run; when the try also parses the
        reference, reads a file or asks a judge, a failure there is the harness's and the fallback
        a hazard. On the tune split, the findings this quiets were judged false or debatable: the
        model's unparseable answer scored wrong."""
        candidates = self.candidates() or self.tried_side(attempt)
        if not candidates:
            return False
        for node in _nodes(attempt.body, prose=False):
            if not isinstance(node, ast.Call) or not self.can_fail(node):
                continue  # `len`, a read of a literal, a log line, an error built to be raised
            given = self.given(node)
            if self.is_own_call(node):
                if given and given <= candidates and (self.parses(node) or self.run_exposed(node, candidates)):
                    continue  # our own parser, given only the answer: what fails there is the answer
                return False  # our own helper: a bug there is the harness's
            receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
            if receiver is not None and not self.is_module(receiver):
                given |= self.origins([receiver]) or {"<tool>"}  # `sandbox.run(…)`, `self.client.ask(…)`
            if not given or not given <= candidates:
                return False
        return True

    def run_exposed(self, call: ast.Call, candidates: frozenset[str]) -> bool:
        """Our own helper, which the function also runs outside every try on another side's data
        (`sym_prog1 = symbol_recur(steps[-1], step_dict_1)` on the reference, then `try: sym_prog2
        = symbol_recur(steps[-1], step_dict_2)` on the prediction): a bug of the helper's would
        fail there, unguarded, so what the try adds is the candidate's data, as for a parser."""
        self.sides()
        other = self._exposed_calls.get(_callee(call) or "")
        return bool(other) and other.isdisjoint(candidates)

    def can_fail(self, node: ast.Call) -> bool:
        """A call that can fail on the data it is given: not `len`, `str`, `sorted`, a read of a
        literal, a log line or an error built to be raised."""
        method = _method(node)
        return method not in _SAFE_CALLS and method not in _LOGGING and not method.endswith(_ERROR_CLASSES) \
            and not self.reads_a_literal(node)

    def reads_a_literal(self, node: ast.Call) -> bool:
        """`Decimal("0.01")`, `float("inf")`: a read of text written in the code fails on no one's data."""
        arguments = _arguments(node)
        return bool(arguments) and all(isinstance(a, ast.Constant) for a in arguments) \
            and self.stages.classify(_resolve(_callee(node) or "", self.imports)) == "read"

    def given(self, call: ast.Call) -> frozenset[str]:
        """The parameters a call's arguments come from."""
        return self.origins(_arguments(call))

    def parses(self, node: ast.Call) -> bool:
        """A call the stage table calls a read (`parse_board(answer)`, `self._parse_grid(answer)`: a
        private parser is a parser): given only the candidate's output, what fails there is that
        output. The leading underscore is dropped here, not in the stage table: there it would make
        more private calls stages for FC002 and FC003 too (measured: 4 more tune findings, in trace
        filters and a browser tool, none an outcome), which this question does not need."""
        head, _, last = _resolve(_callee(node) or "", self.imports).rpartition(".")
        return self.stages.classify(f"{head}.{last.lstrip('_')}" if head else last.lstrip("_")) == "read"

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
                # none or two of them (`math_score(answer, response)`, `equal_program(p1, p2)`): the
                # one side the function reads only inside a try, where another is read unguarded
                found = found if len(found) == 1 else self.guarded_side()
            self._candidates = found if len(found) == 1 else frozenset()
        return self._candidates

    def tried_side(self, attempt) -> frozenset[str]:
        """When the parameter names do not say which side is the candidate, the one side this try
        guards, in a function that reads another side unguarded (`expected =
        int(re.search(…, answer).group(1))`, then `try: result = eval(response_text.split("=")[0])`):
        what the code tries is what it does not trust, as `guarded_side` says of the whole function,
        where here the tried side may also be read outside the try: the other side is never read
        inside one. Empty when the try reads two sides, or none, or one named as the reference (`expected`),
        or when no other side is read unguarded. An unnamed reference the code distrusts more than
        the candidate's output would be taken for the candidate: the code's own guard is the
        evidence, as it is for `guarded_side`."""
        if len(_parameters(self.function)) < 2 or _HARNESS_REPLY.intersection(segments(self.qualname.rpartition(".")[2])):
            return frozenset()  # one side, or none: nothing to tell apart
        # this try's sides first: most tries read none or two, and the whole function's reads
        # (`sides`) are then never needed
        here = frozenset().union(*(given for node in _nodes(attempt.body, prose=False)
                                   for given in [self.read_sides(node)] if given is not None))
        if len(here) != 1 or is_reference_name(next(iter(here))):
            return frozenset()  # a try around the reference named so guards the harness's data
        tried, exposed = self.sides()
        return here if exposed - here - frozenset().union(*(given for _, given in tried)) else frozenset()

    def sides(self) -> tuple[list[tuple[ast.AST, frozenset[str]]], frozenset[str]]:
        """The reads that can fail on a parameter's data, each with the parameters it reads: those
        inside a try, and the parameters read by one outside every try; built once per function
        (`guarded_side` and each try's `tried_side` read it), with the parameters each of our own
        functions is given outside every try (`run_exposed`)."""
        if self._sides is not None:
            return self._sides
        inside: set[int] = set()
        for node in _nodes(self.own_statements, prose=False):
            if isinstance(node, _TRY):
                inside.update(id(part) for part in _nodes(node.body, prose=False))
        tried: list[tuple[ast.AST, frozenset[str]]] = []
        exposed: set[str] = set()
        calls: dict[str, frozenset[str]] = {}
        for node in _nodes(self.own_statements, prose=False):
            given = self.read_sides(node)
            if given is None:
                continue
            if id(node) in inside:
                tried.append((node, given))
            else:
                exposed.update(given)
                if self.is_own_call(node):
                    callee = _callee(node) or ""
                    calls[callee] = calls.get(callee, frozenset()) | given
        self._sides = (tried, frozenset(exposed))
        self._exposed_calls = calls
        return self._sides

    def read_sides(self, node: ast.AST) -> Optional[frozenset[str]]:
        """The parameters a read that can fail on their data reads (a call, with its receiver, or
        an index: `step.split("(")[1]` may not have one); None for a node that is no such read. A
        class called builds a record of what it is given (`Score(prediction=…)`), reading nothing."""
        if isinstance(node, ast.Call) and self.can_fail(node) and not _method(node)[:1].isupper():
            receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
            return self.given(node) | (self.origins([receiver]) if receiver is not None else frozenset())
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice) and isinstance(node.ctx, ast.Load):
            return self.origins([node.value])
        return None

    def guarded_side(self) -> frozenset[str]:
        """The parameter whose data the function reads only inside a try, when another parameter's
        data is read outside every try (`program1.split(")")[1]` of the reference, then `try: …
        int(arg.strip("#"))` of the other program): a failure on the unguarded side would
        propagate, so the code guards the input it does not trust, the evaluated candidate's.
        Empty when no side, or more than one, is read that way, or when that side is named as the
        reference (`reference`, `expected`): a try around it guards the harness's data."""
        tried, exposed = self.sides()
        only = frozenset().union(*(given for _, given in tried)) - exposed
        return only if len(only) == 1 and exposed and not is_reference_name(next(iter(only))) else frozenset()

    @property
    def own_statements(self) -> list[ast.stmt]:
        """The function's statements less the functions and classes it defines, which run later."""
        return [statement for statement in self.function.body if not isinstance(statement, _SCOPES)]

    def as_given(self, node: ast.expr) -> Optional[str]:
        """The parameter a value is, as the function was given it: the parameter itself, not rebound
        before, or a method chain or index on it (`answer.strip().lower()`, `answer[0]`); None for
        anything another call made of it (`reply = self.judge.ask(answer)`)."""
        node = _read_from(node)
        if not isinstance(node, ast.Name) or node.id not in _parameters(self.function):
            return None
        rebound = any(at < node.lineno for at, _ in self.bindings()[1].get(node.id, ()))
        return None if rebound else node.id

    def origins(self, nodes: list[ast.expr]) -> frozenset[str]:
        """The parameters the values come from, through the function's assignments: at each use, the
        latest binding of the name on an earlier line (`steps = program1.split(")")` … `steps =
        program2.split(")")`: the second use is the second program's), or every binding when none
        comes before it (a loop may assign after)."""
        params, table = self.bindings()
        found: set[str] = set()
        for node in nodes:
            found |= self._names_origins(node, params, table, table)
        return frozenset(found)

    def bindings(self) -> tuple[frozenset[str], dict[str, list[tuple[int, frozenset[str]]]]]:
        """The function's parameters, and each name's bindings in line order with the parameters
        each bound value comes from; built on first need."""
        if self._origins is None:
            params = frozenset(_parameters(self.function))
            table: dict[str, list[tuple[int, frozenset[str]]]] = {}
            assignments = [node for node in _nodes(self.own_statements, prose=False)
                           if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr, ast.For,
                                                ast.AsyncFor, ast.comprehension))]
            assignments.sort(key=lambda node: getattr(node, "lineno", 0) or getattr(node.target, "lineno", 0))
            for _ in range(2):  # a second pass carries what a later assignment feeds an earlier one
                bound: dict[str, list[tuple[int, frozenset[str]]]] = {}
                for node in assignments:
                    value = node.iter if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)) else node.value
                    if value is None:
                        continue
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    came = frozenset(self._names_origins(value, params, bound, table))
                    if isinstance(node, ast.AugAssign):  # `total += x`: what it held stays in it
                        came |= self._names_origins(node.target, params, bound, table)
                    line = targets[0].lineno
                    for target in targets:
                        for name in walk(target):
                            if isinstance(name, ast.Name):
                                bound.setdefault(name.id, []).append((line, came))
                table = bound
            self._origins = (params, table)
        return self._origins

    @staticmethod
    def _names_origins(node: ast.expr, params, table, later) -> set[str]:
        """The parameters a value comes from; `self`, modules and globals are the function's tools
        and settings, not data it was given. `table` holds the bindings on earlier lines, `later`
        every binding (of the pass before, while the table is built)."""
        found: set[str] = set()
        for part in walk(node):
            if isinstance(part, ast.Name):
                before = [came for at, came in table.get(part.id, ()) if at < part.lineno]
                if before:
                    found |= before[-1]
                elif part.id in params:
                    found.add(part.id)  # the value it was given, before any rebinding
                else:
                    found.update(*(came for _, came in later.get(part.id, ())))  # bound later: a loop's next round
        return found

    def local(self, call: ast.Call) -> bool:
        """A call of a builtin or of the standard library (`open(p)`, `os.stat(p)`, `Path(p)`)."""
        root = (_callee(call) or "").partition(".")[0]
        if not root:
            return False  # `client.get(x).json()`, `factory()(x)`: a call on what another returned
        if root in self.imports:
            return self.imports[root].split(".")[0] in _STDLIB
        return root in _BUILTINS

    def computes(self, call: ast.Call) -> bool:
        """A call of a builtin or of the standard library that reaches no other process or host
        (`json.loads(s)`, `datetime.strptime(s, fmt)`, not `urllib.request.urlopen(url)`): what it
        answers is worked out from what it is given."""
        if not self.local(call):
            return False
        root = (_callee(call) or "").partition(".")[0]
        return self.imports.get(root, root).split(".")[0] not in _REACHING

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

    def ours(self, node: ast.Call) -> bool:
        """A function of a module of our own package, called through the module (`process._exec_cmd(…)`
        after `from mlflow.utils import process`): its summary is our function's, as a bare call's."""
        root, _, rest = (_callee(node) or "").partition(".")
        return bool(rest) and "." not in rest and root in self.imports and root not in self.foreign \
            and not root[:1].isupper()

    def our_function(self, node: ast.AST) -> Optional[str]:
        """The last name of the function of ours a call calls: bare, a method of this class, or
        through a module of our package (`get_agent(id)`, `self._probe()`, `store.get_agent(id)`);
        None for any other node."""
        if self.is_own_call(node) or isinstance(node, ast.Call) and self.ours(node):
            return (_callee(node) or "").rpartition(".")[2] or None
        return None

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
