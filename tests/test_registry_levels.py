"""FC005 compares registries about the same thing only (issue 12): a list of the same name, one it is
a partial copy of, or one tied to the same channel. Two vocabularies that share some words and type
different fields are two levels, not a copy gone stale."""

from __future__ import annotations

import pytest


LEVELS = '''
    from typing import Literal, TypeAlias

    StopReason: TypeAlias = Literal["exhausted", "target_reached", "budget_exhausted", "batch_cap_reached", "aborted"]
    RunOutcome: TypeAlias = Literal["completed", "budget_exhausted", "batch_cap_reached", "skipped_locked", "aborted"]


    class StepState:
        stop_reason: StopReason


    def run_outcome(state: StepState) -> RunOutcome:
        return "completed" if state.stop_reason == "target_reached" else "aborted"
    '''


def test_two_levels_that_share_words_stay_quiet(project):
    """litellm's spend-log cleanup: a step's StopReason and the run's RunOutcome."""
    project.write({"cleanup.py": LEVELS})
    assert project.findings() == []


def test_a_partial_copy_nothing_looks_up_is_judged_by_its_own_records(project):
    """The same file with RunOutcome cut down to a part of StopReason's codes: a type nothing looks a
    code up in by its place is no copy of the other (FC005 compares a partial copy only where it is
    used as the whole vocabulary, `ORDER.index(code)`; on the corpus every other partial copy it
    reported was a deliberate selection). What the cut-down type gets wrong is what it is given:
    `run_outcome -> RunOutcome` returns "completed", which it lacks (FC001)."""
    project.write({"cleanup.py": LEVELS.replace(
        '"completed", "budget_exhausted", "batch_cap_reached", "skipped_locked", "aborted"',
        '"budget_exhausted", "batch_cap_reached", "aborted"')})
    assert project.findings() == [("cleanup.py", "FC001", 12)]


def test_overlapping_lists_tied_to_one_channel_are_compared(project):
    """Neither list is a copy of the other, but both describe what `failures` holds: one is recorded
    into it, the other filters it."""
    project.write({"grader.py": '''
        FAILURE_CODES = ("ANSWER_WRONG", "PARSE_FAILED", "TIMEOUT_EXPIRED")
        FAILURE_ORDER = ("TIMEOUT_EXPIRED", "PARSE_FAILED", "SETUP_FAILED")


        def grade(answer, expected, failures):
            if answer != expected:
                failures.add("ANSWER_WRONG")


        def worst(failures):
            return [code for code in FAILURE_ORDER if code in failures]
        '''})
    found = project.findings()
    assert ("grader.py", "FC005", 1) in found and ("grader.py", "FC005", 2) in found


def test_lists_of_one_name_are_compared(project):
    """Two lists of one name in one project (its two subpackages); two projects checked side by
    side are not compared (tests/test_registry_newcomer.py)."""
    project.write({
        "pkg/__init__.py": "", "pkg/a/__init__.py": "", "pkg/b/__init__.py": "",
        "pkg/a/codes.py": 'FAILURE_CODES = ("ANSWER_WRONG", "PARSE_FAILED", "TIMEOUT_EXPIRED")\n',
        "pkg/b/codes.py": 'FAILURE_CODES = ("ANSWER_WRONG", "PARSE_FAILED", "SETUP_FAILED")\n',
    })
    assert project.findings() == [("pkg/a/codes.py", "FC005", 1), ("pkg/b/codes.py", "FC005", 1)]


def test_an_enum_of_a_big_types_module_governs_only_files_that_import_it(project):
    """litellm's guardrail records its own verdicts (`Rejected`, `Allow`) to `verdict=`; it imports a
    class from the proxy's types module, which also defines an approval-status Enum with `rejected`."""
    types = '''
        import enum


        class ApprovalStatus(str, enum.Enum):
            PENDING = "pending"
            APPROVED = "approved"
            REJECTED = "rejected"


        class UserAuth:
            pass
        '''
    guard = '''
        from proxy.types import {imported}


        class Guard:
            def scan(self, auth, blocked):
                if blocked:
                    self._record_verdict(verdict="Rejected")
                else:
                    self._record_verdict(verdict="Allow")
        '''
    project.write({"proxy/types.py": types, "proxy/guard.py": guard.format(imported="UserAuth")})
    assert project.findings() == []
    # control: importing the Enum itself ties the module to it, and `Rejected` is then a slip
    project.write({"proxy/guard.py": guard.format(imported="ApprovalStatus, UserAuth")})
    assert ("proxy/guard.py", "FC001", 7) in project.findings()


