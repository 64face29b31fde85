"""One JSON receipt line per run: the run's id and its failures, worst first."""
import json

from .codes import FAILURE_CODES


def receipt(run_id, failures):
    """The receipt line for one run; a run without failures passed."""
    unknown = sorted(code for code in failures if code not in FAILURE_CODES)
    if unknown:
        raise TypeError(f"unknown failure reason: {', '.join(unknown)}")
    ordered = sorted(failures, key=FAILURE_CODES.index)
    return json.dumps({"run": run_id, "failures": ordered, "passed": not ordered})
