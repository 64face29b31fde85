"""FC003 fallback-reuses-outcome: an except path records what the genuine path records."""

from __future__ import annotations

from typing import Iterator

from failcode.facts.vocabulary import fails_open, is_verdict_function
from failcode.model import ANY_NUMBER, ANY_STATUS, FileFacts, Finding, Write
from failcode.names import FAILURE_WORDS, is_predicate_name, says_success, segments
from failcode.project import Project

CODE = "FC003"
NAME = "fallback-reuses-outcome"
SUMMARY = "An except path records the same outcome as the genuine path"
DEFAULT = True
SCOPE = "file"

# How sure a fallback's finding is (`high`: proven by the code's shape and flow; `medium`: inferred).
# A catch-all's value is proven to stand in for every failure of its try, our own bugs and the
# service's among them. A narrower handler's (`except KeyError:`, `except ValueError:`) stands in for
# the failures that raise that exception, and which statement of the try raises it, the harness's or
# the candidate's, is inferred; so is whether a value that is missing (no match, no key, no branch
# taken, an empty input) is a failure at all or the genuine "no" of what was searched. The same holds
# for a default the handler leaves standing, or a placeholder where a reply goes.
_MISSING = frozenset({"no-match", "no-reference", "default", "dispatch", "none-left"})
# What a finding asks for, by the fallback's kind: a record that says its check was skipped while
# its verdict says it passed (facts/outcomes/channels.py, `_says_not_run`) needs the skip marked
_REMEDY = {
    "": "a failure reads as that verdict; record a distinct value (None, an error status) or re-raise",
    "skipped": "a check that did not run reads as a pass; leave the verdict empty or mark the result skipped",
}


def check(facts: FileFacts, project: Project) -> Iterator[Finding]:
    reported: set[int] = set()
    for finding in _site_fallbacks(facts, project):
        reported.add(finding.pos.line)
        yield finding
    for finding in _fallback_writes(facts, project, reported):
        reported.add(finding.pos.line)
        yield finding
    for finding in _record_fallbacks(facts, project, reported):
        reported.add(finding.pos.line)
        yield finding
    yield from _error_as_reply(facts, project, reported)


def _site_fallbacks(facts: FileFacts, project: Project) -> Iterator[Finding]:
    # a handler that re-raises records nothing final; one that inspects what it caught and sorts it
    # (`if is_outage(exc): return retry_later(…)`) keeps its last value as a deliberate policy, and
    # one that stores it on a record (`action.result = str(e)`) reports the failure there
    reraising = {h.id for t in facts.tries for h in t.handlers if h.reraises or h.narrows or h.keeps}
    try_line = {h.id: t.pos.line for t in facts.tries for h in t.handlers}
    # `except KeyError:` around one statement, or `except FileNotFoundError:` around any: the
    # exception is the signal for the outcome the handler records
    signalled = {h.id for t in facts.tries for h in t.handlers
                 if t.body_statements == 1 and not h.unspecific or h.signals}
    narrow = {h.id for t in facts.tries for h in t.handlers if not h.catches_all}  # its code is inferred: `medium`
    caught = {h.id: h.types for t in facts.tries for h in t.handlers if not h.catches_all}
    genuine: dict[tuple, list[int]] = {}
    returned: dict[str, set[str]] = {}  # function → distinct string literals it returns
    decided: set[tuple] = set()  # (function, destination, value, test and arm) the genuine path decides
    for site in facts.sites:
        value = project.resolve(site).code
        if site.kind == "return" and value:
            returned.setdefault(site.function, set()).add(value)
        if not site.in_handler and site.kind != "raise" and value:
            genuine.setdefault((site.function, site.kind, site.dest, value, site.extra), []).append(site.pos.line)
            if site.decision:
                decided.add((site.function, site.dest, value, site.decision))
    for site in facts.sites:
        if site.context != "handler" or site.handler in reraising or site.kind == "raise":
            continue
        value = project.resolve(site).code
        if not value:
            continue  # an empty string is a default, not an outcome
        if site.decision and (site.function, site.dest, value, site.decision) in decided:
            # `"stopped" if task.stop_event.is_set() else "failed"`, where the genuine path writes
            # "stopped" under the same test: the handler asks the genuine path's question and gives
            # its answer, a decision on the same facts, not a fallback standing in for it
            continue
        if site.handler in signalled or project.is_failure_status(value, site.function) \
                or _names_the_code(caught.get(site.handler, ()), value):
            continue  # `return "unhealthy"` from a failed probe is the honest outcome, not a verdict
        if site.handler in narrow and says_success(value):
            # `except (TypeError, ValueError): return {"status": "SUCCESS", "results": str(results)}`
            # around `json.dumps(results)`: a narrow handler that records success tolerates what it caught
            continue
        if not project.says_outcome(site, value):
            continue  # `return "utf-8"` when the probe failed: a default choice, not how the work went
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
                value, "medium" if site.handler in narrow else "high",
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
                value, "medium" if site.handler in narrow else "high",
            )


