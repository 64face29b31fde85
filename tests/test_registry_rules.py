"""FC001 unregistered-code, FC007 duplicate-registry-code, FC008 unused-registry-code, and the
registry forms they read. Expected lines are where the contract says each rule reports."""

from __future__ import annotations

import json

import pytest

from conftest import failcode, findings_of

CODES = '''
FAILURE_CODES = (
    "PARSE_FAILED",
    "COMPARE_FAILED",
)
'''


def test_fc001_reports_the_unregistered_literal(project):
    project.write({
        "pkg/__init__.py": "",
        "pkg/codes.py": CODES,
        "pkg/grade.py": '''
            from pkg.codes import FAILURE_CODES
            def grade(failures, ok):
                if not ok:
                    failures.add("PARSE_FAILED")
                failures.add("COMPARE_FIALED")
            ''',
    })
    assert project.findings() == [("pkg/grade.py", "FC001", 5)]


def test_fc001_message_names_code_and_registry(project):
    project.write({"pkg/codes.py": CODES, "pkg/grade.py": '''
        import pkg.codes
        def grade(failures):
            failures.add("PARSE_FAILED")
            failures.add("TIMEOUT_EXCEEDED")
        '''})
    result = project.run("check")
    assert result.returncode == 1
    line = [l for l in result.stdout.splitlines() if "FC001" in l][0]
    assert line.startswith("pkg/grade.py:4:18: FC001 ")
    assert "TIMEOUT_EXCEEDED" in line and "FAILURE_CODES (pkg/codes.py:1)" in line


def test_fc001_quiet_when_every_code_registered(project):
    project.write({"pkg/codes.py": CODES, "pkg/grade.py": '''
        def grade(failures, ok):
            failures.add("PARSE_FAILED" if ok else "COMPARE_FAILED")
        '''})
    assert project.findings() == []


def test_fc001_discovered_registry_does_not_judge_unrelated_sinks(project):
    """A discovered registry governs only sinks that record one of its codes."""
    project.write({"pkg/codes.py": CODES, "pkg/http.py": '''
        def respond(errors, outcome):
            errors.append("NOT_FOUND_404")
            outcome(status="HTTP_OK")
        '''})
    assert project.findings() == []


def test_fc001_configured_registry_governs_every_site(project):
    project.write({
        "pyproject.toml": '''
            [tool.failcode]
            registry = ["pkg/codes.py:FAILURE_CODES"]
            ''',
        "pkg/codes.py": CODES,
        "pkg/http.py": '''
            def respond(errors):
                errors.append("NOT_FOUND_404")
            ''',
    })
    assert project.findings() == [("pkg/http.py", "FC001", 2)]


def test_fc001_enum_member_through_import_alias(project):
    project.write({
        "pkg/__init__.py": "",
        "pkg/codes.py": '''
            from enum import Enum

            class FailureCode(str, Enum):
                PARSE_FAILED = "PARSE_FAILED"
                COMPARE_FAILED = "COMPARE_FAILED"
            ''',
        "pkg/reduce.py": '''
            from pkg.codes import FailureCode as FC

            def reduce(failures, ok):
                failures.append(FC.PARSE_FAILED)
                failures.append(FC.TIMED_OUT)
            ''',
    })
    assert project.findings() == [("pkg/reduce.py", "FC001", 5)]


def test_fc001_relative_import_of_registry_member(project):
    project.write({
        "pkg/__init__.py": "",
        "pkg/codes.py": '''
            import enum

            class FailureReason(enum.Enum):
                PARSE_FAILED = enum.auto()
                COMPARE_FAILED = enum.auto()
            ''',
        "pkg/reduce.py": '''
            from .codes import FailureReason

            def reduce(reasons):
                reasons.add(FailureReason.COMPARE_FAILED)
                reasons.add(FailureReason.COMPARE_FAILLED)
            ''',
    })
    assert project.findings() == [("pkg/reduce.py", "FC001", 5)]


