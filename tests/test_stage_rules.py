"""FC002 stage-spanning-try, FC003 fallback-reuses-outcome, FC006 catch-all-blames-party.

Lines are where the contract reports: FC002 at `try`, FC003 at the handler's recording site,
FC006 at `except`."""

from __future__ import annotations

import json

import pytest

# -- FC002 ---------------------------------------------------------------------------------------

REDUCER = '''
import json


def canonical_json_bytes(value):
    return json.dumps(value, sort_keys=True).encode()


def parse_strict_json(text):
    return json.loads(text)


def reduce_call(expected, call, failures):
    try:
        arguments = parse_strict_json(call["arguments"])
        if canonical_json_bytes(arguments) != canonical_json_bytes(expected):
            failures.add("EXEC_ARGUMENTS_MISMATCH")
    except Exception:
        failures.add("EXEC_ARGUMENTS_INVALID")
'''

REDUCER_FIXED = '''
import json


def canonical_json_bytes(value):
    return json.dumps(value, sort_keys=True).encode()


def parse_strict_json(text):
    return json.loads(text)


def reduce_call(expected, call, failures):
    try:
        arguments = parse_strict_json(call["arguments"])
    except Exception:
        failures.add("ARGUMENTS_INVALID")
        return
    try:
        if canonical_json_bytes(arguments) != canonical_json_bytes(expected):
            failures.add("EXEC_ARGUMENTS_MISMATCH")
    except Exception:
        failures.add("COMPARE_FAILED")
'''


def test_fc002_classic_reducer(project):
    project.write({"reducer.py": REDUCER})
    result = project.run("check", "--select", "FC002")
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == (
        "reducer.py:13:5: FC002 try spans read (parse_strict_json, line 14) and compare "
        "(canonical_json_bytes, line 15); its handler records EXEC_ARGUMENTS_INVALID for both — "
        "split the try so each stage gets its own code"
    )


def test_fc002_fixed_reducer_is_quiet(project):
    project.write({"reducer.py": REDUCER_FIXED})
    assert project.findings() == []


def _one_try(body: str, handler: str) -> str:
    return (
        "import json\n\n\ndef run(text, expected, failures):\n    try:\n"
        + "".join(f"        {line}\n" for line in body.splitlines())
        + "".join(f"    {line}\n" for line in handler.splitlines())
    )


SPANNING = "data = json.loads(text)\nif compare_answers(data, expected):\n    failures.add('ANSWER_WRONG')"


@pytest.mark.parametrize("handler", [
    "except Exception:\n    failures.add('EVAL_FAILED')",
    "except:\n    failures.add('EVAL_FAILED')",
    "except (ValueError, KeyError):\n    failures.add('EVAL_FAILED')",
    "except Exception as exc:\n    failures.add('EVAL_FAILED')\nexcept BaseException:\n    failures.add('EVAL_FAILED')",
])
def test_fc002_fires_for_unspecific_handlers(project, handler):
    project.write({"a.py": _one_try(SPANNING, handler)})
    assert ("a.py", "FC002", 5) in project.findings()


@pytest.mark.parametrize("body,handler", [
    # stage-specific handler
    (SPANNING, "except json.JSONDecodeError:\n    failures.add('EVAL_FAILED')"),
    # re-raising handlers
    (SPANNING, "except Exception:\n    failures.add('EVAL_FAILED')\n    raise"),
    (SPANNING, "except Exception as exc:\n    raise RuntimeError('EVAL_FAILED') from exc"),
    # records nothing
    (SPANNING, "except Exception:\n    log.warning('oops')"),
    # different handlers record different codes
    (SPANNING, "except ValueError:\n    failures.add('ARGS_INVALID')\nexcept Exception:\n    failures.add('COMPARE_FAILED')"),
    # two stages inside one expression are one step (litellm's redaction, held out)
    ("data = validate_schema(json.loads(text))", "except (TypeError, ValueError):\n    failures.add('EVAL_FAILED')"),
    # one stage only (the seed fix): open + parse are both read
    ("with open(text) as fh:\n    data = json.load(fh)", "except Exception:\n    failures.add('ARGS_INVALID')"),
])
def test_fc002_quiet_cases(project, body, handler):
    project.write({"a.py": _one_try(body, handler)})
    assert [f for f in project.findings() if f[1] == "FC002"] == []


_OUTCOMES = "import enum\n\n\nclass VerificationOutcome(enum.Enum):\n    SUCCESS = 'success'\n    FAILURE = 'failure'\n" \
    "    ERROR = 'error'\n\n\n"


