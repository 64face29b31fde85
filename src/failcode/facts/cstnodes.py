"""LibCST traversal the extractor and the filter finder share: a node's child fields without its
whitespace and punctuation, and the names an expression reads, found by walking those fields
directly (a `CSTVisitor` pays for its dispatch on every token)."""

from __future__ import annotations

import dataclasses
from typing import Iterator

import libcst as cst

_SKIP_FIELDS = frozenset(
    "lpar rpar comma semicolon leading_lines lines_after_decorators header footer trailing_whitespace"
    " colon equal dot first_colon second_colon lbrace rbrace lbracket rbracket newline comment"
    " empty_lines first_line last_line leading_whitespace indent separator operator trailing_comma"
    " posonly_ind default_indent default_newline encoding has_trailing_newline asynchronous"
    " whitespace".split()
)
_FIELDS: dict[type, tuple[str, ...]] = {}


def children_fields(node: cst.CSTNode) -> tuple[str, ...]:
    kind = type(node)
    names = _FIELDS.get(kind)
    if names is None:
        names = tuple(
            f.name for f in dataclasses.fields(node)
            if f.name not in _SKIP_FIELDS and not f.name.startswith("whitespace")
        )
        _FIELDS[kind] = names
    return names


def names_in(node: cst.CSTNode) -> Iterator[cst.Name]:
    """Every Name inside an expression, f-string parts included."""
    if isinstance(node, cst.Name):
        yield node
    for name in children_fields(node):
        value = getattr(node, name)
        for child in value if isinstance(value, (tuple, list)) else (value,):
            if isinstance(child, cst.CSTNode):
                yield from names_in(child)
