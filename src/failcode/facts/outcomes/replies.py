"""What a function answers from a model or a service, and an error message that stands in for it.

A function that returns what a model or service replied (`return completion.choices[0].message.
content`, `return resp["message"]["content"]`) hands its callers an *answer*: a game takes it as
the player's move, a grader scores it, a generator stores it as data. When the call fails and a
broad handler returns an error message in its place (`except Exception as e: return f"An error
occurred: {e}"`), the failure reaches them as an answer, and is scored, played or stored as one.

The reply may be read in the try itself, or by a function of ours the try calls (`out =
self._make_request(observation)`): each function's summary says whether it returns a reply it
read (`FileFacts.replies`), and the project answers for a called name across modules
(`Summaries.returns_reply`; issue 23, principle 2). Three answers are not outputs: a *tool*'s, which
a model reads and is told the error in words (a function decorated as a tool, a method of a
`…Tool`/`…Toolkit` class or of a class derived from one); a *marker* (`"<could not read body>"`),
text in brackets that says it is no output; and the answer of a function whose genuine path already
says in words what failed (`return f"Failed to fetch slots: {response.text}"`): a message on every
path.
"""

from __future__ import annotations

import ast
import re
from typing import Optional

from failcode.causes import is_broad_family
from failcode.facts.outcomes.records import _Pending
from failcode.facts.outcomes.syntax import (
    _NOWHERE, _SCOPES, _awaited, _callee, _caught, _dotted, _narrows, _reraises, _simple_statements, _text)
from failcode.facts.walk import walk
from failcode.model import ANY_REPLY

# The parts of a model's or a service's reply that hold its output (`choices[0].message.content`,
# `["generated_text"]`, `response.text`): a value read through one of them is the reply's answer.
_REPLY_PARTS = frozenset("choices content text generated_text output_text completion message outputs "
                         "generations".split())
# The words of an error message (the concept "something failed"), as a handler's text says them.
_ERROR_TEXT = re.compile(r"\b(?:error|errors|failed|failure|exception|unable to|could not|couldn't|cannot)\b",
                         re.IGNORECASE)
# Text in brackets says it is a marker, not output: `"<no output>"`, `"[error reading body]"`.
_MARKER = re.compile(r"^\s*(?:<.*>|\[.*\]|\(.*\))\s*$", re.DOTALL)
# What a tool is called (the concept "a tool": its answer is read by a model).
_TOOL = re.compile(r"(?:Tool|Toolkit|Tools)$")


def _error_text(node: ast.expr) -> Optional[str]:
    """The words of a message built as a string (`f"An error occurred: {e}"`, `"Error: " +
    str(e)`, `"…".format(e)`, a list of one), when they say something failed and are no marker."""
    text = _text(node.elts[0]) if isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) == 1 else _text(node)
    return text if text is not None and _ERROR_TEXT.search(text) and not _MARKER.match(text) else None


