"""The JSON document of the contract: findings, errors and a summary."""

from __future__ import annotations

import json

from failcode.model import Result
from failcode.rules import BY_CODE
from failcode.version import __version__


def render(result: Result) -> str:
    document = {
        "version": __version__,
        "findings": [
            {
                "rule": f.rule, "name": BY_CODE[f.rule].name, "path": f.path,
                "line": f.pos.line, "column": f.pos.column,
                "end_line": f.pos.end_line, "end_column": f.pos.end_column,
                "message": f.message, "code": f.code, "confidence": f.confidence,
            }
            for f in result.findings
        ],
        "errors": [{"path": e.path, "kind": e.kind, "message": e.message, "line": e.line, "column": e.column}
                   for e in result.errors],
        "summary": {"files": result.files, "findings": len(result.findings), "errors": len(result.errors)},
    }
    return json.dumps(document, indent=2)
