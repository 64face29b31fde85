"""An `ast` tree for source that LibCST parses but the running interpreter's `ast` cannot.

Outcome facts (facts/outcomes/) are read from `ast`. A file written for a newer Python than the
one failcode runs on (a 3.12 f-string with nested quotes, type parameters, a `type` alias, a 3.14
t-string or `except A, B:` checked on 3.11) would otherwise lose them all without a word. Here
LibCST, which parses every version's syntax, finds those constructs and rewrites each in place
with text of the same lines and length that the older parser accepts:

- an f-string or t-string (with the strings it is concatenated with) becomes `(   )`, and the
  `ast.JoinedStr` it stands for is then built from LibCST's parts and put where the `()` parsed;
- type parameters (`def f[T](…)`, `class C[T]:`) become spaces;
- `type X[T] = v` becomes `X         = v`, an assignment of the alias;
- `except A, B:` becomes `except(A,B):`.

Everything outside the rewritten spans keeps its line and column, so positions read from the tree
are positions in the file. A construct that cannot be rewritten in place (type parameters over
several lines) leaves the file to the caller, which reports it rather than check it in part.
"""

from __future__ import annotations

import ast
import warnings
from typing import Optional, Union

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

_STRINGS = (cst.FormattedString, cst.TemplatedString, cst.ConcatenatedString)
_CONVERSIONS = {None: -1, "s": ord("s"), "r": ord("r"), "a": ord("a")}


def _parses(text: str) -> Optional[ast.Module]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return None


def ast_tree(text: str) -> Optional[ast.Module]:
    """The `ast` of `text`, rewritten where the running Python cannot parse it; None when LibCST
    cannot parse it either, or a construct cannot be rewritten in place."""
    tree = _parses(text)
    if tree is not None:
        return tree
    try:
        wrapper = MetadataWrapper(cst.parse_module(text), unsafe_skip_copy=True)
    except (cst.ParserSyntaxError, RecursionError, ValueError):
        return None
    return _Rewrite(wrapper, text).tree()


class _Rewrite:
    def __init__(self, wrapper: MetadataWrapper, text: str) -> None:
        self.module = wrapper.module
        self.positions = wrapper.resolve(PositionProvider)
        self.lines = text.splitlines(keepends=True)
        self.text = text
        self.edits: list[tuple[CodeRange, str]] = []
        self.strings: dict[tuple[int, int], ast.expr] = {}  # (line, byte column) of a `()` → its JoinedStr
        self.failed = False

    def tree(self) -> Optional[ast.Module]:
        self._visit(self.module)
        if self.failed:
            return None
        tree = _parses(self._edited())
        if tree is None:
            return None
        return _Splice(self.strings).visit(tree) if self.strings else tree

    # -- finding what to rewrite ---------------------------------------------------------------

    def _visit(self, node: cst.CSTNode) -> None:
        if isinstance(node, _STRINGS):
            code = self.module.code_for_node(node)
            if isinstance(node, cst.TemplatedString) or _parses(f"(\n{code}\n)") is None or _has_template(node):
                self._string(node)
            return  # a string that parses whole holds nothing that does not
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)) and node.type_parameters is not None:
            self._blank(node.type_parameters)
        elif isinstance(node, cst.TypeAlias):
            self._alias(node)
        elif isinstance(node, (cst.ExceptHandler, cst.ExceptStarHandler)) and isinstance(node.type, cst.Tuple) \
                and not node.type.lpar:
            self._except_list(node)
        for child in node.children:
            self._visit(child)

    def _string(self, node: cst.CSTNode) -> None:
        where = self.positions[node]
        built = self._joined(node)
        if built is None:
            self.failed = True
            return
        lines = self._span(where).split("\n")
        if len(lines) == 1:
            replacement = "(" + " " * (len(lines[0]) - 2) + ")"
        else:
            middle = [" " * len(line) for line in lines[1:-1]]
            replacement = "\n".join(["(" + " " * (len(lines[0]) - 1), *middle, " " * (len(lines[-1]) - 1) + ")"])
        self.edits.append((where, replacement))
        self.strings[(where.start.line, self._byte_column(where.start.line, where.start.column))] = built

    def _blank(self, node: cst.CSTNode) -> None:
        where = self.positions[node]
        if where.start.line != where.end.line:
            self.failed = True
            return
        self.edits.append((where, " " * (where.end.column - where.start.column)))

    def _alias(self, node: cst.TypeAlias) -> None:
        start, value = self.positions[node].start, self.positions[node.value].start
        if start.line != value.line:
            self.failed = True
            return
        head = node.name.value
        width = value.column - start.column
        self.edits.append((CodeRange(start, value), head + " " * (width - len(head) - 2) + "= "))

    def _except_list(self, node: Union[cst.ExceptHandler, cst.ExceptStarHandler]) -> None:
        where = self.positions[node.type]
        if where.start.line != where.end.line:
            self.failed = True
            return
        before = self.lines[where.start.line - 1][:where.start.column]
        gap = len(before) - len(before.rstrip(" \t"))
        packed = "(" + "".join(self._span(where).split()) + ")"
        width = where.end.column - where.start.column + gap
        if len(packed) > width:
            self.failed = True
            return
        start = cst.metadata.CodePosition(where.start.line, where.start.column - gap)
        self.edits.append((CodeRange(start, where.end), packed + " " * (width - len(packed))))

    # -- building a JoinedStr from LibCST's parts ------------------------------------------------

    def _joined(self, node: cst.CSTNode) -> Optional[ast.JoinedStr]:
        values: list[ast.expr] = []
        for part in _pieces(node):
            if isinstance(part, cst.SimpleString):
                value = part.evaluated_value
                if not isinstance(value, str):
                    return None
                values.append(ast.Constant(value))
                continue
            built = self._parts(part.parts, part)
            if built is None:
                return None
            values.extend(built)
        return ast.JoinedStr(_merged(values))

    def _parts(self, pieces, string) -> Optional[list[ast.expr]]:
        """The text and replacement fields of an f-string (or of a format spec inside one)."""
        values: list[ast.expr] = []
        for piece in pieces:
            if isinstance(piece, (cst.FormattedStringText, cst.TemplatedStringText)):
                text = _literal(piece.value, string)
                if text is None:
                    return None
                values.append(ast.Constant(text))
            else:
                built = self._field(piece, string)
                if built is None:
                    return None
                values.extend(built)
        return values

    def _field(self, piece, string) -> Optional[list[ast.expr]]:
        """`{expr!r:spec}` as ast writes it; `{expr=}` also writes its text first."""
        code = self.module.code_for_node(piece.expression)
        expression = _expression(code)
        if expression is None:
            return None
        spec = None
        if piece.format_spec is not None:
            parts = self._parts(piece.format_spec, string)
            if parts is None:
                return None
            spec = ast.JoinedStr(_merged(parts))
        conversion = piece.conversion
        out: list[ast.expr] = []
        if piece.equal is not None:
            shown = (self.module.code_for_node(piece.whitespace_before_expression) + code
                     + self.module.code_for_node(piece.whitespace_after_expression)
                     + self.module.code_for_node(piece.equal))
            out.append(ast.Constant(shown))
            if conversion is None and spec is None:
                conversion = "r"
        out.append(ast.FormattedValue(expression, _CONVERSIONS.get(conversion, -1), spec))
        return out

    # -- text ------------------------------------------------------------------------------------

    def _span(self, where: CodeRange) -> str:
        if where.start.line == where.end.line:
            return self.lines[where.start.line - 1][where.start.column:where.end.column]
        first = self.lines[where.start.line - 1][where.start.column:]
        middle = self.lines[where.start.line:where.end.line - 1]
        last = self.lines[where.end.line - 1][:where.end.column]
        return "".join([first, *middle, last])

    def _byte_column(self, line: int, column: int) -> int:
        return len(self.lines[line - 1][:column].encode("utf-8"))

    def _edited(self) -> str:
        """The text with every edit applied; edits never overlap (strings are rewritten whole)."""
        starts = [0]
        for line in self.lines:
            starts.append(starts[-1] + len(line))
        text = self.text
        for where, replacement in sorted(self.edits, key=lambda edit: (edit[0].start.line, edit[0].start.column),
                                         reverse=True):
            begin = starts[where.start.line - 1] + where.start.column
            end = starts[where.end.line - 1] + where.end.column
            text = text[:begin] + replacement + text[end:]
        return text


