"""Outcome model v3, through the real CLI on temp projects: FC006 by cause as well as by party, the
contract's own FC006 idioms and their quiet twins, a default standing in every arm of an if/elif
chain, a command judged by its output, and each finding's confidence. Expected (path, rule, line)
come from the contract: FC006 is reported at the `except` keyword, FC003 at the recording site in the
handler (a command judged by its output, where the contract is silent: at the `if` that judges it)."""

from __future__ import annotations

import json

import pytest

from conftest import REPO, failcode, findings_of


def _line_of(source: str, text: str, nth: int = 1) -> int:
    """The line of the nth line holding `text`, numbered as written to disk (leading newline dropped)."""
    lines = [number for number, line in enumerate(source.lstrip("\n").splitlines(), 1) if text in line]
    return lines[nth - 1]


def _check(project, source: str, *args: str):
    project.write({"m.py": source})
    result = project.run("check", "--format", "json", "m.py", *args)
    assert result.returncode in (0, 1), result.stderr
    return sorted(findings_of(result)), json.loads(result.stdout)["findings"]


# -- the contract's FC006 idioms (regressions of the outcome model v2) ----------------------------

FETCH = '''
import requests


def fetch(url, failures):
    try:
        resp = requests.get(url, timeout=5)
        data = resp.json()
    except Exception:
        failures.append("UPSTREAM_TIMEOUT")
        return None
    return data
'''


def test_a_timeout_recorded_for_a_fetch_and_its_json_decode(project):
    found, _ = _check(project, FETCH)
    assert found == [("m.py", "FC006", _line_of(FETCH, "except Exception:"))]


RELAY = '''
def relay(exc):
    try:
        raise exc
    except BaseException:
        return Outcome(status="PROVIDER_FAILED")
'''


def test_a_reraised_object_blamed_on_the_provider(project):
    found, _ = _check(project, RELAY)
    assert found == [("m.py", "FC006", _line_of(RELAY, "except BaseException:"))]


def test_quiet_twins_of_the_contract_idioms(project):
    """A narrow `except requests.Timeout` says what it caught; a try that only calls the provider and
    reads its reply may blame the provider."""
    found, _ = _check(project, '''
import requests


def fetch(url, failures):
    try:
        resp = requests.get(url, timeout=5)
        data = resp.json()
    except requests.Timeout:
        failures.append("UPSTREAM_TIMEOUT")
        return None
    return data


def ask(client, prompt, failures):
    try:
        reply = client.complete(prompt)
        text = reply.text
    except Exception:
        failures.append("PROVIDER_FAILED")
        return None
    return text
''')
    assert found == []


# -- FC006 by cause ----------------------------------------------------------------------------

CAUSES = '''
import json
import logging

log = logging.getLogger(__name__)


def load_topics(path):
    try:
        with open(path) as f:
            return json.load(f)["topics"]
    except Exception:
        raise FileNotFoundError("topics data is missing")


def read_config(path):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError:
        log.warning("configuration file %s not found, using the defaults", path)
        return {}


def run_step(step, status):
    try:
        step.prepare()
        step.execute()
    except Exception:
        status["result"] = "timeout"
'''


def test_a_broad_handler_that_names_one_cause(project):
    found, rows = _check(project, CAUSES)
    raised, logged, recorded = (_line_of(CAUSES, "except Exception:", 1), _line_of(CAUSES, "except OSError:"),
                                _line_of(CAUSES, "except Exception:", 2))
    assert found == [("m.py", "FC006", raised), ("m.py", "FC006", logged), ("m.py", "FC006", recorded)]
    confidence = {row["line"]: row["confidence"] for row in rows}
    # a raised error or a recorded value proves it; only a log line says it: inferred
    assert confidence == {raised: "high", logged: "medium", recorded: "high"}


NO_SUCH = '''
import logging

log = logging.getLogger(__name__)


def list_gpus(runner):
    try:
        output = runner.run("nvidia-smi --query-gpu=name --format=csv")
        return [line for line in output.splitlines()[1:] if line]
    except Exception:
        log.warning("No GPUs found on this node")
        return []


def count_gpus(runner):
    try:
        output = runner.run("nvidia-smi --query-gpu=name --format=csv")
        return len(output.splitlines()) - 1
    except Exception as exc:
        log.warning("No GPUs found on this node: %s", exc)
        return 0
'''


def test_no_thing_found_says_it_does_not_exist(project):
    """"No GPUs found", "No session found" say what "GPU not found" says (session 45): a broad
    handler that says it for every failure of its try is reported. Control, quiet before and
    after: the same words beside the caught error's text."""
    found, _ = _check(project, NO_SUCH)
    assert found == [("m.py", "FC006", _line_of(NO_SUCH, "except Exception:", 1))]


def test_the_message_names_what_else_the_family_it_caught_holds(project):
    """What else can fail is said for the family the handler catches: a catch-all hears our own
    bugs, the OS's error does not (a permission error or a full disk is what it hides), and a
    command's non-zero exit is the command failing for reasons of its own."""
    source = CAUSES + COMMAND
    _, rows = _check(project, source)
    told = {row["line"]: row["message"] for row in rows}
    catch_all, os_error = _line_of(source, "except Exception:", 1), _line_of(source, "except OSError:")
    command = _line_of(source, "except (")
    assert "(our own bug, a permission or parse error)" in told[catch_all]
    assert "(a permission error, a full disk, a broken connection)" in told[os_error]
    assert "our own bug" not in told[os_error]
    assert "whatever else fails there (the command failing for any reason of its own)" in told[command]


def test_the_message_names_what_else_runtime_and_client_root_errors_hold(project):
    """`RuntimeError` is raised by our own code as much as by a library; a client library's root
    error (`requests.RequestException`) by any refused request or server error, not only a timeout."""
    source = '''
import requests


def run_stage(stage):
    try:
        stage.prepare()
        stage.execute()
    except RuntimeError:
        raise TimeoutError("the stage timed out")


def fetch(url):
    try:
        reply = requests.get(url, timeout=5)
        return reply.json()
    except requests.RequestException:
        raise FileNotFoundError(f"no such document: {url}")
'''
    _, rows = _check(project, source)
    told = {row["line"]: row["message"] for row in rows}
    runtime, client = _line_of(source, "except RuntimeError:"), _line_of(source, "except requests.RequestException:")
    assert sorted(told) == [runtime, client]
    assert "whatever else fails there (any RuntimeError, our own code's among them)" in told[runtime]
    assert "whatever else fails there (a refused request, a server error, a reply that does not decode)" in told[client]


COMMAND = '''
import subprocess


def pull_model(model):
    try:
        subprocess.run(["ollama", "list"], check=True, capture_output=True)
        subprocess.run(["ollama", "pull", model], check=True)
    except (subprocess.CalledProcessError, FileNotFoundError):
        print("Ollama is not installed or not recognized as a command.")
        return False
    return True
'''


def test_a_failed_command_reported_as_not_installed(project):
    """A non-zero exit of `ollama pull` (a network error, a daemon that is not running) is not a
    missing installation: CalledProcessError is the command failing for any reason."""
    found, _ = _check(project, COMMAND)
    assert found == [("m.py", "FC006", _line_of(COMMAND, "except ("))]


def test_a_missing_executable_reported_as_not_installed_stays_quiet(project):
    """Control, quiet before and after: FileNotFoundError from running a command is the executable
    missing, which is what "not installed" says."""
    found, _ = _check(project, COMMAND.replace("(subprocess.CalledProcessError, FileNotFoundError)",
                                               "FileNotFoundError"))
    assert found == []


IMPORTS = '''
class DependencyNotInstalledException(Exception):
    pass


def load_arrow():
    try:
        import pyarrow as pa
    except:
        raise DependencyNotInstalledException("pyarrow")
    return pa


def gssapi_names():
    try:
        from gssapi import Credentials, Name
    except (ImportError, OSError):
        raise RuntimeError("GSSAPI lib not found!")
    return Name, Credentials


def read_index(path):
    try:
        import faiss
        return faiss.read_index(path)
    except:
        raise DependencyNotInstalledException("faiss-cpu")
'''


def test_a_try_of_nothing_but_imports_says_the_module_is_missing(project):
    """A broad handler around nothing but imports (llmware's `import pyarrow`, kafka-python's
    `import gssapi`, from session 36's sweeps, judged false blind) says truly that the module is
    missing: to its user, a module that does not load is. Control, reported before and after: the
    same handler around the import and a read of an index file blames a missing faiss for a
    missing or corrupt file."""
    found, _ = _check(project, IMPORTS)
    assert found == [("m.py", "FC006", _line_of(IMPORTS, "except:", 2))]


QUIET_CAUSES = '''
import json
import logging

log = logging.getLogger(__name__)


def narrow(path):
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        raise ConfigError("configuration file not found")


def says_a_cause_and_carries_what_it_caught(path):
    try:
        with open(path) as f:
            return json.load(f)
    except Exception as exc:
        raise RuntimeError(f"configuration file not found or unreadable: {exc}") from exc


def logs_what_it_caught(path):
    try:
        with open(path) as f:
            return json.load(f)
    except Exception as exc:
        log.error("configuration %s not found: %s", path, exc)
        return None


def decides_first(client, name):
    try:
        return client.get_dataset(name)
    except Exception as exc:
        if "404" in str(exc):
            print(f"dataset {name} not found")
            return None
        raise


def says_what_failed(path):
    try:
        with open(path) as f:
            return json.load(f)
    except Exception:
        log.error("could not load the configuration")
        return None


def connection(client):
    try:
        client.connect()
        client.handshake()
    except Exception:
        log.warning("connection failed, retrying")


def passes_it_on(path):
    try:
        with open(path) as f:
            return json.load(f)
    except Exception:
        log.warning("file not found")
        raise


def tool_calls(client, prompt):
    try:
        reply = client.complete(prompt)
        return json.loads(reply.text)["tool_calls"]
    except Exception:
        raise ValueError("Could not parse tool calls from the response")
'''


def test_a_cause_that_is_true_or_handed_on_stays_quiet(project):
    """The handler of the cause's own exception; a raise or a message that carries the caught error's
    text beside the words of a cause, from a class that names none; a cause said only after a test
    of what was caught; no specific cause; a failed connection (right for a try that reaches a
    service, on the tune split); a re-raise; a parse failure (measured in session 45 and withheld,
    POLICIES.md: where a broad handler says it could not parse, the parse is what failed)."""
    found, _ = _check(project, QUIET_CAUSES)
    assert found == []


CLASS_CARRIED = '''
import json


def load_topics(path):
    try:
        with open(path) as f:
            return json.load(f)["topics"]
    except Exception as exc:
        raise FileNotFoundError(f"could not load {path}: {exc}") from exc
'''


def test_a_raised_class_names_its_cause_whatever_its_message_carries(project):
    """textarena's data loaders (labelled defects): `raise FileNotFoundError(f"…: {exc}")` around
    a read, a JSON parse and a key lookup tells every caller that catches FileNotFoundError that the
    file is missing, when it was malformed or lacked the key; the carried text helps a reader, not a
    caller. Reported at the `except` (FC006)."""
    found, _ = _check(project, CLASS_CARRIED)
    assert found == [("m.py", "FC006", _line_of(CLASS_CARRIED, "    except Exception as exc:"))]


def test_a_raised_class_that_names_no_cause_stays_quiet_with_the_same_text(project):
    """Control, quiet before and after: the same handler raising RuntimeError, whose class names no
    cause, with the same carried text."""
    source = CLASS_CARRIED.replace("raise FileNotFoundError(", "raise RuntimeError(")
    assert source != CLASS_CARRIED
    found, _ = _check(project, source)
    assert found == []


TRACEBACKS = '''
import json
import logging

log = logging.getLogger(__name__)


def read_config(path):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError:
        log.warning("configuration file %s not found, using the defaults", path, exc_info=True)
        return {}


def read_settings(path):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError:
        log.exception("settings file %s not found", path)
        return {}


def stop(sandbox):
    try:
        sandbox.prepare()
        sandbox.terminate()
    except Exception:
        log.warning("could not stop the sandbox after it timed out", exc_info=True)


def read_profile(path):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError:
        log.warning("profile %s not found", path, exc_info=False)
        return {}
'''


def test_a_log_line_that_prints_the_traceback_hands_the_truth_on(project):
    """`exc_info=True` and `logger.exception(…)` print what was caught beside the words, as a message
    carrying `{exc}` does: the cause the words say is no blanket cause. Control, reported before and
    after: `exc_info=False` prints no traceback, so the words alone say "not found" for a parse error."""
    found, _ = _check(project, TRACEBACKS)
    assert found == [("m.py", "FC006", _line_of(TRACEBACKS, "except OSError:", 3))]


CARRIED = '''
import json
import os
import traceback


def load_worker(uri):
    try:
        return import_entry_point(uri)
    except Exception:
        tb = traceback.format_exc()
        msg = "worker class %r not found: [%s]"
        raise RuntimeError(msg % (uri, tb))


def read_template(path):
    try:
        with open(path) as f:
            return json.load(f)
    except Exception as exc:
        reason = str(exc)
        raise TemplateError(f"template {path} not found ({reason})")


def read_include(path):
    try:
        with open(path) as f:
            return f.read().expandtabs(4)
    except OSError:
        raise IncludeError(f"include file {path} not found or reading it failed")


def load_plugin(uri):
    try:
        return import_entry_point(uri)
    except Exception:
        msg = "plugin class %r not found"
        raise RuntimeError(msg % uri)


def find_binary(name):
    try:
        return run_command([name, "--version"])
    except Exception:
        raise SetupError(f"{name} is not installed or not recognized as a command")


def container_info(path):
    try:
        return os.stat(path)
    except OSError:
        raise OSError(f'Target path "{path}" is not accessible or does not exist')


def ensure_interpreter(container, name):
    try:
        container.call(["manylinux-interpreters", "ensure", name])
    except Exception:
        raise SetupError(f"{name}: either the installation failed or this interpreter is not available.")
'''


def test_a_message_that_hands_on_what_was_caught_or_admits_any_failure_stays_quiet(project):
    """A message built with the traceback (`traceback.format_exc()`) or with a name bound from the
    caught error (`reason = str(exc)`) carries it, and so does the text bound only to be said with
    it (`msg` … `msg % (uri, tb)`); a cause offered beside a failure of any kind ("not found or
    reading it failed", "not accessible or does not exist", and in the same sentence "Either the
    installation failed or … is not available": cibuildwheel's and clearml's, found by session 34's
    sweeps) says it may be anything. Controls, reported before and after: the message
    bound to a name and said without the exception, and two ways of saying one cause ("not installed
    or not recognized as a command")."""
    found, _ = _check(project, CARRIED)
    assert found == [("m.py", "FC006", _line_of(CARRIED, "except Exception:", 2)),
                     ("m.py", "FC006", _line_of(CARRIED, "except Exception:", 3))]


# -- what our own functions raise, summarised across the project (principle 2) ---------------------

FINDERS = '''
import os


def find_file(name, folders):
    for folder in folders:
        candidate = os.path.join(folder, name)
        if os.path.isfile(candidate):
            return candidate
    raise IOError(f"File {name!r} does not exist in any of {folders!r}")


def load_plugin(name):
    if not name.isidentifier():
        raise OSError(f"bad plugin name {name!r}")
    return __import__(name)


def locate(name):
    if not os.path.exists(name):
        raise FileNotFoundError(f"no such file: {name}")
    return os.path.abspath(name)
'''

TOOLS = '''
import shutil


def locate(name):
    return shutil.which(name)
'''

