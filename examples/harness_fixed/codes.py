"""The failure codes the harness records, worst first.

Every site that records a failure uses one of these codes. Dashboards and alerts
are keyed on them. Receipts list failures in this order, so there is no second
list to keep in step.
"""

FAILURE_CODES = (
    "PROVIDER_TIMEOUT",
    "PROVIDER_FAILED",
    "INTERNAL_ERROR",
    "EXEC_TOOL_MISMATCH",
    "EXEC_CALL_COUNT_MISMATCH",
    "ARGUMENTS_INVALID",
    "EXEC_ARGUMENTS_MISMATCH",
    "COMPARE_FAILED",
    "ANSWER_INVALID",
    "ANSWER_MISMATCH",
)
