"""FC003 fallback-reuses-outcome: an except path records what the genuine path records."""

from __future__ import annotations

from typing import Iterator, Optional

from failcode.model import FileFacts, Finding, Return, TryBlock
from failcode.project import Project

CODE = "FC003"
NAME = "fallback-reuses-outcome"
SUMMARY = "An except path records the same outcome as the genuine path"
DEFAULT = True
SCOPE = "file"


def check(facts: FileFacts, project: Project) -> Iterator[Finding]:
    yield from _verdict_returns(facts)
    reraising = {h.id for t in facts.tries for h in t.handlers if h.reraises}
    try_line = {h.id: t.pos.line for t in facts.tries for h in t.handlers}
    # `except FileNotFoundError:` around one statement: the exception is the signal for its outcome
    signalled = {h.id for t in facts.tries for h in t.handlers if t.body_statements == 1 and not h.unspecific}
    genuine: dict[tuple, list[int]] = {}
    returned: dict[str, set[str]] = {}  # function → distinct string literals it returns
    for site in facts.sites:
        value = project.resolve(site).code
        if site.kind == "return" and value:
            returned.setdefault(site.function, set()).add(value)
        if not site.in_handler and site.kind != "raise" and value:
            genuine.setdefault((site.function, site.kind, site.dest, value, site.extra), []).append(site.pos.line)
    for site in facts.sites:
        if site.context != "handler" or site.handler in reraising or site.kind == "raise":
            continue
        value = project.resolve(site).code
        if not value:
            continue  # an empty string is a default, not an outcome
        if site.handler in signalled or project.is_failure_status(value):
            continue  # `return "unhealthy"` from a failed probe is the honest outcome, not a verdict
        if site.kind == "return" and not project.is_code(site) and len(returned.get(site.function, ())) < 2:
            continue  # one plain string returned on every path is a default; verdicts come in kinds
        # Only the try body and what follows the try are the outcome the handler stands in for; a
        # recording before the try is a default (`reason = "X"`) or a different, earlier check.
        lines = [line for line in genuine.get((site.function, site.kind, site.dest, value, site.extra), [])
                 if line > try_line.get(site.handler, 0)]
        if lines:
            line = lines[0]
            yield Finding(
                facts.path, site.pos, CODE,
                f"except path records {value!r} to {site.dest}, the outcome the genuine path records "
                f"at line {line} — a fallback counted as an outcome; record a distinct code",
                value,
            )
            continue
        if site.kind != "assign" or site.value is None:
            continue
        test = next((t for t in facts.tests if t.function == site.function and t.target == site.dest
                     and site.value in t.values and t.pos.line > site.pos.line), None)
        if test is not None:
            yield Finding(
                facts.path, site.pos, CODE,
                f"except path sets {site.dest} = {site.value!r}, which line {test.pos.line} tests as a "
                f"genuine outcome — the fallback feeds that outcome's counter; use a distinct value",
                value,
            )


def _verdict_returns(facts: FileFacts) -> Iterator[Finding]:
    """A handler returns a bool or number that the function also returns as a verdict: `return
    compare(got, expected)` … `except Exception: return False`. Counted, the crash is a wrong answer.

    Only handlers that do not say what failed count: a catch-all, or an exception any stage can
    raise around more than one statement. `try: float(s) … except ValueError: return False` is a
    one-stage predicate: there the exception is the answer. A handler that also records an outcome
    (`failures.add("COMPARE_FAILED")`) has said what happened; the sites are judged on their own.
    """
    owners = {h.id: (t, h) for t in facts.tries for h in t.handlers}
    recording = {site.handler for site in facts.sites}
    for fallback in facts.returns:
        owner = owners.get(fallback.handler) if fallback.handler is not None else None
        if owner is None or fallback.value is None or fallback.handler in recording:
            continue
        try_block, handler = owner
        if handler.reraises or not (handler.catches_all or handler.unspecific and try_block.body_statements > 1):
            continue
        genuine = _genuine(facts, fallback, try_block)
        if genuine is None:
            continue
        why = f"`{genuine.verdict}` decides it" if genuine.verdict else f"`{genuine.decided}` holds"
        caught = f"except {', '.join(handler.types)}" if handler.types else "bare except"
        yield Finding(
            facts.path, fallback.pos, CODE,
            f"{caught} returns {fallback.text}, a verdict this function returns at line {genuine.pos.line} "
            f"when {why} — a crash reads as that verdict; return a distinct value (None, an error status) "
            f"or re-raise",
            None,
        )


def _genuine(facts: FileFacts, fallback: Return, try_block: TryBlock) -> Optional[Return]:
    """The first return the handler stands in for that can be the fallback's value as a verdict: a
    computed verdict (a bool: 0 or 1), or the same constant returned in a branch a compare decides.

    It stands in for the returns of the try body, and for those after the try in the same block
    unless the try guards one statement: `try: a = asarray(a) except Exception: return False`
    before the compare is a predicate's answer for inputs it cannot compare.
    """
    last = try_block.block_end if try_block.body_statements > 1 else try_block.body_end
    for other in facts.returns:
        if other.function != fallback.function or other.handler is not None \
                or not try_block.pos.line < other.pos.line <= last:
            continue
        if other.verdict is not None and fallback.value in (0.0, 1.0):
            return other
        if other.value == fallback.value and other.decided is not None:
            return other
    return None
