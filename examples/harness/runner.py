"""Run one case: ask the agent, then reduce and grade what it did."""
from .grader import grade_answer
from .receipts import receipt
from .reducer import reduce_run


def run_case(client, case):
    """Run `case` with `client` and return its receipt line."""
    failures = set()
    try:
        run = client.run_agent(case["prompt"], tools=case["tools"], timeout=60)
        reduce_run(case, run, failures)
        grade_answer(case, run["answer"], failures)
    except TimeoutError:
        failures.add("PROVIDER_TIMEOUT")
    except Exception:
        failures.add("PROVIDER_FAILED")
    return receipt(case["id"], failures)
