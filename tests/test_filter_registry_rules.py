"""FC004 silent-reason-filter and FC005 divergent-registries.

FC004 reports at the first line of the filtering expression or `for` statement, FC005 at the
definition line of the registry that disagrees."""

from __future__ import annotations

import json

import pytest

ORDER = 'FAILURE_ORDER = ["PARSE_FAILED", "EXEC_FAILED", "COMPARE_FAILED"]\n'


@pytest.mark.parametrize("expression", [
    "[r for r in reasons if r in FAILURE_ORDER]",
    "{r for r in reasons if r in FAILURE_ORDER}",
    "{r: 1 for r in reasons if r in FAILURE_ORDER}",
    "list(r for r in reasons if r in FAILURE_ORDER)",
    "[c for c in FAILURE_ORDER if c in reasons]",
    "list(filter(lambda r: r in FAILURE_ORDER, reasons))",
    "list(filter(FAILURE_ORDER.__contains__, reasons))",
    "set(reasons) & set(FAILURE_ORDER)",
    "set(reasons).intersection(FAILURE_ORDER)",
    "[run for run in runs if run.state in FAILURE_ORDER]",
])
def test_fc004_filter_forms(project, expression):
    project.write({"report.py": ORDER + f"\n\ndef ordered(reasons, runs):\n    return {expression}\n"})
    assert project.findings() == [("report.py", "FC004", 5)]


def test_fc004_for_loop_form(project):
    project.write({"report.py": ORDER + '''

def ordered(reasons):
    out = []
    for r in reasons:
        if r in FAILURE_ORDER:
            out.append(r)
    return out
'''})
    assert project.findings() == [("report.py", "FC004", 6)]


@pytest.mark.parametrize("body, line", [
    # the element is kept under its own code
    ("counts = {}\n    for r in reasons:\n        if r in FAILURE_ORDER:\n            counts[r] = counts.get(r, 0) + 1\n"
     "    return counts", 6),
    # a tally of the known codes: an unknown one is not counted
    ("failed = 0\n    for r in reasons:\n        if r in FAILURE_ORDER:\n            failed += 1\n    return failed", 6),
    # the element's code written to a record, one line per hit
    ("for r in reasons:\n        if r in FAILURE_ORDER: last = r\n    return last", 5),
])
def test_fc004_for_loop_that_keeps_a_selection(project, body, line):
    """A branch that uses the element or accumulates keeps a selection of codes: an unknown code
    vanishes from it. Reported at the `for` statement. Controls: reported before and after the
    loop policy of session 34."""
    project.write({"report.py": ORDER + f"\n\ndef ordered(reasons):\n    {body}\n"})
    assert project.findings() == [("report.py", "FC004", line)]


@pytest.mark.parametrize("body", [
    # skips the known codes and goes on with the rest (dagster's run migration)
    "for r in reasons:\n        if r in FAILURE_ORDER:\n            continue\n        migrate(r)",
    "for r in reasons:\n        if r in FAILURE_ORDER: continue\n        migrate(r)",
    # one value set on any hit, from nothing of the element (supervisor's exit status)
    "status = 0\n    for r in reasons:\n        if r in FAILURE_ORDER:\n            status = 3\n    return status",
    "for r in reasons:\n        if r in FAILURE_ORDER:\n            self.exitstatus = EXIT_FAILED\n"
    "            seen = True",
])
def test_fc004_for_loop_that_keeps_nothing_is_quiet(project, body):
    """A membership branch that skips the known codes, or sets one value on any hit (as `any(…)`
    answers), keeps no selection: an unknown code loses nothing."""
    project.write({"report.py": ORDER + f"\n\ndef ordered(self, reasons):\n    {body}\n"})
    assert project.findings() == []


def test_fc004_registry_imported_from_another_module(project):
    project.write({
        "pkg/__init__.py": "",
        "pkg/codes.py": "ORDER = ['PARSE_FAILED', 'EXEC_FAILED']\n",
        "pyproject.toml": '[tool.failcode]\nregistry = ["pkg/codes.py:ORDER"]\n',
        "pkg/report.py": '''
            from pkg.codes import ORDER as KNOWN

            def ordered(reasons):
                return [r for r in reasons if r in KNOWN]
            ''',
    })
    assert project.findings() == [("pkg/report.py", "FC004", 4)]


