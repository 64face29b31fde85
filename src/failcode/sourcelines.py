"""The text of reported lines, for fingerprints (baseline, SARIF) and `--show-source`.

Facts carry positions, not text, so reports read a checked file again, once, and only when a
finding in it is shown or fingerprinted. Text given on stdin exists nowhere on disk; it is passed in.
"""

from __future__ import annotations

import re
from typing import Mapping, Optional

from failcode.facts.source import encoding_of

# LibCST counts lines at \n, \r\n and \r only (str.splitlines would also split at \f, \x1c, \u2028…)
NEWLINE = re.compile(r"\r\n|\r|\n")


def decode(data: bytes) -> str:
    """Source bytes as text, honouring a coding cookie or BOM as the parser does."""
    try:
        encoding = encoding_of(data)
    except SyntaxError:  # an unknown cookie: such a file was reported unparseable, show what we can
        encoding = "utf-8"
    return data.decode(encoding, errors="replace")


class SourceLines:
    """Lines of checked files by display path (as findings name them), read lazily and kept."""

    def __init__(self, given: Optional[Mapping[str, bytes]] = None) -> None:
        self._files: dict[str, list[str]] = {
            path: NEWLINE.split(decode(data)) for path, data in (given or {}).items()
        }

    def line(self, path: str, number: int) -> str:
        """Line `number` (1-based) of `path`; empty when the file or line no longer exists."""
        lines = self._files.get(path)
        if lines is None:
            try:
                with open(path, "rb") as handle:
                    lines = NEWLINE.split(decode(handle.read()))
            except OSError:
                lines = []
            self._files[path] = lines
        return lines[number - 1] if 0 < number <= len(lines) else ""
