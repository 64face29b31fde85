"""The pre-screen never hides a fact: a file it keeps from LibCST gets exactly the facts that full
extraction gives it (module constants and noqa included), on a corpus of real source — examples/,
the tests' fixture sources, the rule pages' examples, a spread of the stdlib, and the shapes below,
one per way code becomes a fact. And it does skip ordinary code, or it would be worth nothing.
"""

from __future__ import annotations

import ast
import dataclasses
import random
import re
import sys

import pytest

from corpus import examples, fixture_sources, stdlib
from failcode.config import Settings, Sinks
from failcode.facts import InputError, extract_file, screen
from differential import assert_screen_sound as _check, screened as _screened

sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))

# Each source holds (at least) one fact, reached by a different path through the extractor.
SHAPES = {
    "call_site": "def f(run):\n    run.failures.add('PARSE_FAILED')\n",
    "call_site_subscript_key": "def f(r):\n    r['failures'].append(\n        'PARSE_FAILED')\n",
    "call_site_one_tuple_key": "def f(r):\n    r['failures',].append('PARSE_FAILED')\n",
    "call_site_insert_and_extend": "def f():\n    errors.insert(0, CODE_X)\n    reasons.extend(['A_B', B.C_D])\n",
    "call_site_ifexp_boolop": "def f(ok):\n    problems.add('A_B' if ok else x or 'C_D')\n",
    "call_site_member_value": "def f():\n    failures.append(FailureCode.PARSE_FAILED.value)\n",
    "keyword_site": "def f():\n    return Outcome(\n        status='PROVIDER_FAILED')\n",
    "keyword_site_in_lambda": "def f():\n    g = lambda: Result(reason=REASON_X)\n",
    "keyword_site_in_default": "def f():\n    def g(x=Result(verdict='REJECTED_X')):\n        pass\n",
    "assign_site": "def f(self):\n    self.status = 'RUN_FAILED'\n",
    "assign_site_annotated": "def f():\n    verdict: str = 'REJECT_ALL'\n",
    "assign_site_subscript": "def f(result):\n    result['outcome'] = 'TIMED_OUT'\n",
    "handler_return": "def f():\n    try:\n        g()\n    except ValueError:\n        return 'BAD_INPUT'\n",
    "handler_return_nested_try": "def f():\n    try:\n        g()\n    except ValueError:\n        try:\n            h()\n        finally:\n            return 'BAD_INPUT'\n",
    "all_code_returns": "def f(x):\n    if x:\n        return 'A_FAILED'\n    return ERRORS.B\n",
    "keyword_site_list": "def f():\n    return R(failure_codes=['A_B', CODE_X])\n",
    "dict_key_site_list": "def f():\n    return {'failure_codes': ('A_B',)}\n",
    "filter_by_registry_table": "def f(rs):\n    counts = dict.fromkeys(FAILURE_CODES, 0)\n    for r in rs:\n"
                                "        if r in counts:\n            counts[r] += 1\n",
    "typed_returns": "from pkg.codes import Outcome\ndef f(x) -> 'Outcome':\n    return 'passed'\n",
    "typed_variable": "def f(x):\n    result: Outcome = g(x)\n    return result\n",
    "typed_mapping": "def f(reason: StopReason) -> RunOutcome:\n    return g(reason)\n",
    "literal_alias": "from typing import Literal\nGrade = Literal['correct', 'wrong']\n",
    "plain_typed_returns": "def f(x) -> Optional[Grade]:\n    return 'correct'\n",
    "plain_typed_variable": "def f(x):\n    result: Grade = 'correct' if x else g(x)\n    return result\n",
    "all_code_returns_ifexp": "def f(x):\n    return 'A_FAILED' if x else 'B_FAILED'\n",
    "raise_code": "def f():\n    raise ToolError(\n        code='TOOL_FAILED')\n",
    "raise_constant": "def f():\n    raise OSError(errno.ENOENT, 'gone')\n",
    "raise_starred": "def f():\n    raise ToolError(*CODES_X)\n",
    "try_block": "def f():\n    try:\n        data = json.loads(s)\n    except Exception:\n        failures.add('PARSE_FAILED')\n",
    "test_compare": "def f(run):\n    if run.status in ('A_B', 'C_D'):\n        pass\n",
    "test_compare_swapped": "def f(verdict):\n    return 'ok' == verdict\n",
    "test_compare_in_header": "def f(status):\n    while status != 'DONE_X':\n        pass\n",
    "test_match": "def f(outcome):\n    match outcome:\n        case 'A_B':\n            pass\n",
    "registry_list": "FAILURE_CODES = ['A_B', 'C_D']\n",
    "registry_inside_if": "import sys\nif sys.version_info > (3,):\n    REASONS: tuple = ('A_B', 'C_D')\n",
    "registry_frozenset": "ERRORS = frozenset({'A_B', 'C_D'})\n",
    "code_collection": "ORDER = ('READ_FAILED', 'ANSWER_MISMATCH')\n",
    "code_collection_call": "ORDER = tuple(['READ_FAILED', 'ANSWER_MISMATCH'])\n",
    "registry_of_constants": "A_B = 'A_B'\nC_D = 'C_D'\nFAILURE_CODES = (A_B, C_D)\n",
    "collection_of_constants": "A_B = 'A_B'\nC_D = 'C_D'\nORDER = frozenset({A_B, C_D})\n",
    "registry_of_other_names": "FAILURE_CODES = (a, b)\n",
    "registry_dict": "FAILURE_REASONS = {'A_B': 'a', 'C_D': 'c'}\n",
    "registry_literal": "from typing import Literal\nFailureReason = Literal['bad_input', 'timed_out']\n",
    "registry_enum": "import enum\nclass FailureCode(enum.Enum):\n    A_B = 'A_B'\n    C_D = enum.auto()\n",
    "registry_plain_class": "class Reasons:\n    TIMEOUT = 'TIMED_OUT'\n",
    "filter_comprehension": "def f(reasons):\n    return [r for r in reasons if r in ORDER_OF_FAILURES]\n",
    "filter_module_level": "KEPT = {r for r in found if r in set(FAILURE_ORDER)}\n",
    "filter_call": "def f(x):\n    return list(filter(lambda r: r in FAILURE_ORDER, x))\n",
    "filter_contains": "def f(x):\n    return filter(FAILURE_ORDER.__contains__, x)\n",
    "filter_intersection": "def f(x):\n    return set(x).intersection(ERROR_CODES)\n",
    "filter_bitand": "def f(x):\n    return set(x) & set(FAILURE_CODES.keys())\n",
    "filter_for_loop": "def f(x):\n    out = []\n    for r in x:\n        if r in FAILURE_CODES:\n            out.append(r)\n    return out\n",
    "filter_through_import_alias": "from codes import FAILURE_CODES as KNOWN\ndef f(x):\n    return [r for r in x if r in KNOWN]\n",
    "filter_through_module_alias": "import pkg.errors as E\ndef f(x):\n    return [r for r in x if r in E]\n",
    "constant_shadowing_import": "from elsewhere import PARSE\nPARSE = 'PARSE_FAILED'\n",
    "site_crlf": "def f():\r\n    x = 1\r\n    failures.add('A_B')\r\n",
    "site_lone_cr": "def f():\r    x = 1\r    failures.add('A_B')\r",
    "site_in_decorator": "def f():\n    @register(\n        status='A_B')\n    def g():\n        pass\n",
    "site_in_with_header": "def f():\n    with ctx(reason='A_B'):\n        pass\n",
    "site_in_except_type": "def f():\n    try:\n        pass\n    except pick(failure='A_B'):\n        pass\n",
    # a return or variable typed with a registry, however the annotation spells it
    "annotation_optional_alias": "from typing import Optional as Opt\ndef f() -> Opt[FailureReason]:\n    return x\n",
    "annotation_optional_dotted": "import typing\ndef f() -> typing.Optional[codes.FailureReason]:\n    return x\n",
    "annotation_or_none": "def f(x):\n    result: None | FailureReason = x\n",
    "annotation_optional_one_element": "def f() -> Optional[FailureReason,]:\n    return x\n",
    "annotation_string": "def f() -> 'codes.FailureReason':\n    return x\n",
    "site_on_normalized_name": "def f():\n    \uff58errors.append('A_B')\n",  # fullwidth x: `xerrors` to ast
    "site_on_normalized_inside": "def f():\n    run_er\uff52ors.append('A_B')\n",  # fullwidth r mid-word
    # a key whose value is not its text: no byte scan sees `status` (issue: the screen lost these)
    "dict_key_concatenated": "def f():\n    return {'sta' 'tus': 'TIMED_OUT'}\n",
    "dict_key_concatenated_across_lines": "def f():\n    return {('sta'\n             'tus'): 'TIMED_OUT'}\n",
    "dict_key_escaped": "def f():\n    return {'st\\x61tus': 'TIMED_OUT'}\n",
    "dict_key_error_frame": "def f():\n    return {\n        'error': {\n            'type': 'TIMED_OUT'}}\n",
    "subscript_key_escaped": "def f(r):\n    r['f\\u0061ilures'].append('PARSE_FAILED')\n",
    "site_in_nested_class_method": "class A:\n    class B:\n        def f(self):\n            self.errors.append('A_B')\n",
}