def test_fc001_constant_reference_resolves_to_its_value(project):
    project.write({"pkg/codes.py": CODES + 'UNKNOWN_FAILURE = "UNKNOWN_FAILURE"\n', "pkg/grade.py": '''
        from pkg.codes import UNKNOWN_FAILURE

        def grade(failures):
            failures.add("PARSE_FAILED")
            failures.add(UNKNOWN_FAILURE)
        '''})
    assert project.findings() == [("pkg/grade.py", "FC001", 5)]


def test_fc001_lowercase_literal_declared_by_literal_registry(project):
    project.write({"pkg/codes.py": '''
        from typing import Literal

        FailureReason = Literal["guardrail_failed_to_respond", "parse_failed"]
        ''', "pkg/run.py": '''
        from pkg.codes import FailureReason
        def run(outcome):
            outcome(reason="guardrail_failed_to_respond")
            outcome(reason="parse_failed")
            outcome(reason="TOOL_CRASHED")
        '''})
    assert project.findings() == [("pkg/run.py", "FC001", 5)]


def test_module_level_assignments_are_definitions_not_sites(project):
    project.write({"pkg/codes.py": CODES, "pkg/defaults.py": '''
        failures = set()
        failures.add("NOT_REGISTERED_HERE")
        status = "ALSO_NOT_A_SITE"
        '''})
    assert project.findings() == []


def test_fc001_raise_with_code_is_a_site(project):
    project.write({"pkg/codes.py": CODES, "pkg/grade.py": '''
        import pkg.codes
        class GradeError(Exception):
            pass

        def grade(failures, ok):
            failures.add("PARSE_FAILED")
            if not ok:
                raise GradeError("PARSE_FAILED")
            raise GradeError(code="COMPARE_BROKEN")
        '''})
    # the GradeError raise records PARSE_FAILED, so the registry governs it; COMPARE_BROKEN is unknown
    assert project.findings() == [("pkg/grade.py", "FC001", 9)]


def test_fc001_raise_of_registered_code_is_quiet(project):
    project.write({"pkg/codes.py": CODES, "pkg/grade.py": '''
        class GradeError(Exception):
            pass

        def grade(ok):
            if not ok:
                raise GradeError("PARSE_FAILED")
            raise GradeError(code="COMPARE_FAILED")
        '''})
    assert project.findings() == []


@pytest.mark.parametrize("definition", [
    'FAILURE_CODES = ["A_FAILED", "B_FAILED"]',
    'FAILURE_CODES = ("A_FAILED", "B_FAILED")',
    'FAILURE_CODES = {"A_FAILED", "B_FAILED"}',
    'FAILURE_CODES = frozenset({"A_FAILED", "B_FAILED"})',
    'FAILURE_CODES = {"A_FAILED": "a", "B_FAILED": "b"}',
    'from typing import Literal\nFAILURE_CODES = Literal["A_FAILED", "B_FAILED"]',
    'from enum import Enum\nclass FAILURE_CODES(Enum):\n    A = "A_FAILED"\n    B = "B_FAILED"',
    'class FAILURE_CODES:\n    A = "A_FAILED"\n    B = "B_FAILED"',
])
def test_configured_registry_forms(project, definition):
    project.write({
        "pyproject.toml": '[tool.failcode]\nregistry = ["reg/codes.py:FAILURE_CODES"]\n',
        "reg/codes.py": definition + "\n",
        "app.py": '''
            def run(failures):
                failures.add("A_FAILED")
                failures.add("C_FAILED")
            ''',
    })
    assert project.findings() == [("app.py", "FC001", 3)]


@pytest.mark.parametrize("name,text", [
    ("codes.toml", '[codes]\nfailure = ["A_FAILED", "B_FAILED"]\n'),
    ("codes.txt", "A_FAILED\n# comment\nB_FAILED\n"),
])
def test_configured_data_file_registry(project, name, text):
    project.write({
        "pyproject.toml": f'[tool.failcode]\nregistry = ["{name}"]\n',
        name: text,
        "app.py": '''
            def run(failures):
                failures.add("B_FAILED")
                failures.add("C_FAILED")
            ''',
    })
    assert project.findings() == [("app.py", "FC001", 3)]


