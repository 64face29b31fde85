"""The pre-screen's differential guard, shared by the tests that feed it files.

The invariant: when the `ast` screen keeps a file from LibCST, the facts it gives are exactly the
facts full LibCST extraction gives (module constants and noqa included), so "the screen skips this
file" implies "full extraction finds no other fact"; and the engine's way in, `extract_file`, agrees
with full extraction on every file, screened or not. Outcome channels (facts/outcomes.py) come from
the `ast` tree on both paths, so the screen's own facts are compared without them.
"""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import Iterable, Optional, Union

from failcode.config import Settings
from failcode.facts import InputError, extract_file
from failcode.facts import extract as extraction
from failcode.facts import screen
from failcode.model import FileFacts

Outcome = Union[FileFacts, tuple[str, str]]


def _outcome(extract, data: bytes, name: str, settings: Settings) -> Outcome:
    try:
        return extract(data, name, "pkg.mod", False, settings)
    except InputError as exc:
        return exc.kind, exc.message


def screened(data: bytes, name: str, settings: Settings) -> tuple[Optional[FileFacts], Outcome]:
    """(facts the screen gives without LibCST, or None when it sends the file on; full extraction's
    facts, or its (kind, message) input error)."""
    full = _outcome(partial(extract_file, prescreen=False), data, name, settings)
    try:
        text = extraction.decode(data)
    except InputError:
        return None, full
    tree = screen.parse(text)
    skipped = None if tree is None else screen.Screen(settings).facts(data, text, tree, name, "pkg.mod")
    return skipped, full


def assert_screen_sound(corpus: Iterable[tuple[str, bytes]], settings: Settings) -> tuple[int, int, int]:
    """Asserts the invariant on every (name, bytes); returns (files, skipped, files with facts)."""
    files = skipped_count = with_facts = 0
    screen_missed = []
    for name, data in corpus:
        files += 1
        skipped, full = screened(data, name, settings)
        with_facts += isinstance(full, FileFacts) and bool(
            full.sites or full.tries or full.tests or full.registries or full.filters or full.constants)
        if skipped is not None:
            skipped_count += 1
            # the facts read from the `ast` tree of every file, after the screen (facts/__init__.py)
            if skipped != dataclasses.replace(full, writes=(), blames=(), aliases=(), tallies=(), enums=(),
                                              raises=(), functions=(), reexports=(), absences=(), replies=(),
                                              records=(), reads=()):
                screen_missed.append(name)
        assert _outcome(extract_file, data, name, settings) == full, name
    assert not screen_missed, f"the pre-screen skipped files whose facts differ: {screen_missed[:10]}"
    return files, skipped_count, with_facts
