"""Configuration and command-line semantics as ruff has them, through the real CLI on temp projects:
the command line's rule selection over the configuration's, the closest configuration for each file
(with `extend`), file-level `noqa` with codes, `--statistics` as JSON, and configuration errors that
name their file. Expected findings come from the contract: GOOD's FC006 is at line 5, column 5."""

from __future__ import annotations

import json

import pytest

from conftest import GOOD, failcode, findings_of

FC006 = ("FC006", 5)


def _rules(result) -> list[tuple[str, str, int]]:
    assert result.returncode in (0, 1), result.stderr
    return sorted(findings_of(result))


# -- item 6: the command line's selection is the last layer ------------------------------------

def test_cli_select_overrides_the_configured_ignore(project):
    project.write({"pyproject.toml": '[tool.failcode]\nignore = ["FC006"]\n', "a.py": GOOD})
    assert project.findings() == []
    assert project.findings("--select", "FC006") == [("a.py", *FC006)]


def test_cli_extend_select_brings_back_an_ignored_rule(project):
    project.write({"pyproject.toml": '[tool.failcode]\nignore = ["FC006"]\n', "a.py": GOOD})
    assert project.findings("--extend-select", "FC006") == [("a.py", *FC006)]


def test_cli_select_replaces_the_configured_select_and_extend_select(project):
    project.write({"pyproject.toml": '[tool.failcode]\nselect = ["FC001"]\nextend-select = ["FC006"]\n',
                   "a.py": GOOD})
    assert project.findings() == [("a.py", *FC006)]
    assert project.findings("--select", "FC001") == []


def test_more_specific_selector_wins_within_a_layer(project):
    project.write({"a.py": GOOD})
    assert project.findings("--select", "FC", "--ignore", "FC00") == []
    assert project.findings("--ignore", "FC", "--select", "FC006") == [("a.py", *FC006)]
    # the same specificity: ignore wins
    assert project.findings("--select", "FC006", "--ignore", "FC006") == []


def test_cli_ignore_still_applies_over_the_configured_select(project):
    project.write({"pyproject.toml": '[tool.failcode]\nselect = ["FC006"]\n', "a.py": GOOD})
    assert project.findings("--ignore", "FC006") == []


# -- item 7: the closest configuration for each file, whatever the path given --------------------

@pytest.fixture
def nested(project):
    """The root ignores FC006; `sub/` has a configuration of its own that does not."""
    return project.write({
        "pyproject.toml": '[tool.failcode]\nignore = ["FC006"]\n',
        "a.py": GOOD,
        "sub/pyproject.toml": '[tool.failcode]\nextend-select = ["FC008"]\n',
        "sub/b.py": GOOD,
        "plain/pyproject.toml": '[project]\nname = "plain"\n',  # no [tool.failcode]: the root's applies
        "plain/c.py": GOOD,
    })


def test_each_file_gets_its_closest_configuration(nested):
    assert nested.findings() == [("sub/b.py", *FC006)]


@pytest.mark.parametrize("args, cwd, expected", [
    ((".",), "", [("sub/b.py", *FC006)]),
    (("sub",), "", [("sub/b.py", *FC006)]),
    (("sub/b.py", "a.py", "plain/c.py"), "", [("sub/b.py", *FC006)]),
    ((".",), "sub", [("b.py", *FC006)]),
    (("../a.py",), "sub", []),
    (("c.py",), "plain", []),
])
def test_the_configuration_does_not_depend_on_the_path_given(nested, args, cwd, expected):
    result = failcode("check", "--format", "json", *args, cwd=nested.root / cwd)
    assert _rules(result) == expected


def test_extend_inherits_and_layers_the_base_selection(project):
    project.write({
        "pyproject.toml": '[tool.failcode]\nignore = ["FC006"]\nextend-exclude = ["gen"]\n',
        "a.py": GOOD,
        "sub/pyproject.toml": '[tool.failcode]\nextend = "../pyproject.toml"\nextend-exclude = ["old.py"]\n',
        "sub/b.py": GOOD, "sub/gen/g.py": GOOD, "sub/old.py": GOOD,
        "other/pyproject.toml": '[tool.failcode]\nextend = "../pyproject.toml"\nextend-select = ["FC006"]\n',
        "other/c.py": GOOD, "other/gen/g.py": GOOD,
    })
    # sub keeps the base's ignore and both excludes; other's own layer brings FC006 back, and the
    # base's exclude still holds there
    assert project.findings() == [("other/c.py", *FC006)]


