"""What a value a site or a channel records says of itself: that an operation failed (a failure
status, honest in a handler), that there is no answer at all (None, empty text, "n/a"), or that it
is a slip of the keyboard for a registered code. Part of `Project`, which holds the patterns these
words are judged with and the registries a code is checked against.
"""

from __future__ import annotations

import difflib
from typing import Optional

from failcode.facts.vocabulary import is_verdict_function
from failcode.model import Registry, Site
from failcode.names import says_outcome_word, segments


# Words that, alone, only say that something went wrong.
_VERDICT_FAILURES = frozenset("fail failed failure failing".split())


# `"Not provided"`, `"n/a"`: a text that says there is nothing, as honest as None. Not `"none"`
# or `"missing"`: a judge's reply lists those among its genuine answers.
_ABSENT = frozenset("provided available applicable specified given set".split())


def _says_absent(text: str) -> bool:
    words = segments(text)
    return text.lower() == "n/a" or len(words) == 2 and words[0] == "not" and words[1] in _ABSENT


_STATUS_WORDS = frozenset(
    "error errors errored fail failed failure failing unavailable unhealthy unreachable crashed exception"
    " aborted disconnected offline down".split()
)


class Values:
    """Part of `Project`: the words of a recorded value (its `patterns`: internal and blame), and
    the registered code it may be a typo of."""

    def says_outcome(self, site: Site, value: str) -> bool:
        """Whether a value a site records is an outcome: a code (registered, or shaped as one),
        anything a function that judges records (its verdict: `"A"`, `"tie"`), or a plain string
        with a word of how work ended (`"erroneous"`, `"tool_completed"`). Otherwise it is a choice
        the function makes (`return "utf-8"`, `return "string"` for a value no parser took), and a
        handler that falls back to a default choice reports no outcome: on the tune split and
        session 38's sweep, none of those findings was judged real, and 8 of 10 were false
        (coverage's `"combine"`, dask's `"tasks"`, safety's `"utf-8"`, sglang's type guesses and
        attention backend)."""
        return self.is_code(site) or is_verdict_function(site.function.rpartition(".")[2]) \
            or says_outcome_word(value)

    def near_miss(self, site: Site, code: str) -> Optional[tuple[str, Registry]]:
        """A registered code `code` is probably a typo of (`ANSWER_MISMATHC` → `ANSWER_MISMATCH`),
        and its registry: the governing registries, else those the site's module defines or imports."""
        registries = self.governing(site)
        if not registries and not self.configured:
            facts = self._file_of.get(id(site))
            registries = self.scope(facts) if facts is not None else []
        if len(code) < _TYPO_MIN_LENGTH:
            return None
        for registry in registries:
            for close in difflib.get_close_matches(code, sorted(registry.codes), n=3, cutoff=_TYPO_CUTOFF):
                if _slip(code, close):
                    return close, registry
        return None

    def is_failure_status(self, value: str, function: str = "") -> bool:
        """`failed`, `ERROR`, `unhealthy`, `unknown`, `guardrail_failed_to_respond`: a value that says
        an operation failed, so a handler that records it tells the truth (whether it blames the
        right party is FC006's question). `COMPARE_FAILED` and `ANSWER_MISMATCH` say what failed in
        the check itself, and can be verdicts; so are `"fail"` and `"FAILED"` in a function that
        judges (`function`, qualified: `Grader.grade`), where they are its verdict on the candidate."""
        segs = segments(value)
        if not segs or set(segs) <= _VERDICT_FAILURES and is_verdict_function(function.rpartition(".")[2]):
            return False
        if all(seg in _STATUS_WORDS or self.patterns.internal.matches(seg) for seg in segs):
            return True
        # `guardrail_failed_to_respond`, `provider_unavailable`: an outside party's failure is the
        # status of an operation, never a verdict on what was checked (FC006 judges the blame)
        return bool(_STATUS_WORDS.intersection(segs)) and self.patterns.blame.search(value) is not None

    def says_no_answer(self, value: str, function: str = "") -> bool:
        """A channel value (facts/outcomes/ keys) that is no verdict: None, NaN, empty text, or a
        failure status (`"error"`, `"unavailable"`) — except the verdict words of a judging
        `function` (`is_failure_status`)."""
        if value in ("None", "nan") or value.startswith("[") and set(value[1:-1].split(", ")) == {"None"}:
            return True  # `(None, None)`: a pair with nothing in it
        if value[:1] in ("'", '"'):
            text = value[1:-1].strip()
            return not text or self.is_failure_status(text, function) or _says_absent(text)
        return False


# `get_close_matches` ratio above which two codes of this length differ by a slip of the keyboard
_TYPO_CUTOFF = 0.85
_TYPO_MIN_LENGTH = 6


def _slip(code: str, other: str) -> bool:
    """Two spellings of one code: of a length within one, and not one the other plus an ending
    (`complete`/`completed`, `error`/`errors` are different words)."""
    if code == other or abs(len(code) - len(other)) > 1:
        return False
    shorter, longer = sorted((code, other), key=len)
    return len(shorter) == len(longer) or not longer.startswith(shorter)