CALLERS = '''
import logging

from pkg.finders import find_file, load_plugin, locate

log = logging.getLogger(__name__)


def config_path(name):
    try:
        return find_file(name, [".", "/etc"])
    except OSError:
        log.warning("config file %s not found", name)
        return None


def read_config(name):
    try:
        with open(find_file(name, ["."])) as handle:
            return handle.read()
    except OSError:
        log.warning("config file %s not found", name)
        return None


def plugin(name):
    try:
        return load_plugin(name)
    except OSError:
        log.warning("plugin %s not found", name)
        return None


def any_failure(name):
    try:
        return find_file(name, ["."])
    except Exception:
        log.warning("config file %s not found", name)
        return None


def tool_path(name):
    try:
        return locate(name)
    except OSError:
        log.warning("tool %s not found", name)
        return None
'''


def test_a_handler_hears_the_cause_our_function_raises(project):
    """`find_file` (another module of the package) raises IOError to say the file does not exist, so
    `except OSError: "not found"` around nothing but it says what it was told: quiet. Reported, before
    and after: `open()` beside it fails with a permission error too (read_config), `load_plugin`
    raises OSError for a bad name, no "not found" (plugin), a catch-all hears our own bugs too
    (any_failure), and a name the project defines twice, once without the raise, is not known to
    say it (tool_path: `locate` of tools.py raises nothing)."""
    project.write({"pkg/__init__.py": "", "pkg/finders.py": FINDERS, "pkg/tools.py": TOOLS, "pkg/callers.py": CALLERS})
    found = sorted(project.findings("pkg"))
    assert found == [("pkg/callers.py", "FC006", _line_of(CALLERS, "except OSError:", 2)),
                     ("pkg/callers.py", "FC006", _line_of(CALLERS, "except OSError:", 3)),
                     ("pkg/callers.py", "FC006", _line_of(CALLERS, "except Exception:")),
                     ("pkg/callers.py", "FC006", _line_of(CALLERS, "except OSError:", 4))]


CLASS_FINDERS = '''
import logging
import os

log = logging.getLogger(__name__)


class LocalPlugins:
    def locate(self, name):
        if not os.path.exists(name):
            raise FileNotFoundError(f"no such file: {name}")
        return os.path.abspath(name)

    def path_of(self, name):
        try:
            return self.locate(name)
        except OSError:
            log.warning("plugin %s not found", name)
            return None


class LoosePlugins:
    def locate(self, name):
        return os.path.abspath(name)

    def path_of(self, name):
        try:
            found = self.locate(name)
        except OSError:
            raise LookupError(f"plugin {name} not found") from None
        return found
'''


def test_a_handler_hears_the_cause_its_own_class_s_method_raises(project):
    """`self.locate(name)` in `LocalPlugins.path_of` reaches `LocalPlugins.locate`, which raises
    FileNotFoundError to say the file is not there, so `except OSError: "not found"` around nothing
    but it says what it was told: quiet, though the project defines `locate` twice (`tools.py`
    raises nothing). `LoosePlugins.path_of` calls its own `locate`, which raises no such thing:
    reported, before and after."""
    project.write({"pkg/__init__.py": "", "pkg/tools.py": TOOLS, "pkg/plugins.py": CLASS_FINDERS})
    assert project.findings("pkg") == [("pkg/plugins.py", "FC006", _line_of(CLASS_FINDERS, "except OSError:", 2))]


def test_a_handler_told_nothing_by_its_own_class_s_method_control(project):
    """Control, before and after: `LoosePlugins.path_of` alone, whose own `locate` raises nothing
    that says "not found", is reported though `tools.py`'s `locate` raises nothing either."""
    loose = "import logging\nimport os\n\nlog = logging.getLogger(__name__)\n\n\n" + CLASS_FINDERS.split("\n\n\n")[-1]
    project.write({"pkg/__init__.py": "", "pkg/tools.py": TOOLS, "pkg/plugins.py": loose})
    assert project.findings("pkg") == [("pkg/plugins.py", "FC006", _line_of(loose, "except OSError:"))]


CONTEXTS = '''
import time


class StepContext:
    current = None

    @classmethod
    def get(cls):
        return cls.current


class Registry:
    def __init__(self, store):
        self.store = store

    def resolve(self, agent_id):
        record = self.store.find(agent_id)
        if record is None:
            raise RuntimeError(agent_id)
        return record

    def checked(self, agent_id, limit):
        record = self.store.find(agent_id)
        if record.size > limit:
            raise RuntimeError(agent_id)
        return record

    def agent(self, agent_id):
        try:
            return self.resolve(agent_id)
        except RuntimeError:
            raise LookupError(f"Agent {agent_id} not found.") from None

    def small_agent(self, agent_id):
        try:
            return self.checked(agent_id, 10)
        except RuntimeError:
            raise LookupError(f"Agent {agent_id} not found.") from None


def step_context():
    if ctx := StepContext.get():
        return ctx
    raise RuntimeError("The step context is only available inside a step function.")


def given_context(ctx):
    if ctx is None:
        raise RuntimeError("The step context is only available inside a step function.")
    return ctx


def wait_for(predicate, timeout):
    start = time.monotonic()
    while time.monotonic() - start <= timeout:
        if predicate():
            return
        time.sleep(0.1)
    message = "The condition was not met before the timeout expired."
    raise RuntimeError(message)


def wait_for_budget(predicate, budget):
    while not predicate():
        budget -= 1
    message = "The predicate raised a RuntimeError of its own."
    raise RuntimeError(message)
'''

CONTEXT_CALLERS = '''
from pkg.contexts import given_context, step_context, wait_for, wait_for_budget


def pipeline_context():
    try:
        step_context()
    except RuntimeError:
        raise RuntimeError("No active pipeline found.")
    raise RuntimeError("inside a step")


def ready(predicate):
    try:
        wait_for(predicate, timeout=5)
    except RuntimeError:
        raise TimeoutError("not ready before the timeout") from None


def pipeline_of(ctx):
    try:
        given_context(ctx)
    except RuntimeError:
        raise RuntimeError("No active pipeline found.")
    raise RuntimeError("inside a step")


def spent(predicate):
    try:
        wait_for_budget(predicate, 5)
    except RuntimeError:
        raise TimeoutError("not ready before the timeout") from None
'''


def test_a_handler_hears_the_cause_said_by_where_our_function_raises(project):
    """Our function's raise says its cause by where it sits as well as by its words: reached only
    when a lookup found nothing (`if record is None: raise RuntimeError(agent_id)`, or after `if ctx
    := StepContext.get(): return ctx`), it says "not found", and a message bound to a name before
    the raise (`message = "… before the timeout expired."`) says "timeout". So `except RuntimeError:
    "not found"` (pipeline_context, Registry.agent) and `except RuntimeError: TimeoutError` (ready)
    around nothing but those calls say what they were told: quiet. Reported, before and after: a
    raise under a test of a size, no lookup (Registry.small_agent), one under a test of a
    parameter, which no lookup filled (pipeline_of), and a bound message that names no timeout
    (spent)."""
    project.write({"pkg/__init__.py": "", "pkg/contexts.py": CONTEXTS, "pkg/callers.py": CONTEXT_CALLERS})
    assert sorted(project.findings("pkg")) == [
        ("pkg/callers.py", "FC006", _line_of(CONTEXT_CALLERS, "except RuntimeError:", 3)),
        ("pkg/callers.py", "FC006", _line_of(CONTEXT_CALLERS, "except RuntimeError:", 4)),
        ("pkg/contexts.py", "FC006", _line_of(CONTEXTS, "except RuntimeError:", 2))]


RUNNERS = '''
import subprocess


def exec_cmd(cmd):
    child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = child.communicate()
    return child.returncode, out, err


def run_quietly(cmd):
    try:
        return subprocess.run(cmd, capture_output=True)
    except OSError:
        return None


def run_in_shell(cmd):
    return subprocess.run(cmd, shell=True)
'''

STARTERS = '''
import json
import logging
import subprocess

from pkg import runners
from pkg.runners import exec_cmd, run_in_shell, run_quietly

log = logging.getLogger(__name__)


def check_conda(conda):
    try:
        exec_cmd([conda, "--help"])
    except EnvironmentError:
        raise ValueError(f"Could not find Conda executable at {conda}.")


def check_conda_through_module(conda):
    try:
        runners.exec_cmd([conda, "--help"])
    except OSError:
        raise ValueError(f"Could not find Conda executable at {conda}.")


def git_version():
    try:
        return subprocess.check_output(["git", "--version"], text=True)
    except OSError:
        log.warning("git is not installed")
        return None


def git_config():
    try:
        return json.loads(subprocess.check_output(["git", "config", "--list", "-z"]))
    except OSError:
        log.warning("git is not installed")
        return None


def node_version():
    try:
        return subprocess.check_output(["node", "--version"])
    except Exception:
        raise RuntimeError("node.js is not installed")


def quiet_version(tool):
    try:
        return run_quietly([tool, "--version"])
    except OSError:
        raise ValueError(f"{tool} is not installed")


def shell_version(tool):
    try:
        return run_in_shell(f"{tool} --version")
    except OSError:
        raise ValueError(f"{tool} is not installed")
'''


def test_starting_a_program_that_is_not_there_says_not_found(project):
    """Starting a program raises FileNotFoundError (an OSError) when the program is not there, so an
    `OSError` handler around nothing but starting it, directly or through our own function in another
    module (by its name, or through the module), says "not found" or "not installed" truthfully:
    quiet (ray's and mlflow's conda checks, session 34's sweep). Reported, before and after: a JSON
    read of the output beside the start (git_config), a catch-all that hears our own bugs too
    (node_version), our function that catches the OSError of its start itself (quiet_version: what
    reaches the caller is something else), and a start through a shell, where a missing program is an
    exit status (shell_version)."""
    project.write({"pkg/__init__.py": "", "pkg/runners.py": RUNNERS, "pkg/starters.py": STARTERS})
    found = sorted(project.findings("pkg"))
    assert found == [("pkg/starters.py", "FC006", _line_of(STARTERS, "except OSError:", 3)),
                     ("pkg/starters.py", "FC006", _line_of(STARTERS, "except Exception:")),
                     ("pkg/starters.py", "FC006", _line_of(STARTERS, "except OSError:", 4)),
                     ("pkg/starters.py", "FC006", _line_of(STARTERS, "except OSError:", 5))]


# -- an error message returned in the place of a model's reply (principles 2 and 5) ------------

CLIENTS = """
from openai import OpenAI


def ask(prompt):
    client = OpenAI()
    completion = client.chat.completions.create(model="m", messages=[prompt])
    return completion.choices[0].message.content


def lookup(query):
    client = OpenAI()
    return client.responses.create(model="m", input=query).output_text
"""

SEARCH = """
def lookup(query):
    return {"query": query}
"""

AGENTS = """
import json
import logging

import requests

from . import tools
from .clients import ask
from .search import lookup

log = logging.getLogger(__name__)


class Agent:
    def __init__(self, client):
        self.client = client

    def act(self, observation):
        try:
            completion = self.client.chat.completions.create(model="m", messages=[observation])
            return completion.choices[0].message.content.strip()
        except Exception as e:
            log.warning("generation failed")
            return f"An error occurred: {e}"

    def clues(self, word):
        try:
            response = self.client.chat.completions.create(model="m", messages=[word])
            text = response.choices[0].message.content.strip()
            lines = text.split("\\n")
            return dict((str(i), line) for i, line in enumerate(lines))
        except Exception as e:
            return [f"Error while generating clues: {e}"]

    def relayed(self, observation):
        try:
            out = ask(observation)
            return out
        except Exception as e:
            return "Request failed: " + str(e)

    def quiet_none(self, observation):
        try:
            completion = self.client.chat.completions.create(model="m", messages=[observation])
            return completion.choices[0].message.content
        except Exception:
            log.exception("generation failed")
            return None

    def quiet_marker(self, url):
        try:
            return requests.get(url).text
        except Exception:
            return "<could not read the response body>"

    def quiet_narrow(self, url):
        try:
            return requests.get(url, timeout=5).text
        except requests.Timeout:
            return "error: the request timed out"

    def quiet_decides(self, observation):
        try:
            completion = self.client.chat.completions.create(model="m", messages=[observation])
            return completion.choices[0].message.content
        except Exception as e:
            if isinstance(e, KeyError):
                return "error: malformed reply"
            raise

    def quiet_not_a_reply(self, path):
        try:
            with open(path) as f:
                return json.load(f)
        except Exception as e:
            return f"Error: {e}"

    def quiet_two_definitions(self, query):
        try:
            return lookup(query)
        except Exception as e:
            return f"error: {e}"

    def quiet_messages(self, url):
        try:
            response = requests.get(url)
            if response.status_code == 200:
                return response.text
            return f"Failed to fetch the page: {response.text}"
        except Exception as e:
            return f"Error: {e}"


class OllamaAgent:
    def _make_request(self, observation):
        resp = self.client.chat(model="m", messages=[observation])
        return resp["message"]["content"]

    def __call__(self, observation):
        try:
            out = self._make_request(observation)
            return out
        except Exception as e:
            return f"ERROR (Ollama): {e}"


class EchoAgent:
    def _make_request(self, observation):
        return observation

    def __call__(self, observation):
        try:
            return self._make_request(observation)
        except Exception as e:
            return f"ERROR (echo): {e}"


class WebSearchTool:
    def forward(self, query):
        try:
            response = requests.get("https://example.com", params={"q": query})
            return response.text
        except Exception as e:
            return f"Error fetching the page: {e}"


class Browser(tools.Toolkit):
    def open_page(self, url):
        try:
            response = requests.get(url)
            return response.text
        except Exception as e:
            return f"Error opening the page: {e}"
"""


def test_an_error_message_in_the_place_of_a_reply(project):
    """A broad handler returns an error message where its try returns what a model replied: read in
    the try (act), derived from the reply through names (clues), or the answer of our own function
    in another module that returns a reply it read (relayed: `clients.ask`), or of this class's
    method that does (`OllamaAgent._make_request`, though `EchoAgent` defines the name too and
    reads no reply: quiet, by its own definition). Quiet: None in its
    place, a marker in brackets, a narrow handler of the timeout, a handler that decides on what it
    caught, a file read (no reply), a name the project defines twice and once without a reply
    (`lookup`, in clients.py and search.py), a tool, whose answer a model reads (named as one, or
    derived from one: `Browser(tools.Toolkit)`), and a function
    whose genuine path already answers a failed request in words (quiet_messages): its answer is a
    message, not an output."""
    project.write({"pkg/__init__.py": "", "pkg/clients.py": CLIENTS, "pkg/search.py": SEARCH,
                   "pkg/agents.py": AGENTS})
    found = sorted(project.findings("pkg"))
    assert found == [("pkg/agents.py", "FC003", _line_of(AGENTS, 'return f"An error occurred: {e}"')),
                     ("pkg/agents.py", "FC003", _line_of(AGENTS, 'return [f"Error while generating clues')),
                     ("pkg/agents.py", "FC003", _line_of(AGENTS, 'return "Request failed: " + str(e)')),
                     ("pkg/agents.py", "FC003", _line_of(AGENTS, 'return f"ERROR (Ollama): {e}"'))]


def test_a_reply_the_caller_cannot_take_for_output_stays_quiet(project):
    """Control, before and after: the same agent returning None, or raising, from its handler."""
    source = AGENTS.replace('return f"An error occurred: {e}"', "return None") \
        .replace('return [f"Error while generating clues: {e}"]', "raise") \
        .replace('return "Request failed: " + str(e)', "return None") \
        .replace('return f"ERROR (Ollama): {e}"', "return None") \
        .replace('return f"Error opening the page: {e}"', "return None")
    project.write({"pkg/__init__.py": "", "pkg/clients.py": CLIENTS, "pkg/search.py": SEARCH,
                   "pkg/agents.py": source})
    assert project.findings("pkg") == []


