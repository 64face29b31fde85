"""Failure paths that are branches: the arm taken when a lookup found nothing, when a reply says
error, or when a dispatch on a reply met no known answer; and a default written before an
`if`/`elif` chain that an arm leaves standing.
"""

from __future__ import annotations

import ast
from typing import Optional

from failcode.facts.outcomes.records import _Context
from failcode.facts.outcomes.survivors import _none_left
from failcode.facts.outcomes.syntax import (
    _Defaults, _absence, _dispatch_test, _leaves, _links, _missing_reference, _nodes, _short)


def _is_status(node: ast.expr) -> bool:
    """A reply's status code: `response.status_code`, `resp.status`, a bare `status_code`."""
    return isinstance(node, ast.Attribute) and node.attr in ("status_code", "status") \
        or isinstance(node, ast.Name) and node.id in ("status_code",)


def _codes(node: ast.expr) -> Optional[list[int]]:
    """The status codes a test names: `200`, or each member of `(200, 201)`; None for anything else."""
    values = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    codes = [value.value for value in values if isinstance(value, ast.Constant) and type(value.value) is int]
    return codes if codes and len(codes) == len(values) else None


def _success_range(test: ast.expr) -> bool:
    """`200 <= response.status_code < 300`: the status within the success range."""
    if not isinstance(test, ast.Compare) or len(test.ops) != 2 or not _is_status(test.comparators[0]) \
            or not all(isinstance(op, (ast.Lt, ast.LtE)) for op in test.ops):
        return False
    low, high = _codes(test.left), _codes(test.comparators[1])
    return low is not None and high is not None and low[0] in (199, 200) and high[0] in (299, 300)


def _error_status(test: ast.expr) -> bool:
    """A test that takes every failure of a reply as one path, however it is spelled:
    `status_code != 200`, `>= 400`, `not in (200, 201)`, `not 200 <= status_code < 300`, `not
    response.ok`, `not response.is_success`, `response.is_error`."""
    if isinstance(test, ast.Attribute):
        return test.attr == "is_error"
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = test.operand
        return isinstance(inner, ast.Attribute) and inner.attr in ("ok", "is_success") or _success_range(inner)
    if not isinstance(test, ast.Compare) or len(test.ops) != 1 or not _is_status(test.left):
        return False
    op, codes = test.ops[0], _codes(test.comparators[0])
    if codes is None:
        return False
    if isinstance(op, ast.NotIn):
        return all(200 <= code < 300 for code in codes)
    code = codes[0]
    return isinstance(op, ast.NotEq) and 200 <= code < 300 or isinstance(op, (ast.GtE, ast.Gt)) and code in (299, 300, 399, 400)


def _guards(node: ast.If) -> bool:
    """An `if` with no `else` whose body ends by leaving (`return`, `raise`): what follows it runs
    only when its test failed, as an `else` would."""
    return not node.orelse and isinstance(node.body[-1], (ast.Return, ast.Raise))


def _arm(after: tuple[ast.stmt, ...]) -> list[ast.stmt]:
    """What runs after `if response.status_code == 200: return …`, up to the statement that leaves
    (`raise ServiceUnavailable(…)`, `return None`): the arm of every failing status. Nothing when
    the path does not leave, as the words of what runs on either path are no arm's."""
    for index, statement in enumerate(after):
        if isinstance(statement, (ast.Return, ast.Raise)):
            return list(after[:index + 1])
    return []


def _chain_subject(node: ast.If) -> Optional[str]:
    """The subject of a dispatch `if r == "A": … elif r == "B": …`: the same value compared with
    constants in every test of the chain (two tests at least)."""
    subjects = [_dispatch_test(link.test) for link in _links(node)]
    if len(subjects) < 2 or None in subjects or len(set(subjects)) != 1:
        return None
    return subjects[0]


_OPPOSITE = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.GtE, ast.GtE: ast.Lt, ast.Gt: ast.LtE,
             ast.LtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In}


