"""Which settings govern each file, resolved once per directory and compiled once.

ruff's hierarchy: without `--config`, a file is checked with the closest pyproject.toml at or above
its directory that has a `[tool.failcode]` table (following its `extend`); with `--config FILE`, or
Settings handed to the API, those settings govern every file. The command line is the last layer:
its rule selection stacks over each configuration's, and `--exclude`/`--extend-exclude` apply to
all of them. What the engine needs of a configuration (the rules it selects, its patterns, its
exclude and per-file-ignore specs, its root) is compiled here once per configuration, so nothing
downstream goes back to the raw settings.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional

import pathspec

from failcode.config import ConfigError, Selection, Settings, load, load_file, read_pyproject, shown
from failcode.files import PathPatterns, relative_to
from failcode.model import Finding
from failcode.names import SegmentPattern
from failcode.project import Patterns
from failcode.rules import BY_CODE, RULES, Rule


@dataclass(frozen=True)
class Overrides:
    """What the command line says over every configuration."""

    select: Optional[tuple[str, ...]] = None
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    exclude: Optional[tuple[str, ...]] = None  # replaces the configured `exclude`
    extend_exclude: tuple[str, ...] = ()

    @property
    def selection(self) -> Selection:
        return Selection(self.select, self.ignore, self.extend_select, where="")  # no file: the command line


# -- rule selection ---------------------------------------------------------------------------

def _specificity(selector: str) -> int:
    """ruff's tie-break: a more specific selector wins over a less specific one (`FC00` over `FC`,
    `FC003` over `FC00`); a rule's name is as specific as its code."""
    key = selector.strip().upper()
    if key in ("ALL", "FC"):
        return 0
    return 99 if key not in BY_CODE and not key.startswith("FC") else len(key)


def _codes(selector: str, where: str) -> set[str]:
    key = selector.strip().upper()
    if key == "ALL":
        key = "FC"
    matched = {code for code in BY_CODE if code.startswith(key)} if key else set()
    matched |= {rule.code for rule in RULES if rule.name == selector.strip().lower()}
    if not matched:
        raise ConfigError(f"{where}: unknown rule `{selector}` (known: {', '.join(BY_CODE)})")
    return matched


def _where(layer: Selection, key: str) -> str:
    """How a message names a selector's key: `--ignore` on the command line, else the file's key."""
    option = key.replace("_", "-")
    return f"{layer.where}.{option}" if layer.where else f"--{option}"


def select_rules(layers: Iterable[Selection]) -> list[Rule]:
    """The rules the layers select, resolved as ruff resolves `select`/`ignore`/`extend-select`:
    layer by layer (the configurations of an `extend` chain, base first, then the command line);
    within a layer, selectors apply from the least specific to the most, an `ignore` winning over
    a `select` of the same specificity; a layer that sets `select` replaces what came before,
    any other adjusts it. So `--select FC001` runs FC001 whatever the configuration ignores, and
    `--extend-select FC008` brings back a rule the configuration ignored."""
    selected = {rule.code for rule in RULES if rule.default}
    carried: tuple[tuple[str, str], ...] = ()  # ignores of a `select = []` layer, carried to the next
    for layer in layers:
        picks = [(s, _where(layer, "select")) for s in layer.select or ()]
        picks += [(s, _where(layer, "extend_select")) for s in layer.extend_select]
        drops = [(s, _where(layer, "ignore")) for s in layer.ignore] + list(carried)
        updates: dict[str, bool] = {}
        for level in sorted({_specificity(s) for s, _ in picks + drops}):
            for selector, where in picks:
                if _specificity(selector) == level:
                    updates.update(dict.fromkeys(_codes(selector, where), True))
            for selector, where in drops:
                if _specificity(selector) == level:
                    updates.update(dict.fromkeys(_codes(selector, where), False))
        carried = ()
        if layer.select is not None:
            selected = {code for code, on in updates.items() if on}
            if not layer.select and not layer.extend_select:
                carried = tuple((s, _where(layer, "ignore")) for s in layer.ignore)
        else:
            selected = (selected | {c for c, on in updates.items() if on}) - {c for c, on in updates.items() if not on}
    return [rule for rule in RULES if rule.code in selected]


