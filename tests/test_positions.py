"""Positions computed statement by statement (facts/positions.py) are exactly PositionProvider's.

Two checks on real source: the facts of every corpus file are identical whichever way positions
are computed, and for a spread of nodes of every kind a fact can be (strings, names, calls,
comparisons, try/except, loops, comprehensions, definitions) the statement-by-statement ranges
equal PositionProvider's — without falling back to it.
"""

from __future__ import annotations

import ast
import sys

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from corpus import examples, fixture_sources, stdlib
from failcode.config import Settings
from failcode.facts import extract as extraction
from failcode.facts import positions
from failcode.facts.positions import statement_positions

sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))

FACT_KINDS = (
    cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.Name, cst.Attribute, cst.Call,
    cst.Comparison, cst.Try, cst.TryStar, cst.ExceptHandler, cst.ExceptStarHandler, cst.For, cst.Match,
    cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp, cst.BinaryOperation, cst.Subscript,
    cst.ClassDef, cst.FunctionDef, cst.If, cst.While, cst.With, cst.Lambda, cst.Integer,
)

TRICKY = {
    "crlf": "def f(x):\r\n    if x == 'A_B':\r\n        return 'A_B'\r\n    return 'C_D'\r\n",
    "lone_cr": "x = 1\rdef f():\r    failures.add('X_Y')\r",
    "no_trailing_newline": "def f():\n    try:\n        g()\n    except Exception:\n        return 'E_F'",
    "tabs_and_formfeed": "class A:\n\tdef f(self):\n\t\tif a:\n\t\t\tb = 'X_Y'\n\x0c\nx = 2\n",
    "decorators": "@deco(\n    'A_B',\n)\n@other\ndef f(\n    a='X_Y',\n):\n    return a\n\n@(\n  lambda f: f)\nclass C:\n    X = 'Q_R'\n",
    "elif_chain": "def f(s):\n    if s == 'a':\n        x = 'A_A'\n    elif s == 'b':\n        x = 'B_B'\n    elif (s\n          == 'c'):\n        x = 'C_C'\n    else:\n        x = 'D_D'\n    return x\n",
    "semicolons_and_suites": "def f():\n    a = 'A_B'; b = 'C_D'; failures.add(a)\n    if a: status = 'E_F'; return 'G_H'\n    while b: b = None\n",
    "comments_and_blank_lines": "# lead\n\n\ndef f():\n    # comment\n\n    x = 1  # trailing\n    # between\n\n    return 'A_B'\n# footer\n",
    "continuations": "def f():\n    x = 'A' \\\n        'B'\n    y = ('C_D'\n         'E')\n    return x + \\\n        y\n",
    "unicode": "def f():\n    café = 'ÉTAT_X'\n    naïve = {'clé': 'VALEUR_Y'}\n    return café, '日本_語'\n",
    "async": "async def f():\n    async with a() as b:\n        async for c in b:\n            status = 'A_B'\n    return [d async for d in e if d in FAILURE_CODES]\n",
    "match": "def f(status):\n    match status:\n        case 'A_B' | 'C_D':\n            return 'X_Y'\n        case {'k': v} if v == 'Q_R':\n            pass\n        case _:\n            pass\n",
    "try_star_finally": "def f():\n    try:\n        g()\n    except* ValueError as e:\n        failures.add('A_B')\n    else:\n        pass\n    finally:\n        h()\n",
    "nested": "class A:\n    class B:\n        def f(self):\n            def g():\n                return lambda: 'A_B'\n            return [x for x in ERRORS if x in REASONS]\n",
    "walrus_fstring": "def f():\n    if (n := len(x)) > 1:\n        status = f'{n}_X'\n    return {**a, 'k': 'A_B'} & CODES\n",
    "docstring_and_globals": '"""Doc."""\nfrom __future__ import annotations\nglobal_x = 1\n\ndef f():\n    global global_x\n    del a, b\n    assert x, "A_B"\n',
    "only_comments": "# nothing here\n",
    "empty_lines_with_spaces": "def f():\n    x = 1\n    \n        \n    return 'A_B'\n",
    # a try's range from `ast` where LibCST agrees, rendered where it may not (the `;` it leaves out)
    "try_ends": "def f():\n    try: x = 'é'\n    except E: pass;\n    try:\n        y = 1; z = 2;\n"
                "    except (A,\n            B) as e:  # c\n        w = 'ü' ; v = 3 \\\n            + 4\n"
                "    finally:\n        pass  # done\n    try: pass\n    except: (\n        1)\n",
}


def _positions(module: cst.Module, nodes):
    ranges = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    return {id(node): ranges[node] for node in nodes}