class Replies:
    """Part of `Scan`: whether the function returns a reply it read, and an error message a broad
    handler returns in the place of one."""

    def note_answer(self, value: ast.expr) -> None:
        """A return on the genuine path: the function gives a reply when the value reads one."""
        if self._reply_read(_awaited(value), frozenset()):
            self.gives_reply = True

    def _reply_read(self, value: ast.expr, derived: frozenset[str]) -> bool:
        """`completion.choices[0].message.content.strip()`, `resp["message"]["content"]`: a part of
        a reply (`_REPLY_PARTS`) read from what another package's call returned, or from a name
        `derived` from one."""
        part = False
        node = value
        while True:
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                node = node.func.value
            elif isinstance(node, ast.Attribute):
                part = part or node.attr in _REPLY_PARTS
                node = node.value
            elif isinstance(node, ast.Subscript):
                key = node.slice
                part = part or isinstance(key, ast.Constant) and key.value in _REPLY_PARTS
                node = node.value
            else:
                break
        if isinstance(node, ast.Name):
            return node.id in derived or part and (node.id in self.remote or node.id in self.answered)
        return part and isinstance(node, ast.Call) and not self.local(node) and not self.is_own_call(node)

    def error_as_reply(self, attempt, handler: ast.ExceptHandler, types: tuple[str, ...]) -> None:
        """Notes a broad handler that returns an error message (`_error_text`) where its try returns
        a reply: one it reads itself, or our own function's answer (a `relay`, which the project
        confirms returns a reply). Quiet in a tool, whose answer a model reads, and where the try's
        answer frames what it read in words of its own (`_framed`)."""
        end = handler.body[-1]
        if not isinstance(end, ast.Return) or end.value is None or not is_broad_family(types) \
                or _narrows(handler) or _reraises(handler.body) \
                or not all(isinstance(statement, (ast.Expr, ast.Pass)) for statement in handler.body[:-1]):
            return
        text = _error_text(end.value)
        if text is None or self.serves_a_model():
            return
        found = self._answer_of(attempt)
        if found is None or self._speaks_in_messages():
            return
        returned, kind, source = found
        if _framed(returned):
            return  # an answer in words, told apart from the error in words beside it
        why = ("returns", source) if kind == "reply-read" else ("returns the answer of our", source)
        callee = self._relayed_from(source) if kind == "relay" else ""
        self.writes.append(_Pending(returned, self.qualname, "return", (ANY_REPLY,), "verdict", kind, why,
                                    handler.lineno, (0, _NOWHERE), source=callee))
        self.writes.append(_Pending(end.value, self.qualname, "return", (repr(text),), "fallback", "error-text",
                                    _caught(types), handler.lineno,
                                    (attempt.lineno, attempt.body[-1].end_lineno or attempt.lineno), attempt))

    def _speaks_in_messages(self) -> bool:
        """A return outside every handler that already answers a failure in words (`return
        f"Failed to fetch slots: {response.text}"` after a status test): the function's answer is a
        message for whoever reads it, which says what failed on every path, not an output to take
        for data. Asked only of a handler about to be reported; one pass over the function's own
        statements, outside its handlers and nested definitions."""
        stack: list[ast.AST] = list(self.function.body)
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Return) and node.value is not None and _error_text(node.value) is not None:
                return True
            # a try's handlers are no statements, so their bodies are left out with the definitions
            stack.extend(child for child in ast.iter_child_nodes(node)
                         if isinstance(child, ast.stmt) and not isinstance(child, _SCOPES))
        return False

    def _answer_of(self, attempt) -> Optional[tuple[ast.expr, str, ast.expr]]:
        """The first return of the try that gives a reply: (its value, `reply-read` or `relay`, the
        call or value the reply comes from). A name the try binds from a reply's part (`text =
        reply.choices[0].message.content`, `lines = text.split()`) is one too; a name bound to our
        own call's answer (`out = self._make_request(obs)`) relays it."""
        derived: set[str] = set()
        relayed: dict[str, ast.Call] = {}
        for statement in _simple_statements([*attempt.body, *attempt.orelse]):
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
                    and isinstance(statement.targets[0], ast.Name):
                name, value = statement.targets[0].id, _awaited(statement.value)
                if self.is_own_call(value):
                    relayed[name] = value
                elif any(isinstance(node, ast.expr) and self._reply_read(node, frozenset(derived))
                         for node in walk(value)):
                    derived.add(name)
            elif isinstance(statement, ast.Return) and statement.value is not None:
                value = _awaited(statement.value)
                if any(isinstance(node, ast.expr) and self._reply_read(node, frozenset(derived)) for node in walk(value)):
                    return statement.value, "reply-read", value
                if self.is_own_call(value):
                    return statement.value, "relay", value
                if isinstance(value, ast.Name) and value.id in relayed:
                    return statement.value, "relay", relayed[value.id]
        return None

    def _relayed_from(self, call: ast.expr) -> str:
        """Whose answer a relay returns: a method of this class by its qualified name
        (`OllamaAgent._make_request`, this file's definition), another function of ours by its
        last name (every definition of it in the project answers for it)."""
        root, _, rest = (_callee(call) or "").partition(".")
        if root in ("self", "cls") and rest in self.methods:
            return f"{self.qualname.rpartition('.')[0]}.{rest}"
        return (rest or root).rpartition(".")[2]

    def serves_a_model(self) -> bool:
        """A tool: decorated as one (`@tool`, `@function_tool`, `@mcp.tool()`), or a method of a
        class named as one (`SearchTool`, `BrowserToolkit`) or derived from one (`class
        CalCom(Toolkit)`). Its answer is read by a model, which is told the error in words on
        purpose."""
        decorators = (_dotted(d.func if isinstance(d, ast.Call) else d) or "" for d in self.function.decorator_list)
        return any("tool" in name.lower() for name in decorators) \
            or any(_TOOL.search(part) for part in self.qualname.split(".")[:-1]) \
            or any(_TOOL.search(base) for base in self.bases)


def _framed(value: ast.expr) -> bool:
    """An answer that frames what was read in words of its own (`f"Content from {url}:\\n\\n{text}"`,
    `f"Web search results for: {query}\\n\\n{results}"`): a message to whoever reads it, which an
    error message in its place (`f"Error reading from {url}: {e}"`) is told apart from."""
    if not isinstance(value, ast.JoinedStr):
        return False
    words = [part.value for part in value.values if isinstance(part, ast.Constant) and isinstance(part.value, str)]
    return len(" ".join(words).split()) >= 2
