"""Adopting failcode on an old codebase: record today's findings, then report only new ones.

A finding is identified by its rule, its file, the failure code it concerns, the whitespace-
normalized text of its reported line, and its occurrence index among findings that share all of
those — never by line number, so adding lines above a finding or moving it within its file does not
resurface it. Messages are not part of the identity: they quote line numbers. The same fingerprint
serves SARIF's `partialFingerprints`, so code scanning tracks a finding across the same edits.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path
from typing import Optional, Sequence

from failcode.config import ConfigError
from failcode.files import relative_to
from failcode.model import Finding
from failcode.sourcelines import SourceLines

FORMAT = 1  # the `failcode-baseline` version of the file layout


def _identify(findings: Sequence[Finding], lines: SourceLines,
              base: Optional[Path]) -> list[tuple[str, str, str]]:
    """(path, normalized source, fingerprint) per finding, in order; `findings` sorted as the engine
    sorts them, so occurrence indices follow the order in the file."""
    seen: Counter[str] = Counter()
    found = []
    for finding in findings:
        path = finding.path
        if base is not None:
            path = relative_to(Path(os.path.abspath(finding.path)), base) or path
        source = " ".join(lines.line(finding.path, finding.pos.line).split())
        identity = "\0".join((finding.rule, path, finding.code or "", source))
        digest = hashlib.sha256(identity.encode("utf-8", "surrogatepass")).hexdigest()[:20]
        found.append((path, source, f"{digest}:{seen[digest]}"))
        seen[digest] += 1
    return found


def fingerprints(findings: Sequence[Finding], lines: SourceLines, base: Optional[Path] = None) -> list[str]:
    """One fingerprint per finding. Paths enter relative to `base` when given (the baseline file's
    directory, so a baseline works from any working directory), else as displayed."""
    return [fingerprint for _, _, fingerprint in _identify(findings, lines, base)]


def _base(path: Path) -> Path:
    return Path(os.path.abspath(path)).parent


def load(path: Path) -> frozenset[str]:
    """The fingerprints recorded in a baseline file; a missing or corrupt file is a ConfigError."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: baseline file not found (create it with --write-baseline)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read baseline: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise ConfigError(f"{path}: corrupt baseline, not valid JSON ({exc}); "
                          f"regenerate it with --write-baseline") from None
    entries = document.get("findings") if isinstance(document, dict) else None
    valid = (isinstance(document, dict) and document.get("failcode-baseline") == FORMAT and isinstance(entries, list)
             and all(isinstance(e, dict) and isinstance(e.get("fingerprint"), str) for e in entries))
    if not valid:
        raise ConfigError(f"{path}: not a failcode baseline (expected {{\"failcode-baseline\": {FORMAT}, "
                          f"\"findings\": [{{\"fingerprint\": ...}}, ...]}}); regenerate it with --write-baseline")
    return frozenset(entry["fingerprint"] for entry in entries)


def write(path: Path, findings: Sequence[Finding], lines: SourceLines) -> None:
    """Record `findings` (all of them: a fixed finding is dropped by rewriting the file).

    Entries are sorted by path, rule and source rather than by line, so moving code around leaves
    the file unchanged and its diffs show only findings that appeared or went away. The rule, path
    and source beside each fingerprint are for the reader reviewing that diff.
    """
    entries = [
        {"fingerprint": fingerprint, "rule": finding.rule, "path": key, "source": source}
        for finding, (key, source, fingerprint) in zip(findings, _identify(findings, lines, _base(path)))
    ]
    entries.sort(key=lambda e: (e["path"], e["rule"], e["source"], e["fingerprint"]))
    text = json.dumps({"failcode-baseline": FORMAT, "findings": entries}, indent=2) + "\n"
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot write baseline: {exc.strerror or exc}") from None


def new_findings(findings: Sequence[Finding], known: frozenset[str], lines: SourceLines,
                 path: Path) -> list[Finding]:
    """The findings not recorded in the baseline file at `path` whose fingerprints are `known`."""
    found = fingerprints(findings, lines, _base(path))
    return [finding for finding, fingerprint in zip(findings, found) if fingerprint not in known]