def test_fc007_reports_the_repeated_element(project):
    project.write({"codes.py": '''
        FAILURE_CODES = [
            "PARSE_FAILED",
            "COMPARE_FAILED",
            "PARSE_FAILED",
        ]
        '''})
    assert project.findings() == [("codes.py", "FC007", 4)]


def test_fc007_quiet_for_distinct_codes_and_unnamed_lists(project):
    project.write({"codes.py": '''
        FAILURE_CODES = ["PARSE_FAILED", "COMPARE_FAILED"]
        COLUMNS = ["NAME_FIELD", "NAME_FIELD"]
        '''})
    assert project.findings() == []


def test_fc008_is_off_by_default_and_reports_unused_codes(project):
    project.write({"codes.py": CODES, "app.py": '''
        def run(failures):
            failures.add("PARSE_FAILED")
        '''})
    assert project.findings() == []
    assert project.findings("--extend-select", "FC008") == [("codes.py", "FC008", 3)]


def test_fc008_quiet_when_every_code_recorded(project):
    project.write({"codes.py": CODES, "app.py": '''
        def run(failures, ok):
            failures.add("PARSE_FAILED" if ok else "COMPARE_FAILED")
        '''})
    assert project.findings("--select", "FC008") == []


@pytest.mark.parametrize("receiver,is_sink", [
    ("failures", True), ("self.failures", True), ("run_errors", True), ("failures_by_case[key]", True),
    ("FAILURE_LIST", True), ("error_codes", True), ("codes", True),
    ("error_handlers", False), ("error_message", False), ("exit_codes", False), ("lang_code", False),
    ("status_codes", False), ("on_error", False), ("error_messages", False),
])
def test_receiver_names_by_head_noun(project, receiver, is_sink):
    """The head noun decides: `error_handlers` holds handlers, `failures_by_case` holds failures."""
    project.write({"codes.py": CODES, "app.py": f'''
        import codes
        def run({receiver.split('.')[-1].split('[')[0]}, self=None, key=None):
            {receiver}.append("PARSE_FAILED")
            {receiver}.append("UNKNOWN_FAILURE")
        '''})
    expected = [("app.py", "FC001", 4)] if is_sink else []
    assert project.findings() == expected


def test_prose_and_patterns_are_not_recorded_codes(project):
    project.write({"app.py": '''
        def run(outcome):
            outcome(reason="could not open the windows drive path")
            outcome(reason=r"^FAILED_[A-Z]+$")
        '''})
    result = project.run("sites", "--format", "json")
    assert json.loads(result.stdout)["sites"] == []


def test_stub_files_declare_no_registries(project):
    project.write({"typeshed/state.pyi": "import enum\nclass _BarrierState(enum.Enum):\n    FILLING = 'filling'\n    DRAINING = 'draining'\n"})
    assert json.loads(project.run("registry", "--format", "json").stdout)["registries"] == []


def test_dict_display_keys_record_like_keywords(project):
    project.write({"codes.py": CODES, "app.py": '''
        import codes
        def run(ok):
            if ok:
                return {"status": "PARSE_FAILED", "detail": "x"}
            return {"status": "PARSE_FIALED", "detail": "y"}
        '''})
    assert project.findings() == [("app.py", "FC001", 5)]


def test_module_names_anchor_at_the_package_root(project):
    """A package checked from a parent folder keeps its import name, so absolute and relative
    imports of a registry member resolve to the same registry."""
    project.write({
        "vendor/tree/pkg/__init__.py": "",
        "vendor/tree/pkg/codes.py": "import enum\nclass FailureCode(enum.Enum):\n    A_FAILED = 'A_FAILED'\n    B_FAILED = 'B_FAILED'\n",
        "vendor/tree/pkg/other/__init__.py": "",
        "vendor/tree/pkg/other/codes.py": "import enum\nclass FailureCode(enum.Enum):\n    X_FAILED = 'X_FAILED'\n    Y_FAILED = 'Y_FAILED'\n",
        "vendor/tree/pkg/run.py": '''
            from pkg.codes import FailureCode
            from .other import codes as other

            def run(failures):
                failures.add(FailureCode.A_FAILED)
                failures.add(other.FailureCode.Y_FAILED)
                failures.add(FailureCode.Y_FAILED)
            ''',
    })
    assert project.findings() == [("vendor/tree/pkg/run.py", "FC001", 7)]


