"""Grade the agent's final answer against the case's expected answer."""
from decimal import Decimal


def normalise(answer):
    """Read a numeric answer so that "1,000.50" and "1000.5" compare equal."""
    return Decimal(answer.replace(",", "").strip())


def grade_answer(case, answer, failures):
    """Return True if the answer is right; otherwise add a failure code."""
    try:
        expected = normalise(case["expected"])
        got = normalise(answer)
    except Exception:
        failures.add("ANSWER_MISMATCH")
        return False
    if got != expected:
        failures.add("ANSWER_MISMATCH")
        return False
    return True