ORDINARY = '''\
"""A module that records no failure codes."""
import logging
import os

LOG = logging.getLogger(__name__)
DEFAULT_NAME = "config.toml"  # a constant: kept, without LibCST
__all__ = ["load"]


class Loader:
    retries = 3

    def load(self, path):
        try:
            with open(path) as handle:
                return handle.read()
        except OSError as exc:
            LOG.warning("cannot read %s: %s", path, exc)
            raise ValueError(f"bad path {path}") from exc

    def names(self, items):
        return [item.name for item in items if item.name in self.known]


def walk(top):  # noqa: C901
    for root, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        yield from files
'''


@pytest.mark.slow
def test_screen_never_skips_a_fact_on_the_corpus():
    ours = examples() + fixture_sources() + [(k, v.encode()) for k, v in SHAPES.items()]
    _, _, with_facts = _check(ours, Settings())
    assert with_facts >= 60  # the corpus exercises the invariant
    files, skipped, _ = _check(stdlib(limit=160), Settings())
    assert skipped >= files * 3 // 4  # and on ordinary code the screen is worth having


@pytest.mark.slow
def test_screen_never_skips_a_fact_on_the_whole_stdlib():
    files, skipped, _ = _check(stdlib(), Settings())
    assert skipped >= files * 3 // 4


