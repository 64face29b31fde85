"""A module-local import table: enough to resolve `from json import loads as L` to `json.loads`.

Built during the one traversal instead of LibCST's QualifiedNameProvider, which costs several
parses per file.
"""

from __future__ import annotations

import ast
from typing import Optional, Union

import libcst as cst


def dotted(node: cst.CSTNode) -> Optional[str]:
    """`a.b.c` for a Name/Attribute chain, None for anything else."""
    parts = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if not isinstance(node, cst.Name):
        return None
    parts.append(node.value)
    return ".".join(reversed(parts))


class ImportTable:
    """Local name → fully qualified dotted name, for every import in the module."""

    def __init__(self, module: str, is_package: bool) -> None:
        self.names: dict[str, str] = {}
        self.targets: set[str] = set()  # every imported module or name, fully qualified
        package = module if is_package else module.rpartition(".")[0]
        self._package = package.split(".") if package else []

    def add_import(self, node: cst.Import) -> None:
        if isinstance(node.names, cst.ImportStar):
            return
        self._modules([(dotted(alias.name), _alias(alias)) for alias in node.names])

    def add_import_from(self, node: cst.ImportFrom) -> None:
        if isinstance(node.names, cst.ImportStar):
            return
        self._names(dotted(node.module) if node.module is not None else "", len(node.relative),
                    [(dotted(alias.name), _alias(alias)) for alias in node.names])

    def add_ast(self, node: Union[ast.Import, ast.ImportFrom]) -> None:
        """The same for an `ast` import: one in a part of the file LibCST was spared
        (facts/screen.py `Masked.prelude`)."""
        names = [(alias.name, alias.asname) for alias in node.names]
        if isinstance(node, ast.Import):
            self._modules(names)
        elif names != [("*", None)]:
            self._names(node.module or "", node.level, names)

    def _modules(self, names: list[tuple[Optional[str], Optional[str]]]) -> None:
        """`import a.b` binds `a`; `import a.b as c` binds `c` to `a.b`."""
        for target, alias in names:
            if target is None:
                continue
            self.targets.add(target)
            if alias is not None:
                self.names[alias] = target
            else:
                root = target.split(".")[0]
                self.names[root] = root

    def _names(self, base: Optional[str], level: int, names: list[tuple[Optional[str], Optional[str]]]) -> None:
        """`from base import name as alias`, `level` dots up from this module's package."""
        if level:
            anchor = self._package[: len(self._package) - (level - 1)] if level > 1 else self._package
            base = ".".join([*anchor, base] if base else anchor)
        if base is None:
            return
        for name, alias in names:
            if name is None:
                continue
            local = alias or name
            self.names[local] = f"{base}.{name}" if base else name
            self.targets.add(self.names[local])

    def resolve(self, node: cst.CSTNode) -> Optional[str]:
        """The import-resolved dotted name of a Name/Attribute chain."""
        name = dotted(node)
        if name is None:
            return None
        return self.resolve_text(name)

    def resolve_text(self, name: str) -> str:
        root, dot, rest = name.partition(".")
        target = self.names.get(root)
        if target is None:
            return name
        return f"{target}{dot}{rest}"

    def is_imported(self, name: str) -> bool:
        return name.split(".")[0] in self.names


def _alias(alias: cst.ImportAlias) -> Optional[str]:
    return alias.asname.name.value if alias.asname is not None and isinstance(alias.asname.name, cst.Name) else None
