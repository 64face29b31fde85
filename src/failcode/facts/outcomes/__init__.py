"""Outcome channels: where a function writes a verdict, and where a fallback writes to the same place.

A *channel* is a destination a function writes outcome values to on different paths: its return
(`return`, `return[0]` of a tuple, `return["exact_match"]` of a dict), a name or attribute
(`verdict`, `self.passed`), a subscript (`details[]`), a receiver's method (`results.append`) or a
call keyword (`Score(value=)`).

A *verdict* is a value a compare decides: the compare's own result (`return got == expected`,
`score = float(ok)` where `ok = a == b`, `return compare(a, b)`), a constant written in a branch a
compare decides (`if got != expected: return 0.0`), or, in a function that judges (`grade_*`,
`process_judge_response`), a score it parses (`float(m.group(1))`).

A *fallback* is a value written when the work produced none: in an except handler that does not
say which stage failed (a catch-all, or an exception any stage raises around more than one
statement) and does not re-raise; in the no-match arm of a lookup (`int(m.group(1)) if m else 0`,
`if m is None:`); as a `.get`/`getattr`/`next`/`or` default; in a branch taken on an error status
(`if response.status_code != 200:`); in the arm of a dispatch on a reply that no known answer took
(`if r == "A": … elif r == "B": … else: return 0.0`); in the arm taken when nothing is left of a
collection whose failed items were dropped (`sum(rewards) / len(rewards) if rewards else 0.0`).

A guard's verdict (`blocked`, `jailbreak`, `is_safe`, `RailOutcome.allow()`) is both answers of
its own channel by name: a fallback that lets the content through (`blocked=False` in a catch-all,
`if result is None: return RailOutcome.allow()`, an arm that logs an error and allows) writes what
a genuine pass writes, and is kept without a verdict beside it.

Read from the `ast` tree that `extract_file` parses for every file anyway: a screened file and a
LibCST-extracted one get the same writes, and the pre-screen needs no mirror of this module. Only
channels that receive both a verdict and a fallback are kept (and guards letting content
through); those are all FC003 can judge.

The package holds one module per concept, and the scan of one function is one class made of them:

- `scan`: the walk of a function's statements, assignments and the defaults written before the work;
- `channels`: where a value is written, and whether it is a verdict (a compare decides it) or a
  constant the path decides;
- `paths`: failure paths that are except handlers, retry loops and what a handler leaves standing;
- `branches`: failure paths that are branches: no match, an error status, a dispatch no answer took;
- `survivors`: what is measured over the items whose work did not fail, and the arm taken when
  none is left (every item failed);
- `provenance`: where a value comes from: the candidate's output, a reply, our own code;
- `defaults`: what a default written in place of an answer stands for: the reply's answer, a
  verdict by the name the code judges it under, or the code's marker for "no answer";
- `replies`: what a function answers from a model or service, and an error message in its place;
- `fields`: a record's field as a verdict channel across the project: the computed verdicts a
  function passes to it, and a handler's constant there where its own function writes none;
- `blames`: what a broad handler or a "no result" test says caused a failure (FC006's facts);
- `raises`: what our functions raise, and the cause each raise says, for their callers' handlers;
- `tallies`: chains that sort outcomes into buckets by an Enum's members, and the module's
  outcome Enums (FC004's facts);
- `records`: what the scan finds, before it is positioned; `syntax`: shapes of `ast` nodes.

Names with a leading underscore are the package's own, shared between its modules; judgement stays
in `failcode.rules`.
"""

from __future__ import annotations

import ast

from failcode.facts.outcomes.scan import Scan
from failcode.facts.outcomes.tallies import enums
from failcode.facts.outcomes.syntax import _FUNCTIONS, _constant, _definitions, _inner, note_import
from failcode.facts.stages import StageClassifier
from failcode.facts.walk import walk
from failcode.model import Absence, Blame, Members, Raises, Tally, Write
from failcode.names import is_constant_name


