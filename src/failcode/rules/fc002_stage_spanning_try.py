"""FC002 stage-spanning-try: one try covers several stages and its handlers name one code for all."""

from __future__ import annotations

from typing import Iterator

from failcode.facts.vocabulary import fails_open
from failcode.model import FileFacts, Finding
from failcode.names import listed
from failcode.project import Project

CODE = "FC002"
NAME = "stage-spanning-try"
SUMMARY = "One try spans read/execute/validate/compare stages but records a single code for all of them"
DEFAULT = True
SCOPE = "file"
# Stages are told by the names of the calls (`parse_*` reads, `compare*` compares): that a try runs
# two of them, and so that one code covers two failures, is inferred, never proven by the code
CONFIDENCE = "medium"


def _message(stages, recorded: str, unit: str) -> str:
    both = "both" if len(stages) == 2 else "all of them"
    if any(s.stage == "run" for s in stages):  # not two stages: one call on the candidate's data, one on other data
        calls = listed([f"{s.name} (line {s.line})" for s in stages])
        return (f"try runs {calls}, on the candidate's data and on data it did not give; {recorded} for {both} — "
                f"a failure on the reference reads as the answer's; split the try so each gets its own {unit}")
    return f"try spans {_stages_text(stages)}; {recorded} for {both} — split the try so each stage gets its own {unit}"


def _stages_text(stages) -> str:
    return listed([f"{s.stage} ({s.name}, line {s.line})" for s in stages])


def check(facts: FileFacts, project: Project) -> Iterator[Finding]:
    reported: set[int] = set()
    for finding in _recorded_codes(facts, project):
        reported.add(finding.pos.line)
        yield finding
    yield from _fallback_values(facts, project, reported)


def _fallback_values(facts: FileFacts, project: Project, reported: set[int]) -> Iterator[Finding]:
    """A broad or unspecific handler writes one verdict-channel value for a try whose separate
    statements run two or more stages (facts/outcomes/): `parse(gold)`, `parse(prediction)`,
    `verify(…)` … `except Exception: return 0.0` cannot say whether the reference, the answer or the
    checker failed."""
    seen = set(reported)  # a try whose handler records a code is reported once, for that code
    for write in facts.writes:
        if write.role != "fallback" or write.kind != "except" or write.attempt is None \
                or len(write.stages) < 2 or write.attempt.line in seen or write.recorded_beside(facts, project.is_code) \
                or project.says_no_answer(write.values[0], write.function) \
                or fails_open(write):  # a guard failing open is FC003's
            continue
        seen.add(write.attempt.line)
        yield Finding(facts.path, write.attempt, CODE,
                      _message(write.stages, f"{write.why} {write.action}", "outcome"), None, CONFIDENCE)


def _recorded_codes(facts: FileFacts, project: Project) -> Iterator[Finding]:
    for try_block in facts.tries:
        # stages met on one line are one expression (`validate(json.loads(s))`): one step, whose
        # failure one code describes
        if len({stage.line for stage in try_block.stages}) < 2 or not any(h.unspecific for h in try_block.handlers):
            continue
        recorded = {}
        for handler in try_block.handlers:
            if handler.reraises or not handler.unspecific:
                continue  # `except ModifyResponseException:` records what that exception means
            codes = {code for _, code in project.handler_codes(facts, handler)}
            if codes:
                recorded[handler.id] = codes
        codes = set().union(*recorded.values()) if recorded else set()
        if len(codes) != 1:
            continue
        code = codes.pop()
        if project.is_failure_status(code, try_block.function):
            continue  # `ERROR` for every stage names none, nor a verdict: it says the check did not finish
        whose = "its handler records" if len(recorded) == 1 else "its handlers record"
        yield Finding(facts.path, try_block.pos, CODE, _message(try_block.stages, f"{whose} {code}", "code"), code,
                      CONFIDENCE)
