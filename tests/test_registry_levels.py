"""FC005 compares registries about the same thing only (issue 12): a list of the same name, one it is
a partial copy of, or one tied to the same channel. Two vocabularies that share some words and type
different fields are two levels, not a copy gone stale."""

from __future__ import annotations


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


def test_a_partial_copy_is_still_reported(project):
    """Control: the same file with RunOutcome a partial copy of StopReason's codes is one list gone
    stale (it lacks `exhausted` and `target_reached`)."""
    project.write({"cleanup.py": LEVELS.replace(
        '"completed", "budget_exhausted", "batch_cap_reached", "skipped_locked", "aborted"',
        '"budget_exhausted", "batch_cap_reached", "aborted"')})
    assert project.findings() == [("cleanup.py", "FC005", 4)]


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
    project.write({
        "a/codes.py": 'FAILURE_CODES = ("ANSWER_WRONG", "PARSE_FAILED", "TIMEOUT_EXPIRED")\n',
        "b/codes.py": 'FAILURE_CODES = ("ANSWER_WRONG", "PARSE_FAILED", "SETUP_FAILED")\n',
    })
    assert project.findings() == [("a/codes.py", "FC005", 1), ("b/codes.py", "FC005", 1)]