@pytest.mark.parametrize("body", [
    # unknown codes raise
    "unknown = set(reasons) - set(FAILURE_ORDER)\n    if unknown:\n        raise TypeError(f'unknown failure reason: {unknown}')\n"
    "    return [r for r in FAILURE_ORDER if r in reasons]",
    # unknown codes are kept
    "return [r for r in FAILURE_ORDER if r in reasons] + sorted(set(reasons) - set(FAILURE_ORDER))",
    # unknown codes are reported before the filter
    "for r in reasons:\n        if r not in FAILURE_ORDER:\n            report_unknown(r)\n"
    "    return [r for r in reasons if r in FAILURE_ORDER]",
    # `not in` collects unknowns
    "return [r for r in reasons if r not in FAILURE_ORDER]",
    # a for loop with a branch that keeps the unknown code
    "out = []\n    for r in reasons:\n        if r in FAILURE_ORDER:\n            out.append(r)\n"
    "        else:\n            out.append('UNKNOWN:' + r)\n    return out",
    # filters over collections that are not codes
    "return {k: v for k, v in kwargs.items() if k in allowed}",
    # the first known reason, else an explicit default that is itself reported (issue 12)
    "return next((c for c in reasons if c in FAILURE_ORDER), 'UNKNOWN')",
    # a yes/no question, not a selection
    "return any(c in FAILURE_ORDER for c in reasons)",
    # a loop guard that raises on a member (helm's content-blocked finish reasons)
    "for r in reasons:\n        if r in FAILURE_ORDER:\n            raise RuntimeError(r)\n    return reasons",
    # a search for the first hit (agno's session blocker)
    "for r in reasons:\n        if r in FAILURE_ORDER:\n            return r\n    return None",
])
def test_fc004_quiet_cases(project, body):
    project.write({"report.py": ORDER + f"\n\ndef ordered(reasons, kwargs, allowed):\n    {body}\n"})
    assert project.findings() == []


CLASSIC_REDUCER = '''
FAILURE_ORDER = [
    "ARGUMENTS_INVALID",
    "EXEC_TOOL_MISMATCH",
    "EXEC_ARGUMENTS_MISMATCH",
    "ANSWER_MISMATCH",
    "PROVIDER_FAILED",
    "INTERNAL_ERROR",
]


def ordered_failures(failures):
    return [c for c in FAILURE_ORDER if c in failures]
'''

CLASSIC_RECEIPT = '''
RECEIPT_FAILURE_CODES = ("ARGUMENTS_INVALID", "EXEC_TOOL_MISMATCH", "ANSWER_MISMATCH")


def receipt_order(failures):
    return sorted(failures, key=RECEIPT_FAILURE_CODES.index)
'''

CLASSIC_REDUCER_FIXED = '''
FAILURE_ORDER = [
    "ARGUMENTS_INVALID",
    "EXEC_TOOL_MISMATCH",
    "EXEC_ARGUMENTS_MISMATCH",
    "ANSWER_MISMATCH",
    "PROVIDER_FAILED",
    "INTERNAL_ERROR",
]


def ordered_failures(failures):
    unknown = sorted(set(failures) - set(FAILURE_ORDER))
    if unknown:
        raise TypeError(f"unknown failure reason: {unknown}")
    return [c for c in FAILURE_ORDER if c in failures]
'''


def test_classic_reducer_and_narrow_receipt(project):
    project.write({"harness/reducer.py": CLASSIC_REDUCER, "harness/receipt.py": CLASSIC_RECEIPT})
    result = project.run("check", "--format", "json")
    found = {(f["path"], f["rule"], f["line"]): f["message"] for f in json.loads(result.stdout)["findings"]}
    assert set(found) == {("harness/reducer.py", "FC004", 12), ("harness/receipt.py", "FC005", 1)}
    message = found[("harness/receipt.py", "FC005", 1)]
    assert "RECEIPT_FAILURE_CODES (harness/receipt.py:1)" in message
    assert "FAILURE_ORDER (harness/reducer.py:1)" in message
    assert "EXEC_ARGUMENTS_MISMATCH" in message and "INTERNAL_ERROR" in message


def test_classic_fixed_reducer_is_quiet(project):
    project.write({"harness/reducer.py": CLASSIC_REDUCER_FIXED})
    assert project.findings() == []


