"""Registries and sinks as real code writes them (issue 12): lowercase lists, plural keywords, tables
built from a registry, and the membership tests and vocabularies that must stay quiet."""

from __future__ import annotations

KNOWN = '''
    KNOWN_REASONS = ("wrong_answer", "parse_error", "timed_out")


    def grade(got, expected, failures):
        if got is None:
            failures.append("parse_error")
        elif got != expected:
            failures.append("wrong_answer")
    '''


def test_a_lowercase_registry_governs_the_failures_it_names(project):
    """`KNOWN_REASONS = ("wrong_answer", …)`: a failures list that records its words is judged by it,
    both for a missing word and for a slip of the keyboard."""
    project.write({"grader.py": KNOWN + '''

    def run(proc, failures):
        if proc.returncode:
            failures.append("runtime_error")
        elif proc.timed_out:
            failures.append("timed_uot")
    '''})
    assert project.findings() == [("grader.py", "FC001", 13), ("grader.py", "FC001", 15)]


def test_a_lowercase_registry_does_not_judge_keywords_that_share_a_word(project):
    """opik's hand-off outcome (`_Handoff(outcome="declined")`) shares plain words with the consent
    Enum of another module it imports; a keyword of another vocabulary is no failures list."""
    project.write({"pkg/consent.py": '''
        import enum


        class Reason(enum.Enum):
            DECLINED = "declined"
            NO_TERMINAL = "no_terminal"
            ASSUME_YES = "assume_yes"
        ''', "pkg/mcp.py": '''
        from pkg import consent


        class Handoff:
            def __init__(self, outcome):
                self.outcome = outcome


        def hand_off(interactive, accepted):
            if not interactive:
                return Handoff(outcome="no_terminal")
            return Handoff(outcome="launch" if accepted else "declined")
        '''})
    assert project.findings() == []


def test_a_plural_keyword_records_each_code_of_its_list(project):
    project.write({"judge.py": '''
        FAILURE_CODES = ("READ_FAILED", "ANSWER_MISMATCH")


        class Result:
            pass


        def judge(text, expected):
            if text is None:
                return Result(failure_codes=["READ_FAILED"])
            return Result(failure_codes=["ANSWER_MISMATCH", "TIME_OUT"])
        '''})
    assert project.findings() == [("judge.py", "FC001", 11)]


TALLY = '''
    FAILURE_CODES = ("READ_FAILED", "ANSWER_MISMATCH")


    def tally(reasons):
        counts = {code: 0 for code in FAILURE_CODES}
        for r in reasons:
            if r in counts:
                counts[r] += 1
        return counts


    def tally_keys(reasons):
        counts = dict.fromkeys(FAILURE_CODES, 0)
        for r in reasons:
            if r in counts:
                counts[r] += 1
        return counts
    '''


def test_a_count_table_built_from_the_registry_filters_by_it(project):
    """`counts = {c: 0 for c in FAILURE_CODES}` … `if r in counts: counts[r] += 1`: a reason the
    registry lacks is never counted, and nothing says so."""
    project.write({"tally.py": TALLY})
    assert project.findings() == [("tally.py", "FC004", 6), ("tally.py", "FC004", 14)]


def test_a_count_table_that_keeps_unknown_reasons_is_quiet(project):
    """Control: the same tables with an else-path for the reasons they do not know."""
    kept = "counts[r] += 1\n            else:\n                counts[r] = counts.get(r, 0) + 1"
    project.write({"tally.py": TALLY.replace("counts[r] += 1", kept)})
    assert project.findings() == []


def test_membership_tests_that_select_nothing_stay_quiet(project):
    """Issue 12's false alarms: a guard that raises on a known code, and totals (counting active
    jobs) that keep no codes; the list beside them is the control that is still a filter."""
    project.write({"jobs.py": '''
        FATAL_ERRORS = ("OOM_KILLED", "DISK_FULL")
        RUNNING_STATES = ("QUEUED_JOB", "RUNNING_JOB")


        def guard(error):
            if error in FATAL_ERRORS:
                raise SystemExit(error)


        def active(jobs):
            return sum(1 for j in jobs if j.status in RUNNING_STATES)


        def how_many(jobs):
            return len([j for j in jobs if j.status in RUNNING_STATES])


        def running(jobs):
            return [j.status for j in jobs if j.status in RUNNING_STATES]
        '''})
    assert project.findings() == [("jobs.py", "FC004", 19)]


def test_selections_of_a_vocabulary_are_not_stale_copies(project):
    """litellm (held out): `_TERMINAL_STATUSES` picks two statuses of a `Literal`, and a dict of
    lowercase keys translates a provider's words; neither is a copy of the vocabulary."""
    project.write({"vocab.py": '''
        from typing import Literal

        Status = Literal["queued", "in_progress", "completed", "failed"]
        FinishReason = Literal["stop", "length", "tool_calls", "content_filter", "error"]
        ''', "poll.py": '''
        from vocab import Status

        _TERMINAL_STATUSES = ("completed", "failed")
        _FINISH_REASON_MAP = {"stop": "stop", "length": "length", "tool_calls": "tool_calls"}


        def done(status: Status) -> bool:
            return status in _TERMINAL_STATUSES
        '''})
    assert project.findings() == []


