"""`path:line:col: FC002 message` lines and a one-line summary, as ruff prints them."""

from __future__ import annotations

import click

from failcode.model import Result


def summary(result: Result) -> str:
    parts = [f"{result.files} file{'s' if result.files != 1 else ''} checked"]
    count = len(result.findings)
    parts.append(f"{count} finding{'s' if count != 1 else ''}")
    inputs = sum(1 for e in result.errors if e.kind != "internal")
    internal = sum(1 for e in result.errors if e.kind == "internal")
    if inputs:
        parts.append(f"{inputs} file{'s' if inputs != 1 else ''} could not be checked")
    if internal:
        parts.append(f"{internal} internal error{'s' if internal != 1 else ''}")
    return ", ".join(parts) + "."


def finding_lines(result: Result, color: bool = False) -> list[str]:
    """One line per finding; with `color`, path and rule stand out as ruff shows them on a terminal."""
    path, rule = (click.style("{}", bold=True), click.style("{}", fg="red", bold=True)) if color else ("{}", "{}")
    return [f"{path.format(f.path)}:{f.pos.line}:{f.pos.column}: {rule.format(f.rule)} {f.message}"
            for f in result.findings]


# ruff's codes for a file it cannot check: E902 for an I/O (or decoding) error, E999 for syntax
INPUT_TAGS = {"unreadable": "E902", "undecodable": "E902", "unparseable": "E999 SyntaxError:"}


def error_lines(result: Result) -> list[str]:
    """`path:line:col: E999 SyntaxError: message` for input errors, in the shape of a finding so that
    editors and problem matchers jump to them; a crash of failcode itself keeps its `internal` tag."""
    return [f"{e.path}:{e.line}:{e.column}: {INPUT_TAGS[e.kind]} {e.message}" if e.kind in INPUT_TAGS
            else f"{e.path}: {e.kind}: {e.message}" for e in result.errors]