def _fallback_writes(facts: FileFacts, project: Project, reported: set[int]) -> Iterator[Finding]:
    """A fallback writes a value its channel also carries as a verdict (facts/outcomes/): `return
    compare(got, expected)` … `except Exception: return False`, `int(m.group(1)) if m else 0` in a
    judge parser, `if r.status_code != 200: return False` before `return score >= threshold`.
    Counted, the crash, the unparseable reply or the unreachable service is a wrong answer or a pass.
    A guard's verdict that lets content through (`blocked=False`, `RailOutcome.allow()`) is a pass
    by its name, with or without a genuine write beside it. A command's exit status (`return
    proc.returncode, out`) is any whole number, so a handler that can catch our own bugs (a
    catch-all, `TypeError`…) and returns `1` makes the harness's crash the command's failure; one
    that catches only the OS refusing to start it (`except OSError: return 1`) says the command
    did not run, as a non-zero status does.

    A handler stands in for the returns of its try body, and for those after the try in the same
    block unless the try guards one statement. A handler that also records an outcome
    (`failures.add("COMPARE_FAILED")`) has said what happened; its sites are judged on their own.
    """
    verdicts: dict[tuple[str, str], list[Write]] = {}
    for write in facts.writes:
        if write.role == "verdict":
            verdicts.setdefault((write.function, write.channel), []).append(write)
    said: set[tuple[str, int]] = set()
    for fallback in facts.writes:
        if fallback.role != "fallback" or fallback.pos.line in reported or fallback.kind == "error-text":
            continue
        if fallback.kind == "unread-status":
            yield _judged_by_output(facts, fallback)
            continue
        value = fallback.values[0]
        if fallback.recorded_beside(facts, project.is_code) or _fails_closed(fallback):
            continue
        # an empty or error text is no verdict, but in place of a reply it is taken for one
        answers = not project.says_no_answer(value, fallback.function)
        genuine = next((g for g in verdicts.get((fallback.function, fallback.channel), ())
                        if fallback.region_start < g.pos.line <= fallback.region_end
                        and (fallback.kind != "dispatch" or g.kind == "decided")
                        and (answers and (value in g.values or value == "0.0" and ANY_NUMBER in g.values
                                          or ANY_STATUS in g.values and _integer(value) and fallback.kind == "except")
                             or g.kind == "reply" and value not in ("None", "nan") and (answers or not fallback.kept))),
                       None)
        key = (fallback.function, fallback.trigger)  # one finding per fallback path
        guard = genuine is None and answers and fails_open(fallback) and not _failure_record(fallback.channel)
        if genuine is None and not guard or key in said:
            continue
        said.add(key)
        if guard:  # a guard's verdict is both answers of its channel: letting through is what a pass writes
            message = (f"{fallback.why}: {fallback.action}, the verdict a genuine pass records — a check that "
                       f"did not run lets the content through; block, re-raise, or mark the result unchecked")
        elif genuine.kind == "reply":
            message = (f"{fallback.why}: {fallback.action} where line {genuine.pos.line} {genuine.why} — "
                       f"a failure reads as a real answer; return None or raise")
        else:
            message = (f"{fallback.why}: {fallback.action}, the verdict line {genuine.pos.line} records {genuine.why} — "
                       + _REMEDY.get(fallback.kind, _REMEDY[""]))
        inferred = fallback.kept or genuine is not None and genuine.kind == "reply" \
            or fallback.kind in _MISSING or fallback.kind in ("except", "narrow-except") and not fallback.catch_all
        yield Finding(facts.path, fallback.pos, CODE, message, None, "medium" if inferred else "high")


def _record_fallbacks(facts: FileFacts, project: Project, reported: set[int]) -> Iterator[Finding]:
    """A handler builds a record with a constant in a field that our code elsewhere fills with a
    verdict, computed or chosen by a compare (facts/outcomes/fields.py): `except Exception: return MetricResult(score=0.0,
    passed=False, reason=f"error: {e}")` where the try returns `self._measure_with_judge(case)`,
    which builds `MetricResult(passed=score >= self.threshold, reason=…)`. Whoever counts the
    record's verdict counts the crashed judge as a "no". The verdict is another function's, so
    which failures reach the handler is inferred: `medium`."""
    paths: dict[tuple[str, int], list[tuple[Write, str, Write]]] = {}  # one finding per fallback path
    answered = {(write.function, write.trigger) for write in facts.writes if write.pos.line in reported}
    for fallback in facts.records:
        if fallback.role != "fallback" or (fallback.function, fallback.trigger) in answered \
                or fallback.recorded_beside(facts, project.is_code) or _fails_closed(fallback) \
                or project.summaries.sorts_by_failure(fallback):
            continue
        found = project.summaries.record_verdict(fallback, facts.path)
        if found is not None:
            paths.setdefault((fallback.function, fallback.trigger), []).append((fallback, *found))
    for candidates in paths.values():
        # the field whose verdict this file decides says most to its reader
        fallback, path, genuine = min(candidates, key=lambda found: found[1] != facts.path)
        where = f"line {genuine.pos.line}" if path == facts.path else f"{genuine.function} ({path}:{genuine.pos.line})"
        yield Finding(facts.path, fallback.pos, CODE,
                      f"{fallback.why}: {fallback.action}, a field that {where} fills {genuine.why} — "
                      + _REMEDY.get(fallback.kind, _REMEDY[""]), None, "medium")