STALE_COPY = '''
    FAILURE_CODES = ("READ_FAILED", "PARSE_FAILED", "ANSWER_MISMATCH")
    REPORTED_FAILURES = ("READ_FAILED", "PARSE_FAILED")


    def grade(failures, tests):
        if tests.unreadable:
            failures.add("READ_FAILED")


    def report(failures):
        return sorted(failures, key=REPORTED_FAILURES.index)
    '''


def test_a_stale_copy_the_code_looks_codes_up_in_is_reported(project):
    """A list of code-shaped strings holding part of another, which the report sorts failures by
    (`key=REPORTED_FAILURES.index`): used as the whole vocabulary, it fails on the day
    `ANSWER_MISMATCH` is first recorded. Reported at its definition; so is `REPORTED_FAILURES.index(code)`."""
    project.write({"a.py": STALE_COPY})
    assert project.findings() == [("a.py", "FC005", 2)]
    called = STALE_COPY.replace("sorted(failures, key=REPORTED_FAILURES.index)",
                                "[REPORTED_FAILURES.index(code) for code in failures]")
    assert called != STALE_COPY
    project.write({"a.py": called})
    assert project.findings() == [("a.py", "FC005", 2)]


def test_a_partial_copy_used_as_a_selection_is_quiet(project):
    """together's post-training clients (session 37's sweep, judged false): `_TERMINAL_STATUSES`
    holds the statuses a polling loop stops on, a part of the status type's on purpose, and nothing
    looks a code up in it by its place. Compared with the type it would lack every status the loop
    waits through. Control: the same list with the report's lookup is reported (above)."""
    selection = STALE_COPY.replace("""    def report(failures):
        return sorted(failures, key=REPORTED_FAILURES.index)""", """    def is_reported(code):
        return code in REPORTED_FAILURES""")
    assert selection != STALE_COPY
    project.write({"a.py": selection})
    assert project.findings() == []


def test_registries_that_hold_part_of_anothers_are_selections(project):
    """streamlit's `TTLCacheEvictionReason` lists the eviction reasons that one cache can give, a
    part of the metrics' `EvictionReason` (judged false when reported, session 33's second sweep).
    Since session 37 a partial copy is compared only where a code is looked up in it by its place,
    which subsumes the qualifying-name policy: `TTLCacheEvictionReason` and the numbered
    `FailureReason2` (that policy's control, reported before) are both selections nothing looks up."""
    project.write({"pkg/__init__.py": "", "pkg/metrics.py": '''
        from typing import Literal

        EvictionReason = Literal["ttl", "max_entries", "max_size", "global_budget", "validate"]
        ''', "pkg/ttl_cache.py": '''
        from typing import Literal

        TTLCacheEvictionReason = Literal["ttl", "max_entries", "max_size"]
        ''', "pkg/reasons.py": '''
        import enum

        FailureReason = ("a_failed", "b_failed", "c_failed")


        class FailureReason2(enum.Enum):
            A = "a_failed"
            B = "b_failed"
        '''})
    assert project.findings() == []


def test_a_lowercase_selection_sharing_a_channel_is_not_a_stale_copy(project):
    """litellm (held out): `OPENAI_FINISH_REASONS` lists OpenAI's finish reasons, the `Literal` every
    provider's; both describe `finish_reason=`, and the list is a selection, not a copy."""
    project.write({"pkg/__init__.py": "", "pkg/constants.py": '''
        OPENAI_FINISH_REASONS = ["stop", "length", "tool_calls", "content_filter"]
        ''', "pkg/types.py": '''
        from typing import Literal

        FinishReason = Literal["stop", "length", "tool_calls", "content_filter", "guardrail_intervened", "eos"]
        ''', "pkg/openai.py": '''
        from pkg.constants import OPENAI_FINISH_REASONS


        def finish(done, filtered):
            if filtered:
                finish_reason = "content_filter"
            elif done:
                finish_reason = "stop"
            else:
                finish_reason = "length"
            return finish_reason
        ''', "pkg/bedrock.py": '''
        from pkg.types import FinishReason


        def finish(stopped, blocked):
            if blocked:
                finish_reason = "guardrail_intervened"
            elif stopped:
                finish_reason = "stop"
            else:
                finish_reason = "eos"
            return finish_reason
        '''})
    assert project.findings() == []


