"""Runs a check: find files, extract facts (cached, in a process pool), judge them, suppress.

The engine owns failcode's own failure codes: an input problem becomes a FileError of kind
unparseable/unreadable/undecodable, a crashing rule a FileError of kind internal that names the
rule, and a configuration mistake a ConfigError — never a finding, never silence.
"""

from __future__ import annotations

import dataclasses
import gc
import itertools
import os
import re
import sys
from contextlib import contextmanager
from functools import lru_cache
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Optional, Union

import pathspec

from failcode import cache as cache_module
from failcode.config import ConfigError, Settings, split_registry_entry
from failcode.facts.datafiles import read_data_file
from failcode.files import FileFinder, display_path, module_name, read_source
from failcode.model import FileError, FileFacts, Finding, Registry, Result
from failcode.names import SegmentPattern
from failcode.project import Patterns, Project
from failcode.rules import BY_CODE, RULES, Rule

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

RECURSION_LIMIT = 20_000
POOL_MIN_FILES = 8  # fewer files to extract than this: a pool costs more than it saves


@dataclass
class Options:
    select: Optional[tuple[str, ...]] = None
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    force_exclude: bool = False
    jobs: Optional[int] = None
    use_cache: bool = True
    cache_dir: Optional[Path] = None
    prescreen: bool = True  # False: every file through LibCST (to check that the screen loses nothing)
    # called with (files done, files in all) as files finish extraction, the run's slow part
    progress: Optional[Callable[[int, int], None]] = None


@dataclass(frozen=True)
class Task:
    path: str  # absolute
    display: str
    module: str
    is_package: bool


# -- rule selection ---------------------------------------------------------------------------

def _expand(selectors: Iterable[str], where: str) -> set[str]:
    codes: set[str] = set()
    for selector in selectors:
        key = selector.strip().upper()
        if key == "ALL":
            key = "FC"
        matched = {code for code in BY_CODE if code.startswith(key)} if key else set()
        by_name = [rule.code for rule in RULES if rule.name == selector.strip().lower()]
        if not matched and not by_name:
            raise ConfigError(f"{where}: unknown rule `{selector}` (known: {', '.join(BY_CODE)})")
        codes |= matched | set(by_name)
    return codes


def selected_rules(settings: Settings, options: Options) -> list[Rule]:
    if options.select is not None:
        base = _expand(options.select, "--select")
    elif settings.select is not None:
        base = _expand(settings.select, "tool.failcode.select")
    else:
        base = {rule.code for rule in RULES if rule.default}
    base |= _expand(settings.extend_select, "tool.failcode.extend-select")
    base |= _expand(options.extend_select, "--extend-select")
    base -= _expand(settings.ignore, "tool.failcode.ignore")
    base -= _expand(options.ignore, "--ignore")
    for pattern, codes in settings.per_file_ignores:
        _expand(codes, f"tool.failcode.per-file-ignores.{pattern}")
    return [rule for rule in RULES if rule.code in base]


# -- extraction -------------------------------------------------------------------------------

_WORKER: Optional[tuple[Settings, bool]] = None  # a pool worker's (settings, prescreen)


def _raise_recursion_limit() -> None:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))


def _init_worker(settings: Settings, prescreen: bool) -> None:
    global _WORKER
    _WORKER = (settings, prescreen)
    _raise_recursion_limit()
    try:  # the parent handles Ctrl-C; workers just stop
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except (ImportError, ValueError):  # pragma: no cover
        pass


def extract_task(task: Task, settings: Optional[Settings] = None, prescreen: bool = True) -> Union[FileFacts, FileError]:
    """Facts of the file of `task`; in a pool worker, with the settings the pool was started with."""
    if settings is None:
        settings, prescreen = _WORKER
    try:
        data = read_source(task.path)
    except OSError as exc:
        return FileError(task.display, "unreadable", f"cannot read: {exc.strerror or exc}")
    return extract_data(task, data, settings, prescreen)