def test_fc005_configured_authority_lists_missing_and_extra(project):
    project.write({
        "pyproject.toml": '[tool.failcode]\nregistry = ["codes.py:FailureCode"]\n',
        "codes.py": '''
            import enum

            class FailureCode(enum.Enum):
                A_FAILED = "A_FAILED"
                B_FAILED = "B_FAILED"
                C_FAILED = "C_FAILED"
            ''',
        "other.py": '''
            FAILURE_SUBSET = frozenset({"A_FAILED", "B_FAILED", "Z_FAILED"})
            ''',
        "unrelated.py": '''
            ERROR_CODES = ["HTTP_NOT_FOUND", "HTTP_GONE"]
            ''',
    })
    result = project.run("check", "--format", "json")
    findings = json.loads(result.stdout)["findings"]
    assert [(f["path"], f["rule"], f["line"]) for f in findings] == [("other.py", "FC005", 1)]
    message = findings[0]["message"]
    assert "C_FAILED" in message and "Z_FAILED" in message and "FailureCode (codes.py:3)" in message


def test_fc005_union_of_discovered_registries_in_different_forms(project):
    """A `Literal` and an Enum of one public name are one vocabulary written twice: the Enum lacks
    `c_failed`. (A partial copy of another name is compared only where a code is looked up in it by
    its place: see tests/test_registry_shapes.py.)"""
    project.write({
        "a.py": "from typing import Literal\nFailureReason = Literal['a_failed', 'b_failed', 'c_failed']\n",
        "b.py": "import enum\nclass FailureReason(enum.Enum):\n    A = 'a_failed'\n    B = 'b_failed'\n",
        "c.py": "FAILURE_CODES = {'X_FAILED': 1, 'Y_FAILED': 2}\n",
    })
    assert project.findings() == [("b.py", "FC005", 2)]


def test_fc005_quiet_when_registries_agree(project):
    project.write({
        "a.py": "FAILURE_CODES = ['A_FAILED', 'B_FAILED']\n",
        "b.py": "import enum\nclass FailureCode(str, enum.Enum):\n    A = 'A_FAILED'\n    B = 'B_FAILED'\n",
    })
    assert project.findings() == []


def test_fc005_lists_first_five_then_a_count(project):
    codes = [f"CODE_{i:02d}_FAILED" for i in range(9)]
    project.write({
        "a.py": f"FAILURE_CODES = {codes!r}\n",
        "b.py": f"FAILURE_ORDER = {codes[:2]!r}\n\n\ndef rank(code):\n    return FAILURE_ORDER.index(code)\n",
    })
    result = project.run("check", "--format", "json")
    (finding,) = json.loads(result.stdout)["findings"]
    assert (finding["path"], finding["rule"], finding["line"]) == ("b.py", "FC005", 1)
    assert "and 2 more" in finding["message"]


def test_registry_command_shows_disagreement(project):
    project.write({"harness/reducer.py": CLASSIC_REDUCER, "harness/receipt.py": CLASSIC_RECEIPT})
    result = project.run("registry", "--format", "json")
    assert result.returncode == 0, result.stderr
    rows = {row["name"]: row for row in json.loads(result.stdout)["registries"]}
    assert rows["FAILURE_ORDER"]["agrees"] is True
    receipt = rows["RECEIPT_FAILURE_CODES"]
    assert receipt["agrees"] is False
    assert receipt["missing"] == ["EXEC_ARGUMENTS_MISMATCH", "INTERNAL_ERROR", "PROVIDER_FAILED"]
    assert receipt["size"] == 3 and receipt["line"] == 1


def test_fc004_bit_flags_are_not_a_filter(project):
    """doctest: `optionflags & REPORT_ONLY_FIRST_FAILURE` is arithmetic on ints."""
    project.write({"flags.py": '''
        REPORT_ONLY_FIRST_FAILURE = 1 << 5

        def report(optionflags):
            if optionflags & REPORT_ONLY_FIRST_FAILURE:
                return True
            return set(optionflags) & {1, 2}
        '''})
    assert project.findings() == []


def test_fc005_state_enums_sharing_one_plain_word_are_unrelated(project):
    """asyncio: two private state enums that both say "created" are not one registry."""
    project.write({
        "runners.py": "import enum\nclass _State(enum.Enum):\n    CREATED = 'created'\n    CLOSED = 'closed'\n",
        "timeouts.py": "import enum\nclass _State(enum.Enum):\n    CREATED = 'created'\n    EXPIRED = 'expired'\n",
    })
    assert project.findings() == []


def test_fc005_two_shared_distinctive_codes_relate_registries(project):
    """Two Enums of one name that share two distinctive codes are one vocabulary (`_related`)."""
    project.write({
        "a.py": "import enum\nclass RunStatus(enum.Enum):\n    A = 'timed_out'\n    B = 'out_of_memory'\n    C = 'crashed'\n",
        "b.py": "import enum\nclass RunStatus(enum.Enum):\n    A = 'timed_out'\n    B = 'out_of_memory'\n",
    })
    assert project.findings() == [("b.py", "FC005", 2)]