def test_screen_follows_the_configured_sinks_and_registries():
    settings = Settings(
        registry=("pkg/codes.py:ORDER",),
        sinks=Sinks(receivers=("bad",), methods=("record",), keywords=("label",), names=("mark",)),
    )
    custom = {
        "configured_registry": "ORDER = ['A_B', 'C_D']\n",
        "configured_filter": "def f(x):\n    return [r for r in x if r in ORDER]\n",
        "custom_receiver": "def f(run):\n    run.bad.record('A_B')\n",
        "custom_keyword": "def f():\n    g(label='A_B')\n",
        "custom_name": "def f():\n    run_mark = 'A_B'\n",
    }
    corpus = examples() + [(k, v.encode()) for k, v in {**SHAPES, **custom}.items()]
    corpus.append(("failure_kind_name", b"def f():\n    error_kind = 'A_B'\n"))  # a fact only by the defaults
    _check(corpus, settings)
    screening = screen.Screen(settings)
    for name, source in custom.items():
        tree = ast.parse(source)
        assert screening.facts(source.encode(), source, tree, name, "pkg.mod") is None, name


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_each_fact_shape_goes_to_libcst(name):
    source = SHAPES[name]
    skipped, _ = _screened(source.encode(), name, Settings())
    assert skipped is None


def test_ordinary_code_is_skipped_with_its_constants_and_noqa():
    skipped, full = _screened(ORDINARY.encode(), "ordinary.py", Settings())
    assert skipped is not None
    assert [(c.qualname, c.value) for c in skipped.constants] == [("pkg.mod.DEFAULT_NAME", "config.toml")]
    assert skipped.noqa == ((25, ("C901",)),)
    # the module's definitions, and the names it binds by import or by assigning another name, are
    # read from its `ast` tree after the screen, as outcome facts are
    assert "Loader.load" in full.functions
    assert skipped == dataclasses.replace(full, functions=(), reexports=())