def extract_data(task: Task, data: bytes, settings: Settings, prescreen: bool = True) -> Union[FileFacts, FileError]:
    """Facts of `data` as the text of `task` (read from disk, or given on stdin / by an editor)."""
    from failcode.facts import InputError, extract_file

    try:
        return extract_file(data, task.display, task.module, task.is_package, settings, prescreen)
    except InputError as exc:
        return FileError(task.display, exc.kind, exc.message, exc.line, exc.column)
    except Exception as exc:  # a bug in failcode's extractor, reported as such (exit 4)
        return FileError(task.display, "internal",
                         f"failcode crashed extracting facts: {type(exc).__name__}: {exc}")


def _extract_all(tasks: list[Task], settings: Settings, options: Options) -> list[Union[FileFacts, FileError]]:
    store = cache_module.Cache.open(settings, options.cache_dir, options.prescreen) if options.use_cache else None
    results: dict[int, Union[FileFacts, FileError]] = {}
    missing: list[tuple[int, Task, Optional[str]]] = []
    for index, task in enumerate(tasks):
        key = store.key(task) if store is not None else None
        hit = store.get(key) if key is not None else None
        if hit is not None:
            results[index] = hit
        else:
            missing.append((index, task, key))
    jobs = _jobs(options, len(missing))
    done = itertools.count(len(tasks) - len(missing))  # the cache answered the others

    def finished() -> None:
        """Report one more file done (the first call reports those the cache answered)."""
        if options.progress is not None:
            options.progress(next(done), len(tasks))

    finished()
    if missing:
        import failcode.facts  # noqa: F401 - imported before gc.freeze(), so its objects are frozen too
        # What is alive now (modules, the caller's data) is no garbage: collections during extraction
        # skip it (≈10 % of extraction time), and forked workers share its pages untouched.
        gc.freeze()
    if jobs <= 1:
        _raise_recursion_limit()  # not _init_worker: this process must keep handling Ctrl-C
        fresh = []
        for _, task, _ in missing:
            fresh.append(extract_task(task, settings, options.prescreen))
            gc.collect()
            gc.freeze()  # the facts so far, kept to the end: no collection need look at them again
            finished()
    else:
        order = sorted(range(len(missing)), key=lambda i: -_size(missing[i][1].path))
        with _pool(jobs, settings, options.prescreen) as pool:
            # small chunks: after the pre-screen, a few large files can hold most of the LibCST work
            computed = pool.map(extract_task, [missing[i][1] for i in order],
                                chunksize=max(1, len(order) // (jobs * 32)))
            fresh_by = {}
            for i, outcome in zip(order, computed):  # map yields in order, each as soon as it is ready
                fresh_by[i] = outcome
                finished()
        fresh = [fresh_by[i] for i in range(len(missing))]
    gc.unfreeze()
    for (index, task, key), outcome in zip(missing, fresh):
        results[index] = outcome
        if store is not None and key is not None and not (isinstance(outcome, FileError) and outcome.kind == "internal"):
            store.put(key, outcome)
    return [results[i] for i in range(len(tasks))]


@contextmanager
def _pool(jobs: int, settings: Settings, prescreen: bool) -> Iterator[ProcessPoolExecutor]:
    """A worker pool that an interrupted or failed run tears down at once: pending files cancelled,
    workers terminated, rather than waited for (`with ProcessPoolExecutor` waits for every worker)."""
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(jobs, initializer=_init_worker, initargs=(settings, prescreen))
    try:
        yield pool
    except BaseException:
        workers = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.join(1)
        raise
    pool.shutdown(wait=True)


def _jobs(options: Options, files: int) -> int:
    """Worker processes for `files` extractions: none (in-process) for a few files, and none
    inside another pool's worker (nested pools multiply processes past the CPU count)."""
    if files < POOL_MIN_FILES:
        return 1
    import multiprocessing

    if multiprocessing.parent_process() is not None:
        return 1
    if options.jobs:
        return min(options.jobs, files)
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return min(cpus, files)


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _task(path: Path, settings: Settings, cwd: Path) -> Task:
    return Task(str(path), display_path(path, cwd), module_name(path, _resolved(settings.root, os.getcwd())),
                path.name in ("__init__.py", "__init__.pyi"))


@lru_cache(maxsize=16)
def _resolved(root: Path, cwd: str) -> Path:
    """The project root resolved (from `cwd`, when it is relative) once per run instead of once
    per file: a syscall per part of the path."""
    return root.resolve()


# -- configured registries --------------------------------------------------------------------

def _configured(settings: Settings, outcomes: dict[str, Union[FileFacts, FileError]],
                tasks_by_abs: dict[str, Task]) -> list[Registry]:
    found = []
    for entry in settings.registry:
        file_part, name = split_registry_entry(entry)
        path = (settings.root / file_part).resolve()
        where = f"tool.failcode.registry entry `{entry}`"
        if not path.is_file():
            raise ConfigError(f"{where}: {file_part} is not a file" if path.exists() else
                              f"{where}: file {file_part} not found")
        if path.suffix in (".toml", ".txt") and not name:
            try:
                found.append(read_data_file(path, display_path(path)))
            except (OSError, ValueError) as exc:
                raise ConfigError(f"{where}: {exc}") from None
            continue
        if not name:
            raise ConfigError(f"{where}: expected `path.py:NAME` or a .toml/.txt file")
        task = tasks_by_abs.get(str(path))
        facts = outcomes.get(task.display) if task else None
        if not isinstance(facts, FileFacts):
            why = f" ({facts.kind} at {facts.line}:{facts.column}: {facts.message})" if isinstance(facts, FileError) else ""
            raise ConfigError(f"{where}: {file_part} could not be read or parsed{why}")
        registry = next((r for r in facts.registries if r.name == name), None)
        if registry is None:
            raise ConfigError(f"{where}: {file_part} has no module-level list, tuple, set, frozenset, "
                              f"dict, Enum, class of constants or Literal[...] of strings named {name}")
        found.append(Registry(registry.name, registry.module, registry.path, registry.pos, registry.kind,
                              registry.entries, registry.complete, configured=True))
    return found


def patterns(settings: Settings) -> Patterns:
    return Patterns(
        code=re.compile(settings.code_pattern),
        blame=SegmentPattern(settings.blame_pattern),
        internal=SegmentPattern(settings.internal_pattern),
    )


# -- the run ----------------------------------------------------------------------------------

def run(paths: list[Path], settings: Settings, options: Optional[Options] = None) -> Result:
    options = options or Options()
    finder = FileFinder(settings)
    whole = all(path.is_dir() for path in paths)  # files named one by one are part of a project
    result = _check(finder.find(paths, options.force_exclude), settings, options, {}, whole)
    if finder.unlistable:
        result.errors.extend(FileError(display_path(directory), "unreadable", f"cannot list directory: {why}")
                             for directory, why in finder.unlistable)
        result.errors.sort()
    return result


def run_source(data: bytes, path: Path, settings: Settings, options: Optional[Options] = None) -> Result:
    """Check `data` as the text of the file at `path`, which need not exist (stdin, an editor's
    unsaved buffer). The project is that one file plus the configured registries."""
    options = options or Options()
    absolute = Path(os.path.abspath(path))
    excluded = options.force_exclude and FileFinder(settings).excluded(absolute, False)
    return _check([] if excluded else [absolute], settings, options, {str(absolute): data}, False)


def _check(checked: list[Path], settings: Settings, options: Options, sources: dict[str, bytes],
           whole: bool) -> Result:
    """Check `checked` (with `sources` standing in for files' bytes); `whole` when the run was
    given directories, so every file of the project is among them."""
    rules = [rule for rule in selected_rules(settings, options) if whole or not rule.whole_project]
    cwd = Path.cwd().resolve()
    tasks = [_task(path, settings, cwd) for path in checked]
    tasks_by_abs = {task.path: task for task in tasks}
    for entry in settings.registry:  # configured registry files are read even when not checked
        path = (settings.root / split_registry_entry(entry)[0]).resolve()
        if path.suffix in (".py", ".pyi") and str(path) not in tasks_by_abs and path.is_file():
            tasks_by_abs[str(path)] = _task(path, settings, cwd)
    all_tasks = list(tasks_by_abs.values())
    on_disk = [task for task in all_tasks if task.path not in sources]
    extracted = dict(zip(on_disk, _extract_all(on_disk, settings, options)))
    outcomes = [extracted[task] if task in extracted else
                extract_data(task, sources[task.path], settings, options.prescreen)
                for task in all_tasks]
    checked_displays = {task.display for task in tasks}
    facts = [o for o in outcomes if isinstance(o, FileFacts)]
    errors = [o for o, t in zip(outcomes, all_tasks) if isinstance(o, FileError) and t.display in checked_displays]
    # modules the checked files import, when not checked themselves (pre-commit passes only the
    # changed files): read for their registries, never judged
    followed = _imported_files(tasks, facts, tasks_by_abs, settings, cwd)
    if followed:
        quiet = dataclasses.replace(options, progress=None)
        facts += [o for o in _extract_all(followed, settings, quiet) if isinstance(o, FileFacts)]
    configured = _configured(settings, {o.path: o for o in outcomes}, tasks_by_abs)
    project = Project.build(facts, configured, patterns(settings))
    result = Result(errors=errors, files=len(tasks) - len(errors), project=project)
    judged = {f.path: f for f in facts if f.path in checked_displays}
    # configured .toml/.txt registries are judged too; they hold no noqa comments
    reported = set(judged) | {r.path for r in configured if r.kind in ("toml", "txt")}
    ignores = [(pathspec.GitIgnoreSpec.from_lines([pattern]), set(codes)) for pattern, codes in settings.per_file_ignores]

    def judge(rule: Rule, path: str, found: Iterable[Finding]) -> None:
        try:
            findings = list(found)
        except Exception as exc:  # a bug in a rule: exit 4, name it, keep checking the rest
            result.errors.append(FileError(path, "internal",
                                           f"rule {rule.code} ({rule.name}) crashed: {type(exc).__name__}: {exc}"))
            return
        for finding in findings:
            if finding.path in reported and not _suppressed(finding, judged.get(finding.path), ignores):
                result.findings.append(finding)

    for file_facts in judged.values():
        for rule in rules:
            if rule.scope == "file":
                judge(rule, file_facts.path, rule.check(file_facts, project))
    for rule in rules:
        if rule.scope == "project":
            judge(rule, "<project>", rule.check(project))
    result.findings.sort()
    result.errors.sort()
    return result


def _imported_files(tasks: list[Task], facts: list[FileFacts], known: dict[str, Task], settings: Settings,
                    cwd: Path) -> list[Task]:
    """Files of the project's own modules that the checked files import and that are not checked.

    A module's file is found from where the checked files sit: `pkg/grade.py` is module
    `pkg.grade`, so `pkg.codes` is `pkg/codes.py` (or `pkg/codes/__init__.py`) beside it. An
    imported name counts through its module (`from pkg.codes import FAILURE_CODES`).
    """
    bases = set()
    for task in tasks:
        depth = task.module.count(".") + (1 if task.is_package else 0)
        path = Path(task.path)
        if task.module and depth < len(path.parents):
            bases.add(path.parents[depth])
    by_display = {task.display: task for task in tasks}
    found: dict[str, Task] = {}
    looked: set[str] = set()  # modules already looked for: most files import the same few
    # a module is the project's only when its top-level package or module sits at a base: the
    # bases holding each top-level name, listed once
    holders: dict[str, list[str]] = {}
    for base in map(str, bases):
        try:
            names = os.listdir(base)
        except OSError:
            continue
        for name in names:
            holders.setdefault(name[:-3] if name.endswith(".py") else name, []).append(base)
    for file_facts in facts:
        if file_facts.path not in by_display:
            continue
        for imported in file_facts.imports:
            for module in (imported, imported.rpartition(".")[0]):
                if not module or module in looked:
                    continue
                looked.add(module)
                relative = os.path.join(*module.split("."))
                for base in holders.get(module.partition(".")[0], ()):
                    for key in (os.path.join(base, relative + ".py"), os.path.join(base, relative, "__init__.py")):
                        if key not in known and key not in found and os.path.isfile(key):
                            found[key] = _task(Path(key), settings, cwd)
    return list(found.values())


def _suppressed(finding: Finding, facts: Optional[FileFacts], ignores) -> bool:
    if facts is not None:
        if facts.file_noqa:
            return True
        codes = dict(facts.noqa).get(finding.pos.line)
        if codes is not None and (not codes or finding.rule in codes):
            return True
    for spec, ignored in ignores:
        if spec.match_file(finding.path) and any(finding.rule.startswith(code) for code in ignored):
            return True
    return False
