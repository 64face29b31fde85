"""FC003 on outcome channels (facts/outcomes.py): verdicts written as bools, numbers and words, on
returns, tuple and dict fields, names, appends and call keywords, and the fallbacks that write the
same value: except handlers, no-match arms, lookup defaults, error-status branches and the arm of a
dispatch that no known reply took. Each expected line is the fallback's own line, read from the
source below, not from failcode's output."""

from __future__ import annotations


def test_judge_reply_dispatch_else_scores_as_a_wrong_answer(project):
    """lighteval's simpleqa judge: an unknown reply (an API error text) is graded INCORRECT."""
    project.write({"judge.py": '''
        def process_judge_response(response):
            if response == "A":
                return 1.0
            elif response == "B":
                return 0.0
            elif response == "C":
                return 0.0
            else:
                log.warning("unknown judge reply %s", response)
                return 0.0


        def judge_letter(reply):
            if reply == "A":
                return 1.0
            if reply == "B":
                return 0.0
            return 0.0
        '''})
    assert project.findings() == [("judge.py", "FC003", 10), ("judge.py", "FC003", 18)]


def test_judge_parser_no_match_arm_and_handler(project):
    """mix_eval's judge parsers: no score in the reply, or a crash, reads as the judge's lowest score."""
    project.write({"parse.py": '''
        import re


        def process_judge_response(x):
            try:
                search = re.search(r"\\[\\[(\\d)\\]\\]", x)
                return int(search.group(1)) if search else 0
            except Exception:
                return 0


        def score_reply(reply):
            m = SCORE.search(reply.text)
            if m:
                score = float(m.group(1))
            else:
                score = reply.metadata.get("score", 0.0)
            return score
        '''})
    assert project.findings() == [("parse.py", "FC003", 7), ("parse.py", "FC003", 9),
                                  ("parse.py", "FC003", 17)]


def test_verdict_fields_of_tuples_dicts_appends_and_keywords(project):
    """openevals' pyright scorer (a tuple), lighteval's metric dict, a results list, a Score(value=)."""
    project.write({"scorers.py": '''
        import json


        def _parse_checker_output(stdout):
            try:
                output = json.loads(stdout)
                errors = [e for e in output["diagnostics"] if e["severity"] == "error"]
                score = len(errors) == 0
                return (score, json.dumps(errors))
            except json.JSONDecodeError:
                return (False, "checker output is not JSON")


        def classification_metric(doc, prediction):
            try:
                expected = LABELS[doc.gold_index]
                is_exact_match = prediction["label"] == expected
                return {"exact_match": float(is_exact_match), "total": 1.0}
            except (IndexError, KeyError):
                return {"exact_match": 0.0, "total": 1.0}


        def grade_all(cases):
            results = []
            for case in cases:
                try:
                    out = run_candidate(case.code)
                    results.append(out == case.expected)
                except Exception:
                    results.append(False)
            return results


        def score_answer(state, target):
            try:
                answer = extract_answer(state.output)
                return Score(value=1.0 if answer == target.text else 0.0)
            except Exception:
                return Score(value=0.0)
        '''})
    # score_answer's try also extracts the answer and compares it in separate statements: FC002
    assert project.findings() == [("scorers.py", "FC003", 11), ("scorers.py", "FC003", 20),
                                  ("scorers.py", "FC003", 30), ("scorers.py", "FC002", 35),
                                  ("scorers.py", "FC003", 39)]


def test_error_status_branch_returns_the_pass_verdict(project):
    """nemoguardrails' Fiddler rail: a 401 or 500 from the guard reads as "not flagged"."""
    project.write({"guard.py": '''
        async def call_guard(client, text, threshold):
            response = await client.post(text)
            if response.status_code != 200:
                log.error("guard returned %s", response.status_code)
                return False
            score = response.json()["score"]
            return compare(score, threshold)
        '''})
    assert project.findings() == [("guard.py", "FC003", 5)]


def test_honest_fallbacks_stay_quiet(project):
    """None, a failure status and a record that says what went wrong are distinct outcomes."""
    project.write({"honest.py": '''
        import re


        def process_judge_response(x):
            search = re.search(r"\\[\\[(\\d)\\]\\]", x)
            return int(search.group(1)) if search else None


        async def call_guard(client, text, threshold):
            response = await client.post(text)
            if response.status_code >= 400:
                return "unavailable"
            return "flagged" if compare(response.json()["score"], threshold) else "clear"


        def verify_traveler(first, last, birth, expected_first):
            if first != expected_first:
                return {"verified": False, "verification_failure": "another user"}
            try:
                age = compute_age(parse_date(birth))
                minimum = load_minimum_age()
            except ValueError:
                return {"verified": False, "verification_failure": "bad date of birth"}
            return {"verified": age >= minimum}


        def grade(answer, expected):
            try:
                return compare_answers(answer, expected)
            except Exception:
                return None
        '''})
    assert project.findings() == []


def test_a_reason_the_genuine_verdict_also_gives_does_not_excuse_the_fallback(project):
    """Principle 2 of the outcome-model issue: an error field beside a value excuses it only when
    its consumers can read the failure there. A `reason` that the genuine record fills with the
    judge's rationale for either answer is no such field: `passed=False` with `reason="judge
    error: …"` is counted as a failing judgement by whatever reads `passed`."""
    source = '''
        def measure(self, case):
            try:
                score, reason = self.run_judge(case)
                return MetricResult(name=self.name, score=score, passed=score >= self.threshold, reason=reason)
            except Exception as e:
                return MetricResult(name=self.name, score=0.0, passed=False, reason=f"judge error: {e}")


        def grade(case, judge):
            try:
                verdict = judge.ask(case.prompt)
                return {"correct": verdict.label == case.label, "message": verdict.text}
            except Exception as e:
                return {"correct": False, "message": str(e)}
        '''
    project.write({"judge.py": source})
    assert project.findings() == [("judge.py", "FC003", 6), ("judge.py", "FC003", 14)]


def test_a_field_only_failures_fill_still_says_what_happened(project):
    """The control: a failure field the genuine verdict leaves empty (`error=None`) or out, a
    reason given only beside a constant verdict (`{"verified": False, "why": "another user"}`), or a
    failure flag the handler sets (`scoring_failed=True`) is where a reader finds the failure:
    quiet, as before the change above."""
    project.write({"judge.py": '''
        def measure(self, case):
            try:
                score = self.run_judge(case)
                return MetricResult(name=self.name, score=score, passed=score >= self.threshold, error=None)
            except Exception as e:
                return MetricResult(name=self.name, score=0.0, passed=False, error=str(e))


        def grade(case, judge):
            try:
                verdict = judge.ask(case.prompt)
                if verdict.label != case.label:
                    return {"correct": False, "failure_reason": "another label"}
                return {"correct": verdict.score > 0.5}
            except Exception as e:
                return {"correct": False, "failure_reason": f"judge error: {e}"}


        def score(self, case):
            try:
                result = self.metric.score(case)
                return ScoreResult(value=result.value, passed=result.value >= self.threshold,
                                   reason=result.reason, scoring_failed=result.scoring_failed)
            except Exception as e:
                return ScoreResult(value=0.0, passed=False, reason=str(e), scoring_failed=True)
        '''})
    assert project.findings() == []


def test_a_missing_reference_scored_as_a_wrong_answer(project):
    """Principles 1 and 5 of the outcome-model issue: the arm taken when the reference an answer is
    checked against holds nothing (a dataset row with no ground truth) writes what a wrong answer
    gets, so a gap in the data reads as the candidate's failure. The reference is found by its name
    through its own methods (`sample.ground_truth.strip()`), and a name holding what a compare
    decides (`score = 1.0 if matches else 0.0`) carries that verdict into the record it is written to."""
    source = '''
        def exact_match(sample, submission):
            if not sample.ground_truth:
                return GradeResult(score=0.0, rationale="No ground truth provided")
            matches = submission.strip() == sample.ground_truth.strip()
            score = 1.0 if matches else 0.0
            return GradeResult(score=score, rationale=f"Exact match: {matches}")


        def contains(case, output):
            expected = case.get("expected")
            if expected is None:
                return 0.0
            return 1.0 if expected.lower() in output.lower() else 0.0


        def similarity(self, case, output):
            if case.expected_output is None:
                return Result(score=0.0, passed=False)
            vectors = self.model.encode([output, case.expected_output])
            score = cosine(vectors[0], vectors[1])
            return Result(score=score, passed=score >= self.threshold)
        '''
    project.write({"graders.py": source})
    assert project.findings() == [("graders.py", "FC003", 3), ("graders.py", "FC003", 12),
                                  ("graders.py", "FC003", 18)]


def test_a_mean_over_the_items_that_did_not_fail_scores_an_all_failed_run(project):
    """Principle 5 of the outcome-model issue (an empty input of a scoring function): a harness that
    drops the failed items before it measures (`if r.error is None`, `if not m.skipped`, `if
    run.status != "failed"`, `if r.ok`) has nothing left when every item failed, and the arm for
    that writes a score in place of the mean, or a pass in place of `all(…)`: a run where
    everything failed reads as a model that scored zero, a check that never ran as a pass. The
    filter may sit one comprehension earlier (`attempted`, then `values` read from it)."""
    project.write({"summary.py": '''
        import statistics


        def mean_reward(results):
            rewards = [r.reward for r in results if r.error is None]
            return sum(rewards) / len(rewards) if rewards else 0.0


        class CaseResult:
            def finish(self):
                active = [m for m in self.metrics if not m.skipped]
                self.passed = all(m.passed for m in active) if active else True


        def summarize(runs):
            scored = [run for run in runs if run.status != "failed"]
            if len(scored) == 0:
                return {"accuracy": 0.0}
            return {"accuracy": statistics.mean(run.score for run in scored)}


        def per_grader(results, keys):
            attempted = [r for r in results if r.ok]
            out = {}
            for key in keys:
                values = [r.grades[key] for r in attempted if key in r.grades]
                out[key] = sum(values) / len(values) if values else 0.0
            return out
        '''})
    assert project.findings() == [("summary.py", "FC003", 6), ("summary.py", "FC003", 12),
                                  ("summary.py", "FC003", 18), ("summary.py", "FC003", 27)]


def test_a_mean_of_nothing_that_says_so_or_was_never_filtered_stays_quiet(project):
    """The quiet twins of the test above: no mean (None, NaN) or an error when nothing is left says
    what happened; a collection that kept the failed items (`if r.error`) or dropped nothing is no
    run of survivors, and the candidate's own invalid answers are its failure, scored rightly (the
    two are quiet before and after the change); a mean latency of the requests that did not fail
    measures the work, not a verdict on it, and its 0 judges nothing."""
    project.write({"summary.py": '''
        import math
        import statistics


        def mean_reward(results):
            rewards = [r.reward for r in results if r.error is None]
            return statistics.mean(rewards) if rewards else None


        def mean_score(results):
            scores = [s for s in results if not math.isnan(s)]
            if not scores:
                return float("nan")
            return sum(scores) / len(scores)


        def strict_mean(results):
            kept = [r.score for r in results if not r.skipped]
            if not kept:
                raise ValueError("every metric was skipped")
            return sum(kept) / len(kept)


        def error_latency(results):
            failed = [r for r in results if r.error]
            return sum(r.latency for r in failed) / len(failed) if failed else 0.0


        def mean_over_all(results):
            scores = [r.score for r in results]
            return sum(scores) / len(scores) if scores else 0.0


        def valid_accuracy(predictions):
            valid = [p for p in predictions if p.valid]
            return sum(p.correct for p in valid) / len(valid) if valid else 0.0


        def request_stats(outputs):
            latencies = [o.latency for o in outputs if o.success]
            return {"latency_mean": statistics.mean(latencies) if latencies else 0,
                    "failed_requests": sum(1 for o in outputs if not o.success)}
        '''})
    assert project.findings() == []