@pytest.mark.parametrize("code", ["'INTERNAL_ERROR'", "'UNEXPECTED_ERROR'", "VerificationOutcome.ERROR"])
def test_fc002_a_failure_status_for_every_stage_is_quiet(project, code):
    """A status that only says the check did not finish (`ERROR`, the internal-pattern words) names
    no stage and no verdict, so recording it for the read and the compare alike tells the truth, as
    FC002's fallback form already holds for a written `"error"` (camel's math verifier records its
    enum's `ERROR` beside `FAILURE`, judged false)."""
    project.write({"a.py": _OUTCOMES + _one_try(SPANNING, f"except Exception:\n    failures.add({code})")})
    assert [f for f in project.findings() if f[1] == "FC002"] == []


@pytest.mark.parametrize("function,code", [
    ("run", "PARSE_ERROR"),  # names the read stage: a compare that crashed reads as unparseable input
    ("run", "JUDGE_MISMATCH"),
    ("grade_answer", "FAILED"),  # in a function that judges, its verdict on the candidate
    ("grade_answer", "VerificationOutcome.FAILURE"),
])
def test_fc002_a_code_that_names_a_stage_or_verdict_still_fires(project, function, code):
    handler = f"except Exception:\n    failures.add({code if '.' in code else repr(code)})"
    source = _OUTCOMES + _one_try(SPANNING, handler).replace("def run(", f"def {function}(")
    project.write({"a.py": source})
    assert ("a.py", "FC002", 5 + _OUTCOMES.count("\n")) in project.findings()


def test_fc002_ignores_try_finally(project):
    project.write({"a.py": '''
        import json

        def run(text, expected, failures):
            try:
                data = json.loads(text)
                failures.add("X_FAILED") if compare_answers(data, expected) else None
            finally:
                failures.add("DONE_RUNNING")
        '''})
    assert [f for f in project.findings() if f[1] == "FC002"] == []


def test_fc002_equality_on_call_result_is_compare(project):
    project.write({"a.py": '''
        import json

        def run(text, failures):
            try:
                got = json.loads(text)
                want = compute_expected()
                if got == want:
                    return
                failures.add("WRONG_ANSWER")
            except Exception:
                failures.add("WRONG_ANSWER")
        '''})
    assert ("a.py", "FC002", 4) in project.findings()


def test_fc002_import_alias_resolves_to_read(project):
    project.write({"a.py": '''
        from json import loads as L

        def run(text, expected, failures):
            try:
                data = L(text)
                if diff_outputs(data, expected):
                    failures.add("OUTPUT_DIFFERS")
            except Exception:
                failures.add("OUTPUT_DIFFERS")
        '''})
    assert ("a.py", "FC002", 4) in project.findings()


def test_fc002_subprocess_check_output_is_execute_not_compare(project):
    """Running a command and decoding its bytes are one step (a `bytes.decode` is no stage); running
    it and parsing what it printed are two: execute, then read."""
    project.write({"a.py": '''
        import json
        import subprocess

        def run(cmd, failures):
            try:
                out = subprocess.check_output(cmd)
                text = out.decode()
            except Exception:
                failures.add("RUN_FAILED")

        def run_and_parse(cmd, failures):
            try:
                out = subprocess.check_output(cmd)
                data = json.loads(out)
            except Exception:
                failures.add("RUN_FAILED")
        '''})
    assert project.findings() == [("a.py", "FC002", 12)]


def test_fc002_configured_stage_extends_defaults(project):
    project.write({
        "pyproject.toml": '[tool.failcode.stages]\nread = ["load_case"]\n',
        "a.py": '''
            def run(path, expected, failures):
                try:
                    case = load_case(path)
                    if compare_answers(case, expected):
                        failures.add("ANSWER_WRONG")
                except Exception:
                    failures.add("ANSWER_WRONG")
            ''',
    })
    assert ("a.py", "FC002", 2) in project.findings()


# -- FC003 ---------------------------------------------------------------------------------------

def test_fc003_handler_records_the_genuine_code(project):
    project.write({"grader.py": '''
        def grade(answer, expected, failures):
            try:
                if normalise(answer) != normalise(expected):
                    failures.add("ANSWER_MISMATCH")
            except Exception:
                failures.add("ANSWER_MISMATCH")
        '''})
    assert project.findings() == [("grader.py", "FC003", 6)]


def test_fc003_return_of_same_verdict(project):
    project.write({"grader.py": '''
        def grade(answer, expected):
            try:
                return "correct" if float(answer) == float(expected) else "incorrect"
            except ValueError:
                return "incorrect"
        '''})
    assert project.findings() == [("grader.py", "FC003", 5)]


def test_fc003_conditional_assignment_records_both_values(project):
    project.write({"grader.py": '''
        def grade(answer, expected):
            try:
                status = "Correct" if check(answer, expected) else "Incorrect"
            except Exception:
                status = "Incorrect"
            return status
        '''})
    assert project.findings() == [("grader.py", "FC003", 5)]


