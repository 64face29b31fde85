"""FC002 stage-spanning-try: one try covers several stages and its handlers name one code for all."""

from __future__ import annotations

from typing import Iterator

from failcode.model import FileFacts, Finding
from failcode.project import Project

CODE = "FC002"
NAME = "stage-spanning-try"
SUMMARY = "One try spans read/validate/compare stages but records a single code for all of them"
DEFAULT = True
SCOPE = "file"

def _stages_text(stages) -> str:
    parts = [f"{s.stage} ({s.name}, line {s.line})" for s in stages]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def check(facts: FileFacts, project: Project) -> Iterator[Finding]:
    for try_block in facts.tries:
        if len(try_block.stages) < 2 or not any(h.unspecific for h in try_block.handlers):
            continue
        recorded = {}
        for handler in try_block.handlers:
            if handler.reraises:
                continue
            codes = {code for _, code in project.handler_codes(facts, handler)}
            if codes:
                recorded[handler.id] = codes
        codes = set().union(*recorded.values()) if recorded else set()
        if len(codes) != 1:
            continue
        code = codes.pop()
        whose = "its handler records" if len(recorded) == 1 else "its handlers record"
        both = "both" if len(try_block.stages) == 2 else "all of them"
        yield Finding(
            facts.path, try_block.pos, CODE,
            f"try spans {_stages_text(try_block.stages)}; {whose} {code} for {both} — split the try "
            f"so each stage gets its own code",
            code,
        )
