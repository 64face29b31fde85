"""`--format sarif`: a SARIF 2.1.0 log for code scanning.

Every document passes the structural checks GitHub code scanning relies on. It is also validated
against the OASIS SARIF 2.1.0 JSON schema when one is available: a path in FAILCODE_SARIF_SCHEMA
(CI points it at its copy). A fresh clone has no schema beside it and must still pass its tests, so
without one `test_schema_validation_is_available` skips and says so, and the structural checks run alone.

Expected findings are those of examples/EXPECTED.md; the harness is copied into a temp dir and
checked from there, so URIs are relative to that dir.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Optional

import jsonschema
import pytest
from conftest import HARNESS_EXPECTED, REPO, failcode, write_tree

from failcode import ruledocs
from failcode.model import Result
from failcode.model import FileError
from failcode.report import sarif
from failcode.version import __version__
from failcode.sourcelines import SourceLines

EXPECTED = set(HARNESS_EXPECTED)
RULE_CODES = ["FC001", "FC002", "FC003", "FC004", "FC005", "FC006", "FC007", "FC008"]


def _schema() -> Optional[dict]:
    """The OASIS schema from FAILCODE_SARIF_SCHEMA, or None when it is not set."""
    where = os.environ.get("FAILCODE_SARIF_SCHEMA")
    return json.loads(Path(where).read_text(encoding="utf-8")) if where else None


SCHEMA = _schema()


def structural(document: dict) -> None:
    """What GitHub code scanning reads from an upload: one run with a named driver, rules with ids,
    results that point at a rule and at a 1-based region of a relative artifact."""
    assert document["version"] == "2.1.0" and document["$schema"].endswith("sarif-2.1.0.json")
    (run,) = document["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "failcode" and driver["version"]
    rules = driver["rules"]
    assert all(rule["id"] and rule["shortDescription"]["text"] for rule in rules)
    assert len({rule["id"] for rule in rules}) == len(rules)
    for entry in run["results"]:
        assert rules[entry["ruleIndex"]]["id"] == entry["ruleId"]
        assert entry["level"] in ("error", "warning", "note")
        assert entry["message"]["text"]
        (location,) = entry["locations"]
        physical = location["physicalLocation"]
        assert physical["artifactLocation"]["uri"]
        region = physical["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
        assert (region.get("endLine", region["startLine"]), region.get("endColumn", region["startColumn"])) >= \
            (region["startLine"], region["startColumn"])
        assert all(isinstance(value, str) and value for value in entry["partialFingerprints"].values())
    for invocation in run["invocations"]:
        assert isinstance(invocation["executionSuccessful"], bool)


def validate(document: dict) -> None:
    structural(document)
    if SCHEMA is not None:
        validator = jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.FormatChecker())
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
        assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


def test_schema_validation_is_available():
    """Says in the test report whether documents were validated against the OASIS schema."""
    if SCHEMA is None:
        pytest.skip("FAILCODE_SARIF_SCHEMA is not set: SARIF output got the structural checks only")
    assert SCHEMA["$schema"].startswith("http://json-schema.org/draft-04/")
    assert "2.1.0" in SCHEMA["title"] or "2.1.0" in SCHEMA.get("id", "")


def test_structural_checks_catch_a_result_without_a_rule():
    """A control for the checks above: they must reject what code scanning would reject."""
    document = {"$schema": sarif.SCHEMA, "version": "2.1.0", "runs": [{
        "tool": {"driver": {"name": "failcode", "version": "1", "rules": [
            {"id": "FC001", "shortDescription": {"text": "x"}}]}},
        "invocations": [], "results": [{"ruleId": "FC009", "ruleIndex": 0, "level": "error",
                                        "message": {"text": "m"}, "locations": [], "partialFingerprints": {}}]}]}
    with pytest.raises(AssertionError):
        structural(document)


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
    fc002 = next(e for e in run["results"] if e["ruleId"] == "FC002"
                 and "reducer" in e["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
    # the `try` keyword of reducer.py:17, indented four spaces: 1-based column 5
    assert fc002["locations"][0]["physicalLocation"]["region"]["startColumn"] == 5
    assert fc002["properties"]["code"] == "EXEC_ARGUMENTS_MISMATCH"
    assert run["invocations"][0]["executionSuccessful"] is True
    assert run["invocations"][0]["toolExecutionNotifications"] == []


def test_driver_describes_every_rule_from_its_page(harness):
    driver = sarif_of(harness, "harness", status=1)["tool"]["driver"]
    assert driver["name"] == "failcode"
    assert driver["version"] == __version__
    # an editable install from a folder: no repository address is known, so none is made up
    assert "informationUri" not in driver
    assert not any("helpUri" in rule for rule in driver["rules"])
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
        return {(e["ruleId"], e["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                 e["partialFingerprints"]["failcode/v1"]): e["locations"][0]["physicalLocation"]["region"]["startLine"]
                for e in run["results"]}

    old, new = prints(before), prints(after)
    assert old.keys() == new.keys()
    # reducer's FC002 moved from 17, same fingerprint
    assert new[next(k for k in new if k[0] == "FC002" and k[1].endswith("reducer.py"))] == 20


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


@pytest.mark.parametrize("direct_url, expected", [
    ({"url": "https://github.com/acme/failcode.git", "vcs_info": {"vcs": "git", "commit_id": "0123abc" * 5}},
     ("https://github.com/acme/failcode", "0123abc" * 5)),
    ({"url": "git+https://gitlab.com/acme/tools/failcode", "vcs_info": {"vcs": "git", "commit_id": "deadbeef"}},
     ("https://gitlab.com/acme/tools/failcode", "deadbeef")),
    ({"url": "file:///home/me/failcode", "dir_info": {"editable": True}}, None),
    ({"url": "https://git.internal.example/failcode.git", "vcs_info": {"vcs": "git", "commit_id": "deadbeef"}}, None),
    ({"url": "https://github.com/acme/failcode.git", "vcs_info": {"vcs": "git", "commit_id": "main"}}, None),
    (None, None),
])
def test_repository_of_a_git_install(direct_url, expected):
    """Where a SARIF viewer can open a rule's page: the repository and commit pip installed
    failcode from (PEP 610's direct_url.json), on a host whose file addresses are known."""
    assert sarif.repository(direct_url) == expected


def test_help_uri_points_at_the_rule_page_at_the_commit():
    repo = ("https://github.com/acme/failcode", "0123abc")
    assert sarif.help_uri(repo, "FC002") == "https://github.com/acme/failcode/blob/0123abc/rules/FC002.md"
    assert sarif.help_uri(("https://gitlab.com/a/b", "0123abc"), "FC001") == \
        "https://gitlab.com/a/b/-/blob/0123abc/rules/FC001.md"
    assert sarif.help_uri(None, "FC002") is None
