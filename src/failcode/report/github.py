"""GitHub Actions workflow commands: one `::error file=…,line=…,col=…,title=…::message` per finding.

Messages quote the checked code (codes, registry names, file names), and the runner executes any
line that starts with `::`. Escaping CR and LF keeps every annotation on one line, so nothing from
the checked code can begin a command of its own; escaping `%` first keeps the escapes unambiguous,
and `:` and `,` are escaped in properties, where they would end a value.
"""

from __future__ import annotations

from failcode.model import Result


def escape_data(text: str) -> str:
    """The message part of a workflow command."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A `key=value` property of a workflow command."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _command(level: str, properties: dict[str, object], message: str) -> str:
    listed = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
    return f"::{level} {listed}::{escape_data(message)}"


def lines(result: Result, level: str = "error") -> list[str]:
    """Annotations for findings (at `level`: error or warning) and for files that could not be
    checked (always errors: the run did not do its job there)."""
    found = [
        _command(level, {"file": f.path, "line": f.pos.line, "col": f.pos.column,
                         "title": f"failcode {f.rule}"}, f.message)
        for f in result.findings
    ]
    found += [
        _command("error", {"file": e.path, "line": e.line, "col": e.column, "title": f"failcode {e.kind} error"},
                 e.message)
        for e in result.errors
    ]
    return found
