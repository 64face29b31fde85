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
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Optional, Union

from failcode import cache as cache_module
from failcode.config import ConfigError, Settings, shown, split_registry_entry
from failcode.facts.datafiles import read_data_file
from failcode.files import FileFinder, display_path, module_name, read_source
from failcode.model import FileError, FileFacts, Finding, Registry, Result
from failcode.project import Project
from failcode.resolve import Compiled, Overrides, Resolver
from failcode.rules import Rule

RECURSION_LIMIT = 20_000
POOL_MIN_FILES = 8  # fewer files to extract than this: a pool costs more than it saves
# Without --jobs, work in this process this long before starting a pool for the rest: about what a
# two-worker pool costs to start on a 2-core machine (benchmarks/README.md has the measurements)
IN_PROCESS_SECONDS = 0.3


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
    importers: bool = False  # also check the project's modules that import a named registry module
    exclude: Optional[tuple[str, ...]] = None  # replaces every configuration's `exclude`
    extend_exclude: tuple[str, ...] = ()  # added to every configuration's excludes
    # called with (files done, files in all) as files finish extraction, the run's slow part
    progress: Optional[Callable[[int, int], None]] = None


@dataclass(frozen=True)
class Task:
    path: str  # absolute
    display: str
    module: str
    is_package: bool


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


