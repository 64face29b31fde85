"""One JSON receipt line per run: the run's id and its failures, worst first."""
import json

# Worst first: a provider outage explains everything after it.
FAILURE_ORDER = (
    "PROVIDER_TIMEOUT",
    "PROVIDER_FAILED",
    "EXEC_CALL_COUNT_MISMATCH",
    "ARGUMENTS_INVALID",
    "ANSWER_INVALID",
    "EXEC_ARGUMENTS_MISMATCH",
    "COMPARE_FAILED",
    "ANSWER_INVALID",
    "ANSWER_MISMATCH",
)


def receipt(run_id, failures):
    """The receipt line for one run; a run without failures passed."""
    ordered = [code for code in FAILURE_ORDER if code in failures]
    return json.dumps({"run": run_id, "failures": ordered, "passed": not ordered})