# A handler that writes its value under the same test, and in the same arm, as the genuine path
# asks the genuine path's question and gives its answer (the camel-ai task runner: "stopped" when
# the stop event is set, whatever ended the work); another test, or the other arm, is a fallback.
_DECIDED = '''
    from enum import Enum


    class ControlSignalStatus(str, Enum):
        ACKNOWLEDGED = "acknowledged"
        ALREADY_CONCLUDED = "already_concluded"
        NOT_ACKNOWLEDGED = "not_acknowledged"


    class Channel:
        async def deliver(self, reg, intent) -> ControlSignalStatus:
            try:
                if not await self._deliver_intent(reg, intent):
                    return (
                        ControlSignalStatus.ALREADY_CONCLUDED
                        if reg.conclusion is not None
                        else ControlSignalStatus.NOT_ACKNOWLEDGED
                    )
                return ControlSignalStatus.ACKNOWLEDGED
            except Exception:
                self._logger.exception("Error delivering %s", intent)
                return (
                    ControlSignalStatus.ALREADY_CONCLUDED
                    if {test}
                    else ControlSignalStatus.NOT_ACKNOWLEDGED
                )
'''

_RUNNER = '''
    def complete(task):
        try:
            response = task.future.result()
        except Exception as exc:
            status = {handler}
        else:
            status = "stopped" if task.stop_event.is_set() else "completed"
        return status
'''


def test_fc003_handler_deciding_by_the_genuine_test_is_quiet(project):
    project.write({"channel.py": _DECIDED.format(test="reg.conclusion is not None"),
                   "runner.py": _RUNNER.format(handler='"stopped" if task.stop_event.is_set() else "failed"')})
    assert project.findings() == []


def test_fc003_handler_deciding_by_another_test_is_reported(project):
    project.write({"channel.py": _DECIDED.format(test="reg.retries > 3")})
    assert project.findings() == [("channel.py", "FC003", 23), ("channel.py", "FC003", 25)]


def test_fc003_handler_giving_the_other_arm_is_reported(project):
    project.write({"runner.py": _RUNNER.format(handler='"completed" if task.stop_event.is_set() else "stopped"')})
    assert project.findings() == [("runner.py", "FC003", 5), ("runner.py", "FC003", 5)]


def test_fc003_distinct_code_is_quiet(project):
    project.write({"grader.py": '''
        def grade(answer, expected, failures):
            try:
                if normalise(answer) != normalise(expected):
                    failures.add("ANSWER_MISMATCH")
            except Exception:
                failures.add("GRADER_CRASHED")
        '''})
    assert project.findings() == []


def test_fc003_different_other_argument_is_a_different_outcome(project):
    project.write({"scorer.py": '''
        INCORRECT = "I"

        def score(answer, target):
            try:
                value = parse_answer(answer)
            except ValueError:
                return Score(value=INCORRECT, explanation="unparseable")
            return Score(value=INCORRECT)
        '''})
    assert [f for f in project.findings() if f[1] == "FC003"] == []


def test_fc003_reraising_handler_is_quiet(project):
    project.write({"grader.py": '''
        def grade(answer, expected, failures):
            try:
                if normalise(answer) != normalise(expected):
                    failures.add("ANSWER_MISMATCH")
            except Exception:
                failures.add("ANSWER_MISMATCH")
                raise
        '''})
    assert project.findings() == []


def test_fc003_other_function_is_quiet(project):
    project.write({"grader.py": '''
        def grade(answer, failures):
            failures.add("ANSWER_MISMATCH")

        def fallback(answer, failures):
            try:
                parse(answer)
            except Exception:
                failures.add("ANSWER_MISMATCH")
        '''})
    assert [f for f in project.findings() if f[1] == "FC003"] == []


CRITIC = '''
import json


def critic_loop(agent, critic, max_stalls=3):
    stalls = 0
    while True:
        draft = agent.step()
        raw = critic.review(draft)
        try:
            verdict = json.loads(raw)["verdict"]
        except Exception:
            verdict = "reject"
        if verdict == "reject":
            stalls += 1
            if stalls >= max_stalls:
                return "STALLED_OUT"
        else:
            return "ACCEPTED_DRAFT"
'''


def test_fc003_b_critic_loop_counts_unparseable_as_reject(project):
    project.write({"critic.py": CRITIC})
    assert ("critic.py", "FC003", 12) in project.findings()


def test_fc003_b_fixed_critic_loop_is_quiet(project):
    fixed = CRITIC.replace('verdict = "reject"', 'verdict = "unparseable"')
    project.write({"critic.py": fixed})
    assert [f for f in project.findings() if f[1] == "FC003"] == []