def _has_template(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.TemplatedString) or isinstance(node, cst.ConcatenatedString) and (
        _has_template(node.left) or _has_template(node.right))


def _pieces(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The strings of a concatenation, left to right."""
    if isinstance(node, cst.ConcatenatedString):
        return [*_pieces(node.left), *_pieces(node.right)]
    return [node]


def _literal(text: str, string) -> Optional[str]:
    """The value of a literal part of an f-string, as its prefix and quotes make it: escapes
    read (unless raw) and `{{`/`}}` halved."""
    prefix = string.prefix.lower().replace("f", "").replace("t", "")
    quote = string.quote
    try:
        value = ast.literal_eval(f"{prefix}{quote}{text}{quote}")
    except (SyntaxError, ValueError):
        return None
    return value.replace("{{", "{").replace("}}", "}") if isinstance(value, str) else None


def _expression(code: str) -> Optional[ast.expr]:
    """A replacement field's expression (which may hold f-strings of its own)."""
    tree = ast_tree(f"(\n{code}\n)")
    if tree is None or len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        return None
    return tree.body[0].value


def _merged(values: list[ast.expr]) -> list[ast.expr]:
    """Adjacent constants joined and empty ones dropped, as `ast` writes a JoinedStr."""
    out: list[ast.expr] = []
    for value in values:
        if isinstance(value, ast.Constant):
            if not value.value:
                continue
            if out and isinstance(out[-1], ast.Constant):
                out[-1] = ast.Constant(out[-1].value + value.value)
                continue
        out.append(value)
    return out


class _Splice(ast.NodeTransformer):
    """Put each built JoinedStr where its `()` parsed, every node of it at the string's span."""

    def __init__(self, strings: dict[tuple[int, int], ast.expr]) -> None:
        self.strings = strings

    def visit_Tuple(self, node: ast.Tuple) -> ast.AST:
        built = self.strings.get((node.lineno, node.col_offset)) if not node.elts else None
        if built is None:
            return self.generic_visit(node)
        for inner in ast.walk(built):
            if isinstance(inner, (ast.expr, ast.expr_context)) and hasattr(inner, "_attributes"):
                for name in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
                    if name in inner._attributes:
                        setattr(inner, name, getattr(node, name))
        return built
