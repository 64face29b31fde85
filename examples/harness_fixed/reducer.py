"""Reduce a recorded agent run to the failure codes its tool calls show."""
import json

from .codes import FAILURE_CODES  # noqa: F401 - the registry of the codes recorded here


def canonical_json(value):
    """Serialise a JSON value so that equal values give equal strings."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def reduce_call(expected, call, failures):
    """Check one tool call the agent made against the call the case expects."""
    if call["name"] != expected["name"]:
        failures.add("EXEC_TOOL_MISMATCH")
        return
    try:
        arguments = json.loads(call["arguments"])
    except json.JSONDecodeError:
        failures.add("ARGUMENTS_INVALID")
        return
    try:
        same = canonical_json(arguments) == canonical_json(expected["arguments"])
    except (TypeError, ValueError):
        failures.add("COMPARE_FAILED")
        return
    if not same:
        failures.add("EXEC_ARGUMENTS_MISMATCH")


def reduce_run(case, run, failures):
    """Add the failures of every tool call in the run to the set `failures`."""
    if len(run["calls"]) != len(case["calls"]):
        failures.add("EXEC_CALL_COUNT_MISMATCH")
    for expected, call in zip(case["calls"], run["calls"]):
        reduce_call(expected, call, failures)