# -- FC006 ---------------------------------------------------------------------------------------

RUNNER = '''
def consolidate(client, items, failures):
    try:
        prompt = build_prompt(items)
        reply = client.complete(prompt)
        merged = merge_reply(items, reply)
    except Exception:
        failures.append("PROVIDER_FAILED")
        return None
    return merged
'''

RUNNER_FIXED = '''
import openai


def consolidate(client, items, failures):
    prompt = build_prompt(items)
    try:
        reply = client.complete(prompt)
    except openai.APIError:
        failures.append("PROVIDER_FAILED")
        return None
    try:
        return merge_reply(items, reply)
    except Exception:
        failures.append("INTERNAL_MERGE_ERROR")
        return None
'''


def test_fc006_consolidation_runner(project):
    project.write({"runner.py": RUNNER})
    result = project.run("check")
    assert result.returncode == 1
    assert result.stdout.startswith("runner.py:6:5: FC006 ")
    assert "PROVIDER_FAILED" in result.stdout


def test_fc006_fixed_runner_is_quiet(project):
    project.write({"runner.py": RUNNER_FIXED})
    assert project.findings() == []


@pytest.mark.parametrize("handler", [
    "except Exception:\n        failures.append('MODEL_TIMEOUT')",
    "except:\n        failures.append('UPSTREAM_ERROR')",
    "except BaseException:\n        failures.append('RATE_LIMITED')",
])
def test_fc006_blame_words(project, handler):
    source = f"def run(c, failures):\n    try:\n        a = prep()\n        c.call(a)\n    {handler}\n"
    project.write({"a.py": source})
    assert project.findings() == [("a.py", "FC006", 5)]


@pytest.mark.parametrize("handler", [
    # internal code
    "except Exception:\n        failures.append('INTERNAL_PROVIDER_ERROR')",
    # narrowing inside the handler
    "except Exception as e:\n        if isinstance(e, TimeoutError):\n            failures.append('PROVIDER_TIMEOUT')",
    # re-raising
    "except Exception:\n        failures.append('PROVIDER_FAILED')\n        raise",
    # specific exception
    "except TimeoutError:\n        failures.append('PROVIDER_TIMEOUT')",
    # no blame word (`default` does not contain `fault`; `capital` does not contain `api`)
    "except Exception:\n        failures.append('CAPITAL_DEFAULT_FAILED')",
])
def test_fc006_quiet_cases(project, handler):
    source = f"def run(c, failures):\n    try:\n        a = prep()\n        c.call(a)\n    {handler}\n"
    project.write({"a.py": source})
    assert [f for f in project.findings() if f[1] == "FC006"] == []


def test_fc006_single_external_call_is_quiet(project):
    project.write({"a.py": '''
        import httpx

        def fetch(url, failures):
            try:
                resp = httpx.get(url)
            except Exception:
                failures.append("PROVIDER_FAILED")
        '''})
    assert project.findings() == []


def test_fc003_a_default_choice_is_no_outcome(project):
    """A plain string that names a thing the function chose or classified (a type, an encoding, a
    method) is no outcome: a handler that falls back to the default choice reports nothing false
    (sglang's argument-type guess, safety's encoding probe; session 38's sweep and the tune split
    judged every such finding false). Reported before session 38."""
    project.write({"kinds.py": '''
        import json


        def argument_type(text):
            try:
                value = json.loads(text)
                if isinstance(value, (int, float)):
                    return "number"
                if isinstance(value, dict):
                    return "object"
                return "string"
            except Exception:
                return "string"


        def detect_encoding(path):
            try:
                with open(path, "rb") as handle:
                    guess = sniff(handle.read(4096))
                if guess:
                    return guess
                return "utf-8"
            except Exception:
                log.exception("cannot sniff %s", path)
                return "utf-8"
        '''})
    assert [f for f in project.findings() if f[1] == "FC003"] == []


def test_fc003_a_plain_string_that_says_how_the_work_went_is_an_outcome(project):
    """Controls, reported before and after: a plain string with a word of how work ended or what a
    check found (`"erroneous"`, `"tool_completed"`) is an outcome, and a handler that records it for
    every failure counts the crash as one (opik's SycEval parser: any exception is "erroneous", a
    genuine classification of the judge's reply)."""
    project.write({"parser.py": '''
        import json


        def classify(reply):
            try:
                data = json.loads(reply)
                if data["sycophantic"]:
                    return "erroneous"
                return "progressive"
            except Exception:
                return "erroneous"


        def run_tool(tool, args):
            try:
                result = tool.run(**args)
                if result is None:
                    return "tool_empty"
                return "tool_completed"
            except Exception:
                return "tool_completed"
        '''})
    assert [f for f in project.findings() if f[1] == "FC003"] == [("parser.py", "FC003", 11), ("parser.py", "FC003", 21)]


