"""`failcode check --add-noqa` through the real CLI: which lines change and how, what it keeps
(comments, noqa lists, encoding, BOM, newlines), what it refuses to touch, and that a second run
changes nothing while `failcode check` afterwards is clean.

Expected findings: conftest.GOOD has FC006 at line 5 (`except Exception:`). GRADER records the
unregistered ANSWER_WRONGG twice (to `problems`, so its registry leaves GOOD's `failures` alone): FC001 at lines 8 and 11, and FC003 at line 8 (the except path
records what the genuine path records at line 11).
"""

from __future__ import annotations

from conftest import GOOD

GRADER = '''
FAILURE_CODES = ["PARSE_FAILED", "ANSWER_WRONG"]


def grade(problems, expected, got):
    try:
        same = normalise(expected) == normalise(got)
    except Exception:
        problems.add("ANSWER_WRONGG")
        return
    if not same:
        problems.add("ANSWER_WRONGG")
    problems.add("PARSE_FAILED")
'''


def _lines(project, name: str) -> list[str]:
    return (project.root / name).read_text(encoding="utf-8").splitlines()


def _added(directives: int, files: int) -> str:
    return f"failcode: added {directives} noqa directive(s) to {files} file(s)\n"


def test_adds_every_reported_code_and_check_is_clean_after(project):
    project.write({"a.py": GOOD, "grader.py": GRADER})
    before = {name: _lines(project, name) for name in ("a.py", "grader.py")}
    result = project.run("check", "--add-noqa")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", _added(3, 2))
    assert _lines(project, "a.py") == before["a.py"][:4] + ["    except Exception:  # noqa: FC006"] + before["a.py"][5:]
    grader = _lines(project, "grader.py")
    assert grader[7] == '        problems.add("ANSWER_WRONGG")  # noqa: FC001, FC003'
    assert grader[10] == '        problems.add("ANSWER_WRONGG")  # noqa: FC001'
    assert [line for i, line in enumerate(grader) if i not in (7, 10)] == \
        [line for i, line in enumerate(before["grader.py"]) if i not in (7, 10)]
    after = project.run("check")
    assert (after.returncode, after.stdout) == (0, "2 files checked, 0 findings.\n")


def test_second_run_changes_nothing(project):
    project.write({"a.py": GOOD, "grader.py": GRADER})
    assert project.run("check", "--add-noqa").returncode == 0
    edited = {name: (project.root / name).read_bytes() for name in ("a.py", "grader.py")}
    again = project.run("check", "--add-noqa")
    assert (again.returncode, again.stderr) == (0, _added(0, 0))
    assert {name: (project.root / name).read_bytes() for name in edited} == edited


def test_keeps_an_existing_comment(project):
    project.write({"a.py": GOOD.replace("except Exception:", "except Exception:  # keep me")})
    assert project.run("check", "--add-noqa").returncode == 0
    assert _lines(project, "a.py")[4] == "    except Exception:  # keep me  # noqa: FC006"


def test_adds_to_an_existing_noqa_list(project):
    grader = GRADER.replace('"ANSWER_WRONGG")\n        return', '"ANSWER_WRONGG")  # noqa: FC001\n        return')
    assert grader.count("# noqa: FC001") == 1  # on line 8, which also has FC003
    project.write({"a.py": GOOD.replace("except Exception:", "except Exception:  # noqa: E722"), "grader.py": grader})
    result = project.run("check", "--add-noqa")
    assert (result.returncode, result.stderr) == (0, _added(3, 2))
    assert _lines(project, "a.py")[4] == "    except Exception:  # noqa: E722, FC006"
    assert _lines(project, "grader.py")[7] == '        problems.add("ANSWER_WRONGG")  # noqa: FC001, FC003'


def test_bare_noqa_is_left_alone(project):
    project.write({"a.py": GOOD.replace("except Exception:", "except Exception:  # noqa")})
    before = (project.root / "a.py").read_bytes()
    result = project.run("check", "--add-noqa")
    assert (result.returncode, result.stderr) == (0, _added(0, 0))
    assert (project.root / "a.py").read_bytes() == before


UNREGISTERED = '''
FAILURE_CODES = ["A_FAILED", "B_FAILED"]


def run(failures):
    failures.add("A_FAILED")
    failures.add("NOT_REGISTERED"); note = 1
'''


def test_line_ending_inside_a_multiline_string_is_skipped_and_named(project):
    """FC001 at line 6, whose end lies inside a triple-quoted string: a comment there would be text."""
    project.write({"a.py": UNREGISTERED.replace("note = 1", 'note = """first\n    second"""')})
    before = (project.root / "a.py").read_bytes()
    result = project.run("check", "--add-noqa")
    assert result.returncode == 0
    assert result.stderr == ("failcode: noqa not added at a.py:6: the line ends inside a multi-line string or "
                             "continues on the next\n" + _added(0, 0))
    assert (project.root / "a.py").read_bytes() == before
    still = project.run("check")
    assert still.returncode == 1 and still.stdout.startswith("a.py:6:18: FC001 ")


def test_same_finding_without_the_string_is_silenced(project):
    project.write({"a.py": UNREGISTERED})
    assert project.run("check", "--add-noqa").stderr == _added(1, 1)
    assert _lines(project, "a.py")[5] == '    failures.add("NOT_REGISTERED"); note = 1  # noqa: FC001'


def test_keeps_crlf_bom_and_encoding(project):
    crlf = "\ufeff" + GOOD.lstrip("\n").replace("\n", "\r\n")
    (project.root / "crlf.py").write_bytes(crlf.encode("utf-8"))
    latin = "# -*- coding: latin-1 -*-\n# café\n" + GOOD.lstrip("\n")
    (project.root / "latin.py").write_bytes(latin.encode("latin-1"))
    result = project.run("check", "--add-noqa")
    assert (result.returncode, result.stderr) == (0, _added(2, 2))
    assert (project.root / "crlf.py").read_bytes() == crlf.replace(
        "except Exception:\r\n", "except Exception:  # noqa: FC006\r\n").encode("utf-8")
    assert (project.root / "latin.py").read_bytes() == latin.replace(
        "except Exception:\n", "except Exception:  # noqa: FC006\n").encode("latin-1")


def test_files_that_cannot_be_checked_keep_exit_3(project):
    project.write({"a.py": GOOD, "broken.py": "def broken(:\n"})
    result = project.run("check", "--add-noqa")
    assert result.returncode == 3
    assert result.stderr == "broken.py:1:12: E999 SyntaxError: invalid syntax\n" + _added(1, 1)
    assert _lines(project, "a.py")[4] == "    except Exception:  # noqa: FC006"


def test_standard_input_cannot_be_edited(project):
    result = project.run("check", "--add-noqa", "-", input=GOOD)
    assert result.returncode == 2
    assert "--add-noqa" in result.stderr
