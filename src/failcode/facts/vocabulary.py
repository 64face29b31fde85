"""The vocabulary of facts: which names record an outcome (`failures.add(…)`, `status=…`,
`verdict = …`), which names may hold a registry, which literals are recorded values.

Every name and shape decision of the extractor and the pre-screen is made here, once, so the
screen cannot drift from what it screens for. No LibCST: a run whose files the pre-screen rules out
never loads it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from failcode.config import Settings
from failcode.names import FAILURE_WORDS, head, is_registry_name, segments

_CALLBACK_PREFIXES = ("on", "handle")
_PROSE = {(word,) for word in ("msg", "msgs", "message", "messages", "text", "texts")}
_CATEGORY_WORDS = frozenset({"kind", "type", "category", "class"})


# A literal that records an outcome is a word or an identifier, never prose or a pattern.
_RECORDABLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:\-]*$")


def is_recordable(literal: str) -> bool:
    return _RECORDABLE.match(literal) is not None


# Calls that only say or show a value: a log method, `print`, `str(e)`. What they are given is not
# inspected (a handler's exception), and what runs inside their arguments is no stage of the work.
LOG_METHODS = frozenset("debug info warning warn error exception critical log echo tool_output".split())
TEXT_CALLS = frozenset("print str repr format".split())
DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")  # a string annotation that names a type


# Words of a function that judges something against a reference: its own compares are verdicts.
# Elsewhere (`is_inside(path)`, `at_bottom()`), a compare that fails closed on an error is a check
# of the machinery's own state, and only a call that compares (a compare stage) is a verdict.
_VERDICT_WORDS = frozenset(
    "grade grader grading score scorer scoring judge judging verify"
    " verifier verdict compare comparison correct correctness equal equiv equivalent equivalence reward"
    " accuracy".split()
)


# The names the evaluated candidate's output goes by in a scoring function (the concept "the
# thing judged"): `answer`, `prediction`, `completion`, `model_output`. A reference is never one.
_CANDIDATE_WORDS = frozenset("answer answers response responses prediction predictions pred preds output outputs"
                             " completion completions generation generations generated candidate candidates"
                             " submission submissions hypothesis hypotheses hyp".split())
_REFERENCE_WORDS = frozenset("gold golden expected reference references ref refs target targets label labels truth"
                             " ground oracle correct solution solutions entry metadata sample doc example".split())


# The evaluated party, named as the owner of what it wrote (`user_solution`, `model_solution`,
# `student_solution`): the concept "whose work is judged", which makes a reference noun the candidate's.
_EVALUATED_PARTY = frozenset("user model student agent llm predicted proposed".split())


@lru_cache(maxsize=4096)
def is_candidate_name(name: str) -> bool:
    """`answer`, `model_answer`, `predictions`, `user_solution`: a parameter that holds what is
    being evaluated; not `gold_answer` or `expected_output`, which name the reference."""
    words = segments(name)
    if len(words) == 2 and words[0] in _EVALUATED_PARTY and words[1] in ("solution", "solutions"):
        return True
    return bool(_CANDIDATE_WORDS.intersection(words)) and _REFERENCE_WORDS.isdisjoint(words)


@lru_cache(maxsize=4096)
def is_reference_name(name: str) -> bool:
    """`expected`, `gold_answer`, `ground_truth`: a parameter named as the reference to judge by."""
    return not is_candidate_name(name) and not _REFERENCE_WORDS.isdisjoint(segments(name))


@lru_cache(maxsize=65536)
def is_verdict_function(name: str) -> bool:
    """`grade_answer`, `compare_single_extraction_wrapper`, `score`, `exact_match_metric`: a function
    that issues verdicts (`is_metric_deprecated` and `extract_metric_data` only handle metrics)."""
    words = segments(name)
    return any(segment in _VERDICT_WORDS for segment in words) or words[-1:] == ("metric",)


# Words of a guard's verdict. A name that says the content was stopped (`blocked`, `jailbreak`,
# `hallucination`) lets it through when False; one that says it may go (`allowed`, `is_safe`),
# when True. `block`, `flag` and `blocking` are left out: `blocking=False` is an I/O mode, `flag` a
# name for any bool.
_STOPPING = frozenset("blocked flagged jailbreak jailbroken hallucination hallucinated unsafe harmful toxic malicious"
                      .split())
_PASSING = frozenset("allowed safe".split())
_IDENTIFIERS = re.compile(r"[A-Za-z_]\w*")
ALLOWS = "allow()"  # the key of a guard's own allow verdict (`RailOutcome.allow()`) as a written value


@lru_cache(maxsize=65536)
def lets_through(name: str, value: str) -> bool:
    """A guard's verdict that lets the content through: `value` (a constant's key, False as `0.0`)
    written to the channel `name` (`blocked`, `jailbreak_result`, `TextGuardResult(blocked=)`),
    as its last name says: the keyword, the key or the attribute, not the record's class."""
    if value == ALLOWS:
        return True
    last = _IDENTIFIERS.findall(name)
    words = set(segments(last[-1])) if last else set()
    stops, passes = bool(words & _STOPPING), bool(words & _PASSING)
    return value == "0.0" if stops and not passes else value == "1.0" if passes and not stops else False


# The fallbacks through which a guard that could not decide lets content through. Not a lookup's
# default (`reply.get("flagged", False)`): the field is the service's own answer, absent or not.
_UNDECIDED = frozenset({"except", "narrow-except", "no-result", "logged", "status", "no-match"})


def fails_open(write) -> bool:
    """A fallback write (a Write, or one being found) that lets the content through."""
    return write.role == "fallback" and write.kind in _UNDECIDED and lets_through(write.channel, write.values[0])


class Vocabulary:
    """Decides, for one Settings, whether a receiver, keyword or assignment target is a sink and
    whether a name may hold a registry (registry words, or a configured registry's name).

    The name's head noun decides (`names.head`): `failures`, `run_errors`, `failures_by_case`,
    `error_codes` are sinks; `error_handlers`, `error_message`, `exit_codes`, `lang_code`,
    `on_error` are not. A `code(s)` head counts alone or after a failure word only.
    """

    def __init__(self, settings: Settings) -> None:
        sinks = settings.sinks
        self._receivers = frozenset(sinks.receivers)
        self._suffixes = frozenset(sinks.names)
        self.methods = frozenset(sinks.methods)
        self.keywords = frozenset(sinks.keywords)
        self.configured = frozenset(settings.configured_names())

    def looks_like_registry(self, name: str) -> bool:
        return name in self.configured or is_registry_name(name)

    def is_receiver(self, name: str) -> bool:
        if segments(name)[-1:] in _PROSE:
            return False  # error_messages holds sentences, not codes
        segs = head(name)
        if not segs or segs[0] in _CALLBACK_PREFIXES and len(segs) > 1:
            return False
        if segs[-1] not in self._receivers:
            return False
        if segs[-1] in ("code", "codes") and len(segs) > 1:
            return segs[-2] in FAILURE_WORDS
        return True

    def is_assign_target(self, name: str) -> bool:
        segs = head(name)
        if not segs or segs[0] in _CALLBACK_PREFIXES and len(segs) > 1:
            return False
        if segs[-1] in self._suffixes:
            return True
        if segs[-1] in _CATEGORY_WORDS and len(segs) > 1 and segs[-2] in FAILURE_WORDS:
            return True  # error_kind, failure_type
        return self.is_receiver(name)