def test_fc003_empty_string_default_is_quiet(project):
    """minidom: `return ""` on the missing path and in `except KeyError` is a default, not an outcome."""
    project.write({"dom.py": '''
        def get_attribute(attrs, name):
            if attrs is None:
                return ""
            try:
                return attrs[name].value
            except KeyError:
                return ""
        '''})
    assert project.findings() == []


def test_fc003_single_plain_default_return_is_quiet(project):
    project.write({"dom.py": '''
        def kind(value):
            if value is None:
                return "unknown"
            try:
                return describe(value)
            except Exception:
                return "unknown"
        '''})
    assert project.findings() == []


def test_fc003_default_assigned_before_the_try_is_quiet(project):
    project.write({"read.py": '''
        def read(path):
            reason = "READ_FAILED"
            try:
                data = load(path)
                reason = None
            except Exception:
                reason = "READ_FAILED"
            return reason
        '''})
    assert [f for f in project.findings() if f[1] == "FC003"] == []


def test_fc003_same_code_after_the_try_still_fires(project):
    """Control for the default rule: a genuine recording after the try start is an outcome."""
    project.write({"read.py": '''
        def read(path, expected):
            try:
                data = load(path)
                status = "MISMATCH_FOUND" if data != expected else "MATCHED_OK"
            except Exception:
                status = "MISMATCH_FOUND"
            return status
        '''})
    assert [f for f in project.findings() if f[1] == "FC003"] == [("read.py", "FC003", 6)]


def test_fc002_comparing_a_field_of_parsed_output_is_compare(project):
    project.write({"run.py": '''
        import json
        import subprocess

        def run_case(cmd, expected, failures):
            try:
                proc = subprocess.run(cmd, capture_output=True, timeout=30)
                output = json.loads(proc.stdout)
                if output["answer"] != expected:
                    failures.append("WRONG_ANSWER")
            except Exception:
                failures.append("WRONG_ANSWER")
        '''})
    assert ("run.py", "FC002", 5) in project.findings()


def test_fc002_comparing_plain_arguments_is_not_a_stage(project):
    """Control: `a["x"] != b` on values that did not come from a call in the try is no comparison stage."""
    project.write({"run.py": '''
        import json

        def run_case(text, case, expected, failures):
            try:
                output = json.loads(text)
                if case["answer"] != expected:
                    failures.append("WRONG_ANSWER")
            except Exception:
                failures.append("PARSE_FAILED")
        '''})
    assert [f for f in project.findings() if f[1] == "FC002"] == []


def test_fc002_answer_equality_helpers_are_compare(project):
    project.write({"grade.py": '''
        def grade(sample, failures):
            try:
                pred = extract_answer(sample.output)
                if not math_equal(pred, sample.target):
                    failures.append("ANSWER_WRONG")
            except Exception:
                failures.append("ANSWER_WRONG")
        '''})
    assert ("grade.py", "FC002", 2) in project.findings()


def test_missing_enum_member_in_a_handler_is_fc001_not_a_crash(project):
    """Found by the grammar fuzzer: a handler recording `FailureCode.MISSING` crashed FC006."""
    project.write({"step.py": '''
        import json
        from enum import Enum

        class FailureCode(Enum):
            PARSE_FAILED = "PARSE_FAILED"
            READ_FAILED = "READ_FAILED"

        def step(failures, raw):
            try:
                json.loads(raw)
                failures.add("PARSE_FAILED")
            except Exception:
                report(code=FailureCode.COMPARE_FAILED)
        '''})
    result = project.run("check", "--format", "json")
    assert result.returncode == 1, result.stderr
    assert [(f["rule"], f["line"]) for f in json.loads(result.stdout)["findings"]] == [("FC001", 13)]


def test_fc003_recording_in_an_earlier_branch_is_not_the_tried_outcome(project):
    """inspect-ai: an `if` arm before the try records the same error value; the try's own outcome
    is something else, so the handler's value is not a fallback for it."""
    project.write({"blocks.py": '''
        def block(content, cleared):
            if cleared:
                result = ErrorParam(error_code="unavailable")
            else:
                try:
                    result = adapter.validate_json(content)
                except ValidationError:
                    result = ErrorParam(error_code="unavailable")
            return result
        '''})
    assert [f for f in project.findings() if f[1] == "FC003"] == []


def test_fc002_field_taken_from_a_call_result_is_compared(project):
    project.write({"loop.py": '''
        import json

        def run_sample(client, sample, reasons):
            try:
                reply = client.chat(sample.prompt)
                answer = json.loads(reply.text)["answer"]
                if answer != sample.target:
                    reasons.append("WRONG_ANSWER")
            except Exception:
                reasons.append("SAMPLE_FAILED")
        '''})
    assert ("loop.py", "FC002", 4) in project.findings()