def test_file_noqa_of_a_skipped_file_is_kept():
    source = "# failcode: noqa\nX = 1\n"
    skipped, full = _screened(source.encode(), "quiet.py", Settings())
    assert skipped is not None and skipped.file_noqa == ()  # the bare form: every code
    assert skipped == full


def test_what_ast_cannot_parse_goes_to_libcst_which_reports_it():
    source = b"def f(:\n    pass\n"
    skipped, full = _screened(source, "broken.py", Settings())
    assert skipped is None
    assert full[0] == "unparseable"
    with pytest.raises(InputError):
        extract_file(source, "broken.py", "pkg.mod", False, Settings())


MIXED = '''\
import json

TIMEOUT = 30


@retry(times=3)
def load(path):
    try:
        with open(path) as handle:
            return json.load(handle)
    except OSError:
        return None


class Client:
    def get(self, url):
        try:
            return fetch(url)
        except Exception:  # noqa: BLE001
            return None


def grade(text, expected, failures):
    try:
        answer = json.loads(text)
        if answer != expected:
            failures.add("ANSWER_MISMATCH")
    except Exception:
        failures.add("ANSWER_MISMATCH")
'''


def test_libcst_reads_only_the_definitions_that_may_hold_facts():
    """`grade` records codes; the import, `TIMEOUT`, `load` and `Client` hold none, so LibCST reads
    `grade` alone, its lines mapped to the file's; what the others tell the extractor (an import,
    a name bound, two definitions) comes from `ast`. The facts, try and handler ids included, are
    full extraction's."""
    tree = ast.parse(MIXED)
    plan = screen.Screen(Settings()).plan(MIXED.encode(), MIXED, tree, "mixed.py", "pkg.mod")
    assert isinstance(plan, screen.Masked)
    assert plan.text.splitlines() == MIXED.splitlines()[22:29]
    assert plan.rows == tuple(range(23, 30))
    told, after = plan.prelude
    assert [event[0] for event in told] == ["import", "other", "def", "def"] and after == ()
    assert [event[1] for event in told[1:]] == ["TIMEOUT", "load", "Client"]
    masked_facts = extract_file(MIXED.encode(), "mixed.py", "pkg.mod", False, Settings())
    full = extract_file(MIXED.encode(), "mixed.py", "pkg.mod", False, Settings(), prescreen=False)
    assert masked_facts == full
    assert [site.pos.line for site in full.sites] == [27, 29]
    assert full.noqa == ((19, ("BLE001",)),)


SPARED = '''\
"""The module's statements outside `grade` hold no fact, but they tell the extractor things."""
from __future__ import annotations

from json import loads as parse_json
from . import codes as C

if True:
    PARSE_FAILED = "PARSE_FAILED"
    TIMED_OUT = "TIMED_OUT"

    def fetch(url):
        return url


def grade(text, expected, failures):
    try:
        answer = parse_json(text)
        if answer != expected:
            failures.add(TIMED_OUT)
    except Exception:
        failures.add(PARSE_FAILED)
    try:
        fetch(text)
    except Exception:
        failures.add(C.FETCH_FAILED)


TIMED_OUT = 30  # rebound after grade: no longer a constant
'''


