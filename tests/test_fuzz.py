"""Fuzzing: no program, valid or mangled, makes failcode crash (exit 4) or answer differently twice.

Three sources of input:
- `hypothesmith.from_grammar()`: programs Python's grammar generates, with names no test would pick;
- programs assembled from the shapes failcode looks for (try/except around stage calls, sinks,
  registries, filters), so the generated code actually reaches every rule;
- the real files of `examples/` truncated and garbled with fixed seeds, checked in-process and by the
  CLI, which must exit 0, 1 or 3 (clean, findings, input error), never 4, never with a traceback.
Every input also goes through the pre-screen's differential guard (tests/differential.py): a file
the screen keeps from LibCST must get exactly the facts full extraction gives it.

The number of generated examples is small in CI (30); set FAILCODE_FUZZ_EXAMPLES for a longer run.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

import hypothesmith
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, failcode
from test_real_packages import INPUT_KINDS
from failcode import engine
from failcode.config import Settings
from differential import assert_screen_sound
from failcode.facts.extract import extract
from failcode.facts.source import InputError

EXAMPLES = int(os.environ.get("FAILCODE_FUZZ_EXAMPLES", "30"))
# In-process checks raise the limit as the engine does; raised up front, Hypothesis need not warn.
sys.setrecursionlimit(max(sys.getrecursionlimit(), engine.RECURSION_LIMIT))
EVERY_RULE = engine.Options(select=("ALL",), use_cache=False, jobs=1)
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))
SOURCES = sorted((REPO / "examples").rglob("*.py"))


def _check_in_process(data: bytes, root: Path, name: str = "fuzzed.py") -> engine.Result:
    """All rules over `data` twice: no internal error, and the same answer both times."""
    config = Settings(root=root)
    first = engine.run_source(data, root / name, config, EVERY_RULE)
    second = engine.run_source(data, root / name, config, EVERY_RULE)
    internal = [error for error in first.errors if error.kind not in INPUT_KINDS]
    assert not internal, (internal, data[:2000])
    assert (first.findings, first.errors) == (second.findings, second.errors)
    return first


def _extract_twice(data: bytes) -> None:
    """`facts.extract.extract` itself: InputError or facts, and the same facts twice; and the
    pre-screen loses none of them."""
    assert_screen_sound([("fuzzed.py", data)], Settings())
    try:
        first = extract(data, "fuzzed.py", "fuzzed", False, Settings())
    except InputError as error:
        assert error.kind in INPUT_KINDS
        return
    assert extract(data, "fuzzed.py", "fuzzed", False, Settings()) == first


@pytest.mark.filterwarnings("ignore::SyntaxWarning")  # hypothesmith compiles what it generates
@FUZZ
@given(source=hypothesmith.from_grammar())
def test_grammar_generated_programs(source, tmp_path_factory):
    data = source.encode("utf-8", "surrogatepass")
    _extract_twice(data)
    _check_in_process(data, tmp_path_factory.mktemp("grammar"))


# -- programs made of the shapes failcode judges -------------------------------------------------------

_CODES = st.sampled_from(["PARSE_FAILED", "PROVIDER_FAILED", "COMPARE_FAILED", "EXEC_TOOL_MISMATCH",
                          "INTERNAL_ERROR", "MODEL_TIMEOUT", "ok", "guardrail_failed", "A_B"])
_NAMES = st.sampled_from(["failures", "reasons", "errors", "self.failures", "run.status", "out", "codes",
                          "report['failures']", "status"])
_CALLS = st.sampled_from(["json.loads(raw)", "open(path).read()", "validate(doc)", "canonical(a)",
                          "compare(a, b)", "client.call()", "parse_thing(x)", "requests.get(url)",
                          "x.model_validate(d)", "digest(a) == digest(b)", "helper()"])
_HANDLERS = st.sampled_from(["Exception", "BaseException", "ValueError", "(KeyError, TypeError)",
                             "json.JSONDecodeError", "TimeoutError", ""])


@st.composite
def _statement(draw, depth: int = 0) -> list[str]:
    kind = draw(st.sampled_from(["record", "assign", "try", "return", "filter", "if", "for", "raise"]
                                if depth < 3 else ["record", "assign", "return"]))
    name, code, call = draw(_NAMES), draw(_CODES), draw(_CALLS)
    if kind == "record":
        method = draw(st.sampled_from(["add", "append", "extend", "update", "insert", "put", "discard"]))
        argument = {"extend": f"[{code!r}]", "update": f"{{{code!r}}}", "insert": f"0, {code!r}"}.get(method, repr(code))
        return [f"{name}.{method}({argument})"]
    if kind == "assign":
        return [draw(st.sampled_from([f"{name} = {code!r}", f"result = Outcome(status={code!r})",
                                      f"x = {call}", f"report(reason={code!r}, code=FailureCode.{code})"]))]
    if kind == "return":
        return [draw(st.sampled_from([f"return {code!r}", "return None", f"return {call}"]))]
    if kind == "filter":
        return [draw(st.sampled_from([f"kept = [r for r in {name} if r in FAILURE_ORDER]",
                                      f"kept = set({name}) & set(FAILURE_CODES)",
                                      f"kept = list(filter(FAILURE_ORDER.__contains__, {name}))"]))]
    if kind == "raise":
        return [f"raise RuntimeError({code!r})"]
    inner = [line for _ in range(draw(st.integers(1, 3))) for line in draw(_statement(depth + 1))]
    if kind == "if":
        return [f"if {name} == {code!r}:", *("    " + line for line in inner)]
    if kind == "for":
        return [f"for r in {name}:", *("    " + line for line in inner)]
    handlers = []
    for _ in range(draw(st.integers(1, 2))):
        caught = draw(_HANDLERS)
        body = [line for _ in range(draw(st.integers(1, 2))) for line in draw(_statement(depth + 1))]
        if draw(st.booleans()):
            body.append(draw(st.sampled_from(["raise", "raise Wrapped() from exc", "pass"])))
        handlers += [f"except {caught} as exc:" if caught else "except:", *("    " + line for line in body)]
    return ["try:", f"    x = {call}", *("    " + line for line in inner), *handlers]


@st.composite
def _program(draw) -> str:
    lines = ["import json", "from enum import Enum", ""]
    if draw(st.booleans()):
        codes = draw(st.lists(_CODES, min_size=1, max_size=5))
        lines += [f"FAILURE_CODES = {codes!r}", f"FAILURE_ORDER = {tuple(draw(st.permutations(codes)))!r}", ""]
    if draw(st.booleans()):
        lines += ["class FailureCode(Enum):", *(f"    {c.upper()} = {c!r}" for c in draw(st.lists(_CODES, min_size=1,
                                                                                                  max_size=4))), ""]
    for index in range(draw(st.integers(1, 3))):
        lines.append(f"def step_{index}(failures, raw, path, doc, a, b, client):")
        lines += ["    " + line for _ in range(draw(st.integers(1, 4))) for line in draw(_statement())]
        lines.append("")
    return "\n".join(lines) + "\n"


@FUZZ
@given(source=_program())
def test_programs_of_failcode_shapes(source, tmp_path_factory):
    data = source.encode()
    _extract_twice(data)
    _check_in_process(data, tmp_path_factory.mktemp("shapes"))


# -- real files, mangled ---------------------------------------------------------------------------------

_NOISE = [b"(", b")", b"[", b"]", b"{", b"}", b":", b"'", b'"', b'"""', b"\n", b"\t", b"    ", b"\\",
          b"#", b"\x00", b"\xff", b"\xc3", b"\r", b"except", b"try:", b"lambda", b"\xef\xbb\xbf", b"f'{"]


