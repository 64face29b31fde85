"""The project-wide view the rules judge: registries, what governs each sink, what each site records.

Built once from every file's facts. It answers the questions several rules share — is this value
a code, which registries govern this site, which registry member does `FC.X` name — so no rule
re-derives them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Optional

from failcode.model import COLLECTIONS, Annotation, FileFacts, Filter, Handler, Registry, RegistryEntry, Site
from failcode.names import SegmentPattern, is_constant_name, is_registry_name, segments
from failcode.summaries import Summaries
from failcode.values import Values

_IDENTIFIER_CODE = re.compile(r"^(?:[A-Z][A-Z0-9_]+|[a-z][a-z0-9_]+)$")  # `b`/`f` type codes are not failure codes
_LOWERCASE_CODE = re.compile(r"^[a-z][a-z0-9_]+$")
_UPPER_WORD = re.compile(r"^[A-Z][A-Z0-9_]*$")
_LITERAL_KINDS = frozenset({"list", "tuple", "set", "frozenset", "dict"})
_BY_USE = COLLECTIONS | {"literal"}  # registries found by use: a type's `Literal`, a filtered collection


@dataclass(frozen=True)
class Resolved:
    """What a site records once references are resolved."""

    code: Optional[str]  # the string recorded, None when unknown
    registry: Optional[Registry] = None  # for `Registry.MEMBER` references
    missing_member: Optional[str] = None  # `FailureCode.NOPE`: a member the registry lacks


@dataclass
class Patterns:
    code: re.Pattern
    blame: SegmentPattern
    internal: SegmentPattern


@dataclass
class Project(Values):
    files: dict[str, FileFacts]
    configured: list[Registry]
    discovered: list[Registry]
    patterns: Patterns
    constants: dict[str, str] = field(default_factory=dict)
    bound: dict[tuple[str, str], list[Registry]] = field(default_factory=dict)  # (path, sink) → registries
    typed: set[tuple[str, str]] = field(default_factory=set)  # (path, sink) of returns typed with a registry
    foreign: set[tuple[str, str]] = field(default_factory=set)  # (path, sink) of returns typed with no project registry
    levels: set[tuple[int, int]] = field(default_factory=set)  # ids of registries a function maps one onto the other
    by_use: list[Registry] = field(default_factory=list)  # `Grade = Literal[...]`: a registry once a type ties it
    _file_of: dict[int, FileFacts] = field(default_factory=dict)  # id(site) → the file that holds it
    _resolved: dict[Site, Resolved] = field(default_factory=dict)
    _scopes: dict[str, list[Registry]] = field(default_factory=dict)  # path → discovered registries in scope
    # (path, constant) and (None, qualified constant) → what it was derived from (`KNOWN = frozenset(Codes)`)
    aliases: dict[tuple[Optional[str], str], str] = field(default_factory=dict)
    enums: dict[str, tuple[str, ...]] = field(default_factory=dict)  # qualified Enum → its members' names
    summaries: Summaries = field(default_factory=Summaries)  # our functions, by name (`summaries.py`)
    # a module of the project → the names it binds by import or assignment (`FileFacts.reexports`)
    module_names: dict[str, frozenset[str]] = field(default_factory=dict)
    looked_up: set[int] = field(default_factory=set)  # ids of registries a code is looked up in by its place

    @classmethod
    def build(cls, files: Iterable[FileFacts], configured: list[Registry], patterns: Patterns) -> "Project":
        files = {facts.path: facts for facts in files}
        configured_keys = {(r.path, r.name) for r in configured}
        discovered = [
            registry for facts in files.values() for registry in facts.registries
            if (registry.path, registry.name) not in configured_keys and _discoverable(registry, patterns)
        ]
        by_use = [registry for facts in files.values() for registry in facts.registries
                  if registry.kind in _BY_USE and not is_registry_name(registry.name)
                  and (registry.path, registry.name) not in configured_keys and _discoverable(registry, patterns, True)]
        project = cls(files, configured, discovered, patterns, by_use=by_use)
        project.constants = {c.qualname: c.value for f in files.values() for c in f.constants}
        project.enums = {enum.name: enum.members for f in files.values() for enum in f.enums}
        project.summaries = Summaries.build(files.values())
        for facts in files.values():  # a module's `.py` and its `.pyi` stub bind names together
            if facts.module:
                project.module_names[facts.module] = project.module_names.get(facts.module, frozenset()) \
                    | frozenset(facts.reexports)
        for facts in files.values():
            for name, source in facts.aliases:
                project.aliases[(facts.path, name)] = source
                project.aliases[(None, f"{facts.module}.{name}" if facts.module else name)] = source
        for facts in files.values():
            for site in facts.sites:
                project._file_of[id(site)] = facts
            for name in facts.lookups:  # `ORDER.index(code)`: a list used as the whole vocabulary
                registry = project.registry_named(name, facts.path)
                if registry is not None:
                    project.looked_up.add(id(registry))
        for facts in files.values():
            for annotation in facts.annotations:
                project._typed(facts, annotation)
            for found in facts.filters:
                project._filtered(facts, found)
        if not configured:
            for facts in files.values():
                scope = project.scope(facts)
                for site in facts.sites:
                    if (facts.path, site.sink) in project.foreign:
                        continue
                    resolved = project.resolve(site)
                    for registry in scope:
                        if resolved.registry is registry or (resolved.code is not None and resolved.code in registry.codes):
                            bucket = project.bound.setdefault((facts.path, site.sink), [])
                            if registry not in bucket:
                                bucket.append(registry)
        return project

    def scope(self, facts: FileFacts) -> list[Registry]:
        """The discovered registries that can govern a file's sites (`in_scope`), computed once;
        only files with sites ask."""
        found = self._scopes.get(facts.path)
        if found is None:
            imported = Imported(facts)
            found = self._scopes[facts.path] = [r for r in self.discovered
                                                if in_scope(r, facts, imported) or self._imports_producer(r, imported)] \
                if facts.sites else []
        return found

    def _imports_producer(self, registry: Registry, imported: Imported) -> bool:
        """The file imports a function of the registry's module that records its codes itself
        (`from .errors import build_error_payload`, which writes `error_type = "generation_error"`):
        the file speaks that vocabulary. A class or any other function brings no registry along."""
        home = self.files.get(registry.path)
        if home is None:
            return False
        for name in imported.names.get(registry.module, ()):
            if name[:1].islower() and any(site.function == name and self.resolve(site).code in registry.codes
                                          for site in home.sites):
                return True
        return False

    def _typed(self, facts: FileFacts, annotation: Annotation) -> None:
        """`def classify(...) -> Outcome`: every value the function returns is one of Outcome's codes,
        whatever its words; `def outcome_of(reason: StopReason) -> RunOutcome` maps one vocabulary
        onto the other."""
        returns = self._type_registry(annotation.returns)
        if returns is None:  # typed with another package's vocabulary (`anthropic.types.StopReason`)
            if is_registry_name(annotation.returns.rpartition(".")[2]):
                self.foreign.add((facts.path, annotation.sink))
            return
        if returns in self.by_use and returns not in self.discovered:
            self.discovered.append(returns)  # found by this use of it
        key = (facts.path, annotation.sink)
        if returns in self.configured:
            self.typed.add(key)
        elif not self.configured and in_scope(returns, facts):
            self.bound.setdefault(key, []).append(returns)
            self.typed.add(key)
        for param in annotation.params:
            source = self._type_registry(param)
            if source is not None and source is not returns:
                self.levels.update({(id(source), id(returns)), (id(returns), id(source))})

    def _filtered(self, facts: FileFacts, found: Filter) -> None:
        """`[c for c in ORDER if c in failures]`: a constant collection of codes that a filter pairs
        with recorded reasons (a name whose head is a failure or reason word) is their registry."""
        for name, other in ((found.container, found.iterable), (found.iterable, found.container)):
            if name is None or other is None or not is_registry_name(other.rpartition(".")[2]):
                continue
            registry = next((r for r in self.by_use if r.kind in COLLECTIONS and (
                name == r.name and r.path == facts.path or name == f"{r.module}.{r.name}")), None)
            if registry is not None and registry not in self.discovered and in_scope(registry, facts):
                self.discovered.append(registry)

    def _type_registry(self, qualname: str) -> Optional[Registry]:
        """The registry a type names: defined in its module or re-exported by one of its packages
        (`inspect_ai.model.StopReason`), never one of the same short name elsewhere
        (`anthropic.types.StopReason` is not the project's `StopReason`)."""
        package, _, name = qualname.rpartition(".")
        return next((r for r in (*self.registries, *self.by_use) if r.name == name and (
            r.module == package or package and r.module.startswith(package + "."))), None)

    @property
    def registries(self) -> list[Registry]:
        return self.configured + self.discovered

    def sites(self) -> Iterable[Site]:
        for facts in self.files.values():
            yield from facts.sites

    # -- references ------------------------------------------------------------------------

    def resolve(self, site: Site) -> Resolved:
        cached = self._resolved.get(site)
        if cached is None:
            cached = self._resolved[site] = self._resolve(site)
        return cached

    def _resolve(self, site: Site) -> Resolved:
        if site.value is not None:
            return Resolved(site.value)
        if site.ref is None:
            return Resolved(None)
        owner, _, member = site.ref.rpartition(".")
        facts = self._file_of.get(id(site))
        registry = self.registry_named(owner, facts.path if facts is not None else None)
        if registry is not None and registry.kind in ("enum", "class"):
            entry = next((e for e in registry.entries if e.member == member), None)
            if entry is None:
                return Resolved(None, registry, member)
            return Resolved(entry.code, registry)
        if site.ref in self.constants:
            return Resolved(self.constants[site.ref])
        return Resolved(None)

    def members_of(self, qualname: str) -> Optional[tuple[str, ...]]:
        """The members of the project's outcome Enum a dotted name refers to: by its qualified name,
        else by a class name only one of them has (a re-export: `from .model import Status`)."""
        found = self.enums.get(qualname)
        if found is not None:
            return found
        short = "." + qualname.rpartition(".")[2]
        matches = [members for name, members in self.enums.items() if name.endswith(short) or name == short[1:]]
        return matches[0] if len(matches) == 1 else None

    def registry_named(self, qualname: str, from_path: Optional[str] = None,
                       _seen: frozenset[str] = frozenset()) -> Optional[Registry]:
        """The registry a dotted name refers to: exact module path first, then (for a file at
        `from_path`) a sibling module of a plain script (`codes.FailureCode` beside `codes.py`),
        else a unique name."""
        if not qualname:
            return None
        candidates = self.registries
        exact = [r for r in candidates if r.qualname == qualname]
        if exact:
            return exact[0]
        source = self.aliases.get((from_path, qualname)) or self.aliases.get((None, qualname))
        if source is not None and source not in _seen:  # a collection made from a registry is that registry
            return self.registry_named(source, from_path, _seen | {qualname})
        module, _, short = qualname.rpartition(".")
        if from_path is not None and "." not in module:
            folder = from_path.rpartition("/")[0]
            beside = [r for r in candidates if r.name == short and r.path.rpartition("/")[0] == folder
                      and r.path.rpartition("/")[2].rpartition(".")[0] == module]
            if beside:
                return beside[0]
        named = [r for r in candidates if r.name == short]
        return named[0] if len(named) == 1 and self.may_reexport(module, short, named[0]) else None

    def may_reexport(self, module: str, name: str, registry: Registry) -> bool:
        """Whether `module.name` may be `registry` under another module's name: `module` is not one
        of the project's modules but sits in one of its packages (unknown, so the name decides), or
        it binds `name` by an import or an assignment (`from .status import JobStatus` in a
        package's `__init__`). A module of ours that defines `name` itself, or never binds it where
        we can see (a generated protobuf module, `pb2.JobStatus.JOB_STATUS_PENDING`), holds another
        object of that name, and so does a module of a package none of ours is in (`from
        livekit.protocol import agent` … `agent.JobStatus.JS_FAILED`, another distribution of a
        namespace package)."""
        if not module or module == registry.module:
            return True
        bound = self.module_names.get(module)
        if bound is None:
            return module.partition(".")[0] in self.top_packages
        return name in bound or "*" in bound

    @cached_property
    def top_packages(self) -> frozenset[str]:
        """The first names of the project's modules (`failcode` of `failcode.project`)."""
        return frozenset(module.partition(".")[0] for module in self.module_names)

    # -- judgement shared by rules ---------------------------------------------------------

    def governing(self, site: Site) -> list[Registry]:
        """The registries a site is checked against: every configured one, else the discovered ones
        its module defines or imports that its sink, in that module, records codes of."""
        if self.configured:
            return self.configured
        resolved = self.resolve(site)
        facts = self._file_of.get(id(site))
        governing = list(self.bound.get((facts.path, site.sink), ())) if facts is not None else []
        if resolved.registry is not None and resolved.registry not in governing:
            governing.append(resolved.registry)
        return governing

    def is_code(self, site: Site) -> bool:
        resolved = self.resolve(site)
        if resolved.registry is not None:
            return True
        if resolved.code is None:
            return False
        if self.patterns.code.match(resolved.code):
            return True
        facts = self._file_of.get(id(site))
        if facts is not None and (facts.path, site.sink) in self.typed:
            return True
        # a collection of failures that a registry of lowercase words governs (`failures.append`
        # beside `KNOWN_REASONS = ("wrong_answer", …)`) holds its codes or missing ones, and so does
        # a sink named for an error's kind (`error_type`, `{"error": {"type": …}}`) where the same
        # function also records one of the registry's codes there (one module may build frames of
        # two vocabularies: its own, and OpenAI's `invalid_request_error`); a keyword
        # (`outcome="declined"`) shares plain words with many vocabularies, and is judged only by type
        governing = self.governing(site)
        if any(resolved.code in registry.codes for registry in governing):
            return True
        if _LOWERCASE_CODE.match(resolved.code) is None:
            return False
        if site.kind != "call" and (_ERROR_WORDS.isdisjoint(segments(site.sink)) or facts is None):
            return False
        if site.kind != "call":
            registered = {code for registry in governing for code in registry.codes}
            if not any(other.function == site.function and other.sink == site.sink
                       and self.resolve(other).code in registered for other in facts.sites):
                return False
        return any(all(map(_LOWERCASE_CODE.match, registry.codes)) for registry in governing)


    def is_registry_like(self, name: Optional[str], from_path: Optional[str] = None) -> bool:
        """A known registry (or a collection made from one), or an UPPER_CASE constant named like one
        (`FAILURE_ORDER`)."""
        if name is None:
            return False
        if self.registry_named(name, from_path) is not None:
            return True
        short = name.rpartition(".")[2]
        return short.isupper() and is_registry_name(short)

    @cached_property
    def disagreements(self) -> list["Disagreement"]:
        """Every registry that disagrees with its reference (computed once, read per file)."""
        return _disagreements(self)

    @cached_property
    def recorded(self) -> frozenset[str]:
        """Every code some checked file records."""
        return frozenset(code for code in (self.resolve(site).code for site in self.sites()) if code is not None)

    def handler_codes(self, facts: FileFacts, handler: Handler) -> list[tuple[Site, str]]:
        """(site, code) for each code a handler records, in source order; raises excluded."""
        found = []
        for site in facts.sites:
            if site.handler == handler.id and site.kind != "raise" and self.is_code(site):
                code = self.resolve(site).code
                if code is not None:  # `FailureCode.MISSING` is FC001's to report
                    found.append((site, code))
        return found


def in_scope(registry: Registry, facts: FileFacts, imported: Optional[Imported] = None) -> bool:
    """Whether a discovered registry can govern the sites of a file: the file's module defines it,
    or imports its module (`from pkg import codes`), a constant of its module (`from pkg.codes
    import UNKNOWN_FAILURE`), or the registry by name from its module or a re-export (`from pkg
    import FAILURE_CODES`). Importing a class from a big types module does not bring its every
    Enum into scope. `imported` is `Imported(facts)` when the caller asks for many registries."""
    module = registry.module
    if module == facts.module or not module:
        return True
    imported = Imported(facts) if imported is None else imported
    return module in imported.modules \
        or any(is_constant_name(name) for name in imported.names.get(module, ())) \
        or any(package == module or module.startswith(package + ".") for package in imported.sources.get(registry.name, ())) \
        or sibling_import(registry.path, facts.path, imported)


def sibling_import(defined_in: str, path: str, imported: "Imported") -> bool:
    """`from codes import FailureCode` in a plain script beside `codes.py`: Python runs the script
    with its own folder on the path, so the sibling is the module it names, whatever folder
    failcode was started from (and so whatever the module names say)."""
    folder, _, file = defined_in.rpartition("/")
    stem = file.rpartition(".")[0]
    return bool(stem) and folder == path.rpartition("/")[0] and (stem in imported.modules or stem in imported.names)


class Imported:
    """What a file imports, indexed: every dotted name (`modules`), each package's names, and the
    packages each name comes from (`from pkg import FAILURE_CODES`: `sources["FAILURE_CODES"]`)."""

    def __init__(self, facts: FileFacts) -> None:
        self.modules = frozenset(facts.imports)
        self.names: dict[str, list[str]] = {}
        self.sources: dict[str, list[str]] = {}
        for dotted in facts.imports:
            package, _, name = dotted.rpartition(".")
            self.names.setdefault(package, []).append(name)
            if package:
                self.sources.setdefault(name, []).append(package)


_ERROR_WORDS = frozenset("error errors failure failures".split())


def _discoverable(registry: Registry, patterns: Patterns, by_use: bool = False) -> bool:
    """Whether a registry found in the code is one to judge by: named like one (or, `by_use`, tied
    to a channel by a type) and holding two or more codes."""
    if not (by_use or is_registry_name(registry.name)) or len(registry.entries) < 2 or registry.path.endswith(".pyi"):
        return False  # a stub declares types, not the registry the code records against
    if registry.kind in _LITERAL_KINDS:
        # codes, or a list of lowercase ones (`("wrong_answer", "parse_error")`); a dict of lowercase
        # keys is mostly a translation table (`_FINISH_REASON_MAP = {"stop": "stop", …}`). A member
        # of one word (`"TIMEOUT"` beside `"PARSE_FAILED"`) is a member all the same: the list is
        # of codes when each is an upper-case word and one at least has the code's shape
        codes = [entry.code for entry in registry.entries]
        return all(patterns.code.match(code) or _UPPER_WORD.match(code) for code in codes) \
            and any(patterns.code.match(code) for code in codes) \
            or registry.kind != "dict" and all(map(_LOWERCASE_CODE.match, codes))
    if registry.kind in ("toml", "txt"):
        return False
    return registry.complete and all(_IDENTIFIER_CODE.match(entry.code) for entry in registry.entries)


def _vocabulary(registry: Registry, code: re.Pattern) -> bool:
    """Whether a registry defines a vocabulary rather than picks from one: a type (Enum, constants
    class, `Literal`) or a collection of code-shaped strings. A collection of lowercase words
    holding part of another list is mostly a selection (`_TERMINAL_STATUSES = ("completed",
    "failed")`), not a copy gone stale."""
    return registry.kind not in _LITERAL_KINDS or all(code.match(entry.code) for entry in registry.entries)


def entries_by_code(registry: Registry) -> dict[str, list[RegistryEntry]]:
    table: dict[str, list[RegistryEntry]] = {}
    for entry in registry.entries:
        table.setdefault(entry.code, []).append(entry)
    return table


@dataclass(frozen=True)
class Disagreement:
    """How one registry differs from its reference (the configured authority, or the union)."""

    registry: Registry
    missing: frozenset[str]
    extra: frozenset[str]
    against: tuple[Registry, ...]  # the authority, or the other registries holding the missing codes
    configured: bool


def _related(a: frozenset[str], b: frozenset[str], code: re.Pattern) -> bool:
    """Two lists are of the same codes when they share two distinctive ones (code-shaped, or of two
    words or more): lifecycle enums that all say "completed" and "failed" are not one registry."""
    distinctive = [item for item in a & b if code.match(item) or len(segments(item)) >= 2]
    return len(distinctive) >= 2


def _connected(registries: list[Registry], code: re.Pattern) -> list[list[Registry]]:
    """Registries grouped by being related (see `_related`), transitively."""
    remaining = list(registries)
    groups = []
    while remaining:
        group = [remaining.pop(0)]
        codes = set(group[0].codes)
        grew = True
        while grew:
            grew = False
            for registry in list(remaining):
                if _related(frozenset(codes), registry.codes, code):
                    group.append(registry)
                    codes |= registry.codes
                    remaining.remove(registry)
                    grew = True
        groups.append(group)
    return groups


def _ties(project: Project) -> dict[int, set[str]]:
    """id(registry) → the channels it is tied to, by their last name (`failures` for
    `failures.add` and for `if code in failures`): the sinks it governs and the collections it
    filters or is filtered by."""
    ties: dict[int, set[str]] = {}
    recorded: dict[tuple[str, str], set[str]] = {}
    for facts in project.files.values():
        for site in facts.sites:
            code = project.resolve(site).code
            if code is not None:
                recorded.setdefault((facts.path, site.sink), set()).add(code)
    for key, registries in project.bound.items():
        codes = recorded.get(key, set())
        for registry in registries:
            # bound through a code two lists share (`batch_cap_reached`), a channel ties neither to the
            # other; it must record a code of this list that the others lack
            others = [other for other in registries if other is not registry]
            if any(code in registry.codes and not any(code in other.codes for other in others) for code in codes):
                ties.setdefault(id(registry), set()).add(_channel_name(key[1]))
    for facts in project.files.values():
        for found in facts.filters:
            for side, other in ((found.container, found.iterable), (found.iterable, found.container)):
                registry = project.registry_named(side) if side else None
                if registry is not None and other:
                    ties.setdefault(id(registry), set()).add(_channel_name(other))
    return ties


def _channel_name(sink: str) -> str:
    """`failures.add` → `failures`, `=status` / `status=` → `status`, `pkg.mod.failures` → `failures`."""
    name = sink.strip("=").rpartition(":")[2]
    receiver, dot, method = name.rpartition(".")
    if dot and method in ("add", "append", "extend", "update", "put", "insert"):
        name = receiver
    return name.rpartition(".")[2]


def _home(registry: Registry) -> str:
    """The project a registry belongs to: its top-level package (`harness` of `harness.codes`), or,
    for a plain script's module, its folder. Lists of two projects checked in one run (an example
    and its fixed copy, two tools side by side) are not copies of one another."""
    if "." in registry.module:
        return registry.module.partition(".")[0]
    return "folder:" + registry.path.rpartition("/")[0]


def _disagreements(project: Project) -> list[Disagreement]:
    """Every discovered registry that disagrees with the configured authority or with the union of
    the registries it shares codes with."""
    found = []
    if project.configured:
        authority = frozenset().union(*(r.codes for r in project.configured))
        for registry in project.discovered:
            if registry.codes & authority and registry.codes != authority:
                found.append(Disagreement(registry, authority - registry.codes, registry.codes - authority,
                                          tuple(project.configured), True))
        return found
    ties = _ties(project)
    homes: dict[str, list[Registry]] = {}
    for registry in project.discovered:
        homes.setdefault(_home(registry), []).append(registry)
    groups = [group for home in homes.values() for group in _connected(home, project.patterns.code)]
    for group in groups:
        for registry in group:
            # compared only with the lists that are about the same thing: one of the same public name,
            # one that governs or filters a channel it governs or filters, or one it is a partial copy
            # of (all its codes are the other's) when the code looks a code up in it by its place
            # (`sorted(failures, key=ORDER.index)`): then it is used as the whole vocabulary, and a
            # code it lacks fails there. A partial copy used otherwise (the statuses a polling loop
            # stops on, the options one version supports, the reasons one cache gives) is a
            # selection for that use: every such finding on the corpus was false (POLICIES.md).
            # Two vocabularies that only share some words and type different fields (`StopReason`,
            # `RunOutcome`), or that a function maps one onto the other, are two levels. A list of
            # lowercase words is mostly a selection of a vocabulary (`OPENAI_FINISH_REASONS` of all
            # finish reasons): only a list of its name is its copy
            vocabulary = _vocabulary(registry, project.patterns.code)
            looked_up = id(registry) in project.looked_up
            peers = [other for other in group if other is not registry
                     and (id(registry), id(other)) not in project.levels
                     and (other.name == registry.name and not registry.name.startswith("_")
                          or vocabulary and (looked_up and registry.codes < other.codes
                                             or ties.get(id(other), set()) & ties.get(id(registry), set())))]
            union = frozenset().union(registry.codes, *(other.codes for other in peers))
            missing = union - registry.codes
            if missing:
                holders = tuple(other for other in peers if missing & other.codes)
                found.append(Disagreement(registry, missing, frozenset(), holders, False))
    return found
