"""The LLM judge and the math checker, with every failure told apart from a verdict."""
import contextlib
import logging
import re

from math_verify import parse, verify

log = logging.getLogger(__name__)


class JudgeError(Exception):
    """The judge model could not be asked."""


@contextlib.contextmanager
def judge_reply(client, prompt):
    """Ask the judge model; the caller reads the reply inside the `with` block. Only the call is
    guarded: an error in the caller's own reading of the reply stays the caller's."""
    try:
        reply = client.complete(prompt)
    except Exception as e:
        log.error("Failed to call the LLM provider: %s", e)
        raise JudgeError(str(e)) from e
    yield reply


def process_judge_response(reply):
    """The judge's score out of 9, from a reply like `[[7]]`; None when the reply has none."""
    match = re.search(r"\[\[(\d)\]\]", reply)
    return int(match.group(1)) if match else None


def math_score(gold, answer):
    """1.0 when the answer is mathematically the gold answer, 0.0 when it is not; a gold answer
    that cannot be read is our data's fault and raises."""
    parsed_gold = parse(gold)
    try:
        parsed_answer = parse(answer)
    except Exception:
        return None  # an unreadable answer: scored apart from a wrong one
    return float(verify(parsed_gold, parsed_answer))
