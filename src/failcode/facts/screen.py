"""Pre-screen: prove with `ast` that LibCST would find nothing in a file, and skip LibCST there.

Most files of ordinary code record no failure codes and define no registries, and `ast` parses
ten times faster than LibCST. The screen mirrors, erring towards "maybe", every way the extractor
(facts/extract.py) turns code into a fact, using the same vocabulary (facts/vocabulary.py),
and sends to LibCST every file where it cannot rule a fact out. It stays cheap by walking
statements only: the expressions of a statement are searched only when one of its lines holds a
word that could name a sink or a registry (found by a byte scan of the file). Module-level string
constants carry no position, so the screen records them itself rather than parse a file with
LibCST for them alone. A file `ast` cannot parse (newer syntax, errors) always goes to LibCST,
which decides and reports; a file `ast` parses but LibCST would refuse (nesting deeper than LibCST's
stack, facts/nesting.py) is refused only when it may hold a fact — otherwise it needs no LibCST.

The screen judges each top-level statement, each member of a top-level class and each definition
under a module-level `if` on its own: when only some may hold facts, LibCST reads those alone
(`Masked`). The other top-level statements are left out, and what they would have told the
extractor (imports, the module's definitions, string constants) goes with the text as `ast`
read it; a class's or an `if`'s fact-free members are stubs, `def name():` and the imports they
hold. So a file with one judging function among fifty helpers costs LibCST one function, not
fifty. A large file goes in parts, each with some of the definitions that may hold facts.

Kept conservative by a differential guard (tests/test_prescreen.py, tests/test_fuzz.py): on the
test corpora, the stdlib and fuzzed programs, a screened-out file must get exactly the facts full
extraction gives it; `failcode check --no-prescreen` checks the same on any tree.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import re
import unicodedata
import warnings
from dataclasses import dataclass
from itertools import accumulate
from typing import Iterable, Iterator, Optional, Union

from failcode.config import Settings
from failcode.facts.nesting import AST_MAY_CRASH, too_deep
from failcode.facts.vocabulary import DOTTED_NAME, Vocabulary, is_recordable
from failcode.facts.source import suppressions
from failcode.facts.walk import walk
from failcode.model import Constant, FileFacts
from failcode.names import FAILURE_WORDS, REGISTRY_WORDS, is_constant_name

_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_DEFINITIONS = frozenset({*_FUNCTIONS, ast.ClassDef})
_TRY = tuple(getattr(ast, name) for name in ("Try", "TryStar") if hasattr(ast, name))
_MATCH = getattr(ast, "Match", ())  # Python 3.10+
_TYPE_ALIAS = getattr(ast, "TypeAlias", ())  # Python 3.12+
_COMPOUND = tuple({*_FUNCTIONS, ast.ClassDef, ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith,
                   *_TRY, *((_MATCH,) if _MATCH else ())})
_NON_ASCII_WORD = re.compile(r"\b\w*[^\W\x00-\x7f]\w*")  # tried at word starts only: linear
# A string whose value is not its text: an escape that can spell a letter (`"st\x61tus"`, `\u`,
# `\N{…}`, octal) or an implicit concatenation (`"sta" "tus"`, also when the next part starts the
# next line). Its value can be a name (a dict or subscript key) that no byte scan of the text finds,
# so its lines count as hot. (Parts split by a comment line are not seen: nobody spells a key so.)
# (Two expressions, each found apart: neither kind of match can hold the other's start, and an
# expression that begins with one byte is searched for that byte, several times faster.)
_HIDDEN_TEXT = (re.compile(rb"\\[xuUN0-7]"), re.compile(rb"['\"][ \t]*(?:\\?\r?\n[ \t]*)?[rRbBuUfF]{0,2}['\"]"))
# `{"error": {"type": …}}`: an error frame's keys are sinks under it (`error_type`), words no trigger finds
_ERROR_FRAME = re.compile(rb"['\"](?:error|failure)['\"][ \t]*:[ \t]*\{")
_ERROR_KEYS = (b'error"', b"error'", b'failure"', b"failure'")  # in every frame: a fast first test
_ASCII_WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")  # `\b`'s word bytes
_WORD_BYTES = _ASCII_WORD | frozenset(range(128, 256))  # and a name's non-ASCII bytes


class _Maybe(Exception):
    """The statement may hold a fact: LibCST must extract it."""


class _Whole(_Maybe):
    """Any statement of the file may hold a fact (`from codes import FAILURE_CODES as KNOWN` makes
    `r in KNOWN` a filter wherever it is): LibCST must extract all of it."""


# What a module-level statement LibCST is spared still tells the extractor, in source order:
# ("import", node) at any depth; ("def", name) of a module-level function or class; ("string", name,
# value) and ("other", name) of a module-level `name = value`. The screen proved it holds no fact;
# these are the extractor's state it would have changed (imports resolve names, `_is_external` asks
# for the module's definitions, constants are facts and name codes).
Event = tuple


@dataclass(frozen=True)
class Masked:
    """What LibCST reads of a file: the top-level statements that may hold facts, every other line
    dropped; a kept class's fact-free methods are one-line stubs (`def name(): pass`, with the
    imports they hold). Lines are dropped, not blanked, because LibCST builds a node for every blank
    line. `rows` gives each line of `text` its line in the file (kept statements keep their text,
    so columns hold); `prelude` what the dropped statements before each kept one (and after the
    last) tell (`Event`). `tree` is `ast`'s view of the kept statements as far as
    facts/positions.py reads it (statements, their lines in the file and bodies)."""

    text: str
    tree: ast.Module
    rows: tuple[int, ...]
    prelude: tuple[tuple[Event, ...], ...]
    owned: tuple[tuple[int, int], ...] = ()  # a part of a large file: the lines whose facts are its own


# A masked file larger than this goes to LibCST in parts, each with the definitions of one part
# unmasked: LibCST's memory grows with the module it parses (about 280 MB for a 1 MB module).
PART_SIZE = 256 * 1024


# `name as alias` anywhere (imports, but also `with`/`except`: a superset), found from the `as`; an
# import whose alias this misses (a comment between the name and `as`) still sends the whole file
_AS = re.compile(r"as[ \t\r\n\f\\]+([A-Za-z_]\w*)")  # starts with its literal: the fast search


def _aliases(text: str) -> Iterator[tuple[str, str]]:
    """(name, alias) for each `name as alias` in the text."""
    for found in _AS.finditer(text):
        start = found.start()
        if not start or text[start - 1] not in " \t\r\n\f\\":
            continue  # `has x`, `alias y`: not the keyword
        before = _trailing_name(text[max(0, start - 200):start].rstrip(" \t\r\n\f\\"))
        if before:
            yield before, found.group(1)


def _trailing_name(text: str) -> str:
    """The dotted name the text ends with (`[\\w.]+$`, read from the end: the expression tried
    every start in the text)."""
    index = len(text)
    while index and (text[index - 1].isalnum() or text[index - 1] in "_."):
        index -= 1
    return text[index:]


_LINE_BREAK = re.compile(r"(\r\n?|\n)")
_STUBS = {kind: ast.parse(f"{word} _(): pass").body[0] for kind, word in
          ((ast.FunctionDef, "def"), (ast.AsyncFunctionDef, "def"), (ast.ClassDef, "class"))}


def _masked(text: str, tree: ast.Module, masks: dict[int, list[int]], kept: dict[int, list[ast.stmt]]) -> Masked:
    """`text` without the top-level statements `masks` names with an empty list (what they tell
    goes to `prelude`), and with the members of classes it names masked by stubs; `kept` holds
    each masked member's imports (by id), as the screen's walk met them."""
    lines = _lines(text)
    body: list[ast.stmt] = []
    prelude: list[tuple[Event, ...]] = []
    told: list[Event] = []
    rows: list[int] = []
    for index, statement in enumerate(tree.body):
        members = masks.get(index)
        if members == []:
            told.extend(_events(statement, kept[id(statement)]))
            continue
        spared: set[int] = set()
        if members:
            statement = copy.copy(statement)
            statement.body = list(statement.body)
            for member in members:
                statement.body[member] = _stub(lines, statement.body[member], kept[id(statement.body[member])], spared)
        if not (body and statement.lineno == body[-1].end_lineno and _simple(statement) and _simple(body[-1])):
            prelude.append(tuple(told))  # a new LibCST statement (`a = 1; b = 2` is one)
            told = []
        start = _first_line(statement) if not rows else max(_first_line(statement), rows[-1] + 1)
        rows.extend(number for number in range(start, statement.end_lineno + 1) if number not in spared)
        body.append(statement)
    prelude.append(tuple(told))
    return Masked("".join(lines[number - 1] for number in rows), ast.Module(body=body, type_ignores=[]),
                  tuple(rows), tuple(prelude))


def _lines(text: str) -> list[str]:
    """The text's lines with their breaks, split at Python's own line breaks only (`splitlines`
    also splits at form feeds and Unicode separators, which Python keeps inside a line)."""
    if "\r" not in text:  # the common case, and the fast one
        parts = text.split("\n")
        return [part + "\n" for part in parts[:-1]] + [parts[-1]]
    parts = _LINE_BREAK.split(text)  # content, break, content, …
    return [parts[i] + (parts[i + 1] if i + 1 < len(parts) else "") for i in range(0, len(parts), 2)]


def _simple(statement: ast.stmt) -> bool:
    return not isinstance(statement, _COMPOUND)


def _events(statement: ast.stmt, imports: list[ast.stmt]) -> list[Event]:
    """What a spared module-level statement tells the extractor (see `Event`), in source order;
    `imports` are the ones it holds at any depth, as the screen's walk met them."""
    found = [(node.lineno, node.col_offset, ("import", node)) for node in imports]
    blocks = [[statement]]
    while blocks:
        for inner in blocks.pop():
            kind = type(inner)
            if kind in _DEFINITIONS:
                found.append((inner.lineno, inner.col_offset, ("def", inner.name)))
            elif kind is ast.Assign or kind is ast.AnnAssign:
                targets = inner.targets if kind is ast.Assign else [inner.target]
                value = inner.value
                if value is not None and len(targets) == 1 and type(targets[0]) is ast.Name:
                    string = isinstance(value, ast.Constant) and isinstance(value.value, str)
                    found.append((inner.lineno, inner.col_offset, ("string", targets[0].id, value.value) if string
                                  else ("other", targets[0].id)))
            elif kind in _COMPOUND:  # module-level blocks: `if`, `try`, `for`, `with`, `match`
                blocks.extend([getattr(inner, "body", ()), *(part.body for part in getattr(inner, "handlers", ())),
                               *(case.body for case in getattr(inner, "cases", ())),
                               getattr(inner, "orelse", ()), getattr(inner, "finalbody", ())])
    return [event for _, _, event in sorted(found, key=lambda item: item[:2])]


