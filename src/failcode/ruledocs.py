"""Rule pages (`rules/FCxxx.md`): what `failcode explain` prints, SARIF help, and doc tests.

Installed wheels carry the pages inside the package (`failcode/rule_pages/`); a source checkout
reads the top-level `rules/` directory, so there is one copy of each page.
"""

from __future__ import annotations

import re
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_CANDIDATES = (_HERE / "rule_pages", _HERE.parent.parent / "rules")
_SECTION = re.compile(r"^## (.+)$", re.MULTILINE)
_PYTHON_BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


def directory() -> Path:
    for candidate in _CANDIDATES:
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("rule pages not found in " + " or ".join(str(c) for c in _CANDIDATES))


def page(code: str) -> str:
    return (directory() / f"{code}.md").read_text(encoding="utf-8")


def sections(code: str) -> dict[str, str]:
    """Section title → body text."""
    text = page(code)
    parts = _SECTION.split(text)
    return {parts[i].strip(): parts[i + 1].strip() for i in range(1, len(parts) - 1, 2)}


def examples(code: str) -> tuple[str, str]:
    """The `Example` (must fire) and `Use instead` (must stay quiet) modules of a page."""
    found = sections(code)
    example = _PYTHON_BLOCK.search(found["Example"])
    fixed = _PYTHON_BLOCK.search(found["Use instead"])
    if example is None or fixed is None:
        raise ValueError(f"{code}.md lacks a python block in Example or Use instead")
    return example.group(1), fixed.group(1)


def summary_text(code: str) -> str:
    """The first paragraph of `What it does`, for short descriptions (the whole page is the help)."""
    return sections(code).get("What it does", "").split("\n\n")[0]
