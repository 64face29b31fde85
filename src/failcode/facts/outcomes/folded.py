"""What a catch-all folds into a mean: the record it writes with the failure told only in words,
and the means our code takes over a record's field.

A catch-all that records `MetricResult(score=0.0, passed=False, reason=f"Metric error: {e}")`
says what happened, but only to whoever reads `reason`. Where our own code averages or sums
`score` over such records without reading `reason` (`sum(r.score for r in results) /
len(results)`), every failure counts as a genuine worst score: an outage reads as a model that
failed (issue 23, principle 2: a failure record excuses the value only when its consumers read the
error before they aggregate the value). A record that flags the failure (`scoring_failed=True`)
tells any consumer by a field it can test, and is not kept here.

The two halves meet in the project (`Project.folding`), across modules: the record's module and
the mean's are joined when they are one, or when the mean's module defines or imports the
record's class.
"""

from __future__ import annotations

import ast
from typing import Optional

from failcode.facts.outcomes.syntax import _callee, _constant, _pos
from failcode.facts.walk import walk
from failcode.model import Mean, Told

# Calls that fold a collection of numbers into one (the concept "an aggregate"): a mean, a median,
# a total (`sum(r.passed for r in results)` is a count of passes).
_FOLDS = frozenset("mean average fmean nanmean median nanmedian sum".split())

# The worst answer of a verdict field, as `_constant` keys it (`False` is `0.0`).
_WORST = frozenset(("0.0", "-1.0"))


def _field(node: ast.expr, item: str) -> Optional[str]:
    """The field of the loop's item a comprehension's element reads: `r.score`, `r["score"]`,
    `r.get("score")`, also inside a conversion (`float(r.score)`)."""
    for part in walk(node):
        if isinstance(part, ast.Attribute) and isinstance(part.value, ast.Name) and part.value.id == item:
            return part.attr
        if isinstance(part, ast.Subscript) and isinstance(part.value, ast.Name) and part.value.id == item \
                and isinstance(part.slice, ast.Constant) and isinstance(part.slice.value, str):
            return part.slice.value
        if isinstance(part, ast.Call) and isinstance(part.func, ast.Attribute) and part.func.attr == "get" \
                and isinstance(part.func.value, ast.Name) and part.func.value.id == item and part.args \
                and isinstance(part.args[0], ast.Constant) and isinstance(part.args[0].value, str):
            return part.args[0].value
    return None


def folded_field(node: ast.expr) -> Optional[str]:
    """The field a fold takes over a collection's items: `mean([r.score for r in results])`,
    `sum(r["correct"] for r in rows)`, `sum(r.score for r in active) / len(active)`."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        node = node.left
    if not isinstance(node, ast.Call) or len(node.args) != 1 \
            or (_callee(node) or "").rpartition(".")[2] not in _FOLDS:
        return None
    items = node.args[0]
    if not isinstance(items, (ast.ListComp, ast.GeneratorExp)) or len(items.generators) != 1 \
            or not isinstance(items.generators[0].target, ast.Name):
        return None
    return _field(items.elt, items.generators[0].target.id)


def _reads(function: ast.AST) -> frozenset[str]:
    """Every field and key a function reads: `r.reason`, `r["error"]`, `r.get("error")`,
    `getattr(r, "error", None)`, `"error" in r` (a key a dict literal writes is no read)."""
    found = set()
    for node in walk(function):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            found.add(node.attr)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) \
                and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            found.add(node.slice.value)
        elif isinstance(node, ast.Call) and (_callee(node) or "").rpartition(".")[2] in ("get", "getattr", "hasattr"):
            found.update(argument.value for argument in node.args
                         if isinstance(argument, ast.Constant) and isinstance(argument.value, str))
        elif isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant) and isinstance(node.left.value, str):
            found.add(node.left.value)
    return frozenset(found)


class Folded:
    """Part of `Scan`: the records its catch-alls write with the failure told in words only
    (`self.told`), and the folds it takes over a field (`self.means`)."""

    def told_record(self, value: ast.expr, context, filled: list, told: frozenset) -> None:
        """A catch-all's record (`Result(score=0.0, error=str(e))`) whose verdict fields hold their
        worst answer, and whose failure only a field of words tells."""
        if context.kind != "except":
            return
        worst = tuple(dict.fromkeys(field for record, field, item in filled
                                    if (record, field) not in told and _constant(item) in _WORST))
        if worst:
            record = next(record for record, _, _ in filled)
            self.told.append((value, record.rpartition(".")[2], worst, tuple(sorted(field for _, field in told))))

    def mean_over(self, node: ast.expr) -> None:
        """A fold of a field of a collection's items, with every field the function reads."""
        field = folded_field(node) if isinstance(node, (ast.BinOp, ast.Call)) else None
        if field is not None:
            if self._read_fields is None:
                self._read_fields = _reads(self.function)
            self.means.append(Mean(field, node.lineno, self.qualname, self._read_fields))

    def finish_told(self, lines: list[str]) -> list[Told]:
        return [Told(_pos(node, lines), self.qualname, record, worst, told)
                for node, record, worst, told in self.told]
