"""Shapes of `ast` nodes that every part of the scan reads: definitions and blocks, constants,
handlers that re-raise or narrow, names of calls, and positions.
"""

from __future__ import annotations

import ast
import builtins
from typing import Iterator, Optional

from failcode.facts.vocabulary import LOG_METHODS, TEXT_CALLS
from failcode.facts.walk import child_nodes, walk
from failcode.model import Pos
from failcode.names import FAILURE_WORDS, segments


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


_DEFINITIONS = (*_FUNCTIONS, ast.ClassDef)


_SCOPES = (*_DEFINITIONS, ast.Lambda)  # nodes whose insides run later, not as part of the statement


_TRY = tuple(getattr(ast, name) for name in ("Try", "TryStar") if hasattr(ast, name))


_MATCH = getattr(ast, "Match", ())


_NOWHERE = 10 ** 9


_LOGGING = LOG_METHODS | {"print"}


_EXPLAINING = FAILURE_WORDS | {"detail", "details", "message", "msg"}


_BUILTINS = frozenset(dir(builtins))


_SIMPLE = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Return, ast.Raise, ast.Pass, ast.Import,
           ast.ImportFrom, ast.Global, ast.Nonlocal, ast.Delete, ast.Assert, ast.Break, ast.Continue)


_REFERENCE = frozenset("expected gold golden reference references truth".split())


_Defaults = dict[str, tuple[int, ast.expr]]  # name → (line, constant): a default written before the work


# A name for asking whether something is there (`does_file_exist`, `path.exists()`): a lookup's
# answer, whose genuine "no" is the thing not being there.
_PROBE_WORDS = frozenset("exist exists present".split())
# Words for making it be there (`ensure_tmp_exists`, `create_if_not_exists`): such a function acts
# rather than asks, and its "no" is that it could not.
_MAKING_WORDS = frozenset("ensure create make".split())


def _text(node: ast.expr) -> Optional[str]:
    """The words of a message as written (`"…"`, an f-string with `{}` for its values, `"…" + x`,
    `"… %s" % x`, `"…".format(x)`); None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(part.value if isinstance(part, ast.Constant) else "{}" for part in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        left = _text(node.left)
        return left if left is not None else _text(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return _text(node.func.value)
    return None


def _parameters(function) -> list[str]:
    arguments = function.args
    return [a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)
            if a.arg not in ("self", "cls")]


def _positional(function: Optional[ast.AST]) -> tuple[str, ...]:
    """A function's parameters that take positional arguments, in order; none for no function."""
    if not isinstance(function, _FUNCTIONS):
        return ()
    return tuple(a.arg for a in (*function.args.posonlyargs, *function.args.args))


def _definitions(body: list[ast.stmt], prefix: str, methods: frozenset[str], bases: tuple[str, ...] = ()) \
        -> Iterator[tuple[str, ast.AST, frozenset[str], tuple[str, ...]]]:
    """The functions a module, class or function body defines (at any depth of its blocks, not
    inside other functions), with their qualified names, the methods of their class (what
    `self.x()` calls in this file; a class's own are its methods) and the last names of its bases
    (`class CalCom(Toolkit)`: `("Toolkit",)`)."""
    for node in body:
        if isinstance(node, _FUNCTIONS):
            yield prefix + node.name, node, methods, bases
        elif isinstance(node, ast.ClassDef):
            own = frozenset(item.name for item in node.body if isinstance(item, _FUNCTIONS))
            named = tuple((_dotted(base) or "").rpartition(".")[2] for base in node.bases)
            yield from _definitions(node.body, prefix + node.name + ".", own, named)
        else:
            yield from _definitions(_inner(_blocks(node)), prefix, methods, bases)


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


