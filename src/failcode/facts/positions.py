"""Positions of the few nodes that become facts, without LibCST's whole-module codegen.

`PositionProvider` renders the whole module (about two LibCST parses) to position every node;
a file's facts need a handful. `ast` knows the first line of every statement, and LibCST's
statements match `ast`'s one to one in source order, so only the statements that hold a wanted
node are rendered — with LibCST's own position-recording codegen state, started at the line
`ast` gives — and rendering stops once every wanted node in the statement has its range. The
ranges are PositionProvider's by construction; each rendered statement is also compared with the
source text at that line, and any disagreement (or anything unexpected) falls back to
PositionProvider for the whole file. tests/test_positions.py compares both on a large corpus.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import warnings
from types import SimpleNamespace
from typing import Callable, Iterable, Mapping, Optional, Sequence

import libcst as cst
from libcst._position import CodePosition, CodeRange
from libcst.metadata import MetadataWrapper, PositionProvider
from libcst.metadata.position_provider import PositionProvidingCodegenState

Fields = Callable[[cst.CSTNode], tuple]

_NEWLINE = re.compile(r"\r\n?|\n")  # LibCST's and Python's line breaks
# LibCST statement class → the ast statement classes it may face at the same place in source order
_AST_NAMES = {
    "FunctionDef": ("FunctionDef", "AsyncFunctionDef"), "For": ("For", "AsyncFor"),
    "With": ("With", "AsyncWith"), "Del": ("Delete",),
}
_OTHER, _LINE, _COMPOUND, _SMALL, _BLOCK = range(5)
_KINDS: dict[type, int] = {}
_FIELDS: dict[type, tuple[str, ...]] = {}


class Unpositioned(Exception):
    """The statement-by-statement way cannot vouch for a position: PositionProvider must tell."""


class _Complete(Exception):
    """The statement being rendered has told everything wanted from it."""


def all_fields(node: cst.CSTNode) -> tuple[str, ...]:
    """Every field of a node (the extractor passes its own, shorter list)."""
    names = _FIELDS.get(type(node))
    if names is None:
        names = _FIELDS[type(node)] = tuple(field.name for field in dataclasses.fields(node))
    return names


def node_positions(module: cst.Module, nodes: Iterable[cst.CSTNode], source: Optional[str],
                   tree: Optional[ast.Module] = None, fields: Fields = all_fields,
                   rows: Optional[Sequence[int]] = None) -> Mapping[int, CodeRange]:
    """PositionProvider's range of each node, keyed by `id(node)`: statement by statement when
    `source` (the text `module` was parsed from) is given, else — or when that way cannot vouch —
    by PositionProvider. `tree` is the source's `ast` when the caller has it; `fields` names the
    node fields that can lead to the wanted nodes. When `source` holds some lines of a file,
    `rows` gives each its line in the file, and `tree` numbers statements as the file does."""
    wanted = {id(node): node for node in nodes}
    if not wanted:
        return {}
    if source is not None:
        try:
            return statement_positions(module, wanted.values(), source, tree, fields, rows)
        except (Unpositioned, AttributeError, KeyError, IndexError, TypeError, ValueError):
            pass  # including the unexpected from LibCST's internals: the slow way is still right
    ranges = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    return {key: ranges[node] for key, node in wanted.items()}


def statement_positions(module: cst.Module, nodes: Iterable[cst.CSTNode], source: str,
                        tree: Optional[ast.Module] = None, fields: Fields = all_fields,
                        rows: Optional[Sequence[int]] = None) -> dict[int, CodeRange]:
    """PositionProvider's range of each node, keyed by `id(node)`, rendering only the statements
    that hold them; raises Unpositioned where it cannot vouch for the result."""
    wanted = {id(node): node for node in nodes}
    if tree is None:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
            raise Unpositioned(f"ast cannot parse the source: {exc}") from None
    statements = _ast_statements(tree)
    line_of = (lambda line: line) if rows is None else {row: number for number, row in enumerate(rows, 1)}.__getitem__
    starts = [0] + [match.end() for match in _NEWLINE.finditer(source)]
    result: dict[int, CodeRange] = {}
    elifs: set[int] = set()
    for statement, indents, index, anchor, inside in _locate(module, wanted, fields, elifs):
        if index >= len(statements):
            raise Unpositioned("LibCST and ast count different statements")
        node = statements[index]
        line, ast_name = line_of(node.lineno), type(node).__name__
        if ast_name not in _AST_NAMES.get(type(anchor).__name__, (type(anchor).__name__,)):
            raise Unpositioned(f"statement {index}: LibCST {type(anchor).__name__}, ast {ast_name}")
        if isinstance(statement, (cst.Try, cst.TryStar)):
            told = _try_ranges(statement, node, inside, source, starts, line_of)
            if told is not None:  # a try's range ends where its last block does: no need to render it
                result.update(told)
                continue
        state = _State(default_indent=module.default_indent, default_newline=module.default_newline,
                       provider=None, indent_tokens=list(indents))
        state.setup(anchor, inside)
        ranges = state.provider._computed
        try:
            # an `elif` renders as `if` unless its parent `if` says otherwise
            statement._codegen(state, **({"is_elif": True} if id(statement) in elifs else {}))
        except Exception as exc:  # noqa: BLE001 - _Complete, or what unwinding a stopped rendering raises
            interrupt = exc.__context__  # _Complete raised by a `finally` that Ctrl-C was unwinding
            while interrupt is not None and not isinstance(interrupt, KeyboardInterrupt):
                interrupt = interrupt.__context__
            if interrupt is not None:
                raise interrupt
            if ranges.waiting or state.anchor_line is None:
                raise
        finally:
            state.ended()
        if ranges.waiting or state.anchor_line is None:
            raise Unpositioned(f"line {line}: rendering did not reach every wanted node")
        shift = line - state.anchor_line
        if not 0 <= shift < len(starts):  # the rendering began at line 1 + shift, column 0
            raise Unpositioned(f"line {line}: the statement would start outside the file")
        code = "".join(state.tokens)
        offset = starts[shift]
        if not source.startswith(code, offset) and source[offset:] + module.default_newline != code:
            raise Unpositioned(f"line {line}: the rendered statement differs from the source there")
        for key, found in ranges.final.items():
            result[key] = CodeRange(CodePosition(found.start.line + shift, found.start.column),
                                    CodePosition(found.end.line + shift, found.end.column))
    return result


class _State(PositionProvidingCodegenState):
    """LibCST's position-recording codegen state, rendering one statement.

    It notes the line where the anchor statement's syntactic range starts (the line `ast` gives
    for it) and stops rendering once that line and every wanted node's range are known. A node's
    range is final when first stored (the syntactic range is stored before the whitespace-inclusive
    one, which never overwrites), so stopping early loses nothing.
    """

    def setup(self, anchor: cst.CSTNode, wanted: Iterable[int]) -> None:
        self.anchor = anchor
        self.anchor_line: Optional[int] = None
        self.provider = SimpleNamespace(_computed=_Ranges(self, wanted))

    def ended(self) -> None:
        """The rendering has stopped, however it stopped: a generator it left suspended (Ctrl-C)
        and the garbage collector closes later stores its range quietly, raising nothing."""
        self.provider._computed.live = False

    def record_syntactic_position(self, node, *, start_node=None, end_node=None):
        if node is self.anchor and self.anchor_line is None:
            self.anchor_line = self.line
            if not self.provider._computed.waiting:
                raise _Complete
        return PositionProvidingCodegenState.record_syntactic_position(
            self, node, start_node=start_node, end_node=end_node)


class _Ranges(dict):
    """The range table of one rendering; it knows which wanted nodes are still waiting."""

    def __init__(self, state: _State, wanted: Iterable[int]) -> None:
        super().__init__()
        self.state = state
        self.waiting = set(wanted)
        self.final: dict[int, CodeRange] = {}
        self.live = True  # the rendering runs: the last wanted range stops it (`_State.ended`)

    def __setitem__(self, node, value) -> None:
        super().__setitem__(node, value)
        if id(node) in self.waiting:
            self.waiting.discard(id(node))
            self.final[id(node)] = value
            if not self.waiting and self.state.anchor_line is not None and self.live:
                raise _Complete


def _try_ranges(statement: cst.CSTNode, node: ast.stmt, inside: list[int], source: str, starts: list[int],
                line_of: Callable[[int], int]) -> Optional[dict[int, CodeRange]]:
    """The ranges of a try and its handlers from `ast`, when those are all the statement holds
    that is wanted: `ast` gives where each starts and ends (UTF-8 columns, made characters here).
    None where LibCST's range may differ: a block ending in `;`, which LibCST leaves out, or
    anything but a comment after the end."""
    parts = {id(statement): node, **{id(cst_handler): ast_handler
                                     for cst_handler, ast_handler in zip(statement.handlers, node.handlers)}}
    if not all(key in parts for key in inside):
        return None
    ranges = {}
    for key in inside:
        part = parts[key]
        first, last = line_of(part.lineno), line_of(part.end_lineno)
        head, tail = (source[starts[number - 1]:starts[number]].rstrip("\r\n").encode() for number in (first, last))
        try:
            column = len(head[:part.col_offset].decode())
            ending, rest = tail[:part.end_col_offset].decode(), tail[part.end_col_offset:].decode()
        except UnicodeDecodeError:
            return None
        if ending.rstrip().endswith(";") or rest.strip() and not rest.lstrip().startswith("#") \
                or not head[part.col_offset:].startswith((b"try", b"except")):
            return None
        ranges[key] = CodeRange(CodePosition(first, column), CodePosition(last, len(ending)))
    return ranges


def _ast_statements(tree: ast.Module) -> list[ast.stmt]:
    """Every statement, in source order."""
    found: list[ast.stmt] = []

    def block(body) -> None:
        for statement in body:
            found.append(statement)
            block(getattr(statement, "body", ()))
            for part in getattr(statement, "handlers", ()):
                block(part.body)
            for part in getattr(statement, "cases", ()):
                block(part.body)
            block(getattr(statement, "orelse", ()))
            block(getattr(statement, "finalbody", ()))

    block(tree.body)
    return found


def _kind(kind: type) -> int:
    """What a node class means to the statement count (isinstance on LibCST's ABCs is slow)."""
    if issubclass(kind, cst.SimpleStatementLine):
        return _LINE
    if issubclass(kind, cst.BaseCompoundStatement):
        return _COMPOUND
    if issubclass(kind, cst.BaseSmallStatement):
        return _SMALL
    return _BLOCK if issubclass(kind, cst.IndentedBlock) else _OTHER


def _locate(module: cst.Module, wanted: dict[int, cst.CSTNode], fields: Fields, elifs: set[int]):
    """For each statement that starts a line and holds wanted nodes (the innermost such):
    (statement, indent tokens, index of its first statement in source order, the node `ast`
    positions the same way, ids of the wanted nodes inside). Adds the ids of `elif` nodes to `elifs`.

    A simple-statement line is anchored by its first small statement; a compound statement by
    itself. Walking stops once every wanted node is found.
    """
    groups: dict[int, list] = {}
    remaining = set(wanted)
    count = 0
    default_indent = module.default_indent

    class _Found(Exception):
        pass

    def visit(node: cst.CSTNode, group: Optional[list], indents: tuple[str, ...]) -> None:
        nonlocal count
        kind = _KINDS.get(type(node))
        if kind is None:
            kind = _KINDS[type(node)] = _kind(type(node))
        if kind == _LINE:
            group = [node, indents, count, node.body[0] if node.body else node, []]
        elif kind == _COMPOUND:
            group = [node, indents, count, node, []]
            count += 1
            if isinstance(node, cst.If) and isinstance(node.orelse, cst.If):
                elifs.add(id(node.orelse))
        elif kind == _SMALL:
            count += 1
        if kind == _BLOCK or isinstance(node, cst.Match):  # the two nodes that indent what they hold
            indents = (*indents, default_indent if node.indent is None else node.indent)
        key = id(node)
        if key in remaining:
            if group is None:
                raise Unpositioned("a wanted node outside every statement")
            remaining.discard(key)
            groups.setdefault(id(group[0]), group)[4].append(key)
            if not remaining:
                raise _Found
        for name in fields(node):
            value = getattr(node, name)
            if isinstance(value, cst.CSTNode):
                visit(value, group, indents)
            elif isinstance(value, (tuple, list)):
                for item in value:
                    if isinstance(item, cst.CSTNode):
                        visit(item, group, indents)

    try:
        visit(module, None, ())
    except _Found:
        pass
    if remaining:
        raise Unpositioned("a wanted node is not in the module")
    return [tuple(group) for group in groups.values()]
