"""The `failcode` command line. Thin: parse options, call the engine, print a report, exit.

Exit status: 0 clean, 1 findings, 2 usage/configuration error, 3 input not checkable,
4 internal error; the highest that applies wins, and --exit-zero turns only 1 into 0.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import Optional, TextIO

import click

from failcode import baseline, engine, ruledocs
from failcode.config import ConfigError
from failcode.engine import Options
from failcode.files import display_path
from failcode.model import CONFIDENCE, EXIT_CONFIG, EXIT_FINDINGS, EXIT_INTERNAL, Result
from failcode.report import terminal
from failcode.resolve import Resolver
from failcode.report import text as text_report
from failcode.rules import BY_CODE, RULES
from failcode.sourcelines import SourceLines
from failcode.version import __version__

FORMATS = ("text", "json", "sarif", "github")


def _listed(values: tuple[str, ...]) -> Optional[tuple[str, ...]]:
    """`--select FC001,FC002 --select FC003` → ('FC001', 'FC002', 'FC003'); None when not given."""
    if not values:
        return None
    return tuple(item.strip() for value in values for item in value.split(",") if item.strip())


def _fail(message: str, status: int = EXIT_CONFIG) -> None:
    click.echo(f"failcode: error: {message}", err=True)
    sys.exit(status)


def _run(paths: tuple[Path, ...], config: Optional[Path], options: Options,
         stdin: Optional[bytes] = None) -> Result:
    """Check `paths`, or when `stdin` is given, that text as the one file `paths[0]`, each file with
    its closest configuration (or `--config`'s for all)."""
    try:
        resolver = Resolver.from_config(config, engine.overrides(options))
        if stdin is not None:
            result = engine.run_source(stdin, paths[0], resolver, options)
        else:
            result = engine.run(list(paths) or [Path(".")], resolver, options)
    except ConfigError as exc:
        _fail(str(exc))
    except Exception as exc:  # a bug in failcode outside any one rule or file (a worker died): exit 4
        _fail(f"internal error: {type(exc).__name__}: {exc}", EXIT_INTERNAL)
    if not result.files and not result.errors:
        _nothing_checked(paths, options.force_exclude)
    return result


def _nothing_checked(paths: tuple[Path, ...], force_exclude: bool) -> None:
    """No Python file under `paths`: a mistyped path or an exclude that is too wide, so a usage
    error (exit 2) rather than a clean pass. Except when --force-exclude removed every file that was
    named: pre-commit passes batches of files, and a batch of excluded files is nothing to fix."""
    click.echo(f"failcode: warning: no Python files found under {' '.join(map(str, paths)) or '.'}", err=True)
    if not (force_exclude and paths and not any(path.is_dir() for path in paths)):
        sys.exit(EXIT_CONFIG)


def _baselined(result: Result, lines: SourceLines, known: Optional[frozenset[str]], baseline_file: Optional[Path],
               write_baseline: Optional[Path], quiet: bool = False) -> Result:
    """The result with baselined findings removed; after `--write-baseline`, with none left."""
    if write_baseline is not None:
        if result.errors:
            _print_errors(result)
            _fail(f"{write_baseline}: baseline not written, {len(result.errors)} file(s) could not be checked "
                  f"and their findings would be missing from it", result.exit_code)
        try:
            baseline.write(write_baseline, result.findings, lines)
        except ConfigError as exc:
            _fail(str(exc))
        click.echo(f"failcode: recorded {len(result.findings)} finding(s) in {write_baseline}", err=True)
        return dataclasses.replace(result, findings=[])
    if known is None or baseline_file is None:
        return result
    fresh = baseline.new_findings(result.findings, known, lines, baseline_file)
    if len(fresh) < len(result.findings) and not quiet:
        click.echo(f"failcode: {len(result.findings) - len(fresh)} finding(s) hidden by baseline {baseline_file}",
                   err=True)
    return dataclasses.replace(result, findings=fresh)


def _print_errors(result: Result) -> None:
    for line in text_report.error_lines(result):
        click.echo(line, err=True)


class _Main(click.Group):
    """Ctrl-C anywhere in a command (finding files, the worker pool, judging, printing) ends it with
    exit 130 and one line, as shells expect, instead of click's `Aborted!` and exit 1."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("failcode: interrupted", err=True)
            sys.exit(130)


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="failcode")
def main() -> None:
    """failcode: find the places where a recorded failure code lies."""


# readable=False: an unreadable file is an input error of its own (exit 3), not a usage error
_path_argument = click.argument("paths", nargs=-1, type=click.Path(path_type=Path, readable=False))
_config_option = click.option("--config", type=click.Path(path_type=Path), help="Read settings from FILE.")


@main.command()
@_path_argument
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("--output-file", "-o", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the report to FILE instead of standard output.")
@click.option("--quiet", "-q", is_flag=True, help="Print only findings and errors: no summary, no progress.")
@click.option("--select", multiple=True, help="Rules to enable (codes or prefixes, comma-separated).")
@click.option("--ignore", multiple=True, help="Rules to disable.")
@click.option("--extend-select", multiple=True, help="Rules to enable on top of the selection.")
@click.option("--exclude", multiple=True, metavar="PATTERNS",
              help="Gitignore-style patterns (comma-separated) to skip, replacing the configured `exclude`.")
@click.option("--extend-exclude", multiple=True, metavar="PATTERNS",
              help="Patterns to skip on top of the configured `exclude` and `extend-exclude`.")
@_config_option
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--statistics", is_flag=True,
              help="Print a count per rule instead of each finding (a JSON list with --format json).")
@click.option("--show-source", is_flag=True, help="Print the reported line under each finding, with a caret.")
@click.option("--min-confidence", type=click.Choice(CONFIDENCE), default="medium", show_default=True,
              help="Report only findings at least this sure (high: proven by shape and flow).")
@click.option("--severity", type=click.Choice(("error", "warning")), default="error", show_default=True,
              help="Level of findings in github annotations and SARIF results.")
@click.option("--baseline", "baseline_file", type=click.Path(path_type=Path, dir_okay=False),
              help="Report only findings that are not recorded in FILE.")
@click.option("--write-baseline", type=click.Path(path_type=Path, dir_okay=False),
              help="Record the current findings in FILE (replacing it) and report none of them.")
@click.option("--add-noqa", is_flag=True, help="Add `# noqa: FCxxx` to every line with a finding, then exit 0.")
@click.option("--stdin-filename", metavar="NAME", help="Check standard input as the file NAME (implies `-`).")
@click.option("--force-exclude", is_flag=True, help="Apply exclude even to paths named on the command line.")
@click.option("--with-importers", is_flag=True,
              help="With files named, also check the project's modules that import a registry module among them.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), help="Worker processes (default: CPU count).")
@click.option("--no-cache", is_flag=True, help="Do not read or write the cache.")
@click.option("--cache-dir", type=click.Path(path_type=Path), help="Cache directory (default: .failcode_cache).")
@click.option("--no-prescreen", is_flag=True,
              help="Parse every file with LibCST, skipping none by the ast pre-screen (slower; same report).")
def check(paths, output_format, output_file, quiet, select, ignore, extend_select, exclude, extend_exclude, config,
          exit_zero, statistics, show_source, min_confidence, severity, baseline_file, write_baseline, add_noqa,
          stdin_filename, force_exclude, with_importers, jobs, no_cache, cache_dir, no_prescreen) -> None:
    """Lint PATHS (default: the current directory; `-` reads one file from standard input)."""
    progress = None if quiet else terminal.Progress(sys.stderr)
    options = Options(
        select=_listed(select), ignore=_listed(ignore) or (), extend_select=_listed(extend_select) or (),
        force_exclude=force_exclude, importers=with_importers, jobs=jobs, use_cache=not no_cache, cache_dir=cache_dir,
        prescreen=not no_prescreen, exclude=_listed(exclude), extend_exclude=_listed(extend_exclude) or (),
        progress=progress.update if progress else None,
    )
    stdin = None
    if stdin_filename is not None or any(str(path) == "-" for path in paths):
        if any(str(path) != "-" for path in paths):
            _fail("`-` (standard input) cannot be combined with other paths")
        if add_noqa:
            _fail("--add-noqa edits files: it cannot be combined with standard input")
        paths = (Path(stdin_filename or "<stdin>"),)
        stdin = sys.stdin.buffer.read()
    known = None
    if baseline_file is not None:
        try:
            known = baseline.load(baseline_file)
        except ConfigError as exc:
            _fail(str(exc))
    out = _open_report(output_file)
    with progress or contextlib.nullcontext():
        result = _run(paths, config, options, stdin)
    if min_confidence == "high":
        result = dataclasses.replace(result, findings=[f for f in result.findings if f.confidence == "high"])
    lines = SourceLines({display_path(Path(os.path.abspath(paths[0]))): stdin} if stdin is not None else None)
    result = _baselined(result, lines, known, baseline_file, write_baseline, quiet)
    if add_noqa:
        _add_noqa(result)
    with out:
        _report(result, lines, output_format, out, statistics=statistics, show_source=show_source,
                severity=severity)
    if not quiet and output_format in ("text", "github"):
        click.echo(text_report.summary(result))
    status = result.exit_code
    if exit_zero and status == EXIT_FINDINGS:
        status = 0
    sys.exit(status)


def _add_noqa(result: Result) -> None:
    """Silence the reported findings in place and exit: 0, or 3/4 when files could not be checked
    (their findings are unknown, so they are not silenced)."""
    from failcode import noqa

    added = noqa.add(result.findings)
    for note in added.skipped:
        click.echo(f"failcode: noqa not added at {note}", err=True)
    _print_errors(result)
    click.echo(f"failcode: added {added.directives} noqa directive(s) to {added.files} file(s)", err=True)
    sys.exit(result.exit_code if result.errors else 0)


def _statistics(result: Result) -> list[dict[str, object]]:
    """A count per rule, most frequent first: `{"code": "FC003", "name": …, "count": 4}`."""
    counts: dict[str, int] = {}
    for finding in result.findings:
        counts[finding.rule] = counts.get(finding.rule, 0) + 1
    return [{"code": code, "name": BY_CODE[code].name, "count": count}
            for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]


def _open_report(output_file: Optional[Path]) -> TextIO:
    """Where the report goes: standard output (never closed), or FILE, opened before anything is
    checked so that a path that cannot be written is a usage error, not a lost report."""
    try:
        if output_file is not None:
            output_file.parent.mkdir(parents=True, exist_ok=True)  # as ruff's `-o` does
        return click.open_file(str(output_file or "-"), "w", encoding="utf-8" if output_file else None)
    except OSError as exc:
        _fail(f"{output_file}: cannot write the report: {exc.strerror or exc}")
    raise AssertionError("unreachable")


def _report(result: Result, lines: SourceLines, output_format: str, out: TextIO, *, statistics: bool,
            show_source: bool, severity: str) -> None:
    """The report in `output_format` on `out`; files that could not be checked go to stderr beside
    the text formats (the JSON and SARIF documents carry them inside)."""
    if output_format == "json" and statistics:  # ruff's `--statistics --output-format json`
        click.echo(json.dumps(_statistics(result), indent=2), file=out)
        _print_errors(result)
    elif output_format == "json":
        from failcode.report import json as json_report

        click.echo(json_report.render(result), file=out)
    elif output_format == "sarif":
        from failcode.report import sarif

        click.echo(sarif.render(result, lines, severity), file=out)
    elif output_format == "github":
        from failcode.report import github

        for line in github.lines(result, severity):
            click.echo(line, file=out)
    elif statistics:
        _print_errors(result)
        for row in _statistics(result):
            click.echo(f"{row['count']:>5}  {row['code']}  {row['name']}", file=out)
    else:
        color = terminal.use_color(out)
        for finding, line in zip(result.findings, text_report.finding_lines(result, color)):
            click.echo(line, file=out, color=color)
            if show_source:
                for row in terminal.source_lines(finding, lines, color):
                    click.echo(row, file=out, color=color)
        _print_errors(result)


@main.command()
@_path_argument
@click.option("--format", "output_format", type=click.Choice(("text", "json")), default="text", show_default=True)
@_config_option
def sites(paths, output_format, config) -> None:
    """Inventory of every place that records a code, and of every verdict and fallback written on
    an outcome channel that receives both (what FC002/FC003 judge), a record's field across the
    project among them."""
    result = _run(paths, config, Options(select=()))
    rows = []
    for project, facts in sorted(((p, f) for p in result.projects for f in p.files.values()),
                                 key=lambda pair: pair[1].path):
        if facts.path not in {e.path for e in result.errors}:
            for site in facts.sites:
                resolved = project.resolve(site)
                if site.kind == "raise" and not project.is_code(site):
                    continue  # `raise OSError(errno.ENOENT, …)`: a constant, not a tagged code
                governing = project.governing(site)
                registered = None
                if resolved.code is not None and governing:
                    registered = any(resolved.code in r.codes for r in governing)
                if resolved.missing_member is not None:
                    registered = False
                rows.append({
                    "path": facts.path, "line": site.pos.line, "column": site.pos.column,
                    "code": resolved.code, "sink": site.sink if site.kind == "call" else site.dest,
                    "function": site.function, "context": site.context, "registered": registered,
                    "channel": site.dest, "role": "fallback" if site.context == "handler" else "other",
                    "value": resolved.code, "why": "except" if site.context == "handler" else "",
                })
            # a record's field joined across the project (FC003 (h)) is listed beside the contested channels
            for write in dict.fromkeys((*facts.writes, *facts.records)):
                rows.append({
                    "path": facts.path, "line": write.pos.line, "column": write.pos.column, "code": None,
                    "sink": write.channel, "function": write.function,
                    "context": "handler" if write.kind in ("except", "narrow-except") else "plain",
                    "registered": None, "channel": write.channel, "role": write.role, "value": write.text,
                    "why": write.why + (f", leaving the default of line {write.kept}" if write.kept else ""),
                })
    rows.sort(key=lambda row: (row["path"], row["line"], row["column"]))
    if output_format == "json":
        click.echo(json.dumps({"sites": rows}, indent=2))
    else:
        for row in rows:
            if row["code"] is None and row["role"] != "other":  # a write on an outcome channel
                click.echo(f"{row['path']}:{row['line']}:{row['column']}: {row['value']}  {row['channel']}  "
                           f"in {row['function']} ({row['role']}: {row['why']})")
                continue
            mark = {True: "registered", False: "UNREGISTERED", None: "-"}[row["registered"]]
            click.echo(f"{row['path']}:{row['line']}:{row['column']}: {row['code'] or '?'}  "
                       f"{row['sink']}  in {row['function']} ({row['context']})  {mark}")
        click.echo(f"{len(rows)} site{'s' if len(rows) != 1 else ''}.")
    _print_errors(result)
    sys.exit(max(result.exit_code, 0) if result.errors else 0)


@main.command()
@_path_argument
@click.option("--format", "output_format", type=click.Choice(("text", "json")), default="text", show_default=True)
@_config_option
def registry(paths, output_format, config) -> None:
    """Registries found, their codes, and where they disagree."""
    result = _run(paths, config, Options(select=()))
    differs = {id(d.registry): d for project in result.projects for d in project.disagreements}
    rows = []
    for reg in sorted((r for project in result.projects for r in project.registries),
                      key=lambda r: (r.path, r.pos.line)):
        found = differs.get(id(reg))
        rows.append({
            "name": reg.name, "path": reg.path, "line": reg.pos.line, "kind": reg.kind,
            "configured": reg.configured, "size": len(reg.entries),
            "codes": [entry.code for entry in reg.entries],
            "agrees": found is None,
            "missing": sorted(found.missing) if found else [],
            "extra": sorted(found.extra) if found else [],
            "against": [other.label for other in found.against] if found else [],
        })
    if output_format == "json":
        click.echo(json.dumps({"registries": rows}, indent=2))
    else:
        for row in rows:
            origin = "configured" if row["configured"] else "discovered"
            click.echo(f"{row['name']}  {row['path']}:{row['line']}  {row['kind']}, {row['size']} codes, {origin}")
            click.echo(f"  {', '.join(row['codes'])}")
            if row["agrees"]:
                click.echo("  agrees with every registry it shares codes with")
            else:
                if row["missing"]:
                    click.echo(f"  lacks: {', '.join(row['missing'])}  (listed by {', '.join(row['against'])})")
                if row["extra"]:
                    click.echo(f"  extra: {', '.join(row['extra'])}  (not in {', '.join(row['against'])})")
        if not rows:
            click.echo("No registries found.")
    _print_errors(result)
    sys.exit(result.exit_code if result.errors else 0)


def _rule_table() -> None:
    for rule in RULES:
        click.echo(f"{rule.code}  {rule.name:<26} {'on ' if rule.default else 'off'}  {rule.summary}")


@main.command()
def rules() -> None:
    """Table of rules."""
    _rule_table()


@main.command()
@click.argument("rule", required=False)
def explain(rule: Optional[str]) -> None:
    """Print the documentation page of RULE (code or name); without RULE, the table of rules to pick from."""
    if rule is None:
        _rule_table()
        return
    code = rule.upper() if rule.upper() in BY_CODE else next((r.code for r in RULES if r.name == rule), None)
    if code is None:
        _fail(f"unknown rule `{rule}` (known: {', '.join(BY_CODE)})")
    try:
        click.echo(ruledocs.page(code))
    except OSError as exc:
        _fail(f"documentation for {code} is not installed: {exc}", EXIT_INTERNAL)