def _negated(test: ast.AST) -> ast.AST:
    """The test that takes the other arm, as a message quotes it: `score != 'PASS'`, `not ok`."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _OPPOSITE:
        return ast.Compare(test.left, [_OPPOSITE[type(test.ops[0])]()], test.comparators)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand
    return ast.UnaryOp(ast.Not(), test)


def _names_read(statements: tuple[ast.stmt, ...]) -> set[str]:
    """The names the statements read: what follows a branch, where a default left standing is used."""
    return {part.id for part in _nodes(list(statements)) if isinstance(part, ast.Name) and isinstance(part.ctx, ast.Load)}


class Branches:
    """Part of `Scan`: the `if` arms of a function that are failure paths, and defaults left
    standing through an `if`/`elif` chain."""

    def guarded(self, node: ast.If, context: _Context) -> _Context:
        """What follows a guard (`if SEP in out: … return parsed`, no `else`) runs when its compare
        fails: the block's rest is decided by the negated compare, as an `else` would be."""
        if context.fallback is not None or context.decided is not None or context.silent or not _guards(node):
            return context
        decided = self.deciding(node.test, judging=self.judges)
        return context if decided is None else _Context(decided=_negated(decided), region=context.region)

    def unknown_reply(self, node: ast.AST, subject: str, context: _Context) -> _Context:
        if context.fallback is not None:
            return context
        return _Context(fallback=f"a `{subject}` no branch matched", kind="dispatch", trigger=node.lineno)

    def branch(self, node: ast.If, context: _Context, defaults: _Defaults, after: tuple[ast.stmt, ...]) -> None:
        test = node.test
        if self.joined is not None:
            self.no_result(node)
        self.said_absent(node)
        self.raises_absent(node, after)
        if context.kind in ("except", "narrow-except") and context.attempt is not None:
            # `except ValueError: … if any(c in answer for c in candidates): return 1.0`: what a
            # handler writes only when a test holds is a decision it makes, not its blanket fallback
            self.block(node.body, _Context(silent=True))
            self.block(node.orelse, _Context(silent=True))
            return
        if context.fallback is None and not context.silent:
            self.unchecked(node)
        if context.fallback is None and not context.silent and _error_status(test):
            self.every_status(test, node.body)
            self.block(node.body, _Context(fallback=f"`{_short(test)}`", kind="status", trigger=node.lineno))
            self.block(node.orelse, context)
            return
        reference = _missing_reference(test) if context.fallback is None and not context.silent else None
        if reference is not None and self.no_reference(node, reference, context, defaults, after):
            return
        emptied = self.emptied(test) if context.fallback is None and not context.silent else None
        if emptied is not None and self.fallback_arm(node, emptied[1], _none_left(emptied[0]), "none-left", context,
                                                     defaults, after):
            return  # `if not active: return 0.0` before the mean of the metrics that did not fail
        # a pattern's search of the reply (`m = PATTERN.search(reply)`); after `n = kwargs.get("n")`
        # or `child = make()`, None is an answer of its own
        absent = self.absent(test) if context.fallback is None and not context.silent else None
        # a search of the candidate's own text that finds nothing is the candidate's failure: its
        # arm scores an answer of the wrong form, as the code should (whose failure, principle 1)
        if absent is not None and (absent[0] not in self.searched or absent[0] in self.searched_answer):
            absent = None
        if absent is not None and self.no_match(node, absent, context, defaults, after):
            return
        failing = _negated(test) if context.fallback is None and not context.silent and _guards(node) else None
        if failing is not None and _error_status(failing):
            self.every_status(test, _arm(after), failing)
        decided = self.deciding(test, judging=self.judges)
        arms = context if decided is None or context.fallback is not None else _Context(
            decided=decided, region=context.region, silent=context.silent)
        self.block(node.body, arms, defaults, after)
        subject = _chain_subject(node) if self.judges and context.fallback is None else None
        if subject is not None and subject in self.candidates():
            subject = None  # the candidate's own answer that names no known one is wrong (principle 1)
        self.rest_of_chain(node, arms, context, subject, defaults, after)
        if not node.orelse and defaults and not context.silent:
            self.left_standing(node, context, decided, absent, defaults, after)
        elif subject is not None and defaults:
            self.unmatched_standing(node, subject, context, defaults, after)

    def no_match(self, node: ast.If, absent: tuple[str, bool], context: _Context, defaults: _Defaults,
                 after: tuple[ast.stmt, ...]) -> bool:
        """`if m is None: verdict = False` / `else: verdict = m.group(1) == expected`, or the guard
        `if not m: return 0.0` before what reads `m`: the arm where a pattern's search of the reply
        found nothing is a fallback for what the other path reads from it. False when the test is
        no such search."""
        name, body_missing = absent
        reads = (node.orelse if body_missing else node.body) or list(after)
        if not any(isinstance(part, ast.Name) and part.id == name for part in _nodes(reads)):
            return False
        return self.fallback_arm(node, body_missing, f"no `{name}`", "no-match", context, defaults, after)

    def no_reference(self, node: ast.If, reference: tuple[ast.expr, bool], context: _Context, defaults: _Defaults,
                     after: tuple[ast.stmt, ...]) -> bool:
        """`if not sample.ground_truth: return GradeResult(score=0.0, …)`: the arm taken when the
        reference an answer is checked against holds nothing is a failure of the data the harness
        brought, not of the answer, and what it writes stands in for the verdict the other path
        works out (issue 23, principles 1 and 5: whose failure, an empty input of a scoring
        function). False when that arm is empty."""
        subject, body_missing = reference
        return self.fallback_arm(node, body_missing, f"no `{_short(subject)}`", "no-reference", context, defaults,
                                 after)

    def fallback_arm(self, node: ast.If, body_missing: bool, why: str, kind: str, context: _Context,
                     defaults: _Defaults, after: tuple[ast.stmt, ...]) -> bool:
        """The arm of `node` taken when what it tests holds nothing is a fallback (`why`, `kind`)
        for what the other arm, or what follows the `if`, works out. False when that arm is empty."""
        missing, found = (node.body, node.orelse) if body_missing else (node.orelse, node.body)
        if not missing:
            return False
        end = (after[-1].end_lineno if after else None) or node.end_lineno or node.lineno
        self.block(missing, _Context(fallback=why, kind=kind, trigger=node.lineno, region=(node.lineno, end)))
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
        read = _names_read(after)
        end = after[-1].end_lineno if after else node.end_lineno
        for name in sorted(written & read):
            if missing:
                self.write(name, defaults[name][1], _Context(fallback=f"no `{absent[0]}`", kind="no-match",
                                                             trigger=node.lineno, region=(node.lineno, end or node.lineno)),
                           at=(node, defaults[name]))
            elif decided is not None and context.fallback is None:
                self.write(name, defaults[name][1], _Context(decided=_negated(decided), region=context.region),
                           at=(node, defaults[name]))

    def unmatched_standing(self, node: ast.If, subject: str, context: _Context, defaults: _Defaults,
                           after: tuple[ast.stmt, ...]) -> None:
        """A dispatch `if r == "A": passed = True elif r == "B": …` with no `else`, on what a call
        answered (`r = ask_judge(…)`): a reply no test matched leaves the defaults written before
        the chain (`passed = False`) that its arms overwrite, as an `else` of the unknown reply
        would write them. A dispatch on a field of our own data (`kind = record["kind"]`) is no
        reply: its default is the kind it assumes."""
        if subject not in self.fetched and subject not in self.answered:
            return
        links = _links(node)
        if links[-1].orelse:
            return  # an `else` takes the unknown reply itself (`rest_of_chain`)
        written = {name for link in links for statement in link.body for name in self.bound(statement)}
        read = _names_read(after)
        unknown = self.unknown_reply(links[-1], subject, context)
        for name in sorted(written & defaults.keys() & read):
            self.write(name, defaults[name][1], unknown, at=(node, defaults[name]))

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

    def absent(self, test: ast.expr) -> Optional[tuple[str, bool]]:
        """(what, missing) when a test asks whether a lookup found something: `m`, `not m`,
        `m is None`, `m is not None`; `missing` is True for the arm where it found nothing. The
        name must hold a call's result (`m = re.search(…)`), not a parameter or a flag."""
        absence = _absence(test)
        return absence if absence is not None and absence[0] in self.fetched else None
