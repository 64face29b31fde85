"""One LibCST parse and one traversal per file, producing plain-data FileFacts.

The walker visits node fields directly (no CSTVisitor: that rebuilds every node), keeps its own
stacks for functions, try contexts and stage collectors, and computes positions only for the nodes
that became facts (facts/positions.py). It records what the code does; the rules decide what is wrong.

`Extractor` is made of one part per concept: this module holds the walk, its scopes and the calls
it dispatches; `tries` the try blocks, handlers and stage calls; `recordings` the sites, tests,
assignments and returns; `definitions` the module's registries and constants; `filters` the
membership filters (`FilterHooks`).
"""

from __future__ import annotations

import ast
import dataclasses
import re
from typing import Callable, Optional

import libcst as cst

from failcode.config import Settings
from failcode.facts.cstnodes import children_fields
from failcode.facts.definitions import Definitions
from failcode.facts.filters import FilterFinder, FilterHooks
from failcode.facts.imports import ImportTable
from failcode.facts.nesting import AST_MAY_CRASH, too_deep
from failcode.facts.positions import node_positions
from failcode.facts.recordings import Recordings, _Function
from failcode.facts.screen import Masked
from failcode.facts.source import InputError, decode, python_syntax_error, suppressions
from failcode.facts.stages import StageClassifier
from failcode.facts.tries import Tries, _Collector
from failcode.facts.vocabulary import LOG_METHODS, Vocabulary
from failcode.model import Annotation, Constant, FileFacts, Filter, Pos, Registry, Site, Test, TryBlock

_SAYING = LOG_METHODS | {"print"}
_NOWHERE = Pos(0, 0, 0, 0)


