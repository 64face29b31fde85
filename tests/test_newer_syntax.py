"""Files in syntax newer than the Python failcode runs on (3.12 f-strings and type parameters,
3.14 t-strings and `except A, B:`, checked here on 3.11) are checked fully or reported: their
outcome facts are those of the same code written for 3.9, laid out on the same lines and columns."""

from __future__ import annotations

import ast
import sys

import pytest

import libcst as cst
from libcst.metadata import MetadataWrapper

from failcode.config import Settings
from failcode.facts import downgrade, extract_file

NEWER = sys.version_info < (3, 12)  # the rewrite is what this test exercises
pytestmark = pytest.mark.skipif(not NEWER, reason="this Python parses the newer syntax itself")

# (newer syntax, the same program for 3.9 with every line and column in place)
PAIRS = {
    "pep701_fstring_quotes": (
        '''
import json


def grade(answer, gold_path):
    try:
        parsed = json.loads(answer)
        label = f"{parsed["label"]}"
        gold = json.loads(open(gold_path).read())
    except Exception:
        return 0.0
    if label == gold["label"]:
        return 1.0
    return 0.0
''',
        '''
import json


def grade(answer, gold_path):
    try:
        parsed = json.loads(answer)
        label = f"{parsed['label']}"
        gold = json.loads(open(gold_path).read())
    except Exception:
        return 0.0
    if label == gold["label"]:
        return 1.0
    return 0.0
'''),
    "pep695_type_parameters": (
        '''
class Judge[T]:
    def verdict[R](self, client, prompt: T) -> R:
        try:
            reply = client.complete(prompt)
            self.check(reply)
        except Exception:
            self.failures.append("PROVIDER_FAILED")
            return "no"
        return "yes" if reply.text == "yes" else "no"
''',
        '''
class Judge   :
    def verdict   (self, client, prompt: T) -> R:
        try:
            reply = client.complete(prompt)
            self.check(reply)
        except Exception:
            self.failures.append("PROVIDER_FAILED")
            return "no"
        return "yes" if reply.text == "yes" else "no"
'''),
    "pep758_except_list_and_multiline_fstring": (
        '''
def score(result, expected):
    passed = False
    try:
        value = float(result["score"])
        note = f"""{
            value  # the parsed score
        }"""
        passed = value >= expected
    except ValueError, KeyError:
        pass
    return passed
''',
        '''
def score(result, expected):
    passed = False
    try:
        value = float(result["score"])
        note = f"""{
            value
        }"""
        passed = value >= expected
    except(ValueError,KeyError):
        pass
    return passed
'''),
    "pep750_template_and_type_alias": (
        '''
type Verdict = str


def check(reply, gold):
    try:
        text = t"{reply["answer"]}"
        ok = reply["answer"] == gold
    except KeyError:
        ok = False
    return ok
''',
        '''
Verdict      = str


def check(reply, gold):
    try:
        text = f"{reply['answer']}"
        ok = reply["answer"] == gold
    except KeyError:
        ok = False
    return ok
'''),
}


def _facts(source: str):
    return extract_file(source.lstrip("\n").encode(), "m.py", "m", False, Settings())


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_newer_syntax_gives_the_facts_of_its_older_twin(name):
    newer, older = PAIRS[name]
    with pytest.raises(SyntaxError):
        ast.parse(newer)  # the running Python cannot read it: the case under test
    new, old = _facts(newer), _facts(older)
    assert old.writes or old.blames, "the twin must have outcome facts for the test to mean anything"
    assert (new.writes, new.blames) == (old.writes, old.blames)


def test_every_pair_keeps_its_layout():
    """The twins are the same program on the same lines: only the newer constructs differ."""
    for newer, older in PAIRS.values():
        assert newer.count("\n") == older.count("\n")


@pytest.mark.parametrize("source", [
    'f"a{d!r:>{w}} {y=} b{{c}}"', 'rf"\\d{n}\\n" "tail" f"{m=:>4}"', 'f"""{\n  v\n}"""', "f'{a}' f\"{b!s}\"",
    'f"{x:{w}.{p}f}"', "'plain' f'{v!a}' 'end'", 'f"{ n = !s:^9}"',
])
def test_a_rebuilt_fstring_is_the_joined_string_ast_builds(source):
    """The builder, on f-strings this Python parses too: its JoinedStr equals ast's own."""
    wrapper = MetadataWrapper(cst.parse_module(f"x = {source}\n"), unsafe_skip_copy=True)
    node = wrapper.module.body[0].body[0].value
    built = downgrade._Rewrite(wrapper, f"x = {source}\n")._joined(node)
    assert ast.dump(built) == ast.dump(ast.parse(f"x = {source}\n").body[0].value)


def test_a_construct_that_cannot_be_rewritten_is_reported(project):
    project.write({"m.py": "def grade[\n    T,\n](answer: T) -> float:\n    return 0.0\n", "ok.py": "x = 1\n"})
    result = project.run("check")
    assert result.returncode == 3
    line = result.stderr.strip()
    assert line.startswith("m.py:") and " E999 SyntaxError: Python 3." in line and "cannot parse this syntax" in line
    assert "1 file checked" in result.stdout


def test_findings_in_newer_syntax_are_reported(project):
    """Through the CLI: the 3.12 file reports what its 3.9 twin reports."""
    newer, older = PAIRS["pep701_fstring_quotes"]
    project.write({"new/grade.py": newer, "old/grade.py": older})
    found = project.findings()
    assert found and sorted((rule, line) for path, rule, line in found if path.startswith("new/")) == \
        sorted((rule, line) for path, rule, line in found if path.startswith("old/"))
