"""FC003 fallback-reuses-outcome: an except path records what the genuine path records."""

from __future__ import annotations

from typing import Iterator

from failcode.model import FileFacts, Finding
from failcode.project import Project

CODE = "FC003"
NAME = "fallback-reuses-outcome"
SUMMARY = "An except path records the same outcome as the genuine path"
DEFAULT = True
SCOPE = "file"


def check(facts: FileFacts, project: Project) -> Iterator[Finding]:
    reraising = {h.id for t in facts.tries for h in t.handlers if h.reraises}
    try_line = {h.id: t.pos.line for t in facts.tries for h in t.handlers}
    genuine: dict[tuple, list[int]] = {}
    returned: dict[str, set[str]] = {}  # function → distinct string literals it returns
    for site in facts.sites:
        value = project.resolve(site).code
        if site.kind == "return" and value:
            returned.setdefault(site.function, set()).add(value)
        if not site.in_handler and site.kind != "raise" and value:
            genuine.setdefault((site.function, site.kind, site.dest, value, site.extra), []).append(site.pos.line)
    for site in facts.sites:
        if site.context != "handler" or site.handler in reraising or site.kind == "raise":
            continue
        value = project.resolve(site).code
        if not value:
            continue  # an empty string is a default, not an outcome
        if site.kind == "return" and not project.is_code(site) and len(returned.get(site.function, ())) < 2:
            continue  # one plain string returned on every path is a default; verdicts come in kinds
        # Only the try body and what follows the try are the outcome the handler stands in for; a
        # recording before the try is a default (`reason = "X"`) or a different, earlier check.
        lines = [line for line in genuine.get((site.function, site.kind, site.dest, value, site.extra), [])
                 if line > try_line.get(site.handler, 0)]
        if lines:
            line = lines[0]
            yield Finding(
                facts.path, site.pos, CODE,
                f"except path records {value!r} to {site.dest}, the outcome the genuine path records "
                f"at line {line} — a fallback counted as an outcome; record a distinct code",
                value,
            )
            continue
        if site.kind != "assign" or site.value is None:
            continue
        test = next((t for t in facts.tests if t.function == site.function and t.target == site.dest
                     and site.value in t.values and t.pos.line > site.pos.line), None)
        if test is not None:
            yield Finding(
                facts.path, site.pos, CODE,
                f"except path sets {site.dest} = {site.value!r}, which line {test.pos.line} tests as a "
                f"genuine outcome — the fallback feeds that outcome's counter; use a distinct value",
                value,
            )