def _error_as_reply(facts: FileFacts, project: Project, reported: set[int]) -> Iterator[Finding]:
    """A broad handler returns an error message where its try returns what a model or service
    replied (facts/outcomes/replies.py): `return completion.choices[0].message.content` …
    `except Exception as e: return f"An error occurred: {e}"`. Whoever takes the answer (a game
    playing it as the player's move, a grader scoring it, a generator storing it as data) takes
    the failure for output. The reply may come through our own function: a method of the class
    (`out = self._make_request(obs)`) when this file's definition of it returns a reply it read,
    another function (`out = ask(obs)`) when every definition of that name in the project does
    (`Summaries.returns_reply`)."""
    replies = {(write.function, write.trigger): write for write in facts.writes
               if write.kind in ("reply-read", "relay")}
    for fallback in facts.writes:
        if fallback.kind != "error-text" or fallback.pos.line in reported:
            continue
        genuine = replies.get((fallback.function, fallback.trigger))
        if genuine is None or genuine.kind == "relay" and not (
                genuine.source in facts.replies if "." in genuine.source else project.summaries.returns_reply(genuine.source)):
            continue
        how = "which reads a model's or service's reply" if genuine.kind == "relay" else "read from a model's or service's reply"
        yield Finding(facts.path, fallback.pos, CODE,
                      f"{fallback.why}: {fallback.action} where line {genuine.pos.line} {genuine.why} ({how}) — "
                      f"the error message stands in for the answer, and whoever takes the answer (a grader, a "
                      f"game, a dataset) takes the failure for output; return None or raise",
                      None, "medium")


def _judged_by_output(facts: FileFacts, test: Write) -> Finding:
    """A command whose exit status nothing reads, judged by whether it wrote to stderr, or by our own
    function that decides a verdict from what it printed (facts/outcomes/commands.py): its failure
    without a word there takes the arm, or gets the verdict, its success does. A result of another
    call (`c = cmd.run(…)`) is asked nothing but its output: its exit status is what to ask."""
    if test.values[0] == "verdict":
        return Finding(facts.path, test.pos, CODE,
                       f"`{test.text}` decides a verdict from what {test.channel} at line {test.region_start} "
                       f"printed, and its exit status is never read: a tool that failed (a crash, an option it does "
                       f"not know, a missing program) is judged by whatever it printed, nothing among it — check its "
                       f"returncode first, or run it with check=True", None, "high")
    unread, fix = ("nothing else of what it returned is read", "decide by the exit status it returns") \
        if test.values[0] == "result" else ("its exit status is never read", "decide by its returncode, or run it "
                                            "with check=True")
    return Finding(facts.path, test.pos, CODE,
                   f"`{test.text}` decides how {test.channel} at line {test.region_start} ended by whether the "
                   f"command wrote to stderr, and {unread}: a command that fails without a word there (or succeeds "
                   f"with warnings) is misreported — {fix}", None, "high")


_ERROR_WORDS = frozenset({"error", "exception"})  # what every exception's name says: no code's own word


def _names_the_code(types: tuple[str, ...], value: str) -> bool:
    """`except CrosshairUnsupported: return SkipReason.UNSUPPORTED`, `except TimeoutError: status =
    "timeout"`: a handler narrower than a catch-all whose exception is named for the code it records
    (every word of the code, less "error", is a word of the class's name) records what happened,
    whatever the try's size. A permission error recorded as "missing" is not so named."""
    words = set(segments(value)) - _ERROR_WORDS
    return bool(words) and any(words <= set(segments(name.rpartition(".")[2])) for name in types)


def _fails_closed(fallback: Write) -> bool:
    """A predicate that does not judge (`is_dense_contiguous`, `are_block_parameters_compatible`,
    not `is_correct`) answers False when its check raises or has nothing to check against
    (`_is_usable_store_entry(path, expected_size)` with no size known): the machinery failing
    closed, "cannot tell, so no", not a verdict on something checked."""
    name = fallback.function.rpartition(".")[2]
    return fallback.kind in ("except", "narrow-except", "no-reference") and fallback.values[0] == "0.0" and is_predicate_name(name) \
        and not is_verdict_function(name) and not fails_open(fallback)


def _failure_record(channel: str) -> bool:
    """`_fail(safe_to_restore=)`, `error_result(allowed=)`: a keyword of a call named for failure
    describes the failure the handler records, as a failure code recorded beside the fallback does
    (`Write.recorded_beside`); what it lets through is not let through unnoticed."""
    call, paren, _ = channel.partition("(")
    return bool(paren) and not FAILURE_WORDS.isdisjoint(segments(call.rpartition(".")[2]))


def _integer(value: str) -> bool:
    """A constant's key that is a whole number not below zero (`1.0` of `1`): an exit status a
    command could give of itself. A negative one (`-1`) is none (a process exits with 0 to 255;
    Popen says a signal that way): a handler writes it as the sentinel for "did not run"."""
    try:
        return float(value).is_integer() and float(value) >= 0
    except ValueError:
        return False