def test_fc005_lifecycle_literals_sharing_plain_words_are_unrelated(project):
    """inspect-ai: Literals that share `completed`, `failed`, `cancelled` are different vocabularies."""
    project.write({
        "a.py": "from typing import Literal\nSampleStatus = Literal['completed', 'failed', 'cancelled', 'started']\n",
        "b.py": "from typing import Literal\nPatchApplyStatus = Literal['completed', 'failed']\n",
    })
    assert project.findings() == []


def test_fc004_selecting_records_by_a_state_of_a_vocabulary_is_quiet(project):
    """airflow's dag run: task instances selected by a schedulable state are a selection of the
    state vocabulary; by a list of failures (the control) an unknown failure state would vanish."""
    project.write({"dagrun.py": '''
        SCHEDULEABLE_STATES = ("queued", "scheduled", "up_for_retry")
        FAILURE_STATES = ("failed", "upstream_failed")


        def schedulable(unfinished):
            return [ti for ti in unfinished if ti.state in SCHEDULEABLE_STATES]


        def failed(runs):
            return [run for run in runs if run.state in FAILURE_STATES]
        '''})
    assert project.findings() == [("dagrun.py", "FC004", 10)]


# -- a tally over an outcome Enum that sorts some failure members and drops their siblings ----------

STATUS = '''
from enum import Enum


class Status(Enum):
    untested = 0
    passed = 1
    failed = 2
    error = 3
    hook_error = 4
    cleanup_error = 5
'''


def test_fc004_a_tally_that_drops_sibling_failure_members(project):
    """behave's summary: `failed` and `error` are sorted into lists, `hook_error` and `cleanup_error`
    are in neither, whatever the members' values (ints here) and wherever the Enum lives. Reported
    at the `if` and the `for` that start each tally."""
    project.write({"runner/model.py": STATUS, "runner/__init__.py": "", "runner/summary.py": '''
        from runner.model import Status


        class Summary:
            def on_scenario(self, scenario):
                if scenario.status == Status.failed:
                    self.failed.append(scenario)
                elif scenario.status == Status.error:
                    self.errored.append(scenario)

            def error_count(self, counts):
                total = 0
                for status in (Status.error, Status.hook_error):
                    total += counts.get(status, 0)
                return total
        '''})
    findings = project.findings()
    assert findings == [("runner/summary.py", "FC004", 6), ("runner/summary.py", "FC004", 13)]
    messages = [row["message"] for row in json.loads(project.run("check", "--format", "json").stdout)["findings"]]
    assert "Status.hook_error, Status.cleanup_error" in messages[0] and "Status.cleanup_error" in messages[1]


def test_fc004_tallies_that_keep_every_failure_member_stay_quiet(project):
    """Controls: every sibling has an arm, an `else` keeps the rest, the function names the others
    elsewhere, the sorted members are no failures (`passed`), the arms collect nothing (a
    predicate), or the class is no outcome Enum (`Color`)."""
    project.write({"runner/model.py": STATUS + '''

class Color(Enum):
    red_error = 1
    blue_error = 2
''', "runner/__init__.py": "", "runner/summary.py": '''
        from runner.model import Color, Status


        class Summary:
            def every_arm(self, s):
                if s.status == Status.failed:
                    self.failed.append(s)
                elif s.status in (Status.error, Status.hook_error, Status.cleanup_error):
                    self.errored.append(s)

            def with_else(self, s):
                if s.status == Status.error:
                    self.errored.append(s)
                else:
                    self.rest.append(s)

            def named_elsewhere(self, s):
                if s.status == Status.error:
                    self.errored.append(s)
                if s.status in (Status.hook_error, Status.cleanup_error):
                    self.hooks.append(s)

            def passed_only(self, s):
                if s.status == Status.passed:
                    self.passed.append(s)

            def is_error(self, s):
                if s.status == Status.error:
                    return True
                return False

            def colors(self, c):
                if c == Color.red_error:
                    self.red.append(c)
        '''})
    assert project.findings() == []