def _alone(body: list[ast.stmt], index: int) -> bool:
    """Whether a top-level statement can be left out by dropping its lines: no other statement
    shares them (`a = 1; b = 2`), and it is no `from __future__` import (LibCST's parser reads those)."""
    statement = body[index]
    if type(statement) is ast.ImportFrom and statement.module == "__future__":
        return False
    return (index == 0 or body[index - 1].end_lineno < _first_line(statement)) \
        and (index + 1 == len(body) or _first_line(body[index + 1]) > statement.end_lineno)


def _parts(text: str, tree: ast.Module, masks: dict[int, list[int]], units: list[tuple[int, Optional[int]]],
           whole: Masked, kept: dict[int, list[ast.stmt]]) -> Union[Masked, tuple[Masked, ...]]:
    """A large masked file as parts for LibCST: the definitions that may hold facts are shared out
    in source order, about PART_SIZE of text each; each part masks the others' too (what they tell
    stays: `Masked.prelude`, a stub's imports), and owns the facts on its definitions' lines. The first part also owns the facts on
    every line no part's definitions hold."""
    def node(unit: tuple[int, Optional[int]]) -> ast.stmt:
        statement = tree.body[unit[0]]
        return statement if unit[1] is None else statement.body[unit[1]]

    def lines(unit: tuple[int, Optional[int]]) -> tuple[int, int]:
        statement = node(unit)
        return _first_line(statement), statement.end_lineno

    held = {unit: _imports(node(unit)) for unit in units}  # the walk stopped inside these: look once
    movable = [unit for unit in units
               if (_alone(tree.body, unit[0]) if unit[1] is None else _maskable(node(unit), held[unit]))]
    kept = {**kept, **{id(node(unit)): held[unit] for unit in movable}}
    starts = [0, 0, *(match.end() for match in _LINE_BREAK.finditer(text))]
    groups: list[list[tuple[int, Optional[int]]]] = [[]]
    size = 0
    for unit in movable:
        first, last = lines(unit)
        length = starts[last + 1] - starts[first] if last + 1 < len(starts) else len(text) - starts[first]
        if groups[-1] and size + length > PART_SIZE:
            groups.append([])
            size = 0
        groups[-1].append(unit)
        size += length
    if len(groups) < 2:
        return whole
    parts = []
    for number, group in enumerate(groups):
        own = set(group)
        part_masks = {index: list(members) for index, members in masks.items()}
        for unit in movable:
            if unit not in own:
                index, member = unit
                if member is None:
                    part_masks[index] = []
                elif part_masks.get(index) != []:
                    part_masks[index] = sorted({*part_masks.get(index, ()), member})
        masked = _masked(text, tree, part_masks, kept)
        owned = tuple(lines(unit) for unit in group)
        if number == 0:  # and what no part's definitions hold
            taken = sorted(lines(unit) for unit in movable)
            gaps, line = [], 1
            for first, last in taken:
                if first > line:
                    gaps.append((line, first - 1))
                line = max(line, last + 1)
            gaps.append((line, len(starts)))
            owned = tuple(sorted((*owned, *gaps)))
        parts.append(dataclasses.replace(masked, owned=owned))
    return tuple(parts)