def test_dict_display_other_keys_are_not_sinks(project):
    project.write({"codes.py": CODES, "app.py": '''
        def run(ok):
            if ok:
                return {"status": "PARSE_FAILED"}
            return {"detail": "PARSE_FIALED", "label": "COMPARE_FIALED"}
        '''})
    assert project.findings() == []


# -- registries scoped by imports, and typos (issue 12) ---------------------------------------------

def test_fc001_discovered_registry_governs_only_modules_that_import_it(project):
    """A module that never imports the registry records codes of its own channel: `code="OVER_LIMIT"`
    on a str field is not judged against an unrelated Enum, however many codes they share."""
    project.write({
        "pkg/__init__.py": "",
        "pkg/codes.py": CODES,
        "pkg/grade.py": '''
            from pkg.codes import FAILURE_CODES
            def grade(failures):
                failures.add("PARSE_FAILED")
                failures.add("TIMEOUT_EXCEEDED")
            ''',
        "pkg/billing.py": '''
            def charge(failures):
                failures.add("PARSE_FAILED")
                failures.add("OVER_LIMIT")
            ''',
    })
    assert project.findings() == [("pkg/grade.py", "FC001", 4)]


def test_fc001_registry_imported_through_a_re_export(project):
    project.write({
        "pkg/__init__.py": "from pkg.codes import FAILURE_CODES\n",
        "pkg/codes.py": CODES,
        "pkg/grade.py": '''
            from pkg import FAILURE_CODES
            def grade(failures):
                failures.add("PARSE_FAILED")
                failures.add("TIMEOUT_EXCEEDED")
            ''',
    })
    assert project.findings() == [("pkg/grade.py", "FC001", 4)]


def test_fc001_a_member_of_another_modules_class_of_the_same_name_is_no_member_of_ours(project):
    """A name reached through another module of the project is our registry only when that module
    binds it by import or by assigning another name: a generated protobuf module's `JobStatus`
    (built by `EnumTypeWrapper(…)`, or filled into its `globals()` at run time) is another Enum of the
    same name.
    The control is a package `__init__` that re-exports ours: a member it lacks is still reported,
    as is one reached through the defining module."""
    project.write({
        "pkg/__init__.py": "from pkg.status import JobStatus as JobStatus\n",
        "pkg/protos/__init__.py": "",
        "pkg/protos/jobs_pb2.py": '''
            from google.protobuf import descriptor_pool
            DESCRIPTOR = descriptor_pool.Default().AddSerializedFile(b"...")
            _JOBSTATUS = DESCRIPTOR.enum_types_by_name["JobStatus"]
            if _USE_C_DESCRIPTORS == False:
                JobStatus = enum_type_wrapper.EnumTypeWrapper(_JOBSTATUS)
            ''',
        "pkg/status.py": '''
            from enum import Enum
            class JobStatus(str, Enum):
                PENDING = "PENDING"
                FAILED = "FAILED"
            def to_proto(status):
                from pkg.protos import jobs_pb2 as pb2
                if status == JobStatus.PENDING:
                    return pb2.JobStatus.JOB_STATUS_PENDING
                return pb2.JobStatus.JOB_STATUS_FAILED
            ''',
        "pkg/handlers.py": '''
            from pkg.protos.jobs_pb2 import JobStatus
            def start(job):
                job.state.status = JobStatus.JOB_STATUS_PENDING
                return job
            ''',
        "pkg/runner.py": '''
            from pkg import JobStatus
            from pkg.status import JobStatus as Defined
            def finish(job):
                job.status = JobStatus.DONE
                return job
            def crash(job):
                job.status = Defined.CRASHED
                return job
            ''',
    })
    assert project.findings() == [("pkg/runner.py", "FC001", 4), ("pkg/runner.py", "FC001", 7)]


