"""Registry candidates read statically from module-level definitions (data files: facts/datafiles.py).

A candidate is any module-level collection of strings, Enum or constants class, or `Literal[...]`
alias whose name looks like a registry (or is configured). Whether it is discovered as a registry
is decided later, in the project phase; nothing here imports or runs the checked code.
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from failcode.facts.imports import ImportTable
from failcode.facts.sinks import string_value
from failcode.model import Pos, Registry, RegistryEntry
from failcode.names import ENUM_BASES

_COLLECTION_CALLS = {"frozenset": "frozenset", "set": "set", "tuple": "tuple", "list": "list"}

PosOf = Callable[[cst.CSTNode], Pos]
Element = tuple[cst.CSTNode, str, Optional[str]]  # node, code, member


def collection_elements(value: cst.BaseExpression, imports: ImportTable,
                        constants: Optional[dict[str, str]] = None) -> Optional[tuple[str, list[Element], bool]]:
    """(kind, elements, complete) for a literal collection of strings, else None. `constants`: the
    module's string constants so far, so that `(PARSE_FAILED, ANSWER_MISMATCH)` holds their values."""
    kind = None
    items: list[cst.CSTNode] = []
    if isinstance(value, cst.Call) and len(value.args) == 1:
        called = imports.resolve(value.func)
        if called in _COLLECTION_CALLS:
            inner = collection_elements(value.args[0].value, imports, constants)
            return (called, inner[1], inner[2]) if inner else None
        return None
    if isinstance(value, (cst.List, cst.Tuple, cst.Set)):
        kind = type(value).__name__.lower()
        items = [element.value for element in value.elements]
    elif isinstance(value, cst.Dict):
        kind = "dict"
        items = [element.key for element in value.elements if isinstance(element, cst.DictElement)]
        if len(items) != len(value.elements):
            return None
    elif isinstance(value, cst.Subscript):
        called = imports.resolve(value.value) or ""
        if called.rpartition(".")[2] != "Literal":
            return None
        kind = "literal"
        items = [element.slice.value for element in value.slice if isinstance(element.slice, cst.Index)]
    else:
        return None
    elements = []
    for item in items:
        code = string_value(item)
        if code is None and constants and isinstance(item, cst.Name) and kind != "literal":
            code = constants.get(item.value)
        if code is None:
            return None
        elements.append((item, code, None))
    return (kind, elements, True) if elements else None


def class_elements(node: cst.ClassDef, imports: ImportTable) -> Optional[tuple[str, list[Element], bool]]:
    """(kind, members, complete) for an Enum or a plain class of string constants."""
    bases = [imports.resolve(arg.value) or "" for arg in node.bases]
    kind = "enum" if any(base.rpartition(".")[2] in ENUM_BASES or base.endswith("Enum") for base in bases) else "class"
    elements: list[Element] = []
    complete = True
    for statement in node.body.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            target, value = _single_assignment(small)
            if target is None or target.startswith("_"):
                continue
            code = string_value(value) if value is not None else None
            if code is None and kind == "enum" and isinstance(value, cst.Call) and \
                    (imports.resolve(value.func) or "").rpartition(".")[2] == "auto":
                code = target
            if code is None:
                complete = False
                continue
            elements.append((value, code, target))
    return (kind, elements, complete) if elements else None


def _single_assignment(small: cst.BaseSmallStatement):
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
        return small.targets[0].target.value, small.value
    if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and small.value is not None:
        return small.target.value, small.value
    return None, None


def build(name: str, module: str, path: str, pos: Pos, found, pos_of: PosOf) -> Registry:
    kind, elements, complete = found
    entries = tuple(RegistryEntry(code, pos_of(node), member) for node, code, member in elements)
    return Registry(name, module, path, pos, kind, entries, complete)