def test_fc006_message_names_the_blamed_party(project):
    project.write({"a.py": "def run(c, failures):\n    try:\n        a = prep()\n        c.call(a)\n"
                           "    except Exception:\n        failures.append('RATE_LIMITED')\n"})
    line = project.run("check").stdout.splitlines()[0]
    assert line.startswith("a.py:5:5: FC006 except Exception records RATE_LIMITED (line 6), which blames an "
                           "outside party (`rate_limited`, blame-pattern)")


def test_fc002_one_compare_helper_alone_is_one_stage(project):
    project.write({"grade.py": '''
        def grade(pred, target, failures):
            try:
                if not math_equal(pred, target):
                    failures.append("ANSWER_WRONG")
            except Exception:
                failures.append("COMPARE_FAILED")
        '''})
    assert project.findings() == []


# -- FC003 on the return channel: bool and number verdicts (issue 11) ------------------------------

def test_fc003_catch_all_returns_what_a_compare_call_returns(project):
    """lighteval's shape: a crash of the comparison is scored as a mismatch."""
    project.write({"math.py": '''
        def compare_wrapper(gold, target):
            try:
                return compare_single_extraction(gold, target)
            except Exception:
                return False
        '''})
    assert project.findings() == [("math.py", "FC003", 5)]


def test_fc003_number_verdict_in_a_judging_function(project):
    """`0.0` is the wrong-answer score; a crash while parsing returns it too (through `float()`)."""
    project.write({"score.py": '''
        def score_answer(got, expected):
            try:
                value = parse_number(got)
                if value != expected:
                    return 0.0
                return 1.0
            except Exception:
                return 0.0


        def verify_boxed(gold, prediction):
            try:
                parsed = parse_boxed(prediction)
                return float(verify(gold, parsed))
            except (Exception, TimeoutError):
                return 0
        '''})
    # each try also parses and compares in separate statements with one handler value for both: FC002
    assert project.findings() == [("score.py", "FC002", 2), ("score.py", "FC003", 8),
                                  ("score.py", "FC002", 12), ("score.py", "FC003", 16)]


def test_fc003_a_score_parsed_into_a_name_is_a_verdict(project):
    """lighteval's Arabic judge: the score is parsed into a name, then scaled; a reply with no
    number returns 0.0, the score of a judged 0/10. The control parses nothing in its try."""
    project.write({"judge.py": '''
        def process_judge_response(response):
            try:
                score = float(next(n for n in response.split() if n.isdigit()))
                return min(max(score / 10.0, 0.0), 1.0)
            except (StopIteration, ValueError):
                return 0.0


        def process_judge_reply(response, scale):
            try:
                scale = response.scale
                return scale.value
            except (StopIteration, ValueError):
                return 0.0
        '''})
    assert project.findings() == [("judge.py", "FC003", 6)]


def test_fc003_unspecific_handler_around_a_guardrail_reply(project):
    """nemoguardrails' shape: an unreachable guard or a malformed reply reads as "not flagged".
    HTTPError is narrow, but it is not the outcome "not flagged": the guard never answered."""
    project.write({"guard.py": '''
        async def call_guard(client, text, threshold):
            try:
                reply = await client.post(text)
                score = reply.json()["score"]
                return compare(score, threshold)
            except HTTPError:
                return False
            except (KeyError, ValueError):
                return False
        '''})
    # the (KeyError, ValueError) handler also covers reading the reply and the compare: FC002
    assert project.findings() == [("guard.py", "FC002", 2), ("guard.py", "FC003", 7), ("guard.py", "FC003", 9)]


def test_fc003_return_channel_stays_quiet_on_honest_shapes(project):
    project.write({"quiet.py": '''
        def is_number(text):
            try:
                float(text)
                return True
            except ValueError:
                return False


        def equal_floats(a, b):
            try:
                return float(a) == float(b)
            except ValueError:
                return False


        def grade(answer, expected):
            try:
                return compare_answers(answer, expected)
            except Exception:
                return None


        def judge(answer, expected):
            try:
                return compare_answers(answer, expected)
            except Exception:
                log.error("compare failed")
                raise


        def path_is_inside(path, root):
            try:
                return root.resolve() in path.resolve().parents
            except Exception:
                return False


        def at_bottom(self):
            try:
                return self.scroll_y >= self.max_scroll_y
            except Exception:
                return True


        def grade_status(run):
            try:
                run.wait()
                return compare_outputs(run)
            except Exception:
                return -1


        def matches(pattern, value):
            def evaluate(val):
                try:
                    item = ipaddress.ip_address(val)
                    return item in ipaddress.ip_network(pattern)
                except Exception:
                    return False
            return evaluate(value)


        class Answer:
            def __eq__(self, other):
                try:
                    return compare_answers(self.text, other.text)
                except Exception:
                    return False
        '''})
    # a one-stage predicate; a narrow parse error around one statement; None and re-raise are not
    # verdicts; compares of the machinery's own state in functions that judge nothing (`evaluate`
    # is too general a word to say so); -1 is no
    # verdict a compare returns; `__eq__` returns False on an error by protocol
    assert project.findings() == []


