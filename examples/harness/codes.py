"""The failure codes the harness records.

Every site that records a failure uses one of these codes. Dashboards and alerts
are keyed on them.
"""

FAILURE_CODES = (
    "PROVIDER_TIMEOUT",
    "PROVIDER_FAILED",
    "EXEC_TOOL_MISMATCH",
    "EXEC_CALL_COUNT_MISMATCH",
    "ARGUMENTS_INVALID",
    "EXEC_ARGUMENTS_MISMATCH",
    "COMPARE_FAILED",
    "ANSWER_INVALID",
    "ANSWER_MISMATCH",
    "INTERNAL_ERROR",
)
