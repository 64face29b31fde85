"""FC006 catch-all-blames-party: `except Exception` records a code that blames someone else."""

from __future__ import annotations

import re
from typing import Iterator

from failcode.model import FileFacts, Finding
from failcode.project import Project

CODE = "FC006"
NAME = "catch-all-blames-party"
SUMMARY = "A catch-all handler records a code that blames a provider or other outside party"
DEFAULT = True
SCOPE = "file"

def check(facts: FileFacts, project: Project) -> Iterator[Finding]:
    reported: set[int] = set()
    for finding in _recorded_codes(facts, project):
        reported.add(finding.pos.line)
        yield finding
    yield from _blaming_words(facts, project, reported)


# In prose a model or guardrail is mostly the subject ("failed to parse model output", "error in
# evaluating model"), not a party blamed for failing; as a recorded code (MODEL_TIMEOUT) it still blames.
_PROSE = re.compile(r"[a-z0-9]+")
_SUBJECTS = frozenset({"model", "models", "llm", "llms", "guardrail", "guardrails"})


def _blaming_words(facts: FileFacts, project: Project, reported: set[int]) -> Iterator[Finding]:
    """A catch-all logs, raises or writes words that blame an outside party ("Error in API call",
    `raise ProviderError(…)`, `reason="backend_unavailable"`) while its try also runs our own code
    (facts/outcomes.py): a `raise` of our own, a `yield` to a context manager's caller, a call of
    a function this file defines. Our bugs there get the party's name. A try that covers only the
    party's call and the reading of its reply is quiet: its failure is the party's."""
    patterns = project.patterns
    for blame in facts.blames:
        if blame.pos.line in reported:
            continue
        party = next(((text, hit) for text in blame.texts for words in [_words(text)]
                      if not patterns.internal.search(words)
                      for hit in patterns.blame.hits(words) if hit.lower() not in _SUBJECTS), None)
        if party is None:
            continue
        # raising the party's own error type in the try (`raise ProviderError(…)`) is not our code failing
        own = [(kind, name, line) for kind, name, line in blame.own
               if kind != "raise" or not patterns.blame.search(name.rpartition(".")[2])]
        if not own:
            continue
        kind, name, line = own[0]
        runs = {"yield": f"yields to the caller's code at line {line}",
                "raise": f"raises its own {name} at line {line}",
                "call": f"calls our own {name}() at line {line}"}[kind]
        said = party[0] if len(party[0]) <= 60 else party[0][:57] + "..."
        yield Finding(
            facts.path, blame.pos, CODE,
            f"{blame.caught} says {said!r} (`{party[1]}`, blame-pattern), but the try at line "
            f"{blame.attempt} also {runs} — our own failures get the party's name; catch that party's own "
            f"exceptions, or say the failure is internal",
            None,
        )


def _words(text: str) -> str:
    """Prose as one name of `_`-joined words (`Error in API call` → `error_in_api_call`), so the
    blame and internal patterns match it by whole segments; a class name stays as it is."""
    return text if text.isidentifier() else "_".join(_PROSE.findall(text.lower()))


def _recorded_codes(facts: FileFacts, project: Project) -> Iterator[Finding]:
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
