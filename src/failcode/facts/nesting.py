"""Refuse, before LibCST sees it, source nested so deep that LibCST's parser would crash.

LibCST's native parser recurses once per level of nesting on the C stack, with no limit of its own:
about 1,200 nested brackets, 3,400 chained `lambda`s or 7,000 chained calls overflow an 8 MB stack
and kill the process (a segmentation fault, not an exception), and deeper input can exhaust memory
first. Python itself refuses more than 200 nested brackets and cannot compile chains that deep, so
such a file is reported as unparseable input instead.

The scan is a lexer-level estimate of the stack the parse needs, in half-kilobytes measured on
LibCST 1.9: each open bracket, and along each chain of operators the operators that nest (a chain
of `+` nests once per `+`; `a*b + c*d` nests two levels deep, not four). It errs on the side of
"deep": strings and comments are skipped, and only a `,` `;` `=` or a new statement ends a chain.
"""

from __future__ import annotations

import re
import sys
from typing import Optional

MAX_BRACKETS = 200  # Python's own limit ("too many nested parentheses")
# Before 3.11, `ast.parse` itself can crash on long chains (`1+1+…`, 100,000 terms); from 3.11 on it
# raises RecursionError. Where it can crash, only text this scan accepts may be given to it.
AST_MAY_CRASH = sys.version_info < (3, 11)

# Native stack LibCST's parser needs per nesting level, in 512-byte units. Measured with an 8 MB
# stack: 1,150-1,300 nested brackets, 3,375 lambdas, 4,125 conditional expressions, 4,875 `**`,
# 6,281 subscripts, 6,937 calls and 7,187 `not`s parse; one level more of any crashes.
_BRACKET = 14
_LEVELS: dict[str, tuple[int, int]] = {}  # operator → (precedence level, units)


def _level(level: int, units: int, *operators: str) -> None:
    for operator in operators:
        _LEVELS[operator] = (level, units)


_level(0, 6, "lambda")
_level(0, 0, ":")  # `lambda x: body`, `{k: v}`, `a[i:j]`: what follows starts a new operand
_level(1, 4, "if")
_level(1, 0, "else")  # the rest of a conditional expression nests no deeper than its `if`
_level(2, 3, "or")
_level(3, 3, "and")
_level(4, 3, "not")
_level(5, 3, "in", "is", "<", ">", "==", ">=", "<=", "!=", "<>")
_level(6, 3, "|")
_level(7, 3, "^")
_level(8, 3, "&")
_level(9, 3, "<<", ">>")
_level(10, 3, "+", "-")
_level(11, 3, "*", "/", "//", "%", "@")
_level(12, 3, "~")
_level(13, 4, "**")
_level(14, 4, "await")
_level(15, 3, ".", "(", "[", "{")  # attribute, call, subscript, and a bracketed atom

_TEMPLATE_PREFIXES = frozenset(("f", "rf", "fr", "t", "rt", "tr"))
_TOKEN = re.compile(
    r"""
    [ \t]*
    (?: (?P<string>[^\W\d]\w*)?
        (?:'''(?:[^'\\]|\\.|'(?!''))*'''
          | \"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"
          | '(?:[^'\\\r\n]|\\.)*'
          | "(?:[^"\\\r\n]|\\.)*")
      | (?P<op>[^\W\d]\w*|\*\*|//|<<|>>|==|!=|<>|<=|>=|[-+*/%@&|^~<>.:](?!=))
      | \.?\d[\w.]*(?:(?<=[eE])[-+]\w+)?
      | \#[^\r\n]*
      | \\(?:\r\n?|\n)
      | (?P<open>[(\[{])
      | (?P<close>[)\]}])
      | (?P<reset>[,;\r\n]|(?:\*\*|//|>>|<<|[-+*/%@&|^:])?=)
    )
    """,
    re.VERBOSE | re.DOTALL,
)


def _stack_units() -> int:
    """The share of the main thread's stack a parse may use: 60 % of its size, at most 8 MB."""
    size = 8 << 20
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_STACK)
        if 0 < soft < size:
            size = soft
    except ImportError:  # Windows, where python.exe's main thread has 2 MB
        size = 2 << 20 if sys.platform == "win32" else size
    return size * 6 // 10 // 512


BUDGET = _stack_units()


def too_deep(text: str) -> Optional[str]:
    """Why LibCST cannot safely parse `text` (nesting beyond Python's or LibCST's limits), or None."""
    found = _scan(text, 0)
    if found is None:
        return None
    what, why, offset = found
    return f"{what} at line {text.count(chr(10), 0, offset) + 1}: {why}"


def _scan(text: str, outer: int) -> Optional[tuple[str, str, int]]:
    """(what, why, offset) of the first point nested too deep, starting `outer` units deep, or None."""
    levels = _LEVELS
    total = outer  # outer + the operators nesting at this point of the current chain
    chain: list[list[int]] = []  # [level, units] of the nesting operators, levels increasing
    saved: list[tuple[int, list[list[int]], bool]] = []  # per open bracket: outer, chain, in_lambda
    in_lambda = False  # between `lambda` and its `:`, `,` and `=` separate parameters, not chains
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        if kind is None:  # a plain string, a number, a comment or a line continuation
            continue
        token = match.group(kind)
        if kind == "string":  # a prefixed string: an f-string's fields nest inside this point
            if token.lower() in _TEMPLATE_PREFIXES:
                body = match.group()[match.end(kind) - match.start():]
                quotes = 3 if body[:3] in ("'''", '"""') else 1
                inner = _scan(body[quotes:-quotes], total)
                if inner is not None:
                    return inner[0], inner[1], match.end(kind) + quotes + inner[2]
        elif kind == "op" or kind == "open":
            found = levels.get(token)
            if found is None:  # a name
                continue
            level, units = found
            while chain and chain[-1][0] > level:
                total -= chain.pop()[1]
            if chain and chain[-1][0] == level:
                chain[-1][1] += units
            else:
                chain.append([level, units])
            total += units
            if token == ":":
                in_lambda = False
            elif token == "lambda":
                in_lambda = True
            elif kind == "open":
                saved.append((outer, chain, in_lambda))
                if len(saved) > MAX_BRACKETS:
                    return ("brackets nested too deeply", f"more than {MAX_BRACKETS} levels (Python allows "
                            f"{MAX_BRACKETS})", match.start(kind))
                outer = total = total + _BRACKET
                chain, in_lambda = [], False
            if total > BUDGET:
                return ("expression nested too deeply", f"LibCST's parser would need more than "
                        f"{BUDGET // 2} KB of stack", match.start(kind))
        elif kind == "close":
            if saved:
                outer, chain, in_lambda = saved.pop()
                total = outer + sum(units for _, units in chain)
        elif token in "\r\n":
            if not saved:  # a new statement
                chain, total, in_lambda = [], outer, False
        elif not in_lambda:  # `,` `;` `=` end a chain
            chain, total = [], outer
    return None
