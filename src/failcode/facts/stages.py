"""Stage classification of calls inside a try body: read, execute, validate or compare.

A pattern with a dot matches the whole import-resolved dotted name (`json.loads`,
`datetime.*.strptime`, `*.json`); a pattern without one matches the called function's own name
(`parse_*`). Dotted patterns are tried first, so qualified names decide before name patterns:
`subprocess.check_output` is read, never compare. `name(kw)` requires keyword `kw`
(`json.dumps(sort_keys)` is a canonical comparison, plain `json.dumps` is not).
"""

from __future__ import annotations

import re
from fnmatch import translate
from typing import Iterable, Optional

STAGE_ORDER = ("read", "execute", "validate", "compare")

# Calls too ordinary to make an `==` a comparison stage (`len(a) == len(b)`).
TRIVIAL_CALLS = frozenset(
    "len type str int float bool bytes repr getattr hasattr get lower upper strip lstrip rstrip"
    " isinstance issubclass id hash min max sum abs round sorted list tuple set dict frozenset"
    " keys values items count startswith endswith format join split casefold".split()
)


class _Pattern:
    def __init__(self, text: str) -> None:
        keyword = None
        if text.endswith(")") and "(" in text:
            text, _, keyword = text[:-1].partition("(")
        self.keyword = keyword or None
        self.dotted = "." in text
        self.regex = re.compile(translate(text))

    def matches(self, name: str, last: str, keywords: Iterable[str]) -> bool:
        if self.keyword is not None and self.keyword not in keywords:
            return False
        return bool(self.regex.match(name if self.dotted else last))


class StageClassifier:
    def __init__(self, stages: Iterable[tuple[str, tuple[str, ...]]]) -> None:
        table = dict(stages)
        patterns = [(stage, _Pattern(text)) for stage in STAGE_ORDER for text in table.get(stage, ())]
        # qualified names decide before bare-name patterns
        self._patterns = [p for p in patterns if p[1].dotted] + [p for p in patterns if not p[1].dotted]
        # most callees match no pattern: one pass of each union tells, before the ordered search
        self._any_dotted = _union(p.regex for _, p in patterns if p.dotted)
        self._any_name = _union(p.regex for _, p in patterns if not p.dotted)
        self._known: dict[tuple[str, tuple[str, ...]], Optional[str]] = {}  # files share most callees

    def classify(self, name: str, keywords: Iterable[str] = ()) -> Optional[str]:
        key = (name, tuple(keywords))
        if key in self._known:
            return self._known[key]
        last = name.rpartition(".")[2]
        stage = next((stage for stage, pattern in self._patterns if pattern.matches(name, last, key[1])), None) \
            if self._any_dotted.match(name) or self._any_name.match(last) else None
        if len(self._known) < 100_000:
            self._known[key] = stage
        return stage


def _union(regexes: Iterable["re.Pattern[str]"]) -> "re.Pattern[str]":
    """A regex that matches where any of `regexes` does (none: nowhere)."""
    return re.compile("|".join(f"(?:{regex.pattern})" for regex in regexes) or "(?!)")


def is_trivial(name: str) -> bool:
    return name.rpartition(".")[2] in TRIVIAL_CALLS