def _nothing_test(test: ast.expr) -> tuple[ast.expr, str, bool]:
    """(subject, nothing, missing) of a test of whether a value holds nothing: `x`, `not x`, `x is
    None`, `x is not None`, `x is False` (the subject may be a call: `not probe()`), and its size
    asked the long way, `len(x) == 0`, `len(x) > 0`, `not len(x)`: one question however it is
    spelled. `nothing` is what the test takes for nothing (`None`, `False`, or `falsy` for a truth
    test), `missing` is True for the arm (the `if` body) where the subject holds it."""
    missing, nothing = False, "falsy"
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, missing = test.operand, True
    sized = _sized(test)
    if sized is not None:
        return sized[0], nothing, missing != sized[1]
    other = test.comparators[0] if isinstance(test, ast.Compare) and len(test.ops) == 1 else None
    if isinstance(other, ast.Constant) and (other.value is None or other.value is False) \
            and isinstance(test.ops[0], (ast.Is, ast.IsNot)):
        nothing = repr(other.value)
        missing = missing != isinstance(test.ops[0], ast.Is)
        test = test.left
    return test, nothing, missing


def _counted(node: ast.expr) -> Optional[ast.expr]:
    """`x` of `len(x)`; None for anything else."""
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords and _callee(node) == "len":
        return node.args[0]
    return None


def _sized(test: ast.expr) -> Optional[tuple[ast.expr, bool]]:
    """(x, empty) for a test of `len(x)`: its truth, or a compare with 0 or 1 (`len(x) == 0`,
    `len(x) < 1`, `len(x) > 0`, `len(x) != 0`, `len(x) >= 1`); `empty` is True when the test holds
    for an empty `x`. None for any other test (`len(x) == 3` asks for a size, not for anything)."""
    counted = _counted(test)
    if counted is not None:
        return counted, False
    if not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return None
    counted = _counted(test.left)
    if counted is None:
        return None
    bound, op = _constant(test.comparators[0]), test.ops[0]
    if bound == "0.0" and isinstance(op, (ast.Eq, ast.LtE)) or bound == "1.0" and isinstance(op, ast.Lt):
        return counted, True
    if bound == "0.0" and isinstance(op, (ast.Gt, ast.NotEq)) or bound == "1.0" and isinstance(op, ast.GtE):
        return counted, False
    return None


def _absence(test: ast.expr) -> Optional[tuple[str, bool]]:
    """(name, missing) for `x`, `not x`, `x is None`, `x is not None`: `missing` is True for the
    arm where `x` holds nothing."""
    subject, nothing, missing = _nothing_test(test)
    return (subject.id, missing) if isinstance(subject, ast.Name) and nothing != "False" else None


def _name_of(node: ast.AST) -> Optional[str]:
    """The name a value goes by: a key (`case["expected"]`), a field (`sample.ground_truth`), a name."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        return node.slice.value
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None


def _missing_reference(test: ast.expr) -> Optional[tuple[ast.expr, bool]]:
    """(the reference, missing) for a test of whether the reference an answer is checked against
    holds anything (`not sample.ground_truth`, `expected is None`, `case["expected"] is None`):
    named as one (`_REFERENCE`), as a compare that weighs it is. `missing` is True for the arm
    where it holds nothing: also where it is one of the things tested (`if not prediction or not
    gold: return 0.0`, `if answer and expected: … else: …`), an arm that takes the missing
    reference with the rest."""
    if isinstance(test, ast.BoolOp):
        # `or` takes its body when any test holds, `and` its `else` when any fails
        wanted = isinstance(test.op, ast.Or)
        return next((found for found in map(_missing_reference, test.values)
                     if found is not None and found[1] is wanted), None)
    subject, nothing, missing = _nothing_test(test)
    if nothing == "False":
        return None
    name = _name_of(subject)
    return (subject, missing) if name and not _REFERENCE.isdisjoint(segments(name)) else None


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


def _links(node: ast.If) -> list[ast.If]:
    """An `if` and the `elif`s that follow it, in order: the links of one chain."""
    links = [node]
    while len(links[-1].orelse) == 1 and isinstance(links[-1].orelse[0], ast.If):
        links.append(links[-1].orelse[0])
    return links


def _dispatch_test(test: ast.expr) -> Optional[str]:
    """`r == "A"`, `r in ("A", "B")`, or `"YES" in r` (a reply's answer found in its text): the
    subject `r` as written."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op, right = test.ops[0], test.comparators[0]
        if isinstance(op, ast.Eq) and _constant(right) is not None \
                or isinstance(op, ast.In) and isinstance(right, (ast.Tuple, ast.List, ast.Set)):
            return _short(test.left)
        if isinstance(op, ast.In) and isinstance(test.left, ast.Constant) and isinstance(test.left.value, str) \
                and isinstance(right, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)):
            return _short(right)
    return None


