"""Registries as a newcomer writes them, through the real CLI on temp projects (issue 24, items 1-5):
one-word members, collections derived from a registry, plain scripts importing their siblings,
FC005 naming only registries of the same project, and defaults stored under a dict key. Expected
(path, rule, line) come from the contract: FC001 at the recorded code, FC004 at the filtering
expression, FC005 at the registry's definition, FC003 at the handler."""

from __future__ import annotations

import json

import pytest

from conftest import failcode, findings_of

CODES = 'FAILURE_CODES = ("PARSE_FAILED", "ANSWER_MISMATCH", "TIMEOUT")\n'
GRADE = '''
from harness.codes import FAILURE_CODES


def grade(failures, answer, gold):
    if answer != gold:
        failures.add("ANSWER_MISMACTH")
    if answer is None:
        failures.add("TIMEOUT")


def report(reasons):
    return [r for r in reasons if r in FAILURE_CODES]
'''


# -- item 1: a one-word member ---------------------------------------------------------------------

@pytest.fixture
def one_word(project):
    return project.write({"harness/__init__.py": "", "harness/codes.py": CODES, "harness/grade.py": GRADE})


def test_a_one_word_member_keeps_the_registry(one_word):
    listed = json.loads(one_word.run("registry", "--format", "json").stdout)["registries"]
    assert [(r["name"], r["codes"]) for r in listed] == [
        ("FAILURE_CODES", ["PARSE_FAILED", "ANSWER_MISMATCH", "TIMEOUT"])]
    # the typo is reported against it, the one-word member is registered, the filter drops unknowns
    assert one_word.findings() == [("harness/grade.py", "FC001", 6), ("harness/grade.py", "FC004", 12)]


def test_a_list_of_plain_words_is_still_no_registry(project):
    """Control: words alone (`("yes", "NO")` of mixed case, or one word each) are no list of codes."""
    project.write({"codes.py": 'STATUS_CODES = ("OK", "DONE")\n', "run.py": "from codes import STATUS_CODES\n"})
    assert "No registries found." in project.run("registry").stdout


# -- item 2: collections derived from a registry or imported ----------------------------------------

DERIVED = {
    "pkg/__init__.py": "",
    "pkg/codes.py": '''
from enum import Enum


class FailureCode(str, Enum):
    PARSE_FAILED = "PARSE_FAILED"
    ANSWER_MISMATCH = "ANSWER_MISMATCH"


FAILURE_CODES = ("PARSE_FAILED", "ANSWER_MISMATCH")
ORDER = ("PARSE_FAILED", "ANSWER_MISMATCH")
''',
    "pkg/report.py": '''
from pkg.codes import FAILURE_CODES, ORDER, FailureCode

KNOWN = {c.value for c in FailureCode}
MEMBERS = frozenset(FailureCode)
NAMES = set(FailureCode.__members__)
VALUES = FailureCode._value2member_map_
FROZEN = frozenset(FAILURE_CODES)


def by_values(reasons):
    return [r for r in reasons if r in KNOWN]


def by_members(reasons):
    return [r for r in reasons if r in MEMBERS]


def by_names(reasons):
    return [r for r in reasons if r in NAMES]


def by_value_map(reasons):
    return [r for r in reasons if r in VALUES]


def by_frozen(reasons):
    return [r for r in reasons if r in FROZEN]


def by_imported_tuple(reasons):
    return [r for r in reasons if r in ORDER]


def keeps_unknown(reasons):
    return [r if r in KNOWN else "UNKNOWN_FAILURE" for r in reasons]
''',
}


def test_a_filter_against_a_derived_or_imported_collection(project):
    project.write(DERIVED)
    source = DERIVED["pkg/report.py"].lstrip("\n").splitlines()
    expected = [("pkg/report.py", "FC004", number) for number, line in enumerate(source, 1)
                if line.strip().startswith("return [r for r in reasons if r in")]
    assert len(expected) == 6
    assert project.findings() == expected  # keeps_unknown keeps them: quiet


