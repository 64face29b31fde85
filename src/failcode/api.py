"""failcode as a library, for editors and tools: the check `failcode check` runs, returned as data.

The result holds the same `Finding` and `FileError` dataclasses the command line prints, so an
editor integration shows exactly what CI reports. A configuration mistake raises `ConfigError`
(the command line's exit status 2); files that cannot be checked are `FileError`s in the result.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Optional, Union

from failcode import engine
from failcode.config import ConfigError, Settings, load
from failcode.engine import Options
from failcode.model import FileError, Finding, Result
from failcode.resolve import Resolver

__all__ = ["check_paths", "check_source", "settings_for", "ConfigError", "FileError", "Finding", "Options",
           "Result", "Settings"]

PathLike = Union[str, "os.PathLike[str]"]
Config = Union[None, PathLike, Settings]


def settings_for(config: Config, near: Optional[Path] = None) -> Settings:
    """`config` itself when it is Settings; else the settings of that config file; else those of the
    nearest pyproject.toml with a [tool.failcode] table at or above `near` (a file or directory)."""
    if isinstance(config, Settings):
        return config
    if config is not None:
        return load(Path(config))
    start = None
    if near is not None:
        start = near if near.is_dir() else near.parent
    return load(None, start if start is not None and start.exists() else None)


def _resolver(config: Config, options: Optional[Options]) -> Resolver:
    """Settings or a config file govern every file; None: each file its closest configuration."""
    fixed = settings_for(config) if config is not None else None
    return Resolver(fixed, engine.overrides(options or Options()))


def check_paths(paths: Union[PathLike, Iterable[PathLike]], config: Config = None, *,
                options: Optional[Options] = None) -> Result:
    """Check files and directories as `failcode check PATHS` does (paths display relative to the
    working directory), each file with its closest configuration unless `config` (a config file
    path or Settings) is given. `options` carries rule selection, jobs and cache settings."""
    given = [Path(paths)] if isinstance(paths, (str, os.PathLike)) else [Path(p) for p in paths]
    return engine.run(given or [Path(".")], _resolver(config, options), options)


def check_source(text: Union[str, bytes], path: PathLike = "<stdin>", config: Config = None, *,
                 options: Optional[Options] = None) -> Result:
    """Check `text` as the content of `path` (an unsaved editor buffer; the file need not exist),
    as `failcode check --stdin-filename PATH -` does. Only this one file is checked, so rules that
    compare files (FC005, FC008) see the configured registries but not the rest of the project."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    return engine.run_source(data, Path(path), _resolver(config, options), options)
