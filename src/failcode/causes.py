"""The specific causes a handler can assert for a failure, and the exception families that are them.

FC006 judges a broad handler that records or raises ONE specific cause for every failure it
catches: `except Exception: raise FileNotFoundError(...)` around a read and a parse, `except
OSError: log("config not found")`, `except Exception: status = "timeout"`. These lists name two
concepts, nothing of any one package:

- a *cause* is a reason that says what went wrong rather than that something did: the thing is not
  there, the wait ran out, the dependency is not installed. Each cause has the phrases that assert
  it, the class-name words that assert it, and the exception names that are that cause (a handler
  of those says it truly). A failed connection is not among them: a try that reaches a service
  fails mostly in transport, and of the 25 handlers of the tune split that said "connection
  error" or "could not reach" for it, none was judged a real defect (15 false, 10 debatable);
- a *broad family* is an exception class that every failure of an operation can raise, whatever
  its cause: the catch-alls, the OS's error, RuntimeError, a client library's root error
  (`requests.RequestException`, `httpx.HTTPError`, `botocore...ClientError`, `APIError`), named by
  its shape: a transport or client word and nothing more before `Error`/`Exception`, and a
  command's non-zero exit (`subprocess.CalledProcessError`: the command ran, and failed for any
  reason of its own).

LibCST-free: the outcome scan (facts/outcomes/) and FC006 share it.
"""

from __future__ import annotations

import builtins
import re
from dataclasses import dataclass
from typing import Optional

from failcode.names import segments


@dataclass(frozen=True)
class Cause:
    name: str
    says: str  # how a message names it
    phrases: re.Pattern  # prose that asserts it
    words: tuple[tuple[str, ...], ...]  # runs of name segments that assert it (`FileNotFoundError`)
    family: re.Pattern  # exception names that are this cause: handling them, the cause is true


CAUSES = (
    Cause("not-found", "that it does not exist",
          re.compile(r"\bnot (?:be )?found\b|\bno (?:\w+ ){1,2}(?:was |were )?found\b|\bdoes ?n[o']?t exist|"
                     r"\bdo ?n[o']?t exist|\bno such (?:file|directory|key|"
                     r"table|bucket|object|module|path|entry|job|record)\b|\b(?:could ?n[o']?t|can ?not|can't|unable to) "
                     r"(?:find|locate)\b", re.IGNORECASE),
          (("not", "found"), ("does", "not", "exist"), ("no", "such"), ("not", "exist")),
          re.compile(r"(?:^|\.)(?:\w*NotFound\w*|\w*DoesNotExist\w*|NoSuch\w*|KeyError|LookupError|IndexError)$")),
    Cause("timeout", "a timeout",
          re.compile(r"\btimed[ _-]?out\b|\btime[ _-]?out (?:error|exceeded|reached|occurred|expired)\b|"
                     r"\b(?:request|connection|read|operation|call|deadline) (?:timed? ?out|exceeded)\b", re.IGNORECASE),
          (("timeout",), ("timed", "out"), ("time", "out")),
          re.compile(r"(?:^|\.)\w*Time[oO]ut\w*$|(?:^|\.)TimeoutExpired$|(?:^|\.)CancelledError$")),
    Cause("not-installed", "that it is not installed or not available",
          re.compile(r"\bnot installed\b|\bplease install\b|\bpip install\b|\bis not available\b", re.IGNORECASE),
          (("not", "installed"),),
          re.compile(r"(?:^|\.)(?:ImportError|ModuleNotFoundError)$")),
)

NOT_FOUND, _, NOT_INSTALLED = CAUSES
BY_NAME = {cause.name: cause for cause in CAUSES}  # what facts store (`Raises.cause`, `Absence.cause`) → the cause

# The standard library's calls that start a program by its name or path (the concept "starting a
# program"): the OS refusing to start it, a `FileNotFoundError` (an `OSError`), is how a program
# that is not there shows, so "not found" or "not installed" is what that error says. Through a
# shell (`shell=True`, `os.system`, `create_subprocess_shell`) a missing program is an exit status
# of 127 instead, so those are not among them.
PROGRAM_STARTS = frozenset(
    "subprocess.run subprocess.Popen subprocess.call subprocess.check_call subprocess.check_output"
    " asyncio.create_subprocess_exec os.execv os.execve os.execvp os.execvpe os.execl os.execle os.execlp"
    " os.execlpe os.posix_spawn os.posix_spawnp os.spawnv os.spawnve os.spawnvp os.spawnvpe".split())
MISSING_PROGRAM = "FileNotFoundError"  # what starting a program that is not there raises


def tells_missing_program(cause: Cause, types: tuple[str, ...]) -> bool:
    """A handler of `types` around starting a program, saying `cause`, says what a missing program
    shows: "not found" or "not installed", when each type it catches is one that a missing program
    raises (`OSError`, `FileNotFoundError`); beside `CalledProcessError` it also hears the program
    failing for any reason of its own."""
    return cause.name in ("not-found", "not-installed") and bool(types) \
        and all(catches((name,), MISSING_PROGRAM) for name in types)

_CODE = re.compile(r"^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+$")  # a code-shaped word: `UPSTREAM_TIMEOUT`
_OS = frozenset("OSError IOError EnvironmentError socket.error RuntimeError".split())
_ROOT = re.compile(r"^(?:HTTP|Http|Request|Requests|Client|API|Api|Transport|Service)(?:Status|Response)?(?:Error|Exception)$")


