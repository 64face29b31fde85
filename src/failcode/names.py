"""Whole-segment name matching.

Names are split camelCase → snake_case, lower-cased and cut on `_`, so that patterns match whole
words: `fault` never matches inside `default`, `api` never inside `capital`. Every name-based
decision in failcode (receivers, registries, blame) goes through this module.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterator, Optional

_CAMEL_1 = re.compile(r"([A-Z]+)([A-Z][a-z])")
_CAMEL_2 = re.compile(r"([a-z0-9])([A-Z])")
_NON_WORD = re.compile(r"[^A-Za-z0-9]+")
_SNAKE = re.compile(r"[a-z0-9_]*")


@lru_cache(maxsize=8192)
def segments(name: str) -> tuple[str, ...]:
    """`FailureCode` → ('failure', 'code'); `parseJSONFile` → ('parse', 'json', 'file')."""
    if _SNAKE.fullmatch(name):  # most names: nothing to split but underscores
        return tuple(part for part in name.split("_") if part)
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
        return self.search(name) is not None

    def search(self, name: str) -> Optional[str]:
        """The first run of whole segments the pattern matches (`provider` in PROVIDER_FAILED)."""
        return next(self.hits(name), None)

    def hits(self, name: str) -> Iterator[str]:
        """Every run of whole segments the pattern matches, in order."""
        return (run for run in runs(name) if self._regex.fullmatch(run))

    def __repr__(self) -> str:
        return f"SegmentPattern({self.pattern!r})"


def words(*items: str) -> str:
    """A segment regex for a list of words: `words('error', 'errors')` → `error|errors`."""
    return "|".join(re.escape(item) for item in items)


def is_constant_name(name: str) -> bool:
    """UPPER_CASE names are constants by convention (PEP 8)."""
    return name.isupper() and name[:1].isalpha()


# Words that say how a collection is kept, not what it holds: `FAILURE_ORDER` holds failures,
# `failures_by_case` holds failures, `error_handlers` does not.
_COLLECTION_WORDS = frozenset(
    "order orders list lists set sets dict map maps table tables seen found log acc accum buffer"
    " bucket buckets queue counter counts priority priorities ranking rank enum enums kinds kind"
    " types type values names registry catalog catalogue vocabulary labels messages descriptions"
    " titles all subset subsets group groups".split()
)
_VERSION = re.compile(r"^v?[0-9]+$")
REGISTRY_WORDS = frozenset(
    "fail fails failed failure failures reason reasons error errors code codes fault faults"
    " status statuses state states outcome outcomes verdict verdicts".split()
)
# The bases that make a class an Enum: its members are what it names.
ENUM_BASES = frozenset({"Enum", "StrEnum", "IntEnum", "Flag", "IntFlag", "ReprEnum"})

FAILURE_WORDS = frozenset(
    "fail fails failed failure failures reason reasons error errors err errs fault faults violation"
    " violations problem problems issue issues".split()
)


# Words that say how a piece of work ended or what a check of it found: the concept "an outcome"
# (`passed`, `erroneous`, `tool_completed`, `timeout`, `Incorrect`). A plain string without one
# names a thing a function chose or classified: an encoding (`utf-8`), a type (`string`), a method
# (`tasks`, `combine`), a backend's class path. Work that has not ended (`pending`, `processing`)
# has no outcome yet.
_OUTCOME_WORDS = frozenset(
    "success succeeded successful succeed ok okay pass passed passes fail fails failed failing failure error errors"
    " errored erroneous exception correct incorrect wrong right valid invalid yes no true false good bad"
    " accept accepted reject rejected approve approved deny denied allow allowed block blocked refuse refused"
    " decline declined resolve resolved unresolved complete completed done finish finished win won lose lost loss"
    " tie draw timeout timeouts timed expire expired cancel cancelled canceled abort aborted stop stopped skip"
    " skipped crash crashed kill killed unavailable unhealthy unreachable match matched mismatch safe unsafe unknown"
    " found missing present absent exists".split()
)


def says_outcome_word(text: str) -> bool:
    """`"tool_completed"`, `"Incorrect"`, `"timed out"`: a value with a word of how work ended."""
    return not _OUTCOME_WORDS.isdisjoint(segments(text))


# Words that, alone, say the work went well (`"success"`, `"OK"`, `"completed"`): the concept "success".
_SUCCESS_WORDS = frozenset("success succeeded successful ok okay pass passed completed complete done".split())


def says_success(text: str) -> bool:
    """`"success"`, `"SUCCESS"`, `"completed"`: a value made only of words that say the work went well."""
    found = segments(text)
    return bool(found) and set(found) <= _SUCCESS_WORDS


# The words that open the name of a yes/no question (`is_solved`, `_has_cycle`, `can_reach`): the
# concept "a predicate".
_PREDICATE_HEADS = frozenset("is are has have can should supports needs".split())


def is_predicate_name(name: str) -> bool:
    """`is_dense_contiguous`, `self._is_solved`: a function whose answer is yes or no."""
    words = segments(name.rpartition(".")[2])
    return bool(words) and words[0] in _PREDICATE_HEADS


def head(name: str) -> tuple[str, ...]:
    """The segments up to the noun that says what a name holds: `failures_by_case` → (failures,),
    `FAILURE_ORDER` → (failure,), `FailureReason2` → (failure, reason), `error_handlers` unchanged."""
    segs = list(segments(name))
    if "by" in segs[1:]:
        segs = segs[: segs.index("by", 1)]
    while len(segs) > 1 and _VERSION.match(segs[-1]):
        segs.pop()  # FAILURE_CODES_V2, reasons_2
    if segs:
        segs[-1] = segs[-1].rstrip("0123456789") or segs[-1]
    while len(segs) > 1 and segs[-1] in _COLLECTION_WORDS:
        segs.pop()
    return tuple(segs)


def listed(parts: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`: names as a message lists them."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def is_registry_name(name: str) -> bool:
    """A name that says it holds codes: its head noun is a failure/reason/code/status word."""
    segs = head(name)
    return bool(segs) and segs[-1] in REGISTRY_WORDS
