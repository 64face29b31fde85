"""CST helpers for sinks: the name a receiver or target says, the values an expression records.

Which names are sinks is decided in `facts/vocabulary.py`, which the pre-screen shares without LibCST.
"""

from __future__ import annotations

from typing import Iterator, Optional

import libcst as cst

from failcode.facts.imports import dotted
from failcode.facts.vocabulary import is_recordable


def target_name(node: cst.BaseExpression) -> Optional[str]:
    """The name that says what a receiver/target holds: `self.failures` → `failures`,
    `result["status"]` → `status`, `failures[key]` → `failures`."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return node.attr.value
    if isinstance(node, cst.Subscript):
        if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            key = string_value(node.slice[0].slice.value)
            if key is not None and key.isidentifier():
                return key
        return target_name(node.value)
    return None


def target_text(node: cst.BaseExpression) -> str:
    """A stable text for a destination, used to compare destinations within one function."""
    name = dotted(node)
    if name is not None:
        return name
    if isinstance(node, cst.Subscript):
        base = target_text(node.value)
        if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            key = string_value(node.slice[0].slice.value)
            if key is not None:
                return f"{base}[{key!r}]"
        return f"{base}[]"
    if isinstance(node, cst.Attribute):  # `response.choices[0].finish_reason`
        return f"{target_text(node.value)}.{node.attr.value}"
    return type(node).__name__


def string_value(node: cst.CSTNode) -> Optional[str]:
    """The value of a plain (non-f, non-bytes) string literal, else None."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        try:
            value = node.evaluated_value
        except Exception:  # noqa: BLE001 - LibCST raises plain Exception for odd prefixes
            return None
        return value if isinstance(value, str) else None
    return None


def keyword_values(node: cst.BaseExpression) -> Iterator[tuple[cst.CSTNode, Optional[str], Optional[str]]]:
    """What a sink keyword records: its value's, or each element's of a list, tuple or set display
    (`Result(failure_codes=["READ_FAILED", "TIME_OUT"])`)."""
    if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
        for element in node.elements:
            if not isinstance(element, cst.StarredElement):
                yield from recorded_values(element.value)
    else:
        yield from recorded_values(node)


def recorded_values(node: cst.BaseExpression) -> Iterator[tuple[cst.CSTNode, Optional[str], Optional[str]]]:
    """(node, literal, reference) for each value an expression can record.

    A conditional records both branches (`"A" if ok else "B"`); `x or "DEFAULT"` records its
    literal fallback. References are UPPER_CASE constants and `Registry.MEMBER` attributes, which
    the project phase resolves. Anything else (variables, calls, f-strings) records no known value.
    """
    if isinstance(node, cst.IfExp):
        yield from recorded_values(node.body)
        yield from recorded_values(node.orelse)
        return
    if isinstance(node, cst.BooleanOperation):
        yield from recorded_values(node.left)
        yield from recorded_values(node.right)
        return
    literal = string_value(node)
    if literal is not None:
        if is_recordable(literal):
            yield node, literal, None
        return
    if isinstance(node, cst.Name) and node.value.isupper() and node.value[:1].isalpha():
        yield node, None, node.value
    elif isinstance(node, cst.Attribute) and dotted(node) is not None:
        if node.attr.value in ("value", "name") and isinstance(node.value, cst.Attribute):
            node = node.value  # FailureCode.PARSE_FAILED.value records the member
        attr = node.attr.value
        if attr.isupper() and attr[:1].isalpha():
            yield node, None, dotted(node)