class Extractor(Tries, Recordings, Definitions, FilterHooks):
    """Walks one module. Nodes that become facts are kept with a builder until positions exist."""

    def __init__(self, module: cst.Module, path: str, module_name: str, is_package: bool,
                 settings: Settings, shapes: Vocabulary, stages: StageClassifier,
                 prelude: Optional[tuple] = None) -> None:
        self.module = module
        self.prelude = prelude  # what the statements the screen spared LibCST tell (screen.Masked)
        self.path = path
        self.module_name = module_name
        self.imports = ImportTable(module_name, is_package)
        self.shapes = shapes
        self.stages = stages
        self.code_re = re.compile(settings.code_pattern)
        self.filters = FilterFinder(self.imports, shapes.looks_like_registry, self.add_filter, self.add_difference)
        # traversal state
        self.function: Optional[_Function] = None
        self.classes: list[str] = []
        self.context: list[tuple[str, int]] = []  # ("try", id) / ("handler", id), this function only
        self.collectors: list[_Collector] = []
        self.handler_names: dict[int, Optional[str]] = {}
        self.reraising: set[int] = set()
        self.narrowing: set[int] = set()
        self.quoting = 0  # depth inside log calls and f-strings
        self.strings: dict[str, str] = {}  # the module's UPPER_CASE string constants so far (`PARSE_FAILED = "…"`)
        self.keeping: set[int] = set()  # handlers that store what they caught on a record
        self.arms: dict[int, tuple[cst.BaseExpression, str]] = {}  # id of a conditional's arm → (test, arm)
        self.module_defs: set[str] = set()
        # pending facts: builders called once positions are known
        self.pending: list[Callable[[Callable[[cst.CSTNode], Pos]], object]] = []
        self.stage_pending: list[Callable[[Callable[[cst.CSTNode], Pos]], None]] = []
        self.recording: set[int] = set()  # handlers with at least one site
        self.lookups: set[str] = set()  # registry-like lists a code is looked up in (`ORDER.index(code)`)
        self.next_try = 0
        self.next_handler = 0

    # -- traversal ---------------------------------------------------------------------------

    def run(self, source: Optional[str] = None, tree: Optional[ast.Module] = None,
            rows: Optional[tuple[int, ...]] = None) -> FileFacts:
        """The file's facts. `source` is the parsed text and `tree` its `ast`, which let positions be
        computed for the fact nodes alone; without `source`, the whole module is positioned. `rows`
        gives each line of a masked `source` its line in the file (screen.Masked)."""
        self.walk(self.module)
        if not self.pending and not self.lookups:
            return FileFacts(self.path, self.module_name)
        wanted: list[cst.CSTNode] = []

        def note(node: cst.CSTNode) -> Pos:  # a throw-away first build lists the nodes facts need
            wanted.append(node)
            return _NOWHERE

        for fill in self.stage_pending:
            fill(note)
        for build in self.pending:
            build(note)
        ranges = node_positions(self.module, wanted, source, tree, children_fields, rows)
        row = (lambda line: line) if rows is None else (lambda line: rows[line - 1])

        def pos_of(node: cst.CSTNode) -> Pos:
            code_range = ranges[id(node)]
            return Pos(row(code_range.start.line), code_range.start.column + 1,
                       row(code_range.end.line), code_range.end.column + 1)

        buckets: dict[type, list] = {Site: [], TryBlock: [], Test: [], Registry: [], Filter: [], Constant: [],
                                     Annotation: []}
        for fill in self.stage_pending:  # stage calls first: try blocks read them
            fill(pos_of)
        for build in self.pending:
            fact = build(pos_of)
            if fact is not None:
                buckets[type(fact)].append(fact)
        buckets[Site], buckets[TryBlock] = _numbered(buckets[Site], buckets[TryBlock])
        for kind in (Site, Test, Registry, Filter):  # in source order, however the walk met them
            buckets[kind].sort(key=_position)
        return FileFacts(
            self.path, self.module_name, tuple(buckets[Site]), tuple(buckets[TryBlock]),
            tuple(buckets[Test]), tuple(buckets[Registry]), tuple(buckets[Filter]),
            tuple(buckets[Constant]),
            # a site's registry is the one its module defines or imports (project.Project.in_scope)
            # (and a filter's, FC004)
            tuple(sorted(self.imports.targets)) if buckets[Site] or buckets[Annotation] or buckets[Filter]
            or self.lookups else (),
            annotations=tuple(sorted(set(buckets[Annotation]), key=_annotation_key)),  # a set: no order, no repeats
            lookups=tuple(sorted(self.lookups)),
        )

    def walk(self, node: cst.CSTNode) -> None:
        method = getattr(self, "visit_" + type(node).__name__, None)
        if method is None or method(node) is not False:
            self.walk_children(node)

    def walk_children(self, node: cst.CSTNode) -> None:
        for name in children_fields(node):
            value = getattr(node, name)
            if isinstance(value, cst.CSTNode):
                self.walk(value)
            elif isinstance(value, (tuple, list)):
                for item in value:
                    if isinstance(item, cst.CSTNode):
                        self.walk(item)

    def walk_all(self, nodes) -> None:
        for node in nodes:
            self.walk(node)

    # -- scopes ------------------------------------------------------------------------------

    def visit_Module(self, node: cst.Module) -> Optional[bool]:
        if not self.prelude:
            return None
        if len(self.prelude) != len(node.body) + 1:
            raise ValueError(f"the screen kept {len(self.prelude) - 1} statements, LibCST read {len(node.body)}")
        for told, statement in zip(self.prelude, node.body):
            self._spared(told)
            self.walk(statement)
        self._spared(self.prelude[-1])
        return False

    def _spared(self, told: tuple) -> None:
        """What statements LibCST did not read tell, as they would have told it (screen.Event)."""
        for event in told:
            kind = event[0]
            if kind == "import":
                self.imports.add_ast(event[1])
            elif kind == "def":
                self.module_defs.add(event[1])
            elif kind == "string":
                self._constant(event[1], event[2])
            else:
                self.strings.pop(event[1], None)

    def visit_Import(self, node: cst.Import) -> bool:
        self.imports.add_import(node)
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        self.imports.add_import_from(node)
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        if self.function is None and not self.classes:
            self.module_defs.add(node.name.value)
        self.walk_all(node.decorators)
        self.walk(node.params)
        outer = (self.function, self.context, self.collectors)
        prefix = outer[0].qualname + "." if outer[0] else ("".join(c + "." for c in self.classes))
        function = _Function(prefix + node.name.value)
        returns = self._registry_type(node.returns.annotation) if node.returns is not None else None
        if returns is not None:
            params = [*node.params.posonly_params, *node.params.params, *node.params.kwonly_params]
            typed = (self._registry_type(param.annotation.annotation) for param in params if param.annotation)
            function.typed = (returns, tuple(name for name in typed if name is not None and name != returns))
        elif node.returns is not None:
            function.plain = self._registry_type(node.returns.annotation, plain=True)
        self.function, self.context, self.collectors = function, [], []
        aliases, self.filters.aliases = self.filters.aliases, {}
        self.walk(node.body)
        self._finish_function(function)
        self.function, self.context, self.collectors = outer
        self.filters.aliases = aliases
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        at_module = self.function is None and not self.classes
        if at_module:
            self.module_defs.add(node.name.value)
            self._class_registry(node)
        self.walk_all(node.decorators)
        self.walk_all(node.bases)
        self.walk_all(node.keywords)
        self.classes.append(node.name.value)
        outer = (self.function, self.context, self.collectors)
        self.function, self.context, self.collectors = None, [], []
        self.walk(node.body)
        self.function, self.context, self.collectors = outer
        self.classes.pop()
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        # the body runs later, outside any try it is written in
        outer = self.collectors
        self.collectors = []
        self.walk(node.params)
        self.walk(node.body)
        self.collectors = outer
        return False

    # -- calls -----------------------------------------------------------------------------------

    def visit_Call(self, node: cst.Call) -> Optional[bool]:
        name = self.imports.resolve(node.func)
        if name is None and isinstance(node.func, cst.Attribute):
            name = "?." + node.func.attr.value
        keywords = [arg.keyword.value for arg in node.args if arg.keyword is not None]
        if self.collectors and name is not None:
            stage = self.stages.classify(name, keywords)
            if stage is not None:
                line_node = node
                label = name.rpartition(".")[2] if name.startswith("?.") else name
                for collector in self.collectors:
                    if stage not in collector.first:
                        collector.first[stage] = None  # placeholder keeps order; filled below
                        self._stage_at(collector, stage, label, line_node)
        if self.function is not None and self.context and name is not None and not self.quoting:
            self._note_narrowing(node, name)
        if self.function is not None:
            self._call_sites(node, keywords)
        self._note_lookups(node)
        self.filters.call(node, name)
        if name is not None and name.rpartition(".")[2] in _SAYING:
            return self._quoted(node)
        return None

    def visit_FormattedStringExpression(self, node: cst.FormattedStringExpression) -> bool:
        return self._quoted(node)

    def _quoted(self, node: cst.CSTNode) -> bool:
        """What a log call or an f-string is given it only says (`logger.warning(f"{type(e)}")`):
        a handler does not sort what it caught by naming it."""
        self.quoting += 1
        self.walk_children(node)
        self.quoting -= 1
        return False