def _spread(module: cst.Module, most: int) -> list[cst.CSTNode]:
    """Up to `most` nodes of fact kinds, spread over the module in source order."""
    found: list[cst.CSTNode] = []

    class Collect(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, FACT_KINDS):
                found.append(node)
            return True

    module.visit(Collect())
    step = max(1, len(found) // most)
    return found[::step]


def _check_nodes(name: str, text: str, most: int) -> int:
    module = cst.parse_module(text)
    nodes = _spread(module, most)
    fast = statement_positions(module, nodes, text)  # raises Unpositioned rather than fall back
    slow = _positions(module, nodes)
    wrong = [(type(node).__name__, slow[id(node)], fast.get(id(node))) for node in nodes
             if fast.get(id(node)) != slow[id(node)]]
    assert not wrong, f"{name}: {wrong[:5]}"
    return len(nodes)


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_tricky_layouts_position_every_node_like_position_provider(name):
    text = TRICKY[name]
    try:
        ast.parse(text)
    except SyntaxError:
        pytest.skip(f"this Python cannot parse {name}")
    assert _check_nodes(name, text, most=10_000) > 0 or name == "only_comments"


def test_latin1_cookie_file_positions_match():
    data = "# -*- coding: latin-1 -*-\ndef f():\n    x = 'CAF\xc9_X'\n    return x\n".encode("latin-1")
    text = extraction.decode(data)
    assert _check_nodes("latin-1", text, most=10_000) == 5  # def, f, x, the string, x


@pytest.mark.slow
def test_corpus_nodes_position_like_position_provider():
    checked = 0
    for name, data in examples() + fixture_sources() + stdlib(limit=30):
        try:
            text = extraction.decode(data)
            ast.parse(text)
            cst.parse_module(text)
        except (extraction.InputError, SyntaxError, ValueError, cst.ParserSyntaxError):
            continue
        checked += _check_nodes(name, text, most=150)
    assert checked > 2000


TRIES = (cst.Try, cst.TryStar, cst.ExceptHandler, cst.ExceptStarHandler)


def _try_ranges_agree(sources) -> int:
    checked = 0
    for name, text in sources:
        try:
            module = cst.parse_module(text)
        except cst.ParserSyntaxError:
            continue  # Python 2 test data among the stdlib's
        nodes = [node for node in _spread(module, 10_000) if isinstance(node, TRIES)]
        fast = statement_positions(module, nodes, text)
        slow = _positions(module, nodes)
        assert [id(node) for node in nodes if fast[id(node)] != slow[id(node)]] == [], name
        checked += len(nodes)
    return checked


def test_try_ranges_read_from_ast_are_position_providers():
    """Asked for try statements and their handlers alone (as TryBlock facts ask), the ranges come
    from `ast` without rendering, and equal PositionProvider's; where a block ends in `;` (which
    LibCST's range leaves out) the statement is rendered instead."""
    assert _try_ranges_agree([("try_ends", TRICKY["try_ends"]), ("try_star_finally", TRICKY["try_star_finally"])]) >= 6
    module = cst.parse_module(TRICKY["try_ends"])
    tree = ast.parse(TRICKY["try_ends"])
    tries = [node for node in _spread(module, 10_000) if isinstance(node, cst.Try)]
    found = [node for node in ast.walk(tree) if isinstance(node, ast.Try)]
    starts = [0] + [match.end() for match in positions._NEWLINE.finditer(TRICKY["try_ends"])]
    told = [positions._try_ranges(cst_try, ast_try, [id(cst_try)], TRICKY["try_ends"], starts, lambda line: line)
            for cst_try, ast_try in zip(tries, sorted(found, key=lambda node: node.lineno))]
    assert [ranges is not None for ranges in told] == [False, True, True]  # `except E: pass;` is rendered


@pytest.mark.slow
def test_try_ranges_on_the_stdlib_are_position_providers():
    assert _try_ranges_agree([(name, extraction.decode(data)) for name, data in stdlib(limit=60)]) > 200


def _facts_identical(corpus) -> int:
    settings = Settings()
    shapes, stages = extraction._tools(settings)
    with_facts = 0
    for name, data in corpus:
        try:
            text = extraction.decode(data)
            module = extraction.parse(text)
        except extraction.InputError:
            continue
        fast = extraction.Extractor(module, name, "m", False, settings, shapes, stages).run(text, None)
        slow = extraction.Extractor(module, name, "m", False, settings, shapes, stages).run(None, None)
        assert fast == slow, name
        with_facts += bool(fast.sites or fast.tries or fast.tests or fast.registries or fast.filters)
    return with_facts


@pytest.mark.slow
def test_corpus_facts_identical_with_either_way_of_positioning():
    assert _facts_identical(examples() + fixture_sources() + stdlib(limit=120)) >= 20


@pytest.mark.slow
def test_whole_stdlib_facts_identical_with_either_way_of_positioning():
    assert _facts_identical(stdlib()) >= 40


def test_a_rendering_that_has_ended_takes_late_ranges_quietly():
    """A rendering stops by raising `_Complete` when the last wanted range is stored. Once it has
    ended another way (Ctrl-C), a LibCST generator it left suspended is closed later by the garbage
    collector, and its `finally` stores its node's range: that store must not raise, or Python
    prints an ignored exception after `failcode: interrupted` (tests/test_signals.py saw it, by its
    timing). While the rendering runs, the last store still stops it."""
    from libcst._position import CodePosition, CodeRange

    from failcode.facts.positions import _Complete, _State

    where = CodeRange(CodePosition(1, 0), CodePosition(1, 1))
    running, ended = cst.Name("x"), cst.Name("y")
    for node in (running, ended):
        state = _State(default_indent="    ", default_newline="\n", provider=None)
        state.setup(node, [id(node)])
        state.anchor_line = 1
        if node is ended:
            state.ended()  # what the renderer does when the rendering stops, however it stops
            state.provider._computed[node] = where
        else:
            with pytest.raises(_Complete):
                state.provider._computed[node] = where
        assert state.provider._computed.final == {id(node): where}
