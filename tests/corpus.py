"""Real source for the performance tests: examples/, the tests' own fixture sources, the Python
examples of the rule pages, and an evenly spread part of the running interpreter's stdlib.

Each item is (name, bytes). Nothing here decides what a test expects.
"""

from __future__ import annotations

import ast
import os
import re
import sysconfig
import textwrap
from pathlib import Path
from typing import Optional

REPO = Path(__file__).resolve().parent.parent
_CODE_BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


def stdlib_files(limit: Optional[int] = None) -> list[Path]:
    """The stdlib's .py files (site-packages, test/ and idlelib/ left out), sorted; `limit` of them
    spread evenly over the whole list so every package is represented."""
    root = Path(sysconfig.get_paths()["stdlib"])
    found = []
    for directory, subdirectories, files in os.walk(root):
        top = Path(directory).relative_to(root).parts[:1]
        if top and top[0] in ("site-packages", "dist-packages", "test", "idlelib"):
            subdirectories[:] = []
            continue
        found.extend(Path(directory, name) for name in files if name.endswith(".py"))
    found.sort()
    if limit is None or limit >= len(found):
        return found
    step = len(found) / limit
    return [found[int(i * step)] for i in range(limit)]


def stdlib(limit: Optional[int] = None) -> list[tuple[str, bytes]]:
    root = Path(sysconfig.get_paths()["stdlib"])
    return [(path.relative_to(root).as_posix(), path.read_bytes()) for path in stdlib_files(limit)]


def examples() -> list[tuple[str, bytes]]:
    return [(path.relative_to(REPO).as_posix(), path.read_bytes())
            for path in sorted((REPO / "examples").rglob("*.py"))]


def fixture_sources() -> list[tuple[str, bytes]]:
    """Every multi-line string literal in tests/*.py that parses as Python (the sources the tests
    write into projects), and every ```python block of the rule pages."""
    found = []
    for test_file in sorted((REPO / "tests").glob("*.py")):
        try:
            tree = ast.parse(test_file.read_text(encoding="utf-8"))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and "\n" in node.value:
                source = textwrap.dedent(node.value).lstrip("\n")
                if _parses(source):
                    found.append((f"{test_file.name}:{node.lineno}", source.encode()))
    for page in sorted((REPO / "rules").glob("*.md")):
        for number, block in enumerate(_CODE_BLOCK.findall(page.read_text(encoding="utf-8"))):
            found.append((f"{page.name}#{number}", block.encode()))
    return found


def _parses(source: str) -> bool:
    try:
        ast.parse(source)
    except (SyntaxError, ValueError):
        return False
    return True
