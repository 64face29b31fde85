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


def error_lines(result: Result) -> list[str]:
    return [f"{e.path}: {e.kind}: {e.message}" for e in result.errors]