def outcome_facts(tree: ast.Module, text: str, stages: StageClassifier, module: str = "",
                  is_package: bool = False) -> tuple[tuple[Write, ...], tuple[Blame, ...], tuple[Tally, ...],
                                                     tuple[Members, ...], tuple[Raises, ...], tuple[str, ...],
                                                     tuple[Absence, ...], tuple[str, ...], tuple[Write, ...]]:
    """The writes on every contested channel of the module's functions, the catch-alls whose try
    runs our own code, and the tallies, in source order; the module's outcome Enums; the errors
    its functions raise that name a cause (the summary their callers are judged with), the
    functions it defines (so a name's every definition is known), the tests that say why one
    of our functions gave nothing back (joined with the functions that give nothing for a failure),
    the functions that return a reply they read, and the writes on a record's field that the project
    joins (`fields`)."""
    package = module if is_package else module.rpartition(".")[0]
    imports: dict[str, str] = {}
    for node in tree.body:
        note_import(node, imports, package)
    # names of other packages' code: a bare call of anything else (this file's functions, the
    # package's `from .grader import grade`, a global) is a call of our own code
    root = module.split(".")[0]
    foreign = frozenset(local for local, target in imports.items() if not root or target.split(".")[0] != root)
    constants = _module_constants(tree.body, imports)
    definitions = {node.name: node for node in tree.body if isinstance(node, _FUNCTIONS)}
    writes: list[Write] = []
    blames: list[Blame] = []
    tallies: list[Tally] = []
    raises: list[Raises] = []
    functions: list[str] = []
    absences: list[Absence] = []
    replies: list[str] = []
    records: list[Write] = []
    lines: list[str] = []
    pending = list(_definitions(tree.body, "", frozenset()))
    while pending:
        qualname, function, methods, bases = pending.pop()
        scan = Scan(qualname, function, imports, stages, foreign, methods, constants, definitions, bases)
        # the scan met the function's nested definitions on its one walk (or skipped its body)
        inner = scan.nested if scan.walked else _inner(function.body)
        pending.extend(_definitions(inner, qualname + ".", methods, bases))
        contested = scan.contested()
        fields = scan.record_writes()
        if (contested or scan.blames or scan.tallies or fields) and not lines:
            lines = text.splitlines()
        writes.extend(w.finish(lines) for w in contested)
        records.extend(w.finish(lines) for w in fields)
        blames.extend(b.finish(lines) for b in scan.blames)
        tallies.extend(scan.finish_tallies(lines, module))
        raises.extend(Raises(qualname, error, cause) for error, cause in dict.fromkeys(scan.raises_causes()))
        functions.append(qualname)
        absences.extend(scan.absences)
        if scan.gives_reply:
            replies.append(qualname)
    writes.sort(key=lambda write: (write.pos.line, write.pos.column))
    blames.sort(key=lambda blame: blame.pos.line)
    tallies.sort(key=lambda tally: tally.pos.line)
    absences.sort(key=lambda absence: absence.line)
    records.sort(key=lambda write: (write.pos.line, write.pos.column))
    return tuple(writes), tuple(blames), tuple(tallies), enums(tree, module, imports), tuple(raises), \
        tuple(functions), tuple(absences), tuple(replies), tuple(records)


def _module_constants(body: list[ast.stmt], imports: dict[str, str]) -> dict[str, str]:
    """Name → constant key of the module's constants: a name the module binds once, to a constant
    (`_FAILED = "fail"`, keyed by its value), or imports in UPPER_SNAKE (`from .codes import
    FAILED`, keyed by its name: the module holding its value is not read here)."""
    constants = {local: repr(local) for local in imports if is_constant_name(local)}
    seen: set[str] = set()
    for node in body:
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = _constant(node.value) if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None \
                and not isinstance(node.value, ast.ListComp) else None
            for target in targets:
                for name in (n.id for n in walk(target) if isinstance(n, ast.Name)):
                    if name in seen or value is None or not isinstance(target, ast.Name):
                        constants.pop(name, None)
                    else:
                        constants[name] = value
                    seen.add(name)
    return constants
