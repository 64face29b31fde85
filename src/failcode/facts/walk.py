"""`ast` traversal at about twice the speed of `ast.walk`.

`ast.walk` goes through generators for every field of every node and yields each name's
`Load`/`Store` marker as a node of its own; the screen and the outcome scan walk most statements
of every file, so they use these instead. The order differs from `ast.walk` (depth first, last
child first): callers ask whether something is there, or collect into sets.
"""

from __future__ import annotations

import ast
from typing import Iterator

_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(kind: type) -> tuple[str, ...]:
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(name for name in kind._fields if name != "ctx")
    return names


def child_nodes(node: ast.AST) -> list[ast.AST]:
    """A node's child nodes in field order (`ast.iter_child_nodes`), without `ctx` markers."""
    found: list[ast.AST] = []
    for name in _fields(type(node)):
        value = getattr(node, name, None)
        if type(value) is list:
            found.extend(item for item in value if isinstance(item, ast.AST))
        elif isinstance(value, ast.AST):
            found.append(value)
    return found


def walk(root: ast.AST) -> Iterator[ast.AST]:
    """The root and every node under it (as `ast.walk`, in another order, without `ctx` markers)."""
    stack = [root]
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        yield node
        for name in _fields(type(node)):
            value = getattr(node, name, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, ast.AST):
                        push(item)
            elif isinstance(value, ast.AST):
                push(value)
