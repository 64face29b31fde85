"""Facts of one file, plain data and no judgement. `extract_file` is the only way in.

It decodes the bytes, parses them with `ast`, lets the pre-screen (facts/screen.py) prove that the
file holds no fact LibCST would find, and only otherwise parses with LibCST and walks it once
(facts/extract.py): the whole file, or, when the screen can tell which top-level functions and
classes hold none, the file with those masked. LibCST is imported on first need, so a run that the
screen or the cache answers never loads it, and the extraction modules too, so a run the cache
answers loads none of them. Outcome channels (facts/outcomes/) are read from the `ast` tree on
either path, so the screen never has to mirror them.
"""

from __future__ import annotations

import ast
import dataclasses
import sys
from typing import TYPE_CHECKING

from failcode.config import Settings
from failcode.facts.source import InputError, decode, python_syntax_error
from failcode.model import FileFacts

if TYPE_CHECKING:
    from failcode.facts.stages import StageClassifier

__all__ = ["InputError", "extract_file"]


def extract_file(data: bytes, path: str, module: str, is_package: bool, settings: Settings,
                 prescreen: bool = True) -> FileFacts:
    """Facts of one file's bytes; `prescreen=False` sends every file to LibCST (the reference the
    screen is tested against). Raises InputError for input problems; anything else is a bug."""
    from failcode.facts.aliases import aliases, reexports
    from failcode.facts.outcomes import outcome_facts
    from failcode.facts.outcomes.fields import field_reads
    from failcode.facts.screen import parse, screened

    text = decode(data)
    tree = parse(text)
    plan = screened(data, text, tree, path, module, settings) if prescreen and tree is not None else None
    if isinstance(plan, FileFacts):
        facts = plan
    else:
        from failcode.facts.extract import extract_source

        if plan is None:
            facts = extract_source(text, path, module, is_package, settings, tree)
            if tree is None:  # LibCST parsed what this Python's `ast` cannot: outcome facts still count
                tree = _newer_syntax(text)
        elif isinstance(plan, tuple):  # a large file, in parts
            from failcode.facts.extract import extract_parts

            facts = extract_parts(plan, text, path, module, is_package, settings)
        else:  # LibCST reads only the top-level statements that may hold facts
            facts = extract_source(text, path, module, is_package, settings, masked=plan)
    writes, blames, tallies, enums, raises, functions, absences, replies, records = outcome_facts(
        tree, text, _stages(settings), module, is_package) if tree is not None else ((), (), (), (), (), (), (), (), ())
    derived = aliases(tree, module, is_package) if tree is not None else ()
    bound = reexports(tree) if tree is not None else ()
    reads = field_reads(text)
    if writes or blames or derived or tallies or enums or raises or functions or bound or absences or replies \
            or records or reads:
        facts = dataclasses.replace(facts, writes=writes, blames=blames, aliases=derived, tallies=tallies, enums=enums,
                                    raises=raises, functions=functions, reexports=bound, absences=absences,
                                    replies=replies, records=records, reads=reads)
    return facts


def _newer_syntax(text: str) -> ast.Module:
    """The `ast` of a file written for a newer Python (facts/downgrade.py); a file that cannot be
    read that way is reported, never checked in part."""
    from failcode.facts.downgrade import ast_tree

    tree = ast_tree(text)
    if tree is None:
        error = python_syntax_error(text)
        where = (error.line, error.column) if error is not None else (1, 1)
        raise InputError("unparseable", f"Python {sys.version_info[0]}.{sys.version_info[1]} cannot parse this "
                         f"syntax ({error.message if error else 'newer syntax'}) and failcode could not rewrite it; "
                         f"run failcode on a newer Python", *where)
    return tree


_STAGES: dict[Settings, StageClassifier] = {}


def _stages(settings: Settings) -> StageClassifier:
    from failcode.facts.stages import StageClassifier

    stages = _STAGES.get(settings)
    if stages is None:
        stages = _STAGES[settings] = StageClassifier(settings.stages)
    return stages