def test_a_registry_of_module_constants(project):
    """`FAILURE_CODES = (PARSE_FAILED, ANSWER_MISMATCH)`, each a module constant: the registry holds
    their values, and a slip beside it is reported. Control: a collection of names that are not
    string constants is no registry."""
    project.write({"codes.py": '''
        PARSE_FAILED = "PARSE_FAILED"
        ANSWER_MISMATCH = "ANSWER_MISMATCH"
        FAILURE_CODES = (PARSE_FAILED, ANSWER_MISMATCH)
        HANDLERS = (print, repr)
        ERROR_CODES = (print, repr)


        def grade(answer, expected, failures):
            if answer != expected:
                failures.add("ANSWER_MISMATHC")
        '''})
    assert project.findings() == [("codes.py", "FC001", 10)]
    listed = project.run("registry", ".").stdout
    assert "FAILURE_CODES" in listed and "PARSE_FAILED, ANSWER_MISMATCH" in listed
    assert "ERROR_CODES" not in listed


ERRORS = '''
    GENERATION_ERROR_TYPE = "generation_error"
    DOWNSTREAM_ERROR_TYPE = "downstream_error"
    GUARDRAILS_VIOLATION_TYPE = "guardrails_violation"

    STREAM_ERROR_TYPES = frozenset({GENERATION_ERROR_TYPE, DOWNSTREAM_ERROR_TYPE, GUARDRAILS_VIOLATION_TYPE})


    class StreamError(Exception):
        pass


    def build_error_payload(status):
        error_type = "downstream_error" if status else "generation_error"
        return {"error": {"type": error_type, "code": status}}


    def redact(text):
        return text.replace("sk-", "***")
    '''


def test_an_error_frame_type_missing_from_the_registry_of_its_producer(project):
    """nemoguardrails' output rails: the module imports the registry module's own frame builder, so
    it speaks STREAM_ERROR_TYPES; its error frames (`error_type = …`, `{"error": {"type": …}}`)
    record "guardrails_violation" and also an "internal_error" the registry does not declare."""
    project.write({"pkg/_errors.py": ERRORS, "pkg/rails.py": '''
        import json

        from pkg._errors import build_error_payload


        async def run_parallel(events, flow_id):
            for event in events:
                if event.get("error_type") == "internal_error":
                    error_type = "internal_error"
                else:
                    error_type = "guardrails_violation"
                yield json.dumps({"error": {"message": "stopped", "type": error_type, "param": flow_id}})


        async def run_sequential(actions, flow_id):
            for action in actions:
                status = await action.run()
                if status != "success":
                    frame = {"error": {"message": f"rail {flow_id} failed", "type": "internal_error"}}
                    yield json.dumps(frame)
                    return
                if action.blocked:
                    yield json.dumps({"error": {"message": "blocked", "type": "guardrails_violation"}})
                    return
        '''})
    assert project.findings() == [("pkg/rails.py", "FC001", 9), ("pkg/rails.py", "FC001", 19)]


def test_importing_a_class_or_a_plain_helper_brings_no_registry(project):
    """Controls: the same frames in modules that import the registry module's exception class, or a
    helper of it that records no code, are judged by no registry; a module that builds its own
    frames and, in another function, OpenAI's (`error_type="invalid_request_error"`) speaks two
    vocabularies; a `type` key outside an error frame is no error type."""
    project.write({"pkg/_errors.py": ERRORS, "pkg/by_class.py": '''
        from pkg._errors import StreamError


        def frame(failed):
            if failed:
                return {"error": {"type": "internal_error"}}
            return {"error": {"type": "guardrails_violation"}}
        ''', "pkg/by_helper.py": '''
        from pkg._errors import redact


        def frame(failed, text):
            if failed:
                return {"error": {"type": "internal_error", "message": redact(text)}}
            return {"error": {"type": "guardrails_violation"}}
        ''', "pkg/realtime.py": '''
        from pkg._errors import build_error_payload


        def unhandled(exc):
            return {"error": {"type": "generation_error", "message": str(exc)}}


        async def reject(websocket, message):
            await websocket.send(error_event(message, error_type="invalid_request_error"))
        ''', "pkg/events.py": '''
        from pkg._errors import build_error_payload


        def event(kind):
            if kind:
                return {"event": {"type": "internal_error"}}
            return {"event": {"type": "guardrails_violation"}}
        '''})
    assert project.findings() == []


def test_a_lookup_in_another_module_makes_the_copy_the_whole_vocabulary(project):
    """The lookup may be the only fact of its module (`report.py` records nothing and filters
    nothing): the pre-screen keeps such a module for the extractor, and the import names the list,
    so `FAILURE_ORDER` is reported at its definition in `codes.py`. Without the lookup, quiet."""
    files = {"codes.py": '''
        FAILURE_CODES = ("READ_FAILED", "PARSE_FAILED", "ANSWER_MISMATCH")
        FAILURE_ORDER = ("READ_FAILED", "PARSE_FAILED")
        ''', "report.py": '''
        from codes import FAILURE_ORDER


        def worst_first(failures):
            return sorted(failures, key=FAILURE_ORDER.index)
        '''}
    project.write(files)
    assert project.findings() == [("codes.py", "FC005", 2)]
    project.write({"report.py": files["report.py"].replace("key=FAILURE_ORDER.index", "reverse=True")})
    assert project.findings() == []
