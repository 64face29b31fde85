"""Module constants derived from another collection: a registry under another name.

`KNOWN = {c.value for c in FailureCode}`, `frozenset(FailureCode)`, `set(FailureCode.__members__)`,
`FailureCode._value2member_map_`, `frozenset(FAILURE_CODES)`, `tuple(ORDER)`: each holds exactly
the codes of the collection it is made from, so a filter against it (FC004) drops what that
registry does not know. Read from the `ast` tree every file gets, at module level only; whether
the source is a registry is the project's to say.
"""

from __future__ import annotations

import ast
from typing import Optional

from failcode.facts.outcomes import note_import
from failcode.facts.outcomes.syntax import _dotted

_COPIES = frozenset("set frozenset tuple list sorted dict".split())
# what an Enum offers of its members, or a dict of its keys
_VIEWS = frozenset("__members__ _value2member_map_ _member_map_ _member_names_ keys values".split())


def aliases(tree: ast.Module, module: str, is_package: bool) -> tuple[tuple[str, str], ...]:
    package = module if is_package else module.rpartition(".")[0]
    imports: dict[str, str] = {}
    found: list[tuple[str, str]] = []
    for statement in tree.body:
        note_import(statement, imports, package)
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target, value = statement.targets[0], statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            target, value = statement.target, statement.value
        else:
            continue
        source = _source(value) if isinstance(target, ast.Name) else None
        if source is not None:
            root, dot, rest = source.partition(".")
            resolved = f"{imports[root]}{dot}{rest}" if root in imports else (f"{module}.{source}" if module else source)
            found.append((target.id, resolved))
    return tuple(found)


def _source(value: ast.expr) -> Optional[str]:
    """The dotted name of the collection `value` copies or views, None when it is anything else."""
    if isinstance(value, (ast.SetComp, ast.ListComp, ast.GeneratorExp, ast.DictComp)) and len(value.generators) == 1:
        generator = value.generators[0]
        return None if generator.ifs else _source(generator.iter) or _dotted(generator.iter)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in _COPIES \
            and len(value.args) == 1 and not value.keywords:
        return _source(value.args[0]) or _dotted(value.args[0])
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _VIEWS \
            and not value.args:
        return _dotted(value.func.value)
    if isinstance(value, ast.Attribute) and value.attr in _VIEWS:
        return _dotted(value.value)
    return None
