"""SARIF 2.1.0, for GitHub code scanning (upload-sarif) and other SARIF viewers.

Files failcode could not check are tool execution notifications, not results: a result claims a
defect in the code, and an unparseable file is not a failure-code defect. `executionSuccessful`
is false only for failcode's own crashes, which is what that property means to a viewer.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Optional
from urllib.parse import quote, urlsplit

from failcode import ruledocs
from failcode.baseline import fingerprints
from failcode.model import Result
from failcode.model import Pos
from failcode.rules import RULES
from failcode.sourcelines import SourceLines
from failcode.version import __version__

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"
RANK = {"high": 90.0, "medium": 60.0}
FINGERPRINT = "failcode/v1"
DESCRIPTION_LIMIT = 1024  # GitHub rejects longer shortDescription / fullDescription texts


def _limited(text: str) -> str:
    """`text` within DESCRIPTION_LIMIT characters, cut at a word boundary."""
    if len(text) <= DESCRIPTION_LIMIT:
        return text
    return re.sub(r"\s+\S*$", "", text[: DESCRIPTION_LIMIT - 1]) + "…"


# How a hosted git repository shows a file at a commit: `{web}/blob/{commit}/rules/FC002.md`
_BLOB = {"github.com": "blob", "gitlab.com": "-/blob", "codeberg.org": "src/commit", "bitbucket.org": "src"}


def repository(direct_url: Optional[dict[str, Any]]) -> Optional[tuple[str, str]]:
    """(web address, commit) of the git repository this failcode was installed from, read from
    pip's `direct_url.json` (PEP 610): `pip install "git+https://github.com/org/failcode.git@SHA"`
    gives ("https://github.com/org/failcode", SHA). None for any other install: failcode is not
    published on a package index, so there is no other address to give."""
    if not direct_url or direct_url.get("vcs_info", {}).get("vcs") != "git":
        return None
    url = re.sub(r"^git\+", "", str(direct_url.get("url", "")))
    commit = str(direct_url["vcs_info"].get("commit_id", ""))
    parsed = urlsplit(url)
    if parsed.scheme != "https" or parsed.hostname not in _BLOB or not re.fullmatch(r"[0-9a-f]{7,64}", commit):
        return None
    path = parsed.path[:-len(".git")] if parsed.path.endswith(".git") else parsed.path
    return f"https://{parsed.hostname}{path.rstrip('/')}", commit


def _installed_from() -> Optional[tuple[str, str]]:
    try:
        from importlib.metadata import PackageNotFoundError, distribution

        text = distribution("failcode").read_text("direct_url.json")
        return repository(json.loads(text)) if text else None
    except (PackageNotFoundError, ValueError, OSError):
        return None


def help_uri(repo: Optional[tuple[str, str]], code: str) -> Optional[str]:
    """The rule's page in the repository at the installed commit, where a viewer can open it."""
    if repo is None:
        return None
    web, commit = repo
    return f"{web}/{_BLOB[urlsplit(web).hostname]}/{commit}/rules/{code}.md"


def _rule(rule, repo: Optional[tuple[str, str]]) -> dict[str, Any]:
    """The rule's descriptor. Its page appears once, as `help.markdown` (what viewers render); the
    plain-text fields are short, so a log with many runs does not carry every page three times.
    `helpUri` is the page in the repository failcode was installed from, when that is known."""
    try:
        page = ruledocs.page(rule.code)
        full = ruledocs.summary_text(rule.code) or rule.summary
    except OSError:  # pages not installed: the catalogue summary still describes the rule
        page, full = rule.summary, rule.summary
    descriptor = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": _limited(rule.summary)},
        "fullDescription": {"text": _limited(full)},
        "help": {"text": rule.summary, "markdown": page},
        "defaultConfiguration": {"level": "error", "enabled": rule.default},
    }
    uri = help_uri(repo, rule.code)
    if uri is not None:
        descriptor["helpUri"] = uri
    return descriptor


def _location(path: str) -> dict[str, Any]:
    """Relative paths (the usual case: relative to the working directory) are resolved against
    %SRCROOT%, so the document does not depend on where the repository was checked out."""
    if os.path.isabs(path):
        return {"uri": Path(path).as_uri()}
    return {"uri": quote(Path(path).as_posix()), "uriBaseId": SRCROOT}


def _region(pos: Pos) -> dict[str, Any]:
    region = {"startLine": pos.line, "startColumn": pos.column}
    if (pos.end_line, pos.end_column) > (pos.line, pos.column):  # Pos ends are exclusive, as SARIF's
        region.update(endLine=pos.end_line, endColumn=pos.end_column)
    return region


def render(result: Result, lines: SourceLines, level: str = "error") -> str:
    """The SARIF log of one run; `level` is the level of every result (error or warning)."""
    index = {rule.code: i for i, rule in enumerate(RULES)}
    results = []
    for finding, fingerprint in zip(result.findings, fingerprints(result.findings, lines)):
        entry: dict[str, Any] = {
            "ruleId": finding.rule,
            "ruleIndex": index[finding.rule],
            "level": level,
            "message": {"text": finding.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": _location(finding.path), "region": _region(finding.pos),
            }}],
            "partialFingerprints": {FINGERPRINT: fingerprint},
        }
        # SARIF's rank orders results by how sure the tool is (0-100): high 90, medium 60
        entry["rank"] = RANK[finding.confidence]
        entry["properties"] = {"confidence": finding.confidence}
        if finding.code is not None:
            entry["properties"]["code"] = finding.code
        results.append(entry)
    notifications = [
        {
            "level": "error",
            "message": {"text": f"{error.path}: {error.kind}: {error.message}"},
            "descriptor": {"id": error.kind},
            "locations": [{"physicalLocation": {"artifactLocation": _location(error.path)}}],
        }
        for error in result.errors
    ]
    repo = _installed_from()
    driver: dict[str, Any] = {"name": "failcode", "version": __version__, "semanticVersion": __version__}
    if repo is not None:
        driver["informationUri"] = repo[0]
    driver["rules"] = [_rule(rule, repo) for rule in RULES]
    run = {
        "tool": {"driver": driver},
        "originalUriBaseIds": {SRCROOT: {"uri": Path.cwd().resolve().as_uri().rstrip("/") + "/"}},
        "invocations": [{
            "executionSuccessful": not any(error.kind == "internal" for error in result.errors),
            "toolExecutionNotifications": notifications,
        }],
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    return json.dumps({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}, indent=2)
