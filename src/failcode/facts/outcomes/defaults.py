"""What a default written in place of an answer stands for: the answer a reply did not hold, a
verdict by the name the code lists or judges it under, or the code's own marker for "no answer".
"""

from __future__ import annotations

import ast
from typing import Optional

from failcode.facts.outcomes.channels import _CONVERSIONS
from failcode.facts.outcomes.records import _Pending
from failcode.facts.outcomes.syntax import _NOWHERE, _REFERENCE, _callee, _default_call, _parameters
from failcode.facts.vocabulary import is_verdict_function
from failcode.names import segments


_IDENTITY = (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)  # the compares that tell one value from the rest


class Defaults:
    """Part of `Scan`: the defaults of replies, and the compares that make them verdicts or markers."""

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
        judged against is no answer judged. Nor a test of the default itself (`score =
        rating.get(key, -1)` … `if score != -1:`): the code tells its marker for "no answer" from an
        answer there, so a fallback to the marker on that channel reads as no verdict (`contested`)."""
        if id(compare) in self.weighed:
            return
        self.weighed.add(id(compare))
        sides = (compare.left, *compare.comparators)
        for side in sides:
            fallback = self.fallen.get(side.id) if isinstance(side, ast.Name) \
                and _REFERENCE.isdisjoint(segments(side.id)) else None
            if fallback is not None and len(sides) == 2 and isinstance(compare.ops[0], _IDENTITY) \
                    and fallback.values[0] in {self.constant(other) for other in sides if other is not side}:
                self.markers.add((fallback.channel, fallback.values[0]))  # `score != -1`, not `score > 0`
                continue
            if fallback is not None:
                self.writes.append(_Pending(compare, self.qualname, fallback.channel, fallback.values, "verdict",
                                            "decided", ("when", compare), compare.lineno, (0, _NOWHERE)))

    def scored_lookup(self, node: ast.expr) -> Optional[tuple[ast.Call, ast.expr]]:
        """`data.get("score", 0.0)`, also converted (`float(…)`, `bool(…)`), where `data` holds what a
        call returned (a judge's parsed reply, a service's answer): the key names a verdict and the
        default (0, False) is a genuine one, so a reply without it reads as that verdict. Not a setting
        (`config.get("score_fn", …)`, `verify_ssl`: the key's head word names no verdict) nor a lookup
        in a parameter: a caller's options are no reply."""
        if isinstance(node, ast.Call) and _callee(node) in _CONVERSIONS and len(node.args) == 1 and not node.keywords:
            node = node.args[0]
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
                and len(node.args) == 2 and not node.keywords):
            return None
        (key, default), receiver = node.args, node.func.value
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str) and isinstance(receiver, ast.Name)
                and receiver.id in self.fetched and self.constant(default) == "0.0"):
            return None
        words = segments(key.value)  # its head word: `final_score`, `is_correct`, not `verify_audience`
        return (node, default) if words and is_verdict_function(words[-1]) and not self.made_here(receiver.id) \
            else None

    def made_here(self, name: str) -> bool:
        """`clean = self._convert(doc)`: a name our own function filled from what no other party
        answered, so what it holds is ours to know (a key it always writes). Not one it made of
        a reply (`parsed = self._parse(response)` after `response = judge(prompt)`, a callable
        the caller gave)."""
        def ours(call: ast.Call) -> bool:
            return self.is_own_call(call) and (_callee(call) or "").partition(".")[0] not in _parameters(self.function)
        built = self.records.get(name)
        return built is not None and ours(built) and not any(
            isinstance(arg, ast.Name) and arg.id in self.records and not ours(self.records[arg.id])
            for arg in built.args)