def _numbered(sites: list[Site], tries: list[TryBlock]) -> tuple[list[Site], list[TryBlock]]:
    """Try and handler ids renumbered in source order among those that are facts, so a file read
    whole and one read with its fact-free definitions masked (facts/screen.py) get the same ids."""
    tries = sorted(tries, key=lambda found: found.pos)
    handler_ids: dict[int, int] = {}
    for found in tries:
        for handler in found.handlers:
            handler_ids.setdefault(handler.id, len(handler_ids))
    for site in sorted(sites, key=lambda found: found.pos):
        if site.handler is not None:
            handler_ids.setdefault(site.handler, len(handler_ids))
    tries = [dataclasses.replace(found, id=index, handlers=tuple(
        dataclasses.replace(handler, id=handler_ids[handler.id]) for handler in found.handlers))
        for index, found in enumerate(tries)]
    sites = [site if site.handler is None else dataclasses.replace(site, handler=handler_ids[site.handler])
             for site in sites]
    return sites, tries


_TOOLS: dict[Settings, tuple[Vocabulary, StageClassifier]] = {}


def _tools(settings: Settings) -> tuple[Vocabulary, StageClassifier]:
    tools = _TOOLS.get(settings)
    if tools is None:
        tools = _TOOLS[settings] = (Vocabulary(settings), StageClassifier(settings.stages))
    return tools


def _syntax_error(text: str, exc: cst.ParserSyntaxError) -> InputError:
    """Python's own wording and position where it has one (LibCST's native parser often reports
    the end of the input); LibCST's message and position for syntax only LibCST rejects."""
    return python_syntax_error(text) or \
        InputError("unparseable", exc.message, exc.editor_line, exc.editor_column + 1)


