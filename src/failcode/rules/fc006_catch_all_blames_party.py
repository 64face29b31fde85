"""FC006 catch-all-blames-party: `except Exception` records a code that blames someone else."""

from __future__ import annotations

from typing import Iterator

from failcode.model import FileFacts, Finding
from failcode.project import Project

CODE = "FC006"
NAME = "catch-all-blames-party"
SUMMARY = "A catch-all handler records a code that blames a provider or other outside party"
DEFAULT = True
SCOPE = "file"

def check(facts: FileFacts, project: Project) -> Iterator[Finding]:
    patterns = project.patterns
    for try_block in facts.tries:
        if try_block.single_external_call:
            continue  # the one outside call is the only thing that can fail
        for handler in try_block.handlers:
            if not handler.catches_all or handler.reraises or handler.narrows:
                continue
            for site, code in project.handler_codes(facts, handler):
                party = patterns.blame.search(code)
                if party is not None and not patterns.internal.matches(code):
                    caught = f"except {', '.join(handler.types)}" if handler.types else "bare except"
                    yield Finding(
                        facts.path, handler.pos, CODE,
                        f"{caught} records {code} (line {site.pos.line}), which blames an outside party "
                        f"(`{party}`, blame-pattern) for every error in the try body at line "
                        f"{try_block.pos.line}, our own bugs included — catch that party's own exceptions "
                        f"or record an internal code",
                        code,
                    )
                    break
