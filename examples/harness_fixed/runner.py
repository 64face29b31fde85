"""Run one case: ask the agent, then reduce and grade what it did."""
from .grader import grade_answer
from .receipts import receipt
from .reducer import reduce_run


def run_case(client, case):
    """Run `case` with `client` and return its receipt line."""
    failures = set()
    try:
        run = client.run_agent(case["prompt"], tools=case["tools"], timeout=60)
    except TimeoutError:
        failures.add("PROVIDER_TIMEOUT")
        return receipt(case["id"], failures)
    except ConnectionError:
        failures.add("PROVIDER_FAILED")
        return receipt(case["id"], failures)
    try:
        reduce_run(case, run, failures)
        grade_answer(case, run["answer"], failures)
    except Exception:
        # Everything in this block is our code: a crash here is our failure.
        failures.add("INTERNAL_ERROR")
    return receipt(case["id"], failures)
