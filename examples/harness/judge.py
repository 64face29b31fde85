"""The LLM judge and the math checker, as real evaluation libraries write them."""
import contextlib
import logging
import re

from math_verify import parse, verify

log = logging.getLogger(__name__)


class JudgeError(Exception):
    """The judge model could not be asked."""


@contextlib.contextmanager
def judge_reply(client, prompt):
    """Ask the judge model; the caller reads the reply inside the `with` block."""
    try:
        yield client.complete(prompt)
    except Exception as e:
        log.error("Failed to call the LLM provider: %s", e)
        raise JudgeError(str(e)) from e


def process_judge_response(reply):
    """The judge's score out of 9, from a reply like `[[7]]`."""
    match = re.search(r"\[\[(\d)\]\]", reply)
    return int(match.group(1)) if match else 0


def math_score(gold, answer):
    """1.0 when the answer is mathematically the gold answer, else 0.0."""
    try:
        parsed_gold = parse(gold)
        parsed_answer = parse(answer)
        return float(verify(parsed_gold, parsed_answer))
    except Exception:
        return 0.0