def _stub(lines: list[str], statement: ast.stmt, kept: list[ast.stmt], spared: set[int]) -> ast.stmt:
    """Masks a definition's lines in place (`def name(): pass`, at its indentation, then blank
    lines, noted in `spared`) and returns the stub's `ast`. Its imports, at any depth, stay on their
    lines as the stub's body (`def name():` then `import x`; `maskable` says when they can): LibCST
    resolves names through every import of the file, in order, wherever it stands."""
    first = _first_line(statement)
    word = "class" if type(statement) is ast.ClassDef else "def"
    opening = lines[first - 1]
    indent = opening[:len(opening) - len(opening.lstrip(" \t\f"))]  # a form feed leads some indents
    texts = [_source(lines, node) for node in kept]
    for number in range(first, statement.end_lineno + 1):
        line = lines[number - 1]
        ending = line[len(line.rstrip("\r\n")):]  # a line's content holds no CR or LF
        head = f"{indent}{word} {statement.name}():" + ("" if kept else " pass")
        lines[number - 1] = f"{head}{ending}" if number == first else ending
    spared.update(range(first + 1, statement.end_lineno + 1))
    body: list[ast.stmt] = []
    for node, text in zip(kept, texts):
        text[0] = f"{indent}    {text[0]}"
        for number, part in enumerate(text, node.lineno):
            lines[number - 1] = part + lines[number - 1]  # the masked line holds its line break only
            spared.discard(number)
        restored = copy.copy(node)
        restored.col_offset = len(indent) + 4
        body.append(restored)
    stub = copy.copy(_STUBS[type(statement)])
    stub.lineno, stub.col_offset = first, len(indent)
    stub.body = body or [ast.Pass(lineno=first, col_offset=len(indent) + len(word) + len(statement.name) + 5)]
    return stub


def _first_line(statement: ast.stmt) -> int:
    """A statement's first line: a definition's first decorator's, else its own."""
    return min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", ()))])


def _imports(statement: ast.stmt) -> list[ast.stmt]:
    """The imports a definition holds at any depth, in source order."""
    return sorted((node for node in walk(statement) if isinstance(node, (ast.Import, ast.ImportFrom))),
                  key=lambda node: (node.lineno, node.col_offset))


def _maskable(statement: ast.stmt, found: list[ast.stmt]) -> bool:
    """Whether `_stub` can keep a definition's imports (`found`, in source order) on lines of their
    own: each starts after the line the stub's header takes and ends before the next one starts."""
    first = _first_line(statement)
    return all(node.lineno > first for node in found[:1]) and all(
        later.lineno > node.end_lineno for node, later in zip(found, found[1:]))


def _source(lines: list[str], node: ast.stmt) -> list[str]:
    """A statement's own text, line by line, without line breaks (`ast` columns count UTF-8 bytes)."""
    content = [line[:len(line.rstrip("\r\n"))] for line in lines[node.lineno - 1:node.end_lineno]]
    last = content[-1].encode("utf-8")[:node.end_col_offset].decode("utf-8", "replace")
    content[-1] = last
    content[0] = content[0].encode("utf-8")[node.col_offset:].decode("utf-8", "replace")
    return content