def test_a_failure_read_through_get_or_getattr_drops_the_item_too(project):
    """The filters of the survivors above, with the failure read as a record's key through `.get`
    (`row.get("error")`) or as an optional field through `getattr` (`getattr(r, "error", None)`):
    the same key or field, the same survivors. A `.get` of a key that names no failure (`split`)
    filters nothing out for failing."""
    project.write({"rows.py": '''
        def mean_reward(rows):
            rewards = [row["reward"] for row in rows if not row.get("error")]
            return sum(rewards) / len(rewards) if rewards else 0.0


        def mean_score(results):
            scores = [r.score for r in results if getattr(r, "error", None) is None]
            return sum(scores) / len(scores) if scores else 0.0


        def test_split_mean(rows):
            scores = [row["score"] for row in rows if row.get("split") == "test"]
            return sum(scores) / len(scores) if scores else 0.0
        '''})
    assert project.findings() == [("rows.py", "FC003", 3), ("rows.py", "FC003", 8)]


def test_scores_that_were_never_given_averaged_to_zero(project):
    """The survivors of the tests above, by the other way a failed score is kept out: a score of
    None is one that never came (`if s is not None`, of scores, `rewards` or `r.score`), and the
    mean of those given is 0.0 when none was. The same filter of what is not named as a score (a
    latency, a size) keeps the values that are known, and its 0.0 judges nothing."""
    project.write({"turns.py": '''
        def turn_average(turn_scores):
            graded = [s for s in turn_scores if s is not None]
            return sum(graded) / len(graded) if graded else 0.0


        def mean_latency(latencies):
            known = [x for x in latencies if x is not None]
            return sum(known) / len(known) if known else 0.0
        '''})
    assert project.findings() == [("turns.py", "FC003", 3)]


def test_a_missing_reference_tested_with_the_answer(project):
    """The missing-reference arm of the test below also when the reference is one of the things an
    `or` tests (`if not prediction or not gold: return 0.0`) or an `and` requires (`if prediction
    and expected: … else: return 0.0`): that arm takes the gap in the data with the empty answer.
    An `or` of tests of the answer alone stays quiet: the candidate's own empty answer is wrong."""
    project.write({"graders.py": '''
        def verify_boxed(response, answer):
            prediction = extract(response).strip()
            gold = extract(answer).strip()
            if not prediction or not gold:
                return 0.0
            return float(verify(parse(gold), parse(prediction)))


        def exact(prediction, expected):
            if prediction and expected:
                return 1.0 if prediction.strip() == expected.strip() else 0.0
            else:
                return 0.0


        def bounded(prediction, expected):
            if not prediction or len(prediction) > 100:
                return 0.0
            return 1.0 if prediction == expected else 0.0
        '''})
    assert project.findings() == [("graders.py", "FC003", 5), ("graders.py", "FC003", 13)]


def test_a_missing_reference_asked_by_its_size(project):
    """The missing-reference and nothing-left arms ask one question however it is spelled: `if
    len(sample.ground_truth) == 0:` is `if not sample.ground_truth:`, `len(expected) > 0` with an
    `else` is `if expected: … else:`, and `len(scored) < 1` after dropping the failed items is `if
    not scored:`. Each arm writes what a wrong answer or a zero score gets."""
    project.write({"graders.py": '''
        def exact_match(sample, submission):
            if len(sample.ground_truth) == 0:
                return GradeResult(score=0.0, rationale="no ground truth")
            score = 1.0 if submission.strip() == sample.ground_truth.strip() else 0.0
            return GradeResult(score=score, rationale="exact match")


        def contains(case, output):
            expected = case.get("expected")
            if len(expected) > 0:
                return 1.0 if expected.lower() in output.lower() else 0.0
            else:
                return 0.0


        def mean_score(results):
            scored = [r.score for r in results if r.error is None]
            if len(scored) < 1:
                return 0.0
            return sum(scored) / len(scored)
        '''})
    assert project.findings() == [("graders.py", "FC003", 3), ("graders.py", "FC003", 13),
                                  ("graders.py", "FC003", 19)]


def test_a_size_that_is_not_emptiness_or_the_answer_s_own_stays_quiet(project):
    """The quiet twins of the test above: the candidate's own empty answer scored wrong is the right
    verdict however its emptiness is asked (`len(submission) == 0`), and a size other than none
    (`len(expected) == 3`, `len(expected) > 2`) asks for a shape, not for anything at all. Quiet
    before and after the change."""
    project.write({"graders.py": '''
        def exact_match(sample, submission):
            if len(submission) == 0:
                return 0.0
            return 1.0 if submission.strip() == sample.expected_output.strip() else 0.0


        def triple(case, output):
            expected = case.get("expected")
            if len(expected) == 3:
                return 0.0
            if len(expected) > 2:
                return 0.0
            return 1.0 if expected == output else 0.0
        '''})
    assert project.findings() == []


def test_a_failure_told_in_words_and_folded_by_a_mean_elsewhere_stays_quiet(project):
    """A catch-all's record with its verdict at its worst and the failure told only in words
    (`MetricResult(score=0.0, reason=f"metric error: {e}")`), averaged by a report in another
    module that never reads `reason` (issue 23, principle 2). Reporting the record where a fold of
    ours takes the field without reading the words was built in session 43 (8ba2659) and measured:
    its held-out finding was judged false by two blind judges, recall +0 (POLICIES.md), so it was
    withheld, and this stays quiet. The handler's record does not fill a field its function's
    genuine record fills, so no other FC003 path reaches it."""
    project.write({"pkg/__init__.py": "", "pkg/results.py": '''
        from dataclasses import dataclass


        @dataclass
        class MetricResult:
            name: str
            score: float
            passed: bool
            reason: str = ""


        @dataclass
        class Report:
            results: list

            @property
            def average(self):
                if not self.results:
                    return None
                return sum(r.score for r in self.results) / len(self.results)
        ''', "pkg/runner.py": '''
        from pkg.results import MetricResult


        def run_metrics(metrics, case):
            out = []
            for metric in metrics:
                try:
                    out.append(metric.measure(case))
                except Exception as e:
                    out.append(MetricResult(name=metric.name, score=0.0, passed=False, reason=f"metric error: {e}"))
            return out
        '''})
    assert project.findings() == []


def test_a_missing_reference_by_its_other_names_stays_quiet(project):
    """The missing-reference arm counts for the names that say "reference" alone (`expected`,
    `gold`, `ground_truth`). Widening it, in functions that judge, to the reference's other names
    (`target`, `label`, `refs`, `solution`) was built in session 42 and measured: its held-out
    findings were 1 real, 1 debatable and 2 false (POLICIES.md), so it was withheld, and these stay
    quiet. Before and after that measurement."""
    project.write({"scoring.py": '''
        def score_answer(prediction, target):
            if not target:
                return 0.0
            return 1.0 if prediction.strip() == target.strip() else 0.0


        def grade(output, label):
            if label is None:
                return False
            return output.lower() == label.lower()
        '''})
    assert project.findings() == []


def test_a_missing_answer_or_a_reference_that_raises_stays_quiet(project):
    """The candidate's own empty answer scored wrong is the right verdict, and a missing reference
    that raises or answers None is no verdict, and a predicate that answers False when it has
    nothing to check against fails closed: quiet before and after the change above."""
    project.write({"graders.py": '''
        def exact_match(sample, submission):
            if not submission:
                return 0.0
            return 1.0 if submission.strip() == sample.expected_output.strip() else 0.0


        def contains(case, output):
            if case.reference is None:
                raise ValueError("the case has no reference")
            if not case.gold_label:
                return None
            return float(case.reference in output)


        def is_usable_entry(path, expected_size):
            if expected_size is None:
                return False
            return path.stat().st_size == expected_size
        '''})
    assert project.findings() == []


def test_ordinary_code_stays_quiet(project):
    """Defaults, dispatches and fail-closed compares in code that judges no candidate."""
    project.write({"ordinary.py": '''
        def load(config):
            timeout = config.get("timeout", 30)
            if timeout > LIMIT:
                timeout = 30
            return timeout


        def _compare_values(a, operator, b):
            if operator == "=":
                return a == b
            elif operator == "!=":
                return a != b
            return False


        def verify_default(stub_default, runtime_default):
            try:
                defaults_match = bool(stub_default == runtime_default)
            except Exception:
                defaults_match = False
            return defaults_match


        def is_metric_deprecated(metric):
            try:
                first = next(iter(signature(metric).parameters.values()), None)
                return get_origin(first.annotation) is list and get_args(first.annotation) == (Score,)
            except (AttributeError, ValueError, TypeError):
                return False


        def level_of(name):
            if name == "debug":
                return 10
            if name == "info":
                return 20
            return 20


        class Answer:
            def __eq__(self, other):
                try:
                    return compare_answers(self.text, other.text)
                except Exception:
                    return False
        '''})
    # a config default, a comparison operator table, a compare that cannot raise anything but its own
    # error, a metric helper that judges no answer, a log-level table, the `__eq__` protocol
    assert project.findings() == []


def test_one_finding_per_fallback_path(project):
    """A handler that writes several verdict fields is one finding, at its first write."""
    project.write({"metric.py": '''
        def emotion_metric(doc, prediction):
            try:
                expected = LABELS[doc.gold_index]
                is_match = prediction["label"] == expected
                is_unknown = prediction["label"] == UNKNOWN
                return {"exact_match": float(is_match), "unknown": float(is_unknown)}
            except Exception:
                return {"exact_match": 0.0, "unknown": 1.0}
        '''})
    assert project.findings() == [("metric.py", "FC003", 8)]


# -- FC002 on outcome channels -----------------------------------------------------------------------

def test_fc002_one_fallback_value_for_separate_parse_and_compare_statements(project):
    """verifiers' math score: parsing the gold answer, parsing the prediction and the verify call
    share one `except Exception: return 0.0`."""
    project.write({"score.py": '''
        from math_verify import parse, verify


        def math_score(answer, response, timeout):
            gold = answer.strip()
            try:
                parsed_gold = parse(gold, parsing_timeout=timeout)
                parsed_prediction = parse(response, parsing_timeout=timeout)
                return float(verify(parsed_gold, parsed_prediction))
            except Exception:
                return 0.0
        '''})
    # FC002 at the try, FC003 at the handler's return (the verdict line 9 also returns 0.0)
    assert project.findings() == [("score.py", "FC002", 6), ("score.py", "FC003", 11)]


def test_fc002_stages_in_one_expression_or_a_log_call_are_one_step(project):
    project.write({"score.py": '''
        from math_verify import parse, verify


        def math_score(answer, response):
            try:
                return float(verify(parse(answer), parse(response)))
            except Exception:
                return 0.0


        def grade_reply(reply, expected):
            try:
                got = reply.text.strip()
                log.info("parsed %s", parse_answer(got))
                return compare_answers(got, expected)
            except ValueError:
                return False
        '''})
    # control: FC003 still reports both fallbacks; only FC002 stays quiet (one stage each)
    assert project.findings() == [("score.py", "FC003", 8), ("score.py", "FC003", 17)]


# -- FC006: words that blame a party, around our own code ----------------------------------------------

