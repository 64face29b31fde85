"""Part of the extractor: what a module defines at its top level that can be a registry, and where
it looks a code up in one.

A collection or `Literal` of codes bound to a name, a class of members, a `type` alias, and the
module's UPPER_CASE string constants (which may name a code), the registry-like types that
annotate a function's return or a name, and the registry-like lists a code is looked up in by its
place (`ORDER.index(code)`): lists used as the whole vocabulary.
"""

from __future__ import annotations

import builtins
from typing import Optional

import libcst as cst

from failcode.facts import registries
from failcode.facts.imports import dotted
from failcode.facts.sinks import string_value
from failcode.facts.vocabulary import DOTTED_NAME
from failcode.model import COLLECTIONS, Constant


class Definitions:
    """Part of `Extractor`: registries, constants, registry-typed annotations and lookups."""

    def _note_lookups(self, node: cst.Call) -> None:
        """`ORDER.index(code)`, `sorted(failures, key=ORDER.index)`: a code looked up in a
        registry-like list by its place, which fails for a code the list lacks."""
        for part in (node.func, *(arg.value for arg in node.args)):
            if isinstance(part, cst.Attribute) and part.attr.value == "index":
                name = dotted(part.value)
                if name is not None and self.shapes.looks_like_registry(name.rpartition(".")[2]):
                    self.lookups.add(self._qualify(name))

    def _registry_type(self, annotation: cst.BaseExpression, plain: bool = False) -> Optional[str]:
        """The qualified name of a registry-like type (`Outcome`, `codes.FailureReason`,
        `Optional[Outcome]`, `"Outcome"`, `Outcome | None`), else None. `plain` also takes a type
        of this project whose name has no registry word (`Grade`): it may be a `Literal` alias, a
        registry found by this use of it."""
        if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
            for side, other in ((annotation.left, annotation.right), (annotation.right, annotation.left)):
                if isinstance(other, cst.Name) and other.value == "None":
                    return self._registry_type(side, plain)
            return None
        if isinstance(annotation, cst.Subscript) and len(annotation.slice) == 1 and \
                isinstance(annotation.slice[0].slice, cst.Index) and \
                (self.imports.resolve(annotation.value) or "").rpartition(".")[2] == "Optional":
            return self._registry_type(annotation.slice[0].slice.value, plain)
        name = string_value(annotation) if isinstance(annotation, cst.SimpleString) else dotted(annotation)
        short = name.rpartition(".")[2] if name is not None and DOTTED_NAME.fullmatch(name) else ""
        if not short or short.endswith(("Error", "Exception")):
            return None
        qualname = self._qualify(name)
        if self.shapes.looks_like_registry(short):
            return qualname
        # a type of ours: defined here, or imported from this project (`from .kinds import Grade`)
        ours = qualname.split(".")[0] == self.module_name.split(".")[0] if self.imports.is_imported(name) \
            else not hasattr(builtins, name)
        return qualname if plain and short[:1].isupper() and ours else None

    def _module_assignment(self, name: str, target: cst.Name, value: cst.BaseExpression) -> None:
        literal = string_value(value)
        if literal is not None:
            self._constant(name, literal)
            return
        self.strings.pop(name, None)
        found = registries.collection_elements(value, self.imports, self.strings)
        # any `Literal[...]` alias: one whose name has no registry word is a registry by use (`-> Grade`);
        # so is a constant collection of codes (`ORDER = ("READ_FAILED", "ANSWER_MISMATCH")`), once a
        # filter pairs it with recorded reasons
        if found is not None and (found[0] == "literal" or self.shapes.looks_like_registry(name)
                                  or self._code_collection(name, found)):
            module, path = self.module_name, self.path
            self.pending.append(lambda pos_of: registries.build(name, module, path, pos_of(target), found, pos_of))

    def _constant(self, name: str, literal: str) -> None:
        """`name = "text"` at module level: an UPPER_CASE name is a constant that may name a code."""
        if name.isupper():
            qualname = self._qualify(name)
            self.pending.append(lambda pos_of: Constant(qualname, literal))
            self.strings[name] = literal

    def _code_collection(self, name: str, found: tuple) -> bool:
        """`ORDER = ("READ_FAILED", "ANSWER_MISMATCH")`: a constant list, tuple or set of two or
        more codes (screen.py's `_code_collection` is its superset)."""
        return name.isupper() and found[0] in COLLECTIONS and len(found[1]) >= 2 \
            and all(self.code_re.match(code) for _, code, _ in found[1])

    def visit_TypeAlias(self, node) -> Optional[bool]:
        name = node.name.value
        if self.function is None and not self.classes:
            found = registries.collection_elements(node.value, self.imports)
            if found is not None and (found[0] == "literal" or self.shapes.looks_like_registry(name)):
                module, path = self.module_name, self.path
                self.pending.append(lambda pos_of: registries.build(name, module, path, pos_of(node.name), found, pos_of))
        return None

    def _class_registry(self, node: cst.ClassDef) -> None:
        name = node.name.value
        if name.endswith(("Error", "Exception")) or not self.shapes.looks_like_registry(name):
            return
        found = registries.class_elements(node, self.imports)
        if found is not None:
            module, path = self.module_name, self.path
            self.pending.append(lambda pos_of: registries.build(name, module, path, pos_of(node.name), found, pos_of))