def test_fc001_a_class_of_the_same_name_in_a_package_none_of_ours_is_in(project):
    """livekit-agents (session 48's third tune batch, judged false four times): `from
    livekit.protocol import agent` reaches another distribution of the `livekit` namespace package,
    whose `agent.JobStatus.JS_FAILED` is not our `JobStatus` enum. Control, reported before and
    after: a member our own `JobStatus` lacks."""
    project.write({
        "livekit/agents/__init__.py": "",
        "livekit/agents/ipc/__init__.py": "from . import job_executor\n",
        "livekit/agents/ipc/job_executor.py": '''
            from enum import Enum
            class JobStatus(Enum):
                RUNNING = "running"
                FAILED = "failed"
            ''',
        "livekit/agents/worker.py": '''
            from livekit.protocol import agent
            from .ipc.job_executor import JobStatus
            def report(proc):
                status = agent.JobStatus.JS_RUNNING
                if proc.status == JobStatus.FAILED:
                    status = agent.JobStatus.JS_FAILED
                return status
            def crash(proc):
                proc.status = JobStatus.CRASHED
                return proc
            ''',
    })
    assert project.findings() == [("livekit/agents/worker.py", "FC001", 9)]


def test_fc001_typo_on_a_one_file_project_says_did_you_mean(project):
    """A newcomer's first try: a typo beside the registry, on a sink that records no other code."""
    project.write({"harness.py": '''
        FAILURE_CODES = ("READ_FAILED", "ANSWER_MISMATCH")


        def grade(answer, expected, failures):
            if answer != expected:
                failures.add("ANSWER_MISMATHC")
        '''})
    result = project.run("check")
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == (
        "harness.py:6:22: FC001 ANSWER_MISMATHC is recorded (failures.add) but not registered in "
        "FAILURE_CODES (harness.py:1) — did you mean ANSWER_MISMATCH?")


def test_fc001_other_words_and_endings_are_no_typos(project):
    """Controls: `COMPLETED` beside a registered `COMPLETE`, or a code of another word, is no slip
    of the keyboard, and a sink that records nothing of the registry is not judged by it."""
    project.write({"jobs.py": '''
        JOB_STATES = ("RUNNING_JOB", "COMPLETE_JOB")


        def finish(job):
            job.status = "COMPLETE_JOBS"
            job.status = "QUEUED_JOB"
        '''})
    assert project.findings() == []


def test_checking_one_file_reads_the_registry_it_imports(project):
    """pre-commit passes only the changed file: the registry module it imports is still read (and
    never judged), and FC008 stays quiet, since codes recorded in unchanged files are not seen."""
    project.write({
        "pyproject.toml": '[tool.failcode]\nextend-select = ["FC008"]\n',
        "pkg/__init__.py": "",
        "pkg/codes.py": CODES,
        "pkg/grade.py": '''
            from pkg.codes import FAILURE_CODES
            def grade(failures):
                failures.add("PARSE_FAILED")
                failures.add("TIMEOUT_EXCEEDED")
            ''',
    })
    assert project.findings("pkg/grade.py") == [("pkg/grade.py", "FC001", 4)]
    assert project.findings("pkg/codes.py") == []
    # control: the whole tree is a whole project, where COMPARE_FAILED is recorded nowhere
    assert project.findings(".") == [("pkg/codes.py", "FC008", 3), ("pkg/grade.py", "FC001", 4)]


def test_a_folder_that_is_no_identifier_is_not_part_of_module_names(project):
    """An unpacked wheel checked from its parent (`litellm-1.110.2/litellm/types/…`, namespace
    folders without `__init__.py`): modules are named as they are imported, so the registry a file
    imports is in scope from either folder."""
    files = {
        "pkg-1.0/pkg/types/codes.py": 'FAILURE_CODES = ("A_FAILED", "B_FAILED")\n',
        "pkg-1.0/pkg/run.py": '''
            from pkg.types.codes import FAILURE_CODES

            def run(failures):
                failures.add("A_FAILED")
                failures.add("C_FAILED")
            ''',
    }
    project.write(files)
    assert project.findings() == [("pkg-1.0/pkg/run.py", "FC001", 5)]
    # control: the same tree checked from inside the unpacked folder
    assert findings_of(failcode("check", "--format", "json", ".", cwd=project.root / "pkg-1.0")) == \
        [("pkg/run.py", "FC001", 5)]