# -- a default written before an if/elif chain stands in every arm --------------------------------

CHAIN = '''
def grade(reply, gold):
    verdict = "incorrect"
    if reply.kind == "a":
        verdict = "correct" if reply.text == gold else "incorrect"
    elif reply.kind == "b":
        try:
            verdict = "correct" if judge(reply.text) == gold else "incorrect"
        except Exception:
            pass
    return verdict
'''


def test_a_default_stands_in_the_elif_arm(project):
    """The handler writes nothing: the default of line 2, written before the chain, is its fallback."""
    found, rows = _check(project, CHAIN)
    assert found == [("m.py", "FC003", _line_of(CHAIN, "except Exception:"))]
    assert {row["confidence"] for row in rows} == {"medium"}  # a default left standing: inferred


def test_a_chain_whose_arms_write_a_distinct_failure_stays_quiet(project):
    found, _ = _check(project, CHAIN.replace("            pass", '            verdict = "error"'))
    assert found == []


UNMATCHED = '''
def grade_reply(question, answer):
    passed = False
    reply = ask_judge(question, answer)
    if reply == "PASS":
        passed = True
    elif reply == "FAIL":
        passed = False
    return passed


def score_reply(question, answer):
    reply = ask_judge(question, answer)
    if reply == "PASS":
        return 1.0
    elif reply == "FAIL":
        return 0.0
    return 0.0
'''


def test_a_reply_no_arm_of_a_chain_matched(project):
    """Principle 5, a dispatch on a judge's reply with no `else`: a reply neither test matched (the
    judge's refusal, an error text) leaves `passed = False` standing, and reaches the `return 0.0`
    after a chain whose arms all return; both are the "FAIL" verdict. FC003 at the `if` that leaves
    the default standing, and at the return."""
    found, rows = _check(project, UNMATCHED)
    assert found == [("m.py", "FC003", _line_of(UNMATCHED, 'if reply == "PASS":')),
                     ("m.py", "FC003", _line_of(UNMATCHED, "return 0.0", 2))]
    assert all("no branch matched" in row["message"] for row in rows)


def test_a_reply_no_arm_matched_with_a_distinct_value_stays_quiet(project):
    """Control, quiet before and after: what no arm matched gets None, which no arm writes."""
    source = UNMATCHED.replace("    passed = False\n    reply", "    passed = None\n    reply") \
        .replace("        return 0.0\n    return 0.0", "        return 0.0\n    return None")
    assert source.count("None") == 2
    found, _ = _check(project, source)
    assert found == []


def test_a_chain_outside_a_judging_function_stays_quiet(project):
    """Control, quiet before and after: a dispatch on a setting in a function that judges nothing
    (`configure`) picks a mode; its default is no verdict."""
    source = UNMATCHED.replace("def grade_reply(question, answer):", "def configure(question, answer):") \
        .replace("def score_reply(question, answer):", "def pick_weight(question, answer):")
    found, _ = _check(project, source)
    assert found == []


CONTAINS = '''
def grade_reply(question, answer):
    reply = ask_judge(question, answer).upper()
    if "YES" in reply:
        return 1.0
    elif "NO" in reply:
        return 0.0
    return 0.0


def grade_verdict(question, answer):
    reply = ask_judge(question, answer)
    if "CORRECT" in reply:
        verdict = "correct"
    elif "WRONG" in reply:
        verdict = "incorrect"
    else:
        verdict = "incorrect"
    return verdict


def grade_answer(answer, expected):
    if "YES" in answer:
        return 1.0 if expected == "YES" else 0.0
    elif "NO" in answer:
        return 1.0 if expected == "NO" else 0.0
    return 0.0
'''


def test_a_reply_dispatched_on_the_answer_it_contains(project):
    """Principle 5, a dispatch no known answer took, when the answers are found in the reply's text
    (`"YES" in reply`) rather than equal to it: a reply holding neither (a refusal, an error text)
    gets the "no" verdict, after the chain or in its `else`. FC003 at each. Quiet (whose failure,
    principle 1): the candidate's own answer that holds no known one is scored wrong, as it should."""
    found, _ = _check(project, CONTAINS)
    assert found == [("m.py", "FC003", _line_of(CONTAINS, "return 0.0", 2)),
                     ("m.py", "FC003", _line_of(CONTAINS, 'verdict = "incorrect"', 2))]


def test_a_reply_dispatched_on_its_text_with_a_distinct_value_stays_quiet(project):
    """Control, quiet before and after: what no test matched gets None or "unparsed"."""
    source = CONTAINS.replace("        return 0.0\n    return 0.0", "        return 0.0\n    return None") \
        .replace('    else:\n        verdict = "incorrect"', '    else:\n        verdict = "unparsed"')
    assert "return None" in source and '"unparsed"' in source
    found, _ = _check(project, source)
    assert found == []


EMPTY_REPLY = '''
def grade_with_judge(question, answer):
    reply = ask_judge(question, answer)
    if not reply:
        return 0.0
    return 1.0 if reply.strip().lower() == "yes" else 0.0


def grade_parsed(answer, expected):
    parsed = parse_answer(answer)
    if not parsed:
        return 0.0
    return 1.0 if parsed == expected else 0.0


def grade_tokens(answer, expected):
    tokens = set(expected.split())
    if not tokens:
        return 0.0
    return 1.0 if answer in tokens else 0.0
'''


def test_an_empty_reply_is_no_fallback_as_measured(project):
    """A measured quietness policy (POLICIES.md, session 35): reading `if not reply: return 0.0` in
    a judging function as the fallback for no reply (principle 5, an empty, None or falsy reply),
    for any call's result not computed in place nor worked out from a candidate parameter alone,
    reported 14 tune findings, nearly all a candidate's answer extracted inside a loop (where no
    parameter names it) or an empty reference, so it was not built: all three stay quiet."""
    found, _ = _check(project, EMPTY_REPLY)
    assert found == []


AFFIX = '''
def grade_with_judge(question, answer):
    try:
        reply = ask_judge(question, answer)
        return 1.0 if reply.strip().lower().startswith("yes") else 0.0
    except Exception:
        return 0.0


def looks_like_heading(text):
    try:
        return text.strip().startswith("#")
    except Exception:
        return False
'''


def test_a_text_test_by_how_it_begins_decides_no_verdict_as_measured(project):
    """A measured quietness policy (POLICIES.md, session 35): counting `reply.startswith("yes")` in
    a judging function as a yes/no test that decides a verdict (principle 3), as `"yes" in reply`
    is, reported one tune finding, read false (a format check of a judge's score line whose
    `except ValueError` says "not in that format"), and was not built: both stay quiet."""
    found, _ = _check(project, AFFIX)
    assert found == []


# -- confidence: JSON, SARIF and --min-confidence -----------------------------------------------

def test_min_confidence_keeps_only_what_is_proven(project):
    project.write({"m.py": CAUSES})
    raised, logged, recorded = (_line_of(CAUSES, "except Exception:", 1), _line_of(CAUSES, "except OSError:"),
                                _line_of(CAUSES, "except Exception:", 2))
    high = findings_of(project.run("check", "--format", "json", "--min-confidence", "high"))
    assert sorted(high) == [("m.py", "FC006", raised), ("m.py", "FC006", recorded)]
    sarif = json.loads(project.run("check", "--format", "sarif").stdout)
    ranks = {r["locations"][0]["physicalLocation"]["region"]["startLine"]: (r["rank"], r["properties"]["confidence"])
             for r in sarif["runs"][0]["results"]}
    assert ranks == {raised: (90.0, "high"), logged: (60.0, "medium"), recorded: (90.0, "high")}


# The contract's own findings (examples/EXPECTED.md) and how sure each is: `high` where the code
# proves it (a catch-all's own code or value, a registry, a cause a handler records), `medium` where a
# step is inferred (stages told by the calls' names, a missing value, what reaches a filter).
EXAMPLE_CONFIDENCE = {
    ("examples/harness/grader.py", "FC003", 16): "high",  # except Exception: failures.add(…)
    ("examples/harness/judge.py", "FC006", 20): "high",  # a raised error blames the provider
    ("examples/harness/judge.py", "FC003", 28): "medium",  # `… if match else 0`: no match
    ("examples/harness/judge.py", "FC002", 33): "medium",  # parse / verify: stages by name
    ("examples/harness/judge.py", "FC003", 38): "high",  # except Exception: return 0.0
    ("examples/harness/receipts.py", "FC005", 5): "high",
    ("examples/harness/receipts.py", "FC007", 13): "high",
    ("examples/harness/receipts.py", "FC004", 20): "medium",  # what reaches the filter
    ("examples/harness/reducer.py", "FC001", 15): "high",
    ("examples/harness/reducer.py", "FC002", 17): "medium",
    ("examples/harness/reducer.py", "FC003", 22): "high",  # except Exception: failures.add(…)
    ("examples/harness/runner.py", "FC006", 16): "high",
}


def _example_confidence(*args: str) -> dict:
    result = failcode("check", "examples/harness", "--format", "json", *args, cwd=REPO)
    assert result.returncode == 1, result.stderr
    return {(f["path"], f["rule"], f["line"]): f["confidence"] for f in json.loads(result.stdout)["findings"]}


def test_confidence_says_what_the_code_proves_and_what_is_inferred():
    """`high` where the code proves the finding: a catch-all's code or value stands in for every
    failure of its try, our own bugs and the service's among them. `medium` where a step is
    inferred: stages told by the names of the calls (FC002), whether a missing value (`… if match
    else 0`) is a failure at all, and whether a code outside a filter's list ever reaches it (FC004).
    Measured in session 51 (benchmarks/README.md, "Confidence"): on the held-out split, never tuned
    on, `high` findings were 60 real, 57 debatable and 35 false of 152, `medium` 54, 49 and 62 of
    165; before, the two were alike (36 % and 38 % real)."""
    assert _example_confidence() == EXAMPLE_CONFIDENCE
    high = {key for key, confidence in EXAMPLE_CONFIDENCE.items() if confidence == "high"}
    assert set(_example_confidence("--min-confidence", "high")) == high


def test_a_catch_alls_own_code_or_value_stays_high():
    """Control, the same before and after session 51's confidence change: what a catch-all records
    itself (the contract's `failures.add("ANSWER_MISMATCH")`, `return 0.0` beside `verify`) is proven."""
    found = _example_confidence()
    assert [found[key] for key in [("examples/harness/grader.py", "FC003", 16),
                                   ("examples/harness/judge.py", "FC003", 38),
                                   ("examples/harness/reducer.py", "FC003", 22)]] == ["high"] * 3


def _narrow_math_score() -> str:
    """The contract's `math_score` (examples/harness/judge.py, its last function) with `except
    ValueError:` in place of its catch-all, read from the example rather than copied."""
    source = (REPO / "examples" / "harness" / "judge.py").read_text()
    function = source[source.index("def math_score("):]
    assert function.count("except Exception:") == 1, function
    return "from math_verify import parse, verify\n\n\n" + function.replace("except Exception:", "except ValueError:")


def test_a_narrower_handlers_value_is_inferred(project):
    """The contract's `math_score` with `except ValueError:` in place of the catch-all: which of the
    try's statements raises what the handler catches, the reference's parse or the candidate's, is
    inferred, so its `return 0.0` is `medium` (the catch-all's is `high`, above)."""
    narrow = _narrow_math_score()
    _, rows = _check(project, narrow)
    assert {(row["rule"], row["line"]): row["confidence"] for row in rows} == {
        ("FC002", _line_of(narrow, "try:")): "medium",
        ("FC003", _line_of(narrow, "return 0.0")): "medium",
    }


@pytest.mark.parametrize("value", ["low", "HIGH"])
def test_min_confidence_rejects_other_values(project, value):
    project.write({"m.py": CAUSES})
    result = project.run("check", "--min-confidence", value)
    assert result.returncode == 2 and "--min-confidence" in result.stderr


# -- protocol methods and replies read deep --------------------------------------------------------

CALLABLE = '''
class Grader:
    def __call__(self, answer, gold):
        try:
            reply = self.judge.complete(answer)
            verdict = reply.choices[0].message.content.strip().lower()
            return verdict == gold
        except Exception:
            return False

    def __eq__(self, other):
        try:
            return self.key == other.key
        except AttributeError:
            return False
'''


def test_a_call_method_is_judged_like_any_function_and_eq_keeps_its_protocol(project):
    """`__call__` is code like any other; `__eq__` answering False for an unlike object is what the
    protocol asks."""
    found, _ = _check(project, CALLABLE)
    assert found == [("m.py", "FC003", _line_of(CALLABLE, "return False", 1))]


# -- a narrow handler around a `with` block counts the block's statements -------------------------

WITH_BLOCK = '''
import json


def grade(path, gold):
    try:
        with open(path) as handle:
            data = json.load(handle)
            answer = data["answer"].strip().lower()
            verdict = answer == gold
    except ValueError:
        verdict = False
    return verdict


def read_score(path):
    try:
        with open(path) as handle:
            return float(handle.read())
    except ValueError:
        return 0.0
'''


def test_a_narrow_handler_around_a_with_block_of_several_statements(project):
    """A `with` block of several statements is not one statement: `except ValueError` stands in
    for a read, a parse and a compare, and its False reads as the verdict (FC003), one outcome for
    the read and the compare (FC002 at the `try`). Around one conversion (`float(handle.read())`)
    the exception is the answer: quiet."""
    found, _ = _check(project, WITH_BLOCK)
    assert found == [("m.py", "FC002", _line_of(WITH_BLOCK, "try:")),
                     ("m.py", "FC003", _line_of(WITH_BLOCK, "verdict = False"))]



# -- whose failure: one try parses the candidate's answer and the reference ------------------------

def _assert_two_parties(project, source: str, attempt: str, fallback: tuple, parties: tuple[str, str]) -> None:
    """Exactly FC002 at the try, naming both parties' data, and FC003 at the handler's write."""
    found, rows = _check(project, source)
    assert found == [("m.py", "FC002", _line_of(source, attempt)), ("m.py", "FC003", _line_of(source, *fallback))]
    spanning = next(row for row in rows if row["rule"] == "FC002")
    assert all(f"`{name}`" in spanning["message"] for name in parties)


BOTH_PARSED = '''
import json


def score_answer(answer, entry):
    try:
        got = json.loads(answer)
        want = json.loads(entry["answer"])
    except Exception:
        return 0.0
    return 1.0 if got == want else 0.0
'''


def test_a_try_that_parses_the_answer_and_the_reference(project):
    """A reference that cannot be parsed is scored as a wrong answer: FC002 at the try, and FC003 at
    the handler's return, which reads as the compare's "wrong"."""
    _assert_two_parties(project, BOTH_PARSED, "try:", ("return 0.0",), ("answer", "entry"))


def test_a_try_that_parses_only_the_answer_stays_quiet(project):
    """The reference parsed before the try: only the candidate's answer can fail there, and "wrong" is
    the right verdict on an answer that cannot be parsed."""
    source = BOTH_PARSED.replace('''    try:
        got = json.loads(answer)
        want = json.loads(entry["answer"])''', '''    want = json.loads(entry["answer"])
    try:
        got = json.loads(answer)''')
    found, _ = _check(project, source)
    assert found == []