def test_fc006_blaming_words_around_our_own_code(project):
    """lighteval: our own config check raised inside the API retry loop; opik: a context manager's
    try around `yield` catches the caller's own parsing errors as provider failures; runloop: our
    own URL handling relabelled `backend_unavailable`."""
    project.write({"client.py": '''
        import contextlib


        async def call_api(client, kwargs, num_samples):
            for attempt in range(5):
                try:
                    if kwargs.get("temperature") == 0.0 and num_samples > 1:
                        raise ValueError("temperature 0 with several samples")
                    return await client.chat.completions.create(**kwargs)
                except Exception as e:
                    logger.warning(f"Error in API call: {e}, retrying")


        @contextlib.contextmanager
        def provider_response(provider, messages):
            try:
                yield provider.generate(messages)
            except Exception as e:
                LOGGER.error("Failed to call LLM provider, reason: %s", e)
                raise BaseLLMError(str(e))


        @contextlib.contextmanager
        def handle_errors(write_error):
            try:
                yield
            except Exception as e:
                LOGGER.error("Error while handling API request")
                write_error(repr(e), 500, JSONRPC_CODES["internal_error"])


        class Sandbox:
            async def _ensure_tunnel_url(self, port):
                return await self.client.tunnel(port)

            async def resolve(self, port):
                try:
                    url = await self._ensure_tunnel_url(port)
                    host = urlsplit(url).hostname
                    if host is None:
                        raise ValueError("missing hostname")
                    return host
                except Exception as e:
                    raise PortUnavailable(port=port, reason="backend_unavailable") from e

            async def resolve_quietly(self, port):
                try:
                    url = await self._ensure_tunnel_url(port)
                    return urlsplit(url).hostname
                except Exception as e:
                    raise PortUnavailable(port=port, reason="backend_unavailable") from e
        '''})
    # resolve_quietly (control): a helper's call may be the party's own, so only the raise of a
    # builtin error marks our own code; handle_errors (buildbot's REST errors, session 34's sweep)
    # says the failure is internal: the API is the context of the work, not the one that failed
    assert project.findings() == [("client.py", "FC006", 10), ("client.py", "FC006", 18),
                                  ("client.py", "FC006", 43)]


def test_fc006_words_that_do_not_blame_or_code_that_is_the_party_stay_quiet(project):
    project.write({"quiet.py": '''
        import contextlib


        async def call_api(client, kwargs):
            try:
                response = await client.chat.completions.create(**kwargs)
                return response.choices[0].message.content
            except Exception as e:
                logger.warning(f"Error in API call: {e}")


        def stream(pages):
            try:
                for page in pages:
                    yield parse_page(page)
            except Exception:
                logger.error("API request failed")


        def parse_judge(reply):
            try:
                if not reply:
                    raise ValueError("empty")
                return json.loads(reply)["score"]
            except Exception:
                logger.error("Failed to parse model output")


        def ask(client, prompt):
            try:
                check_prompt(prompt)
                return client.send(prompt)
            except Exception as e:
                if isinstance(e, RateLimitError):
                    logger.error("provider rate limit")
                raise


        def check_prompt(prompt):
            return prompt.strip()


        async def fetch(client, url):
            try:
                return await get_host(client, url)
            except Exception:
                raise ServiceUnavailable("backend unavailable")


        def get_host(client, url):
            return client.host(url)


        async def relay(reply, parser):
            try:
                async for chunk in reply.chunks:
                    parser.feed(chunk)
                if not parser.done:
                    raise ProviderError("upstream stream ended early")
                return parser.finish()
            except Exception as e:
                raise ProviderError(str(e)) from e
        '''})
    # only the party's call and its reply; a plain generator's consumer never raises into it; "model"
    # in prose is the subject; a bare re-raise; one call, even our own thin wrapper; the only raise in
    # the try is the party's own error type
    assert project.findings() == []


def test_service_fallbacks_that_are_policies_stay_quiet(project):
    """Held-out service code (litellm's proxy): a guardrail hook whose try only reads the
    guardrail's reply records `guardrail_failed_to_respond`, an operation status, not a verdict;
    a handler that sorts what it caught keeps its last value as a policy; a password check
    fails closed; NaN is no score."""
    project.write({"hooks.py": '''
        from typing import Literal

        GuardrailStatus = Literal["success", "guardrail_intervened", "guardrail_failed_to_respond"]


        async def check_guardrail(client, data):
            response = await client.post(data)
            try:
                result = response.json()
                if not isinstance(result, dict):
                    return "guardrail_failed_to_respond"
                if result.get("error"):
                    return "guardrail_failed_to_respond"
                return "success" if result.get("flagged") is False else "guardrail_intervened"
            except Exception:
                return "guardrail_failed_to_respond"


        async def reload_user(user_id, db):
            try:
                user = await db.get_user(user_id)
            except Exception as exc:
                outage = find_outage_in_chain(exc)
                if outage is not None:
                    return retry_later(outage)
                return "no_active_key"
            if user is None:
                return "no_active_key"
            return active_record(user)


        def verify_password(stored, password):
            try:
                raw = base64.b64decode(stored)
                salt, dk = raw[:16], raw[16:]
                return secrets.compare_digest(dk, scrypt(password, salt))
            except Exception:
                return False


        async def judge_score(llm, prompt):
            try:
                rating = parse_rating(await llm.generate(prompt))
                if rating in (0, 2, 4):
                    return float(rating) / 4
                return float("nan")
            except Exception:
                return float("nan")
        '''})
    assert project.findings() == []


def test_fc006_recorded_blame_needs_our_own_code_in_the_try(project):
    """Control beside the quiet guardrail hook: the same code recorded by a catch-all whose try
    also builds the judge prompt with our own helper blames the guardrail for our bug."""
    project.write({"judge.py": '''
        from typing import Literal

        GuardrailStatus = Literal["success", "guardrail_intervened", "guardrail_failed_to_respond"]


        class JudgeGuardrail:
            def _build_prompt(self, messages):
                return "\\n".join(m["content"] for m in messages)

            async def check(self, messages, client):
                try:
                    prompt = self._build_prompt(messages)
                    verdict = await client.judge(prompt)
                    return "success" if verdict.allowed else "guardrail_intervened"
                except Exception:
                    return "guardrail_failed_to_respond"


        async def check_reply_only(client, data):
            try:
                verdict = await client.judge(data)
                return "success" if verdict.allowed else "guardrail_intervened"
            except Exception:
                return "guardrail_failed_to_respond"
        '''})
    assert project.findings() == [("judge.py", "FC006", 15)]


def test_fc006_checking_and_packing_what_the_party_returned_is_reading_its_reply(project):
    """openai-agents' Blaxel sandbox: the try parses the URL the backend returned, raises on a missing
    host and packs the parts into a record; a failure there is the backend's malformed reply. The
    Runloop twin also fetches the URL with our own method inside the try, and stays reported."""
    project.write({"sandbox.py": '''
        from urllib.parse import urlsplit


        class Endpoint:
            def __init__(self, host, port):
                self.host, self.port = host, port


        class PortUnavailable(Exception):
            def __init__(self, reason):
                self.reason = reason


        class Sandbox:
            async def _tunnel_url(self, port):
                return await self.client.tunnel(port)

            def parse_preview(self, url):
                try:
                    split = urlsplit(url)
                    host = split.hostname
                    if host is None:
                        raise ValueError("missing hostname")
                    return Endpoint(host=host, port=split.port or 443)
                except Exception as e:
                    raise PortUnavailable(reason="backend_unavailable") from e

            async def resolve(self, port):
                try:
                    url = await self._tunnel_url(port)
                    split = urlsplit(url)
                    if split.hostname is None:
                        raise ValueError("missing hostname")
                    return Endpoint(host=split.hostname, port=split.port or 443)
                except Exception as e:
                    raise PortUnavailable(reason="backend_unavailable") from e
        '''})
    assert project.findings() == [("sandbox.py", "FC006", 35)]


def test_fc006_raising_the_party_s_error_around_our_own_request_building(project):
    """nemoguardrails' Clavata client: the catch-all raises ClavataPluginAPIError "Failed to make
    Clavata API request" for a try that also builds the request with our own methods, so our bugs
    reach every caller as the API's failure. Quiet: our helper that reads what the party sent
    (verifiers' relayed stream), and an error class that names the API while its message says the
    failure is our own (litellm's chunk builder)."""
    project.write({"client.py": '''
        class ClavataAPIError(Exception):
            pass


        def is_done_event(chunk):
            return chunk == b"data: [DONE]"


        def build_response(chunks):
            return b"".join(chunks)


        class Client:
            def _endpoint(self, path):
                return self.base + path

            def _headers(self):
                return {"Authorization": self.token}

            async def post(self, path, payload):
                try:
                    response = await self.http.post(self._endpoint(path), json=payload, headers=self._headers())
                    return response.json()
                except Exception as e:
                    raise ClavataAPIError(f"Failed to make Clavata API request: {e}") from e

            async def relay(self, reply):
                events = []
                try:
                    async for chunk in reply.chunks:
                        if is_done_event(chunk):
                            break
                        events.append(chunk)
                    return events
                except Exception as e:
                    raise ClavataAPIError(f"Clavata API stream failed: {e}") from e

            def assemble(self, chunks):
                try:
                    return bytes(build_response(chunks))
                except Exception:
                    raise ClavataAPIError("Error building chunks for usage calculation")
        '''})
    assert project.findings() == [("client.py", "FC006", 24)]


def test_fc003_handler_that_stores_what_it_caught_reports_the_failure(project):
    """crewai's agent loop (held out): a failed tool call is stored on the action as its result and
    fed back to the model, and the flow routes on as after any tool. The control returns the route
    with the error only printed."""
    source = '''
        def run_tool(action, tools, state):
            try:
                result = tools[action.tool].run(action.tool_input)
            except Exception as e:
                print(f"Error in tool execution: {e}")
                action.result = str(e)
                state.messages.append(action.text)
                return "tool_completed"
            if result.is_final:
                return "tool_result_is_final"
            state.messages.append(result.text)
            return "tool_completed"
        '''
    project.write({"loop.py": source})
    assert project.findings() == []
    project.write({"loop.py": source.replace("action.result = str(e)", "action.retries += 1")})
    assert project.findings() == [("loop.py", "FC003", 8)]


def test_a_flag_s_two_answers_are_no_lookup_default(project):
    """opik's readability metric: `1.0 if within_bounds else 0.0` answers a yes/no question, and a
    parsed score elsewhere in the function does not make the 0.0 a fallback. The control reads the
    score from the lookup it tests, and its no-match arm stands in for it."""
    project.write({"readability.py": '''
        def score_readability(text, bounds):
            grade = float(text.grade)
            within_bounds = bounds.contains(grade)
            if bounds.enforce:
                value = 1.0 if within_bounds else 0.0
            else:
                value = max(0.0, min(100.0, grade)) / 100.0
            return value


        def score_reply(reply):
            match = reply.find_score()
            value = float(match.group(1)) if match else 0.0
            if value > 0.5:
                return 1.0
            return value
        '''})
    assert project.findings() == [("readability.py", "FC003", 13)]