def test_what_libcst_is_spared_still_tells_the_extractor():
    """LibCST reads `from __future__` (its parser may need it) and `grade`; the import aliases, the
    constants, and `fetch` defined in this module come from `ast`, in source order: the stage is
    `json.loads`, the sites name the constants' values, `C.FETCH_FAILED` is qualified by the
    relative import, and the try around `fetch` is not one external call."""
    plan = screen.Screen(Settings()).plan(SPARED.encode(), SPARED, ast.parse(SPARED), "pkg/grader.py", "pkg.grader")
    assert isinstance(plan, screen.Masked)
    assert plan.text.splitlines()[0] == "from __future__ import annotations"
    assert plan.text.splitlines()[1] == "def grade(text, expected, failures):"
    assert plan.rows[:2] == (2, 15)
    facts = extract_file(SPARED.encode(), "pkg/grader.py", "pkg.grader", False, Settings())
    assert facts == extract_file(SPARED.encode(), "pkg/grader.py", "pkg.grader", False, Settings(), prescreen=False)
    assert [(site.pos.line, site.ref) for site in facts.sites] == [
        (19, "pkg.grader.TIMED_OUT"), (21, "pkg.grader.PARSE_FAILED"), (25, "pkg.codes.FETCH_FAILED")]
    assert [(found.pos.line, [stage.name for stage in found.stages], found.single_external_call)
            for found in facts.tries] == [(16, ["json.loads", "!= on answer"], False), (22, [], False)]
    assert [(constant.qualname, constant.value) for constant in facts.constants] == [
        ("pkg.grader.PARSE_FAILED", "PARSE_FAILED"), ("pkg.grader.TIMED_OUT", "TIMED_OUT")]


def test_a_method_that_imports_keeps_its_imports_in_the_stub():
    """An import inside a fact-free method binds a name LibCST resolves everywhere after it
    (`np` below, `json` once more): the method's stub keeps each import on its own line, as the
    stub's body; one sharing the `def` line with the header cannot be kept apart, so that method
    is read. A fact-free function at module level tells its imports through the prelude."""
    source = CLASS_WITH_ONE_JUDGE.replace("        try:\n            return text", "        import numpy as np\n"
                                          "        try:\n            from json import (\n                load,\n"
                                          "            )\n            return text", 1)
    plan = screen.Screen(Settings()).plan(source.encode(), source, ast.parse(source), "g.py", "pkg.mod")
    assert isinstance(plan, screen.Masked)
    assert plan.text.splitlines()[:10] == [
        "class Grader:", "    timeout = 30", "", "    def normalise():",  # the header on the decorator's line
        "        import numpy as np", "        from json import (", "                load,", "            )",
        "", "    def grade(self, text, expected, failures):"]
    assert plan.rows[:10] == (1, 2, 3, 4, 6, 8, 9, 10, 14, 15)
    facts = extract_file(source.encode(), "g.py", "pkg.mod", False, Settings())
    assert facts == extract_file(source.encode(), "g.py", "pkg.mod", False, Settings(), prescreen=False)
    one_line = source.replace("    def grade(", "    def quick(self): import numpy as np; return 1\n\n    def grade(")
    plan = screen.Screen(Settings()).plan(one_line.encode(), one_line, ast.parse(one_line), "m.py", "pkg.mod")
    assert "    def quick(self): import numpy as np; return 1" in plan.text and "    def normalise():" in plan.text
    module_level = MIXED.replace("    try:\n        with open", "    import numpy as np\n    try:\n        with open", 1)
    plan = screen.Screen(Settings()).plan(module_level.encode(), module_level, ast.parse(module_level), "m.py", "pkg.mod")
    told = plan.prelude[0]
    assert "def load" not in plan.text and told[told.index(("def", "load")) + 1][1].names[0].asname == "np"


def test_a_large_file_goes_to_libcst_in_parts(monkeypatch):
    """Over PART_SIZE of masked text, the definitions that may hold facts are shared out among parts
    (LibCST's memory grows with the module); each part tells every import, and the facts, try and
    handler ids included, are one read's."""
    grader = MIXED[MIXED.index("def grade("):]
    source = MIXED + "".join(grader.replace("def grade(", f"def grade_{n}(") + "\n" for n in range(6))
    tree = ast.parse(source)
    monkeypatch.setattr(screen, "PART_SIZE", len(grader) * 2 + 20)  # two definitions a part
    plan = screen.Screen(Settings()).plan(source.encode(), source, tree, "big.py", "pkg.mod")
    assert isinstance(plan, tuple) and len(plan) == 4
    assert all(part.prelude[0][0][0] == "import" for part in plan)
    assert ["def grade_5(text, expected, failures):" in part.text for part in plan] == [False, False, False, True]
    facts = extract_file(source.encode(), "big.py", "pkg.mod", False, Settings())
    full = extract_file(source.encode(), "big.py", "pkg.mod", False, Settings(), prescreen=False)
    assert facts == full
    assert len(full.sites) == 14 and [t.id for t in full.tries] == list(range(7))