def _extract_all(tasks: list[Task], settings: Settings, options: Options,
                 progress: tuple[int, int] = (0, 0)) -> list[Union[FileFacts, FileError]]:
    """Facts of `tasks`, from the cache or extracted (in a pool when it pays); `progress` is the
    number of the run's files done before these, and of all its files, for the progress line."""
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
    done = itertools.count(progress[0] + len(tasks) - len(missing))  # the cache answered the others
    total = max(progress[1], progress[0] + len(tasks))

    def finished() -> None:
        """Report one more file done (the first call reports those the cache answered)."""
        if options.progress is not None:
            options.progress(next(done), total)

    finished()
    if missing:
        import failcode.facts  # noqa: F401 - imported before gc.freeze(), so its objects are frozen too
        # What is alive now (modules, the caller's data) is no garbage: collections during extraction
        # skip it (≈10 % of extraction time), and forked workers share its pages untouched.
        gc.freeze()
    fresh_by: dict[int, Union[FileFacts, FileError]] = {}
    pending = sorted(range(len(missing)), key=lambda i: _size(missing[i][1].path))  # smallest first
    if jobs > 1 and options.jobs is None:
        # the default: begin in this process, and start a pool only for the work that outlasts its
        # start-up (forking, and LibCST's import in every worker): a small tree is never slower
        # than one process, a large one gets every CPU after a moment
        deadline = time.perf_counter() + IN_PROCESS_SECONDS
        while pending and (time.perf_counter() < deadline or len(pending) < POOL_MIN_FILES):
            i = pending.pop(0)
            fresh_by[i] = _in_process(missing[i][1], settings, options.prescreen)
            finished()
    if jobs <= 1 or len(pending) < POOL_MIN_FILES:
        for i in pending:
            fresh_by[i] = _in_process(missing[i][1], settings, options.prescreen)
            finished()
    else:
        from failcode.pool import ordered, worker_pool  # here: multiprocessing's import costs a small run 30 ms

        order = pending[::-1]  # largest first: a few large files can hold most of the LibCST work
        with worker_pool(min(jobs, len(order)), _init_worker, (settings, options.prescreen)) as pool:
            computed = ordered(pool, _collected, [missing[i][1] for i in order],
                               chunksize=max(1, len(order) // (jobs * 32)))  # small chunks, for the same reason
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


def _in_process(task: Task, settings: Settings, prescreen: bool) -> Union[FileFacts, FileError]:
    _raise_recursion_limit()  # not _init_worker: this process must keep handling Ctrl-C
    return _collected(task, settings, prescreen)


def _collected(task: Task, settings: Optional[Settings] = None, prescreen: bool = True) -> Union[FileFacts, FileError]:
    """`extract_task` (in this process or a pool worker) with one garbage collection after the file
    instead of those its allocations trigger: its syntax trees live until its facts are out, so
    those free little and move the trees up a generation, again and again (a twentieth of a run on
    litellm). The collection after the file frees the cycles it left; what is alive then (the facts
    so far, a worker's imports) is frozen, so no later collection looks at it again. A host that
    turned automatic collection off (an editor calling the API) finds it off still."""
    automatic = gc.isenabled()
    gc.disable()
    try:
        outcome = extract_task(task, settings, prescreen)
    finally:
        if automatic:
            gc.enable()
    gc.collect()
    gc.freeze()
    return outcome


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


def _task(path: Path, compiled: Compiled, cwd: Path) -> Task:
    return Task(str(path), display_path(path, cwd), module_name(path, compiled.root),
                path.name in ("__init__.py", "__init__.pyi"))


# -- configured registries --------------------------------------------------------------------

def _configured(compiled: Compiled, outcomes: dict[str, Union[FileFacts, FileError]],
                tasks_by_abs: dict[str, Task]) -> list[Registry]:
    found = []
    config = compiled.settings.config_file
    for entry in compiled.settings.registry:
        file_part, name = split_registry_entry(entry)
        path = (compiled.root / file_part).resolve()
        where = f"{shown(config) + ': ' if config else ''}tool.failcode.registry entry `{entry}`"
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


# -- the run ----------------------------------------------------------------------------------

Config = Union[Settings, Resolver, None]


def overrides(options: Options) -> Overrides:
    """What the options say over every configuration: rule selection and excludes."""
    return Overrides(options.select, options.ignore, options.extend_select, options.exclude, options.extend_exclude)


def _resolver(config: Config, options: Options) -> Resolver:
    """`config` as a Resolver: Settings govern every file; None finds each file's closest configuration."""
    return config if isinstance(config, Resolver) else Resolver(config, overrides(options))


def run(paths: list[Path], config: Config = None, options: Optional[Options] = None) -> Result:
    options = options or Options()
    resolver = _resolver(config, options)
    finder = FileFinder(resolver)
    whole = all(path.is_dir() for path in paths)  # files named one by one are part of a project
    found = finder.find(paths, options.force_exclude)
    if options.importers and not whole:
        found = sorted({*found, *_importers(found, resolver, finder, options)})
    result = _check_all(found, resolver, options, {}, whole)
    result.errors.extend(FileError(display_path(directory), "unreadable", f"cannot list directory: {why}")
                         for directory, why in finder.unlistable)
    result.errors.extend(FileError(display_path(path), "unreadable", "No such file or directory")
                         for path in finder.missing)
    result.errors.sort()
    return result


def run_source(data: bytes, path: Path, config: Config = None, options: Optional[Options] = None) -> Result:
    """Check `data` as the text of the file at `path`, which need not exist (stdin, an editor's
    unsaved buffer). The project is that one file plus the configured registries."""
    options = options or Options()
    resolver = _resolver(config, options)
    absolute = Path(os.path.abspath(path))
    excluded = options.force_exclude and resolver.for_path(absolute).excluded(absolute, False)
    return _check_all([] if excluded else [absolute], resolver, options, {str(absolute): data}, False)


def _check_all(checked: list[Path], resolver: Resolver, options: Options, sources: dict[str, bytes],
               whole: bool) -> Result:
    """Check `checked`, each file with its configuration: the files of one configuration form one
    project (its registries judge only them), checked as `_check` does."""
    groups: dict[int, tuple[Compiled, list[Path]]] = {}
    for path in checked:
        compiled = resolver.for_path(path)
        groups.setdefault(id(compiled), (compiled, []))[1].append(path)
    if not groups:  # nothing to check: the configuration still has to be valid
        groups[0] = (resolver.for_directory(Path.cwd().resolve()), [])
    result = Result()
    total = len(checked)
    done = 0
    for compiled, paths in sorted(groups.values(), key=lambda group: str(group[0].root)):
        part = _check(paths, compiled, options, sources, whole, (done, total))
        done += len(paths)
        result.findings += part.findings
        result.errors += part.errors
        result.files += part.files
        result.projects += part.projects
    result.findings.sort()
    result.errors.sort()
    return result


def _check(checked: list[Path], compiled: Compiled, options: Options, sources: dict[str, bytes],
           whole: bool, progress: tuple[int, int] = (0, 0)) -> Result:
    """Check `checked` (with `sources` standing in for files' bytes), all of one configuration;
    `whole` when the run was given directories, so every file of the project is among them.
    `progress` is how many files of the run came before these, and how many there are in all."""
    settings = compiled.settings
    rules = [rule for rule in compiled.rules if whole or not rule.whole_project]
    cwd = Path.cwd().resolve()
    tasks = [_task(path, compiled, cwd) for path in checked]
    tasks_by_abs = {task.path: task for task in tasks}
    for entry in settings.registry:  # configured registry files are read even when not checked
        path = (compiled.root / split_registry_entry(entry)[0]).resolve()
        if path.suffix in (".py", ".pyi") and str(path) not in tasks_by_abs and path.is_file():
            tasks_by_abs[str(path)] = _task(path, compiled, cwd)
    all_tasks = list(tasks_by_abs.values())
    on_disk = [task for task in all_tasks if task.path not in sources]
    extracted = dict(zip(on_disk, _extract_all(on_disk, settings, options, progress)))
    outcomes = [extracted[task] if task in extracted else
                extract_data(task, sources[task.path], settings, options.prescreen)
                for task in all_tasks]
    checked_displays = {task.display for task in tasks}
    facts = [o for o in outcomes if isinstance(o, FileFacts)]
    errors = [o for o, t in zip(outcomes, all_tasks) if isinstance(o, FileError) and t.display in checked_displays]
    # modules the checked files import, when not checked themselves (pre-commit passes only the
    # changed files): read for their registries, never judged
    followed = _imported_files(tasks, facts, tasks_by_abs, compiled, cwd)
    if followed:
        quiet = dataclasses.replace(options, progress=None)
        facts += [o for o in _extract_all(followed, settings, quiet) if isinstance(o, FileFacts)]
    configured = _configured(compiled, {o.path: o for o in outcomes}, tasks_by_abs)
    project = Project.build(facts, configured, compiled.patterns)
    result = Result(errors=errors, files=len(tasks) - len(errors), projects=[project])
    judged = {f.path: f for f in facts if f.path in checked_displays}
    # configured .toml/.txt registries are judged too; they hold no noqa comments
    reported = set(judged) | {r.path for r in configured if r.kind in ("toml", "txt")}
    absolute = {task.display: Path(task.path) for task in all_tasks}

    def judge(rule: Rule, path: str, found: Iterable[Finding]) -> None:
        try:
            findings = list(found)
        except Exception as exc:  # a bug in a rule: exit 4, name it, keep checking the rest
            result.errors.append(FileError(path, "internal",
                                           f"rule {rule.code} ({rule.name}) crashed: {type(exc).__name__}: {exc}"))
            return
        for finding in findings:
            if finding.path in reported and not _noqa(finding, judged.get(finding.path)) \
                    and not compiled.ignores(finding, absolute.get(finding.path, Path(finding.path))):
                result.findings.append(finding)

    for file_facts in judged.values():
        for rule in rules:
            if rule.scope == "file":
                judge(rule, file_facts.path, rule.check(file_facts, project))
    for rule in rules:
        if rule.scope == "project":
            judge(rule, "<project>", rule.check(project))
    return result


def _importers(named: list[Path], resolver: Resolver, finder: FileFinder, options: Options) -> list[Path]:
    """The project's files that import a registry module among `named` (a pre-commit run of a
    commit that changes only the registry: the modules recording its codes did not change, yet
    they may now record codes it lacks). The project is the folder of each file's configuration;
    a file is read only when its bytes name the module."""
    cwd = Path.cwd().resolve()
    quiet = dataclasses.replace(options, progress=None)
    registry_modules: dict[Path, set[str]] = {}  # project root → registry modules named
    for path in named:
        compiled = resolver.for_path(path)
        facts = _extract_all([_task(path, compiled, cwd)], compiled.settings, quiet)[0]
        if isinstance(facts, FileFacts) and facts.registries and facts.module:
            registry_modules.setdefault(compiled.root, set()).add(facts.module)
    found: list[Path] = []
    given = set(named)
    for root, modules in registry_modules.items():
        words = {module.rpartition(".")[2].encode() for module in modules}
        candidates = []
        for path in finder.find([root], options.force_exclude):
            if path in given:
                continue
            try:
                data = read_source(str(path))
            except OSError:
                continue
            if any(word in data for word in words):
                candidates.append(path)
        compiled_of = {path: resolver.for_path(path) for path in candidates}
        for path in candidates:
            facts = _extract_all([_task(path, compiled_of[path], cwd)], compiled_of[path].settings, quiet)[0]
            if isinstance(facts, FileFacts) and any(
                    imported == module or imported.startswith(module + ".") for imported in facts.imports
                    for module in modules):
                found.append(path)
    return found


def _imported_files(tasks: list[Task], facts: list[FileFacts], known: dict[str, Task], compiled: Compiled,
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
        if not (path.parent / "__init__.py").is_file():
            bases.add(path.parent)  # a plain script imports its siblings by their bare names
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
                            found[key] = _task(Path(key), compiled, cwd)
    return list(found.values())


def _noqa(finding: Finding, facts: Optional[FileFacts]) -> bool:
    """Silenced in the file: by `# failcode: noqa` (bare, or listing the rule) or by a `# noqa`
    on the reported line (bare, or listing the rule)."""
    if facts is None:
        return False
    if facts.file_noqa is not None and (not facts.file_noqa or finding.rule in facts.file_noqa):
        return True
    codes = dict(facts.noqa).get(finding.pos.line)
    return codes is not None and (not codes or finding.rule in codes)
