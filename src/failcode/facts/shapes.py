"""Sink shapes: which names record an outcome (`failures.add(…)`, `status=…`, `verdict = …`).

Pure name decisions, shared by the extractor and the pre-screen, so this module must not import
LibCST (a run whose files the pre-screen rules out never loads it).
"""

from __future__ import annotations

from failcode.config import Sinks
from failcode.names import FAILURE_WORDS, head, segments

_CALLBACK_PREFIXES = ("on", "handle")
_PROSE = {(word,) for word in ("msg", "msgs", "message", "messages", "text", "texts")}
_CATEGORY_WORDS = frozenset({"kind", "type", "category", "class"})


class SinkShapes:
    """Decides whether a receiver, keyword or assignment target is a sink.

    The name's head noun decides (`names.head`): `failures`, `run_errors`, `failures_by_case`,
    `error_codes` are sinks; `error_handlers`, `error_message`, `exit_codes`, `lang_code`,
    `on_error` are not. A `code(s)` head counts alone or after a failure word only.
    """

    def __init__(self, sinks: Sinks) -> None:
        self._receivers = frozenset(sinks.receivers)
        self._suffixes = frozenset(sinks.names)
        self.methods = frozenset(sinks.methods)
        self.keywords = frozenset(sinks.keywords)

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