def test_two_parses_outside_a_judging_function_stay_one_stage(project):
    """Control, quiet before and after: a function that judges nothing has no candidate to tell apart."""
    source = BOTH_PARSED.replace("def score_answer(answer, entry):", "def load_pair(answer, entry):") \
        .replace("return 1.0 if got == want else 0.0", "return got, want")
    found, _ = _check(project, source)
    assert found == []


OWN_PARSER = '''
def parse_board(text):
    return tuple(tuple(int(c) for c in row.split()) for row in text.strip().splitlines())


def score_answer(answer, entry):
    expected = entry["metadata"]["output"]
    try:
        board = parse_board(answer)
        reward = 1.0 if board == expected else 0.0
    except Exception:
        reward = 0.0
    return reward
'''


def test_our_parser_given_only_the_answer_fails_on_the_answer(project):
    """`parse_board(answer)` is a read of the candidate's output: an unparseable board scores 0.0,
    the right verdict."""
    found, _ = _check(project, OWN_PARSER)
    assert found == []


def test_our_helper_that_runs_the_answer_is_the_harness(project):
    """Control, reported before and after: a helper that is no parser (it runs the answer in our
    sandbox) can fail on our side, and the handler's 0.0 reads as the wrong answer."""
    source = OWN_PARSER.replace("parse_board", "run_in_sandbox")
    found, _ = _check(project, source)
    assert ("m.py", "FC003", _line_of(source, "reward = 0.0")) in found


PRIVATE_PARSER = '''
class Puzzle:
    def _parse_grid(self, text):
        return [[int(c) for c in row.split()] for row in text.strip().splitlines()]

    def score_answer(self, answer, entry):
        n_cols = entry["metadata"]["n_cols"]
        try:
            grid = self._parse_grid(answer)
            if any(len(row) != n_cols for row in grid):
                return 0.0
            return 1.0 if grid == entry["metadata"]["solution"] else 0.0
        except Exception:
            return 0.0
'''


def test_a_private_parser_and_a_check_over_the_answer_fail_on_the_answer(project):
    """`self._parse_grid(answer)` parses the candidate, and `any(...)` only iterates what the answer
    gave: only the candidate's output can fail in the try."""
    found, _ = _check(project, PRIVATE_PARSER)
    assert found == []


def test_a_safe_method_on_the_reference_read_in_the_try(project):
    """`entry["metadata"]["pieces"].items()` cannot fail on a dict: only the answer's parse can."""
    source = '''
import json


def score_answer(answer, entry):
    try:
        moves = json.loads(answer)
        start = {pos for pos, piece in entry["metadata"]["pieces"].items() if piece == "w"}
        return 1.0 if set(moves) == start else 0.0
    except Exception:
        return 0.0
'''
    found, _ = _check(project, source)
    assert found == []


# -- a handler that falls through to the verdict after the try --------------------------------------

FALLS_THROUGH = '''
def score_answer(answer, entry, judge):
    try:
        verdict = judge.ask(answer, entry["question"])
        if verdict == "yes":
            return 1.0
    except Exception:
        pass
    return 0.0
'''


def test_a_handler_that_falls_through_to_the_verdict_after_the_try(project):
    """The try ends in the verdict's guard, so `return 0.0` after it is the genuine "no"; a judge
    that cannot be reached falls through to that same return. FC003 at that return (the line the
    handler's value is written on)."""
    found, rows = _check(project, FALLS_THROUGH)
    assert found == [("m.py", "FC003", _line_of(FALLS_THROUGH, "return 0.0"))]
    assert "falling through" in rows[0]["message"]


def test_a_handler_that_falls_through_around_only_the_answer_stays_quiet(project):
    """Only the candidate's answer can fail in the try (`float(answer)`): "wrong" is its verdict."""
    source = FALLS_THROUGH.replace('verdict = judge.ask(answer, entry["question"])', "verdict = float(answer)") \
        .replace('if verdict == "yes":', "if verdict == entry:")
    found, _ = _check(project, source)
    assert found == []


def test_a_handler_that_falls_through_after_a_try_that_decides_nothing_stays_quiet(project):
    """Control, quiet before and after: the try only notes the answer, so the return after it is no
    verdict the handler could be mistaken for."""
    source = FALLS_THROUGH.replace('''        if verdict == "yes":
            return 1.0
''', '''        judge.log(verdict)
''')
    found, _ = _check(project, source)
    assert found == []


def test_a_handler_that_returns_its_own_value_is_reported_at_its_return(project):
    """Control, reported before and after: the handler's own `return 0.0`."""
    source = FALLS_THROUGH.replace("        pass\n    return 0.0", "        return 0.0\n    return 0.0")
    found, _ = _check(project, source)
    assert found == [("m.py", "FC003", _line_of(source, "        return 0.0"))]


# -- conversions of the answer and of the reference in one try ------------------------------------

CONVERTED = '''
from decimal import Decimal


def score_answer(answer, entry):
    try:
        got = int(answer)
        want = int(entry["answer"])
        if abs(got - want) <= Decimal("0.01"):
            return 1.0
        return 0.0
    except Exception:
        return 0.0
'''


def test_a_conversion_of_the_answer_and_of_the_reference_in_one_try(project):
    """`int(answer)` and `int(entry["answer"])` (too ordinary to be stages of the work on their own): a
    reference that holds no number is scored as a wrong answer. FC002 at the try, naming both
    parties; FC003 at the handler's return."""
    _assert_two_parties(project, CONVERTED, "try:", ("return 0.0", 2), ("answer", "entry"))


def test_a_conversion_of_only_the_answer_stays_quiet(project):
    """The reference converted before the try: only the answer (and a literal, `Decimal("0.01")`,
    which fails on no one's data) is read in it."""
    source = CONVERTED.replace('''    try:
        got = int(answer)
        want = int(entry["answer"])''', '''    want = int(entry["answer"])
    try:
        got = int(answer)''')
    found, _ = _check(project, source)
    assert found == []


RETURNS_IN_THE_TRY = FALLS_THROUGH.replace('''        if verdict == "yes":
            return 1.0
''', '''        return float(verdict == "yes")
''')


def test_a_handler_that_falls_through_after_a_try_that_returns_its_verdict(project):
    """The try returns its verdict, so the return after it runs only for a failure: the handler's
    fallback as surely as its own `return 0.0`, and it reads as the compare's "no". FC003 at that
    return."""
    found, _ = _check(project, RETURNS_IN_THE_TRY)
    assert found == [("m.py", "FC003", _line_of(RETURNS_IN_THE_TRY, "return 0.0"))]


def test_a_handler_that_falls_through_to_a_distinct_value_stays_quiet(project):
    """Control, quiet before and after: the failure returns None, which no verdict returns."""
    source = RETURNS_IN_THE_TRY.replace("    return 0.0", "    return None")
    found, _ = _check(project, source)
    assert found == []


# -- whose failure: one try works on the reference and on the answer, in calls of no stage ----------

PUZZLE = '''
class Board:
    def __init__(self, config):
        self.cells = [list(row) for row in config.split("/")]

    def perform_moves(self, moves):
        for move in moves.split(","):
            self.cells[int(move)].reverse()

    def is_solved(self):
        return self.cells == sorted(self.cells)


def score_answer(answer, entry):
    try:
        board = Board(entry["metadata"]["board_config"])
        board.perform_moves(answer)
        if board.is_solved():
            return 1.0
        return 0.0
    except Exception:
        return 0.0
'''


def test_a_try_that_builds_the_reference_and_replays_the_answer(project):
    """A puzzle that cannot be built from the dataset entry is scored as an unsolved answer: the try
    runs `Board(entry[…])` on the reference and `board.perform_moves(answer)` on the candidate's
    output, no stage either, and one handler answers 0.0 for both. FC002 at the try, naming both;
    FC003 at the handler's return, which reads as the "not solved" that `board.is_solved()` decides
    in a function that judges."""
    _assert_two_parties(project, PUZZLE, "    try:", ("return 0.0", 2), ("answer", "entry"))


BUILT_BEFORE = PUZZLE.replace('''    try:
        board = Board(entry["metadata"]["board_config"])
''', '''    board = Board(entry["metadata"]["board_config"])
    try:
''')


def test_a_reference_built_before_the_try_is_one_party(project):
    """The board is built before the try: the try runs one call, on the answer and the board
    together, so there are no two parties to tell apart, and no FC002. The handler's 0.0 still
    reads as "not solved" while a method of our own board can fail (the harness at work): FC003
    stays."""
    found, _ = _check(project, BUILT_BEFORE)
    assert found == [("m.py", "FC003", _line_of(BUILT_BEFORE, "return 0.0", 2))]


def test_a_log_line_about_the_reference_is_no_work_on_it(project):
    """A log line naming the entry, and an error built to be raised, fail on no one's data: the try
    still runs on one party, and FC002 stays quiet."""
    source = BUILT_BEFORE.replace('''    try:
''', '''    try:
        logger.info("scoring %s", entry["id"])
        if not answer:
            raise ValueError(entry["id"])
''').replace("class Board:", "import logging\nlogger = logging.getLogger(__name__)\n\n\nclass Board:")
    found, _ = _check(project, source)
    assert found == [("m.py", "FC003", _line_of(source, "return 0.0", 2))]


def test_a_yes_no_question_outside_a_judging_function_decides_nothing(project):
    """Control, quiet before and after: `is_solved()` answers for a function that judges nothing, so
    its 0.0 is no verdict for the handler's 0.0 to read as."""
    source = PUZZLE.replace("def score_answer(answer, entry):", "def replay(answer, entry):")
    found, _ = _check(project, source)
    assert found == []


# -- channels wherever they are written (principle 4) -------------------------------------------

CHANNELS = '''
def grade_update(answer, expected):
    result = {}
    try:
        ok = run_in_sandbox(answer) == expected
        result.update({"correct": ok})
    except Exception:
        result.update({"correct": False})
    return result


def grade_update_keywords(answer, expected, result):
    try:
        result.update(correct=run_in_sandbox(answer) == expected)
    except Exception:
        result.update(correct=False)


def grade_all(items):
    for answer, expected in items:
        try:
            yield run_in_sandbox(answer) == expected
        except Exception:
            yield False


def score_record(answer, expected, score):
    try:
        score.value = {"accuracy": float(run_in_sandbox(answer) == expected)}
    except Exception:
        score.value = {"accuracy": 0.0}


def grade_keyword(answer, expected):
    try:
        return Score(value={"correct": run_in_sandbox(answer) == expected})
    except Exception:
        return Score(value={"correct": False})


def grade_pair(answer, expected):
    try:
        got = run_in_sandbox(answer)
        return got, got == expected
    except Exception:
        return None, False
'''


def test_verdict_channels_wherever_they_are_written(project):
    """A dict given to `.update()` (as a literal or as keywords), a generator's `yield`, a dict
    assigned to a record's attribute, a dict passed as a keyword, and a tuple's later element are
    channels: each handler's False or 0.0 reads as the compare's "wrong" there. FC003 at each
    handler's write."""
    found, rows = _check(project, CHANNELS)
    expected = [_line_of(CHANNELS, 'result.update({"correct": False})'),
                _line_of(CHANNELS, "result.update(correct=False)"),
                _line_of(CHANNELS, "yield False"),
                _line_of(CHANNELS, 'score.value = {"accuracy": 0.0}'),
                _line_of(CHANNELS, 'return Score(value={"correct": False})'),
                _line_of(CHANNELS, "return None, False")]
    assert found == [("m.py", "FC003", line) for line in expected]
    actions = [row["message"].split(", the verdict")[0] for row in rows]
    assert "except Exception: yields False" in actions
    assert "except Exception: passes value={'correct': False} to Score" in actions


def test_verdict_channels_with_a_distinct_failure_value_stay_quiet(project):
    """Control, quiet before and after: each handler writes None, which no verdict writes."""
    source = CHANNELS.replace('{"correct": False}', '{"correct": None}').replace("correct=False", "correct=None") \
        .replace("yield False", "yield None").replace('{"accuracy": 0.0}', '{"accuracy": None}') \
        .replace("return None, False", "return None, None")
    found, _ = _check(project, source)
    assert found == []


DICT_ASSIGNED = '''
def grade_record(answer, expected):
    try:
        result = {"correct": run_in_sandbox(answer) == expected, "answer": answer}
    except Exception:
        result = {"correct": False, "answer": answer}
    return result


def grade_explained(answer, expected):
    try:
        result = {"correct": run_in_sandbox(answer) == expected}
    except Exception as exc:
        result = {"correct": False, "error": str(exc)}
    return result


def load_options(path):
    try:
        options = {"mode": read_mode(path), "strict": True}
    except OSError:
        options = {"mode": "fast", "strict": True}
    return options
'''


def test_a_dict_assigned_to_a_name_is_not_read_as_key_channels(project):
    """A measured quietness policy (POLICIES.md, session 35): reading `result = {"correct": …}` as
    the key channel `result['correct']`, as `.update({…})` and `score.value = {…}` are read, was
    built from principle 4 and measured: no tune finding, and 10 held-out findings judged blind, 1
    real, 1 debatable, 8 false. It was withheld, so the handler's `{"correct": False}` here stays
    quiet, as do the record that says what failed and the settings no compare decides."""
    found, _ = _check(project, DICT_ASSIGNED)
    assert found == []


def test_a_dict_returned_by_the_handler_is_still_a_key_channel(project):
    """Control for the policy above: the same dicts returned (`return {"correct": False, …}`) are
    the return's key channels, reported at the handler's return."""
    source = DICT_ASSIGNED.replace("        result = {", "        return {")
    found, _ = _check(project, source)
    assert found == [("m.py", "FC003", _line_of(source, 'return {"correct": False, "answer": answer}'))]


# -- an exit status made up by a handler (principle 5) ---------------------------------------------

RUN_COMMAND = '''
import subprocess


def run_command(command):
    try:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, shell=True)
        output = read_all(process.stdout)
        return process.returncode, output
    except Exception as error:
        return 1, str(error)


def run_child(spawn, arguments):
    try:
        child = spawn(arguments)
        child.interact()
        code = child.exitstatus
        return code, ""
    except (TypeError, ValueError) as error:
        return 2, str(error)
'''


def test_a_handler_that_makes_up_an_exit_status(project):
    """The command's own exit status is the genuine answer (read off the process, directly or
    through a name); a handler that can catch our own bugs answers 1 or 2 in its place, so a crash
    of the harness reads as the command failing. FC003 at each handler's return. (A negative
    number is no status a process gives: session 57, `test_a_negative_exit_status_…` below.)"""
    found, rows = _check(project, RUN_COMMAND)
    assert found == [("m.py", "FC003", _line_of(RUN_COMMAND, "return 1, str(error)")),
                     ("m.py", "FC003", _line_of(RUN_COMMAND, "return 2, str(error)"))]
    assert "exit status of `process`" in rows[0]["message"]


def test_an_exit_status_the_os_refused_or_never_made_up_stays_quiet(project):
    """Control, quiet before and after: `except OSError` around starting the command says it did not
    run, as a non-zero status does; `returncode or 0` only fills in a status a finished process
    always has; a handler that answers None makes up no status."""
    source = RUN_COMMAND.replace("except Exception as error:", "except OSError as error:") \
        .replace("return 2, str(error)", "return None, str(error)") \
        .replace("return process.returncode, output", "return process.returncode or 0, output")
    found, _ = _check(project, source)
    assert found == []


# -- the evaluated party named as the owner of what it wrote ---------------------------------------

VERIFY = '''
def verify_solution(problem, user_solution):
    try:
        correct = eval(problem)
        got = int(str(user_solution), 0)
    except Exception:
        return False
    return correct == got
'''