class Screen:
    """The pre-screen for one Settings (build once, reuse for every file)."""

    def __init__(self, settings: Settings) -> None:
        self.shapes = Vocabulary(settings)
        self.code_re = re.compile(settings.code_pattern)
        sink_words = (*settings.sinks.receivers, *settings.sinks.names, *settings.sinks.keywords,
                      *FAILURE_WORDS, *REGISTRY_WORDS, *self.shapes.configured)
        # A name matches a word by whole segments, so its lower-cased text holds the word's first segment.
        firsts = {first.encode() for word in sink_words
                  for first in [next((p for p in word.lower().split("_") if p), "")] if first}
        # A word holding one trigger inside another (`errors` holds `err`) is found by the shorter
        # one, whose match grows to the same whole word: searching both only finds it twice.
        self.triggers = sorted(first for first in firsts
                               if not any(other != first and other in first for other in firsts))
        self._hot: dict[bytes, bool] = {}
        self._registry_like: dict[str, bool] = {}
        self._assign_target: dict[str, bool] = {}
        self._receiver: dict[str, bool] = {}

    # -- names (each decision cached: files share most of their names) -----------------------

    def is_hot(self, word: str) -> bool:
        """Whether a name could be a sink (receiver, keyword, assigned name) or a registry."""
        return self.assign_target(word) or word in self.shapes.keywords or self.looks_like_registry(word)

    def looks_like_registry(self, name: str) -> bool:
        known = self._registry_like.get(name)
        if known is None:
            known = self._registry_like[name] = self.shapes.looks_like_registry(name)
        return known

    def assign_target(self, name: str) -> bool:
        known = self._assign_target.get(name)
        if known is None:
            known = self._assign_target[name] = self.shapes.is_assign_target(name)
        return known

    def receiver(self, name: str) -> bool:
        known = self._receiver.get(name)
        if known is None:
            known = self._receiver[name] = self.shapes.is_receiver(name)
        return known

    def hot_lines(self, data: bytes, aliases: frozenset[str] = frozenset()) -> list[int]:
        """Prefix counts of lines holding a hot word: line n is hot when counts[n] > counts[n - 1].
        `aliases` (names a file gives registry-like names) are hot words too.

        Works on bytes (ASCII lower-casing keeps offsets; names are matched by ASCII segments) and
        over-approximates: words in comments and strings count too.
        """
        if b"\r" in data:  # Python counts a lone CR as a line break
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        lowered = data.lower()
        size = len(data)
        offsets: list[int] = []
        seen: dict[int, bool] = {}
        for trigger in self.triggers:
            at = lowered.find(trigger)
            while at != -1:
                start, end = at, at + len(trigger)
                while start > 0 and lowered[start - 1] in _WORD_BYTES:
                    start -= 1
                while end < size and lowered[end] in _WORD_BYTES:
                    end += 1
                hot = seen.get(start)
                if hot is None:
                    word = data[start:end]
                    hot = self._hot.get(word)
                    if hot is None:
                        hot = self._hot[word] = self.is_hot(word.decode("utf-8", "replace"))
                    seen[start] = hot
                    if hot:
                        offsets.append(start)
                at = lowered.find(trigger, end)
        flags = bytearray(data.count(b"\n") + 2)
        line, last = 1, 0
        for hidden in _HIDDEN_TEXT:
            offsets.extend(match.start() for match in hidden.finditer(data))
        if any(key in data for key in _ERROR_KEYS):
            offsets.extend(match.start() for match in _ERROR_FRAME.finditer(data))
        for alias in aliases:  # a whole word: searched from its own bytes, then bounded before
            offsets.extend(at for at in (match.start() for match in re.finditer(re.escape(alias.encode()) + rb"\b", data))
                           if at == 0 or data[at - 1] not in _ASCII_WORD)
        for offset in sorted(offsets):
            line += data.count(b"\n", last, offset)
            last = offset
            flags[line] = 1
        return list(accumulate(flags))

    # -- the screen --------------------------------------------------------------------------

    def facts(self, data: bytes, text: str, tree: ast.Module, path: str, module: str) -> Optional[FileFacts]:
        """The file's facts when the screen proves LibCST would find only module constants, else None."""
        found = self.plan(data, text, tree, path, module)
        return found if isinstance(found, FileFacts) else None

    def plan(self, data: bytes, text: str, tree: ast.Module, path: str,
             module: str) -> Union[FileFacts, Masked, tuple[Masked, ...], None]:
        """What LibCST must read of a file: nothing (the file's facts, when the screen proves LibCST
        would find only module constants), the file with its fact-free top-level functions and
        classes masked (`Masked`; a large one in parts, `_parts`), or all of it (None)."""
        if not data.isascii() and _normalized_names(text, tree):
            return None
        named = list(_aliases(text)) if b"as" in data else []
        aliases = frozenset(alias for name, alias in named if self.looks_like_registry(name.rpartition(".")[2]))
        if not all(map(str.isascii, aliases)):
            return None  # found in the text as its bytes spell it: ASCII names only
        walker = _Walk(self, self.hot_lines(data, aliases))
        walker.aliases = aliases
        walker.optional = frozenset(alias for name, alias in named if name.rpartition(".")[2] == "Optional")
        masks: dict[int, list[int]] = {}  # top-level statement → its masked members ([]: all of it)
        units: list[tuple[int, Optional[int]]] = []  # the definitions that may hold facts
        try:
            hot = walker.parts(tree.body, masks, units=units)
        except (_Whole, RecursionError):  # a file-wide fact, or too deep for the screen's walk
            return None
        if hot:
            if not masks:
                return None
            masked = _masked(text, tree, masks, walker.kept)
            return masked if len(masked.text) <= PART_SIZE else _parts(text, tree, masks, units, masked, walker.kept)
        if walker.bound.intersection(name for name, _ in walker.constants):
            return None  # a constant that shadows an import is qualified by the import: let LibCST say
        prefix = f"{module}." if module else ""
        constants = tuple(Constant(prefix + name, value) for name, value in walker.constants)
        noqa, file_noqa = suppressions(text)
        return FileFacts(path, module, constants=constants, noqa=noqa, file_noqa=file_noqa)


class _Function:
    def __init__(self) -> None:
        self.returns: list[list[tuple[Optional[str], bool]]] = []


