"""Facts of one file, plain data and no judgement. `extract_file` is the only way in.

It decodes the bytes, parses them with `ast`, lets the pre-screen (facts/screen.py) prove that the
file holds no fact LibCST would find, and only otherwise parses with LibCST and walks it once
(facts/extract.py). LibCST is imported on first need, so a run that the screen or the cache
answers never loads it.
"""

from __future__ import annotations

from failcode.config import Settings
from failcode.facts.screen import parse, screened
from failcode.facts.source import InputError, decode
from failcode.model import FileFacts

__all__ = ["InputError", "extract_file"]


def extract_file(data: bytes, path: str, module: str, is_package: bool, settings: Settings,
                 prescreen: bool = True) -> FileFacts:
    """Facts of one file's bytes; `prescreen=False` sends every file to LibCST (the reference the
    screen is tested against). Raises InputError for input problems; anything else is a bug."""
    text = decode(data)
    tree = parse(text)
    if prescreen and tree is not None:
        facts = screened(data, text, tree, path, module, settings)
        if facts is not None:
            return facts
    from failcode.facts.extract import extract_source

    return extract_source(text, path, module, is_package, settings, tree)
