"""A catch-all's failure folded into a mean (issue 23, principle 2: a failure record excuses the
value only when its consumers read the error before they aggregate the value), through the real CLI
on temp projects. Expected (path, rule, line) come from the contract: FC003 at the recording site
in the handler, here the record the handler writes."""

from __future__ import annotations

from conftest import findings_of


def _line_of(source: str, text: str) -> int:
    """The line holding `text`, numbered as written to disk (leading newline dropped)."""
    return next(number for number, line in enumerate(source.lstrip("\n").splitlines(), 1) if text in line)


def _check(project, files: dict[str, str]) -> list[tuple[str, str, int]]:
    project.write({name: text.lstrip("\n") for name, text in files.items()})
    result = project.run("check", "--format", "json", ".")
    assert result.returncode in (0, 1), result.stderr
    return sorted(findings_of(result))


RESULTS = '''
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
'''

RUNNER = '''
from pkg.results import MetricResult


def run_metrics(metrics, case):
    out = []
    for metric in metrics:
        try:
            out.append(metric.measure(case))
        except Exception as e:
            out.append(MetricResult(name=metric.name, score=0.0, passed=False, reason=f"metric error: {e}"))
    return out
'''


def test_a_failure_told_in_words_and_averaged_by_a_report_in_another_module(project):
    found = _check(project, {"pkg/__init__.py": "", "pkg/results.py": RESULTS, "pkg/runner.py": RUNNER})
    assert found == [("pkg/runner.py", "FC003", _line_of(RUNNER, "out.append(MetricResult("))]


def test_the_message_names_the_fold_that_does_not_read_the_words(project):
    project.write({"pkg/__init__.py": "", "pkg/results.py": RESULTS.lstrip("\n"), "pkg/runner.py": RUNNER.lstrip("\n")})
    result = project.run("check", "--format", "json", ".")
    message = next(f["message"] for f in __import__("json").loads(result.stdout)["findings"])
    assert "`Report.average` (pkg/results.py:" in message and "without reading `reason`" in message


BENCHMARK = '''
class Benchmark:
    def __init__(self, agent, grader):
        self.agent, self.grader = agent, grader

    def run(self, tasks):
        results = []
        for task in tasks:
            try:
                answer = self.agent.step(task.question)
                results.append({"question": task.question, "correct": self.grader.check(answer, task.expected)})
            except Exception as e:
                results.append({"question": task.question, "correct": False, "error": str(e)})
        correct = sum(r["correct"] for r in results)
        return {"accuracy": correct / len(results) if results else None}
'''


def test_a_count_of_passes_in_the_same_function_that_never_reads_the_error(project):
    found = _check(project, {"bench.py": BENCHMARK})
    assert found == [("bench.py", "FC003", _line_of(BENCHMARK, '"correct": False, "error": str(e)'))]


# -- quiet twins --------------------------------------------------------------------------------------

def test_a_fold_that_reads_the_error_first_stays_quiet(project):
    reads = RESULTS.replace("return sum(r.score for r in self.results) / len(self.results)",
                            "scored = [r for r in self.results if not r.reason]\n"
                            "        return sum(r.score for r in scored) / len(scored) if scored else None")
    assert reads != RESULTS
    assert _check(project, {"pkg/__init__.py": "", "pkg/results.py": reads, "pkg/runner.py": RUNNER}) == []


def test_a_count_that_skips_the_errored_rows_stays_quiet(project):
    skips = BENCHMARK.replace('sum(r["correct"] for r in results)',
                              'sum(r["correct"] for r in results if not r.get("error"))')
    assert skips != BENCHMARK
    assert _check(project, {"bench.py": skips}) == []


def test_a_record_that_flags_the_failure_stays_quiet(project):
    flagged = RUNNER.replace('reason=f"metric error: {e}")', 'reason=f"metric error: {e}", failed=True)')
    assert flagged != RUNNER
    assert _check(project, {"pkg/__init__.py": "", "pkg/results.py": RESULTS, "pkg/runner.py": flagged}) == []


def test_records_no_fold_of_ours_takes_stay_quiet(project):
    """Control (quiet before and after the change): a library that hands its records to the user."""
    alone = RESULTS.replace("return sum(r.score for r in self.results) / len(self.results)", "return self.results")
    assert alone != RESULTS
    assert _check(project, {"pkg/__init__.py": "", "pkg/results.py": alone, "pkg/runner.py": RUNNER}) == []


def test_a_fold_of_a_field_of_the_same_name_in_an_unrelated_module_stays_quiet(project):
    other = '''
def mean_score(games):
    return sum(g.score for g in games) / len(games)
'''
    alone = RESULTS.replace("return sum(r.score for r in self.results) / len(self.results)", "return self.results")
    found = _check(project, {"pkg/__init__.py": "", "pkg/results.py": alone, "pkg/runner.py": RUNNER,
                             "pkg/games.py": other})
    assert found == []


def test_a_narrow_handler_of_the_candidates_answer_stays_quiet(project):
    narrow = RUNNER.replace("out.append(metric.measure(case))", "out.append(metric.measure(int(case.answer)))") \
        .replace("except Exception as e:", "except ValueError as e:")
    assert narrow != RUNNER
    assert _check(project, {"pkg/__init__.py": "", "pkg/results.py": RESULTS, "pkg/runner.py": narrow}) == []
