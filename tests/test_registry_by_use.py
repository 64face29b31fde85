"""Registries found by use (issue 12, item 1): a `Literal[...]` alias whose name has no registry word
(`Grade = Literal["correct", "incorrect"]`) is a registry once a function is typed to return it (`-> Grade`)
or a name is typed with it (`result: Grade = …`); unused, or used only for a parameter, it is one
more type, and judges nothing."""

from __future__ import annotations

GRADE = '''
    from typing import Literal

    Grade = Literal["correct", "incorrect", "skipped"]
    '''


def test_a_return_typed_with_a_plain_literal_alias_is_judged_by_it(project):
    project.write({"grader.py": GRADE + '''

    def grade(answer: str, expected: str) -> Grade:
        if not answer:
            return "no_answer"
        if answer == expected:
            return "correct"
        return "incorect"
    '''})
    result = project.run("check", "grader.py")
    assert result.returncode == 1, result.stderr
    assert "grader.py:8:" in result.stdout and "grader.py:11:" in result.stdout
    assert "did you mean incorrect?" in result.stdout
    assert project.findings() == [("grader.py", "FC001", 8), ("grader.py", "FC001", 11)]


def test_the_alias_imported_from_another_module_judges_the_returns(project):
    """Checked alone (pre-commit passes only the changed file), the grader still sees the type."""
    project.write({"pkg/__init__.py": "", "pkg/kinds.py": GRADE, "pkg/grader.py": '''
        from pkg.kinds import Grade


        def grade(answer, expected) -> Grade:
            if answer == expected:
                return "correct"
            return "wrong"


        def verdict(answer, expected):
            result: Grade = "correct" if answer == expected else "incorrect"
            outcome: Grade = "timeout"
            return result, outcome
        '''})
    expected = [("pkg/grader.py", "FC001", 7), ("pkg/grader.py", "FC001", 12)]
    assert project.findings() == expected
    assert project.findings("pkg/grader.py") == expected


def test_an_alias_used_only_for_parameters_or_not_at_all_judges_nothing(project):
    """`Mode = Literal["r", "w"]` for an argument, and a list of words nothing is typed with, are
    types, not registries: the failures that share their words stay unjudged, and no FC008."""
    project.write({"pyproject.toml": '[tool.failcode]\nextend-select = ["FC008"]\n', "io_modes.py": '''
        from typing import Literal

        Mode = Literal["read", "write"]
        Color = Literal["red", "green"]


        def open_file(path, mode: Mode = "read"):
            failures = []
            if mode == "write" and path.exists():
                failures.append("exists")
            return failures


        def label(ok) -> str:
            return "green" if ok else "amber"
        '''})
    assert project.findings() == []


def test_returns_that_stay_in_the_alias_and_other_packages_types_are_quiet(project):
    """A control for the rule: members only are fine; a type of the same name from another package
    is not this project's registry."""
    project.write({"grader.py": GRADE + '''
    from anthropic.types import StopReason


    def grade(answer: str, expected: str) -> Grade:
        if answer is None:
            return "skipped"
        return "correct" if answer == expected else "incorrect"


    def stop(reply) -> StopReason:
        if reply.truncated:
            return "max_tokens"
        return "end_turn"
    '''})
    assert project.findings() == []


def test_a_registry_found_by_use_is_not_checked_for_unused_codes(project):
    """inspect-ai's `CancelStamp = Literal["abort", "score", "error", "drain"]`: a typed name records
    "abort" and passes the others through a variable, so FC008 ("recorded nowhere") would misread a
    type as a list of codes. A registry found by name still gets FC008 (the control)."""
    project.write({"pyproject.toml": '[tool.failcode]\nextend-select = ["FC008"]\n', "cancel.py": '''
        from typing import Literal

        Stamp = Literal["abort", "score", "error"]
        FAILURE_CODES = ("READ_FAILED", "ANSWER_MISMATCH")


        def stamp_of(action: str, failures) -> Stamp:
            failures.add("READ_FAILED")
            if action == "cancel":
                return "abort"
            return action
        '''})
    assert project.findings() == [("cancel.py", "FC008", 4)]


def test_a_constant_collection_of_codes_that_a_filter_pairs_with_reasons(project):
    """Issue 12, Missed: `[c for c in ORDER if c in failures]`, the FC004 page's shape over a
    registry whose name has no failure word. A filter that pairs a constant collection of codes with
    recorded reasons makes it their registry, in the modules that define or import it: the filter
    drops unknown codes (FC004) and a slip beside it is unregistered (FC001). Quiet: a collection
    filtered against something that holds no reasons (`models`)."""
    project.write({"pkg/__init__.py": "", "pkg/order.py": '''
        ORDER = ("READ_FAILED", "ANSWER_MISMATCH")
        SUPPORTED = ("GPT_4", "GPT_5")


        def report(failures):
            return [c for c in ORDER if c in failures]


        def usable(models):
            return [m for m in models if m in SUPPORTED]
        ''', "pkg/grade.py": '''
        from pkg.order import ORDER


        def grade(answer, expected, failures):
            if answer != expected:
                failures.add("ANSWER_MISMACTH")
            return [r for r in failures if r in ORDER]
        '''})
    assert project.findings() == [("pkg/grade.py", "FC001", 6), ("pkg/grade.py", "FC004", 7),
                                  ("pkg/order.py", "FC004", 6)]
    result = project.run("check", "pkg/grade.py")
    assert "did you mean ANSWER_MISMATCH?" in result.stdout, result.stdout