class _Registries:
    """Part of `_Walk`: what may be a registry: a name, a local table, an annotation, a module-level
    collection or constant, a class of members (supersets of what the extractor finds)."""

    def registry_table(self, value: ast.expr) -> bool:
        """A local table built from a registry-like collection (a superset of `FilterFinder.alias`)."""
        if isinstance(value, (ast.DictComp, ast.SetComp, ast.ListComp)):
            sources = [generator.iter for generator in value.generators]
        elif isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "fromkeys":
            sources = value.args[:1]
        else:
            return False
        for source in sources:
            name = _collection_name(source)
            if name is not None and self.registry_like(name):
                return True
        return False

    def registry_like(self, name: str) -> bool:
        return self.screen.looks_like_registry(name) or name in self.aliases

    def lookup(self, node: ast.Call) -> None:
        """`ORDER.index(code)`, `key=ORDER.index` on a registry-like name (the extractor's
        `_note_lookups`): a list used as the whole vocabulary."""
        for part in (node.func, *node.args, *(keyword.value for keyword in node.keywords)):
            if isinstance(part, ast.Attribute) and part.attr == "index":
                name = part.value.id if isinstance(part.value, ast.Name) else \
                    part.value.attr if isinstance(part.value, ast.Attribute) else None
                if name is not None and self.registry_like(name):
                    raise _Maybe

    def registry_typed(self, annotation: ast.expr) -> bool:
        """Whether a return or variable annotation may name a registry (a superset of the extractor's
        `_registry_type`). A registry-like name is a hot word: an annotation on lines without one
        names none."""
        if not self.is_hot(annotation.lineno, annotation.end_lineno or annotation.lineno):
            return False
        name = _annotated_type(annotation, self.optional)
        return name is not None and self.screen.looks_like_registry(name) and not name.endswith(("Error", "Exception"))

    def module_assignment(self, targets: list[ast.expr], value: ast.expr) -> None:
        if len(targets) != 1 or not isinstance(targets[0], ast.Name):
            return
        name = targets[0].id
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            if name.isupper():
                self.constants.append((name, value.value))
        elif self.screen.looks_like_registry(name) and _strings_collection(value, names=True) \
                or _literal(value) and _strings_collection(value) \
                or name.isupper() and _code_collection(value, self.screen.code_re):
            raise _Maybe  # a registry by its name; any `Literal[...]` alias, a collection of codes: by use

    def class_registry(self, node: ast.ClassDef) -> None:
        name = node.name
        if name.endswith(("Error", "Exception")) or not self.screen.looks_like_registry(name):
            return
        for statement in node.body:
            targets = statement.targets if isinstance(statement, ast.Assign) else \
                [statement.target] if isinstance(statement, ast.AnnAssign) and statement.value is not None else []
            if len(targets) == 1 and isinstance(targets[0], ast.Name) and not targets[0].id.startswith("_") \
                    and (_string(statement.value) or isinstance(statement.value, ast.Call)):
                raise _Maybe  # a string member, or maybe `auto()`


