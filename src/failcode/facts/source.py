"""Source text and its problems, before any parse: decoding, `# noqa` comments, InputError.

No LibCST here: the pre-screen and the engine need these for files LibCST never sees.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings
from typing import Optional

NOQA = re.compile(r"#\s*noqa(?::[\s]*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?", re.IGNORECASE)
_FILE_NOQA = re.compile(r"^[ \t]*#[ \t]*failcode:[ \t]*noqa(?::[ \t]*(?P<codes>[A-Z]+[0-9]+(?:[ \t,]+[A-Z]+[0-9]+)*))?[ \t]*$",
                        re.IGNORECASE | re.MULTILINE)


class InputError(Exception):
    """A file failcode cannot check: unreadable, undecodable or unparseable (exit status 3), with
    the 1-based position of the problem where the parser gives one."""

    def __init__(self, kind: str, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.line = line
        self.column = column


def encoding_of(data: bytes) -> str:
    """The encoding Python would read `data` with (BOM or PEP 263 cookie, else UTF-8).

    Raises SyntaxError for an unknown or contradictory cookie, as `tokenize` does."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return encoding


def decode(data: bytes) -> str:
    """Source text, honouring a BOM or PEP 263 cookie; InputError when it cannot be decoded."""
    try:
        return data.decode(encoding_of(data))
    except (SyntaxError, LookupError, UnicodeDecodeError) as exc:
        raise InputError("undecodable", f"cannot decode: {exc}") from None


def python_syntax_error(text: str) -> Optional[InputError]:
    """Python's own wording and position of the syntax error in `text`, None when it finds none."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes warn on 3.12+; not ours to report
            ast.parse(text)
    except SyntaxError as error:
        if error.lineno:
            return InputError("unparseable", error.msg, error.lineno, error.offset or 1)
    except (ValueError, RecursionError, MemoryError):
        pass
    return None


def _codes(listed: Optional[str]) -> tuple[str, ...]:
    return tuple(c.upper() for c in re.split(r"[\s,]+", listed) if c) if listed else ()


def suppressions(source: str) -> tuple[tuple[tuple[int, tuple[str, ...]], ...], Optional[tuple[str, ...]]]:
    """`# noqa` comments by line, and what `# failcode: noqa` lines silence in the whole file: None
    when there is none, () for every code (the bare form), else the codes listed on all of them
    (`# failcode: noqa: FC001, FC008`), as ruff's `# ruff: noqa: F401` reads."""
    found = []
    if "noqa" not in source.lower():
        return (), None
    for number, line in enumerate(source.splitlines(), 1):
        if "noqa" not in line.lower():
            continue
        match = NOQA.search(line)
        if match is None:
            continue
        found.append((number, _codes(match.group("codes"))))
    whole: Optional[tuple[str, ...]] = None
    for match in _FILE_NOQA.finditer(source):
        codes = _codes(match.group("codes"))
        whole = () if not codes or whole == () else tuple(dict.fromkeys((*(whole or ()), *codes)))
    return tuple(found), whole