def test_sites_lists_verdicts_and_fallbacks_with_their_triggers(project):
    """Issue 11 item 6: `failcode sites` shows the outcome model FC002/FC003 judge."""
    import json

    project.write({"judge.py": '''
        import re


        def process_judge_response(x):
            try:
                search = re.search(r"<score>(\\d)</score>", x)
                return int(search.group(1)) if search else 0
            except Exception:
                return 0
        '''})
    result = project.run("sites", "--format", "json")
    assert result.returncode == 0, result.stderr
    rows = [(r["line"], r["channel"], r["role"], r["value"], r["why"]) for r in json.loads(result.stdout)["sites"]]
    assert rows == [
        (7, "return", "verdict", "int(search.group(1))", "as the score it parses"),
        (7, "return", "fallback", "0", "no `search`"),
        (9, "return", "fallback", "0", "except Exception"),
    ]
    text = project.run("sites").stdout
    assert "judge.py:9:16: 0  return  in process_judge_response (fallback: except Exception)" in text


def test_or_default_writes_a_verdict(project):
    """`x or DEFAULT`: a reply without a label reads as the judged "incorrect" of line 5."""
    project.write({"label.py": '''
        def judge_label(reply, gold):
            if reply.choice == gold:
                return "correct"
            elif reply.choice in reply.options:
                return "incorrect"
            return reply.raw_label or "incorrect"


        def load_label(config):
            return config.label or "incorrect"
        '''})
    # load_label judges nothing: its default is a configuration default
    assert project.findings() == [("label.py", "FC003", 6)]


def test_a_default_set_before_the_work_and_left_standing_is_a_fallback(project):
    """Issue 11's "default set before the try that the handler keeps": a sandbox crash leaves
    `passed = False` and reads as a failed test; a judge reply without a SCORE leaves the
    "hallucinated" default, the verdict for a FAIL (nemoguardrails' Lynx parser); a crash of the
    parse leaves 0.0, the wrong answer's score. Reported at the `except` or `if` that leaves it."""
    project.write({"grader.py": '''
        import logging
        import re
        import subprocess


        def run_tests(code, expected):
            passed = False
            try:
                out = subprocess.run(["python", "-c", code], capture_output=True, timeout=10).stdout
                passed = out.strip() == expected
            except Exception:
                logging.exception("sandbox failed")
            return passed


        def parse_lynx_response(response):
            hallucination, reasoning = True, None
            score_match = re.search(r'"SCORE": "(PASS|FAIL)"', response)
            if score_match:
                score = score_match.group(1)
                if score == "PASS":
                    hallucination = False
            return hallucination, reasoning


        def score_answer(reply, gold):
            score = 0.0
            try:
                if parse_answer(reply) == gold:
                    score = 1.0
            except Exception as exc:
                logging.warning("could not score: %s", exc)
            return {"score": score}
        '''})
    assert project.findings() == [("grader.py", "FC003", 11), ("grader.py", "FC003", 19),
                                  ("grader.py", "FC003", 31)]
    sites = project.run("sites", "grader.py").stdout
    assert "grader.py:11:5: False  passed  in run_tests (fallback: except Exception, leaving the default of line 7)" \
        in sites
    assert "grader.py:21:9: True  hallucination  in parse_lynx_response (verdict: when `score != 'PASS'`, leaving the" \
        " default of line 17)" in sites


def test_defaults_that_say_no_answer_or_that_nothing_reads_stay_quiet(project):
    """Controls: a None or NaN default says there is no result; a handler that writes its own value,
    returns or re-raises does not leave the default; a default no one reads after the try records
    nothing; a default overwritten before the try is not standing; an `if` with an `else` writes
    both arms itself."""
    project.write({"grader.py": '''
        import logging
        import math


        def grade_none(code, expected):
            passed = None
            try:
                passed = run(code) == expected
            except Exception:
                logging.exception("sandbox failed")
            return passed


        def grade_nan(reply, gold):
            score = math.nan
            try:
                score = float(parse(reply) == gold)
            except Exception:
                pass
            return score


        def grade_handler_says(code, expected):
            passed = False
            try:
                passed = run(code) == expected
            except Exception:
                passed = None
            return passed


        def grade_returns(code, expected):
            passed = False
            try:
                passed = run(code) == expected
            except Exception:
                return None
            return passed


        def grade_unread(code, expected):
            passed = False
            try:
                passed = run(code) == expected
                record(passed)
            except Exception:
                logging.exception("sandbox failed")


        def grade_overwritten(code, expected):
            passed = False
            passed = prepare(code)
            try:
                passed = run(code) == expected
            except Exception:
                logging.exception("sandbox failed")
            return passed


        def grade_both_arms(reply, gold):
            correct = False
            m = MATCH.search(reply)
            if m:
                correct = m.group(1) == gold
            else:
                correct = None
            return correct
        '''})
    assert project.findings() == []


def test_an_existence_probe_that_answers_no_for_every_failure(project):
    """inspect-ai's `_check_hf_space_exists`, dspy's `does_file_exist`, swebench's `present` (the
    flag beside the name it is about): the genuine "no" is the
    lookup's not-found error, so `except Exception: return False` also answers "no such file" for a
    network, auth or rate-limit failure. Reported at the handler's return."""
    project.write({"hub.py": '''
        import openai
        from huggingface_hub import HfApi


        def space_exists(repo_id: str) -> bool:
            api = HfApi()
            try:
                api.repo_info(repo_id=repo_id, repo_type="space")
                return True
            except Exception:
                return False


        def does_file_exist(file_id):
            try:
                openai.files.retrieve(file_id)
                return True
            except Exception:
                return False


        def present(client, name):
            try:
                client.images.get_registry_data(name)
                return name, True
            except Exception:
                return name, False
        '''})
    assert project.findings() == [("hub.py", "FC003", 11), ("hub.py", "FC003", 19), ("hub.py", "FC003", 27)]


def test_probes_that_ask_the_machine_or_catch_the_not_found_error_stay_quiet(project):
    """Controls: a probe of the local machine (`os.stat`, an import) has no outside party to
    confuse with a missing thing; a handler that catches the not-found error, or looks at what it
    caught, answers only that; a function that is no existence probe is not read as one."""
    project.write({"probes.py": '''
        import os

        import openai


        def file_exists(path):
            try:
                os.stat(path)
                return True
            except Exception:
                return False


        def torch_present():
            try:
                import torch
                return True
            except Exception:
                return False


        def job_exists(job_id):
            try:
                openai.fine_tuning.jobs.retrieve(job_id)
                return True
            except openai.NotFoundError:
                return False


        def model_exists(name):
            try:
                openai.models.retrieve(name)
                return True
            except Exception as exc:
                if is_not_found(exc):
                    return False
                raise


        def can_connect(url):
            try:
                openai.models.list()
                return True
            except Exception:
                return False
        '''})
    assert project.findings() == []


OBJECT_EXISTS = '''
        import botocore.exceptions
        import openai


        def object_exists(client, bucket, key):
            try:
                client.head_object(Bucket=bucket, Key=key)
            except botocore.exceptions.ClientError:
                return False
            return True
'''


def test_a_probe_whose_yes_follows_the_try_and_whose_handler_is_a_root_error(project):
    """The "yes" in the try's `else` or right after it is the same answer as one last in the try, and
    a library's root error (`ClientError`: 403, throttling, a 500) is as broad as a catch-all around a
    lookup: each `return False` is reported at the handler's return."""
    project.write({"store.py": OBJECT_EXISTS + '''

        def file_exists(file_id):
            try:
                openai.files.retrieve(file_id)
            except Exception:
                return False
            else:
                return True
        '''})
    assert project.findings() == [("store.py", "FC003", 9), ("store.py", "FC003", 17)]


def test_a_probe_that_catches_the_not_found_error_after_the_try_stays_quiet(project):
    """Control, quiet before and after: the handler catches the not-found error itself."""
    project.write({"store.py": OBJECT_EXISTS.replace("except botocore.exceptions.ClientError:",
                                                     "except client.exceptions.NoSuchKey:")})
    assert project.findings() == []


def test_a_probe_that_answers_with_a_presence_test_or_catches_a_factory_class(project):
    """A probe's "yes" may be a presence test of the lookup (`return client.head_bucket(…) is not
    None`), and a root error may be reached through a factory (`except lazy_botocore().ClientError`):
    the handler's False still answers "not there" for a 403, throttling or a 500. Reported at each
    handler's return."""
    project.write({"store.py": '''
        from mylib import lazy_botocore


        class Endpoints:
            def endpoint_exists(self, name):
                try:
                    self.client.describe_endpoint(EndpointName=name)
                except lazy_botocore().ClientError:
                    return False
                return True

            def bucket_exists(self, name):
                try:
                    return self.client.head_bucket(Bucket=name) is not None
                except Exception:
                    return False
        '''})
    assert project.findings() == [("store.py", "FC003", 9), ("store.py", "FC003", 16)]


def test_a_function_that_makes_the_thing_be_there_is_no_probe(project):
    """google-adk's `ensure_tmp_exists` (session 48's tune batch, judged false before the change):
    a name that says the function makes the thing be there (`ensure`, `create`, `make`) acts rather
    than asks, and its False is that it could not. Control, reported before and after: the probe
    that asks whether the bucket is there."""
    project.write({"buckets.py": '''
        def ensure_bucket_exists(client, name):
            try:
                client.create_bucket(Bucket=name)
                return True
            except Exception:
                return False


        def bucket_exists(client, name):
            try:
                return client.head_bucket(Bucket=name) is not None
            except Exception:
                return False
        '''})
    assert project.findings() == [("buckets.py", "FC003", 13)]


def test_a_probe_through_our_own_lookup_answers_no_for_every_failure(project):
    """griptape's `does_entry_exist` (`return self.load_entry(key) is not None`) and agno's S3
    `exists` (`client = self._get_client()` before the lookup): a call of our own code in the probe
    is the harness side too (issue 23, principle 1), so its failures and bugs, and the service's
    403 or throttling behind it, read as "not there". Reported at each handler's return; the
    message names the last lookup the try makes, not the client factory before it."""
    project.write({"store.py": '''
        class Entries:
            def entry_exists(self, key):
                try:
                    return self.load_entry(key) is not None
                except Exception:
                    return False

            def load_entry(self, key):
                return self.client.get(index=self.index, id=key)

            def exists(self, key):
                try:
                    client = self._get_client()
                    client.head_object(Bucket=self.bucket, Key=key)
                    return True
                except Exception:
                    return False
        '''})
    assert project.findings() == [("store.py", "FC003", 6), ("store.py", "FC003", 17)]
    assert "nothing is found by `client.head_object(" in project.run("check").stdout


def test_presence_tests_that_are_no_lookup_of_another_party_stay_quiet(project):
    """Controls: a presence test of our own importer (`self._import_module(name)`: whether a module
    loads, as an `import` statement asks), of the local machine, or one whose handler catches the
    not-found error answers what it says; a presence test in a function that is no existence probe
    is not read as one."""
    project.write({"store.py": '''
        import shutil

        import openai


        class Entries:
            def module_exists(self, name):
                try:
                    return self._import_module(name) is not None
                except Exception:
                    return False

            def _import_module(self, name):
                return self.importer.import_module(name)


        def tool_exists(name):
            try:
                return shutil.which(name) is not None
            except Exception:
                return False


        def file_exists(file_id):
            try:
                return openai.files.retrieve(file_id) is not None
            except openai.NotFoundError:
                return False


        def has_reply(client, prompt):
            try:
                return client.complete(prompt) is not None
            except Exception:
                return False
        '''})
    assert project.findings() == []


