"""Which stages a try runs, and whose data each one works on: what a handler around that try stands
in for (`stages_of`), so FC002 and FC003 can say which failures it cannot tell apart.
"""

from __future__ import annotations

import ast

from failcode.facts.outcomes.channels import _is_literal, _root
from failcode.facts.outcomes.provenance import _method
from failcode.facts.outcomes.syntax import _awaited, _callee, _nodes, _resolve, _simple_statements
from failcode.facts.stages import STAGE_ORDER, is_trivial
from failcode.facts.walk import walk
from failcode.model import StageCall


# Calls that turn a text into a number or an expression (the concept "a conversion"), which the stage
# table leaves out as too ordinary (`int`, `float`) or does not know: they fail on text that holds
# none, and run on the answer and on the reference in one try they are two parties' failures
# (`int(answer)`, `int(entry["answer"])`).
_TEXT_TO_VALUE = frozenset("int float complex Fraction sympify parse_expr".split())


def _of(call: StageCall, data: frozenset[str]) -> StageCall:
    """The call named with the data it works on: `json.loads of `entry``."""
    names = ", ".join(f"`{name}`" for name in sorted(data))
    return StageCall(call.stage, f"{call.name} of {names}", call.line)


class Attempts:
    """Part of `Scan`: the stages of each try, found once and kept (`tried`)."""

    def stages_of(self, attempt) -> tuple[StageCall, ...]:
        """The first call of each stage in a try body, each in a statement of its own: calls nested
        in one expression (`float(verify(parse(a), parse(b)))`) or in a logging argument are one
        step, not stages a handler must tell apart. An `==` is a compare when one side is read from a name the
        try bound from a call or from what one returned (`out == expected` after `out = run(code)`,
        `prediction["label"] == gold` after `prediction = parse_reply(text)`)."""
        known = self.tried.get(id(attempt))
        if known is not None:
            return known
        first: dict[str, StageCall] = {}
        parties: dict[str, dict[bool, StageCall]] = {}  # stage → whose data it works on: the candidate's or not
        sides: dict[bool, StageCall] = {}  # the first call on the candidate's data, and on another's
        bound: set[str] = set()
        for statement in _simple_statements(attempt.body):
            found: list[StageCall] = []  # the statement's stage is its last: `float(verify(parse(a)))` compares
            for node in _nodes([statement], prose=False):
                if isinstance(node, ast.Call):
                    name = _callee(node)
                    stage = None
                    if name is not None and not is_trivial(name):
                        keywords = [k.arg for k in node.keywords if k.arg]
                        stage = self.stages.classify(_resolve(name, self.imports), keywords)
                        if stage is not None:
                            found.append(StageCall(stage, name, node.lineno))
                            self.note_party(parties, sides, found[-1], node)
                    if stage is None and name is not None and name.rpartition(".")[2] in _TEXT_TO_VALUE:
                        self.note_party(parties, sides, StageCall("read", name, node.lineno), node)  # `int(entry["answer"])`
                    elif stage is None and self.candidates() and self.can_fail(node):
                        self.note_party(parties, sides, StageCall("run", name or _method(node), node.lineno), node)
                elif isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
                    operands = [node.left, node.comparators[0]]
                    if any(_root(side) in bound for side in operands) \
                            and not any(_is_literal(side) for side in operands):
                        found.append(StageCall("compare", "==" if isinstance(node.ops[0], ast.Eq) else "!=", node.lineno))
            if found:
                last = max(found, key=lambda call: STAGE_ORDER.index(call.stage))
                first.setdefault(last.stage, last)
            # bound from a call, or from what one returned (`answer = data["answer"]`)
            value = _awaited(getattr(statement, "value", None))
            if isinstance(statement, (ast.Assign, ast.AnnAssign)) and value is not None and (
                    isinstance(value, ast.Call) or any(isinstance(n, ast.Name) and n.id in bound for n in walk(value))):
                targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                bound.update(t.id for t in targets if isinstance(t, ast.Name))
        # `json.loads(answer)` and `json.loads(entry["answer"])`: one stage, two parties' failures
        calls = [call for stage, call in first.items() if len(parties.get(stage, ())) < 2]
        calls += [call for stage, party in parties.items() if len(party) == 2 for call in party.values()]
        # `Board(entry["board"])` and `board.perform_moves(answer)`: not two stages, but two parties'
        # failures, each its own step
        if len(calls) < 2 and len(sides) == 2 and len({call.line for call in sides.values()}) == 2:
            calls = list(sides.values())
        found = tuple(sorted(calls, key=lambda call: call.line))
        self.tried[id(attempt)] = found
        return found

    def note_party(self, parties: dict[str, dict[bool, StageCall]], sides: dict[bool, StageCall], call: StageCall,
                   node: ast.Call) -> None:
        """In a function that judges a candidate, a call on the candidate's data only (True) or on
        data it was not given by the candidate (False: the reference, the dataset entry), named
        with that data, by its stage; and the first call on each side, whatever it is (`board =
        Board(entry["board"])`, then `board.perform_moves(answer)`: the candidate's data with the
        reference's is the candidate's side). A try that runs both cannot tell whose failure its
        handler records."""
        candidates = self.candidates()
        if not candidates:
            return
        given = self.given(node)
        if given and call.stage != "run" and not (given & candidates and not given <= candidates):
            parties.setdefault(call.stage, {}).setdefault(given <= candidates, _of(call, given))
        receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
        held = self.origins([receiver]) if receiver is not None and not self.is_module(receiver) else frozenset()
        # what a call is given decides its side; what its receiver holds adds the candidate's data
        # (`board.perform_moves(answer)`), never the reference's (`board.is_solved()` after moves
        # on it: what the board holds then is the answer's doing as much as the entry's)
        own = bool((given | held) & candidates)
        if given or own:
            sides.setdefault(own, _of(call, given | held))