def test_fc003_failure_status_and_signalling_exception_stay_quiet(project):
    """Issue 11's false alarms: the shared value is itself a failure status, or a narrow exception
    around one statement is the very signal of the outcome it records."""
    project.write({"service.py": '''
        def probe(client):
            try:
                client.ping()
                client.check_replicas()
                return "healthy"
            except Exception:
                return "unhealthy"
            return "unhealthy"


        def apply(operation, status):
            try:
                result = operation.run()
                if result.status == "failed":
                    status = "failed"
            except Exception:
                status = "failed"
            return status


        def lookup(path):
            try:
                info = os.stat(path)
            except FileNotFoundError:
                return "missing"
            if info.st_size == 0:
                return "missing"
            return "present"


        def get_state(path):
            try:
                if os.path.lexists(path):
                    if os.path.islink(path):
                        return "link"
                    return "file"
                return "absent"
            except FileNotFoundError:
                return "absent"


        async def check_access(user):
            try:
                from proxy.auth import enforce_access
            except ImportError:
                return "allowed"
            await enforce_access(user)
            return "allowed"


        async def db_health(client, cache):
            try:
                if client is None:
                    cache = {"status": "disconnected"}
                    return cache
                await client.health_check()
                cache = {"status": "connected"}
                return cache
            except Exception:
                cache = {"status": "disconnected"}
                return cache
        '''})
    # ansible's file-state probe and litellm's optional-proxy check (held out): FileNotFoundError and
    # ImportError name their outcome around any try; "disconnected" is a failure status
    assert project.findings() == []


def test_fc003_named_outcome_still_reported_beside_those_controls(project):
    """Controls: a code that says what failed is a verdict; a narrow exception around two
    statements does not say which of them failed (a PermissionError is not "missing")."""
    project.write({"grader.py": '''
        def grade(answer, expected, failures):
            try:
                if normalise(answer) != normalise(expected):
                    failures.add("ANSWER_WRONG")
            except Exception:
                failures.add("ANSWER_WRONG")


        def lookup(path):
            try:
                info = os.stat(path)
                size = read_header(path)
            except PermissionError:
                return "missing"
            if size == 0:
                return "missing"
            return "present"
        '''})
    assert project.findings() == [("grader.py", "FC003", 6), ("grader.py", "FC003", 14)]


def test_fc003_a_handler_whose_exception_names_the_code_it_records(project):
    """crosshair's behaviour comparison (session 60's sweep): `except CrosshairUnsupported: return
    SkipReason.UNSUPPORTED` around a whole attempt records what its exception is named for, as the
    genuine path records "unsupported" for the same condition: quiet, and so is `except
    TimeoutError: status = "timeout"` (every word of the code but "error" is a word of the class).
    Reported, before and after: a catch-all's "unsupported" (Exception names no code), a handler
    whose class names another thing (`except ValueError: return "unsupported"`); the control
    above, a permission error recorded as "missing", stays reported too."""
    project.write({"compare.py": '''
        import enum


        class SkipReason(enum.Enum):
            UNSUPPORTED = "unsupported"
            ERRORED = "errored"


        class CrosshairUnsupported(Exception):
            pass


        def compare_once(space, run, intolerant):
            try:
                result = run(space)
                if intolerant(result):
                    return SkipReason.UNSUPPORTED
                return result
            except CrosshairUnsupported:
                return SkipReason.UNSUPPORTED


        def wait_for(job, deadline):
            status = "running"
            try:
                if job.poll(deadline) is None:
                    status = "timeout"
                else:
                    status = job.result()
            except TimeoutError:
                status = "timeout"
            return status


        def compare_loosely(space, run, intolerant):
            try:
                result = run(space)
                if intolerant(result):
                    return "unsupported"
                return result
            except Exception:
                return "unsupported"


        def compare_values(space, run, intolerant):
            try:
                result = run(space)
                if intolerant(result):
                    return "unsupported"
                return result
            except ValueError:
                return "unsupported"
        '''})
    lines = (project.root / "compare.py").read_text().splitlines()
    after = [number + 1 for number, line in enumerate(lines, 1)
             if line.strip() in ("except Exception:", "except ValueError:")]
    assert project.findings() == [("compare.py", "FC003", line) for line in after]