def test_what_follows_a_guard_is_decided_by_its_failed_compare(project):
    """openevals' pyright scorer: `if SEP in out: return parsed` … `return False, out` — the last
    return is the verdict for a missing separator, and the sandbox's CommandExitException writes the
    same False. A narrow handler of number conversions (`Decimal(t)` failing: the text holds no
    number) and a licence check that fails closed stay quiet."""
    project.write({"scorers.py": '''
        import json
        from decimal import Decimal, InvalidOperation

        from e2b import CommandExitException


        def _scorer(outputs, sandbox):
            try:
                cmd = sandbox.commands.run(cmd="pyright --outputjson")
                if SEPARATOR in cmd.stdout:
                    parsed = json.loads(cmd.stdout.split(SEPARATOR)[1])
                    return parsed[0], parsed[1]
                return False, cmd.stdout
            except CommandExitException as e:
                return False, str(e)


        def score_numbers(got, expected):
            if got.strip() == expected.strip():
                return True
            try:
                got_numbers = [Decimal(token) for token in got.split()]
                expected_numbers = [Decimal(token) for token in expected.split()]
            except (InvalidOperation, ValueError):
                return False
            return got_numbers == expected_numbers


        def verify_license(public_key, key):
            try:
                message = decode(key)
                if expired(message):
                    return False, "expired"
                public_key.verify(message)
                return True
            except Exception:
                return False
        '''})
    assert project.findings() == [("scorers.py", "FC003", 15)]


def test_a_narrow_handler_of_a_conversion_before_the_compare_answers_not_equal(project):
    """A value that cannot take the other's kind (`type(value)(self.expected)`, `float(text)`) is
    not equal to it: a narrow handler of the conversion's error answers the compare's own question,
    whether the compare is in the statement or after it (evidently's column conditions). Controls,
    reported before and after: a catch-all around the same statements, and a narrow handler around
    our own helper's read before the compare."""
    project.write({"conditions.py": '''
        class EqualsCondition:
            def check(self, value):
                try:
                    expected = type(value)(self.expected)
                    return expected == value
                except (ValueError, TypeError):
                    return False


        def matches_number(text, expected):
            try:
                got = float(text)
                wanted = float(expected)
                return abs(got - wanted) < 1e-6
            except ValueError:
                return False


        class LooseCondition:
            def check(self, value):
                try:
                    expected = type(value)(self.expected)
                    return expected == value
                except Exception:
                    return False


        def matches_record(record_id, expected):
            try:
                record = load_record(record_id)
                return record.answer == expected
            except (ValueError, TypeError):
                return False
        '''})
    assert project.findings() == [("conditions.py", "FC003", 25), ("conditions.py", "FC003", 33)]


def test_the_no_match_arm_of_a_search_written_as_statements(project):
    """The statement form of `m.group(1) == expected if m else False`: the arm where the pattern
    found nothing in the reply, as an `if`/`else` or as a guard before what reads the match. A
    missing setting (`kwargs.get("n") is None`: no constraint to check) is no search of a reply."""
    project.write({"judge.py": '''
        import re


        def grade_reply(reply, expected):
            m = re.search(r"ANSWER: (\\\\w+)", reply)
            if m is None:
                verdict = False
            else:
                verdict = m.group(1) == expected
            return verdict


        def score_judge(reply):
            m = SCORE.search(reply)
            if not m:
                return 0.0
            return float(m.group(1)) / 10


        def score_length(response, kwargs):
            n = kwargs.get("num_words")
            if n is None:
                return True
            return len(response.split()) == n


        def score_limit(response, kwargs, expected):
            within = True
            limit = kwargs.get("max_words")
            if limit:
                within = len(response.split()) <= limit and response == expected
            return within
        '''})
    assert project.findings() == [("judge.py", "FC003", 7), ("judge.py", "FC003", 16)]


def test_verdicts_written_as_module_constants_and_enum_members(project):
    """Issue 11, Missed: verdicts written as module constants (`_FAILED = "fail"`), imported ones and
    enum members. In a grader, "fail" is its verdict on the candidate; in a service function a
    handler's "failed" is the operation's honest status (control)."""
    project.write({"grader.py": '''
        import enum
        import json

        from .codes import RIGHT, WRONG

        _FAILED = "fail"
        _PASSED = "pass"


        class Verdict(enum.Enum):
            PASS = "pass"
            FAIL = "fail"


        def grade_constants(answer, expected):
            try:
                got = normalize(json.loads(answer)["value"])
                if got == expected:
                    return _PASSED
                return _FAILED
            except Exception:
                return _FAILED


        def grade_enum(answer, expected):
            try:
                got = normalize(json.loads(answer))
                return Verdict.PASS if got == expected else Verdict.FAIL
            except Exception:
                return Verdict.FAIL


        def grade_imported(answer, expected):
            try:
                got = normalize(json.loads(answer))
                return RIGHT if got == expected else WRONG
            except Exception:
                return WRONG


        def sync_job(client, job, expected):
            try:
                state = client.fetch(job)
                if state.version == expected:
                    return "done"
                return "failed"
            except Exception:
                return "failed"
        '''})
    # each grader's try also spans parsing and comparing under one value: FC002 at the `try`
    assert project.findings() == [("grader.py", "FC002", 16), ("grader.py", "FC003", 22),
                                  ("grader.py", "FC002", 26), ("grader.py", "FC003", 30),
                                  ("grader.py", "FC002", 34), ("grader.py", "FC003", 38)]


def test_a_reply_default_that_a_compare_then_judges(project):
    """Issue 11, Missed: `match.group(1) if match else "C"`, `.get(key, DEFAULT)` and `x or DEFAULT`
    stand in for an answer the reply did not hold; the compare that judges the name judges the
    default too, so an unparseable reply can score as the answer "C" or the verdict "no"."""
    project.write({"judge.py": '''
        import json
        import re


        def grade_letter(reply, target):
            m = re.search(r"ANSWER: ([A-D])", reply)
            choice = m.group(1) if m else "C"
            return choice == target


        def judge_verdict(reply):
            data = json.loads(reply)
            verdict = data.get("verdict", "no")
            if verdict == "yes":
                return 1.0
            return 0.0


        def score_answer(reply, expected):
            answer = extract(reply) or "Incorrect"
            return "Correct" if answer == expected else "Incorrect"


        def judge_first(reply):
            verdict = next((w for w in reply.split() if w in ("yes", "no")), "no")
            return verdict == "yes"
        '''})
    assert project.findings() == [("judge.py", "FC003", 7), ("judge.py", "FC003", 13),
                                  ("judge.py", "FC003", 20), ("judge.py", "FC003", 25)]


def test_a_default_the_code_tests_for_is_its_marker(project):
    """opencompass' AlignBench judge parser: `rating.get(key, -1)`, then `if score != -1:` and
    `if score == -1:` tell the marker for "no score" from a score, and an out-of-range score is
    set to the marker too; a reply without the key is not read as a score of -1. Controls, reported
    before and after: the same default never tested for is judged as a score, and a threshold at
    the default's value (`score > 0` after `.get("score", 0)`) judges it rather than telling it apart."""
    project.write({"judge.py": '''
        import json


        def judge_score(reply, keys):
            rating = json.loads(reply)
            score = -1
            for key in keys:
                score = rating.get(key, -1)
                if score != -1:
                    break
            if score == -1:
                score = parse_score(reply)
            if 0 <= score <= 10:
                return score
            return -1


        def judge_pass(reply):
            rating = json.loads(reply)
            score = rating.get("score", -1)
            return score >= 5


        def judge_any(reply):
            rating = json.loads(reply)
            score = rating.get("score", 0)
            return score > 0
        '''})
    assert project.findings() == [("judge.py", "FC003", 20), ("judge.py", "FC003", 26)]


def test_defaults_that_are_settings_or_not_judged_stay_quiet(project):
    """Controls: a setting's default (`kwargs.get("mode", "fast")`) compared in a scorer is no
    reply's answer; a search's default that nothing judges is only a value; a default the code
    itself replaces before the compare is gone."""
    project.write({"quiet.py": '''
        import re


        def score_batch(items, **kwargs):
            mode = kwargs.get("mode", "fast")
            if mode == "fast":
                return sum(item.score for item in items)
            return max(item.score for item in items)


        def letter_of(reply):
            m = re.search(r"ANSWER: ([A-D])", reply)
            return m.group(1) if m else "C"


        def grade_choice(reply, target):
            m = re.search(r"ANSWER: ([A-D])", reply)
            choice = m.group(1) if m else None
            if choice is None:
                return None
            return choice == target
        '''})
    assert project.findings() == []


def test_a_compare_result_decides_the_branches_that_read_it(project):
    """`ok = answer == expected` … `"correct" if ok else "wrong_answer"`: the name decides like the
    compare it holds. A handler naming one stage (`json_parse_error`) for a try that also compares
    is FC002 (issue 11, Missed), even in lowercase."""
    project.write({"grade.py": '''
        import json


        def parse_and_grade(reply, expected):
            try:
                data = json.loads(reply)
                answer = data["answer"]
                ok = answer == expected
            except Exception:
                return "json_parse_error"
            return "correct" if ok else "wrong_answer"


        def grade_flag(reply, expected):
            try:
                answer = normalize(json.loads(reply)["answer"])
                ok = answer == expected
            except Exception:
                return 0.0
            if ok:
                return 1.0
            return 0.0
        '''})
    assert project.findings() == [("grade.py", "FC002", 5), ("grade.py", "FC002", 15),
                                  ("grade.py", "FC003", 19)]


def test_a_success_default_that_a_swallowing_handler_leaves_standing(project):
    """Issue 11, Missed: `status = "success"` set before the work, which no error path overwrites:
    the handler that logs and goes on reports the failure as a success. Quiet when the handler
    writes the status, keeps what it caught to raise it later (langchain-core's tool runner, held
    out), or nothing reads the status after the try."""
    project.write({"batch.py": '''
        import logging

        log = logging.getLogger(__name__)


        def process(batch):
            status = "success"
            try:
                for item in batch:
                    handle(item)
            except Exception:
                log.exception("batch failed")
            return status


        def process_honestly(batch):
            status = "success"
            try:
                for item in batch:
                    handle(item)
            except Exception:
                status = "error"
            return status


        def run_tool(tool, args):
            status = "success"
            error_to_raise = None
            try:
                content = tool(*args)
            except Exception as e:
                error_to_raise = e
            if error_to_raise:
                raise error_to_raise
            return content, status


        def process_quietly(batch):
            status = "success"
            try:
                for item in batch:
                    handle(item)
            except Exception:
                log.exception("batch failed")
            return len(batch)


        def handle(item):
            return item
        '''})
    assert project.findings() == [("batch.py", "FC003", 11)]


def test_a_success_default_under_a_key_of_the_returned_record(project):
    """The same default under a dict key (`reply = {"status": "ok"}`): a handler that only logs leaves
    the record saying "ok" for the failure. This crashed the scan (StopIteration: the read of
    `reply` was looked up as `reply['status']`; ipykernel's `do_inspect`, found by session 33's
    sweep). Quiet when the handler writes another key of the record (`reply["found"] = False`):
    the record says what happened."""
    project.write({"kernel.py": '''
        import logging

        log = logging.getLogger(__name__)


        def inspect(shell, name):
            reply = {"status": "ok"}
            try:
                reply["data"] = shell.inspect(name)
            except Exception:
                log.warning("inspection failed")
            return reply


        def inspect_found(shell, name):
            reply = {"status": "ok"}
            try:
                reply["data"] = shell.inspect(name)
                reply["found"] = True
            except KeyError:
                reply["found"] = False
            return reply
        '''})
    assert project.findings() == [("kernel.py", "FC003", 10)]