def _mutate(data: bytes, rng: random.Random) -> bytes:
    """Truncate, cut, duplicate, shuffle lines or insert noise, once or a few times."""
    for _ in range(rng.randint(1, 3)):
        if not data:
            return data
        at = rng.randrange(len(data))
        end = min(len(data), at + rng.randint(1, 200))
        operation = rng.randrange(5)
        if operation == 0:
            data = data[:at]
        elif operation == 1:
            data = data[:at] + data[end:]
        elif operation == 2:
            data = data[:end] + data[at:]
        elif operation == 3:
            lines = data.split(b"\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
        else:
            data = data[:at] + rng.choice(_NOISE) + data[at:]
    return data


def _mutants(count: int) -> list[tuple[str, bytes]]:
    out = []
    for seed in range(count):
        rng = random.Random(seed)
        source = SOURCES[seed % len(SOURCES)]
        out.append((f"m{seed:03d}_{source.parent.name}_{source.name}", _mutate(source.read_bytes(), rng)))
    return out


def test_mutated_examples_in_process(tmp_path):
    assert len(SOURCES) >= 10
    kinds = set()
    for name, data in _mutants(max(60, EXAMPLES * 2)):
        _extract_twice(data)
        result = _check_in_process(data, tmp_path, name)
        kinds |= {error.kind for error in result.errors}
    assert "unparseable" in kinds  # the mutations do produce broken input, so the test means something


def test_mutated_examples_cli(tmp_path):
    """One CLI run over a tree of mutants beside the originals: exit 0, 1 or 3, no internal error."""
    for name, data in _mutants(max(40, EXAMPLES)):
        (tmp_path / name).write_bytes(data)
    for source in SOURCES:
        (tmp_path / f"orig_{source.parent.name}_{source.name}").write_bytes(source.read_bytes())
    result = failcode("check", "--format", "json", "--extend-select", "FC008", ".", cwd=tmp_path)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode in (0, 1, 3), (result.returncode, result.stderr)
    document = json.loads(result.stdout)
    assert {error["kind"] for error in document["errors"]} <= INPUT_KINDS, document["errors"]
    # files checked: every file but those that could not be
    assert document["summary"]["files"] == len(list(tmp_path.glob("*.py"))) - len(document["errors"])
    assert result.returncode == (3 if document["errors"] else 1 if document["findings"] else 0)
    assert any(f["path"].startswith("orig_harness_") for f in document["findings"])  # originals still judged

