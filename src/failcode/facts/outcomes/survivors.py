"""What is measured over the items whose work did not fail, and the arm taken when none is left.

A harness that drops the failed samples before it averages (`rewards = [r.reward for r in results
if r.error is None]`, `active = [m for m in metrics if not m.skipped]`) measures only what ran. When
every sample failed nothing is left, and the arm for that (`… if rewards else 0.0`, `if not active:
return 0.0`) writes a number in place of the mean: a run where everything errored reads as a model
that scored zero, a check that never ran (`all(m.passed for m in active) if active else True`) as a
pass (issue 23, principle 5: an empty input of a scoring function; principle 1: every failure there
is the harness's, since the failed items were dropped for failing, not for their answers).
"""

from __future__ import annotations

import ast
from typing import Optional

from failcode.facts.outcomes.syntax import _callee, _constant, _name_of, _nothing_test
from failcode.facts.vocabulary import is_verdict_function
from failcode.facts.walk import walk
from failcode.model import ANY_NUMBER
from failcode.names import segments


# Words of work that did not complete (the concept "how an item's run ended badly"), as an item's
# field, key or test names it: `r.error`, `m.skipped`, `row["failed"]`, `math.isnan(score)`.
_FAILED = frozenset("error errors err errored exception exc fail failed failure crashed skipped timed aborted"
                    " cancelled isnan nan".split())

# … and of work that did (`r.success`, `r.ok`, `status == "completed"`).
_SUCCEEDED = frozenset("success successful succeeded ok completed".split())

# Calls that average a collection: a mean of what is left (`statistics.mean`, `np.mean`, `np.median`).
_MEANS = frozenset("mean average fmean nanmean median nanmedian".split())


def _words(node: ast.expr) -> frozenset[str]:
    """The words an item's test reads: a field (`r.error`, `getattr(r, "error", None)`), a key
    (`r["failed"]`, `r.get("error")`), a name, or a call's own name (`math.isnan(x)`,
    `r.is_error()`)."""
    key = node.args[1] if isinstance(node, ast.Call) and _callee(node) == "getattr" and len(node.args) >= 2 else \
        node.args[0] if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
        and node.func.attr == "get" and node.args else None
    if isinstance(key, ast.Constant) and isinstance(key.value, str):
        return frozenset(segments(key.value))
    name = (_callee(node) or "").rpartition(".")[2] if isinstance(node, ast.Call) else _name_of(node)
    return frozenset(segments(name)) if name else frozenset()


def _said(node: ast.expr) -> frozenset[str]:
    """The words of a string constant, or of every string in a tuple, list or set of them."""
    items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    return frozenset(word for item in items if isinstance(item, ast.Constant) and isinstance(item.value, str)
                     for word in segments(item.value))


def keeps_survivors(test: ast.expr) -> bool:
    """A comprehension's filter that keeps only the items whose work did not fail: `r.error is
    None`, `not m.skipped`, `r.success`, `not math.isnan(s)`, `r.status != "failed"`, or such a test
    beside others (`r.error is None and r.reward is not None`). Keeping the failed ones (`if
    r.error`) is no such filter."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(keeps_survivors(value) for value in test.values)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and _constant(test.comparators[0]) != "None":
        op, said = test.ops[0], _said(test.comparators[0])
        if isinstance(op, (ast.NotEq, ast.NotIn)):
            return bool(said & _FAILED)
        return isinstance(op, (ast.Eq, ast.In)) and bool(said & _SUCCEEDED)
    subject, nothing, missing = _nothing_test(test)
    if subject is test and isinstance(test, ast.Compare):
        return False
    words = _words(subject)
    # `r.error is None`, `not r.skipped`: no failure; `r.success`: a success flag, by its truth
    return bool(words & _FAILED) if missing else nothing == "falsy" and bool(words & _SUCCEEDED)


def _names_a_score(node: ast.expr) -> bool:
    """A value read from something named as a score or a verdict, or as a collection of them
    (`r.reward.score`, `r.grades[key]["accuracy"]`, `scores`): what is averaged is what was judged,
    not a latency or a size of the work."""
    for part in walk(node):
        name = _name_of(part)
        if name and (is_verdict_function(name) or name.endswith("s") and is_verdict_function(name[:-1])):
            return True  # `scores`, `rewards`: a collection of them
    return False


def _given(test: ast.expr) -> bool:
    """`score is not None`: of scores, the ones that were given (None: no score came)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(_given(value) for value in test.values)
    _, nothing, missing = _nothing_test(test)
    return nothing == "None" and not missing


def _none_left(name: str) -> str:
    """Why a fallback stands in for what is measured over `name`: every item was dropped as failed."""
    return f"no `{name}` left once the failed items are dropped"


class Survivors:
    """Part of `Scan`: the names bound to what is left of a collection once its failed items are
    dropped (`self.survivors`: whether its items are named as scores), what is measured over them,
    and the test of whether none is left."""

    def survived(self, value: ast.expr) -> Optional[bool]:
        """Whether the items of what is left are named as scores, when a comprehension keeps the
        items whose work did not fail, or, of scores, those given (`[s for s in scores if s is
        not None]`: a score of None never came), or reads what is left of such a filter (`scores =
        [r.grades[k].score for r in attempted if k in r.grades]`); None for any other value."""
        if not isinstance(value, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            return None
        earlier = [self.survivors[generator.iter.id] for generator in value.generators
                   if isinstance(generator.iter, ast.Name) and generator.iter.id in self.survivors]
        scored = _names_a_score(value.elt) or any(_names_a_score(generator.iter) for generator in value.generators)
        if not earlier and not any(keeps_survivors(test) or scored and _given(test)
                                   for generator in value.generators for test in generator.ifs):
            return None
        return any(earlier) or scored

    def _left(self, node: ast.expr) -> Optional[str]:
        """The survivors a value reads (`len(rewards)`, `rewards`, `(r.score for r in active)`)."""
        return next((part.id for part in walk(node) if isinstance(part, ast.Name) and part.id in self.survivors),
                    None)

    def measured(self, node: ast.expr, judging: bool) -> Optional[tuple[tuple[str, ...], str]]:
        """(values, why) of what is measured over the survivors: a verdict over all or any of them
        (`all(m.passed for m in active)`), True or False; or their mean (`sum(rewards) /
        len(rewards)`, `statistics.mean(scores)`), any number, when it is a score: in a function or
        for a channel that judges, or of items named as scores (a mean latency of the requests that
        did not fail measures the work, and its 0 judges nothing)."""
        if not self.survivors:
            return None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            name, averaged = self._left(node.right), node.left
            last = "mean"
        elif isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
            last = (_callee(node) or "").rpartition(".")[2]
            name, averaged = (self._left(node.args[0]), node.args[0]) if last in _MEANS or last in ("all", "any") \
                else (None, None)
            if name is not None and last in ("all", "any"):
                return ("0.0", "1.0"), f"as `{last}` of `{name}`"
        else:
            return None
        if name is None or not (judging or self.survivors[name] or _names_a_score(averaged)):
            return None
        return (ANY_NUMBER,), f"as the {last} of `{name}`"

    def emptied(self, test: ast.expr) -> Optional[tuple[str, bool]]:
        """(survivors, missing) of a test of whether anything is left: `rewards`, `not active`,
        `len(scores) == 0`, `len(scores) > 0`; `missing` is True for the arm where none is."""
        if not self.survivors:
            return None
        subject, nothing, missing = _nothing_test(test)
        if nothing == "falsy" and isinstance(subject, ast.Name) and subject.id in self.survivors:
            return subject.id, missing
        return None
