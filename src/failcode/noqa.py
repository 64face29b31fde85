"""`failcode check --add-noqa`: a `# noqa: FCxxx` comment on every reported line, as ruff's
`--add-noqa` writes them, so a codebase can adopt failcode now and fix its findings later.

Only the comment changes: the file keeps its encoding, BOM and newlines (it is read and written as
bytes), an existing comment stays (`x = 1  # keep me  # noqa: FC003`) and an existing noqa list
grows (`# noqa: FC001, FC003`). A line whose end lies inside a string (a multi-line string, or a
backslash continuation) cannot take a comment without changing the program, so it is skipped and
named instead.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional

from failcode.facts.source import NOQA, encoding_of
from failcode.files import SUFFIXES
from failcode.model import Finding
from failcode.sourcelines import NEWLINE

_SPLIT = re.compile(f"({NEWLINE.pattern})")  # lines and the newlines between them, kept


@dataclass
class Added:
    """What `add` did, for its one-line report and the findings it had to leave."""

    directives: int = 0  # lines that gained a code
    files: int = 0
    skipped: list[str] = field(default_factory=list)  # `path:line: why` for findings left as they were


def add(findings: Iterable[Finding]) -> Added:
    """Silence `findings` in their files, one edit per file (all codes of a line in one comment)."""
    wanted: dict[str, dict[int, set[str]]] = {}
    for finding in findings:
        wanted.setdefault(finding.path, {}).setdefault(finding.pos.line, set()).add(finding.rule)
    added = Added()
    for path, lines in sorted(wanted.items()):
        count = _add_to_file(Path(path), lines, added.skipped)
        added.directives += count
        added.files += bool(count)
    return added


def _add_to_file(path: Path, wanted: dict[int, set[str]], skipped: list[str]) -> int:
    """Add the codes of `wanted` (line → codes) to their lines of `path`; the number of lines changed."""
    if not path.name.endswith(SUFFIXES):  # a .toml/.txt registry: not Python, and not where noqa is read
        skipped.extend(f"{path}:{line}: not a Python file" for line in sorted(wanted))
        return 0
    try:
        data = path.read_bytes()
        encoding = encoding_of(data)
        text = data.decode(encoding)
        unsafe = _lines_ending_inside_a_string(text)
    except (OSError, SyntaxError, UnicodeDecodeError, tokenize.TokenError) as exc:
        skipped.extend(f"{path}:{line}: cannot edit the file: {exc}" for line in sorted(wanted))
        return 0
    parts = _SPLIT.split(text)
    changed = 0
    for line, codes in sorted(wanted.items()):
        index = 2 * (line - 1)  # parts alternate: line text, newline, line text, …
        if line in unsafe or parts[index].rstrip().endswith("\\"):
            skipped.append(f"{path}:{line}: the line ends inside a multi-line string or continues on the next")
            continue
        edited = with_noqa(parts[index], codes)
        if edited is not None:
            parts[index] = edited
            changed += 1
    if changed:
        try:
            path.write_bytes("".join(parts).encode(encoding))
        except OSError as exc:
            skipped.extend(f"{path}:{line}: cannot write the file: {exc.strerror or exc}" for line in sorted(wanted))
            return 0
    return changed


def with_noqa(line: str, codes: set[str]) -> Optional[str]:
    """`line` with `codes` in its noqa comment (appended, or added to an existing list); None when
    it needs no change: the codes are listed already, or a bare `# noqa` silences every code."""
    match = NOQA.search(line)
    if match is None:
        return f"{line.rstrip()}  # noqa: {', '.join(sorted(codes))}"
    if match.group("codes") is None:
        return None
    listed = [code.upper() for code in re.split(r"[\s,]+", match.group("codes")) if code]
    new = sorted(codes - set(listed))
    if not new:
        return None
    return f"{line[:match.start()]}# noqa: {', '.join(listed + new)}{line[match.end('codes'):]}"


def _lines_ending_inside_a_string(text: str) -> set[int]:
    """Lines whose newline belongs to a string token (a triple-quoted string, or an f-string that
    tokenizes in parts on Python 3.12+): a comment added there would become part of the string."""
    inside: set[int] = set()
    fstring_starts: list[int] = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        name = tokenize.tok_name[token.type]
        if name == "FSTRING_START":
            fstring_starts.append(token.start[0])
        elif name == "FSTRING_END":
            inside.update(range(fstring_starts.pop(), token.end[0]))
        elif token.type == tokenize.STRING:
            inside.update(range(token.start[0], token.end[0]))
    return inside