def test_the_users_solution_is_the_candidate(project):
    """`user_solution` is what the user wrote, the candidate, and `problem` the task's own data: a
    problem that cannot be evaluated reads as a wrong solution. FC002 at the try, naming both; FC003
    at the handler's return."""
    _assert_two_parties(project, VERIFY, "try:", ("return False",), ("problem", "user_solution"))


def test_a_reference_solution_is_no_candidate(project):
    """Control, the same before and after: with `reference_solution` in its place no parameter is the
    candidate, so the try has no two parties, only FC003's fallback."""
    source = VERIFY.replace("user_solution", "reference_solution")
    found, _ = _check(project, source)
    assert found == [("m.py", "FC003", _line_of(source, "return False"))]


# -- the side a function guards is the candidate's --------------------------------------------------

PROGRAMS = '''
ALL_OPS = ["add", "subtract", "multiply", "divide"]


def equal_program(program1, program2):
    steps = program1.split(")")
    known = {}
    for step in steps:
        op = step.split("(")[0]
        known[step] = op.split("|")[1]
    try:
        steps = program2.split(")")
        for step in steps:
            op = step.split("(")[0]
            if op.strip("|") not in ALL_OPS:
                print("structure error")
                return False
            if step.split("(")[1] not in known:
                return False
    except Exception:
        return False
    return steps == list(known)
'''


def test_the_side_read_only_inside_the_try_is_the_candidate(project):
    """HELM's and evalscope's FinQA program check (judged false): no parameter is named as the
    candidate, but the function reads `program1` outside every try, where a failure would
    propagate, and `program2` only inside one: it guards the side it does not trust, the
    prediction's, and False is its verdict on a malformed prediction. The names `steps` and `step`,
    bound from the first program and then from the second, hold the second in the try."""
    found, _ = _check(project, PROGRAMS)
    assert found == []


def test_a_try_that_also_reads_the_unguarded_side_stays_reported(project):
    """Controls, reported before and after: when the try also reads the first program (a call that
    can fail on it), or when the first program too is read only inside a try, the try is not the
    candidate's alone, and the handler's False is reported (FC003 at its return)."""
    both = PROGRAMS.replace('''        steps = program2.split(")")''', '''        scale = float(program1.split("|")[0])
        steps = program2.split(")")''')
    found, _ = _check(project, both)
    assert found == [("m.py", "FC003", _line_of(both, "    except Exception:") + 1)]
    guarded = PROGRAMS.replace('''    steps = program1.split(")")
    known = {}
    for step in steps:
        op = step.split("(")[0]
        known[step] = op.split("|")[1]
''', '''    known = {}
    try:
        for step in program1.split(")"):
            known[step] = step.split("(")[0].split("|")[1]
    except KeyError:
        raise
''')
    found, _ = _check(project, guarded)
    assert found == [("m.py", "FC003", _line_of(guarded, "    except Exception:") + 1)]


EQUATION = r'''
import re


def check_equation(response_text, answer):
    response_ops = re.findall(r"[-+*/]", response_text.split("=")[0])
    answer_ops = re.findall(r"[-+*/]", answer.split("=")[0])
    if response_ops != answer_ops:
        return False
    expected_result = int(re.search(r"=\s*(-?\d+)", answer).group(1))
    try:
        left_side = response_text.split("=")[0]
        result = eval(left_side)
    except Exception:
        return False
    return result == expected_result
'''


def test_the_side_a_try_guards_is_the_candidate(project):
    """KOR-Bench's operator check (judged false): both parameters go by candidate names, and both
    are read outside the try, so no side is read only inside one; but the try guards the response
    alone, and the reference (`answer`, whose result is parsed unguarded) is never tried: the code
    tries the side it does not trust, and False is its verdict on an expression that cannot run."""
    found, _ = _check(project, EQUATION)
    assert found == []


def test_a_try_around_the_side_named_as_the_reference_stays_reported(project):
    """The code's guard says which side it distrusts, unless a name says the side is the reference:
    `reference` read only inside the try is the harness's data, and the handler's False for a
    reference that cannot be parsed is reported (FC003 at its return). Before, the side read only
    inside a try was taken for the candidate's whatever its name."""
    source = '''
import re


def score_equation(text, reference):
    got = int(re.search(r"=\\s*(-?\\d+)", text).group(1))
    try:
        right_side = reference.split("=")[1]
        want = int(right_side)
    except Exception:
        return False
    return got == want
'''
    found, _ = _check(project, source)
    assert found == [("m.py", "FC003", _line_of(source, "    except Exception:") + 1)]


def test_a_side_tried_elsewhere_keeps_the_try_reported(project):
    """Control, reported before and after: when the reference's parse has a try of its own, the
    code distrusts both sides, and its guard no longer says which one is the candidate's."""
    source = EQUATION.replace(r'''    expected_result = int(re.search(r"=\s*(-?\d+)", answer).group(1))
''', r'''    try:
        expected_result = int(re.search(r"=\s*(-?\d+)", answer).group(1))
    except AttributeError:
        raise ValueError("the reference has no result")
''')
    assert source != EQUATION
    found, _ = _check(project, source)
    assert found == [("m.py", "FC003", _line_of(source, "    except Exception:") + 1)]


SYMBOLIC = '''
from sympy import simplify


def equal_program(program1, program2):
    def symbol_recur(step, known):
        op, args = step.split("(")
        return "(" + " + ".join(known.get(arg, arg) for arg in args.split("|")) + ")"

    steps = program1.split(")")[:-1]
    known_1 = {}
    for ind, step in enumerate(steps):
        known_1[ind] = step.strip()
    sym_prog1 = simplify(symbol_recur(steps[-1], known_1), evaluate=False)
    try:
        steps = program2.split(")")[:-1]
        known_2 = {}
        for ind, step in enumerate(steps):
            known_2[ind] = step.strip()
        sym_prog2 = simplify(symbol_recur(steps[-1], known_2), evaluate=False)
    except Exception:
        return False
    return sym_prog1 == sym_prog2
'''


def test_our_helper_run_unguarded_on_the_other_side_fails_on_the_candidate(project):
    """HELM's and evalscope's FinQA symbolic check (judged false): the try calls our own helper,
    whose bug would be the harness's, but the function already runs that helper outside every try
    on the first program's data, where its bug would propagate. What the try adds is the second
    program, the prediction, so False is the verdict on a prediction that cannot be derived."""
    found, _ = _check(project, SYMBOLIC)
    assert found == []


def test_our_helper_run_only_inside_the_try_stays_reported(project):
    """Control, reported before and after: when the first program is derived without the helper,
    the helper runs only inside the try, and a bug of ours there would read as a wrong prediction
    (FC003 at the handler's return)."""
    source = SYMBOLIC.replace("simplify(symbol_recur(steps[-1], known_1), evaluate=False)",
                              "simplify(steps[-1], evaluate=False)")
    assert source != SYMBOLIC
    found, _ = _check(project, source)
    assert found == [("m.py", "FC003", _line_of(source, "    except Exception:") + 1)]


SEARCHES = r'''
import re


def check_correctness(answer, ground_truth):
    match = re.search(r"(\d+)\s*weeks?,\s*(\d+)\s*days?", answer, re.IGNORECASE)
    if match:
        correctness = 1 if (int(match.group(1)), int(match.group(2))) == ground_truth else 0
    else:
        correctness = 0
    return correctness


def grade_reply(answer, judge):
    reply = judge.ask(answer)
    match = re.search(r"GRADE: ([A-C])", reply)
    if match:
        correct = match.group(1) == "A"
    else:
        correct = False
    return correct


class Grader:
    def grade(self, answer):
        answer = self.judge.ask(answer)
        match = re.search(r"GRADE: ([A-C])", answer)
        if match:
            correct = match.group(1) == "A"
        else:
            correct = False
        return correct
'''


def test_no_match_in_the_candidates_own_text_is_its_answer(project):
    """opencompass' MedCalc check (judged false): a search of the answer as the function was given
    it that finds nothing is an answer of the wrong form, and 0 is the right verdict. Controls,
    reported before and after: the same search of a judge's reply (`reply = judge.ask(answer)`),
    and of the answer rebound to the judge's reply (`answer = self.judge.ask(answer)`), is the
    harness's failure read as a verdict (FC003 at each no-match arm)."""
    found, _ = _check(project, SEARCHES)
    assert found == [("m.py", "FC003", _line_of(SEARCHES, "        correct = False")),
                     ("m.py", "FC003", _line_of(SEARCHES, "            correct = False"))]


# -- principle 5: a command judged by whether it printed anything ----------------------------------

COMMANDS = '''
import asyncio
import shlex
import subprocess


def run_tool(command):
    process = subprocess.Popen(shlex.split(command), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stdout, stderr = process.communicate()
    if len(stderr) == 0:
        return {"ok": True, "output": stdout.decode()}
    return {"ok": False, "error": stderr.decode()}


def lint(path):
    result = subprocess.run(["flake8", path], capture_output=True, text=True)
    errors = result.stdout + result.stderr
    if not errors:
        return None
    return errors.splitlines()


def build(command):
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        out, err = proc.communicate()
    if err:
        raise RuntimeError(err.decode())
    return out.decode()


async def type_check(path):
    proc = await asyncio.create_subprocess_exec("mypy", path, stderr=asyncio.subprocess.PIPE)
    _, err = await proc.communicate()
    if err.strip():
        return False
    return True
'''


def test_a_command_judged_by_its_output_alone(project):
    """The exit status answers "did it work?"; these read only whether the command wrote to stderr.
    FC003 at each `if` that decides by it: a crashed linter prints nothing and reads as clean."""
    found, _ = _check(project, COMMANDS)
    assert found == [("m.py", "FC003", _line_of(COMMANDS, "if len(stderr) == 0:")),
                     ("m.py", "FC003", _line_of(COMMANDS, "if not errors:")),
                     ("m.py", "FC003", _line_of(COMMANDS, "if err:")),
                     ("m.py", "FC003", _line_of(COMMANDS, "if err.strip():"))]


def test_a_command_judged_by_its_output_however_its_emptiness_is_spelled(project):
    """The same test of whether the command wrote to stderr, with its size asked another way
    (`len(stderr) < 1`, `not len(err)`): FC003 at each `if`, as for `len(stderr) == 0`."""
    source = '''
import subprocess


def run_tool(command):
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stdout, stderr = process.communicate()
    if len(stderr) < 1:
        return {"ok": True, "output": stdout.decode()}
    return {"ok": False, "error": stderr.decode()}


def build(command):
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        out, err = proc.communicate()
    if not len(err):
        return out.decode()
    raise RuntimeError(err.decode())
'''
    found, _ = _check(project, source)
    assert found == [("m.py", "FC003", _line_of(source, "if len(stderr) < 1:")),
                     ("m.py", "FC003", _line_of(source, "if not len(err):"))]


COMMANDS_QUIET = '''
import subprocess


def run_tool(command):
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stdout, stderr = process.communicate()
    if process.returncode != 0 or stderr:
        return {"ok": False, "error": stderr.decode()}
    return {"ok": True, "output": stdout.decode()}


def checked(path):
    result = subprocess.run(["flake8", path], capture_output=True, text=True, check=True)
    if not result.stderr:
        return None
    return result.stdout.splitlines()


def commit_of(path):
    proc = subprocess.Popen(["git", "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE, cwd=path)
    commit, _ = proc.communicate()
    if commit:
        return commit.strip().decode()
    return None


def inside_work_tree():
    res = subprocess.run(["git", "rev-parse", "--is-inside-work-tree"], capture_output=True)
    if res.stdout.decode().strip() == "true":
        return True
    return False


def status_checked_later(path):
    result = subprocess.run(["flake8", path], capture_output=True, text=True)
    if not result.stderr:
        result.check_returncode()
        return None
    return result.stdout.splitlines()


def handed_on(command):
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate()
    if not err:
        return proc
    return out


def shown(command):
    result = subprocess.run(command, capture_output=True, text=True)
    text = "warnings: " + result.stderr
    if not text:
        return None
    print(result.stderr if result.stderr else "no warnings")
    return text


def wait_for(command, pattern):
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate()
    if pattern in out:
        return out
    if err:
        raise RuntimeError(f"command error: {err}")
    else:
        raise RuntimeError("the output ended before the pattern")
'''


def test_a_command_whose_status_is_read_or_handed_on_stays_quiet(project):
    """Quiet: the status decides or is read (`returncode`, `check=True`, `check_returncode()`), the
    command was asked a question and its stdout is the answer (the commit, or nothing; `== "true"`),
    the process goes to a caller who may read it, or what is tested is more than the output (a
    prefix) or only chooses words to show, or every arm of the test raises (sglang's pod-log
    watcher, session 38's sweep: the run failed either way, and stderr only words the error; `build`
    above, whose other arm goes on, is reported)."""
    found, _ = _check(project, COMMANDS_QUIET)
    assert found == []


def test_a_command_output_parsed_without_a_decision_stays_quiet(project):
    """Control, the same before and after: a command whose output is returned whole decides nothing
    here, whatever its exit status."""
    source = '''
import subprocess


def version(tool):
    result = subprocess.run([tool, "--version"], capture_output=True, text=True)
    return result.stdout.strip()
'''
    found, _ = _check(project, source)
    assert found == []


VERDICTS_FROM_OUTPUT = '''
import asyncio
import subprocess


def _parse_mypy_output(stdout):
    errors = [line for line in stdout.decode().splitlines() if ": error:" in line]
    score = len(errors) == 0
    return score, "\\n".join(errors)


def _type_checks(out):
    return out.count("error") == 0


def analyze_with_mypy(path):
    result = subprocess.run(["mypy", "--strict", path], capture_output=True)
    return _parse_mypy_output(result.stdout)


async def analyze_with_mypy_async(path):
    process = await asyncio.create_subprocess_exec(
        "mypy", path, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    stdout, _ = await process.communicate()
    return _parse_mypy_output(stdout)


def pyright_passes(path):
    result = subprocess.run(["pyright", path], capture_output=True, text=True)
    return _type_checks(result.stdout.strip())
'''


def test_a_verdict_decided_from_a_command_output_whose_status_is_unread(project):
    """openevals' mypy scorer: `return _parse_mypy_output(result.stdout)`, where the parser of this
    file returns a compare (`score = len(errors) == 0`). mypy that crashed, or was given an option
    it does not know, prints nothing on stdout, and "no errors" is the verdict (issue 23,
    principle 5 with principle 2's summary of our own function). FC003 at each returned call."""
    found, _ = _check(project, VERDICTS_FROM_OUTPUT)
    assert found == [("m.py", "FC003", _line_of(VERDICTS_FROM_OUTPUT, "return _parse_mypy_output(result.stdout)")),
                     ("m.py", "FC003", _line_of(VERDICTS_FROM_OUTPUT, "return _parse_mypy_output(stdout)")),
                     ("m.py", "FC003", _line_of(VERDICTS_FROM_OUTPUT, "return _type_checks(result.stdout.strip())"))]