# -- one configuration, compiled --------------------------------------------------------------

class Compiled:
    """One configuration as the engine uses it. Built once per configuration file per run."""

    def __init__(self, settings: Settings, overrides: Overrides) -> None:
        exclude = settings.exclude if overrides.exclude is None else overrides.exclude
        self.settings = dataclasses.replace(settings, exclude=exclude,
                                            extend_exclude=settings.extend_exclude + overrides.extend_exclude)
        self.root = self.settings.root.resolve()
        self.rules = select_rules((*settings.selections, overrides.selection))
        self.patterns = Patterns(code=re.compile(settings.code_pattern), blame=SegmentPattern(settings.blame_pattern),
                                 internal=SegmentPattern(settings.internal_pattern))
        self._exclude = PathPatterns([*self.settings.exclude, *self.settings.extend_exclude])
        where = f"{shown(settings.config_file)}: tool.failcode" if settings.config_file else "tool.failcode"
        self._ignores = [(pathspec.GitIgnoreSpec.from_lines([pattern]),
                          set().union(*(_codes(c, f"{where}.per-file-ignores.{pattern}") for c in codes)))
                         for pattern, codes in settings.per_file_ignores]

    def excluded(self, path: Path, is_dir: bool) -> bool:
        """Matched by `exclude`/`extend-exclude`: relative to this configuration's root, or by name
        anywhere (`build` excludes outside the root too)."""
        return self.excludes(relative_to(path, self.root), path.name, is_dir)

    def excludes(self, relative: Optional[str], name: str, is_dir: bool) -> bool:
        """`excluded` for a path already made relative to the root (None: outside it), as a walk
        knows it from its directory's (`files.FileFinder`)."""
        suffix = "/" if is_dir else ""
        return relative is not None and self._exclude.matches(relative + suffix) or self._exclude.matches(name + suffix)

    def ignores(self, finding: Finding, absolute: Path) -> bool:
        """`per-file-ignores` silences the finding's rule in its file (matched relative to the root,
        as the finding's path is when the run starts there)."""
        try:
            relative = absolute.relative_to(self.root).as_posix()
        except ValueError:
            relative = finding.path
        return any(spec.match_file(relative) and finding.rule in codes for spec, codes in self._ignores)


class Resolver:
    """The compiled configuration of each directory, found once: `fixed` settings for every file
    (`--config`, the API's Settings), else the closest configuration, else the defaults."""

    def __init__(self, fixed: Optional[Settings] = None, overrides: Overrides = Overrides()) -> None:
        self.overrides = overrides
        self._fixed = Compiled(fixed, overrides) if fixed is not None else None
        self._by_dir: dict[Path, Compiled] = {}
        self._by_file: dict[Optional[Path], Compiled] = {}

    @classmethod
    def from_config(cls, config_file: Optional[Path], overrides: Overrides = Overrides()) -> "Resolver":
        return cls(load(config_file) if config_file is not None else None, overrides)

    def for_path(self, path: Path) -> Compiled:
        """The configuration of a file (or of a directory's own entries, for `is_dir` paths)."""
        return self.for_directory(path.parent)

    def for_directory(self, directory: Path) -> Compiled:
        if self._fixed is not None:
            return self._fixed
        found = self._by_dir.get(directory)
        if found is None:
            found = self._by_dir[directory] = self._find(directory)
        return found

    def _find(self, directory: Path) -> Compiled:
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            table = read_pyproject(candidate)
            if table is not None:
                return self._compiled(candidate.resolve(), table)
        if directory.parent == directory:
            return self._compiled(None, None)
        return self.for_directory(directory.parent)

    def _compiled(self, config_file: Optional[Path], table) -> Compiled:
        found = self._by_file.get(config_file)
        if found is None:
            settings = load_file(config_file, table) if config_file is not None else Settings(root=Path.cwd().resolve())
            found = self._by_file[config_file] = Compiled(settings, self.overrides)
        return found