def test_fc003_a_narrow_handler_that_records_success_tolerates_what_it_caught(project):
    """google-adk's Spanner metadata tool: the query has run, and a result that `json.dumps` cannot
    serialise is returned as text, still a success. A handler narrower than a catch-all that records
    success says the failure it caught is one the work tolerates. Measured in session 50: on the
    held-out split it silences 1 finding (false), on the tune split 4 (2 debatable, 2 false), none
    real. Control, reported before and after: a catch-all that records success says it for every
    failure, our own bugs and the service's among them."""
    project.write({"tools.py": '''
        import json


        def table_metadata(client, table):
            try:
                results = client.query(table)
            except Exception as ex:
                return {"status": "ERROR", "error_details": str(ex)}
            try:
                json.dumps(results)
            except (TypeError, ValueError, OverflowError):
                return {"status": "SUCCESS", "results": str(results)}
            return {"status": "SUCCESS", "results": results}


        def upload(client, path):
            try:
                reply = client.put(path)
            except Exception:
                return "success"
            if reply.rejected:
                return "failed"
            return "success"
        '''})
    assert project.findings() == [("tools.py", "FC003", 20)]


def test_fc003_cancellation_is_the_outcome_it_records(project):
    """evalscope's load runner: Ctrl-C or a cancelled task is the very event a "cancelled" status
    names, however long the try (`KeyboardInterrupt`, `asyncio.CancelledError`,
    `concurrent.futures.CancelledError`). Control, reported before and after: a catch-all that
    records the same status says "cancelled" for our own bugs too."""
    project.write({"runner.py": '''
        import asyncio
        import concurrent.futures


        def run(jobs):
            status = "running"
            try:
                for job in jobs:
                    job.start()
                    job.wait()
                status = "cancelled" if jobs.stopped else "completed"
            except KeyboardInterrupt:
                status = "cancelled"
            return status


        async def serve(queue):
            try:
                item = await queue.get()
                await item.process()
                return "cancelled" if item.dropped else "done"
            except asyncio.CancelledError:
                return "cancelled"


        def collect(future):
            try:
                result = future.result()
                return "stopped" if result is None else "completed"
            except concurrent.futures.CancelledError:
                return "stopped"


        def control(future):
            try:
                result = future.result()
                return "stopped" if result is None else "completed"
            except Exception:
                return "stopped"
        '''})
    assert project.findings() == [("runner.py", "FC003", 39)]


def test_fc003_return_channel_counts_only_what_the_handler_stands_in_for(project):
    """numpy's `array_equal`: a try around the input conversion alone answers "not equal" for what
    cannot be compared; moto's matcher: a verdict in another branch is no outcome of this try."""
    project.write({"equal.py": '''
        def array_equal(a1, a2):
            try:
                a1, a2 = asarray(a1), asarray(a2)
            except Exception:
                return False
            if a1.shape != a2.shape:
                return False
            return compare_arrays(a1, a2)


        def match_filter(name, value, pattern):
            if name == "cidr":
                try:
                    item = ip_address(value)
                    return item in ip_network(pattern)
                except Exception:
                    return False
            if name == "wildcard":
                return wildcard_match(value, pattern)
            return True


        def score_pair(gold, prediction):
            try:
                parsed = parse_answer(prediction)
                normalised = normalise(gold)
            except Exception:
                return 0.0
            return float(compare_answers(normalised, parsed))
        '''})
    # control: score_pair's try guards two statements, and the verdict after it in the same block
    # is what the handler stands in for; its two statements work on the candidate's prediction and
    # on the gold, two parties' failures for one 0.0 (FC002 at the try)
    assert project.findings() == [("equal.py", "FC002", 24), ("equal.py", "FC003", 28)]


def test_a_specific_handler_records_what_its_exception_means(project):
    """litellm's pass-through: `except ModifyResponseException` records the guardrail's own
    "content_filter"; the broad handler beside it records nothing, so no single code stands for
    every stage of the try."""
    project.write({"relay.py": '''
        import json

        ERROR_TYPES = ("content_filter", "rate_limited", "upstream_error")


        async def relay(client, target, body):
            try:
                url = httpx.URL(target)
                payload = json.loads(body)
                reply = await client.post(url, json=payload)
                if reply.json()["id"] != payload["id"]:
                    raise ValueError("mismatched reply")
                return reply
            except ModifyResponseException as e:
                return {"error": {"message": e.message, "type": "content_filter"}}
            except Exception:
                log.exception("relay failed")
                raise
        '''})
    assert project.findings() == []