def test_fc006_a_status_that_outlives_the_raise_and_blames_the_party(project):
    """Issue 11, Missed: a handler sets `status = "provider_failed"` and re-raises, and the `finally`
    records that status; the try also renders the prompt with our own code, so a bug there is
    recorded as the provider's failure. Quiet: a status nothing reads after the raise, an honest
    status, and a try that only calls our own thin wrapper."""
    project.write({"provider.py": '''
        def render(prompt):
            return prompt["system"] + prompt["user"]


        def call_provider(client, prompt, record):
            status = "ok"
            try:
                reply = client.complete(render(prompt))
            except Exception:
                status = "provider_failed"
                raise
            finally:
                record["status"] = status
            return reply


        def call_forgetting(client, prompt, record):
            try:
                reply = client.complete(render(prompt))
            except Exception:
                status = "provider_failed"
                raise
            finally:
                record["done"] = True
            return reply


        def call_honestly(client, prompt, record):
            status = "ok"
            try:
                reply = client.complete(render(prompt))
            except Exception:
                status = "failed"
                raise
            finally:
                record["status"] = status
            return reply


        def ask(client, prompt, record):
            try:
                reply = complete(client, prompt)
            except Exception:
                record["status"] = "provider_failed"
                return None
            return reply


        def complete(client, prompt):
            return client.complete(prompt)
        '''})
    assert project.findings() == [("provider.py", "FC006", 9)]


def test_fc006_a_lookup_default_keyed_by_the_exception_s_type(project):
    """Issue 11, Missed: the default of a lookup keyed by an exception's type names every type it
    does not list, our own bugs among them. Quiet: an internal default, and a lookup keyed by
    something else."""
    project.write({"errors.py": '''
        KINDS = {"RateLimitError": "rate_limited", "AuthenticationError": "auth_failed"}


        def classify(error):
            return KINDS.get(type(error).__name__, "provider_error")


        def classify_mro(error):
            return next((n.__name__ for n in type(error).__mro__ if n.__name__ in KINDS), "APIError")


        def classify_honestly(error):
            return KINDS.get(type(error).__name__, "internal_error")


        def label(kind):
            return KINDS.get(kind, "provider_error")
        '''})
    assert project.findings() == [("errors.py", "FC006", 5), ("errors.py", "FC006", 9)]


def test_fc006_no_result_after_a_child_is_not_always_a_timeout(project):
    """Issue 11, Missed: `if not result: result.append("timed out")` after waiting on a child
    process or thread records a crash of the child, or our own code raising in it, as a timeout.
    Quiet: an arm that asks the child how it ended, and a string join."""
    project.write({"runner.py": '''
        import multiprocessing
        import threading


        def run_case(fn, case):
            result = multiprocessing.Manager().list()
            p = multiprocessing.Process(target=fn, args=(case, result))
            p.start()
            p.join(10)
            if not result:
                result.append("timed out")
            return result[0]


        def run_in_thread(fn, case):
            result = []
            worker = threading.Thread(target=lambda: result.append(fn(case)))
            worker.start()
            worker.join(timeout=5)
            if not result:
                return {"status": "timeout"}
            return result[0]


        def run_checked(fn, case):
            result = multiprocessing.Manager().list()
            p = multiprocessing.Process(target=fn, args=(case, result))
            p.start()
            p.join(10)
            if not result:
                result.append("timed out" if p.exitcode is None else "crashed")
            return result[0]


        def label(parts):
            text = ",".join(parts)
            if not text:
                return "timeout"
            return text
        '''})
    assert project.findings() == [("runner.py", "FC006", 10), ("runner.py", "FC006", 20)]


def test_fc006_a_test_of_whether_the_child_is_still_alive_asks_how_it_ended(project):
    """After `thread.join(timeout)`, a name bound from `thread.is_alive()` holds the answer to "did
    it end?", and a child still alive after the wait truly timed out (mlflow's scorer timeout, judged
    false when reported): quiet, also when an `else` binds the name another way. Control, reported
    before and after: the same wait followed by a test of the result alone."""
    project.write({"runner.py": '''
        import threading


        def run_with_timeout(fn, timeout, event=None):
            outcome = {}
            thread = threading.Thread(target=lambda: outcome.update(value=fn()))
            thread.start()
            if event is None:
                thread.join(timeout)
                completed = not thread.is_alive()
            else:
                completed = event.wait(timeout)
            if not completed:
                raise TimeoutError(f"timed out after {timeout} seconds")
            return outcome["value"]


        def run_and_hope(fn, timeout):
            outcome = {}
            thread = threading.Thread(target=lambda: outcome.update(value=fn()))
            thread.start()
            thread.join(timeout)
            if not outcome:
                raise TimeoutError(f"timed out after {timeout} seconds")
            return outcome["value"]
        '''})
    assert project.findings() == [("runner.py", "FC006", 23)]


def test_fc006_one_cause_for_every_failing_status_or_every_polling_error(project):
    """Issue 11, Missed: a branch on every non-success status that names one cause ("backend
    not found": our own 400s and 401s too), and a polling loop whose catch-all records any error
    as a timeout. Quiet: an arm that passes the status on, or hands the reply itself to an error
    mapper or to the exception (the status goes with it; session 30), and a loop that catches the
    timeout."""
    project.write({"service.py": '''
        import time


        class ServiceUnavailable(Exception):
            pass


        def fetch(client, url):
            response = client.get(url)
            if response.status_code != 200:
                raise ServiceUnavailable("backend not found")
            return response.json()


        def fetch_honestly(client, url):
            response = client.get(url)
            if response.status_code != 200:
                raise ServiceUnavailable(f"backend returned {response.status_code}")
            return response.json()


        def poll(client, job):
            while True:
                try:
                    state = client.status(job)
                    if state.done:
                        return state.result
                except Exception:
                    return "timeout"
                time.sleep(1)


        def poll_honestly(client, job):
            while True:
                try:
                    state = client.status(job, timeout=5)
                    if state.done:
                        return state.result
                except TimeoutError:
                    return "timeout"
                time.sleep(1)


        def fetch_mapped(client, url):
            response = client.get(url)
            if not response.ok:
                raise error_for("backend unavailable", response)
            return response.json()


        def fetch_attached(client, url):
            response = client.get(url)
            if response.status_code >= 400:
                raise ServiceUnavailable("backend unavailable", response=response)
            return response.json()
        '''})
    assert project.findings() == [("service.py", "FC006", 10), ("service.py", "FC006", 28)]


def test_fc006_every_failing_status_said_as_one_cause_or_after_the_success_arm(project):
    """Issue 23, principle 6 (by cause as well as by party): a branch on every non-success status
    that says one specific cause ("model not found", "not available in your region") reports a
    bad key or a server error as that cause; and the words after `if response.status_code == 200:
    return …` are the arm of every failing status, as an `else` would be. Quiet: the arm after the
    success test that passes the status on, a path that does not leave (its words run on success
    too), a test of one status (404 is "not found"; control: quiet before and after), and, since
    session 51, an arm that names only the party it asked ("provider API call failed")."""
    project.write({"models.py": '''
        def load_model(client, name):
            response = client.get(f"/models/{name}")
            if response.status_code != 200:
                raise LookupError(f"model {name} not found")
            return response.json()


        def evaluation_service(session, url):
            response = session.get(url)
            if response.status_code == 200:
                return response.json()
            raise ValueError("The safety evaluation service is not available in your current region")


        def provider_reply(session, url):
            response = session.get(url)
            if response.ok:
                return response.json()
            raise RuntimeError("provider API call failed")


        def evaluation_service_honestly(session, url):
            response = session.get(url)
            if response.status_code == 200:
                return response.json()
            raise ValueError(f"The safety evaluation service answered {response.status_code}")


        def cached_reply(session, url, cache):
            response = session.get(url)
            if response.status_code == 200:
                cache[url] = response.json()
            log("provider API call failed")
            return cache.get(url)


        def one_status(client, name):
            response = client.get(f"/models/{name}")
            if response.status_code == 404:
                raise LookupError(f"model {name} not found")
            return response.json()
        '''})
    assert project.findings() == [("models.py", "FC006", 3), ("models.py", "FC006", 10)]


def test_fc006_a_failing_status_however_it_is_spelled(project):
    """One question however it is spelled (session 45): `not in (200, 201)`, `not 200 <= status <
    300`, `response.is_error` and `not response.is_success` take every failing status as one path,
    as `!= 200` does. Quiet: a set of statuses that holds one that is no success (`not in (200,
    404)`: a missing thing is an answer of its own there), and an arm that passes the status on."""
    project.write({"client.py": '''
        def model_card(client, name):
            response = client.get(f"/models/{name}")
            if response.status_code not in (200, 201):
                raise LookupError(f"model {name} not found")
            return response.json()


        def dataset(client, name):
            response = client.get(f"/datasets/{name}")
            if not 200 <= response.status_code < 300:
                raise LookupError(f"dataset {name} does not exist")
            return response.json()


        def completion(client, prompt):
            response = client.post("/complete", json={"prompt": prompt})
            if response.is_error:
                raise RuntimeError("completion model not found")
            return response.json()


        def embedding(client, text):
            response = client.post("/embed", json={"text": text})
            if response.is_success:
                return response.json()
            raise RuntimeError("embedding model not found")


        def optional_card(client, name):
            response = client.get(f"/models/{name}")
            if response.status_code not in (200, 404):
                raise LookupError(f"model {name} not found")
            return None if response.status_code == 404 else response.json()


        def honest_completion(client, prompt):
            response = client.post("/complete", json={"prompt": prompt})
            if response.is_error:
                raise RuntimeError(f"completion model not found: {response.status_code}")
            return response.json()
        '''})
    assert project.findings() == [("client.py", "FC006", 3), ("client.py", "FC006", 10),
                                  ("client.py", "FC006", 17), ("client.py", "FC006", 24)]


def test_fc006_an_arm_that_names_only_the_party_it_asked_is_quiet(project):
    """Issue 23: a party may be blamed when the work talks only to that party. A failing status is
    the asked party's answer to the one request made of it, so an arm that says only that the
    party's call failed (`raise Exception(f"Failed to fetch file list from GitHub API ({url})")`,
    a tracking server's "Failed to get experiments from MLflow API") says what happened; one that
    says a cause (`not found`) for every failing status still reports our own 401 as that cause.
    Measured in session 51 (POLICIES.md): tune 3 silenced, all judged false; held-out 1, false."""
    project.write({"fetch.py": '''
        import requests


        def file_list(api_url):
            response = requests.get(api_url, headers={"Accept": "application/vnd.github+json"})
            if response.status_code != 200:
                raise Exception(f"Failed to fetch file list from GitHub API ({api_url})")
            return response.json()


        def experiments(session, url):
            response = session.get(url)
            if response.status != 200:
                return {"ok": False, "message": "Failed to get experiments from the tracking API"}
            return {"ok": True, "experiments": response.json()}


        def file_list_by_cause(api_url):
            response = requests.get(api_url)
            if response.status_code != 200:
                raise FileNotFoundError(f"file list not found at {api_url}")
            return response.json()
        '''})
    assert project.findings() == [("fetch.py", "FC006", 20)]


def test_an_arm_that_says_the_bare_status_it_tested_passes_it_on(project):
    """athina's API step (session 36's sweep, judged false before the change): `if status_code >=
    400:` on a status handed in as a number, with an arm that says it ("Status code:
    {status_code}") and the reply's text, says which failure it was, as one that says
    `response.status_code` does. Control, reported before and after: the same arm without the
    status or the reply says one cause for every failing status (since session 51 an arm that
    names only the party it asked is quiet, so the control says a cause)."""
    project.write({"steps.py": '''
        class ApiStep:
            def process_response(self, status_code, response_text):
                if status_code >= 400:
                    return self.result(status="error",
                                       data=f"Failed to make the API call. Status code: {status_code} {response_text}")
                return self.result(status="success", data=response_text)

            def process_blindly(self, status_code, response_text):
                if status_code >= 400:
                    return self.result(status="error", data="The API is not available in your region.")
                return self.result(status="success", data=response_text)
        '''})
    assert project.findings() == [("steps.py", "FC006", 9)]