def parse(text: str) -> cst.Module:
    if "\x00" in text:
        raise InputError("unparseable", "source contains a NUL byte")
    deep = too_deep(text)  # LibCST's parser would crash the process here, not raise
    if deep is not None:  # an unclosed bracket also looks deep: Python's syntax error says which
        raise (None if AST_MAY_CRASH else python_syntax_error(text)) or InputError("unparseable", deep)
    try:
        return cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        raise _syntax_error(text, exc) from None
    except cst.CSTValidationError as exc:  # parsed, but not valid Python (`except:` before another handler)
        raise python_syntax_error(text) or InputError("unparseable", f"invalid syntax: {exc}") from None
    except RecursionError:
        raise InputError("unparseable", "too deeply nested for LibCST to parse") from None


def extract(data: bytes, path: str, module_name: str, is_package: bool, settings: Settings) -> FileFacts:
    """Facts of one file's bytes. Raises InputError for input problems; anything else is a bug."""
    return extract_source(decode(data), path, module_name, is_package, settings)


def extract_source(text: str, path: str, module_name: str, is_package: bool, settings: Settings,
                   tree: Optional[ast.Module] = None, masked: Optional[Masked] = None) -> FileFacts:
    """Facts of decoded source text; `tree` is its `ast` when the caller has parsed it already.
    With `masked` (facts/screen.py), LibCST reads only what it kept of the text; noqa comments
    count wherever they are in the text."""
    source = text if masked is None else masked.text
    module = parse(source)
    shapes, stages = _tools(settings)
    try:
        if masked is None:
            facts = Extractor(module, path, module_name, is_package, settings, shapes, stages).run(source, tree)
        else:
            facts = Extractor(module, path, module_name, is_package, settings, shapes, stages,
                              masked.prelude).run(source, masked.tree, masked.rows)
    except RecursionError:
        raise InputError("unparseable", "too deeply nested for LibCST to analyse") from None
    noqa, file_noqa = suppressions(text)
    if noqa or file_noqa is not None:
        facts = dataclasses.replace(facts, noqa=noqa, file_noqa=file_noqa)
    return facts


def extract_parts(parts, original: str, path: str, module_name: str, is_package: bool,
                  settings: Settings) -> FileFacts:
    """Facts of a large file read in parts (facts/screen.py `_parts`): each part's facts on the lines
    it owns, try and handler ids renumbered across the parts in source order, as one read gives
    them. Every part tells the module's imports and its statements outside definitions alike."""
    merged: dict[str, list] = {"sites": [], "tries": [], "tests": [], "registries": [], "filters": []}
    annotations: set[Annotation] = set()
    imports: set[str] = set()
    lookups: set[str] = set()
    first: Optional[FileFacts] = None
    for number, part in enumerate(parts):
        facts = extract_source(original, path, module_name, is_package, settings, masked=part)
        first = first or facts
        offset = number * 1_000_000  # ids apart until `_numbered` numbers them anew

        def owned(found) -> bool:
            return any(start <= found.pos.line <= end for start, end in part.owned)

        merged["sites"] += [site if site.handler is None else dataclasses.replace(site, handler=site.handler + offset)
                            for site in facts.sites if owned(site)]
        merged["tries"] += [dataclasses.replace(found, id=found.id + offset, handlers=tuple(
            dataclasses.replace(handler, id=handler.id + offset) for handler in found.handlers))
            for found in facts.tries if owned(found)]
        for kind in ("tests", "registries", "filters"):
            merged[kind] += [found for found in getattr(facts, kind) if owned(found)]
        annotations.update(facts.annotations)
        imports.update(facts.imports)
        lookups.update(facts.lookups)
    sites, tries = _numbered(merged["sites"], merged["tries"])
    return dataclasses.replace(
        first, sites=tuple(sorted(sites, key=_position)), tries=tuple(tries),
        tests=tuple(sorted(merged["tests"], key=_position)),
        registries=tuple(sorted(merged["registries"], key=_position)),
        filters=tuple(sorted(merged["filters"], key=_position)),
        annotations=tuple(sorted(annotations, key=_annotation_key)), lookups=tuple(sorted(lookups)),
        imports=tuple(sorted(imports)) if sites or annotations or merged["filters"] or lookups else ())


def _position(fact) -> Pos:
    return fact.pos


def _annotation_key(annotation: Annotation) -> tuple:
    return annotation.sink, annotation.returns, annotation.params