def test_fc004_lookups_that_filter_nothing_stay_quiet(project):
    """Issue 12's false alarms: the first known kind with a default, any/all tests, and a fixed
    table narrowed to a fixed set of keys (litellm's finish-reason maps, held out)."""
    project.write({"kinds.py": '''
        ERROR_KINDS = ("RateLimitError", "APIError", "Timeout")
        _FINISH_REASON_MAP = {"STOP": "stop", "MAX_TOKENS": "length", "end_turn": "stop"}
        _GEMINI_FINISH_REASON_KEYS = frozenset({"STOP", "MAX_TOKENS"})


        def kind_of(error):
            return next((n.__name__ for n in type(error).__mro__ if n.__name__ in ERROR_KINDS), "APIError")


        def any_known(reasons):
            return any(r in ERROR_KINDS for r in reasons)


        GEMINI_FINISH_REASONS = {k: v for k, v in _FINISH_REASON_MAP.items() if k in _GEMINI_FINISH_REASON_KEYS}


        def report(reasons):
            return [r for r in reasons if r in ERROR_KINDS]
        '''})
    # control: `report` keeps only the reasons the list knows. `kind_of` filters nothing, but its
    # default names every unlisted exception, our own KeyError too, "APIError": FC006 (issue 11)
    assert project.findings() == [("kinds.py", "FC006", 7), ("kinds.py", "FC004", 18)]


OUTCOMES = '''
    from typing import Literal

    Outcome = Literal["wrong_answer", "parse_error", "passed"]
    '''


@pytest.mark.parametrize("annotation", ["Outcome", "Optional[Outcome]", '"Outcome"', "Outcome | None"])
def test_a_return_typed_with_a_literal_registry_records_its_codes(project, annotation):
    """Issue 12's missed shape: `def classify(...) -> Outcome: return "runtime_error"`. The type says
    what the function returns, so a lowercase word the Literal lacks is unregistered."""
    project.write({"pkg/outcomes.py": OUTCOMES, "pkg/classify.py": f'''
        from typing import Optional

        from pkg.outcomes import Outcome


        def classify(got, expected) -> {annotation}:
            if got is None:
                return "parse_error"
            if got != expected:
                return "wrong_answer"
            return "passed"


        def crashed() -> {annotation}:
            return "runtime_error"
        '''})
    assert project.findings() == [("pkg/classify.py", "FC001", 15)]


def test_an_untyped_function_returning_one_word_stays_quiet(project):
    """Control: without the type nothing ties `crashed` to Outcome, and one returned word is no code."""
    project.write({"pkg/outcomes.py": OUTCOMES, "pkg/classify.py": '''
        from pkg.outcomes import Outcome


        def classify(got, expected) -> Outcome:
            if got is None:
                return "parse_error"
            if got != expected:
                return "wrong_answer"
            return "passed"


        def crashed():
            return "runtime_error"
        '''})
    assert project.findings() == []


MAPPED = '''
    from typing import Literal

    StopReason = Literal["budget_exhausted", "batch_cap_reached"]
    RunOutcome = Literal["completed", "budget_exhausted", "batch_cap_reached", "aborted"]


    def run_outcome({parameter}, done: bool) -> RunOutcome:
        if done:
            return "completed"
        if reason == "budget_exhausted":
            return "budget_exhausted"
        if reason == "batch_cap_reached":
            return "batch_cap_reached"
        return "aborted"
    '''


def test_a_function_mapping_one_registry_onto_the_other_marks_two_levels(project):
    """Issue 12: `run_outcome(reason: StopReason) -> RunOutcome` maps a step's stop reason onto the
    run's outcome; StopReason holding fewer codes is a different level, not a stale copy."""
    project.write({"cleanup.py": MAPPED.format(parameter="reason: StopReason")})
    assert project.findings() == []


def test_a_subset_registry_without_a_mapping_is_a_selection_unless_looked_up(project):
    """The same lists with no function typed from one to the other: StopReason holds a part of
    RunOutcome's codes, and nothing looks a code up in it by its place, so it is a selection, not a
    copy gone stale (tests/test_registry_shapes.py holds the list that is looked up, reported)."""
    project.write({"cleanup.py": MAPPED.format(parameter="reason")})
    assert project.findings() == []


def test_a_type_of_the_same_name_from_another_package_governs_nothing(project):
    """inspect-ai's Anthropic bridge maps its own StopReason onto `anthropic.types.StopReason`: the
    returned `end_turn` is the other package's word, not a slip of the project's StopReason."""
    project.write({"pkg/model.py": '''
        from typing import Literal

        StopReason = Literal["stop", "max_tokens", "unknown"]
        ''', "pkg/bridge.py": '''
        from anthropic.types import StopReason as AnthropicStopReason

        from pkg.model import StopReason


        def anthropic_stop_reason(stop_reason: StopReason) -> AnthropicStopReason:
            if stop_reason == "max_tokens":
                return "max_tokens"
            return "end_turn"


        def stop_reason_of(reply) -> StopReason:
            if reply.truncated:
                return "max_tokens"
            if reply.done:
                return "stop"
            return "end_turn"
        '''})
    # control: the project's own type is the project's registry
    assert project.findings() == [("pkg/bridge.py", "FC001", 17)]


def test_a_variable_typed_with_a_registry_records_its_codes(project):
    """Issue 12's `status: Outcome`: a name annotated with a registry holds its codes, whatever the
    name; the control `note: str` is no channel of it."""
    project.write({"pkg/outcomes.py": OUTCOMES, "pkg/run.py": '''
        from pkg.outcomes import Outcome


        def run(got, expected):
            result: Outcome = "passed"
            if got is None:
                result = "parse_error"
            note: str = "runtime_error"
            status: Outcome = "runtime_error"
            return result, note, status
        '''})
    assert project.findings() == [("pkg/run.py", "FC001", 9)]
