"""`[tool.failcode]` configuration: defaults from the contract, loading, validation.

A configuration mistake must never pass silently: an unknown key, a wrong type or a regex that
does not compile is a `ConfigError` that names the key and what was expected (exit status 2).
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Optional

from failcode.files import display_path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python < 3.11 only
    import tomli as tomllib

DEFAULT_CODE_PATTERN = r"^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$"
DEFAULT_BLAME_PATTERN = (
    r"providers?|upstream|remote|network|backends?|timeout|timed_out|models?|llm|api|vendors?|services?"
    r"|quota|rate_limit(ed)?|guardrail"
)
DEFAULT_INTERNAL_PATTERN = r"(?i)internal|unexpected|unknown|unclassified|bug"

RECEIVER_WORDS = (
    "fail fails failed failure failures reason reasons error errors err errs violation violations"
    " problem problems fault faults issue issues code codes"
).split()
METHODS = "add append extend update insert appendleft put".split()
KEYWORDS = (
    "code reason failure status failure_code failure_reason reason_code error_code error_type"
    " outcome verdict failures failure_codes failure_reasons reason_codes error_codes"
).split()
NAME_SUFFIXES = "status outcome verdict".split()

STAGES: dict[str, tuple[str, ...]] = {
    "read": (
        "open", "io.open", "pathlib.Path.read_*", "*.read_text", "*.read_bytes",
        "requests.*", "httpx.*", "urllib.request.*", "socket.*",
        "json.load", "json.loads", "yaml.*load", "yaml.*load_all", "tomllib.load", "tomllib.loads",
        "tomli.load", "tomli.loads", "pickle.load", "pickle.loads", "ast.literal_eval",
        "*.model_validate*", "*.parse_obj", "*.parse_raw", "*.json", "parse", "*.parse", "parse_*", "*_parse",
        "deserialize*", "base64.*decode*", "codecs.decode", "binascii.*",
        "int", "float", "decimal.Decimal", "datetime.*.strptime", "datetime.*.fromisoformat",
        "extract_*",
    ),
    # running candidate code: what fails there is the candidate (or our sandbox), not the input
    "execute": ("exec", "eval", "subprocess.*", "importlib.import_module", "runpy.*"),
    "validate": ("validate*", "jsonschema.validate", "jsonschema.*.validate", "*.validate"),
    "compare": (
        "canonical*", "json.dumps(sort_keys)", "digest*", "*.equals", "compare*", "diff*",
        "difflib.*", "check_*", "is_equiv*", "grade*", "judge*", "hmac.compare_digest",
        "*_equal", "*_equals", "is_equal*", "exact_match*", "*_match", "verify",
    ),
}

DEFAULT_EXCLUDE = (
    ".git", ".hg", ".svn", ".bzr", ".venv", "venv", ".env", "env", ".tox", ".nox", "__pycache__",
    "build", "dist", "node_modules", ".mypy_cache", ".ruff_cache", ".pytest_cache",
    ".failcode_cache", "*.egg-info", ".eggs",
)


class ConfigError(Exception):
    """A usage or configuration mistake: nothing is checked, exit status 2."""


def split_registry_entry(entry: str) -> tuple[str, str]:
    """`pkg/codes.py:FailureCode` → ('pkg/codes.py', 'FailureCode'); `codes.toml` → ('codes.toml', '')."""
    file_part, colon, name = entry.rpartition(":")
    if colon and name.isidentifier():
        return file_part, name
    return entry, ""


@dataclass(frozen=True)
class Sinks:
    receivers: tuple[str, ...] = tuple(RECEIVER_WORDS)
    methods: tuple[str, ...] = tuple(METHODS)
    keywords: tuple[str, ...] = tuple(KEYWORDS)
    names: tuple[str, ...] = tuple(NAME_SUFFIXES)


@dataclass(frozen=True)
class Selection:
    """One layer of rule selection, as ruff stacks them: each configuration of an `extend` chain
    (the base first), then the command line. A layer that sets `select` starts the selection
    anew; one that does not adjusts what the layers before it chose. `where` names the layer in
    messages (`pyproject.toml: tool.failcode.select`, `--select`)."""

    select: Optional[tuple[str, ...]] = None
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    where: str = "tool.failcode"


@dataclass(frozen=True)
class Settings:
    root: Path = field(default_factory=Path.cwd)
    config_file: Optional[Path] = None
    registry: tuple[str, ...] = ()
    code_pattern: str = DEFAULT_CODE_PATTERN
    blame_pattern: str = DEFAULT_BLAME_PATTERN
    internal_pattern: str = DEFAULT_INTERNAL_PATTERN
    select: Optional[tuple[str, ...]] = None
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    sinks: Sinks = field(default_factory=Sinks)
    stages: tuple[tuple[str, tuple[str, ...]], ...] = tuple(STAGES.items())
    inherited: tuple[Selection, ...] = ()  # the selection layers of the configurations this one extends

    @property
    def selections(self) -> tuple[Selection, ...]:
        """The configured selection layers, base first: the inherited ones, then this file's own."""
        where = f"{shown(self.config_file)}: tool.failcode" if self.config_file else "tool.failcode"
        return (*self.inherited, Selection(self.select, self.ignore, self.extend_select, where))

    def configured_names(self) -> tuple[str, ...]:
        """Names of configured Python registries (`pkg/codes.py:ORDER` → `ORDER`)."""
        return tuple(name for _, name in map(split_registry_entry, self.registry) if name)

    def extraction_key(self) -> str:
        """Hash of everything that changes what the extractor records (part of the cache key)."""
        text = repr((self.code_pattern, self.sinks, self.stages, self.configured_names()))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


