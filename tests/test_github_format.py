"""`--format github`: one workflow command per finding, escaped so the checked code cannot inject
a command of its own (a file name or message carrying a newline, `%` or `::`)."""

from __future__ import annotations

import re
import shutil

from conftest import REPO, failcode, write_tree

from failcode.report.github import escape_data, escape_property

# A file name that tries everything: a literal escape sequence, property separators, a newline
# followed by a command of its own.
HOSTILE = "evil%0A,x::y\n::warning file=z::pwned.py"
SOURCE = """
FAILURE_CODES = ("PARSE_FAILED", "PROVIDER_FAILED")


def grade(call, answer, failures):
    if answer is None:
        failures.add("PARSE_FAILED")
    failures.add("ANSWER_WRONG")
    try:
        reply = call()
        answer = reply.strip()
    except Exception:
        failures.add("PROVIDER_FAILED")
"""
COMMAND = re.compile(r"^::(?P<level>error|warning) (?P<properties>[^:]*)::(?P<message>.*)$")


def unescape(text: str) -> str:
    table = {"%25": "%", "%0D": "\r", "%0A": "\n", "%3A": ":", "%2C": ","}
    return re.sub(r"%(25|0D|0A|3A|2C)", lambda m: table[m.group(0)], text)


def commands(stdout: str) -> list[dict]:
    """Parse annotation lines; every other line must not look like a workflow command."""
    found = []
    for line in stdout.split("\n"):
        match = COMMAND.match(line)
        if match is None:
            assert not line.startswith("::"), line
            continue
        properties = dict(item.split("=", 1) for item in match["properties"].split(","))
        found.append({"level": match["level"], "message": unescape(match["message"]),
                      **{key: unescape(value) for key, value in properties.items()}})
    return found


def test_escape_data():
    assert escape_data("50% done\r\n::error::x") == "50%25 done%0D%0A::error::x"
    assert escape_data("%0A") == "%250A"  # a literal escape stays literal


def test_escape_property():
    assert escape_property("a:b,c%d\ne") == "a%3Ab%2Cc%25d%0Ae"
    assert escape_property("::warning file=x::y") == "%3A%3Awarning file=x%3A%3Ay"


def test_hostile_file_name_cannot_start_a_command(tmp_path):
    write_tree(tmp_path, {HOSTILE: SOURCE})
    result = failcode("check", "--format", "github", ".", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert not any(line.startswith("::warning") for line in lines)
    annotations = commands(result.stdout)
    assert len(annotations) + 1 == len(lines)  # the annotations and the summary line, nothing else
    assert [(a["level"], a["file"], a["line"], a["col"], a["title"]) for a in annotations] == [
        ("error", HOSTILE, "7", "18", "failcode FC001"),  # "ANSWER_WRONG" is not in FAILURE_CODES
        ("error", HOSTILE, "11", "5", "failcode FC006"),  # `except` blames a provider
    ]
    fc001 = annotations[0]["message"]
    assert "ANSWER_WRONG" in fc001 and f"FAILURE_CODES ({HOSTILE}:1)" in fc001  # the message quotes the name
    assert "\n" not in COMMAND.match(lines[0])["message"]


def test_unparseable_file_is_an_error_annotation(tmp_path):
    write_tree(tmp_path, {"bad, name.py": "def broken(:\n"})
    result = failcode("check", "--format", "github", ".", cwd=tmp_path)
    assert result.returncode == 3, result.stderr
    [annotation] = commands(result.stdout)
    assert annotation["level"] == "error"
    assert annotation["file"] == "bad, name.py"
    assert annotation["title"] == "failcode unparseable error"
    assert (annotation["line"], annotation["col"]) == ("1", "12")  # the `:` Python stops at


def test_severity_warning(tmp_path):
    shutil.copytree(REPO / "examples" / "harness", tmp_path / "harness")
    result = failcode("check", "--format", "github", "--severity", "warning", "harness", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    annotations = commands(result.stdout)
    assert len(annotations) == 12  # examples/EXPECTED.md
    assert {a["level"] for a in annotations} == {"warning"}
    assert ("harness/reducer.py", "17", "5", "failcode FC002") in {
        (a["file"], a["line"], a["col"], a["title"]) for a in annotations}