def test_a_command_output_judged_after_its_status_or_parsed_into_no_verdict_stays_quiet(project):
    """Quiet: the exit status is read first, or by `check=True`, or the process is handed on with its
    output; our parser returns what the tool said (a list of errors, no verdict); a function of
    another package decides (its summary is not ours to read)."""
    source = VERDICTS_FROM_OUTPUT.split("def analyze_with_mypy(path):")[0] + '''
from linters import parse_report


def _errors_of(stdout):
    return [line for line in stdout.splitlines() if ": error:" in line]


def read_first(path):
    result = subprocess.run(["mypy", path], capture_output=True)
    if result.returncode not in (0, 1):
        raise RuntimeError(result.stderr.decode())
    return _parse_mypy_output(result.stdout)


def checked(path):
    result = subprocess.run(["mypy", path], capture_output=True, check=True)
    return _parse_mypy_output(result.stdout)


def listed(path):
    result = subprocess.run(["mypy", path], capture_output=True, text=True)
    return _errors_of(result.stdout)


def theirs(path):
    result = subprocess.run(["mypy", path], capture_output=True, text=True)
    return parse_report(result.stdout)
'''
    found, _ = _check(project, source)
    assert found == []


# -- "no result" read as a cause across modules (principles 2 and 6) -------------------------------

STORE = '''
import logging

from pkg.client import Client

log = logging.getLogger(__name__)


def get_agent(db: Client, agent_id):
    try:
        row = db.get_component(agent_id)
        if row is None:
            return None
        return dict(row)
    except Exception as exc:
        log.error(f"could not load agent {agent_id}: {exc}")
        return None


class Buckets:
    def __init__(self, cluster):
        self.cluster = cluster

    def _bucket_ready(self, name):
        try:
            self.cluster.buckets().get_bucket(name)
            return True
        except Exception:
            return False

    def search(self, name, query):
        if not self._bucket_ready(name):
            raise ValueError(f"Bucket {name} does not exist, create it first")
        return self.cluster.search(name, query)
'''

ROUTES = '''
from pkg.store import get_agent


class HTTPException(Exception):
    pass


async def read_agent(db, agent_id):
    agent = get_agent(db, agent_id)
    if agent is None:
        raise HTTPException(404, "Agent not found")
    return agent
'''


def test_nothing_for_every_failure_read_as_not_found(project):
    """A helper that answers every failure with None (or False) and a caller that says "not found"
    when it gets it: a database error is reported as a missing agent. Reported at the helper's
    `except`, once, whichever module the caller is in."""
    project.write({"pkg/__init__.py": "", "pkg/client.py": "class Client:\n    pass\n",
                   "pkg/store.py": STORE, "pkg/routes.py": ROUTES})
    found = sorted(project.findings("pkg"))
    assert found == [("pkg/store.py", "FC006", _line_of(STORE, "except Exception as exc:")),
                     ("pkg/store.py", "FC006", _line_of(STORE, "except Exception:"))]
    result = project.run("check", "--format", "json", "pkg")
    confidences = {f["line"]: f["confidence"] for f in json.loads(result.stdout)["findings"]}
    assert set(confidences.values()) == {"medium"}  # the callers are matched by the function's name


QUIET_STORE = '''
import logging

from pkg.client import Client

log = logging.getLogger(__name__)


def logs_the_traceback(db: Client, key):
    try:
        return db.get_component(key)
    except Exception:
        log.exception("could not load %s", key)
        return None


def narrow(db: Client, key):
    try:
        return db.components[key]
    except KeyError:
        return None


def says_something_else(db: Client, key):
    try:
        return db.get_component(key)
    except Exception:
        return None


def asks_the_os(path):
    try:
        return os.stat(path)
    except OSError:
        return None


def twice(db: Client, key):
    try:
        return db.get_component(key)
    except Exception:
        return None
'''

QUIET_OTHER = '''
from pkg.client import Client


class Registry:
    def twice(self, key):
        return self.items[key]
'''

QUIET_ROUTES = '''
from pkg.store import asks_the_os, logs_the_traceback, narrow, says_something_else, twice


def routes(db, key, path):
    a = logs_the_traceback(db, key)
    if a is None:
        raise LookupError(f"{key} not found")
    b = narrow(db, key)
    if b is None:
        raise LookupError(f"{key} not found")
    c = says_something_else(db, key)
    if c is None:
        raise RuntimeError(f"could not load {key}")
    d = asks_the_os(path)
    if d is None:
        raise FileNotFoundError(f"{path} does not exist")
    e = twice(db, key)
    if e is None:
        raise LookupError(f"{key} not found")
    return a, b, c, d, e
'''


def test_nothing_handed_on_or_said_for_what_it_is_stays_quiet(project):
    """Quiet: a handler that logs the traceback; a narrow `except KeyError` (the lookup's own "not
    there"); a caller that says the load failed; a try that only asks the OS (`os.stat`); and a
    name with another definition in the project that does not answer so (which one is called is
    unknown)."""
    project.write({"pkg/__init__.py": "", "pkg/client.py": "class Client:\n    pass\n",
                   "pkg/store.py": "import os" + QUIET_STORE, "pkg/other.py": QUIET_OTHER,
                   "pkg/routes.py": QUIET_ROUTES})
    assert project.findings("pkg") == []


def test_nothing_read_as_not_found_control(project):
    """Control for the quiet cases: the same helpers with the caller that says "not found" for
    `says_something_else` are reported there, and only there."""
    routes = QUIET_ROUTES.replace('raise RuntimeError(f"could not load {key}")', 'raise LookupError(f"{key} not found")')
    project.write({"pkg/__init__.py": "", "pkg/client.py": "class Client:\n    pass\n",
                   "pkg/store.py": "import os" + QUIET_STORE, "pkg/other.py": QUIET_OTHER,
                   "pkg/routes.py": routes})
    line = _line_of(QUIET_STORE, "except Exception:", 2) + 1  # the `import os` line written before it
    assert project.findings("pkg") == [("pkg/store.py", "FC006", line)]


def test_nothing_read_as_not_found_through_the_module(project):
    """The caller reaches the helper through its module (`store.get_agent(…)` after `from pkg
    import store`), in a test of the call itself: the same helper, reported the same way."""
    caller = '''
from pkg import store


def require_agent(db, agent_id):
    if store.get_agent(db, agent_id) is None:
        raise LookupError(f"agent {agent_id} does not exist")
'''
    project.write({"pkg/__init__.py": "", "pkg/client.py": "class Client:\n    pass\n",
                   "pkg/store.py": STORE.split("class Buckets")[0], "pkg/admin.py": caller})
    assert project.findings("pkg") == [("pkg/store.py", "FC006", _line_of(STORE, "except Exception as exc:"))]


STORES = '''
from pkg.client import Client


class RemoteStore:
    def __init__(self, client: Client):
        self.client = client

    def _find(self, key):
        try:
            return self.client.fetch(key)
        except Exception:
            return None

    def load(self, key):
        item = self._find(key)
        if item is None:
            raise KeyError(f"{key} not found")
        return item


class MemoryStore:
    def __init__(self):
        self.items = {}

    def _find(self, key):
        return self.items.get(key)

    def load(self, key):
        item = self._find(key)
        if item is None:
            raise KeyError(f"{key} not found")
        return item
'''


def test_nothing_read_as_not_found_by_its_own_class(project):
    """`self._find(key)` in `RemoteStore.load` reaches `RemoteStore._find`, whatever other classes
    define under that name (`MemoryStore._find`, which lets a failure out): its "not found" is said
    of every failure of the remote fetch. Reported at that handler, and not at `MemoryStore`."""
    project.write({"pkg/__init__.py": "", "pkg/client.py": "class Client:\n    pass\n", "pkg/stores.py": STORES})
    assert project.findings("pkg") == [("pkg/stores.py", "FC006", _line_of(STORES, "except Exception:"))]


def test_a_class_s_caller_reaches_only_its_own_definition(project):
    """Control, before and after: when only `MemoryStore.load` says "not found" of `self._find`,
    which reaches `MemoryStore._find`, the swallowing `RemoteStore._find` is not joined to it."""
    quiet = STORES.replace('''        item = self._find(key)
        if item is None:
            raise KeyError(f"{key} not found")
        return item


class MemoryStore:''', '''        return self._find(key)


class MemoryStore:''')
    assert quiet != STORES
    project.write({"pkg/__init__.py": "", "pkg/client.py": "class Client:\n    pass\n", "pkg/stores.py": quiet})
    assert project.findings("pkg") == []


def test_nothing_read_as_not_found_in_the_else_arm(project):
    """`if agent is not None: … else: raise …("not found")` says the same as `if agent is None:`;
    an `else` that says only that the load failed stays quiet."""
    caller = '''
from pkg.store import get_agent


def show(db, agent_id):
    agent = get_agent(db, agent_id)
    if agent is not None:
        return agent
    else:
        raise KeyError(f"agent {agent_id} not found")
'''
    quiet = caller.replace('raise KeyError(f"agent {agent_id} not found")', 'raise RuntimeError("could not load it")')
    store = STORE.split("class Buckets")[0]
    project.write({"pkg/__init__.py": "", "pkg/client.py": "class Client:\n    pass\n",
                   "pkg/store.py": store, "pkg/show.py": quiet})
    assert project.findings("pkg") == []
    project.write({"pkg/show.py": caller})
    assert project.findings("pkg") == [("pkg/store.py", "FC006", _line_of(STORE, "except Exception as exc:"))]


def test_an_availability_check_read_as_not_installed_stays_quiet(project):
    """A check of whether a dependency is usable that answers False for any failure, and a caller
    that then says it is not installed (in words or by raising `ModuleNotFoundError`): to its user a
    dependency that does not work is not there, as for a try of nothing but imports. The same helper
    read as "not found" is reported (the control)."""
    helpers = '''
from pkg.versions import load_megatron


def megatron_available():
    try:
        return load_megatron("0.8.0")
    except Exception:
        return False
'''
    caller = '''
from pkg.checks import megatron_available


def plugin():
    if not megatron_available():
        raise ModuleNotFoundError("megatron-core")


def other():
    if megatron_available() is False:
        raise RuntimeError("Megatron is not installed, please install it")
'''
    versions = "def load_megatron(version):\n    return True\n"
    project.write({"pkg/__init__.py": "", "pkg/versions.py": versions, "pkg/checks.py": helpers, "pkg/use.py": caller})
    assert project.findings("pkg") == []
    project.write({"pkg/use.py": caller.replace('"megatron-core")', '"megatron-core not found")')
                   .replace("raise ModuleNotFoundError", "raise LookupError")})
    assert project.findings("pkg") == [("pkg/checks.py", "FC006", _line_of(helpers, "except Exception:"))]


def test_nothing_by_falling_off_the_end_read_as_not_found(project):
    """A handler that only logs, at the end of a function whose try returns a value, answers None
    as surely as `return None`; one followed by a `return` of something else does not."""
    store = '''
import logging

from pkg.client import Client

log = logging.getLogger(__name__)


def find_run(client: Client, run_id):
    try:
        return client.get_run(run_id)
    except Exception as exc:
        log.warning("could not load run %s: %s", run_id, exc)


def find_other(client: Client, run_id):
    try:
        return client.get_run(run_id)
    except Exception as exc:
        log.warning("could not load run %s: %s", run_id, exc)
    return client.placeholder(run_id)
'''
    caller = '''
from pkg.store import find_other, find_run


def require(client, run_id):
    run = find_run(client, run_id)
    if run is None:
        raise LookupError(f"Could not find run {run_id}")
    other = find_other(client, run_id)
    if other is None:
        raise LookupError(f"Could not find run {run_id}")
    return run, other
'''
    project.write({"pkg/__init__.py": "", "pkg/client.py": "class Client:\n    pass\n",
                   "pkg/store.py": store, "pkg/use.py": caller})
    assert project.findings("pkg") == [("pkg/store.py", "FC006", _line_of(store, "except Exception as exc:"))]


def test_a_loop_cut_short_stays_quiet_as_measured(project):
    """A broad handler that only logs and leaves a collecting loop (`except Exception: log.error(…);
    break`), whose collection the function then returns, hands back the first items as all of them.
    Built in session 44 (issue 23, principle 5) and measured: 3 tune findings judged blind (1 real,
    1 debatable, 1 false) and 1 held-out (debatable), no real labelled defect found on either split,
    so it was withheld (POLICIES.md), and the shape stays quiet."""
    project.write({"reader.py": '''
        import logging

        log = logging.getLogger(__name__)


        def read_messages(conn):
            messages = []
            for row in conn.execute("select text from message"):
                try:
                    messages.append(decode(row))
                except Exception as e:
                    log.error(f"could not read a message: {e}")
                    break
            return messages


        def decode(row):
            return row[0]
        '''})
    assert project.findings() == []


def test_a_method_of_a_class_named_as_a_judge_judges_by_its_own_name_as_measured(project):
    """Whether a function judges is read from its own name (`grade_*`, `score`), not from its
    class's: reading `FaithfulnessMetric.measure` as a judge (issue 23, principle 3: a name is
    evidence) was built in session 44 and measured: 3 tune findings judged blind (1 real, 2 false)
    and 15 held-out (4 real, 1 debatable, 10 false), so it was withheld (POLICIES.md). The parsed
    score of a method whose own name says nothing of judging stays no verdict, and its handler's
    `0.0` no fallback for one; the same parse in `score` is reported."""
    body = '''
        try:
            reply = self.client.ask(case.output)
            match = re.search(r"(\\d+)", reply)
            return int(match.group(1)) / 10
        except Exception:
            return 0.0
'''  # the same body under both names: only the method's name differs
    source = f"import re\n\n\nclass FaithfulnessMetric:\n    def measure(self, case):{body}\n    def score(self, case):{body}"
    project.write({"metric.py": source})
    assert project.findings() == [("metric.py", "FC003", _line_of(source, "return 0.0", 2))]



# -- principle 5: an error status's empty answer, measured and withheld -----------------------------

STATUS_EMPTY = '''
import requests


def agents_by_protocol(url, digest, limit):
    response = requests.post(url, json={"text": digest}, timeout=5)
    if response.status_code == 200:
        data = response.json()
        agents = [agent["address"] for agent in data if agent["status"] == "active"]
        return agents[:limit]
    return []


def search(url, criteria):
    response = requests.post(url, json=criteria, timeout=5)
    if response.status_code != 200:
        return {}
    return response.json()["agents"]


def is_running(http, url):
    resp = http.get(url)
    if resp.ok:
        return bool(resp.json().get("running", False))
    else:
        return False
'''


def test_an_error_status_answered_as_an_empty_reply_stays_quiet_as_measured(project):
    """The arm of every failing status returning an empty collection, False or zero where the
    function's other return gives what the reply holds (uagents' Almanac searches: a 500 reads as
    "no agent uses this protocol") was built in session 50 and measured: 6 tune findings judged
    blind (3 real, 1 debatable, 2 false; recall +3) but 13 held-out (2 real, 2 debatable, 9 false;
    recall +0), mostly an empty answer the caller retries or treats as "unknown" by design, so it
    was withheld (POLICIES.md). These shapes stay quiet, in each spelling of the status test."""
    assert _check(project, STATUS_EMPTY)[0] == []


def test_an_error_status_arm_that_repeats_a_verdict_is_still_reported(project):
    """The control beside it: an error status's `return False` where the other path returns a
    threshold compare of the reply's score is the verdict it repeats (the rule page's (c))."""
    source = '''
import requests


def flagged(url, text, threshold):
    response = requests.post(url, json={"text": text}, timeout=5)
    if response.status_code != 200:
        return False
    return response.json()["score"] >= threshold
'''
    assert _check(project, source)[0] == [("m.py", "FC003", _line_of(source, "return False"))]


# -- a record's field whose verdict another function decides (principles 2 and 4) ---------------

RESULTS = '''
class MetricResult:
    def __init__(self, name, score, passed, reason="", skipped=False, error="", meta=None):
        self.name, self.score, self.passed = name, score, passed
        self.reason, self.skipped, self.error, self.meta = reason, skipped, error, meta


class Status:
    def __init__(self, name, ok):
        self.name, self.ok = name, ok
'''

