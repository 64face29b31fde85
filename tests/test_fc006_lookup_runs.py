"""FC006 for a lookup's own handler around a try that also runs what it looked up, through the real CLI
on temp projects (issue 23, principle 6: a callback is code the try runs). `except KeyError: raise
NotFound(...)` around `registry[name](config)` reports a KeyError raised inside the plugin's constructor
as the plugin not being there. Expected (path, rule, line) come from the contract: FC006 is reported at
the `except` keyword."""

from __future__ import annotations

import json


def _line_of(source: str, text: str, nth: int = 1) -> int:
    """The line of the nth line holding `text`, numbered as written to disk (leading newline dropped)."""
    lines = [number for number, line in enumerate(source.lstrip("\n").splitlines(), 1) if text in line]
    return lines[nth - 1]


# What the checked modules share: a registry of plugins, and the error that says one is missing.
HEADER = '''
import importlib
import logging

log = logging.getLogger(__name__)
REGISTRY = {}


class PluginNotFound(Exception):
    pass
'''

RUNS = HEADER + '''

def make_committer(config):
    name = config.settings["name"]
    try:
        return REGISTRY[name](config)
    except KeyError:
        raise PluginNotFound(f"The committer has not been found. Try running 'pip install {name}'")


def make_store(module, class_name, **kwargs):
    try:
        store_class = getattr(module, class_name)
        return store_class(**kwargs)
    except AttributeError:
        raise ValueError(f"Class '{class_name}' not found")


async def call_skill(name, args):
    try:
        skills = importlib.import_module("skills")
        skill = getattr(skills, name)
        return await skill(**args)
    except (ModuleNotFoundError, AttributeError):
        log.error("skill %s not found", name)
        return None
'''


def test_a_lookup_handler_around_running_what_it_looked_up(project):
    project.write({"m.py": RUNS})
    result = project.run("check", "--format", "json", "m.py")
    assert result.returncode == 1, result.stderr
    rows = json.loads(result.stdout)["findings"]
    expected = [_line_of(RUNS, "except KeyError:"), _line_of(RUNS, "except AttributeError:"),
                _line_of(RUNS, "except (ModuleNotFoundError")]
    assert sorted((row["rule"], row["line"]) for row in rows) == [("FC006", line) for line in sorted(expected)]
    # whether the plugin, the store class or the skill can raise that kind of error is not shown: inferred
    assert {row["confidence"] for row in rows} == {"medium"}
    committer = next(row for row in rows if row["line"] == _line_of(RUNS, "except KeyError:"))
    assert "REGISTRY[name](…)" in committer["message"] and "a KeyError inside that code" in committer["message"]


SEQUENCES_AND_MODULES = '''
import importlib

HANDLERS = []


def nth_handler(i, event):
    try:
        return HANDLERS[i](event)
    except IndexError:
        raise LookupError(f"handler {i} not found")


def load_backend(path):
    try:
        backend = importlib.import_module(path)
        return backend()
    except ImportError:
        raise RuntimeError(f"backend {path} is not installed")
'''


def test_a_sequence_s_and_an_import_s_handler_around_what_they_found(project):
    """A list's IndexError and `import_module`'s ImportError are lookups' own failures too; the
    message names the error as the handler catches it (any ImportError, not only a missing module)."""
    project.write({"m.py": SEQUENCES_AND_MODULES})
    result = project.run("check", "--format", "json", "m.py")
    assert result.returncode == 1, result.stderr
    rows = json.loads(result.stdout)["findings"]
    assert sorted((row["rule"], row["line"]) for row in rows) == [
        ("FC006", _line_of(SEQUENCES_AND_MODULES, "except IndexError:")),
        ("FC006", _line_of(SEQUENCES_AND_MODULES, "except ImportError:"))]
    assert "an ImportError inside that code" in rows[1]["message"]


QUIET = HEADER + '''

def runs_it_in_else(config):
    try:
        factory = REGISTRY[config.name]
    except KeyError:
        raise PluginNotFound(f"{config.name} not found")
    else:
        return factory(config)


def runs_it_after(module, class_name):
    try:
        store_class = getattr(module, class_name)
    except AttributeError:
        raise ValueError(f"Class '{class_name}' not found")
    return store_class()


def carries_what_it_caught(config):
    try:
        return REGISTRY[config.name](config)
    except KeyError as exc:
        raise ValueError(f"{config.name} not found: {exc}") from exc


def names_no_cause(config):
    try:
        return REGISTRY[config.name](config)
    except KeyError:
        log.warning("could not build %s", config.name)
        return None


def looks_up_with_a_default(module, name):
    try:
        handler = getattr(module, name, None)
        return handler()
    except AttributeError:
        raise ValueError(f"handler {name} not found")


def catches_another_family(config):
    try:
        return REGISTRY[config.name](config)
    except ValueError:
        raise PluginNotFound(f"{config.name} not found")


def runs_what_it_did_not_look_up(config, build):
    try:
        spec = REGISTRY[config.name]
        return build(spec)
    except KeyError:
        raise PluginNotFound(f"{config.name} not found")
'''


def test_a_lookup_handler_that_is_true_stays_quiet(project):
    """Running what was found after the handler (`else:`, after the try), a message that carries
    the caught error (under a class that names no cause: `PluginNotFound` would say it whatever its
    message carries, as for a broad handler), words that name no cause, a `getattr` with a default (it raises no
    AttributeError for a missing name), a handler of another family, and a try that runs other code
    (`build(spec)`, not what it looked up) stay quiet."""
    project.write({"m.py": QUIET})
    assert project.findings("m.py") == []


CONTROL = '''
REGISTRY = {}


class PluginNotFound(Exception):
    pass


def make_committer(config):
    try:
        factory = REGISTRY[config.name]
    except KeyError:
        raise PluginNotFound(f"{config.name} not found") from None
    return factory(config)
'''


def test_a_lookup_alone_under_its_own_handler_control(project):
    """Control, quiet before and after the change: the try holds the lookup alone, so its KeyError
    is the name not being registered, as the handler says."""
    project.write({"m.py": CONTROL})
    assert project.findings("m.py") == []
