"""The fast paths change nothing a user sees: the same report with one job or two, with or without
the cache, cold or warm, with or without the pre-screen; a warm run never loads LibCST; a handful of files or a run inside another
pool's worker gets no process pool of its own."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest
from conftest import REPO, failcode
from corpus import stdlib_files
from failcode import engine
from failcode.engine import Options


def _project(root: Path, stdlib_count: int) -> Path:
    """A spread of the stdlib next to examples/ (whose findings the reports must agree on)."""
    stdlib_root = Path(sysconfig.get_paths()["stdlib"])
    for path in stdlib_files(limit=stdlib_count):
        target = root / "std" / path.relative_to(stdlib_root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    shutil.copytree(REPO / "examples", root / "examples")
    return root


@pytest.mark.slow
def test_report_is_the_same_for_one_or_two_jobs_cold_or_warm_cache(tmp_path):
    root = _project(tmp_path / "proj", stdlib_count=200)
    cache = str(tmp_path / "cache")
    runs = {
        "jobs 1, no cache": failcode("check", ".", "--format", "json", "--jobs", "1", cwd=root),
        "jobs 2, no cache": failcode("check", ".", "--format", "json", "--jobs", "2", cwd=root),
        "jobs 2, cold cache": failcode("check", ".", "--format", "json", "--jobs", "2", "--cache-dir", cache, cwd=root),
        "jobs 1, warm cache": failcode("check", ".", "--format", "json", "--jobs", "1", "--cache-dir", cache, cwd=root),
    }
    reference = runs["jobs 1, no cache"]
    document = json.loads(reference.stdout)
    assert document["summary"]["files"] >= 200
    assert any(f["path"].startswith("examples/harness/") for f in document["findings"])
    for name, result in runs.items():
        assert (result.returncode, result.stdout, result.stderr) == (
            reference.returncode, reference.stdout, reference.stderr), name


@pytest.mark.slow
def test_no_prescreen_gives_the_same_report(tmp_path):
    """`--no-prescreen` is the reference the screen must match, on any tree a user points it at;
    here with a finding hidden behind a concatenated key, which the screen once skipped."""
    root = _project(tmp_path / "proj", stdlib_count=60)
    (root / "hidden.py").write_text(
        "def probe(client):\n"
        "    try:\n"
        "        request = build_request()\n"
        "        client.call(request)\n"
        "    except Exception:\n"
        "        return {'sta' 'tus': 'PROVIDER_FAILED'}\n", encoding="utf-8")
    screened = failcode("check", ".", "--no-cache", cwd=root)
    full = failcode("check", ".", "--no-cache", "--no-prescreen", cwd=root)
    assert (screened.returncode, screened.stdout, screened.stderr) == (full.returncode, full.stdout, full.stderr)
    assert "hidden.py:5:5: FC006" in full.stdout  # the `except` keyword of the catch-all


def test_text_report_is_the_same_warm_and_cold(tmp_path):
    root = _project(tmp_path / "proj", stdlib_count=40)
    cache = str(tmp_path / "cache")
    cold = failcode("check", ".", "--cache-dir", cache, cwd=root)
    warm = failcode("check", ".", "--cache-dir", cache, cwd=root)
    assert cold.returncode == warm.returncode
    assert (cold.stdout, cold.stderr) == (warm.stdout, warm.stderr)
    assert "examples/harness/reducer.py:17:5: FC002" in warm.stdout


@pytest.mark.parametrize("registry", [None, "codes.txt"])
def test_a_warm_run_never_loads_libcst(tmp_path, registry):
    """Nor the extraction modules (the screen, the outcome model): the cache answers every file.
    Also with a configured .txt registry, which is read on every run (it is no Python file)."""
    root = _project(tmp_path / "proj", stdlib_count=10)
    if registry:
        (root / "codes.txt").write_text("PARSE_FAILED\nPROVIDER_FAILED\n", encoding="utf-8")
        (root / "pyproject.toml").write_text(f'[tool.failcode]\nregistry = ["{registry}"]\n', encoding="utf-8")
    cache = str(tmp_path / "cache")
    cold = failcode("check", ".", "--cache-dir", cache, cwd=root)  # fills the cache
    script = textwrap.dedent(f"""
        import sys
        from failcode.cli import main
        sys.argv = ["failcode", "check", ".", "--cache-dir", {cache!r}]
        try:
            main()
        except SystemExit as exc:
            print("exit", exc.code, file=sys.stderr)
        print("libcst loaded:", "libcst" in sys.modules, file=sys.stderr)
        extraction = ("failcode.facts.screen", "failcode.facts.outcomes", "failcode.facts.extract")
        print("extraction loaded:", any(name in sys.modules for name in extraction), file=sys.stderr)
    """)
    result = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=300)
    assert f"exit {cold.returncode}" in result.stderr, result.stderr
    assert "libcst loaded: False" in result.stderr
    assert "extraction loaded: False" in result.stderr, result.stderr


def test_no_pool_for_a_few_files():
    assert engine._jobs(Options(jobs=4), engine.POOL_MIN_FILES - 1) == 1
    assert engine._jobs(Options(jobs=4), 100) == 4
    assert engine._jobs(Options(jobs=1), 100) == 1
    assert engine._jobs(Options(jobs=8), 10) == 8


def test_no_pool_inside_another_pools_worker(tmp_path):
    script = tmp_path / "nested.py"
    script.write_text(textwrap.dedent("""
        import multiprocessing
        from failcode import engine

        def jobs():
            return engine._jobs(engine.Options(jobs=4), 100)

        if __name__ == "__main__":
            with multiprocessing.get_context("spawn").Pool(1) as pool:
                print("in a worker:", pool.apply(jobs))
            print("in the main process:", jobs())
    """))
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert "in a worker: 1" in result.stdout, result.stderr
    assert "in the main process: 4" in result.stdout


def test_the_fast_walk_meets_every_node_ast_walk_meets():
    """facts/walk.py skips the fields that hold no node (`Name.id`, `Constant.value`, `Global.names`);
    it must still meet every node `ast.walk` meets (less `Load`/`Store` markers), and nothing else:
    a `case True:` pattern's value and `**rest` in a dict are no nodes."""
    import ast
    from collections import Counter

    from failcode.facts.walk import child_nodes, walk

    snippet = textwrap.dedent('''
        global g
        def f(x, *a, k=1, **kw):
            nonlocal_free = {**kw, "b": [y async for y in a if y]}
            match x:
                case None | True: pass
                case Point(x=0, y=[1, *rest]) as p: pass
                case {"a": 1, **others}: pass
            return f"{x!r:>{k}}" if (z := x) else lambda q: q
        ''')
    sources = [snippet, *(path.read_text(encoding="utf-8") for path in stdlib_files(limit=40))]
    for source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue  # lib2to3's Python 2 test data
        expected = Counter(id(node) for node in ast.walk(tree) if not isinstance(node, ast.expr_context))
        assert Counter(id(node) for node in walk(tree)) == expected
        children = Counter(id(child) for node in walk(tree) for child in child_nodes(node))
        assert children == expected - Counter({id(tree): 1})