METRICS = '''
import json

from pkg.results import MetricResult, Status


class JudgeMetric:
    name = "judge"
    threshold = 0.5

    def __init__(self, client):
        self.client = client

    def measure(self, case):
        try:
            return self._judged(case)
        except Exception as e:
            return MetricResult(self.name, score=0.0, passed=False, reason=f"judge error: {e}")

    def _judged(self, case):
        reply = self.client.rate(case.question, case.output)
        score = float(reply["score"])
        return MetricResult(self.name, score=score, passed=score >= self.threshold, reason=reply["why"])


class NliMetric:
    name = "nli"

    def measure(self, case):
        try:
            return self._entailment(case)
        except Exception as e:
            return MetricResult(self.name, score=0.0, passed=False, reason=f"nli unavailable: {e}", skipped=True)


class FlaggedMetric(JudgeMetric):
    def measure(self, case):
        try:
            return self._judged(case)
        except Exception as e:
            return MetricResult(self.name, score=0.0, passed=False, reason=str(e), scoring_failed=True)


def is_json(output):
    try:
        json.loads(output)
        return MetricResult("json", score=1.0, passed=True)
    except ValueError:
        return MetricResult("json", score=0.0, passed=False)


def probe(service):
    try:
        service.ping()
    except Exception:
        return Status(service.name, ok=False)
    return None
'''

EVALUATE = '''
from pkg.results import MetricResult


def evaluate(metrics, cases):
    results = []
    for case in cases:
        for metric in metrics:
            try:
                results.append(metric.measure(case))
            except Exception as e:
                results.append(MetricResult(metric.name, score=0.0, passed=False, reason=f"metric error: {e}"))
    return results


def evaluate_marked(metrics, case):
    results = {}
    for metric in metrics:
        try:
            results[metric.name] = metric.measure(case)
        except Exception as e:
            results[metric.name] = MetricResult(metric.name, score=0.0, passed=False, error="metric_crashed")
    return results


def grade_with_rubric(judge, case):
    try:
        return judge.grade(case)
    except Exception as e:
        return MetricResult("rubric", score=0.0, passed=False, meta={"error": str(e)})
'''


def test_a_record_verdict_decided_in_another_function(project):
    """`MetricResult(passed=score >= self.threshold)` in `_judged` makes `passed` a verdict channel
    of `MetricResult`: the handlers that build the record with `passed=False` where their try
    returns another function's record (`self._judged(case)`, in the same file; `metric.measure(case)`,
    `judge.grade(case)`, in another module) record a crashed judge as a failing score, whatever the
    record says beside the verdict (`reason=f"…: {e}"`, `meta={"error": str(e)}`,
    `error="metric_crashed"`, `skipped=True`): a reader that folds `passed` counts it. Inferred across
    functions: `medium`. Quiet beside them: a record flagged by a field that names the failure
    (`scoring_failed=True`), a function whose try builds the record with a constant there
    (`is_json`: whether it raised is its verdict), and a field no code computes (`Status(ok=)`)."""
    project.write({"pkg/__init__.py": "", "pkg/results.py": RESULTS, "pkg/metrics.py": METRICS,
                   "pkg/evaluate.py": EVALUATE})
    result = project.run("check", "--format", "json", "pkg")
    assert result.returncode == 1, result.stderr
    assert sorted(findings_of(result)) == sorted([
        ("pkg/evaluate.py", "FC003", _line_of(EVALUATE, 'meta={"error": str(e)}')),
        ("pkg/evaluate.py", "FC003", _line_of(EVALUATE, 'reason=f"metric error: {e}"')),
        ("pkg/evaluate.py", "FC003", _line_of(EVALUATE, 'error="metric_crashed"')),
        ("pkg/metrics.py", "FC003", _line_of(METRICS, 'reason=f"judge error: {e}"')),
        ("pkg/metrics.py", "FC003", _line_of(METRICS, "skipped=True")),
    ])
    assert {row["confidence"] for row in json.loads(result.stdout)["findings"]} == {"medium"}


def test_a_record_no_verdict_reaches_stays_quiet(project):
    """Control, before and after: the same project with no computed verdict anywhere (the judge's
    `passed` a constant), and with the metrics' handlers returning None instead of a record:
    nothing to report."""
    project.write({"pkg/__init__.py": "", "pkg/results.py": RESULTS,
                   "pkg/metrics.py": METRICS.replace("passed=score >= self.threshold", "passed=True"),
                   "pkg/evaluate.py": EVALUATE})
    assert project.findings("pkg") == []
    metrics = METRICS.replace('return MetricResult(self.name, score=0.0, passed=False, reason=f"judge error: {e}")',
                              "return None") \
        .replace('return MetricResult(self.name, score=0.0, passed=False, reason=f"nli unavailable: {e}", skipped=True)',
                 "return None")
    project.write({"pkg/metrics.py": metrics, "pkg/evaluate.py": ""})
    assert project.findings("pkg") == []


READER = '''
def passed_names(results):
    """Crashed metrics are listed apart: a record with an error code is no failing score."""
    failed, crashed = [], []
    for r in results.values():
        if r.error:
            crashed.append((r.name, r.error))
        elif not r.passed:
            failed.append((r.name, r.reason))
    return failed, crashed
'''

APART = '''
def passed_names(results, crashes):
    failed = [r.name for r in results.values() if not r.passed]
    noted = [c.error for c in crashes]
    return failed, noted
'''


def test_a_record_whose_readers_sort_on_its_failure_code(project):
    """A fallback record that tells the failure by a code (`error="metric_crashed"`) is no verdict
    where a module reads its verdict field beside that code off one name (`r.error` … `r.passed`):
    the project's reader sorts the records by their failure before it counts the verdict (issue 23,
    principle 2). Still reported beside it: the records that tell the failure only in words built
    from the exception (`reason=f"metric error: {e}"`, which that reader shows but cannot sort on),
    or in a field no reader reads (`meta=`), or by a flag no failure word names (`skipped=True`)."""
    project.write({"pkg/__init__.py": "", "pkg/results.py": RESULTS, "pkg/metrics.py": METRICS,
                   "pkg/evaluate.py": EVALUATE, "pkg/report.py": READER})
    assert sorted(project.findings("pkg")) == sorted([
        ("pkg/evaluate.py", "FC003", _line_of(EVALUATE, 'meta={"error": str(e)}')),
        ("pkg/evaluate.py", "FC003", _line_of(EVALUATE, 'reason=f"metric error: {e}"')),
        ("pkg/metrics.py", "FC003", _line_of(METRICS, 'reason=f"judge error: {e}"')),
        ("pkg/metrics.py", "FC003", _line_of(METRICS, "skipped=True")),
    ])


CHOSEN = '''
from inspect_ai.scorer import CORRECT, INCORRECT, Score


def check_autoscaler(metric):
    if "requestRate" not in metric:
        return Score(value=INCORRECT, explanation="the scaler reads no request rate")
    return None  # nothing wrong found: the caller scores CORRECT


async def score_autoscaler(state, sandbox):
    try:
        result = await sandbox.exec(["kubectl", "get", "scaledobject", "-o", "yaml"])
        return check_autoscaler(result.stdout)
    except Exception as e:
        return Score(value=INCORRECT, explanation=f"could not read the scaler: {e}")
'''

MEMBER = '''
import json
from enum import Enum


class Grade(Enum):
    A = "a"
    B = "b"


def check_replicas(scaling_metric):
    if "minReplicas" not in scaling_metric:
        return Score(value=Grade.B, explanation="the scaler sets no replica floor")
    return None


async def score_replicas(state, sandbox):
    try:
        result = await sandbox.exec(["kubectl", "get", "hpa", "-o", "json"])
        return check_replicas(json.loads(result.stdout))
    except Exception as e:
        return Score(value=Grade.B, explanation=str(e))
'''

ALIKE = '''
class DebuggedApplication:
    def debug_application(self, environ, start_response):
        try:
            yield from self.app(environ, start_response)
        except Exception as e:
            html = render_traceback(e)
            response = Response(html, status=500, mimetype="text/html")
            yield from response(environ, start_response)

    def execute_command(self, request, command, frame):
        if not self.check_host_trust(request.environ):
            return SecurityError()
        return Response(frame.eval(command), mimetype="text/html")
'''


def test_a_record_field_a_compare_chooses_and_one_that_says_no_outcome(project):
    """A constant a compare chooses for a record's field is its verdict when it can say how work
    went: `Score(value=INCORRECT)` under `if "requestRate" not in metric:`, even where the check
    builds no other record (`return None` when nothing is wrong), and an enum member
    (`Score(value=Grade.B)`), a constant's name whatever its words. A catch-all that builds the record
    with `INCORRECT` records the crashed sandbox as a failing check. A plain string without a word of
    an outcome (`Response(…, mimetype="text/html")` after `if not trusted: return SecurityError()`)
    names how the record is built: the debugger's own error page with that mimetype fakes no verdict
    (issue 23: values that are no outcome at all)."""
    project.write({"pkg/__init__.py": "", "pkg/task.py": CHOSEN, "pkg/grades.py": MEMBER, "pkg/debug.py": ALIKE})
    assert sorted(project.findings("pkg")) == [
        ("pkg/grades.py", "FC003", _line_of(MEMBER, "explanation=str(e)")),
        ("pkg/task.py", "FC003", _line_of(CHOSEN, 'explanation=f"could not read the scaler: {e}"')),
    ]


def test_a_record_field_of_another_plain_string_stays_quiet(project):
    """Control, before and after: the error page's mimetype differs from the command's
    (`"text/plain"`): the handler repeats no value the guard's arm holds, so nothing is reported."""
    alike = ALIKE.replace('status=500, mimetype="text/html"', 'status=500, mimetype="text/plain"')
    project.write({"pkg/__init__.py": "", "pkg/debug.py": alike})
    assert project.findings("pkg") == []


def test_a_record_s_code_read_apart_from_its_verdict_excuses_nothing(project):
    """Control, before and after: a module that reads the error code off one name (`c.error`) and
    the verdict off another (`r.passed`) does not sort the records it counts: the record with
    `error="metric_crashed"` is still counted a failing score."""
    project.write({"pkg/__init__.py": "", "pkg/results.py": RESULTS, "pkg/metrics.py": METRICS,
                   "pkg/evaluate.py": EVALUATE, "pkg/report.py": APART})
    assert ("pkg/evaluate.py", "FC003", _line_of(EVALUATE, 'error="metric_crashed"')) in project.findings("pkg")


SCORERS = '''
import re

from inspect_ai.scorer import CORRECT, INCORRECT, Score


def exact(state, target):
    return Score(value=CORRECT if state.output.completion.strip() == target.text else INCORRECT,
                 explanation=state.output.completion)


def judged(state, target, judge):
    try:
        return judge.grade(state.output.completion, target.text)
    except Exception as e:
        return Score(value=INCORRECT, explanation=f"judge failed: {e}")


def pattern(state, target):
    try:
        found = re.compile(target.text).search(state.output.completion)
        return Score(value=CORRECT if found else INCORRECT, explanation=target.text)
    except re.error:
        return Score(value=INCORRECT, explanation="bad pattern")


def parses(state):
    try:
        int(state.output.completion)
        return Score(value=CORRECT)
    except ValueError:
        return Score(value=INCORRECT)


LLM_JUDGE = "llm_judge"
CODE = "code"


def judge_source(provider, supported):
    return Source(source_type=LLM_JUDGE if provider in supported else CODE)


def fallback_source(provider, resolver):
    try:
        return resolver.source_of(provider)
    except Exception:
        return Source(source_type=LLM_JUDGE)
'''


def test_a_record_verdict_decided_by_a_branch_elsewhere(project):
    """`Score(value=CORRECT if … == target.text else INCORRECT)` decides the field by a compare's
    branch; a handler elsewhere that builds `Score(value=INCORRECT)` around a judge's call
    (`judged`), or around a compile of the target where its try decides the field by a search
    rather than by a constant (`pattern`), records a failure as that verdict. Quiet: `parses`,
    whose try builds `Score(value=CORRECT)` itself: whether it raised is its verdict; and a field
    that holds a kind (`Source(source_type=)`), which a compare in a judging function chooses but
    nothing counts as an outcome."""
    project.write({"scorers.py": SCORERS})
    assert sorted(project.findings("scorers.py")) == [
        ("scorers.py", "FC003", _line_of(SCORERS, 'explanation=f"judge failed: {e}"')),
        ("scorers.py", "FC003", _line_of(SCORERS, 'explanation="bad pattern"')),
    ]


def test_sites_lists_a_record_field_s_verdict_and_its_fallbacks(project):
    """`failcode sites` shows both ends of a record's field joined across the project: the verdict
    `_judged` passes to `MetricResult(passed=)` and the constant a handler of another module
    passes there, so a reader can see why FC003 (h) reported it."""
    project.write({"pkg/__init__.py": "", "pkg/results.py": RESULTS, "pkg/metrics.py": METRICS,
                   "pkg/evaluate.py": EVALUATE})
    result = project.run("sites", "--format", "json", "pkg")
    assert result.returncode == 0, result.stderr
    rows = {(r["path"], r["line"], r["channel"], r["role"], r["value"]) for r in json.loads(result.stdout)["sites"]}
    assert ("pkg/metrics.py", _line_of(METRICS, "passed=score >= self.threshold"), "MetricResult(passed=)", "verdict",
            "score >= self.threshold") in rows
    assert ("pkg/evaluate.py", _line_of(EVALUATE, 'reason=f"metric error: {e}"'), "MetricResult(passed=)", "fallback",
            "False") in rows


# -- FC006 by cause: a raise chained to what it caught ------------------------------------------------
# `raise X("… not found") from exc` links the caught error for a traceback, but whoever catches X and
# prints it shows "not found" alone: the chain does not carry the truth the way `{exc}` in the message
# does (rule page, FC006 "By cause").

CHAINED = '''
class DatasetMissing(Exception):
    pass


def load_dataset(store, name):
    try:
        return store.get_dataset(name)
    except Exception as exc:
        raise DatasetMissing(f"dataset {name} does not exist"){chain}
'''


def test_a_cause_raised_from_what_it_caught_tells_its_catcher_only_the_cause(project):
    source = CHAINED.replace("{chain}", " from exc")
    found, _ = _check(project, source)
    assert found == [("m.py", "FC006", _line_of(source, "except Exception as exc:"))]


def test_a_cause_raised_unchained_is_reported_as_before(project):
    # control: reported before and after the chain stopped counting as carrying the caught error
    source = CHAINED.replace("{chain}", "")
    found, _ = _check(project, source)
    assert found == [("m.py", "FC006", _line_of(source, "except Exception as exc:"))]


def test_a_chained_cause_whose_message_carries_what_it_caught_stays_quiet(project):
    # control: quiet before and after; the message shows the caught error beside the cause
    source = CHAINED.replace('does not exist"){chain}', 'does not exist: {exc}") from exc')
    found, _ = _check(project, source)
    assert found == []


# -- FC006 by cause: a try that calls nothing fails where it looks up ----------------------------------
# `os.environ["KEY"]` under a catch-all that says "not found": with no call, import or re-raised object
# in the try, the lookup's own KeyError is the one failure there, and the cause is true.

LOOKUP_ONLY = '''
import os


def api_key():
    try:
        return {tried}
    except Exception:
        raise RuntimeError("Search API key not found; set SEARCH_API_KEY")
'''