def test_an_arm_that_formats_the_reply_into_its_words_passes_it_on(project):
    """agentscope's DashScope clients (session 48's tune batch, judged false): `raise
    RuntimeError(f"… API error: {response}")` puts the whole reply, its status and message, into
    the words, as handing it to a call does; `%` formatting too. Control, reported before and
    after: the same arm formatting something else says one cause for every failing status."""
    project.write({"embed.py": '''
        def embed(client, texts):
            response = client.call(texts)
            if response.status_code != 200:
                raise RuntimeError(f"Embedding API error: {response}")
            return response.output


        def speak(client, text):
            for chunk in client.stream(text):
                if chunk.status_code != 200:
                    raise RuntimeError("TTS API error: %s" % (chunk,))
                yield chunk.audio


        def embed_blindly(client, texts, request):
            response = client.call(texts)
            if response.status_code != 200:
                raise RuntimeError(f"Embedding model not found for {request}")
            return response.output
        '''})
    assert project.findings() == [("embed.py", "FC006", 17)]


def test_a_message_each_path_fills_is_said_of_what_comes_later(project):
    """arize-phoenix's span and trace deletes (session 48's tune batch, judged false): the try binds
    `detail = f"… not found"` for a relay ID, and the handler binds the same name for a span_id;
    the words are said only if the delete then finds no row, whichever way the ID was read, so
    they are no cause the handler gives its failure. Control, reported before and after: a
    handler that binds "not found" to a name the try does not fill."""
    project.write({"spans.py": '''
        async def delete_span(session, identifier):
            try:
                rowid = from_global_id(GlobalID.from_id(identifier), "Span")
                predicate = Span.id == rowid
                detail = f"Span with relay ID {identifier!r} not found"
            except Exception:
                predicate = Span.span_id == identifier
                detail = f"Span with span_id {identifier!r} not found"
            span = await session.scalar(delete(Span).where(predicate))
            if span is None:
                raise HTTPException(404, detail)


        def load_span(session, identifier):
            try:
                rowid = from_global_id(GlobalID.from_id(identifier), "Span")
                return session.get(Span, rowid)
            except Exception:
                detail = f"Span {identifier!r} not found"
                raise HTTPException(404, detail)
        '''})
    assert project.findings() == [("spans.py", "FC006", 18)]


def test_a_message_both_arms_fill_is_no_absence_said(project):
    """arize-phoenix's session delete (session 48's tune batch, judged false): after `row_id =
    _parse_id(key)`, whose catch-all answers None, both arms of `if row_id is not None:` bind
    `detail = f"… not found"` for the later delete; the `else` says nothing of why the parse gave
    nothing back. Control, reported before and after: a caller whose arm for None says "not found"
    itself, at the catch-all of the helper it calls."""
    project.write({"sessions.py": '''
        def _parse_id(identifier):
            try:
                return from_global_id(GlobalID.from_id(identifier), "Session")
            except Exception:
                return None


        def _parse_key(identifier):
            try:
                return from_global_id(GlobalID.from_id(identifier), "Session")
            except Exception:
                return None


        async def delete_session(db, identifier):
            row_id = _parse_id(identifier)
            if row_id is not None:
                where = Session.id == row_id
                detail = f"Session with ID {identifier!r} not found"
            else:
                where = Session.session_id == identifier
                detail = f"Session with session_id {identifier!r} not found"
            deleted = await db.execute(delete(Session).where(where))
            if not deleted:
                raise HTTPException(404, detail)


        async def get_session(db, identifier):
            row_id = _parse_key(identifier)
            if row_id is None:
                raise HTTPException(404, f"Session {identifier!r} not found")
            return await db.get(Session, row_id)
        '''})
    assert project.findings() == [("sessions.py", "FC006", 11)]


def test_fc002_a_compare_of_a_field_of_what_the_try_parsed(project):
    """lighteval's emotion metric (labelled): the try parses the reply, looks the gold label up in
    our own table and compares a field of the parsed reply with it; the handler returns
    exact_match 0.0 for all three. Control: a compare of two fields of one stored record, nothing
    the try read."""
    project.write({"metric.py": '''
        LABELS = ["anger", "joy"]


        def emotion_metric(text, gold_index):
            try:
                prediction = parse_emotion_response(text)
                expected = LABELS[gold_index]
                is_match = prediction["classification"] == expected
                return {"exact_match": float(is_match)}
            except (IndexError, KeyError):
                return {"exact_match": 0.0}


        def stored_metric(record):
            try:
                log_it(parse_emotion_response(record.text))
                same = record.fields["a"] == record.fields["b"]
                return {"exact_match": float(same)}
            except (IndexError, KeyError):
                return {"exact_match": 0.0}
        '''})
    assert ("metric.py", "FC002", 5) in project.findings()
    assert not [f for f in project.findings() if f[1] == "FC002" and f[2] > 5]


def test_a_handler_that_only_names_the_type_in_its_log_does_not_narrow(project):
    """`logger.warning(f"{type(e)}: {e}")` says what was caught; it does not sort it. Control:
    `if isinstance(e, RateLimitError)` looks before it speaks."""
    project.write({"client.py": '''
        async def call_api(client, kwargs, num_samples):
            try:
                if kwargs.get("temperature") == 0.0 and num_samples > 1:
                    raise ValueError("temperature 0 with several samples")
                return await client.complete(**kwargs)
            except Exception as e:
                logger.warning(f"{type(e)}: Error in API call")


        async def call_sorted(client, kwargs, num_samples):
            try:
                if kwargs.get("temperature") == 0.0 and num_samples > 1:
                    raise ValueError("temperature 0 with several samples")
                return await client.complete(**kwargs)
            except Exception as e:
                if isinstance(e, RateLimitError):
                    logger.warning("Error in API call")
        '''})
    assert project.findings() == [("client.py", "FC006", 6)]


def test_a_recorded_code_after_a_log_that_names_the_type(project):
    """The same for a recorded code: `logger.warning(f"{type(e)}")` does not sort what was caught,
    so the handler that then records PROVIDER_FAILED around our own `render` is FC006."""
    project.write({"runner.py": '''
        def render(case):
            return case["prompt"]


        def run(client, case, failures):
            try:
                prompt = render(case)
                return client.complete(prompt)
            except Exception as e:
                logger.warning(f"{type(e)} while calling")
                failures.add("PROVIDER_FAILED")
        '''})
    assert project.findings() == [("runner.py", "FC006", 9)]


def test_fc002_running_the_candidate_is_a_stage_of_its_own(project):
    """Issue 11 / the contract's `execute` stage: a try that runs the candidate (`exec`, a
    subprocess) and compares its output records False for both; a configured runner counts too.
    The verdict is also read against `test["expected"]`, a reference by its key."""
    project.write({"pyproject.toml": '[tool.failcode.stages]\nexecute = ["run_candidate"]\n', "check.py": '''
        def check_solution(code, tests):
            results = []
            for test in tests:
                try:
                    namespace = {}
                    exec(code, namespace)
                    got = namespace["solution"](*test["input"])
                    results.append(got == test["expected"])
                except Exception:
                    results.append(False)
            return results


        def check_runner(code, test):
            try:
                got = run_candidate(code, test["input"])
                return got == test["expected"]
            except Exception:
                return False
        '''})
    assert project.findings() == [("check.py", "FC002", 4), ("check.py", "FC003", 10),
                                  ("check.py", "FC002", 15), ("check.py", "FC003", 19)]


def test_a_parsed_reply_s_default_that_the_code_lists_among_the_genuine_answers(project):
    """opik's SycEval parser (labelled): `.get("sycophancy_type", "none")` on the parsed judge reply,
    then `not in ["progressive", "regressive", "none"]`: a reply without the field passes as the
    genuine answer "none". Quiet: a single `==` against the default (`depth == 0` after a default
    of 0: the default means what it says), and a setting's default."""
    project.write({"parser.py": '''
        import json
        import re


        def parse_model_output(content):
            data = json.loads(content)
            kind = data.get("sycophancy_type", "none")
            if kind not in ["progressive", "regressive", "none"]:
                raise ValueError(kind)
            return kind


        def nesting(text):
            m = re.search(r"^(>+)", text)
            depth = len(m.group(1)) if m else 0
            if depth == 0:
                return text
            return text[depth:]


        def mode_of(path, choices):
            cfg = load_settings(path)
            mode = cfg.get("mode", "fast")
            if mode in ("fast", "slow"):
                return mode
            raise ValueError(mode)
        '''})
    assert project.findings() == [("parser.py", "FC003", 7)]


def test_a_setting_named_after_a_verdict_word_does_not_weigh(project):
    """urllib3's connection (site-packages): `context.verify_mode != ssl.CERT_NONE` checks a setting,
    so `getattr(context, "hostname_checks_common_name", False)` beside the branch's `False` is no
    fallback for a verdict. Control: `score != expected` weighs, and the `.get` default beside it
    is reported."""
    project.write({"conn.py": '''
        import ssl


        def connect(context, default_ssl_context):
            if context.verify_mode != ssl.CERT_NONE:
                if default_ssl_context:
                    checks = False
                else:
                    checks = getattr(context, "hostname_checks_common_name", False) or False
                return checks
            return None


        def grade(result, expected):
            if result.score != expected:
                passed = False
            else:
                passed = result.details.get("passed", False)
            return passed
        '''})
    assert project.findings() == [("conn.py", "FC003", 18)]


def test_what_follows_a_retry_loop_is_the_fallback_for_every_attempt_failing(project):
    """A judge call retried in a loop returns its verdict from the try; after the loop, `return
    False` is what every failed attempt records, the verdict "below the threshold". Quiet: a loop
    that returns None when it gives up, and one whose handler raises on the last attempt."""
    project.write({"judge.py": '''
        import time


        def judge(client, prompt, threshold):
            for attempt in range(3):
                try:
                    reply = client.chat(prompt)
                    return float(reply.score) >= threshold
                except Exception:
                    time.sleep(1)
            return False


        def judge_or_nothing(client, prompt, threshold):
            for attempt in range(3):
                try:
                    reply = client.chat(prompt)
                    return float(reply.score) >= threshold
                except Exception:
                    time.sleep(1)
            return None


        def judge_strictly(client, prompt, threshold):
            for attempt in range(3):
                try:
                    reply = client.chat(prompt)
                    return float(reply.score) >= threshold
                except Exception:
                    if attempt == 2:
                        raise
                    time.sleep(1)
            return False
        '''})
    assert project.findings() == [("judge.py", "FC003", 11)]


def test_a_polling_handler_that_records_a_code_is_judged_once(project):
    """A catch-all in a polling loop that records PROVIDER_FAILED around our own `render` is the
    recorded-code FC006 (a crash before: the polling note on the same `except` hid the handler's)."""
    project.write({"poll.py": '''
        import time


        def render(job):
            return job["id"]


        def poll(client, job, failures):
            while True:
                try:
                    state = client.status(render(job))
                    if state.done:
                        return state.result
                except Exception:
                    failures.add("PROVIDER_FAILED")
                    return "timeout"
                time.sleep(1)
        '''})
    result = project.run("check", ".")
    assert result.returncode == 1 and "crashed" not in result.stderr + result.stdout, result.stdout + result.stderr
    assert project.findings() == [("poll.py", "FC006", 14)]