_STR = "a string"
_LIST = "a list of strings"


def _expect_str(key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise ConfigError(f"`{key}` must be {_STR}, got {type(value).__name__} {value!r}")
    return value


def _expect_list(key: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, str) and key.endswith("registry"):
        return (value,)
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"`{key}` must be {_LIST}, got {type(value).__name__} {value!r}")
    return tuple(value)


def _expect_regex(key: str, value: Any) -> str:
    text = _expect_str(key, value)
    try:
        re.compile(text)
    except re.error as exc:
        raise ConfigError(f"`{key}` is not a valid regular expression: {exc}") from None
    return text


def _expect_table(key: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(f"`{key}` must be a table, got {type(value).__name__} {value!r}")
    return value


def _replace_or_extend(key: str, table: dict[str, Any], defaults: dict[str, tuple[str, ...]]):
    replace = table.get("replace", False)
    if not isinstance(replace, bool):
        raise ConfigError(f"`{key}.replace` must be a boolean, got {type(replace).__name__}")
    for name in table:
        if name != "replace" and name not in defaults:
            raise ConfigError(f"unknown key `{key}.{name}` (expected one of: {', '.join(defaults)}, replace)")
    merged = {}
    for name, default in defaults.items():
        given = _expect_list(f"{key}.{name}", table[name]) if name in table else ()
        merged[name] = given if replace and name in table else tuple(dict.fromkeys(default + given))
    return merged


def from_table(table: dict[str, Any], root: Path, config_file: Optional[Path] = None) -> Settings:
    """Validate a `[tool.failcode]` table (kebab-case keys) into Settings. A mistake names the file."""
    try:
        return _from_table(table, root, config_file)
    except ConfigError as exc:
        raise ConfigError(f"{shown(config_file)}: {exc}" if config_file else str(exc)) from None


def _from_table(table: dict[str, Any], root: Path, config_file: Optional[Path]) -> Settings:
    prefix = "tool.failcode"
    values: dict[str, Any] = {"root": root, "config_file": config_file}
    for key, value in table.items():
        full = f"{prefix}.{key}"
        if key in ("registry", "select", "ignore", "extend-select", "exclude", "extend-exclude"):
            values[key.replace("-", "_")] = _expect_list(full, value)
        elif key in ("code-pattern", "blame-pattern", "internal-pattern"):
            values[key.replace("-", "_")] = _expect_regex(full, value)
        elif key == "per-file-ignores":
            pairs = [(pattern, _expect_list(f"{full}.{pattern}", codes))
                     for pattern, codes in _expect_table(full, value).items()]
            values["per_file_ignores"] = tuple(pairs)
        elif key == "sinks":
            defaults = {f.name: getattr(Sinks(), f.name) for f in fields(Sinks)}
            values["sinks"] = Sinks(**_replace_or_extend(full, _expect_table(full, value), defaults))
        elif key == "stages":
            merged = _replace_or_extend(full, _expect_table(full, value), STAGES)
            values["stages"] = tuple(merged.items())
        elif key == "extend":
            _expect_str(full, value)  # read by `load_file`, which follows it
        else:
            known = ", ".join(sorted(_KEYS))
            raise ConfigError(f"unknown key `{full}` (known keys: {known})")
    return Settings(**values)


_KEYS = (
    "registry", "code-pattern", "blame-pattern", "internal-pattern", "select", "ignore",
    "extend-select", "exclude", "extend-exclude", "per-file-ignores", "sinks", "stages", "extend",
)


def read_pyproject(path: Path) -> Optional[dict[str, Any]]:
    """The `[tool.failcode]` table of a pyproject.toml, None when it has none."""
    return _tool_table(_read_toml(path), path)


def _tool_table(data: dict[str, Any], path: Path) -> Optional[dict[str, Any]]:
    """The `[tool.failcode]` table of a parsed configuration file, None when it has none."""
    tool = data.get("tool", {})
    if not isinstance(tool, dict) or "failcode" not in tool:
        return None
    try:
        return _expect_table("tool.failcode", tool["failcode"])
    except ConfigError as exc:
        raise ConfigError(f"{shown(path)}: {exc}") from None


def shown(path: Path) -> str:
    """A configuration file as messages name it: relative to the working directory when under it."""
    return display_path(Path(path).resolve())


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except OSError as exc:
        raise ConfigError(f"{shown(path)}: cannot read configuration: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{shown(path)}: invalid TOML: {exc}") from None


def _table_of(path: Path) -> dict[str, Any]:
    """The failcode table of a configuration file named by `--config` or `extend`: a pyproject.toml
    (or any file with a `[tool]` table) keeps it under `[tool.failcode]`; a dedicated file
    (`failcode.toml`) holds the keys at top level."""
    if not path.is_file():
        raise ConfigError(f"{shown(path)}: configuration file not found")
    data = _read_toml(path)
    if path.name == "pyproject.toml" or "tool" in data:
        table = _tool_table(data, path)
        if table is None:
            raise ConfigError(f"{shown(path)}: no [tool.failcode] table (a pyproject.toml keeps failcode's "
                              f"settings there)")
        return table
    return data


def find_config(start: Path) -> Optional[Path]:
    """The nearest pyproject.toml at or above `start` that has a `[tool.failcode]` table."""
    for directory in (start, *start.parents):
        candidate = directory / "pyproject.toml"
        if candidate.is_file() and read_pyproject(candidate) is not None:
            return candidate
    return None


def load_file(path: Path, table: Optional[dict[str, Any]] = None, chain: tuple[Path, ...] = ()) -> Settings:
    """The settings of one configuration file, following its `extend = "../pyproject.toml"` as
    ruff does: the file's own keys win, the base's others are kept (paths in them still meaning
    what they meant where they were written), `extend-exclude` adds up, and the base's rule
    selection is a layer under this file's."""
    path = path.resolve()
    if path in chain:
        raise ConfigError(f"{shown(path)}: `extend` goes round in a circle: {' -> '.join(map(shown, (*chain, path)))}")
    table = _table_of(path) if table is None else table
    own = from_table(table, path.parent, path)
    extend = table.get("extend")
    if extend is None:
        return own
    base = load_file((path.parent / Path(extend).expanduser()), None, (*chain, path))
    return _merged(base, own, table)


def _merged(base: Settings, own: Settings, table: dict[str, Any]) -> Settings:
    """`own` (the extending file, whose keys are those of `table`) over `base`."""
    given = {key.replace("-", "_") for key in table}
    values: dict[str, Any] = {"root": own.root, "config_file": own.config_file,
                              "inherited": base.selections}
    for name in ("code_pattern", "blame_pattern", "internal_pattern", "sinks", "stages"):
        values[name] = getattr(own if name in given else base, name)
    values["registry"] = own.registry if "registry" in given else tuple(
        _rebase_entry(entry, base.root, own.root) for entry in base.registry)
    values["exclude"] = own.exclude if "exclude" in given else _rebased(base.exclude, base.root, own.root)
    values["extend_exclude"] = _rebased(base.extend_exclude, base.root, own.root) + own.extend_exclude
    values["per_file_ignores"] = own.per_file_ignores if "per_file_ignores" in given else tuple(
        (moved, codes) for pattern, codes in base.per_file_ignores
        for moved in _rebased((pattern,), base.root, own.root))
    for name in ("select", "ignore", "extend_select"):
        values[name] = getattr(own, name)
    return Settings(**values)


def _rebase_entry(entry: str, base: Path, root: Path) -> str:
    """A registry entry written relative to `base`, relative to `root` instead."""
    file_part, name = split_registry_entry(entry)
    moved = os.path.relpath(base / file_part, root)
    return f"{moved}:{name}" if name else moved


def _rebased(patterns: tuple[str, ...], base: Path, root: Path) -> tuple[str, ...]:
    """Gitignore-style patterns written relative to `base`, relative to `root`. A pattern without a
    slash (`build`, `*.pyi`) matches by name anywhere and moves unchanged; an anchored one
    (`gen/`, `/docs/conf.py`) keeps only the part under `root`, and is dropped when it points
    outside `root`, where this configuration checks nothing."""
    if base == root:
        return patterns
    moved = []
    for pattern in patterns:
        negated, body = ("!", pattern[1:]) if pattern.startswith("!") else ("", pattern)
        if "/" not in body.rstrip("/"):
            moved.append(pattern)
            continue
        target = os.path.normpath(os.path.join(str(base), body.lstrip("/")))
        relative = os.path.relpath(target, root)
        if relative == ".." or relative.startswith(".." + os.sep):
            continue
        moved.append(f"{negated}/{Path(relative).as_posix()}{'/' if body.endswith('/') else ''}")
    return tuple(moved)


def load(config_file: Optional[Path] = None, start: Optional[Path] = None) -> Settings:
    """Settings from `--config FILE`, else the nearest pyproject.toml at or above `start`, else the
    defaults (rooted at the working directory)."""
    if config_file is not None:
        return load_file(config_file)
    found = find_config((start or Path.cwd()).resolve())
    if found is None:
        return Settings(root=Path.cwd().resolve())
    return load_file(found)
