"""Grade the agent's final answer against the case's expected answer."""
from decimal import Decimal, InvalidOperation


def normalise(answer):
    """Read a numeric answer so that "1,000.50" and "1000.5" compare equal."""
    return Decimal(answer.replace(",", "").strip())


def grade_answer(case, answer, failures):
    """Return True if the answer is right; otherwise add a failure code."""
    # A malformed expected answer is a bug in our case file, not the agent's:
    # let it raise so that the runner records it as ours.
    expected = normalise(case["expected"])
    try:
        got = normalise(answer)
    except InvalidOperation:
        failures.add("ANSWER_INVALID")
        return False
    if got != expected:
        failures.add("ANSWER_MISMATCH")
        return False
    return True