def test_an_alias_of_a_registry_name_is_registry_like_everywhere():
    """`from codes import FAILURE_CODES as KNOWN` makes `r in KNOWN` a filter in any function,
    though its line holds no registry word: the screen reads the file's aliases first, so the
    function that filters by KNOWN is read by LibCST and the others stay masked."""
    source = MIXED.replace("import json\n", "import json\nfrom codes import FAILURE_CODES as KNOWN\n", 1) + (
        "\n\ndef known(reasons):\n    return [r for r in reasons if r in KNOWN]\n")
    plan = screen.Screen(Settings()).plan(source.encode(), source, ast.parse(source), "m.py", "pkg.mod")
    assert isinstance(plan, screen.Masked)
    assert "    return [r for r in reasons if r in KNOWN]" in plan.text and "def load" not in plan.text
    facts = extract_file(source.encode(), "m.py", "pkg.mod", False, Settings())
    assert facts == extract_file(source.encode(), "m.py", "pkg.mod", False, Settings(), prescreen=False)
    assert [(f.container, f.pos.line) for f in facts.filters] == [("codes.FAILURE_CODES", 34)]


def test_fullwidth_text_in_strings_and_comments_keeps_the_masking():
    """Halfwidth katakana in a regex and a fullwidth letter in a comment are words NFKC would
    change, but no identifier: the file is still masked, with full extraction's facts. A fullwidth
    letter in a name (`ｘerrors` is `xerrors` to `ast`) sends the whole file (control)."""
    source = MIXED.replace("TIMEOUT = 30\n", "TIMEOUT = 30\nKANA = re.compile('[\uff66-\uff9d]')  # \uff58\n", 1)
    plan = screen.Screen(Settings()).plan(source.encode(), source, ast.parse(source), "m.py", "pkg.mod")
    assert isinstance(plan, screen.Masked) and "def load" not in plan.text
    assert extract_file(source.encode(), "m.py", "pkg.mod", False, Settings()) == \
        extract_file(source.encode(), "m.py", "pkg.mod", False, Settings(), prescreen=False)
    named = source.replace("def load(path):", "def load(\uff58path):", 1).replace("open(path)", "open(xpath)", 1)
    assert screen.Screen(Settings()).plan(named.encode(), named, ast.parse(named), "m.py", "pkg.mod") is None


def test_an_alias_the_text_scan_misses_sends_the_whole_file():
    """Control: a comment between the name and `as` hides the alias from the text scan; the import
    itself still tells the screen, which then cannot prove any definition fact-free."""
    source = MIXED.replace("import json\n", "import json\nfrom codes import (FAILURE_CODES  # the list\n    as KNOWN)\n", 1)
    assert screen.Screen(Settings()).plan(source.encode(), source, ast.parse(source), "m.py", "pkg.mod") is None


CLASS_WITH_ONE_JUDGE = '''\
class Grader:
    timeout = 30

    @staticmethod
    def normalise(text):
        try:
            return text.strip().lower()
        except AttributeError:
            return text

    def grade(self, text, expected, failures):
        if self.normalise(text) != expected:
            failures.add("ANSWER_MISMATCH")
'''


def test_a_class_is_read_with_its_fact_free_methods_masked():
    """`Grader.grade` records a code, `normalise` holds no fact: LibCST reads `normalise` as an
    indented stub on its decorator's line, and the class's other statements as they are."""
    source = CLASS_WITH_ONE_JUDGE
    plan = screen.Screen(Settings()).plan(source.encode(), source, ast.parse(source), "g.py", "pkg.mod")
    assert isinstance(plan, screen.Masked)
    assert plan.text.splitlines()[:4] == ["class Grader:", "    timeout = 30", "", "    def normalise(): pass"]
    assert plan.text.splitlines()[4:] == source.splitlines()[9:]
    assert plan.rows == (1, 2, 3, 4, 10, 11, 12, 13)
    masked = extract_file(source.encode(), "g.py", "pkg.mod", False, Settings())
    assert masked == extract_file(source.encode(), "g.py", "pkg.mod", False, Settings(), prescreen=False)
    assert [(site.function, site.pos.line) for site in masked.sites] == [("Grader.grade", 13)]


