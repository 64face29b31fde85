"""A record's field as a verdict channel across the project (issue 23, principles 2 and 4).

`MetricResult(passed=score >= self.threshold)` in one function makes `passed` of `MetricResult` a
verdict: a compare decides it (as it chooses `INCORRECT` in `Score(value=CORRECT if ok else
INCORRECT)`). Another function's handler that builds the same record with a constant there
(`except Exception: return MetricResult(score=0.0, passed=False, reason=f"error: {e}")`) writes
what a genuine "no" writes, though the verdict it stands in for is decided in the function its try
calls (`return self._measure_with_judge(case)`). The channel is known by the
record's class (a capitalised name: a class, by convention), and only the project knows both ends;
the scan keeps each end, `Summaries` joins them, FC003 judges.

A fallback record says what happened when it fills a field that explains a failure (`reason=`,
`error=`) or raises a flag (`skipped=True`, `timed_out=True`) that the genuine records of that class
never fill: their readers can tell the two apart. A `reason=` both fill says nothing they can sort on.
"""

from __future__ import annotations

import ast
from typing import Optional

from failcode.facts.outcomes.records import _Pending
from failcode.facts.outcomes.syntax import _EXPLAINING, _dotted
from failcode.facts.walk import walk
from failcode.names import segments

_HANDLER_KINDS = ("except", "narrow-except")


def record_field(channel: str) -> bool:
    """`MetricResult(passed=)`, `models.Score(value=)`: a keyword of a capitalised callee, a record's field."""
    callee, paren, rest = channel.partition("(")
    return bool(paren) and rest.endswith("=)") and callee.rpartition(".")[2][:1].isupper()


class RecordFields:
    """Part of `Scan`: the writes on a record's fields that only the project can join."""

    def record_writes(self) -> list[_Pending]:
        """The verdicts the function passes to a record's field (computed by a compare, or a constant
        a compare chooses), each with the fields its genuine records of that class fill; and its
        handlers' constants on such a field where the function writes no verdict there, each with
        the fields that say what failed."""
        verdicts = {w.channel for w in self.writes if w.role == "verdict"}
        found: list[_Pending] = []
        for write in self.writes:
            if not record_field(write.channel):
                continue
            record = write.channel.partition("(")[0]
            if write.role == "verdict" and write.kind in ("computed", "decided"):
                write.fields = tuple(sorted(field for owner, field in self.described if owner == record))
                found.append(write)
            elif write.role == "fallback" and write.kind in _HANDLER_KINDS and write.kept is None \
                    and write.channel not in verdicts:
                fields = self.failure_fields(write)
                if fields is not None:
                    write.fields = fields
                    found.append(write)
        return found

    def failure_fields(self, fallback: _Pending) -> Optional[tuple[str, ...]]:
        """The fields of a fallback's record that say what failed: those that name it (`reason=`,
        `error=`, as `Channels.write` told them, or a key of a dict in a field: `metadata={"error":
        …}`) and flags raised beside it (`skipped=True`). None when the try builds the record with a
        constant in that field itself (`json.loads(output)` then `return ScoreResult(value=1.0)`):
        the function decides the field by whether its try raised."""
        said = {field for write, told in self.explained if write is fallback for _, field in told}
        callee, _, own = fallback.channel[:-2].partition("(")
        tried = fallback.attempt.body if fallback.attempt is not None else self.function.body
        if any(isinstance(node, ast.Call) and _dotted(node.func) == callee
               and any(k.arg == own and self.constant(k.value) is not None for k in node.keywords)
               for statement in tried for node in walk(statement)):
            return None
        record = next((node for node in walk(self.function) if isinstance(node, ast.Call)
                       and any(k.value is fallback.node for k in node.keywords)), None)
        for keyword in record.keywords if record is not None else ():
            if keyword.arg and keyword.arg != own and isinstance(keyword.value, ast.Constant) \
                    and keyword.value.value is True:
                said.add(keyword.arg)
            elif keyword.arg and isinstance(keyword.value, ast.Dict):
                said.update(f"{keyword.arg}[{key.value!r}]" for key in keyword.value.keys
                            if isinstance(key, ast.Constant) and isinstance(key.value, str)
                            and not _EXPLAINING.isdisjoint(segments(key.value)))
        return tuple(sorted(said))