def _explained(value: ast.expr, words: frozenset[str]) -> bool:
    """A record that names what went wrong beside its verdict: a failure-worded key or keyword
    (`{"passed": False, "failure_reason": …}`, `Result(ok=False, error=…)`), also in a tuple."""
    return any(set(segments(field)) & words for _, field, _ in _record_fields(value, ""))


def _record_fields(value: ast.expr, channel: str) -> Iterator[tuple[str, str, ast.expr]]:
    """(record, field, value) of each field a record literal fills: a dict's string keys (the
    record is the channel it is written to) and a call's keywords (the record is the class or
    function called: `MetricResult(score=0.0, reason=…)`), also the items of a tuple."""
    items = value.elts if isinstance(value, ast.Tuple) else [value]
    for index, item in enumerate(items):
        if isinstance(item, ast.Dict):
            record = f"{channel}[{index}]" if isinstance(value, ast.Tuple) else channel
            for key, field in zip(item.keys, item.values):
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    yield record, key.value, field
        elif isinstance(item, ast.Call):
            record = _dotted(item.func)
            if record is not None:
                for keyword in item.keywords:
                    if keyword.arg:
                        yield record, keyword.arg, keyword.value


def _awaited(node: Optional[ast.expr]) -> Optional[ast.expr]:
    return node.value if isinstance(node, ast.Await) else node


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


def _key_channel(target: ast.expr) -> Optional[str]:
    """`result["passed"]` as the channel its writes go to (`result['passed']`), None for another target."""
    if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) \
            and isinstance(target.slice, ast.Constant) and isinstance(target.slice.value, str):
        return f"{target.value.id}[{target.slice.value!r}]"
    return None


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


def _leaves(body: list[ast.stmt]) -> bool:
    """A block that leaves the path (`return`, `raise`, `continue`, `break`) somewhere."""
    return any(isinstance(node, (ast.Return, ast.Raise, ast.Continue, ast.Break)) for node in _nodes(body))


_LEAVING = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def _always_leaves(body: list[ast.stmt], ways: tuple[type, ...] = _LEAVING) -> bool:
    """A block that leaves the path on every path through it, by one of `ways` (`(ast.Raise,)`: it
    always raises): its last statement does, or is an `if` whose arms both do."""
    last = body[-1] if body else None
    if isinstance(last, ast.If):
        return _always_leaves(last.body, ways) and _always_leaves(last.orelse, ways)
    return isinstance(last, ways)


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


def _dotted(node: ast.AST) -> Optional[str]:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _read_from(node: ast.expr) -> ast.expr:
    """What a chain of attributes, indexes and method calls reads from (`response` of
    `response.choices[0].message.content.strip()`)."""
    while isinstance(node, (ast.Attribute, ast.Subscript)) or isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        node = node.func.value if isinstance(node, ast.Call) else node.value
    return node


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


# How a process says it ended: its exit status, read off it (`proc.returncode`, `child.exitstatus`,
# `result.exit_code`) or waited for (`proc.wait()`), the concept "an exit status".
_EXIT_STATUS = frozenset("returncode exitstatus exitcode exit_code exit_status".split())


def _exit_status(node: Optional[ast.AST]) -> Optional[ast.expr]:
    """The process whose exit status an expression reads: `proc` of `proc.returncode` or `proc.wait()`."""
    if isinstance(node, ast.Attribute) and node.attr in _EXIT_STATUS:
        return node.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "wait" \
            and not node.args and not node.keywords:
        return node.func.value
    return None