class _Walk(_Registries):
    """One file's statements, in the extractor's scopes: function, module level, except handler."""

    def __init__(self, screen: Screen, hot: list[int]) -> None:
        self.screen = screen
        self.shapes = screen.shapes
        self.hot = hot
        self.constants: list[tuple[str, str]] = []
        self.bound: set[str] = set()  # names bound by imports anywhere in the file
        self.imports: list[ast.stmt] = []  # import statements seen so far, in source order
        self.kept: dict[int, list[ast.stmt]] = {}  # id of a masked definition → the imports its stub keeps
        self.aliases: frozenset[str] = frozenset()  # names the file gives registry-like names (`as KNOWN`)
        self.optional: frozenset[str] = frozenset()  # names the file gives `Optional` (`as Opt`)

    def is_hot(self, first: int, last: int) -> bool:
        """Whether a line in first..last holds a hot word."""
        hot = self.hot
        return hot[min(last, len(hot) - 1)] > hot[first - 1]

    def header(self, first: int, body: list[ast.stmt], nodes: Iterable[Optional[ast.AST]],
               function: Optional[_Function]) -> None:
        """Search a compound statement's own expressions when a line up to its body's first is hot."""
        if self.is_hot(first, max(first, body[0].lineno)):
            for node in nodes:
                if node is not None:
                    self.search(node, function)

    def block(self, body: list[ast.stmt], function: Optional[_Function], module_level: bool, handler: bool) -> None:
        for statement in body:
            kind = type(statement)
            if kind in _FUNCTIONS:
                first = _first_line(statement)
                self.header(first, statement.body, [*statement.decorator_list, statement.args, statement.returns],
                            function)
                if statement.returns is not None and self.registry_typed(statement.returns):
                    raise _Maybe  # `-> Outcome`: the returns are sites of the registry it names
                inner = _Function()
                self.block(statement.body, inner, False, False)
                self.all_codes(inner)
                if statement.returns is not None \
                        and any(literal is not None for returned in inner.returns for literal, _ in returned) \
                        and _type_named(statement.returns, self.optional):
                    raise _Maybe  # `-> Grade` returning words: Grade may be a `Literal`, a registry by use
            elif kind is ast.ClassDef:
                self.class_header(statement, function, module_level)
                self.block(statement.body, None, False, False)
            elif kind in _TRY:
                if any(part.type is None for part in statement.handlers[:-1]):
                    raise _Maybe  # `ast` accepts a bare except before another handler; LibCST reports it
                self.block(statement.body, function, module_level, handler)
                for part in statement.handlers:
                    self.header(part.lineno, part.body, [part.type], function)
                    self.block(part.body, function, module_level, True)
                self.block(statement.orelse, function, module_level, handler)
                self.block(statement.finalbody, function, module_level, handler)
            elif kind in (ast.For, ast.AsyncFor):
                self.for_filter(statement)
                self.header(statement.lineno, statement.body, [statement.target, statement.iter], function)
                self.block(statement.body, function, module_level, handler)
                self.block(statement.orelse, function, module_level, handler)
            elif kind in (ast.If, ast.While):
                self.header(statement.lineno, statement.body, [statement.test], function)
                self.block(statement.body, function, module_level, handler)
                self.block(statement.orelse, function, module_level, handler)
            elif kind in (ast.With, ast.AsyncWith):
                self.header(statement.lineno, statement.body, statement.items, function)
                self.block(statement.body, function, module_level, handler)
            elif _MATCH and kind is _MATCH:
                if function is not None:
                    self.match_test(statement)
                if self.is_hot(statement.subject.lineno, statement.subject.end_lineno):
                    self.search(statement.subject, function)
                for case in statement.cases:
                    self.header(case.pattern.lineno, case.body, [case.pattern, case.guard], function)
                    self.block(case.body, function, module_level, handler)
            else:
                self.simple(statement, function, module_level, handler)

    def class_header(self, node: ast.ClassDef, function: Optional[_Function], module_level: bool) -> None:
        if module_level:
            self.class_registry(node)
        first = _first_line(node)
        self.header(first, node.body, [*node.decorator_list, *node.bases, *node.keywords], function)

    def parts(self, body: list[ast.stmt], masks: dict[int, list[int]], module_level: bool = True,
              units: Optional[list[tuple[int, Optional[int]]]] = None, stubs: Optional[tuple[type, ...]] = None) -> int:
        """Statements walked one by one (a module-level class member by member after its header, a
        module-level `if` the same way), noting in `masks` the fact-free ones: at the top
        (`stubs` None) a statement's index with [] (`_alone`: LibCST is spared it), or a class's or
        an `if`'s index with its fact-free members of the kinds `stubs` names (`_maskable`: methods,
        the definitions under an `if`); and in `units` the definitions that may hold a fact, as
        (statement, None) or (class or `if`, member). Returns how many statements may hold a fact.
        _Whole still ends the walk."""
        hot = 0
        for index, statement in enumerate(body):
            imports = len(self.imports)
            kind = type(statement)
            try:
                if stubs is None and (kind is ast.ClassDef or kind is ast.If):
                    if kind is ast.ClassDef:
                        self.class_header(statement, None, True)  # a registry, or a hot header: all of it
                    else:
                        self.header(statement.lineno, statement.body, [statement.test], None)
                    inner: dict[int, list[int]] = {}
                    members: list[tuple[int, Optional[int]]] = []
                    found = self.parts(statement.body, inner, kind is ast.If, members,
                                       _DEFINITIONS if kind is ast.If else _FUNCTIONS)
                    if kind is ast.If:
                        self.block(statement.orelse, None, True, False)  # `else`: all of the `if` or none
                    if found:
                        hot += 1
                        if inner:
                            masks[index] = sorted(inner)
                        if units is not None:
                            units.extend((index, member) for member, _ in members)
                        continue
                else:
                    self.block([statement], None, module_level, False)
            except _Whole:
                raise
            except _Maybe:
                hot += 1
                if units is not None and kind in (_DEFINITIONS if stubs is None else stubs):
                    units.append((index, None))
                continue
            held = self.imports[imports:]  # the walk met the statement's imports in source order
            if stubs is None:
                if _alone(body, index):
                    self.kept[id(statement)] = held
                    masks[index] = []
            elif kind in stubs and _maskable(statement, held):
                self.kept[id(statement)] = held
                masks[index] = []
        return hot

    def simple(self, statement: ast.stmt, function: Optional[_Function], module_level: bool, handler: bool) -> None:
        kind = type(statement)
        if kind in (ast.Assign, ast.AnnAssign):
            targets = statement.targets if kind is ast.Assign else [statement.target]
            value = statement.value
            if value is not None:
                if module_level:
                    self.module_assignment(targets, value)
                elif function is not None and kind is ast.AnnAssign and (
                        self.registry_typed(statement.annotation)
                        or any(literal for literal, _ in _recorded(value)) and _type_named(statement.annotation, self.optional)):
                    raise _Maybe  # `result: Outcome = …` ties `result` to the registry Outcome
                elif function is not None and self.registry_table(value):
                    raise _Maybe  # `counts = {c: 0 for c in FAILURE_CODES}`: `r in counts` filters by it
                elif function is not None and _recorded(value):
                    for target in targets:
                        if any(self.screen.assign_target(name) for name in _target_names(target)):
                            raise _Maybe
        elif kind is ast.Return:
            if function is not None and statement.value is not None:
                values = _recorded(statement.value)
                if values and handler:
                    raise _Maybe  # a handler returning a value records it
                function.returns.append(values)
        elif kind is ast.Raise:
            if function is not None and isinstance(statement.exc, ast.Call):
                for argument in [*statement.exc.args, *(k.value for k in statement.exc.keywords)]:
                    for literal, _ in _recorded(_unstarred(argument)):
                        if literal is None or self.screen.code_re.match(literal):
                            raise _Maybe
        elif kind is ast.Import:
            self.imports.append(statement)
            for alias in statement.names:
                self.bound.add(alias.asname or alias.name.split(".")[0])
                # `import pkg.codes as C`: `x in C` filters by a registry-like name; the names the
                # file's text gives such aliases (`aliases`) count as registry-like everywhere
                if alias.asname and self.screen.looks_like_registry(alias.name.rpartition(".")[2]) \
                        and alias.asname not in self.aliases:
                    raise _Whole
        elif kind is ast.ImportFrom:
            self.imports.append(statement)
            for alias in statement.names:
                self.bound.add(alias.asname or alias.name)
                if alias.asname and self.screen.looks_like_registry(alias.name) and alias.asname not in self.aliases:
                    raise _Whole
        elif _TYPE_ALIAS and kind is _TYPE_ALIAS:
            if module_level and (self.screen.looks_like_registry(statement.name.id) or _literal(statement.value)):
                raise _Maybe
        if self.is_hot(statement.lineno, statement.end_lineno):
            self.search(statement, function)

    def all_codes(self, function: _Function) -> None:
        """Two or more returned values, every return a code or a constant: the returns are sites.

        The extractor may drop literals this screen keeps (it records only word-like ones), so a
        return passes when some of its values could be codes: a superset of what the extractor sees.
        """
        codes = [[value for value in returned if value[0] is None or self.screen.code_re.match(value[0])]
                 for returned in function.returns]
        if all(codes) and sum(map(len, codes)) >= 2:
            raise _Maybe

    # -- expressions -------------------------------------------------------------------------

    def search(self, root: ast.AST, function: Optional[_Function]) -> None:
        """Every call, comparison and filter shape under `root` (one hot statement or header)."""
        for node in walk(root):
            kind = type(node)
            if kind is ast.Call:
                if function is not None:
                    self.call_site(node)
                self.call_filter(node)
                self.lookup(node)
            elif kind is ast.Compare:
                if function is not None:
                    self.test(node)
            elif kind in _COMPREHENSIONS:
                for generator in node.generators:
                    for condition in generator.ifs:
                        container = _membership(condition)
                        if container is not None:
                            self.filter_names(container, generator.iter)
            elif kind is ast.BinOp and isinstance(node.op, ast.BitAnd):
                self.filter_names(node.left, node.right)
            elif kind is ast.Dict and function is not None:
                for key, value in zip(node.keys, node.values):  # {"status": "FAILED"}
                    if isinstance(key, ast.Constant) and key.value in self.shapes.keywords and _keyword_recorded(value):
                        raise _Maybe
                    if isinstance(key, ast.Constant) and key.value in ("error", "failure") and isinstance(value, ast.Dict) \
                            and any(isinstance(inner, ast.Constant) and f"{key.value}_{inner.value}" in self.shapes.keywords
                                    and _keyword_recorded(item) for inner, item in zip(value.keys, value.values)):
                        raise _Maybe  # {"error": {"type": "internal_error"}}: `error_type`, as the extractor reads it

    def call_site(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in self.shapes.methods and \
                any(self.screen.receiver(name) for name in _target_names(func.value)):
            method = func.attr
            positional = [argument for argument in node.args if not isinstance(argument, ast.Starred)]
            index = 1 if method == "insert" else 0
            values: list[ast.expr] = []
            if method in ("extend", "update"):
                if positional and isinstance(positional[0], (ast.List, ast.Tuple, ast.Set)):
                    values = [_unstarred(element) for element in positional[0].elts]
            elif len(positional) > index:
                values = [positional[index]]
            if any(_recorded(value) for value in values):
                raise _Maybe
        for keyword in node.keywords:
            if keyword.arg in self.shapes.keywords and _keyword_recorded(keyword.value):
                raise _Maybe

    def test(self, node: ast.Compare) -> None:
        if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.Eq, ast.NotEq, ast.In)):
            return
        left, right = node.left, node.comparators[0]
        if _string(left):
            left, right = right, left
        if not isinstance(left, (ast.Name, ast.Attribute, ast.Subscript)):
            return
        if not any(self.screen.assign_target(name) for name in _target_names(left)):
            return
        elements = right.elts if isinstance(right, (ast.Tuple, ast.List, ast.Set)) else [right]
        if elements and all(_string(element) for element in elements):
            raise _Maybe

    def match_test(self, node: ast.Match) -> None:
        subject = node.subject
        if not isinstance(subject, (ast.Name, ast.Attribute)):
            return
        if not any(self.screen.assign_target(name) for name in _target_names(subject)):
            return
        for case in node.cases:
            if any(_string(part) for part in walk(case.pattern)):
                raise _Maybe

    def call_filter(self, node: ast.Call) -> None:
        """`filter(lambda r: r in ORDER, reasons)`, `filter(ORDER.__contains__, …)`, `a.intersection(b)`
        (whatever the callee and argument kinds, to be safe)."""
        arguments = [*node.args, *(keyword.value for keyword in node.keywords)]
        if len(arguments) == 2:
            for predicate in arguments:
                if isinstance(predicate, ast.Lambda):
                    container = _membership(predicate.body)
                    if container is not None:
                        self.filter_names(container, *arguments)
                elif isinstance(predicate, ast.Attribute) and predicate.attr == "__contains__":
                    self.filter_names(predicate.value, *arguments)
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "intersection" and arguments:
            self.filter_names(func.value, *arguments)

    def for_filter(self, node: ast.stmt) -> None:
        """`for r in reasons: if r in ORDER: …` anywhere in the file."""
        for statement in node.body:
            if isinstance(statement, ast.If) and not statement.orelse:
                container = _membership(statement.test)
                if container is not None:
                    self.filter_names(container, node.iter)

    def filter_names(self, *sides: ast.expr) -> None:
        """A filter is a fact when a side names a registry-like collection."""
        for side in sides:
            name = _collection_name(side)
            if name is not None and self.registry_like(name):
                raise _Maybe


