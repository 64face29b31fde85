"""A child process judged by its output alone: a command whose exit status nothing reads, and whose
output, empty or not, decides how the work ended (`if len(stderr) == 0: return TextArtifact(out)`,
`if not errors: return  # clean`).

A process answers "did it work?" with its exit status; its output is whatever it printed. Judged by
its output, a linter that crashed before printing reads as a clean file, a tool that writes warnings
to stderr and succeeds reads as a failure, and a command that is not installed reads as whatever
an empty output means. Only a test of whether it wrote to stderr stands in for its exit status
("no complaint, so it worked"); whether it wrote to stdout, or what it wrote (`"true" in out`),
is the answer to a question it was asked (`git rev-parse` prints the commit, or nothing), until
our own function turns it into a verdict (`return _parse_mypy_output(result.stdout)`, which
returns `len(errors) == 0`): then the tool's silence after a crash is "no errors".
"""

from __future__ import annotations

import ast
from typing import Optional

from failcode.causes import PROGRAM_STARTS
from failcode.facts.outcomes.provenance import _method
from failcode.facts.outcomes.records import _Pending
from failcode.facts.outcomes.syntax import (_always_leaves, _awaited, _callee, _exit_status, _leaves, _nodes, _resolve,
                                            _sized)
from failcode.facts.walk import walk

# The calls that start a child process and leave its exit status to the caller (`run` returns it on
# the result, `Popen` and asyncio's process hold it): the concept "a process's answer is its exit
# status". `check_call` and `check_output` raise on it, `call` returns nothing else, and `run(…,
# check=True)` reads it for the caller.
_COMMANDS = frozenset({"subprocess.run", "subprocess.Popen", "asyncio.create_subprocess_exec",
                       "asyncio.create_subprocess_shell"})
_STARTS = frozenset(name.rpartition(".")[2] for name in _COMMANDS)
_PROGRAM_START_NAMES = frozenset(name.rpartition(".")[2] for name in PROGRAM_STARTS)  # checked before resolving
_STREAMS = frozenset({"stdout", "stderr"})
# The fields that name a process's two streams on the result of a call of unknown kind: the
# concept "what a process printed", spelled out (`result.stderr`) or short (`c.err` beside `c.out`).
_RESULT_STREAMS = frozenset({"stdout", "stderr", "out", "err"})
_ERROR_STREAMS = frozenset({"stderr", "err"})
_AS_TEXT = frozenset("strip rstrip lstrip decode".split())  # what leaves an output as empty as it was


def _turned_on(call: ast.Call, option: str) -> bool:
    """The call passes `option` a value that is not a false constant (`check=True`, `shell=use_shell`)."""
    return any(keyword.arg == option and not (isinstance(keyword.value, ast.Constant) and not keyword.value.value)
               for keyword in call.keywords)