# -- item 3: plain scripts import their siblings, whatever path is given ---------------------------

SCRIPTS = {
    "en4/codes.py": '''
from enum import Enum


class FailureCode(str, Enum):
    PARSE_FAILED = "PARSE_FAILED"
    ANSWER_MISMATCH = "ANSWER_MISMATCH"
''',
    "en4/grader.py": '''
import json

from codes import FailureCode


def grade(failures, raw, gold):
    try:
        answer = json.loads(raw)
    except ValueError:
        failures.append(FailureCode.PARSE_FAILED)
        return
    if answer != gold:
        failures.append(FailureCode.ANSWER_MISMACH)
    failures.append("TOOL_MISMATCH")
''',
}


@pytest.mark.parametrize("args, cwd, prefix", [
    (("en4",), "", "en4/"), ((".",), "en4", ""), (("en4/grader.py",), "", "en4/"), (("grader.py",), "en4", ""),
])
def test_plain_scripts_report_the_same_whatever_path(project, args, cwd, prefix):
    project.write(SCRIPTS)
    result = failcode("check", "--format", "json", *args, cwd=project.root / cwd)
    assert sorted(findings_of(result)) == [(f"{prefix}grader.py", "FC001", 13), (f"{prefix}grader.py", "FC001", 14)]


# -- item 4: FC005 names only registries of the same project ----------------------------------------

def test_fc005_compares_only_registries_of_one_project(project):
    project.write({
        "tool_a/__init__.py": "", "tool_a/codes.py": 'FAILURE_CODES = ("A_FAILED", "B_FAILED", "C_FAILED")\n',
        "tool_a/order.py": 'FAILURE_ORDER = ("A_FAILED", "B_FAILED")\n\n\ndef rank(code):\n    return FAILURE_ORDER.index(code)\n',
        "tool_b/__init__.py": "", "tool_b/codes.py": 'FAILURE_CODES = ("A_FAILED", "B_FAILED", "D_FAILED")\n',
    })
    result = project.run("check", "--format", "json")
    rows = json.loads(result.stdout)["findings"]
    assert [(r["path"], r["rule"], r["line"]) for r in rows] == [("tool_a/order.py", "FC005", 1)]
    assert "tool_a/codes.py" in rows[0]["message"] and "tool_b" not in rows[0]["message"]


# -- item 5: a default stored under a dict key ------------------------------------------------------

DICT_DEFAULTS = '''
def grade_dict(client, prompt, gold):
    result = {"passed": False}
    try:
        reply = client.complete(prompt)
        result["passed"] = reply.text.strip() == gold
    except Exception:
        pass
    return result


def grade_key(client, prompt, gold):
    result = {}
    result["passed"] = False
    try:
        reply = client.complete(prompt)
        result["passed"] = reply.text.strip() == gold
    except Exception:
        pass
    return result


def says_it_failed(client, prompt, gold):
    result = {"passed": False}
    try:
        reply = client.complete(prompt)
        result["passed"] = reply.text.strip() == gold
    except Exception:
        result["passed"] = None
    return result
'''


def test_a_default_under_a_dict_key_left_standing(project):
    project.write({"g.py": DICT_DEFAULTS})
    source = DICT_DEFAULTS.lstrip("\n").splitlines()
    handlers = [number for number, line in enumerate(source, 1) if line.strip() == "except Exception:"]
    assert project.findings() == [("g.py", "FC003", handlers[0]), ("g.py", "FC003", handlers[1])]


def test_collections_made_from_each_other_end(project):
    """Control: two constants made from each other name no registry, and failcode says so rather
    than following them for ever."""
    project.write({"m.py": "A = frozenset(B)\nB = frozenset(A)\n\n\ndef f(reasons):\n    return [r for r in reasons if r in A]\n"})
    assert project.findings() == []