def test_fc004_a_tally_over_a_class_of_status_constants(project):
    """The same tally over a plain class of string constants (`JobStatus.FAILED = "failed"`): a job
    that timed out (`TIMEOUT_ERROR`) is in neither list. A class of the same name words that holds
    one constant and methods is no vocabulary: quiet. Reported at the `if` of the first tally."""
    project.write({"jobs.py": '''
        class JobStatus:
            QUEUED = "queued"
            FAILED = "failed"
            ERROR = "error"
            TIMEOUT_ERROR = "timeout_error"


        class ErrorState:
            LAST_ERROR = "last_error"

            def describe(self):
                return "state"


        def tally(jobs):
            failed, errored = [], []
            for job in jobs:
                if job.status == JobStatus.FAILED:
                    failed.append(job)
                elif job.status == JobStatus.ERROR:
                    errored.append(job)
            return failed, errored


        def last_errors(states):
            kept = []
            for state in states:
                if state.kind == ErrorState.LAST_ERROR:
                    kept.append(state)
            return kept
        '''})
    assert project.findings() == [("jobs.py", "FC004", 18)]


def test_fc004_labels_scored_by_the_known_ones_drop_the_rest(project):
    """A judge's labels mapped to scores by the values the code knows, with no arm for any other
    (an `else` that only logs, or none): a label outside them (`partially_supported`, an empty
    reply) is in no score, and the mean is taken over the rest. Reported at the `if` of each chain."""
    project.write({"judge.py": '''
        import logging

        logger = logging.getLogger(__name__)
        POSITIVE = frozenset({"supported", "not_applicable"})
        NEGATIVE = frozenset({"unsupported", "contradictory"})


        def accuracy(results):
            scores = []
            for result in results:
                label = result["label"].strip().lower()
                if label in POSITIVE:
                    scores.append(1)
                elif label in NEGATIVE:
                    scores.append(0)
                else:
                    logger.debug("Unexpected label: %s", label)
            return sum(scores) / len(scores) if scores else None


        def pass_rate(verdicts):
            passed = []
            for verdict in verdicts:
                if verdict == "PASS":
                    passed.append(True)
                elif verdict in ("FAIL", "fail"):
                    passed.append(False)
            return sum(passed) / len(passed)
        '''})
    assert project.findings() == [("judge.py", "FC004", 12), ("judge.py", "FC004", 24)]
    messages = [row["message"] for row in json.loads(project.run("check", "--format", "json").stdout)["findings"]]
    assert "`POSITIVE` and `NEGATIVE`" in messages[0] and "`'PASS'` and `('FAIL', 'fail')`" in messages[1]


@pytest.mark.parametrize("before, rest", [
    ("pass", "unknown.append(label)"),
    ("pass", "raise ValueError(label)"),
    ("pass", "scores.append(None)"),
    ("if label not in POSITIVE | NEGATIVE: raise ValueError(label)", "pass"),
])
def test_fc004_labels_scored_with_an_arm_for_the_rest_stay_quiet(project, before, rest):
    """Controls: an `else` that records the unknown label, raises, or scores it as unscored, and a
    test beforehand that keeps unknown labels out (`not in`)."""
    project.write({"judge.py": f'''
        POSITIVE = frozenset({{"supported", "not_applicable"}})
        NEGATIVE = frozenset({{"unsupported", "contradictory"}})


        def accuracy(results):
            scores, unknown = [], []
            for label in results:
                {before}
                if label in POSITIVE:
                    scores.append(1)
                elif label in NEGATIVE:
                    scores.append(0)
                else:
                    {rest}
            return scores, unknown
        '''})
    assert project.findings() == []


def test_fc004_labels_bucketed_or_not_scored_stay_quiet(project):
    """Controls: arms that score into different lists (buckets, not one score), arms that keep the
    label itself, one arm only, and arms that test different values."""
    project.write({"judge.py": '''
        POSITIVE = frozenset({"supported", "not_applicable"})
        NEGATIVE = frozenset({"unsupported", "contradictory"})


        def buckets(results):
            good, bad = [], []
            for label in results:
                if label in POSITIVE:
                    good.append(1)
                elif label in NEGATIVE:
                    bad.append(0)
            return good, bad


        def kept(results):
            out = []
            for label in results:
                if label in POSITIVE:
                    out.append(label)
                elif label in NEGATIVE:
                    out.append(label)
            return out


        def one_arm(results):
            scores = []
            for label in results:
                if label in POSITIVE:
                    scores.append(1)
            return scores


        def two_subjects(results):
            scores = []
            for label, grade in results:
                if label in POSITIVE:
                    scores.append(1)
                elif grade in NEGATIVE:
                    scores.append(0)
            return scores
        '''})
    assert project.findings() == []