def is_broad_family(types: tuple[str, ...]) -> bool:
    """A handler of exceptions every failure of an operation raises: a catch-all (no types,
    Exception, BaseException), OSError or RuntimeError, a client library's root error, or a
    command's non-zero exit (`CalledProcessError`)."""
    if not types:
        return True
    return any(name in ("Exception", "BaseException") or name in _OS or _ROOT.match(name.rpartition(".")[2])
               or name.rpartition(".")[2] == "CalledProcessError"
               for name in (t[len("builtins."):] if t.startswith("builtins.") else t for t in types))


def other_failures(types: tuple[str, ...]) -> str:
    """What else the broad family a handler catches holds beside the one cause it names, in a
    message's words: a catch-all hears our own bugs; `RuntimeError` is what our own code and its
    libraries raise for any state they refuse; the OS's error is any failure of a file, a pipe or a
    socket; a command's non-zero exit is any reason of the command's own; a client library's root
    error is any error of the request or of the service's answer."""
    names = [name[len("builtins."):] if name.startswith("builtins.") else name for name in types]
    if not names or any(name in ("Exception", "BaseException") for name in names):
        return "our own bug, a permission or parse error"
    if "RuntimeError" in names:
        return "any RuntimeError, our own code's among them"
    if any(name in _OS for name in names):
        return "a permission error, a full disk, a broken connection"
    if any(name.rpartition(".")[2] == "CalledProcessError" for name in names):
        return "the command failing for any reason of its own"
    return "a refused request, a server error, a reply that does not decode"


def asserted(raised: tuple[str, ...], texts: tuple[str, ...], written: tuple[str, ...]) -> Optional[tuple[Cause, str]]:
    """The first specific cause the handler asserts, and the words that assert it: a raised class
    named for it (`FileNotFoundError`), a value written for it (`status = "timeout"`), or prose."""
    for name in raised:
        for cause in CAUSES:
            if _has_run(segments(name), cause.words):
                return cause, name
    for value in written:
        for cause in CAUSES:
            if _has_run(segments(value), cause.words) or _says(cause, value):
                return cause, value
    for text in texts:
        if text in raised:
            continue
        for cause in CAUSES:
            # prose, or a code the handler records (`failures.append("UPSTREAM_TIMEOUT")`)
            if _says(cause, text) or _CODE.match(text) and _has_run(segments(text), cause.words):
                return cause, text
    return None


# Words that say only that something went wrong, whatever it was (the concept "a failure").
_ANY_FAILURE = re.compile(r"\b(?:fail\w*|errors?|invalid|broken|corrupt\w*|unreadable|inaccessible|"
                          r"not (?:working|valid|readable|accessible))\b", re.IGNORECASE)
# The clause before the cause, split at its last "or" ("Either the installation failed or this
# interpreter" | "is not available"), and the clause after it from its first "or".
_OR_BEFORE = re.compile(r"([^.;:!?]*)\bor\b[^.;:!?]*$", re.IGNORECASE)
_OR_AFTER = re.compile(r"[^.;:!?]*?\bor\b([^.;:!?]*)", re.IGNORECASE)


def _says(cause: Cause, text: str) -> bool:
    """Prose that asserts the cause, not as one alternative beside a failure of any kind: "Include
    file not found or reading it failed", "invalid or not found", "does not exist or it is not
    working properly", "Either the installation failed or this interpreter is not available" say
    that it may be that cause or anything else: the other side of an "or" in the same sentence
    says it failed. Two ways of saying the cause ("not installed or not recognized as a command")
    and two places ("not found locally or on the server") still assert it."""
    for found in cause.phrases.finditer(text):
        before = _OR_BEFORE.search(text[:found.start()])
        after = _OR_AFTER.match(text[found.end():])
        if not any(other is not None and _ANY_FAILURE.search(other.group(1)) for other in (before, after)):
            return True
    return False


def is_code(text: str) -> bool:
    """A code-shaped word (`UPSTREAM_TIMEOUT`, `not_found`), as a handler records it."""
    return bool(_CODE.match(text))


def is_the_cause(cause: Cause, types: tuple[str, ...]) -> bool:
    """Every type the handler catches is that cause (`except requests.Timeout` saying "timed out")."""
    return bool(types) and all(cause.family.search(t) for t in types)


def catches(types: tuple[str, ...], error: str) -> bool:
    """A handler of `types` catches an error of class `error` (last names): the same class, or a
    builtin subclass of a builtin it lists (`except OSError` catches `FileNotFoundError`; `IOError`
    is `OSError`). Python's own exception classes are read for that, never the checked code's."""
    raised = getattr(builtins, error, None)
    for name in types:
        short = name.rpartition(".")[2]
        caught = getattr(builtins, short, None)
        if short == error or isinstance(raised, type) and isinstance(caught, type) \
                and issubclass(caught, BaseException) and issubclass(raised, caught):
            return True
    return False


def _has_run(words: tuple[str, ...], runs: tuple[tuple[str, ...], ...]) -> bool:
    return any(words[i:i + len(run)] == run for run in runs for i in range(len(words) - len(run) + 1))
