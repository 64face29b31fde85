"""Configured registries kept in data files: `.toml` (every string in every array) or `.txt` (one
code a line). No LibCST here: a run with such a registry whose Python files the cache or the
pre-screen answers never loads it.
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from failcode.model import Pos, Registry, RegistryEntry


def read_data_file(path: Path, display: str) -> Registry:
    """A registry kept in a `.toml` (every string in every array) or `.txt` (one code a line) file.

    Raises OSError/ValueError with a message for the caller to turn into a configuration error.
    """
    entries: list[RegistryEntry] = []
    if path.suffix == ".toml":
        text = path.read_text(encoding="utf-8")
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ValueError(f"invalid TOML: {exc}") from None
        lines = text.splitlines()
        for code in _toml_strings(data):
            line = next((i for i, text_line in enumerate(lines, 1) if f'"{code}"' in text_line or f"'{code}'" in text_line), 1)
            entries.append(RegistryEntry(code, Pos(line, 1, line, 1)))
        kind = "toml"
    else:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0].strip()
            if code:
                entries.append(RegistryEntry(code, Pos(number, 1, number, len(line) + 1)))
        kind = "txt"
    if not entries:
        raise ValueError("holds no codes")
    return Registry(path.stem, "", display, Pos(1, 1, 1, 1), kind, tuple(entries), True, True)


def _toml_strings(data):
    if isinstance(data, str):
        yield data
    elif isinstance(data, list):
        for item in data:
            yield from _toml_strings(item)
    elif isinstance(data, dict):
        for value in data.values():
            yield from _toml_strings(value)