def test_a_catch_all_around_nothing_but_a_lookup_says_not_found_truly(project):
    source = LOOKUP_ONLY.replace("{tried}", 'os.environ["SEARCH_API_KEY"]')
    found, _ = _check(project, source)
    assert found == []


@pytest.mark.parametrize("tried", [
    'client.fetch_secret("SEARCH_API_KEY")',  # a call of another party: it fails otherwise too
    '(vault / "search").read_text(encoding="utf-8")',  # a call no dotted name spells
])
def test_a_catch_all_around_a_call_still_says_one_cause_for_all(project, tried):
    # control: reported before and after the lookup-only try stopped being reported
    source = LOOKUP_ONLY.replace("{tried}", tried)
    found, _ = _check(project, source)
    assert found == [("m.py", "FC006", _line_of(source, "except Exception:"))]


def test_a_reraised_object_is_more_than_a_lookup(project):
    # control: `raise error` raises whatever was made elsewhere (issue 23, principle 6)
    source = '''
def relay(error):
    try:
        raise error
    except Exception:
        raise LookupError("record not found")
'''
    found, _ = _check(project, source)
    assert found == [("m.py", "FC006", _line_of(source, "except Exception:"))]


# -- FC006 by cause: a handler that keeps what it caught ------------------------------------------------
# `exception = e` beside `count = "not found"`, both returned: whoever reads the pair has the error
# itself, as a message carrying `{e}` would give it.

KEPT = '''
def physical_cores():
    exception = None
    try:
        count = count_cores()
        if count < 1:
            raise ValueError(f"found {count} cores")
    except Exception as e:
{kept}        count = "not found"
    return count, exception
'''


def test_a_cause_said_beside_the_caught_error_it_keeps_stays_quiet(project):
    source = KEPT.replace("{kept}", "        exception = e\n")
    found, _ = _check(project, source)
    assert found == []


def test_a_cause_said_without_keeping_the_caught_error_is_reported(project):
    # control: reported before and after the kept error started handing the truth on
    source = KEPT.replace("{kept}", "")
    found, _ = _check(project, source)
    assert found == [("m.py", "FC006", _line_of(source, "except Exception as e:"))]



# -- a command judged by its output, through the result another call returns ----------------------
# `c = cmd.run([...])` (our own wrapper around a process), `result = await sandbox.exec([...])`: a
# result the function asks nothing but what the command printed, and whose error stream decides how
# it ended. The exit status it carries is never asked (issue 23, principles 2 and 5).

COMMAND_RESULTS = '''
from . import cmd


def latest_tag():
    c = cmd.run(["git", "describe", "--abbrev=0", "--tags"])
    if c.err:
        return None
    return c.out.strip()


async def installed(sandbox, package):
    result = await sandbox.exec(["pip", "show", package])
    if not result.stderr:
        return True
    return False
'''


def test_a_result_of_another_call_judged_by_its_error_stream(project):
    found, _ = _check(project, COMMAND_RESULTS)
    assert found == [("m.py", "FC003", _line_of(COMMAND_RESULTS, "if c.err:")),
                     ("m.py", "FC003", _line_of(COMMAND_RESULTS, "if not result.stderr:"))]


COMMAND_RESULTS_QUIET = '''
from . import cmd, parse


def latest_tag():
    c = cmd.run(["git", "describe", "--abbrev=0", "--tags"])
    if c.return_code != 0 or c.err:
        return None
    return c.out.strip()


async def installed(sandbox, package):
    result = await sandbox.exec(["pip", "show", package])
    if not result.stderr and result.success:
        return True
    return False


def validated(text):
    outcome = parse.validate(text)
    if outcome.err:
        return False
    return True


async def passes(sandbox, script):
    result = await sandbox.exec(["python3", "-c", script])
    for line in result.stdout.splitlines():
        if line.startswith("RESULT:"):
            return line == "RESULT:ok", None
    if result.stderr:
        return False, f"execution error: {result.stderr[:500]}"
    return False, "no test results in the output"
'''


def test_a_result_asked_how_it_ended_or_whose_test_only_words_the_failure_stays_quiet(project):
    """Quiet: the result's status is read (`c.return_code`, `result.success`: any field beside its
    output may say how it ended); a lone `err` with no `out` beside it is a result type's failure
    itself, which is what to test; and an arm that returns what the return after it does only
    words the failure (`return False, …` either way)."""
    found, _ = _check(project, COMMAND_RESULTS_QUIET)
    assert found == []


def test_a_command_whose_stderr_test_only_words_the_failure_stays_quiet(project):
    """`if result.stderr: return False, f"…{result.stderr}"` before `return False, "…"`: the run
    fails either way, and stderr only chooses the words, as when every arm raises. The same
    function answering True on the way past the test is reported (the control)."""
    source = '''
import subprocess


def passes(script):
    result = subprocess.run(["python3", "-c", script], capture_output=True, text=True)
    if result.stderr:
        return False, f"execution error: {result.stderr[:500]}"
    return {answer}, "no test results in the output"
'''
    found, _ = _check(project, source.replace("{answer}", "False"))
    assert found == []
    found, _ = _check(project, source.replace("{answer}", "True"))
    assert found == [("m.py", "FC003", _line_of(source, "if result.stderr:"))]


# -- FC006 by cause: words a test chooses -----------------------------------------------------------
# `message += " Cloud storage is not available - install the cloud extra" if not LIBCLOUD else ""`:
# the handler says the cause only when its own test finds it true, as a statement under an `if` in
# the handler is a decision on what happened, not a word said of every failure.

CHOSEN_WORDS = '''
from .resolve import Resolver

try:
    import libcloud
    LIBCLOUD = True
except ImportError:
    LIBCLOUD = False


def create(backend, config):
    try:
        return Resolver()(backend)(config)
    except Exception as e:
        message = f"Unable to resolve cloud backend: {backend!r}."
        message += {hint}
        raise ImportError(message)
'''


def test_a_cause_said_only_where_a_test_chooses_it_stays_quiet(project):
    source = CHOSEN_WORDS.replace("{hint}",
                                  '" Cloud storage is not available - install the cloud extra" if not LIBCLOUD else ""')
    found, _ = _check(project, source)
    assert found == []


def test_a_cause_said_whatever_the_test_is_reported(project):
    # control: reported before and after words chosen by a test stopped counting as said
    source = CHOSEN_WORDS.replace("{hint}", '" Cloud storage is not available - install the cloud extra"')
    found, _ = _check(project, source)
    assert found == [("m.py", "FC006", _line_of(source, "except Exception as e:"))]


# -- FC003 (g): an answer framed in words is a message ------------------------------------------------
# `return f"Content from {url}:\n\n{text}"`: the function answers whoever reads it (a model, a person)
# in words of its own around what it read, and its `f"Error reading from {url}: {e}"` is told apart
# the same way; a function that returns what it read bare hands the error on as that output.

READ_PAGE = '''
import requests


def read_page(url):
    try:
        response = requests.get(url, timeout=30)
        response.raise_for_status()
        text = response.text
        return {answer}
    except Exception as e:
        return f"Error reading from {url}: {e}"
'''


def test_an_error_message_beside_an_answer_framed_in_words_stays_quiet(project):
    found, _ = _check(project, READ_PAGE.replace("{answer}", 'f"Content from {url}:\\n\\n{text}"'))
    assert found == []


def test_an_error_message_in_place_of_the_bare_answer_is_reported(project):
    # control: reported before and after framed answers stopped being reported
    source = READ_PAGE.replace("{answer}", "text")
    found, _ = _check(project, source)
    assert found == [("m.py", "FC003", _line_of(source, 'return f"Error reading from'))]


# -- a command's exit status: a negative one is no status a process gives ----------------------------
# `return -1, str(e)` where the try returns `proc.returncode, proc.stdout`: no process exits with a
# negative number of itself, so -1 is the harness's "did not run", not a status read as the
# command's; `return 1, str(e)` is one the command could have given.

EXIT_STATUS = '''
import subprocess


def run(command):
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=60)
        return proc.returncode, proc.stdout
    except Exception as e:
        return {status}, str(e)
'''


def test_a_negative_exit_status_in_a_handler_stays_quiet(project):
    found, _ = _check(project, EXIT_STATUS.replace("{status}", "-1"))
    assert found == []


def test_an_exit_status_a_command_could_give_in_a_handler_is_reported(project):
    # control: reported before and after negative statuses stopped being reported
    source = EXIT_STATUS.replace("{status}", "1")
    found, _ = _check(project, source)
    assert found == [("m.py", "FC003", _line_of(source, "return 1, str(e)"))]


# -- FC003 (h): a lookup's default for the score a reply holds ----------------------------------------
# `float(parsed.get("score", 0.0))` where `parsed` is what a judge or a service replied: the key names
# the verdict, so a reply without it (a truncated or off-format judge answer) is scored as the worst
# score, whatever the function is called (principle 3: a verdict by shape, not by the function's name).

SCORE_LOOKUP = '''
import json


class Judge:
    def _run_once(self, judge, prompt):
        response = judge(prompt)
        parsed = json.loads(response)
        score = {lookup}
        reason = parsed.get("reason", "")
        return score, reason
'''


@pytest.mark.parametrize("lookup", ['float(parsed.get("score", 0.0))', 'parsed.get("final_score", 0)',
                                    'bool(parsed.get("is_correct", False))'])
def test_a_lookup_default_for_the_score_a_reply_holds(project, lookup):
    source = SCORE_LOOKUP.replace("{lookup}", lookup)
    found, _ = _check(project, source)
    assert found == [("m.py", "FC003", _line_of(source, "score = "))]


def test_a_lookup_default_written_as_a_record_s_key(project):
    source = '''
import requests


def evaluate(url, item):
    reply = requests.post(url, json=item, timeout=30).json()
    return {"reward": reply.get("reward", 0.0), "reason": reply.get("reason", "")}
'''
    found, _ = _check(project, source)
    assert found == [("m.py", "FC003", _line_of(source, 'reply.get("reward", 0.0)'))]


@pytest.mark.parametrize("lookup", [
    'parsed.get("score")',  # no default: None is no score
    'float(parsed.get("score", -1))',  # a marker outside the score range
    'parsed.get("verify_audience", False)',  # a setting: its head word names no verdict
    'parsed.get("score_threshold", 0.0)',  # a bound a score is held against, not a score
    'options.get("score", 0.0)',  # a parameter: a caller's options are no reply
])
def test_a_lookup_default_that_is_no_stand_in_for_a_score_stays_quiet(project, lookup):
    source = SCORE_LOOKUP.replace("def _run_once(self, judge, prompt):", "def _run_once(self, judge, prompt, options):")
    found, _ = _check(project, source.replace("{lookup}", lookup))
    assert found == []


def test_a_no_match_default_for_a_parsed_score_is_still_reported(project):
    # control: reported before and after lookup defaults were read as stand-ins for a score
    source = '''
import re


def grade(judge, prompt):
    response = judge(prompt)
    match = re.search(r"Score: (\\d)", response)
    score = float(match.group(1)) if match else 0.0
    return score
'''
    found, _ = _check(project, source)
    assert found == [("m.py", "FC003", _line_of(source, "score = float("))]


OWN_PARSE = '''
import json


class Judge:
    def _parse(self, text):
        return json.loads(text)

    def measure(self, {given}):
        {bound}
        parsed = self._parse({source})
        return {{"score": parsed.get("score", 0.0), "reason": parsed.get("reason", "")}}
'''


def test_a_lookup_default_in_our_parse_of_a_judge_s_reply_is_reported(project):
    source = OWN_PARSE.format(given="judge, prompt", bound="response = judge(prompt)", source="response")
    found, _ = _check(project, source)
    assert found == [("m.py", "FC003", _line_of(source, 'parsed.get("score", 0.0)'))]


def test_a_lookup_default_in_a_record_our_code_made_stays_quiet(project):
    # `self._parse(doc)` of a stored row: our own code wrote what it holds
    source = OWN_PARSE.format(given="doc", bound="pass", source="doc")
    found, _ = _check(project, source)
    assert found == []


# -- FC003: a record whose words say its check did not run, while its verdict says it passed ---------
# `MetricResult(score=1.0, passed=True, reason="No latency data provided. Metric skipped.")`: the
# record admits the check never ran, yet whoever folds `passed` counts a pass (issue 23, principle 5:
# an empty input of a scoring function). The field is a verdict where our code fills it with a
# compare (`passed=score >= self.threshold`), in the same function or another.

METRIC_RESULT = '''
from dataclasses import dataclass


@dataclass
class MetricResult:
    score: float
    passed: bool
    reason: str = ""
    skipped: bool = False
'''

SKIPPED_METRIC = METRIC_RESULT + '''

class LatencyMetric:
    threshold = 0.5

    def measure(self, case):
        if case.latency_ms is None:
            return MetricResult({verdict}, reason={words}{flag})
        score = 1.0 if case.latency_ms <= case.budget_ms else 0.0
        return MetricResult(score=score, passed=score >= self.threshold)


class CostMetric:
    def measure(self, case):
        if case.cost_usd is None:
            return MetricResult({verdict}, reason={words}{flag})
        return MetricResult(score=case.cost_usd, passed=case.cost_usd <= case.budget_usd)
'''


def _skipped_metric(verdict="score=1.0, passed=True", words='"No latency data provided. Metric skipped."', flag=""):
    return SKIPPED_METRIC.replace("{verdict}", verdict).replace("{words}", words).replace("{flag}", flag)


@pytest.mark.parametrize("words", ['"No latency data provided. Metric skipped."', '"latency not provided"',
                                   'f"{case.name}: not evaluated"'])
def test_a_record_that_says_its_check_did_not_run_but_passed(project, words):
    source = _skipped_metric(words=words)
    found, rows = _check(project, source)
    assert found == [("m.py", "FC003", _line_of(source, "passed=True")),
                     ("m.py", "FC003", _line_of(source, "passed=True", 2))]
    assert "a check that did not run reads as a pass" in rows[0]["message"]


@pytest.mark.parametrize("verdict,words,flag", [
    ("score=1.0, passed=True", '"No latency data provided. Metric skipped."', ", skipped=True"),  # a flag to sort on
    ("score=1.0, passed=True", '"skipped"', ""),  # the words are the status itself
    ("score=0.0, passed=False", '"No trace provided: the agent must record its reasoning."', ""),  # fails it
    ("score=1.0, passed=True", '"within the latency budget"', ""),  # words of a genuine pass
])
def test_a_record_that_marks_its_skip_or_does_not_pass_stays_quiet(project, verdict, words, flag):
    found, _ = _check(project, _skipped_metric(verdict, words, flag))
    assert found == []


def test_a_skipped_step_whose_field_no_compare_fills_stays_quiet(project):
    # a workflow step's own success: nothing of ours fills `success` with a compare, so it is no verdict
    source = '''
from dataclasses import dataclass


@dataclass
class StepOutput:
    success: bool
    content: str


def run_condition(step, inputs):
    if not step.evaluate(inputs):
        return StepOutput(success=True, content="Condition not met - skipped")
    return StepOutput(success=True, content=step.run(inputs))
'''
    found, _ = _check(project, source)
    assert found == []


def test_a_crashed_judge_s_failing_record_is_still_reported(project):
    # control: reported before and after records that say their check did not run were read
    source = METRIC_RESULT + '''

class JudgeMetric:
    threshold = 0.5

    def measure(self, case):
        try:
            score = float(self.judge(case))
            return MetricResult(score=score, passed=score >= self.threshold)
        except Exception:
            return MetricResult(score=0.0, passed=False)
'''
    found, _ = _check(project, source)
    assert found == [("m.py", "FC003", _line_of(source, "passed=False"))]