def test_a_settings_key_of_the_extending_file_wins(project):
    project.write({
        "pyproject.toml": '[tool.failcode]\ncode-pattern = "^X$"\n', "a.py": GOOD,
        "sub/pyproject.toml": '[tool.failcode]\nextend = "../pyproject.toml"\ncode-pattern = "^[A-Z]+(_[A-Z]+)+$"\n',
        "sub/b.py": GOOD,
    })
    # under the base's pattern PROVIDER_FAILED is no code, so a.py is quiet; sub's own pattern wins
    assert project.findings() == [("sub/b.py", *FC006)]


def test_an_extend_cycle_is_a_configuration_error(project):
    project.write({"pyproject.toml": '[tool.failcode]\nextend = "sub/pyproject.toml"\n',
                   "sub/pyproject.toml": '[tool.failcode]\nextend = "../pyproject.toml"\n', "sub/b.py": GOOD})
    result = project.run("check")
    assert result.returncode == 2
    assert "goes round in a circle" in result.stderr and "pyproject.toml" in result.stderr


@pytest.mark.parametrize("args", [(".",), ("sub",), ("sub/b.py",), ("sub/b.py", "a.py")])
def test_a_broken_nested_configuration_is_fatal_whatever_the_path(project, args):
    project.write({"pyproject.toml": '[tool.failcode]\n', "a.py": GOOD,
                   "sub/pyproject.toml": '[tool.failcode]\nselect = 5\n', "sub/b.py": GOOD})
    result = project.run("check", *args)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert result.stderr.startswith("failcode: error: sub/pyproject.toml: `tool.failcode.select` must be a list")


def test_a_file_outside_the_broken_configuration_is_checked(project):
    project.write({"a.py": GOOD, "sub/pyproject.toml": '[tool.failcode]\nselect = 5\n', "sub/b.py": GOOD})
    assert project.findings("a.py") == [("a.py", *FC006)]


def test_config_option_governs_every_file(nested):
    (nested.root / "ci.toml").write_text('select = ["FC006"]\n')
    assert nested.findings("--config", "ci.toml") == [("a.py", *FC006), ("plain/c.py", *FC006),
                                                      ("sub/b.py", *FC006)]


# -- item 8: file-level noqa with codes --------------------------------------------------------

@pytest.mark.parametrize("header, quiet", [
    ("# failcode: noqa: FC006\n", True),
    ("# failcode: noqa: FC001, FC006\n", True),
    ("# failcode: noqa: FC001\n", False),
    ("# failcode: noqa\n", True),
    ("# failcode: noqa: FC001\n# failcode: noqa: FC006\n", True),
    ("x = 1  # failcode: noqa\n", False),  # only on a line of its own
])
def test_file_level_noqa_with_codes(project, header, quiet):
    lines = GOOD.lstrip("\n")
    project.write({"a.py": header + lines})
    shift = header.count("\n")
    assert project.findings() == ([] if quiet else [("a.py", "FC006", 5 + shift)])


# -- item 9: statistics as JSON ----------------------------------------------------------------

def test_statistics_as_json(project):
    project.write({"a.py": GOOD, "b.py": GOOD})
    result = project.run("check", "--statistics", "--format", "json")
    assert result.returncode == 1
    assert json.loads(result.stdout) == [{"code": "FC006", "name": "catch-all-blames-party", "count": 2}]
    text = project.run("check", "--statistics")
    assert text.stdout.splitlines()[0].split() == ["2", "FC006", "catch-all-blames-party"]


# -- item 12: configuration errors name their file --------------------------------------------

def test_a_type_error_names_the_file(project):
    project.write({"pyproject.toml": '[tool.failcode]\nregistry = 5\n', "a.py": GOOD})
    result = project.run("check")
    assert result.returncode == 2
    assert result.stderr.startswith("failcode: error: pyproject.toml: `tool.failcode.registry` must be a list")


def test_an_unknown_configured_rule_names_the_file(project):
    project.write({"pyproject.toml": '[tool.failcode]\nignore = ["FC999"]\n', "a.py": GOOD})
    result = project.run("check")
    assert result.returncode == 2
    assert result.stderr.startswith("failcode: error: pyproject.toml: tool.failcode.ignore: unknown rule `FC999`")


def test_a_config_file_without_a_failcode_table(project):
    project.write({"other.toml": '[tool.black]\nline-length = 100\n', "a.py": GOOD})
    result = project.run("check", "--config", "other.toml")
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "failcode: error: other.toml: no [tool.failcode] table (a pyproject.toml keeps failcode's settings there)")
    assert "unknown key" not in result.stderr


def test_a_dedicated_config_file_keeps_its_keys_at_top_level(project):
    project.write({"failcode.toml": 'ignore = ["FC006"]\n', "a.py": GOOD})
    assert project.findings("--config", "failcode.toml") == []
