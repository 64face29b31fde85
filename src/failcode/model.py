"""Plain data that crosses module and process boundaries: facts, findings and errors.

Every type here is a frozen dataclass of builtins so it pickles cheaply (facts come back from
worker processes and go into the cache) and compares by value (tests, determinism checks).
Rules import only this module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

# failcode's own exit status: each outcome has its number, so CI can tell whose problem it is
EXIT_CLEAN, EXIT_FINDINGS, EXIT_CONFIG, EXIT_INPUT, EXIT_INTERNAL = 0, 1, 2, 3, 4


@dataclass(frozen=True, order=True)
class Pos:
    """A source range; lines and columns are 1-based, as ruff prints them."""

    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(frozen=True)
class Site:
    """A place inside a function body that records an outcome.

    `value` is the string literal recorded, `ref` the dotted, import-resolved name of a constant or
    registry member (`pkg.codes.FailureCode.PARSE_FAILED`); at most one of them is set.
    `sink` is the binding key shared by every site of one destination shape (`failures.add`,
    `status=`, `=status`, `return:pkg.mod.func`); `dest` is the exact destination in this function
    (`self.failures.add`, `Outcome(status=)`), `extra` the other arguments of the recording call.
    `decision` is the test and arm of a conditional expression the value is an arm of
    (`"stopped" if task.stop_event.is_set() else "failed"`: `task.stop_event.is_set():then`).
    """

    pos: Pos
    kind: str  # call | keyword | assign | return | raise
    sink: str
    dest: str
    value: Optional[str]
    ref: Optional[str]
    function: str
    context: str  # try-body | handler | plain
    handler: Optional[int]  # innermost enclosing handler id
    in_handler: bool  # inside any except handler of this function
    extra: str = ""
    decision: str = ""


@dataclass(frozen=True)
class StageCall:
    """The first call of one stage inside a try body (`read`, `parse_strict_json`, line 12)."""

    stage: str
    name: str
    line: int


# Exception names that say nothing about what failed: the catch-alls, and (for "which stage
# raised") the exceptions every stage can raise. Import-resolved names, so `builtins.` may lead.
CATCH_ALL = frozenset({"Exception", "BaseException"})
UNSPECIFIC = CATCH_ALL | frozenset("ValueError TypeError KeyError LookupError AttributeError RuntimeError".split())


# Exceptions that are an outcome by definition: `except FileNotFoundError: return "absent"`,
# `except ImportError: return "unavailable"`, `except asyncio.CancelledError: status = "cancelled"`
# say what happened, however long the try.
SIGNALS = frozenset("FileNotFoundError NotADirectoryError IsADirectoryError ProcessLookupError ImportError"
                    " ModuleNotFoundError CancelledError KeyboardInterrupt".split())


def _builtin(name: str) -> str:
    return name[len("builtins."):] if name.startswith("builtins.") else name


def catches_all(types: tuple[str, ...]) -> bool:
    """A bare `except` (no types) or one naming Exception/BaseException."""
    return not types or any(_builtin(t) in CATCH_ALL for t in types)


def unspecific(types: tuple[str, ...]) -> bool:
    """Does not say which stage raised: a catch-all, or an exception any stage can raise."""
    return catches_all(types) or any(t.rpartition(".")[2] in UNSPECIFIC and t.count(".") <= 1 for t in types)


def signals(types: tuple[str, ...]) -> bool:
    """Names only exceptions that are an outcome by definition (SIGNALS)."""
    return bool(types) and all(t.rpartition(".")[2] in SIGNALS for t in types)


@dataclass(frozen=True)
class Handler:
    id: int
    pos: Pos  # the `except` keyword
    types: tuple[str, ...]  # import-resolved exception names; empty for a bare `except`
    reraises: bool
    narrows: bool  # inspects the exception (`isinstance(e, …)`, `type(e)`) before recording
    keeps: bool = False  # stores what it caught on a record (`action.result = str(e)`): it reports the failure

    @property
    def catches_all(self) -> bool:
        return catches_all(self.types)

    @property
    def signals(self) -> bool:
        return signals(self.types)

    @property
    def unspecific(self) -> bool:
        return unspecific(self.types)


@dataclass(frozen=True)
class TryBlock:
    id: int
    pos: Pos  # the `try` keyword
    function: str
    stages: tuple[StageCall, ...]
    handlers: tuple[Handler, ...]
    single_external_call: bool  # the body is one call to something not defined in this module
    body_statements: int = 1  # statements directly in the try body


ANY_NUMBER = "number"  # a Write value: a parsed score, any number (0 included)
ANY_REPLY = "reply"  # a Write value: what a call answered (`return response`, `return text, n`), any value
ANY_STATUS = "status"  # a Write value: a process's own exit status (`return proc.returncode`), any integer


@dataclass(frozen=True)
class Annotation:
    """A function or variable typed with a registry-like name: `def classify(...) -> Outcome` ties
    its returns (`sink`), `result: Outcome = …` the name `result` (`=result`), to the registry
    `Outcome` names, whatever words they use; a parameter typed with another
    (`reason: StopReason`) says the function maps one vocabulary onto the other, two levels rather
    than one list gone stale (FC005). Names are import-resolved and module-qualified."""

    sink: str
    returns: str
    params: tuple[str, ...] = ()


@dataclass(frozen=True)
class Write:
    """A value a function writes on an outcome channel (facts/outcomes/), as a verdict or as a
    fallback, kept only for channels that receive both in the function (`FileFacts.writes`), or
    for a record's field, whose two ends the project joins (`FileFacts.records`).

    `values` are comparable keys (`0.0` for `False`/`0`, `'C'`, `None`, `[-1.0]`, `number` for a
    parsed score); `why` is what decides a verdict (a compare, as written) or what triggers a
    fallback (`except Exception`, "no m"); a fallback stands in for the genuine path's lines
    `region_start` < line <= `region_end`, and starts at line `trigger`.
    """

    pos: Pos
    function: str
    channel: str
    text: str
    values: tuple[str, ...]
    role: str  # "verdict" or "fallback"
    kind: str  # verdict: decided, computed, parsed, measured, status, reply; fallback: except, no-match, default,
    # status, dispatch, no-reference, none-left, unread-status (a command judged by its output: `text` is the
    # test, `channel` the command)
    why: str
    trigger: int
    region_start: int
    region_end: int
    attempt: Optional[Pos] = None  # a handler's fallback: its `try` keyword
    stages: tuple[StageCall, ...] = ()  # … and the stages its try body calls, in separate statements
    kept: int = 0  # a handler that writes nothing: the line of the default it leaves standing (or of the record it writes)
    source: str = ""  # a `relay`: the function of ours whose answer is returned (`_make_request`), by its last name
    catch_all: bool = False  # a handler's fallback: the handler catches every exception (bare, `Exception`)
    # a record's fallback: the failure-worded fields of the record that tell the failure by a code or a flag
    # (`reason_code=SchemaErrorReason.CHECK_ERROR`, `errored=True`), for the project's readers (`fields.py`)
    told: tuple[str, ...] = ()

    @property
    def action(self) -> str:
        """What the write does, as written: `returns False`, `appends -1 to results`."""
        channel, text = self.channel, self.text
        if self.kept and channel.endswith("=)"):  # a record built earlier: `fallback = Result(blocked=False)`
            callee, _, keyword = channel[:-2].partition("(")
            return f"records the {callee} built at line {self.kept} with {keyword}={text}"
        if self.kept:
            return f"leaves {channel} = {text} from line {self.kept}"
        if channel == "return":
            return f"returns {text}"
        if channel.startswith("return["):
            return f"returns {text} as {channel}"
        if channel == "yield" or channel.startswith("yield["):
            return f"yields {text}" + (f" as {channel}" if channel != "yield" else "")
        if channel.endswith("=)"):
            callee, _, keyword = channel[:-2].partition("(")
            return f"passes {keyword}={text} to {callee}"
        if "=)[" in channel:  # `Score(value={"correct": False})`
            call, _, key = channel.partition("=)")
            callee, _, keyword = call.partition("(")
            return f"passes {keyword}={{{key[1:-1]}: {text}}} to {callee}"
        receiver, dot, method = channel.rpartition(".")
        if dot and method in ("append", "add", "extend", "put"):
            return f"{'adds' if method == 'add' else method + 's'} {text} to {receiver}"
        return f"assigns {text} to {channel}"

    def recorded_beside(self, facts: "FileFacts", is_code: Callable[[Site], bool]) -> bool:
        """The fallback's handler also records an outcome (`failures.add("COMPARE_FAILED")`): it
        has said what happened, and its sites are judged on their own. The fallback itself seen as a
        site has said more only when it records a code: `return WRONG` (a name imported from
        elsewhere) or `return "json_parse_error"` are this write, judged here."""
        return any(site.context == "handler" and self.trigger <= site.pos.line <= self.pos.line
                   and ((site.pos.line, site.pos.column) != (self.pos.line, self.pos.column) or is_code(site))
                   for site in facts.sites)


# the kinds of a plain collection of codes, as a registry holds them (not a dict, an Enum or a `Literal`)
COLLECTIONS = frozenset({"list", "tuple", "set", "frozenset"})


@dataclass(frozen=True)
class Tally:
    """A chain of tests that sorts outcomes into buckets by the members of one class, collecting in
    each arm and keeping no arm for the rest (`if s.status == Status.failed: failed.append(s) elif
    s.status == Status.error: errored.append(s)`, `for status in (Status.error, Status.hook_error):
    count += …`); whether it leaves members out is FC004's to judge (facts/outcomes/tallies.py).

    `owner` is the class as an import-resolved dotted name, `sorted` the members the chain tests,
    `named` every member of it the function names."""

    pos: Pos  # the `if` or `for` that starts the chain
    function: str
    owner: str
    sorted: tuple[str, ...]
    named: tuple[str, ...]
    # a chain that scores labels instead (`if label in POSITIVE: scores.append(1) elif label in
    # NEGATIVE: scores.append(0)`): the list it scores into; `owner` is then the label tested and
    # `sorted` the values or collections its arms know
    scores: str = ""


@dataclass(frozen=True)
class Members:
    """A module's Enum whose name says it holds outcomes (`Status`, `ErrorKind`), and its members'
    names whatever their values (`failed = 3`): what a tally over it may sort."""

    name: str  # qualified: module.Class
    members: tuple[str, ...]


@dataclass(frozen=True)
class Raises:
    """One of our functions raises an error that names a cause (`raise IOError("File %r does not
    exist")`, `raise ConfigNotFound(path)`): its callers' handlers of that error hear that cause
    (facts/outcomes/; `Summaries.raises_for`)."""

    function: str  # qualified within its module: `filefind`, `Loader.load`
    error: str  # the raised class, its last name (`IOError`)
    cause: str  # causes.Cause.name (`not-found`)


@dataclass(frozen=True)
class Absence:
    """A caller says why one of our functions gave nothing back (`agent = get_agent(id)` … `if
    agent is None: raise HTTPException(404, "Agent not found")`): its callee's failures, when it
    answers them with that same nothing, get that cause too (facts/outcomes/; FC006 joins it with
    the callee's `swallow` blames over the project, by the callee's last name, or, for a method of
    the caller's own class called on `self`, with that class's definition alone)."""

    callee: str  # the function's last name (`get_agent`), or `Store._lookup` for `self._lookup(…)` in `Store`
    line: int  # the test
    nothing: str  # what the test takes for nothing: `None` (`is None`), `False` (`is False`), `falsy` (`not x`)
    cause: str  # causes.Cause.name (`not-found`)
    said: str  # the words that say it


@dataclass(frozen=True)
class Blame:
    """A place that may name an outside party for failures of ours, and what it says
    (facts/outcomes/); whether it blames one is FC006's to judge.

    `shape` is what the place is: `handler`, a catch-all whose try runs our own code; `poll`, a
    catch-all in a polling loop; `status`, a branch on every failing status (`subject`: its test);
    `default`, a lookup default keyed by an exception's type (`subject`: the lookup); `no-result`,
    the arm for no result after waiting on a child (`subject`: the child); `swallow`, a broad handler
    whose only answer is `return None` or `return False` (`written`: that value), which the function's
    callers may read as the thing not being there (`Absence`); `runs-lookup`, a handler of a lookup's own
    failure that names a cause while its try runs what it looked up (`own`: (`runs`, what it calls, line,
    the lookup's error)). `texts` are what it says:
    log messages, the errors it raises (class names too), strings it writes. For a handler, `own` is
    the own code the try runs, as (kind, name, line, what it says): (`yield`, "", 216, ""),
    (`raise`, "ValueError", 159, "temperature is 0"), (`call`, "self._run_judge", 282, "") for a
    method of its class or a function of its file or package (`argument` when the call sits inside
    another call's arguments, `reply` when it takes a name the try bound: it reads what the try
    received). `raised` are the class names of the errors the handler raises.
    """

    pos: Pos  # the `except` keyword, the test, or the default
    function: str
    caught: str
    texts: tuple[str, ...]
    own: tuple[tuple[str, str, int, str], ...]
    attempt: int  # the `try` line; for the other shapes, the line they refer to (the `if`, the `join`)
    raised: tuple[str, ...] = ()  # the classes of the errors the handler raises (`ClavataAPIError`)
    written: tuple[str, ...] = ()  # the word-like values it records (`status = "provider_failed"`)
    shape: str = "handler"
    subject: str = ""
    told: tuple[str, ...] = ()  # the texts of the errors it raises (`raise ValueError("not found")`)


@dataclass(frozen=True)
class Test:
    """A later test of a sink-shaped name against literals (`if verdict == "reject"`)."""

    pos: Pos
    function: str
    target: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class RegistryEntry:
    code: str
    pos: Pos
    member: Optional[str] = None  # the member name for Enum / class registries


@dataclass(frozen=True)
class Registry:
    """A collection of string codes defined at module level (or read from a .toml/.txt file)."""

    name: str
    module: str
    path: str
    pos: Pos
    kind: str  # list tuple set frozenset dict enum class literal toml txt
    entries: tuple[RegistryEntry, ...]
    complete: bool = True  # every member/element is a string (or `auto()`)
    configured: bool = False

    @property
    def qualname(self) -> str:
        return f"{self.module}.{self.name}" if self.module else self.name

    @property
    def codes(self) -> frozenset[str]:
        return frozenset(entry.code for entry in self.entries)

    @property
    def label(self) -> str:
        return f"{self.name} ({self.path}:{self.pos.line})"


@dataclass(frozen=True)
class Filter:
    """A membership filter that may drop unknown codes (`[r for r in reasons if r in ORDER]`).

    `container` is the collection tested against, `iterable` the collection iterated; both are
    import-resolved dotted names or None. `guarded` is true when the same function also takes the
    difference / `not in` against the container (unknown codes are reported or kept).
    """

    pos: Pos
    form: str  # comprehension | filter | intersection | for
    container: Optional[str]
    iterable: Optional[str]
    function: str
    guarded: bool


@dataclass(frozen=True)
class Constant:
    """A module-level `NAME = "VALUE"` string constant, for resolving `failures.add(NAME)`."""

    qualname: str
    value: str


@dataclass(frozen=True)
class FileFacts:
    path: str
    module: str
    sites: tuple[Site, ...] = ()
    tries: tuple[TryBlock, ...] = ()
    tests: tuple[Test, ...] = ()
    registries: tuple[Registry, ...] = ()
    filters: tuple[Filter, ...] = ()
    constants: tuple[Constant, ...] = ()
    imports: tuple[str, ...] = ()  # what the file imports (fully qualified), kept when it has sites
    noqa: tuple[tuple[int, tuple[str, ...]], ...] = ()  # (line, codes); () means every code
    file_noqa: Optional[tuple[str, ...]] = None  # `# failcode: noqa`: () every code, else the codes listed
    writes: tuple[Write, ...] = ()
    blames: tuple[Blame, ...] = ()
    annotations: tuple[Annotation, ...] = ()
    # module constants derived from a collection (`KNOWN = {c.value for c in FailureCode}`):
    # (the constant's name, the import-resolved name of what it was derived from)
    aliases: tuple[tuple[str, str], ...] = ()
    tallies: tuple[Tally, ...] = ()
    enums: tuple[Members, ...] = ()
    raises: tuple[Raises, ...] = ()  # our functions' raises that name a cause, for their callers
    functions: tuple[str, ...] = ()  # every function the module defines, qualified (`Loader.load`)
    # capitalised names the module binds by import or assignment (`*`: a star import), `aliases.reexports`
    reexports: tuple[str, ...] = ()
    # registry-like collections the module looks a code up in by its place (`ORDER.index(code)`,
    # `sorted(failures, key=ORDER.index)`), as written: a list used as the whole vocabulary
    lookups: tuple[str, ...] = ()
    absences: tuple[Absence, ...] = ()  # callers' tests that say why our function gave nothing back
    replies: tuple[str, ...] = ()  # the functions that return what a model or service replied (`Agent._make_request`)
    # verdicts our functions pass to a record's field (`MetricResult(passed=score >= t)`), and the
    # fallbacks to such a field in functions that write no verdict there (`facts/outcomes/fields.py`)
    records: tuple[Write, ...] = ()
    # the fields the module reads together off one name, where one of them names a failure
    # (`result.passed` … `result.reason_code`): a record's readers, `fields.field_reads`
    reads: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    pos: Pos
    rule: str
    message: str
    code: Optional[str] = None
    # `high`: proven by the shape and flow of the code; `medium`: inferred (a cause named only in a
    # log message, a default left standing rather than written by the handler)
    confidence: str = "high"


CONFIDENCE = ("high", "medium")


@dataclass(frozen=True, order=True)
class FileError:
    """A file failcode could not check (input error) or a rule that crashed on it (internal).

    `line` and `column` (1-based) locate a syntax error, so editors and annotations point at it;
    other errors concern the whole file and stay at 1:1."""

    path: str
    kind: str  # unparseable | unreadable | undecodable | internal
    message: str
    line: int = 1
    column: int = 1


@dataclass
class Result:
    """What one check found: findings, files that could not be checked (input errors) or that a rule
    crashed on (internal errors), and the project views they were judged with (`failcode sites` /
    `registry` read them). `files` counts the files checked: those found, less those that could not
    be read, decoded or parsed. Reports need only this data."""

    findings: list[Finding] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    files: int = 0
    # one project.Project per configuration the files were checked with; typed loosely so this
    # module imports nothing of failcode
    projects: list[Any] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        if any(error.kind == "internal" for error in self.errors):
            return EXIT_INTERNAL
        if self.errors:
            return EXIT_INPUT
        return EXIT_FINDINGS if self.findings else EXIT_CLEAN
