"""A record's field as a verdict channel across the project (issue 23, principles 2 and 4).

`MetricResult(passed=score >= self.threshold)` in one function makes `passed` of `MetricResult` a
verdict: a compare decides it (as it chooses `INCORRECT` in `Score(value=CORRECT if ok else
INCORRECT)`). Another function's handler that builds the same record with a constant there
(`except Exception: return MetricResult(score=0.0, passed=False, reason=f"error: {e}")`) writes
what a genuine "no" writes, though the verdict it stands in for is decided in the function its try
calls (`return self._measure_with_judge(case)`). The channel is known by the record's class (a
capitalised name: a class, by convention), and only the project knows both ends; the scan keeps
each end, `Summaries` joins them, FC003 judges.

A fallback record that tells the failure beside the verdict is still counted by its verdict
wherever a reader folds the field without reading the rest (issue 23: a failure record excuses the
value only when its consumers read it); letting any such record excuse the fallback was measured and
withheld (benchmarks/realworld/POLICIES.md). What the project's readers do is seen: a module that
reads the verdict field and the failure field off one name (`if result.passed: continue` …
`collect_error(result.reason_code, …)`) sorts the records by their failure before it counts them.
So a fallback record excuses its verdict only when it tells the failure by a code or a flag
(`reason_code=SchemaErrorReason.CHECK_ERROR`, not `reason=f"judge error: {e}"`, which a reader can
only show) and some module of the project reads that field beside the verdict (`field_reads`).
"""

from __future__ import annotations

import ast
import re

from failcode.causes import is_code
from failcode.facts.outcomes.channels import _SETTINGS
from failcode.facts.outcomes.records import _Pending
from failcode.facts.outcomes.syntax import _dotted
from failcode.facts.walk import walk
from failcode.facts.vocabulary import is_verdict_function
from failcode.names import FAILURE_WORDS, is_constant_name, says_outcome_word, segments

_HANDLER_KINDS = ("except", "narrow-except")
# a read of a field whose name may hold a failure word (`.reason_code`, `.error`), checked by its
# words after; the literal dot keeps the scan of a whole file a small part of the cost of parsing it
_TOLD = re.compile(r"\.([a-z_]*(?:" + "|".join(sorted(FAILURE_WORDS)) + r")\w*)")
_FIELD = re.compile(r"[A-Za-z_]\w*")
_OWNER = re.compile(r"([A-Za-z_]\w*)$")


def field_reads(text: str) -> tuple[tuple[str, ...], ...]:
    """The fields a module reads off one name, for each name it reads a failure-worded field off
    (`result.passed`, `result.reason_code`): where a reader may sort records by their failure. Read
    from the text, every file's, so the readers a screened-out file holds are seen too; a name means
    the same record throughout the module, an approximation that errs towards "read"."""
    owners = set()
    for told in _TOLD.finditer(text):
        if not FAILURE_WORDS.isdisjoint(segments(told.group(1))) and _read_at(text, told.end()):
            owner = _OWNER.search(text, max(0, told.start() - 40), told.start())
            if owner is not None:
                owners.add(owner.group(1))
    found = set()
    for owner in owners:
        fields, prefix = set(), owner + "."
        at = text.find(prefix)
        while at >= 0:
            end = at + len(prefix)
            if at == 0 or not (text[at - 1].isalnum() or text[at - 1] in "_."):
                field = _FIELD.match(text, end)
                if field is not None and _read_at(text, field.end()):
                    fields.add(field.group())
            at = text.find(prefix, end)
        if len(fields) > 1:
            found.add(tuple(sorted(fields)))
    return tuple(sorted(found))


def _read_at(text: str, end: int) -> bool:
    """The field that ends at `end` is read: not called (`.error(…)`, a method) nor assigned."""
    rest = text[end:end + 3].lstrip()
    return not rest.startswith("(") and not (rest.startswith("=") and not rest.startswith("=="))


def record_field(channel: str) -> bool:
    """`MetricResult(passed=)`, `models.Score(value=)`: a keyword of a capitalised callee, a record's
    field; not one that holds a setting or a kind (`AssessmentSource(source_type=)`, `Job(mode=)`),
    which a compare may choose but nothing counts as an outcome."""
    callee, paren, rest = channel.partition("(")
    words = segments(rest[:-2])
    return bool(paren) and rest.endswith("=)") and callee.rpartition(".")[2][:1].isupper() \
        and not (words and words[-1] in _SETTINGS)


class RecordFields:
    """Part of `Scan`: the writes on a record's fields that only the project can join."""

    def record_writes(self) -> list[_Pending]:
        """The verdicts the function passes to a record's field (computed by a compare, or a constant
        a compare chooses), and its handlers' constants on such a field where the function writes no
        verdict there."""
        verdicts = {w.channel for w in self.writes if w.role == "verdict"}
        return [write for write in self.writes if record_field(write.channel) and (
            write.role == "verdict" and (write.kind == "computed" or write.kind == "decided" and self.says_outcome(write))
            or write.role == "fallback" and write.kept is None and write.channel not in verdicts
            and (write.kind == "skipped" or write.kind in _HANDLER_KINDS and not self.decided_by_the_try(write)))]

    def says_outcome(self, verdict: _Pending) -> bool:
        """A constant a compare chooses for a record's field is a verdict when it can say how work
        went: a number or a flag, a code or a constant's name (`NOT_FOUND`, `Grade.A`), a word of an outcome
        (`"rejected"`), or anything a function that judges records. A plain string without one names
        how the record is built (`Response(body, mimetype="text/html")` after `if not trusted: return
        SecurityError()`), as `return "utf-8"` names a choice (`Values.says_outcome`): no outcome a
        fallback's copy of it could fake (issue 23: values that are no outcome at all)."""
        value = verdict.values[0]
        if value[:1] not in "'\"":
            return True
        text = value[1:-1]
        return is_code(text) or is_constant_name(text) or says_outcome_word(text) \
            or is_verdict_function(self.qualname.rpartition(".")[2])

    def decided_by_the_try(self, fallback: _Pending) -> bool:
        """The try builds the record with a constant in the fallback's field itself (`json.loads(output)`
        then `return ScoreResult(value=1.0)`): the function decides the field by whether its try raised."""
        callee, _, own = fallback.channel[:-2].partition("(")
        tried = fallback.attempt.body if fallback.attempt is not None else self.function.body
        return any(isinstance(node, ast.Call) and _dotted(node.func) == callee
                   and any(k.arg == own and self.constant(k.value) is not None for k in node.keywords)
                   for statement in tried for node in walk(statement))
