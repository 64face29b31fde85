"""A module-local import table: enough to resolve `from json import loads as L` to `json.loads`.

Built during the one traversal instead of LibCST's QualifiedNameProvider, which costs several
parses per file.
"""

from __future__ import annotations

from typing import Optional

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
        for alias in node.names:
            target = dotted(alias.name)
            if target is None:
                continue
            self.targets.add(target)
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self.names[alias.asname.name.value] = target
            else:
                root = target.split(".")[0]
                self.names[root] = root

    def add_import_from(self, node: cst.ImportFrom) -> None:
        base = dotted(node.module) if node.module is not None else ""
        if node.relative:
            level = len(node.relative)
            anchor = self._package[: len(self._package) - (level - 1)] if level > 1 else self._package
            base = ".".join([*anchor, base] if base else anchor)
        if base is None or isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            name = dotted(alias.name)
            if name is None:
                continue
            local = name
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
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