class Commands:
    """Part of `Scan`: the commands of a function, the names holding their output, and the tests of
    that output that decide an outcome."""

    def starts(self, value: ast.expr) -> bool:
        """`subprocess.run([...])`, `await asyncio.create_subprocess_exec(...)`: a call that starts a
        program by its name, not through a shell (causes.PROGRAM_STARTS)."""
        inner = _awaited(value)
        return isinstance(inner, ast.Call) and _method(inner) in _PROGRAM_START_NAMES \
            and _resolve(_callee(inner) or "", self.imports) in PROGRAM_STARTS and not _turned_on(inner, "shell")

    def started(self, value: ast.expr) -> None:
        """Notes that the function starts a program outside any try of its own: whatever starting
        it raises reaches its callers (`Raising.raises_causes`)."""
        if not self.trying and not self.starts_program and self.starts(value):
            self.starts_program = True

    def command(self, call: ast.expr) -> bool:
        """A call of `_COMMANDS` (`subprocess.run(…)`, `asyncio.create_subprocess_exec(…)`), however imported."""
        return isinstance(call, ast.Call) and _method(call) in _STARTS \
            and _resolve(_callee(call) or "", self.imports) in _COMMANDS

    def ran(self, name: str, value: ast.expr) -> None:
        """Notes `name` bound to a command (`proc = subprocess.Popen(…)`, `result =
        subprocess.run(…)` without `check=True`) or to its output (`out = result.stdout.decode()`,
        `errors = result.stdout + result.stderr`)."""
        if self.commands:
            self.commands.pop(name, None)
            self.outputs.pop(name, None)
        inner = _awaited(value)
        if self.command(inner):
            if not _turned_on(inner, "check"):
                self.commands[name] = inner
            return
        output = self.output_of(value) if self.commands or self.fetched else None
        if output is not None:
            self.outputs[name] = output

    def communicated(self, target: ast.Tuple, value: ast.expr) -> None:
        """`out, err = proc.communicate()`, awaited or not: the names hold its stdout and stderr."""
        inner = _awaited(value)
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr == "communicate" \
                and isinstance(inner.func.value, ast.Name) and inner.func.value.id in self.commands:
            for element, stream in zip(target.elts, ("stdout", "stderr")):
                if isinstance(element, ast.Name):
                    self.outputs[element.id] = (inner.func.value.id, frozenset({stream}))

    def output_of(self, node: ast.expr) -> Optional[tuple[str, frozenset[str]]]:
        """The command whose output an expression is, as empty as that output, and its streams:
        `result.stderr`, `err.strip()`, `result.stdout + result.stderr`, or a name bound to one."""
        while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _AS_TEXT:
            node = node.func.value
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.output_of(node.left), self.output_of(node.right)
            return (left[0], left[1] | right[1]) if left is not None and right is not None and left[0] == right[0] \
                else None
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.attr in _STREAMS and node.value.id in self.commands:
                return node.value.id, frozenset({node.attr})
            return (node.value.id, frozenset({node.attr})) if node.attr in _RESULT_STREAMS \
                and node.value.id in self.fetched else None
        return self.outputs.get(node.id) if isinstance(node, ast.Name) else None

    def judged_by_output(self, node: ast.If, rest: tuple[ast.stmt, ...]) -> None:
        """Notes an `if` that asks whether a command wrote to stderr (`if len(stderr) == 0:`, `if
        not errors:` of `stdout + stderr`, `if err.strip():`) and takes a different way on each
        answer: an arm that leaves, or an `else`. Not one whose every arm raises (`if stderr: raise
        Exception(f"kubectl error: {stderr}") else: raise Exception("pattern not detected")`):
        the command's run is a failure either way, and the test only words the error. Nor one whose
        arm returns what the return after it does (`if result.stderr: return False, f"Execution
        error: {result.stderr}"` before `return False, "No test results found"`): the same.
        `rest`: what runs after the `if`."""
        output = self.output_of(_emptiness(node.test))
        raises = (ast.Raise,)
        if output is not None and not _ERROR_STREAMS.isdisjoint(output[1]) \
                and (output[0] in self.commands or output[0] in self.fetched) \
                and (node.orelse or _leaves(node.body)) \
                and not (_always_leaves(node.body, raises) and _always_leaves(node.orelse, raises)) \
                and not (not node.orelse and _same_answer(node.body, rest[:1])):
            self.output_tests.append((node, output[0], self.commands.get(output[0]), output[1]))

    def returned_verdict(self, statement: ast.Return) -> None:
        """Notes `return _parse_mypy_output(result.stdout)`: what a command printed, handed to a
        function of this file that decides a verdict from what it is given (it returns a compare,
        alone or first: `score = len(errors) == 0` … `return score, text`). Printed output is the
        answer to a question (module docstring) until it becomes a verdict: a type checker that
        crashed, or was called with an option it does not know, printed nothing, and "nothing to
        complain about" is then the verdict (issue 23, principle 5, with principle 2's summary of
        our own function)."""
        call = _awaited(statement.value)
        if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name) \
                or not _decides(self.definitions.get(call.func.id)):
            return
        for argument in call.args:
            output = self.output_of(argument)
            if output is not None and output[0] in self.commands:
                self.output_verdicts.append((call, output[0], self.commands[output[0]]))
                return

    def unread_statuses(self) -> list[_Pending]:
        """The tests of `judged_by_output`, and the verdicts of `returned_verdict`, whose command's
        exit status the function never reads (`proc.returncode`, `proc.wait()`,
        `result.check_returncode()`) and never hands on (returned, passed to a call, stored):
        nobody asks the process how it ended.

        The result of another call (`result = await sandbox.exec(…)`, our own `c = cmd.run(…)`)
        is a finished command's by its fields: the function asks it nothing but what it printed
        (any other field, `result.success`, `c.return_code`, may say how it ended), and a short
        `err` counts as the error stream only beside its `out` (alone it may be a result type's
        failure itself, which is what to test)."""
        if not self.output_tests and not self.output_verdicts:
            return []
        asked = set()
        fields: dict[str, set[str]] = {}
        bound: dict[str, list[ast.Call]] = {}  # a result's name → the calls it is bound to, in order
        for node in walk(self.function):
            process = _exit_status(node)
            if isinstance(process, ast.Name):
                asked.add(process.id)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "check_returncode" and isinstance(node.func.value, ast.Name):
                asked.add(node.func.value.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                fields.setdefault(node.value.id, set()).add(node.attr)
            else:
                asked.update(name.id for name in _handed_on(node))
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and isinstance(_awaited(node.value), ast.Call):
                bound.setdefault(node.targets[0].id, []).append(_awaited(node.value))
        found = []
        for test, process, call, streams in self.output_tests:
            answer = "status"
            if call is None:  # a result of another call, bound last before the test
                answer, read = "result", fields.get(process, set())
                call = max((c for c in bound.get(process, ()) if c.lineno <= test.lineno),
                           key=lambda c: c.lineno, default=None)
                # not a command run with check=True, which raises on its status for the caller
                if call is None or self.command(call) or not read <= _RESULT_STREAMS \
                        or "stderr" not in streams and "out" not in read:
                    continue
            if process in asked:
                continue
            found.append(_Pending(test.test, self.qualname, f"`{_callee(call) or _method(call)}(…)`", (answer,),
                                  "fallback", "unread-status", ("its exit status unread, decided by", test.test),
                                  test.lineno, (call.lineno, test.lineno)))
        for verdict, process, call in self.output_verdicts:
            if process not in asked:
                found.append(_Pending(verdict, self.qualname, f"`{_callee(call)}(…)`", ("verdict",), "fallback",
                                      "unread-status", ("its exit status unread, its output judged by", verdict),
                                      verdict.lineno, (call.lineno, verdict.lineno)))
        return found


def _emptiness(test: ast.expr) -> ast.expr:
    """What a test asks the emptiness of: `out` of `not out`, `out`, `out != ""`, and of its size
    asked the long way (`len(out) == 0`, `len(out) > 0`: `syntax._sized`); the test itself otherwise."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    sized = _sized(test)
    if sized is not None:
        return sized[0]
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq)):
        nothing = test.comparators[0]
        if isinstance(nothing, ast.Constant) and nothing.value in ("", b""):
            return test.left
    return test


def _same_answer(body: list[ast.stmt], after: tuple[ast.stmt, ...]) -> bool:
    """Every return of `body` answers first (alone, or first in a tuple) what the return `after` it
    does: the way through the block changes the words, not the answer."""
    answers = [_first(node.value) for node in _nodes(body) if isinstance(node, ast.Return)]
    then = _first(after[0].value) if after and isinstance(after[0], ast.Return) else None
    return then is not None and bool(answers) and all(answer is not None and ast.dump(answer) == ast.dump(then)
                                                      for answer in answers)


def _first(value: Optional[ast.expr]) -> Optional[ast.expr]:
    """What a return answers first: the value, or a tuple's first element."""
    return value.elts[0] if isinstance(value, ast.Tuple) and value.elts else value


def _decides(function: Optional[ast.AST]) -> bool:
    """A function that returns a compare, alone or first in a tuple, as written or through a name
    bound to one (`score = len(errors) == 0` … `return (score, text)`): it decides a verdict."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    compared = {node.targets[0].id for node in walk(function) if isinstance(node, ast.Assign)
                and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Compare)}
    for node in walk(function):
        if isinstance(node, ast.Return) and node.value is not None:
            value = node.value.elts[0] if isinstance(node.value, ast.Tuple) and node.value.elts else node.value
            if isinstance(value, ast.Compare) or isinstance(value, ast.Name) and value.id in compared:
                return True
    return False


def _handed_on(node: ast.AST) -> list[ast.Name]:
    """Names a node hands to other code whole: a call's arguments, a returned, yielded or stored value."""
    if isinstance(node, ast.Call):
        values = [*node.args, *(keyword.value for keyword in node.keywords)]
    elif isinstance(node, (ast.Return, ast.Yield, ast.Assign, ast.AnnAssign)) and node.value is not None:
        values = [node.value]
    elif isinstance(node, (ast.Tuple, ast.List)):
        values = list(node.elts)
    else:
        return []
    return [value for value in values if isinstance(value, ast.Name)]
