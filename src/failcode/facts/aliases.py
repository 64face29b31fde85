"""Module constants derived from another collection: a registry under another name; and the names a
module binds at its top level other than by defining them, through which another module may reach a
registry it did not define.

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
from failcode.facts.outcomes.syntax import _TRY, _dotted

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


def reexports(tree: ast.Module) -> tuple[str, ...]:
    """The capitalised names (a class's, a constant's) the module binds at its top level by an import
    or by assigning another name (`Status = codes.Status`), also under a top-level `if`, `try` or
    `with`; `*` for a star import. A name another module reaches through this one (`pb2.Status.X`
    after `from pkg.protos import service_pb2 as pb2`) may be a registry of ours only when this
    module binds it so: one it defines itself, builds (`Status = EnumTypeWrapper(…)`) or that
    appears in it at run time (protobuf's generated modules fill `globals()`) is another object of
    the same name."""
    found: dict[str, None] = {}
    pending = list(tree.body)
    while pending:
        statement = pending.pop()
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            for alias in statement.names:
                name = alias.asname or alias.name.split(".")[0]
                if name == "*" or name[:1].isupper():
                    found[name] = None
        elif isinstance(statement, (ast.Assign, ast.AnnAssign)) and _dotted(statement.value) is not None:
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            for target in targets:  # `Status = codes.Status`: another name for what exists (a call makes a new one)
                if isinstance(target, ast.Name) and target.id[:1].isupper():
                    found[target.id] = None
        elif isinstance(statement, (ast.If, ast.With, *_TRY)):
            for block in ("body", "orelse", "finalbody", "handlers"):
                for inner in getattr(statement, block, ()):
                    pending.extend(inner.body if isinstance(inner, ast.ExceptHandler) else [inner])
    return tuple(sorted(found))