def test_a_module_level_if_is_read_with_its_fact_free_definitions_masked():
    """Service modules define their endpoints under `if FEATURE_AVAILABLE:`: the fact-free ones
    are stubs, as a class's methods, and the facts are full extraction's. An `else` that may hold
    a fact keeps all of the `if` (control)."""
    body = CLASS_WITH_ONE_JUDGE.replace("class Grader:\n    timeout = 30\n", "if GRADING:\n    TIMEOUT = 30\n", 1)
    body = body.replace("    @staticmethod\n", "", 1).replace("(self, ", "(", 1).replace("self.normalise", "normalise", 1)
    plan = screen.Screen(Settings()).plan(body.encode(), body, ast.parse(body), "g.py", "pkg.mod")
    assert isinstance(plan, screen.Masked)
    assert plan.text.splitlines()[:4] == ["if GRADING:", "    TIMEOUT = 30", "", "    def normalise(): pass"]
    assert extract_file(body.encode(), "g.py", "pkg.mod", False, Settings()) == \
        extract_file(body.encode(), "g.py", "pkg.mod", False, Settings(), prescreen=False)
    with_else = body + "else:\n    def grade(text, expected, failures):\n        failures.add('NOT_GRADED')\n"
    assert screen.Screen(Settings()).plan(with_else.encode(), with_else, ast.parse(with_else), "g.py", "pkg.mod") is None
    assert extract_file(with_else.encode(), "g.py", "pkg.mod", False, Settings()) == \
        extract_file(with_else.encode(), "g.py", "pkg.mod", False, Settings(), prescreen=False)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("source", [MIXED, CLASS_WITH_ONE_JUDGE, CLASS_WITH_ONE_JUDGE.replace("    ", "\t"),
                                    CLASS_WITH_ONE_JUDGE.replace("\n    @staticmethod", "\n\f    @staticmethod"),
                                    CLASS_WITH_ONE_JUDGE.replace('("ANSWER_MISMATCH")', '("ANSWER_MISMATCH")  # \f\v')])
def test_masking_keeps_every_line_break_and_indent(source, newline):
    """LF, CRLF, lone CR, tab-indented files, a form feed before an indented definition and form
    feeds inside a kept line (no line break to Python, though `str.splitlines` splits there) are
    masked keeping each kept line's own break, with full extraction's facts."""
    data = source.replace("\n", newline).encode()
    text = data.decode()
    plan = screen.Screen(Settings()).plan(data, text, ast.parse(text), "m.py", "pkg.mod")
    assert isinstance(plan, screen.Masked)
    assert plan.text.count(newline) == len(plan.rows)
    assert plan.text.count("\r") + plan.text.count("\n") == len(plan.rows) * len(newline)
    assert extract_file(data, "m.py", "pkg.mod", False, Settings()) == \
        extract_file(data, "m.py", "pkg.mod", False, Settings(), prescreen=False)


def test_the_name_before_as_is_the_trailing_dotted_name():
    """`_aliases` reads the name before `as` from the end of its window, as `[\\w.]+$` would find
    it: the same answer on windows of ASCII and Unicode letters, digits, marks and separators."""
    expression = re.compile(r"[\w.]+$")
    pieces = list("ab_.9 \t(é٣²Ⅻ-") + ["\u00b7", "\u0300", "ｘ", "\u200c", "pkg.codes", "FAILURE_CODES"]
    rng = random.Random(31)
    for _ in range(5000):
        window = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))
        found = expression.search(window)
        assert screen._trailing_name(window) == (found.group() if found else ""), repr(window)
    assert list(screen._aliases("from pkg.codes import FAILURE_CODES as KNOWN\n")) == [("FAILURE_CODES", "KNOWN")]
