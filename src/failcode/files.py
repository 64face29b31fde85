"""Which files to check: walk directories for *.py/*.pyi, honour .gitignore and exclude patterns."""

from __future__ import annotations

import errno
import os
import re
import stat
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Optional

import pathspec
import pathspec.util

if TYPE_CHECKING:
    from failcode.resolve import Resolver

SUFFIXES = (".py", ".pyi")


def read_source(path: str) -> bytes:
    """The bytes of a file to check. Only a regular file is read: opening a FIFO would wait for a
    writer for ever and a device (`x.py -> /dev/zero`) never ends, so they raise OSError instead."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
    except OSError:
        os.close(descriptor)
        raise
    with open(descriptor, "rb") as handle:
        return handle.read()


_GROUP = re.compile(r"\(\?P<[^>]*>")


class PathPatterns:
    """Gitignore-style patterns (`exclude`, a `.gitignore`), asked whether a path matches.

    A walk asks every directory and Python file of a tree, and pathspec tries the patterns one by
    one (the twenty default patterns for each of ansible-core's 4,300 entries). When no pattern
    negates (`!keep`), gitignore's answer is whether any pattern matches, so the patterns are
    asked as one regular expression, their group names dropped (each repeats pathspec's directory
    marker); with a negation the order of the patterns decides, and pathspec answers."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.spec = pathspec.GitIgnoreSpec.from_lines(list(lines))
        active = [pattern for pattern in self.spec.patterns if pattern.include is not None]
        regexes = [getattr(pattern, "regex", None) for pattern in active]
        self._any: Optional[re.Pattern[str]] = None
        if all(pattern.include for pattern in active) and all(
                isinstance(regex, re.Pattern) and isinstance(regex.pattern, str) and regex.flags == re.UNICODE
                and "(?P=" not in regex.pattern for regex in regexes):
            # no pattern at all matches nothing: `(?!)` never matches
            self._any = re.compile("|".join(f"(?:{_GROUP.sub('(?:', regex.pattern)})" for regex in regexes) or "(?!)")

    def matches(self, path: str) -> bool:
        if self._any is not None:
            return self._any.search(pathspec.util.normalize_file(path)) is not None
        return self.spec.match_file(path)


def relative_to(path: Path, base: Path) -> Optional[str]:
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return None


def _prefix(relative: Optional[str]) -> Optional[str]:
    """What an entry's relative path starts with, from its directory's (`.`: the base itself)."""
    if relative is None:
        return None
    return "" if relative == "." else relative + "/"


def display_path(path: Path, cwd: Optional[Path] = None) -> str:
    """Relative POSIX path from the working directory where possible, as ruff prints paths."""
    cwd = cwd or Path.cwd().resolve()
    return relative_to(path, cwd) or path.as_posix()


@lru_cache(maxsize=4096)
def _is_package(directory: Path) -> bool:
    return (directory / "__init__.py").is_file() or (directory / "__init__.pyi").is_file()


def module_name(path: Path, root: Path) -> str:
    """The dotted name Python would import the file as: anchored at the topmost directory of its
    package (`site-packages/django/template/x.py` → `django.template.x`, wherever it was checked
    from); for a file outside any package, its path relative to the root (`src/` dropped)."""
    parts = [] if path.stem == "__init__" else [path.stem]
    directory = path.parent
    while _is_package(directory):
        parts.append(directory.name)
        directory = directory.parent
    if path.stem == "__init__" and not parts:
        parts.append(directory.name)
    if len(parts) > 1 or path.stem == "__init__":
        return ".".join(reversed(parts))
    rel = relative_to(path, root)
    return module_of(tuple(rel.split("/")) if rel else (path.name,))


def module_of(path_parts: tuple[str, ...]) -> str:
    """Dotted module name for a repo-relative path (`src/pkg/codes.py` → `pkg.codes`). A folder whose
    name is no identifier (`litellm-1.110.2/`, an unpacked wheel checked from its parent) cannot
    be part of an import name: the name starts after it."""
    parts = list(path_parts)
    for index in range(len(parts) - 2, -1, -1):
        if not parts[index].isidentifier():
            parts = parts[index + 1:]
            break
    if parts and parts[0] in ("src", "lib") and len(parts) > 1:
        parts = parts[1:]
    if not parts:
        return ""
    last = parts[-1]
    for suffix in (".pyi", ".py"):
        if last.endswith(suffix):
            last = last[: -len(suffix)]
    parts[-1] = last
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


class FileFinder:
    """The Python files under the paths given, each directory's entries excluded by the
    configuration that governs that directory (`resolver`), `.gitignore` files respected."""

    def __init__(self, resolver: "Resolver") -> None:
        self.resolver = resolver
        self.unlistable: list[tuple[Path, str]] = []  # directories that could not be read, and why
        self.missing: list[Path] = []  # paths named on the command line that do not exist

    def excluded(self, path: Path, is_dir: bool) -> bool:
        return self.resolver.for_path(path).excluded(path, is_dir)

    def find(self, paths: Iterable[Path], force_exclude: bool = False) -> list[Path]:
        found: dict[Path, None] = {}
        for given in paths:
            absolute = Path(os.path.abspath(given))
            if not given.exists() and not given.is_symlink():
                self.missing.append(absolute)  # E902 for it, as ruff reports; the other paths are checked
                continue
            if given.is_dir():
                if force_exclude and self.excluded(absolute, True):
                    continue
                for path in self._walk(absolute):
                    found.setdefault(path)
            elif not (force_exclude and self.excluded(absolute, False)):
                found.setdefault(absolute)
        return sorted(found)

    def _walk(self, top: Path) -> Iterable[Path]:
        """A directory named on the command line. One that `exclude` or a `.gitignore` above it
        would skip (`failcode check build`) is checked all the same, as a named file is: its
        entries are matched from it, as from a root, so the name that excludes it does not exclude
        everything below it (`build/cli.py` under the pattern `build`); `__pycache__` or a `.venv`
        inside it still is."""
        ignores: list[tuple[Path, PathPatterns]] = []
        root = self.resolver.for_directory(top).root
        for parent in reversed(top.parents):  # .gitignore files between the root and `top`
            if relative_to(parent, root) is not None:
                ignores.extend(self._gitignore(parent))
        if self.excluded(top, True) or any(spec.matches(f"{relative_to(top, base)}/") for base, spec in ignores):
            yield from self._walk_dir(top, [], anchor=top)
        else:
            yield from self._walk_dir(top, ignores)

    def _gitignore(self, directory: Path) -> list[tuple[Path, PathPatterns]]:
        path = directory / ".gitignore"
        try:
            lines = read_source(str(path)).decode("utf-8", errors="replace").splitlines()
        except OSError:
            return []
        return [(directory, PathPatterns(lines))]

    def _walk_dir(self, directory: Path, ignores, anchor: Optional[Path] = None) -> Iterable[Path]:
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError as exc:  # its files cannot be checked: say so, never skip them silently
            self.unlistable.append((directory, exc.strerror or str(exc)))
            return
        # a directory's own entries say whether it has a `.gitignore`: no failed open for each
        local = [*ignores, *self._gitignore(directory)] if any(e.name == ".gitignore" for e in entries) else ignores
        # every entry shares its directory's configuration and its place under each root: worked
        # out once here, an entry's relative paths are the directory's and its name
        config = self.resolver.for_directory(directory)
        # under a named directory that is itself excluded (`anchor`), patterns match from it, unless
        # a configuration of its own lies below it
        start = config.root if anchor is None or relative_to(config.root, anchor) is not None else anchor
        under_root = _prefix(relative_to(directory, start))
        under_ignores = [(_prefix(relative_to(directory, base)), spec) for base, spec in local]
        for entry in entries:
            name = entry.name
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                is_dir = False
            if not is_dir and not name.endswith(SUFFIXES):
                continue  # never checked, so never asked whether it is excluded (most of a tree's entries)
            if config.excludes(None if under_root is None else under_root + name, name, is_dir):
                continue
            suffix = "/" if is_dir else ""
            if any(prefix is not None and spec.matches(prefix + name + suffix) for prefix, spec in under_ignores):
                continue
            if is_dir:
                yield from self._walk_dir(Path(entry.path), local, anchor)
            else:
                yield Path(entry.path)
