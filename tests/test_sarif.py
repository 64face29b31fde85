"""`--format sarif`: a SARIF 2.1.0 log that validates against the OASIS schema, for code scanning.

Expected findings are those of examples/EXPECTED.md; the harness is copied into a temp dir and
checked from there, so URIs are relative to that dir.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
from conftest import HARNESS_EXPECTED, REPO, failcode, write_tree

from failcode import __version__, ruledocs
from failcode.engine import Result
from failcode.model import FileError
from failcode.report import sarif
from failcode.sourcelines import SourceLines

SCHEMA = json.loads((REPO.parent / "shared" / "schemas" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
EXPECTED = set(HARNESS_EXPECTED)
RULE_CODES = ["FC001", "FC002", "FC003", "FC004", "FC005", "FC006", "FC007", "FC008"]


def validate(document: dict) -> None:
    validator = jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.FormatChecker())
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


def sarif_of(tmp_path: Path, *args: str, status: int) -> dict:
    result = failcode("check", "--format", "sarif", *args, cwd=tmp_path)
    assert result.returncode == status, result.stderr
    document = json.loads(result.stdout)
    validate(document)
    assert document["version"] == "2.1.0"
    assert len(document["runs"]) == 1
    return document["runs"][0]


def located(run: dict) -> set[tuple[str, str, int]]:
    found = set()
    for entry in run["results"]:
        location = entry["locations"][0]["physicalLocation"]
        found.add((location["artifactLocation"]["uri"], entry["ruleId"], location["region"]["startLine"]))
    return found


@pytest.fixture
def harness(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "examples" / "harness", tmp_path / "harness")
    return tmp_path


def test_run_with_findings_validates_and_locates_each_finding(harness):
    run = sarif_of(harness, "harness", status=1)
    assert located(run) == EXPECTED
    assert len(run["results"]) == len(EXPECTED)
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == harness.resolve().as_uri() + "/"
    for entry in run["results"]:
        location = entry["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        assert not location["artifactLocation"]["uri"].startswith("/")
        assert location["region"]["startColumn"] >= 1
        assert entry["level"] == "error"
        assert run["tool"]["driver"]["rules"][entry["ruleIndex"]]["id"] == entry["ruleId"]
        assert entry["partialFingerprints"]["failcode/v1"]
    fc002 = next(e for e in run["results"] if e["ruleId"] == "FC002")
    # the `try` keyword of reducer.py:15, indented four spaces: 1-based column 5
    assert fc002["locations"][0]["physicalLocation"]["region"]["startColumn"] == 5
    assert fc002["properties"]["code"] == "EXEC_ARGUMENTS_MISMATCH"
    assert run["invocations"][0]["executionSuccessful"] is True
    assert run["invocations"][0]["toolExecutionNotifications"] == []


def test_driver_describes_every_rule_from_its_page(harness):
    driver = sarif_of(harness, "harness", status=1)["tool"]["driver"]
    assert driver["name"] == "failcode"
    assert driver["version"] == __version__
    assert driver["informationUri"].startswith("https://")
    assert [rule["id"] for rule in driver["rules"]] == RULE_CODES
    for rule in driver["rules"]:
        assert rule["name"] and "-" in rule["name"]
        assert 0 < len(rule["shortDescription"]["text"]) <= 1024
        assert 0 < len(rule["fullDescription"]["text"]) <= 1024
        assert rule["fullDescription"]["text"] == ruledocs.summary_text(rule["id"])
        assert rule["help"]["markdown"] == ruledocs.page(rule["id"])
        assert "\n\n" not in rule["fullDescription"]["text"]  # the first paragraph of `What it does`
        assert ruledocs.page(rule["id"]).startswith(f"# {rule['id']}: ")
        assert rule["defaultConfiguration"]["level"] == "error"
    enabled = {rule["id"]: rule["defaultConfiguration"]["enabled"] for rule in driver["rules"]}
    assert enabled["FC008"] is False and enabled["FC001"] is True


def test_each_rule_page_appears_once_in_the_document(harness):
    """The page is the rule's help (markdown); nothing else, results included, repeats it."""
    result = failcode("check", "--format", "sarif", "harness", cwd=harness)
    assert result.returncode == 1, result.stderr
    for code in RULE_CODES:
        page = json.dumps(ruledocs.page(code))[1:-1]  # as the page's text is escaped inside the document
        assert result.stdout.count(page) == 1, code
        why = json.dumps(ruledocs.sections(code)["Why is this bad?"])[1:-1]
        assert result.stdout.count(why) == 1, code  # only inside the page: no field repeats a section


def test_fingerprints_survive_lines_inserted_above(harness):
    before = sarif_of(harness, "harness", status=1)
    reducer = harness / "harness" / "reducer.py"
    reducer.write_text("# a comment\n\n\n" + reducer.read_text(encoding="utf-8"), encoding="utf-8")
    after = sarif_of(harness, "harness", status=1)

    def prints(run):
        return {(e["ruleId"], e["partialFingerprints"]["failcode/v1"]): e["locations"][0]["physicalLocation"]
                ["region"]["startLine"] for e in run["results"]}

    old, new = prints(before), prints(after)
    assert old.keys() == new.keys()
    assert new[next(k for k in new if k[0] == "FC002")] == 18  # moved from 15, same fingerprint


def test_run_with_an_unparseable_file_reports_a_notification_not_a_result(harness):
    write_tree(harness, {"harness/broken.py": "def broken(:\n    pass\n"})
    run = sarif_of(harness, "harness", status=3)
    assert located(run) == EXPECTED
    notifications = run["invocations"][0]["toolExecutionNotifications"]
    assert len(notifications) == 1
    assert notifications[0]["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "harness/broken.py", "uriBaseId": "%SRCROOT%"}
    assert notifications[0]["descriptor"]["id"] == "unparseable"
    assert notifications[0]["level"] == "error"
    assert run["invocations"][0]["executionSuccessful"] is True  # an input error is not failcode's crash


def test_clean_run_validates_with_no_results(tmp_path):
    shutil.copytree(REPO / "examples" / "harness_fixed", tmp_path / "harness_fixed")
    run = sarif_of(tmp_path, "harness_fixed", status=0)
    assert run["results"] == []
    assert run["invocations"][0]["executionSuccessful"] is True
    assert [rule["id"] for rule in run["tool"]["driver"]["rules"]] == RULE_CODES


def test_warning_severity_sets_result_level(harness):
    run = sarif_of(harness, "harness", "--severity", "warning", status=1)
    assert {entry["level"] for entry in run["results"]} == {"warning"}


def test_internal_error_marks_execution_unsuccessful():
    crashed = FileError("pkg/a.py", "internal", "rule FC001 (unregistered-code) crashed: KeyError: 'x'")
    document = json.loads(sarif.render(Result(errors=[crashed], files=1), SourceLines()))
    validate(document)
    invocation = document["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    assert "FC001" in invocation["toolExecutionNotifications"][0]["message"]["text"]
    assert document["runs"][0]["results"] == []


def test_long_description_is_cut_under_the_limit_at_a_word():
    text = "stage " * 300
    cut = sarif._limited(text)
    assert len(cut) <= 1024
    assert cut.endswith("stage…")
