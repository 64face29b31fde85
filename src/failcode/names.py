"""Whole-segment name matching.

Names are split camelCase → snake_case, lower-cased and cut on `_`, so that patterns match whole
words: `fault` never matches inside `default`, `api` never inside `capital`. Every name-based
decision in failcode (receivers, registries, blame) goes through this module.
"""

from __future__ import annotations

import re
from functools import lru_cache

_CAMEL_1 = re.compile(r"([A-Z]+)([A-Z][a-z])")
_CAMEL_2 = re.compile(r"([a-z0-9])([A-Z])")
_NON_WORD = re.compile(r"[^A-Za-z0-9]+")


@lru_cache(maxsize=8192)
def segments(name: str) -> tuple[str, ...]:
    """`FailureCode` → ('failure', 'code'); `parseJSONFile` → ('parse', 'json', 'file')."""
    snake = _CAMEL_2.sub(r"\1_\2", _CAMEL_1.sub(r"\1_\2", name))
    return tuple(part for part in _NON_WORD.sub("_", snake).lower().split("_") if part)


def runs(name: str) -> list[str]:
    """Every contiguous run of segments joined by `_` (`rate_limited` yields `rate_limited`)."""
    segs = segments(name)
    return ["_".join(segs[i:j]) for i in range(len(segs)) for j in range(i + 1, len(segs) + 1)]


class SegmentPattern:
    """A regex that must fully match one or more consecutive whole segments of a name."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self._regex = re.compile(pattern, re.IGNORECASE)

    def matches(self, name: str) -> bool:
        return any(self._regex.fullmatch(run) for run in runs(name))

    def __repr__(self) -> str:
        return f"SegmentPattern({self.pattern!r})"


def words(*items: str) -> str:
    """A segment regex for a list of words: `words('error', 'errors')` → `error|errors`."""
    return "|".join(re.escape(item) for item in items)


def is_constant_name(name: str) -> bool:
    """UPPER_CASE names are constants by convention (PEP 8)."""
    return name.isupper() and name[:1].isalpha()