def test_placeholder_after_every_retry_failed_reads_as_the_reply(project):
    """alpaca_eval's Cohere helper and lighteval's litellm client: when every attempt failed, what
    follows the retry loop returns a placeholder where the reply goes (`" "`, an empty response
    object), and the caller scores it as the model's answer. Any handler that goes on to the next
    attempt counts, the provider's own error class too."""
    project.write({"client.py": '''
        import logging


        def complete(client, prompt, max_tries=5):
            for trynum in range(max_tries):
                try:
                    response = client.generate(prompt=prompt)
                    text = response[0].text
                    return text, len(response[0].tokens)
                except CohereError as e:
                    logging.info("try %d failed: %s", trynum, e)
            return " ", 0


        def call_api(kwargs, retries):
            for attempt in range(retries):
                try:
                    response = litellm.completion(**kwargs)
                    return response
                except Exception as e:
                    time.sleep(2 ** attempt)
            logging.error("API call failed, returning empty response")
            return ModelResponse()
        '''})
    assert project.findings() == [("client.py", "FC003", 12), ("client.py", "FC003", 23)]


def test_a_reply_read_by_the_standard_library_is_still_the_reply(project):
    """A reply decoded by the standard library (`json.loads(res)` of what `requests.post` answered)
    is the service's reply, and so is what `urllib.request.urlopen` answers: the standard library
    reaches hosts too. A placeholder after the retries stands in for it."""
    project.write({"infer.py": '''
        import json
        import time
        import urllib.request

        import requests


        def ask(url, payload):
            for _ in range(5):
                try:
                    res = requests.post(url, data=payload, timeout=60)
                    res = json.loads(res.text)
                    return res["choices"][0]["message"]["content"]
                except KeyError:
                    time.sleep(1)
            return ""


        def fetch(url):
            for _ in range(3):
                try:
                    reply = urllib.request.urlopen(url)
                    return reply.read().decode()
                except Exception:
                    time.sleep(1)
            return ""
        '''})
    assert project.findings() == [("infer.py", "FC003", 16), ("infer.py", "FC003", 26)]


def test_trying_formats_on_our_own_data_is_no_reply(project):
    """evalscope's report timestamp: a loop that tries each format on a string of our own
    (`datetime.strptime(run_id, fmt)`) asks no one; when none fits, the empty text is the honest
    "no timestamp", not a placeholder for a reply. Control (reported before and after): the
    same loop around a service's reply stays reported (test above)."""
    project.write({"reports.py": '''
        import json
        from datetime import datetime


        def timestamp(run_id):
            for fmt in ("%Y%m%d_%H%M%S", "%Y%m%d"):
                try:
                    return datetime.strptime(run_id, fmt).isoformat()
                except ValueError:
                    continue
            return ""


        def settings(texts):
            for text in texts:
                try:
                    return json.loads(text)["name"]
                except (ValueError, KeyError):
                    continue
            return ""
        '''})
    assert project.findings() == []


def test_no_reply_after_retries_stays_quiet(project):
    """Controls: None, a raise, an empty list after the retries say there is no reply; a retry
    loop whose try answers a constant (`return True` after a ping) has no reply to stand in for."""
    project.write({"client.py": '''
        def fetch(session, url):
            for _ in range(3):
                try:
                    reply = session.get(url)
                    return reply.json()
                except Exception:
                    time.sleep(1)
            return None


        def fetch_or_raise(session, url):
            for _ in range(3):
                try:
                    return session.get(url).json()
                except ConnectionError:
                    time.sleep(1)
            raise RuntimeError(f"{url} unreachable")


        def fetch_rows(session, url):
            for _ in range(3):
                try:
                    return session.get(url).json()["rows"]
                except Exception:
                    time.sleep(1)
            return []


        def reachable(client):
            for _ in range(3):
                try:
                    client.ping()
                    return True
                except Exception:
                    time.sleep(1)
            return False
        '''})
    assert project.findings() == []


def test_default_left_standing_reads_as_what_the_reply_said(project):
    """haystack's fetcher and nemoguardrails' Prompt Security rail: a default set before the try,
    overwritten there from what a call answered, and left standing by a catch-all (one that
    re-raises only when a setting says so counts) reads as the reply's own answer."""
    project.write({"fetch.py": '''
        class Fetcher:
            def fetch(self, url):
                content_type: str = "text/html"
                stream = ByteStream(data=b"")
                try:
                    response = self._get_response(url)
                    content_type = self._content_type(response)
                    stream = self._read(response)
                except Exception as e:
                    if self.raise_on_failure:
                        raise e
                    logger.debug("could not fetch %s", url)
                return {"content_type": content_type, "url": url}, stream


        async def protect(client, prompt):
            action = "log"
            try:
                result = await client.post(URL, json={"prompt": prompt})
                data = result.json()
                action = data.get("result", {}).get("action", "log")
            except Exception as e:
                log.error("protect API failed: %s", e)
            return {"is_blocked": action == "block", "is_modified": action == "modify"}
        '''})
    assert project.findings() == [("fetch.py", "FC003", 9), ("fetch.py", "FC003", 22)]


def test_setting_defaults_left_standing_stay_quiet(project):
    """Controls: a setting's default read from one call (`locale.nl_langinfo`), a narrow handler,
    a default that says there is none (`"Not provided"`), a count computed from our own input, and
    a handler that re-raises on what it caught keep their defaults honestly."""
    project.write({"defaults.py": '''
        def encoding():
            enc = "utf-8"
            try:
                import locale
                enc = locale.nl_langinfo(locale.CODESET)
            except Exception:
                pass
            return enc


        def describe(self, program):
            description = "Not provided"
            try:
                summary = self.describe_program(program)
                description = self.describe_module(summary.text).description
            except Exception:
                self.aware = False
            return description


        def count_tokens(messages):
            prompt_tokens = 0
            try:
                prompt_tokens = litellm.token_counter(messages=messages)
            except Exception:
                pass
            return {"prompt_tokens": prompt_tokens}


        def read_size(session, url):
            size = 0
            try:
                reply = session.head(url)
                size = int(reply.headers["content-length"])
            except KeyError:
                pass
            return size


        def fetch_kind(session, url):
            kind = "text/html"
            try:
                reply = session.get(url)
                kind = reply.headers.get("content-type")
            except Exception as e:
                if is_fatal(e):
                    raise
            return kind
        '''})
    assert project.findings() == []


def test_compare_of_what_a_reply_said_is_the_verdict_a_catch_all_repeats(project):
    """aider's version check: `parse(latest) > parse(current)` in the try weighs what PyPI said, and
    the catch-all answers False, "no newer release", for every failure to ask."""
    project.write({"version.py": '''
        def check_version(current):
            try:
                response = requests.get("https://pypi.org/pypi/aider-chat/json")
                data = response.json()
                latest = data["info"]["version"]
                is_update_available = parse(latest) > parse(current)
            except Exception as err:
                print(f"Error checking pypi for new version: {err}")
                return False
            if not is_update_available:
                return False
            return True


        def newer_than(current, candidate):
            is_newer = parse(candidate) > parse(current)
            return is_newer
        '''})
    assert project.findings() == [("version.py", "FC003", 9)]


def test_machinery_that_fails_closed_stays_quiet(project):
    """torch: a predicate that does not judge answers "no" when its check raises
    (`is_dense_contiguous`, `are_block_parameters_compatible`), even when a call that compares
    decides its other answers; an existence probe of our own module loader is the loader's
    answer; a compare of what a regex found in our own path is no reply's verdict."""
    project.write({"machinery.py": '''
        import os
        import re


        def is_dense_contiguous(x):
            try:
                layout = as_layout(x)
                if not layout.is_contiguous():
                    return False
                return sizevars.statically_known_equals(layout.size(), layout.numel())
            except NotImplementedError:
                return False


        class Exporter:
            def _import_module(self, name):
                return self.importer.import_module(name)

            def _module_exists(self, name):
                try:
                    self._import_module(name)
                    return True
                except Exception:
                    return False


        def strict_default(path, non_strict):
            strict = False
            try:
                match = re.match(r".*/test/(.*).py", os.path.abspath(path))
                if match is not None:
                    name = match.group(1)
                    strict = name not in non_strict
            except (OSError, TypeError):
                pass
            return strict
        '''})
    assert project.findings() == []


def test_handlers_that_decide_or_say_why_stay_quiet(project):
    """lm_eval: chartqa's `except ValueError` path judges a text reference (it returns 1.0 only when
    a candidate phrase is found), and longproc's handlers return the verdict beside a reason
    (`False, "timeout"`): neither is a blanket fallback read as the genuine verdict."""
    project.write({"metrics.py": '''
        def relaxed_match(model_answer, references):
            for ref in references:
                try:
                    number = float(ref)
                    if format(number, ",") in model_answer:
                        return 1.0
                except ValueError:
                    candidates = [f"is {r}" for r in references]
                    if any(c.lower() in model_answer for c in candidates):
                        return 1.0
            return 0


        def grade_program(exe_file, testcases):
            for inputs, outputs in testcases:
                proc = Popen([exe_file], stdin=PIPE, stdout=PIPE)
                try:
                    out, _ = proc.communicate(inputs, timeout=3)
                    expected = "\\n".join(outputs)
                    if out.decode() != expected:
                        return False, "inconsistent"
                except subprocess.TimeoutExpired:
                    proc.kill()
                    return False, "timeout"
                except Exception:
                    return False, "unknown error"
            return True, ""
        '''})
    assert project.findings() == []


def test_a_blanket_handler_beside_a_decision_is_still_reported(project):
    """Control: the handler's unconditional `return False` after a logged branch is the fallback
    that reads as the compare's verdict. The try normalises the answer and the reference in one
    handler's reach, so it is two parties' failures too (FC002 at the try)."""
    project.write({"grade.py": '''
        def grade(answer, expected, verbose):
            try:
                got = normalise(answer)
                return got == normalise(expected)
            except Exception as e:
                if verbose:
                    print(e)
                return False
        '''})
    assert project.findings() == [("grade.py", "FC002", 2), ("grade.py", "FC003", 8)]


def test_a_default_of_nothing_is_no_answer(project):
    """agno's schedule validation: `(None, None)` when the endpoint does not match is a pair with
    nothing in it, not an answer the later compare against it judges."""
    project.write({"schedule.py": '''
        def validate_update(kwargs, allowed):
            if "endpoint" in kwargs:
                target = ENDPOINT.fullmatch(kwargs["endpoint"])
                expected = (target.group(1), target.group(2)) if target else (None, None)
                if (kwargs["target_type"], kwargs["target_id"]) == expected:
                    allowed.update({"target_type", "target_id"})
            return allowed
        '''})
    assert project.findings() == []


def test_a_reference_default_is_not_a_judged_answer(project):
    """airflow's trigger rule: `expected = session.scalar(count) or 0` is what `done` is measured
    against; a query with no rows counts zero, and no answer is judged by its default. The control
    beside it judges a reply's own default (`verdict or "no"`), which reads as the answer "no"."""
    project.write({"rules.py": '''
        def upstream_done(session, query, done):
            expected = session.scalar(query) or 0
            if done < expected:
                return False
            return True


        def judge(client, prompt):
            verdict = client.ask(prompt) or "no"
            return verdict == "yes"
        '''})
    assert project.findings() == [("rules.py", "FC003", 9)]