# -- ast mirrors of facts/sinks.py --------------------------------------------------------------

def _string(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _unstarred(node: ast.expr) -> ast.expr:
    return node.value if isinstance(node, ast.Starred) else node


def _keyword_recorded(node: ast.expr) -> bool:
    """Whether a sink keyword records a value, as `keyword_values` sees it (a display's elements too)."""
    elements = node.elts if isinstance(node, (ast.List, ast.Tuple, ast.Set)) else [node]
    return any(_recorded(element) for element in elements if not isinstance(element, ast.Starred))


def _recorded(node: ast.expr) -> list[tuple[Optional[str], bool]]:
    """(literal, is_reference) for each value the expression can record, as `recorded_values` sees it."""
    if isinstance(node, ast.IfExp):
        return _recorded(node.body) + _recorded(node.orelse)
    if isinstance(node, ast.BoolOp):
        return [value for part in node.values for value in _recorded(part)]
    if _string(node):
        return [(node.value, False)] if is_recordable(node.value) else []  # not prose: `"<broken repr>"`
    if isinstance(node, ast.Name):
        return [(None, True)] if is_constant_name(node.id) else []
    if isinstance(node, ast.Attribute) and _dotted(node):
        if node.attr in ("value", "name") and isinstance(node.value, ast.Attribute):
            node = node.value
        return [(None, True)] if is_constant_name(node.attr) else []
    return []


def _dotted(node: ast.expr) -> bool:
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _target_names(node: ast.expr) -> list[str]:
    """Every name `target_name` could give for a receiver or target (`x["failures"]` gives the key
    and, to be safe, the name of `x` too)."""
    names = []
    while True:
        if isinstance(node, ast.Name):
            names.append(node.id)
        elif isinstance(node, ast.Attribute):
            names.append(node.attr)
        elif isinstance(node, ast.Subscript):
            key = node.slice
            if isinstance(key, ast.Tuple) and len(key.elts) == 1:  # LibCST reads `x["k",]` as one key
                key = key.elts[0]
            if _string(key) and key.value.isidentifier():
                names.append(key.value)
            node = node.value
            continue
        return names


def _membership(test: ast.expr) -> Optional[ast.expr]:
    """The container of `x in CONTAINER`."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.In):
        return test.comparators[0]
    return None


def _collection_name(node: ast.expr) -> Optional[str]:
    """The last part of the collection's name as `FilterFinder.collection_name` finds it, through
    `wrapper(x)` and `x.view()` calls (any callee, to be safe)."""
    while isinstance(node, ast.Call):
        arguments = [*node.args, *(keyword.value for keyword in node.keywords)]
        if isinstance(node.func, ast.Name) and arguments:
            node = _unstarred(arguments[0])
        elif isinstance(node.func, ast.Attribute) and not arguments:
            node = node.func.value
        else:
            return None
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def _literal(node: ast.expr) -> bool:
    """`Literal[...]` or `typing.Literal[...]` (by its last name: an import may rename the module)."""
    return isinstance(node, ast.Subscript) and (
        isinstance(node.value, ast.Name) and node.value.id == "Literal"
        or isinstance(node.value, ast.Attribute) and node.value.attr == "Literal")


def _type_named(annotation: ast.expr, optional: frozenset[str]) -> bool:
    """Whether an annotation may name a type of the project (a superset of the extractor's
    `_registry_type(plain=True)`): a capitalised name."""
    name = _annotated_type(annotation, optional)
    return name is not None and name[:1].isupper()


def _annotated_type(annotation: ast.expr, optional: frozenset[str]) -> Optional[str]:
    """The last part of the type an annotation names as the extractor's `_registry_type` reads it
    (`Outcome`, `codes.Outcome`, `"Outcome"`, `Optional[Outcome]`, `Outcome | None`), else None.
    `optional` holds the names `Optional` is imported as (`from typing import Optional as Opt`):
    the extractor resolves imports, the screen takes any of them."""
    node = annotation
    while True:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            for side, other in ((node.left, node.right), (node.right, node.left)):
                if isinstance(other, ast.Constant) and other.value is None:
                    node = side
                    break
            else:
                return None
        elif isinstance(node, ast.Subscript):
            value = node.value
            if not (isinstance(value, ast.Attribute) and value.attr == "Optional"
                    or isinstance(value, ast.Name) and (value.id == "Optional" or value.id in optional)):
                return None
            node = node.slice
            if isinstance(node, ast.Tuple) and len(node.elts) == 1:  # `Optional[X,]`: one element to LibCST
                node = node.elts[0]
            if isinstance(node, ast.Starred):
                node = node.value
        else:
            break
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.rpartition(".")[2] if DOTTED_NAME.fullmatch(node.value) else None
    last = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
    while isinstance(node, ast.Attribute):
        node = node.value
    return last if isinstance(node, ast.Name) else None


def _code_collection(node: ast.expr, code: "re.Pattern[str]") -> bool:
    """Two or more strings, each code-shaped (or a name: a module constant may hold one), in a list,
    tuple or set, or a call given one (a superset of the extractor's `_code_collection`)."""
    if isinstance(node, ast.Call):
        arguments = [*node.args, *(keyword.value for keyword in node.keywords)]
        return len(arguments) == 1 and _code_collection(_unstarred(arguments[0]), code)
    return isinstance(node, (ast.List, ast.Tuple, ast.Set)) and len(node.elts) >= 2 and all(
        _string(element) and code.match(element.value) or isinstance(element, ast.Name) for element in node.elts)


def _strings_collection(node: ast.expr, names: bool = False) -> bool:
    """A literal collection of strings as `registries.collection_elements` reads one (or may);
    `names`: its elements may also be names (`(PARSE_FAILED, ANSWER_MISMATCH)`, module constants)."""
    if isinstance(node, ast.Call):
        arguments = [*node.args, *(keyword.value for keyword in node.keywords)]
        return len(arguments) == 1 and _strings_collection(_unstarred(arguments[0]), names)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        elements = node.elts
    elif isinstance(node, ast.Dict):
        elements = node.keys  # a `**spread` key is None: not a string
    elif isinstance(node, ast.Subscript):
        elements = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    else:
        return False
    return bool(elements) and all(element is not None and (_string(element) or names and isinstance(element, ast.Name))
                                  for element in elements)


def _normalized_names(text: str, tree: ast.Module) -> bool:
    """Whether a word may be an identifier that Python reads NFKC-normalised (`ｘerrors` is
    `xerrors` to `ast`, `errors` segments to LibCST): the screen's names would not be LibCST's.
    Such words in strings and comments (a regex's `ｦ-ﾝ`) are not: `ast` holds no identifier that
    is their normalised form."""
    if unicodedata.is_normalized("NFKC", text):
        return False
    changed = {normal for word in set(_NON_ASCII_WORD.findall(text))
               for normal in [unicodedata.normalize("NFKC", word)] if normal != word}
    return bool(changed) and not changed.isdisjoint(_identifiers(tree))


def _identifiers(tree: ast.Module) -> set[str]:
    """Every identifier `ast` holds (names, attributes, parameters, imported names' parts…): the
    text of each field that is a string, but a constant's value."""
    found: set[str] = set()
    for node in walk(tree):
        if type(node) is ast.Constant:
            continue
        for name in node._fields:
            value = getattr(node, name, None)
            if type(value) is str:
                found.update(value.split("."))
            elif type(value) is list:
                found.update(part for item in value if type(item) is str for part in item.split("."))
    return found


def parse(text: str) -> Optional[ast.Module]:
    """The `ast` of the text, None when `ast` cannot parse it (LibCST decides then)."""
    if AST_MAY_CRASH and too_deep(text) is not None:
        return None  # the extractor refuses it as unparseable, saying why
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes warn on 3.12+; not ours to report
            return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return None


_SCREENS: dict[Settings, Screen] = {}


def screened(data: bytes, text: str, tree: ast.Module, path: str, module: str,
             settings: Settings) -> Union[FileFacts, Masked, tuple[Masked, ...], None]:
    """What LibCST must read of a file (`Screen.plan`, one screen per Settings, reused)."""
    screen = _SCREENS.get(settings)
    if screen is None:
        screen = _SCREENS[settings] = Screen(settings)
    return screen.plan(data, text, tree, path, module)
